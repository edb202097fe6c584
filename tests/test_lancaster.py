"""The Lancaster expansion over Hahn polynomials (_expected/lancaster.py) against exact values.

Everything here is computed without the module: the orthogonal polynomials of Hyp(N, a, b)
by Gram-Schmidt on the monomials over the whole support in exact rationals (monic, so their
squared norms h_k are rationals and P_k = pi_k / sqrt(h_k) has a positive leading
coefficient, as the module's recurrence gives), the joint laws of two cells of a table with
fixed margins as exact rationals (checked against every permutation at N = 7), and the
canonical correlations as exact rationals rho_k^2 with their signs. Square roots and the
values of bd0 are taken in 50-digit mpmath.

Tolerances are relative to the functions' norms: f_k = E[v P_k] has |f_k| <= sqrt(E[v^2]),
and the recurrence's rounding is of that size, whatever f_k itself is.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb, prod

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference._exact import bd0, falling

from chanceclust._expected.lancaster import correlation_factors, hahn_coefficients
from chanceclust._expected.mi_variance import LANCASTER_ORDERS
from chanceclust.variance import MAX_VARIANCE_N

DPS = 50
EPS = float(np.finfo(np.float64).eps)
KINDS = ("row", "column", "neither")


# --------------------------------------------------------------------------- exact references


def hyp_pmf(n: int, a: int, b: int) -> dict[int, Fraction]:
    """P(x) = C(b, x) C(n - b, a - x) / C(n, a) on the whole support."""
    return {x: Fraction(comb(b, x) * comb(n - b, a - x), comb(n, a))
            for x in range(max(0, a + b - n), min(a, b) + 1)}


def monic_orthogonal(pmf: dict[int, Fraction]) -> tuple[dict[int, list[Fraction]], list]:
    """Monic orthogonal polynomials of the law by Gram-Schmidt on 1, x, x^2, ... (exact):
    pi_k's values at each support point (pi[x][k]) and the squared norms h_k = E[pi_k^2]."""
    points = sorted(pmf)
    basis: list[list[Fraction]] = []
    norms: list[Fraction] = []
    for k in range(len(points)):
        v = [Fraction(x) ** k for x in points]
        for q, h in zip(basis, norms, strict=True):
            c = sum((pmf[x] * vi * qi for x, vi, qi in zip(points, v, q, strict=True)),
                    Fraction(0)) / h
            v = [vi - c * qi for vi, qi in zip(v, q, strict=True)]
        basis.append(v)
        norms.append(sum((pmf[x] * vi * vi for x, vi in zip(points, v, strict=True)),
                         Fraction(0)))
    return {x: [q[i] for q in basis] for i, x in enumerate(points)}, norms


def beta_squared(n: int, s: int, k: int) -> Fraction:
    """beta_k(s)^2 = (s)_k / (n - s)_k where both are positive."""
    return Fraction(falling(s, k), falling(n - s, k))


def pair_sizes(kind: str, a: int, b: int, a2: int, b2: int) -> tuple[int, ...]:
    """The sizes whose factors make rho_k: the two columns, the two rows, or all four."""
    return {"row": (b, b2), "column": (a, a2), "neither": (a, a2, b, b2)}[kind]


def rho_squared_and_sign(n: int, kind: str, sizes: tuple, k: int) -> tuple[Fraction, int]:
    """rho_k^2 (exact) and the sign of rho_k; 0 where some size of the pair is below k."""
    if any(s < k for s in pair_sizes(kind, *sizes)):
        return Fraction(0), 0
    square = prod((beta_squared(n, s, k) for s in pair_sizes(kind, *sizes)), start=Fraction(1))
    return square, (-1) ** k if kind != "neither" else 1


def cells_of(kind: str, a: int, b: int, a2: int, b2: int) -> tuple[tuple, tuple]:
    """(row size, column size) of the two cells of the pair."""
    return {"row": ((a, b), (a, b2)), "column": ((a, b), (a2, b)),
            "neither": ((a, b), (a2, b2))}[kind]


