"""Edge cases of the expectation routes at large N, against closed forms derived here.

A clustering with one cluster of size N - 1 and one singleton, A = [N-1, 1],
against any random clustering B whose law is exchangeable (perm, or num/all
one-sided with A as the reference): the singleton falls in the cluster of a
uniformly chosen element, of size b with probability b w_B(b) / N, and then
H(A, B) - H(B) = g(b) = (b/N) log(b/N) - ((b-1)/N) log((b-1)/N) - (1/N) log(1/N),
so E[MI] = H(A) - sum_b (b w_B(b) / N) g(b). Evaluated with mpmath at 50 digits
for perm at N up to 10^7 (the smallest E[MI] the library meets, ~1e-13 nats,
where any cancellation would show). rtol = 1e-12, the library's stated accuracy.
"""

import mpmath as mp
import numpy as np
import pytest

import chanceclust as cc

mp.mp.dps = 50


def _zipf_sizes(n, k, seed):
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, k + 1)
    sizes = np.bincount(rng.choice(k, size=n, p=p / p.sum()), minlength=k)
    return sizes[sizes > 0]


def _expected_mi_singleton(n, sizes_pred):
    big, one, total = mp.mpf(n - 1), mp.mpf(1), mp.mpf(n)
    h_a = -(big / total) * mp.log(big / total) - (one / total) * mp.log(one / total)

    def g(b):
        b = mp.mpf(int(b))
        rest = (b - 1) / total * mp.log((b - 1) / total) if b > 1 else mp.mpf(0)
        return b / total * mp.log(b / total) - rest - one / total * mp.log(one / total)

    values, counts = np.unique(sizes_pred, return_counts=True)
    return h_a - mp.fsum(int(c) * int(b) / total * g(b) for b, c in zip(values, counts))


@pytest.mark.parametrize("n", [10, 1000, 10**5, 10**7])
@pytest.mark.parametrize("k", [2, 50, 1000])
def test_one_cluster_of_size_n_minus_one_perm(n, k):
    if k >= n:
        pytest.skip("needs fewer clusters than elements")
    sizes = _zipf_sizes(n, k, seed=n + k)
    got = cc.expected_mutual_information_baseline(
        n, model="perm", sizes_true=[n - 1, 1], sizes_pred=sizes
    )
    assert got == pytest.approx(float(_expected_mi_singleton(n, sizes)), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("n", [50, 5000, 10**6])
def test_trivial_and_singleton_clusterings(n):
    """K = 1 and K = N make a side deterministic: E[MI] = 0 and H(other) exactly."""
    sizes = _zipf_sizes(n, 20, seed=1)
    h = float(-mp.fsum(mp.mpf(int(s)) / n * mp.log(mp.mpf(int(s)) / n) for s in sizes))
    for model, extra in (("num", {"n_clusters_pred": 3}), ("all", {})):
        assert cc.expected_mutual_information_baseline(
            n, model=model, one_sided=True, sizes_true=[n], **extra
        ) == 0.0
    assert cc.expected_mutual_information_baseline(
        n, model="num", one_sided=True, sizes_true=sizes, n_clusters_pred=n
    ) == pytest.approx(h, rel=1e-13)
    assert cc.expected_mutual_information_baseline(
        n, model="num", one_sided=True, sizes_true=sizes, n_clusters_pred=1
    ) == 0.0
