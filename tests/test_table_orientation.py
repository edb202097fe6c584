"""Tables counted from labels in the order the measures read their cells
(contingency._table_from_codes, issue #23): column-major when labels_pred has fewer clusters
(the canonical rows), row-major otherwise. Each side of the choice is taken (K_A > K_B,
K_A < K_B, on the tally and the sort paths and with threads; equal K, whose sizes decide in
the measures, which then reorder the cells), and each table is checked against an
independent count (numpy.add.at of the label pairs), its stored order against its flag, and
MI, VI, NMI and AMI against the same table given as a dense ``contingency`` (a row-major
table) and transposed: equal to the bit."""

from __future__ import annotations

import numpy as np
import pytest

import chanceclust as cc
from chanceclust import _tables
from chanceclust.contingency import _table_from_codes, sizes_transpose
from chanceclust.measures import _canonical_cells, _transposes


def _dense(codes_true, k_true, codes_pred, k_pred):
    table = np.zeros((k_true, k_pred), dtype=np.int64)
    np.add.at(table, (codes_true, codes_pred), 1)
    return table


def _codes(rng, k, n):
    """Codes 0..k-1, each used, in random order, with random sizes."""
    codes = np.concatenate([np.arange(k), rng.integers(0, k, n - k) ** 2 % k])
    rng.shuffle(codes)
    return codes


def _check(codes_true, k_true, codes_pred, k_pred, column_major, workers=None):
    table = _table_from_codes(codes_true, k_true, codes_pred, k_pred, workers=workers)
    assert table.column_major is column_major
    dense = _dense(codes_true, k_true, codes_pred, k_pred)
    np.testing.assert_array_equal(table.row_sums, dense.sum(axis=1))
    np.testing.assert_array_equal(table.col_sums, dense.sum(axis=0))
    assert table.rows.dtype == table.cols.dtype == np.intp
    assert table.counts.dtype == table.row_sums.dtype == table.col_sums.dtype == np.int64
    # the cells, in the order of the flag
    first, second = (table.cols, table.rows) if column_major else (table.rows, table.cols)
    keys = first.astype(np.int64) * max(k_true, k_pred) + second
    assert np.all(keys[1:] > keys[:-1])
    np.testing.assert_array_equal(table.counts, dense[table.rows, table.cols])
    assert table.counts.size == np.count_nonzero(dense)
    # the measures: those of the same dense table given by the user (row-major), both ways
    a, b = codes_true, codes_pred
    for f in (cc.mutual_information, cc.variation_of_information,
              cc.normalized_mutual_information, cc.adjusted_mutual_information):  # fmt: skip
        value = f(a, b)
        assert value == f(contingency=dense)
        assert value == f(b, a) == f(contingency=dense.T)
    return table


@pytest.mark.parametrize("chunk", [None, 5])
@pytest.mark.parametrize(("k_true", "k_pred"), [(7, 5), (5, 7), (30, 29), (29, 30)])
def test_unequal_k_counted_in_canonical_order(monkeypatch, chunk, k_true, k_pred):
    """More rows than columns: column-major (the canonical rows are the columns); fewer:
    row-major; on the tally path (7 x 5) and the sort path (30 x 29 keys > n)."""
    if chunk:  # many blocks of cells in the MI sum
        monkeypatch.setattr("chanceclust.measures._CELL_CHUNK", chunk)
    rng = np.random.default_rng(k_true * 100 + k_pred)
    n = 300
    codes_true, codes_pred = _codes(rng, k_true, n), _codes(rng, k_pred, n)
    table = _check(codes_true, k_true, codes_pred, k_pred, k_true > k_pred)
    assert _transposes(table) is (k_true > k_pred)


@pytest.mark.parametrize("swap", [False, True])
def test_equal_k_row_major_canonical_cells_either_way(swap):
    """K_A = K_B counted by a sort (more keys than elements): row-major whichever side the
    sizes make the canonical rows; the measures' canonical cells are the same list for (A, B)
    and (B, A), ascending in (canonical row, other side)."""
    rng = np.random.default_rng(4)
    k, n = 40, 500
    assert not _tables.dense_counting(k * k, n)
    codes_true, codes_pred = _codes(rng, k, n), _codes(rng, k, n)
    sizes = sizes_transpose(np.bincount(codes_true), np.bincount(codes_pred))
    assert sizes is not None
    if swap:
        codes_true, codes_pred = codes_pred, codes_true
    table = _check(codes_true, k, codes_pred, k, False)
    assert _transposes(table) is (sizes != swap)
    mirror = _table_from_codes(codes_pred, k, codes_true, k)
    for got, want in zip(_canonical_cells(table), _canonical_cells(mirror), strict=True):
        np.testing.assert_array_equal(got, want)
    _, first, second, _, _ = _canonical_cells(table)
    assert np.all(np.diff(first * k + second) > 0)


