"""The random models as laws of cluster sizes: what every expectation is computed from.

A random or fixed side enters every expectation through one of two laws (docs/math.md#math-laws):
:class:`SizeLaw`, the expected number w(a) of clusters of each size (a fixed side's own
counts, or ``num`` with small clusters), or :class:`SlotMixture`, a mixture over u of i.i.d.
uniform labelings with u labels (Stam's for ``all``, inclusion-exclusion for ``num`` where well
conditioned), under which the sums over sizes collapse to binomial sums. From N = 10^4
Stam's mixture is :class:`StamQuadrature`, a 48-node Gauss-Hermite rule in real u.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.curvature import stirling2_ratio_curvature
from chanceclust._expected.edgeworth import (
    LATTICE_EXPANSION_FROM,
    edgeworth_log_correction,
    ztp_cumulant_series,
    ztp_mean_series,
)
from chanceclust._expected.elementary import (
    falling,
    gammaln,
    lambertw,
    logsumexp,
    polygamma_large,
    truncated_poisson_rate,
)
from chanceclust._expected.lattice import ztp_saddle, ztp_variance
from chanceclust._expected.taylor import series_log
from chanceclust.exceptions import InternalError

__all__ = ["SizeLaw", "SlotMixture", "StamQuadrature", "pair_probabilities"]

# Mixture terms below this fraction of the largest are dropped (their total is
# bounded by the same factor times the number of terms).
_NEGLIGIBLE_LOG = np.log(1e-30)
# The inclusion-exclusion mixture is accepted when sum |c| <= this * |sum c|,
# which bounds the loss of relative accuracy by the same factor.
_MAX_CONDITION = 2.0
# Inclusion-exclusion terms evaluated before deciding (they are log-concave in j).
_MIXTURE_TERMS = 256


@dataclass(frozen=True)
class SizeLaw:
    """Expected number of clusters of each size: ``weights[i]`` clusters of size ``sizes[i]``.

    ``exact`` is True when the weights are integer counts (a fixed size sequence).
    """

    n: int
    sizes: NDArray[np.int64]
    weights: NDArray[np.float64]
    exact: bool

    def __post_init__(self) -> None:
        # Laws are cached and shared: make their arrays read-only.
        self.sizes.setflags(write=False)
        self.weights.setflags(write=False)


@dataclass(frozen=True)
class SlotMixture:
    """A mixture of i.i.d. uniform labelings: with weight ``coefs[i]``, ``slots[i]`` labels."""

    n: int
    slots: NDArray[np.int64]
    coefs: NDArray[np.float64]

    def __post_init__(self) -> None:
        self.slots.setflags(write=False)
        self.coefs.setflags(write=False)


@dataclass(frozen=True)
class StamQuadrature(SlotMixture):
    """Stam's mixture for huge N as a Gauss-Hermite rule: real ``slots`` = ``centre + offsets``.

    ``offsets`` are kept separately (exactly as computed), so differences such
    as 1/u - 1/centre lose nothing to the size of u.
    """

    centre: float
    offsets: NDArray[np.float64]

    def __post_init__(self) -> None:
        super().__post_init__()
        self.offsets.setflags(write=False)


Law = SizeLaw | SlotMixture


def fixed_law(sizes: NDArray[np.int64], total: int | None = None) -> SizeLaw:
    """The law of a clustering with the given cluster sizes (perm, or a fixed reference).

    ``total``, if given, must be the sum of ``sizes`` (the callers have checked it):
    it bounds the largest size, which saves a pass over K ~ 1e7 sizes.
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    many = sizes.size > 4096
    if many and (total if total is not None else int(sizes.max())) <= 4 * sizes.size:  # O(K)
        tally = np.bincount(sizes)
        values = np.flatnonzero(tally)
        counts = tally[values]
    else:
        values, counts = np.unique(sizes, return_counts=True)
    if total is None:  # from the distinct sizes (exact Python ints): no pass over all K sizes
        total = sum(int(v) * int(c) for v, c in zip(values, counts, strict=True)) if len(values) < 1024 else int(values @ counts)
    return SizeLaw(total, values, counts.astype(np.float64), True)


