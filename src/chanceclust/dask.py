"""Contingency tables of huge labelings with Dask: Parquet datasets or dask collections.

Optional module (``pip install "chanceclust[dask]"``: dask, distributed,
pyarrow). The one pass over the N elements -- a group-by-count of label pairs
-- runs as plain numpy tasks (a block of another array library, as a CuPy chunk,
encoded and counted where it is by the single calls' device path) on the current
Dask scheduler (a ``distributed.Client`` if one is active, else the local
threaded one), and
the driver receives the exact table as a :class:`~chanceclust.PartialTable`,
or with ``summary=True`` only a :class:`~chanceclust.TableSummary` (three
histograms), either usable as ``contingency=`` by every measure.

How (the fastest pattern measured in the project's design study): each task
reads a batch of consecutive Parquet row groups (or blocks of the dask
collections) -- about 4 tasks per worker, at most 2^23 rows each unless one
row group is larger -- only the two columns, with pyarrow; integer labels
whose ranges the Parquet footers give (no data pass) are counted as offsets
from the minimum by the library's one group-by-count of int64 cell keys (a
tally or a sort, by the rule of every table builder; the offsets folded into
the keys where the labels allow it); other labels (strings, floats, 64-bit ids, no statistics) are first
factorized per column -- a distributed ``unique`` merged by a tree, then
codes by ``searchsorted`` in each task -- so nothing of size N is ever held
in one place. Each chunk's cells are split into buckets by row range, and
each bucket is merged by a tree of bounded fan-in, so no task holds the whole
table; the buckets come back in order, already sorted. A small table (one
bucket) whose every task counts by a tally returns the tallies themselves,
added up by the tree.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from chanceclust._tables import (
    available_cores,
    cell_keys,
    check_counts,
    check_label_kinds,
    count_cells,
    count_keys,
    dense_counting,
    label_kinds,
    label_positions,
    tally_cells,
    tally_keys,
    union_labels,
    used_codes,
)
from chanceclust._validation import (
    Unassigned,
    _as_label_array,
    _count_true,
    _describe,
    _device_side,
    _encode_array,
    _first_true,
    check_unassigned,
    check_unassigned_label,
    namespace,
    nothing_left,
    same_place,
    take,
    to_host,
    unassigned_message,
)
from chanceclust.exceptions import (
    InternalError,
    InvalidFileError,
    InvalidInputError,
    InvalidInputTypeError,
    UnsupportedError,
)
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
# Dense tallies merge by additions: their tree's time is the transfers to each merge task,
# so a smaller fan-in (16 cores, 4x10^8 rows, 64 tallies of 10^6 cells: 1.38-1.48 s with 4
# against 1.53-1.60 s with 8 after the cluster's first call, benchmarks/RESULTS.md).
_TALLY_FAN_IN = 4
_SIDES = ("labels_true", "labels_pred")


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


def _unreadable(path: str, error: Exception) -> InvalidFileError:
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return InvalidFileError(path, None, f"not a readable Parquet file ({first})")


class _ParquetChunk:
    """Consecutive row groups of one Parquet file: reads the two columns on the worker."""

    def __init__(self, fs: Any, path: str, groups: list[int], columns: tuple[str, str],
                 sizes: list[int]) -> None:  # fmt: skip
        self.fs, self.path, self.groups, self.columns = fs, path, groups, columns
        self.sizes = sizes
        self.rows = sum(sizes)

    def joined(self, other: _ParquetChunk) -> _ParquetChunk | None:
        """This chunk and the next one as one (read in one call), if in the same file."""
        if other.path != self.path or other.fs is not self.fs or other.columns != self.columns:
            return None
        return _ParquetChunk(self.fs, self.path, self.groups + other.groups, self.columns,
                             self.sizes + other.sizes)  # fmt: skip

    def where(self) -> str:
        groups = self.groups
        span = f" {groups[0]}" if len(groups) == 1 else f"s {groups[0]}-{groups[-1]}"
        return f"{self.path} (row group{span})"

    def side(self, index: int) -> str:
        return f"column {self.columns[index]!r}"

    def locate(self, row: int) -> str:  # messages name the file apart
        i = 0
        while i + 1 < len(self.sizes) and row >= self.sizes[i]:
            row -= self.sizes[i]
            i += 1
        return f"row group {self.groups[i]}, row {row}"

    def read(self) -> list[tuple[Any, NDArray[np.bool_] | None]]:
        """Each column's non-null values and its null mask (None without nulls)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            with self.fs.open(self.path, "rb") as handle:
                table = pq.ParquetFile(handle).read_row_groups(
                    self.groups, columns=list(self.columns)
                )
        except (OSError, pa.ArrowException) as error:
            raise _unreadable(self.path, error) from None
        out = []
        for name in self.columns:
            column = table.column(name)
            if pa.types.is_dictionary(column.type):  # e.g. a pandas Categorical written out
                column = column.cast(column.type.value_type)
            nulls = None
            if column.null_count:  # Parquet nulls are missing values, as None is
                mask = column.is_null()
                # np.asarray, not to_numpy(zero_copy_only=...): pyarrow 10's ChunkedArray
                # takes no keyword there (the minimum version this project supports)
                nulls = np.asarray(mask, dtype=bool)
                column = column.filter(pa.compute.invert(mask))
            out.append((column.to_numpy(), nulls))
        return out


