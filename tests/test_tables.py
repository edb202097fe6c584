"""The one table path (chanceclust._tables): every accepted form of a table gives the same
summary and values, every invalid form the same message on every path, and the one
group-by-count kernel equals independent counts (numpy.unique, Counter) on both sides of its
dense/sparse rule."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from strategies import contingency_tables, labels_from_table

import chanceclust as cc
from chanceclust import PartialTable, TableSummary, merge_tables, partial_table
from chanceclust._tables import (
    CellBuffers,
    count_keys,
    count_rows,
    dense_counting,
    dense_limit,
    used_codes,
)
from chanceclust.exceptions import InvalidInputError

# --------------------------------------------------------------------------- oracles


def hand_summary(table: list[list[int]]) -> tuple[int, Counter, Counter, Counter]:
    """N and the three histograms of a table, in Python ints (zeros and empty lines dropped)."""
    row_sums = [sum(row) for row in table]
    col_sums = [sum(col) for col in zip(*table, strict=True)]
    cells = [c for row in table for c in row if c]
    return (
        sum(row_sums),
        Counter(s for s in row_sums if s),
        Counter(s for s in col_sums if s),
        Counter(cells),
    )


def as_hand(summary: TableSummary) -> tuple[int, Counter, Counter, Counter]:
    return (
        summary.n,
        *(
            Counter(dict(zip(h.values.tolist(), h.counts.tolist(), strict=True)))
            for h in (summary.sizes_true, summary.sizes_pred, summary.cells)
        ),
    )


def hand_pair_counts(table: list[list[int]]) -> tuple[int, int, int, int]:
    """(n11, n10, n01, n00) by the definitions, in Python ints."""
    n, rows, cols, cells = hand_summary(table)

    def pairs(hist: Counter) -> int:
        return sum(m * v * (v - 1) // 2 for v, m in hist.items())

    n11, q_true, q_pred = pairs(cells), pairs(rows), pairs(cols)
    return n11, q_true - n11, q_pred - n11, n * (n - 1) // 2 - q_true - q_pred + n11


def forms(table: np.ndarray) -> dict[str, object]:
    """The same table in every form ``contingency=`` and ``from_table`` accept."""
    big = table.dtype == object
    out = {
        "object": np.array(table.tolist(), dtype=object),
        "lists": table.tolist(),
        "coo": sp.coo_array(table.astype(np.int64)) if not big else None,
        "csr": sp.csr_array(table.astype(np.int64)) if not big else None,
        "csr_matrix": sp.csr_matrix(table.astype(np.int64)) if not big else None,
        "dataframe": pd.DataFrame(table.tolist()),
        "int64": table.astype(np.int64) if not big else None,
        "float": table.astype(np.float64) if table.max(initial=0) < 2**53 else None,
        "partial": PartialTable.from_table(table.tolist()),
    }
    return {k: v for k, v in out.items() if v is not None}


def from_cells_form(table: np.ndarray) -> TableSummary:
    """The table as cells, each count split in two (repeats are summed), object counts."""
    rows, cols = np.nonzero(np.ones(table.shape, dtype=bool))
    counts = [int(c) for c in table.ravel()]
    halves = [c // 2 for c in counts]
    rest = [c - h for c, h in zip(counts, halves, strict=True)]
    return TableSummary.from_cells(
        np.concatenate([rows, rows]),
        np.concatenate([cols, cols]),
        np.array(halves + rest, dtype=object),
    )


big_tables = st.builds(
    lambda t, scale: np.array([[int(c) * scale for c in row] for row in t.tolist()], dtype=object),
    contingency_tables(max_rows=4, max_cols=4, max_count=3),
    st.sampled_from([2**40, 2**58]),  # totals up to 48 * 2**58 < 2**63: beyond int64 pair counts
)


# --------------------------------------------------------------------------- accepted forms


@given(contingency_tables())
def test_every_form_of_a_table_gives_the_same_summary_and_values(table):
    expected = hand_summary(table.tolist())
    pairs = hand_pair_counts(table.tolist())
    values = set()
    for name, form in forms(table).items():
        assert as_hand(TableSummary.from_table(form)) == expected, name
        assert tuple(vars(cc.pair_counts(contingency=form)).values()) == pairs, name
        values.add(
            (
                cc.adjusted_rand_index(contingency=form),
                cc.adjusted_mutual_information(contingency=form),
                cc.variation_of_information(contingency=form),
            )
        )
    assert len(values) == 1  # one Table whatever the form: the very same floats
    assert as_hand(from_cells_form(table)) == expected


@given(contingency_tables(), st.integers(1, 4))
def test_labels_partial_tables_and_merges_give_the_tables_summary(table, chunks):
    a, b = labels_from_table(table)
    expected = hand_summary(table.tolist())
    used = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]  # empty lines dropped
    assert np.array_equal(cc.contingency_table(a, b), used)
    assert np.array_equal(cc.contingency_table(a, b, sparse=True).toarray(), used)
    order = np.random.default_rng(len(a)).permutation(len(a))
    parts = [partial_table(a[i], b[i]) for i in np.array_split(order, chunks) if i.size]
    merged = merge_tables(parts)
    assert as_hand(merged.summary()) == expected
    assert merged == PartialTable.from_table(table)
    assert cc.adjusted_rand_index(contingency=merged) == cc.adjusted_rand_index(a, b)
    assert cc.adjusted_rand_index(contingency=table) == cc.adjusted_rand_index(a, b)


@given(big_tables)
def test_python_int_tables_beyond_int64_pair_counts(table):
    """Cells of 2**58: N fits int64, the pair counts do not; every form agrees exactly."""
    expected = hand_summary(table.tolist())
    pairs = hand_pair_counts(table.tolist())
    for name, form in forms(table).items():
        assert as_hand(TableSummary.from_table(form)) == expected, name
        assert tuple(vars(cc.pair_counts(contingency=form)).values()) == pairs, name
    assert as_hand(from_cells_form(table)) == expected


# --------------------------------------------------------------------------- invalid forms

INVALID = {
    "ragged": ([[1, 2], [3]], "must be a rectangular 2-D table of counts"),
    "ragged-nested": ([[1, 2], [3, [4]]], "must be a rectangular 2-D table of counts"),
    "negative": ([[1, 0], [-1, 2]], "must hold non-negative integer counts; got -1 at cell (1, 0)"),
    "fraction": ([[1, 2.5]], "must hold non-negative integer counts; got 2.5 at cell (0, 1)"),
    "nan": ([[1.0, float("nan")]], "must hold non-negative integer counts; got nan at cell (0, 1)"),
    "bool-object": (
        np.array([[2, True]], dtype=object),
        "must hold non-negative integer counts; got True at cell (0, 1)",
    ),
    "none-object": (
        np.array([[2, None]], dtype=object),
        "must hold non-negative integer counts; got None at cell (0, 1)",
    ),
    "3-D": (np.ones((2, 2, 2), dtype=int), "must be a 2-D table of counts; got shape (2, 2, 2)"),
    "empty": ([], "must be a 2-D table of counts; got shape (0,)"),
    "strings": ([["1", "2"]], "must hold integer counts; got dtype <U1"),
    "total": ([[2**62, 2**62], [2**62, 5]], "counts must add up to at most 2**63 - 1"),
    "python-int": ([[2**70, 1]], "counts must add up to at most 2**63 - 1"),
    "sparse-negative": (
        sp.csr_array(np.array([[1, -2], [0, 2]])),
        "must hold non-negative integer counts; got -2 at cell (0, 1)",
    ),
    "sparse-fraction": (
        sp.coo_array(np.array([[1.0, 0.5]])),
        "must hold non-negative integer counts; got 0.5 at cell (0, 1)",
    ),
}
TABLE_PATHS = {
    "pair_counts": lambda t: cc.pair_counts(contingency=t),
    "adjusted_mutual_information": lambda t: cc.adjusted_mutual_information(contingency=t),
    "expected_rand_index": lambda t: cc.expected_rand_index(contingency=t),
    "compare": lambda t: cc.compare(contingency=t),
    "TableSummary.from_table": TableSummary.from_table,
    "PartialTable.from_table": PartialTable.from_table,
}


def raised(call, *args) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as info:
        call(*args)
    return info.value


@pytest.mark.parametrize("case", list(INVALID))
def test_each_invalid_table_gets_the_same_message_on_every_path(case):
    table, part = INVALID[case]
    errors = {name: raised(path, table) for name, path in TABLE_PATHS.items()}
    messages = {str(e) for e in errors.values()}
    assert len(messages) == 1, messages
    assert {type(e) for e in errors.values()} == {InvalidInputError}
    message = messages.pop()
    assert message.startswith("`contingency` ")
    assert part in message


@pytest.mark.parametrize("case", ["negative", "fraction", "nan", "bool-object", "python-int"])
def test_bad_counts_given_as_cells_get_the_tables_message(case):
    """from_cells names its argument `counts`; the rest of the message is the table's."""
    table = np.array(INVALID[case][0], dtype=object)
    rows, cols = np.nonzero(np.ones(table.shape, dtype=bool))
    cells = raised(TableSummary.from_cells, rows, cols, table.ravel())
    whole = raised(TableSummary.from_table, table)
    strip = re.compile(r"^`\w+`( counts)? ")
    assert strip.sub("", str(cells)) == strip.sub("", str(whole))


