"""The same partition through every entry point gives the same value or the same error (#20).

Entry points: the single call, ``pairwise``, ``partial_table`` + ``merge_tables`` (chunks),
``TableSummary``, ``compare``, ``chanceclust.dask`` on a Parquet dataset of several files and
row groups, and each CLI input form (labels files, keyed pairs files, one CSV table with two
``--column``, a cells file for ``--contingency``, Parquet with the local and the Dask engine).
Each case is one class of input of issue #20 (label identity, missing values under every
unassigned policy, keyed inputs, everything dropped); the expected value is the single
call's, and where the single call refuses the input every path must refuse it too (an
``InvalidInputError``; exit status 2 in the CLI).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import chanceclust as cc
from chanceclust.cli import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

MEASURES = (("ari", "perm"), ("ami", "num"), ("sri", "num"), ("smi", "all"))
#: The single call of each measure (the z-scores SRI and SMI of #22 too).
FUNCTIONS = {
    "ari": cc.adjusted_rand_index,
    "ami": cc.adjusted_mutual_information,
    "sri": cc.standardized_rand_index,
    "smi": cc.standardized_mutual_information,
}
ERROR = "error"


@dataclass(frozen=True)
class Case:
    """One class of input: two labelings (lists) and the unassigned options."""

    name: str
    a: list[Any]
    b: list[Any]
    policy: dict[str, Any] = field(default_factory=dict)
    keyed: bool = False  # a and b are dicts (elements -> labels)
    text: bool = True  # the labels can be written to a text file and read back as such


def _nan_case(policy: str) -> Case:
    a = [0, 0, 1, 1, 2, 2, None, 3, 3, 0]
    b = [1, 1, 0, 0, 2, None, 2, 3, 0, 3]
    return Case(f"missing-{policy}", a, b, {"unassigned": policy})


CASES = [
    Case("ints", [0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 1, 2, 2, 2, 3, 0]),
    Case("strings 01 and 1", ["01", "1", "01", "1", "2", "2"], ["x", "x", "y", "y", "y", "z"]),
    Case("NUL kept", ["a", "a\x00", "a", "a\x00", "b", "b"], [0, 0, 1, 1, 1, 0], text=False),
    Case("beyond 2**53", [2**62, 2**62 + 1, 2**62, 2**62 + 1, 5, 5], [0, 0, 0, 1, 1, 1]),
    *(_nan_case(p) for p in ("raise", "drop", "singletons", "cluster")),
    Case("unassigned label", [0, 0, -1, 1, 1, 2], [0, 0, 1, 1, -1, 2],
         {"unassigned_label": -1, "unassigned": "drop"}),
    Case("everything dropped", [None, None, None], [0, 1, 1], {"unassigned": "drop"}),
    # one element: the measures' convention (1.0, 0.0, ...) on every path, the CLI's too
    Case("one element", [5], [0]),
    Case("one element left", [5, None], [0, 1], {"unassigned": "drop"}),
    # the first chunk of the chunked paths (a third) is all unassigned: an empty chunk
    Case("a chunk all dropped", [None, None, None, 0, 0, 1, 1, 2, 2],
         [0, 1, 1, 0, 0, 1, 2, 2, 1], {"unassigned": "drop"}),
    Case("keyed", {"e1": 0, "e2": 0, "e3": 1, "e4": 1}, {"e1": 0, "e3": 0, "e2": 1, "e4": 1},
         keyed=True),
]


def _values(call) -> tuple[Any, ...]:
    """(ARI under perm, AMI under num, SRI under num, SMI under all) from
    ``call(measure, model)``, or ERROR."""
    try:
        return tuple(call(measure, model) for measure, model in MEASURES)
    except cc.InvalidInputError:
        return (ERROR,)


def _single(case: Case, measure: str, model: str) -> float:
    f = FUNCTIONS[measure]
    return f(case.a, case.b, model=model, **case.policy)


def _expected(case: Case) -> tuple[Any, ...]:
    return _values(lambda m, mo: _single(case, m, mo))


def _close(got: tuple[Any, ...], want: tuple[Any, ...]) -> bool:
    if want == (ERROR,) or got == (ERROR,):
        return got == want
    return all(math.isclose(g, w, rel_tol=1e-12, abs_tol=1e-15) for g, w in zip(got, want,
                                                                                  strict=True))


def _positional(case: Case) -> tuple[list[Any], list[Any]]:
    if not case.keyed:
        return case.a, case.b
    keys = list(case.a)
    return [case.a[k] for k in keys], [case.b[k] for k in keys]


# ------------------------------------------------------------------------- library paths


def _pairwise(case: Case, measure: str, model: str) -> float:
    return float(cc.pairwise([case.a, case.b], measure=measure, model=model,
                             **case.policy).values[0, 1])


def _merged(case: Case):
    if case.keyed:  # a keyed pair is one chunk: the keys align it
        return cc.partial_table(case.a, case.b, **case.policy)
    a, b = case.a, case.b
    cut = [0, len(a) // 3, 2 * len(a) // 3, len(a)]
    parts = [cc.partial_table(a[i:j], b[i:j], **case.policy)
             for i, j in zip(cut[:-1], cut[1:], strict=True) if j > i]
    return cc.merge_tables(parts)


def _chunks(case: Case, measure: str, model: str) -> float:
    f = FUNCTIONS[measure]
    return f(contingency=_merged(case), model=model)


def _summary(case: Case, measure: str, model: str) -> float:
    f = FUNCTIONS[measure]
    return f(contingency=_merged(case).summary(), model=model)


def _compare(case: Case, measure: str, model: str) -> float:
    return cc.compare(case.a, case.b, **case.policy, measures=measure).get(measure.upper(), model)


LIBRARY_PATHS = {"pairwise": _pairwise, "partial_table+merge_tables": _chunks,
                 "TableSummary": _summary, "compare": _compare}


#: Paths that read a chunk at a time cannot re-assign unassigned elements (a new cluster would
#: differ between chunks): they refuse these policies with a message (#20's rule).
CHUNKED = {"partial_table+merge_tables", "TableSummary"}
WHOLE_CLUSTERING_POLICIES = {"singletons", "cluster"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("path", list(LIBRARY_PATHS))
def test_library_paths_agree_with_the_single_call(case, path):
    got = _values(lambda m, mo: LIBRARY_PATHS[path](case, m, mo))
    if path in CHUNKED and case.policy.get("unassigned") in WHOLE_CLUSTERING_POLICIES:
        with pytest.raises(cc.InvalidInputError, match="needs the whole clustering"):
            LIBRARY_PATHS[path](case, "ari", "perm")
        return
    assert _close(got, _expected(case)), (path, got, _expected(case))


# ------------------------------------------------------------------------------- Parquet


def _parquet(case: Case, folder) -> str:
    """The pair as columns t and p of a dataset of 2 files with row groups of 2 rows."""
    a, b = _positional(case)
    table = pa.table({"t": pa.array(a), "p": pa.array(b)})
    half = table.num_rows // 2
    for i, part in enumerate((table.slice(0, half), table.slice(half))):
        pq.write_table(part, folder / f"part-{i}.parquet", row_group_size=2)
    return str(folder)


def _policy_cli(case: Case) -> list[str]:
    args = []
    if "unassigned_label" in case.policy:
        args += ["--unassigned-label", str(case.policy["unassigned_label"])]
    if "unassigned" in case.policy:
        args += ["--unassigned", case.policy["unassigned"]]
    return args


PARQUET_CASES = [c for c in CASES if not c.keyed]


@pytest.mark.parametrize("case", PARQUET_CASES, ids=[c.name for c in PARQUET_CASES])
def test_dask_on_parquet_agrees_with_the_single_call(case, tmp_path):
    ccd = pytest.importorskip("chanceclust.dask")
    source = _parquet(case, tmp_path)

    def call(measure: str, model: str) -> float:
        table = ccd.contingency_table(source, ("t", "p"), **case.policy)
        f = FUNCTIONS[measure]
        return f(contingency=table, model=model)

    got = _values(call)
    assert _close(got, _expected(case)), (got, _expected(case))


# ----------------------------------------------------------------------------------- CLI


def _cli(capsys, argv: list[str]) -> tuple[Any, ...]:
    capsys.readouterr()
    status = main([*map(str, argv), "--format", "json"])
    out, err = capsys.readouterr()
    if status == 2:
        return (ERROR,)
    assert status == 0, err
    rows = json.loads(out)["results"]
    return tuple(next(r["value"] for r in rows if r["measure"] == m and r["model"] == mo)
                 for m, mo in MEASURES)


def _text(value: Any) -> str:
    return "NA" if value is None else str(value)


def _labels_files(case: Case, folder) -> list[str]:
    a, b = _positional(case)
    paths = []
    for name, labels in (("a.txt", a), ("b.txt", b)):
        (folder / name).write_text("".join(_text(v) + "\n" for v in labels))
        paths.append(folder / name)
    return paths


def _pairs_files(case: Case, folder) -> list[str]:
    paths = []
    for name, labels in (("a.tsv", case.a), ("b.tsv", case.b)):
        items = labels.items() if case.keyed else enumerate(labels)
        (folder / name).write_text("".join(f"e{k}\t{_text(v)}\n" for k, v in items))
        paths.append(folder / name)
    return paths


def _csv_table(case: Case, folder) -> str:
    a, b = _positional(case)
    rows = "".join(f"{_text(x)},{_text(y)}\n" for x, y in zip(a, b, strict=True))
    path = folder / "both.csv"
    path.write_text("truth,pred\n" + rows)
    return path


def _cells_file(case: Case, folder) -> str:
    a, b = _positional(case)
    cells: dict[tuple[str, str], int] = {}
    for x, y in zip(a, b, strict=True):
        cells[_text(x), _text(y)] = cells.get((_text(x), _text(y)), 0) + 1
    path = folder / "cells.tsv"
    path.write_text("".join(f"{x}\t{y}\t{n}\n" for (x, y), n in cells.items()))
    return path


def _cli_argv(form: str, case: Case, folder) -> list[Any]:
    measures = ["--measure", "ari,ami,sri,smi", "--model", "perm", "--model", "num",
                "--model", "all"]
    if form == "labels":
        return ["compare", *_labels_files(case, folder), *measures]
    if form == "pairs":
        return ["compare", *_pairs_files(case, folder), "--input-format", "pairs", *measures]
    if form == "csv":
        return ["compare", _csv_table(case, folder), "--column", "truth", "--column", "pred",
                *measures]
    if form == "cells":
        return ["compare", "--contingency", _cells_file(case, folder), *measures]
    engine = "local" if form == "parquet" else "dask"
    return ["compare", _parquet(case, folder), "--input-format", "parquet", "--column", "t",
            "--column", "p", "--engine", engine, *measures]


CLI_FORMS = ("labels", "pairs", "csv", "cells", "parquet", "parquet-dask")


def _applies(form: str, case: Case) -> bool:
    if case.keyed:
        return form == "pairs"
    return case.text or form.startswith("parquet")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("form", CLI_FORMS)
def test_cli_forms_agree_with_the_single_call(capsys, tmp_path, case, form):
    if not _applies(form, case):
        pytest.skip(f"{case.name} has no {form} form")
    if form == "parquet-dask":
        pytest.importorskip("chanceclust.dask")
    got = _cli(capsys, [*_cli_argv(form, case, tmp_path), *_policy_cli(case)])
    assert _close(got, _expected(case)), (form, got, _expected(case))


def test_the_cases_cover_values_and_errors():
    """The expectation of each case comes from the single call, and both kinds occur."""
    outcomes = [_expected(c) for c in CASES]
    assert any(o == (ERROR,) for o in outcomes)
    assert sum(o != (ERROR,) for o in outcomes) >= 8
    assert _expected(CASES[-1])[0] == pytest.approx(-0.5)
    assert np.isfinite(_expected(CASES[0])).all()


# ------------------------------------------------------------------ dataframe libraries

pl = None
try:
    import polars as pl
except ImportError:  # pragma: no cover - polars is an optional test dependency
    pass

#: A column of another library: read by its own conversion, with the same label identity as
#: a list ("a" and "a\x00" stay two clusters; polars' __array__ would merge them, #35).
CONTAINERS = {"pyarrow": pa.array, **({"polars": pl.Series} if pl is not None else {})}
COLUMN_CASES = [c for c in CASES if not c.keyed and c.name in (
    "ints", "strings 01 and 1", "NUL kept", "beyond 2**53", "missing-drop", "missing-cluster",
    "one element")]  # fmt: skip


@pytest.mark.parametrize("container", list(CONTAINERS))
@pytest.mark.parametrize("case", COLUMN_CASES, ids=[c.name for c in COLUMN_CASES])
@pytest.mark.parametrize("path", ["single", *LIBRARY_PATHS])
def test_columns_of_dataframe_libraries_agree_with_lists(container, case, path):
    wrap = CONTAINERS[container]
    column = Case(case.name, wrap(case.a), wrap(case.b), case.policy)
    call = {"single": _single, **LIBRARY_PATHS}[path]
    if path in CHUNKED:  # chunks of the column itself
        call = _columns_chunked(wrap)
    if path in CHUNKED and case.policy.get("unassigned") in WHOLE_CLUSTERING_POLICIES:
        return
    got = _values(lambda m, mo: call(column, m, mo))
    assert _close(got, _expected(case)), (container, path, got, _expected(case))


def _columns_chunked(wrap):
    def call(case: Case, measure: str, model: str) -> float:
        n = len(case.a)
        cut = [0, n // 3, 2 * n // 3, n]
        parts = [cc.partial_table(case.a[i:j], case.b[i:j], **case.policy)
                 for i, j in zip(cut[:-1], cut[1:], strict=True) if j > i]
        return FUNCTIONS[measure](contingency=cc.merge_tables(parts), model=model)

    return call


@pytest.mark.skipif(pl is None, reason="needs polars")
def test_polars_strings_with_trailing_nuls_stay_apart():
    """The case of #35, by hand: three clusters, not two."""
    assert cc.contingency_table(pl.Series(["a", "a\x00", "b"]), [0, 1, 1]).shape == (3, 2)
    assert cc.partial_table(pl.Series(["a", "a\x00"]), [0, 0]).labels_true.tolist() == [
        "a", "a\x00"]
