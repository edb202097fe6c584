"""asv rows checked by hand, paired across source trees (issue #38).

Usage, from ``benchmarks/``::

    python asv_rows_paired.py OLD/src NEW/src [--rounds 3]

The driver of ``small_calls.py`` (a fresh process per tree and round, trees alternating; the
best of 7 ``timeit`` repeats in CPU time): the asv suite's inputs (``asv_bench/_inputs.py``'s
``pair``) for the rows whose asv ratios against d8b6597 were slower or noisy in session 15:
perm AMI (``PermSizes.time_ami``; ``Models.time_ami(1000, 10, 'perm')`` is the uniform
N = 1000, K = 10 row) and ``contingency_table`` of 'stair' labels.
"""

from __future__ import annotations

import sys
from pathlib import Path

from small_calls import main

CHILD = r"""
import json, sys, time, timeit
sys.path.insert(0, INPUTS)
from _inputs import pair
import chanceclust as cc
out = {}
for n, k, shape, what, number in [
        (100, 2, "dirichlet", "ami", 200), (100, 2, "uniform", "ami", 200),
        (1000, 10, "uniform", "ami", 100), (100000, 100, "zipf", "ami", 20),
        (100000, 2, "uniform", "ami", 50), (1000000, 100, "uniform", "ami", 3),
        (100000, 100, "stair", "contingency_table", 50),
        (1000000, 100, "stair", "contingency_table", 5)]:
    a, b = pair(shape, n, k)
    call = (cc.adjusted_mutual_information if what == "ami" else cc.contingency_table)
    call(a, b)
    t = timeit.repeat(lambda: call(a, b), number=number, repeat=7, timer=time.process_time)
    out[f"{what} N={n} K={k} {shape} (ms)"] = min(t) / number * 1e3
print(json.dumps(out))
""".replace("INPUTS", repr(str(Path(__file__).resolve().parent / "asv_bench")))

if __name__ == "__main__":
    main(sys.argv[1:], CHILD)
