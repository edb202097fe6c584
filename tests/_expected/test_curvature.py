"""Tests for chanceclust._expected.curvature: log[S(n-2,k) S(n,k) / S(n-1,k)^2] by its three routes.

Oracles: tests/reference/stirling_curvature.json (40-digit references from exact integers and
mpmath, make_stirling_curvature.py) and exact Stirling numbers from tests/reference/_exact.py.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from reference._exact import stirling2, stirling2_range

from chanceclust._expected import curvature
from chanceclust._expected.edgeworth import LATTICE_EXPANSION_FROM
from chanceclust._expected.lattice import ztp_saddle

CURVATURES = json.loads(
    (Path(__file__).parent.parent / "reference" / "stirling_curvature.json").read_text()
)["cases"]


def _exact_curvature(n: int, k: int) -> float:
    """log1p((S0 S2 - S1^2) / S1^2) from exact Stirling numbers, one rounding."""
    s = stirling2_range(n - 2, n, k)
    s0, s1, s2 = s[n], s[n - 1], s[n - 2]
    return math.log1p(Fraction(s0 * s2 - s1 * s1, s1 * s1))


@pytest.mark.parametrize(
    "case", CURVATURES, ids=[f"n{c['n']}-k{c['k']}" for c in CURVATURES]
)
def test_stirling2_ratio_curvature_matches_reference(case):
    """Against 40-digit references (make_stirling_curvature.py).

    Exact integers for n <= 4000, second-order Eulerian numbers for k = n - d up to
    n = 10^15 (both sides of the switch to the expansion at k Var X = 1000, d ~ 1000),
    inclusion-exclusion in mpmath for the size-law regime up to n = 1.2 * 10^7. Before the
    asymptotic expansion the Fourier route was off by 1e-7 relative at n = 10^6, k = 10^5.
    """
    want = float(case["curvature"])
    got = curvature.stirling2_ratio_curvature(case["n"], case["k"])
    assert got == pytest.approx(want, rel=1e-12, abs=0.0)  # measured <= 3e-13, numpy 1.24..2.5


def test_stirling2_curvature_routes_agree_at_the_switch():
    """Both routes are accurate near k Var X = 1000, so the switch leaves no step."""
    for n, k in ((2000, 1500), (4000, 3000), (10**5, 10**5 - 1000), (10**9, 10**9 - 1000)):
        fourier = curvature._stirling2_curvature_fourier(n, k)
        expansion = curvature._stirling2_curvature_expansion(n, k)
        assert expansion == pytest.approx(fourier, rel=1e-12, abs=0.0)


@pytest.mark.parametrize(("n", "k"), [(20, 5), (200, 40), (500, 100), pytest.param(1440, 625, marks=pytest.mark.slow), (100, 98)])
def test_stirling2_curvature_exact_route_is_exact(n, k):
    """Small k at mean sizes of a few (where the Fourier sums lost 1.3e-12 on numpy 1.24):
    exact integers, one rounding, against the exact Stirling numbers of the recurrence."""
    s0, s1, s2 = (stirling2(n - j, k) for j in range(3))
    want = math.log1p(Fraction(s0 * s2 - s1 * s1, s1 * s1))
    assert curvature._stirling2_curvature_exact(n, k) == want


@pytest.mark.parametrize(("n", "k", "route"), [
    (1250, 800, "exact"),  # n k = 10^6: the last exact point
    (1251, 800, "fourier"),  # n k = 1,000,800
    (1280, 781, "exact"),  # n k = 999,680
    (1281, 781, "fourier"),  # n k = 1,000,461
])
def test_curvature_exact_and_fourier_routes_at_nk_one_million(n, k, route, monkeypatch):
    """Both sides of CURVATURE_EXACT_MAX_NK (k Var X ~ 500 < 1000: no expansion), each
    against exact Stirling numbers; the dispatch is checked by recording the route taken."""
    assert ztp_saddle(n - 1, k)[2] < LATTICE_EXPANSION_FROM
    assert (n * k <= curvature.CURVATURE_EXACT_MAX_NK) == (route == "exact")
    taken = []
    for name in ("exact", "fourier", "expansion"):
        original = getattr(curvature, f"_stirling2_curvature_{name}")

        def spy(a, b, original=original, name=name):
            taken.append(name)
            return original(a, b)

        monkeypatch.setattr(curvature, f"_stirling2_curvature_{name}", spy)
    got = curvature.stirling2_ratio_curvature(n, k)
    assert taken == [route]
    assert got == pytest.approx(_exact_curvature(n, k), rel=1e-12, abs=0.0)


@pytest.mark.parametrize(("n", "k"), [(1251, 800), (1281, 781)])  # the Fourier route's domain
def test_curvature_fourier_adds_nodes_while_the_last_is_not_negligible(n, k, monkeypatch):
    """The Fourier route's other side of its tail check: with a first count of nodes far
    too small (CUT_SD 9 -> 0.5 standard deviations) the count is doubled until the last node
    is below exp(TAIL_LOG); the value still meets the exact Stirling numbers."""
    from chanceclust._expected import lattice

    counts = []
    for name in ("log_cf_ztp_small", "log_cf_ztp_large"):
        original = getattr(curvature, name)

        def counting(*args, original=original):
            counts.append(args[-1].shape[-1])  # the nodes t of this round
            return original(*args)

        monkeypatch.setattr(curvature, name, counting)
    monkeypatch.setattr(lattice, "CUT_SD", 0.5)
    got = curvature._stirling2_curvature_fourier(n, k)
    assert len(counts) >= 2  # doubled at least once
    assert counts[1] == 2 * counts[0] or counts[1] == counts[-1]  # doubled, or all M/2 nodes
    assert got == pytest.approx(_exact_curvature(n, k), rel=1e-12, abs=0.0)
