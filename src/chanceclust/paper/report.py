"""Report helpers: progress bar, CSV files, claim tables and the assembled REPORT.md."""

from __future__ import annotations

import contextlib
import csv
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from chanceclust._progress import Progress  # noqa: F401  (the paper modules import it from here)

#: Order of the sections in REPORT.md.
ORDER = ("ranking", "digits", "preferential", "genes")
#: Measured wall times of ``reproduce all`` (full and --quick), quoted by --help and the docs.
RUNTIMES = (
    "full run 89 s wall (63 s CPU), --quick 43 s (19 s CPU), measured on 2026-11-26 on a 2-core "
    "machine shared with other jobs (load average 3-4), the gene expression data already cached"
)


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary name beside ``path`` to write to; renamed to ``path`` only on success.

    A failure (or an interrupt) midway leaves no half-written file behind.
    """
    path = Path(path)
    temporary = path.with_name(f".{path.stem}.tmp{os.getpid()}{path.suffix}")
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


def write_text(path: Path, text: str) -> Path:
    """``path.write_text(text)``, atomically (see :func:`atomic_path`)."""
    with atomic_path(path) as temporary:
        temporary.write_text(text)
    return Path(path)


def write_csv(path: Path, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """Write ``rows`` under the header ``columns`` (floats with full precision), atomically."""
    with atomic_path(path) as temporary, open(temporary, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([repr(v) if isinstance(v, float) else v for v in row])
    return path


def verdict(held: bool | str) -> str:
    """'holds' / 'does not hold', or a given string such as 'partly'."""
    if isinstance(held, str):
        return f"**{held}**"
    return "**holds**" if held else "**does not hold**"


def claims_table(claims: Sequence[tuple[str, str, str, bool | str]]) -> str:
    """Markdown table: claim, what the paper says, what we measured, verdict."""
    lines = ["| # | claim (paper) | ours | verdict |", "|---|---|---|---|"]
    for i, (claim, paper, ours, held) in enumerate(claims, 1):
        lines.append(f"| {i} | {claim} {paper} | {ours} | {verdict(held)} |")
    return "\n".join(lines)


def fmt(x: float, digits: int = 3) -> str:
    return f"{x:.{digits}f}"


def write_section(out_dir: Path, name: str, text: str) -> Path:
    """Save one experiment's section; REPORT.md is rebuilt from every saved section."""
    path = Path(out_dir) / name / "section.md"
    write_text(path, text.rstrip() + "\n")
    return assemble(out_dir)


def assemble(out_dir: Path) -> Path:
    """(Re)build ``out_dir/REPORT.md`` from the sections present, in the paper's order."""
    out_dir = Path(out_dir)
    parts = [
        "# Gates & Ahn (2017), Section 5, reproduced with chanceclust\n",
        ("Each section states the paper's claims next to our numbers and a plain verdict. "
        "Files (figures as PNG and PDF, the CSV behind each) are in the experiment's folder. "
        f"Reference runtime of `chanceclust reproduce all`: {RUNTIMES}; the \"Run:\" line "
        "of each section gives the command that made it and its time in this run.\n"),
    ]
    for name in ORDER:
        path = out_dir / name / "section.md"
        if path.exists():
            parts.append(path.read_text())
    report = out_dir / "REPORT.md"
    write_text(report, "\n".join(parts))
    return report
