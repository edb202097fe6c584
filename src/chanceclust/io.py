"""Read clusterings from files and align them by element (CLI output is written by ``_output``).

Formats (labels, pairs, clusters, csv/tsv, json), their detection (``input_format="auto"``,
:func:`detect_format`), comments, blank lines, gzip, the header rule of tables (:class:`Header`)
and the refusal of binary files and of a header read as data: docs/guide/inputs.md, "Files".
Labels and element ids are kept as strings, never converted: ``01`` and ``1`` differ.

Readers: with pyarrow installed (an optional extra), a file of at least
:data:`VECTOR_MIN_CHARS` characters is read by pyarrow wherever that reading is line for line the
Python parsers' (no quote, bare CR, ragged row, ...; else the Python parser reads it, and reads
everything without pyarrow). Labels files and the label columns of tables go through pyarrow's
CSV reader into dictionary-encoded columns (each distinct field once); pairs and clusters files
through its string kernels, their columns staying pyarrow arrays (no Python string per element;
:func:`union` matches the ids with hash indexers). One rule set, each rule defined once and
applied by both readers (a test reads every tricky input both ways):

====================  ==========================  ==========================================
rule                  defined by                  the pyarrow reader applies it
====================  ==========================  ==========================================
space (strip, split)  :func:`_has_space`          on distinct fields; its ASCII kernels only
                      (``str.isspace``)           where they agree (:func:`_vectorized`)
data line             ``_DATA_LINE``,             :func:`_arrow_data_lines` (same predicate)
                      :func:`_data_lines`
label of a line       :func:`_strip_label`        on the distinct lines
missing label         :func:`_is_na`              on the distinct labels
integer (header)      :func:`_is_integer`         on the distinct labels, or in order
table header          :func:`_header_rule`        on the distinct values of each column
pairs line            :func:`_is_pair`            by the lengths of the TAB split
element once          :func:`_check_new_element`  raised through it at the first repeat
====================  ==========================  ==========================================
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io as _io
import itertools
import json
import os
import re
import sys
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

import numpy as np

from chanceclust._validation import choose_policy
from chanceclust.exceptions import InvalidFileError, InvalidInputError

__all__ = [
    "FORMATS",
    "NA_STRINGS",
    "Cells",
    "Clustering",
    "Header",
    "UnionPair",
    "check_assigned",
    "detect_format",
    "factorize",
    "read_cells",
    "read_clustering",
    "read_clusterings",
    "union",
]

FORMATS = ("labels", "pairs", "clusters", "csv", "tsv", "json")

#: Labels treated as missing values (compared case-insensitively, after stripping).
NA_STRINGS = frozenset({"", "nan", "na", "n/a", "<na>", "null", "none"})

_GZIP_MAGIC = b"\x1f\x8b"
#: The first bytes of binary files people pass for labels, and what they are.
_BINARY = {
    b"\x93NUMPY": "a NumPy .npy array (numpy.savetxt writes one label per line)",
    b"PK\x03\x04": "a ZIP archive (an .xlsx workbook, .npz or .zip; save the sheet as CSV)",
    b"\xd0\xcf\x11\xe0": "an old Excel (.xls) workbook (save the sheet as CSV)",
    b"PAR1": "a Parquet file",  # also its last 4 bytes: a text file may start with PAR1
    b"\x89HDF": "an HDF5 file (.h5, .h5ad)",
    b"\xfd7zXZ\x00": "xz-compressed data (decompress it, or recompress with gzip)",
    b"\x28\xb5\x2f\xfd": "zstd-compressed data (decompress it, or recompress with gzip)",
}


@dataclass(frozen=True)
class Header:
    """How the first row of a csv/tsv table was read when no option said (the header rule).

    A first row is a header only when it cannot be data: it is data when one of its chosen
    fields (label or element id) also occurs below in its column, or is an integer where that
    column holds only integers, unless its element id is empty.
    """

    line: int
    fields: tuple[str, ...]
    taken: bool
    why: str

    def describe(self) -> str:
        """``line 1 ('0', '0') read as data, not a header: ...``, the CLI's note."""
        verb = "taken as the header" if self.taken else "read as data, not a header"
        fields = ", ".join(map(repr, self.fields))
        return f"line {self.line} ({fields}) {verb}: {self.why} (--header or --no-header decides)"


@dataclass(frozen=True)
class Clustering:
    """A clustering read from a file.

    Attributes
    ----------
    source : str
        Display name of the input (the path, or ``"<stdin>"``).
    format : str
        The format it was read as, one of :data:`FORMATS`.
    labels : list of str or None
        Cluster label of each element (``None`` marks a missing label kept for dropping).
    elements : list of str or None
        Element ids in the same order, or ``None`` when elements are known only by position.
    lines : sequence of int or None
        Line number of each element in the file, or ``None`` (JSON input).
    header : Header or None
        How the first row of a csv/tsv table was read when no option decided it.
    blank_lines : frozenset of int
        The blank lines of a labels file that are elements (missing labels), to name them.
    """

    source: str
    format: str
    labels: list[str | None]
    elements: list[str] | None
    lines: Sequence[int] | None
    header: Header | None = None
    blank_lines: frozenset[int] = frozenset()

    @property
    def n(self) -> int:
        """Number of elements."""
        return len(self.labels)

    def line_of(self, i: int) -> int | None:
        """Line number of element ``i`` (``None`` if unknown)."""
        if self.lines is None or len(self.lines) == 0:
            return None
        return int(self.lines[min(i, len(self.lines) - 1)])

    def where(self, i: int) -> str:
        """``"line 7"``, or for JSON ``"element 'e7'"`` or ``"item 7"``: where element ``i`` is."""
        line = self.line_of(i)
        if line is not None:
            return f"line {line}"
        if self.elements is not None:
            return f"element {self.elements[i]!r}"
        return f"item {i + 1}"


# --------------------------------------------------------------------------- reading bytes


def _display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def _read_bytes(path: str, stdin: IO[bytes] | None = None) -> bytes:
    name = _display_name(path)
    try:
        if path == "-":
            data = (stdin if stdin is not None else sys.stdin.buffer).read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except FileNotFoundError:
        raise InvalidFileError(name, None, "no such file") from None
    except IsADirectoryError:
        raise InvalidFileError(name, None, "is a directory, not a file") from None
    except OSError as exc:
        raise InvalidFileError(name, None, f"cannot read: {exc.strerror or exc}") from None
    if data[:2] == _GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise InvalidFileError(name, None, f"corrupt gzip data: {exc}") from None
    kind = next((kind for magic, kind in _BINARY.items() if data.startswith(magic)
                 and (magic != b"PAR1" or data.endswith(magic))), None)
    if kind is not None:
        raise InvalidFileError(
            name, None, f"{kind}, not text: chanceclust reads clusterings from text files "
            "(labels, pairs, clusters, csv, tsv or json; gzip-compressed or not) and, in "
            "compare and table, from Parquet (.parquet, with pyarrow); write the labels as text",
        )
    return data


def _decode(data: bytes, name: str, encoding: str) -> str:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = data[exc.start : exc.start + 1].hex()
        raise InvalidFileError(
            name,
            line,
            f"not valid {encoding} (byte 0x{byte} at column {col}); "
            "convert the file or pass --encoding",
        ) from None
    except LookupError:
        raise InvalidFileError(name, None, f"unknown encoding {encoding!r} (--encoding)") from None
    nul = text.find("\x00")
    if nul >= 0:  # text files hold no NUL character: this is a binary file
        raise InvalidFileError(
            name, text.count("\n", 0, nul) + 1,
            "a NUL character: this looks like a binary file, not text (pass --encoding if it "
            "is text in another encoding, e.g. utf-16)",
        )
    return text.removeprefix("\ufeff")


def _split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only (not on the other characters ``str.splitlines`` uses)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _data_lines(lines: list[str]) -> Iterable[tuple[int, str]]:
    """``(line number, stripped line)`` of non-blank, non-comment lines."""
    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if s and not s.startswith("#"):
            yield i, s


#: A data line (as :func:`_data_lines`): not blank, not a comment; found without splitting.
_DATA_LINE = re.compile(r"^[^\S\n]*[^\s#].*$", re.MULTILINE)
_SPACE = re.compile(r"[^\S\r\n]")  # re's \s is str.isspace, Unicode included


def _has_space(text: str) -> bool:
    """Whether ``text`` holds a character that ``str.strip`` and ``str.split`` take as space,
    other than a line break: the one test of every fast path (``isascii`` is O(1))."""
    if text.isascii():
        return any(c in text for c in " \t\f\v\x1c\x1d\x1e\x1f")
    return _SPACE.search(text) is not None


