"""Every error path of the readers and the command line, reached from user input.

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
    """Two labels files of five elements each."""
    paths = (tmp_path / "a.txt", tmp_path / "b.txt")
    for path, labels in zip(paths, ("xxyyz", "11122"), strict=True):
        path.write_text("\n".join(labels) + "\n")
    return paths


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
    """``sample``'s library call raises ``exc`` (as test_cli_errors does for each command)."""
    import chanceclust.samplers

    def raising(*args, **kwargs):
        raise exc

    monkeypatch.setattr(chanceclust.samplers, "random_clusterings", raising)


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
    assert "sample: chanceclust's module chanceclust.nothing is missing: reinstall" in err
    assert "please report it" in err


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


# --------------------------------------------------------------------------- Parquet


def write(path, row_group_size=None, **columns):
    pq.write_table(pa.table(columns), path, row_group_size=row_group_size)
    return path


def pq_args(source, *extra):
    return [source, "--column", "t", "--column", "p", *extra]


T = ["a", "a", "b", "b", "c", "c", "a"]
P = ["x", "y", "y", "y", "z", "z", "x"]


def test_parquet_with_a_second_dataset_is_refused(capsys, tmp_path):
    one = write(tmp_path / "one.parquet", t=T, p=P)
    assert_user_error(*run(capsys, "compare", one, one, "--column", "t", "--column", "p"),
                      "Parquet input", "one dataset A", "--column TRUE --column PRED")


def test_parquet_scheduler_needs_the_dask_engine(capsys, tmp_path):
    one = write(tmp_path / "one.parquet", t=T, p=P)
    assert_user_error(*run(capsys, "compare", *pq_args(one, "--scheduler", "tcp://x:1")),
                      "--scheduler needs --engine dask")


def test_parquet_missing_column_names_file_and_columns(capsys, tmp_path):
    one = write(tmp_path / "one.parquet", t=T, q=P)
    assert_user_error(*run(capsys, "compare", *pq_args(one)),
                      f"{one}:", "no column 'p'", "columns are ['t', 'q']")


def test_parquet_without_rows_is_refused(capsys, tmp_path):
    empty = write(tmp_path / "empty.parquet", t=pa.array([], pa.int64()),
                  p=pa.array([], pa.int64()))
    assert_user_error(*run(capsys, "compare", *pq_args(empty)),
                      f"{empty}:", "no rows in the Parquet data")


def test_parquet_many_row_groups_are_merged_as_read(capsys, tmp_path):
    """More than 16 row groups: the partial tables merge as they come, the same value."""
    t, p = T * 5, P * 5  # 35 rows in 35 row groups
    many = write(tmp_path / "many.parquet", row_group_size=1, t=t, p=p)
    assert pq.ParquetFile(many).metadata.num_row_groups == 35
    assert ari(capsys, *pq_args(many)) == pytest.approx(cc.adjusted_rand_index(t, p), abs=1e-12)


def test_parquet_dictionary_columns_read_as_their_values(capsys, tmp_path):
    t = pa.array(T).dictionary_encode()
    p = pa.array(P).dictionary_encode()
    coded = write(tmp_path / "dict.parquet", row_group_size=3, t=t, p=p)
    assert pa.types.is_dictionary(pq.read_table(coded).column("t").type)
    assert ari(capsys, *pq_args(coded)) == pytest.approx(cc.adjusted_rand_index(T, P), abs=1e-12)
    # the labels themselves, not the dictionary's indices: --unassigned-label finds them
    keep = [i for i, label in enumerate(T) if label != "b"]
    got = ari(capsys, *pq_args(coded, "--unassigned-label", "b", "--unassigned", "drop"))
    want = cc.adjusted_rand_index([T[i] for i in keep], [P[i] for i in keep])
    assert got == pytest.approx(want, abs=1e-12)
    assert want != pytest.approx(cc.adjusted_rand_index(T, P), abs=1e-3)


def test_parquet_unassigned_label_in_a_string_column_names_it(capsys, tmp_path):
    one = write(tmp_path / "one.parquet", t=T, p=["x", "y", "-", "y", "z", "z", "x"])
    assert_user_error(*run(capsys, "compare", *pq_args(one, "--unassigned-label", "-")),
                      f"{one}:", "column 'p'", "labelled '-'", "--unassigned-label",
                      "row group 0", "--unassigned drop")


def test_parquet_text_unassigned_label_marks_strings_not_numbers(capsys, tmp_path):
    """--unassigned-label NA: no number spells it, the string label is unassigned."""
    p = ["x", "y", "NA", "y", "z", "z", "x"]
    one = write(tmp_path / "one.parquet", t=T, p=p)
    got = ari(capsys, *pq_args(one, "--unassigned-label", "NA", "--unassigned", "drop"))
    keep = [i for i, label in enumerate(p) if label != "NA"]
    assert got == pytest.approx(cc.adjusted_rand_index([T[i] for i in keep], [p[i] for i in keep]), abs=1e-12)


