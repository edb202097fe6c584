"""Unassigned elements (#11): one policy, ``unassigned_label=`` and ``unassigned=``, everywhere.

Every function that takes labels is called on HDBSCAN-style labels (-1 and -2 for noise)
under each policy and must equal the same function called on labels fixed by hand.
"""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pandas as pd
import pytest

import chanceclust as cc
from chanceclust.cli import main
from chanceclust.exceptions import InvalidInputError

# --------------------------------------------------------------------------- registry

POLICIES = ("drop", "singletons", "cluster")


def _value(result):
    """A comparable value of any function's result."""
    if isinstance(result, cc.ComparisonResult):
        return (result.n, result.n_clusters_true, result.n_clusters_pred, result.to_dict())
    if isinstance(result, (cc.SignificanceTestResult, cc.MonteCarloAdjustedResult)):
        return tuple(
            v.tolist() if isinstance(v, np.ndarray) else v for v in vars(result).values()
        )
    if isinstance(result, np.ndarray):
        return result.tolist()
    return result


# name: f(labels_true, labels_pred, **policy keywords)
PAIR_FUNCTIONS = {
    "rand_index": cc.rand_index,
    "adjusted_rand_index": lambda a, b, **kw: cc.adjusted_rand_index(a, b, model="num", **kw),
    "mutual_information": cc.mutual_information,
    "normalized_mutual_information": cc.normalized_mutual_information,
    "adjusted_mutual_information": lambda a, b, **kw: cc.adjusted_mutual_information(
        a, b, model="all", one_sided=True, **kw
    ),
    "fowlkes_mallows_index": cc.fowlkes_mallows_index,
    "jaccard_index": cc.jaccard_index,
    "variation_of_information": cc.variation_of_information,
    "expected_rand_index": lambda a, b, **kw: cc.expected_rand_index(a, b, model="num", **kw),
    "expected_mutual_information": cc.expected_mutual_information,
    "contingency_table": cc.contingency_table,
    "pair_counts": cc.pair_counts,
    "compare": cc.compare,
    "rand_index_variance": lambda a, b, **kw: cc.rand_index_variance(a, b, model="all", **kw),
    "standardized_rand_index": cc.standardized_rand_index,
    "significance_test": lambda a, b, **kw: cc.significance_test(
        "ari", a, b, model="num", n_resamples=30, rng=0, **kw
    ),
    "null_distribution": lambda a, b, **kw: cc.null_distribution(
        "ami", a, b, model="perm", n_resamples=20, rng=1, **kw
    ),
    "monte_carlo_adjusted": lambda a, b, **kw: cc.monte_carlo_adjusted(
        "jaccard", a, b, model="all", n_resamples=20, rng=2, **kw
    ),
    "monte_carlo_adjusted_callable": lambda a, b, **kw: cc.monte_carlo_adjusted(
        cc.rand_index, a, b, model="num", n_resamples=10, rng=3, **kw
    ),
}

# HDBSCAN marks noise -1 (and -2, -3 for other reasons); the truth has a missing value too.
TRUTH = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, None, 2]
PRED = [5, 5, 5, -1, 7, 7, 7, -2, 9, 9, 9, -1]
NOISE = (-1, -2)


def by_hand(policy):
    """The same clusterings with the policy applied by hand."""
    t, p = list(TRUTH), list(PRED)
    missing_t = [x is None for x in t]
    missing_p = [x in NOISE for x in p]
    if policy == "drop":
        keep = [not (u or v) for u, v in zip(missing_t, missing_p, strict=True)]
        return [x for x, k in zip(t, keep, strict=True) if k], [
            x for x, k in zip(p, keep, strict=True) if k
        ]
    if policy == "singletons":  # new labels above the others, increasing with position
        t = [100 + i if m else x for i, (x, m) in enumerate(zip(t, missing_t, strict=True))]
        p = [100 + i if m else x for i, (x, m) in enumerate(zip(p, missing_p, strict=True))]
        return t, p
    t = [99 if m else x for x, m in zip(t, missing_t, strict=True)]
    p = [99 if m else x for x, m in zip(p, missing_p, strict=True)]
    return t, p


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("name", list(PAIR_FUNCTIONS))
def test_policy_equals_the_computation_by_hand(name, policy):
    """Each policy gives what the user would get by fixing the labels by hand."""
    func = PAIR_FUNCTIONS[name]
    got = func(TRUTH, PRED, unassigned_label=list(NOISE), unassigned=policy)
    expected = func(*by_hand(policy))
    assert _value(got) == _value(expected)


