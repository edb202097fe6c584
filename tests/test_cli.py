"""Tests for the command line (chanceclust.cli): subcommands, formats, and the bad-input matrix.

Most tests call ``main([...])`` in-process (fast); a handful run ``python -m chanceclust`` in a
subprocess to check the real entry point, exit codes and streams. Values are checked against
independent oracles: scikit-learn (perm model), exact fractions (Rand index, E[RI]), and for the
other models against the library functions themselves (the CLI must only wire them correctly).
"""

import gzip
import itertools
import json
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import (
    adjusted_mutual_info_score,
    adjusted_rand_score,
    normalized_mutual_info_score,
)

from chanceclust import __version__
from chanceclust.cli import MEASURES, get_parser, main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

TRUE = ["a", "a", "a", "b", "b", "c", "c", "c", "c", "d"]
PRED = ["1", "1", "2", "2", "2", "3", "3", "1", "3", "3"]


def rand_index_exact(x, y):
    """Brute force over all pairs: the fraction of pairs on which x and y agree."""
    pairs = list(itertools.combinations(range(len(x)), 2))
    agree = sum((x[i] == x[j]) == (y[i] == y[j]) for i, j in pairs)
    return Fraction(agree, len(pairs))


RI_EXACT = float(rand_index_exact(TRUE, PRED))
ARI_SKLEARN = adjusted_rand_score(TRUE, PRED)


@pytest.fixture
def files(tmp_path):
    """The TRUE/PRED pair in every input format, keyed by format name."""
    ids = [f"e{i}" for i in range(len(TRUE))]
    order = [3, 0, 9, 5, 1, 7, 2, 8, 4, 6]  # id-matched files list elements in another order
    out = {}

    def put(name, text):
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return str(path)

    out["labels"] = (put("t.txt", "\n".join(TRUE) + "\n"), put("p.txt", "\n".join(PRED) + "\n"))
    out["pairs"] = (
        put("t.pairs", "".join(f"{ids[i]}\t{TRUE[i]}\n" for i in order)),
        put("p.pairs", "".join(f"{ids[i]}\t{PRED[i]}\n" for i in range(10))),
    )

    def clusters(labels):
        groups = {}
        for i in order:
            groups.setdefault(labels[i], []).append(ids[i])
        return "".join(" ".join(g) + "\n" for g in groups.values())

    out["clusters"] = (put("t.clu", clusters(TRUE)), put("p.clu", clusters(PRED)))
    table = "id,truth,pred\n" + "".join(f"{ids[i]},{TRUE[i]},{PRED[i]}\n" for i in order)
    out["csv"] = (put("both.csv", table), None)
    out["tsv"] = (
        put("t.tsv", "cell\ttype\n" + "".join(f"{i}\t{TRUE[i]}\n" for i in order)),
        put("p.tsv", "cluster\n" + "".join(f"{p}\n" for p in PRED)),
    )
    out["json"] = (
        put("t.json", json.dumps({str(i): TRUE[i] for i in order})),
        put("p.json", json.dumps(PRED)),
    )
    out["gzip"] = (
        put("t.txt.gz", gzip.compress(("\n".join(TRUE) + "\n").encode())),
        put("p.json.gz", gzip.compress(json.dumps(PRED).encode())),
    )
    return out


def run(capsys, *argv):
    """``main(argv)`` in-process: (exit status, stdout, stderr)."""
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def values(out):
    """{(measure, model, sided): value} from --format json output."""
    doc = json.loads(out)
    return {(r["measure"], r["model"], r["sided"]): r["value"] for r in doc["results"]}


# --------------------------------------------------------------------------- compare


