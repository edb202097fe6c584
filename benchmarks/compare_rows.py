"""compare() cost: the default (no SRI/SMI rows) and standardized=True, against its ARI + AMI
rows alone (compare(measures=("ari", "ami"))), on three random tables of a few thousand elements.

Run: PYTHONPATH=src python benchmarks/compare_rows.py (issue #35). Session 13, 2-core Xeon
shared with other jobs: default 1.12-1.26x, standardized 30-44x the ARI + AMI rows.
"""
import timeit

import numpy as np

import chanceclust as cc

rng = np.random.default_rng(0)
cases = {}
for n, ka, kb in ((2000, 10, 12), (5000, 20, 30), (3000, 3, 8)):
    a = rng.integers(0, ka, n); b = np.where(rng.random(n) < 0.6, a % kb, rng.integers(0, kb, n))
    cases[f"N={n} K={ka}x{kb}"] = (a, b)
for name, (a, b) in cases.items():
    def t(a=a, b=b, **kw):
        cc.compare(a, b, **kw)
        return min(timeit.repeat(lambda: cc.compare(a, b, **kw), number=3, repeat=5)) / 3
    aa = t(measures=("ari", "ami")); d = t(); s = t(standardized=True)
    print(f"{name}: ARI+AMI rows {aa*1e3:.1f} ms, default {d*1e3:.1f} ms ({d/aa:.2f}x), standardized {s*1e3:.1f} ms ({s/aa:.1f}x)")
