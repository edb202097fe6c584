"""contingency_table and pair_counts against hand counts, a brute-force pair oracle and
exact Python-int arithmetic (N = 10^9)."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from strategies import contingency_tables, label_pairs, labels_from_table

from chanceclust import (
    PairCounts,
    adjusted_rand_index,
    contingency_table,
    pair_counts,
    rand_index,
)
from chanceclust._tables import _sorted_cells


def brute_force_pair_counts(a, b) -> tuple[int, int, int, int]:
    """O(N^2) oracle: look at every pair of elements."""
    n11 = n10 = n01 = n00 = 0
    for i, j in itertools.combinations(range(len(a)), 2):
        same_a, same_b = a[i] == a[j], b[i] == b[j]
        n11 += same_a and same_b
        n10 += same_a and not same_b
        n01 += same_b and not same_a
        n00 += not same_a and not same_b
    return n11, n10, n01, n00


# --------------------------------------------------------------------------- tables


def test_contingency_table_by_hand():
    """Rows follow sorted labels_true, columns sorted labels_pred; int64 counts."""
    table = contingency_table(["b", "a", "a", "b", "b"], [2, 0, 1, 1, 1])
    # a: elements 1, 2 -> pred 0, 1;  b: elements 0, 3, 4 -> pred 2, 1, 1
    expected = np.array([[1, 1, 0], [0, 2, 1]])
    assert isinstance(table, np.ndarray)
    assert table.dtype == np.int64
    np.testing.assert_array_equal(table, expected)


def test_contingency_table_numeric_order_not_string_order():
    """Integer labels sort numerically (10 after 9), negative ones first."""
    table = contingency_table([10, 9, -1, 10], [0, 0, 0, 1])
    np.testing.assert_array_equal(table, [[1, 0], [1, 0], [1, 1]])


def test_contingency_table_unsortable_labels_first_appearance():
    """Labels that cannot be sorted (1 and "a") are numbered by first appearance."""
    table = contingency_table(["a", 1, "a", 1, 2.5], [0, 0, 1, 1, 1])
    np.testing.assert_array_equal(table, [[1, 1], [1, 1], [0, 1]])


def test_contingency_table_empty():
    """No element: an empty 0 x 0 table, dense or sparse."""
    assert contingency_table([], []).shape == (0, 0)
    assert contingency_table([], [], sparse=True).shape == (0, 0)


@given(label_pairs(max_n=40))
def test_contingency_table_counts_every_element_once(pair):
    """Cell (i, j) counts the elements with the i-th true and j-th predicted label."""
    a, b = pair
    table = contingency_table(a, b)
    rows, cols = np.unique(a), np.unique(b)
    assert table.shape == (len(rows), len(cols))
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            assert table[i, j] == np.sum((a == r) & (b == c))


@given(label_pairs(max_n=40))
def test_sparse_and_dense_tables_agree(pair):
    """sparse=True is a csr_array with the dense table's values, int64, no stored duplicates."""
    a, b = pair
    dense = contingency_table(a, b, sparse=False)
    sparse = contingency_table(a, b, sparse=True)
    assert isinstance(dense, np.ndarray)
    assert sp.issparse(sparse)
    assert sparse.format == "csr"
    assert sparse.dtype == np.int64
    assert sparse.has_canonical_format
    np.testing.assert_array_equal(sparse.toarray(), dense)
    np.testing.assert_array_equal(contingency_table(a, b), dense)  # small: dense by default


def test_sparse_none_switches_above_2_22_cells():
    """sparse=None gives a dense table up to 2**22 cells and a sparse one above."""
    k = 2048  # 2048 x 2048 = 2**22 cells exactly: still dense
    labels = np.arange(k)
    at_limit = contingency_table(labels, labels)
    assert isinstance(at_limit, np.ndarray)
    assert at_limit.shape == (k, k)
    assert np.array_equal(np.diag(at_limit), np.ones(k))
    assert at_limit.sum() == k
    # one more column: 2048 x 2049 > 2**22 cells, sparse
    true = np.append(labels, 0)
    pred = np.arange(k + 1)
    above = contingency_table(true, pred)
    assert sp.issparse(above)
    assert above.shape == (k, k + 1)
    assert above.nnz == k + 1
    assert above.sum() == k + 1
    np.testing.assert_array_equal(above.toarray(), contingency_table(true, pred, sparse=False))
    # and an explicit choice is always honoured
    assert isinstance(contingency_table(true, pred, sparse=False), np.ndarray)
    assert sp.issparse(contingency_table([0, 1], [0, 1], sparse=True))


# --------------------------------------------------------------------------- pair counts


