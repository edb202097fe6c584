"""chanceclust.sklearn is scikit-learn's sklearn.metrics.cluster, computed by chanceclust.

Every function has scikit-learn's signature (names, kinds, defaults) and gives its value on
random labelings and on scikit-learn's edge cases (empty input, N = 1, one cluster,
singletons, identical and permuted labelings, its own documented examples). Tolerances: the
pair measures are exact rationals in both libraries (1e-14); the information measures sum
K_A K_B floating terms in another order (1e-12 relative, 1e-13 absolute); AMI carries
scikit-learn's own EMI error (lgamma-based, below 1e-10 at these N: see
tests/test_sklearn_agreement.py), so 1e-9 absolute.
"""

from __future__ import annotations

import inspect
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import cluster as skc

import chanceclust as cc
from chanceclust import sklearn as ours

NAMES = sorted(ours.__all__)
SCORES = [
    "adjusted_mutual_info_score", "adjusted_rand_score", "completeness_score",
    "fowlkes_mallows_score", "homogeneity_score", "mutual_info_score",
    "normalized_mutual_info_score", "rand_score", "v_measure_score",
]  # fmt: skip


def _theirs(name):
    return getattr(skc, name)


@pytest.mark.parametrize("name", NAMES)
def test_signature_is_sklearns(name):
    def shape(func):
        # scikit-learn's deprecated parameters (default "deprecated", e.g. 1.7's
        # fowlkes_mallows_score(sparse=)) are left out: the port follows the newest API
        return [(p.name, p.kind, p.default) for p in inspect.signature(func).parameters.values()
                if not (isinstance(p.default, str) and p.default == "deprecated")]

    assert shape(getattr(ours, name)) == shape(_theirs(name))


def test_every_supervised_function_of_sklearn_is_here():
    unsupervised = {"calinski_harabasz_score", "davies_bouldin_score", "silhouette_samples",
                    "silhouette_score", "consensus_score"}  # fmt: skip
    assert set(skc.__all__) - unsupervised == set(ours.__all__)


def _random_pairs(count, seed):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, 500))
        k_true, k_pred = int(rng.integers(1, 12)), int(rng.integers(1, min(n, 40) + 1))
        p_true = 1.0 / np.arange(1, k_true + 1) ** rng.uniform(0, 2)
        p_pred = 1.0 / np.arange(1, k_pred + 1) ** rng.uniform(0, 2)
        yield (rng.choice(k_true, size=n, p=p_true / p_true.sum()),
               rng.choice(k_pred, size=n, p=p_pred / p_pred.sum()))  # fmt: skip


RANDOM = list(_random_pairs(60, seed=20261128))

EDGE = {
    "empty": ([], []),
    "one": ([3], [7]),
    "two-same": ([0, 0], [1, 1]),
    "two-apart": ([0, 1], [0, 1]),
    "two-crossed": ([0, 0], [0, 1]),
    "one-cluster-each": ([0] * 5, [1] * 5),
    "one-cluster-vs-singletons": ([0] * 5, [0, 1, 2, 3, 4]),
    "singletons-vs-one-cluster": ([0, 1, 2, 3, 4], [0] * 5),
    "singletons-both": ([0, 1, 2, 3, 4], [4, 3, 2, 1, 0]),
    "identical": ([0, 0, 1, 1, 2], [5, 5, 3, 3, 9]),
    "homogeneous-not-complete": ([0, 0, 0, 1, 1, 1], [0, 0, 1, 2, 2, 2]),
    "complete-not-homogeneous": ([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 1]),
    "sklearn-doc": ([0, 0, 1, 2], [0, 0, 1, 1]),
    "strings": (["a", "a", "b", "c"], ["x", "y", "y", "y"]),
}


def _close(name, got, want):
    if name == "adjusted_mutual_info_score":
        return got == pytest.approx(want, rel=0, abs=1e-9)
    if name in ("adjusted_rand_score", "rand_score", "fowlkes_mallows_score"):
        return got == pytest.approx(want, rel=1e-14, abs=1e-15)
    return got == pytest.approx(want, rel=1e-12, abs=1e-13)


@pytest.mark.parametrize("name", SCORES)
@pytest.mark.parametrize("index", range(len(RANDOM)))
def test_scores_equal_sklearn_on_random_labels(name, index):
    a, b = RANDOM[index]
    got, want = getattr(ours, name)(a, b), _theirs(name)(a, b)
    assert type(got) is float
    assert _close(name, got, want), (got, want)