def test_parquet_url_with_a_glob(capsys, tmp_path):
    """file:// URL with a glob: the folder listed, only matching files read."""
    write(tmp_path / "part-0.parquet", t=T[:4], p=P[:4])
    write(tmp_path / "part-1.parquet", t=T[4:], p=P[4:])
    write(tmp_path / "other.parquet", t=["q"] * 3, p=["r", "s", "r"])
    got = ari(capsys, *pq_args(f"file://{tmp_path}/part-*.parquet"))
    assert got == pytest.approx(cc.adjusted_rand_index(T, P), abs=1e-12)


def test_parquet_url_to_nothing_is_refused(capsys, tmp_path):
    source = f"file://{tmp_path}/absent.parquet"
    assert_user_error(*run(capsys, "compare", *pq_args(source)),
                      f"{source}:", "no Parquet file found")


def test_pairwise_dask_engine_without_scheduler_starts_a_local_client(capsys, monkeypatch, two):
    """--engine dask alone: a local distributed Client of processes runs the pairs.

    The Client is replaced by one that records its arguments and hands out a thread pool (a
    real cluster of processes takes seconds to start); the values are those of the default run.
    """
    distributed = pytest.importorskip("distributed")
    from concurrent.futures import ThreadPoolExecutor

    made = []

    class Client:
        def __init__(self, *args, **kwargs):
            made.append((args, kwargs))
            self.pool = ThreadPoolExecutor(2)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.pool.shutdown()

        def get_executor(self):
            return self.pool

    monkeypatch.setattr(distributed, "Client", Client)
    argv = ["pairwise", *two, two[0], "--format", "json"]
    status, out, err = run(capsys, *argv, "--engine", "dask")
    assert status == 0, err
    assert made == [((), {"processes": True})]
    status, plain, err = run(capsys, *argv)
    assert status == 0, err
    assert json.loads(out) == json.loads(plain)


# --------------------------------------------------------------------------- output writers


def test_text_output_writes_nan_as_nan():
    from chanceclust._output import format_text_table

    table = format_text_table([{"m": "ari", "v": float("nan")}, {"m": "ri", "v": 0.5}],
                              ["m", "v"], digits=2)
    assert table.splitlines()[1:] == ["ari   nan", "ri   0.50"]


def test_json_output_writes_non_finite_as_null_and_numpy_scalars_as_numbers():
    import io

    from chanceclust._output import write_rows

    stream = io.StringIO()
    rows = [{"v": float("nan")}, {"v": float("inf")}, {"v": np.int64(7)}, {"v": np.float32(0.5)}]
    write_rows(rows, ["v"], "json", stream)
    assert json.loads(stream.getvalue())["results"] == [
        {"v": None}, {"v": None}, {"v": 7}, {"v": 0.5}]


@pytest.mark.parametrize("writer", ["write_rows", "write_clusterings"])
def test_output_format_must_be_known(writer):
    import io

    from chanceclust import _output

    args = ([{"v": 1}], ["v"]) if writer == "write_rows" else ([[0, 1]],)
    with pytest.raises(InvalidInputError, match=r"`fmt` must be 'text', 'tsv' or 'json'; "
                       r"got 'xml'"):
        getattr(_output, writer)(*args, "xml", io.StringIO())


# --------------------------------------------------------------------------- datasets


def test_gene_expression_home_that_is_a_file_is_refused(tmp_path):
    from chanceclust.datasets import fetch_gene_expression

    (tmp_path / "gene-expression").write_text("not a folder")
    with pytest.raises(FileNotFoundError, match=r"gene-expression is a file, not a folder; "
                       r"download the 35 files"):
        fetch_gene_expression(tmp_path)


def test_gene_expression_download_without_pooch_says_how_to_install(tmp_path, monkeypatch):
    from chanceclust.datasets import fetch_gene_expression

    monkeypatch.setitem(sys.modules, "pooch", None)  # import pooch fails
    with pytest.raises(ImportError, match=r"needs pooch; install it with: pip install pooch"):
        fetch_gene_expression(tmp_path, progress=False)
    assert not (tmp_path / "gene-expression").exists()  # nothing made before the refusal