def joint_law(n: int, kind: str, a: int, b: int, a2: int, b2: int) -> dict[tuple, Fraction]:
    """P(X = x, Y = y) for the two cells of the pair, a table uniform given its margins."""
    out: Counter = Counter()
    if kind in ("row", "column"):
        # Same row a: x of the b, y of the b2 (disjoint columns), the rest of the row elsewhere.
        m, s, t = (a, b, b2) if kind == "row" else (b, a, a2)
        for x in range(min(m, s) + 1):
            for y in range(min(m - x, t) + 1):
                ways = comb(s, x) * comb(t, y) * comb(n - s - t, m - x - y)
                if ways:
                    out[x, y] += Fraction(ways, comb(n, m))
        return dict(out)
    for x, px in hyp_pmf(n, a, b).items():
        for m, pm in hyp_pmf(n - a, a2, b - x).items():
            for z, pz in hyp_pmf(n - b, a2 - m, b2).items():
                out[x, z] += px * pm * pz
    return dict(out)


# --------------------------------------------------------------------------- the module's values


def centred_floats(pmf: dict[int, Fraction], values: dict[int, object]) -> dict[int, float]:
    """values minus their mean under pmf (in mpmath), as floats."""
    with mp.workdps(DPS):
        mean = mp.fsum(mp.mpf(p.numerator) / p.denominator * mp.mpf(values[x])
                       for x, p in pmf.items())
        return {x: float(mp.mpf(values[x]) - mean) for x in pmf}


def module_coefficients(n: int, rows: list[tuple], top: int):
    """hahn_coefficients on rows (a, b, {x: value}) over their whole supports, batched and
    padded as mi_variance does (positions beyond a row repeat its first, with weight 0).
    Whole supports hold every polynomial's mass: no row stops (tolerance 1). Returns
    (coef, rest)."""
    span = max(len(values) for _, _, values in rows)
    shape = (len(rows), span)
    x, weight, vals = np.zeros(shape, np.int64), np.zeros(shape), np.zeros(shape)
    energy = np.zeros(len(rows))
    for r, (a, b, values) in enumerate(rows):
        pmf = hyp_pmf(n, a, b)
        points = sorted(pmf)
        x[r] = points[0]
        x[r, : len(points)] = points
        weight[r, : len(points)] = [float(pmf[p]) for p in points]
        vals[r, : len(points)] = [values[p] for p in points]
        energy[r] = weight[r] @ vals[r] ** 2
    a = np.array([row[0] for row in rows], np.int64)
    b = np.array([row[1] for row in rows], np.int64)
    coef, rest, last = hahn_coefficients(n, a, b, x, weight, vals, energy, top, 1.0)
    assert np.all((last == top) | (energy <= 0.0))
    return coef, rest


def exact_coefficients(n: int, a: int, b: int, values: dict[int, float]) -> list:
    """f_k = E[v P_k], k = 0..support - 1, for the floats v (taken exactly), in mpmath."""
    pmf = hyp_pmf(n, a, b)
    pi, norms = monic_orthogonal(pmf)
    with mp.workdps(DPS):
        return [mp.fsum(mp.mpf(p.numerator) / p.denominator * mp.mpf(values[x])
                        * mp.mpf(pi[x][k].numerator) / pi[x][k].denominator
                        for x, p in pmf.items()) / mp.sqrt(mp.mpf(norms[k].numerator)
                                                           / norms[k].denominator)
                for k in range(len(pmf))]


def sample_functions(n: int, a: int, b: int, seed: int) -> dict[str, dict[int, float]]:
    """Centred bd0(x, ab/n), centred x^3, a centred random vector, on Hyp(n, a, b)'s support."""
    pmf = hyp_pmf(n, a, b)
    with mp.workdps(DPS):
        mean = mp.mpf(a * b) / n
        dev = {x: bd0(x, mean) for x in pmf}
    rng = np.random.default_rng(seed)
    return {
        "bd0": centred_floats(pmf, dev),
        "cube": centred_floats(pmf, {x: x**3 for x in pmf}),
        "random": centred_floats(pmf, dict(zip(sorted(pmf), rng.normal(size=len(pmf)),
                                               strict=True))),
    }


