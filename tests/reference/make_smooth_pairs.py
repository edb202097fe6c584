#!/usr/bin/env python
"""Generate ``smooth_pairs.json``: E[bd0(X, ab/N)] at cells of the rectangles that
``chanceclust._expected.size_pairs`` interpolates (means 10 .. 100, s + l <= N/2).

The values come from ``make_pair_information.expected_deviance`` (mpmath, the pmf
walked from its mode; 70 digits here, no chanceclust): corners, centres and points between the interpolation
nodes of the rectangles of tests/_expected/test_size_pairs_smooth.py. Run:
``python tests/reference/make_smooth_pairs.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_pair_information import expected_deviance

# 70 digits: log-gamma at N = 10^9 takes ~10 of them (the mass check wants 1e-40).
mp.mp.dps = 70

CASES = [
    # N = 10^9, sizes 3e5 + 3j against 3e5 + 3j + 1 (benchmarks/emi_pairs.py's worst row: means ~90)
    (10**9, 300_000, 300_001),
    (10**9, 300_189, 302_995),
    (10**9, 302_997, 302_998),
    (10**9, 300_093, 301_501),
    (10**9, 301_000, 300_004),
    (10**9, 300_012, 302_501),
    # N = 10^7: means 10 .. 13 (sizes 10^4 .. 1.3 10^4)
    (10**7, 10_000, 10_000),
    (10**7, 10_063, 13_000),
    (10**7, 10_031, 11_517),
    (10**7, 10_007, 12_345),
    (10**7, 10_050, 12_777),
    # N = 10^6: means ~50 .. 99 (sizes 7100 .. 9900)
    (10**6, 7_100, 7_100),
    (10**6, 7_163, 9_900),
    (10**6, 7_140, 8_513),
    (10**6, 7_101, 9_899),
]


def main() -> None:
    rows = [
        {"n": n, "a": a, "b": b, "value": mp.nstr(expected_deviance(n, a, b), 30)}
        for n, a, b in CASES
    ]
    out = Path(__file__).resolve().parent / "smooth_pairs.json"
    out.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
