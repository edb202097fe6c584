"""Var[MI] on the routes added for speed and range (issue 22): interpolated conditional
expectations over long windows, and num with small clusters beyond N = 60.

References: tests/reference/make_mi_variance_smooth.py (40-digit defining sums, no window,
no interpolation). The interpolated route is also checked against the same engine
evaluating every position (SMOOTH_MIN raised above every window), on both sides of the
switch, for perm and for the slot routes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._expected.mi_variance import MAX_SIZE_LAW_N, SMOOTH_MIN
from chanceclust._validation import check_setting
from chanceclust.contingency import _summarize
from chanceclust.exceptions import InvalidInputError
from chanceclust.variance import _table_mi_variance, _table_smi

REFERENCE = Path(__file__).parent / "reference"


def _cases(name: str) -> list[dict]:
    return json.loads((REFERENCE / name).read_text())


def _variance(table, model="perm", one_sided=False) -> float:
    summary = _summarize(None, None, np.asarray(table))
    return _table_mi_variance(summary, check_setting(model, one_sided).sides_of_table(summary))


class _Spy:
    """Counts the rows that conditional_rows gets with windows of at least SMOOTH_MIN points
    (long), and the rows it evaluates at every position, long (a missed check) or not."""

    def __init__(self, monkeypatch):
        self.long = self.long_full = self.short_full = 0
        original = engine.conditional_rows

        def spy(count, width, evaluate, *nodes):
            def counted(rows, pos):
                if pos.shape[1] == width:
                    long = int((count[rows] >= SMOOTH_MIN).sum())
                    self.long_full += long
                    self.short_full += rows.size - long
                return evaluate(rows, pos)

            self.long += int((count >= SMOOTH_MIN).sum())
            return original(count, width, counted, *nodes)

        monkeypatch.setattr(engine, "conditional_rows", spy)


@pytest.mark.parametrize(
    "case", _cases("mi_variance_smooth.json"), ids=lambda c: f"{c['model']}-{c['n']}"
)
def test_interpolated_route_against_references(case, monkeypatch):
    """The pair route (forced: no Lancaster order), whose conditional expectations are
    interpolated over the long windows."""
    monkeypatch.setattr(engine, "LANCASTER_ORDERS", ())
    spy = _Spy(monkeypatch)
    summary = _summarize(None, None, np.array(case["table"]))
    sides = check_setting(case["model"], case["one_sided"]).sides_of_table(summary)
    assert _table_mi_variance(summary, sides) == pytest.approx(float(case["variance"]), rel=1e-10, abs=0)
    assert _table_smi(summary, sides) == pytest.approx(float(case["smi"]), rel=1e-10, abs=0)
    # Both sides of the switch: windows below SMOOTH_MIN evaluated in full, longer ones
    # through the nodes.
    assert spy.short_full > 0
    assert spy.long > spy.long_full


@pytest.mark.parametrize(
    "case", _cases("mi_variance_size_law.json"), ids=lambda c: f"{c['n']}-{c['one_sided']}"
)
def test_num_size_law_beyond_60_against_references(case):
    summary = _summarize(None, None, np.array(case["table"]))
    sides = check_setting(case["model"], case["one_sided"]).sides_of_table(summary)
    assert _table_mi_variance(summary, sides) == pytest.approx(float(case["variance"]), rel=1e-10, abs=0)
    assert _table_smi(summary, sides) == pytest.approx(float(case["smi"]), rel=1e-10, abs=1e-11)


def _uneven(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    sizes = np.maximum(1, np.round(rng.dirichlet(np.full(k, 5.0)) * n).astype(np.int64))
    sizes[np.argmax(sizes)] += n - sizes.sum()
    return sizes


def _table_of(rows, cols) -> np.ndarray:
    a = np.repeat(np.arange(len(rows)), rows)
    b = np.repeat(np.arange(len(cols)), cols)
    return cc.contingency_table(a, b)


@pytest.mark.parametrize(
    ("n", "ka", "kb", "model", "one_sided"),
    [
        (10_000, 4, 5, "perm", False),  # windows ~100 to ~400 points
        (3_000, 2, 7, "perm", False),
        (2_000, 2, 3, "perm", False),
        (100_000, 3, 3, "num", True),  # slot route, long windows
        (30_000, 4, 4, "all", True),
        (20_000, 2, 3, "num", False),  # two random sides: the joint cells and Cov(J, RA)
        (4_000, 3, 2, "num", False),
    ],
)
def test_interpolation_equals_every_position(n, ka, kb, model, one_sided, monkeypatch):
    from chanceclust.variance import _two_sided_mi_variance

    table = _table_of(_uneven(n, ka, 1), _uneven(n, kb, 2))
    _two_sided_mi_variance.cache_clear()  # two random sides are cached by (N, K_A, K_B)
    interpolated = _variance(table, model, one_sided)
    _two_sided_mi_variance.cache_clear()
    monkeypatch.setattr(engine, "SMOOTH_MIN", 10**9)
    monkeypatch.setattr("chanceclust._expected.mi_variance_slots.SMOOTH_MIN", 10**9)
    assert interpolated == pytest.approx(_variance(table, model, one_sided), rel=1e-12, abs=0)


def test_interpolation_falls_back_where_the_check_misses(monkeypatch):
    """With a tolerance no interpolant meets, every row is evaluated in full: same value."""
    table = _table_of([520, 330, 150], [610, 290, 100])
    value = _variance(table)
    monkeypatch.setattr(engine, "SMOOTH_TOL", -1.0)
    assert _variance(table) == pytest.approx(value, rel=1e-12, abs=0)


def test_conditional_rows_interpolates_a_polynomial_exactly():
    count = np.array([40, 150, 400])
    width = 400

    def evaluate(rows, pos):
        t = pos / (count[rows, None] - 1.0)
        return 1.0 + 3.0 * t - 2.0 * t**5

    out = engine.conditional_rows(count, width, evaluate)
    for row, c in enumerate(count.tolist()):
        t = np.arange(c) / (c - 1.0)
        np.testing.assert_allclose(out[row, :c], 1.0 + 3.0 * t - 2.0 * t**5, rtol=1e-13, atol=1e-13)
        assert not out[row, c:].any()


def test_num_size_law_limits():
    """num with small clusters: one random side up to MAX_SIZE_LAW_N[0], two up to [1]."""
    one, two = MAX_SIZE_LAW_N
    n = two + 1
    a, b = np.arange(n) % 3, np.arange(n) % (2 * n // 3)
    assert cc.mutual_information_variance(a, b, model="num", one_sided=True) > 0
    with pytest.raises(InvalidInputError, match="model='num'"):
        cc.mutual_information_variance(a, b, model="num", one_sided=False)
    n = one + 1
    a, b = np.arange(n) % 3, np.arange(n) % (2 * n // 3)
    with pytest.raises(InvalidInputError, match="model='num'"):
        cc.mutual_information_variance(a, b, model="num", one_sided=True)
