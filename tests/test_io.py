"""Tests for chanceclust.io: readers of every input format, detection, matching elements."""

import gzip
import io
import json

import numpy as np
import pytest

from chanceclust.exceptions import InvalidFileError, InvalidInputError
from chanceclust.io import (
    NA_STRINGS,
    Clustering,
    check_assigned,
    detect_format,
    factorize,
    read_clustering,
    union,
)


def write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return str(path)


# --------------------------------------------------------------------------- detection


class TestDetectFormat:
    @pytest.mark.parametrize(
        ("name", "expected"),
        [
            ("x.json", "json"),
            ("x.JSON.gz", "json"),
            ("x.csv", "csv"),
            ("x.csv.gz", "csv"),
            ("x.tsv", "tsv"),
            ("x.tab", "tsv"),
        ],
    )
    def test_extension_wins_over_content(self, name, expected):
        """A known extension decides, whatever the content looks like."""
        assert detect_format(name, "a\nb\n") == expected

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("a\nb\na\n", "labels"),
            ("  a  \r\nb\r\n", "labels"),
            ("# comment line\na\nb\n", "labels"),
            ("e1\tx\ne2\ty\n", "pairs"),
            ("# header comment\ne1\tx\n\ne2\ty\n", "pairs"),
            ("e1 x\ne2 y\n", "clusters"),  # pairs need a TAB
            ("e1\te2\te3\ne4\n", "clusters"),
            ("e1\tx\ne2\ty\te3\n", "clusters"),
            ('["a", "b"]', "json"),
            ('  {"e1": "a"}', "json"),
            ("# c\n[1, 2]", "json"),
        ],
    )
    def test_content_rules(self, text, expected):
        """The documented content rules, first match wins."""
        assert detect_format("data.txt", text) == expected

    def test_stdin_name_uses_content(self):
        assert detect_format("-", "a\tb\n") == "pairs"


# --------------------------------------------------------------------------- readers


