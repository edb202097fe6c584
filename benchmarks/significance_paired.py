"""``significance_test`` with few resamples, paired across source trees (issues #36, #38).

Usage, from the repository root::

    python benchmarks/significance_paired.py OLD/src NEW/src [--rounds 3]

The driver of ``small_calls.py`` (fresh process per tree and round, trees alternating, best
CPU time): each row is the CPU seconds (``time.process_time``) of one
``significance_test(measure, a, b, model=..., n_resamples=R, rng=0)``, with the inputs of
``significance_floor.py``: ``a`` K equal clusters in random order, ``b`` = ``a`` with 30 % of
its labels redrawn (seed 0). R is small so that the codes route at N = 10^6 finishes; the
seconds are of R resamples, not scaled. The first row is a tiny first call of the process
(what it imports: the table route imports ``scipy.stats``).
"""

from __future__ import annotations

import sys

from small_calls import main

CHILD = r"""
import json, time
import numpy as np
import chanceclust as cc
t = time.process_time()
cc.significance_test("ari", [0, 0, 1, 1, 2, 2], [0, 0, 1, 2, 2, 2], model="perm",
                     n_resamples=9, rng=0)  # the first call of a process: imports
out = {"first call, N = 6 (s)": time.process_time() - t}
for n, k, resamples in ((10**4, 10, 999), (10**4, 100, 199), (10**6, 10, 20), (10**6, 100, 20)):
    rng = np.random.default_rng(0)
    a = rng.permutation(np.arange(n) % k)
    b = np.where(rng.random(n) < 0.3, rng.integers(0, k, n), a)
    for measure, model in (("ari", "perm"), ("ami", "perm"), ("ami", "num")):
        t = time.process_time()
        cc.significance_test(measure, a, b, model=model, n_resamples=resamples, rng=0)
        out[f"{measure} {model} N={n} {k}x{k} R={resamples} (s)"] = time.process_time() - t
print(json.dumps(out))
"""

if __name__ == "__main__":
    main(sys.argv[1:], CHILD)
