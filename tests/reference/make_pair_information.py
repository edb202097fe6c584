#!/usr/bin/env python
"""Generate ``pair_information.json``: E[bd0(X, ab/N)] for X ~ hypergeometric(N, a, b).

The reference for ``chanceclust._expected.size_pairs.pair_information`` (which
returns this value divided by N), the whole cost of the perm expected mutual
information. It does NOT import chanceclust; mpmath only:

* bd0(x, m) = x log(x/m) + m - x, with bd0(0, m) = m, at ``mp.dps = 50``;
* the pmf h(x) starts at its mode from log-gamma at 50 digits and walks
  outwards with its exact ratio h(x+1)/h(x) = (a-x)(b-x)/((x+1)(N-a-b+x+1))
  until the terms fall below 1e-45 of the running sums (the pmf is
  log-concave, so the tails beyond are smaller still); the total mass is
  checked to be 1 to 1e-40.

The cases cover each route of the library: mean ab/N <= 1 (x log x form),
1 < mean with a window starting at 0, windows away from 0 (groups by mode),
a + b > N/2 and a + b near N (general route), N from 10 to 10^8, and sizes 1
and N - 1. Run: ``python tests/reference/make_pair_information.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared primitives: _exact.py
from _exact import bd0  # noqa: E402

mp.mp.dps = 50
STOP = mp.mpf(10) ** -45

CASES = [
    # N, a, b  (comment: mean ab/N)
    (10, 1, 1), (10, 2, 3), (10, 5, 5), (10, 9, 1), (10, 3, 8),
    (100, 1, 99), (100, 7, 13), (100, 30, 20), (100, 50, 50), (100, 60, 70),
    (1000, 1, 1), (1000, 10, 20), (1000, 31, 32), (1000, 100, 200), (1000, 400, 400),
    (1000, 999, 500),
    (10**6, 1, 1), (10**6, 1, 10**5), (10**6, 3, 7), (10**6, 134, 135),  # tiny means
    (10**6, 366, 2731), (10**6, 1000, 999), (10**6, 700, 2000),  # means ~1
    (10**6, 1000, 5000), (10**6, 3000, 10**4), (10**6, 5477, 5477),  # 5 .. 30
    (10**6, 10**4, 10**4), (10**6, 133700, 66850), (10**6, 2 * 10**5, 2 * 10**5),  # 100 .. 4e4
    (10**6, 5 * 10**5, 10**5), (10**6, 6 * 10**5, 3 * 10**5), (10**6, 10**6 - 1, 2),
    (10**6, 10**6 - 1, 133700), (10**6, 499_999, 500_001),
    (10**7, 1, 1), (10**7, 3162, 3163), (10**7, 40_000, 40_000), (10**7, 10**6, 5 * 10**5),
    (10**7, 5 * 10**6, 5 * 10**6), (10**7, 1_336_000, 1_336_000),
    (10**8, 1, 10**4), (10**8, 10**4, 10**4), (10**8, 10**5, 10**5), (10**8, 10**6, 10**6),
]


def expected_deviance(n: int, a: int, b: int) -> mp.mpf:
    lo, hi = max(0, a + b - n), min(a, b)
    mode = min(max((a + 1) * (b + 1) // (n + 2), lo), hi)
    log_h = (
        mp.loggamma(a + 1) + mp.loggamma(n - a + 1) + mp.loggamma(b + 1) + mp.loggamma(n - b + 1)
        - mp.loggamma(n + 1) - mp.loggamma(mode + 1) - mp.loggamma(a - mode + 1)
        - mp.loggamma(b - mode + 1) - mp.loggamma(n - a - b + mode + 1)
    )
    mean = mp.mpf(a) * b / n
    h_mode = mp.exp(log_h)
    total, mass = h_mode * bd0(mode, mean), h_mode
    h, x = h_mode, mode
    while x < hi:
        h = h * (a - x) * (b - x) / ((x + 1) * (n - a - b + x + 1))
        x += 1
        term = h * bd0(x, mean)
        total, mass = total + term, mass + h
        if h < STOP * mass and term < STOP * total:
            break
    h, x = h_mode, mode
    while x > lo:
        h = h * x * (n - a - b + x) / ((a - x + 1) * (b - x + 1))
        x -= 1
        term = h * bd0(x, mean)
        total, mass = total + term, mass + h
        if h < STOP * mass and term < STOP * total:
            break
    assert abs(mass - 1) < mp.mpf(10) ** -40, (n, a, b, mass)
    return total


def main() -> None:
    rows = [
        {"n": n, "a": a, "b": b, "value": mp.nstr(expected_deviance(n, a, b), 40)}
        for n, a, b in CASES
    ]
    out = Path(__file__).with_name("pair_information.json")
    out.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {len(rows)} cases to {out}")


if __name__ == "__main__":
    main()