# --------------------------------------------------------------------------- detection


#: The formats named by a file's extension, and the field separator of each table format.
_EXTENSIONS = {".json": "json", ".csv": "csv", ".tsv": "tsv", ".tab": "tsv"}
_DELIMITERS = {"csv": ",", "tsv": "\t"}


def _by_name(name: str) -> str | None:
    """The format named by the extension of ``name`` (before a ``.gz``), else None."""
    base = name[:-3] if name.lower().endswith(".gz") else name
    return _EXTENSIONS.get(os.path.splitext(base)[1].lower())


def detect_format(name: str, text: str) -> str:
    """Guess the input format of ``text`` read from ``name`` (rules: docs/guide/inputs.md).

    Examples
    --------
    >>> detect_format("a.json.gz", "")
    'json'
    >>> detect_format("a.txt", "x\\ny\\nx\\n")
    'labels'
    >>> detect_format("a.txt", "n1\\tx\\nn2\\ty\\n")
    'pairs'
    >>> detect_format("a.txt", "n1 n2 n3\\nn4\\n")
    'clusters'
    >>> detect_format("-", '["a", "b"]')
    'json'
    """
    if named := _by_name(name):
        return named
    first = _DATA_LINE.search(text)
    if first and first.group().lstrip()[:1] in ("[", "{"):
        return "json"
    if not _has_space(text):
        return "labels"  # fast path: no inner whitespace anywhere
    if len(text) >= VECTOR_MIN_CHARS and _plain(text):  # machine-written: no line loop
        return "pairs" if _one_inner_tab_per_line(text) else "clusters"
    single = pairs = True
    for _, s in _data_lines(_split_lines(text)):
        single = single and len(s.split()) == 1
        pairs = pairs and _is_pair(s)
        if not single and not pairs:
            return "clusters"
    if single:
        return "labels"
    return "pairs" if pairs else "clusters"


# --------------------------------------------------------------------------- parsers


def _strip_label(field: str) -> str | None:
    """A labels file's line as every reader reads it: stripped, None for a comment."""
    label = field.strip()
    return None if label.startswith("#") else label


def _parse_labels(text: str, name: str) -> Clustering:
    """A labels file, each line by :func:`_strip_label` (none to strip: millions in ms)."""
    lines: list[str | None] = _split_lines(text)  # type: ignore[assignment]
    if "#" in text:
        lines = list(map(_strip_label, lines))  # type: ignore[arg-type]
    elif "\r" in text or _has_space(text):  # _strip_label where no line is a comment
        lines = [s.strip() for s in lines]  # type: ignore[union-attr]
    if None not in lines:
        return Clustering(name, "labels", lines, None, range(1, len(lines) + 1))
    where = [i for i, label in enumerate(lines, 1) if label is not None]
    return Clustering(name, "labels", [s for s in lines if s is not None], None, where)


def _check_new_element(
    seen: dict[str, int], element: str, line: int, name: str, hint: str = ""
) -> None:
    """Record ``element`` at ``line`` in ``seen``; raise if it is there already."""
    first = seen.get(element)
    if first is not None:
        raise InvalidFileError(
            name, line, f"element {element!r} appears again (first at line {first}); "
            f"each element must be in exactly one cluster{hint}"
        )
    seen[element] = line


def _parse_keyed(text: str, name: str, fmt: str) -> Clustering:
    """A pairs file (``element<TAB>cluster``, or two space-separated fields) or a clusters
    file (one cluster per line, members separated by whitespace, label ``"k"`` for the k-th)."""
    elements: list[str] = []
    labels: list[str | None] = []
    nums: list[int] = []
    seen: dict[str, int] = {}
    for k, (i, s) in enumerate(_data_lines(_split_lines(text)), 1):
        if fmt == "clusters":
            members, label = s.split(), str(k)
        else:
            parts = s.split("\t") if "\t" in s else s.split()
            if len(parts) != 2:
                raise InvalidFileError(
                    name, i, f"expected 2 fields (element<TAB>cluster), found {len(parts)}"
                )
            members, label = [parts[0].strip()], parts[1].strip()
        for member in members:
            _check_new_element(seen, member, i, name)
            elements.append(member)
            labels.append(label)
            nums.append(i)
    return Clustering(name, fmt, labels, elements, nums)


def _is_pair(line: str) -> bool:
    """Whether a data line is ``element<TAB>cluster``: two non-empty TAB-separated fields."""
    parts = line.split("\t")
    return len(parts) == 2 and all(p.strip() for p in parts)


def _check_near_pairs(text: str, name: str) -> None:
    """Raise at the first line that is not element<TAB>cluster if most lines are.

    Detection reads a pairs file with one malformed line as clusters, where its
    labels then look like repeated elements: name the malformed line instead.
    """
    lines = list(_data_lines(_split_lines(text)))
    bad = [(i, s) for i, s in lines if not _is_pair(s)]
    if not bad or len(bad) * 2 >= len(lines):
        return
    i, s = bad[0]
    raise InvalidFileError(
        name, i, f"expected 2 TAB-separated fields (element<TAB>cluster) like the other "
        f"{len(lines) - len(bad)} lines, found {len(s.split(chr(9)))}; fix the line, or pass "
        "--input-format clusters if each line is a cluster"
    )


def _resolve_column(spec: str, header: list[str], name: str, what: str) -> int:
    if spec in header:
        return header.index(spec)
    if spec.isdigit() and 1 <= int(spec) <= len(header):
        return int(spec) - 1
    cols = ", ".join(repr(h) for h in header)
    raise InvalidFileError(
        name, 1, f"no column {spec!r} for {what}; the header has {cols} (or use a 1-based index)"
    )


def _table_columns(
    header: list[str], name: str, column: str | None, id_column: str | None
) -> tuple[int, int | None, str]:
    """(label column, element-id column or None, hint for errors) of a table's header."""
    if column is not None:
        lab = _resolve_column(column, header, name, "--column")
        ident = (
            _resolve_column(id_column, header, name, "--id-column")
            if id_column is not None
            else None
        )
    elif id_column is not None:
        ident = _resolve_column(id_column, header, name, "--id-column")
        if len(header) != 2:
            raise InvalidFileError(name, 1, "choose the label column with --column")
        lab = 1 - ident
    elif len(header) == 1:
        lab, ident = 0, None
    elif len(header) == 2:
        ident, lab = 0, 1
    else:
        cols = ", ".join(repr(h) for h in header)
        raise InvalidFileError(
            name, 1, f"{len(header)} columns ({cols}): choose the labels with --column"
        )
    # the default reading of two columns, named in its errors: both may be labels
    hint = (
        f"; without --column a two-column table is read as element id ({header[0]!r}) "
        f"and label ({header[1]!r}): if both columns are labels, choose one with --column"
        if column is None and id_column is None and len(header) == 2
        else ""
    )
    return lab, ident, hint


def _header_rule(first: list[str], columns: dict[int, str], below: dict[int, Any]) -> tuple[
        bool, str]:
    """(taken, why): the header rule of :class:`Header` on the stripped fields ``first``.

    ``columns``: index -> what the column holds ("a label", "an element id"); ``below``: index
    -> the distinct values read below the first row in that column. Both table readers call it.
    """
    if any(not first[c] for c, what in columns.items() if what == "an element id"):
        return True, "an empty element id cannot be data"  # pandas' unnamed index column
    for c, what in columns.items():
        if first[c] in below[c]:
            return False, f"{first[c]!r} also occurs below as {what}"
    for c, what in columns.items():
        if _is_integer(first[c]) and all(map(_is_integer, below[c])):
            return False, f"{first[c]!r} is an integer, as is every {what.split()[-1]} below"
    return True, "none of its fields occurs below in its column"


def _decided(
    first: list[str], line: int, chosen: list[tuple[int, int | None]], header: bool | None,
    named: bool, below: dict[int, Any],
) -> Header | None:
    """The header decision of a table; None where --header or a --column name made it."""
    if header or (header is None and named):
        return None
    columns = {lab: "a label" for lab, _ in chosen}  # labels first: fewer distinct values
    columns.update({i: "an element id" for _, i in chosen if i is not None})
    taken, why = (False, "--no-header") if header is False else _header_rule(first, columns,
                                                                             below)
    return Header(line, tuple(first), taken, why)


def _table_layout(
    header: list[str], name: str, columns: Sequence[str | None], id_column: str | None,
) -> tuple[list[tuple[int, int | None]], str, bool]:
    """(label and id column of each of ``columns``, the hint of the first, whether a
    --column/--id-column named a field of the first row: then it is the header)."""
    chosen = [_table_columns(header, name, column, id_column) for column in columns]
    named = any(c in header for c in (*columns, id_column) if c is not None)
    return [c[:2] for c in chosen], chosen[0][2], named


