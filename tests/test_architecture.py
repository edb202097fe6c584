"""The import structure of chanceclust: layers, and no import cycle (ARCHITECTURE.md).

Every module under ``src/chanceclust`` is parsed (``ast``; imports inside functions and under
``TYPE_CHECKING`` count too) and placed in a layer of ``LAYERS``. A module may import its own
layer or the layers below it, never one above; and no set of modules may import each other in
a cycle, neither between modules nor between units (a subpackage such as ``_expected`` counted
as one). A new module must be added to ``LAYERS`` and to the table of ARCHITECTURE.md: the
tests say so by name, and give the rows to write.
"""

from __future__ import annotations

import ast
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest
from _package_source import PACKAGE, ROOT, SRC, package_modules

# Bottom to top; names relative to the package ("" is chanceclust/__init__.py). A name ending
# in ".*" places every module of that subpackage. To place a new module, add it to its layer.
LAYERS: list[tuple[str, list[str]]] = [
    ("foundation", ["exceptions", "_progress", "_docs"]),
    ("numeric primitives", [
        "_expected.elementary", "_expected.taylor", "_expected.lattice", "_expected.pmfs",
        "_expected.windows", "_expected.small_means", "_expected.interpolation", "_entropy",
        "_expected.lancaster",
    ]),
    ("engine", [
        "_expected", "_expected.edgeworth", "_expected.curvature", "_expected.laws",
        "_expected.deviance_series", "_expected.size_pairs", "_expected.mixture_fits",
        "_expected.mutual_information", "_expected.mi_variance", "_expected.mi_variance_slots",
        "_exact_null", "_expected.tsallis",
    ]),
    ("random-model objects", ["_models", "models"]),
    ("validation and table path", ["_validation", "_tables", "contingency", "io"]),
    ("single-pair public functions", [
        "special", "measures", "summary", "expectations", "adjusted", "variance", "samplers",
        "datasets", "tsallis",
    ]),
    ("measure registry", ["_registry"]),
    ("composite public functions", ["", "significance", "bootstrap", "allpairs", "comparison",
                                    "dask", "sklearn"]),
    ("command line and paper", ["cli", "_cli", "_cli.*", "_output", "__main__", "paper",
                                "paper.*"]),
]

# Subpackages counted as one unit for the package-level cycle check.
UNITS = ("_expected", "paper", "_cli")

#: The document that shows LAYERS to readers; its table must say the same (see
#: test_the_architecture_document_shows_these_layers).
DOCUMENT = ROOT / "ARCHITECTURE.md"


MODULES = {
    name.removeprefix(PACKAGE).lstrip("."): path for name, path in package_modules().items()
}


def _absolute(node: ast.ImportFrom, name: str, path: Path) -> str:
    """The absolute module of a relative ``from . import`` inside ``name``."""
    if not node.level:
        return node.module or ""
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    base = [PACKAGE, *[p for p in base if p]][: max(1, len(base) + 2 - node.level)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(name: str, path: Path) -> set[str]:
    """The package modules that module ``name`` imports (relative names)."""
    found: set[str] = set()
    prefix = PACKAGE + "."

    def add(full: str) -> None:
        if full == PACKAGE:
            found.add("")
        elif full.startswith(prefix) and full[len(prefix):] in MODULES:
            found.add(full[len(prefix):])

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, name, path)
            add(module)
            for alias in node.names:  # from chanceclust._expected import laws
                add(f"{module}.{alias.name}")
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer_of(name: str) -> int | None:
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if name == member or (member.endswith(".*") and name.startswith(member[:-1])):
                return index
    return None


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one node (Tarjan), i.e. the cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def _unit(name: str) -> str:
    for unit in UNITS:
        if name == unit or name.startswith(unit + "."):
            return unit
    return name


def _label(name: str) -> str:
    return PACKAGE + ("." + name if name else "")


def test_the_parser_sees_the_known_imports():
    """The parser finds module-level, from-package and function-level imports."""
    assert "_expected.laws" in GRAPH["expectations"]
    assert "_expected.lattice" in GRAPH["special"]
    assert "paper.genes" in GRAPH["paper"]  # imported inside a function
    assert "_validation" in GRAPH[""]


def test_every_module_has_a_layer():
    missing = sorted(_label(name) for name in MODULES if _layer_of(name) is None)
    assert not missing, (
        f"place these modules in a layer of LAYERS in {Path(__file__).name}: {missing}"
    )


def test_every_layer_entry_names_a_module():
    """No stale entry: each name of LAYERS is a module, each ``x.*`` places one at least."""
    stale = [
        member for _, members in LAYERS for member in members
        if not (member in MODULES if not member.endswith(".*")
                else any(name.startswith(member[:-1]) for name in MODULES))
    ]
    assert not stale, f"LAYERS names modules that do not exist (delete them): {stale}"


