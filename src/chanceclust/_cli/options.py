"""What several subcommands share: the program name, usage errors, option types and groups.

A subcommand declares its own options in its module; the groups here (input, output, random
model, general) are the ones several subcommands take, declared once.
"""

from __future__ import annotations

import argparse
import decimal
import itertools
import sys
from collections.abc import Callable, Sequence
from typing import Any

from chanceclust._progress import Progress
from chanceclust._validation import (
    _AVERAGE_ALIASES,
    AVERAGE_METHODS,
    MODELS,
    ONE_SIDE_AVERAGE_METHODS,
    UNASSIGNED_POLICIES,
)
from chanceclust.exceptions import InvalidInputError
from chanceclust.io import FORMATS

PROG = "chanceclust"
# --average-method also accepts the aliases and the one-side normalizations
AVERAGE_CHOICES = (*AVERAGE_METHODS, *_AVERAGE_ALIASES, *ONE_SIDE_AVERAGE_METHODS)

#: Bounds of the numeric options: what the library supports (N up to the int64 limit) or what
#: a command can hold in memory and write out (sampled labels, null samples, decimals).
MAX_N = 2**63 - 1
MAX_SAMPLE_LABELS = 10**7  # sample: --n times --count
MAX_COUNT = 10**6
MAX_TEST_SAMPLES = 10**7
MAX_DIGITS = 30


class UsageError(InvalidInputError):
    """A bad option or combination of options: the user's input (exit status 2)."""


#: The optional modules the CLI uses, and what installs each (the install line of the message).
EXTRAS = {
    "pyarrow": "'chanceclust[dask]' (or pyarrow alone)",
    "dask": "'chanceclust[dask]'",
    "distributed": "'chanceclust[dask]'",
    "matplotlib": "matplotlib",
}


def missing_extra(what: str, module: str) -> UsageError:
    """The one message of a missing optional module: the user's to install (exit status 2)."""
    return UsageError(f"{what} needs {module}: pip install {EXTRAS[module]}")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


# --------------------------------------------------------------------------- option types


def comma_list(choices: Sequence[str], what: str) -> Callable[[str], list[str]]:
    """An option type for a comma list of ``choices`` (argparse names the option)."""

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


def bounded_int(low: int, high: int | None = None) -> Callable[[str], int]:
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


