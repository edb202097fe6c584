"""Bootstrap confidence intervals of any measure, and a paired bootstrap test of two clusterings.

A bootstrap sample draws N elements with replacement from the N observed ones. Two
clusterings of an element are its cell (i, j) of the contingency table, so the bootstrap
table is a multinomial draw of N elements over the observed non-zero cells with
probabilities n_ij / N: one resample costs O(cells), not O(N). The resamples are drawn in
seeded blocks (by threads for large jobs, with the same values), exactly or, for large jobs
where its error bound allows, with the large cells by the multinomial's normal approximation
(``_Gaussian``). The measure of every resampled table comes from the registry
(:mod:`chanceclust._registry`): its vectorized form on whole batches of tables
(:mod:`chanceclust.significance`'s batches), with the random model's constants (E[RI],
E[MI], the bound s_max, Var) recomputed for each resample's own cluster sizes -- a
resample's margins are not the observed ones. ARI and AMI under perm read the batch's rows
of counts directly (``_Dense``), AMI with each resample's E[MI] exact per distinct size
pair or linearized at large margins (``_LinearEMI``).

The intervals follow :func:`scipy.stats.bootstrap` (percentile, basic, BCa; BCa's
acceleration by the jackknife over the N elements, which for a table is a jackknife over
its cells weighted by n_ij: leaving out any element of cell (i, j) gives the same table),
and the debiased interval (around the jackknife's bias-corrected estimate: ARI's with the
percentile interval's shape, AMI's the percentile-t interval of that estimate), which
``method="auto"`` takes for ARI and AMI under perm on tables
of few elements per cell. What the interval is for, the population value of the measure, is in
docs/math.md#math-bootstrap.
"""

from __future__ import annotations

import math
import os
import warnings
from collections import namedtuple
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._entropy import entropy_values
from chanceclust._expected.size_pairs import pair_information
from chanceclust._models import Setting
from chanceclust._registry import MEASURES as _REGISTRY
from chanceclust._registry import Measure
from chanceclust._validation import (
    _compact,
    _describe,
    check_alternative,
    check_average_method,
    check_count,
    check_rng,
    check_setting,
    check_unassigned,
    nothing_left,
    validate_many,
)
from chanceclust.adjusted import _DEGENERATE, _adjust_for_chance
from chanceclust.contingency import Table, _table_of_cells
from chanceclust.exceptions import InternalError, InvalidInputError
from chanceclust.expectations import _expected_mutual_information, _validated_table
from chanceclust.measures import _generalized_mean
from chanceclust.significance import _Batch, _pairs

__all__ = [
    "ConfidenceInterval",
    "ConfidenceIntervalResult",
    "PairedTestResult",
    "confidence_interval",
    "paired_test",
]

#: SciPy's ``ConfidenceInterval`` (``scipy.stats.bootstrap``'s field), the same namedtuple
#: shape: ``.low``, ``.high``, unpacks as a pair (SciPy keeps its own class private).
ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])

#: The interval methods: SciPy's three (:func:`scipy.stats.bootstrap`'s names), the debiased
#: interval (docs/math.md#math-bootstrap), and "auto" (``_resolved_method``); case-insensitive.
METHODS = ("percentile", "basic", "bca", "debiased", "auto")
# "auto" takes the debiased interval (ARI and AMI under perm) where the table holds fewer
# than this many elements per non-zero cell, BCa from there on. Of the coverage study's rows
# below it (at most 25 a cell), BCa missed 93-97 % in 5 of 8, the debiased interval in none
# (94.1-96.4 %); above it (111 and more) BCa met it in all 10
# (benchmarks/BOOTSTRAP_COVERAGE.md).
DEBIASED_PER_CELL = 100
#: The interval methods of :func:`paired_test` (its jackknife is over the three-way cells).
PAIRED_METHODS = ("percentile", "basic", "bca")
# Cells x resamples per batch when ``batch`` is not given: bounds the memory of the counts.
_BATCH_CELLS = 1 << 22
# The batches of significance.py hold pair counts and products of sizes in int64: above this
# N each resampled table goes through the measure's table function instead.
_BATCH_MAX_N = 2**31
# Resamples per random stream: block b of the resamples is drawn by its own generator, the
# b-th child of a SeedSequence seeded from ``rng`` (so the blocks can be drawn in any order,
# by any number of threads, with the same values).
_BLOCK = 512
# Cells x resamples from which the blocks are drawn and evaluated by a pool of threads
# (numpy's multinomial sampler releases the GIL).
_THREADED_CELLS = 1 << 22
# E[MI] of resampled margins by the distinct size pairs of a batch while they are at most
# this many (size_pairs.pair_information, ~1-10 us a pair); else one resample at a time.
_PAIRS_MAX = 1 << 21
# The linearized E[MI] of resampled margins (``_LinearEMI``) is used where its error bound,
# _LINEAR_FACTOR times the curvature scale (docs/math.md#math-bootstrap), is at most
# _LINEAR_TOL nats: the largest error measured was 2.0 times the scale
# (benchmarks/bootstrap_emi_linear.py).
_LINEAR_FACTOR = 20.0
_LINEAR_TOL = 1e-10


@dataclass(frozen=True)
class ConfidenceIntervalResult:
    """Result of :func:`confidence_interval`, shaped as SciPy's ``BootstrapResult``.

    Formula: docs/math.md#math-bootstrap.

    Attributes
    ----------
    confidence_interval : ConfidenceInterval
        ``(low, high)``: the bootstrap interval of the population value of the measure
        (docs/math.md#math-bootstrap).
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The measure of every resampled table, in the order drawn.
    standard_error : float
        The standard deviation of the bootstrap distribution (ddof = 1), as SciPy's.
    statistic : float
        The measure of the observed table (evaluated as the resamples are).
    measure, method : str
        The measure's name and the interval method ("percentile", "basic", "bca" or
        "debiased"; "auto" resolved).
    confidence_level : float
    resampling : str
        How the resamples were drawn: "multinomial" (exactly) or "normal" (the large cells
        by the multinomial's normal approximation, where its error bound is below a tenth of
        the Monte Carlo error: docs/math.md#math-bootstrap).
    """

    confidence_interval: ConfidenceInterval
    bootstrap_distribution: NDArray[np.float64]
    standard_error: float
    statistic: float
    measure: str
    method: str
    confidence_level: float
    resampling: str = "multinomial"


@dataclass(frozen=True)
class PairedTestResult:
    """Result of :func:`paired_test`.

    Formula: docs/math.md#math-bootstrap.

    Attributes
    ----------
    statistic : float
        The difference s(reference, A) - s(reference, B) on the observed elements.
    pvalue : float
        The bootstrap p-value of "no difference" (docs/math.md#math-bootstrap).
    confidence_interval : ConfidenceInterval
        The interval of the population difference.
    bootstrap_distribution : ndarray of shape (n_resamples,)
        The difference on every paired resample.
    standard_error : float
    statistic_a, statistic_b : float
        s(reference, A) and s(reference, B).
    measure, method, alternative : str
    confidence_level : float
    resampling : str
        As :class:`ConfidenceIntervalResult`'s.
    """

    statistic: float
    pvalue: float
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: NDArray[np.float64]
    standard_error: float
    statistic_a: float
    statistic_b: float
    measure: str
    method: str
    alternative: str
    confidence_level: float
    resampling: str = "multinomial"


# ----------------------------------------------------------------- arguments


def _check_measure(measure: Any) -> Measure:
    """The registry's measure named ``measure`` (case-insensitive), else raise naming it."""
    if isinstance(measure, str) and measure.lower() in _REGISTRY:
        return _REGISTRY[measure.lower()]
    raise InvalidInputError(
        f"`measure` must be one of {', '.join(repr(m) for m in _REGISTRY)}; "
        f"got {_describe(measure)}."
    )


def _check_method(method: Any, methods: tuple[str, ...] = METHODS) -> str:
    if isinstance(method, str) and method.lower() in methods:
        return method.lower()
    names = ", ".join(repr("BCa" if m == "bca" else m) for m in methods)
    raise InvalidInputError(f"`method` must be one of {names}; got {_describe(method)}.")


