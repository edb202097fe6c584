"""Command line for large inputs: Parquet labels, cells from other engines, Dask, all pairs.

Kept apart from :mod:`chanceclust.cli`, which calls :func:`extend` once to add

* to ``compare`` and ``table``: Parquet input (``A`` a Parquet file, folder, glob or URL with
  ``--column TRUE --column PRED``), ``--contingency CELLS`` (a ``label_a<TAB>label_b<TAB>count``
  file computed elsewhere, instead of ``A B``), ``--engine dask --scheduler ADDRESS``, and to
  ``table`` ``--histograms`` (print the summary: the three histograms);
* the ``pairwise`` command: the matrix of one measure over all pairs of clusterings, in parallel
  with ``--jobs N`` or on a Dask cluster, as text, TSV or JSON, and optionally a clustered
  heatmap (``--heatmap out.png``, needs matplotlib).
"""

from __future__ import annotations

import argparse
import fnmatch
import glob
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from chanceclust import cli
from chanceclust.io import InputError, check_assigned, factorize, union

_PARQUET_SUFFIXES = (".parquet", ".parq", ".pq")


def extend(sub: Any) -> None:
    """Add the large-input options to ``compare`` and ``table``, and the ``pairwise`` command."""
    for name in ("compare", "table"):
        parser = sub.choices[name]
        for action in parser._actions:  # A and B become optional: --contingency replaces them
            if action.dest in ("a", "b") and not action.option_strings:
                action.nargs = "?"
            if action.dest == "input_format":
                action.choices = (*action.choices, "parquet")
        group = parser.add_argument_group("large inputs")
        group.add_argument(
            "--contingency",
            metavar="CELLS",
            help="instead of A B: a table of cells 'label_a<TAB>label_b<TAB>count' (csv too; "
            "a header line is skipped), as any engine's group-by-count writes it",
        )
        group.add_argument(
            "--engine",
            choices=("local", "dask"),
            default="local",
            help="where a Parquet input is counted: this process, row group by row group, or "
            "Dask (needs chanceclust[dask]; default: %(default)s)",
        )
        group.add_argument(
            "--scheduler",
            metavar="ADDRESS",
            help="Dask scheduler address (tcp://host:8786) for --engine dask; default: Dask's "
            "local threaded scheduler",
        )
        if name == "table":
            group.add_argument(
                "--histograms",
                action="store_true",
                help="print the summary instead: N and the histograms of cluster sizes and "
                "of cell counts (what every measure needs)",
            )
        parser.set_defaults(func=_large_or(parser.get_default("func"), name))
    _add_pairwise(sub)


# --------------------------------------------------------------------------- compare, table


def _large_or(original: Callable[[argparse.Namespace], int], name: str) -> Callable[..., int]:
    def run(args: argparse.Namespace) -> int:
        parquet = args.a is not None and (args.input_format == "parquet" or _is_parquet(args.a))
        if not (args.contingency or parquet or getattr(args, "histograms", False)):
            if args.a is None or args.b is None:
                raise _missing_clusterings(args)
            if args.engine == "dask" or args.scheduler:
                raise cli.UsageError("--engine dask and --scheduler apply to Parquet input")
            return original(args)
        table, meta = _large_table(args)
        if name == "compare":
            return _compare_rows(args, table, meta)
        if args.histograms:
            return _histogram_rows(args, table, meta)
        result = cli._load("chanceclust.comparison", "compare")(contingency=table)
        columns = ["measure", "model", "sided", "average_method", "value", "expected"]
        cli._out(args, cli._result_rows(result), columns, meta)
        return 0

    return run


def _missing_clusterings(args: argparse.Namespace) -> cli.UsageError:
    missing = "A, B" if args.a is None else "B"
    return cli.UsageError(
        f"the following arguments are required: {missing} (or --contingency CELLS) "
        f"(see '{cli.PROG} {args.command} --help')"
    )


