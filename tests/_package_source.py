"""The modules of the chanceclust source tree, read as files (for the structure tests)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = "chanceclust"


def package_modules() -> dict[str, Path]:
    """{dotted module name, e.g. ``chanceclust._expected.laws``: path} for every module."""
    out = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out
