"""The command line reads every file form as the library reads labels (#20, #21).

Cells files, files that are not text, local Parquet, output paths, the scheduler and keyed
inputs: each value is compared with the library's single call on the same partition, each
user error exits 2 naming the file (and line) or the option.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_cli_errors import assert_user_error, run

import chanceclust as cc


def values(capsys, *argv):
    """{(measure, model): value} of ``compare ... --format json``; asserts exit 0."""
    status, out, err = run(capsys, "compare", *argv, "--format", "json", "--measure", "ari,ami")
    assert status == 0, err
    doc = json.loads(out)
    return doc, {(r["measure"], r["model"]): r["value"] for r in doc["results"]}


def expand(cells):
    """Labels of the elements of ``cells`` [(a, b, count)], one element per count."""
    a = [x for x, _, c in cells for _ in range(c)]
    b = [y for _, y, c in cells for _ in range(c)]
    return a, b


def library(a, b, **kwargs):
    return {
        ("ari", "perm"): cc.adjusted_rand_index(a, b, **kwargs),
        ("ami", "perm"): cc.adjusted_mutual_information(a, b, **kwargs),
    }


def write_cells(path, cells, sep="\t", prefix=b""):
    text = "".join(f"{a}{sep}{b}{sep}{c}\n" for a, b, c in cells)
    path.write_bytes(prefix + text.encode())
    return path


# --------------------------------------------------------------------------- cells files

CELLS = [("01", "x", 3), ("1", "x", 1), ("1", "y", 4), ("2", "y", 2), ("2", "z", 2)]


def test_cells_labels_are_strings_as_written(capsys, tmp_path):
    """'01' and '1' are two clusters (they were merged by int())."""
    path = write_cells(tmp_path / "c.tsv", CELLS)
    doc, got = values(capsys, "--contingency", path)
    assert got == pytest.approx(library(*expand(CELLS)), abs=1e-12)
    assert doc["clusters_a"] == 3
    merged = [("1" if a == "01" else a, b, c) for a, b, c in CELLS]
    assert got[("ari", "perm")] != pytest.approx(
        cc.adjusted_rand_index(*expand(merged)), abs=1e-6)


def test_cells_bom_is_not_part_of_the_first_label(capsys, tmp_path):
    cells = [("a", "x", 3), ("b", "x", 1), ("a", "y", 1), ("b", "y", 4)]
    path = write_cells(tmp_path / "c.tsv", [*cells, ("a", "y", 2)], prefix=b"\xef\xbb\xbf")
    _, got = values(capsys, "--contingency", path)
    assert got == pytest.approx(library(*expand([*cells, ("a", "y", 2)])), abs=1e-12)


def test_cells_gzip_and_quoted_csv(capsys, tmp_path):
    cells = [("a,b", "x", 3), ("c", "x", 1), ("a,b", "y", 1), ("c", "y", 4)]
    text = "".join(f'"{a}",{b},{c}\n' for a, b, c in cells)
    plain = tmp_path / "c.csv"
    plain.write_text(text)
    packed = tmp_path / "c.dat"  # gzip found by its magic bytes, whatever the name
    packed.write_bytes(gzip.compress(text.encode()))
    expected = library(*expand(cells))
    assert values(capsys, "--contingency", plain)[1] == pytest.approx(expected, abs=1e-12)
    assert values(capsys, "--contingency", packed)[1] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("a\tx\t3\nb\ty\t\n", 2, "empty count"),
        ("a\tx\t\nb\ty\t2\nc\ty\t2\n", 1, "empty count"),  # was dropped silently
        ("a\tx\tn\nb\ty\t2\nc\ty\t2\n", 1, "looks like a header"),
        ("a\tx\tn\nb\ty\tm\n", 1, "count must be an integer; got 'n'"),
        ("a\tx\t2.0\nb\ty\t2.5\n", 1, "count must be an integer; got '2.0'"),  # was "no cells"
        ("a\tx\t3\nb\ty\t2.5\n", 2, "got '2.5'"),
        (f"a\tx\t3\nb\ty\t{2**63}\n", 2, "too large"),  # was "dtype object"
        ("a\tx\t-1\nb\ty\t2\n", 1, "non-negative"),
        ('"a,x,3\nb,y,2\n', 1, "unbalanced quote"),
        ("a\tx\t3\tq\nb\ty\t2\n", 1, "expected 3 fields"),
    ],
)
def test_cells_bad_lines_name_file_and_line(capsys, tmp_path, text, line, needle):
    path = tmp_path / "c.txt"
    path.write_text(text)
    assert_user_error(*run(capsys, "compare", "--contingency", path), f"c.txt:{line}:", needle)


def test_cells_sum_beyond_int64_names_the_file(capsys, tmp_path):
    path = write_cells(tmp_path / "c.tsv", [("a", "x", 2**62), ("b", "y", 2**62)])
    assert_user_error(*run(capsys, "compare", "--contingency", path), "c.tsv:", "2**63 - 1")


def test_cells_header_follows_the_header_options(capsys, tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text("truth\tpred\tcount\n" + "".join(f"{a}\t{b}\t{c}\n" for a, b, c in CELLS))
    expected = library(*expand(CELLS))
    assert values(capsys, "--contingency", path, "--header")[1] == pytest.approx(expected)
    assert values(capsys, "--contingency", path, "--header-of", path)[1] == pytest.approx(
        expected)
    assert_user_error(*run(capsys, "compare", "--contingency", path), "c.tsv:1:",
                      "looks like a header", "--header")
    assert_user_error(*run(capsys, "compare", "--contingency", path, "--no-header"),
                      "c.tsv:1:", "count must be an integer")


NA_CELLS = [("a", "x", 3), ("NA", "x", 2), ("b", "y", 4), ("b", "", 1), ("a", "y", 1),
            ("-1", "y", 2)]


@pytest.mark.parametrize("policy", ["drop", "singletons", "cluster"])
def test_cells_unassigned_as_the_library_applies_it_to_labels(capsys, tmp_path, policy):
    path = write_cells(tmp_path / "c.tsv", NA_CELLS)
    a, b = expand(NA_CELLS)
    a = [None if x in ("NA", "-1") else x for x in a]
    b = [None if y == "" else y for y in b]
    _, got = values(capsys, "--contingency", path, "--unassigned", policy,
                    "--unassigned-label", "-1")
    assert got == pytest.approx(library(a, b, unassigned=policy), abs=1e-12)


def test_cells_unassigned_raise_names_the_line(capsys, tmp_path):
    path = write_cells(tmp_path / "c.tsv", NA_CELLS)
    assert_user_error(*run(capsys, "compare", "--contingency", path), "c.tsv:2:",
                      "no cluster", "--unassigned drop")
    _, got = values(capsys, "--contingency", path, "--na", "keep")  # NA is a label
    assert got == pytest.approx(library(*expand(NA_CELLS)), abs=1e-12)


def test_cells_singletons_beyond_the_cap_are_refused(capsys, tmp_path):
    path = write_cells(tmp_path / "c.tsv", [("a", "x", 3), ("NA", "x", 10**8)])
    assert_user_error(*run(capsys, "compare", "--contingency", path, "--unassigned",
                           "singletons"), "--unassigned singletons", "drop or cluster")


# --------------------------------------------------------------------------- not text


@pytest.mark.parametrize(
    ("data", "needles"),
    [
        (b"a\tx\t1\n\xe9\ty\t2\n", ["f.txt:2:", "not valid utf-8", "--encoding"]),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["f.txt:", "not valid utf-8"]),
        (b"a\tx\t1\nb\x00\ty\t2\n", ["f.txt:2:", "binary"]),
        (gzip.compress(b"a\tx\t1\nb\ty\t2\n", mtime=0)[:-6], ["f.txt:", "corrupt gzip"]),
    ],
)
@pytest.mark.parametrize("form", ["cells", "labels"])
def test_files_that_are_not_text_exit_2_naming_them(capsys, tmp_path, data, needles, form):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    other = tmp_path / "o.txt"
    other.write_text("x\ny\n")
    argv = ["--contingency", path] if form == "cells" else [path, other]
    assert_user_error(*run(capsys, "compare", *argv), *needles)


def test_cells_in_another_encoding(capsys, tmp_path):
    cells = [("é", "x", 3), ("e", "x", 1), ("é", "y", 1), ("e", "y", 4)]
    path = tmp_path / "c.tsv"
    path.write_bytes("".join(f"{a}\t{b}\t{c}\n" for a, b, c in cells).encode("latin-1"))
    _, got = values(capsys, "--contingency", path, "--encoding", "latin-1")
    assert got == pytest.approx(library(*expand(cells)), abs=1e-12)


def test_unreadable_cells_file(capsys, tmp_path):
    assert_user_error(*run(capsys, "compare", "--contingency", tmp_path / "nope.tsv"),
                      "nope.tsv", "no such file")
    assert_user_error(*run(capsys, "compare", "--contingency", tmp_path), "is a directory")


def test_subprocess_binary_cells_exit_2():
    r = subprocess.run([sys.executable, "-m", "chanceclust", "compare", "--contingency", "-"],
                       input=b"\xff\xfe\x00\x01", capture_output=True, check=False, timeout=120)
    assert r.returncode == 2, r.stderr
    assert b"<stdin>:1:" in r.stderr
    assert b"Traceback" not in r.stderr


# --------------------------------------------------------------------------- local Parquet

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def parquet_values(capsys, source):
    return values(capsys, source, "--column", "t", "--column", "p", "--input-format", "parquet")


def test_parquet_labels_with_nul_characters_stay_distinct(capsys, tmp_path):
    t = ["a", "a\x00", "a", "a\x00", "b", "b", "a", "b"]
    p = ["x", "x", "y", "y", "y", "x", "x", "y"]
    pq.write_table(pa.table({"t": t, "p": p}), tmp_path / "l.parquet", row_group_size=3)
    _, got = parquet_values(capsys, tmp_path / "l.parquet")
    assert got == pytest.approx(library(t, p), abs=1e-12)


def test_parquet_integer_kinds_are_compared_exactly(capsys, tmp_path):
    """2**62 in an int64 part and 2**62 + 1 in a uint64 part are two clusters (were merged)."""
    big = 2**62
    t1, p1 = [big, big, 1, 1, 2, 2], [0, 1, 0, 1, 1, 1]
    t2, p2 = [big + 1, big + 1, 2, 1, 1, 2], [0, 0, 1, 1, 0, 0]
    folder = tmp_path / "d"
    folder.mkdir()
    pq.write_table(pa.table({"t": pa.array(t1, pa.int64()), "p": pa.array(p1, pa.int8())}),
                   folder / "part-0.parquet")
    pq.write_table(pa.table({"t": pa.array(t2, pa.uint64()), "p": pa.array(p2, pa.uint32())}),
                   folder / "part-1.parquet")
    _, got = parquet_values(capsys, folder)
    assert got == pytest.approx(library(t1 + t2, p1 + p2), abs=1e-12)
    assert got[("ari", "perm")] != pytest.approx(
        cc.adjusted_rand_index([float(x) for x in t1 + t2], p1 + p2), abs=1e-9)


def test_parquet_glob_skips_spark_markers(capsys, tmp_path):
    t, p = ["a", "a", "b", "b", "c"], ["x", "y", "y", "y", "x"]
    pq.write_table(pa.table({"t": t, "p": p}), tmp_path / "part-00000.snappy.parquet")
    for marker in ("_SUCCESS", "_committed_123", ".part-00000.snappy.parquet.crc"):
        (tmp_path / marker).write_bytes(b"")
    for source in (tmp_path / "*", tmp_path):
        _, got = parquet_values(capsys, source)
        assert got == pytest.approx(library(t, p), abs=1e-12)


def test_parquet_corrupt_file_names_it(capsys, tmp_path):
    pq.write_table(pa.table({"t": ["a", "b"], "p": ["x", "y"]}), tmp_path / "good.parquet")
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 this is not parquet")
    assert_user_error(*run(capsys, "compare", tmp_path / "*.parquet", "--column", "t",
                           "--column", "p"), "bad.parquet:", "Parquet")


def test_parquet_nan_labels_name_the_file(capsys, tmp_path):
    pq.write_table(pa.table({"t": [1.0, float("nan"), 2.0], "p": [1, 2, 2]}),
                   tmp_path / "nan.parquet")
    assert_user_error(*run(capsys, "compare", tmp_path / "nan.parquet", "--column", "t",
                           "--column", "p"), "nan.parquet:", "NaN", "'t'")


# --------------------------------------------------------------------------- outputs, scheduler


@pytest.fixture
def two(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("x\nx\ny\ny\nz\n")
    b.write_text("1\n1\n1\n2\n2\n")
    return a, b


@pytest.mark.parametrize(
    ("name", "needles"),
    [("missing/h.png", ["--heatmap", "missing", "no folder"]),
     ("h.txt", ["--heatmap", "h.txt", ".txt", "png"]),
     ("h", ["--heatmap", "no extension"])],
)
def test_heatmap_path_is_checked_before_computing(capsys, tmp_path, two, monkeypatch, name,
                                                  needles):
    import chanceclust.allpairs

    monkeypatch.setattr(chanceclust.allpairs, "pairwise", lambda *a, **k: 1 / 0)  # never run
    assert_user_error(*run(capsys, "pairwise", *two, "--heatmap", tmp_path / name), *needles)


def test_heatmap_is_written(capsys, tmp_path, two):
    pytest.importorskip("matplotlib")
    status, _, err = run(capsys, "pairwise", *two, two[0], "--heatmap", tmp_path / "h.svg")
    assert status == 0, err
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("command", ["compare", "pairwise"])
def test_unreachable_scheduler_fails_within_the_timeout(capsys, tmp_path, two, command):
    import time

    pytest.importorskip("distributed")
    address = "tcp://127.0.0.1:9"  # the discard port: nothing listens there
    if command == "compare":
        pq.write_table(pa.table({"t": ["a", "b"], "p": ["x", "y"]}), tmp_path / "l.parquet")
        argv = ["compare", tmp_path / "l.parquet", "--column", "t", "--column", "p"]
    else:
        argv = ["pairwise", *two]
    start = time.monotonic()
    result = run(capsys, *argv, "--engine", "dask", "--scheduler", address,
                 "--scheduler-timeout", "1")
    assert time.monotonic() - start < 20
    assert_user_error(*result, address, "--scheduler-timeout")


def test_scheduler_timeout_is_positive(capsys, two):
    status, _, err = run(capsys, "pairwise", *two, "--scheduler-timeout", "0")
    assert status == 2
    assert "--scheduler-timeout" in err
    assert "positive number of seconds" in err


# --------------------------------------------------------------------------- keyed inputs


@pytest.fixture(params=["python", "pyarrow"])
def reader(request, monkeypatch):
    """Both readers of keyed files: the Python parsers and pyarrow's kernels."""
    import chanceclust.io

    if request.param == "pyarrow":
        monkeypatch.setattr(chanceclust.io, "VECTOR_MIN_CHARS", 0)
    return request.param


