"""All-pairs matrices (chanceclust.pairwise, issue #12).

``pairwise`` must equal the loop of single calls exactly (``==``): serially,
through a process pool, a thread pool and a Dask client, for every measure,
model, sidedness and the cross matrix; tasks must not carry the labels.
"""

from __future__ import annotations

import pickle
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

import chanceclust as cc
from chanceclust import PairwiseResult, pairwise
from chanceclust._registry import MEASURES

#: The public single-pair function of every measure (the registry's).
SINGLE = {name: measure.function for name, measure in MEASURES.items()}
#: The measures under a random model.
MODEL_MEASURES = tuple(name for name, measure in MEASURES.items() if measure.uses_model)


def _clusterings(m: int = 6, n: int = 300, seed: int = 0) -> list[np.ndarray]:
    """Clusterings with K from 1 to N: dense and sparse tables, degenerate cases."""
    rng = np.random.default_rng(seed)
    ks = [1, 2, 5, 40, n // 2, n][:m]
    out = [rng.integers(0, k, n) for k in ks]
    out[-1] = rng.permutation(n)  # all singletons
    return out


def _options(measure: str, model: str, one_sided: bool, method: str) -> dict:
    kw = {}
    if measure in MODEL_MEASURES:
        kw.update(model=model, one_sided=one_sided)
    if measure in ("ami", "nmi"):
        kw["average_method"] = method
    return kw


def _loop(rows, cols, measure, kw, symmetric):
    """The matrix built by single calls (i <= j mirrored when symmetric)."""
    func = SINGLE[measure]
    out = np.empty((len(rows), len(cols)))
    for i, a in enumerate(rows):
        for j, b in enumerate(cols):
            out[i, j] = out[j, i] if symmetric and j < i else func(a, b, **kw)
    return out


@pytest.mark.parametrize("measure", list(MEASURES))
@pytest.mark.parametrize(("model", "one_sided"), [("perm", False), ("num", False), ("num", True),
                                                  ("all", False), ("all", True)])  # fmt: skip
def test_serial_equals_loop_of_single_calls(measure, model, one_sided):
    # Exact Var[MI] at N = 300 costs seconds per pair (and is not implemented under num with
    # small clusters beyond N = 60): SMI on 16 elements, K from 1 to N.
    labels = _clusterings(n=16) if measure == "smi" else _clusterings()
    method = "max" if measure in ("ami", "nmi") and model == "num" else "arithmetic"
    kw = _options(measure, model, one_sided, method)
    got = pairwise(labels, measure=measure, model=model, one_sided=one_sided,
                   average_method=method)  # fmt: skip
    symmetric = MEASURES[measure].symmetric(one_sided, method)
    expected = _loop(labels, labels, measure, kw, symmetric)
    np.testing.assert_array_equal(got.values, expected)
    assert got.measure == measure
    if measure in MODEL_MEASURES:
        assert (got.model, got.one_sided) == (model, one_sided)
    else:
        assert (got.model, got.one_sided) == (None, False)


@pytest.mark.parametrize("one_sided", [False, True])
def test_cross_matrix_equals_loop(one_sided):
    """other= gives the M x M' matrix, rows the references."""
    labels = _clusterings()
    kw = {"model": "num", "one_sided": one_sided}
    got = pairwise(labels[:2], labels[2:], measure="ami", **kw)
    assert got.shape == (2, 4)
    np.testing.assert_array_equal(got.values, _loop(labels[:2], labels[2:], "ami", kw, False))


@pytest.mark.parametrize("model", ["perm", "num", "all"])
def test_process_pool_equals_serial(model):
    labels = _clusterings(n=400, seed=1)
    expected = pairwise(labels, measure="ami", model=model)
    with ProcessPoolExecutor(2) as executor:
        got = pairwise(labels, measure="ami", model=model, executor=executor, block_size=3)
        cross = pairwise(labels[:3], labels, measure="ari", model=model, one_sided=True,
                         executor=executor)  # fmt: skip
    np.testing.assert_array_equal(got.values, expected.values)
    np.testing.assert_array_equal(
        cross.values,
        pairwise(labels[:3], labels, measure="ari", model=model, one_sided=True).values,
    )


def test_thread_pool_equals_serial():
    labels = _clusterings(seed=2)
    expected = pairwise(labels, measure="ami", model="perm", one_sided=True)
    with ThreadPoolExecutor(3) as executor:
        got = pairwise(labels, measure="ami", one_sided=True, executor=executor, block_size=2)
    np.testing.assert_array_equal(got.values, expected.values)


class _RecordingExecutor:
    """Runs tasks inline and records the pickled size of each task's arguments."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self._max_workers = 2

    def submit(self, fn, *args, **kwargs):
        self.sizes.append(len(pickle.dumps((fn, args, kwargs))))
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_tasks_do_not_carry_the_labels():
    """Each task carries its pair indices and a file name, never the N codes."""
    labels = _clusterings(n=50_000, seed=3)
    executor = _RecordingExecutor()
    got = pairwise(labels, measure="ami", model="num", executor=executor, block_size=4)
    np.testing.assert_array_equal(got.values, pairwise(labels, measure="ami", model="num").values)
    assert len(executor.sizes) > 3
    assert max(executor.sizes) < 5_000  # the codes alone are 6 x 50,000 x 4 bytes


def test_names_frame_and_repr():
    runs = {"seed1": [0, 0, 1, 1], "seed2": [0, 1, 1, 1], "seed3": [1, 1, 0, 0]}
    result = pairwise(runs, measure="nmi", average_method="sqrt")
    assert isinstance(result, PairwiseResult)
    assert result.names == result.other_names == ("seed1", "seed2", "seed3")
    assert result.average_method == "geometric"
    assert result.model is None
    frame = result.to_frame()
    assert list(frame.index) == list(frame.columns) == ["seed1", "seed2", "seed3"]
    assert frame.loc["seed1", "seed3"] == 1.0
    assert np.asarray(result).shape == (3, 3)
    assert "nmi" in repr(result)
    assert pairwise([[0, 1]]).values.tolist() == [[1.0]]
    assert pairwise([]).shape == (0, 0)


def test_errors_name_the_argument():
    with pytest.raises(ValueError, match="`measure` must be one of"):
        pairwise([[0, 1]], measure="auc")
    # the single calls' message, naming both clusterings (#20: one ingestion path)
    with pytest.raises(ValueError, match=r"`clusterings\[0\]` and `clusterings\[1\]` must label "
                       r"the same elements; got lengths 3 and 2"):
        pairwise([[0, 1, 1], [0, 1]])
    with pytest.raises(ValueError, match=r"`clusterings\[0\]` and `other\[x\]` must label the "
                       r"same elements; got lengths 2 and 3"):
        pairwise([[0, 1]], {"x": [0, 1, 2]})
    with pytest.raises(ValueError, match=r"`executor` must be a concurrent\.futures\.Executor"):
        pairwise([[0, 1]], executor=4)
    with pytest.raises(ValueError, match="`block_size` must be a positive integer"):
        pairwise([[0, 1]], block_size=0)
    with pytest.raises(ValueError, match="`clusterings` must be a sequence or mapping"):
        pairwise("abc")
    with pytest.raises(ValueError, match="`model` must be one of"):
        pairwise([[0, 1]], model="perm1")


@pytest.mark.slow
def test_dask_client_executor_equals_serial():
    """Through a LocalCluster of two worker processes: the same matrix, bit for bit."""
    distributed = pytest.importorskip("distributed")
    labels = _clusterings(n=400, seed=4)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        for model in ("perm", "num"):
            got = pairwise(labels, measure="ami", model=model, executor=executor)
            expected = pairwise(labels, measure="ami", model=model)
            np.testing.assert_array_equal(got.values, expected.values)


# ----------------------------------------------------------------------------- #20, #21 inputs


def _single_matrix(items, measure, **kwargs):
    """The loop of single calls (the reference every pairwise value must equal)."""
    single = SINGLE[measure]
    return np.array([[single(a, b, **kwargs) for b in items] for a in items])


def test_keyed_dicts_are_matched_by_key():
    """#20's example: two dicts in different key orders give the single call's -0.5, not 1.0."""
    first = {"e1": 0, "e2": 0, "e3": 1, "e4": 1}
    second = {"e1": 0, "e3": 0, "e2": 1, "e4": 1}
    assert cc.adjusted_rand_index(first, second) == -0.5
    got = pairwise([first, second], measure="ari").values
    assert got.tolist() == [[1.0, -0.5], [-0.5, 1.0]]


def test_keyed_series_communities_and_cross_matrix_match_single_calls():
    pd = pytest.importorskip("pandas")
    s1 = pd.Series([0, 0, 1, 1], index=list("abcd"))
    s2 = pd.Series([0, 0, 1, 1], index=list("acbd"))
    communities = [{"a", "d"}, {"b", "c"}]
    items = [s1, s2, communities]
    for measure in ("ari", "ami", "nmi", "vi"):
        np.testing.assert_array_equal(pairwise(items, measure=measure).values,
                                      _single_matrix(items, measure))
    cross = pairwise([s1], {"x": s2, "y": communities}, measure="ari").values
    assert cross.tolist() == [[cc.adjusted_rand_index(s1, s2),
                               cc.adjusted_rand_index(s1, communities)]]
    # a hand-built table: s1 = {a,b},{c,d}; s2 = {a,c},{b,d}: every cell 1, ARI -0.5
    assert cross[0, 0] == -0.5


def test_different_key_sets_are_refused_unless_the_policy_says():
    first = {"a": 0, "b": 0, "c": 1, "d": 1}
    second = {"a": 0, "b": 0, "c": 1, "e": 1}
    with pytest.raises(ValueError, match=r"`clusterings\[0\]` has 1 unassigned element\(s\), "
                       r"element\(s\) 'e'.*absent from one of two keyed inputs"):
        pairwise([first, second], measure="ari")
    third = {"a": 0, "b": 1, "c": 1, "d": 0, "f": 2}
    items = [first, second, third]
    for policy in ("drop", "singletons", "cluster"):
        for measure, model in (("ari", "perm"), ("ami", "num"), ("ami", "all"), ("vi", "perm")):
            got = pairwise(items, measure=measure, model=model, unassigned=policy).values
            expected = _single_matrix(items, measure, unassigned=policy,
                                      **({} if measure == "vi" else {"model": model}))
            np.testing.assert_array_equal(got, expected, err_msg=f"{policy} {measure} {model}")


def test_unassigned_policy_per_pair_equals_single_calls():
    """#21: pairwise takes unassigned/unassigned_label; under drop N differs by pair."""
    rng = np.random.default_rng(7)
    items = [rng.integers(-1, 4, 60) for _ in range(4)]
    with pytest.raises(ValueError, match=r"`clusterings\[0\]` has \d+ unassigned element"):
        pairwise(items, measure="ari", unassigned_label=-1)
    for policy in ("drop", "singletons", "cluster"):
        for measure, kwargs in (("ari", {"model": "perm"}), ("ami", {"model": "num"}),
                                ("ami", {"model": "all", "one_sided": True}),
                                ("nmi", {"average_method": "true"}), ("fmi", {})):
            got = pairwise(items, measure=measure, unassigned_label=-1, unassigned=policy,
                           **kwargs).values
            expected = _single_matrix(items, measure, unassigned_label=-1, unassigned=policy,
                                      **kwargs)
            np.testing.assert_array_equal(got, expected, err_msg=f"{policy} {measure} {kwargs}")
    # drop: the pair (0, 1) keeps the elements assigned in both, by hand
    keep = (items[0] >= 0) & (items[1] >= 0)
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    got = pairwise(items, measure="ari", unassigned_label=-1, unassigned="drop").values[0, 1]
    assert got == pytest.approx(
        sklearn_metrics.adjusted_rand_score(items[0][keep], items[1][keep]), abs=1e-12)


def test_unassigned_pairs_through_executors_equal_serial():
    rng = np.random.default_rng(8)
    items = {f"r{i}": np.where(rng.random(80) < 0.1, np.nan, rng.integers(0, 5, 80))
             for i in range(4)}
    expected = pairwise(items, measure="ami", model="num", unassigned="drop")
    with ThreadPoolExecutor(2) as pool:
        got = pairwise(items, measure="ami", model="num", unassigned="drop", executor=pool,
                       block_size=3)
    np.testing.assert_array_equal(got.values, expected.values)
    with ProcessPoolExecutor(2) as pool:
        got = pairwise(items, measure="ami", model="num", unassigned="drop", executor=pool)
    np.testing.assert_array_equal(got.values, expected.values)


def test_drop_of_every_element_of_a_pair_is_an_error():
    items = [[-1, -1, 0, 0], [0, 1, -1, -1]]
    with pytest.raises(ValueError, match=r"leaves no element to compare: each of the 4 elements "
                       r"is unassigned in `clusterings\[0\]` or `clusterings\[1\]`"):
        pairwise(items, measure="ari", unassigned_label=-1, unassigned="drop")


def test_dataframe_columns_are_the_clusterings():
    """#21: pairwise(adata.obs[cols]) works, its columns named."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"leiden_0.5": [0, 0, 1, 1, 2, 2], "leiden_1": ["a", "a", "b", "c", "c", "c"],
                          "truth": pd.Categorical(["x", "x", "y", "y", "z", None])},
                         index=[f"cell{i}" for i in range(6)])
    result = pairwise(frame, measure="ari", unassigned="drop")
    assert result.names == ("leiden_0.5", "leiden_1", "truth")
    columns = [frame[c] for c in frame.columns]
    np.testing.assert_array_equal(result.values,
                                  _single_matrix(columns, "ari", unassigned="drop"))
    assert pairwise(frame, frame[["truth"]], measure="ari", unassigned="drop").other_names == (
        "truth",)


def test_refusals_are_brief():
    pd = pytest.importorskip("pandas")
    big = pd.Series(range(10_000))
    with pytest.raises(ValueError, match="must be a sequence or mapping of labelings") as info:
        pairwise(big.groupby(big % 3))
    assert len(str(info.value)) < 300
    frame = pd.DataFrame({f"c{i}": range(10_000) for i in range(30)})
    with pytest.raises(TypeError, match=r"`clusterings\[0\]` is a pandas DataFrame") as info:
        pairwise([frame, frame])
    assert len(str(info.value)) < 300
    with pytest.raises(ValueError, match=r"`clusterings\[1\]` must be 1-D") as info:
        pairwise([[0, 1], np.zeros((2, 2))])
    assert len(str(info.value)) < 300


def test_to_frame_without_pandas_says_what_to_install(monkeypatch):
    import sys

    result = pairwise([[0, 1]], measure="ari")
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r'pip install "chanceclust\[pandas\]"'):
        result.to_frame()
