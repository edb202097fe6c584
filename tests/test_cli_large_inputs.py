"""Command line for large inputs: --contingency cells, Parquet, Dask, pairwise.

Each path must give the numbers of the library on the same labels (the CLI only wires them):
cells and Parquet input against the two-label-file path, ``pairwise`` against
:func:`chanceclust.pairwise`.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import chanceclust as cc
from chanceclust.cli import main
from chanceclust.io import factorize

TRUE = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 5, 5]
PRED = [7, 7, 8, 8, 8, 9, 9, 7, 9, 9, 9, 8]


def _run(capsys, argv):
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _tsv_values(text):
    lines = [line.split("\t") for line in text.strip().splitlines() if not line.startswith("#")]
    header = lines[0]
    return [dict(zip(header, row, strict=True)) for row in lines[1:]]


@pytest.fixture
def inputs(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(map(str, TRUE)) + "\n")
    b.write_text("\n".join(map(str, PRED)) + "\n")
    table = cc.partial_table(TRUE, PRED)
    cells = tmp_path / "cells.tsv"
    lines = ["truth\tpred\tcount", *[
        f"{table.labels_true[r]}\t{table.labels_pred[c]}\t{n}"
        for r, c, n in zip(table.rows, table.cols, table.counts, strict=True)
    ][::-1]]  # any order
    cells.write_text("\n".join(lines) + "\n")
    return {"a": str(a), "b": str(b), "cells": str(cells), "dir": tmp_path}


def test_compare_contingency_cells_equals_labels(capsys, inputs):
    argv = ["--all-models", "--one-sided", "--measure", "ari,ami,vi", "--format", "tsv"]
    _, expected, _ = _run(capsys, ["compare", inputs["a"], inputs["b"], *argv])
    status, got, _ = _run(capsys, ["compare", "--contingency", inputs["cells"], "--header",
                                   *argv])
    assert status == 0
    assert _tsv_values(got) == _tsv_values(expected)


def test_table_histograms(capsys, inputs):
    status, out, _ = _run(capsys, ["table", "--contingency", inputs["cells"], "--histograms",
                                   "--header", "--format", "json"])  # fmt: skip
    assert status == 0
    data = json.loads(out)
    summary = cc.partial_table(TRUE, PRED).summary()
    assert data["n"] == 12
    got = {(r["histogram"], r["value"]): r["count"] for r in data["results"]}
    for name in ("sizes_true", "sizes_pred", "cells"):
        hist = getattr(summary, name)
        for v, c in zip(hist.values, hist.counts, strict=True):
            assert got.pop((name, int(v))) == int(c)
    assert not got
    status, out, _ = _run(capsys, ["table", inputs["a"], inputs["b"], "--histograms"])
    assert status == 0
    assert "sizes_true" in out


@pytest.mark.parametrize("engine", ["local", "dask"])
def test_parquet_input_equals_label_files(capsys, inputs, engine):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    if engine == "dask":
        pytest.importorskip("dask")
    folder = inputs["dir"] / "labels"
    folder.mkdir()
    for part, (lo, hi) in enumerate([(0, 5), (5, 12)]):
        table = pa.table({"truth": TRUE[lo:hi], "pred": PRED[lo:hi]})
        pq.write_table(table, folder / f"part{part}.parquet", row_group_size=3)
    argv = ["--all-models", "--format", "tsv"]
    _, expected, _ = _run(capsys, ["compare", inputs["a"], inputs["b"], *argv])
    for source in (str(folder), str(folder / "*.parquet")):
        status, got, err = _run(
            capsys,
            ["compare", source, "--column", "truth", "--column", "pred", "--engine", engine, *argv],
        )
        assert status == 0, err
        assert _tsv_values(got) == _tsv_values(expected)
    _, table_expected, _ = _run(capsys, ["table", inputs["a"], inputs["b"], "--format", "tsv"])
    _, table_got, _ = _run(capsys, ["table", str(folder), "--column", "truth", "--column", "pred",
                                    "--format", "tsv"])  # fmt: skip
    assert _tsv_values(table_got) == _tsv_values(table_expected)


def _pairwise_files(folder, m=5, n=40):
    rng = np.random.default_rng(8)
    paths, labels = [], []
    for i in range(m):
        x = rng.integers(0, i + 2, n)
        path = folder / f"run{i}.txt"
        path.write_text("\n".join(map(str, x)) + "\n")
        paths.append(str(path))
        labels.append(factorize([str(v) for v in x]))  # the codes the command line uses
    return paths, labels


def test_heatmap_of_long_file_names(capsys, tmp_path):
    """Labels as long as paths get (here ~200 characters): the heatmap grows to them and is
    written with no warning (matplotlib's tight_layout warned, which -W error made exit 1)."""
    pytest.importorskip("matplotlib")
    folder = tmp_path / ("d" * 180)
    folder.mkdir()
    paths, _ = _pairwise_files(folder)
    png = tmp_path / "long.png"
    status, _, err = _run(capsys, ["pairwise", *paths, "--heatmap", str(png), "-q"])
    assert status == 0, err
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_pairwise_tsv_equals_library(capsys, tmp_path, jobs):
    paths, labels = _pairwise_files(tmp_path)
    status, out, err = _run(capsys, ["pairwise", *paths, "--measure", "ami", "--model", "num",
                                     "--jobs", jobs, "--format", "tsv"])  # fmt: skip
    assert status == 0, err
    rows = _tsv_values(out)
    expected = cc.pairwise(labels, measure="ami", model="num").values
    got = np.array([[float(r[p]) for p in paths] for r in rows])
    np.testing.assert_array_equal(got, expected)
    assert [r["clustering"] for r in rows] == paths


def test_pairwise_cross_json_and_heatmap(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    paths, labels = _pairwise_files(tmp_path)
    png = tmp_path / "m.png"
    status, out, _ = _run(capsys, ["pairwise", *paths[:2], "--other", *paths[2:], "--measure",
                                   "ari", "--one-sided", "--model", "all", "--format", "json",
                                   "--heatmap", str(png)])  # fmt: skip
    assert status == 0
    data = json.loads(out)
    assert (data["measure"], data["model"], data["one_sided"]) == ("ari", "all", True)
    expected = cc.pairwise(labels[:2], labels[2:], measure="ari", model="all", one_sided=True)
    got = np.array([[row[p] for p in paths[2:]] for row in data["results"]])
    np.testing.assert_array_equal(got, expected.values)
    assert png.read_bytes()[:4] == b"\x89PNG"
    square = tmp_path / "square.png"
    assert main(["pairwise", *paths, "--heatmap", str(square), "-q"]) == 0
    assert square.exists()


@pytest.mark.slow
def test_dask_scheduler_address(capsys, tmp_path, inputs):
    """--engine dask --scheduler ADDRESS: pairwise and Parquet compare on a LocalCluster."""
    distributed = pytest.importorskip("distributed")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    paths, labels = _pairwise_files(tmp_path, m=3)
    parquet = tmp_path / "l.parquet"
    pq.write_table(pa.table({"t": TRUE, "p": PRED}), parquet, row_group_size=5)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        status, out, err = _run(capsys, ["pairwise", *paths, "--engine", "dask", "--scheduler",
                                         address, "--format", "tsv"])  # fmt: skip
        assert status == 0, err
        got = np.array([[float(r[p]) for p in paths] for r in _tsv_values(out)])
        np.testing.assert_array_equal(got, cc.pairwise(labels).values)
        status, out, err = _run(capsys, ["compare", str(parquet), "--column", "t", "--column",
                                         "p", "--engine", "dask", "--scheduler", address,
                                         "--format", "tsv"])  # fmt: skip
        assert status == 0, err
    _, expected, _ = _run(capsys, ["compare", inputs["a"], inputs["b"], "--format", "tsv"])
    assert _tsv_values(out) == _tsv_values(expected)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["compare", "--contingency", "{bad}", "--header"],
         r"bad\.tsv:3: count must be an integer"),
        (["compare", "--contingency", "{bad}"], r"bad\.tsv:1: count must be an integer"),
        (["compare", "--contingency", "{neg}"], r"neg\.tsv:2: count must be non-negative"),
        (["compare", "--contingency", "{few}"], r"few\.tsv:1: expected 3 fields"),
        (["compare", "--contingency", "{cells}", "{a}"], "not both"),
        (["compare", "{a}"], r"required: B \(or --contingency CELLS\)"),
        (["compare", "{a}", "{b}", "--engine", "dask"], "apply to Parquet input"),
        (["compare", "{dir}/x.parquet", "--column", "t"], "needs the two label columns"),
        (["pairwise", "{a}", "{b}", "--unassigned", "drop"], "--unassigned raise"),
        (["pairwise", "{a}", "{b}", "--scheduler", "tcp://x:1"], "--scheduler needs --engine"),
    ],
)
def test_errors(capsys, inputs, argv, message):
    folder = inputs["dir"]
    (folder / "bad.tsv").write_text("a\tb\tcount\n0\t1\t2\n0\t2\tx\n")
    (folder / "neg.tsv").write_text("0\t1\t2\n0\t2\t-1\n")
    (folder / "few.tsv").write_text("0\t1\n")
    names = {k: str(folder / f"{k}.tsv") for k in ("bad", "neg", "few")}
    argv = [a.format(**inputs, **names) for a in argv]
    status, _, err = _run(capsys, argv)
    assert status == 2
    assert pytest.importorskip("re").search(message, err), err
