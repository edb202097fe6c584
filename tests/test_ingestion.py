"""One ingestion path (#20, #21): every entry point reads clusterings as the single calls do.

Keyed inputs by key in ``partial_table`` (``pairwise``: tests/test_allpairs.py), label
identity without casts, every missing value, degenerate results as errors, bounds on
``n``, array protocols (DLPack, ``__array__``, device arrays without a namespace refused) and community
objects matched by node. Values are checked against single calls, hand-built tables and
scikit-learn, never against numbers copied from our own output.
"""

from __future__ import annotations

import time
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chanceclust as cc
from chanceclust._validation import check_labels
from chanceclust.exceptions import InvalidInputError, InvalidInputTypeError
from chanceclust.samplers import random_clustering

# ----------------------------------------------------------------------------- partial_table


def test_partial_table_of_series_is_matched_by_index():
    """#20's example: Series indexed abcd and acbd give the single call's ARI (-0.5)."""
    s1 = pd.Series([0, 0, 1, 1], index=list("abcd"))
    s2 = pd.Series([0, 0, 1, 1], index=list("acbd"))
    table = cc.partial_table(s1, s2)
    # by hand: s1 = {a,b},{c,d}; s2 = {a,c},{b,d}: every cell holds one element
    assert table.to_sparse().toarray().tolist() == [[1, 1], [1, 1]]
    assert cc.adjusted_rand_index(contingency=table) == cc.adjusted_rand_index(s1, s2) == -0.5


def test_partial_table_of_dicts_and_communities():
    """#20: partial_table(dict) and partial_table(communities) crashed (len() of unsized
    object; a numpy broadcast error)."""
    membership = {"n1": 0, "n2": 0, "n3": 1, "n4": 1}
    communities = [{"n4", "n2"}, {"n3", "n1"}]
    table = cc.partial_table(membership, communities)
    assert table.n == 4
    assert cc.adjusted_rand_index(contingency=table) == cc.adjusted_rand_index(
        membership, communities) == -0.5
    # communities are labelled by their numbers
    assert cc.partial_table(communities, communities).labels_true.tolist() == [0, 1]


def test_partial_table_refuses_different_key_sets_unless_drop():
    first, second = {"a": 0, "b": 0, "c": 1}, {"a": 0, "b": 1, "d": 1}
    with pytest.raises(InvalidInputError, match=r"`labels_true` has 1 unassigned element\(s\), "
                       r"element\(s\) 'd'"):
        cc.partial_table(first, second)
    table = cc.partial_table(first, second, unassigned="drop")
    assert table.n == 2
    assert table.counts.tolist() == [1, 1]
    with pytest.raises(InvalidInputError, match="needs the whole clustering, not a chunk"):
        cc.partial_table(first, second, unassigned="singletons")
    # a chunk with nothing left is an empty table that counts its drops; the whole is refused
    empty = cc.partial_table([-1, 0], [1, -1], unassigned_label=-1, unassigned="drop")
    assert (empty.n, empty.dropped) == (0, 2)
    with pytest.raises(InvalidInputError, match="leaves no element"):
        cc.adjusted_rand_index(contingency=empty)


def test_partial_tables_of_keyed_chunks_merge_to_the_single_call():
    rng = np.random.default_rng(3)
    keys = [f"e{i}" for i in range(200)]
    a = dict(zip(keys, rng.integers(0, 5, 200).tolist(), strict=True))
    b = dict(zip(keys, rng.integers(0, 7, 200).tolist(), strict=True))
    b[keys[5]] = None  # missing: dropped in its chunk
    shuffled = list(rng.permutation(keys))
    chunks = [shuffled[:70], shuffled[70:]]
    parts = [cc.partial_table({k: a[k] for k in chunk}, {k: b[k] for k in reversed(chunk)},
                              unassigned="drop") for chunk in chunks]
    merged = cc.merge_tables(parts)
    expected = cc.adjusted_mutual_information(a, b, unassigned="drop")
    assert cc.adjusted_mutual_information(contingency=merged) == expected


