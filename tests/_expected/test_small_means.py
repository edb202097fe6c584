"""N I(a, b) for means ab/N <= 1 by the factorial-moment series (``_expected/small_means.py``).

Against mpmath computed here (50 digits, the pmf summed over its whole support up to 80
terms: the means are <= 1.2, so the terms left out are < 1e-100), on both sides of every
order switch of the series and of the switch to the other routes at mean 1; the truncation
bound of each order checked in exact-enough arithmetic at the switch means themselves.
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest

from chanceclust._expected import size_pairs
from chanceclust._expected import small_means as kernel

mp.mp.dps = 50


def _reference(n: int, a: int, b: int) -> mp.mpf:
    """E[bd0(X, ab/N)] for X ~ hypergeometric(N, a, b), summed from x = 0 (means <= ~1)."""
    mean = mp.mpf(a) * b / n
    log_h0 = (
        mp.loggamma(n - a + 1)
        + mp.loggamma(n - b + 1)
        - mp.loggamma(n + 1)
        - mp.loggamma(n - a - b + 1)
    )
    h, total = mp.exp(log_h0), mp.mpf(0)
    total = h * mean  # bd0(0, mean) = mean
    for x in range(min(a, b, 80)):
        h = h * (a - x) * (b - x) / ((x + 1) * (n - a - b + x + 1))
        y = x + 1
        total += h * (y * mp.log(y / mean) + mean - y)
    return total


def test_newton_differences_match_mpmath():
    d = kernel.newton_differences()
    for k, value in enumerate(d):
        exact = mp.fsum(
            (-1) ** (k - j) * mp.binomial(k, j) * j * mp.log(j) for j in range(2, k + 1)
        )
        assert value == pytest.approx(float(exact), rel=1e-16, abs=1e-300)


def test_order_switch_means_increase_and_reach_mean_one():
    switch = kernel.order_switch_means()[2:]
    assert np.all(np.diff(switch) > 0)
    assert switch[-2] < kernel.SMALL_MEAN <= switch[-1]  # order 19 is the last needed


@pytest.mark.parametrize("order", range(3, 20))  # order 2: mean < 3e-17, no pair of sizes
def test_truncation_bound_holds_at_each_switch(order):
    """At the largest mean of each order, for sizes small (Poisson-like) and large against N,
    the first omitted term t_(K+1) is <= 1e-17 of E[bd0] (the stated bound, exact terms)."""
    mean = float(kernel.order_switch_means()[order])
    checked = 0
    for n in (10**7, 10**12):
        for s in (order + 2, 50, max(1, int(np.sqrt(n * mean)))):
            l = int(mean * n / s)
            if l < s or s + l > n // 2 or s < order + 1:
                continue
            checked += 1
            d = kernel.newton_differences()
            f = mp.binomial(s, order + 1) * mp.binomial(l, order + 1) / mp.binomial(n, order + 1)
            omitted = abs(f * d[order + 1]) if order < 19 else f * mp.mpf("0.3113")  # |d_20|
            assert omitted <= mp.mpf("1e-17") * _reference(n, s, l)
    assert checked >= 2


def _pairs_around(mean: float, n: int) -> list[tuple[int, int]]:
    """Size pairs (s, l) with means just below and just above ``mean`` at N = n."""
    out = []
    for s in (3, 40, 1000):
        for factor in (0.999, 1.001):
            l = round(mean * factor * n / s)
            if s <= l and s + l <= n // 2 and s * l > 0:
                out.append((s, l))
    return out


@pytest.mark.parametrize("order", range(3, 19))  # order 19's switch (1.13) is past mean 1
@pytest.mark.parametrize("n", [10**6, 10**9, 2**62])
def test_both_sides_of_each_order_switch_match_mpmath(order, n):
    mean = float(kernel.order_switch_means()[order])
    for s, l in _pairs_around(mean, n):
        got = kernel.small_mean_information(np.array([s]), np.array([l]), n)[0]
        want = _reference(n, s, l)
        assert got == pytest.approx(float(want), rel=2e-15), (s, l)


@pytest.mark.parametrize("n", [10**4, 10**7, 10**10, 2**63 - 1])
def test_both_sides_of_the_switch_at_mean_one_match_mpmath(n):
    """pair_information: the factorial-moment series up to mean 1, the window sums above."""
    for s, l in _pairs_around(1.0, n):
        got = size_pairs.pair_information(np.array([s]), np.array([l]), n)[0] * n
        assert got == pytest.approx(float(_reference(n, s, l)), rel=2e-15), (s, l)


def test_block_equals_the_pairs():
    """The 2-D block (one matrix product) equals the values pair by pair."""
    n = 10**7
    s = np.arange(1, 3000, 37)
    l = np.arange(2, 3300, 41)
    mean = np.multiply.outer(s, l / n)
    order = kernel.small_mean_order(float(mean[mean <= 1].max()))
    block = kernel.small_mean_block(s, l, n, order)
    i, j = np.nonzero(mean <= 1)
    pairs = kernel.small_mean_information(s[i], l[j], n)
    np.testing.assert_allclose(block[i, j], pairs, rtol=1e-15, atol=0)


def test_small_sizes_and_small_n():
    """Sizes 0 and 1 carry E[X log X] = 0; N below the order caps it (no division by 0)."""
    got = kernel.small_mean_information(np.array([0, 1, 1, 2]), np.array([5, 1, 3, 2]), 10)
    assert got[0] == 0.0
    for value, (a, b) in zip(got[1:], [(1, 1), (1, 3), (2, 2)], strict=True):
        assert value == pytest.approx(float(_reference(10, a, b)), rel=2e-15)
