"""Tests of chanceclust._expected.windows (private: Bennett windows, ratio-recurrence sums).

docs/math.md#math-windows states the contract: outside the window the mass is < 1e-20.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from chanceclust._expected.windows import mode_recurrence_sums, tail_halfwidth

DELTA = 1e-20


class TestTailHalfwidth:
    @pytest.mark.parametrize("var", [1e-3, 0.5, 3.0, 100.0, 1e6])
    def test_is_a_valid_bennett_bound_no_wider_than_bernstein(self, var):
        t = float(tail_halfwidth(np.array([var]))[0])
        x = (t - 1.0) / var  # the +1 absorbs the Newton stopping error

        def bennett(x):
            return 2.0 * math.exp(-var * ((1.0 + x) * math.log1p(x) - x))

        ell = math.log(2.0 / DELTA)
        bernstein = ell / 3.0 + math.sqrt(ell * ell / 9.0 + 2.0 * ell * var)
        assert bennett(x) <= DELTA * (1 + 1e-9)
        assert t <= bernstein + 1.0

    def test_binomial_mass_outside_is_below_delta(self):
        n, p = 10_000, 0.3
        t = float(tail_halfwidth(np.array([n * p * (1 - p)]))[0])
        lo, hi = math.floor(n * p - t), math.ceil(n * p + t)
        outside = stats.binom.cdf(lo - 1, n, p) + stats.binom.sf(hi, n, p)
        assert outside < DELTA

    def test_zero_variance_is_zero_width(self):
        assert tail_halfwidth(np.array([0.0, 2.0]))[0] == 0.0


def test_mode_recurrence_sums_reproduce_binomial_moments():
    """sum pmf(x) * x over the window = the mean, with the pmf carried from its mode."""
    n = np.array([10, 500, 3000])
    p = np.array([0.5, 0.1, 0.02])
    mode = np.floor((n + 1) * p).astype(np.int64)
    half = tail_halfwidth(n * p * (1 - p))
    lo = np.maximum(np.floor(n * p - half).astype(np.int64), 0)
    hi = np.minimum(np.ceil(n * p + half).astype(np.int64), n)
    nf = n.astype(np.float64)

    def ratio_up(i, x):
        return (nf[i, None] - x) / (x + 1.0) * p[i, None] / (1 - p[i, None])

    def ratio_down(i, x):
        return x / (nf[i, None] - x + 1.0) * (1 - p[i, None]) / p[i, None]

    def term(i, x):
        return x.astype(np.float64)

    at_mode = stats.binom.pmf(mode, n, p)
    got = mode_recurrence_sums(mode, hi - mode, mode - lo, at_mode, ratio_up, ratio_down, term)
    np.testing.assert_allclose(got, n * p, rtol=1e-13)
