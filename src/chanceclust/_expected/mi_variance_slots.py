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
from chanceclust._expected.mi_variance import SMOOTH_MIN, carry_pmf, conditional_rows
from chanceclust._expected.pmfs import deviance, stirlerr
from chanceclust._expected.windows import tail_halfwidth

__all__ = ["longest_window", "one_sided_slot_variance", "two_sided_slot_variance"]

# Points of one padded grid evaluated at once (memory ~ a few arrays of this many float64).
_GRID = 1 << 21


def _binom_rows(n: NDArray, p: float | NDArray, start: NDArray, width: int) -> NDArray[np.float64]:
    """Binomial(n, p) pmf at start + 0..width-1 per row (n, start int arrays; p a float or
    one per row), 0 outside [0, n].

    Anchored at the clipped mode by Loader's form (no large logarithm cancels), carried by
    the exact ratios (n - k) p / ((k + 1) q).
    """
    n = np.asarray(n, dtype=np.int64).ravel()
    start = np.broadcast_to(np.asarray(start, dtype=np.int64), n.shape).ravel()
    p = np.broadcast_to(np.asarray(p, dtype=np.float64), n.shape).ravel()
    lo, hi = np.maximum(start, 0), np.minimum(start + width - 1, n)
    out = np.zeros((len(n), width))
    certain = (lo <= hi) & (p >= 1.0)  # p = 1 (u = 2 in a conditional row): X = n
    if certain.any():
        rows = np.flatnonzero(certain & (n >= start) & (n < start + width))
        out[rows, (n - start)[rows]] = 1.0
    ok = (lo <= hi) & ~certain
    if not ok.any():
        return out
    n, start, lo, hi, p = n[ok], start[ok], lo[ok], hi[ok], p[ok]
    q = 1.0 - p
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
        ratio = (nf[:, None] - t) * p[:, None] / ((t + 1.0) * q[:, None])
    out[ok] = carry_pmf(ratio, start, lo, hi, mode, anchor)
    return out


def _half(n: int, p: NDArray[np.float64]) -> NDArray[np.float64]:
    """Half-width of the window of Binomial(n, p) (vectorized over p)."""
    return tail_halfwidth(n * p * (1.0 - p))


def longest_window(n: int, slots: list[float]) -> float:
    """Longest window (counts) of a cell Binomial(n, 1/u) over the slots u > 1."""
    p = 1.0 / np.array([u for u in slots if u > 1.0], dtype=np.float64)
    return float((2.0 * _half(n, p) + 2.0).max(initial=0.0))


def _window(n: int, p: float) -> tuple[int, int]:
    mean = n * p
    half = float(_half(n, np.array([p]))[0])
    return max(0, int(np.floor(mean - half))), min(n, int(np.ceil(mean + half)))


def _cell_values(x: NDArray, total: int, p: float) -> NDArray[np.float64]:
    """A function of a cell count whose sum over cells differs from the bd0 sum by a constant.

    bd0(x, total p) where the mean is >= 1; x log x below (where bd0's constant part
    bd0(0, m) = m would make the sum over the many empty cells cancel: u Var f against
    u (u - 1) Cov loses ~u eps, while x log x is 0 on the cells with 0 or 1 element).
    """
    mean = total * p
    if mean >= 1.0:
        return deviance(x, mean, x - mean)
    xf = np.asarray(x, dtype=np.float64)
    return np.where(xf > 1.0, xf * np.log(np.maximum(xf, 1.0)), 0.0)


