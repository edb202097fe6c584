"""SRI and SMI through the library: significance_test's exact route, the variance
functions on tables and summaries, and the command line.

The exact route's p-values and moments are checked against the null law computed here by
enumerating every clustering of the model (small N; the RI and MI of each table by their
textbook formulas, independent of the library).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest

import chanceclust as cc
from chanceclust.cli import main
from chanceclust.significance import METHODS

A = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
B = [0, 0, 1, 1, 1, 1, 2, 2, 2, 0]


# ----------------------------------------------------------- independent references


def _ri(a, b) -> float:
    n = len(a)
    same = sum((a[i] == a[j]) == (b[i] == b[j]) for i in range(n) for j in range(i + 1, n))
    return same / (n * (n - 1) / 2)


def _mi(a, b) -> float:
    n = len(a)
    cells, rows, cols = Counter(zip(a, b, strict=True)), Counter(a), Counter(b)
    return sum(c / n * math.log(n * c / (rows[i] * cols[j])) for (i, j), c in cells.items())


def _partitions(n: int, k: int | None = None):
    """Every partition of n elements (restricted growth strings), with k blocks if given."""

    def grow(prefix, used):
        if len(prefix) == n:
            if k is None or used == k:
                yield list(prefix)
            return
        for label in range(used + 1):
            yield from grow([*prefix, label], max(used, label + 1))

    yield from grow([0], 1) if n else iter([[]])


def _perm_clusterings(labels):
    """Every distinct arrangement of a label multiset (the perm model of one side)."""
    return [list(p) for p in set(itertools.permutations(labels))]


def _moments(values) -> tuple[float, float]:
    values = np.asarray(values, dtype=np.float64)
    return float(values.mean()), float(values.var())


def _null_values(f, model: str, one_sided: bool, a, b):
    n = len(a)
    if model == "perm":
        return [f(a, y) for y in _perm_clusterings(b)]
    k_a, k_b = len(set(a)), len(set(b))
    rand = (lambda k: list(_partitions(n, k))) if model == "num" else (
        lambda k: list(_partitions(n))
    )
    firsts = [a] if one_sided else rand(k_a)
    seconds = rand(k_b)
    return [f(x, y) for x in firsts for y in seconds]


def _reference_pvalue(f, model, one_sided, a, b, alternative="greater") -> float:
    """The tail of the enumerated null law (values within 1e-9 relative count as ties)."""
    values = np.asarray(_null_values(f, model, one_sided, a, b))
    observed = f(a, b)
    tol = 1e-9 * max(1.0, abs(observed))
    greater = float(np.mean(values >= observed - tol))
    less = float(np.mean(values <= observed + tol))
    return {"greater": greater, "less": less, "two-sided": min(1.0, 2 * min(greater, less))}[
        alternative
    ]


# ------------------------------------------------------------------- the exact route

SMALL = [  # (model, one_sided, a, b): enumerable ensembles
    ("perm", False, A, B),
    ("num", False, [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]),
    ("num", True, [0, 0, 1, 1, 2, 2, 0], [0, 1, 1, 0, 0, 1, 1]),
    ("all", False, [0, 0, 1, 1, 2], [0, 0, 0, 1, 1]),
    ("all", True, [0, 0, 1, 1, 2, 2], [0, 1, 1, 2, 2, 2]),
]


@pytest.mark.parametrize(("model", "one_sided", "a", "b"), SMALL)
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_exact_pvalue_equals_enumerated_law(model, one_sided, a, b, alternative):
    """p = the tail of the enumerated null law."""
    for names, f in ((("ri", "sri"), _ri), (("mi", "smi"), _mi)):
        want = _reference_pvalue(f, model, one_sided, a, b, alternative)
        for name in names:
            got = cc.significance_test(name, a, b, model=model, one_sided=one_sided,
                                       alternative=alternative, method="exact")  # fmt: skip
            assert got.method == "exact"
            assert got.null_distribution.shape == (0,)
            assert got.pvalue == pytest.approx(want, rel=1e-9, abs=1e-15), (name, model)


@pytest.mark.parametrize(("model", "one_sided", "a", "b"), SMALL)
def test_exact_result_moments_and_zscore(model, one_sided, a, b):
    """The raw statistic comes with its exact null mean and sd; the z-score is SRI or SMI."""
    kw = {"model": model, "one_sided": one_sided}
    for raw, z_name, f, z in (
        ("ri", "sri", _ri, cc.standardized_rand_index),
        ("mi", "smi", _mi, cc.standardized_mutual_information),
    ):
        mean, variance = _moments(_null_values(f, model, one_sided, a, b))
        result = cc.significance_test(raw, a, b, method="exact", **kw)
        assert result.statistic == pytest.approx(f(a, b), rel=1e-12)
        assert result.null_mean == pytest.approx(mean, rel=1e-10)
        assert result.null_std == pytest.approx(math.sqrt(variance), rel=1e-10)
        assert result.zscore == pytest.approx(z(a, b, **kw), rel=1e-9, abs=1e-12)
        standardized = cc.significance_test(z_name, a, b, method="exact", **kw)
        assert standardized.statistic == z(a, b, **kw)  # the single call's value
        assert (standardized.null_mean, standardized.null_std) == (0.0, 1.0)
        assert standardized.pvalue == result.pvalue


def test_exact_adjusted_is_the_exact_adjusted_index():
    """adjusted() of the exact route uses the exact E[s]: ARI for RI, with no error."""
    result = cc.significance_test("ri", A, B, model="num", method="exact")
    adjusted = result.adjusted()
    assert adjusted.value == pytest.approx(cc.adjusted_rand_index(A, B, model="num"), rel=1e-12)
    assert (adjusted.value_stderr, adjusted.expected_stderr, adjusted.n_resamples) == (0, 0, 0)


def test_exact_route_without_spread_is_one():
    """A single-valued ensemble (one cluster): p = 1 for every alternative, z = 0."""
    for alternative in ("greater", "less", "two-sided"):
        r = cc.significance_test("smi", [0] * 6, [0, 1, 2, 0, 1, 2], model="perm",
                                 alternative=alternative, method="exact")  # fmt: skip
        assert (r.pvalue, r.statistic, r.zscore) == (1.0, 0.0, 0.0)


def test_exact_route_refuses_other_measures_and_methods():
    with pytest.raises(cc.InvalidInputError, match="method='exact' under model='num' takes"):
        cc.significance_test("nmi", A, B, model="num", method="exact")
    with pytest.raises(cc.InvalidInputError, match="method='exact' under model='perm' takes"):
        cc.significance_test(lambda x, y: 0.0, A, B, model="perm", method="exact")
    with pytest.raises(cc.InvalidInputError, match="`method` must be one of"):
        cc.significance_test("sri", A, B, model="perm", method="normal")
    assert METHODS == ("monte-carlo", "exact", "gamma")


def test_monte_carlo_result_says_its_route():
    r = cc.significance_test("smi", A, B, model="perm", n_resamples=20, rng=0)
    assert (r.method, r.null_moments, r.null_distribution.size) == ("monte-carlo", None, 20)


def test_gamma_pvalue_of_smi_near_monte_carlo_in_the_body_of_the_law():
    """8 x 8 clusters, N = 2000 (too many tables for the exact route): in the body of MI's
    null law (p in (0.1, 0.9)) the gamma p-value lies within 0.05 of the Monte Carlo one
    (2000 samples, sd <= 0.012)."""
    rng = np.random.default_rng(3)
    a = rng.integers(0, 8, 2000)
    b = np.where(rng.random(a.size) < 0.02, a, rng.integers(0, 8, a.size))
    fitted = cc.significance_test("smi", a, b, model="perm", method="gamma")
    sampled = cc.significance_test("smi", a, b, model="perm", n_resamples=2000, rng=1)
    assert 0.1 < sampled.pvalue < 0.9
    assert abs(fitted.pvalue - sampled.pvalue) < 0.05
    assert sampled.statistic == pytest.approx(fitted.statistic, rel=1e-10)


# ----------------------------------------------------- tables and summaries


def _tables(a, b):
    table = cc.contingency_table(a, b)
    parts = [cc.partial_table(a[:4], b[:4]), cc.partial_table(a[4:], b[4:])]
    return {"table": table, "summary": cc.merge_tables(parts).summary()}


@pytest.mark.parametrize(("model", "one_sided"), [("perm", False), ("num", False), ("num", True),
                                                  ("all", False), ("all", True)])  # fmt: skip
def test_variance_and_smi_accept_contingency_and_summaries(model, one_sided):
    kw = {"model": model, "one_sided": one_sided}
    for name in ("mutual_information_variance", "standardized_mutual_information",
                 "rand_index_variance", "standardized_rand_index"):  # fmt: skip
        f = getattr(cc, name)
        want = f(A, B, **kw)
        for form, contingency in _tables(A, B).items():
            # A summary of merged chunks sums its cells in another order: to rounding.
            got = f(contingency=contingency, **kw)
            assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (name, form)


def test_variance_refuses_labels_and_contingency_together():
    with pytest.raises(cc.InvalidInputError, match="contingency"):
        cc.mutual_information_variance(A, B, contingency=cc.contingency_table(A, B))


# ------------------------------------------------------------------------- CLI


def _json(capsys, argv) -> dict:
    capsys.readouterr()
    assert main([*map(str, argv), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, labels in (("a.txt", A), ("b.txt", B)):
        (tmp_path / name).write_text("".join(f"{x}\n" for x in labels))
        paths.append(tmp_path / name)
    return paths


def test_cli_compare_and_pairwise_report_smi_and_sri(capsys, files):
    rows = _json(capsys, ["compare", *files, "--measure", "sri,smi", "--all-models",
                          "--one-sided"])["results"]  # fmt: skip
    got = {(r["measure"], r["model"]): r["value"] for r in rows}
    for model in ("perm", "num", "all"):
        assert got["smi", model] == pytest.approx(
            cc.standardized_mutual_information(A, B, model=model, one_sided=True), rel=1e-12)
        assert got["sri", model] == pytest.approx(
            cc.standardized_rand_index(A, B, model=model, one_sided=True), rel=1e-12)
    matrix = _json(capsys, ["pairwise", *files, "--measure", "smi", "--model", "all"])
    text = json.dumps(matrix)
    assert f"{cc.standardized_mutual_information(A, B, model='all'):.6f}"[:6] in text


def test_cli_test_exact_method(capsys, files):
    out = _json(capsys, ["test", *files, "--measure", "smi", "--method", "exact"])
    values = {r["quantity"]: r["value"] for r in out["results"]}
    want = cc.significance_test("smi", A, B, model="perm", method="exact")
    assert values["pvalue"] == pytest.approx(want.pvalue, rel=1e-12)
    assert values["n_samples"] == 0
    capsys.readouterr()
    argv = ["test", *map(str, files), "--measure", "nmi", "--model", "num", "--method", "exact"]
    assert main(argv) == 2
    assert "method='exact' under model='num' takes" in capsys.readouterr().err


def test_monte_carlo_adjusted_z_scores_estimate_ari_and_ami():
    """A z-score is affine in RI (MI) with the same constants for every sample, so its Monte
    Carlo adjustment towards the z of the best value estimates ARI (AMI)."""
    a = [0] * 10 + [1] * 10 + [2] * 10
    b = [0] * 9 + [1] * 11 + [2] * 10
    for name, exact in (("sri", cc.adjusted_rand_index), ("smi", cc.adjusted_mutual_information)):
        r = cc.monte_carlo_adjusted(name, a, b, model="perm", n_resamples=500, rng=0)
        assert abs(r.value - exact(a, b)) < 4 * r.value_stderr + 1e-12, name
