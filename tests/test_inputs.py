"""Users' clusterings as they come (#11): mappings, communities, pandas, label identity.

No container is silently misread: each accepted one means the same partition (a
Hypothesis test feeds every container with one partition and gets one value), and
each refused one is an error that says what to pass instead.
"""

from __future__ import annotations

import types
import warnings
from collections import OrderedDict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import label_pairs

import chanceclust as cc

KARATE = Path(__file__).resolve().parents[1] / "examples" / "karate"


def exact_ari(a, b) -> Fraction:
    """Hubert-Arabie ARI from pair counts by brute force over all pairs (exact)."""
    n = len(a)
    n11 = n10 = n01 = n00 = 0
    for i in range(n):
        for j in range(i + 1, n):
            same_a, same_b = a[i] == a[j], b[i] == b[j]
            n11 += same_a and same_b
            n10 += same_a and not same_b
            n01 += same_b and not same_a
            n00 += not same_a and not same_b
    den = (n11 + n10) * (n10 + n00) + (n11 + n01) * (n01 + n00)
    return Fraction(2 * (n11 * n00 - n10 * n01), den)


# --------------------------------------------------------------------------- mappings


def test_two_dicts_are_aligned_by_key():
    """The issue's case: two {node: community} dicts give ARI -0.5, not 1.0 (their keys)."""
    a = {"e1": 0, "e2": 0, "e3": 1, "e4": 1}
    b = {"e1": 0, "e2": 1, "e3": 0, "e4": 1}
    assert cc.adjusted_rand_index(a, b) == -0.5
    assert exact_ari([0, 0, 1, 1], [0, 1, 0, 1]) == Fraction(-1, 2)
    # key order does not matter, any Mapping works
    shuffled = OrderedDict((k, b[k]) for k in ("e4", "e2", "e1", "e3"))
    assert cc.adjusted_rand_index(a, types.MappingProxyType(shuffled)) == -0.5


def test_mapping_keys_must_match_or_follow_the_policy():
    """Keys in only one mapping are unassigned in the other: named by default, else policy."""
    a = {"e1": 0, "e2": 0, "e3": 1, "e4": 1, "e5": 1}
    b = {"e1": 0, "e2": 1, "e3": 0, "e4": 1, "e9": 0}
    with pytest.raises(ValueError, match=r"`labels_true` has 1 unassigned element\(s\), "
                                         r"element\(s\) 'e9'.*`labels_pred` has 1 "
                                         r"unassigned element\(s\), element\(s\) 'e5'"):
        cc.adjusted_rand_index(a, b)
    assert cc.adjusted_rand_index(a, b, unassigned="drop") == -0.5
    # singletons: e5 alone in b, e9 alone in a
    expected = cc.adjusted_rand_index([0, 0, 1, 1, 1, 2], [0, 1, 0, 1, 2, 0])
    assert cc.adjusted_rand_index(a, b, unassigned="singletons") == expected


def test_mapping_with_sequence_is_a_type_error():
    """A mapping and a positional sequence cannot be matched: say the two ways out."""
    with pytest.raises(TypeError, match=r"`labels_true` names its elements.*`labels_pred` "
                                        r"gives labels by position.*dict\(zip\(elements"):
        cc.rand_index({"a": 0, "b": 1}, [0, 1])
    with pytest.raises(TypeError, match="`labels_pred` names its elements"):
        cc.rand_index(np.array([0, 1]), [{"a"}, {"b"}])


# --------------------------------------------------------------------------- communities


def _membership(communities, n):
    labels = [None] * n
    for k, community in enumerate(communities):
        for node in community:
            labels[node] = k
    return labels


