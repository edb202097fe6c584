"""Every code name a docstring of chanceclust or docs/math.md mentions exists in the code.

Names are read from the docstrings of every module, class and function under
``src/chanceclust`` (``ast``) and from docs/math.md: Sphinx/MyST roles (:func:`x`, {func}`~x`),
and literals (``x`` in docstrings, `x` in math.md) that are dotted names, constants in CAPS or
names with an underscore (single words such as ``n`` are prose). A name resolves when it is a
module of the package, a name defined at the top level or in a class of a module (resolved
relative to the package, to the module's own package and to the module itself), or a
parameter of some function of the package; names of peers (numpy, scipy, ...) and math symbols
are allowed by the lists below.
"""

from __future__ import annotations

import ast
import builtins
import re

import pytest
from _package_source import PACKAGE, ROOT, package_modules

# Names of other libraries, by prefix.
PEERS = (
    "np.", "numpy.", "scipy", "sklearn", "math.", "mpmath", "mp.", "pd.", "pandas", "dask",
    "networkx", "clusim", "argparse", "sys.", "os.", "functools.", "itertools.", "ctypes",
    "pyarrow", "polars", "matplotlib", "plt.", "collections.", "fractions.", "typing.",
    "numpy_", "lgamma", "pytest", "hypothesis", "doccer", "metrics.", "community.",
    "concurrent.", "distributed.", "pooch.",
)
# Names of peers written without their module (scikit-learn's metrics, pooch's cache variable).
PEER_NAMES = {"adjusted_mutual_info_score", "adjusted_rand_score", "rand_score", "XDG_CACHE_HOME"}
# Math symbols and prose written as literals (not code names).
SYMBOLS = {
    "K_A", "K_B", "N_11", "N_10", "N_01", "N_00", "s_max", "n_ij", "a_i", "b_j", "u_A", "u_B",
    "c_u", "p_X", "H_A", "H_B", "H_AB", "E_c", "MI_max", "VI_max", "B_N", "S_N", "T_N",
    "B_n", "X_i", "RI", "ARI", "MI", "AMI", "NMI", "VI", "FMI", "SRI",
}
# Literals naming files, not code.
_FILE = re.compile(r"\.(?:json|md|py|pdf|png|svg|csv|tsv|txt|parquet|npz|gz|rst|toml)$")
# Names that do not resolve today in files other changes of issue 19 own; each must still be
# missing (a fixed one fails: delete it here). {(file relative to the repository, name): why}.
KNOWN_STALE: dict[tuple[str, str], str] = {
    ("src/chanceclust/contingency.py", "summarize"): "the function is _summarize",
}

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_NAME = re.compile(rf"^~?{_IDENT}(?:\.{_IDENT})*(?:\(\))?$")
_ROLE = re.compile(r"[:{](?:func|class|mod|meth|attr|data|exc|obj)[:}]`([^`]+)`")
_DOUBLE = re.compile(r"``([^`]+)``")
_SINGLE = re.compile(r"(?<![`\w])`([^`\n]+)`(?!`)")
# Constants in CAPS named in plain text (_LIKE_THIS, LIKE_THIS): two parts or more, the first
# of two characters or more (X_1, A_J are math symbols), not part of a path or file name.
_CAPS = re.compile(r"(?<![\w.`/])_?[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+(?![\w`(]|\.\w)")


MODULES = package_modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _defined(tree: ast.Module) -> dict[str, set[str]]:
    """{top-level name: names defined in it (for a class: its members, fields, methods)}."""
    out: dict[str, set[str]] = {}

    def targets(node: ast.AST) -> list[str]:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            nodes = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = []
            for target in nodes:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names.append(leaf.id)
            return names
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [node.name]
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return [(a.asname or a.name).split(".")[0] for a in node.names]
        return []

    for node in _top_level(tree):
        for name in targets(node):
            members = out.setdefault(name, set())
            if isinstance(node, ast.ClassDef):
                for item in ast.walk(node):
                    members.update(targets(item))
                    if isinstance(item, ast.Attribute) and isinstance(item.ctx, ast.Store):
                        members.add(item.attr)
    return out


def _top_level(tree: ast.Module) -> list[ast.AST]:
    """Statements at module level, including those inside if/try blocks there."""
    out: list[ast.AST] = []
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        out.append(node)
        if isinstance(node, (ast.If, ast.Try)):
            todo.extend(node.body + node.orelse + getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                todo.extend(handler.body)
    return out


DEFINED = {name: _defined(tree) for name, tree in TREES.items()}
EVERYWHERE = set().union(*(set(d) | set().union(*d.values(), set()) for d in DEFINED.values()))
# Strings of the code (environment variables, option names, keys).
STRINGS = {
    node.value
    for tree in TREES.values()
    for node in ast.walk(tree)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 80
}
TEST_NAMES = {
    node.name
    for path in (ROOT / "tests").rglob("test_*.py")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
    if isinstance(node, (ast.FunctionDef, ast.ClassDef))
}
PARAMETERS = {
    arg.arg
    for tree in TREES.values()
    for node in ast.walk(tree)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
    for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                *([node.args.vararg] if node.args.vararg else []),
                *([node.args.kwarg] if node.args.kwarg else []))
}


