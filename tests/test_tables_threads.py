"""Tables counted in parallel chunks by threads (_tables.count_cells): the same integers as one
thread, against an independent count (Counter of label pairs), on both sides of the automatic
threshold and of the rule that keeps every thread's dense tally small. The thresholds are
lowered by monkeypatch so that threads run on small inputs."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chanceclust as cc
from chanceclust import _tables
from chanceclust._tables import check_workers, count_cells, thread_count
from chanceclust.contingency import _summarize, _table_from_codes
from chanceclust.exceptions import InvalidInputError


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 7 elements, threads from 50 elements on, 4 cores: threads on tiny inputs."""
    monkeypatch.setattr(_tables, "_CHUNK_ELEMENTS", 7)
    monkeypatch.setattr(_tables, "PARALLEL_MIN_ELEMENTS", 50)
    monkeypatch.setattr(_tables, "available_cores", lambda: 4)


def counter_table(a: list[int], b: list[int]) -> np.ndarray:
    """The dense table by counting label pairs in Python (rows, columns: sorted labels)."""
    rows, cols = sorted(set(a)), sorted(set(b))
    table = np.zeros((len(rows), len(cols)), dtype=np.int64)
    for (x, y), count in Counter(zip(a, b, strict=True)).items():
        table[rows.index(x), cols.index(y)] = count
    return table


@pytest.mark.usefixtures("small_chunks")
@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda k: st.lists(
            st.tuples(st.integers(0, k), st.integers(-3, k)), min_size=1, max_size=200
        )
    ),
    st.sampled_from([None, 1, 2, 3, -1]),
)
def test_threaded_table_equals_counted_pairs(pairs: list[tuple[int, int]], workers: int | None
                                             ) -> None:  # fmt: skip
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    expected = counter_table(a, b)
    dense = cc.contingency_table(a, b, sparse=False, workers=workers)
    assert dense.dtype == np.int64
    np.testing.assert_array_equal(dense, expected)
    np.testing.assert_array_equal(cc.contingency_table(a, b, sparse=True, workers=workers)
                                  .toarray(), expected)  # fmt: skip
    table = _summarize(a, b, None)
    np.testing.assert_array_equal(table.row_sums, expected.sum(axis=1)[expected.sum(axis=1) > 0])
    np.testing.assert_array_equal(table.col_sums, expected.sum(axis=0)[expected.sum(axis=0) > 0])
    assert int(table.counts.sum()) == len(pairs)


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("n", [49, 50, 400])
def test_both_sides_of_the_automatic_threshold(n: int) -> None:
    """workers=None: one thread below PARALLEL_MIN_ELEMENTS, the cores from it on; the same
    cells, counts and margins either way, and as workers=1."""
    rng = np.random.default_rng(n)
    codes_true, codes_pred = rng.integers(0, 3, n), rng.integers(0, 4, n)
    expected_threads = 1 if n < 50 else 4
    assert thread_count(None, n, 12) == min(expected_threads, n // 24)
    one = count_cells(codes_true, codes_pred, 3, 4, workers=1)
    auto = count_cells(codes_true, codes_pred, 3, 4)
    assert one.tally is None
    assert (auto.tally is not None) == (thread_count(None, n, 12) > 1)
    np.testing.assert_array_equal(auto.cells, one.cells)
    np.testing.assert_array_equal(auto.counts, one.counts)
    assert auto.cells.dtype == auto.counts.dtype == np.int64
    t1 = _table_from_codes(codes_true, 3, codes_pred, 4, workers=1)
    t4 = _table_from_codes(codes_true, 3, codes_pred, 4)
    for field in ("counts", "rows", "cols", "row_sums", "col_sums"):
        np.testing.assert_array_equal(getattr(t4, field), getattr(t1, field))
        assert getattr(t4, field).dtype == getattr(t1, field).dtype


@pytest.mark.usefixtures("small_chunks")
def test_threads_only_while_the_tallies_stay_small() -> None:
    """threads x K_A K_B <= n / 2, and tables the dense rule counts by a sort: one thread."""
    assert thread_count(4, 400, 50) == 4
    assert thread_count(4, 400, 51) == 3
    assert thread_count(4, 400, 200) == 1
    assert thread_count(4, 400, 201) == 1
    assert not _tables.dense_counting(10**6, 400)
    assert thread_count(4, 400, 10**6) == 1
    assert thread_count(4, 14, 1) == 2  # never more threads than chunks
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 400, 400)  # 160,000 keys for 400 elements: counted by a sort
    sparse = count_cells(codes, codes[::-1].copy(), 400, 400, workers=4)
    one = count_cells(codes, codes[::-1].copy(), 400, 400, workers=1)
    assert sparse.tally is None
    np.testing.assert_array_equal(sparse.cells, one.cells)
    np.testing.assert_array_equal(sparse.counts, one.counts)


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("k", [3, 40])  # 9 keys (tally, threaded) and 1600 > n (the sort's side)
@pytest.mark.parametrize("workers", [1, 4])
def test_dense_table_is_the_tally_without_its_cells(monkeypatch, k: int, workers: int) -> None:
    """contingency_table(sparse=False) returns the dense tally itself (_tables.dense_tally):
    the counted pairs, with no scan for its non-zero cells (a scan that cost more than the
    tally on sparse tables, #38), threaded or not; count_cells(tally=True) gives the same
    tally with its cells."""
    rng = np.random.default_rng(k)
    a, b = rng.integers(0, k, 400), rng.integers(0, k, 400)
    expected = counter_table(a.tolist(), b.tolist())
    with_cells = count_cells(a, b, k, k, workers=workers, tally=True)
    np.testing.assert_array_equal(with_cells.tally.reshape(k, k), expected)
    np.testing.assert_array_equal(with_cells.cells, np.flatnonzero(expected))

    def refused(*args: object) -> None:
        raise AssertionError("the dense table listed its cells")

    monkeypatch.setattr(_tables, "tally_cells", refused)
    dense = cc.contingency_table(a, b, sparse=False, workers=workers)
    assert dense.dtype == np.int64
    np.testing.assert_array_equal(dense, expected)
    np.testing.assert_array_equal(_tables.dense_tally(a, b, k, k, workers=workers),
                                  expected.ravel())  # fmt: skip


