"""Labels with a mask: numpy masked arrays, pandas' nullable dtypes (Int64, boolean,
Float64, Arrow-backed ints, Categoricals of ints with NA) and pyarrow arrays with nulls.

Each masked element is a missing label, exactly as None is in a list; the other labels keep
their own values and type. Before, a masked array's mask was ignored (its hidden values read
as labels, even under unassigned='raise'), and an Int64 Series with NA went through float64,
which merged the labels 2**53 and 2**53 + 1 into one cluster (so did a pyarrow int64 array
with nulls, through numpy's conversion). Every entry point is checked
against the same labels given as a list with None.
"""

from __future__ import annotations

import math
from contextlib import nullcontext

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import chanceclust as cc

pd = pytest.importorskip("pandas")

BIG = 2**53
#: The reference: the labels as a list, None where the mask is.
TRUE = [BIG, BIG + 1, None, 5, BIG, BIG + 1, 5, 5]
PRED = [0, 1, 1, 2, 0, 1, 2, None]


def _masked_array(labels: list, dtype=np.int64):
    mask = [v is None for v in labels]
    return np.ma.masked_array([0 if v is None else v for v in labels], mask=mask, dtype=dtype)


CONTAINERS = {
    "numpy masked array": _masked_array,
    "pandas Int64": lambda labels: pd.Series(labels, dtype="Int64"),
    "pandas UInt64": lambda labels: pd.Series(labels, dtype="UInt64"),
    "pandas Categorical": lambda labels: pd.Series(pd.Categorical(labels)),
}


def _arrow(labels):
    pytest.importorskip("pyarrow")
    return pd.Series(pd.array(labels, dtype="int64[pyarrow]"))


CONTAINERS["pandas int64[pyarrow]"] = _arrow


def _pyarrow_array(labels):
    pa = pytest.importorskip("pyarrow")
    return pa.array(labels, type=pa.int64())


def _pyarrow_chunked(labels):
    pa = pytest.importorskip("pyarrow")
    return pa.chunked_array([labels[:3], labels[3:]], type=pa.int64())


def _polars(labels):
    pl = pytest.importorskip("polars")
    return pl.Series(labels, dtype=pl.Int64)


CONTAINERS["pyarrow Array"] = _pyarrow_array
CONTAINERS["pyarrow ChunkedArray"] = _pyarrow_chunked
CONTAINERS["polars Series"] = _polars


def _close(got, want):
    return all(math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-15) for g, w in zip(got, want,
                                                                                  strict=True))


def _values(a, b, **policy):
    return (
        cc.adjusted_rand_index(a, b, **policy),
        cc.adjusted_mutual_information(a, b, model="num", **policy),
        cc.standardized_mutual_information(a, b, model="all", **policy),
    )


@pytest.mark.parametrize("container", list(CONTAINERS))
def test_the_mask_is_missing_labels_under_every_policy(container):
    make = CONTAINERS[container]
    a, b = make(TRUE), make(PRED)
    for policy in ("drop", "singletons", "cluster"):
        assert _close(_values(a, b, unassigned=policy), _values(TRUE, PRED, unassigned=policy))
    with pytest.raises(cc.InvalidInputError, match=r"masked elements"):
        cc.adjusted_rand_index(a, b)  # unassigned='raise': the mask is not ignored


@pytest.mark.parametrize("container", list(CONTAINERS))
def test_labels_beyond_2_53_stay_apart(container):
    """2**53 and 2**53 + 1 are two clusters (float64 would make them one)."""
    table = cc.contingency_table(CONTAINERS[container](TRUE), PRED, unassigned="drop")
    want = cc.contingency_table(TRUE, PRED, unassigned="drop")
    np.testing.assert_array_equal(table, want)
    assert table.shape[0] == 3


@pytest.mark.parametrize("container", list(CONTAINERS))
def test_every_entry_point_reads_the_mask(container):
    make = CONTAINERS[container]
    a, b = make(TRUE), make(PRED)
    want = _values(TRUE, PRED, unassigned="drop")
    matrix = cc.pairwise([a, b], measure="ari", unassigned="drop").values
    assert math.isclose(matrix[0, 1], want[0], rel_tol=1e-12)
    parts = [cc.partial_table(a[i:j], b[i:j], unassigned="drop") for i, j in ((0, 3), (3, 8))]
    merged = cc.merge_tables(parts)
    assert math.isclose(cc.adjusted_rand_index(contingency=merged), want[0], rel_tol=1e-12)
    assert math.isclose(cc.adjusted_rand_index(contingency=merged.summary()), want[0],
                        rel_tol=1e-12)
    assert math.isclose(cc.compare(a, b, unassigned="drop").get("ARI", "perm"), want[0],
                        rel_tol=1e-12)
    # the labels of the table are the user's, in their own type
    labels = cc.partial_table(a, b, unassigned="drop").labels_true
    assert sorted(int(v) for v in labels) == [5, BIG, BIG + 1]
    assert np.asarray(labels).dtype.kind in "iuO"


def test_dask_series_read_the_mask():
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    ccd = pytest.importorskip("chanceclust.dask")
    frame = pd.DataFrame({"t": pd.Series(TRUE, dtype="Int64"), "p": pd.Series(PRED, dtype="Int64")})
    ddf = dd.from_pandas(frame, npartitions=2)
    with dask.config.set(scheduler="synchronous"):
        table = ccd.contingency_table((ddf["t"], ddf["p"]), unassigned="drop")
    want = cc.partial_table(TRUE, PRED, unassigned="drop")
    assert cc.adjusted_rand_index(contingency=table) == pytest.approx(
        cc.adjusted_rand_index(contingency=want), rel=1e-12
    )