def _check_level(confidence_level: Any) -> float:
    if isinstance(confidence_level, (bool, np.bool_)) or not isinstance(
        confidence_level, (int, float, np.integer, np.floating)
    ) or not 0.0 < float(confidence_level) < 1.0:
        raise InvalidInputError(
            f"`confidence_level` must be a number strictly between 0 and 1; "
            f"got {_describe(confidence_level)}."
        )
    return float(confidence_level)


@dataclass(frozen=True)
class _Options:
    """The checked options shared by both public functions."""

    measure: Measure
    setting: Setting
    average_method: str
    level: float
    n_resamples: int
    method: str
    batch: int | None
    rng: np.random.Generator
    resampling: str


RESAMPLINGS = ("auto", "multinomial")


def _check_resampling(resampling: Any) -> str:
    if isinstance(resampling, str) and resampling.lower() in RESAMPLINGS:
        return resampling.lower()
    raise InvalidInputError(
        f"`resampling` must be 'auto' or 'multinomial'; got {_describe(resampling)}."
    )


def _options(measure: Any, model: Any, one_sided: Any, average_method: Any,
             confidence_level: Any, n_resamples: Any, method: Any, batch: Any,
             rng: Any, resampling: Any, methods: tuple[str, ...] = METHODS
             ) -> _Options:  # fmt: skip
    return _Options(
        _check_measure(measure),
        check_setting(model, one_sided),
        check_average_method(average_method),
        _check_level(confidence_level),
        check_count(n_resamples, "n_resamples", minimum=1),
        _check_method(method, methods),
        None if batch is None else check_count(batch, "batch", minimum=1),
        check_rng(rng),
        _check_resampling(resampling),
    )


# ----------------------------------------------------------------- tables of resamples


def _sums(counts: NDArray[np.int64], groups: NDArray[np.intp], k: int) -> NDArray[np.int64]:
    """Per row of ``counts`` (m, c), the sums of the columns by group 0..k-1 (every group
    has a column): exact integers, (m, k)."""
    if groups.size > 1 and np.all(groups[1:] >= groups[:-1]):  # grouped already: no copy
        return np.add.reduceat(counts, np.searchsorted(groups, np.arange(k)), axis=1)
    order = np.argsort(groups, kind="stable")
    starts = np.searchsorted(groups[order], np.arange(k))
    return np.add.reduceat(counts[:, order], starts, axis=1)


class _Rows:
    """The per-sample quantities of some samples of a :class:`_Batch`: what the registry's
    kernels of the adjusted measures read (pair counts, MI, numbers of clusters), each
    computed for the whole batch on first use."""

    def __init__(self, batch: _Batch, rows: NDArray[np.intp]) -> None:
        self.n = batch.n
        self._batch, self._rows = batch, rows

    @property
    def pair_counts(self) -> tuple[NDArray[Any], ...]:
        return tuple(np.asarray(c)[self._rows] for c in self._batch.pair_counts)

    @property
    def mi(self) -> NDArray[np.float64]:
        return self._batch.mi[self._rows]

    @property
    def k_true(self) -> NDArray[np.int64]:
        return np.asarray(self._batch.k_true)[self._rows]

    @property
    def k_pred(self) -> NDArray[np.int64]:
        return np.asarray(self._batch.k_pred)[self._rows]


@dataclass(frozen=True)
class _LinearEMI:
    """E[MI] under perm of margins of total ``n`` near (a, b), to first order around them:
    E(a', b') = E(a, b) + sum_i g_i (a'_i - a_i) + sum_j h_j (b'_j - b_j), with g and h the
    central differences of the exact E[MI] (docs/math.md#math-bootstrap)."""

    n: int
    expected: float
    sizes_true: NDArray[np.int64]
    sizes_pred: NDArray[np.int64]
    grad_true: NDArray[np.float64]
    grad_pred: NDArray[np.float64]

    def __call__(self, sizes_true: NDArray[np.int64], sizes_pred: NDArray[np.int64]
                 ) -> NDArray[np.float64]:  # fmt: skip
        return (self.expected + (sizes_true - self.sizes_true) @ self.grad_true
                + (sizes_pred - self.sizes_pred) @ self.grad_pred)  # fmt: skip


def _curvature_scale(sizes_true: NDArray[np.int64], sizes_pred: NDArray[np.int64]) -> float:
    """(sum 1/a^2 sum 1/b + sum 1/b^2 sum 1/a) / 6: the size of the second-order term of
    E[MI] under perm over margins resampled around (a, b) (docs/math.md#math-bootstrap)."""
    a, b = sizes_true.astype(np.float64), sizes_pred.astype(np.float64)
    return float(np.sum(a**-2) * np.sum(1 / b) + np.sum(b**-2) * np.sum(1 / a)) / 6


def _linear_at(a: NDArray[np.int64], b: NDArray[np.int64], n: int, setting: Setting
               ) -> _LinearEMI:  # fmt: skip
    """The linearized E[MI] around the margins (a, b) of total n."""
    rows, cols = np.repeat(a, len(b)), np.tile(b, len(a))
    shape = (len(a), len(b))

    def step(da: int, db: int) -> NDArray[np.float64]:
        return pair_information(rows + da, cols + db, n).reshape(shape)

    grad_true = (step(1, 0) - step(-1, 0)).sum(axis=1) / 2
    grad_pred = (step(0, 1) - step(0, -1)).sum(axis=0) / 2
    sides = setting.sides(n, a, len(a), b, len(b))
    return _LinearEMI(n, _expected_mutual_information(*sides), a, b, grad_true, grad_pred)


def _linear_emi(table: Table, setting: Setting) -> tuple[_LinearEMI, ...]:
    """The linearized E[MI] around the table's margins (the resamples, total N) and around
    the margins of its first cell's jackknife table (the jackknife's tables, total N - 1,
    within one element of it in two clusters), where its bound allows it, else ()."""
    a, b = np.asarray(table.row_sums, np.int64), np.asarray(table.col_sums, np.int64)
    if _LINEAR_FACTOR * _curvature_scale(a, b) > _LINEAR_TOL:
        return ()
    a_less, b_less = a.copy(), b.copy()
    a_less[table.rows[0]] -= 1
    b_less[table.cols[0]] -= 1
    if not (a_less.all() and b_less.all()):
        return (_linear_at(a, b, table.n, setting),)
    return (_linear_at(a, b, table.n, setting),
            _linear_at(a_less, b_less, table.n - 1, setting))  # fmt: skip


@dataclass(frozen=True)
class _Cells:
    """A table's cells as the resamples see them: fixed positions, counts per resample."""

    rows: NDArray[np.intp]
    cols: NDArray[np.intp]
    shape: tuple[int, int]
    table: Table  # the observed table (the constants of the unadjusted kernels)
    # Under perm (both sides' sizes given) ARI and AMI take vectorized routes: ``route`` is
    # "ari", "ami" or "" (every resample through the registry's kernel of its own sides).
    route: str = ""
    linear: tuple[_LinearEMI, ...] = ()  # linearized E[MI] by total (``_linear_emi``)
    # AMI's E[MI] of every table, where it is held fixed (the debiased interval's jackknife:
    # ``_debiased_jackknife``); None: each table's own.
    expected: float | None = None


def _table_cells(table: Table, options: _Options) -> _Cells:
    shape = (len(table.row_sums), len(table.col_sums))
    route, linear = "", ()
    if options.measure.name in ("ari", "ami") and table.n <= _BATCH_MAX_N:
        sides = options.setting.sides_of_table(table)
        if all(side.sizes_given for side in sides):
            route = options.measure.name
            if route == "ami":
                linear = _linear_emi(table, options.setting)
    return _Cells(table.rows, table.cols, shape, table, route, linear)