@pytest.mark.parametrize("policy", ["drop", "singletons", "cluster"])
def test_keyed_files_match_the_library_on_dicts(capsys, tmp_path, reader, policy):
    rng = np.random.default_rng(3)
    ids = [f"n{i}" for i in rng.permutation(60)]
    a = {e: str(rng.integers(4)) for e in ids[:50]}
    b = {e: f"c{rng.integers(5)}" for e in ids[10:]}
    a[ids[3]], b[ids[20]] = "NA", "-1"
    pairs = tmp_path / "a.txt"
    pairs.write_text("".join(f"{e}\t{c}\n" for e, c in a.items()))
    groups: dict[str, list[str]] = {}
    for e, c in b.items():
        groups.setdefault(c, []).append(e)
    clusters = tmp_path / "b.txt"
    clusters.write_text("".join(" ".join(m) + "\n" for m in groups.values()))
    order = {c: str(k) for k, c in enumerate(groups, 1)}  # a clusters file's labels: ordinals
    truth = {e: (None if c == "NA" else c) for e, c in a.items()}
    pred = {e: order[c] for e, c in b.items()}
    _, got = values(capsys, pairs, clusters, "--unassigned", policy,
                    "--unassigned-label", order["-1"])
    assert got == pytest.approx(
        library(truth, pred, unassigned=policy, unassigned_label=order["-1"]), abs=1e-12)


