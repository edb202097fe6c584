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


def inmem_threads(args: argparse.Namespace, base: dict[str, float]):
    """The in-memory table by W threads against one single-threaded bincount (issue 23).

    Also times the reading of the two columns (pyarrow, its own threads), so that a Dask
    worker count can be set against "read + table" in one process. Returns the table of
    ``workers=1``; every W's table is checked equal to it.
    """
    import numpy as np
    import pyarrow.parquet as pq

    c0, t0 = cpu_seconds(False), time.perf_counter()
    table = pq.read_table(args.data, columns=["a", "b"])
    a, b = table.column("a").to_numpy(), table.column("b").to_numpy()
    del table
    record("scaling", {
        "bench": "scaling", "task": "read_inmem", "threads": os.cpu_count(),
        "wall_s": time.perf_counter() - t0, "cpu_s": cpu_seconds(False) - c0,
        "n": int(args.n), "k": int(args.k), "machine": machine(),
    })
    k = int(max(a.max(), b.max())) + 1
    runs = [("floor", 1)] + [("table_inmem", int(w)) for w in args.workers.split(",")]
    first = None
    for name, workers in runs:
        c0, t0 = cpu_seconds(False), time.perf_counter()
        same = None
        if name == "floor":
            keys = a.astype(np.int64) * k
            keys += b
            np.bincount(keys, minlength=k * k)
            del keys
        else:
            result = cc.contingency_table(a, b, sparse=True, workers=workers)
        wall, cpu = time.perf_counter() - t0, cpu_seconds(False) - c0
        if name != "floor":
            if first is None:
                first = result
            same = bool((first != result).nnz == 0 and first.shape == result.shape)
            del result
        base.setdefault(name, wall)
        record("scaling", {
            "bench": "scaling", "task": name, "threads": workers, "wall_s": wall, "cpu_s": cpu,
            "speedup_vs_first": base[name] / wall, "vs_floor": wall / base["floor"],
            "same_as_one_thread": same,
            "n": int(args.n), "k": int(args.k), "machine": machine(),
        })
    return first


def serial_pairwise(labels, base: dict[str, float], wanted: list[str]) -> dict[str, object]:
    """pairwise() in this process, no executor: the baseline of the worker counts."""
    out = {}
    for model in ("perm", "num"):
        name = f"pairwise_{model}"
        if name not in wanted:
            continue
        c0, t0 = cpu_seconds(False), time.perf_counter()
        out[name] = cc.pairwise(labels, model=model)
        wall = time.perf_counter() - t0
        base[name + "_serial"] = wall
        record("scaling", {
            "bench": "scaling", "task": name, "workers": 0, "wall_s": wall,
            "cpu_s": cpu_seconds(False) - c0, "pairwise_m": len(labels),
            "pairwise_n": len(labels[0]), "machine": machine(),
        })
    return out


