"""Exact Var[MI] under num and all (the slot routes, issue 22): CPU seconds over N and K.

Run from the repository root, with chanceclust importable:

    python benchmarks/smi_slots.py [--baseline OTHER_SRC] [--rounds R] [--only SUBSTR]
                                   [--output benchmarks/SMI_SLOTS.md]

Cases: N in {200, 10^3, 10^4, 10^5, 10^6}, K_A = K_B in {2, 10, 100}, num and all, one-sided
(labels_true fixed, Dirichlet(5) sizes from a fixed seed) and two-sided. Every case runs in
a fresh subprocess (``--one CASE``): the table is built, then E[MI] is computed (this builds
the size laws, shared with Var[MI]; its CPU seconds are the "E[MI]" column), then
``mutual_information_variance(contingency=...)`` is timed alone (time.process_time; the
per-(N, K_A, K_B) cache of two-sided values is cold in a fresh process). With
``--baseline OTHER_SRC`` (the ``src`` folder of another checkout, e.g. ``git worktree add
../base main``) each case also runs under that source, the two alternating within each of
``--rounds`` paired rounds; the table shows the median of each and the relative
difference of the two variances. Cases outside the implemented range show the error.
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

import numpy as np

NS = (200, 10**3, 10**4, 10**5, 10**6)
KS = (2, 10, 100)


def _cases() -> list[str]:
    return [
        f"{model}-{n:.0e}-{k}x{k}-{side}".replace("e+0", "e")
        for n in NS for k in KS for model in ("num", "all") for side in ("one", "two")
    ]


def _parse(case: str) -> tuple[str, int, int, bool]:
    model, n, shape, side = case.split("-")
    return model, int(float(n)), int(shape.split("x")[0]), side == "one"


def _sizes(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    p = rng.dirichlet(np.full(k, 5.0))
    s = np.maximum(1, np.round(p * n).astype(np.int64))
    s[np.argmax(s)] += n - s.sum()
    return s


def _one(case: str) -> dict:
    """Run one case in this process; the result as a dict."""
    import chanceclust as cc
    from chanceclust.exceptions import InvalidInputError

    model, n, k, one_sided = _parse(case)
    rng = np.random.default_rng(n + k)
    a = np.repeat(np.arange(k), _sizes(n, k, rng))
    b = rng.permutation(np.repeat(np.arange(k), _sizes(n, k, rng)))
    table = cc.contingency_table(a, b)
    keywords = {"model": model, "one_sided": one_sided, "contingency": table}
    t = time.process_time()
    cc.expected_mutual_information(**keywords)
    expected = time.process_time() - t
    t = time.process_time()
    try:
        variance = cc.mutual_information_variance(**keywords)
    except InvalidInputError as error:
        return {"error": type(error).__name__, "expected_s": expected}
    return {"variance": variance, "seconds": time.process_time() - t, "expected_s": expected}


def _run(src: str, case: str) -> dict:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run(
        [sys.executable, __file__, "--one", case], env=env, capture_output=True, text=True,
        check=False,
    )
    if out.returncode:
        return {"error": out.stderr.strip().splitlines()[-1][:80]}
    return json.loads(out.stdout)


def _cell(results: list[dict], key: str = "seconds") -> str:
    if key not in results[0]:
        return "refused"
    return f"{statistics.median(r[key] for r in results):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--baseline", help="src folder of another checkout to compare with")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--output", type=Path)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one)))
        return
    here = str(Path(__file__).resolve().parent.parent / "src")
    sources = [here] + ([args.baseline] if args.baseline else [])
    cases = [c for c in _cases() if not args.only or any(s in c for s in args.only)]
    head = "| case | E[MI] s | Var[MI] s |"
    rule = "|---|---|---|"
    if args.baseline:
        head += " baseline Var[MI] s | rel. diff |"
        rule += "---|---|"
    lines = [head, rule]
    for case in cases:
        runs: dict[str, list[dict]] = {src: [] for src in sources}
        for _ in range(args.rounds):
            for src in sources:
                runs[src].append(_run(src, case))
        ours = runs[here]
        row = f"| {case} | {_cell(ours, 'expected_s')} | {_cell(ours)} |"
        if "error" in ours[0]:
            row = f"| {case} | {_cell(ours, 'expected_s')} | refused ({ours[0]['error']}) |"
        if args.baseline:
            base = runs[args.baseline]
            diff = ""
            if "variance" in ours[0] and "variance" in base[0]:
                diff = f"{abs(ours[0]['variance'] / base[0]['variance'] - 1):.1e}"
            row += f" {_cell(base)} | {diff} |"
        print(row, flush=True)
        lines.append(row)
    if args.output:
        machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        text = (
            "# Exact Var[MI] under num and all: the slot routes (benchmarks/smi_slots.py)\n\n"
            f"{machine}, numpy {np.__version__}; CPU seconds (time.process_time), one call in a "
            f"fresh process, median of {args.rounds} round(s); date {time.strftime('%Y-%m-%d')}."
            "\n\n" + "\n".join(lines) + "\n"
        )
        args.output.write_text(text)


if __name__ == "__main__":
    main()