class _ArrayChunk:
    """One block of each of two dask collections (computed on the worker)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.path = None

    def where(self) -> str:
        return f"chunk {self.index}"

    def side(self, index: int) -> str:
        return f"`{_SIDES[index]}`"

    def locate(self, row: int) -> str:
        return f"chunk {self.index}, row {row}"


def _parquet_files(fs: Any, paths: list[str], globbed: bool) -> list[str]:
    """The data files: a folder's or a glob's files less Spark's and Hadoop's markers."""
    files: list[str] = []
    for path in paths:
        if fs.isdir(path):
            files += [p for p in fs.find(path) if not _is_marker(p) and p.endswith(".parquet")]
        elif not (globbed and _is_marker(path)):
            files.append(path)
    return files


def _is_marker(path: str) -> bool:
    """_SUCCESS, _committed_*, _started_*, _metadata, .crc and other hidden files (no data)."""
    name = os.path.basename(path.rstrip("/" + os.sep))
    return name.startswith(("_", ".")) or name.endswith(".crc")


def _parquet_chunks(
    source: Any, columns: Any, storage_options: Any
) -> tuple[list[_ParquetChunk], dict[str, tuple[int, int] | None], int]:
    """Every non-empty row group, each column's integer range from the footers (or None),
    and the number of rows."""
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
    sources = [source] if isinstance(source, str) else list(source)
    globbed = any(any(c in s for c in "*?[") for s in sources)
    files = _parquet_files(fs, paths, globbed)
    if not files:
        raise InvalidInputError(f"`source` matched no Parquet file; got {_describe(source)}.")
    chunks: list[_ParquetChunk] = []
    ranges: dict[str, tuple[int, int] | None] = {}
    rows_before = 0
    for path in sorted(files):
        try:
            with fs.open(path, "rb") as handle:
                parquet = pq.ParquetFile(handle)
                schema = parquet.schema_arrow
                meta = parquet.metadata
        except (OSError, pa.ArrowException) as error:
            raise _unreadable(path, error) from None
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
            chunks.append(_ParquetChunk(fs, path, [group], tuple(columns), [rows.num_rows]))
            rows_before += rows.num_rows
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
    out = {k: (None if v is None else (int(v[0]), int(v[1]))) for k, v in ranges.items()}
    return chunks, out, rows_before


# --------------------------------------------------------------------------- per-chunk tasks


class _Encoded:
    """One chunk's labels of one side read by the library's one encoding (_validation).

    ``codes``: -1 for an unassigned element (a missing value -- None, NaN, NaT, pd.NA, a
    Parquet null -- or a label in ``unassigned_label``), else an index into ``uniques``, the
    chunk's distinct labels (each with its identity: no cast merged two of them). A block of
    another array library (a CuPy chunk) is encoded where it is, by the device path of the
    single calls (:func:`~chanceclust._validation._device_side`): its codes stay there, only
    its K distinct labels cross to the host.
    """

    def __init__(self, values: Any, nulls: NDArray[np.bool_] | None, name: str,
                 marks: frozenset[Any]) -> None:  # fmt: skip
        device = _device_side(values, name, marks, keep_values=True) if nulls is None else None
        if device is not None:
            self.codes, self.unassigned = device.codes, device.n_unassigned
            # the labels as they came to the host (a zero-length copy gives an empty side's dtype)
            self.uniques = np.asarray(device.values) if device.values else to_host(values[:0])
            return
        if getattr(getattr(values, "dtype", None), "name", None) == "category":
            values = values.astype(object)  # categories are labels; their codes are not
        array = _as_label_array(values, name)
        codes, k, n_bad = _encode_array(array, name, marks)
        if isinstance(array, list):
            objects = np.empty(len(array), dtype=object)
            objects[:] = array
            array = objects
        self.uniques = np.empty(k, dtype=array.dtype)
        if n_bad:
            kept = codes >= 0
            self.uniques[codes[kept]] = array[kept]
        else:  # every code is a label's: no masked copies
            self.uniques[codes] = array
        # the codes stay as encoded (int32 while they fit): -1 indexes _global_codes' last entry
        if nulls is not None:  # back to every row: nulls are unassigned
            full = np.full(nulls.shape[0], -1, dtype=codes.dtype)
            full[~nulls] = codes
            codes = full
        self.codes = codes
        self.unassigned = n_bad + (int(np.count_nonzero(nulls)) if nulls is not None else 0)


def _raw(chunk: Any, left: Any = None, right: Any = None) -> list[tuple[Any, Any]]:
    """A chunk's two sides as read: (values, null mask or None) each, 1-D."""
    pairs = chunk.read() if isinstance(chunk, _ParquetChunk) else [(left, None), (right, None)]
    return [(values.ravel() if isinstance(values, np.ndarray) and values.ndim != 1 else values,
             nulls) for values, nulls in pairs]  # fmt: skip