def test_from_histograms_refuses_totals_beyond_int64():
    with pytest.raises(InvalidInputError, match=r"at most 2\*\*63 - 1"):
        TableSummary.from_histograms({2**62: 2}, {2**62: 2}, {2**62: 2})
    with pytest.raises(InvalidInputError, match="`cells` counts must hold"):
        TableSummary.from_histograms({1: 2}, {1: 2}, ([1], np.array([True], dtype=object)))


def test_merge_tables_refuses_totals_beyond_int64():
    half = PartialTable.from_table([[2**62]])
    with pytest.raises(InvalidInputError, match=r"`tables` counts must add up to at most 2\*\*63"):
        merge_tables([half, half])


# --------------------------------------------------------------------------- the kernel


def unique_counts(keys, weights=None):
    if weights is None:
        return np.unique(keys, return_counts=True)
    totals = Counter()
    for k, w in zip(keys.tolist(), weights.tolist(), strict=True):
        totals[k] += w
    distinct = sorted(totals)
    return np.array(distinct, dtype=np.int64), np.array([totals[k] for k in distinct])


@given(st.integers(0, 300), st.integers(-2, 2), st.booleans(), st.integers(0, 2**32))
def test_count_keys_equals_unique_on_both_sides_of_the_rule(n, side, weighted, seed):
    """Key ranges around dense_limit(n): both paths give numpy.unique's arrays."""
    rng = np.random.default_rng(seed)
    n_keys = max(1, dense_limit(n) + side)
    keys = rng.integers(0, n_keys, n)
    weights = rng.integers(0, 5, n) if weighted else None
    expected = unique_counts(keys, weights)
    kept = keys.copy()
    cells, counts = count_keys(keys.copy(), n_keys, weights=weights, owned=False)
    assert np.array_equal(cells, expected[0])
    assert np.array_equal(counts, expected[1])
    assert cells.dtype == counts.dtype == np.int64
    cells, counts = count_keys(keys, n_keys, owned=False)
    assert np.array_equal(keys, kept)  # not owned: not sorted in place
    assert np.array_equal(cells, unique_counts(kept)[0])


