"""Mergeable contingency tables and compact histogram summaries: the contract with any engine.

The objects of the one pass over the labels (docs/math.md#math-summaries), numpy only:
:class:`PartialTable`, the canonical non-zero cells of a chunk of elements, merged by
:func:`merge_tables` in any order or tree; and :class:`TableSummary`, N and three histograms.
Both are accepted as ``contingency=`` wherever a table is, validated once when built.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from chanceclust._tables import (
    MAX_TOTAL,
    Table,
    canonical_cells,
    check_counts,
    check_label_kinds,
    check_table,
    check_total,
    count_cells,
    count_keys,
    label_kinds,
    label_positions,
    table_of_cells,
    union_labels,
)
from chanceclust._validation import (
    _describe,
    check_unassigned,
    distinct_labels,
    nothing_left,
    sorted_label_values,
    validate_clusterings,
)
from chanceclust.exceptions import InternalError, InvalidInputError, InvalidInputTypeError

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["Histogram", "PartialTable", "TableSummary", "merge_tables", "partial_table"]


def _position(i: int) -> str:
    return f"position {i}"


class PartialTable:
    """The non-zero cells of a contingency table of some elements, in canonical form.

    Formula: docs/math.md#math-summaries.

    Build with :func:`partial_table` (from labels), :meth:`from_cells`
    (from ``(label_true, label_pred, count)`` triples) or :meth:`from_table`
    (from a dense or sparse table); combine with :func:`merge_tables`. Two
    partial tables of the same cells hold identical arrays, whatever order
    and tree of merges produced them.

    Attributes
    ----------
    labels_true, labels_pred : ndarray
        The distinct labels of each clustering present in these elements,
        sorted ascending (rows and columns of the table).
    rows, cols, counts : ndarray of int64
        Row and column of each non-zero cell, in row-major order, and its positive count.
    dropped : int
        Elements left out by ``unassigned='drop'`` (summed by :func:`merge_tables`; not
        compared by ``==``, which compares the cells). A table with no element whose
        elements were all dropped is refused by the measures and :meth:`summary`, as the
        single call refuses such labels; a chunk alone may be empty.

    Notes
    -----
    Passed as ``contingency=``, a partial table gives every measure
    bit-identical to the one computed from the concatenated labels
    (provided the labels are sortable, which a partial table requires): it
    is converted to the library's internal table once and cached.

    Examples
    --------
    >>> from chanceclust import merge_tables, partial_table, adjusted_rand_index
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> total = merge_tables([partial_table(a[:4], b[:4]), partial_table(a[4:], b[4:])])
    >>> total.n, total.shape, total.counts.tolist()
    (6, (3, 2), [2, 1, 1, 2])
    >>> adjusted_rand_index(contingency=total) == adjusted_rand_index(a, b)
    True
    """

    def __init__(
        self,
        labels_true: NDArray[Any],
        labels_pred: NDArray[Any],
        rows: NDArray[np.int64],
        cols: NDArray[np.int64],
        counts: NDArray[np.int64],
        dropped: int = 0,
    ) -> None:
        self.__dict__.update(_cells=(labels_true, labels_pred, rows, cols, counts),
                             dropped=int(dropped))  # fmt: skip

    dropped = 0  # tables pickled before the attribute existed

    @classmethod
    def _pending(cls, pieces: list[PartialTable], n: int, dropped: int) -> PartialTable:
        """A merge of ``pieces`` (valid, compatible, total ``n``) done when first read."""
        table = cls.__new__(cls)
        table.__dict__.update(_pieces=tuple(pieces), n=n, dropped=dropped)
        return table

    def _with_dropped(self, dropped: int) -> PartialTable:
        """This table (its cells or pending pieces shared) with another ``dropped``."""
        table = type(self).__new__(type(self))
        table.__dict__.update({k: v for k, v in self.__dict__.items()
                               if k in ("_cells", "_pieces", "n")}, dropped=dropped)  # fmt: skip
        return table

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"PartialTable is immutable; cannot set {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        return {"_cells": self._cells, "dropped": self.dropped}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    @cached_property
    def _cells(self) -> tuple[NDArray[Any], ...]:
        """The five arrays; a pending merge is done here, once."""
        merged = _merge_now(list(self.__dict__["_pieces"]), self.n)
        self.__dict__.pop("_pieces", None)  # the pieces are no longer needed
        return merged._cells

    def _stack(self) -> list[PartialTable]:
        """The pieces a later merge continues from: the pending ones, or the table itself."""
        pieces = self.__dict__.get("_pieces")
        return [self] if pieces is None else list(pieces)

    labels_true = property(lambda self: self._cells[0], doc="Labels of the rows, ascending.")
    labels_pred = property(lambda self: self._cells[1], doc="Labels of the columns, ascending.")
    rows = property(lambda self: self._cells[2], doc="Row of each non-zero cell.")
    cols = property(lambda self: self._cells[3], doc="Column of each non-zero cell.")
    counts = property(lambda self: self._cells[4], doc="Positive count of each cell.")

    @cached_property
    def n(self) -> int:
        """Number of elements N (sum of the counts)."""
        return check_counts(self.counts, "`counts`", _position)[1]

    @cached_property
    def _kinds(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """label_kinds of each side (a pending merge: of its pieces, all compatible)."""
        if "_pieces" not in self.__dict__:
            return label_kinds(self.labels_true), label_kinds(self.labels_pred)
        sides: list[dict[str, Any]] = [{}, {}]
        for piece in self.__dict__["_pieces"]:
            for side, kinds in zip(sides, piece._kinds, strict=True):
                for kind, example in kinds.items():
                    side.setdefault(kind, example)
        return sides[0], sides[1]

    @property
    def shape(self) -> tuple[int, int]:
        """(K_A, K_B): the numbers of clusters of each clustering in these elements."""
        return len(self.labels_true), len(self.labels_pred)

    @property
    def nnz(self) -> int:
        """Number of non-zero cells."""
        return len(self.counts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartialTable):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, f), getattr(other, f))
            for f in ("labels_true", "labels_pred", "rows", "cols", "counts")
        )

    __hash__ = None  # type: ignore[assignment]
    _validated_once = True  # accepted as ``contingency=`` without re-validation

    def __repr__(self) -> str:
        dropped = f", dropped={self.dropped}" if self.dropped else ""
        return f"PartialTable(n={self.n}, shape={self.shape}, nnz={self.nnz}{dropped})"

    @classmethod
    def from_cells(cls, labels_true: Any, labels_pred: Any, counts: Any) -> PartialTable:
        """Build from cells ``(labels_true[i], labels_pred[i], counts[i])``.

        Parameters
        ----------
        labels_true, labels_pred : array-like of shape (n_cells,)
            The row and column label of each cell (sortable labels: numbers,
            or strings).
        counts : array-like of shape (n_cells,)
            Non-negative integer counts (integral floats are accepted).
            Repeated cells are summed; zero counts are dropped, and so are
            labels that occur only in such cells.

        Returns
        -------
        PartialTable

        Examples
        --------
        >>> from chanceclust import PartialTable
        >>> t = PartialTable.from_cells(["x", "y", "x"], [1, 1, 1], [2, 3, 4])
        >>> t.labels_true.tolist(), t.counts.tolist()
        (['x', 'y'], [6, 3])
        """
        values_true, rows = distinct_labels(labels_true, "labels_true")
        values_pred, cols = distinct_labels(labels_pred, "labels_pred")
        if len(rows) != len(cols):
            raise InvalidInputError(
                "`labels_true` and `labels_pred` must have one label per cell; got lengths "
                f"{len(rows)} and {len(cols)}."
            )
        counts_array = np.asarray(counts)
        if counts_array.shape != rows.shape:
            raise InvalidInputError(
                f"`counts` must have one count per cell ({len(rows)}); got shape "
                f"{counts_array.shape}."
            )
        data, n = check_counts(
            counts_array,
            "`counts`",
            lambda i: (
                f"cell ({_describe(values_true[rows[i]].item())}, "
                f"{_describe(values_pred[cols[i]].item())})"
            ),
        )
        return _canonical(values_true, values_pred, rows, cols, data, n)

    @classmethod
    def from_table(cls, contingency: Any) -> PartialTable:
        """Validate a dense or sparse contingency table once and hold its cells.

        Rows and columns are labelled by their index; empty rows and columns
        are dropped (a cluster with no element is not a cluster). A sparse
        table in canonical CSR form costs one pass; any other sparse table
        one sort of its int64 cell keys (no two-key lexsort), so a table of
        3e7 cells takes seconds, once.

        Parameters
        ----------
        contingency : array-like or scipy sparse array of shape (K_A, K_B)
            Non-negative integer counts.

        Returns
        -------
        PartialTable

        Examples
        --------
        >>> from chanceclust import PartialTable
        >>> PartialTable.from_table([[2, 0], [1, 3]]).counts.tolist()
        [2, 1, 3]
        """
        if isinstance(contingency, PartialTable):
            return contingency
        cells = check_table(contingency)
        return PartialTable(cells.row_ids, cells.col_ids, cells.rows, cells.cols, cells.counts)

    def to_sparse(self) -> sp.csr_array:
        """The table as a ``scipy.sparse.csr_array`` of int64 counts.

        Exactly ``contingency_table(labels_true, labels_pred, sparse=True)``
        of the concatenated chunks: same shape, index dtypes and arrays.
        """
        import scipy.sparse as sp

        k_true, k_pred = self.shape
        index_type = np.int32 if max(k_pred, self.nnz) < 2**31 else np.int64
        indptr = np.searchsorted(self.rows, np.arange(k_true + 1, dtype=np.int64))
        return sp.csr_array(
            (self.counts, self.cols.astype(index_type), indptr.astype(index_type)),
            shape=(k_true, k_pred),
        )

    def summary(self) -> TableSummary:
        """The :class:`TableSummary` (N and the three histograms) of this table."""
        table = self._table
        return TableSummary(
            table.n,
            _histogram(table.row_sums),
            _histogram(table.col_sums),
            _histogram(table.counts),
        )

    @cached_property
    def _table(self) -> Table:
        """The internal table (cells in the order the in-memory path produces); refused where
        every element was dropped (the single call's rule, applied to the whole)."""
        if self.n == 0 and self.dropped:
            raise nothing_left(self.dropped, ("labels_true", "labels_pred"))
        return table_of_cells(self.rows, self.cols, self.counts, self.shape, self.n)


def _canonical(
    labels_true: NDArray[Any],
    labels_pred: NDArray[Any],
    rows: NDArray[np.int64],
    cols: NDArray[np.int64],
    counts: NDArray[np.int64],
    n: int,
    dropped: int = 0,
) -> PartialTable:
    """The :class:`PartialTable` of valid cells (total ``n``, ``dropped`` elements left out),
    by ``_tables.canonical_cells``."""
    cells = canonical_cells(rows, cols, counts, len(labels_true), len(labels_pred), n)
    if len(cells.row_ids) < len(labels_true):
        labels_true = labels_true[cells.row_ids]
    if len(cells.col_ids) < len(labels_pred):
        labels_pred = labels_pred[cells.col_ids]
    return PartialTable(labels_true, labels_pred, cells.rows, cells.cols, cells.counts, dropped)


def partial_table(
    labels_true: Any,
    labels_pred: Any,
    *,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> PartialTable:
    """The partial contingency table of one chunk of elements.

    Formula: docs/math.md#math-summaries.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_chunk,), or keyed inputs
        The labels of the chunk's elements in each clustering: numbers, or
        strings (labels must be sortable, so that chunks agree on one order).
        Read as the single calls read them: by position, or by element for
        mappings, Series with different indexes and communities (whose labels
        are then the community numbers).
    unassigned_label : label or collection of labels, optional
        Labels that mark an element as unassigned, e.g. -1 for noise. Missing
        values (None, NaN, ``pd.NA``, NaT, ``Decimal`` NaNs) always do.
    unassigned : {"raise", "drop"}, default="raise"
        What unassigned elements mean: an error, or left out of both clusterings
        (counted in the table's ``dropped``; a chunk may be left empty, and a merged
        table with no element left is refused by the measures, as the single call
        refuses such labels). ``"singletons"`` and ``"cluster"`` need the whole
        clustering, not a chunk: apply them to the merged labels.

    Returns
    -------
    PartialTable
        Mergeable with the tables of other chunks by :func:`merge_tables`.

    Notes
    -----
    One pass after factorizing each labeling: O(n) for integer labels in a
    compact range, O(n log n) otherwise; memory a few int64 per element.

    Examples
    --------
    >>> from chanceclust import partial_table
    >>> t = partial_table(["a", "a", "b"], [3, 1, 1])
    >>> t.labels_true.tolist(), t.labels_pred.tolist(), t.counts.tolist()
    (['a', 'b'], [1, 3], [1, 1, 1])
    """
    policy = check_unassigned(unassigned)
    policy.check_chunk()
    c = validate_clusterings(labels_true, labels_pred, unassigned_label=unassigned_label,
                             unassigned=policy, keep_values=True, empty_ok=True,
                             on_device=True)  # fmt: skip
    values_true, codes_true = sorted_label_values(c.values_true or [], c.codes_true, "labels_true")
    values_pred, codes_pred = sorted_label_values(c.values_pred or [], c.codes_pred, "labels_pred")
    k_pred = len(values_pred)
    cells, counts, _ = count_cells(codes_true, codes_pred, len(values_true), k_pred)
    rows, cols = np.divmod(cells, k_pred)
    return PartialTable(values_true, values_pred, rows, cols, counts, c.report.n_dropped)


def merge_tables(tables: Iterable[PartialTable]) -> PartialTable:
    """Merge partial tables of disjoint sets of elements into one.

    Formula: docs/math.md#math-summaries.

    Associative and commutative: any order, any tree of merges and any
    grouping gives identical arrays, so engines can merge partial results
    as they arrive (a tree reduction, or buckets of a shuffle).

    Parameters
    ----------
    tables : iterable of PartialTable

    Returns
    -------
    PartialTable
        The table of all their elements (empty if ``tables`` is empty).

    Notes
    -----
    Labels are united by one sort, cells by one sort of int64 keys; k merges of one table each
    (a fold, in any order) cost about one merge of all k: the result keeps a few pending pieces
    of geometrically decreasing size. Labels keep their identity, never cast into one another
    (int64 with uint64, integers with floats, numbers with strings: docs/guide/scaling.md).

    Examples
    --------
    >>> from chanceclust import merge_tables, partial_table
    >>> left, right = partial_table([1, 2], ["u", "v"]), partial_table([2, 3], ["v", "v"])
    >>> merged = merge_tables([left, right])
    >>> merged == merge_tables([right, left]), merged.counts.tolist()
    (True, [1, 2, 1])
    """
    if isinstance(tables, PartialTable) or not isinstance(tables, Iterable):
        raise InvalidInputTypeError(
            "`tables` must be an iterable of PartialTable objects (e.g. a list); got "
            f"{_describe(tables)}."
        )
    parts = list(tables)
    for i, part in enumerate(parts):
        if not isinstance(part, PartialTable):
            raise InvalidInputTypeError(
                f"`tables` must hold PartialTable objects; got {type(part).__name__} "
                f"at position {i}."
            )
    if not parts:
        empty = np.empty(0, dtype=np.int64)
        return PartialTable(empty, empty, empty, empty, empty)
    if len(parts) == 1:
        return parts[0]
    dropped = sum(p.dropped for p in parts)
    for side, name in enumerate(("labels_true", "labels_pred")):
        check_label_kinds([(p._kinds[side], f" (table {i})") for i, p in enumerate(parts)], name)
    n = sum(p.n for p in parts)
    check_total(n, "`tables`")
    # Tables that are themselves pending merges bring their pieces. As in a log-structured
    # merge, the smallest pieces are merged into one while the next larger piece is at most
    # _TIER times their sum (all at once when the tables are alike), so every piece left is
    # larger than _TIER times all smaller ones together: a cell is re-merged O(log k) times
    # whatever the order of k merges, and at most ~1.5x the merged table is held.
    stack = [piece for part in parts for piece in part._stack()]
    while True:
        stack.sort(key=lambda piece: -piece.nnz)
        cut, smaller = len(stack) - 1, stack[-1].nnz
        while cut > 0 and stack[cut - 1].nnz <= _TIER * smaller:
            cut -= 1
            smaller += stack[cut].nnz
        if cut == len(stack) - 1:
            break
        group = stack[cut:]
        stack[cut:] = [_merge_now(group, sum(piece.n for piece in group))]
    if len(stack) == 1:
        return stack[0] if stack[0].dropped == dropped else stack[0]._with_dropped(dropped)
    return PartialTable._pending(stack, n, dropped)


_TIER = 2  # the smallest pieces are merged while the next is at most 2x their sum


def _merge_now(parts: list[PartialTable], n: int) -> PartialTable:
    """One merge of valid, compatible tables of total ``n``: labels united, cells counted."""
    labels_true = union_labels([p.labels_true for p in parts], "labels_true")
    labels_pred = union_labels([p.labels_pred for p in parts], "labels_pred")
    rows = np.concatenate([label_positions(labels_true, p.labels_true)[p.rows] for p in parts])
    cols = np.concatenate([label_positions(labels_pred, p.labels_pred)[p.cols] for p in parts])
    counts = np.concatenate([p.counts for p in parts])
    return _canonical(labels_true, labels_pred, rows, cols, counts, n)


class Histogram(NamedTuple):
    """A histogram of positive integers: ``counts[i]`` occurrences of ``values[i]``.

    ``values`` ascend strictly; both are int64 arrays.
    """

    values: NDArray[np.int64]
    counts: NDArray[np.int64]

    @property
    def total(self) -> int:
        """sum(values * counts), exact."""
        if self.values.size and float(self.values @ self.counts.astype(np.float64)) < 2.0**62:
            return int(self.values @ self.counts)
        return sum(int(v) * int(c) for v, c in zip(self.values, self.counts, strict=True))

    def expand(self) -> NDArray[np.int64]:
        """The sorted sequence of values with their multiplicities (e.g. cluster sizes)."""
        return np.repeat(self.values, self.counts)


def _histogram(values: NDArray[np.int64]) -> Histogram:
    """Histogram of positive int64 values (by the one group-by-count kernel)."""
    distinct, counts = count_keys(values, owned=False)
    return Histogram(distinct.astype(np.int64, copy=False), counts)


def _check_histogram(value: Any, name: str) -> Histogram:
    """A Histogram from a mapping {value: count}, a (values, counts) pair or a Histogram."""
    if isinstance(value, Mapping):
        values, counts = list(value.keys()), list(value.values())
    else:
        try:
            values, counts = value
        except (TypeError, ValueError):
            raise InvalidInputTypeError(
                f"`{name}` must be a mapping {{value: count}} or a pair (values, counts); "
                f"got {_describe(value)}."
            ) from None
    values_array, counts_array = np.asarray(values), np.asarray(counts)
    if values_array.ndim != 1 or values_array.shape != counts_array.shape:
        raise InvalidInputError(
            f"`{name}` must hold two 1-D sequences of equal length (values, counts); got "
            f"shapes {values_array.shape} and {counts_array.shape}."
        )
    values_array = check_counts(values_array, f"`{name}` values", _position, bounded_total=False)[0]
    counts_array = check_counts(counts_array, f"`{name}` counts", _position, bounded_total=False)[0]
    if values_array.size and values_array.min() == 0:
        i = int(np.argmin(values_array))
        if counts_array[i] > 0:
            raise InvalidInputError(
                f"`{name}` values must be positive; got 0 with count {counts_array[i]}."
            )
    keep = (counts_array > 0) & (values_array > 0)
    distinct, summed = count_keys(values_array[keep], weights=counts_array[keep])
    return Histogram(distinct, summed)


@dataclass(frozen=True, eq=False)
class TableSummary:
    """What every measure needs of two clusterings: N and three histograms.

    Formula: docs/math.md#math-summaries.

    Attributes
    ----------
    n : int
        Number of elements N.
    sizes_true, sizes_pred : Histogram
        Histograms of the cluster sizes of each clustering (``values``: the
        distinct sizes, ``counts``: how many clusters have each).
    cells : Histogram
        Histogram of the non-zero cell counts n_ij.

    Notes
    -----
    Each histogram has at most sqrt(2N) rows (at most that many distinct
    positive integers sum to at most N), so the summary of 10^11 elements
    still fits in a few MB, and the driver of a distributed job never needs
    the cells. Build one with :meth:`from_histograms` (what an engine can
    compute by two group-bys), :meth:`from_cells`, :meth:`from_table`, or
    :meth:`PartialTable.summary`.

    Passed as ``contingency=``: pair counts, RI, ARI, FMI, Jaccard, E[RI], Var[RI], SRI, E[MI]
    and s_max equal those from the labels (entropies of sizes summed in another order may differ
    in the last bit). MI, NMI, VI and AMI use the entropy form MI = H(A) + H(B) - H(A, B),
    compensated-summed: within about one ulp of H(A, B) (docs/math.md#math-summaries); AMI
    agrees with the labels' value to ~1e-15.

    Examples
    --------
    >>> from chanceclust import TableSummary, adjusted_mutual_information
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> s = TableSummary.from_histograms({2: 3}, {3: 2}, {1: 2, 2: 2})  # sizes, sizes, cells
    >>> s == TableSummary.from_cells(a, b, [1] * 6)
    True
    >>> abs(adjusted_mutual_information(contingency=s) - adjusted_mutual_information(a, b)) < 1e-15
    True
    """

    n: int
    sizes_true: Histogram
    sizes_pred: Histogram
    cells: Histogram

    @property
    def n_clusters_true(self) -> int:
        """K_A, the number of clusters of the first clustering."""
        return int(self.sizes_true.counts.sum())

    @property
    def n_clusters_pred(self) -> int:
        """K_B, the number of clusters of the second clustering."""
        return int(self.sizes_pred.counts.sum())

    @property
    def n_cells(self) -> int:
        """The number of non-zero cells of the table."""
        return int(self.cells.counts.sum())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableSummary):
            return NotImplemented
        return self.n == other.n and all(
            np.array_equal(x, y)
            for name in ("sizes_true", "sizes_pred", "cells")
            for x, y in zip(getattr(self, name), getattr(other, name), strict=True)
        )

    __hash__ = None  # type: ignore[assignment]
    _validated_once = True  # accepted as ``contingency=`` without re-validation

    def __repr__(self) -> str:
        return (
            f"TableSummary(n={self.n}, n_clusters_true={self.n_clusters_true}, "
            f"n_clusters_pred={self.n_clusters_pred}, n_cells={self.n_cells})"
        )

    @classmethod
    def from_histograms(cls, sizes_true: Any, sizes_pred: Any, cells: Any) -> TableSummary:
        """Build from the three histograms, as any engine can compute them.

        Parameters
        ----------
        sizes_true, sizes_pred : mapping or pair of sequences
            Histogram of the cluster sizes of each clustering: ``{size:
            number of clusters of that size}`` or ``(sizes, numbers)``.
        cells : mapping or pair of sequences
            Histogram of the non-zero cell counts: ``{count: number of
            cells with that count}`` or ``(counts, numbers)``.

        Returns
        -------
        TableSummary

        Raises
        ------
        InvalidInputError
            (a ``ValueError``) if a histogram holds non-positive or non-integer
            values, or the three do not describe the same N (or more than
            2**63 - 1 elements), or they cannot come from one
            table (fewer cells than clusters on a side, more than K_A K_B, or
            a cell larger than the largest cluster of a side).

        Examples
        --------
        >>> from chanceclust import TableSummary
        >>> TableSummary.from_histograms(([2], [3]), ([3], [2]), ([1, 2], [2, 2]))
        TableSummary(n=6, n_clusters_true=3, n_clusters_pred=2, n_cells=4)
        """
        hist_true = _check_histogram(sizes_true, "sizes_true")
        hist_pred = _check_histogram(sizes_pred, "sizes_pred")
        hist_cells = _check_histogram(cells, "cells")
        n = hist_true.total
        if n > MAX_TOTAL:
            raise InvalidInputError(
                f"`sizes_true` must describe at most 2**63 - 1 = {MAX_TOTAL} elements (the "
                f"int64 limit; sum of value x count); got {n}."
            )
        for name, hist in (("sizes_pred", hist_pred), ("cells", hist_cells)):
            if hist.total != n:
                raise InvalidInputError(
                    f"`{name}` must describe the same number of elements as `sizes_true` "
                    f"(sum of value x count = {n}); got {hist.total}."
                )
        summary = cls(n, hist_true, hist_pred, hist_cells)
        k_true, k_pred, nnz = summary.n_clusters_true, summary.n_clusters_pred, summary.n_cells
        if n and not max(k_true, k_pred) <= nnz <= k_true * k_pred:
            raise InvalidInputError(
                f"`cells` must count between max(K_A, K_B) = {max(k_true, k_pred)} and "
                f"K_A K_B = {k_true * k_pred} non-zero cells; got {nnz}."
            )
        if n and hist_cells.values[-1] > min(hist_true.values[-1], hist_pred.values[-1]):
            raise InvalidInputError(
                f"`cells` holds a cell of {hist_cells.values[-1]} elements, more than the "
                f"largest cluster ({min(hist_true.values[-1], hist_pred.values[-1])})."
            )
        return summary

    @classmethod
    def from_cells(cls, labels_true: Any, labels_pred: Any, counts: Any) -> TableSummary:
        """Build from ``(label_true, label_pred, count)`` cells (repeats are summed).

        The same as ``PartialTable.from_cells(...).summary()``.

        Examples
        --------
        >>> from chanceclust import TableSummary
        >>> TableSummary.from_cells([0, 0, 1], [5, 6, 6], [2, 1, 3]).cells
        Histogram(values=array([1, 2, 3]), counts=array([1, 1, 1]))
        """
        return PartialTable.from_cells(labels_true, labels_pred, counts).summary()

    @classmethod
    def from_table(cls, contingency: Any) -> TableSummary:
        """Validate a dense or sparse table (or a :class:`PartialTable`) once and summarize it.

        See :meth:`PartialTable.from_table` for the cost.

        Examples
        --------
        >>> from chanceclust import TableSummary
        >>> TableSummary.from_table([[2, 0], [1, 3]]).sizes_true
        Histogram(values=array([2, 4]), counts=array([1, 1]))
        """
        if isinstance(contingency, TableSummary):
            return contingency
        return PartialTable.from_table(contingency).summary()

    def to_dict(self) -> dict[str, Any]:
        """Plain Python ints and lists (for JSON): ``n`` and each histogram's values and counts."""
        out: dict[str, Any] = {"n": self.n}
        for name in ("sizes_true", "sizes_pred", "cells"):
            hist = getattr(self, name)
            out[name] = {"values": hist.values.tolist(), "counts": hist.counts.tolist()}
        return out

    @cached_property
    def _table(self) -> Table:
        """The internal table: cluster sizes expanded, cells kept as a histogram."""
        empty = np.empty(0, dtype=np.intp)
        return Table(
            self.cells.values,
            empty,
            empty,
            self.sizes_true.expand(),
            self.sizes_pred.expand(),
            self.n,
            self.cells.counts,
        )


def _entropy_terms(values: NDArray[np.int64], counts: NDArray[np.int64], n: int
                   ) -> list[float]:  # fmt: skip
    """c v log(N / v) for each (value v, multiplicity c) -- N H of a histogram, term by term.

    Each term is computed in numpy's extended precision (``longdouble``: 64-bit significand
    on x86-64 Linux, plain double elsewhere) and returned as two doubles, its rounding and
    the rounding of the remainder, so that a compensated sum of them loses nothing more.
    """
    ld = np.longdouble
    v = values.astype(ld)
    total = ld(n)
    logs = np.where(values > n // 2, np.log1p((total - v) / v), np.log(total / v))
    terms = counts.astype(ld) * v * logs
    high = terms.astype(np.float64)
    low = (terms - high.astype(ld)).astype(np.float64)
    return [*high.tolist(), *low.tolist()]


def histogram_entropies(table: Table) -> tuple[list[float], list[float], list[float]]:
    """Per-term N H(A), N H(B) and N H(A, B) of a histogram table (for compensated sums)."""
    n = table.n
    parts = []
    for sizes in (table.row_sums, table.col_sums):
        hist = _histogram(sizes)
        parts.append(_entropy_terms(hist.values, hist.counts, n))
    if table.weights is None:
        raise InternalError("histogram_entropies needs a histogram table (weights)")
    parts.append(_entropy_terms(table.counts, table.weights, n))
    return parts[0], parts[1], parts[2]


def _histogram_mutual_information(table: Table) -> float:
    """MI = H(A) + H(B) - H(A, B) of a histogram table, as one compensated sum."""
    if table.n == 0:
        return 0.0
    h_true, h_pred, h_joint = histogram_entropies(table)
    total = math.fsum(h_true + h_pred + [-t for t in h_joint])
    return max(total / table.n, 0.0)


def _histogram_variation_of_information(table: Table) -> float:
    """VI = 2 H(A, B) - H(A) - H(B) of a histogram table, as one compensated sum."""
    if table.n == 0:
        return 0.0
    h_true, h_pred, h_joint = histogram_entropies(table)
    total = math.fsum([2.0 * t for t in h_joint] + [-t for t in h_true + h_pred])
    return max(total / table.n, 0.0) + 0.0
