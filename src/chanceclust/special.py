"""Stirling numbers of the second kind and Bell numbers, exact and in log space.

``stirling2`` and ``bell`` return exact Python integers (for small and moderate
``n``); ``log_stirling2`` and ``log_bell`` return ``log S(n, k)`` and ``log B_n``
as float64, vectorized with NumPy broadcasting, for ``n`` up to ``10**7`` and
beyond.  The numbers themselves overflow a double long before that
(``S(1000, 10)`` already does), but the chance models of chanceclust only ever
need ratios of them, which the logs give to full precision.

Accuracy contract of the log functions: ``|computed - log X| <= 1e-13 * max(1, |log X|)``
(measured well below that bound; see the docstrings and ``tests/test_special.py``).

Algorithms (details in the function docstrings):

* *surjection regime* (``n / k`` comfortably above ``log k``):
  ``S(n, k) = k**n T(n, k) / k!`` where ``T`` is the probability that ``n``
  uniform labels on ``k`` values use every value; ``log T`` is a ``log1p`` of a
  small alternating correction whose terms decrease geometrically.
* *saddle-point regime* (the rest): the exact identity
  ``S(n, k) = n! (e**rho - 1)**k / (k! rho**n) * P(X_1 + ... + X_k = n)`` with
  ``X_i`` i.i.d. zero-truncated Poisson(``rho``) and ``rho`` the saddle point
  (``E[X] = n / k``); the lattice probability is the inverse Fourier integral of
  the closed-form characteristic function, evaluated by the trapezoid rule,
  which is exact up to aliasing, on the few nodes where the integrand is not
  negligible.
* Bell numbers: the same construction for the compound Poisson law behind the
  exponential generating function ``exp(e**z - 1)``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special as scipy_special

from chanceclust._expected.elementary import (
    STIRLING_SERIES,
    gammaln,
    lambertw,
    truncated_poisson_rate,
    unique,
)
from chanceclust._expected.taylor import (
    series_exp,
    series_log,
    series_mul,
    series_power,
    series_reciprocal,
)
from chanceclust._validation import check_count, check_counts

__all__ = ["bell", "log_bell", "log_stirling2", "stirling2"]

# Trapezoid rule on the lattice characteristic function.  With M nodes on the
# circle the rule returns sum_j P(S = n + j M); M >= _ALIAS_SD * sd + _ALIAS_ADD
# puts every alias at least 9.5 standard deviations (and 30 lattice points) away,
# a relative contribution near exp(-45) for the near-Gaussian sums used here
# (Poisson-like right tails are covered by the additive 30 points).
_ALIAS_SD = 9.5
_ALIAS_ADD = 30.0
# Nodes with |t| > _CUT_SD / sd carry |cf(t)| < about exp(-_CUT_SD**2 / 2) ~ 3e-18
# (checked at run time: nodes are added until the last one is below exp(_TAIL_LOG)).
_CUT_SD = 9.0
_TAIL_LOG = -40.0
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
    ValueError
        If ``n`` or ``k`` is not a non-negative integer.

    See Also
    --------
    log_stirling2 : ``log S(n, k)`` in floating point, vectorized, for huge ``n``.

    Notes
    -----
    Inclusion-exclusion over the labels left unused,

    .. math:: S(n, k) = \frac{1}{k!} \sum_{j=0}^{k} (-1)^j \binom{k}{j} (k - j)^n,

    in exact integer arithmetic: ``k + 1`` big-integer powers of about
    ``n log2 k`` bits (milliseconds for ``n`` in the thousands; about 100 s
    at ``n = 10**5``, ``k = 1000``).  When ``m = n - k < k / 4`` it uses
    instead ``S(n, n - m) = sum_j <<m, j>> C(n + m - 1 - j, 2m)`` with the
    second-order Eulerian numbers (Graham, Knuth and Patashnik, *Concrete
    Mathematics*, eq. 6.43): ``O(m**2)`` small integer operations.

    Examples
    --------
    >>> from chanceclust.special import stirling2
    >>> stirling2(4, 2)
    7
    >>> stirling2(1000, 10).bit_length()  # far beyond a double (1024 bits of exponent)
    3301
    """
    n = check_count(n, "n")
    k = check_count(k, "k")
    if k > n:
        return 0
    if k == 0:
        return 1 if n == 0 else 0
    if k == 1 or k == n:
        return 1
    m = n - k
    if m < k // 4:
        # k close to n: S(n, n - m) = sum_j <<m, j>> C(n + m - 1 - j, 2m), second-order
        # Eulerian numbers (Graham, Knuth & Patashnik, Concrete Mathematics, eq. 6.43);
        # O(m^2) small integers instead of k huge powers.
        row = _eulerian2_row(m)
        return sum(e * math.comb(n + m - 1 - j, 2 * m) for j, e in enumerate(row) if e)
    return _surjection_counts(n, k, 1)[0] // math.factorial(k)


