#!/usr/bin/env python
"""Reference E[MI_q] and Var[MI_q] at large N (the Lancaster and slot routes of SMI_q), by
exact sums over every table of small shapes (mpmath, 50 digits, independent of chanceclust).

MI_q = H_q(A) + H_q(B) - H_q(A, B), H_q(X) = (1 - sum_i (x_i/N)^q) / (q - 1) (Romano, Vinh,
Bailey and Verspoor 2016). Each case sums over every table of its shape with its probability
(50 digits; the probabilities are checked to sum to 1 within 1e-40):

* ``perm`` (both margins fixed): the table is uniform given its margins; 2 x 2 tables by their
  cell n_11 ~ Hyp(N, a_1, b_1) (N = 10^5: the pmf at the support's lower end by mpmath's
  binomials, carried by its exact ratios), a 2 x 3 table by (n_11, n_12), multivariate
  hypergeometric (N = 600, integer binomials);
* ``num`` one-sided: the reference's 2 clusters fixed, the other side uniform among the
  clusterings into K = 2 clusters: ordered sizes (b, N - b) with weight C(N, b) / (2^N - 2),
  then n_11 ~ Hyp(N, a_1, b) (N = 400);
* ``num`` two-sided: both sides uniform among the clusterings into 2 clusters (N = 60).

The large cases at q = 0.5, 1.5, 3; small ones (N = 24 to 40) also at q = 0.1, 6 and 10, where
the cell-pair sums of the small-table route lose digits (the terms of x^q cancel).

* ``all`` one-sided (N = 30, reference sizes (10, 20)), integer q = 3, 6, 10 in exact
  rationals: the other side's shape (an integer partition of N, of multiplicity
  N! / (prod parts! prod multiplicities!) among the B_N clusterings), then, given it, the
  first row's cells by a recursion over the blocks of the sums of prod C(part, n_1j) times
  1, S and S^2 for S = sum_ij n_ij^q (every table of the shape once).

Run from the repository root: ``python tests/reference/make_tsallis_large.py`` writes
``tests/reference/tsallis_large.json`` (about a minute).
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from math import comb, factorial
from pathlib import Path

import mpmath as mp

mp.mp.dps = 50
QS = ("0.5", "1.5", "3")
WIDE_QS = ("0.1", "0.5", "3", "6", "10")
OUT = Path(__file__).with_name("tsallis_large.json")


def power_sum(parts: tuple[int, ...], q: mp.mpf) -> mp.mpf:
    return mp.fsum(mp.mpf(x) ** q for x in parts if x)


def mi_q(rows: tuple[int, ...], cols: tuple[int, ...], cells: tuple[int, ...], n: int,
         q: mp.mpf) -> mp.mpf:
    """(N^q - sum a^q - sum b^q + sum n^q) / ((q - 1) N^q): H_q(A) + H_q(B) - H_q(A, B)."""
    nq = mp.mpf(n) ** q
    return (nq - power_sum(rows, q) - power_sum(cols, q) + power_sum(cells, q)) / ((q - 1) * nq)


def moments(weighted: list[tuple[mp.mpf, tuple, tuple, tuple]], n: int, q: mp.mpf):
    """(E, Var) of MI_q over tables given as (probability, rows, cols, cells)."""
    values = [(w, mi_q(r, c, cells, n, q)) for w, r, c, cells in weighted]
    mean = mp.fsum(w * v for w, v in values)
    return mean, mp.fsum(w * (v - mean) ** 2 for w, v in values)


def two_by_two(n: int, rows: tuple[int, int], cols: tuple[int, int]) -> list:
    """Every 2 x 2 table of these margins with its probability, n_11 ~ Hyp(N, a_1, b_1)."""
    a, b = rows[0], cols[0]
    lo, hi = max(0, a + b - n), min(a, b)
    pmf = mp.binomial(b, lo) * mp.binomial(n - b, a - lo) / mp.binomial(n, a)
    out = []
    for x in range(lo, hi + 1):
        out.append((pmf, rows, cols, (x, a - x, b - x, n - a - b + x)))
        pmf = pmf * (a - x) * (b - x) / ((x + 1) * (n - a - b + x + 1))
    return out


def perm_two_by_two(n: int, rows: tuple[int, int], cols: tuple[int, int]) -> list:
    return two_by_two(n, rows, cols)


def perm_two_by_three(n: int, rows: tuple[int, int], cols: tuple[int, int, int]) -> list:
    a = rows[0]
    total = mp.mpf(comb(n, a))
    out = []
    for x in range(min(a, cols[0]) + 1):
        for y in range(min(a - x, cols[1]) + 1):
            z = a - x - y
            if z > cols[2]:
                continue
            weight = comb(cols[0], x) * comb(cols[1], y) * comb(cols[2], z)
            cells = (x, y, z, cols[0] - x, cols[1] - y, cols[2] - z)
            out.append((weight / total, rows, cols, cells))
    return out


def num_two(n: int) -> list[tuple[mp.mpf, tuple[int, int]]]:
    """Ordered sizes (b, N - b) of a uniform clustering into 2 clusters, probability
    C(N, b) / (2^N - 2) (each clustering counted once per order of its clusters)."""
    return [(mp.mpf(comb(n, b)) / (2**n - 2), (b, n - b)) for b in range(1, n)]


def num_one_sided(n: int, rows: tuple[int, int]) -> list:
    out = []
    for wb, cols in num_two(n):
        out += [(wb * w, r, c, cells) for w, r, c, cells in two_by_two(n, rows, cols)]
    return out


def num_two_sided(n: int) -> list:
    out = []
    for wa, rows in num_two(n):
        for wb, cols in num_two(n):
            out += [(wa * wb * w, r, c, cells) for w, r, c, cells in two_by_two(n, rows, cols)]
    return out


CASES = [
    ("perm", False, (30000, 70000), (45000, 55000), lambda: perm_two_by_two(100000, (30000, 70000), (45000, 55000))),
    ("perm", False, (10, 99990), (50000, 50000), lambda: perm_two_by_two(100000, (10, 99990), (50000, 50000))),
    ("perm", False, (250, 350), (100, 200, 300), lambda: perm_two_by_three(600, (250, 350), (100, 200, 300))),
    ("num", True, (150, 250), (200, 200), lambda: num_one_sided(400, (150, 250))),
    ("num", False, (20, 40), (30, 30), lambda: num_two_sided(60)),
]
WIDE_CASES = [
    ("perm", False, (12, 18), (7, 10, 13), lambda: perm_two_by_three(30, (12, 18), (7, 10, 13))),
    ("num", True, (15, 25), (20, 20), lambda: num_one_sided(40, (15, 25))),
    ("num", False, (10, 14), (12, 12), lambda: num_two_sided(24)),
]


def partitions(n: int, largest: int | None = None):
    """The integer partitions of n, parts non-increasing."""
    if n == 0:
        yield ()
        return
    for part in range(min(n, n if largest is None else largest), 0, -1):
        for rest in partitions(n - part, part):
            yield (part, *rest)


def shape_count(parts: tuple[int, ...], n: int) -> int:
    """The clusterings of n elements whose sizes are ``parts``."""
    count = factorial(n)
    for part in parts:
        count //= factorial(part)
    for multiplicity in Counter(parts).values():
        count //= factorial(multiplicity)
    return count


def row_sums(parts: tuple[int, ...], first: int, q: int) -> tuple[int, int, int]:
    """Over the tables of a 2-row side (first row ``first`` elements) against these column
    parts: sum of prod C(part, n_1j) times 1, S and S^2, S = sum_ij n_ij^q."""
    w0, w1, w2 = [1] + [0] * first, [0] * (first + 1), [0] * (first + 1)
    for part in parts:
        n0, n1, n2 = [0] * (first + 1), [0] * (first + 1), [0] * (first + 1)
        for used in range(first + 1):
            if w0[used]:
                for x in range(min(part, first - used) + 1):
                    w, s = comb(part, x), x**q + (part - x) ** q
                    n0[used + x] += w * w0[used]
                    n1[used + x] += w * (w1[used] + s * w0[used])
                    n2[used + x] += w * (w2[used] + 2 * s * w1[used] + s * s * w0[used])
        w0, w1, w2 = n0, n1, n2
    return w0[first], w1[first], w2[first]


def all_one_sided(rows: tuple[int, int], q: int) -> tuple[Fraction, Fraction]:
    """Exact (E, Var) of MI_q, the reference ``rows`` fixed, the other side under all."""
    n = sum(rows)
    total = first_moment = second_moment = 0
    for parts in partitions(n):
        count = shape_count(parts, n)
        w0, w1, w2 = row_sums(parts, rows[0], q)
        columns = sum(part**q for part in parts)  # T = S - sum_j b_j^q
        total += count * w0
        first_moment += count * (w1 - columns * w0)
        second_moment += count * (w2 - 2 * columns * w1 + columns * columns * w0)
    mean = Fraction(first_moment, total)
    scale = (q - 1) * Fraction(n) ** q  # MI_q = (N^q - sum a^q + T) / ((q - 1) N^q)
    expected = (n**q - sum(a**q for a in rows) + mean) / scale
    return expected, (Fraction(second_moment, total) - mean * mean) / (scale * scale)


def main() -> None:
    out = []
    for (model, one_sided, rows, cols, make), qs in [(c, QS) for c in CASES] + [
            (c, WIDE_QS) for c in WIDE_CASES]:
        weighted = make()
        if abs(mp.fsum(w for w, *_ in weighted) - 1) > mp.mpf(10) ** -40:
            raise AssertionError("the probabilities do not sum to 1")
        n = sum(rows)
        values = {}
        for q in qs:
            mean, variance = moments(weighted, n, mp.mpf(q))
            values[q] = {"expected": mp.nstr(mean, 30), "variance": mp.nstr(variance, 30)}
        out.append({"model": model, "one_sided": one_sided, "rows": rows, "cols": cols,
                    "values": values})
        print(model, rows, cols, "done", flush=True)
    rows = (10, 20)
    values = {}
    for q in (3, 6, 10):
        mean, variance = all_one_sided(rows, q)
        values[str(q)] = {"expected": mp.nstr(mp.mpf(mean.numerator) / mean.denominator, 30),
                          "variance": mp.nstr(mp.mpf(variance.numerator) / variance.denominator, 30)}
    out.append({"model": "all", "one_sided": True, "rows": rows, "cols": (15, 15),
                "values": values})
    print("all", rows, "done", flush=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
