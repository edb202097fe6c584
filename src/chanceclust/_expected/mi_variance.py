"""The exact variance of the mutual information of two random clusterings (docs/math.md#math-mi-variance).

T = N MI is summed as sum_ij bd0(n_ij, a_i b_j / N), cell terms >= 0 of order 1 (never as
E[T^2] - E[T]^2, which would lose ~20 digits). Given both size sequences (perm) Var T is a sum
of covariances of two cells by what they share (the cell, the row, the column, nothing);
random sides (num, all) enter through their size moments (:class:`SizeMoments`), with
Var T = E[Var(T | sizes)] + Var(E[T | sizes]) (:func:`_between_variance`). The same-cell sum
is summed directly, the pairs of distinct cells by their Lancaster expansion (:mod:`lancaster`,
docs/math.md#math-mi-lancaster; :func:`_lancaster_pairs`) until a Parseval bound of the rest
is below LANCASTER_TOL of it, else by the double sums over two windows (:func:`_pair_route`),
interpolated from Chebyshev nodes on windows of >= SMOOTH_MIN points, with a check
(:func:`conditional_rows`).

The random sides' size moments (W, W2) are exact integers over Stirling or Bell numbers,
summed over every size 1..N: the cost grows like N^3 windows, so this route is used for N up to
:data:`MAX_RANDOM_N`; beyond, a random side that is a mixture of i.i.d. labelings goes through
:mod:`mi_variance_slots`, and num with small clusters (a size law, which has no slot form)
stays on this route up to :data:`MAX_SIZE_LAW_N` and is refused beyond.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.interpolation import (
    barycentric,
    chebyshev,
)
from chanceclust._expected.lancaster import correlation_factors, hahn_coefficients
from chanceclust._expected.laws import SizeLaw
from chanceclust._expected.pmfs import deviance, hypergeom_pmf
from chanceclust._expected.windows import tail_halfwidth
from chanceclust.exceptions import InternalError

__all__ = [
    "MAX_RANDOM_N", "MAX_SIZE_LAW_N", "SLOT_TWO_SIDED_N", "SizeMoments", "fixed_moments",
    "grid_points", "pair_points", "random_moments", "total_variance",
]

#: Largest N for which a random side that is a mixture of i.i.d. labelings is summed over
#: all its cluster sizes (beyond, :mod:`mi_variance_slots`, exact too and faster from here:
#: two-sided about 0.3 s against 0.2 s at N = 30, 0.6 s against 3 s at N = 60 under all).
MAX_RANDOM_N = 30
#: The same switch with two random sides (both slot mixtures): the sums over sizes cost
#: ~N^3 w^2 (0.1 s at N = 20, 3.6 s at N = 60), the slot sums < 0.1 s.
SLOT_TWO_SIDED_N = 20
#: Largest N for a random side that is only a size law (num with small clusters), with the
#: other side fixed / random: the sums over sizes cost ~ N^3 w^2 with both sides random
#: (about 1 s at N = 60, 5 s at N = 100 here) and far less with one (about 5 s at N = 1000).
MAX_SIZE_LAW_N = (1000, 100)

# 1 / (the expected count below which a size is dropped: 1e-30).
_NEGLIGIBLE_INVERSE = 10**30

# Elements per pmf grid evaluated at once (memory ~ 10 arrays of this many float64).
_GRID = 1 << 21
# Window lengths below which blocks are not split by length.
_SHORT = 32


@dataclass(frozen=True)
class SizeMoments:
    """Moments of the counts n_a of clusters of each size a of one side.

    ``once[i]`` = E[n_a], ``pairs[i, j]`` = E[#ordered pairs of distinct clusters of sizes
    (a_i, a_j)], ``spread[i, j]`` = Cov(n_{a_i}, n_{a_j}) (None: a fixed side, Cov = 0);
    ``linear`` names the functions of a that the covariance annihilates ("1a" under num,
    "a" under all).
    """

    n: int
    sizes: NDArray[np.int64]
    once: NDArray[np.float64]
    pairs: NDArray[np.float64]
    spread: NDArray[np.float64] | None
    linear: str = ""


def _fixed_moments(law: SizeLaw) -> SizeMoments:
    counts = np.asarray(law.weights, dtype=np.float64)
    pairs = np.outer(counts, counts) - np.diag(counts)
    return SizeMoments(law.n, np.asarray(law.sizes, dtype=np.int64), counts, pairs, None)


def fixed_moments(law: SizeLaw) -> SizeMoments:
    """The size moments of a side whose sizes are fixed (a perm side, or the reference)."""
    return _fixed_moments(law)


def random_moments(
    n: int, total: int, rest: Callable[[int, int], int], linear: str
) -> SizeMoments:
    """Exact W, W2 and Cov of a uniform clustering of n elements.

    ``total`` is the number of clusterings of the ensemble (S(n, K) under num, B_n under
    all) and ``rest(m, used)`` the number of clusterings of the other m elements once
    ``used`` clusters are taken (S(m, K - used), or B_m); ``linear`` names the trend that the
    size covariance annihilates ("1a": constants and sizes, under num; "a": sizes, under
    all). The caller supplies the exact counts (:mod:`chanceclust.special`), so this engine
    module imports nothing above it.
    """
    one = [rest(m, 1) for m in range(n + 1)]  # clusterings of the other m elements
    two = [rest(m, 2) for m in range(n + 1)]
    # Exact integer numerators over the common denominator ``total`` (``total``^2 for the
    # covariances), each rounded once by int / int: correctly rounded, so the same float as
    # the reduced Fraction's, without its gcds of ~total-sized integers (issue #38).
    binom = _binomial_row(n, n)  # C(n, a)
    # Sizes expected fewer than 1e-30 times are dropped: each enters Var[N MI] through
    # terms bounded by its expected count times N^2 log^2 N K_A K_B (< 1e-18 here). A
    # size whose factors' bit lengths already put C(n, a) rest(n - a, 1) 10^30 below
    # 2^(bits(total) - 1) is dropped without its product.
    short = total.bit_length() - 1 - _NEGLIGIBLE_INVERSE.bit_length()
    once = {}
    for a in range(1, n + 1):
        if binom[a].bit_length() + one[n - a].bit_length() <= short:
            continue
        w = binom[a] * one[n - a]
        if w * _NEGLIGIBLE_INVERSE > total:
            once[a] = w
    kept = list(once)
    # E[pairs] T = C(n, a) C(n - a, c) rest(n - a - c, 2) = N! / (a! c! (n-a-c)!) rest(..),
    # symmetric in (a, c); Cov(n_a, n_c) T^2 = (E[pairs] + [a = c] E[n_a]) T^2 - E[n_a] E[n_c] T^2
    size = len(kept)
    pairs = [[0] * size for _ in kept]
    spread = [[0] * size for _ in kept]
    for i, a in enumerate(kept):
        others = _binomial_row(n - a, kept[-1])  # C(n - a, c), c = 0 .. the largest size
        for j in range(i, size):
            c = kept[j]
            w = binom[a] * others[c] * two[n - a - c] if a + c <= n else 0
            pairs[i][j] = pairs[j][i] = w
            w = (w + (once[a] if i == j else 0)) * total - once[a] * once[c]
            spread[i][j] = spread[j][i] = w
    square = total * total
    return SizeMoments(
        n,
        np.array(kept, dtype=np.int64),
        np.array([once[a] / total for a in kept], dtype=np.float64),
        np.array([[w / total for w in row] for row in pairs]).reshape(len(kept), len(kept)),
        np.array([[w / square for w in row] for row in spread]).reshape(len(kept), len(kept)),
        linear,
    )


def _binomial_row(m: int, top: int) -> list[int]:
    """C(m, c) for c = 0 .. ``top`` (0 beyond m), each from the last by one small product and
    exact division: no big-integer comb per entry."""
    row = [1] * (top + 1)
    for c in range(1, top + 1):
        row[c] = row[c - 1] * (m - c + 1) // c
    return row


# --------------------------------------------------------------------------- pmf grids


def _spread(total: int, a: NDArray, b: NDArray) -> tuple[NDArray, NDArray]:
    """Mean of Hyp(total, a, b) and the half-width of its window, in floats."""
    af, bf, t = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), float(total)
    mean = af * bf / t
    var = mean * (t - af) * (t - bf) / (t * max(t - 1.0, 1.0))
    return mean, tail_halfwidth(var)


def grid_points(total: int, rows: SizeMoments, cols: SizeMoments) -> tuple[float, float, float]:
    """(window points, padded points, longest window) of the sums over sizes, in floats (no
    int64 overflow up to 2^63 - 1): the windows' lengths summed over the distinct size pairs
    (what the Lancaster route evaluates), and the distinct size pairs x the longest window
    (the arrays of the pair route)."""
    a, b = np.meshgrid(rows.sizes, cols.sizes, indexing="ij")
    _, half = _spread(total, a, b)
    width = np.minimum(np.minimum(a, b).astype(np.float64) + 1.0, 2.0 * half + 2.0)
    longest = float(width.max(initial=0.0))
    return float(width.sum()), a.size * longest, longest


def pair_points(total: int, rows: SizeMoments, cols: SizeMoments) -> float:
    """The points of the pair sums' largest arrays: the distinct size pairs x the longest
    window (the padded cells), or the longest window squared (one conditional row of it
    against a partner as long), whichever is larger."""
    _, padded, longest = grid_points(total, rows, cols)
    return max(padded, longest * longest)


def _window(total: int, a: NDArray[np.int64], b: NDArray[np.int64]) -> tuple[NDArray, NDArray]:
    """[lo, hi] of Hyp(total, a, b): its support cut where the mass outside is < 1e-20."""
    mean, half = _spread(total, a, b)
    lo = np.maximum(np.maximum(a + b - total, 0), np.floor(mean - half).astype(np.int64))
    hi = np.minimum(np.minimum(a, b), np.ceil(mean + half).astype(np.int64))
    return lo, np.maximum(hi, lo)


def _hyp_rows(total, a, b, start, width: int, normalize: bool = False) -> NDArray[np.float64]:
    """Hyp(total, a, b) pmf at start + 0..width-1, per row of the 1-D int64 parameter arrays.

    The pmf is evaluated once per row, at the mode clipped into the row's range (Loader's
    form, :func:`pmfs.hypergeom_pmf`), and carried outwards by its exact ratios
    h(k+1)/h(k) = (a-k)(b-k) / ((k+1)(total-a-b+k+1)): one rounding per step, and every
    value is at most the anchor's (the pmf is unimodal), so nothing overflows. 0 outside
    the support and on rows whose parameters are out of range.

    ``normalize``: a row whose mass outside its range is provably below NORMALIZE_TAIL of
    its own (the pmf is log-concave: beyond each end its values fall at least geometrically,
    by the ratio at that end) is divided by its sum instead (no anchor: equal to the pmf
    within a relative NORMALIZE_TAIL and the rounding of the sum); the others are anchored.
    """
    total, a, b, start = np.broadcast_arrays(
        *(np.asarray(v, dtype=np.int64).ravel() for v in (total, a, b, start))
    )
    rows = len(total)
    out = np.zeros((rows, width))
    lo = np.maximum(np.maximum(a + b - total, 0), start)
    hi = np.minimum(np.minimum(a, b), start + width - 1)
    ok = (a >= 0) & (b >= 0) & (a <= total) & (b <= total) & (total >= 1) & (lo <= hi)
    if not ok.any():
        return out
    if not ok.all():
        total, a, b, start, lo, hi = (v[ok] for v in (total, a, b, start, lo, hi))
    mode = np.clip((a + 1) * (b + 1) // (total + 2), lo, hi)
    anchor = None if normalize else hypergeom_pmf(mode, total, a, b)
    # Ratios h(t+1)/h(t) on the row's range (outside the support they are replaced),
    # (a - t)(b - t) / ((t + 1)(rest + t)) at t = start + u: each factor is a per-row
    # integer minus or plus u (exact in floats), two buffers, few passes over the block.
    u = np.arange(width - 1, dtype=np.float64)
    ratio = np.subtract((a - start).astype(np.float64)[:, None], u)
    other = np.subtract((b - start).astype(np.float64)[:, None], u)
    ratio *= other
    np.add((start + 1).astype(np.float64)[:, None], u, out=other)
    other *= np.add((total - a - b + 1 + start).astype(np.float64)[:, None], u)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio /= other
    if normalize:
        rows_ok = _normalized(ratio, total, a, b, start, lo, hi, mode)
    else:
        rows_ok = carry_pmf(ratio, start, lo, hi, mode, anchor)
    if ok.all():
        return rows_ok
    out[ok] = rows_ok
    return out


#: Largest mass outside a row, relative to the row's, for which :func:`_hyp_rows` divides the
#: row by its sum instead of anchoring it by Loader's form.
NORMALIZE_TAIL = 1e-17


def _normalized(ratio, total, a, b, start, lo, hi, mode) -> NDArray[np.float64]:
    """Rows of pmf / pmf(mode), divided by their sums where the mass beyond both ends is
    below NORMALIZE_TAIL of the row's (bounded by the geometric series of the ratio at each
    end: the hypergeometric pmf is log-concave, its ratios fall), else by Loader's anchor."""
    width = ratio.shape[1] + 1
    if np.any(lo > start) or np.any(hi < start + width - 1):  # support ends inside a row
        rows = carry_pmf(ratio, start, lo, hi, mode, np.ones(len(start)))
        at_mode = np.ones(len(start))
        mass = rows.sum(axis=1)
    else:  # the running product itself (one pass fewer), rescaled once below
        rows = np.empty((len(start), width))
        rows[:, 0] = 1.0
        # A sum of positive terms is finite iff every term is (and it does not overflow).
        with np.errstate(over="ignore", invalid="ignore"):
            np.cumprod(ratio, axis=1, out=rows[:, 1:])
            mass = rows.sum(axis=1)
        at_mode = rows[np.arange(len(start)), mode - start]
        bad = ~np.isfinite(mass) | ~(at_mode > 0) | ~np.isfinite(at_mode)
        if bad.any():  # carried from the mode both ways, 1 there (as carry_pmf does)
            rows[bad] = _two_way(ratio[bad], (mode - start)[bad], np.ones(int(bad.sum())))
            at_mode[bad] = 1.0
            mass[bad] = rows[bad].sum(axis=1)
    s0, s1 = start.astype(np.float64), (start + width - 1).astype(np.float64)
    af, bf, rest = (v.astype(np.float64) for v in (a, b, total - a - b + 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        # h(start - 1) / h(start) and h(end + 1) / h(end), where the support goes on.
        left = s0 * (rest + s0 - 1.0) / ((af - s0 + 1.0) * (bf - s0 + 1.0))
        right = (af - s1) * (bf - s1) / ((s1 + 1.0) * (rest + s1))
        left = np.where(lo > np.maximum(a + b - total, 0), left, 0.0)
        right = np.where(hi < np.minimum(a, b), right, 0.0)
        tail = rows[:, 0] * left / (1.0 - left) + rows[:, -1] * right / (1.0 - right)
    fine = (left < 1.0) & (right < 1.0) & (tail <= NORMALIZE_TAIL * mass) & (mass > 0)
    scale = np.empty(len(start))
    scale[fine] = 1.0 / mass[fine]
    if not fine.all():
        bad = ~fine
        scale[bad] = hypergeom_pmf(mode[bad], total[bad], a[bad], b[bad]) / at_mode[bad]
    rows *= scale[:, None]
    return rows


def carry_pmf(ratio: NDArray, start: NDArray, lo: NDArray, hi: NDArray, mode: NDArray,
              anchor: NDArray) -> NDArray[np.float64]:
    """Rows of a unimodal pmf on start + 0..width-1 from its value at ``mode`` and its ratios.

    ``ratio[:, c]`` is pmf(start + c + 1) / pmf(start + c); the rows' supports are
    [lo, hi]. Their running product P from column 0 gives pmf = anchor * P / P[mode]; rows
    whose P overflows (a huge range of values) are carried from the mode both ways. 0
    outside [lo, hi]. Only the rows whose support ends inside the row are masked (the
    others use every ratio as it is).
    """
    rows, width = len(start), ratio.shape[1] + 1
    first, last = lo - start, hi - start  # the support's columns
    partial = np.flatnonzero((first > 0) | (last < width - 1))
    if partial.size:  # ratios outside the support -> 1 (column c steps from c to c + 1)
        column = np.arange(width - 1)
        step = np.where(
            (column < first[partial, None]) | (column >= last[partial, None]), 1.0, ratio[partial]
        )
        ratio = ratio.copy() if partial.size < rows else step
        if partial.size < rows:
            ratio[partial] = step
    product = np.empty((rows, width))
    product[:, 0] = 1.0
    with np.errstate(over="ignore"):  # rows that overflow are carried both ways below
        np.cumprod(ratio, axis=1, out=product[:, 1:])
    at_mode = product[np.arange(rows), mode - start]
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = anchor / at_mode
    # A running product of positive finite ratios is finite everywhere iff its largest is.
    bad = ~np.isfinite(product.max(axis=1)) | ~np.isfinite(scale) | (at_mode == 0)
    with np.errstate(over="ignore", invalid="ignore"):  # the bad rows are replaced
        product *= scale[:, None]
    if bad.any():
        product[bad] = _two_way(ratio[bad], (mode - start)[bad], anchor[bad])
    if partial.size:
        column = np.arange(width)
        sub = product[partial]
        sub[(column < first[partial, None]) | (column > last[partial, None])] = 0.0
        product[partial] = sub
    return product


def _two_way(ratio: NDArray, pos: NDArray, anchor: NDArray) -> NDArray[np.float64]:
    """anchor carried from column ``pos`` by the ratios, upwards and downwards separately."""
    width = ratio.shape[1] + 1
    column = np.arange(width - 1)[None, :]
    up = np.where(column >= pos[:, None], ratio, 1.0)
    with np.errstate(divide="ignore"):
        down = np.where(column < pos[:, None], 1.0 / ratio, 1.0)
    out = np.empty((len(pos), width))
    out[:, 0] = 1.0
    np.cumprod(up, axis=1, out=out[:, 1:])
    back = np.ones((len(pos), width))
    back[:, :-1] = np.cumprod(down[:, ::-1], axis=1)[:, ::-1]
    return anchor[:, None] * out * back


def _bd0(x: NDArray[np.int64], a: NDArray[np.int64], b: NDArray[np.int64], n: int) -> NDArray:
    """bd0(x, ab/n) with the exact offset x - ab/n = (x n - ab)/n."""
    x, a, b = np.broadcast_arrays(x, a, b)
    return deviance(x, a * b / float(n), (x * n - a * b) / float(n))


# --------------------------------------------------------------------------- smooth rows

#: Windows at least this long are interpolated (below, every position is evaluated).
SMOOTH_MIN = 96
#: Interpolation nodes per row, tried in turn (Chebyshev-Lobatto points rounded to the
#: window's integers; each set contains the one before).
NODES = (17, 33)
#: The node counts of the perm pair rows (:func:`_add_pair_rows`, :func:`_cross_sum`): 9
#: first (where the 3 checks pass: long windows, over which they vary little).
PAIR_NODES = (9, 17, 33)
#: Shortest window of the perm pair rows interpolated (from 9 nodes, tried once; below
#: SMOOTH_MIN they evaluated every position): with Dirichlet(1) sizes most cells have
#: windows of 24 to 95 points, each evaluated at all of them.
PAIR_SHORT = 32
#: Accepted interpolation error at the check positions, relative to the largest node value.
SMOOTH_TOL = 1e-13
#: Largest (rows x positions x width) evaluated at once where rows are taken at every position.
_EVALUATED = 1 << 24


def conditional_rows(count: NDArray[np.int64], width: int,
                     evaluate: Callable[[NDArray, NDArray], NDArray],
                     nodes: tuple[int, ...] = NODES, shortest: int = SMOOTH_MIN
                     ) -> NDArray[np.float64]:
    """phi[k, p] for p < width, 0 from count[k] on, where ``evaluate(rows, pos)`` gives phi at
    the positions pos[r, :] of the rows ``rows`` (a conditional expectation, docs/math.md).

    Rows whose window has at least SMOOTH_MIN positions are evaluated at 17 rounded
    Chebyshev-Lobatto nodes and 3 check positions, and interpolated (barycentric form) where
    the interpolant misses the check values by at most SMOOTH_TOL of the largest node value;
    the others are tried again with 33 nodes, and what still misses is evaluated at all its
    positions, as is every row with a shorter window. ``nodes``: other node counts, tried in
    turn (the perm pair rows: PAIR_NODES). ``shortest`` < SMOOTH_MIN: rows with at least
    that many positions and fewer than SMOOTH_MIN try the first node count only (the perm
    pair rows: PAIR_SHORT).
    """
    out = np.zeros((count.size, width))
    done = np.zeros(count.size, dtype=bool)
    pending = np.flatnonzero(count >= min(shortest, SMOOTH_MIN))
    for k, nodes_count in enumerate(nodes):
        if k == 1:  # the short rows try the first node count only
            pending = pending[count[pending] >= SMOOTH_MIN]
        if not pending.size:
            break
        points, checks = chebyshev(nodes_count)
        span = (count[pending] - 1)[:, None].astype(np.float64)
        # Rounded, then kept at least 1 apart where the points are denser than the integers
        # (rows whose nodes still coincide are evaluated at every position).
        order = np.arange(nodes_count)
        nodes = np.clip(np.rint(points * span).astype(np.int64), order, span.astype(np.int64) - order[::-1])
        distinct = np.all(np.diff(nodes, axis=1) > 0, axis=1)
        if not distinct.all():
            pending, nodes, span = pending[distinct], nodes[distinct], span[distinct]
            if not pending.size:
                break
        check = np.rint(checks * span).astype(np.int64)
        values = evaluate(pending, np.concatenate([nodes, check], axis=1))
        at_nodes, at_check = values[:, :nodes_count], values[:, nodes_count:]
        miss = np.abs(barycentric(nodes, at_nodes, check) - at_check).max(axis=1)
        good = miss <= SMOOTH_TOL * np.abs(at_nodes).max(axis=1)
        grid = np.broadcast_to(np.arange(width), (int(good.sum()), width))
        out[pending[good]] = barycentric(nodes[good], at_nodes[good], grid)
        done[pending[good]] = True
        pending = pending[~good]
    rows = np.flatnonzero(~done)
    # Every position of the others: each row at its own positions, not the padded width (a
    # short row beside a long one would evaluate width^2 points: GiBs at N = 10^6, issue
    # #35), rows of counts within a factor 2 together, in chunks of positions that keep
    # ``evaluate``'s (rows, positions, width) arrays within _EVALUATED floats.
    key = np.ceil(np.log2(np.maximum(count[rows], 1)))
    for group in (rows[key == value] for value in np.unique(key)):
        longest = min(width, int(count[group].max()))
        step = max(1, _EVALUATED // (group.size * width))
        for first in range(0, longest, step):
            pos = np.arange(first, min(longest, first + step))
            out[group, first : first + pos.size] = evaluate(
                group, np.broadcast_to(pos, (group.size, pos.size)))
    out[np.arange(width)[None, :] >= count[:, None]] = 0.0
    return out


# --------------------------------------------------------------------------- the engine


@dataclass
class _Cells:
    """Per (row size s, column size b): window of Hyp(N, s, b), pmf, centred bd0, E[bd0]."""

    lo: NDArray[np.int64]  # (S, B)
    count: NDArray[np.int64]  # (S, B): the window's length
    pmf: NDArray[np.float64]  # (S, B, width), 0 outside the window
    centred: NDArray[np.float64]  # bd0(x, s b / N) - E[bd0], 0 outside
    mean: NDArray[np.float64]  # (S, B): E[bd0]
    var: NDArray[np.float64]  # (S, B): Var[bd0]


def _cell_windows(n: int, rows: NDArray[np.int64], cols: NDArray[np.int64]) -> tuple:
    """(s, b, lo, hi): every (row size, column size) and the window of Hyp(N, s, b)."""
    s, b = np.meshgrid(rows, cols, indexing="ij")
    return (s, b, *_window(n, s, b))


def _cell_groups(n: int, s: NDArray, b: NDArray, lo: NDArray, hi: NDArray, cell=None):
    """Per (row size s, column size b) of :func:`_cell_windows`, the window of Hyp(N, s, b),
    its pmf and centred bd0,
    in groups of window lengths within 25% (padding to the longest window of all would
    evaluate ~5x more points with Dirichlet(1) sizes); each cell's values do not depend on
    its group.

    Yields (at, s, b, x, p, c, mean, var) per group: ``at`` the cells' (row, column)
    indices, x the positions (the window's first beyond its end), p the pmf and c the
    centred bd0 (both 0 beyond the window), mean E[bd0] and var Var[bd0].
    """
    count = hi - lo + 1
    for group in _key_groups(_length_key(count).ravel()):
        for part in _chunks(group, int(count.ravel()[group].max())):
            yield _cell_group(n, s, b, lo, hi, part, cell)


def _cell_group(n: int, s: NDArray, b: NDArray, lo: NDArray, hi: NDArray, group: NDArray,
                cell=None) -> tuple:
    """One group of :func:`_cell_groups` (the cells at the flat indices ``group``); ``cell``:
    another cell function than bd0 (``cell.of_cells(x, s, b, n)``, :func:`conditional_variance`)."""
    at = np.unravel_index(group, s.shape)
    x = lo[at][:, None] + np.arange(int((hi[at] - lo[at]).max()) + 1)
    inside = x <= hi[at][:, None]
    x = np.where(inside, x, lo[at][:, None])
    # Loader's form at each cell's mode, carried by the ratios (as every conditional row).
    p = np.where(inside, _hyp_rows(n, s[at], b[at], lo[at], x.shape[1]), 0.0)
    dev = (_bd0 if cell is None else cell.of_cells)(x, s[at][:, None], b[at][:, None], n)
    m = np.sum(p * dev, axis=-1) / np.sum(p, axis=-1)
    c = np.where(inside, dev - m[:, None], 0.0)
    return at, s[at], b[at], x, p, c, m, np.sum(p * c * c, axis=-1)


def _cells(n: int, rows: NDArray[np.int64], cols: NDArray[np.int64]) -> _Cells:
    """Every cell's window, pmf and centred bd0, padded to the longest window."""
    windows = _cell_windows(n, rows, cols)
    lo, count = windows[2], windows[3] - windows[2] + 1
    shape = (len(rows), len(cols))
    pmf = np.zeros((*shape, int(count.max(initial=1))))
    centred = np.zeros(pmf.shape)
    mean, var = np.zeros(shape), np.zeros(shape)
    for at, _, _, _, p, c, m, v in _cell_groups(n, *windows):
        pmf[at[0], at[1], : p.shape[1]] = p
        centred[at[0], at[1], : p.shape[1]] = c
        mean[at], var[at] = m, v
    return _Cells(lo, count, pmf, centred, mean, var)


def _length_key(lengths: NDArray[np.int64]) -> NDArray[np.float64]:
    """Window lengths within 25% share a key (all up to _SHORT count as _SHORT: there the
    cost is per call, not per point)."""
    return np.ceil(np.log(np.maximum(lengths, _SHORT)) / np.log(1.25))


def _key_groups(key: NDArray) -> list[NDArray[np.intp]]:
    """The indices of each distinct key, keys ascending, indices ascending within a group.

    By a sort, not np.unique: numpy 2's imports numpy.ma on its first call (~15 ms, a third
    of a small table's whole Var[MI] call).
    """
    order = np.argsort(key, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(key[order])) + 1)


def _blocks(first: NDArray[np.int64], second: NDArray[np.int64]):
    """Blocks of indices whose two window lengths are within 25% of the block's largest
    (all lengths up to _SHORT count as _SHORT: there the cost is per call, not per point).

    Yields (indices, largest first, largest second), each block with at most _GRID
    grid points, so that padding wastes little work.
    """
    for group in _key_groups(_length_key(first) * 4096 + _length_key(second)):
        wa, wb = int(first[group].max()), int(second[group].max())
        for part in _chunks(group, wa * wb):
            yield part, wa, wb


def _chunks(group: NDArray[np.intp], points: int):
    """``group`` in consecutive pieces of at most _GRID // ``points`` indices (at least one),
    each index standing for ``points`` grid points."""
    chunk = max(1, _GRID // points)
    for start in range(0, group.size, chunk):
        yield group[start : start + chunk]


def _pair_sums(n: int, rows: SizeMoments, cols: SizeMoments, cells: _Cells) -> NDArray:
    """Hsum[s, b, m] = sum_b' W2_B(b, b') Gc_{s,b,b'}(m) on the m-window of Hyp(N, s, b).

    Gc_{s,b,b'}(m) = E[bd0(y, s b'/N) | m] - E[bd0], y | m ~ Hyp(N - b, s - m, b'), y on
    the window of Hyp(N, s, b'). Beyond an m-window the values are left as computed: they
    always meet a factor that is 0 there.
    """
    out = np.zeros(cells.pmf.shape)
    col, partner = np.nonzero(cols.pairs)
    weights = cols.pairs[col, partner]
    for i in range(len(rows.sizes)):
        _add_pair_rows(out, n, np.full(col.size, i), rows.sizes, cols, cells, col, partner,
                       weights)
    return out


def _add_pair_rows(out, n, base, sizes_a, cols, cells, col, partner, weights) -> None:
    """out[i, b, m] += w Gc_{s,b,b'}(m) for the listed (i, b, b', w) (s = sizes_a[i]), in
    blocks of at most _GRID grid points (rows of several base sizes batched together)."""
    sizes_b = cols.sizes
    for sl, wm, wy in _blocks(cells.count[base, col], cells.count[base, partner]):
        i_of, b_of, b_to = base[sl], sizes_b[col[sl]], sizes_b[partner[sl]]
        s_of = sizes_a[i_of]
        lo_m, lo_y = cells.lo[i_of, col[sl]], cells.lo[i_of, partner[sl]]
        centred = cells.centred[i_of, partner[sl], :wy]  # 0 beyond each y-window

        def given(rows, pos, b_of=b_of, b_to=b_to, lo_m=lo_m, lo_y=lo_y, centred=centred,
                  s_of=s_of, wy=wy):
            m = lo_m[rows, None] + pos
            cond = _hyp_rows(
                n - np.repeat(b_of[rows], pos.shape[1]),
                (s_of[rows, None] - m).ravel(),
                np.repeat(b_to[rows], pos.shape[1]),
                np.repeat(lo_y[rows], pos.shape[1]),
                wy, normalize=True,
            ).reshape(rows.size, pos.shape[1], wy)
            return np.einsum("kpy,ky->kp", cond, centred[rows])

        values = conditional_rows(cells.count[i_of, col[sl]], wm, given, PAIR_NODES, PAIR_SHORT)
        np.add.at(out[:, :, :wm], (i_of, col[sl]), weights[sl, None] * values)


def _cross_sum(n, rows, cols, cells, partner_terms, base, other, col, weight) -> float:
    """sum over the listed (a, a', b, w) of w sum_x p(x) Dc(x) E[partner(a', b, m) | x] for
    the row sizes a = rows.sizes[base], m | x ~ Hyp(N - a, a', b - x) on the m-window of
    (a', b), in blocks of at most _GRID grid points (several row sizes batched together)."""
    sizes_a, sizes_b = rows.sizes, cols.sizes
    base = np.broadcast_to(base, col.shape)
    total = 0.0
    for sl, wx, wm in _blocks(cells.count[base, col], cells.count[other, col]):
        i_of = base[sl]
        pick = cells.pmf[i_of, col[sl], :wx] * cells.centred[i_of, col[sl], :wx]  # 0 beyond
        inside = cells.pmf[other[sl], col[sl], :wm] > 0  # mass < 1e-20 beyond the m-windows
        target = np.where(inside, partner_terms[other[sl], col[sl], :wm], 0.0)
        a_of, a_to, b_of = sizes_a[i_of], sizes_a[other[sl]], sizes_b[col[sl]]
        lo_x, lo_m = cells.lo[i_of, col[sl]], cells.lo[other[sl], col[sl]]

        def given(rows_, pos, a_of=a_of, a_to=a_to, b_of=b_of, lo_x=lo_x, lo_m=lo_m,
                  target=target, wm=wm):
            x = lo_x[rows_, None] + pos
            cond = _hyp_rows(
                n - np.repeat(a_of[rows_], pos.shape[1]),
                np.repeat(a_to[rows_], pos.shape[1]),
                np.repeat(b_of[rows_], pos.shape[1]) - x.ravel(),
                np.repeat(lo_m[rows_], pos.shape[1]),
                wm, normalize=True,
            ).reshape(rows_.size, pos.shape[1], wm)
            return np.einsum("kpm,km->kp", cond, target[rows_])

        value = np.sum(pick * conditional_rows(cells.count[i_of, col[sl]], wx, given, PAIR_NODES,
                                                PAIR_SHORT),
                       axis=-1)
        total += float(weight[sl] @ value)
    return total


#: The pairs of cells are summed by their Lancaster expansion (:mod:`lancaster`) up to the
#: first order at which a bound of the rest is at most this fraction of the same-cell sum
#: V = sum W_A W_B Var[bd0] (docs/math.md#math-mi-lancaster).
LANCASTER_TOL = 1e-13
#: Orders computed: the first count (5-7 orders reach the bound at N = 10^6, 100 x 100), then
#: the second where the first leaves the bound above LANCASTER_TOL (small tables with large
#: clusters, where the canonical correlations are near 1); beyond, the pair sums of
#: :func:`_pair_route`.
LANCASTER_ORDERS = (8, 48)
#: A cell's coefficients stop (are 0 from there on) before the first order whose estimated
#: rounding error passes this fraction of sqrt(Var[bd0]) (:func:`lancaster.hahn_coefficients`);
#: the bound then keeps the remainder at its last order.
COEF_TOL = 1e-12


@dataclass(frozen=True)
class _Expansion:
    """Per cell (S, B): E[bd0], Var[bd0], and the Hahn coefficients of its centred bd0 up to
    order ``top`` (top + 1, S, B), their remainders, and the last order kept (S, B)."""

    mean: NDArray[np.float64]
    var: NDArray[np.float64]
    coef: NDArray[np.float64]
    rest: NDArray[np.float64]
    last: NDArray[np.int64]
    #: sum p (Dc - f_1 P_1)^2: the cell's variance beyond order 1, a sum of squares (no
    #: cancellation where Dc is nearly linear, as on a two-point support).
    beyond_linear: NDArray[np.float64]


def _linear_polynomial(n: int, s: NDArray, b: NDArray, x: NDArray) -> NDArray[np.float64]:
    """P_1(x) = (x - s b / N) / sd of Hyp(N, s, b) per row (s, b one per row of x)."""
    sf, bf, nf = s.astype(np.float64), b.astype(np.float64), float(n)
    sd = np.sqrt(sf * bf * (nf - sf) * (nf - bf) / (nf * nf * (nf - 1.0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sd[:, None] > 0, (x - (sf * bf / nf)[:, None]) / sd[:, None], 0.0)


def _expansion(n: int, rows: SizeMoments, cols: SizeMoments, top: int, cell=None) -> _Expansion:
    """Every cell's moments and Hahn coefficients, group by group (no padded arrays)."""
    shape = (len(rows.sizes), len(cols.sizes))
    mean, var = np.zeros(shape), np.zeros(shape)
    coef, rest = np.zeros((top + 1, *shape)), np.zeros((top + 1, *shape))
    last = np.zeros(shape, dtype=np.int64)
    beyond = np.zeros(shape)
    for at, s, b, x, p, c, m, v in _cell_groups(n, *_cell_windows(n, rows.sizes, cols.sizes),
                                                cell=cell):
        mean[at], var[at] = m, v
        coef[:, at[0], at[1]], rest[:, at[0], at[1]], last[at] = hahn_coefficients(
            n, s, b, x, p, c, v, top, COEF_TOL)
        if top:
            linear = coef[1, at[0], at[1]][:, None] * _linear_polynomial(n, s, b, x)
            beyond[at] = np.sum(p * (c - linear) ** 2, axis=-1)
    return _Expansion(mean, var, coef, rest, last, beyond)


def _same_cell(rows: SizeMoments, cols: SizeMoments, var: NDArray[np.float64]) -> float:
    """V = sum W_A(a) W_B(b) Var[bd0] of the cells (a, b): the pairs of a cell with itself."""
    return float(rows.once @ var @ cols.once)


def _quadratic_forms(first: NDArray, second: NDArray, rows: SizeMoments,
                     cols: SizeMoments, row_factor: NDArray, col_factor: NDArray
                     ) -> tuple[float, float, float]:
    """The sums over pairs of distinct cells of first[c] second[c'] times the correlation
    factors: (same row, same column, neither), weighted by the size moments."""
    by_col = col_factor[None, :]
    by_row = row_factor[:, None]
    same_row = float(rows.once @ np.sum(((first * by_col) @ cols.pairs) * (second * by_col),
                                        axis=1))
    same_col = float(np.sum((rows.pairs @ (first * by_row)) * (second * by_row), axis=0)
                     @ cols.once)
    neither = float(np.sum((rows.pairs @ (first * by_row * by_col) @ cols.pairs)
                           * (second * by_row * by_col)))
    return same_row, same_col, neither


def _lancaster_pairs(n: int, rows: SizeMoments, cols: SizeMoments, first: _Expansion,
                     orders: list[float] | None = None, target: float | None = None,
                     cell=None) -> float | None:
    """The pairs of distinct cells of E[Var(T | sizes)] by the Lancaster expansion: order k
    adds sum rho_k f_k(c) f_k(c') over the pairs (same row: (-1)^k beta_k(b) beta_k(b'),
    same column: (-1)^k beta_k(a) beta_k(a'), neither: the four factors).

    After order k, a pair whose cells both kept order k leaves at most |rho_{k+1}|
    sqrt(rest_k(c) rest_k(c')) (Cauchy-Schwarz over the later orders; |rho_j| does not grow
    with j). A pair with a cell stopped at q < k leaves at most |rho_{q+1}| sqrt(rest_q(c)
    rest_q(c')) (its orders from q + 1 on are left out). Stops at the first order where
    these add up to at most LANCASTER_TOL of V. None where no order in LANCASTER_ORDERS
    reaches that. ``first`` holds the coefficients to the first count of LANCASTER_ORDERS;
    ``orders`` (a list) receives each order's sum; ``target``: another bound to reach;
    ``cell``: the cell function of ``first``."""
    if target is None:
        target = LANCASTER_TOL * _same_cell(rows, cols, first.var)
    for top in LANCASTER_ORDERS:
        if orders is not None:
            orders.clear()
        expansion = (first if first.coef.shape[0] == top + 1
                     else _expansion(n, rows, cols, top, cell))
        coef, rest, last = expansion.coef, expansion.rest, expansion.last
        row_factors = correlation_factors(rows.sizes, n, top + 1)
        col_factors = correlation_factors(cols.sizes, n, top + 1)
        total = 0.0
        stopped_bound = 0.0  # the pairs with a cell stopped before the current order
        for k in range(1, top + 1):
            same_row, same_col, neither = _quadratic_forms(
                coef[k], coef[k], rows, cols, row_factors[k], col_factors[k])
            order = neither - (same_row + same_col) if k % 2 else neither + same_row + same_col
            total += order
            if orders is not None:
                orders.append(order)
            stopping = last == k - 1  # kept order k - 1, not order k
            if stopping.any():
                root = np.sqrt(rest[k - 1])
                partners = np.where(last >= k - 1, root, 0.0)
                mine = np.where(stopping, root, 0.0)
                stopped_bound += 2.0 * sum(_quadratic_forms(
                    mine, partners, rows, cols, row_factors[k], col_factors[k]))
            root = np.where(last >= k, np.sqrt(rest[k]), 0.0)
            bound = stopped_bound + sum(_quadratic_forms(
                root, root, rows, cols, row_factors[k + 1], col_factors[k + 1]))
            if bound <= target:
                return total
    return None


def conditional_variance(n: int, rows: SizeMoments, cols: SizeMoments,
                         pair_limit: float = np.inf, cell=None
                         ) -> tuple[float, NDArray[np.float64]] | None:
    """(E[Var(T | sizes)], E[bd0] per size pair): the same-cell sum V = sum W_A W_B
    Var[bd0], plus the pairs of distinct cells by their Lancaster expansion
    (:func:`_lancaster_pairs`), or, where that does not reach its bound, by the pair sums
    (:func:`_pair_route`). None where the pair sums are needed and their arrays would pass
    ``pair_limit`` points (:func:`pair_points`).

    ``cell``: two fixed sides and T = sum_cells (cell.of_cells(n_c, a, b, N) +
    cell.slopes(a, b, N) n_c) + const instead of sum bd0 (N MI_q, docs/math.md#math-tsallis);
    its order 1 always as the linear statistic (the slopes join the order-1 coefficients);
    None where the expansion does not reach its bound."""
    if cell is not None and (rows.spread is not None or cols.spread is not None):
        raise InternalError("a cell function other than bd0 needs two fixed sides")
    first = _expansion(n, rows, cols, LANCASTER_ORDERS[0] if LANCASTER_ORDERS else 0, cell)
    same_cell = _same_cell(rows, cols, first.var)
    orders: list[float] = []
    pairs = _lancaster_pairs(n, rows, cols, first, orders, cell=cell)
    if pairs is None:
        if cell is not None or pair_points(n, rows, cols) > pair_limit:
            return None
        pairs = _pair_route(n, rows, cols, _cells(n, rows.sizes, cols.sizes))
    elif (rows.spread is None and cols.spread is None
          and (cell is not None or same_cell + pairs < LINEAR_EXACT_BELOW * same_cell)):
        # Var far below V: the cells' linear parts cancel over the pairs (one cluster of
        # almost every element beside singletons). Order 1 as one sum of squares instead,
        # and the orders summed until their bound is LANCASTER_TOL of that variance.
        slopes = None if cell is None else cell.slopes(rows.sizes[:, None], cols.sizes[None, :], n)
        base = (float(rows.once @ first.beyond_linear @ cols.once)
                + _linear_variance(n, rows, cols, first.coef[1], slopes))
        estimate = base + math.fsum(orders[1:])
        if (cell is None or estimate < LINEAR_EXACT_BELOW * same_cell) and _lancaster_pairs(
                n, rows, cols, first, orders, LANCASTER_TOL * estimate, cell) is not None:
            estimate = base + math.fsum(orders[1:])
        return estimate, first.mean
    return same_cell + pairs, first.mean


#: Two fixed sides whose E[Var(T | sizes)] from the expansion is below this fraction of the
#: same-cell sum V take its order 1 as the variance of a linear statistic
#: (:func:`_linear_variance`) and the rest of V as sums of squares: the error of V + pairs
#: is ~1e-16 V (rounding) to 1e-13 V (the expansion's bound), far above 1e-10 Var there.
LINEAR_EXACT_BELOW = 1e-3


def _linear_variance(n: int, rows: SizeMoments, cols: SizeMoments,
                     coef: NDArray[np.float64], slopes: NDArray | None = None) -> float:
    """Var(sum_cells f_1 P_1(n_c)) for two fixed sides: the order-1 part of the same-cell
    sum and of every pair, as one permutation statistic sum_ij c_ij n_ij, c = f_1 / sd.

    Hoeffding's combinatorial theorem: Var = sum_ij a_i b_j d_ij^2 / (N - 1), d the doubly
    centred c (d = c - row mean - column mean + mean, weighted by the sizes): non-negative
    terms, no cancellation between cells. ``slopes``: per size pair, added to c (a term
    slope * n_c of the cell function, :func:`conditional_variance`).
    """
    sa, sb, nf = rows.sizes.astype(np.float64), cols.sizes.astype(np.float64), float(n)
    sd = np.sqrt(np.outer(sa * (nf - sa), sb * (nf - sb)) / (nf * nf * (nf - 1.0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(sd > 0, coef / sd, 0.0)
    if slopes is not None:
        c = c + slopes
    wa, wb = rows.once * sa, cols.once * sb
    row_mean, col_mean = (c @ wb) / nf, (wa @ c) / nf
    d = c - row_mean[:, None] - col_mean[None, :] + float(wa @ c @ wb) / (nf * nf)
    return float(wa @ (d * d) @ wb) / (nf - 1.0)


def _pair_route(n: int, rows: SizeMoments, cols: SizeMoments, cells: _Cells) -> float:
    """The pairs of distinct cells of E[Var(T | sizes)] by sums over pairs of sizes.

    Pairs of cells in the same row take Hsum (:func:`_pair_sums`). Pairs of cells in
    different rows need r_{a,a',b}(m) = sum_x p(x) Dc(x) P(m | x), m | x ~ Hyp(N - a, a',
    b - x) on the m-window of (a', b): for each row size a, all (a', b) together in blocks of
    at most _GRID grid points.
    """
    hsum = _pair_sums(n, rows, cols, cells)
    same_row = np.sum(cells.pmf * cells.centred * hsum, axis=-1)
    total = float(rows.once @ same_row @ np.ones(len(cols.sizes)))
    # The partner of the cell (a', b) in a different row: its centred bd0 (same column,
    # weight W_B(b)) and Hsum (different column).
    partner_terms = cols.once[None, :, None] * cells.centred + hsum
    every_col = np.arange(len(cols.sizes))
    for i in range(len(rows.sizes)):
        others = np.flatnonzero(rows.pairs[i])
        if others.size == 0:
            continue
        other, col = (v.ravel() for v in np.meshgrid(others, every_col, indexing="ij"))
        total += _cross_sum(n, rows, cols, cells, partner_terms, i, other, col,
                            rows.pairs[i, other])
    return total


def _detrend(values: NDArray[np.float64], sizes: NDArray[np.int64], linear: str) -> NDArray:
    """values minus their least-squares fit on span{1, a} ("1a") or span{a} ("a")."""
    a = sizes.astype(np.float64)
    basis = np.stack([np.ones_like(a), a], axis=1) if linear == "1a" else a[:, None]
    coef, *_ = np.linalg.lstsq(basis, values, rcond=None)
    return values - basis @ coef


def _between_variance(rows: SizeMoments, cols: SizeMoments, mean: NDArray) -> float:
    """Var(E[T | sizes]) for E[T | sizes] = sum_ij e(a_i, b_j) (0 when both sides are fixed)."""
    total = 0.0
    if rows.spread is not None:
        g = _detrend(mean @ cols.once, rows.sizes, rows.linear)
        total += float(g @ rows.spread @ g)
    if cols.spread is not None:
        g = _detrend(rows.once @ mean, cols.sizes, cols.linear)
        total += float(g @ cols.spread @ g)
    if rows.spread is not None and cols.spread is not None:
        total += float(np.sum((rows.spread @ mean @ cols.spread) * mean))
    return total


def total_variance(n: int, rows: SizeMoments, cols: SizeMoments,
                   pair_limit: float = np.inf, cell=None) -> float | None:
    """Var[N MI] of two independent sides given by their size moments (nats^2); None where
    the pair sums are needed beyond ``pair_limit`` points (:func:`conditional_variance`);
    ``cell``: another sum over the cells (:func:`conditional_variance`)."""
    if n < 2:
        return 0.0
    conditional = conditional_variance(n, rows, cols, pair_limit, cell)
    if conditional is None:
        return None
    within, mean = conditional
    return max(within + _between_variance(rows, cols, mean), 0.0)
