"""Files read by pyarrow's CSV reader and by the pure-Python fallback agree exactly (#23).

Every tricky input is read twice: with pyarrow forced (``VECTOR_MIN_CHARS`` = 0, so that small
files take the columnar path) and with pyarrow's import made to fail (the fallback of an install
without the extra). The two must give the same labels, element ids and line numbers, the same
values from the command line, and the same errors naming the same file and line.
"""

from __future__ import annotations

import json
import sys

import pytest
from test_cli_errors import run

from chanceclust import io
from chanceclust.exceptions import InvalidFileError

pytest.importorskip("pyarrow")

#: Labels files: header-like first lines, missing values, "01" and "1", blank lines, CRLF, a
#: byte-order mark, TABs and spaces around labels, comments, unicode (and unicode spaces),
#: a bare CR (the reader would split there: the fallback reads it), no final newline.
LABELS = {
    "plain": b"1\n2\n1\n3\n",
    "no-final-newline": b"1\n2\n1\n3",
    "header": b"cluster\n1\n2\n1\n",
    "header-words": b"cluster\na\nb\na\n",
    "na": b"1\nNA\n2\n\n1\nnull\n2\n",
    "na-first": b"NaN\n1\n2\n1\n",
    "zero-padded": b"01\n1\n01\n1\n001\n",
    "blank-lines": b"a\n\nb\n\n\na\n\n",
    "crlf": b"a\r\nb\r\na\r\n\r\nb\r\n",
    "bom": b"\xef\xbb\xbfa\nb\na\n",
    "whitespace": b" a\n\tb \na\t\n  b\n a b \n",
    "comments": b"# made by hand\na\n#b\nb\n  # indented\na\n",
    "unicode": "é\nß\n\u00a0é\u00a0\nß\u2003\n\u2028x\n\u2028x\n".encode(),
    "odd-whitespace": b"a\x1c\n\x1fb\na\x0b\nb\x0c\n",
    # Unicode spaces alone (no ASCII one): stripped by both readers (#33: the Python reader's
    # fast path kept them, splitting 'a\u2003' from 'a')
    "unicode-spaces-only": "a\u2003\na\nb\u3000\nb\n\u2028x\n".encode(),
    "unit-separator-only": b"a\x1f\na\nb\n",
    "bare-cr": b"a\rb\nb\na\n",
    "delimiter-like": b"a,b\n\"q\"\na\x01b\n",
    "one-line": b"x\n",
    "only-comments": b"# nothing\n",
    "empty": b"",
    "nul": b"a\n\x00b\n",
    "not-utf8": b"a\n\xffb\n",
}


