#!/usr/bin/env python
"""Generate ``big_tables.json``: measures of contingency tables whose totals reach 2**63 - 1.

The reference for the 64-bit edge of ``chanceclust`` (issue #10): pair
counts, RI, perm ARI, perm E[RI], Jaccard, Fowlkes-Mallows, MI, the entropies,
NMI under each normalization and VI of tables with cells and totals near the
int64 limit. It does NOT import chanceclust: pair counts and every rational
measure are exact ``fractions.Fraction`` values; the logarithmic ones are
mpmath sums at ``mp.dps = 80`` (VI = H(A) + H(B) - 2 MI loses at most ~20 of
those digits to cancellation here). Values are written as 40-digit strings.
Run: ``python tests/reference/make_big_tables.py``.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import mpmath as mp

mp.mp.dps = 80
LIMIT = 2**63 - 1


def _random_table(seed: int, rows: int, cols: int, total: int) -> list[list[int]]:
    """Cells drawn at random, then scaled so that they add up to exactly ``total``."""
    rng = random.Random(seed)
    weights = [[rng.randint(0, 1000) for _ in range(cols)] for _ in range(rows)]
    weights[0][0] += 1
    s = sum(map(sum, weights))
    table = [[w * total // s for w in row] for row in weights]
    table[0][0] += total - sum(map(sum, table))
    return table


TABLES = {
    # name: table (lists of Python ints)
    "near_identical": [[2**62, 3], [5, 2**62 - 100]],
    "powers_of_two": [[2**62, 2**61], [2**60, 2**59 + 12345]],
    "total_at_limit_3x3": [[2**61, 17, 2**60], [1, 2**61 - 5, 2**59], [3, 2**58, 0]],
    "one_row_at_limit": [[LIMIT - 1, 1]],
    "identical_diagonal": [[10**18, 0, 0], [0, 3 * 10**18, 0], [0, 0, 5 * 10**18]],
    "random_4x5_at_limit": _random_table(1, 4, 5, LIMIT),
    "random_3x3_half_limit": _random_table(2, 3, 3, LIMIT // 2),
    "tiny_cells_huge_total": [[LIMIT - 10, 3], [4, 3]],
}
# The last row sum reaches 2**63 - 1 - 7 while the others stay tiny.
TABLES["total_at_limit_3x3"][2][2] = LIMIT - sum(map(sum, TABLES["total_at_limit_3x3"]))


def _pairs(v: int) -> int:
    return v * (v - 1) // 2


def _entropy(sizes: list[int], n: int) -> mp.mpf:
    return -mp.fsum(mp.mpf(a) / n * mp.log(mp.mpf(a) / n) for a in sizes if a)


def _string(x) -> str:
    if isinstance(x, Fraction):
        x = mp.mpf(x.numerator) / x.denominator
    return mp.nstr(x, 40, min_fixed=-(10**9), max_fixed=10**9)


def reference(table: list[list[int]]) -> dict:
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    n = sum(rows)
    assert n <= LIMIT
    n11 = sum(_pairs(x) for r in table for x in r)
    qa, qb = sum(map(_pairs, rows)), sum(map(_pairs, cols))
    total = _pairs(n)
    n10, n01 = qa - n11, qb - n11
    n00 = total - n11 - n10 - n01
    ri = Fraction(n11 + n00, total)
    ari = Fraction(
        2 * (n11 * n00 - n10 * n01), (n11 + n10) * (n10 + n00) + (n11 + n01) * (n01 + n00)
    )
    expected_ri = Fraction(total * total - qa * total - qb * total + 2 * qa * qb, total * total)
    jaccard = Fraction(n11, n11 + n10 + n01)
    fmi = mp.mpf(n11) / mp.sqrt(mp.mpf(n11 + n10) * (n11 + n01))
    mi = mp.fsum(
        mp.mpf(x) / n * mp.log(mp.mpf(x) * n / (mp.mpf(rows[i]) * cols[j]))
        for i, r in enumerate(table)
        for j, x in enumerate(r)
        if x
    )
    ha, hb = _entropy(rows, n), _entropy(cols, n)
    means = {
        "min": min(ha, hb),
        "geometric": mp.sqrt(ha * hb),
        "arithmetic": (ha + hb) / 2,
        "max": max(ha, hb),
    }
    nmi = {k: mi / v if mi else mp.mpf(0) for k, v in means.items()}  # NMI = 0 when MI = 0
    vi = ha + hb - 2 * mi
    return {
        "table": [[str(x) for x in r] for r in table],
        "n": str(n),
        "pair_counts": [str(n11), str(n10), str(n01), str(n00)],
        "rand_index": _string(ri),
        "adjusted_rand_index_perm": _string(ari),
        "expected_rand_index_perm": _string(expected_ri),
        "jaccard_index": _string(jaccard),
        "fowlkes_mallows_index": _string(fmi),
        "mutual_information": _string(mi),
        "entropy_true": _string(ha),
        "entropy_pred": _string(hb),
        "normalized_mutual_information": {k: _string(v) for k, v in nmi.items()},
        "variation_of_information": _string(vi),
    }


def main() -> None:
    out = {name: reference(table) for name, table in TABLES.items()}
    path = Path(__file__).with_name("big_tables.json")
    path.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
