"""Null distributions, significance tests and Monte Carlo chance correction of any measure.

The null distribution of a measure s under a random model is the law of
s(A', B') when A' and B' are drawn from the model (two-sided) or when
A' = ``labels_true`` is held fixed and only B' is drawn (one-sided), with the
sizes (perm), the number of clusters (num) or only the number of elements
(all) of the observed clusterings. It is sampled exactly with
:mod:`chanceclust.samplers`.

Built-in measures (by name) depend on the contingency table alone: their null tables are
drawn from the observed table's margins where that costs less than N labels (the table
route: a drawn side's sizes, then Patefield's sampler; docs/math.md#math-significance), else
counted from drawn labels, and evaluated on whole batches of samples at once, by the same
formula functions as the single-pair measures (:mod:`chanceclust.measures`,
:mod:`chanceclust.adjusted`); labels on a device are counted there and never copied. Any
callable ``f(labels_true, labels_pred) -> float`` is accepted and called
once per sample, on int64 code arrays 0..K-1 for the observed pair and the
null samples alike. Results do not depend on the internal batch size: the samples are
drawn one after the other from ``rng``.

:func:`significance_test` with ``method="exact"`` samples nothing: for the measures that
are monotone functions of the Rand index or of mutual information given the model, its
p-value is the exact tail of the null law, summed over the contingency tables
(:mod:`chanceclust._exact_null`); ``method="gamma"`` (MI measures under perm) is the tail of
the gamma law with the exact mean and variance of MI, within the factor its study measured
(docs/math.md#math-exact-null).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._exact_null import (
    ENTROPY,
    PAIRS,
    Statistic,
    TooLarge,
    log_tail,
    log_tails,
    plan,
    size_sequences,
    statistic,
)
from chanceclust._models import Setting, Side, SizedSampler, stack_sizes
from chanceclust._registry import MEASURES as _REGISTRY
from chanceclust._tables import count_rows
from chanceclust._validation import (
    _describe,
    check_alternative,
    check_choice,
    check_count,
    check_rng,
    check_setting,
    validate_clusterings,
)
from chanceclust.contingency import Table, _table_from_codes
from chanceclust.exceptions import InternalError, InvalidInputError, UnsupportedError
from chanceclust.expectations import _expected_mutual_information, _expected_rand_index
from chanceclust.measures import (
    _exact_counts,
    _mutual_information,
    _mutual_information_from_parts,
    _mutual_information_parts,
    _mutual_information_values,
)
from chanceclust.variance import _table_mi_variance, _table_variance

__all__ = [
    "MonteCarloAdjustedResult",
    "SignificanceTestResult",
    "monte_carlo_adjusted",
    "null_distribution",
    "significance_test",
]

#: The normalization of the named NMI and AMI statistics (scikit-learn's default).
_AVERAGE_METHOD = "arithmetic"
# Elements per batch of samples: bounds the memory of the vectorized tables.
_BATCH_ELEMENTS = 1 << 20
# MI of a batch by lookup (_Batch.mi): at most this many lookup entries per non-zero cell
# (the table of (count, row size, column size) keys is scanned once per batch), and N at most
# 2**31 (products of sizes and the sums of the cells' products stay in int64).
_LOOKUP_PER_CELL = 4
_LOOKUP_MAX_N = 2**31
#: Per-sample entries (sizes, ranks) are gathered sample by sample where the cells are at
#: least this many per sample, else by one flat gather (the same integers either way).
_GATHER_BY_SAMPLE = 64
#: The table route of the null of a named measure (docs/math.md#math-significance): its
#: tables are drawn from their margins where K_A K_B * TABLE_CELL_COST (+ TABLE_CALL_COST
#: per sample where a side's sizes are drawn: scipy's call) <= N, in elements permuted and
#: counted (benchmarks/RESULTS.md, "Significance tests from the table alone" measured the ratios).
TABLE_CELL_COST = 6
TABLE_CALL_COST = 2000
#: The routes of significance_test: sampling the null law, summing it exactly, or the gamma
#: law with the exact mean and variance of MI.
METHODS = ("monte-carlo", "exact", "gamma")
#: The measures of the exact and gamma routes: each is a monotone function of the pair count
#: n11 (PAIRS) or of T = sum n_ij ln n_ij (ENTROPY) given the margins, increasing (+1) or
#: decreasing (-1). Under perm the margins are fixed, so every named measure is one.
_BASES = {
    "ri": (PAIRS, 1), "ari": (PAIRS, 1), "sri": (PAIRS, 1), "fmi": (PAIRS, 1),
    "jaccard": (PAIRS, 1), "mi": (ENTROPY, 1), "nmi": (ENTROPY, 1), "ami": (ENTROPY, 1),
    "smi": (ENTROPY, 1), "vi": (ENTROPY, -1),
}  # fmt: skip
#: Under num and all the sizes are random: the measures whose constants depend on the model
#: only (N and K), not on the sizes of each random clustering.
_ANY_MODEL = ("ri", "ari", "sri", "mi", "smi")
#: The exact route's budgets. perm: partial tables generated by the sum (counted before it
#: starts, _exact_null.plan; ~0.1 us each in numpy), then, beyond it, steps of the pruned
#: sum of each tail (one filling of a column from one node, ~2-10 us each in CPython; it
#: stops before a node whose fillings would pass it). num and all: steps of the pruned sums
#: over every pair of size sequences, the pairs, and N of a random side (its size
#: sequences are enumerated).
EXACT_MAX_WORK = 30_000_000
EXACT_MAX_PRUNED = 100_000
EXACT_MAX_STEPS = 3_000_000
EXACT_MAX_SIZE_PAIRS = 20_000
EXACT_MAX_RANDOM_N = 40
#: The exact route's relative error: the sums are of positive terms in log space (lgamma),
#: ~1e-13 measured against independent enumeration; 1e-9 is what the tests hold.
EXACT_RTOL = 1e-9
#: The gamma route: (p floor, factor): where the smaller tail is at least the floor, the
#: study (benchmarks/pvalue_study.py, benchmarks/PVALUE_STUDY.md) found the gamma p within
#: this factor of the exact p (both ways). Below the last floor the route reports a bound.
GAMMA_FACTORS: tuple[tuple[float, float], ...] = ((1e-3, 67.0), (1e-6, 59.0), (1e-12, 26.0))
# Relative tolerance for detecting numerically distinct but theoretically equal values
# (the same table summed in another order for the observed pair and a sample): null
# values within 100 eps |statistic| of the statistic count as ties, as in
# scipy.stats.permutation_test and monte_carlo_test.
_TIE = 100 * float(np.finfo(np.float64).eps)


@dataclass(frozen=True)
class MonteCarloAdjustedResult:
    """Result of :func:`monte_carlo_adjusted`.

    Formula: docs/math.md#math-significance.

    Attributes
    ----------
    value : float
        (s - E_mc[s]) / (best - E_mc[s]).
    value_stderr : float
        Monte Carlo standard error of ``value`` (delta method).
    statistic : float
        s, the measure of the observed pair.
    expected, expected_stderr : float
        E_mc[s], the mean of the null samples, and its standard error sd / sqrt(n).
    best : float
        The measure's best value s_max (1.0, 0.0 for VI, the MI bound for MI).
    n_resamples : int
        Number of values of the null distribution.

    Examples
    --------
    >>> from chanceclust import monte_carlo_adjusted
    >>> r = monte_carlo_adjusted("jaccard", [0, 0, 1, 1], [0, 0, 1, 1], model="perm",
    ...                          n_resamples=99, rng=0)
    >>> r.value, r.statistic, r.best
    (1.0, 1.0, 1.0)
    """

    value: float
    value_stderr: float
    statistic: float
    expected: float
    expected_stderr: float
    best: float
    n_resamples: int

# ----------------------------------------------------------------- batched tables


class _Batch:
    """Contingency tables of m pairs of clusterings of n elements, as non-zero cells.

    Cells are grouped by sample (``starts`` is the first cell of each sample);
    per-cell and per-sample quantities are computed on first use only.
    """

    def __init__(
        self,
        n: int,
        x: NDArray[np.int64],
        cell: NDArray[np.int64],
        n_cells: NDArray[np.int64],
        k_b: int,
        sizes_true: NDArray[np.int64],
        sizes_pred: NDArray[np.int64],
        cache: dict[Any, Any] | None = None,
    ) -> None:
        self.n = n
        self.x = x  # cell counts n_ij
        self.cell = cell  # i * k_b + j
        self.n_cells = n_cells
        self.k_b = k_b
        self.sizes_true = sizes_true  # (m or 1, K_A), zero padded
        self.sizes_pred = sizes_pred  # (m or 1, K_B)
        self.starts = np.concatenate(([0], np.cumsum(n_cells)[:-1]))
        # What batches of one null distribution share (the size-pair codes of fixed sides).
        self.cache = {} if cache is None else cache

    def per_sample(self, values: NDArray[Any]) -> NDArray[Any]:
        """Sum per-cell values by sample (every sample has at least one cell)."""
        return np.add.reduceat(values, self.starts)

    @cached_property
    def row(self) -> NDArray[np.intp]:
        """Each cell's sample: 1 at each sample's first cell but the first, summed up."""
        step = np.zeros(self.x.shape, dtype=np.intp)
        step[self.starts[1:]] = 1
        return np.cumsum(step, out=step)

    @cached_property
    def a(self) -> NDArray[np.int64]:
        return self._margin(self.sizes_true, self.cell // self.k_b)

    @cached_property
    def b(self) -> NDArray[np.int64]:
        return self._margin(self.sizes_pred, self.cell % self.k_b)

    def _margin(self, sizes: NDArray[Any], index: NDArray[np.int64]) -> NDArray[Any]:
        """Each cell's entry of a per-sample table (sizes, size ranks): ``sizes[sample or 0,
        index]``."""
        if sizes.shape[0] == 1:  # one row of sizes for every sample
            return sizes[0, index]
        if index.size < _GATHER_BY_SAMPLE * sizes.shape[0]:  # many small samples
            return sizes.ravel()[self.row * sizes.shape[1] + index]
        # Few samples of many cells (num and all at large N): one gather per sample spares
        # the cells' sample numbers and flat indices (two passes over the cells and a sum).
        out = np.empty(index.shape, dtype=sizes.dtype)
        bounds = [*self.starts.tolist(), index.size]
        for sample, (first, stop) in enumerate(pairwise(bounds)):
            sizes[sample].take(index[first:stop], out=out[first:stop], mode="clip")
        return out

    @cached_property
    def n11(self) -> NDArray[np.int64]:
        return self.per_sample(_pairs(self.x))

    @cached_property
    def q_true(self) -> NDArray[np.int64]:
        return np.broadcast_to(_pairs(self.sizes_true).sum(axis=1), self.n_cells.shape)

    @cached_property
    def q_pred(self) -> NDArray[np.int64]:
        return np.broadcast_to(_pairs(self.sizes_pred).sum(axis=1), self.n_cells.shape)

    @cached_property
    def pair_counts(self) -> tuple[NDArray[Any], ...]:
        """(n11, n10, n01, n00) of every sample, exact (see measures._exact_counts)."""
        pairs = self.n * (self.n - 1) // 2
        n10, n01 = self.q_true - self.n11, self.q_pred - self.n11
        return _exact_counts(self.n11, n10, n01, pairs - self.n11 - n10 - n01)

    @cached_property
    def mi(self) -> NDArray[np.float64]:
        looked_up = self._mi_by_lookup()
        if looked_up is not None:
            return looked_up
        return _mutual_information_values(self.x, self.a, self.b, self.n, self.starts)

    def _mi_by_lookup(self) -> NDArray[np.float64] | None:
        """MI of every sample with one bd0 per distinct (n_ij, a_i, b_j) of the batch.

        A cell's MI term depends on its count and its two sizes only, and a batch of null
        samples repeats few of those triples over many cells (the counts are small, the sizes
        few). ``_mutual_information_parts`` evaluates each distinct triple of the batch once;
        the cells gather the values and add them up per sample in the same order: the
        per-cell values, their sums and the MI are bit-identical to the evaluation on every
        cell (the deviance of a cell depends on its own triple and on the largest series
        argument of the batch, the same over the distinct triples). None where the lookup
        table would exceed ``_LOOKUP_PER_CELL`` entries per cell or N > ``_LOOKUP_MAX_N``.
        """
        n, x = self.n, self.x
        if n > _LOOKUP_MAX_N or x.size == 0:
            return None
        ranks = self._size_pair_codes()
        if ranks is None:
            return None
        code, size_a, size_b = ranks
        pairs = size_a.size * size_b.size
        entries = (int(x.max()) + 1) * pairs
        if not self._lookup_fits(entries):
            return None
        key, gathered, _ = self._buffers()
        np.multiply(x, pairs, out=key)  # int64 keys: numpy gathers by intp indices fastest
        key += code  # (n_ij, a rank, b rank) of every cell
        present = np.zeros(entries, dtype=bool)
        present[key] = True
        used = np.flatnonzero(present)
        count, pair = np.divmod(used, pairs)
        row, col = np.divmod(pair, size_b.size)
        # One definition of the terms: the same function on the distinct triples, one each.
        values, _ = _mutual_information_parts(
            count, size_a[row], size_b[col], n, np.arange(used.size)
        )
        lookup = np.empty(entries, dtype=np.float64)
        lookup[used] = values
        # Every index is in range by construction; mode="clip" lets take() write into the
        # reused buffer directly (mode="raise" gathers into a temporary first).
        deviances = self.per_sample(lookup.take(key, out=gathered, mode="clip"))
        products = np.zeros(entries, dtype=np.int64)
        products[used] = size_a[row] * size_b[col]
        # The products are gathered into the same buffer (the deviances are summed already).
        product = gathered.view(np.int64)
        covered = self.per_sample(products.take(key, out=product, mode="clip")).tolist()
        return _mutual_information_from_parts(deviances, covered, n)

    def _buffers(self) -> tuple[NDArray[Any], ...]:
        """Per-cell arrays for the lookup (int64 keys, float64 values then int64 products,
        int32 codes), reused by the batches of a null distribution: fresh ones of this size
        are faulted in page by page at every batch (15-30 % of the tables and MI, measured)."""
        size = self.x.size
        held = self.cache.get("buffers")
        if held is None or held[0].size < size:
            types = (np.int64, np.float64, np.int32)
            held = tuple(np.empty(size, dtype=t) for t in types)
            self.cache["buffers"] = held
        return tuple(b[:size] for b in held)

    def _lookup_fits(self, entries: int) -> bool:
        """Whether a lookup table of ``entries`` keys is used: its memory bounded by the
        cells', its size-pair codes int32."""
        return entries <= _LOOKUP_PER_CELL * self.x.size and entries < 2**31

    def _size_pair_codes(
        self,
    ) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]] | None:
        """Each cell's code rank(a_i) * D_B + rank(b_j) among the distinct sizes of each side
        in the batch, and those sizes (D_A and D_B of them); None where they do not fit."""
        fixed = self.sizes_true.shape[0] == 1 and self.sizes_pred.shape[0] == 1
        tag = (self.k_b, self.sizes_true.tobytes(), self.sizes_pred.tobytes()) if fixed else None
        if fixed and tag in self.cache:
            table, size_a, size_b = self.cache[tag]
            return table.take(self.cell, out=self._buffers()[2], mode="clip"), size_a, size_b
        size_a, rank_a = np.unique(self.sizes_true, return_inverse=True)
        size_b, rank_b = np.unique(self.sizes_pred, return_inverse=True)
        if not self._lookup_fits(2 * size_a.size * size_b.size):  # counts >= 1: 2 D_A D_B
            return None
        # int32 codes: D_A D_B < 2**30 (checked above).
        rank_a = rank_a.reshape(self.sizes_true.shape).astype(np.int32)
        rank_b = rank_b.reshape(self.sizes_pred.shape).astype(np.int32)
        if fixed and rank_a.size * rank_b.size <= _LOOKUP_PER_CELL * self.x.size:
            # One code per possible cell, shared by the batches of a null distribution.
            table = (rank_a[0][:, None] * np.int32(size_b.size) + rank_b[0][None, :]).ravel()
            self.cache[tag] = (table, size_a, size_b)
            return table.take(self.cell, out=self._buffers()[2], mode="clip"), size_a, size_b
        # Per-row sizes (num, all): each cell's row and column labels; a side with one
        # distinct size adds nothing to the codes.
        label = self.cell // self.k_b
        code = np.zeros(self.x.size, dtype=np.int32)
        if size_b.size > 1:
            column = label * self.k_b
            np.subtract(self.cell, column, out=column)  # the column labels j
            code += self._margin(rank_b, column)
        if size_a.size > 1:
            code += self._margin(rank_a, label) * np.int32(size_b.size)
        return code, size_a, size_b

    @cached_property
    def k_true(self) -> NDArray[np.int64]:
        return np.broadcast_to((self.sizes_true > 0).sum(axis=1), self.n_cells.shape)

    @cached_property
    def k_pred(self) -> NDArray[np.int64]:
        return np.broadcast_to((self.sizes_pred > 0).sum(axis=1), self.n_cells.shape)