def test_keyed_duplicate_element_names_both_lines(capsys, tmp_path, reader):
    path = tmp_path / "d.txt"
    path.write_text("e1\tx\ne2\tx\n# comment\ne3\ty\ne2\ty\n")
    assert_user_error(*run(capsys, "compare", path, path), "d.txt:5:", "'e2' appears again",
                      "first at line 2")
    path.write_text("e1 e2\ne3 e4\ne5 e1\n")
    assert_user_error(*run(capsys, "compare", path, path, "--input-format", "clusters"),
                      "d.txt:3:", "'e1' appears again", "first at line 1")


def test_keyed_unassigned_raise_names_file_and_line(capsys, tmp_path, reader):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("e1\tx\ne2\tNA\ne3\ty\ne4\ty\n")
    b.write_text("e1\t1\ne2\t1\ne3\t2\ne4\t2\n")
    assert_user_error(*run(capsys, "compare", a, b), "a.txt:2:", "'e2' has no cluster")


def test_pairwise_keyed(capsys, tmp_path, reader):
    files = []
    rng = np.random.default_rng(5)
    for k in range(3):
        path = tmp_path / f"r{k}.txt"
        ids = rng.permutation(30)
        path.write_text("".join(f"e{i}\t{rng.integers(3)}\n" for i in ids))
        files.append(path)
    status, out, err = run(capsys, "pairwise", *files, "--measure", "ari", "--format", "json")
    assert status == 0, err
    maps = [dict(line.split("\t") for line in f.read_text().splitlines()) for f in files]
    got = [[r[str(f)] for f in files] for r in json.loads(out)["results"]]
    want = [[cc.adjusted_rand_index(x, y) for y in maps] for x in maps]
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_clusters_file_with_a_header_line_is_refused(capsys, tmp_path, reader):
    """A first cluster of words above clusters of integers is a header (#21)."""
    path = tmp_path / "c.txt"
    path.write_text("community members\n1 2 3\n4 5\n6 7 8\n")
    other = tmp_path / "o.txt"
    other.write_text("1 2\n3 4 5\n6 7\n8\n")
    argv = [path, other, "--input-format", "clusters"]
    assert_user_error(*run(capsys, "compare", *argv), "c.txt:1:", "looks like a header",
                      "--header", "--no-header")
    _, got = values(capsys, *argv, "--header-of", path)  # one file with a header, one without
    truth = {str(e): k for k, line in enumerate(["1 2 3", "4 5", "6 7 8"]) for e in line.split()}
    pred = {str(e): k for k, line in enumerate(["1 2", "3 4 5", "6 7", "8"]) for e in line.split()}
    assert got == pytest.approx(library(truth, pred), abs=1e-12)
    assert_user_error(*run(capsys, "compare", *argv, "--header-of", "typo.txt"),
                      "--header-of", "typo.txt")