class TestReadFormats:
    def test_labels_kept_verbatim_as_strings(self, tmp_path):
        """'01' and '1' are different labels; surrounding spaces and CR are removed."""
        p = write(tmp_path, "a.txt", "01\r\n1\n 1 \nx y\n")
        c = read_clustering(p, input_format="labels")
        assert c.labels == ["01", "1", "1", "x y"]
        assert c.elements is None
        assert list(c.lines) == [1, 2, 3, 4]

    def test_labels_comment_lines_keep_line_numbers(self, tmp_path):
        p = write(tmp_path, "a.txt", "# made by R\na\nb\n")
        c = read_clustering(p)
        assert c.format == "labels"
        assert c.labels == ["a", "b"]
        assert list(c.lines) == [2, 3]

    def test_pairs(self, tmp_path):
        p = write(tmp_path, "a.txt", "n3\tc1\nn1\tc2\n\nn2\tc1\n")
        c = read_clustering(p)
        assert (c.format, c.elements, c.labels, list(c.lines)) == (
            "pairs", ["n3", "n1", "n2"], ["c1", "c2", "c1"], [1, 2, 4])

    def test_pairs_with_spaces_when_explicit(self, tmp_path):
        p = write(tmp_path, "a.txt", "n1 c1\nn2 c2\n")
        c = read_clustering(p, input_format="pairs")
        assert c.elements == ["n1", "n2"]
        assert c.labels == ["c1", "c2"]

    def test_clusters(self, tmp_path):
        p = write(tmp_path, "a.txt", "# communities\nx y z\n\nw\tv\nu\n")
        c = read_clustering(p)
        assert c.format == "clusters"
        assert c.elements == ["x", "y", "z", "w", "v", "u"]
        assert c.labels == ["1", "1", "1", "2", "2", "3"]
        assert list(c.lines) == [2, 2, 2, 4, 4, 5]

    def test_csv_two_columns_are_id_and_label(self, tmp_path):
        p = write(tmp_path, "a.csv", 'cell,type\nc2,"T, naive"\nc1,B\n')
        c = read_clustering(p)
        assert c.elements == ["c2", "c1"]
        assert c.labels == ["T, naive", "B"]
        assert list(c.lines) == [2, 3]

    def test_csv_one_column_is_labels(self, tmp_path):
        p = write(tmp_path, "a.csv", "cluster\n1\n2\n1\n")
        c = read_clustering(p)
        assert c.elements is None
        assert c.labels == ["1", "2", "1"]

    def test_tsv_column_by_name_and_by_index(self, tmp_path):
        p = write(tmp_path, "a.tsv", "id\ttruth\tpred\na\tx\t1\nb\ty\t2\n")
        assert read_clustering(p, column="pred").labels == ["1", "2"]
        assert read_clustering(p, column="2").labels == ["x", "y"]
        c = read_clustering(p, column="truth", id_column="id")
        assert c.elements == ["a", "b"]

    def test_csv_needs_column_when_ambiguous(self, tmp_path):
        p = write(tmp_path, "a.csv", "id,truth,pred\na,x,1\n")
        with pytest.raises(InvalidFileError, match=r"a\.csv:1: 3 columns .*--column"):
            read_clustering(p)

    def test_csv_unknown_column_lists_header(self, tmp_path):
        p = write(tmp_path, "a.csv", "id,truth\na,x\n")
        with pytest.raises(InvalidFileError, match=r"a\.csv:1: no column 'nope'.*'id', 'truth'"):
            read_clustering(p, column="nope")

    def test_csv_ragged_row(self, tmp_path):
        p = write(tmp_path, "a.csv", "id,truth\na,x\nb\n")
        with pytest.raises(InvalidFileError, match=r"a\.csv:3: expected 2 fields"):
            read_clustering(p)

    @pytest.mark.parametrize(
        ("doc", "elements", "labels"),
        [
            (["a", 1, 1.50, "1"], None, ["a", "1", "1.50", "1"]),
            ({"e1": "x", "e2": 2}, ["e1", "e2"], ["x", "2"]),
            ([["e1", "e2"], ["e3"]], ["e1", "e2", "e3"], ["1", "1", "2"]),
            ({"A": ["e1"], "B": ["e2", "e3"]}, ["e1", "e2", "e3"], ["A", "B", "B"]),
        ],
    )
    def test_json_shapes(self, tmp_path, doc, elements, labels):
        """Numbers keep their source text (1.50 stays '1.50')."""
        text = json.dumps(doc).replace("1.5", "1.50")
        c = read_clustering(write(tmp_path, "a.json", text))
        assert c.elements == elements
        assert c.labels == labels

    def test_gzip_detected_by_content(self, tmp_path):
        p = write(tmp_path, "a.dat", gzip.compress(b"e1\tx\ne2\ty\n"))
        c = read_clustering(p)
        assert c.format == "pairs"
        assert c.elements == ["e1", "e2"]

    def test_gzip_json_by_name(self, tmp_path):
        p = write(tmp_path, "a.json.gz", gzip.compress(b'["x","y"]'))
        assert read_clustering(p).labels == ["x", "y"]

    def test_stdin(self):
        c = read_clustering("-", stdin=io.BytesIO(b"x\ny\n"))
        assert c.source == "<stdin>"
        assert c.labels == ["x", "y"]

    def test_bom_and_other_encoding(self, tmp_path):
        p = write(tmp_path, "a.txt", "\ufeffé\nb\n".encode())
        assert read_clustering(p).labels == ["é", "b"]
        p = write(tmp_path, "b.txt", "é\nb\n".encode("latin-1"))
        assert read_clustering(p, encoding="latin-1").labels == ["é", "b"]


# --------------------------------------------------------------------------- bad input