@pytest.mark.usefixtures("small_chunks")
def test_threaded_measures_equal_one_thread() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 5, 1000), rng.integers(0, 7, 1000)
    one = cc.adjusted_mutual_information(a, b)  # threaded: 1000 elements >= 50
    _tables.PARALLEL_MIN_ELEMENTS = 10**9  # restored by monkeypatch
    assert cc.adjusted_mutual_information(a, b) == one


@pytest.mark.parametrize("bad", [0, 1.5, "2", True, np.True_, [2]])
def test_bad_workers_are_refused_by_name(bad: object) -> None:
    with pytest.raises(InvalidInputError, match="`workers` must be None"):
        cc.contingency_table([0, 1], [1, 0], workers=bad)


def test_negative_workers_count_back_from_the_cores() -> None:
    cores = _tables.available_cores()
    assert check_workers(-1) == cores
    assert check_workers(np.int64(3)) == 3
    assert check_workers(None) is None
    if cores > 1:
        assert check_workers(-2) == cores - 1
    with pytest.raises(InvalidInputError, match="`workers`"):
        check_workers(-cores - 1)


# --------------------------------------------------------------------------- chunked encoding


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint64]
)
@pytest.mark.parametrize("chunk", [3, 1 << 22])
def test_dense_integer_encoding_in_chunks_is_exact(monkeypatch, dtype, chunk) -> None:
    """The dense integer encoding shifts the labels chunk by chunk (no int64 copy of all of
    them) in a dtype that cannot wrap: int8 labels 28 and -27 stay apart (shifted by -100 in
    int8 they were the same index), at every chunk size; codes are the ranks of np.unique."""
    from chanceclust import _validation

    monkeypatch.setattr(_validation, "_ENCODE_CHUNK", chunk)
    info = np.iinfo(dtype)
    low = max(int(info.min), -100)
    pool = np.array(sorted({low, low + 73, low + 128, min(int(info.max), low + 200)}))
    rng = np.random.default_rng(int(np.dtype(dtype).itemsize))
    values = rng.choice(pool, 40).astype(dtype)
    values[:2] = pool[[0, -1]]
    if dtype == np.uint64:
        values = values + np.uint64(2**63)  # beyond int64: shifted in uint64
    codes, k, n_bad = _validation._encode_array(values, "labels_true", frozenset())
    uniques, expected = np.unique(values, return_inverse=True)
    assert (k, n_bad) == (len(uniques), 0)
    np.testing.assert_array_equal(codes, expected.ravel())
    np.testing.assert_array_equal(
        cc.contingency_table(values, np.zeros(40, dtype=int)).ravel(),
        np.bincount(expected.ravel()),
    )


