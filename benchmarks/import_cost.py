#!/usr/bin/env python
"""The cost of importing chanceclust and its command line, beside `import numpy` (#23).

Run from the repository root with chanceclust importable::

    python benchmarks/import_cost.py [--rounds 7] [--src OLD/src --src NEW/src]

Each import runs in a fresh interpreter (``python -c "import X"``), the targets one right
after the other in each round, after one warm-up round that writes the bytecode caches (the
environment's PYTHONDONTWRITEBYTECODE is removed for the children: an installed package has
its bytecode, and without it every import recompiles). Wall seconds of the child and its
CPU seconds (user + system, ``os.wait4``), medians over the rounds; the interpreter's own
start (``python -c pass``) is measured the same way and shown apart.

With ``--src`` (repeatable: ``src`` folders of checkouts, e.g. made by ``git worktree
add``), each chanceclust target runs once per checkout in every round (``PYTHONPATH`` set to
it, the checkouts' order alternating between rounds), one column pair per checkout; without
it, the chanceclust the interpreter imports.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

TARGETS = ("pass", "import numpy", "import chanceclust", "import chanceclust.cli")


def _run(code: str, env: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code], env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"{code!r} failed")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--src", action="append", default=None)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    trees: list[str | None] = list(args.src) if args.src else [None]
    envs = {tree: env if tree is None else {**env, "PYTHONPATH": tree} for tree in trees}
    for tree in trees:  # warm-up: bytecode written
        for code in TARGETS:
            _run(code, envs[tree])
    times: dict[tuple[str | None, str], list[tuple[float, float]]] = {
        (tree, code): [] for tree in trees for code in TARGETS
    }
    for r in range(args.rounds):
        for code in TARGETS:
            order = trees if r % 2 == 0 else trees[::-1]
            for tree in order if "chanceclust" in code else trees[:1]:
                times[tree, code].append(_run(code, envs[tree]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; medians of {args.rounds} rounds; load average "
          f"{os.getloadavg()[0]:.1f}\n")
    names = ["" if tree is None else f" ({tree})" for tree in trees]
    print("| `python -c` | " + " | ".join(f"wall s{n} | CPU s{n} | wall s above `pass`{n}"
                                          for n in names) + " |")
    print("|---|" + "---|---|---|" * len(trees))
    base = statistics.median(w for tree in trees for w, _ in times[tree, "pass"])
    for code in TARGETS:
        cells = []
        for tree in trees:
            got = times[tree, code] or times[trees[0], code]  # numpy and pass: measured once
            wall = statistics.median(w for w, _ in got)
            cpu = statistics.median(c for _, c in got)
            cells.append(f"{wall:.3f} | {cpu:.3f} | {wall - base:.3f}")
        print(f"| `{code}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