class TestBadInput:
    def test_missing_file(self, tmp_path):
        with pytest.raises(InvalidFileError, match=r"nope\.txt: no such file"):
            read_clustering(str(tmp_path / "nope.txt"))

    def test_directory(self, tmp_path):
        with pytest.raises(InvalidFileError, match="is a directory"):
            read_clustering(str(tmp_path))

    @pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n"])
    def test_empty(self, tmp_path, content):
        p = write(tmp_path, "e.txt", content)
        fmt = "clusters" if content.strip() == "" and content else "auto"
        with pytest.raises(InvalidFileError, match=r"e\.txt:1: empty"):
            read_clustering(p, input_format=fmt if content == "\n\n" else "auto")

    def test_non_utf8_names_line_and_column(self, tmp_path):
        p = write(tmp_path, "bad.txt", b"a\nb\nc\xffd\n")
        msg = r"bad\.txt:3: not valid utf-8 \(byte 0xff at column 2\)"
        with pytest.raises(InvalidFileError, match=msg):
            read_clustering(p)

    def test_corrupt_gzip(self, tmp_path):
        p = write(tmp_path, "a.gz", gzip.compress(b"a\nb\n")[:-6])
        with pytest.raises(InvalidFileError, match="corrupt gzip"):
            read_clustering(p)

    @pytest.mark.parametrize("na", ["NaN", "nan", "NA", "", "null", "None", "N/A"])
    def test_na_labels(self, tmp_path, na):
        p = write(tmp_path, "a.txt", f"x\ny\n{na}\nx\n")
        with pytest.raises(InvalidFileError, match=r"a\.txt:3: (line 3 is empty|missing label)"):
            read_clustering(p, input_format="labels")
        assert read_clustering(p, input_format="labels", na="keep").labels[2] == na
        assert read_clustering(p, input_format="labels", na="drop").labels[2] is None

    def test_na_set_is_case_insensitive_and_documented(self):
        assert {"nan", "na", ""} <= NA_STRINGS

    def test_json_null_label(self, tmp_path):
        p = write(tmp_path, "a.json", '["x", null, "y"]')
        with pytest.raises(InvalidFileError, match=r"a\.json: item 2: empty label"):
            read_clustering(p)

    def test_json_nan_constant(self, tmp_path):
        p = write(tmp_path, "a.json", '{"e1": "x", "e2": NaN}')
        with pytest.raises(InvalidFileError, match=r"a\.json: element 'e2': missing label 'NaN'"):
            read_clustering(p)

    def test_invalid_json(self, tmp_path):
        p = write(tmp_path, "a.json", '[\n"x",\n"y"\n')
        with pytest.raises(InvalidFileError, match=r"a\.json:4: invalid JSON"):
            read_clustering(p)

    def test_json_duplicate_key(self, tmp_path):
        p = write(tmp_path, "a.json", '{"e1": "x", "e1": "y"}')
        with pytest.raises(InvalidFileError, match="key 'e1' appears twice"):
            read_clustering(p)

    def test_duplicate_element_in_pairs(self, tmp_path):
        p = write(tmp_path, "a.txt", "e1\tx\ne2\ty\ne1\tz\n")
        msg = r"a\.txt:3: element 'e1' appears again \(first at line 1\)"
        with pytest.raises(InvalidFileError, match=msg):
            read_clustering(p)

    def test_duplicate_element_in_clusters(self, tmp_path):
        p = write(tmp_path, "a.txt", "e1 e2\ne3 e1 e4\n")
        with pytest.raises(InvalidFileError, match=r"a\.txt:2: element 'e1' appears again"):
            read_clustering(p)

    def test_duplicate_element_in_csv(self, tmp_path):
        p = write(tmp_path, "a.csv", "id,c\ne1,x\ne1,y\n")
        with pytest.raises(InvalidFileError, match=r"a\.csv:3: element 'e1' appears again"):
            read_clustering(p)

    def test_pairs_with_three_fields(self, tmp_path):
        p = write(tmp_path, "a.txt", "e1\tx\ne2\ty\tz\n")
        with pytest.raises(InvalidFileError, match=r"a\.txt:2: expected 2 fields"):
            read_clustering(p, input_format="pairs")

    def test_column_for_non_table(self, tmp_path):
        p = write(tmp_path, "a.txt", "x\ny\n")
        with pytest.raises(InvalidFileError, match="--column"):
            read_clustering(p, column="x")
        assert read_clustering(p, column="x", strict_columns=False).labels == ["x", "y"]

    def test_bad_arguments_are_invalid_input(self, tmp_path):
        p = write(tmp_path, "a.txt", "x\ny\n")
        with pytest.raises(InvalidInputError, match="`input_format` must be"):
            read_clustering(p, input_format="xml")
        with pytest.raises(InvalidInputError, match="`na` must be"):
            read_clustering(p, na="skip")

    def test_file_errors_are_invalid_input(self, tmp_path):
        """Callers' ``except ValueError`` keeps working; the CLI exits 2 for them."""
        with pytest.raises(InvalidFileError) as info:
            read_clustering(str(tmp_path / "nope.txt"))
        assert isinstance(info.value, InvalidInputError)
        assert isinstance(info.value, ValueError)
        assert (info.value.line, info.value.problem) == (None, "no such file")


