"""40-digit references for Var[MI] (tests/reference/mi_variance.json), independent of chanceclust.

Run from the repository root: ``python tests/reference/make_mi_variance.py`` (a few minutes).

The variance is evaluated from its definition as a sum of covariances of two cells of the
random table (docs/math.md#math-mi-variance), in mpmath with 40 digits:

- N MI = sum_ij bd0(n_ij, a_i b_j / N); given the two size sequences the table is uniform
  among those with these margins, so Var[N MI] is the sum over ordered pairs of cells of
  Cov(bd0(n_ij), bd0(n_i'j')), which depends on the four sizes and on whether the cells share
  their row, their column, both or neither;
- the joint law of two cells is written with exact binomial coefficients: the same row,
  P(x, y) = C(b, x) C(b', y) C(N - b - b', a - x - y) / C(N, a); the same column likewise;
  neither, P(x, y) = sum_m P(x) P(m | x) P(y | m) with the nested hypergeometrics
  m | x ~ Hyp(N - a, a', b - x), y | m ~ Hyp(N - b, a' - m, b');
- pmfs are exact ratios of Python integers (math.comb) converted once, and every sum runs
  over the whole support except where the pmf is below 1e-60 of its largest value (mass
  < 1e-55 dropped);
- a random side (num, all) enters through its exact size moments: E[n_a] and the expected
  number of ordered pairs of distinct clusters of sizes (a, a'), over Stirling or Bell
  numbers, and Var = E[Var(. | sizes)] + Var(E[. | sizes]).

The covariances are formed as E[D D'] - E[D] E[D'] in 40 digits (the cancellation costs at
most ~10 of them). Values are independent of the engine's windows, pmfs, recurrences and
centring. Brute-force enumeration for N <= 8 (tests/test_mi_variance.py) checks the
decomposition itself.
"""

from __future__ import annotations

import json
import math
import sys
from functools import cache
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from reference._exact import bd0, bell, stirling2  # noqa: E402

mp.mp.dps = 40
_CUT = mp.mpf(10) ** -60


