"""merge_tables keeps every label's identity and costs about one merge in any order (#20).

Expected tables are built by hand or by the in-memory single call on Python objects
(labels encoded by hashing, where 2**62 + 1 != 2**62 and 'a' != 'a\\x00').
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chanceclust as cc
from chanceclust import summary as summary_module
from chanceclust.summary import PartialTable, merge_tables, partial_table

BIG = 2**62


def _objects(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _hand(labels_true, labels_pred, cells):
    """A PartialTable built by hand from {(row label, col label): count}."""
    rows = [labels_true.index(t) for t, _ in cells]
    cols = [labels_pred.index(p) for _, p in cells]
    order = np.lexsort((cols, rows))
    return PartialTable(_objects(labels_true), _objects(labels_pred),
                        np.asarray(rows, dtype=np.int64)[order],
                        np.asarray(cols, dtype=np.int64)[order],
                        np.asarray(list(cells.values()), dtype=np.int64)[order])  # fmt: skip


@pytest.mark.parametrize(
    ("dtype_a", "dtype_b"),
    [(np.int64, np.uint64), (np.uint64, np.int64), (np.int64, object), (np.uint64, object)],
)
def test_integer_kinds_never_merge_distinct_labels(dtype_a, dtype_b):
    """The issue's example: 2**62 + 1 (int64) and 2**62 (uint64) are two clusters."""
    a = partial_table(np.array([BIG + 1, BIG + 1, 1], dtype=dtype_a), [0, 1, 1])
    b = partial_table(np.array([BIG, 3], dtype=dtype_b), [0, 1])
    merged = merge_tables([a, b])
    assert merged.labels_true.tolist() == [1, 3, BIG, BIG + 1]
    assert merged.shape == (4, 2)
    assert merged.n == 5
    labels = [BIG + 1, BIG + 1, 1, BIG, 3]
    preds = [0, 1, 1, 0, 1]
    assert cc.adjusted_rand_index(contingency=merged) == cc.adjusted_rand_index(labels, preds)
    assert merged == merge_tables([b, a])


def test_uint64_beyond_int64_with_negative_labels_become_python_ints():
    a = partial_table(np.array([2**64 - 1, 2**63], dtype=np.uint64), [0, 0])
    b = partial_table(np.array([-1, -(2**63)], dtype=np.int64), [0, 1])
    merged = merge_tables([a, b])
    assert merged.labels_true.dtype == object
    assert merged.labels_true.tolist() == [-(2**63), -1, 2**63, 2**64 - 1]
    assert merged == merge_tables([b, a])


def test_floats_meet_integers_only_exactly():
    """2.0**62 and 2**62 + 1 stay apart; 3.0 and 3 are one label (equal as values)."""
    a = partial_table(np.array([2.0**62, 3.0]), [0, 0])
    b = partial_table(np.array([BIG + 1, 3], dtype=np.int64), [0, 0])
    merged = merge_tables([a, b])
    assert merged.labels_true.tolist() == [3, BIG, BIG + 1]
    assert merged.counts.tolist() == [2, 1, 1]
    small = merge_tables([partial_table([-4.0, 2.0], [0, 0]), partial_table([2, 7], [0, 0])])
    assert small.labels_true.dtype == np.float64
    assert small.labels_true.tolist() == [-4, 2, 7]
    # the result of a merge never depends on the order or tree of merges
    c = partial_table(np.array([-7.0], dtype=np.float64), [1])
    orders = [[a, b, c], [c, b, a], [b, c, a]]
    results = [merge_tables([merge_tables(o[:2]), o[2]]) for o in orders]
    assert all(r == results[0] for r in results)
    assert [type(v) for v in results[0].labels_true] == [type(v) for v in results[1].labels_true]


def test_strings_with_nul_and_bytes_keep_their_identity():
    left = _hand(["a"], [0], {("a", 0): 2})
    right = _hand(["a\x00"], [0], {("a\x00", 0): 3})
    merged = merge_tables([left, right])
    assert merged.labels_true.tolist() == ["a", "a\x00"]
    assert merged.counts.tolist() == [2, 3]
    typed = PartialTable(np.array(["a"]), np.array([0]), *(np.array([0]),) * 2, np.array([4]))
    assert merge_tables([typed, right]).labels_true.tolist() == ["a", "a\x00"]
    raw = _hand([b"a"], [0], {(b"a", 0): 1})
    with pytest.raises(
        cc.InvalidInputError, match=r"str 'a' \(table 0\) and bytes b'a' \(table 1\)"
    ):
        merge_tables([left, raw])
    with pytest.raises(cc.InvalidInputError, match=r"number 1 \(table 0\) and str '1' \(table 1\)"):
        merge_tables([partial_table([1], [0]), partial_table(["1"], [0])])


