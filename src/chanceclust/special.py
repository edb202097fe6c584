"""Stirling numbers of the second kind and Bell numbers, exact and in log space.

``stirling2`` and ``bell`` return exact Python integers; ``log_stirling2`` and ``log_bell``
return their logs as float64, vectorized, for ``n`` up to ``10**7`` and beyond (the numbers
overflow a double long before; the models only need ratios). Accuracy contract of the logs:
``|computed - log X| <= 1e-13 * max(1, |log X|)``. Algorithms: docs/math.md#math-special.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chanceclust._expected.elementary import (
    STIRLING_SERIES,
    gammaln,
    lambertw,
    truncated_poisson_rate,
)
from chanceclust._expected.lattice import (
    SMALL_RATE_BELOW,
    exact_bell,
    exact_stirling2,
    lattice_probability,
    log_cf_ztp_large,
    log_cf_ztp_small,
    log_h_real,
    ztp_variance,
)
from chanceclust._validation import check_count, check_counts

__all__ = ["bell", "log_bell", "log_stirling2", "stirling2"]

# Surjection regime when the first correction k (1 - 1/k)**n <= 1/4: the
# correction terms then fall at least geometrically by that factor.
_LOG_T1_MAX = math.log(0.25)
_CHUNK = 1 << 15


# --------------------------------------------------------------------------- exact integers
def stirling2(n: int, k: int) -> int:
    r"""Stirling number of the second kind :math:`S(n, k)` as an exact Python int.

    Formula: docs/math.md#math-special.

    :math:`S(n, k)` is the number of partitions of an ``n``-element set into
    ``k`` non-empty blocks, i.e. the number of clusterings of ``n`` elements
    with exactly ``k`` clusters.

    Parameters
    ----------
    n, k : int
        Non-negative integers (integral floats are accepted).

    Returns
    -------
    int
        :math:`S(n, k)`.  Conventions: ``S(0, 0) = 1``, ``S(n, 0) = 0`` for
        ``n > 0`` and ``S(n, k) = 0`` for ``k > n``.

    Raises
    ------
    InvalidInputError
        If ``n`` or ``k`` is not a non-negative integer.

    See Also
    --------
    log_stirling2 : ``log S(n, k)`` in floating point, vectorized, for huge ``n``.

    Examples
    --------
    >>> from chanceclust.special import stirling2
    >>> stirling2(4, 2)
    7
    >>> stirling2(1000, 10).bit_length()  # far beyond a double (1024 bits of exponent)
    3301
    """
    return exact_stirling2(check_count(n, "n"), check_count(k, "k"))


def bell(n: int) -> int:
    r"""Bell number :math:`B_n` as an exact Python int.

    Formula: docs/math.md#math-special.

    :math:`B_n = \sum_k S(n, k)` is the number of partitions of an ``n``-element
    set, i.e. the number of clusterings of ``n`` elements.

    Parameters
    ----------
    n : int
        Non-negative integer (integral floats are accepted).

    Returns
    -------
    int
        :math:`B_n`, with ``B_0 = 1``.

    Raises
    ------
    InvalidInputError
        If ``n`` is not a non-negative integer.

    See Also
    --------
    log_bell : ``log B_n`` in floating point, vectorized, for huge ``n``.

    Examples
    --------
    >>> from chanceclust.special import bell
    >>> [bell(n) for n in range(7)]
    [1, 1, 2, 5, 15, 52, 203]
    """
    return exact_bell(check_count(n, "n"))


# --------------------------------------------------------------------------- float kernels
def _log_factorial_ratio(n: NDArray[np.float64], k: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log(n! / k!)`` for ``n >= k >= 0``: Stirling's series from ``k = 30``, else gammaln."""
    out = gammaln(n + 1.0) - gammaln(k + 1.0)
    big = k >= 30.0
    if np.any(big):
        nb, kb = n[big], k[big]
        m = nb - kb
        out[big] = (
            -(nb + 0.5) * np.log1p(-m / nb)
            + m * (np.log(kb) - 1.0)
            + _stirling_delta(nb)
            - _stirling_delta(kb)
        )
    return out


