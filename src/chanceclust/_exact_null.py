"""Exact null laws of the Rand index and mutual information: tails summed over tables.

Under perm (both margins fixed) the contingency table of two random clusterings follows the
Fisher-Freeman-Halton law P(n) = prod a_i! prod b_j! / (N! prod n_ij!), and every named
measure is a monotone function of one of two statistics given the margins:

* ``PAIRS``: n11 = sum C(n_ij, 2), an exact integer (RI, ARI, SRI, FMI, Jaccard);
* ``ENTROPY``: T = sum n_ij ln n_ij (MI, NMI, AMI, SMI, VI), as an integer in units of
  ``unit`` = 2^-40 max(1, N ln N), each cell's n ln n rounded to the unit, so that sums are
  exact and the same in every order.

:func:`log_tails` sums the law over the tables at least (and at most) as extreme as two
thresholds by meeting in the middle: the columns are split in two halves (:func:`plan`, which
also counts the work before anything is built, so that a refusal is immediate); each half's
partial tables are merged by a network (Mehta and Patel 1983) into nodes (the rows' used
counts, the statistic), vectorized in numpy; a table is one node of each half whose used
counts add up to the row sums, and each tail is one search per node among the matching
nodes of the other half, sorted by statistic with running log-sums. Beyond the budget,
:func:`log_tail` sums one tail column by column with Mehta-Patel pruning (pure Python: the
engine of the num and all mixtures, many small tables): a node whose every completion is
inside the tail (or none is), by bounds of the statistic, is closed at once with its whole
weight (or dropped); it stops before its budget of steps would pass.
Probabilities are summed in log space. :func:`size_sequences` gives the law of a side's
cluster sizes under num and all, for the exact mixtures of those models.

Formula and accuracy: docs/math.md#math-exact-null.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from chanceclust.exceptions import InternalError

PAIRS = "pairs"
ENTROPY = "entropy"
# The unit of T: 2^-40 of its largest value N ln N (each cell rounded by half a unit; the
# float n ln n is within 2^-52 N ln N of the real one).
_ENTROPY_UNIT = 2.0**-40
# Tables whose T is within this many units of the threshold count as ties (2^-28 N ln N,
# ~3.7e-9 of the largest T, i.e. 3.7e-9 ln N nats of MI): above the rounding of up to 8192
# cells (half a unit each) (docs/math.md#math-exact-null).
_ENTROPY_TIE = 2**12


@dataclass(frozen=True)
class Statistic:
    """The statistic of a table as an integer: each cell's value ``f(n)`` summed.

    ``kind``: PAIRS (f(n) = n(n-1)/2, exact) or ENTROPY (f(n) = round(n ln n / unit));
    ``tie``: how many units around a threshold count as a tie (0 for PAIRS).
    """

    kind: str
    unit: float
    tie: int

    def cell(self, n: int) -> int:
        if self.kind == PAIRS:
            return n * (n - 1) // 2
        return 0 if n < 2 else round(n * math.log(n) / self.unit)

    def of(self, counts: Sequence[int]) -> int:
        """The statistic of a table (or of a list of sizes), from its cell counts."""
        return sum(self.cell(int(c)) for c in counts)


def statistic(kind: str, n: int) -> Statistic:
    """The statistic of tables of ``n`` elements."""
    if kind == PAIRS:
        return Statistic(PAIRS, 1.0, 0)
    scale = max(1.0, n * math.log(n)) if n > 1 else 1.0
    return Statistic(ENTROPY, _ENTROPY_UNIT * scale, _ENTROPY_TIE)


class TooLarge(Exception):
    """The sum cannot be done within int64 keys (``work``: the plan's)."""

    def __init__(self, work: int) -> None:
        super().__init__(work)
        self.work = work


def _logaddexp(a: float, b: float) -> float:
    if a < b:
        a, b = b, a
    if b == -math.inf:
        return a
    return a + math.log1p(math.exp(b - a))


def _logsumexp(values: Sequence[float]) -> float:
    if not values:
        return -math.inf
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(math.fsum(math.exp(v - top) for v in values))


# Rows of one cross product (partial tables times fillings of a column) built at once.
_CHUNK = 1 << 20
# The largest mixed-radix code of a usage vector (prod of (a_i + 1)) kept in int64.
_MAX_CODE = 2**62


@dataclass(frozen=True)
class Plan:
    """How :func:`log_tails` sums the tables with row sums ``rows`` and column sums ``cols``:
    the columns split in two halves, each summed by a network, and the work (partial tables
    generated) that bounds its cost, known before anything is built."""

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    halves: tuple[tuple[int, ...], tuple[int, ...]]
    work: int


def _count_fillings(total: int, caps: Sequence[int]) -> int:
    """How many x >= 0 with x_i <= caps_i and sum x = total (the coefficient of z^total in
    prod (1 + z + ... + z^cap)), by prefix sums over the rows."""
    ways = [1] + [0] * total
    for cap in caps:
        prefix = list(itertools.accumulate(ways, initial=0))
        ways = [prefix[s + 1] - prefix[max(0, s - cap)] for s in range(total + 1)]
    return ways[total]


# Up to this many columns every split in two halves is tried; beyond, a greedy split.
_SPLIT_ALL = 10


def plan(rows: Sequence[int], cols: Sequence[int], stat: Statistic) -> Plan:
    """The plan of the sum and its work, counted without building a table (microseconds to
    milliseconds): the side with fewer clusters is the rows; the columns are split in two
    halves, the split of least work among all (up to ``_SPLIT_ALL`` columns; else greedy:
    largest first to the half of smaller product of fillings)."""
    rows_, cols_ = _oriented(rows, cols)
    fills = {b: _count_fillings(b, rows_) for b in set(cols_)}
    if len(cols_) <= _SPLIT_ALL:
        splits = [
            [b for i, b in enumerate(cols_) if mask >> i & 1] for mask in range(2 ** len(cols_))
        ]
    else:
        half: list[int] = []
        products = [1, 1]
        for b in sorted(cols_, key=lambda b: -fills[b]):
            side = 0 if products[0] <= products[1] else 1
            if side == 0:
                half.append(b)
            products[side] *= fills[b]
        splits = [half]
    best: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
    for first in splits:
        second = list(cols_)
        for b in first:
            second.remove(b)
        work = _half_work(rows_, first, fills, stat) + _half_work(rows_, second, fills, stat)
        if best is None or work < best[0]:
            best = (work, _by_fills(first, fills), _by_fills(second, fills))
    assert best is not None
    return Plan(tuple(rows_), tuple(cols_), (best[1], best[2]), best[0])


def _by_fills(half: Sequence[int], fills: dict[int, int]) -> tuple[int, ...]:
    return tuple(sorted(half, key=lambda b: (fills[b], b)))


def _half_work(rows: Sequence[int], half: Sequence[int], fills: dict[int, int],
               stat: Statistic) -> int:  # fmt: skip
    """The partial tables a half generates: the sum over its columns (fewest fillings first)
    of (partial tables) x (fillings), the partial tables bounded by the product of fillings
    and, for the integer pair count, by (usage vectors) x (values of the statistic); plus the
    join's reading of the last level."""
    work, level, placed, top = 0, 1, 0, 0
    for b in _by_fills(half, fills):
        work += level * fills[b]
        placed += b
        level *= fills[b]
        if stat.kind == PAIRS:
            top += stat.cell(b)
            states = math.prod(min(a, placed) + 1 for a in rows)
            level = min(level, states * (top + 1))
    return work + level


def _fillings(total: int, caps: Sequence[int]) -> NDArray[np.int64]:
    """Every x >= 0 with x_i <= caps_i and sum x = total, as rows of an array."""
    size = len(caps)
    after = [sum(caps[i + 1 :]) for i in range(size)]
    parts = np.zeros((1, 0), dtype=np.int64)
    used = np.zeros(1, dtype=np.int64)
    for i in range(size - 1):
        low = np.maximum(0, total - used - after[i])
        high = np.minimum(caps[i], total - used)
        counts = np.maximum(high - low + 1, 0)
        parent = np.repeat(np.arange(used.size), counts)
        offset = np.arange(parent.size) - np.repeat(np.cumsum(counts) - counts, counts)
        value = low[parent] + offset
        parts = np.concatenate([parts[parent], value[:, None]], axis=1)
        used = used[parent] + value
    return np.concatenate([parts, (total - used)[:, None]], axis=1)


@dataclass
class _Level:
    """Partial tables of some columns merged by (usage vector, statistic): the rows' used
    counts, the statistic as an integer, and log of the sum of prod 1/n_ij! over the merged
    tables minus ``shift`` (kept near 0)."""

    usage: NDArray[np.int64]
    key: NDArray[np.int64]
    logw: NDArray[np.float64]
    shift: float


def _half(rows: tuple[int, ...], cols: Sequence[int], f: NDArray[np.int64],
          log_fact: NDArray[np.float64]) -> _Level:  # fmt: skip
    """Every partial table of the columns ``cols`` whose row sums stay within ``rows``, merged
    column by column (a network: equal (usage, statistic) are one node)."""
    caps = np.asarray(rows, dtype=np.int64)
    radix = np.cumprod([1, *(caps[:-1] + 1)]).astype(np.int64)
    level = _Level(np.zeros((1, caps.size), dtype=np.int64), np.zeros(1, dtype=np.int64),
                   np.zeros(1), 0.0)  # fmt: skip
    for b in cols:
        fill = _fillings(b, rows)
        gain = f[fill].sum(axis=1)
        weight = -log_fact[fill].sum(axis=1)
        top = float(weight.max())
        weight -= top
        chunk = max(1, _CHUNK // fill.shape[0])
        usage, key, logw = [], [], []
        for start in range(0, level.key.size, chunk):
            stop = start + chunk
            both = level.usage[start:stop, None, :] + fill[None, :, :]
            node, move = np.nonzero((both <= caps).all(axis=2))
            usage.append(both[node, move])
            key.append(level.key[start:stop][node] + gain[move])
            logw.append(level.logw[start:stop][node] + weight[move])
        level = _merge(np.concatenate(usage), np.concatenate(key), np.concatenate(logw),
                       level.shift + top, radix)  # fmt: skip
    return level


def _column_max(f: Sequence[int], caps: Sequence[int], total: int) -> int:
    """max sum f(x_i) over x <= caps, sum x = total, for convex f: fill the largest caps
    first (that vector majorizes every other; sum f is Schur-convex)."""
    out = 0
    for cap in sorted(caps, reverse=True):
        take = min(cap, total)
        out += f[take]
        total -= take
        if total == 0:
            break
    return out


def _column_min(f: Sequence[int], caps: Sequence[int], total: int) -> int:
    """min sum f(x_i) over x <= caps, sum x = total, for convex f: as even as the caps allow
    (water filling; that vector is majorized by every other)."""
    ordered = sorted(caps)
    out, left = 0, len(ordered)
    for index, cap in enumerate(ordered):
        share = total // left
        if cap <= share:
            out += f[cap]
            total -= cap
            left -= 1
            continue
        extra = total - share * left  # this many of the rest get share + 1
        rest = len(ordered) - index
        return out + extra * f[share + 1] + (rest - extra) * f[share]
    return out


def _merge(usage: NDArray[np.int64], key: NDArray[np.int64], logw: NDArray[np.float64],
           shift: float, radix: NDArray[np.int64]) -> _Level:  # fmt: skip
    """One node per (usage, statistic), sorted by (usage code, statistic): the weights summed
    (max + log sum exp, per node)."""
    code = usage @ radix
    top_key = int(key.max()) + 1
    if (int(code.max()) + 1) * top_key < _MAX_CODE:  # one int64 sort key
        order = np.argsort(code * top_key + key, kind="stable")
    else:
        order = np.lexsort((key, code))
    code, key, logw = code[order], key[order], logw[order]
    new = np.ones(code.size, dtype=bool)
    new[1:] = (code[1:] != code[:-1]) | (key[1:] != key[:-1])
    starts = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    top = np.maximum.reduceat(logw, starts)
    merged = top + np.log(np.add.reduceat(np.exp(logw - top[group]), starts))
    peak = float(merged.max())
    return _Level(usage[order[starts]], key[starts], merged - peak, shift + peak)


def _segment_cumulative(values: NDArray[np.float64], starts: NDArray[np.int64],
                        lengths: NDArray[np.int64], backward: bool) -> NDArray[np.float64]:  # fmt: skip
    """log of the running sums of exp(values) within each segment (from its start, or from
    its end when ``backward``), each segment shifted by its maximum; segments of similar
    length are padded into one block (at most twice the entries)."""
    out = np.empty_like(values)
    bucket = np.ceil(np.log2(lengths)).astype(np.int64)
    for b in np.unique(bucket):
        chosen = np.flatnonzero(bucket == b)
        width = int(lengths[chosen].max())
        step = np.arange(width)
        valid = step[None, :] < lengths[chosen, None]
        if backward:
            index = starts[chosen, None] + lengths[chosen, None] - 1 - step[None, :]
        else:
            index = starts[chosen, None] + step[None, :]
        index = np.where(valid, index, starts[chosen, None])
        block = np.where(valid, values[index], -np.inf)
        top = block.max(axis=1, keepdims=True)
        running = np.logaddexp.accumulate(block - top, axis=1) + top
        out[index[valid]] = running[valid]
    return out


def log_tails(scheme: Plan, stat: Statistic, least: int, most: int) -> tuple[float, float]:
    """(log P(S >= least), log P(S <= most)) under perm, S the statistic of the table.

    Meet in the middle: the columns are split in two halves (:func:`plan`); each half's
    partial tables are summed by a network into nodes (usage of the rows, statistic). A
    table is a node of each half whose usages add up to the row sums, so for each node of
    the first half the matching nodes of the second are one group, sorted by statistic with
    running log-sums from both ends: each tail is one search per node. The caller checks
    the plan's work against its budget first; :class:`TooLarge` only where the statistic's
    range would overflow the search's int64 keys.
    """
    rows_ = scheme.rows
    f, log_fact = _tables(stat, sum(rows_))
    left = _half(rows_, scheme.halves[0], f, log_fact)
    same = sorted(scheme.halves[0]) == sorted(scheme.halves[1])
    right = left if same else _half(rows_, scheme.halves[1], f, log_fact)
    upper, lower = _join(rows_, left, right, least, most)
    constant = _constant(rows_, scheme.cols, log_fact) + right.shift
    return min(0.0, constant + upper), min(0.0, constant + lower)


class _Network:
    """The tables with row sums ``rows`` and column sums ``cols`` (placed in this order)."""

    def __init__(self, rows: Sequence[int], cols: Sequence[int], stat: Statistic) -> None:
        self.cols = tuple(cols)
        self.rows = tuple(sorted(rows))
        top = max(max(rows), max(cols))
        self.f = [stat.cell(n) for n in range(top + 1)]
        # Rounded n ln n is convex only to half a unit: the bounds widen by one unit a cell.
        self.slack = 0 if stat.kind == PAIRS else 1
        self.log_fact = [math.lgamma(n + 1) for n in range(sum(rows) + 1)]
        # log of prod a_i! prod b_j! / N!: the law's constant.
        self.constant = (
            sum(self.log_fact[a] for a in rows)
            + sum(self.log_fact[b] for b in cols)
            - self.log_fact[sum(rows)]
        )
        self._bound_cache: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        self._moves: dict[tuple[tuple[int, ...], int], list[tuple[tuple[int, ...], int, float]]]
        self._moves = {}

    def bounds(self, state: tuple[int, ...], j: int) -> tuple[int, int]:
        """(lower, upper) bounds of the statistic of the columns j.. given the rows'
        remaining capacities ``state``: the tighter of the columns' and the rows'
        relaxations (each drops the other side's sums, keeping them as caps)."""
        key = (state, j)
        found = self._bound_cache.get(key)
        if found is not None:
            return found
        rest = self.cols[j:]
        if not rest:
            result = (0, 0)
        else:
            f = self.f
            low = max(sum(_column_min(f, state, b) for b in rest),
                      sum(_column_min(f, rest, s) for s in state if s))  # fmt: skip
            high = min(sum(_column_max(f, state, b) for b in rest),
                       sum(_column_max(f, rest, s) for s in state if s))  # fmt: skip
            cells = self.slack * len(rest) * len(state)
            result = (low - cells, high + cells)
        self._bound_cache[key] = result
        return result

    def log_weight(self, state: tuple[int, ...], j: int) -> float:
        """log of the sum of prod 1/n_ij! over the completions: M! / (prod s_i! prod b_k!)."""
        lf = self.log_fact
        return lf[sum(state)] - sum(lf[s] for s in state) - sum(lf[b] for b in self.cols[j:])

    def moves(self, state: tuple[int, ...], j: int) -> list[tuple[tuple[int, ...], int, float]]:
        """Every filling x of column j (x_i <= state_i): (next state, sum f(x), -sum ln x_i!)."""
        key = (state, j)
        found = self._moves.get(key)
        if found is not None:
            return found
        f, lf = self.f, self.log_fact
        out: list[tuple[tuple[int, ...], int, float]] = []
        size = len(state)
        tail_caps = [sum(state[i:]) for i in range(size)] + [0]

        def place(i: int, left: int, x: list[int]) -> None:
            if i == size - 1:
                if left <= state[i]:
                    filled = [*x, left]
                    nxt = tuple(sorted(s - v for s, v in zip(state, filled, strict=True)))
                    out.append((nxt, sum(f[v] for v in filled), -sum(lf[v] for v in filled)))
                return
            low = max(0, left - tail_caps[i + 1])
            for v in range(low, min(state[i], left) + 1):
                x.append(v)
                place(i + 1, left - v, x)
                x.pop()

        place(0, self.cols[j], [])
        self._moves[key] = out
        return out


def log_tail(
    rows: Sequence[int],
    cols: Sequence[int],
    stat: Statistic,
    threshold: int,
    greater: bool,
    budget: int,
) -> tuple[float, int]:
    """log P(S >= threshold) (``greater``) or log P(S <= threshold) under perm, and the
    steps used; raises :class:`TooLarge` past ``budget`` steps (one step: one filling of a
    column from one node)."""
    rows_, cols_ = _oriented(rows, cols)
    net = _Network(rows_, cols_, stat)
    sign = 1 if greater else -1
    inside: list[float] = []
    level: dict[tuple[tuple[int, ...], int], float] = {(net.rows, 0): 0.0}
    steps = 0
    for j in range(len(net.cols)):
        nxt: dict[tuple[tuple[int, ...], int], float] = {}
        for (state, key), weight in level.items():
            if (state, j) not in net._moves:  # count the fillings before enumerating them
                bound = math.prod(min(v, net.cols[j]) + 1 for v in state[:-1])
                if steps + bound > budget and steps + _count_fillings(net.cols[j], state) > budget:
                    raise TooLarge(steps + bound)
            moves = net.moves(state, j)
            steps += len(moves)
            if steps > budget:
                raise TooLarge(steps)
            for new_state, gain, log_w in moves:
                new_key = key + gain
                low, high = net.bounds(new_state, j + 1)
                if greater:
                    least, most = new_key + low, new_key + high
                else:
                    least, most = -(new_key + high), -(new_key + low)
                if least >= sign * threshold:  # every completion is inside the tail
                    inside.append(weight + log_w + net.log_weight(new_state, j + 1))
                elif most >= sign * threshold:  # some are: keep the node
                    node = (new_state, new_key)
                    held = nxt.get(node)
                    total = weight + log_w
                    nxt[node] = total if held is None else _logaddexp(held, total)
        level = nxt
    if level:
        raise InternalError("open nodes after the last column of the exact null")
    return min(0.0, net.constant + _logsumexp(inside)), steps


def _tables(stat: Statistic, n: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """The statistic of a cell and ln n! for n = 0..N."""
    f = np.array([stat.cell(v) for v in range(n + 1)], dtype=np.int64)
    return f, np.array([math.lgamma(v + 1) for v in range(n + 1)])


def _constant(rows: Sequence[int], cols: Sequence[int], log_fact: NDArray[np.float64]) -> float:
    """log of prod a_i! prod b_j! / N!, the law's constant."""
    return float(log_fact[list(rows)].sum() + log_fact[list(cols)].sum() - log_fact[sum(rows)])


def _join(rows: tuple[int, ...], left: _Level, right: _Level, least: int,
          most: int) -> tuple[float, float]:  # fmt: skip
    """log of the weight of the tables with S >= least and with S <= most made of a node of
    ``left`` and one of ``right`` (sorted by usage code, then statistic, as _merge leaves it)
    whose usages add up to ``rows``; the shift of ``left`` included, that of ``right`` not."""
    caps = np.asarray(rows, dtype=np.int64)
    radix = np.cumprod([1, *(caps[:-1] + 1)]).astype(np.int64)
    code, key, logw = right.usage @ radix, right.key, right.logw
    new = np.ones(code.size, dtype=bool)
    new[1:] = code[1:] != code[:-1]
    starts = np.flatnonzero(new)
    lengths = np.diff(np.append(starts, code.size))
    prefix = _segment_cumulative(logw, starts, lengths, backward=False)
    suffix = _segment_cumulative(logw, starts, lengths, backward=True)
    # Each first-half node's group: the usage that completes its rows.
    wanted = (caps - left.usage) @ radix
    group = np.minimum(np.searchsorted(code[starts], wanted), starts.size - 1)
    if not np.array_equal(code[starts][group], wanted):
        raise InternalError("a node of the exact null's first half has no completion")
    # Keys made increasing across groups: key - lowest + offset of the group; a target is
    # clipped to just outside its group's range, so one search stays within the group.
    lowest = key[starts]
    span = key[starts + lengths - 1] - lowest + 2
    if int(span.astype(object).sum()) >= _MAX_CODE:
        raise TooLarge(int(code.size))
    offset = np.cumsum(span) - span
    flat = key - np.repeat(lowest, lengths) + np.repeat(offset, lengths)

    def position(target: NDArray[np.int64], side: Literal["left", "right"]) -> NDArray[np.int64]:
        inside = np.clip(target - lowest[group], -1, span[group] - 1) + offset[group]
        return np.searchsorted(flat, inside, side=side)

    first = position(least - left.key, "left")  # first key >= least - k
    last = position(most - left.key, "right") - 1  # last key <= most - k
    end = starts[group] + lengths[group]
    upper = np.where(first < end, left.logw + suffix[np.minimum(first, code.size - 1)], -np.inf)
    lower = np.where(last >= starts[group], left.logw + prefix[np.maximum(last, 0)], -np.inf)
    return _log_total(upper) + left.shift, _log_total(lower) + left.shift


def _log_total(values: NDArray[np.float64]) -> float:
    """log sum exp(values) (-inf for none)."""
    top = float(values.max(initial=-np.inf))
    if top == -math.inf:
        return top
    return top + math.log(float(np.exp(values - top).sum()))


def law(rows: Sequence[int], cols: Sequence[int], stat: Statistic) -> dict[int, float]:
    """The whole law of S under perm: {value: log probability} (one network over every
    column; for tests and the study)."""
    rows_, cols_ = _oriented(rows, cols)
    f, log_fact = _tables(stat, sum(rows_))
    level = _half(tuple(rows_), cols_, f, log_fact)
    constant = _constant(rows_, cols_, log_fact) + level.shift
    return {int(k): constant + float(w) for k, w in zip(level.key, level.logw, strict=True)}


def _oriented(rows: Sequence[int], cols: Sequence[int]) -> tuple[list[int], list[int]]:
    """Fewer rows than columns (a column's fillings are compositions into the rows), the
    empty clusters dropped."""
    rows, cols = [int(a) for a in rows if a], [int(b) for b in cols if b]
    if len(rows) > len(cols):
        rows, cols = cols, rows
    return rows, sorted(cols)


def size_sequences(n: int, k: int | None) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every multiset of cluster sizes of N elements (exactly ``k`` clusters, or any number
    for None) with the log of its probability under the uniform law on clusterings:
    N! / (prod s_i! prod m_v!) clusterings have those sizes (m_v: how many sizes equal v)."""
    found = list(_partitions(n, n if k is None else k, k is not None))
    logs = []
    for sizes in found:
        counts: dict[int, int] = {}
        for s in sizes:
            counts[s] = counts.get(s, 0) + 1
        logs.append(
            math.lgamma(n + 1)
            - sum(math.lgamma(s + 1) for s in sizes)
            - sum(math.lgamma(m + 1) for m in counts.values())
        )
    total = _logsumexp(logs)
    for sizes, log_count in zip(found, logs, strict=True):
        yield sizes, log_count - total


@lru_cache(maxsize=64)
def _partitions(n: int, parts: int, exact: bool) -> tuple[tuple[int, ...], ...]:
    """Integer partitions of n (non-increasing) into exactly (``exact``) or at most
    ``parts`` parts."""
    out: list[tuple[int, ...]] = []

    def grow(left: int, largest: int, prefix: list[int]) -> None:
        if left == 0:
            if not exact or len(prefix) == parts:
                out.append(tuple(prefix))
            return
        if len(prefix) == parts:
            return
        for v in range(min(left, largest), 0, -1):
            prefix.append(v)
            grow(left - v, v, prefix)
            prefix.pop()

    grow(n, n, [])
    return tuple(out)