def test_partial_table_keeps_labels_distinct():
    """'a' and 'a\\x00' (numpy's fixed-width strings would strip the NUL), integers
    beyond 2**53 among floats, integer kinds near 2**62."""
    table = cc.partial_table(["a", "a\x00", "b", "a"], [0, 1, 1, 0])
    assert table.labels_true.tolist() == ["a", "a\x00", "b"]
    assert table.counts.tolist() == [2, 1, 1]
    table = cc.partial_table([2**53 + 1, 2.0**53, 3], [0, 1, 2])
    assert table.shape == (3, 3)
    assert [int(v) for v in table.labels_true.tolist()] == [3, 2**53, 2**53 + 1]
    top = np.array([2**62 + 1, 2**62, 2**62 + 1], dtype=np.uint64)
    table = cc.partial_table(top, top.astype(np.int64))
    assert table.shape == (2, 2)
    assert table.labels_true.tolist() == [2**62, 2**62 + 1]
    assert cc.partial_table([np.uint64(2**62 + 1), np.int64(2**62)], [0, 0]).shape == (2, 1)


def test_partial_table_message_shows_labels_distinguishably():
    with pytest.raises(InvalidInputError, match=r"sortable labels .* got 2 distinct labels "
                       r"\('a\\x00', 1\)"):
        cc.partial_table(["a\x00", 1], [0, 0])


# ----------------------------------------------------------------------------- label identity


def test_big_integers_among_floats_are_not_merged():
    """#20: [2**53 + 1, 2.0**53, 3] is 3 clusters, not 2."""
    codes, k = check_labels([2**53 + 1, 2.0**53, 3])
    assert k == 3
    assert len(set(codes.tolist())) == 3
    assert cc.adjusted_rand_index([2**53 + 1, 2.0**53, 3, 3], ["x", "y", "z", "z"]) == 1.0
    assert check_labels([2**53, 2.0**53, 3])[1] == 2  # equal values are one label


def test_strings_bytes_and_nul_stay_apart():
    assert check_labels(["a", b"a", "a\x00", "a"])[1] == 3
    assert cc.contingency_table(["a", "a\x00"], [0, 0]).shape == (2, 1)


@pytest.mark.parametrize("missing", [None, float("nan"), np.datetime64("NaT", "ns"), pd.NA, pd.NaT,
                                     Decimal("NaN"), Decimal("sNaN"), Decimal("-NaN")])
def test_every_missing_value_is_unassigned(missing):
    """#20: Decimal('NaN') was an ordinary label and Decimal('sNaN') raised TypeError."""
    labels = ["x", "x", missing, "y", "y"]
    with pytest.raises(InvalidInputError, match=r"`labels_pred` has 1 unassigned element\(s\), "
                       r"the first at position 2"):
        cc.adjusted_rand_index([0, 0, 1, 1, 1], labels)
    got = cc.adjusted_rand_index([0, 0, 1, 1, 1], labels, unassigned="drop")
    assert got == cc.adjusted_rand_index([0, 0, 1, 1], ["x", "x", "y", "y"]) == 1.0
    _codes, k = check_labels(labels, unassigned="singletons")
    assert k == 3


# ----------------------------------------------------------------------------- degenerate


def test_contingency_with_a_policy_is_refused():
    """#21: adjusted_rand_index(contingency=table, unassigned="drop") did nothing."""
    table = [[2, 0], [1, 3]]
    for policy in ("drop", "singletons", "cluster"):
        with pytest.raises(InvalidInputError, match=r"`unassigned` applies to labels; a "
                           r"`contingency` table has no unassigned elements"):
            cc.adjusted_rand_index(contingency=table, unassigned=policy)
    with pytest.raises(InvalidInputError, match="`unassigned_label` applies to labels"):
        cc.compare(contingency=table, unassigned_label=-1)
    assert cc.adjusted_rand_index(contingency=table, unassigned="raise") == (
        cc.adjusted_rand_index([0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]))


