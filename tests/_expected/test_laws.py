"""Tests of chanceclust._expected.laws (private: the random models as laws of cluster sizes).

Each law is checked against exact Stirling and Bell numbers (``chanceclust.special``'s
integers, themselves checked against the recurrences in ``test_special.py``);
docs/math.md#math-laws derives them.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from reference._exact import stirling2 as exact_stirling2

from chanceclust._expected import laws
from chanceclust._expected.laws import (
    SizeLaw,
    SlotMixture,
    all_law,
    exact_pair_probability,
    falling_moment,
    fixed_law,
    inverse_moments,
    num_law,
    pair_probabilities,
)
from chanceclust.special import bell, stirling2


def _ratio(numerator: int, denominator: int) -> float:
    return float(Fraction(numerator, denominator))


class TestFixedLaw:
    def test_counts_of_each_size(self):
        got = fixed_law(np.array([3, 1, 3, 2, 1, 1]))
        assert got.n == 11
        assert got.sizes.tolist() == [1, 2, 3]
        assert got.weights.tolist() == [3.0, 1.0, 2.0]
        assert got.exact

    def test_many_sizes_take_the_bincount_route(self):
        sizes = np.random.default_rng(0).integers(1, 5, 5000)
        got = fixed_law(sizes, total=int(sizes.sum()))
        values, counts = np.unique(sizes, return_counts=True)
        assert got.sizes.tolist() == values.tolist()
        assert got.weights.tolist() == counts.tolist()

    def test_arrays_are_read_only(self):
        got = fixed_law(np.array([2, 2]))
        with pytest.raises(ValueError, match="read-only"):
            got.weights[0] = 5.0


class TestAllLaw:
    @pytest.mark.parametrize("n", [2, 5, 30, 200])
    def test_stam_mixture_is_a_law_with_bell_ratios(self, n):
        mixture = all_law(n)
        assert isinstance(mixture, SlotMixture)
        assert mixture.coefs.sum() == pytest.approx(1.0, rel=1e-15)
        for m in range(2, min(4, n) + 1):
            exact = _ratio(bell(n - m + 1), bell(n))
            assert falling_moment(mixture, m) == pytest.approx(exact, rel=1e-14)

    def test_one_and_zero_elements_are_fixed(self):
        assert all_law(1).exact
        assert all_law(0).n == 0


class TestNumLaw:
    @pytest.mark.parametrize(
        ("n", "k"),
        [(10, 2), (50, 3), (200, 10), (60, 30), (100, 90), (400, 399)],
    )
    def test_p_same_is_a_ratio_of_stirling_numbers(self, n, k):
        got = num_law(n, k)
        for m in (2, 3, 4):
            exact = _ratio(stirling2(n - m + 1, k), stirling2(n, k))
            assert falling_moment(got, m) == pytest.approx(exact, rel=1e-13)

    def test_small_clusters_give_the_exact_size_law(self):
        """w(a) = C(n, a) S(n - a, k - 1) / S(n, k) (the conditioned Poisson route)."""
        n, k = 60, 30
        got = num_law(n, k)
        assert isinstance(got, SizeLaw)
        assert not got.exact
        for a, w in zip(got.sizes.tolist(), got.weights.tolist(), strict=True):
            exact = _ratio(k * math.comb(n, a) * stirling2(n - a, k - 1), k * stirling2(n, k))
            assert w == pytest.approx(exact, rel=1e-12, abs=1e-25)
        assert got.weights.sum() == pytest.approx(k, rel=1e-13)

    def test_large_clusters_give_the_inclusion_exclusion_mixture(self):
        got = num_law(1000, 5)
        assert isinstance(got, SlotMixture)
        assert got.slots.max() == 5
        assert got.coefs.sum() == pytest.approx(1.0, rel=1e-14)

    @pytest.mark.parametrize(("n", "k"), [(7, 1), (7, 7)])
    def test_one_clustering_is_a_fixed_law(self, n, k):
        assert num_law(n, k).exact



def test_falling_moment_conventions():
    assert falling_moment(all_law(5), 1) == 1.0
    assert falling_moment(fixed_law(np.array([2])), 3) == 0.0  # fewer elements than m
    assert falling_moment(fixed_law(np.array([2, 2])), 2) == 1 / 3


@pytest.mark.parametrize(
    ("make", "exact"),
    [
        (lambda: fixed_law(np.array([3, 1, 3, 2, 1, 1])), Fraction(3 + 1 + 3, 55)),
        (lambda: num_law(12, 3), Fraction(stirling2(11, 3), stirling2(12, 3))),  # mixture
        (lambda: num_law(300, 200), Fraction(stirling2(299, 200), stirling2(300, 200))),  # size law
        (lambda: num_law(9, 8), Fraction(1, 36)),  # one pair and 7 singletons
        (lambda: all_law(40), Fraction(bell(39), bell(40))),  # Stam's mixture
    ],
    ids=["fixed", "num-mixture", "num-size-law", "num-near-n", "all"],
)
def test_pair_probabilities_is_the_one_p_x(make, exact):
    """p and 1 - p against exact fractions; every engine route to p_X returns the same p."""
    got = make()
    p, q = pair_probabilities(got)
    assert p == pytest.approx(float(exact), rel=1e-14, abs=0.0)
    assert q == pytest.approx(float(1 - exact), rel=1e-14, abs=0.0)
    assert falling_moment(got, 2) == p
    k = round(float(got.weights.sum())) if isinstance(got, SizeLaw) else None  # small K
    assert inverse_moments(got, k)[0] == p
    if isinstance(got, SizeLaw):
        assert float(exact_pair_probability(got)) == p


class TestSwitches:
    """Each route switch of the num law, evaluated on both sides against exact integers."""

    @pytest.mark.parametrize(("k", "below", "above"), [(5, 12, 13), (20, 79, 80), (100, 563, 564)])
    def test_mixture_acceptance_at_condition_two(self, k, below, above):
        """The inclusion-exclusion mixture is taken iff sum |c| <= 2 T (``_MAX_CONDITION``).

        At n = ``below`` the condition sum_j C(k,j) (1 - j/k)^n / T(n, k) is just above 2
        (computed here in exact rationals), so the size law is used; at ``above`` just
        below 2, so the mixture. Both sides give S(n-m+1, k) / S(n, k) for m = 2, 3, 4.
        """
        for n, accepted in ((below, False), (above, True)):
            terms = [Fraction(math.comb(k, j) * (k - j) ** n, k**n) for j in range(k)]
            surjective = sum(t if j % 2 == 0 else -t for j, t in enumerate(terms))
            assert (sum(terms) <= 2 * surjective) == accepted
            got = num_law(n, k)
            assert isinstance(got, SlotMixture if accepted else SizeLaw)
            for m in (2, 3, 4):
                exact = _ratio(exact_stirling2(n - m + 1, k), exact_stirling2(n, k))
                assert falling_moment(got, m) == pytest.approx(exact, rel=1e-13, abs=0.0)

    @pytest.mark.parametrize(("first", "second", "fft"), [(2048, 2048, False), (2048, 2049, True)])
    def test_direct_and_fft_convolution_at_two_to_the_22(self, first, second, fft, monkeypatch):
        """``_convolve_trimmed`` sums directly up to len * len = 2^22, by FFT beyond.

        Integer-valued inputs, so the exact convolution is an int64 convolution. The direct
        route is accurate entry by entry (sums of non-negative terms); the FFT route to
        ~1e-16 of the maximum.
        """
        rng = np.random.default_rng(7)
        a = rng.integers(1, 1000, first)
        b = rng.integers(1, 1000, second)
        calls = []
        rfft = np.fft.rfft
        monkeypatch.setattr(np.fft, "rfft", lambda *args: calls.append(1) or rfft(*args))
        count, offset, values = laws._convolve_trimmed(
            (1, 0, a.astype(np.float64)), (1, 0, b.astype(np.float64)), 10**6, 1, 1e6
        )
        assert bool(calls) == fft
        assert (count, offset) == (2, 0)
        exact = np.convolve(a, b)  # int64: exact
        want = exact / exact.max()
        if fft:
            np.testing.assert_allclose(values, want, rtol=0.0, atol=1e-14)
        else:
            np.testing.assert_allclose(values, want, rtol=1e-15, atol=0.0)


def test_inverse_moments_of_a_num_size_law_need_its_k():
    """A num size law (not a fixed sequence) has no K of its own: its side passes it, and
    K = 1, N - 1, N (fixed sequences) never come here; anything else is a bug, said so."""
    from chanceclust.exceptions import InternalError

    law_ = num_law(300, 200)
    assert isinstance(law_, SizeLaw)
    assert not law_.exact
    p1, _, var = inverse_moments(law_, 200)
    exact_p1 = Fraction(stirling2(299, 200), stirling2(300, 200))
    exact_p2 = Fraction(stirling2(298, 200), stirling2(300, 200))
    assert p1 == pytest.approx(float(exact_p1), rel=1e-12)
    assert var == pytest.approx(float(exact_p2 - exact_p1**2), rel=1e-9)
    for k in (None, 1, 299):
        with pytest.raises(InternalError, match="need its K"):
            inverse_moments(law_, k)