@pytest.mark.parametrize("name", list(PAIR_FUNCTIONS))
def test_default_raises_with_count_position_and_options(name):
    """Default 'raise': which argument, how many, the first position, the three ways out."""
    func = PAIR_FUNCTIONS[name]
    with pytest.raises(ValueError, match=re.escape("`labels_pred` has 3 unassigned element(s)")):
        func([0, 0, 1, 1, 2, 2], [0, -1, 1, -1, 2, -2], unassigned_label=[-1, -2])
    with pytest.raises(ValueError, match="unassigned element") as info:
        func(TRUTH, PRED, unassigned_label=NOISE)
    message = str(info.value)
    for part in (
        "`labels_true` has 1 unassigned element(s), the first at position 10",
        "`labels_pred` has 3 unassigned element(s), the first at position 3",
        "unassigned='drop'",
        "'singletons'",
        "'cluster'",
    ):
        assert part in message


@pytest.mark.parametrize("name", list(PAIR_FUNCTIONS))
def test_without_unassigned_elements_nothing_changes(name):
    """No unassigned element: every policy gives the default's value."""
    func = PAIR_FUNCTIONS[name]
    a, b = [0, 0, 1, 1, 2, 2, 2], [1, 1, 1, 0, 0, 2, 2]
    expected = _value(func(a, b))
    for policy in POLICIES:
        assert _value(func(a, b, unassigned_label=-1, unassigned=policy)) == expected


def test_entropy_policies():
    """entropy() takes the same policy for its one labeling."""
    labels = [0, 0, 1, -1, np.nan, 1]
    with pytest.raises(ValueError, match=r"`labels` has 2 unassigned element\(s\)"):
        cc.entropy(labels, unassigned_label=-1)
    assert cc.entropy(labels, unassigned_label=-1, unassigned="drop") == cc.entropy([0, 0, 1, 1])
    assert cc.entropy(labels, unassigned_label=-1, unassigned="singletons") == cc.entropy(
        [0, 0, 1, 2, 3, 1]
    )
    assert cc.entropy(labels, unassigned_label=-1, unassigned="cluster") == cc.entropy(
        [0, 0, 1, 2, 2, 1]
    )


def test_drop_applies_to_either_side_and_renumbers():
    """'drop' removes an element unassigned in either clustering; emptied clusters vanish."""
    a = [0, 0, 1, 1, -1, 2]
    b = [0, 0, 1, 1, 3, -1]  # cluster 3 of b and cluster 2 of a lose their only element
    table = cc.contingency_table(a, b, unassigned_label=-1, unassigned="drop")
    np.testing.assert_array_equal(table, [[2, 0], [0, 2]])
    result = cc.compare(a, b, unassigned_label=-1, unassigned="drop")
    assert (result.n, result.n_clusters_true, result.n_clusters_pred) == (4, 2, 2)
    assert result.unassigned == cc.UnassignedReport("drop", 1, 1, 2, 0)


