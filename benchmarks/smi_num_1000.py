#!/usr/bin/env python
"""SMI under num, one-sided, N = 1000, 4 x 700 labels: the first call of a process (#38).

Run from the repository root::

    python benchmarks/smi_num_1000.py --src OLD/src --src NEW/src [--rounds 5]

Each ``--src`` is a ``src`` folder of a checkout (e.g. made by ``git worktree add``). Every
round runs each checkout and case in a fresh process (``PYTHONPATH`` set to it; the
checkouts' order alternating between rounds); the child times one
``standardized_mutual_information(a, b, model="num", one_sided=True)`` after ``import
chanceclust`` with ``time.process_time`` (the exact size moments are made on this first call)
and prints the value's bytes. Reported: the minimum and median over the rounds per checkout,
and whether every checkout gave the same bits. Cases:

* ``533 used``: ``default_rng(0)``'s ``integers(0, 4, 1000)`` against ``integers(0, 700,
  1000)`` (533 of the 700 labels used: ``paired_38.py``'s "SMI num one-sided 1000" row);
* ``700 used``: the same ``integers(0, 4, 1000)`` against ``arange(1000) % 700``, permuted by
  ``default_rng(0)`` after it (all 700 used: the issue's "4 x 700").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
import numpy as np
import chanceclust as cc
rng = np.random.default_rng(0)
a = rng.integers(0, 4, 1000)
b = rng.integers(0, 700, 1000) if sys.argv[1] == "533" else rng.permutation(np.arange(1000) % 700)
assert len(np.unique(b)) == int(sys.argv[1])
start = time.process_time()
value = cc.standardized_mutual_information(a, b, model="num", one_sided=True)
seconds = time.process_time() - start
print(json.dumps({"t": seconds, "v": np.float64(value).tobytes().hex()}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    print("| case | " + " | ".join(f"{src} s (min / median)" for src in args.src)
          + " | same bits |")  # fmt: skip
    print("|---|" + "---|" * len(args.src) + "---|")
    for case in ("533", "700"):
        times: dict[str, list[float]] = {src: [] for src in args.src}
        values: set[str] = set()
        for r in range(args.rounds):
            for src in args.src if r % 2 == 0 else args.src[::-1]:
                out = subprocess.run([sys.executable, "-c", CHILD, case],
                                     env={**os.environ, "PYTHONPATH": src},
                                     capture_output=True, text=True, check=True)  # fmt: skip
                got = json.loads(out.stdout.strip().splitlines()[-1])
                times[src].append(got["t"])
                values.add(got["v"])
        cells = " | ".join(f"{min(t):.3f} / {statistics.median(t):.3f}" for t in times.values())
        print(f"| 4 x 700, {case} used | {cells} | {'yes' if len(values) == 1 else 'no'} |",
              flush=True)  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
