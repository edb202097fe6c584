"""Truncated Taylor series arithmetic against closed-form series (exact rationals)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from chanceclust._expected.taylor import (
    series_exp,
    series_log,
    series_mul,
    series_power,
    series_reciprocal,
)

LENGTH = 10


def _geometric(ratio: Fraction) -> np.ndarray:
    """1 / (1 - ratio e): coefficients ratio^j."""
    return np.array([float(ratio**j) for j in range(LENGTH)])


def test_reciprocal_of_one_minus_e_is_geometric():
    a = np.zeros(LENGTH)
    a[0], a[1] = 1.0, -0.5
    np.testing.assert_allclose(series_reciprocal(a), _geometric(Fraction(1, 2)), rtol=1e-15)


def test_exp_and_log_of_known_series():
    shift = np.zeros(LENGTH)
    shift[1] = 1.0  # exp(e): 1/j!
    want = np.array([1.0 / math.factorial(j) for j in range(LENGTH)])
    np.testing.assert_allclose(series_exp(shift), want, rtol=1e-15)
    one_plus = np.zeros(LENGTH)
    one_plus[:2] = 1.0  # log(1 + e): (-1)^(j+1) / j
    want_log = np.array([0.0] + [(-1.0) ** (j + 1) / j for j in range(1, LENGTH)])
    np.testing.assert_allclose(series_log(one_plus), want_log, rtol=1e-15, atol=0.0)


@pytest.mark.parametrize("p", [-4.0, -0.5, 0.5, 3.0])
def test_power_is_binomial_series(p):
    """(2 + e)^p = 2^p sum_j C(p, j) (e/2)^j."""
    a = np.zeros(LENGTH)
    a[:2] = 2.0, 1.0
    coef, want = 1.0, []
    for j in range(LENGTH):
        want.append(2.0**p * coef / 2.0**j)
        coef *= (p - j) / (j + 1)
    np.testing.assert_allclose(series_power(a, p), want, rtol=1e-14, atol=1e-14)


def test_batched_product_matches_each_row():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(3, LENGTH)), rng.normal(size=(3, LENGTH))
    a[:, 0] = 2.0 + rng.random(3)  # well away from 0: the reciprocal's coefficients stay O(1)
    got = series_mul(a, b)
    for row in range(3):
        want = np.convolve(a[row], b[row])[:LENGTH]
        np.testing.assert_allclose(got[row], want, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(series_mul(series_reciprocal(a), a)[:, 0], 1.0, rtol=1e-15)
    np.testing.assert_allclose(series_mul(series_reciprocal(a), a)[:, 1:], 0.0, atol=1e-13)
