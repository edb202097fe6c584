#!/usr/bin/env python
"""Expectations and Var[RI] at huge N: time, peak memory and error against the references (#10).

Run from the repository root with chanceclust importable (``pip install -e .`` or
``PYTHONPATH=src``)::

    python benchmarks/huge_n.py            # ~1 min; writes benchmarks/HUGE_N.md

Every expectation from summaries of ``tests/reference/huge_expectations.json``
(N = 10^6 .. 2^63 - 1) against its 50-digit reference: the worst relative
error per family and N. At N = 2^63 - 1 each family also runs in a fresh
subprocess: ``CPU s`` is ``time.process_time`` of its first call (lazy
set-up and cold caches count), ``peak RSS MB`` the process's peak resident
memory (Python, numpy and chanceclust included), ``growth MB`` its growth
during the call and ``traced MB`` the peak of the call's own allocations
(tracemalloc, numpy arrays included). The variance table gives the worst relative error of
Var[RI] and of z over the tables of ``tests/reference/variance.json`` at each N.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "reference"

sys.path.insert(0, str(ROOT / "tests"))
from reference._huge_keys import baseline_arguments

LARGEST = 2**63 - 1

WORKER = r"""
import json, resource, sys, time, tracemalloc
sys.path.insert(0, sys.argv[2])
from reference._huge_keys import baseline_arguments
from chanceclust import expected_mutual_information_baseline as emi
from chanceclust import expected_rand_index_baseline as eri
n, sizes, name = json.loads(sys.argv[1])
kind, kwargs = baseline_arguments(n, sizes, name)
func = eri if kind == "rand" else emi
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
start = time.process_time()
value = func(**kwargs)
seconds = time.process_time() - start
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps([repr(value), seconds, peak / 1024, (peak - before) / 1024, traced / 2**20]))
"""


def _library(n: int, sizes: list[int], name: str) -> float:
    from chanceclust import expected_mutual_information_baseline, expected_rand_index_baseline

    kind, kwargs = baseline_arguments(n, sizes, name)
    func = expected_rand_index_baseline if kind == "rand" else expected_mutual_information_baseline
    return func(**kwargs)


def _family(name: str) -> tuple[str, str]:
    """(family, K) of a key: e.g. ("num E[MI] two-sided", "3 x 1000")."""
    model, kind, side, _, *ks = name.split("_")
    family = f"{model} {'E[RI]' if kind == 'rand' else 'E[MI]'} {side}-sided"
    return family, " x ".join(ks)


def errors() -> list[str]:
    """Worst relative error per family and N over its K (every reference, one process)."""
    import mpmath as mp

    mp.mp.dps = 50
    sys.path.insert(0, str(ROOT / "src"))
    cases = json.loads((REFERENCE / "huge_expectations.json").read_text())["cases"]
    lines = ["| N | family | worst rel. error | at K |", "|---|---|---|---|"]
    for case in cases:
        worst: dict[str, tuple[float, str]] = {}
        for name, reference in case["values"].items():
            value = _library(case["n"], case["sizes_true"], name)
            error = float(abs(mp.mpf(value) / mp.mpf(reference) - 1))
            family, ks = _family(name)
            if error >= worst.get(family, (-1.0, ""))[0]:
                worst[family] = (error, ks)
        n = "2^63 - 1" if case["n"] == LARGEST else f"{case['n']:.0e}"
        for family, (error, ks) in worst.items():
            lines.append(f"| {n} | {family} | {error:.1e} | {ks or '-'} |")
    return lines


def largest_n() -> list[str]:
    """Every family at N = 2^63 - 1 in a fresh process: CPU seconds and peak memory."""
    import mpmath as mp

    mp.mp.dps = 50
    case = next(
        c
        for c in json.loads((REFERENCE / "huge_expectations.json").read_text())["cases"]
        if c["n"] == LARGEST
    )
    lines = [
        "| quantity | value | rel. error | CPU s | peak RSS MB | growth MB | traced MB |",
        "|---|---|---|---|---|---|---|",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    for name, reference in case["values"].items():
        arg = json.dumps([case["n"], case["sizes_true"], name])
        out = subprocess.run(
            [sys.executable, "-c", WORKER, arg, str(ROOT / "tests")],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        value, seconds, peak, growth, traced = json.loads(out)
        error = float(abs(mp.mpf(value) / mp.mpf(reference) - 1))
        lines.append(
            f"| {name} | {float(value):.10g} | {error:.1e} | {seconds:.3f} | {peak:.0f} "
            f"| {growth:.1f} | {traced:.2f} |"
        )
    return lines


def variances() -> list[str]:
    import mpmath as mp
    import numpy as np

    sys.path.insert(0, str(ROOT / "src"))
    from chanceclust.variance import rand_index_variance, standardized_rand_index

    worst: dict[tuple, list[float]] = {}
    for table in json.loads((REFERENCE / "variance.json").read_text())["cases"]:
        counts = np.array(
            [[v for v, c in row for _ in range(c)] for row in table["table_rle"]], dtype=np.int64
        )
        for result in table["results"]:
            kw = {"contingency": counts, "model": result["model"], "one_sided": result["one_sided"]}
            errors = []
            for func, key in ((rand_index_variance, "variance"), (standardized_rand_index, "z")):
                ref = mp.mpf(result[key])
                got = func(**kw)
                errors.append(float(abs(got / ref - 1)) if ref else abs(got))
            side = "one-sided" if result["one_sided"] else "two-sided"
            key = (table["n"], result["model"], side)
            old = worst.get(key, [0.0, 0.0])
            worst[key] = [max(a, b) for a, b in zip(old, errors, strict=True)]
    lines = ["| N | model | side | worst Var[RI] error | worst z error |", "|---|---|---|---|---|"]
    for (n, model, side), (ev, ez) in sorted(worst.items()):
        lines.append(f"| {n:.3g} | {model} | {side} | {ev:.1e} | {ez:.1e} |")
    return lines


def main() -> None:
    import numpy as np

    header = [
        "# Huge N: expectations from summaries and Var[RI] (issue #10)",
        "",
        (
            "Command: `python benchmarks/huge_n.py`. Machine: "
            f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, numpy {np.__version__}."
        ),
        "",
        (
            "## Expectations from summaries: worst relative error against the 50-digit "
            "references (tests/reference/huge_expectations.json) per family and N, over "
            "its K (num two-sided K_A x K_B: 2 x 2, 3 x 1000, 1000 x N//45, N//45 x N//45, "
            "2 x (N - 1), and with small clusters 3 x N//10 at 10^6, 3 x N//17 at 10^9; "
            "one-sided K_B = 2, 7, 10^6, N//45 and N//10 at 10^6, N//17 at 10^9; one-sided "
            "references sizes_true = (N//3, N - N//3))"
        ),
        "",
    ]
    body = [
        *errors(),
        "",
        (
            "## Every family at N = 2^63 - 1 (fresh process each; time.process_time of the "
            "call; the process's peak resident memory, its growth during the call, and the "
            "peak of the call's own allocations by tracemalloc)"
        ),
        "",
        *largest_n(),
        "",
        "## Var[RI] and z from tables (tests/reference/variance.json)",
        "",
    ]
    body += variances()
    (Path(__file__).parent / "HUGE_N.md").write_text("\n".join(header + body) + "\n")
    print("\n".join(header + body))


if __name__ == "__main__":
    main()
