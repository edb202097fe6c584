"""``chanceclust compare``: chosen measures under chosen models for two clusterings."""

from __future__ import annotations

import argparse
from typing import Any

from chanceclust._cli import inputs, options
from chanceclust._cli.results import MEASURES, contingency, load, measure_rows, out, summary


HELP = "compare two clusterings with chosen measures and models"
EXAMPLES = """\
compare truth.txt pred.txt --measure ari,ami --model perm --model num
compare truth.tsv pred.json --one-sided --all-models --format json
compare results.csv --column truth --column kmeans
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    # A and B are optional: --contingency replaces them, a Parquet A holds both
    p.add_argument(
        "a", metavar="A", nargs="?", help="first clustering (the reference with --one-sided)"
    )
    p.add_argument(
        "b", metavar="B", nargs="?",
        help="second clustering (leave it out when A is one table holding both, with --column "
        "A_COLUMN --column B_COLUMN)",
    )
    p.add_argument(
        "--measure",
        action="append",
        type=options.comma_list(tuple(MEASURES), "measure"),
        metavar="LIST",
        help=f"comma list of {', '.join(MEASURES)}; repeatable (default: ari,ami)",
    )
    options.add_models(p, one_sided=options.ONE_SIDED_A)
    options.add_average(p)
    options.add_inputs(p, parquet=True)
    options.add_large_inputs(p)


def run(args: argparse.Namespace) -> int:
    if inputs.is_large(args):
        table, meta = inputs.large_table(args)
    else:
        a, b = inputs.read_inputs(args, inputs.pair_paths(args))
        c = inputs.aligned(args, a, b)
        meta = summary(a, b, c.codes_true, c.codes_pred, args.unassigned_report)
        table = contingency(c)
        del c
    models = options.models(args)
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    degenerate_notes = load("chanceclust.comparison", "degenerate_notes")
    for name in options.flatten(args.measure, ["ari", "ami"]):
        rows += measure_rows(name, table, models, args.one_sided, args.average_method)
        notes += [n for n in degenerate_notes(table, name, models, args.one_sided)
                  if n not in notes]
    meta["average_method"] = args.average_method
    if notes:  # values that are conventions: said, never silent
        meta["notes"] = notes
        meta["summary"] += "".join(f"\n# note: {name}" for name in notes)
    out(args, rows, ["measure", "model", "sided", "value"], meta)
    return 0