def test_pending_merge_reads_like_a_merged_table():
    parts = [partial_table([i, i + 1], [0, i % 3]) for i in range(40)]
    folded = parts[0]
    for part in parts[1:]:
        folded = merge_tables([folded, part])
    once = merge_tables(parts)
    assert folded.n == once.n == 80
    assert folded == once
    assert folded.shape == once.shape
    assert repr(folded) == repr(once)
    with pytest.raises(AttributeError):
        folded.counts = None
    import pickle

    assert pickle.loads(pickle.dumps(folded)) == once


@pytest.mark.parametrize("order", ["left", "right", "random"])
def test_fold_costs_about_one_merge(monkeypatch, order):
    """Cells fed to the canonical merge by a fold of k tables: O(total log k), not O(total k)."""
    k, width = 128, 50
    parts = [partial_table(np.arange(width) + i * width, np.arange(width) % 7) for i in range(k)]
    if order == "random":
        np.random.default_rng(1).shuffle(parts)
    merged_cells = []
    original = summary_module.canonical_cells

    def counting(rows, cols, counts, *args):
        merged_cells.append(len(counts))
        return original(rows, cols, counts, *args)

    monkeypatch.setattr(summary_module, "canonical_cells", counting)
    folded = parts[0]
    for part in parts[1:]:
        folded = merge_tables([folded, part] if order != "right" else [part, folded])
    assert folded.nnz == k * width  # reading it finishes the merge
    assert sum(merged_cells) <= k * width * (math.log2(k) + 2)  # a fold re-merged k^2/2 * width
    monkeypatch.undo()
    assert folded == merge_tables(parts)


POOL = [0, 1, 3, 2**53, 2**53 + 1, 2**62, 2**62 + 1, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1,
        -1, -(2**63)]  # fmt: skip


def _typed(values):
    """The labels in the narrowest numpy dtype that holds them, else Python ints (object)."""
    for dtype in (np.int64, np.uint64):
        if all(np.iinfo(dtype).min <= v <= np.iinfo(dtype).max for v in values):
            return np.array(values, dtype=dtype)
    return _objects(values)


def _part(chunk):
    """The partial table of (label, pred) pairs counted by hand, labels in _typed's dtype
    (partial_table's own reading of object labels is not what is tested here)."""
    counted: dict[tuple[int, int], int] = {}
    for cell in chunk:
        counted[cell] = counted.get(cell, 0) + 1
    rows, cols = sorted({t for t, _ in counted}), sorted({p for _, p in counted})
    cells = sorted(counted)
    return PartialTable(
        _typed(rows),
        np.array(cols, dtype=np.int64),
        np.array([rows.index(t) for t, _ in cells], dtype=np.int64),
        np.array([cols.index(p) for _, p in cells], dtype=np.int64),
        np.array([counted[c] for c in cells], dtype=np.int64),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(POOL), st.integers(0, 2)), min_size=1, max_size=30),
    st.lists(st.integers(1, 6), min_size=1, max_size=8),
    st.randoms(use_true_random=False),
)
def test_any_split_dtypes_and_order_give_the_hand_counted_table(cells, sizes, random):
    """Property: parts of any dtype merged in any order and fold equal the table counted by
    a dict of Python ints (labels by value, never by a cast)."""
    expected: dict[tuple[int, int], int] = {}
    for cell in cells:
        expected[cell] = expected.get(cell, 0) + 1
    parts, start = [], 0
    while start < len(cells):
        size = sizes[len(parts) % len(sizes)]
        chunk = cells[start : start + size]
        parts.append(_part(chunk))
        start += size
    random.shuffle(parts)
    folded = parts[0]
    for part in parts[1:]:
        folded = merge_tables([part, folded] if random.random() < 0.5 else [folded, part])
    once = merge_tables(parts)
    assert folded == once
    got = {
        (int(once.labels_true[r]), int(once.labels_pred[c])): int(n)
        for r, c, n in zip(once.rows, once.cols, once.counts, strict=True)
    }
    assert got == expected
    assert once.labels_true.tolist() == sorted({t for t, _ in cells})
