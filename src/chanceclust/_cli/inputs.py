"""Reading the subcommands' inputs: clustering files, cells files and Parquet datasets.

Each error is an :class:`~chanceclust.exceptions.InvalidFileError` naming the file (and line),
or a :class:`~chanceclust._cli.options.UsageError` naming the options: exit status 2.
"""

from __future__ import annotations

import argparse
import fnmatch
import glob
import os
from typing import Any

from chanceclust._cli.options import PROG, UsageError, missing_extra, note
from chanceclust._validation import check_unassigned
from chanceclust.exceptions import InvalidFileError
from chanceclust.io import Clustering, check_assigned, label_codes, read_clusterings, union

_PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")


# --------------------------------------------------------------------------- clustering files


def read_inputs(args: argparse.Namespace, paths: list[str]) -> list[Clustering]:
    """The clusterings of ``paths``, read with the input options of ``args``."""
    if sum(p == "-" for p in paths) > 1:
        raise UsageError("only one input can be '-' (standard input)")
    check_header_of(args, paths)
    columns = args.column or []
    if len(columns) not in (0, 1, len(paths)):
        raise UsageError(
            f"--column given {len(columns)} times for {len(paths)} inputs: give it once (for "
            "every input) or once per input"
        )
    per_input = len(columns) == len(paths)
    out: list[Clustering] = []
    for i, path in enumerate(paths):
        if len(out) > i:
            continue  # read with the input before it: two columns of one table
        chosen = [columns[i] if per_input else (columns[0] if columns else None)]
        if per_input and i + 1 < len(paths) and paths[i + 1] == path:
            chosen.append(columns[i + 1])  # one table, read once for both
        out += read_clusterings(
            path,
            chosen,
            input_format=args.input_format,
            id_column=args.id_column,
            encoding=args.encoding,
            na="keep" if args.na == "keep" else "drop",  # --unassigned decides
            strict_columns=(per_input and len(paths) > 1) or len(paths) == 1,
            header=header_of(args, path),
            delimiter=args.delimiter,
        )
    for source, header in {c.source: c.header for c in out if c.header is not None}.items():
        note(args, f"{source}: {header.describe()}")
    if (columns or args.id_column) and not any(c.format in ("csv", "tsv") for c in out):
        raise UsageError("--column and --id-column apply to csv/tsv inputs; none was read as one")
    return out


def header_of(args: argparse.Namespace, path: str) -> bool | None:
    """Whether input ``path`` has a header line: --header-of names it, else --header/--no-header."""
    named = getattr(args, "header_of", None) or []
    return True if path in named else args.header


def check_header_of(args: argparse.Namespace, paths: list[str]) -> None:
    """Refuse a --header-of FILE that is none of the inputs (a typo would do nothing)."""
    for path in getattr(args, "header_of", None) or []:
        if path not in paths:
            raise UsageError(
                f"--header-of {path!r} is not one of the inputs ({', '.join(map(repr, paths))})"
            )


def aligned(args: argparse.Namespace, a: Clustering, b: Clustering) -> Any:
    """The validated :class:`~chanceclust._validation.Clusterings` of ``a`` and ``b`` on the
    same elements, after --unassigned: :func:`results.contingency` counts its table without
    validating the labels again.

    Stores what the policy did on the namespace (`unassigned_report`) and notes it on stderr.
    """
    from chanceclust._tables import encoding_threads
    from chanceclust._validation import validate_clusterings

    pair = union(a, b, line_ids=args.line_ids, unassigned_labels=args.unassigned_label or ())
    if check_unassigned(args.unassigned).refuses:
        check_assigned(pair, a, b)  # names the file and line of the first one
    codes = [label_codes(pair.labels_a), label_codes(pair.labels_b)]
    if codes[0] is not None and codes[1] is not None:  # keyed files read by pyarrow: codes
        c = validate_clusterings(*codes, unassigned=args.unassigned, unassigned_label=-1,
                                 workers=encoding_threads(None, *codes))
    else:
        c = validate_clusterings(pair.labels_a, pair.labels_b, unassigned=args.unassigned)
    described = c.report.describe(a.source, b.source)
    if described:
        note(args, f"{a.source} vs {b.source}: {described}")
    args.unassigned_report = c.report
    return c


