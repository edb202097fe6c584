"""Mergeable partial tables and histogram summaries (chanceclust.summary, issue #12).

What must hold:

* merging partial tables of any split of the elements, in any order and any
  tree, gives identical arrays (hypothesis), and ``to_sparse()`` is exactly
  ``contingency_table(a, b, sparse=True)``;
* a PartialTable passed as ``contingency=`` gives every measure of the
  registry in ``test_common.py`` bit for bit (``==``): it is the same table
  in the same cell order;
* a TableSummary gives pair counts, ARI, E[RI], E[MI], Var[RI] and SRI bit
  for bit (they depend on the histograms only, evaluated in the same way),
  and MI, NMI, VI, AMI within 1e-15 absolute: the entropy form's error is a
  few ulp of H(A, B) <= log N (< 1.8e-15 per ulp at log N < 16), and
  compensated sums leave only each term's own rounding.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import label_pairs
from test_common import CASES

import chanceclust as cc
from chanceclust import (
    PartialTable,
    TableSummary,
    compare,
    contingency_table,
    merge_tables,
    partial_table,
)
from chanceclust.summary import Histogram
from chanceclust.variance import rand_index_variance, standardized_rand_index

ENTROPY_FORM = {
    "mutual_information",
    "normalized_mutual_information",
    "variation_of_information",
    "adjusted_mutual_information",
}
SUMMARY_ATOL = 1e-15


def _split_points(draw, n):
    return sorted(draw(st.lists(st.integers(0, n), max_size=5)))


@st.composite
def chunked_pairs(draw):
    """Two labelings, a split of the elements into chunks, and a random merge tree."""
    a, b = draw(label_pairs(max_n=60))
    cuts = [0, *_split_points(draw, len(a)), len(a)]
    chunks = [(a[i:j], b[i:j]) for i, j in itertools.pairwise(cuts)]
    seed = draw(st.integers(0, 2**32 - 1))
    return a, b, chunks, seed


def _merge_randomly(parts: list[PartialTable], rng: np.random.Generator) -> PartialTable:
    """Merge by a random binary (or wider) tree with shuffled operands."""
    parts = list(parts)
    while len(parts) > 1:
        rng.shuffle(parts)
        width = int(rng.integers(2, 4))
        parts = [merge_tables(parts[:width]), *parts[width:]]
    return parts[0]


def _assert_same_csr(got: sp.csr_array, expected: sp.csr_array) -> None:
    assert got.shape == expected.shape
    for name in ("data", "indices", "indptr"):
        x, y = getattr(got, name), getattr(expected, name)
        assert x.dtype == y.dtype, name
        np.testing.assert_array_equal(x, y)


@given(chunked_pairs())
def test_merge_any_order_and_tree_gives_the_same_table(example):
    """Any split, any merge order and tree: identical partial table, summary and sparse table."""
    a, b, chunks, seed = example
    rng = np.random.default_rng(seed)
    parts = [partial_table(x, y) for x, y in chunks]
    once = merge_tables(parts)
    tree = _merge_randomly(parts, rng)
    assert tree == once
    assert tree.summary() == once.summary() == partial_table(a, b).summary()
    _assert_same_csr(tree.to_sparse(), contingency_table(a, b, sparse=True))


@given(label_pairs(max_n=40))
@settings(max_examples=8)
def test_partial_table_contingency_is_bit_identical(pair):
    """Every measure of the registry from a PartialTable equals the labels' value exactly."""
    a, b = pair
    half = len(a) // 2
    table = merge_tables([partial_table(a[half:], b[half:]), partial_table(a[:half], b[:half])])
    for case in CASES:
        x, y = case.clip(a, b)
        t = table if not case.slow else partial_table(x, y)
        assert case(contingency=t) == case(x, y), case.id


@given(label_pairs(max_n=40))
@settings(max_examples=8)
def test_summary_contingency_matches_labels(pair):
    """Histogram measures are exact; entropy-form ones within 1e-15."""
    a, b = pair
    for case in CASES:
        x, y = case.clip(a, b)
        summary = partial_table(x, y).summary()
        got, expected = case(contingency=summary), case(x, y)
        if case.name in ENTROPY_FORM:
            assert abs(got - expected) <= SUMMARY_ATOL, case.id
        else:
            assert got == expected, case.id


