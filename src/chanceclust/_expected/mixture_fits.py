"""Mixture sums of slot deviances D(a, u) through polynomial fits in log u (docs/math.md#math-fits).

sum_u c_u D(a, u) for every size a, and sum c_A c_B D(N, u_A u_B) for two random sides, as
sum_j b_j E_c[t^j] with a degree-16 Chebyshev fit in t = log u at 40 integer nodes; every fit
is checked at its nodes (residual <= 1e-13 of the largest value), else the exact sum is used.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numpy.polynomial import chebyshev
from numpy.typing import NDArray

from chanceclust._expected.elementary import unique
from chanceclust._expected.laws import SlotMixture

_DEGREE = 16
FIT_NODES = 40
_RESIDUAL = 1e-13
# Chebyshev coefficients -> power coefficients, column j is T_j in the power basis.
_CHEB_TO_POWER = np.zeros((_DEGREE + 1, _DEGREE + 1))
for _j in range(_DEGREE + 1):
    _column = chebyshev.cheb2poly(np.eye(_DEGREE + 1)[_j])
    _CHEB_TO_POWER[: len(_column), _j] = _column


def _nodes(lo: int, hi: int) -> NDArray | None:
    """Distinct integers near Chebyshev points of [log lo, log hi], or None if too few.

    Beyond 2**62 (joint slots of two-sided ``all`` at huge N) the nodes are the
    real Chebyshev points themselves: D(a, u) is smooth in real u.
    """
    if hi - lo < 4 * FIT_NODES:
        return None
    x = np.cos(np.pi * (np.arange(FIT_NODES) + 0.5) / FIT_NODES)
    log_lo, log_hi = np.log(float(lo)), np.log(float(hi))  # Python ints beyond 2**63 too
    center, half = 0.5 * (log_hi + log_lo), 0.5 * (log_hi - log_lo)
    if hi >= 2**62:
        return np.sort(np.exp(center + half * x))
    nodes = unique(np.clip(np.rint(np.exp(center + half * x)), lo, hi).astype(np.int64))
    return nodes if len(nodes) > _DEGREE + 8 else None


def _fit(
    values: NDArray[np.float64], nodes: NDArray[np.int64], center: float, half: float
) -> NDArray[np.float64] | None:
    """Power coefficients (degree+1, columns) in t = (log u - center)/half, or None."""
    x = (np.log(nodes) - center) / half
    cheb = chebyshev.chebfit(x, values, _DEGREE)
    residual = np.abs(chebyshev.chebval(x, cheb).T - values).max(axis=0)
    if np.any(residual > _RESIDUAL * np.abs(values).max(axis=0)):
        return None
    return _CHEB_TO_POWER @ cheb


def _centered_moments(
    mixture: SlotMixture, center: float, count: int
) -> NDArray[np.float64]:
    """sum_u c_u (log u - center)^j for j = 0 .. count - 1."""
    t = np.log(mixture.slots.astype(np.float64)) - center
    powers = np.cumprod(np.vstack([np.ones_like(t)] + [t] * (count - 1)), axis=0)
    return powers @ mixture.coefs


def _span(mixture: SlotMixture) -> tuple[float, float]:
    lo, hi = float(mixture.slots.min()), float(mixture.slots.max())
    return 0.5 * (np.log(hi) + np.log(lo)), 0.5 * (np.log(hi) - np.log(lo))


def fitted_mixture_sums(
    sizes: NDArray[np.int64], mixture: SlotMixture, deviance_of
) -> NDArray[np.float64] | None:
    """sum_u c_u D(a, u) for each size a by fits in log u, or None when not applicable.

    ``deviance_of(a, u)`` evaluates D on paired arrays (the exact kernel).
    """
    lo, hi = int(np.ceil(mixture.slots.min())), int(mixture.slots.max())
    nodes = _nodes(lo, hi)
    if nodes is None:
        return None
    center, half = _span(mixture)
    a, u = np.meshgrid(sizes, nodes, indexing="ij")
    values = deviance_of(a.ravel(), u.ravel()).reshape(a.shape).T  # (nodes, sizes)
    power = _fit(values, nodes, center, half)
    if power is None:
        return None
    moments = _centered_moments(mixture, center, _DEGREE + 1) / half ** np.arange(_DEGREE + 1)
    return moments @ power


def fitted_joint_sum(
    n: int, mix_a: SlotMixture, mix_b: SlotMixture, deviance_of
) -> float | None:
    """sum c_A c_B D(N, u_A u_B) by one fit in log(u_A u_B), or None when not applicable."""
    lo = int(np.ceil(mix_a.slots.min())) * int(np.ceil(mix_b.slots.min()))
    hi = int(mix_a.slots.max()) * int(mix_b.slots.max())
    nodes = _nodes(lo, hi)
    if nodes is None:
        return None
    center_a, half_a = _span(mix_a)
    center_b, half_b = _span(mix_b)
    center, half = center_a + center_b, half_a + half_b
    values = deviance_of(np.full(len(nodes), n), nodes)
    power = _fit(values[:, None], nodes, center, half)
    if power is None:
        return None
    count = _DEGREE + 1
    moments_a = _centered_moments(mix_a, center_a, count)
    moments_b = _centered_moments(mix_b, center_b, count)
    # E[(x + y)^j] for independent x, y by the binomial theorem.
    joint = np.array(
        [
            sum(comb(j, i) * moments_a[i] * moments_b[j - i] for i in range(j + 1))
            for j in range(count)
        ]
    )
    return float((joint / half ** np.arange(count)) @ power[:, 0])
