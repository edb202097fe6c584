"""Vectorized sums over ragged integer windows, and the two concentration windows we need.

Every expected mutual information reduces to sums of pmf(x) * bd0(x, mean)
over the support of a binomial or hypergeometric variable. Far from the mean
the pmf is negligible; the windows below drop only a mass delta = 1e-30,
bounded by Bernstein's inequality (which holds for the hypergeometric as for
the binomial with the same p: Hoeffding 1963, Theorem 4).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

# Bernstein: P(|X - mu| >= t) <= 2 exp(-t^2 / (2 (var + t/3))) = delta at t below.
_LOG_TWO_OVER_DELTA = np.log(2.0 / 1e-30)
_CHUNK = 1 << 20  # elements per vectorized block: bounds memory at ~100 MB


def bernstein_halfwidth(var: NDArray[np.float64]) -> NDArray[np.float64]:
    """Half-width t outside which a sum of bounded variables has mass below 1e-30."""
    ell = _LOG_TWO_OVER_DELTA
    return ell / 3.0 + np.sqrt(ell * ell / 9.0 + 2.0 * ell * var)


def window_sums(
    lo: NDArray[np.int64],
    hi: NDArray[np.int64],
    term: Callable[[NDArray[np.intp], NDArray[np.int64]], NDArray[np.float64]],
) -> NDArray[np.float64]:
    """For each segment s, sum term(s, x) over the integers x = lo[s] .. hi[s].

    ``term`` receives the segment index and x of every point of a block of
    segments, so it can be fully vectorized; blocks bound the memory used.
    """
    lengths = np.maximum(hi - lo + 1, 0)
    out = np.zeros(len(lo), dtype=np.float64)
    ends = np.cumsum(lengths)
    start_segment = 0
    while start_segment < len(lo):
        offset = ends[start_segment - 1] if start_segment else 0
        stop = int(np.searchsorted(ends, offset + _CHUNK, side="right"))
        stop = max(stop, start_segment + 1)
        block = np.arange(start_segment, stop)
        block_lengths = lengths[block]
        total = int(block_lengths.sum())
        if total:
            segment = np.repeat(block, block_lengths)
            first = np.repeat(np.cumsum(block_lengths) - block_lengths, block_lengths)
            x = lo[segment] + (np.arange(total) - first)
            out[block] = np.bincount(
                segment - start_segment, weights=term(segment, x), minlength=len(block)
            )
        start_segment = stop
    return out
