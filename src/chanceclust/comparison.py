"""Every measure under every model, sidedness and normalization in one call."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from chanceclust._docs import fill_doc
from chanceclust._models import MODELS, Setting
from chanceclust._registry import MEASURES as _REGISTRY
from chanceclust._registry import Measure, Sides
from chanceclust._validation import (
    AVERAGE_METHODS,
    ONE_SIDE_AVERAGE_METHODS,
    UnassignedReport,
    check_average_method,
)
from chanceclust.adjusted import _adjusted_mutual_information
from chanceclust.contingency import Table, _summarize_report
from chanceclust.exceptions import InvalidInputError
from chanceclust.measures import _mutual_information

__all__ = ["ComparisonResult", "ComparisonRow", "compare"]

#: The settings of the adjusted measures, in the paper's order (perm is the same one- and
#: two-sided): perm, num, num1, all, all1.
SETTINGS = tuple(
    Setting(MODELS[name], one_sided)
    for name, one_sided in (("perm", False), ("num", False), ("num", True), ("all", False),
                            ("all", True))
)


def setting_name(model: str | None, one_sided: bool | None) -> str:
    """The paper's short name of a setting: perm, num, num1, all, all1 ('' for raw measures)."""
    if model is None:
        return ""
    return model + ("1" if one_sided else "")


@dataclass(frozen=True)
class ComparisonRow:
    """One value: ``measure`` under ``model`` (None for raw measures), sidedness, normalization.

    Formula: docs/math.md#math-adjustment.

    ``expected`` is E[s] of the underlying similarity (RI or MI) for the measures
    under a model (ARI, AMI, SRI, SMI), None otherwise.

    Examples
    --------
    >>> from chanceclust import compare
    >>> row = compare([0, 0, 1, 1], [0, 0, 1, 2]).rows[-3]  # the last two: SRI, SMI
    >>> row.key, row.measure, row.model, row.one_sided, row.average_method
    ('AMI[all1,pred]', 'AMI', 'all', True, 'pred')
    """

    measure: str
    model: str | None
    one_sided: bool | None
    average_method: str | None
    value: float
    expected: float | None = None

    def _fields(self) -> tuple[Any, ...]:
        nan = isinstance(self.value, float) and math.isnan(self.value)  # a row not computed
        return (self.measure, self.model, self.one_sided, self.average_method,
                None if nan else self.value, nan, self.expected)

    def __eq__(self, other: object) -> bool:  # NaN rows equal, as numpy's equal_nan=True
        if not isinstance(other, ComparisonRow):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    @property
    def key(self) -> str:
        """A compact unique name such as ``AMI[num1,geometric]`` or ``RI``."""
        parts = [p for p in (setting_name(self.model, self.one_sided), self.average_method) if p]
        return f"{self.measure}[{','.join(parts)}]" if parts else self.measure


@dataclass(frozen=True)
class ComparisonResult:
    """All similarity values of two clusterings (the paper's Figures 2 and 3 in one object).

    Formula: docs/math.md#math-adjustment.

    Attributes
    ----------
    n, n_clusters_true, n_clusters_pred : int
        Number of elements and of clusters on each side.
    rows : tuple of ComparisonRow
        Raw measures in the order of the measure registry (RI, MI, FMI, Jaccard, VI),
        NMI per normalization (min, geometric, arithmetic, max, and the one-side
        normalizations true and pred), then ARI, AMI (per normalization), SRI and SMI
        (the z-scores of RI and MI, :func:`~chanceclust.standardized_rand_index`,
        :func:`~chanceclust.standardized_mutual_information`) under perm, num, num1,
        all, all1: 56 rows. An SMI row is NaN where the
        exact variance of MI is not implemented (num with small clusters beyond N = 1000
        one-sided, 100 two-sided; see :func:`~chanceclust.mutual_information_variance`).
    unassigned : UnassignedReport
        How many elements were unassigned on each side, and how many of them
        were dropped or re-assigned by the ``unassigned`` policy.

    Examples
    --------
    >>> from chanceclust import compare
    >>> result = compare([0, 0, 1, 1], [0, 0, 1, 2])
    >>> result.n, result.n_clusters_true, result.n_clusters_pred
    (4, 2, 3)
    >>> result.get("RI") == result.to_dict()["RI"], round(result.get("RI"), 6)  # 5 of 6 pairs
    (True, 0.833333)
    """

    n: int
    n_clusters_true: int
    n_clusters_pred: int
    rows: tuple[ComparisonRow, ...]
    unassigned: UnassignedReport = field(default_factory=UnassignedReport)

    def get(
        self,
        measure: str,
        model: str | None = None,
        *,
        one_sided: bool = False,
        average_method: str | None = None,
    ) -> float:
        """The value of one row, e.g. ``get("AMI", "num", one_sided=True, average_method="max")``.

        Defaults follow the single-call functions: a measure under a model (ARI, AMI, SRI,
        SMI) without ``model`` is under ``"perm"``, and a normalized one (NMI, AMI) without
        ``average_method`` uses ``"arithmetic"``.
        """
        named = _REGISTRY.get(measure.lower())
        if named is not None and named.uses_model and model is None:
            model = "perm"
        if named is not None and named.normalized and average_method is None:
            average_method = "arithmetic"
        if average_method is not None:
            average_method = check_average_method(average_method)
        for row in self.rows:
            if (
                row.measure == measure.upper()
                and row.model == model
                and (model is None or bool(row.one_sided) == one_sided)
                and row.average_method == average_method
            ):
                return row.value
        raise KeyError(
            f"no row for measure={measure!r}, model={model!r}, one_sided={one_sided}, "
            f"average_method={average_method!r}; keys are {[r.key for r in self.rows]}"
        )

    def to_dict(self) -> dict[str, float]:
        """Mapping from each row's :attr:`ComparisonRow.key` to its value."""
        return {row.key: row.value for row in self.rows}

    def to_records(self) -> list[dict[str, Any]]:
        """One plain dict per row (for JSON or CSV)."""
        return [asdict(row) for row in self.rows]

    def to_frame(self) -> Any:
        """A pandas DataFrame with one row per value (requires pandas)."""
        try:
            import pandas as pd
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("to_frame() needs pandas: pip install pandas") from error
        return pd.DataFrame.from_records(self.to_records())

    def __str__(self) -> str:
        header = (
            f"N = {self.n}, K_true = {self.n_clusters_true}, K_pred = {self.n_clusters_pred}"
            + (f"; {note}" if (note := self.unassigned.describe()) else "")
            + "\n"
            f"{'measure':<8}{'model':<7}{'normalization':<14}{'value':>12}{'E[s]':>12}"
        )
        lines = [header]
        for row in self.rows:
            expected = "" if row.expected is None else f"{row.expected:12.6f}"
            lines.append(
                f"{row.measure:<8}{setting_name(row.model, row.one_sided):<7}"
                f"{row.average_method or '':<14}{row.value:12.6f}{expected:>12}"
            )
        return "\n".join(lines)