class TestCompare:
    def test_perm_matches_sklearn_and_ri_matches_exact(self, capsys, files):
        t, p = files["labels"]
        status, out, err = run(
            capsys, "compare", t, p, "--measure", "ri,ari,ami,nmi", "--format", "json"
        )
        assert (status, err) == (0, "")
        v = values(out)
        assert v[("ri", None, None)] == pytest.approx(RI_EXACT, abs=1e-15)
        assert v[("ari", "perm", "two-sided")] == pytest.approx(ARI_SKLEARN, abs=1e-12)
        assert v[("ami", "perm", "two-sided")] == pytest.approx(
            adjusted_mutual_info_score(TRUE, PRED), abs=1e-10)
        assert v[("nmi", None, None)] == pytest.approx(
            normalized_mutual_info_score(TRUE, PRED), abs=1e-12)

    @pytest.mark.parametrize("fmt", ["pairs", "clusters", "csv", "tsv", "json", "gzip"])
    def test_every_format_gives_the_same_answer(self, capsys, files, fmt):
        """Matched by id or by position, each format reads the same two clusterings."""
        t, p = files[fmt]
        extra = []
        if fmt == "csv":  # one table holds both clusterings
            p = t
            extra = ["--column", "truth", "--column", "pred", "--id-column", "id"]
        if fmt in ("tsv", "json"):  # t names elements 0..9, p gives labels by position
            extra = ["--line-ids", "0"]
        argv = ["compare", t, p, "--measure", "ri,ari", "--format", "json", *extra]
        status, out, err = run(capsys, *argv)
        # a table's first row, read as its header by the header rule, is noted (#35)
        assert (status, err.count("taken as the header")) == (0, 2 if fmt == "tsv" else 0)
        v = values(out)
        assert v[("ri", None, None)] == pytest.approx(RI_EXACT, abs=1e-15)
        assert v[("ari", "perm", "two-sided")] == pytest.approx(ARI_SKLEARN, abs=1e-12)

    def test_positional_table_and_json(self, capsys, tmp_path):
        """A one-column TSV and a JSON list are both positional: they pair up by line."""
        t = tmp_path / "t.tsv"
        t.write_text("type\n" + "\n".join(TRUE) + "\n")
        p = tmp_path / "p.json"
        p.write_text(json.dumps(PRED))
        status, out, _ = run(capsys, "compare", t, p, "--measure", "ari", "--format", "json")
        assert status == 0
        assert values(out)[("ari", "perm", "two-sided")] == pytest.approx(
            adjusted_rand_score(TRUE, PRED), abs=1e-12)

    def test_models_are_wired_to_the_library(self, capsys, files):
        from chanceclust.adjusted import adjusted_mutual_information, adjusted_rand_index

        t, p = files["labels"]
        status, out, _ = run(capsys, "compare", t, p, "--all-models", "--one-sided",
                             "--average-method", "max", "--format", "json")
        assert status == 0
        v = values(out)
        assert len(v) == 6
        for model in ("perm", "num", "all"):
            assert v[("ari", model, "one-sided")] == adjusted_rand_index(
                TRUE, PRED, model=model, one_sided=True)
            assert v[("ami", model, "one-sided")] == adjusted_mutual_information(
                TRUE, PRED, model=model, one_sided=True, average_method="max")

    def test_model_option_forms(self, capsys, files):
        """--model is repeatable and takes comma lists; --model all is the 'all' model only."""
        t, p = files["labels"]

        def models(*opts):
            status, out, _ = run(capsys, "compare", t, p, "--measure", "ari", "--format",
                                 "json", *opts)
            assert status == 0
            return [key[1] for key in values(out)]

        assert models() == ["perm"]
        assert models("--model", "all") == ["all"]
        assert models("--model", "num", "--model", "perm") == ["num", "perm"]
        assert models("--model", "perm,all", "--model", "all") == ["perm", "all"]
        assert models("--all-models") == ["perm", "num", "all"]

    def test_every_measure_runs(self, capsys, files):
        t, p = files["labels"]
        status, out, _ = run(capsys, "compare", t, p, "--measure", ",".join(MEASURES),
                             "--format", "tsv")
        assert status == 0
        lines = out.splitlines()
        assert lines[0] == "measure\tmodel\tsided\tvalue"
        assert [line.split("\t")[0] for line in lines[1:]] == list(MEASURES)

    def test_text_output(self, capsys, files):
        t, p = files["labels"]
        status, out, _ = run(capsys, "compare", t, p, "--model", "num", "--digits", "3")
        assert status == 0
        lines = out.splitlines()
        assert lines[0].startswith("# ")
        assert "10 elements" in lines[0]
        assert lines[1].split() == ["measure", "model", "sided", "value"]
        assert lines[2].split()[:3] == ["ari", "num", "two-sided"]
        assert len(lines[2].split()[3].split(".")[1]) == 3

    def test_unassigned_drop_notes_on_stderr(self, capsys, tmp_path):
        a = tmp_path / "a.txt"
        a.write_text("e1\tx\ne2\tx\ne3\ty\ne4\ty\n")
        b = tmp_path / "b.txt"
        b.write_text("e2\t1\ne3\t2\ne4\t2\ne9\t1\n")
        status, out, err = run(capsys, "compare", a, b, "--unassigned", "drop", "--measure",
                               "ri", "--format", "json")
        assert status == 0
        assert "2 unassigned element(s) dropped (1 in" in err  # e9 in a, e1 in b
        assert json.loads(out)["n"] == 3
        assert values(out)[("ri", None, None)] == pytest.approx(
            float(rand_index_exact("xyy", "122")), abs=1e-15)
        status, _, err = run(capsys, "compare", a, b, "--unassigned", "drop", "--quiet")
        assert (status, err) == (0, "")

    def test_missing_labels_dropped(self, capsys, tmp_path):
        a = tmp_path / "a.txt"
        a.write_text("x\nx\nNA\ny\ny\n")
        b = tmp_path / "b.txt"
        b.write_text("1\n1\n2\n2\nnan\n")
        status, out, err = run(capsys, "compare", a, b, "--unassigned", "drop", "--measure", "ri",
                               "--format", "json")
        assert status == 0
        assert "2 unassigned element(s) dropped" in err
        assert values(out)[("ri", None, None)] == pytest.approx(
            float(rand_index_exact("xxy", "112")), abs=1e-15)


