"""The command line never blames itself for the user's input (#10, section 5).

Every user error exits with status 2 and one line on stderr that names the
option, or the file and line; nothing is written to stdout; option values are
bounded and the bound is in the message; exit status 1 is left to genuine
internal errors.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

from chanceclust.cli import main
from chanceclust.exceptions import InternalError, InvalidInputError, InvalidInputTypeError


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
    from chanceclust._cli import results

    def fail_after_writing(rows, columns, fmt, stream, **kwargs):
        stream.write("half a li")
        raise RuntimeError("the writer failed")

    monkeypatch.setattr(results, "write_rows", fail_after_writing)
    status, out, err = run(capsys, "compare", *labels)
    assert status == 1
    assert out == ""
    assert "the writer failed" in err


def test_memory_error_is_a_user_error_not_an_internal_one(capsys, labels, monkeypatch):
    import chanceclust.contingency

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(chanceclust.contingency, "table_of_codes", exhausted)
    status, out, err = run(capsys, "compare", *labels)
    assert_user_error(status, out, err, "not enough memory")


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
    with pytest.raises(ValueError, match=re.escape(needles[0])) as info:
        read_study(path)
    for needle in needles:
        assert needle in str(info.value)


def test_reproduce_seed_names_the_option(capsys, tmp_path):
    status, out, err = run(capsys, "reproduce", "genes", "--out", tmp_path, "--seed", "-2")
    assert_user_error(status, out, err, "--seed", ">= 0")


def test_reproduce_files_are_written_atomically(tmp_path):
    from chanceclust.paper.report import atomic_path, write_csv

    target = tmp_path / "table.csv"
    def interrupted_while_writing():
        with atomic_path(target) as temporary:
            temporary.write_text("half a ta")
            raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError, match="interrupted"):
        interrupted_while_writing()
    assert list(tmp_path.iterdir()) == []  # neither the target nor the temporary file
    write_csv(target, ["a", "b"], [(1, 0.5)])
    assert target.read_text().splitlines() == ["a,b", "1,0.5"]
    assert list(tmp_path.iterdir()) == [target]


# --------------------------------------------------------------------------- whose fault (#19)


def _validation_cases(tmp, write=True):
    """One invocation per validation rule the command line reaches: (argv, needles)."""

    def put(name, data):
        path = tmp / name
        if write:
            path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return str(path)

    good = put("good.txt", "x\nx\ny\ny\n")
    other = put("other.txt", "1\n2\n1\n2\n")
    ids = put("ids.txt", "e1\t1\ne2\t1\ne3\t2\ne4\t2\n")
    cells = put("cells.tsv", "0\t1\t2\n0\t2\t-1\n")
    table = put("t.csv", "id,truth,pred\n1,x,y\n2,x,z\n")
    return {
        # options: models, sides, normalizations, unassigned elements
        "model name": (["compare", good, other, "--model", "nums"], ["invalid model 'nums'"]),
        "model and all-models": (["compare", good, other, "--model", "num", "--all-models"],
                                 ["not allowed with"]),
        "one-sided rank without reference": (["rank", good, other, "--one-sided"],
                                             ["--one-sided needs --reference"]),
        "one-sided all needs the reference's sizes": (
            ["expect", "--n", "10", "--model", "all", "--one-sided"], ["--sizes-true"]),
        "average method": (["compare", good, other, "--average-method", "median"],
                           ["--average-method", "'median'"]),
        "unassigned policy": (["compare", good, other, "--unassigned", "ignore"],
                              ["--unassigned", "'ignore'"]),
        "unassigned element": (["compare", good, other, "--unassigned-label", "y"],
                               ["good.txt:3:", "has no cluster", "--unassigned drop"]),
        "pairwise unassigned": (["pairwise", good, other, "--unassigned", "drop"],
                                ["pairwise", "--unassigned raise"]),
        "measure": (["compare", good, other, "--measure", "ari,rand"], ["invalid measure 'rand'"]),
        "test statistic": (["test", good, other, "--measure", "rand"], ["--measure", "'rand'"]),
        "alternative": (["test", good, other, "--alternative", "bigger"],
                        ["--alternative", "'bigger'"]),
        # counts, sizes, numbers of clusters, N, seeds
        "cell count": (["compare", "--contingency", cells], ["cells.tsv:2:", "non-negative"]),
        "cells of no element": (
            ["compare", "--contingency", put("zero.tsv", "0\t1\t0\n0\t2\t0\n")],
            ["zero.tsv: no element in the cells"]),
        "sizes positive": (["expect", "--n", "10", "--sizes-true", "0,10"], ["--sizes-true"]),
        "sizes sum to n": (["expect", "--n", "10", "--sizes-true", "5,3", "--model", "perm",
                            "--sizes-pred", "5,5"], ["--sizes-true", "--n 10", "8"]),
        "sample sizes sum to n": (["sample", "--n", "5", "--model", "perm", "--sizes", "3,3"],
                                  ["--sizes add up to 6", "--n 5"]),
        "k at most n": (["expect", "--n", "10", "--model", "num", "--k-true", "20",
                         "--k-pred", "2"], ["--k-true", "20"]),
        "sample k at most n": (["sample", "--n", "3", "--model", "num", "--k", "5"],
                               ["--k 5", "--n 3"]),
        "model needs k": (["sample", "--n", "5", "--model", "num"], ["--model num needs --k"]),
        "perm needs sizes": (["expect", "--n", "10", "--model", "perm"],
                             ["--sizes-true", "--sizes-pred"]),
        "n positive": (["expect", "--n", "0"], ["--n", "positive integer"]),
        "n below 2**63": (["expect", "--n", str(2**63), "--model", "all"], ["--n"]),
        "seed": (["sample", "--n", "5", "--model", "all", "--seed", "-1"], ["--seed", ">= 0"]),
        "test samples": (["test", good, other, "--samples", "0"], ["--samples"]),
        # files
        "no such file": (["compare", str(tmp / "nope.txt"), good], ["nope.txt: no such file"]),
        "different lengths": (["compare", good, put("five.txt", "1\n1\n2\n2\n3\n")],
                              ["five.txt:5:", "has 5 labels but", "has 4"]),
        "missing value": (["compare", put("nan.txt", "x\nNaN\ny\ny\n"), good],
                          ["nan.txt:2:", "missing label"]),
        "positional vs ids": (["compare", good, ids], ["good.txt:1:", "--line-ids"]),
        "malformed json": (["compare", put("bad.json", '["x",\n"y"'), good],
                           ["bad.json:2:", "invalid JSON"]),
        "ragged csv": (["compare", put("r.csv", "id,a\n1,x\n2\n3,y\n4,y\n"), good],
                       ["r.csv:3:", "expected 2 fields"]),
        "not utf-8": (["compare", put("latin.txt", b"x\n\xe9\ny\ny\n"), good],
                      ["latin.txt:2:", "not valid utf-8"]),
        "duplicate element": (["compare", put("dup.txt", "e1\tx\ne2\tx\ne1\ty\n"), ids],
                              ["dup.txt:3:", "appears again"]),
        "unknown column": (["compare", table, table, "--column", "nope"],
                           ["t.csv:1:", "no column 'nope'"]),
        "columns per input": (["rank", table, table, table, "--column", "truth", "--column",
                               "pred"], ["--column given 2 times for 3 inputs"]),
        "two standard inputs": (["compare", "-", "-"], ["only one input can be '-'"]),
        "cells and files": (["compare", "--contingency", cells, good], ["not both"]),
        "encoding": (["compare", good, other, "--encoding", "no-such-codec"],
                     ["--encoding", "no-such-codec"]),
    }


_VALIDATION_CASES = list(_validation_cases(Path("unused"), write=False))


@pytest.mark.parametrize("case", _VALIDATION_CASES)
def test_every_validation_rule_exits_2_with_its_message(capsys, tmp_path, case):
    """The user's input: exit 2, one line on stderr with the rule's message, no stdout."""
    argv, needles = _validation_cases(tmp_path)[case]
    status, out, err = run(capsys, *argv)
    assert_user_error(status, out, err, *needles)
    assert err.startswith("chanceclust")
    assert "bug" not in err


_A = ("1\n2\n1\n2\n1\n", "1\n1\n2\n2\n2\n")
#: subcommand -> (module, library function it calls, its arguments after the input files)
_LIBRARY_CALLS = {
    "compare": ("chanceclust._registry", "ari", ["--measure", "ari"]),  # a registry entry
    "table": ("chanceclust.comparison", "compare", []),
    "rank": ("chanceclust._registry", "ari", []),
    "expect": ("chanceclust.expectations", "expected_rand_index_baseline", None),
    "sample": ("chanceclust.samplers", "random_clusterings", None),
    "test": ("chanceclust.significance", "significance_test", ["--samples", "5", "--seed", "0"]),
    "pairwise": ("chanceclust.allpairs", "pairwise", []),
}
_NO_FILES = {
    "expect": ["--n", "10", "--model", "all", "--measure", "ri"],
    "sample": ["--n", "10", "--model", "all", "--seed", "1"],
}


def _raising(exc):
    def call(*args, **kwargs):
        raise exc

    return call


@pytest.mark.parametrize("command", list(_LIBRARY_CALLS))
@pytest.mark.parametrize(
    ("exc", "status", "needles"),
    [
        (InternalError("an invariant failed"), 1,
         ["internal error", "an invariant failed", "bug in chanceclust", "please report it",
          "--debug"]),
        (ValueError("raised inside numpy"), 1,
         ["internal error: ValueError: raised inside numpy", "bug in chanceclust",
          "please report it", "--debug"]),
        (ZeroDivisionError("a slip"), 1, ["internal error: ZeroDivisionError", "bug"]),
        (InvalidInputError("`x` must be positive; got -1."), 2, ["`x` must be positive"]),
        (InvalidInputTypeError("`x` must be a sequence; got a set."), 2, ["`x` must be"]),
    ],
    ids=["InternalError", "ValueError", "other", "InvalidInputError", "InvalidInputTypeError"],
)
def test_exit_status_says_whose_fault(capsys, tmp_path, monkeypatch, command, exc, status,
                                      needles):
    """A subcommand's library call raising: 2 only for invalid input, 1 (a bug) otherwise."""
    module, name, extra = _LIBRARY_CALLS[command]
    if module == "chanceclust._registry":  # the CLI calls the registry entry's function
        registry = importlib.import_module(module).MEASURES
        monkeypatch.setitem(
            registry, name, dataclasses.replace(registry[name], function=_raising(exc))
        )
    else:
        monkeypatch.setattr(importlib.import_module(module), name, _raising(exc))
    if extra is None:
        argv = [command, *_NO_FILES[command]]
    else:
        files = [tmp_path / "a.txt", tmp_path / "b.txt"]
        for path, text in zip(files, _A, strict=True):
            path.write_text(text)
        argv = [command, *files, *extra]
    got, out, err = run(capsys, *argv)
    assert got == status, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err
    if status == 2:
        assert "internal error" not in err
        assert "bug" not in err
    got, _, err = run(capsys, *argv, "--debug")
    assert got == status
    assert "Traceback" in err