@fill_doc
def compare(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> ComparisonResult:
    """Compare two clusterings by every measure, model, sidedness and normalization.

    Formula: docs/math.md#math-adjustment.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings; ``labels_true`` is the reference of one-sided
        rows. Give these or ``contingency``. As in every function: labels by
        position (sequences, arrays, Series, Categoricals), or by element
        (mappings ``{element: label}``, communities such as networkx's list of
        sets, Series with different indexes), both the same way.
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    ComparisonResult
        Printable as a table; ``to_dict()``, ``to_records()``, ``to_frame()``;
        ``unassigned`` counts the elements dropped or re-assigned.

    Notes
    -----
    The table is built once and each expectation computed once per model and
    sidedness. The cost is dominated by the four exact variances of MI of the SMI
    rows (:func:`chanceclust.mutual_information_variance`), from milliseconds (small N,
    few distinct cluster sizes) to seconds (N = 10^5 with tens of distinct cluster
    sizes under perm; benchmarks/SMI.md; num and all below 0.5 s, benchmarks/SMI_SLOTS.md);
    without SMI it costs about five calls of
    :func:`chanceclust.adjusted_mutual_information`. For ARI and AMI alone, call those.

    Examples
    --------
    >>> from chanceclust import compare
    >>> result = compare([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1])
    >>> round(result.get("ARI", "num", one_sided=True), 4)
    0.3202
    >>> len(result.rows)
    56
    >>> round(result.get("SMI", "perm"), 6), round(result.get("SRI", "perm"), 6)
    (0.816497, 0.816497)
    """
    table, report = _summarize_report(
        labels_true,
        labels_pred,
        contingency,
        unassigned_label=unassigned_label,
        unassigned=unassigned,
    )
    measures = list(_REGISTRY.values())
    methods = (*AVERAGE_METHODS, *ONE_SIDE_AVERAGE_METHODS)
    raw = [m for m in measures if not m.uses_model and m.same_as is None]
    rows = [  # the raw measures, then the normalized ones under each normalization
        ComparisonRow(m.title, None, None, None, m.table(table, None, ""))
        for m in raw
        if not m.normalized
    ]
    rows += [
        ComparisonRow(m.title, None, None, method, m.table(table, None, method))
        for m in raw
        if m.normalized
        for method in methods
    ]
    mi = _mutual_information(table)
    for setting in SETTINGS:  # each setting's sides (and laws, expectations) once
        sides = setting.sides_of_table(table)
        for m in measures:
            if m.expected is None:  # the raw measures: no model
                continue
            expected = m.expected(sides)
            key = (m.title, setting.name, setting.one_sided)
            if not m.normalized:
                rows.append(ComparisonRow(*key, None, _model_value(m, table, sides), expected))
                continue
            for method in methods:
                value = _adjusted_mutual_information(
                    table, sides, method, expected=expected, mi=mi
                )
                rows.append(ComparisonRow(*key, method, value, expected))
    return ComparisonResult(table.n, len(table.row_sums), len(table.col_sums), tuple(rows), report)


def _model_value(measure: Measure, table: Table, sides: Sides) -> float:
    """A measure under a model; NaN for SMI where the exact Var[MI] is not implemented (num,
    small clusters, beyond the engine's size-law limit; N > 10^9:
    ``mutual_information_variance`` refuses the input and says why; compare() reports
    every other row)."""
    try:
        return measure.table(table, sides, "")
    except InvalidInputError:
        if measure.name != "smi":
            raise
        return math.nan
