"""Accurate vectorized probability kernels: deviance ``bd0``, binomial and hypergeometric pmfs.

Loader's saddle-point form (C. Loader, "Fast and accurate computation of binomial
probabilities", 2000): no large logarithms cancel, a few units of 1e-15 relative at any size
(docs/math.md#math-windows).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chanceclust._expected.elementary import STIRLING_SERIES

# stirlerr(n) for n = 0..15, rounded from 40-digit mpmath (tests/_expected/test_pmfs.py checks them);
# below 16 the Stirling series converges too slowly and lgamma forms lose ~3e-15.
_STIRLERR_SMALL = np.array(
    [
        0.0,
        0.08106146679532725822,
        0.041340695955409294094,
        0.027677925684998339149,
        0.020790672103765093112,
        0.016644691189821192163,
        0.013876128823070747999,
        0.011896709945891770095,
        0.010411265261972096497,
        0.0092554621827127329177,
        0.0083305634333628712565,
        0.007573675487951840795,
        0.0069428401072095298657,
        0.0064089941880042070684,
        0.0059513701127588477356,
        0.005554733551962801371,
    ]
)


def deviance(x: ArrayLike, m: ArrayLike, d: ArrayLike) -> NDArray[np.float64]:
    """Loader's bd0: x log(x/m) + m - x >= 0, given also the exact difference d = x - m.

    Taking d (computed exactly in integers by the callers) keeps the result
    accurate to a few ulps when x and m are ~1e8 and differ by a few units,
    where rounding m itself would cost |d| * eps absolute. Far from the mean
    (|d| >= 0.1 (x + m)) the direct form with m is accurate and d is not
    used. bd0(0, m) = m. For |d| < 0.1 (x + m) the series
    2x sum_j v^(2j+1)/(2j+1) - d v with v = d/(x + m) is used (12 terms:
    v^2 < 0.01 makes the remainder < 1e-24 relative). The same operations as
    written, in place where a temporary can be reused (the same values to the bit).
    """
    x, m, d = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, m, d)))
    v = np.add(x, m, out=np.empty(x.shape))
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(d, v, out=v)
    scratch = np.abs(v, out=np.empty(v.shape))
    close = scratch < 0.1
    count = np.count_nonzero(close) if close.ndim else 0
    if close.ndim and 4 * count < close.size:  # mostly far: sparse cells
        out = _far(x, m, scratch)
        if not count:  # all far (e.g. the cells of a table of small counts)
            return out
        if close.ndim == 1:  # positions, then gathers: ~5x faster than 1-D boolean masks
            close = np.flatnonzero(close)
        out[close] = _series(x[close], d[close], v[close])
        return out
    if close.all():
        return _series(x, d, v)
    # The series on every element: cheaper than gathering the close ones when most are.
    np.copyto(v, 0.0, where=~close)
    return np.where(close, _series(x, d, v), _far(x, m, scratch))


def deviance_in_parts(
    x: NDArray[np.float64], m: NDArray[np.float64], d: NDArray[np.float64], starts: NDArray[np.intp]
) -> NDArray[np.float64]:
    """:func:`deviance` of each part ``x[starts[i]:starts[i + 1]]`` (m, d alike; 1-D arrays, the
    last part to the end, none empty) in one pass, equal to the bit to one call per part: the
    far elements are elementwise, and the series of a part's close elements runs to the length
    its own largest w = v^2 sets (:func:`_series_length`), as one call on the part would."""
    if len(starts) == 1:
        return deviance(x, m, d)
    x, m, d = (np.asarray(v, dtype=np.float64) for v in (x, m, d))
    v = np.add(x, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(d, v, out=v)
    scratch = np.abs(v)
    close = np.flatnonzero(scratch < 0.1)
    out = _far(x, m, scratch)
    if not len(close):
        return out
    w = np.zeros(len(x))
    w[close] = v[close] * v[close]
    largest = np.maximum.reduceat(w, starts)
    lengths = np.array([_series_length(float(value)) for value in largest])
    length = np.repeat(lengths, np.diff(np.append(starts, len(x))))[close]
    for terms in np.unique(length):
        cells = close[length == terms]
        out[cells] = _series(x[cells], d[cells], v[cells], int(terms))
    return out


def _far(
    x: NDArray[np.float64], m: NDArray[np.float64], out: NDArray[np.float64] | None = None
) -> NDArray[np.float64]:
    """x log(x/m) + m - x directly (0 log 0 = 0), into ``out`` (of x's shape) when given."""
    out = np.empty(x.shape) if out is None else out
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(x, m, out=out)
        np.log(out, out=out)
        np.multiply(x, out, out=out)
    positive = x > 0
    if not positive.all():
        out[~positive] = 0.0
    out += m
    out -= x
    return out


def _series_length(largest: float) -> int:
    """The terms of the deviance series for the largest w = v^2 of a call: w^j < 1e-18."""
    return 12 if largest >= 1e-2 else int(np.ceil(-18.0 / np.log10(max(largest, 1e-300))))


def _series(x: NDArray, d: NDArray, v: NDArray, terms: int | None = None) -> NDArray[np.float64]:
    """The deviance series with v = d/(x + m) (0 where the element is not close), by Horner
    in w = v^2 with constant coefficients: 2 x v w sum_j w^(j-1)/(2j+1) + d v. Terms fall
    by w each: stop at w^j < 1e-18 for the largest w (or ``terms``, given)."""
    w = np.multiply(v, v, out=np.empty(np.shape(v)))
    if terms is None:
        terms = _series_length(float(w.max(initial=0.0)))
    poly = np.full(w.shape, _SERIES[min(terms, 12) - 1])
    for coefficient in _SERIES[min(terms, 12) - 2 :: -1]:
        poly *= w
        poly += coefficient
    # d v + 2 x v w poly: the products in that order, the sum as written (both commute)
    product = np.multiply(x, 2.0, out=np.empty(w.shape))
    product *= v
    product *= w
    poly *= product
    np.multiply(d, v, out=w)
    poly += w
    return poly


# 1/(2j+1) for j = 1..12: the coefficients of the deviance series.
_SERIES = tuple(1.0 / (2 * j + 1) for j in range(1, 13))


def stirlerr(n: ArrayLike) -> NDArray[np.float64]:
    """log(n!) - log(sqrt(2 pi n) (n/e)^n) for integers n >= 0, with stirlerr(0) = 0.

    Relative error below 1e-16 (a table for n <= 15, the Stirling series above).
    """
    n = np.asarray(n, dtype=np.float64)
    out = np.zeros(n.shape, dtype=np.float64)
    small = n <= 15
    out[small] = _STIRLERR_SMALL[n[small].astype(np.intp)]
    large = ~small
    inv = 1.0 / n[large]
    inv2 = inv * inv
    # Stirling series; at n >= 16 the first omitted term is below 3e-20.
    total = np.zeros(inv.shape)
    for coefficient in reversed(STIRLING_SERIES):
        total = total * inv2 + coefficient
    out[large] = inv * total
    return out


def _log_2pi_x(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """log(2 pi x), with 0 for x = 0 (the empty factorial has no sqrt factor)."""
    with np.errstate(divide="ignore"):
        return np.where(x > 0, np.log(2.0 * np.pi * x), 0.0)


def _log_factorial_parts(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """stirlerr(x) + log(2 pi x)/2: log x! without its x log x - x part."""
    return stirlerr(x) + 0.5 * _log_2pi_x(x)


def exact_offset(k: NDArray[np.int64], n: NDArray[np.int64], u: NDArray[np.int64]) -> NDArray[np.float64]:
    """d = k - n/u = (k u - n)/u for int64 arrays, without overflowing k u.

    (k u - n)/u in integers (one rounding) while k u < 2**62; beyond, with
    n = q u + r, d = (k - q) - r/u (exact integer part, absolute error ~1e-16).
    """
    if k.size and int(k.max(initial=0)) * int(u.max(initial=0)) < 2**62:
        return (k * u - n) / u.astype(np.float64)
    q, r = np.divmod(n, u)
    return (k - q).astype(np.float64) - r / u.astype(np.float64)


def binom_pmf(k: ArrayLike, n: ArrayLike, u: ArrayLike) -> NDArray[np.float64]:
    """Binomial pmf C(n, k) u^-k (1 - 1/u)^(n-k): k successes in n trials of probability 1/u.

    Integer arguments (int64 arrays) with 0 <= k <= n and
    u >= 2. The deviance terms use the exact difference d = k - n/u = (k u - n)/u,
    so the relative error stays ~1e-14 for any n (Loader 2000):
    log pmf = stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(k, n/u) - bd0(n-k, n - n/u)
    + (log 2 pi n - log 2 pi k - log 2 pi (n-k)) / 2.
    """
    k, n, u = np.broadcast_arrays(*(np.asarray(v, dtype=np.int64) for v in (k, n, u)))
    uf = u.astype(np.float64)
    d = exact_offset(k, n, u)
    kf, nf = k.astype(np.float64), n.astype(np.float64)
    mean = nf / uf
    log_pmf = (
        _log_factorial_parts(nf)
        - _log_factorial_parts(kf)
        - _log_factorial_parts(nf - kf)
        - deviance(kf, mean, d)
        - deviance(nf - kf, nf - mean, -d)
    )
    return np.exp(log_pmf)


def hypergeom_pmf(k: ArrayLike, total: ArrayLike, a: ArrayLike, b: ArrayLike) -> NDArray:
    """h(k; N, a, b) = C(b, k) C(N - b, a - k) / C(N, a), for k in the support.

    Integer arguments (int64, N^2 < 2**63). The four cells k, b - k, a - k,
    N - a - b + k of the 2x2 table share the deviation |d| from their means,
    d = k - ab/N = (kN - ab)/N, computed exactly in integers, so
    log h = sum of stirlerr and sqrt terms of the margins minus those of the
    cells minus the four deviances, with no large logarithm cancelling:
    relative error ~1e-14 for any N (scipy.stats.hypergeom: ~1e-10 at N = 10^6).
    """
    k, total, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.int64) for v in (k, total, a, b)))
    d = (k * total - a * b) / total.astype(np.float64)
    kf, nf, af, bf = (v.astype(np.float64) for v in (k, total, a, b))
    cells = (kf, bf - kf, af - kf, nf - af - bf + kf)
    means = (af * bf / nf, bf * (nf - af) / nf, af * (nf - bf) / nf, (nf - af) * (nf - bf) / nf)
    margins = (af, nf - af, bf, nf - bf)
    log_pmf = (
        sum(_log_factorial_parts(m) for m in margins)
        - _log_factorial_parts(nf)
        - sum(_log_factorial_parts(c) for c in cells)
        - deviance(cells[0], means[0], d)
        - deviance(cells[1], means[1], -d)
        - deviance(cells[2], means[2], -d)
        - deviance(cells[3], means[3], d)
    )
    return np.exp(log_pmf)
