"""Lattice probabilities of sums of zero-truncated Poisson variables (numeric primitives).

The saddle-point identity behind :func:`chanceclust.special.log_stirling2` and the num
model's curvature (:mod:`curvature`) needs, for X_i i.i.d. zero-truncated Poisson(rho),
P(X_1 + ... + X_k = n) at the saddle point (k E[X] = n): the saddle point, the log
characteristic function on either side of ``SMALL_RATE_BELOW`` and the trapezoid rule, exact
up to aliases at least 9.5 standard deviations away (docs/math.md#math-special); and
k! S(m, k), S(n, k) and B_n as exact integers. Imports nothing of chanceclust but
:mod:`elementary`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.elementary import truncated_poisson_rate, unique

__all__ = [
    "exact_bell",
    "exact_stirling2",
    "exact_stirling2_columns",
    "lattice_probability",
    "log_cf_ztp_large",
    "log_cf_ztp_small",
    "log_h_real",
    "surjection_counts",
    "trapezoid_nodes",
    "ztp_saddle",
    "ztp_variance",
]

# Trapezoid rule on the lattice characteristic function.  With M nodes on the
# circle the rule returns sum_j P(S = n + j M); M >= ALIAS_SD * sd + ALIAS_ADD
# puts every alias at least 9.5 standard deviations (and 30 lattice points) away,
# a relative contribution near exp(-45) for the near-Gaussian sums used here
# (Poisson-like right tails are covered by the additive 30 points).
ALIAS_SD = 9.5
ALIAS_ADD = 30.0
# Nodes with |t| > CUT_SD / sd carry |cf(t)| < about exp(-CUT_SD**2 / 2) ~ 3e-18
# (checked at run time: nodes are added until the last one is below exp(TAIL_LOG)).
CUT_SD = 9.0
TAIL_LOG = -40.0
# Below this rate log h(rho) and the characteristic function are summed from their Taylor
# series (h(z) - 1 = sum_j z^j / (j+1)!), above it from expm1 in closed form.
SMALL_RATE_BELOW = 0.5

_H_COEF = tuple(1.0 / math.factorial(j + 1) for j in range(1, 20))  # 1/2!, 1/3!, ...


def ztp_variance(excess: Any, rho: Any) -> Any:
    """Var X of the zero-truncated Poisson(rho) X with E[X] = 1 + ``excess``.

    Var X = E[X] (1 + rho - E[X]) = (1 + excess)(rho - excess) > 0, kept away from
    rounding to 0 by the floor 0.1 rho / (1 + rho), far below its true value
    (Var X > rho / 2 for rho < 1, > 1/2 beyond). Scalars or arrays.
    """
    return (1.0 + excess) * np.maximum(rho - excess, 0.1 * rho / (1.0 + rho))


def ztp_saddle(total: int, k: int) -> tuple[float, float, float]:
    """(mean - 1, rho, k Var X) of the zero-truncated Poisson X with k E[X] = ``total``.

    The saddle point of ``total`` elements in ``k`` non-empty clusters; k Var X is
    the variance of the lattice sum, which decides between the exact routes and
    the expansions (``edgeworth.LATTICE_EXPANSION_FROM``).
    """
    excess = (total - k) / k
    rho = float(truncated_poisson_rate(excess))
    return excess, rho, k * float(ztp_variance(excess, rho))


def log_h_real(rho: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log((exp(rho) - 1) / rho)`` for ``rho > 0``, accurate near 0."""
    small = rho < SMALL_RATE_BELOW
    acc = np.zeros_like(rho)
    for c in reversed(_H_COEF):  # h - 1 = sum_{j>=1} rho^j / (j+1)!
        acc = (acc + c) * rho
    with np.errstate(over="ignore"):
        big = np.log(np.expm1(np.maximum(rho, 0.5))) - np.log(np.maximum(rho, 0.5))
    return np.where(small, np.log1p(acc), big)