# --------------------------------------------------------------------------- 1. coefficients

SINGLE_CELLS = [
    (14, 5, 9), (14, 9, 5), (14, 7, 7), (14, 10, 11), (14, 11, 11), (14, 12, 12), (13, 6, 6),
    (13, 13, 4), (12, 1, 6), (12, 11, 3), (9, 4, 4), (6, 3, 3), (2, 1, 1), (5, 5, 2), (14, 0, 3),
]


#: The remainders' rounding allowance, 4 eps E[v^2], covers the rounding of E[v^2] - sum f_j^2
#: nearly always, not always: bd0 on Hyp(14, 11, 11) has rest[2] = 2.572414924228978e-07
#: below the exact tail 2.5724149242299513e-07 (by 0.5 eps E[v^2] more than the allowance;
#: 2 of 60030 (cell, function, k) at N <= 14 fall short, none by more than that). The
#: coefficients themselves are within 13 eps of sqrt(E[v^2]) there, so sum f_j^2 is within
#: ~26 k eps E[v^2]: the tests allow another 32 eps E[v^2] below the tail (irrelevant to the
#: stopping rule, which compares the bound with 1e-13 of the same-cell sum).
SLACK = 32 * EPS


def check_coefficients(n: int, cells: list[tuple], top: int) -> None:
    rows = [(a, b, values) for a, b in cells
            for values in sample_functions(n, a, b, seed=1000 * a + b).values()]
    coef, rest = module_coefficients(n, rows, top)
    assert coef.shape == rest.shape == (top + 1, len(rows))
    assert np.all(coef[0] == 0.0)
    for r, (a, b, values) in enumerate(rows):
        exact = exact_coefficients(n, a, b, values)
        support = len(exact)
        scale = float(mp.sqrt(mp.fsum(f**2 for f in exact)))  # sqrt(E[v^2]) (f_0 ~ 0)
        for k in range(1, top + 1):
            if k < support:
                assert abs(coef[k, r] - float(exact[k])) <= 1e-12 * scale, (n, a, b, k)
            else:
                assert coef[k, r] == 0.0, (n, a, b, k)
            # rest[k] bounds the tail (up to SLACK) and is tight; 0 once the row is complete.
            tail = mp.fsum(f**2 for f in exact[k + 1:])
            assert rest[k, r] >= tail - SLACK * scale**2, (n, a, b, k)
            assert rest[k, r] <= tail + 1e-12 * scale**2, (n, a, b, k)
            if k + 1 >= support:
                assert rest[k, r] == 0.0, (n, a, b, k)
        assert rest[0, r] >= mp.fsum(f**2 for f in exact[1:]) - SLACK * scale**2


@pytest.mark.parametrize(("n", "a", "b"), SINGLE_CELLS)
def test_coefficients_against_gram_schmidt(n, a, b):
    """bd0, x^3 and a random vector on one cell (a > n/2, a = b, a + b > n, support 1..8)."""
    check_coefficients(n, [(a, b)], top=9)


def test_coefficients_batched_with_padding():
    """Rows of different supports (and a + b above and below n) in one call, each padded
    with weight 0, give each row's exact coefficients."""
    check_coefficients(14, [(5, 9), (10, 11), (1, 6), (7, 7), (13, 2)], top=8)


def test_zero_function():
    """A row with energy 0 has no coefficients and no remainder."""
    n, a, b = 14, 7, 7
    values = sample_functions(n, a, b, seed=3)["bd0"]
    zero = dict.fromkeys(values, 0.0)
    coef, rest = module_coefficients(n, [(a, b, zero), (a, b, values)], top=7)
    assert np.all(coef[:, 0] == 0.0)
    assert np.all(rest[:, 0] == 0.0)