def _resolves(name: str, module: str | None) -> bool:
    name = name.lstrip("~").removesuffix("()").removeprefix("self.")
    if (
        name.startswith(PEERS) or name in SYMBOLS | PEER_NAMES | STRINGS | TEST_NAMES
        or _FILE.search(name) or name.split(".")[0] in dir(builtins)
    ):
        return True
    if module:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        bases = [module, package, PACKAGE, ""]
    else:  # docs/math.md: names of the engine's modules are relative to _expected
        bases = [f"{PACKAGE}._expected", PACKAGE, ""]
    parts = name.split(".")
    if len(parts) == 1:
        here = DEFINED.get(module, {}) if module else {}
        return (
            name in here or name in EVERYWHERE or name in PARAMETERS
            or any(f"{base}.{name}" in MODULES for base in bases if base)
        )
    for base in bases:
        full = [*base.split("."), *parts] if base else parts
        for cut in range(len(full), 0, -1):
            head = ".".join(full[:cut])
            if head not in MODULES:
                continue
            rest = full[cut:]
            if not rest:
                return True
            table = DEFINED[head]
            if rest[0] in table and (len(rest) == 1 or (len(rest) == 2 and rest[1] in table[rest[0]])):
                return True
            if rest[0] in table and len(rest) >= 2:  # an attribute of an instance or a module
                return rest[-1] in EVERYWHERE or rest[-1] in PARAMETERS
            break
    return False


def _candidates(text: str, single: bool) -> set[str]:
    found = {m.strip() for m in _ROLE.findall(text)}
    found = {f.split("<")[-1].rstrip(">").strip() if "<" in f else f for f in found}
    for literal in (_SINGLE if single else _DOUBLE).findall(text):
        literal = literal.strip()
        if not _NAME.match(literal):
            continue
        bare = literal.lstrip("~").removesuffix("()")
        if "." in bare or "_" in bare.strip("_") or re.fullmatch(r"_?[A-Z][A-Z0-9_]+", bare):
            found.add(literal)
    found.update(_CAPS.findall(text))
    return {f for f in found if _NAME.match(f)}


def _docstrings(tree: ast.Module) -> list[str]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append(doc)
    return out


def _math_text() -> str:
    text = (ROOT / "docs" / "math.md").read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # code blocks
    return re.sub(r"\$\$.*?\$\$|\$[^$\n]+\$", "", text, flags=re.DOTALL)  # formulas


def _missing() -> dict[tuple[str, str], None]:
    out: dict[tuple[str, str], None] = {}
    for module, tree in TREES.items():
        where = str(MODULES[module].relative_to(ROOT))
        for doc in _docstrings(tree):
            for name in sorted(_candidates(doc, single=False)):
                if not _resolves(name, module):
                    out[(where, name.lstrip("~").removesuffix("()"))] = None
    for name in sorted(_candidates(_math_text(), single=True)):
        if not _resolves(name, None):
            out[("docs/math.md", name.lstrip("~").removesuffix("()"))] = None
    return out


MISSING = _missing()


def test_the_reader_finds_names():
    """The extraction sees roles, literals and math.md spans, and resolves relative names."""
    assert _candidates(":func:`laws.law` and ``_MAX_CONDITION`` and ``n``", single=False) == {
        "laws.law", "_MAX_CONDITION"}
    assert _resolves("laws.num_law", "chanceclust._expected")
    assert _resolves("_MAX_CONDITION", "chanceclust._expected.laws")
    assert _resolves("chanceclust._expected.curvature.stirling2_ratio_curvature", None)
    assert not _resolves("_CURVATURE_EXPANSION_FROM", "chanceclust._expected.curvature")
    assert _candidates("see `chanceclust.rand_index` and `x`", single=True) == {
        "chanceclust.rand_index"}


def test_every_name_in_docstrings_and_math_exists():
    unexpected = sorted(set(MISSING) - set(KNOWN_STALE))
    assert not unexpected, "names that exist nowhere in the code:\n" + "\n".join(
        f"{where}: {name}" for where, name in unexpected
    )


@pytest.mark.parametrize("entry", sorted(KNOWN_STALE), ids=lambda e: e[1])
def test_known_stale_names_are_still_stale(entry):
    assert entry in MISSING, f"{entry} resolves now: delete it from KNOWN_STALE"
