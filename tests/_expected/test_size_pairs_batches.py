"""The perm E[MI] kernel of one law against many (issue #38): each value is the float of the
law's own call, whatever the other laws of the call, and the shortcuts that form running
products and Horner steps with fewer numpy calls give the bits of the step-by-step code.

``pairwise`` relies on the first (its matrix equals the single calls' bit for bit: checked
end to end in tests/test_allpairs*.py); the references for the values themselves are those of
tests/_expected/test_size_pairs*.py, which these changes leave as they were.
"""

from __future__ import annotations

import numpy as np
import pytest

from chanceclust._expected import size_pairs as kernel
from chanceclust._expected import small_means
from chanceclust._expected.laws import all_law, fixed_law, num_law
from chanceclust._expected.mutual_information import expected_mi_of_law_rows, expected_mi_of_laws


def _bits(values):
    return np.asarray(values, dtype=np.float64).view(np.int64).tolist()


def _law(n, k, alpha, seed):
    rng = np.random.default_rng(seed)
    sizes = np.bincount(rng.choice(k, n, p=rng.dirichlet(np.full(k, alpha))), minlength=k)
    sizes, counts = np.unique(sizes[sizes > 0], return_counts=True)
    return sizes.astype(np.int64), counts.astype(np.float64)


def _laws(n, shapes):
    return [_law(n, k, alpha, seed) for seed, (k, alpha) in enumerate(shapes)]


CASES = [  # N, the laws: cells of every route (small means, pmf blocks, gathered, series)
    (100, [(10, 5.0), (30, 5.0), (3, 5.0), (50, 0.5)]),
    (10**4, [(4, 0.5), (40, 1.0), (300, 0.5), (40, 1.0), (2, 5.0)]),
    (10**5, [(12, 0.3), (200, 0.5), (700, 0.5), (30, 2.0)]),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c[0]}")
@pytest.mark.parametrize("mid_cells", [1, 1 << 14])
@pytest.mark.parametrize("min_cells", [0, kernel._MID_MIN_CELLS])
def test_one_law_against_many_gives_each_law_its_own_bits(case, mid_cells, min_cells, monkeypatch):
    n, shapes = case
    laws = _laws(n, shapes)
    monkeypatch.setattr(kernel, "_MID_CELLS", mid_cells)  # flushes inside one law's blocks too
    monkeypatch.setattr(kernel, "_MID_MIN_CELLS", min_cells)  # 0: the pmf blocks in every sum
    for sizes_a, weights_a in laws:
        alone = [kernel.information_sum(sizes_a, weights_a, b, w, n) for b, w in laws]
        together = kernel.information_sums(sizes_a, weights_a, laws, n)
        assert _bits(together) == _bits(alone)
        assert _bits(kernel.information_sums(sizes_a, weights_a, laws[::-1], n)) == _bits(
            alone[::-1]
        )


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c[0]}")
def test_pmf_block_steps_formed_first_give_the_bits_of_one_step_at_a_time(case, monkeypatch):
    """``_MID_STEP_CELLS`` 1: every flush step by step (``_horner``); 2^40: every flush's
    ratios and terms formed first as 2-D arrays (``_horner_few``)."""
    n, shapes = case
    laws = _laws(n, shapes)
    monkeypatch.setattr(kernel, "_MID_MIN_CELLS", 0)  # the pmf blocks in every sum
    got = {}
    for step_cells in (1, 1 << 40):
        monkeypatch.setattr(kernel, "_MID_STEP_CELLS", step_cells)
        got[step_cells] = [kernel.information_sums(a, w, laws, n) for a, w in laws]
    assert _bits(got[1]) == _bits(got[1 << 40])


@pytest.mark.parametrize("rows", [1, 7, 64])
@pytest.mark.parametrize("order", [2, 3, 10, 19])
def test_running_products_by_accumulate_give_the_bits_of_the_loop(rows, order, monkeypatch):
    rng = np.random.default_rng(rows * 100 + order)
    n = 10**6
    s = np.sort(rng.integers(1, 300, rows)).astype(np.float64)
    l = np.sort(rng.integers(300, 3000, rows)).astype(np.float64)
    rho = small_means._scale(l)  # one power of two per element (small_mean_information)
    got = {}
    for limit in (0, 1 << 40):  # 0: the loop; 2^40: accumulate
        monkeypatch.setattr(small_means, "_ACCUMULATE", limit)
        got[limit] = (
            small_means._row_factors(s, n, rho, order),
            small_means._row_factors(s, n, float(rho[-1]), order),
            small_means._falling_powers(l, rho, order),
            small_means._falling_powers(l, float(rho[-1]), order),
        )
    for loop, accumulated in zip(got[0], got[1 << 40], strict=True):
        assert accumulated.shape == loop.shape
        assert _bits(accumulated.ravel()) == _bits(loop.ravel())


def test_law_rows_give_the_floats_of_one_law_at_a_time():
    """Size laws and the random models' laws (slot mixtures) mixed in one row."""
    n = 600
    sized = [
        fixed_law(np.bincount(np.random.default_rng(k).integers(0, k, n))) for k in (3, 20, 90)
    ]
    laws = [sized[0], num_law(n, 7), sized[1], all_law(n), sized[2], num_law(n, 40)]
    for first in (sized[1], num_law(n, 5)):
        got = expected_mi_of_law_rows(first, laws)
        assert _bits(got) == _bits([expected_mi_of_laws(first, law) for law in laws])
    one = fixed_law(np.array([1]))  # N = 1: E[MI] = 0
    assert expected_mi_of_law_rows(one, [one, one]) == [0.0, 0.0]