class _Multinomial:
    """``total`` elements on w equal cells (w real >= 2): a cell X ~ Binomial(total, 1/w),
    a second cell X2 | X1 = x ~ Binomial(total - x, 1/(w - 1)), on the window of X."""

    def __init__(self, total: int, w: float) -> None:
        p = 1.0 / w
        self.w, self.p = w, p
        self.lo, hi = _window(total, p)
        self.x = np.arange(self.lo, hi + 1)
        self.px = _binom_rows(np.array([total]), p, np.array([self.lo]), self.x.size)[0]
        # E of the sum of bd0(cell, total/w) over the w cells: D(total, w).
        self.mean_sum = w * float(self.px @ deviance(self.x, total * p, self.x - total * p))
        f = _cell_values(self.x, total, p)
        self.fc = f - float(self.px @ f)
        self.total = total
        # A short window: the whole conditional pmf matrix, once (the many slots of `all`).
        self.cond = None
        if self.x.size < SMOOTH_MIN:
            self.cond = _binom_rows(
                total - self.x, 1.0 / (w - 1.0), np.full(self.x.size, self.lo), self.x.size
            )
        self.weight = self.px * self.fc
        self.var_sum = self.cov_sum(self.fc)

    def cov_sum(self, gc: NDArray[np.float64]) -> float:
        """Cov(sum_cells f(X_c), sum_cells g(X_c)) for g given (centred) on the window."""
        return float(self.cov_sums(gc[None, :])[0])

    def cov_sums(self, gc: NDArray[np.float64]) -> NDArray[np.float64]:
        """:meth:`cov_sum` for each row of ``gc``.

        E[g(X2) | X1 = x] on the window of X1, interpolated where that is smooth
        (mi_variance.conditional_rows); the conditional pmf rows at the positions asked
        for are made once for all the functions.
        """
        width = self.x.size
        direct = self.w * (gc @ self.weight)
        if self.cond is not None:
            return direct + self.w * (self.w - 1.0) * ((gc @ self.cond.T) @ self.weight)
        made: dict[bytes, NDArray] = {}

        def given(rows: NDArray, pos: NDArray) -> NDArray:
            out = np.empty(pos.shape)
            for key in np.unique(pos, axis=0):
                same = np.flatnonzero((pos == key).all(axis=1))
                cond = made.get(key.tobytes())
                if cond is None:
                    cond = _binom_rows(
                        self.total - self.x[key], 1.0 / (self.w - 1.0),
                        np.full(key.size, self.lo), width,
                    )
                    made[key.tobytes()] = cond
                out[same] = gc[rows[same]] @ cond.T
            return out

        conditional = conditional_rows(np.full(gc.shape[0], width), width, given)
        return direct + self.w * (self.w - 1.0) * (conditional @ self.weight)


