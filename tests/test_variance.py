"""Exact Var[RI]: brute-force enumeration (fractions) for n <= 7, Monte Carlo beyond."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from reference._exact import set_partitions
from strategies import ensemble_members

from chanceclust._validation import check_setting
from chanceclust.contingency import _summarize
from chanceclust.significance import null_distribution
from chanceclust.variance import _table_variance, rand_index_variance, standardized_rand_index

MODELS = ("perm", "num", "all")


def pair_indicators(labels):
    n = len(labels)
    return [int(labels[i] == labels[j]) for i in range(n) for j in range(i + 1, n)]


def enumerate_rand(labels_true, labels_pred, model, one_sided):
    """Exact (E[RI], Var[RI], RI) over every pair of clusterings of the ensemble."""
    n = len(labels_true)
    parts = list(set_partitions(n))

    def members(labels):
        return ensemble_members(labels, model, parts)

    side_a = [tuple(labels_true)] if one_sided else members(labels_true)
    x = np.array([pair_indicators(p) for p in side_a], dtype=np.int64)
    y = np.array([pair_indicators(p) for p in members(labels_pred)], dtype=np.int64)
    agree = (x @ y.T + (1 - x) @ (1 - y).T).ravel().tolist()  # C(N,2) * RI per pair
    pairs, count = n * (n - 1) // 2, len(agree)
    mean = Fraction(sum(agree), count * pairs)
    var = Fraction(sum(v * v for v in agree), count * pairs * pairs) - mean * mean
    observed = np.array(pair_indicators(labels_true)), np.array(pair_indicators(labels_pred))
    ri = Fraction(int(observed[0] @ observed[1] + (1 - observed[0]) @ (1 - observed[1])), pairs)
    return mean, var, ri


def _cases():
    rng = np.random.default_rng(2017)
    cases = [
        ([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]),
        ([0, 0, 0, 0, 0, 0, 0], [0, 1, 2, 3, 4, 5, 6]),  # K = 1 against K = N
        ([0, 1, 2, 3, 4, 5, 5], [0, 0, 1, 1, 2, 3, 4]),  # K = N - 1
        ([0, 0, 1], [0, 1, 1]),
        ([0, 1], [0, 0]),
    ]
    for n in (4, 5, 6, 7, 7):
        cases.append(
            (rng.integers(0, rng.integers(1, n + 1), n).tolist(),
             rng.integers(0, rng.integers(1, n + 1), n).tolist())
        )
    return cases


@pytest.mark.parametrize(("labels_true", "labels_pred"), _cases())
@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", MODELS)
def test_variance_equals_enumeration(labels_true, labels_pred, model, one_sided):
    """Var[RI] and the standardized RI equal the enumeration over the whole ensemble."""
    # One-sided perm is two-sided perm: enumerated with A random.
    _, var, ri = enumerate_rand(labels_true, labels_pred, model, one_sided and model != "perm")
    mean = enumerate_rand(labels_true, labels_pred, model, one_sided)[0]
    table = _summarize(labels_true, labels_pred, None)
    exact = _table_variance(table, check_setting(model, one_sided).sides_of_table(table))
    if model == "perm":
        assert exact == var  # rational arithmetic: exactly equal
    got = rand_index_variance(labels_true, labels_pred, model=model, one_sided=one_sided)
    assert got == pytest.approx(float(var), rel=1e-12, abs=1e-300)
    z = standardized_rand_index(labels_true, labels_pred, model=model, one_sided=one_sided)
    if var == 0:
        assert got == 0.0
        assert z == 0.0
        assert ri == mean  # a single-valued ensemble holds the observed value
    else:
        assert z == pytest.approx(float(ri - mean) / float(var) ** 0.5, rel=1e-12, abs=1e-12)


def test_one_sided_perm_equals_two_sided_by_enumeration():
    a, b = [0, 0, 0, 1, 1, 2, 3], [0, 0, 1, 1, 2, 2, 2]
    fixed = enumerate_rand(a, b, "perm", True)[1]
    both = enumerate_rand(a, b, "perm", False)[1]
    assert fixed == both
    assert rand_index_variance(a, b, one_sided=True) == float(both)


MC_CASES = [
    (np.repeat(np.arange(4), [30, 20, 15, 15]), np.repeat(np.arange(6), [10, 10, 20, 15, 5, 20])),
    (np.repeat(np.arange(2), [79, 1]), np.repeat(np.arange(3), [40, 30, 10])),
]


@pytest.mark.parametrize("case", range(len(MC_CASES)))
@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", MODELS)
def test_variance_agrees_with_monte_carlo(case, model, one_sided):
    """At N = 80 the exact variance matches the variance of samples from our samplers."""
    a, b = MC_CASES[case]
    draws = 6000
    null = null_distribution("ri", a, b, model=model, one_sided=one_sided, n_resamples=draws,
                             rng=case)
    exact = rand_index_variance(a, b, model=model, one_sided=one_sided)
    centered = null - null.mean()
    sample_var = centered.var(ddof=1)
    # Standard error of a sample variance: sqrt((m4 - s^4) / n).
    stderr = np.sqrt(max(np.mean(centered**4) - sample_var**2, 0.0) / draws)
    assert abs(sample_var - exact) < 5 * stderr + 1e-15


@pytest.mark.parametrize("name", ["ari", "ami"])
@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", MODELS)
def test_adjusted_indices_have_mean_zero_under_their_model(name, model, one_sided):
    """Samples from a model average 0 under that model's ARI and AMI: ties samplers to formulas."""
    a = np.repeat(np.arange(3), [20, 15, 5])
    b = np.repeat(np.arange(4), [10, 10, 12, 8])
    draws = 4000
    null = null_distribution(name, a, b, model=model, one_sided=one_sided, n_resamples=draws,
                             rng=11)
    stderr = null.std(ddof=1) / np.sqrt(draws)
    assert abs(null.mean()) < 5 * stderr