@pytest.mark.parametrize(
    "text",
    ["e1\tx\ne2\ty\n", "e1\tx\ne2\ty", "e1\tx\ne2\ty\tz\n", "e1\tx\n\te2\n", "e1\tx\ne2\t\n",
     "e1\tx\ne2\n", "a\tb\tc\nd\n", "e1\te2\ne3\te4\te5\n"],
)
def test_detection_without_a_line_loop_agrees(monkeypatch, text):
    import chanceclust.io

    slow = chanceclust.io.detect_format("x.txt", text)
    monkeypatch.setattr(chanceclust.io, "VECTOR_MIN_CHARS", 0)
    assert chanceclust.io.detect_format("x.txt", text) == slow


def test_unbalanced_csv_quote_is_blamed_on_its_own_file(capsys, tmp_path):
    """It used to swallow the rest of the file and fail as a length mismatch of the other."""
    bad, good = tmp_path / "bad.csv", tmp_path / "good.txt"
    bad.write_text('label\nx\n"y\nz\nw\n')
    good.write_text("x\ny\nz\nw\n")
    assert_user_error(*run(capsys, "compare", bad, good), "bad.csv:3:", "unbalanced quote")
    assert_user_error(*run(capsys, "compare", good, bad), "bad.csv:3:", "unbalanced quote")