def test_drop_shrinks_the_random_model():
    """After 'drop' the model is that of the elements kept: N and K are those of the kept."""
    a = [0, 0, 0, 1, 1, 1, 2, 2, -1, -1]
    b = [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
    kept = cc.expected_rand_index(a[:8], b[:8], model="all")
    assert cc.expected_rand_index(a, b, model="all", unassigned_label=-1, unassigned="drop") == kept
    assert kept != cc.expected_rand_index(a, b, model="all", unassigned_label=-1,
                                          unassigned="cluster")


def test_compare_reports_what_happened():
    """compare() counts the unassigned elements and what was done with them, and says so."""
    result = cc.compare(TRUTH, PRED, unassigned_label=NOISE, unassigned="singletons")
    assert result.unassigned == cc.UnassignedReport("singletons", 1, 3, 0, 4)
    assert result.n == 12
    assert result.n_clusters_pred == 3 + 3
    assert "4 unassigned element(s) re-assigned, each its own cluster" in str(result).splitlines()[0]
    clean = cc.compare([0, 1], [0, 1])
    assert clean.unassigned == cc.UnassignedReport("raise", 0, 0, 0, 0)
    assert str(clean).splitlines()[0] == "N = 2, K_true = 2, K_pred = 2"
    cluster = cc.compare(TRUTH, PRED, unassigned_label=NOISE, unassigned="cluster")
    assert cluster.unassigned.n_reassigned == 4
    assert cluster.n_clusters_true == 4


@pytest.mark.parametrize(
    "missing",
    [None, float("nan"), np.nan, np.float32("nan"), pd.NA, pd.NaT, np.datetime64("NaT", "ns")],
    ids=["None", "nan", "np.nan", "float32_nan", "pd.NA", "pd.NaT", "np.NaT"],
)
def test_missing_values_are_always_unassigned(missing):
    """None, NaN, pd.NA and NaT never form a cluster (pd.NA and NaT used to)."""
    a = ["x", "x", missing, "y", missing]
    b = [0, 0, 1, 1, 1]
    with pytest.raises(ValueError, match=r"`labels_true` has 2 unassigned element\(s\)"):
        cc.rand_index(a, b)
    assert cc.rand_index(a, b, unassigned="drop") == cc.rand_index(["x", "x", "y"], [0, 0, 1])
    assert cc.rand_index(a, b, unassigned="singletons") == cc.rand_index(
        ["x", "x", 1, "y", 2], b
    )


def test_pandas_missing_values():
    """Nullable integers (pd.NA), datetimes (NaT) and categoricals (NaN) in Series."""
    a = pd.Series([1, 1, None, 2], dtype="Int64")
    dates = pd.Series(pd.to_datetime(["2020-01-01", "2020-01-01", None, "2021-01-01"]))
    cat = pd.Series(["a", "a", None, "b"], dtype="category")
    b = [0, 0, 1, 1]
    for labels in (a, dates, cat):
        with pytest.raises(ValueError, match="position 2"):
            cc.adjusted_rand_index(labels, b)
        assert cc.adjusted_rand_index(labels, b, unassigned="drop") == 1.0


def test_unassigned_label_forms():
    """A label or a collection; strings match strings only; floats match integral labels."""
    a = ["n", "n", "-1", "m", "m"]
    b = [0, 0, 1, 1, 1]
    assert cc.rand_index(a, b, unassigned_label="-1", unassigned="drop") == 1.0
    with pytest.raises(ValueError, match="unassigned"):
        cc.rand_index(a, b, unassigned_label="-1")
    # -1 does not match the string "-1": labels keep their identity.
    assert cc.rand_index(a, b, unassigned_label=-1) == cc.rand_index(a, b)
    ints = np.array([3, 3, -1, 4, -3])
    for marks in ({-1, -3}, (-1, -3), [-1, -3], np.array([-1, -3]), frozenset({-1.0, -3})):
        assert cc.contingency_table(ints, b, unassigned_label=marks, unassigned="drop").sum() == 3


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.float64])
def test_numeric_arrays_with_unassigned_label(dtype):
    """The vectorized paths (dense integers, sorted uniques) honour unassigned_label."""
    labels = np.array([7, 7, 9, 9, 100, 9], dtype=dtype)
    codes = cc.contingency_table(labels, np.zeros(6, int), unassigned_label=100,
                                 unassigned="cluster")
    np.testing.assert_array_equal(codes.ravel(), [2, 3, 1])
    sparse = np.array([7, 7, 10**6, 10**6, 100, 9])  # not dense: the np.unique path
    table = cc.contingency_table(sparse, np.zeros(6, int), unassigned_label=[100, 10**6],
                                 unassigned="drop")
    np.testing.assert_array_equal(table.ravel(), [2, 1])


def test_unassigned_label_on_uint64_extremes():
    """Marks are compared as Python ints: no overflow for uint64 labels near 2**64."""
    top = 2**64 - 1
    labels = np.array([top, top, top - 1, top - 2], dtype=np.uint64)
    table = cc.contingency_table(labels, [0, 0, 1, 1], unassigned_label=top - 1,
                                 unassigned="drop")
    np.testing.assert_array_equal(table, [[0, 1], [2, 0]])


def test_bad_policy_arguments():
    """Unknown policy and unhashable marks are refused by name."""
    with pytest.raises(ValueError, match=r"`unassigned` must be one of 'raise', 'drop', "
                                         r"'singletons', 'cluster'; got 'ignore'"):
        cc.rand_index([0], [0], unassigned="ignore")
    with pytest.raises(ValueError, match="`unassigned_label` must hold hashable labels"):
        cc.rand_index([0], [0], unassigned_label=[[-1]])
    with pytest.raises(ValueError, match="`unassigned_label` applies to labels"):
        cc.rand_index(contingency=[[1, 0], [0, 1]], unassigned_label=-1)
    # #21: a policy with a table, where it can do nothing, is refused (it was a silent no-op)
    with pytest.raises(ValueError, match="`unassigned` applies to labels; a `contingency` table"):
        cc.rand_index(contingency=[[1, 0], [0, 1]], unassigned="drop")
    assert cc.rand_index(contingency=[[1, 0], [0, 1]], unassigned="raise") == 1.0