def _row_sizes(labels: NDArray[Any], k: int) -> NDArray[np.int64]:
    rows = labels.shape[0]
    offsets = (np.arange(rows, dtype=labels.dtype) * k)[:, None]
    return np.bincount((labels + offsets).ravel(), minlength=rows * k).reshape(rows, k)


def _pairs(values: NDArray[np.int64]) -> NDArray[np.int64]:
    return values * (values - 1) // 2


def _batch_tables(
    labels_true: NDArray[np.int64],
    labels_pred: NDArray[np.int64],
    fixed_pred: bool = False,
    cache: dict[Any, Any] | None = None,
    sizes_true: NDArray[np.int64] | None = None,
    sizes_pred: NDArray[np.int64] | None = None,
) -> _Batch:
    """Tables of (labels_true[i or 0], labels_pred[i]) for every row i, vectorized.

    ``fixed_pred``: every row of ``labels_pred`` has the sizes of its first (perm draws),
    which are then tallied once. ``cache``: shared by the batches of one null distribution.
    ``sizes_true``/``sizes_pred``: the rows' sizes by label where the draws gave them
    (num, all: every label 0..K-1 of a row used, zero padded), the tally of the labels
    otherwise (the same integers: not tallied again).
    """
    m, n = labels_pred.shape
    if sizes_true is None:
        k_a = int(labels_true.max()) + 1
    else:
        k_a = sizes_true.shape[1]
    if sizes_pred is None:
        k_b = int((labels_pred[:1] if fixed_pred else labels_pred).max()) + 1
    else:
        k_b = sizes_pred.shape[1]
    cells = k_a * k_b
    # 32-bit keys halve the memory traffic when they fit.
    dtype = np.int32 if max(m * cells, m * n) < 2**31 else np.int64
    labels_true = labels_true.astype(dtype, copy=False)
    labels_pred = labels_pred.astype(dtype, copy=False)
    if sizes_true is None:
        sizes_true = _row_sizes(labels_true, k_a)
    if sizes_pred is None:
        sizes_pred = _row_sizes(labels_pred[:1] if fixed_pred else labels_pred, k_b)
    keys = labels_true * dtype(k_b) + labels_pred  # broadcasts a fixed reference row
    n_cells, cell, x = count_rows(keys, cells)
    return _Batch(n, x, cell, n_cells, k_b, sizes_true, sizes_pred, cache)