def _parse_table(
    text: str, name: str, fmt: str, columns: Sequence[str | None], id_column: str | None,
    header: bool | None = None, delimiter: str | None = None,
) -> list[Clustering]:
    """The clustering of each of ``columns`` of a csv/tsv table, read once by the csv module."""
    delimiter = delimiter or _DELIMITERS[fmt]
    reader = csv.reader(_io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        first = next(reader, None)
        while first is not None and not any(h.strip() for h in first):
            first = next(reader, None)
        if first is None:
            raise InvalidFileError(name, 1, "empty file: no header row")
        top = reader.line_num
        first = [h.strip() for h in first]
        chosen, hint, named = _table_layout(first, name, columns, id_column)
        ident = chosen[0][1]
        width = len(first)
        wanted = {lab: [first[lab]] for lab, _ in chosen}  # label columns
        nums: list[int] = [top]
        elements: list[str] | None = None if ident is None else [first[ident]]
        seen: dict[str, int] = {}
        previous = reader.line_num
        for row in reader:
            line, start, previous = reader.line_num, previous + 1, reader.line_num
            if line > start and any("\n" in field for field in row):  # over several lines
                raise InvalidFileError(
                    name, start, f"a quoted field runs from line {start} to line {line}: an "
                    "unbalanced quote? (a label or id cannot hold a line break)",
                )
            if not row or (len(row) == 1 and not row[0].strip() and width > 1):
                continue
            if len(row) != width:
                raise InvalidFileError(
                    name, line, f"expected {width} fields like the header, found {len(row)}"
                )
            for c, values in wanted.items():
                values.append(row[c].strip())
            if elements is not None:
                element = row[ident].strip()  # type: ignore[index]
                if not element:
                    raise InvalidFileError(name, line, "empty element id")
                _check_new_element(seen, element, line, name, hint)
                elements.append(element)
            nums.append(line)
    except csv.Error as exc:
        raise InvalidFileError(name, reader.line_num or None, f"malformed {fmt}: {exc}") from None
    below: dict[int, Any] = {c: set(values[1:]) for c, values in wanted.items()}
    if ident is not None:
        below[ident] = seen
    decision = _decided(first, top, chosen, header, named, below)
    skip = 1 if decision is None or decision.taken else 0
    if not skip and elements is not None:
        if not elements[0]:
            raise InvalidFileError(name, top, "empty element id")
        if elements[0] in seen:
            _check_new_element({elements[0]: top}, elements[0], seen[elements[0]], name, hint)
    return [
        Clustering(name, fmt, wanted[lab][skip:], None if elements is None else elements[skip:],
                   nums[skip:], header=decision)
        for lab, _ in chosen
    ]


def _json_scalar(value: Any, name: str, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    kind = {dict: "object", list: "list"}.get(type(value), type(value).__name__)
    raise InvalidFileError(name, None, f"{where}: expected a label, found a JSON {kind}")


def _no_duplicate_keys(name: str):  # type: ignore[no-untyped-def]
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise InvalidFileError(name, None, f"key {k!r} appears twice in a JSON object")
            out[k] = v
        return out

    return hook


def _parse_json(text: str, name: str) -> Clustering:
    try:
        # Numbers and constants stay as their source text: labels are never converted.
        doc = json.loads(
            text,
            parse_int=str,
            parse_float=str,
            parse_constant=str,
            object_pairs_hook=_no_duplicate_keys(name),
        )
    except json.JSONDecodeError as exc:
        problem = f"invalid JSON: {exc.msg} (column {exc.colno})"
        raise InvalidFileError(name, exc.lineno, problem) from None
    except RecursionError:
        raise InvalidFileError(
            name, None, "JSON nested too deeply: a clustering is a list or object of labels "
            "or of member lists"
        ) from None
    labels: list[str | None] = []
    elements: list[str] = []
    seen: dict[str, str] = {}

    def add_cluster(label: str, members: Any, where: str) -> None:
        for member in members:
            element = _json_scalar(member, name, where)
            if element is None or element == "":
                raise InvalidFileError(name, None, f"{where}: empty or null element id")
            if element in seen:
                raise InvalidFileError(
                    name, None, f"{where}: element {element!r} appears again "
                    f"(first in cluster {seen[element]!r}); each element must be in one cluster"
                )
            seen[element] = label
            elements.append(element)
            labels.append(label)

    if isinstance(doc, list):
        if doc and all(isinstance(item, list) for item in doc):
            for k, members in enumerate(doc, 1):
                add_cluster(str(k), members, f"item {k}")
            return Clustering(name, "json", labels, elements, None)
        labels = [_json_scalar(v, name, f"item {i}") for i, v in enumerate(doc, 1)]
        return Clustering(name, "json", labels, None, None)
    if isinstance(doc, dict):
        if doc and all(isinstance(v, list) for v in doc.values()):
            for key, members in doc.items():
                add_cluster(key, members, f"cluster {key!r}")
            return Clustering(name, "json", labels, elements, None)
        for key, value in doc.items():
            if key == "":
                raise InvalidFileError(name, None, "empty element id (key \"\")")
            elements.append(key)
            labels.append(_json_scalar(value, name, f"key {key!r}"))
        return Clustering(name, "json", labels, elements, None)
    raise InvalidFileError(name, 1, "expected a JSON list or object of labels")


# --------------------------------------------------------------------------- pyarrow's readers

#: Files shorter than this (characters) are read by the Python parsers (no pyarrow import).
VECTOR_MIN_CHARS = 1 << 20


class Column(Sequence):  # type: ignore[type-arg]
    """The strings of a pyarrow array as a read-only sequence (``None`` for nulls)."""

    __slots__ = ("array",)

    def __init__(self, array: Any) -> None:
        self.array = array

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return Column(self.array[i])
        return self.array[int(i)].as_py()

    def __iter__(self) -> Any:
        for start in range(0, len(self.array), 1 << 16):
            yield from self.array[start : start + (1 << 16)].to_pylist()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, Column)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def count(self, value: Any) -> int:
        if value is None:
            return int(self.array.null_count)
        return sum(1 for x in self if x == value)


def _ints(array: Any, fill: int | None = None) -> np.ndarray:
    """The values of a pyarrow integer array as numpy, ``fill`` where null (a copy then).

    Read from its buffers: ``pyarrow.Array.to_numpy`` imports pandas (half a second) in some
    pyarrow versions, and so does ``pyarrow.Array.fill_null`` (through ``pyarrow.scalar``).
    """
    dtype = np.dtype(f"int{array.type.bit_width}")
    if not len(array):
        return np.zeros(0, dtype=dtype)
    values = np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array),
                           offset=array.offset * dtype.itemsize)  # fmt: skip
    if not array.null_count:
        return values
    if fill is None:  # pragma: no cover - callers fill or drop the nulls
        raise ValueError("an array with nulls")
    bits = np.frombuffer(array.buffers()[0], dtype=np.uint8)
    valid = np.unpackbits(bits, bitorder="little")[array.offset : array.offset + len(array)]
    return np.where(valid == 0, fill, values).astype(dtype)


def _arrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # pragma: no cover - the fallback is the Python parsers
        return None
    return pa, pc


def _vectorized(text: str) -> Any:
    """(pyarrow, compute) where ``text`` is read by the vectorized parsers, else None."""
    if len(text) < VECTOR_MIN_CHARS or not text.isascii():
        return None
    if any(c in text for c in "\x1c\x1d\x1e\x1f"):  # str.strip's ASCII whitespace, not C's
        return None
    return _arrow()


def _arrow_data_lines(text: str, pa: Any, pc: Any) -> tuple[Any, np.ndarray]:
    """Stripped non-blank, non-comment lines of ``text`` and their line numbers."""
    raw = pc.split_pattern(pa.array([text], pa.large_string()), "\n").flatten()
    if len(raw) and text.endswith("\n"):
        raw = raw[:-1]
    stripped = pc.ascii_trim_whitespace(raw)
    keep = pc.and_(
        pc.greater(pc.binary_length(stripped), 0), pc.invert(pc.starts_with(stripped, "#"))
    )
    numbers = np.flatnonzero(keep.to_numpy(zero_copy_only=False)) + 1
    return stripped.filter(keep), numbers


