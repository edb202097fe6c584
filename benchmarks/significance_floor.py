#!/usr/bin/env python
"""`significance_test` against its floor: one permutation and one bincount per sample (#23).

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/significance_floor.py [--rounds 3]     # ~2 min on 2 cores

Inputs: two clusterings of n elements, labels uniform on K values (fixed seed). Per case and
round, one right after the other in this process (paired rounds):
``ours`` = ``significance_test(measure, a, b, model="perm", n_resamples=R, rng=1)``;
``floor`` = R times (``Generator.permutation`` of the second labels + ``numpy.bincount`` of
``a * K + b``): drawing and counting the null tables, no measure. CPU seconds by
``time.process_time``, medians over the rounds; ``peak MiB`` = tracemalloc's peak of one
more call of ours (numpy's arrays are traced). The ``where`` column splits one more call of
ours by cProfile (shares only).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import statistics
import time
import tracemalloc

import numpy as np

import chanceclust as cc

CASES = [  # (n, K, R)
    (10**4, 10, 2000),
    (10**4, 100, 2000),
    (10**5, 10, 500),
    (10**5, 1000, 500),
]


def _ours(a, b, measure, r):
    return cc.significance_test(measure, a, b, model="perm", n_resamples=r, rng=1)


def _floor(a, b, k, r):
    gen = np.random.default_rng(1)
    for _ in range(r):
        np.bincount(a * k + gen.permutation(b), minlength=k * k)


def _where(a, b, measure, r) -> str:
    profile = cProfile.Profile()
    profile.enable()
    _ours(a, b, measure, r)
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(v[2] for v in stats.values())

    def cum(name):
        return sum(v[3] for (path, _, func), v in stats.items()
                   if func == name and "chanceclust" in path)

    parts = {"draws": cum("draw_fixed"), "tables": cum("_batch_tables"),
             "measure": cum("_mutual_information_parts") + cum("pair_counts")}
    return ", ".join(f"{k} {v / total:.0%}" for k, v in parts.items() if v)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, numpy {np.__version__}, chanceclust {cc.__version__}; "
          f"CPU s, medians of {args.rounds} paired rounds\n")
    print("| n | K | R | measure | ours s | floor s | ours / floor | peak MiB | where ours goes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, k, r in CASES:
        rng = np.random.default_rng(n + k)
        a, b = rng.integers(0, k, n), rng.integers(0, k, n)
        for measure in ("ami", "ari"):
            ours, floor = [], []
            for _ in range(args.rounds):
                t = time.process_time()
                _ours(a, b, measure, r)
                ours.append(time.process_time() - t)
                t = time.process_time()
                _floor(a, b, k, r)
                floor.append(time.process_time() - t)
            tracemalloc.start()
            _ours(a, b, measure, r)
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            o, f = statistics.median(ours), statistics.median(floor)
            print(f"| {n} | {k} | {r} | {measure} | {o:.3f} | {f:.3f} | {o / f:.2f}x | "
                  f"{peak:.0f} | {_where(a, b, measure, r)} |", flush=True)


if __name__ == "__main__":
    main()
