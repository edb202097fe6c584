"""Error paths and rare branches of validation and the table path, reached through the public API.

Each test reaches one error path or rare branch, and checks the message names the argument,
what was expected and what was got.
"""

from __future__ import annotations

import datetime

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from chanceclust import (
    InvalidInputError,
    PartialTable,
    TableSummary,
    adjusted_rand_index,
    compare,
    entropy,
    merge_tables,
    mutual_information,
    mutual_information_variance,
    rand_index,
    random_clustering,
    random_clusterings,
    samplers,
    significance_test,
    variation_of_information,
)
from chanceclust.comparison import ComparisonRow
from chanceclust.special import log_stirling2

# --- unassigned_label ---------------------------------------------------------------------


def test_unassigned_label_mapping_is_refused():
    with pytest.raises(InvalidInputError, match=r"`unassigned_label`.*mapping"):
        adjusted_rand_index([0, 1], [0, 1], unassigned_label={"a": 1})


# --- label arrays -------------------------------------------------------------------------


def test_object_labels_with_a_fraction_warn_as_continuous():
    labels = np.array([1, 2.5, None, 1], dtype=object)
    with pytest.warns(UserWarning, match=r"`labels_true` holds non-integral float labels.*2\.5"):
        value = rand_index(labels, [0, 1, 1, 0], unassigned="drop")
    assert value == 1.0


def test_boolean_labels_with_a_missing_mark():
    # bool arrays are encoded as uint8 (True and False: two clusters)
    labels = np.array([True, False, True, False])
    assert adjusted_rand_index(labels, [1, 0, 1, 0]) == 1.0
    assert rand_index(labels, [1, 0, 1, 2], unassigned_label=2, unassigned="drop") == 1.0


def test_structured_dtype_labels_are_refused():
    labels = np.zeros(3, dtype=[("a", np.int64), ("b", np.float64)])
    with pytest.raises(
        InvalidInputError, match=r"`labels_true` must hold hashable labels; got dtype"
    ):
        rand_index(labels, [0, 1, 1])


# --- communities --------------------------------------------------------------------------


def test_communities_as_numpy_arrays():
    communities = [np.array([0, 1]), np.array([2, 3])]
    assert adjusted_rand_index(communities, {0: "a", 1: "a", 2: "b", 3: "b"}) == 1.0


def test_communities_mixed_with_a_label():
    with pytest.raises(
        InvalidInputError, match=r"`labels_true` mixes communities.*int item 5 at position 1"
    ):
        rand_index([[0, 1], 5], [[0, 1]])


def test_community_with_an_unhashable_element():
    with pytest.raises(
        InvalidInputError, match=r"`labels_pred` community 0 holds an unhashable element"
    ):
        rand_index([[0, 1], [2]], [[0, [1]], [2]])


def test_element_listed_twice_in_one_community_counts_once():
    assert rand_index([[0, 0, 1], [2]], [[0, 1], [2, 2]]) == 1.0
    assert compare([[0, 0, 1], [2]], [[0, 1], [2]]).n == 3


def test_set_of_frozenset_communities():
    communities = {frozenset({0, 1}), frozenset({2})}
    assert adjusted_rand_index(communities, {0: 5, 1: 5, 2: 6}) == 1.0


def test_mapping_of_clusters_to_sets_of_members():
    # {cluster: set of members}: a key outside its own set is not LFR's {element: its set}
    clustering = {"a": {0, 1}, "b": {2}}
    assert adjusted_rand_index(clustering, {0: 5, 1: 5, 2: 6}) == 1.0


def test_mapping_of_clusters_whose_members_are_not_all_keys():
    # {cluster: members} whose cluster names are also elements: not LFR's {element: its set}
    clustering = {0: {0, 5}, 1: {1}}
    assert adjusted_rand_index(clustering, {0: "a", 5: "a", 1: "b"}) == 1.0


# --- arrays through protocols -------------------------------------------------------------


class _BrokenDevice:
    """An array whose __dlpack_device__ raises: numpy's conversion decides."""

    def __init__(self, values):
        self._values = np.asarray(values)

    def __dlpack_device__(self):
        raise RuntimeError("broken protocol")

    def __array__(self, dtype=None, copy=None):
        return self._values if dtype is None else self._values.astype(dtype)

    def __len__(self):
        return len(self._values)


class _NoDLPack(_BrokenDevice):
    """A host array whose __dlpack__ export fails (a dtype numpy lacks, say)."""

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, *args, **kwargs):
        raise BufferError("no DLPack export")


@pytest.mark.parametrize("kind", [_BrokenDevice, _NoDLPack])
def test_array_protocol_fallbacks(kind):
    assert adjusted_rand_index(kind([0, 0, 1, 1]), [1, 1, 0, 0]) == 1.0


# --- element keys: graphs and Series -----------------------------------------------------


class _Vertices:
    def __init__(self, names):
        self._names = names

    def attributes(self):
        return ["name"]

    def __getitem__(self, attribute):
        return self._names