def _check_unique_elements(
    elements: Any, lines: Sequence[int], name: str, pc: Any, hint: str = ""
) -> None:
    """Raise as :func:`_check_new_element` at the first element that appears again."""
    codes = pc.dictionary_encode(elements).indices.to_numpy(zero_copy_only=False)
    if len(codes) == 0 or int(codes.max()) + 1 == len(codes):
        return
    order = np.argsort(codes, kind="stable")
    repeated = order[1:][codes[order][1:] == codes[order][:-1]]
    i = int(repeated.min())
    first = int(np.flatnonzero(codes == codes[i])[0])
    seen = {elements[i].as_py(): int(lines[first])}
    _check_new_element(seen, elements[i].as_py(), int(lines[i]), name, hint)


def _one_inner_tab_per_line(text: str) -> bool:
    """Whether every line of an ASCII ``text`` has one TAB with characters on both sides."""
    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    ends = np.flatnonzero(data == 10)
    if not text.endswith("\n"):
        ends = np.append(ends, len(data))
    tabs = np.flatnonzero(data == 9)
    if len(tabs) != len(ends):
        return False
    line = np.searchsorted(ends, tabs)
    starts = np.concatenate(([0], ends[:-1] + 1))
    return bool(
        np.array_equal(line, np.arange(len(ends)))
        and np.all(tabs > starts)
        and np.all(tabs + 1 < ends)
    )


def _plain(text: str) -> bool:
    """No comment, blank line, CR or space: line i of ``text`` is data line i."""
    return (
        text.isascii()
        and not any(c in text for c in "# \r\x0b\x0c\x1c\x1d\x1e\x1f")
        and "\n\n" not in text
        and not text.startswith("\n")
    )


def _parse_pairs_arrow(text: str, name: str, pa: Any, pc: Any) -> Clustering | None:
    """:func:`_parse_keyed` (pairs) by pyarrow's kernels; None where a line is not 2 fields."""
    if _plain(text):  # machine-written: pyarrow's csv reader, line i is element i
        table = _csv_columns(text, pa, ["e", "l"], delimiter="\t", kind=pa.string())
        if table is None:
            return None  # a line of another width: the Python parser names it
        elements, labels = (table.column(c).combine_chunks() for c in ("e", "l"))
        shortest = [pc.min(pc.binary_length(c)).as_py() for c in (elements, labels)]
        if len(elements) and min(shortest) == 0:
            return None  # an empty field: the Python parser names its line
        numbers: Sequence[int] = range(1, len(elements) + 1)
        _check_unique_elements(elements, numbers, name, pc)
        return Clustering(name, "pairs", Column(labels), Column(elements), numbers)
    lines, numbers = _arrow_data_lines(text, pa, pc)
    parts = pc.split_pattern(lines, "\t")
    if len(lines) and not bool(pc.all(pc.equal(pc.list_value_length(parts), 2)).as_py()):
        return None  # the Python parser names the line (or reads space-separated pairs)
    del lines
    both = pc.ascii_trim_whitespace(parts.flatten())
    del parts
    elements = both.take(pa.array(np.arange(0, len(both), 2)))
    labels = both.take(pa.array(np.arange(1, len(both), 2)))
    del both
    _check_unique_elements(elements, numbers, name, pc)
    return Clustering(name, "pairs", Column(labels), Column(elements), numbers)


def _parse_clusters_arrow(text: str, name: str, pa: Any, pc: Any) -> Clustering:
    """:func:`_parse_keyed` (clusters) by pyarrow's kernels: label ``"k"`` for the k-th line."""
    lines, numbers = _arrow_data_lines(text, pa, pc)
    members = pc.ascii_split_whitespace(lines)
    sizes = pc.list_value_length(members).to_numpy(zero_copy_only=False)
    elements = members.flatten()
    ordinals = pc.cast(pa.array(np.arange(1, len(lines) + 1, dtype=np.int64)), pa.string())
    indices = np.repeat(np.arange(len(lines), dtype=np.int32), sizes)
    labels = pa.DictionaryArray.from_arrays(pa.array(indices), ordinals)
    where = np.repeat(numbers, sizes)
    _check_unique_elements(elements, where, name, pc)
    return Clustering(name, "clusters", Column(labels), Column(elements), where)


#: A delimiter that no labels file holds (a field is the whole line; the reader needs one).
_NO_DELIMITER = "\x01"


def _csv_columns(
    text: str, pa: Any, names: list[str], *, delimiter: str = _NO_DELIMITER,
    skip_rows: int = 0, include: list[str] | None = None, longest: int | None = None,
    data: bytes | None = None, kind: Any = None,
) -> Any:
    """The columns of ``text`` read as strings of type ``kind`` (default: dictionary-encoded),
    one row per line, or None.

    None where pyarrow's CSV reader would not give one row per line as the Python parsers
    do (a bare ``\\r``, which the reader takes as a line break, a quote or the delimiter in a
    labels file) or where a row has another number of fields: the Python parsers then read the
    file and name the line; and where a line is longer than ``longest`` characters.
    ``data``: ``text`` encoded in UTF-8, where the file's bytes are (else encoded here).
    """
    import pyarrow.csv as pacsv

    if not text or ("\r" in text and text.count("\r") != text.count("\r\n")):
        return None
    if delimiter == _NO_DELIMITER and _NO_DELIMITER in text:
        return None
    if delimiter != _NO_DELIMITER and '"' in text:  # csv quoting: the csv module's rules
        return None
    if longest is not None and _has_long_line(text, longest):
        return None
    kind = kind or pa.dictionary(pa.int32(), pa.string())
    try:
        data = text.encode() if data is None else data
    except UnicodeEncodeError:  # a lone surrogate (from a codec that lets them through)
        return None
    try:
        table = pacsv.read_csv(
            _io.BytesIO(data),
            read_options=pacsv.ReadOptions(
                column_names=names, skip_rows=skip_rows, block_size=1 << 24
            ),
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter, quote_char=False, escape_char=False,
                ignore_empty_lines=False, newlines_in_values=False,
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={c: kind for c in (include or names)},
                include_columns=include or names,
                strings_can_be_null=False, quoted_strings_can_be_null=False,
                check_utf8=False,  # a str's UTF-8, or bytes decoded strictly as UTF-8
            ),
        )
    except pa.ArrowInvalid:
        return None
    if table.num_rows >= 2**31 - 1:  # pragma: no cover - the codes are int32
        return None
    return table


