"""Polynomial interpolation at Chebyshev-Lobatto points, shared by the engine's smooth routes.

The exact sums of the engine that vary smoothly with a size (E[bd0] of a size pair,
conditional expectations of the Var[MI] sums) are evaluated exactly at a few nodes and
interpolated in between, each route checking the interpolant against exact values at extra
points before it keeps it (docs/math.md#math-routes names each route, its checks and bounds).
This module holds only the interpolation: the nodes (on [0, 1], or rounded to integers of a
range), the barycentric evaluation and the Lagrange basis.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def chebyshev(nodes: int) -> tuple[NDArray, NDArray]:
    """Chebyshev-Lobatto points on [0, 1], and 3 check points between them (near an end,
    at a quarter, near the middle)."""
    step = np.pi / (nodes - 1)
    points = (1.0 - np.cos(step * np.arange(nodes))) / 2.0
    check = (1.0 - np.cos(step * (np.array([0, nodes // 4, nodes // 2 - 1]) + 0.5))) / 2.0
    return points, check


def integer_nodes(lo: int, hi: int, count: int) -> NDArray[np.int64]:
    """``count`` Chebyshev-Lobatto points of [lo, hi] rounded to integers, kept inside the
    range with room for the others (distinct where hi - lo + 1 > count and the rounding keeps
    them apart)."""
    points, _ = chebyshev(count)
    span = hi - lo
    order = np.arange(count)
    return lo + np.clip(np.rint(points * span).astype(np.int64), order, span - order[::-1])


def integer_checks(lo: int, hi: int, count: int, mirrored: bool = False) -> NDArray[np.int64]:
    """The check points of :func:`chebyshev` (``count`` nodes) on [lo, hi] rounded to
    integers; ``mirrored``: their mirror images about the middle too (6 points)."""
    _, checks = chebyshev(count)
    if mirrored:
        checks = np.concatenate([checks, 1.0 - checks])
    return lo + np.rint(checks * (hi - lo)).astype(np.int64)


def barycentric(nodes: NDArray, values: NDArray, at: NDArray) -> NDArray[np.float64]:
    """Rows of the interpolating polynomial through (nodes, values) at ``at`` (all (k, .))."""
    scale = np.maximum(nodes[:, -1:] - nodes[:, :1], 1).astype(np.float64)
    t = (2.0 * nodes - nodes[:, :1] - nodes[:, -1:]) / scale  # in [-1, 1]
    gap = t[:, :, None] - t[:, None, :]
    diagonal = np.arange(t.shape[1])
    gap[:, diagonal, diagonal] = 1.0
    weight = 1.0 / np.prod(gap, axis=2)
    s = (2.0 * at - nodes[:, :1] - nodes[:, -1:]) / scale
    diff = s[:, :, None] - t[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.divide(weight[:, None, :], diff, out=diff)  # +-inf at a node
        total = c.sum(axis=2)
        out = np.einsum("kpj,kj->kp", c, values) / total
    on_node = ~np.isfinite(total)  # a point on a node: the node's value
    if on_node.any():
        row, point = np.nonzero(on_node)
        nearest = np.argmin(np.abs(s[row, point, None] - t[row]), axis=1)
        out[row, point] = values[row, nearest]
    return out


def lagrange(nodes: NDArray, at: NDArray) -> NDArray[np.float64]:
    """L[p, k]: the k-th Lagrange basis polynomial of the integer nodes at at[p]."""
    k = len(nodes)
    basis = barycentric(np.broadcast_to(nodes, (k, k)), np.eye(k),
                        np.broadcast_to(at, (k, len(at))).astype(np.float64))
    return basis.T
