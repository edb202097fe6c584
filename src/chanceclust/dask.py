"""Contingency tables of huge labelings with Dask: Parquet datasets or dask collections.

Optional module (``pip install "chanceclust[dask]"``: dask, distributed,
pyarrow). The one pass over the N elements -- a group-by-count of label pairs
-- runs as plain numpy tasks on the current Dask scheduler (a
``distributed.Client`` if one is active, else the local threaded one), and
the driver receives the exact table as a :class:`~chanceclust.PartialTable`,
or with ``summary=True`` only a :class:`~chanceclust.TableSummary` (three
histograms), either usable as ``contingency=`` by every measure.

How (the fastest pattern measured in the project's design study): one task
per Parquet row group reads only the two columns with pyarrow; integer labels
whose ranges the Parquet footers give (no data pass) are counted as offsets
from the minimum by the library's one group-by-count of int64 cell keys (a
tally or a sort, by the rule of every table builder); other labels (strings, floats, 64-bit ids, no statistics) are first
factorized per column -- a distributed ``unique`` merged by a tree, then
codes by ``searchsorted`` in each task -- so nothing of size N is ever held
in one place. Each chunk's cells are split into buckets by row range, and
each bucket is merged by a tree of bounded fan-in, so no task holds the whole
table; the buckets come back in order, already sorted.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._tables import cell_keys, check_counts, count_keys
from chanceclust._validation import _describe
from chanceclust.exceptions import InvalidInputError, InvalidInputTypeError
from chanceclust.summary import (
    Histogram,
    PartialTable,
    TableSummary,
    _canonical,
    _histogram,
)

__all__ = ["contingency_table"]

# Not a counting rule (chunks count by _tables.dense_counting): integer label ranges spanning
# at most this many cells (32 MiB of int64) make a table small enough to merge by one tree.
_ONE_TREE_CELLS = 1 << 22
_FAN_IN = 8  # partial tables merged per task: bounds a merge task's memory


def _require() -> tuple[Any, Any]:
    try:
        import dask
        import pyarrow.parquet as pq
    except ImportError as error:  # pragma: no cover - the extra is installed in tests
        raise ImportError(
            "chanceclust.dask needs dask and pyarrow: pip install 'chanceclust[dask]'"
        ) from error
    return dask, pq


# --------------------------------------------------------------------------- chunk sources


class _ParquetChunk:
    """One row group of one Parquet file: reads the two columns on the worker."""

    def __init__(self, fs: Any, path: str, group: int, columns: tuple[str, str]) -> None:
        self.fs, self.path, self.group, self.columns = fs, path, group, columns

    def where(self) -> str:
        return f"{self.path} (row group {self.group})"

    def read(self) -> tuple[NDArray[Any], NDArray[Any]]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        with self.fs.open(self.path, "rb") as handle:
            table = pq.ParquetFile(handle).read_row_group(self.group, columns=list(self.columns))
        out = []
        for name in self.columns:
            column = table.column(name)
            if pa.types.is_dictionary(column.type):  # e.g. a pandas Categorical written out
                column = column.cast(column.type.value_type)
            if column.null_count:
                raise InvalidInputError(
                    f"column {name!r} must not contain missing values; got "
                    f"{column.null_count} in {self.where()}."
                )
            out.append(column.to_numpy())
        return out[0], out[1]


class _ArrayChunk:
    """One block of each of two dask collections (computed on the worker)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def where(self) -> str:
        return f"chunk {self.index}"


