"""Errors and rare inputs of chanceclust.dask and chanceclust.allpairs.

Each bad input gets an error naming ``source`` (or the argument at fault) and saying what
was expected and what was got; each odd but valid input (categorical labels, dask Bags,
dictionary-encoded Parquet columns) gets the table of the single in-memory call. Runs on
Dask's synchronous scheduler (no cluster): fast and deterministic.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

dask = pytest.importorskip("dask")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import dask.array as da
import dask.bag as db
import dask.dataframe as dd
import pandas as pd

import chanceclust as cc
from chanceclust import dask as ccd
from chanceclust._validation import POLICIES


@pytest.fixture
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def _same_table(got, a, b, **kw):
    expected = cc.contingency_table(a, b, sparse=True, **kw)
    sparse = got.to_sparse()
    assert sparse.shape == expected.shape
    assert (sparse != expected).nnz == 0
    assert got == cc.partial_table(a, b, **kw)


# --------------------------------------------------------------------------- dask: arguments


def test_summary_and_compute_must_be_booleans(synchronous):
    pair = (da.from_array(np.arange(6) % 2, chunks=3), da.from_array(np.arange(6) % 3, chunks=3))
    with pytest.raises(cc.InvalidInputError,
                       match=r"`summary` and `compute` must be True or False; got 'yes' and True\."):  # fmt: skip
        ccd.contingency_table(pair, summary="yes")
    with pytest.raises(cc.InvalidInputError, match=r"must be True or False; got False and 1\."):
        ccd.contingency_table(pair, compute=1)


def test_scheduler_must_be_an_address_and_needs_compute(synchronous):
    pair = (da.from_array(np.arange(6) % 2, chunks=3), da.from_array(np.arange(6) % 3, chunks=3))
    with pytest.raises(cc.InvalidInputError,
                       match=r"`scheduler` must be an address such as 'tcp://host:8786'; got "
                             r"8786\."):  # fmt: skip
        ccd.contingency_table(pair, scheduler=8786)
    # refused before any connection is tried: the address need not answer
    with pytest.raises(cc.InvalidInputError, match=r"`scheduler` needs compute=True"):
        ccd.contingency_table(pair, scheduler="tcp://127.0.0.1:9", compute=False)


@pytest.mark.parametrize("source", [42, (np.arange(3),), [1, 2, 3], None])
def test_source_neither_parquet_nor_a_pair(synchronous, source):
    with pytest.raises(cc.InvalidInputTypeError,
                       match=r"`source` must be a Parquet path, glob or URL, or a pair "
                             r"\(labels_true, labels_pred\) of dask arrays or dask Series; got"):  # fmt: skip
        ccd.contingency_table(source)


def test_source_pair_of_other_objects(synchronous):
    a = np.arange(6) % 2
    with pytest.raises(cc.InvalidInputTypeError,
                       match=r"`source` must hold two dask arrays or two dask Series; got "
                             r"ndarray and ndarray\."):  # fmt: skip
        ccd.contingency_table((a, a))
    with pytest.raises(cc.InvalidInputTypeError, match=r"got Array and list\."):
        ccd.contingency_table((da.from_array(a, chunks=3), a.tolist()))


def test_dask_arrays_must_be_one_dimensional(synchronous):
    flat = da.from_array(np.arange(6) % 2, chunks=3)
    square = da.from_array((np.arange(6) % 3).reshape(3, 2), chunks=2)
    for pair, shapes in (((square, flat), r"\(3, 2\) and \(6,\)"),
                         ((flat, square), r"\(6,\) and \(3, 2\)")):  # fmt: skip
        with pytest.raises(cc.InvalidInputError,
                           match=rf"the dask arrays of `source` must be 1-D \(one label per "
                                 rf"element\); got shapes {shapes}\."):  # fmt: skip
            ccd.contingency_table(pair)


def test_dask_arrays_of_unknown_chunk_sizes(synchronous):
    """Boolean indexing leaves the lengths unknown (nan): the error says so, and the arrays
    with their chunk sizes computed give the table (nan != nan once claimed 'lengths nan
    and nan' differ)."""
    a, b = np.arange(12) % 3, np.arange(12) % 4
    x = da.from_array(a, chunks=5)
    y = da.from_array(b, chunks=5)
    x, y = x[x >= 0], y[y >= 0]
    with pytest.raises(cc.InvalidInputError,
                       match=r"the dask arrays of `source` have unknown chunk sizes .*"
                             r"\.compute_chunk_sizes\(\)"):  # fmt: skip
        ccd.contingency_table((x, y))
    _same_table(ccd.contingency_table((x.compute_chunk_sizes(), y.compute_chunk_sizes())), a, b)


def test_dask_series_partitioned_differently(synchronous):
    s = pd.Series(np.arange(10))
    left = dd.from_pandas(s % 2, npartitions=2)
    with pytest.raises(cc.InvalidInputError,
                       match=r"the two dask Series of `source` must be partitioned alike "
                             r"\(columns of one dataframe\); got 2 and 3 partitions\."):  # fmt: skip
        ccd.contingency_table((left, dd.from_pandas(s % 3, npartitions=3)))
    # as many partitions, of other lengths (5, 5 against 3, 7): the chunk read first is named
    right = dd.from_pandas(s % 3, npartitions=2).repartition(divisions=[0, 3, 9])
    with pytest.raises(cc.InvalidInputError,
                       match=r"the two label collections of `source` must have the same length "
                             r"in every chunk; got 5 and (3 in chunk 0|7 in chunk 1)\."):  # fmt: skip
        ccd.contingency_table((left, right))


# --------------------------------------------------------------------------- dask: label types


def test_categorical_dask_series_are_their_labels(synchronous):
    """A categorical Series' labels are its values, not its codes (unused categories and
    missing values included)."""
    t = pd.Series(pd.Categorical([30, 10, None, 10, 30, 20, 20, 30], categories=[30, 20, 10, 5]))
    p = pd.Series(pd.Categorical(list("xyxyzzxy"), categories=["z", "y", "x"]))
    frame = dd.from_pandas(pd.DataFrame({"t": t, "p": p}), npartitions=3)
    with pytest.raises(cc.InvalidInputError, match=r"`labels_true` has 1 unassigned element"):
        ccd.contingency_table((frame["t"], frame["p"]))
    got = ccd.contingency_table((frame["t"], frame["p"]), unassigned="drop")
    assert got.labels_true.tolist() == [10, 20, 30]
    assert got.labels_pred.tolist() == ["x", "y", "z"]
    _same_table(got, [30, 10, None, 10, 30, 20, 20, 30], list("xyxyzzxy"), unassigned="drop")


def test_dask_bags_of_strings(synchronous):
    """Partitions that are lists (dask Bags) are read as lists are: each object its label."""
    a = ["a", "b", "a", "c", "b", "b", "a", "a\x00"]
    b = ["u", "u", "v", "v", "u", "w", "w", "u"]
    got = ccd.contingency_table((db.from_sequence(a, npartitions=3),
                                 db.from_sequence(b, npartitions=3)))  # fmt: skip
    assert got.labels_true.tolist() == ["a", "a\x00", "b", "c"]
    _same_table(got, a, b)


# --------------------------------------------------------------------------- dask: Parquet


def test_parquet_dictionary_columns_are_their_values(synchronous, tmp_path):
    """A pandas Categorical of strings written to Parquet comes back dictionary-encoded: its
    values are the labels."""
    t = pd.Categorical([3, 1, 1, 2, 3, 3, 2, 1, 1], categories=[3, 2, 1, 7])
    p = pd.Categorical(list("pqpqrrpqp"))
    path = tmp_path / "cat.parquet"
    pq.write_table(pa.Table.from_pandas(pd.DataFrame({"t": t, "p": p})), path, row_group_size=4)
    assert pa.types.is_dictionary(pq.ParquetFile(path).read_row_group(0).column("p").type)
    got = ccd.contingency_table(str(path), columns=("t", "p"))
    assert got.labels_true.tolist() == [1, 2, 3]
    assert got.labels_pred.tolist() == ["p", "q", "r"]
    _same_table(got, list(t), list(p))
    # with nulls (a Parquet null is unassigned): the dictionary column filtered, then decoded
    p = pd.Categorical(["p", None, "p", "q", "r", None, "p", "q", "p"])
    pq.write_table(pa.Table.from_pandas(pd.DataFrame({"t": t, "p": p})), path, row_group_size=4)
    got = ccd.contingency_table(str(path), columns=("t", "p"), unassigned="drop")
    _same_table(got, list(t), list(p), unassigned="drop")


def test_parquet_file_gone_between_plan_and_read(synchronous, tmp_path):
    """The footers were read when the graph was built; the file then vanished before the
    tasks read its row groups: the error names the file."""
    path = tmp_path / "part-0.parquet"
    pq.write_table(pa.table({"t": np.arange(8) % 3, "p": np.arange(8) % 2}), path)
    lazy = ccd.contingency_table(str(path), columns=("t", "p"), compute=False)
    os.remove(path)
    with pytest.raises(cc.InvalidFileError,
                       match=r"part-0\.parquet: not a readable Parquet file \("):  # fmt: skip
        lazy.compute()


def test_parquet_corrupt_data_pages_name_the_file(synchronous, tmp_path):
    """Footer intact, data pages damaged: the read of the row group fails naming the file."""
    path = tmp_path / "part-0.parquet"
    rng = np.random.default_rng(5)
    table = pa.table({"t": rng.integers(0, 10**6, 2000), "p": rng.integers(0, 10**6, 2000)})
    pq.write_table(table, path, compression="snappy", use_dictionary=False)
    data = bytearray(path.read_bytes())
    data[100:3000] = b"\xff" * 2900  # inside the first column chunk, far from the footer
    path.write_bytes(bytes(data))
    with pytest.raises(cc.InvalidFileError,
                       match=r"part-0\.parquet: not a readable Parquet file \("):  # fmt: skip
        ccd.contingency_table(str(path), columns=("t", "p"))


def test_tables_too_large_to_index_by_int64():
    """Reached through the public call only from ~9 x 10^8 rows under 'singletons' (each side
    K + N codes wide, K < 2^31): the plan refuses before any chunk is read."""
    with pytest.raises(cc.InvalidInputError,
                       match=r"tables of 3221225472 x 3221225472 possible clusters "
                             r"\(unassigned='singletons' with 1073741824 elements\) are too "
                             r"large to index by int64\."):  # fmt: skip
        ccd._plan([(0, 2**31 - 1), (5, 2**31 + 4)], POLICIES["singletons"], [2**29, 2**29])
    plan = ccd._plan([(0, 2**31 - 1), (0, 2**31 - 1)], POLICIES["cluster"], [2**29, 2**29])
    assert plan.widths == (2**31 + 1, 2**31 + 1)  # the widest ranges otherwise: fit


# --------------------------------------------------------------------------- allpairs


class _RemoteClient:
    """A Dask client whose one worker is another machine: ``run`` stats the driver's path
    where that file does not exist."""

    def __init__(self, elsewhere):
        self.elsewhere, self.scattered = elsewhere, 0

    def run(self, function, path):
        return {"tcp://w0": function(os.path.join(self.elsewhere, os.path.basename(path)))}

    def scatter(self, data, broadcast, hash):
        self.scattered += 1
        return data

    def scheduler_info(self):
        return {"workers": {"tcp://w0": {"nthreads": 2}}}


def test_workers_that_cannot_see_the_codes_file_get_a_copy(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(8)
    labels = [rng.integers(0, k, 200) for k in (2, 3, 5, 8)]
    client = _RemoteClient(str(tmp_path / "not-there"))
    with ThreadPoolExecutor(max_workers=2) as executor:
        executor._client = client
        got = cc.pairwise(labels, measure="ami", executor=executor)
    assert client.scattered == 1
    np.testing.assert_array_equal(got.values, cc.pairwise(labels, measure="ami").values)