def positive_float(text: str) -> float:
    """An option type for a finite number > 0 (seconds)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


positive_int = bounded_int(1)
seed = bounded_int(0)


def int_list(text: str) -> list[int]:
    """An option type for comma-separated positive integers (cluster sizes)."""
    values = [_parse_int(t) for t in text.replace(" ", "").split(",") if t]
    if not values or any(v is None or v < 1 or v > MAX_N for v in values):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated positive integers (each at most 2**63 - 1), got {text!r}"
        )
    return values  # type: ignore[return-value]


def flatten(lists: list[list[str]] | None, default: list[str]) -> list[str]:
    """The items of a repeatable comma-list option, first occurrence kept, else ``default``."""
    if not lists:
        return list(default)
    out: list[str] = []
    for item in itertools.chain.from_iterable(lists):
        if item not in out:
            out.append(item)
    return out


# --------------------------------------------------------------------------- option groups


def subparser(sub: Any, name: str, module: Any) -> None:
    """Declare subcommand ``name`` from its module: ``HELP`` (its description), ``EXAMPLES``
    (commands after the program name, one a line), its own options (``add_arguments``), then the output
    options (--digits unless ``DIGITS = False``) and the general ones; ``run`` runs it."""
    p: argparse.ArgumentParser = sub.add_parser(
        name,
        help=module.HELP,
        description=module.HELP,
        epilog="example:\n" + "".join(f"  {PROG} {e}\n" for e in module.EXAMPLES.splitlines()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    module.add_arguments(p)
    add_output(p, digits=getattr(module, "DIGITS", True))
    add_common(p)
    p.set_defaults(command=name, func=module.run)


def add_common(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("general")
    g.add_argument("-q", "--quiet", action="store_true", help="no notes or progress on stderr")
    g.add_argument("--debug", action="store_true", help="show a traceback on errors")


def add_output(p: argparse.ArgumentParser, *, digits: bool = True) -> None:
    """--format, and --digits where the output has real numbers (not for ``sample``)."""
    g = p.add_argument_group("output")
    g.add_argument(
        "--format",
        choices=("text", "json", "tsv"),
        default="text",
        help="output format (default: %(default)s)",
    )
    if digits:
        g.add_argument(
            "--digits",
            type=bounded_int(1, MAX_DIGITS),
            default=6,
            metavar="D",
            help=f"decimals in the text table, 1 to {MAX_DIGITS} (default: %(default)s; "
            "json/tsv keep full precision)",
        )


def add_inputs(p: argparse.ArgumentParser, *, parquet: bool = False) -> None:
    """The options that read clusterings from files (``parquet``: a Parquet dataset too)."""
    g = p.add_argument_group("input")
    g.add_argument(
        "--input-format",
        choices=("auto", *FORMATS, *(("parquet",) if parquet else ())),
        default="auto",
        help="format of the input files (default: auto, detected as 'chanceclust --help' explains)",
    )
    g.add_argument(
        "--column",
        action="append",
        metavar="COL",
        help="csv/tsv label column, by header name or 1-based index; give it once for all "
        "inputs or once per input, in order. Without it a one-column table is labels by "
        "position and a two-column table is element id, label",
    )
    g.add_argument(
        "--id-column", metavar="COL", help="csv/tsv column of element ids (match by id)"
    )
    g.add_argument(
        "--delimiter", metavar="CHAR",
        help="the field separator of csv/tsv tables and cells files, e.g. ';' (default: ',' "
        "for .csv, TAB for .tsv); a text file read with it is a table",
    )
    g.add_argument(
        "--unassigned",
        choices=UNASSIGNED_POLICIES,
        default="raise",
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
        "--na",
        choices=("keep",),
        help="'keep' reads missing labels ('', NA, NaN, null, None, ...) as an ordinary label "
        "(default: they are unassigned, see --unassigned)",
    )
    g.add_argument(
        "--header",
        action=argparse.BooleanOptionalAction,
        help="the first line of every input is a header: skip it (--no-header: read it as "
        "data). By default text files have none, and one whose first line differs in kind from "
        "the others (a non-integer among integers) is refused; a csv/tsv table's first row is "
        "its header unless a field of it occurs below (a note says which)",
    )
    g.add_argument(
        "--header-of",
        action="append",
        metavar="FILE",
        help="the first line of FILE (an input as written on the command line) is a header; "
        "repeatable. Pairs a file with a header with one without: the others follow "
        "--header/--no-header",
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


def add_large_inputs(p: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """--contingency, --engine and --scheduler of ``compare`` and ``table`` (the group)."""
    group = p.add_argument_group("large inputs")
    group.add_argument(
        "--contingency",
        metavar="CELLS",
        help="instead of A B: a table of cells 'label_a<TAB>label_b<TAB>count' (csv too, "
        "with quoting), as any engine's group-by-count writes it; --header skips a header "
        "line, --unassigned applies to missing labels",
    )
    group.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="where a Parquet input is counted: this process, row group by row group, or "
        "Dask (needs chanceclust[dask]; default: %(default)s)",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://host:8786) for --engine dask; default: Dask's "
        "local threaded scheduler",
    )
    add_scheduler_timeout(group)
    return group


def add_scheduler_timeout(group: Any) -> None:
    """--scheduler-timeout: how long to try to reach --scheduler."""
    group.add_argument(
        "--scheduler-timeout",
        type=positive_float,
        default=10.0,
        metavar="SECONDS",
        help="give up reaching --scheduler after SECONDS (default: %(default)s)",
    )


#: --one-sided of the commands that compare A with B
ONE_SIDED_A = "the first clustering (A) is a fixed reference; only the other is random"


def add_models(p: argparse.ArgumentParser, *, one_sided: str, single: bool = False) -> None:
    """--model (one, or a repeatable list with --all-models) and --one-sided (its help)."""
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
            type=comma_list(MODELS, "model"),
            metavar="MODEL",
            help="random model: perm, num or all; repeatable, or a comma list (default: perm)",
        )
        m.add_argument(
            "--all-models", action="store_true", help="every model: same as --model perm,num,all"
        )
    g.add_argument("--one-sided", action="store_true", help=one_sided)


def add_average(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--average-method",
        choices=AVERAGE_CHOICES,
        default="arithmetic",
        help="normalization of nmi/ami (sqrt = geometric, sum = arithmetic; true or pred: "
        "the first or the second clustering's entropy bound alone; default: %(default)s)",
    )


def models(args: argparse.Namespace) -> list[str]:
    """The models of a repeatable --model (default perm) or --all-models."""
    if getattr(args, "all_models", False):
        return list(MODELS)
    return flatten(args.model, ["perm"])


def note(args: argparse.Namespace, message: str) -> None:
    """A note on stderr, unless --quiet."""
    if not args.quiet:
        print(f"{PROG}: note: {message}", file=sys.stderr)


def progress(label: str, total: int, args: argparse.Namespace) -> Progress:
    """A progress bar on stderr, only when stderr is a terminal and not ``--quiet``."""
    return Progress(label, total, enabled=not args.quiet and sys.stderr.isatty() and total > 1)