def _parquet_chunks(
    source: Any, columns: Any, storage_options: Any
) -> tuple[list[_ParquetChunk], dict[str, tuple[int, int] | None]]:
    """Every non-empty row group, and each column's integer range from the footers (or None)."""
    import fsspec
    import pyarrow as pa
    import pyarrow.parquet as pq

    if (
        not isinstance(columns, Sequence)
        or isinstance(columns, str)
        or len(columns) != 2
        or not all(isinstance(c, str) for c in columns)
    ):
        raise InvalidInputError(
            "`columns` must name the two label columns, (true_column, pred_column); got "
            f"{_describe(columns)}."
        )
    fs, _, paths = fsspec.core.get_fs_token_paths(
        source, mode="rb", storage_options=storage_options or {}
    )
    files: list[str] = []
    for path in paths:
        if fs.isdir(path):
            files += [
                p
                for p in fs.find(path)
                if not p.rsplit("/", 1)[-1].startswith(("_", ".")) and p.endswith(".parquet")
            ]
        else:
            files.append(path)
    if not files:
        raise InvalidInputError(f"`source` matched no Parquet file; got {_describe(source)}.")
    chunks: list[_ParquetChunk] = []
    ranges: dict[str, tuple[int, int] | None] = {}
    for path in sorted(files):
        with fs.open(path, "rb") as handle:
            parquet = pq.ParquetFile(handle)
            schema = parquet.schema_arrow
            meta = parquet.metadata
        for name in columns:
            if name not in schema.names:
                raise InvalidInputError(
                    f"`columns` names {name!r}, which {path} does not have; its columns are "
                    f"{schema.names}."
                )
        for group in range(meta.num_row_groups):
            rows = meta.row_group(group)
            if rows.num_rows == 0:
                continue
            chunks.append(_ParquetChunk(fs, path, group, tuple(columns)))
            for name in columns:
                field = schema.field(name)
                index = schema.names.index(name)
                stats = rows.column(index).statistics
                known = ranges.get(name, (math.inf, -math.inf))
                if (
                    known is None
                    or not pa.types.is_integer(field.type)
                    or stats is None
                    or not stats.has_min_max
                ):
                    ranges[name] = None
                    continue
                ranges[name] = (min(known[0], int(stats.min)), max(known[1], int(stats.max)))
    return chunks, {k: (None if v is None else (int(v[0]), int(v[1]))) for k, v in ranges.items()}


# --------------------------------------------------------------------------- per-chunk tasks


def _read(chunk: Any, left: Any = None, right: Any = None) -> tuple[NDArray[Any], NDArray[Any]]:
    if isinstance(chunk, _ParquetChunk):
        return chunk.read()
    a = np.asarray(left.to_numpy() if hasattr(left, "to_numpy") else left).ravel()
    b = np.asarray(right.to_numpy() if hasattr(right, "to_numpy") else right).ravel()
    if a.shape != b.shape:
        raise InvalidInputError(
            f"the two label collections must have the same length in every chunk; got "
            f"{a.shape[0]} and {b.shape[0]} in {chunk.where()}."
        )
    for name, values in (("labels_true", a), ("labels_pred", b)):
        if values.dtype.kind in "fc" and np.isnan(values).any():
            raise InvalidInputError(
                f"`{name}` must not contain missing values; got NaN in {chunk.where()}."
            )
        if values.dtype.kind == "O" and any(v is None for v in values):
            raise InvalidInputError(
                f"`{name}` must not contain missing values; got None in {chunk.where()}."
            )
    return a, b


def _chunk_uniques(chunk: Any, left: Any = None, right: Any = None) -> tuple[NDArray[Any], ...]:
    a, b = _read(chunk, left, right)
    return _unique(a, chunk, "labels_true"), _unique(b, chunk, "labels_pred")


def _unique(values: NDArray[Any], chunk: Any, name: str) -> NDArray[Any]:
    try:
        return np.unique(values)
    except TypeError:
        raise InvalidInputError(
            f"`{name}` must hold sortable labels (all numbers, or all strings); got a mixture "
            f"in {chunk.where()}."
        ) from None


def _merge_uniques(*parts: tuple[NDArray[Any], NDArray[Any]]) -> tuple[NDArray[Any], NDArray[Any]]:
    return tuple(  # type: ignore[return-value]
        np.unique(np.concatenate([p[side] for p in parts])) for side in (0, 1)
    )


def _codes(values: NDArray[Any], coding: Any) -> NDArray[np.int64]:
    """Codes 0..K-1 of labels: offsets from the minimum, or ranks in a sorted dictionary."""
    if isinstance(coding, tuple):  # (low, high): an integer range from the footers
        return values.astype(np.int64) - coding[0]
    return np.searchsorted(coding, values).astype(np.int64)


