"""One comparison of N elements stored as Parquet: chanceclust.dask vs in memory vs dask.dataframe.

    python benchmarks/scaling/bench_parquet.py --data labels --n 1e8 --k 1e3   # the issue's
    python benchmarks/scaling/bench_parquet.py --data labels --n 2e7 --k 1e3   # what ran here
    python benchmarks/scaling/bench_parquet.py --inmem --n 4e7 --k 1e3 --table-workers 1,2

``--inmem`` (issue 23's in-memory row, no Parquet): int64 labels of N elements made in memory
(as make_data's), each measurement in a fresh child process, its peak RSS restarted once the
labels are made (Linux /proc/self/clear_refs; VmHWM after the call, the labels' bytes apart):
``floor`` (one single-threaded ``np.bincount(a * K + b)``, the issue's floor),
``validate`` (the table's first step alone: validate_clusterings, the labels' encoding, by
each of --table-workers threads), ``table`` with each of --table-workers (``chanceclust.contingency_table(a, b, sparse=True,
workers=W)``); paired rounds (--rounds, the methods in turn in each round), CPU seconds of the child
(RUSAGE_SELF around the call), wall, peak RSS. Rows in results/inmem_table.jsonl.
``--baseline SRC``: also ``validate`` (one thread) and ``table`` importing chanceclust from
SRC (an older commit's src, e.g. by ``git archive``), in the same rounds (field ``code``).

Data (made once per --data folder): N rows, int32 columns ``a`` (uniform over K labels) and
``b`` (a random map of ``a`` into K labels with probability 0.7, else uniform), --files files
(8) of --groups row groups (5); ``graph_tasks``: the tasks of chanceclust.dask's graph.
Methods, each with a fresh LocalCluster of --workers single-threaded worker processes
(memory limit --worker-memory, Dask's default worker environment):
``inmem`` (pyarrow reads both columns, chanceclust.contingency_table; the reference values),
``ccdask`` (chanceclust.dask.contingency_table -> PartialTable), ``ccdask_summary``
(summary=True -> TableSummary), ``ddf`` (dask.dataframe read_parquet(split_row_groups=True)
.groupby([a, b]).size(), then PartialTable.from_cells). Reported: wall and CPU seconds (driver
and workers) of the table and of three measures from it (ARI perm, AMI perm, AMI num), peak RSS
of the driver and of each worker (getrusage maxrss), and whether the values equal the
in-memory ones bit for bit.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import cpu_seconds, machine, process_cpu, record

import chanceclust as cc


def make_data(folder: str, n: int, k: int, files: int = 8, groups: int = 5) -> None:
    """N rows in `files` Parquet files of `groups` row groups (once per folder)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if os.path.exists(os.path.join(folder, "_DONE")):
        return
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(0)
    mapping = rng.integers(0, k, k).astype(np.int32)
    per_file = n // files
    for f in range(files):
        a = rng.integers(0, k, per_file).astype(np.int32)
        b = np.where(rng.random(per_file) < 0.7, mapping[a], rng.integers(0, k, per_file))
        table = pa.table({"a": a, "b": b.astype(np.int32)})
        pq.write_table(table, os.path.join(folder, f"part-{f}.parquet"),
                       row_group_size=per_file // groups)
    open(os.path.join(folder, "_DONE"), "w").close()


def _vm_hwm(pid: int) -> float | None:
    """Peak resident memory (GiB) of a running process, from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 2**20
    except OSError:
        return None
    return None


def make_labels(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """int64 labels as make_data's columns: a uniform over K, b a noisy map of a."""
    rng = np.random.default_rng(0)
    mapping = rng.integers(0, k, k)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.7, mapping[a], rng.integers(0, k, n))
    return a, b


def inmem_child(method: str, n: int, k: int, workers: int, offset: int = 0) -> None:
    """One in-memory measurement in this (fresh) process; prints one JSON line."""
    import json

    if method != "floor":
        cc.contingency_table([0, 1], [1, 0], sparse=True)  # imports (scipy.sparse) not counted
    a, b = make_labels(n, k)
    if offset:  # e.g. 1-based labels: the encoding shifts them
        a += offset
        b += offset
    with open("/proc/self/clear_refs", "w") as refs:  # Linux: the peak RSS restarts from here
        refs.write("5")
    before = _vm_hwm(os.getpid())
    c0, t0 = cpu_seconds(False), time.perf_counter()
    if method == "floor":
        keys = a * k
        keys += b
        if offset:  # the floor of 1-based labels: one more pass
            keys -= offset * (k + 1)
        result = np.bincount(keys, minlength=k * k)
        del keys
        cells = int(np.count_nonzero(result))
    elif method == "validate":  # the table's first step alone: the labels' encoding
        from chanceclust._validation import validate_clusterings

        result = validate_clusterings(a, b, **({"workers": workers} if workers > 1 else {}))
        cells = -1
    else:
        result = cc.contingency_table(a, b, sparse=True, workers=workers)
        cells = int(result.nnz)
    wall, cpu = time.perf_counter() - t0, cpu_seconds(False) - c0
    peak = _vm_hwm(os.getpid())
    print(json.dumps({"method": method, "workers": workers, "wall_s": wall, "cpu_s": cpu,
                      "cells": cells, "peak_rss_gib": peak, "rss_before_gib": before,
                      "peak_over_before_gib": peak - before,
                      "labels_gib": (a.nbytes + b.nbytes) / 2**30}))