def _values(options: _Options, cells: _Cells, counts: NDArray[np.int64]) -> NDArray[np.float64]:
    """The measure of each table whose cell counts are a row of ``counts`` (m, c), all of the
    same total (N for the resamples, N - 1 for the jackknife)."""
    n = int(counts[0].sum())
    k_true, k_pred = cells.shape
    sizes_true = _sums(counts, cells.rows, k_true)
    sizes_pred = _sums(counts, cells.cols, k_pred)
    measure, method = options.measure, options.average_method
    if n > _BATCH_MAX_N:  # one table at a time, by the single call's table function
        rows = zip(counts, sizes_true, sizes_pred, strict=True)
        tables = (_resampled_table(cells, n, *row) for row in rows)
        return np.array([measure.table(table, options.setting.sides_of_table(table), method)
                         for table in tables], dtype=np.float64)  # fmt: skip
    if cells.route:
        return _perm_values(options, cells, _Dense(n, counts, sizes_true, sizes_pred))
    used = counts > 0
    codes = np.broadcast_to(cells.rows * k_pred + cells.cols, counts.shape)
    batch = _Batch(n, counts[used], codes[used].astype(np.int64), used.sum(axis=1),
                   k_pred, sizes_true, sizes_pred)  # fmt: skip
    if not measure.uses_model:
        kernel = measure.batch(cells.table, None, method)
        return np.asarray(kernel(batch), dtype=np.float64)
    # An adjusted measure: the model's constants of each sample's own sides (sizes, K).
    out = np.empty(len(counts), dtype=np.float64)
    for rows in _groups(options.setting, sizes_true, sizes_pred, n).values():
        first = rows[0]
        table = _resampled_table(cells, n, counts[first], sizes_true[first], sizes_pred[first])
        kernel = measure.batch(table, options.setting.sides_of_table(table), method)
        out[rows] = kernel(_Rows(batch, np.asarray(rows)))
    return out


def _perm_values(options: _Options, cells: _Cells, batch: _Batch) -> NDArray[np.float64]:
    """ARI or AMI under perm (the cells' route) of every table of ``batch``."""
    if cells.route == "ari":
        # ARI under perm is exact in the pair counts: its kernel needs no sizes (E[RI] is
        # n11's expectation given each sample's own margins, formed from its pair counts).
        kernel = options.measure.batch(cells.table, options.setting.sides_of_table(cells.table),
                                       options.average_method)  # fmt: skip
        return np.asarray(kernel(batch), dtype=np.float64)
    return _ami_values(batch, cells, options.setting, options.average_method)


class _Dense(_Batch):
    """Tables of the same cells, a row of counts (m, C) each (zeros kept): the pair counts
    and the MI of a :class:`_Batch` read from the rows directly, with no list of non-zero
    cells. MI = H(A) + H(B) - H(A, B) by ``entropy_values`` (within ~1e-15 times the
    entropies of the batch's deviance form: tests/test_bootstrap.py)."""

    def __init__(self, n: int, counts: NDArray[np.int64], sizes_true: NDArray[np.int64],
                 sizes_pred: NDArray[np.int64]) -> None:  # fmt: skip
        rows = np.ones(len(counts), dtype=np.int64)  # no per-cell list: never read
        super().__init__(n, counts[:0, 0], counts[:0, 0], rows, 1, sizes_true, sizes_pred)
        self.counts = counts

    @cached_property
    def n11(self) -> NDArray[np.int64]:
        return _pairs(self.counts).sum(axis=1)

    @cached_property
    def mi(self) -> NDArray[np.float64]:
        joint = entropy_values(self.counts, self.n)
        both = entropy_values(self.sizes_true, self.n) + entropy_values(self.sizes_pred, self.n)
        return np.maximum(both - joint, 0.0)


class _LeftOut(_Batch):
    """The jackknife's tables of :func:`_left_out_values`: the observed table with one element
    of cell k left out, for each k of ``cells`` (a slice of them), from the observed sums
    updated in closed form: the pair counts exactly (C(x, 2) - C(x - 1, 2) = x - 1), the
    margins by one subtraction, and the joint entropy log n - T_k / n with T_k the observed
    sum of x log x plus the one cell's change (x - 1) log(x - 1) - x log x."""

    def __init__(self, n: int, n11: NDArray[np.int64], mi: NDArray[np.float64],
                 sizes_true: NDArray[np.int64], sizes_pred: NDArray[np.int64]) -> None:  # fmt: skip
        none = np.zeros(0, dtype=np.int64)
        super().__init__(n, none, none, np.ones(len(n11), dtype=np.int64), 1, sizes_true,
                         sizes_pred)  # fmt: skip
        self.n11, self.mi = n11, mi  # (set ahead of _Batch's cached properties)


def _left_out_values(options: _Options, cells: _Cells, counts: NDArray[np.int64]
                     ) -> NDArray[np.float64] | None:  # fmt: skip
    """The jackknife of ARI or AMI under perm (the cells' route) without evaluating its tables
    cell by cell: O(K_A + K_B) a left-out cell where :func:`_jackknife` takes O(C). The joint
    entropy of a table within ~ulp(N log N) / N of ``entropy_values``' sum over its cells
    (docs/math.md#math-bootstrap; tests/test_bootstrap.py compares both). None (the caller
    evaluates every table) for the other measures, or where a cell holds more than N / 2
    elements (``entropy_values`` takes log1p there)."""
    n = int(counts.sum())
    if cells.route not in ("ari", "ami") or n < 3 or 2 * int(counts.max()) > n - 1:
        return None
    k_true, k_pred = cells.shape
    size_true = _sums(counts[None], cells.rows, k_true)[0]
    size_pred = _sums(counts[None], cells.cols, k_pred)[0]
    x = counts.astype(np.float64)
    xlogx = x * np.log(x)
    less = np.where(counts > 1, (x - 1) * np.log(np.maximum(x - 1, 1.0)), 0.0)
    total = math.fsum(xlogx.tolist())
    n11 = int(_pairs(counts).sum()) - (counts - 1)
    out, first = [], 0
    for size in _batches(len(counts), k_true + k_pred, None):
        part, index = slice(first, first + size), np.arange(size)
        first += size
        sizes_true = np.repeat(size_true[None], size, axis=0)
        sizes_true[index, cells.rows[part]] -= 1
        sizes_pred = np.repeat(size_pred[None], size, axis=0)
        sizes_pred[index, cells.cols[part]] -= 1
        joint = math.log(n - 1) - (total + (less[part] - xlogx[part])) / (n - 1)
        both = entropy_values(sizes_true, n - 1) + entropy_values(sizes_pred, n - 1)
        out.append(_perm_values(options, cells, _LeftOut(
            n - 1, n11[part], np.maximum(both - joint, 0.0), sizes_true, sizes_pred)))
    return np.concatenate(out)


