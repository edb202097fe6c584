"""E[bd0(X, mu)] for X ~ hypergeometric(N, a, b) of large mean mu = ab/N: its series in 1/mu.

Derived in docs/math.md#math-perm-groups: E[bd0(X, mu)] = sum_{J>=0} r^J A_J(c_2, .., c_{J+2}),
r = 1/mu, c_j = kappa_j / mu, with A_J generated exactly in rationals
(:func:`_series_coefficients`) and grouped by powers of r (inside one A_J the moments cancel
heavily, r^J makes that harmless). The series is asymptotic; it is truncated where the
Poisson law's first omitted term is below 1e-17 of A_0 (:func:`series_order`: J = 13 from the
least mean :func:`series_min_mean`, ~69.9, 2 from 3.2e5), measured <= 4.4e-16 relative
against 50-digit references at every switch point, N = 1e6 .. 2**63 - 1. The cumulant ratios
come from a recurrence of the pgf's hypergeometric ODE (:func:`cumulant_ratios`), run on the
folded sizes min(a, N - a), min(b, N - b).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.elementary import unique
from chanceclust.exceptions import InternalError

# The highest order used, from the least mean series_min_mean() (~69.9) up to ~79.7.
_MAX_ORDER = 13
# The truncation target: the Poisson law's first omitted term against A_0 = 1/2.
_TOLERANCE = 1e-17
_BLOCK = 1 << 17  # monomial values per block of pairs: stays in cache
_GROUP = 1 << 15  # pairs whose cumulants are computed together


@lru_cache(maxsize=1)
def _series_coefficients() -> tuple[dict[tuple[int, ...], Fraction], ...]:
    """A_J for J = 0 .. _MAX_ORDER + 1 as {exponents of c_2, c_3, ..: rational coefficient}.

    m_k = sum_{j=0}^{k-2} C(k-1, j) kappa_{k-j} m_j (m_0 = 1, m_1 = 0) with kappa_i = mu c_i,
    each m_k a polynomial in mu and the c_i; the term mu^p of m_k goes to A_{k-1-p}.
    """
    top = _MAX_ORDER + 1  # one order beyond the last used: it sets the switch points
    kmax = 2 * top + 2  # A_J takes k <= 2J + 2 (p <= k/2 blocks)
    width = kmax - 1  # exponents of c_2 .. c_kmax
    moments: list[dict] = [{(0, (0,) * width): Fraction(1)}, {}]
    for k in range(2, kmax + 1):
        acc: dict = {}
        for j in range(k - 1):
            for (power, exps), value in moments[j].items():
                if k - power - 1 > top + 1:  # weight k - p beyond A_top: dropped
                    continue
                bumped = list(exps)
                bumped[k - j - 2] += 1
                key = (power + 1, tuple(bumped))
                acc[key] = acc.get(key, 0) + comb(k - 1, j) * value
        moments.append(acc)
    series: list[dict] = [{} for _ in range(top + 1)]
    for k in range(2, kmax + 1):
        for (power, exps), value in moments[k].items():
            order = k - 1 - power
            if order <= top:
                term = series[order].get(exps, 0) + Fraction((-1) ** k, k * (k - 1)) * value
                series[order][exps] = term
    return tuple({e: v for e, v in s.items() if v} for s in series)


@lru_cache(maxsize=1)
def _switch_means() -> NDArray[np.float64]:
    """The least mean at which order J suffices, J = 0 .. _MAX_ORDER: where the Poisson law's
    term J + 1, A_{J+1}(1) / mu^(J+1), is _TOLERANCE times A_0 = 1/2."""
    poisson = [float(sum(a.values())) for a in _series_coefficients()]
    return np.array(
        [(poisson[j + 1] / (0.5 * _TOLERANCE)) ** (1.0 / (j + 1)) for j in range(_MAX_ORDER + 1)]
    )


def series_min_mean() -> float:
    """The least mean ab/N at which the series is accurate (~69.9: order _MAX_ORDER)."""
    return float(_switch_means()[_MAX_ORDER])


def series_order(mean: NDArray[np.float64]) -> NDArray[np.int64]:
    """The order J at which the series of each mean stops (-1 below :func:`series_min_mean`)."""
    means = _switch_means()
    # means[J] decreases with J: the least J with mean >= means[J].
    above = np.asarray(mean)[..., None] >= means
    return np.where(above.any(axis=-1), np.argmax(above, axis=-1), -1)


@cache
def _series_monomials(order: int) -> tuple:
    """The monomials of A_0 .. A_order for evaluation in gamma_i = c_i r^(i-1) (each of
    weight J + 1 = sum e_i (i - 1), so the sum over them is r E[bd0]).

    Returns (levels, coefficients): for each weight w = 1 .. order + 1, the pair
    (parents, factors) such that column (monomial) = column[parent] * gamma_factor, the
    parent of weight w - (factor - 1) (columns numbered from 1, column 0 being 1), and
    the coefficient of every column after column 0.
    """
    series = _series_coefficients()
    width = len(next(iter(series[0])))
    index: dict[tuple[int, ...], int] = {}
    levels, coefficients = [], []
    column = 1
    for weight in range(1, order + 2):
        parents, factors = [], []
        for parts in _partitions(weight):  # part i - 1 >= 1 for each factor c_i
            exps = [0] * width
            for part in parts:
                exps[part - 1] += 1
            last = parts[-1] - 1  # the largest factor, c_{last+2}
            parent = list(exps)
            parent[last] -= 1
            parents.append(index.get(tuple(parent), 0))  # the empty monomial: column 0
            factors.append(last)
            index[tuple(exps)] = column
            column += 1
            coefficients.append(float(series[weight - 1].get(tuple(exps), 0)))
        levels.append((np.array(parents), np.array(factors)))
    return levels, np.array(coefficients)


def _partitions(total: int, least: int = 1) -> list[tuple[int, ...]]:
    """The partitions of ``total`` as non-decreasing tuples of parts >= ``least``."""
    if total == 0:
        return [()]
    return [
        (part, *rest)
        for part in range(least, total + 1)
        for rest in _partitions(total - part, part)
        if not rest or rest[0] >= part
    ]


def cumulant_ratios(
    a: NDArray[np.int64], b: NDArray[np.int64], n: int, count: int
) -> NDArray[np.float64]:
    """c_j = kappa_j / mu for j = 2 .. count + 1 (rows), X ~ hypergeometric(N, a, b), N <= 2**63 - 1.

    c_2 is Var X / mu = (N - a)(N - b) / (N (N - 1)) in closed form (relative error a few
    ulps); the others come from the recurrence of the module docstring on the folded sizes
    (absolute error <= 2e-16 3^(j-2) max(1, |c_j|): harmless, as c_j enters E[bd0] multiplied
    by r^(j-2) <= 70^-(j-2)).
    """
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    flip_a, flip_b = a > n - a, b > n - b
    a2, b2 = np.where(flip_a, n - a, a), np.where(flip_b, n - b, b)
    sign = np.where(flip_a == flip_b, 1.0, -1.0)
    scale = (a2 / a.astype(np.float64)) * (b2 / b.astype(np.float64))  # mu(Y) / mu(X)
    p, q = a2 / float(n), b2 / float(n)
    total, product, inverse = p + q, p * q, 1.0 / float(n)
    e = 1.0 / np.array([float(factorial(j)) for j in range(count + 1)])
    m = np.empty((count + 1, len(a)))  # M_m of the folded cell Y
    squares = np.empty((count + 1, len(a)))  # coefficients of M(t)^2
    m[0] = squares[0] = 1.0
    for order in range(1, count + 1):
        # sum_{j=1..m} e_j M_{m-j}, the same for M^2, sum_{j=2..m} e_j (m-j+1) M_{m-j+1}
        rhs = e[order] - total * (e[1 : order + 1] @ m[order - 1 :: -1])
        rhs += product * (e[1 : order + 1] @ squares[order - 1 :: -1])
        if order >= 2:
            steps = e[2 : order + 1] * np.arange(order - 1, 0, -1)
            rhs += inverse * (steps @ m[order - 1 : 0 : -1])
        m[order] = rhs / (1.0 - order * inverse)
        squares[order] = np.einsum("ij,ij->j", m[: order + 1], m[order::-1])
    orders = np.arange(1, count + 1)
    factorials = np.array([float(factorial(j)) for j in orders])
    # c_{m+1}(X) = (+-1)^(m+1) (mu(Y) / mu(X)) c_{m+1}(Y), c_{m+1}(Y) = m! M_m
    out = m[1:] * factorials[:, None] * scale
    out[orders % 2 == 0] *= sign
    out[0] = ((n - a) / float(n)) * ((n - b) / float(n - 1))  # c_2 in closed form
    return out


def series_expected_deviance(
    a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """E[bd0(X, ab/N)] for X ~ hypergeometric(N, a, b), 1 <= a, b < N <= 2**63 - 1, means
    ab/N >= :func:`series_min_mean`: the series of the module docstring, each pair to the
    order :func:`series_order` picks (relative error <= ~4e-16)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    mean = a * (b / float(n))
    order = series_order(mean)
    if np.any(order < 0):
        raise InternalError("series_expected_deviance: a mean below series_min_mean()")
    out = np.empty(len(a))
    for level in unique(order):
        members = np.flatnonzero(order == level)
        for first in range(0, len(members), _GROUP):  # bounds the memory of the cumulants
            rows = members[first : first + _GROUP]
            out[rows] = _series_sum(a[rows], b[rows], n, mean[rows], int(level))
    return out


