"""Reproductions of the four experiments of Gates & Ahn (JMLR 2017), Section 5.

Needs the optional ``paper`` extra (matplotlib, scikit-learn, pooch; ``pip install ".[paper]"``
from a checkout)::

    chanceclust reproduce all --out results/          # see RUNTIMES
    chanceclust reproduce genes --out results/ --data my-copy/gene-expression

or from Python, ``chanceclust.paper.reproduce("digits", "results/", quick=True)``. Each
experiment writes its figures (PNG and PDF) and the CSVs behind them into ``out/<name>/`` and
its section of ``out/REPORT.md`` (the paper's claims next to our numbers, with a verdict).
The gene expression files come from ``--data`` or are downloaded and verified by
:func:`chanceclust.datasets.fetch_gene_expression`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from chanceclust.exceptions import InvalidInputError
from chanceclust.paper.plotting import require
from chanceclust.paper.report import ORDER, RUNTIMES, assemble, write_section

__all__ = ["DEFAULT_SEED", "EXPERIMENTS", "RUNTIMES", "add_reproduce_parser", "command", "reproduce",
           "run_reproduce"]

#: Seed used when none is given (the paper's year).
DEFAULT_SEED = 2017
#: Experiment name -> what it reproduces.
EXPERIMENTS = {
    "ranking": "Section 5.1, Figures 2-3: rankings of six clustering pairs",
    "digits": "Section 5.2, Figure 4: 400 K-means runs on the digits",
    "preferential": "Section 5.3, Figure 5: preferential attachment and size inhomogeneity",
    "genes": "Section 5.4, Figure 6: 35 gene expression studies",
}
def reproduce(name: str, out_dir: str | Path, *, quick: bool = False, seed: int = DEFAULT_SEED,
              data_dir: str | Path | None = None, progress: bool | None = None) -> Path:
    """Run one experiment (or ``"all"``) and return the path of the updated REPORT.md.

    Everything that can fail on the user's side is checked before the first experiment
    starts: the output folder, the ``paper`` extra, and (for ``genes`` and ``all``) the gene
    expression files, which are downloaded and verified when ``data_dir`` is not given.

    Parameters
    ----------
    name : {"ranking", "digits", "preferential", "genes", "all"}
        Experiment to run.
    out_dir : str or Path
        Output folder (created). Figures and CSVs go to ``out_dir/<name>/``.
    quick : bool, default=False
        Fewer runs and steps (a smoke run; see :data:`RUNTIMES`).
    seed : int, default=DEFAULT_SEED
        Seed of every random choice (K-means initializations, shuffles, random moves).
    data_dir : str or Path, optional
        Folder holding the 35 de Souto et al. (2008) gene expression files (checked against
        the SHA-256 registry). Default: :func:`chanceclust.datasets.fetch_gene_expression`,
        which downloads them once into the data home (``$CHANCECLUST_DATA`` or the user
        cache folder).
    progress : bool, optional
        Progress bars on stderr; None means only when stderr is a terminal.

    Returns
    -------
    Path
        ``out_dir/REPORT.md``.

    Raises
    ------
    ValueError
        Unknown ``name``, bad ``seed``, or a gene expression file that is empty or differs
        from the registry (the file is named).
    NotADirectoryError
        If ``out_dir`` names an existing file.
    FileNotFoundError
        If gene expression files are missing from ``data_dir``.
    ConnectionError
        If the gene expression files must be downloaded and cannot be.
    ImportError
        If matplotlib or scikit-learn (the ``paper`` extra) is missing.
    """
    if name != "all" and name not in EXPERIMENTS:
        raise InvalidInputError(f"`name` must be one of {', '.join((*EXPERIMENTS, 'all'))}; got {name!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InvalidInputError(f"`seed` must be a non-negative integer; got {seed!r}")
    out = Path(out_dir)
    for parent in (out, *out.parents):
        if parent.exists() and not parent.is_dir():
            raise NotADirectoryError(f"output folder {out}: {parent} is a file, not a folder")
    names = ORDER if name == "all" else (name,)
    for module in ("matplotlib", "sklearn"):
        require(module)
    data = None
    if "genes" in names:
        from chanceclust.paper.genes import data_folder

        data = data_folder(data_dir, progress)
    report = out / "REPORT.md"
    for n in names:
        module = importlib.import_module(f"chanceclust.paper.{n}")
        (out / n).mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        section = module.run(out / n, quick=quick, seed=seed,
                             data_dir=data if n == "genes" else None, progress=progress)
        elapsed = time.perf_counter() - start
        section += (f"\nRun: `{command(n, out, quick=quick, seed=seed, data_dir=data_dir)}`"
                    f" ({elapsed:.0f} s{_DATA_NOTE if n == 'genes' and data_dir is None else ''})."
                    "\n")
        report = write_section(out, n, section)
    return report if report.exists() else assemble(out)


_DATA_NOTE = ("; gene data fetched into the data home and checked against the SHA-256 "
              "registry")


def command(name: str, out_dir: str | Path, *, quick: bool = False, seed: int = DEFAULT_SEED,
            data_dir: str | Path | None = None) -> str:
    """The ``chanceclust reproduce`` command line that makes one experiment's section.

    Paths are written as the user gave them, except that absolute ones are shown relative
    to the working folder (or to ``~``) where possible, so reports carry no machine paths.

    Examples
    --------
    >>> command("genes", "results", data_dir="data/gene-expression", seed=1)
    'chanceclust reproduce genes --out results --data data/gene-expression --seed 1'
    >>> command("digits", "results", quick=True, data_dir="data/gene-expression")
    'chanceclust reproduce digits --out results --quick --seed 2017'
    """
    parts = ["chanceclust reproduce", name, "--out", _shown(out_dir)]
    if name == "genes" and data_dir is not None:
        parts += ["--data", _shown(data_dir)]
    if quick:
        parts.append("--quick")
    parts += ["--seed", str(seed)]
    return " ".join(parts)


def _shown(path: str | Path) -> str:
    """``path`` for a report: absolute paths relative to the working folder when they share
    more than the root with it, else to ``~``; relative paths as given."""
    p = Path(path)
    if p.is_absolute():
        cwd = Path.cwd()
        if Path(os.path.commonpath([p, cwd])) != Path(p.anchor):
            p = Path(os.path.relpath(p, cwd))
        elif p.is_relative_to(Path.home()) and Path.home() != Path(p.anchor):
            p = Path("~") / p.relative_to(Path.home())
    shown = p.as_posix()
    return shown if " " not in shown else repr(shown)


def add_reproduce_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``reproduce`` subcommand to an argparse ``subparsers`` object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "reproduce",
        help="reproduce the paper's experiments (figures, CSVs, REPORT.md)",
        description="Reproduce the four experiments of Gates & Ahn (2017), Section 5:\n"
        + "".join(f"  {k:<13} {v}\n" for k, v in EXPERIMENTS.items())
        + "Needs the paper extra (matplotlib, scikit-learn, pooch): pip install \".[paper]\" from a "
        + "checkout.",
        epilog="examples:\n  chanceclust reproduce all --out results/\n"
        "  chanceclust reproduce genes --out results/ --data my-copy/gene-expression\n\n"
        + textwrap.fill(f"runtime: {RUNTIMES}.", 90) + "\n"
        "Without --data the 35 gene expression files of de Souto et al. (2008) are downloaded "
        "once\n(22.8 MiB) into the data home ($CHANCECLUST_DATA, else the user cache folder) "
        "and checked\nagainst chanceclust's SHA-256 registry.\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("experiment", choices=(*EXPERIMENTS, "all"), help="experiment to run")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--quick", action="store_true",
                   help="fewer runs and steps (a smoke run, see the runtime below)")
    p.add_argument("--seed", type=_seed, default=DEFAULT_SEED, metavar="S",
                   help="random seed >= 0 (default: %(default)s)")
    p.add_argument("--data", metavar="DIR",
                   help="folder holding the 35 gene expression files *_database.txt (default: "
                   "download them once into the data home)")
    g = p.add_argument_group("general")
    g.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    g.add_argument("--debug", action="store_true", help="show a traceback on errors")
    p.set_defaults(command="reproduce", func=run_reproduce)
    return p


def _seed(text: str) -> int:
    """Type of --seed: a non-negative integer (argparse names the option in its error)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def run_reproduce(args: argparse.Namespace) -> int:
    """Run the ``reproduce`` subcommand; print the report's path and return the exit status.

    0 on success, 1 when the ``paper`` extra (matplotlib, scikit-learn, pooch) is missing, 2
    when an input is unusable (``--out`` names a file; a gene expression file is missing,
    empty or not the published one; the files cannot be downloaded). Nothing runs then.
    """
    out = Path(args.out)
    blocker = next((p for p in (out, *out.parents) if p.exists()), None)
    if blocker is not None and not blocker.is_dir():
        print(f"chanceclust: error: reproduce: --out {args.out}: {blocker} is a file, not a "
              "folder", file=sys.stderr)
        return 2
    try:
        report = reproduce(args.experiment, args.out, quick=args.quick, seed=args.seed,
                           data_dir=args.data, progress=False if args.quiet else None)
    except OSError as exc:  # missing data, unwritable --out: name the path
        if getattr(args, "debug", False):
            raise
        where = f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else exc
        print(f"chanceclust: error: reproduce: {where}", file=sys.stderr)
        return 2
    except (ImportError, ValueError) as exc:
        if getattr(args, "debug", False):
            raise
        print(f"chanceclust: error: reproduce: {exc}", file=sys.stderr)
        return 1 if isinstance(exc, ImportError) else 2
    print(report)
    return 0
