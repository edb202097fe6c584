#!/usr/bin/env python
"""Reference E[RI] and E[MI] under the ``all`` model at N = 10^4 .. 10^7 (50-digit mpmath).

Independent of chanceclust (stdlib + mpmath only), straight from docs/math.md:

* w(a) = C(N, a) B_{N-a} / B_N, the expected number of clusters of size a.
  The Bell ratios come from Dobinski's formula, B_m = e^{-1} sum_u u^m / u!,
  as B_{N-a}/B_N = sum_u q(u) u^-a with q(u) = u^N/u! / sum_v v^N/v!,
  summed at 60 digits over every u whose term exceeds 1e-70 of the largest
  (the terms are log-concave in u, so the dropped tails are bounded by a
  geometric series). Sizes a with w(a) < 1e-60 are dropped (w decreases
  super-exponentially beyond a few log N).
* p_same = B_{N-1}/B_N; E[RI] = p^2 + (1 - p)^2 two-sided, p q_G + (1-p)(1-q_G)
  one-sided with q_G = Q(G)/C(N,2).
* E[MI] = sum_a sum_b w_A(a) w_B(b) sum_n h(n; N, a, b) (n/N) log(N n / (a b)),
  h from exact binomial ratios (mpmath at 60 digits), over the full support
  of n (a and b are small here, or the reference's few sizes).

Run: ``python tests/reference/make_all_large.py`` (about a minute); writes
``all_large.json`` beside this file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import mpmath as mp

mp.mp.dps = 60
HERE = Path(__file__).resolve().parent
NS = (10**4, 10**5, 10**6, 10**7)


def reference_sizes(n: int) -> list[int]:
    """A one-sided reference with a few very unequal clusters: n/2, n/4, ..., rest."""
    sizes, left = [], n
    for _ in range(6):
        sizes.append(left // 2)
        left -= left // 2
    sizes.append(left)
    return sizes


def stam_distribution(n: int) -> dict[int, mp.mpf]:
    """q(u) proportional to u^n / u!, normalized, over all non-negligible u."""
    log_term = lambda u: n * mp.log(u) - mp.loggamma(u + 1)  # noqa: E731
    lo, hi = 1, n
    while hi - lo > 2:  # ternary search on a concave function
        m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if log_term(m1) < log_term(m2):
            lo = m1
        else:
            hi = m2
    mode = max(range(lo, hi + 1), key=log_term)
    top = log_term(mode)
    cut = top - mp.log(10) * 70
    terms = {}
    for step in (1, -1):
        u = mode if step == 1 else mode - 1
        while u >= 1:
            value = log_term(u)
            if value < cut:
                break
            terms[u] = mp.exp(value - top)
            u += step
    total = mp.fsum(terms.values())
    return {u: t / total for u, t in terms.items()}


def all_weights(n: int, q: dict[int, mp.mpf]) -> dict[int, mp.mpf]:
    weights = {}
    a = 1
    while a <= n:
        ratio = mp.fsum(t * mp.power(u, -a) for u, t in q.items())
        w = mp.binomial(n, a) * ratio
        if w < mp.mpf("1e-60"):
            break
        weights[a] = w
        a += 1
    return weights


def pair_term(n: int, a: int, b: int) -> mp.mpf:
    """sum_n h(n; N, a, b) n log(N n/(a b)), h by exact ratios from h(lo)."""
    lo, hi = max(0, a + b - n), min(a, b)
    h = mp.binomial(b, lo) * mp.binomial(n - b, a - lo) / mp.binomial(n, a)
    total = mp.mpf(0)
    for x in range(lo, hi + 1):
        if x > 0:
            total += h * x * mp.log(mp.mpf(n) * x / (mp.mpf(a) * b))
        h = h * (a - x) * (b - x) / ((x + 1) * (n - a - b + x + 1))
    return total


def expected_mi(n: int, wa: dict[int, mp.mpf], wb: dict[int, mp.mpf]) -> mp.mpf:
    return mp.fsum(
        wa[a] * wb[b] * pair_term(n, a, b) for a in wa for b in wb
    ) / n


def main() -> None:
    cases = []
    for n in NS:
        start = time.perf_counter()
        q = stam_distribution(n)
        w = all_weights(n, q)
        p = mp.fsum(t / u for u, t in q.items())  # B_{N-1}/B_N
        sizes = reference_sizes(n)
        fixed = {}
        for s in sizes:
            fixed[s] = fixed.get(s, 0) + 1
        pairs = mp.mpf(n) * (n - 1) / 2
        q_ref = mp.fsum(c * mp.mpf(s) * (s - 1) / 2 for s, c in fixed.items()) / pairs
        record = {
            "n": n,
            "sizes_true": sizes,
            "rand_two_sided": mp.nstr(p * p + (1 - p) * (1 - p), 40),
            "mi_two_sided": mp.nstr(expected_mi(n, w, w), 40),
            "rand_one_sided": mp.nstr(q_ref * p + (1 - q_ref) * (1 - p), 40),
            "mi_one_sided": mp.nstr(expected_mi(n, {s: mp.mpf(c) for s, c in fixed.items()}, w), 40),
            "largest_size_kept": max(w),
            "slots_kept": len(q),
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(record, flush=True)
        cases.append(record)
    header = {
        "description": "E[RI], E[MI] (nats) under the all model, two-sided and one-sided "
        "(reference sizes_true), N = 1e4..1e7",
        "generated_by": "tests/reference/make_all_large.py (stdlib + mpmath, mp.dps = 60)",
    }
    (HERE / "all_large.json").write_text(json.dumps({"header": header, "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
