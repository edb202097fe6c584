"""``chanceclust table``: every measure x model x sidedness x normalization for two clusterings."""

from __future__ import annotations

import argparse

from chanceclust._cli import inputs, options
from chanceclust._cli.results import load, out, result_rows, summary


HELP = "every measure x model x sidedness x normalization for two clusterings"
EXAMPLES = """\
table truth.txt pred.txt
table truth.txt pred.txt --format tsv
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "a", metavar="A", nargs="?", help="first clustering (the reference when one-sided)"
    )
    p.add_argument("b", metavar="B", nargs="?", help="second clustering")
    options.add_inputs(p, parquet=True)
    group = options.add_large_inputs(p)
    group.add_argument(
        "--histograms",
        action="store_true",
        help="print the summary instead: N and the histograms of cluster sizes and "
        "of cell counts (what every measure needs)",
    )


COLUMNS = ["measure", "model", "sided", "average_method", "value", "expected"]


def run(args: argparse.Namespace) -> int:
    compare = load("chanceclust.comparison", "compare")
    if not inputs.is_large(args):
        a, b = inputs.read_inputs(args, inputs.pair_paths(args))
        c = inputs.aligned(args, a, b)
        ca, cb = c.codes_true, c.codes_pred
        out(args, result_rows(compare(ca, cb, standardized=True)), COLUMNS, summary(a, b, ca, cb,
                                                                  args.unassigned_report))
        return 0
    table, meta = inputs.large_table(args)
    if args.histograms:
        histograms = table.summary()
        rows = [
            {"histogram": name, "value": int(v), "count": int(c)}
            for name in ("sizes_true", "sizes_pred", "cells")
            for v, c in zip(*getattr(histograms, name), strict=True)
        ]
        out(args, rows, ["histogram", "value", "count"], meta)
        return 0
    out(args, result_rows(compare(contingency=table, standardized=True)), COLUMNS, meta)
    return 0
