"""Every measure under every model, sidedness and normalization in one call."""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from chanceclust._docs import fill_doc
from chanceclust._models import MODELS, Setting
from chanceclust._registry import MEASURES as _REGISTRY
from chanceclust._registry import Measure, Sides
from chanceclust._validation import (
    AVERAGE_METHODS,
    ONE_SIDE_AVERAGE_METHODS,
    UnassignedReport,
    check_average_method,
    check_setting,
)
from chanceclust.adjusted import _adjusted_mutual_information
from chanceclust.contingency import Table, _summarize_report
from chanceclust.exceptions import InvalidInputError
from chanceclust.measures import _mutual_information

__all__ = ["ComparisonResult", "ComparisonRow", "compare", "degenerate_reason"]

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
    >>> row = compare([0, 0, 1, 1], [0, 0, 1, 2]).rows[-1]
    >>> row.key, row.measure, row.model, row.one_sided, row.average_method
    ('AMI[all1,pred]', 'AMI', 'all', True, 'pred')
    """

    measure: str
    model: str | None
    one_sided: bool | None
    average_method: str | None
    value: float
    expected: float | None = None
    #: Why the value is a convention (the random ensemble gives the observed similarity in
    #: every draw, ``degenerate_reason``), else None. Such a row is no evidence either
    #: way; ``rank``-style orderings put it after the real comparisons.
    degenerate: str | None = None

    def _fields(self) -> tuple[Any, ...]:
        nan = isinstance(self.value, float) and math.isnan(self.value)  # a row not computed
        return (self.measure, self.model, self.one_sided, self.average_method,
                None if nan else self.value, nan, self.expected, self.degenerate)

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
        normalizations true and pred), then ARI, AMI (per normalization) and, with
        ``compare(..., standardized=True)``, SRI and SMI
        (the z-scores of RI and MI, :func:`~chanceclust.standardized_rand_index`,
        :func:`~chanceclust.standardized_mutual_information`) under perm, num, num1,
        all, all1: 46 rows, 56 with SRI and SMI (fewer with ``measures=``); a row's
        ``degenerate`` says when its value is a convention. An SMI row is NaN where the
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
        hint = ("; the z-scores SRI and SMI are computed with compare(..., standardized=True)"
                if measure.lower() in STANDARDIZED else "")
        raise KeyError(
            f"no row for measure={measure!r}, model={model!r}, one_sided={one_sided}, "
            f"average_method={average_method!r}{hint}; keys are {[r.key for r in self.rows]}"
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
        notes: dict[str, str] = {}  # one footnote per distinct reason
        for row in self.rows:
            expected = "" if row.expected is None else f"{row.expected:12.6f}"
            mark = ""
            if row.degenerate is not None:
                mark = f"  [{notes.setdefault(row.degenerate, str(len(notes) + 1))}]"
            lines.append(
                f"{row.measure:<8}{setting_name(row.model, row.one_sided):<7}"
                f"{row.average_method or '':<14}{row.value:12.6f}{expected:>12}{mark}"
            )
        lines += [f"[{number}] {reason}" for reason, number in notes.items()]
        return "\n".join(lines)


@fill_doc
def compare(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
    standardized: bool = False,
    measures: Any = None,
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
    standardized : bool, default False
        Also compute the z-scores SRI and SMI under every model (10 rows). They cost
        the exact variances of RI and MI, the variance of MI being most of the
        cost of a comparison (30 to 45 times the ARI and AMI rows on a few
        thousand elements, benchmarks/compare_rows.py), so they are left out
        unless asked.
    measures : str or iterable of str, optional
        Compute only these measures (names of :func:`~chanceclust.pairwise`'s
        ``measure``: ``"ri"``, ``"ari"``, ``"ami"``, ``"smi"``, ...), in the
        usual row order. Default: every measure but SRI and SMI (those too with
        ``standardized=True``).

    Returns
    -------
    ComparisonResult
        Printable as a table; ``to_dict()``, ``to_records()``, ``to_frame()``;
        ``unassigned`` counts the elements dropped or re-assigned.

    Notes
    -----
    The table is built once and each expectation computed once per model and
    sidedness. By default (46 rows, no SRI/SMI) a comparison costs about five calls of
    :func:`chanceclust.adjusted_mutual_information`. With ``standardized=True`` the
    cost is dominated by the exact variances of MI of the SMI rows
    (:func:`chanceclust.mutual_information_variance`), from milliseconds (small N,
    few distinct cluster sizes) to seconds (N = 10^5 with tens of distinct cluster
    sizes under perm; benchmarks/SMI.md; num and all below 0.5 s, benchmarks/SMI_SLOTS.md).

    Examples
    --------
    >>> from chanceclust import compare
    >>> result = compare([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1])
    >>> round(result.get("ARI", "num", one_sided=True), 4)
    0.3202
    >>> len(result.rows), len(compare([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1],
    ...                                   standardized=True).rows)
    (46, 56)
    >>> full = compare([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1], standardized=True)
    >>> round(full.get("SMI", "perm"), 6), round(full.get("SRI", "perm"), 6)
    (0.816497, 0.816497)
    >>> [row.key for row in compare([0, 0, 1, 1], [0, 0, 1, 2], measures="ari").rows]
    ['ARI[perm]', 'ARI[num]', 'ARI[num1]', 'ARI[all]', 'ARI[all1]']
    """
    table, report = _summarize_report(
        labels_true,
        labels_pred,
        contingency,
        unassigned_label=unassigned_label,
        unassigned=unassigned,
    )
    measures = _selected(measures, standardized)
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
    adjusted = any(m.uses_model for m in measures)
    for setting in SETTINGS if adjusted else ():  # each setting's sides (and laws) once
        sides = setting.sides_of_table(table)
        for m in measures:
            if m.expected is None:  # the raw measures: no model
                continue
            expected = m.expected(sides)
            key = (m.title, setting.name, setting.one_sided)
            note = degenerate_reason(m.name, setting.model, setting.one_sided, table.row_sums,
                                     table.col_sums)
            if not m.normalized:
                rows.append(ComparisonRow(*key, None, _model_value(m, table, sides), expected,
                                          note))
                continue
            for method in methods:
                value = _adjusted_mutual_information(
                    table, sides, method, expected=expected, mi=mi
                )
                rows.append(ComparisonRow(*key, method, value, expected, note))
    return ComparisonResult(table.n, len(table.row_sums), len(table.col_sums), tuple(rows), report)


