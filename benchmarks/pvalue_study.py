"""How far is the gamma route's p-value from the exact one? (issue #34)

For a grid of margins (shapes 2 x 2 to 3 x 4, N from 20 to 10^4, balanced and skewed sizes)
the whole exact null law of MI under perm is summed over every table with the margins
(chanceclust._exact_null.law, the engine of method="exact", itself tested against
hypergeometric tails and brute enumeration in tests/test_significance_exact.py). At up to 24
attained values of MI per margin set (spread over log p), the tail P(MI >= m) of the exact
law is compared with that of the gamma law with the exact mean and variance of MI (what
significance_test(..., method="gamma") returns before its verified-range rule). The first
table gives, per range of the exact p, the number of points, the worst factor
max(gamma/exact, exact/gamma) and the largest z-score reached. The second is the left tail
P(MI <= m), which the gamma route does not serve: the exact law has an atom at MI = 0 (the
tables of independent-looking counts) that a gamma law cannot have.

Run: PYTHONPATH=src python benchmarks/pvalue_study.py > benchmarks/PVALUE_STUDY.md
(about 3 minutes on one core; no randomness: the grid is fixed).
"""

from __future__ import annotations

import itertools
import math
import sys
import time

import numpy as np
from scipy.stats import gamma

import chanceclust as cc
from chanceclust import _exact_null as engine

# (rows, cols): each set of margins of the grid.
GRID: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
for n in (20, 50, 100, 200, 500, 1000, 2000, 5000, 10000):
    for share in (0.5, 0.3, 0.1, 0.03):
        a = max(1, round(n * share))
        for other in (0.5, 0.2):
            b = max(1, round(n * other))
            GRID.append(((a, n - a), (b, n - b)))
for n in (30, 60, 120, 300, 600):
    for rows in ((0.5, 0.5), (0.8, 0.2)):
        r = tuple(round(n * x) for x in rows)
        GRID.append(((r[0], n - r[0]), (n // 3, n // 3, n - 2 * (n // 3))))
        GRID.append(((r[0], n - r[0]), (n // 2, n // 4, n // 8, n - n // 2 - n // 4 - n // 8)))
for n in (24, 45, 90):
    GRID.append(((n // 3, n // 3, n - 2 * (n // 3)), (n // 3, n // 3, n - 2 * (n // 3))))
    GRID.append(((n // 2, n // 3, n - n // 2 - n // 3), (n // 2, n // 4, n - n // 2 - n // 4)))
GRID.append(((40, 10, 10), (15, 15, 15, 15)))
GRID.append(((170, 20, 10), (80, 60, 40, 20)))
POINTS = 24
BINS = (1e-3, 1e-6, 1e-12, 1e-30, 1e-100, 0.0)


def _labels(rows, cols):
    """Two clusterings with these sizes (any pairing: E[MI] and Var[MI] need the sizes)."""
    return np.repeat(np.arange(len(rows)), rows), np.repeat(np.arange(len(cols)), cols)


def _cumulative_logs(logs):
    """log of the running sums of exp(logs)."""
    out = np.empty_like(logs)
    acc = -math.inf
    for i, v in enumerate(logs):
        acc = np.logaddexp(acc, v)
        out[i] = acc
    return out


def study():
    rows_out = []
    for rows, cols in GRID:
        n = sum(rows)
        stat = engine.statistic(engine.ENTROPY, n)
        print(rows, cols, file=sys.stderr, flush=True)
        law = engine.law(rows, cols, stat)
        keys = np.array(sorted(law))
        logp = np.array([law[k] for k in keys])
        logp -= np.logaddexp.reduce(logp)  # normalize the rounding of the sum
        margins = stat.of(rows) + stat.of(cols)
        mi = (keys * stat.unit - margins * stat.unit + n * math.log(n)) / n
        upper = _cumulative_logs(logp[::-1])[::-1]  # P(MI >= m)
        lower = _cumulative_logs(logp)  # P(MI <= m)
        a, b = _labels(rows, cols)
        mean = cc.expected_mutual_information(a, b, model="perm")
        var = cc.mutual_information_variance(a, b, model="perm")
        if not (mean > 0 and var > 0):  # a single-valued law: p = 1, nothing to fit
            continue
        shape, scale = mean * mean / var, var / mean
        for side, exact, tail in (("greater", upper, gamma.logsf), ("less", lower, gamma.logcdf)):
            # Points spread over log p: every value if few, else POINTS quantiles of log p.
            order = np.argsort(exact)
            pick = (
                order
                if order.size <= POINTS
                else order[np.unique(np.linspace(0, order.size - 1, POINTS).round().astype(int))]
            )
            for i in pick:
                log_exact = float(exact[i])
                log_gamma = float(tail(max(mi[i], 0.0), shape, scale=scale))
                z = (mi[i] - mean) / math.sqrt(var)
                rows_out.append((rows, cols, side, z, log_exact, log_gamma))
    return rows_out


def _bin(log_p):
    p_floor = math.exp(log_p) if log_p > -700 else 0.0
    for floor in BINS:
        if p_floor >= floor or floor == 0.0:
            return floor
    return 0.0


def main() -> int:
    start = time.perf_counter()
    points = study()
    seconds = time.perf_counter() - start
    print("# p-value study: the gamma route against the exact null law (perm, MI)\n")
    print(
        f"{len(points)} (margins, value, side) points over {len(GRID)} sets of margins "
        f"(shapes 2 x 2 to 3 x 4, N = 20 to 10^4), both tails; largest |z| = "
        f"{max(abs(p[3]) for p in points):.1f}. Generated by `benchmarks/pvalue_study.py` "
        f"in {seconds:.0f} s."
    )
    for side in ("greater", "less"):
        _table([p for p in points if p[2] == side], side)
    return 0


def _table(points, side):
    print(f"\n## P(MI {'>=' if side == 'greater' else '<='} m) ({side!r})\n")
    print("| exact p in | points | worst factor (gamma vs exact) | median factor | largest z |")
    print("|---|---|---|---|---|")
    edges = (1.0, *BINS)
    for high, low in itertools.pairwise(edges):
        chosen = [p for p in points if _bin(p[4]) == low]
        if not chosen:
            continue
        factors = [math.exp(abs(p[5] - p[4])) for p in chosen]
        label = f"[{low:g}, {high:g}]" if low > 0 else f"(0, {high:g}]"
        print(
            f"| {label} | {len(chosen)} | {max(factors):.3g} | {np.median(factors):.3g} | "
            f"{max(abs(p[3]) for p in chosen):.1f} |"
        )
    worst = max(points, key=lambda p: abs(p[5] - p[4]))
    print(
        f"\nWorst point: rows {worst[0]}, columns {worst[1]}, z = {worst[3]:.1f}, "
        f"exact p = {math.exp(worst[4]):.3g}, gamma p = {math.exp(worst[5]):.3g}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
