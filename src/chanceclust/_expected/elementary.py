"""Elementary special functions for the engine, without slow first imports (numeric primitives).

Importing scipy.special costs ~0.3 s (it pulls in numpy.testing and f2py
through its array-API layer): more than a whole num/all expectation at
N = 10^7. The num and all models need only these functions, on short
arrays, so they are written here:

* ``gammaln``: ``math.lgamma`` element by element (~0.1 us each); for
  integers 1 and 2 it is exactly 0; at integers within 5e-16 relative of
  mpmath, elsewhere within 4e-15 absolute (scipy.special.gammaln: 4e-16, 2e-15).
* ``logsumexp``: shifted by the maximum, as scipy's.
* ``lambertw``: the real principal branch W0 on [-1/e, inf) by Halley's
  iteration from a branch-point series, log1p or log - log log start;
  as accurate as scipy.special.lambertw against mpmath (tests/_expected/test_elementary.py);
  near the branch point both are limited by the conditioning, ~eps / sqrt(e x + 1).
* ``polygamma_large``: for Stam's law at N >= 1e4, < 1e-15 relative against mpmath for
  m = 0 .. 30; ``unique``: its docstring says why.

It also holds the one copy of three helpers the engine, ``special`` and ``samplers`` share:
``STIRLING_SERIES``, ``falling`` and ``truncated_poisson_rate`` (the saddle point of Stirling
numbers, the conditioned Poisson sizes of ``num`` and the ``num`` sampler). Arguments outside
a function's domain are a bug of the caller and raise ``InternalError``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chanceclust.exceptions import InternalError

_LGAMMA = np.frompyfunc(math.lgamma, 1, 1)


def gammaln(x: ArrayLike) -> NDArray[np.float64] | float:
    """log |Gamma(x)| for x > 0, elementwise (a float for a scalar)."""
    x = np.asarray(x, dtype=np.float64)
    out = _LGAMMA(x).astype(np.float64) if x.ndim else math.lgamma(float(x))
    return out


def logsumexp(a: ArrayLike) -> float:
    """log(sum(exp(a))) of a 1-D array without overflow; -inf for an empty or all -inf array."""
    a = np.asarray(a, dtype=np.float64)
    if a.size == 0:
        return -math.inf
    top = float(a.max())
    if not math.isfinite(top):
        return top
    return top + math.log(float(np.sum(np.exp(a - top))))


def lambertw(x: ArrayLike) -> NDArray[np.float64] | float:
    """The principal branch W0(x) for real x >= -1/e: the w >= -1 with w e^w = x."""
    scalar = np.ndim(x) == 0
    x = np.atleast_1d(np.asarray(x, dtype=np.float64))
    if np.any(x < -math.exp(-1.0) * (1.0 + 4e-16)) or np.any(np.isnan(x)):
        raise InternalError("lambertw: the real principal branch needs x >= -1/e")
    # Starts: near the branch point w = -1 + p - p^2/3 + 11 p^3 / 72 with p = sqrt(2 (e x + 1));
    # log1p(x) in the middle; log x - log log x for large x.
    p = np.sqrt(np.clip(2.0 * (math.e * x + 1.0), 0.0, 1.0))  # only used where x < -0.25
    with np.errstate(divide="ignore", invalid="ignore"):
        big = np.log(np.maximum(x, 3.0))
        w = np.where(
            x < -0.25,
            -1.0 + p * (1.0 - p * (1.0 / 3.0 - p * 11.0 / 72.0)),
            np.where(x < 3.0, np.log1p(np.maximum(x, -0.25)), big - np.log(big)),
        )
        for _ in range(6):  # Halley: cubic convergence from these starts
            e = np.exp(w)
            f = w * e - x
            w1 = w + 1.0
            step = f / (e * w1 - (w + 2.0) * f / (2.0 * w1))
            w = np.where((f == 0.0) | (w1 == 0.0), w, w - step)
    w = np.where(p < 1e-8, -1.0 + p, w)  # at the branch point Halley's step is 0 / 0
    return float(w[0]) if scalar else w


def unique(values: ArrayLike) -> NDArray:
    """Sorted distinct values of a 1-D array: np.unique without its first-call import of
    numpy.ma (~27 ms, for a masked-array check), which a cold call would otherwise pay."""
    ordered = np.sort(np.asarray(values).ravel())
    if ordered.size == 0:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


# Stirling series log n! - (n log n - n + log(2 pi n)/2) = sum_k B_2k / (2k (2k-1) n^(2k-1)):
# the coefficients B_2k / (2k (2k-1)), k = 1..7, of 1/n, 1/n^3, ..., 1/n^13. The first
# omitted term, 3617 / (122400 n^15), is below 3e-20 at n = 16 and 1e-24 at n = 30.
STIRLING_SERIES = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)


def falling(x: int, m: int) -> int:
    """The falling factorial (x)_m = x (x - 1) ... (x - m + 1), exact for Python ints."""
    out = 1
    for i in range(m):
        out *= x - i
    return out


def truncated_poisson_rate(excess: ArrayLike) -> NDArray[np.float64]:
    """rho > 0 with rho / (1 - exp(-rho)) = 1 + excess: the zero-truncated Poisson of that mean.

    ``excess`` (the mean minus 1, > 0, an array) is taken apart from the 1 so that means
    close to 1 (rho small, e.g. k = n - 1 clusters of n elements) keep their relative
    accuracy. Newton's method in s = log rho on log(rho / (1 - e^-rho)) = log1p(excess),
    which is convex in s, started above the root (rho <= min(mean, 2 excess)), so the
    iterates decrease monotonically to it; relative accuracy ~1e-15 for every mean.
    """
    shape = np.shape(excess)
    mu1 = np.array(excess, dtype=np.float64).reshape(-1)
    target = np.log1p(mu1)
    rho = np.minimum(1.0 + mu1, 2.0 * mu1)
    todo = np.arange(rho.size)
    for _ in range(60):
        r = rho[todo]
        x = 0.5 * r
        x2 = x * x
        xs = np.maximum(x, 0.1)
        mid = np.minimum(xs, 20.0)
        # log(rho / (1 - e^-rho)) = x - log(sinh(x) / x): a series for small x, and
        # log(2x) - log1p(-e^(-2x)) for large x (no overflow, no cancellation of two x's).
        g = np.where(
            x < 0.1,
            x - x2 * (1 / 6 + x2 * (-1 / 180 + x2 * (1 / 2835 + x2 * (-1 / 37800)))),
            np.where(xs < 20.0, x - np.log(np.sinh(mid) / mid),
                     np.log(2.0 * xs) - np.log1p(-np.exp(-2.0 * xs))),
        ) - target[todo]
        # d/ds = rho * d/drho = rho * (1 - (coth(x) - 1/x)) / 2
        cm = np.where(x < 0.1, x * (1 / 3 + x2 * (-1 / 45 + x2 * (2 / 945))),
                      1.0 / np.tanh(xs) - 1.0 / xs)
        new = r * np.exp(-g / (r * 0.5 * (1.0 - cm)))
        rho[todo] = new
        # Newton converges quadratically: a relative step of 1e-9 leaves ~1e-18.
        todo = todo[np.abs(new - r) > 1e-9 * r]
        if todo.size == 0:
            break
    return rho.reshape(shape)


# B_2k for k = 1 .. 10.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510,
              43867 / 798, -174611 / 330)


def polygamma_large(m: int, x: float) -> float:
    """psi^(m)(x), the m-th derivative of the digamma function, for x >= 1000.

    psi(x) = log x - 1/(2x) - sum_k B_2k / (2k x^2k) and, for m >= 1,
    psi^(m)(x) = (-1)^(m+1) [(m-1)!/x^m + m!/(2 x^(m+1))
    + sum_k B_2k (2k+m-1)! / ((2k)! x^(2k+m))]; ten terms leave less than
    (m + 20)^20 / x^20 relative (< 1e-16 for m <= 30 at x >= 1000).
    """
    if x < 1000.0:
        raise InternalError(f"polygamma_large needs x >= 1000; got {x}.")
    if m == 0:
        total = math.log(x) - 0.5 / x
        for k, b in enumerate(_BERNOULLI, start=1):
            total -= b * (1.0 / (x * x)) ** k / (2 * k)  # underflows to 0, never overflows
        return total
    # Scaled by x^m / (m-1)! so that nothing underflows before the end.
    total = 1.0 + m / (2.0 * x)
    for k, b in enumerate(_BERNOULLI, start=1):
        total += b * math.exp(
            math.lgamma(2 * k + m) - math.lgamma(m) - math.lgamma(2 * k + 1)
        ) * (1.0 / (x * x)) ** k
    sign = 1.0 if m % 2 else -1.0
    return sign * total * math.exp(math.lgamma(m) - m * math.log(x))
