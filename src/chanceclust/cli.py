"""Command line: ``chanceclust`` (or ``python -m chanceclust``).

Results go to standard output, diagnostics to standard error. Exit status: 0 on success, 2 on a
usage or input error (one line naming the option, or the file and line, and the problem;
``--debug`` adds the traceback), 1 only on an internal error (a bug: the message asks to report
it). Results are buffered and written only once a command has succeeded, so an error never
leaves partial output. Numeric options are bounded (the bound is in the error message): N below
2**63 for ``expect``, at most 10^7 sampled labels, 10^7 test samples and 30 decimals.

The library is imported lazily, inside each subcommand, so that ``--help`` and ``--version`` start
fast and a module that is missing only disables the subcommands that need it.
"""

from __future__ import annotations

import argparse
import decimal
import importlib
import io
import itertools
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from chanceclust import __version__
from chanceclust._output import write_clusterings, write_rows
from chanceclust._progress import Progress
from chanceclust._validation import (
    _AVERAGE_ALIASES,
    ALTERNATIVES,
    AVERAGE_METHODS,
    DISTANCES,
    MODELS,
    ONE_SIDE_AVERAGE_METHODS,
)
from chanceclust.io import (
    FORMATS,
    Clustering,
    InputError,
    check_assigned,
    read_clustering,
    union,
)

PROG = "chanceclust"
# --average-method also accepts the aliases and the one-side normalizations
AVERAGE_METHODS = (*AVERAGE_METHODS, *_AVERAGE_ALIASES, *ONE_SIDE_AVERAGE_METHODS)
#: Measures of --measure: name -> (module, function, kind). kind: "raw", "nmi" or "adjusted".
MEASURES: dict[str, tuple[str, str, str]] = {
    "ri": ("chanceclust.measures", "rand_index", "raw"),
    "ari": ("chanceclust.adjusted", "adjusted_rand_index", "adjusted"),
    "mi": ("chanceclust.measures", "mutual_information", "raw"),
    "nmi": ("chanceclust.measures", "normalized_mutual_information", "nmi"),
    "ami": ("chanceclust.adjusted", "adjusted_mutual_information", "adjusted"),
    "fmi": ("chanceclust.measures", "fowlkes_mallows_index", "raw"),
    "jaccard": ("chanceclust.measures", "jaccard_index", "raw"),
    "vi": ("chanceclust.measures", "variation_of_information", "raw"),
}


class UsageError(ValueError):
    """A bad combination of options (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


# --------------------------------------------------------------------------- option types


def _comma_list(choices: Sequence[str], what: str) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        items = [t.strip() for t in text.split(",") if t.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"empty {what} list")
        for item in items:
            if item not in choices:
                raise argparse.ArgumentTypeError(
                    f"invalid {what} {item!r} (choose from {', '.join(choices)})"
                )
        return items

    return parse


#: Bounds of the numeric options: what the library supports (N up to the int64 limit) or what
#: a command can hold in memory and write out (sampled labels, null samples, decimals).
MAX_N = 2**63 - 1
MAX_SAMPLE_LABELS = 10**7  # sample: --n times --count
MAX_COUNT = 10**6
MAX_TEST_SAMPLES = 10**7
MAX_DIGITS = 30


def _parse_int(text: str) -> int | None:
    """An integer written as 12, 1_000 or 1e6 (integral values only), else None."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = decimal.Decimal(text.strip())
    except decimal.InvalidOperation:
        return None
    if not value.is_finite() or value != value.to_integral_value() or abs(value) > 10**40:
        return None
    return int(value)


def _bounded_int(low: int, high: int | None = None) -> Callable[[str], int]:
    """An option type for integers in [low, high]; argparse names the option in its error."""
    what = "a positive integer" if low == 1 else f"an integer >= {low}"
    if high is not None:
        what += f" at most {high}"

    def parse(text: str) -> int:
        value = _parse_int(text)
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


_positive_int = _bounded_int(1)
_seed = _bounded_int(0)


def _int_list(text: str) -> list[int]:
    values = [_parse_int(t) for t in text.replace(" ", "").split(",") if t]
    if not values or any(v is None or v < 1 or v > MAX_N for v in values):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated positive integers (each at most 2**63 - 1), got {text!r}"
        )
    return values  # type: ignore[return-value]


