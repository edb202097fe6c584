"""The covariance of two cells of a random table as a series over Hahn polynomials (docs/math.md#math-mi-lancaster).

Given both size sequences, a table is uniform among those with these margins. A cell of
row size a and column size b is X ~ Hyp(N, a, b). Let P_k be the orthonormal polynomials of
that law (the Hahn polynomials), and Q_k those of another cell Y. Then, for the pairs of
cells that share a row, a column or neither, E[Q_k(Y) | X] = rho_k P_k(X). So

    Cov(f(X), g(Y)) = sum_{k >= 1} rho_k f_k g_k,    f_k = E[f(X) P_k(X)],  g_k = E[g(Y) Q_k(Y)],

a Lancaster expansion, with canonical correlations that factor over the four sizes:

* same row (b, b' in different columns): rho_k = (-1)^k beta_k(b) beta_k(b');
* same column: rho_k = (-1)^k beta_k(a) beta_k(a');
* neither: rho_k = beta_k(a) beta_k(a') beta_k(b) beta_k(b');

where beta_k(s) = sqrt((s)_k / (N - s)_k), with (s)_k the falling factorial. |rho_k| <= 1
and does not grow with k. This module computes the coefficients f_k of functions given on
hypergeometric windows (:func:`hahn_coefficients`) and the factors beta_k
(:func:`correlation_factors`); :mod:`mi_variance` sums the pairs.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["correlation_factors", "hahn_coefficients"]

# Rounding allowance, relative to E[f^2], added to every remainder E[f^2] - sum f_j^2.
_ROUNDING = 4 * float(np.finfo(np.float64).eps)


def hahn_coefficients(n: int, a: NDArray[np.int64], b: NDArray[np.int64], x: NDArray[np.int64],
                      weight: NDArray[np.float64], values: NDArray[np.float64], energy: NDArray,
                      top: int, floor: float) -> tuple[NDArray, NDArray]:
    """Coefficients of the functions ``values`` on the orthonormal polynomials of Hyp(n, a, b).

    Row r holds a function given at the positions ``x[r]`` with pmf ``weight[r]``, which is
    0 outside the row's window. ``energy[r]`` is sum weight * values^2, and the row is
    centred. Returns ``(coef, rest)``, each of shape (top + 1, rows):

    * ``coef[k, r]`` = sum_p weight values P_k(x) for k = 1..top. Row 0 is 0.
    * ``rest[k, r]`` bounds sum_{j > k} coef[j, r]^2. It is energy - sum_{j <= k} coef^2,
      by Parseval, plus a rounding allowance.

    P_k comes from the three-term recurrence of the Hahn polynomials:
    x P_k = b_{k+1} P_{k+1} + (A_k + C_k) P_k + b_k P_{k-1}, with b_k^2 = A_{k-1} C_k,
    A_k = (k - N - 1)(k - b)(a - k) / ((2k - N - 1)(2k - N)) and
    C_k = k (k - N + a - 1)(k + b - N - 1) / ((2k - N - 2)(2k - N - 1)).

    A row is complete after degree k when its support has k + 1 points. It is frozen after
    the first degree whose remainder is at most ``floor`` times its energy. A frozen row
    keeps that remainder as its bound, and its later coefficients are 0. Forward recurrences
    of high degree lose accuracy on windows cut short of the support, so freezing also keeps
    their noise out.
    """
    rows = len(a)
    support = np.minimum(a, b) - np.maximum(0, a + b - n) + 1
    nf, af, bf = float(n), a.astype(np.float64), b.astype(np.float64)
    xf = x.astype(np.float64)
    weighted = weight * values
    coef = np.zeros((top + 1, rows))
    rest = np.empty((top + 1, rows))
    rest[0] = energy * (1.0 + _ROUNDING)
    previous, current = np.zeros_like(xf), np.ones_like(xf)
    step = np.zeros(rows)  # b_k
    spent = np.zeros(rows)
    frozen = energy <= 0.0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for k in range(top):
            alive = (k + 1 < support) & ~frozen
            if not alive.any():
                rest[k + 1:] = rest[k]
                break
            m = float(k)
            upper = (m - nf - 1.0) * (m - bf) * (af - m) / ((2.0 * m - nf - 1.0) * (2.0 * m - nf))
            lower = (m * (m - nf + af - 1.0) * (m + bf - nf - 1.0)
                     / ((2.0 * m - nf - 2.0) * (2.0 * m - nf - 1.0))) if k else 0.0
            m += 1.0
            following = (m * (m - nf + af - 1.0) * (m + bf - nf - 1.0)
                         / ((2.0 * m - nf - 2.0) * (2.0 * m - nf - 1.0)))
            centre = np.where(alive, upper + lower, 0.0)
            norm = np.sqrt(np.where(alive, upper * following, 1.0))
            following_poly = (xf - centre[:, None]) * current
            following_poly -= step[:, None] * previous
            following_poly /= norm[:, None]
            value = np.einsum("rp,rp->r", weighted, following_poly)
            value = np.where(alive, value, 0.0)
            coef[k + 1] = value
            spent += value * value
            remainder = np.maximum(energy - spent, 0.0) + _ROUNDING * energy
            # Complete rows have nothing left; frozen rows keep their bound.
            remainder = np.where(k + 2 >= support, 0.0, remainder)
            rest[k + 1] = np.where(alive, remainder, rest[k])
            frozen |= alive & (remainder <= floor * energy)
            previous, current, step = current, following_poly, np.where(alive, norm, 0.0)
    return coef, rest


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