def test_everything_dropped():
    """Dropping every element is an error that says so (#20: it was a silent 1.0); an input
    with no elements at all keeps the documented N = 0 convention (1.0)."""
    with pytest.raises(InvalidInputError, match="leaves no element to compare: each of the 2"):
        cc.adjusted_rand_index([-1, -1], [0, 1], unassigned_label=-1, unassigned="drop")
    with pytest.raises(InvalidInputError, match="leaves no element"):
        cc.adjusted_rand_index([None, 1], [0, float("nan")], unassigned="drop")
    with pytest.raises(InvalidInputError, match="leaves no element"):
        cc.significance_test("ari", [-1, -1], [0, 1], model="perm", unassigned_label=-1,
                             unassigned="drop")
    with pytest.raises(InvalidInputError, match="leaves no element"):
        cc.compare({"a": 0, "b": 1}, {"c": 0, "d": 1}, unassigned="drop")
    with pytest.raises(InvalidInputError, match="leaves no element"):
        cc.contingency_table([-1, -1], [0, 1], unassigned_label=-1, unassigned="drop")
    assert cc.adjusted_rand_index([], []) == 1.0


def test_sklearn_cluster_policy_equals_sklearn():
    """'cluster' is what scikit-learn does with -1: one more cluster."""
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    a = [0, 0, 1, 1, 2, 2, -1, -1]
    b = [0, 0, 1, -1, 2, 2, 2, -1]
    ours = cc.adjusted_rand_index(a, b, unassigned_label=-1, unassigned="cluster")
    assert ours == pytest.approx(sklearn_metrics.adjusted_rand_score(a, b), abs=1e-15)


# --------------------------------------------------------------------------- command line


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def noisy(tmp_path):
    truth = tmp_path / "truth.txt"
    truth.write_text("".join(f"{x}\n" for x in [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, "NA", 2]))
    pred = tmp_path / "pred.txt"
    pred.write_text("".join(f"{x}\n" for x in PRED))
    return truth, pred


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("command", ["compare", "table", "test"])
def test_cli_policy_equals_the_library(capsys, noisy, policy, command):
    """--unassigned with repeatable --unassigned-label (negative values work) = the API."""
    truth, pred = noisy
    extra = ["--seed", "0", "--samples", "20"] if command == "test" else []
    status, out, err = run(capsys, command, truth, pred, "--unassigned-label", "-1",
                           "--unassigned-label=-2", "--unassigned", policy, "--format", "json",
                           *extra)
    assert status == 0, err
    doc = json.loads(out)
    report = cc.compare(TRUTH, PRED, unassigned_label=NOISE, unassigned=policy).unassigned
    assert doc["unassigned"] == {
        "policy": policy,
        "n_unassigned_a": report.n_unassigned_true,
        "n_unassigned_b": report.n_unassigned_pred,
        "n_dropped": report.n_dropped,
        "n_reassigned": report.n_reassigned,
    }
    assert doc["n"] == (8 if policy == "drop" else 12)
    if command == "compare":
        assert doc["results"][0]["value"] == cc.adjusted_rand_index(
            TRUTH, PRED, unassigned_label=NOISE, unassigned=policy)
    assert "unassigned element(s)" in err
    status, out, _ = run(capsys, command, truth, pred, "--unassigned-label", "-1",
                         "--unassigned-label", "-2", "--unassigned", policy, "-q", *extra)
    assert report.describe(str(truth), str(pred)) in out.splitlines()[0]


def test_cli_default_raises_at_the_file_and_line(capsys, noisy):
    truth, pred = noisy
    status, _, err = run(capsys, "compare", truth, pred)
    assert status == 2
    assert f"{truth}:11: element 11 has no cluster (missing label)" in err
    assert "--unassigned drop" in err
    status, _, err = run(capsys, "compare", truth, pred, "--na", "keep", "--unassigned-label",
                         "-1")
    assert status == 2
    assert f"{pred}:4: element 4 has no cluster (label '-1' is an --unassigned-label)" in err