class _Graph:
    def __init__(self, names):
        self.vs = _Vertices(names)


class _VertexClustering:
    """An igraph-like VertexClustering: ``membership`` and a graph of named vertices."""

    def __init__(self, membership, names):
        self.membership = membership
        self.graph = _Graph(names)


def test_graph_with_repeated_vertex_names():
    clustering = _VertexClustering([0, 0, 1], ["x", "y", "x"])
    with pytest.raises(
        InvalidInputError, match=r"`labels_true` is named by repeated names \('x'\)"
    ):
        rand_index(clustering, {"x": 0, "y": 1})


def test_series_repeating_keys_of_the_first():
    first = pd.Series([0, 0, 1], index=["a", "b", "c"])
    second = pd.Series([0, 1, 1], index=["a", "a", "b"])
    with pytest.raises(
        InvalidInputError, match=r"`labels_pred` is a Series with a duplicated index \('a'\)"
    ):
        rand_index(first, second, unassigned="drop")


def test_series_with_new_keys():
    first = pd.Series([0, 0], index=["a", "b"])
    second = pd.Series([1, 1, 2], index=["a", "b", "c"])
    assert rand_index(first, second, unassigned="drop") == 1.0


def test_series_with_repeated_new_keys():
    first = pd.Series([0, 0], index=["a", "b"])
    second = pd.Series([1, 1, 2, 3], index=["a", "b", "c", "c"])
    with pytest.raises(
        InvalidInputError, match=r"`labels_pred` is a Series with a duplicated index \('c'\)"
    ):
        rand_index(first, second, unassigned="drop")


# --- one labeling ------------------------------------------------------------------------


def test_entropy_with_every_element_dropped():
    with pytest.raises(InvalidInputError, match=r"`labels`.*unassigned"):
        entropy([None, None], unassigned="drop")


def test_cells_with_a_missing_label():
    # from_cells has no `unassigned` policy: the message must not offer one
    match = r"^`labels_pred` holds 1 missing label\(s\) \(None, NaN, NA, NaT, masked elements\), the first at position 1: every cell needs a label; drop those cells or label them first\.$"
    with pytest.raises(InvalidInputError, match=match):
        PartialTable.from_cells([0, 1], [1, np.nan], [1, 1])
    with pytest.raises(
        InvalidInputError, match=r"`labels_true` holds 2 missing label\(s\).*position 0"
    ) as info:
        PartialTable.from_cells([None, None], [1, 1], [1, 1])
    assert "unassigned=" not in str(info.value)


class _AlwaysEqual:
    """Distinct (by hash) labels that compare equal: no order can place them."""

    def __init__(self, i):
        self.i = i

    def __hash__(self):
        return self.i

    def __eq__(self, other):
        return isinstance(other, _AlwaysEqual)

    def __lt__(self, other):
        return False

    def __repr__(self):
        return f"E{self.i}"


def test_cells_with_labels_that_compare_equal():
    with pytest.raises(
        InvalidInputError,
        match=r"`labels_true` must hold sortable labels.*2 distinct labels \(E1, E2\)",
    ):
        PartialTable.from_cells(
            np.array([_AlwaysEqual(1), _AlwaysEqual(2)], dtype=object), [1, 1], [1, 1]
        )


def test_cells_with_bytes_ending_in_nul_stay_distinct():
    table = PartialTable.from_cells([b"a", b"a\x00"], [1, 1], [1, 2])
    assert table.labels_true.tolist() == [b"a", b"a\x00"]
    assert table.counts.tolist() == [1, 2]


def test_cells_with_ragged_tuple_labels():
    labels = np.empty(2, dtype=object)
    labels[:] = [(1, 2), (3,)]
    table = PartialTable.from_cells(labels, [1, 1], [1, 2])
    assert table.labels_true.tolist() == [(1, 2), (3,)]


# --- rng, sampler arguments, counts -------------------------------------------------------


def test_negative_seed_is_refused():
    with pytest.raises(InvalidInputError, match=r"`rng` must be None, a non-negative int.*got -1"):
        random_clustering(5, model="all", rng=-1)


def test_seed_sequence_is_accepted():
    one = random_clustering(5, model="all", rng=np.random.SeedSequence(7))
    two = random_clustering(5, model="all", rng=np.random.default_rng(np.random.SeedSequence(7)))
    assert one.tolist() == two.tolist()


def test_sizes_with_another_model_are_refused():
    with pytest.raises(
        InvalidInputError, match=r"`sizes` is only used with model='perm'; got model='num'"
    ):
        random_clustering(5, model="num", n_clusters=2, sizes=[2, 3])


def test_ragged_counts_are_refused():
    with pytest.raises(InvalidInputError, match=r"`n` must be an array of non-negative integers"):
        log_stirling2([[1, 2], [3]], 1)


# --- tables -------------------------------------------------------------------------------