def test_drop_of_every_element_is_an_error_everywhere():
    """#20: unassigned='drop' that drops every element gave 1.0 silently."""
    a, b = [-1, 0, 1], [0, -1, -1]
    calls = [
        lambda: cc.adjusted_rand_index(a, b, unassigned_label=-1, unassigned="drop"),
        lambda: cc.compare(a, b, unassigned_label=-1, unassigned="drop"),
        lambda: cc.pairwise([a, b], measure="ari", unassigned_label=-1, unassigned="drop"),
        lambda: cc.adjusted_rand_index(  # a chunk may be empty; the whole may not
            contingency=cc.partial_table(a, b, unassigned_label=-1, unassigned="drop")),
        lambda: cc.expected_rand_index(a, b, unassigned_label=-1, unassigned="drop"),
    ]
    for call in calls:
        with pytest.raises(InvalidInputError, match="unassigned='drop' leaves no element"):
            call()
    # no elements at all: the documented N = 0 convention (1.0, as scikit-learn)
    assert cc.adjusted_rand_index([], []) == 1.0


# ----------------------------------------------------------------------------- bounds


@pytest.mark.parametrize("call", [
    lambda: cc.expected_mutual_information_baseline(10**30, model="all"),
    lambda: cc.expected_rand_index_baseline(2**63, model="all"),
    lambda: cc.same_cluster_probability(2**63, model="all"),
    lambda: random_clustering(2**63, model="all"),
])
def test_n_beyond_int64_names_n(call):
    """#20: OverflowError before."""
    with pytest.raises(InvalidInputError, match=r"`n` must be an integer between \d and "
                       r"2\*\*63 - 1; got"):
        call()


def test_huge_draw_is_refused_before_allocating():
    """#20: random_clustering(10**12, model='all') raised MemoryError inside numpy."""
    with pytest.raises(InvalidInputError, match=r"n=1000000000000 elements would need about "
                       r"8 TB of memory"):
        random_clustering(10**12, model="all")
    with pytest.raises(InvalidInputError, match="about 80 TB"):
        cc.random_clusterings(10**6, 10**7, model="all")


# ----------------------------------------------------------------------------- array protocols


class DLPackLabels:
    """A CPU array of another library: DLPack and a length, and an iterator that must not run."""

    def __init__(self, values):
        self._values = np.asarray(values)

    def __dlpack__(self, **kwargs):
        return self._values.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._values.__dlpack_device__()

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        raise AssertionError("iterated element by element")


class DeviceLabels:
    """An array in GPU memory, as DLPack (CUDA = 2) or the CUDA array interface reports it."""

    def __init__(self, cuda_interface=False):
        if cuda_interface:
            self.__cuda_array_interface__ = {"shape": (3,), "typestr": "<i8", "version": 3}

    def __dlpack__(self, **kwargs):
        raise RuntimeError("device memory")

    def __dlpack_device__(self):
        return (2, 0)

    def __array__(self, dtype=None, copy=None):
        raise TypeError("can't convert cuda:0 device type tensor to numpy")

    def __len__(self):
        return 3

    def __iter__(self):
        raise AssertionError("iterated element by element")


def test_dlpack_inputs_are_read_without_iterating():
    a, b = [0, 0, 1, 1, 2, 2], [1, 1, 0, 0, 0, 2]
    expected = cc.adjusted_rand_index(a, b)
    assert cc.adjusted_rand_index(DLPackLabels(a), DLPackLabels(b)) == expected
    assert cc.pairwise([DLPackLabels(a), DLPackLabels(b)], measure="ari").values[0, 1] == expected
    assert cc.partial_table(DLPackLabels(a), b).n == 6


@pytest.mark.parametrize("cuda_interface", [False, True])
def test_device_arrays_are_refused_with_the_way_to_the_host(cuda_interface):
    with pytest.raises(InvalidInputTypeError, match=r"`labels_true` is a DeviceLabels in the "
                       r"memory of a CUDA GPU.*array-api-compat.*tensor\.cpu\(\).*\.get\(\)"):
        cc.adjusted_rand_index(DeviceLabels(cuda_interface), [0, 1, 1])


def test_memoryview_and_array_module():
    import array

    a = array.array("q", [0, 0, 1, 1])
    assert cc.adjusted_rand_index(a, memoryview(np.array([1, 1, 0, 0]))) == 1.0


