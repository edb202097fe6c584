"""Time of significance_test(..., method="exact") under perm (issue #34, session 14).

One call per row (both tails are summed by every call), wall and CPU seconds: the 2 x 2
tables of the README (N = 1000) and at N = 10^4, Zachary's karate club (Louvain against the
club split), 3 x 4 tables at N = 200 (balanced margins, and the column sizes (2, 66, 66, 66)
of the largest planned work), three clusters of 200 compared with themselves (beyond the
budget: the pruned sum) and the refusal of a 6 x 6 table at N = 300.

Run: PYTHONPATH=src python benchmarks/exact_timing.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import chanceclust as cc
from chanceclust import _exact_null as engine
from chanceclust.io import read_clustering, union


def _labels(table):
    table = np.asarray(table)
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


def _karate():
    """The club split and the Louvain communities of examples/karate, matched by member."""
    root = Path(__file__).resolve().parents[1] / "examples" / "karate"
    pair = union(read_clustering(str(root / "factions.txt")),
                 read_clustering(str(root / "louvain.txt")))  # fmt: skip
    return pair.labels_a, pair.labels_b


CASES = [
    ("2 x 2, N = 1000 (README)", "sri", _labels([[300, 200], [200, 300]])),
    ("2 x 2, N = 10^4", "sri", _labels([[4000, 1000], [3000, 2000]])),
    ("2 x 4, N = 34 (karate, Louvain)", "mi", _karate()),
    (
        "3 x 4, N = 200, balanced, RI",
        "ri",
        _labels([[35, 12, 10, 10], [8, 30, 17, 12], [7, 8, 23, 28]]),
    ),
    (
        "3 x 4, N = 200, balanced, MI",
        "mi",
        _labels([[35, 12, 10, 10], [8, 30, 17, 12], [7, 8, 23, 28]]),
    ),
    (
        "3 x 4, N = 200, columns (2, 66, 66, 66), MI",
        "mi",
        _labels([[1, 22, 22, 22], [1, 22, 22, 22], [0, 22, 22, 22]]),
    ),
    ("3 x 3, N = 600, identical (pruned)", "mi", _labels(np.diag([200, 200, 200]))),
    (
        "6 x 6, N = 300 (refused)",
        "mi",
        (np.repeat(np.arange(6), 50), np.roll(np.repeat(np.arange(6), 50), 7)),
    ),
]


def main() -> int:
    print("| case | plan's work | p-value (greater) | wall s | CPU s |")
    print("|---|---|---|---|---|")
    for name, measure, (a, b) in CASES:
        table = cc.contingency_table(a, b)
        kind = engine.PAIRS if measure in ("ri", "sri") else engine.ENTROPY
        work = engine.plan(table.sum(1), table.sum(0), engine.statistic(kind, int(table.sum())))
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            p = f"{cc.significance_test(measure, a, b, model='perm', method='exact').pvalue:.4g}"
        except cc.InvalidInputError:
            p = "refused"
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"| {name} | {work.work:.3g} | {p} | {wall:.2f} | {cpu:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
