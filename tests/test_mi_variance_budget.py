"""Var[MI] under perm: the factored grids' error budget (issue 22, docs/math.md#math-routes).

A factored grid is kept where its 3 x 3 checks miss by at most SMOOTH_TOL of its largest
value (as before) or by at most its share of GRID_BUDGET (mi_variance._grid_tolerances):
GRID_BUDGET times the same-cell sum V, split equally among the grids, each divided by a
bound of how much an error of the grid moves Var T. Tested here:

* the switch on both sides, on factored_rows with a smooth F and a first try off by a known
  amount: kept just below the tolerance, the next try just above;
* the weight bound: every grid moved by its own tolerance (constant, ramps) moves Var T by at
  most GRID_BUDGET * V;
* shapes where the budget keeps grids that SMOOTH_TOL alone does not, against the earlier
  route (GRID_BUDGET = 0) at 1e-12 relative.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_mi_variance_factored import _labels  # Dirichlet(5) sizes, as benchmarks/smi.py

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._expected.laws import SizeLaw


def _recorded(points, name, f, offset=0.0):
    """``f`` plus ``offset``, each call recorded in ``points`` as (name, number of rows)."""

    def evaluate(total, r):
        points.append((name, len(total)))
        return f(total, r) + offset

    return evaluate


def _smooth_case():
    n, base, span = 10**6, 20000, engine.SMOOTH_MIN + 40
    totals = n - np.array([3000, 5000, 8000, 11000, 15000, 19000, 22000, 26000, 30000, 35000])
    count = np.full(totals.size, span)
    lo = np.rint(base * (n - totals) / n).astype(np.int64) - span // 2

    def f(total, r):
        t = (r - base * total / n) / 500.0
        return np.exp(0.3 * t) + 0.2 * (total / n) * t * t

    return n, base, totals, lo, count, f


@pytest.mark.parametrize("factor", [0.5, 2.0])
def test_budget_switch_on_both_sides(factor):
    """A first try off by eps (far above SMOOTH_TOL of the grid) is kept where the tolerance
    is 2 eps, and the exact 9 x 9 try follows where it is eps / 2."""
    n, base, totals, lo, count, f = _smooth_case()
    eps = 1e-9
    points = []
    evaluate, coarse = _recorded(points, "exact", f), _recorded(points, "coarse", f, eps)
    out = engine.factored_rows(n, totals, base, lo, count, evaluate, (coarse,), factor * eps)
    assert out is not None
    q = lo[:, None] + np.arange(count[0])
    exact = f(totals[:, None], base - q)
    kept_coarse = factor > 1.0
    assert points[:2] == [("coarse", 81), ("exact", 9)]
    if kept_coarse:
        assert points == [("coarse", 81), ("exact", 9)]
        assert np.abs(out - exact).max() == pytest.approx(eps, rel=1e-3)
    else:
        assert ("exact", 81) in points  # the next try, over the exact evaluations
        assert np.abs(out - exact).max() <= 1e-12 * np.abs(exact).max()


def _moments(sizes, n):
    values, counts = np.unique(sizes, return_counts=True)
    return engine.fixed_moments(
        SizeLaw(n, values.astype(np.int64), counts.astype(np.float64), True))


@pytest.mark.parametrize("pattern", ["constant", "ramp", "-ramp"])
def test_every_grid_moved_by_its_tolerance_moves_var_within_budget(monkeypatch, pattern):
    """Each factored grid's output moved by its own tolerance (the largest error a kept grid
    may have at its checks) moves Var T by at most GRID_BUDGET * V (the bound the shares are
    made from); 60 x 60 Dirichlet sizes at N = 10^5."""
    a, b = _labels(10**5, 60, seed=11)
    n = a.size
    rows = _moments(np.bincount(a), n)
    cols = _moments(np.bincount(b), n)
    clean = engine.total_variance(n, rows, cols)
    cells = engine._cells(n, rows.sizes, cols.sizes)
    same_cell = float(rows.once @ cells.var @ cols.once)
    original = engine.factored_rows
    moved = []

    def shifted(n_, totals, base, lo, count, evaluate, coarse=None, tolerance=0.0):
        out = original(n_, totals, base, lo, count, evaluate, coarse, tolerance)
        assert out is not None
        assert tolerance > 0.0
        moved.append(tolerance)
        width = out.shape[1]
        shape = {"constant": np.ones(width), "ramp": np.linspace(-1.0, 1.0, width),
                 "-ramp": np.linspace(1.0, -1.0, width)}[pattern]
        inside = np.arange(width)[None, :] < count[:, None]
        return out + np.where(inside, tolerance * shape[None, :], 0.0)

    monkeypatch.setattr(engine, "factored_rows", shifted)
    moved_var = engine.total_variance(n, rows, cols)
    assert len(moved) == len(rows.sizes) + len(cols.sizes)
    assert abs(moved_var - clean) <= engine.GRID_BUDGET * same_cell


@pytest.mark.slow
def test_budget_route_equals_the_earlier_route(monkeypatch):
    """N = 10^6, 100 x 100 Dirichlet sizes (seed 0: 81 of 199 grids kept from the
    partner-size nodes by SMOOTH_TOL alone, 180 with the budget; ~15 s): the value with the
    budget equals the one with SMOOTH_TOL alone (GRID_BUDGET = 0) at 1e-12 relative."""
    a, b = _labels(10**6, 100, seed=0)
    kept_first = []
    original = engine.factored_rows

    def spy(n, totals, base, lo, count, evaluate, coarse=None, tolerance=0.0):
        exact_points = []

        def counted(total, r, *rest):
            exact_points.append(len(total))
            return evaluate(total, r, *rest)

        out = original(n, totals, base, lo, count, counted, coarse, tolerance)
        kept_first.append(coarse is not None and exact_points == [9])
        return out

    monkeypatch.setattr(engine, "factored_rows", spy)
    # Every partner size interpolated (as before KIND_SPAN): with the small sizes summed one
    # by one, SMOOTH_TOL alone keeps every grid of this draw from the partner-size nodes.
    monkeypatch.setattr(engine, "KIND_SPAN", np.inf)
    with monkeypatch.context() as m:
        m.setattr(engine, "GRID_BUDGET", 0.0)
        old = cc.mutual_information_variance(a, b, model="perm")
    old_kept = sum(kept_first)
    kept_first.clear()
    new = cc.mutual_information_variance(a, b, model="perm")
    assert new == pytest.approx(old, rel=1e-12, abs=0)
    assert sum(kept_first) > old_kept  # grids kept only by the budget


def test_second_partner_size_try_on_both_sides_of_its_threshold():
    """_coarse_tries: one reduced evaluator (KIND_NODES sizes) from 2 KIND_NODES sizes, a
    second (KIND_MORE) from 2 KIND_MORE on; each sums a smooth function of log(size) as the
    full weights do, at 1e-12."""
    rng = np.random.default_rng(4)
    sizes = np.unique(rng.integers(2000, 30000, size=600))
    weights = rng.integers(1, 4, size=sizes.size).astype(np.float64)

    point = np.array([1]), np.array([1])
    for count, tries in [(2 * engine.KIND_NODES - 1, 0), (2 * engine.KIND_NODES, 1),
                         (2 * engine.KIND_MORE - 1, 1), (2 * engine.KIND_MORE, 2)]:
        w, at = weights[:count], sizes[:count]

        def cut(total, r, kinds=slice(None), w=w, at=at):
            f = np.sqrt(at[kinds]) + 30.0 / at[kinds]
            return np.full(len(total), float(w @ f))

        found = engine._coarse_tries(cut, sizes[:count], w)
        assert len(found) == tries
        for reduced in found:
            assert reduced(*point)[0] == pytest.approx(cut(*point)[0], rel=1e-12, abs=0)


@pytest.mark.slow
def test_second_partner_size_try_equals_the_earlier_route(monkeypatch):
    """N = 10^6, 100 x 100 Dirichlet sizes, seed 1: grids whose 25 partner sizes miss and
    whose 33 are kept (seen); the value equals the one without the second try (every
    partner size after the first miss) at 1e-12 relative (~20 s)."""
    a, b = _labels(10**6, 100, seed=1)
    seen = []
    original = engine.factored_rows

    def spy(n, totals, base, lo, count, evaluate, coarse=(), tolerance=0.0):
        calls = []

        def wrap(k, first):
            def counted(total, r):
                calls.append(k)
                return first(total, r)

            return counted

        tries = coarse if isinstance(coarse, tuple) else (coarse,)
        out = original(n, totals, base, lo, count, evaluate,
                       tuple(wrap(k, c) for k, c in enumerate(tries)), tolerance)
        seen.append(tuple(calls))
        return out

    with monkeypatch.context() as m:
        m.setattr(engine, "KIND_MORE", 10**9)
        old = cc.mutual_information_variance(a, b, model="perm")
    monkeypatch.setattr(engine, "factored_rows", spy)
    new = cc.mutual_information_variance(a, b, model="perm")
    assert new == pytest.approx(old, rel=1e-12, abs=0)
    assert (0, 1) in seen  # a grid from 33 partner sizes after a miss of 25


@pytest.mark.parametrize("ratio", [0.5, 2.0])
def test_second_try_only_after_a_near_miss(ratio):
    """The second partner-size try follows a first try that missed by at most KIND_MORE_MISS
    times its bound (here just below / above it); else every partner size follows."""
    n, base, totals, lo, count, f = _smooth_case()
    tolerance = 1e-10
    miss = ratio * engine.KIND_MORE_MISS * tolerance
    points = []
    evaluate, first = _recorded(points, "exact", f), _recorded(points, "first", f, miss)
    second = _recorded(points, "second", f)
    out = engine.factored_rows(n, totals, base, lo, count, evaluate, (first, second), tolerance)
    assert out is not None
    q = lo[:, None] + np.arange(count[0])
    assert np.abs(out - f(totals[:, None], base - q)).max() <= 1e-12 * np.abs(out).max()
    assert (("second", 81) in points) == (ratio < 1.0)
    assert (("exact", 81) in points) == (ratio > 1.0)