def test_dense_counting_rule_both_sides():
    assert dense_counting(1024, 0)
    assert not dense_counting(1025, 0)
    assert dense_counting(10**6, 10**6)
    assert not dense_counting(10**6 + 1, 10**6)


@pytest.mark.parametrize("k", [3, 30, 2000])  # dense, dense, sorted for n = 300
def test_buffered_counting_equals_unbuffered_across_calls(k):
    rng = np.random.default_rng(k)
    n = 300
    buffers = CellBuffers(n)
    for _ in range(3):  # the dense buffer must be all zero again after each call
        a, b = rng.integers(0, k, n), rng.integers(0, k, n)
        keys = a * k + b
        expected = np.unique(keys, return_counts=True)
        np.copyto(buffers.keys, keys)
        cells, counts = count_keys(buffers.keys, k * k, buffers=buffers)
        assert np.array_equal(cells, expected[0])
        assert np.array_equal(counts, expected[1])
    assert not buffers.dense.any()


@pytest.mark.parametrize(("m", "n", "k"), [(5, 50, 3), (4, 20, 30), (1, 10, 40), (3, 1, 1)])
def test_count_rows_equals_unique_per_row(m, n, k):
    rng = np.random.default_rng(m * n * k)
    keys = rng.integers(0, k * k, (m, n)).astype(np.int32)
    per_row = [np.unique(row, return_counts=True) for row in keys]
    n_cells, cells, counts = count_rows(keys.copy(), k * k)
    assert n_cells.tolist() == [len(c) for c, _ in per_row]
    assert np.array_equal(cells, np.concatenate([c for c, _ in per_row]))
    assert np.array_equal(counts, np.concatenate([c for _, c in per_row]))