def test_torch_tensors_at_numpy_speed():
    """#21: CPU tensors were iterated element by element (20 s against 0.6 s at 10**7)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 50, 10**6), rng.integers(0, 50, 10**6)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    assert cc.adjusted_rand_index(ta, tb) == cc.adjusted_rand_index(a, b)
    assert cc.adjusted_rand_index(torch.tensor([0, 0, 1]), torch.tensor([True, True, False])) == 1.0

    def best(x, y):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            cc.adjusted_rand_index(x, y)
            times.append(time.perf_counter() - start)
        return min(times)

    assert best(ta, tb) < 3 * best(a, b) + 0.05  # element by element was ~200x


# ----------------------------------------------------------------------------- communities


def test_igraph_communities_match_node_keyed_metadata_on_the_karate_club():
    """#21: an igraph VertexClustering against {node: club} is matched by node
    (igraph.Graph.from_networkx keeps the node in ``_nx_name``); TypeError before."""
    nx = pytest.importorskip("networkx")
    ig = pytest.importorskip("igraph")
    graph = nx.karate_club_graph()
    relabelled = nx.relabel_nodes(graph, {v: f"m{(7 * v) % 34}" for v in graph})
    g = ig.Graph.from_networkx(relabelled)
    clustering = g.community_multilevel()
    clubs = {node: relabelled.nodes[node]["club"] for node in reversed(list(relabelled))}
    # networkx's value: the same communities as sets of nodes
    as_sets = [{g.vs[v]["_nx_name"] for v in community} for community in clustering]
    expected = cc.adjusted_mutual_information(as_sets, clubs)
    assert cc.adjusted_mutual_information(clustering, clubs) == expected
    assert cc.adjusted_mutual_information(clubs, clustering) == cc.adjusted_mutual_information(
        clubs, as_sets)
    series = pd.Series(clubs)
    assert cc.adjusted_mutual_information(clustering, series) == expected
    # independent: scikit-learn on labels put in one node order by hand
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    order = list(relabelled)
    membership = {g.vs[v]["_nx_name"]: m for v, m in enumerate(clustering.membership)}
    assert cc.adjusted_rand_index(clustering, clubs) == pytest.approx(
        sklearn_metrics.adjusted_rand_score([clubs[v] for v in order],
                                            [membership[v] for v in order]), abs=1e-12)
    # a graph with a ``name`` attribute; without names, still by position
    named = ig.Graph(edges=[(0, 1), (2, 3)])
    named.vs["name"] = ["d", "c", "b", "a"]
    parts = ig.VertexClustering(named, [0, 0, 1, 1])
    assert cc.adjusted_rand_index(parts, {"a": 0, "b": 1, "c": 0, "d": 1}) == -0.5
    plain = ig.VertexClustering(ig.Graph(edges=[(0, 1)]), [0, 0])
    assert cc.adjusted_rand_index(plain, [0, 0]) == 1.0


def test_lfr_community_sets_are_a_partition():
    """#21: networkx's LFR benchmark stores each node's community as a set; passing
    {node: set} got a misleading 'overlapping clustering' error."""
    nx = pytest.importorskip("networkx")
    graph = nx.LFR_benchmark_graph(250, 3, 1.5, 0.1, average_degree=5, min_community=20,
                                   seed=10)
    planted = {node: graph.nodes[node]["community"] for node in graph}
    communities = list({frozenset(c) for c in planted.values()})
    assert cc.adjusted_rand_index(planted, communities) == 1.0
    louvain = nx.community.louvain_communities(graph, seed=1)
    # The same partition read two ways: its clusters may come in another order (a set's
    # order), which changes the summation order of MI, so equal to rounding, not to the bit.
    by_communities = cc.adjusted_mutual_information(communities, louvain)
    assert cc.adjusted_mutual_information(planted, louvain) == pytest.approx(
        by_communities, rel=1e-12)
    copies = {node: set(group) for node, group in planted.items()}  # equal sets, not shared
    assert cc.adjusted_mutual_information(copies, louvain) == pytest.approx(
        by_communities, rel=1e-12)


def test_true_overlap_of_community_sets_is_refused():
    overlapping = {0: {0, 1}, 1: {1, 2}, 2: {1, 2}}
    with pytest.raises(InvalidInputError, match=r"`labels_true` is an overlapping clustering: "
                       r"element 1 is in the community of 0"):
        cc.adjusted_rand_index(overlapping, {0: 0, 1: 0, 2: 1})
    # {cluster: members} whose keys happen to be members is still read as communities
    assert cc.adjusted_rand_index({0: {0, 5}, 1: {1, 6}}, {0: 0, 5: 0, 1: 1, 6: 1}) == 1.0


def test_from_cells_reads_labels_as_partial_table_does():
    """#20: 'a' and 'a\\x00' were refused with "got ['a', 'a']"; they are two labels."""
    table = cc.PartialTable.from_cells(["a", "a\x00", "a"], [1, 1, 2], [3, 4, 5])
    assert table.labels_true.tolist() == ["a", "a\x00"]
    assert table.counts.tolist() == [3, 5, 4]
    with pytest.raises(InvalidInputError, match=r"got 2 distinct labels \('x', 1\)"):
        cc.PartialTable.from_cells(["x", 1], [0, 0], [1, 1])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.one_of(st.none(), st.integers(0, 3)), st.one_of(st.none(),
             st.sampled_from(["a", "a\x00", "b"]))), min_size=1, max_size=30),
    st.randoms(use_true_random=False),
    st.sampled_from(["series", "dict"]),
)
def test_one_partition_through_every_entry_point(pairs, random, form):
    """The same keyed partition (with missing values) through the single call, pairwise and
    partial tables merged: the same value, or the same error."""
    keys = [f"e{i}" for i in range(len(pairs))]
    order = keys[:]
    random.shuffle(order)
    first = {k: a for k, (a, _) in zip(keys, pairs, strict=True)}
    second = {k: b for k, (_, b) in zip(keys, pairs, strict=True)}
    second = {k: second[k] for k in order}
    if form == "series":
        first, second = pd.Series(first, dtype=object), pd.Series(second, dtype=object)
    cut = random.randint(0, len(keys))

    def chunk(labels, part):
        return labels[part] if form == "series" else {k: labels[k] for k in part}

    calls = {
        "single": lambda: cc.adjusted_rand_index(first, second, unassigned="drop"),
        "pairwise": lambda: float(cc.pairwise([first, second], measure="ari",
                                               unassigned="drop").values[0, 1]),
        "tables": lambda: cc.adjusted_rand_index(contingency=cc.merge_tables(
            [cc.partial_table(chunk(first, part), chunk(second, part), unassigned="drop")
             for part in (order[:cut], order[cut:])
             # a chunk with nothing left is an error of its own; the whole input decides
             if any(first[k] is not None and second[k] is not None for k in part)]
            or [cc.partial_table(first, second, unassigned="drop")])),
    }
    outcomes = {}
    for name, call in calls.items():
        try:
            outcomes[name] = call()
        except InvalidInputError as exc:
            outcomes[name] = "error: " + str(exc).split(":")[0]
    assert len(set(outcomes.values())) == 1, outcomes
    kept = [(a, b) for a, b in pairs if a is not None and b is not None]
    if kept:  # independent: pair counts by hand on the elements kept
        from fractions import Fraction

        n11 = n10 = n01 = n00 = 0
        for i in range(len(kept)):
            for j in range(i + 1, len(kept)):
                sa, sb = kept[i][0] == kept[j][0], kept[i][1] == kept[j][1]
                n11, n10 = n11 + (sa and sb), n10 + (sa and not sb)
                n01, n00 = n01 + (sb and not sa), n00 + (not sa and not sb)
        den = (n11 + n10) * (n10 + n00) + (n11 + n01) * (n01 + n00)
        expected = 1.0 if den == 0 else float(Fraction(2 * (n11 * n00 - n10 * n01), den))
        assert outcomes["single"] == pytest.approx(expected, abs=1e-12)