# --------------------------------------------------------------------------- union


def positional(name, labels):
    return Clustering(name, "labels", list(labels), None, range(1, len(labels) + 1))


def keyed(name, elements, labels, lines=None):
    lines = lines if lines is not None else list(range(1, len(labels) + 1))
    return Clustering(name, "pairs", list(labels), list(elements), lines)


class TestUnion:
    def test_positional(self):
        pair = union(positional("a", "xxy"), positional("b", "112"))
        assert (list(pair.labels_a), list(pair.labels_b), pair.elements) == (
            list("xxy"), list("112"), None)

    def test_positional_length_mismatch_names_longer_file_and_line(self):
        with pytest.raises(InvalidFileError, match=r"^b:3: b has 3 labels but a has 2"):
            union(positional("a", "xy"), positional("b", "112"))

    def test_by_id_reorders_and_marks_absent_elements(self):
        a = keyed("a", ["e1", "e2", "e3"], "xyx")
        b = keyed("b", ["e3", "e9", "e1"], "123")
        pair = union(a, b)
        assert pair.elements == ["e1", "e2", "e3", "e9"]
        assert pair.labels_a == ["x", "y", "x", None]
        assert pair.labels_b == ["3", None, "1", "2"]

    def test_mixed_needs_line_ids(self):
        a = positional("a", "xyx")
        b = keyed("b", ["1", "0", "2"], "pqr")
        with pytest.raises(InvalidFileError, match="--line-ids"):
            union(a, b)
        assert union(a, b, line_ids=0).labels_b == ["q", "p", "r"]

    def test_check_assigned_names_file_and_line(self):
        a = keyed("a", ["e1", "e2"], "xy")
        b = keyed("b", ["e2", "e1", "e3"], "123", lines=[4, 5, 7])
        with pytest.raises(InvalidFileError, match=r"^b:7: element 'e3' has no cluster "
                           r"\(absent from a\)"):
            check_assigned(union(a, b), a, b)


# --------------------------------------------------------------------------- small helpers


def test_factorize_first_appearance():
    labels = ["b", "a", "b", "c", "a"]
    codes = factorize(labels)
    assert codes.dtype == np.int64
    assert codes.tolist() == [0, 1, 0, 2, 1]




class TestHeader:
    def test_first_line_unlike_the_others_is_refused(self, tmp_path):
        p = write(tmp_path, "a.txt", "# made by R\ncluster\n1\n2\n1\n")
        with pytest.raises(InvalidFileError, match=r"a\.txt:2: 'cluster' looks like a header"):
            read_clustering(p)
        c = read_clustering(p, header=True)
        assert (c.labels, list(c.lines)) == (["1", "2", "1"], [3, 4, 5])
        assert read_clustering(p, header=False).labels == ["cluster", "1", "2", "1"]

    @pytest.mark.parametrize(
        "text",
        ["x\ny\nx\n", "1\n2\n1\n", "NA\n1\n2\n", "a\n1\n", "-1\n0\n1\n", "x\n1\ny\n"],
        ids=["strings", "integers", "missing-first", "too-short", "negative", "mixed"],
    )
    def test_no_header_suspected(self, tmp_path, text):
        p = write(tmp_path, "a.txt", text)
        assert read_clustering(p, na="keep").n == text.count("\n")

    def test_header_of_pairs_and_clusters(self, tmp_path):
        p = write(tmp_path, "p.txt", "element cluster\ne1\t1\ne2\t2\n")
        c = read_clustering(p, header=True)
        assert (c.format, c.elements, c.labels) == ("pairs", ["e1", "e2"], ["1", "2"])
        p = write(tmp_path, "c.txt", "members\na b\nc\n")
        c = read_clustering(p, header=True, input_format="clusters")
        assert c.elements == ["a", "b", "c"]
