"""Small calls and the first call of a process, paired across source trees (issue #38).

Usage, from the repository root::

    python benchmarks/small_calls.py SRC [SRC ...] [--rounds 5]
    python benchmarks/small_calls.py --src OLD/src --src NEW/src [--rounds 5]

Each SRC is a ``src`` folder of a chanceclust tree (e.g. ``src`` and the ``src`` of another
commit's ``git archive`` or ``git worktree add``). Every round runs each tree in a fresh
process, the trees' order alternating between rounds; a row is the minimum over rounds of the
per-process minimum of ``timeit.repeat`` in CPU time of the process (``time.process_time``:
steadier than wall time on a shared machine; microseconds for the warm calls), and the wall
milliseconds of the first ARI of a process after ``import chanceclust``. Labels:
``integers(0, 10, N)`` against ``integers(0, 8, N)``, and (rows "10x30", the input of
``paired_38.py``'s N = 100 AMI rows) ``default_rng(100)``'s ``integers(0, 10, 100)``
against ``integers(0, 30, 100)``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

CHILD = r"""
import json, time, timeit
t0 = time.perf_counter()
import numpy as np
import chanceclust as cc
a, b = np.arange(100) % 7, np.arange(100) % 5
t1 = time.perf_counter(); cc.adjusted_rand_index(a, b); first = time.perf_counter() - t1
rng = np.random.default_rng(0)
out = {"first ARI (ms)": first * 1e3}
for n in (100, 10**5):
    a, b = rng.integers(0, 10, n), rng.integers(0, 8, n)
    for name, f in [("ARI", lambda: cc.adjusted_rand_index(a, b)),
                    ("AMI perm", lambda: cc.adjusted_mutual_information(a, b)),
                    ("contingency_table", lambda: cc.contingency_table(a, b))]:
        number = 200 if n == 100 else 5
        times = timeit.repeat(f, number=number, repeat=5, timer=time.process_time)
        out[f"{name} N={n} (us)"] = min(times) / number * 1e6
rng = np.random.default_rng(100)
a, b = rng.integers(0, 10, 100), rng.integers(0, 30, 100)
for name, f in [("ARI", lambda: cc.adjusted_rand_index(a, b)),
                ("AMI perm", lambda: cc.adjusted_mutual_information(a, b))]:
    times = timeit.repeat(f, number=100, repeat=5, timer=time.process_time)
    out[f"{name} N=100 10x30 (us)"] = min(times) / 100 * 1e6
print(json.dumps(out))
"""


def main(argv: list[str], child: str = CHILD) -> None:
    """Run ``child`` (a script printing one JSON object of times) in a fresh process per
    tree and round, trees alternating; print the best of each key as a table."""
    rounds = 5
    if "--rounds" in argv:
        i = argv.index("--rounds")
        rounds = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    while "--src" in argv:  # --src OLD/src --src NEW/src: the same as positional trees
        i = argv.index("--src")
        argv = [*argv[:i], argv[i + 1], *argv[i + 2:]]
    best: dict[str, dict[str, float]] = {src: {} for src in argv}
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for r in range(rounds):
        for src in argv if r % 2 == 0 else argv[::-1]:
            env = {**os.environ, "PYTHONPATH": src}
            out = subprocess.run([sys.executable, "-c", child], env=env, check=True,
                                 capture_output=True, text=True).stdout
            for key, value in json.loads(out).items():
                best[src][key] = min(value, best[src].get(key, value))
    keys = list(best[argv[0]])
    print("| call | " + " | ".join(argv) + " |")
    print("|---|" + "---:|" * len(argv))
    for key in keys:
        cells = [f"{best[src][key]:.3g}" for src in argv]
        if len(argv) > 1:
            cells[1:] = [f"{c} ({best[src][key] / best[argv[0]][key]:.2f}x)"
                         for c, src in zip(cells[1:], argv[1:], strict=True)]
        print(f"| {key} | " + " | ".join(cells) + " |")
    print(f"load average {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
