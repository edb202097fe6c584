"""Reading the subcommands' inputs: clustering files, cells files and Parquet datasets.

Each error is an :class:`~chanceclust.exceptions.InvalidFileError` naming the file (and line),
or a :class:`~chanceclust._cli.options.UsageError` naming the options: exit status 2.
"""

from __future__ import annotations

import argparse
import fnmatch
import glob
import os
import sys
from typing import Any

from chanceclust._cli.options import PROG, UsageError, note
from chanceclust.exceptions import InvalidFileError
from chanceclust.io import Clustering, check_assigned, read_clustering, union

_PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")


# --------------------------------------------------------------------------- clustering files


def read_inputs(args: argparse.Namespace, paths: list[str]) -> list[Clustering]:
    """The clusterings of ``paths``, read with the input options of ``args``."""
    if sum(p == "-" for p in paths) > 1:
        raise UsageError("only one input can be '-' (standard input)")
    columns = args.column or []
    if len(columns) not in (0, 1, len(paths)):
        raise UsageError(
            f"--column given {len(columns)} times for {len(paths)} inputs: give it once (for "
            "every input) or once per input"
        )
    out = []
    for i, path in enumerate(paths):
        per_input = len(columns) == len(paths)
        column = columns[i] if per_input else (columns[0] if columns else None)
        out.append(
            read_clustering(
                path,
                input_format=args.input_format,
                column=column,
                id_column=args.id_column,
                encoding=args.encoding,
                na="keep" if args.na == "keep" else "drop",  # --unassigned decides
                strict_columns=(per_input and len(paths) > 1) or len(paths) == 1,
                header=args.header,
            )
        )
    if (columns or args.id_column) and not any(c.format in ("csv", "tsv") for c in out):
        raise UsageError("--column and --id-column apply to csv/tsv inputs; none was read as one")
    return out


def aligned_codes(args: argparse.Namespace, a: Clustering, b: Clustering) -> tuple[Any, Any]:
    """Integer codes of ``a`` and ``b`` on the same elements, after --unassigned.

    Stores what the policy did on the namespace (`unassigned_report`) and notes it on stderr.
    """
    from chanceclust._validation import validate_clusterings

    pair = union(a, b, line_ids=args.line_ids, unassigned_labels=args.unassigned_label or ())
    if args.unassigned == "raise":
        check_assigned(pair, a, b)  # names the file and line of the first one
    c = validate_clusterings(pair.labels_a, pair.labels_b, unassigned=args.unassigned)
    if c.codes_true.shape[0] < 2:
        raise InvalidFileError(
            a.source, a.line_of(0),
            f"only {c.codes_true.shape[0]} element(s) to compare; at least 2 are needed",
        )
    described = c.report.describe(a.source, b.source)
    if described:
        note(args, f"{a.source} vs {b.source}: {described}")
    args.unassigned_report = c.report
    return c.codes_true, c.codes_pred


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
        raise _missing_clusterings(args)
    return [args.a, args.b]


def _missing_clusterings(args: argparse.Namespace) -> UsageError:
    missing = "A, B" if args.a is None else "B"
    return UsageError(
        f"the following arguments are required: {missing} (or --contingency CELLS) "
        f"(see '{PROG} {args.command} --help')"
    )