def _flatten(lists: list[list[str]] | None, default: list[str]) -> list[str]:
    if not lists:
        return list(default)
    out: list[str] = []
    for item in itertools.chain.from_iterable(lists):
        if item not in out:
            out.append(item)
    return out


# --------------------------------------------------------------------------- parser

_MAIN_EPILOG = f"""\
examples:
  {PROG} compare truth.txt pred.txt --model num --measure ari,ami
  {PROG} table truth.txt pred.txt
  {PROG} rank run1.txt run2.txt run3.txt --measure ami --model all
  {PROG} expect --n 1000 --k-true 5 --k-pred 8 --model num --model all
  {PROG} sample --n 10 --model num --k 3 --count 5 --seed 1
  {PROG} test truth.txt pred.txt --model num --samples 999 --seed 1
  {PROG} reproduce all --out results/        (needs chanceclust[paper])

input formats (--input-format, detected when not given):
  labels    one label per line, matched by position
  pairs     element<TAB>cluster lines, matched by element id
  clusters  one cluster per line, members separated by whitespace
  csv, tsv  a table with a header; --column picks the labels, --id-column the ids
  json      a list of labels, a list of member lists, {{element: cluster}} or
            {{cluster: [members]}}
  Gzip is read transparently; '-' is standard input. Detection: a .json/.csv/.tsv
  name (before .gz); else JSON if the text starts with [ or {{; else labels if every
  line is one field; else pairs if every line is two TAB-separated fields; else
  clusters. Lines starting with # are comments in the text formats.

unassigned elements: a missing label ('', NA, NaN, null, None), a label given by
  --unassigned-label (repeatable; e.g. --unassigned-label -1 for DBSCAN/HDBSCAN noise), or an
  element that only the other input names. By default they are an error naming the file and
  line; --unassigned drop leaves them out of both inputs, singletons makes each its own
  cluster, cluster puts those of an input in one cluster. The header says how many.

models: perm (cluster sizes fixed: the usual ARI/AMI), num (uniform over clusterings
  with the same number of clusters), all (uniform over all clusterings). --model is
  repeatable and takes comma lists (--model perm,num); --model all means the 'all'
  model only; --all-models means perm,num,all.

exit status: 0 success, 2 usage or input error, 1 internal error.
"""


