"""Write the CLI's results: aligned text tables, TSV and JSON (the reading side is ``io``).

Every function writes to a given text stream; nothing here reads files or computes measures.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import IO, Any

import numpy as np

from chanceclust.exceptions import InvalidInputError

__all__ = ["format_text_table", "write_clusterings", "write_rows"]


def _fmt_value(value: Any, digits: int) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return f"{value:.{digits}f}"
    return str(value)


def format_text_table(
    rows: Sequence[dict[str, Any]], columns: Sequence[str], digits: int = 6
) -> str:
    """Align ``rows`` under ``columns`` for a terminal; numbers right-aligned.

    Examples
    --------
    >>> print(format_text_table([{"measure": "ari", "value": 0.5}], ["measure", "value"]))
    measure     value
    ari      0.500000
    """
    cells = [[_fmt_value(row.get(c), digits) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[j]) for r in cells]) for j, c in enumerate(columns)]
    numeric = [
        all(isinstance(row.get(c), (int, float)) or row.get(c) is None for row in rows)
        and any(isinstance(row.get(c), (int, float)) for row in rows)
        for c in columns
    ]

    def line(values: Sequence[str]) -> str:
        out = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(out).rstrip()

    return "\n".join([line(list(columns))] + [line(r) for r in cells])


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def write_rows(
    rows: Sequence[dict[str, Any]],
    columns: Sequence[str],
    fmt: str,
    stream: IO[str],
    *,
    meta: dict[str, Any] | None = None,
    digits: int = 6,
) -> None:
    """Write result rows as an aligned text table, TSV (header, full precision) or JSON.

    JSON is one object: ``meta`` keys plus ``"results"``, a list of row objects.

    Examples
    --------
    >>> import sys
    >>> write_rows([{"a": "x", "v": 0.25}], ["a", "v"], "tsv", sys.stdout)
    a	v
    x	0.25
    """
    if fmt == "text":
        stream.write(format_text_table(rows, columns, digits) + "\n")
    elif fmt == "tsv":
        stream.write("\t".join(columns) + "\n")
        for row in rows:
            vals = [row.get(c) for c in columns]
            stream.write(
                "\t".join("" if v is None else (repr(v) if isinstance(v, float) else str(v))
                          for v in vals) + "\n"
            )
    elif fmt == "json":
        doc = dict(meta or {})
        doc["results"] = [{c: _json_value(row.get(c)) for c in columns} for row in rows]
        json.dump(doc, stream, indent=2, allow_nan=False)
        stream.write("\n")
    else:
        raise InvalidInputError(f"`fmt` must be 'text', 'tsv' or 'json'; got {fmt!r}")


def write_clusterings(samples: Sequence[Sequence[int]], fmt: str, stream: IO[str]) -> None:
    """Write sampled clusterings (integer labels, one sequence per clustering).

    ``text``: one label per line for a single clustering, else one clustering per line (labels
    separated by spaces); ``tsv``: a header ``element sample1 sample2 ...`` then one row per
    element (read back with ``--column sample2``); ``json``: a list of label lists.

    Examples
    --------
    >>> import sys
    >>> write_clusterings([[0, 1, 0]], "text", sys.stdout)
    0
    1
    0
    """
    if fmt == "json":
        json.dump([[int(x) for x in s] for s in samples], stream)
        stream.write("\n")
    elif fmt == "tsv":
        stream.write("\t".join(["element"] + [f"sample{k}" for k in range(1, len(samples) + 1)]))
        stream.write("\n")
        n = len(samples[0]) if samples else 0
        for i in range(n):
            stream.write("\t".join([str(i)] + [str(int(s[i])) for s in samples]) + "\n")
    elif fmt == "text":
        if len(samples) == 1:
            stream.write("\n".join(str(int(x)) for x in samples[0]) + "\n")
        else:
            for s in samples:
                stream.write(" ".join(str(int(x)) for x in s) + "\n")
    else:
        raise InvalidInputError(f"`fmt` must be 'text', 'tsv' or 'json'; got {fmt!r}")