def _stam_mixture(n: int) -> SlotMixture:
    """Stam's mixture for a uniform clustering of n elements: P(u) = u^n / (e u! B_n)."""
    # The log-weights f(u) = n log u - log u! are concave; mode where n log(1+1/u) = log(u+1).
    lo, hi = 1, max(2, n)
    while lo < hi:
        mid = (lo + hi) // 2
        if n * np.log1p(1.0 / mid) > np.log(mid + 1.0):
            lo = mid + 1
        else:
            hi = mid
    mode = lo
    spread = 1.0 / np.sqrt(n / mode**2 + 1.0 / mode)
    half = int(12 * spread) + 16
    while True:
        u = np.arange(max(1, mode - half), mode + half + 1, dtype=np.int64)
        at_mode = mode - int(u[0])
        # f(u) - f(mode) = n log(u/mode) - log(u!/mode!); the factorial ratio is a
        # cumulative sum of log j counted from the mode, so its rounding stays small.
        cumulative = np.cumsum(np.log(u.astype(np.float64)))
        log_w = n * np.log1p((u - mode) / mode) - (cumulative - cumulative[at_mode])
        if log_w[-1] < _NEGLIGIBLE_LOG - 10 and (u[0] == 1 or log_w[0] < _NEGLIGIBLE_LOG - 10):
            break
        half *= 2
    keep = log_w > _NEGLIGIBLE_LOG - 10
    u, log_w = u[keep], log_w[keep]
    return SlotMixture(n, u, np.exp(log_w - logsumexp(log_w)))


def _log_binomials(k: int, j: NDArray[np.int64]) -> NDArray[np.float64]:
    """log C(k, j) for j = 0, 1, ... < k: j log k + sum_{i<j} log1p(-i/k) - log j! (~1e-12 abs).

    No difference of log-gammas of size k log k (docs/math.md#math-laws).
    """
    falling = np.concatenate(([0.0], np.cumsum(np.log1p(-j[:-1] / k))))
    return j * math.log(k) + falling - gammaln(j + 1.0)


def _surjection_mixture(n: int, k: int) -> SlotMixture | None:
    """Inclusion-exclusion mixture for num, or None when it is ill-conditioned (its terms,
    evaluation and refusal: docs/math.md#math-laws)."""
    j = np.arange(0, min(k, _MIXTURE_TERMS), dtype=np.int64)
    log_abs = _log_binomials(k, j) + n * np.log1p(-j / k)
    if log_abs.max() > np.log(_MAX_CONDITION) or (
        len(j) < k and log_abs[-1] > _NEGLIGIBLE_LOG
    ):
        return None  # a term near 1 or beyond, or a tail that is not negligible yet
    keep = log_abs > _NEGLIGIBLE_LOG
    if not keep[1:].any():
        return SlotMixture(n, np.array([k], dtype=np.int64), np.ones(1))
    # T(n, k) <= 1, so sum |c| <= _MAX_CONDITION * T needs sum |c| <= _MAX_CONDITION.
    if logsumexp(log_abs[keep]) > np.log(_MAX_CONDITION):
        return None
    j, log_abs = j[keep], log_abs[keep]
    signs = np.where(j % 2 == 0, 1.0, -1.0)
    terms = signs * np.exp(log_abs)
    total = 1.0 + np.sum(terms[1:])  # T(n, k): the probability that n labels use all k
    if total <= 0 or np.sum(np.abs(terms)) > _MAX_CONDITION * total:
        return None
    return SlotMixture(n, k - j, terms / total)


# Convolutions up to this product of lengths are summed directly, FFT beyond
# (docs/math.md#math-routes: direct keeps each entry's relative accuracy).
_DIRECT_CONVOLUTION_MAX = 1 << 22


