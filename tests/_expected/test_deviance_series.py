"""The series in 1/mean of E[bd0(X, ab/N)], X ~ hypergeometric(N, a, b) (issue #10).

``tests/reference/series_pair_information.json`` comes from
``tests/reference/make_series_pair_information.py`` (mpmath, 50 digits, independent of
chanceclust): means from 60 through every point where the series' order changes, at
N = 10^6 .. 2**63 - 1, with a/N small, a = N/2, a near N and b near N.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest
from reference._exact import falling, stirling2  # tests/ is on sys.path (conftest.py)

from chanceclust._expected import deviance_series as series
from chanceclust._expected import size_pairs as kernel
from chanceclust.exceptions import InternalError

CASES = json.loads(
    (Path(__file__).parents[1] / "reference" / "series_pair_information.json").read_text()
)


def _ints(case) -> tuple[int, int, int]:
    return int(case["n"]), int(case["a"]), int(case["b"])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c['n']}-a{c['a']}-b{c['b']}")
def test_series_matches_mpmath_at_the_ends_of_its_range(case):
    n, a, b = _ints(case)
    reference = float(case["n_info"])
    got = kernel.pair_information(np.array([a]), np.array([b]), n)[0] * n
    # Observed: <= 1.6e-15 on every case (the pmf sums below mean 100), <= 4.4e-16 (series).
    assert got == pytest.approx(reference, rel=1e-14)
    if a * b >= series.series_min_mean() * n:
        value = series.series_expected_deviance(np.array([a]), np.array([b]), n)[0]
        assert value == pytest.approx(reference, rel=4e-15)  # observed <= 4.4e-16


def test_reference_cases_reach_every_order_and_both_sides_of_the_switch():
    means = np.array([a * b / n for n, a, b in map(_ints, CASES)])
    orders = series.series_order(means)
    assert set(orders) == set(range(2, series._MAX_ORDER + 1)) | {-1}
    assert means.min() < series.series_min_mean() <= kernel._SERIES_MEAN < means.max()
    assert {int(c["n"]) for c in CASES} >= {10**6, 2**63 - 1, kernel.INT64_EXACT_MAX_N + 1}


def test_the_series_refuses_means_below_its_range():
    assert kernel._SERIES_MEAN >= series.series_min_mean() > 60
    with pytest.raises(InternalError, match="series_min_mean"):
        series.series_expected_deviance(np.array([1000, 10**6]), np.array([60, 10**6]), 10**6)


def test_first_coefficients_are_the_closed_forms():
    """A_0 = c2/2, A_1 = c2^2/4 - c3/6, A_2 = c4/12 - c2 c3/2 + c2^3/2 (derived by hand)."""
    coefficients = series._series_coefficients()

    def monomial(**powers):
        exps = [0] * len(next(iter(coefficients[0])))
        for name, power in powers.items():
            exps[int(name[1:]) - 2] = power
        return tuple(exps)

    assert coefficients[0] == {monomial(c2=1): Fraction(1, 2)}
    assert coefficients[1] == {monomial(c2=2): Fraction(1, 4), monomial(c3=1): Fraction(-1, 6)}
    assert coefficients[2] == {
        monomial(c4=1): Fraction(1, 12),
        monomial(c2=1, c3=1): Fraction(-1, 2),
        monomial(c2=3): Fraction(1, 2),
    }
    # One monomial per partition of J + 1 (weights sum (j - 1) over the factors c_j).
    partitions = [1, 2, 3, 5, 7, 11, 15, 22, 30, 42, 56, 77, 101, 135, 176]
    assert [len(c) for c in coefficients] == partitions


def _exact_cumulant_ratios(n: int, a: int, b: int, count: int) -> list[Fraction]:
    """kappa_j / mu, j = 2 .. count + 1, from the factorial moments (a)_k (b)_k / (N)_k."""
    top = count + 1
    factorial = [Fraction(falling(a, k) * falling(b, k), falling(n, k)) for k in range(top + 1)]
    raw = [sum(stirling2(j, k) * factorial[k] for k in range(j + 1)) for j in range(top + 1)]
    mean = Fraction(a * b, n)
    central = [
        sum(comb(j, i) * raw[i] * (-mean) ** (j - i) for i in range(j + 1)) for j in range(top + 1)
    ]
    kappa = [None, mean]
    for k in range(2, top + 1):
        kappa.append(
            central[k] - sum(comb(k - 1, j) * kappa[k - j] * central[j] for j in range(2, k - 1))
        )
    return [kappa[k] / mean for k in range(2, top + 1)]


@pytest.mark.parametrize(
    ("n", "a", "b"),
    [
        (60, 7, 11),
        (60, 30, 30),
        (60, 45, 20),  # a folded
        (60, 59, 3),
        (60, 50, 55),  # both folded
        (1000, 100, 300),
        (10**9, 10**6, 5 * 10**5),
        (10**9, 9 * 10**8, 3 * 10**8),
        (10**9, 10**9 - 3, 10**9 - 10**5),
        (10**6, 5 * 10**5, 5 * 10**5),
        (2**63 - 1, 2**62, 2**61),
    ],
)
def test_cumulant_ratios_are_the_hypergeometric_ones(n, a, b):
    """The recurrence of the pgf's ODE against exact rational cumulants, c_2 .. c_15: c_2 to a few
    ulps, c_j to 2e-16 3^(j-2) max(1, |c_j|) (observed <= 1e-12 at j = 15, N = 60), harmless as
    c_j enters E[bd0] times r^(j-2) <= 70^-(j-2)."""
    exact = _exact_cumulant_ratios(n, a, b, 14)
    got = series.cumulant_ratios(np.array([a]), np.array([b]), n, 14)[:, 0]
    for j, (value, reference) in enumerate(zip(got, exact, strict=True), start=2):
        scale = max(1.0, abs(float(reference)))
        tolerance = 2e-16 * 3.0 ** (j - 2) * scale if j > 2 else 4e-16 * float(reference)
        assert abs(value - float(reference)) <= tolerance, (j, value, float(reference))


@pytest.mark.parametrize("n", [300, 10**6, 10**12, 2**63 - 1])
def test_truncation_is_below_1e_17_at_every_switch_for_every_fraction_of_n(n):
    """The claim the orders rest on: at the least mean of each order J, the first omitted term
    r^(J+1) A_(J+1)(c) is at most the Poisson law's (1e-17 of A_0 = 1/2), for a/N from 1e-9
    to 1 - 1e-9 (b/N follows from the mean; I(a, b) = I(b, a); N = 300 reaches a = b = N/2).
    It fails if an order is used below its accuracy range."""
    fractions = np.array([1e-9, 1e-4, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1 - 1e-4, 1 - 1e-9])
    fractions = np.r_[fractions, np.linspace(0.05, 0.95, 19)]
    worst = 0.0
    for order, least in enumerate(series._switch_means()):
        if order < 2 or least > n:
            continue
        a = np.unique(np.clip((fractions * n).astype(np.int64), 1, n - 1))
        b = np.ceil(least / (a / n) * (1 + 1e-12)).astype(np.int64)
        keep = b < n
        a, b = a[keep], b[keep]
        if len(a) == 0:
            continue
        mean = a * (b / n)
        assert np.all(series.series_order(mean) <= order)
        value = series._series_sum(a, b, n, mean, order)
        # The term of order + 1: the monomials of weight order + 2, the last level.
        levels, coefficients = series._series_monomials(order + 1)
        last = len(levels[-1][0])
        gamma = series._scaled_cumulants(a, b, n, mean, order + 1)
        monomials = series._monomials(gamma, order + 1)[-last:]
        omitted = (coefficients[-last:] @ monomials) * mean
        worst = max(worst, np.max(np.abs(omitted) / value))
    # Poisson: exactly 1e-17 of A_0 = 1/2 at the switch (observed: 9.9999e-18 at N = 2**63 - 1).
    assert worst <= 1.05e-17
