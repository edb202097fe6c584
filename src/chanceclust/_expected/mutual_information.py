"""The expected mutual information of two independent random clusterings, from their laws.

E[MI] is never formed as E[H(A)] + E[H(B)] - E[H(A,B)], whose terms cancel
(E[MI] ~ K_A K_B / 2N against entropies ~ log K). Every sum below has
non-negative terms:

* sizes x sizes (Vinh et al. 2010, rewritten): with mu = ab/N the mean of the
  hypergeometric cell count n, sum_n h(n) (n/N) log(Nn/ab) equals
  (1/N) sum_n h(n) bd0(n, mu) because sum_n h(n) (n - mu) = 0; so
  E[MI] = sum_{a,b} w_A(a) w_B(b) I(a, b), I(a, b) = E_h[bd0(n, ab/N)] / N.
* sizes x mixture: for B an i.i.d. uniform labeling with u labels,
  MI = sum_ij (n_ij/N) log(n_ij u / a_i) - sum_j (b_j/N) log(b_j u / N), both
  sums >= 0, with expectations D(a_i, u)/N and D(N, u)/N where
  D(a, u) = u E[bd0(X, a/u)], X ~ Binomial(a, 1/u). Their difference loses
  at most a factor K_A/(K_A - 1) <= 2 to cancellation.
* mixture x mixture: E[MI] = (D(N, u_A u_B) - D(N, u_A) - D(N, u_B)) / N.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.laws import Law, SizeLaw, SlotMixture
from chanceclust._expected.mixture_fits import FIT_NODES, fitted_joint_sum, fitted_mixture_sums
from chanceclust._expected.pmfs import binom_pmf, deviance
from chanceclust._expected.size_pairs import pair_information
from chanceclust._expected.windows import mode_recurrence_sums, tail_halfwidth

# Above this many slot pairs the joint mixture sum goes through a fit in log u,
# and mixtures with more than 2 * FIT_NODES slots go through fits in log u.
_DIRECT_PAIRS = 10_000


# Windows starting at 0 and at most this long use the pmf recurrence below.
_SHORT_WINDOW = 48


def slot_deviance(a: NDArray[np.int64], u: NDArray[np.int64]) -> NDArray[np.float64]:
    """D(a, u) = u E[bd0(X, a/u)], X ~ Binomial(a, 1/u), for each pair (a, u); D(a, 1) = 0."""
    a = a.astype(np.int64)
    u = u.astype(np.int64)
    out = np.zeros(len(a), dtype=np.float64)
    mean = a / np.maximum(u, 1)
    half = tail_halfwidth(mean * (1.0 - 1.0 / np.maximum(u, 1)))
    lo = np.maximum(np.floor(mean - half).astype(np.int64), 0)
    hi = np.minimum(np.ceil(mean + half).astype(np.int64), a)
    live = (u > 1) & (a > 0)
    short = live & (lo == 0) & (hi <= _SHORT_WINDOW)
    long_ = live & ~short
    out[short] = _short_slot_deviance(a[short], u[short], int(hi[short].max(initial=0)))
    a, u, lo, hi = a[long_], u[long_], lo[long_], hi[long_]
    af, uf = a.astype(np.float64), u.astype(np.float64)
    mode = np.clip((a + 1) // u, lo, hi)

    def ratio_up(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return (af[i, None] - x) / ((x + 1.0) * (uf[i, None] - 1.0))  # P(x+1)/P(x)

    def ratio_down(i: NDArray[np.intp], x: NDArray[np.float64]) -> NDArray[np.float64]:
        return x * (uf[i, None] - 1.0) / (af[i, None] - x + 1.0)  # P(x-1)/P(x)

    def term(i: NDArray[np.intp], x: NDArray[np.int64]) -> NDArray[np.float64]:
        ai, ui = a[i, None], u[i, None]
        return deviance(x, ai / ui, (x * ui - ai) / ui.astype(np.float64))

    at_mode = binom_pmf(mode, a, u)
    out[long_] = u * mode_recurrence_sums(
        mode, hi - mode, mode - lo, at_mode, ratio_up, ratio_down, term
    )
    return out


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


def _sizes_sizes(law_a: SizeLaw, law_b: SizeLaw) -> float:
    n = law_a.n
    a, b = np.meshgrid(law_a.sizes, law_b.sizes, indexing="ij")
    weights = np.outer(law_a.weights, law_b.weights)
    return float(np.sum(weights.ravel() * pair_information(a.ravel(), b.ravel(), n)))


def mixture_sums(sizes: NDArray[np.int64], mixture: SlotMixture) -> NDArray[np.float64]:
    """sum_u c_u D(a, u) for each a in ``sizes``: by fits in log u when there are many slots."""
    within = None
    if len(mixture.slots) > 2 * FIT_NODES:
        within = fitted_mixture_sums(sizes, mixture, slot_deviance)
    if within is None:
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
    if len(law_a.slots) * len(law_b.slots) > _DIRECT_PAIRS:
        joint = fitted_joint_sum(n, law_a, law_b, slot_deviance)
    if joint is None:
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
    products = (ua * ub)[keep]
    return float(weights[keep] @ slot_deviance(np.full(products.size, n), products))


def expected_mi_of_laws(law_a: Law, law_b: Law) -> float:
    """E[MI] (nats) between independent clusterings drawn from ``law_a`` and ``law_b``."""
    if law_a.n <= 1:
        return 0.0
    if isinstance(law_a, SizeLaw) and isinstance(law_b, SizeLaw):
        return _sizes_sizes(law_a, law_b)
    if isinstance(law_a, SizeLaw):
        return _sizes_mixture(law_a, law_b)
    if isinstance(law_b, SizeLaw):
        return _sizes_mixture(law_b, law_a)
    return _mixture_mixture(law_a, law_b)