# --------------------------------------------------------------------------- other subcommands


def test_table(capsys, files):
    pytest.importorskip("chanceclust.comparison")
    t, p = files["labels"]
    status, out, _ = run(capsys, "table", t, p, "--format", "json")
    assert status == 0
    results = json.loads(out)["results"]
    assert len(results) > 10
    status, out, _ = run(capsys, "table", t, p)
    assert status == 0
    assert out.startswith("# ")


class TestRank:
    def test_all_pairs_sorted_by_ari(self, capsys, tmp_path):
        labels = {"r1": "aabbcc", "r2": "aabbcd", "r3": "abcabc", "r4": "aabbcc"}
        paths = []
        for name, lab in labels.items():
            path = tmp_path / f"{name}.txt"
            path.write_text("\n".join(lab) + "\n")
            paths.append(path)
        status, out, _ = run(capsys, "rank", *paths, "--format", "json")
        assert status == 0
        rows = json.loads(out)["results"]
        assert len(rows) == 6
        got = [r["ari"] for r in rows]
        assert got == sorted(got, reverse=True)
        for r in rows:
            x = labels[Path(r["a"]).stem]
            y = labels[Path(r["b"]).stem]
            assert r["ari"] == pytest.approx(adjusted_rand_score(list(x), list(y)), abs=1e-12)
        assert {Path(rows[0]["a"]).stem, Path(rows[0]["b"]).stem} == {"r1", "r4"}

    def test_reference_and_distance_order(self, capsys, tmp_path):
        ref = tmp_path / "ref.txt"
        ref.write_text("a\na\nb\nb\nc\nc\n")
        good = tmp_path / "good.txt"
        good.write_text("1\n1\n2\n2\n3\n3\n")
        bad = tmp_path / "bad.txt"
        bad.write_text("1\n2\n3\n1\n2\n3\n")
        status, out, _ = run(capsys, "rank", bad, good, "--reference", ref, "--measure", "vi",
                             "--format", "tsv")
        assert status == 0
        lines = out.splitlines()
        assert lines[0] == "rank\tclustering\tvi"
        assert lines[1].split("\t")[:2] == ["1", str(good)]
        assert float(lines[1].split("\t")[2]) == pytest.approx(0.0, abs=1e-12)
        status, out, _ = run(capsys, "rank", bad, good, "--reference", ref, "--one-sided",
                             "--model", "num", "--measure", "ami")
        assert status == 0
        assert "one-sided" in out.splitlines()[0]

    def test_one_sided_needs_reference(self, capsys, files):
        status, _, err = run(capsys, "rank", *files["labels"], "--one-sided")
        assert status == 2
        assert "--one-sided needs --reference" in err


