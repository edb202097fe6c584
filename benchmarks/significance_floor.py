#!/usr/bin/env python
"""significance_test against its floor (issue #23): CPU seconds and peak memory, paired.

Run from the repository root with chanceclust importable (``PYTHONPATH=src``)::

    python benchmarks/significance_floor.py                 # ~5 min on 2 loaded cores
    python benchmarks/significance_floor.py --n 1e4 --rounds 3 --output -   # a subset
    python benchmarks/significance_floor.py --sklearn       # also sklearn-style loops

Each case ``significance_test(measure, a, b, model=..., n_resamples=R, rng=0)`` runs in
its own subprocess against the **floor**: R times (``rng.permutation`` of the labels + one
``np.bincount`` of the combined codes ``a * K + b'``), the least any permutation test of
a table-based measure does per sample. With ``--sklearn``, also a scikit-learn-style loop
(R times permutation + ``sklearn.metrics`` score; timed on min(R, 20) samples and
scaled to R). Inputs: ``a`` K equal-sized clusters in random order, ``b`` a noisy copy
(30 % of the labels redrawn), seed 0. Models: perm for "ami", "ari", "mi" (two-sided;
for named measures it samples one side, as one-sided does) and num and all, one-sided,
for "ami".

``where`` splits one more call of ours by cProfile (shares only): the draws
(``draw_rows``), the tables (``_batch_tables``: ``_tables.count_rows`` and the margins) and
the measure (``_Batch.mi``: MI's deviances, or the pair counts).

Timing: ``time.process_time`` of one call, ours and the floor one right after the other
in each of ``--rounds`` paired rounds; the tables show medians. Memory: the process's
peak resident set (Linux VmHWM, reset by ``/proc/self/clear_refs`` before each call)
above the resident set before the call, the largest over the rounds.
The report is written to ``benchmarks/SIGNIFICANCE_FLOOR.md`` (or ``--output``; ``-`` prints it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _status(key: str) -> int:
    """A field of /proc/self/status in KiB (0 where there is none)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _measured(fn):
    """(CPU seconds, peak extra MiB) of one call of fn."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM to the current resident set
    except OSError:
        pass
    rss0 = _status("VmRSS")
    t0 = time.process_time()
    fn()
    cpu = time.process_time() - t0
    return cpu, max(0, _status("VmHWM") - rss0) / 1024


def _inputs(n: int, k: int):
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.permutation(np.arange(n) % k)
    b = a.copy()
    noisy = rng.random(n) < 0.3
    b[noisy] = rng.integers(0, k, size=int(noisy.sum()))
    return a, b


def run_case(case: dict) -> dict:
    """Runs in the subprocess: paired rounds of ours and the floor (and sklearn)."""
    import numpy as np

    from chanceclust import significance_test

    n, k, r = case["n"], case["k"], case["r"]
    a, b = _inputs(n, k)
    kb = int(b.max()) + 1

    def ours():
        significance_test(case["measure"], a, b, model=case["model"],
                          one_sided=case["one_sided"], n_resamples=r, rng=0)  # fmt: skip

    def floor():
        rng = np.random.default_rng(0)
        codes = a.astype(np.int64) * kb
        for _ in range(r):
            np.bincount(codes + rng.permutation(b), minlength=k * kb)

    sides = {"ours": ours, "floor": floor}
    if case.get("sklearn"):
        from sklearn import metrics

        score = {"ami": metrics.adjusted_mutual_info_score, "ari": metrics.adjusted_rand_score,
                 "mi": metrics.mutual_info_score}[case["measure"]]  # fmt: skip
        r_sk = min(r, 20)

        def sklearn_loop():
            rng = np.random.default_rng(0)
            for _ in range(r_sk):
                score(a, rng.permutation(b))

        sides["sklearn"] = sklearn_loop
    ours()  # warm: imports and lazy set-up outside the timings
    where = _where(ours)
    out: dict = {name: {"cpu": [], "peak": []} for name in sides}
    for _ in range(case["rounds"]):
        for name, fn in sides.items():
            cpu, peak = _measured(fn)
            if name == "sklearn":
                cpu *= r / min(r, 20)
            out[name]["cpu"].append(cpu)
            out[name]["peak"].append(peak)
    out["where"] = where
    return out


def _where(fn) -> str:
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    fn()
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(v[2] for v in stats.values())

    def cum(name):
        return sum(v[3] for (path, _, func), v in stats.items()
                   if func == name and "chanceclust" in path)  # fmt: skip

    parts = {"draws": cum("draw_rows"), "tables": cum("_batch_tables"),
             "measure": cum("mi") + cum("pair_counts")}  # fmt: skip
    return ", ".join(f"{k} {v / total:.0%}" for k, v in parts.items() if v)


CASES = [("ami", "perm", False), ("ari", "perm", False), ("mi", "perm", False),
         ("ami", "num", True), ("ami", "all", True)]  # fmt: skip


def _resamples(n: int) -> int:
    return max(20, min(1000, int(4e6 // n)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", action="append", type=float, help="N (repeatable)")
    parser.add_argument("--k", action="append", type=int, help="K (repeatable)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", action="append", help="measure/model, e.g. ami/perm")
    parser.add_argument("--sklearn", action="store_true")
    parser.add_argument("--output", default=str(HERE / "SIGNIFICANCE_FLOOR.md"))
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(json.loads(args.case))))
        return
    ns = [int(v) for v in (args.n or [1e4, 1e5])]
    ks = args.k or [10, 1000]
    rows = []
    for n in ns:
        for k in ks:
            for measure, model, one_sided in CASES:
                if args.only and f"{measure}/{model}" not in args.only:
                    continue
                case = {"n": n, "k": k, "r": _resamples(n), "measure": measure, "model": model,
                        "one_sided": one_sided, "rounds": args.rounds,
                        "sklearn": args.sklearn and model == "perm" and k <= 10}  # fmt: skip
                done = subprocess.run([sys.executable, __file__, "--case", json.dumps(case)],
                                      capture_output=True, text=True, check=True)  # fmt: skip
                result = json.loads(done.stdout)
                rows.append((case, result))
                print(_row(case, result), flush=True)
    report = _report(rows, args)
    if args.output == "-":
        print(report)
    else:
        Path(args.output).write_text(report)


def _row(case: dict, result: dict) -> str:
    ours = statistics.median(result["ours"]["cpu"])
    floor = statistics.median(result["floor"]["cpu"])
    sk = result.get("sklearn")
    sk_cell = f"{statistics.median(sk['cpu']):.3f}" if sk else "-"
    side = "one" if case["one_sided"] else "two"
    return (f"| {case['measure']} | {case['model']} ({side}) | {case['n']:.0e} | {case['k']} "
            f"| {case['r']} | {ours:.3f} | {floor:.3f} | **{ours / floor:.2f}x** | {sk_cell} "
            f"| {max(result['ours']['peak']):.1f} | {max(result['floor']['peak']):.1f} "
            f"| {result['where']} |")  # fmt: skip


def _report(rows, args) -> str:
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        load = float("nan")
    import numpy as np

    lines = [
        "# significance_test against the floor (#23)",
        "",
        (f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
         f"{platform.python_version()}, numpy {np.__version__}, load {load:.1f} at the end."),
        (f"Command: `python benchmarks/significance_floor.py` ({args.rounds} paired rounds, "
         "medians of CPU s; peak = largest extra VmHWM)."),
        "",
        ("| measure | model | N | K | R | ours CPU s | floor CPU s | ours / floor | sklearn loop "
         "CPU s | ours peak MiB | floor peak MiB | where ours goes |"),
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        *(_row(case, result) for case, result in rows),
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