def _check_lengths(chunk: Any, first: int, second: int) -> None:
    if first != second:
        raise InvalidInputError(
            "the two label collections of `source` must have the same length in every "
            f"chunk; got {first} and {second} in {chunk.where()}."
        )


def _read(chunk: Any, marks: frozenset[Any], raw: list[tuple[Any, Any]]
          ) -> tuple[_Encoded, _Encoded]:  # fmt: skip
    """Both sides of a chunk, as :func:`_raw` read them, by the one encoding."""
    sides = [_Encoded(values, nulls, _SIDES[i], marks) for i, (values, nulls) in enumerate(raw)]
    _check_lengths(chunk, sides[0].codes.shape[0], sides[1].codes.shape[0])
    return sides[0], sides[1]


def _chunk_uniques(chunk: Any, marks: frozenset[Any], left: Any = None, right: Any = None
                   ) -> tuple[Any, ...]:  # fmt: skip
    """Each side's (distinct labels, their kinds with where they were seen), and the length."""
    sides = _read(chunk, marks, _raw(chunk, left, right))
    out: list[Any] = []
    for i, side in enumerate(sides):
        where = f" in {chunk.where()}, {chunk.side(i)}"
        out.append((side.uniques, {k: (v, where) for k, v in label_kinds(side.uniques).items()}))
    return out[0], out[1], sides[0].codes.shape[0]


def _merge_uniques(*parts: tuple[Any, ...]) -> tuple[Any, ...]:
    """Unite chunks' dictionaries (one label-union rule: _tables.union_labels)."""
    out: list[Any] = []
    for side, name in enumerate(_SIDES):
        kinds: dict[str, tuple[Any, str]] = {}
        for part in parts:
            for kind, seen in part[side][1].items():
                kinds.setdefault(kind, seen)
        check_label_kinds([({k: v[0]}, v[1]) for k, v in kinds.items()], name)
        out.append((union_labels([p[side][0] for p in parts], name), kinds))
    return out[0], out[1], sum(p[2] for p in parts)


class _Plan(NamedTuple):
    """How every chunk codes its cells: per side the coding -- an integer range (low, high)
    from the footers or a sorted dictionary of labels -- and K (its codes), the width of the
    cell keys (K plus the clusters the policy adds), the policy and each chunk's first row."""

    codings: tuple[Any, Any]
    ks: tuple[int, int]
    widths: tuple[int, int]
    policy: Unassigned
    offsets: list[int]
    n_rows: int


def _plan(codings: list[Any], policy: Unassigned, lengths: list[int]) -> _Plan:
    codings = [c[0] if isinstance(c, tuple) and len(c) == 2 and isinstance(c[1], dict)
               else c for c in codings]  # fmt: skip
    ks = [c[1] - c[0] + 1 if isinstance(c, tuple) else len(c) for c in codings]
    n_rows = int(sum(lengths))
    extra = policy.added_clusters(n_rows)  # the width of the cell keys is K plus these
    widths = [k + extra for k in ks]
    if widths[0] * widths[1] >= 2**63:
        raise UnsupportedError(
            f"tables of {widths[0]} x {widths[1]} possible clusters (unassigned={policy.name!r} "
            f"with {n_rows} elements) are too large to index by int64."
        )
    offsets = np.concatenate([[0], np.cumsum(lengths[:-1], dtype=np.int64)]).tolist()
    return _Plan((codings[0], codings[1]), (ks[0], ks[1]), (widths[0], widths[1]), policy,
                 offsets, n_rows)  # fmt: skip


def _range_codes(values: NDArray[np.integer], low: int) -> NDArray[np.int64]:
    """Integer labels as offsets from the dataset's minimum ``low`` (exact for any dtype)."""
    if values.dtype.kind == "u" and low >= 0:
        return (values - np.uint64(low)).astype(np.int64)
    if values.dtype.kind in "iu":  # values - low < 2**31: no overflow either way
        return values.astype(np.int64) - np.int64(low)
    raise InternalError(f"an integer range coding met labels of dtype {values.dtype}")


def _global_codes(side: _Encoded, coding: Any) -> NDArray[np.int64]:
    """A chunk's codes in the dataset's coding (-1 stays -1: unassigned), where they are (a
    device's codes by :func:`~chanceclust._validation.take` of the K-entry lookup)."""
    if isinstance(coding, tuple):  # offsets from the minimum
        lookup = _range_codes(side.uniques, coding[0])
    else:
        lookup = label_positions(coding, side.uniques)
    lookup, codes = np.append(lookup, np.int64(-1)), side.codes
    xp = namespace(codes)
    if xp is not None:  # the standard's take has no negative index: -1 is the last entry's K
        codes = xp.where(codes < 0, xp.asarray(lookup.size - 1, dtype=codes.dtype,
                                               device=codes.device), codes)  # fmt: skip
    return take(lookup, codes)


