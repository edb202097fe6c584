"""N I(a, b) = E[bd0(X, ab/N)] for hypergeometric cells of mean ab/N <= 1, by factorial moments.

For these pairs (nearly all size pairs of the perm E[MI] when the sizes are small against
N: 87 % of the 2x10^7 pairs of the "stair" sizes 1..4471 at N = 10^7)
E[bd0(X, mu)] = E[X log X] - mu log mu, both terms >= 0, the first by Newton's forward series
over the factorial moments F_k = C(a, k) C(b, k) / C(N, k) with the constant differences d_k of
x log x (:func:`newton_differences`), truncated by the bound of docs/math.md#math-perm-groups
(:func:`order_switch_means`). A 2-D block of rows s against columns l is one matrix product of
K - 1 row factors by K - 1 falling powers rho^k (l)_k, rho a power of two
(:func:`small_mean_block`): no pmf, no window, no sort; the terms alternate and fall by >= 3
each, so the rounding stays at a few ulps.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from functools import lru_cache
from math import comb, factorial

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.windows import serial_product
from chanceclust.exceptions import InternalError

# Pairs of mean ab/N up to this take the factorial-moment series (for larger means
# -mu log mu < 0 and E[X log X] - mu log mu would cancel).
SMALL_MEAN = 1.0
# Truncation target: the first omitted term against E[X log X] (as the series in 1/mean).
_TOLERANCE = 1e-17
_MAX_ORDER = 19  # 2.53 / 20! < 1e-17: enough at mu = 1
# Up to this many elements the running products of the series' factors are formed by numpy's
# accumulate over a 2-D array of all the factors (few calls: small blocks); beyond, step by
# step (accumulate runs ~2x slower an element). Both give the same bits.
_ACCUMULATE = 2048


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
    where the bound 2.53 mu^(K-1) / (K+1)! of docs/math.md#math-perm-groups equals _TOLERANCE."""
    out = np.zeros(_MAX_ORDER + 1)
    for k in range(2, _MAX_ORDER + 1):
        out[k] = (_TOLERANCE * factorial(k + 1) / 2.53) ** (1.0 / (k - 1))
    return out


def small_mean_order(largest_mean: float) -> int:
    """The order K for means up to ``largest_mean`` (<= SMALL_MEAN)."""
    if not largest_mean <= SMALL_MEAN:
        raise InternalError("the factorial-moment series takes means <= 1 only")
    return int(np.argmax(order_switch_means()[2:] >= largest_mean)) + 2


def _row_factors(s: NDArray[np.float64], n: int, rho: NDArray[np.float64] | float, order: int):
    """g'_k = d_k prod_{j<k} (s - j) / ((j + 1)(N - j) rho), k = 2 .. order (columns), per s.

    ``order`` is capped at N: the terms k > min(s, l) are 0, and so is every factor
    N - j, j < k, positive."""
    d = newton_differences()
    s = np.asarray(s, dtype=np.float64)
    factors = np.empty((len(s), order - 1))
    factor = s * (1.0 / (float(n) * rho))
    factor *= (s - 1.0) * (1.0 / (2.0 * (float(n) - 1.0) * rho))
    if len(s) * order <= _ACCUMULATE:
        # Every step's factor in one 2-D array, then their running products by numpy's
        # accumulate (one after the other, as the loop below): the same bits in a few calls.
        rho = np.asarray(rho, dtype=np.float64)
        steps = np.arange(3.0, order + 1.0)
        scale = 1.0 / (steps * (float(n) - (steps - 1.0)) * (rho[:, None] if rho.ndim else rho))
        factors[:, 0] = factor
        np.multiply(np.subtract.outer(s, steps - 1.0), scale, out=factors[:, 1:])
        np.multiply.accumulate(factors, axis=1, out=factors)
        factors *= d[2 : order + 1]
        return factors
    factors[:, 0] = factor * d[2]
    for k in range(3, order + 1):
        factor *= (s - (k - 1.0)) * (1.0 / (k * (float(n) - (k - 1.0)) * rho))
        factors[:, k - 2] = factor * d[k]
    return factors


def _falling_powers(l: NDArray[np.float64], rho: NDArray[np.float64] | float, order: int):
    """rho^k (l)_k = prod_{j<k} (l rho - j rho), k = 2 .. order (rows), per l: exact steps,
    rho being a power of two."""
    lam = np.asarray(l, dtype=np.float64) * rho
    out = np.empty((order - 1, len(lam)))
    out[0] = lam * (lam - rho)
    if len(lam) * order <= _ACCUMULATE:  # as in _row_factors: the loop's bits, few calls
        steps = np.multiply.outer(np.arange(2.0, order), np.broadcast_to(rho, lam.shape))
        np.subtract(lam, steps, out=out[1:])
        return np.multiply.accumulate(out, axis=0, out=out)
    for k in range(3, order + 1):
        out[k - 2] = out[k - 3] * (lam - (k - 1) * rho)
    return out


def _scale(largest: NDArray[np.float64] | float) -> NDArray[np.float64]:
    """A power of two rho with largest * rho in [1/2, 1)."""
    return np.ldexp(1.0, -np.frexp(np.maximum(largest, 1.0))[1])


def small_mean_block(
    s: NDArray[np.int64], l: NDArray[np.int64], n: int, order: int
) -> NDArray[np.float64]:
    """E[bd0(X, s_i l_j / N)] for every row s_i and column l_j (a 2-D block), by one matrix
    product of the row factors g'_k(s_i) with the falling powers of l_j (K flops a cell).

    ``order``: :func:`small_mean_order` of the largest mean that matters (<= 1); cells of
    larger mean get meaningless values, possibly inf or NaN (the callers mask them), so keep
    the columns within a factor ~2^16 of each other: then no cell of mean <= 1 over- or
    underflows.
    """
    order = max(2, min(order, n))
    sf, lf = np.asarray(s, dtype=np.float64), np.asarray(l, dtype=np.float64)
    rho = float(_scale(float(lf.max(initial=1.0))))
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        x_log_x = serial_product(_row_factors(sf, n, rho, order), _falling_powers(lf, rho, order))
        mean = np.multiply.outer(sf, lf / float(n))
        return x_log_x - mean * np.log(np.maximum(mean, 1e-300))


def small_mean_information(
    a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """N I(a, b) = E[bd0(X, ab/N)] for pairs of mean ab/N <= 1 (one value per pair)."""
    s = np.minimum(a, b).astype(np.float64)
    l = np.maximum(a, b).astype(np.float64)
    mean = s * (l / float(n))
    out = np.zeros(len(s))
    if len(s) == 0 or n < 2:  # N = 1: X is constant
        return out
    if not np.all(mean <= SMALL_MEAN):
        raise InternalError("the factorial-moment series takes means <= 1 only")
    # The least order K whose switch mean is >= the pair's mean (the switch means increase).
    order = np.searchsorted(order_switch_means()[2:], mean, side="left") + 2
    rho = _scale(l)
    for k in np.unique(order):
        rows = np.flatnonzero(order == k)
        kk = max(2, min(int(k), n))
        terms = _row_factors(s[rows], n, rho[rows], kk) * _falling_powers(l[rows], rho[rows], kk).T
        out[rows] = np.sum(terms, axis=1)
    return out - mean * np.log(np.maximum(mean, 1e-300))