@pytest.fixture(params=["pyarrow", "fallback"])
def reader(request, monkeypatch):
    """The columnar path for every size, or no pyarrow at all."""
    if request.param == "pyarrow":
        monkeypatch.setattr(io, "VECTOR_MIN_CHARS", 0)
    else:
        monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` raises
    return request.param


def outcome(path, **kwargs):
    """What reading ``path`` gives: its fields as plain lists, or the error's text."""
    try:
        c = io.read_clustering(str(path), **kwargs)
    except InvalidFileError as error:
        return "error", str(error)
    elements = None if c.elements is None else list(c.elements)
    lines = None if c.lines is None else [int(x) for x in c.lines]
    return c.format, list(c.labels), elements, lines, c.header


def both(monkeypatch, path, **kwargs):
    """The outcome with pyarrow forced and without pyarrow."""
    with monkeypatch.context() as m:
        m.setattr(io, "VECTOR_MIN_CHARS", 0)
        fast = outcome(path, **kwargs)
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "pyarrow", None)
        slow = outcome(path, **kwargs)
    return fast, slow


@pytest.mark.parametrize("name", sorted(LABELS))
@pytest.mark.parametrize("options", [
    {}, {"na": "drop"}, {"na": "keep"}, {"header": True}, {"header": False},
    {"input_format": "labels", "na": "drop"},
])
def test_labels_files_read_alike(monkeypatch, tmp_path, name, options):
    path = tmp_path / "labels.txt"
    path.write_bytes(LABELS[name])
    fast, slow = both(monkeypatch, path, **options)
    assert fast == slow


def test_the_columnar_path_is_taken(monkeypatch, tmp_path):
    """The labels come back as a dictionary-encoded column (no Python string per element)."""
    path = tmp_path / "labels.txt"
    path.write_bytes(LABELS["whitespace"])
    monkeypatch.setattr(io, "VECTOR_MIN_CHARS", 0)
    c = io.read_clustering(str(path), input_format="labels")
    assert isinstance(c.labels, io.Column)
    assert str(c.labels.array.type) == "dictionary<values=string, indices=int32, ordered=0>"
    assert list(c.labels) == ["a", "b", "a", "b", "a b"]


def cli(capsys, *argv):
    status, out, err = run(capsys, "compare", *argv, "--format", "json", "--measure", "ari,ami")
    if status:
        return status, err.strip()
    doc = json.loads(out)
    return status, [(r["measure"], r["model"], r["value"]) for r in doc["results"]], doc["n"]


@pytest.mark.parametrize("argv", [
    [], ["--unassigned", "drop"], ["--unassigned", "singletons"], ["--unassigned", "cluster"],
    ["--unassigned", "drop", "--unassigned-label", "b"], ["--na", "keep"], ["--header"],
    ["--unassigned-label", "a"],
])
def test_compare_labels_files_alike(capsys, tmp_path, reader, argv):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(b"a\n b\nNA\n\na\r\nc\nb\n01\n1\n")
    b.write_bytes(b"x\ny\ny\nx\n\nx\ny\nz\nz\n")
    got = cli(capsys, a, b, *argv)
    with pytest.MonkeyPatch.context() as m:  # the reference: the Python parsers
        m.setitem(sys.modules, "pyarrow", None)
        want = cli(capsys, a, b, *argv)
    assert got == want


#: Tables (tsv and csv): a header, missing values, "01" and "1", blank lines (skipped by the
#: csv module in a one-column table), CRLF, a byte-order mark, spaces around fields, element
#: ids (empty, repeated), rows of another width, quotes (the csv module's rules: the fallback).
TABLES = {
    "two-labels": "a\tb\n1\tx\n01\ty\n1\tx\nNA\ty\n\tz\n",
    "ids": "id\tc\ne1\tx\ne2\ty\n e3 \tx\ne4\t NA\n",
    "ids-repeated": "id\tc\ne1\tx\ne2\ty\ne1\tx\ne4\ty\n",
    "ids-empty": "id\tc\ne1\tx\n \ty\ne3\tx\n",
    "ids-empty-and-repeated": "id\tc\ne1\tx\ne1\ty\n\tx\n",
    "one-column": "c\nx\n\ny\n  \nx\n\n",
    "crlf": "a\tb\r\n1\tx\r\n2\ty\r\n1\tx\r\n",
    "bom": "\ufeffa\tb\n1\tx\n2\ty\n",
    "blank-before-header": "\na\tb\n1\tx\n2\ty\n",
    "wide-row": "a\tb\n1\tx\n2\ty\tz\n1\tx\n",
    "blank-row": "a\tb\n1\tx\n\n2\ty\n1\tx\n",
    "quoted": 'a\tb\n"1"\tx\n"2\t3"\ty\n1\tx\n',
    "unbalanced-quote": 'a\tb\n1\tx\n"2\ty\n1\tx\n',
    "unicode": "a\tb\né\t\u00a0x\u00a0\nß\ty\né\tx\n",
    "bare-cr": "a\tb\n1\tx\r2\ty\n1\tx\n",
    "long-field": "a\tb\n1\tx\n" + "y" * 200_000 + "\ty\n",
    "header-only": "a\tb\n",
    "csv": "a,b\n1,x\n2,y\n 1 ,x\n",
    # the header rule (#35): a first row whose label occurs below, or of integers above
    # integers, is data; one whose id occurs below is data that repeats an id
    "headerless": "0\t0\n1\t0\n2\t1\n3\t1\n",
    "headerless-integers": "1\t5\n2\t1\n3\t1\n",
    "headerless-repeated-id": "e1\tx\ne1\ty\ne2\tx\n",
    "headerless-one-column": "x\ny\nx\n",
    "semicolons": "a;b\n1;x\n2;y\n1;x\n",
    "unnamed-index": "\t0\n0\t1\n1\t0\n2\t1\n",  # pandas' Series.to_csv: a header
}


@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.parametrize("options", [
    {}, {"na": "drop"}, {"column": "a"}, {"column": "2"}, {"column": "b", "id_column": "a"},
    {"id_column": "1"}, {"column": "nope"}, {"na": "keep", "column": "1"}, {"header": True},
    {"header": False}, {"delimiter": ";"},
])
def test_tables_read_alike(monkeypatch, tmp_path, name, options):
    text = TABLES[name]
    path = tmp_path / ("t.csv" if name == "csv" else "t.tsv")
    path.write_text(text.replace("\t", ",") if name == "csv" else text, newline="")
    fast, slow = both(monkeypatch, path, **options)
    assert fast == slow


@pytest.mark.parametrize("argv", [
    [], ["--unassigned", "drop"], ["--unassigned", "singletons"], ["--na", "keep"],
    ["--unassigned", "drop", "--unassigned-label", "y"],
])
def test_compare_two_columns_of_one_table_alike(capsys, tmp_path, reader, argv):
    path = tmp_path / "t.tsv"
    path.write_text("a\tb\n1\tx\n01\ty\n 1\tx\nNA\ty\n2\t\n2\tz\n1\ty\n", newline="")
    got = cli(capsys, path, "--column", "a", "--column", "b", *argv)
    with pytest.MonkeyPatch.context() as m:
        m.setitem(sys.modules, "pyarrow", None)
        want = cli(capsys, path, "--column", "a", "--column", "b", *argv)
    assert got == want


# --------------------------------------------------------------------------- Parquet

INTEGERS = {  # (dtype, values): int8 whose shift by the minimum overflows int8, uint64 beyond
    # int64, a sparse int64 range (a sort, not a bincount), and a compact int32 range
    "int8": ("int8", [-128, 127, 0, -128, 5, 127, 5, 0, -3]),
    "uint64": ("uint64", [2**64 - 1, 2**63, 5, 2**64 - 1, 5, 2**63 + 1, 7, 5, 2**63]),
    "int64-sparse": ("int64", [-(2**62), 2**62, 5, 2**62, 5, 0, 7, 5, -(2**62)]),
    "int32": ("int32", [3, 1, 2, 3, 5, 1, 2, 5, 4]),
}


@pytest.mark.parametrize("kind", sorted(INTEGERS))
@pytest.mark.parametrize("policy", ["raise", "drop"])
def test_parquet_integer_columns_read_alike(tmp_path, monkeypatch, kind, policy):
    """Integer columns coded by numpy give the table of pyarrow's kernels, and the library's."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    import chanceclust as cc
    from chanceclust._cli import inputs

    dtype, values = INTEGERS[kind]
    a = np.array(values, dtype=dtype)
    b = np.array(values[3:] + values[:3], dtype=dtype)
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": a, "b": b}), path, row_group_size=2)
    marks = inputs._typed_marks(["5"]) if policy == "drop" else frozenset()
    got = inputs.read_parquet_table(str(path), ("a", "b"), unassigned=policy, marks=marks)
    with monkeypatch.context() as m:  # pyarrow's kernels, as for every other column type
        m.setattr(inputs._Coder, "_integer_codes", None)
        m.setattr(pa.types, "is_integer", lambda _: False)
        kernels = inputs.read_parquet_table(str(path), ("a", "b"), unassigned=policy,
                                            marks=marks)
    for field in ("labels_true", "labels_pred", "rows", "cols", "counts"):
        assert getattr(got, field).tolist() == getattr(kernels, field).tolist()
    label = 5 if policy == "drop" else None
    assert cc.adjusted_rand_index(contingency=got) == pytest.approx(
        cc.adjusted_rand_index(a.tolist(), b.tolist(), unassigned="drop", unassigned_label=label),
        abs=1e-12)


def test_parquet_integer_mark_is_refused_with_its_row_group(tmp_path):
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from chanceclust._cli.inputs import _typed_marks, read_parquet_table

    path = tmp_path / "t.parquet"
    a = np.array([1, 2, 1, 2, 5, 1], dtype=np.int64)
    pq.write_table(pa.table({"a": a, "b": a}), path, row_group_size=2)
    with pytest.raises(InvalidFileError, match=r"labelled 5 \(--unassigned-label\) in row group 2"):
        read_parquet_table(str(path), ("a", "b"), marks=_typed_marks(["5"]))


@pytest.mark.parametrize(("encoding", "text"), [
    ("latin-1", "é\nß\né\nx\n"), ("utf-16", "é\nß\né\nx\n"), ("utf-8", "\ufeffé\r\nß\r\n")])
def test_other_encodings_read_alike(monkeypatch, tmp_path, encoding, text):
    path = tmp_path / "labels.txt"
    path.write_bytes(text.encode(encoding))
    fast, slow = both(monkeypatch, path, encoding=encoding)
    assert fast == slow
    assert fast[1][:2] == ["é", "ß"]


def test_gzip_reads_alike(monkeypatch, tmp_path):
    import gzip

    path = tmp_path / "t.tsv.gz"
    path.write_bytes(gzip.compress(TABLES["two-labels"].encode()))
    fast, slow = both(monkeypatch, path, column="b", na="drop")
    assert fast == slow


def test_same_file_twice_and_one_large_one_small(capsys, tmp_path, monkeypatch):
    """Two inputs of one path are two inputs; a columnar input beside a list agrees."""
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("xx\nyy\nxx\nzz\nyy\n")
    b.write_text("1\n1\n2\n2\n3\n")
    marks = ["--unassigned-label", "yy", "--unassigned", "drop"]
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "pyarrow", None)
        want, want_marks = cli(capsys, a, b), cli(capsys, a, b, *marks)
    same = cli(capsys, a, a)
    assert same[0] == 0
    assert {v for m, _, v in same[1] if m == "ari"} == {1.0}
    monkeypatch.setattr(io, "VECTOR_MIN_CHARS", 12)  # a (15 characters) by pyarrow, b (10) not
    assert isinstance(io.read_clustering(str(a)).labels, io.Column)
    assert isinstance(io.read_clustering(str(b)).labels, list)
    assert cli(capsys, a, b) == want
    assert cli(capsys, a, b, *marks) == want_marks