def test_pair_counts_by_hand():
    """A = {0,1,2,3,4}{5,6,7}{8,9}, B = {0,1,2}{3,4,5,6}{7,8,9}.

    Table: A0 -> (3, 2, 0), A1 -> (0, 2, 1), A2 -> (0, 0, 2).
    N11 = C(3,2) + C(2,2) + C(2,2) + C(2,2) = 3 + 1 + 1 + 1 = 6
    Q(A) = C(5,2) + C(3,2) + C(2,2) = 10 + 3 + 1 = 14  -> N10 = 14 - 6 = 8
    Q(B) = C(3,2) + C(4,2) + C(3,2) = 3 + 6 + 3 = 12   -> N01 = 12 - 6 = 6
    C(10,2) = 45 -> N00 = 45 - 6 - 8 - 6 = 25
    """
    a = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2]
    b = [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
    counts = pair_counts(a, b)
    assert counts == PairCounts(n11=6, n10=8, n01=6, n00=25)
    assert counts.total == 45
    assert brute_force_pair_counts(a, b) == (6, 8, 6, 25)


def test_pair_counts_docstring_orientation():
    """n10 counts pairs together in labels_true only (not the other way round)."""
    # true puts 0,1 together, pred splits them: one pair together in true only
    assert pair_counts([0, 0, 1], [0, 1, 2]) == PairCounts(0, 1, 0, 2)
    assert pair_counts([0, 1, 2], [0, 0, 1]) == PairCounts(0, 0, 1, 2)


@given(label_pairs(max_n=40))
def test_pair_counts_equal_brute_force(pair):
    """Pair counts from the table equal the O(N^2) count over every pair."""
    a, b = pair
    counts = pair_counts(a, b)
    assert dataclasses.astuple(counts) == brute_force_pair_counts(a.tolist(), b.tolist())
    assert counts.total == len(a) * (len(a) - 1) // 2
    assert all(type(v) is int for v in dataclasses.astuple(counts))


@given(contingency_tables())
def test_pair_counts_from_table_equal_from_labels(table):
    """contingency= (dense, sparse, with empty rows/columns) gives the labels' counts."""
    a, b = labels_from_table(table)
    expected = pair_counts(a, b)
    assert pair_counts(contingency=table) == expected
    assert pair_counts(contingency=sp.csr_array(table)) == expected
    assert pair_counts(contingency=table.astype(float)) == expected


def test_pair_counts_empty_and_single():
    """No pair for N < 2: all counts 0."""
    assert pair_counts([], []) == PairCounts(0, 0, 0, 0)
    assert pair_counts(["x"], [3]) == PairCounts(0, 0, 0, 0)


def test_pair_counts_sparse_duplicates_are_summed():
    """A COO table may list a cell twice: the entries add up (scipy's convention)."""
    coo = sp.coo_array(([1, 2, 3], ([0, 0, 1], [0, 0, 1])), shape=(3, 3))
    # cells: (0,0) = 3, (1,1) = 3 -> N11 = 3 + 3, Q(A) = Q(B) = 6, N = 6, C(6,2) = 15
    assert pair_counts(contingency=coo) == PairCounts(6, 0, 0, 9)


def test_pair_counts_is_frozen():
    """PairCounts is an immutable value."""
    counts = pair_counts([0, 0], [0, 0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        counts.n11 = 5


# A table of N = 10^9 elements: sums of C(n, 2) reach 5e17, products of pair
# counts 1e35, far beyond int64 and float exactness.
BIG = [
    [400_000_000, 100_000_000, 7],
    [123_456_789, 276_543_204, 0],
    [0, 1, 99_999_999],
]


def c2(x: int) -> int:
    return x * (x - 1) // 2


def test_pair_counts_exact_for_a_billion_elements():
    """Exact Python ints for N = 10^9, dense and sparse, compared with int arithmetic."""
    n = sum(map(sum, BIG))
    assert n == 10**9
    n11 = sum(c2(x) for row in BIG for x in row)
    q_true = sum(c2(sum(row)) for row in BIG)
    q_pred = sum(c2(sum(col)) for col in zip(*BIG, strict=False))
    expected = PairCounts(n11, q_true - n11, q_pred - n11, c2(n) - q_true - q_pred + n11)
    for table in (np.array(BIG), np.array(BIG, dtype=np.float64), sp.csr_array(np.array(BIG))):
        counts = pair_counts(contingency=table)
        assert counts == expected
        assert all(type(v) is int for v in dataclasses.astuple(counts))
    assert expected.total == c2(10**9)


def test_rand_and_perm_ari_correctly_rounded_for_a_billion_elements():
    """RI and the perm ARI come from exact integers with one final rounding."""
    p = pair_counts(contingency=np.array(BIG))
    ri = Fraction(p.n11 + p.n00, p.total)
    ari = Fraction(
        2 * (p.n11 * p.n00 - p.n10 * p.n01),
        (p.n11 + p.n10) * (p.n10 + p.n00) + (p.n11 + p.n01) * (p.n01 + p.n00),
    )
    assert rand_index(contingency=np.array(BIG)) == float(ri)
    assert adjusted_rand_index(contingency=np.array(BIG)) == float(ari)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 70_000, 200_000])
@pytest.mark.parametrize("spread", [1, 2, 40, 10**12])
def test_sorted_cells_equal_unique(n, spread):
    """The in-place run-length step behind sparse tables equals np.unique with counts,
    across the chunk size of its in-place compaction (2**16) and for all-equal keys."""
    keys = np.random.default_rng(n + spread).integers(0, spread, n).astype(np.int64)
    want_cells, want_counts = np.unique(keys, return_counts=True)
    cells, counts = _sorted_cells(keys.copy())
    np.testing.assert_array_equal(cells, want_cells)
    np.testing.assert_array_equal(counts, want_counts)


def test_sparse_table_with_many_distinct_cells():
    """A 1000 x 1000 table with ~2e5 distinct cells of 3e5 elements: sparse equals dense."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 1000, 300_000), rng.integers(0, 1000, 300_000)
    sparse = contingency_table(a, b, sparse=True)
    np.testing.assert_array_equal(sparse.toarray(), contingency_table(a, b, sparse=False))
    assert sparse.has_canonical_format