@pytest.mark.parametrize("model", ["perm", "num", "all"])
@pytest.mark.parametrize("one_sided", [False, True])
def test_summary_variance_and_sri_exact(model, one_sided):
    """Var[RI] and the standardized Rand index from a summary equal the labels' values."""
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 7, 500), rng.integers(0, 4, 500)
    s = TableSummary.from_cells(a, b, np.ones(500, dtype=int))
    for func in (rand_index_variance, standardized_rand_index):
        kw = {"model": model, "one_sided": one_sided}
        assert func(contingency=s, **kw) == func(a, b, **kw)


def test_summary_larger_example_within_tolerance():
    """N = 2e5, K ~ 2000 x 500 (noisy copy): ARI, E[MI] exact, MI and AMI within 1e-15."""
    rng = np.random.default_rng(12)
    a = rng.integers(0, 2000, 200_000)
    b = np.where(rng.random(a.size) < 0.7, a // 4, rng.integers(0, 500, a.size))
    summary = TableSummary.from_table(contingency_table(a, b, sparse=True))
    assert cc.adjusted_rand_index(contingency=summary) == cc.adjusted_rand_index(a, b)
    assert cc.pair_counts(contingency=summary) == cc.pair_counts(a, b)
    for model in ("perm", "num"):
        kw = {"model": model}
        assert cc.expected_mutual_information(
            contingency=summary, **kw
        ) == cc.expected_mutual_information(a, b, **kw)
        ami = cc.adjusted_mutual_information(contingency=summary, **kw)
        assert abs(ami - cc.adjusted_mutual_information(a, b, **kw)) <= SUMMARY_ATOL
    mi = cc.mutual_information(contingency=summary)
    assert abs(mi - cc.mutual_information(a, b)) <= SUMMARY_ATOL * 4  # MI ~ 3.9 nats: 2 ulp


def test_compare_from_summary_and_partial_table():
    """compare() takes both: exactly from a PartialTable, within 1e-15 from a summary."""
    a, b = [0, 0, 1, 1, 2, 2, 2, 3], ["x", "x", "y", "y", "y", "z", "z", "z"]
    expected = compare(a, b)
    assert compare(contingency=partial_table(a, b)) == expected
    got = compare(contingency=partial_table(a, b).summary())
    assert (got.n, got.n_clusters_true, got.n_clusters_pred) == (8, 4, 3)
    for row, ref in zip(got.rows, expected.rows, strict=True):
        assert (row.measure, row.model, row.one_sided) == (ref.measure, ref.model, ref.one_sided)
        if math.isnan(ref.value):  # a row compare() leaves to the single call
            assert math.isnan(row.value)
        else:
            assert abs(row.value - ref.value) <= SUMMARY_ATOL
        assert row.expected == ref.expected


def test_identical_partitions_from_summary():
    """VI is exactly 0 and NMI, AMI exactly 1 for identical partitions given as a summary."""
    a = [0, 0, 1, 1, 1, 2]
    s = partial_table(a, a).summary()
    assert cc.variation_of_information(contingency=s) == 0.0
    assert cc.normalized_mutual_information(contingency=s) == 1.0
    assert cc.adjusted_mutual_information(contingency=s) == 1.0
    assert cc.adjusted_rand_index(contingency=s, model="num") == 1.0


def test_empty_and_single_element():
    """N = 0 and N = 1 give the labels' conventions."""
    empty = merge_tables([])
    assert empty.n == 0
    assert empty.shape == (0, 0)
    assert cc.adjusted_rand_index(contingency=empty) == cc.adjusted_rand_index([], [])
    s = TableSummary.from_histograms({}, {}, {})
    assert s.n == 0
    assert cc.mutual_information(contingency=s) == 0.0
    assert cc.adjusted_mutual_information(contingency=s) == cc.adjusted_mutual_information([], [])
    one = partial_table([5], [7])
    assert cc.adjusted_rand_index(contingency=one.summary()) == 1.0


# ------------------------------------------------------------------ constructors


def test_from_cells_sums_repeats_and_drops_zeros():
    """Repeated cells are summed; zero-count cells and the labels only they use are dropped."""
    t = PartialTable.from_cells(["b", "a", "b", "c"], [2, 1, 2, 9], [1, 4, 2.0, 0])
    assert t.labels_true.tolist() == ["a", "b"]
    assert t.labels_pred.tolist() == [1, 2]
    assert t.counts.tolist() == [4, 3]
    assert t == merge_tables([partial_table(["a"] * 4, [1] * 4), partial_table(["b"] * 3, [2] * 3)])


def test_from_cells_equals_engine_style_group_by():
    """The (label, label, count) triples of a group-by give the table of the labels."""
    rng = np.random.default_rng(5)
    a, b = rng.integers(-50, 50, 3000), rng.integers(10**12, 10**12 + 30, 3000)
    keys, counts = np.unique(np.stack([a, b]), axis=1, return_counts=True)
    order = rng.permutation(counts.size)  # engines return cells in hash order
    t = PartialTable.from_cells(keys[0][order], keys[1][order], counts[order])
    _assert_same_csr(t.to_sparse(), contingency_table(a, b, sparse=True))
    assert TableSummary.from_cells(keys[0], keys[1], counts) == t.summary()


@pytest.mark.parametrize(
    "form",
    ["dense", "csr", "csr_unsorted_duplicates", "coo_shuffled_duplicates", "csc", "float"],
)
def test_from_table_forms(form):
    """Every table form gives the same cells as the labels; empty rows/columns are dropped."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 30, 2000), rng.integers(0, 40, 2000)
    dense = np.zeros((32, 41), dtype=np.int64)  # empty rows 30, 31 and column 40
    np.add.at(dense, (a, b), 1)
    if form == "dense":
        table = dense
    elif form == "float":
        table = dense.astype(float)
    elif form == "csr":
        table = sp.csr_array(dense)
    elif form == "csc":
        table = sp.csc_array(dense)
    else:
        rows, cols = np.nonzero(dense)
        data = dense[rows, cols]
        # split every cell in two parts, shuffle: duplicates in hash order
        part = data // 2
        rows2, cols2 = np.concatenate([rows, rows]), np.concatenate([cols, cols])
        data2 = np.concatenate([part, data - part])
        order = rng.permutation(data2.size)
        coo = sp.coo_array((data2[order], (rows2[order], cols2[order])), shape=dense.shape)
        table = coo if form.startswith("coo") else sp.csr_array(coo)
        if form.startswith("csr"):  # keep it non-canonical
            table = sp.csr_array((table.data, table.indices, table.indptr), shape=dense.shape)
    t = PartialTable.from_table(table)
    assert t.shape == (30, 40)
    expected = partial_table(a, b)
    np.testing.assert_array_equal(t.counts, expected.counts)
    np.testing.assert_array_equal(t.rows, expected.rows)
    np.testing.assert_array_equal(t.cols, expected.cols)
    assert TableSummary.from_table(table) == expected.summary()
    assert cc.adjusted_mutual_information(contingency=t) == cc.adjusted_mutual_information(a, b)


def test_from_histograms_forms_and_checks():
    """Mappings, pairs and Histograms are accepted; inconsistent histograms are refused."""
    s = TableSummary.from_histograms(
        {2: 3}, ([3], [2]), Histogram(np.array([1, 2]), np.array([2, 2]))
    )
    assert (s.n, s.n_clusters_true, s.n_clusters_pred, s.n_cells) == (6, 3, 2, 4)
    assert TableSummary.from_histograms(([2, 2], [1, 2]), {3: 2}, {2: 2, 1: 2}) == s  # repeats
    assert s.to_dict() == {
        "n": 6,
        "sizes_true": {"values": [2], "counts": [3]},
        "sizes_pred": {"values": [3], "counts": [2]},
        "cells": {"values": [1, 2], "counts": [2, 2]},
    }
    with pytest.raises(ValueError, match="`sizes_pred` must describe the same number"):
        TableSummary.from_histograms({2: 3}, {3: 3}, {1: 2, 2: 2})
    with pytest.raises(ValueError, match="`cells` must describe the same number"):
        TableSummary.from_histograms({2: 3}, {3: 2}, {1: 6, 2: 2})
    with pytest.raises(ValueError, match="non-zero cells"):
        TableSummary.from_histograms({2: 3}, {3: 2}, {6: 1})
    with pytest.raises(ValueError, match="more than the largest cluster"):
        TableSummary.from_histograms({2: 3}, {2: 1, 4: 1}, {4: 1, 1: 2})
    with pytest.raises(ValueError, match="`sizes_true` counts"):
        TableSummary.from_histograms({2: -3}, {3: 2}, {1: 2, 2: 2})
    with pytest.raises(ValueError, match="`sizes_true` values must be positive"):
        TableSummary.from_histograms({0: 1, 2: 3}, {3: 2}, {1: 2, 2: 2})
    with pytest.raises(ValueError, match="`cells` must be a mapping"):
        TableSummary.from_histograms({2: 3}, {3: 2}, 7)
    with pytest.raises(ValueError, match="equal length"):
        TableSummary.from_histograms({2: 3}, {3: 2}, ([1, 2], [2]))


@pytest.mark.parametrize(
    ("counts", "match"),
    [
        ([1, -2], "non-negative integer counts"),
        ([1, 2.5], "non-negative integer counts"),
        ([1, float("nan")], "non-negative integer counts"),
        (["1", "2"], "integer counts"),
        ([1], "one count per cell"),
        ([2**62, 2**62], r"`counts` must add up to at most 2\*\*63 - 1"),
    ],
)
def test_from_cells_refuses_bad_counts(counts, match):
    with pytest.raises(ValueError, match=match):
        PartialTable.from_cells([0, 1], [0, 1], counts)


def test_unsortable_and_mixed_labels_are_refused():
    """Labels must be sortable, and chunks must not mix numbers with strings."""
    with pytest.raises(ValueError, match="`labels_true` must hold sortable labels"):
        partial_table([1, "a"], [0, 0])
    with pytest.raises(ValueError, match="different kinds"):
        merge_tables([partial_table([1], [0]), partial_table(["1"], [0])])
    with pytest.raises(ValueError, match="position 1"):
        merge_tables([partial_table([1], [0]), "table"])
    with pytest.raises(ValueError, match="missing values"):
        partial_table([1.0, float("nan")], [0, 0])
    with pytest.raises(ValueError, match="same elements"):
        partial_table([1, 2], [0])


def test_table_errors_name_the_cell():
    with pytest.raises(ValueError, match=r"got -1 at cell \(1, 0\)"):
        PartialTable.from_table([[1, 0], [-1, 2]])
    with pytest.raises(ValueError, match="2-D"):
        TableSummary.from_table([1, 2])


def test_pandas_categorical_labels_are_numbered_in_value_order():
    """A categorical whose categories are not sorted still merges by label value."""
    pd = pytest.importorskip("pandas")
    a = pd.Categorical(["z", "a", "z"], categories=["z", "a"])
    t = partial_table(a, [0, 1, 0])
    assert t.labels_true.tolist() == ["a", "z"]
    assert t == partial_table(["z", "a", "z"], [0, 1, 0])


def test_summary_mi_entropy_form_accuracy_at_large_n():
    """A summary of N = 1e9 elements (no labels): MI in entropy form vs an mpmath reference.

    Two clusterings of 10^9 elements, one the 10-way split of the other's
    halves: H(A) = log 2, H(B) = log 20 (sizes 5e8 and 5e7), MI = log 2
    exactly. The entropy-form error is a few ulp of H(A, B) = log 20.
    """
    n = 10**9
    s = TableSummary.from_histograms({n // 2: 2}, {n // 20: 20}, {n // 20: 20})
    assert abs(cc.mutual_information(contingency=s) - math.log(2)) <= 4 * math.ulp(math.log(20))
    assert cc.adjusted_rand_index(contingency=s) == cc.adjusted_rand_index(
        contingency=sp.csr_array(np.kron(np.eye(2, dtype=np.int64), np.full((1, 10), n // 20)))
    )


@pytest.mark.parametrize("tables", [None, 5, "not tables"])
def test_merge_tables_of_no_iterable_names_the_argument(tables):
    """merge_tables(None) raised a bare TypeError ('NoneType' object is not iterable, #35)."""
    import chanceclust as cc

    match = "`tables` must" if tables != "not tables" else "`tables` must hold PartialTable"
    with pytest.raises(cc.InvalidInputError, match=match):
        cc.merge_tables(tables)
    with pytest.raises(cc.InvalidInputError, match="an iterable of PartialTable"):
        cc.merge_tables(cc.partial_table([0, 1], [0, 0]))  # one table, not a list of them
    assert cc.merge_tables(iter([cc.partial_table([0, 1], [0, 0])])).n == 2
