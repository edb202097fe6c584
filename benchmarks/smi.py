"""Exact SMI (issue 22) against Monte Carlo z-scores and fastami, side by side.

Run from the repository root, with chanceclust importable:

    python benchmarks/smi.py [--fastami PYTHON] [--output benchmarks/SMI.md]
        [--only SUBSTRING] [--no-mc] [--pair-route] [--seeds S,...] [--alphas A,...]
        [--against SRC --rounds R]

``--only perm --no-mc`` times the perm rows alone; ``--pair-route`` turns the Lancaster
expansion off (docs/math.md#math-mi-lancaster), to time the pair sums on the same machine.
``--seeds 0,1,2`` adds, for each selected Dirichlet case, a row per seed with the sizes drawn
from that seed (``case@seed``; the table's own rows use seed n + ka), and ``--alphas 1,5``
one per seed and Dirichlet concentration (``case@seed,alpha=1``; default 5, the table's
sizes; 1 spreads the sizes from ~10 to ~5 x 10^4 at N = 10^6). ``--against SRC`` (a
``src`` folder of another checkout, e.g. main's) times the selected rows in paired rounds
instead of writing the table: per round and row, one fresh subprocess with this checkout's
chanceclust and one with SRC's, in alternating order; it prints each row's median CPU
seconds of the ``--rounds`` rounds side by side and the relative difference of the two
Var[MI] values (e.g. ``--only perm-1e6-100x100-dirichlet --seeds 0,1,2 --against
../main/src``).

``--fastami PYTHON`` names an interpreter with ``fastami`` installed (e.g. a venv made by
``python -m venv .venv-fastami && .venv-fastami/bin/pip install fastami``); without it the
fastami column says "not installed". Every timing is CPU seconds (time.process_time) of
one call in this process (ours, significance_test) or in a fresh subprocess (fastami).

For each case: our exact Var[MI] and SMI; significance_test("mi", ...) with R samples, its
z-score (s - mean) / sd and the Monte Carlo standard error of that z-score by the delta
method, SE^2 = (1 + z mu3 / sd^3 + z^2 (kurtosis - 1) / 4) / R, and the number of samples
that would give SE = 1e-3; fastami's SMI estimate and its own error estimate (precision_goal=0.01). fastami 0.2.1 calls
scikit-learn's ``mutual_info_score(_, _, contingency=...)`` with integer labels, which
scikit-learn >= 1.3 rejects: its interpreter needs scikit-learn 1.2 (numpy < 2).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import chanceclust as cc

MC_SAMPLES = 2000


def _sizes(n: int, k: int, rng: np.random.Generator, equal: bool,
           alpha: float = 5.0) -> np.ndarray:
    if equal:
        return np.full(k, n // k) + (np.arange(k) < n % k)
    p = rng.dirichlet(np.full(k, alpha))
    s = np.maximum(1, np.round(p * n).astype(np.int64))
    s[np.argmax(s)] += n - s.sum()
    return s


def _labels(n: int, ka: int, kb: int, seed: int, equal: bool, signal: float = 0.03,
            alpha: float = 5.0):
    """Two labelings with the given sizes (Dirichlet(alpha) unless equal, kept exactly):
    labels_pred is sorted like
    labels_true, then all but a fraction ``signal`` of its elements are shuffled among
    themselves (a weak agreement, z of a few units)."""
    rng = np.random.default_rng(seed)
    a = np.repeat(np.arange(ka), _sizes(n, ka, rng, equal, alpha))
    b = np.repeat(np.arange(kb), _sizes(n, kb, rng, equal, alpha))
    shuffled = np.flatnonzero(rng.random(n) >= signal)
    b[shuffled] = rng.permutation(b[shuffled])
    return a, b


CASES = [
    # (id, n, ka, kb, equal sizes, model, one_sided, run Monte Carlo)
    ("perm-1e4-10x10-equal", 10**4, 10, 10, True, "perm", False, True),
    ("perm-1e4-10x10-dirichlet", 10**4, 10, 10, False, "perm", False, True),
    ("perm-1e6-10x10-equal", 10**6, 10, 10, True, "perm", False, False),
    ("perm-1e6-100x100-equal", 10**6, 100, 100, True, "perm", False, True),
    ("perm-1e5-10x10-dirichlet", 10**5, 10, 10, False, "perm", False, False),
    ("perm-1e4-30x30-dirichlet", 10**4, 30, 30, False, "perm", False, False),
    ("perm-1e6-30x30-dirichlet", 10**6, 30, 30, False, "perm", False, False),
    ("perm-1e6-100x100-dirichlet", 10**6, 100, 100, False, "perm", False, False),
    ("num-60-4x6-one-sided", 60, 4, 6, False, "num", True, True),
    ("num-60-4x6-two-sided", 60, 4, 6, False, "num", False, True),
    ("all-60-4x6-one-sided", 60, 4, 6, False, "all", True, True),
    ("all-60-4x6-two-sided", 60, 4, 6, False, "all", False, True),
    # num with small clusters (K close to N: a size law, summed over sizes)
    ("num-100-4x70-two-sided", 100, 4, 70, True, "num", False, True),
    ("num-1000-4x700-one-sided", 1000, 4, 700, True, "num", True, True),
    ("num-1e4-10x10-one-sided", 10**4, 10, 10, False, "num", True, True),
    ("all-1e4-10x10-one-sided", 10**4, 10, 10, False, "all", True, True),
    ("all-1e4-10x10-two-sided", 10**4, 10, 10, False, "all", False, True),
    ("num-1e6-10x10-one-sided", 10**6, 10, 10, False, "num", True, False),
    ("num-1e6-100x100-one-sided", 10**6, 100, 100, False, "num", True, False),
    ("num-1e6-100x100-two-sided", 10**6, 100, 100, False, "num", False, False),
    ("all-1e6-10x10-one-sided", 10**6, 10, 10, False, "all", True, False),
    ("all-1e6-100x100-one-sided", 10**6, 100, 100, False, "all", True, False),
    ("all-1e6-100x100-two-sided", 10**6, 100, 100, False, "all", False, False),
]


COMPLEXITY = """
## Complexity achieved (docs/math.md#math-mi-variance, #math-mi-lancaster, #math-routes)

