"""Print a pip constraints file pinning every dependency of pyproject.toml to its lower bound.

Usage: python .ci/min_constraints.py [EXTRA ...] > constraints.txt

Every ``name>=X`` among ``[project] dependencies`` and the named optional extras
(default: all of them) becomes ``name==X``, so that CI installs the oldest
versions the project declares it supports. The build system (hatchling) is left
out: it only builds the wheel. A requirement without a lower bound is an error:
the minimum would not be tested.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: no tomllib in the standard library
    tomllib = None

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$")


def _project(text: str) -> dict:
    if tomllib is not None:
        return tomllib.loads(text)["project"]
    # Minimal reader for this file's layout: quoted requirement strings in the
    # ``dependencies = [...]`` array and in each ``name = [...]`` of the extras table.
    project: dict = {}
    extras: dict[str, list[str]] = {}
    for block in re.split(r"(?m)^\[", text)[1:]:
        section, _, content = block.partition("]")
        # An array ends at a "]" that ends its line: brackets of extras ("dask[array]>=1") don't.
        for key, body in re.findall(r"(?ms)^([\w-]+)\s*=\s*\[(.*?)\]\s*$", content):
            values = re.findall(r'"([^"]+)"', re.sub(r"#[^\n]*", "", body))
            if section == "project" and key == "dependencies":
                project["dependencies"] = values
            elif section == "project.optional-dependencies":
                extras[key] = values
    project["optional-dependencies"] = extras
    return project


def lower_bounds(pyproject: Path, extras: list[str] | None = None) -> dict[str, str]:
    """``{name: minimum version}`` of the runtime dependencies and the chosen extras."""
    project = _project(pyproject.read_text(encoding="utf-8"))
    optional = project.get("optional-dependencies", {})
    requirements = list(project.get("dependencies", []))
    for extra in extras if extras else sorted(optional):
        requirements += optional[extra]
    bounds: dict[str, str] = {}
    for requirement in requirements:
        name, _, spec = _REQUIREMENT.match(requirement.split(";")[0]).groups()
        minimum = re.search(r">=\s*([0-9][^,\s]*)", spec)
        if minimum is None:
            sys.exit(f"{pyproject}: {requirement!r} has no lower bound (>=)")
        key = name.lower().replace("_", "-")
        previous = bounds.get(key)
        version = minimum.group(1)
        if previous is None or _version(version) > _version(previous):
            bounds[key] = version  # the strictest bound wins (e.g. scikit-learn in two extras)
    return bounds


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text))


def main(argv: list[str]) -> None:
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    for name, version in sorted(lower_bounds(pyproject, argv or None).items()):
        print(f"{name}=={version}")


if __name__ == "__main__":
    main(sys.argv[1:])