def stirling2(n, k):
    """Exact S(n, k) by the triangle recurrence (test oracle)."""
    row = [1] + [0] * k
    for i in range(1, n + 1):
        row = [0] + [j * row[j] + row[j - 1] for j in range(1, k + 1)] if k else [0]
        if i < n:
            row += [0] * (k + 1 - len(row))
    return row[k]


class TestExpect:
    def test_expected_rand_index_oracles(self, capsys):
        """E[RI] = pA pB + (1-pA)(1-pB) with exact pair probabilities (MATH.md)."""
        n, sizes_t, sizes_p = 10, [5, 3, 2], [4, 3, 3]
        status, out, _ = run(capsys, "expect", "--n", n, "--sizes-true", "5,3,2",
                             "--sizes-pred", "4,3,3", "--all-models", "--measure", "ri",
                             "--format", "json")
        assert status == 0
        got = {r["model"]: r["value"] for r in json.loads(out)["results"]}

        def e(pa, pb):
            return float(pa * pb + (1 - pa) * (1 - pb))

        pairs = comb(n, 2)
        q = [Fraction(sum(comb(s, 2) for s in sizes), pairs) for sizes in (sizes_t, sizes_p)]
        num = [Fraction(stirling2(n - 1, k), stirling2(n, k)) for k in (3, 3)]
        bell = [sum(stirling2(m, k) for k in range(m + 1)) for m in (n - 1, n)]
        p_all = Fraction(bell[0], bell[1])
        assert got["perm"] == pytest.approx(e(*q), rel=1e-12)
        assert got["num"] == pytest.approx(e(*num), rel=1e-12)
        assert got["all"] == pytest.approx(e(p_all, p_all), rel=1e-12)

    def test_mi_is_wired(self, capsys):
        from chanceclust.expectations import expected_mutual_information_baseline

        status, out, _ = run(capsys, "expect", "--n", 50, "--k-true", 3, "--k-pred", 4,
                             "--model", "num", "--measure", "mi", "--format", "tsv")
        assert status == 0
        value = float(out.splitlines()[1].split("\t")[3])
        assert value == expected_mutual_information_baseline(
            50, model="num", n_clusters_true=3, n_clusters_pred=4)

    def test_missing_requirement_names_options(self, capsys):
        status, _, err = run(capsys, "expect", "--n", 10, "--k-true", 2, "--k-pred", 3,
                             "--model", "perm")
        assert status == 2
        assert "--sizes-true" in err
        assert len(err.strip().splitlines()) == 1

    def test_sizes_must_sum_to_n(self, capsys):
        status, _, err = run(capsys, "expect", "--n", 10, "--sizes-true", "5,3")
        assert status == 2
        assert "--sizes-true must sum to --n 10; got 8" in err  # the library's rule, option names


class TestSample:
    @pytest.fixture(autouse=True)
    def _needs_samplers(self):
        pytest.importorskip("chanceclust.samplers")

    def test_num_and_seed(self, capsys):
        status, out, _ = run(capsys, "sample", "--n", 12, "--model", "num", "--k", 3,
                             "--count", 4, "--seed", 5, "--format", "json")
        assert status == 0
        samples = json.loads(out)
        assert len(samples) == 4
        assert all(len(s) == 12 and len(set(s)) == 3 for s in samples)
        assert run(capsys, "sample", "--n", 12, "--model", "num", "--k", 3, "--count", 4,
                   "--seed", 5, "--format", "json")[1] == out
        from chanceclust.samplers import random_clusterings

        want = random_clusterings(4, 12, model="num", n_clusters=3, rng=np.random.default_rng(5))
        assert samples == np.asarray(want).tolist()

    def test_perm_keeps_sizes(self, capsys):
        status, out, _ = run(capsys, "sample", "--n", 10, "--model", "perm", "--sizes", "5,3,2",
                             "--seed", 1)
        assert status == 0
        labels = out.split()
        assert sorted(np.unique(labels, return_counts=True)[1].tolist()) == [2, 3, 5]

    def test_requirements(self, capsys):
        assert run(capsys, "sample", "--n", 10, "--model", "num")[0] == 2
        assert run(capsys, "sample", "--n", 10, "--model", "perm", "--sizes", "5,3")[0] == 2


