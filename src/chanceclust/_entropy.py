"""The entropy of a clustering from its cluster sizes (a numeric primitive, no validation).

The one entropy formula of the library: the measures (H, NMI, the NMI of null samples) and
the random models (a fixed side's entropy bound, docs/math.md#math-s-max) call it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def entropy_values(sizes: NDArray[np.integer], n: int) -> NDArray[np.float64]:
    """H = -sum (a/N) log(a/N) of each row of a (zero-padded) size matrix, log1p near N.

    Single clusterings pass one row, the null samples of :mod:`chanceclust.significance`
    a row per sample.
    """
    sizes = np.asarray(sizes)
    a = sizes.astype(np.float64)
    if n == 0:
        return np.zeros(a.shape[0])
    frac = a / n
    logs = np.log(np.where(a > 0, frac, 1.0))
    big = 2 * a > n  # at most one size per row: log1p of the deficit only there
    if big.any():
        # a - N exactly in integers: near N = 2**63 the floats a and N differ by rounding only.
        deficit = (sizes[big] - n).astype(np.float64) if sizes.dtype.kind in "iu" else a[big] - n
        logs[big] = np.log1p(deficit / n)
    return np.maximum(-np.sum(frac * logs, axis=1), 0.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def entropy_of_sizes(sizes: NDArray[np.integer], n: int) -> float:
    """H of one size sequence (see :func:`entropy_values`)."""
    return float(entropy_values(np.asarray(sizes)[None], n)[0])
