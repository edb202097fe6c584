"""Exact primitives shared by the reference generators (one copy of each).

Used by ``tests/reference/make_*.py`` and ``benchmarks/references/make_references.py``;
pure Python integers (and mpmath for ``bd0``), independent of chanceclust. Where a
generator checks one method against another (the triangle against inclusion-exclusion or
Eulerian numbers, Bell's triangle against Dobinski's series), both methods are here, each
written once.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import cache

import mpmath as mp


def falling(x: int, m: int) -> int:
    """The falling factorial (x)_m = x (x - 1) ... (x - m + 1)."""
    out = 1
    for i in range(m):
        out *= x - i
    return out


def stirling2(n: int, k: int) -> int:
    """S(n, k) by the recurrence S(i, j) = j S(i-1, j) + S(i-1, j-1), one row of k + 1 ints."""
    return _stirling2(int(n), int(k))


@cache
def _stirling2(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    row = [1] + [0] * k
    for i in range(1, n + 1):
        new = [0] * (k + 1)
        for j in range(1, min(i, k) + 1):
            new[j] = j * row[j] + row[j - 1]
        row = new
    return row[k]


def stirling2_rows(nmax: int) -> Iterator[tuple[int, list[int]]]:
    """(n, [S(n, 0), ..., S(n, n)]) for n = 1..nmax: the triangle, row by row."""
    row = [1]
    for n in range(1, nmax + 1):
        new = [0] * (n + 1)
        for k in range(1, n + 1):
            new[k] = (k * row[k] if k < n else 0) + row[k - 1]
        row = new
        yield n, row


def stirling2_range(m_lo: int, m_hi: int, k: int) -> dict[int, int]:
    """{m: S(m, k)} for m_lo <= m <= m_hi, exact, by inclusion-exclusion.

    k! S(m, k) = sum_j (-1)^j C(k, j) (k - j)^m; the powers are advanced by one
    multiplication per step in m, and the division by k! is checked exact.
    """
    if k == 0:
        return {m: int(m == 0) for m in range(m_lo, m_hi + 1)}
    coef = [(-1) ** j * math.comb(k, j) for j in range(k)]  # j = k term is 0^m, 0 for m>0
    base = [k - j for j in range(k)]
    powers = [pow(x, m_lo) for x in base]
    kfact = math.factorial(k)
    out = {}
    for m in range(m_lo, m_hi + 1):
        total = sum(c * p for c, p in zip(coef, powers, strict=True))
        if m == 0:
            total += (-1) ** k  # the j = k term, 0^0 = 1
        q, r = divmod(total, kfact)
        assert r == 0, (m, k)
        assert q >= 0, (m, k)
        out[m] = q
        if m < m_hi:
            powers = [p * x for p, x in zip(powers, base, strict=True)]
    return out


_EULERIAN2_ROWS: list[tuple[int, ...]] = [(1,)]


def eulerian2(d: int) -> tuple[int, ...]:
    """Second-order Eulerian numbers <<d, j>>, j = 0..d-1 (row d; row 0 is (1,)).

    Rows are built bottom-up and kept (O(d^2) in all, no recursion depth to run out of).
    """
    rows = _EULERIAN2_ROWS
    while len(rows) <= d:
        m, prev = len(rows), rows[-1]
        rows.append(
            tuple(
                ((j + 1) * prev[j] if j < len(prev) else 0)
                + ((2 * m - 1 - j) * prev[j - 1] if 1 <= j <= len(prev) else 0)
                for j in range(m)
            )
        )
    return rows[d]


def stirling2_near_diagonal(n: int, d: int) -> int:
    """S(n, n - d) for small d = n - k: sum_j <<d, j>> C(n + d - 1 - j, 2d)."""
    if d == 0:
        return 1
    return sum(e * math.comb(n + d - 1 - j, 2 * d) for j, e in enumerate(eulerian2(d)))


def bell_numbers(n: int) -> list[int]:
    """[B_0, ..., B_n] exactly, by the Bell (Aitken) triangle."""
    out = [1]
    row = [1]
    for _ in range(n):
        new = [row[-1]]
        for x in row:
            new.append(new[-1] + x)
        row = new
        out.append(row[0])
    return out


@cache
def bell(n: int) -> int:
    """B_n (the last entry of :func:`bell_numbers`)."""
    return bell_numbers(n)[-1]


def bd0(x: int, m: mp.mpf) -> mp.mpf:
    """Loader's deviance x log(x/m) + m - x, with bd0(0, m) = m, in mpmath."""
    return m if x == 0 else x * mp.log(x / m) + m - x


def set_partitions(n: int) -> Iterator[tuple[int, ...]]:
    """All set partitions of range(n) as restricted-growth label tuples (0 first), in order."""
    labels = [0] * n

    def rec(i: int, m: int) -> Iterator[tuple[int, ...]]:
        if i == n:
            yield tuple(labels)
            return
        for v in range(m + 1):
            labels[i] = v
            yield from rec(i + 1, max(m, v + 1))

    if n == 0:
        yield ()
        return
    yield from rec(1, 1)