def test_cli_keyed_files_and_the_removed_aliases(capsys, tmp_path):
    """Keyed files with elements missing on one side follow --unassigned; the pre-release
    aliases --missing and --na drop are gone (#19)."""
    for alias in (["--missing", "intersect"], ["--na", "drop"]):
        status, _, _ = run(capsys, "compare", "x.txt", "y.txt", *alias)
        assert status == 2
    a = tmp_path / "a.txt"
    a.write_text("e1\tx\ne2\tx\ne3\ty\ne4\ty\n")
    b = tmp_path / "b.txt"
    b.write_text("e2\t1\ne3\t2\ne4\t2\ne9\t1\n")
    _, out, _ = run(capsys, "compare", a, b, "--unassigned", "drop", "--format", "json")
    assert json.loads(out)["n"] == 3
    status, out, _ = run(capsys, "compare", a, b, "--unassigned", "singletons", "--format",
                         "json")
    assert status == 0
    assert json.loads(out)["n"] == 5
    status, _, err = run(capsys, "compare", a, b)
    assert status == 2
    assert f"{a}:1: element 'e1' has no cluster (absent from {b})" in err


# --------------------------------------------------------------------------- the value


def test_the_policy_is_parsed_once_into_a_value():
    """check_unassigned gives one frozen value per policy (a value passes through as it is);
    what each does is a member, so readers never compare a name."""
    from chanceclust._validation import POLICIES, Unassigned, check_unassigned

    assert set(POLICIES) == {"raise", "drop", "singletons", "cluster"}
    for name, policy in POLICIES.items():
        assert check_unassigned(name) is policy and check_unassigned(policy) is policy
        assert policy.name == name
    flags = {n: (p.refuses, p.drops, p.reassigns, p.singletons) for n, p in POLICIES.items()}
    assert flags == {"raise": (True, False, False, False), "drop": (False, True, False, False),
                     "singletons": (False, False, True, True),
                     "cluster": (False, False, True, False)}  # fmt: skip
    # the codes a policy gives 3 unassigned elements after K = 5 clusters, by hand
    codes = np.array([0, -1, 4, -1, -1], dtype=np.int32)
    assert [c.tolist() for c in POLICIES["singletons"].reassign(codes, 5, 3)[:1]] == [
        [0, 5, 4, 6, 7]]
    assert POLICIES["singletons"].reassign(codes, 5, 3)[1:] == (8, 3)
    assert POLICIES["cluster"].reassign(codes, 5, 3)[0].tolist() == [0, 5, 4, 5, 5]
    assert POLICIES["cluster"].reassign(codes, 5, 3)[1:] == (6, 3)
    assert codes.tolist() == [0, -1, 4, -1, -1]  # not changed in place
    with pytest.raises(dataclasses.FrozenInstanceError):
        POLICIES["drop"].drops = False  # type: ignore[misc]
    assert isinstance(POLICIES["drop"], Unassigned)


def test_no_reader_compares_the_policy_to_a_name():
    """Outside its parsing (``_validation``), no module of the library or its CLI's cells
    reader compares a policy to 'raise'/'drop'/'singletons'/'cluster' (issue #33)."""
    from _package_source import SRC

    pattern = re.compile(r"""policy\S*\s*(==|!=|\bin\b|\bnot in\b)|(==|!=)\s*["'](raise|drop|"""
                         r"""singletons|cluster)["']""")  # fmt: skip
    files = ["_validation.py", "_tables.py", "contingency.py", "summary.py", "dask.py",
             "allpairs.py"]  # fmt: skip
    for name in files:
        text = (SRC / "chanceclust" / name).read_text()
        assert not pattern.search(text), (name, pattern.search(text))
    cli = (SRC / "chanceclust" / "_cli" / "inputs.py").read_text()
    read_cells = cli[cli.index("def read_cells("):cli.index("def _in_label_order(")]
    assert not pattern.search(read_cells)


def test_cells_file_refusal_offers_the_policies_in_the_one_sentence(capsys, tmp_path):
    """The cells reader's 'raise' names its line and offers the policies with the library's
    sentence, spelled as CLI options."""
    from chanceclust._validation import choose_policy

    path = tmp_path / "c.tsv"
    path.write_text("a\tx\t3\nNA\tx\t2\n")
    assert main(["compare", "--contingency", str(path)]) == 2
    err = capsys.readouterr().err
    assert "c.tsv:2:" in err
    assert choose_policy("--unassigned") in err
    assert "--unassigned drop leaves them out" in err
