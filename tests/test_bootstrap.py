"""Bootstrap intervals and the paired test (chanceclust.bootstrap) against independent routes.

* The resampled values: each equals the public single call on the resampled table (the same
  multinomial draws rebuilt here from the same seed), for every measure, model and side.
* The resampling law: for a table of N = 5 the exact bootstrap law of the measure, by
  enumerating every multinomial outcome with its probability in Fractions, against the
  empirical law of the resamples (chi-square).
* The intervals: SciPy's ``bootstrap`` on the element-level data, recomputing the interval
  from our bootstrap distribution (``n_resamples=0, bootstrap_result=``) with its own
  statistic (the public single call on the resampled labels) and its own jackknife over
  the elements, equals ours: percentile, basic, BCa.
"""

from __future__ import annotations

import inspect
import itertools
import math
import warnings
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import chanceclust as cc
from chanceclust.exceptions import InvalidInputError

# The small tables of these tests (N ~ 40) have biased measures: the shift warning is
# tested on its own (test_shifted_bootstrap_law_warns).
pytestmark = pytest.mark.filterwarnings("ignore:The bootstrap distribution's mean:UserWarning")

FUNCTIONS = {
    "ri": cc.rand_index, "ari": cc.adjusted_rand_index, "mi": cc.mutual_information,
    "nmi": cc.normalized_mutual_information, "ami": cc.adjusted_mutual_information,
    "fmi": cc.fowlkes_mallows_index, "jaccard": cc.jaccard_index,
    "vi": cc.variation_of_information, "sri": cc.standardized_rand_index,
    "smi": cc.standardized_mutual_information,
}  # fmt: skip
ADJUSTED = {"ari", "ami", "sri", "smi"}
TABLE = np.array([[8, 2, 1], [1, 7, 3], [0, 2, 9]])


def _single(measure: str, table: np.ndarray, model: str = "perm", one_sided: bool = False,
            average_method: str = "arithmetic") -> float:  # fmt: skip
    kwargs = {"model": model, "one_sided": one_sided} if measure in ADJUSTED else {}
    if measure in ("nmi", "ami"):
        kwargs["average_method"] = average_method
    return FUNCTIONS[measure](contingency=table, **kwargs)


