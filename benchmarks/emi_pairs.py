#!/usr/bin/env python
"""perm E[MI] over many size pairs (issue #23): ours against the table build and a bincount.

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/emi_pairs.py [--rounds 3]      # ~2 min on 2 cores

Cases (labels from fixed seeds, numpy only):

* ``stair``: all-distinct sizes 1 .. 4471 on both sides (N = 9,997,156; 2x10^7 size pairs);
* ``dirichlet``: K = 10^4 labels a side, sizes multinomial(10^7, Dirichlet(0.5));
* ``uniform``: K = 10^4 labels a side drawn uniformly, N = 10^7;
* ``worst``: E[MI] alone, 1000 sizes 3e5 + 3j against 1000 sizes 3e5 + 3j + 1 (plus one
  remainder cluster a side), N = 10^9: 10^6 distinct size pairs of mean ~90 (the costliest
  means of ``benchmarks/perm_huge_n.py``).

Per case and round, one after the other in this process: ``ami`` = the perm AMI from the
labels (table, MI, E[MI]); ``emi`` = E[MI] alone from the two size sequences
(``expected_mutual_information_baseline``); ``table`` = ``contingency_table`` of the labels
(the sparse table: the pass every AMI needs); ``bincount`` = ``numpy.bincount`` of
``a * K_B + b`` (the floor of one pass over the labels). CPU seconds by
``time.process_time`` (the median over the rounds); ``peak MiB`` = tracemalloc's peak of one
more call of ``emi`` (numpy's arrays are traced).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import tracemalloc

import numpy as np

import chanceclust as cc

N = 10**7


def _labels_from_sizes(sizes: np.ndarray, seed: int) -> np.ndarray:
    labels = np.repeat(np.arange(len(sizes)), sizes)
    np.random.default_rng(seed).shuffle(labels)
    return labels


def _dirichlet_sizes(seed: int, k: int = 10**4) -> np.ndarray:
    p = np.random.default_rng(seed).dirichlet(np.full(k, 0.5))
    return np.random.default_rng(seed + 1).multinomial(N, p)


def _cases():
    stair = np.arange(1, 4472)
    yield "stair", _labels_from_sizes(stair, 1), _labels_from_sizes(stair, 2)
    yield (
        "dirichlet",
        _labels_from_sizes(_dirichlet_sizes(1), 3),
        _labels_from_sizes(_dirichlet_sizes(3), 4),
    )
    rng = np.random.default_rng(5)
    yield "uniform", rng.integers(0, 10**4, N), rng.integers(0, 10**4, N)


def _worst_sizes() -> tuple[int, np.ndarray, np.ndarray]:
    n, base = 10**9, 3 * 10**5
    sizes_a = base + 3 * np.arange(1000)
    sizes_b = sizes_a + 1
    sizes_a, sizes_b = (np.r_[s, n - s.sum()] for s in (sizes_a, sizes_b))
    return n, sizes_a, sizes_b


def _cpu(call) -> tuple[float, object]:
    start = time.process_time()
    value = call()
    return time.process_time() - start, value


def _peak_mib(call) -> float:
    tracemalloc.start()
    call()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return peak


def _calls(a, b, n, k_b, sizes_a, sizes_b) -> dict:
    return {
        "ami": lambda: cc.adjusted_mutual_information(a, b, model="perm"),
        "emi": lambda: cc.expected_mutual_information_baseline(
            n, sizes_true=sizes_a, sizes_pred=sizes_b
        ),
        "table": lambda: cc.contingency_table(a, b),
        "bincount": lambda: np.bincount(a * k_b + b),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numpy {np.__version__}; median of {rounds} paired rounds, CPU s."
    )
    print()
    print("| case | ami | emi | table | bincount | ami / table | emi peak MiB | E[MI] |")
    print("|---|---|---|---|---|---|---|---|")
    for name, a, b in _cases():
        sizes_a, sizes_b = np.bincount(a), np.bincount(b)
        sizes_a, sizes_b = sizes_a[sizes_a > 0], sizes_b[sizes_b > 0]
        n = len(a)
        k_b = int(b.max()) + 1
        times: dict[str, list[float]] = {"ami": [], "emi": [], "table": [], "bincount": []}
        calls = _calls(a, b, n, k_b, sizes_a, sizes_b)
        value = None
        for _ in range(rounds):
            for key, call in calls.items():
                seconds, result = _cpu(call)
                times[key].append(seconds)
                if key == "emi":
                    value = result
        med = {key: statistics.median(v) for key, v in times.items()}
        peak = _peak_mib(calls["emi"])
        print(
            f"| {name} | {med['ami']:.2f} | {med['emi']:.2f} | {med['table']:.2f} | "
            f"{med['bincount']:.2f} | {med['ami'] / med['table']:.1f} | {peak:.0f} | {value:.16g} |",
            flush=True,
        )
    n, sizes_a, sizes_b = _worst_sizes()
    seconds = []
    for _ in range(rounds):
        cpu, value = _cpu(
            lambda: cc.expected_mutual_information_baseline(
                n, sizes_true=sizes_a, sizes_pred=sizes_b
            )
        )
        seconds.append(cpu)
    peak = _peak_mib(
        lambda: cc.expected_mutual_information_baseline(n, sizes_true=sizes_a, sizes_pred=sizes_b)
    )
    print(
        f"| worst (10^6 pairs, mean ~90, N = 10^9) | - | {statistics.median(seconds):.2f} | - | - | - | "
        f"{peak:.0f} | {value:.16g} |"
    )


if __name__ == "__main__":
    main()
