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


def test_too_few_joint_slots_decline_the_fit():
    from chanceclust._expected.laws import SlotMixture

    slots = np.arange(1, 11)  # slot products 1 .. 100: fewer integers than the fit needs
    mixture = SlotMixture(100, slots, np.full(10, 0.1))
    assert fitted_joint_sum(100, mixture, mixture, slot_deviance) is None


@pytest.fixture
def failing_check(monkeypatch):
    """Every fit fails its residual check at the nodes (the other side of that switch)."""
    from chanceclust._expected import mixture_fits

    monkeypatch.setattr(mixture_fits, "_RESIDUAL", -1.0)


def test_a_fit_that_misses_its_nodes_is_declined(failing_check):
    mixture = stam_mixture(20_000)
    assert fitted_mixture_sums(np.array([1, 7, 5000]), mixture, slot_deviance) is None
    assert fitted_joint_sum(20_000, mixture, mixture, slot_deviance) is None


def test_a_declined_fit_falls_back_to_the_exact_sums(failing_check):
    """mixture_sums and the E[MI] of two mixtures take the term-by-term sums instead; the
    exact slots (Stam's law over the integers) have no other route to fail over to only
    where they are real (the quadrature), which is an internal error, not a wrong value."""
    from chanceclust._expected import mutual_information as mi
    from chanceclust._expected.laws import StamQuadrature
    from chanceclust.exceptions import InternalError

    n = 20_000
    mixture = stam_mixture(n)
    sizes = np.array([1, 2, 7, 100, 5000, n])
    assert len(mixture.slots) > 2 * mi.FIT_NODES  # the fit would be tried
    np.testing.assert_array_equal(mi.mixture_sums(sizes, mixture), _direct(sizes, mixture))
    weights = np.outer(mixture.coefs, mixture.coefs).ravel()
    ua, ub = np.meshgrid(mixture.slots, mixture.slots, indexing="ij")
    joint = weights @ slot_deviance(np.full(ua.size, n), (ua * ub).ravel())
    side = _direct(np.array([n]), mixture)[0]
    assert mi._mixture_mixture(mixture, mixture) == pytest.approx((joint - 2 * side) / n, rel=1e-12)
    quadrature = StamQuadrature(
        n, mixture.slots.astype(np.float64), mixture.coefs, float(mixture.slots[0]),
        (mixture.slots - mixture.slots[0]).astype(np.float64),
    )
    with pytest.raises(InternalError, match="fit of the slot deviances"):
        mi.mixture_sums(sizes, quadrature)
