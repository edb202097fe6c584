"""Var[MI]: the pair route, which sums the pairs of cells where the Lancaster expansion does
not reach its bound (mi_variance._pair_route, docs/math.md#math-routes).

Every test here forces that route (``LANCASTER_ORDERS = ()``). Checked: its pmf rows (divided
by their sums where the mass outside is provably negligible, else anchored by Loader's
form), its pair rows interpolated from 9 nodes on windows of PAIR_SHORT points and more (on
both sides of the switch, and against every position), and the 40-digit references of
tests/reference/ with those rows kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._validation import check_setting
from chanceclust.contingency import _summarize
from chanceclust.variance import _table_mi_variance

REFERENCE = Path(__file__).parent / "reference"


@pytest.fixture(autouse=True)
def _pair_route(monkeypatch):
    """No Lancaster order: every pair of cells goes the pair route."""
    monkeypatch.setattr(engine, "LANCASTER_ORDERS", ())


def _labels(n: int, k: int, seed: int, alpha: float = 5.0) -> tuple[np.ndarray, np.ndarray]:
    """Two weakly related labelings with Dirichlet(alpha) cluster sizes (as benchmarks/smi.py)."""
    rng = np.random.default_rng(seed)
    sides = []
    for _ in range(2):
        s = np.maximum(1, np.round(rng.dirichlet(np.full(k, alpha)) * n).astype(np.int64))
        s[np.argmax(s)] += n - s.sum()
        sides.append(np.repeat(np.arange(k), s))
    a, b = sides
    shuffled = np.flatnonzero(rng.random(n) >= 0.03)
    b[shuffled] = rng.permutation(b[shuffled])
    return a, b

def _rows(total, a, b, start, width):
    args = (np.asarray(v, dtype=np.int64) for v in (total, a, b, start))
    total, a, b, start = args
    normalized = engine._hyp_rows(total, a, b, start, width, normalize=True)
    anchored = engine._hyp_rows(total, a, b, start, width)
    return normalized, anchored


@pytest.mark.parametrize(
    ("total", "a", "b", "start", "width", "case"),
    [
        # windows inside the support: the running product itself, rescaled once
        ([10**6, 10**6 - 500, 999_000], [10**4, 5000, 3000], [10**4, 8000, 3000],
         [0, 0, -5], 220, "inside"),
        # a running product that overflows (the mode ~ 4000 columns from the start): both ways
        ([10**7], [2 * 10**6], [10**5], [15_000], 8000, "overflow"),
        # the support ends inside the row: carry_pmf's masked rows
        ([50, 1000], [10, 30], [12, 40], [0, 0], 40, "partial"),
    ],
)
def test_normalized_rows_equal_anchored_rows(total, a, b, start, width, case):
    """pmf rows divided by their sums (every branch of mi_variance._normalized) equal the
    rows anchored by Loader's form where they are kept, and are anchored where not."""
    normalized, anchored = _rows(total, a, b, start, width)
    big = anchored > 1e-250 * anchored.max(axis=1, keepdims=True)
    assert np.all((normalized == 0) == (anchored == 0))
    np.testing.assert_allclose(normalized[big], anchored[big], rtol=1e-13, atol=0)
    if case != "partial":
        np.testing.assert_allclose(normalized.sum(axis=1), 1.0, rtol=1e-13)


def test_rows_divided_by_their_sums_on_both_sides_of_the_tail_bound(monkeypatch):
    """_hyp_rows(normalize=True): rows that hold all but < NORMALIZE_TAIL of the mass are
    divided by their sums (no Loader anchor), rows cut inside the bulk are anchored; both
    equal the anchored rows at 1e-13 (relative to each row's largest value)."""
    total, a, b = 10**6, 20000, 15000  # mean 300, sd ~17
    full = engine._hyp_rows(total, [a, a], [b, b], [300 - 200, 300 - 60], 401)
    anchors = []
    original = engine.hypergeom_pmf

    def counted(k, *rest):
        anchors.append(np.size(k))
        return original(k, *rest)

    monkeypatch.setattr(engine, "hypergeom_pmf", counted)
    rows = engine._hyp_rows(total, [a, a], [b, b], [300 - 200, 300 - 60], 401, normalize=True)
    assert anchors == [1]  # the second row misses 60 / 17 sd of the left tail: anchored
    scale = full.max(axis=1, keepdims=True)
    assert np.abs(rows - full).max() <= 1e-13 * scale.max()
    assert full[0, 0] < 1e-20 * scale[0, 0]  # the first row holds its bulk
    assert full[1, 0] > 1e-5 * scale[1, 0]  # the second is cut inside it