def _series_sum(a, b, n, mean, order):
    """sum_{J <= order} r^J A_J(c) for pairs of one order, by the monomials of gamma_i = c_i r^(i-1),
    in blocks of pairs whose monomials stay in cache."""
    gamma = _scaled_cumulants(a, b, n, mean, order)
    coefficients = _series_monomials(order)[1]
    out = np.empty(len(a))
    rows = max(64, _BLOCK // len(coefficients))
    for first in range(0, len(a), rows):
        block = slice(first, first + rows)
        out[block] = coefficients @ _monomials(gamma[:, block], order)
    return out * mean


def _scaled_cumulants(a, b, n, mean, order):
    """gamma_i = c_i r^(i-1), i = 2 .. order + 2 (rows), r = 1/mean."""
    gamma = cumulant_ratios(a, b, n, order + 1)
    gamma *= (1.0 / mean) ** np.arange(1, order + 2)[:, None]
    return gamma


def _monomials(gamma, order):
    """The monomials of :func:`_series_monomials` (rows, by weight 1 .. order + 1) for each pair."""
    levels, coefficients = _series_monomials(order)
    columns = np.empty((len(coefficients) + 1, gamma.shape[1]))
    columns[0] = 1.0
    done = 1
    for parents, factors in levels:
        columns[done : done + len(parents)] = columns[parents] * gamma[factors]
        done += len(parents)
    return columns[1:]