def test_karate_networkx_communities_equal_membership_lists():
    """Karate club: Louvain (examples/karate) against networkx label propagation is 0.597...

    as membership lists, as networkx communities, as dicts and as files, alike.
    """
    nx = pytest.importorskip("networkx")
    graph = nx.karate_club_graph()
    louvain = [
        {int(x) for x in line.split()} for line in (KARATE / "louvain.txt").read_text().splitlines()
    ]
    propagation = list(nx.community.label_propagation_communities(graph))
    a, b = _membership(louvain, 34), _membership(propagation, 34)
    value = cc.adjusted_rand_index(a, b)
    assert value == float(exact_ari(a, b))
    assert round(value, 3) == 0.597
    assert cc.adjusted_rand_index(louvain, propagation) == value
    assert cc.adjusted_rand_index(dict(enumerate(a)), dict(enumerate(b))) == value
    assert cc.adjusted_rand_index(louvain, dict(enumerate(b))) == value
    frozen = [frozenset(c) for c in nx.community.greedy_modularity_communities(graph)]
    assert cc.adjusted_rand_index(frozen, louvain) == cc.adjusted_rand_index(
        _membership(frozen, 34), a
    )
    # the factions as {node: club}, against communities
    clubs = {node: graph.nodes[node]["club"] for node in graph}
    assert cc.adjusted_mutual_information(clubs, louvain) == cc.adjusted_mutual_information(
        [clubs[i] for i in range(34)], a
    )


class FakeVertexClustering:
    """What igraph's VertexClustering offers: a membership list, iteration over communities."""

    def __init__(self, membership):
        self.membership = list(membership)

    def __iter__(self):
        k = max(self.membership) + 1
        return iter([[i for i, m in enumerate(self.membership) if m == c] for c in range(k)])

    def __len__(self):
        return max(self.membership) + 1


class ArrayLike:
    """An array-like that is not a numpy array (a tensor, say): its items are 0-d objects."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __len__(self):
        return len(self.values)

    def __iter__(self):
        return (ArrayLike(v) for v in self.values)


class FakeNodeClustering:
    """What cdlib's NodeClustering offers: ``.communities``, a list of lists of nodes."""

    def __init__(self, communities):
        self.communities = [list(c) for c in communities]
        self.overlap = False


def test_community_objects_by_duck_typing():
    """igraph through .membership (by position), cdlib through .communities (by element)."""
    a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    expected = cc.adjusted_rand_index(a, b)
    assert cc.adjusted_rand_index(FakeVertexClustering(a), b) == expected
    assert cc.adjusted_rand_index(FakeVertexClustering(a), FakeVertexClustering(b)) == expected
    cdlib_a = FakeNodeClustering([[0, 1], [2, 3], [4, 5]])
    cdlib_b = FakeNodeClustering([[5, 4, 3], [0, 1, 2]])
    assert cc.adjusted_rand_index(cdlib_a, cdlib_b) == expected
    assert cc.adjusted_rand_index(cdlib_a, dict(enumerate(b))) == expected


def test_overlapping_communities_are_refused():
    """An element in two communities is an overlapping clustering: name the element."""
    with pytest.raises(ValueError, match=r"`labels_pred` is an overlapping clustering: element "
                                         r"'c' is in communities 0 and 1"):
        cc.rand_index([{"a", "b"}, {"d"}], [["a", "c"], ["c", "b", "d"]])


def test_communities_missing_elements_follow_the_policy():
    """An element in only one list of communities is unassigned in the other."""
    a = [{1, 2}, {3, 4}]
    b = [{1, 2, 3}, {5}]
    with pytest.raises(ValueError, match=r"element\(s\) 5.*element\(s\) 4"):
        cc.rand_index(a, b)
    assert cc.rand_index(a, b, unassigned="drop") == cc.rand_index([0, 0, 1], [0, 0, 0])


def test_list_of_frozensets_communities_or_labels():
    """Distinct frozensets in a list are communities (networkx's greedy_modularity_communities);
    a repeated one makes the list labels; an object array always holds labels."""
    communities = [frozenset({"a", "b"}), frozenset({"c"})]
    assert cc.rand_index(communities, {"a": 0, "b": 0, "c": 1}) == 1.0
    with pytest.raises(TypeError, match="names its elements"):
        cc.rand_index(communities, [0, 1])
    as_labels = np.empty(2, dtype=object)
    as_labels[:] = communities
    assert cc.rand_index(as_labels, [0, 1]) == 1.0
    assert cc.rand_index([*communities, communities[0]], [0, 1, 0]) == 1.0
    assert cc.rand_index(iter(communities), {"a": 0, "b": 0, "c": 1}) == 1.0  # a generator


