"""Truncated Taylor series arithmetic, vectorized over a batch of expansion points.

A series is an array whose last axis holds the coefficients s_0, s_1, ..., s_{L-1}
of s(e) = sum_j s_j e^j, truncated after L terms; leading axes are a batch.
Products, reciprocals, logarithms and exponentials follow from the usual
recurrences (the derivative identities (1/a)' = -a'/a^2, (log a)' = a'/a,
(exp a)' = a' exp a), each coefficient a sum of O(L) products, so with L ~ 10
the rounding of each coefficient is a few units of 1e-16 of the terms it sums.
Used where derivatives of a closed-form function are needed without finite
differences (``curvature._stirling2_curvature_expansion``, ``edgeworth``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["series_exp", "series_log", "series_mul", "series_power", "series_reciprocal"]

Series = NDArray[np.float64]


def series_mul(a: Series, b: Series) -> Series:
    """The product a b, truncated to the length of ``a`` (``b`` as long)."""
    out = np.zeros(np.broadcast_shapes(a.shape, b.shape))
    length = a.shape[-1]
    for i in range(length):
        out[..., i:] += a[..., i : i + 1] * b[..., : length - i]
    return out


def series_reciprocal(a: Series) -> Series:
    """1 / a (``a[..., 0]`` nonzero)."""
    out = np.zeros_like(a)
    out[..., 0] = 1.0 / a[..., 0]
    for j in range(1, a.shape[-1]):
        out[..., j] = -np.sum(a[..., 1 : j + 1] * out[..., j - 1 :: -1][..., :j], axis=-1) * out[..., 0]
    return out


def _derivative(a: Series) -> Series:
    out = np.zeros_like(a)
    out[..., :-1] = a[..., 1:] * np.arange(1, a.shape[-1])
    return out


def _integral(a: Series, constant: NDArray[np.float64]) -> Series:
    out = np.empty_like(a)
    out[..., 0] = constant
    out[..., 1:] = a[..., :-1] / np.arange(1, a.shape[-1])
    return out


def series_log(a: Series) -> Series:
    """log a (``a[..., 0]`` > 0)."""
    return _integral(series_mul(_derivative(a), series_reciprocal(a)), np.log(a[..., 0]))


def series_exp(a: Series) -> Series:
    """exp a, by e_j = (1/j) sum_{i=1..j} i a_i e_{j-i}."""
    out = np.zeros_like(a)
    out[..., 0] = np.exp(a[..., 0])
    weighted = a * np.arange(a.shape[-1])
    for j in range(1, a.shape[-1]):
        out[..., j] = np.sum(weighted[..., 1 : j + 1] * out[..., j - 1 :: -1][..., :j], axis=-1) / j
    return out


def series_power(a: Series, p: float) -> Series:
    """a ** p (``a[..., 0]`` > 0)."""
    return series_exp(p * series_log(a))
