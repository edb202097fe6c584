"""The command line never blames itself for the user's input (#10, section 5).

Every user error exits with status 2 and one line on stderr that names the
option, or the file and line; nothing is written to stdout; option values are
bounded and the bound is in the message; exit status 1 is left to genuine
internal errors.
"""

from __future__ import annotations

import pytest

from chanceclust import cli
from chanceclust.cli import main


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_user_error(status, out, err, *needles):
    assert status == 2, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "internal error" not in err
    for needle in needles:
        assert needle in err, err


@pytest.fixture
def labels(tmp_path):
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("1\n2\n1\n2\n1\n")
    b.write_text("1\n1\n2\n2\n2\n")
    return str(a), str(b)


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        (["sample", "--n", "1e12", "--model", "all"], ["--n", "at most 10000000"]),
        (["sample", "--n", "10", "--model", "all", "--count", "1e9"], ["--count", "1000000"]),
        (["sample", "--n", "100000", "--model", "all", "--count", "1000"], ["--n", "--count"]),
        (["sample", "--n", "3", "--model", "num", "--k", "5"], ["--k 5", "--n 3"]),
        (["sample", "--n", "5", "--model", "all", "--seed", "-1"], ["--seed", ">= 0"]),
        (["sample", "--n", "5", "--model", "all", "--k", "2"], ["--k", "--model all"]),
        (["sample", "--n", "5", "--model", "num", "--k", "2", "--sizes", "3,2"], ["--sizes"]),
        (["sample", "--n", "5", "--model", "perm", "--sizes", "3,2", "--k", "3"], ["--k is 3"]),
        (["expect", "--n", str(2**63), "--model", "all"], ["--n", str(2**63 - 1)]),
        (["expect", "--n", "10", "--model", "perm"], ["--sizes-true", "--sizes-pred"]),
        (["expect", "--n", "10", "--model", "num"], ["--k-true", "--k-pred"]),
        (["expect", "--n", "10", "--model", "num", "--one-sided"], ["--sizes-true", "--k-pred"]),
        (
            ["expect", "--n", "10", "--model", "num", "--k-true", "20", "--k-pred", "2"],
            ["--k-true"],
        ),
        (["expect", "--n", "10", "--model", "all", "--one-sided"], ["--sizes-true"]),
        (["expect", "--n", "10", "--sizes-true", "0,10"], ["--sizes-true", "positive"]),
    ],
)
def test_option_errors_name_the_option_and_bound(capsys, argv, needles):
    status, out, err = run(capsys, *argv)
    assert_user_error(status, out, err, *needles)
    for library_name in ("n_clusters", "`rng`", "sizes_true`", "`n`"):
        assert library_name not in err


def test_test_command_bounds(capsys, labels):
    for option, value, needle in (
        ("--samples", "1e12", "at most 10000000"),
        ("--seed", "-3", ">= 0"),
        ("--digits", "1000000000", "at most 30"),
    ):
        status, out, err = run(capsys, "test", *labels, option, value)
        assert_user_error(status, out, err, option, needle)


def test_digits_is_bounded_everywhere(capsys, labels):
    status, out, err = run(capsys, "compare", *labels, "--digits", "1000000000")
    assert_user_error(status, out, err, "--digits", "at most 30")
    status, out, _ = run(capsys, "compare", *labels, "--digits", "30", "--measure", "ri")
    assert status == 0
    assert "0.400000000000000022204460492503" in out


def test_scientific_notation_is_read_when_integral(capsys):
    status, out, _ = run(capsys, "sample", "--n", "1e1", "--model", "all", "--seed", "1")
    assert status == 0
    assert len(out.split()) == 10


def test_deeply_nested_json_names_the_file(capsys, tmp_path, labels):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    status, out, err = run(capsys, "compare", str(deep), labels[0])
    assert_user_error(status, out, err, "deep.json", "nested too deeply")