def _add_common(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("general")
    g.add_argument("-q", "--quiet", action="store_true", help="no notes or progress on stderr")
    g.add_argument("--debug", action="store_true", help="show a traceback on errors")


def _add_output(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    g.add_argument(
        "--format",
        choices=("text", "json", "tsv"),
        default="text",
        help="output format (default: %(default)s)",
    )
    g.add_argument(
        "--digits",
        type=_bounded_int(1, MAX_DIGITS),
        default=6,
        metavar="D",
        help=f"decimals in the text table, 1 to {MAX_DIGITS} (default: %(default)s; json/tsv "
        "keep full precision)",
    )


def _add_inputs(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("input")
    g.add_argument(
        "--input-format",
        choices=("auto", *FORMATS),
        default="auto",
        help="format of the input files (default: auto, detected as 'chanceclust --help' explains)",
    )
    g.add_argument(
        "--column",
        action="append",
        metavar="COL",
        help="csv/tsv label column, by header name or 1-based index; give it once for all "
        "inputs or once per input, in order",
    )
    g.add_argument(
        "--id-column", metavar="COL", help="csv/tsv column of element ids (match by id)"
    )
    g.add_argument(
        "--unassigned",
        choices=("raise", "drop", "singletons", "cluster"),
        help="elements without a cluster (a missing label such as '', NA or NaN, a label given "
        "by --unassigned-label, or an element only the other input names): fail (default), "
        "drop them from both inputs, make each its own cluster, or put those of an input in "
        "one cluster",
    )
    g.add_argument(
        "--unassigned-label",
        action="append",
        metavar="VALUE",
        help="a label that marks an element as unassigned, e.g. -1 for DBSCAN/HDBSCAN noise; "
        "repeatable",
    )
    g.add_argument(
        "--missing",
        choices=("error", "intersect"),
        help="alias: 'intersect' is --unassigned drop, 'error' is --unassigned raise",
    )
    g.add_argument(
        "--na",
        choices=("error", "keep", "drop"),
        help="missing labels ('', NA, NaN, null, None, ...): 'keep' reads them as an ordinary "
        "label; 'drop' and 'error' are aliases of --unassigned drop and raise",
    )
    g.add_argument(
        "--line-ids",
        type=int,
        choices=(0, 1),
        help="number the elements of positional inputs 0,1,... (or 1,2,...) so that they "
        "match inputs with element ids",
    )
    g.add_argument(
        "--encoding", default="utf-8", help="text encoding of the inputs (default: %(default)s)"
    )


def _add_models(p: argparse.ArgumentParser, *, single: bool = False) -> None:
    g = p.add_argument_group("random model")
    if single:
        g.add_argument(
            "--model", choices=MODELS, default="perm", help="random model (default: %(default)s)"
        )
    else:
        m = g.add_mutually_exclusive_group()
        m.add_argument(
            "--model",
            action="append",
            type=_comma_list(MODELS, "model"),
            metavar="MODEL",
            help="random model: perm, num or all; repeatable, or a comma list (default: perm)",
        )
        m.add_argument(
            "--all-models", action="store_true", help="every model: same as --model perm,num,all"
        )
    g.add_argument(
        "--one-sided",
        action="store_true",
        help="the first clustering (or --reference) is a fixed reference; only the other "
        "is random",
    )


def _add_average(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--average-method",
        choices=AVERAGE_METHODS,
        default="arithmetic",
        help="normalization of nmi/ami (sqrt = geometric, sum = arithmetic; true or pred: "
        "the first or the second clustering's entropy bound alone; default: %(default)s)",
    )


def _subparser(sub: Any, name: str, help_: str, epilog: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        name,
        help=help_,
        description=help_,
        epilog="example:\n" + epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.set_defaults(command=name)
    return p


def get_parser() -> argparse.ArgumentParser:
    """Build the argument parser (apart from :func:`main`, for documentation tools and tests).

    Each subcommand's options are added by its ``_add_<command>`` function, which sits
    right above the ``_run_<command>`` function that runs it (section "subcommands").
    """
    parser = _Parser(
        prog=PROG,
        description="Compare clusterings adjusted for chance under the perm, num and all "
        "random models (Gates & Ahn, JMLR 2017).",
        epilog=_MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__} (Python {sys.version.split()[0]})",
    )
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    _add_compare(sub)
    _add_table(sub)
    _add_rank(sub)
    _add_expect(sub)
    _add_sample(sub)
    _add_test(sub)

    from chanceclust.paper import add_reproduce_parser  # light: matplotlib loads on use

    add_reproduce_parser(sub)
    from chanceclust import _cli_scale  # Parquet, --contingency, Dask, pairwise (#12)

    _cli_scale.extend(sub)
    return parser


# --------------------------------------------------------------------------- helpers


def _progress(label: str, total: int, args: argparse.Namespace) -> Progress:
    """A progress bar on stderr, only when stderr is a terminal and not ``--quiet``."""
    return Progress(label, total, enabled=not args.quiet and sys.stderr.isatty() and total > 1)


def _note(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(f"{PROG}: note: {message}", file=sys.stderr)


def _load(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def _read_inputs(args: argparse.Namespace, paths: list[str]) -> list[Clustering]:
    if sum(p == "-" for p in paths) > 1:
        raise UsageError("only one input can be '-' (standard input)")
    columns = args.column or []
    if len(columns) not in (0, 1, len(paths)):
        raise UsageError(
            f"--column given {len(columns)} times for {len(paths)} inputs: give it once (for "
            "every input) or once per input"
        )
    out = []
    for i, path in enumerate(paths):
        per_input = len(columns) == len(paths)
        column = columns[i] if per_input else (columns[0] if columns else None)
        out.append(
            read_clustering(
                path,
                input_format=args.input_format,
                column=column,
                id_column=args.id_column,
                encoding=args.encoding,
                na="keep" if args.na == "keep" else "drop",  # None: --unassigned decides
                strict_columns=per_input and len(paths) > 1 or len(paths) == 1,
            )
        )
    if (columns or args.id_column) and not any(c.format in ("csv", "tsv") for c in out):
        raise UsageError("--column and --id-column apply to csv/tsv inputs; none was read as one")
    return out


_ALIASES = {("missing", "error"): "raise", ("missing", "intersect"): "drop",
            ("na", "error"): "raise", ("na", "drop"): "drop"}


def _unassigned_policy(args: argparse.Namespace) -> str:
    """--unassigned, or what its aliases --missing and --na say (they must agree)."""
    chosen = {f"--unassigned {args.unassigned}": args.unassigned} if args.unassigned else {}
    for option in ("missing", "na"):
        policy = _ALIASES.get((option, getattr(args, option)))
        if policy is not None:
            chosen[f"--{option} {getattr(args, option)}"] = policy
    if len(set(chosen.values())) > 1:
        raise UsageError(f"{' and '.join(chosen)} contradict each other")
    return next(iter(chosen.values()), "raise")


def _aligned_codes(args: argparse.Namespace, a: Clustering, b: Clustering) -> tuple[Any, Any]:
    policy = _unassigned_policy(args)
    pair = union(a, b, line_ids=args.line_ids, unassigned_labels=args.unassigned_label or ())
    if policy == "raise":
        check_assigned(pair, a, b)  # names the file and line of the first one
    validate = _load("chanceclust._validation", "validate_clusterings")
    c = validate(pair.labels_a, pair.labels_b, unassigned=policy)
    if c.codes_true.shape[0] < 2:
        raise InputError(
            a.source, a.line_of(0),
            f"only {c.codes_true.shape[0]} element(s) to compare; at least 2 are needed",
        )
    note = c.report.describe(a.source, b.source)
    if note:
        _note(args, f"{a.source} vs {b.source}: {note}")
    args.unassigned_report = c.report
    return c.codes_true, c.codes_pred


def _models(args: argparse.Namespace) -> list[str]:
    if getattr(args, "all_models", False):
        return list(MODELS)
    return _flatten(args.model, ["perm"])


def _measure_rows(
    name: str,
    codes_a: Any,
    codes_b: Any,
    contingency: Any,
    models: list[str],
    one_sided: bool,
    average_method: str,
) -> list[dict[str, Any]]:
    module, func_name, kind = MEASURES[name]
    func = _load(module, func_name)
    sided = "one-sided" if one_sided else "two-sided"
    if kind == "raw":
        return [
            {"measure": name, "model": None, "sided": None,
             "value": float(func(contingency=contingency))}
        ]
    if kind == "nmi":
        value = func(contingency=contingency, average_method=average_method)
        return [{"measure": name, "model": None, "sided": None, "value": float(value)}]
    rows = []
    for model in models:
        kwargs: dict[str, Any] = {"model": model, "one_sided": one_sided}
        if name == "ami":
            kwargs["average_method"] = average_method
        value = func(contingency=contingency, **kwargs)
        rows.append({"measure": name, "model": model, "sided": sided, "value": float(value)})
    return rows


def _contingency(codes_a: Any, codes_b: Any) -> Any:
    return _load("chanceclust.contingency", "contingency_table")(codes_a, codes_b)


def _out(args: argparse.Namespace, rows: list[dict[str, Any]], columns: list[str],
         meta: dict[str, Any]) -> None:
    if args.format == "text" and meta.get("summary"):
        sys.stdout.write(meta["summary"] + "\n")
    meta = {k: v for k, v in meta.items() if k != "summary"}
    write_rows(rows, columns, args.format, sys.stdout, meta=meta, digits=args.digits)


def _summary(
    a: Clustering, b: Clustering, ca: Any, cb: Any, report: Any = None
) -> dict[str, Any]:
    ka, kb = int(ca.max()) + 1, int(cb.max()) + 1
    meta = {
        "a": a.source,
        "b": b.source,
        "n": len(ca),
        "clusters_a": ka,
        "clusters_b": kb,
        "summary": f"# {a.source} ({ka} clusters) vs {b.source} ({kb} clusters): "
        f"{len(ca)} elements",
    }
    if report is not None and report.describe(a.source, b.source):
        meta["unassigned"] = {
            "policy": report.policy,
            "n_unassigned_a": report.n_unassigned_true,
            "n_unassigned_b": report.n_unassigned_pred,
            "n_dropped": report.n_dropped,
            "n_reassigned": report.n_reassigned,
        }
        meta["summary"] += "; " + report.describe(a.source, b.source)
    return meta


# --------------------------------------------------------------------------- subcommands


def _add_compare(sub: Any) -> None:
    """The ``compare`` subcommand's options; :func:`_run_compare` below runs it."""
    p = _subparser(
        sub,
        "compare",
        "compare two clusterings with chosen measures and models",
        f"  {PROG} compare truth.txt pred.txt --measure ari,ami --model perm --model num\n"
        f"  {PROG} compare truth.tsv pred.json --one-sided --all-models --format json\n"
        f"  {PROG} compare results.csv results.csv --column truth --column kmeans\n",
    )
    p.add_argument("a", metavar="A", help="first clustering (the reference with --one-sided)")
    p.add_argument("b", metavar="B", help="second clustering")
    p.add_argument(
        "--measure",
        action="append",
        type=_comma_list(tuple(MEASURES), "measure"),
        metavar="LIST",
        help=f"comma list of {', '.join(MEASURES)}; repeatable (default: ari,ami)",
    )
    _add_models(p)
    _add_average(p)
    _add_inputs(p)
    _add_output(p)
    _add_common(p)
    p.set_defaults(func=_run_compare)


def _run_compare(args: argparse.Namespace) -> int:
    a, b = _read_inputs(args, [args.a, args.b])
    ca, cb = _aligned_codes(args, a, b)
    measures = _flatten(args.measure, ["ari", "ami"])
    models = _models(args)
    table = _contingency(ca, cb)
    rows: list[dict[str, Any]] = []
    for name in measures:
        rows += _measure_rows(name, ca, cb, table, models, args.one_sided, args.average_method)
    meta = _summary(a, b, ca, cb, args.unassigned_report)
    meta["average_method"] = args.average_method
    _out(args, rows, ["measure", "model", "sided", "value"], meta)
    return 0


def _add_table(sub: Any) -> None:
    """The ``table`` subcommand's options; :func:`_run_table` below runs it."""
    p = _subparser(
        sub,
        "table",
        "every measure x model x sidedness x normalization for two clusterings",
        f"  {PROG} table truth.txt pred.txt\n  {PROG} table truth.txt pred.txt --format tsv\n",
    )
    p.add_argument("a", metavar="A", help="first clustering (the reference when one-sided)")
    p.add_argument("b", metavar="B", help="second clustering")
    _add_inputs(p)
    _add_output(p)
    _add_common(p)
    p.set_defaults(func=_run_table)


def _run_table(args: argparse.Namespace) -> int:
    a, b = _read_inputs(args, [args.a, args.b])
    ca, cb = _aligned_codes(args, a, b)
    result = _load("chanceclust.comparison", "compare")(ca, cb)
    rows = _result_rows(result)
    columns = ["measure", "model", "sided", "average_method", "value", "expected"]
    _out(args, rows, columns, _summary(a, b, ca, cb, args.unassigned_report))
    return 0


def _result_rows(result: Any) -> list[dict[str, Any]]:
    """Rows of a ComparisonResult in the vocabulary of ``compare`` (ari, two-sided, ...)."""
    rows = []
    for rec in result.to_records():
        sided = rec.get("one_sided")
        rows.append(
            {
                "measure": str(rec["measure"]).lower(),
                "model": rec.get("model"),
                "sided": None if sided is None else ("one-sided" if sided else "two-sided"),
                "average_method": rec.get("average_method"),
                "value": rec["value"],
                "expected": rec.get("expected"),
            }
        )
    return rows


def _add_rank(sub: Any) -> None:
    """The ``rank`` subcommand's options; :func:`_run_rank` below runs it."""
    p = _subparser(
        sub,
        "rank",
        "rank all pairs of clusterings, or clusterings against a reference",
        f"  {PROG} rank run*.txt --measure ami --model num\n"
        f"  {PROG} rank --reference truth.txt algo1.txt algo2.txt --one-sided --model all\n",
    )
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
    _add_models(p, single=True)
    _add_average(p)
    _add_inputs(p)
    _add_output(p)
    _add_common(p)
    p.set_defaults(func=_run_rank)


def _run_rank(args: argparse.Namespace) -> int:
    if args.one_sided and args.reference is None:
        raise UsageError("--one-sided needs --reference (the fixed clustering)")
    paths = ([args.reference] if args.reference is not None else []) + list(args.files)
    if args.reference is None and len(paths) < 2:
        raise UsageError("rank needs at least two FILEs (or --reference R and one FILE)")
    clusterings = _read_inputs(args, paths)
    if args.reference is not None:
        ref, others = clusterings[0], clusterings[1:]
        pairs = [(ref, c) for c in others]
    else:
        pairs = list(itertools.combinations(clusterings, 2))
    progress = _progress("rank", len(pairs), args)
    values = []
    for done, (x, y) in enumerate(pairs, 1):
        cx, cy = _aligned_codes(args, x, y)
        rows = _measure_rows(
            args.measure, cx, cy, _contingency(cx, cy), [args.model], args.one_sided,
            args.average_method,
        )
        values.append(rows[0]["value"])
        progress.set(done)
    progress.close()
    order = sorted(
        range(len(pairs)),
        key=lambda i: values[i] if args.measure in DISTANCES else -values[i],
    )
    kind = MEASURES[args.measure][2]
    label = args.measure + (f" ({args.model})" if kind == "adjusted" else "")
    rows = []
    for rank, i in enumerate(order, 1):
        x, y = pairs[i]
        if args.reference is not None:
            rows.append({"rank": rank, "clustering": y.source, args.measure: values[i]})
        else:
            rows.append({"rank": rank, "a": x.source, "b": y.source, args.measure: values[i]})
    columns = ["rank", "clustering" if args.reference is not None else "a"]
    columns += [] if args.reference is not None else ["b"]
    columns.append(args.measure)
    meta: dict[str, Any] = {"measure": args.measure, "model": args.model if kind == "adjusted"
                            else None, "one_sided": args.one_sided, "reference": args.reference}
    meta["summary"] = f"# ranked by {label}" + (
        f" against {clusterings[0].source}" if args.reference is not None else ""
    ) + (", one-sided" if args.one_sided else "")
    _out(args, rows, columns, meta)
    return 0


def _add_expect(sub: Any) -> None:
    """The ``expect`` subcommand's options; :func:`_run_expect` below runs it."""
    p = _subparser(
        sub,
        "expect",
        "expected Rand index and mutual information under a random model, without data",
        f"  {PROG} expect --n 1000 --k-true 5 --k-pred 8 --model num --model all\n"
        f"  {PROG} expect --n 10 --sizes-true 5,3,2 --sizes-pred 4,3,3 --model perm\n"
        f"  {PROG} expect --n 10 --sizes-true 5,3,2 --k-pred 4 --model num --one-sided\n",
    )
    p.add_argument(
        "--n", type=_bounded_int(1, MAX_N), required=True, help="number of elements (< 2**63)"
    )
    p.add_argument("--k-true", type=_positive_int, metavar="K", help="clusters of the first")
    p.add_argument("--k-pred", type=_positive_int, metavar="K", help="clusters of the second")
    p.add_argument(
        "--sizes-true", type=_int_list, metavar="S1,S2,...", help="cluster sizes of the first"
    )
    p.add_argument(
        "--sizes-pred", type=_int_list, metavar="S1,S2,...", help="cluster sizes of the second"
    )
    p.add_argument(
        "--measure",
        action="append",
        type=_comma_list(("ri", "mi"), "measure"),
        metavar="LIST",
        help="ri (expected Rand index) and/or mi (expected mutual information, nats); "
        "default: ri,mi",
    )
    _add_models(p)
    _add_output(p)
    _add_common(p)
    p.set_defaults(func=_run_expect)


def _check_expect_options(args: argparse.Namespace, models: list[str]) -> None:
    """The library's rules for the two sides (``_validation.check_summaries``), checked
    before any computation and with the option names in the messages (exit status 2)."""
    from chanceclust._validation import check_summaries  # noqa: PLC0415

    names = {"n": "--n", "sizes_true": "--sizes-true", "sizes_pred": "--sizes-pred",
             "n_clusters_true": "--k-true", "n_clusters_pred": "--k-pred"}
    for model in models:
        check_summaries(args.n, model, args.one_sided, args.sizes_true, args.k_true,
                        args.sizes_pred, args.k_pred, names=names)


def _run_expect(args: argparse.Namespace) -> int:
    measures = _flatten(args.measure, ["ri", "mi"])
    funcs = {
        "ri": ("E[RI]", _load("chanceclust.expectations", "expected_rand_index_baseline")),
        "mi": ("E[MI]", _load("chanceclust.expectations", "expected_mutual_information_baseline")),
    }
    models = _models(args)
    _check_expect_options(args, models)
    sided = "one-sided" if args.one_sided else "two-sided"
    rows = []
    for name in measures:
        quantity, func = funcs[name]
        for model in models:
            value = func(
                args.n,
                model=model,
                one_sided=args.one_sided,
                sizes_true=args.sizes_true,
                sizes_pred=args.sizes_pred,
                n_clusters_true=args.k_true if args.sizes_true is None else len(args.sizes_true),
                n_clusters_pred=args.k_pred if args.sizes_pred is None else len(args.sizes_pred),
            )
            rows.append(
                {"quantity": quantity, "model": model, "sided": sided, "value": float(value)}
            )
    meta = {"n": args.n, "k_true": args.k_true, "k_pred": args.k_pred,
            "sizes_true": args.sizes_true, "sizes_pred": args.sizes_pred}
    _out(args, rows, ["quantity", "model", "sided", "value"], meta)
    return 0


def _add_sample(sub: Any) -> None:
    """The ``sample`` subcommand's options; :func:`_run_sample` below runs it."""
    p = _subparser(
        sub,
        "sample",
        "draw random clusterings from a random model",
        f"  {PROG} sample --n 10 --model all --count 3 --seed 1\n"
        f"  {PROG} sample --n 100 --model num --k 4 --seed 7 > random.txt\n"
        f"  {PROG} sample --n 10 --model perm --sizes 5,3,2 --count 4 --format tsv --seed 1\n",
    )
    p.add_argument(
        "--n",
        type=_bounded_int(1, MAX_SAMPLE_LABELS),
        required=True,
        help=f"number of elements (at most {MAX_SAMPLE_LABELS})",
    )
    p.add_argument("--model", choices=MODELS, required=True, help="random model")
    p.add_argument("--k", type=_positive_int, help="number of clusters (model num)")
    p.add_argument("--sizes", type=_int_list, metavar="S1,S2,...", help="cluster sizes (perm)")
    p.add_argument(
        "--count",
        type=_bounded_int(1, MAX_COUNT),
        default=1,
        help=f"how many clusterings (default: 1; --n times --count at most {MAX_SAMPLE_LABELS})",
    )
    p.add_argument("--seed", type=_seed, help="random seed >= 0 (default: fresh entropy)")
    _add_output(p)
    _add_common(p)
    p.set_defaults(func=_run_sample)


def _run_sample(args: argparse.Namespace) -> int:
    import numpy as np  # noqa: PLC0415

    if args.model == "num" and args.k is None:
        raise UsageError("--model num needs --k (number of clusters)")
    if args.model == "perm" and args.sizes is None:
        raise UsageError("--model perm needs --sizes (cluster sizes, e.g. 5,3,2)")
    if args.sizes is not None and args.model != "perm":
        raise UsageError(f"--sizes applies to --model perm, not --model {args.model}")
    if args.k is not None and args.model == "all":
        raise UsageError("--k applies to --model num (or perm, as len(--sizes)), not --model all")
    if args.sizes is not None and sum(args.sizes) != args.n:
        raise UsageError(f"--sizes add up to {sum(args.sizes)}, not --n {args.n}")
    if args.sizes is not None and args.k is not None and args.k != len(args.sizes):
        raise UsageError(f"--sizes has {len(args.sizes)} clusters but --k is {args.k}")
    if args.k is not None and args.k > args.n:
        raise UsageError(f"--k {args.k} is more than --n {args.n} (at most N clusters)")
    if args.n * args.count > MAX_SAMPLE_LABELS:
        raise UsageError(
            f"--n {args.n} times --count {args.count} is {args.n * args.count} labels; "
            f"at most {MAX_SAMPLE_LABELS} are written at once (run it several times)"
        )
    random_clusterings = _load("chanceclust.samplers", "random_clusterings")
    kwargs: dict[str, Any] = {"model": args.model, "rng": np.random.default_rng(args.seed)}
    if args.model == "num":
        kwargs["n_clusters"] = args.k
    if args.model == "perm":
        kwargs["sizes"] = args.sizes
    samples = np.asarray(random_clusterings(args.count, args.n, **kwargs))
    write_clusterings(list(samples), args.format, sys.stdout)
    return 0


def _add_test(sub: Any) -> None:
    """The ``test`` subcommand's options; :func:`_run_test` below runs it."""
    p = _subparser(
        sub,
        "test",
        "significance of the agreement of two clusterings against random clusterings",
        f"  {PROG} test truth.txt pred.txt --model num --samples 999 --seed 1\n"
        f"  {PROG} test truth.txt pred.txt --measure ami --model all --one-sided --seed 1\n",
    )
    p.add_argument("a", metavar="A", help="first clustering (the reference with --one-sided)")
    p.add_argument("b", metavar="B", help="second clustering")
    p.add_argument(
        "--measure",
        choices=tuple(MEASURES),
        default="ari",
        help="statistic (default: %(default)s)",
    )
    p.add_argument(
        "--alternative",
        choices=ALTERNATIVES,
        help="greater: p = P(null >= observed), less, or two-sided (default: the measure's "
        "direction of agreement, as in the library: 'less' for vi, else 'greater')",
    )
    _add_models(p, single=True)
    p.add_argument(
        "--samples",
        type=_bounded_int(1, MAX_TEST_SAMPLES),
        default=999,
        metavar="M",
        help=f"random clusterings drawn, at most {MAX_TEST_SAMPLES} (default: %(default)s)",
    )
    p.add_argument("--seed", type=_seed, help="random seed >= 0 (default: fresh entropy)")
    _add_inputs(p)
    _add_output(p)
    _add_common(p)
    p.set_defaults(func=_run_test)


def _run_test(args: argparse.Namespace) -> int:
    a, b = _read_inputs(args, [args.a, args.b])
    ca, cb = _aligned_codes(args, a, b)
    significance_test = _load("chanceclust.significance", "significance_test")
    progress = _progress("test", args.samples, args)
    result = significance_test(
        args.measure,
        ca,
        cb,
        model=args.model,
        one_sided=args.one_sided,
        alternative=args.alternative,  # None: the library's default for the measure
        n_resamples=args.samples,
        rng=args.seed,
        progress=lambda done, _total: progress.set(done),
    )
    progress.close()
    alternative = result.alternative
    fields = {
        "statistic": result.statistic,
        "null_mean": result.null_mean,
        "null_std": result.null_std,
        "zscore": result.zscore,
        "pvalue": result.pvalue,
        "alternative": alternative,
        "n_samples": len(result.null_distribution),
    }
    rows = [{"quantity": k, "value": v} for k, v in fields.items()]
    meta = _summary(a, b, ca, cb, args.unassigned_report)
    meta.update(measure=args.measure, model=args.model, one_sided=args.one_sided,
                samples=args.samples, seed=args.seed, alternative=alternative)
    meta["summary"] += (
        f"; {args.measure} under {args.model}{', one-sided' if args.one_sided else ''}, "
        f"{args.samples} random clusterings"
    )
    _out(args, rows, ["quantity", "value"], meta)
    return 0


# --------------------------------------------------------------------------- entry point


def _error(message: str) -> None:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)


def _raised_by_chanceclust(exc: BaseException) -> bool:
    """Whether the innermost frame of ``exc``'s traceback is chanceclust's own code."""
    tb = exc.__traceback__
    if tb is None:
        return True
    while tb.tb_next is not None:
        tb = tb.tb_next
    # By module name, not file path: a test runner may import this module from the source
    # tree and its siblings from an installed copy (or as ``src.chanceclust.cli``).
    module = tb.tb_frame.f_globals.get("__name__", "")
    return "chanceclust" in module.split(".")


def _classify(exc: Exception, command: str) -> tuple[int, str]:
    """Exit status and one-line message for an exception raised by a subcommand."""
    if isinstance(exc, InputError):
        return 2, str(exc)
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("chanceclust"):
        return 1, f"{command} is not available yet ({exc.name} is missing)"
    if isinstance(exc, ValueError) and _raised_by_chanceclust(exc):
        # UsageError, or the library rejecting an argument: by the library's contract
        # every ValueError it raises names an invalid input. One raised inside numpy,
        # scipy or the standard library escaped the checks: a bug, reported as internal.
        return 2, f"{command}: {exc}"
    if isinstance(exc, MemoryError):  # the inputs or option values need more than this machine
        return 2, (
            f"{command}: not enough memory for these inputs and option values; "
            "try smaller inputs or option values"
        )
    return 1, (
        f"internal error: {type(exc).__name__}: {exc} "
        "(please report it; --debug shows the traceback)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = get_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if getattr(args, "command", None) is None:
        _error("choose a command: compare, table, rank, expect, sample, test or reproduce "
               f"(see '{PROG} --help')")
        return 2
    real_stdout = sys.stdout
    # Results are buffered and written only on success: an error never leaves partial output.
    sys.stdout = buffer = io.StringIO()
    try:
        status = int(args.func(args))
        sys.stdout = real_stdout
        sys.stdout.write(buffer.getvalue())
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as other Unix tools do.
        # Point stdout at devnull so that the final flush at exit does not fail again.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - every failure becomes one line and a status
        status, message = _classify(exc, args.command)
        if args.debug:
            traceback.print_exception(exc)
    finally:
        sys.stdout = real_stdout
    _error(message)
    return status