#: The measures of the mutual information family: MI is 0 in every draw when one side keeps
#: a single cluster.
_MI_FAMILY = ("ami", "smi")


def degenerate_reason(
    measure: str, model: Any, one_sided: bool, sizes_true: Any, sizes_pred: Any
) -> str | None:
    """Why every draw of the random model gives the observed similarity, or None.

    Then the similarity's variance under the model is 0 and the adjusted value (ARI or AMI
    0, SRI or SMI 0) is a convention, not a comparison with chance. ``sizes_true`` and
    ``sizes_pred`` are the cluster sizes (the table's margins). The ensemble holds a single
    table when both sides are single clusterings (the one-sided reference; K = 1 or K = N
    under ``perm`` and ``num``); when one side is a single clustering with K = 1 or K = N
    and the other side's cluster sizes are fixed (the reference, ``perm``, and ``num`` with
    K = N - 1: one pair and singletons); and under ``perm`` when one side is one singleton
    beside one cluster and the other's clusters all have one size. MI is also 0 in every
    draw when a side keeps one cluster (every model but a random side of ``all``).
    ``tests/test_comparison.py`` checks that this is exactly the set of constant ensembles,
    by enumerating them for every model, sidedness and pair of size patterns of N <= 6.
    """
    if model is None:
        return None
    setting = check_setting(model, one_sided)
    true, pred = _pattern(sizes_true), _pattern(sizes_pred)
    sides = setting.sides(true[0], np.asarray(sizes_true, dtype=np.int64), true[1],
                          np.asarray(sizes_pred, dtype=np.int64), pred[1])  # fmt: skip
    # a side by what the rule needs of it: whether it is the fixed reference, whether its
    # sizes are given (perm, a reference), whether its K is fixed (all: no)
    kinds = tuple((reference, side.sizes_given, side.fixed_k)
                  for reference, side in zip((setting.one_sided, False), sides, strict=True))
    # one-sided and two-sided are one setting when both sides' sizes are given (perm)
    shown = setting.one_sided and not all(side.sizes_given for side in sides)
    return _degenerate(measure.lower(), setting_name(setting.name, shown), kinds, true, pred)