def _convolve_trimmed(
    first: tuple[int, int, NDArray[np.float64]],
    second: tuple[int, int, NDArray[np.float64]],
    n: int,
    k: int,
    sd: float,
) -> tuple[int, int, NDArray[np.float64]]:
    """Convolution of two scaled pmfs of sums (summands, offset, values), rescaled to max 1.

    Kept on m n/k +- (12 sqrt(m) sd + 40), the centre from exact integers (mass outside < 1e-30).
    """
    count = first[0] + second[0]
    length = len(first[2]) + len(second[2]) - 1
    if len(first[2]) * len(second[2]) <= _DIRECT_CONVOLUTION_MAX:
        values = np.convolve(first[2], second[2])
    else:
        size = 1 << (length - 1).bit_length()  # numpy's FFT: no scipy.fft import at first use
        product = np.fft.rfft(first[2], size) * np.fft.rfft(second[2], size)
        values = np.clip(np.fft.irfft(product, size)[:length], 0.0, None)
    offset = first[1] + second[1]
    centre = (count * n - offset * k) / k  # m n/k - offset, exactly rounded
    half = 12.0 * np.sqrt(count) * sd + 40.0
    lo = max(math.floor(centre - half), 0)
    hi = min(math.ceil(centre + half) + 1, length)
    values = values[lo:hi]
    return count, offset + lo, values / values.max()


def _surjection_size_law(n: int, k: int) -> SizeLaw:
    """w(a) = C(n,a) S(n-a, k-1) / S(n,k) for a = 1..n-k+1, negligible tails dropped: the
    conditioned-Poisson law by convolutions of docs/math.md#math-laws."""
    excess = (n - k) / k
    rho = float(truncated_poisson_rate(excess))
    sd = math.sqrt(ztp_variance(excess, rho))  # of the truncated Poisson
    a, log_p = _ztp_size_support(rho, n, k)
    size_count = len(a)
    base = (1, 1, np.exp(log_p))
    total: tuple[int, int, NDArray[np.float64]] | None = None
    power, remaining = base, k - 1
    while remaining:
        if remaining & 1:
            total = power if total is None else _convolve_trimmed(total, power, n, k, sd)
        remaining >>= 1
        if remaining:
            power = _convolve_trimmed(power, power, n, k, sd)
    assert total is not None
    index = n - a - total[1]
    inside = (index >= 0) & (index < len(total[2]))
    weights = np.zeros(size_count)
    weights[inside] = base[2][inside] * total[2][index[inside]]
    keep = weights > weights.max() * 1e-30
    return SizeLaw(n, a[keep], weights[keep] * (k / weights.sum()), False)


