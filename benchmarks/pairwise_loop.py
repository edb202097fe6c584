#!/usr/bin/env python
"""``pairwise`` (serial) against a loop of single calls over the same pairs (issue #23).

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/pairwise_loop.py [--rounds 3] [--m 50] [--n 100000]   # ~8 min, 2 cores
    python benchmarks/pairwise_loop.py --input sweep --cases "perm AMI"     # ~2 min
    python benchmarks/pairwise_loop.py --src OLD/src --src NEW/src --cases "perm AMI"

``--src`` (repeatable): a ``src`` directory of a checkout (e.g. one made by ``git worktree
add``) whose package the children import (``PYTHONPATH``); each round runs every checkout one
after the other (their order alternating between rounds), one row per checkout. Without it the
children import what this process's environment gives.

Inputs: ``random`` (default): M clusterings of N elements with K log-spaced from 2 to 1000
(``numpy.logspace``, rounded), labels drawn uniformly by ``numpy.random.default_rng(0)``:
every clustering has its own size law. ``sweep``: a seed sweep of balanced clusterings,
M / 5 values of K log-spaced from 2 to 1000, 5 seeds each, labels a random permutation of
``arange(N) % K`` (sizes N // K or N // K + 1): clusterings of one K share their size law. Cases: perm AMI,
ARI, num AMI (two-sided, arithmetic). For each case and round, ``pairwise`` and the loop
(``adjusted_mutual_information`` / ``adjusted_rand_index`` on every pair i <= j, the
pairs ``pairwise`` computes) and the floor (one ``numpy.bincount`` of ``a * K_B + b`` per
pair: the pass over the labels every table needs) each run in a fresh child process, one
after the other (paired rounds; the order alternates between rounds). CPU seconds by ``time.process_time``
around the call inside the child (label generation excluded); peak memory = the child's
``ru_maxrss`` (process level, includes the interpreter and the labels). Every round checks
that the two matrices are bit-identical. Reported: medians over the rounds and the ratio
loop / pairwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

CASES = {
    "perm AMI": ("ami", {"model": "perm"}),
    "ARI": ("ari", {}),
    "num AMI": ("ami", {"model": "num"}),
}


def _clusterings(m: int, n: int, kind: str = "random", seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    if kind == "sweep":
        ks = np.round(np.logspace(np.log10(2), 3, max(1, m // 5))).astype(int)
        return [rng.permutation(np.arange(n) % k) for k in ks for _ in range(5)]
    ks = np.round(np.logspace(np.log10(2), 3, m)).astype(int)
    return [rng.integers(0, k, n) for k in ks]


def _child(case: str, method: str, m: int, n: int, kind: str) -> None:
    import resource

    import chanceclust as cc

    measure, kw = CASES[case]
    labels = _clusterings(m, n, kind)
    m = len(labels)
    single = {"ami": cc.adjusted_mutual_information, "ari": cc.adjusted_rand_index}[measure]
    start = time.process_time()
    if method == "pairwise":
        values = cc.pairwise(labels, measure=measure, **kw).values
    elif method == "floor":  # one bincount of a * K_B + b per pair: what every table needs
        values = np.zeros((m, m))
        for i in range(m):
            for j in range(i, m):
                np.bincount(labels[i] * (int(labels[j].max()) + 1) + labels[j])
    else:
        values = np.empty((m, m))
        for i in range(m):
            for j in range(i, m):
                values[i, j] = values[j, i] = single(labels[i], labels[j], **kw)
    cpu = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
    print(json.dumps({"cpu": cpu, "peak": peak, "values": values.tobytes().hex()}))


def _run(case: str, method: str, m: int, n: int, kind: str, src: str | None = None) -> dict:
    env = os.environ.copy()
    if src is not None:
        env["PYTHONPATH"] = src
    out = subprocess.run(
        [sys.executable, __file__, "--child", case, method, "--m", str(m), "--n", str(n),
         "--input", kind],
        check=True, capture_output=True, text=True, env=env,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--m", type=int, default=50)
    parser.add_argument("--n", type=int, default=10**5)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--input", choices=("random", "sweep"), default="random")
    parser.add_argument("--src", action="append")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        _child(args.child[0], args.child[1], args.m, args.n, args.input)
        return
    m = len(_clusterings(args.m, 2, args.input))
    pairs = m * (m + 1) // 2
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numpy {np.__version__}; input {args.input}: M = {m} "
        f"clusterings x N = {args.n}, K = 2..1000 log-spaced ({pairs} pairs); median of "
        f"{args.rounds} "
        "paired rounds, CPU s in fresh processes; peak = ru_maxrss."
    )
    print()
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    print()
    print("| case | src | pairwise CPU s | loop CPU s | floor CPU s | loop / pairwise | "
          "pairwise / floor | pairwise peak MiB | loop peak MiB | bit-identical |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    srcs = args.src or [None]
    for case in args.cases.split(","):
        got = {src: {"pairwise": [], "loop": [], "floor": []} for src in srcs}
        identical = dict.fromkeys(srcs, True)
        for r in range(args.rounds):
            order = ("pairwise", "loop", "floor") if r % 2 == 0 else ("floor", "loop", "pairwise")
            for src in srcs if r % 2 == 0 else srcs[::-1]:
                runs = {method: _run(case, method, args.m, args.n, args.input, src)
                        for method in order}  # fmt: skip
                identical[src] &= runs["pairwise"]["values"] == runs["loop"]["values"]
                for method in order:
                    got[src][method].append(runs[method])
        for src in srcs:
            med = {
                method: {key: statistics.median(r[key] for r in rs) for key in ("cpu", "peak")}
                for method, rs in got[src].items()
            }
            print(
                f"| {case} | {src or '-'} | {med['pairwise']['cpu']:.2f} | "
                f"{med['loop']['cpu']:.2f} | {med['floor']['cpu']:.2f} | "
                f"{med['loop']['cpu'] / med['pairwise']['cpu']:.2f}x | "
                f"{med['pairwise']['cpu'] / med['floor']['cpu']:.1f}x | "
                f"{med['pairwise']['peak']:.0f} | {med['loop']['peak']:.0f} | "
                f"{'yes' if identical[src] else 'NO'} |",
                flush=True,
            )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
