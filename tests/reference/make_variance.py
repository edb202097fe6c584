#!/usr/bin/env python
"""Reference Var[RI] and standardized RI (z) for tables with N = 50 .. 10^15 (mpmath, 80 digits).

Independent of chanceclust (stdlib + mpmath only), from first principles:

* RI is the mean over the P = C(N, 2) element pairs p of Z_p = X_p Y_p +
  (1 - X_p)(1 - Y_p), X_p (Y_p) = 1 when the pair is co-clustered in A (B).
  With A and B independent, Var[RI] = (1/P^2) sum_{p, q} Cov(Z_p, Z_q), and
  Cov(Z_p, Z_q) = E[X_p X_q] E[Y_p Y_q] + ... expands into the joint
  co-clustering probabilities of each side for the three kinds of pair
  pairs (the same pair: P of them; sharing one element: N(N-1)(N-2);
  disjoint: N(N-1)(N-2)(N-3)/4). Each term is evaluated in 80-digit
  arithmetic from these probabilities, so no cancellation matters.
* The probabilities (docs/math.md): a fixed size sequence (perm, or a one-sided
  reference) gives p1 = sum (a)_2 / (N)_2, P(three together) = sum (a)_3 /
  (N)_3, P(two disjoint pairs together) = (sum (a)_4 + (sum (a)_2)^2 -
  sum (a)_2^2) / (N)_4, as exact fractions. num with K clusters:
  S(N-1,K)/S(N,K) and S(N-2,K)/S(N,K) for both kinds of pair pairs, with
  S(n, K) = K^n T(n, K) / K! and T the inclusion-exclusion sum
  sum_j (-1)^j C(K, j) (1 - j/K)^n (exact integers when N <= 20000, else
  80-digit mpmath, summed until the terms, ~x^j / j! with x = K (1 - 1/K)^N
  <= 30, fall below 1e-100). all: B_{N-1}/B_N and B_{N-2}/B_N, i.e.
  E[u^-1] and E[u^-2] under Stam's law P(u) ~ u^N / u! (Dobinski): exact
  Bell numbers for N <= 1000, the Dobinski sum over every u whose term
  exceeds 1e-90 of the largest for N <= 10^7, and beyond that the integral
  of the same (real-analytic) density over a +-40 sd interval, which equals
  the sum up to exp(-2 pi^2 sd^2) by Poisson summation (sd > 10^3 there).
  The script checks the integral against the Dobinski sum at N = 10^6 and
  10^7 (agreement < 1e-60).
* z = (RI - E[RI]) / sqrt(Var[RI]), E[RI] = p_A p_B + (1 - p_A)(1 - p_B),
  RI from the table's pair counts (exact integers).
* Self-check: for every model and side and several tables with N <= 6, the
  formula equals brute-force enumeration of all pairs of clusterings of the
  ensemble, exactly (fractions).

Run: ``python tests/reference/make_variance.py`` (about a minute); writes
``variance.json`` beside this file.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared primitives: _exact.py
from _exact import bell_numbers, falling, set_partitions, stirling2_range  # noqa: E402

mp.mp.dps = 80
HERE = Path(__file__).resolve().parent
EXACT_STIRLING_MAX = 20000
EXACT_BELL_MAX = 1000
DOBINSKI_MAX = 10**7


# ---------------------------------------------------------------- per-side probabilities
def fixed_side(sizes: list[int]) -> tuple:
    """(p1, p_overlap, p_disjoint) exactly for a fixed size sequence (Fractions)."""
    n = sum(sizes)
    s2 = sum(falling(a, 2) for a in sizes)
    s3 = sum(falling(a, 3) for a in sizes)
    s4 = sum(falling(a, 4) for a in sizes)
    sq = sum(falling(a, 2) ** 2 for a in sizes)
    p1 = Fraction(s2, falling(n, 2))
    p3 = Fraction(s3, falling(n, 3)) if n >= 3 else Fraction(0)
    p4 = Fraction(s4 + s2 * s2 - sq, falling(n, 4)) if n >= 4 else Fraction(0)
    return p1, p3, p4


def stirling_exact(n: int, k: int) -> int:
    return stirling2_range(n, n, k)[n]  # inclusion-exclusion, exact


def num_side(n: int, k: int) -> tuple:
    """S(N-1,K)/S(N,K) and S(N-2,K)/S(N,K) (both kinds of pair pairs)."""
    if k == 1:
        return Fraction(1), Fraction(1), Fraction(1)
    if n <= EXACT_STIRLING_MAX:
        s0, s1, s2 = (stirling_exact(n - j, k) for j in range(3))
        return Fraction(s1, s0), Fraction(s2, s0), Fraction(s2, s0)
    # Terms C(K, j) (1 - j/K)^n ~ x^j / j!, x = K (1 - 1/K)^n <= 30 here: summed until
    # below 1e-100 (the alternating sum loses at most ~x / ln 10 of the 80 digits).
    assert k * (1 - 1 / k) ** n <= 30

    def t(m: int) -> mp.mpf:
        total, top, j = mp.mpf(0), mp.mpf(0), 0
        while j <= k:
            term = mp.binomial(k, j) * mp.power(1 - mp.mpf(j) / k, m)
            top = max(top, term)
            total += -term if j % 2 else term
            if j > 0 and term < top * mp.mpf(10) ** -100:
                break
            j += 1
        return total

    t0 = t(n)
    p1 = t(n - 1) / (k * t0)
    p2 = t(n - 2) / (k * k * t0)
    return p1, p2, p2


_BELLS = bell_numbers(EXACT_BELL_MAX)


def _log_term(n: int, u) -> mp.mpf:
    return n * mp.log(u) - mp.loggamma(u + 1)


def _stam_centre(n: int) -> tuple[mp.mpf, mp.mpf]:
    """The real maximizer c of N log x - log Gamma(x+1) and the sd 1/sqrt(-f''(c))."""
    x = mp.mpf(n) / mp.log(n)
    c = mp.findroot(lambda y: n / y - mp.digamma(y + 1), x)
    sd = 1 / mp.sqrt(n / c**2 + mp.psi(1, c + 1))
    return c, sd


def stam_dobinski(n: int) -> tuple[mp.mpf, mp.mpf]:
    """(E[1/u], E[1/u^2]) under P(u) ~ u^n/u!, summed over all u with term > 1e-90 of the top."""
    c, _ = _stam_centre(n)
    mode = int(c)
    top = max(_log_term(n, mode), _log_term(n, mode + 1))
    cut = top - 90 * mp.log(10)
    s0 = s1 = s2 = mp.mpf(0)
    for step in (1, -1):
        u = mode + 1 if step == 1 else mode
        while u >= 1:
            value = _log_term(n, u)
            if value < cut:
                break
            w = mp.exp(value - top)
            s0 += w
            s1 += w / u
            s2 += w / (mp.mpf(u) * u)
            u += step
    return s1 / s0, s2 / s0


def stam_integral(n: int) -> tuple[mp.mpf, mp.mpf]:
    """The same moments as integrals of the real density over c +- 40 sd (Poisson summation)."""
    c, sd = _stam_centre(n)
    top = _log_term(n, c)
    points = [c + sd * t for t in (-40, -20, -10, -5, -2, 0, 2, 5, 10, 20, 40)]

    def moment(j: int) -> mp.mpf:
        return mp.quad(lambda x: mp.exp(_log_term(n, x) - top) * mp.power(x, -j), points)

    m0 = moment(0)
    return moment(1) / m0, moment(2) / m0


def all_side(n: int) -> tuple:
    """B_{N-1}/B_N and B_{N-2}/B_N (both kinds of pair pairs)."""
    if n <= EXACT_BELL_MAX:
        b = _BELLS
        return Fraction(b[n - 1], b[n]), Fraction(b[n - 2], b[n]), Fraction(b[n - 2], b[n])
    e1, e2 = stam_dobinski(n) if n <= DOBINSKI_MAX else stam_integral(n)
    return e1, e2, e2


# ---------------------------------------------------------------- Var[RI] and z
def to_mp(x) -> mp.mpf:
    return mp.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else x


def variance(n: int, side_a: tuple, side_b: tuple):
    """(1/P^2) sum over pair pairs of Cov(Z_p, Z_q), from each side's joint probabilities."""
    pairs = n * (n - 1) // 2
    if not all(isinstance(v, Fraction) for v in (*side_a, *side_b)):
        side_a, side_b = tuple(map(to_mp, side_a)), tuple(map(to_mp, side_b))
    a1, b1 = side_a[0], side_b[0]

    def cov(ea, eb):  # E[X_p X_q] = ea, E[Y_p Y_q] = eb for this kind of pair pair
        # Z = 1 - X - Y + 2 X Y; E[Z_p Z_q] from the joint moments of X and of Y.
        ez_z = 1 - 2 * a1 - 2 * b1 + ea + eb + 6 * a1 * b1 + 4 * ea * eb - 4 * ea * b1 - 4 * a1 * eb
        ez = 1 - a1 - b1 + 2 * a1 * b1
        return ez_z - ez * ez

    weights = (pairs, n * (n - 1) * (n - 2), n * (n - 1) * (n - 2) * (n - 3) // 4)
    joint_a = (a1, side_a[1], side_a[2])
    joint_b = (b1, side_b[1], side_b[2])
    total = sum(w * cov(ea, eb) for w, ea, eb in zip(weights, joint_a, joint_b, strict=True))
    return total / (pairs * pairs)


def side_law(sizes: list[int], model: str, random: bool) -> tuple:
    n = sum(sizes)
    if model == "perm" or not random:
        return fixed_side(sizes)
    if model == "num":
        return num_side(n, len(sizes))
    return all_side(n)


def margins(table: list[list[int]]) -> tuple[list[int], list[int]]:
    rows = [sum(r) for r in table if sum(r)]
    cols = [sum(c) for c in zip(*table, strict=True) if sum(c)]
    return rows, cols


def reference(table: list[list[int]], model: str, one_sided: bool) -> tuple:
    rows, cols = margins(table)
    n = sum(rows)
    side_a = side_law(rows, model, not one_sided)
    side_b = side_law(cols, model, True)
    var = variance(n, side_a, side_b)
    pairs = n * (n - 1) // 2
    n11 = sum(x * (x - 1) // 2 for r in table for x in r)
    qa = sum(x * (x - 1) // 2 for x in rows)
    qb = sum(x * (x - 1) // 2 for x in cols)
    ri = Fraction(pairs + 2 * n11 - qa - qb, pairs)
    a1, b1 = side_a[0], side_b[0]
    if not (isinstance(a1, Fraction) and isinstance(b1, Fraction)):
        a1, b1 = to_mp(a1), to_mp(b1)
    expected = a1 * b1 + (1 - a1) * (1 - b1)
    if var == 0:
        return mp.mpf(0), mp.mpf(0)
    v = to_mp(var)
    return v, (to_mp(ri) - to_mp(expected)) / mp.sqrt(v)


# ---------------------------------------------------------------- self-check by enumeration
def enumerated_variance(labels_a, labels_b, model: str, one_sided: bool) -> Fraction:
    n = len(labels_a)
    parts = list(set_partitions(n))

    def members(labels):
        if model == "all":
            return parts
        if model == "num":
            return [p for p in parts if max(p) == max(labels)]
        sizes = sorted(Counter(labels).values())
        return [p for p in parts if sorted(Counter(p).values()) == sizes]

    def indicators(p):
        return [int(p[i] == p[j]) for i in range(n) for j in range(i + 1, n)]

    side_a = [tuple(labels_a)] if one_sided else members(labels_a)
    values = [
        sum(x == y for x, y in zip(indicators(pa), indicators(pb), strict=True))
        for pa, pb in product(side_a, members(labels_b))
    ]
    pairs, count = n * (n - 1) // 2, len(values)
    mean = Fraction(sum(values), count * pairs)
    return Fraction(sum(v * v for v in values), count * pairs * pairs) - mean * mean


def self_check() -> None:
    cases = [
        ([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]),
        ([0, 0, 0, 0, 1, 2], [0, 1, 0, 1, 0, 1]),
        ([0, 1, 1, 1, 1], [0, 0, 1, 2, 3]),
        ([0, 0, 1, 1, 1, 1], [0, 1, 2, 3, 4, 4]),
    ]
    for labels_a, labels_b in cases:
        table = [
            [
                sum(1 for x, y in zip(labels_a, labels_b, strict=True) if (x, y) == (i, j))
                for j in range(max(labels_b) + 1)
            ]
            for i in range(max(labels_a) + 1)
        ]
        for model in ("perm", "num", "all"):
            for one_sided in (False, True):
                rows, cols = margins(table)
                n = sum(rows)
                got = variance(n, side_law(rows, model, not one_sided), side_law(cols, model, True))
                want = enumerated_variance(labels_a, labels_b, model, one_sided)
                assert got == want, (labels_a, labels_b, model, one_sided, got, want)


# ---------------------------------------------------------------- the cases
def split(n: int, fractions: list[float]) -> list[int]:
    sizes = [int(n * f) for f in fractions[:-1]]
    return [*sizes, n - sum(sizes)]


def random_like_table(rows: list[int], cols: list[int], tilt: int) -> list[list[int]]:
    """A table with these margins near independence (each cell ~ a_i b_j / N), tilted."""
    n = sum(rows)
    table = [[r * c // n for c in cols] for r in rows]
    row_left = [r - sum(t) for r, t in zip(rows, table, strict=True)]
    col_left = [c - sum(t) for c, t in zip(cols, zip(*table, strict=True), strict=True)]
    for i in range(len(rows)):  # the remainders, north-west corner rule
        for j in range(len(cols)):
            move = min(row_left[i], col_left[j])
            table[i][j] += move
            row_left[i] -= move
            col_left[j] -= move
    if tilt and min(table[0][0], table[-1][-1], table[0][-1], table[-1][0]) > tilt:
        table[0][0] += tilt
        table[-1][-1] += tilt
        table[0][-1] -= tilt
        table[-1][0] -= tilt
    assert [sum(r) for r in table] == rows
    assert [sum(c) for c in zip(*table, strict=True)] == cols
    assert min(min(r) for r in table) >= 0
    return table


def cases() -> list[tuple[str, list[list[int]]]]:
    out = []
    for n in (50, 1000, 10**6, 10**7, 10**9, 10**12, 10**15):
        tilt = max(1, n // 1000)
        out.append(
            (
                "30/70 vs two clusters",
                random_like_table(split(n, [0.3, 0.7]), split(n, [0.45, 0.55]), tilt),
            )
        )
        out.append(
            (
                "1/99 vs three clusters",
                random_like_table(split(n, [0.01, 0.99]), split(n, [0.2, 0.3, 0.5]), 0),
            )
        )
        out.append(
            (
                "50/50 vs 10 clusters",
                random_like_table(split(n, [0.5, 0.5]), split(n, [0.1] * 10), tilt),
            )
        )
        if n >= 10**6:
            out.append(
                (
                    "5 unequal vs 1000 clusters",
                    random_like_table(
                        split(n, [0.4, 0.3, 0.2, 0.07, 0.03]), split(n, [0.001] * 1000), 0
                    ),
                )
            )
    for n, k in (
        (2000, 400),
        (2000, 1000),
        (2000, 1999),
        (5000, 1000),
        (5000, 2500),
        (10000, 2000),
        (20000, 5000),
        (70000, 10000),
        (85000, 10000),
        (200000, 20000),
        (1000000, 100000),
        (2200000, 200000),
        (12000000, 1000000),
    ):
        # num with small clusters: K close to N
        cols = [n // k + (1 if j < n % k else 0) for j in range(k)]
        out.append((f"num small clusters K={k}", random_like_table(split(n, [0.3, 0.7]), cols, 0)))
    return out


def main() -> None:
    start = time.perf_counter()
    self_check()
    checks = {}
    for n in (10**6, 10**7):
        d, q = stam_dobinski(n), stam_integral(n)
        checks[str(n)] = mp.nstr(max(abs(d[0] / q[0] - 1), abs(d[1] / q[1] - 1)), 3)
        assert abs(d[0] / q[0] - 1) < 1e-60, checks
        assert abs(d[1] / q[1] - 1) < 1e-60, checks
    records = []
    for label, table in cases():
        rows, _ = margins(table)
        n = sum(rows)
        results = []
        for model, one_sided in (
            ("perm", False),
            ("num", False),
            ("num", True),
            ("all", False),
            ("all", True),
        ):
            var, z = reference(table, model, one_sided)
            results.append(
                {
                    "model": model,
                    "one_sided": one_sided,
                    "variance": mp.nstr(var, 40),
                    "z": mp.nstr(z, 40),
                }
            )
        records.append(
            {"label": label, "n": n, "table_rle": [rle(row) for row in table], "results": results}
        )
        print(label, n, round(time.perf_counter() - start, 1), flush=True)
    header = {
        "description": "Var[RI] and standardized RI (z) for contingency tables (rows as "
        "[value, repeat] runs), every model and side, N = 50 .. 1e15",
        "generated_by": "tests/reference/make_variance.py (stdlib + mpmath, mp.dps = 80)",
        "integral_vs_dobinski_relative_difference": checks,
    }
    lines = ",\n".join(json.dumps(r) for r in records)
    text = f'{{"header": {json.dumps(header)},\n"cases": [\n{lines}\n]}}\n'
    (HERE / "variance.json").write_text(text)


def rle(row: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for v in row:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return out


if __name__ == "__main__":
    main()