# ----------------------------------------------------------------- sampling


def _check_measure(measure: Any) -> str | Callable[[Any, Any], float]:
    if isinstance(measure, str):
        name = measure.lower()
        if name in _REGISTRY:
            return name
    elif callable(measure):
        return measure
    raise InvalidInputError(
        f"`measure` must be one of {', '.join(repr(m) for m in _REGISTRY)} or a callable "
        f"f(labels_true, labels_pred) -> float; got {_describe(measure)}."
    )


@dataclass(frozen=True)
class _Setup:
    measure: str | Callable[[Any, Any], float]
    #: A callable's observed codes, on the host; None for a named measure, whose null law
    #: depends on the observed table alone (the labels stay where they are).
    codes_true: NDArray[np.integer] | None
    codes_pred: NDArray[np.integer] | None
    table: Table
    setting: Setting
    sides: tuple[Side, Side]
    statistic: float
    evaluate: Callable[[_Batch], NDArray[np.float64]] | None

    def reference_codes(self) -> NDArray[np.integer]:
        """The codes of a ``labels_true`` that the draws keep (perm, one-sided): a callable's
        own; for a named measure, the labels 0..K_A-1 repeated by size, a clustering of the
        same table law (the drawn side is exchangeable: docs/math.md#math-models)."""
        if self.codes_true is not None:
            return self.codes_true
        sizes = self.table.row_sums
        dtype = np.int32 if self.table.n < 2**31 else np.int64
        return np.repeat(np.arange(sizes.size, dtype=dtype), sizes)


def _setup(
    measure: Any,
    labels_true: Any,
    labels_pred: Any,
    model: Any,
    one_sided: Any,
    unassigned_label: Any = None,
    unassigned: Any = "raise",
) -> _Setup:
    measure, setting, codes_true, codes_pred, table = _observed(
        measure, labels_true, labels_pred, model, one_sided, unassigned_label, unassigned
    )
    sides = setting.sides_of_table(table)
    if isinstance(measure, str):
        evaluate = _REGISTRY[measure].batch(table, sides, _AVERAGE_METHOD)
        # The observed value goes through the same code as the samples, so that
        # equal tables give equal values up to the summation order.
        statistic = float(evaluate(_table_batch(table))[0])
    else:
        evaluate = None
        if codes_true is None or codes_pred is None:
            raise InternalError("a callable measure without its codes")
        # The callable sees what the null samples are: int64 codes of the elements kept,
        # aligned (mappings, communities) and with the unassigned policy applied.
        statistic = float(measure(_as_codes(codes_true), _as_codes(codes_pred)))
    return _Setup(measure, codes_true, codes_pred, table, setting, sides, statistic, evaluate)


def _table_batch(table: Table) -> _Batch:
    """A table as a batch of one sample: its cells in row-major order (ascending keys
    row * K_B + column), as :func:`_batch_tables` counts them from codes (the same arrays)."""
    k_b = table.col_sums.size
    keys = table.rows.astype(np.int64) * k_b + table.cols
    counts = table.counts
    if table.column_major:
        order = np.argsort(keys, kind="stable")
        keys, counts = keys[order], counts[order]
    n_cells = np.array([keys.size], dtype=np.intp)
    return _Batch(table.n, counts, keys, n_cells, k_b, table.row_sums[None], table.col_sums[None])