@pytest.mark.parametrize(
    ("labels", "plain"),
    [
        (pd.Series([True, False, None, True], dtype="boolean"), [True, False, None, True]),
        (pd.Series([1.5, None, 2.0, 1.5], dtype="Float64"), [1.5, None, 2.0, 1.5]),
        (np.ma.masked_array(np.array(["x", "y", "z", "x"], dtype=object), mask=[0, 1, 0, 0]),
         ["x", None, "z", "x"]),
        (np.ma.masked_array(["x", "y", "z", "x"], mask=[0, 1, 0, 0]), ["x", None, "z", "x"]),
    ],
    ids=["boolean", "Float64", "masked objects", "masked strings"],
)
def test_other_masked_kinds(labels, plain):
    other = [0, 0, 1, 1]

    def continuous():  # our warning for non-integral float labels
        return pytest.warns(UserWarning, match="continuous") if plain[0] == 1.5 else nullcontext()

    with continuous():
        got = cc.contingency_table(labels, other, unassigned="drop")
    with continuous():
        want = cc.contingency_table(plain, other, unassigned="drop")
    np.testing.assert_array_equal(got, want)


def test_a_mask_with_nothing_masked_is_the_array():
    labels = np.ma.masked_array([3, 1, 3, 2])
    np.testing.assert_array_equal(cc.contingency_table(labels, [0, 0, 1, 1]),
                                  cc.contingency_table([3, 1, 3, 2], [0, 0, 1, 1]))



@pytest.mark.parametrize(
    ("values", "kind"),
    [([True, None, False, True], "bool"), (["x", None, "z", "x"], "string"),
     ([1.0, None, 2.0, 1.0], "double")],
)
def test_pyarrow_arrays_of_other_types_with_nulls(values, kind):
    pa = pytest.importorskip("pyarrow")
    other = [0, 0, 1, 1]
    for labels in (pa.array(values), pa.chunked_array([values[:2], values[2:]])):
        assert str(labels.type) == kind
        np.testing.assert_array_equal(cc.contingency_table(labels, other, unassigned="drop"),
                                      cc.contingency_table(values, other, unassigned="drop"))
        with pytest.raises(cc.InvalidInputError, match="position 1"):
            cc.contingency_table(labels, other)


@pytest.mark.parametrize(
    "values",
    [TRUE, [True, None, False, True], ["x", None, "z", "x"], [1.0, None, 2.0, 1.0]],
    ids=["Int64 beyond 2**53", "Boolean", "String", "Float64"],
)
def test_polars_series_with_nulls(values):
    """A polars Series reads its nulls as missing and its numbers in their own dtype (its
    numpy conversion gives floats where a null is)."""
    pl = pytest.importorskip("polars")
    labels = pl.Series(values)
    other = list(range(len(values)))
    np.testing.assert_array_equal(cc.contingency_table(labels, other, unassigned="drop"),
                                  cc.contingency_table(values, other, unassigned="drop"))
    with pytest.raises(cc.InvalidInputError, match="unassigned element"):
        cc.adjusted_rand_index(labels, other)
    if values is TRUE:
        kept = cc.partial_table(labels, other, unassigned="drop").labels_true
        assert [int(v) for v in kept] == [5, BIG, BIG + 1]


def test_pyarrow_and_polars_without_nulls_read_without_warnings():
    """Read by their own conversion (pyarrow's DLPack export of strings warned that its
    unversioned capsule is deprecated: an error under -W error)."""
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    want = cc.contingency_table(["a", "b", "a"], [0, 1, 1])
    for labels in (pa.array(["a", "b", "a"]), pa.chunked_array([["a"], ["b", "a"]]),
                   pl.Series(["a", "b", "a"]), pa.array([1, 2, 1]), pl.Series([1, 2, 1])):
        np.testing.assert_array_equal(cc.contingency_table(labels, [0, 1, 1]), want)


_INTS = st.one_of(st.integers(-3, 3), st.sampled_from([2**53, 2**53 + 1, 2**62, 2**63 - 1, -(2**63)]))


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(st.one_of(st.none(), _INTS), min_size=1, max_size=12),
    marked=st.one_of(st.none(), st.sampled_from([-1, 2**53])),
    container=st.sampled_from(sorted(CONTAINERS)),
    unassigned=st.sampled_from(["raise", "drop", "singletons", "cluster"]),
)
def test_containers_read_like_the_list(labels, marked, container, unassigned):
    """Any integer labels with None, in any masked container, give the list's table (or the
    list's error) under every policy, with or without an unassigned_label."""
    assume(container != "pandas UInt64" or all(v is None or v >= 0 for v in labels))
    other = [i % 3 for i in range(len(labels))]
    policy = {"unassigned": unassigned}
    if marked is not None:
        policy["unassigned_label"] = marked
    def table(labels):
        try:
            return cc.contingency_table(labels, other, **policy)
        except cc.InvalidInputError as error:  # the same refusal is the expected outcome
            return type(error)

    want, got = table(labels), table(CONTAINERS[container](labels))
    if isinstance(want, type):
        assert got is want
    else:
        np.testing.assert_array_equal(got, want)
