"""Chance-adjusted Rand index and mutual information: (s - E[s]) / (s_max - E[s]).

Degenerate ensembles (s_max - E[s] = 0) follow docs/math.md#math-degenerate, never NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._models import Side
from chanceclust._validation import check_average_method
from chanceclust.contingency import Table, _pair_counts
from chanceclust.expectations import (
    _expected_mutual_information,
    _expected_rand_index_and_spread,
    _validated_table,
)
from chanceclust.measures import (
    _exact_counts,
    _generalized_mean,
    _mutual_information,
    _rand_values,
    _ratio,
)

__all__ = ["adjusted_mutual_information", "adjusted_rand_index"]

# s_max - E[s] below this fraction of s_max is a degenerate ensemble (a genuine gap is ~1/N).
_DEGENERATE = 1e-12


@fill_doc
def adjusted_rand_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Rand index adjusted for chance under a random model: (RI - E[RI]) / (1 - E[RI]).

    Formula: docs/math.md#math-adjustment and #math-expected-rand (paper eqs. 1, 6).

    With ``model="perm"`` this is the ARI of Hubert and Arabie (1985),
    scikit-learn's ``adjusted_rand_score``.

    Parameters
    ----------
    %(model_inputs)s

    Returns
    -------
    float
        At most 1.0 (identical partitions); 0.0 is the model's chance level,
        negative values are below chance. 1.0 for N < 2. Degenerate
        ensembles: see the module notes.

    Notes
    -----
    perm: exact integers, one rounding; num and all: ~1e-15 absolute. O(cells) after the
    table.

    References
    ----------
    Hubert, L. and Arabie, P. (1985). Comparing partitions. J. Classification 2:193-218.
    Gates, A. J. and Ahn, Y.-Y. (2017). JMLR 18(87):1-28.

    Examples
    --------
    >>> from chanceclust import adjusted_rand_index
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(adjusted_rand_index(a, b), 4)
    0.2424
    >>> round(adjusted_rand_index(a, b, model="num", one_sided=True), 4)
    0.3202
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _adjusted_rand_index(table, setting.sides_of_table(table))


def _adjusted_rand_index(table: Table, sides: tuple[Side, Side]) -> float:
    """The ARI of a :class:`Table` given its two sides (arguments validated)."""
    counts = _pair_counts(table)
    if counts.n10 == 0 and counts.n01 == 0:
        return 1.0  # identical partitions (and N < 2): no expectation to compute
    arrays = _exact_counts(counts.n11, counts.n10, counts.n01, counts.n00)
    return float(_adjusted_rand_values(*arrays, _rand_expectation(sides))[0])


def _rand_expectation(sides: tuple[Side, Side]) -> tuple[float, float] | None:
    """(E[RI], 1 - E[RI]) where a side is random, None when both are fixed (exact ARI)."""
    if all(side.sizes_given for side in sides):
        return None
    return _expected_rand_index_and_spread(*sides)


def _adjusted_rand_values(
    n11: NDArray[Any],
    n10: NDArray[Any],
    n01: NDArray[Any],
    n00: NDArray[Any],
    expectation: tuple[float, float] | None,
) -> NDArray[np.float64]:
    """ARI of a batch of pair counts: exact in integers when ``expectation`` is None (perm).

    Else ``expectation`` is (E[RI], 1 - E[RI]); 1.0 for identical partitions, 0.0 when degenerate.
    """
    identical = (n10 == 0) & (n01 == 0)
    if expectation is None:
        numerator = 2 * (n11 * n00 - n10 * n01)
        denominator = (n11 + n10) * (n10 + n00) + (n11 + n01) * (n01 + n00)
        return np.where(identical, 1.0, _ratio(numerator, denominator, 1.0))
    expected, spread = expectation
    if spread <= 0.0:
        return np.where(identical, 1.0, 0.0)
    value = np.minimum((_rand_values(n11, n10, n01, n00) - expected) / spread, 1.0)
    return np.where(identical, 1.0, value)


def _mi_max(table: Table, sides: tuple[Side, Side], average_method: str) -> float:
    """s_max: the normalization of each side's ``entropy_bound`` (docs/math.md#math-s-max)."""
    if table.n < 2:
        return 0.0  # no pair of elements: every entropy is 0
    true, pred = sides
    return _generalized_mean(true.entropy_bound(), pred.entropy_bound(), average_method)