def test_significance(capsys, files):
    significance_test = pytest.importorskip("chanceclust.significance").significance_test
    t, p = files["labels"]
    status, out, err = run(capsys, "test", t, p, "--model", "num", "--samples", 99, "--seed", 1,
                           "--format", "json")
    assert status == 0, err
    got = {r["quantity"]: r["value"] for r in json.loads(out)["results"]}
    want = significance_test("ari", TRUE, PRED, model="num", n_resamples=99, rng=1)
    assert got["statistic"] == pytest.approx(want.statistic, abs=1e-12)
    assert got["pvalue"] == want.pvalue
    assert got["zscore"] == want.zscore
    assert 1 / 100 <= got["pvalue"] <= 1
    status, out, _ = run(capsys, "test", t, p, "--measure", "vi", "--model", "all",
                         "--one-sided", "--samples", 20, "--seed", 2, "--format", "json")
    assert status == 0
    assert json.loads(out)["alternative"] == "less"


# --------------------------------------------------------------------------- help and version


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.startswith(f"chanceclust {__version__}")


@pytest.mark.parametrize(
    "command", ["compare", "table", "rank", "expect", "sample", "test", "pairwise"]
)
def test_help_has_an_example(capsys, command):
    status, out, _ = run(capsys, command, "--help")
    assert status == 0
    assert f"example:\n  chanceclust {command} " in out


def test_parser_is_separate_from_main():
    args = get_parser().parse_args(["compare", "a", "b", "--model", "num,all"])
    assert args.model == [["num", "all"]]


def test_no_command_lists_every_command(capsys):
    status, _, err = run(capsys)
    assert status == 2
    assert "choose a command" in err
    commands = ["compare", "table", "rank", "expect", "sample", "test", "pairwise", "reproduce"]
    for command in commands:
        assert f" {command}" in err
    status, out, _ = run(capsys, "--help")
    assert status == 0
    listed = out.split("commands:")[1].split("examples:")[0]
    entries = [line.split()[0] for line in listed.splitlines() if line.startswith("    ") and line[4:5].isalpha()]
    assert entries == commands
    for command in commands:
        assert f"  chanceclust {command} " in out.split("examples:")[1]


def _option_help(capsys, command, option):
    status, out, _ = run(capsys, command, "--help")
    assert status == 0
    found = re.search(rf"\n  {option} +(.*?)(?=\n  \S|\n\n)", out, flags=re.DOTALL)
    return " ".join(found.group(1).split())


def test_one_sided_help_names_what_each_command_has(capsys):
    """Only rank has --reference; the others say which clustering is the fixed one."""
    for command in ("compare", "expect", "test", "pairwise"):
        assert "--reference" not in _option_help(capsys, command, "--one-sided"), command
        assert "fixed reference" in _option_help(capsys, command, "--one-sided"), command
    assert "--reference" in _option_help(capsys, "rank", "--one-sided")


# --------------------------------------------------------------------------- bad input matrix


def _bad_cases(tmp):
    def put(name, data):
        path = tmp / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        return str(path)

    good = put("good.txt", "x\nx\ny\ny\n")
    return {
        # name: (argv, file named in the message, line named in it or None)
        "missing file": (["compare", str(tmp / "nope.txt"), good], "nope.txt", None),
        "empty file": (["compare", put("empty.txt", ""), good], "empty.txt", 1),
        "mismatched lengths": (["compare", good, put("five.txt", "1\n1\n2\n2\n3\n")],
                               "five.txt", 5),
        "mismatched ids": (["compare", put("ida.txt", "e1\tx\ne2\tx\ne3\ty\n"),
                            put("idb.txt", "e1\t1\ne2\t1\ne4\t2\n")], "ida.txt", 3),
        "duplicate ids": (["compare", put("dup.txt", "e1\tx\ne2\tx\ne1\ty\n"), good],
                          "dup.txt", 3),
        "non-utf8": (["compare", put("latin.txt", b"x\nx\n\xe9t\xe9\ny\n"), good],
                     "latin.txt", 3),
        "NaN label": (["compare", put("nan.txt", "x\nNaN\ny\ny\n"), good], "nan.txt", 2),
        "empty label": (["compare", put("blank.txt", "x\nx\n\ny\n"), good], "blank.txt", 3),
        "json null": (["compare", put("null.json", '["x", "x", null, "y"]'), good],
                      "null.json", None),
        "bad csv column": (["compare", put("t.csv", "id,a,b\n1,x,y\n"), good, "--column", "c"],
                           "t.csv", 1),
        "ragged csv": (["compare", put("r.csv", "id,a\n1,x\n2\n3,y\n4,y\n"), good], "r.csv", 3),
        "positional vs ids": (["compare", good, put("ids.txt", "e1\t1\ne2\t1\n")],
                              "good.txt", 1),
    }