def test_gene_expression_downloader_sends_web_urls_to_pooch(tmp_path):
    """The downloader: http(s) URLs go to pooch's HTTP downloader, file:// URLs are copied."""
    from chanceclust.datasets import _downloader

    calls = []

    class Pooch:
        @staticmethod
        def HTTPDownloader(**kwargs):  # pooch's name
            return lambda *args, **kw: calls.append((args, kw)) or "fetched"

    download = _downloader(Pooch)
    assert download("https://example.org/x.txt", "out", None) == "fetched"
    assert calls == [(("https://example.org/x.txt", "out", None), {"check_only": False})]
    source = tmp_path / "x.txt"
    source.write_text("data")
    assert download(source.as_uri(), tmp_path / "copy", None, check_only=True) is True
    assert download((tmp_path / "no").as_uri(), tmp_path / "copy", None,
                    check_only=True) is False
    assert not (tmp_path / "copy").exists()


# --------------------------------------------------------------------------- io: readers


def test_where_names_the_line_of_an_element(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("# pairs\ne1\tx\ne2\ty\n")
    c = ccio.read_clustering(str(path))
    assert (c.format, c.where(0), c.where(1)) == ("pairs", "line 2", "line 3")


def test_unreadable_path_names_the_file(tmp_path):
    path = str(tmp_path / ("x" * 5000))  # longer than any file name: the OS refuses it
    with pytest.raises(InvalidFileError, match=r"xxx: cannot read: \S"):  # the OS's reason
        ccio.read_clustering(path)


def test_csv_without_a_header_row_is_refused(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text(",,\n , \n")
    with pytest.raises(InvalidFileError, match=r"empty\.csv:1: empty file: no header row"):
        ccio.read_clustering(str(path), column="x")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[["a", null]]', r" item 1: empty or null element id"),
        ('{"c": ["a", ""]}', r" cluster 'c': empty or null element id"),
        ('[["a", "b"], ["c", "a"]]', (r" item 2: element 'a' appears again \(first in cluster "
                                      r"'1'\); each element must be in one cluster")),
        ('{"": "x", "e2": "y"}', r' empty element id \(key ""\)'),
        ('"x"', r"1: expected a JSON list or object of labels"),
        ('5', r"1: expected a JSON list or object of labels"),
        ('["x", {"a": "b"}]', r" item 2: expected a label, found a JSON object"),
        ('["x", ["y"]]', r" item 2: expected a label, found a JSON list"),
        ('{"e1": "x", "e2": 1.5e3, "e3": {}}',
         r" key 'e3': expected a label, found a JSON object"),
    ],
)
def test_json_errors_name_the_item(tmp_path, text, problem):
    path = tmp_path / "c.json"
    path.write_text(text)
    with pytest.raises(InvalidFileError, match=r"c\.json:" + problem):
        ccio.read_clustering(str(path))


def test_json_booleans_are_labels(tmp_path):
    path = tmp_path / "b.json"
    path.write_text("[true, false, true, null]")
    c = ccio.read_clustering(str(path), na="keep")
    assert list(c.labels) == ["true", "false", "true", None]


