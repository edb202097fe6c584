"""Every docs example says the extra it needs (issue 35): a README or docs page whose code
imports an optional package, and a gallery example that imports one, names how to install
it: ``pip install`` with the package, or an extra of pyproject.toml (``.[paper]``, ...) that
holds it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _package_source import ROOT

#: Optional packages by import name: the distribution name pip installs.
OPTIONAL = {
    "pandas": "pandas", "sklearn": "scikit-learn", "matplotlib": "matplotlib",
    "networkx": "networkx", "igraph": "igraph", "dask": "dask", "distributed": "distributed",
    "pyarrow": "pyarrow", "polars": "polars", "scanpy": "scanpy",
    "array_api_strict": "array-api-strict", "pooch": "pooch",
}  # fmt: skip
IMPORT = re.compile(r"^\s*(?:>>> |\.\.\. )?(?:import|from)\s+([A-Za-z_]\w*)", re.M)
CODE = re.compile(r"```[a-z]*\n(.*?)```", re.S)


def _extras() -> dict[str, set[str]]:
    """{extra: distribution names} of pyproject.toml's optional dependencies."""
    text = (ROOT / "pyproject.toml").read_text()
    block = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    out: dict[str, set[str]] = {}
    for name, body in re.findall(r"^(\w+) = \[(.*?)\]$", block, re.M | re.S):
        out[name] = {re.split(r"[<>=\[ ]", d)[0].lower() for d in re.findall(r'"([^"]+)"', body)}
    return out


EXTRAS = _extras()


def _named(text: str, package: str) -> bool:
    if re.search(r"pip install[^\n]*\b" + re.escape(package) + r"\b", text):
        return True
    named = re.findall(r"\.\[([\w,]+)\]", text)
    return any(package in EXTRAS.get(e, ()) for extras in named for e in extras.split(","))


def _pages() -> list[Path]:
    docs = [p for p in sorted((ROOT / "docs").rglob("*.md")) if "_build" not in p.parts]
    return [ROOT / "README.md", *docs, *sorted((ROOT / "docs" / "examples").glob("*.py"))]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_names_the_extra_it_needs(page):
    text = page.read_text()
    code = text if page.suffix == ".py" else "\n".join(CODE.findall(text))
    used = {m for m in IMPORT.findall(code) if m in OPTIONAL}
    missing = sorted(m for m in used if not _named(text, OPTIONAL[m]))
    assert not missing, f"{page.name} imports {missing}: name the extra or the pip install line"


def test_the_extras_are_read():
    assert "matplotlib" in EXTRAS["paper"] and "pandas" in EXTRAS["pandas"]
