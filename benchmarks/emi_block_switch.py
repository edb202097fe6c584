#!/usr/bin/env python
"""The crossover of the perm E[MI] size switch ``size_pairs._MID_MIN_CELLS`` (issue #38).

Run from the repository root with the checkout's ``src`` first on ``PYTHONPATH``::

    python benchmarks/emi_block_switch.py                      # the asv grid
    python benchmarks/emi_block_switch.py stair,5e4,100 ...    # named (shape, N, K) cases

For the two size laws of each asv input (``asv_bench/_inputs.py``: seeds 1 and 2, N = 10^2 ..
10^6, K = 2, 100, 10^4, every shape; cases of four or fewer size pairs left out), the time
of ``size_pairs.information_sum`` (the whole perm E[MI] kernel of one pair of laws) with the
2-D blocks forced three ways, in alternating rounds in one process (best of each): ``all``
(every block route: ``_MID_MIN_CELLS`` = 0), ``small`` (the pmf blocks off: every cell of
mean 1 .. 10 pair by pair, the factorial-moment blocks on: the route below the switch) and
``none`` (also ``size_pairs.SMALL_MEAN`` -1: no blocks at all, d8b6597's routes). Printed:
the cells of mean <= 1 (``small``) and of mean in (1, 10] (``mid``) the blocks would take, the
three times (ms), and the largest relative difference of the three sums.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent / "asv_bench"))
import _inputs

from chanceclust._expected import size_pairs as kernel

HUGE = 1 << 62
MODES = ("all", "small", "none")


def _law(sizes):
    values, counts = np.unique(sizes, return_counts=True)
    return values.astype(np.int64), counts.astype(np.float64)


def _best(f, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def _cells(a, b, n):
    union = np.unique(np.concatenate([a, b]))
    folded = len(union) * (len(union) + 1) // 2 < len(a) * len(b)
    rows, columns = (union, union) if folded else (a, b)
    below = np.arange(len(rows)) if folded else 0
    per_mean = n / rows.astype(np.float64)

    def count(mean):
        return int(np.maximum(np.searchsorted(columns, mean * per_mean, "right") - below, 0).sum())

    return count(1.0), count(10.0) - count(1.0)


def _run(mode, f):
    original = kernel.SMALL_MEAN
    kernel._MID_MIN_CELLS = 0 if mode == "all" else HUGE
    if mode == "none":  # no cell of mean <= 1 is a block cell either
        kernel.SMALL_MEAN = -1.0
    try:
        return f()
    finally:
        kernel.SMALL_MEAN = original


def main(cases):
    if not cases:
        cases = [
            (shape, n, k)
            for n in (10**2, 10**3, 10**4, 10**5, 10**6)
            for k in (2, 100, 10**4)
            for shape in _inputs.SHAPES
            if k < n and (shape != "stair" or k == 100)
        ]
    default = kernel._MID_MIN_CELLS
    for shape, n, k in cases:
        a, wa = _law(_inputs.sizes(shape, n, k, 1))
        b, wb = _law(_inputs.sizes(shape, n, k, 2))
        if len(a) * len(b) <= 4:
            continue
        small, mid = _cells(a, b, n)

        def one(a=a, wa=wa, b=b, wb=wb, n=n):
            return kernel.information_sum(a, wa, b, wb, n)

        repeats = 3 if n >= 10**6 else 7
        times, values = {}, {}
        for _ in range(3):
            for mode in MODES:
                values[mode] = _run(mode, one)
                took = _run(mode, lambda one=one, repeats=repeats: _best(one, repeats))
                times[mode] = min(times.get(mode, np.inf), took)
        kernel._MID_MIN_CELLS = default
        spread = max(abs(values[m] - values["all"]) for m in MODES) / abs(values["all"])
        print(
            f"{shape:9s} N={n:<8d} K={k:<6d} small={small:<7d} mid={mid:<7d} "
            + " ".join(f"{m}={times[m] * 1e3:.3f}ms" for m in MODES)
            + f" all/small={times['all'] / times['small']:.2f} rel={spread:.1e}",
            flush=True,
        )


if __name__ == "__main__":
    main([(s, int(float(n)), int(float(k))) for s, n, k in (a.split(",") for a in sys.argv[1:])])
