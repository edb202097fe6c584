"""The covariance of two cells of a random table as a series over Hahn polynomials (docs/math.md#math-mi-lancaster).

For two cells X, Y of a table uniform given its margins, Cov(f(X), g(Y)) = sum_{k >= 1}
rho_k f_k g_k over the orthonormal (Hahn) polynomials of their hypergeometric laws, with
canonical correlations rho_k that are products of beta_k(s) = sqrt((s)_k / (N - s)_k) over the
sizes. This module computes the coefficients f_k of functions given on hypergeometric windows
(:func:`hahn_coefficients`) and the factors beta_k (:func:`correlation_factors`);
:mod:`mi_variance` sums the pairs.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["correlation_factors", "hahn_coefficients"]

# Rounding allowance per order, relative to E[f^2], added to the remainder E[f^2] - sum f_j^2
# after order k (k + 1 times it): each coefficient is accurate to ~13 eps sqrt(E[f^2]) at
# N <= 14 (tests/test_lancaster.py), so the sum of their squares drifts with the order.
_ROUNDING = 4 * float(np.finfo(np.float64).eps)


#: The shadow recurrence's perturbation of P_1 (absolute; P_1 is O(1) over the bulk).
_SHADOW = 2.0**-26
#: Rounding errors of the recurrence are taken as this many times the growth the shadow
#: shows, times the unit roundoff: the errors of every step, each amplified less than the
#: first step's, add up to a few times the first's where the growth is geometric.
_SAFETY = 4.0


def hahn_coefficients(n: int, a: NDArray[np.int64], b: NDArray[np.int64], x: NDArray[np.int64],
                      weight: NDArray[np.float64], values: NDArray[np.float64], energy: NDArray,
                      top: int, tolerance: float) -> tuple[NDArray, NDArray, NDArray]:
    """Coefficients of the functions ``values`` on the orthonormal polynomials of Hyp(n, a, b).

    Row r holds a function given at the positions ``x[r]`` with pmf ``weight[r]``, which is
    0 outside the row's window. ``energy[r]`` is sum weight * values^2, and the row is
    centred. Returns ``(coef, rest, last)``:

    * ``coef[k, r]`` = sum_p weight values P_k(x) for k = 1..top (shape (top + 1, rows);
      row 0 is 0).
    * ``rest[k, r]`` bounds sum_{j > k} coef[j, r]^2: energy - sum_{j <= k} coef^2, by
      Parseval, plus a rounding allowance that grows with k; 0 once the row is complete
      (its support has k + 1 points).
    * ``last[r]``: the last order whose coefficient is kept (top where every one is).

    P_k comes from the three-term recurrence of the Hahn polynomials (A_k, C_k and b_k of
    docs/math.md#math-mi-lancaster). Where a window cut short of the support lets the
    recurrence amplify its rounding, a shadow recurrence (P_1 perturbed by _SHADOW) shows that
    growth, and a row stops at the last order whose estimated error (unit roundoff x _SAFETY x
    the shadow's growth, summed with the pmf and |values|) is at most ``tolerance`` times
    sqrt(energy): its later coefficients are 0, its remainder that of ``last``.
    """
    rows = len(a)
    support = np.minimum(a, b) - np.maximum(0, a + b - n) + 1
    nf, af, bf = float(n), a.astype(np.float64), b.astype(np.float64)
    xf = x.astype(np.float64)
    weighted = weight * values
    magnitude = np.abs(weighted)
    allowed = tolerance * np.sqrt(energy)
    unit = float(np.finfo(np.float64).eps) * _SAFETY / _SHADOW
    coef = np.zeros((top + 1, rows))
    rest = np.empty((top + 1, rows))
    rest[0] = energy * (1.0 + _ROUNDING)
    last = np.full(rows, top)
    previous, current = np.zeros_like(xf), np.ones_like(xf)
    shadow_previous, shadow = previous, current
    step = np.zeros(rows)  # b_k
    spent = np.zeros(rows)
    stopped = energy <= 0.0
    last[stopped] = 0

    def upper(m: float) -> NDArray:  # A_m
        return (m - nf - 1.0) * (m - bf) * (af - m) / ((2.0 * m - nf - 1.0) * (2.0 * m - nf))

    def lower(m: float) -> NDArray:  # C_m
        return (m * (m - nf + af - 1.0) * (m + bf - nf - 1.0)
                / ((2.0 * m - nf - 2.0) * (2.0 * m - nf - 1.0)))

    below = 0.0  # C_k (C_0 = 0)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for k in range(top):
            alive = (k + 1 < support) & ~stopped
            if not alive.any():
                rest[k + 1:] = rest[k]
                break
            above, following = upper(float(k)), lower(float(k) + 1.0)
            centre = np.where(alive, above + below, 0.0)[:, None]
            norm = np.sqrt(np.where(alive, above * following, 1.0))[:, None]
            recurrence = (xf, centre, step[:, None], norm)
            polynomial = _advance(current, previous, *recurrence)
            shadow_next = (polynomial + _SHADOW if k == 0
                           else _advance(shadow, shadow_previous, *recurrence))
            value = np.einsum("rp,rp->r", weighted, polynomial)
            error = unit * np.einsum("rp,rp->r", magnitude, np.abs(shadow_next - polynomial))
            kept = alive & (error <= allowed)
            stopped |= alive & ~kept
            last[alive & ~kept] = k
            value = np.where(kept, value, 0.0)
            coef[k + 1] = value
            spent += value * value
            remainder = np.maximum(energy - spent, 0.0) + (k + 2) * _ROUNDING * energy
            remainder = np.where(k + 2 >= support, 0.0, remainder)  # complete
            rest[k + 1] = np.where(kept, remainder, rest[k])
            previous, current = current, polynomial
            shadow_previous, shadow = shadow, shadow_next
            step = np.where(alive, norm[:, 0], 0.0)
            below = following
    return coef, rest, last


def _advance(now: NDArray, before: NDArray, x: NDArray, centre: NDArray, step: NDArray,
             norm: NDArray) -> NDArray[np.float64]:
    """P_{k+1} = ((x - (A_k + C_k)) P_k - b_k P_{k-1}) / b_{k+1}: one step of the recurrence."""
    return ((x - centre) * now - step * before) / norm


def correlation_factors(sizes: NDArray[np.int64], n: int, top: int) -> NDArray[np.float64]:
    """beta_k(s) = sqrt((s)_k / (n - s)_k) for k = 0..top (rows) and each size (columns).

    It is 0 where s < k or n - s < k. There (s)_k = 0, or every partner s' <= n - s has
    (s')_k = 0, so every product of factors that enters a canonical correlation is 0. The
    ratio is a sum of k logarithms of ratios, which keeps it accurate at large N (a
    difference of log-gamma values would not).
    """
    s = sizes.astype(np.float64)[None, :]
    m = np.arange(top, dtype=np.float64)[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        logs = np.log((s - m) / (float(n) - s - m))
    logs = np.where((s > m) & (float(n) - s > m), logs, -np.inf)
    out = np.zeros((top + 1, sizes.size))
    out[1:] = np.exp(0.5 * np.cumsum(logs, axis=0))
    out[0] = 1.0
    return out
