"""The expected mutual information of two independent random clusterings, from their laws.

docs/math.md#math-collapsed-sums: E[MI] is never formed as E[H(A)] + E[H(B)] - E[H(A,B)],
whose terms cancel; sizes x sizes, sizes x mixture and mixture x mixture are each summed as
terms >= 0 (bd0 of the cells, slot deviances :func:`slot_deviance`).
"""

from __future__ import annotations

from math import comb

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.laws import Law, SizeLaw, SlotMixture, StamQuadrature
from chanceclust._expected.mixture_fits import FIT_NODES, fitted_joint_sum, fitted_mixture_sums
from chanceclust._expected.pmfs import binom_pmf, deviance, exact_offset
from chanceclust._expected.size_pairs import information_sums
from chanceclust._expected.windows import mode_recurrence_sums, tail_halfwidth
from chanceclust.exceptions import InternalError

# Above this many slot pairs the joint mixture sum goes through a fit in log u,
# and mixtures with more than 2 * FIT_NODES slots go through fits in log u.
_DIRECT_PAIRS = 10_000


# Windows starting at 0 and at most this long use the pmf recurrence below.
_SHORT_WINDOW = 48


# Binomials with at least this variance use the moment expansion of D (error < 1e-22).
_ASYMPTOTIC_VARIANCE = 2.0**20
_EXPANSION_ORDER = 12


