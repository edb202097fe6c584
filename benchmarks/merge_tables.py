"""merge_tables of many partial tables: a left fold, a right fold, one call, and pandas (#20).

    python benchmarks/merge_tables.py [--parts 2000] [--n 2000000] [--src PATH]

Each (case, way) runs in a fresh subprocess: the partial tables (and, for pandas, each
table's cells as a DataFrame) are built first; then the process's CPU time and the peak of
traced allocations (tracemalloc: numpy and pandas report theirs) are measured over the
merge alone, the merged table read to the end (``.nnz``), and the peak resident memory of
the process (ru_maxrss) is shown as well. Inputs: N labels from a fixed seed split into
``--parts`` chunks of equal size. ``--src`` runs the library from another source tree (e.g.
an older checkout) for a before/after comparison. Prints one Markdown table.
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import subprocess
import sys
import time
import tracemalloc

CASES = {  # name: (K_true, K_pred) of uniform random labels, pred correlated with true
    "many-cells": (500_000, 125_000),  # cells mostly distinct across chunks
    "few-cells": (1_000, 1_000),  # every chunk holds a sample of the same ~10^6 cells
}
WAYS = ("left fold", "right fold", "one call", "pandas groupby-sum")


def _labels(case: str, n: int):
    import numpy as np

    k_true, k_pred = CASES[case]
    rng = np.random.default_rng(20)
    a = rng.integers(0, k_true, n)
    b = np.where(rng.random(n) < 0.5, a * k_pred // k_true, rng.integers(0, k_pred, n))
    return a, b


def _worker(case: str, way: str, n: int, parts: int) -> dict:
    import numpy as np

    import chanceclust as cc

    a, b = _labels(case, n)
    edges = np.linspace(0, n, parts + 1).astype(int)
    tables = [cc.partial_table(a[lo:hi], b[lo:hi]) for lo, hi in itertools.pairwise(edges)]
    frames = None
    if way.startswith("pandas"):
        import pandas as pd

        frames = [
            pd.DataFrame({"t": t.labels_true[t.rows], "p": t.labels_pred[t.cols], "c": t.counts})
            for t in tables
        ]
    tracemalloc.start()
    tracemalloc.reset_peak()
    cpu = time.process_time()
    wall = time.perf_counter()
    if way == "left fold":
        merged = tables[0]
        for table in tables[1:]:
            merged = cc.merge_tables([merged, table])
        cells, n_total = merged.nnz, merged.n
    elif way == "right fold":
        merged = tables[-1]
        for table in tables[-2::-1]:
            merged = cc.merge_tables([table, merged])
        cells, n_total = merged.nnz, merged.n
    elif way == "one call":
        merged = cc.merge_tables(tables)
        cells, n_total = merged.nnz, merged.n
    else:
        import pandas as pd

        grouped = pd.concat(frames, ignore_index=True).groupby(["t", "p"], sort=True)["c"].sum()
        cells, n_total = len(grouped), int(grouped.sum())
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"cpu_s": cpu, "wall_s": wall, "peak_mb": peak / 2**20, "cells": int(cells),
            "n": int(n_total), "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", type=int, default=2000)
    parser.add_argument("--n", type=int, default=2_000_000)
    parser.add_argument("--src", default=None, help="source tree to import chanceclust from")
    parser.add_argument("--ways", default=",".join(WAYS))
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, args.src)
    if args.worker:
        print(json.dumps(_worker(args.worker[0], args.worker[1], args.n, args.parts)))
        return
    print(f"merge_tables of {args.parts} partial tables of N = {args.n:,} labels "
          f"({args.n // args.parts} per table)\n")  # fmt: skip
    print("| case | way | cells | CPU s | wall s | peak traced MB | max RSS MB |")
    print("|---|---|---|---|---|---|---|")
    for case in CASES:
        for way in args.ways.split(","):
            command = [sys.executable, __file__, "--worker", case, way, "--n", str(args.n),
                       "--parts", str(args.parts)] + (["--src", args.src] if args.src else [])  # fmt: skip
            out = subprocess.run(command, capture_output=True, text=True, check=False)
            if out.returncode:
                print(f"| {case} | {way} | failed: {out.stderr.strip().splitlines()[-1]} |||||")
                continue
            r = json.loads(out.stdout)
            print(f"| {case} | {way} | {r['cells']:,} | {r['cpu_s']:.2f} | {r['wall_s']:.2f} | "
                  f"{r['peak_mb']:.0f} | {r['maxrss_mb']:.0f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
