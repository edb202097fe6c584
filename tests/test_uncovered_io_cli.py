"""Every error path of the readers and the command line, reached from user input (s12).

Each test reaches one path through the public API (the library's readers, or the command line
run in-process) and checks the exception or exit status and that the message names the
argument, option or file (and line), says what was expected and what was got.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from test_cli_errors import assert_user_error, run

import chanceclust as cc
from chanceclust import io as ccio
from chanceclust.exceptions import InvalidFileError, InvalidInputError

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.fixture
def two(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("x\nx\ny\ny\nz\n")
    b.write_text("1\n1\n1\n2\n2\n")
    return a, b


def ari(capsys, *argv):
    """The ARI printed by ``compare ... --measure ari --format json``; asserts exit 0."""
    status, out, err = run(capsys, "compare", *argv, "--measure", "ari", "--format", "json")
    assert status == 0, err
    return json.loads(out)["results"][0]["value"]


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("argv", "needles"),
    [
        # rank: one FILE and no --reference (argparse's nargs="+" lets one through)
        (["rank", "{a}"], ["rank needs at least two FILEs", "--reference"]),
        # sample --model perm without its sizes
        (["sample", "--n", "5", "--model", "perm"], ["--model perm needs --sizes"]),
        # an integer option given a non-integral number (options._parse_int)
        (["sample", "--n", "5", "--model", "all", "--seed", "1.5"], ["--seed", "'1.5'"]),
        (["sample", "--n", "inf", "--model", "all"], ["--n", "'inf'"]),
        # seconds that are not a number (options.positive_float)
        (["pairwise", "{a}", "{b}", "--scheduler-timeout", "soon"],
         ["--scheduler-timeout", "positive number of seconds", "'soon'"]),
        # --column on inputs that are no csv/tsv table
        (["compare", "{ja}", "{jb}", "--column", "x"], ["--column", "csv/tsv"]),
    ],
    ids=["rank-one-file", "sample-perm-no-sizes", "int-fraction", "int-inf", "seconds",
         "column-json"],
)
def test_option_errors(capsys, tmp_path, two, argv, needles):
    ja, jb = tmp_path / "a.json", tmp_path / "b.json"
    ja.write_text('["x", "x", "y"]')
    jb.write_text('["1", "2", "2"]')
    names = {"a": two[0], "b": two[1], "ja": ja, "jb": jb}
    argv = [arg.format(**{k: str(v) for k, v in names.items()}) for arg in argv]
    assert_user_error(*run(capsys, *argv), *needles)


# --------------------------------------------------------------------------- main


def _command_raising(monkeypatch, exc):
    import chanceclust._cli.sample as sample

    def raising(args):
        raise exc

    monkeypatch.setattr(sample, "run", raising)
    # the parser stores the function: patch it where it is looked up
    import chanceclust._cli.main as main

    parser = main.get_parser
    monkeypatch.setattr(main, "get_parser", lambda: _with_func(parser(), raising))


def _with_func(parser, func):
    for action in parser._subparsers._group_actions:  # noqa: SLF001 - the test's own parser
        action.choices["sample"].set_defaults(func=func)
    return parser


SAMPLE = ["sample", "--n", "5", "--model", "all", "--seed", "1"]


def test_broken_pipe_exits_quietly(capsys, monkeypatch):
    """The reader of stdout went away: exit 0, nothing on stderr (as `| head` does)."""
    _command_raising(monkeypatch, BrokenPipeError())
    status, out, err = run(capsys, *SAMPLE)
    assert (status, out, err) == (0, "", "")


def test_interrupt_exits_130(capsys, monkeypatch):
    _command_raising(monkeypatch, KeyboardInterrupt())
    status, out, err = run(capsys, *SAMPLE)
    assert (status, out, err) == (130, "", "\n")


def test_a_missing_module_of_the_package_is_not_blamed_on_the_user(capsys, monkeypatch):
    """A module of chanceclust missing from the installation: exit 1, naming it."""
    _command_raising(monkeypatch, ModuleNotFoundError("no module", name="chanceclust.nothing"))
    status, out, err = run(capsys, *SAMPLE)
    assert status == 1
    assert out == ""
    assert "sample is not available yet (chanceclust.nothing is missing)" in err


# --------------------------------------------------------------------------- pairwise --heatmap


def test_heatmap_without_matplotlib_is_a_usage_error(capsys, monkeypatch, two):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails
    assert_user_error(*run(capsys, "pairwise", *two, "--heatmap", two[0].parent / "h.png"),
                      "--heatmap needs matplotlib")


def test_heatmap_without_pyplot_is_a_usage_error(capsys, monkeypatch, two):
    pytest.importorskip("matplotlib.figure")
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)  # a broken pyplot
    assert_user_error(*run(capsys, "pairwise", *two, "--heatmap", two[0].parent / "h.png"),
                      "--heatmap needs matplotlib")


def test_heatmap_that_cannot_be_written_names_the_path(capsys, two):
    pytest.importorskip("matplotlib")
    target = two[0].parent / "h.png"
    target.mkdir()  # a folder where the image should go
    assert_user_error(*run(capsys, "pairwise", *two, "--heatmap", target),
                      f"{target}:", "cannot write --heatmap")
