#!/usr/bin/env python
"""Reference E[MI_q], Var[MI_q], MI_q and the s_max of each side for the Tsallis family, by
enumeration of every pair of clusterings (N = 5 .. 7; mpmath, independent of chanceclust).

H_q(X) = (1 - sum_i (x_i/N)^q) / (q - 1) (Romano, Vinh, Bailey and Verspoor 2016),
MI_q = H_q(A) + H_q(B) - H_q(A, B). Each side of a comparison is drawn uniformly from its
model's ensemble, independently:

* perm: the set partitions of range(N) with the observed side's multiset of cluster sizes;
* num: the set partitions with the observed side's number of clusters K;
* all: every set partition of range(N).

Every pair (A, B) of the two ensembles is enumerated (up to 877 x 877 pairs at N = 7); MI_q
depends only on the multisets of the row sizes, column sizes and nonzero cells, so the pairs
are grouped by those (exact counts) and E[MI_q], E[MI_q^2] summed over the groups in 40-digit
mpmath. s_max of a side follows the AMI's convention (docs/math.md#math-s-max): the largest
H_q over its ensemble, found by enumeration (perm, all), and under num the largest H_q of a
distribution on K labels, K equal parts of N/K (the paper's log K at q = 1), summed term by
term here (not by the closed form (1 - K^(1-q)) / (q - 1) the library uses).

Run from the repository root: ``python tests/reference/make_tsallis.py`` writes
``tests/reference/tsallis.json`` (about a minute).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import mpmath as mp
from _exact import set_partitions

mp.mp.dps = 40
MODELS = ("perm", "num", "all")
QS = ("0.5", "1.5", "2", "3")
OUT = Path(__file__).with_name("tsallis.json")

CASES = [
    ([0, 0, 1, 1, 2], [0, 1, 1, 0, 0]),
    ([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]),
    ([0, 0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 2, 0]),
    ([0, 0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 1, 2, 3]),
]


def sizes(labels: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(sorted(Counter(labels).values()))


def ensemble(labels: list[int], model: str, partitions: list[tuple[int, ...]]) -> list:
    """The partitions of the model's ensemble for a side observed as ``labels``."""
    if model == "perm":
        return [p for p in partitions if sizes(p) == sizes(labels)]
    if model == "num":
        return [p for p in partitions if len(set(p)) == len(set(labels))]
    return partitions


def s_max(labels: list[int], model: str, members: list, n: int, q: mp.mpf) -> str:
    if model == "num":
        k = len(set(labels))
        value = h_q((mp.mpf(n) / k,) * k, n, q)
    else:
        value = max(h_q(sizes(p), n, q) for p in members)
    return mp.nstr(value, 30)


def h_q(parts: tuple, n: int, q: mp.mpf) -> mp.mpf:
    return (1 - mp.fsum((mp.mpf(x) / n) ** q for x in parts)) / (q - 1)


def mi_q(key: tuple, n: int, q: mp.mpf) -> mp.mpf:
    a, b, cells = key
    return h_q(a, n, q) + h_q(b, n, q) - h_q(cells, n, q)


def grouped_pairs(first: list, second: list) -> Counter:
    """{(sizes A, sizes B, sorted cells): number of pairs} over every pair of the ensembles."""
    groups: Counter = Counter()
    sized_b = [(p, sizes(p)) for p in second]
    for pa in first:
        sa = sizes(pa)
        for pb, sb in sized_b:
            groups[(sa, sb, tuple(sorted(Counter(zip(pa, pb, strict=True)).values())))] += 1
    return groups


def main() -> None:
    out = []
    for labels_true, labels_pred in CASES:
        n = len(labels_true)
        partitions = list(set_partitions(n))
        observed = (
            sizes(labels_true), sizes(labels_pred),
            tuple(sorted(Counter(zip(labels_true, labels_pred, strict=True)).values())),
        )
        for true_model in MODELS:
            for pred_model in MODELS:
                first = ensemble(labels_true, true_model, partitions)
                second = ensemble(labels_pred, pred_model, partitions)
                groups = grouped_pairs(first, second)
                total = sum(groups.values())
                values = {}
                for qs in QS:
                    q = mp.mpf(qs)
                    mean = mp.fsum(c * mi_q(k, n, q) for k, c in groups.items()) / total
                    second_moment = mp.fsum(c * mi_q(k, n, q) ** 2 for k, c in groups.items()) / total
                    values[qs] = {
                        "mi": mp.nstr(mi_q(observed, n, q), 30),
                        "expected": mp.nstr(mean, 30),
                        "variance": mp.nstr(second_moment - mean**2, 30),
                        "s_max_true": s_max(labels_true, true_model, first, n, q),
                        "s_max_pred": s_max(labels_pred, pred_model, second, n, q),
                    }
                out.append({"labels_true": labels_true, "labels_pred": labels_pred,
                            "true": true_model, "pred": pred_model, "values": values})
        print(n, "done", flush=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
