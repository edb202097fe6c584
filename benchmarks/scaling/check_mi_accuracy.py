"""MI of a large table two ways against a 40-digit reference (issue 12; needs mpmath).

    python benchmarks/scaling/check_mi_accuracy.py --n 2e7 --k 1e6

The data of bench_summary.py. MI from the exact table (deviance form, a float sum over every
cell) and from the TableSummary (entropy form, terms in extended precision, compensated sum),
each against MI = H(A) + H(B) - H(A, B) evaluated with mpmath from the same histograms.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

import mpmath
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine, record

import chanceclust as cc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=2e7)
    parser.add_argument("--k", type=float, default=1e6)
    args = parser.parse_args()
    n, k = int(args.n), int(args.k)
    rng = np.random.default_rng(0)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.7, rng.integers(0, k, k)[a], rng.integers(0, k, n))
    table = cc.partial_table(a, b)
    del a, b
    summary = table.summary()
    mpmath.mp.dps = 40
    total = mpmath.mpf(summary.n)

    def entropy(hist):
        return sum(
            mpmath.mpf(int(c)) * int(v) * mpmath.log(total / int(v))
            for v, c in zip(hist.values, hist.counts, strict=True)
        ) / total

    exact = entropy(summary.sizes_true) + entropy(summary.sizes_pred) - entropy(summary.cells)
    from_table = cc.mutual_information(contingency=table)
    from_summary = cc.mutual_information(contingency=summary)
    record("mi_accuracy", {
        "bench": "mi_accuracy", "n": n, "k": k, "nnz": table.nnz, "mi": from_table,
        "ulp": math.ulp(from_table),
        "error_table_deviance": float(mpmath.mpf(from_table) - exact),
        "error_summary_entropy": float(mpmath.mpf(from_summary) - exact),
        "ami_table": cc.adjusted_mutual_information(contingency=table),
        "ami_summary": cc.adjusted_mutual_information(contingency=summary),
        "machine": machine(),
    })


if __name__ == "__main__":
    main()
