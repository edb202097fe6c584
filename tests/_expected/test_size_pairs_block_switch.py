"""The size switch of the 2-D pmf blocks (``size_pairs._MID_MIN_CELLS``, issue #38): a sum of one
law against one takes ``_MidBlocks`` only where at least that many of its cells have a mean in
(1, 10]; below, those cells go pair by pair through ``pair_information``. Both sides of the
switch, just below and just above it, against the pair-by-pair sum and against each other within
the documented accuracy (docs/math.md#math-routes), the route each side takes counted; below it,
the stair case of ``tests/reference/emi_pairs.json`` (50-digit mpmath) is tested by
tests/test_emi_pairs_reference.py; and the switch depends on the law pair alone (one law against
several gives each sum the bits of its own call)."""

from __future__ import annotations

import numpy as np
import pytest

from chanceclust._expected import size_pairs as kernel


def _mid_cells(sizes, n):
    """Unordered pairs a <= b of ``sizes`` with 1 < ab/N <= 10, counted one by one."""
    a, b = np.meshgrid(sizes, sizes, indexing="ij")
    upper = a <= b
    product = a * b
    return int(np.count_nonzero(upper & (product > n) & (product <= 10 * n)))


def _stair_across_the_switch(n):
    """The stair sizes 1..k (both sides) with the last k below the switch and the first above."""
    k = 1
    while _mid_cells(np.arange(1, k + 2), n) < kernel._MID_MIN_CELLS:
        k += 1
    return np.arange(1, k + 1), np.arange(1, k + 2)


def _brute_sum(sizes, weights, n):
    a, b = (v.ravel() for v in np.meshgrid(sizes, sizes, indexing="ij"))
    return float(np.outer(weights, weights).ravel() @ kernel.pair_information(a, b, n))


def _sum_and_blocks(sizes, weights, n, monkeypatch):
    """information_sum of the law against itself and the number of _MidBlocks blocks taken."""
    blocks = []
    original = kernel._MidBlocks.add

    def counting(self, *args):
        blocks.append(np.count_nonzero(args[6]))
        return original(self, *args)

    with monkeypatch.context() as patch:
        patch.setattr(kernel._MidBlocks, "add", counting)
        got = kernel.information_sum(sizes, weights, sizes, weights, n)
    return got, len(blocks)


@pytest.mark.parametrize("n", [2 * 10**4, 5 * 10**4])
def test_both_sides_of_the_block_switch(n, monkeypatch):
    below, above = _stair_across_the_switch(n)
    assert _mid_cells(below, n) < kernel._MID_MIN_CELLS <= _mid_cells(above, n)
    for sizes, blocked in ((below, False), (above, True)):
        weights = np.linspace(1.0, 2.0, len(sizes))
        got, blocks = _sum_and_blocks(sizes, weights, n, monkeypatch)
        assert (blocks > 0) == blocked  # the side of the switch it is on
        # The pair-by-pair sum (each pair's own routes: ``pair_information``).
        assert got == pytest.approx(_brute_sum(sizes, weights, n), rel=1e-14)
        # The other side's route forced: within the documented 1e-14 of each other.
        with monkeypatch.context() as patch:
            patch.setattr(kernel, "_MID_MIN_CELLS", 1 << 62 if blocked else 0)
            other, other_blocks = _sum_and_blocks(sizes, weights, n, monkeypatch)
        assert (other_blocks > 0) != blocked
        assert other == pytest.approx(got, rel=1e-14)


def test_the_switch_is_per_law_pair():
    """One law against a law below the switch and one above: each sum the bits of its own call
    (``information_sums`` steps the blocks of several sums together)."""
    n = 5 * 10**4
    below, above = _stair_across_the_switch(n)
    sizes_a, weights_a = above, np.linspace(1.0, 2.0, len(above))
    others = [(below, np.linspace(1.0, 3.0, len(below))), (above, np.ones(len(above)))]
    together = kernel.information_sums(sizes_a, weights_a, others, n)
    alone = [kernel.information_sum(sizes_a, weights_a, *other, n) for other in others]
    assert np.array_equal(np.array(together).view(np.int64), np.array(alone).view(np.int64))