def _adjusted_mutual_information(
    table: Table,
    sides: tuple[Side, Side],
    average_method: str,
    *,
    expected: float | None = None,
    mi: float | None = None,
) -> float:
    """The AMI of a :class:`Table` given its sides; ``expected`` and ``mi`` if already known."""
    return _adjust_for_chance(
        _mutual_information(table) if mi is None else mi,
        _expected_mutual_information(*sides) if expected is None else expected,
        _mi_max(table, sides, average_method),
        k_true=len(table.row_sums),
        k_pred=len(table.col_sums),
    )


@fill_doc
def adjusted_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str = "perm",
    one_sided: bool = False,
    average_method: str = "arithmetic",
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Mutual information adjusted for chance: (MI - E[MI]) / (s_max - E[MI]).

    With ``model="perm"`` this is the AMI of Vinh, Epps and Bailey (2010),
    scikit-learn's ``adjusted_mutual_info_score``.

    Parameters
    ----------
    %(labels)s
    %(model)s
    average_method : {"min", "geometric", "arithmetic", "max", "true", "pred"}, \
default="arithmetic"
        The normalization f of s_max; "sqrt" and "sum" (the paper's names)
        are aliases of "geometric" and "arithmetic". "true" and "pred" take
        the bound of one side only (u or v of the Notes).
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        At most 1.0; 0.0 is the model's chance level. Two single-cluster clusterings
        give 1.0 (or N = 0) under ``perm`` and ``num``; under two-sided ``all`` a
        negative value, -0.40 at N = 3, -0.72 at N = 100; one-sided ``all``: 0.0.
        Identical clusterings give 1.0 under ``perm``, and one-sided with
        ``average_method="true"``; under ``num`` and ``all`` s_max is the model's
        largest entropy, so AMI(A, A) < 1 for unequal sizes.

    Notes
    -----
    s_max per model and side: docs/math.md#math-s-max (one-sided, the reference keeps its
    own entropy). ~1e-13 absolute (that of E[MI]); cost that of E[MI] plus O(cells).

    References
    ----------
    Vinh, N. X., Epps, J. and Bailey, J. (2010). JMLR 11:2837-2854.
    Gates, A. J. and Ahn, Y.-Y. (2017). JMLR 18(87):1-28.

    Examples
    --------
    >>> from chanceclust import adjusted_mutual_information
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(adjusted_mutual_information(a, b), 4)
    0.2988
    >>> round(adjusted_mutual_information(a, b, model="all"), 4)  # below chance under all
    -0.0982
    >>> ref = [0] * 10 + [1] * 5 + [2] * 2
    >>> round(adjusted_mutual_information(ref, ref, model="num"), 4)  # H(A) < log 3
    0.8156
    >>> adjusted_mutual_information(ref, ref, model="num", one_sided=True, average_method="true")
    1.0
    """
    method = check_average_method(average_method)
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _adjusted_mutual_information(table, setting.sides_of_table(table), method)


def _adjust_for_chance(
    value: Any, expected: float, bound: float, *, k_true: Any, k_pred: Any
) -> Any:
    """(s - E[s]) / (s_max - E[s]) with this module's degenerate conventions; arrays or floats."""
    value = np.asarray(value, dtype=np.float64)
    k_max, k_min = np.maximum(k_true, k_pred), np.minimum(k_true, k_pred)
    gap = bound - expected
    if gap > _DEGENERATE * bound:
        # s at its maximum (e.g. identical partitions under perm) is exactly 1.
        out = np.where(value >= bound * (1.0 - 1e-13), 1.0, (value - expected) / gap)
    else:
        out = np.where(
            k_max <= 1,  # no split on either side (or N = 0): perfect match (scikit-learn)
            1.0,
            np.where(  # one clustering has a single cluster: 0 (scikit-learn)
                k_min == 1, 0.0, np.where(value >= bound * (1.0 - _DEGENERATE), 1.0, 0.0)
            ),
        )
    return float(out) if out.ndim == 0 else out
