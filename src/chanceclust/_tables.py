"""The one table path: validation of a user's table and the one group-by-count kernel.

Every contingency table of the library is a group-by-count of int64 cell keys
``row * K_B + col`` (built from labels, pairwise workspaces, significance
batches, partial tables, Dask chunks) or a table a user gave. Both go through
this module, so they give the same arrays and the same messages everywhere: the validators
(:func:`check_table`, :func:`check_counts`, :func:`check_total`), the kernel
(:func:`count_keys`, its batched form :func:`count_rows` and threaded :func:`count_cells`,
counting densely or by a sort by the one rule :func:`dense_counting`) and the builders of
:class:`Table`, the measures' currency (:func:`table_from_codes`, :func:`table_of_cells`,
:func:`user_table`). The whole table path is this module: contingency.py only reads labels
into codes and shapes public results.

numpy only (scipy.sparse is touched only when the user's table is sparse).
"""

from __future__ import annotations

import decimal
import math
import numbers
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from chanceclust._validation import (
    _describe,
    device_bincount,
    namespace,
    same_place,
    to_host,
)
from chanceclust.exceptions import InternalError, InvalidInputError, UnsupportedError

#: The largest total N of a table: counts, sizes and N are int64 inside.
MAX_TOTAL = 2**63 - 1

# ----------------------------------------------------------------------------- the rule

# Dense counting (a tally of all K_A K_B keys, then a scan for the non-zero ones) costs
# O(n + K_A K_B) time and one int64 per possible key; sorting the n keys costs O(n log n) and
# no memory beyond the keys. With numpy's vectorized sorts the two cost the same at about one
# possible key per element (measured at n = 1e4 .. 1e7: tally 221 ms, sort 219 ms at n = 1e7;
# at 4 keys per element the sort is 2x faster), so: a tally while there are at most as many
# possible keys as elements -- its memory then stays within the keys' own -- and below 1024
# possible keys always (a tiny tally beats the call to a sort). One rule for every builder,
# measured on the others too: the buffered tally of pairwise workspaces (np.add.at) is within
# 10 % of the sort from 1 to 2 keys per element and slower beyond; the batched tally of
# significance tests (int32 keys) is slower than the row sorts already at 1 key per element.
DENSE_KEYS_PER_ELEMENT = 1
DENSE_MIN_KEYS = 1024


def dense_limit(n: int) -> int:
    """The most distinct keys that :func:`dense_counting` counts densely for ``n`` keys."""
    return max(DENSE_KEYS_PER_ELEMENT * n, DENSE_MIN_KEYS)


def dense_counting(n_keys: int, n: int) -> bool:
    """The one dense/sparse rule: count ``n`` keys in [0, ``n_keys``) by a tally, else by a sort."""
    return n_keys <= dense_limit(n)


# ----------------------------------------------------------------------------- the kernel

_COMPACT_CHUNK = 1 << 16  # elements moved at a time when compacting in place


def cell_keys(
    codes_true: NDArray[np.integer],
    codes_pred: NDArray[np.integer],
    k_pred: int,
    out: NDArray[np.int64] | None = None,
) -> NDArray[np.int64]:
    """row * K_B + col for every element, as int64 (into ``out`` when given)."""
    keys = np.multiply(codes_true, k_pred, out=out, dtype=np.int64)
    np.add(keys, codes_pred, out=keys, dtype=np.int64)
    return keys


class CellBuffers:
    """Buffers that let :func:`count_keys` count many tables of ``n`` keys with no allocation.

    ``keys`` is where a caller builds the keys; ``rows`` and ``cols`` are scratch for the
    caller after counting (the sort path uses ``rows`` while counting). ``dense`` is all zero
    between calls.
    """

    def __init__(self, n: int) -> None:
        cap = dense_limit(n)
        self.n = n
        self.keys = np.empty(n, dtype=np.int64)
        self.dense = np.zeros(cap, dtype=np.int64)
        self.mask = np.empty(max(cap, n), dtype=bool)
        self.positions = np.arange(max(cap, n), dtype=np.int64)
        self.cells = np.empty(n, dtype=np.int64)
        self.counts = np.empty(n, dtype=np.int64)
        self.rows = np.empty(n, dtype=np.int64)
        self.cols = np.empty(n, dtype=np.int64)


