"""Bad input raises ValueError naming the argument and what it got; good input is never altered.

Every public function that takes labels is checked in a loop (``LABEL_FUNCTIONS``),
so a new function gets the same checks by joining the list.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from chanceclust import (
    adjusted_mutual_information,
    adjusted_rand_index,
    compare,
    contingency_table,
    entropy,
    expected_mutual_information,
    expected_mutual_information_baseline,
    expected_rand_index,
    expected_rand_index_baseline,
    fowlkes_mallows_index,
    jaccard_index,
    mutual_information,
    normalized_mutual_information,
    pair_counts,
    rand_index,
    variation_of_information,
)

# Functions of (labels_true, labels_pred).
LABEL_FUNCTIONS = [
    rand_index,
    adjusted_rand_index,
    mutual_information,
    normalized_mutual_information,
    adjusted_mutual_information,
    fowlkes_mallows_index,
    jaccard_index,
    variation_of_information,
    expected_rand_index,
    expected_mutual_information,
    contingency_table,
    pair_counts,
    compare,
]
# Those that also accept contingency=.
TABLE_FUNCTIONS = [f for f in LABEL_FUNCTIONS if f is not contingency_table]
MODEL_FUNCTIONS = [
    adjusted_rand_index,
    adjusted_mutual_information,
    expected_rand_index,
    expected_mutual_information,
]
BASELINES = [expected_rand_index_baseline, expected_mutual_information_baseline]
AVERAGE_FUNCTIONS = [normalized_mutual_information, adjusted_mutual_information]

GOOD = [0, 0, 1, 1]


def ids(functions):
    return [f.__name__ for f in functions]


def raises(*parts: str):
    """pytest.raises(ValueError) whose message contains every part, in order."""
    return pytest.raises(ValueError, match=".*".join(re.escape(p) for p in parts))


# --------------------------------------------------------------------------- labels


@pytest.mark.parametrize("func", LABEL_FUNCTIONS, ids=ids(LABEL_FUNCTIONS))
def test_lengths_differ(func):
    """Labelings of different lengths: both argument names and both lengths."""
    with raises("`labels_true` and `labels_pred`", "lengths 4 and 3"):
        func(GOOD, [0, 1, 1])


@pytest.mark.parametrize("func", LABEL_FUNCTIONS, ids=ids(LABEL_FUNCTIONS))
@pytest.mark.parametrize("side", ["labels_true", "labels_pred"])
def test_two_dimensional_labels(func, side):
    """2-D labels: the argument and the shape it got."""
    bad = np.zeros((2, 2), dtype=int)
    args = (bad, GOOD) if side == "labels_true" else (GOOD, bad)
    with raises(f"`{side}` must be 1-D", "(2, 2)"):
        func(*args)


@pytest.mark.parametrize("func", LABEL_FUNCTIONS, ids=ids(LABEL_FUNCTIONS))
@pytest.mark.parametrize("scalar", [5, 2.5, "abcd"], ids=["int", "float", "str"])
def test_scalar_labels(func, scalar):
    """A scalar (or a bare string) is not a sequence of labels: name it and echo it."""
    with raises("`labels_pred` must be a 1-D sequence", repr(scalar)):
        func(GOOD, scalar)


@pytest.mark.parametrize("func", LABEL_FUNCTIONS, ids=ids(LABEL_FUNCTIONS))
@pytest.mark.parametrize(
    "bad",
    [
        [0, 1, float("nan"), 1],
        np.array([0.0, 1.0, np.nan, 1.0]),
        [0, 1, None, 1],
        np.array(["a", "b", None, "b"], dtype=object),
        pd.Series([0.0, 1.0, np.nan, 1.0]),
        pd.Series(["a", "b", None, "b"]),
        pd.Categorical(["a", "b", None, "b"]),
        pd.Series(["a", "b", None, "b"], dtype="category"),
    ],
    ids=[
        "list_nan",
        "float_nan",
        "list_none",
        "object_none",
        "series_nan",
        "series_none",
        "categorical",
        "series_category",
    ],
)
def test_missing_labels_report_position(func, bad):
    """NaN and None are unassigned, not a cluster: by default an error with the count, the
    position and the three other policies (#11)."""
    with raises("`labels_true` has 1 unassigned element(s)", "position 2", "unassigned='drop'",
                "'singletons'", "'cluster'"):
        func(bad, GOOD)
    with raises("`labels_pred` has 1 unassigned element(s)", "position 2"):
        func(GOOD, bad)


def test_entropy_validates_its_labels():
    """entropy() names its own argument, ``labels``."""
    with raises("`labels` has 1 unassigned element(s)", "position 1"):
        entropy([0, None])
    with raises("`labels` must be 1-D", "(1, 2)"):
        entropy(np.zeros((1, 2)))
    with raises("`labels` must be a 1-D sequence", "3"):
        entropy(3)


@pytest.mark.parametrize("func", LABEL_FUNCTIONS, ids=ids(LABEL_FUNCTIONS))
def test_unhashable_labels(func):
    """Lists inside an object array cannot be labels."""
    bad = np.empty(4, dtype=object)
    bad[:] = [[0], [0], [1], [1]]
    with raises("`labels_true` must hold hashable labels", "list", "position 0"):
        func(bad, GOOD)


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("func", MODEL_FUNCTIONS + BASELINES, ids=ids(MODEL_FUNCTIONS + BASELINES))
@pytest.mark.parametrize("model", ["nums", "PERM", None, 1])
def test_unknown_model(func, model):
    """model must be one of the three names; the message lists them and echoes the value."""
    args = (GOOD, GOOD) if func in MODEL_FUNCTIONS else (4,)
    with raises("`model` must be one of 'perm', 'num', 'all'", f"got {model!r}"):
        func(*args, model=model)


@pytest.mark.parametrize("func", MODEL_FUNCTIONS + BASELINES, ids=ids(MODEL_FUNCTIONS + BASELINES))
@pytest.mark.parametrize("one_sided", [1, 0, "yes", None, "False"])
def test_one_sided_must_be_bool(func, one_sided):
    """one_sided is a flag: 1, "yes" or "False" are refused rather than guessed."""
    args = (GOOD, GOOD) if func in MODEL_FUNCTIONS else (4,)
    with raises("`one_sided` must be True or False", f"got {one_sided!r}"):
        func(*args, model="all", one_sided=one_sided)


def test_numpy_bool_one_sided_is_accepted():
    """np.bool_ is a boolean (e.g. from an array of flags)."""
    assert adjusted_rand_index(GOOD, [0, 1, 1, 1], model="num", one_sided=np.True_) == (
        adjusted_rand_index(GOOD, [0, 1, 1, 1], model="num", one_sided=True)
    )


@pytest.mark.parametrize("func", AVERAGE_FUNCTIONS, ids=ids(AVERAGE_FUNCTIONS))
@pytest.mark.parametrize("method", ["arith", "Geometric", "mean", None, 2])
def test_unknown_average_method(func, method):
    """average_method: the four names and two aliases are listed, the value echoed."""
    with raises("`average_method` must be one of", "'sqrt'", "'sum'", f"got {method!r}"):
        func(GOOD, GOOD, average_method=method)


@pytest.mark.parametrize("func", AVERAGE_FUNCTIONS, ids=ids(AVERAGE_FUNCTIONS))
@pytest.mark.parametrize(("alias", "name"), [("sqrt", "geometric"), ("sum", "arithmetic")])
def test_average_method_aliases(func, alias, name):
    """The paper's names are aliases, not new methods."""
    a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    assert func(a, b, average_method=alias) == func(a, b, average_method=name)


# --------------------------------------------------------------------------- contingency


@pytest.mark.parametrize("func", TABLE_FUNCTIONS, ids=ids(TABLE_FUNCTIONS))
@pytest.mark.parametrize(
    ("table", "parts"),
    [
        (np.array([[1, -1], [0, 2]]), ("non-negative integer counts", "got -1", "cell (0, 1)")),
        (np.array([[1.0, 2.5]]), ("non-negative integer counts", "got 2.5", "cell (0, 1)")),
        (np.array([[np.nan, 1.0]]), ("non-negative integer counts", "got nan", "cell (0, 0)")),
        (np.array([[np.inf, 1.0]]), ("non-negative integer counts", "got inf", "cell (0, 0)")),
        (np.ones((2, 2, 2), dtype=int), ("2-D", "(2, 2, 2)")),
        (np.ones(3, dtype=int), ("2-D", "(3,)")),
        (np.array([["a", "b"]]), ("integer counts", "dtype <U1")),
        (sp.csr_array(np.array([[1, -2], [0, 2]])), ("non-negative", "got -2", "cell (0, 1)")),
        (sp.csr_array(np.array([[1.0, 0.5]])), ("non-negative integer counts", "got 0.5")),
    ],
    ids=[
        "negative",
        "fraction",
        "nan",
        "inf",
        "3d",
        "1d",
        "strings",
        "sparse_negative",
        "sparse_fraction",
    ],
)
def test_bad_contingency(func, table, parts):
    """Counts must be non-negative integers in a 2-D table: message names cell and value."""
    with raises("`contingency`", *parts):
        func(contingency=table)


@pytest.mark.parametrize("func", TABLE_FUNCTIONS, ids=ids(TABLE_FUNCTIONS))
def test_labels_and_contingency_both_given(func):
    """Either labels or a table, not both: refusing beats silently ignoring one."""
    with raises("either `labels_true` and `labels_pred`, or `contingency`", "got both"):
        func(GOOD, GOOD, contingency=np.eye(2, dtype=int))
    with raises("got both"):
        func(GOOD, None, contingency=np.eye(2, dtype=int))


@pytest.mark.parametrize("func", TABLE_FUNCTIONS, ids=ids(TABLE_FUNCTIONS))
def test_missing_labels(func):
    """Without a table both labelings are required; the message names the missing one."""
    with raises("`labels_pred` is required", "got None"):
        func(GOOD)
    with raises("`labels_true` is required", "got None"):
        func(None, GOOD)
    with raises("`labels_true` is required", "got None"):
        func()


# --------------------------------------------------------------------------- baselines


@pytest.mark.parametrize("func", BASELINES, ids=ids(BASELINES))
@pytest.mark.parametrize(
    ("kwargs", "missing"),
    [
        ({"model": "perm"}, "sizes_true"),
        ({"model": "perm", "sizes_true": [2, 2]}, "sizes_pred"),
        ({"model": "perm", "sizes_pred": [2, 2]}, "sizes_true"),
        ({"model": "perm", "one_sided": True, "sizes_pred": [2, 2]}, "sizes_true"),
        ({"model": "num"}, "n_clusters_true"),
        ({"model": "num", "n_clusters_true": 2}, "n_clusters_pred"),
        ({"model": "num", "one_sided": True, "n_clusters_pred": 2}, "sizes_true"),
        ({"model": "num", "one_sided": True, "sizes_true": [1, 3]}, "n_clusters_pred"),
        ({"model": "all", "one_sided": True}, "sizes_true"),
        ({"model": "all", "one_sided": True, "n_clusters_true": 2}, "sizes_true"),
    ],
)
def test_baseline_missing_required_argument(func, kwargs, missing):
    """perm needs sizes, num needs n_clusters, one-sided needs the reference's sizes_true.

    One message lists every missing argument (#15: the rule is check_summaries, shared
    with the CLI)."""
    with raises(f"`{missing}`", "required for", f"model={kwargs['model']!r}", "got None"):
        func(4, **kwargs)


@pytest.mark.parametrize("func", BASELINES, ids=ids(BASELINES))
@pytest.mark.parametrize(
    ("kwargs", "parts"),
    [
        (
            {"model": "perm", "sizes_true": [1, 2], "sizes_pred": [2, 2]},
            ("`sizes_true` must sum to n=4", "got 3"),
        ),
        (
            {"model": "perm", "sizes_true": [2, 2], "sizes_pred": [4, 1]},
            ("`sizes_pred` must sum to n=4", "got 5"),
        ),
        (
            {"model": "perm", "sizes_true": [2, 0, 2], "sizes_pred": [4]},
            ("`sizes_true` must hold positive integers", "0"),
        ),
        (
            {"model": "perm", "sizes_true": [2, 2], "sizes_pred": [1.5, 2.5]},
            ("`sizes_pred` must hold positive integers", "1.5"),
        ),
        (
            {"model": "perm", "sizes_true": [], "sizes_pred": [4]},
            ("`sizes_true` must be a non-empty 1-D sequence", "[]"),
        ),
        (
            {"model": "num", "n_clusters_true": 5, "n_clusters_pred": 2},
            ("`n_clusters_true` must be between 1 and n=4", "got 5"),
        ),
        (
            {"model": "num", "n_clusters_true": 2, "n_clusters_pred": 0},
            ("`n_clusters_pred` must be an integer >= 1", "got 0"),
        ),
        (
            {"model": "num", "n_clusters_true": 2, "n_clusters_pred": 2.5},
            ("`n_clusters_pred` must be an integer >= 1", "got 2.5"),
        ),
        (
            {
                "model": "num",
                "one_sided": True,
                "sizes_true": [2, 2],
                "n_clusters_true": 3,
                "n_clusters_pred": 2,
            },
            ("`n_clusters_true`=3 contradicts the 2 cluster sizes",),
        ),
    ],
    ids=[
        "sizes_true_sum",
        "sizes_pred_sum",
        "zero_size",
        "fractional_size",
        "empty_sizes",
        "k_above_n",
        "k_zero",
        "k_fraction",
        "k_contradicts_sizes",
    ],
)
def test_baseline_inconsistent_summaries(func, kwargs, parts):
    """Sizes must be positive and sum to n; 1 <= n_clusters <= n and agree with the sizes."""
    with raises(*parts):
        func(4, **kwargs)


@pytest.mark.parametrize("func", BASELINES, ids=ids(BASELINES))
@pytest.mark.parametrize(
    ("n", "shown"), [(-1, "-1"), (2.5, "2.5"), ("4", "'4'"), (None, "None"), (True, "True")]
)
def test_baseline_bad_n(func, n, shown):
    """n is a count: negative, fractional, string, None and bool are refused."""
    with raises("`n` must be an integer >= 0", f"got {shown}"):
        func(n, model="all")


def test_baseline_integral_float_n_is_accepted():
    """4.0 elements is 4 elements (numbers read from files are often floats)."""
    assert expected_rand_index_baseline(4.0, model="all") == expected_rand_index_baseline(
        4, model="all"
    )


# --------------------------------------------------------------------------- no alteration


ALL_CALLS = [
    *(lambda a, b, f=f: f(a, b) for f in LABEL_FUNCTIONS),
    lambda a, b: adjusted_mutual_information(a, b, model="num", one_sided=True),
    lambda a, b: adjusted_rand_index(a, b, model="all"),
    lambda a, b: entropy(a),
]


@pytest.mark.parametrize(
    "make",
    [
        lambda: np.array([3, 3, 1, 1, 2, 2, 2]),
        lambda: np.array([3.0, 3.0, 1.0, 1.0, 2.0, 2.0, 2.0]),
        lambda: np.array(["c", "c", "a", "a", "b", "b", "b"]),
        lambda: np.array([3, 3, "a", "a", 2, 2, 2], dtype=object),
        lambda: np.array([9, 9, 5, 5, 100, 100, 100], dtype=np.int64)[::-1],  # non-contiguous
    ],
    ids=["int", "float", "str", "object", "strided"],
)
def test_inputs_are_not_altered(make):
    """No function writes into the caller's arrays (and read-only arrays are fine)."""
    a, b = make(), make()[::-1].copy()
    a_before, b_before = a.copy(), b.copy()
    a.flags.writeable = False  # any write attempt would raise
    for call in ALL_CALLS:
        call(a, b)
    np.testing.assert_array_equal(a, a_before)
    np.testing.assert_array_equal(b, b_before)
    assert a.dtype == a_before.dtype
    assert b.dtype == b_before.dtype


def test_pandas_and_list_inputs_are_not_altered():
    """Series (values, index, dtype), Categoricals and lists come back untouched."""
    series = pd.Series(["x", "y", "x", "z"], index=[10, 20, 30, 40])
    categorical = pd.Categorical(["b", "a", "b", "b"], categories=["a", "b", "c"])
    labels = [2, 1, 2, 2]
    before = (series.copy(), categorical.copy(), list(labels))
    for call in ALL_CALLS:
        call(series, categorical)
        call(labels, series)
    pd.testing.assert_series_equal(series, before[0])
    assert categorical.equals(before[1])
    assert list(categorical.categories) == ["a", "b", "c"]
    assert labels == before[2]


def test_contingency_is_not_altered():
    """A user's table (dense or sparse, with zero rows) is read, never modified."""
    dense = np.array([[3, 0, 1], [0, 0, 0], [1, 2, 0]])
    sparse = sp.coo_array(dense)
    dense_before, sparse_before = dense.copy(), sparse.copy()
    dense.flags.writeable = False
    for func in TABLE_FUNCTIONS:
        func(contingency=dense)
        func(contingency=sparse)
    np.testing.assert_array_equal(dense, dense_before)
    np.testing.assert_array_equal(sparse.toarray(), sparse_before.toarray())
    assert sparse.nnz == sparse_before.nnz


def test_one_and_string_one_stay_distinct():
    """1 and "1" are two labels: numpy would coerce [1, "1"] to two equal strings."""
    a = [1, "1", 1, "1"]
    b = [0, 1, 0, 1]
    assert contingency_table(a, b).shape == (2, 2)
    assert rand_index(a, b) == 1.0
    assert adjusted_rand_index(a, b) == 1.0
    assert entropy(a) == entropy(b)
    # and as the prediction side, mixed with other types
    assert rand_index(b, [1.5, "1.5", 1.5, "1.5"]) == 1.0


def test_unsortable_labels_are_accepted():
    """Labels of mixed types that cannot be sorted are still valid labels."""
    a = [1, "a", 1, "a", 2.5]
    b = [0, 1, 0, 1, 2]
    assert rand_index(a, b) == 1.0
    assert contingency_table(a, b).sum() == 5


@pytest.mark.parametrize(
    "labels",
    [[(0, 1), (0, 1), (2, 3)], [1, 1, (2, 3)]],
    ids=["tuples", "mixed_tuple"],
)
def test_tuple_labels_are_hashable_labels(labels):
    """Any hashable value is a label (documented), tuples included."""
    assert rand_index(labels, [0, 0, 1]) == 1.0


@pytest.mark.parametrize("func", BASELINES, ids=ids(BASELINES))
def test_baseline_sizes_beyond_int64(func):
    """uint64 sizes that do not fit int64 are refused by name, not wrapped to negatives."""
    sizes = np.array([2**63, 1], dtype=np.uint64)
    with raises("`sizes_true`", "too large for int64"):
        func(4, model="perm", sizes_true=sizes, sizes_pred=[2, 2])


@pytest.mark.parametrize("func", BASELINES, ids=ids(BASELINES))
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint64, np.float64])
def test_baseline_sizes_are_not_altered(func, dtype):
    """Size arrays are read in place (int64 is not copied) but never written."""
    sizes = np.array([5, 1, 3, 1], dtype=dtype)
    sizes.flags.writeable = False
    value = func(10, model="perm", sizes_true=sizes, sizes_pred=sizes)
    assert np.isfinite(value)
    np.testing.assert_array_equal(sizes, np.array([5, 1, 3, 1], dtype=dtype))