# --------------------------------------------------------------------------- compare and table


def is_large(args: argparse.Namespace) -> bool:
    """Whether ``compare``/``table`` read a table (cells, Parquet, --histograms), not A B."""
    parquet = args.a is not None and (args.input_format == "parquet" or _is_parquet(args.a))
    if args.contingency or parquet or getattr(args, "histograms", False):
        return True
    pair_paths(args)  # both clusterings are given
    if args.engine == "dask" or args.scheduler:
        raise UsageError("--engine dask and --scheduler apply to Parquet input")
    return False


def pair_paths(args: argparse.Namespace) -> list[str]:
    """A and B, or A twice where one csv/tsv table holds both (A --column X --column Y)."""
    if args.a is not None and args.b is None and len(args.column or []) == 2:
        return [args.a, args.a]
    if args.a is None or args.b is None:
        missing = "A, B" if args.a is None else "B"
        raise UsageError(f"the following arguments are required: {missing} (or --contingency "
                         f"CELLS) (see '{PROG} {args.command} --help')")
    return [args.a, args.b]


def large_table(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The PartialTable of the inputs (cells file, Parquet, or two label files) and its header."""
    from chanceclust.summary import partial_table

    if args.contingency:
        if args.a is not None:
            raise UsageError("give either --contingency CELLS or the clusterings A B, not both")
        check_header_of(args, [args.contingency])
        table = read_cells(args, args.contingency)
        source = args.contingency
    elif args.a is not None and (args.input_format == "parquet" or _is_parquet(args.a)):
        if args.b is not None:
            raise UsageError(
                "Parquet input: give one dataset A holding both clusterings, with "
                "--column TRUE --column PRED"
            )
        columns = args.column or []
        if len(columns) != 2:
            raise UsageError(
                "Parquet input needs the two label columns: --column TRUE --column PRED"
            )
        table = _parquet_table(args, args.a, (columns[0], columns[1]))
        source = f"{args.a} [{columns[0]} vs {columns[1]}]"
    else:
        a, b = read_inputs(args, pair_paths(args))
        c = aligned(args, a, b)
        table = partial_table(c.codes_true, c.codes_pred)
        source = f"{a.source} vs {b.source}"
    k_a, k_b = table.shape
    meta = {
        "source": source,
        "n": table.n,
        "clusters_a": k_a,
        "clusters_b": k_b,
        "cells": table.nnz,
        "summary": f"# {source}: {table.n} elements, {k_a} x {k_b} clusters, "
        f"{table.nnz} non-zero cells",
    }
    return table, meta


#: The most singleton clusters ``--unassigned singletons`` makes of a cells file's unassigned
#: elements (each is a row or column of the table).
MAX_CELL_SINGLETONS = 10**7


def read_cells(args: argparse.Namespace, path: str) -> Any:
    """The PartialTable of a cells file, with --unassigned and --unassigned-label applied.

    Labels keep their identity as written (codes by hashing, never a cast); a missing label or
    one given by --unassigned-label makes the cell's elements unassigned on that side, and the
    policy applies to them as to the elements of two clusterings: ``raise`` names the line,
    ``drop`` leaves the cell out, ``singletons`` makes each element of the cell its own cluster
    (at most :data:`MAX_CELL_SINGLETONS` of them), ``cluster`` puts them in one cluster per side.
    """
    import numpy as np

    from chanceclust._validation import UnassignedReport, check_unassigned, choose_policy
    from chanceclust.io import read_cells as read
    from chanceclust.summary import PartialTable

    cells = read(
        path, encoding=args.encoding, header=header_of(args, path),
        na="keep" if args.na == "keep" else "drop", delimiter=args.delimiter,
    )
    marks = set(args.unassigned_label or ())
    sides = [
        [None if label in marks else label for label in labels] if marks else labels
        for labels in (cells.labels_a, cells.labels_b)
    ]
    unassigned = [
        sum(c for label, c in zip(labels, cells.counts, strict=True) if label is None)
        for labels in sides
    ]
    policy = check_unassigned(args.unassigned)
    if any(unassigned) and policy.refuses:
        i = next(i for i in range(len(cells.counts)) if None in (sides[0][i], sides[1][i]))
        side = "label_a" if sides[0][i] is None else "label_b"
        written = (cells.labels_a if side == "label_a" else cells.labels_b)[i]
        why = "missing label" if written is None else (
            f"label {written!r} is an --unassigned-label")
        raise InvalidFileError(
            cells.source, cells.lines[i],
            f"the cell's {cells.counts[i]} element(s) have no cluster in {side} ({why}); "
            f"{unassigned[0]} element(s) are unassigned in label_a and {unassigned[1]} in "
            f"label_b. {choose_policy('--unassigned')}",
        )
    singles = sum(
        c for a, b, c in zip(*sides, cells.counts, strict=True) if a is None or b is None
    )
    if policy.singletons and singles > MAX_CELL_SINGLETONS:
        raise UsageError(
            f"--unassigned singletons on {cells.source} would make {singles} singleton "
            f"clusters (one per unassigned element; at most {MAX_CELL_SINGLETONS}): a cells "
            "file holds counts, not elements; use --unassigned drop or cluster"
        )
    codes: list[list[int]] = [[], []]
    counts: list[int] = []
    known: list[dict[str, int]] = [{}, {}]
    fresh = [0, 0]  # codes of clusters made for unassigned elements: negative, never a label's

    def code(side: int, label: str | None) -> int:
        if label is None:  # 'cluster': one per side
            return -1
        return known[side].setdefault(label, len(known[side]))

    for a, b, count in zip(*sides, cells.counts, strict=True):
        if (a is None or b is None) and policy.drops:
            continue
        if (a is None or b is None) and policy.singletons:
            for side, label in ((0, a), (1, b)):
                if label is None:
                    codes[side] += range(-2 - fresh[side], -2 - fresh[side] - count, -1)
                    fresh[side] += count
                else:
                    codes[side] += [code(side, label)] * count
            counts += [1] * count
            continue
        codes[0].append(code(0, a))
        codes[1].append(code(1, b))
        counts.append(count)
    report = UnassignedReport(
        policy.name if any(unassigned) else "raise", unassigned[0], unassigned[1],
        singles if policy.drops else 0, sum(unassigned) if policy.reassigns else 0,
    )
    described = report.describe("label_a", "label_b")
    if described:
        note(args, f"{cells.source}: {described}")
    n = sum(counts)
    if n == 0:  # as for two clusterings: one element is a table (the measures' convention)
        raise InvalidFileError(cells.source, None, "no element in the cells (every count is 0)")
    return PartialTable.from_cells(
        *(_in_label_order(codes[side], known[side]) for side in (0, 1)),
        np.asarray(counts, dtype=np.int64),
    )


def _in_label_order(codes: list[int], known: dict[str, int]) -> Any:
    """``codes`` renumbered in the order of their labels: integers by value, else as strings.

    The table's rows then come in the order the labels files' path gives them (the sums of a
    measure in the same order, the same last bits).
    """
    import numpy as np

    labels = list(known)
    numeric = all(label.lstrip("-").isascii() and label.lstrip("-").isdigit()
                  for label in labels)
    order = sorted(range(len(labels)), key=(
        (lambda i: (int(labels[i]), labels[i])) if numeric else labels.__getitem__))
    rank = np.empty(len(labels) + 1, dtype=np.int64)  # codes < 0 (unassigned) stay as they are
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(labels))
    array = np.asarray(codes, dtype=np.int64)
    return np.where(array >= 0, rank[np.maximum(array, 0)], array)


# --------------------------------------------------------------------------- Parquet


def _is_parquet(path: str) -> bool:
    base = path.rstrip("/")
    if base.endswith(_PARQUET_SUFFIXES) or any(f"*{s}" in base for s in _PARQUET_SUFFIXES):
        return True
    return os.path.isdir(base) and any(
        f.endswith(_PARQUET_SUFFIXES) for _, _, files in os.walk(base) for f in files
    )


def _parquet_table(args: argparse.Namespace, source: str, columns: tuple[str, str]) -> Any:
    marks = _typed_marks(args.unassigned_label or ())
    if args.engine == "dask":
        try:
            from chanceclust import dask as ccd
        except ImportError:
            raise missing_extra("--engine dask", "dask") from None
        policy = {"unassigned": args.unassigned, "unassigned_label": marks or None}
        if args.scheduler:  # reached here, so that its error names the CLI's options
            with dask_client(args):
                return ccd.contingency_table(source, columns, **policy)
        return ccd.contingency_table(source, columns, **policy)
    if args.scheduler:
        raise UsageError("--scheduler needs --engine dask")
    return read_parquet_table(source, columns, unassigned=args.unassigned, marks=marks)


def _typed_marks(texts: Any) -> frozenset[Any]:
    """--unassigned-label values for typed columns: the text, and the number it spells.

    A label given on the command line is text; in a Parquet column of integers or floats the
    same label is a number, so both forms mark an element as unassigned.
    """
    marks: set[Any] = set()
    for text in texts:
        marks.add(text)
        for kind in (int, float):
            try:
                marks.add(kind(text))
            except ValueError:
                pass
    return frozenset(marks)


def dask_client(args: argparse.Namespace) -> Any:
    """A distributed Client of --scheduler (reached within --scheduler-timeout), else a local one.

    An unreachable scheduler is the user's error: exit 2 naming the address.
    """
    try:
        from distributed import Client
    except ImportError:
        raise missing_extra("--engine dask", "distributed") from None
    if not args.scheduler:
        return Client(processes=True)
    try:
        return Client(args.scheduler, timeout=args.scheduler_timeout)
    except (OSError, TimeoutError, ValueError) as error:
        raise UsageError(
            f"--scheduler {args.scheduler}: no Dask scheduler reached within "
            f"{args.scheduler_timeout:g} s (--scheduler-timeout): "
            f"{' '.join(str(error).split()) or type(error).__name__}"
        ) from None


def read_parquet_table(
    source: str,
    columns: tuple[str, str],
    *,
    unassigned: str = "raise",
    marks: frozenset[Any] = frozenset(),
) -> Any:
    """The PartialTable of two columns of a Parquet dataset, read one row group at a time.

    ``source``: a file, a folder (its ``*.parquet`` files), a glob, or a URL that pyarrow's
    file systems understand (``s3://``, ``gs://``, ``hdfs://``); Spark's marker files
    (named _SUCCESS, _committed_* or *.crc) are skipped. Labels keep their identity across
    files and row groups: each distinct value gets one code by equality of Python values, so
    ``'a'`` and ``'a\\x00'`` stay apart, and integers of different kinds (int64 and uint64
    parts) are compared exactly, never through float64. Nulls, NaNs and labels in ``marks``
    are unassigned: with ``unassigned="raise"`` they are refused with the file's name (memory:
    one row group's labels plus the table and the distinct labels); under another policy the
    codes of all rows go to the library's validation, which applies it as for labels files.
    """
    from chanceclust.summary import merge_tables, partial_table

    try:
        import pyarrow as pa
        import pyarrow.fs as pafs
        import pyarrow.parquet as pq
    except ImportError:
        raise missing_extra("Parquet input", "pyarrow") from None
    files, fs = _parquet_files(source, pafs)
    keep = not check_unassigned(unassigned).refuses
    coders = [_Coder(name, marks, keep) for name in columns]
    parts: list[Any] = []
    kept: list[list[Any]] = [[], []]
    for path in files:
        try:
            with fs.open_input_file(path) as handle:
                parquet = pq.ParquetFile(handle)
                names = parquet.schema_arrow.names
                missing = [c for c in columns if c not in names]
                if missing:
                    raise InvalidFileError(
                        path, None, f"no column {missing[0]!r}; columns are {names}"
                    )
                for group in range(parquet.metadata.num_row_groups):
                    chunk = parquet.read_row_group(group, columns=list(columns))
                    codes = [
                        coder.codes(chunk.column(coder.name), path, group) for coder in coders
                    ]
                    if keep:
                        kept[0].append(codes[0])
                        kept[1].append(codes[1])
                        continue
                    if len(codes[0]):
                        parts.append(partial_table(codes[0], codes[1]))
                    if len(parts) >= 16:  # bound the memory: merge as we go
                        parts = [merge_tables(parts)]
        except (pa.ArrowException, OSError) as error:
            raise InvalidFileError(
                path, None, f"cannot read as Parquet: {' '.join(str(error).split())}"
            ) from None
    if keep and kept[0]:
        import numpy as np

        from chanceclust._validation import validate_clusterings

        c = validate_clusterings(
            np.concatenate(kept[0]), np.concatenate(kept[1]), unassigned=unassigned,
            unassigned_label=-1,
        )
        return partial_table(c.codes_true, c.codes_pred)
    if not parts:
        raise InvalidFileError(source, None, "no rows in the Parquet data")
    return merge_tables(parts)


class _Coder:
    """Integer codes of one label column across row groups: one code per distinct label.

    Distinct values are found by pyarrow's hashing; only those go through a dict of Python
    values, whose equality is the label identity of the library's labels (exact integers of
    any kind, strings and bytes with every character).
    """

    def __init__(self, name: str, marks: frozenset[Any] = frozenset(), keep: bool = False) -> None:
        self.name = name
        self.marks = marks  # labels that mark an element unassigned
        self.keep = keep  # unassigned elements get code -1 (else they are refused)
        self.known: dict[Any, int] = {}

    def codes(self, column: Any, path: str, group: int) -> Any:
        import numpy as np
        import pyarrow as pa

        array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
        if pa.types.is_dictionary(array.type):
            array = array.dictionary_decode()
        if pa.types.is_integer(array.type) and not array.null_count:
            return self._integer_codes(array, path, group)
        import pyarrow.compute as pc
        missing = array.is_null()
        if pa.types.is_floating(array.type):
            missing = pc.or_(missing, pc.fill_null(pc.is_nan(array), False))
        bad = int(pc.sum(missing).as_py() or 0)
        if bad and not self.keep:
            what = "missing or NaN value(s)" if pa.types.is_floating(array.type) else (
                "missing value(s)")
            raise InvalidFileError(
                path, None, f"column {self.name!r} has {bad} {what} in row group {group}; "
                "every element needs a cluster (or choose --unassigned drop, singletons or "
                "cluster)",
            )
        uniques = pc.unique(pc.filter(array, pc.invert(missing)))
        local = pc.index_in(array, value_set=uniques).to_numpy(zero_copy_only=False)
        lookup = self._lookup(uniques.to_pylist(), path, group)
        codes = np.full(len(array), -1, dtype=np.int64)
        present = ~np.asarray(missing.to_numpy(zero_copy_only=False), dtype=bool)
        codes[present] = lookup[np.asarray(local)[present].astype(np.int64)]
        return codes

    def _lookup(self, values: list[Any], path: str, group: int) -> Any:
        """The codes of a row group's distinct ``values`` (-1: an --unassigned-label)."""
        import numpy as np

        lookup = np.fromiter(
            (-1 if v in self.marks else self.known.setdefault(v, len(self.known))
             for v in values),
            dtype=np.int64, count=len(values),
        )
        if lookup.size and lookup.min() < 0 and not self.keep:
            first = next(v for v in values if v in self.marks)
            raise InvalidFileError(
                path, None, f"column {self.name!r} has elements labelled {first!r} "
                f"(--unassigned-label) in row group {group}; choose --unassigned drop, "
                "singletons or cluster",
            )
        return lookup

    def _integer_codes(self, array: Any, path: str, group: int) -> Any:
        """:meth:`codes` of an integer column without nulls, by numpy (no pyarrow kernel).

        The distinct values (by one bincount where their range is compact, else a sort) go,
        in order of first appearance, through the same dict of Python ints as the kernels'
        path: the same codes, and the codes agree with those of other row groups.
        """
        import numpy as np
        import pyarrow as pa

        unsigned = pa.types.is_unsigned_integer(array.type)
        dtype = np.dtype(f"{'u' if unsigned else ''}int{array.type.bit_width}")
        values = np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array),
                               offset=array.offset * dtype.itemsize)  # fmt: skip
        if not len(values):
            return np.zeros(0, dtype=np.int64)
        low, high = int(values.min()), int(values.max())
        if high - low <= 4 * len(values) + 1024:  # compact: O(N), no sort
            shifted = (  # in int64 (int8 - low may overflow int8), uint64 as it is
                (values - np.uint64(low)).astype(np.int64) if dtype == np.uint64
                else values.astype(np.int64) - low
            )
            distinct = np.flatnonzero(np.bincount(shifted, minlength=high - low + 1))
            first = np.empty(high - low + 1, dtype=np.int64)
            first[shifted[::-1]] = np.arange(len(values) - 1, -1, -1)  # the last write wins
            firsts = first[distinct]
            found = [int(v) + low for v in distinct.tolist()]
            local = None  # each element's distinct value: shifted, through a map of the range
        else:
            distinct, firsts, local = np.unique(values, return_index=True, return_inverse=True)
            found = [int(v) for v in distinct.tolist()]
        # in order of first appearance, as pyarrow's unique() gives them: the same codes
        order = np.argsort(firsts, kind="stable")
        lookup = self._lookup([found[i] for i in order.tolist()], path, group)
        by_value = np.empty(len(order), dtype=np.int64)  # code of the k-th smallest value
        by_value[order] = lookup
        if local is not None:
            return by_value[local.ravel()]
        codes_of_range = np.full(high - low + 1, -1, dtype=np.int64)
        codes_of_range[distinct] = by_value
        return codes_of_range[shifted]  # one gather per element


