"""Benchmark chanceclust against its peers (issue 3) and write benchmarks/RESULTS.md.

Usage (from the repository root):
    python benchmarks/run.py            # full run, about 15-30 minutes on 2 cores
    python benchmarks/run.py --quick    # smaller grid, about 2-3 minutes
Options: --only SUBSTR (repeatable; run only matching case ids), --timeout SECONDS
(per case and side, default 300), --no-setup (use the peers' venvs as they are),
--output PATH (default benchmarks/RESULTS.md).

chanceclust runs under the interpreter that runs this script (it must be installed
there, e.g. `pip install -e .`). The peers are installed by this script into their own
virtual environments: benchmarks/.venv-sklearn (scikit-learn) and benchmarks/.venv-clusim
(clusim from PyPI). Every case runs in a fresh subprocess (worker.py), ours and the peer's
one after the other, so the timings come from the same run on the same machine.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402

WORKER = os.path.join(HERE, "worker.py")
REFS = os.path.join(HERE, "references", "references.json")
VENVS = {
    "sklearn": (os.path.join(HERE, ".venv-sklearn"), ["scikit-learn"], "import sklearn"),
    "clusim": (os.path.join(HERE, ".venv-clusim"), ["clusim"], "import clusim.sim"),
}
PEER_CAP_S = 300  # never more than ~5 minutes per peer case


# ------------------------------------------------------------------ environments
def venv_python(name: str) -> str:
    return os.path.join(VENVS[name][0], "bin", "python")


def setup_venv(name: str, install: bool) -> tuple[bool, str]:
    """Create/refresh the peer's venv; (ok, note)."""
    path, pkgs, probe = VENVS[name]
    py = venv_python(name)
    if os.path.exists(py):
        r = subprocess.run([py, "-c", probe], capture_output=True, text=True)
        if r.returncode == 0:
            return True, "already installed"
    if not install:
        return False, f"{path} missing and --no-setup given"
    log = []
    steps = [[sys.executable, "-m", "venv", path],
             [py, "-m", "pip", "install", "-q", "--upgrade", "pip"],
             [py, "-m", "pip", "install", "-q", *pkgs]]
    for cmd in steps:
        r = subprocess.run(cmd, capture_output=True, text=True)
        log.append(r.stderr[-1500:])
        if r.returncode != 0:
            return False, f"`{' '.join(cmd[-len(pkgs):])}` failed: {r.stderr.strip()[-800:]}"
    r = subprocess.run([py, "-c", probe], capture_output=True, text=True)
    if r.returncode != 0:
        return False, f"installed but `{probe}` fails: {r.stderr.strip()[-800:]}"
    return True, "installed now"


