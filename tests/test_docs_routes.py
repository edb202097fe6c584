"""The two documents that say where each number comes from name what the code has.

* The engine map (the docstring of ``chanceclust/_expected/__init__.py``) names every module of
  ``_expected`` and cites only functions and constants that exist.
* The routes table of docs/math.md (section ``math-routes``) names every *switch constant* of
  the library, cites only names that exist, and only tests that exist.

A switch constant is a module-level constant in capitals (``_SMALL_COUNT``, ``DENSE_MIN_KEYS``)
bound to a number, in any module but the command line (``_cli``) and the paper, whose name is
used in a comparison or in ``min``/``max`` somewhere in the package: a threshold. The few such
thresholds that choose no route (sizes of chunks, limits of valid input, caches) are listed
once, with the reason, in ``NOT_SWITCHES`` below. Everything is read from the source (``ast``):
nothing is imported, so optional dependencies do not matter.
"""

from __future__ import annotations

import ast
import re

import pytest
from _package_source import PACKAGE, ROOT
from test_docs_names import DEFINED as MEMBERS  # {module: {top-level name: its members}}
from test_docs_names import MODULES, TREES

ENGINE = f"{PACKAGE}._expected"
ENGINE_MAP = ast.get_docstring(TREES[ENGINE]) or ""

#: Thresholds (compared, or in min/max) that choose no route of a computed value, by module
#: relative to the package: {name: why}. Delete an entry when its constant goes; a constant
#: that becomes a route switch moves to the routes table of docs/math.md.
NOT_SWITCHES: dict[str, str] = {
    "bootstrap._BATCH_CELLS": "resampled cells per batch (memory)",
    "bootstrap._BLOCK": "resamples per random stream (the unit of the seeding, no route)",
    "bootstrap._THREADED_CELLS": "work from which threads draw the blocks (the same values)",
    "bootstrap.SHIFT_WARNING": "the shift from which a warning is given (no computed value)",
    "_expected.size_pairs._MID_CELLS": "cells of the mid-mean blocks stepped together per flush "
                                       "(memory; the same bits at any size: "
                                       "tests/_expected/test_size_pairs_mid_batches.py)",
    "_expected.deviance_series._BLOCK": "block size of the series' monomials (memory)",
    "_expected.size_pairs._MID_STEP_CELLS": "pmf-block steps formed first or one at a time "
                                           "(speed; the same bits: tests/_expected/"
                                           "test_size_pairs_batches.py)",
    "_expected.small_means._ACCUMULATE": "running products by accumulate or by a loop "
                                        "(speed; the same bits: tests/_expected/"
                                        "test_size_pairs_batches.py)",
    "_expected.mi_variance._GRID": "block size of the pair grids (memory)",
    "_expected.mi_variance._NEGLIGIBLE_INVERSE": "sizes expected fewer than 1e-30 times are "
                                               "left out of the size moments (a cut-off, "
                                               "no route; tests/_expected/"
                                               "test_random_moments.py)",
    "_expected.mixture_fits._DEGREE": "the fixed degree of every fit, no switch",
    "_expected.size_pairs._CHUNK": "rows per block of the mid-mean pmf blocks (memory)",
    "_expected.size_pairs._ROWS": "rows per tile of the pair sums (memory)",
    "_expected.size_pairs._SERIES_PENDING": "pairs gathered before a series call (batching)",
    "_expected.size_pairs._MANY_PAIRS": "two loop orders of the same pmf ratio products "
                                         "(speed; the rounding of one product differs)",
    "_expected.windows._CHUNK": "elements per padded block (cache)",
    "_exact_null._CHUNK": "rows per cross product of a column (memory)",
    "_exact_null._MAX_CODE": "the int64 range of a sort or search key: one key or two, the "
                             "same order (its overflow refuses, unreached within the budget)",
    "_expected.windows._SERIAL_PRODUCT": "rows per block of a product (cache)",
    "_tables.MAX_TOTAL": "the largest valid total (a limit of valid input)",
    "_tables._CHUNK_ELEMENTS": "labels per chunk of a counting thread (memory)",
    "_tables._COMPACT_CHUNK": "keys per chunk when compacting (memory)",
    "_validation.MAX_N": "the largest valid number of elements (a limit of valid input)",
    "adjusted._DEGENERATE": "tolerance of a degenerate bound: chooses the documented "
                            "convention (1.0 or 0.0), not a route",
    "allpairs._KEEP_WORKSPACES": "workspaces kept for reuse (a cache)",
    "allpairs._TASKS_PER_WORKER": "tasks per worker (scheduling)",
    "contingency._DENSE_OUTPUT_LIMIT": "whether contingency_matrix returns a sparse matrix "
                                       "(its documented output type), not a route",
    "dask._TASKS_PER_WORKER": "tasks per worker (scheduling)",
    "dask._TASK_ROWS": "rows per task (scheduling)",
    "io.MAX_COUNT": "the largest valid count in a file (a limit of valid input)",
    "measures._CELL_CHUNK": "cells per chunk (memory)",
    "significance._BATCH_ELEMENTS": "null samples per batch (memory)",
    "special._CHUNK": "elements per chunk (memory)",
    "summary._TIER": "the merge order of partial tables (exact integers)",
}


