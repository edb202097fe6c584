"""What the SRI and SMI rows cost in ``compare()`` (issue #22).

Run from the repository root::

    PYTHONPATH=src python benchmarks/compare_smi.py [--quick]

Each case runs in a fresh interpreter (the two-sided num/all variances and expectations are
cached by (N, K), so a warm process would time nothing), cold, and reports CPU seconds
(``time.process_time``) of, in the same process and order:

* ``compare()``: every row, SRI and SMI included;
* the floor: the rows compare() computed before SRI and SMI (the raw measures, ARI and AMI
  under the five settings), as single calls on the same table;
* SMI alone: ``standardized_mutual_information`` under the five settings, cold in a second
  fresh interpreter.

Labels: ``equal`` cluster sizes (i mod K, and a shuffled copy) or ``dirichlet`` sizes (labels
drawn with Dirichlet(1) cluster probabilities: as many distinct sizes as clusters).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CASES = [
    (1_000, 10, "dirichlet"),
    (10_000, 10, "equal"),
    (10_000, 10, "dirichlet"),
    (100_000, 10, "dirichlet"),
    (1_000, 300, "equal"),
]
QUICK = CASES[:2]

SETTINGS = (("perm", False), ("num", False), ("num", True), ("all", False), ("all", True))

_CHILD = r"""
import json, sys, time
import numpy as np
import chanceclust as cc
n, k, kind, what = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = np.random.default_rng(0)
if kind == "equal":
    a = np.arange(n) % k
    b = rng.permutation(a)
else:
    a = rng.choice(k, n, p=rng.dirichlet(np.ones(k)))
    b = rng.choice(k, n, p=rng.dirichlet(np.ones(k)))
table = cc.contingency_table(a, b)
settings = (("perm", False), ("num", False), ("num", True), ("all", False), ("all", True))
start = time.process_time()
if what == "compare":
    cc.compare(contingency=table)
elif what == "floor":
    for f in (cc.rand_index, cc.mutual_information, cc.fowlkes_mallows_index, cc.jaccard_index,
              cc.variation_of_information):
        f(contingency=table)
    for method in ("min", "geometric", "arithmetic", "max", "true", "pred"):
        cc.normalized_mutual_information(contingency=table, average_method=method)
    for model, one_sided in settings:
        cc.adjusted_rand_index(contingency=table, model=model, one_sided=one_sided)
        for method in ("min", "geometric", "arithmetic", "max", "true", "pred"):
            cc.adjusted_mutual_information(contingency=table, model=model, one_sided=one_sided,
                                           average_method=method)
else:
    for model, one_sided in settings:
        try:
            cc.standardized_mutual_information(contingency=table, model=model,
                                               one_sided=one_sided)
        except cc.InvalidInputError:
            pass  # not implemented (num, small clusters, N > 60): compare() reports NaN
print(json.dumps(time.process_time() - start))
"""


def _cold(n: int, k: int, kind: str, what: str) -> float:
    done = subprocess.run([sys.executable, "-c", _CHILD, str(n), str(k), kind, what],
                          capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first two cases only")
    args = parser.parse_args()
    print("| N | K_A x K_B | sizes | compare() s | floor (ARI, AMI, raw) s | SMI x 5 s |")
    print("|---|---|---|---|---|---|")
    for n, k, kind in QUICK if args.quick else CASES:
        times = [_cold(n, k, kind, what) for what in ("compare", "floor", "smi")]
        print(f"| {n} | {k} x {k} | {kind} | " + " | ".join(f"{t:.2f}" for t in times) + " |",
              flush=True)


if __name__ == "__main__":
    main()
