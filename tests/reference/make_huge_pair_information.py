#!/usr/bin/env python
"""Generate ``huge_pair_information.json``: perm E[MI] pieces at N = 1e9 .. 2**63 - 1.

References for issue #10's last gap: N I(a, b) = E[bd0(X, ab/N)] with
X ~ hypergeometric(N, a, b), for size pairs at N beyond the int64 products
(N**2 >= 2**63), and the perm E[MI], MI, entropies and AMI (arithmetic) of
contingency tables whose totals reach 2**63 - 1. It does NOT import chanceclust.
Two independent methods, at ``mp.dps = 60``, each written to 50 digits:

* ``direct``: the pmf at the mode from ``mp.loggamma``, carried outwards by
  its exact ratios h(x+1)/h(x) = (a-x)(b-x)/((x+1)(N-a-b+x+1)) until it
  falls below 1e-50 of the mass, and divided by that mass (which is 1 to
  ~1e-39: the check that the window and anchor are right) (Var X <= 1e6);
* ``series``: bd0(mu + d, mu) = sum_{k>=2} (-1)^k d^k / (k (k-1) mu^(k-1))
  taken termwise with the EXACT central moments, from the factorial
  moments E[(X)_k] = (a)_k (b)_k / (N)_k in ``fractions.Fraction`` (no
  cancellation), to order 24 (pairs with Var X >= 1e4; the series is
  asymptotic in 1/mu and its terms fall by ~1/mu every two orders).

Where both apply they are cross-checked (assert: 1e-40 relative).
Run: ``python tests/reference/make_huge_pair_information.py``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import mpmath as mp

mp.mp.dps = 60
LIMIT = 2**63 - 1
ORDER = 24


def _variance(n: int, a: int, b: int) -> Fraction:
    return Fraction(a * b * (n - a) * (n - b), n * n * (n - 1))


def _bd0(x, mu):
    return (x * mp.log(x / mu) if x else mp.mpf(0)) + mu - x


def direct(n: int, a: int, b: int) -> mp.mpf:
    """E[bd0(X, ab/N)] by summing the pmf outwards from the mode."""
    mu = mp.mpf(a * b) / n
    lo, hi = max(0, a + b - n), min(a, b)
    mode = min(max((a + 1) * (b + 1) // (n + 2), lo), hi)
    log_h = (
        mp.loggamma(b + 1)
        - mp.loggamma(mode + 1)
        - mp.loggamma(b - mode + 1)
        + mp.loggamma(n - b + 1)
        - mp.loggamma(a - mode + 1)
        - mp.loggamma(n - a - b + mode + 1)
        - mp.loggamma(n + 1)
        + mp.loggamma(a + 1)
        + mp.loggamma(n - a + 1)
    )
    h0 = mp.exp(log_h)
    total, mass = h0 * _bd0(mp.mpf(mode), mu), h0
    for step in (1, -1):
        h, x = h0, mode
        while lo <= x + step <= hi:
            if step == 1:
                h *= mp.mpf((a - x) * (b - x)) / ((x + 1) * (n - a - b + x + 1))
            else:
                h *= mp.mpf(x * (n - a - b + x)) / ((a - x + 1) * (b - x + 1))
            x += step
            term = h * _bd0(mp.mpf(x), mu)
            total += term
            mass += h
            if h < mp.mpf(10) ** -50 * mass and abs(x - mode) > 3:
                break
    # The anchor h0 carries loggamma's absolute error (~1e-39 at N = 2**63): normalize.
    assert abs(mass - 1) < mp.mpf(10) ** -30, mass
    return total / mass


def _stirling2(j: int, k: int) -> int:
    return sum((-1) ** (k - i) * comb(k, i) * i**j for i in range(k + 1)) // _factorial(k)


def _factorial(k: int) -> int:
    out = 1
    for i in range(2, k + 1):
        out *= i
    return out


def _falling(x: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= x - i
    return out


def central_moments(n: int, a: int, b: int, order: int = ORDER) -> list[Fraction]:
    """Exact E[(X - ab/N)^k], k = 0..order, from the factorial moments."""
    factorial = [
        Fraction(_falling(a, k) * _falling(b, k), _falling(n, k)) for k in range(order + 1)
    ]
    raw = [
        sum((_stirling2(j, k) * factorial[k] for k in range(j + 1)), Fraction(0))
        for j in range(order + 1)
    ]
    mu = Fraction(a * b, n)
    return [
        sum((comb(j, i) * raw[i] * (-mu) ** (j - i) for i in range(j + 1)), Fraction(0))
        for j in range(order + 1)
    ]


def series(n: int, a: int, b: int) -> mp.mpf:
    """E[bd0(X, ab/N)] by the termwise moment expansion with exact moments."""
    moments = central_moments(n, a, b)
    mu = Fraction(a * b, n)
    total = mp.mpf(0)
    for k in range(ORDER, 1, -1):
        term = moments[k] / (k * (k - 1) * mu ** (k - 1))
        total += (-1) ** k * mp.mpf(term.numerator) / term.denominator
    return total


def pair_value(n: int, a: int, b: int) -> tuple[mp.mpf, str]:
    var = _variance(n, a, b)
    values = {}
    if var <= 10**6:
        values["direct"] = direct(n, a, b)
    if var >= 10**4:
        values["series"] = series(n, a, b)
    if len(values) == 2:
        d, s = values["direct"], values["series"]
        assert abs(d - s) <= mp.mpf(10) ** -40 * abs(d), (n, a, b, d, s)
        return d, "both"
    ((method, value),) = values.items()
    return value, method


PAIRS = {
    # N: size pairs (a, b) spanning tiny means, both routes of Var X around 2**20, a or b near N.
    10**9: [
        (3, 7),
        (1000, 2000),
        (30000, 40000),
        (10**6, 5 * 10**5),
        (10**9 - 5, 10**8),
        (5 * 10**8, 5 * 10**8),
    ],
    3_037_000_500: [(1, 1), (50000, 70000), (3_037_000_500 - 40000, 80000), (10**9, 2 * 10**9)],
    10**12: [(10**6, 10**6), (10**6, 10**12 - 10**6), (2**20, 2**20 + 7), (2 * 10**6, 5 * 10**11)],
    10**15: [
        (5, 10**15 - 5),
        (10**7, 10**8),
        (10**14, 3 * 10**14),
        (10**15 - 10**6, 10**15 - 3 * 10**6),
    ],
    2**62: [(2**40, 2**22), (2**61, 2**61), (2**62 - 2**41, 2**61 + 3), (17, 2**30)],
    LIMIT: [
        (1, LIMIT - 1),
        (2**31, 2**33),
        (2**61, 2**60),
        (LIMIT - 5, LIMIT - 2**41),
        (2**62, 12345),
    ],
    # Var X on both sides of 2**20 (the two routes of chanceclust), and 1e4 <= Var X <= 1e6
    # (both reference methods, cross-checked).
    2**63 - 25: [
        (2**41, 2**42),
        (2**41 + 2**21, 2**42),
        (2**40, 2**40),
        (2**63 - 25 - 2**40, 2**41),
    ],
    10**13: [(10**6, 10**11), (3 * 10**6, 10**12), (10**13 - 10**6, 5 * 10**11)],
}

TABLES = {
    "issue_example": [[2**61, 2**60], [2**61, 5]],
    "powers_of_two": [[2**62, 2**61], [2**60, 2**59 + 12345]],
    "near_identical": [[2**62, 3], [5, 2**62 - 100]],
    "tiny_cells_at_limit": [[LIMIT - 10, 3], [4, 3]],
    "three_by_three": [[2**61, 17, 2**60], [1, 2**61 - 5, 2**59], [3, 2**58, 2**57]],
    "web_graph_1e10": [
        [4 * 10**9, 10**6, 0],
        [2 * 10**6, 3 * 10**9, 5],
        [10**5, 7, 3 * 10**9 - 3_100_012],
    ],
}


def _entropy(sizes: list[int], n: int) -> mp.mpf:
    return -mp.fsum(mp.mpf(a) / n * mp.log(mp.mpf(a) / n) for a in sizes if a)


def table_reference(table: list[list[int]]) -> dict:
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    n = sum(rows)
    assert n <= LIMIT
    expected = mp.fsum(pair_value(n, a, b)[0] for a in rows for b in cols) / n
    mi = mp.fsum(
        mp.mpf(x) / n * mp.log(mp.mpf(x) * n / (mp.mpf(rows[i]) * cols[j]))
        for i, r in enumerate(table)
        for j, x in enumerate(r)
        if x
    )
    h_a, h_b = _entropy(rows, n), _entropy(cols, n)
    ami = (mi - expected) / ((h_a + h_b) / 2 - expected)
    return {
        "table": [[str(x) for x in r] for r in table],
        "expected_mutual_information": _string(expected),
        "adjusted_mutual_information": _string(ami),
    }


def _string(x) -> str:
    return mp.nstr(x, 50, min_fixed=-(10**9), max_fixed=10**9)


def main() -> None:
    pairs = []
    for n, sizes in PAIRS.items():
        for a, b in sizes:
            value, method = pair_value(n, a, b)
            pairs.append(
                {"n": str(n), "a": str(a), "b": str(b), "n_info": _string(value), "method": method}
            )
    tables = {name: table_reference(t) for name, t in TABLES.items()}
    out = Path(__file__).with_name("huge_pair_information.json")
    out.write_text(json.dumps({"pairs": pairs, "tables": tables}, indent=1) + "\n")


if __name__ == "__main__":
    main()
