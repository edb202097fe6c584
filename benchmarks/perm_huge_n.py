#!/usr/bin/env python
"""perm E[MI] beyond N = 3037000499 (issue #10): time of two Zipf size sequences, and the error
of the tables of ``tests/reference/huge_pair_information.json``.

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/perm_huge_n.py     # ~1 min; writes benchmarks/PERM_HUGE_N.md

Sizes: K clusters with sizes proportional to 1/k (the last remainder added to the
first), against the same sizes reversed; ``seconds`` is one call in this process
(wall clock, first call). The N = 10^9 rows use the routes below the int64 limit.
"""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path

import mpmath as mp
import numpy as np

import chanceclust as cc
from chanceclust.expectations import expected_mutual_information_baseline

HERE = Path(__file__).resolve().parent
REFERENCE = HERE.parent / "tests" / "reference" / "huge_pair_information.json"


def _zipf(n: int, k: int) -> np.ndarray:
    w = 1.0 / np.arange(1, k + 1)
    sizes = np.floor(w / w.sum() * n).astype(np.int64)
    sizes[0] += n - int(sizes.sum(dtype=object))
    return sizes


def main() -> None:
    lines = [
        "# perm E[MI] at huge N (issue #10)",
        "",
        (
            "Command: `python benchmarks/perm_huge_n.py`. Machine: "
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"numpy {np.__version__} (shared with other jobs: timings are indicative)."
        ),
        "",
        "## Two Zipf size sequences (K each)",
        "",
        "| N | K | E[MI] | seconds |",
        "|---|---|---|---|",
    ]
    for n in (10**9, 10**10, 10**13, 2**63 - 1):
        for k in (100, 1000):
            sizes = _zipf(n, k)
            start = time.perf_counter()
            value = expected_mutual_information_baseline(
                n, sizes_true=sizes, sizes_pred=sizes[::-1].copy()
            )
            seconds = time.perf_counter() - start
            lines.append(f"| {n:.3g} | {k} | {value:.10g} | {seconds:.2f} |")
    lines += [
        "",
        "## Tables against 50-digit references",
        "",
        "| table | N | E[MI] rel. error | AMI rel. error |",
        "|---|---|---|---|",
    ]
    for name, case in json.loads(REFERENCE.read_text())["tables"].items():
        table = np.array([[int(x) for x in row] for row in case["table"]], dtype=object)
        e = cc.expected_mutual_information(contingency=table, model="perm")
        ami = cc.adjusted_mutual_information(contingency=table)
        err_e = abs(e / float(mp.mpf(case["expected_mutual_information"])) - 1)
        err_a = abs(ami / float(mp.mpf(case["adjusted_mutual_information"])) - 1)
        lines.append(f"| {name} | {int(table.sum()):.3g} | {err_e:.1e} | {err_a:.1e} |")
    (HERE / "PERM_HUGE_N.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
