"""The parser of every subcommand, :func:`main`, and the exit status of each failure.

The exit statuses are those of docs/guide/cli.md (and ``--help``): :func:`_classify` maps each
kind of exception to its status and one-line message.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import traceback
from collections.abc import Sequence

from chanceclust import __version__
from chanceclust._cli import compare, expect, pairwise, rank, sample, table, test
from chanceclust._cli.options import EXTRAS, PROG, Parser, missing_extra, subparser
from chanceclust.exceptions import InternalError, InvalidFileError, InvalidInputError

#: The subcommands in the order of ``--help``; ``reproduce`` (chanceclust.paper) comes last.
COMMANDS = {
    "compare": compare,
    "table": table,
    "rank": rank,
    "expect": expect,
    "sample": sample,
    "test": test,
    "pairwise": pairwise,
}
COMMAND_NAMES = (*COMMANDS, "reproduce")

_MAIN_EPILOG = f"""\
examples:
  {PROG} compare truth.txt pred.txt --model num --measure ari,ami
  {PROG} table truth.txt pred.txt
  {PROG} rank run1.txt run2.txt run3.txt --measure ami --model all
  {PROG} expect --n 1000 --k-true 5 --k-pred 8 --model num --model all
  {PROG} sample --n 10 --model num --k 3 --count 5 --seed 1
  {PROG} test truth.txt pred.txt --model num --samples 999 --seed 1
  {PROG} pairwise run1.txt run2.txt run3.txt --measure ami --model num --jobs 2
  {PROG} reproduce all --out results/        (needs chanceclust[paper])

input formats (--input-format, detected when not given):
  labels    one label per line, matched by position
  pairs     element<TAB>cluster lines, matched by element id
  clusters  one cluster per line, members separated by whitespace
  csv, tsv  a table; --column picks the labels, --id-column the ids, --delimiter
            another separator; its first row is data when a field of it occurs below
  json      a list of labels, a list of member lists, {{element: cluster}} or
            {{cluster: [members]}}
  Gzip is read transparently; '-' is standard input. Detection: a .json/.csv/.tsv
  name (before .gz); else JSON if the text starts with [ or {{; else labels if every
  line is one field; else pairs if every line is two TAB-separated fields; else
  clusters. Lines starting with # are comments in the text formats, which have no
  header line: --header skips the first line of each (a labels or pairs file whose first
  label alone is not an integer is refused, never read with its header as a label).

unassigned elements: a missing label ('', NA, NaN, null, None), a label given by
  --unassigned-label (repeatable; e.g. --unassigned-label -1 for DBSCAN/HDBSCAN noise), or an
  element that only the other input names. By default they are an error naming the file and
  line; --unassigned drop leaves them out of both inputs, singletons makes each its own
  cluster, cluster puts those of an input in one cluster. The header says how many.

models: perm (cluster sizes fixed: the usual ARI/AMI), num (uniform over clusterings
  with the same number of clusters), all (uniform over all clusterings). --model is
  repeatable and takes comma lists (--model perm,num); --model all means the 'all'
  model only; --all-models means perm,num,all.

exit status: 0 success; 2 invalid input (an option, a file or a value; the message names
  it) or not enough memory for these inputs; 1 a bug in chanceclust (the message asks you
  to report it; --debug shows the traceback); 130 interrupted.
"""


def get_parser() -> argparse.ArgumentParser:
    """Build the argument parser (apart from :func:`main`, for documentation tools and tests)."""
    parser = Parser(
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
    for name, module in COMMANDS.items():
        subparser(sub, name, module)
    from chanceclust.paper import add_reproduce_parser  # matplotlib loads on use

    add_reproduce_parser(sub)
    return parser


# --------------------------------------------------------------------------- entry point


def _error(message: str) -> None:
    print(f"{PROG}: error: {' '.join(str(message).split())}", file=sys.stderr)


_TRACEBACK_HINT = "run again with --debug for the traceback"


def _classify(exc: Exception, command: str) -> tuple[int, str]:
    """Exit status and one-line message for an exception raised by a subcommand."""
    if isinstance(exc, InvalidFileError):  # names the file (and line) itself
        return 2, str(exc)
    if isinstance(exc, InvalidInputError):  # an option, or a value the library refuses
        return 2, f"{command}: {exc}"
    if isinstance(exc, MemoryError):  # the inputs and option values need more than this machine
        return 2, (
            f"{command}: not enough memory for these inputs and option values; "
            "try smaller inputs or option values"
        )
    module = (exc.name or "").split(".")[0] if isinstance(exc, ModuleNotFoundError) else ""
    if module in EXTRAS:  # an optional extra that is not installed: the user's to install
        return 2, str(missing_extra(command, module))
    if module == "chanceclust":
        return 1, (  # a module of this package itself: a broken installation, not the input
            f"{command}: chanceclust's module {exc.name} is missing: reinstall chanceclust "
            f"(if that does not help, this is a bug, please report it; {_TRACEBACK_HINT})"
        )
    if isinstance(exc, InternalError):  # its message already says it is a bug
        return 1, f"internal error: {exc} ({_TRACEBACK_HINT})"
    return 1, (
        f"internal error: {type(exc).__name__}: {exc} (this is a bug in chanceclust, please "
        f"report it; {_TRACEBACK_HINT})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = get_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if getattr(args, "command", None) is None:
        listed = ", ".join(COMMAND_NAMES[:-1]) + f" or {COMMAND_NAMES[-1]}"
        _error(f"choose a command: {listed} (see '{PROG} --help')")
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
