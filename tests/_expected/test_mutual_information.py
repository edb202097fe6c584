"""Tests of chanceclust._expected.mutual_information (private: E[MI] of two laws).

Oracles: the defining sums, evaluated with mpmath at 40 digits (docs/math.md#math-collapsed-sums).
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest

from chanceclust._expected.laws import all_law, fixed_law, num_law
from chanceclust._expected.mutual_information import expected_mi_of_laws, slot_deviance


def _bd0(x, m):
    return m if x == 0 else x * mp.log(x / m) + m - x


def _slot_deviance_mp(a: int, u: int):
    """u E[bd0(X, a/u)], X ~ Binomial(a, 1/u), by the full sum."""
    p, mean = mp.mpf(1) / u, mp.mpf(a) / u
    return u * mp.fsum(mp.binomial(a, x) * p**x * (1 - p) ** (a - x) * _bd0(x, mean)
                       for x in range(a + 1))


def _hypergeometric_mi_mp(sizes_a, sizes_b, n):
    """E[MI] for fixed sizes: sum over cells of E[(X/N) log(N X / (a b))], X hypergeometric."""
    total = mp.mpf(0)
    for a in sizes_a:
        for b in sizes_b:
            for x in range(max(1, a + b - n), min(a, b) + 1):
                h = mp.binomial(b, x) * mp.binomial(n - b, a - x) / mp.binomial(n, a)
                total += h * mp.mpf(x) / n * mp.log(mp.mpf(n) * x / (a * b))
    return total


class TestSlotDeviance:
    @pytest.mark.parametrize(("a", "u"), [(1, 2), (5, 3), (40, 7), (200, 2), (300, 50), (90, 400)])
    def test_equals_the_binomial_sum(self, a, u):
        mp.mp.dps = 40
        got = slot_deviance(np.array([a]), np.array([u]))[0]
        assert got == pytest.approx(float(_slot_deviance_mp(a, u)), rel=1e-13)

    def test_one_label_or_no_element_is_zero(self):
        assert slot_deviance(np.array([10, 0]), np.array([1, 5])).tolist() == [0.0, 0.0]


class TestExpectedMiOfLaws:
    @pytest.mark.parametrize(
        ("sizes_a", "sizes_b"), [([3, 2], [4, 1]), ([5, 5, 2], [6, 3, 2, 1]), ([10], [4, 6])]
    )
    def test_fixed_sizes_equal_the_hypergeometric_sum(self, sizes_a, sizes_b):
        mp.mp.dps = 40
        n = sum(sizes_a)
        got = expected_mi_of_laws(fixed_law(np.array(sizes_a)), fixed_law(np.array(sizes_b)))
        assert got == pytest.approx(float(_hypergeometric_mi_mp(sizes_a, sizes_b, n)),
                                    rel=1e-13, abs=1e-16)

    def test_symmetric_in_its_laws(self):
        for a, b in [(fixed_law(np.array([5, 3, 2])), all_law(10)),
                     (num_law(10, 3), all_law(10)), (num_law(10, 4), fixed_law(np.array([7, 3])))]:
            assert expected_mi_of_laws(a, b) == pytest.approx(expected_mi_of_laws(b, a), rel=1e-14)

    def test_a_single_cluster_carries_no_information(self):
        assert expected_mi_of_laws(fixed_law(np.array([8])), all_law(8)) == pytest.approx(
            0.0, abs=1e-16)
        assert expected_mi_of_laws(fixed_law(np.array([1])), fixed_law(np.array([1]))) == 0.0