def slot_deviance(a: NDArray[np.int64], u: NDArray) -> NDArray[np.float64]:
    """D(a, u) = u E[bd0(X, a/u)], X ~ Binomial(a, 1/u), for each pair (a, u); D(a, 1) = 0.

    ``u`` may be real (float64) where the mean a/u is small (the joint slots
    u_A u_B of two-sided ``all`` beyond 2**62); binomials of variance above
    2**20 use :func:`_expanded_slot_deviance`, the others the pmf summed over
    its Bennett window.
    """
    real = np.asarray(u).dtype.kind == "f"
    a = np.asarray(a).astype(np.int64)
    out = np.zeros(len(a), dtype=np.float64)
    uf = np.asarray(u, dtype=np.float64)
    mean = a / np.maximum(uf, 1.0)
    variance = mean * (1.0 - 1.0 / np.maximum(uf, 1.0))
    half = tail_halfwidth(variance)
    lo = np.maximum(np.floor(mean - half), 0.0)
    hi = np.minimum(np.ceil(mean + half), a)
    live = (uf > 1) & (a > 0)
    short = live & (lo == 0) & (hi <= _SHORT_WINDOW)
    expanded = live & (variance >= _ASYMPTOTIC_VARIANCE)
    long_ = live & ~short & ~expanded
    if real and long_.any():
        raise InternalError("real slots need small means")  # callers guarantee it
    out[short] = _short_slot_deviance(a[short], uf[short], int(hi[short].max(initial=0)))
    out[expanded] = _expanded_slot_deviance(a[expanded].astype(np.float64), uf[expanded])
    if not long_.any():
        return out
    u = np.asarray(u).astype(np.int64)
    a, u = a[long_], u[long_]
    lo, hi = lo[long_].astype(np.int64), hi[long_].astype(np.int64)
    af, uf = a.astype(np.float64), u.astype(np.float64)
    mode = np.clip((a + 1) // u, lo, hi)

    def ratio_up(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return (af[i, None] - x) / ((x + 1.0) * (uf[i, None] - 1.0))  # P(x+1)/P(x)

    def ratio_down(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return x * (uf[i, None] - 1.0) / (af[i, None] - x + 1.0)  # P(x-1)/P(x)

    def term(i: NDArray[np.intp], x: NDArray[np.int64]) -> NDArray[np.float64]:
        ai, ui = a[i, None], u[i, None]
        return deviance(x, ai / ui, exact_offset(x, ai, ui))

    at_mode = binom_pmf(mode, a, u)
    out[long_] = u * mode_recurrence_sums(
        mode, hi - mode, mode - lo, at_mode, ratio_up, ratio_down, term
    )
    return out


def _binomial_central_moments(a: NDArray[np.float64], p: NDArray[np.float64]) -> list:
    """E[(X - ap)^k], k = 0 .. _EXPANSION_ORDER, for X ~ Binomial(a, p) (from its cumulants).

    Cumulants kappa_r = a c_r(p), c_1 = p, c_{r+1} = p (1 - p) c_r'(p); moments by
    mu_k = sum_j C(k-1, j) kappa_{k-j} mu_j (mu_0 = 1, mu_1 = 0).
    """
    poly = np.polynomial.Polynomial([0.0, 1.0])
    step = np.polynomial.Polynomial([0.0, 1.0, -1.0])
    kappa = [None, a * p]
    for _ in range(2, _EXPANSION_ORDER + 1):
        poly = step * poly.deriv()
        kappa.append(a * poly(p))
    mu = [np.ones_like(a), np.zeros_like(a)]
    for k in range(2, _EXPANSION_ORDER + 1):
        mu.append(sum(comb(k - 1, j) * kappa[k - j] * mu[j] for j in range(k - 1)))
    return mu


def _expanded_slot_deviance(a: NDArray[np.float64], u: NDArray[np.float64]) -> NDArray[np.float64]:
    """D(a, u) for binomials of large variance v = a (1/u)(1 - 1/u) >= 2**20: a moment expansion.

    bd0(x, m) = m phi((x - m)/m), phi(t) = (1 + t) log(1 + t) - t
    = sum_{k>=2} (-1)^k t^k / (k (k - 1)), so D = u m E[phi] = a sum_k
    (-1)^k mu_k / (m^k k (k - 1)) with the binomial's central moments mu_k
    (exact polynomials in a and 1/u). Terms k = 2j - 1, 2j are O(v^(1-j))
    relative to the first; truncating after k = 12 leaves O(v^-6) < 1e-30
    (the series is asymptotic: P(X = 0) < exp(-2**20) is all it misses).
    """
    p = 1.0 / u
    m = a * p
    mu = _binomial_central_moments(a, p)
    total = np.zeros_like(a)
    for k in range(_EXPANSION_ORDER, 1, -1):  # smallest terms first
        total += (-1) ** k * (mu[k] / m**k) / (k * (k - 1))
    return a * total


def _short_slot_deviance(
    a: NDArray[np.int64], u: NDArray[np.int64], top: int
) -> NDArray[np.float64]:
    """D(a, u) for small means: the pmf by its ratio recurrence from P(X = 0), as a 2-D array.

    P(0) = exp(a log1p(-1/u)) has relative error ~eps a/u (< 1e-14 here, where
    the mean is below ~20) and each of the <= 48 ratio steps adds one rounding.
    """
    x = np.arange(top + 1, dtype=np.float64)
    af, uf = a.astype(np.float64)[:, None], u.astype(np.float64)[:, None]
    ratios = np.clip(af - x[:-1], 0.0, None) / ((x[:-1] + 1.0) * (uf - 1.0))
    pmf = np.empty((len(a), top + 1))
    pmf[:, 0] = np.exp(a * np.log1p(-1.0 / u))
    pmf[:, 1:] = pmf[:, :1] * np.cumprod(ratios, axis=1)
    d = (x * uf - af) / uf
    return u * np.sum(pmf * deviance(x, af / uf, d), axis=1)


def _sizes_sizes(law_a: SizeLaw, laws_b: list[SizeLaw]) -> list[float]:
    """The sizes x sizes E[MI] of ``law_a`` against each of ``laws_b`` (of the same N), each
    the same float as alone (``size_pairs.information_sums``)."""
    others = [(law.sizes, law.weights) for law in laws_b]
    return information_sums(law_a.sizes, law_a.weights, others, law_a.n)


def mixture_sums(sizes: NDArray[np.int64], mixture: SlotMixture) -> NDArray[np.float64]:
    """sum_u c_u D(a, u) for each a in ``sizes``: by fits in log u when there are many slots."""
    within = None
    quadrature = isinstance(mixture, StamQuadrature)
    if quadrature or len(mixture.slots) > 2 * FIT_NODES:
        within = fitted_mixture_sums(sizes, mixture, slot_deviance)
    if within is None:
        if quadrature:  # real slots: only the fit applies (never seen to fail)
            raise InternalError("the fit of the slot deviances over Stam's law failed")
        a, u = np.meshgrid(sizes, mixture.slots, indexing="ij")
        within = slot_deviance(a.ravel(), u.ravel()).reshape(a.shape) @ mixture.coefs
    return within


def _sizes_mixture(law_a: SizeLaw, law_b: SlotMixture) -> float:
    n = law_a.n
    within = mixture_sums(np.append(law_a.sizes, n), law_b)
    return float(law_a.weights @ within[:-1] - within[-1]) / n


def _mixture_mixture(law_a: SlotMixture, law_b: SlotMixture) -> float:
    n = law_a.n
    side_a = mixture_sums(np.array([n]), law_a)[0]
    side_b = mixture_sums(np.array([n]), law_b)[0]
    joint = None
    quadrature = isinstance(law_a, StamQuadrature) or isinstance(law_b, StamQuadrature)
    if quadrature or len(law_a.slots) * len(law_b.slots) > _DIRECT_PAIRS:
        joint = fitted_joint_sum(n, law_a, law_b, slot_deviance)
    if joint is None:
        if quadrature:
            raise InternalError("the fit of the joint slot deviances failed")
        joint = _joint_direct(law_a, law_b)
    # The coefficients of each side sum to 1, so the side terms need no pairing.
    return float(joint - side_a - side_b) / n


def _joint_direct(law_a: SlotMixture, law_b: SlotMixture) -> float:
    """sum c_A c_B D(N, u_A u_B) term by term."""
    n = law_a.n
    weights = np.outer(law_a.coefs, law_b.coefs)
    # Pairs whose weight is below 1e-22 of the largest change E[MI] by < 1e-17 relative:
    # every term of the joint sum is of the size of the whole.
    keep = np.abs(weights) > 1e-22 * np.abs(weights).max()
    ua, ub = np.meshgrid(law_a.slots, law_b.slots, indexing="ij")
    ua, ub = ua[keep], ub[keep]
    # Products beyond int64 (K_A K_B >= 2^63 under num) as floats: their binomial means
    # N / (u_A u_B) are below 2, where slot_deviance takes real slots.
    wide = ua.astype(np.float64) * ub.astype(np.float64) >= 2.0**62
    values = np.empty(ua.size)
    values[~wide] = slot_deviance(np.full(int(np.sum(~wide)), n), ua[~wide] * ub[~wide])
    values[wide] = slot_deviance(
        np.full(int(np.sum(wide)), n), ua[wide].astype(np.float64) * ub[wide]
    )
    return float(weights[keep] @ values)


def expected_mi_of_laws(law_a: Law, law_b: Law) -> float:
    """E[MI] (nats) between independent clusterings drawn from ``law_a`` and ``law_b``."""
    if law_a.n <= 1:
        return 0.0
    if isinstance(law_a, SizeLaw) and isinstance(law_b, SizeLaw):
        return _sizes_sizes(law_a, [law_b])[0]
    if isinstance(law_a, SizeLaw):
        return _sizes_mixture(law_a, law_b)
    if isinstance(law_b, SizeLaw):
        return _sizes_mixture(law_b, law_a)
    return _mixture_mixture(law_a, law_b)


def expected_mi_of_law_rows(law_a: Law, laws_b: list[Law]) -> list[float]:
    """:func:`expected_mi_of_laws` of ``law_a`` against each of ``laws_b`` (one N), each the
    same float as its own call: the size laws among ``laws_b`` in one call of the sizes x sizes
    kernel, which steps their 2-D pmf blocks together."""
    out = [0.0] * len(laws_b)
    if law_a.n <= 1:
        return out
    sized: list[int] = []
    if isinstance(law_a, SizeLaw):
        sized = [i for i, law in enumerate(laws_b) if isinstance(law, SizeLaw)]
        values = _sizes_sizes(law_a, [law for law in laws_b if isinstance(law, SizeLaw)])
        for i, value in zip(sized, values, strict=True):
            out[i] = value
    rest = set(range(len(laws_b))) - set(sized)
    for i in sorted(rest):
        out[i] = expected_mi_of_laws(law_a, laws_b[i])
    return out
