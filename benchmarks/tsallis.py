"""AMI_q (q = 0.5, 2, 3) against today's AMI at N = 10^6, 100 x 100, under perm, num and all.

Each timing is the first call in a fresh process (no cache of E[MI] or E[MI_q] carried over):
``python benchmarks/tsallis.py`` prints one markdown row per model (issue #37: goal <= 3x).
"""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = """
import json, sys, time
import numpy as np
import chanceclust as cc
rng = np.random.default_rng(0)
n = 10**6
a, b = rng.integers(0, 100, n), rng.integers(0, 100, n)
table = cc.contingency_table(a, b)
model, q = sys.argv[1], float(sys.argv[2])
start = time.perf_counter()
if q == 1.0:
    value = cc.adjusted_mutual_information(contingency=table, model=model)
else:
    value = cc.adjusted_tsallis_mutual_information(contingency=table, q=q, model=model)
print(json.dumps([time.perf_counter() - start, value]))
"""


def first_call(model: str, q: float) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, model, str(q)], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)[0]


def main() -> None:
    print("| model | AMI (q = 1) | AMI_0.5 | AMI_2 | AMI_3 | worst ratio |")
    print("|---|---|---|---|---|---|")
    for model in ("perm", "num", "all"):
        base = min(first_call(model, 1.0) for _ in range(3))
        times = [min(first_call(model, q) for _ in range(3)) for q in (0.5, 2.0, 3.0)]
        cells = " | ".join(f"{1e3 * t:.1f} ms" for t in times)
        print(f"| {model} | {1e3 * base:.1f} ms | {cells} | {max(times) / base:.2f}x |")


if __name__ == "__main__":
    main()
