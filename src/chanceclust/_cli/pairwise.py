"""``chanceclust pairwise``: the matrix of one measure over all pairs of clusterings."""

from __future__ import annotations

import argparse
from typing import Any

from chanceclust._cli import inputs, options
from chanceclust._cli.options import UsageError, missing_extra, note
from chanceclust._cli.results import MEASURES, out
from chanceclust._validation import check_unassigned
from chanceclust.exceptions import InvalidFileError
from chanceclust.io import check_assigned, factorize, union


HELP = "the matrix of one measure over all pairs of clusterings (or FILES x --other)"
EXAMPLES = """\
pairwise runs/*.txt --measure ami --model num --jobs 4 --format tsv
pairwise runs/*.txt --measure ari --heatmap ari.png
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", metavar="FILE", nargs="+", help="clusterings of the same elements")
    p.add_argument(
        "--other",
        metavar="FILE",
        nargs="+",
        help="column clusterings: the FILE x OTHER cross matrix instead of all pairs",
    )
    p.add_argument(
        "--measure",
        choices=MEASURES,
        default="ami",
        help="the measure (default: %(default)s)",
    )
    options.add_models(
        p, single=True,
        one_sided="each row clustering (FILE) is a fixed reference; only the column "
        "clusterings are random",
    )
    options.add_average(p)
    g = p.add_argument_group("parallel")
    g.add_argument(
        "--jobs",
        type=options.positive_int,
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
    options.add_scheduler_timeout(g)
    g.add_argument(
        "--block-size", type=options.positive_int, metavar="P",
        help="pairs per task (default: auto)",
    )
    p.add_argument(
        "--heatmap",
        metavar="PNG",
        help="also draw the matrix, rows and columns ordered by average-linkage clustering "
        "(needs matplotlib)",
    )
    options.add_inputs(p)


def _labelings(args: argparse.Namespace, paths: list[str]) -> tuple[list[str], list[Any]]:
    """Read clusterings and put each in the element order of the first one."""
    if not check_unassigned(args.unassigned).refuses or args.unassigned_label:
        raise UsageError(
            "pairwise compares every element of every file: --unassigned raise (the default) "
            "and no --unassigned-label"
        )
    clusterings = inputs.read_inputs(args, paths)
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


def check_heatmap(path: str) -> None:
    """Refuse a --heatmap path that cannot be written, before any computation."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"--heatmap {path!r}: no folder {folder!r} to write it into")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise missing_extra("--heatmap", "matplotlib") from None
    supported = Figure().canvas.get_supported_filetypes()
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    if extension not in supported:
        raise UsageError(
            f"--heatmap {path!r}: {('.' + extension) if extension else 'no extension'} is not "
            f"an image format matplotlib writes; use one of {', '.join(sorted(supported))}"
        )


def run(args: argparse.Namespace) -> int:
    from chanceclust.allpairs import pairwise

    if args.heatmap:
        check_heatmap(args.heatmap)
    paths = list(args.files) + list(args.other or [])
    names, labels = _labelings(args, paths)
    m = len(args.files)
    rows_in = dict(zip(names[:m], labels[:m], strict=True))
    cols_in = dict(zip(names[m:], labels[m:], strict=True)) if args.other else None
    keywords = {
        "measure": args.measure,
        "model": args.model,
        "one_sided": args.one_sided,
        "average_method": args.average_method,
        "block_size": args.block_size,
    }
    if args.engine == "dask":
        with inputs.dask_client(args) as client:
            result = pairwise(rows_in, cols_in, executor=client.get_executor(), **keywords)
    elif args.scheduler:
        raise UsageError("--scheduler needs --engine dask")
    elif args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            result = pairwise(rows_in, cols_in, executor=pool, **keywords)
    else:
        result = pairwise(rows_in, cols_in, **keywords)
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
    out(args, rows, ["clustering", *result.other_names], meta)
    if args.heatmap:
        _heatmap(result, args.heatmap)
        note(args, f"heatmap written to {args.heatmap}")
    return 0


def _heatmap(result: Any, path: str) -> None:
    """The matrix as a PNG, rows and columns in the leaf order of average linkage."""
    import numpy as np

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise missing_extra("--heatmap", "matplotlib") from None
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
    try:  # bbox "tight" grows the canvas to the labels (tight_layout warns on long names)
        fig.savefig(path, dpi=150, bbox_inches="tight")
    except OSError as error:  # an unwritable --heatmap path is the user's, not a bug
        raise InvalidFileError(path, None, f"cannot write --heatmap: {error.strerror or error}"
                               ) from None
    finally:
        plt.close(fig)
