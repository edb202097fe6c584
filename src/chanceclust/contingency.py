"""Contingency tables and pair counts: the only summary of two clusterings the measures need."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._tables import (
    Table,  # noqa: F401 - re-exported
    check_workers,
    count_cells,
    dense_tally,
    encoding_threads,
    sizes_transpose,  # noqa: F401 - re-exported
    table_from_codes,
    table_of_cells,
    user_table,
)
from chanceclust._validation import (
    Clusterings,
    UnassignedReport,
    _describe,
    check_unassigned,
    validate_clusterings,
)
from chanceclust.exceptions import InvalidInputError

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["PairCounts", "contingency_table", "pair_counts"]

# The table path lives in _tables; its names stay importable from here (Table and
# sizes_transpose too), as the other modules and the benchmarks import them.
_table_from_codes, _table_of_cells, _check_table = table_from_codes, table_of_cells, user_table

# ``contingency_table(sparse=None)`` returns a sparse table above this many cells (public
# behaviour, documented there; how the cells are counted is _tables.dense_counting's rule).
_DENSE_OUTPUT_LIMIT = 2**22


@dataclass(frozen=True)
class PairCounts:
    """Counts of element pairs by agreement, as exact Python ints.

    Formula: docs/math.md#math-rand (paper eq. 2).

    ``n11``: together in both; ``n10``: together in ``labels_true`` only;
    ``n01``: together in ``labels_pred`` only; ``n00``: apart in both.

    Examples
    --------
    >>> from chanceclust import pair_counts
    >>> counts = pair_counts([0, 0, 1, 1], [0, 0, 0, 1])
    >>> counts.n11 + counts.n00, counts.total  # the Rand index is 3/6
    (3, 6)
    """

    n11: int
    n10: int
    n01: int
    n00: int

    @property
    def total(self) -> int:
        """The number of pairs, C(N, 2)."""
        return self.n11 + self.n10 + self.n01 + self.n00


@fill_doc
def contingency_table(
    labels_true: Any,
    labels_pred: Any,
    *,
    sparse: bool | None = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
    workers: int | None = None,
) -> NDArray[np.int64] | sp.csr_array:
    """Build the contingency table n_ij = |A_i ∩ B_j| of two clusterings.

    Formula: docs/math.md#math-notation (paper Table 3).

    Parameters
    ----------
    labels_true : array-like of shape (n_samples,)
        Labels of the first clustering A (rows), any hashable values.
    labels_pred : array-like of shape (n_samples,)
        Labels of the second clustering B (columns).
    sparse : bool or None, default=None
        Return a ``scipy.sparse.csr_array`` if True, a dense array if False.
        None chooses sparse when the table would have more than 2**22 cells.
    %(unassigned)s
    workers : int or None, default=None
        Threads that count the table, as ``scipy.fft``'s ``workers``: a
        positive number, or -1 for every available core (-2 all but one,
        ...). None uses every available core from 2**24 elements on, one
        thread below. The counts are the same whatever the number (integers);
        threads are used while the table has at most N / (2 x threads) cells
        (a dense count per thread), else one thread counts it.

    Returns
    -------
    table : ndarray of shape (K_A, K_B), dtype int64, or csr_array
        Rows follow the sorted distinct values of ``labels_true`` (order of
        first appearance when they are not sortable), columns likewise.

    Notes
    -----
    One pass over the labels after factorizing them: O(N) for integer labels
    in a compact range, O(N log N) otherwise. Threaded, the cell keys are
    built and counted in chunks (never N int64 keys at once).

    Examples
    --------
    >>> from chanceclust import contingency_table
    >>> contingency_table(["a", "a", "b", "b"], [0, 1, 1, 1])
    array([[1, 1],
           [0, 2]])
    """
    threads = check_workers(workers)
    # passed on as a temporary, not kept here: the codes are freed as the table is counted
    return table_of_codes(
        validate_clusterings(labels_true, labels_pred, unassigned_label=unassigned_label,
                             unassigned=unassigned, on_device=True,
                             workers=encoding_threads(threads, labels_true, labels_pred)),
        sparse=sparse, workers=threads,
    )  # fmt: skip


def table_of_codes(
    c: Clusterings, *, sparse: bool | None = None, workers: int | None = None
) -> NDArray[np.int64] | sp.csr_array:
    """:func:`contingency_table` of two clusterings that validation already read.

    For callers holding a validated :class:`~chanceclust._validation.Clusterings` (the CLI:
    one validation for the table of all measures). ``workers`` as
    :func:`_tables.check_workers` returns it.
    """
    codes_true, k_true, codes_pred, k_pred = c.codes_true, c.k_true, c.codes_pred, c.k_pred
    del c
    if sparse is None:
        sparse = k_true * k_pred > _DENSE_OUTPUT_LIMIT
    if not sparse:  # the tally itself: no list of its non-zero cells
        return dense_tally(codes_true, codes_pred, k_true, k_pred, workers=workers).reshape(
            k_true, k_pred
        )
    counted = count_cells(codes_true, codes_pred, k_true, k_pred, workers=workers)
    del codes_true, codes_pred  # free as we go: the peak stays near the labels' size
    import scipy.sparse as sp  # imported on use: it costs ~0.3 s at start-up

    cells, counts = counted.cells, counted.counts  # in CSR order: row-major keys
    del counted
    index_type = np.int32 if max(k_pred, cells.size) < 2**31 else np.int64
    # Row r's cells are the keys in [r K_B, (r + 1) K_B): their bounds are the row pointers.
    indptr = np.searchsorted(cells, np.arange(k_true + 1, dtype=np.int64) * k_pred).astype(
        index_type
    )
    cells %= k_pred  # now the column indices
    indices = cells.astype(index_type)
    del cells
    return sp.csr_array((counts, indices, indptr), shape=(k_true, k_pred))


def _summarize(*args: Any, **kwargs: Any) -> Table:
    """The :class:`Table` of either two labelings or a precomputed table (exactly one)."""
    return _summarize_report(*args, **kwargs)[0]


def _summarize_report(
    labels_true: Any,
    labels_pred: Any,
    contingency: Any,
    *,
    unassigned_label: Any = None,
    unassigned: Any = "raise",
) -> tuple[Table, UnassignedReport]:
    """:func:`summarize`, with the report of what the unassigned policy did."""
    if contingency is not None:
        if labels_true is not None or labels_pred is not None:
            raise InvalidInputError(
                "Give either `labels_true` and `labels_pred`, or `contingency`; got both."
            )
        policy = check_unassigned(unassigned)
        if unassigned_label is not None:
            raise InvalidInputError(
                "`unassigned_label` applies to labels; a `contingency` table has no "
                f"unassigned elements; got unassigned_label={_describe(unassigned_label)}."
            )
        if not policy.refuses:  # nothing to drop or re-assign: accepting it would be a no-op
            raise InvalidInputError(
                "`unassigned` applies to labels; a `contingency` table has no unassigned "
                f"elements to drop or re-assign; got unassigned={policy.name!r} (build the table "
                "from labels with the policy, e.g. contingency_table(a, b, unassigned=...))."
            )
        if getattr(type(contingency), "_validated_once", False):  # chanceclust.summary's
            return contingency._table, UnassignedReport(policy.name)  # checked when built
        return user_table(contingency), UnassignedReport(policy.name)
    if labels_true is None or labels_pred is None:
        missing = "labels_true" if labels_true is None else "labels_pred"
        raise InvalidInputError(
            f"`{missing}` is required when `contingency` is not given; got None."
        )
    c = validate_clusterings(labels_true, labels_pred, unassigned_label=unassigned_label,
                             unassigned=unassigned, on_device=True)  # fmt: skip
    return table_from_codes(c.codes_true, c.k_true, c.codes_pred, c.k_pred), c.report


def _sum_pairs(values: NDArray[np.int64], total: int | None = None) -> int:
    """Sum of C(v, 2), exact: int64 while it cannot overflow, Python ints beyond.

    ``total``: the sum of ``values`` when the caller knows it (a table's N)."""
    if values.size == 0:
        return 0
    if total is None:
        total = int(values.sum(dtype=np.float64))
    if total < 2**31:  # then sum v (v - 1) < 2**62: one int64 dot product, halved (even)
        return int(np.dot(values, values - 1)) // 2
    return sum(int(v) * (int(v) - 1) // 2 for v in values)


@fill_doc
def pair_counts(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> PairCounts:
    """Count element pairs by whether each clustering puts them together.

    Formula: docs/math.md#math-rand (paper eq. 2).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table of non-negative integer counts: any
        integer or boolean dtype, integral floats, or Python ints (lists or
        object arrays). Every function taking ``contingency=`` accepts totals
        up to 2**63 - 1 and raises ``InvalidInputError`` (a ``ValueError``)
        beyond (never wraps around).
    %(unassigned)s

    Returns
    -------
    PairCounts
        ``n11`` (together in both), ``n10`` (together in ``labels_true``
        only), ``n01`` (together in ``labels_pred`` only), ``n00`` (apart in
        both), exact Python ints even for N = 10^9 given as a table.

    Notes
    -----
    With Q(A) = sum_i C(a_i, 2): n11 = sum_ij C(n_ij, 2), n10 = Q(A) - n11,
    n01 = Q(B) - n11, n00 = C(N, 2) - n11 - n10 - n01. O(cells) after the
    table.

    Examples
    --------
    >>> from chanceclust import pair_counts
    >>> pair_counts([0, 0, 1, 1], [0, 0, 0, 1])
    PairCounts(n11=1, n10=1, n01=2, n00=2)
    """
    return _pair_counts(
        _summarize(
            labels_true,
            labels_pred,
            contingency,
            unassigned_label=unassigned_label,
            unassigned=unassigned,
        )
    )


def _pair_counts(table: Table) -> PairCounts:
    """The :class:`PairCounts` of a :class:`Table`."""
    n = table.n
    # a table of cells (built here, never by a user) has counts and sizes that sum to N; a
    # TableSummary's histograms are the user's: their sums are taken
    known = n if table.weights is None else None
    if table.weights is None:
        n11 = _sum_pairs(table.counts, n)
    else:  # a histogram of cell counts: sum of multiplicity x C(count, 2)
        n11 = sum(
            int(w) * (int(v) * (int(v) - 1) // 2)
            for v, w in zip(table.counts, table.weights, strict=True)
        )
    q_true = _sum_pairs(table.row_sums, known)
    q_pred = _sum_pairs(table.col_sums, known)
    total = n * (n - 1) // 2
    return PairCounts(n11, q_true - n11, q_pred - n11, total - q_true - q_pred + n11)