def _folded_shift(plan: _Plan, dtypes: list[np.dtype[Any]]) -> int | None:
    """The constant that turns ``label_a * W_B + label_b`` into the cell key, when labels of
    these dtypes in the plan's ranges keep that sum inside int64; else None."""
    (low_a, high_a), (low_b, high_b) = plan.codings
    width = plan.widths[1]
    if not all(np.can_cast(dtype, np.int64, "safe") for dtype in dtypes):
        return None
    if max(abs(low_a), abs(high_a)) * width + max(abs(low_b), abs(high_b)) >= 2**63:
        return None
    return low_a * width + low_b


def _chunk_codes(chunk: Any, plan: _Plan, marks: frozenset[Any], left: Any, right: Any
                 ) -> tuple[list[NDArray[np.integer]], bool, int]:  # fmt: skip
    """A chunk's codes of both sides, whether any is unassigned, and the keys' shift.

    Integer labels with no nulls and no ``unassigned_label`` under a range coding are their
    offsets from the minimum: no chunk dictionary (the encoding would give each label its
    rank among the chunk's labels, then map the ranks back to the same offsets). Where the
    labels themselves keep ``label_a * W_B + label_b`` inside int64, they are returned as
    they are with the shift ``low_a * W_B + low_b`` to subtract from their cell keys (no
    int64 copy of each side); else the offsets, shift 0.
    """
    raw = _raw(chunk, left, right)
    if not marks and all(
        isinstance(coding, tuple) and nulls is None and isinstance(values, np.ndarray)
        and values.dtype.kind in "iu"
        for (values, nulls), coding in zip(raw, plan.codings, strict=True)
    ):
        _check_lengths(chunk, raw[0][0].shape[0], raw[1][0].shape[0])
        shift = _folded_shift(plan, [values.dtype for values, _ in raw])
        if shift is not None:
            return [values for values, _ in raw], False, shift
        return [_range_codes(values, coding[0])
                for (values, _), coding in zip(raw, plan.codings, strict=True)], False, 0
    sides = _read(chunk, marks, raw)
    unassigned = bool(sides[0].unassigned or sides[1].unassigned)
    return [_global_codes(side, coding)
            for side, coding in zip(sides, plan.codings, strict=True)], unassigned, 0


def _batch_uniques(chunks: list[Any], marks: frozenset[Any], lefts: list[Any],
                   rights: list[Any]) -> tuple[Any, ...]:  # fmt: skip
    """:func:`_chunk_uniques` of a batch of chunks, united: one task reads them all."""
    parts = zip(chunks, lefts, rights, strict=True)
    return _merge_uniques(
        *(_chunk_uniques(chunk, marks, left, right) for chunk, left, right in parts)
    )


def _unassigned_at(codes: Any) -> tuple[int, int]:
    """How many of a chunk's codes are unassigned (< 0) and the position of the first (-1:
    none), counted where the codes are."""
    mask = codes < 0
    xp = namespace(codes)
    if xp is None:
        missing = np.flatnonzero(mask)
        return int(missing.size), int(missing[0]) if missing.size else -1
    count = _count_true(mask)
    return count, _first_true(xp, mask) if count else -1


def _reassigned(codes: Any, policy: Unassigned, k: int, offset: int) -> Any:
    """A chunk's codes with each unassigned one (< 0) given its new cluster by the policy,
    the element's row in the dataset (``offset`` + its position) singling it out; where the
    codes are (a device's by ``where``, the standard having no assignment by mask)."""
    xp = namespace(codes)
    if xp is None:
        missing = np.flatnonzero(codes < 0)
        codes[missing] = policy.new_codes(k, offset + missing)
        return codes
    rows = xp.arange(offset, offset + codes.shape[0], dtype=codes.dtype, device=codes.device)
    new = xp.asarray(policy.new_codes(k, rows), dtype=codes.dtype, device=codes.device)
    return xp.where(codes < 0, new, codes)