@pytest.mark.parametrize(
    "case",
    ["missing file", "empty file", "mismatched lengths", "mismatched ids",
     "duplicate ids", "non-utf8", "NaN label", "empty label", "json null", "bad csv column",
     "ragged csv", "positional vs ids"],
)
def test_bad_input(capsys, tmp_path, case):
    """Exit 2 and ONE stderr line naming the file (and the line, when there is one)."""
    argv, fname, line = _bad_cases(tmp_path)[case]
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("chanceclust: error: ")
    assert fname in lines[0]
    if line is not None:
        assert f"{fname}:{line}: " in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compare", "a", "b", "--model", "nums"], "invalid model 'nums'"),
        (["compare", "a", "b", "--model", ","], "empty model list"),
        (["compare", "a", "b", "--measure", "ari,rand"], "invalid measure 'rand'"),
        (["compare", "a", "b", "--input-format", "xml"], "invalid choice: 'xml'"),
        (["compare", "a", "b", "--format", "yaml"], "invalid choice: 'yaml'"),
        (["compare", "a", "b", "--unassigned", "ignore"], "invalid choice: 'ignore'"),
        (["compare", "a", "b", "--na", "drop"], "invalid choice: 'drop'"),
        (["compare", "a", "b", "--average-method", "median"], "invalid choice: 'median'"),
        (["compare", "a", "b", "--model", "all", "--all-models"], "not allowed with"),
        (["rank", "a", "--model", "perm,num"], "invalid choice"),
        (["expect", "--n", "0"], "positive integer"),
        (["expect", "--n", "10", "--sizes-true", "5,x"], "comma-separated"),
        (["sample", "--n", "10"], "--model"),
        (["compare", "a"], "required"),
    ],
)
def test_unknown_option_values(capsys, argv, needle):
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert "--help" in err
    if needle:
        assert needle in err


def test_column_count_must_match_inputs(capsys, files):
    t, _ = files["csv"]
    status, _, err = run(capsys, "rank", t, t, t, "--column", "truth", "--column", "pred")
    assert status == 2
    assert "--column given 2 times for 3 inputs" in err


def test_internal_error_exit_1_and_debug_traceback(capsys, files, monkeypatch):
    from chanceclust._cli import inputs

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(inputs, "union", boom)
    status, _, err = run(capsys, "compare", *files["labels"])
    assert status == 1
    assert "internal error: RuntimeError: kaboom" in err
    assert "Traceback" not in err
    status, _, err = run(capsys, "compare", *files["labels"], "--debug")
    assert status == 1
    assert "Traceback" in err


def test_progress_only_on_a_terminal(capsys, monkeypatch, tmp_path):
    paths = []
    for i in range(3):
        path = tmp_path / f"r{i}.txt"
        path.write_text("a\na\nb\nb\n" if i else "a\nb\na\nb\n")
        paths.append(path)
    _, _, err = run(capsys, "rank", *paths)
    assert err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    _, _, err = run(capsys, "rank", *paths)
    assert "rank [" in err  # the package's one progress bar (_progress.py)
    assert "3/3" in err
    _, _, err = run(capsys, "rank", *paths, "--quiet")
    assert err == ""


# --------------------------------------------------------------------------- real processes


def python_m(*argv, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "chanceclust", *map(str, argv)],
        input=stdin,
        check=False,
        capture_output=True,
        timeout=120,
    )


