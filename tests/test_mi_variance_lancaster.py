"""Var[MI]: the pairs of cells by their Lancaster expansion, against the pair route.

mi_variance._lancaster_pairs sums the pairs of distinct cells order by order over the Hahn
polynomials of each cell's law (docs/math.md#math-mi-lancaster). mi_variance._pair_route sums
the same pairs by conditional expectations, position by position. These tests check the
expansion against that route, on both sides of each switch of the expansion:

* the orders: 8, then 48 where 8 leave the bound above LANCASTER_TOL
  (mi_variance.LANCASTER_ORDERS), then the pair route;
* a cell's coefficients stopped where the recurrence's estimated error passes COEF_TOL.

The 40-digit references and the enumeration for N <= 8 (tests/test_mi_variance.py) go
through the expansion, as every call does by default. tests/test_lancaster.py checks the
polynomials and the canonical correlations in exact rationals.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._expected.lancaster import hahn_coefficients
from chanceclust._expected.laws import SizeLaw
from chanceclust.exceptions import InvalidInputError


def _moments(sizes) -> engine.SizeMoments:
    values, counts = np.unique(np.asarray(sizes, dtype=np.int64), return_counts=True)
    return engine.fixed_moments(SizeLaw(int(np.sum(sizes)), values, counts.astype(np.float64), True))


def _both_routes(rows_sizes, cols_sizes, kept=True) -> tuple[float, float, float]:
    """(expansion, pair route, same-cell sum) of E[Var(T | sizes)] for two fixed sides.
    ``kept``: the expansion must reach its bound (else its value is None where it does
    not: the pair route's own table)."""
    n = int(np.sum(rows_sizes))
    rows, cols = _moments(rows_sizes), _moments(cols_sizes)
    first = engine._expansion(n, rows, cols, engine.LANCASTER_ORDERS[0])
    same = float(rows.once @ first.var @ cols.once)
    pairs = engine._lancaster_pairs(n, rows, cols, first)
    assert pairs is not None or not kept
    cells = engine._cells(n, rows.sizes, cols.sizes)
    expansion = None if pairs is None else same + pairs
    return expansion, same + engine._pair_route(n, rows, cols, cells), same


def _labels_of(sizes, rng) -> np.ndarray:
    return rng.permutation(np.repeat(np.arange(len(sizes)), sizes))


@pytest.mark.parametrize(
    ("rows", "cols"),
    [
        # 16 x 14 sizes at N = 3000: the factored grids of the route before this one were
        # off by 2.4e-4 relative here (a grid kept whose error its checks did not see).
        ([37, 36, 13, 183, 26, 68, 61, 563, 54, 142, 539, 1, 2, 741, 333, 201],
         [120, 54, 307, 1488, 33, 97, 83, 50, 31, 166, 26, 31, 196, 318]),
        ([5000, 5000], [5000, 5000]),  # canonical correlations 1 at every order
        ([99000, 700, 300], [99500, 400, 100]),  # a cluster > N / 2 on each side
        ([2, 2, 996], [500, 500]),
        ([1000, 10], [505, 505]),
        ([150, 150], [2] * 150),
    ],
)
def test_expansion_equals_the_pair_route(rows, cols):
    expansion, pair_route, same = _both_routes(rows, cols)
    assert expansion == pytest.approx(pair_route, rel=1e-12, abs=1e-14 * same)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(4, 400),
    st.integers(2, 9),
    st.integers(2, 9),
    st.sampled_from([0.3, 1.0, 5.0]),
    st.integers(0, 2**32 - 1),
)
def test_expansion_equals_the_pair_route_on_random_sizes(n, ka, kb, alpha, seed):
    rng = np.random.default_rng(seed)
    ka, kb = min(ka, n), min(kb, n)
    sizes = [rng.multinomial(n - k, rng.dirichlet(np.full(k, alpha))) + 1 for k in (ka, kb)]
    expansion, pair_route, same = _both_routes(*sizes, kept=False)
    # Small tables with a cluster of about half the elements may leave the bound above
    # LANCASTER_TOL (correlations near 1): those go the pair route, which is the reference.
    if expansion is not None:
        assert expansion == pytest.approx(pair_route, rel=1e-12, abs=1e-14 * same)


