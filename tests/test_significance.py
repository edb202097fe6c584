"""Null distributions, Monte Carlo p-values and Monte Carlo chance correction."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from chanceclust import adjusted, measures, variance
from chanceclust._registry import MEASURES
from chanceclust.samplers import random_clusterings
from chanceclust.significance import (
    SignificanceTestResult,
    _batch_tables,
    _setup,
    monte_carlo_adjusted,
    null_distribution,
    significance_test,
)

MODELS = ("perm", "num", "all")
A = np.repeat(np.arange(3), [12, 10, 8])
B = np.repeat(np.arange(3), [11, 11, 8])


def library(name, model, one_sided):
    """The library function behind each name (independent of the batched code)."""
    if name == "ari":
        return lambda x, y: adjusted.adjusted_rand_index(x, y, model=model, one_sided=one_sided)
    if name == "ami":
        return lambda x, y: adjusted.adjusted_mutual_information(
            x, y, model=model, one_sided=one_sided
        )
    if name in ("sri", "smi"):
        f = variance.standardized_rand_index if name == "sri" else (
            variance.standardized_mutual_information
        )
        return lambda x, y: f(x, y, model=model, one_sided=one_sided)
    return getattr(measures, MEASURES[name].function.__name__)


@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("name", MEASURES)
def test_batched_values_equal_library_functions(name, model, one_sided):
    """Batched tables give the library's value for every sample of the model, degenerate ones too."""
    for a, b in [(A, B), (np.arange(6) % 2, np.arange(6) // 3), (np.zeros(5, int), np.arange(5))]:
        n = len(a)
        setup = _setup(name, a, b, model, one_sided)
        kwargs = {"n_clusters": len(set(b))} if model == "num" else {}
        if model == "perm":
            kwargs = {"sizes": np.bincount(b)}
        preds = random_clusterings(40, n, model=model, rng=5, **kwargs)
        if one_sided or model == "perm":
            trues = np.asarray(a)[None]
        else:
            kw_true = {"n_clusters": len(set(a))} if model == "num" else {}
            trues = random_clusterings(40, n, model=model, rng=6, **kw_true)
        got = setup.evaluate(_batch_tables(trues, preds))
        f = library(name, model, one_sided)
        want = [f(trues[i if trues.shape[0] > 1 else 0], preds[i]) for i in range(40)]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
        assert setup.statistic == pytest.approx(f(a, b), rel=1e-12, abs=1e-13)


def test_pvalue_bounds_and_plus_one_correction():
    """Identical clusterings beat every sample: p = 1/(n+1) for greater, 1 for less."""
    n_resamples = 199
    r = significance_test("ari", A, A, model="perm", n_resamples=n_resamples, rng=0)
    assert r.pvalue == 1 / (n_resamples + 1)
    assert r.statistic == 1.0
    assert r.zscore > 5
    less = significance_test("ari", A, A, model="perm", n_resamples=n_resamples, rng=0,
                             alternative="less")
    assert less.pvalue == 1.0
    for alternative in ("greater", "less", "two-sided"):
        r = significance_test("nmi", A, B, model="num", n_resamples=50, rng=1, alternative=alternative)
        assert 1 / 51 <= r.pvalue <= 1.0


def test_alternatives_from_the_samples():
    r = significance_test("ri", A, B, model="all", n_resamples=300, rng=2,
                          alternative="two-sided")
    null = r.null_distribution
    assert null.shape == (300,)
    greater = (1 + np.sum(null >= r.statistic)) / 301
    less = (1 + np.sum(null <= r.statistic)) / 301
    assert r.pvalue == pytest.approx(min(1.0, 2 * min(greater, less)))
    assert r.null_mean == pytest.approx(null.mean())
    assert r.null_std == pytest.approx(null.std(ddof=1))
    assert r.zscore == pytest.approx((r.statistic - null.mean()) / null.std(ddof=1))
    g = significance_test("ri", A, B, model="all", n_resamples=300, rng=2, alternative="greater")
    assert g.pvalue == greater
    assert np.array_equal(g.null_distribution, null)  # always returned
    assert dataclasses.is_dataclass(g)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.pvalue = 0.5  # type: ignore[misc]


def test_ties_count_as_at_least_as_extreme():
    """A measure constant under the null (RI with K = 1 vs K = N under num) gives p = 1."""
    ones, singletons = np.zeros(8, int), np.arange(8)
    r = significance_test("ri", ones, singletons, model="num", n_resamples=20, rng=0)
    assert r.pvalue == 1.0
    assert r.null_std == 0.0
    assert r.zscore == 0.0


@pytest.mark.parametrize("model", MODELS)
def test_reproducible_and_independent_of_batch(model):
    x = null_distribution("ami", A, B, model=model, n_resamples=30, rng=9)
    assert np.array_equal(x, null_distribution("ami", A, B, model=model, n_resamples=30, rng=9))
    for batch in (1, 7, 1000):
        y = null_distribution("ami", A, B, model=model, n_resamples=30, rng=9, batch=batch)
        assert np.array_equal(x, y)
    z = null_distribution("ami", A, B, model=model, n_resamples=30, rng=10)
    assert not np.array_equal(x, z)
    gen = np.random.default_rng(9)
    assert np.array_equal(x, null_distribution("ami", A, B, model=model, n_resamples=30, rng=gen))


@pytest.mark.parametrize("model", MODELS)
def test_callable_matches_named_measure(model):
    """One-sided, a callable sees the same samples as the batched name."""
    named = null_distribution("vi", A, B, model=model, one_sided=True, n_resamples=40, rng=4)
    called = null_distribution(measures.variation_of_information, A, B, model=model,
                               one_sided=True, n_resamples=40, rng=4)
    np.testing.assert_allclose(named, called, rtol=1e-12, atol=1e-14)


def test_callable_two_sided_resamples_both():
    seen = []

    def record(x, y):
        seen.append((np.bincount(x).size, np.bincount(y).size))
        return 0.0

    null_distribution(record, A, B, model="all", n_resamples=30, rng=0)
    ks_true = {k for k, _ in seen[1:]}
    assert len(ks_true) > 1  # the first clustering varies too
    seen.clear()
    null_distribution(record, A, B, model="all", one_sided=True, n_resamples=30, rng=0)
    assert {k for k, _ in seen} == {3}


def test_pvalue_is_roughly_uniform_under_the_null():
    """Pairs drawn from the model: P(p <= 0.2) is about 0.2 (binomial tolerance)."""
    rng = np.random.default_rng(21)
    reps, hits = 120, 0
    for _ in range(reps):
        a, b = random_clusterings(2, 30, model="num", n_clusters=4, rng=rng)
        p = significance_test("ri", a, b, model="num", n_resamples=99, rng=rng).pvalue
        hits += p <= 0.2
    assert abs(hits / reps - 0.2) < 4 * np.sqrt(0.2 * 0.8 / reps)


def test_monte_carlo_adjusted_agrees_with_analytic():
    """MC-adjusted RI and MI estimate the analytic ARI and AMI within their errors."""
    for model in MODELS:
        for one_sided in (False, True):
            r = monte_carlo_adjusted("ri", A, B, model=model, one_sided=one_sided,
                                     n_resamples=3000, rng=3)
            ari = adjusted.adjusted_rand_index(A, B, model=model, one_sided=one_sided)
            assert abs(r.value - ari) < 5 * r.value_stderr + 1e-12
            r = monte_carlo_adjusted("mi", A, B, model=model, one_sided=one_sided,
                                     n_resamples=3000, rng=3)
            ami = adjusted.adjusted_mutual_information(A, B, model=model, one_sided=one_sided)
            assert abs(r.value - ami) < 5 * r.value_stderr + 1e-12


def test_monte_carlo_adjusted_distance_and_degenerate():
    r = monte_carlo_adjusted("vi", A, B, model="perm", n_resamples=500, rng=0)
    assert r.best == 0.0
    assert r.value == pytest.approx(1 - r.statistic / r.expected)
    assert r.expected_stderr > 0 and r.value_stderr > 0
    same = monte_carlo_adjusted("vi", A, A, model="perm", n_resamples=100, rng=0)
    assert same.value == 1.0
    # num with K = 1 on both sides: every sample is the best value, gap 0.
    ones = np.zeros(6, int)
    d = monte_carlo_adjusted("jaccard", ones, ones, model="num", n_resamples=10, rng=0)
    assert (d.value, d.value_stderr) == (1.0, 0.0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"measure": "rand"}, "`measure` must be one of"),
        ({"alternative": "bigger"}, "`alternative` must be one of"),
        ({"n_resamples": 0}, "`n_resamples` must be an integer >= 1"),
        ({"batch": 0}, "`batch` must be an integer >= 1"),
        ({"model": "none"}, "`model` must be one of"),
        ({"rng": 1.5}, "`rng` must be"),
    ],
)
def test_errors_name_the_argument(kwargs, match):
    args = {"measure": "ari", "model": "perm", **kwargs}
    measure = args.pop("measure")
    with pytest.raises(ValueError, match=match):
        significance_test(measure, A, B, **args)