def _surjection_counts(n: int, k: int, depth: int) -> list[int]:
    """k! S(m, k) = sum_{j<k} (-1)^j C(k, j) (k - j)^m for m = n, n - 1, .., n - depth + 1.

    Exact integers (m >= 1, so the j = k term 0^m is 0); the powers of each base
    are shared between the ``depth`` values of m.
    """
    totals = [0] * depth
    binom = 1  # C(k, j)
    for j in range(k):
        base = k - j
        term = binom * base ** (n - depth + 1)
        if j & 1:
            term = -term
        for i in range(depth - 1, -1, -1):  # m = n - i, ascending
            totals[i] += term
            term *= base
        binom = binom * base // (j + 1)
    return totals


def _eulerian2_row(m: int) -> list[int]:
    """Second-order Eulerian numbers <<m, j>>, j = 0 .. m - 1 (``[1]`` for m = 0)."""
    row = [1]
    for i in range(1, m + 1):
        # <<i, j>> = (j + 1) <<i-1, j>> + (2i - 1 - j) <<i-1, j-1>>
        new = [0] * i
        for j in range(i):
            a = (j + 1) * row[j] if j < len(row) else 0
            b = (2 * i - 1 - j) * row[j - 1] if 0 < j <= len(row) else 0
            new[j] = a + b
        row = new
    return row


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
    ValueError
        If ``n`` is not a non-negative integer.

    See Also
    --------
    log_bell : ``log B_n`` in floating point, vectorized, for huge ``n``.

    Notes
    -----
    Summing the inclusion-exclusion formula of :func:`stirling2` over ``k``
    gives

    .. math:: B_n = \frac{1}{n!} \sum_{j=0}^{n} \binom{n}{j} \, j^n \, D_{n-j},

    with :math:`D_p = p! \sum_{i \le p} (-1)^i / i!` the derangement numbers
    (``D_p = (p - 1)(D_{p-1} + D_{p-2})``).  ``O(n)`` big-integer operations on
    numbers of about ``n log2 n`` bits: about 0.05 s at ``n = 1000``, 0.6 s
    at ``n = 2000``.

    Examples
    --------
    >>> from chanceclust.special import bell
    >>> [bell(n) for n in range(7)]
    [1, 1, 2, 5, 15, 52, 203]
    """
    n = check_count(n, "n")
    if n == 0:
        return 1
    derange = [1, 0]
    for p in range(2, n + 1):
        derange.append((p - 1) * (derange[-1] + derange[-2]))
    total = 0
    binom = 1  # C(n, j)
    for j in range(n + 1):
        if j:
            total += binom * j**n * derange[n - j]
        binom = binom * (n - j) // (j + 1)
    return total // math.factorial(n)


# --------------------------------------------------------------------------- float kernels
def _log_factorial_ratio(n: NDArray[np.float64], k: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log(n! / k!)`` for ``n >= k >= 0`` without the cancellation of two gammaln.

    For ``k >= 30`` Stirling's series gives
    ``-(n + 1/2) log1p(-m/n) + m (log k - 1) + delta(n) - delta(k)``, ``m = n - k``,
    whose terms are all of the size of the result; below that gammaln is exact
    enough (its values are small).
    """
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


_H_COEF = tuple(1.0 / math.factorial(j + 1) for j in range(1, 20))  # 1/2!, 1/3!, ...


