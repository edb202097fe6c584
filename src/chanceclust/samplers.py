"""Exact samplers of the random models: uniform random clusterings of N elements.

``perm`` (given sizes), ``num`` (exactly K clusters) and ``all`` (Stam's algorithm), each in
O(N + K) time and memory (docs/math.md#math-samplers); randomness only from ``rng``.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._models import Model
from chanceclust._validation import check_count, check_model_summary, check_rng
from chanceclust.exceptions import UnsupportedError

__all__ = ["random_clustering", "random_clusterings"]


@fill_doc
def random_clustering(
    n: int,
    *,
    model: str | Model,
    n_clusters: int | None = None,
    sizes: Any = None,
    rng: Any = None,
) -> NDArray[np.int64]:
    """Draw one clustering of ``n`` elements uniformly from a random model.

    Formula: docs/math.md#math-samplers.

    Parameters
    ----------
    %(one_model)s
    rng : None, int or numpy.random.Generator, optional
        Source of randomness (passed to :func:`numpy.random.default_rng`).

    Returns
    -------
    labels : ndarray of shape (n,), dtype int64
        Cluster labels 0..K-1, every label used. For perm, label i marks a
        cluster of size ``sizes[i]``.

    See Also
    --------
    random_clusterings : many draws at once, as an (m, n) array.

    Examples
    --------
    >>> from chanceclust.samplers import random_clustering
    >>> random_clustering(6, model="perm", sizes=[3, 2, 1], rng=0).tolist()
    [1, 0, 2, 1, 0, 0]
    >>> labels = random_clustering(10**5, model="num", n_clusters=7, rng=1)
    >>> len(set(labels.tolist()))
    7
    """
    return random_clusterings(1, n, model=model, n_clusters=n_clusters, sizes=sizes, rng=rng)[0]


def random_clusterings(
    m: int,
    n: int,
    *,
    model: str | Model,
    n_clusters: int | None = None,
    sizes: Any = None,
    rng: Any = None,
) -> NDArray[np.int64]:
    """Draw ``m`` independent clusterings of ``n`` elements uniformly from a random model.

    Parameters
    ----------
    m : int
        Number of clusterings (m >= 0).
    n, model, n_clusters, sizes, rng
        As in :func:`random_clustering`.

    Returns
    -------
    labels : ndarray of shape (m, n), dtype int64
        One clustering per row, labels 0..K-1 (K may vary by row under ``all``).

    Notes
    -----
    Each exactly uniform in expected O(N + K): perm a uniform permutation of the label
    sequence, all by Stam (1983), num a uniform surjection; docs/math.md#math-samplers.

    References
    ----------
    Stam, A. J. (1983). Generation of a random partition of a finite set by an
    urn model. J. Combin. Theory Ser. A 35(2):231-240.

    Examples
    --------
    >>> from chanceclust.samplers import random_clusterings
    >>> draws = random_clusterings(3, 8, model="all", rng=2)
    >>> draws.shape
    (3, 8)
    >>> [len(set(row.tolist())) for row in random_clusterings(3, 8, model="num",
    ...                                                       n_clusters=4, rng=2)]
    [4, 4, 4]
    """
    m = check_count(m, "m")
    n, model, k, size_array = check_model_summary(n, model, n_clusters, sizes)
    gen = check_rng(rng)
    out = _output(m, n)
    draw = model.side(n, size_array, k).sampler()
    for row in out:  # row by row: m draws consume the stream as m single draws do
        row[:] = draw(gen)
    return out


def _bytes(size: float) -> str:
    for unit, scale in (("EB", 1e18), ("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size:.0f} bytes"


def _output(m: int, n: int) -> NDArray[np.int64]:
    """The (m, n) int64 array of the draws, refused before allocating if it cannot fit."""
    need = 8 * m * n  # the labels alone; a draw's work arrays add O(n) more
    try:  # bytes of physical memory, None where the OS does not say
        memory: int | None = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        memory = None
    error = UnsupportedError(
        f"Drawing m={m} clustering(s) of n={n} elements would need about {_bytes(need)} of "
        "memory for the labels (8 bytes each)"
        + (f"; this machine has {_bytes(memory)}" if memory else "")
        + ": draw fewer or smaller clusterings."
    )
    if memory is not None and need > memory:
        raise error
    try:
        return np.empty((m, n), dtype=np.int64)
    except (MemoryError, ValueError):  # ValueError: a shape numpy cannot even index
        raise error from None
