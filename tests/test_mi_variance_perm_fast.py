"""Var[MI] under perm: the cheaper first tries of the factored and pair routes (issue 22).

Three switches (docs/math.md#math-routes), each a first try whose checks decide, with the
earlier route as what follows a miss:

* the factored grids are first evaluated from KIND_NODES partner sizes, the sum over
  every partner size taken as that of the interpolant in log(size) (mi_variance._coarse),
  where a side has at least 2 KIND_NODES distinct sizes and the grid's r-range is long;
* the factored grids first try FACTOR_LONG = 9 x 9 nodes where the r-range has at least
  SMOOTH_MIN integers;
* the perm pair rows first try 9 Chebyshev nodes (PAIR_NODES) before 17 and 33;
* pmf rows whose mass beyond both ends is provably < NORMALIZE_TAIL of theirs are divided by
  their sums instead of anchored by Loader's form.

Each is checked against the route it precedes (the same engine with the switch off) at
1e-12 relative, with the new try seen kept, and on both sides of its threshold; the 40-digit
references of tests/reference/ are met with the new pair-row nodes kept.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from test_mi_variance_factored import _labels  # Dirichlet(5) sizes, as benchmarks/smi.py

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._validation import check_setting
from chanceclust.contingency import _summarize
from chanceclust.variance import _table_mi_variance

REFERENCE = Path(__file__).parent / "reference"


def _old_routes(m: pytest.MonkeyPatch) -> None:
    """The routes before these switches: every partner size, 9 x 17 nodes first, pair rows
    from 17 nodes, every pmf row anchored by Loader's form."""
    m.setattr(engine, "NORMALIZE_TAIL", -1.0)
    m.setattr(engine, "KIND_NODES", 10**9)
    m.setattr(engine, "FACTOR_LONG", ())
    m.setattr(engine, "PAIR_NODES", engine.NODES)


class _Grids:
    """Per factored grid: the points evaluated from the partner-size nodes ("coarse") and
    over every partner size ("exact"), and whether the grid was kept."""

    def __init__(self, monkeypatch):
        self.grids: Counter = Counter()
        original = engine.factored_rows

        def spy(n, totals, base, lo, count, evaluate, coarse=(), *tolerance):
            points: Counter = Counter()

            def exact(total, r, *rest):
                points["exact"] += len(total)
                return evaluate(total, r, *rest)

            def nodes(first):
                def counted(total, r):
                    points["coarse"] += len(total)
                    return first(total, r)

                return counted

            out = original(n, totals, base, lo, count, exact, tuple(nodes(c) for c in coarse),
                           *tolerance)
            self.grids[(points["coarse"], points["exact"], out is not None)] += 1
            return out

        monkeypatch.setattr(engine, "factored_rows", spy)

    def count(self, coarse: int, exact: int) -> int:
        return self.grids[(coarse, exact, True)]


def test_partner_size_nodes_and_9x9_grids_equal_the_earlier_route(monkeypatch):
    """N = 10^5, 50 x 50 Dirichlet sizes: grids kept from the partner-size nodes (81 coarse
    points, 9 exact checks), from 9 x 9 nodes over every size, and by the earlier tries."""
    a, b = _labels(10**5, 50, seed=7)
    with monkeypatch.context() as m:
        _old_routes(m)
        old = cc.mutual_information_variance(a, b, model="perm")
    grids = _Grids(monkeypatch)
    new = cc.mutual_information_variance(a, b, model="perm")
    assert new == pytest.approx(old, rel=1e-12, abs=0)
    assert grids.count(coarse=81, exact=9) > 0  # the partner-size nodes kept
    assert sum(v for (c, e, kept), v in grids.grids.items() if kept and c and e > 9) > 0
    assert not any(not kept for (_, _, kept) in grids.grids)


