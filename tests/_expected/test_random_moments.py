"""mi_variance.random_moments: the size moments of a uniform clustering (num, all).

Issue #38: the moments are now integer numerators over S(N, K) (S(N, K)^2 for the
covariances), rounded once by int / int, instead of reduced Fractions. Checked here:

* against enumeration of every set partition (n <= 8): the exact moments, rounded once;
* against the Fraction formulas they replace, to the bit, where sizes are dropped as
  negligible (expected count <= 1e-30, chosen by the exact rational, not by bit lengths):
  both are correctly rounded values of the same rationals, so equal bytes are the claim.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from reference._exact import bell, set_partitions, stirling2

from chanceclust._expected.mi_variance import random_moments


def _rest(k):
    if k is None:
        return lambda m, used: bell(m)
    return lambda m, used: stirling2(m, k - used) if k >= used else 0


def _moments(n, k):
    total = bell(n) if k is None else stirling2(n, k)
    return random_moments(n, total, _rest(k), "a" if k is None else "1a")


def _enumerated(n, k):
    """Exact E[n_a], E[ordered pairs of distinct clusters of sizes (a, c)], Cov by listing."""
    once, pairs, square, count = Counter(), Counter(), Counter(), 0
    for labels in set_partitions(n):
        sizes = Counter(Counter(labels).values())  # size -> number of clusters of that size
        if k is not None and sum(sizes.values()) != k:
            continue
        count += 1
        for a, na in sizes.items():
            once[a] += na
            for c, nc in sizes.items():
                pairs[a, c] += na * nc - (na if a == c else 0)
                square[a, c] += na * nc
    mean = {a: Fraction(w, count) for a, w in once.items()}
    return mean, {key: Fraction(w, count) for key, w in pairs.items()}, {
        (a, c): Fraction(square[a, c], count) - mean[a] * mean[c] for a in mean for c in mean
    }


@pytest.mark.parametrize(
    ("n", "k"),
    [(1, 1), (2, 1), (2, 2), (3, 2), (5, 2), (6, 3), (7, 4), (8, 3), (8, 7), (8, 8),
     (1, None), (4, None), (7, None), (8, None)],
)
def test_moments_equal_enumeration(n, k):
    got = _moments(n, k)
    mean, pairs, cov = _enumerated(n, k)
    sizes = [int(a) for a in got.sizes]
    assert sizes == sorted(mean)  # every size that occurs, none dropped at this n
    assert got.once.tolist() == [float(mean[a]) for a in sizes]
    for i, a in enumerate(sizes):
        for j, c in enumerate(sizes):
            assert got.pairs[i, j] == float(pairs.get((a, c), 0)), (a, c)
            assert got.spread[i, j] == float(cov[a, c]), (a, c)


def _fraction_moments(n, k):
    """The Fraction formulas of random_moments before #38 (reduced rationals, float())."""
    rest = _rest(k)
    total = bell(n) if k is None else stirling2(n, k)
    once = {a: Fraction(comb(n, a) * rest(n - a, 1), total) for a in range(1, n + 1)}
    kept = [a for a, w in once.items() if w > Fraction(1, 10**30)]
    pairs = [
        [Fraction(comb(n, a) * comb(n - a, c) * rest(n - a - c, 2), total) if a + c <= n else 0
         for c in kept]
        for a in kept
    ]
    spread = [
        [pairs[i][j] + (once[a] if i == j else 0) - once[a] * once[c] for j, c in enumerate(kept)]
        for i, a in enumerate(kept)
    ]
    return (
        np.array(kept, dtype=np.int64),
        np.array([float(once[a]) for a in kept]),
        np.array([[float(w) for w in row] for row in pairs]),
        np.array([[float(w) for w in row] for row in spread]),
    )


@pytest.mark.parametrize(("n", "k"), [(60, 3), (120, 40), (150, 148), (90, None)])
def test_moments_equal_the_fraction_formulas_to_the_bit(n, k):
    got = _moments(n, k)
    sizes, once, pairs, spread = _fraction_moments(n, k)
    assert len(sizes) < n  # some sizes are dropped as negligible: the screen is exercised
    assert got.sizes.tolist() == sizes.tolist()
    for name, want in (("once", once), ("pairs", pairs), ("spread", spread)):
        assert getattr(got, name).tobytes() == want.tobytes(), name