def _shown(member: str) -> str:
    """A LAYERS name as ARCHITECTURE.md writes it (the package itself as ``chanceclust``)."""
    return f"`{member or PACKAGE}`"


def _document_rows() -> list[tuple[str, str, list[str], str]]:
    """(number, layer, modules, what it may not do) of each row of the document's table."""
    rows = []
    for line in DOCUMENT.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 4 and cells[0].isdigit():
            modules = [m.strip() for m in cells[2].split(",") if m.strip()]
            rows.append((cells[0], cells[1], modules, cells[3]))
    return rows


def test_the_architecture_document_shows_these_layers():
    """ARCHITECTURE.md's table of layers is LAYERS: the same layers in the same order, each
    with the same modules (in any order). On a difference the message gives the rows to write
    there, keeping the last column of each layer the document already describes."""
    rows = _document_rows()
    written = [(name, sorted(modules)) for _, name, modules, _ in rows]
    wanted = [(name, sorted(map(_shown, members))) for name, members in LAYERS]
    numbers = [number for number, *_ in rows]
    if written == wanted and numbers == [str(i) for i in range(len(LAYERS))]:
        return
    rule = {name: last for _, name, _, last in rows}
    expected = "\n".join(
        f"| {index} | {name} | {', '.join(map(_shown, members))} | {rule.get(name, '')}".rstrip()
        + " |"
        for index, (name, members) in enumerate(LAYERS)
    )
    pytest.fail(f"{DOCUMENT.name}'s table of layers differs from LAYERS in "
                f"{Path(__file__).name}; write these rows there:\n{expected}")


def test_no_module_imports_from_a_layer_above_it():
    upward = []
    for name, targets in sorted(GRAPH.items()):
        own = _layer_of(name)
        for target in sorted(targets):
            theirs = _layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                upward.append(
                    f"{_label(name)} ({LAYERS[own][0]}) imports {_label(target)} "
                    f"({LAYERS[theirs][0]})"
                )
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


@pytest.mark.parametrize("level", ["module", "package"])
def test_no_import_cycle(level):
    if level == "module":
        graph = GRAPH
    else:
        graph = {}
        for name, targets in GRAPH.items():
            graph.setdefault(_unit(name), set()).update(
                _unit(t) for t in targets if _unit(t) != _unit(name)
            )
    cycles = [sorted(map(_label, c)) for c in _cycles(graph)]
    assert not cycles, f"import cycles ({level} level): {cycles}"


def test_the_engine_imports_nothing_public():
    """The engine (numeric primitives and ``_expected``) imports only itself and exceptions."""
    engine = [n for n in MODULES if n == "_expected" or n.startswith("_expected.")]
    outside = {
        f"{_label(n)} -> {_label(t)}"
        for n in engine
        for t in GRAPH[n]
        if not (t == "_expected" or t.startswith("_expected.") or t == "exceptions")
    }
    assert not outside


#: What ``import chanceclust`` (and the CLI module) must not load: optional dependencies and
#: the heavy parts of the core ones (each costs 0.1-1 s; they load on use).
HEAVY = ("scipy", "pandas", "pyarrow", "dask", "distributed", "matplotlib", "sklearn",
         "networkx", "pooch", "mpmath")


@pytest.mark.parametrize("module", ["chanceclust", "chanceclust.cli"])
def test_importing_chanceclust_loads_no_heavy_module(module):
    """``import chanceclust`` stays light (README): numpy and the standard library only."""
    code = (
        f"import {module}, sys; "
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_unassigned_policy_is_a_value_never_compared_as_a_string():
    """Issue 33: the policy is parsed once (``_validation.check_unassigned``) and read through
    its members (``refuses``, ``drops``, ``apply``...); no module compares it to a name."""
    pattern = re.compile(
        r"""\b(unassigned|policy)(\.name)?\s*(==|!=|\bin\b|\bnot in\b)\s*[("']"""
    )
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in package_modules().values()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, "compare the policy's members, not its name:\n" + "\n".join(found)


def test_the_random_model_is_never_compared_to_its_name():
    """Issue 33: behaviour reads the sides' protocol (``sizes_given``, ``fixed_k``, ...), not
    the model's name; only argument parsing (``_validation``, ``_models``) and the paper's
    scripts handle names."""
    pattern = re.compile(r"""(==|!=|\bin\b)\s*\(?\s*["'](perm|num|all)["']""")
    allowed = ("_validation.py", "_models.py")
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for name, path in package_modules().items()
        if ".paper" not in name and path.name not in allowed
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, "read the sides' protocol, not the model's name:\n" + "\n".join(found)
