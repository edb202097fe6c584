"""The probability kernels against 50-digit mpmath, at sizes where lgamma forms fail.

The stated accuracy is ~1e-14 relative for the pmfs at any N (Loader 2000);
the error of exp(log pmf) grows like eps * |log pmf|, so deep tails are
checked at rtol = 2e-15 * max(30, |log pmf|) (four deviances of size ~|log pmf| are summed).
"""

from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from chanceclust._expected.pmfs import binom_pmf, deviance, exact_offset, hypergeom_pmf, stirlerr

mp.mp.dps = 50


def _tolerance(exact):
    return 2e-15 * max(30.0, -float(mp.log(exact)))


@pytest.mark.parametrize("total", [1, 2, 7, 60, 1000, 10**6, 10**8, 2 * 10**9])
def test_hypergeom_pmf_matches_mpmath(total):
    rng = np.random.default_rng(total)
    for _ in range(15):
        a, b = (int(v) for v in rng.integers(1, total + 1, size=2))
        lo, hi = max(0, a + b - total), min(a, b)
        mean, sd = a * b / total, np.sqrt(a * b / total + 1)
        ks = np.unique(np.clip(np.round(mean + np.array([-6, -1, 0, 1, 3, 8]) * sd), lo, hi))
        ks = np.unique(np.r_[lo, hi, ks]).astype(np.int64)
        got = hypergeom_pmf(ks, total, a, b)
        for k, value in zip(ks, got):
            k = int(k)
            exact = mp.binomial(b, k) * mp.binomial(total - b, a - k) / mp.binomial(total, a)
            if exact < mp.mpf("1e-290"):
                continue
            assert abs(value - exact) <= _tolerance(exact) * exact, (total, a, b, k)


@pytest.mark.parametrize("n", [1, 3, 50, 10**5, 10**7, 10**9])
@pytest.mark.parametrize("u", [2, 3, 7, 100, 10**6])
def test_binom_pmf_matches_mpmath(n, u):
    mean, sd = n / u, np.sqrt(n / u + 1)
    ks = np.clip(np.round(mean + np.array([-5, -1, 0, 2, 6]) * sd), 0, n)
    ks = np.unique(np.r_[0, n, ks]).astype(np.int64)
    got = binom_pmf(ks, n, u)
    p = mp.mpf(1) / u
    for k, value in zip(ks, got):
        k = int(k)
        exact = mp.binomial(n, k) * p**k * (1 - p) ** (n - k)
        if exact < mp.mpf("1e-290"):
            continue
        assert abs(value - exact) <= _tolerance(exact) * exact, (n, u, k)


def test_hypergeom_pmf_sums_to_one():
    """Normalization over the full support, a check independent of mpmath."""
    for total, a, b in [(10, 3, 4), (200, 50, 120), (5000, 4999, 2500), (5000, 1, 1)]:
        ks = np.arange(max(0, a + b - total), min(a, b) + 1)
        assert np.sum(hypergeom_pmf(ks, total, a, b)) == pytest.approx(1.0, rel=1e-13)


@pytest.mark.parametrize(
    ("x", "m"),
    [(0, 3.0), (1, 1.05), (5, 5.2), (100, 99.9), (100, 1e-3), (10**6, 10**6 + 3), (7, 700.0)],
)
def test_deviance_matches_mpmath(x, m):
    exact = (mp.mpf(x) * mp.log(mp.mpf(x) / mp.mpf(m)) if x else 0) + mp.mpf(m) - x
    got = deviance(x, m, x - m)[()]
    assert got == pytest.approx(float(exact), rel=1e-14, abs=1e-300)


def test_stirlerr_matches_mpmath():
    n = np.array([1, 2, 3, 4, 5, 8, 11, 14, 15, 16, 17, 100, 10**4, 10**9])
    got = stirlerr(n)
    for value, k in zip(got, n):
        k = mp.mpf(int(k))
        exact = mp.loggamma(k + 1) - (k + mp.mpf(0.5)) * mp.log(k) + k - mp.log(2 * mp.pi) / 2
        assert abs(value - exact) <= 4e-16 * abs(exact)


@pytest.mark.parametrize("k", [2**31 - 1, 2**31 + 1])
def test_exact_offset_on_both_sides_of_two_to_the_62(k):
    """d = k - n/u: (k u - n)/u in int64 while k u < 2**62, (k - q) - r/u beyond (exact rationals)."""
    u = 2**31
    n = k * u - 3 * u - 12345  # d = 3 + 12345 / u
    got = exact_offset(np.array([k]), np.array([n]), np.array([u]))[0]
    assert (k * u < 2**62) == (k < u)
    assert got == pytest.approx(float(Fraction(k * u - n, u)), rel=1e-15, abs=0.0)
