"""AMI_q and SMI_q against today's AMI and SMI at N = 10^6, 100 x 100, under every model.

Each timing is the first call in a fresh process (no cache of E[MI], E[MI_q] or a variance
carried over). ``python benchmarks/tsallis.py`` prints one markdown row per model for AMI_q
(q = 0.5, 2, 3); ``python benchmarks/tsallis.py smi`` one row per model and side for SMI_q
(q = 0.5, 1.5, 3: the routes of Var[MI] with the cell function of MI_q), the runs of each
row interleaved over q (issue #37: goal <= 3x).
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
measure, model, q, one_sided = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4] == "1"
kwargs = {"contingency": table, "model": model, "one_sided": one_sided}
start = time.perf_counter()
if measure == "ami":
    value = (cc.adjusted_mutual_information(**kwargs) if q == 1.0
             else cc.adjusted_tsallis_mutual_information(q=q, **kwargs))
else:
    value = (cc.standardized_mutual_information(**kwargs) if q == 1.0
             else cc.standardized_tsallis_mutual_information(q=q, **kwargs))
print(json.dumps([time.perf_counter() - start, value]))
"""


def first_call(measure: str, model: str, q: float, one_sided: bool = False) -> float:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, measure, model, str(q), "1" if one_sided else "0"],
        capture_output=True, text=True, check=True,
    )
    return json.loads(out.stdout)[0]


def ami() -> None:
    print("| model | AMI (q = 1) | AMI_0.5 | AMI_2 | AMI_3 | worst ratio |")
    print("|---|---|---|---|---|---|")
    for model in ("perm", "num", "all"):
        base = min(first_call("ami", model, 1.0) for _ in range(3))
        times = [min(first_call("ami", model, q) for _ in range(3)) for q in (0.5, 2.0, 3.0)]
        cells = " | ".join(f"{1e3 * t:.1f} ms" for t in times)
        print(f"| {model} | {1e3 * base:.1f} ms | {cells} | {max(times) / base:.2f}x |")


def smi(repeats: int = 3) -> None:
    qs = (1.0, 0.5, 1.5, 3.0)
    print("| model | SMI (q = 1) | SMI_0.5 | SMI_1.5 | SMI_3 | worst ratio |")
    print("|---|---|---|---|---|---|")
    for model, one_sided in (("perm", False), ("num", False), ("all", False), ("num", True),
                             ("all", True)):
        runs: dict[float, list[float]] = {q: [] for q in qs}
        for _ in range(repeats):  # interleaved: a change of load hits every q alike
            for q in qs:
                runs[q].append(first_call("smi", model, q, one_sided))
        best = {q: min(times) for q, times in runs.items()}
        cells = " | ".join(f"{1e3 * best[q]:.0f} ms" for q in qs[1:])
        name = f"{model}{' one-sided' if one_sided else ''}"
        worst = max(best[q] for q in qs[1:]) / best[1.0]
        print(f"| {name} | {1e3 * best[1.0]:.0f} ms | {cells} | {worst:.2f}x |", flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["smi"]:
        smi()
    else:
        ami()
