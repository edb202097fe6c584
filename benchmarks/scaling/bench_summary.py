"""Driver-side cost of a large table: validate once, summarize, measures (issue 12).

    python benchmarks/scaling/bench_summary.py --n 2e7 --k 1e6

Two clusterings of N elements into K clusters each (b a random relabelling of a with
probability 0.7, else uniform), the table built in memory, its cells shuffled into hash
order as an engine returns them (a COO array). Times: one argsort of the int64 cell keys
(the yardstick), TableSummary.from_table / PartialTable.from_table of the COO and of the
canonical CSR, today's validation of ``contingency=`` (contingency._check_table, run by every
measure given a raw table), and three measures (ARI perm, AMI perm, AMI num) plus compare()
from the raw table, the PartialTable and the TableSummary; values against the labels' own.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import cpu_seconds, machine, record

import chanceclust as cc
from chanceclust.contingency import _check_table


def timed(func):
    c0, t0 = cpu_seconds(False), time.perf_counter()
    value = func()
    return value, time.perf_counter() - t0, cpu_seconds(False) - c0


def three(contingency, **labels):
    """ARI perm, AMI perm, AMI num of a table (or of labels given as keywords)."""
    return (
        cc.adjusted_rand_index(contingency=contingency, **labels),
        cc.adjusted_mutual_information(contingency=contingency, **labels),
        cc.adjusted_mutual_information(contingency=contingency, model="num", **labels),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=2e7)
    parser.add_argument("--k", type=float, default=1e6)
    parser.add_argument("--skip-raw", action="store_true", help="skip the slow raw-table rows")
    args = parser.parse_args()
    n, k = int(args.n), int(args.k)
    rng = np.random.default_rng(0)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.7, rng.integers(0, k, k)[a], rng.integers(0, k, n))
    labels = {"labels_true": a, "labels_pred": b}
    del a, b
    csr, t_build, _ = timed(lambda: cc.contingency_table(*labels.values(), sparse=True))
    reference, t_ref, _ = timed(lambda: three(None, **labels))
    labels.clear()
    import scipy.sparse as sp

    coo = csr.tocoo()
    order = rng.permutation(coo.nnz)
    coo = sp.coo_array((coo.data[order], (coo.row[order], coo.col[order])), shape=coo.shape)
    del order
    cell_keys = [coo.row.astype(np.int64) * coo.shape[1] + coo.col]
    _, t_sort, _ = timed(lambda: np.argsort(cell_keys[0]))
    cell_keys.clear()
    row = {"bench": "summary", "n": n, "k": k, "nnz": int(csr.nnz), "machine": machine(),
           "table_from_labels_s": t_build, "three_measures_from_labels_s": t_ref,
           "argsort_keys_s": t_sort}
    summary, row["summary_from_coo_s"], row["summary_from_coo_cpu_s"] = timed(
        lambda: cc.TableSummary.from_table(coo))
    partial, row["partial_from_coo_s"], _ = timed(lambda: cc.PartialTable.from_table(coo))
    _, row["summary_from_csr_s"], _ = timed(lambda: cc.TableSummary.from_table(csr))
    row["histogram_rows"] = int(sum(len(getattr(summary, h).values)
                                    for h in ("sizes_true", "sizes_pred", "cells")))
    row["summary_bytes"] = int(sum(x.nbytes for h in ("sizes_true", "sizes_pred", "cells")
                                   for x in getattr(summary, h)))
    values_summary, row["three_measures_summary_s"], _ = timed(lambda: three(summary))
    _, row["compare_summary_s"], _ = timed(lambda: cc.compare(contingency=summary))
    values_partial, row["three_measures_partial_s"], _ = timed(lambda: three(partial))
    _, row["compare_partial_s"], _ = timed(lambda: cc.compare(contingency=partial))
    if not args.skip_raw:
        _, row["check_table_coo_s"], _ = timed(lambda: _check_table(coo))
        values_raw, row["three_measures_raw_csr_s"], _ = timed(lambda: three(csr))
        row["raw_identical"] = [x == y for x, y in zip(values_raw, reference, strict=True)]
    row["partial_identical"] = [x == y for x, y in zip(values_partial, reference, strict=True)]
    row["summary_abs_diff"] = [abs(x - y) for x, y in zip(values_summary, reference, strict=True)]
    record("summary", row)


if __name__ == "__main__":
    main()