def test_degenerate_ensembles_give_zero_not_nan():
    """Single-valued ensembles: variance 0.0, z-score 0.0 (documented)."""
    n = 50
    ones, singletons = np.zeros(n, int), np.arange(n)
    pair = np.r_[0, np.arange(n - 1)]  # K = N - 1: Q = 1 in every clustering
    for a, b, model in [(ones, singletons, "num"), (ones, pair, "num"), (ones, pair, "perm"),
                        ([3], [4], "all"), (ones, ones, "all")]:
        for one_sided in (False, True):
            if model == "all" and len(a) > 1 and not one_sided:
                continue
            var = rand_index_variance(a, b, model=model, one_sided=one_sided)
            z = standardized_rand_index(a, b, model=model, one_sided=one_sided)
            if len(a) == 1 or model != "all":
                assert var == 0.0
                assert z == 0.0


def test_cost_independent_of_n():
    """N = 10^9 from a table: finite positive variances under every model."""
    table = np.array([[4 * 10**8, 10**8], [10**8, 4 * 10**8]])
    for model in MODELS:
        for one_sided in (False, True):
            var = rand_index_variance(contingency=table, model=model, one_sided=one_sided)
            assert 0.0 < var < 1e-8
            z = standardized_rand_index(contingency=table, model=model, one_sided=one_sided)
            assert np.isfinite(z) and abs(z) > 10


def test_rejects_bad_model():
    with pytest.raises(ValueError, match="`model` must be one of"):
        rand_index_variance([0, 1], [0, 1], model="bogus")


def test_two_k_equal_n_minus_1_sides_are_not_degenerate():
    """num, K = N - 1 on both sides: RI varies only when both put the same pair together."""
    n = 50
    pair = np.r_[0, np.arange(n - 1)]
    pairs = n * (n - 1) // 2
    exact = 4 / pairs**2 * (1 / pairs) * (1 - 1 / pairs)  # Var of 2 * 1{same pair} / P
    assert rand_index_variance(pair, pair, model="num") == pytest.approx(exact, rel=1e-9)