def _width(coding: Any) -> int:
    return coding[1] - coding[0] + 1 if isinstance(coding, tuple) else len(coding)


def _chunk_cells(
    chunk: Any, codings: tuple[Any, Any], buckets: int, left: Any = None, right: Any = None
) -> Any:
    """One chunk's cells (sorted int64 keys, counts), split into row-range buckets.

    With one bucket the pair itself is returned (no list to index: fewer tasks).
    """
    a, b = _read(chunk, left, right)
    rows, cols = _codes(a, codings[0]), _codes(b, codings[1])
    width_a, width_b = _width(codings[0]), _width(codings[1])
    keys = cell_keys(rows, cols, width_b)
    del rows, cols
    cells, counts = count_keys(keys, width_a * width_b)
    del keys
    if buckets == 1:
        return cells, counts
    edges = np.searchsorted(cells, _bucket_edges(width_a, width_b, buckets))
    return [(cells[lo:hi], counts[lo:hi]) for lo, hi in itertools.pairwise(edges)]


def _bucket_edges(width_a: int, width_b: int, buckets: int) -> NDArray[np.int64]:
    """Key boundaries of the buckets: contiguous ranges of rows, so buckets concatenate sorted."""
    rows = np.linspace(0, width_a, buckets + 1).round().astype(np.int64)
    return rows * width_b