@cache
def hyp(total: int, a: int, b: int) -> dict[int, mp.mpf]:
    """{k: P(k)} for Hyp(total, a, b), exact ratios of integers, cut below 1e-60 of the max."""
    lo, hi = max(0, a + b - total), min(a, b)
    denominator = math.comb(total, a)
    mode = min(max((a + 1) * (b + 1) // (total + 2), lo), hi)
    out = {}
    peak = None
    for direction in (1, -1):
        k = mode if direction == 1 else mode - 1
        while lo <= k <= hi:
            p = mp.mpf(math.comb(b, k) * math.comb(total - b, a - k)) / denominator
            peak = p if peak is None else max(peak, p)
            if p < _CUT * peak:
                break
            out[k] = p
            k += direction
    return out


def dev(x: int, a: int, b: int, n: int) -> mp.mpf:
    return bd0(x, mp.mpf(a) * b / n)


@cache
def mean_dev(a: int, b: int, n: int) -> mp.mpf:
    return mp.fsum(p * dev(x, a, b, n) for x, p in hyp(n, a, b).items())


@cache
def var_dev(a: int, b: int, n: int) -> mp.mpf:
    e = mean_dev(a, b, n)
    return mp.fsum(p * (dev(x, a, b, n) - e) ** 2 for x, p in hyp(n, a, b).items())


@cache
def given(total: int, a: int, b: int, row: int, col: int, n: int) -> mp.mpf:
    """E[bd0(y, row col / n)] for y ~ Hyp(total, a, b)."""
    return mp.fsum(p * dev(y, row, col, n) for y, p in hyp(total, a, b).items())


def same_row(a: int, b: int, c: int, n: int) -> mp.mpf:
    """Cov of the cells (a, b) and (a, c) of one row: y | x ~ Hyp(N - b, a - x, c)."""
    joint = mp.fsum(
        p * dev(x, a, b, n) * given(n - b, a - x, c, a, c, n) for x, p in hyp(n, a, b).items()
    )
    return joint - mean_dev(a, b, n) * mean_dev(a, c, n)


def same_col(a: int, a2: int, b: int, n: int) -> mp.mpf:
    return same_row(b, a, a2, n)  # the table transposed


def neither(a: int, a2: int, b: int, b2: int, n: int) -> mp.mpf:
    """Cov of the cells (a, b) and (a2, b2): m | x ~ Hyp(N - a, a2, b - x), y | m ~ Hyp(N - b, a2 - m, b2)."""
    inner = {}
    total = mp.mpf(0)
    for x, p in hyp(n, a, b).items():
        s = mp.mpf(0)
        for m, q in hyp(n - a, a2, b - x).items():
            if m not in inner:
                inner[m] = given(n - b, a2 - m, b2, a2, b2, n)
            s += q * inner[m]
        total += p * dev(x, a, b, n) * s
    return total - mean_dev(a, b, n) * mean_dev(a2, b2, n)


def fixed_moments(sizes: list[int]) -> tuple[dict, dict, None]:
    counts: dict[int, int] = {}
    for s in sizes:
        counts[s] = counts.get(s, 0) + 1
    pairs = {(s, t): counts[s] * counts[t] - (counts[s] if s == t else 0) for s in counts for t in counts}
    return {s: mp.mpf(c) for s, c in counts.items()}, {k: mp.mpf(v) for k, v in pairs.items()}, None


def random_moments(n: int, k: int | None) -> tuple[dict, dict, dict]:
    """E[n_a], E[pairs], Cov(n_a, n_a') of a uniform clustering (k clusters, or any: k None)."""

    def rest(m: int, used: int) -> int:
        return bell(m) if k is None else (stirling2(m, k - used) if k >= used else 0)

    total = bell(n) if k is None else stirling2(n, k)
    once = {a: mp.mpf(math.comb(n, a) * rest(n - a, 1)) / total for a in range(1, n + 1)}
    pairs = {
        (a, c): mp.mpf(math.comb(n, a) * math.comb(n - a, c) * rest(n - a - c, 2)) / total
        for a in range(1, n + 1)
        for c in range(1, n + 1 - a)
    }
    once = {a: w for a, w in once.items() if w != 0}
    pairs = {key: w for key, w in pairs.items() if w != 0}
    cov = {
        (a, c): pairs.get((a, c), 0) + (once[a] if a == c else 0) - once[a] * once[c]
        for a in once
        for c in once
    }
    return once, pairs, cov


def variance(n: int, side_a: tuple, side_b: tuple) -> mp.mpf:
    """Var[MI] for two sides given as (once, pairs, cov) (cov None: fixed)."""
    wa, pa, ca = side_a
    wb, pb, cb = side_b
    t = mp.fsum(wa[a] * wb[b] * var_dev(a, b, n) for a in wa for b in wb)
    t += mp.fsum(wa[a] * w * same_row(a, b, c, n) for a in wa for (b, c), w in pb.items())
    t += mp.fsum(w * wb[b] * same_col(a, a2, b, n) for (a, a2), w in pa.items() for b in wb)
    t += mp.fsum(
        w * v * neither(a, a2, b, b2, n) for (a, a2), w in pa.items() for (b, b2), v in pb.items()
    )
    e = {(a, b): mean_dev(a, b, n) for a in wa for b in wb}
    if ca is not None:
        g = {a: mp.fsum(wb[b] * e[a, b] for b in wb) for a in wa}
        t += mp.fsum(c * g[a] * g[a2] for (a, a2), c in ca.items())
    if cb is not None:
        g = {b: mp.fsum(wa[a] * e[a, b] for a in wa) for b in wb}
        t += mp.fsum(c * g[b] * g[b2] for (b, b2), c in cb.items())
    if ca is not None and cb is not None:
        t += mp.fsum(
            c * d * e[a, b] * e[a2, b2] for (a, a2), c in ca.items() for (b, b2), d in cb.items()
        )
    return t / n**2


def expected(n: int, side_a: tuple, side_b: tuple) -> mp.mpf:
    wa, wb = side_a[0], side_b[0]
    return mp.fsum(wa[a] * wb[b] * mean_dev(a, b, n) for a in wa for b in wb) / n


def mutual_information(table: list[list[int]]) -> mp.mpf:
    n = sum(map(sum, table))
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    return mp.fsum(
        bd0(x, mp.mpf(rows[i]) * cols[j] / n) for i, r in enumerate(table) for j, x in enumerate(r)
    ) / n


def _table(rows: list[int], cols: list[int]) -> list[list[int]]:
    """A table with these margins (north-west corner rule)."""
    rows, cols = list(rows), list(cols)
    out = [[0] * len(cols) for _ in rows]
    i = j = 0
    while i < len(rows) and j < len(cols):
        x = min(rows[i], cols[j])
        out[i][j] = x
        rows[i] -= x
        cols[j] -= x
        if rows[i] == 0:
            i += 1
        else:
            j += 1
    return out


CASES = [
    # (table, model, one_sided); perm cases are one-sided = two-sided.
    (_table([5, 4, 3], [6, 3, 2, 1]), "perm", False),
    (_table([20, 20, 10, 5, 5], [30, 15, 15]), "perm", False),
    (_table([250, 150, 70, 29, 1], [200, 200, 100]), "perm", False),
    (_table([1500, 400, 100], [1000, 700, 300]), "perm", False),
    (_table([9000, 600, 400], [9500, 300, 200]), "perm", False),
    (_table([99000, 700, 300], [99500, 400, 100]), "perm", False),
    (_table([1, 1, 1, 1, 1, 1, 1, 1, 2], [5, 5]), "perm", False),
    (_table([6, 3, 2, 1], [4, 4, 4]), "num", False),
    (_table([6, 3, 2, 1], [4, 4, 4]), "num", True),
    (_table([6, 3, 2, 1], [4, 4, 4]), "all", False),
    (_table([6, 3, 2, 1], [4, 4, 4]), "all", True),
    (_table([10, 5, 3, 2], [12, 8]), "num", False),
    (_table([10, 5, 3, 2], [12, 8]), "num", True),
    (_table([10, 5, 3, 2], [12, 8]), "all", True),
    (_table([10, 5, 3, 2], [12, 8]), "all", False),
]


# ---------------------------------------------------------------- one-sided slot sums
# Beyond N = 60 the engine sums over the slots of a mixture of i.i.d. labelings. These
# references evaluate the same decomposition from first principles: exact mixture weights
# (Stam: u^N / u! normalized; num: inclusion-exclusion, exact rationals), binomial pmfs as
# exact rationals, every cell function bd0, covariances as E[f g] - E[f] E[g] in 40 digits.


@cache
def binom(total: int, u: int) -> dict[int, mp.mpf]:
    """{k: P(k)} for Binomial(total, 1/u), exact rationals, cut below 1e-60 of the max."""
    q = mp.mpf(u - 1) / u
    out = {}
    peak = mp.mpf(0)
    for k in range(total + 1):
        p = mp.mpf(math.comb(total, k)) * (mp.mpf(1) / u) ** k * q ** (total - k)
        peak = max(peak, p)
        if p >= _CUT * peak:
            out[k] = p
        elif k > total / u:
            break
    return out


def row_terms(a: int, n: int, u: int) -> tuple:
    """(E[R], Var R, Cov(R, C)) given u, R = sum_j bd0(n_aj, a/u), C = sum_j bd0(b_j, n/u)."""
    f = {x: bd0(x, mp.mpf(a) / u) for x in binom(a, u)}
    px = binom(a, u)
    ef = mp.fsum(p * f[x] for x, p in px.items())
    ef2 = mp.fsum(p * f[x] ** 2 for x, p in px.items())
    pair = mp.fsum(
        p * f[x] * mp.fsum(q * f.get(y, bd0(y, mp.mpf(a) / u)) for y, q in binom(a - x, u - 1).items())
        for x, p in px.items()
    ) if u > 1 else mp.mpf(0)
    var_r = u * (ef2 - ef**2) + u * (u - 1) * (pair - ef**2)
    if a == n:
        return u * ef, var_r, var_r
    pm = binom(n - a, u)
    h = {x: mp.fsum(q * bd0(x + m, mp.mpf(n) / u) for m, q in pm.items()) for x in px}
    eh = mp.fsum(p * h[x] for x, p in px.items())
    same = mp.fsum(p * f[x] * h[x] for x, p in px.items()) - ef * eh
    other = mp.fsum(
        p * f[x] * mp.fsum(q * (h[y] if y in h else mp.fsum(r * bd0(y + m, mp.mpf(n) / u) for m, r in pm.items()))
                           for y, q in binom(a - x, u - 1).items())
        for x, p in px.items()
    ) - ef * eh
    return u * ef, var_r, u * same + u * (u - 1) * other


def mixture(n: int, k: int | None) -> dict[int, mp.mpf]:
    """Exact slot weights: Stam (k None) over u = 1..3n, or num's inclusion-exclusion."""
    if k is None:
        w = {u: mp.mpf(u) ** n / mp.factorial(u) for u in range(1, 3 * n + 1)}
        top = max(w.values())
        w = {u: x for u, x in w.items() if x > top * mp.mpf(10) ** -45}
    else:
        w = {k - j: (-1) ** j * mp.mpf(math.comb(k, j)) * (mp.mpf(k - j) / k) ** n for j in range(k)}
    total = mp.fsum(w.values())
    return {u: x / total for u, x in w.items()}


def slot_variance(sizes: list[int], n: int, k: int | None) -> tuple[mp.mpf, mp.mpf]:
    """(Var[MI], E[MI]) of a fixed clustering against a slot mixture, one-sided."""
    means, variances, weights = [], [], []
    for u, c in mixture(n, k).items():
        weights.append(c)
        if u == 1:
            means.append(mp.mpf(0))
            variances.append(mp.mpf(0))
            continue
        e_c, var_c, _ = row_terms(n, n, u)
        mean, var = -e_c, var_c
        for a in sizes:
            e, v, cov = row_terms(a, n, u)
            mean += e
            var += v - 2 * cov
        means.append(mean)
        variances.append(var)
    centre = mp.fsum(c * m for c, m in zip(weights, means, strict=True))
    total = mp.fsum(c * (v + (m - centre) ** 2) for c, v, m in zip(weights, variances, means, strict=True))
    return total / n**2, centre / n


SLOT_CASES = [
    # (table, model): one-sided, N > 60 (the engine's slot route).
    (_table([40, 25, 15], [30, 30, 20]), "all"),
    (_table([70, 50, 30, 20], [100, 70]), "num"),
    (_table([150, 100, 50], [120, 100, 80]), "num"),
]


def _side(sizes: list[int], n: int, model: str, fixed: bool) -> tuple:
    if fixed or model == "perm":
        return fixed_moments(sizes)
    return random_moments(n, len(sizes) if model == "num" else None)


def main() -> None:
    out = []
    for table, model, one_sided in CASES:
        n = sum(map(sum, table))
        rows = [sum(r) for r in table]
        cols = [sum(c) for c in zip(*table, strict=True)]
        side_a = _side(rows, n, model, one_sided)
        side_b = _side(cols, n, model, False)
        var = variance(n, side_a, side_b)
        mi = mutual_information(table)
        e = expected(n, side_a, side_b)
        out.append(
            {
                "table": table,
                "model": model,
                "one_sided": one_sided,
                "n": n,
                "variance": mp.nstr(var, 30),
                "expected": mp.nstr(e, 30),
                "smi": mp.nstr((mi - e) / mp.sqrt(var), 30),
            }
        )
        print(n, model, one_sided, mp.nstr(var, 20), flush=True)
        for f in (hyp, mean_dev, var_dev, given):
            f.cache_clear()
    for table, model in SLOT_CASES:
        n = sum(map(sum, table))
        rows = [sum(r) for r in table]
        k = len(table[0]) if model == "num" else None
        var, e = slot_variance(rows, n, k)
        mi = mutual_information(table)
        out.append(
            {
                "table": table,
                "model": model,
                "one_sided": True,
                "n": n,
                "variance": mp.nstr(var, 30),
                "expected": mp.nstr(e, 30),
                "smi": mp.nstr((mi - e) / mp.sqrt(var), 30),
            }
        )
        print(n, model, "slots", mp.nstr(var, 20), flush=True)
        binom.cache_clear()
    path = Path(__file__).with_name("mi_variance.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