def _observed(
    measure: Any,
    labels_true: Any,
    labels_pred: Any,
    model: Any,
    one_sided: Any,
    unassigned_label: Any,
    unassigned: Any,
) -> tuple[Any, Setting, NDArray[np.integer] | None, NDArray[np.integer] | None, Table]:
    """The checked measure and setting, the observed codes and table.

    A named measure needs the table only: labels of another array library are counted where
    they are (no codes come back: None, None). A callable's codes come to the host (int32
    or int64), where it is called on them and on the null samples."""
    measure = _check_measure(measure)
    setting = check_setting(model, one_sided)
    named = isinstance(measure, str)
    clusterings = validate_clusterings(
        labels_true, labels_pred, unassigned_label=unassigned_label, unassigned=unassigned,
        on_device=named,
    )
    codes_true, k_true = clusterings.codes_true, clusterings.k_true
    codes_pred, k_pred = clusterings.codes_pred, clusterings.k_pred
    del clusterings
    n_elements = int(codes_true.shape[0])
    if n_elements == 0:
        raise InvalidInputError(
            "`labels_true` and `labels_pred` must label at least one element; got 0."
        )
    table = _table_from_codes(codes_true, k_true, codes_pred, k_pred)
    if named:
        return measure, setting, None, None, table
    codes_true = codes_true.astype(np.int32 if n_elements < 2**31 else np.int64)
    codes_pred = codes_pred.astype(codes_true.dtype)
    return measure, setting, codes_true, codes_pred, table


def _as_codes(row: NDArray[np.integer]) -> NDArray[np.int64]:
    """What a callable measure receives: a fresh 1-D int64 array of codes 0..K-1."""
    return np.array(row, dtype=np.int64)


def _sized_samplers(s: _Setup) -> tuple[SizedSampler | None, SizedSampler]:
    """Samplers of the two sides (None for a side that is not drawn), each draw with its
    sizes (each side's ``sized_sampler``)."""
    side_true, side_pred = s.sides
    # Named measures depend on the table only, whose law with both sizes fixed (perm) is
    # the same with labels_true fixed (docs/math.md#math-models): skip drawing it.
    # Callables get both, but for a one-sided reference.
    fixed_true = s.setting.one_sided or (side_true.sizes_given and s.evaluate is not None)
    return (None if fixed_true else side_true.sized_sampler()), side_pred.sized_sampler()


