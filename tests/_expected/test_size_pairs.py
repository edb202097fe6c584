"""The per-size-pair kernel of the perm expected MI against 50-digit mpmath.

``tests/reference/pair_information.json`` comes from
``tests/reference/make_pair_information.py`` (mpmath, independent of
chanceclust): E[bd0(X, ab/N)] for X ~ hypergeometric(N, a, b), N = 10..10^8.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from chanceclust._expected import size_pairs as kernel

CASES = json.loads((Path(__file__).parents[1] / "reference" / "pair_information.json").read_text())


def _route(n: int, a: int, b: int) -> str:
    s, l = min(a, b), max(a, b)
    if 2 * (s + l) > n:
        return "general"
    return "tiny" if s * l <= n else "grouped"


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c['n']}-a{c['a']}-b{c['b']}")
def test_pair_information_matches_mpmath(case):
    n, a, b = case["n"], case["a"], case["b"]
    got = kernel.pair_information(np.array([a]), np.array([b]), n)[0] * n
    # Observed: <= 2e-15 on every case; the bound leaves room for other BLAS and libm.
    assert got == pytest.approx(float(case["value"]), rel=1e-14)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c['n']}-a{c['a']}-b{c['b']}")
def test_general_route_matches_mpmath(case):
    n, a, b = case["n"], case["a"], case["b"]
    got = kernel._general_information(np.array([a]), np.array([b]), n)[0]
    assert got == pytest.approx(float(case["value"]), rel=2e-14)  # observed <= 1e-14


def test_cases_cover_every_route():
    routes = {_route(c["n"], c["a"], c["b"]) for c in CASES}
    assert routes == {"general", "tiny", "grouped"}


def test_order_and_batching_do_not_change_values():
    """One call over all cases (many groups, one sort) equals the calls one by one."""
    for n in {c["n"] for c in CASES}:
        a = np.array([c["a"] for c in CASES if c["n"] == n])
        b = np.array([c["b"] for c in CASES if c["n"] == n])
        one_by_one = [kernel.pair_information(a[i : i + 1], b[i : i + 1], n)[0] for i in range(len(a))]
        together = kernel.pair_information(a, b, n)
        np.testing.assert_allclose(together, one_by_one, rtol=1e-14)
        np.testing.assert_allclose(kernel.pair_information(b, a, n), together, rtol=1e-14)


@pytest.mark.parametrize("n", [50, 1000, 10**5, 10**7])
def test_grouped_route_agrees_with_general_route(n):
    """Thousands of random size pairs (log-uniform sizes, both routes, blocks of
    every shape): the two independent evaluations agree, and nothing is NaN."""
    rng = np.random.default_rng(n)
    a = np.unique(np.exp(rng.uniform(0, np.log(n / 2), 300)).astype(np.int64))
    b = np.unique(np.exp(rng.uniform(0, np.log(n / 2), 300)).astype(np.int64))
    a, b = (v.ravel() for v in np.meshgrid(a, b))
    fast = kernel.pair_information(a, b, n) * n
    slow = kernel._general_information(a, b, n)
    assert np.all(np.isfinite(fast))
    np.testing.assert_allclose(fast, slow, rtol=2e-14)


def test_empty_clusters_carry_no_information():
    """A size of 0 (an empty cluster) gives I = 0, quietly (warnings are errors in the tests)."""
    got = kernel.pair_information(np.array([0, 1, 5, 0]), np.array([3, 0, 5, 0]), 10)
    np.testing.assert_array_equal(got[[0, 1, 3]], 0.0)
    assert got[2] > 0


def test_grid_computes_each_unordered_pair_once_and_agrees_with_the_pairs(monkeypatch):
    """Sizes common to both sides (some repeated, some on one side only): the grid equals the
    pairwise values, and asks the kernel for each unordered pair of sizes at most once."""
    n = 10**7
    sizes_a = np.array([5, 3000, 10**5, 7, 3000, 2 * 10**6, 40])
    sizes_b = np.array([10**5, 7, 12, 3000, 5, 9 * 10**6, 41])
    calls = []
    original = kernel.pair_information

    def counting(a, b, total):
        calls.extend(zip(a.tolist(), b.tolist(), strict=True))
        return original(a, b, total)

    monkeypatch.setattr(kernel, "pair_information", counting)
    grid = kernel.pair_information_grid(sizes_a, sizes_b, n)
    a, b = (v.ravel() for v in np.meshgrid(sizes_a, sizes_b, indexing="ij"))
    np.testing.assert_allclose(grid.ravel(), original(a, b, n), rtol=1e-15)
    unordered = [tuple(sorted(pair)) for pair in calls]
    assert len(unordered) == len(set(unordered))
    pairs = zip(a.tolist(), b.tolist(), strict=True)
    assert set(unordered) == {tuple(sorted(pair)) for pair in pairs}