def test_frozenset_labels_keep_their_identity():
    """Frozensets are only partially ordered: five distinct ones are five clusters, not 9."""
    values = [frozenset(), frozenset({1}), frozenset({2}), frozenset({1, 2}), frozenset({3})]
    labels = [values[i % 5] for i in range(15)]  # repeated: labels, not communities
    codes = cc.contingency_table(labels, labels)
    assert codes.shape == (5, 5)
    assert cc.adjusted_rand_index(labels, labels) == 1.0
    assert cc.adjusted_rand_index(labels, [i % 5 for i in range(15)]) == 1.0


# --------------------------------------------------------------------------- pandas


def test_series_aligned_by_index_when_indexes_differ():
    a = pd.Series([0, 0, 1, 1], index=["w", "x", "y", "z"])
    b = pd.Series([1, 0, 1, 0], index=["z", "y", "x", "w"])  # w:0 x:1 y:0 z:1
    assert cc.adjusted_rand_index(a, b) == -0.5
    # equal indexes, or a Series with a plain sequence: by position
    assert cc.adjusted_rand_index(a, pd.Series([5, 5, 6, 6], index=a.index)) == 1.0
    assert cc.adjusted_rand_index(a, [5, 5, 6, 6]) == 1.0
    # a Series against a mapping: by index
    assert cc.adjusted_rand_index(b, {"w": 0, "x": 0, "y": 1, "z": 1}) == -0.5
    # AnnData-style obs columns share their index: positional
    obs = pd.DataFrame({"leiden": pd.Categorical(["0", "0", "1", "1"]),
                        "louvain": pd.Categorical(["a", "b", "a", "b"])}, index=list("pqrs"))
    assert cc.adjusted_rand_index(obs["leiden"], obs["louvain"]) == -0.5


def test_series_with_duplicate_index_cannot_be_aligned():
    a = pd.Series([0, 0, 1], index=["x", "x", "y"])
    b = pd.Series([0, 1, 1], index=["x", "y", "z"])
    with pytest.raises(ValueError, match="`labels_true` is a Series with a duplicated index"):
        cc.rand_index(a, b)


def test_dataframe_and_set_are_type_errors():
    frame = pd.DataFrame({"leiden": [0, 1], "kmeans": [1, 1]})
    with pytest.raises(TypeError, match=r"`labels_true` is a pandas DataFrame \(columns "
                                        r"'leiden', 'kmeans'\); pass the column"):
        cc.rand_index(frame, [0, 1])
    with pytest.raises(TypeError, match="`labels_pred` is a set, which has no element order"):
        cc.rand_index([0, 1], {0, 1})


def test_categorical_with_unused_categories():
    a = pd.Categorical(["x", "x", "y"], categories=["w", "x", "y", "z"])
    assert cc.contingency_table(a, [0, 0, 1]).shape == (2, 2)


# --------------------------------------------------------------------------- identity


def test_labels_keep_their_identity():
    """numpy's fixed-width strings would merge these; hashing keeps them apart."""
    assert cc.contingency_table(["a", "a\x00", "a", "a\x00"], [0, 1, 0, 1]).shape == (2, 2)
    assert cc.adjusted_rand_index(["a", "a\x00", "a", "a\x00"], [0, 1, 0, 1]) == 1.0
    assert cc.adjusted_rand_index(["a", b"a", "a", b"a"], [0, 1, 0, 1]) == 1.0
    assert cc.entropy(["a", b"a"]) == cc.entropy([0, 1])


def test_string_labels_in_sorted_order():
    """Rows and columns follow sorted labels when labels are all strings or all numbers."""
    np.testing.assert_array_equal(
        cc.contingency_table(["b", "a", "b"], [2.0, 10.0, 2.0]), [[0, 1], [2, 0]]
    )


