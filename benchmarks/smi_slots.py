#!/usr/bin/env python
"""Exact Var[MI] with random sides (num, all) across N: the slot routes (issue #22).

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/smi_slots.py [--output benchmarks/SMI_SLOTS.md]   # ~1 min on 2 cores

For N from 31 (the first N on the slot sums) to 10^6 and tables of K_A x K_B = 2 x 2,
10 x 10, 100 x 100 (labels uniform on K values, fixed seed; K <= N / 10), the CPU seconds
(``time.process_time``) of one ``mutual_information_variance`` call per model and side in
this process. Two random sides depend on (N, K_A, K_B) only and are cached per process:
the cache is cleared before each call, so every row is a computation.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

import chanceclust as cc
from chanceclust.variance import _two_sided_mi_variance

SIZES = (31, 100, 1000, 5000, 9999, 10**4, 10**5, 10**6)
SHAPES = ((2, 2), (10, 10), (100, 100))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--output", default=str(Path(__file__).with_name("SMI_SLOTS.md")))
    args = parser.parse_args()
    rows = []
    for model in ("num", "all"):
        for one_sided in (False, True):
            for n in SIZES:
                for ka, kb in SHAPES:
                    if ka > n // 10:
                        continue
                    rng = np.random.default_rng(n + ka)
                    a, b = rng.integers(0, ka, n), rng.integers(0, kb, n)
                    _two_sided_mi_variance.cache_clear()
                    t = time.process_time()
                    value = cc.mutual_information_variance(a, b, model=model, one_sided=one_sided)
                    seconds = time.process_time() - t
                    side = "one-sided" if one_sided else "two-sided"
                    rows.append(f"| {model} | {side} | {n} | {ka}x{kb} | {value:.6e} | {seconds:.3f} |")
                    print(rows[-1], flush=True)
    text = [
        "# Exact Var[MI] with random sides: the slot routes (benchmarks/smi_slots.py)",
        "",
        (
            f"Machine: {platform.machine()}, Python {platform.python_version()}, numpy "
            f"{np.__version__}; CPU seconds of one call (time.process_time), the two-sided "
            f"cache cleared before each. Date: {time.strftime('%Y-%m-%d')}."
        ),
        "",
        "| model | side | N | K | Var[MI] | CPU s |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    Path(args.output).write_text("\n".join(text))


if __name__ == "__main__":
    main()
