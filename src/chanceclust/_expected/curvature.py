"""The num model's curvature: log[S(n-2,k) S(n,k) / S(n-1,k)^2], by three routes.

Var[RI] under num with small clusters needs P(two given pairs both co-clustered) =
p1^2 exp(c), c the second difference of log S(., k) (docs/math.md#math-rand-variance).
:func:`stirling2_ratio_curvature` picks one of three routes (asymptotic expansion, exact
integers, Fourier trapezoid sums): their switches are in the engine map
(``_expected/__init__.py``), their accuracy in the table of docs/math.md#math-routes.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.edgeworth import (
    LATTICE_EXPANSION_FROM,
    edgeworth_log_correction,
    ztp_cumulant_series,
    ztp_mean_series,
)
from chanceclust._expected.elementary import truncated_poisson_rate
from chanceclust._expected.lattice import (
    SMALL_RATE_BELOW,
    TAIL_LOG,
    log_cf_ztp_large,
    log_cf_ztp_small,
    log_h_real,
    surjection_counts,
    trapezoid_nodes,
    ztp_saddle,
)

__all__ = ["CURVATURE_EXACT_MAX_NK", "stirling2_ratio_curvature"]

# Below LATTICE_EXPANSION_FROM: exact integers while n k is at most this, Fourier sums beyond.
CURVATURE_EXACT_MAX_NK = 10**6
# Triangular-kernel Gauss-Legendre nodes on each half of [-1, 1] (the second difference).
_DIFFERENCE_NODES = 8


def stirling2_ratio_curvature(n: int, k: int) -> float:
    """log[S(n-2,k) S(n,k) / S(n-1,k)^2], the second difference of log S(., k) at n - 1.

    For 2 <= k <= n - 2; picks the route (docs/math.md#math-rand-variance and #math-routes).
    The Fourier route cancels between log(n/(n-1)) and the lattice term: <= 3e-13 where used,
    but 1.3e-12 for small k at mean sizes ~5 (numpy 1.24) and up to 1e-7 for large k, hence
    the other routes there. Tested contract: 1e-12 relative.
    """
    if ztp_saddle(n - 1, k)[2] >= LATTICE_EXPANSION_FROM:
        return _stirling2_curvature_expansion(n, k)
    if n * k <= CURVATURE_EXACT_MAX_NK:
        return _stirling2_curvature_exact(n, k)
    return _stirling2_curvature_fourier(n, k)


def _stirling2_curvature_exact(n: int, k: int) -> float:
    """The curvature from exact integers T_i = k! S(n - i, k): log1p of an exact rational.

    O(k) powers of n log2(k) bits: ~30 ms at n k = 10^6.
    """
    t0, t1, t2 = surjection_counts(n, k, 3)
    return math.log1p(Fraction(t0 * t2 - t1 * t1, t1 * t1))


def _stirling2_curvature_fourier(n: int, k: int) -> float:
    """The curvature from trapezoid sums of the characteristic function (see the caller)."""
    nf, kf = float(n - 1), float(k)
    _, rate, var = ztp_saddle(n - 1, k)
    rho = np.array([rate])
    log_h_rho = log_h_real(rho)
    _, step, half, count = trapezoid_nodes(math.sqrt(var))
    kk, mm, nn = np.array([[kf]]), np.array([[nf - kf]]), np.array([[nf]])
    while True:
        t = step * np.arange(1.0, count + 1.0)[None, :]
        if rho[0] < SMALL_RATE_BELOW:
            re, im = log_cf_ztp_small(rho[:, None], kk, mm, log_h_rho[:, None], t)
        else:
            log_em1 = log_h_rho + np.log(rho)
            re, im = log_cf_ztp_large(rho[:, None], kk, nn, log_em1[:, None], t)
        if re[0, -1] < TAIL_LOG or count == half:
            break
        count = min(half, 2 * count)
    cf_re, cf_im = np.exp(re) * np.cos(im), np.exp(re) * np.sin(im)
    t = t[0]
    cos_m1 = -2.0 * np.sin(0.5 * t) ** 2  # cos t - 1 without cancellation
    level = 1.0 + 2.0 * float(np.sum(cf_re))  # M L(n-1)
    even = 2.0 * float(np.sum(cf_re[0] * cos_m1))
    odd = 2.0 * float(np.sum(cf_im[0] * np.sin(t)))
    up, down = (even + odd) / level, (even - odd) / level  # L(n-1 +- 1)/L(n-1) - 1
    second = 2.0 * even / level  # (L(n) - 2L(n-1) + L(n-2))/L(n-1)
    return math.log1p(second + up * down) - math.log1p(-1.0 / n)


def _curvature_density(excess: NDArray[np.float64], k: float) -> NDArray[np.float64]:
    """H''(x) at x = k + excess: the smooth part of d^2/dx^2 log T(x, k) (see the caller)."""
    rho = truncated_poisson_rate(excess / k)
    # kappa_r(theta) = (d/dtheta)^(r-1) mu: its series from mu's, to second order.
    kappa, lam = ztp_cumulant_series(ztp_mean_series(rho), 3)
    log_correction = edgeworth_log_correction(lam, k)
    c1, c2 = log_correction[:, 1], 2.0 * log_correction[:, 2]
    k2, k3, k4 = kappa[2][:, 0], kappa[3][:, 0], kappa[4][:, 0]
    lattice = (k3 * k3 / (k2 * k2) - 0.5 * k4 / k2 + c2 - c1 * k3 / k2) / (k * k * k2 * k2)
    poisson_gap = -rho / (np.expm1(rho) * k * k2)  # 1/x - 1/(k kappa_2), without cancellation
    return poisson_gap + lattice


def _stirling2_curvature_expansion(n: int, k: int) -> float:
    """The curvature by its asymptotic expansion in 1/(k Var X) (docs/math.md#math-rand-variance).

    D(m) plus an 8+8-node Gauss-Legendre rule for the integral of (1 - |u|) H''(m + u);
    relative error <= 1e-14 against exact integers and 40-digit inclusion-exclusion.
    """
    m = float(n - 1)
    base = float(n - 1 - k)  # x - k at the nodes, exactly from integers
    nodes, weights = np.polynomial.legendre.leggauss(_DIFFERENCE_NODES)
    u = 0.5 * (nodes + 1.0)
    kernel = 0.5 * weights * (1.0 - u)
    density = _curvature_density(np.concatenate([base + u, base - u]), float(k))
    powers = np.arange(2, 13)
    stirling = np.where(powers % 2 == 0, -1.0 / powers, (powers - 1.0) / (powers * (powers + 1.0)))
    return float(np.sum(stirling / m**powers)) + float(np.concatenate([kernel, kernel]) @ density)