@pytest.mark.parametrize("name", SCORES)
@pytest.mark.parametrize("case", list(EDGE))
def test_scores_equal_sklearn_on_edge_cases(name, case):
    a, b = EDGE[case]
    got = getattr(ours, name)(a, b)
    if name == "mutual_info_score" and case == "empty":
        # scikit-learn fails here (log(0): "math domain error"); an empty sum is 0.
        with pytest.raises(ValueError, match="math domain"):
            _theirs(name)(a, b)
        assert got == 0.0
        return
    want = _theirs(name)(a, b)
    assert _close(name, got, want), (got, want)


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("index", range(0, len(RANDOM), 6))
def test_beta_equals_sklearn(beta, index):
    a, b = RANDOM[index]
    got = ours.homogeneity_completeness_v_measure(a, b, beta=beta)
    want = skc.homogeneity_completeness_v_measure(a, b, beta=beta)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-13)
    assert ours.v_measure_score(a, b, beta=beta) == pytest.approx(
        skc.v_measure_score(a, b, beta=beta), rel=1e-12, abs=1e-13
    )


@pytest.mark.parametrize("case", list(EDGE))
def test_tuple_pair_matrix_entropy_equal_sklearn_on_edge_cases(case):
    a, b = EDGE[case]
    assert ours.homogeneity_completeness_v_measure(a, b) == pytest.approx(
        skc.homogeneity_completeness_v_measure(a, b), rel=1e-12, abs=1e-13
    )
    got = ours.pair_confusion_matrix(a, b)
    np.testing.assert_array_equal(got, skc.pair_confusion_matrix(a, b))
    assert got.dtype == np.int64
    # scikit-learn's entropy: the private _entropy from 1.8 (the public one is deprecated)
    theirs = getattr(skc._supervised, "_entropy", None) or skc.entropy
    assert ours.entropy(a) == pytest.approx(theirs(a), rel=1e-12, abs=1e-13)


@pytest.mark.parametrize("index", range(0, len(RANDOM), 5))
def test_contingency_matrix_equals_sklearn(index):
    a, b = RANDOM[index]
    np.testing.assert_array_equal(ours.contingency_matrix(a, b), skc.contingency_matrix(a, b))
    got = ours.contingency_matrix(a, b, sparse=True)
    assert sp.issparse(got)
    np.testing.assert_array_equal(got.toarray(), skc.contingency_matrix(a, b, sparse=True).toarray())
    got = ours.contingency_matrix(a, b, eps=0.5)
    np.testing.assert_array_equal(got, skc.contingency_matrix(a, b, eps=0.5))
    got = ours.contingency_matrix(a, b, dtype=np.float32)
    assert got.dtype == np.float32
    with pytest.raises(ValueError, match="eps"):
        ours.contingency_matrix(a, b, eps=0.1, sparse=True)


@pytest.mark.parametrize("index", range(0, len(RANDOM), 5))
def test_mutual_info_and_emi_of_a_contingency_equal_sklearn(index):
    a, b = RANDOM[index]
    table = skc.contingency_matrix(a, b)
    assert ours.mutual_info_score(None, None, contingency=table) == pytest.approx(
        skc.mutual_info_score(None, None, contingency=table), rel=1e-12, abs=1e-13
    )
    assert ours.expected_mutual_information(table, len(a)) == pytest.approx(
        skc.expected_mutual_information(table, len(a)), rel=1e-10, abs=1e-13
    )
    with pytest.raises(cc.InvalidInputError, match="n_samples"):
        ours.expected_mutual_information(table, len(a) + 1)


def test_large_counts_do_not_overflow():
    # scikit-learn's test_int_overflow_mutual_info_fowlkes_mallows_score, in spirit.
    x = np.array([1] * 52632 + [2] * 2529 + [3] * 14660 + [4] * 16 + [5] * 8 + [6] * 2)
    y = np.array([0] * 52633 + [1] * 2528 + [2] * 14664 + [3] * 20 + [4] * 2)
    for name in SCORES:
        got, want = getattr(ours, name)(x, y), _theirs(name)(x, y)
        assert np.isfinite(got)
        assert _close(name, got, want), (name, got, want)


def test_errors_are_value_errors_naming_the_argument():
    with pytest.raises(ValueError, match="labels_pred|length"):
        ours.adjusted_rand_score([0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match="beta"):
        ours.v_measure_score([0, 1], [0, 1], beta=-1)


def test_does_not_import_sklearn():
    code = ("import sys, chanceclust.sklearn as m; m.adjusted_mutual_info_score([0, 1], [0, 1]);"
            "sys.exit(1 if any(k == 'sklearn' or k.startswith('sklearn.') for k in sys.modules)"
            " else 0)")  # fmt: skip
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_ports_read_chanceclust_inputs():
    # Beyond scikit-learn: mappings and community lists (chanceclust's readers).
    communities = [{"a", "b"}, {"c"}]
    assert ours.adjusted_rand_score(communities, {"a": 1, "b": 1, "c": 2}) == 1.0