def test_partner_size_nodes_with_tiny_clusters_among_the_sizes(monkeypatch):
    """Sizes 1..10 among 60 (the summand is not smooth in log(size) there): the checks send
    those grids on to every partner size; the value is the earlier route's at 1e-12."""
    rng = np.random.default_rng(5)
    n = 10**5
    rows = np.concatenate([np.arange(1, 11), np.round(rng.dirichlet(np.full(50, 5.0)) * (n - 55))])
    cols = np.round(rng.dirichlet(np.full(60, 5.0)) * n)
    rows[-1] += n - rows.sum()
    cols[-1] += n - cols.sum()
    a = np.repeat(np.arange(60), rows.astype(np.int64))
    b = np.repeat(np.arange(60), cols.astype(np.int64))
    rng.shuffle(b)
    with monkeypatch.context() as m:
        _old_routes(m)
        old = cc.mutual_information_variance(a, b, model="perm")
    grids = _Grids(monkeypatch)
    assert cc.mutual_information_variance(a, b, model="perm") == pytest.approx(old, rel=1e-12, abs=0)
    assert sum(v for (c, e, kept), v in grids.grids.items() if c and e > 9) > 0  # coarse missed


@pytest.mark.parametrize(("n", "k"), [(10**4, 10), (10**4, 30), (10**5, 30)])
def test_first_tries_equal_the_earlier_route(monkeypatch, n, k):
    """Shapes with fewer than 2 KIND_NODES sizes: 9 x 9 grids (where long) and 9-node pair
    rows, against the earlier route."""
    a, b = _labels(n, k, seed=n + k)
    with monkeypatch.context() as m:
        _old_routes(m)
        old = cc.mutual_information_variance(a, b, model="perm")
    grids = _Grids(monkeypatch)
    assert cc.mutual_information_variance(a, b, model="perm") == pytest.approx(old, rel=1e-12, abs=0)
    assert not any(c for (c, _, _) in grids.grids)  # < 2 KIND_NODES sizes: no partner nodes
    if k >= engine.FACTOR_MIN and n >= 10**5:
        assert grids.count(coarse=0, exact=90) > 0  # 9 x 9 nodes + 9 checks, kept


def test_partner_size_switch_on_both_sides():
    """_coarse gives a reduced evaluator from 2 KIND_NODES distinct sizes on, None below;
    the reduced weights sum a smooth function of log(size) as the full weights do."""
    rng = np.random.default_rng(3)
    many = np.unique(rng.integers(2000, 25000, size=400))[: 2 * engine.KIND_NODES]
    weights = rng.integers(1, 4, size=many.size).astype(np.float64)

    def evaluate(total, r, kinds=slice(None), w=weights):
        f = np.sqrt(many[kinds]) + 30.0 / many[kinds]  # smooth in log(size)
        return np.full(len(total), float(w @ f))

    assert engine._coarse(evaluate, many[:-1], weights[:-1]) is None
    coarse = engine._coarse(evaluate, many, weights)
    assert coarse is not None
    point = np.array([1]), np.array([1])
    assert coarse(*point)[0] == pytest.approx(evaluate(*point)[0], rel=1e-12, abs=0)


@pytest.mark.parametrize("span", [engine.SMOOTH_MIN - 2, engine.SMOOTH_MIN + 40])
def test_9x9_grids_on_both_sides_of_the_long_switch(span):
    """factored_rows on a smooth F(M, r): 9 x 9 nodes (81 + 9 check points) only where the
    r-range has at least SMOOTH_MIN integers; the interpolant equals F at 1e-12."""
    n, base = 10**6, 20000
    totals = n - np.array([3000, 5000, 8000, 11000, 15000, 19000, 22000, 26000, 30000, 35000, 40000])
    count = np.full(totals.size, span)
    lo = np.rint(base * (n - totals) / n).astype(np.int64) - span // 2  # m-windows

    def f(total, r):
        t = (r - base * total / n) / 500.0
        return np.exp(0.3 * t) + 0.2 * (total / n) * t * t

    seen = []

    def evaluate(total, r):
        seen.append(len(total))
        return f(total, r)

    out = engine.factored_rows(n, totals, base, lo, count, evaluate)
    assert out is not None
    q = lo[:, None] + np.arange(span)
    assert np.abs(out - f(totals[:, None], base - q)).max() <= 1e-12 * np.abs(out).max()
    long = span >= engine.SMOOTH_MIN
    assert (seen[:2] == [81, 9]) == long


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