Pattern = tuple[int, int, bool, bool]


def _pattern(sizes: Any) -> Pattern:
    """What degenerate_reason() needs of a side's cluster sizes: N, K, whether they are one
    singleton beside one cluster, whether they are all alike."""
    array = np.asarray(sizes, dtype=np.int64)
    k = int(array.size)
    low, high = (int(array.min()), int(array.max())) if k else (0, 0)
    return int(array.sum()), k, k == 2 and low == 1, low == high


Kind = tuple[bool, bool, bool]


@functools.lru_cache(maxsize=4096)
def _degenerate(measure: str, name: str, kinds: tuple[Kind, Kind], true: Pattern,
                pred: Pattern) -> str | None:
    """degenerate_reason() of two sides' kinds and size patterns (cached: pairwise() asks per
    pair); the sides are read through the model protocol, never by the model's name."""
    n, k_true, k_pred = true[0], true[1], pred[1]

    def single(k: int, reference: bool, given: bool, fixed_k: bool) -> bool:
        # the side's ensemble is one clustering
        return reference or n <= 1 or (fixed_k and k in (1, n))

    def sized(k: int, reference: bool, given: bool, fixed_k: bool) -> bool:
        # every clustering of the side has its sizes (K = N - 1 with K fixed: one pair)
        return given or single(k, reference, given, fixed_k) or (fixed_k and k == n - 1)

    a, b = (k_true, *kinds[0]), (k_pred, *kinds[1])
    constant = (single(*a) and single(*b)) or any(
        x[0] in (1, n) and single(*x) and sized(*y) for x, y in ((a, b), (b, a))
    )
    # both sizes given: the singleton lands in one of the other side's clusters, all alike
    both_given = kinds[0][1] and kinds[1][1]
    constant = constant or (both_given and ((true[2] and pred[3]) or (pred[2] and true[3])))
    where = f"under {name} (N = {n}, K_true = {k_true}, K_pred = {k_pred})"
    if constant:
        return (f"degenerate: every random draw {where} gives the observed table; the value "
                f"is a convention, not a comparison with chance")
    one_cluster = [k == 1 and (reference or fixed_k) for k, reference, _, fixed_k in (a, b)]
    if measure in _MI_FAMILY and any(one_cluster):
        return (f"degenerate: a side with one cluster makes MI 0 in every random draw {where}; "
                f"the value is a convention, not a comparison with chance")
    return None


def degenerate_notes(contingency: Any, measure: str, models: Any, one_sided: bool) -> list[str]:
    """The distinct ``degenerate_reason`` of ``measure`` on a table, one per model that
    has one (the command line prints them beside its values)."""
    table, _ = _summarize_report(None, None, contingency)
    notes = (degenerate_reason(measure, model, one_sided, table.row_sums, table.col_sums)
             for model in models)
    return list(dict.fromkeys(note for note in notes if note is not None))


#: The measures compare() leaves out unless asked (``standardized=True``): the z-scores.
STANDARDIZED = ("sri", "smi")


def _selected(measures: Any, standardized: bool) -> list[Measure]:
    """The registry's measures that compare() computes, in the registry's order."""
    if measures is None:
        names = {name for name in _REGISTRY if name not in STANDARDIZED}
    else:
        given = [measures] if isinstance(measures, str) else list(measures)
        names = {str(name).lower() for name in given}
        unknown = sorted(names - set(_REGISTRY))
        if unknown or not names:
            raise InvalidInputError(
                f"measures: unknown {unknown or 'empty selection'}; choose from "
                f"{', '.join(_REGISTRY)}"
            )
    if standardized:
        names |= set(STANDARDIZED)
    return [m for name, m in _REGISTRY.items() if name in names]


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
