"""I(a, b) = E[bd0(X, ab/N)] / N for X ~ hypergeometric(N, a, b), for many size pairs at once.

This is the whole cost of the perm expected MI (one value per pair of distinct
cluster sizes: ~4e5 pairs for Zipf-like sizes with K = 1000 at N = 10^6), so
it is computed in two ways:

* **Grouped (most pairs).** Pairs with s + l <= N/2 (s <= l the two sizes)
  are grouped by the mode of X. Within a group the pmf of every pair is
  carried over one shared range of x by its ratio recurrence (one cumulative
  product per row) and every sum is a single matrix product of those rows
  with three fixed columns 1, x - m and bd0(x, m), m an integer near the
  group's modes. Then
      E[bd0(X, mu)] = S_bd0 - S_0 bd0(mu, m) + log(m/mu) (S_1 - (mu - m) S_0),
  an identity (bd0(x, mu) = bd0(x, m) + x log(m/mu) + mu - m) whose terms are
  all O(1) because |mu - m| ~ sqrt(m): nothing cancels (factor <~ 1.3), and it
  is homogeneous in the pmf, so a common relative error of the pmf (from its
  anchor value) stays a relative error of the result. Pairs with mu <= 1 use
  E[bd0(X, mu)] = E[X log X] - mu log mu instead, whose two terms are >= 0.
  The anchor is P(X = 0) from a short convergent series when the window
  starts at 0 (below), else Loader's pmf at the mode.
* **General (the rest: a + b > N/2, N < 1000, or anything the grouped route
  cannot anchor).** Loader's pmf at each pair's own mode, carried outwards
  through each pair's own window (``_sums.mode_recurrence_sums``).

Both use the Bennett window of ``_sums.tail_halfwidth`` (mass < 1e-20 left
out). Accuracy: ~1e-15 relative per pair in tests against 50-digit mpmath
(tests/test_pair_information.py); each recurrence step adds one rounding.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from chanceclust._kernels import deviance, hypergeom_pmf
from chanceclust._sums import mode_recurrence_sums, tail_halfwidth

_CHUNK = 1 << 17  # elements per block of pmf rows: stays in cache
_GRID_STEPS = 16  # variance grid points per doubling for the window lookup
_MANY_PAIRS = 512  # from this many pairs in a block, step over x with vector operations


def pair_information(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """I(a, b) = E[bd0(X, ab/N)] / N for X hypergeometric(N, a, b), for each pair (a, b) of sizes >= 1."""
    small = np.minimum(a, b).astype(np.float64)
    large = np.maximum(a, b).astype(np.float64)
    grouped = 2.0 * (small + large) <= n
    if grouped.all():
        out = _grouped_information(small, large, n)
    else:
        out = np.full(len(small), np.nan)
        out[grouped] = _grouped_information(small[grouped], large[grouped], n)
    rest = ~np.isfinite(out)  # the general route, also for any row whose pmf overflowed
    if rest.any():
        out[rest] = _general_information(
            small[rest].astype(np.int64), large[rest].astype(np.int64), n
        )
    return out / n


# ---------------------------------------------------------------- grouped route


def _grouped_information(s: NDArray[np.float64], l: NDArray[np.float64], n: int) -> NDArray[np.float64]:  # noqa: E741
    """N I(s, l) for s <= l, s + l <= N/2, by groups of nearby means; NaN where a pmf overflowed."""
    if len(s) == 0:
        return np.empty(0)
    fraction = l / n
    mean = s * fraction
    # var(X) <= mean (1 - l/N) for s >= 1, and the window only grows with the variance.
    half = _window_halfwidth(mean - mean * fraction)
    top = np.minimum(np.ceil(mean + half), s)
    bottom = np.maximum(np.floor(mean - half), 0.0)
    # Pairs with mean <= 1 are grouped by their window's end (no padding), the others by
    # their mean, in groups of width ~sqrt(mean) (2 sqrt(mean) grows by 1 per group).
    tiny = mean <= 1.0
    key = np.where(tiny, top, np.floor(2.0 * np.sqrt(mean)) + (top.max(initial=0.0) + 2.0))
    order = np.argsort(key.astype(np.int32), kind="stable")
    key, s, l, mean, bottom, top = (v[order] for v in (key, s, l, mean, bottom, top))
    bounds = np.flatnonzero(np.diff(key)) + 1
    starts, stops = np.minimum.reduceat(bottom, np.r_[0, bounds]), np.maximum.reduceat(top, np.r_[0, bounds])
    sums = np.empty((len(s), 3))
    centre = np.zeros(len(s))
    for first, last, x0, x1 in zip(np.r_[0, bounds], np.r_[bounds, len(s)], starts, stops):
        rows = slice(first, last)
        x = np.arange(x0, x1 + 1.0)
        if mean[first] <= 1.0:  # sum P(x) x log x, then minus mean log mean: both >= 0
            with np.errstate(divide="ignore", invalid="ignore"):
                columns = np.stack([np.ones_like(x), np.where(x > 0, x * np.log(x), 0.0)])
        else:  # bd0 about an integer near the group's means: all terms O(1)
            centre[rows] = middle = max(np.rint(0.5 * (mean[first] + mean[last - 1])), 1.0)
            columns = np.stack([np.ones_like(x), x - middle, deviance(x, middle, x - middle)])
        sums[rows, : len(columns)] = _normalized_sums(s[rows], l[rows], n, x0, columns)
    out = np.empty(len(s))
    tiny = mean <= 1.0
    with np.errstate(invalid="ignore"):
        out[tiny] = sums[tiny, 1] - mean[tiny] * np.log(mean[tiny])
        rest, mean, centre = ~tiny, mean[~tiny], centre[~tiny]
        delta = mean - centre
        out[rest] = (
            sums[rest, 2] - deviance(mean, centre, delta) + np.log(centre / mean) * (sums[rest, 1] - delta)
        )
    unsorted = np.empty_like(out)
    unsorted[order] = out
    return unsorted


def _normalized_sums(s, l, n, start, columns):  # noqa: ANN001, ANN202, E741
    """sum_x P(x) columns[:, x - start] for each pair: the pmf rows over the range of
    ``columns`` (each pair's window inside it) normalized by their sums, the mass
    outside a window being < 1e-20. inf or NaN where a row overflowed."""
    length = columns.shape[1]
    out = np.empty((len(s), len(columns)))
    rows_per_block = max(1, _CHUNK // length)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for first in range(0, len(s), rows_per_block):
            block = slice(first, first + rows_per_block)
            out[block] = (columns @ _pmf_ratios(s[block], l[block], n, start, length)).T
        out[:, 1:] /= out[:, :1]
    out[:, 0] = 1.0
    return out


def _pmf_ratios(s, l, n, start, length):  # noqa: ANN001, ANN202, E741
    """pmf(start + j) / pmf(start) for j < length (rows) and each pair (columns): products of
    h(y+1)/h(y) = (s - y)(l - y) / ((y + 1)(N - s - l + y + 1)). Past y = s the
    factor s - y makes them 0 (the support ends); N - s - l >= N/2 keeps every
    denominator positive."""
    rest = float(n + 1) - s - l
    if len(s) < _MANY_PAIRS:  # few long rows: numpy's cumulative product along them
        y = np.arange(start, start + length - 1, dtype=np.float64)[:, None]
        out = np.empty((length, len(s)))
        out[0] = 1.0
        out[1:] = (s - y) * (l - y) / ((y + 1.0) * (rest + y))
        return np.cumprod(out, axis=0, out=out)
    # Many short rows: one vector operation per step over all pairs, ~5x faster.
    out = np.empty((length, len(s)))
    out[0] = 1.0
    factor, scratch = np.empty(len(s)), np.empty(len(s))
    for j in range(1, length):
        y = float(start + j - 1)
        np.subtract(s, y, out=factor)
        np.subtract(l, y, out=scratch)
        factor *= scratch
        np.multiply(rest, y + 1.0, out=scratch)
        scratch += y * (y + 1.0)
        factor /= scratch
        np.multiply(out[j - 1], factor, out=out[j])
    return out


@lru_cache(maxsize=1)
def _halfwidth_grid() -> tuple[float, NDArray[np.float64]]:
    """tail_halfwidth on the variances 2^(k / _GRID_STEPS), k from -70 to 90 doublings."""
    exponents = np.arange(-70 * _GRID_STEPS, 90 * _GRID_STEPS + 1)
    return float(exponents[0]), tail_halfwidth(np.exp2(exponents / _GRID_STEPS))


def _window_halfwidth(var: NDArray[np.float64]) -> NDArray[np.float64]:
    """tail_halfwidth(v) at the grid variance just above each var: a valid (wider) window,
    as the half-width grows with the variance, for ~1/10 of the Newton solve's cost."""
    first, grid = _halfwidth_grid()
    with np.errstate(divide="ignore"):
        k = np.ceil(np.log2(var) * _GRID_STEPS) - first
    return grid[np.clip(k, 0, len(grid) - 1).astype(np.intp)]


# ---------------------------------------------------------------- general route


def _general_information(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """N I(a, b) by Loader's pmf at each mode and its ratio recurrence outwards."""
    mean = a * (b / n)
    half = tail_halfwidth(mean * (1.0 - b / n))
    lo = np.maximum(np.maximum(a + b - n, 0), np.floor(mean - half).astype(np.int64))
    hi = np.minimum(np.minimum(a, b), np.ceil(mean + half).astype(np.int64))
    mode = np.clip((a + 1) * (b + 1) // (n + 2), lo, hi)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    rest = float(n) - af - bf  # N - a - b

    def ratio_up(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        # h(x+1)/h(x) = (a-x)(b-x) / ((x+1)(N-a-b+x+1))
        ai, bi = af[i, None], bf[i, None]
        return (ai - x) * (bi - x) / ((x + 1.0) * (rest[i, None] + x + 1.0))

    def ratio_down(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        # h(x-1)/h(x) = x (N-a-b+x) / ((a-x+1)(b-x+1))
        return x * (rest[i, None] + x) / ((af[i, None] - x + 1.0) * (bf[i, None] - x + 1.0))

    def term(i: NDArray[np.intp], x: NDArray[np.int64]) -> NDArray[np.float64]:
        return _cell_deviance(x, a[i, None], b[i, None], n)

    at_mode = hypergeom_pmf(mode, n, a, b)
    return mode_recurrence_sums(mode, hi - mode, mode - lo, at_mode, ratio_up, ratio_down, term)


def _cell_deviance(
    x: NDArray[np.int64], a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """bd0(x, ab/N) with the exact difference x - ab/N = (xN - ab)/N."""
    d = (x * n - a * b) / float(n)
    return deviance(x, a * (b / n), d)