def count_keys(
    keys: NDArray[np.integer],
    n_keys: int | None = None,
    *,
    weights: NDArray[np.int64] | None = None,
    owned: bool = True,
    buffers: CellBuffers | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Distinct keys, ascending, with their counts (or sums of ``weights``): the one kernel.

    Parameters
    ----------
    keys : ndarray of non-negative integers below ``n_keys``
        Sorted and shrunk in place on the sort path when ``owned`` (the caller's array is
        then spent; it must have no views), else -- or when it does not own its data --
        copied first.
    n_keys : int, optional
        The key range (K_A K_B); None when unknown (then ``keys.max() + 1``).
    weights : ndarray of int64, optional
        Sum these by key instead of counting (exact int64: callers bound the total below
        2**63). Keys that already ascend strictly are returned as they are, with no copy.
    buffers : CellBuffers, optional
        Count into these (the results are views of them, valid until the next call).

    Returns
    -------
    cells, counts : ndarray of int64
        The keys that occur, ascending, and each one's count or weight sum (zero weight sums
        are kept: only keys absent from ``keys`` are absent from ``cells``).
    """
    n = keys.shape[0]
    if weights is not None and (n < 2 or bool(np.all(keys[1:] > keys[:-1]))):
        return keys, weights
    if n_keys is None:
        n_keys = int(keys.max()) + 1 if n else 0
    if buffers is not None:
        return _count_into(buffers, keys, n_keys)
    if dense_counting(n_keys, n):
        if weights is None:
            return tally_cells(tally_keys(keys, n_keys))
        tally = np.zeros(n_keys, dtype=np.int64)
        np.add.at(tally, keys, weights)
        seen = np.zeros(n_keys, dtype=bool)
        seen[keys] = True
        cells = np.flatnonzero(seen)
        return cells, tally[cells].astype(np.int64, copy=False)
    if weights is not None:
        order = np.argsort(keys)
        keys, weights = keys[order], weights[order]
        del order
        starts = np.flatnonzero(_run_starts(keys))
        if starts.size == n:
            return keys.astype(np.int64, copy=False), weights
        return keys[starts].astype(np.int64, copy=False), np.add.reduceat(weights, starts)
    return _sorted_cells(keys.astype(np.int64, copy=not (owned and keys.flags.owndata)))


def tally_keys(keys: NDArray[np.integer], n_keys: int) -> NDArray[np.int64]:
    """The dense tally of :func:`count_keys`: the count of every key in [0, ``n_keys``)."""
    return np.bincount(keys, minlength=n_keys).astype(np.int64, copy=False)


def tally_cells(tally: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The keys that occur in a dense tally, ascending, and their counts."""
    cells = np.flatnonzero(tally)
    return cells, tally[cells]


