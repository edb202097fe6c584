"""I(a, b) = E[bd0(X, ab/N)] / N for X ~ hypergeometric(N, a, b), for many size pairs at once.

This is the whole cost of the perm expected MI (one value per pair of distinct
cluster sizes: ~3.6e5 pairs for Zipf-like sizes with K = 1000 at N = 10^6, 10^6
at N >= 10^8). Its routes, switches and accuracies are those of docs/math.md#math-perm-groups
and #math-routes: the factorial-moment series of means <= 1 (``small_means``), the series in
1/mean from mean 100 (``deviance_series``), 2-D pmf blocks (``_MidBlocks``) and interpolated
tiles (``_smooth_block``) in ``information_sum``, the pmf of each group of nearby means carried
over one shared range, Loader's pmf at each pair's own mode for the rest
(``windows.mode_recurrence_sums``), and beyond N = INT64_EXACT_MAX_N (N**2 >= 2**63)
``_huge_pair_information`` (<= 7e-15 against the 50-digit references of
tests/_expected/test_size_pairs_huge.py, N = 1e9 .. 2**63 - 1).

Windows are Bennett's (``windows.tail_halfwidth``, mass < 1e-20 left out).
Accuracy: <= 2e-15 relative on every case of tests/_expected/test_size_pairs.py
(50-digit mpmath, N = 10 to 10^8; each recurrence step adds one rounding), and
<= 7e-16 on those of tests/_expected/test_deviance_series.py (means 60 to 10^6
around the series' switch points, N = 10^6 .. 2**63 - 1).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.deviance_series import series_expected_deviance, series_min_mean
from chanceclust._expected.elementary import unique
from chanceclust._expected.interpolation import integer_checks, integer_nodes, lagrange
from chanceclust._expected.pmfs import deviance, deviance_in_parts
from chanceclust._expected.small_means import (
    SMALL_MEAN,
    small_mean_block,
    small_mean_information,
    small_mean_order,
)
from chanceclust._expected.windows import hypergeometric_sums, mode_recurrence_sums, tail_halfwidth
from chanceclust.exceptions import InternalError

# Elements per block of pmf rows (2 MB): the rows are written step by step, then read by one
# matrix product, at ~4 ns a point while they stay in a core's cache, 2-3 times that beyond.
_CHUNK = 1 << 18
# The perm E[MI] over many size pairs (``information_sum``): rows per block, cells per 2-D
# block of small means (1 MB arrays, in cache), pairs gathered per call of pair_information.
_ROWS = 64
_TILE = 1 << 16
_PENDING = 1 << 17
_SERIES_PENDING = 1 << 19
# Cells of mean up to this go by 2-D blocks of the pmf (``_MidBlocks``), whose window
# starts at 0 (Bennett's half-width exceeds the mean up to ~100).
_MID_MEAN = 10.0
# Cells of the 2-D pmf blocks stepped together (``_MidBlocks``): their table of bd0 terms by
# x (<= ~56 values a cell) stays within ~8 MB.
_MID_CELLS = 1 << 14
# Up to this many cells x steps, ``_MidBlocks`` forms the ratios and terms of every step first
# (``_horner_few``): fewer numpy calls for small inputs; beyond, step by step (``_horner``).
# The two cost the same at ~16,000-25,000 cells x steps (one flush of the blocks of perm AMI
# inputs of N = 10^3 .. 10^4, 2 cores: 2-D 0.84 against 1.22 ms at 13,446, 1.87 against
# 1.19 ms at 27,160; session 15, #38).
_MID_STEP_CELLS = 1 << 14
# The 2-D pmf blocks (``_MidBlocks``) cost a fixed number of numpy calls per block and per
# flush (~1 ms), which the pair-by-pair route saves where the cells they would take are few: a
# sum of one law against one takes them only from this many cells of mean 1 .. _MID_MEAN
# (``_block_top``: a function of that pair of laws alone, so every entry point that computes
# the sum gives the same value); below, those cells go through ``pair_information``. The
# crossover, from both routes forced on the asv inputs (benchmarks/emi_block_switch.py, 2
# cores, load ~4): blocks 1.4-3.2x slower at 129-9,180 such cells, 1.6-2x faster from 10,741
# (benchmarks/RESULTS.md, "perm E[MI] of small inputs back to d8b6597's speed", #38).
_MID_MIN_CELLS = 10_000
_MANY_PAIRS = 512  # from this many pairs in a block, step over x with vector operations
# Up to this N the general route forms x N - a b in int64 (N**2 < 2**63); beyond, every pair
# goes through ``_huge_pair_information``, which forms no such product.
INT64_EXACT_MAX_N = 3_037_000_499
# Pairs of at least this mean ab/N take the series in 1/mean (``deviance_series``), at any N:
# above ~100 it costs less than the pmf over the window (~20 sqrt(mean) points), and it is
# accurate from series_min_mean() (~70) up.
_SERIES_MEAN = 100.0
# Tiles of gathered pairs (``_PairSums.add_pairs``) whose rectangle of cells all take the
# grouped pmf sums with means from _SMOOTH_MEAN up (``_smooth_rectangle``) and has at least
# _SMOOTH_CELLS cells are interpolated from rounded Chebyshev nodes (``_smooth_block``), where
# the interpolant meets the exact values at the check points within _SMOOTH_TOL relative.
_SMOOTH_MEAN = 10.0
_SMOOTH_CELLS = 4096
_SMOOTH_TOL = 4e-15
_SMOOTH_MAX_NODES = 24  # per side; a side needing more is not interpolated


def pair_information(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """I(a, b) = E[bd0(X, ab/N)] / N for X hypergeometric(N, a, b), for each pair (a, b) of sizes >= 0."""
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    mean = a * (b / float(n))
    series, ungrouped = _series_pairs(a, b, n, mean)
    if series.all():
        return series_expected_deviance(a, b, n) / n
    out = np.empty(len(a))
    if series.any():
        out[series] = series_expected_deviance(a[series], b[series], n) / n
    # The factorial-moment series (``small_means``) where s + l <= N/2: there the rounded mean
    # keeps -mu log mu accurate (a = 1, b = N - 1 gives mu = 1 - 1/N, rounded to 1).
    small = (mean <= SMALL_MEAN) & ~ungrouped
    if small.any():
        out[small] = small_mean_information(a[small], b[small], n) / n
    rest = ~series & ~small
    if rest.any():
        out[rest] = _summed_information(a[rest], b[rest], n)
    return out


def _series_pairs(a, b, n, mean):
    """(pairs taking the series in 1/mean, pairs with s + l > N/2)."""
    # From series_min_mean() up the series is also the more accurate (the general route's
    # pmf sums lose up to ~4e-15 at means ~70 .. 100): pairs that are not grouped take it.
    series = mean >= _SERIES_MEAN
    ungrouped = a > n // 2 - b  # s + l > N/2 without an int64 sum
    if ungrouped.any():
        series |= ungrouped & (mean >= series_min_mean())
    return series, ungrouped


def information_sum(
    sizes_a: NDArray[np.int64],
    weights_a: NDArray[np.float64],
    sizes_b: NDArray[np.int64],
    weights_b: NDArray[np.float64],
    n: int,
) -> float:
    """sum_{i,j} w_a[i] w_b[j] I(a_i, b_j) over distinct sorted sizes ``sizes_a``, ``sizes_b``:
    :func:`information_sums` of one law against one."""
    return information_sums(sizes_a, weights_a, [(sizes_b, weights_b)], n)[0]


def information_sums(
    sizes_a: NDArray[np.int64],
    weights_a: NDArray[np.float64],
    others: list[tuple[NDArray[np.int64], NDArray[np.float64]]],
    n: int,
) -> list[float]:
    """For each (sizes_b, weights_b) of ``others``: sum_{i,j} w_a[i] w_b[j] I(a_i, b_j), over
    distinct sorted sizes. Each value is the same float whatever the other laws of the call
    (one law's sum is the call with one law: ``information_sum``): every sum has its own
    blocks, gathered pairs and parts, in the order of a call of its own; the 2-D pmf blocks of
    all of them are stepped together (``_MidBlocks``, whose cells do not depend on the blocks
    they are stepped with), which is what many laws at once save.

    Each sum is streamed in blocks of bounded memory (no array over all size pairs): where the two
    sides share many sizes, over the distinct sizes of both with each unordered pair once
    (I(a, b) = I(b, a), weight w_a(a) w_b(b) + w_a(b) w_b(a)). Rows of sizes against columns:
    the cells of mean ab/N <= 1 (and a + b <= N/2) as 2-D blocks of the factorial-moment
    series (``small_means.small_mean_block``), of means 1 .. 10 as 2-D blocks of the pmf
    (``_MidBlocks``) where the sum has at least ``_MID_MIN_CELLS`` of them (``_block_top``, per
    law pair); the other pairs gathered and passed to
    :func:`pair_information` ``_PENDING`` at a time.
    """
    mid = _MidBlocks(n)
    sums = []
    for sizes_b, weights_b in others:
        one = _PairSums(n, mid)
        _add_sizes(one, sizes_a, weights_a, sizes_b, weights_b, n)
        one.flush_pairs()  # before the next law's: no more than one law's pairs held
        sums.append(one)
    mid.flush()
    return [one.total() for one in sums]


def _add_sizes(sums, sizes_a, weights_a, sizes_b, weights_b, n):
    """The cells of sizes_a against sizes_b into ``sums`` (a :class:`_PairSums`)."""
    sizes_a, sizes_b = np.asarray(sizes_a, np.int64), np.asarray(sizes_b, np.int64)
    weights_a, weights_b = np.asarray(weights_a, float), np.asarray(weights_b, float)
    if np.any(np.diff(sizes_a) <= 0) or np.any(np.diff(sizes_b) <= 0):
        raise InternalError("information_sum takes distinct sorted sizes")  # as laws hold them
    union = unique(np.concatenate([sizes_a, sizes_b]))
    folded = len(union) * (len(union) + 1) // 2 < len(sizes_a) * len(sizes_b)
    if folded:
        rows = columns = union
        row_a, row_b = np.zeros(len(union)), np.zeros(len(union))
        row_a[np.searchsorted(union, sizes_a)] = weights_a
        row_b[np.searchsorted(union, sizes_b)] = weights_b
        column_a, column_b = row_a, row_b
    else:
        rows, columns = sizes_a, sizes_b
        row_a, column_b = weights_a, weights_b
        row_b = column_a = None
    fraction = columns / float(n)
    width = _TILE // _ROWS
    top = _block_top(rows, columns, folded, n)
    sums.top = top
    for first in range(0, len(rows), _ROWS):
        last = min(first + _ROWS, len(rows))
        r = rows[first:last]
        start = first if folded else 0
        # Columns whose cells may be taken by 2-D blocks: mean <= top for the block's first
        # row (the means grow along rows and columns) and r + c <= N/2 for its last row.
        block_end = start + int(np.searchsorted(r[0] * fraction[start:], top, "right"))
        block_end = min(block_end, int(np.searchsorted(columns, n // 2 - r[-1], "right")))
        low = start
        while low < len(columns):
            if low < block_end:
                high = _chunk_end(columns, low, min(block_end, low + width), r[-1], n, top)
            else:
                high = min(low + width, len(columns))
            weights = _tile_weights(
                first, last, low, high, folded, row_a, row_b, column_a, column_b
            )
            if low < block_end:
                sums.add_block(r, columns[low:high], weights)
            else:
                sums.add_pairs(r, columns[low:high], weights)
            low = high


def _block_top(rows, columns, folded, n):
    """The largest mean of the cells the 2-D blocks take in the sum of sorted rows against sorted
    columns: _MID_MEAN where at least _MID_MIN_CELLS of its cells (on and above the diagonal
    where ``folded``) have a mean in (SMALL_MEAN, _MID_MEAN], else SMALL_MEAN."""
    with np.errstate(divide="ignore"):  # a size 0: every column
        per_mean = n / rows.astype(np.float64)
    below = np.arange(len(rows)) if folded else 0
    counts = [
        np.maximum(np.searchsorted(columns, mean * per_mean, "right") - below, 0).sum()
        for mean in (SMALL_MEAN, _MID_MEAN)
    ]
    return _MID_MEAN if int(counts[1] - counts[0]) >= _MID_MIN_CELLS else SMALL_MEAN


def _chunk_end(columns, low, end, largest_row, n, block_top):
    """The end of a block of columns from ``low`` (at most ``end``), within a factor 2^16 of the
    first (no overflow in ``small_mean_block``): where the sum takes pmf blocks (``block_top``
    _MID_MEAN), those of mean <= 1 for the largest row, or, past them, a band of columns within
    a factor 1 + 1/sqrt(mean) of the first, so that a centre per row stays within ~sqrt(mean) of
    the means of its cells (``_MidBlocks``); else every column up to ``end`` (one block: the
    cells of mean > 1 in it are gathered)."""
    c0 = float(columns[low])
    top = largest_row * (c0 / n)
    if block_top <= SMALL_MEAN:
        limit = c0 * 2.0**16
    elif top <= SMALL_MEAN:
        limit = min(c0 * 2.0**16, n / float(max(largest_row, 1)))
    else:
        limit = c0 * (1.0 + 1.0 / np.sqrt(min(top, _MID_MEAN)))
    return max(low + 1, min(end, int(np.searchsorted(columns, limit, "right"))))


def _tile_weights(first, last, low, high, folded, row_a, row_b, column_a, column_b):
    """The pair weights of rows first:last against columns low:high (0 below the diagonal when
    folded, halved on it: each unordered pair once)."""
    weights = np.multiply.outer(row_a[first:last], column_b[low:high])
    if not folded:
        return weights
    weights += np.multiply.outer(row_b[first:last], column_a[low:high])
    i = np.arange(first, last)[:, None]
    j = np.arange(low, high)[None, :]
    if low < last:  # the block meets the diagonal
        weights[i > j] = 0.0
        weights[i == j] *= 0.5
    return weights


class _PairSums:
    """The running sum of w I(a, b), from 2-D blocks of small means and gathered pairs."""

    def __init__(self, n: int, mid: _MidBlocks) -> None:
        self.n = n
        # The terms of the sum in the order they arise, added in that order by total(): the
        # pmf-block parts are filled in later (by ``mid``, a :class:`_MidBlocks` that other sums
        # may share), with the same value and place.
        self.parts: list[float] = []
        self.mid = mid
        self.pending: dict[str, list[tuple[NDArray, NDArray, NDArray]]] = {"series": [], "sums": []}
        self.count = {"series": 0, "sums": 0}
        self.top = _MID_MEAN  # the largest mean of the block cells (``_block_top``)

    def add_block(self, r, c, weights):
        """Rows r against columns c (r + c <= N/2 for every cell): cells of mean <= 1 by the
        factorial-moment series, of mean <= _MID_MEAN near their row's centre by
        :class:`_MidBlocks`, the others gathered."""
        n = self.n
        mean = np.multiply.outer(r, c / float(n))
        small = mean <= SMALL_MEAN
        centre = np.maximum(np.rint(r * (np.sqrt(float(c[0]) * float(c[-1])) / n)), 1.0)
        mid = (
            ~small
            & (mean <= self.top)
            & (np.square(mean - centre[:, None]) <= 1.5 * centre[:, None])
        )
        rest = ~small & ~mid & (weights != 0)
        if rest.any():
            i, j = np.nonzero(rest)
            self._gather(r[i], c[j], weights[i, j])
        total = 0.0
        if small.any():
            largest = float(np.max(mean, where=small, initial=0.0))
            values = small_mean_block(r, c, n, small_mean_order(largest))
            total += float(np.sum(np.where(small, values, 0.0) * weights))
        if mid.any():
            i, j = (np.flatnonzero(mid.any(axis=axis)) for axis in (1, 0))
            cells = (slice(i[0], i[-1] + 1), slice(j[0], j[-1] + 1))
            top = float(np.max(mean[cells], where=mid[cells], initial=0.0))
            self.mid.add(
                self.parts,
                r[cells[0]],
                c[cells[1]],
                centre[cells[0]],
                mean[cells],
                top,
                mid[cells],
                weights[cells],
                total,
            )
        else:
            self.parts.append(total / n)

    def add_pairs(self, r, c, weights):
        """Every pair of rows r and columns c of nonzero weight: a rectangle of them by
        :func:`_smooth_block` where it applies, the others gathered for pair_information."""
        rectangle = _smooth_rectangle(r, c, self.n)
        if rectangle is not None:
            rows, columns = rectangle
            values = _smooth_block(r[rows], c[columns], self.n)
            if values is not None:
                self.parts.append(float(np.sum(values * weights[rows, columns])))
                weights = weights.copy()
                weights[rows, columns] = 0.0
        if weights.all():  # no selection: the block as it is
            self._gather(np.repeat(r, len(c)), np.tile(c, len(r)), weights.ravel())
            return
        i, j = np.nonzero(weights)
        self._gather(r[i], c[j], weights[i, j])

    def _gather(self, a, b, w):
        """Pairs for the series in 1/mean (their memory is bounded by the series' own blocks:
        gathered _SERIES_PENDING at a time, few calls) and for the other routes."""
        if len(a) == 0:
            return
        series = _series_pairs(a, b, self.n, a * (b / float(self.n)))[0]
        for name, keep in (("series", series), ("sums", ~series)):
            if keep.all():
                self._add(name, a, b, w)
            elif keep.any():
                self._add(name, a[keep], b[keep], w[keep])

    def _add(self, name, a, b, w):
        pending = self.pending[name]
        pending.append((a, b, w))
        self.count[name] += len(a)
        if self.count[name] >= (_SERIES_PENDING if name == "series" else _PENDING):
            self._flush(name)

    def _flush(self, name):
        pending = self.pending[name]
        if not pending:
            return
        a, b, w = (np.concatenate(parts) for parts in zip(*pending, strict=True))
        self.pending[name], self.count[name] = [], 0
        self.parts.append(float(w @ pair_information(a, b, self.n)))

    def flush_pairs(self) -> None:
        """The gathered pairs' parts (after every block of this sum was added)."""
        self._flush("series")
        self._flush("sums")

    def total(self) -> float:
        """The sum of the parts (after :meth:`flush_pairs` and the flush of ``mid``)."""
        total = 0.0
        for part in self.parts:  # one by one, in order: the sum of the block-by-block code
            total += part
        return total


def _smooth_rectangle(r, c, n):
    """(row slice, column slice) of the largest simple rectangle of rows r against columns c
    (both sorted) whose cells all take the grouped pmf sums (:func:`_summed_information`) with
    means _SMOOTH_MEAN <= ab/N < _SERIES_MEAN, s + l <= N/2, if it has _SMOOTH_CELLS cells;
    else None. The means and s + l grow along rows and columns, so the cells that qualify
    form a band: the rows of at least half the widest row's cells, over their common columns."""
    if len(r) * len(c) < _SMOOTH_CELLS:
        return None
    fraction = c / float(n)
    # The corners first (the means grow along rows and columns): most tiles stop here.
    if r[-1] * fraction[-1] < _SMOOTH_MEAN or r[0] * fraction[0] >= _SERIES_MEAN:
        return None
    if r[0] > n // 2 - c[0]:
        return None
    mean = np.multiply.outer(r, fraction)
    grouped = r[:, None] <= n // 2 - c[None, :]  # s + l <= N/2 without an int64 sum
    ok = (mean >= _SMOOTH_MEAN) & (mean < _SERIES_MEAN) & grouped
    count = ok.sum(axis=1)
    rows = np.flatnonzero(2 * count >= max(int(count.max()), 1))
    if len(rows) == 0:
        return None
    first, last = int(rows[0]), int(rows[-1]) + 1
    low = int(ok[first:last].argmax(axis=1).max())
    high = len(c) - int(ok[first:last, ::-1].argmax(axis=1).max())
    if (last - first) * (high - low) < _SMOOTH_CELLS or not ok[first:last, low:high].all():
        return None
    return slice(first, last), slice(low, high)


def _smooth_nodes(sizes):
    """Rounded Chebyshev-Lobatto nodes over the sorted sizes' range for the interpolation of
    :func:`_smooth_block` (every size where there are not more sizes than nodes), and its check
    points; None where a side needs more than _SMOOTH_MAX_NODES.

    I(a, b) extends to an analytic function of a (and of b) whose nearest singularity is at
    a = 0 (the means ab/N; the pmf's terms in N - a - b stay away from 0 where a + b <= N/2):
    over [lo, hi] the interpolant at k Chebyshev points then errs by ~rho^-k,
    rho = q + sqrt(q^2 - 1), q = (hi + lo)/(hi - lo): k is taken for rho^-k <= 1e-17, + 2."""
    lo, hi = int(sizes[0]), int(sizes[-1])
    if hi == lo:
        return np.array([lo]), np.array([lo])
    q = (hi + lo) / (hi - lo)
    count = int(np.ceil(17.0 * np.log(10.0) / np.log(q + np.sqrt(q * q - 1.0)))) + 2
    if count > _SMOOTH_MAX_NODES:
        return None
    if count >= hi - lo + 1:
        everything = np.arange(lo, hi + 1)
        return everything, everything[:1]  # exact on this side: one check, on a node
    nodes = integer_nodes(lo, hi, count)
    if np.any(np.diff(nodes) <= 0):
        return None
    return nodes, integer_checks(lo, hi, count, mirrored=True)


def _smooth_block(r, c, n):
    """I(a, b) for rows r against columns c (a rectangle of :func:`_smooth_rectangle`) by
    tensor-product polynomial interpolation in (a, b) from the exact values
    (:func:`pair_information`) at rounded Chebyshev nodes; None where a side needs too many
    nodes, the nodes and checks cost more than 1/16 of the cells, or the interpolant misses
    the exact values at the check points (6 a side, between the nodes) by more than
    _SMOOTH_TOL of the largest node value."""
    sides = _smooth_nodes(r), _smooth_nodes(c)
    if sides[0] is None or sides[1] is None:
        return None
    nodes = len(sides[0][0]) * len(sides[1][0]) + len(sides[0][1]) * len(sides[1][1])
    if 16 * nodes > len(r) * len(c):
        return None
    return _interpolated(r, c, n, sides)


def _interpolated(r, c, n, sides):
    """The interpolant of :func:`_smooth_block` through the nodes and checks ``sides`` (of
    :func:`_smooth_nodes`) at rows r against columns c, or None where it misses a check."""
    (row_nodes, row_checks), (column_nodes, column_checks) = sides
    a = np.r_[np.repeat(row_nodes, len(column_nodes)), np.repeat(row_checks, len(column_checks))]
    b = np.r_[np.tile(column_nodes, len(row_nodes)), np.tile(column_checks, len(row_checks))]
    exact = pair_information(a, b, n)
    split = len(row_nodes) * len(column_nodes)
    at_nodes = exact[:split].reshape(len(row_nodes), len(column_nodes))
    at_checks = exact[split:].reshape(len(row_checks), len(column_checks))
    row_basis, column_basis = lagrange(row_nodes, r).T, lagrange(column_nodes, c).T
    guess = lagrange(row_nodes, row_checks) @ at_nodes @ lagrange(column_nodes, column_checks).T
    if np.abs(guess - at_checks).max() > _SMOOTH_TOL * np.abs(at_nodes).max():
        return None
    return row_basis.T @ at_nodes @ column_basis


def _summed_information(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """I(a, b) by sums of the pmf over its window (any mean; the means below _SERIES_MEAN)."""
    if n > INT64_EXACT_MAX_N:
        return _huge_pair_information(a, b, n)
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


class _MidBlocks:
    """The 2-D pmf blocks of one sum (``_PairSums.add_block``): E[bd0(X, mu)] for rows s
    (centres ``centre``) against columns l, mu = s l / N <= ``top``, s + l <= N/2, for the
    block's cells ``mid`` (the callers' condition (mu - m)^2 <= 1.5 m). The pmf is summed from
    x = 0 by Horner's rule over its ratios h(x+1)/h(x) = (s - x)(l - x) / ((x + 1)(N - s - l +
    x + 1)) from the block's window end (Bennett's, at ``top``), normalized by its own sum (no
    pmf anchor; mass < 1e-20 beyond, variance <= mean), for bd0(x, m) with the row's integer
    centre m; then E[bd0(X, mu)] = E[bd0(X, m)] - bd0(mu, m) (E[X] = mu): terms O(1).

    The blocks are gathered and their cells stepped together (one vector operation a step
    over the cells of all of them, each cell from its own block's window end), every cell by
    the same operations as block by block, so the values are the same to the bit; each
    block's part sum(w E[bd0]) / N goes to its place in its sum's ``parts`` (the blocks of
    several sums may be stepped together: ``information_sums``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.blocks: list[tuple] = []
        self.cells = 0

    def add(self, parts, s, l, centre, mean, top, mid, weights, total):
        """A block, whose part in ``parts`` is ``total`` + its pmf sums (filled in by
        :meth:`flush`)."""
        parts.append(total)
        self.blocks.append((s, l, centre, mean, top, mid, weights, (parts, len(parts) - 1)))
        self.cells += np.count_nonzero(mid)
        if self.cells >= _MID_CELLS:
            self.flush()

    def flush(self):
        """Every gathered block's part, its cells stepped together from the longest window."""
        if not self.blocks:
            return
        blocks, self.blocks, self.cells = self.blocks, [], 0
        n = self.n
        tops = np.array([block[4] for block in blocks])
        ends = np.ceil(tops + tail_halfwidth(tops)).astype(np.int64)
        ends = np.minimum(ends, [max(int(block[0].max()), 1) for block in blocks])
        # bd0(x, m) for x = 0 .. the block's end, for each row's centre m: row after row.
        rows = np.array([len(block[2]) for block in blocks])
        centre = np.concatenate([block[2] for block in blocks])
        width = np.repeat(ends + 1, rows)
        firsts = np.cumsum(rows * (ends + 1)) - rows * (ends + 1)
        x = np.arange(width.sum()) - np.repeat(np.cumsum(width) - width, width)
        terms = _deviance_in_blocks(x.astype(np.float64), np.repeat(centre, width), firsts)
        steps = int(ends.max()) + 1
        # by_row[x, r]: bd0(x, m) of row r (the blocks' rows one after the other), x <= its end.
        at = np.add.outer(np.arange(steps), np.cumsum(width) - width)
        by_row = terms[np.minimum(at, len(terms) - 1, out=at)]
        # (s - k) / (k + 1) for each row's size s and step k.
        k = np.arange(steps, dtype=np.float64)[:, None]
        row_factors = (np.concatenate([block[0] for block in blocks]) - k) / (k + 1.0)
        cells = [np.nonzero(block[5]) for block in blocks]
        end = np.repeat(ends, [len(i) for i, _ in cells])
        order = np.argsort(-end, kind="stable")  # the longest first: steps over a prefix
        first_rows = np.cumsum(rows) - rows
        row = np.concatenate([first + i for first, (i, _) in zip(first_rows, cells, strict=True)])
        sf = np.concatenate([block[0][i] for block, (i, _) in zip(blocks, cells, strict=True)])
        lf = np.concatenate([block[1][j] for block, (_, j) in zip(blocks, cells, strict=True)])
        sf, lf = sf.astype(np.float64)[order], lf.astype(np.float64)[order]
        end, row = end[order], row[order]
        rest = (float(n) + 1.0) - (sf + lf)  # N - s - l + 1 >= N/2 + 1
        sums = np.empty((2, len(sf)))  # E[bd0(X, m)] and the mass, unnormalized
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if steps * len(sf) <= _MID_STEP_CELLS:
                _horner_few(sums, steps, end, row_factors, by_row, row, lf, rest)
            else:
                _horner(sums, steps, end, row_factors, by_row, row, lf, rest)
        # E[bd0(X, m)] - bd0(mu, m) on every block's cells, row after row, then each part.
        mean = np.concatenate([block[3].ravel() for block in blocks])
        width = np.array([block[3].shape[1] for block in blocks])
        firsts = np.cumsum(rows * width) - rows * width
        at_mean = _deviance_in_blocks(mean, np.repeat(centre, np.repeat(width, rows)), firsts)
        values = np.zeros(len(at_mean))
        place = np.concatenate(
            [
                first + i * block[5].shape[1] + j
                for first, block, (i, j) in zip(firsts, blocks, cells, strict=True)
            ]
        )
        values[place[order]] = sums[0] / sums[1]
        values -= at_mean
        mid = np.concatenate([block[5].ravel() for block in blocks])
        weights = np.concatenate([block[6].ravel() for block in blocks])
        values = np.where(mid, values, 0.0)
        values *= weights
        for block, first in zip(blocks, firsts, strict=True):
            shape, (parts, part) = block[5].shape, block[7]
            total = parts[part]
            total += float(np.sum(values[first : first + shape[0] * shape[1]].reshape(shape)))
            parts[part] = total / n


def _horner(sums, steps, end, row_factors, by_row, row, lf, rest):
    """The Horner steps of ``_MidBlocks.flush`` (cells sorted by their window's ``end``, the
    longest first) from the longest window down, one vector operation a step over the cells
    still stepping (a prefix)."""
    active = np.searchsorted(-end, -np.arange(steps), "left")  # the cells whose end is > k
    starting = np.searchsorted(-end, -np.arange(steps), "right")  # ... >= k
    ratio, other = np.empty(len(lf)), np.empty(len(lf))
    for k in range(steps - 1, -1, -1):
        m, new = int(active[k]), int(starting[k])
        if new > m:  # the cells whose window ends at k
            by_row[k].take(row[m:new], out=sums[0, m:new], mode="clip")
            sums[1, m:new] = 1.0
        if not m:
            continue
        row_factors[k].take(row[:m], out=ratio[:m], mode="clip")
        np.subtract(lf[:m], k, out=other[:m])
        ratio[:m] *= other[:m]
        np.add(rest[:m], float(k), out=other[:m])
        ratio[:m] /= other[:m]
        sums[:, :m] *= ratio[:m]
        by_row[k].take(row[:m], out=other[:m], mode="clip")
        sums[0, :m] += other[:m]
        sums[1, :m] += 1.0


def _horner_few(sums, steps, end, row_factors, by_row, row, lf, rest):
    """:func:`_horner` for few cells and steps (small inputs, where numpy's cost per call is
    most of it): every step's ratios and terms first, as 2-D arrays (each element by the same
    operations), then two operations a step over all the cells, the terms of a cell 0 above its
    window's end (so its sums stay 0 until its end: 0 ratio + term is the term itself, every
    ratio being finite). The same bits."""
    k = np.arange(float(steps))[:, None]
    ratio = np.empty((steps, 2, len(lf)))  # each step's ratio, for both sums
    row_factors.take(row, axis=1, out=ratio[:, 0], mode="clip")
    ratio[:, 0] *= lf - k
    ratio[:, 0] /= rest + k
    ratio[:, 1] = ratio[:, 0]
    terms = np.ones((steps, 2, len(lf)))  # bd0(x, m) to the first sum, 1 to the mass
    by_row.take(row, axis=1, out=terms[:, 0], mode="clip")
    np.copyto(terms, 0.0, where=(k > end)[:, None, :])  # 0 above each cell's end
    # Flat rows (no broadcasting a step), made once: numpy's cost per call is the cost here.
    flat = sums.reshape(-1)
    flat.fill(0.0)
    multiply, add = np.multiply, np.add
    for step_ratio, step_terms in zip(
        list(ratio.reshape(steps, -1)[::-1]), list(terms.reshape(steps, -1)[::-1]), strict=True
    ):
        multiply(flat, step_ratio, out=flat)
        add(flat, step_terms, out=flat)


def _deviance_in_blocks(x, m, firsts):
    """bd0(x, m) (d = x - m) of blocks raveled one after the other, starting at ``firsts``, as
    one call of ``pmfs.deviance`` per block would give it (``pmfs.deviance_in_parts``)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return deviance_in_parts(x, m, x - m, firsts)


# ---------------------------------------------------------------- grouped route


def _grouped_information(
    s: NDArray[np.float64], l: NDArray[np.float64], n: int
) -> NDArray[np.float64]:
    """N I(s, l) for s <= l, s + l <= N/2, by groups of nearby means; NaN where a pmf overflowed."""
    if len(s) == 0:
        return np.empty(0)
    mean = s * (l / n)
    # Pairs with mean <= 1 are grouped by their window's end (or the support's, if sooner),
    # so none is padded; the others by 2 sqrt(mean), which grows by 1 per sqrt(mean).
    tops = _tiny_window_tops()
    first_key = len(tops)
    key = np.where(
        mean <= 1.0,
        np.minimum(_tiny_window_top(mean, tops), s),
        first_key + np.floor(2.0 * np.sqrt(mean)),
    )
    order = np.argsort(key.astype(np.int16 if key.max() < 2**15 else np.int64), kind="stable")
    key, s, l = key[order], s[order], l[order]
    mean = s * (l / n)
    bounds = np.r_[0, np.flatnonzero(np.diff(key)) + 1, len(s)]
    n_tiny = int(np.searchsorted(key, first_key))  # the tiny pairs come first
    sums = np.empty((len(s), 3))
    centres = np.zeros(len(s))
    for first, last, start, columns, centre in _group_columns(key, mean, bounds, n_tiny):
        sums[first:last, : len(columns)] = _normalized_sums(
            s[first:last], l[first:last], n, start, columns
        )
        centres[first:last] = centre
    out = np.empty(len(s))
    with np.errstate(invalid="ignore", divide="ignore"):  # a size 0 gives NaN: general route
        tiny_mean = mean[:n_tiny]
        out[:n_tiny] = sums[:n_tiny, 1] - tiny_mean * np.log(tiny_mean)  # both terms >= 0
        mean, centre, sums = mean[n_tiny:], centres[n_tiny:], sums[n_tiny:]
        delta = mean - centre
        out[n_tiny:] = (
            sums[:, 2]
            - deviance(mean, centre, delta)
            + np.log(centre / mean) * (sums[:, 1] - delta)
        )
    unsorted = np.empty_like(out)
    unsorted[order] = out
    return unsorted


def _group_columns(key, mean, bounds, n_tiny):
    """(first row, last row, start x, columns, centre) for each group of sorted pairs.

    Tiny groups: x = 0..key, columns 1 and x log x. The others: var(X) <= mean for
    s >= 1 and the Bennett half-width t grows with the variance, so the range
    [min mean - t(max mean), max mean + t(max mean)] holds each pair's window;
    columns 1, x - c and bd0(x, c) for an integer c near the group's means.
    """
    firsts, lasts = bounds[:-1], bounds[1:]
    tiny = firsts < n_tiny
    top = int(key[n_tiny - 1]) if n_tiny else 0
    x = np.arange(top + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_log_x = np.where(x > 0, x * np.log(x), 0.0)
    for first, last in zip(firsts[tiny], lasts[tiny], strict=True):
        length = int(key[first]) + 1
        yield first, last, 0.0, np.stack([np.ones(length), x_log_x[:length]]), 0.0
    firsts, lasts = firsts[~tiny], lasts[~tiny]
    if len(firsts) == 0:
        return
    low, high = (
        np.minimum.reduceat(mean[n_tiny:], firsts - n_tiny),
        np.maximum.reduceat(mean[n_tiny:], firsts - n_tiny),
    )
    half = tail_halfwidth(high)
    starts = np.maximum(np.floor(low - half), 0.0)
    lengths = (np.ceil(high + half) - starts + 1).astype(np.int64)
    centres = np.maximum(np.rint(0.5 * (low + high)), 1.0)
    # Every group's x and bd0(x, c) in one call: offsets from each start, then cut.
    ends = np.cumsum(lengths)
    step = np.arange(ends[-1]) - np.repeat(ends - lengths, lengths)
    x = np.repeat(starts, lengths) + step
    centre = np.repeat(centres, lengths)
    table = np.stack([np.ones_like(x), x - centre, deviance(x, centre, x - centre)])
    for i, (first, last) in enumerate(zip(firsts, lasts, strict=True)):
        yield first, last, starts[i], table[:, ends[i] - lengths[i] : ends[i]], centres[i]


def _normalized_sums(s, l, n, start, columns):
    """sum_x P(x) columns[:, x - start] for each pair: the pmf rows over the range of
    ``columns`` (each pair's window inside it) normalized by their sums, the mass
    outside a window being < 1e-20. inf or NaN where a row overflowed."""
    length = columns.shape[1]
    out = np.empty((len(s), len(columns)))
    rows_per_block = max(1, _CHUNK // length)
    blocks = -(-len(s) // rows_per_block)
    rows_per_block = -(-len(s) // blocks)  # blocks of equal size: no short last one
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for first in range(0, len(s), rows_per_block):
            block = slice(first, first + rows_per_block)
            out[block] = (columns @ _pmf_ratios(s[block], l[block], n, start, length)).T
        out[:, 1:] /= out[:, :1]
    out[:, 0] = 1.0
    return out


def _pmf_ratios(s, l, n, start, length):
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
def _tiny_window_tops() -> NDArray[np.float64]:
    """Window ends ceil(m + t(m)) at the means m = 2^e (1 + (j+1)/4), e = -64..-1, j = 0..3:
    the upper ends of the quarter-octave cells of the means 2^-64 <= m < 1 (means are >= 1/N;
    t: ``tail_halfwidth`` with the variance bound var <= mean, valid and wider)."""
    cell = np.arange(4 * 64)  # cell 4 (e + 64) + j
    upper = np.exp2(cell // 4 - 64.0) * (1.0 + (cell % 4 + 1) / 4.0)
    return np.ceil(upper + tail_halfwidth(upper))


def _tiny_window_top(mean: NDArray[np.float64], tops: NDArray[np.float64]) -> NDArray[np.float64]:
    """The window end of each mean <= 1 from its quarter-octave cell (exponent and the first two
    mantissa bits of the float64, read off its bits: no logarithm); other means give junk."""
    cell = (mean.view(np.int64) >> 50) - 4 * (1023 - 64)
    return tops[np.clip(cell, 0, len(tops) - 1)]


# ---------------------------------------------------------------- general route


def _general_information(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """N I(a, b) by Loader's pmf at each mode and its ratio recurrence outwards."""
    return hypergeometric_sums(a, b, n, lambda i, x: _cell_deviance(x, a[i, None], b[i, None], n))


def _cell_deviance(
    x: NDArray[np.int64], a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """bd0(x, ab/N) with the exact difference x - ab/N = (xN - ab)/N."""
    d = (x * n - a * b) / float(n)
    return deviance(x, a * (b / n), d)


# ---------------------------------------------------------------- N beyond int64 products


def _huge_pair_information(
    a: NDArray[np.int64], b: NDArray[np.int64], n: int
) -> NDArray[np.float64]:
    """I(a, b) for N > INT64_EXACT_MAX_N (up to 2**63 - 1), with no int64 product.

    The grouped route where s + l <= N/2 (it works in float64 throughout, and
    there the values of X are below ~2**19), else :func:`_folded_information`.
    """
    out = np.full(len(a), np.nan)
    small = np.minimum(a, b).astype(np.float64)
    large = np.maximum(a, b).astype(np.float64)
    grouped = 2.0 * (small + large) <= n
    out[grouped] = _grouped_information(small[grouped], large[grouped], n)
    rest = ~np.isfinite(out)  # not grouped, or a pmf row overflowed
    out[rest] = _folded_information(a[rest], b[rest], n)
    return out / n


def _variance_factor(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """Var X / E X = (N - a)(N - b) / (N (N - 1)), from the exact int64 differences N - a, N - b."""
    return ((n - a) / float(n)) * ((n - b) / float(n - 1))


def _folded_information(a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray[np.float64]:
    """N I(a, b) for small Var X at any N < 2**63, through the 2x2 table's smallest-margin cell.

    The four cells X, a - X, b - X, N - a - b + X all deviate from their means by
    +-d, d = X - ab/N. With a' = min(a, N - a), b' = min(b, N - b), the cell
    Y ~ hypergeometric(N, a', b') has mean a'b'/N <= 4 Var X (a', b' <= N/2), so
    d = +-(Y - a'b'/N) and X = offset +- Y (exact in int64) come from small floats.
    The pmf of Y is carried from its mode by its ratios (``windows.mode_recurrence_sums``)
    and normalized by its sum over the Bennett window (mass outside < 1e-20): no pmf
    anchor and no int64 product. The rounding of a'b'/N only shifts x by
    delta ~ eps mu(Y), changing E[bd0] by ~delta^2 / mu: nothing.
    """
    flip_a, flip_b = a > n - a, b > n - b
    a2, b2 = np.where(flip_a, n - a, a), np.where(flip_b, n - b, b)
    sign = np.where(flip_a == flip_b, 1, -1)
    # X = offset + sign Y: Y itself, b - Y, a - Y or Y - (N - a - b).
    offset = np.select(
        [~flip_a & ~flip_b, flip_a & ~flip_b, ~flip_a & flip_b], [0, b, a], a - (n - b)
    )
    af2, bf2 = a2.astype(np.float64), b2.astype(np.float64)
    mean2 = af2 * (bf2 / n)
    mean = a * (b / n)
    half = tail_halfwidth(mean2 * _variance_factor(a2, b2, n))
    lo = np.maximum(np.floor(mean2 - half), 0.0).astype(np.int64)  # a' + b' <= N
    hi = np.minimum(np.minimum(a2, b2), np.ceil(mean2 + half).astype(np.int64))
    mode = np.clip(np.floor((af2 + 1.0) * ((bf2 + 1.0) / (n + 2.0))).astype(np.int64), lo, hi)
    rest = (n - a2 - b2).astype(np.float64)  # N - a' - b' >= 0

    def ratio_up(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return (af2[i, None] - x) * (bf2[i, None] - x) / ((x + 1.0) * (rest[i, None] + x + 1.0))

    def ratio_down(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return x * (rest[i, None] + x) / ((af2[i, None] - x + 1.0) * (bf2[i, None] - x + 1.0))

    def term(i: NDArray[np.intp], y: NDArray[np.int64]) -> NDArray[np.float64]:
        d = sign[i, None] * (y - mean2[i, None])
        x = offset[i, None] + sign[i, None] * y
        return deviance(x, mean[i, None], d)

    def one(i: NDArray[np.intp], y: NDArray[np.int64]) -> NDArray[np.float64]:
        return np.ones(y.shape)

    ones = np.ones(len(a))
    args = (mode, hi - mode, mode - lo, ones, ratio_up, ratio_down)
    return mode_recurrence_sums(*args, term) / mode_recurrence_sums(*args, one)
