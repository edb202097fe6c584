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
        one_by_one = [
            kernel.pair_information(a[i : i + 1], b[i : i + 1], n)[0] for i in range(len(a))
        ]
        together = kernel.pair_information(a, b, n)
        np.testing.assert_allclose(together, one_by_one, rtol=1e-14)
        np.testing.assert_allclose(kernel.pair_information(b, a, n), together, rtol=1e-14)


@pytest.mark.parametrize("n", [50, 1000, pytest.param(10**5, marks=pytest.mark.slow),
                               pytest.param(10**7, marks=pytest.mark.slow)])  # ~10-20 s each
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


def _brute_sum(sizes_a, weights_a, sizes_b, weights_b, n):
    a, b = (v.ravel() for v in np.meshgrid(sizes_a, sizes_b, indexing="ij"))
    return float(np.outer(weights_a, weights_b).ravel() @ kernel.pair_information(a, b, n))


@pytest.mark.parametrize(
    ("n", "sizes_a", "sizes_b"),
    [
        # common sizes (the folded sum over the union), some on one side only
        (10**7, [5, 7, 40, 3000, 10**5, 2 * 10**6], [5, 7, 12, 41, 3000, 10**5, 9 * 10**6]),
        # no common size (the rectangle), a size 0 and sizes beyond N/2
        (1000, [0, 1, 2, 30, 400, 600], [3, 5, 31, 900]),
        # many sizes: several row blocks and column blocks, means from 1e-7 to ~2
        (10**7, list(range(1, 4000, 3)), list(range(1, 4000, 3))),
        (10**7, list(range(1, 4000, 3)), list(range(2, 3000, 7))),
        # means up to ~75: the 2-D pmf blocks (1 < mean <= 10) and the grouped windows
        (10**5, list(range(1, 3000, 11)), list(range(5, 2500, 13))),
        # small N: windows cut at the support's end
        (200, list(range(1, 61)), list(range(2, 51, 3))),
    ],
)
@pytest.mark.parametrize("min_cells", [0, kernel._MID_MIN_CELLS])
def test_information_sum_equals_the_sum_over_pairs(n, sizes_a, sizes_b, min_cells, monkeypatch):
    """The streamed sum (2-D blocks of small means, gathered pairs, folded or not) equals the
    weighted sum of the values pair by pair, with the pmf blocks however few their cells (0)
    and at the size switch."""
    monkeypatch.setattr(kernel, "_MID_MIN_CELLS", min_cells)
    rng = np.random.default_rng(len(sizes_a))
    sizes_a, sizes_b = np.array(sizes_a), np.array(sizes_b)
    weights_a, weights_b = rng.uniform(0.5, 3, len(sizes_a)), rng.uniform(0.5, 3, len(sizes_b))
    got = kernel.information_sum(sizes_a, weights_a, sizes_b, weights_b, n)
    assert got == pytest.approx(_brute_sum(sizes_a, weights_a, sizes_b, weights_b, n), rel=1e-14)
    swapped = kernel.information_sum(sizes_b, weights_b, sizes_a, weights_a, n)
    assert swapped == pytest.approx(got, rel=1e-14)


def test_information_sum_gathers_each_unordered_pair_once(monkeypatch):
    """Sides sharing their sizes: the pairs sent to pair_information are each unordered pair of
    sizes at most once, and none of mean <= 1 with a + b <= N/2 (those go by 2-D blocks)."""
    n = 10**6
    sizes = np.unique(np.r_[np.arange(1, 3000, 7), 4 * 10**5])
    calls = []
    original = kernel.pair_information

    def counting(a, b, total):
        calls.extend(zip(a.tolist(), b.tolist(), strict=True))
        return original(a, b, total)

    monkeypatch.setattr(kernel, "pair_information", counting)
    weights = np.ones(len(sizes))
    got = kernel.information_sum(sizes, weights, sizes, weights, n)
    unordered = [tuple(sorted(pair)) for pair in calls]
    assert len(unordered) == len(set(unordered))
    assert all(a * b > n or 2 * (a + b) > n for a, b in unordered)
    monkeypatch.undo()
    assert got == pytest.approx(_brute_sum(sizes, weights, sizes, weights, n), rel=1e-14)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c['n']}-a{c['a']}-b{c['b']}")
@pytest.mark.parametrize("min_cells", [0, kernel._MID_MIN_CELLS])
def test_information_sum_of_one_pair_matches_mpmath(case, min_cells, monkeypatch):
    """One size a side: the 2-D blocks (small means, and pmf blocks where forced by
    _MID_MIN_CELLS = 0; else pair_information) against the 50-digit values."""
    monkeypatch.setattr(kernel, "_MID_MIN_CELLS", min_cells)
    n, a, b = case["n"], case["a"], case["b"]
    one = np.ones(1)
    got = kernel.information_sum(np.array([a]), one, np.array([b]), one, n) * n
    assert got == pytest.approx(float(case["value"]), rel=1e-14)


@pytest.mark.parametrize("n", [10**6, 10**9])
@pytest.mark.parametrize("mean", [1.0, kernel._MID_MEAN])
def test_information_sum_both_sides_of_its_block_switches(n, mean, monkeypatch):
    """Single pairs just below and above mean 1 (factorial-moment series / pmf blocks) and
    _MID_MEAN (pmf blocks / gathered pairs): the streamed sum agrees with Loader's pmf at each
    pair's mode (the independent general route). The pmf blocks forced (_MID_MIN_CELLS = 0:
    one cell is below the size switch of tests/_expected/test_size_pairs_block_switch.py)."""
    monkeypatch.setattr(kernel, "_MID_MIN_CELLS", 0)
    one = np.ones(1)
    for s in (7, 300, 3000):
        for factor in (0.999, 1.001):
            l = round(mean * factor * n / s)
            if l < s or s + l > n:  # sizes of one clustering of N elements
                continue
            got = kernel.information_sum(np.array([s]), one, np.array([l]), one, n) * n
            want = kernel._general_information(np.array([s]), np.array([l]), n)[0]
            assert got == pytest.approx(want, rel=2e-14), (s, l)
