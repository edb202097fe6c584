"""Contingency tables and pair counts: the only summary of two clusterings the measures need."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._validation import (
    UnassignedReport,
    _describe,
    check_unassigned,
    validate_clusterings,
)

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["PairCounts", "contingency_table", "pair_counts"]

# Dense tables above this many cells are built sparse when ``sparse=None``.
_DENSE_CELL_LIMIT = 2**22


@dataclass(frozen=True)
class Table:
    """The non-zero cells of a contingency table with their margins (internal currency).

    Attributes
    ----------
    counts : ndarray of int64
        The non-zero cell counts n_ij.
    rows, cols : ndarray of intp
        Row (``labels_true`` cluster) and column (``labels_pred`` cluster) of each cell.
    row_sums, col_sums : ndarray of int64
        Cluster sizes a_i and b_j (all positive: empty rows and columns are dropped).
    n : int
        Number of elements N.
    weights : ndarray of int64 or None
        None for a table of cells. For a :class:`chanceclust.TableSummary`,
        the multiplicity of each distinct cell count in ``counts`` (a
        histogram; ``rows`` and ``cols`` are then empty).
    """

    counts: NDArray[np.int64]
    rows: NDArray[np.intp]
    cols: NDArray[np.intp]
    row_sums: NDArray[np.int64]
    col_sums: NDArray[np.int64]
    n: int
    weights: NDArray[np.int64] | None = None

    @property
    def identical(self) -> bool:
        """True when both clusterings are the same partition (perfect agreement)."""
        k = len(self.row_sums)
        nnz = len(self.counts) if self.weights is None else int(self.weights.sum())
        return nnz == k == len(self.col_sums)


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


def contingency_table(
    labels_true: Any,
    labels_pred: Any,
    *,
    sparse: bool | None = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
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
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    table : ndarray of shape (K_A, K_B), dtype int64, or csr_array
        Rows follow the sorted distinct values of ``labels_true`` (order of
        first appearance when they are not sortable), columns likewise.

    Notes
    -----
    One pass over the labels after factorizing them: O(N) for integer labels
    in a compact range, O(N log N) otherwise.

    Examples
    --------
    >>> from chanceclust import contingency_table
    >>> contingency_table(["a", "a", "b", "b"], [0, 1, 1, 1])
    array([[1, 1],
           [0, 2]])
    """
    c = validate_clusterings(
        labels_true, labels_pred, unassigned_label=unassigned_label, unassigned=unassigned
    )
    codes_true, k_true, codes_pred, k_pred = c.codes_true, c.k_true, c.codes_pred, c.k_pred
    del c
    if sparse is None:
        sparse = k_true * k_pred > _DENSE_CELL_LIMIT
    keys = _cell_keys(codes_true, codes_pred, k_pred)
    del codes_true, codes_pred  # free as we go: the peak stays near the labels' size
    if not sparse:
        return np.bincount(keys, minlength=k_true * k_pred).reshape(k_true, k_pred)
    import scipy.sparse as sp  # imported on use: it costs ~0.3 s at start-up

    cells, counts = _sorted_cells(keys)  # in CSR order: row-major keys
    del keys
    index_type = np.int32 if max(k_pred, cells.size) < 2**31 else np.int64
    # Row r's cells are the keys in [r K_B, (r + 1) K_B): their bounds are the row pointers.
    indptr = np.searchsorted(cells, np.arange(k_true + 1, dtype=np.int64) * k_pred).astype(
        index_type
    )
    cells %= k_pred  # now the column indices
    indices = cells.astype(index_type)
    del cells
    return sp.csr_array((counts, indices, indptr), shape=(k_true, k_pred))


_COMPACT_CHUNK = 1 << 16  # elements moved at a time when compacting in place


def _cell_keys(
    codes_true: NDArray[np.integer], codes_pred: NDArray[np.integer], k_pred: int
) -> NDArray[np.int64]:
    """row * K_B + col for every element, built in place (one int64 array)."""
    keys = codes_true.astype(np.int64)
    keys *= k_pred
    keys += codes_pred
    return keys


