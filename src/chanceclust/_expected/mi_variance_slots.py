"""Var[MI] with a fixed reference against a slot mixture (one-sided num and all at any N).

docs/math.md#math-mi-variance, "Random sides beyond N = 30". Given u, B is N i.i.d. uniform
labels on u values, the rows of the table are independent multinomials and
T = N MI = sum_i R_i - C (docs/math.md#math-collapsed-sums): Var_u(T) is a sum of covariances
of the cells of one row (R_i) and of the column totals (C), and over the mixture
Var T = sum_u c_u Var_u(T) + sum_u c_u (E_u[T] - E[T])^2 (the weights sum to 1; an identity
also for the signed weights of num). Real slots (Stam's quadrature from N = 10^4) are fine:
every term is a smooth function of u.

Computed for all slots (and slot pairs) at once, in batches of similar window lengths
(_batches): per slot one conditional expectation psi = E[fc(X2) | X1] gives the weights that
every covariance with the slot's cells is a dot product with (the cells are exchangeable);
two-sided, phi(a) is interpolated in a on long windows and shared by the pairs of one v
where the joint cells' mean is below 1 (_shared).

The cell function is a value (:class:`Deviance`, bd0, by default): any Bregman divergence
whose linear part sums to a constant over a row given u gives the same sums, with a level
shift of E_u; :class:`chanceclust._expected.tsallis.TsallisCell` gives Var[N MI_q].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.laws import SizeLaw, SlotMixture
from chanceclust._expected.mi_variance import NODES, SMOOTH_MIN, carry_pmf, conditional_rows
from chanceclust._expected.pmfs import deviance, stirlerr
from chanceclust._expected.windows import tail_halfwidth
from chanceclust.exceptions import InternalError

__all__ = ["SHANNON", "Deviance", "longest_window", "one_sided_slot_variance",
           "two_sided_slot_variance"]


class Deviance:
    """The cell function of T = N MI: bd0(x, m) = x log(x/m) + m - x, the Bregman divergence
    of x log x at a cell's mean m (``bregman``), and the form taken where the mean is below
    1, x log x (``small``: 0 on the cells with 0 or 1 element; it differs from bd0 by a
    linear function of x, whose sum over the cells of a row is a constant given u).

    The routes take any object with these methods (and the level shifts below):
    :class:`chanceclust._expected.tsallis.TsallisCell` is the one of N MI_q. Given the slots,
    T differs from sum_cells bregman - sum_totals bregman by ``one_sided_shift`` (a fixed
    side of these sizes against u slots) or ``two_sided_shift`` (u and v slots): 0 here.
    """

    def bregman(self, x: NDArray, mean: NDArray | float) -> NDArray[np.float64]:
        return deviance(x, mean, x - mean)

    def small(self, xf: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.where(xf > 1.0, xf * np.log(np.maximum(xf, 1.0)), 0.0)

    def one_sided_shift(self, sizes: NDArray, weights: NDArray, u: float) -> float:
        return 0.0

    def two_sided_shift(self, u: NDArray, v: NDArray) -> NDArray | float:
        return 0.0


#: The cell function of Var[MI] (the default of every route).
SHANNON = Deviance()


def _binom_rows(n: NDArray, p: float | NDArray, start: NDArray, width: int) -> NDArray[np.float64]:
    """Binomial(n, p) pmf at start + 0..width-1 per row (n, start int arrays; p one value or
    one per row), 0 outside [0, n].

    Anchored at the clipped mode by Loader's form (no large logarithm cancels), carried by
    the exact ratios (n - k) p / ((k + 1) q).
    """
    n = np.asarray(n, dtype=np.int64).ravel()
    start = np.broadcast_to(np.asarray(start, dtype=np.int64), n.shape).ravel()
    p = np.broadcast_to(np.asarray(p, dtype=np.float64), n.shape).ravel()
    lo, hi = np.maximum(start, 0), np.minimum(start + width - 1, n)
    out = np.zeros((len(n), width))
    sure = p >= 1.0  # p = 1 (u = 2 in a conditional row): X = n
    if sure.any():
        rows = np.flatnonzero(sure & (n >= start) & (n < start + width))
        out[rows, (n - start)[rows]] = 1.0
    ok = (lo <= hi) & ~sure
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


def _cell_values(x: NDArray, total: int, p: float | NDArray, cell: Deviance = SHANNON
                 ) -> NDArray[np.float64]:
    """A function of a cell count whose sum over cells differs from the bd0 sum by a constant.

    bd0(x, total p) where the mean is >= 1; x log x below (where bd0's constant part
    bd0(0, m) = m would make the sum over the many empty cells cancel: u Var f against
    u (u - 1) Cov loses ~u eps, while x log x is 0 on the cells with 0 or 1 element).
    ``p`` is one value or one per row of x (a column); ``cell``: another cell function
    (:class:`Deviance`).
    """
    mean = total * np.asarray(p, dtype=np.float64)
    xf = np.asarray(x, dtype=np.float64)
    small = cell.small(xf)
    if np.all(mean < 1.0):
        return small
    return np.where(mean >= 1.0, cell.bregman(x, mean), small)


#: Floats in one temporary array of a batch (a batch takes at least one row).
_BATCH = 1 << 21
#: Rows whose column correlation h (support x window of the other elements) takes more
#: multiply-adds than this are interpolated in x (mi_variance.conditional_rows) instead.
_CORRELATED = 1 << 22


def _batches(widths: tuple[NDArray[np.int64], ...], cost: NDArray) -> list[NDArray[np.int64]]:
    """Indices grouped by windows of similar lengths (each within a factor 2^(1/4) of the
    group's longest), split so that a batch's rows times the largest ``cost`` stays within
    _BATCH."""
    keys = np.stack([np.floor(4.0 * np.log2(np.maximum(w, 1))).astype(np.int64) for w in widths])
    out = []
    for key in np.unique(keys, axis=1).T:
        index = np.flatnonzero(np.all(keys == key[:, None], axis=0))
        rows = max(1, _BATCH // max(1, int(cost[index].max())))
        out.extend(np.array_split(index, -(-index.size // rows)))
    return out


@dataclass
class _Slots:
    """For slots w (real, > 1): a cell X ~ Binomial(total, 1/w) of Mult(total, 1/w) on its
    window lo .. lo + count - 1; a second cell X2 | X1 = x ~ Binomial(total - x, 1/(w - 1)).

    Arrays (slots, width) are 0 beyond each window: px the pmf, fc the centred cell values
    (_cell_values), psi(x) = E[fc(X2) | X1 = x]. Since the two cells are exchangeable,
    Cov(sum_cells f, sum_cells g) = w E[fc g](X1) + w (w - 1) E[psi g](X1) for any g
    (``cov_weights``: the vector that g is dotted with).
    """

    w: NDArray[np.float64]
    lo: NDArray[np.int64]
    count: NDArray[np.int64]
    mean_sum: NDArray[np.float64]  # E of the sum of bd0(cell, total/w) over the w cells
    var_sum: NDArray[np.float64]  # Var of the sum of the cell values over the w cells
    px: NDArray[np.float64] | None = None  # with ``rows``: (slots, longest window)
    cov_weights: NDArray[np.float64] | None = None


def _slots(total: int, w: NDArray[np.float64], rows: bool = False,
           cell: Deviance = SHANNON) -> _Slots:
    """The multinomial cells of every slot w > 1, batched by window length; with ``rows``,
    also their covariance weights (padded to the longest window)."""
    p = 1.0 / w
    mean = total * p
    half = _half(total, p)
    lo = np.maximum(np.floor(mean - half), 0).astype(np.int64)
    count = np.minimum(np.ceil(mean + half).astype(np.int64), total) - lo + 1
    mean_sum, var_sum = np.empty(w.size), np.empty(w.size)
    longest = int(count.max(initial=1))
    pmfs = np.zeros((w.size, longest)) if rows else None
    weights = np.zeros((w.size, longest)) if rows else None
    short = count < SMOOTH_MIN
    for batch in _batches((count,), np.where(short, count, 2 * NODES[-1]) * count):
        width = int(count[batch].max())
        pos = np.arange(width)
        inside = pos < count[batch, None]
        x = lo[batch, None] + pos
        px = np.where(inside, _binom_rows(np.full(batch.size, total), p[batch], lo[batch], width), 0.0)
        m = mean[batch, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            dev = np.where(inside, cell.bregman(x, m), 0.0)
        mean_sum[batch] = w[batch] * np.sum(px * dev, axis=1)
        f = _cell_values(x, total, p[batch, None], cell)
        fc = np.where(inside, f - np.sum(px * f, axis=1)[:, None], 0.0)
        psi = _conditional(total, w[batch], lo[batch], count[batch], width, fc)
        wb = w[batch, None]
        cw = wb * px * fc + wb * (wb - 1.0) * px * psi
        var_sum[batch] = np.sum(cw * fc, axis=1)
        if pmfs is not None and weights is not None:
            pmfs[batch, :width], weights[batch, :width] = px, cw
    return _Slots(w, lo, count, mean_sum, var_sum, pmfs, weights)


def _conditional(total: int, w: NDArray, lo: NDArray, count: NDArray, width: int,
                 g: NDArray) -> NDArray[np.float64]:
    """E[g(X2) | X1 = x] on the windows (rows: slots of one batch; g 0 beyond each window),
    interpolated on the long windows (mi_variance.conditional_rows); 0 beyond them."""
    q = 1.0 / (w - 1.0)

    def given(rows: NDArray, pos: NDArray) -> NDArray:
        k = pos.shape[1]
        cond = _binom_rows(
            total - (lo[rows, None] + pos).ravel(), np.repeat(q[rows], k),
            np.repeat(lo[rows], k), width,
        ).reshape(rows.size, k, width)
        return np.einsum("rky,ry->rk", cond, g[rows])

    return conditional_rows(count, width, given)


def _rows_terms(sizes: NDArray[np.int64], n: int, u: float, column: NDArray | None = None,
                cell: Deviance = SHANNON) -> tuple[NDArray, NDArray, NDArray]:
    """(E_u[R], Var R, Cov(R, C)) per row size a < n with u labels; ``column``: the values of
    another column function at 0 .. total, C = sum_j column[M_j] over the rows' own column
    totals M (total elements), instead of the bd0 of the n elements' column totals.

    On one padded grid where it holds at most _BATCH floats; otherwise in batches of rows of
    similar window lengths (_batches), so that memory stays bounded whatever the sizes (a
    short row beside one of ~N elements no longer takes the long one's width, issue #35).
    """
    p = 1.0 / u
    af = sizes.astype(np.float64)
    half = tail_halfwidth(af * p * (1.0 - p))
    lo = np.maximum(np.floor(af * p - half), 0).astype(np.int64)
    hi = np.minimum(np.ceil(af * p + half).astype(np.int64), sizes)
    count = hi - lo + 1
    if sizes.size * int(count.max(initial=1)) <= _BATCH:
        return _rows_batch(sizes, n, u, lo, hi, column, cell)
    out = [np.empty(sizes.size) for _ in range(3)]
    for batch in _batches((count,), count):
        parts = _rows_batch(sizes[batch], n, u, lo[batch], hi[batch], column, cell)
        for into, part in zip(out, parts, strict=True):
            into[batch] = part
    return out[0], out[1], out[2]


def _rows_batch(sizes: NDArray[np.int64], n: int, u: float, lo: NDArray[np.int64],
                hi: NDArray[np.int64], column: NDArray | None = None,
                cell: Deviance = SHANNON) -> tuple[NDArray, NDArray, NDArray]:
    """_rows_terms on one padded grid: the rows' windows lo .. hi.

    C is over all n elements; h(x) = E g(x + M), M ~ Binomial(n - a, 1/u), g the column
    term's cell function, is one correlation per size (no grid), over the row's support.
    """
    p = 1.0 / u
    af = sizes.astype(np.float64)
    width = int((hi - lo).max()) + 1
    x = lo[:, None] + np.arange(width)  # beyond a row's window the pmf is still exact
    px = _binom_rows(sizes, p, lo, width)
    mean = (af * p)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        dev = np.where(px > 0, cell.bregman(x, mean), 0.0)
        f = np.where(mean >= 1.0, dev, cell.small(x.astype(np.float64)))
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
    total = n if column is None else column.size - 1
    rest = total - sizes
    mmean = rest.astype(np.float64) * p
    mhalf = tail_halfwidth(mmean * (1.0 - p))
    mlo = np.maximum(np.floor(mmean - mhalf), 0).astype(np.int64)
    mhi = np.minimum(np.ceil(mmean + mhalf).astype(np.int64), rest)
    mwidth = mhi - mlo + 1
    pm = _binom_rows(rest, p, mlo, int(mwidth.max()))
    at = (x[:, :1] + mlo[:, None]) + np.arange(width + int(mwidth.max()) - 1)
    g = _cell_values(at, n, p, cell) if column is None else column[np.clip(at, 0, total)]
    h = np.zeros_like(fc)  # on each row's support x <= a only (px is 0 beyond)
    support = np.minimum(sizes - lo + 1, width)
    direct = support * mwidth <= _CORRELATED
    for i in np.flatnonzero(direct).tolist():
        span, wm = int(support[i]), int(mwidth[i])
        h[i, :span] = np.correlate(g[i, : span + wm - 1], pm[i, :wm], mode="valid")
    long_rows = np.flatnonzero(~direct)
    if long_rows.size:  # h is smooth in x: interpolated as the conditional rows are

        def given(rows: NDArray, pos: NDArray) -> NDArray:
            out = np.empty(pos.shape)
            for r, i in enumerate(long_rows[rows].tolist()):
                wm = int(mwidth[i])
                windows = np.lib.stride_tricks.sliding_window_view(g[i, : int(support[i]) + wm - 1], wm)
                out[r] = windows[pos[r]] @ pm[i, :wm]
            return out

        h[long_rows] = conditional_rows(support[long_rows], width, given)
    hc = np.where(px > 0, h - np.sum(px * h, axis=1)[:, None], 0.0)
    return mean_sum, cov_sum(fc), cov_sum(hc)


def one_sided_slot_variance(fixed: SizeLaw, mixture: SlotMixture, cell: Deviance = SHANNON
                            ) -> float:
    """Var[N MI] for a fixed size law against a slot mixture (module notes); ``cell``: the
    cell function of another sum (:class:`Deviance`; Var[N MI_q])."""
    n = fixed.n
    sizes = np.asarray(fixed.sizes, dtype=np.int64)
    if np.any(sizes == n):  # one cluster of every element: MI = 0 for every draw
        return 0.0
    slots = np.asarray(mixture.slots, dtype=np.float64)
    live = slots > 1.0  # u <= 1: one cluster, T = 0
    columns = _slots(n, slots[live], cell=cell)
    means, variances = np.zeros(slots.size), np.zeros(slots.size)
    weights = np.asarray(fixed.weights, dtype=np.float64)
    rest = n - int(sizes.max())
    small = sizes < n - rest
    for k, (index, u) in enumerate(zip(np.flatnonzero(live).tolist(), slots[live].tolist(), strict=True)):
        e, v, c = _rows_terms(sizes, n, u, cell=cell)
        mean = -columns.mean_sum[k] + float(weights @ e) + cell.one_sided_shift(sizes, weights, u)
        var = columns.var_sum[k] + float(weights @ (v - 2.0 * c))
        huge = (_huge_row(n, rest, u, cell) if 0 < rest <= min(HUGE_ROW_REST, n - rest - 1)
                else None)
        if huge is not None:  # the same variance without the cancellation of R_1 and C
            _, v, c = _rows_terms(sizes[small], n, u, huge[1], cell)
            var = huge[0] + float(weights[small] @ (v - 2.0 * c))
        means[index], variances[index] = mean, var
    return _mixed(np.asarray(mixture.coefs, dtype=np.float64), means, variances)


#: A row of all but at most this many elements (and more than half of them) is taken with
#: the column totals (_huge_row); its window at most _HUGE_ROW_WIDTH counts (a dense
#: conditional pmf).
HUGE_ROW_REST = 64
_HUGE_ROW_WIDTH = 2048


def _huge_row(n: int, rest: int, u: float, cell: Deviance = SHANNON
              ) -> tuple[float, NDArray[np.float64]] | None:
    """(Var D, delta) given u, for a row of a = n - rest elements (rest small), or None
    where its window is longer than _HUGE_ROW_WIDTH.

    With g = bd0(., n/u) and f = bd0(., a/u), f(x) - g(x) is linear in x, so its sum over the
    u cells of the row is a constant, and with M_j the other rows' column totals,
    R_1 - C = const - D, D = sum_j Delta(X_j, M_j), Delta(x, m) = g(x + m) - g(x) (0 for
    m = 0). X (the row's cells, Mult(a, 1/u)) and M (Mult(rest, 1/u)) are independent, so
    Var_u T = sum_i Var R_i - 2 sum_i Cov(R_i, sum_j delta(M_j)) + Var D over the other
    rows, delta(m) = E Delta(X, m): no term of the size of Var C (~u), which cancelled to
    ~1e-6 of it (issue #35). Var D = u Var Delta(X1, M1) + u (u - 1) Cov(Delta(X1, M1),
    Delta(X2, M2)), X2 | X1 ~ Bin(a - X1, 1/(u - 1)), M2 | M1 likewise: sums over the
    window of X and all of 0 .. rest.
    """
    a, p, mu = n - rest, 1.0 / u, n / u
    half = float(tail_halfwidth(np.array([a * p * (1.0 - p)]))[0])
    lo, hi = max(int(np.floor(a * p - half)), 0), min(int(np.ceil(a * p + half)), a)
    width = hi - lo + 1
    if width > _HUGE_ROW_WIDTH:
        return None
    x = lo + np.arange(width)
    px = _binom_rows(np.array([a]), p, np.array([lo]), width)[0]
    m = np.arange(rest + 1)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        delta = cell.bregman(x + m, mu) - cell.bregman(x, mu)  # (m, x)
    delta = np.where(px > 0, delta, 0.0)
    mean_of = delta @ px  # delta(m)
    pm = _binom_rows(np.array([rest]), p, np.array([0]), rest + 1)[0]
    first = float(pm @ mean_of)
    second = float(pm @ ((delta * delta) @ px))
    cond = _binom_rows(a - x, 1.0 / (u - 1.0), np.full(width, lo), width)  # (x1, x2)
    psi = delta @ cond.T  # psi[m2, x1] = E[Delta(X2, m2) | X1 = x1]
    pairs = pm[:, None] * _binom_rows(rest - m.ravel(), 1.0 / (u - 1.0), np.zeros(rest + 1, dtype=np.int64), rest + 1)
    both = float(np.sum(pairs * ((delta * px) @ psi.T)))
    return u * (second - first * first) + u * (u - 1.0) * (both - first * first), mean_of


def _mixed(coefs: NDArray, means: NDArray, variances: NDArray) -> float:
    """sum c Var_u + sum c (E_u - E)^2, the weights normalized to sum 1."""
    c = coefs / coefs.sum()
    centre = float(c @ means)
    return float(c @ variances + c @ (means - centre) ** 2)


def _phi(n: int, v: NDArray, lo: NDArray[np.int64], count: NDArray[np.int64],
         p: NDArray, cell: Deviance = SHANNON) -> NDArray[np.float64]:
    """phi(a) = v E[f(Binomial(a, 1/v))] at a = lo .. lo + count - 1 per row (0 beyond), f the
    cell values of the joint cells (_cell_values with total n, probability p).

    Smooth in a: where count >= SMOOTH_MIN it is interpolated (mi_variance.conditional_rows).
    The sum over y runs over the union of the windows of Binomial(a, 1/v) on the row.
    """
    q = 1.0 / v
    hi = lo + count - 1
    ylo = np.maximum(np.floor(lo * q - tail_halfwidth(lo * q * (1.0 - q))), 0).astype(np.int64)
    yhi = np.minimum(np.ceil(hi * q + tail_halfwidth(hi * q * (1.0 - q))).astype(np.int64), hi)
    ycount = yhi - ylo + 1
    evaluated = np.where(count < SMOOTH_MIN, count, 2 * NODES[-1])
    out = np.zeros((v.size, int(count.max(initial=1))))
    for batch in _batches((count, ycount), evaluated * ycount):
        width, ywidth = int(count[batch].max()), int(ycount[batch].max())
        y = ylo[batch, None] + np.arange(ywidth)
        f = _cell_values(y, n, p[batch, None], cell)

        def phi(r: NDArray, pos: NDArray, batch: NDArray = batch, f: NDArray = f,
                ywidth: int = ywidth) -> NDArray:
            k = pos.shape[1]
            grid = _binom_rows(
                (lo[batch[r], None] + pos).ravel(), np.repeat(q[batch[r]], k),
                np.repeat(ylo[batch[r]], k), ywidth,
            ).reshape(r.size, k, ywidth)
            return v[batch[r], None] * np.einsum("rky,ry->rk", grid, f[r])

        everywhere = count[batch] < SMOOTH_MIN
        if everywhere.any():
            r = np.flatnonzero(everywhere)
            out[batch[r], :width] = phi(r, np.broadcast_to(np.arange(width), (r.size, width)))
        if not everywhere.all():
            r = np.flatnonzero(~everywhere)
            out[batch[r], :width] = conditional_rows(
                count[batch][r], width, lambda s, pos, r=r: phi(r[s], pos)
            )
    out[np.arange(out.shape[1]) >= count[:, None]] = 0.0
    return out


def _shared(n: int, p: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Pairs whose joint cells' mean n p is below 1: their cell values are x log x
    (_cell_values), whatever u, so phi is shared by the pairs of one v."""
    return n * p < 1.0


def _joint_cross(n: int, rows: _Slots, which: NDArray[np.int64], v: NDArray,
                 cell: Deviance = SHANNON) -> NDArray:
    """Cov(J, RA) per pair (rows slot ``which``, the other side's slot v): J the sum over the
    u v joint cells, RA over the u row totals.

    Given the row totals a_j, the cells of row j are Multinomial(a_j, 1/v), so
    E[J | rows] = sum_j phi(a_j), phi(a) = v E[f_J(Binomial(a, 1/v))]. Where the joint
    cells' mean N/(uv) is below 1, f_J = x log x does not depend on u: phi is computed once
    per v, over the union of the row windows of its pairs.
    """
    if rows.px is None or rows.cov_weights is None:
        raise InternalError("_joint_cross needs the slots' rows (_slots(..., rows=True))")
    u, lo, count = rows.w[which], rows.lo[which], rows.count[which]
    p = (1.0 / v) / u
    shared = _shared(n, p)
    # Groups: one per distinct v among the shared pairs, then one per other pair.
    values, group = np.unique(v[shared], return_inverse=True)
    glo = np.full(values.size, np.iinfo(np.int64).max)
    ghi = np.zeros(values.size, dtype=np.int64)
    np.minimum.at(glo, group, lo[shared])
    np.maximum.at(ghi, group, (lo + count - 1)[shared])
    own = np.flatnonzero(~shared)
    of_pair = np.empty(which.size, dtype=np.int64)
    of_pair[shared], of_pair[own] = group, values.size + np.arange(own.size)
    glo = np.concatenate([glo, lo[own]])
    gcount = np.concatenate([ghi - glo[: values.size] + 1, count[own]])
    phi = _phi(n, np.concatenate([values, v[own]]), glo, gcount,
               np.concatenate([np.zeros(values.size), p[own]]), cell)
    out = np.empty(which.size)
    if not which.size:
        return out
    width = rows.px.shape[1]
    for batch in np.array_split(np.arange(which.size), -(-which.size * width // _BATCH)):
        at = (lo[batch] - glo[of_pair[batch]])[:, None] + np.arange(width)
        inside = np.arange(width) < count[batch, None]
        g = np.where(inside, phi[of_pair[batch, None], np.where(inside, at, 0)], 0.0)
        g -= np.sum(rows.px[which[batch]] * g, axis=1)[:, None]
        out[batch] = np.sum(rows.cov_weights[which[batch]] * g, axis=1)
    return out


def two_sided_slot_variance(mix_a: SlotMixture, mix_b: SlotMixture, cell: Deviance = SHANNON
                            ) -> float:
    """Var[N MI] for two independent slot mixtures (``cell``: as one_sided_slot_variance).

    Given (u, v) the N pairs of labels are i.i.d. uniform on u v cells and
    T = J - RA - CB: J = sum_cells bd0(n_c, N/(uv)), RA (CB) the same over the u row (v
    column) totals; RA and CB are independent, so
    Var_uv T = Var J + Var RA + Var CB - 2 Cov(J, RA) - 2 Cov(J, CB). Pairs of slots whose
    weight is below 1e-22 of the largest are dropped (each term is of the size of the whole).
    Every pair at once: the rows and the columns once per slot, the joint cells and the
    cross covariances batched by window length.
    """
    n = mix_a.n
    ua, ub = np.asarray(mix_a.slots, float), np.asarray(mix_b.slots, float)
    weights = np.outer(mix_a.coefs, mix_b.coefs)
    keep = np.abs(weights) > 1e-22 * np.abs(weights).max()
    i, j = np.nonzero(keep)
    live = (ua[i] > 1.0) & (ub[j] > 1.0)  # a side with one cluster: T = 0
    i, j = i[live], j[live]
    side_a, at_a = np.unique(i, return_inverse=True)
    side_b, at_b = np.unique(j, return_inverse=True)
    rows = _slots(n, ua[side_a], rows=True, cell=cell)
    cols = _slots(n, ub[side_b], rows=True, cell=cell)
    u, v = ua[i], ub[j]
    joint = _slots(n, u * v, cell=cell)
    means, variances = np.zeros(live.size), np.zeros(live.size)
    means[live] = (joint.mean_sum - rows.mean_sum[at_a] - cols.mean_sum[at_b]
                   + cell.two_sided_shift(u, v))
    variances[live] = (
        joint.var_sum + rows.var_sum[at_a] + cols.var_sum[at_b]
        - 2.0 * _joint_cross(n, rows, at_a, v, cell) - 2.0 * _joint_cross(n, cols, at_b, u, cell)
    )
    return _mixed(weights[keep], means, variances)