def _null(
    s: _Setup,
    n_resamples: int,
    gen: np.random.Generator,
    batch: int | None,
    progress: Callable[[int, int], None] | None = None,
) -> NDArray:
    if _draws_tables(s):
        return _null_of_tables(s, n_resamples, gen, batch, progress)
    n = s.table.n
    draw_true, draw_pred = _sized_samplers(s)
    if batch is None:
        batch = max(1, _BATCH_ELEMENTS // n)
    out = np.empty(n_resamples, dtype=np.float64)
    cache: dict[Any, Any] = {}
    held: dict[str, NDArray[np.integer]] = {}
    reference = s.reference_codes() if draw_true is None else None

    def rows(name: str, m: int, dtype: type) -> NDArray[np.integer]:
        """m rows of n labels, the same memory batch after batch (fresh rows are faulted in
        page by page)."""
        found = held.get(name)
        if found is None or found.dtype != dtype or found.shape[0] < m:
            found = held[name] = np.empty((m, n), dtype=dtype)
        return found[:m]

    for start in range(0, n_resamples, batch):
        m = min(batch, n_resamples - start)
        # Labels are < n: 32-bit storage halves the memory traffic of the tables.
        dtype = np.int32 if m * n < 2**31 else np.int64
        preds = rows("pred", m, dtype)
        trues = reference[None] if reference is not None else rows("true", m, dtype)
        sizes_true = None
        if draw_true is None:  # the whole batch at once, as m draws one after the other
            sizes_pred = s.sides[1].draw_rows(gen, preds)
        else:
            drawn_true, drawn_pred = [], []
            for i in range(m):  # one sample after the other: results do not depend on `batch`
                trues[i], true_sizes = draw_true(gen)
                preds[i], pred_sizes = draw_pred(gen)
                drawn_true.append(true_sizes)
                drawn_pred.append(pred_sizes)
            sizes_true = stack_sizes(drawn_true)
            sizes_pred = stack_sizes(drawn_pred)
        if s.evaluate is not None:
            # perm: every drawn row has the pred side's sizes (no per-row tally needed);
            # num, all: the draws' own sizes (not tallied again).
            fixed = s.sides[1].sizes_given
            tables = _batch_tables(trues, preds, fixed, cache, sizes_true, sizes_pred)
            out[start : start + m] = s.evaluate(tables)
            del tables  # its cells are not held while the next batch is drawn and tallied
        elif callable(s.measure):
            for i in range(m):
                true = trues[i if draw_true else 0]
                out[start + i] = float(s.measure(_as_codes(true), _as_codes(preds[i])))
        else:
            raise InternalError("a named measure without its batch evaluator")
        if progress is not None:
            progress(start + m, n_resamples)
    return out


def _table_widths(s: _Setup) -> tuple[int, int, bool] | None:
    """(K_A, K_B, whether a side's sizes are drawn) of the null tables drawn from their
    margins, or None where a drawn side has no sampler of its sizes or no fixed K (all)."""
    widths = []
    drawn = False
    for side, sizes in zip(s.sides, (s.table.row_sums, s.table.col_sums), strict=True):
        if side.sizes_given:
            widths.append(int(sizes.size))
        elif side.fixed_k and side.k is not None and side.size_sampler() is not None:
            widths.append(side.k)
            drawn = True
        else:
            return None
    return widths[0], widths[1], drawn


def _draws_tables(s: _Setup) -> bool:
    """Whether the null tables of a named measure are drawn from their margins (the table
    route) rather than counted from N drawn codes: where K_A K_B cells (Patefield's sampler,
    ~100-600 ns a cell) cost less than N elements (a permutation and its count, ~25-45 ns an
    element) by the rule of docs/math.md#math-significance."""
    if s.evaluate is None:
        return False  # a callable is called on codes
    widths = _table_widths(s)
    if widths is None:
        return False
    k_a, k_b, drawn = widths
    cost = k_a * k_b * TABLE_CELL_COST + (TABLE_CALL_COST if drawn else 0)
    return cost <= s.table.n


def _null_of_tables(
    s: _Setup,
    n_resamples: int,
    gen: np.random.Generator,
    batch: int | None,
    progress: Callable[[int, int], None] | None,
) -> NDArray:
    """The null of a named measure from tables drawn from their margins, one after the other:
    a drawn side's sizes (its ``size_sampler``), then the table given both margins by
    Patefield's algorithm (scipy.stats.random_table), the law of the table of a random
    labeling given both sides' sizes (docs/math.md#math-significance)."""
    from scipy.stats import random_table  # imported on use: ~0.3 s at start-up

    widths = _table_widths(s)
    if widths is None:
        raise InternalError("the table route without the widths of its tables")
    k_a, k_b, _ = widths
    row_sums, col_sums = s.table.row_sums, s.table.col_sums
    draw_true, draw_pred = (None if side.sizes_given else side.size_sampler() for side in s.sides)
    if batch is None:
        batch = max(1, _BATCH_ELEMENTS // (k_a * k_b))
    out = np.empty(n_resamples, dtype=np.float64)
    cache: dict[Any, Any] = {}

    def table(rows: NDArray[np.int64], cols: NDArray[np.int64], size: int) -> NDArray[np.int64]:
        if rows.size == 1 or cols.size == 1:  # one table: scipy 1.17's Patefield returns
            # wrong cells for a single row or column (e.g. [[-33]] for [8], [8])
            only = cols[None, :] if rows.size == 1 else rows[:, None]
            return np.broadcast_to(only, (size, rows.size, cols.size))
        drawn = random_table.rvs(rows, cols, size=size, method="patefield", random_state=gen)
        return np.asarray(drawn, dtype=np.int64)  # (float64 tables before scipy 1.11)

    for start in range(0, n_resamples, batch):
        m = min(batch, n_resamples - start)
        if draw_true is None and draw_pred is None:  # perm: m tables of the same margins
            tables = table(row_sums, col_sums, m)
            sizes_true, sizes_pred = row_sums[None], col_sums[None]
        else:  # a random side: its sizes, then the table, one sample after the other
            tables = np.empty((m, k_a, k_b), dtype=np.int64)
            sizes_true = np.empty((m, k_a), dtype=np.int64) if draw_true else row_sums[None]
            sizes_pred = np.empty((m, k_b), dtype=np.int64) if draw_pred else col_sums[None]
            for i in range(m):
                rows = row_sums if draw_true is None else draw_true(gen)
                cols = col_sums if draw_pred is None else draw_pred(gen)
                tables[i] = table(rows, cols, 1)[0]
                if draw_true is not None:
                    sizes_true[i] = rows
                if draw_pred is not None:
                    sizes_pred[i] = cols
        flat = tables.reshape(m, k_a * k_b)
        del tables
        present = flat > 0
        cells = np.nonzero(present)[1].astype(np.int64, copy=False)
        batch_ = _Batch(s.table.n, flat[present], cells, present.sum(axis=1), k_b, sizes_true,
                        sizes_pred, cache)  # fmt: skip
        out[start : start + m] = s.evaluate(batch_)  # type: ignore[misc]
        del batch_, flat, present, cells
        if progress is not None:
            progress(start + m, n_resamples)
    return out


def _check_batch(batch: Any) -> int | None:
    return None if batch is None else check_count(batch, "batch", minimum=1)


@fill_doc
def null_distribution(
    measure: str | Callable[[Any, Any], float],
    labels_true: Any,
    labels_pred: Any,
    *,
    model: str,
    one_sided: bool = False,
    n_resamples: int = 9999,
    rng: Any = None,
    batch: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> NDArray[np.float64]:
    """Sample the null distribution of a similarity measure under a random model.

    Formula: docs/math.md#math-significance.

    Parameters
    ----------
    measure : str or callable
        One of "ri", "ari", "mi", "nmi", "ami", "fmi", "jaccard", "vi", "sri",
        "smi" (the library's measures with default options; "ari" and "ami"
        are adjusted, "sri" and "smi" standardized with the exact mean and
        variance of RI and MI under the same ``model`` and ``one_sided`` as the
        null, from the observed table's sides), or
        any callable ``f(labels_true, labels_pred) -> float``. A callable
        receives the same representation for the observed pair and for every
        null sample: two 1-D int64 numpy arrays of cluster codes 0..K-1 (the
        observed labels numbered in sorted order, as
        :func:`chanceclust.contingency_table` numbers them), never the
        original label values.
    labels_true, labels_pred : array-like of shape (n_samples,)
        The observed clusterings of the n_samples elements: they fix N and the sizes
        (perm) or the number of clusters (num) of the random clusterings.
    model : {"perm", "num", "all"}
        The random model.
    one_sided : bool, default=False
        If True, ``labels_true`` is held fixed and only ``labels_pred`` is
        resampled; otherwise both are, independently.
    n_resamples : int, default=9999
        Number of random pairs drawn, i.e. of values of the null distribution.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    batch : int, optional
        Random pairs evaluated together: memory is O(``batch`` * N), or
        O(``batch`` * K_A K_B) for tables drawn from their margins; the values do not depend
        on it.
    progress : callable, optional
        Called as ``progress(done, n_resamples)`` after each batch (e.g. a progress bar).
    %(unassigned)s

    Returns
    -------
    ndarray of shape (n_resamples,)
        The measure of each random pair.

    Notes
    -----
    Named measures depend on the table alone, whose law given both sides' sizes is the
    Fisher-Freeman-Halton law under every model: where 6 K_A K_B (+ 2000 when a side's sizes
    are drawn, num) <= N, each null table is drawn from the margins (a drawn side's sizes,
    then Patefield's sampler, O(K_A K_B)); else N labels are drawn and counted (O(N), a kept
    ``labels_true`` being its labels repeated by size; always under all, whose K varies)
    (docs/math.md#math-significance). The tables of a batch are evaluated at once by the
    formula functions the library's single-pair measures call: the values agree with them to
    the summation order of the cells (~1e-15), exactly for identical partitions and
    degenerate tables. Under perm the named measures keep ``labels_true``'s sizes even when
    two-sided, since the law of the table is the same.

    Examples
    --------
    >>> from chanceclust import null_distribution
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> null = null_distribution("ri", a, b, model="perm", n_resamples=1000, rng=0)
    >>> null.shape, round(float(null.mean()), 1)  # E[RI] = 0.56
    ((1000,), 0.6)
    """
    s = _setup(measure, labels_true, labels_pred, model, one_sided, unassigned_label, unassigned)
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    return _null(s, n_resamples, check_rng(rng), _check_batch(batch), progress)


def _pvalue(statistic: float, null: NDArray[np.float64], alternative: str) -> float:
    gamma = _TIE * abs(statistic)
    n = null.shape[0]
    # The +1 correction counts the observed value among the samples: an exact
    # p-value under the null, never 0 (Phipson & Smyth 2010, Stat. Appl. Genet.
    # Mol. Biol. 9(1):39).
    greater = (1 + int(np.count_nonzero(null >= statistic - gamma))) / (n + 1)
    less = (1 + int(np.count_nonzero(null <= statistic + gamma))) / (n + 1)
    compare = {"greater": greater, "less": less, "two-sided": min(1.0, 2.0 * min(greater, less))}
    return compare[alternative]


def _check_best(best: Any) -> float | None:
    if best is None:
        return None
    if (
        isinstance(best, bool)
        or not isinstance(best, (int, float, np.number))
        or not (math.isfinite(best))
    ):
        raise InvalidInputError(f"`best` must be a finite number; got {_describe(best)}.")
    return float(best)


@dataclass(frozen=True)
class SignificanceTestResult:
    """Result of :func:`significance_test`: the statistic, its p-value and the null sample.

    Formula: docs/math.md#math-significance.

    Attributes
    ----------
    statistic : float
        The measure of the observed pair.
    pvalue : float
        The p-value, in (0, 1] (it can underflow to 0.0 below ~1e-308 for "exact"):
        Monte Carlo with the +1 correction, exact, or the gamma route's; an upper bound
        where ``pvalue_bound``.
    null_distribution : ndarray of shape (n_resamples,)
        The measure of each random pair drawn under the null hypothesis (empty for the
        routes that sample nothing).
    alternative : str
        "greater", "less" or "two-sided".
    model : str
        The random model of the null hypothesis.
    one_sided : bool
        Whether ``labels_true`` was held fixed.
    best : float
        The measure's best value s_max, the default of :meth:`adjusted`.
    method : str
        The route of the p-value: "monte-carlo" (the null sample), "exact" (the null
        law summed over every table) or "gamma" (the gamma law with the exact mean and
        variance of MI).
    null_moments : tuple of float or None
        (mean, standard deviation) of the statistic's exact null law, for the exact
        and gamma routes where the measure is RI, MI, SRI, SMI or ARI; None otherwise.
    pvalue_factor : float or None
        The exact p-value lies within this factor of ``pvalue`` (both ways): 1 + 1e-9
        for "exact", the factor the study measured in ``pvalue``'s range for "gamma";
        None for Monte Carlo (its error is the sampling error) and for a bound.
    pvalue_bound : bool
        True where ``pvalue`` is an upper bound of the p-value, not an estimate: the
        gamma route below the range its study verified (p < ``pvalue``).

    Examples
    --------
    >>> from chanceclust import significance_test
    >>> r = significance_test("ri", [0, 0, 1, 1], [0, 0, 1, 1], model="perm",
    ...                       n_resamples=99, rng=0)
    >>> r.statistic, r.alternative, r.null_distribution.shape
    (1.0, 'greater', (99,))
    >>> round(r.null_mean, 1), r.adjusted().value  # E[RI] = 1/3 + (2/3)(2/3) = 5/9
    (0.6, 1.0)
    """

    statistic: float
    pvalue: float
    null_distribution: NDArray[np.float64]
    alternative: str
    model: str
    one_sided: bool
    best: float
    method: str = "monte-carlo"
    null_moments: tuple[float, float] | None = None
    pvalue_factor: float | None = None
    pvalue_bound: bool = False

    @property
    def null_mean(self) -> float:
        """Mean of the null distribution (a Monte Carlo estimate of E[s]; exact for the
        routes that sample nothing, NaN where they do not know it)."""
        if self.null_moments is not None:
            return self.null_moments[0]
        if self.null_distribution.size == 0:
            return math.nan
        return float(np.mean(self.null_distribution))

    @property
    def null_std(self) -> float:
        """Standard deviation of the null distribution (ddof=1; 0.0 for one value; exact
        for the routes that sample nothing, NaN where they do not know it)."""
        if self.null_moments is not None:
            return self.null_moments[1]
        null = self.null_distribution
        if null.size == 0:
            return math.nan
        return float(np.std(null, ddof=1)) if null.size > 1 else 0.0

    @property
    def zscore(self) -> float:
        """(statistic - null_mean) / null_std; 0.0 when both are equal (ties as for the
        p-value), +-inf when null_std is 0 and they differ."""
        mean, std = self.null_mean, self.null_std
        if math.isnan(mean) or math.isnan(std):  # moments unknown (exact route of FMI, ...)
            return math.nan
        diff = self.statistic - mean
        if std > 0:
            return diff / std
        tie = _TIE * max(abs(self.statistic), abs(mean))
        return 0.0 if abs(diff) <= tie else math.copysign(math.inf, diff)

    def adjusted(self, best: float | None = None) -> MonteCarloAdjustedResult:
        """The Monte Carlo chance-corrected value (s - E_mc[s]) / (best - E_mc[s]).

        E_mc[s] is the mean of this result's null distribution (no new sampling), and
        the value comes with its Monte Carlo standard error (docs/math.md#math-significance).

        Parameters
        ----------
        best : float, optional
            The measure's best value s_max; default ``self.best`` (1.0 for the bounded
            similarities and callables, 0.0 for "vi", the MI bound of the model for "mi").

        Returns
        -------
        MonteCarloAdjustedResult

        Notes
        -----
        1 means s = best, 0 means chance level; the sign is that of an agreement
        better than chance for distances too. The standard error of the value
        comes from the delta method: d value / d E = (s - best) / (best - E)^2,
        times the standard error of E_mc, sd / sqrt(n_resamples). When
        best = E_mc[s] (every sample equals the best value: a single-valued
        ensemble), the value is 1.0 if s equals it and 0.0 otherwise, with error 0.
        """
        checked = _check_best(best)
        best = self.best if checked is None else checked
        null = self.null_distribution
        n = null.size
        if self.null_distribution.size == 0:  # no sample: E[s] exact (or NaN: unknown)
            expected, stderr = self.null_mean, 0.0
        else:
            expected = float(np.mean(null))
            stderr = float(np.std(null, ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        gap = best - expected
        statistic = self.statistic
        if gap == 0.0:
            value, value_stderr = (1.0 if statistic == best else 0.0), 0.0
        else:
            value = (statistic - expected) / gap
            value_stderr = abs(statistic - best) / (gap * gap) * stderr
        return MonteCarloAdjustedResult(value, value_stderr, statistic, expected, stderr, best, n)


@fill_doc
def significance_test(
    measure: str | Callable[[Any, Any], float],
    labels_true: Any,
    labels_pred: Any,
    *,
    model: str,
    one_sided: bool = False,
    alternative: str | None = None,
    method: str = "monte-carlo",
    n_resamples: int = 9999,
    batch: int | None = None,
    rng: Any = None,
    progress: Callable[[int, int], None] | None = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> SignificanceTestResult:
    """Test of the agreement of two clusterings against a random model.

    The null hypothesis: the clusterings are random draws from ``model`` with the
    observed summaries (or only ``labels_pred`` is, when ``one_sided``). Like
    :func:`scipy.stats.monte_carlo_test`, the result holds the statistic, the p-value
    and the whole null distribution.

    Formula: docs/math.md#math-significance.

    Parameters
    ----------
    measure : str or callable
        As in :func:`null_distribution`.
    labels_true, labels_pred : array-like of shape (n_samples,)
        The observed clusterings of the n_samples elements.
    model : {"perm", "num", "all"}
        The random model of the null hypothesis.
    one_sided : bool, default=False
        If True, ``labels_true`` is a fixed reference.
    alternative : {"greater", "less", "two-sided"}, optional
        "greater": the p-value is the probability of a value at least the observed
        one; "less": at most; "two-sided": twice the smaller of the two, capped at 1.
        Default: the agreement direction of the measure, "less" for the distance
        "vi" and "greater" for the similarities and callables.
    method : {"monte-carlo", "exact", "gamma"}, default="monte-carlo"
        "monte-carlo": the p-value of ``n_resamples`` null samples. "exact": no
        sampling; the null law summed over every contingency table (the
        Fisher-Freeman-Halton law given the sizes, mixed over the sizes of a random
        side), for the measures that are monotone in RI or MI given the model: every
        named measure under perm, "ri", "ari", "sri", "mi", "smi" under num and all
        (N <= 40 for a random side); an ``InvalidInputError`` says when the sum would
        take too long. "gamma" (MI measures under perm, the alternative of agreement
        only): the right tail of the gamma law with the exact mean and variance of MI,
        within the factor ``pvalue_factor`` its study measured (up to 67, see
        docs/math.md#math-exact-null), or an upper bound (``pvalue_bound``) below the
        range it verified (p < 1e-12).
        ``n_resamples``, ``batch``, ``rng`` and ``progress`` are then not used.
    n_resamples : int, default=9999
        Number of random pairs drawn, i.e. of values of the null distribution.
    batch : int, optional
        Random pairs evaluated together: memory is O(``batch`` * N), or
        O(``batch`` * K_A K_B) for tables drawn from their margins; the result does not
        depend on it.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness: the same seed gives the same result.
    progress : callable, optional
        Called as ``progress(done, n_resamples)`` after each batch.
    %(unassigned)s

    Returns
    -------
    SignificanceTestResult
        statistic, pvalue, null_distribution (empty for "exact" and "gamma"),
        alternative, model, one_sided, best, method, null_moments, pvalue_factor
        and pvalue_bound; null_mean,
        null_std and zscore as properties; the chance-corrected value by
        :meth:`SignificanceTestResult.adjusted`.

    Notes
    -----
    p = (1 + #{null values at least as extreme}) / (n_resamples + 1)
    (Phipson and Smyth 2010): valid (P(p <= alpha) <= alpha under the null)
    and never 0, so the smallest p-value is 1 / (n_resamples + 1). Null values
    within 100 eps |statistic| of the statistic (relative, as in SciPy) count as ties.
    Cost: O(N), or O(K_A K_B) where smaller, per random pair (:func:`null_distribution`); the
    smallest attainable p-value, 1 / (n_resamples + 1), sets how many are needed.

    The exact route: P(S >= s) ("greater"), P(S <= s) ("less") or
    min(1, 2 min(P(S >= s), P(S <= s))) ("two-sided") for S the pair count n11
    (RI family) or T = sum n_ij ln n_ij (MI family), summed in log space by a
    network over the columns met in the middle (docs/math.md#math-exact-null). Ties of
    T within 3.7e-9 N ln N count as equal. Cost: the work is counted before the sum (a refusal
    takes milliseconds); every 3 x 4 table at N = 200 and 2 x 2 table up to N = 10^4 is
    within the budget (at most ~1.5 s of CPU); beyond it, extreme tables are still summed
    with pruning. Under perm two-sided and one-sided are the same law.

    References
    ----------
    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be
    zero. Stat. Appl. Genet. Mol. Biol. 9(1):39.

    Examples
    --------
    >>> from chanceclust import significance_test
    >>> a = [0] * 10 + [1] * 10 + [2] * 10
    >>> b = [0] * 9 + [1] * 11 + [2] * 10
    >>> result = significance_test("ari", a, b, model="perm", n_resamples=999, rng=0)
    >>> result.pvalue  # no random pair beat the observed ARI: 1 / (999 + 1)
    0.001
    >>> significance_test("vi", a, b, model="perm", n_resamples=99, rng=0).alternative
    'less'
    >>> exact = significance_test("sri", a, b, model="perm", method="exact")
    >>> exact.method, exact.null_distribution.size, round(exact.statistic, 3)
    ('exact', 0, 18.145)
    >>> f"{exact.pvalue:.3g}", exact.pvalue_factor  # exact to 1e-9 relative
    ('1.19e-11', 1.000000001)
    """
    if alternative is not None:
        alternative = check_alternative(alternative)
    method = check_choice(method, "method", METHODS)
    if method != "monte-carlo":
        return _analytic_test(measure, labels_true, labels_pred, model, one_sided,
                              alternative, method, unassigned_label, unassigned)  # fmt: skip
    s = _setup(measure, labels_true, labels_pred, model, one_sided, unassigned_label, unassigned)
    if alternative is None:
        named = _REGISTRY.get(s.measure) if isinstance(s.measure, str) else None
        alternative = "less" if named is not None and named.distance else "greater"
    n_resamples = check_count(n_resamples, "n_resamples", minimum=1)
    null = _null(s, n_resamples, check_rng(rng), _check_batch(batch), progress)
    return SignificanceTestResult(
        s.statistic,
        _pvalue(s.statistic, null, alternative),
        null,
        alternative,
        s.setting.name,
        s.setting.one_sided,
        _best_value(s),
    )


def _analytic_test(
    measure: Any,
    labels_true: Any,
    labels_pred: Any,
    model: Any,
    one_sided: Any,
    alternative: str | None,
    method: str,
    unassigned_label: Any,
    unassigned: Any,
) -> SignificanceTestResult:
    """The routes of :func:`significance_test` that sample nothing: "exact" and "gamma"."""
    name, setting, _, _, table = _observed(
        measure, labels_true, labels_pred, model, one_sided, unassigned_label, unassigned
    )
    sides = setting.sides_of_table(table)
    # both sizes given (perm): the null is the law of the table given its margins
    margins_fixed = all(side.sizes_given for side in sides)
    base = _BASES.get(name) if isinstance(name, str) else None
    if base is None or (not margins_fixed and name not in _ANY_MODEL):
        served = _BASES if margins_fixed else _ANY_MODEL
        raise InvalidInputError(
            f"method={method!r} under model={setting.name!r} takes the measures "
            f"{', '.join(map(repr, served))} (monotone in RI or MI given the model); got "
            f"`measure` {_describe(measure)}. Use method='monte-carlo' for the others."
        )
    kind, direction = base
    if method == "gamma" and (kind != ENTROPY or not margins_fixed):
        raise InvalidInputError(
            f"method='gamma' takes the MI measures under model='perm' (its error is measured "
            f"there, docs/math.md#math-exact-null); got `measure` {name!r} under "
            f"model={setting.name!r}. Use method='exact' or 'monte-carlo'."
        )
    measure_ = _REGISTRY[name]
    agreement = "less" if measure_.distance else "greater"
    if alternative is None:
        alternative = agreement
    if method == "gamma" and alternative != agreement:
        raise InvalidInputError(
            f"method='gamma' gives the right tail of MI only (`alternative` {agreement!r} for "
            f"{name!r}); got {alternative!r}. Its left tail misses the atom of the exact law "
            "at MI = 0: use method='exact' or 'monte-carlo'."
        )
    mean, variance = _base_moments(kind, table, sides)
    if method == "exact":
        upper, lower = _exact_pvalues(kind, table, sides)
        factor: float | None = 1.0 + EXACT_RTOL
        bound = False
    else:
        upper, lower, factor = _gamma_pvalues(_mutual_information(table), mean, variance)
        bound = factor is None
    if direction < 0:  # a distance: large values of the measure are small values of MI
        upper, lower = lower, upper
    compare = {"greater": upper, "less": lower, "two-sided": min(1.0, 2.0 * min(upper, lower))}
    return SignificanceTestResult(
        measure_.table(table, sides, _AVERAGE_METHOD),
        compare[alternative],
        np.empty(0, dtype=np.float64),
        alternative,
        setting.name,
        setting.one_sided,
        measure_.best(table, sides),
        method,
        _measure_moments(name, table, sides, mean, variance),
        factor,
        bound,
    )


def _base_moments(kind: str, table: Table, sides: tuple[Side, Side]) -> tuple[float, float]:
    """E and Var of RI (``PAIRS``) or MI (``ENTROPY``) under the sides, exact."""
    if kind == PAIRS:
        return float(_expected_rand_index(*sides)), float(_table_variance(table, sides))
    return _expected_mutual_information(*sides), _table_mi_variance(table, sides)


def _measure_moments(
    name: str, table: Table, sides: tuple[Side, Side], mean: float, variance: float
) -> tuple[float, float] | None:
    """(mean, sd) of the measure's null law where it is an affine function of RI or MI with
    known constants (RI, MI, their z-scores, ARI); None otherwise."""
    sd = math.sqrt(variance)
    if name in ("ri", "mi"):
        return mean, sd
    if name in ("sri", "smi"):
        return 0.0, 1.0 if variance > 0 else 0.0
    if name == "ari":
        return 0.0, sd / (1.0 - mean) if mean < 1.0 else 0.0
    return None


def _exact_pvalues(kind: str, table: Table, sides: tuple[Side, Side]) -> tuple[float, float]:
    """P(S >= s) and P(S <= s) of the observed RI or MI under the sides, summed exactly
    (docs/math.md#math-exact-null): the perm law of the table given each pair of size
    sequences, mixed over the size sequences of a random side (num, all)."""
    stat = statistic(kind, table.n)
    weights = np.ones_like(table.counts) if table.weights is None else table.weights
    observed = sum(stat.cell(int(c)) * int(w) for c, w in zip(table.counts, weights, strict=True))
    # One integer M = c S - h_A - h_B per table: c = 2 for the pair count (2 n11 - q_A - q_B
    # is RI up to a constant of N), c = 1 for T (T - h_A - h_B is N MI up to one of N).
    scale = 2 if kind == PAIRS else 1
    rows, cols = table.row_sums.tolist(), table.col_sums.tolist()
    level = scale * observed - stat.of(rows) - stat.of(cols)
    laws = [_size_law(side, sizes) for side, sizes in zip(sides, (rows, cols), strict=True)]
    if len(laws[0]) * len(laws[1]) > EXACT_MAX_SIZE_PAIRS:
        raise _too_large(table, f"{len(laws[0]) * len(laws[1])} pairs of size sequences")
    upper: list[float] = []
    lower: list[float] = []
    if len(laws[0]) * len(laws[1]) == 1:  # perm: one table
        # Its work is counted before any table is built: a refusal costs milliseconds.
        scheme = plan(rows, cols, stat)
        least, most = _thresholds(stat, level + stat.of(rows) + stat.of(cols), scale)
        try:
            if scheme.work <= EXACT_MAX_WORK:
                log_upper, log_lower = log_tails(scheme, stat, least, most)
            else:  # beyond the budget each tail is summed with pruning, within a small budget
                log_upper = log_tail(rows, cols, stat, least, True, EXACT_MAX_PRUNED)[0]
                log_lower = log_tail(rows, cols, stat, most, False, EXACT_MAX_PRUNED)[0]
            return _probability([log_upper]), _probability([log_lower])
        except TooLarge as exc:
            raise _too_large(table, f"more than {EXACT_MAX_WORK:.0e} partial tables") from exc
    # num and all: small tables (N <= EXACT_MAX_RANDOM_N), many of them; the pruned sum of
    # each tail in pure Python is faster there than numpy's per-call cost.
    budget = EXACT_MAX_STEPS
    try:
        for sizes_a, log_a in laws[0]:
            for sizes_b, log_b in laws[1]:
                margins = stat.of(sizes_a) + stat.of(sizes_b)
                least, most = _thresholds(stat, level + margins, scale)
                for threshold, greater, out in ((least, True, upper), (most, False, lower)):
                    log_p, used = log_tail(sizes_a, sizes_b, stat, threshold, greater, budget)
                    budget -= used
                    out.append(log_a + log_b + log_p)
    except TooLarge as exc:
        raise _too_large(table, f"more than {EXACT_MAX_STEPS} steps") from exc
    return _probability(upper), _probability(lower)


def _thresholds(stat: Statistic, shifted: int, scale: int) -> tuple[int, int]:
    """The least and most S of the tables at least and at most as extreme as the observed one:
    scale S >= shifted - tie and scale S <= shifted + tie (ties of T within stat.tie)."""
    return -((-(shifted - stat.tie)) // scale), (shifted + stat.tie) // scale


def _size_law(side: Side, sizes: list[int]) -> list[tuple[list[int], float]]:
    """The size sequences of a side with their log probabilities."""
    if side.sizes_given:
        return [(sizes, 0.0)]
    if side.n > EXACT_MAX_RANDOM_N:
        raise UnsupportedError(
            f"method='exact' under a random side (num, all) enumerates its size sequences: "
            f"N = {side.n} is above its limit {EXACT_MAX_RANDOM_N}. Use method='monte-carlo'."
        )
    return [(list(s), log_p) for s, log_p in size_sequences(side.n, side.k)]


def _too_large(table: Table, what: str) -> UnsupportedError:
    shape = f"{table.row_sums.size} x {table.col_sums.size}"
    return UnsupportedError(
        f"method='exact' is too costly for this {shape} table of N = {table.n} elements "
        f"({what}); use method='gamma' (MI measures under perm) or method='monte-carlo'."
    )


def _probability(logs: list[float]) -> float:
    """exp of the log of a sum of exp(logs), in [0, 1]."""
    finite = [v for v in logs if v > -math.inf]
    if not finite:
        return 0.0
    top = max(finite)
    return min(1.0, math.exp(top + math.log(math.fsum(math.exp(v - top) for v in finite))))


def _gamma_pvalues(value: float, mean: float, variance: float) -> tuple[float, float, float | None]:
    """P(MI >= value), P(MI <= value) under the gamma law on [0, inf) with the exact mean and
    variance of MI, and the relative factor within which the study found them (None where
    they are below its verified range: the small one is then the bound factor * floor of
    the last entry of GAMMA_FACTORS)."""
    if variance <= 0 or mean <= 0:
        return 1.0, 1.0, 1.0 + EXACT_RTOL  # a single-valued null law: the value itself
    from scipy.stats import gamma

    shape, scale = mean * mean / variance, variance / mean
    upper = float(gamma.sf(value, shape, scale=scale))
    lower = float(gamma.cdf(value, shape, scale=scale))
    smaller = min(upper, lower)
    for floor, factor in GAMMA_FACTORS:
        if smaller >= floor:
            return upper, lower, factor
    # Beyond the verified range: the tail at the floor's statistic bounds this one (the
    # exact tail is monotone), and the study bounds that one by factor * floor.
    bound = GAMMA_FACTORS[-1][1] * GAMMA_FACTORS[-1][0]
    return (bound, 1.0, None) if upper < lower else (1.0, bound, None)


def _best_value(s: _Setup) -> float:
    """The measure's value for perfect agreement (1.0 for callables)."""
    if isinstance(s.measure, str):
        return _REGISTRY[s.measure].best(s.table, s.sides)
    return 1.0


@fill_doc
def monte_carlo_adjusted(
    measure: str | Callable[[Any, Any], float],
    labels_true: Any,
    labels_pred: Any,
    *,
    model: str,
    one_sided: bool = False,
    n_resamples: int = 9999,
    rng: Any = None,
    best: float | None = None,
    batch: int | None = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> MonteCarloAdjustedResult:
    """Adjust any measure for chance by Monte Carlo: (s - E_mc[s]) / (best - E_mc[s]).

    For measures without a closed-form expectation (Jaccard, Fowlkes-Mallows,
    NMI, VI, any callable), E[s] under the model is estimated by the mean of
    the null distribution and reported with its Monte Carlo error. The same as
    ``significance_test(...).adjusted(best)``; use that form to test and adjust
    with one null distribution.

    Formula: docs/math.md#math-significance.

    Parameters
    ----------
    measure : str or callable
        As in :func:`null_distribution`.
    labels_true, labels_pred : array-like of shape (n_samples,)
        The observed clusterings of the n_samples elements.
    model : {"perm", "num", "all"}
        The random model.
    one_sided : bool, default=False
        If True, ``labels_true`` is a fixed reference.
    n_resamples : int, default=9999
        Number of random pairs drawn.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness.
    best : float, optional
        The measure's best value s_max. Default: 1.0 for the bounded
        similarities ("ri", "ari", "nmi", "ami", "fmi", "jaccard") and for
        callables; 0.0 for "vi", a distance, which makes the result
        1 - VI / E_mc[VI]; for "mi", the MI bound (docs/math.md#math-s-max) under the model
        (arithmetic mean), so that the result estimates the AMI; for "sri" and
        "smi", the z-score of that best value of RI (1) or MI (the bound).
    batch : int, optional
        Random pairs evaluated together (memory only).
    %(unassigned)s

    Returns
    -------
    MonteCarloAdjustedResult
        value, value_stderr, statistic, expected, expected_stderr, best, n_resamples.

    Notes
    -----
    See :meth:`SignificanceTestResult.adjusted`.
    Cost: O(N), or O(K_A K_B) where smaller, per random pair (:func:`null_distribution`).

    Examples
    --------
    >>> from chanceclust import monte_carlo_adjusted
    >>> a = [0] * 10 + [1] * 10 + [2] * 10
    >>> b = [0] * 9 + [1] * 11 + [2] * 10
    >>> r = monte_carlo_adjusted("jaccard", a, b, model="num", n_resamples=2000, rng=0)
    >>> 0.8 < r.value < 0.9, r.value_stderr < 0.01
    (True, True)
    """
    best = _check_best(best)
    return significance_test(
        measure,
        labels_true,
        labels_pred,
        model=model,
        one_sided=one_sided,
        n_resamples=n_resamples,
        batch=batch,
        rng=rng,
        unassigned_label=unassigned_label,
        unassigned=unassigned,
    ).adjusted(best)