def _parquet_files(source: str, pafs: Any) -> tuple[list[str], Any]:
    if "://" in source:
        fs, path = pafs.FileSystem.from_uri(source.split("*")[0].rsplit("/", 1)[0]
                                            if "*" in source else source)  # fmt: skip
        pattern = source.split("://", 1)[1] if "*" in source else None
    else:
        fs, path, pattern = pafs.LocalFileSystem(), source, None
    if pattern is None and "*" in path:
        found = sorted(glob.glob(path))
    else:
        info = fs.get_file_info(path)
        if info.type == pafs.FileType.Directory:
            selector = pafs.FileSelector(path, recursive=True)
            found = sorted(
                i.path for i in fs.get_file_info(selector)
                if i.path.endswith(_PARQUET_SUFFIXES)
                and not os.path.basename(i.path).startswith(("_", "."))
            )  # fmt: skip
            if pattern is not None:
                found = [p for p in found if fnmatch.fnmatch(p, pattern)]
        elif info.type == pafs.FileType.File:
            found = [path]
        else:
            found = []
    if len(found) > 1 or (found and found[0] != path):  # listed: leave Spark's markers out
        from chanceclust.dask import _is_marker

        found = [p for p in found if not _is_marker(p)]
    if not found:
        raise InvalidFileError(source, None, "no Parquet file found")
    return found, fs