def inmem_rounds(args: argparse.Namespace) -> None:
    """Paired rounds of the floor and the table per worker count, each in a child process."""
    import json
    import subprocess

    n, k = int(args.n), int(args.k)
    counts = [int(w) for w in args.table_workers.split(",")]
    runs = [("floor", 1, None)]
    runs += [("validate", w, None) for w in counts] + [("table", w, None) for w in counts]
    if args.baseline:  # the same children importing chanceclust from an older src folder
        runs += [("validate", 1, args.baseline)] + [("table", w, args.baseline) for w in counts]
    for round_ in range(args.rounds):
        for method, workers, src in runs:
            env = None if src is None else {**os.environ, "PYTHONPATH": os.path.abspath(src)}
            out = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--inmem-child", method, "--n",
                 str(n), "--k", str(k), "--table-workers", str(workers), "--offset",
                 str(args.offset)],
                capture_output=True, text=True, check=True, env=env,
            ).stdout
            row = {"bench": "inmem_table", "round": round_, "n": n, "k": k, "offset": args.offset,
                   "label": args.label, "code": "base" if src else "this",
                   **json.loads(out.strip().splitlines()[-1]), "machine": machine()}
            record("inmem_table", row)


def three(contingency):
    return [
        cc.adjusted_rand_index(contingency=contingency),
        cc.adjusted_mutual_information(contingency=contingency),
        cc.adjusted_mutual_information(contingency=contingency, model="num"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data")
    parser.add_argument("--n", type=float, default=2e7)
    parser.add_argument("--k", type=float, default=1e3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-memory", default="3GiB")
    parser.add_argument("--methods", default="inmem,ccdask,ccdask_summary,ddf")
    parser.add_argument("--label", default="", help="recorded as is (e.g. which code ran)")
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--groups", type=int, default=5, help="row groups per file")
    parser.add_argument("--inmem", action="store_true", help="the in-memory table rows only")
    parser.add_argument("--inmem-child", help=argparse.SUPPRESS)
    parser.add_argument("--table-workers", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--offset", type=int, default=0, help="--inmem labels + this (1-based)")
    parser.add_argument("--baseline", metavar="SRC",
                        help="--inmem: also run validate/table importing chanceclust from SRC")
    args = parser.parse_args()
    if args.inmem_child:
        inmem_child(args.inmem_child, int(args.n), int(args.k), int(args.table_workers),
                    args.offset)
        return
    if args.inmem:
        inmem_rounds(args)
        return
    if not args.data:
        parser.error("--data is required (except with --inmem)")
    n, k = int(args.n), int(args.k)
    t0 = time.perf_counter()
    make_data(args.data, n, k, files=args.files, groups=args.groups)
    print(f"data ready in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    reference = None
    for method in args.methods.split(","):
        row = {"bench": "parquet", "method": method, "n": n, "k": k, "workers": args.workers,
               "files": args.files, "groups_per_file": args.groups, "label": args.label,
               "machine": machine()}
        client = cluster = None
        pids: list[int] = []
        if method != "inmem":
            from distributed import Client, LocalCluster

            cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                   processes=True, memory_limit=args.worker_memory,
                                   dashboard_address=None)
            client = Client(cluster)
            pids = list(client.run(os.getpid).values())
        w0, c0, t0 = process_cpu(pids), cpu_seconds(False), time.perf_counter()
        if method == "inmem":
            import pyarrow.parquet as pq

            table = pq.read_table(args.data, columns=["a", "b"])
            a, b = table.column("a").to_numpy(), table.column("b").to_numpy()
            del table
            result = cc.contingency_table(a, b, sparse=True)
        elif method in ("ccdask", "ccdask_summary"):
            from chanceclust import dask as ccd

            result = ccd.contingency_table(args.data, columns=("a", "b"),
                                           summary=method == "ccdask_summary")
            row["graph_tasks"] = len(ccd.contingency_table(  # the graph, not timed
                args.data, columns=("a", "b"), summary=method == "ccdask_summary",
                compute=False).__dask_graph__())
        else:
            import dask.dataframe as dd

            frame = dd.read_parquet(args.data, columns=["a", "b"], split_row_groups=True)
            cells = frame.groupby(["a", "b"]).size().compute().reset_index()
            result = cc.PartialTable.from_cells(cells["a"].to_numpy(), cells["b"].to_numpy(),
                                                cells[0].to_numpy())
        row["table_wall_s"] = time.perf_counter() - t0
        row["table_cpu_s"] = cpu_seconds(False) - c0 + process_cpu(pids) - w0
        t0 = time.perf_counter()
        values = three(result) if method != "inmem" else [
            cc.adjusted_rand_index(a, b), cc.adjusted_mutual_information(a, b),
            cc.adjusted_mutual_information(a, b, model="num")]
        row["measures_wall_s"] = time.perf_counter() - t0
        if method == "inmem":
            reference = values
            del a, b
        elif reference is not None:
            row["identical"] = [x == y for x, y in zip(values, reference, strict=True)]
            row["abs_diff"] = [abs(x - y) for x, y in zip(values, reference, strict=True)]
        row["driver_peak_rss_gib"] = _vm_hwm(os.getpid())
        if client is not None:
            # VmHWM of each worker (getrusage's maxrss survives exec: it would report the
            # driver's peak at spawn time)
            row["worker_peak_rss_gib"] = [_vm_hwm(pid) for pid in pids]
            client.close()
            cluster.close()
        record("parquet", row)


if __name__ == "__main__":
    main()
