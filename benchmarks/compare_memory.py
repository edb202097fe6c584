"""Time and peak memory of ``compare()`` on the table of issue #35 at large N.

Run from the repository root::

    PYTHONPATH=src python benchmarks/compare_memory.py [--n 3000000 10000000 50000000]

The table is ``[[N - 40, 3, 2], [5, 10, 0], [0, 7, 13]]``: one cluster of almost every
element beside small ones. Before issue #35, ``mutual_information_variance(model="num",
one_sided=True)`` of it evaluated its short rows over the long row's whole window (a dense
array of ~width^2 floats: 3.7 GiB at N = 3 10^6, MemoryError at 5 10^7), and ``compare()``
with it, since it prints the SMI rows.

Each N runs in a fresh interpreter (the two-sided variances are cached by (N, K)), which
reports, cold: the wall and CPU seconds of that Var[MI] call and of ``compare(contingency=t)``
after it, the peak resident memory of the process (``resource.getrusage``, ru_maxrss) and the
peak of Python-traced allocations (``tracemalloc``, numpy arrays included), and the Var[MI] value.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = r"""
import json, resource, sys, time, tracemalloc
import chanceclust as cc

n = int(sys.argv[1])
table = [[n - 40, 3, 2], [5, 10, 0], [0, 7, 13]]
tracemalloc.start()
wall, cpu = time.perf_counter(), time.process_time()
variance = cc.mutual_information_variance(contingency=table, model="num", one_sided=True)
var_wall, var_cpu = time.perf_counter() - wall, time.process_time() - cpu
wall, cpu = time.perf_counter(), time.process_time()
result = cc.compare(contingency=table, standardized=True)
compare_wall, compare_cpu = time.perf_counter() - wall, time.process_time() - cpu
smi = [row for row in result.to_records() if "SMI" in str(row.get("measure", ""))]
print(json.dumps({
    "n": n, "variance": variance,
    "var_wall": var_wall, "var_cpu": var_cpu,
    "compare_wall": compare_wall, "compare_cpu": compare_cpu,
    "traced_peak_mib": tracemalloc.get_traced_memory()[1] / 2**20,
    "rss_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "smi_rows": len(smi),
    "smi_nan": sum(1 for row in smi if row.get("value") != row.get("value")),
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[3_000_000, 10_000_000, 50_000_000])
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    print("| N | Var[MI] (num, one-sided) | its wall s | its CPU s | compare() wall s "
          "| compare() CPU s | peak RSS MiB | peak traced MiB | SMI rows (NaN) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in args.n:
        run = subprocess.run([sys.executable, "-c", _CHILD, str(n)], capture_output=True,
                             text=True, timeout=args.timeout, check=False)
        if run.returncode:
            last = (run.stderr.strip().splitlines() or ["?"])[-1]
            print(f"| {n:.0e} | failed: {last} | | | | | | | |")
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        print(f"| {n:.0e} | {r['variance']:.6e} | {r['var_wall']:.2f} | {r['var_cpu']:.2f} "
              f"| {r['compare_wall']:.2f} | {r['compare_cpu']:.2f} | {r['rss_peak_mib']:.0f} "
              f"| {r['traced_peak_mib']:.0f} | {r['smi_rows']} ({r['smi_nan']}) |")


if __name__ == "__main__":
    main()
