"""The CLI's measures and result rows: the measure list, rows of values, headers, writing.

:data:`MEASURES` (what ``--measure`` accepts) and :func:`measure_rows` read the library's
one measure registry (:mod:`chanceclust._registry`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from chanceclust._output import write_rows
from chanceclust._registry import MEASURES as _REGISTRY
from chanceclust.io import Clustering

#: The names --measure accepts: the library's measure registry, in its order.
MEASURES: tuple[str, ...] = tuple(_REGISTRY)


def load(module: str, name: str) -> Any:
    """The attribute `name` of the module `module`, imported on use."""
    return getattr(importlib.import_module(module), name)


def measure_rows(
    name: str,
    contingency: Any,
    models: list[str],
    one_sided: bool,
    average_method: str,
) -> list[dict[str, Any]]:
    """Rows ``{measure, model, sided, value}`` of measure ``name`` on ``contingency``.

    The value is the registry's public function of the measure: the single call.
    """
    measure = _REGISTRY[name]
    kwargs: dict[str, Any] = {"contingency": contingency}
    if measure.normalized:
        kwargs["average_method"] = average_method
    if not measure.uses_model:
        value = float(measure.function(**kwargs))
        return [{"measure": name, "model": None, "sided": None, "value": value}]
    sided = "one-sided" if one_sided else "two-sided"
    return [
        {
            "measure": name,
            "model": model,
            "sided": sided,
            "value": float(measure.function(**kwargs, model=model, one_sided=one_sided)),
        }
        for model in models
    ]


def contingency(clusterings: Any) -> Any:
    """The contingency table of two validated clusterings (:func:`inputs.aligned`), counted
    from their codes: the labels are validated once for all the measures."""
    return load("chanceclust.contingency", "table_of_codes")(clusterings)


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