def _ztp_size_support(rho: float, n: int, k: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Sizes a = 1, 2, ... and log p(a) - max (ZTP(rho) pmf) down to ~4.5e-35 of the mode."""
    top = min(n - k + 1, int(rho + 40.0 * np.sqrt(rho) + 200))  # beyond: p(x)/p(mode) < 1e-40
    x = np.arange(1, top + 1, dtype=np.float64)
    log_p = x * np.log(rho) - gammaln(x + 1.0)
    log_p -= log_p.max()
    size_count = int(np.flatnonzero(log_p > _NEGLIGIBLE_LOG - 10)[-1]) + 1
    return np.arange(1, size_count + 1, dtype=np.int64), log_p[:size_count]


# Series terms of the mean mu(log rho + e) kept by the expansion of the size law (the
# exponent's terms fall by ~|theta| <= 0.1 each, so 16 reach ~1e-16 of the leading one, itself
# ~(a - mu)^2 / (2 m kappa_2) <~ 2).
_SIZE_SERIES_LENGTH = 16


def _edgeworth_size_law(n: int, k: int) -> SizeLaw:
    """w(a) = C(n,a) S(n-a,k-1)/S(n,k) for large k by the saddle-point (Edgeworth) expansion
    of docs/math.md#math-laws."""
    rho = float(truncated_poisson_rate((n - k) / k))
    length = _SIZE_SERIES_LENGTH
    mean = ztp_mean_series(np.array([rho]), length + 1)[0]
    kappa, lam = ztp_cumulant_series(mean, length)
    m = float(k - 1)
    # Constant terms dropped: the weights are normalized to sum k below.
    density = edgeworth_log_correction(lam, m) - 0.5 * series_log(kappa[2])
    j = np.arange(length + 1)
    exponent = np.zeros(length + 1)
    exponent[2:] = m * (1.0 - j[2:]) * mean[1:length] / j[2:]
    sizes, log_p = _ztp_size_support(rho, n, k)
    q, r = divmod(n, k)
    target = ((q - sizes).astype(np.float64) + r / k) / m  # mu(theta) - mu(0)
    shift = mean[1:]  # mu(theta) - mu(0) = sum_{i>=1} mean[i] theta^i
    slope = shift * np.arange(1, length + 1)
    theta = target / mean[1]
    for _ in range(8):
        step = (_series_value(shift, theta) * theta - target) / _series_value(slope, theta)
        theta = theta - step
        if np.all(np.abs(step) <= 1e-17 * np.abs(theta)):
            break
    log_w = log_p + _series_value(exponent, theta) + _series_value(density, theta) - density[0]
    weights = np.exp(log_w - log_w.max())
    keep = weights > 1e-30
    return SizeLaw(n, sizes[keep], weights[keep] * (k / weights.sum()), False)


def _series_value(coefs: NDArray[np.float64], x: NDArray[np.float64]) -> NDArray[np.float64]:
    """sum_i coefs[i] x^i by Horner."""
    out = np.zeros_like(x)
    for c in coefs[::-1]:
        out = out * x + c
    return out


def _small_cluster_size_law(n: int, k: int) -> SizeLaw:
    """The num size law by convolutions or, where the lattice variance is large, the expansion.

    The switch is ``edgeworth.LATTICE_EXPANSION_FROM``, as for the curvature: the expansion
    is within 1e-14 of exact integers from k Var X ~ 500 on (3e-15 at 1200), while the
    convolutions cost ~sqrt(k Var X) log k (and, once long enough for FFT, drift by ~1e-13
    per unit size at k = 1e5 .. 1e6, mean sizes near 1).
    """
    if ztp_saddle(n, k)[2] >= LATTICE_EXPANSION_FROM:
        return _edgeworth_size_law(n, k)
    return _surjection_size_law(n, k)


@lru_cache(maxsize=128)
def num_law(n: int, k: int) -> Law:
    """The law of a uniform clustering of n elements into exactly k clusters."""
    if k == 1:
        return fixed_law(np.array([n]))
    if k >= n - 1:  # a single size sequence: n singletons, or one pair and n - 2 singletons
        counts = {1: 2 * k - n, 2: n - k}  # without an array of n sizes (n may be ~2**63)
        sizes = np.array([a for a, c in counts.items() if c], dtype=np.int64)
        weights = np.array([float(c) for c in counts.values() if c])
        return SizeLaw(n, sizes, weights, True)
    mixture = _surjection_mixture(n, k)
    return mixture if mixture is not None else _small_cluster_size_law(n, k)


# From this N the ``all`` model is Stam's law as a Gauss-Hermite rule (StamQuadrature):
# the exact mixture would hold ~24 sqrt(N / log N) slots (1.3e8 at N = 1e15), and its
# weights, summed in log space, lose accuracy with N (Var(1/u) off by 1e-12 at N = 1e5).
STAM_QUADRATURE_FROM = 10**4
_HERMITE_NODES = 48
_TAYLOR_TERMS = 24


def _stam_quadrature(n: int) -> StamQuadrature:
    """Stam's law P(u) ~ u^n / u! as a 48-node Gauss-Hermite rule in real u (n >= 1e4).

    docs/math.md#math-laws: Poisson summation (error exp(-2 pi^2 sd^2), sd > 13), centre c
    by Newton (n / c = digamma(c + 1)), the rule carrying exp(g) of the Taylor series g of
    n log x - log Gamma(x + 1) beyond second order: moments of smooth functions ~1e-15.
    """
    x = n / float(lambertw(float(n)))  # x log x = n
    for _ in range(50):
        step = (n / x - float(polygamma_large(0, x + 1.0))) / (n / x**2 + float(polygamma_large(1, x + 1.0)))
        x += step
        if abs(step) <= 1e-15 * x:
            break
    centre = x
    curvature = n / centre**2 + float(polygamma_large(1, centre + 1.0))
    scale = 1.0 / np.sqrt(curvature)
    t, weights = np.polynomial.hermite_e.hermegauss(_HERMITE_NODES)
    g = np.zeros_like(t)
    ratio = scale / centre
    for k in range(3, _TAYLOR_TERMS + 1):
        # f^(k)(c) s^k / k! = (-1)^(k-1) n (s/c)^k / k - psi^(k-1)(c+1) s^k / k!
        coef = (-1) ** (k - 1) * n * ratio**k / k - float(polygamma_large(k - 1, centre + 1.0)) * (
            scale**k / math.factorial(k)
        )
        g += coef * t**k
        if abs(coef) * 12.0**k < 1e-20:
            break
    log_w = np.log(weights) + g
    coefs = np.exp(log_w - logsumexp(log_w))
    offsets = scale * t
    return StamQuadrature(n, centre + offsets, coefs, centre, offsets)


@lru_cache(maxsize=32)
def stam_mixture(n: int) -> SlotMixture:
    """Stam's law over the integers u (the exact mixture, also for sampling; n >= 2)."""
    return _stam_mixture(n)


@lru_cache(maxsize=32)
def all_law(n: int) -> Law:
    """The law of a uniform clustering of n elements (Bell ensemble)."""
    if n <= 1:
        return fixed_law(np.array([n])) if n == 1 else SizeLaw(0, np.zeros(0, np.int64), np.zeros(0), True)
    if n >= STAM_QUADRATURE_FROM:
        return _stam_quadrature(n)
    return stam_mixture(n)


def _pairs_together(law_: SizeLaw) -> tuple[int, int]:
    """(co-clustered pairs, all pairs) of a fixed size sequence, as exact integers."""
    n = law_.n
    together = sum(
        int(c) * (int(a) * (int(a) - 1) // 2)
        for a, c in zip(law_.sizes, law_.weights, strict=True)
    )
    return together, n * (n - 1) // 2


def pair_probabilities(law_: Law) -> tuple[float, float]:
    """(p, 1 - p), p = P(two given elements share a cluster): p_X of docs/math.md#math-expected-rand.

    The one definition of p_X: each of p and 1 - p is a sum of non-negative terms (exact
    integers over the pairs for a fixed size sequence, sum_a w(a) (a)_2 / (N)_2 for a size
    law, sum_u c_u / u and sum_u c_u (1 - 1/u) for a mixture), so neither is a cancelling
    difference.
    """
    n = law_.n
    if n < 2:
        return 1.0, 0.0
    if isinstance(law_, SizeLaw) and law_.exact:
        together, pairs = _pairs_together(law_)
        return together / pairs, (pairs - together) / pairs
    if isinstance(law_, SizeLaw):
        p = _size_law_moment(law_, 2)
        return p, 1.0 - p
    inverse = 1.0 / law_.slots
    return float(law_.coefs @ inverse), float(law_.coefs @ (1.0 - inverse))


def inverse_moments(law_: Law, k: int | None = None) -> tuple[float, float, float]:
    """(p1, g, v) of a random side: p1, g = p1 - p2 and v = p2 - p1^2 without cancellation.

    p2 = P(two given pairs both co-clustered) (docs/math.md#math-rand-variance): for a mixture
    E[d^2] - E[d]^2 with d = 1/u - 1/u0; for a num size law p1^2 expm1(c) with the curvature c
    of ``curvature.stirling2_ratio_curvature``, which needs the side's exact ``k``.
    """
    n = law_.n
    if n < 2:
        return 1.0, 0.0, 0.0
    if isinstance(law_, SlotMixture):
        _, d = _inverse_offsets(law_)
        inverse = 1.0 / law_.slots.astype(np.float64)
        mean_d = float(law_.coefs @ d)
        gap = float(law_.coefs @ (inverse * (1.0 - inverse)))
        return pair_probabilities(law_)[0], gap, float(law_.coefs @ (d * d)) - mean_d * mean_d
    p1 = pair_probabilities(law_)[0]
    if law_.exact:  # a fixed size sequence (num with K = 1, N - 1, N): falling moments
        p2 = falling_moment(law_, 3)
        return p1, p1 - p2, p2 - p1 * p1
    if k is None or not 2 <= k <= n - 2:  # K = 1, N - 1, N are fixed size sequences (above)
        raise InternalError(f"the moments of a num size law need its K in [2, N - 2]; got {k}")
    # p2 = S(N-2,K)/S(N,K) = p1^2 exp(c), c the curvature of log S(., K) (no cancellation).
    curvature = stirling2_ratio_curvature(n, k)
    return p1, p1 * (1.0 - p1 * math.exp(curvature)), p1 * p1 * math.expm1(curvature)


def _inverse_offsets(mixture: SlotMixture) -> tuple[float, NDArray[np.float64]]:
    """(u0, d): the slot u0 of largest weight (or the quadrature's centre), d = 1/u - 1/u0."""
    if isinstance(mixture, StamQuadrature):
        centre, offsets = mixture.centre, mixture.offsets
    else:
        top = mixture.slots[int(np.argmax(mixture.coefs))]
        centre, offsets = float(top), (mixture.slots - top).astype(np.float64)
    return centre, -offsets / (mixture.slots.astype(np.float64) * centre)


def exact_pair_probability(law_: Law) -> Fraction:
    """P(a given pair is co-clustered) as a fraction: exact for a fixed size sequence.

    For a mixture 1/u0 + E[1/u - 1/u0]: the error is ~1e-16 of the correction only.
    """
    n = law_.n
    if n < 2:
        return Fraction(1)
    if isinstance(law_, SizeLaw) and law_.exact:
        return Fraction(*_pairs_together(law_))
    if isinstance(law_, SlotMixture):
        centre, d = _inverse_offsets(law_)
        return 1 / Fraction(centre) + Fraction(float(law_.coefs @ d))
    return Fraction(pair_probabilities(law_)[0])


def falling_moment(law_: Law, m: int) -> float:
    """P(m given distinct elements all share a cluster) for a clustering drawn from ``law_``.

    SizeLaw: sum_a w(a) (a)_m / (N)_m; SlotMixture: sum_u c_u u^(1-m); for m = 2 the one
    p_X of :func:`pair_probabilities`.
    """
    n = law_.n
    if m <= 1:
        return 1.0
    if n < m:
        return 0.0
    if m == 2:
        return pair_probabilities(law_)[0]
    if isinstance(law_, SlotMixture):
        return float(np.sum(law_.coefs * np.power(law_.slots.astype(np.float64), 1 - m)))
    if law_.exact:
        numerator = sum(
            int(c) * falling(int(a), m) for a, c in zip(law_.sizes, law_.weights, strict=True)
        )
        return numerator / falling(n, m)
    return _size_law_moment(law_, m)


def _size_law_moment(law_: SizeLaw, m: int) -> float:
    """sum_a w(a) (a)_m / (N)_m for a size law of float weights."""
    n = law_.n
    ratio = np.ones_like(law_.weights)
    for i in range(m):  # (a)_m / (n)_m as a product of ratios, no overflow
        ratio *= (law_.sizes - i) / (n - i)
    return float(np.sum(law_.weights * np.clip(ratio, 0.0, None)))