def test_equal_k_tally_path_row_major():
    """K_A = K_B counted by a tally (K^2 <= n): row-major whatever the sizes (the measures
    reorder the cells when the canonical rows are the columns)."""
    rng = np.random.default_rng(6)
    k, n = 6, 400
    assert _tables.dense_counting(k * k, n)
    codes_true, codes_pred = _codes(rng, k, n), _codes(rng, k, n)
    for a, b in ((codes_true, codes_pred), (codes_pred, codes_true)):
        table = _check(a, k, b, k, False)
        _, first, second, _, _ = _canonical_cells(table)
        assert np.all(np.diff(first * k + second) > 0)


@pytest.mark.parametrize(("k_true", "k_pred"), [(3, 2), (2, 3)])
def test_threaded_counts_in_canonical_order(monkeypatch, k_true, k_pred):
    """Threads (dense tallies summed): the margins from the tally, in either order."""
    monkeypatch.setattr(_tables, "_CHUNK_ELEMENTS", 7)
    monkeypatch.setattr(_tables, "PARALLEL_MIN_ELEMENTS", 50)
    monkeypatch.setattr(_tables, "available_cores", lambda: 4)
    rng = np.random.default_rng(7)
    n = 200
    codes_true, codes_pred = _codes(rng, k_true, n), _codes(rng, k_pred, n)
    assert _tables.thread_count(None, n, k_true * k_pred) > 1
    _check(codes_true, k_true, codes_pred, k_pred, k_true > k_pred)
    one = _table_from_codes(codes_true, k_true, codes_pred, k_pred, workers=1)
    many = _table_from_codes(codes_true, k_true, codes_pred, k_pred, workers=4)
    for field in ("counts", "rows", "cols", "row_sums", "col_sums", "column_major"):
        np.testing.assert_array_equal(getattr(many, field), getattr(one, field))


def test_empty_and_single_cluster():
    empty = np.zeros(0, dtype=np.int64)
    table = _table_from_codes(empty, 0, empty, 0)
    assert table.counts.size == table.rows.size == table.row_sums.size == 0
    ones = np.zeros(5, dtype=np.int64)
    table = _table_from_codes(ones, 1, np.arange(5), 5)
    assert not table.column_major
    np.testing.assert_array_equal(table.cols, np.arange(5))
    table = _table_from_codes(np.arange(5), 5, ones, 1)
    assert table.column_major
    np.testing.assert_array_equal(table.rows, np.arange(5))


def test_sizes_transpose_rule():
    assert sizes_transpose(np.array([1, 2, 3]), np.array([3, 3])) is True
    assert sizes_transpose(np.array([3, 3]), np.array([1, 2, 3])) is False
    assert sizes_transpose(np.array([2, 4]), np.array([3, 3])) is False
    assert sizes_transpose(np.array([3, 3]), np.array([4, 2])) is True
    assert sizes_transpose(np.array([1, 5]), np.array([5, 1])) is None


def test_column_major_table_with_tied_sizes():
    """A column-major table whose sides have the same sorted sizes (the cells decide the
    orientation; not produced by _table_from_codes today, which counts column-major only
    with K_A > K_B): the same orientation and canonical cells as its row-major form."""
    from dataclasses import replace

    from chanceclust.contingency import _summarize

    rng = np.random.default_rng(8)
    checked, answers = 0, set()
    for _ in range(80):
        k = int(rng.integers(2, 6))
        sym = rng.integers(0, 4, size=(k, k))
        table = sym + sym.T
        i = int(rng.integers(0, k))
        table[[i, (i + 1) % k]] = table[[(i + 1) % k, i]]  # same sizes, other cells
        table[0, 0] += 2
        row_major = _summarize(None, None, table)
        if sizes_transpose(row_major.row_sums, row_major.col_sums) is not None:
            continue
        order = np.lexsort((row_major.rows, row_major.cols))
        column_major = replace(row_major, counts=row_major.counts[order],
                               rows=row_major.rows[order], cols=row_major.cols[order],
                               column_major=True)  # fmt: skip
        assert _transposes(column_major) == _transposes(row_major)
        answers.add(_transposes(row_major))
        for got, want in zip(_canonical_cells(column_major), _canonical_cells(row_major),
                             strict=True):  # fmt: skip
            np.testing.assert_array_equal(got, want)
        checked += 1
    assert checked >= 10
    assert answers == {False, True}