def log_cf_ztp_small(
    rho: NDArray[np.float64], k: NDArray[np.float64], m: NDArray[np.float64],
    log_h_rho: NDArray[np.float64], t: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Real and imaginary parts of ``k log psi(t) - i m t`` when ``rho < SMALL_RATE_BELOW``.

    ``psi(t) = h(z) / h(rho)``, ``z = rho e^{it}``; ``log h(z) = log1p(w)`` with
    ``w = sum_j z^j / (j+1)!`` by Horner, and log1p taken in real arithmetic so
    that ``k * log h`` keeps its relative accuracy when ``|w|`` is tiny.
    """
    rmax = float(np.max(rho))
    # Terms needed: rho^j / (j+1)! below 1e-18 relative to rho / 2.
    n_terms = 1
    while n_terms < len(_H_COEF) and rmax**n_terms / math.factorial(n_terms + 1) > 1e-18 * rmax:
        n_terms += 1
    zr = rho * np.cos(t)
    zi = rho * np.sin(t)
    ar = np.zeros_like(zr)
    ai = np.zeros_like(zr)
    for c in reversed(_H_COEF[:n_terms]):
        br = ar + c
        ar, ai = br * zr - ai * zi, br * zi + ai * zr
    re = 0.5 * np.log1p(ar * (2.0 + ar) + ai * ai)
    im = np.arctan2(ai, 1.0 + ar)
    return k * (re - log_h_rho), k * im - m * t


def log_cf_ztp_large(
    rho: NDArray[np.float64], k: NDArray[np.float64], n: NDArray[np.float64],
    log_em1_rho: NDArray[np.float64], t: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Real and imaginary parts of ``k log phi(t) - i n t`` when ``rho >= SMALL_RATE_BELOW``.

    ``phi(t) = (e^z - 1) / (e^rho - 1)``, ``z = rho e^{it}``; ``e^z - 1`` in a
    cancellation-free form.  The branch of the argument is irrelevant (``k`` is
    an integer).
    """
    x = rho * np.cos(t)
    y = rho * np.sin(t)
    em = np.expm1(x)
    sh = np.sin(0.5 * y)
    ch = np.cos(0.5 * y)
    sh2 = 2.0 * sh * sh
    re_e = em * (1.0 - sh2) - sh2
    im_e = (em + 1.0) * 2.0 * sh * ch
    re = 0.5 * np.log(re_e * re_e + im_e * im_e)
    im = np.arctan2(im_e, re_e)
    return k * (re - log_em1_rho), k * im - n * t


def trapezoid_nodes(sd: Any) -> tuple[Any, Any, Any, Any]:
    """(M, step, half, first count) of the trapezoid rule for a lattice sum of this sd.

    M (odd: the nodes are symmetric, t = pi is not one) puts the aliases
    ``ALIAS_SD`` standard deviations plus ``ALIAS_ADD`` points away; step = 2 pi / M;
    half = (M - 1) / 2 nodes on each side; the first count of nodes summed covers
    |t| <= ``CUT_SD`` / sd (more are added while the last is not below exp(``TAIL_LOG``)).
    Scalars or arrays, as floats.
    """
    m_nodes = np.floor(ALIAS_SD * sd + ALIAS_ADD)
    m_nodes += 1.0 - np.mod(m_nodes, 2.0)
    step = 2.0 * np.pi / m_nodes
    half = (m_nodes - 1.0) / 2.0
    return m_nodes, step, half, np.minimum(half, np.ceil(CUT_SD / (sd * step)) + 1.0)


def lattice_probability(log_cf: Any, v: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log P(S = n)`` from the centred lattice characteristic function.

    ``log_cf(t, rows)`` returns the real and imaginary parts of
    ``log E[exp(i t (S - n))]`` for the given rows at the (rows x nodes) array
    ``t``; ``v`` is Var S.  Trapezoid rule with ``M`` (odd) nodes
    (:func:`trapezoid_nodes`): ``P = (1 + 2 sum_{l >= 1} Re cf(2 pi l / M)) / M``,
    exact up to the aliases ``P(S = n +- M) + ...``, truncated where ``|cf|`` is below
    ``exp(TAIL_LOG)`` (checked: nodes are added for the rows whose last node is not
    negligible).
    """
    m_nodes, step, half, n_half = trapezoid_nodes(np.sqrt(v))
    total = np.zeros_like(v)
    start = np.zeros_like(v)  # nodes already summed, per row
    pending = np.arange(v.size)
    while pending.size:
        more = []
        widths = n_half[pending] - start[pending]
        buckets = np.ceil(widths / 4.0) * 4.0  # few distinct shapes, little padding
        for width in unique(buckets):
            sel = buckets == width
            rows, stop = pending[sel], n_half[pending[sel]]
            ell = start[rows, None] + np.arange(1.0, width + 1.0)
            mask = ell <= stop[:, None]
            re, im = log_cf(np.where(mask, ell, 0.0) * step[rows, None], rows)
            total[rows] += np.where(mask, np.exp(re) * np.cos(im), 0.0).sum(axis=1)
            last = np.take_along_axis(re, (widths[sel] - 1.0).astype(np.intp)[:, None], 1)
            more.append(rows[(last[:, 0] >= TAIL_LOG) & (stop < half[rows])])
        start[pending] = n_half[pending]
        pending = np.concatenate(more)
        n_half[pending] = np.minimum(half[pending], 2.0 * n_half[pending])
    return np.log1p(2.0 * total) - np.log(m_nodes)


def surjection_counts(n: int, k: int, depth: int) -> list[int]:
    """k! S(m, k) = sum_{j<k} (-1)^j C(k, j) (k - j)^m for m = n, n - 1, .., n - depth + 1.

    Exact integers (m >= 1, so the j = k term 0^m is 0); the powers of each base
    are shared between the ``depth`` values of m.
    """
    totals = [0] * depth
    binom = 1  # C(k, j)
    for j in range(k):
        base = k - j
        term = binom * base ** (n - depth + 1)
        if j & 1:
            term = -term
        for i in range(depth - 1, -1, -1):  # m = n - i, ascending
            totals[i] += term
            term *= base
        binom = binom * base // (j + 1)
    return totals


def exact_stirling2(n: int, k: int) -> int:
    """S(n, k) for integers n, k >= 0 (:func:`chanceclust.special.stirling2`, unchecked)."""
    if k > n:
        return 0
    if k == 0:
        return 1 if n == 0 else 0
    if k == 1 or k == n:
        return 1
    m = n - k
    if m < k // 4:  # k close to n: second-order Eulerian numbers (stirling2's Notes)
        row = _eulerian2_row(m)
        return sum(e * math.comb(n + m - 1 - j, 2 * m) for j, e in enumerate(row) if e)
    return surjection_counts(n, k, 1)[0] // math.factorial(k)


def exact_stirling2_columns(n: int, ks: tuple[int, ...]) -> dict[int, list[int]]:
    """S(m, k) for m = 0 .. n, for each k >= 0 in ``ks``, as exact integers.

    From the generating function sum_m S(m, k) x^m = x^k / prod_{i=1..k} (1 - i x): the
    power series of 1 / prod (1 - i x) is divided by one factor after another (c_d += i
    c_{d-1}), up to degree n - min(ks): max(ks) (n - min(ks)) integer steps in all, where one
    :func:`exact_stirling2` per (m, k) costs k big powers each."""
    low = min(ks)
    series = [1] + [0] * max(n - low, 0)  # the coefficients of degree 0 .. n - low
    out = {}
    for i in range(max(ks) + 1):
        if i:
            for d in range(1, len(series)):
                series[d] += i * series[d - 1]
        if i in ks:
            out[i] = ([0] * i + series[: n - i + 1])[: n + 1]
    return out


def _eulerian2_row(m: int) -> list[int]:
    """Second-order Eulerian numbers <<m, j>>, j = 0 .. m - 1 (``[1]`` for m = 0)."""
    row = [1]
    for i in range(1, m + 1):
        # <<i, j>> = (j + 1) <<i-1, j>> + (2i - 1 - j) <<i-1, j-1>>
        new = [0] * i
        for j in range(i):
            a = (j + 1) * row[j] if j < len(row) else 0
            b = (2 * i - 1 - j) * row[j - 1] if 0 < j <= len(row) else 0
            new[j] = a + b
        row = new
    return row


def exact_bell(n: int) -> int:
    """B_n for an integer n >= 0 (:func:`chanceclust.special.bell`, unchecked)."""
    if n == 0:
        return 1
    derange = [1, 0]
    for p in range(2, n + 1):
        derange.append((p - 1) * (derange[-1] + derange[-2]))
    total = 0
    binom = 1  # C(n, j)
    for j in range(n + 1):
        if j:
            total += binom * j**n * derange[n - j]
        binom = binom * (n - j) // (j + 1)
    return total // math.factorial(n)
