"""The CLI's measures and result rows: the measure list, rows of values, headers, writing.

:data:`MEASURES` and :func:`measure_rows` are the command line's one list of measures (what
``--measure`` accepts and which library function computes each).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from chanceclust._output import write_rows
from chanceclust.io import Clustering

#: Measures of --measure: name -> (module, function, kind). kind: "raw", "nmi" or "adjusted".
MEASURES: dict[str, tuple[str, str, str]] = {
    "ri": ("chanceclust.measures", "rand_index", "raw"),
    "ari": ("chanceclust.adjusted", "adjusted_rand_index", "adjusted"),
    "mi": ("chanceclust.measures", "mutual_information", "raw"),
    "nmi": ("chanceclust.measures", "normalized_mutual_information", "nmi"),
    "ami": ("chanceclust.adjusted", "adjusted_mutual_information", "adjusted"),
    "fmi": ("chanceclust.measures", "fowlkes_mallows_index", "raw"),
    "jaccard": ("chanceclust.measures", "jaccard_index", "raw"),
    "vi": ("chanceclust.measures", "variation_of_information", "raw"),
}


def load(module: str, name: str) -> Any:
    """``module.name``, imported on use (``--help`` and ``--version`` stay fast)."""
    return getattr(importlib.import_module(module), name)


def measure_rows(
    name: str,
    contingency: Any,
    models: list[str],
    one_sided: bool,
    average_method: str,
) -> list[dict[str, Any]]:
    """Rows ``{measure, model, sided, value}`` of measure ``name`` on ``contingency``."""
    module, func_name, kind = MEASURES[name]
    func = load(module, func_name)
    sided = "one-sided" if one_sided else "two-sided"
    if kind == "raw":
        return [
            {"measure": name, "model": None, "sided": None,
             "value": float(func(contingency=contingency))}
        ]
    if kind == "nmi":
        value = func(contingency=contingency, average_method=average_method)
        return [{"measure": name, "model": None, "sided": None, "value": float(value)}]
    rows = []
    for model in models:
        kwargs: dict[str, Any] = {"model": model, "one_sided": one_sided}
        if name == "ami":
            kwargs["average_method"] = average_method
        value = func(contingency=contingency, **kwargs)
        rows.append({"measure": name, "model": model, "sided": sided, "value": float(value)})
    return rows


def contingency(codes_a: Any, codes_b: Any) -> Any:
    """The contingency table of two aligned code arrays."""
    return load("chanceclust.contingency", "contingency_table")(codes_a, codes_b)


def result_rows(result: Any) -> list[dict[str, Any]]:
    """Rows of a ComparisonResult in the vocabulary of ``compare`` (ari, two-sided, ...)."""
    rows = []
    for rec in result.to_records():
        sided = rec.get("one_sided")
        rows.append(
            {
                "measure": str(rec["measure"]).lower(),
                "model": rec.get("model"),
                "sided": None if sided is None else ("one-sided" if sided else "two-sided"),
                "average_method": rec.get("average_method"),
                "value": rec["value"],
                "expected": rec.get("expected"),
            }
        )
    return rows


def out(args: argparse.Namespace, rows: list[dict[str, Any]], columns: list[str],
        meta: dict[str, Any]) -> None:
    """Write ``rows`` in --format (text: ``meta["summary"]`` first, as a ``#`` line)."""
    if args.format == "text" and meta.get("summary"):
        sys.stdout.write(meta["summary"] + "\n")
    meta = {k: v for k, v in meta.items() if k != "summary"}
    write_rows(rows, columns, args.format, sys.stdout, meta=meta, digits=args.digits)


def summary(
    a: Clustering, b: Clustering, ca: Any, cb: Any, report: Any = None
) -> dict[str, Any]:
    """The header of a two-clustering result: sources, N, numbers of clusters, unassigned."""
    ka, kb = int(ca.max()) + 1, int(cb.max()) + 1
    meta = {
        "a": a.source,
        "b": b.source,
        "n": len(ca),
        "clusters_a": ka,
        "clusters_b": kb,
        "summary": f"# {a.source} ({ka} clusters) vs {b.source} ({kb} clusters): "
        f"{len(ca)} elements",
    }
    if report is not None and report.describe(a.source, b.source):
        meta["unassigned"] = {
            "policy": report.policy,
            "n_unassigned_a": report.n_unassigned_true,
            "n_unassigned_b": report.n_unassigned_pred,
            "n_dropped": report.n_dropped,
            "n_reassigned": report.n_reassigned,
        }
        meta["summary"] += "; " + report.describe(a.source, b.source)
    return meta
