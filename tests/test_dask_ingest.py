"""chanceclust.dask reads input as the single calls do (#20).

The same partition is written to Parquet over several files and row groups (or split into
dask collections) and compared with the in-memory single call on the concatenated labels:
the same value, or the same error. Runs on Dask's local threaded scheduler (no cluster).
"""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

pytest.importorskip("dask")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import dask.array as da
import dask.dataframe as dd
import pandas as pd

import chanceclust as cc
from chanceclust import dask as ccd

POLICIES = ("drop", "singletons", "cluster")


def _write(folder, columns, files=3, group=5):
    """Columns (name: pyarrow array or numpy array) over files and row groups."""
    folder.mkdir(parents=True, exist_ok=True)
    n = len(next(iter(columns.values())))
    edges = np.linspace(0, n, files + 1).astype(int)
    for f, (lo, hi) in enumerate(itertools.pairwise(edges)):
        table = pa.table({k: v[lo:hi] for k, v in columns.items()})
        pq.write_table(table, folder / f"part-{f}.parquet", row_group_size=group)
    return folder


def _same(table, a, b, **kw):
    """The Dask table gives the single calls' values (and table when no re-assignment)."""
    for f in (cc.adjusted_rand_index, cc.adjusted_mutual_information):
        assert f(contingency=table) == f(a, b, **kw), f.__name__
    if kw.get("unassigned", "raise") in ("raise", "drop"):
        got, expected = table.to_sparse(), cc.contingency_table(a, b, sparse=True, **kw)
        assert got.shape == expected.shape
        assert (got != expected).nnz == 0


def _labels(seed, n=40, missing=0.2):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 5, n).astype(float)
    b = rng.integers(0, 4, n).astype(float)
    a[rng.random(n) < missing] = np.nan
    b[rng.random(n) < missing / 2] = np.nan
    return a, b


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("seed", [0, 1])
def test_parquet_nan_and_nulls_follow_the_policy(tmp_path, policy, seed):
    """Spark's non-null NaN and Parquet nulls are unassigned, never a cluster."""
    a, b = _labels(seed)
    nulls = pa.array(np.where(np.isnan(b), 0, b).astype(np.int64), mask=np.isnan(b))
    folder = _write(tmp_path / "d", {"t": a, "p": nulls})
    got = ccd.contingency_table(str(folder), columns=("t", "p"), unassigned=policy)
    _same(got, a.tolist(), [None if np.isnan(x) else int(x) for x in b], unassigned=policy)
    summary = ccd.contingency_table(str(folder), columns=("t", "p"), unassigned=policy,
                                    summary=True)  # fmt: skip
    assert summary == got.summary()


def test_parquet_nan_under_raise_names_the_file(tmp_path):
    a, b = _labels(3)
    b[:] = np.nan_to_num(b)
    folder = _write(tmp_path / "d", {"t": a, "p": b})
    with pytest.raises(cc.InvalidInputError) as memory:
        cc.adjusted_rand_index(a, b)
    first = int(np.argmax(np.isnan(a)))
    with pytest.raises(cc.InvalidFileError, match=r"part-0\.parquet: `labels_true` \(column "
                       rf"'t'\) has {int(np.isnan(a).sum())} unassigned element\(s\), the first "
                       rf"at position {first} ") as dask_error:  # fmt: skip
        ccd.contingency_table(str(folder), columns=("t", "p"))
    assert f"has {int(np.isnan(a).sum())} unassigned element(s), the first at position {first}" \
        in str(memory.value)  # fmt: skip
    assert "unassigned='drop'" in str(dask_error.value)


def test_nat_labels_are_unassigned(tmp_path):
    when = np.array(["2020-01-01", "NaT", "2020-01-02", "2020-01-01", "NaT", "2021-05-05"] * 3,
                    dtype="datetime64[ns]")  # fmt: skip
    pred = np.arange(when.size) % 3
    # a non-null NaT (numpy's NaT as a timestamp value, not a Parquet null)
    folder = _write(tmp_path / "d", {"t": pa.array(when, from_pandas=False), "p": pred}, group=4)
    for policy in POLICIES:
        got = ccd.contingency_table(str(folder), columns=("t", "p"), unassigned=policy)
        _same(got, when, pred, unassigned=policy)


