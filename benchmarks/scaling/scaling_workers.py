"""Strong scaling with 1, 2, 4, 8, 16 Dask workers (issue 12). Written for a machine with
at least 16 cores; NOT run on the 2-core machine of RESULTS.md.

    python benchmarks/scaling/scaling_workers.py --data /scratch/labels --n 1e9 --k 1e3 \\
        --workers 1,2,4,8,16 --pairwise-m 1000 --pairwise-n 100000

For each worker count W (a fresh LocalCluster of W single-threaded worker processes, Dask's
default worker environment, --worker-memory each): the exact table and the summary of the
Parquet dataset (made once by bench_parquet.make_data: 8 files x 5 row groups; use more files
for N = 1e9, --files) with chanceclust.dask, and the all-pairs AMI matrix (perm, and num) of
--pairwise-m clusterings of --pairwise-n elements through client.get_executor(). Records wall
and CPU seconds (driver and workers), per-worker peak RSS, and T(1)/T(W) in
results/scaling.jsonl; report.py tabulates them. Expected cost at N = 1e9, M = 1000: ~1.5 h.
Also (issue 23), before the clusters: the dataset's two columns read into memory once, one
single-threaded ``np.bincount(a * K + b)`` (the floor) and ``chanceclust.contingency_table(a,
b, sparse=True, workers=W)`` for each W (threads, no Dask), wall and CPU seconds, task
"table_inmem" (--no-inmem skips them); the Dask rows record the graph's task count.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_pairwise import clusterings
from bench_parquet import _vm_hwm, make_data
from common import cpu_seconds, machine, process_cpu, record

import chanceclust as cc
from chanceclust import dask as ccd


def inmem_threads(args: argparse.Namespace, base: dict[str, float]) -> None:
    """The in-memory table by W threads against one single-threaded bincount (issue 23)."""
    import numpy as np
    import pyarrow.parquet as pq

    table = pq.read_table(args.data, columns=["a", "b"])
    a, b = table.column("a").to_numpy(), table.column("b").to_numpy()
    del table
    k = int(max(a.max(), b.max())) + 1
    runs = [("floor", 1)] + [("table_inmem", int(w)) for w in args.workers.split(",")]
    for name, workers in runs:
        c0, t0 = cpu_seconds(False), time.perf_counter()
        if name == "floor":
            keys = a.astype(np.int64) * k
            keys += b
            np.bincount(keys, minlength=k * k)
            del keys
        else:
            cc.contingency_table(a, b, sparse=True, workers=workers)
        wall, cpu = time.perf_counter() - t0, cpu_seconds(False) - c0
        base.setdefault(name, wall)
        record("scaling", {
            "bench": "scaling", "task": name, "threads": workers, "wall_s": wall, "cpu_s": cpu,
            "speedup_vs_first": base[name] / wall, "vs_floor": wall / base["floor"],
            "n": int(args.n), "k": int(args.k), "machine": machine(),
        })


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--n", type=float, default=1e9)
    parser.add_argument("--k", type=float, default=1e3)
    parser.add_argument("--files", type=int, default=64)
    parser.add_argument("--workers", default="1,2,4,8,16")
    parser.add_argument("--worker-memory", default="6GiB")
    parser.add_argument("--pairwise-m", type=int, default=1000)
    parser.add_argument("--pairwise-n", type=int, default=100_000)
    parser.add_argument("--no-inmem", action="store_true")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    make_data(args.data, int(args.n), int(args.k), files=args.files)
    labels = clusterings(args.pairwise_m, args.pairwise_n)
    base: dict[str, float] = {}
    if not args.no_inmem:
        inmem_threads(args, base)
    for workers in (int(w) for w in args.workers.split(",")):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               memory_limit=args.worker_memory, dashboard_address=None)
        client = Client(cluster)
        pids = list(client.run(os.getpid).values())
        tasks = {
            "table": lambda: ccd.contingency_table(args.data, columns=("a", "b")),
            "summary": lambda: ccd.contingency_table(args.data, columns=("a", "b"), summary=True),
            "pairwise_perm": lambda client=client: cc.pairwise(
                labels, executor=client.get_executor()),
            "pairwise_num": lambda client=client: cc.pairwise(
                labels, model="num", executor=client.get_executor()),
        }
        for name, task in tasks.items():
            tasks_in_graph = None
            if name in ("table", "summary"):
                tasks_in_graph = len(ccd.contingency_table(
                    args.data, columns=("a", "b"), summary=name == "summary",
                    compute=False).__dask_graph__())
            w0, c0, t0 = process_cpu(pids), cpu_seconds(False), time.perf_counter()
            task()
            wall = time.perf_counter() - t0
            cpu = cpu_seconds(False) - c0 + process_cpu(pids) - w0
            base.setdefault(name, wall)
            record("scaling", {
                "bench": "scaling", "task": name, "workers": workers, "wall_s": wall,
                "cpu_s": cpu, "speedup_vs_first": base[name] / wall, "n": int(args.n),
                "graph_tasks": tasks_in_graph,
                "k": int(args.k), "pairwise_m": args.pairwise_m, "pairwise_n": args.pairwise_n,
                "worker_peak_rss_gib": [_vm_hwm(p) for p in pids], "machine": machine(),
            })
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