def _rows_terms(sizes: NDArray[np.int64], n: int, u: float) -> tuple[NDArray, NDArray, NDArray]:
    """(E_u[R], Var R, Cov(R, C)) per row size a < n with u labels, on one padded grid.

    C is over all n elements; h(x) = E g(x + M), M ~ Binomial(n - a, 1/u), g the column
    term's cell function, is one correlation per size (no grid).
    """
    p = 1.0 / u
    af = sizes.astype(np.float64)
    half = tail_halfwidth(af * p * (1.0 - p))
    lo = np.maximum(np.floor(af * p - half), 0).astype(np.int64)
    hi = np.minimum(np.ceil(af * p + half).astype(np.int64), sizes)
    width = int((hi - lo).max()) + 1
    x = lo[:, None] + np.arange(width)  # beyond a row's window the pmf is still exact
    px = _binom_rows(sizes, p, lo, width)
    mean = (af * p)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        dev = np.where(px > 0, deviance(x, mean, x - mean), 0.0)
        xf = x.astype(np.float64)
        f = np.where(mean >= 1.0, dev, np.where(xf > 1.0, xf * np.log(np.maximum(xf, 1.0)), 0.0))
    mean_sum = u * np.sum(px * dev, axis=1)
    fc = np.where(px > 0, f - np.sum(px * f, axis=1)[:, None], 0.0)
    weight = px * fc
    count = hi - lo + 1
    cond = None
    if width < SMOOTH_MIN:  # short windows: the whole conditional pmf, once
        cond = _binom_rows(
            np.repeat(sizes, width) - x.ravel(), 1.0 / (u - 1.0), np.repeat(lo, width), width
        ).reshape(len(sizes), width, width)

    def cov_sum(gc: NDArray) -> NDArray:
        if cond is not None:
            return u * np.sum(weight * gc, axis=1) + u * (u - 1.0) * np.einsum(
                "sx,sxy,sy->s", weight, cond, gc
            )

        def given(rows: NDArray, pos: NDArray) -> NDArray:
            at = lo[rows, None] + pos
            cond = _binom_rows(
                np.repeat(sizes[rows], pos.shape[1]) - at.ravel(), 1.0 / (u - 1.0),
                np.repeat(lo[rows], pos.shape[1]), width,
            ).reshape(rows.size, pos.shape[1], width)
            return np.einsum("kpy,ky->kp", cond, gc[rows])

        conditional = conditional_rows(count, width, given)  # 0 beyond each window
        return u * np.sum(weight * gc, axis=1) + u * (u - 1.0) * np.sum(weight * conditional, axis=1)

    # M ~ Binomial(n - a, p) on its window, every size at once; the correlation per size.
    rest = n - sizes
    mmean = rest.astype(np.float64) * p
    mhalf = tail_halfwidth(mmean * (1.0 - p))
    mlo = np.maximum(np.floor(mmean - mhalf), 0).astype(np.int64)
    mhi = np.minimum(np.ceil(mmean + mhalf).astype(np.int64), rest)
    mwidth = mhi - mlo + 1
    pm = _binom_rows(rest, p, mlo, int(mwidth.max()))
    g = _cell_values((x[:, :1] + mlo[:, None]) + np.arange(width + int(mwidth.max()) - 1), n, p)
    h = np.empty_like(fc)
    for i, wm in enumerate(mwidth.tolist()):
        h[i] = np.correlate(g[i, : width + wm - 1], pm[i, :wm], mode="valid")
    hc = np.where(px > 0, h - np.sum(px * h, axis=1)[:, None], 0.0)
    return mean_sum, cov_sum(fc), cov_sum(hc)


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
        column = _Multinomial(n, u)
        sizes = np.asarray(fixed.sizes, dtype=np.int64)
        weights = np.asarray(fixed.weights, dtype=np.float64)
        mean, var = -column.mean_sum, column.var_sum
        whole = sizes == n  # one cluster: R = C
        if whole.any():
            mean += float(weights[whole].sum()) * column.mean_sum
            var -= float(weights[whole].sum()) * column.var_sum
        if (~whole).any():
            e, v, c = _rows_terms(sizes[~whole], n, u)
            mean += float(weights[~whole] @ e)
            var += float(weights[~whole] @ (v - 2.0 * c))
        means.append(mean)
        variances.append(var)
    coefs = np.asarray(mixture.coefs)
    means_arr = np.array(means)
    centre = float(coefs @ means_arr)
    return float(coefs @ np.array(variances) + coefs @ (means_arr - centre) ** 2)