def test_a_small_clusters_file_needs_no_header_check(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text("a b\n")
    c = ccio.read_clustering(str(path))
    assert (c.format, list(c.elements), list(c.labels)) == ("clusters", ["a", "b"], ["1", "1"])


def test_read_cells_na_must_be_keep_or_drop(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text("x\ty\t2\n")
    with pytest.raises(InvalidInputError, match=r"`na` must be 'keep' or 'drop'; got 'error'"):
        ccio.read_cells(str(path), na="error")


@pytest.mark.parametrize(("text", "header"), [("# only a comment\n\n", None),
                                              ("label_a\tlabel_b\tcount\n", True)])
def test_cells_file_without_cells_is_refused(tmp_path, text, header):
    path = tmp_path / "c.tsv"
    path.write_text(text)
    with pytest.raises(InvalidFileError, match=r"c\.tsv: no cells \(label_a, label_b, count"):
        ccio.read_cells(str(path), header=header)


# --------------------------------------------------------------------------- io: large files
# Files of at least io.VECTOR_MIN_CHARS characters are read by pyarrow's kernels where they read
# them as the Python parsers do, else by the Python parsers: the same clustering, or the same error.

BIG = ccio.VECTOR_MIN_CHARS // 9 + 1000  # lines "e123456\tk\n": above the threshold


def big_pairs(sep="\t"):
    elements = [f"e{i}" for i in range(BIG)]
    labels = [str(i % 7) for i in range(BIG)]
    return elements, labels, "".join(f"{e}{sep}{k}\n" for e, k in zip(elements, labels, strict=True))


def test_large_pairs_with_a_comment_are_read_by_the_kernels(tmp_path):
    """Not machine-plain (a comment line): pyarrow's split kernels, the lines numbered."""
    elements, labels, text = big_pairs()
    path = tmp_path / "p.txt"
    path.write_text("# element\tcluster\n" + text)
    assert len(text) >= ccio.VECTOR_MIN_CHARS
    c = ccio.read_clustering(str(path))
    assert isinstance(c.labels, ccio.Column)  # the kernels' path, whose Column is checked here
    assert c.format == "pairs"
    assert c.labels == labels
    assert c.elements == elements
    assert c.labels != labels[:-1]
    assert (c.labels == "0") is False  # a Column equals only sequences
    assert c.labels.count("3") == labels.count("3")
    assert c.where(0) == "line 2"


@pytest.mark.parametrize(
    ("line", "found"), [("x\ty\tz", 3), ("x\t", 1), ("x", 1)], ids=["three", "empty", "one"]
)
def test_large_plain_pairs_with_a_bad_line_name_it(tmp_path, line, found):
    """--input-format pairs on a machine-written file with one bad line: its number."""
    _, _, text = big_pairs()
    path = tmp_path / "p.txt"
    path.write_text(text + line + "\n" + text.replace("e", "f"))
    with pytest.raises(InvalidFileError, match=rf"p\.txt:{BIG + 1}: expected 2 fields "
                       rf"\(element<TAB>cluster\), found {found}"):
        ccio.read_clustering(str(path), input_format="pairs")


def test_large_space_separated_pairs(tmp_path):
    """Pairs separated by spaces: the kernels decline (no TAB), the Python parser reads them."""
    elements, labels, text = big_pairs(sep=" ")
    path = tmp_path / "p.txt"
    path.write_text(text)
    c = ccio.read_clustering(str(path), input_format="pairs")
    assert list(c.labels) == labels
    assert list(c.elements) == elements


def test_large_pairs_with_separator_controls_keep_them_in_labels(tmp_path):
    """\\x1c-\\x1f are whitespace to str.strip, not to pyarrow: the Python parser reads them."""
    elements, labels, _ = big_pairs()
    labels = [f"{k}\x1f{k}" if k == "1" else k for k in labels]
    path = tmp_path / "p.txt"  # the trailing \x1f is stripped, the inner one kept
    path.write_text("".join(f"{e}\t{k}\x1f\n" for e, k in zip(elements, labels, strict=True)))
    c = ccio.read_clustering(str(path))
    assert list(c.labels) == labels
    assert list(c.elements) == elements


def test_large_labels_with_a_lone_surrogate_are_read(tmp_path):
    """A codec that decodes to a lone surrogate (UTF-7): not UTF-8 for pyarrow, read in Python."""
    labels = [str(i % 7) for i in range(BIG * 5)] + ["\ud800"]
    path = tmp_path / "l.txt"
    path.write_bytes(("\n".join(labels[:-1]) + "\n").encode() + b"+2AA-\n")
    assert path.stat().st_size >= ccio.VECTOR_MIN_CHARS
    c = ccio.read_clustering(str(path), encoding="utf-7")
    assert list(c.labels) == labels


def test_large_csv_with_quoted_fields_is_read_by_the_csv_module(tmp_path):
    """A quote in a csv table: the csv module's quoting rules, not pyarrow's reader."""
    ids = [f"e{i}" for i in range(BIG)]
    labels = ["a,b" if i % 3 == 0 else f"k{i % 5}" for i in range(BIG)]
    path = tmp_path / "t.csv"
    path.write_text("id,c\n" + "".join(
        f'{e},"{k}"\n' if "," in k else f"{e},{k}\n" for e, k in zip(ids, labels, strict=True)))
    assert path.stat().st_size >= ccio.VECTOR_MIN_CHARS
    c = ccio.read_clustering(str(path), column="c", id_column="id")
    assert list(c.labels) == labels
    assert list(c.elements) == ids
    assert c.where(1) == "line 3"


def test_label_codes_of_a_dictionary_out_of_label_order():
    """label_codes of a dictionary Column whose values are not sorted: ranks by label."""
    from chanceclust._validation import validate_clusterings
    from chanceclust.io import label_codes

    dictionary = pa.array(["b", "10", "a", "2", "b"])  # unsorted, with a repeated value
    array = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 2, 3, 4, 1], pa.int32()),
                                           dictionary)
    labels = ["b", "10", None, "a", "2", "b", "10"]
    codes = label_codes(ccio.Column(array))
    assert codes.tolist() == [3, 0, -1, 2, 1, 3, 0]  # sorted: "10" < "2" < "a" < "b"
    assert codes.tolist() == [-1 if x is None else sorted({*labels} - {None}).index(x)
                              for x in labels]
    expected = validate_clusterings(labels, labels, unassigned="drop").codes_true
    assert codes[codes >= 0].tolist() == expected.tolist()
