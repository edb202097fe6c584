"""Tests of chanceclust.adjusted: ARI and AMI as (s - E[s]) / (s_max - E[s]).

The expectations themselves are tested against enumeration and mpmath in
``test_expectations_reference.py``; here each adjusted value is checked against the
formula assembled from the public functions (docs/math.md#math-adjustment, #math-s-max),
and the degenerate-ensemble conventions (docs/math.md#math-degenerate) one by one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from chanceclust import (
    adjusted_mutual_information,
    adjusted_rand_index,
    entropy,
    expected_mutual_information,
    expected_rand_index,
    mutual_information,
    rand_index,
)

A6 = [0, 0, 0, 1, 1, 1]
B6 = [0, 0, 1, 1, 2, 2]
A = [0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 3]
B = [0, 1, 0, 1, 1, 2, 2, 2, 0, 3, 3, 1]
MODELS = ("perm", "num", "all")
MEANS = {
    "min": min,
    "max": max,
    "arithmetic": lambda u, v: (u + v) / 2,
    "geometric": lambda u, v: math.sqrt(u * v),
}


class TestAdjustedRandIndex:
    def test_perm_by_hand(self):
        """Hubert-Arabie: 2 (N11 N00 - N10 N01) / ((N11+N10)(N10+N00) + (N11+N01)(N01+N00))
        = 2 (16 - 4) / (6 * 12 + 3 * 9) = 24 / 99 = 8 / 33."""
        assert adjusted_rand_index(A6, B6) == 8 / 33

    @pytest.mark.parametrize("model", MODELS)
    @pytest.mark.parametrize("one_sided", [False, True])
    def test_equals_the_formula(self, model, one_sided):
        expected = expected_rand_index(A, B, model=model, one_sided=one_sided)
        formula = (rand_index(A, B) - expected) / (1 - expected)
        got = adjusted_rand_index(A, B, model=model, one_sided=one_sided)
        assert got == pytest.approx(formula, rel=1e-13)

    @pytest.mark.parametrize("model", MODELS)
    def test_identical_is_exactly_one(self, model):
        assert adjusted_rand_index(A, A, model=model) == 1.0

    def test_degenerate_ensemble_is_zero_unless_identical(self):
        """num with K = N on both sides holds one clustering: 1 - E[RI] = 0."""
        singletons = list(range(5))
        assert adjusted_rand_index(singletons, singletons, model="num") == 1.0
        assert adjusted_rand_index([0] * 5, singletons, model="num") == 0.0


class TestAdjustedMutualInformation:
    @staticmethod
    def _s_max(model, one_sided, method):
        """docs/math.md#math-s-max: each side's largest entropy in its ensemble."""
        n = len(A)
        if model == "perm":
            u, v = entropy(A), entropy(B)
        elif model == "num":
            u, v = math.log(len(set(A))), math.log(len(set(B)))
        else:
            u = v = math.log(n)
        if one_sided:
            u = entropy(A)
        return MEANS[method](u, v)

    @pytest.mark.parametrize("model", MODELS)
    @pytest.mark.parametrize("one_sided", [False, True])
    @pytest.mark.parametrize("method", sorted(MEANS))
    def test_equals_the_formula(self, model, one_sided, method):
        expected = expected_mutual_information(A, B, model=model, one_sided=one_sided)
        bound = self._s_max(model, one_sided, method)
        formula = (mutual_information(A, B) - expected) / (bound - expected)
        got = adjusted_mutual_information(
            A, B, model=model, one_sided=one_sided, average_method=method
        )
        assert got == pytest.approx(formula, rel=1e-12)

    def test_identical_reaches_one_only_where_s_max_is_reached(self):
        """perm: s_max = H; num: log K, reached by equal sizes only; all: log N, by singletons."""
        assert adjusted_mutual_information(A, A) == 1.0
        assert adjusted_mutual_information(A, A, model="num") < 1.0  # sizes 3, 3, 2, 4
        assert adjusted_mutual_information(B6, B6, model="num") == 1.0  # sizes 2, 2, 2
        assert adjusted_mutual_information(A, A, model="all") < 1.0

    @pytest.mark.parametrize(
        ("labels_true", "labels_pred", "expected"),
        [
            ([0, 0, 0], [1, 1, 1], 1.0),  # both single clusters: a perfect match
            ([], [], 1.0),  # N = 0
            ([0, 0, 0, 0], [0, 1, 2, 3], 0.0),  # one single cluster: no agreement
        ],
    )
    def test_degenerate_conventions_of_scikit_learn(self, labels_true, labels_pred, expected):
        assert adjusted_mutual_information(labels_true, labels_pred) == expected

    def test_all_single_clusters_are_below_chance(self):
        """Not degenerate under all: MI = 0 < E[MI], so the formula's negative value."""
        assert adjusted_mutual_information([0, 0, 0, 0], [1, 1, 1, 1], model="all") < 0.0

    def test_returns_python_float(self):
        assert type(adjusted_mutual_information(np.array(A), np.array(B))) is float
