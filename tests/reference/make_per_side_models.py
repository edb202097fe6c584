#!/usr/bin/env python
"""Reference E[RI], Var[RI], E[MI] and Var[MI] with a different random model on each side,
by enumeration of every pair of clusterings (N = 4 .. 7; numpy, Fraction and mpmath).

Independent of chanceclust. The model of ``labels_true``'s side draws A, that of
``labels_pred``'s side draws B, independently and uniformly from its ensemble:

* perm: the set partitions of range(N) with the observed side's multiset of cluster sizes;
* num: the set partitions with the observed side's number of clusters K;
* all: every set partition of range(N).

Every pair (A, B) of the two ensembles is enumerated (up to 877 x 301 pairs at N = 7) and
its contingency table counted. RI = 1 - (Q_A + Q_B - 2 N11) / P with P = C(N, 2), Q the
co-clustered pairs of a side and N11 those of both: exact integers per pair, so E[RI] and
Var[RI] are exact Fractions. MI = (1/N) sum_cells n log(N n / (a b)) depends on the multiset
of the nonzero cells' (n, a, b): the pairs are grouped by that multiset (exact counts), and
E[MI], E[MI^2] and Var[MI] = E[MI^2] - E[MI]^2 are summed over the groups in 50-digit mpmath.
The observed RI and MI of the two labelings are stored too, for the standardized values.

Run from the repository root: ``python tests/reference/make_per_side_models.py`` writes
``tests/reference/per_side_models.json`` (about a minute).
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import numpy as np
from _exact import set_partitions

mp.mp.dps = 50
MODELS = ("perm", "num", "all")
OUT = Path(__file__).with_name("per_side_models.json")


def labelings(n: int) -> tuple[list[int], list[int]]:
    """The observed pair: labels_true with sizes (2, 2, N - 4), labels_pred alternating."""
    return [min(i // 2, 2) for i in range(n)], [i % 2 for i in range(n)]


def ensemble(parts: np.ndarray, model: str, labels: list[int]) -> np.ndarray:
    """The rows of ``parts`` (every set partition) that the model draws from, uniformly."""
    shape = sorted(np.bincount(labels).tolist())
    if model == "all":
        return parts
    ks = parts.max(axis=1) + 1
    if model == "num":
        return parts[ks == len(shape)]
    keep = [sorted(np.bincount(row).tolist()) == shape for row in parts]
    return parts[np.array(keep)]


def pair_values(n: int, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair (A, B): the integer P (1 - RI), and the sorted ids of its cells' (n, a, b)."""
    ka, kb = int(a.max()) + 1, int(b.max()) + 1
    one_a = (a[:, :, None] == np.arange(ka)).astype(np.int32)  # (|A|, N, KA)
    one_b = (b[:, :, None] == np.arange(kb)).astype(np.int32)
    cells = np.einsum("ina,jnb->ijab", one_a, one_b)  # (|A|, |B|, KA, KB)
    rows = one_a.sum(axis=1)  # (|A|, KA)
    cols = one_b.sum(axis=1)
    pairs2 = lambda x: x * (x - 1) // 2  # noqa: E731
    q_a = pairs2(rows).sum(axis=1).astype(np.int64)
    q_b = pairs2(cols).sum(axis=1).astype(np.int64)
    n11 = pairs2(cells).sum(axis=(2, 3)).astype(np.int64)
    discord = q_a[:, None] + q_b[None, :] - 2 * n11  # P (1 - RI)
    base = n + 1
    ids = cells + base * (rows[:, None, :, None] + base * cols[None, :, None, :])
    ids = np.where(cells > 0, ids, 0).reshape(len(a), len(b), ka * kb)
    return discord.ravel(), np.sort(ids.reshape(len(a) * len(b), -1), axis=1)


def mi_of(n: int, ids: np.ndarray) -> mp.mpf:
    base = n + 1
    total = mp.mpf(0)
    for cell in ids.tolist():
        if cell:
            count, a, b = cell % base, (cell // base) % base, cell // base // base
            total += count * mp.log(mp.mpf(n * count) / (a * b))
    return total / n


def case(n: int, parts: np.ndarray, true_model: str, pred_model: str) -> dict:
    labels_true, labels_pred = labelings(n)
    a = ensemble(parts, true_model, labels_true)
    b = ensemble(parts, pred_model, labels_pred)
    discord, ids = pair_values(n, a, b)
    pairs = n * (n - 1) // 2
    m = len(discord)
    mean_discord = Fraction(int(discord.sum()), m)
    second = Fraction(int((discord * discord).sum()), m)
    expected_ri = 1 - mean_discord / pairs
    variance_ri = (second - mean_discord**2) / pairs**2
    groups, counts = np.unique(ids, axis=0, return_counts=True)
    mi = [mi_of(n, g) for g in groups]
    e_mi = mp.fsum(c * v for c, v in zip(counts.tolist(), mi, strict=True)) / m
    e_mi2 = mp.fsum(c * v * v for c, v in zip(counts.tolist(), mi, strict=True)) / m
    observed_discord, observed_ids = pair_values(
        n, np.array([labels_true]), np.array([labels_pred])
    )
    return {
        "n": n,
        "labels_true": labels_true,
        "labels_pred": labels_pred,
        "model_true": true_model,
        "model_pred": pred_model,
        "pairs_enumerated": m,
        "expected_ri": str(expected_ri),
        "variance_ri": str(variance_ri),
        "observed_ri": str(1 - Fraction(int(observed_discord[0]), pairs)),
        "expected_mi": mp.nstr(e_mi, 40),
        "variance_mi": mp.nstr(e_mi2 - e_mi**2, 40),
        "observed_mi": mp.nstr(mi_of(n, observed_ids[0]), 40),
    }


def main() -> None:
    cases = []
    for n in range(4, 8):
        parts = np.array(list(set_partitions(n)), dtype=np.int64)
        for true_model, pred_model in itertools.permutations(MODELS, 2):
            cases.append(case(n, parts, true_model, pred_model))
            print(n, true_model, pred_model, cases[-1]["pairs_enumerated"], flush=True)
    OUT.write_text(json.dumps({"generator": Path(__file__).name, "cases": cases}, indent=1)
                   + "\n")


if __name__ == "__main__":
    main()
