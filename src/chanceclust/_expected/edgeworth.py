"""The num model's saddle-point (Edgeworth) expansions: series of the zero-truncated Poisson law.

Where the lattice variance K Var X is at least ``LATTICE_EXPANSION_FROM`` the num model's
size law (``laws._edgeworth_size_law``) and curvature (``curvature._stirling2_curvature_expansion``)
come from the saddle-point expansion of P(X_1 + ... + X_m = x), X_i zero-truncated Poisson.
Both need the pieces built here once, as truncated Taylor series (:mod:`taylor`) in the tilt
e = log rho' - log rho (docs/math.md#math-rand-variance): the mean, the cumulants and the log
of the Edgeworth series at the mean (three terms, truncation ~(m kappa_2)^-4).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.taylor import (
    series_exp,
    series_log,
    series_mul,
    series_power,
    series_reciprocal,
)

__all__ = [
    "LATTICE_EXPANSION_FROM",
    "edgeworth_log_correction",
    "ztp_cumulant_series",
    "ztp_mean_series",
]

# The switch of the module docstring (K Var X at the saddle point): the expansions' truncation
# error ~(K Var X)^-4 is below 1e-14 from there.
LATTICE_EXPANSION_FROM = 1000.0
# Taylor coefficients of mu(theta) kept by the curvature's expansion: kappa_2 .. kappa_8 to
# second order.
SERIES_LENGTH = 10
# Below this rate the mean rho / (1 - e^-rho) is summed from its Bernoulli series (its
# derivatives are O(rho) and would cancel in the quotient).
BERNOULLI_BELOW = 0.5
_BERNOULLI_TERMS = 40


@cache
def _bernoulli_over_factorial(count: int) -> tuple[float, ...]:
    """B_j^+ / j! for j = 0 .. count (B_1^+ = +1/2), each correctly rounded from exact fractions.

    The Taylor coefficients of z / (1 - e^-z) = 1 / sum_i (-z)^i / (i + 1)!, by the
    reciprocal recurrence in rationals (no scipy.special import).
    """
    denominator = [Fraction((-1) ** i, math.factorial(i + 1)) for i in range(count + 1)]
    coefs = [Fraction(1)]
    for j in range(1, count + 1):
        coefs.append(-sum(denominator[i] * coefs[j - i] for i in range(1, j + 1)))
    return tuple(float(c) for c in coefs)


def ztp_mean_series(rho: NDArray[np.float64], length: int = SERIES_LENGTH) -> NDArray[np.float64]:
    """Taylor coefficients in e of mu(log rho + e), mu(rho) = rho / (1 - e^-rho), per rho."""
    fact = np.array([math.factorial(j) for j in range(length)], dtype=np.float64)
    rate = rho[:, None] / fact  # rho e^e
    shift = rate.copy()
    shift[:, 0] = 0.0
    empty = series_exp(-shift) * np.exp(-rho)[:, None]  # e^-(rho e^e)
    occupied = -empty
    occupied[:, 0] = -np.expm1(-rho)
    mean = series_mul(rate, series_reciprocal(occupied))
    small = rho < BERNOULLI_BELOW
    if small.any():  # mu = sum_j b_j rho^j e^(j e), b_j = B_j^+ / j!
        j = np.arange(1, _BERNOULLI_TERMS + 1)
        b = np.array(_bernoulli_over_factorial(_BERNOULLI_TERMS)[1:])
        terms = b * rho[small][:, None] ** j  # (points, j)
        mean[small] = terms @ (j[:, None] ** np.arange(length)[None, :] / fact)
        mean[small, 0] += 1.0
    return mean


def ztp_cumulant_series(mean: NDArray[np.float64], length: int) -> tuple[dict, dict]:
    """({r: kappa_r}, {r: lam_r}) as series in e of ``length`` terms, from :func:`ztp_mean_series`.

    kappa_r(theta) = (d/dtheta)^(r-1) mu and lam_r = kappa_r / kappa_2^(r/2), r = 3..8;
    coefficients beyond those that ``mean`` determines are left 0 (the callers use
    them only at orders where they are negligible).
    """
    fact = np.array([math.factorial(j) for j in range(mean.shape[-1] + 1)], dtype=np.float64)
    kappa = {}
    for r in range(2, 9):
        known = min(length, mean.shape[-1] - (r - 1))
        order = np.arange(known)
        series = np.zeros((*mean.shape[:-1], length))
        series[..., :known] = mean[..., r - 1 : r - 1 + known] * (fact[order + r - 1] / fact[order])
        kappa[r] = series
    lam = {r: series_mul(kappa[r], series_power(kappa[2], -r / 2)) for r in range(3, 9)}
    return kappa, lam


def edgeworth_log_correction(lam: dict, count: float) -> NDArray[np.float64]:
    """log[sqrt(2 pi m kappa_2) P(S_m = its mean)] for a sum of m = ``count`` summands.

    The log of 1 + A_1/m + A_2/m^2 + A_3/m^3 (:func:`_edgeworth_at_mean`), a series in
    e like ``lam``.
    """
    correction = np.zeros_like(lam[3])
    correction[..., 0] = 1.0
    for power, term in enumerate(_edgeworth_at_mean(lam), start=1):
        correction = correction + term / count**power
    return series_log(correction)


def _edgeworth_at_mean(lam: dict) -> list:
    """The 1/k, 1/k^2, 1/k^3 terms of sqrt(2 pi k kappa_2) P(S_k = its mean) (series in e).

    lam[r] = kappa_r / kappa_2^(r/2), the standardized cumulants of one summand:
    the Gaussian moments of exp(sum_r lam_r (i z)^r k^(1-r/2) / r!) (the
    Edgeworth expansion at the mean, where the odd orders vanish).
    """
    mul = series_mul
    l3, l4, l5, l6, l7, l8 = (lam[r] for r in range(3, 9))
    l3_2, l4_2 = mul(l3, l3), mul(l4, l4)
    l3_4 = mul(l3_2, l3_2)
    first = l4 / 8 - 5 * l3_2 / 24
    second = (
        385 * l3_4 / 1152 - 35 * mul(l3_2, l4) / 64 + 7 * mul(l3, l5) / 48
        + 35 * l4_2 / 384 - l6 / 48
    )
    third = (
        -85085 * mul(l3_4, l3_2) / 82944 + 25025 * mul(l3_4, l4) / 9216
        - 1001 * mul(mul(l3_2, l3), l5) / 1152 - 5005 * mul(l3_2, l4_2) / 3072
        + 77 * mul(l3_2, l6) / 384 + 77 * mul(mul(l3, l4), l5) / 128 - mul(l3, l7) / 32
        + 385 * mul(l4_2, l4) / 3072 - 7 * mul(l4, l6) / 128 - 21 * mul(l5, l5) / 640 + l8 / 384
    )
    return [first, second, third]


