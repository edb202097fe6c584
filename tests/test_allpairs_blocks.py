"""pairwise's tasks sized to the workers (issue #23), and its values on sizes that the
E[MI] engine treats specially (equal sizes, a giant cluster) equal to the single calls."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chanceclust as cc
from chanceclust.allpairs import _TASKS_PER_WORKER, _n_workers, _tasks


@given(st.integers(0, 3000), st.integers(1, 64))
def test_tasks_of_single_pairs_are_equal_and_interleaved(total, count):
    parts = _tasks(np.arange(total, dtype=np.int64), count)
    assert len(parts) == min(total, count)
    covered = np.sort(np.concatenate(parts)) if parts else np.empty(0)
    np.testing.assert_array_equal(covered, np.arange(total))
    lengths = [p.size for p in parts]
    assert not lengths or (min(lengths) >= 1 and max(lengths) - min(lengths) <= 1)
    for p in parts:  # dealt in turn: consecutive items of a task are `count` apart
        assert np.all(np.diff(p) == len(parts))


@given(st.lists(st.integers(0, 40), max_size=400), st.integers(1, 20))
def test_tasks_keep_each_group_whole_and_balanced(labels, count):
    groups = np.unique(np.array(labels, dtype=np.int64), return_inverse=True)[1].ravel()
    parts = _tasks(groups, count)
    covered = np.sort(np.concatenate(parts)) if parts else np.empty(0)
    np.testing.assert_array_equal(covered, np.arange(len(labels)))
    owner = {}
    for t, p in enumerate(parts):
        assert np.all(np.diff(p) > 0)  # ascending within a task
        for g in set(groups[p].tolist()):
            assert owner.setdefault(g, t) == t  # a group never splits
    if parts:
        sizes = [p.size for p in parts]
        assert max(sizes) - min(sizes) <= np.bincount(groups).max()
        assert len(parts) == min(count, len(set(labels)))


class _FakeClient:
    """What _n_workers reads of a distributed.Client."""

    def __init__(self, threads):
        self._threads = threads

    def scatter(self, *args, **kwargs):  # pragma: no cover - never called here
        raise AssertionError

    def scheduler_info(self):
        return {"workers": {f"tcp://w{i}": {"nthreads": t} for i, t in enumerate(self._threads)}}


class _FakeDaskExecutor:
    def __init__(self, threads):
        self._client = _FakeClient(threads)


def test_n_workers_counts_pool_workers_and_dask_threads():
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert _n_workers(pool) == 3
    assert _n_workers(_FakeDaskExecutor([2, 3, 1])) == 6
    assert _n_workers(_FakeDaskExecutor([])) == 1


class _Counting(ThreadPoolExecutor):
    def __init__(self, max_workers):
        super().__init__(max_workers=max_workers)
        self.tasks = 0

    def submit(self, *args, **kwargs):
        self.tasks += 1
        return super().submit(*args, **kwargs)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_pairwise_submits_a_few_tasks_per_worker(workers):
    rng = np.random.default_rng(1)
    labels = [rng.integers(0, k, 200) for k in (2, 3, 5, 8, 13, 21, 34)]  # 28 pairs
    with _Counting(workers) as executor:
        got = cc.pairwise(labels, measure="ari", executor=executor)
    assert executor.tasks == min(28, _TASKS_PER_WORKER * workers)
    np.testing.assert_array_equal(got.values, cc.pairwise(labels, measure="ari").values)


def _shuffled(sizes, seed):
    labels = np.repeat(np.arange(len(sizes)), sizes)
    np.random.default_rng(seed).shuffle(labels)
    return labels


def test_equal_sizes_and_a_giant_cluster_equal_the_single_calls():
    """Clusterings sharing sizes (all equal; equal but for one giant cluster; a giant cluster
    against singletons), so that the same size pairs recur across pairs: each value is the
    single call's, bit for bit, serially and through a pool."""
    n = 6000
    sizes = [
        [n // 4] * 4,  # equal sizes
        [n // 100] * 100,
        [n - 300] + [10] * 30,  # a giant cluster, the rest equal
        [n - 300] + [1] * 300,  # a giant cluster and singletons
        [n - 2999] + list(range(1, 76)) + [149] * 1,  # giant + a stair of distinct sizes
        [n // 2, n // 2],
    ]
    labels = [_shuffled(np.array(s), seed) for seed, s in enumerate(sizes)]
    assert all(len(x) == n for x in labels)
    labels.append(labels[2].copy())  # a clustering twice: identical size laws
    for model in ("perm", "num"):
        expected = np.array(
            [[cc.adjusted_mutual_information(a, b, model=model) for b in labels] for a in labels]
        )
        np.testing.assert_array_equal(cc.pairwise(labels, model=model).values, expected)
        with ThreadPoolExecutor(max_workers=2) as pool:
            got = cc.pairwise(labels, model=model, executor=pool)
        np.testing.assert_array_equal(got.values, expected)


def test_expected_mi_computed_once_per_distinct_pair_of_laws(monkeypatch):
    """E[MI] is shared between pairs of equal size laws (either orientation): counted calls
    (of the single call's function, and laws in the batched calls of perm's kernel)."""
    from chanceclust import allpairs

    calls = []
    original, rows = allpairs._expected_mutual_information, allpairs.expected_mi_of_law_rows

    def counted(*sides):
        calls.append(sides)
        return original(*sides)

    def counted_rows(law, laws):
        calls.extend((law, other) for other in laws)
        return rows(law, laws)

    monkeypatch.setattr(allpairs, "_expected_mutual_information", counted)
    monkeypatch.setattr(allpairs, "expected_mi_of_law_rows", counted_rows)
    n = 1200
    equal = [_shuffled(np.array([n // 3] * 3), seed) for seed in range(3)]  # one law
    giant = [_shuffled(np.array([n - 100] + [10] * 10), seed) for seed in (7, 8)]  # another
    labels = equal + giant
    got = cc.pairwise(labels, measure="ami").values
    # Distinct unordered pairs of laws: (equal, equal), (equal, giant), (giant, giant).
    assert len(calls) == 3
    monkeypatch.undo()
    expected = np.array([[cc.adjusted_mutual_information(a, b) for b in labels] for a in labels])
    np.testing.assert_array_equal(got, expected)
    cross = cc.pairwise(giant, equal, measure="ami", one_sided=True).values
    np.testing.assert_array_equal(cross, np.array(
        [[cc.adjusted_mutual_information(a, b, one_sided=True) for b in equal] for a in giant]
    ))  # fmt: skip


class _SeeingClient:
    """A Dask client as _run uses it: ``run`` on every worker, ``scatter`` to every worker;
    its workers see this process's files (a LocalCluster) or none (other machines)."""

    def __init__(self, sees_files):
        self.sees_files, self.scattered = sees_files, 0

    def run(self, function, *args):
        return {"tcp://w0": function(*args) if self.sees_files else None}

    def scatter(self, data, broadcast, hash):
        self.scattered += 1
        return data  # the workers' copy: here the array itself

    def scheduler_info(self):
        return {"workers": {"tcp://w0": {"nthreads": 2}}}


class _DaskLikeExecutor(ThreadPoolExecutor):
    def __init__(self, client):
        super().__init__(max_workers=2)
        self._client = client


@pytest.mark.parametrize("sees_files", [True, False])
@pytest.mark.parametrize("model", ["perm", "num"])
def test_codes_reach_dask_workers_by_file_or_by_scatter(sees_files, model):
    """Workers that see the driver's file of codes map it (no copy sent); others get one
    scattered copy: the same matrix as the serial one either way."""
    rng = np.random.default_rng(3)
    labels = [rng.integers(0, k, 300) for k in (2, 4, 7, 11, 19)]
    client = _SeeingClient(sees_files)
    with _DaskLikeExecutor(client) as executor:
        got = cc.pairwise(labels, model=model, executor=executor)
    assert client.scattered == (0 if sees_files else 1)
    np.testing.assert_array_equal(got.values, cc.pairwise(labels, model=model).values)
