"""The switch between the two null routes of a named measure (issue #36), measured.

Usage, from the repository root::

    python benchmarks/significance_switch.py [--repeat 3]

``null_distribution("ami", ...)`` with each route forced (``significance._draws_tables``
patched to True or False) on inputs at and around the switch 6 K_A K_B (+ 2000 where a side's
sizes are drawn) = N, in one process: microseconds per sample, the best of ``--repeat``
calls of R samples. Inputs: ``a`` K equal clusters in random order, ``b`` = ``a`` with 30 % of
its labels redrawn (seed 0), as ``significance_floor.py``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import chanceclust as cc
from chanceclust import significance

CASES = [  # (model, one_sided, N, K): N at the switch, and half and twice it
    ("perm", False, 600, 10), ("perm", False, 300, 10), ("perm", False, 1200, 10),
    ("perm", False, 5400, 30), ("perm", False, 2700, 30), ("perm", False, 10800, 30),
    ("perm", False, 60000, 100), ("perm", False, 30000, 100),
    ("num", True, 2600, 10), ("num", True, 1300, 10), ("num", True, 5200, 10),
]


def per_sample(model: str, one_sided: bool, n: int, k: int, tables: bool, repeat: int) -> float:
    rng = np.random.default_rng(0)
    a = rng.permutation(np.arange(n) % k)
    b = np.where(rng.random(n) < 0.3, rng.integers(0, k, n), a)
    resamples = max(20, 200_000 // n)
    real = significance._draws_tables
    significance._draws_tables = (  # the route forced where it applies
        (lambda s: s.evaluate is not None and significance._table_widths(s) is not None)
        if tables else (lambda s: False))
    try:
        best = float("inf")
        for _ in range(repeat):
            t = time.process_time()
            cc.null_distribution("ami", a, b, model=model, one_sided=one_sided,
                                 n_resamples=resamples, rng=0)  # fmt: skip
            best = min(best, time.process_time() - t)
    finally:
        significance._draws_tables = real
    return best / resamples * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| model | N | table | switch N | codes us | tables us | codes / tables |")
    print("|---|---|---|---|---|---|---|")
    for model, one_sided, n, k in CASES:
        codes = per_sample(model, one_sided, n, k, False, args.repeat)
        drawn = per_sample(model, one_sided, n, k, True, args.repeat)
        switch = 6 * k * k + (2000 if model == "num" else 0)
        name = model + (", one-sided" if one_sided else "")
        print(f"| {name} | {n} | {k} x {k} | {switch} | {codes:.0f} | {drawn:.0f} | "
              f"{codes / drawn:.2f} |")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
