"""``chanceclust rank``: all pairs of clusterings, or clusterings against a reference, ranked."""

from __future__ import annotations

import argparse
import itertools
from typing import Any

from chanceclust._cli import inputs, options
from chanceclust._cli.options import UsageError
from chanceclust._cli.results import MEASURES, contingency, load, measure_rows, out
from chanceclust._registry import MEASURES as REGISTRY


HELP = "rank all pairs of clusterings, or clusterings against a reference"
EXAMPLES = """\
rank run*.txt --measure ami --model num
rank --reference truth.txt algo1.txt algo2.txt --one-sided --model all
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="clusterings to rank")
    p.add_argument(
        "--reference",
        metavar="R",
        help="rank every FILE against R instead of ranking all pairs of FILEs",
    )
    p.add_argument(
        "--measure",
        choices=tuple(MEASURES),
        default="ari",
        help="measure to rank by (default: %(default)s; vi ranks smallest first)",
    )
    options.add_models(
        p, single=True,
        one_sided="--reference R is a fixed reference; only each FILE is random (needs "
        "--reference)",
    )
    options.add_average(p)
    options.add_inputs(p)


def run(args: argparse.Namespace) -> int:
    if args.one_sided and args.reference is None:
        raise UsageError("--one-sided needs --reference (the fixed clustering)")
    paths = ([args.reference] if args.reference is not None else []) + list(args.files)
    if args.reference is None and len(paths) < 2:
        raise UsageError("rank needs at least two FILEs (or --reference R and one FILE)")
    clusterings = inputs.read_inputs(args, paths)
    if args.reference is not None:
        ref, others = clusterings[0], clusterings[1:]
        pairs = [(ref, c) for c in others]
    else:
        pairs = list(itertools.combinations(clusterings, 2))
    progress = options.progress("rank", len(pairs), args)
    values, notes = [], []
    degenerate_notes = load("chanceclust.comparison", "degenerate_notes")
    for done, (x, y) in enumerate(pairs, 1):
        table = contingency(inputs.aligned(args, x, y))
        rows = measure_rows(
            args.measure, table, [args.model], args.one_sided, args.average_method,
        )
        values.append(rows[0]["value"])
        notes.append(degenerate_notes(table, args.measure, [args.model], args.one_sided))
        progress.set(done)
    progress.close()
    order = sorted(  # a value by convention (degenerate) after every real one
        range(len(pairs)),
        key=lambda i: (bool(notes[i]), values[i] if REGISTRY[args.measure].distance
                       else -values[i]),
    )
    adjusted = REGISTRY[args.measure].uses_model
    label = args.measure + (f" ({args.model})" if adjusted else "")
    rows = []
    for rank, i in enumerate(order, 1):
        x, y = pairs[i]
        if args.reference is not None:
            rows.append({"rank": rank, "clustering": y.source, args.measure: values[i]})
        else:
            rows.append({"rank": rank, "a": x.source, "b": y.source, args.measure: values[i]})
        rows[-1]["note"] = "degenerate" if notes[i] else ""
    columns = ["rank", "clustering" if args.reference is not None else "a"]
    columns += [] if args.reference is not None else ["b"]
    columns.append(args.measure)
    if any(notes):
        columns.append("note")
    meta: dict[str, Any] = {"measure": args.measure, "model": args.model if adjusted
                            else None, "one_sided": args.one_sided, "reference": args.reference}
    meta["summary"] = f"# ranked by {label}" + (
        f" against {clusterings[0].source}" if args.reference is not None else ""
    ) + (", one-sided" if args.one_sided else "")
    if any(notes):
        meta["summary"] += ("\n# note: rows marked degenerate have a value by convention (their "
                            "random model gives the observed table in every draw); they are "
                            "ranked after the real comparisons")
    out(args, rows, columns, meta)
    return 0
