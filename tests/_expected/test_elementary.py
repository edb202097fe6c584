"""The numpy-only log-gamma, log-sum-exp and Lambert W against mpmath (and scipy.special)."""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
import scipy.special as sc

from chanceclust._expected.elementary import gammaln, lambertw, logsumexp, polygamma_large, unique
from chanceclust.exceptions import InternalError

mp.mp.dps = 30


def test_gammaln_at_integers_matches_mpmath():
    x = np.concatenate([np.arange(1, 300.0), np.unique(np.geomspace(300, 1e15, 300).round())])
    want = np.array([float(mp.loggamma(mp.mpf(v))) for v in x])
    got = gammaln(x)
    assert got[0] == 0.0 and got[1] == 0.0  # 0! and 1!
    np.testing.assert_allclose(got[2:], want[2:], rtol=1e-15)  # observed 4.8e-16


def test_gammaln_at_reals_matches_mpmath():
    x = np.linspace(0.01, 30, 997)
    want = np.array([float(mp.loggamma(mp.mpf(v))) for v in x])
    np.testing.assert_allclose(gammaln(x), want, rtol=1e-14, atol=1e-14)  # observed 3.6e-15 abs


def test_gammaln_scalar_and_shape():
    assert isinstance(gammaln(5.0), float) and gammaln(5.0) == pytest.approx(math.log(24))
    assert gammaln(np.ones((2, 3)) * 4).shape == (2, 3)


@pytest.mark.parametrize("scale", [1e-3, 1.0, 700.0, 1e5])
def test_logsumexp_matches_scipy(scale):
    a = np.random.default_rng(int(scale)).normal(0.0, scale, 500)
    assert logsumexp(a) == pytest.approx(float(sc.logsumexp(a)), rel=1e-15, abs=1e-15)


def test_logsumexp_edges():
    assert logsumexp([]) == -math.inf
    assert logsumexp([-math.inf, -math.inf]) == -math.inf
    assert logsumexp([0.0, -math.inf]) == 0.0
    assert logsumexp([1000.0, 1000.0]) == pytest.approx(1000.0 + math.log(2.0), rel=1e-16)


def _lambertw_bound(x, w):
    """1e-15 relative, plus the conditioning near the branch point: W' ~ 1/sqrt(2 (e x + 1))."""
    return 1e-15 * np.abs(w) + 2e-16 / np.sqrt(np.maximum(math.e * x + 1.0, 1e-300))


def test_lambertw_matches_mpmath():
    x = np.concatenate(
        [
            -math.exp(-1) + np.geomspace(1e-15, 0.1, 300),
            np.linspace(-0.3, 5, 1000),
            np.geomspace(5, 1e300, 300),
        ]
    )
    want = np.array([float(mp.lambertw(mp.mpf(v))) for v in x])
    got = lambertw(x)
    assert np.all(np.abs(got - want) <= _lambertw_bound(x, want))
    # scipy.special.lambertw meets the same bound (so it is not loose for us alone)
    assert np.all(np.abs(sc.lambertw(x).real - want) <= 1.5 * _lambertw_bound(x, want))
    assert lambertw(-math.exp(-1)) == pytest.approx(-1.0, abs=1e-7)
    assert lambertw(0.0) == 0.0


def test_lambertw_rejects_points_off_the_real_branch():
    with pytest.raises(InternalError, match="-1/e"):
        lambertw(-0.5)
    with pytest.raises(InternalError, match="-1/e"):
        lambertw(np.nan)


@pytest.mark.parametrize("values", [[], [3, 1, 3, 2], [5], [2.5, -1.0, 2.5], list(range(50, 0, -3)) * 2])
def test_unique_equals_numpy(values):
    np.testing.assert_array_equal(unique(values), np.unique(values))


@pytest.mark.parametrize("excess", [1e-12, 1e-6, 1e-3, 0.1, 0.5, 1.0, 3.0, 50.0, 1e3, 1e7 - 1])
def test_truncated_poisson_rate_solves_the_mean(excess):
    """rho / (1 - e^-rho) = 1 + excess, checked in 40 digits; means near 1 and far above it."""
    from chanceclust._expected.elementary import truncated_poisson_rate

    rho = float(truncated_poisson_rate(excess))
    mp.mp.dps = 40
    root = mp.findroot(lambda r: r / (1 - mp.exp(-r)) - 1 - mp.mpf(excess), mp.mpf(rho))
    assert rho == pytest.approx(float(root), rel=2e-15)


def test_falling_and_stirling_series():
    from chanceclust._expected.elementary import STIRLING_SERIES, falling

    assert falling(10, 3) == 720
    assert falling(5, 0) == 1
    assert falling(3, 4) == 0
    n = mp.mpf(30)
    series = sum(c / n ** (2 * i + 1) for i, c in enumerate(STIRLING_SERIES))
    exact = mp.loggamma(n + 1) - (n * mp.log(n) - n + mp.log(2 * mp.pi * n) / 2)
    assert float(series) == pytest.approx(float(exact), rel=1e-15)


@pytest.mark.parametrize("m", [0, 1, 2, 3, 7, 15, 23, 30])
@pytest.mark.parametrize("x", [1000.0, 1234.5, 1e6, 3.1e13, 2.2e17])
def test_polygamma_large_matches_mpmath(m, x):
    want = float(mp.polygamma(m, mp.mpf(x)))
    got = polygamma_large(m, x)
    if want == 0.0:  # underflow of x^-(m+1) at huge x
        assert abs(got) < 1e-300
    else:
        assert got == pytest.approx(want, rel=1e-15)


def test_polygamma_large_refuses_small_arguments():
    with pytest.raises(InternalError, match="x >= 1000"):
        polygamma_large(1, 10.0)