def _relative(module: str) -> str:
    return module.removeprefix(PACKAGE).lstrip(".")


def _resolve(name: str, bases: tuple[str, ...] = (ENGINE, PACKAGE)) -> tuple[str, str] | None:
    """(module, top-level name) that a cited dotted name refers to, or None if none."""
    parts = name.removesuffix("()").split(".")
    candidates = [parts] if parts[0] == PACKAGE else [[*b.split("."), *parts] for b in bases]
    for full in candidates:
        for cut in range(len(full), 0, -1):
            module = ".".join(full[:cut])
            if module not in MODULES:
                continue
            rest = full[cut:]
            if not rest:
                return module, ""
            members = MEMBERS[module]
            if rest[0] in members and (len(rest) == 1 or (len(rest) == 2
                                                          and rest[1] in members[rest[0]])):
                return module, rest[0]
            break
    return None


# --------------------------------------------------------------------------- the engine map

_MAP_NAMES = re.compile(r"(?::(?:func|class|mod|data|attr):`~?|``)([A-Za-z_][\w.]*)(?:\(\))?`")


def test_the_engine_map_names_every_engine_module():
    cited = {_resolve(n)[0] for n in _MAP_NAMES.findall(ENGINE_MAP) if _resolve(n)}
    engine = sorted(m for m in MODULES if m.startswith(ENGINE + "."))
    missing = [_relative(m) for m in engine if m not in cited]
    assert not missing, (
        "the engine map (docstring of chanceclust/_expected/__init__.py) names no function of "
        f"these modules: add an entry (formula -- #math-section -- :func:`module.function`) "
        f"for each: {missing}"
    )


def test_every_name_the_engine_map_cites_exists():
    dotted = [n for n in _MAP_NAMES.findall(ENGINE_MAP) if "." in n and not _FILE.search(n)]
    assert len(dotted) > 50  # the reader finds the map's citations
    missing = sorted({n for n in dotted if _resolve(n) is None})
    assert not missing, f"the engine map cites names that do not exist: {missing}"


# ----------------------------------------------------------------- docs/math.md's routes table


def _routes_rows() -> list[str]:
    text = (ROOT / "docs" / "math.md").read_text(encoding="utf-8")
    start = text.index("(math-routes)=")
    end = text.find("\n(math-", start + 1)
    section = text[start: end if end > 0 else len(text)]
    return [line for line in section.splitlines() if line.startswith("| ")][2:]  # no header


ROWS = _routes_rows()
_TICKS = re.compile(r"`([^`\n]+)`")
#: Literals that name files, and names of other libraries.
_FILE = re.compile(r"\.(?:md|json|py|txt|csv|tsv|toml|parquet)$")
PEERS = ("np.", "numpy.", "scipy.", "math.", "mpmath.", "pd.", "pyarrow.")
_CODE_NAME = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*(?:\(\))?$")


def _row_names(row: str) -> list[tuple[str, tuple[str, str] | None]]:
    """(cited name, what it resolves to) for each code name of a row. A bare name (``_SERIES_MEAN``
    after ``size_pairs._SMOOTH_MEAN``) is looked up in the modules the row names before it;
    lowercase words (``num``, ``all``) are prose."""
    out = []
    modules: list[str] = []
    literals = [literal.strip() for literal in _TICKS.findall(row)]
    literals = [literal for literal in literals
                if _CODE_NAME.match(literal) and not _FILE.search(literal)
                and not literal.startswith(PEERS)]
    for literal in literals:
        if "." in literal and _resolve(literal):
            modules.append(_resolve(literal)[0])
    for literal in literals:
        bare = literal.removesuffix("()")
        if "." in literal:
            out.append((literal, _resolve(literal)))
        elif literal != literal.lower() or literal.startswith("_"):
            homes = [*modules, *(m for m in MODULES if bare in MEMBERS[m])]
            out.append((literal, next(((m, bare) for m in homes if bare in MEMBERS[m]), None)))
    return out


