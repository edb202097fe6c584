#!/usr/bin/env python
"""The cost of importing chanceclust and its command line, beside `import numpy` (#23).

Run from the repository root with chanceclust importable::

    python benchmarks/import_cost.py [--rounds 7]

Each import runs in a fresh interpreter (``python -c "import X"``), the three one right after
the other in each round, after one warm-up round that writes the bytecode caches (the
environment's PYTHONDONTWRITEBYTECODE is removed for the children: an installed package has
its bytecode, and without it every import recompiles). Wall seconds of the child and its
CPU seconds (user + system, ``os.wait4``), medians over the rounds; the interpreter's own
start (``python -c pass``) is measured the same way and shown apart.
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
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for code in TARGETS:  # warm-up: bytecode written
        _run(code, env)
    times: dict[str, list[tuple[float, float]]] = {code: [] for code in TARGETS}
    for _ in range(args.rounds):
        for code in TARGETS:
            times[code].append(_run(code, env))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; medians of {args.rounds} rounds\n")
    print("| `python -c` | wall s | CPU s | wall s above `pass` |")
    print("|---|---|---|---|")
    base = statistics.median(w for w, _ in times["pass"])
    for code in TARGETS:
        wall = statistics.median(w for w, _ in times[code])
        cpu = statistics.median(c for _, c in times[code])
        print(f"| `{code}` | {wall:.3f} | {cpu:.3f} | {wall - base:.3f} |")


if __name__ == "__main__":
    main()