def test_histogram_value_beyond_int64():
    with pytest.raises(
        InvalidInputError,
        match=r"`sizes_true` values must hold non-negative integer counts below 2\*\*63; got .* at position 1",
    ):
        TableSummary.from_histograms(([1, 2**63], [1, 1]), ([1], [1]), ([1], [1]))


def test_histogram_python_int_value_beyond_int64():
    with pytest.raises(
        InvalidInputError,
        match=r"`cells` values must hold non-negative integer counts below 2\*\*63; got .* at position 1",
    ):
        TableSummary.from_histograms(([1], [1]), ([1], [1]), ([1, 2**64], [1, 1]))


def test_sparse_table_of_one_dimension():
    table = sp.coo_array(np.array([1, 2]))
    if table.ndim != 1:
        pytest.skip("this scipy has no 1-D sparse arrays")
    with pytest.raises(
        InvalidInputError, match=r"`contingency` must be a 2-D table of counts; got shape \(2,\)"
    ):
        mutual_information(contingency=table)


def test_sparse_table_too_large_to_index():
    table = sp.coo_array(([1], ([0], [0])), shape=(2**32, 2**32))
    with pytest.raises(
        InvalidInputError,
        match=r"`contingency` of shape \(4294967296, 4294967296\) is too large to index its cells by int64: K_A K_B must be below 2\*\*63",
    ):
        mutual_information(contingency=table)


def _cells(labels_true, labels_pred, counts):
    def column(values):
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out

    return PartialTable.from_cells(column(labels_true), column(labels_pred), counts)


def test_merge_refuses_other_kinds_named_by_type():
    one = _cells([datetime.date(2020, 1, 1)], [0], [1])
    two = _cells([1], [0], [1])
    with pytest.raises(
        InvalidInputError, match=r"`labels_true` holds labels of different kinds, date"
    ):
        merge_tables([one, two])


def test_merge_booleans_with_big_integers():
    one = PartialTable.from_cells(np.array([True]), [0], [1])
    two = _cells([2**70], [0], [1])
    merged = merge_tables([one, two])
    assert merged.labels_true.tolist() == [1, 2**70]


def test_merge_datetimes_of_different_units():
    one = PartialTable.from_cells(np.array(["2020-01-01"], dtype="datetime64[D]"), [0], [1])
    two = PartialTable.from_cells(np.array(["2020-01-01T12"], dtype="datetime64[s]"), [0], [1])
    merged = merge_tables([one, two])
    assert merged.labels_true.dtype == np.dtype("datetime64[s]")
    assert merged.n == 2


def test_merge_refuses_labels_without_one_order():
    one = _cells([(1,)], [0], [1])
    two = _cells([("a",)], [0], [1])
    with pytest.raises(
        InvalidInputError, match=r"`labels_true` holds labels that cannot be put in one order"
    ):
        merge_tables([one, two])


# --- results and summaries ----------------------------------------------------------------


def test_equality_with_other_types():
    row = compare([0, 0, 1], [0, 1, 1]).rows[0]
    assert row != "ri"
    assert row == ComparisonRow(
        row.measure, row.model, row.one_sided, row.average_method, row.value, row.expected
    )
    assert hash(row) == hash(
        ComparisonRow(
            *[
                getattr(row, f)
                for f in ("measure", "model", "one_sided", "average_method", "value", "expected")
            ]
        )
    )
    table = PartialTable.from_cells([0], [0], [1])
    assert table != "table"
    summary = TableSummary.from_table([[1]])
    assert summary != "summary"
    assert TableSummary.from_table(summary) is summary


def test_cells_of_different_lengths():
    with pytest.raises(InvalidInputError, match=r"one label per cell; got lengths 2 and 1"):
        PartialTable.from_cells([0, 1], [0], [1, 1])


def test_information_of_an_empty_summary():
    summary = TableSummary.from_histograms({}, {}, {})
    assert mutual_information(contingency=summary) == 0.0
    assert variation_of_information(contingency=summary) == 0.0


def test_draws_beyond_what_numpy_can_index(monkeypatch):
    # where the OS does not say how much memory there is, numpy's refusal is ours
    def no_sysconf(name):
        raise OSError(name)

    monkeypatch.setattr(samplers.os, "sysconf", no_sysconf)
    with pytest.raises(
        InvalidInputError,
        match=r"Drawing m=1099511627776 clustering\(s\) of n=1099511627776 elements would need about .* draw fewer",
    ):
        random_clusterings(2**40, 2**40, model="all", rng=0)


def test_mi_variance_beyond_the_slot_windows():
    half = 10**9 // 2
    with pytest.raises(
        InvalidInputError,
        match=r"windows of about 3\.06e\+05 counts here \(N = 1000000000\), more than the 65536",
    ):
        mutual_information_variance(contingency=[[half, 0], [0, half]], model="num")


def test_significance_of_no_elements():
    with pytest.raises(InvalidInputError, match=r"must label at least one element; got 0"):
        significance_test("ari", [], [], model="perm")
