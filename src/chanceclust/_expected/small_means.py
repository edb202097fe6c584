"""N I(a, b) = E[bd0(X, ab/N)] for hypergeometric cells of mean ab/N <= 1, by factorial moments.

For these pairs (nearly all size pairs of the perm E[MI] when the sizes are small against
N: 87 % of the 2x10^7 pairs of the "stair" sizes 1..4471 at N = 10^7)
E[bd0(X, mu)] = E[X log X] - mu log mu, both terms >= 0, and by Newton's forward series

    E[f(X)] = sum_k E[C(X, k)] Delta^k f(0),   E[C(X, k)] = F_k = C(a, k) C(b, k) / C(N, k),

exact for every f (X <= min(a, b), so the sum is finite). For f(x) = x log x the
differences d_k = Delta^k f(0) = sum_j (-1)^(k-j) C(k, j) j log j are constants
(:func:`newton_differences`): d_0 = d_1 = 0, d_2 = 2 log 2, then alternating in sign with
|d_k| = k int_0^1 u^(k-1) / (-log(1 - u)) du decreasing (1.39, 0.86, 0.68, ..., 0.31 at
k = 20). With s <= l the two sizes,

    F_(k+1) / F_k = (s - k)(l - k) / ((k + 1)(N - k)) <= mu / (k + 1) <= 1/3   (k >= 2),

so the terms t_k = F_k d_k alternate and fall by a factor >= 3 each: the sum lies within
|t_(K+1)| of its partial sum to K, E[X log X] >= t_2 + t_3 >= 0.79 t_2, and
|t_(K+1)| / t_2 <= 2 mu^(K-1) / (K+1)!. The series is truncated after the least order K
whose bound 2.53 mu^(K-1) / (K+1)! is <= 1e-17 (relative to E[X log X], so also to
E[bd0] >= E[X log X]): :func:`order_switch_means` gives the largest mean of each order
(K = 2 for mu <= ~1e-9 ... K = 19 up to mu = 1).

The sum is evaluated by Horner's rule in the falling factorial of l,
E[X log X] = sum_k g_k (l)_k = l (l - 1) (g_2 + (l - 2)(g_3 + (l - 3)(...))),
g_k = (s)_k d_k / ((N)_k k!), with l scaled by a power of two rho (exact) so that nothing
under- or overflows: a 2-D block of rows s against columns l costs two array operations
per order and cell (:func:`small_mean_sums`), no pmf, no window, no sort. The terms
alternate and fall by >= 3 each, so the rounding stays at a few ulps of the result (no
cancellation); the final E[X log X] - mu log mu adds two non-negative numbers.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from functools import lru_cache
from math import comb, factorial

import numpy as np
from numpy.typing import NDArray

from chanceclust.exceptions import InternalError

# Pairs of mean ab/N up to this take the factorial-moment series (for larger means
# -mu log mu < 0 and E[X log X] - mu log mu would cancel).
SMALL_MEAN = 1.0
# Truncation target: the first omitted term against E[X log X] (as the series in 1/mean).
_TOLERANCE = 1e-17
_MAX_ORDER = 19  # 2.53 / 20! < 1e-17: enough at mu = 1


@lru_cache(maxsize=1)
def newton_differences() -> NDArray[np.float64]:
    """d_k = Delta^k (x log x) at 0 for k = 0 .. _MAX_ORDER, from 60-digit decimal arithmetic
    (the alternating sum loses ~2^k to cancellation in float64; 60 digits keep > 50)."""
    with localcontext() as context:
        context.prec = 60
        x_log_x = [Decimal(0)] + [Decimal(j) * Decimal(j).ln() for j in range(1, _MAX_ORDER + 1)]
        out = [
            sum(((-1) ** (k - j) * comb(k, j) * x_log_x[j] for j in range(k + 1)), Decimal(0))
            for k in range(_MAX_ORDER + 1)
        ]
    return np.array([float(v) for v in out])


@lru_cache(maxsize=1)
def order_switch_means() -> NDArray[np.float64]:
    """The largest mean at which order K suffices, K = 0 .. _MAX_ORDER (0 for K < 2):
    where the bound 2.53 mu^(K-1) / (K+1)! of the module docstring equals _TOLERANCE."""
    out = np.zeros(_MAX_ORDER + 1)
    for k in range(2, _MAX_ORDER + 1):
        out[k] = (_TOLERANCE * factorial(k + 1) / 2.53) ** (1.0 / (k - 1))
    return out


def small_mean_order(largest_mean: float) -> int:
    """The order K for means up to ``largest_mean`` (<= SMALL_MEAN)."""
    if not largest_mean <= SMALL_MEAN:
        raise InternalError("the factorial-moment series takes means <= 1 only")
    return int(np.argmax(order_switch_means()[2:] >= largest_mean)) + 2


def small_mean_sums(
    s: NDArray[np.float64], l: NDArray[np.float64], n: int, rho: NDArray[np.float64] | float, order: int
) -> NDArray[np.float64]:
    """E[bd0(X, s l / N)] for X ~ hypergeometric(N, s, l), broadcasting ``s`` against ``l``.

    ``s`` and ``rho`` broadcast together (rho: powers of two, ``l * rho`` <= ~1, e.g. one
    per block of columns, or one per pair); ``order``: :func:`small_mean_order` of the
    largest mean (capped at N: the terms k > min(s, l) are 0, and so is every factor
    N - j, j < k, positive). Cells of mean > 1 get meaningless (finite or not) values: callers mask them.
    Sizes 0 give 0.
    """
    d = newton_differences()
    order = min(order, n)
    lam = l * rho  # exact: rho is a power of two
    # g'_k = g_k / rho^k = d_k prod_{j<k} (s - j) / ((j + 1)(N - j) rho), k = 2 .. order
    factor = s * (1.0 / (float(n) * rho))
    factor = factor * ((s - 1.0) * (1.0 / (2.0 * (float(n) - 1.0) * rho)))  # F_2 / (l (l-1))
    scaled = [factor * d[2]]
    for k in range(3, order + 1):
        factor = factor * ((s - (k - 1.0)) * (1.0 / (k * (float(n) - (k - 1.0)) * rho)))
        scaled.append(factor * d[k])
    with np.errstate(over="ignore", invalid="ignore"):
        acc = np.broadcast_to(scaled[-1], np.broadcast_shapes(np.shape(scaled[-1]), np.shape(lam)))
        for k in range(order - 1, 1, -1):
            acc = acc * (lam - k * rho) + scaled[k - 2]
        x_log_x = acc * (lam * (lam - rho))
        mean = s * (l / float(n))
        return x_log_x - mean * np.log(np.maximum(mean, 1e-300))


def small_mean_information(
    a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """N I(a, b) = E[bd0(X, ab/N)] for pairs of mean ab/N <= 1 (one value per pair)."""
    s = np.minimum(a, b).astype(np.float64)
    l = np.maximum(a, b).astype(np.float64)
    mean = s * (l / float(n))
    rho = np.ldexp(1.0, -np.frexp(np.maximum(l, 1.0))[1])  # l rho in [1/2, 1)
    out = np.zeros(len(s))
    if len(s) == 0 or n < 2:  # N = 1: X is constant
        return out
    if not np.all(mean <= SMALL_MEAN):
        raise InternalError("the factorial-moment series takes means <= 1 only")
    # The least order K whose switch mean is >= the pair's mean (the switch means increase).
    order = np.searchsorted(order_switch_means()[2:], mean, side="left") + 2
    for k in np.unique(order):
        rows = np.flatnonzero(order == k)
        out[rows] = small_mean_sums(s[rows], l[rows], n, rho[rows], int(k))
    return out
