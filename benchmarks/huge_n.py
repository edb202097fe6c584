#!/usr/bin/env python
"""Expectations and Var[RI] at huge N: time, peak memory and error against the references (#10).

Run from the repository root with chanceclust importable (``pip install -e .`` or
``PYTHONPATH=src``)::

    python benchmarks/huge_n.py            # ~1 min; writes benchmarks/HUGE_N.md

Every expectation from summaries of ``tests/reference/huge_expectations.json``
(N = 10^6 .. 2^63 - 1) runs in a fresh subprocess: ``seconds`` is its first
call (lazy set-up and cold caches count), ``peak MB`` the growth of the
process's peak resident memory during that call. Errors are relative to the
50-digit references. The variance table gives the worst relative error of
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

WORKER = r"""
import json, resource, sys, time
import numpy as np
import chanceclust
from chanceclust import expected_mutual_information_baseline as emi
from chanceclust import expected_rand_index_baseline as eri
n, sizes, quantity = json.loads(sys.argv[1])
model, kind, side = quantity.split("_", 2)
kw = {"model": model}
if side == "one_sided":
    kw.update(one_sided=True, sizes_true=sizes)
    if model == "num":
        kw["n_clusters_pred"] = 7
elif model == "num":
    kw.update(n_clusters_true=3, n_clusters_pred=1000)
func = eri if kind == "rand" else emi
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
value = func(n, **kw)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps([repr(value), seconds, peak / 1024]))
"""


def expectations() -> list[str]:
    import mpmath as mp

    mp.mp.dps = 50
    cases = json.loads((REFERENCE / "huge_expectations.json").read_text())["cases"]
    quantities = [k for k in cases[0] if k.startswith(("all_", "num_"))]
    lines = [
        "| N | quantity | value | rel. error | seconds | peak MB |",
        "|---|---|---|---|---|---|",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    largest = 2**63 - 1  # no 50-digit reference there: time and memory only
    cases = [*cases, {"n": largest, "sizes_true": [largest // 3, largest - largest // 3]}]
    for case in cases:
        for quantity in quantities:
            arg = json.dumps([case["n"], case["sizes_true"], quantity])
            out = subprocess.run(
                [sys.executable, "-c", WORKER, arg],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            ).stdout
            value, seconds, peak = json.loads(out)
            error = (
                f"{float(abs(mp.mpf(value) / mp.mpf(case[quantity]) - 1)):.1e}"
                if quantity in case
                else "no ref."
            )
            lines.append(
                f"| {case['n']:.3g} | {quantity} | {float(value):.10g} | "
                f"{error} | {seconds:.3f} | {peak:.1f} |"
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
            "## Expectations from summaries (fresh process per call; all: two-sided, or "
            "one-sided with sizes_true = (N//3, N - N//3); num: K = 3 x 1000 two-sided, "
            "K_B = 7 one-sided)"
        ),
        "",
    ]
    body = [*expectations(), "", "## Var[RI] and z from tables (tests/reference/variance.json)", ""]
    body += variances()
    (Path(__file__).parent / "HUGE_N.md").write_text("\n".join(header + body) + "\n")
    print("\n".join(header + body))


if __name__ == "__main__":
    main()