def test_continuous_float_labels_warn():
    """Non-integral floats look like a regression target: UserWarning (as scikit-learn)."""
    with pytest.warns(UserWarning, match=r"`labels_pred` holds non-integral float labels"):
        cc.adjusted_rand_index([0, 0, 1], np.array([0.1, 0.25, 0.3]))
    with pytest.warns(UserWarning, match="`labels_true` holds non-integral float labels"):
        cc.rand_index([0.5, 1.0, 2.0], [0, 0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cc.rand_index(np.array([0.0, 1.0, 2.0]), [0, 0, 1])  # integral floats are labels
        cc.rand_index([1.5, "1.5", 1.5], [0, 1, 0])  # mixed types are not a variable


# --------------------------------------------------------------------------- every container


def _keyed(labels, keys):
    return {key: label for key, label in zip(keys, labels, strict=True)}


def _communities(labels, keys, kind):
    groups = {}
    for key, label in zip(keys, labels, strict=True):
        groups.setdefault(label, []).append(key)
    return [kind(g) for g in groups.values()]


POSITIONAL = {
    "list": lambda x: x.tolist(),
    "tuple": lambda x: tuple(x.tolist()),
    "int_array": lambda x: x,
    "int8_array": lambda x: x.astype(np.int8),
    "float_array": lambda x: x.astype(np.float64),
    "object_array": lambda x: x.astype(object),
    "sparse_ints": lambda x: x * 10**9 - 7,
    "strings": lambda x: [f"c{v}" for v in x],
    "string_array": lambda x: np.array([f"c{v}" for v in x]),
    "bytes": lambda x: [b"c%d" % v for v in x],
    "mixed": lambda x: [v if v % 2 else f"{v}" for v in x.tolist()],
    "frozenset_labels": lambda x: np.array([frozenset(range(v)) for v in x.tolist()] + [None])[
        :-1
    ],
    "tuples": lambda x: [(v, "t") for v in x.tolist()],
    "series": lambda x: pd.Series(x),
    "categorical": lambda x: pd.Categorical(x, categories=range(-1, int(x.max()) + 2)),
    "categorical_series": lambda x: pd.Series(x.astype(str), dtype="category"),
    "nullable": lambda x: pd.Series(x, dtype="Int64"),
    "igraph": lambda x: FakeVertexClustering(x),
    "iterator": lambda x: iter(x.tolist()),
    "array_like": lambda x: ArrayLike(x),
}
KEYED = {
    "dict": lambda x, keys: _keyed(x.tolist(), keys),
    "reversed_dict": lambda x, keys: dict(reversed(list(_keyed(x.tolist(), keys).items()))),
    "mapping_proxy": lambda x, keys: types.MappingProxyType(_keyed(x.tolist(), keys)),
    "sets": lambda x, keys: _communities(x.tolist(), keys, set),
    "frozensets": lambda x, keys: _communities(x.tolist(), keys, frozenset),
    "lists": lambda x, keys: _communities(x.tolist(), keys, list),
    "cdlib": lambda x, keys: FakeNodeClustering(_communities(x.tolist(), keys, list)),
    "cluster_to_members": lambda x, keys: dict(enumerate(_communities(x.tolist(), keys, list))),
    "series_shuffled": lambda x, keys: pd.Series(x, index=keys).iloc[::-1],
}


@given(label_pairs(min_n=1, max_n=25), st.data())
def test_every_container_gives_the_same_value(pair, data):
    """One partition in every accepted container: one ARI, one AMI, one contingency table."""
    a, b = pair
    a = a - a.min()  # non-negative codes for the Categorical categories above
    b = b - b.min()
    ari, ami = cc.adjusted_rand_index(a, b), cc.adjusted_mutual_information(a, b)
    sizes = sorted(cc.contingency_table(a, b).ravel().tolist())

    def check(make_x, make_y, what):
        # fresh containers for each call: an iterator is read once
        assert cc.adjusted_rand_index(make_x(), make_y()) == ari, what
        value = cc.adjusted_mutual_information(make_x(), make_y())
        assert value == pytest.approx(ami, rel=1e-12, abs=1e-14), what
        assert sorted(cc.contingency_table(make_x(), make_y()).ravel().tolist()) == sizes, what

    for name, make in POSITIONAL.items():
        other = data.draw(st.sampled_from(sorted(POSITIONAL)), label=f"with {name}")
        check(lambda: make(a), lambda: POSITIONAL[other](b), (name, other))  # noqa: B023
    keys = data.draw(
        st.sampled_from([list(range(len(a))), [f"n{i}" for i in range(len(a))],
                         [(i, "x") for i in range(len(a))]]),
        label="element keys",
    )
    for name, make in KEYED.items():
        other = data.draw(st.sampled_from(sorted(KEYED)), label=f"with {name}")
        check(lambda: make(a, keys), lambda: KEYED[other](b, keys), (name, other))  # noqa: B023