def _chunk_cells(chunks: list[Any], plan: _Plan, index: int, buckets: int, dense: bool,
                 marks: frozenset[Any], lefts: list[Any], rights: list[Any]
                 ) -> tuple[Any, tuple[Any, ...]]:  # fmt: skip
    """One batch's cells (sorted int64 keys, counts), split into row-range buckets, and its
    unassigned elements: (rows, (count, first position, where, path) per side, dropped).

    A batch is consecutive chunks (row groups, or blocks of dask collections), read one by
    one and counted together by one :func:`count_keys`. With one bucket the pair itself is
    returned (no list to index: fewer tasks). With ``dense`` (one bucket, see
    :func:`_graph`), the batch's dense tally of every cell key instead (one
    :func:`tally_keys`, returned :func:`_compact`). Blocks of another array library (CuPy
    chunks) are counted where they are, each by :func:`count_cells` (only its cells cross
    to the host), and their cells merged here.
    """
    offset = plan.offsets[index]
    stats: list[Any] = [(0, -1, "", None), (0, -1, "", None)]
    dropped = rows = 0
    parts = []
    counted = []  # the cells of chunks counted on their device
    for chunk, left, right in zip(chunks, lefts, rights, strict=True):
        codes, unassigned, shift = _chunk_codes(chunk, plan, marks, left, right)
        codes = list(same_place(*codes))
        size = codes[0].shape[0]
        for s, side in enumerate(codes):
            missing, at = _unassigned_at(side) if unassigned else (0, -1)
            if missing:  # chunks come in order: the batch's first is its first chunk's
                count, first, where, path = stats[s]
                if not count:
                    first, where, path = offset + at, chunk.locate(at), chunk.path
                stats[s] = (count + missing, first, where, path)
        if unassigned and not plan.policy.reassigns:  # 'raise' is refused on the driver
            keep = (codes[0] >= 0) & (codes[1] >= 0)
            dropped += size - _count_true(keep)
            codes = [side[keep] for side in codes]
        elif unassigned:
            codes = [_reassigned(side, plan.policy, k, offset)
                     for side, k in zip(codes, plan.ks, strict=True)]  # fmt: skip
        rows += size
        offset += size
        if namespace(codes[0]) is not None:
            counted.append(count_cells(codes[0], codes[1], *plan.widths)[:2])
            continue
        keys = cell_keys(codes[0], codes[1], plan.widths[1])
        del codes
        if shift:
            keys -= shift
        parts.append(keys)
        del keys
    width_a, width_b = plan.widths
    summary = (rows, stats[0], stats[1], dropped)
    keys = parts[0] if len(parts) == 1 else np.concatenate(parts or [np.empty(0, np.int64)])
    del parts
    if dense:  # (Parquet integer ranges: chunks on the host, but any counted cell is added)
        tally = tally_keys(keys, width_a * width_b)
        for cells, counts in counted:  # (distinct cells)
            tally[cells] += counts
        return _compact(tally, rows - dropped), summary
    cells, counts = count_keys(keys, width_a * width_b)
    del keys
    if counted:
        cells, counts = _merge_cells((cells, counts), *counted)
    if buckets == 1:
        return (cells, counts), summary
    edges = np.searchsorted(cells, _bucket_edges(width_a, width_b, buckets))
    return [(cells[lo:hi], counts[lo:hi]) for lo, hi in itertools.pairwise(edges)], summary


def _joined(chunks: list[Any]) -> list[Any]:
    """A batch's consecutive row groups of one file as one chunk (one open, one read call)."""
    out = chunks[:1]
    for chunk in chunks[1:]:
        both = out[-1].joined(chunk) if isinstance(chunk, _ParquetChunk) else None
        if both is None:
            out.append(chunk)
        else:
            out[-1] = both
    return out


#: Most rows one task reads and counts (its int64 keys: 64 MiB), and the tasks per worker
#: aimed at otherwise: few tasks (each costs ~ms of scheduling and a partial table to merge),
#: enough of them to balance the workers.
_TASK_ROWS = 1 << 23
_TASKS_PER_WORKER = 4


def _worker_count() -> int:
    """Workers of the active distributed client, else the local scheduler's threads."""
    try:
        from distributed import get_client

        return max(1, len(get_client().scheduler_info()["workers"]))
    except (ImportError, ValueError):
        return available_cores()


