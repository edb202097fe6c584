#!/usr/bin/env python
"""Generate ``series_pair_information.json``: E[bd0(X, ab/N)] at the ends of the series' range.

References for the series in 1/mean of ``chanceclust._expected.deviance_series`` (issue #10):
X ~ hypergeometric(N, a, b), means ab/N from 60 (below the least mean, ~69.9, the series is
used at) through each point where its order changes (~80, 94, 114, 146, 199, 299, 514,
1086, 3213, 17321, 316374) to 1e6, at N = 10^6, 10^9, 3037000500 (the first N beyond
int64 products), 10^12 and 2**63 - 1, with a/N small, a = N/2, a near N and b near N.
It does NOT import chanceclust: the value is ``make_huge_pair_information.direct``
(mpmath, 60 digits: the pmf at its mode from log-gamma, carried outwards by its exact
ratios until it falls below 1e-50 of the mass, then normalized), written to 50 digits.
Run: ``python tests/reference/make_series_pair_information.py`` (~1 min).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_huge_pair_information import direct

mp.mp.dps = 60
LIMIT = 2**63 - 1
NS = [10**6, 10**9, 3_037_000_500, 10**12, LIMIT]
MEANS = [60, 69, 71, 79, 81, 93, 95, 100, 113, 115, 145, 147, 198, 200, 298, 300,
         513, 515, 1085, 1087, 3212, 3214, 17320, 17322, 316373, 316375, 10**6]  # fmt: skip
# How a is placed: a/N = 1/1024 (b/N is then small too at these means), 1/2, 1 - 1/1024,
# and b near N (a small).
KINDS = ["small", "half", "a_near_n", "b_near_n"]


def sizes(n: int, mean: int, kind: str) -> tuple[int, int]:
    if kind == "b_near_n":
        b = n - n // 1024
        return max(1, mean * n // b), b
    a = {"small": n // 1024, "half": n // 2, "a_near_n": n - n // 1024}[kind]
    return a, max(1, round(mean * n / a))


def main() -> None:
    rows = []
    for i, n in enumerate(NS):
        for j, mean in enumerate(MEANS):
            kind = KINDS[(i + j) % len(KINDS)]
            a, b = sizes(n, mean, kind)
            if a * b > 1_000_000 * n or b > n:  # N = 10^6 cannot reach the largest means
                continue
            rows.append(
                {
                    "n": str(n),
                    "a": str(a),
                    "b": str(b),
                    "n_info": mp.nstr(direct(n, a, b), 50, min_fixed=-(10**9), max_fixed=10**9),
                }
            )
    out = Path(__file__).with_name("series_pair_information.json")
    out.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {len(rows)} cases to {out}")


if __name__ == "__main__":
    main()