def _sorted_cells(keys: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Distinct keys (ascending) and their counts, by one in-place sort of ``keys``.

    ``keys`` itself becomes the distinct keys (compacted and shrunk in place, so
    it must own its data and have no views): the peak is ``keys`` plus two arrays
    of one int64 per distinct key.
    """
    keys.sort()
    starts = np.flatnonzero(keys[1:] != keys[:-1])  # where each run but the first starts, minus 1
    starts += 1
    nnz = starts.size + 1 if keys.size else 0
    # keys[k] = keys[starts[k - 1]] for k >= 1, in chunks: a chunk's sources lie at or after
    # its targets and before no earlier target, so nothing is read after being overwritten.
    for first in range(0, starts.size, _COMPACT_CHUNK):
        last = min(first + _COMPACT_CHUNK, starts.size)
        keys[first + 1 : last + 1] = keys[starts[first:last]]
    counts = np.empty(nnz, dtype=np.int64)  # run lengths: differences of the run starts
    counts[:1] = starts[:1] if starts.size else keys.size
    np.subtract(starts[1:], starts[:-1], out=counts[1:-1])
    if nnz > 1:
        counts[-1] = keys.size - starts[-1]
    del starts
    keys.resize(nnz, refcheck=False)  # shrinks in place (realloc): ``keys`` owns its data
    return keys, counts


def _table_from_codes(
    codes_true: NDArray[np.integer], k_true: int, codes_pred: NDArray[np.integer], k_pred: int
) -> Table:
    n = codes_true.shape[0]
    if k_true * k_pred <= max(4 * n, 1024):  # dense counts; margins from the table itself
        counts2d = np.bincount(
            _cell_keys(codes_true, codes_pred, k_pred), minlength=k_true * k_pred
        ).reshape(k_true, k_pred)
        row_sums, col_sums = counts2d.sum(axis=1), counts2d.sum(axis=0)
        cells = np.flatnonzero(counts2d)
        counts = counts2d.ravel()[cells]
    else:
        row_sums = np.bincount(codes_true, minlength=k_true)
        col_sums = np.bincount(codes_pred, minlength=k_pred)
        cells, counts = _sorted_cells(_cell_keys(codes_true, codes_pred, k_pred))
    rows, cols = np.divmod(cells, k_pred)
    return Table(
        counts.astype(np.int64, copy=False),
        rows.astype(np.intp, copy=False),
        cols.astype(np.intp, copy=False),
        row_sums.astype(np.int64, copy=False),
        col_sums.astype(np.int64, copy=False),
        n,
    )


def _is_sparse(value: Any) -> bool:
    """scipy.sparse.issparse without importing scipy.sparse when it was never loaded."""
    import sys

    module = sys.modules.get("scipy.sparse")
    return module is not None and module.issparse(value)


#: The largest total N of a ``contingency`` table: counts, sizes and N are int64 inside.
MAX_TOTAL = 2**63 - 1


def _check_table(contingency: Any) -> Table:
    """Validate a user's contingency table (dense or sparse) and summarize it."""
    if _is_sparse(contingency):
        import scipy.sparse as sp

        coo = sp.coo_array(contingency)
        if coo.ndim != 2:
            raise ValueError(f"`contingency` must be 2-D; got shape {coo.shape}.")
        coo.sum_duplicates()
        data, rows, cols, shape = coo.data, coo.row, coo.col, coo.shape
        order = np.lexsort((cols, rows))  # row-major cells, whatever scipy's version sorts by
        data, rows, cols = data[order], rows[order], cols[order]
    else:
        dense = _dense_table(contingency)
        rows, cols = np.nonzero(dense)
        data, shape = dense[rows, cols], dense.shape
    counts, n = _check_counts(np.asarray(data), rows, cols)
    keep = counts > 0
    counts, rows, cols = counts[keep], rows[keep], cols[keep]
    row_sums = np.zeros(shape[0], dtype=np.int64)
    np.add.at(row_sums, rows, counts)
    col_sums = np.zeros(shape[1], dtype=np.int64)
    np.add.at(col_sums, cols, counts)
    # Drop empty clusters: a cluster with no element is not a cluster.
    row_index = np.cumsum(row_sums > 0) - 1
    col_index = np.cumsum(col_sums > 0) - 1
    return Table(
        counts,
        row_index[rows].astype(np.intp),
        col_index[cols].astype(np.intp),
        row_sums[row_sums > 0],
        col_sums[col_sums > 0],
        n,
    )


def _dense_table(contingency: Any) -> np.ndarray:
    """A user's dense table as a 2-D numpy array (any numeric dtype, or Python ints)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy < 1.24 warns on ragged rows, then builds objects
            dense = np.asarray(contingency)
    except (ValueError, TypeError, Warning):
        dense = None
    if dense is None or (
        dense.dtype == object and any(isinstance(v, (list, tuple, np.ndarray)) for v in dense.flat)
    ):
        raise ValueError(
            "`contingency` must be a rectangular 2-D table of counts; its rows have "
            "different lengths (or it is not array-like)."
        )
    if dense.ndim != 2:
        raise ValueError(f"`contingency` must be a 2-D table of counts; got shape {dense.shape}.")
    if dense.dtype.kind not in "biufO":
        raise ValueError(f"`contingency` must hold integer counts; got dtype {dense.dtype}.")
    return dense


def _check_counts(
    data: np.ndarray, rows: NDArray[np.intp], cols: NDArray[np.intp]
) -> tuple[NDArray[np.int64], int]:
    """The cells as exact int64 counts, and their total N as a Python int.

    Accepts integer, boolean, integral float and object (Python int) cells.
    Raises ``ValueError`` naming the cell for a negative, fractional or
    non-finite count, and naming the limit when N exceeds :data:`MAX_TOTAL`:
    never a silent drop or wrap-around.
    """

    def bad(i: int, value: Any, what: str = "non-negative integer counts") -> ValueError:
        return ValueError(
            f"`contingency` must hold {what}; got {_describe(value)} at cell ({rows[i]}, {cols[i]})."
        )

    if data.dtype.kind == "O":
        cells = []
        for i, value in enumerate(data.tolist()):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise bad(i, value)
            if not isinstance(value, numbers.Integral) and not (
                math.isfinite(value) and float(value).is_integer()
            ):
                raise bad(i, value)
            cells.append(int(value))
        if cells and min(cells) < 0:
            i = next(j for j, c in enumerate(cells) if c < 0)
            raise bad(i, cells[i])
        n = sum(cells)
        _check_total(n)
        return np.array(cells, dtype=np.int64).reshape(data.shape), n
    if data.dtype.kind == "f":
        fractional = ~np.isfinite(data) | (data != np.round(data))
        if fractional.any():
            i = int(np.argmax(fractional))
            raise bad(i, data[i].item())
    elif data.dtype.kind not in "biu":
        raise ValueError(f"`contingency` must hold integer counts; got dtype {data.dtype}.")
    if data.size and data.min() < 0:
        i = int(np.argmax(data < 0))
        raise bad(i, data[i].item())
    if data.dtype.kind == "b":
        return data.astype(np.int64), int(np.count_nonzero(data))
    # A float sum far below 2**63 proves the int64 sums cannot overflow; near it, add exactly.
    estimate = float(np.sum(data, dtype=np.float64))
    if estimate < 2.0**62:
        counts = data.astype(np.int64)
        return counts, int(np.sum(counts))
    if data.max() >= 2**63:  # float or uint64 cells that int64 cannot hold
        i = int(np.argmax(data >= 2**63))
        _check_total(int(data[i].item()))
    counts = data.astype(np.int64)
    n = sum(int(c) for c in counts)
    _check_total(n)
    return counts, n


def _check_total(n: int) -> None:
    if n > MAX_TOTAL:
        raise ValueError(
            f"`contingency` counts must add up to at most 2**63 - 1 = {MAX_TOTAL} elements "
            f"(the int64 limit); got a total of {n}."
            if n < 10**30
            else f"`contingency` counts must add up to at most 2**63 - 1 = {MAX_TOTAL} elements "
            f"(the int64 limit); got a total of about {float(n):.3g}."
        )


def _summarize(
    labels_true: Any,
    labels_pred: Any,
    contingency: Any,
    *,
    unassigned_label: Any = None,
    unassigned: Any = "raise",
) -> Table:
    """Return the :class:`Table` of either two labelings or a precomputed table (exactly one)."""
    return _summarize_report(
        labels_true,
        labels_pred,
        contingency,
        unassigned_label=unassigned_label,
        unassigned=unassigned,
    )[0]


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
            raise ValueError(
                "Give either `labels_true` and `labels_pred`, or `contingency`; got both."
            )
        policy = check_unassigned(unassigned)
        if unassigned_label is not None:
            raise ValueError(
                "`unassigned_label` applies to labels; a `contingency` table has no "
                f"unassigned elements; got unassigned_label={_describe(unassigned_label)}."
            )
        if getattr(type(contingency), "_validated_once", False):  # chanceclust.summary's
            return contingency._table, UnassignedReport(policy)  # checked when built
        return _check_table(contingency), UnassignedReport(policy)
    if labels_true is None or labels_pred is None:
        missing = "labels_true" if labels_true is None else "labels_pred"
        raise ValueError(f"`{missing}` is required when `contingency` is not given; got None.")
    c = validate_clusterings(
        labels_true, labels_pred, unassigned_label=unassigned_label, unassigned=unassigned
    )
    return _table_from_codes(c.codes_true, c.k_true, c.codes_pred, c.k_pred), c.report


def _sum_pairs(values: NDArray[np.int64]) -> int:
    """Sum of C(v, 2), exact: int64 while it cannot overflow, Python ints beyond."""
    if values.size == 0:
        return 0
    if int(np.sum(values, dtype=np.float64)) < 2**31:  # then sum C(v, 2) < 2**61
        return int(np.sum(values * (values - 1) // 2))
    return sum(int(v) * (int(v) - 1) // 2 for v in values)


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
        up to 2**63 - 1 and raises ``ValueError`` beyond (never wraps around).
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

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
    if table.weights is None:
        n11 = _sum_pairs(table.counts)
    else:  # a histogram of cell counts: sum of multiplicity x C(count, 2)
        n11 = sum(
            int(w) * (int(v) * (int(v) - 1) // 2)
            for v, w in zip(table.counts, table.weights, strict=True)
        )
    q_true = _sum_pairs(table.row_sums)
    q_pred = _sum_pairs(table.col_sums)
    total = table.n * (table.n - 1) // 2
    return PairCounts(n11, q_true - n11, q_pred - n11, total - q_true - q_pred + n11)
