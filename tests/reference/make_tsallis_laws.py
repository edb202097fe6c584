#!/usr/bin/env python
"""Reference E[MI_q] under num and all at N = 40 and 100 from the exact size laws (mpmath, 40
digits, exact integers; independent of chanceclust).

The expected number of clusters of size a in a uniform clustering of N elements is
w(a) = C(N, a) B_{N-a} / B_N (all) and C(N, a) S(N - a, K - 1) / S(N, K) (num with K clusters);
a one-sided reference has its own sizes. Given the sizes the table is that of perm, so

    E[MI_q] = sum_a w_A(a) h(a) + sum_b w_B(b) h(b) - sum_{a,b} w_A(a) w_B(b) E[h(X)],

h(x) = (x/N)(1 - (x/N)^(q-1)) / (q - 1), X ~ Hypergeometric(N, a, b) with its exact pmf
C(b, x) C(N - b, a - x) / C(N, a). The library computes these with slot mixtures (Stam's
for all, inclusion-exclusion for num), so this checks those routes at N beyond enumeration.

Run from the repository root: ``python tests/reference/make_tsallis_laws.py`` writes
``tests/reference/tsallis_laws.json`` (about a minute).
"""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import mpmath as mp
from _exact import bell_numbers, stirling2

mp.mp.dps = 40
QS = ("0.5", "2", "3")
OUT = Path(__file__).with_name("tsallis_laws.json")


def h(x: int, n: int, q: mp.mpf) -> mp.mpf:
    return mp.mpf(0) if x == 0 else (mp.mpf(x) / n) * (1 - (mp.mpf(x) / n) ** (q - 1)) / (q - 1)


def all_weights(n: int) -> dict[int, mp.mpf]:
    bell = bell_numbers(n)
    return {a: mp.mpf(comb(n, a) * bell[n - a]) / bell[n] for a in range(1, n + 1)}


def num_weights(n: int, k: int) -> dict[int, mp.mpf]:
    total = stirling2(n, k)
    out = {}
    for a in range(1, n - k + 2):
        count = comb(n, a) * stirling2(n - a, k - 1)
        if count:
            out[a] = mp.mpf(count) / total
    return out


def fixed_weights(sizes: list[int]) -> dict[int, mp.mpf]:
    out: dict[int, mp.mpf] = {}
    for a in sizes:
        out[a] = out.get(a, mp.mpf(0)) + 1
    return out


def expected(n: int, wa: dict, wb: dict, q: mp.mpf) -> mp.mpf:
    side = mp.fsum(w * h(a, n, q) for a, w in wa.items()) + mp.fsum(
        w * h(b, n, q) for b, w in wb.items())
    hs = [h(x, n, q) for x in range(n + 1)]
    joint = []
    for a, w_a in wa.items():
        for b, w_b in wb.items():
            lo, hi = max(0, a + b - n), min(a, b)
            e = mp.fsum(comb(b, x) * comb(n - b, a - x) * hs[x] for x in range(lo, hi + 1))
            joint.append(w_a * w_b * e / comb(n, a))
    return side - mp.fsum(joint)


def main() -> None:
    out = []
    for n, k_true, k_pred in ((40, 3, 5), (100, 4, 12)):
        reference = [n // 2, n // 4, n - n // 2 - n // 4]  # the one-sided reference's sizes
        laws = {
            "all": (all_weights(n), all_weights(n)),
            "num": (num_weights(n, k_true), num_weights(n, k_pred)),
            "num one-sided": (fixed_weights(reference), num_weights(n, k_pred)),
            "all one-sided": (fixed_weights(reference), all_weights(n)),
        }
        for name, (wa, wb) in laws.items():
            values = {qs: mp.nstr(expected(n, wa, wb, mp.mpf(qs)), 30) for qs in QS}
            out.append({"n": n, "k_true": k_true, "k_pred": k_pred, "reference": reference,
                        "setting": name, "expected": values})
            print(n, name, values, flush=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