def _stirling_delta(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log Gamma(x + 1) - (x log x - x + log(2 pi x) / 2)`` for ``x >= 30`` (series)."""
    y = 1.0 / (x * x)
    acc = np.zeros_like(x)
    for c in reversed(STIRLING_SERIES):  # the first omitted term is < 1e-24 at x = 30
        acc = acc * y + c
    return acc / x


def _log_stirling2_surjection(n: NDArray[np.float64], k: NDArray[np.float64]) -> NDArray[np.float64]:
    """``n log k - log k! + log T(n, k)``, ``T = sum_j (-1)^j C(k, j) (1 - j/k)^n``.

    Term ``j`` is at most ``t1**j`` (``t1 = k (1 - 1/k)^n <= 1/4``: the ratio of
    consecutive terms decreases with ``j``), so a row stops once ``t1**j < 1e-18``.
    """
    log_t1 = np.log(k) + n * np.log1p(-1.0 / k)
    n_terms = np.minimum(np.ceil(-41.5 / np.minimum(log_t1, -1e-300)), k - 1.0)
    corr = np.zeros_like(n)
    log_binom = np.zeros_like(n)  # log C(k, j) as a running sum: error j eps log k
    rows = np.arange(n.size)
    j = 1.0
    while rows.size:
        kk = k[rows]
        log_binom[rows] += np.log(kk - j + 1.0) - math.log(j)
        term = np.exp(log_binom[rows] + n[rows] * np.log1p(-j / kk))
        corr[rows] += -term if j % 2 else term
        rows = rows[n_terms[rows] > j]
        j += 1.0
    return n * np.log(k) - gammaln(k + 1.0) + np.log1p(corr)


def _log_stirling2_saddle(n: NDArray[np.float64], k: NDArray[np.float64]) -> NDArray[np.float64]:
    """Saddle-point identity with the exact lattice probability (see log_stirling2)."""
    m = n - k
    mu1 = m / k
    rho = truncated_poisson_rate(mu1)
    log_h_rho = log_h_real(rho)
    log_em1_rho = log_h_rho + np.log(rho)
    v = k * ztp_variance(mu1, rho)  # Var of the lattice sum: sizes the quadrature only
    out = np.empty_like(n)
    small = rho < SMALL_RATE_BELOW
    for sel, large in ((small, False), (~small, True)):
        if not np.any(sel):
            continue
        rs, ks, ms, ns = rho[sel], k[sel], m[sel], n[sel]
        lh, le = log_h_rho[sel], log_em1_rho[sel]

        def log_cf(t: Any, rows: Any, rs=rs, ks=ks, ms=ms, ns=ns, lh=lh, le=le, large=large) -> Any:
            if large:
                return log_cf_ztp_large(rs[rows, None], ks[rows, None], ns[rows, None],
                                         le[rows, None], t)
            return log_cf_ztp_small(rs[rows, None], ks[rows, None], ms[rows, None],
                                     lh[rows, None], t)

        out[sel] = lattice_probability(log_cf, v[sel])
    return _log_factorial_ratio(n, k) - m * np.log(rho) + k * log_h_rho + out


def _chunked(func: Any, *arrays: NDArray[np.float64]) -> NDArray[np.float64]:
    out = np.empty_like(arrays[0])
    for lo in range(0, arrays[0].size, _CHUNK):
        out[lo : lo + _CHUNK] = func(*(a[lo : lo + _CHUNK] for a in arrays))
    return out


def _log_stirling2_flat(n: NDArray[np.int64], k: NDArray[np.int64]) -> NDArray[np.float64]:
    out = np.full(n.shape, -np.inf)
    out[(k == n) | ((k == 1) & (n >= 1))] = 0.0
    mid = (k >= 2) & (k < n)
    if np.any(mid):
        nm = n[mid].astype(np.float64)
        km = k[mid].astype(np.float64)
        log_t1 = np.log(km) + nm * np.log1p(-1.0 / km)
        surj = log_t1 <= _LOG_T1_MAX
        res = np.empty_like(nm)
        if np.any(surj):
            res[surj] = _chunked(_log_stirling2_surjection, nm[surj], km[surj])
        if np.any(~surj):
            res[~surj] = _chunked(_log_stirling2_saddle, nm[~surj], km[~surj])
        out[mid] = res
    return out


# --------------------------------------------------------------------------- public log API
def log_stirling2(n: ArrayLike, k: ArrayLike) -> Any:
    r"""Natural log of the Stirling number of the second kind, :math:`\log S(n, k)`.

    Formula: docs/math.md#math-special. ``log(stirling2(n, k))`` without forming the number.

    Parameters
    ----------
    n, k : array_like of int
        Non-negative integers (integral floats accepted), broadcast together.

    Returns
    -------
    numpy.float64 or ndarray of float64
        ``log S(n, k)``; ``-inf`` where ``S(n, k) = 0`` (``k > n``, or ``k = 0 < n``).
        A NumPy scalar for scalar input, like ``scipy.special`` functions.

    Raises
    ------
    InvalidInputError
        If ``n`` or ``k`` holds a negative, non-integral or non-finite value.

    See Also
    --------
    stirling2 : the exact integer.
    log_bell : ``log B_n``.

    Notes
    -----
    ``|error| <= 1e-13 * max(1, |log S|)``, ``O(1)`` per value; routes, tested range and
    cost: docs/math.md#math-special.

    Examples
    --------
    ``S(1000, 10)`` is about ``10**994``: it overflows a double, its log does not.

    >>> import numpy as np
    >>> from chanceclust.special import log_stirling2, stirling2
    >>> float(stirling2(1000, 10))
    Traceback (most recent call last):
    ...
    OverflowError: int too large to convert to float
    >>> print(f"{log_stirling2(1000, 10):.8f}")
    2287.48068042
    >>> log_stirling2(5, [0, 1, 2, 5, 6])  # S(5, 2) = 15
    array([     -inf, 0.       , 2.7080502, 0.       ,      -inf])
    """
    n_arr = check_counts(n, "n")
    k_arr = check_counts(k, "k")
    nb, kb = np.broadcast_arrays(n_arr, k_arr)
    out = _log_stirling2_flat(nb.ravel(), kb.ravel()).reshape(nb.shape)
    return out[()] if out.ndim == 0 else out


def _log_bell_positive(n: NDArray[np.float64]) -> NDArray[np.float64]:
    r = lambertw(n).real  # r e^r = n: the saddle point of exp(e^z - 1) / z^(n+1)
    er = np.exp(r)
    v = n * (1.0 + r)  # Var S for the compound Poisson law below

    def log_cf(t: NDArray[np.float64], rows: NDArray[np.intp]) -> Any:
        # S = X_1 + ... + X_N, N ~ Poisson(e^r - 1), X ~ ZTP(r): cf exp(e^{r e^{it}} - e^r)
        # = exp(e^r expm1(z)), z = r (e^{it} - 1) = -2 r sin^2(t/2) + i r sin t.
        rr = r[rows, None]
        st = np.sin(0.5 * t)
        x = -2.0 * rr * st * st
        y = rr * np.sin(t)
        em = np.expm1(x)
        sh = np.sin(0.5 * y)
        sh2 = 2.0 * sh * sh
        ex = er[rows, None]
        re = ex * (em * (1.0 - sh2) - sh2)
        im = ex * (em + 1.0) * np.sin(y) - n[rows, None] * t
        return re, im

    log_p = lattice_probability(log_cf, v)
    return gammaln(n + 1.0) + np.expm1(r) - n * np.log(r) + log_p


def log_bell(n: ArrayLike) -> Any:
    r"""Natural log of the Bell number, :math:`\log B_n`.

    Formula: docs/math.md#math-special. ``log(bell(n))`` without forming the number.

    Parameters
    ----------
    n : array_like of int
        Non-negative integers (integral floats accepted).

    Returns
    -------
    numpy.float64 or ndarray of float64
        ``log B_n`` (``0`` for ``n = 0, 1``); a NumPy scalar for scalar input.

    Raises
    ------
    InvalidInputError
        If ``n`` holds a negative, non-integral or non-finite value.

    See Also
    --------
    bell : the exact integer.
    log_stirling2 : ``log S(n, k)``; ``B_n = sum_k S(n, k)``.

    Notes
    -----
    ``|error| <= 1e-13 * max(1, |log B_n|)``, ``O(1)`` per value; route and tested range:
    docs/math.md#math-special.

    Examples
    --------
    >>> from chanceclust.special import bell, log_bell
    >>> print(f"{log_bell(1000):.8f}")
    4438.17671459
    >>> import math
    >>> bool(abs(log_bell(1000) - math.log(bell(1000))) < 1e-12)
    True
    """
    n_arr = check_counts(n, "n")
    flat = n_arr.ravel()
    out = np.zeros(flat.shape)
    pos = flat >= 2
    if np.any(pos):
        out[pos] = _chunked(_log_bell_positive, flat[pos].astype(np.float64))
    out = out.reshape(n_arr.shape)
    return out[()] if out.ndim == 0 else out
