"""Coverage of chanceclust.confidence_interval (issue #34): does the 95 % interval cover
the population value in about 95 % of samples?

For each population table p (balanced, one large cluster, many small clusters) and each
N, ``--samples`` samples of N elements are drawn from p (a multinomial over its cells);
on each, the 95 % bootstrap interval (``--resamples`` resamples; the default "auto", the
debiased interval, BCa, and the percentile and basic intervals of the same bootstrap
distribution) is computed and checked against the population value (``population_value``:
for ARI the ARI of the pair probabilities, for AMI
the AMI of the table N p_ij -- every p_ij is a multiple of 1/100, so N p_ij is a table of
integers for N >= 100; docs/math.md#math-bootstrap). ``--raw`` saves each sample's coverage
by method and its bootstrap shift |mean(theta*) - theta| / standard error.

Run: ``PYTHONPATH=src python benchmarks/bootstrap_coverage.py --out
benchmarks/BOOTSTRAP_COVERAGE.md``
(``--quick`` for a smoke run). Prints a markdown table; the Monte Carlo standard error of a
coverage c from S samples is sqrt(c (1 - c) / S) (0.7 points for c = 0.95, S = 1000).
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import subprocess
import time
import warnings

import numpy as np

import chanceclust as cc
from chanceclust.bootstrap import DEBIASED_PER_CELL, _interval


def _tables() -> dict[str, np.ndarray]:
    """Population tables in units of 1/100 (each sums to 100)."""
    balanced = np.array([[27, 3, 3], [3, 27, 3], [3, 3, 28]])
    one_large = np.array([[70, 5, 5], [2, 7, 1], [1, 1, 8]])
    many_small = np.full((10, 10), 0)
    for i in range(10):
        many_small[i, i] = 7
        for step in (1, 2, 3):
            many_small[i, (i + step) % 10] = 1
    return {"balanced 3x3": balanced, "one large cluster 3x3": one_large,
            "many small clusters 10x10": many_small}  # fmt: skip


FUNCTIONS = {"ari": cc.adjusted_rand_index, "ami": cc.adjusted_mutual_information,
             "nmi": cc.normalized_mutual_information}  # fmt: skip


#: The population scale of the pair measures' limit (see ``population_value``).
LIMIT_SCALE = 10**6


def population_value(measure: str, population: np.ndarray, n: int) -> float:
    """The population value of the measure for samples of N elements from ``population``
    (docs/math.md#math-bootstrap): for ARI (a measure of pairs of elements) the limit of
    s(M p) as M grows, the measure of the pair probabilities sum p_ij^2, sum p_i.^2,
    sum p_.j^2 (evaluated at M = 100 * LIMIT_SCALE: within ~1e-8 of the limit); for AMI
    and NMI s(N p), whose MI and entropies are those of p and whose E[MI] is that of N
    elements with margins N p_i., N p_.j."""
    if measure == "ari":
        return FUNCTIONS[measure](contingency=population * LIMIT_SCALE)
    return FUNCTIONS[measure](contingency=population * (n // 100))


METHODS = ("auto", "debiased", "bca", "percentile", "basic")


def _coverage(measure: str, population: np.ndarray, n: int, samples: int, resamples: int,
              rng: np.random.Generator) -> tuple[dict[str, float], int, float, dict]:  # fmt: skip
    truth = population_value(measure, population, n)
    p = (population / population.sum()).ravel()
    hits = {method: [] for method in METHODS}
    shifts = []
    start = time.perf_counter()
    for _ in range(samples):
        table = rng.multinomial(n, p).reshape(population.shape)
        table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
        same = copy.deepcopy(rng)  # the same resamples for the debiased interval
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the small-sample warning: recorded as `shift`
            res = cc.confidence_interval(measure, contingency=table, n_resamples=resamples,
                                         rng=rng, method="BCa")  # fmt: skip
        others = {method: _interval(res.bootstrap_distribution, res.statistic, 0.95, method,
                                    None) for method in ("percentile", "basic")}  # fmt: skip
        # The debiased interval of the same resamples (AMI's evaluates each resample's
        # jackknife too), and "auto"'s choice between it and BCa (by elements per cell).
        others["debiased"] = cc.confidence_interval(
            measure, contingency=table, n_resamples=resamples, rng=same, method="debiased"
        ).confidence_interval
        few = n < DEBIASED_PER_CELL * np.count_nonzero(table)
        if np.isnan(res.confidence_interval.low) and not few:
            continue
        intervals = {"bca": res.confidence_interval, **others}
        intervals["auto"] = intervals["debiased" if few else "bca"]
        for method, interval in intervals.items():
            hits[method].append(interval.low <= truth <= interval.high)
        spread = res.standard_error
        shifts.append(abs(np.mean(res.bootstrap_distribution) - res.statistic) / spread
                      if spread > 0 else 0.0)  # fmt: skip
    seconds = time.perf_counter() - start
    valid = len(shifts)
    raw = {"shift": np.array(shifts), **{m: np.array(h, dtype=bool) for m, h in hits.items()}}
    return {m: float(np.mean(h)) for m, h in hits.items()}, valid, seconds, raw


def provenance() -> str:
    """The commit and the time of a run, as the results files state them."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()  # fmt: skip
    return f"commit {commit}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"


def report(lines: list[str], rows: list[str], out: str | None, mode: str) -> None:
    """Print the header ``lines`` and the table ``rows`` (with the columns in ``lines``'s
    last two entries) as markdown, and write them to ``out`` if given."""
    text = "\n".join([*lines, *rows, ""])
    if out:
        with open(out, mode, encoding="utf-8") as handle:
            handle.write(text + "\n")
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--measures", default="ari")
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--populations", default="",
                        help="run only the population tables whose name contains this")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out")
    parser.add_argument("--raw", help="an .npz file for each sample's results (by row)")
    args = parser.parse_args()
    arrays: dict[str, np.ndarray] = {}
    if args.quick:
        args.samples, args.resamples = 20, 99
    rng = np.random.default_rng(20261128)
    rows = []
    begin = time.perf_counter()
    for measure in args.measures.split(","):
        for name, population in _tables().items():
            if args.populations not in name:
                continue
            for n in map(int, args.sizes.split(",")):
                covered, valid, seconds, raw = _coverage(measure, population, n,
                                                         args.samples, args.resamples, rng)
                if args.raw:
                    key = f"{measure}|{name}|{n}"
                    arrays.update({f"{key}|{k}": v for k, v in raw.items()})
                    np.savez(args.raw, **arrays)
                row = (f"| {measure.upper()} | {name} | {n} | {valid} | {args.resamples} | "
                       + " | ".join(f"{100 * covered[m]:.1f} %" for m in METHODS)
                       + f" | {seconds:.0f} s |")  # fmt: skip
                print(row, flush=True)
                rows.append(row)
    total = time.perf_counter() - begin
    lines = [
        "# Coverage of the bootstrap confidence intervals (issue #34)",
        "",
        (f"Generated by `PYTHONPATH=src python benchmarks/bootstrap_coverage.py --samples "
        f"{args.samples} --resamples {args.resamples} --measures {args.measures} --sizes "
        f"{args.sizes}" + (f" --populations '{args.populations}'" if args.populations else "")
        + f"` at {provenance()}; took {total / 60:.1f} min on "
        f"{platform.machine()} with {os.cpu_count()} cores "
        f"(load average at the end {os.getloadavg()[0]:.1f}: the machine is shared)."),
        "",
        ("Each row: `samples` samples of N elements drawn from the population table; on each "
        "the 95 % interval of `confidence_interval` (model perm, two-sided, arithmetic "
        "normalization) with `resamples` resamples, BCa, and the debiased, percentile and "
        "basic intervals of the same bootstrap distribution; `auto` (the default) is the "
        "debiased interval where the sample has fewer than 100 elements per non-zero cell, "
        "BCa elsewhere; coverage = the share of samples whose "
        "interval holds the population value (`population_value`: for ARI the ARI of the pair "
        "probabilities, for AMI that of the table N p_ij; docs/math.md#math-bootstrap). BCa "
        "intervals that are undefined (a degenerate bootstrap law: SciPy returns nan) are "
        "left out of `samples` (except where `auto` takes the debiased interval). Monte "
        "Carlo standard error of a coverage near 95 %: sqrt(0.95 * 0.05 / samples) (0.7 "
        "points at 1,000 samples, 2.2 at 100). Target: 93-97 %."),
        "",
        ("| measure | population | N | samples | resamples | auto (default) | debiased | BCa "
         "| percentile | basic | time |"),
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    report(lines, rows, args.out, "a")


if __name__ == "__main__":
    main()