w ~ 20 sqrt(mean cell count) is a window's length; D = distinct sizes per side; k the
Lancaster orders used (5-7 at N = 10^6, 100 x 100; at most 8, then 48).

- Given both sides' size moments (perm; num and all where summed over sizes): the cells'
  pmf and bd0 over their windows, O(D_A D_B w); each cell's Hahn coefficients, O(D_A D_B w k)
  (two three-term recurrences: the polynomials and a shadow that measures their rounding);
  the pairs of distinct cells as 3 quadratic forms per order, O(k D_A D_B (D_A + D_B)).
  Equal sizes are grouped exactly (D = 1 or 2). N = 10^6, K = 100 x 100 Dirichlet(1) and (5)
  sizes: about 0.6 s (5-9 s with the factored grids of earlier versions).
- Where the expansion's bound is not reached (rare: a cluster of more than half the
  elements beside small ones): the pair sums, O(D_A D_B (D_A + D_B) w'), w' = w^2 below 96
  points, ~20 w to 36 w above (`--pair-route` times them).
- num/all, one random side beyond N = 30 (two: 20): the slot sums (benchmarks/SMI_SLOTS.md),
  O(slots x K_A w') one-sided, O(slots w' + slot pairs x w w_y') two-sided.
"""


def _ours(a, b, model, one_sided):
    """(Var[MI], SMI, CPU seconds of the SMI call, which computes the variance)."""
    t = time.process_time()
    z = cc.standardized_mutual_information(a, b, model=model, one_sided=one_sided)
    seconds = time.process_time() - t
    centered = cc.mutual_information(a, b) - cc.expected_mutual_information(
        a, b, model=model, one_sided=one_sided
    )
    return (centered / z) ** 2 if z else 0.0, z, seconds


def _monte_carlo(a, b, model, one_sided):
    t = time.process_time()
    res = cc.significance_test("mi", a, b, model=model, one_sided=one_sided,
                               n_resamples=MC_SAMPLES, rng=0)
    seconds = time.process_time() - t
    null = res.null_distribution
    sd = null.std(ddof=1)
    z = (res.statistic - null.mean()) / sd
    c = null - null.mean()
    mu3, kurt = np.mean(c**3) / sd**3, np.mean(c**4) / sd**4
    se = np.sqrt(max(1.0 + z * mu3 + z * z * (kurt - 1.0) / 4.0, 0.0) / MC_SAMPLES)
    return z, se, seconds


_FASTAMI = """
import sys, time, json, numpy as np
from fastami import standardized_mutual_info_mc
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
t = time.process_time()
z, err = standardized_mutual_info_mc(a, b, seed=0, precision_goal=0.01)
print(json.dumps([float(z), float(err), time.process_time() - t]))
"""


def _fastami(python: str | None, a, b):
    if python is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb = Path(tmp) / "a.npy", Path(tmp) / "b.npy"
        np.save(pa, a)
        np.save(pb, b)
        try:
            out = subprocess.run([python, "-c", _FASTAMI, str(pa), str(pb)], capture_output=True,
                                 text=True, timeout=600, check=True)
        except (subprocess.SubprocessError, OSError) as exc:
            return f"failed: {type(exc).__name__}"
        return json.loads(out.stdout.strip().splitlines()[-1])


_TIMED = """
import json, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import chanceclust as cc
import smi
n, ka, kb, seed, equal, model, one_sided, alpha = json.loads(sys.argv[3])
a, b = smi._labels(n, ka, kb, seed=seed, equal=equal, alpha=alpha)
t = time.process_time()
v = cc.mutual_information_variance(a, b, model=model, one_sided=one_sided)
print(json.dumps([v, time.process_time() - t]))
"""


def _timed(src: str, case: list) -> tuple[float, float]:
    """(Var[MI], CPU seconds of the variance call) in a fresh subprocess importing
    chanceclust from ``src``."""
    out = subprocess.run([sys.executable, "-c", _TIMED, str(Path(src).resolve()),
                          str(Path(__file__).parent), json.dumps(case)],
                         capture_output=True, text=True, check=True)
    var, secs = json.loads(out.stdout.strip().splitlines()[-1])
    return var, secs


def _paired(selected: list, against: str, rounds: int) -> None:
    """Median CPU seconds of ``rounds`` paired rounds, this checkout against ``against``."""
    ours = str(Path(cc.__file__).resolve().parents[1])
    for name, case in selected:
        times: dict[str, list[float]] = {"ours": [], "against": []}
        values = {}
        for k in range(rounds):
            order = [("ours", ours), ("against", against)]
            for label, src in order if k % 2 == 0 else order[::-1]:
                values[label], secs = _timed(src, case)
                times[label].append(secs)
        rel = abs(values["ours"] - values["against"]) / abs(values["against"])
        print(json.dumps({"case": name, "ours_s": float(np.median(times["ours"])),
                          "against_s": float(np.median(times["against"])),
                          "ours_rounds": times["ours"], "against_rounds": times["against"],
                          "var": values["ours"], "relative_difference": rel}), flush=True)


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fastami", default=None)
    parser.add_argument("--output", default=str(Path(__file__).with_name("SMI.md")))
    parser.add_argument("--only", default=None)
    parser.add_argument("--no-mc", action="store_true", help="skip the Monte Carlo columns")
    parser.add_argument("--pair-route", action="store_true",
                        help="the pair sums only (the Lancaster expansion off), for comparison")
    parser.add_argument("--seeds", default="",
                        help="comma-separated seeds: one more row per Dirichlet case and seed")
    parser.add_argument("--alphas", default="5",
                        help="comma-separated Dirichlet concentrations of the --seeds rows "
                        "(5: the table's; e.g. 1,5)")
    parser.add_argument("--against", default=None,
                        help="a src folder to time against in paired rounds (no table written)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    seeds = [int(v) for v in args.seeds.split(",") if v.strip()]
    alphas = [float(v) for v in args.alphas.split(",") if v.strip()]
    selected = []
    for case_id, n, ka, kb, equal, model, one_sided, _mc in CASES:
        if args.only and args.only not in case_id:
            continue
        selected.append((case_id, [n, ka, kb, n + ka, equal, model, one_sided, 5.0]))
        for alpha in [] if equal else alphas:
            for seed in seeds:
                name = f"{case_id}@{seed}" + ("" if alpha == 5.0 else f",alpha={alpha:g}")
                selected.append((name, [n, ka, kb, seed, equal, model, one_sided, alpha]))
    if args.against:
        _paired(selected, args.against, args.rounds)
        return
    if args.pair_route:
        from chanceclust._expected import mi_variance

        mi_variance.LANCASTER_ORDERS = ()
    rows = []
    monte_carlo = {case_id: mc for case_id, *_, mc in CASES}
    for case_id, (n, ka, kb, seed, equal, model, one_sided, alpha) in selected:
        mc = monte_carlo[case_id.split("@")[0]]
        a, b = _labels(n, ka, kb, seed=seed, equal=equal, alpha=alpha)
        var, z, secs = _ours(a, b, model, one_sided)
        row = {"case": case_id, "var": var, "z": z, "seconds": secs}
        if mc and not args.no_mc:
            row["mc"] = _monte_carlo(a, b, model, one_sided)
        if model == "perm":
            row["fastami"] = _fastami(args.fastami, a, b)
        rows.append(row)
        print(json.dumps(row), flush=True)
    lines = [
        "# Exact SMI: timings and Monte Carlo comparison (benchmarks/smi.py)",
        "",
        (
            f"Machine: {_cpu()}, {platform.python_version()}, numpy {np.__version__}; "
            f"CPU seconds (time.process_time), one call. Date: {time.strftime('%Y-%m-%d')}."
        ),
        "",
        (f"| case | Var[MI] | SMI (exact) | ours s | MC z (R={MC_SAMPLES}) ± SE | MC s "
        "| R for SE=1e-3 | fastami z ± err | fastami s |"),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        mc = r.get("mc")
        mc_cols = (
            [f"{mc[0]:.4f} ± {mc[1]:.3f}", f"{mc[2]:.2f}", f"{int(np.ceil(MC_SAMPLES * (mc[1] / 1e-3) ** 2)):.2g}"]
            if mc else ["not run", "", ""]
        )
        fa = r.get("fastami", "n/a (perm only)")
        if fa is None:
            fa_cols = ["not installed", ""]
        elif isinstance(fa, str):
            fa_cols = [fa, ""]
        else:
            fa_cols = [f"{fa[0]:.4f} ± {fa[1]:.3f}", f"{fa[2]:.2f}"]
        lines.append(
            f"| {r['case']} | {r['var']:.6e} | {r['z']:.6f} | {r['seconds']:.3f} | "
            + " | ".join(mc_cols + fa_cols) + " |"
        )
    Path(args.output).write_text("\n".join(lines) + "\n" + COMPLEXITY)


if __name__ == "__main__":
    sys.exit(main())
