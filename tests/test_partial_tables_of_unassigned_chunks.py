"""Chunks whose every element is unassigned, and the `dropped` count of partial tables.

A chunk of a clustering (a file's row group, a DataFrame chunk) may hold only unassigned
elements, e.g. the noise points of DBSCAN output sorted by label. Under unassigned='drop'
its partial table is empty and merges with the others; only a whole with no element left
is refused, with the single call's message, as on the Dask path and the CLI.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import chanceclust as cc

A = [-1, -1, -1, 0, 0, 1, 1, 2, 2]  # DBSCAN-like: the noise first
B = [0, 1, 1, 0, 0, 1, 2, 2, 1]
DROP = {"unassigned_label": -1, "unassigned": "drop"}


def _chunks(a, b, size=3):
    return [cc.partial_table(a[i:i + size], b[i:i + size], **DROP) for i in range(0, len(a), size)]


def test_an_all_unassigned_chunk_is_an_empty_table():
    table = cc.partial_table(A[:3], B[:3], **DROP)
    assert (table.n, table.shape, table.dropped) == (0, (0, 0), 3)
    assert repr(table) == "PartialTable(n=0, shape=(0, 0), nnz=0, dropped=3)"


def test_the_merge_equals_the_whole_and_counts_the_drops():
    merged = cc.merge_tables(_chunks(A, B))
    whole = cc.partial_table(A, B, **DROP)
    assert merged == whole
    assert merged.dropped == whole.dropped == 3
    for measure in (cc.adjusted_rand_index, cc.adjusted_mutual_information):
        assert measure(contingency=merged) == measure(A, B, **DROP)


def test_a_whole_with_nothing_left_is_refused_as_the_single_call_refuses_it():
    a = [-1] * 6
    with pytest.raises(cc.InvalidInputError, match="leaves no element to compare") as single:
        cc.adjusted_rand_index(a, B[:6], **DROP)
    merged = cc.merge_tables(_chunks(a, B[:6]))
    assert (merged.n, merged.dropped) == (0, 6)
    for call in (lambda: cc.adjusted_rand_index(contingency=merged), merged.summary,
                 lambda: cc.compare(contingency=merged)):
        with pytest.raises(cc.InvalidInputError) as got:
            call()
        assert str(got.value) == str(single.value)


def test_empty_labels_are_not_dropped_ones():
    """No element at all is a table of N = 0 (the single call's convention), not an error."""
    empty = cc.merge_tables([cc.partial_table([], []), cc.partial_table([], [])])
    assert empty.dropped == 0
    assert cc.adjusted_rand_index(contingency=empty) == cc.adjusted_rand_index([], [])


def test_dropped_survives_pickling_and_every_merge_order():
    chunks = _chunks(A, B, size=2)
    left = chunks[0]
    for chunk in chunks[1:]:  # a left fold: pending merges
        left = cc.merge_tables([left, chunk])
    tree = cc.merge_tables([cc.merge_tables(chunks[:3]), cc.merge_tables(chunks[3:])])
    assert left.dropped == tree.dropped == 3
    assert pickle.loads(pickle.dumps(left)).dropped == 3
    assert cc.merge_tables([left, left]).dropped == 6


def test_dask_counts_the_same_drops():
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    ccd = pytest.importorskip("chanceclust.dask")
    with dask.config.set(scheduler="synchronous"):
        table = ccd.contingency_table((da.from_array(np.array(A), chunks=3),
                                       da.from_array(np.array(B), chunks=3)), **DROP)
    assert table == cc.partial_table(A, B, **DROP)
    assert table.dropped == 3