@pytest.mark.parametrize("policy", ["raise", "drop", "cluster"])
def test_compare_validates_the_labels_once(capsys, tmp_path, monkeypatch, policy):
    """``compare`` A B reads, aligns and validates the two clusterings once and counts the
    table of all its measures from those codes (not a second validation inside
    contingency_table): the values are the library's single calls."""
    from chanceclust import _validation as validation
    from chanceclust import contingency

    a, b = ["x", "y", "x", "z", "y", "x", "", "z"], ["1", "1", "2", "2", "3", "3", "1", ""]
    (tmp_path / "a.txt").write_text("\n".join(a) + "\n")
    (tmp_path / "b.txt").write_text("\n".join(b) + "\n")
    calls = []
    real = validation.validate_clusterings

    def counted(*args, **kwargs):
        calls.append(kwargs.get("unassigned"))
        return real(*args, **kwargs)

    monkeypatch.setattr(validation, "validate_clusterings", counted)
    monkeypatch.setattr(contingency, "validate_clusterings", counted)
    argv = [tmp_path / "a.txt", tmp_path / "b.txt"]
    if policy == "raise":  # the missing labels are refused, naming the file: no table
        assert run(capsys, "compare", *argv)[0] == 2
        return
    _, got = values(capsys, *argv, "--unassigned", policy)
    assert calls == [policy]
    la, lb = [x or None for x in a], [y or None for y in b]
    monkeypatch.setattr(validation, "validate_clusterings", real)
    monkeypatch.setattr(contingency, "validate_clusterings", real)
    for key, value in library(la, lb, unassigned=policy).items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("form", ["labels", "tsv"])
