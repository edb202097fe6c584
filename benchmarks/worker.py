"""Run one benchmark case in this (fresh) process and print one JSON line.

Usage: python worker.py SIDE 'JSON case'   with SIDE in {ours, sklearn, clusim}.

Runs under the system interpreter (ours) or a peer's virtual environment, so it
imports chanceclust / sklearn / clusim only for its own side.

Timing: ``first`` is the first call in this fresh process (after imports and
data generation); ``best`` is the best of further calls when the first is fast
(caches may make those faster: that is reported, not hidden).
Memory: the process's peak resident set (VmHWM) is reset after the inputs are
made (Linux /proc/self/clear_refs), so ``peak_mib`` is the peak extra memory
of the first call above what was resident before it.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import cases  # noqa: E402


def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def measure(fn, *, repeat_budget: float = 2.0, max_repeat: int = 5):
    """(value, first_s, best_s, peak_extra_bytes) of fn()."""
    rss0 = _status("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    t0 = time.perf_counter()
    value = fn()
    first = time.perf_counter() - t0
    peak = max(0, _status("VmHWM") - rss0)
    best = first
    if first < repeat_budget / 2:
        spent, reps = 0.0, 0
        while spent < repeat_budget and reps < max_repeat:
            t0 = time.perf_counter()
            fn()
            dt = time.perf_counter() - t0
            best = min(best, dt)
            spent += dt
            reps += 1
    return value, first, best, peak


def table_checksum(table) -> list[int]:
    """Order-independent-enough fingerprint of a contingency table (exact ints)."""
    if hasattr(table, "tocoo"):
        coo = table.tocoo()
        i, j, v = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data.astype(np.int64)
    else:
        t = np.asarray(table)
        i, j = np.nonzero(t)
        v = t[i, j].astype(np.int64)
    return [int(v.sum()), int((v * v).sum()), int((v * (i + 1) * (j + 7)).sum()), int(len(v))]


def run_ours(case: dict) -> dict:
    import chanceclust as cc

    kind = case["kind"]
    out: dict = {}
    if kind == "contingency":
        a, b = cases.make_labels(case)
        out["input_bytes"] = int(a.nbytes + b.nbytes)
        val, first, best, peak = measure(lambda: cc.contingency_table(a, b, sparse=case["sparse"]))
        out["checksum"] = table_checksum(val)
        val = None
    elif kind == "ami":
        a, b = cases.make_labels(case)
        val, first, best, peak = measure(
            lambda: cc.adjusted_mutual_information(a, b, model=case["model"],
                                                   one_sided=case["one_sided"]))
        sa, sb = np.bincount(a), np.bincount(b)
        out["emi"] = float(cc.expected_mutual_information_baseline(
            case["n"], model="perm", sizes_true=sa[sa > 0], sizes_pred=sb[sb > 0]))
    elif kind == "baseline":
        kw = cases.baseline_kwargs(case)
        f = (cc.expected_rand_index_baseline if case["quantity"] == "eri"
             else cc.expected_mutual_information_baseline)
        val, first, best, peak = measure(lambda: f(case["n"], **kw), repeat_budget=1.0)
    elif kind == "ami_vs_pass":
        a, b = cases.make_labels(case)
        _, pass_first, pass_best, pass_peak = measure(lambda: cc.contingency_table(a, b))
        val, first, best, peak = measure(
            lambda: cc.adjusted_mutual_information(a, b, model=case["model"],
                                                   one_sided=case["one_sided"]))
        out.update(pass_first=pass_first, pass_best=pass_best, pass_peak=pass_peak)
    elif kind == "clusim_emi":
        n = case["n"]
        if case["one_sided"]:
            g = cases.reference_sizes(n, case["k_true"], cases.SEED + 3)
            kw = dict(model="num", one_sided=True, sizes_true=g, n_clusters_pred=case["k_pred"])
        else:
            kw = dict(model="num", n_clusters_true=case["k_true"], n_clusters_pred=case["k_pred"])
        val, first, best, peak = measure(
            lambda: cc.expected_mutual_information_baseline(n, **kw), repeat_budget=1.0)
    elif kind == "cli":
        return run_cli(case)
    else:
        raise ValueError(kind)
    out.update(value=None if val is None else float(val), first=first, best=best, peak=peak)
    return out


def run_sklearn(case: dict) -> dict:
    from sklearn.metrics import adjusted_mutual_info_score
    from sklearn.metrics.cluster import contingency_matrix

    a, b = cases.make_labels(case)
    out: dict = {}
    if case["kind"] == "contingency":
        out["input_bytes"] = int(a.nbytes + b.nbytes)
        val, first, best, peak = measure(
            lambda: contingency_matrix(a, b, sparse=case["sparse"]), repeat_budget=0.0)
        out["checksum"] = table_checksum(val)
        val = None
    elif case["kind"] == "ami":
        val, first, best, peak = measure(lambda: adjusted_mutual_info_score(a, b),
                                         repeat_budget=0.0)
    else:
        raise ValueError(case["kind"])
    out.update(value=None if val is None else float(val), first=first, best=best, peak=peak)
    return out


def run_clusim(case: dict) -> dict:
    import clusim.sim as sim

    n = case["n"]
    if case["one_sided"]:
        g = [int(x) for x in cases.reference_sizes(n, case["k_true"], cases.SEED + 3)]
        kw = dict(n_clusters1=case["k_pred"], clu_size_seq2=g, random_model="num1")
    else:
        kw = dict(n_clusters1=case["k_true"], n_clusters2=case["k_pred"], random_model="num")
    val, first, best, peak = measure(
        lambda: sim.expected_mi(n_elements=n, logbase=math.e, **kw), repeat_budget=0.0)
    return dict(value=float(val), first=first, best=best, peak=peak)


def run_cli(case: dict) -> dict:
    """Cold `chanceclust compare A B` on two files of labels, in fresh processes."""
    import resource
    import subprocess
    import tempfile

    a, b = cases.make_labels(case)
    exe = [sys.executable, "-m", "chanceclust"]
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb = os.path.join(tmp, "a.txt"), os.path.join(tmp, "b.txt")
        np.savetxt(pa, a, fmt="%d")
        np.savetxt(pb, b, fmt="%d")

        def timed(args):
            t0 = time.perf_counter()
            r = subprocess.run(exe + args, capture_output=True, text=True)
            dt = time.perf_counter() - t0
            if r.returncode != 0:
                raise RuntimeError(r.stderr[-2000:])
            return dt, r.stdout

        t_import = min(timed(["--help"])[0] for _ in range(2))
        t_total, stdout = timed(["compare", pa, pb])
        t_total2, _ = timed(["compare", pa, pb])
        t_all, _ = timed(["compare", "--all-models", pa, pb])
        import_only = []
        for _ in range(2):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import chanceclust"], check=True)
            import_only.append(time.perf_counter() - t0)
        t_python = []
        for _ in range(2):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            t_python.append(time.perf_counter() - t0)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    return dict(first=t_total, best=min(t_total, t_total2), all_models=t_all,
                help=t_import, import_only=min(import_only), python_only=min(t_python),
                peak=peak, output=stdout[-1500:], value=None)


def main() -> None:
    side, case = sys.argv[1], json.loads(sys.argv[2])
    fn = {"ours": run_ours, "sklearn": run_sklearn, "clusim": run_clusim}[side]
    t0 = time.perf_counter()
    result = fn(case)
    result["process_s"] = time.perf_counter() - t0
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