def pkg_versions(py: str, names: list[str]) -> dict:
    code = ("import json, importlib.metadata as m\nout={}\n"
            f"for n in {names!r}:\n"
            "    try: out[n]=m.version(n)\n"
            "    except Exception: out[n]=None\nprint(json.dumps(out))")
    r = subprocess.run([py, "-c", code], capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def git_state() -> str:
    """Commit of the working tree and whether src/ has uncommitted changes."""
    root = os.path.dirname(HERE)
    try:
        head = subprocess.run(["git", "-C", root, "log", "-1", "--format=%h %cI"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "src"],
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"
    return head + (" (src/ has uncommitted changes)" if dirty else " (src/ clean)")


def machine_info() -> dict:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    blas = "?"
    try:
        from threadpoolctl import threadpool_info

        import numpy  # noqa: F401

        blas = "; ".join(f"{d.get('internal_api')} {d.get('version')} "
                         f"{d.get('architecture')} threads={d.get('num_threads')}"
                         for d in threadpool_info())
    except Exception as exc:  # threadpoolctl is optional
        blas = f"threadpoolctl unavailable ({type(exc).__name__})"
    return {
        "git": git_state(),
        "cpu": cpu, "cores": os.cpu_count(), "memory": mem,
        "python": platform.python_version(), "platform": platform.platform(),
        "ours": pkg_versions(sys.executable, ["chanceclust", "numpy", "scipy"]),
        "blas": blas,
        "openblas_env": {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                                                       "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")},
    }


# ------------------------------------------------------------------ running
def run_worker(py: str, side: str, case: dict, timeout: float) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.Popen([py, WORKER, side, json.dumps(case)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the worker we started, and its children
        proc.communicate()
        return {"status": "timeout", "limit": timeout, "wall": time.perf_counter() - t0}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            res = json.loads(line[7:])
            res["status"] = "ok"
            res["wall"] = time.perf_counter() - t0
            return res
    return {"status": "error", "error": (err or out).strip()[-600:]}


# ------------------------------------------------------------------ formatting
def fs(x, unit="s"):
    if x is None:
        return "—"
    if unit == "ms":
        return f"{x * 1e3:.3g} ms" if x < 1 else f"{x:.3g} s"
    if x < 1e-3:
        return f"{x * 1e6:.3g} µs"
    if x < 1:
        return f"{x * 1e3:.3g} ms"
    return f"{x:.3g} s"


def fmib(b):
    return "—" if b is None else f"{b / 2**20:.1f} MiB"


def rel(value, ref):
    if value is None or ref is None:
        return None
    ref = float(ref) if not isinstance(ref, str) else __import__("mpmath").mpf(ref)
    import mpmath

    if ref == 0:
        return abs(mpmath.mpf(value))
    return float(abs((mpmath.mpf(value) - ref) / ref))


def fe(e):
    if e is None:
        return "no ref."
    if e == 0:
        return "0"
    return f"{e:.1e}"


def timing(res: dict, key="first", unit="s") -> str:
    if res is None:
        return "—"
    if res.get("status") == "timeout":
        return f"timeout (> {res['limit']:.0f} s)"
    if res.get("status") == "error":
        return "error"
    return fs(res.get(key), unit)


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def write_report(path: str, info: dict, setup: dict, results: list, refs: dict, quick: bool,
                 started: str, elapsed: float) -> None:
    R = {r["case"]["id"]: r for r in results}
    md = [f"# Benchmark results ({'quick' if quick else 'full'} run)", "",
          f"Generated by `python benchmarks/run.py{' --quick' if quick else ''}` on {started} "
          f"(run took {elapsed / 60:.1f} min). Issue 3 targets. Every case runs in a fresh "
          "process; **first** = first call in that process (after imports and input "
          "generation), **best** = best of up to 5 further calls (lru caches may make "
          "them faster); peak = peak resident memory added by the first call (VmHWM "
          "reset after the inputs are made). Relative errors are against "
          "`benchmarks/references/references.json` (mpmath / exact integers, made by "
          "`benchmarks/references/make_references.py`, independent of chanceclust).", "",
          "## Machine", ""]
    ours = info["ours"]
    md += [f"- chanceclust source: {info.get('git', '?')} at the start, "
           f"{info.get('git_end') or '?'} at the end (the package is an editable install: if "
           "these differ, the library changed during the run and rows are from mixed versions)",
           f"- CPU: {info['cpu']}, {info['cores']} cores, memory {info['memory']}",
           f"- Python {info['python']} ({info['platform']})",
           f"- ours: chanceclust {ours.get('chanceclust')}, numpy {ours.get('numpy')}, "
           f"scipy {ours.get('scipy')}",
           f"- BLAS (threadpoolctl): {info['blas']}",
           f"- OpenBLAS environment: {info['openblas_env']} (None = unset; nothing here is "
           "BLAS-bound, the environment is recorded as found)"]
    for name, (ok, note) in setup.items():
        vers = info.get("peers", {}).get(name, {})
        md.append(f"- peer venv `benchmarks/.venv-{name}`: {'OK' if ok else 'NOT AVAILABLE'} "
                  f"({note}); versions {vers}")
    md.append("")

    # target 1
    rows = []
    for r in results:
        c = r["case"]
        if c["kind"] != "contingency":
            continue
        o, p = r["ours"], r.get("peer") or {}
        ratio = (p.get("first") / o["first"]) if o.get("status") == "ok" and p.get("status") == "ok" else None
        same = ("identical" if o.get("checksum") and o.get("checksum") == p.get("checksum")
                else ("DIFFERENT" if p.get("checksum") else "—"))
        inp = o.get("input_bytes")
        rows.append([c["id"], f"{c['n']:.0e}", f"{c['k_true']}×{c['k_pred']}",
                     "sparse" if c["sparse"] else "dense", timing(o), timing(o, "best"),
                     timing(p), f"{ratio:.2f}×" if ratio else "—", fmib(o.get("peak")),
                     f"{o['peak'] / inp:.2f}" if inp and o.get("peak") is not None else "—",
                     fmib(p.get("peak")), same])
    md += ["## 1. Contingency table (ours `contingency_table` vs sklearn `contingency_matrix`)", "",
           "Target: one pass; at N = 10^7 no slower than sklearn; peak memory ≤ 2× the two "
           "label arrays (column *peak/labels*: ours' peak over the bytes of both int64 label "
           "arrays); sparse when K_A·K_B is large. Ratio = sklearn first / ours first "
           "(> 1: ours faster). Tables compared by an exact checksum.", "",
           table(["case", "N", "K_A×K_B", "output", "ours first", "ours best", "sklearn",
                  "ratio", "ours peak", "peak/labels", "sklearn peak", "tables"], rows), ""]

    # target 2
    rows = []
    sk10_6 = {}
    for r in results:
        c = r["case"]
        if c["kind"] == "ami" and c.get("peer") == "sklearn" and (r.get("peer") or {}).get("status") == "ok":
            sk10_6[(c["n"], c["k_true"], c["sizes"])] = r["peer"]["first"]
    notes = []
    for r in results:
        c = r["case"]
        if c["kind"] != "ami":
            continue
        o, p = r["ours"], r.get("peer")
        ref = refs.get(c["id"], {})
        if c["peer"] == "estimate":
            base = sk10_6.get((c["n"] // 10, c["k_true"], c["sizes"]))
            if base is not None:
                est = base * 10
                peer_s = f"≈ {fs(est)} (est.)"
                notes.append(f"{c['id']}: sklearn not run (would take ~{est / 60:.0f} min); "
                             f"estimated as 10 × its measured time at N = {c['n'] // 10:.0e} "
                             "(its expected-MI cost grows like N·K at fixed K; issue 3 "
                             "measured ~28 min).")
            else:
                peer_s = "skipped"
            ratio = (est / o["first"]) if base is not None and o.get("status") == "ok" else None
            p_err = None
        else:
            peer_s = timing(p)
            ratio = (p["first"] / o["first"]) if p and p.get("status") == "ok" and o.get("status") == "ok" else None
            p_err = rel(p.get("value"), ref.get("ami")) if p and p.get("status") == "ok" else None
        rows.append([c["id"], timing(o), timing(o, "best"), peer_s,
                     f"{ratio:.0f}×" if ratio else "—",
                     fe(rel(o.get("value"), ref.get("ami"))), fe(rel(o.get("emi"), ref.get("emi"))),
                     fe(p_err) if p_err is not None or (p and p.get("status") == "ok") else "—",
                     fmib(o.get("peak")), fmib((p or {}).get("peak"))])
    md += ["## 2. perm model: adjusted mutual information (ours vs sklearn `adjusted_mutual_info_score`)",
           "", "Target: ≥ 100× faster than sklearn at N = 10^6, K = 1000; under 10 s in total "
           "at N = 10^7, K = 1000; also with Zipf-like sizes (size ∝ 1/rank). Both "
           "arithmetic normalization. Speedup = sklearn / ours (first calls). Relative errors "
           "of AMI and of the expected MI against mpmath references (AMI ≈ 0 for random "
           "labels, so its relative error amplifies that of E[MI] by E[MI]/|MI − E[MI]|).", "",
           table(["case", "ours first", "ours best", "sklearn", "speedup", "ours AMI rel.err",
                  "ours E[MI] rel.err", "sklearn AMI rel.err", "ours peak", "sklearn peak"], rows),
           ""] + [f"- {n}" for n in notes] + [""]

    # target 3a
    rows = []
    for r in results:
        c = r["case"]
        if c["kind"] != "baseline":
            continue
        o = r["ours"]
        ref = refs.get(c["id"], {}).get("value")
        ok50 = ("yes" if o.get("status") == "ok" and o["first"] <= 0.05 else
                ("no" if o.get("status") in ("ok", "timeout") else "error"))
        rows.append([c["id"], c["quantity"].upper().replace("ERI", "E[RI]").replace("EMI", "E[MI]"),
                     c["model"], "one" if c["one_sided"] else "two", f"{c['n']:g}",
                     cases._k_name(c["n"], c["k"]) if not (c["model"] == "all" and not c["one_sided"]) else "any",
                     timing(o, unit="ms"), timing(o, "best", unit="ms"),
                     f"{o['value']:.15g}" if o.get("value") is not None else "—",
                     fe(rel(o.get("value"), ref)), fmib(o.get("peak")), ok50])
    md += ["## 3a. num and all models: E[RI], E[MI] from summaries (`expected_*_baseline`)", "",
           "Target: each under 50 ms at N = 10^7 (K ∈ {2, 10, 100, 1000, 10^4} and N − K ≤ 10), "
           "full accuracy for every K including small mean cluster size (N = 5000, K = 1000; "
           "N = 10^6, K = 2·10^5). One-sided: the reference has K clusters of sizes "
           "1 + multinomial(N − K, uniform). No peer runs at these sizes (clusim's mpmath "
           "sums would take hours; see 3c). ≤ 50 ms judged on the first call.", "",
           table(["case", "quantity", "model", "sided", "N", "K", "ours first", "ours best",
                  "value", "rel.err", "peak", "≤ 50 ms"], rows), ""]

    # target 3b
    rows = []
    for r in results:
        c = r["case"]
        if c["kind"] != "ami_vs_pass":
            continue
        o = r["ours"]
        ratio = o["first"] / o["pass_first"] if o.get("status") == "ok" else None
        ratio_b = o["best"] / o["pass_best"] if o.get("status") == "ok" else None
        rows.append([c["id"], fs(o.get("pass_first")), fs(o.get("pass_best")), timing(o),
                     timing(o, "best"), f"{ratio:.2f}×" if ratio else "—",
                     f"{ratio_b:.2f}×" if ratio_b else "—", fmib(o.get("peak"))])
    md += ["## 3b. Full `adjusted_mutual_information` under num/all vs the contingency pass", "",
           "Target: AMI(model=\"num\") at N = 10^7 costs ≤ 1.5× the contingency pass "
           "(`contingency_table` on the same labels, same process, timed first).", "",
           table(["case", "pass first", "pass best", "AMI first", "AMI best", "AMI/pass (first)",
                  "AMI/pass (best)", "AMI peak"], rows), ""]

    # target 3c
    rows = []
    for r in results:
        c = r["case"]
        if c["kind"] != "clusim_emi":
            continue
        o, p = r["ours"], r.get("peer") or {}
        ref = refs.get(c["id"], {}).get("value")
        ratio = (p["first"] / o["first"]) if p.get("status") == "ok" and o.get("status") == "ok" else None
        rows.append([c["id"], "one" if c["one_sided"] else "two", timing(o), timing(o, "best"),
                     timing(p), f"{ratio:.3g}×" if ratio else "—",
                     fe(rel(o.get("value"), ref)),
                     fe(rel(p.get("value"), ref)) if p.get("status") == "ok" else "—"])
    md += ["## 3c. num-model expected MI at small N: ours vs clusim `sim.expected_mi`", "",
           "clusim evaluates the defining sums in mpmath (logbase = e here). Speedup = "
           "clusim / ours (first calls). References: exact Stirling numbers + mpmath.", "",
           table(["case", "sided", "ours first", "ours best", "clusim", "speedup",
                  "ours rel.err", "clusim rel.err"], rows), ""]
    if not setup.get("clusim", (True,))[0]:
        md += [f"clusim could not be installed: {setup['clusim'][1]}", ""]

    # target 5
    for r in results:
        c = r["case"]
        if c["kind"] != "cli":
            continue
        o = r["ours"]
        md += ["## 5. Cold command line", "",
               f"`python -m chanceclust compare A B` on two text files of {c['n']:.0e} labels "
               f"(K = {c['k_true']}), written to a temporary directory; each call a fresh process.", ""]
        if o.get("status") == "ok":
            md += [table(["what", "wall time"], [
                ["`compare A B` (ARI, AMI under perm), first", fs(o["first"])],
                ["`compare A B`, best of 2", fs(o["best"])],
                ["`compare --all-models A B`", fs(o["all_models"])],
                ["`chanceclust --help` (startup + argparse)", fs(o["help"])],
                ["`python -c 'import chanceclust'`", fs(o["import_only"])],
                ["`python -c pass` (interpreter alone)", fs(o["python_only"])],
                ["peak RSS of the largest child", fmib(o["peak"])]]), "",
                "Output of the first call (directories stripped):", "", "```",
                re.sub(r"(?<!\S)/\S*/([^/\s]+)", r"\1", o["output"]).rstrip(), "```", ""]
        else:
            md += [f"status: {o.get('status')} {o.get('error', '')}", ""]

    md += ["## Failures and timeouts", ""]
    bad = [f"- {r['case']['id']} ({side}): {r[side].get('status')} "
           f"{r[side].get('error', '')[-300:]}".rstrip()
           for r in results for side in ("ours", "peer")
           if r.get(side) and r[side].get("status") != "ok"]
    md += bad or ["none"]
    md.append("")
    with open(path, "w") as f:
        f.write("\n".join(md))


# ------------------------------------------------------------------ main
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", action="append", default=None)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--no-setup", action="store_true")
    ap.add_argument("--output", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite the report from benchmarks/.last-run.json without running")
    args = ap.parse_args()
    if args.report_only:
        last = json.load(open(os.path.join(HERE, ".last-run.json")))
        refs = json.load(open(REFS)) if os.path.exists(REFS) else {}
        setup = {k: tuple(v) for k, v in last["setup"].items()}
        write_report(args.output, last["info"], setup, last["results"], refs, last["quick"],
                     last["started"], last["elapsed"])
        print(f"wrote {args.output}")
        return

    started = _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    t_start = time.perf_counter()
    setup = {name: setup_venv(name, not args.no_setup) for name in VENVS}
    for name, (ok, note) in setup.items():
        print(f"[setup] {name}: {'ok' if ok else 'UNAVAILABLE'} ({note})", flush=True)
    info = machine_info()
    info["git_end"] = None
    info["peers"] = {name: pkg_versions(venv_python(name), {
        "sklearn": ["scikit-learn", "numpy", "scipy"],
        "clusim": ["clusim", "numpy", "scipy", "mpmath"]}[name]) for name, (ok, _) in setup.items() if ok}
    refs = json.load(open(REFS)) if os.path.exists(REFS) else {}

    results = []
    todo = [c for c in cases.cases(args.quick)
            if not args.only or any(s in c["id"] for s in args.only)]
    for i, case in enumerate(todo, 1):
        entry = {"case": case, "ours": run_worker(sys.executable, "ours", case, args.timeout)}
        peer = case.get("peer")
        if peer in ("sklearn", "clusim"):
            if setup[peer][0]:
                entry["peer"] = run_worker(venv_python(peer), peer, case,
                                           min(args.timeout, PEER_CAP_S))
            else:
                entry["peer"] = {"status": "unavailable", "error": setup[peer][1]}
        results.append(entry)
        o, p = entry["ours"], entry.get("peer")
        print(f"[{i}/{len(todo)}] {case['id']}: ours {timing(o)}"
              + (f", {peer} {timing(p)}" if p else "")
              + (f" value={o.get('value')}" if o.get("value") is not None else ""), flush=True)
        with open(os.path.join(HERE, ".last-run.json"), "w") as f:
            json.dump({"info": info, "results": results, "setup": setup, "quick": args.quick,
                       "started": started, "elapsed": time.perf_counter() - t_start}, f, indent=1)
    refs = json.load(open(REFS)) if os.path.exists(REFS) else {}
    info["git_end"] = git_state()
    with open(os.path.join(HERE, ".last-run.json"), "w") as f:  # --report-only needs git_end
        json.dump({"info": info, "results": results, "setup": setup, "quick": args.quick,
                   "started": started, "elapsed": time.perf_counter() - t_start}, f, indent=1)
    write_report(args.output, info, setup, results, refs, args.quick, started,
                 time.perf_counter() - t_start)
    print(f"wrote {args.output}", flush=True)


if __name__ == "__main__":
    main()