def _labels(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Element-level labels of a dense table, cell by cell in row-major order."""
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


def _documented_draws(seed: int, counts: np.ndarray, size: int) -> np.ndarray:
    """The resampled cell counts as the docstring of ``_resample`` states the stream: block b
    of 512 resamples by PCG64 seeded with child b of SeedSequence(four 63-bit integers drawn
    from default_rng(seed))."""
    entropy = [int(v) for v in np.random.default_rng(seed).integers(2**63, size=4)]
    children = np.random.SeedSequence(entropy).spawn(-(-size // 512))
    n = counts.sum()
    return np.concatenate([
        np.random.Generator(np.random.PCG64(child)).multinomial(
            n, counts / n, size=min(512, size - 512 * b))
        for b, child in enumerate(children)
    ])  # fmt: skip


SETTINGS = [("perm", False), ("perm", True), ("num", False), ("num", True), ("all", False)]


# Every measure; the adjusted ones under every setting (SMI under perm only: Var[MI] of a
# random side costs seconds per resample).
CASES = [(m, "perm", False) for m in sorted(FUNCTIONS) if m not in ADJUSTED] + [
    (m, model, one_sided) for m in sorted(ADJUSTED) for model, one_sided in SETTINGS
    if m != "smi" or model == "perm"
]


@pytest.mark.parametrize(("measure", "model", "one_sided"), CASES)
def test_resampled_values_are_the_single_calls(measure, model, one_sided):
    """Each bootstrap value is the measure of its resampled table by the public function
    (the adjusted ones adjusted with the resample's own sizes), draws rebuilt from the seed
    over the cells in row-major order."""
    true, pred = _labels(TABLE)
    res = cc.confidence_interval(measure, true, pred, model=model, one_sided=one_sided,
                                 average_method="geometric", n_resamples=6, rng=7,
                                 method="percentile")  # fmt: skip
    rows, cols = np.nonzero(TABLE)
    counts = TABLE[rows, cols]
    draws = _documented_draws(7, counts, 6)
    expected = []
    for draw in draws:
        table = np.zeros_like(TABLE)
        table[rows, cols] = draw
        expected.append(_single(measure, table, model, one_sided, "geometric"))
    np.testing.assert_allclose(res.bootstrap_distribution, expected, rtol=1e-12, atol=1e-14)
    assert res.statistic == pytest.approx(
        _single(measure, TABLE, model, one_sided, "geometric"), rel=1e-12, abs=1e-14
    )


def test_resampling_law_by_enumeration():
    """The empirical law of 20,000 resampled ARI values of a table of N = 5 against the exact
    bootstrap law: every multinomial outcome over its 4 cells (56) with its probability."""
    table = np.array([[2, 1], [1, 1]])
    counts = [2, 1, 1, 1]
    n = 5
    law: dict[float, Fraction] = {}
    for outcome in itertools.product(range(n + 1), repeat=4):
        if sum(outcome) != n:
            continue
        weight = Fraction(math.factorial(n))
        for k, c in zip(outcome, counts, strict=True):
            weight *= Fraction(c, n) ** k / math.factorial(k)
        value = round(cc.adjusted_rand_index(contingency=np.reshape(outcome, (2, 2))), 12)
        law[value] = law.get(value, Fraction(0)) + weight
    assert sum(law.values()) == 1
    res = cc.confidence_interval("ari", contingency=table, n_resamples=20_000, rng=3,
                                 method="percentile")  # fmt: skip
    seen = np.round(res.bootstrap_distribution, 12)
    values = sorted(law)
    observed = np.array([np.count_nonzero(seen == v) for v in values])
    assert observed.sum() == 20_000  # every resampled value is a value of the exact law
    expected = np.array([float(law[v]) * 20_000 for v in values])
    # Pool the rare values (expected < 5) into one class for the chi-square test.
    rare = expected < 5
    if rare.any():
        observed = np.append(observed[~rare], observed[rare].sum())
        expected = np.append(expected[~rare], expected[rare].sum())
    assert stats.chisquare(observed, expected).pvalue > 1e-3


_BOOTSTRAP_OPTIONS = inspect.signature(stats.bootstrap).parameters


def _scipy_interval(measure: str, table: np.ndarray, res, method: str, level: float,
                    alternative: str = "two-sided", **kwargs) -> tuple[float, float]:  # fmt: skip
    """SciPy's bootstrap interval from our bootstrap distribution, with SciPy's own
    statistic (the single call on the resampled elements) and jackknife over the elements."""
    true, pred = _labels(table)
    function = FUNCTIONS[measure]

    def statistic(index, axis=-1):
        index = np.asarray(index)
        flat = index.reshape(-1, index.shape[-1])
        values = [function(true[i], pred[i], **kwargs) for i in flat]
        return np.reshape(values, index.shape[:-1])

    # A resample equal to the observed table is a tie with the statistic; the single call
    # and the batch evaluation may round it differently in the last bit, which would break
    # the tie on one side only (BCa's z0): such values are set to SciPy's statistic.
    observed = function(true, pred, **kwargs)
    distribution = res.bootstrap_distribution
    distribution = np.where(np.isclose(distribution, observed, rtol=1e-12, atol=0), observed,
                            distribution)  # fmt: skip
    if alternative != "two-sided" and "alternative" not in _BOOTSTRAP_OPTIONS:
        pytest.skip("scipy.stats.bootstrap has no one-sided intervals before SciPy 1.11")
    sided = {} if alternative == "two-sided" else {"alternative": alternative}
    out = stats.bootstrap(
        (np.arange(len(true)),), statistic, n_resamples=0, method=method,
        confidence_level=level, **sided,
        bootstrap_result=SimpleNamespace(bootstrap_distribution=distribution),
    )  # fmt: skip
    return out.confidence_interval.low, out.confidence_interval.high


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
@pytest.mark.parametrize(("measure", "kwargs"), [
    ("ari", {}), ("nmi", {}), ("vi", {}), ("ami", {"model": "num"}), ("ari", {"model": "all"}),
    ("ami", {}), ("sri", {"one_sided": True}),
])  # fmt: skip
def test_intervals_equal_scipy_bootstrap(method, measure, kwargs):
    """Percentile, basic and BCa equal scipy.stats.bootstrap's on the element-level data
    (BCa: the jackknife over the N elements, which ours runs over the cells)."""
    table = np.array([[6, 2, 1], [1, 5, 2], [0, 2, 6]])
    res = cc.confidence_interval(measure, contingency=table, n_resamples=199, rng=1,
                                 method=method, confidence_level=0.9, **kwargs)  # fmt: skip
    low, high = _scipy_interval(measure, table, res, method, 0.9, **kwargs)
    np.testing.assert_allclose(res.confidence_interval, (low, high), rtol=1e-9)
    assert res.standard_error == pytest.approx(np.std(res.bootstrap_distribution, ddof=1))


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_one_sided_intervals_equal_scipy_bootstrap(method, alternative):
    """SciPy's one-sided intervals: one end infinite, the other at level 1 - confidence."""
    table = np.array([[6, 2, 1], [1, 5, 2], [0, 2, 6]])
    res = cc.confidence_interval("ari", contingency=table, n_resamples=499, rng=2,
                                 method=method, alternative=alternative)  # fmt: skip
    expected = _scipy_interval("ari", table, res, method, 0.95, alternative)
    np.testing.assert_allclose(res.confidence_interval, expected, rtol=1e-9)
    assert np.isinf(res.confidence_interval[0 if alternative == "less" else 1])


def test_paired_interval_equals_scipy_paired_bootstrap():
    """The paired test's BCa interval of the difference equals SciPy's on the elements
    (paired=True: the same resampled elements for both comparisons)."""
    rng = np.random.default_rng(5)
    ref = np.repeat([0, 1, 2], 12)
    a = np.where(rng.random(36) < 0.2, rng.integers(0, 3, 36), ref)
    b = np.where(rng.random(36) < 0.4, rng.integers(0, 3, 36), ref)
    res = cc.paired_test("ari", ref, a, b, n_resamples=499, rng=2)

    def statistic(index, axis=-1):
        index = np.asarray(index)
        flat = index.reshape(-1, index.shape[-1])
        values = [cc.adjusted_rand_index(ref[i], a[i]) - cc.adjusted_rand_index(ref[i], b[i])
                  for i in flat]  # fmt: skip
        return np.reshape(values, index.shape[:-1])

    observed = float(statistic(np.arange(36)))
    distribution = np.where(np.isclose(res.bootstrap_distribution, observed, rtol=1e-12,
                                       atol=1e-15), observed, res.bootstrap_distribution)
    out = stats.bootstrap((np.arange(36),), statistic, n_resamples=0, method="BCa",
                          bootstrap_result=SimpleNamespace(
                              bootstrap_distribution=distribution))  # fmt: skip
    np.testing.assert_allclose(res.confidence_interval, out.confidence_interval, rtol=1e-9)
    assert res.statistic == pytest.approx(
        cc.adjusted_rand_index(ref, a) - cc.adjusted_rand_index(ref, b), rel=1e-12
    )


def test_paired_test_p_values():
    """Identical A and B: every difference is 0 and p = 1. A the reference itself against a
    noisy B: p at its smallest 1/(B+1) for "greater" and two-sided 2/(B+1); swapping A and B
    negates the statistic and swaps "greater" and "less"."""
    rng = np.random.default_rng(0)
    ref = np.repeat(np.arange(4), 25)
    noisy = np.where(rng.random(100) < 0.5, rng.integers(0, 4, 100), ref)
    same = cc.paired_test("ami", ref, noisy, noisy, n_resamples=99, rng=0, method="percentile")
    assert same.statistic == 0
    assert same.pvalue == 1.0
    assert np.all(same.bootstrap_distribution == 0)
    kwargs = {"n_resamples": 199, "rng": 1, "method": "percentile"}
    better = cc.paired_test("ari", ref, ref, noisy, alternative="greater", **kwargs)
    assert better.statistic > 0
    assert better.pvalue == pytest.approx(1 / 200)
    two = cc.paired_test("ari", ref, ref, noisy, **kwargs)
    assert two.pvalue == pytest.approx(2 / 200)
    worse = cc.paired_test("ari", ref, noisy, ref, alternative="less", **kwargs)
    assert worse.statistic == -better.statistic
    assert worse.pvalue == better.pvalue
    np.testing.assert_array_equal(worse.bootstrap_distribution, -better.bootstrap_distribution)


def test_labels_and_contingency_give_the_same_result():
    """One input through labels, a dense and a sparse ``contingency=``: the same result."""
    true, pred = _labels(TABLE)
    by_labels = cc.confidence_interval("ari", true, pred, n_resamples=999, rng=0)
    by_table = cc.confidence_interval("ari", contingency=TABLE, n_resamples=999, rng=0)
    by_sparse = cc.confidence_interval("ari", contingency=cc.contingency_table(true, pred),
                                       n_resamples=999, rng=0)  # fmt: skip
    for res in (by_labels, by_sparse):
        assert res.statistic == by_table.statistic
        assert res.confidence_interval == by_table.confidence_interval
        np.testing.assert_array_equal(res.bootstrap_distribution,
                                      by_table.bootstrap_distribution)  # fmt: skip


def test_batch_does_not_change_the_result():
    """The draws are made one resample after the other, whatever ``batch``: the same values
    up to rounding (E[MI] of a batch's distinct size pairs; numpy 1.24 moves 2 of 50 by an
    ulp)."""
    results = [cc.confidence_interval("ami", contingency=TABLE, n_resamples=50, rng=4,
                                      batch=batch) for batch in (None, 1, 7)]  # fmt: skip
    for res in results[1:]:
        np.testing.assert_allclose(res.bootstrap_distribution,
                                   results[0].bootstrap_distribution, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(res.confidence_interval, results[0].confidence_interval,
                                   rtol=1e-13, atol=1e-15)  # fmt: skip


@settings(max_examples=15)
@given(
    st.lists(st.integers(0, 6), min_size=4, max_size=4).filter(lambda c: sum(c) >= 4),
    st.sampled_from(["percentile", "BCa", "basic"]),
    st.integers(0, 2**16),
)
def test_level_monotone_and_ordered(cells, method, seed):
    """low <= high, and with the same resamples a 99 % interval contains the 90 % one."""
    table = np.reshape(cells, (2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        wide = cc.confidence_interval("ari", contingency=table, n_resamples=199, rng=seed,
                                      method=method, confidence_level=0.99)  # fmt: skip
        narrow = cc.confidence_interval("ari", contingency=table, n_resamples=199, rng=seed,
                                        method=method, confidence_level=0.9)  # fmt: skip
    if np.isnan(wide.confidence_interval).any():  # BCa of a degenerate law (warned)
        assert method == "BCa"
        return
    assert wide.confidence_interval.low <= wide.confidence_interval.high
    assert narrow.confidence_interval.low <= narrow.confidence_interval.high
    assert wide.confidence_interval.low <= narrow.confidence_interval.low
    assert wide.confidence_interval.high >= narrow.confidence_interval.high


def test_degenerate_bca_warns_as_scipy():
    """Identical clusterings: every resample has ARI 1; BCa is undefined (nan, warned, as
    SciPy's), the percentile interval is (1, 1)."""
    labels = [0, 0, 1, 1, 2, 2]
    with pytest.warns(stats.DegenerateDataWarning):
        res = cc.confidence_interval("ari", labels, labels, n_resamples=99, rng=0,
                                     method="BCa")  # fmt: skip
    assert np.isnan(res.confidence_interval.low)
    res = cc.confidence_interval("ari", labels, labels, n_resamples=99, rng=0,
                                 method="percentile")  # fmt: skip
    assert res.confidence_interval == (1.0, 1.0)


def test_bca_says_why_it_is_undefined():
    """BCa is undefined (nan) both where every value is equal and where every bootstrap
    value lies above the observed one (z0 infinite: AMI with ~10 elements a cell, where the
    bootstrap's bias was 11.6 standard errors); the warning says which."""
    from chanceclust.bootstrap import _interval

    jack = lambda: (np.array([0.5, 0.6, 0.7]), np.array([1, 1, 1]))
    with pytest.warns(stats.DegenerateDataWarning, match="one side of the observed value"):
        one_side = _interval(np.linspace(0.6, 0.7, 99), 0.5, 0.95, "bca", jack)
    assert np.isnan(one_side.low) and np.isnan(one_side.high)
    with pytest.warns(stats.DegenerateDataWarning, match="every value equal"):
        _interval(np.full(99, 0.5), 0.5, 0.95, "bca",
                  lambda: (np.full(3, 0.5), np.array([1, 1, 1])))


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"measure": "nope"}, "`measure`"),
    ({"measure": len}, "`measure`"),
    ({"method": "bc"}, "`method`"),
    ({"confidence_level": 1.0}, "`confidence_level`"),
    ({"confidence_level": "0.9"}, "`confidence_level`"),
    ({"n_resamples": 0}, "`n_resamples`"),
    ({"batch": 0}, "`batch`"),
    ({"rng": "x"}, "`rng`"),
    ({"model": "perms"}, "`model`"),
    ({"average_method": "mean"}, "`average_method`"),
    ({"one_sided": "yes"}, "`one_sided`"),
])  # fmt: skip
def test_errors_name_the_argument(kwargs, name):
    args = {"measure": "ari", **kwargs}
    with pytest.raises(InvalidInputError, match=name):
        cc.confidence_interval(args.pop("measure"), [0, 0, 1], [0, 1, 1], **args)
    if "model" not in kwargs:
        args = {"measure": "ari", **kwargs}
        with pytest.raises(InvalidInputError, match=name):
            cc.paired_test(args.pop("measure"), [0, 0, 1], [0, 1, 1], [1, 1, 0], **args)


def test_inputs_refused():
    """A table summary has no cells to resample; one element has nothing to resample;
    the paired test names its argument for bad labels and a bad alternative."""
    summary = cc.TableSummary.from_histograms(([2], [3]), ([3], [2]), ([1, 2], [2, 2]))
    with pytest.raises(InvalidInputError, match="`contingency`"):
        cc.confidence_interval("ari", contingency=summary)
    with pytest.raises(InvalidInputError, match="at least 2 elements"):
        cc.confidence_interval("ari", [0], [0])
    with pytest.raises(InvalidInputError, match="`alternative`"):
        cc.paired_test("ari", [0, 1], [0, 1], [0, 0], alternative="bigger")
    with pytest.raises(InvalidInputError, match="labels_b"):
        cc.paired_test("ari", [0, 1, 1], [0, 1, 1], [0, 0])


@settings(max_examples=10)
@given(st.lists(st.integers(0, 2), min_size=12, max_size=30), st.integers(0, 2**16))
def test_paired_p_values_are_probabilities_and_consistent(labels, seed):
    """p in (0, 1] for every alternative; two-sided = min(1, 2 min(greater, less)) of the
    same resamples; the statistic is the difference of the two single calls."""
    ref = np.array(labels)
    a = np.roll(ref, 1)
    b = np.roll(ref, 3)
    values = {}
    for alternative in ("greater", "less", "two-sided"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            res = cc.paired_test("nmi", ref, a, b, alternative=alternative, n_resamples=99,
                                 rng=seed)  # fmt: skip
        assert 0 < res.pvalue <= 1
        values[alternative] = res.pvalue
    assert values["two-sided"] == pytest.approx(
        min(1.0, 2 * min(values["greater"], values["less"]))
    )
    expected = (cc.normalized_mutual_information(ref, a)
                - cc.normalized_mutual_information(ref, b))  # fmt: skip
    assert res.statistic == pytest.approx(expected, abs=1e-12)


def test_paired_unassigned_policies():
    """'drop' leaves out an element unassigned in any of the three (the same result as the
    three without it); 'singletons' is each clustering's single-call policy; 'raise' names
    the argument and the default refuses."""
    ref = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
    a = np.array([0, 0, 1, 1, 1, 1, 2, 2, 2, -1])
    b = np.array([0, 1, 1, 1, 0, 1, 2, 2, 0, 2])
    kwargs = {"n_resamples": 99, "rng": 0, "method": "percentile"}
    with pytest.raises(InvalidInputError, match="`labels_a`"):
        cc.paired_test("ari", ref, a, b, unassigned_label=-1, **kwargs)
    dropped = cc.paired_test("ari", ref, a, b, unassigned_label=-1, unassigned="drop", **kwargs)
    kept = cc.paired_test("ari", ref[:-1], a[:-1], b[:-1], **kwargs)
    np.testing.assert_array_equal(dropped.bootstrap_distribution, kept.bootstrap_distribution)
    single = cc.paired_test("ari", ref, a, b, unassigned_label=-1, unassigned="singletons",
                            **kwargs)  # fmt: skip
    expected = (cc.adjusted_rand_index(ref, a, unassigned_label=-1, unassigned="singletons")
                - cc.adjusted_rand_index(ref, b))  # fmt: skip
    assert single.statistic == pytest.approx(expected, abs=1e-12)


def test_huge_n_goes_through_the_table_function():
    """N ~ 2**41 (beyond the int64 pair counts of the batches): each resample by the
    measure's table function, equal to the single call on the same draws."""
    table = np.array([[2**40, 2**39], [2**38, 2**40]])
    for measure in ("ari", "ami", "nmi"):
        res = cc.confidence_interval(measure, contingency=table, n_resamples=4, rng=5,
                                     method="percentile")  # fmt: skip
        counts = table.ravel()
        draws = _documented_draws(5, counts, 4)
        expected = [_single(measure, draw.reshape(2, 2)) for draw in draws]
        np.testing.assert_allclose(res.bootstrap_distribution, expected, rtol=1e-12)


def test_threads_and_batches_do_not_change_the_values(monkeypatch):
    """The blocks drawn (and the jackknife evaluated) by a pool of threads or one after the
    other: the same bootstrap distribution and BCa interval (each block has its own
    stream); evaluated in other batches, the same up to
    rounding (E[MI] of a batch's distinct size pairs may take other routes of size_pairs)."""
    from chanceclust import bootstrap

    table = np.array([[40, 3, 2], [5, 30, 6], [1, 4, 50]])
    kwargs = {"contingency": table, "n_resamples": 700, "rng": 11, "method": "percentile"}
    monkeypatch.setattr(bootstrap, "_THREADED_CELLS", 0)
    threaded = cc.confidence_interval("ami", **kwargs).bootstrap_distribution
    threaded_bca = cc.confidence_interval("ari", **{**kwargs, "method": "BCa"})
    monkeypatch.setattr(bootstrap, "_THREADED_CELLS", 1 << 62)
    serial = cc.confidence_interval("ami", **kwargs).bootstrap_distribution
    serial_bca = cc.confidence_interval("ari", **{**kwargs, "method": "BCa"})
    np.testing.assert_array_equal(threaded, serial)
    assert threaded_bca.confidence_interval == serial_bca.confidence_interval  # jackknife too
    assert len(serial) == 700
    batched = cc.confidence_interval("ami", batch=7, **kwargs).bootstrap_distribution
    np.testing.assert_allclose(batched, serial, rtol=1e-13, atol=1e-15)


def test_linearized_expected_mi_is_the_single_call():
    """AMI under perm at N ~ 10^7 (the linearized E[MI] of each resample's margins, and of
    each jackknife table's at N - 1) equals the single call on the same tables to 1e-10
    (the route's bound, in nats, divided by s_max - E[MI] ~ 1)."""
    from chanceclust import bootstrap

    table = np.array([[3_000_000, 200_000, 100_000], [150_000, 2_500_000, 300_000],
                      [50_000, 400_000, 3_300_000]])  # fmt: skip
    summary = bootstrap._validated_table(None, None, table, "perm", False, None, "raise")[0]
    options = bootstrap._options("ami", "perm", False, "arithmetic", 0.95, 4, "percentile",
                                 None, 0, "auto")  # fmt: skip
    assert [plan.n for plan in bootstrap._table_cells(summary, options).linear] == [
        table.sum(), table.sum() - 1]  # the resamples' and the jackknife's totals
    res = cc.confidence_interval("ami", contingency=table, n_resamples=4, rng=3,
                                 method="percentile")  # fmt: skip
    draws = _documented_draws(3, table.ravel(), 4)
    expected = [_single("ami", draw.reshape(3, 3)) for draw in draws]
    np.testing.assert_allclose(res.bootstrap_distribution, expected, rtol=0, atol=1e-10)
    # The jackknife's tables (one element of a cell left out, total N - 1).
    cells = bootstrap._table_cells(summary, options)
    jack = bootstrap._jackknife(summary.counts, None,
                                lambda c: bootstrap._values(options, cells, c))  # fmt: skip
    for k in range(len(summary.counts)):
        left = table.ravel().copy()
        left[k] -= 1
        assert jack[k] == pytest.approx(_single("ami", left.reshape(3, 3)), abs=1e-10)


@pytest.mark.parametrize("measure", ["ari", "ami"])
@pytest.mark.parametrize("table", [
    [[5, 1, 0], [2, 7, 3]],                                 # small cells, ones, a zero
    [[6, 2, 0], [0, 0, 1], [3, 1, 4]],                      # a cluster of one element
    [[40, 3, 2, 1], [5, 30, 8, 1], [1, 6, 50, 20]],         # moderate
    [[3_000_000, 200_000, 100_000], [150_000, 2_500_000, 300_000],
     [50_000, 400_000, 3_300_000]],                        # N ~ 10^7: linearized E[MI]
])  # fmt: skip
def test_jackknife_in_closed_form_equals_evaluating_its_tables(measure, table):
    """The jackknife of ARI/AMI under perm from the observed sums updated per left-out cell
    (``_left_out_values``) equals evaluating every left-out table (``_jackknife``) and the
    single call on each of them: the pair counts exactly, MI's joint entropy within its
    stated ~ulp(N log N) / N (tolerance 1e-12, the values are O(1))."""
    from chanceclust import bootstrap

    table = np.array(table)
    summary = bootstrap._validated_table(None, None, table, "perm", False, None, "raise")[0]
    options = bootstrap._options(measure, "perm", False, "arithmetic", 0.95, 4, "bca", None,
                                 0, "auto")  # fmt: skip
    cells = bootstrap._table_cells(summary, options)
    fast = bootstrap._left_out_values(options, cells, summary.counts)
    slow = bootstrap._jackknife(summary.counts, None,
                                lambda c: bootstrap._values(options, cells, c))  # fmt: skip
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)
    rows, cols = np.nonzero(table)
    for k in range(len(summary.counts)):
        left = table.copy()
        left[rows[k], cols[k]] -= 1
        assert fast[k] == pytest.approx(_single(measure, left), abs=1e-10)


def test_jackknife_in_closed_form_declines_a_cell_of_most_elements():
    """A cell of more than half the elements (entropy_values takes log1p there) and the
    measures other than ARI/AMI under perm: every left-out table is evaluated."""
    from chanceclust import bootstrap

    for measure, table in (("ami", [[90, 1], [2, 3]]), ("nmi", [[5, 1], [2, 7]])):
        summary = bootstrap._validated_table(None, None, np.array(table), "perm", False, None,
                                             "raise")[0]  # fmt: skip
        options = bootstrap._options(measure, "perm", False, "arithmetic", 0.95, 4, "bca",
                                     None, 0, "auto")  # fmt: skip
        cells = bootstrap._table_cells(summary, options)
        assert bootstrap._left_out_values(options, cells, summary.counts) is None


def test_normal_draws_have_the_multinomial_mean_and_covariance():
    """The normal approximation's tables: integers summing to N exactly, the small cells by
    the exact multinomial given their total, the multinomial's mean and covariance
    N (diag p - p p^T) (within 5 Monte Carlo standard errors over 100,000 draws)."""
    from chanceclust import bootstrap

    counts = np.array([5, 300, 200, 7, 1000, 2, 150])
    large = counts >= bootstrap.NORMAL_MIN_COUNT
    n = int(counts.sum())
    small = counts[~large]
    gaussian = bootstrap._Gaussian(n, large, np.where(large, counts, 0) / counts[large].sum(),
                                   small / small.sum(), small.sum() / n, 0.0)  # fmt: skip
    draws = gaussian.draw(np.random.default_rng(0), 100_000)
    assert draws.dtype == np.int64
    assert (draws.sum(axis=1) == n).all()
    assert draws.min() >= 0
    p = counts / n
    mean_error = np.sqrt(n * p * (1 - p) / 100_000)
    assert np.all(np.abs(draws.mean(axis=0) - n * p) < 5 * mean_error)
    covariance = n * (np.diag(p) - np.outer(p, p))
    scale = np.sqrt(np.outer(np.diag(covariance), np.diag(covariance)) * 2 / 100_000)
    assert np.all(np.abs(np.cov(draws.T) - covariance) < 5 * scale + 0.3)


def test_normal_route_agrees_with_exact_draws(monkeypatch):
    """"auto" on a table of cells >= 100 (the work threshold lowered here) keeps the exact
    draws where the bound exceeds a tenth of the Monte Carlo error (N = 3,570: skewness
    ~ 1/sqrt(N)); allowed (the share raised here), it draws by the normal approximation,
    says so, and its 2.5/50/97.5 % quantiles agree with exact draws' within 4 Monte Carlo
    standard errors (20,000 resamples each)."""
    from chanceclust import bootstrap

    monkeypatch.setattr(bootstrap, "_NORMAL_MIN_WORK", 0)
    table = np.array([[900, 150, 120], [130, 700, 200], [110, 160, 1000]])
    kwargs = {"contingency": table, "n_resamples": 20_000, "method": "percentile"}
    assert cc.confidence_interval("ari", rng=1, **kwargs).resampling == "multinomial"
    monkeypatch.setattr(bootstrap, "_NORMAL_SHARE", 100.0)
    normal = cc.confidence_interval("ari", rng=1, **kwargs)
    exact = cc.confidence_interval("ari", rng=2, resampling="multinomial", **kwargs)
    assert (normal.resampling, exact.resampling) == ("normal", "multinomial")
    levels = np.array([0.025, 0.5, 0.975])
    noise = np.sqrt(2 * levels * (1 - levels) / 20_000) / stats.norm.pdf(stats.norm.ppf(levels))
    shift = (np.quantile(normal.bootstrap_distribution, levels)
             - np.quantile(exact.bootstrap_distribution, levels)) / exact.standard_error
    assert np.all(np.abs(shift) < 4 * noise)


def test_resampling_is_checked():
    with pytest.raises(InvalidInputError, match="`resampling`"):
        cc.confidence_interval("ari", contingency=TABLE, resampling="gauss")


def test_shifted_bootstrap_law_warns():
    """Many small cells (N = 60 over 40 cells): the bootstrap law's mean is more than half a
    standard error from the observed ARI, and the interval warns; a table of large cells
    does not (its shift ~ 0.05)."""
    rng = np.random.default_rng(3)
    small = rng.multinomial(60, np.full(40, 1 / 40)).reshape(5, 8) + np.eye(5, 8, dtype=int) * 3
    res_small = None
    with pytest.warns(UserWarning, match="standard errors from the observed value"):
        res_small = cc.confidence_interval("ari", contingency=small, n_resamples=999, rng=0,
                                           method="BCa")  # fmt: skip
    shift = abs(res_small.bootstrap_distribution.mean() - res_small.statistic)
    assert shift / res_small.standard_error > 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cc.confidence_interval("ari", contingency=TABLE * 20, n_resamples=999, rng=0,
                               method="BCa")  # fmt: skip