# ------------------------------------------------ networkx LFR: each node's community as a set


def test_a_list_of_each_elements_community_set_is_read_as_labels():
    """``[G.nodes[v]["community"] for v in G]`` (LFR, #35): each distinct set is one cluster
    of the positions that hold it; as communities the repeated sets would be an overlap."""
    import chanceclust as cc

    one, two = {0, 1}, {2, 3, 4}  # shared objects, as networkx gives them; equal copies too
    per_node = [one, one, two, {2, 3, 4}, two]
    assert contingency_table(per_node, [7, 7, 8, 8, 9]).tolist() == [[2, 0, 0], [0, 2, 1]]
    ints = [0, 0, 1, 1, 1]
    for f in (adjusted_rand_index, adjusted_mutual_information, cc.standardized_rand_index):
        assert f(per_node, [0, 1, 1, 0, 1]) == f(ints, [0, 1, 1, 0, 1])
    pair = cc.pairwise([per_node, [0, 1, 1, 0, 1]], measure="ari").values[0, 1]
    assert pair == adjusted_rand_index(ints, [0, 1, 1, 0, 1])
    assert cc.partial_table(per_node, ints).n == 5
    # not one set per member, or two communities sharing an element: communities, refused
    with pytest.raises(cc.InvalidInputError, match="overlapping clustering"):
        contingency_table([one, one, one], [0, 0, 0])
    with pytest.raises(cc.InvalidInputError, match="overlapping clustering"):
        contingency_table([{0, 1}, {1, 2}], [0, 0])
    # distinct sets are communities (keyed by element), as before
    assert compare([{0, 1}, {2}], {0: "a", 1: "b", 2: "b"}).n == 3


def test_networkx_lfr_per_node_list_equals_its_mapping_and_integer_labels():
    nx = pytest.importorskip("networkx")
    graph = nx.LFR_benchmark_graph(250, 3, 1.5, 0.1, average_degree=5, min_community=20,
                                   seed=10)  # fmt: skip
    per_node = [graph.nodes[v]["community"] for v in graph]
    number = {}
    ints = [number.setdefault(frozenset(c), len(number)) for c in per_node]
    pred = [v % 3 for v in graph]
    assert len(number) > 1
    assert adjusted_mutual_information(per_node, pred) == adjusted_mutual_information(ints, pred)
    assert contingency_table(per_node, pred).sum() == 250