@pytest.mark.parametrize(("model", "one_sided"), [
    ("num", True), ("num", False), ("all", True), ("all", False),
])
def test_random_sides_equal_the_pair_route(model, one_sided, monkeypatch):
    """num and all summed over sizes (N <= 20 two-sided, 30 one-sided): general pair moments
    W2 in the quadratic forms."""
    rng = np.random.default_rng(7)
    n = 18
    a, b = _labels_of([7, 6, 5], rng), _labels_of([9, 4, 3, 2], rng)
    value = cc.mutual_information_variance(a, b, model=model, one_sided=one_sided)
    monkeypatch.setattr(engine, "LANCASTER_ORDERS", ())
    assert value == pytest.approx(
        cc.mutual_information_variance(a, b, model=model, one_sided=one_sided), rel=1e-12
    )
    assert n == len(a)


def _orders_used(monkeypatch) -> list[int]:
    used: list[int] = []
    original = engine._expansion

    def spy(n, rows, cols, top, *cell):
        used.append(top)
        return original(n, rows, cols, top, *cell)

    monkeypatch.setattr(engine, "_expansion", spy)
    return used


def test_orders_on_both_sides_of_their_switch(monkeypatch):
    """A table that needs more than 8 orders (N = 500, clusters of 200-250 on both sides:
    correlations near 1) takes the 48; one that needs fewer stops at 8; both equal the
    pair route. With no order reaching the bound, the pair route itself."""
    used = _orders_used(monkeypatch)
    rows, cols = [250, 150, 70, 29, 1], [200, 200, 100]
    expansion, pair_route, _ = _both_routes(rows, cols)
    assert used == [8, 48]
    assert expansion == pytest.approx(pair_route, rel=1e-12)
    used.clear()
    expansion, pair_route, _ = _both_routes([5000, 3000, 2000], [6000, 4000])
    assert used == [8]
    assert expansion == pytest.approx(pair_route, rel=1e-12)
    rng = np.random.default_rng(3)
    a, b = _labels_of(rows, rng), _labels_of(cols, rng)
    value = cc.mutual_information_variance(a, b)
    monkeypatch.setattr(engine, "LANCASTER_TOL", 0.0)  # never reached: the pair route
    used.clear()
    assert cc.mutual_information_variance(a, b) == pytest.approx(value, rel=1e-12)
    assert used == [8, 48]


def _exact_window_coefficients(n, a, b, x, pmf, values, top):
    """f_k = sum_x pmf values P_k(x) with P_k by the Hahn recurrence in 50-digit mpmath."""
    mp.mp.dps = 50
    big_n, big_a, big_b = (mp.mpf(v) for v in (n, a, b))

    def upper(m):
        m = mp.mpf(m)
        return (m - big_n - 1) * (m - big_b) * (big_a - m) / ((2 * m - big_n - 1) * (2 * m - big_n))

    def lower(m):
        m = mp.mpf(m)
        return m * (m - big_n + big_a - 1) * (m + big_b - big_n - 1) / (
            (2 * m - big_n - 2) * (2 * m - big_n - 1))

    points = [mp.mpf(int(v)) for v in x]
    weights = [mp.mpf(float(p)) * mp.mpf(float(v)) for p, v in zip(pmf, values, strict=True)]
    previous, current, step = [mp.mpf(0)] * len(points), [mp.mpf(1)] * len(points), mp.mpf(0)
    out = [0.0]
    for k in range(top):
        norm = mp.sqrt(upper(k) * lower(k + 1))
        centre = upper(k) + lower(k)
        following = [((p - centre) * c - step * q) / norm
                     for p, c, q in zip(points, current, previous, strict=True)]
        out.append(float(mp.fsum(w * f for w, f in zip(weights, following, strict=True))))
        previous, current, step = current, following, norm
    return np.array(out)


def test_coefficients_stop_where_the_recurrence_loses_accuracy():
    """A cell of mean 0.3 whose window (18 of 101 support points) holds little of the high
    orders' mass: the forward recurrence's errors grow ~6x per order. With the default
    tolerance its coefficients stop before they pass 1e-12 sqrt(Var) of the 50-digit values,
    and the remainder stays; with no tolerance the later ones are seen to be wrong."""
    n, a, b = 10**5, 300, 100
    rows, cols = _moments([a, n - a]), _moments([b, n - b])
    cells = engine._cells(n, rows.sizes, cols.sizes)
    width = int(cells.count[0, 0])
    x = cells.lo[0, 0] + np.arange(width)[None, :]
    pmf, centred = cells.pmf[0, 0, :width][None], cells.centred[0, 0, :width][None]
    energy = cells.var[0, 0][None]
    exact = _exact_window_coefficients(n, a, b, x[0], pmf[0], centred[0], 20)
    scale = np.sqrt(energy[0])
    args = (n, np.array([a]), np.array([b]), x, pmf, centred, energy, 20)
    coef, rest, last = hahn_coefficients(*args, engine.COEF_TOL)
    stop = int(last[0])
    assert 3 < stop < 20
    assert np.all(np.abs(coef[: stop + 1, 0] - exact[: stop + 1]) <= 1e-12 * scale)
    assert np.all(coef[stop + 1:, 0] == 0.0)
    assert np.all(rest[stop:, 0] == rest[stop, 0])
    unchecked, _, last_all = hahn_coefficients(*args, np.inf)
    assert last_all[0] == 20
    assert np.abs(unchecked[20, 0] - exact[20]) > 1e-6 * scale