def test_compare_on_text_files_does_not_import_pandas(tmp_path, form):
    """Reading label files and TSV tables by pyarrow never imports pandas (0.3-0.5 s): the
    dictionary of labels is made from buffers, not by ``pyarrow.array`` of a list (which asks
    whether the list is a pandas object)."""
    pyarrow = pytest.importorskip("pyarrow")
    if form == "tsv" and int(pyarrow.__version__.split(".")[0]) < 26:
        # Seen in the minimum-versions job: pyarrow 10 imports pandas while reading the
        # table (inside pyarrow, no Python frame of ours); checked only where measured.
        pytest.skip("older pyarrow imports pandas inside its table reader")
    from chanceclust.io import VECTOR_MIN_CHARS  # read by pyarrow from this size on

    n = VECTOR_MIN_CHARS // 4
    a, b = [f"x{i % 7}" for i in range(n)], [str(i % 5) for i in range(n)]
    if form == "labels":
        (tmp_path / "a.txt").write_text("\n".join(a) + "\n", encoding="utf-8")
        (tmp_path / "b.txt").write_text("\n".join(b) + "\n", encoding="utf-8")
        argv = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    else:
        rows = "".join(f"{x}\t{y}\n" for x, y in zip(a, b, strict=True))
        (tmp_path / "t.tsv").write_text("a\tb\n" + rows, encoding="utf-8")
        argv = [str(tmp_path / "t.tsv"), "--column", "a", "--column", "b"]
    code = ("import sys; from chanceclust.cli import main; "
            f"status = main(['compare', *{argv!r}, '-q']); "
            "print(status, 'pandas' in sys.modules)")  # fmt: skip
    src = str(Path(cc.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True)  # fmt: skip
    assert done.stdout.split()[-2:] == ["0", "False"], done.stdout + done.stderr


@pytest.mark.parametrize("values", [[], ["a"], ["", "é", "\U0001f600", "z" * 300, "a b"]])
def test_string_array_from_buffers_equals_pyarrow_array(values):
    pa = pytest.importorskip("pyarrow")
    from chanceclust.io import _string_array

    got = _string_array(values, pa)
    assert got.equals(pa.array(values, pa.string()))
    assert got.to_pylist() == values


@pytest.mark.parametrize("start", [0, 3, 9])
def test_filled_ints_equals_fill_null(start):
    """Indices with nulls, sliced at offsets that are not byte boundaries: -1 where null, as
    pyarrow's fill_null(-1)."""
    pa = pytest.importorskip("pyarrow")
    from chanceclust.io import _ints

    values = [None if i % 3 == 0 or i == 17 else i for i in range(40)]
    for array in (pa.array(values, pa.int32())[start:], pa.array(range(30), pa.int32())[start:]):
        want = array.fill_null(-1).to_pylist()
        assert _ints(array, fill=-1).tolist() == want


# ------------------------------------------------------------- files as people write them (#35)

ROW_A = [str(i % 4) for i in range(20)]
ROW_B = [str(i * 7 % 3) for i in range(20)]


@pytest.mark.parametrize(("sep", "word"), [(",", "comma"), (";", "semicolon"), ("\t", "TAB")])
def test_one_row_of_labels_is_refused_with_a_hint(capsys, tmp_path, sep, word):
    """One line of 20 delimited labels is never N = 1 in silence: exit 2 naming the file."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(sep.join(ROW_A) + "\n")
    b.write_text(sep.join(ROW_B) + "\n")
    assert_user_error(*run(capsys, "compare", a, b), f"{a}:1: one line of 20 {word}-separated "
                      "fields", "one label per line", "--input-format")
    with pytest.raises(cc.InvalidInputError, match="one line of 20"):
        cc.io.read_clustering(str(a))
    # written one per line, the same labels give the library's value on 20 elements
    a.write_text("\n".join(ROW_A) + "\n")
    b.write_text("\n".join(ROW_B) + "\n")
    doc, got = values(capsys, a, b)
    assert doc["n"] == 20
    assert got == pytest.approx(library(ROW_A, ROW_B), abs=1e-12)


def test_one_label_and_one_pair_are_still_one_element(tmp_path):
    """A one-line file of one label, or of one element<TAB>cluster pair, is one element."""
    one, pair = tmp_path / "one.txt", tmp_path / "pair.txt"
    one.write_text("x\n")
    pair.write_text("e1\tx,y\n")
    assert cc.io.read_clustering(str(one)).labels == ["x"]
    assert cc.io.read_clustering(str(pair)).labels == ["x,y"]
    one.write_text("a,b\n")  # chosen explicitly: one label with a comma
    assert cc.io.read_clustering(str(one), input_format="labels").labels == ["a,b"]


def test_a_trailing_blank_line_is_named(capsys, tmp_path):
    """A blank line of a labels file is a missing label: every message names its line."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(ROW_A) + "\n\n")  # 20 labels and a blank line 21
    b.write_text("\n".join(ROW_B) + "\n")
    for extra in ([], ["--unassigned", "drop"]):
        assert_user_error(*run(capsys, "compare", a, b, *extra), f"{a}:21: line 21 is empty",
                          "21 labels", "20")
    with pytest.raises(cc.InvalidInputError, match=r"a\.txt:21: line 21 is empty"):
        cc.io.read_clustering(str(a))
    b.write_text("\n".join(ROW_B) + "\nx\n")  # 21 labels each: the blank line is unassigned
    assert_user_error(*run(capsys, "compare", a, b), f"{a}:21:", "(line 21 is empty)")


def _karate(path, labels, header=None):
    text = "".join(f"{v}\t{c}\n" for v, c in enumerate(labels))
    path.write_text(("" if header is None else header + "\n") + text)
    return path


def test_a_headerless_tsv_keeps_its_first_line(capsys, tmp_path):
    """The karate split written as element<TAB>cluster in a .tsv: 34 elements, not 33."""
    nx = pytest.importorskip("networkx")
    from networkx.algorithms.community import greedy_modularity_communities

    graph = nx.karate_club_graph()
    split = [int(graph.nodes[v]["club"] != "Mr. Hi") for v in graph]
    found = {v: k for k, c in enumerate(greedy_modularity_communities(graph)) for v in c}
    detected = [found[v] for v in graph]
    want = library(split, detected)
    a = _karate(tmp_path / "split.tsv", split)
    for b in (_karate(tmp_path / "det.tsv", detected),
              _karate(tmp_path / "det_h.tsv", detected, "node\tcommunity")):
        status, out, err = run(capsys, "compare", a, b, "--format", "json")
        assert status == 0, err
        doc = json.loads(out)
        assert doc["n"] == 34
        assert {(r["measure"], r["model"]): r["value"] for r in doc["results"]} == (
            pytest.approx(want, abs=1e-12))
        assert f"{a}: line 1 ('0', '0') read as data, not a header: '0' also occurs" in err
        taken = "taken as the header: none of its fields occurs below"
        assert (f"{b}: line 1 ('node', 'community') {taken}" in err) == (b.name == "det_h.tsv")
    c = cc.io.read_clustering(str(a))
    assert (c.n, c.header.taken) == (34, False)
    assert cc.io.read_clustering(str(a), header=True).n == 33  # --header: it is a header


def test_pandas_series_to_csv_keeps_its_header(tmp_path):
    """``Series.to_csv`` writes an unnamed index column (',0'): an empty element id is never
    data, so the row is the header although its label '0' occurs below."""
    pd = pytest.importorskip("pandas")
    path = tmp_path / "s.csv"
    pd.Series([1, 0, 0, 1]).to_csv(path)
    c = cc.io.read_clustering(str(path))
    assert (c.labels, c.elements, c.header.taken) == (["1", "0", "0", "1"], ["0", "1", "2", "3"],
                                                      True)


def test_a_header_error_points_at_the_file_whose_line_was_taken(capsys, tmp_path):
    """A first row taken as the header by the rule: the element it held is named there."""
    a = tmp_path / "a.tsv"
    a.write_text("e0\tsolo\ne1\tx\ne2\ty\ne3\tx\n")  # 'solo' occurs nowhere below: a header
    b = tmp_path / "b.tsv"
    b.write_text("e0\tx\ne1\tx\ne2\ty\ne3\ty\n")  # 'x' occurs below: data
    assert_user_error(*run(capsys, "compare", b, a, "-q"), f"{a}:1: element 'e0'",
                      "taken as the header", "--no-header")
    _, got = values(capsys, b, a, "--no-header")
    assert got == pytest.approx(library(["x", "x", "y", "y"], ["solo", "x", "y", "x"]),
                                abs=1e-12)


@pytest.mark.parametrize(("name", "data", "needle"), [
    ("x.npy", b"\x93NUMPY\x01\x00v\x00{'descr': '<i8'}", "a NumPy .npy array"),
    ("x.xlsx", b"PK\x03\x04\x14\x00\x06\x00", "a ZIP archive (an .xlsx workbook"),
    ("x.parquet", b"PAR1\x15\x04\x15\x10PAR1", "a Parquet file"),
    ("x.txt.gz", gzip.compress(b"\x93NUMPY\x01\x00", mtime=0), "a NumPy .npy array"),
    ("x.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Excel (.xls) workbook"),
    ("x.h5ad", b"\x89HDF\r\n\x1a\n", "an HDF5 file"),
    ("x.txt.xz", b"\xfd7zXZ\x00\x00\x04", "xz-compressed data"),
    ("x.txt.zst", b"\x28\xb5\x2f\xfd\x04\x58", "zstd-compressed data"),
])
def test_binary_inputs_are_named(capsys, tmp_path, name, data, needle):
    """Binary files are told what they are and what is read, not to pass --encoding."""
    path = tmp_path / name
    path.write_bytes(data)
    good = tmp_path / "good.txt"
    good.write_text("1\n2\n1\n")
    status, out, err = run(capsys, "rank", path, good)
    assert_user_error(status, out, err, f"{path}: {needle}", "not text", "csv, tsv or json")
    assert "--encoding" not in err
    with pytest.raises(cc.InvalidInputError, match="not text"):
        cc.io.read_clustering(str(path))


def test_semicolon_tables_and_cells_with_delimiter(capsys, tmp_path):
    """--delimiter reads a semicolon CSV (by name or by index) and a semicolon cells file."""
    table = tmp_path / "t.csv"
    truth, pred = ["a", "a", "b", "b", "c"], ["x", "x", "y", "x", "y"]
    table.write_text("id;truth;pred\n" + "".join(
        f"e{i};{t};{p}\n" for i, (t, p) in enumerate(zip(truth, pred, strict=True))))
    want = library(truth, pred)
    for columns in (["truth", "pred"], ["2", "3"]):
        _, got = values(capsys, table, "--column", columns[0], "--column", columns[1],
                        "--id-column", "1", "--delimiter", ";")
        assert got == pytest.approx(want, abs=1e-12)
    assert cc.io.read_clustering(str(table), column="truth", delimiter=";").labels == truth
    assert_user_error(*run(capsys, "compare", table, "--column", "truth", "--column", "pred"),
                      "no column 'truth'")  # without it, one column named 'id;truth;pred'
    cells = write_cells(tmp_path / "c.csv", CELLS, sep=";")
    _, got = values(capsys, "--contingency", cells, "--delimiter", ";")
    assert got == pytest.approx(library(*expand(CELLS)), abs=1e-12)
    assert_user_error(*run(capsys, "compare", table, table, "--delimiter", ";;"),
                      "--delimiter", "one character")


def test_a_missing_extra_exits_2_with_the_install_line(capsys, tmp_path, monkeypatch):
    """One rule for every optional module: exit 2 and `pip install`, never 'a bug'."""
    a = tmp_path / "a.txt"
    a.write_text("1\n2\n1\n")
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "distributed", None)
        assert_user_error(*run(capsys, "pairwise", a, a, "--engine", "dask"),
                          "--engine dask needs distributed: pip install 'chanceclust[dask]'")
    with monkeypatch.context() as m:
        for name in ("pyarrow", "pyarrow.fs", "pyarrow.parquet"):
            m.setitem(sys.modules, name, None)
        assert_user_error(*run(capsys, "compare", tmp_path / "x.parquet", "--column", "a",
                               "--column", "b"),
                          "Parquet input needs pyarrow: pip install 'chanceclust[dask]'")

    parquet = tmp_path / "t.parquet"
    pytest.importorskip("pyarrow.parquet").write_table(
        pytest.importorskip("pyarrow").table({"a": [1, 2], "b": [1, 1]}), parquet)
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "chanceclust.dask", None)
        m.delattr(cc, "dask", raising=False)  # imported by an earlier test
        assert_user_error(*run(capsys, "compare", parquet, "--column", "a", "--column", "b",
                               "--engine", "dask"),
                          "--engine dask needs dask: pip install 'chanceclust[dask]'")

    def lacking(*_):
        raise ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow")

    monkeypatch.setattr("chanceclust._cli.inputs.read_inputs", lacking)  # anywhere in a command
    assert_user_error(*run(capsys, "compare", a, a), "compare needs pyarrow: pip install")
