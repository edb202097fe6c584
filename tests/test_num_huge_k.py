"""The num model with small clusters at K = 10^6 .. 2^62: size law, p1, p2, E[RI], E[MI], Var[RI].

References: tests/reference/huge_num_laws.json, written by
tests/reference/make_huge_num_laws.py (stdlib + mpmath, independent of
chanceclust): the size law w(a) = C(N,a) S(N-a,K-1)/S(N,K) and S(N-j,K)/S(N,K)
from Fourier inversion integrals of the zero-truncated Poisson characteristic
function (mpmath.quad), checked there against exact integers at K = 1000; E[MI]
from exact hypergeometric sums per cluster size. The library takes the size law
from the saddle-point (Edgeworth) expansion where the lattice variance K Var X
is >= 1000 and from FFT convolutions below; both routes are compared at the switch.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from chanceclust._expected import laws
from chanceclust.expectations import (
    expected_mutual_information_baseline,
    expected_rand_index_baseline,
    same_cluster_probability,
)

REFERENCE = json.loads((Path(__file__).parent / "reference" / "huge_num_laws.json").read_text())
CASES = REFERENCE["cases"]
IDS = [f"N={c['n']},K={c['k']}" for c in CASES]
TOL = 1e-12


def _rel(got: float, want: float) -> float:
    return abs(got - want) / abs(want)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_size_law_weights_match_reference(case):
    """The size-law route (used unless the inclusion-exclusion mixture is well conditioned)."""
    n, k = case["n"], case["k"]
    law = laws._small_cluster_size_law(n, k)
    assert not law.exact
    used = laws.num_law(n, k)  # at the largest mean sizes (~log K + 2) the mixture is taken
    if isinstance(used, laws.SizeLaw):
        np.testing.assert_array_equal(used.weights, law.weights)
    want = dict(zip(case["sizes"], map(float, case["weights"]), strict=True))
    top = max(want.values())
    got = dict(zip(law.sizes.tolist(), law.weights.tolist(), strict=True))
    for a, w in want.items():
        if w >= 1e-12 * top:  # every weight that matters, to 1e-12 relative
            assert _rel(got[a], w) <= TOL, a
        else:
            assert abs(got.get(a, 0.0) - w) <= TOL * top, a
    assert set(got) <= set(want) | {a for a in got if got[a] < 1e-30 * top}
    assert math.isclose(float(law.weights.sum()), k, rel_tol=1e-14)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pair_and_triple_probabilities_match_reference(case):
    n, k = case["n"], case["k"]
    p1 = same_cluster_probability(n, model="num", n_clusters=k)
    p2 = same_cluster_probability(n, model="num", n_clusters=k, group_size=3)
    assert _rel(p1, float(case["p1"])) <= TOL
    assert _rel(p2, float(case["p2"])) <= TOL
    # What Var[RI] needs of the side: p1, g = p1 - p2 and v = p2 - p1^2 (tiny, no cancellation).
    got = laws.inverse_moments(laws.num_law(n, k), k)
    for value, key in zip(got, ("p1", "gap", "spread"), strict=True):
        assert _rel(value, float(case[key])) <= TOL, key


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_variance_of_rand_index_from_the_side_moments(case):
    """Var[RI] as variance._table_variance assembles it (a table with K ~ 1e9 columns can't be built)."""
    n, k = case["n"], case["k"]
    p1, gap, spread = laws.inverse_moments(laws.num_law(n, k), k)
    pairs = float(n * (n - 1) // 2)
    q = (n // 3) * (n // 3 - 1) // 2 + (n - n // 3) * (n - n // 3 - 1) // 2
    tilt = (1.0 - 2.0 * q / (n * (n - 1) / 2)) ** 2
    one = gap / pairs + tilt * spread
    two = (2 * gap - 4 * gap * gap) / pairs + 2 * (1 - 2 * p1) ** 2 * spread + 4 * spread * spread
    assert _rel(one, float(case["var_one_sided"])) <= TOL
    assert _rel(two, float(case["var_two_sided"])) <= TOL


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_expected_rand_index_matches_reference(case):
    n, k = case["n"], case["k"]
    reference = [n // 3, n - n // 3]
    one = expected_rand_index_baseline(
        n, model="num", one_sided=True, sizes_true=reference, n_clusters_pred=k
    )
    two = expected_rand_index_baseline(n, model="num", n_clusters_true=k, n_clusters_pred=k)
    assert _rel(one, float(case["rand_one_sided"])) <= TOL
    assert _rel(two, float(case["rand_two_sided"])) <= TOL


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_expected_mutual_information_matches_reference(case):
    n, k = case["n"], case["k"]
    reference = [n // 3, n - n // 3]
    one = expected_mutual_information_baseline(
        n, model="num", one_sided=True, sizes_true=reference, n_clusters_pred=k
    )
    two = expected_mutual_information_baseline(n, model="num", n_clusters_true=k, n_clusters_pred=7)
    assert _rel(one, float(case["mi_one_sided"])) <= TOL
    assert _rel(two, float(case["mi_two_sided_k7"])) <= TOL


PAIR_CASES = [c for c in CASES if "mi_two_sided_kk" in c]


@pytest.mark.parametrize("case", PAIR_CASES, ids=[f"N={c['n']},K={c['k']}" for c in PAIR_CASES])
def test_expected_mutual_information_of_two_size_laws_matches_reference(case):
    """num(K) x num(K) with small clusters: both sides size laws (the size-pair route)."""
    n, k = case["n"], case["k"]
    got = expected_mutual_information_baseline(n, model="num", n_clusters_true=k, n_clusters_pred=k)
    assert _rel(got, float(case["mi_two_sided_kk"])) <= TOL


def test_two_small_cluster_sides_are_finite_and_symmetric():
    """Both sides from size laws (the size-pair route): the example of issue #10 no longer raises."""
    n = 10**10
    ab = expected_mutual_information_baseline(n, model="num", n_clusters_true=2 * 10**9, n_clusters_pred=10**9)
    ba = expected_mutual_information_baseline(n, model="num", n_clusters_true=10**9, n_clusters_pred=2 * 10**9)
    assert np.isfinite(ab)
    assert ab > 0
    assert ab == pytest.approx(ba, rel=1e-13)
    ri = expected_rand_index_baseline(n, model="num", n_clusters_true=2 * 10**9, n_clusters_pred=7)
    assert 0.8 < ri < 0.9


@pytest.mark.parametrize(
    ("n", "k"),
    [(1_020_000, 10**6), (10**6 + 2_000, 10**6), (3 * 10**5, 10**5), (3_000, 1_000), (20_000, 10**4)],
)
def test_expansion_and_convolutions_agree_near_the_switch(n, k):
    """Both routes where K Var X is near special._LATTICE_EXPANSION_FROM (and beyond): the switch is continuous."""
    fft, expansion = laws._surjection_size_law(n, k), laws._edgeworth_size_law(n, k)
    np.testing.assert_array_equal(fft.sizes, expansion.sizes)
    matter = fft.weights >= 1e-6 * fft.weights.max()
    np.testing.assert_allclose(expansion.weights[matter], fft.weights[matter], rtol=5e-13)


def test_switch_is_at_the_lattice_variance_threshold():
    # n - k = 1000 clusters' worth of excess at small mean sizes: K Var X just under / over 1000.
    below, above = (10**8 + 950, 10**8), (10**8 + 1100, 10**8)
    for (n, k), route in ((below, laws._surjection_size_law), (above, laws._edgeworth_size_law)):
        laws.num_law.cache_clear()
        got = laws.num_law(n, k)
        np.testing.assert_array_equal(got.weights, route(n, k).weights)


def _stirling_near_diagonal(x: int, d: int) -> int:
    """S(x, x - d) = sum_j <<d, j>> C(x + d - 1 - j, 2d), second-order Eulerian numbers (exact)."""
    if d == 0:
        return 1
    row = [1]
    for m in range(1, d + 1):
        row = [
            (j + 1) * (row[j] if j < len(row) else 0) + (2 * m - 1 - j) * (row[j - 1] if 1 <= j <= len(row) else 0)
            for j in range(m + 1)
        ]
    return sum(c * math.comb(x + d - 1 - j, 2 * d) for j, c in enumerate(row) if c)


@pytest.mark.parametrize("n", [10**6, 10**12, 2**63 - 1])
@pytest.mark.parametrize("excess", [30, 300])
def test_size_law_near_the_diagonal_is_exact(n, excess):
    """K = N - d (mean size near 1, K Var X ~ d: the convolution route) against exact integers.

    FFT rounding used to tilt these weights by 4e-7 per unit size at N = 10^12, and the
    window placement failed at N = 2^63 - 1.
    """
    k = n - excess
    law = laws.num_law(n, k)
    denominator = _stirling_near_diagonal(n, excess)
    for a, w in zip(law.sizes.tolist(), law.weights.tolist(), strict=True):
        exact = Fraction(math.comb(n, a) * _stirling_near_diagonal(n - a, excess - a + 1), denominator)
        if exact >= 1e-12 * k:
            assert _rel(w, float(exact)) <= 1e-14, a