def _has_long_line(text: str, longest: int) -> bool:
    """True if a line of ``text`` may be longer than ``longest`` characters (never a false no).

    Such a line holds a whole window of ``longest // 2`` characters without a line break: one
    ``find`` per window, each stopping at the window's first line break.
    """
    width = max(longest // 2, 1)
    return any(text.find("\n", start, start + width) < 0
               for start in range(0, len(text) - width + 1, width))


def _clean_codes(
    column: Any, clean: Any, *, order: bool = True
) -> tuple[list[str], np.ndarray]:
    """(distinct values, int32 codes) of a dictionary column after ``clean`` of each field.

    ``clean`` maps a field as read to its value (``str.strip``), or to None to leave the row
    out (a comment); such rows get code -1. It runs on each chunk's distinct fields, never on
    each element. Equal values get one code, and the codes follow the values' sorted order
    (the order the validation gives strings: code points), so they are the labels' codes;
    ``order=False`` (element ids): the order of first appearance in the chunks' dictionaries.
    """
    chunks = column.chunks
    values: dict[str, int] = {}
    lookups = [
        np.fromiter(
            (-1 if v is None else values.setdefault(v, len(values))
             for v in map(clean, chunk.dictionary.to_pylist())),
            dtype=np.int64, count=len(chunk.dictionary),
        )
        for chunk in chunks
    ]
    distinct = list(values)
    ranked = sorted(range(len(distinct)), key=distinct.__getitem__) if order else range(
        len(distinct))
    rank = np.empty(len(distinct) + 1, dtype=np.int32)  # rank[-1]: -1 (left out) stays -1
    rank[np.asarray(ranked, dtype=np.int64)] = np.arange(len(distinct), dtype=np.int32)
    rank[-1] = -1
    codes = np.empty(len(column), dtype=np.int32)
    start = 0
    for chunk, lookup in zip(chunks, lookups, strict=True):
        indices = _ints(chunk.indices)
        np.take(rank[lookup], indices, out=codes[start : start + len(indices)])
        start += len(indices)
    return [distinct[i] for i in ranked] if order else distinct, codes


def _dictionary(codes: np.ndarray, values: Any, pa: Any) -> Any:
    """A pyarrow DictionaryArray of int32 ``codes`` into ``values`` (codes < 0: null), a list
    of strings or a pyarrow array.

    Made from the codes' buffer (``pyarrow.array`` of a numpy array imports pandas).
    """
    codes = np.ascontiguousarray(codes, dtype=np.int32)
    valid = None
    if codes.size and codes.min() < 0:
        valid = pa.py_buffer(np.packbits(codes >= 0, bitorder="little"))
    indices = pa.Array.from_buffers(pa.int32(), len(codes), [valid, pa.py_buffer(codes)])
    if isinstance(values, list):
        values = _string_array(values, pa)
    return pa.DictionaryArray.from_arrays(indices, values)


def _string_array(values: list[str], pa: Any) -> Any:
    """``pyarrow.array(values, pa.string())`` made from buffers: ``pyarrow.array`` of a list
    asks whether it is a pandas object, which imports pandas (0.3-0.5 s) where installed."""
    data = [v.encode() for v in values]  # strict UTF-8, as pyarrow.array
    offsets = np.zeros(len(data) + 1, dtype=np.int64)
    np.cumsum([len(d) for d in data], out=offsets[1:])
    large = offsets[-1] >= 2**31
    kind = pa.large_string() if large else pa.string()
    offsets = offsets if large else offsets.astype(np.int32)
    return pa.Array.from_buffers(kind, len(data), [None, pa.py_buffer(offsets),
                                                   pa.py_buffer(b"".join(data))])  # fmt: skip


def _parse_labels_arrow(
    text: str, name: str, pa: Any, data: bytes | None = None
) -> Clustering | None:
    """:func:`_parse_labels` by pyarrow's CSV reader, or None where it would split lines apart."""
    table = _csv_columns(text, pa, ["l"], data=data)
    if table is None:
        return None
    values, codes = _clean_codes(table.column("l"), _strip_label)
    del table
    if not len(codes) or codes.min() >= 0:
        where: Sequence[int] = range(1, len(codes) + 1)
    else:
        kept = codes >= 0
        where = np.flatnonzero(kept) + 1
        codes = codes[kept]
    return Clustering(name, "labels", Column(_dictionary(codes, values, pa)), None, where)


def _parse_table_arrow(
    text: str, name: str, fmt: str, columns: Sequence[str | None], id_column: str | None,
    pa: Any, data: bytes | None = None, header: bool | None = None,
    delimiter: str | None = None,
) -> list[Clustering] | None:
    """:func:`_parse_table` by one pass of pyarrow's CSV reader, or None.

    None where the csv module must read the file (its rules, its errors): unless each line is
    one row (no quote, no bare CR, the first row on the first line, no empty line between rows
    of several fields, no line longer than the csv module's field limit), where a column is not
    in the first row, a row has another width, or an element id is empty or repeated.
    """
    delimiter = delimiter or _DELIMITERS[fmt]
    end = text.find("\n")  # not split(): that copies the rest of the text
    top = (text if end < 0 else text[:end]).removesuffix("\r")
    if not top.strip() or '"' in text:
        return None
    if delimiter in top and ("\n\n" in text or ("\r" in text and "\n\r\n" in text)):
        return None  # an empty line: the reader would fill a row with empty fields
    first = [h.strip() for h in top.split(delimiter)]
    try:
        chosen, _, named = _table_layout(first, name, columns, id_column)
    except InvalidFileError:
        return None  # raised by the csv module's path, in the order of the inputs
    names = [str(i) for i in range(len(first))]
    wanted = sorted({i for pair in chosen for i in pair if i is not None})
    table = _csv_columns(
        text, pa, names, delimiter=delimiter, skip_rows=1, include=[names[i] for i in wanted],
        longest=csv.field_size_limit(), data=data,  # the csv module refuses a longer field
    )
    if table is None:
        return None
    read: dict[int, tuple[list[str], np.ndarray]] = {}
    for i in wanted:
        if any(i == ident for _, ident in chosen):
            read[i] = _clean_codes(table.column(names[i]), str.strip, order=False)
            if "" in read[i][0] or len(read[i][0]) != len(read[i][1]):
                return None  # an empty or repeated id: the Python parser names its line
        else:
            # a one-column table's empty line is None (the csv module skips it)
            read[i] = _clean_codes(table.column(names[i]), str.strip if len(first) > 1
                                   else lambda field: None if field == "" else field.strip())
    del table
    decision = _decided(first, 1, chosen, header, named,
                        {i: values for i, (values, _) in read.items()})
    if decision is not None and not decision.taken:  # the first row is data: put it first
        for i, (values, codes) in read.items():
            is_id = any(i == ident for _, ident in chosen)
            if is_id and (first[i] in values or not first[i]):
                return None  # a repeated or empty id: the Python parser names its line
            if first[i] not in values:
                values.append(first[i])
            read[i] = values, np.concatenate(([values.index(first[i])], codes)).astype(np.int32)
    start = 2 if decision is None or decision.taken else 1
    results = []
    for lab, ident in chosen:
        values, codes = read[lab]
        kept = codes >= 0  # a one-column table skips empty lines
        where: Sequence[int] = (
            range(start, len(codes) + start) if kept.all() else np.flatnonzero(kept) + start
        )
        if not kept.all():
            codes = codes[kept]
        elements = None if ident is None else Column(_dictionary(read[ident][1], read[ident][0],
                                                                 pa))
        results.append(Clustering(name, fmt, Column(_dictionary(codes, values, pa)), elements,
                                  where, header=decision))  # fmt: skip
    return results


def _distinct(labels: Sequence[str | None]) -> list[str | None]:
    """The distinct labels (a pyarrow column's through its kernels)."""
    if isinstance(labels, Column):
        _, pc = _arrow()
        array = labels.array
        if hasattr(array, "dictionary"):
            return array.dictionary.to_pylist() + ([None] if array.null_count else [])
        return pc.unique(array).to_pylist()
    return list(set(labels))


def _used_values(array: Any) -> list[str | None]:
    """The distinct labels of a (sliced) dictionary array: those its indices use, and None."""
    indices = array.indices
    codes = _ints(indices.drop_null())
    used = np.flatnonzero(np.bincount(codes, minlength=len(array.dictionary)))
    values = array.dictionary.take(used).to_pylist() if len(used) else []
    return values + ([None] if indices.null_count else [])


def _null_where(column: Column, bad: set[Any]) -> Column:
    """``column`` with the labels in ``bad`` made null (unassigned)."""
    pa, pc = _arrow()
    array = column.array
    if hasattr(array, "dictionary"):  # the indices of the distinct labels in ``bad`` made null
        hit = np.fromiter((v in bad for v in array.dictionary.to_pylist()), dtype=bool,
                          count=len(array.dictionary))
        indices = array.indices
        if not hit.any():
            return column
        codes = _ints(indices, fill=-1)
        null = codes < 0
        codes = np.where(null, 0, codes)
        mask = null | hit[codes]
        return Column(_dictionary(np.where(mask, -1, codes), array.dictionary, pa))
    values = pa.array(sorted(x for x in bad if x is not None), array.type)
    return Column(pc.if_else(pc.is_in(array, value_set=values), None, array))


# --------------------------------------------------------------------------- public readers


def _is_na(label: str) -> bool:
    return label.strip().lower() in NA_STRINGS


_TEXT_FORMATS = ("labels", "pairs", "clusters")


def _skip_header(text: str) -> str:
    """``text`` with its first data line made a comment (line numbers are kept)."""
    first = _DATA_LINE.search(text)
    return text if first is None else text[: first.start()] + "#" + text[first.start() :]


def _is_integer(label: str | None) -> bool:
    return label is not None and label.strip().lstrip("+-").isdigit()


def _all_integers(values: Sequence[str | None], *, missing: bool) -> bool:
    """Whether every value is an integer (``missing``: or a missing label), as :func:`_is_integer`.

    Checked on the distinct values of a list or a dictionary column, else in order up to the
    first that is not one: the same rules for every reader.
    """
    if isinstance(values, Column) and hasattr(values.array, "dictionary"):
        values = _used_values(values.array)
    elif not isinstance(values, Column):
        values = list(set(values))
    return all(_is_integer(x) or (missing and (x is None or _is_na(x))) for x in values)


def _check_no_header(result: Clustering) -> None:
    """Raise where the first line differs in kind from all others (a header, read as data): its
    label (labels, pairs) or its cluster's members (clusters) are not integers, all others are."""
    clusters = result.format == "clusters"
    values = result.elements if clusters else result.labels
    labels = result.labels
    size = next((i for i, x in enumerate(labels) if x != labels[0]), len(labels)) if clusters else 1
    first, missing = values[:size], not clusters  # type: ignore[index]
    if len(values) < 3 or size == len(values) or any(  # type: ignore[arg-type]
            _is_integer(x) or (missing and (x is None or _is_na(x))) for x in first):
        return
    if _all_integers(values[size:], missing=missing):  # type: ignore[index]
        what, kind, noun = ((f"the first cluster ({' '.join(first)!r})", "member", "cluster")
                            if clusters else (repr(first[0]), "label", "label"))
        raise InvalidFileError(
            result.source, result.line_of(0),
            f"{what} looks like a header: every other {kind} is an integer; pass --header to "
            f"skip the first line, or --no-header to read it as a {noun}",
        )


def _in(labels: Sequence[str | None], bad: set[Any]) -> np.ndarray:
    """Whether each label is in ``bad`` (a column's through its distinct labels)."""
    if isinstance(labels, Column):
        return _null_where(labels, bad).array.is_null().to_numpy(zero_copy_only=False)
    return np.fromiter((lab in bad for lab in labels), dtype=bool, count=len(labels))


def read_clustering(
    path: str,
    *,
    input_format: str = "auto",
    column: str | None = None,
    id_column: str | None = None,
    encoding: str = "utf-8",
    na: str = "error",
    stdin: IO[bytes] | None = None,
    strict_columns: bool = True,
    header: bool | None = None,
    delimiter: str | None = None,
) -> Clustering:
    """Read one clustering from ``path`` (``"-"`` for standard input).

    Parameters
    ----------
    path : str
        File to read; gzip is detected from its content.
    input_format : {"auto", "labels", "pairs", "clusters", "csv", "tsv", "json"}, default="auto"
        The formats and their detection: docs/guide/inputs.md, "Files".
    column, id_column : str or None
        For csv/tsv: label column and element-id column (header name or 1-based index).
    encoding : str, default="utf-8"
        Text encoding; a leading byte-order mark is ignored.
    na : {"error", "keep", "drop"}, default="error"
        What to do with missing labels (:data:`NA_STRINGS`, e.g. ``""``, ``"NaN"``, ``"NA"``,
        JSON ``null``): raise, keep them as an ordinary label, or mark them ``None`` so that
        they are unassigned (:func:`union`).
    stdin : binary file, optional
        Read instead of ``sys.stdin.buffer`` when ``path`` is ``"-"``.
    strict_columns : bool, default=True
        Raise if ``column``/``id_column``/``delimiter`` are given for an input that is not
        csv/tsv (or, for ``delimiter``, a detected text file, then read as csv); when False
        they are ignored for such inputs.
    header : bool or None, default=None
        Whether the first data line of a text format (labels, pairs, clusters) is a header:
        True skips it, False reads it as data. None: no header, but a labels or pairs file
        whose first label is not an integer while every other label is one raises (the line
        looks like a header: it is never read as a label silently). For csv/tsv, True and False
        decide whether the first row is the header, None leaves it to the rule of
        :class:`Header` (or to a ``column``/``id_column`` named by it); JSON has none.
    delimiter : str or None
        The field separator of a csv/tsv table (default: ``,`` for csv, TAB for tsv); a
        detected text file read with one is a csv table.

    Returns
    -------
    Clustering

    Raises
    ------
    InvalidFileError
        With the file name, the line (when known) and the problem.

    Examples
    --------
    >>> import io
    >>> c = read_clustering("-", stdin=io.BytesIO(b"a\\nb\\na\\n"))
    >>> c.format, c.labels, c.elements
    ('labels', ['a', 'b', 'a'], None)
    """
    return read_clusterings(
        path, [column], input_format=input_format, id_column=id_column, encoding=encoding,
        na=na, stdin=stdin, strict_columns=strict_columns, header=header, delimiter=delimiter,
    )[0]


def read_clusterings(
    path: str,
    columns: Sequence[str | None],
    *,
    input_format: str = "auto",
    id_column: str | None = None,
    encoding: str = "utf-8",
    na: str = "error",
    stdin: IO[bytes] | None = None,
    strict_columns: bool = True,
    header: bool | None = None,
    delimiter: str | None = None,
) -> list[Clustering]:
    """:func:`read_clustering` of each of ``columns`` of one file, which is read once.

    The same clusterings, and the same first error, as one :func:`read_clustering` per column
    in turn; a csv/tsv table is parsed once for all its columns.

    Examples
    --------
    >>> import io
    >>> a, b = read_clusterings("-", ["x", "y"], input_format="tsv",
    ...                         stdin=io.BytesIO(b"x\\ty\\n1\\ta\\n2\\tb\\n"))
    >>> a.labels, b.labels
    (['1', '2'], ['a', 'b'])
    """
    if input_format not in ("auto", *FORMATS):
        raise InvalidInputError(
            f"`input_format` must be 'auto' or one of {FORMATS}; got {input_format!r}"
        )
    if na not in ("error", "keep", "drop"):
        raise InvalidInputError(f"`na` must be 'error', 'keep' or 'drop'; got {na!r}")
    name = _display_name(path)
    raw: bytes | None = _read_bytes(path, stdin)
    text = _decode(raw, name, encoding)  # type: ignore[arg-type]
    if raw[:3] == b"\xef\xbb\xbf" or not _is_utf8(encoding):  # type: ignore[index]
        raw = None  # not the UTF-8 of ``text``: the columnar reader encodes it
    fmt = detect_format(path, text) if input_format == "auto" else input_format
    if header and fmt in _TEXT_FORMATS:
        text, raw = _skip_header(text), None
        fmt = detect_format(path, text) if input_format == "auto" else input_format
    if delimiter is not None:
        if len(delimiter) != 1 or delimiter in '"\r\n':
            raise InvalidInputError("`delimiter` (--delimiter) must be one character other than "
                                    f"a quote or a line break; got {delimiter!r}")
        if fmt in _TEXT_FORMATS and input_format == "auto":
            fmt = "csv"  # a delimiter makes any text file a table
        elif fmt not in ("csv", "tsv") and strict_columns:
            raise InvalidFileError(name, None, f"--delimiter applies to csv/tsv input, not {fmt}")
    if fmt in ("csv", "tsv"):
        arrow = _arrow() if len(text) >= VECTOR_MIN_CHARS else None
        parsed = arrow and _parse_table_arrow(text, name, fmt, columns, id_column, arrow[0],
                                              raw, header, delimiter)
        parsed = parsed or _parse_table(text, name, fmt, columns, id_column, header, delimiter)
        return [_finish(result, na, header) for result in parsed]
    if input_format == "auto" and fmt in _TEXT_FORMATS:
        _check_one_row(text, name, fmt)
    return [
        _finish(_parse(text, path, fmt, input_format, column, id_column, strict_columns, raw),
                na, header)
        for column in columns
    ]


def _check_one_row(text: str, name: str, fmt: str) -> None:
    """Refuse a detected labels or clusters file of one line of comma-, semicolon- or
    TAB-separated fields: a row of labels, never read as one label or one cluster in silence."""
    lines = list(itertools.islice(_DATA_LINE.finditer(text), 2))
    if len(lines) != 1 or fmt == "pairs":  # one element<TAB>cluster line: one element
        return
    line = lines[0].group().strip()
    for sep, word in ((",", "comma"), (";", "semicolon"), ("\t", "TAB")):
        n = len(line.split(sep))
        if n >= 2:
            one = "one label" if fmt == "labels" else "one cluster"
            raise InvalidFileError(
                name, text.count("\n", 0, lines[0].start()) + 1,
                f"one line of {n} {word}-separated fields, which is {one}: a labels file holds "
                f"one label per line (put each on its own line, e.g. tr {sep!r} '\\n'); pass "
                f"--input-format {fmt} to read the line as {one}",
            )


def _is_utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:  # pragma: no cover - _decode named it already
        return False


def _parse(
    text: str, path: str, fmt: str, input_format: str, column: str | None,
    id_column: str | None, strict_columns: bool, raw: bytes | None = None,
) -> Clustering:
    """The clustering of ``text`` in format ``fmt`` (by pyarrow where it reads it alike)."""
    name = _display_name(path)
    if (column is not None or id_column is not None) and strict_columns:
        raise InvalidFileError(
            name, None, f"--column/--id-column apply to csv/tsv input, not {fmt}"
        )
    if fmt == "json":
        return _parse_json(text, name)
    if fmt == "labels":
        arrow = _arrow() if len(text) >= VECTOR_MIN_CHARS else None
        return (arrow and _parse_labels_arrow(text, name, arrow[0], raw)) or _parse_labels(
            text, name)
    arrow = _vectorized(text)
    try:
        keyed = _parse_pairs_arrow if fmt == "pairs" else _parse_clusters_arrow
        return (arrow and keyed(text, name, *arrow)) or _parse_keyed(text, name, fmt)
    except InvalidFileError:
        if fmt == "clusters" and input_format == "auto":
            _check_near_pairs(text, name)  # a pairs file with a bad line: say which
        raise


def _finish(result: Clustering, na: str, header: bool | None) -> Clustering:
    """The reading rules after parsing: no elements, a header read as data, missing labels."""
    name, fmt = result.source, result.format
    if result.n == 0:
        raise InvalidFileError(name, 1, f"empty: no elements found (read as {fmt})")
    if header is None and fmt in _TEXT_FORMATS:
        _check_no_header(result)
    if na != "keep":
        # Check each distinct label once: fast even for millions of elements.
        bad = {lab for lab in _distinct(result.labels) if lab is None or _is_na(lab)}
        if bad and na == "error":
            i = int(np.argmax(_in(result.labels, bad)))
            lab = result.labels[i]
            line = result.line_of(i)
            what = "empty label" if lab is None or not lab.strip() else f"missing label {lab!r}"
            if fmt == "labels" and lab == "":
                what = f"line {line} is empty (a blank line in a labels file is a missing label)"
            problem = (
                f"{what}; every element needs a cluster (--unassigned drop leaves it out, "
                "singletons or cluster give it one; --na keep treats it as a label)"
            )
            if line is None:
                problem = f"{result.where(i)}: {problem}"
            raise InvalidFileError(name, line, problem)
        if bad:
            labels = (
                _null_where(result.labels, bad) if isinstance(result.labels, Column)
                else [None if lab in bad else lab for lab in result.labels]
            )
            blank = np.asarray(result.lines)[_in(result.labels, {""})] if (
                "" in bad and fmt == "labels") else ()
            result = replace(result, labels=labels, blank_lines=frozenset(map(int, blank)))
    return result


# --------------------------------------------------------------------------- cells files

#: The largest count (and number of elements) a cells file may hold: numpy's int64.
MAX_COUNT = 2**63 - 1


@dataclass(frozen=True)
class Cells:
    """The cells ``(label_a, label_b, count)`` of a cells file, labels as written.

    ``labels_a[i]`` is ``None`` where the label is missing (:data:`NA_STRINGS`, read with
    ``na="drop"``); ``lines[i]`` is the line of cell ``i``.
    """

    source: str
    labels_a: list[str | None]
    labels_b: list[str | None]
    counts: list[int]
    lines: list[int]


def _cell_fields(line: str, delimiter: str, name: str, number: int) -> list[str]:
    """The fields of one line of a cells file: csv quoting rules, as csv/tsv inputs read them."""
    if '"' not in line:
        return line.split(delimiter)
    try:
        return next(csv.reader([line], delimiter=delimiter, strict=True))
    except csv.Error as exc:
        raise InvalidFileError(
            name, number, f"malformed csv (an unbalanced quote?): {exc}"
        ) from None


def _count(text: str) -> int | None:
    """The count written as ``text`` (ASCII digits only), else None."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def _is_word(text: str) -> bool:
    """Whether a count field is a word (a header's column name), not a malformed number."""
    try:
        float(text)
    except ValueError:
        return bool(text.strip())
    return False


def _count_problem(text: str) -> str:
    text = text.strip()
    if not text:
        return "empty count; every cell needs a non-negative integer count"
    if text.startswith("-") and _count(text[1:]) is not None:
        return f"count must be non-negative; got {text}"
    return f"count must be an integer; got {text!r}"


def read_cells(
    path: str,
    *,
    encoding: str = "utf-8",
    header: bool | None = None,
    na: str = "drop",
    stdin: IO[bytes] | None = None,
    delimiter: str | None = None,
) -> Cells:
    """Read a cells file: ``label_a<TAB>label_b<TAB>count`` lines (or commas, csv quoting).

    The file is read as the text formats are (gzip, encoding, byte-order mark, ``#`` comments,
    blank lines). Labels are strings as written (stripped), never converted: ``01`` and ``1``
    are different labels; missing ones (:data:`NA_STRINGS`) are ``None`` unless ``na="keep"``.
    ``header``: True skips the first data line, False reads it as a cell; None (no header)
    refuses a first line whose count alone is not an integer (it looks like a header). Every
    other line needs a count of ASCII digits below 2**63: errors name the file and line.
    ``delimiter``: the field separator (default: TAB for .tsv/.tab, comma for .csv, else TAB
    if the first line holds one, else comma).

    Examples
    --------
    >>> import io
    >>> c = read_cells("-", stdin=io.BytesIO(b'01,x,2\\n1,"y,z",3\\nNA,x,1\\n'))
    >>> c.labels_a, c.labels_b, c.counts, c.lines
    (['01', '1', None], ['x', 'y,z', 'x'], [2, 3, 1], [1, 2, 3])
    """
    if na not in ("keep", "drop"):
        raise InvalidInputError(f"`na` must be 'keep' or 'drop'; got {na!r}")
    name = _display_name(path)
    text = _decode(_read_bytes(path, stdin), name, encoding)
    lines = [  # not stripped: a trailing TAB ends an empty field
        (i, raw.rstrip("\r")) for i, raw in enumerate(_split_lines(text), 1)
        if raw.strip() and not raw.lstrip().startswith("#")
    ]
    if header and lines:
        lines = lines[1:]
    if not lines:
        raise InvalidFileError(name, None, "no cells (label_a, label_b, count lines)")
    delimiter = delimiter or _DELIMITERS.get(_by_name(path))  # type: ignore[arg-type]
    if delimiter is None:
        delimiter = "\t" if "\t" in lines[0][1] else ","
    labels_a: list[str | None] = []
    labels_b: list[str | None] = []
    counts: list[int] = []
    numbers: list[int] = []
    missing = (lambda label: label) if na == "keep" else (
        lambda label: None if label.lower() in NA_STRINGS else label
    )
    for number, line in lines:
        fields = _cell_fields(line, delimiter, name, number)
        if len(fields) != 3:
            raise InvalidFileError(
                name, number, f"expected 3 fields (label_a, label_b, count); got {len(fields)}"
            )
        count = _count(fields[2])
        if count is None:
            problem = _count_problem(fields[2])
            if header is None and not counts and len(lines) > 1 and _is_word(fields[2]) and all(
                _count(_cell_fields(rest, delimiter, name, at)[-1]) is not None
                for at, rest in lines[1:]
            ):
                problem = (
                    f"{line!r} looks like a header: its count is not an integer while every "
                    "other line's is; pass --header to skip the first line (--no-header reads "
                    "it as a cell)"
                )
            raise InvalidFileError(name, number, problem)
        if count > MAX_COUNT:
            raise InvalidFileError(
                name, number, f"count {count} is too large: at most 2**63 - 1 elements"
            )
        labels_a.append(missing(fields[0].strip()))
        labels_b.append(missing(fields[1].strip()))
        counts.append(count)
        numbers.append(number)
    if sum(counts) > MAX_COUNT:
        raise InvalidFileError(name, None, "the counts add up to more than 2**63 - 1 elements")
    return Cells(name, labels_a, labels_b, counts, numbers)


# --------------------------------------------------------------------------- aligning


@dataclass(frozen=True)
class UnionPair:
    """Labels of two clusterings on the union of their elements, in the same order.

    ``labels_a[i]`` is ``None`` where element ``i`` is unassigned in ``a``: a missing label
    (read with ``na="drop"``), a label in ``unassigned_labels``, or an element that only ``b``
    names. ``index_a[i]`` is the element's index in ``a`` (-1 when ``a`` lacks it); likewise
    for ``b``. ``elements`` are the element ids, or ``None`` when both inputs are positional.
    """

    labels_a: list[str | None]
    labels_b: list[str | None]
    index_a: Sequence[int]
    index_b: Sequence[int]
    elements: list[str] | None


def union(
    a: Clustering,
    b: Clustering,
    *,
    line_ids: int | None = None,
    unassigned_labels: Iterable[str] = (),
) -> UnionPair:
    """Match the elements of ``a`` and ``b``: by position, or by id on the union of their ids.

    Both positional (labels, json list): matched by position, lengths must agree. Both with
    element ids: ``a``'s elements in its order, then those only ``b`` names. One of each: an
    error unless ``line_ids`` (0 or 1) gives the positional input the ids ``line_ids,
    line_ids + 1, ...``. Labels in ``unassigned_labels`` become ``None`` (unassigned).

    Examples
    --------
    >>> a = Clustering("a", "pairs", ["x", "-1", "x"], ["e1", "e2", "e3"], [1, 2, 3])
    >>> b = Clustering("b", "pairs", ["1", "2"], ["e3", "e9"], [1, 2])
    >>> pair = union(a, b, unassigned_labels=["-1"])
    >>> pair.elements, pair.labels_a, pair.labels_b
    (['e1', 'e2', 'e3', 'e9'], ['x', None, 'x', None], [None, None, '1', '2'])
    """
    ea, eb = a.elements, b.elements
    if (ea is None) != (eb is None):
        if line_ids is None:
            pos, keyed = (a, b) if ea is None else (b, a)
            raise InvalidFileError(
                pos.source,
                pos.line_of(0),
                f"gives labels by position, but {keyed.source} names its elements "
                f"({keyed.format} format); pass --line-ids 0 (or 1) if line k of "
                f"{pos.source} is element k-1 (or k), or give both files element ids",
            )
        if ea is None:
            ea = [str(i + line_ids) for i in range(a.n)]
        else:
            eb = [str(i + line_ids) for i in range(b.n)]
    if ea is not None and eb is not None and (isinstance(ea, Column) or isinstance(eb, Column)):
        return _union_arrow(a.labels, b.labels, ea, eb, set(unassigned_labels))
    if ea is None or eb is None:
        if a.n != b.n:
            longer, shorter = (a, b) if a.n > b.n else (b, a)
            line = longer.line_of(shorter.n)
            blank = all(longer.line_of(i) in longer.blank_lines for i in range(shorter.n, longer.n))
            raise InvalidFileError(
                longer.source,
                line,
                (f"line {line} is empty, and a blank line is a missing label: " if blank else "")
                + f"{longer.source} has {longer.n} labels but {shorter.source} has {shorter.n}; "
                "labels are matched by position, so both need one label per element (a "
                "header line counts as a label unless --header skips the first line of "
                "every input)",
            )
        la, lb = a.labels, b.labels  # read, never written: no copies of a million labels
        index_a = index_b = range(a.n)
        elements = None
    else:
        position = {e: i for i, e in enumerate(ea)}
        index_b_of = {e: j for j, e in enumerate(eb)}
        extra = [e for e in eb if e not in position]
        elements = list(ea) + extra
        index_a = list(range(a.n)) + [-1] * len(extra)
        index_b = [index_b_of.get(e, -1) for e in elements]
        la = list(a.labels) + [None] * len(extra)
        lb = [None if j < 0 else b.labels[j] for j in index_b]
    marks = set(unassigned_labels)
    if marks and isinstance(la, Column) and isinstance(lb, Column):
        la, lb = _null_where(la, marks), _null_where(lb, marks)
    elif marks:
        la = [None if x in marks else x for x in la]
        lb = [None if x in marks else x for x in lb]
    return UnionPair(la, lb, index_a, index_b, elements)


def _arrow_strings(values: Sequence[str | None], pa: Any) -> Any:
    """A pyarrow large_string array of a column or a list."""
    array = values.array if isinstance(values, Column) else pa.array(values, pa.large_string())
    if hasattr(array, "dictionary"):
        array = array.dictionary_decode()
    return array.cast(pa.large_string())


def _union_arrow(
    la: Sequence[str | None], lb: Sequence[str | None], ea: Sequence[str], eb: Sequence[str],
    marks: set[str],
) -> UnionPair:
    """:func:`union` of two keyed inputs by pyarrow's hash indexers (no dict of ids)."""
    pa, pc = _arrow()
    ea, eb = _arrow_strings(ea, pa), _arrow_strings(eb, pa)
    la, lb = _arrow_strings(la, pa), _arrow_strings(lb, pa)
    only_b = pc.is_null(pc.index_in(eb, value_set=ea))
    extra = eb.filter(only_b)
    elements = pa.concat_arrays([ea, extra])
    index_a = np.concatenate([np.arange(len(ea)), np.full(len(extra), -1)])
    index_b = pc.index_in(elements, value_set=eb).fill_null(-1).to_numpy(zero_copy_only=False)
    labels_a = pa.concat_arrays([la, pa.nulls(len(extra), pa.large_string())])
    labels_b = lb.take(pa.array(index_b, mask=index_b < 0))
    if marks:
        values = pa.array(sorted(marks), pa.large_string())
        labels_a = pc.if_else(pc.is_in(labels_a, value_set=values), None, labels_a)
        labels_b = pc.if_else(pc.is_in(labels_b, value_set=values), None, labels_b)
    return UnionPair(Column(labels_a), Column(labels_b), index_a, index_b, Column(elements))


def label_codes(labels: Sequence[str | None]) -> np.ndarray | None:
    """Codes of a pyarrow column's labels in sorted label order, -1 where unassigned.

    None for a list: the labels themselves go to validation. A column's codes carry the same
    identity (equal strings, equal codes) and order (sorted strings) as validation gives them.
    """
    if not isinstance(labels, Column):
        return None
    pa, pc = _arrow()
    array = labels.array
    if not hasattr(array, "dictionary"):  # matched by id: as a dictionary of its labels
        array = pc.dictionary_encode(_arrow_strings(labels, pa))
    distinct = pc.dictionary_encode(array.dictionary.cast(pa.large_string()))  # its labels once
    rank = np.empty(len(distinct.dictionary) + 1, dtype=np.int64)  # rank[-1]: -1 stays
    rank[_ints(pc.array_sort_indices(distinct.dictionary))] = np.arange(len(rank) - 1)
    rank[-1] = -1
    indices = _ints(array.indices, fill=-1)
    if len(rank) - 1 == len(array.dictionary) and np.array_equal(
        rank[:-1], np.arange(len(rank) - 1)
    ):  # distinct labels in sorted order (as the readers make them): the codes as they are
        return indices
    lookup = _ints(distinct.indices).astype(np.int64)
    return rank[np.append(lookup, -1)[indices]]


def check_assigned(pair: UnionPair, a: Clustering, b: Clustering) -> None:
    """Raise an :class:`~chanceclust.exceptions.InvalidFileError` at the first unassigned element.

    For ``--unassigned raise``: the message names the file and line of the element.

    Examples
    --------
    >>> a = Clustering("a", "labels", ["x", None], None, [1, 2])
    >>> try:  # the class is named by its module, which differs by pytest version: match text
    ...     check_assigned(union(a, a), a, a)
    ... except InvalidFileError as error:
    ...     print(error)
    a:2: element 2 has no cluster (missing label); ...
    """
    counts = [pair.labels_a.count(None), pair.labels_b.count(None)]  # C loops: fast
    if not any(counts):
        return
    if isinstance(pair.labels_a, Column):
        _, pc = _arrow()
        either = pc.or_(pair.labels_a.array.is_null(), pair.labels_b.array.is_null())
        i = int(np.argmax(either.to_numpy(zero_copy_only=False)))
    else:
        i = next(
            i
            for i, (x, y) in enumerate(zip(pair.labels_a, pair.labels_b, strict=True))
            if x is None or y is None
        )
    side, index, other, other_index = (
        (a, pair.index_a, b, pair.index_b)
        if pair.labels_a[i] is None
        else (b, pair.index_b, a, pair.index_a)
    )
    element = f"element {pair.elements[i]!r}" if pair.elements is not None else f"element {i + 1}"
    header = side.header
    if index[i] < 0 and header and header.taken and pair.elements[i] in header.fields:
        source, where, why = side.source, header.line, (  # its line was read as the header
            f"absent from {side.source}, whose line {header.line} was taken as the header; "
            "--no-header reads it as data")
    elif index[i] < 0:  # only the other input names it: point at its line there
        source, where, why = other.source, other.line_of(other_index[i]), (
            f"absent from {side.source}"
        )
    else:
        label = side.labels[index[i]]
        why = "missing label" if label is None else f"label {label!r} is an --unassigned-label"
        source, where = side.source, side.line_of(index[i])
        if label is None and where in side.blank_lines:
            why = f"line {where} is empty"
    raise InvalidFileError(
        source,
        where,
        f"{element} has no cluster ({why}); {counts[0]} element(s) of {a.source} and "
        f"{counts[1]} of {b.source} are unassigned. {choose_policy('--unassigned')}",
    )


def factorize(labels: Sequence[str]) -> np.ndarray:
    """Integer codes 0, 1, ... in order of first appearance (a fast stand-in for string labels).

    Examples
    --------
    >>> factorize(["b", "a", "b", "c"]).tolist()
    [0, 1, 0, 2]
    """
    if isinstance(labels, Column):  # pyarrow's encoding: also in order of first appearance
        _, pc = _arrow()
        return pc.dictionary_encode(labels.array).indices.to_numpy().astype(np.int64)
    codes = {label: i for i, label in enumerate(dict.fromkeys(labels))}
    return np.fromiter(map(codes.__getitem__, labels), dtype=np.int64, count=len(labels))
