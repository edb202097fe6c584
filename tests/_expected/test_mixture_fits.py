"""Tests of chanceclust._expected.mixture_fits (private: sums over a mixture by fits in log u).

The fitted sums must equal the term-by-term sums they replace (docs/math.md#math-fits).
"""

from __future__ import annotations

import numpy as np
import pytest

from chanceclust._expected.laws import stam_mixture
from chanceclust._expected.mixture_fits import fitted_joint_sum, fitted_mixture_sums
from chanceclust._expected.mutual_information import slot_deviance


def _direct(sizes, mixture):
    a, u = np.meshgrid(sizes, mixture.slots, indexing="ij")
    return slot_deviance(a.ravel(), u.ravel()).reshape(a.shape) @ mixture.coefs


@pytest.mark.parametrize("n", [20_000, 200_000])
def test_fitted_mixture_sums_equal_the_direct_sums(n):
    mixture = stam_mixture(n)
    sizes = np.array([1, 2, 7, 100, 5000, n])
    fitted = fitted_mixture_sums(sizes, mixture, slot_deviance)
    assert fitted is not None  # the route is taken for these mixtures
    np.testing.assert_allclose(fitted, _direct(sizes, mixture), rtol=1e-12, atol=1e-14)


def test_fitted_joint_sum_equals_the_direct_sum():
    n = 20_000
    a = b = stam_mixture(n)
    fitted = fitted_joint_sum(n, a, b, slot_deviance)
    assert fitted is not None
    weights = np.outer(a.coefs, b.coefs).ravel()
    ua, ub = np.meshgrid(a.slots, b.slots, indexing="ij")
    products = (ua * ub).ravel()
    direct = weights @ slot_deviance(np.full(products.size, n), products)
    assert fitted == pytest.approx(direct, rel=1e-12)


def test_too_few_slots_decline_the_fit():
    mixture = stam_mixture(30)  # a handful of slots: the fit is not applicable
    assert fitted_mixture_sums(np.array([3, 30]), mixture, slot_deviance) is None