def test_perm_at_one_million_with_many_sizes_equals_the_pair_route():
    """N = 10^6, 12 x 12 Dirichlet(1) sizes (windows up to ~1000 points)."""
    rng = np.random.default_rng(11)
    sizes = [rng.multinomial(10**6 - 12, rng.dirichlet(np.ones(12))) + 1 for _ in range(2)]
    expansion, pair_route, _ = _both_routes(*sizes)
    assert expansion == pytest.approx(pair_route, rel=1e-12)


def test_the_range_is_unchanged():
    """The expansion leaves the refusals as they were (N > 10^9 is refused)."""
    with pytest.raises(InvalidInputError, match="N <="):
        cc.mutual_information_variance(contingency=[[10**9, 1], [1, 10**9]])


def _giant(n: int, k: int, share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Labels with one cluster of ``share`` of the elements and k - 1 others on each side."""
    rng = np.random.default_rng(seed)

    def sizes():
        rest = rng.multinomial(int(n * (1 - share)) - (k - 1), rng.dirichlet(np.ones(k - 1))) + 1
        return np.r_[n - rest.sum(), rest]

    return _labels_of(sizes(), rng), _labels_of(sizes(), rng)


def test_range_on_both_sides_of_its_two_limits(monkeypatch):
    """The windows' points (the expansion) and, where the pair sums are needed, their padded
    arrays are limited by variance.MAX_GRID_POINTS, each on its own: a table whose padded
    arrays pass the limit but whose windows do not is computed by the expansion; refused,
    naming the pair sums, where the expansion does not reach its bound; refused, naming
    the windows, where the windows pass it."""
    from chanceclust import variance

    a, b = _giant(2 * 10**4, 20, 0.6, seed=5)
    value = cc.mutual_information_variance(a, b)
    n = len(a)
    rows = _moments(np.bincount(a))
    cols = _moments(np.bincount(b))
    windows, padded, _ = engine.grid_points(n, rows, cols)
    assert windows < padded
    monkeypatch.setattr(variance, "MAX_GRID_POINTS", int((windows + padded) / 2))
    assert cc.mutual_information_variance(a, b) == value
    with monkeypatch.context() as m:
        m.setattr(engine, "LANCASTER_ORDERS", ())
        with pytest.raises(InvalidInputError, match="pair sums"):
            cc.mutual_information_variance(a, b)
    monkeypatch.setattr(variance, "MAX_GRID_POINTS", int(windows) - 1)
    with pytest.raises(InvalidInputError, match="hypergeometric windows"):
        cc.mutual_information_variance(a, b)


@pytest.mark.slow
def test_a_cluster_of_most_elements_equals_the_pair_route(monkeypatch):
    """N = 2 x 10^4 with clusters of 60 % on both sides (correlations of the large cells'
    pairs near 1), and the same with the cells' groups cut into blocks of 1000 points."""
    a, b = _giant(2 * 10**4, 20, 0.6, seed=5)
    value = cc.mutual_information_variance(a, b)
    monkeypatch.setattr(engine, "_GRID", 1000)
    assert cc.mutual_information_variance(a, b) == value  # the same cells, in smaller blocks
    monkeypatch.setattr(engine, "LANCASTER_ORDERS", ())
    assert value == pytest.approx(cc.mutual_information_variance(a, b), rel=1e-12)


def test_a_cluster_of_most_elements_at_one_million():
    """N = 10^6, 100 x 100 with a cluster of 60 % per side: its padded arrays (4.7 x 10^7
    points) were refused before; the expansion computes it. Symmetric to the last bit."""
    a, b = _giant(10**6, 100, 0.6, seed=0)
    value = cc.mutual_information_variance(a, b)
    assert np.isfinite(value)
    assert value > 0
    assert cc.mutual_information_variance(b, a) == value