def large_table(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The PartialTable of the inputs (cells file, Parquet, or two label files) and its header."""
    from chanceclust.summary import partial_table

    if args.contingency:
        if args.a is not None:
            raise UsageError("give either --contingency CELLS or the clusterings A B, not both")
        table = read_cells(args.contingency)
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
        ca, cb = aligned_codes(args, a, b)
        table = partial_table(ca, cb)
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


def read_cells(path: str) -> Any:
    """A PartialTable from a file of cells ``label_a<TAB>label_b<TAB>count`` (or commas).

    A first line whose count is not an integer is a header. Labels that are all
    integers are read as integers, else as strings. Errors name the file and line.
    """
    import numpy as np

    from chanceclust.summary import PartialTable

    name = "<stdin>" if path == "-" else path
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise InvalidFileError(name, None, f"cannot read: {error.strerror or error}") from None
    a: list[str] = []
    b: list[str] = []
    counts: list[int] = []
    with handle:
        for number, line in enumerate(handle, start=1):
            text = line.rstrip("\r\n")
            if not text.strip() or text.startswith("#"):
                continue
            fields = text.split("\t") if "\t" in text else text.split(",")
            if len(fields) != 3:
                raise InvalidFileError(
                    name, number, f"expected 3 fields (label_a, label_b, count); got {len(fields)}"
                )
            try:
                count = int(fields[2])
            except ValueError:
                if not counts and not a:  # a header line
                    continue
                raise InvalidFileError(
                    name, number, f"count must be an integer; got {fields[2]!r}"
                ) from None
            if count < 0:
                raise InvalidFileError(name, number, f"count must be non-negative; got {count}")
            a.append(fields[0].strip())
            b.append(fields[1].strip())
            counts.append(count)
    if not counts:
        raise InvalidFileError(name, None, "no cells")
    if sum(counts) < 2:  # as for two clusterings: a measure needs two elements
        raise InvalidFileError(
            name, None, f"only {sum(counts)} element(s) in the cells; at least 2 are needed"
        )
    return PartialTable.from_cells(_as_numbers(a), _as_numbers(b), np.asarray(counts))


def _as_numbers(labels: list[str]) -> Any:
    import numpy as np

    try:
        return np.asarray([int(x) for x in labels], dtype=np.int64)
    except (ValueError, OverflowError):
        return np.asarray(labels, dtype=object)


# --------------------------------------------------------------------------- Parquet


def _is_parquet(path: str) -> bool:
    base = path.rstrip("/")
    if base.endswith(_PARQUET_SUFFIXES) or any(f"*{s}" in base for s in _PARQUET_SUFFIXES):
        return True
    return os.path.isdir(base) and any(
        f.endswith(_PARQUET_SUFFIXES) for _, _, files in os.walk(base) for f in files
    )


def _parquet_table(args: argparse.Namespace, source: str, columns: tuple[str, str]) -> Any:
    if args.engine == "dask":
        try:
            from chanceclust import dask as ccd
        except ImportError as error:  # pragma: no cover - the extra is installed in tests
            raise UsageError(f"--engine dask needs chanceclust[dask]: {error}") from None
        if args.scheduler:
            from distributed import Client

            with Client(args.scheduler) as _client:
                return ccd.contingency_table(source, columns)
        return ccd.contingency_table(source, columns)
    if args.scheduler:
        raise UsageError("--scheduler needs --engine dask")
    return read_parquet_table(source, columns)


def read_parquet_table(source: str, columns: tuple[str, str]) -> Any:
    """The PartialTable of two columns of a Parquet dataset, read one row group at a time.

    ``source``: a file, a folder (its ``*.parquet`` files), a glob, or a URL that pyarrow's
    file systems understand (``s3://``, ``gs://``, ``hdfs://``). Memory: one row group's labels
    plus the table.
    """
    from chanceclust.summary import merge_tables, partial_table

    try:
        import pyarrow.fs as pafs
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - the extra is installed in tests
        raise UsageError(
            "Parquet input needs pyarrow: pip install 'chanceclust[dask]' (or pyarrow)"
        ) from None
    files, fs = _parquet_files(source, pafs)
    parts: list[Any] = []
    for path in files:
        with fs.open_input_file(path) as handle:
            parquet = pq.ParquetFile(handle)
            missing = [c for c in columns if c not in parquet.schema_arrow.names]
            if missing:
                raise InvalidFileError(
                    path,
                    None,
                    f"no column {missing[0]!r}; columns are {parquet.schema_arrow.names}",
                )
            for group in range(parquet.metadata.num_row_groups):
                chunk = parquet.read_row_group(group, columns=list(columns))
                labels = []
                for name in columns:
                    column = chunk.column(name)
                    if column.null_count:
                        raise InvalidFileError(
                            path,
                            None,
                            f"column {name!r} has {column.null_count} missing value(s) in row "
                            f"group {group}",
                        )
                    labels.append(column.to_numpy())
                if len(labels[0]):
                    parts.append(partial_table(labels[0], labels[1]))
                if len(parts) >= 16:  # bound the memory: merge as we go
                    parts = [merge_tables(parts)]
    return merge_tables(parts)


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
    if not found:
        raise InvalidFileError(source, None, "no Parquet file found")
    return found, fs