# --------------------------------------------------------------------------- 2. correlations

PAIRS = [
    # (n, a, b, a', b'): a + a' <= n and b + b' <= n
    (12, 5, 7, 4, 3), (12, 6, 6, 6, 6), (12, 9, 3, 2, 8), (12, 7, 10, 5, 2), (11, 4, 4, 4, 4),
    (10, 8, 9, 1, 1), (10, 3, 5, 7, 5), (9, 2, 2, 7, 7), (7, 3, 4, 2, 3), (5, 1, 4, 4, 1),
]


def canonical_matrix(n: int, kind: str, sizes: tuple) -> tuple[list, list, list, dict]:
    """E[pi_k(X) sigma_l(Y)] (exact) for the monic orthogonal polynomials of both cells,
    with their squared norms."""
    (a1, b1), (a2, b2) = cells_of(kind, *sizes)
    law = joint_law(n, kind, *sizes)
    pi, h = monic_orthogonal(hyp_pmf(n, a1, b1))
    sigma, g = monic_orthogonal(hyp_pmf(n, a2, b2))
    moments = [[sum((p * pi[x][k] * sigma[y][m] for (x, y), p in law.items()), Fraction(0))
                for m in range(len(g))] for k in range(len(h))]
    return moments, h, g, law


def module_rho(n: int, kind: str, sizes: tuple, top: int) -> np.ndarray:
    """rho_k, k = 0..top, from correlation_factors with the signs of the kind."""
    factors = correlation_factors(np.array(pair_sizes(kind, *sizes), np.int64), n, top)
    sign = np.ones(top + 1) if kind == "neither" else (-1.0) ** np.arange(top + 1)
    return sign * np.prod(factors, axis=1)


def check_correlations(n: int, kind: str, sizes: tuple) -> None:
    moments, h, g, law = canonical_matrix(n, kind, sizes)
    # The joint law's margins are the cells' hypergeometric laws.
    for axis, (r, c) in enumerate(cells_of(kind, *sizes)):
        margin: Counter = Counter()
        for xy, p in law.items():
            margin[xy[axis]] += p
        assert dict(margin) == hyp_pmf(n, r, c)
    top = max(len(h), len(g)) + 2
    rho = module_rho(n, kind, sizes, top)
    assert np.all(np.isfinite(rho))
    for k in range(len(h)):
        for m in range(len(g)):
            if k != m:
                assert moments[k][m] == 0, (n, kind, sizes, k, m)
                continue
            square, sign = rho_squared_and_sign(n, kind, sizes, k)
            assert moments[k][k] ** 2 == square * h[k] * g[k], (n, kind, sizes, k)
            assert (moments[k][k] > 0) - (moments[k][k] < 0) == sign, (n, kind, sizes, k)
            with mp.workdps(DPS):
                value = (mp.mpf(moments[k][k].numerator) / moments[k][k].denominator
                         / mp.sqrt(mp.mpf(h[k].numerator) / h[k].denominator
                                   * mp.mpf(g[k].numerator) / g[k].denominator))
            assert rho[k] == pytest.approx(float(value), rel=1e-12), (n, kind, sizes, k)
            assert square <= 1  # |rho_k| <= 1, exactly (rho_k^2 is rational)
    # Beyond both cells' polynomials (sizes with n - s < k among them) the products stay
    # the exact rho_k of the pair's sizes: finite, 0 once a size of the pair is below k.
    for k in range(top + 1):
        square, sign = rho_squared_and_sign(n, kind, sizes, k)
        with mp.workdps(DPS):
            exact = sign * mp.sqrt(mp.mpf(square.numerator) / square.denominator)
        assert rho[k] == pytest.approx(float(exact), rel=1e-12, abs=0), (n, kind, sizes, k)
    # |rho_k| does not grow with k (the module's remainder bound uses it).
    assert np.all(np.diff(np.abs(rho)) <= 1e-15)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("sizes", PAIRS, ids=str)