def _run_starts(keys: NDArray[Any], out: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
    """True where a run of equal values starts, along the last axis of sorted ``keys``."""
    first = np.empty(keys.shape, dtype=bool) if out is None else out
    first[..., :1] = True
    np.not_equal(keys[..., 1:], keys[..., :-1], out=first[..., 1:])
    return first


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


def _count_into(
    buffers: CellBuffers, keys: NDArray[np.int64], n_keys: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`count_keys` in ``buffers``: the same arrays, no allocation of the size of n."""
    n = keys.shape[0]
    if dense_counting(n_keys, n):  # dense counts in the zeroed buffer
        dense = buffers.dense[:n_keys]
        np.add.at(dense, keys, 1)
        mask = np.not_equal(dense, 0, out=buffers.mask[:n_keys])
        nnz = int(np.count_nonzero(mask))
        cells = np.compress(mask, buffers.positions[:n_keys], out=buffers.cells[:nnz])
        counts = np.compress(mask, dense, out=buffers.counts[:nnz])
        if 8 * nnz < n_keys:  # reset only the cells used, or the whole range if cheaper
            dense[cells] = 0
        else:
            dense.fill(0)
        return cells, counts
    keys.sort()  # one in-place sort of the keys, then run lengths
    mask = _run_starts(keys, out=buffers.mask[:n])
    nnz = int(np.count_nonzero(mask))
    starts = np.compress(mask, buffers.positions[:n], out=buffers.rows[:nnz])
    cells = np.take(keys, starts, out=buffers.cells[:nnz])
    counts = buffers.counts[:nnz]
    np.subtract(starts[1:], starts[:-1], out=counts[:-1])
    counts[-1:] = n - starts[-1:]
    return cells, counts


# ----------------------------------------------------------------------------- threads

# Tables of many elements are counted in chunks by threads: each thread builds the cell keys of
# its chunks (numpy ufuncs) and tallies them (np.bincount) into its own dense tally -- both
# release the GIL -- and the threads' tallies are summed: integers, so the same counts bit for
# bit as one tally. Only while the tallies stay small beside the elements (threads x K_A K_B <=
# n / 2, so the tallies and key buffers together hold at most the n int64 keys that one piece
# would build); tables the dense rule counts by a sort, and tallies of more keys, are counted
# in one piece. What releases the GIL was checked by a Python thread spinning beside each call
# (numpy 2.4): bincount, sort, argsort, take and the ufuncs do; np.add.at mostly does not.

#: ``workers=None`` counts with every available core from this many elements on (2^24), in one
#: thread below it, where a pool's start and the sum of the tallies cost more than they save.
PARALLEL_MIN_ELEMENTS = 1 << 24
_CHUNK_ELEMENTS = 1 << 22  # elements per chunk: 32 MiB of int64 keys per thread


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_workers(workers: Any) -> int | None:
    """The ``workers`` argument: None (automatic) or a number of threads.

    As ``scipy.fft``'s ``workers``: a positive count, or a negative one counted back from the
    available cores (-1 all, -2 all but one). Raises InvalidInputError naming ``workers``.
    """
    if workers is None:
        return None
    if (
        isinstance(workers, (bool, np.bool_))
        or not isinstance(workers, numbers.Integral)
        or workers == 0
        or -workers > available_cores()
    ):
        raise InvalidInputError(
            "`workers` must be None (every core from 2**24 elements on), a positive number of "
            f"threads, or -1 for all {available_cores()} cores (-2 all but one, ...); got "
            f"{_describe(workers)}."
        )
    workers = int(workers)
    return workers if workers > 0 else available_cores() + 1 + workers


def thread_count(workers: int | None, n: int, n_keys: int) -> int:
    """Threads :func:`count_cells` uses for ``n`` keys in [0, ``n_keys``) (see the rule above)."""
    if workers is None:
        workers = available_cores() if n >= PARALLEL_MIN_ELEMENTS else 1
    if workers < 2 or not dense_counting(n_keys, n):
        return 1
    chunks = -(-n // _CHUNK_ELEMENTS)
    return max(1, min(workers, chunks, n // (2 * max(n_keys, 1))))


def encoding_threads(workers: int | None, *labels: Any) -> int:
    """Threads that encode the labels before :func:`count_cells` (validation's ``workers``).

    ``workers`` as :func:`check_workers` returns it; None: every available core when a label
    array holds at least PARALLEL_MIN_ELEMENTS elements (the rule of :func:`thread_count`),
    else one. Only numpy arrays are counted here (others are encoded by one thread anyway).
    """
    if workers is not None:
        return workers
    size = max((x.size for x in labels if isinstance(x, np.ndarray)), default=0)
    return available_cores() if size >= PARALLEL_MIN_ELEMENTS else 1


# ----------------------------------------------------------------------------- namespaces

# Labels that live in another array library (the Python array API standard: CuPy, JAX, ...,
# array-api-strict) are encoded (_validation._device_side) and counted (_device_cells) by that
# library's own namespace, where they are; only the table's cells and each side's K distinct
# labels cross to the host, through _validation.to_host. numpy arrays take the numpy path
# below (threads, dense tallies).


def _device_cells(xp: Any, codes_true: Any, codes_pred: Any, k_true: int, k_pred: int
                  ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:  # fmt: skip
    """:func:`count_keys` of the cell keys on the codes' device: the distinct keys,
    ascending, and their counts, in host memory. Counted by the library's ``bincount``
    where it has one (CuPy, PyTorch, JAX; not in the standard) and :func:`dense_counting`
    says so, its non-zero cells found there; else by the standard's unique_counts."""
    codes_true, codes_pred = same_place(codes_true, codes_pred)
    keys = xp.astype(codes_true, xp.int64) * k_pred + xp.astype(codes_pred, xp.int64)
    tally = None
    if dense_counting(k_true * k_pred, keys.shape[0]):
        tally = device_bincount(xp, keys, k_true * k_pred)
    if tally is not None:
        del keys
        found_cells = xp.nonzero(tally)[0]
        cells = to_host(found_cells).astype(np.int64, copy=False)
        counts = to_host(xp.take(tally, found_cells)).astype(np.int64, copy=False)
        return cells, counts
    found = xp.unique_counts(keys)
    del keys
    cells = to_host(found.values).astype(np.int64, copy=False)
    counts = to_host(found.counts).astype(np.int64, copy=False)
    if cells.size > 1 and not bool(np.all(cells[1:] > cells[:-1])):  # the standard leaves the
        order = np.argsort(cells, kind="stable")  # order of unique values unspecified
        cells, counts = cells[order], counts[order]
    return cells, counts


def code_sizes(codes: Any, k: int) -> NDArray[np.int64]:
    """The elements of each code 0..k-1 (the cluster sizes), counted where the codes are:
    only the K sizes cross to the host."""
    xp = namespace(codes)
    if xp is None:
        return np.bincount(codes, minlength=k)
    found = xp.unique_counts(codes)
    sizes = np.zeros(k, dtype=np.int64)
    sizes[to_host(found.values).astype(np.int64)] = to_host(found.counts)
    return sizes


class CountedCells(NamedTuple):
    """:func:`count_cells`' result: the cells and counts of :func:`count_keys`, and the dense
    tally of all K_A K_B keys when one was built (always with ``tally=True``), else None."""

    cells: NDArray[np.int64]
    counts: NDArray[np.int64]
    tally: NDArray[np.int64] | None


def count_cells(
    codes_true: NDArray[np.integer],
    codes_pred: NDArray[np.integer],
    k_true: int,
    k_pred: int,
    *,
    workers: int | None = None,
    tally: bool = False,
) -> CountedCells:
    """:func:`count_keys` of the cell keys of two code arrays (codes in [0, K)), in threads.

    ``workers`` as :func:`check_workers` returns it; :func:`thread_count` decides. With
    ``tally``, also the dense tally of every key (a dense table, row-major). Never holds the
    n int64 keys at once when threaded.
    """
    n_keys = k_true * k_pred
    xp = namespace(codes_true) or namespace(codes_pred)
    if xp is not None:  # counted where the codes are: only the cells cross to the host
        cells, counts = _device_cells(xp, codes_true, codes_pred, k_true, k_pred)
        return CountedCells(cells, counts, _scattered(cells, counts, n_keys) if tally else None)
    threads = thread_count(workers, codes_true.shape[0], n_keys)
    if threads == 1 and not tally:
        return CountedCells(*count_keys(cell_keys(codes_true, codes_pred, k_pred), n_keys), None)
    dense = dense_tally(codes_true, codes_pred, k_true, k_pred, threads=threads)
    return CountedCells(*tally_cells(dense), dense)


def _scattered(cells: NDArray[np.int64], counts: NDArray[np.int64], n_keys: int
               ) -> NDArray[np.int64]:  # fmt: skip
    """The dense tally of ``n_keys`` keys that have these cells and counts."""
    dense = np.zeros(n_keys, dtype=np.int64)
    dense[cells] = counts
    return dense


def dense_tally(
    codes_true: NDArray[np.integer],
    codes_pred: NDArray[np.integer],
    k_true: int,
    k_pred: int,
    *,
    workers: int | None = None,
    threads: int | None = None,
) -> NDArray[np.int64]:
    """The count of every cell key row * K_B + col in [0, K_A K_B): the dense table, row-major.

    What :func:`count_cells` gives with ``tally`` but without listing the non-zero cells
    (a scan that costs more than the tally itself on a sparse table): the dense
    ``contingency_table``. Threaded as :func:`count_cells` (``threads`` when the caller
    already asked :func:`thread_count`, else decided from ``workers``).
    """
    n = codes_true.shape[0]
    n_keys = k_true * k_pred
    xp = namespace(codes_true) or namespace(codes_pred)
    if xp is not None:
        return _scattered(*_device_cells(xp, codes_true, codes_pred, k_true, k_pred), n_keys)
    if threads is None:
        threads = thread_count(workers, n, n_keys)
    if threads == 1:
        return tally_keys(cell_keys(codes_true, codes_pred, k_pred), n_keys)
    from concurrent.futures import ThreadPoolExecutor

    step = max(_CHUNK_ELEMENTS, n_keys)  # a chunk's tally costs no more than its keys
    starts = range(0, n, step)

    def work(first: int) -> NDArray[np.int64]:
        buffer = np.empty(min(step, n), dtype=np.int64)
        total = np.zeros(n_keys, dtype=np.int64)
        for start in starts[first::threads]:
            stop = min(start + step, n)
            keys = cell_keys(codes_true[start:stop], codes_pred[start:stop], k_pred,
                             out=buffer[: stop - start])  # fmt: skip
            total += tally_keys(keys, n_keys)
        return total

    with ThreadPoolExecutor(threads, thread_name_prefix="chanceclust-table") as pool:
        tallies = list(pool.map(work, range(threads)))
    dense = tallies[0]
    for other in tallies[1:]:
        dense += other
    return dense


def count_rows(
    keys: NDArray[np.integer], n_keys: int
) -> tuple[NDArray[np.intp], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`count_keys` of every row of a 2-D ``keys`` at once (one table per row).

    Returns the number of distinct keys of each row, then the distinct keys of all rows
    (ascending within each row, rows in order) and their counts. ``keys`` is spent.
    """
    m, n = keys.shape
    if dense_counting(m * n_keys, m * n):  # one tally of all m tables' keys: the rule on it
        keys += (np.arange(m, dtype=keys.dtype) * keys.dtype.type(n_keys))[:, None]
        flat = np.bincount(keys.ravel(), minlength=m * n_keys).reshape(m, n_keys)
        nonzero = flat > 0
        return nonzero.sum(axis=1), np.nonzero(nonzero)[1].astype(np.int64), flat[nonzero]
    keys.sort(axis=1)  # sort each row, count runs
    position = np.flatnonzero(_run_starts(keys)).astype(np.int64, copy=False)
    distinct = keys.ravel().take(position).astype(np.int64, copy=False)
    per_row = np.searchsorted(position, np.arange(m + 1, dtype=np.int64) * n)
    # Runs end where the next starts, or at the end of the keys (every row starts a run);
    # the counts overwrite the positions (one large array less to allocate and fault in).
    end = m * n - position[-1:]
    counts = position
    np.subtract(position[1:], position[:-1], out=counts[:-1])
    counts[-1:] = end
    return np.diff(per_row).astype(np.intp, copy=False), distinct, counts


# ----------------------------------------------------------------------------- tables


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
    column_major : bool
        False: the cells are in row-major order, by (row, column); True: in
        column-major order, by (column, row) (the tables counted from labels in
        the order the measures read them: :func:`table_from_codes`).
    """

    counts: NDArray[np.int64]
    rows: NDArray[np.intp]
    cols: NDArray[np.intp]
    row_sums: NDArray[np.int64]
    col_sums: NDArray[np.int64]
    n: int
    weights: NDArray[np.int64] | None = None
    column_major: bool = False


def table_from_codes(
    codes_true: NDArray[np.integer], k_true: int, codes_pred: NDArray[np.integer], k_pred: int,
    workers: int | None = None,
) -> Table:  # fmt: skip
    """The :class:`Table` of two clusterings given as codes 0..K-1 (every code used).

    Counted by :func:`count_cells` (threaded on many elements, ``workers`` None: by
    its default rule), in the order the measures read the cells where the numbers of
    clusters tell it (``measures.table_cells``: the side with fewer clusters gives the
    canonical rows, :func:`sizes_transpose`): column-major when ``labels_pred`` has fewer,
    so that no second sort of the cells is needed; else row-major (with as many clusters on
    both sides, the sizes decide, and they are known only once the table is counted: the
    measures reorder the cells where needed).
    """
    n = codes_true.shape[0]
    column_major = k_true > k_pred
    if column_major:  # count the transpose: keys col * K_A + row
        codes_true, k_true, codes_pred, k_pred = codes_pred, k_pred, codes_true, k_true
    # Few elements (the N = 100 calls of #38): the dense tally gives the margins and one
    # divmod each cell's row and column, fewer numpy calls than the runs of the sorted keys.
    small = (n <= _SMALL_TABLE_ELEMENTS and dense_counting(k_true * k_pred, n)
             and isinstance(codes_true, np.ndarray) and isinstance(codes_pred, np.ndarray))
    counted = count_cells(codes_true, codes_pred, k_true, k_pred, workers=workers, tally=small)
    counts = counted.counts
    if small and counted.tally is not None:  # (always, with tally=True)
        square = counted.tally.reshape(k_true, k_pred)
        margins = square.sum(axis=1), square.sum(axis=0)
        if k_true and int(margins[0].min()) == 0:
            raise InternalError(_UNUSED_CODE)
        rows, cols = np.divmod(counted.cells, k_pred)
    else:
        rows, cols, margins = _runs_of_cells(counted, codes_pred, k_true, k_pred, n)
    del counted
    if column_major:  # back to (true, pred): rows are labels_true's clusters
        rows, cols, margins = cols, rows, margins[::-1]
    shape = (len(margins[0]), len(margins[1]))
    return table_of_cells(rows, cols, counts, shape, n, margins, column_major=column_major)


def _runs_of_cells(
    counted: CountedCells, codes_pred: NDArray[np.integer], k_true: int, k_pred: int, n: int
) -> tuple[NDArray[np.intp], NDArray[np.int64], tuple[NDArray[np.int64], NDArray[np.int64]]]:
    """Rows, columns and margins of :func:`table_from_codes`' sorted cells, by their runs."""
    cells, counts = counted.cells, counted.counts
    # every major code is used: its cells are the keys in [i K_B, (i + 1) K_B), a run of >= 1
    bounds = np.searchsorted(cells, np.arange(k_true + 1, dtype=np.int64) * k_pred)
    runs = np.diff(bounds)
    if runs.size and int(runs.min()) == 0:
        raise InternalError(_UNUSED_CODE)
    rows = np.repeat(np.arange(k_true, dtype=np.intp), runs)
    cols = _minor_codes(cells, rows, k_pred)
    del cells
    if counted.tally is not None:  # threaded: the margins of the dense table (K_A K_B <= N / 2)
        square = counted.tally.reshape(k_true, k_pred)
        return rows, cols, (square.sum(axis=1), square.sum(axis=0))
    # each row's run of cells; the columns from the codes or the cells
    major = np.add.reduceat(counts, bounds[:-1]) if k_true else np.zeros(0, np.int64)
    if 2 * cols.size >= n and isinstance(codes_pred, np.ndarray):  # a weighted pass over
        # the cells costs about two plain ones (codes on a device: the cells, on the host)
        minor = np.bincount(codes_pred, minlength=k_pred)
    else:
        minor = exact_bincount(cols, counts, k_pred, n)
    return rows, cols, (major, minor)


_MINOR_BLOCK = 1 << 16  # cells converted at a time (temporaries stay in cache)
# table_from_codes counts at most this many elements by the dense tally's route (the same table)
_SMALL_TABLE_ELEMENTS = 1 << 16
_UNUSED_CODE = "table_from_codes: a code without elements"


def _minor_codes(
    cells: NDArray[np.int64], rows: NDArray[np.intp], k_pred: int
) -> NDArray[np.int64]:
    """The column codes key - row * K_B of sorted cell keys, in place of the keys."""
    for first in range(0, cells.size, _MINOR_BLOCK):
        block = slice(first, first + _MINOR_BLOCK)
        cells[block] -= rows[block] * k_pred
    return cells


def sizes_transpose(row_sums: NDArray[np.integer], col_sums: NDArray[np.integer]) -> bool | None:
    """The sizes' part of the canonical orientation of a table's cells (``measures.table_cells``).

    True when the canonical rows are the columns (more rows than columns, or as many and the
    columns' sorted sizes smaller at the first difference), False when they are the rows,
    None when both sides have the same sorted sizes (then the cells decide).
    """
    k_rows, k_cols = len(row_sums), len(col_sums)
    if k_rows != k_cols:
        return k_rows > k_cols
    rows_sorted, cols_sorted = np.sort(row_sums), np.sort(col_sums)
    differ = np.flatnonzero(rows_sorted != cols_sorted)
    if not differ.size:
        return None
    first = differ[0]
    return bool(rows_sorted[first] > cols_sorted[first])


def table_of_cells(
    rows: NDArray[np.integer], cols: NDArray[np.integer], counts: NDArray[np.int64],
    shape: tuple[int, int], n: int, margins: tuple[NDArray[np.integer], ...] | None = None,
    *, column_major: bool = False,
) -> Table:  # fmt: skip
    """The :class:`Table` of cells in row-major order (column-major with ``column_major``)
    whose every row and column is used.

    The margins (cluster sizes) are summed from the cells unless given.
    """
    k_true, k_pred = shape
    if margins is None:
        margins = exact_bincount(rows, counts, k_true, n), exact_bincount(cols, counts, k_pred, n)
    return Table(
        counts.astype(np.int64, copy=False),
        rows.astype(np.intp, copy=False),
        cols.astype(np.intp, copy=False),
        margins[0].astype(np.int64, copy=False),
        margins[1].astype(np.int64, copy=False),
        n,
        column_major=column_major,
    )


def user_table(contingency: Any) -> Table:
    """Validate a user's table (any accepted form, by :func:`check_table`); its Table."""
    cells = check_table(contingency)
    shape = (len(cells.row_ids), len(cells.col_ids))
    return table_of_cells(cells.rows, cells.cols, cells.counts, shape, cells.n)


# ----------------------------------------------------------------------------- validation


def check_total(n: int, subject: str) -> None:
    """Refuse a total of counts beyond :data:`MAX_TOTAL`, naming ``subject`` and the limit."""
    if n > MAX_TOTAL:
        got = f"{n}" if n < 10**30 else f"about {float(n):.3g}"
        raise InvalidInputError(
            f"{subject if 'counts' in subject else subject + ' counts'} must add up to at most "
            f"2**63 - 1 = {MAX_TOTAL} elements "
            f"(the int64 limit); got a total of {got}."
        )


def check_counts(
    data: Any, subject: str, where: Callable[[int], str], *, bounded_total: bool = True
) -> tuple[NDArray[np.int64], int]:
    """The one validator of counts: exact int64 counts of any accepted form, and their total.

    Accepts integer, boolean, integral float and object (Python int, also beyond int64)
    counts of any shape. Raises :class:`InvalidInputError` naming ``subject`` and the
    place (``where(i)`` of the flat position ``i``) of a negative, fractional, non-finite,
    boolean-object or non-numeric count; and, when ``bounded_total``, naming the limit when
    the total exceeds :data:`MAX_TOTAL` (else only each count must be below 2**63): never a
    silent drop or wrap-around. The total is a Python int.
    """
    data = np.asarray(data)
    flat = data.reshape(-1)

    def bad(i: int, value: Any, what: str = "non-negative integer counts") -> InvalidInputError:
        return InvalidInputError(
            f"{subject} must hold {what}; got {_describe(value)} at {where(i)}."
        )

    def check_big(i: int, value: int) -> None:  # a count int64 cannot hold
        if bounded_total:
            check_total(value, subject)
        raise bad(i, value, "non-negative integer counts below 2**63")

    if data.dtype.kind == "O":
        cells = []
        for i, value in enumerate(flat.tolist()):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise bad(i, value)
            if not isinstance(value, numbers.Integral) and not (
                math.isfinite(value) and float(value).is_integer()
            ):
                raise bad(i, value)
            if value < 0:
                raise bad(i, value)
            cells.append(int(value))
        n = sum(cells)
        if bounded_total:
            check_total(n, subject)
        elif cells and max(cells) > MAX_TOTAL:
            i = int(np.argmax(np.array(cells, dtype=object) > MAX_TOTAL))
            check_big(i, cells[i])
        return np.array(cells, dtype=np.int64).reshape(data.shape), n
    if data.dtype.kind == "f":
        fractional = ~np.isfinite(flat) | (flat != np.round(flat))
        if fractional.any():
            i = int(np.argmax(fractional))
            raise bad(i, flat[i].item())
    elif data.dtype.kind not in "biu":
        raise InvalidInputError(f"{subject} must hold integer counts; got dtype {data.dtype}.")
    if data.dtype.kind in "if" and flat.size and flat.min() < 0:
        i = int(np.argmax(flat < 0))
        raise bad(i, flat[i].item())
    if data.dtype.kind == "b":
        return data.astype(np.int64), int(np.count_nonzero(data))
    if data.dtype.kind in "uf" and flat.size and flat.max() >= 2**63:  # beyond int64
        i = int(np.argmax(flat >= 2**63))
        check_big(i, int(flat[i].item()))
    counts = data.astype(np.int64)
    # A float sum far below 2**63 proves the int64 sums cannot overflow; near it, add exactly.
    if float(np.sum(flat, dtype=np.float64)) < 2.0**62:
        return counts, int(np.sum(counts))
    n = sum(int(c) for c in counts.reshape(-1))
    if bounded_total:
        check_total(n, subject)
    return counts, n


class TableCells(NamedTuple):
    """A valid table in canonical form: positive cells in row-major order, no empty line.

    Fields in :class:`chanceclust.PartialTable`'s order: ``row_ids`` and ``col_ids`` are the
    indices, in the user's table, of the rows and columns kept (those with at least one
    element); ``rows`` and ``cols`` index into them; ``n`` is the total.
    """

    row_ids: NDArray[np.int64]
    col_ids: NDArray[np.int64]
    rows: NDArray[np.int64]
    cols: NDArray[np.int64]
    counts: NDArray[np.int64]
    n: int


def is_sparse(value: Any) -> bool:
    """scipy.sparse.issparse without importing scipy.sparse when it was never loaded."""
    module = sys.modules.get("scipy.sparse")
    return module is not None and module.issparse(value)


_SUBJECT = "`contingency`"


def check_table(contingency: Any) -> TableCells:
    """The one validator of a user's table (any accepted form): its canonical cells.

    Dense arrays and nested lists of any integer, boolean, integral float or Python int
    counts, pandas DataFrames of them, and scipy sparse matrices and arrays (repeated
    entries summed, each entry checked). Raises :class:`InvalidInputError` naming
    ``contingency``: for a ragged or non-2-D table, a bad count (with its cell) or a total
    beyond 2**63 - 1.
    """
    if is_sparse(contingency):
        if contingency.ndim != 2:
            raise InvalidInputError(
                f"{_SUBJECT} must be a 2-D table of counts; got shape {contingency.shape}."
            )
        rows, cols, data = _sparse_entries(contingency)
        shape = contingency.shape
        counts, n = check_counts(data, _SUBJECT, lambda i: f"cell ({rows[i]}, {cols[i]})")
    else:
        dense = _dense_table(contingency)
        shape = dense.shape
        width = shape[1]
        dense, n = check_counts(dense, _SUBJECT, lambda i: f"cell ({i // width}, {i % width})")
        rows, cols = np.nonzero(dense)
        counts = dense[rows, cols]
    return canonical_cells(rows, cols, counts, shape[0], shape[1], n, _SUBJECT)


def _dense_table(contingency: Any) -> NDArray[Any]:
    """A user's dense table as a 2-D numpy array (any dtype; counts are checked next)."""
    try:
        dense = np.asarray(contingency)
    except (ValueError, TypeError):
        dense = None
    if dense is None or (
        dense.dtype == object and any(isinstance(v, (list, tuple, np.ndarray)) for v in dense.flat)
    ):
        raise InvalidInputError(
            f"{_SUBJECT} must be a rectangular 2-D table of counts; its rows have "
            "different lengths (or it is not array-like)."
        )
    if dense.ndim != 2:
        raise InvalidInputError(
            f"{_SUBJECT} must be a 2-D table of counts; got shape {dense.shape}."
        )
    return dense


def _sparse_entries(table: Any) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[Any]]:
    """(rows, cols, data) of a scipy sparse table's stored entries (repeats not yet summed)."""
    import scipy.sparse as sp

    if table.format == "csr" and table.has_canonical_format:  # rows from indptr: no sort
        rows = np.repeat(np.arange(table.shape[0], dtype=np.int64), np.diff(table.indptr))
        return rows, table.indices.astype(np.int64), table.data
    coo = sp.coo_array(table)
    return coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data


def canonical_cells(
    rows: NDArray[np.integer],
    cols: NDArray[np.integer],
    counts: NDArray[np.int64],
    k_true: int,
    k_pred: int,
    n: int,
    subject: str = "the table of the cells' labels",
) -> TableCells:
    """Sum repeated cells, drop zero cells and empty lines, order cells row-major.

    ``counts`` are valid (non-negative, total ``n`` at most 2**63 - 1, so int64 sums are
    exact). One :func:`count_keys` of int64 keys row * K_B + col (no sort when they already
    ascend). ``subject`` names the table in the message refusing K_A K_B >= 2**63.
    """
    if k_true * max(k_pred, 1) >= 2**63:
        raise UnsupportedError(
            f"{subject} of shape ({k_true}, {k_pred}) is too large to index its cells by "
            "int64: K_A K_B must be below 2**63 (drop its empty rows and columns)."
        )
    keep = counts > 0
    if not keep.all():
        rows, cols, counts = rows[keep], cols[keep], counts[keep]
    keys = cell_keys(rows, cols, k_pred)
    keys, counts = count_keys(keys, k_true * k_pred, weights=counts)
    rows, cols = np.divmod(keys, k_pred) if k_pred else (keys, keys)
    row_ids, rows = used_codes(rows, k_true)
    col_ids, cols = used_codes(cols, k_pred)
    return TableCells(row_ids, col_ids, rows, cols, counts, n)


def used_codes(codes: NDArray[np.int64], k: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The codes in [0, k) that occur, ascending, and ``codes`` renumbered into them.

    By flags over [0, k) where the one dense/sparse rule (:func:`dense_counting`) allows it,
    else by a sort of ``codes`` (k may then be as large as int64 allows).
    """
    if not dense_counting(k, codes.size):
        used = np.unique(codes)
        return used.astype(np.int64, copy=False), np.searchsorted(used, codes)
    flags = np.zeros(k, dtype=bool)
    flags[codes] = True
    if flags.all():
        return np.arange(k, dtype=np.int64), codes
    return np.flatnonzero(flags).astype(np.int64), (np.cumsum(flags) - 1)[codes]


def exact_bincount(
    index: NDArray[np.integer], weights: NDArray[np.int64], size: int, n: int
) -> NDArray[np.int64]:
    """Sums of ``weights`` (total ``n``) by ``index``, exact: float bincount below 2**53."""
    if n < 2**53:
        return np.bincount(index, weights=weights, minlength=size).astype(np.int64)
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, index, weights)
    return out


# ----------------------------------------------------------------------------- label union

# The one rule for uniting the labels of several tables (merge_tables, Dask's dictionaries):
# a label keeps its identity -- no cast may merge two distinct labels (numpy would turn int64
# and uint64 into float64, where 2**62 + 1 == 2**62, and fixed-width strings drop trailing
# NULs, where 'a\x00' == 'a') -- and labels equal as Python values (1, 1.0, True) are one
# label, as hashing makes them in the single calls. Labels of different kinds (numbers,
# strings, bytes, ...) cannot name the same clusters: a merge of them is refused.

_DTYPE_KINDS = {"b": "number", "i": "number", "u": "number", "f": "number", "U": "str",
                "S": "bytes", "M": "datetime64", "m": "timedelta64"}  # fmt: skip
_INT64 = (-(2**63), 2**63 - 1)


def _value_kind(value: Any) -> str:
    """The kind of one label: 'number', 'str', 'bytes' or its type's name."""
    if isinstance(value, (numbers.Real, decimal.Decimal, np.bool_)):
        return "number"
    if isinstance(value, (str, np.str_)):
        return "str"
    if isinstance(value, (bytes, np.bytes_)):
        return "bytes"
    return type(value).__name__


def label_kinds(labels: NDArray[Any]) -> dict[str, Any]:
    """The kinds of the labels of an array, each with one example label."""
    if not labels.size:
        return {}
    kind = _DTYPE_KINDS.get(labels.dtype.kind)
    if kind is not None:
        return {kind: labels[0].item() if labels.dtype.kind != "U" else str(labels[0])}
    out: dict[str, Any] = {}
    for value in labels.tolist():
        out.setdefault(_value_kind(value), value)
    return out


def check_label_kinds(kinds: list[tuple[dict[str, Any], str]], name: str) -> None:
    """Refuse labels of different kinds; ``kinds``: (label_kinds of a part, where it is)."""
    seen: dict[str, tuple[Any, str]] = {}
    for part, where in kinds:
        for kind, example in part.items():
            seen.setdefault(kind, (example, where))
    if len(seen) > 1:
        (k1, (v1, w1)), (k2, (v2, w2)) = list(seen.items())[:2]
        raise InvalidInputError(
            f"`{name}` holds labels of different kinds, {k1} {_describe(v1)}{w1} and {k2} "
            f"{_describe(v2)}{w2}: numbers, strings and bytes cannot name the same clusters."
        )


def _python_number(value: Any) -> Any:
    """A number label as a Python int when integral (exact), else as it is."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _common_dtype(parts: list[NDArray[Any]]) -> np.dtype[Any]:
    """The dtype that holds every label of ``parts`` exactly (object when none does)."""
    dtypes = {p.dtype for p in parts}
    if len(dtypes) == 1:
        return parts[0].dtype
    kinds = {d.kind for d in dtypes}
    if kinds <= set("biu"):  # integers: int64, or uint64 when all are >= 0, else Python ints
        low = min(int(p.min()) for p in parts)
        high = max(int(p.max()) for p in parts)
        if _INT64[0] <= low and high <= _INT64[1]:
            return np.dtype(np.int64)
        return np.dtype(np.uint64) if low >= 0 and high < 2**64 else np.dtype(object)
    if kinds <= set("biuf"):  # integers exactly representable in float64 join floats
        ints = [p for p in parts if p.dtype.kind in "biu"]
        if all(abs(int(p.min())) <= 2**53 and abs(int(p.max())) <= 2**53 for p in ints):
            return np.dtype(np.float64)
        return np.dtype(object)
    if kinds <= set("US") and len(kinds) == 1:  # strings (or bytes) of different widths
        return np.result_type(*dtypes)
    if kinds <= set("Mm") and len(kinds) == 1:
        return np.result_type(*dtypes)
    return np.dtype(object)


def as_label_dtype(labels: NDArray[Any], dtype: np.dtype[Any]) -> NDArray[Any]:
    """``labels`` in the union's ``dtype`` (exact by :func:`union_labels`' choice of it)."""
    if labels.dtype == dtype:
        return labels
    if dtype != object:
        return labels.astype(dtype)
    values = labels.tolist()
    if values and labels.dtype.kind in "biufO":
        values = [_python_number(v) for v in values]
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def union_labels(parts: list[NDArray[Any]], name: str, where: list[str] | None = None
                 ) -> NDArray[Any]:  # fmt: skip
    """The sorted union of sorted distinct label arrays, exact (see the rule above).

    ``where`` names each part for messages (e.g. " in part 3"). Raises InvalidInputError for
    labels of different kinds, or labels of one kind that cannot be ordered.
    """
    where = where or [f" (table {i})" for i in range(len(parts))]
    check_label_kinds([(label_kinds(p), w) for p, w in zip(parts, where, strict=True)], name)
    parts = [p for p in parts if p.size] or parts[:1]
    if len(parts) == 1:
        return parts[0]
    dtype = _common_dtype(parts)
    if dtype != object:  # one sort (numpy 2's hash-based np.unique is ~5x slower here)
        values = np.concatenate([as_label_dtype(p, dtype) for p in parts])
        values.sort()
        return values[_run_starts(values)]
    values: set[Any] = set()
    for part in parts:
        values.update(as_label_dtype(part, dtype).tolist())
    try:
        ordered = sorted(values)
    except TypeError:
        raise InvalidInputError(
            f"`{name}` holds labels that cannot be put in one order, e.g. "
            f"{_describe(sorted(values, key=repr)[:4])}."
        ) from None
    out = np.empty(len(ordered), dtype=object)
    out[:] = ordered
    return out


def label_positions(union: NDArray[Any], labels: NDArray[Any]) -> NDArray[np.int64]:
    """The index in ``union`` (from :func:`union_labels`) of each of ``labels``."""
    return np.searchsorted(union, as_label_dtype(labels, union.dtype)).astype(np.int64)