def stream_summary(stream: list[dict], start: float) -> dict[str, object]:
    """Where a call's time went, from Dask's task stream: per task-name prefix the count and
    compute seconds, all transfer seconds, the first compute start and the last compute end
    (seconds after the call began), and each worker's busy (compute) seconds."""
    prefixes: dict[str, list[float]] = {}
    busy: dict[str, float] = {}
    transfer, starts, stops = 0.0, [], []
    for task in stream:
        key = task["key"][0] if isinstance(task["key"], tuple) else task["key"]
        prefix = str(key).rsplit("-", 1)[0]
        prefix = prefix if prefix.startswith("chanceclust") else prefix.split("-")[0]
        for part in task["startstops"]:
            seconds = part["stop"] - part["start"]
            if part["action"] == "compute":
                entry = prefixes.setdefault(prefix, [0, 0.0])
                entry[0] += 1
                entry[1] += seconds
                busy[task["worker"]] = busy.get(task["worker"], 0.0) + seconds
                starts.append(part["start"])
                stops.append(part["stop"])
            elif part["action"] == "transfer":
                transfer += seconds
    loads = sorted(busy.values())
    return {
        "compute_by_prefix": {k: [int(v[0]), round(v[1], 3)] for k, v in prefixes.items()},
        "transfer_s": round(transfer, 3),
        "first_start_s": round(min(starts) - start, 3) if starts else None,
        "last_stop_s": round(max(stops) - start, 3) if stops else None,
        "worker_busy_s": (
            [round(loads[0], 3), round(loads[len(loads) // 2], 3), round(loads[-1], 3)]
            if loads else None
        ),
    }


def digest(result: object) -> str:
    """A short hash of a table (its sparse matrix) or a matrix: equal results, equal digests
    (compares runs of different code on one machine)."""
    import hashlib

    import numpy as np

    sha = hashlib.sha256()
    if hasattr(result, "to_sparse"):
        sparse = result.to_sparse().tocsr()
        parts = [np.asarray(sparse.shape), sparse.indptr, sparse.indices, sparse.data]
    else:
        parts = [np.asarray(result)]
    for part in parts:
        sha.update(np.ascontiguousarray(part).tobytes())
    return sha.hexdigest()[:16]


def _warm() -> None:
    import pyarrow.parquet  # noqa: F401  (the readers: imported by the first task otherwise)

    import chanceclust.dask  # noqa: F401


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
    parser.add_argument("--tasks", default="table,summary,pairwise_perm,pairwise_num",
                        help="Dask tasks to time per worker count (comma-separated)")
    parser.add_argument("--no-inmem", action="store_true")
    parser.add_argument("--rounds", type=int, default=1,
                        help="timed calls of each task per worker count")
    parser.add_argument("--tasks-per-worker", default=None,
                        help="comma-separated overrides of the tasks aimed at per worker "
                             "(chanceclust.dask and pairwise), each timed; default: the "
                             "library's")
    parser.add_argument("--fan-in", default=None,
                        help="comma-separated overrides of chanceclust.dask's merge fan-ins "
                             "(tables only; cells and tallies alike), each timed; default: "
                             "the library's")
    parser.add_argument("--stream", action="store_true",
                        help="record where each call's time went (Dask's task stream)")
    args = parser.parse_args()
    import contextlib

    import numpy as np
    from distributed import Client, LocalCluster, get_task_stream

    from chanceclust import allpairs

    # Read on the driver, where the graphs are built: set before each timed call.
    per_worker = ([int(x) for x in args.tasks_per_worker.split(",")]
                  if args.tasks_per_worker else [None])  # fmt: skip
    fan_ins = [int(x) for x in args.fan_in.split(",")] if args.fan_in else [None]
    variants = [(t, f) for t in per_worker for f in fan_ins]
    make_data(args.data, int(args.n), int(args.k), files=args.files)
    labels = clusterings(args.pairwise_m, args.pairwise_n)
    base: dict[str, float] = {}
    reference: dict[str, object] = {}
    if not args.no_inmem:
        reference["table"] = inmem_threads(args, base)
    wanted = args.tasks.split(",")
    if any(name.startswith("pairwise") for name in wanted):
        reference.update(serial_pairwise(labels, base, wanted))
    for workers in (int(w) for w in args.workers.split(",")):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               memory_limit=args.worker_memory, dashboard_address=None)
        client = Client(cluster)
        pids = list(client.run(os.getpid).values())
        client.run(_warm)  # imports on every worker, outside the timed calls
        tasks = {
            "table": lambda: ccd.contingency_table(args.data, columns=("a", "b")),
            "summary": lambda: ccd.contingency_table(args.data, columns=("a", "b"), summary=True),
            "pairwise_perm": lambda client=client: cc.pairwise(
                labels, executor=client.get_executor()),
            "pairwise_num": lambda client=client: cc.pairwise(
                labels, model="num", executor=client.get_executor()),
        }
        runs = [(n, v, r) for n in wanted for v in variants for r in range(args.rounds)
                if n in ("table", "summary") or v[1] == fan_ins[0]]  # fan-in: tables only
        for name, (tasks_per_worker, fan_in), round_ in runs:
            if tasks_per_worker is not None:  # else each module's own default
                ccd._TASKS_PER_WORKER = allpairs._TASKS_PER_WORKER = tasks_per_worker
            if fan_in is not None:  # both trees of the tables: cells and dense tallies
                ccd._FAN_IN = ccd._TALLY_FAN_IN = fan_in
            task = tasks[name]
            tasks_in_graph = None
            if name in ("table", "summary"):
                tasks_in_graph = len(ccd.contingency_table(
                    args.data, columns=("a", "b"), summary=name == "summary",
                    compute=False).__dask_graph__())
            stream = get_task_stream(client) if args.stream else contextlib.nullcontext()
            with stream as recorded:
                w0, c0, t0 = process_cpu(pids), cpu_seconds(False), time.perf_counter()
                began = time.time()
                result = task()
                wall = time.perf_counter() - t0
            cpu = cpu_seconds(False) - c0 + process_cpu(pids) - w0
            same = None
            if name == "table" and reference.get("table") is not None:
                ref, got = reference["table"], result.to_sparse()  # a PartialTable
                same = bool(ref.shape == got.shape and (ref != got).nnz == 0)
            elif name in reference:
                same = bool(np.array_equal(np.asarray(reference[name]), np.asarray(result),
                                           equal_nan=True))
            base.setdefault(name, wall)
            record("scaling", {
                "bench": "scaling", "task": name, "workers": workers, "wall_s": wall,
                "cpu_s": cpu, "speedup_vs_first": base[name] / wall,
                "speedup_vs_serial": (base[name + "_serial"] / wall
                                      if name + "_serial" in base else None),
                "same_as_inprocess": same, "n": int(args.n), "graph_tasks": tasks_in_graph,
                "k": int(args.k), "pairwise_m": args.pairwise_m, "pairwise_n": args.pairwise_n,
                "worker_peak_rss_gib": [_vm_hwm(p) for p in pids], "round": round_,
                "tasks_per_worker": (allpairs if name.startswith("pairwise")
                                     else ccd)._TASKS_PER_WORKER,  # in effect
                "fan_in": fan_in,
                "digest": digest(result),
                "stream": stream_summary(recorded.data, began) if args.stream else None,
                "machine": machine(),
            })
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
