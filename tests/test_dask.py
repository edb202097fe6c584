"""chanceclust.dask on a LocalCluster of two worker processes (issue #12).

Generated Parquet datasets (several files, several row groups, an empty file,
a file with a single label, negative and gapped labels) must give exactly the
table of the concatenated labels, and through it every measure bit for bit:
ARI and AMI under every model and sidedness, E[MI], Var[RI]. The cases cover
each path of the module: dense per-chunk counts (small integer ranges),
sparse ones (wide ranges, the 10^6-label case scaled down), and factorized
labels (strings, 64-bit ids beyond 2^31 apart).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import dask.array as da
import dask.dataframe as dd
import pandas as pd

import chanceclust as cc
from chanceclust import dask as ccd
from chanceclust.variance import rand_index_variance

SETTINGS = [(m, s) for m in ("perm", "num", "all") for s in (False, True)]


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=2,
            processes=False,
            dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected


def _write(folder, a, b, files=3, group=700):
    """Split the labels over files and row groups; add an empty file."""
    folder.mkdir()
    edges = np.linspace(0, len(a), files + 1).astype(int)
    for f, (lo, hi) in enumerate(itertools.pairwise(edges)):
        table = pa.table({"truth": a[lo:hi], "pred": b[lo:hi], "other": np.zeros(hi - lo)})
        pq.write_table(table, folder / f"part-{f}.parquet", row_group_size=group)
    empty = pa.table({"truth": a[:0], "pred": b[:0], "other": np.zeros(0)})
    pq.write_table(empty, folder / "part-empty.parquet")
    return folder


def _datasets(root):
    rng = np.random.default_rng(12)
    n = 6000
    dense_a = rng.choice(np.array([-20, -3, 0, 4, 5, 30]), n)  # negative, gapped
    dense_a[:900] = 4  # the first file's first row group: a single label
    dense_b = rng.integers(0, 9, n)
    wide_a = rng.integers(0, 300_000, n)  # ~5,800 distinct labels: sparse per-chunk path
    wide_b = np.where(rng.random(n) < 0.7, wide_a // 3, rng.integers(0, 100_000, n)) + 10**12
    ids_a = rng.integers(0, 50, n) * 10**13  # 64-bit ids, range beyond 2^31: factorized
    names_b = np.array([f"community-{i}" for i in rng.integers(0, 40, n)], dtype=object)
    return {
        "dense": (_write(root / "dense", dense_a, dense_b), dense_a, dense_b),
        "wide": (_write(root / "wide", wide_a, wide_b), wide_a, wide_b),
        "strings": (_write(root / "strings", ids_a, names_b), ids_a, names_b),
    }


@pytest.fixture(scope="module")
def datasets(tmp_path_factory):
    return _datasets(tmp_path_factory.mktemp("parquet"))


def _same_table(table, a, b):
    got, expected = table.to_sparse(), cc.contingency_table(a, b, sparse=True)
    assert got.shape == expected.shape
    for name in ("data", "indices", "indptr"):
        np.testing.assert_array_equal(getattr(got, name), getattr(expected, name))


def test_local_scheduler_without_client(datasets):
    """Without a distributed client the local threaded scheduler runs the same graph.

    First in the file: the module's client fixture is not started yet.
    """
    folder, a, b = datasets["strings"]
    _same_table(ccd.contingency_table(folder, columns=("truth", "pred"), buckets=2), a, b)


@pytest.mark.parametrize("case", ["dense", "wide", "strings"])
def test_parquet_table_and_measures_bit_identical(client, datasets, case):
    folder, a, b = datasets[case]
    table = ccd.contingency_table(str(folder), columns=("truth", "pred"))
    assert table.n == len(a)
    _same_table(table, a, b)
    assert cc.adjusted_rand_index(contingency=table) == cc.adjusted_rand_index(a, b)
    for model, one_sided in SETTINGS:
        kw = {"model": model, "one_sided": one_sided}
        for func in (
            cc.adjusted_rand_index,
            cc.adjusted_mutual_information,
            cc.expected_mutual_information,
            rand_index_variance,
        ):
            assert func(contingency=table, **kw) == func(a, b, **kw), (func.__name__, kw)
    summary = ccd.contingency_table(str(folder / "*.parquet"), columns=("truth", "pred"),
                                    summary=True, buckets=3)  # fmt: skip
    assert summary == table.summary()


@pytest.mark.parametrize("buckets", [1, 2, 5])
def test_any_number_of_buckets_gives_the_same_table(client, datasets, buckets):
    """One tree or several row-range buckets: identical tables and summaries."""
    folder, a, b = datasets["wide"]
    table = ccd.contingency_table(str(folder), columns=("truth", "pred"), buckets=buckets)
    _same_table(table, a, b)
    summary = ccd.contingency_table(str(folder), columns=("truth", "pred"), buckets=buckets,
                                    summary=True)  # fmt: skip
    assert summary == table.summary()


def test_lazy_result_and_list_of_files(client, datasets):
    folder, a, b = datasets["dense"]
    files = sorted(str(p) for p in folder.glob("part-*.parquet"))
    lazy = ccd.contingency_table(files, columns=("truth", "pred"), compute=False)
    assert hasattr(lazy, "compute")
    _same_table(lazy.compute(), a, b)


def test_dask_arrays_and_dataframe_columns(client, datasets):
    _, a, b = datasets["wide"]
    table = ccd.contingency_table((da.from_array(a, chunks=1000), da.from_array(b, chunks=1500)))
    _same_table(table, a, b)
    frame = dd.from_pandas(pd.DataFrame({"x": a, "y": b.astype(str)}), npartitions=4)
    summary = ccd.contingency_table((frame["x"], frame["y"]), summary=True)
    assert summary == cc.partial_table(a, b.astype(str)).summary()


def test_errors_name_file_and_column(client, tmp_path, datasets):
    folder, _, _ = datasets["dense"]
    with pytest.raises(ValueError, match="`columns` must name the two label columns"):
        ccd.contingency_table(str(folder), columns="truth")
    with pytest.raises(ValueError, match=r"`columns` names 'nope', which .*part-0\.parquet"):
        ccd.contingency_table(str(folder), columns=("truth", "nope"))
    with pytest.raises(ValueError, match="matched no Parquet file"):
        ccd.contingency_table(str(tmp_path / "nothing-*.parquet"), columns=("a", "b"))
    with pytest.raises(ValueError, match="`columns` is for Parquet sources only"):
        ccd.contingency_table((da.zeros(3), da.zeros(3)), columns=("a", "b"))
    with pytest.raises(ValueError, match="same elements"):
        ccd.contingency_table((da.zeros(3), da.zeros(4)))
    with pytest.raises(ValueError, match="`buckets` must be a positive integer"):
        ccd.contingency_table(str(folder), columns=("truth", "pred"), buckets=0)
    nulls = tmp_path / "nulls.parquet"
    pq.write_table(pa.table({"t": [1, None, 2], "p": [0, 0, 1]}), nulls)
    with pytest.raises(cc.InvalidFileError, match=r"nulls.parquet: `labels_true` \(column 't'\) "
                       r"has 1 unassigned element\(s\), the first at position 1 \(row group 0, "
                       r"row 1\)"):  # fmt: skip
        ccd.contingency_table(str(nulls), columns=("t", "p"))