def _batches(lengths: list[int] | None, n_chunks: int, workers: int) -> list[list[int]]:
    """Consecutive chunks grouped into about _TASKS_PER_WORKER tasks per worker, each of at
    most _TASK_ROWS rows unless a single chunk has more (rows unknown: equal chunk counts)."""
    if not n_chunks:
        return []
    if lengths is None:
        tasks = min(n_chunks, _TASKS_PER_WORKER * workers)
        bounds = np.linspace(0, n_chunks, tasks + 1).round().astype(int)
        return [list(range(lo, hi)) for lo, hi in itertools.pairwise(bounds.tolist())]
    total = sum(lengths)
    tasks = max(_TASKS_PER_WORKER * workers, -(-total // _TASK_ROWS))
    target = max(1, -(-total // tasks))
    batches: list[list[int]] = [[]]
    rows = 0
    for i, length in enumerate(lengths):
        if batches[-1] and rows + length > target:
            batches.append([])
            rows = 0
        batches[-1].append(i)
        rows += length
    return batches


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


def _bucket_summary(part: tuple[NDArray[np.int64], NDArray[np.int64]], plan: _Plan
                    ) -> tuple[Any, ...]:  # fmt: skip
    """Histograms of one merged bucket: its rows are complete (buckets are row ranges), its
    columns are not: (row-size histogram, (columns, partial sums), cell-count histogram)."""
    keys, counts = part
    if keys.size == 0:
        empty = np.empty(0, dtype=np.int64)
        return (empty, empty), (empty, empty), (empty, empty)
    rows, cols = np.divmod(keys, plan.widths[1])
    first = np.empty(rows.size, dtype=bool)
    first[0] = True
    np.not_equal(rows[1:], rows[:-1], out=first[1:])
    row_sums = np.add.reduceat(counts, np.flatnonzero(first))
    row_hist, cell_hist = _histogram(row_sums), _histogram(counts)
    col_sums = _merge_cells((cols, counts))
    return tuple(row_hist), col_sums, tuple(cell_hist)


def _compact(tally: NDArray[np.integer], most: int) -> NDArray[np.integer]:
    """A tally in the narrowest unsigned dtype that holds counts up to ``most`` (int64 from
    2**32 on): less to send between workers (a fourth of int64 for a task's 10^6 rows), exact."""
    return tally.astype(np.min_scalar_type(most) if most < 2**32 else np.int64, copy=False)


def _merge_tallies(*parts: NDArray[np.integer]) -> NDArray[np.integer]:
    """Sum dense tallies of the same cell keys in int64 (exact: the total is below 2**63),
    returned compact."""
    total = parts[0].astype(np.int64)
    for part in parts[1:]:
        np.add(total, part, out=total)
    return _compact(total, int(total.max()) if total.size else 0)


def _tally_cells(tally: NDArray[np.integer]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The cells and int64 counts of the merged (compact) tally."""
    return tally_cells(tally.astype(np.int64, copy=False))


def _merge_summaries(*parts: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_merge_cells(*(p[i] for p in parts)) for i in range(3))


def _tree(delayed: Any, function: Any, items: list[Any], name: str, fan_in: int) -> Any:
    """Reduce ``items`` with ``function`` by a tree of fan-in ``fan_in`` (one task per node)."""
    level = 0
    while len(items) > 1:
        items = [
            delayed(function, pure=True, name=f"{name}-{level}-{i}")(*items[i : i + fan_in])
            for i in range(0, len(items), fan_in)
        ]
        level += 1
    return items[0]


# --------------------------------------------------------------------------- driver side


def _check_unassigned(plan: _Plan, stats: list[tuple[Any, ...]], marks: frozenset[Any],
                      names: tuple[str, str]) -> int:  # fmt: skip
    """The unassigned policy's errors, as validate_clusterings raises them; returns the
    number of elements dropped (as partial_table counts them).

    Mirrors ``_validation._raise_unassigned`` (its words, with the file, row group and row
    of the first unassigned element) and the validation layer's rule that dropping every
    element is an error.
    """
    totals = [sum(s[1 + side][0] for s in stats) for side in (0, 1)]
    if plan.policy.refuses and any(totals):
        parts, path = [], None
        for side, name in enumerate(names):
            if not totals[side]:
                continue
            first = min((s[1 + side] for s in stats if s[1 + side][0]), key=lambda f: f[1])
            path = path or first[3]
            parts.append(f"{name} has {totals[side]} unassigned element(s), the first at "
                         f"position {first[1]} ({first[2]})")  # fmt: skip
        message = unassigned_message(parts, marks, nulls=", Parquet nulls" if path else "")
        raise InvalidInputError(message) if path is None else InvalidFileError(path, None, message)
    dropped = sum(s[3] for s in stats)
    if plan.policy.drops and plan.n_rows and dropped == plan.n_rows:
        raise nothing_left(dropped, names)
    return dropped


def _finish_table(buckets: list[tuple[NDArray[np.int64], NDArray[np.int64]]], plan: _Plan,
                  stats: list[Any], marks: frozenset[Any], names: tuple[str, str]
                  ) -> PartialTable:  # fmt: skip
    """The exact table from the sorted, disjoint buckets (concatenated in order).

    A side with elements re-assigned by the policy ('singletons', 'cluster') is labelled by
    its codes 0..K-1 (its labels in order, then the new clusters), as validate_clusterings
    numbers them: the new clusters have no label.
    """
    dropped = _check_unassigned(plan, stats, marks, names)
    keys = np.concatenate([b[0] for b in buckets])
    counts = np.concatenate([b[1] for b in buckets])
    rows, cols = np.divmod(keys, plan.widths[1])
    del keys
    (used_rows, rows), (used_cols, cols) = used_codes(rows, plan.widths[0]), used_codes(
        cols, plan.widths[1])  # the codes that occur, ascending; the cells' codes renumbered
    labels = []
    for used, coding, k in zip((used_rows, used_cols), plan.codings, plan.ks, strict=True):
        if used.size and used[-1] >= k:  # re-assigned elements: codes
            labels.append(np.arange(used.size, dtype=np.int64))
        elif isinstance(coding, tuple):
            labels.append(_range_labels(used, coding[0]))
        else:
            labels.append(coding[used])
    n = check_counts(counts, "the labels' table", str)[1]
    return _canonical(labels[0], labels[1], rows, cols, counts, n, dropped)


def _range_labels(used: NDArray[np.int64], low: int) -> NDArray[Any]:
    """The labels low + used: int64, or uint64 beyond it (exact)."""
    if low >= 0 and low + int(used[-1] if used.size else 0) >= 2**63:
        return used.astype(np.uint64) + np.uint64(low)
    return used + np.int64(low)


def _finish_summary(merged: tuple[Any, ...], plan: _Plan, stats: list[Any],
                    marks: frozenset[Any], names: tuple[str, str]) -> TableSummary:  # fmt: skip
    _check_unassigned(plan, stats, marks, names)
    (row_values, row_counts), (_, col_sums), (cell_values, cell_counts) = merged
    sizes_true = Histogram(row_values, row_counts)
    return TableSummary(sizes_true.total, sizes_true, _histogram(col_sums),
                        Histogram(cell_values, cell_counts))  # fmt: skip


def _empty(summary: bool) -> PartialTable | TableSummary:
    """No element: the table of ``partial_table([], [])``, as the in-memory calls give."""
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
                "the dask arrays of `source` must be 1-D (one label per element); got shapes "
                f"{left.shape} and {right.shape}."
            )
        if any(math.isnan(c) for c in left.shape + right.shape):  # nan != nan: not a length
            raise InvalidInputError(
                "the dask arrays of `source` have unknown chunk sizes (e.g. after boolean "
                "indexing); call .compute_chunk_sizes() on them first."
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
                "the two dask Series of `source` must be partitioned alike (columns of one "
                f"dataframe); got {left.npartitions} and {right.npartitions} partitions."
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
    unassigned_label: Any = None,
    unassigned: str = "raise",
    scheduler: str | None = None,
    timeout: float = 10.0,
) -> Any:
    """The contingency table of two huge labelings, computed by Dask.

    Parameters
    ----------
    source : str, list of str, or (labels_true, labels_pred)
        A Parquet dataset -- a file, a directory, a glob or any fsspec URL
        (``s3://``, ``gs://``, ...), or a list of them -- holding both label
        columns; or a pair of 1-D dask arrays, or of dask Series (two columns
        of one dask DataFrame). The blocks of the dask arrays may live on a
        device (CuPy chunks, any array of the array API standard): each block's
        table is counted there, only its K distinct labels and its cells
        crossing to the host (docs/guide/gpu.md). Files of a directory or a
        glob whose names start with ``_`` or ``.`` or end with ``.crc``
        (Spark's success and ``_committed_*`` markers, checksums) are skipped.
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
        span at most 2^22 cells, else 4 per Dask worker (per core without a
        client).
    unassigned_label, unassigned :
        As for every labels-taking function (see
        :func:`chanceclust.contingency_table`): missing values (Parquet nulls,
        NaN, NaT, None, ``pd.NA``) and labels in ``unassigned_label`` are
        unassigned, and ``unassigned`` ('raise', 'drop', 'singletons',
        'cluster') says what they mean.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``) to run on; default:
        the active ``distributed.Client``, else Dask's local scheduler.
    timeout : float, default=10
        Seconds to wait for ``scheduler`` to answer before giving up.

    Returns
    -------
    PartialTable or TableSummary
        The exact table (``.to_sparse()`` is ``chanceclust.contingency_table(
        a, b, sparse=True)`` of the concatenated labels) or its summary, both
        accepted as ``contingency=`` by every measure: the same value as the
        single calls on the concatenated labels, or the same error. A side
        with elements re-assigned by 'singletons' or 'cluster' is labelled by
        its codes 0..K-1 (the new clusters have no label). No element at all
        gives the empty table, as ``partial_table([], [])`` does.

    Raises
    ------
    InvalidInputError
        For unassigned elements under ``unassigned='raise'`` (a
        :class:`~chanceclust.InvalidFileError` naming the Parquet file, row
        group and row of the first), every element dropped by
        ``unassigned='drop'``, labels of different kinds in one column (e.g.
        integers in one file, strings in another: both are named), a corrupt
        Parquet file (InvalidFileError naming it), or a scheduler that does not
        answer within ``timeout``.

    Notes
    -----
    A column other than integers with Parquet footer statistics is factorized first (a second
    read of the data); how the work is split: the module docstring and docs/guide/scaling.md.

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
    _require()
    if not isinstance(summary, bool) or not isinstance(compute, bool):
        raise InvalidInputError(
            f"`summary` and `compute` must be True or False; got {_describe(summary)} and "
            f"{_describe(compute)}."
        )
    policy = check_unassigned(unassigned)
    marks = check_unassigned_label(unassigned_label)
    if scheduler is None:
        return _graph(source, columns, summary, compute, storage_options, buckets, policy, marks)
    if not isinstance(scheduler, str):
        raise InvalidInputError(
            f"`scheduler` must be an address such as 'tcp://host:8786'; got {_describe(scheduler)}."
        )
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise InvalidInputError(f"`timeout` must be a positive number of seconds; got "
                                f"{_describe(timeout)}.")  # fmt: skip
    if not compute:
        raise InvalidInputError("`scheduler` needs compute=True (a lazy result runs on the "
                                "scheduler its caller computes it with).")  # fmt: skip
    with _client(scheduler, timeout):
        return _graph(source, columns, summary, compute, storage_options, buckets, policy, marks)


def _client(address: str, timeout: float) -> Any:
    """A distributed.Client of ``address``, or an InvalidInputError within ``timeout`` s."""
    from distributed import Client

    try:
        return Client(address, timeout=timeout, set_as_default=True)
    except (OSError, TimeoutError, ValueError) as error:
        raise InvalidInputError(
            f"`scheduler` {address!r} did not answer within {timeout:g} s "
            f"({type(error).__name__}: {str(error).strip().splitlines()[0] if str(error) else ''})"
            "; check the address, or raise `timeout`."
        ) from None


def _graph(source: Any, columns: Any, summary: bool, compute: bool, storage_options: Any,
           buckets: Any, policy: Unassigned, marks: frozenset[Any]) -> Any:  # fmt: skip
    """Build (and with ``compute``, run) the task graph of :func:`contingency_table`."""
    import dask
    from dask import delayed

    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, (str, bytes)) or (
        isinstance(source, list) and source and all(isinstance(s, str) for s in source)
    ):
        chunks, ranges, _ = _parquet_chunks(source, columns, storage_options)
        lefts: list[Any] = [None] * len(chunks)
        rights: list[Any] = [None] * len(chunks)
        codings: list[Any] = [ranges.get(c) for c in columns]
        for side, coding in enumerate(codings):
            if coding is not None and coding[1] - coding[0] >= 2**31:
                codings[side] = None  # too wide to pack two into int64 keys: factorize
        lengths: Any = [chunk.rows for chunk in chunks]
        names = (f"`labels_true` (column {columns[0]!r})", f"`labels_pred` (column {columns[1]!r})")
    else:
        if columns is not None:
            raise InvalidInputError(
                f"`columns` is for Parquet sources only; got {_describe(columns)} with "
                "dask collections."
            )
        chunks, lefts, rights = _collection_chunks(source)
        codings = [None, None]
        lengths = None
        names = ("`labels_true`", "`labels_pred`")
    extra = policy.added_clusters(sum(lengths) if lengths is not None else 0)
    cells = (
        (codings[0][1] - codings[0][0] + 1 + extra) * (codings[1][1] - codings[1][0] + 1 + extra)
        if all(isinstance(c, tuple) for c in codings) else None
    )  # fmt: skip
    small = not policy.singletons and cells is not None and cells <= _ONE_TREE_CELLS
    workers = _worker_count()
    if buckets is None:  # a small table is merged by one tree; a large one in buckets
        buckets = 1 if small else 4 * workers
    elif isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
        raise InvalidInputError(f"`buckets` must be a positive integer; got {_describe(buckets)}.")
    if not chunks:
        result = delayed(_empty, pure=True)(summary)
        return result.compute() if compute else result
    batches = _batches(lengths, len(chunks), workers)  # consecutive chunks per task
    tasks = []
    for b in batches:
        pieces = _joined([chunks[i] for i in b])  # Parquet row groups (no blocks) are joined
        if len(pieces) == len(b):
            tasks.append((pieces, [lefts[i] for i in b], [rights[i] for i in b]))
        else:
            tasks.append((pieces, [None] * len(pieces), [None] * len(pieces)))
    if lengths is not None:
        lengths = [sum(lengths[i] for i in b) for b in batches]
    if None in codings or lengths is None:  # factorize: distributed unique, united by a tree
        uniques = [
            delayed(_batch_uniques, pure=True)(batch, marks, left, right)
            for batch, left, right in tasks
        ]
        if lengths is None:
            lengths = [u[2] for u in uniques]
        if None in codings:
            dictionary = _tree(delayed, _merge_uniques, uniques, "chanceclust-unique", _FAN_IN)
            for side in (0, 1):
                if codings[side] is None:
                    codings[side] = dictionary[side]
    plan = delayed(_plan, pure=True)(codings, policy, lengths)
    # One bucket and every task counting by a tally (the one dense/sparse rule, on the
    # fewest rows a task has): the tasks return their tallies, added up by the tree.
    dense = (
        buckets == 1 and small and lengths is not None and dense_counting(cells, min(lengths))
    )
    per_chunk = [
        delayed(_chunk_cells, pure=True, nout=2)(batch, plan, i, buckets, dense, marks, *sides)
        for i, (batch, *sides) in enumerate(tasks)
    ]
    stats = [out[1] for out in per_chunk]
    if dense:
        merged = [delayed(_tally_cells, pure=True)(
            _tree(delayed, _merge_tallies, [out[0] for out in per_chunk], "chanceclust-tally",
                  _TALLY_FAN_IN))]
    else:
        merged = [
            _tree(delayed, _merge_cells,
                  [out[0] if buckets == 1 else out[0][p] for out in per_chunk],
                  f"chanceclust-cells-{p}", _FAN_IN)
            for p in range(buckets)
        ]  # fmt: skip
    if summary:
        parts = [delayed(_bucket_summary, pure=True)(part, plan) for part in merged]
        result = delayed(_finish_summary, pure=True)(
            _tree(delayed, _merge_summaries, parts, "chanceclust-summary", _FAN_IN),
            plan,
            stats,
            marks,
            names,
        )
    else:
        result = delayed(_finish_table, pure=True)(merged, plan, stats, marks, names)
    return dask.compute(result)[0] if compute else result
