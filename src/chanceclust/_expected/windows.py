"""Vectorized sums over ragged integer windows, and the two concentration windows we need.

Every expected mutual information reduces to sums of pmf(x) * bd0(x, mean) over a binomial
or hypergeometric window, outside which Bennett's inequality leaves a mass below 1e-20
(docs/math.md#math-windows).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.elementary import unique
from chanceclust._expected.pmfs import hypergeom_pmf

_LOG_TWO_OVER_DELTA = np.log(2.0 / 1e-20)
_CHUNK = 1 << 18  # elements per padded block: small enough to stay in cache


# Matrix products of at most this many multiply-adds run on one thread in OpenBLAS (its
# threshold: 65536 x GEMM_MULTITHREAD_THRESHOLD = 4); threaded, the small products here cost
# tens of times their own work on a busy machine (measured: 69 vs 1.4 ns a cell, 2 cores).
_SERIAL_PRODUCT = 1 << 18


def serial_product(left: NDArray[np.float64], right: NDArray[np.float64]) -> NDArray[np.float64]:
    """left @ right, by slices of rows of ``left`` small enough for one BLAS thread."""
    out = np.empty((left.shape[0], right.shape[1]))
    rows = max(1, _SERIAL_PRODUCT // max(1, right.shape[0] * right.shape[1]))
    for first in range(0, left.shape[0], rows):
        np.matmul(left[first : first + rows], right, out=out[first : first + rows])
    return out


def tail_halfwidth(var: NDArray[np.float64]) -> NDArray[np.float64]:
    """Half-width t outside which a sum of indicators has mass below 1e-20 (Bennett).

    Solves var h(t/var) = log(2/delta) by Newton's method on x = t/var,
    started from Bernstein's (larger) t: h is convex and increasing, so the
    iterates decrease monotonically to the root and stay valid bounds; a
    final +1 absorbs the stopping error. var = 0 gives 0 (a constant).
    """
    var = np.asarray(var, dtype=np.float64)
    ell = _LOG_TWO_OVER_DELTA
    bernstein = ell / 3.0 + np.sqrt(ell * ell / 9.0 + 2.0 * ell * var)
    positive = var > 0
    v = var[positive]
    x = bernstein[positive] / v
    target = ell / v
    for _ in range(6):  # every iterate is >= the root, so stopping early only widens
        step = ((1.0 + x) * np.log1p(x) - x - target) / np.log1p(x)
        x = x - np.maximum(step, 0.0)
    out = np.zeros_like(var)
    out[positive] = v * x + 1.0
    return out


def mode_recurrence_sums(
    mode: NDArray[np.int64],
    up: NDArray[np.int64],
    down: NDArray[np.int64],
    at_mode: NDArray[np.float64],
    ratio_up: Callable[[NDArray[np.intp], NDArray[np.float64]], NDArray[np.float64]],
    ratio_down: Callable[[NDArray[np.intp], NDArray[np.float64]], NDArray[np.float64]],
    term: Callable[[NDArray[np.intp], NDArray[np.int64]], NDArray[np.float64]],
) -> NDArray[np.float64]:
    """For each row r, sum pmf(x) term(x) over x = mode - down .. mode + up.

    The pmf is given at the mode (``at_mode``, computed accurately by the
    caller) and carried outwards by its exact ratios: ``ratio_up(rows, x)``
    is pmf(x+1)/pmf(x) and ``ratio_down(rows, x)`` is pmf(x-1)/pmf(x), on
    2-D arrays of x = mode +- step. Each step adds one rounding, so the pmf
    keeps ~sqrt(steps) eps relative (< 1e-14 for the widest windows, ~1e4
    steps at N = 1e7), for a few flops per point instead of a full pmf
    evaluation. Rows are grouped by window width into padded blocks.
    """
    width = np.maximum(up, down)
    out = np.empty(len(mode), dtype=np.float64)
    # Widths within 20% share a block: padding wastes < 20% of the work.
    bucket = np.ceil(np.log(width + 1.0) / np.log(1.2)).astype(np.int64)
    for level in unique(bucket):
        members = np.flatnonzero(bucket == level)
        span = int(width[members].max())
        rows = max(1, _CHUNK // (2 * span + 1))
        for start in range(0, len(members), rows):
            idx = members[start : start + rows]
            out[idx] = _block_sums(
                idx, mode[idx], up[idx], down[idx], at_mode[idx], ratio_up, ratio_down, term
            )
    return out


def _block_sums(idx, mode, up, down, at_mode, ratio_up, ratio_down, term):
    total = at_mode * term(idx, mode[:, None])[:, 0]
    centre = mode[:, None].astype(np.float64)
    for sign, count, ratio in ((1, up, ratio_up), (-1, down, ratio_down)):
        reach = int(count.max(initial=0))  # each direction only as far as it goes
        if reach == 0:
            continue  # e.g. windows that start at their mode 0
        steps = np.arange(reach)[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios = ratio(idx, centre + sign * steps)
        ratios[steps >= count[:, None]] = 0.0  # beyond the window: the pmf is cut to 0
        pmf = at_mode[:, None] * np.cumprod(ratios, axis=1)
        cells = np.maximum(mode[:, None] + sign * (steps + 1), 0)
        total = total + np.sum(pmf * term(idx, cells), axis=1)
    return total


def hypergeometric_window(
    a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """(lo, mode, hi) of each Hypergeometric(N, a, b): mass < 1e-20 outside (Bennett, as for
    the binomial with the same p; Hoeffding 1963, Theorem 4)."""
    mean = a * (b / n)
    half = tail_halfwidth(mean * (1.0 - b / n))
    lo = np.maximum(np.maximum(a + b - n, 0), np.floor(mean - half).astype(np.int64))
    hi = np.minimum(np.minimum(a, b), np.ceil(mean + half).astype(np.int64))
    mode = np.clip((a + 1) * (b + 1) // (n + 2), lo, hi)
    return lo, mode, hi


def hypergeometric_sums(
    a: NDArray[np.int64],
    b: NDArray[np.int64],
    n: int,
    term: Callable[[NDArray[np.intp], NDArray[np.int64]], NDArray[np.float64]],
) -> NDArray[np.float64]:
    """sum_x h(x; N, a_i, b_i) term(i, x) for each i over its window: Loader's pmf at the mode,
    carried outwards by the pmf's ratios (:func:`mode_recurrence_sums`); the one hypergeometric
    window sum of the engine (E[MI]'s general route, E[MI_q])."""
    lo, mode, hi = hypergeometric_window(a, b, n)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    rest = float(n) - af - bf  # N - a - b

    def ratio_up(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        # h(x+1)/h(x) = (a-x)(b-x) / ((x+1)(N-a-b+x+1))
        ai, bi = af[i, None], bf[i, None]
        return (ai - x) * (bi - x) / ((x + 1.0) * (rest[i, None] + x + 1.0))

    def ratio_down(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        # h(x-1)/h(x) = x (N-a-b+x) / ((a-x+1)(b-x+1))
        return x * (rest[i, None] + x) / ((af[i, None] - x + 1.0) * (bf[i, None] - x + 1.0))

    at_mode = hypergeom_pmf(mode, n, a, b)
    return mode_recurrence_sums(mode, hi - mode, mode - lo, at_mode, ratio_up, ratio_down, term)
