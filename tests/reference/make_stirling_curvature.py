#!/usr/bin/env python
"""Reference curvatures c(n, k) = log[S(n-2,k) S(n,k) / S(n-1,k)^2] (40 digits), n = 20 .. 10^15.

c is what the num model's Var[RI] needs from its size law (p2 / p1^2 = exp(c),
p1 = S(n-1,k)/S(n,k), p2 = S(n-2,k)/S(n,k)); it is tiny (~ -rho e^-rho / n for
mean cluster sizes ~rho) and cancels in every naive route. Independent of
chanceclust (stdlib + mpmath), three exact or high-precision routes:

* exact integers (n <= 4000): S(m, k) by inclusion-exclusion (``_exact.py``);
* near the diagonal (k = n - d, d <= 1200, any n up to 10^15):
  S(x, x - d) = sum_j <<d, j>> C(x + d - 1 - j, 2d) (Graham, Knuth &
  Patashnik, Concrete Mathematics (6.43)), <<d, j>> the second-order Eulerian
  numbers (exact integers), checked against the first route for n <= 60;
* inclusion-exclusion in mpmath (n up to 2.2 * 10^7): T(m, k) = sum_j (-1)^j
  C(k, j) (1 - j/k)^m, c = log[T(n) T(n-2) / T(n-1)^2] (the k^m / k! of
  S = k^m T / k! cancel), summed until the terms are below 10^-70 of the sum,
  at a working precision raised until two evaluations agree to 40 digits;
  checked against the exact integers at n = 2000 and 3000.

Run: ``python tests/reference/make_stirling_curvature.py`` (about two minutes);
writes ``stirling_curvature.json`` beside this file.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared primitives: _exact.py
from _exact import stirling2_near_diagonal, stirling2_range

HERE = Path(__file__).resolve().parent
DIGITS = 40


def exact_curvature(n: int, k: int) -> mp.mpf:
    s = stirling2_range(n - 2, n, k)
    with mp.workdps(DIGITS + 20):
        return mp.log(mp.mpf(s[n]) * s[n - 2] / (mp.mpf(s[n - 1]) ** 2))


def diagonal_curvature(n: int, k: int) -> mp.mpf:
    d = n - k
    s0 = stirling2_near_diagonal(n, d)
    s1 = stirling2_near_diagonal(n - 1, d - 1)
    s2 = stirling2_near_diagonal(n - 2, d - 2)
    with mp.workdps(DIGITS + 20):
        return mp.log(mp.mpf(s0) * s2 / (mp.mpf(s1) ** 2))


def _surjection(n: int, k: int, m: int) -> mp.mpf:
    total, top, j = mp.mpf(0), mp.mpf(0), 0
    cut = mp.mpf(10) ** -(DIGITS + 30)
    while j <= k:
        term = mp.binomial(k, j) * mp.power(1 - mp.mpf(j) / k, m)
        top = max(top, term)
        total += -term if j % 2 else term
        if j > 0 and term < top * cut and term < abs(total) * cut:
            break
        j += 1
    return total


def series_curvature(n: int, k: int) -> mp.mpf:
    x = k * (1 - 1 / k) ** n  # the terms ~ x^j / j!: the sum loses ~2 x / ln 10 digits
    dps = DIGITS + int(x / 2.3) + 30
    previous = None
    while True:
        with mp.workdps(dps):
            t = [_surjection(n, k, m) for m in (n, n - 1, n - 2)]
            value = mp.log(t[0] * t[2] / t[1] ** 2) if min(t) > 0 else None
            close = value is not None and previous is not None and (
                abs(value - previous) < abs(value) * mp.mpf(10) ** -(DIGITS + 5)
            )
            if close:
                return +value
        previous = value
        dps *= 2


def main() -> None:
    start = time.perf_counter()
    mp.mp.dps = DIGITS + 20
    for n in (20, 40, 60):  # the two exact routes agree
        for k in range(max(2, n - 12), n - 1):
            assert abs(diagonal_curvature(n, k) - exact_curvature(n, k)) < mp.mpf(10) ** -50
    for n, k in ((2000, 1000), (3000, 1000)):  # the series route against exact integers
        assert abs(series_curvature(n, k) / exact_curvature(n, k) - 1) < mp.mpf(10) ** -DIGITS
    cases = []
    for n, k in (
        (20, 5), (200, 40), (500, 100), (2000, 400), (2000, 1000), (2000, 1500), (2000, 1800),
        (2000, 1998), (3000, 2000), (4000, 1500), (4000, 3000),
    ):
        cases.append((n, k, "exact integers", exact_curvature(n, k)))
    for n in (10**5, 10**7, 10**9, 10**12, 10**15):
        for d in (2, 10, 300, 999, 1001, 1200):
            cases.append((n, n - d, "second-order Eulerian", diagonal_curvature(n, n - d)))
    for n, k in (
        (10000, 2000), (20000, 5000), (70000, 10000), (85000, 10000), (200000, 20000),
        (1000000, 100000), (2200000, 200000), (12000000, 1000000),
    ):
        cases.append((n, k, "inclusion-exclusion", series_curvature(n, k)))
        print(n, k, round(time.perf_counter() - start, 1), flush=True)
    records = [
        {"n": n, "k": k, "route": route, "curvature": mp.nstr(value, DIGITS)}
        for n, k, route, value in cases
    ]
    header = {
        "description": "c(n, k) = log[S(n-2,k) S(n,k) / S(n-1,k)^2], 40 significant digits",
        "generated_by": "tests/reference/make_stirling_curvature.py (stdlib + mpmath)",
    }
    lines = ",\n".join(json.dumps(r) for r in records)
    (HERE / "stirling_curvature.json").write_text(
        f'{{"header": {json.dumps(header)},\n"cases": [\n{lines}\n]}}\n'
    )


if __name__ == "__main__":
    main()
