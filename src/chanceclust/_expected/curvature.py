"""The num model's curvature: log[S(n-2,k) S(n,k) / S(n-1,k)^2], by three routes.

Var[RI] under num with small clusters needs P(two given pairs both co-clustered) =
p1^2 exp(c), c the second difference of log S(., k) (docs/math.md#math-rand-variance).
:func:`stirling2_ratio_curvature` picks the route:

* lattice variance k Var X >= ``edgeworth.LATTICE_EXPANSION_FROM`` (1000): the asymptotic
  expansion :func:`_stirling2_curvature_expansion` (relative error <= 4e-15 measured);
* otherwise, n k <= ``CURVATURE_EXACT_MAX_NK`` (10^6): exact integers,
  :func:`_stirling2_curvature_exact` (one rounding);
* otherwise: trapezoid sums of the characteristic function,
  :func:`_stirling2_curvature_fourier` (<= 3e-13 relative where used).
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

# Below LATTICE_EXPANSION_FROM, exact integers while n k is at most this (small k with mean
# sizes of a few, where the Fourier sums lose up to ~1e-12 on some platforms); the Fourier sums
# beyond (mean sizes near 1: k Var X < 1000 with n k > 10^6 leaves rho < ~2, where they hold
# ~3e-13).
CURVATURE_EXACT_MAX_NK = 10**6
# Triangular-kernel Gauss-Legendre nodes on each half of [-1, 1] (the second difference).
_DIFFERENCE_NODES = 8


def stirling2_ratio_curvature(n: int, k: int) -> float:
    """log[S(n-2,k) S(n,k) / S(n-1,k)^2], the second difference of log S(., k) at n - 1.

    For 2 <= k <= n - 2. The ratio r(n) = S(n-1,k)/S(n,k) is the probability
    that two given elements share a cluster of a uniform k-clustering, and
    r(n-1)/r(n) = exp(this), so r(n)^2 expm1(this) = r(n) (r(n-1) - r(n)) is the
    covariance of two pairs' co-clustering indicators without the cancellation
    of r(n-1) - r(n) (an O(1/n) relative difference).

    Where the variance k Var X of the lattice sum below is at least
    ``LATTICE_EXPANSION_FROM`` (every large k, unless n - k is small), the
    asymptotic expansion of :func:`_stirling2_curvature_expansion`: relative
    error <= 4e-15 measured against exact and 40-digit references. Below it,
    exact integers where n k <= 10^6 (:func:`_stirling2_curvature_exact`),
    otherwise (mean cluster sizes near 1) the Fourier sums:

    With one saddle point rho for the mean (n-1)/k and L(m) = P(X_1 + .. + X_k = m)
    for X_i i.i.d. zero-truncated Poisson(rho), the exact identity of
    :func:`chanceclust.special.log_stirling2` gives log S(m,k) = log m! - m log rho + log L(m) + c,
    so the result is log(n/(n-1)) + log[L(n) L(n-2) / L(n-1)^2]. The
    differences L(n-1 +- 1) - L(n-1) and the second difference are trapezoid
    sums of the characteristic function times e^(-+it) - 1 and 2 cos t - 2,
    so none of them is a difference of rounded probabilities. What is left
    cancels between log(n/(n-1)) and the lattice term (both ~1/n, their
    difference ~ rho e^-rho / n); measured relative error <= 3e-13 where
    this route is used (k Var X < 1000, n k > 10^6; numpy 1.24 to 2.5), but
    1.3e-12 for small k at mean sizes ~5 on numpy 1.24 and up to 1e-7 for
    large k (n = 10^6, k = 10^5), hence the other routes there. Tested
    contract of the whole function: 1e-12 relative.
    """
    if ztp_saddle(n - 1, k)[2] >= LATTICE_EXPANSION_FROM:
        return _stirling2_curvature_expansion(n, k)
    if n * k <= CURVATURE_EXACT_MAX_NK:
        return _stirling2_curvature_exact(n, k)
    return _stirling2_curvature_fourier(n, k)


def _stirling2_curvature_exact(n: int, k: int) -> float:
    """The curvature from exact integers: k! S(m, k) = sum_j (-1)^j C(k, j) (k - j)^m.

    log[T0 T2 / T1^2] = log1p((T0 T2 - T1^2) / T1^2) with T_i = k! S(n - i, k): the
    difference is an exact integer, so the only rounding is the final one (then
    log1p's). O(k) powers of n log2(k) bits: ~30 ms at n k = 10^6.
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
    """log[S(n-2,k) S(n,k) / S(n-1,k)^2] by an asymptotic expansion in 1/(k Var X).

    With T(m, k) = k! S(m, k) / k^m (the probability that m uniform labels
    use all k), the result is the second difference of log T(., k) at
    m = n - 1 (the k^m cancel). Poissonizing with any rate rho,
    T(m, k) = (1 - e^-rho)^k L(m) m! e^(k rho) / (k rho)^m, L the pmf of a sum
    of k i.i.d. zero-truncated Poisson(rho). With rho = rho(x) the saddle
    point of the real x (k E[X] = x) this is log T(x) = log Gamma(x + 1) +
    F(x) + G(x), F(x) = k log(1 - e^-rho) + k rho - x log(k rho), whose second
    derivative is -1/(k kappa_2) (envelope theorem), and G(x) = log L(x) at
    the mean, -log(2 pi k kappa_2)/2 plus the Edgeworth series at the mean
    (three terms, truncation ~(k kappa_2)^-4). Then

        Delta^2 log T(m) = D(m) + int_{-1}^{1} (1 - |u|) H''(m + u) du,

    D(m) = Delta^2[log Gamma(x + 1) - x log x + x] = -sum_{p even} 1/(p m^p) +
    sum_{p odd >= 3} (p - 1)/(p (p + 1) m^p), and H'' = (1/x - 1/(k kappa_2))
    + G''(x): the first is -rho / (expm1(rho) k kappa_2) exactly (E[X] -
    Var X = rho E[X] / expm1(rho)), and G'' comes from the cumulants kappa_r
    = (d/d log rho)^(r-1) E[X] as truncated Taylor series (no finite
    differences). Nothing cancels beyond a factor ~e^rho / (rho^2 k) <= 0.1
    where it is used (the size-law regime, e^rho < ~1.5 k). The integral is
    an 8+8-node Gauss-Legendre rule, exact for H'' of degree 15 (H'' varies
    on the scale of k). Measured relative error <= 1e-14 against exact
    integers (n <= 4000, k from 1000 to n - 500, n = 10^5 .. 10^15 with n - k
    = 1000) and 40-digit inclusion-exclusion (n to 2.2 * 10^6).
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