@pytest.mark.parametrize("low", [1, 7, 2000, -3])
@pytest.mark.parametrize("chunk", [5, 1 << 22])
def test_dense_integer_encoding_unshifted_or_shifted(monkeypatch, low, chunk) -> None:
    """Labels from a small non-negative minimum index the tallies as they are, others are
    shifted: the same codes (np.unique's) and, with a label marked unassigned, the same
    dropped elements and clusters as counted pairs."""
    from chanceclust import _validation

    monkeypatch.setattr(_validation, "_ENCODE_CHUNK", chunk)
    rng = np.random.default_rng(low + 10)
    values = low + rng.integers(0, 30, 500)
    codes, k, _ = _validation._encode_array(values, "labels_true", frozenset())
    uniques, expected = np.unique(values, return_inverse=True)
    assert k == len(uniques)
    np.testing.assert_array_equal(codes, expected.ravel())
    other = rng.integers(0, 4, 500)
    marked = int(values[0])
    got = cc.contingency_table(values, other, unassigned_label=marked, unassigned="drop")
    keep = (values != marked) & (other != marked)  # the mark applies to both sides
    np.testing.assert_array_equal(got, counter_table(values[keep].tolist(), other[keep].tolist()))


def test_int16_labels_spanning_beyond_int16_stay_apart() -> None:
    """int16 labels -20000, 15000, -15535: 15000 + 20000 wrapped in int16 onto -15535's index
    (one cluster, k = 2) before the shift was made in int64."""
    from chanceclust import _validation

    values = np.array([-20000, 15000, -15535] * 4000, dtype=np.int16)
    codes, k, _ = _validation._encode_array(values, "labels_true", frozenset())
    assert k == 3
    np.testing.assert_array_equal(codes[:3], [0, 2, 1])


# --------------------------------------------------------------------------- threaded encoding


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-40, 40), min_size=1, max_size=120),
    st.sampled_from([np.int8, np.int32, np.int64, np.uint16, np.float64]),
    st.integers(1, 9),
    st.integers(1, 5),
    st.booleans(),
    st.booleans(),
)
def test_threaded_encoding_equals_unique_ranks(values, dtype, chunk, threads, mark, own) -> None:
    """The dense integer encoding in ``threads`` threads over chunks of ``chunk`` labels gives
    np.unique's ranks (the sorted label order), with a label marked unassigned and with NaN
    (missing) labels too: the same codes, K and unassigned count for any number of threads,
    whether each chunk flags the labels present in its own array (``own``) or in a shared one."""
    from chanceclust import _validation

    array = np.array(values)
    if np.dtype(dtype).kind == "u":
        array = array + 40
    array = array.astype(dtype)
    if np.dtype(dtype).kind == "f":
        array[::3] = np.nan
    marks = frozenset({array.flat[-1].item()}) if mark and array.size > 1 else frozenset()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_validation, "_ENCODE_CHUNK", chunk)
        patch.setattr(_validation, "_OWN_FLAGS_MAX", 1 << 19 if own else 0)
        got = _validation._encode_array(array, "labels_true", marks, threads)
    expected = _validation._encode_array(array, "labels_true", marks)  # one thread, one chunk
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1:] == expected[1:]
    def assigned(v):
        return not math.isnan(v) and v not in marks

    uniques = sorted({v for v in array.tolist() if assigned(v)})
    assert got[1] == len(uniques)
    assert got[0].tolist() == [uniques.index(v) if assigned(v) else -1 for v in array.tolist()]


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("workers", [None, 1, 2, 3, -1])
def test_threaded_table_of_arrays_equals_counted_pairs(monkeypatch, workers) -> None:
    """Label arrays above the (lowered) automatic threshold: encoded and counted by threads,
    the table equals the counted pairs; the encoding runs in ``workers`` threads (None: the
    4 patched cores)."""
    from chanceclust import _validation

    monkeypatch.setattr(_validation, "_ENCODE_CHUNK", 11)
    seen = []
    chunked = _validation._chunked
    monkeypatch.setattr(_validation, "_chunked",
                        lambda f, size, threads: seen.append(threads) or chunked(f, size, threads))  # fmt: skip
    rng = np.random.default_rng(7)
    a, b = rng.integers(1, 9, 300), rng.integers(-5, 3, 300)
    expected = counter_table(a.tolist(), b.tolist())
    np.testing.assert_array_equal(cc.contingency_table(a, b, workers=workers), expected)
    assert set(seen) == {_tables.encoding_threads(check_workers(workers), a)}
    assert _tables.encoding_threads(None, a) == 4
    assert _tables.encoding_threads(None, a[:49]) == 1
