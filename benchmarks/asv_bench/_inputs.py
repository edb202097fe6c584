"""Labelings of the shapes users have, made from fixed seeds with numpy alone (so every
commit an asv comparison builds sees the same inputs).

Shapes: ``uniform`` (K equally likely labels), ``zipf`` (size of cluster r proportional to
1/r), ``dirichlet`` (sizes from a Dirichlet(0.5) draw: a few large, many small) and
``stair`` (all-distinct sizes 1, 2, 3, ...: the most distinct size pairs for E[MI]).
"""

from __future__ import annotations

import numpy as np

SHAPES = ("uniform", "zipf", "dirichlet", "stair")


def sizes(shape: str, n: int, k: int, seed: int) -> np.ndarray:
    """K cluster sizes summing to N (each >= 1) of the named shape."""
    rng = np.random.default_rng(seed)
    if shape == "stair":
        k = int((np.sqrt(8 * n + 1) - 1) // 2)  # 1 + 2 + ... + k <= N
        out = np.arange(1, k + 1, dtype=np.int64)
        out[-1] += n - int(out.sum())
        return out
    if shape == "uniform":
        p = np.full(k, 1.0 / k)
    elif shape == "zipf":
        p = 1.0 / np.arange(1, k + 1)
    elif shape == "dirichlet":
        p = rng.dirichlet(np.full(k, 0.5))
    else:
        raise ValueError(f"unknown shape {shape!r}")
    out = 1 + rng.multinomial(n - k, p / p.sum())
    return out.astype(np.int64)


def labels(shape: str, n: int, k: int, seed: int) -> np.ndarray:
    """int64 labels of N elements in clusters of :func:`sizes`, in random order."""
    rng = np.random.default_rng(seed + 1)
    s = sizes(shape, n, k, seed)
    return rng.permutation(np.repeat(np.arange(s.size, dtype=np.int64), s))


def pair(shape: str, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Two independent labelings of the same shape (seeds 1 and 2)."""
    return labels(shape, n, k, 1), labels(shape, n, k, 2)