def _large_table(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The PartialTable of the inputs (cells file, Parquet, or two label files) and its header."""
    from chanceclust.summary import partial_table

    if args.contingency:
        if args.a is not None:
            raise cli.UsageError("give either --contingency CELLS or the clusterings A B, not both")
        table = read_cells(args.contingency)
        source = args.contingency
    elif args.a is not None and (args.input_format == "parquet" or _is_parquet(args.a)):
        if args.b is not None:
            raise cli.UsageError(
                "Parquet input: give one dataset A holding both clusterings, with "
                "--column TRUE --column PRED"
            )
        columns = args.column or []
        if len(columns) != 2:
            raise cli.UsageError(
                "Parquet input needs the two label columns: --column TRUE --column PRED"
            )
        table = _parquet_table(args, args.a, (columns[0], columns[1]))
        source = f"{args.a} [{columns[0]} vs {columns[1]}]"
    else:
        if args.a is None or args.b is None:
            raise _missing_clusterings(args)
        a, b = cli._read_inputs(args, [args.a, args.b])
        ca, cb = cli._aligned_codes(args, a, b)
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


def _compare_rows(args: argparse.Namespace, table: Any, meta: dict[str, Any]) -> int:
    measures = cli._flatten(args.measure, ["ari", "ami"])
    models = cli._models(args)
    rows: list[dict[str, Any]] = []
    for name in measures:
        rows += cli._measure_rows(
            name, None, None, table, models, args.one_sided, args.average_method
        )
    meta["average_method"] = args.average_method
    cli._out(args, rows, ["measure", "model", "sided", "value"], meta)
    return 0


def _histogram_rows(args: argparse.Namespace, table: Any, meta: dict[str, Any]) -> int:
    summary = table.summary()
    rows = [
        {"histogram": name, "value": int(v), "count": int(c)}
        for name in ("sizes_true", "sizes_pred", "cells")
        for v, c in zip(*getattr(summary, name), strict=True)
    ]
    cli._out(args, rows, ["histogram", "value", "count"], meta)
    return 0


def read_cells(path: str) -> Any:
    """A PartialTable from a file of cells ``label_a<TAB>label_b<TAB>count`` (or commas).

    A first line whose count is not an integer is a header. Labels that are all
    integers are read as integers, else as strings. Errors name the file and line.
    """
    from chanceclust.summary import PartialTable

    name = "<stdin>" if path == "-" else path
    try:
        handle = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    except OSError as error:
        raise InputError(name, None, f"cannot read: {error.strerror or error}") from None
    a: list[str] = []
    b: list[str] = []
    counts: list[int] = []
    lines: list[int] = []
    with handle:
        for number, line in enumerate(handle, start=1):
            text = line.rstrip("\r\n")
            if not text.strip() or text.startswith("#"):
                continue
            fields = text.split("\t") if "\t" in text else text.split(",")
            if len(fields) != 3:
                raise InputError(
                    name, number, f"expected 3 fields (label_a, label_b, count); got {len(fields)}"
                )
            try:
                count = int(fields[2])
            except ValueError:
                if not counts and not a:  # a header line
                    continue
                raise InputError(
                    name, number, f"count must be an integer; got {fields[2]!r}"
                ) from None
            if count < 0:
                raise InputError(name, number, f"count must be non-negative; got {count}")
            a.append(fields[0].strip())
            b.append(fields[1].strip())
            counts.append(count)
            lines.append(number)
    if not counts:
        raise InputError(name, None, "no cells")
    return PartialTable.from_cells(_as_numbers(a), _as_numbers(b), np.asarray(counts))


def _as_numbers(labels: list[str]) -> Any:
    try:
        return np.asarray([int(x) for x in labels], dtype=np.int64)
    except (ValueError, OverflowError):
        return np.asarray(labels, dtype=object)


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
            raise cli.UsageError(f"--engine dask needs chanceclust[dask]: {error}") from None
        if args.scheduler:
            from distributed import Client

            with Client(args.scheduler) as _client:
                return ccd.contingency_table(source, columns)
        return ccd.contingency_table(source, columns)
    if args.scheduler:
        raise cli.UsageError("--scheduler needs --engine dask")
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
        raise cli.UsageError(
            "Parquet input needs pyarrow: pip install 'chanceclust[dask]' (or pyarrow)"
        ) from None
    files, fs = _parquet_files(source, pafs)
    parts: list[Any] = []
    for path in files:
        with fs.open_input_file(path) as handle:
            parquet = pq.ParquetFile(handle)
            missing = [c for c in columns if c not in parquet.schema_arrow.names]
            if missing:
                raise InputError(
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
                        raise InputError(
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
        raise InputError(source, None, "no Parquet file found")
    return found, fs


# --------------------------------------------------------------------------- pairwise


def _add_pairwise(sub: Any) -> None:
    from chanceclust.allpairs import PAIRWISE_MEASURES

    p = cli._subparser(
        sub,
        "pairwise",
        "the matrix of one measure over all pairs of clusterings (or FILES x --other)",
        f"  {cli.PROG} pairwise runs/*.txt --measure ami --model num --jobs 4 --format tsv\n"
        f"  {cli.PROG} pairwise runs/*.txt --measure ari --heatmap ari.png\n",
    )
    p.add_argument("files", metavar="FILE", nargs="+", help="clusterings of the same elements")
    p.add_argument(
        "--other",
        metavar="FILE",
        nargs="+",
        help="column clusterings: the FILE x OTHER cross matrix instead of all pairs",
    )
    p.add_argument(
        "--measure",
        choices=PAIRWISE_MEASURES,
        default="ami",
        help="the measure (default: %(default)s)",
    )
    cli._add_models(p, single=True)
    cli._add_average(p)
    g = p.add_argument_group("parallel")
    g.add_argument(
        "--jobs",
        type=cli._positive_int,
        default=1,
        metavar="N",
        help="worker processes on this machine (default: %(default)s)",
    )
    g.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="local processes (--jobs) or a Dask cluster (--scheduler; default: %(default)s)",
    )
    g.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address")
    g.add_argument(
        "--block-size", type=cli._positive_int, metavar="P", help="pairs per task (default: auto)"
    )
    p.add_argument(
        "--heatmap",
        metavar="PNG",
        help="also draw the matrix, rows and columns ordered by average-linkage clustering "
        "(needs matplotlib)",
    )
    cli._add_inputs(p)
    cli._add_output(p)
    cli._add_common(p)
    p.set_defaults(func=cmd_pairwise)


def _labelings(args: argparse.Namespace, paths: list[str]) -> tuple[list[str], list[Any]]:
    """Read clusterings and put each in the element order of the first one."""
    if args.missing == "intersect" or args.unassigned not in (None, "raise") or (
        args.unassigned_label
    ):
        raise cli.UsageError(
            "pairwise compares every element of every file: --unassigned raise (the default), "
            "no --unassigned-label and no --missing intersect"
        )
    clusterings = cli._read_inputs(args, paths)
    first = clusterings[0]
    labels = []
    for other in clusterings:
        pair = union(first, other, line_ids=args.line_ids)
        check_assigned(pair, first, other)  # names the file and line of an unlabelled element
        labels.append(factorize(pair.labels_b))
    names = [c.source for c in clusterings]
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            names[i] = f"{name} ({seen[name]})"
    return names, labels


def cmd_pairwise(args: argparse.Namespace) -> int:
    from chanceclust.allpairs import pairwise

    paths = list(args.files) + list(args.other or [])
    names, labels = _labelings(args, paths)
    m = len(args.files)
    rows_in = dict(zip(names[:m], labels[:m], strict=True))
    cols_in = dict(zip(names[m:], labels[m:], strict=True)) if args.other else None
    options = {
        "measure": args.measure,
        "model": args.model,
        "one_sided": args.one_sided,
        "average_method": args.average_method,
        "block_size": args.block_size,
    }
    if args.engine == "dask":
        from distributed import Client

        with Client(args.scheduler) if args.scheduler else Client(processes=True) as client:
            result = pairwise(rows_in, cols_in, executor=client.get_executor(), **options)
    elif args.scheduler:
        raise cli.UsageError("--scheduler needs --engine dask")
    elif args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            result = pairwise(rows_in, cols_in, executor=pool, **options)
    else:
        result = pairwise(rows_in, cols_in, **options)
    rows = [
        {"clustering": name, **dict(zip(result.other_names, map(float, values), strict=True))}
        for name, values in zip(result.names, result.values, strict=True)
    ]
    meta = {
        "measure": result.measure,
        "model": result.model,
        "one_sided": result.one_sided,
        "average_method": result.average_method,
        "n": len(labels[0]),
        "summary": f"# {result.measure}"
        + ("" if result.model is None else f" ({result.model}"
           + (", one-sided)" if result.one_sided else ")"))
        + f" of {len(labels[0])} elements, {result.shape[0]} x {result.shape[1]} clusterings",
    }  # fmt: skip
    cli._out(args, rows, ["clustering", *result.other_names], meta)
    if args.heatmap:
        _heatmap(result, args.heatmap)
        cli._note(args, f"heatmap written to {args.heatmap}")
    return 0


def _heatmap(result: Any, path: str) -> None:
    """The matrix as a PNG, rows and columns in the leaf order of average linkage."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise cli.UsageError("--heatmap needs matplotlib: pip install matplotlib") from None
    values = result.values
    rows, cols = np.arange(values.shape[0]), np.arange(values.shape[1])
    if values.shape[0] == values.shape[1] and values.shape[0] > 2 and not result.one_sided:
        from scipy.cluster.hierarchy import leaves_list, linkage
        from scipy.spatial.distance import squareform

        similarity = values if result.measure != "vi" else -values
        distance = similarity.max() - similarity
        distance = (distance + distance.T) / 2
        np.fill_diagonal(distance, 0.0)
        rows = cols = leaves_list(linkage(squareform(distance, checks=False), "average"))
    size = max(4.0, 0.25 * max(values.shape))
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    image = ax.imshow(values[np.ix_(rows, cols)], cmap="viridis", interpolation="nearest")
    ax.set_xticks(range(len(cols)), [result.other_names[i] for i in cols], rotation=90,
                  fontsize=6)  # fmt: skip
    ax.set_yticks(range(len(rows)), [result.names[i] for i in rows], fontsize=6)
    label = result.measure + ("" if result.model is None else f" ({result.model})")
    fig.colorbar(image, ax=ax, label=label)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    plt.close(fig)