def test_unassigned_label_and_drop_every_element(tmp_path):
    a = np.array([-1, 0, 0, 1, 1, -1, 2, 2, -1, 0] * 2)
    b = np.array([0, 0, 1, 1, 2, 2, 0, 0, 1, 1] * 2)
    folder = _write(tmp_path / "d", {"t": a, "p": b})
    for policy in POLICIES:
        got = ccd.contingency_table(str(folder), columns=("t", "p"), unassigned_label=-1,
                                    unassigned=policy)  # fmt: skip
        _same(got, a, b, unassigned_label=-1, unassigned=policy)
    with pytest.raises(cc.InvalidInputError, match="unassigned_label=\\[-1\\]"):
        ccd.contingency_table(str(folder), columns=("t", "p"), unassigned_label=-1)
    every = _write(tmp_path / "all", {"t": np.full(10, -1), "p": np.arange(10)})
    # the single call's message (validation's one definition of the rule)
    with pytest.raises(cc.InvalidInputError, match="unassigned='drop' leaves no element to "
                                                   "compare: each of the 10 elements"):  # fmt: skip
        ccd.contingency_table(str(every), columns=("t", "p"), unassigned_label=-1,
                              unassigned="drop")  # fmt: skip
    with pytest.raises(cc.InvalidInputError, match="leaves no element to compare"):
        ccd.contingency_table((da.from_array(np.full(6, np.nan), chunks=4),
                               da.from_array(np.arange(6), chunks=4)), unassigned="drop")  # fmt: skip


def test_empty_dataset_is_the_in_memory_empty_table(tmp_path):
    folder = _write(tmp_path / "d", {"t": np.zeros(0, dtype=np.int64), "p": np.zeros(0)}, files=1)
    assert ccd.contingency_table(str(folder), columns=("t", "p")) == cc.partial_table([], [])


def test_pd_na_in_dask_collections(tmp_path):
    t = pd.Series([1, pd.NA, 2, 2, 1, pd.NA, 3, 3], dtype="Int64")
    p = pd.Series(["x", "y", None, "y", "x", "x", "z", "z"], dtype=object)
    frame = dd.from_pandas(pd.DataFrame({"t": t, "p": p}), npartitions=3)
    with pytest.raises(cc.InvalidInputError, match="unassigned element"):
        ccd.contingency_table((frame["t"], frame["p"]))
    for policy in POLICIES:
        got = ccd.contingency_table((frame["t"], frame["p"]), unassigned=policy)
        _same(got, t.tolist(), p.tolist(), unassigned=policy)


@pytest.mark.parametrize("wide", [False, True])
def test_uint64_ids_beyond_int64(tmp_path, wide):
    """Ids >= 2**63 (footer range or factorized) are exact: 2**63 + 1 and 2**63 stay apart."""
    rng = np.random.default_rng(7)
    ids = np.array([2**63, 2**63 + 1, 2**63 + 5, 2**64 - 1 if wide else 2**63 + 9], dtype=np.uint64)
    a = ids[rng.integers(0, 4, 30)]
    b = rng.integers(0, 3, 30)
    folder = _write(tmp_path / "d", {"t": a, "p": b})
    got = ccd.contingency_table(str(folder), columns=("t", "p"))
    assert sorted(int(x) for x in got.labels_true) == sorted({int(x) for x in a})
    _same(got, [int(x) for x in a], b)
    arrays = (da.from_array(a, chunks=7), da.from_array(b, chunks=7))
    assert ccd.contingency_table(arrays) == got