def test_pairs_file_with_a_three_field_line_names_that_line(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    good = tmp_path / "good.txt"
    bad.write_text("a\t1\nb\t2\nc\t1\td\ne\t2\n")
    good.write_text("a\t1\nb\t2\nc\t1\ne\t2\n")
    status, out, err = run(capsys, "compare", str(bad), str(good))
    assert_user_error(status, out, err, "bad.txt:3:", "2 TAB-separated fields", "found 3")
    assert "appears again" not in err


def test_ragged_csv_names_file_and_line(capsys, tmp_path):
    ragged = tmp_path / "r.csv"
    ragged.write_text("x,y\n1,2\n3\n4,5\n")
    status, out, err = run(capsys, "compare", str(ragged), str(ragged))
    assert_user_error(status, out, err, "r.csv:3:", "expected 2 fields")


def test_unknown_encoding_names_the_option(capsys, labels):
    status, out, err = run(capsys, "compare", *labels, "--encoding", "no-such-codec")
    assert_user_error(status, out, err, "--encoding", "no-such-codec")


def test_no_partial_output_on_error(capsys, labels, monkeypatch):
    """A failure after some output was produced leaves stdout empty."""

    def fail_after_writing(rows, columns, fmt, stream, **kwargs):
        stream.write("half a li")
        raise ValueError("the writer failed")

    monkeypatch.setattr(cli, "write_rows", fail_after_writing)
    status, out, err = run(capsys, "compare", *labels)
    assert status == 1  # raised outside chanceclust's code: an internal error (#15)
    assert out == ""
    assert "the writer failed" in err


def test_only_the_librarys_own_value_errors_are_user_errors(capsys, labels, monkeypatch):
    """A ValueError from numpy deep inside a computation is a bug: exit 1 and a hint to
    report it; the library's own argument errors stay exit 2 (#15)."""
    import numpy as np

    def numpy_fails(codes_a, codes_b):
        return np.reshape(np.arange(3), (2, 2))  # ValueError raised inside numpy

    monkeypatch.setattr(cli, "_contingency", numpy_fails)
    status, out, err = run(capsys, "compare", *labels)
    assert status == 1
    assert out == ""
    assert "internal error: ValueError" in err
    assert "please report it" in err
    monkeypatch.undo()
    status, out, err = run(capsys, "expect", "--n", "10", "--model", "num")
    assert status == 2, err
    assert "internal error" not in err


def test_memory_error_is_a_user_error_not_an_internal_one(capsys, labels, monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(cli, "_contingency", exhausted)
    status, out, err = run(capsys, "compare", *labels)
    assert_user_error(status, out, err, "not enough memory")


def test_internal_errors_exit_1_with_a_hint(capsys, labels, monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "_contingency", broken)
    status, out, err = run(capsys, "compare", *labels)
    assert status == 1
    assert out == ""
    assert "internal error" in err
    assert "report" in err


def test_reproduce_out_naming_a_file(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    for out_dir in (afile, afile / "sub"):
        status, out, err = run(capsys, "reproduce", "genes", "--out", out_dir, "--quick")
        assert_user_error(status, out, err, "--out", "afile", "not a folder")


def test_reproduce_genes_empty_data_file_names_it(capsys, tmp_path):
    from chanceclust.datasets import GENE_EXPRESSION_REGISTRY

    data = tmp_path / "data"
    data.mkdir()
    for name in GENE_EXPRESSION_REGISTRY:  # every file present, one of them empty
        (data / name).write_text("" if name.startswith("alizadeh-2000-v1") else "x")
    status, out, err = run(
        capsys, "reproduce", "genes", "--out", tmp_path / "out", "--data", data, "--quick"
    )
    assert_user_error(status, out, err, "alizadeh-2000-v1_database.txt", "empty")
    assert not (tmp_path / "out").exists()  # checked before any experiment ran


@pytest.mark.parametrize(
    ("content", "needles"),
    [
        ("", ["x_database.txt", "0 non-blank lines"]),
        ("\tA\tB\n\tc1\tc2\ng1\t1.0\n", ["x_database.txt:3:", "1 values but 2 class labels"]),
        ("\tA\tB\n\tc1\tc2\ng1\t1.0\tabc\n", ["x_database.txt:3:", "expected numbers"]),
    ],
    ids=["empty", "short-row", "not-a-number"],
)
def test_read_study_names_file_and_line(tmp_path, content, needles):
    from chanceclust.paper.genes import read_study

    path = tmp_path / "x_database.txt"
    path.write_text(content)
    with pytest.raises(ValueError) as info:
        read_study(path)
    for needle in needles:
        assert needle in str(info.value)


def test_reproduce_seed_names_the_option(capsys, tmp_path):
    status, out, err = run(capsys, "reproduce", "genes", "--out", tmp_path, "--seed", "-2")
    assert_user_error(status, out, err, "--seed", ">= 0")


def test_reproduce_files_are_written_atomically(tmp_path):
    from chanceclust.paper.report import atomic_path, write_csv

    target = tmp_path / "table.csv"
    with pytest.raises(RuntimeError), atomic_path(target) as temporary:
        temporary.write_text("half a ta")
        raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []  # neither the target nor the temporary file
    write_csv(target, ["a", "b"], [(1, 0.5)])
    assert target.read_text().splitlines() == ["a,b", "1,0.5"]
    assert list(tmp_path.iterdir()) == [target]