def test_canonical_correlations(sizes, kind):
    n, *rest = sizes
    check_correlations(n, kind, tuple(rest))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("sizes", [(3, 4, 2, 3), (2, 5, 4, 2), (4, 2, 3, 1)], ids=str)
def test_joint_laws_against_every_permutation(sizes, kind):
    """The joint laws of the reference: the rows as fixed blocks, every permutation of the
    column labels (N = 7: each table with these margins as often as the others)."""
    n = 7
    a, b, a2, b2 = sizes
    rows = [0] * a + [1] * a2 + [2] * (n - a - a2)
    cols = (0,) * b + (1,) * b2 + (2,) * (n - b - b2)
    first, second = {"row": ((0, 0), (0, 1)), "column": ((0, 0), (1, 0)),
                     "neither": ((0, 0), (1, 1))}[kind]
    counts: Counter = Counter()
    for perm in permutations(cols):
        pairs = Counter(zip(rows, perm, strict=True))
        counts[pairs[first], pairs[second]] += 1
    total = sum(counts.values())
    assert {xy: Fraction(c, total) for xy, c in counts.items()} == joint_law(n, kind, *sizes)


def test_correlation_factors_small_n_exact():
    """Every size 0..n and k up to beyond n/2: sqrt((s)_k / (n - s)_k), 0 where s < k or
    n - s < k, 1 at k = 0."""
    for n in (1, 2, 7, 12):
        top = n + 2
        out = correlation_factors(np.arange(n + 1, dtype=np.int64), n, top)
        assert out.shape == (top + 1, n + 1)
        for s in range(n + 1):
            for k in range(top + 1):
                if s < k or n - s < k:
                    assert out[k, s] == 0.0, (n, s, k)
                    continue
                exact = beta_squared(n, s, k)
                with mp.workdps(DPS):
                    value = mp.sqrt(mp.mpf(exact.numerator) / exact.denominator)
                assert out[k, s] == pytest.approx(float(value), rel=1e-14), (n, s, k)


# --------------------------------------------------------------------------- 3. large N


@pytest.mark.parametrize("n", [10**9, 10**9 + 1, 2**40])
def test_correlation_factors_large_n(n):
    """The sum of logarithms keeps beta_k(s) to ~1e-14 at N = 10^9 and beyond, for sizes
    near n/2 (beta near 1, where a difference of log-gamma values would lose ~N eps), tiny
    and near n, k up to 48. exp of a sum of magnitude L carries L eps of relative error
    whatever the route: the tolerance allows 4 eps |ln beta| on top (tiny and huge beta)."""
    top = 48
    half = n // 2
    sizes = [1, 2, 7, 48, 10**5, half - 3, half - 1, half, half + 1, half + 5, n - 10**5,
             n - 48, n - 7, n - 1]
    out = correlation_factors(np.array(sizes, np.int64), n, top)
    with mp.workdps(40):
        for j, s in enumerate(sizes):
            square = mp.mpf(1)
            for k in range(top + 1):
                if s < k or n - s < k:
                    assert out[k, j] == 0.0, (s, k)
                    continue
                if k:
                    square *= mp.mpf(s - k + 1) / (n - s - k + 1)
                exact = mp.sqrt(square)
                tolerance = 1e-14 + 4 * EPS * abs(float(mp.log(exact)))
                assert abs(out[k, j] / exact - 1) <= tolerance, (n, s, k)