def _ami_values(batch: _Batch, cells: _Cells, setting: Setting, method: str,
                expected: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """AMI under perm of every sample of ``batch``, each adjusted with its own sizes: MI of
    the batch, s_max the mean of the two entropies (each side's entropy_bound under perm),
    E[MI] of the sample's own margins (``expected``, else :func:`_resampled_emi`)."""
    sizes_true, sizes_pred = batch.sizes_true, batch.sizes_pred
    if expected is None:
        expected = _resampled_emi(cells, setting, sizes_true, sizes_pred, batch.n)
    bound = np.broadcast_to(_generalized_mean(entropy_values(sizes_true, batch.n),
                                              entropy_values(sizes_pred, batch.n), method),
                            expected.shape)  # fmt: skip
    k_true = (sizes_true > 0).sum(axis=1)
    k_pred = (sizes_pred > 0).sum(axis=1)
    mi = batch.mi
    return np.array([
        _adjust_for_chance(mi[i], float(expected[i]), float(bound[i]), k_true=k_true[i],
                           k_pred=k_pred[i])
        for i in range(len(mi))
    ], dtype=np.float64)  # fmt: skip


def _xlogx(x: NDArray[np.float64]) -> NDArray[np.float64]:
    return x * np.log(np.maximum(x, 1.0))  # 0 at x = 0 and x = 1


def _studentized_values(options: _Options, cells: _Cells, counts: NDArray[np.int64]
                        ) -> NDArray[np.float64]:  # fmt: skip
    """(theta, theta~, se_J) of each table whose cell counts are a row of ``counts`` (m, C),
    AMI under perm (the cells' route): theta its AMI (as :func:`_values`), theta~ its
    jackknife's bias-corrected value and se_J the jackknife's standard error, the left-out
    tables adjusted by the table's own E[MI] at its N, held fixed (as
    :func:`_debiased_jackknife`; docs/math.md#math-bootstrap). Each left-out table in
    O(1) from the table's sums: H_(k) = log(n - 1) - (T + (x - 1) log(x - 1) - x log x) / (n - 1)
    for the joint entropy (x the cell's count, T = sum x log x) and each margin's. A row
    with a degenerate left-out table (s_max - E[MI] <= _DEGENERATE s_max) gets nan."""
    n = int(counts[0].sum())
    k_true, k_pred = cells.shape
    sizes_true = _sums(counts, cells.rows, k_true)
    sizes_pred = _sums(counts, cells.cols, k_pred)
    expected = _resampled_emi(cells, options.setting, sizes_true, sizes_pred, n)
    theta = _ami_values(_Dense(n, counts, sizes_true, sizes_pred), cells, options.setting,
                        options.average_method, expected)  # fmt: skip

    def left_out(sizes: NDArray[np.int64], of_cell: NDArray[np.int64]) -> NDArray[np.float64]:
        """The entropy of the sizes (rows) with one element left out of ``of_cell``'s."""
        x = of_cell.astype(np.float64)
        total = _xlogx(sizes.astype(np.float64)).sum(axis=1)[:, None]
        return math.log(n - 1) - (total + _xlogx(x - 1) - _xlogx(x)) / (n - 1)

    h_true = left_out(sizes_true, sizes_true[:, cells.rows])
    h_pred = left_out(sizes_pred, sizes_pred[:, cells.cols])
    mi = np.maximum(h_true + h_pred - left_out(counts, counts), 0.0)
    bound = _generalized_mean(h_true, h_pred, options.average_method)
    gap = bound - expected[:, None]
    used = counts > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        left = np.where(gap > _DEGENERATE * bound, (mi - expected[:, None]) / gap, np.nan)
    left = np.where(used, left, 0.0)  # (weight 0)
    center, se = _jackknife_center(theta, left, counts.astype(np.float64))
    return np.column_stack([theta, center, se])


def _resampled_emi(cells: _Cells, setting: Setting, sizes_true: NDArray[np.int64],
                   sizes_pred: NDArray[np.int64], n: int) -> NDArray[np.float64]:  # fmt: skip
    """E[MI] under perm of each row's margins (zero-padded over the observed clusters):
    linearized where the cells hold a ``_LinearEMI`` and the sample keeps every cluster,
    else exact, sum_ij I(a_i, b_j) over the distinct size pairs of the batch (size_pairs),
    else (too many distinct pairs) by the single call's E[MI] of each sample."""
    if cells.expected is not None:
        return np.full(len(sizes_true), cells.expected)
    out = np.empty(len(sizes_true))
    todo = np.ones(len(out), dtype=bool)
    linear = [plan for plan in cells.linear if plan.n == n]
    if linear:
        full = (sizes_true > 0).all(axis=1) & (sizes_pred > 0).all(axis=1)
        if full.any():
            out[full] = linear[0](sizes_true[full], sizes_pred[full])
        todo = ~full
    if not todo.any():
        return out
    a, b = sizes_true[todo], sizes_pred[todo]
    if a.size * b.shape[1] <= _PAIRS_MAX:
        keys = a[:, :, None] * (n + 1) + b[:, None, :]
        distinct, inverse = np.unique(keys, return_inverse=True)
        size_a, size_b = np.divmod(distinct, n + 1)
        values = np.zeros(len(distinct))
        nonzero = (size_a > 0) & (size_b > 0)
        values[nonzero] = pair_information(size_a[nonzero], size_b[nonzero], n)
        out[todo] = values[inverse.reshape(keys.shape)].reshape(len(a), -1).sum(axis=1)
        return out
    out[todo] = [_expected_mutual_information(*setting.sides(
        n, row_a[row_a > 0], int((row_a > 0).sum()), row_b[row_b > 0], int((row_b > 0).sum())))
        for row_a, row_b in zip(a, b, strict=True)]  # fmt: skip
    return out


def _groups(setting: Setting, sizes_true: NDArray[np.int64], sizes_pred: NDArray[np.int64],
            n: int) -> dict[Any, list[int]]:  # fmt: skip
    """The samples by the random sides they share: by (K_A, K_B) where the sides need no
    sizes (two-sided num, all), else one group per sample (their sizes differ)."""
    k_true = (sizes_true > 0).sum(axis=1).tolist()
    k_pred = (sizes_pred > 0).sum(axis=1).tolist()
    by_k = setting.sides_by_k(n, 1, 1) is not None
    groups: dict[Any, list[int]] = {}
    for i, pair in enumerate(zip(k_true, k_pred, strict=True)):
        groups.setdefault(pair if by_k else i, []).append(i)
    return groups


def _resampled_table(cells: _Cells, n: int, counts: NDArray[np.int64],
                     sizes_true: NDArray[np.int64], sizes_pred: NDArray[np.int64]
                     ) -> Table:  # fmt: skip
    """The :class:`Table` of one resample: its non-zero cells, empty clusters dropped."""
    used = counts > 0
    row_index = np.cumsum(sizes_true > 0) - 1
    col_index = np.cumsum(sizes_pred > 0) - 1
    return _table_of_cells(
        row_index[cells.rows[used]], col_index[cells.cols[used]], counts[used],
        (int((sizes_true > 0).sum()), int((sizes_pred > 0).sum())), n,
        (sizes_true[sizes_true > 0], sizes_pred[sizes_pred > 0]),
        column_major=cells.table.column_major,
    )  # fmt: skip


# ----------------------------------------------------------------- resampling


def _batches(total: int, cells: int, batch: int | None) -> Iterator[int]:
    size = batch if batch is not None else max(1, _BATCH_CELLS // max(cells, 1))
    for first in range(0, total, size):
        yield min(size, total - first)


def _block_seeds(rng: np.random.Generator, resamples: int) -> list[np.random.SeedSequence]:
    """The seeds of the blocks of ``_BLOCK`` resamples: the children of a SeedSequence whose
    entropy is four 63-bit integers drawn from ``rng``."""
    entropy = [int(v) for v in rng.integers(2**63, size=4)]
    return np.random.SeedSequence(entropy).spawn(-(-resamples // _BLOCK))


def _resample(counts: NDArray[np.int64], options: _Options,
              evaluate: Callable[[NDArray[np.int64]], NDArray[np.float64]],
              gaussian: _Gaussian | None = None) -> NDArray[np.float64]:  # fmt: skip
    """``evaluate`` of every bootstrap table: multinomial draws of N over the cells with
    probabilities n_ij / N, block b of ``_BLOCK`` resamples by ``Generator(PCG64(seed_b))``
    (``_block_seeds``). The draws depend on ``rng`` only: not on ``batch`` (numpy draws the
    rows of a block one after the other), nor on the threads that draw the blocks. With
    ``gaussian``, its draws (the multinomial's normal approximation on the large cells)."""
    n = int(counts.sum())
    p = counts / n
    total = options.n_resamples
    seeds = _block_seeds(options.rng, total)

    # Rows drawn at once (memory: ~_BATCH_CELLS cells); the multinomial draws the same rows
    # in any pieces, the normal approximation in these (fixed by the table).
    piece = max(1, min(_BLOCK, _BATCH_CELLS // max(len(counts), 1)))

    def block(index: int) -> NDArray[np.float64]:
        size = min(_BLOCK, total - index * _BLOCK)
        gen = np.random.Generator(np.random.PCG64(seeds[index]))
        parts = []
        for start in range(0, size, piece):
            rows = min(piece, size - start)
            if gaussian is None:
                draws = gen.multinomial(n, p, size=rows).astype(np.int64, copy=False)
            else:
                draws = gaussian.draw(gen, rows)
            first = 0
            for chunk in _batches(rows, len(counts), options.batch):
                parts.append(evaluate(draws[first : first + chunk]))
                first += chunk
        return np.concatenate(parts)

    return np.concatenate(_map(block, list(range(len(seeds))), work=total * len(counts)))


# Cells of at least this count may be drawn by the normal approximation (``_Gaussian``).
NORMAL_MIN_COUNT = 100
# ``resampling="auto"`` draws by ``_Gaussian`` from this many cells x resamples (below it the
# exact draws cost little), where the error bound is at most _NORMAL_SHARE of the Monte Carlo
# error of the interval's ends (docs/math.md#math-bootstrap).
_NORMAL_MIN_WORK = 1 << 24
_NORMAL_SHARE = 0.1


@dataclass(frozen=True)
class _Gaussian:
    """Resampled tables with the cells of count >= NORMAL_MIN_COUNT (``large``) drawn by the
    multinomial's normal approximation (docs/math.md#math-bootstrap): S, the total of the
    other cells, ~ Binomial(N, P_S) exactly; those cells ~ Multinomial(S, p_S / P_S)
    exactly; the large ones given S, Multinomial(N - S, q) with q = p_L / P_L, as
    (N - S) q + sqrt(N - S) (sqrt(q) Z - q (sqrt(q) . Z)), Z standard normal (the same mean
    and covariance), rounded by their cumulative sums (integers summing to N - S). A block
    of resamples is drawn in pieces of max(1, _BATCH_CELLS // cells) rows (at most
    _BLOCK), each S first."""

    n: int
    large: NDArray[np.bool_]
    q: NDArray[np.float64]  # over every cell, 0 at the small ones
    p_small: NDArray[np.float64]
    share_small: float
    bound: float  # the error bound on the interval's ends, in standard errors

    def draw(self, gen: np.random.Generator, size: int) -> NDArray[np.int64]:
        small = self.p_small.size > 0
        rest = gen.binomial(self.n, self.share_small, size=size) if small else (
            np.zeros(size, dtype=np.int64))  # fmt: skip
        m = (self.n - rest).astype(np.float64)
        root = np.sqrt(self.q)
        # The cumulative sums of x = m q + sqrt(m) (sqrt(q) Z - q (sqrt(q) . Z)), in place:
        # sqrt(m) cumsum(sqrt(q) Z) + (m - sqrt(m) (sqrt(q) . Z)) cumsum(q).
        ends = gen.standard_normal((size, self.q.size))
        ends *= root
        scale = np.sqrt(m)
        shift = m - scale * ends.sum(axis=1)
        np.cumsum(ends, axis=1, out=ends)
        ends *= scale[:, None]
        ends += np.multiply.outer(shift, np.cumsum(self.q))
        np.rint(ends, out=ends)
        last = int(np.flatnonzero(self.large)[-1])
        ends[:, last:] = m[:, None]  # the exact total (the sum of x is N - S up to rounding)
        out = np.empty(ends.shape, dtype=np.int64)
        out[:, 0] = ends[:, 0]
        np.subtract(ends[:, 1:], ends[:, :-1], out=out[:, 1:], casting="unsafe")
        if (out < 0).any():  # never seen: 10 standard deviations below the mean
            raise InternalError("the normal approximation drew a negative count")
        if small:
            out[:, ~self.large] = gen.multinomial(rest, self.p_small)
        return out


def _gaussian(counts: NDArray[np.int64], options: _Options, alternative: str,
              jack: Callable[[], tuple[NDArray[np.float64], NDArray[np.int64]]]
              ) -> _Gaussian | None:  # fmt: skip
    """The normal approximation where ``resampling="auto"`` takes it, else None: a large job
    whose error bound on the interval's ends (lost skewness |a_L| (z^2 - 1) plus rounding
    z / (12 n_min), in standard errors) is at most _NORMAL_SHARE of their Monte Carlo error
    sqrt(alpha (1 - alpha) / B) / phi(z) (docs/math.md#math-bootstrap)."""
    large = counts >= NORMAL_MIN_COUNT
    if (options.resampling != "auto" or large.sum() < 2
            or options.n_resamples * counts.size < _NORMAL_MIN_WORK):  # fmt: skip
        return None
    from scipy.special import ndtri  # here: importing chanceclust loads no scipy

    alpha = (1 - options.level) / 2 if alternative == "two-sided" else 1 - options.level
    z = abs(float(ndtri(alpha)))
    monte_carlo = math.sqrt(alpha * (1 - alpha) / options.n_resamples) / (
        math.exp(-z * z / 2) / math.sqrt(2 * math.pi))  # fmt: skip
    values, weights = jack()
    n = float(weights.sum())
    u = (n - 1) * (np.sum(weights * values) / n - values)
    spread = float(np.sum(weights * u**2)) / n**2
    if not spread > 0 or not np.isfinite(u).all():
        return None
    skew = float(np.sum((weights * u**3)[large])) / n**3 / 6 / spread**1.5
    bound = abs(skew) * (z * z - 1) + z / (12 * int(counts[large].min()))
    if bound > _NORMAL_SHARE * monte_carlo:
        return None
    total = int(weights.sum())
    share = float(counts[~large].sum()) / total
    q = np.where(large, counts, 0) / float(counts[large].sum())
    p_small = counts[~large] / float(max(counts[~large].sum(), 1))
    return _Gaussian(total, large, q, p_small, share, bound)


def _jackknife(counts: NDArray[np.int64], batch: int | None,
               evaluate: Callable[[NDArray[np.int64]], NDArray[np.float64]]
               ) -> NDArray[np.float64]:  # fmt: skip
    """The value with one element of cell k left out, for each cell k (weight n_k); large
    tables' batches evaluated by a pool of threads (the same values)."""
    c = len(counts)
    firsts = [0]
    for size in _batches(c, c, batch):
        firsts.append(firsts[-1] + size)

    def part(first: int, stop: int) -> NDArray[np.float64]:
        rows = np.broadcast_to(counts, (stop - first, c)).copy()
        rows[np.arange(stop - first), np.arange(first, stop)] -= 1
        return evaluate(rows)

    return np.concatenate(_map(part, firsts[:-1], firsts[1:], work=c * c))


def _map(function: Callable[..., NDArray[np.float64]], *arguments: list[int], work: int
         ) -> list[NDArray[np.float64]]:  # fmt: skip
    """``function`` over the arguments, in order: by a pool of threads from ``work`` (cells
    evaluated) ``_THREADED_CELLS`` up where there are several calls and cores."""
    calls = len(arguments[0])
    threads = min(calls, os.cpu_count() or 1)
    if threads > 1 and work >= _THREADED_CELLS:
        from concurrent.futures import ThreadPoolExecutor  # here: only large jobs use it

        with ThreadPoolExecutor(threads) as pool:
            return list(pool.map(function, *arguments))
    return [function(*values) for values in zip(*arguments, strict=True)]


# ----------------------------------------------------------------- intervals (SciPy's)


def _percentile_of_score(values: NDArray[np.float64], score: float) -> float:
    """SciPy's ``_percentile_of_score``: the 'mean' kind, as a fraction."""
    return float(np.count_nonzero(values < score) + np.count_nonzero(values <= score)) / (
        2 * values.size
    )


def _bca_levels(theta_b: NDArray[np.float64], theta: float, jack: NDArray[np.float64],
                weights: NDArray[np.int64], alpha: float) -> tuple[float, float]:  # fmt: skip
    """BCa's two levels, SciPy's BCa interval (Efron & Tibshirani 1993, 14.3 and eq.
    15.36) with the jackknife over elements written over cells of weight n_k."""
    from scipy.special import ndtr, ndtri  # here: importing chanceclust loads no scipy

    z0 = float(ndtri(_percentile_of_score(theta_b, theta)))
    n = float(weights.sum())
    dot = float(np.sum(weights * jack)) / n
    u = (n - 1) * (dot - jack)
    num = float(np.sum(weights * u**3)) / n**3
    den = float(np.sum(weights * u**2)) / n**2
    with np.errstate(invalid="ignore", divide="ignore"):
        a_hat = float(np.float64(num) / 6 / np.float64(den) ** 1.5)
    z_alpha = float(ndtri(alpha))
    num1, num2 = z0 + z_alpha, z0 - z_alpha
    return (float(ndtr(z0 + num1 / (1 - a_hat * num1))),
            float(ndtr(z0 + num2 / (1 - a_hat * num2))))  # fmt: skip


def _jackknife_center(theta: Any, jack: NDArray[np.float64], weights: NDArray[Any]
                      ) -> tuple[Any, Any]:  # fmt: skip
    """The jackknife's bias-corrected estimate theta - (N - 1) (mean_k theta_(k) - theta) and
    its standard error (the jackknife over elements, over cells of weight n_k), of one table
    (``jack``, ``weights`` of shape (C,)) or of each row of tables ((m, C), ``theta`` (m,))."""
    n = weights.sum(axis=-1, keepdims=True)
    mean_left_out = (weights * jack).sum(axis=-1, keepdims=True) / n
    u = (n - 1) * (mean_left_out - jack)
    se_jack = np.sqrt((weights * u**2).sum(axis=-1, keepdims=True) / (n * (n - 1)))
    return theta - (n[..., 0] - 1) * (mean_left_out[..., 0] - theta), se_jack[..., 0]


def _studentized_ends(theta_b: NDArray[np.float64], theta: float, jack: NDArray[np.float64],
                      weights: NDArray[np.int64], alpha: float, pivots: NDArray[np.float64]
                      ) -> tuple[float, float]:  # fmt: skip
    """The debiased interval of AMI (docs/math.md#math-bootstrap): the percentile-t interval
    of the jackknife's bias-corrected estimate theta~, [theta~ - se_J t_(1-alpha),
    theta~ - se_J t_alpha] with t the quantiles of (theta~* - theta) / se_J* over the
    resamples (``pivots``: the rows (theta~*, se_J*) of ``_studentized_values``); where
    se_J is 0 or a pivot is not finite, ``_debiased_ends``."""
    center, se_jack = (float(v) for v in _jackknife_center(theta, jack, weights))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (pivots[:, 0] - theta) / pivots[:, 1]
    if not se_jack > 0 or not np.isfinite(t).all():
        return _debiased_ends(theta_b, theta, jack, weights, alpha)
    low, high = (float(v) for v in np.quantile(t, (alpha, 1 - alpha), method="linear"))
    return center - se_jack * high, center - se_jack * low


def _debiased_ends(theta_b: NDArray[np.float64], theta: float, jack: NDArray[np.float64],
                   weights: NDArray[np.int64], alpha: float) -> tuple[float, float]:  # fmt: skip
    """The debiased interval's ends (docs/math.md#math-bootstrap): the percentile interval's
    offsets from the bootstrap mean, q - mean(theta*), widened by f = max(1, se_J / se*), around
    the jackknife's bias-corrected estimate theta - (N - 1) (mean_k theta_(k) - theta), with
    se_J the jackknife's standard error (the jackknife over elements, as BCa's, over cells
    of weight n_k)."""
    center, se_jack = (float(v) for v in _jackknife_center(theta, jack, weights))
    spread = float(np.std(theta_b, ddof=1)) if theta_b.size > 1 else 0.0
    widen = max(1.0, se_jack / spread) if spread > 0 else 1.0
    mean = float(np.mean(theta_b))
    low, high = (float(v) for v in np.quantile(theta_b, (alpha, 1 - alpha), method="linear"))
    return center + widen * (low - mean), center + widen * (high - mean)


def _interval(theta_b: NDArray[np.float64], theta: float, level: float, method: str,
              jack: Callable[[], tuple[NDArray[np.float64], NDArray[np.int64]]] | None,
              alternative: str = "two-sided", pivots: NDArray[np.float64] | None = None,
              ) -> ConfidenceInterval:  # fmt: skip
    """The interval of SciPy's ``bootstrap`` from the bootstrap distribution: two-sided, or
    one-sided with the other end infinite ("less": (-inf, high); "greater": (low, inf)).
    The debiased interval is ``_studentized_ends`` where the resamples' ``pivots`` are
    given (AMI), else ``_debiased_ends``."""
    alpha = (1 - level) / 2 if alternative == "two-sided" else 1 - level
    levels = (alpha, 1 - alpha)
    if method in ("bca", "debiased"):
        if jack is None:
            raise InternalError(f"{method} needs the jackknife values")
        if method == "bca":
            levels = _bca_levels(theta_b, theta, *jack(), alpha)
    if method == "debiased" and jack is not None:  # (None raised above)
        if pivots is None:
            low, high = _debiased_ends(theta_b, theta, *jack(), alpha)
        else:
            low, high = _studentized_ends(theta_b, theta, *jack(), alpha, pivots)
    elif np.isnan(levels).any():
        from scipy.stats import DegenerateDataWarning  # here, as above

        why = ("the bootstrap or jackknife distribution is degenerate (every value equal)"
               if np.ptp(theta_b) == 0 else
               "every bootstrap value lies on one side of the observed value (a bias of "
               "many standard errors: BCa's bias correction is infinite)")  # fmt: skip
        warnings.warn(DegenerateDataWarning(
            f"The BCa confidence interval cannot be calculated: {why}; method='percentile' "
            "gives one, and method='debiased' one that corrects the bias (ARI, AMI under perm)."
        ), stacklevel=3)  # fmt: skip
        low = high = float("nan")
    else:
        low, high = (float(v) for v in np.quantile(theta_b, levels, method="linear"))
    if method == "basic":
        low, high = 2 * theta - high, 2 * theta - low
    if alternative == "less":
        low = -math.inf
    elif alternative == "greater":
        high = math.inf
    return ConfidenceInterval(low, high)


# The bootstrap's bias, |mean(theta*) - theta| in bootstrap standard errors, from which
# the interval warns (benchmarks/BOOTSTRAP_COVERAGE.md: the rows whose samples mostly lie
# above it covered 85-89 % or less at 95 %).
SHIFT_WARNING = 0.5


def _warn_if_shifted(theta_b: NDArray[np.float64], theta: float) -> None:
    spread = float(np.std(theta_b, ddof=1)) if theta_b.size > 1 else 0.0
    if not spread > 0:
        return
    shift = abs(float(np.mean(theta_b)) - theta) / spread
    # Only a shift beyond 4 Monte Carlo standard errors of the mean (1 / sqrt(B) each).
    if shift > max(SHIFT_WARNING, 4 / math.sqrt(theta_b.size)):
        warnings.warn(
            f"The bootstrap distribution's mean is {shift:.2f} standard errors from the "
            "observed value: the measure's bias (at least in the bootstrap) is of the order "
            "of its spread, as with few elements per cell, where the coverage study found "
            "the intervals covering the population value less often than the confidence "
            "level says (docs/guide/uncertainty.md).",
            UserWarning, stacklevel=4,
        )  # fmt: skip


def _bootstrap(counts: NDArray[np.int64], theta: float, options: _Options,
               evaluate: Callable[[NDArray[np.int64]], NDArray[np.float64]], alternative: str,
               left_out: Callable[[], NDArray[np.float64] | None] = lambda: None,
               ) -> tuple[NDArray[np.float64], ConfidenceInterval, str]:  # fmt: skip
    """The bootstrap distribution of the cells ``counts``, its interval around ``theta``,
    and how it was drawn ("multinomial", or "normal": ``_Gaussian``). The jackknife's values
    come from ``left_out`` where it gives them, else by evaluating each of its tables.
    ``evaluate`` gives a value per table, or a row (value, theta~, se_J) per table
    (``_studentized_values``: the debiased interval's pivots)."""
    held: list[NDArray[np.float64]] = []

    def jack() -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        if not held:
            values = left_out()
            held.append(_jackknife(counts, options.batch, evaluate) if values is None
                        else values)  # fmt: skip
        return held[0], counts

    gaussian = _gaussian(counts, options, alternative, jack)
    drawn = _resample(counts, options, evaluate, gaussian)
    theta_b, pivots = (drawn, None) if drawn.ndim == 1 else (drawn[:, 0].copy(), drawn[:, 1:])
    if options.method != "debiased":  # (the debiased interval corrects the shift)
        _warn_if_shifted(theta_b, theta)
    interval = _interval(theta_b, theta, options.level, options.method, jack, alternative,
                         pivots)  # fmt: skip
    return theta_b, interval, "multinomial" if gaussian is None else "normal"


# ----------------------------------------------------------------- public functions


@fill_doc
def confidence_interval(
    measure: str,
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    model: str = "perm",
    one_sided: bool = False,
    average_method: str = "arithmetic",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    method: str = "auto",
    alternative: str = "two-sided",
    batch: int | None = None,
    rng: Any = None,
    resampling: str = "auto",
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> ConfidenceIntervalResult:
    """Bootstrap confidence interval of a measure, over the elements, as SciPy's ``bootstrap``.

    Each resample draws N elements with replacement from the observed ones: a multinomial
    draw of N over the table's non-zero cells with probabilities n_ij / N, so a resample
    costs O(cells) whatever N. The measure of each resampled table is the library's own
    (the same formulas as the single call); an adjusted measure is adjusted with the
    resample's own cluster sizes (its E[MI], E[RI], s_max), as the single call on those
    labels would be.

    The interval is for the population value of the measure: the measure of the population
    cell proportions p_ij, with N elements where the adjustment depends on N
    (docs/math.md#math-bootstrap).

    Parameters
    ----------
    measure : str
        A measure of :func:`~chanceclust.compare`: "ri", "ari", "mi", "nmi", "ami", "fmi",
        "jaccard", "vi", "sri", "smi".
    %(labels)s
    %(contingency)s
        A :class:`~chanceclust.TableSummary` is refused: it has no cells to resample.
    %(model)s
        Used by the adjusted measures (ari, ami, sri, smi) only.
    average_method : str, default="arithmetic"
        The normalization of NMI and AMI (as :func:`adjusted_mutual_information`).
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    n_resamples : int, default=9999
    method : {"auto", "debiased", "BCa", "percentile", "basic"}, default="auto"
        "percentile", "basic" and "BCa" as :func:`scipy.stats.bootstrap` (BCa's acceleration
        by the jackknife over the elements: one value per non-zero cell). "debiased" (ARI
        and AMI under perm only), for tables of few elements per cell, where the measures'
        bias is of the order of their spread and the bootstrap misjudges it, is centred on
        the jackknife's bias-corrected estimate: for ARI with the percentile interval's
        offsets from the bootstrap mean, widened to the jackknife's standard error where it
        is larger; for AMI the percentile-t interval of that estimate (each resample's own
        jackknife, in closed form) (docs/math.md#math-bootstrap). "auto" takes "debiased" for ARI and AMI under perm
        with fewer than 100 elements per non-zero cell (``DEBIASED_PER_CELL``), "BCa"
        otherwise; ``.method`` of the result says which.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        As :func:`scipy.stats.bootstrap`: "less" gives (-inf, high), "greater" (low, inf),
        each end at level ``confidence_level``.
    batch : int, optional
        Resamples evaluated at once (default: about 4 million cells' worth); the result
        depends on it through rounding only (~1e-15 relative: AMI's E[MI] of a batch's
        distinct size pairs may round otherwise).
    rng : None, int or numpy.random.Generator
        The resamples are drawn in blocks of 512, block b by ``Generator(PCG64(seed_b))``
        with seed_b the b-th child of a ``SeedSequence`` seeded by four integers drawn from
        ``rng``; large jobs draw the blocks in parallel threads. The draws depend on ``rng``
        only (not on ``batch`` or the number of threads).
    resampling : {"auto", "multinomial"}, default="auto"
        "multinomial" draws every resample exactly. "auto" does too, except for large jobs
        (cells x resamples >= 2**24) whose cells of count >= 100 can be drawn by the
        multinomial's normal approximation with an error on the interval's ends below a
        tenth of their Monte Carlo error (the bound is in docs/math.md#math-bootstrap;
        ``.resampling`` says which was used).
    %(unassigned)s

    Returns
    -------
    ConfidenceIntervalResult
        ``.confidence_interval`` (``.low``, ``.high``), ``.bootstrap_distribution``,
        ``.standard_error``, ``.statistic``.

    Warns
    -----
    scipy.stats.DegenerateDataWarning
        BCa on a degenerate distribution (e.g. identical clusterings: every resample has
        the same value); the interval is then (nan, nan), as SciPy's.
    UserWarning
        When the bootstrap distribution's mean lies more than max(0.5, 4 / sqrt(B))
        standard errors from the observed value (every method but "debiased", which corrects
        it): the measure's bias is of the order of its spread, as with few elements per cell,
        where the coverage study measured BCa and percentile intervals covering less often
        than their level (docs/math.md#math-bootstrap).

    Notes
    -----
    Cost: n_resamples multinomial draws over the C non-zero cells (numpy draws C binomials
    each), plus, for the adjusted measures, the model's constants per resample (E[MI] under
    perm is the dominant cost: benchmarks/bootstrap_timing.py); BCa and "debiased" add C
    evaluations (for ARI and AMI under perm, closed-form updates of the observed table's
    sums); AMI's "debiased" the same closed-form jackknife of every resample, O(C) each.

    Examples
    --------
    >>> from chanceclust import confidence_interval
    >>> a = [0] * 30 + [1] * 30 + [2] * 30
    >>> b = [0] * 25 + [1] * 10 + [2] * 25 + [0] * 5 + [2] * 25
    >>> res = confidence_interval("ari", a, b, n_resamples=999, rng=0)
    >>> round(res.statistic, 4)
    0.3944
    >>> low, high = res.confidence_interval
    >>> bool(low < res.statistic < high)
    True
    """
    options = _options(measure, model, one_sided, average_method, confidence_level,
                       n_resamples, method, batch, rng, resampling)  # fmt: skip
    alternative = check_alternative(alternative)
    table, _ = _validated_table(labels_true, labels_pred, contingency, model, one_sided,
                                unassigned_label, unassigned)  # fmt: skip
    if table.weights is not None:
        raise InvalidInputError(
            "`contingency` must hold the table's cells: a TableSummary has only their "
            "counts, and a bootstrap resamples the cells."
        )
    _check_size(table.n)
    cells = _table_cells(table, options)
    options = _resolved_method(options, cells)

    def evaluate(counts: NDArray[np.int64]) -> NDArray[np.float64]:
        if studentized:
            return _studentized_values(options, cells, counts)
        return _values(options, cells, counts)

    def left_out() -> NDArray[np.float64] | None:
        if options.method == "debiased":
            return _debiased_jackknife(options, cells)
        return _left_out_values(options, cells, table.counts)

    theta = float(_values(options, cells, table.counts[None])[0])
    # The debiased interval of AMI: each resample's jackknife too (``_studentized_values``).
    studentized = options.method == "debiased" and cells.route == "ami"
    theta_b, interval, drawn = _bootstrap(table.counts, theta, options, evaluate, alternative,
                                          left_out)  # fmt: skip
    return ConfidenceIntervalResult(interval, theta_b, float(np.std(theta_b, ddof=1)), theta,
                                    options.measure.name, options.method,
                                    options.level, drawn)  # fmt: skip


def _resolved_method(options: _Options, cells: _Cells) -> _Options:
    """The options with "auto" resolved: "debiased" for ARI and AMI under perm (the cells'
    route) with fewer than DEBIASED_PER_CELL elements per non-zero cell, else "bca"; an
    explicit "debiased" elsewhere is refused."""
    method, table = options.method, cells.table
    if method == "auto":
        few = table.n < DEBIASED_PER_CELL * len(table.counts)
        method = "debiased" if cells.route and few else "bca"
    elif method == "debiased" and not cells.route:
        raise InvalidInputError(
            "`method='debiased'` is for measure 'ari' or 'ami' with model='perm' (the "
            "population value of its jackknife: docs/math.md#math-bootstrap); got measure "
            f"{options.measure.name!r} with model {options.setting.name!r}: use 'BCa'."
        )
    return replace(options, method=method)


def _debiased_jackknife(options: _Options, cells: _Cells) -> NDArray[np.float64]:
    """The jackknife of the debiased interval: ARI's as BCa's; AMI's with every left-out
    table adjusted by the observed table's E[MI] at N (the population value's E[MI] is at N:
    docs/math.md#math-bootstrap), so that only the MI and the entropies move."""
    table = cells.table
    if cells.route == "ami":
        sizes = (np.asarray(table.row_sums, np.int64)[None],
                 np.asarray(table.col_sums, np.int64)[None])  # fmt: skip
        expected = float(_resampled_emi(cells, options.setting, *sizes, table.n)[0])
        cells = replace(cells, expected=expected)
    values = _left_out_values(options, cells, table.counts)
    if values is None:
        values = _jackknife(table.counts, options.batch, lambda c: _values(options, cells, c))
    return values


def _check_size(n: int) -> None:
    if n < 2:
        raise InvalidInputError(
            f"a bootstrap needs at least 2 elements; got N = {n} (every resample is the "
            "observed table)."
        )


@fill_doc
def paired_test(
    measure: str,
    reference: Any,
    labels_a: Any,
    labels_b: Any,
    *,
    model: str = "perm",
    one_sided: bool = False,
    average_method: str = "arithmetic",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    method: str = "BCa",
    batch: int | None = None,
    rng: Any = None,
    resampling: str = "auto",
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> PairedTestResult:
    """Paired bootstrap test: is A closer to the reference than B, on the same elements?

    The statistic is d = s(reference, A) - s(reference, B). Each resample draws N elements
    with replacement, the same elements for both comparisons (a multinomial draw over the
    non-zero cells of the three-way table of reference, A and B), and evaluates d on them.
    The p-value is that of the percentile bootstrap test (the inversion of the percentile
    interval): with D the resampled differences and B their number, "greater" (H1: d > 0)
    gives (#{D <= 0} + 1) / (B + 1), "less" (#{D >= 0} + 1) / (B + 1), and "two-sided"
    twice the smaller, capped at 1 (docs/math.md#math-bootstrap).

    Parameters
    ----------
    measure : str
        As :func:`confidence_interval`. For a similarity d > 0 means A is closer to the
        reference; for the distance "vi", d < 0 does.
    reference, labels_a, labels_b : array-like of shape (n_samples,)
        Three clusterings of the same elements (by position, or all keyed by element).
    model, one_sided, average_method
        As :func:`confidence_interval`; ``one_sided`` makes the reference fixed in both.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        The alternative hypothesis about the population difference; the interval is
        one-sided the same way (as :func:`confidence_interval`'s ``alternative``).
    confidence_level, n_resamples, batch, rng, resampling
        As :func:`confidence_interval`; the interval is that of the difference.
    method : {"percentile", "basic", "BCa"}, default="BCa"
        As :func:`scipy.stats.bootstrap` (the debiased interval of
        :func:`confidence_interval` is not offered for a difference: its coverage was not
        studied).
    %(unassigned)s
        Over the three clusterings: "drop" leaves out an element unassigned in any of them
        (both comparisons stay on the same elements).

    Returns
    -------
    PairedTestResult
        ``.statistic`` (d), ``.pvalue``, ``.confidence_interval``, ``.bootstrap_distribution``.

    Warns
    -----
    UserWarning
        As :func:`confidence_interval`, for the difference's bootstrap distribution.

    Examples
    --------
    >>> from chanceclust import paired_test
    >>> ref = [0] * 40 + [1] * 40 + [2] * 40
    >>> a = [0] * 38 + [1] * 2 + [1] * 38 + [2] * 2 + [2] * 40
    >>> b = [0] * 30 + [1] * 10 + [1] * 30 + [2] * 10 + [2] * 40
    >>> res = paired_test("ari", ref, a, b, n_resamples=999, rng=0)
    >>> bool(res.statistic > 0), bool(res.pvalue < 0.01)
    (True, True)
    """
    options = _options(measure, model, one_sided, average_method, confidence_level,
                       n_resamples, method, batch, rng, resampling, PAIRED_METHODS)  # fmt: skip
    alternative = check_alternative(alternative)
    codes, ks = _three(reference, labels_a, labels_b, unassigned_label, unassigned)
    n = len(codes[0])
    _check_size(n)
    _k_ref, k_a, k_b = ks
    keys = (codes[0].astype(np.int64) * k_a + codes[1]) * k_b + codes[2]
    cell_keys, counts = np.unique(keys, return_counts=True)
    counts = counts.astype(np.int64)
    ref_cell, rest = np.divmod(cell_keys, k_a * k_b)
    a_cell, b_cell = np.divmod(rest, k_b)
    pair_a = _two_way(ref_cell, a_cell, counts, n, options)
    pair_b = _two_way(ref_cell, b_cell, counts, n, options)

    def evaluate(rows: NDArray[np.int64]) -> NDArray[np.float64]:
        return _pair_values(options, pair_a, rows) - _pair_values(options, pair_b, rows)

    value_a = float(_pair_values(options, pair_a, counts[None])[0])
    value_b = float(_pair_values(options, pair_b, counts[None])[0])
    theta = value_a - value_b
    theta_b, interval, drawn = _bootstrap(counts, theta, options, evaluate, alternative)
    return PairedTestResult(
        theta, _paired_pvalue(theta_b, alternative), interval, theta_b,
        float(np.std(theta_b, ddof=1)), value_a, value_b, options.measure.name,
        options.method, alternative, options.level, drawn,
    )  # fmt: skip


def _three(reference: Any, labels_a: Any, labels_b: Any, unassigned_label: Any,
           unassigned: Any) -> tuple[list[NDArray[np.integer]], list[int]]:  # fmt: skip
    """The three clusterings' codes on the same elements and their K, the unassigned policy
    applied (as the single calls apply it to two; "drop" drops from all three)."""
    names = ("reference", "labels_a", "labels_b")
    codes, ks, _ = validate_many([reference, labels_a, labels_b], names,
                                 unassigned_label=unassigned_label, unassigned=unassigned)
    policy = check_unassigned(unassigned)
    if policy.drops:
        keep = np.logical_and.reduce([c >= 0 for c in codes])
        if not keep.any():
            raise nothing_left(keep.size, names)
        parts = [_compact(c[keep], k)[:2] for c, k in zip(codes, ks, strict=True)]
    else:
        parts = [policy.reassign(c, k, int(np.count_nonzero(c < 0)))[:2]
                 for c, k in zip(codes, ks, strict=True)]  # fmt: skip
    return [c for c, _ in parts], [k for _, k in parts]


@dataclass(frozen=True)
class _TwoWay:
    """A two-way table of a three-way one: its cells and each three-way cell's two-way cell."""

    cells: _Cells
    of_cell: NDArray[np.intp]


def _two_way(first: NDArray[np.int64], second: NDArray[np.int64], counts: NDArray[np.int64],
             n: int, options: _Options) -> _TwoWay:  # fmt: skip
    """The (first, second) table of the three-way cells (both codes dense 0..K-1)."""
    k_second = int(second.max()) + 1
    keys, of_cell = np.unique(first * k_second + second, return_inverse=True)
    rows, cols = np.divmod(keys, k_second)
    summed = _sums(counts[None], of_cell, len(keys))[0]
    shape = (int(rows.max()) + 1, k_second)
    table = _table_of_cells(rows, cols, summed, shape, n)
    return _TwoWay(_table_cells(table, options), of_cell)


def _pair_values(options: _Options, pair: _TwoWay, rows: NDArray[np.int64]
                 ) -> NDArray[np.float64]:  # fmt: skip
    return _values(options, pair.cells, _sums(rows, pair.of_cell, len(pair.cells.rows)))


def _paired_pvalue(differences: NDArray[np.float64], alternative: str) -> float:
    """The percentile bootstrap test of d = 0 with the +1 correction of SciPy's Monte Carlo
    tests (Davison & Hinkley 1997, eq. 4.11)."""
    total = differences.size + 1
    greater = (np.count_nonzero(differences <= 0) + 1) / total  # H1: d > 0
    less = (np.count_nonzero(differences >= 0) + 1) / total  # H1: d < 0
    if alternative == "greater":
        return float(greater)
    if alternative == "less":
        return float(less)
    return float(min(1.0, 2 * min(greater, less)))
