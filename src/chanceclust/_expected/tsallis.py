"""Expected Tsallis q-entropies of a random side and of the table: E[H_q] and E[MI_q] (engine).

docs/math.md#math-tsallis. Every expectation is one of a sum over the cells of
g_q(n) = (n/N) (1 - (n/N)^(q-1)) / (q - 1) >= 0 (so H_q(X) = sum_i g_q(x_i), and
MI_q = H_q(A) + H_q(B) - H_q(A, B)), reduced by the laws of :mod:`laws`:

- a size law: E[sum_i g(a_i)] = sum_a w(a) g(a); the table of two size laws:
  sum_{a,b} w_A(a) w_B(b) E[g(X)], X ~ Hypergeometric(N, a, b);
- a slot mixture (i.i.d. uniform labels on u slots with weight c_u): the cells are
  multinomial, empty cells add g(0) = 0, so E[sum g] = sum_u c_u u E[g(Binomial(N, 1/u))];
  against a size law sum_a w(a) sum_v c_v v E[g(Binomial(a, 1/v))]; two mixtures
  sum_{u,v} c_u c_v u v E[g(Binomial(N, 1/(u v)))].

Each E[g(X)] is a window sum (Bennett's, mass < 1e-20 left out: ``windows.tail_halfwidth``)
carried from the mode by the pmf's ratios (``windows.mode_recurrence_sums``): the
hypergeometric pmf at the mode by Loader's form (``pmfs.hypergeom_pmf``), the binomial
(real 1/u too, Stam's quadrature) normalized by its own window sum. Every term is >= 0.

Var[MI_q] (:func:`mi_q_variance`, small tables): the covariances of pairs of cells given the
sizes, weighted by the sides' size moments, plus the variance over the sizes. At any N, the
routes of Var[MI] with the cell function of N MI_q (:class:`TsallisCell`): two fixed sides by
the Lancaster expansion (``mi_variance.total_variance``), a slot mixture against a fixed side
or another slot mixture by the slot sums (:mod:`mi_variance_slots`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.elementary import gammaln
from chanceclust._expected.laws import Law, SizeLaw, SlotMixture
from chanceclust._expected.mi_variance import SizeMoments, _between_variance
from chanceclust._expected.mi_variance_slots import Deviance
from chanceclust._expected.windows import (
    hypergeometric_sums,
    hypergeometric_window,
    mode_recurrence_sums,
    tail_halfwidth,
)
from chanceclust.exceptions import InternalError

__all__ = [
    "TsallisCell", "expected_entropy_q", "expected_joint_entropy_q", "mi_q_variance",
    "tsallis_terms", "window_points",
]

# Mixture pairs whose weight is below this fraction of the largest are dropped: each term
# c_u c_v u v E[g] is at most H_q's largest value, so they change the sum by < 1e-22 of it.
_NEGLIGIBLE_PAIR = 1e-22


def tsallis_terms(x: NDArray, n: int, q: float) -> NDArray[np.float64]:
    """g_q(x) = (x/N) (1 - (x/N)^(q-1)) / (q - 1) >= 0, as -(x/N) expm1((q-1) log(x/N)) / (q-1).

    The expm1 form keeps full relative accuracy for q near 1 (g -> -(x/N) log(x/N)) and
    log1p((x - N)/N) is used where x > N/2, as for the Shannon entropy. g(0) = 0 (q > 0).
    """
    xf = np.asarray(x, dtype=np.float64)
    frac = xf / n
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(2.0 * xf > n, np.log1p((xf - n) / n), np.log(np.where(xf > 0, frac, 1.0)))
        if q == 1.0:
            out = -frac * logs
        else:
            out = -frac * np.expm1((q - 1.0) * logs) / (q - 1.0)
    return np.where(xf > 0, np.maximum(out, 0.0), 0.0)


# ------------------------------------------------------------------ the cell function of N MI_q

#: Terms of the series of K_q (:func:`_divergence_ratio`) where |log t| < min(1/2, 1/q):
#: the k-th is at most k |L|^(k-2) / (k-2)! of the second's size, < 1e-20 of it at k = 24.
_SERIES_TERMS = 24


def _divergence_ratio(x: NDArray[np.float64], mean: NDArray[np.float64], q: float
                      ) -> NDArray[np.float64]:
    """K_q(t) = (t^q - 1 - q (t - 1)) / (q - 1) >= 0 at t = x / mean (x >= 0, mean > 0).

    With L = log t: sum_{k >= 2} c_k L^k / k!, c_2 = q, c_{k+1} = q (1 + c_k) (no division
    by q - 1) where |L| < min(1/2, 1/q); elsewhere 1 - t + t expm1((q - 1) L) / (q - 1),
    whose terms are O(|L|) against a value >= ~q L^2 / 2 (a few eps relative at the
    switch, uniformly in q); 1 at x = 0. q = 1 is t log t - t + 1 = bd0(x, mean) / mean.
    """
    x, mean = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(mean, np.float64))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log = np.log1p((x - mean) / mean)
        t = x / mean
        direct = 1.0 - t + t * (np.expm1((q - 1.0) * log) / (q - 1.0))
    near = np.abs(log) < min(0.5, 1.0 / q)
    if near.any():
        ell = log[near]
        power, coef = ell * ell / 2.0, q
        terms = []
        for k in range(2, _SERIES_TERMS + 1):
            terms.append(coef * power)
            power = power * ell / (k + 1)
            coef = q * (1.0 + coef)
        direct[near] = np.sum(terms[::-1], axis=0)
    return np.where(x > 0, direct, 1.0)


@dataclass(frozen=True)
class TsallisCell(Deviance):
    """The cell function of T = N MI_q (q != 1, N elements) for the routes of Var[MI].

    N MI_q = const + sum_cells x^q / ((q - 1) N^(q - 1)). ``bregman(x, m)`` is that term's
    Bregman divergence at m, F(x, m) = m (m/N)^(q-1) K_q(x/m) >= 0 (bd0 at q = 1), so that,
    given u slots, a fixed side's rows of means a/u (and the column totals, mean N/u) leave
    a linear part whose sum over a row is a constant: T = sum_cells F - sum_totals F +
    ``one_sided_shift`` = N H_q(A) (1 - u^(1-q)), or, two-sided (u, v slots),
    J - R_A - C_B + ``two_sided_shift`` = N (1 - u^(1-q)) (1 - v^(1-q)) / (q - 1)
    (docs/math.md#math-tsallis). ``small``: (x^q - x) / ((q - 1) N^(q-1)), 0 at x = 0, 1.
    Two fixed sides: F at the cell's mean a b / N (``of_cells``) plus ``slopes`` x, the
    slope of the term at the mean less the constant q / (q - 1).
    """

    n: int
    q: float

    def _scale(self, mean: NDArray) -> NDArray[np.float64]:  # m (m/N)^(q-1)
        with np.errstate(divide="ignore", invalid="ignore"):  # mean 0: rows not taken
            return mean * np.exp((self.q - 1.0) * np.log(mean / self.n))

    def bregman(self, x: NDArray, mean: NDArray | float) -> NDArray[np.float64]:
        m = np.asarray(mean, dtype=np.float64)
        return self._scale(m) * _divergence_ratio(x, m, self.q)

    def small(self, xf: NDArray[np.float64]) -> NDArray[np.float64]:
        q = self.q
        with np.errstate(divide="ignore", invalid="ignore"):
            value = xf * np.exp((1.0 - q) * np.log(self.n)) * np.expm1((q - 1.0) * np.log(xf)) / (q - 1.0)
        return np.where(xf > 1.0, value, 0.0)

    def of_cells(self, x: NDArray, a: NDArray, b: NDArray, n: int) -> NDArray[np.float64]:
        return self.bregman(x, a * b / float(n))

    def slopes(self, a: NDArray, b: NDArray, n: int) -> NDArray[np.float64]:
        q = self.q
        return q * np.expm1((q - 1.0) * np.log(a * b / (float(n) * n))) / (q - 1.0)

    def one_sided_shift(self, sizes: NDArray, weights: NDArray, u: float) -> float:
        entropy = float(np.asarray(weights, np.float64) @ tsallis_terms(sizes, self.n, self.q))
        return -self.n * entropy * float(np.expm1((1.0 - self.q) * np.log(u)))

    def two_sided_shift(self, u: NDArray, v: NDArray) -> NDArray[np.float64]:
        lift = 1.0 - self.q
        return self.n * np.expm1(lift * np.log(u)) * np.expm1(lift * np.log(v)) / (self.q - 1.0)


# ------------------------------------------------------------------ windows


def _binomial_window(n: NDArray[np.int64], p: NDArray[np.float64]):
    """(lo, mode, hi) of Binomial(n, p), mass < 1e-20 outside [lo, hi] (Bennett)."""
    nf = n.astype(np.float64)
    mean = nf * p
    half = tail_halfwidth(mean * (1.0 - p))
    lo = np.maximum(np.floor(mean - half), 0.0).astype(np.int64)
    hi = np.minimum(np.ceil(mean + half), nf).astype(np.int64)
    mode = np.clip(np.floor((nf + 1.0) * p).astype(np.int64), lo, hi)
    return lo, mode, hi


def window_points(law_a: Law, law_b: Law | None = None) -> int:
    """The number of pmf points the expectation of ``law_a`` (and of its table with ``law_b``)
    evaluates: the cost the public layer bounds before calling."""
    n = law_a.n
    if law_b is None:
        if isinstance(law_a, SizeLaw):
            return len(law_a.sizes)
        lo, _, hi = _binomial_window(np.full(len(law_a.slots), n), 1.0 / law_a.slots)
        return int(np.sum(hi - lo + 1))
    if isinstance(law_a, SizeLaw) and isinstance(law_b, SizeLaw):
        a, b = np.meshgrid(law_a.sizes, law_b.sizes, indexing="ij")
        lo, _, hi = hypergeometric_window(a.ravel(), b.ravel(), n)
        return int(np.sum(hi - lo + 1))
    sizes, p, _ = _binomial_arguments(law_a, law_b)
    lo, _, hi = _binomial_window(sizes, p)
    return int(np.sum(hi - lo + 1))


# ------------------------------------------------------------------ expectations of g


def _binomial_expectations(n: NDArray[np.int64], p: NDArray[np.float64], total: int, q: float
                           ) -> NDArray[np.float64]:
    """E[g(X)], X ~ Binomial(n, p), for each row (p real in (0, 1]; g normalized by ``total``).

    The pmf is carried from its mode (value 1) by its ratios and the sum divided by the
    window's own sum: no pmf evaluation, ~sqrt(steps) eps relative (docs/math.md#math-tsallis).
    """
    out = np.empty(len(n))
    sure = p >= 1.0  # one slot: X = n
    out[sure] = tsallis_terms(n[sure], total, q)
    rows = ~sure
    n, p = n[rows], p[rows]
    lo, mode, hi = _binomial_window(n, p)
    nf = n.astype(np.float64)
    odds = p / (1.0 - p)

    def ratio_up(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return (nf[i, None] - x) / (x + 1.0) * odds[i, None]  # P(x+1)/P(x)

    def ratio_down(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return x / (nf[i, None] - x + 1.0) / odds[i, None]  # P(x-1)/P(x)

    def term(i: NDArray[np.intp], x: NDArray[np.int64]) -> NDArray[np.float64]:
        return tsallis_terms(x, total, q)

    def one(i: NDArray[np.intp], x: NDArray[np.int64]) -> NDArray[np.float64]:
        return np.ones(x.shape)

    args = (mode, hi - mode, mode - lo, np.ones(len(n)), ratio_up, ratio_down)
    out[rows] = mode_recurrence_sums(*args, term) / mode_recurrence_sums(*args, one)
    return out


def _hypergeometric_expectations(a: NDArray[np.int64], b: NDArray[np.int64], n: int, q: float
                                 ) -> NDArray[np.float64]:
    """E[g(X)], X ~ Hypergeometric(N, a, b): Loader's pmf at the mode, ratios outwards."""
    return hypergeometric_sums(a, b, n, lambda i, x: tsallis_terms(x, n, q))


def _binomial_arguments(law_a: Law, law_b: Law):
    """(trials, p, weight) of the binomial cells of a table with at least one slot mixture."""
    if isinstance(law_a, SizeLaw):
        law_a, law_b = law_b, law_a
    if not isinstance(law_a, SlotMixture):
        raise InternalError("a binomial table needs a slot mixture")
    n = law_a.n
    slots = np.asarray(law_a.slots, dtype=np.float64)
    if isinstance(law_b, SizeLaw):  # sum_a w(a) sum_v c_v v E[g(Bin(a, 1/v))]
        sizes, u = np.meshgrid(law_b.sizes, slots, indexing="ij")
        weight = np.outer(law_b.weights, law_a.coefs * slots)
        return sizes.ravel(), 1.0 / u.ravel(), weight.ravel()
    other = np.asarray(law_b.slots, dtype=np.float64)
    weight = np.outer(law_a.coefs * slots, law_b.coefs * other)
    keep = np.abs(weight) > _NEGLIGIBLE_PAIR * np.abs(weight).max()
    product = np.outer(slots, other)[keep]
    return np.full(product.size, n, dtype=np.int64), 1.0 / product, weight[keep]


def expected_entropy_q(law: Law, q: float) -> float:
    """E[H_q] of one side (a size law: its sizes' H_q when the law is exact)."""
    n = law.n
    if n == 0:
        return 0.0
    if isinstance(law, SizeLaw):
        return float(law.weights @ tsallis_terms(law.sizes, n, q))
    slots = np.asarray(law.slots, dtype=np.float64)
    values = _binomial_expectations(np.full(len(slots), n, dtype=np.int64), 1.0 / slots, n, q)
    return float((law.coefs * slots) @ values)


def expected_joint_entropy_q(law_a: Law, law_b: Law, q: float) -> float:
    """E[H_q(A, B)] of the table of two independent sides."""
    n = law_a.n
    if n == 0:
        return 0.0
    if isinstance(law_a, SizeLaw) and isinstance(law_b, SizeLaw):
        a, b = np.meshgrid(law_a.sizes, law_b.sizes, indexing="ij")
        values = _hypergeometric_expectations(a.ravel(), b.ravel(), n, q)
        return float(np.outer(law_a.weights, law_b.weights).ravel() @ values)
    sizes, p, weight = _binomial_arguments(law_a, law_b)
    return float(weight @ _binomial_expectations(sizes, p, n, q))


# ------------------------------------------------------------------ Var[MI_q] from size moments


def _conditional_pmfs(log_factorials: NDArray[np.float64], total: int,
                      draws: NDArray[np.int64], marked: int
                      ) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Rows r: the pmf of Y ~ Hypergeometric(total, draws[r], marked) over y = 0..marked,
    from the table ``log_factorials[k] = log k!`` (each row divided by its own sum: the
    constant log C(total, marked) cancels; ~eps log(total!) relative per point, < 1e-11 for
    total <= 10^4). Rows with no valid y (draws out of range: probability 0) are 0."""
    y = np.arange(marked + 1)
    d = draws[:, None]
    rest = total - marked
    inside = (y <= d) & (d - y <= rest)
    zero = np.zeros((), dtype=np.int64)
    log = -(
        log_factorials[y] + log_factorials[marked - y]
        + log_factorials[np.where(inside, d - y, zero)]
        + log_factorials[np.where(inside, rest - d + y, zero)]
    )
    top = np.max(np.where(inside, log, -np.inf), axis=1, keepdims=True)
    pmf = np.where(inside, np.exp(np.where(inside, log - np.where(np.isfinite(top), top, 0.0), 0.0)), 0.0)
    sums = pmf.sum(axis=1, keepdims=True)
    return y, pmf / np.where(sums > 0, sums, 1.0)


def mi_q_variance(n: int, rows: SizeMoments, cols: SizeMoments, q: float) -> float:
    """Var[MI_q] of two independent sides given by their size moments (q any > 0).

    docs/math.md#math-tsallis. Var = E[Var(H_q(A, B) | sizes)] + Var(E[MI_q | sizes]).
    The first is the sum of the covariances of two cells given the sizes, by whether they
    share the row, the column, neither, or are the same cell, with the counts of sizes and of
    ordered pairs of distinct sizes replaced by their expectations W, W2 (it is linear in
    each side's counts). With X = n_ij ~ Hyp(N, a, b), and drawing column j then column j'
    (the order of mi_variance's docstring): n_ij' | X = x ~ Hyp(N - b, a - x, b');
    n_i'j | x ~ Hyp(N - a, a', b - x); n_i'j' | n_i'j = m ~ Hyp(N - b, a' - m, b'); every
    covariance a sum of centred terms. The second: E[MI_q | sizes] = sum_i h(a_i) +
    sum_j h(b_j) - sum_ij e(a_i, b_j), a quadratic form in the size counts' covariances,
    by ``mi_variance._between_variance`` with e - h_A (b/N)^T - (a/N) h_B^T in place of e
    (the covariances annihilate the sizes a: sum_a a n_a = N).
    """
    within, mean = _within_variance(n, rows, cols, q)
    if rows.spread is None and cols.spread is None:
        return within
    h_rows, h_cols = tsallis_terms(rows.sizes, n, q), tsallis_terms(cols.sizes, n, q)
    shifted = mean - np.outer(h_rows, cols.sizes / n) - np.outer(rows.sizes / n, h_cols)
    return within + _between_variance(rows, cols, shifted)


def _within_variance(n: int, rows_m: SizeMoments, cols_m: SizeMoments, q: float):
    """(E[Var(H_q(A, B) | sizes)], the matrix of E[g(n_ij)] by sizes) of :func:`mi_q_variance`."""
    rows, cols = rows_m.sizes.astype(np.int64), cols_m.sizes.astype(np.int64)
    wa, wb = rows_m.once, cols_m.once
    w2a, w2b = rows_m.pairs, cols_m.pairs
    log_factorials = gammaln(np.arange(n + 1) + 1.0)

    def conditional(total, draws, marked):
        return _conditional_pmfs(log_factorials, total, draws, marked)

    # Each cell's law, its mean of g and its centred g (Dc).
    cell = {}
    for a in rows.tolist():
        for b in cols.tolist():
            x, p = conditional(n, np.array([a]), b)
            p = p[0]
            gx = tsallis_terms(x, n, q)
            mean = float(p @ gx)
            cell[a, b] = (x, p, mean, p * (gx - mean))
    same = sum(wa[i] * wb[j] * float(cell[a, b][3] @ (tsallis_terms(cell[a, b][0], n, q) - cell[a, b][2]))
               for i, a in enumerate(rows.tolist()) for j, b in enumerate(cols.tolist()))

    def shared(first, w_first, second, w2_second, first_is_row):
        # Cells (i, j), (i, j') of one row (or column): X = x, then the other cell
        # ~ Hyp(N - b, a - x, b') given x.
        total = 0.0
        for i, a in enumerate(first.tolist()):
            for j, b in enumerate(second.tolist()):
                key = (a, b) if first_is_row else (b, a)
                x, _, _, weighted = cell[key]
                for k, b2 in enumerate(second.tolist()):
                    if w2_second[j, k] == 0:
                        continue
                    y, cond = conditional(n - b, a - x, b2)
                    other = cell[(a, b2) if first_is_row else (b2, a)][2]
                    given = cond @ tsallis_terms(y, n, q) - other
                    total += w_first[i] * w2_second[j, k] * float(weighted @ given)
        return total

    row_pairs = shared(rows, wa, cols, w2b, True)
    col_pairs = shared(cols, wb, rows, w2a, False)
    # Neither: (i, j), (i', j'): x -> m = n_i'j ~ Hyp(N - a, a', b - x) -> y ~ Hyp(N - b, a' - m, b').
    neither = 0.0
    for k, a2 in enumerate(rows.tolist()):
        for j, b in enumerate(cols.tolist()):
            m = np.arange(a2 + 1)  # m > b has probability 0 below
            h = np.zeros(len(m))  # sum_j' W2_B(b, b') (E[g(n_i'j') | m] - E[g(n_i'j')])
            for l, b2 in enumerate(cols.tolist()):
                if w2b[j, l] == 0:
                    continue
                y, cond = conditional(n - b, a2 - m, b2)
                h += w2b[j, l] * (cond @ tsallis_terms(y, n, q) - cell[a2, b2][2])
            for i, a in enumerate(rows.tolist()):
                if w2a[i, k] == 0:
                    continue
                x, _, _, weighted = cell[a, b]
                _, given = conditional(n - a, b - x, a2)  # m | x over m = 0..a'
                neither += w2a[i, k] * float(weighted @ (given @ h))
    mean = np.array([[cell[a, b][2] for b in cols.tolist()] for a in rows.tolist()])
    return same + row_pairs + col_pairs + neither, mean
