"""Exact null laws of the Rand index and mutual information: tails summed over tables.

Under perm (both margins fixed) the contingency table of two random clusterings follows the
Fisher-Freeman-Halton law P(n) = prod a_i! prod b_j! / (N! prod n_ij!), and every named
measure is a monotone function of one of two statistics given the margins:

* ``PAIRS``: n11 = sum C(n_ij, 2), an exact integer (RI, ARI, SRI, FMI, Jaccard);
* ``ENTROPY``: T = sum n_ij ln n_ij (MI, NMI, AMI, SMI, VI), as an integer in units of
  ``unit`` = 2^-40 max(1, N ln N), each cell's n ln n rounded to the unit, so that sums are
  exact and the same in every order.

:func:`log_tail` sums the law over the tables at least (or at most) as extreme as a
threshold, column by column (a network algorithm, Mehta and Patel 1983): a node is the
multiset of the rows' remaining capacities with the statistic of the columns placed so far;
equal nodes merge, and a node whose every completion lies inside the tail (or outside it) by
the bounds of ``_Network.bounds`` is closed at once with its total weight (or dropped).
Probabilities are summed in log space. :func:`size_sequences` gives the law of a side's
cluster sizes under num and all, for the exact mixtures of those models.

Formula and accuracy: docs/math.md#math-exact-null.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

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
    """The sum would take more than its budget of steps (``steps`` is how many were used)."""

    def __init__(self, steps: int) -> None:
        super().__init__(steps)
        self.steps = steps


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
    rows, cols = _oriented(rows, cols)
    net = _Network(rows, cols, stat)
    sign = 1 if greater else -1
    inside: list[float] = []
    level: dict[tuple[tuple[int, ...], int], float] = {(net.rows, 0): 0.0}
    steps = 0
    for j in range(len(net.cols)):
        nxt: dict[tuple[tuple[int, ...], int], float] = {}
        for (state, key), weight in level.items():
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


def law(rows: Sequence[int], cols: Sequence[int], stat: Statistic) -> dict[int, float]:
    """The whole law of S under perm: {value: log probability} (no pruning; for tests and
    the study)."""
    rows, cols = _oriented(rows, cols)
    net = _Network(rows, cols, stat)
    level: dict[tuple[tuple[int, ...], int], float] = {(net.rows, 0): 0.0}
    for j in range(len(net.cols)):
        nxt: dict[tuple[tuple[int, ...], int], float] = {}
        for (state, key), weight in level.items():
            for new_state, gain, log_w in net.moves(state, j):
                node = (new_state, key + gain)
                held = nxt.get(node)
                nxt[node] = weight + log_w if held is None else _logaddexp(held, weight + log_w)
        level = nxt
    return {key: net.constant + w for (_, key), w in level.items()}


def _oriented(rows: Sequence[int], cols: Sequence[int]) -> tuple[list[int], list[int]]:
    """Fewer rows than columns (a column's fillings are compositions into the rows), the
    columns from smallest to largest (the last column is forced: its nodes close exactly)."""
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