@pytest.mark.parametrize("length", [engine.PAIR_SHORT - 1, engine.PAIR_SHORT, engine.SMOOTH_MIN - 1])
def test_short_pair_rows_on_both_sides_of_the_switch(length):
    """conditional_rows with the perm pair rows' settings: a window of PAIR_SHORT to
    SMOOTH_MIN - 1 positions is interpolated from 9 nodes (12 evaluated positions) where its
    checks pass, one shorter is evaluated at every position; both equal the function at
    1e-12. A row whose checks miss is evaluated at every position (no 17 or 33 nodes)."""
    count = np.array([length, length])
    seen = []

    def smooth(rows, pos):
        seen.append(pos.shape[1])
        t = pos / 40.0
        scale = np.array([1.0, 2.0])[rows][:, None]
        return scale * (1.0 + t * (0.3 + t * (-0.05 + 0.01 * t)))  # 9 nodes reproduce it

    out = engine.conditional_rows(count, length, smooth, engine.PAIR_NODES, engine.PAIR_SHORT)
    want = smooth(np.arange(2), np.broadcast_to(np.arange(length), (2, length)))
    assert out == pytest.approx(want, rel=1e-12, abs=0)
    if length < engine.PAIR_SHORT:
        assert seen[0] == length  # every position
    else:
        assert seen[0] == engine.PAIR_NODES[0] + 3
        assert len(seen) == 2  # kept (seen[1] is the reference above)
    seen.clear()

    def rough(rows, pos):
        seen.append(pos.shape[1])
        return np.cos(2.5 * pos).astype(np.float64) + 0.0 * rows[:, None]

    out = engine.conditional_rows(count, length, rough, engine.PAIR_NODES, engine.PAIR_SHORT)
    expected_calls = [length] if length < engine.PAIR_SHORT else [engine.PAIR_NODES[0] + 3, length]
    assert seen == expected_calls
    assert out == pytest.approx(rough(np.arange(2), np.broadcast_to(np.arange(length), (2, length))),
                                rel=1e-12, abs=0)


@pytest.mark.slow
def test_short_pair_rows_equal_every_position(monkeypatch):
    """N = 10^4, 20 x 20 Dirichlet(1) sizes: the pair rows of 32 to 95 positions
    interpolated (seen) give the value of every position there at 1e-12."""
    a, b = _labels(10**4, 20, seed=3, alpha=1.0)
    short = []
    original = engine.conditional_rows

    def spy(count, width, evaluate, nodes=engine.NODES, shortest=engine.SMOOTH_MIN):
        def counted(rows, pos):
            short.append(int(np.sum((count[rows] < engine.SMOOTH_MIN)
                                    & (pos.shape[1] == nodes[0] + 3))))
            return evaluate(rows, pos)

        return original(count, width, counted, nodes, shortest)

    monkeypatch.setattr(engine, "conditional_rows", spy)
    new = cc.mutual_information_variance(a, b, model="perm")
    assert sum(short) > 0
    monkeypatch.setattr(engine, "PAIR_SHORT", engine.SMOOTH_MIN)
    old = cc.mutual_information_variance(a, b, model="perm")
    assert new == pytest.approx(old, rel=1e-12, abs=0)


class _PairRows:
    """Rows that the perm pair routes interpolate from 9 nodes (9 + 3 checks evaluated)."""

    def __init__(self, monkeypatch):
        self.nine = 0
        original = engine.conditional_rows

        def spy(count, width, evaluate, *nodes):
            def counted(rows, pos):
                self.nine += rows.size if pos.shape[1] == 9 + 3 else 0
                return evaluate(rows, pos)

            return original(count, width, counted, *nodes)

        monkeypatch.setattr(engine, "conditional_rows", spy)


def _long_window_references():
    cases = []
    for name in ("mi_variance.json", "mi_variance_smooth.json"):
        cases += [c for c in json.loads((REFERENCE / name).read_text())
                  if c["model"] == "perm" and c["n"] >= 1000]
    return cases


def test_nine_node_pair_rows_against_references(monkeypatch):
    """The 40-digit references at N >= 1000 (windows up to ~600 points) met with the rows
    that the 9 nodes give (kept in some of them)."""
    rows = _PairRows(monkeypatch)
    for case in _long_window_references():
        summary = _summarize(None, None, np.asarray(case["table"]))
        sides = check_setting("perm", False).sides_of_table(summary)
        value = _table_mi_variance(summary, sides)
        assert value == pytest.approx(float(case["variance"]), rel=1e-10, abs=0), case["n"]
    assert rows.nine > 0
