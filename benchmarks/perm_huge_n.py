#!/usr/bin/env python
"""perm E[MI] from N = 10^6 to 2**63 - 1 (issue #10): time and memory of two Zipf size
sequences, and the error against the 50-digit references of ``tests/reference/``.

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/perm_huge_n.py     # ~1 min; writes benchmarks/PERM_HUGE_N.md

Sizes: K clusters with sizes proportional to 1/k (the last remainder added to the
first), against the same sizes reversed (``reversed``: every size on both sides, so each
unordered pair of sizes is computed once), or against sizes proportional to k^-0.8
(``k^-0.8``: nearly no common sizes, every pair computed). Per case: ``CPU s`` is
``time.process_time`` and ``wall s`` the wall clock of the first call in this process
(single-threaded numpy work: CPU seconds are the criterion on a shared machine); ``peak MB``
the largest memory the call held above what it started with (``tracemalloc``, a second
call). The N <= 3037000499 rows use the routes below the int64 limit.
"""

from __future__ import annotations

import json
import os
import platform
import time
import tracemalloc
from pathlib import Path

import mpmath as mp
import numpy as np

import chanceclust as cc
from chanceclust._expected.size_pairs import pair_information
from chanceclust.expectations import expected_mutual_information_baseline

HERE = Path(__file__).resolve().parent
REFERENCES = HERE.parent / "tests" / "reference"
REFERENCE = REFERENCES / "huge_pair_information.json"


def _pair_references():
    """(file name, [(N, a, b, N I(a, b) as a string)]) for each per-pair reference file."""
    pairs = json.loads(REFERENCE.read_text())["pairs"]
    series = json.loads((REFERENCES / "series_pair_information.json").read_text())
    small = json.loads((REFERENCES / "pair_information.json").read_text())
    for name, rows, key in (
        ("pair_information.json", small, "value"),
        ("huge_pair_information.json", pairs, "n_info"),
        ("series_pair_information.json", series, "n_info"),
    ):
        yield name, [(int(r["n"]), int(r["a"]), int(r["b"]), r[key]) for r in rows]


def _zipf(n: int, k: int, exponent: float = 1.0) -> np.ndarray:
    w = 1.0 / np.arange(1, k + 1) ** exponent
    sizes = np.floor(w / w.sum() * n).astype(np.int64)
    sizes[0] += n - int(sizes.sum(dtype=object))
    return sizes


NS = (10**6, 10**7, 10**8, 10**9, 10**10, 10**11, 10**12, 10**13, 2**63 - 1)


def _measure(n: int, sizes_a: np.ndarray, sizes_b: np.ndarray) -> tuple[float, float, float, float]:
    """(E[MI], CPU seconds, wall seconds, peak MB) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = expected_mutual_information_baseline(n, sizes_true=sizes_a, sizes_pred=sizes_b)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    tracemalloc.start()
    expected_mutual_information_baseline(n, sizes_true=sizes_a, sizes_pred=sizes_b)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return value, cpu, wall, peak


def _costs(cpu: float, wall: float, peak: float) -> tuple[str, str, str]:
    return f"{cpu:.2f}", f"{wall:.2f}", f"{peak:.0f}"


def _add_row(lines: list[str], *cells: str) -> None:
    lines.append("| " + " | ".join(cells) + " |")
    print(lines[-1], flush=True)


def main() -> None:
    lines = [
        "# perm E[MI] from N = 10^6 to 2^63 - 1 (issue #10)",
        "",
        (
            "Command: `python benchmarks/perm_huge_n.py`. Machine: "
            f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"numpy {np.__version__} (shared with other jobs: timings are indicative; CPU "
            "seconds are the criterion)."
        ),
        "",
        "## Two Zipf size sequences (K each)",
        "",
        "| N | K | other side | E[MI] | CPU s | wall s | peak MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in NS:
        for k in (100, 1000):
            sizes = _zipf(n, k)
            for name, other in (("reversed", sizes[::-1].copy()), ("k^-0.8", _zipf(n, k, 0.8))):
                if name == "k^-0.8" and k == 100:
                    continue
                value, *costs = _measure(n, sizes, other)
                _add_row(lines, f"{n:.3g}", str(k), name, f"{value:.10g}", *_costs(*costs))
    lines += [
        "",
        "## The most costly means",
        "",
        "1000 sizes spaced by 3 from `base` against 1000 others (one remainder cluster on each",
        "side): nearly every size pair has the same mean base^2/N. Pairs of mean just below 100",
        "(the least mean the series takes) cost most: their pmf windows are longest.",
        "",
        "| N | base | mean | CPU s | wall s | peak MB |",
        "|---|---|---|---|---|---|",
    ]
    for n, base in ((10**9, 10**5), (10**9, 2 * 10**5), (10**9, 3 * 10**5), (10**12, 10**7)):
        sizes_a = base + 3 * np.arange(1000)
        sizes_b = sizes_a + 1
        sizes_a, sizes_b = (np.r_[s, n - s.sum()] for s in (sizes_a, sizes_b))
        _, *costs = _measure(n, sizes_a, sizes_b)
        _add_row(lines, f"{n:.3g}", f"{base:.0e}", f"{base**2 / n:.0f}", *_costs(*costs))
    lines += [
        "",
        "## Size pairs against 50-digit references",
        "",
        "N I(a, b) = E[bd0(X, ab/N)] per size pair (`pair_information`), worst relative error",
        "over the cases of each N, from the pmf sums (mean ab/N below 100) and the series in",
        "1/mean (from 100).",
        "",
        "| reference file | N | cases | worst rel. error |",
        "|---|---|---|---|",
    ]
    for file, cases in _pair_references():
        by_n: dict[int, list[float]] = {}
        for n, a, b, value in cases:
            got = pair_information(np.array([a]), np.array([b]), n)[0] * n
            by_n.setdefault(n, []).append(abs(got / float(value) - 1))
        for n, errors in sorted(by_n.items()):
            lines.append(f"| {file} | {n:.3g} | {len(errors)} | {max(errors):.1e} |")
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