def _log_h_real(rho: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log((exp(rho) - 1) / rho)`` for ``rho > 0``, accurate near 0."""
    small = rho < 0.5
    acc = np.zeros_like(rho)
    for c in reversed(_H_COEF):  # h - 1 = sum_{j>=1} rho^j / (j+1)!
        acc = (acc + c) * rho
    with np.errstate(over="ignore"):
        big = np.log(np.expm1(np.maximum(rho, 0.5))) - np.log(np.maximum(rho, 0.5))
    return np.where(small, np.log1p(acc), big)


def _log_cf_ztp_small(
    rho: NDArray[np.float64], k: NDArray[np.float64], m: NDArray[np.float64],
    log_h_rho: NDArray[np.float64], t: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Real and imaginary parts of ``k log psi(t) - i m t`` when ``rho < 0.5``.

    ``psi(t) = h(z) / h(rho)``, ``z = rho e^{it}``; ``log h(z) = log1p(w)`` with
    ``w = sum_j z^j / (j+1)!`` by Horner, and log1p taken in real arithmetic so
    that ``k * log h`` keeps its relative accuracy when ``|w|`` is tiny.
    """
    rmax = float(np.max(rho))
    # Terms needed: rho^j / (j+1)! below 1e-18 relative to rho / 2.
    n_terms = 1
    while n_terms < len(_H_COEF) and rmax**n_terms / math.factorial(n_terms + 1) > 1e-18 * rmax:
        n_terms += 1
    zr = rho * np.cos(t)
    zi = rho * np.sin(t)
    ar = np.zeros_like(zr)
    ai = np.zeros_like(zr)
    for c in reversed(_H_COEF[:n_terms]):
        br = ar + c
        ar, ai = br * zr - ai * zi, br * zi + ai * zr
    re = 0.5 * np.log1p(ar * (2.0 + ar) + ai * ai)
    im = np.arctan2(ai, 1.0 + ar)
    return k * (re - log_h_rho), k * im - m * t


def _log_cf_ztp_large(
    rho: NDArray[np.float64], k: NDArray[np.float64], n: NDArray[np.float64],
    log_em1_rho: NDArray[np.float64], t: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Real and imaginary parts of ``k log phi(t) - i n t`` when ``rho >= 0.5``.

    ``phi(t) = (e^z - 1) / (e^rho - 1)``, ``z = rho e^{it}``; ``e^z - 1`` in a
    cancellation-free form.  The branch of the argument is irrelevant (``k`` is
    an integer).
    """
    x = rho * np.cos(t)
    y = rho * np.sin(t)
    em = np.expm1(x)
    sh = np.sin(0.5 * y)
    ch = np.cos(0.5 * y)
    sh2 = 2.0 * sh * sh
    re_e = em * (1.0 - sh2) - sh2
    im_e = (em + 1.0) * 2.0 * sh * ch
    re = 0.5 * np.log(re_e * re_e + im_e * im_e)
    im = np.arctan2(im_e, re_e)
    return k * (re - log_em1_rho), k * im - n * t


def _lattice_probability(log_cf: Any, v: NDArray[np.float64]) -> NDArray[np.float64]:
    """``log P(S = n)`` from the centred lattice characteristic function.

    ``log_cf(t, rows)`` returns the real and imaginary parts of
    ``log E[exp(i t (S - n))]`` for the given rows at the (rows x nodes) array
    ``t``; ``v`` is Var S.  Trapezoid rule with ``M`` (odd) nodes:
    ``P = (1 + 2 sum_{l >= 1} Re cf(2 pi l / M)) / M``, exact up to the aliases
    ``P(S = n +- M) + ...``, truncated where ``|cf|`` is below ``exp(_TAIL_LOG)``
    (checked: nodes are added for the rows whose last node is not negligible).
    """
    sd = np.sqrt(v)
    m_nodes = np.floor(_ALIAS_SD * sd + _ALIAS_ADD)
    m_nodes += 1.0 - np.mod(m_nodes, 2.0)  # odd: nodes symmetric, t = pi not a node
    step = 2.0 * np.pi / m_nodes
    half = (m_nodes - 1.0) / 2.0
    n_half = np.minimum(half, np.ceil(_CUT_SD / (sd * step)) + 1.0)
    total = np.zeros_like(v)
    start = np.zeros_like(v)  # nodes already summed, per row
    pending = np.arange(v.size)
    while pending.size:
        more = []
        widths = n_half[pending] - start[pending]
        buckets = np.ceil(widths / 4.0) * 4.0  # few distinct shapes, little padding
        for width in unique(buckets):
            sel = buckets == width
            rows, stop = pending[sel], n_half[pending[sel]]
            ell = start[rows, None] + np.arange(1.0, width + 1.0)
            mask = ell <= stop[:, None]
            re, im = log_cf(np.where(mask, ell, 0.0) * step[rows, None], rows)
            total[rows] += np.where(mask, np.exp(re) * np.cos(im), 0.0).sum(axis=1)
            last = np.take_along_axis(re, (widths[sel] - 1.0).astype(np.intp)[:, None], 1)
            more.append(rows[(last[:, 0] >= _TAIL_LOG) & (stop < half[rows])])
        start[pending] = n_half[pending]
        pending = np.concatenate(more)
        n_half[pending] = np.minimum(half[pending], 2.0 * n_half[pending])
    return np.log1p(2.0 * total) - np.log(m_nodes)


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
    log_h_rho = _log_h_real(rho)
    log_em1_rho = log_h_rho + np.log(rho)
    # Var X = mu (1 + rho - mu) for ZTP(rho); used only to size the quadrature.
    v = k * (1.0 + mu1) * np.maximum(rho - mu1, 0.1 * rho / (1.0 + rho))
    out = np.empty_like(n)
    small = rho < 0.5
    for sel, large in ((small, False), (~small, True)):
        if not np.any(sel):
            continue
        rs, ks, ms, ns = rho[sel], k[sel], m[sel], n[sel]
        lh, le = log_h_rho[sel], log_em1_rho[sel]

        def log_cf(t: Any, rows: Any, rs=rs, ks=ks, ms=ms, ns=ns, lh=lh, le=le, large=large) -> Any:
            if large:
                return _log_cf_ztp_large(rs[rows, None], ks[rows, None], ns[rows, None],
                                         le[rows, None], t)
            return _log_cf_ztp_small(rs[rows, None], ks[rows, None], ms[rows, None],
                                     lh[rows, None], t)

        out[sel] = _lattice_probability(log_cf, v[sel])
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

    Formula: docs/math.md#math-special.

    In principle ``log(stirling2(n, k))``, computed without forming the number,
    which overflows a double as soon as ``n`` is in the hundreds.

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
    ValueError
        If ``n`` or ``k`` holds a negative, non-integral or non-finite value.

    See Also
    --------
    stirling2 : the exact integer.
    log_bell : ``log B_n``.

    Notes
    -----
    Exact cases: ``S(n, n) = S(n, 1) = 1`` and the zeros.  Otherwise
    (``2 <= k < n``) one of two regimes, both built from positive or
    geometrically decaying quantities:

    *Surjection* (when the first correction :math:`k (1 - 1/k)^n \le 1/4`,
    i.e. roughly :math:`n/k > \log k + 1.4`):

    .. math:: \log S(n, k) = n \log k - \log k! + \log T, \qquad
              T = \sum_{j=0}^{k} (-1)^j \binom{k}{j} (1 - j/k)^n,

    the probability that ``n`` uniform labels use all ``k`` of them.  The
    correction terms fall at least geometrically by the ratio ``1/4``, so at
    most 30 terms and ``log1p`` give ``log T`` to a few ulps.

    *Saddle point* (the rest: mean block size ``n / k`` small).  With
    :math:`X_i` i.i.d. zero-truncated Poisson(:math:`\rho`),

    .. math:: S(n, k) = \frac{n!\,(e^\rho - 1)^k}{k!\,\rho^n}
              \Pr(X_1 + \dots + X_k = n)

    holds exactly for every :math:`\rho > 0`; :math:`\rho` solves
    :math:`E X = n / k`, so that the sum is centred at ``n``.  The lattice
    probability is :math:`\frac{1}{2\pi}\int_{-\pi}^{\pi} \psi(t)^k e^{-imt}\,dt`
    (``m = n - k``, :math:`\psi(t) = h(\rho e^{it}) / h(\rho)`,
    :math:`h(z) = (e^z - 1)/z`), evaluated by the trapezoid rule on ``M``
    nodes, which returns the probability plus aliases ``P(S = n +- M)``; ``M``
    is at least 9.5 standard deviations plus 30, and only the nodes where
    :math:`|\psi|^k > e^{-40}` are summed (about 15-40 per value).
    ``log(n!/k!)`` comes from Stirling's series in a cancellation-free form and
    ``log h`` from its Taylor series near 0, so ``k`` close to ``n`` is as
    accurate as the rest.

    Accuracy: ``|error| <= 1e-13 * max(1, |log S|)`` is the tested contract,
    for all ``1 <= k <= n`` up to ``n = 10**6`` and spot checks at ``10**7``
    (against exact integers and their ``mpmath`` logs); the measured maximum is
    several times smaller.

    Cost: ``O(1)`` per value (15-40 quadrature nodes of about ten elementary
    functions each in the saddle regime, at most 30 terms in the surjection
    regime), memory linear in the number of values; no table depends on
    ``n``.  About 0.5 ms for one value at ``n = 10**6``; a few tens of ms for
    ``10**4`` values.

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

    log_p = _lattice_probability(log_cf, v)
    return gammaln(n + 1.0) + np.expm1(r) - n * np.log(r) + log_p


def log_bell(n: ArrayLike) -> Any:
    r"""Natural log of the Bell number, :math:`\log B_n`.

    Formula: docs/math.md#math-special.

    In principle ``log(bell(n))``, computed without forming the number
    (``B_n`` overflows a double from ``n = 219``).

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
    ValueError
        If ``n`` holds a negative, non-integral or non-finite value.

    See Also
    --------
    bell : the exact integer.
    log_stirling2 : ``log S(n, k)``; ``B_n = sum_k S(n, k)``.

    Notes
    -----
    From the exponential generating function :math:`e^{e^z - 1}`, for any
    :math:`r > 0`

    .. math:: B_n = \frac{n!\, e^{e^r - 1}}{r^n} \Pr(S = n),

    where :math:`S` is compound Poisson: a Poisson(:math:`e^r - 1`) number of
    zero-truncated Poisson(:math:`r`) summands, with characteristic function
    :math:`\exp(e^{r e^{it}} - e^r)`.  Taking :math:`r e^r = n` (Lambert W)
    centres ``S`` at ``n``; the lattice probability is then computed exactly as
    in :func:`log_stirling2` (trapezoid rule, aliases at least 9.5 standard
    deviations away, about 15-40 nodes).

    Accuracy: ``|error| <= 1e-13 * max(1, |log B_n|)`` is the tested contract,
    against exact integers for ``n <= 1500`` and 50-digit Dobinski sums
    (:math:`B_n = e^{-1} \sum_u u^n / u!`) up to ``n = 10**7``.

    Cost: ``O(1)`` per value, no table.

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


# From this variance of the lattice sum (K Var X, X zero-truncated Poisson at the saddle point)
# the num model's curvature (_stirling2_curvature_expansion) and size law
# (_expected.laws._edgeworth_size_law) come from their saddle-point expansions, whose
# truncation error ~(K Var X)^-4 is below 1e-14 there.
_LATTICE_EXPANSION_FROM = 1000.0
# Below it, exact integers while n k is at most this (small k with mean sizes of a few, where
# the Fourier sums lose up to ~1e-12 on some platforms); the Fourier sums beyond (mean sizes
# near 1: k Var X < 1000 with n k > 10^6 leaves rho < ~2, where they hold ~3e-13).
_CURVATURE_EXACT_MAX_NK = 10**6


def _stirling2_ratio_curvature(n: int, k: int) -> float:
    """log[S(n-2,k) S(n,k) / S(n-1,k)^2], the second difference of log S(., k) at n - 1.

    For 2 <= k <= n - 2. The ratio r(n) = S(n-1,k)/S(n,k) is the probability
    that two given elements share a cluster of a uniform k-clustering, and
    r(n-1)/r(n) = exp(this), so r(n)^2 expm1(this) = r(n) (r(n-1) - r(n)) is the
    covariance of two pairs' co-clustering indicators without the cancellation
    of r(n-1) - r(n) (an O(1/n) relative difference).

    Where the variance k Var X of the lattice sum below is at least
    _CURVATURE_EXPANSION_FROM (every large k, unless n - k is small), the
    asymptotic expansion of :func:`_stirling2_curvature_expansion`: relative
    error <= 4e-15 measured against exact and 40-digit references. Below it,
    exact integers where n k <= 10^6 (:func:`_stirling2_curvature_exact`),
    otherwise (mean cluster sizes near 1) the Fourier sums:

    With one saddle point rho for the mean (n-1)/k and L(m) = P(X_1 + .. + X_k = m)
    for X_i i.i.d. zero-truncated Poisson(rho), the exact identity of
    :func:`log_stirling2` gives log S(m,k) = log m! - m log rho + log L(m) + c,
    so the result is log(n/(n-1)) + log[L(n) L(n-2) / L(n-1)^2]. The
    differences L(n-1 +- 1) - L(n-1) and the second difference are trapezoid
    sums of the characteristic function times e^(-+it) - 1 and 2 cos t - 2,
    so none of them is a difference of rounded probabilities. What is left
    cancels between log(n/(n-1)) and the lattice term (both ~1/n, their
    difference ~ rho e^-rho / n); measured relative error <= 3e-13 where
    this route is used (k Var X < 1000, n k > 10^6; numpy 1.24 to 2.5), but
    1.3e-12 for small k at mean sizes ~5 on numpy 1.24 and up to 1e-7 for
    large k (n = 10^6, k = 10^5), hence the other routes there. Tested
    contract of the whole function: 1e-12 relative.
    """
    if _ztp_saddle(n - 1, k)[2] >= _LATTICE_EXPANSION_FROM:
        return _stirling2_curvature_expansion(n, k)
    if n * k <= _CURVATURE_EXACT_MAX_NK:
        return _stirling2_curvature_exact(n, k)
    return _stirling2_curvature_fourier(n, k)


def _ztp_saddle(total: int, k: int) -> tuple[float, float, float]:
    """(mean - 1, rho, k Var X) of the zero-truncated Poisson X with k E[X] = ``total``.

    The saddle point of ``total`` elements in ``k`` non-empty clusters; k Var X is
    the variance of the lattice sum, which decides between the exact routes and
    the expansions (_LATTICE_EXPANSION_FROM). Var X = E[X] (1 + rho - E[X]) > 0,
    kept away from rounding to 0 by a floor far below its true value.
    """
    excess = (total - k) / k
    rho = float(truncated_poisson_rate(excess))
    variance = (1.0 + excess) * max(rho - excess, 0.1 * rho / (1.0 + rho))
    return excess, rho, k * variance


def _stirling2_curvature_exact(n: int, k: int) -> float:
    """The curvature from exact integers: k! S(m, k) = sum_j (-1)^j C(k, j) (k - j)^m.

    log[T0 T2 / T1^2] = log1p((T0 T2 - T1^2) / T1^2) with T_i = k! S(n - i, k): the
    difference is an exact integer, so the only rounding is the final one (then
    log1p's). O(k) powers of n log2(k) bits: ~30 ms at n k = 10^6.
    """
    t0, t1, t2 = _surjection_counts(n, k, 3)
    return math.log1p(Fraction(t0 * t2 - t1 * t1, t1 * t1))


def _stirling2_curvature_fourier(n: int, k: int) -> float:
    """The curvature from trapezoid sums of the characteristic function (see the caller)."""
    nf, kf = float(n - 1), float(k)
    _, rate, var = _ztp_saddle(n - 1, k)
    rho = np.array([rate])
    log_h_rho = _log_h_real(rho)
    sd = math.sqrt(var)
    m_nodes = math.floor(_ALIAS_SD * sd + _ALIAS_ADD)
    m_nodes += 1 - m_nodes % 2
    step = 2.0 * math.pi / m_nodes
    half = (m_nodes - 1) // 2
    count = min(half, math.ceil(_CUT_SD / (sd * step)) + 1)
    kk, mm, nn = np.array([[kf]]), np.array([[nf - kf]]), np.array([[nf]])
    while True:
        t = step * np.arange(1.0, count + 1.0)[None, :]
        if rho[0] < 0.5:
            re, im = _log_cf_ztp_small(rho[:, None], kk, mm, log_h_rho[:, None], t)
        else:
            log_em1 = log_h_rho + np.log(rho)
            re, im = _log_cf_ztp_large(rho[:, None], kk, nn, log_em1[:, None], t)
        if re[0, -1] < _TAIL_LOG or count == half:
            break
        count = min(half, 2 * count)
    cf_re, cf_im = np.exp(re) * np.cos(im), np.exp(re) * np.sin(im)
    t = t[0]
    cos_m1 = -2.0 * np.sin(0.5 * t) ** 2  # cos t - 1 without cancellation
    level = 1.0 + 2.0 * float(np.sum(cf_re))  # M L(n-1)
    even = 2.0 * float(np.sum(cf_re[0] * cos_m1))
    odd = 2.0 * float(np.sum(cf_im[0] * np.sin(t)))
    up, down = (even + odd) / level, (even - odd) / level  # L(n-1 +- 1)/L(n-1) - 1
    second = 2.0 * even / level  # (L(n) - 2L(n-1) + L(n-2))/L(n-1)
    return math.log1p(second + up * down) - math.log1p(-1.0 / n)


# Taylor coefficients of mu(theta) kept by the expansion: kappa_2 .. kappa_8 to second order.
_SERIES_LENGTH = 10
# Triangular-kernel Gauss-Legendre nodes on each half of [-1, 1] (the second difference).
_DIFFERENCE_NODES = 8
# Below this rate the mean rho / (1 - e^-rho) is summed from its Bernoulli series (its
# derivatives are O(rho) and would cancel in the quotient).
_BERNOULLI_BELOW = 0.5
_BERNOULLI_TERMS = 40


def _ztp_mean_series(rho: NDArray[np.float64], length: int = _SERIES_LENGTH) -> NDArray[np.float64]:
    """Taylor coefficients in e of mu(log rho + e), mu(rho) = rho / (1 - e^-rho), per rho."""
    fact = np.array([math.factorial(j) for j in range(length)], dtype=np.float64)
    rate = rho[:, None] / fact  # rho e^e
    shift = rate.copy()
    shift[:, 0] = 0.0
    empty = series_exp(-shift) * np.exp(-rho)[:, None]  # e^-(rho e^e)
    occupied = -empty
    occupied[:, 0] = -np.expm1(-rho)
    mean = series_mul(rate, series_reciprocal(occupied))
    small = rho < _BERNOULLI_BELOW
    if small.any():  # mu = sum_j b_j rho^j e^(j e), b_j = B_j^+ / j!
        j = np.arange(1, _BERNOULLI_TERMS + 1)
        b = scipy_special.bernoulli(_BERNOULLI_TERMS)[1:] / np.array(
            [math.factorial(i) for i in j], dtype=np.float64
        )
        b[0] = 0.5
        terms = b * rho[small][:, None] ** j  # (points, j)
        mean[small] = terms @ (j[:, None] ** np.arange(length)[None, :] / fact)
        mean[small, 0] += 1.0
    return mean


def _ztp_cumulant_series(mean: NDArray[np.float64], length: int) -> tuple[dict, dict]:
    """({r: kappa_r}, {r: lam_r}) as series in e of ``length`` terms, from :func:`_ztp_mean_series`.

    kappa_r(theta) = (d/dtheta)^(r-1) mu and lam_r = kappa_r / kappa_2^(r/2), r = 3..8;
    coefficients beyond those that ``mean`` determines are left 0 (the callers use
    them only at orders where they are negligible).
    """
    fact = np.array([math.factorial(j) for j in range(mean.shape[-1] + 1)], dtype=np.float64)
    kappa = {}
    for r in range(2, 9):
        known = min(length, mean.shape[-1] - (r - 1))
        order = np.arange(known)
        series = np.zeros((*mean.shape[:-1], length))
        series[..., :known] = mean[..., r - 1 : r - 1 + known] * (fact[order + r - 1] / fact[order])
        kappa[r] = series
    lam = {r: series_mul(kappa[r], series_power(kappa[2], -r / 2)) for r in range(3, 9)}
    return kappa, lam


def _edgeworth_log_correction(lam: dict, count: float) -> NDArray[np.float64]:
    """log[sqrt(2 pi m kappa_2) P(S_m = its mean)] for a sum of m = ``count`` summands.

    The log of 1 + A_1/m + A_2/m^2 + A_3/m^3 (:func:`_edgeworth_at_mean`), a series in
    e like ``lam``.
    """
    correction = np.zeros_like(lam[3])
    correction[..., 0] = 1.0
    for power, term in enumerate(_edgeworth_at_mean(lam), start=1):
        correction = correction + term / count**power
    return series_log(correction)


def _edgeworth_at_mean(lam: dict) -> list:
    """The 1/k, 1/k^2, 1/k^3 terms of sqrt(2 pi k kappa_2) P(S_k = its mean) (series in e).

    lam[r] = kappa_r / kappa_2^(r/2), the standardized cumulants of one summand:
    the Gaussian moments of exp(sum_r lam_r (i z)^r k^(1-r/2) / r!) (the
    Edgeworth expansion at the mean, where the odd orders vanish).
    """
    mul = series_mul
    l3, l4, l5, l6, l7, l8 = (lam[r] for r in range(3, 9))
    l3_2, l4_2 = mul(l3, l3), mul(l4, l4)
    l3_4 = mul(l3_2, l3_2)
    first = l4 / 8 - 5 * l3_2 / 24
    second = (
        385 * l3_4 / 1152 - 35 * mul(l3_2, l4) / 64 + 7 * mul(l3, l5) / 48
        + 35 * l4_2 / 384 - l6 / 48
    )
    third = (
        -85085 * mul(l3_4, l3_2) / 82944 + 25025 * mul(l3_4, l4) / 9216
        - 1001 * mul(mul(l3_2, l3), l5) / 1152 - 5005 * mul(l3_2, l4_2) / 3072
        + 77 * mul(l3_2, l6) / 384 + 77 * mul(mul(l3, l4), l5) / 128 - mul(l3, l7) / 32
        + 385 * mul(l4_2, l4) / 3072 - 7 * mul(l4, l6) / 128 - 21 * mul(l5, l5) / 640 + l8 / 384
    )
    return [first, second, third]


def _curvature_density(excess: NDArray[np.float64], k: float) -> NDArray[np.float64]:
    """H''(x) at x = k + excess: the smooth part of d^2/dx^2 log T(x, k) (see the caller)."""
    rho = truncated_poisson_rate(excess / k)
    # kappa_r(theta) = (d/dtheta)^(r-1) mu: its series from mu's, to second order.
    kappa, lam = _ztp_cumulant_series(_ztp_mean_series(rho), 3)
    log_correction = _edgeworth_log_correction(lam, k)
    c1, c2 = log_correction[:, 1], 2.0 * log_correction[:, 2]
    k2, k3, k4 = kappa[2][:, 0], kappa[3][:, 0], kappa[4][:, 0]
    lattice = (k3 * k3 / (k2 * k2) - 0.5 * k4 / k2 + c2 - c1 * k3 / k2) / (k * k * k2 * k2)
    poisson_gap = -rho / (np.expm1(rho) * k * k2)  # 1/x - 1/(k kappa_2), without cancellation
    return poisson_gap + lattice


def _stirling2_curvature_expansion(n: int, k: int) -> float:
    """log[S(n-2,k) S(n,k) / S(n-1,k)^2] by an asymptotic expansion in 1/(k Var X).

    With T(m, k) = k! S(m, k) / k^m (the probability that m uniform labels
    use all k), the result is the second difference of log T(., k) at
    m = n - 1 (the k^m cancel). Poissonizing with any rate rho,
    T(m, k) = (1 - e^-rho)^k L(m) m! e^(k rho) / (k rho)^m, L the pmf of a sum
    of k i.i.d. zero-truncated Poisson(rho). With rho = rho(x) the saddle
    point of the real x (k E[X] = x) this is log T(x) = log Gamma(x + 1) +
    F(x) + G(x), F(x) = k log(1 - e^-rho) + k rho - x log(k rho), whose second
    derivative is -1/(k kappa_2) (envelope theorem), and G(x) = log L(x) at
    the mean, -log(2 pi k kappa_2)/2 plus the Edgeworth series at the mean
    (three terms, truncation ~(k kappa_2)^-4). Then

        Delta^2 log T(m) = D(m) + int_{-1}^{1} (1 - |u|) H''(m + u) du,

    D(m) = Delta^2[log Gamma(x + 1) - x log x + x] = -sum_{p even} 1/(p m^p) +
    sum_{p odd >= 3} (p - 1)/(p (p + 1) m^p), and H'' = (1/x - 1/(k kappa_2))
    + G''(x): the first is -rho / (expm1(rho) k kappa_2) exactly (E[X] -
    Var X = rho E[X] / expm1(rho)), and G'' comes from the cumulants kappa_r
    = (d/d log rho)^(r-1) E[X] as truncated Taylor series (no finite
    differences). Nothing cancels beyond a factor ~e^rho / (rho^2 k) <= 0.1
    where it is used (the size-law regime, e^rho < ~1.5 k). The integral is
    an 8+8-node Gauss-Legendre rule, exact for H'' of degree 15 (H'' varies
    on the scale of k). Measured relative error <= 1e-14 against exact
    integers (n <= 4000, k from 1000 to n - 500, n = 10^5 .. 10^15 with n - k
    = 1000) and 40-digit inclusion-exclusion (n to 2.2 * 10^6).
    """
    m = float(n - 1)
    base = float(n - 1 - k)  # x - k at the nodes, exactly from integers
    nodes, weights = np.polynomial.legendre.leggauss(_DIFFERENCE_NODES)
    u = 0.5 * (nodes + 1.0)
    kernel = 0.5 * weights * (1.0 - u)
    density = _curvature_density(np.concatenate([base + u, base - u]), float(k))
    powers = np.arange(2, 13)
    stirling = np.where(powers % 2 == 0, -1.0 / powers, (powers - 1.0) / (powers * (powers + 1.0)))
    return float(np.sum(stirling / m**powers)) + float(np.concatenate([kernel, kernel]) @ density)
