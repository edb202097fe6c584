"""Tabulate results/*.jsonl of the scaling benchmarks into benchmarks/RESULTS.md (issue 12).

    python benchmarks/scaling/report.py

Rewrites only the part of RESULTS.md between the scaling markers (appended if absent), so
the tables of benchmarks/run.py stay as they are (run.py rewrites the whole file: rerun this
after it).
"""

from __future__ import annotations

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
TARGET = os.path.join(os.path.dirname(HERE), "RESULTS.md")
START, END = "<!-- scaling:start -->", "<!-- scaling:end -->"


def rows(name: str) -> list[dict]:
    path = os.path.join(RESULTS, f"{name}.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def fmt(x, digits=1):
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def pairwise_section(data: list[dict]) -> list[str]:
    if not data:
        return []
    first = data[0]
    out = [
        f"### All pairs: AMI of M = {first['m']} clusterings of N = {first['n']:,} elements "
        f"({first['pairs']:,} pairs with the diagonal)",
        "",
        "`bench_pairwise.py`, one process per row. *loop* = single `adjusted_mutual_information`"
        " calls, *sklearn* = `adjusted_mutual_info_score` (perm only), both timed on a random "
        "subset of pairs and extrapolated to all pairs. *pool* = `ProcessPoolExecutor(2)`, "
        "*dask* = `LocalCluster(n_workers=2, threads_per_worker=1)` with Dask's default worker "
        "environment (the nanny sets `MALLOC_TRIM_THRESHOLD_`), cluster start not included. "
        "CPU s = driver + every worker process. *same values* = the matrix equals the serial "
        "one bit for bit (loop: the subset equals the serial matrix's entries).",
        "",
        "| model | method | wall s | CPU s | same values | vs serial (wall) | load at start/end |",
        "|---|---|---|---|---|---|---|",
    ]
    serial = {r["model"]: r["wall_s"] for r in data if r["method"] == "serial"}
    for r in data:
        note = " (extrapolated from " + str(r.get("timed_pairs")) + " pairs)" if r.get(
            "extrapolated") else ""
        same = {True: "yes", False: "no", None: "—"}[r.get("identical_to_serial")]
        if r.get("env_MALLOC_TRIM_THRESHOLD_"):
            note += f" with MALLOC_TRIM_THRESHOLD_={r['env_MALLOC_TRIM_THRESHOLD_']}"
        elif r["method"] == "serial":
            same = "reference"
        ratio = (r["wall_s"] / serial[r["model"]]) if r["model"] in serial else None
        out.append(
            f"| {r['model']} | {r['method']}{note} | {fmt(r['wall_s'])} | {fmt(r['cpu_s'])} | "
            f"{same} | {fmt(ratio, 2)}x | {fmt(r['machine']['load_1min'])} / "
            f"{fmt(r.get('load_1min_end'))} |"
        )
    out.append("")
    out += pairwise_findings(data)
    return [*out, ""]


def pairwise_findings(data: list[dict]) -> list[str]:
    """Ratios of CPU seconds read off the rows above."""

    def cpu(method: str, model: str, trim: bool = False) -> float | None:
        for r in data:
            if (r["method"], r["model"], bool(r.get("env_MALLOC_TRIM_THRESHOLD_"))) == (
                method, model, trim):
                return r["cpu_s"]
        return None

    lines = []
    for model in ("perm", "num"):
        serial, loop = cpu("serial", model), cpu("loop", model)
        if serial and loop:
            lines.append(f"- {model}: `pairwise` takes {serial / loop:.2f}x the CPU seconds of "
                         "the loop of single calls (same values).")
    serial, sk = cpu("serial", "perm"), cpu("sklearn", "perm")
    if serial and sk:
        lines.append(f"- scikit-learn's `adjusted_mutual_info_score` loop would take ~{sk:,.0f} "
                     f"CPU s for the same matrix (extrapolated): {sk / serial:.0f}x `pairwise` "
                     "(perm); its values differ from ours by its own EMI error (~1e-9 and "
                     "below).")
    for method in ("serial", "loop"):
        plain, trimmed = cpu(method, "perm"), cpu(method, "perm", True)
        if plain and trimmed:
            what = "`pairwise`" if method == "serial" else "the loop of single calls"
            lines.append(f"- With `MALLOC_TRIM_THRESHOLD_=65536` (Dask's worker setting) in a "
                         f"plain process, {what} takes {trimmed / plain:.2f}x its CPU seconds "
                         "without it (perm).")
    return lines


def summary_section(data: list[dict]) -> list[str]:
    if not data:
        return []
    out = ["### Driver side of a large table: validate once, summarize, measures", ""]
    for r in data:
        out += [
            f"`bench_summary.py --n {r['n']:.0e} --k {r['k']:.0e}`: {r['nnz']:,} non-zero cells; "
            f"the summary has {r['histogram_rows']} histogram rows ({r['summary_bytes']:,} "
            "bytes). Cells shuffled into hash order (a COO array), as an engine returns them.",
            "",
            "| step | wall s |",
            "|---|---|",
            f"| table from the labels (`contingency_table(a, b, sparse=True)`) | "
            f"{fmt(r['table_from_labels_s'], 2)} |",
            f"| yardstick: one `np.argsort` of the int64 cell keys | {fmt(r['argsort_keys_s'], 2)} |",
            f"| `TableSummary.from_table(coo)` (validate + summarize) | "
            f"{fmt(r['summary_from_coo_s'], 2)} |",
            f"| `PartialTable.from_table(coo)` (validate, exact cells) | "
            f"{fmt(r['partial_from_coo_s'], 2)} |",
            f"| `TableSummary.from_table(csr)` (canonical CSR: no sort) | "
            f"{fmt(r['summary_from_csr_s'], 2)} |",
            f"| today's validation of a raw `contingency=` (`_check_table(coo)`), per call | "
            f"{fmt(r.get('check_table_coo_s'), 2)} |",
            f"| ARI, AMI perm, AMI num from the raw CSR table (each call re-validates) | "
            f"{fmt(r.get('three_measures_raw_csr_s'), 2)} |",
            f"| the same three from the `PartialTable` | {fmt(r['three_measures_partial_s'], 2)} |",
            f"| the same three from the `TableSummary` | {fmt(r['three_measures_summary_s'], 2)} |",
            f"| `compare()` (34 rows) from the `PartialTable` | {fmt(r['compare_partial_s'], 2)} |",
            f"| `compare()` (34 rows) from the `TableSummary` | {fmt(r['compare_summary_s'], 2)} |",
            f"| the three measures from the labels themselves (reference) | "
            f"{fmt(r['three_measures_from_labels_s'], 2)} |",
            "",
            f"Values: from the raw table and the `PartialTable` bit-identical to the labels' "
            f"({r.get('raw_identical')}, {r['partial_identical']}); from the summary, absolute "
            f"differences {', '.join(f'{d:.1e}' for d in r['summary_abs_diff'])} "
            "(ARI exact; AMI's MI in entropy form). "
            f"Load average {fmt(r['machine']['load_1min'])} at the start.",
            "",
        ]
    return out


def accuracy_section(data: list[dict]) -> list[str]:
    out = []
    for r in data:
        out += [
            f"MI accuracy (`check_mi_accuracy.py --n {r['n']:.0e} --k {r['k']:.0e}`, 40-digit "
            f"mpmath reference from the histograms): MI = {r['mi']:.6f}, one ulp = "
            f"{r['ulp']:.2e}; error of the exact table's deviance form (a float sum over "
            f"{r['nnz']:,} cells) {r['error_table_deviance']:.2e}, of the summary's entropy form "
            f"{r['error_summary_entropy']:.2e}. So the AMI differences between summary and "
            f"labels above ({abs(r['ami_table'] - r['ami_summary']):.1e} here) come from the "
            "in-memory sum, not from the summary.",
            "",
        ]
    return out


def parquet_section(data: list[dict]) -> list[str]:
    if not data:
        return []
    out = [
        "### One comparison from Parquet (8 files x 5 row groups, int32 labels)",
        "",
        "`bench_parquet.py`. *inmem* = pyarrow reads both columns, "
        "`chanceclust.contingency_table` (its measures are the reference values); *ccdask* = "
        "`chanceclust.dask.contingency_table` (exact table), *ccdask_summary* = the same with "
        "`summary=True`; *ddf* = `dask.dataframe.read_parquet(split_row_groups=True).groupby(["
        "a, b]).size()` then `PartialTable.from_cells`. Dask: `LocalCluster(n_workers=2, "
        "threads_per_worker=1, memory_limit=3GiB)`, started fresh per row (not timed). "
        "Table = read + count + transfer; measures = ARI perm, AMI perm, AMI num from the result. "
        "The driver's peak RSS is the peak of the one process that ran all rows of a K (the "
        "in-memory row first), so it describes the inmem row only. N = 10^8 with K = 10^6 was "
        "not run on this shared machine for lack of time; the command is `python "
        "benchmarks/scaling/bench_parquet.py --data DIR --n 1e8 --k 1e6`.",
        "",
        "| N | K | method | table wall s | table CPU s | measures wall s | peak RSS driver / "
        "workers GiB | values vs inmem | load at start |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in data:
        ident = r.get("identical")
        if ident is None:
            values = "reference"
        elif all(ident):
            values = "bit-identical (3/3)"
        else:
            values = f"max abs diff {max(r['abs_diff']):.1e}"
        workers = r.get("worker_peak_rss_gib")
        peaks = fmt(r.get("driver_peak_rss_gib"), 2) + (
            " / " + " / ".join(fmt(w, 2) for w in workers) if workers else "")
        out.append(
            f"| {r['n']:.0e} | {r['k']:.0e} | {r['method']} | {fmt(r['table_wall_s'])} | "
            f"{fmt(r['table_cpu_s'])} | {fmt(r['measures_wall_s'], 2)} | {peaks} | {values} | "
            f"{fmt(r['machine']['load_1min'])} |"
        )
    return [*out, ""]


def main() -> None:
    sections = {name: rows(name) for name in ("pairwise", "summary", "mi_accuracy", "parquet")}
    any_row = next((r for rs in sections.values() for r in rs), None)
    lines = [START, "", "## Scaling out (issue 12)", ""]
    if any_row:
        m = any_row["machine"]
        lines += [
            "Generated by `python benchmarks/scaling/report.py` from `benchmarks/scaling/"
            "results/*.jsonl`, written by `sh benchmarks/scaling/run_all.sh` (commands in "
            "`benchmarks/scaling/`). **Machine**: "
            f"{m.get('cpu_model', '?')}, {m['cpus']} cores, {m.get('mem_gib', '?')} GiB; Python "
            f"{m['python']}, numpy {m['numpy']}, scipy {m['scipy']}, dask {m.get('dask')}, "
            f"pyarrow {m.get('pyarrow')}, scikit-learn {m.get('sklearn')}; chanceclust "
            f"{m.get('git', '?')}; {m['date']}. **The 2 cores were shared with other jobs** "
            "(several other development sessions were running tests at the same time: load "
            "averages of 5-9 on 2 cores), so wall times are inflated and noisy; CPU seconds "
            "are the steadier measure, and parallel speed-ups cannot show on this machine. "
            "`scaling_workers.py` measures 1-16 workers on a larger machine (not run here).",
            "",
        ]
    lines += pairwise_section(sections["pairwise"])
    lines += summary_section(sections["summary"])
    lines += accuracy_section(sections["mi_accuracy"])
    lines += parquet_section(sections["parquet"])
    lines.append(END)
    text = open(TARGET).read() if os.path.exists(TARGET) else ""
    block = "\n".join(lines) + "\n"
    if START in text and END in text:
        text = text[: text.index(START)] + block + text[text.index(END) + len(END) + 1 :]
    else:
        text = text.rstrip("\n") + "\n\n" + block
    with open(TARGET, "w") as out:
        out.write(text)


if __name__ == "__main__":
    main()