def test_histograms_of_python_ints_equal_those_of_int64():
    """from_histograms reads counts by the same validator: object ints are int64 ints."""
    as_objects = {
        name: (np.array(v, dtype=object), np.array(c, dtype=object))
        for name, (v, c) in {"t": ([2, 1], [1, 2]), "p": ([4], [1]), "c": ([1, 2], [2, 1])}.items()
    }
    assert TableSummary.from_histograms(
        as_objects["t"], as_objects["p"], as_objects["c"]
    ) == TableSummary.from_cells([0, 1, 2], [0, 0, 0], [2, 1, 1])


def test_count_keys_copies_a_view_it_would_otherwise_shrink():
    base = np.array([5, 3, 5, 9, 3, 3], dtype=np.int64)
    view = base[1:]
    cells, counts = count_keys(view, 10**6)  # the sort path: more keys than elements
    assert cells.tolist() == [3, 5, 9]
    assert counts.tolist() == [3, 1, 1]
    assert base.tolist() == [5, 3, 5, 9, 3, 3]


@pytest.mark.parametrize("seed", range(4))
def test_used_codes_by_flags_and_by_sort_agree(seed):
    """used_codes on both sides of the dense/sparse rule (k codes against the codes' count):
    the codes that occur, ascending, and every code renumbered into them."""
    rng = np.random.default_rng(seed)
    codes = rng.choice(rng.integers(0, 3000, 40), 3000).astype(np.int64)
    assert dense_counting(3000, codes.size)
    assert not dense_counting(10**12, codes.size)
    expected_used = np.array(sorted(set(codes.tolist())), dtype=np.int64)
    expected_codes = np.searchsorted(expected_used, codes)
    for k in (3000, 10**12):
        used, renumbered = used_codes(codes, k)
        np.testing.assert_array_equal(used, expected_used)
        np.testing.assert_array_equal(renumbered, expected_codes)
    every = np.arange(7, dtype=np.int64)[::-1].copy()  # every code occurs: returned as is
    used, renumbered = used_codes(every, 7)
    np.testing.assert_array_equal(used, np.arange(7))
    assert renumbered is every


# ------------------------------------------------------- labels of another array library


def test_array_api_labels_on_a_device_are_counted_where_they_are(monkeypatch):
    """array-api-strict arrays on its test device ``device1`` (which refuses conversion to
    numpy) give numpy's values bit for bit (#36 groundwork): encoded by ``unique_inverse``
    and counted by ``unique_counts`` on the device; only the cells and each side's K
    distinct labels cross to the host (no array of N elements is exported)."""
    xp = pytest.importorskip("array_api_strict")
    import chanceclust as cc

    device = xp.Device("device1")
    rng = np.random.default_rng(3)
    n = 997  # no table of these labels has as many cells or distinct labels
    pairs = [(rng.integers(-3, 9, n), rng.integers(0, 5, n)),
             (rng.integers(0, 2, n).astype(bool), rng.integers(0, 40, n).astype(np.int32)),
             (rng.integers(0, 7, n), np.sort(rng.integers(0, 7, n)))]  # fmt: skip
    exported = []
    array_type = type(xp.asarray([0], device=device))
    original = array_type.__dlpack__

    def spy(self, *args, **kwargs):
        exported.append(self.shape)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(array_type, "__dlpack__", spy)
    for a, b in pairs:
        on_a, on_b = xp.asarray(a, device=device), xp.asarray(b, device=device)
        with pytest.raises(RuntimeError):  # the device refuses numpy's own conversion
            np.asarray(on_a)
        assert np.array_equal(cc.contingency_table(on_a, on_b), cc.contingency_table(a, b))
        for model in ("perm", "num", "all"):
            for one_sided in (False, True):
                for f in (cc.adjusted_rand_index, cc.adjusted_mutual_information):
                    got = f(on_a, on_b, model=model, one_sided=one_sided)
                    assert got == f(a, b, model=model, one_sided=one_sided), (f, model)
        assert cc.adjusted_rand_index(on_a, b) == cc.adjusted_rand_index(a, b)  # one host side
        assert cc.normalized_mutual_information(on_a, on_b) == cc.normalized_mutual_information(
            a, b)
    assert exported and all(shape[0] < n for shape in exported), exported
    # a missing label on the host side: the policy applies to host codes, as before
    a, b = pairs[0]
    host = [None, *a[1:].tolist()]
    got = cc.adjusted_rand_index(host, xp.asarray(b, device=device), unassigned="drop")
    assert got == cc.adjusted_rand_index(host, b, unassigned="drop")
