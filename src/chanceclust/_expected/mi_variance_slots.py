"""Var[MI] with a fixed reference against a slot mixture (one-sided num and all at any N).

docs/math.md#math-mi-variance. Given u, the random clustering B is N i.i.d. uniform labels
on u values, so the rows of the table are independent multinomials, n_i. ~ Mult(a_i, 1/u),
and (docs/math.md#math-collapsed-sums)

    T = N MI = sum_i R_i - C,  R_i = sum_j bd0(n_ij, a_i/u),  C = sum_j bd0(b_j, N/u).

Rows are independent given u, so

    Var_u(T) = sum_i Var R_i - 2 sum_i Cov(R_i, C) + Var C,

with, for X1, X2 two cells of one row (X2 | X1 = x ~ Binomial(a - x, 1/(u - 1))),
Var R = u Var f(X1) + u (u - 1) Cov(f(X1), f(X2)), f = bd0(., a/u), and, since
E[C | row i] = sum_j h(n_ij) with h(x) = E bd0(x + M, N/u), M ~ Binomial(N - a, 1/u),
Cov(R, C) = u Cov(f(X1), h(X1)) + u (u - 1) Cov(f(X1), h(X2)). Over the mixture,
Var T = sum_u c_u Var_u(T) + sum_u c_u (E_u[T] - E[T])^2 (the weights sum to 1; an identity
also for the signed weights of num). Real slots (Stam's quadrature from N = 10^4) are fine:
every term is a smooth function of u.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.laws import SizeLaw, SlotMixture
from chanceclust._expected.pmfs import deviance, stirlerr
from chanceclust._expected.mi_variance import _two_way
from chanceclust._expected.windows import tail_halfwidth

__all__ = ["one_sided_slot_variance"]


def _binom_rows(n: NDArray, p: float, start: NDArray, width: int) -> NDArray[np.float64]:
    """Binomial(n, p) pmf at start + 0..width-1 per row (n, start int arrays), 0 outside [0, n].

    Anchored at the clipped mode by Loader's form (no large logarithm cancels), carried by
    the exact ratios (n - k) p / ((k + 1) q).
    """
    n = np.asarray(n, dtype=np.int64).ravel()
    start = np.broadcast_to(np.asarray(start, dtype=np.int64), n.shape).ravel()
    lo, hi = np.maximum(start, 0), np.minimum(start + width - 1, n)
    out = np.zeros((len(n), width))
    ok = lo <= hi
    if not ok.any():
        return out
    n, start, lo, hi = n[ok], start[ok], lo[ok], hi[ok]
    q = 1.0 - p
    if q <= 0.0:  # p = 1 (u = 2 in a conditional row): X = n
        rows = np.flatnonzero(ok)
        inside = (n >= start) & (n < start + width)
        out[rows[inside], (n - start)[inside]] = 1.0
        return out
    mode = np.clip(np.floor((n + 1) * p).astype(np.int64), lo, hi)
    nf, kf = n.astype(np.float64), mode.astype(np.float64)
    mean = nf * p
    with np.errstate(divide="ignore"):
        log2pi = np.log(2.0 * np.pi)
        parts = (
            stirlerr(nf) - stirlerr(kf) - stirlerr(nf - kf)
            - deviance(kf, mean, kf - mean) - deviance(nf - kf, nf * q, (nf - kf) - nf * q)
            + 0.5 * (np.log(nf) - np.where(kf > 0, np.log(kf), 0.0)
                     - np.where(nf > kf, np.log(nf - kf), 0.0) - log2pi)
        )
    # The sqrt factor has no k = 0 or k = n part: C(n, 0) p^0 q^n = exp(-bd0(n, nq)).
    edge = (mode == 0) | (mode == n)
    parts = np.where(edge, -deviance(kf, mean, kf - mean) - deviance(nf - kf, nf * q, (nf - kf) - nf * q), parts)
    anchor = np.exp(parts)
    t = start[:, None].astype(np.float64) + np.arange(width - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (nf[:, None] - t) * p / ((t + 1.0) * q)
    t += 0.5
    ratio[(t < lo[:, None]) | (t > hi[:, None])] = 1.0
    product = np.empty((len(n), width))
    product[:, 0] = 1.0
    np.cumprod(ratio, axis=1, out=product[:, 1:])
    at_mode = product[np.arange(len(n)), mode - start]
    scale = anchor / at_mode
    bad = ~np.isfinite(product).all(axis=1) | ~np.isfinite(scale) | (at_mode == 0)
    product *= scale[:, None]
    if bad.any():  # a huge range of values on the row: carry it from the mode both ways
        product[bad] = _two_way(ratio[bad], (mode - start)[bad], anchor[bad])
    column = np.arange(width)
    product[(column < (lo - start)[:, None]) | (column > (hi - start)[:, None])] = 0.0
    out[ok] = product
    return out


def _window(n: int, p: float) -> tuple[int, int]:
    mean = n * p
    half = float(tail_halfwidth(np.array([mean * (1.0 - p)]))[0])
    return max(0, int(np.floor(mean - half))), min(n, int(np.ceil(mean + half)))


def _row_terms(a: int, n: int, u: float) -> tuple[float, float, float]:
    """(E_u[R], Var R, Cov(R, C)) for a row of size a with u labels (C over all n elements)."""
    p = 1.0 / u
    lo, hi = _window(a, p)
    x = np.arange(lo, hi + 1)
    px = _binom_rows(np.array([a]), p, np.array([lo]), x.size)[0]
    f = deviance(x, a * p, x - a * p)
    mean_f = float(px @ f)
    fc = f - mean_f
    var_f = float(px @ (fc * fc))
    # X2 | X1 = x ~ Binomial(a - x, 1/(u - 1)) on the window of X.
    cond = _binom_rows(a - x, 1.0 / (u - 1.0), np.full(x.size, lo), x.size)
    weight = px * fc
    cov_ff = float(weight @ (cond @ fc))
    var_r = u * var_f + u * (u - 1.0) * cov_ff
    if a == n:  # C itself: no other rows
        return u * mean_f, var_r, var_r
    # h(x) = E bd0(x + M, n/u), M ~ Binomial(n - a, 1/u).
    mlo, mhi = _window(n - a, p)
    m = np.arange(mlo, mhi + 1)
    pm = _binom_rows(np.array([n - a]), p, np.array([mlo]), m.size)[0]
    y = x[:, None] + m[None, :]
    h = deviance(y, n * p, y - n * p) @ pm
    hc = h - float(px @ h)
    cov_rc = u * float(weight @ hc) + u * (u - 1.0) * float(weight @ (cond @ hc))
    return u * mean_f, var_r, cov_rc


def one_sided_slot_variance(fixed: SizeLaw, mixture: SlotMixture) -> float:
    """Var[N MI] for a fixed size law against a slot mixture (module notes)."""
    n = fixed.n
    slots = np.asarray(mixture.slots, dtype=np.float64)
    means, variances = [], []
    for u in slots.tolist():
        if u <= 1.0:  # one cluster: T = 0
            means.append(0.0)
            variances.append(0.0)
            continue
        mean_c, var_c, _ = _row_terms(n, n, u)
        mean, var = -mean_c, var_c
        for a, w in zip(fixed.sizes.tolist(), fixed.weights.tolist(), strict=True):
            e, v, c = _row_terms(int(a), n, u)
            mean += w * e
            var += w * (v - 2.0 * c)
        means.append(mean)
        variances.append(var)
    coefs = np.asarray(mixture.coefs)
    means_arr = np.array(means)
    centre = float(coefs @ means_arr)
    return float(coefs @ np.array(variances) + coefs @ (means_arr - centre) ** 2)
