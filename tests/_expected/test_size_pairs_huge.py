"""The perm expected MI beyond int64 products: N from 3037000500 to 2**63 - 1 (issue #10).

``tests/reference/huge_pair_information.json`` comes from
``tests/reference/make_huge_pair_information.py`` (mpmath and exact factorial
moments, independent of chanceclust; its two methods are cross-checked where
both apply): N I(a, b) = E[bd0(X, ab/N)] for size pairs at N = 1e9 .. 2**63 - 1,
and the perm E[MI] and AMI of contingency tables with totals up to 2**63 - 1.
Beyond N = 3037000499 the kernel takes the series in 1/mean (means >= 100, any N:
``deviance_series``) or windowed sums free of int64 products; both are also checked
against the exact route where it applies, and against each other at the switch.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
from chanceclust._expected import size_pairs as kernel
from chanceclust._expected.deviance_series import series_expected_deviance
from chanceclust.expectations import expected_mutual_information_baseline

REFERENCE = json.loads(
    (Path(__file__).parents[1] / "reference" / "huge_pair_information.json").read_text()
)
PAIRS = REFERENCE["pairs"]
TABLES = REFERENCE["tables"]


def _one(n: int, a: int, b: int) -> float:
    return kernel.pair_information(np.array([a]), np.array([b]), n)[0] * n


@pytest.mark.parametrize("case", PAIRS, ids=lambda c: f"N{c['n']}-a{c['a']}-b{c['b']}")
def test_pair_information_matches_mpmath_at_huge_n(case):
    n, a, b = int(case["n"]), int(case["a"]), int(case["b"])
    # Observed: <= 6.3e-15 on every case.
    assert _one(n, a, b) == pytest.approx(float(case["n_info"]), rel=1e-13)


def test_reference_pairs_cover_both_routes_beyond_int64_products():
    means = [
        Fraction(int(c["a"]) * int(c["b"]), int(c["n"]))
        for c in PAIRS
        if int(c["n"]) > kernel.INT64_EXACT_MAX_N
    ]
    assert any(m >= kernel._SERIES_MEAN for m in means)
    assert any(m < kernel._SERIES_MEAN for m in means)
    assert sum(c["method"] == "both" for c in PAIRS) >= 4


def _table(case) -> np.ndarray:
    return np.array([[int(x) for x in row] for row in case["table"]], dtype=object)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_perm_expected_mi_and_ami_of_tables_near_the_int64_limit(name):
    case = TABLES[name]
    table = _table(case)
    expected = cc.expected_mutual_information(contingency=table, model="perm")
    assert expected == pytest.approx(float(case["expected_mutual_information"]), rel=1e-12)
    ami = cc.adjusted_mutual_information(contingency=table)
    assert ami == pytest.approx(float(case["adjusted_mutual_information"]), rel=1e-12)
    assert cc.compare(contingency=table).get("AMI", "perm", average_method="arithmetic") == ami


@pytest.mark.parametrize("name", sorted(TABLES))
def test_baseline_from_sizes_equals_the_table_reference(name):
    table = _table(TABLES[name])
    rows, cols = [sum(r) for r in table], [sum(c) for c in zip(*table, strict=True)]
    value = expected_mutual_information_baseline(
        sum(rows), sizes_true=[r for r in rows if r], sizes_pred=[c for c in cols if c]
    )
    assert value == pytest.approx(float(TABLES[name]["expected_mutual_information"]), rel=1e-12)


@pytest.mark.parametrize("n", [10**9, 3 * 10**9])
def test_series_agrees_with_the_summed_route_where_both_apply(n):
    """Means from 100 to 1e5 and every fraction of N: the series against the pmf sums."""
    rng = np.random.default_rng(7)
    a = rng.integers(10**3, n - 10**3, 4000)
    b = (np.exp(rng.uniform(np.log(100.0), np.log(1e5), len(a))) * (n / a)).astype(np.int64)
    b = np.where(rng.random(len(a)) < 0.3, n - b, b)  # b near N too
    keep = (b > 0) & (b < n) & (a * (b / n) >= 100) & (a * (b / n) <= 1e5)
    a, b = a[keep][:60], b[keep][:60]
    assert len(a) >= 30
    summed = kernel._summed_information(a, b, n) * n
    series = series_expected_deviance(a, b, n)
    # Observed <= 5e-15: the pmf sums' rounding (the series is within 5e-16 of 50 digits).
    np.testing.assert_allclose(series, summed, rtol=2e-14, atol=0)


def test_folded_sums_agree_with_the_exact_route_for_every_flip():
    n = 2 * 10**9
    a = np.array([n - 1, n - 5, 3, n - 1000, n // 2, 7, n - 7, 10**6, n - 10**6, 40000])
    b = np.array([1, 7, n - 2, 1000, 3, n - 9, n - 9, 5, 5, n - 30000])
    exact = kernel._summed_information(a, b, n) * n
    np.testing.assert_allclose(kernel._folded_information(a, b, n), exact, rtol=2e-14, atol=0)


@pytest.mark.parametrize("n", [10**6, 2**62 + 12345, 2**63 - 1])
def test_the_route_switch_at_mean_100_is_continuous(n, monkeypatch):
    """Pairs with means within a few per cent of the switch: both routes on both sides of it."""
    scale = np.array([0.96, 0.98, 0.995, 1.0, 1.005, 1.02, 1.04])
    for a in [n // 2**10, n // 2, n - n // 2**10]:  # a << N, a = N/2, a ~ N
        b = (kernel._SERIES_MEAN / (a / n) * scale).astype(np.int64)
        a = np.full(len(b), a, dtype=np.int64)
        mean = a * (b / n)
        assert mean.min() < kernel._SERIES_MEAN < mean.max()
        summed = kernel._summed_information(a, b, n) * n
        series = series_expected_deviance(a, b, n)
        np.testing.assert_allclose(series, summed, rtol=2e-14, atol=0)
        values = kernel.pair_information(a, b, n) * n
        assert np.all(np.abs(np.diff(values)) < 0.01 * values[1:])  # no jump at the switch
        monkeypatch.setattr(kernel, "_SERIES_MEAN", np.inf)
        np.testing.assert_allclose(kernel.pair_information(a, b, n) * n, values, rtol=2e-14)
        monkeypatch.undo()


def test_many_pairs_at_the_limit_are_finite_and_ordered():
    """A Zipf-like pair of clusterings of 2**63 - 1 elements: every route at once, no overflow."""
    n = 2**63 - 1
    sizes = (n // np.arange(1, 300) ** 2).astype(np.int64)
    sizes[0] += n - int(sizes.sum(dtype=object))
    value = expected_mutual_information_baseline(n, sizes_true=sizes, sizes_pred=sizes[::-1])
    # E[MI] ~ (K_A - 1)(K_B - 1) / 2N for clusters far larger than K: here tiny and positive.
    assert 0.0 < value < 1e-10


def _mp_pair_information(n: int, a: int, b: int) -> float:
    """N I(a, b) = E[bd0(X, ab/N)] by the hypergeometric pmf in mpmath (a small: X <= a)."""
    import mpmath

    with mpmath.workdps(50):
        mu = mpmath.mpf(a) * b / n
        total = mpmath.mpf(0)
        for x in range(a + 1):
            p = mpmath.binomial(b, x) * mpmath.binomial(n - b, a - x) / mpmath.binomial(n, a)
            bd0 = mu if x == 0 else x * mpmath.log(x / mu) + mu - x
            total += p * bd0
        return float(total)


def test_tiny_means_reach_the_grouped_route_beyond_2_53():
    """Means <= 1 reach the grouped route's tiny groups (``_tiny_window_tops``) from the public
    path: beyond N = 2**53, s + l > N/2 in integers (not taken by the small-means series) can
    round to 2 (s + l) <= N in float64 (grouped). So that branch stays; its values hold."""
    n = 2**60
    hits = []
    original = kernel._tiny_window_top

    def spy(mean, tops):
        hits.append(mean.copy())
        return original(mean, tops)

    a, b = np.array([1, 3]), np.array([2**59, 2**59 - 1])
    try:
        kernel._tiny_window_top = spy
        got = kernel.pair_information(a, b, n) * n
        expected_mutual_information_baseline(
            n, sizes_true=np.array([1, n - 1]), sizes_pred=np.array([2**59, 2**59])
        )
    finally:
        kernel._tiny_window_top = original
    assert len(hits) == 2
    assert all(np.any(h <= 1.0) for h in hits)
    for value, (ai, bi) in zip(got, zip(a.tolist(), b.tolist(), strict=True), strict=True):
        assert value == pytest.approx(_mp_pair_information(n, ai, bi), rel=1e-14)