def _windows(total: int, p: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
    """[lo, hi] of Binomial(total, p) for every p (the windows of :func:`_window`)."""
    mean = total * p
    half = _half(total, p)
    lo = np.maximum(np.floor(mean - half), 0).astype(np.int64)
    return lo, np.minimum(np.ceil(mean + half), total).astype(np.int64)


def _row_chunks(cost: NDArray[np.int64]) -> list[NDArray[np.intp]]:
    """Indices of rows in chunks whose padded cost (rows x the largest cost) stays below
    _GRID; rows sorted by cost, so that padding wastes little."""
    order = np.argsort(cost, kind="stable")
    ordered = np.maximum(cost[order], 1).tolist()
    chunks, first = [], 0
    while first < len(ordered):
        last = first + 1
        while last < len(ordered) and (last + 1 - first) * ordered[last] <= _GRID:
            last += 1
        chunks.append(order[first:last])
        first = last
    return chunks


def _joint_moments(total: int, w: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
    """(mean_sum, var_sum) of :class:`_Multinomial` (total, w) for every w > 1 at once.

    The same sums as the class, rows padded to their chunk's longest window (the pmf and
    the centred cell values are 0 beyond a row's window).
    """
    p = 1.0 / w
    lo, hi = _windows(total, p)
    count = hi - lo + 1
    mean_sum, var_sum = np.empty(w.size), np.empty(w.size)
    for rows in _row_chunks(count * np.minimum(count, 40)):
        width = int(count[rows].max())
        x = lo[rows, None] + np.arange(width)
        inside = x <= hi[rows, None]
        px = np.where(inside, _binom_rows(np.full(rows.size, total), p[rows], lo[rows], width), 0.0)
        mean = (total * p[rows])[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            dev = np.where(inside, deviance(x, mean, x - mean), 0.0)
        xf = x.astype(np.float64)
        f = np.where(mean >= 1.0, dev, np.where(xf > 1.0, xf * np.log(np.maximum(xf, 1.0)), 0.0))
        fc = np.where(inside, f - np.sum(px * f, axis=1)[:, None], 0.0)
        weight = px * fc
        ws, second, starts = w[rows], 1.0 / (w[rows] - 1.0), lo[rows]

        def given(sub: NDArray, pos: NDArray, ws=ws, second=second, starts=starts, fc=fc,
                  width=width) -> NDArray:
            at = starts[sub, None] + pos
            cond = _binom_rows(
                total - at.ravel(), np.repeat(second[sub], pos.shape[1]),
                np.repeat(starts[sub], pos.shape[1]), width,
            ).reshape(sub.size, pos.shape[1], width)
            return np.einsum("kpy,ky->kp", cond, fc[sub])

        conditional = conditional_rows(count[rows], width, given)
        mean_sum[rows] = ws * np.sum(px * dev, axis=1)
        var_sum[rows] = ws * np.sum(weight * fc, axis=1) + ws * (ws - 1.0) * np.sum(
            weight * conditional, axis=1
        )
    return mean_sum, var_sum


def _joint_cross(n: int, rows: _Multinomial, partners: NDArray[np.float64]) -> NDArray:
    """Cov(J, RA) for each partner slot v: J the sum over the u v joint cells, RA over the
    u row totals (u = rows.w).

    Given the row totals a_j, the cells of row j are Multinomial(a_j, 1/v), so
    E[J | rows] = sum_j phi(a_j) with phi(a) = v E[f_J(Binomial(a, 1/v))], a smooth function
    of a: over a short window at every a by the recurrence in a (one pmf row per v), over a
    long one interpolated (:func:`mi_variance.conditional_rows`), less its value at the
    window's middle (a constant per v, which the covariance ignores, so that
    the interpolation's tolerance is relative to phi's variation, not to its size).
    """
    q = 1.0 / partners
    x = rows.x
    ylo = _windows(int(x[0]), q)[0]
    yhi = _windows(int(x[-1]), q)[1]
    cell = q / rows.w  # a joint cell's probability

    def phi(sub: NDArray, pos: NDArray) -> NDArray:
        out = np.empty(pos.shape)
        for part in _row_chunks(np.full(sub.size, pos.shape[1]) * (yhi - ylo + 1)[sub]):
            k = sub[part]
            ny = int((yhi - ylo)[k].max()) + 1
            y = ylo[k, None] + np.arange(ny)
            values = _cell_values_rows(y, n, cell[k]) * (y <= yhi[k, None])
            # Positions in slices, so that one grid stays below _GRID points.
            step = max(1, _GRID // (k.size * ny))
            for first in range(0, pos.shape[1], step):
                at = x[pos[part, first : first + step]]
                grid = _binom_rows(
                    at.ravel(), np.repeat(q[k], at.shape[1]), np.repeat(ylo[k], at.shape[1]), ny
                ).reshape(k.size, at.shape[1], ny)
                out[part, first : first + step] = partners[k, None] * np.einsum(
                    "kpy,ky->kp", grid, values
                )
        return out

    if x.size < SMOOTH_MIN:  # every position, carried by Bin(a + 1, q) = Bin(a, q) + Bern(q)
        ny = int((yhi - ylo).max()) + 1
        y = ylo[:, None] + np.arange(ny)
        cells = _cell_values_rows(y, n, cell) * (y <= yhi[:, None])
        pmf = _binom_rows(np.full(partners.size, x[0]), q, ylo, ny)
        keep, move = (1.0 - q)[:, None], q[:, None]
        values = np.empty((partners.size, x.size))
        for t in range(x.size):
            if t:  # (mass carried below ylo or beyond the last column: < 1e-20)
                pmf[:, 1:] = keep * pmf[:, 1:] + move * pmf[:, :-1]
                pmf[:, 0] *= keep[:, 0]
            values[:, t] = np.einsum("ky,ky->k", pmf, cells)
        values *= partners[:, None]
    else:
        middle = np.full((partners.size, 1), x.size // 2)
        centre = phi(np.arange(partners.size), middle)[:, 0]
        values = conditional_rows(
            np.full(partners.size, x.size), x.size,
            lambda sub, pos: phi(sub, pos) - centre[sub, None],
        )
    return rows.cov_sums(values - (values @ rows.px)[:, None])


def _cell_values_rows(y: NDArray, total: int, p: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`_cell_values` per row of y, with one cell probability per row."""
    mean = (total * p)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        dev = deviance(y, mean, y - mean)
    yf = y.astype(np.float64)
    return np.where(mean >= 1.0, dev, np.where(yf > 1.0, yf * np.log(np.maximum(yf, 1.0)), 0.0))


def two_sided_slot_variance(mix_a: SlotMixture, mix_b: SlotMixture) -> float:
    """Var[N MI] for two independent slot mixtures.

    Given (u, v) the N pairs of labels are i.i.d. uniform on u v cells and
    T = J - RA - CB: J = sum_cells bd0(n_c, N/(uv)), RA (CB) the same over the u row (v
    column) totals; RA and CB are independent, so
    Var_uv T = Var J + Var RA + Var CB - 2 Cov(J, RA) - 2 Cov(J, CB). Pairs of slots whose
    weight is below 1e-22 of the largest are dropped (each term is of the size of the whole).
    The terms of J are computed for all pairs at once, those of Cov(J, RA) for all partners
    v of one u at once (and likewise for CB).
    """
    n = mix_a.n
    ua, ub = np.asarray(mix_a.slots, float), np.asarray(mix_b.slots, float)
    weights = np.outer(mix_a.coefs, mix_b.coefs)
    keep = np.abs(weights) > 1e-22 * np.abs(weights).max()
    first, second = np.nonzero(keep)
    coefs = weights[first, second]
    live = (ua[first] > 1.0) & (ub[second] > 1.0)  # a side with one cluster: T = 0
    first, second = first[live], second[live]
    side_a = {i: _Multinomial(n, float(ua[i])) for i in np.unique(first).tolist()}
    side_b = {j: _Multinomial(n, float(ub[j])) for j in np.unique(second).tolist()}
    cross = np.zeros(first.size)
    for i, rows in side_a.items():
        sel = np.flatnonzero(first == i)
        cross[sel] += _joint_cross(n, rows, ub[second[sel]])
    for j, cols in side_b.items():
        sel = np.flatnonzero(second == j)
        cross[sel] += _joint_cross(n, cols, ua[first[sel]])
    joint_mean, joint_var = _joint_moments(n, ua[first] * ub[second])
    mean_a = np.array([side_a[i].mean_sum for i in first.tolist()])
    mean_b = np.array([side_b[j].mean_sum for j in second.tolist()])
    var_a = np.array([side_a[i].var_sum for i in first.tolist()])
    var_b = np.array([side_b[j].var_sum for j in second.tolist()])
    means, variances = np.zeros(coefs.size), np.zeros(coefs.size)
    means[live] = joint_mean - mean_a - mean_b
    variances[live] = joint_var + var_a + var_b - 2.0 * cross
    c = coefs / coefs.sum()
    centre = float(c @ means)
    return float(c @ variances + c @ (means - centre) ** 2)
