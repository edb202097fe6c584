#!/usr/bin/env python
"""`pairwise` against a loop of single calls over the same pairs (issue #23).

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/pairwise_loop.py [--rounds 3] [--m 50] [--n 100000]   # ~2 min on 2 cores

Input: M = 50 clusterings of N = 10^5 elements, clustering i drawn uniformly on K_i labels,
K_i log-spaced from 2 to 1000 (fixed seed, numpy only): the 1,275 pairs i <= j of the
issue's row. Per measure and round, one right after the other in this process (paired
rounds): ``pairwise`` = ``chanceclust.pairwise(clusterings, measure=...)`` (serial);
``loop`` = the single call (``adjusted_mutual_information``, ``adjusted_rand_index``) on each
of the same pairs; ``floor`` = one ``numpy.bincount`` of ``a * K_B + b`` per pair (one pass
over the labels, what every pair's table needs). CPU seconds by ``time.process_time``,
medians over the rounds; the values of ``pairwise`` are checked equal to the loop's, bit
for bit. The ``where`` column splits one more ``pairwise`` call by cProfile (cumulative
seconds under cProfile, so only the shares mean something).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import statistics
import time

import numpy as np

import chanceclust as cc

SINGLE = {
    "ami": cc.adjusted_mutual_information,
    "ari": cc.adjusted_rand_index,
}


def _clusterings(m: int, n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(2023)
    ks = np.round(np.logspace(np.log10(2), 3, m)).astype(np.int64)
    return [rng.integers(0, k, n) for k in ks]


def _loop(clusterings, measure, model):
    single = SINGLE[measure]
    m = len(clusterings)
    out = np.zeros((m, m))
    for i in range(m):
        for j in range(i, m):
            out[i, j] = single(clusterings[i], clusterings[j], model=model)
    return out


def _floor(clusterings):
    m = len(clusterings)
    for i in range(m):
        for j in range(i, m):
            k = int(clusterings[j].max()) + 1
            np.bincount(clusterings[i] * k + clusterings[j])


def _where(clusterings, measure, model) -> str:
    profile = cProfile.Profile()
    profile.enable()
    cc.pairwise(clusterings, measure=measure, model=model)
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(v[2] for v in stats.values())  # tottime over all functions

    def cum(name):
        return sum(v[3] for (path, _, func), v in stats.items() if func == name
                   and "chanceclust" in path)

    parts = {
        "E[MI]": cum("_expected_mutual_information"),
        "table": cum("table"),
        "MI": cum("_mutual_information"),
    }
    return ", ".join(f"{k} {v / total:.0%}" for k, v in parts.items() if v)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--m", type=int, default=50)
    parser.add_argument("--n", type=int, default=10**5)
    args = parser.parse_args()
    clusterings = _clusterings(args.m, args.n)
    iu = np.triu_indices(args.m)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, numpy {np.__version__}, chanceclust {cc.__version__}")
    print(f"M = {args.m} clusterings of N = {args.n}, K = 2..1000 log-spaced, "
          f"{len(iu[0])} pairs; CPU s, medians of {args.rounds} paired rounds\n")
    print("| measure | model | pairwise s | loop s | floor s | loop / pairwise | pairwise / floor "
          "| same values | where pairwise goes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for measure, model in (("ami", "perm"), ("ari", "perm"), ("ami", "num")):
        times: dict[str, list[float]] = {"pairwise": [], "loop": [], "floor": []}
        same = True
        for _ in range(args.rounds):
            t = time.process_time()
            values = cc.pairwise(clusterings, measure=measure, model=model).values
            times["pairwise"].append(time.process_time() - t)
            t = time.process_time()
            loop = _loop(clusterings, measure, model)
            times["loop"].append(time.process_time() - t)
            t = time.process_time()
            _floor(clusterings)
            times["floor"].append(time.process_time() - t)
            same &= bool(np.array_equal(values[iu], loop[iu]))
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"| {measure} | {model} | {med['pairwise']:.2f} | {med['loop']:.2f} | "
              f"{med['floor']:.2f} | {med['loop'] / med['pairwise']:.2f}x | "
              f"{med['pairwise'] / med['floor']:.1f}x | {'yes' if same else 'NO'} | "
              f"{_where(clusterings, measure, model)} |")


if __name__ == "__main__":
    main()