def test_int64_and_uint64_files_keep_distinct_ids(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    pq.write_table(pa.table({"t": np.array([2**62 + 1, 5, 5], dtype=np.int64), "p": [0, 1, 1]}),
                   folder / "a.parquet")  # fmt: skip
    pq.write_table(pa.table({"t": np.array([2**62, 2**63 + 3], dtype=np.uint64), "p": [0, 1]}),
                   folder / "b.parquet")  # fmt: skip
    got = ccd.contingency_table(str(folder), columns=("t", "p"))
    assert got.labels_true.tolist() == [5, 2**62, 2**62 + 1, 2**63 + 3]
    exact = np.empty(5, dtype=object)  # Python ints: a list would become float64 in numpy
    exact[:] = [2**62 + 1, 5, 5, 2**62, 2**63 + 3]
    _same(got, exact, [0, 1, 1, 0, 1])
    assert cc.adjusted_rand_index(contingency=got) == cc.adjusted_rand_index(
        ["p", "q", "q", "r", "s"], [0, 1, 1, 0, 1]
    )  # the same partition relabelled


def test_integers_in_one_file_strings_in_another(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    pq.write_table(pa.table({"t": [1, 2], "p": [0, 1]}), folder / "a.parquet")
    pq.write_table(pa.table({"t": ["1", "x"], "p": [0, 1]}), folder / "b.parquet")
    with pytest.raises(
        cc.InvalidInputError,
        match=r"number 1 in .*a\.parquet \(row group 0\), "
        r"column 't' and str '1' in .*b\.parquet \(row group 0\), column 't'",
    ):
        ccd.contingency_table(str(folder), columns=("t", "p"))


def test_corrupt_file_and_spark_markers(tmp_path):
    a, b = np.arange(20) % 4, np.arange(20) % 3
    folder = _write(tmp_path / "d", {"t": a, "p": b})
    for marker in ("_SUCCESS", "_committed_123", "_started_123", ".part-0.parquet.crc"):
        (folder / marker).write_bytes(b"\x00\x01garbage")
    (folder / "part-0.parquet.crc").write_bytes(b"crc")
    for source in (str(folder), str(folder / "*")):
        _same(ccd.contingency_table(source, columns=("t", "p")), a, b)
    (folder / "part-9.parquet").write_bytes(b"PAR1 this is not parquet")
    for source in (str(folder), str(folder / "*")):
        with pytest.raises(cc.InvalidFileError, match=r"part-9\.parquet: not a readable Parquet"):
            ccd.contingency_table(source, columns=("t", "p"))


def test_strings_with_nul_stay_distinct(tmp_path):
    a = np.array(["a", "a\x00", "a", "b", "a\x00", "b"], dtype=object)
    b = np.array([0, 0, 1, 1, 0, 1])
    folder = _write(tmp_path / "d", {"t": pa.array(a.tolist()), "p": b}, files=2, group=2)
    got = ccd.contingency_table(str(folder), columns=("t", "p"))
    assert got.labels_true.tolist() == ["a", "a\x00", "b"]
    _same(got, a.tolist(), b)


def test_unreachable_scheduler_fails_within_the_timeout(tmp_path):
    a = np.arange(10) % 2
    start = time.monotonic()
    with pytest.raises(cc.InvalidInputError, match=r"`scheduler` 'tcp://127\.0\.0\.1:9' did not "
                                                   r"answer within 0\.5 s"):  # fmt: skip
        ccd.contingency_table((da.from_array(a), da.from_array(a)),
                              scheduler="tcp://127.0.0.1:9", timeout=0.5)  # fmt: skip
    assert time.monotonic() - start < 8
    with pytest.raises(cc.InvalidInputError, match="`timeout` must be a positive number"):
        ccd.contingency_table((da.from_array(a), da.from_array(a)), scheduler="tcp://x:1",
                              timeout=0)  # fmt: skip


def test_scheduler_address_runs_there_and_closes_its_client(tmp_path):
    distributed = pytest.importorskip("distributed")
    a, b = np.arange(30) % 4, np.arange(30) % 3
    folder = _write(tmp_path / "d", {"t": a, "p": b})
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        got = ccd.contingency_table(str(folder), columns=("t", "p"),
                                    scheduler=cluster.scheduler_address, timeout=5)  # fmt: skip
        _same(got, a, b)
        with pytest.raises(ValueError, match=r"(?i)no clients found"):
            distributed.default_client()  # the call's own client is closed again


@pytest.mark.parametrize(("task_rows", "per_worker"), [(1, 1), (12, 1), (10**9, 1), (10**9, 50)])
@pytest.mark.parametrize("policy", ["raise", *POLICIES])
def test_any_batching_of_row_groups_gives_the_same_result(tmp_path, monkeypatch, task_rows,
                                                          per_worker, policy):  # fmt: skip
    """Row groups batched into tasks any way (one group per task, a few, all in one task):
    the same table, the same re-assigned singletons and the same first unassigned element
    (file, row group, row) as the single calls."""
    monkeypatch.setattr(ccd, "_TASK_ROWS", task_rows)
    monkeypatch.setattr(ccd, "_TASKS_PER_WORKER", per_worker)
    a, b = _labels(3, n=60)
    a[:17], a[17] = 1.0, np.nan  # the first unassigned: 4th row group of the first file
    folder = _write(tmp_path / "d", {"t": a, "p": b})
    if policy == "raise":
        with pytest.raises(cc.InvalidFileError, match=r"`labels_true` \(column 't'\) has \d+ "
                           r"unassigned element\(s\), the first at position 17 \(row group 3, "
                           r"row 2\)"):  # fmt: skip
            ccd.contingency_table(str(folder), columns=("t", "p"), scheduler=None)
        return
    got = ccd.contingency_table(str(folder), columns=("t", "p"), unassigned=policy)
    _same(got, a, b, unassigned=policy)
    lefts = da.from_array(a, chunks=7)
    rights = da.from_array(b, chunks=7)
    _same(ccd.contingency_table((lefts, rights), unassigned=policy), a, b, unassigned=policy)


def test_batches_of_consecutive_chunks():
    """About _TASKS_PER_WORKER tasks per worker, at most _TASK_ROWS rows each unless one chunk
    is larger; every chunk once, in order."""
    assert ccd._batches([10] * 8, 8, 1) == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert ccd._batches([10] * 8, 8, 4) == [[i] for i in range(8)]
    assert ccd._batches([5, 100, 5, 5], 4, 1) == [[0], [1], [2, 3]]
    unknown = ccd._batches(None, 10, 1)  # rows unknown: 4 tasks of 2 or 3 chunks
    assert [i for b in unknown for i in b] == list(range(10))
    assert sorted(len(b) for b in unknown) == [2, 2, 3, 3]
    assert ccd._batches([], 0, 3) == []
    rows = [3 * ccd._TASK_ROWS // 4] * 12  # more rows than 4 tasks of _TASK_ROWS can hold
    batches = ccd._batches(rows, 12, 1)
    assert [i for b in batches for i in b] == list(range(12))
    assert all(sum(rows[i] for i in b) <= ccd._TASK_ROWS for b in batches)


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64]
)
def test_integer_range_offsets_equal_the_chunk_encoding(tmp_path, monkeypatch, dtype):
    """Integer Parquet columns with no nulls and no unassigned_label are coded as offsets
    from the footers' minimum, no chunk dictionary (no _Encoded made); with an
    ``unassigned_label`` that occurs nowhere every chunk is encoded first: the same table,
    equal to the in-memory one, both sides of that switch, for signed, unsigned and ids
    beyond int64."""
    rng = np.random.default_rng(11)
    info = np.iinfo(dtype)
    base = 2**63 + 17 if dtype == np.uint64 else max(int(info.min), -100)
    a = (np.array(base, dtype=object) + rng.integers(0, 90, 200)).astype(dtype)
    b = (np.array(base, dtype=object) + rng.integers(0, 7, 200)).astype(dtype)
    folder = _write(tmp_path / "d", {"t": a, "p": b}, files=3, group=17)
    made = []
    real = ccd._Encoded

    class Counting(real):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(ccd, "_Encoded", Counting)
    fast = ccd.contingency_table(str(folder), columns=("t", "p"))
    assert not made  # the range coding: no chunk encoded
    absent = int(base) - 1 if dtype != np.uint64 else 5
    slow = ccd.contingency_table(str(folder), columns=("t", "p"), unassigned_label=absent)
    assert made  # every chunk read by the encoding
    assert fast == slow
    exact_a, exact_b = np.empty(200, dtype=object), np.empty(200, dtype=object)
    exact_a[:], exact_b[:] = [int(x) for x in a], [int(x) for x in b]
    _same(fast, exact_a, exact_b)


@pytest.mark.parametrize("sign", [1, -1])
def test_labels_folded_into_keys_on_both_sides_of_the_int64_bound(tmp_path, sign):
    """int64 labels far from 0 in a narrow range: where label_a * W_B + label_b stays inside
    int64 the keys are made from the labels themselves (less the shift low_a W_B + low_b),
    beyond it from each side's offsets; both give the in-memory table."""
    width_a, width_b = 90, 7  # the footers' ranges: [base, base + 89] and [base, base + 6]
    edge = (2**63 - 1 - (width_a - 1) * width_b - (width_b - 1)) // (width_b + 1)
    rng = np.random.default_rng(5)
    for base, folds in ((edge, True), (edge + 1, False)):
        a = sign * (base + rng.integers(0, width_a, 300))  # mirrored: the same |label|s
        b = sign * (base + rng.integers(0, width_b, 300))
        a[:2], b[:2] = sign * base + sign * np.array([[0, width_a - 1], [0, width_b - 1]])
        plan = ccd._Plan(((int(a.min()), int(a.max())), (int(b.min()), int(b.max()))),
                         (width_a, width_b), (width_a, width_b), "raise", [0], 300)  # fmt: skip
        shift = ccd._folded_shift(plan, [a.dtype, b.dtype])
        assert (shift is not None) == folds, base
        folder = _write(tmp_path / f"d{base}{sign}", {"t": a, "p": b}, files=2, group=40)
        _same(ccd.contingency_table(str(folder), columns=("t", "p")), a, b)


@pytest.mark.parametrize("k_pred", [12, 13])
def test_dense_partial_tallies_on_both_sides_of_the_rule(tmp_path, monkeypatch, k_pred):
    """Tasks return dense tallies (added up by the tree) where every task has at least as
    many rows as the table has cell keys (the one dense/sparse rule), else sorted cells:
    1200 rows a task against 100 x 12 and 100 x 13 keys. Both give the in-memory table."""
    assert ccd.dense_counting(1200, 1200)
    assert not ccd.dense_counting(1300, 1200)
    monkeypatch.setattr(ccd, "_worker_count", lambda: 1)
    monkeypatch.setattr(ccd, "_TASK_ROWS", 1200)
    rng = np.random.default_rng(8)
    a, b = rng.integers(0, 100, 4800), rng.integers(0, k_pred, 4800)
    a[:2], b[:2] = (0, 99), (0, k_pred - 1)
    folder = _write(tmp_path / "d", {"t": a, "p": b}, files=2, group=300)
    assert ccd._batches([300] * 16, 16, 1) == [[4 * t + i for i in range(4)] for t in range(4)]
    lazy = ccd.contingency_table(str(folder), columns=("t", "p"), compute=False)
    names = {str(key[0] if isinstance(key, tuple) else key) for key in lazy.__dask_graph__()}
    assert any(name.startswith("_tally_cells") for name in names) == (k_pred == 12)
    _same(lazy.compute(), a, b)
    summary = ccd.contingency_table(str(folder), columns=("t", "p"), summary=True)
    assert summary == cc.partial_table(a, b).summary()


@pytest.mark.parametrize("most", [0, 255, 256, 2**16, 2**32 - 1, 2**32])
def test_compact_tallies_hold_their_counts(most):
    """Tallies travel in the narrowest unsigned dtype that holds their largest count (int64
    from 2**32 on), and the merge adds them exactly in int64."""
    tally = np.array([most, 0, most // 3], dtype=np.int64)
    compact = ccd._compact(tally, most)
    np.testing.assert_array_equal(compact.astype(np.int64), tally)
    assert compact.dtype.itemsize == (1 if most < 2**8 else 2 if most < 2**16
                                      else 4 if most < 2**32 else 8)  # fmt: skip
    merged = ccd._merge_tallies(compact, compact, ccd._compact(tally[::-1].copy(), most))
    np.testing.assert_array_equal(merged.astype(np.int64), 2 * tally + tally[::-1])
