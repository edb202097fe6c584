"""Exactness of the samplers: seeded chi-square tests over enumerated ensembles (n <= 7)."""

from __future__ import annotations

from collections import Counter
from math import comb

import numpy as np
import pytest
from reference._exact import set_partitions
from scipy import stats

from chanceclust.samplers import random_clustering, random_clusterings

# Seeded tests: a p-value below this would flag a biased sampler (a fixed seed
# makes the outcome deterministic; a correct sampler passes with margin).
ALPHA = 1e-4


def canonical(labels):
    """Relabel by first appearance: one string per partition."""
    seen = {}
    return tuple(seen.setdefault(v, len(seen)) for v in np.asarray(labels).tolist())


def stirling2(n, k):
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for i in range(1, n + 1):
        for j in range(1, k + 1):
            table[i][j] = j * table[i - 1][j] + table[i - 1][j - 1]
    return table[n][k]


def ensemble(n, model, k=None, sizes=None):
    parts = list(set_partitions(n))
    if model == "num":
        return [p for p in parts if max(p) + 1 == k]
    if model == "perm":
        return [p for p in parts if sorted(Counter(p).values()) == sorted(sizes)]
    return parts


CASES = [
    ("perm", 6, None, (3, 2, 1)),
    ("perm", 6, None, (2, 2, 1, 1)),
    ("perm", 5, None, (1, 1, 1, 1, 1)),
    ("num", 6, 3, None),
    ("num", 6, 2, None),
    ("num", 6, 5, None),  # K = n - 1
    ("num", 7, 4, None),
    ("num", 5, 1, None),  # K = 1
    ("num", 5, 5, None),  # K = n
    ("all", 5, None, None),
    ("all", 6, None, None),
]


@pytest.mark.parametrize(("model", "n", "k", "sizes"), CASES)
def test_uniform_over_the_enumerated_ensemble(model, n, k, sizes):
    """Every clustering of the ensemble is drawn equally often (chi-square)."""
    members = ensemble(n, model, k, sizes)
    if model == "num":
        assert len(members) == stirling2(n, k)
    draws = max(30 * len(members), 200)
    samples = random_clusterings(draws, n, model=model, n_clusters=k, sizes=sizes, rng=1234)
    counts = Counter(canonical(row) for row in samples)
    assert set(counts) <= set(members)  # nothing outside the ensemble
    if len(members) == 1:
        assert counts[members[0]] == draws
        return
    observed = np.array([counts[p] for p in members])
    assert stats.chisquare(observed).pvalue > ALPHA


def test_number_of_clusters_under_all_follows_stirling_over_bell():
    """P(K = k) = S(n, k) / B_n for a uniform clustering of n = 9 elements."""
    n, draws = 9, 20000
    samples = random_clusterings(draws, n, model="all", rng=7)
    ks = samples.max(axis=1) + 1
    expected = np.array([stirling2(n, k) for k in range(1, n + 1)], dtype=float)
    expected *= draws / expected.sum()
    observed = np.bincount(ks, minlength=n + 1)[1:]
    keep = expected >= 5  # chi-square needs cells with enough mass: pool the tails
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert stats.chisquare(obs, exp).pvalue > ALPHA


def test_num_size_law_at_moderate_n():
    """Size of the cluster of element 0 under num: P(a) = C(n-1, a-1) S(n-a, K-1) / S(n, K)."""
    n, k, draws = 14, 5, 20000
    samples = random_clusterings(draws, n, model="num", n_clusters=k, rng=3)
    size0 = (samples == samples[:, :1]).sum(axis=1)
    total = stirling2(n, k)
    probs = np.array(
        [comb(n - 1, a - 1) * stirling2(n - a, k - 1) / total for a in range(1, n - k + 2)]
    )
    observed = np.bincount(size0, minlength=n - k + 2)[1:]
    expected = probs * draws
    keep = expected >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert stats.chisquare(obs, exp).pvalue > ALPHA


def test_perm_keeps_the_sizes():
    rng = np.random.default_rng(0)
    sizes = rng.integers(1, 50, size=30)
    draws = random_clusterings(20, int(sizes.sum()), model="perm", sizes=sizes, rng=rng)
    for row in draws:
        assert np.array_equal(np.bincount(row, minlength=len(sizes)), sizes)


@pytest.mark.parametrize("n", [1, 2, 3, 10, 257])
def test_num_edge_cases(n):
    """K = 1, K = n and K = n - 1 give exactly K clusters (one pair together for n - 1)."""
    for k in sorted({1, n, max(1, n - 1)}):
        labels = random_clustering(n, model="num", n_clusters=k, rng=n)
        assert labels.shape == (n,)
        assert labels.dtype == np.int64
        assert sorted(set(labels.tolist())) == list(range(k))
        if k == n - 1 and n > 1:
            assert sorted(np.bincount(labels).tolist()) == [1] * (n - 2) + [2]


def test_large_n_smoke():
    """One draw at n = 10^6 (num with K = 1000, K = n/2; all) has the right shape and K."""
    n = 10**6
    for k in (1000, n // 2):
        labels = random_clustering(n, model="num", n_clusters=k, rng=0)
        assert labels.shape == (n,)
        assert np.bincount(labels).min() >= 1
        assert labels.max() + 1 == k
    labels = random_clustering(n, model="all", rng=0)
    k = labels.max() + 1
    assert np.bincount(labels).min() >= 1
    typical = n / (np.log(n) - np.log(np.log(n)))  # E[K] ~ N / (log N - log log N)
    assert 0.9 * typical < k < 1.1 * typical


def test_reproducible_and_row_sequential():
    """The same seed gives the same draws; m draws equal m single draws from one stream."""
    for kwargs in ({"model": "all"}, {"model": "num", "n_clusters": 4},
                   {"model": "perm", "sizes": [5, 3, 2]}):
        batch = random_clusterings(5, 10, rng=42, **kwargs)
        assert np.array_equal(batch, random_clusterings(5, 10, rng=42, **kwargs))
        gen = np.random.default_rng(42)
        singles = np.stack([random_clustering(10, rng=gen, **kwargs) for _ in range(5)])
        assert np.array_equal(batch, singles)
    assert random_clusterings(0, 4, model="all").shape == (0, 4)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"model": "nums"}, "`model` must be one of"),
        ({"model": "perm"}, "`sizes` is required"),
        ({"model": "perm", "sizes": [2, 2]}, "must sum to n=5"),
        ({"model": "num"}, "`n_clusters` is required"),
        ({"model": "num", "n_clusters": 6}, "between 1 and n=5"),
        ({"model": "num", "n_clusters": 0}, "`n_clusters` must be an integer >= 1"),
        ({"model": "all", "n_clusters": 2}, "only used with model='num'"),
        ({"model": "all", "rng": "seed"}, "`rng` must be"),
    ],
)
def test_errors_name_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        random_clustering(5, **kwargs)
