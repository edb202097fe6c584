#!/usr/bin/env python
"""num with small clusters at K = 10^6 .. 2^62: time, peak memory and error against references (#10).

Run from the repository root with chanceclust importable (``pip install -e .`` or
``PYTHONPATH=src``)::

    python benchmarks/num_huge_k.py        # ~1 min; writes benchmarks/NUM_HUGE_K.md

For every case of ``tests/reference/huge_num_laws.json`` (N, K with mean
cluster size N/K from 1.05 to about log K + 2) each quantity runs in a fresh
subprocess: ``seconds`` is its first call (lazy set-up and cold caches
count), ``peak MB`` the growth of the process's peak resident memory during
that call. Errors are relative to the mpmath Fourier-inversion references.
Quantities: E[RI] and E[MI] one-sided against the fixed reference
(N//3, N - N//3) with num(K) predicted; E[RI] two-sided num(K) x num(K);
E[MI] two-sided num(K) x num(7); ``p1``: ``same_cluster_probability``.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "reference" / "huge_num_laws.json"

WORKER = r"""
import json, resource, sys, time
import chanceclust as cc
n, k, quantity = json.loads(sys.argv[1])
reference = [n // 3, n - n // 3]
calls = {
    "rand_one_sided": lambda: cc.expected_rand_index_baseline(
        n, model="num", one_sided=True, sizes_true=reference, n_clusters_pred=k),
    "rand_two_sided": lambda: cc.expected_rand_index_baseline(
        n, model="num", n_clusters_true=k, n_clusters_pred=k),
    "mi_one_sided": lambda: cc.expected_mutual_information_baseline(
        n, model="num", one_sided=True, sizes_true=reference, n_clusters_pred=k),
    "mi_two_sided_k7": lambda: cc.expected_mutual_information_baseline(
        n, model="num", n_clusters_true=k, n_clusters_pred=7),
    "p1": lambda: cc.same_cluster_probability(n, model="num", n_clusters=k),
}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
value = calls[quantity]()
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps([repr(value), seconds, peak / 1024]))
"""

QUANTITIES = ("p1", "rand_one_sided", "rand_two_sided", "mi_one_sided", "mi_two_sided_k7")


def rows() -> list[str]:
    import mpmath as mp

    mp.mp.dps = 40
    lines = [
        "| N | K | quantity | value | rel. error | seconds | peak MB |",
        "|---|---|---|---|---|---|---|",
    ]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    for case in json.loads(REFERENCE.read_text())["cases"]:
        n, k = case["n"], case["k"]
        for quantity in QUANTITIES:
            out = subprocess.run(
                [sys.executable, "-c", WORKER, json.dumps([n, k, quantity])],
                capture_output=True, text=True, check=True, env=env,
            ).stdout
            value, seconds, peak = json.loads(out)
            want = mp.mpf(case[quantity])
            error = float(abs(mp.mpf(value) - want) / abs(want))
            lines.append(
                f"| {n:.4g} | {k:.4g} | {quantity} | {float(value):.10g} | {error:.1e} "
                f"| {seconds:.3f} | {peak:.1f} |"
            )
    return lines


def main() -> None:
    import numpy as np

    header = [
        "# num with small clusters at K = 10^6 .. 2^62 (issue #10)",
        "",
        (
            "Command: `python benchmarks/num_huge_k.py`. Machine: "
            f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, numpy {np.__version__} "
            "(timings indicative where the machine is shared)."
        ),
        "",
        (
            "Fresh process per call. References: `tests/reference/huge_num_laws.json` "
            "(mpmath Fourier inversion). One-sided: fixed reference (N//3, N - N//3) against "
            "num(K); two-sided: num(K) x num(K) for E[RI], num(K) x num(7) for E[MI]."
        ),
        "",
    ]
    text = "\n".join(header + rows()) + "\n"
    (Path(__file__).parent / "NUM_HUGE_K.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