def test_the_routes_table_is_read():
    assert len(ROWS) > 40
    assert ("size_pairs._SERIES_MEAN", (f"{ENGINE}.size_pairs", "_SERIES_MEAN")) in [
        item for row in ROWS for item in _row_names(row)]


def test_every_name_the_routes_table_cites_exists():
    missing = sorted({name for row in ROWS for name, found in _row_names(row) if found is None})
    assert not missing, (
        "docs/math.md's routes table cites names that exist nowhere in the code (engine names "
        f"relative to _expected, others to chanceclust): {missing}"
    )


def test_every_test_the_routes_table_cites_exists():
    missing = []
    for row in ROWS:
        path = None
        for literal in _TICKS.findall(row):
            match = re.match(r"^([\w/]+\.py)?(?:::(\w+))?", literal.strip())
            if not match or not (match.group(1) or match.group(2)):
                continue
            if match.group(1):  # from the repository's root, or a file name under tests/
                path = ROOT / match.group(1)
                path = path if path.is_file() else next(
                    iter(sorted((ROOT / "tests").rglob(match.group(1)))), path)
            if path is None or not path.is_file():
                missing.append(literal)
                continue
            if match.group(2):
                names = {n.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                         if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
                if match.group(2) not in names:
                    missing.append(f"{path.relative_to(ROOT)}::{match.group(2)}")
    assert not missing, f"docs/math.md's routes table cites tests that do not exist: {missing}"


def _number(node: ast.expr) -> float | None:
    """The value of a constant numeric expression (``1 << 22``, ``2**25``, ``1e-12``)."""
    if not all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop))
               for n in ast.walk(node)):
        return None
    value = eval(compile(ast.Expression(node), "<constant>", "eval"), {"__builtins__": {}})
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _thresholds() -> set[str]:
    """The names used in a comparison or in min/max anywhere in the package."""
    out = set()
    for tree in TREES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) or (
                    isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("min", "max")):
                for leaf in ast.walk(node):
                    if isinstance(leaf, ast.Name):
                        out.add(leaf.id)
                    elif isinstance(leaf, ast.Attribute):
                        out.add(leaf.attr)
    return out


def switch_constants() -> dict[str, tuple[str, float, int]]:
    """{module.NAME relative to the package: (file, value, line)} of every switch constant."""
    used = _thresholds()
    out = {}
    for module, tree in TREES.items():
        if _relative(module).split(".")[0] in ("_cli", "paper"):
            continue
        for node in tree.body:
            target = (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                      else node.target if isinstance(node, ast.AnnAssign) else None)
            if (isinstance(target, ast.Name) and re.fullmatch(r"_?[A-Z][A-Z0-9_]*", target.id)
                    and node.value is not None and target.id in used):
                value = _number(node.value)
                if value is not None:
                    where = str(MODULES[module].relative_to(ROOT))
                    out[f"{_relative(module)}.{target.id}"] = (where, value, node.lineno)
    return out


SWITCHES = switch_constants()


def test_the_switch_rule_finds_the_known_switches():
    for name in ("_tables.DENSE_MIN_KEYS", "measures._SMALL_COUNT", "io.VECTOR_MIN_CHARS",
                 "dask._ONE_TREE_CELLS", "_expected.laws.STAM_QUADRATURE_FROM"):
        assert name in SWITCHES, name


def test_the_routes_table_names_every_switch_constant():
    cited = {f"{_relative(m)}.{n}" for row in ROWS for _, found in _row_names(row) if found
             for m, n in [found]}
    missing = []
    for name, (where, value, line) in sorted(SWITCHES.items()):
        if name in cited or name in NOT_SWITCHES:
            continue
        short = name.removeprefix("_expected.")
        missing.append(
            f"{name} = {value!r} ({where}:{line}): add a row to docs/math.md's routes table "
            f"(quantity | switch: below -> above | threshold (`{short}`) | accuracy | both sides "
            "tested in), or, if it chooses no route, an entry with the reason to NOT_SWITCHES "
            "in tests/test_docs_routes.py"
        )
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("name", sorted(NOT_SWITCHES))
def test_not_switches_are_current(name):
    assert name in SWITCHES, (
        f"{name} is no threshold of the package any more: delete it from NOT_SWITCHES")
    cited = {f"{_relative(m)}.{n}" for row in ROWS for _, found in _row_names(row) if found
             for m, n in [found]}
    assert name not in cited, f"{name} is in the routes table: delete it from NOT_SWITCHES"
