"""What 1..16 processes can gain on this machine at all (the ceiling of the scaling rows).

    python benchmarks/scaling/ceiling.py

Runs W = 1, 2, 4, 8, 16 processes at once, each doing the same fixed work, and prints the
aggregate throughput against one process: ``compute`` is a pure-Python loop (cores and
hyperthreads: 16 vCPUs that are 8 cores x 2 threads give ~8-10x, not 16x), ``memory`` a
numpy bincount of 2x10^7 int64 keys over 10^6 bins (memory bandwidth). A speed-up measured
by the scaling benchmarks is to be read against these.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time


def _compute(_: int) -> float:
    t = time.perf_counter()
    s = 0
    for i in range(6_000_000):
        s += i * i % 7
    return time.perf_counter() - t


def _memory(_: int) -> float:
    import numpy as np

    keys = np.random.default_rng(0).integers(0, 10**6, 2 * 10**7)
    t = time.perf_counter()
    for _ in range(3):
        np.bincount(keys, minlength=10**6)
    return time.perf_counter() - t


def main() -> None:
    print("cpus", os.cpu_count())
    for name, work in (("compute", _compute), ("memory", _memory)):
        base = None
        for w in (1, 2, 4, 8, 16):
            with mp.get_context("fork").Pool(w) as pool:
                times = pool.map(work, range(w))
            per = sum(times) / len(times)
            base = base or per
            print(f"{name} W={w}: mean {per:.3f} s per process, throughput {w * base / per:.1f}x")


if __name__ == "__main__":
    main()
