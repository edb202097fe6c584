"""Keyed inputs and array protocols at scale (issues 20 and 21), against pandas + scikit-learn.

    python benchmarks/keyed_inputs.py                 # N = 10^6 and 10^7
    python benchmarks/keyed_inputs.py --n 1e6 --markdown

Each case runs in a fresh subprocess (``python keyed_inputs.py --case NAME N``), which
builds its inputs, resets its peak resident memory to the current one (Linux:
``/proc/self/clear_refs``; elsewhere ``resource.getrusage``'s ``ru_maxrss`` as is), makes
one call, and reports the CPU seconds of the call (``time.process_time``) and the peak
resident memory it added over the inputs (``VmHWM`` - ``VmRSS`` before the call). Both sides
of a row run one right after the other on the same inputs (fixed seeds).

Cases (ARI of two clusterings with K = 100 random labels each):

* ``series``: two pandas Series whose string indexes hold the same N ids in different
  orders. Ours: ``adjusted_rand_index(s1, s2)`` (matched by index). pandas:
  ``s2.reindex(s1.index)`` then ``sklearn.metrics.adjusted_rand_score``; the reindex
  alone is reported too (the target: ours within 2x of it in time and memory).
* ``dict``: two ``{id: label}`` dicts in different key orders. Ours:
  ``adjusted_rand_index(d1, d2)``; pandas: ``pd.Series(d)`` for both, reindex, scikit-learn.
* ``tensor``: a CPU PyTorch tensor of labels against the same numpy array (skipped when
  torch is not installed): ours on tensors vs ours on numpy (the target: within 1.5x).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

K = 100


def _status_mb(field: str) -> float | None:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _reset_peak() -> tuple[float, bool]:
    """The resident memory now; the peak is reset to it where Linux allows (clear_refs 5)."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        now = _status_mb("VmRSS")
        if now is not None:
            return now, True
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, False  # KiB on Linux


def _peak_mb(reset: bool) -> float:
    peak = _status_mb("VmHWM") if reset else None
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _inputs(kind: str, n: int):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    a, b = rng.integers(0, K, n), rng.integers(0, K, n)
    if kind == "tensor":
        return a, b
    keys = pd.Index([f"id{i}" for i in range(n)])
    order = rng.permutation(n)
    s1, s2 = pd.Series(a, index=keys), pd.Series(b[order], index=keys[order])
    if kind == "series":
        return s1, s2
    d1 = dict(zip(s1.index.tolist(), a.tolist(), strict=True))
    d2 = dict(zip(s2.index.tolist(), s2.to_numpy().tolist(), strict=True))
    return d1, d2


def _run_case(name: str, n: int) -> dict:
    """One side of one case, in this (fresh) process."""
    kind, side = name.split(":")
    first, second = _inputs(kind, n)
    if kind == "tensor" and side == "ours":
        import torch

        first, second = torch.from_numpy(first), torch.from_numpy(second)
    import chanceclust as cc

    if side != "ours":
        import pandas as pd
        from sklearn.metrics import adjusted_rand_score
    import gc

    gc.collect()
    before, reset = _reset_peak()
    start = time.process_time()
    value = None
    if side == "ours" or (kind == "tensor" and side == "numpy"):
        value = cc.adjusted_rand_index(first, second)
    elif side == "reindex":  # the alignment alone
        first.reindex(second.index) if kind == "series" else None
    elif side == "pandas":
        s1, s2 = (first, second) if kind == "series" else (pd.Series(first), pd.Series(second))
        value = adjusted_rand_score(s1.to_numpy(), s2.reindex(s1.index).to_numpy())
    cpu = time.process_time() - start
    return {"case": name, "n": n, "cpu_s": cpu, "peak_mb": max(0.0, _peak_mb(reset) - before),
            "inputs_mb": before, "value": value}  # fmt: skip


def _spawn(name: str, n: int, timeout: float) -> dict:
    env = dict(os.environ)
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--case", name, str(n)],
            capture_output=True, text=True, timeout=timeout, env=env, check=False,
        )
    except subprocess.TimeoutExpired:
        return {"case": name, "n": n, "error": f"timeout after {timeout:.0f} s"}
    if done.returncode != 0:
        return {"case": name, "n": n, "error": done.stderr.strip().splitlines()[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


CASES = {
    "series": ["series:ours", "series:pandas", "series:reindex"],
    "dict": ["dict:ours", "dict:pandas"],
    "tensor": ["tensor:ours", "tensor:numpy"],
}


def _table(rows: list[dict]) -> str:
    lines = [
        ("| inputs | N | ours CPU s | ours peak MB | pandas + sklearn CPU s | peak MB "
         "| reindex alone CPU s | peak MB | ours / pandas + sklearn (CPU, memory) | same value |"),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    by = {(r["case"], r["n"]): r for r in rows}
    for kind, other in (("series", "pandas"), ("dict", "pandas"), ("tensor", "numpy")):
        for n in sorted({r["n"] for r in rows}):
            ours, peer = by.get((f"{kind}:ours", n)), by.get((f"{kind}:{other}", n))
            if ours is None or peer is None:
                continue
            if "error" in ours or "error" in peer:
                lines.append(f"| {kind} | {n:.0e} | {ours.get('error', '')} | | "
                             f"{peer.get('error', '')} | | | | | |")  # fmt: skip
                continue
            alone = by.get((f"{kind}:reindex", n))
            alone_cells = (f"{alone['cpu_s']:.2f} | {alone['peak_mb']:.0f}"
                           if alone and "error" not in alone else "— | —")  # fmt: skip
            label = {"series": "two Series, string index, shuffled",
                     "dict": "two dicts, shuffled keys",
                     "tensor": "CPU torch tensors (peer: the same numpy arrays, ours)"}[kind]
            ratio = (f"{ours['cpu_s'] / max(peer['cpu_s'], 1e-9):.2f}x, "
                     f"{ours['peak_mb'] / max(peer['peak_mb'], 1e-9):.2f}x")  # fmt: skip
            same = "yes" if ours["value"] == peer["value"] else f"{ours['value']} vs {peer['value']}"
            lines.append(f"| {label} | {n:.0e} | {ours['cpu_s']:.2f} | {ours['peak_mb']:.0f} | "
                         f"{peer['cpu_s']:.2f} | {peer['peak_mb']:.0f} | {alone_cells} | "
                         f"{ratio} | {same} |")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", nargs=2, metavar=("NAME", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--n", action="append", type=float, help="N (repeatable)")
    parser.add_argument("--only", action="append", choices=sorted(CASES))
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--markdown", action="store_true", help="print the Markdown table")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(_run_case(args.case[0], int(float(args.case[1])))))
        return
    rows = []
    for n in [int(x) for x in (args.n or [1e6, 1e7])]:
        for kind in args.only or list(CASES):
            for name in CASES[kind]:
                row = _spawn(name, n, args.timeout)
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    if args.markdown:
        print(_table(rows))


if __name__ == "__main__":
    main()
