"""Under the perm model our measures are scikit-learn's: check it on hundreds of random inputs.

Tolerances: RI and ARI are exact rationals in both libraries (one rounding),
so they agree to 1e-15. MI and NMI: both sum ~K_A*K_B floating terms, 1e-13
absolute. AMI: scikit-learn's EMI (Cython, lgamma-based) carries a relative
error that grows with N, about 1e-9 at N = 10^6 (measured against 50-digit
mpmath in tests/_expected/test_pmfs.py's neighbour test_expectations_reference.py);
at the N <= 5000 used here it stays below 1e-10, so AMI is compared at 1e-9
absolute. Degenerate ensembles (E[MI] = s_max, e.g. one side all singletons
under the min normalization) are excluded from the AMI comparison: there
scikit-learn divides rounding noise by its eps clamp and returns arbitrary
numbers (seen: -1.0, 0.75, 1.2), while we return the documented 1.0.
"""

import numpy as np
import pytest
from sklearn import metrics

import chanceclust as cc

AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")


def _random_pairs(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, 400))
        k_true = int(rng.integers(1, 15))
        k_pred = int(rng.integers(1, min(n, 60) + 1))
        # Zipf-like probabilities so that cluster sizes are unequal.
        p_true = 1.0 / np.arange(1, k_true + 1) ** rng.uniform(0, 2)
        p_pred = 1.0 / np.arange(1, k_pred + 1) ** rng.uniform(0, 2)
        yield (
            rng.choice(k_true, size=n, p=p_true / p_true.sum()),
            rng.choice(k_pred, size=n, p=p_pred / p_pred.sum()),
        )


CASES = list(_random_pairs(200, seed=20261125))


def _degenerate(labels_true, labels_pred, method):
    k_true, k_pred = len(set(labels_true)), len(set(labels_pred))
    n = len(labels_true)
    singletons = n in (k_true, k_pred) and min(k_true, k_pred) > 1
    return singletons and method in ("min", "geometric")


@pytest.mark.parametrize("index", range(len(CASES)))
def test_pair_measures_equal_sklearn(index):
    a, b = CASES[index]
    assert cc.rand_index(a, b) == pytest.approx(metrics.rand_score(a, b), rel=1e-15, abs=1e-15)
    assert cc.adjusted_rand_index(a, b) == pytest.approx(
        metrics.adjusted_rand_score(a, b), rel=1e-14, abs=1e-15
    )
    assert cc.fowlkes_mallows_index(a, b) == pytest.approx(
        metrics.fowlkes_mallows_score(a, b), rel=1e-14, abs=1e-15
    )


@pytest.mark.parametrize("index", range(len(CASES)))
def test_information_measures_equal_sklearn(index):
    a, b = CASES[index]
    assert cc.mutual_information(a, b) == pytest.approx(
        metrics.mutual_info_score(a, b), rel=1e-12, abs=1e-13
    )
    for method in AVERAGE_METHODS:
        assert cc.normalized_mutual_information(a, b, average_method=method) == pytest.approx(
            metrics.normalized_mutual_info_score(a, b, average_method=method), abs=1e-12
        )
        if _degenerate(a, b, method):
            continue
        assert cc.adjusted_mutual_information(a, b, average_method=method) == pytest.approx(
            metrics.adjusted_mutual_info_score(a, b, average_method=method), abs=1e-9
        )


@pytest.mark.parametrize("index", range(0, len(CASES), 10))
def test_expected_mi_equals_sklearn_emi(index):
    from sklearn.metrics.cluster import contingency_matrix
    from sklearn.metrics.cluster._expected_mutual_info_fast import (
        expected_mutual_information as sklearn_emi,
    )

    a, b = CASES[index]
    table = contingency_matrix(a, b)
    ours = cc.expected_mutual_information(a, b)
    assert ours == pytest.approx(sklearn_emi(table, len(a)), rel=1e-10, abs=1e-15)


def test_perm_matches_sklearn_at_larger_n():
    """N = 5000 with 100 clusters a side: scikit-learn's EMI is still good to ~1e-10 there."""
    rng = np.random.default_rng(7)
    a = rng.integers(0, 100, 5000)
    b = rng.integers(0, 100, 5000)
    assert cc.adjusted_mutual_information(a, b) == pytest.approx(
        metrics.adjusted_mutual_info_score(a, b), abs=1e-9
    )
    assert cc.adjusted_rand_index(a, b) == pytest.approx(
        metrics.adjusted_rand_score(a, b), rel=1e-13, abs=1e-15
    )


@pytest.mark.parametrize(
    ("labels_true", "labels_pred"),
    [([], []), ([0], [0]), ([0, 0], [0, 1]), ([0, 1], [0, 1]), ([0, 0, 0], [0, 1, 2])],
)
def test_small_input_conventions_equal_sklearn(labels_true, labels_pred):
    pairs = [
        (cc.rand_index, metrics.rand_score),
        (cc.adjusted_rand_index, metrics.adjusted_rand_score),
        (cc.normalized_mutual_information, metrics.normalized_mutual_info_score),
        (cc.adjusted_mutual_information, metrics.adjusted_mutual_info_score),
        (cc.fowlkes_mallows_index, metrics.fowlkes_mallows_score),
    ]
    for ours, theirs in pairs:
        assert ours(labels_true, labels_pred) == theirs(labels_true, labels_pred), ours.__name__
