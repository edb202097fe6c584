"""All-pairs AMI of M clusterings of N elements: serial, process pool, Dask, loops (issue 12).

One method per process (fresh caches), e.g.:

    python benchmarks/scaling/bench_pairwise.py --method serial --model perm --m 100 --n 100000

Methods: ``serial`` (chanceclust.pairwise, executor=None), ``pool`` (ProcessPoolExecutor with
--workers), ``dask`` (LocalCluster of --workers single-threaded worker processes, Dask's default
worker environment, i.e. with MALLOC_TRIM_THRESHOLD_ set by the nanny; cluster start timed
apart), ``loop`` (single chanceclust calls on --subset pairs, extrapolated to all pairs),
``sklearn`` (adjusted_mutual_info_score on --subset pairs, perm only, extrapolated).
Clusterings as in the design study: a latent 4096-cluster partition merged by a random map
into K_i clusters (K_i log-uniform in [2, 2000]), then 5-50 % of the elements relabelled at
random. Every parallel matrix is compared with the serial one (saved as .npy) bit for bit.
Wall seconds and CPU seconds of every process involved go to results/pairwise.jsonl.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import RESULTS, cpu_seconds, machine, process_cpu, record

import chanceclust as cc


def clusterings(m: int, n: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    latent = rng.integers(0, 4096, n)
    out = []
    for _ in range(m):
        k = int(np.exp(rng.uniform(np.log(2), np.log(2000))))
        labels = rng.integers(0, k, 4096)[latent]
        flip = rng.random(n) < rng.uniform(0.05, 0.5)
        labels[flip] = rng.integers(0, k, int(flip.sum()))
        out.append(labels)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", required=True,
                        choices=("serial", "pool", "dask", "loop", "sklearn"))
    parser.add_argument("--model", default="perm", choices=("perm", "num", "all"))
    parser.add_argument("--m", type=int, default=100)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--subset", type=int, default=300, help="pairs timed by loop/sklearn")
    args = parser.parse_args()
    labels = clusterings(args.m, args.n)
    pairs_total = args.m * (args.m + 1) // 2  # upper triangle with the diagonal
    row = {"bench": "pairwise", "method": args.method, "model": args.model, "m": args.m,
           "n": args.n, "pairs": pairs_total, "workers": args.workers, "machine": machine(),
           "env_MALLOC_TRIM_THRESHOLD_": os.environ.get("MALLOC_TRIM_THRESHOLD_")}
    reference = os.path.join(RESULTS, f"pairwise-{args.model}-m{args.m}-n{args.n}.npy")
    values = None
    if args.method in ("loop", "sklearn"):
        rng = np.random.default_rng(1)
        ii, jj = np.triu_indices(args.m)
        pick = rng.choice(ii.size, size=min(args.subset, ii.size), replace=False)
        if args.method == "sklearn":
            if args.model != "perm":
                raise SystemExit("scikit-learn has the perm model only")
            from sklearn.metrics import adjusted_mutual_info_score as func
        else:
            def func(a, b):
                return cc.adjusted_mutual_information(a, b, model=args.model)
        c0, t0 = cpu_seconds(), time.perf_counter()
        got = [func(labels[ii[p]], labels[jj[p]]) for p in pick]
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        row.update(timed_pairs=len(pick), wall_s_subset=wall, cpu_s_subset=cpu,
                   wall_s=wall * pairs_total / len(pick), cpu_s=cpu * pairs_total / len(pick),
                   extrapolated=True)
        if os.path.exists(reference):
            matrix = np.load(reference)
            diff = np.abs(np.asarray(got) - matrix[ii[pick], jj[pick]])
            row["max_abs_diff_vs_serial"] = float(diff.max())
            row["identical_to_serial"] = bool((diff == 0).all())
        record("pairwise", row)
        return
    if args.method == "serial":
        c0, t0 = cpu_seconds(), time.perf_counter()
        values = cc.pairwise(labels, measure="ami", model=args.model).values
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        os.makedirs(RESULTS, exist_ok=True)
        if os.path.exists(reference):  # e.g. rerun with MALLOC_TRIM_THRESHOLD_ set
            row["identical_to_serial"] = bool(np.array_equal(values, np.load(reference)))
        else:
            np.save(reference, values)
    elif args.method == "pool":
        from concurrent.futures import ProcessPoolExecutor

        c0, t0 = cpu_seconds(), time.perf_counter()
        with ProcessPoolExecutor(args.workers) as pool:
            values = cc.pairwise(labels, measure="ami", model=args.model, executor=pool).values
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0  # children reaped: counted
    else:
        from distributed import Client, LocalCluster

        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
        row["cluster_start_s"] = time.perf_counter() - t0
        pids = list(client.run(os.getpid).values())
        env = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
        row["worker_MALLOC_TRIM_THRESHOLD_"] = sorted(set(map(str, env.values())))
        w0, c0, t0 = process_cpu(pids), cpu_seconds(False), time.perf_counter()
        values = cc.pairwise(labels, measure="ami", model=args.model,
                             executor=client.get_executor()).values
        wall = time.perf_counter() - t0
        cpu = cpu_seconds(False) - c0 + process_cpu(pids) - w0
        client.close()
        cluster.close()
    row.update(wall_s=wall, cpu_s=cpu, extrapolated=False)
    if args.method != "serial" and os.path.exists(reference):
        serial = np.load(reference)
        row["identical_to_serial"] = bool(np.array_equal(values, serial))
        row["max_abs_diff_vs_serial"] = float(np.abs(values - serial).max())
    record("pairwise", row)


if __name__ == "__main__":
    main()
