#!/usr/bin/env python
"""Paired old/new timings of the rows of issue #38 that this script names, in fresh processes.

Run from the repository root::

    python benchmarks/paired_38.py --src OLD/src --src NEW/src [--rounds 3]

Each ``--src`` is a ``src`` directory of a checkout (e.g. one made by ``git worktree add``).
For every round and case, each checkout runs in a fresh child process (``PYTHONPATH`` set to
it), one after the other (the order alternates between rounds); the child times the case
with ``time.process_time`` (best of ``REPEATS`` calls after one warm-up, label generation
excluded) and prints its values' bytes. Reported: the minimum over the rounds per checkout,
and whether the values are the same to the bit in every round.

Cases:

* ``perm AMI dirichlet``: 60 random pairs (``default_rng(1)``) of 50 labelings of N = 10^5
  elements, K log-spaced 10 .. 1000, cluster probabilities Dirichlet(0.5) (``default_rng(0)``):
  many distinct sizes with cell means 1 .. 10 (the 2-D pmf blocks). ms per pair, whole AMI.
* ``perm E[MI] dirichlet``: the same pairs, E[MI] of their size laws only (the laws made once).
* ``perm AMI uniform``: as the first, labels uniform on K log-spaced 2 .. 1000 (the inputs of
  ``pairwise_loop.py``).
* ``SMI num one-sided 1000``: N = 1000, labels uniform on 4 and on 700 labels (533 used),
  ``model="num", one_sided=True``: the first call of a process (the exact size moments), s.
* ``AMI N=100 ...`` / ``AMI N=1000 ...``: one pair of uniform labels, 10 x 30 labels, perm,
  num and all one-sided; ms per call, warm.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

REPEATS = 3


def _labels(kind, m=50, n=100_000):
    import numpy as np

    rng = np.random.default_rng(0)
    if kind == "dirichlet":
        ks = np.round(np.logspace(1, 3, m)).astype(int)
        return [rng.choice(k, n, p=rng.dirichlet(np.full(k, 0.5))) for k in ks]
    ks = np.round(np.logspace(np.log10(2), 3, m)).astype(int)
    return [rng.integers(0, k, n) for k in ks]


def _pairs():
    import numpy as np

    rng = np.random.default_rng(1)
    return [tuple(int(v) for v in rng.choice(50, 2, replace=False)) for _ in range(60)]


def _best(call):
    call()
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        values = call()
        best = min(best, time.process_time() - start)
    return best, values


def _child(case):
    import numpy as np

    import chanceclust as cc

    if case.startswith(("perm AMI", "perm E[MI]")):
        labels = _labels(case.split()[-1])
        pairs = _pairs()
        if case.startswith("perm AMI"):
            seconds, values = _best(
                lambda: [
                    cc.adjusted_mutual_information(labels[i], labels[j], model="perm")
                    for i, j in pairs
                ]
            )
        else:
            from chanceclust._expected import mutual_information as mi

            laws = []
            original = mi._sizes_sizes

            def keep(a, b):
                laws.append((a, b))
                return original(a, b)

            mi._sizes_sizes = keep
            for i, j in pairs:
                cc.adjusted_mutual_information(labels[i], labels[j], model="perm")
            mi._sizes_sizes = original
            seconds, values = _best(lambda: [original(a, b) for a, b in laws])
        return seconds / len(pairs) * 1e3, values
    if case == "SMI num one-sided 1000":
        rng = np.random.default_rng(0)
        a, b = rng.integers(0, 4, 1000), rng.integers(0, 700, 1000)
        start = time.process_time()
        value = cc.standardized_mutual_information(a, b, model="num", one_sided=True)
        return time.process_time() - start, [value]
    _, size, model = case.split()  # "AMI N=100 perm"
    n = int(size[2:])
    rng = np.random.default_rng(n)
    a, b = rng.integers(0, 10, n), rng.integers(0, 30, n)
    one_sided = model != "perm"
    seconds, values = _best(
        lambda: [
            cc.adjusted_mutual_information(a, b, model=model, one_sided=one_sided)
            for _ in range(20)
        ]
    )
    return seconds / 20 * 1e3, values[:1]


CASES = {
    "perm AMI dirichlet": "ms/pair",
    "perm E[MI] dirichlet": "ms/pair",
    "perm AMI uniform": "ms/pair",
    "SMI num one-sided 1000": "s",
    "AMI N=100 perm": "ms",
    "AMI N=100 num": "ms",
    "AMI N=100 all": "ms",
    "AMI N=1000 perm": "ms",
    "AMI N=1000 num": "ms",
    "AMI N=1000 all": "ms",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        seconds, values = _child(args.child)
        import numpy as np

        print(json.dumps({"t": seconds, "v": np.asarray(values, float).tobytes().hex()}))
        return
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for case in args.cases.split(","):
        times = {src: [] for src in args.src}
        values = {src: set() for src in args.src}
        for r in range(args.rounds):
            for src in args.src if r % 2 == 0 else args.src[::-1]:
                env = dict(os.environ, PYTHONPATH=src)
                out = subprocess.run(
                    [sys.executable, __file__, "--src", src, "--child", case],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if out.returncode:  # e.g. a function the old checkout does not have
                    got = {"t": float("nan"), "v": "failed"}
                else:
                    got = json.loads(out.stdout.strip().splitlines()[-1])
                times[src].append(got["t"])
                values[src].add(got["v"])
        same = len(set.union(*values.values()) - {"failed"}) == 1
        cells = " | ".join(f"{min(t):.3g}" for t in times.values())
        print(f"| {case} ({CASES[case]}) | {cells} | {'yes' if same else 'no'} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