def test_progress_callback_reports_every_batch():
    """progress(done, total) after each batch, ending at the total; values unaffected."""

    calls = []
    a, b = [0, 0, 1, 1, 2, 2, 0, 1], [0, 0, 1, 1, 1, 2, 2, 2]
    with_progress = significance_test(
        "ari", a, b, model="num", n_resamples=50, rng=3, batch=7,
        progress=lambda done, total: calls.append((done, total)),
    )
    plain = significance_test("ari", a, b, model="num", n_resamples=50, rng=3)
    assert calls == [(min(d, 50), 50) for d in range(7, 57, 7)]
    assert with_progress.pvalue == plain.pvalue


class TestSignificanceTest:
    """The SciPy-style API: one default alternative per measure, relative ties, one null."""

    @pytest.mark.parametrize(("measure", "alternative"), [
        ("ri", "greater"), ("ari", "greater"), ("ami", "greater"), ("nmi", "greater"),
        ("fmi", "greater"), ("jaccard", "greater"), ("mi", "greater"), ("vi", "less"),
        (measures.variation_of_information, "greater"),  # callables: "greater", as documented
    ])
    def test_default_alternative_is_the_direction_of_agreement(self, measure, alternative):
        r = significance_test(measure, A, B, model="perm", n_resamples=20, rng=0)
        assert r.alternative == alternative
        explicit = significance_test(measure, A, B, model="perm", n_resamples=20, rng=0,
                                     alternative=alternative)
        assert r.pvalue == explicit.pvalue

    def test_identical_clusterings_are_significant_for_vi_by_default(self):
        r = significance_test("vi", A, A, model="perm", n_resamples=99, rng=0)
        assert r.statistic == 0.0
        assert r.pvalue == 1 / 100

    def test_ties_use_scipys_relative_tolerance(self):
        """Within 100 eps |s| of the statistic is a tie; beyond it is not."""
        from chanceclust.significance import _pvalue

        s = 0.3
        eps = np.finfo(np.float64).eps
        inside = np.array([s * (1 - 50 * eps), s * (1 + 50 * eps)])
        outside = np.array([s * (1 - 400 * eps), s * (1 + 400 * eps)])
        assert _pvalue(s, inside, "greater") == 1.0
        assert _pvalue(s, inside, "less") == 1.0
        assert _pvalue(s, outside, "greater") == 2 / 3
        assert _pvalue(s, outside, "less") == 2 / 3

    def test_result_is_frozen_with_the_null_always(self):
        r = significance_test("ari", A, B, model="num", n_resamples=30, rng=5)
        assert isinstance(r, SignificanceTestResult)
        assert r.null_distribution.shape == (30,)
        assert (r.model, r.one_sided, r.best) == ("num", False, 1.0)
        assert r.null_mean == pytest.approx(r.null_distribution.mean())
        assert r.null_std == pytest.approx(r.null_distribution.std(ddof=1))
        with pytest.raises(dataclasses.FrozenInstanceError):
            r.pvalue = 0.5  # type: ignore[misc]

    def test_batch_does_not_change_the_result(self):
        x = significance_test("nmi", A, B, model="all", n_resamples=25, rng=1)
        for batch in (1, 4, 25, 100):
            y = significance_test("nmi", A, B, model="all", n_resamples=25, rng=1, batch=batch)
            assert np.array_equal(x.null_distribution, y.null_distribution)
            assert x.pvalue == y.pvalue

    @pytest.mark.parametrize("measure", ["jaccard", "vi", "mi"])
    def test_adjusted_reuses_the_null(self, measure):
        """result.adjusted() draws nothing: monte_carlo_adjusted with the same seed agrees."""
        r = significance_test(measure, A, B, model="num", one_sided=True, n_resamples=200, rng=7)
        m = monte_carlo_adjusted(measure, A, B, model="num", one_sided=True, n_resamples=200,
                                 rng=7)
        assert r.adjusted() == m
        assert r.adjusted(best=2.0).best == 2.0
        assert r.adjusted().n_resamples == 200

    def test_adjusted_checks_best(self):
        r = significance_test("ri", A, B, model="perm", n_resamples=10, rng=0)
        with pytest.raises(ValueError, match="`best` must be a finite number"):
            r.adjusted(best=float("nan"))


class TestNoPreReleaseNames:
    """The names of before 0.1.0 are gone: nothing was released under them (#19)."""

    def test_significance_and_its_result_are_gone(self):
        import types

        import chanceclust
        import chanceclust.significance as module

        assert isinstance(chanceclust.significance, types.ModuleType)  # the module, no function
        assert "significance" not in chanceclust.__all__
        assert not hasattr(module, "significance")
        for owner in (chanceclust, module):
            assert not hasattr(owner, "SignificanceResult")

    def test_n_samples_is_not_a_keyword(self):
        with pytest.raises(TypeError, match="n_samples"):
            null_distribution("ari", A, B, model="num", n_samples=20, rng=3)
        with pytest.raises(TypeError, match="n_samples"):
            monte_carlo_adjusted("ari", A, B, model="num", n_samples=20, rng=3)
        result = monte_carlo_adjusted("ari", A, B, model="num", n_resamples=20, rng=3)
        assert not hasattr(result, "n_samples")
        assert result.n_resamples == 20