def test_subprocess_examples_agree_across_formats():
    """The README quick start: positional files and id-matched files give the same table."""
    a = python_m("compare", EXAMPLES / "reference.txt", EXAMPLES / "kmeans.txt", "--all-models",
                 "--format", "tsv")
    b = python_m("compare", EXAMPLES / "reference.csv", EXAMPLES / "communities.txt",
                 "--all-models", "--format", "tsv")
    assert a.returncode == 0, a.stderr
    assert b.returncode == 0, b.stderr
    assert a.stdout == b.stdout
    ref = (EXAMPLES / "reference.txt").read_text().split("\n")[:-1]
    km = (EXAMPLES / "kmeans.txt").read_text().split("\n")[:-1]
    ari_perm = float(a.stdout.decode().splitlines()[1].split("\t")[3])
    assert ari_perm == pytest.approx(adjusted_rand_score(ref, km), abs=1e-12)


def test_subprocess_stdin_and_exit_codes(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("x\nx\ny\ny\n")
    r = python_m("compare", "-", good, "--measure", "ri", "--format", "tsv", stdin=b"1\n1\n1\n2\n")
    assert r.returncode == 0, r.stderr
    assert float(r.stdout.decode().splitlines()[1].split("\t")[3]) == pytest.approx(
        float(rand_index_exact("xxyy", "1112")), abs=1e-15)
    r = python_m("compare", "-", good, stdin=b"1\n\xff\n1\n2\n")
    assert r.returncode == 2
    assert r.stderr.decode().strip() == (
        "chanceclust: error: <stdin>:2: not valid utf-8 (byte 0xff at column 1); "
        "convert the file or pass --encoding")
    assert r.stdout == b""


def test_subprocess_usage_error_and_version():
    r = python_m("compare", "a", "b", "--model", "nums")
    assert r.returncode == 2
    assert b"invalid model 'nums'" in r.stderr
    r = python_m("--version")
    assert r.returncode == 0
    assert r.stdout.decode().startswith("chanceclust ")


def test_subprocess_expect_and_console_script():
    exe = shutil.which("chanceclust")
    cmd = [exe] if exe else [sys.executable, "-m", "chanceclust"]
    r = subprocess.run([*cmd, "expect", "--n", "20", "--k-true", "2", "--k-pred", "5",
                        "--model", "num", "--measure", "ri", "--format", "tsv"],
                       capture_output=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    value = float(r.stdout.decode().splitlines()[1].split("\t")[3])
    pa = Fraction(stirling2(19, 2), stirling2(20, 2))
    pb = Fraction(stirling2(19, 5), stirling2(20, 5))
    assert value == pytest.approx(float(pa * pb + (1 - pa) * (1 - pb)), rel=1e-12)


def test_help_examples_without_files_run(capsys):
    """Every example in the help texts that needs no input file exits 0 (examples must not rot)."""
    import shlex

    texts = []
    for argv in (["--help"], ["expect", "--help"], ["sample", "--help"]):
        status, out, _ = run(capsys, *argv)
        assert status == 0
        texts.append(out)
    lines = {
        line.strip()
        for text in texts
        for line in text.splitlines()
        if line.strip().startswith(("chanceclust expect", "chanceclust sample"))
    }
    assert len(lines) >= 4
    for line in sorted(lines):
        command = line.split(" >")[0].split(" |")[0]  # drop shell redirections
        assert main(shlex.split(command)[1:]) == 0, line
    capsys.readouterr()


def test_sample_has_no_digits_option(capsys):
    """sample writes integer labels: --digits would change nothing, so it is not offered."""
    status, out, err = run(capsys, "sample", "--n", 4, "--model", "all", "--digits", 3)
    assert status == 2
    assert out == ""
    assert "--digits" in err
    status, out, _ = run(capsys, "sample", "--help")
    assert "--digits" not in out


def test_cli_modules_form_no_import_cycle_and_touch_no_argparse_internals():
    """Subcommand modules import the shared ones, never each other nor back (#19)."""
    import ast

    import chanceclust

    root = Path(chanceclust.__file__).parent
    files = {"chanceclust.cli": root / "cli.py"}
    files.update({f"chanceclust._cli.{p.stem}": p for p in (root / "_cli").glob("*.py")})
    graph = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text())
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
                imported.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                imported.update(a.name for a in node.names)
            elif isinstance(node, ast.Attribute):
                assert node.attr != "_actions", f"{name} edits argparse internals"
        graph[name] = {m for m in imported if m in files and m != name}

    def reaches(start, goal, seen=()):
        return any(m == goal or (m not in seen and reaches(m, goal, (*seen, m)))
                   for m in graph[start])

    for name in graph:
        assert not reaches(name, name), f"import cycle through {name}"
    assert all("chanceclust.cli" not in deps for deps in graph.values())


# --------------------------------------------------------------------------- tables (#21)


def test_one_table_named_once_with_two_columns(capsys, tmp_path):
    """compare/table T.csv --column X --column Y: both clusterings from one table (#21)."""
    path = tmp_path / "labels.csv"
    path.write_text("truth,kmeans\n" + "".join(f"{t},{p}\n" for t, p in zip(TRUE, PRED,
                                                                              strict=True)))
    status, out, err = run(capsys, "compare", path, "--column", "truth", "--column", "kmeans",
                           "--measure", "ri,ari", "--format", "json")
    assert status == 0, err
    v = values(out)
    assert v[("ri", None, None)] == pytest.approx(RI_EXACT, abs=1e-15)
    assert v[("ari", "perm", "two-sided")] == pytest.approx(ARI_SKLEARN, abs=1e-12)
    status, out, err = run(capsys, "table", path, "--column", "truth", "--column", "kmeans",
                           "--format", "json")
    assert status == 0, err
    assert json.loads(out)["n"] == len(TRUE)
    status, _, err = run(capsys, "compare", path, "--column", "truth")
    assert status == 2
    assert "required: B" in err


def test_two_label_columns_without_column_hint_at_it(capsys, tmp_path):
    """A two-column table is (element id, label) by default; its error says so (#21)."""
    path = tmp_path / "labels.csv"
    path.write_text("truth,kmeans\n0,1\n0,1\n1,0\n")
    status, out, err = run(capsys, "compare", path, path)
    assert status == 2
    assert out == ""
    assert "labels.csv:3: element '0' appears again" in err
    assert "element id ('truth') and label ('kmeans')" in err
    assert "--column" in err
    help_text = " ".join(_option_help(capsys, "compare", "--column COL").split())
    assert "two-column table is element id, label" in help_text


def test_a_header_line_is_never_read_as_a_label(capsys, tmp_path):
    """labels/pairs files: a first line unlike the others is refused; --header skips it (#21)."""
    truth = list("00011122223")
    pred = list("11222333113")
    with_header = tmp_path / "truth.txt"
    with_header.write_text("cluster\n" + "\n".join(truth) + "\n")
    plain = tmp_path / "pred.txt"
    plain.write_text("\n".join(pred) + "\n")
    status, out, err = run(capsys, "compare", with_header, plain)
    assert (status, out) == (2, "")
    assert f"{with_header}:1: 'cluster' looks like a header" in err
    assert "--header" in err
    assert "--no-header" in err
    both = tmp_path / "pred_header.txt"
    both.write_text("kmeans\n" + "\n".join(pred) + "\n")
    status, out, err = run(capsys, "compare", with_header, both, "--header", "--measure", "ari",
                           "--format", "json")
    assert status == 0, err
    assert json.loads(out)["n"] == len(truth)
    assert values(out)[("ari", "perm", "two-sided")] == pytest.approx(
        adjusted_rand_score(truth, pred), abs=1e-12)
    status, out, err = run(capsys, "compare", with_header, both, "--no-header", "--measure",
                           "ari", "--format", "json")
    assert status == 0, err
    assert json.loads(out)["n"] == len(truth) + 1  # asked for: the header is a label
    status, _, err = run(capsys, "compare", with_header, plain, "--header")
    assert status == 2
    assert "has 11 labels but" in err
    assert "header line counts as a label" in err
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("cell\tcluster\n" + "".join(f"c{i}\t{x}\n" for i, x in enumerate(pred)))
    status, _, err = run(capsys, "compare", pairs, pairs)
    assert status == 2
    assert "pairs.txt:1: 'cluster' looks like a header" in err
    assert run(capsys, "compare", pairs, pairs, "--header")[0] == 0
