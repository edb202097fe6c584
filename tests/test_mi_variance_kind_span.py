"""Var[MI] under perm: partner sizes far below the largest summed one by one (issue 22).

The factored grids' first tries sum over the partner sizes through the interpolant in
log(size) of a few of them (mi_variance._coarse). A size below the largest / KIND_SPAN puts
the summand's nearest complex singularities close to the interpolation range, so with
Dirichlet(1) sizes (from ~10 to ~5 x 10^4 at N = 10^6) every first try missed its checks;
those sizes are now summed one by one and the interpolation runs over the others
(docs/math.md#math-routes). Checked here: the reduced weights on both sides of the switch,
and the engine against the earlier routes (every partner size interpolated; every partner
size summed) at 1e-12 relative, with the new try seen kept.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_mi_variance_factored import _labels

import chanceclust as cc
import chanceclust._expected.mi_variance as engine


def _sizes_and_weights(seed: int, count: int):
    """1.6 count sizes within a factor KIND_SPAN of 40000, 0.8 count from 5 up to it."""
    rng = np.random.default_rng(seed)
    top = 40000.0
    edge = np.log(top / engine.KIND_SPAN)
    near = np.exp(rng.uniform(edge + 0.01, np.log(top), size=int(1.6 * count)))
    far = np.exp(rng.uniform(np.log(5.0), edge - 0.01, size=int(0.8 * count)))
    sizes = np.unique(np.rint(np.concatenate([far, near, [top]])).astype(np.int64))
    weights = rng.integers(1, 4, size=sizes.size).astype(np.float64)
    return sizes, weights


@pytest.mark.parametrize("side", ["below", "above"])
def test_far_sizes_are_summed_one_by_one_on_both_sides_of_the_switch(side):
    """A summand that is smooth in log(size) from the largest / KIND_SPAN on and arbitrary
    below it is summed exactly (1e-12) by the reduced weights; a size just below the switch is
    one of the reduced evaluator's sizes with its own weight, one just above is not."""
    sizes, weights = _sizes_and_weights(11, engine.KIND_NODES)
    top = int(sizes.max())
    edge = top / engine.KIND_SPAN
    probe = int(np.floor(edge - 1)) if side == "below" else int(np.ceil(edge + 1))
    sizes = np.unique(np.append(sizes, probe))
    weights = np.resize(weights, sizes.size)
    at = int(np.flatnonzero(sizes == probe)[0])
    rough = np.where(sizes * engine.KIND_SPAN < top, np.cos(7.0 * sizes), 0.0)
    calls = []

    def evaluate(total, r, kinds=slice(None), w=weights):
        calls.append((np.arange(sizes.size)[kinds], w))
        f = np.sqrt(sizes[kinds]) + 30.0 / sizes[kinds] + rough[kinds]
        return np.full(len(total), float(w @ f))

    coarse = engine._coarse(evaluate, sizes, weights)
    assert coarse is not None
    point = np.array([1]), np.array([1])
    assert coarse(*point)[0] == pytest.approx(evaluate(*point)[0], rel=1e-12, abs=0)
    kinds, reduced = calls[0]
    assert len(kinds) < sizes.size  # a reduction
    listed = at in kinds.tolist()
    if side == "below":
        assert listed
        assert reduced[kinds.tolist().index(at)] == weights[at]
    else:
        assert not listed or reduced[kinds.tolist().index(at)] != weights[at]


def test_too_few_sizes_near_the_largest_give_no_reduction():
    """At most KIND_NODES sizes from the largest / KIND_SPAN on: nothing to interpolate over
    (None), as below 2 KIND_NODES sizes in all."""
    count = engine.KIND_NODES
    top = 40000
    near = np.linspace(top // 2, top, count).astype(np.int64)
    far = np.arange(10, 10 + 2 * count)
    sizes = np.unique(np.concatenate([far, near]))
    weights = np.ones(sizes.size)

    def evaluate(total, r, kinds=slice(None), w=weights):
        return np.full(len(total), float(w @ np.sqrt(sizes[kinds])))

    assert engine._coarse(evaluate, sizes, weights) is None
    more = np.unique(np.concatenate([sizes, [top // 2 + 7]]))
    assert engine._coarse(evaluate, more, np.ones(more.size)) is not None


def _spy(monkeypatch) -> list:
    """Per factored grid: whether it was kept from the partner-size nodes (9 exact points,
    the checks, and the grid evaluated from fewer than every partner size)."""
    kept = []
    original = engine.factored_rows

    def spy(n, totals, base, lo, count, evaluate, coarse=(), tolerance=0.0):
        exact_points = []

        def counted(total, r, *rest):
            exact_points.append(len(total))
            return evaluate(total, r, *rest)

        out = original(n, totals, base, lo, count, counted, coarse, tolerance)
        kept.append(bool(coarse) and exact_points == [9])
        return out

    monkeypatch.setattr(engine, "factored_rows", spy)
    return kept


def test_dirichlet_1_sizes_equal_the_earlier_routes(monkeypatch):
    """N = 10^5, 60 x 60 Dirichlet(1) sizes (3 to ~7000): more grids kept from the
    partner-size nodes than with every size interpolated, and the value equals both earlier
    routes (every partner size interpolated; every partner size summed) at 1e-12."""
    a, b = _labels(10**5, 60, seed=3, alpha=1.0)
    kept = _spy(monkeypatch)
    new = cc.mutual_information_variance(a, b, model="perm")
    kept_new = sum(kept)
    kept.clear()
    with monkeypatch.context() as m:
        m.setattr(engine, "KIND_SPAN", np.inf)
        interpolated = cc.mutual_information_variance(a, b, model="perm")
    kept_old = sum(kept)
    with monkeypatch.context() as m:
        m.setattr(engine, "KIND_NODES", 10**9)
        summed = cc.mutual_information_variance(a, b, model="perm")
    assert kept_new > kept_old
    assert new == pytest.approx(interpolated, rel=1e-12, abs=0)
    assert new == pytest.approx(summed, rel=1e-12, abs=0)


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


def test_short_pair_rows_equal_every_position(monkeypatch):
    """N = 10^5, 60 x 60 Dirichlet(1) sizes: the pair rows of 32 to 95 positions
    interpolated (seen) give the value of every position there at 1e-12."""
    a, b = _labels(10**5, 60, seed=3, alpha=1.0)
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
