#!/usr/bin/env python
"""Generate ``emi_pairs.json``: the perm E[MI] of two size sequences, at 50 digits.

The reference for the sum over many size pairs (``chanceclust._expected.size_pairs.
information_sum``, issue #23) on the two shapes of that issue at a size mpmath can sum:

* ``stair``: all-distinct sizes 1 .. 140 on both sides (N = 9870): means ab/N from 1e-4
  to ~2, the 2-D blocks of the factorial-moment series (mean <= 1) and of the pmf
  (1 < mean <= 10), each unordered pair once;
* ``dirichlet``: 60 clusters a side, sizes multinomial(N = 10^5, Dirichlet(0.5))
  (numpy, fixed seeds): means from ~1e-3 to ~1e3, so every route (small means, 2-D pmf
  blocks, grouped windows, the series in 1/mean).

E[MI] = (1/N) sum_{a,b} w_A(a) w_B(b) E[bd0(X, ab/N)], X ~ hypergeometric(N, a, b), each
term by ``make_pair_information.expected_deviance`` (mpmath, 50 digits, the pmf from its
mode by exact ratios until the terms fall below 1e-45). It does NOT import chanceclust.
Run: ``python tests/reference/make_emi_pairs.py`` (~2 min, one core).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import mpmath as mp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_pair_information import expected_deviance

mp.mp.dps = 50


def dirichlet_sizes(n: int, k: int, seed: int) -> list[int]:
    p = np.random.default_rng(seed).dirichlet(np.full(k, 0.5))
    sizes = np.random.default_rng(seed + 1).multinomial(n, p)
    return [int(v) for v in sizes if v > 0]


def cases() -> list[tuple[str, list[int], list[int]]]:
    stair = list(range(1, 141))
    return [
        ("stair", stair, stair),
        ("dirichlet", dirichlet_sizes(10**5, 60, 1), dirichlet_sizes(10**5, 60, 3)),
    ]


def expected_mi(sizes_a: list[int], sizes_b: list[int]) -> mp.mpf:
    n = sum(sizes_a)
    assert n == sum(sizes_b)
    count_a, count_b = Counter(sizes_a), Counter(sizes_b)
    cache: dict[tuple[int, int], mp.mpf] = {}
    total = mp.mpf(0)
    for a, wa in count_a.items():
        for b, wb in count_b.items():
            key = (min(a, b), max(a, b))  # E[bd0] is symmetric in a and b
            if key not in cache:
                cache[key] = expected_deviance(n, a, b)
            total += wa * wb * cache[key]
    return total / n


def main() -> None:
    rows = []
    for name, sizes_a, sizes_b in cases():
        value = expected_mi(sizes_a, sizes_b)
        rows.append(
            {"case": name, "sizes_a": sizes_a, "sizes_b": sizes_b, "emi": mp.nstr(value, 40)}
        )
        print(name, rows[-1]["emi"], flush=True)
    out = Path(__file__).with_name("emi_pairs.json")
    out.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"wrote {len(rows)} cases to {out}")


if __name__ == "__main__":
    main()
