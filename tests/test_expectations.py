"""Tests of chanceclust.expectations that are not reference comparisons.

The expected Rand index and mutual information against enumeration and mpmath are in
``test_expectations_reference.py``, ``test_expectations_exact_sums_reference.py`` and
``test_all_model_fits_reference.py``; here: ``same_cluster_probability``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from chanceclust import bell, same_cluster_probability, stirling2


class TestSameClusterProbability:
    @pytest.mark.parametrize(("n", "m"), [(1, 1), (4, 2), (7, 2), (7, 3), (7, 4), (30, 3)])
    def test_all_is_a_ratio_of_bell_numbers(self, n, m):
        exact = Fraction(bell(n - m + 1), bell(n))
        assert same_cluster_probability(n, model="all", group_size=m) == pytest.approx(
            float(exact), rel=1e-14
        )

    @pytest.mark.parametrize(
        ("n", "k", "m"), [(5, 2, 2), (7, 3, 2), (7, 3, 3), (7, 3, 4), (12, 11, 2), (40, 4, 3)]
    )
    def test_num_is_a_ratio_of_stirling_numbers(self, n, k, m):
        exact = Fraction(stirling2(n - m + 1, k), stirling2(n, k))
        got = same_cluster_probability(n, model="num", n_clusters=k, group_size=m)
        assert got == pytest.approx(float(exact), rel=1e-14)

    @pytest.mark.parametrize("sizes", [[2, 2], [3, 1, 1], [4, 2, 1]])
    def test_perm_by_enumeration(self, sizes):
        """The fraction of m-subsets of elements that fall in one block of the sizes."""
        n = sum(sizes)
        labels = [i for i, s in enumerate(sizes) for _ in range(s)]
        for m in (2, 3):
            subsets = list(itertools.combinations(range(n), m))
            same = sum(len({labels[i] for i in c}) == 1 for c in subsets)
            got = same_cluster_probability(n, model="perm", sizes=sizes, group_size=m)
            assert got == float(Fraction(same, len(subsets)))

    def test_group_size_one_is_certain(self):
        assert same_cluster_probability(6, model="num", n_clusters=3, group_size=1) == 1.0

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"n": 4, "model": "perm"}, "`sizes` is required for model='perm'"),
            ({"n": 4, "model": "perm", "sizes": [2, 1]}, "`sizes` must sum to n=4"),
            ({"n": 4, "model": "num"}, "`n_clusters` is required for model='num'"),
            ({"n": 4, "model": "num", "n_clusters": 5}, "between 1 and n=4"),
            ({"n": 4, "model": "all", "n_clusters": 2}, "only used with model='num'"),
            ({"n": 4, "model": "all", "group_size": 0}, "`group_size` must be an integer >= 1"),
            ({"n": 4, "model": "any"}, "`model` must be one of"),
        ],
    )
    def test_input_validation(self, kwargs, message):
        with pytest.raises(ValueError, match=message):
            same_cluster_probability(**kwargs)
