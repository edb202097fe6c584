"""Reproductions of the four experiments of Gates & Ahn (JMLR 2017), Section 5.

Needs the optional extra ``chanceclust[paper]`` (matplotlib, scikit-learn)::

    chanceclust reproduce all --out results/          # < 15 minutes on 2 cores
    chanceclust reproduce genes --out results/ --quick

or from Python, ``chanceclust.paper.reproduce("digits", "results/", quick=True)``. Each
experiment writes its figures (PNG and PDF) and the CSVs behind them into ``out/<name>/`` and
its section of ``out/REPORT.md`` (the paper's claims next to our numbers, with a verdict).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path
from typing import Any

from chanceclust.paper.report import ORDER, assemble, write_section

__all__ = ["DEFAULT_SEED", "EXPERIMENTS", "add_reproduce_parser", "reproduce", "run_reproduce"]

#: Seed used when none is given (the paper's year).
DEFAULT_SEED = 2017
#: Experiment name -> what it reproduces.
EXPERIMENTS = {
    "ranking": "Section 5.1, Figures 2-3: rankings of six clustering pairs",
    "digits": "Section 5.2, Figure 4: 400 K-means runs on the digits",
    "preferential": "Section 5.3, Figure 5: preferential attachment and size inhomogeneity",
    "genes": "Section 5.4, Figure 6: 35 gene expression studies",
}


def default_data_dir() -> Path:
    """``../shared/data/gene-expression`` relative to the repository root (the project layout)."""
    return Path(__file__).resolve().parents[3].parent / "shared" / "data" / "gene-expression"


def reproduce(name: str, out_dir: str | Path, *, quick: bool = False, seed: int = DEFAULT_SEED,
              data_dir: str | Path | None = None, progress: bool | None = None) -> Path:
    """Run one experiment (or ``"all"``) and return the path of the updated REPORT.md.

    Parameters
    ----------
    name : {"ranking", "digits", "preferential", "genes", "all"}
        Experiment to run.
    out_dir : str or Path
        Output folder (created). Figures and CSVs go to ``out_dir/<name>/``.
    quick : bool, default=False
        Fewer runs and steps (all four together in well under two minutes).
    seed : int, default=DEFAULT_SEED
        Seed of every random choice (K-means initializations, searches, random moves).
    data_dir : str or Path, optional
        Folder of the de Souto et al. (2008) gene expression files (default:
        :func:`default_data_dir`).
    progress : bool, optional
        Progress bars on stderr; None means only when stderr is a terminal.

    Returns
    -------
    Path
        ``out_dir/REPORT.md``.
    """
    if name != "all" and name not in EXPERIMENTS:
        raise ValueError(f"`name` must be one of {', '.join((*EXPERIMENTS, 'all'))}; got {name!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"`seed` must be a non-negative integer; got {seed!r}")
    out = Path(out_dir)
    names = ORDER if name == "all" else (name,)
    report = out / "REPORT.md"
    for n in names:
        module = importlib.import_module(f"chanceclust.paper.{n}")
        (out / n).mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        section = module.run(out / n, quick=quick, seed=seed,
                             data_dir=None if data_dir is None else Path(data_dir),
                             progress=progress)
        elapsed = time.perf_counter() - start
        section += (f"\nRun: `chanceclust reproduce {n}{' --quick' if quick else ''} "
                    f"--seed {seed}`, {elapsed:.0f} s.\n")
        report = write_section(out, n, section)
    return report if report.exists() else assemble(out)


def add_reproduce_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``reproduce`` subcommand to an argparse ``subparsers`` object."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "reproduce",
        help="reproduce the paper's experiments (figures, CSVs, REPORT.md)",
        description="Reproduce the four experiments of Gates & Ahn (2017), Section 5: "
        + "; ".join(f"{k}: {v}" for k, v in EXPERIMENTS.items())
        + ". Needs the extra chanceclust[paper] (matplotlib, scikit-learn).",
        epilog="example:\n  chanceclust reproduce all --out results/\n"
        "  chanceclust reproduce genes --out results/ --data my-copy/gene-expression\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("experiment", choices=(*EXPERIMENTS, "all"), help="experiment to run")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--quick", action="store_true",
                   help="fewer runs and steps (all four in under two minutes)")
    p.add_argument("--seed", type=_seed, default=DEFAULT_SEED, metavar="S",
                   help="random seed >= 0 (default: %(default)s)")
    p.add_argument("--data", metavar="DIR",
                   help="gene expression folder (default: ../shared/data/gene-expression "
                   "next to the repository)")
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

    0 on success, 1 when the ``paper`` extra (matplotlib, scikit-learn) is missing, 2 when an
    input is unusable (e.g. no gene expression files in ``--data``).
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