def _merge_cells(*parts: tuple[NDArray[np.int64], NDArray[np.int64]]
                 ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # fmt: skip
    """Sum (key, count) pairs of several parts by key (sorted, distinct keys)."""
    keys = np.concatenate([p[0] for p in parts]).astype(np.int64, copy=False)
    counts = np.concatenate([p[1] for p in parts]).astype(np.int64, copy=False)
    return count_keys(keys, weights=counts)


def _bucket_summary(part: tuple[NDArray[np.int64], NDArray[np.int64]], width_b: int
                    ) -> tuple[Any, ...]:  # fmt: skip
    """Histograms of one merged bucket: its rows are complete (buckets are row ranges), its
    columns are not: (row-size histogram, (columns, partial sums), cell-count histogram)."""
    keys, counts = part
    if keys.size == 0:
        empty = np.empty(0, dtype=np.int64)
        return (empty, empty), (empty, empty), (empty, empty)
    rows, cols = np.divmod(keys, width_b)
    first = np.empty(rows.size, dtype=bool)
    first[0] = True
    np.not_equal(rows[1:], rows[:-1], out=first[1:])
    row_sums = np.add.reduceat(counts, np.flatnonzero(first))
    row_hist, cell_hist = _histogram(row_sums), _histogram(counts)
    col_sums = _merge_cells((cols, counts))
    return tuple(row_hist), col_sums, tuple(cell_hist)


def _merge_summaries(*parts: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_merge_cells(*(p[i] for p in parts)) for i in range(3))


def _tree(delayed: Any, function: Any, items: list[Any], name: str) -> Any:
    """Reduce ``items`` with ``function`` by a tree of fan-in _FAN_IN (one task per node)."""
    level = 0
    while len(items) > 1:
        items = [
            delayed(function, pure=True, name=f"{name}-{level}-{i}")(*items[i : i + _FAN_IN])
            for i in range(0, len(items), _FAN_IN)
        ]
        level += 1
    return items[0]


# --------------------------------------------------------------------------- driver side


def _finish_table(
    buckets: list[tuple[NDArray[np.int64], NDArray[np.int64]]], codings: tuple[Any, Any]
) -> PartialTable:
    """The exact table from the sorted, disjoint buckets (concatenated in order)."""
    keys = np.concatenate([b[0] for b in buckets])
    counts = np.concatenate([b[1] for b in buckets])
    rows, cols = np.divmod(keys, _width(codings[1]))
    del keys
    present = [np.unique(rows), np.unique(cols)]  # the codes that occur, ascending
    labels = [
        used + coding[0] if isinstance(coding, tuple) else coding[used]
        for used, coding in zip(present, codings, strict=True)
    ]
    rows = np.searchsorted(present[0], rows)
    cols = np.searchsorted(present[1], cols)
    n = check_counts(counts, "the labels' table", str)[1]
    return _canonical(labels[0], labels[1], rows, cols, counts, n)


def _finish_summary(merged: tuple[Any, ...]) -> TableSummary:
    (row_values, row_counts), (_, col_sums), (cell_values, cell_counts) = merged
    sizes_true = Histogram(row_values, row_counts)
    return TableSummary(sizes_true.total, sizes_true, _histogram(col_sums),
                        Histogram(cell_values, cell_counts))  # fmt: skip


def _empty(summary: bool) -> PartialTable | TableSummary:
    empty = np.empty(0, dtype=np.int64)
    table = PartialTable(empty, empty, empty, empty, empty)
    return table.summary() if summary else table


def _collection_chunks(source: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """Blocks of a pair of dask arrays or dask Series (as delayed objects), aligned."""
    if not isinstance(source, (tuple, list)) or len(source) != 2:
        raise InvalidInputTypeError(
            "`source` must be a Parquet path, glob or URL, or a pair (labels_true, "
            f"labels_pred) of dask arrays or dask Series; got {_describe(source)}."
        )
    left, right = source
    if hasattr(left, "rechunk") and hasattr(right, "rechunk"):  # dask arrays
        if left.ndim != 1 or right.ndim != 1:
            raise InvalidInputError(
                f"the label arrays must be 1-D; got shapes {left.shape} and {right.shape}."
            )
        if left.shape != right.shape:
            raise InvalidInputError(
                "`labels_true` and `labels_pred` must label the same elements; got lengths "
                f"{left.shape[0]} and {right.shape[0]}."
            )
        right = right.rechunk(left.chunks)
        blocks_l, blocks_r = list(left.to_delayed().ravel()), list(right.to_delayed().ravel())
    elif hasattr(left, "to_delayed") and hasattr(right, "to_delayed"):  # dask Series
        if left.npartitions != right.npartitions:
            raise InvalidInputError(
                "the two dask Series must be partitioned alike (columns of one dataframe); "
                f"got {left.npartitions} and {right.npartitions} partitions."
            )
        blocks_l, blocks_r = list(left.to_delayed()), list(right.to_delayed())
    else:
        raise InvalidInputTypeError(
            "`source` must hold two dask arrays or two dask Series; got "
            f"{type(left).__name__} and {type(right).__name__}."
        )
    return [_ArrayChunk(i) for i in range(len(blocks_l))], blocks_l, blocks_r


def contingency_table(
    source: Any,
    columns: Any = None,
    *,
    summary: bool = False,
    compute: bool = True,
    storage_options: dict[str, Any] | None = None,
    buckets: int | None = None,
) -> Any:
    """The contingency table of two huge labelings, computed by Dask.

    Parameters
    ----------
    source : str, list of str, or (labels_true, labels_pred)
        A Parquet dataset -- a file, a directory, a glob or any fsspec URL
        (``s3://``, ``gs://``, ...), or a list of them -- holding both label
        columns; or a pair of 1-D dask arrays, or of dask Series (two columns
        of one dask DataFrame).
    columns : (str, str), optional
        For Parquet, the names of the ``labels_true`` and ``labels_pred``
        columns (required).
    summary : bool, default=False
        Return only the :class:`~chanceclust.TableSummary` (three histograms,
        at most sqrt(2N) rows each): the driver never holds the cells.
    compute : bool, default=True
        False returns the lazy ``dask.delayed`` object instead (``.compute()``
        gives the result), to batch it with other computations.
    storage_options : dict, optional
        Passed to fsspec (credentials, endpoints) for remote Parquet.
    buckets : int, optional
        Number of row-range buckets the cells are merged in (each bucket by a
        tree of fan-in 8). Default: 1 (one tree) when the integer label ranges
        span at most 2^22 cells, else 4 per Dask worker (8 without a client).

    Returns
    -------
    PartialTable or TableSummary
        The exact table (``.to_sparse()`` is ``chanceclust.contingency_table(
        a, b, sparse=True)`` of the concatenated labels) or its summary, both
        accepted as ``contingency=`` by every measure. Labels must be
        sortable (numbers, or strings), as for :func:`chanceclust.partial_table`.

    Notes
    -----
    Integer columns with footer statistics are counted directly (codes are
    offsets from the column's minimum); any other column is factorized first
    by a distributed ``unique`` (a second read of the data). Missing values
    are refused with the file and row group named.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> import chanceclust as cc
    >>> from chanceclust import dask as ccd
    >>> a, b = np.arange(1000) % 7, np.arange(1000) % 5
    >>> table = ccd.contingency_table((da.from_array(a, chunks=300), da.from_array(b, chunks=300)))
    >>> table.shape, table.n
    ((7, 5), 1000)
    >>> cc.adjusted_rand_index(contingency=table) == cc.adjusted_rand_index(a, b)
    True
    """
    dask, _ = _require()
    from dask import delayed

    if not isinstance(summary, bool) or not isinstance(compute, bool):
        raise InvalidInputError(
            f"`summary` and `compute` must be True or False; got {_describe(summary)} and "
            f"{_describe(compute)}."
        )
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, (str, bytes)) or (
        isinstance(source, list) and source and all(isinstance(s, str) for s in source)
    ):
        chunks, ranges = _parquet_chunks(source, columns, storage_options)
        lefts: list[Any] = [None] * len(chunks)
        rights: list[Any] = [None] * len(chunks)
        codings: list[Any] = [ranges.get(c) for c in columns]
        for side, coding in enumerate(codings):
            if coding is not None and coding[1] - coding[0] >= 2**31:
                codings[side] = None  # too wide to pack two into int64 keys: factorize
    else:
        if columns is not None:
            raise InvalidInputError(
                f"`columns` is for Parquet sources only; got {_describe(columns)} with "
                "dask collections."
            )
        chunks, lefts, rights = _collection_chunks(source)
        codings = [None, None]
    small = all(isinstance(c, tuple) for c in codings) and (
        _width(codings[0]) * _width(codings[1]) <= _ONE_TREE_CELLS
    )
    if buckets is None:  # a small table is merged by one tree; a large one in buckets
        buckets = 1 if small else 8
        if not small:
            try:
                from distributed import get_client

                buckets = 4 * max(1, len(get_client().scheduler_info()["workers"]))
            except (ImportError, ValueError):
                pass
    elif isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
        raise InvalidInputError(f"`buckets` must be a positive integer; got {_describe(buckets)}.")
    if not chunks:
        result = delayed(_empty, pure=True)(summary)
        return result.compute() if compute else result
    if None in codings:  # factorize: distributed unique of each column, merged by a tree
        uniques = [
            delayed(_chunk_uniques, pure=True)(chunk, left, right)
            for chunk, left, right in zip(chunks, lefts, rights, strict=True)
        ]
        dictionary = _tree(delayed, _merge_uniques, uniques, "chanceclust-unique")
        for side in (0, 1):
            if codings[side] is None:
                codings[side] = dictionary[side]
    coding_pair = delayed(tuple, pure=True)(codings)
    per_chunk = [
        delayed(_chunk_cells, pure=True)(chunk, coding_pair, buckets, left, right)
        for chunk, left, right in zip(chunks, lefts, rights, strict=True)
    ]
    merged = [
        _tree(delayed, _merge_cells, [out if buckets == 1 else out[p] for out in per_chunk],
              f"chanceclust-cells-{p}")
        for p in range(buckets)
    ]  # fmt: skip
    if summary:
        width_b = delayed(_width, pure=True)(coding_pair[1])
        parts = [delayed(_bucket_summary, pure=True)(part, width_b) for part in merged]
        result = delayed(_finish_summary, pure=True)(
            _tree(delayed, _merge_summaries, parts, "chanceclust-summary")
        )
    else:
        result = delayed(_finish_table, pure=True)(merged, coding_pair)
    return dask.compute(result)[0] if compute else result