def test_complementary_sizes_at_the_largest_n():
    """At N = MAX_VARIANCE_N and every order the module uses (up to the last of
    LANCASTER_ORDERS plus the bound's), the factors stay finite, and two complementary
    sizes s + s' = N (a column split in two, the correlations nearest 1) have
    beta_k(s) beta_k(s') = 1 exactly: the huge and the tiny factor cancel."""
    n = MAX_VARIANCE_N
    top = LANCASTER_ORDERS[-1] + 1
    small = np.array([top, top + 1, 60, 1000, 10**6, n // 2], np.int64)
    out = correlation_factors(np.concatenate([small, n - small]), n, top)
    assert np.all(np.isfinite(out))
    product = out[:, : small.size] * out[:, small.size:]
    logs = np.abs(np.log(out[:, : small.size])) + np.abs(np.log(out[:, small.size:]))
    assert np.all(np.abs(product - 1) <= 1e-14 + 4 * EPS * logs)


# --------------------------------------------------------------------------- 4. covariances


def exact_covariance(n: int, kind: str, sizes: tuple, first: dict, second: dict) -> mp.mpf:
    law = joint_law(n, kind, *sizes)
    with mp.workdps(DPS):
        joint = mp.fsum(mp.mpf(p.numerator) / p.denominator * mp.mpf(first[x]) * mp.mpf(second[y])
                        for (x, y), p in law.items())
        (a1, b1), (a2, b2) = cells_of(kind, *sizes)
        means = [mp.fsum(mp.mpf(p.numerator) / p.denominator * mp.mpf(f[x])
                         for x, p in hyp_pmf(n, r, c).items())
                 for f, (r, c) in ((first, (a1, b1)), (second, (a2, b2)))]
        return joint - means[0] * means[1]


def check_covariance(n: int, kind: str, sizes: tuple, name: str = "bd0") -> None:
    """Cov(D(X), D'(Y)) = sum_k rho_k f_k g_k with every order (top beyond both supports),
    and each truncation within |rho_{K+1}| sqrt(rest_K(f) rest_K(g)) of it."""
    (a1, b1), (a2, b2) = cells_of(kind, *sizes)
    first = sample_functions(n, a1, b1, seed=7)[name]
    second = sample_functions(n, a2, b2, seed=8)[name]
    top = max(len(first), len(second)) + 2
    coef, rest = module_coefficients(n, [(a1, b1, first), (a2, b2, second)], top)
    rho = module_rho(n, kind, sizes, top + 1)
    terms = rho[1:top + 1] * coef[1:, 0] * coef[1:, 1]
    assert np.all(np.isfinite(terms))
    exact = exact_covariance(n, kind, sizes, first, second)
    scale = float(mp.sqrt(rest[0, 0] * rest[0, 1]))  # sqrt(Var D Var D')
    assert abs(float(np.sum(terms)) - float(exact)) <= 1e-12 * abs(float(exact)) + 1e-14 * scale
    for k in range(top):
        partial = float(np.sum(terms[:k]))
        bound = abs(rho[k + 1]) * np.sqrt(rest[k, 0] * rest[k, 1])
        assert abs(partial - float(exact)) <= bound + 1e-14 * scale, (n, kind, sizes, k)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("sizes", PAIRS, ids=str)
def test_covariance_of_two_cells(sizes, kind):
    n, *rest = sizes
    check_covariance(n, kind, tuple(rest))


@pytest.mark.parametrize("name", ["cube", "random"])
@pytest.mark.parametrize("kind", KINDS)
def test_covariance_of_other_functions(kind, name):
    check_covariance(12, kind, (5, 7, 4, 3), name)


# --------------------------------------------------------------------------- 5. properties


@st.composite
def size_pairs(draw):
    """(n, kind, (a, b, a', b')) with a + a' <= n, b + b' <= n."""
    n = draw(st.integers(2, 12))
    a = draw(st.integers(1, n - 1))
    b = draw(st.integers(1, n - 1))
    a2 = draw(st.integers(1, n - a))
    b2 = draw(st.integers(1, n - b))
    return n, draw(st.sampled_from(KINDS)), (a, b, a2, b2)


@given(size_pairs())
def test_random_pairs_hold_exactly(pair):
    """For random sizes: both cells' coefficients against Gram-Schmidt, the canonical
    correlations and the covariance of bd0."""
    n, kind, sizes = pair
    check_coefficients(n, list(cells_of(kind, *sizes)), top=n // 2 + 2)
    check_correlations(n, kind, sizes)
    check_covariance(n, kind, sizes)
