#!/usr/bin/env python
"""Reference E[RI] and E[MI] from summaries at N = 10^6 .. 10^15 (mpmath, 50 digits).

Independent of chanceclust (stdlib + mpmath; the Stam moments come from the
sibling reference script make_variance.py, itself library-free).

* all model: Stam's law P(u) ~ u^N / u! (Dobinski); by Poisson summation the
  sums over integers u of smooth functions equal the integrals over real u
  (sd > 200 here, aliasing < exp(-10^5)). p = E[1/u] = B_{N-1}/B_N, and with
  D(a, u) = u E[bd0(X, a/u)], X ~ Binomial(a, 1/u) (MATH.md's sums over
  cluster sizes collapse under i.i.d. labelings with u labels):
  one-sided E[MI] = (sum_i E_u[D(a_i, u)] - E_u[D(N, u)]) / N and two-sided
  E[MI] = (E[D(N, u_A u_B)] - 2 E_u[D(N, u)]) / N. Here D is summed term by
  term (its pmf by exact ratios from P(X = 0) = (1 - 1/u)^a, every term
  above 1e-60 of the largest), and E_u by mpmath.quad over +-12 sd (the
  joint term by a tensor Gauss-Legendre rule, checked against mpmath.quad
  in one dimension).
* num model with K << N: the inclusion-exclusion weights of u = K - j are
  ~K e^{-N j / K} < 10^-400 for j >= 1, so a K-clustering is an i.i.d.
  labeling with K labels; p = 1/K and E[MI] as above with u = K. Here the
  binomials have means m from 333 to 10^18, so E[bd0] = m E[phi((X-m)/m)]
  is the series sum_{k>=2} (-1)^k mu_k / (m^k k (k-1)) over the exact
  central moments mu_k (exact fractions from the factorial moments
  (a)_r p^r and Stirling numbers), to k = 30 (error < m^-14 plus
  P(X = 0) < e^-333).
* E[RI] = p_A p_B + (1 - p_A)(1 - p_B); a one-sided reference has p = Q/C(N,2).

At 50 digits the quadratures lose ~log10(N log N) digits to the size of
N log u, which slows mpmath.quad down beyond N = 10^15 (2^63 - 1 did not
finish in 15 minutes); the library's values there are checked against the
same routes at smaller N and for finiteness only.

Run: ``python tests/reference/make_huge_expectations.py`` (~10 minutes on 2 busy cores);
writes ``huge_expectations.json`` beside this file.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction
from math import comb
from pathlib import Path

import mpmath as mp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_variance import _log_term, _stam_centre, stam_integral

mp.mp.dps = 50
NS = (10**6, 10**9, 10**12, 10**15)
ORDER = 30


def reference_sizes(n: int) -> list[int]:
    return [n // 3, n - n // 3]


def slot_deviance(a: int, u) -> mp.mpf:
    """D(a, u) term by term (small means only: a/u <= ~100)."""
    u = mp.mpf(u)
    m = a / u
    p = 1 / u
    pmf = mp.exp(a * mp.log1p(-p))
    total = pmf * m  # bd0(0, m) = m
    x = 0
    top = pmf
    while True:
        pmf = pmf * (a - x) / ((x + 1) * (u - 1))
        x += 1
        top = max(top, pmf)
        total += pmf * (x * mp.log(x / m) + m - x)
        if x > m and pmf < top * mp.mpf(10) ** -60:
            break
    return u * total


def stirling_row(k: int) -> list[int]:
    row = [1]
    for i in range(1, k + 1):
        new = [0] * (i + 1)
        for j in range(1, i + 1):
            new[j] = j * (row[j] if j < len(row) else 0) + row[j - 1]
        row = new
    return row


STIRLING = [stirling_row(k) for k in range(ORDER + 1)]


def expanded_deviance(a: int, u: int) -> mp.mpf:
    """D(a, u) = a sum_k (-1)^k mu_k / (m^k k (k-1)) with exact central moments (large means)."""
    p = Fraction(1, u)
    m = a * p
    factorial = [Fraction(1)]
    for r in range(1, ORDER + 1):
        factorial.append(factorial[-1] * (a - r + 1) * p)  # E[(X)_r] = (a)_r p^r
    raw = [sum(STIRLING[k][r] * factorial[r] for r in range(k + 1)) for k in range(ORDER + 1)]
    total = mp.mpf(0)
    for k in range(2, ORDER + 1):
        central = sum(comb(k, j) * raw[j] * (-m) ** (k - j) for j in range(k + 1))
        term = central / m**k / (k * (k - 1))
        total += (-1) ** k * mp.mpf(term.numerator) / term.denominator
    return a * total


def stam_expectation(n: int, func) -> mp.mpf:
    c, sd = _stam_centre(n)
    top = _log_term(n, c)
    points = [c + sd * t for t in (-12, -6, -3, 0, 3, 6, 12)]
    density = lambda x: mp.exp(_log_term(n, x) - top)
    return mp.quad(lambda x: density(x) * func(x), points) / mp.quad(density, points)


def stam_joint(n: int) -> mp.mpf:
    """E[D(N, u_A u_B)] for independent u_A, u_B from Stam's law.

    Tensor product of a 160-node Gauss-Legendre rule on c +- 12 sd (the
    integrand is entire and Gaussian-like); the same rule reproduces the
    one-dimensional mpmath.quad values (checked, < 1e-40).
    """
    c, sd = _stam_centre(n)
    top = _log_term(n, c)
    nodes, weights = mp.gauss_quadrature(160, "legendre")
    xs = [c + 12 * sd * t for t in nodes]
    ws = [w * mp.exp(_log_term(n, x) - top) for w, x in zip(weights, xs, strict=True)]
    norm = mp.fsum(ws)
    check = mp.fsum(w * slot_deviance(n, x) for w, x in zip(ws, xs, strict=True)) / norm
    assert abs(check / stam_expectation(n, lambda u: slot_deviance(n, u)) - 1) < 1e-40
    value = mp.fsum(
        wa * wb * slot_deviance(n, xa * xb)
        for wa, xa in zip(ws, xs, strict=True)
        for wb, xb in zip(ws, xs, strict=True)
    )
    return value / norm**2


def main() -> None:
    records = []
    for n in NS:
        start = time.perf_counter()
        sizes = reference_sizes(n)
        pairs = Fraction(n * (n - 1) // 2)
        q_ref = sum(Fraction(s * (s - 1) // 2) for s in sizes) / pairs
        q_ref = mp.mpf(q_ref.numerator) / q_ref.denominator
        p_all = stam_integral(n)[0]
        side = stam_expectation(n, lambda u, n=n: slot_deviance(n, u))
        within = sum(stam_expectation(n, lambda u, s=s: slot_deviance(s, u)) for s in sizes)
        joint = stam_joint(n)
        record = {
            "n": n,
            "sizes_true": sizes,
            "all_rand_two_sided": mp.nstr(p_all**2 + (1 - p_all) ** 2, 40),
            "all_rand_one_sided": mp.nstr(q_ref * p_all + (1 - q_ref) * (1 - p_all), 40),
            "all_mi_one_sided": mp.nstr((within - side) / n, 40),
            "all_mi_two_sided": mp.nstr((joint - 2 * side) / n, 40),
        }
        # num: K_A = 3, K_B = 1000 two-sided; one-sided reference sizes_true with K_B = 7.
        ka, kb, k1 = 3, 1000, 7
        pa, pb, p1 = (mp.mpf(1) / k for k in (ka, kb, k1))
        record["num_rand_two_sided"] = mp.nstr(pa * pb + (1 - pa) * (1 - pb), 40)
        record["num_rand_one_sided"] = mp.nstr(q_ref * p1 + (1 - q_ref) * (1 - p1), 40)
        d = {u: expanded_deviance(n, u) for u in (ka, kb, k1, ka * kb)}
        record["num_mi_two_sided"] = mp.nstr((d[ka * kb] - d[ka] - d[kb]) / n, 40)
        within = sum(expanded_deviance(s, k1) for s in sizes)
        record["num_mi_one_sided"] = mp.nstr((within - d[k1]) / n, 40)
        record["seconds"] = round(time.perf_counter() - start, 1)
        print(record, flush=True)
        records.append(record)
    header = {
        "description": "E[RI], E[MI] (nats) from summaries: all (two-sided; one-sided with "
        "sizes_true), num (K_A = 3, K_B = 1000 two-sided; K_B = 7 one-sided), N = 1e6 .. 1e15",
        "generated_by": "tests/reference/make_huge_expectations.py (stdlib + mpmath, mp.dps = 50)",
    }
    (HERE / "huge_expectations.json").write_text(
        json.dumps({"header": header, "cases": records}, indent=1)
    )


if __name__ == "__main__":
    main()
