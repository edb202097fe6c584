"""The Tsallis q-entropy family: H_q, MI_q, and MI_q adjusted (AMI_q) and standardized (SMI_q).

Romano, Vinh, Bailey and Verspoor (JMLR 17, 2016) (docs/math.md#math-tsallis):
H_q(A) = (1 - sum_i (a_i/N)^q) / (q - 1), MI_q = H_q(A) + H_q(B) - H_q(A, B) for real q > 0.
q -> 1 is Shannon's entropy and mutual information (the functions delegate to them at q = 1,
so their values are bit for bit those of :func:`~chanceclust.mutual_information`,
:func:`~chanceclust.adjusted_mutual_information` and
:func:`~chanceclust.standardized_mutual_information`); with both margins fixed, MI_q at
q = 2 is an affine function of the Rand index, so AMI_q (perm, arithmetic) is the ARI there
and SMI_q (perm) the SRI.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from chanceclust._docs import fill_doc
from chanceclust._entropy import entropy_of_sizes
from chanceclust._expected.laws import SlotMixture, pair_probabilities
from chanceclust._expected.mi_variance import total_variance
from chanceclust._expected.mi_variance_slots import (
    one_sided_slot_variance,
    two_sided_slot_variance,
)
from chanceclust._expected.size_pairs import INT64_EXACT_MAX_N
from chanceclust._expected.tsallis import (
    TsallisCell,
    expected_entropy_q,
    expected_joint_entropy_q,
    mi_q_variance,
    tsallis_terms,
    window_points,
)
from chanceclust._models import Model, Num, PerSide, Side, canonical_pair
from chanceclust._validation import _describe, check_average_method, check_labels
from chanceclust.adjusted import _adjust_for_chance, _adjusted_mutual_information
from chanceclust.contingency import Table, _pair_counts
from chanceclust.exceptions import InvalidInputError, UnsupportedError
from chanceclust.expectations import _expected_mutual_information, _validated_table
from chanceclust.measures import _generalized_mean, _mutual_information
from chanceclust.variance import (
    MAX_VARIANCE_N,
    _check_grid,
    _check_slot_windows,
    _constant_mi,
    _size_moments,
    _table_smi,
    _table_sri,
    _table_variance,
)

__all__ = [
    "adjusted_tsallis_mutual_information",
    "expected_tsallis_mutual_information",
    "standardized_tsallis_mutual_information",
    "tsallis_entropy",
    "tsallis_mutual_information",
]

#: The largest N of E[MI_q]: Loader's hypergeometric pmf needs N^2 < 2^63.
MAX_TSALLIS_N = INT64_EXACT_MAX_N
#: The most pmf points one E[MI_q] evaluates; beyond, UnsupportedError. Measured 3.8e6 points
#: a second (N = 10^6, 100 x 100, perm; shared 2-core machine, load ~5): ~20 s at the limit.
MAX_WINDOW_POINTS = 2**26
#: The most pmf points (an upper bound, from ``_moment_bound``) of one Var[MI_q]
#: (q != 1, 2); beyond, UnsupportedError. Measured 1.3-3.8 s at 1.3-1.6e7 points (shared
#: 2-core machine, load ~5).
MAX_VARIANCE_POINTS = 2**25


def _check_q(q: Any) -> float:
    """q as a float: a finite real number > 0 (bool refused)."""
    if isinstance(q, (int, float, np.integer, np.floating)) and not isinstance(q, (bool, np.bool_)):
        value = float(q)
        if math.isfinite(value) and value > 0:
            return value
    raise InvalidInputError(f"`q` must be a finite number > 0 (q = 1: Shannon); got {_describe(q)}.")


def _entropy_q_of_sizes(sizes: Any, n: int, q: float, weights: Any = None) -> float:
    """H_q of a size sequence (``weights``: multiplicities of a histogram of sizes)."""
    if n == 0:
        return 0.0
    terms = tsallis_terms(np.asarray(sizes), n, q)
    return float(np.sum(terms) if weights is None else np.asarray(weights, np.float64) @ terms)


def _mutual_information_q(table: Table, q: float) -> float:
    """MI_q = H_q(A) + H_q(B) - H_q(A, B) of a table (q != 1)."""
    n = table.n
    joint = _entropy_q_of_sizes(table.counts, n, q, table.weights)
    return _entropy_q_of_sizes(table.row_sums, n, q) + _entropy_q_of_sizes(table.col_sums, n, q) - joint


def _check_cost(true: Side, pred: Side) -> None:
    """UnsupportedError where E[MI_q] would exceed MAX_TSALLIS_N or MAX_WINDOW_POINTS."""
    if true.n > MAX_TSALLIS_N:
        raise UnsupportedError(
            f"E[MI_q] is implemented for N <= {MAX_TSALLIS_N} (got N = {true.n}); use "
            "q = 1 (Shannon) or a Monte Carlo null (significance_test)"
        )
    points = window_points(true.law, pred.law)
    if points > MAX_WINDOW_POINTS:
        raise UnsupportedError(
            f"E[MI_q] of this table would evaluate {points} pmf points, more than the limit "
            f"{MAX_WINDOW_POINTS} (too many distinct cluster sizes for N = {true.n}); use q = 1 "
            "(Shannon) or a Monte Carlo null (significance_test)"
        )


def _expected_mi_q(true: Side, pred: Side, q: float) -> float:
    """E[MI_q] = E[H_q(A)] + E[H_q(B)] - E[H_q(A, B)] of two sides (docs/math.md#math-tsallis)."""
    true, pred = canonical_pair(true, pred)
    if true.key is not None and pred.key is not None:
        return _expected_mi_q_two_sided(true, pred, q)
    return _expected_mi_q_of_sides(true, pred, q)


def _expected_mi_q_of_sides(true: Side, pred: Side, q: float) -> float:
    if true.n < 2:
        return 0.0
    _check_cost(true, pred)
    joint = expected_joint_entropy_q(true.law, pred.law, q)
    return expected_entropy_q(true.law, q) + expected_entropy_q(pred.law, q) - joint


@lru_cache(maxsize=256)
def _expected_mi_q_two_sided(true: Side, pred: Side, q: float) -> float:
    """E[MI_q] of two random sides (hashable by value: their laws depend on N and K only)."""
    return _expected_mi_q_of_sides(true, pred, q)


def _entropy_q_bound(side: Side, q: float) -> float:
    """The largest H_q in a side's ensemble (docs/math.md#math-s-max): its own sizes' H_q
    (sizes given), K equal clusters (num), N singletons (all): (1 - K^(1-q)) / (q - 1)."""
    if side.sizes_given:
        return _entropy_q_of_sizes(side.sizes, side.n, q)  # type: ignore[attr-defined]
    clusters = side.k if side.fixed_k else side.n
    return -math.expm1((1.0 - q) * math.log(clusters)) / (q - 1.0)


def _tsallis_setting(q: Any, labels_true: Any, labels_pred: Any, contingency: Any, model: Any,
                     one_sided: Any, unassigned_label: Any, unassigned: Any):
    value = _check_q(q)
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return value, table, setting.sides_of_table(table)


@fill_doc
def tsallis_entropy(
    labels: Any, q: float, *, unassigned_label: Any = None, unassigned: str = "raise"
) -> float:
    """Tsallis q-entropy of the cluster sizes of one clustering.

    H_q(A) = (1 - sum_i (a_i/N)^q) / (q - 1); q -> 1 is Shannon's entropy in nats
    (docs/math.md#math-tsallis).

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        Cluster labels (any hashable values).
    q : float
        The order, a finite number > 0.
    %(unassigned)s

    Returns
    -------
    float
        0 <= H_q <= (1 - K^(1-q)) / (q - 1) (K equal clusters); 0.0 for a single cluster and
        for empty input.

    Notes
    -----
    Computed as sum_i -(a_i/N) expm1((q - 1) log(a_i/N)) / (q - 1), every term >= 0:
    ~1e-15 relative for every q, also near 1. q = 1 is :func:`~chanceclust.entropy`.

    Examples
    --------
    >>> from chanceclust import tsallis_entropy
    >>> tsallis_entropy([0, 0, 1, 1], 2)  # 1 - (1/4 + 1/4)
    0.5
    """
    value = _check_q(q)
    codes, k = check_labels(labels, "labels", unassigned_label=unassigned_label, unassigned=unassigned)
    sizes = np.bincount(codes, minlength=k)
    if value == 1.0:  # the library's one Shannon entropy, as chanceclust.entropy
        return entropy_of_sizes(sizes, codes.shape[0])
    return _entropy_q_of_sizes(sizes, codes.shape[0], value)


@fill_doc
def tsallis_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    q: float,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Tsallis mutual information MI_q = H_q(A) + H_q(B) - H_q(A, B) of two clusterings.

    Romano et al. (2016); docs/math.md#math-tsallis. MI_q = H_q(A) - H_q(A | B) with
    Tsallis's conditional entropy H_q(A | B) >= 0, so MI_q <= min(H_q(A), H_q(B)) for every
    q; MI_q >= 0 for q >= 1, while for q < 1 it can be negative (the weights (b_j/N)^q of
    the conditional entropies sum to more than 1). Unlike Shannon's it is not 0 for
    independent clusterings when q != 1.

    Parameters
    ----------
    %(labels)s
    q : float
        The order, a finite number > 0; q = 1 gives :func:`~chanceclust.mutual_information`.
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        MI_q (nats at q = 1): at most min(H_q(A), H_q(B)); >= 0 for q >= 1.

    Examples
    --------
    >>> from chanceclust import tsallis_mutual_information
    >>> a, b = [0, 0, 1, 1], [0, 0, 1, 1]
    >>> tsallis_mutual_information(a, b, q=2)  # = H_2(A) = 1/2
    0.5
    """
    value = _check_q(q)
    table, _ = _validated_table(labels_true, labels_pred, contingency, "perm", False,
                                unassigned_label, unassigned)
    return _mutual_information(table) if value == 1.0 else _mutual_information_q(table, value)


@fill_doc
def expected_tsallis_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    q: float,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Expected Tsallis mutual information E[MI_q] under a random model, exactly.

    E[MI_q] = E[H_q(A)] + E[H_q(B)] - E[H_q(A, B)], each a sum over the cluster-size laws
    of the sides (docs/math.md#math-tsallis): hypergeometric cells for two size laws,
    binomial cells for Stam's (``all``) and the inclusion-exclusion (``num``) mixtures.

    Parameters
    ----------
    %(labels)s
    q : float
        The order, a finite number > 0; q = 1 gives
        :func:`~chanceclust.expected_mutual_information`.
    %(model)s
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        E[MI_q]; 0.0 when N < 2.

    Raises
    ------
    UnsupportedError
        N above ``MAX_TSALLIS_N`` (3,037,000,499), or more than ``MAX_WINDOW_POINTS``
        (2^26) pmf points to sum.

    Notes
    -----
    Every term of each expectation is >= 0 and within 1e-14 relative; E[MI_q] is their
    difference, accurate to ~1e-14 of E[H_q(A, B)] (tested against enumeration to 1e-10
    relative for N <= 7 and against q = 1's E[MI]). Cost: a window of ~2 sqrt(var) + 1
    pmf points per pair of distinct sizes (perm) or per slot (pair) of a mixture.

    Examples
    --------
    >>> from chanceclust import expected_tsallis_mutual_information
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(expected_tsallis_mutual_information(a, b, q=2), 12)  # 1 + (6 * 1.4 - 12 - 18) / 36
    0.4
    """
    value, table, sides = _tsallis_setting(q, labels_true, labels_pred, contingency, model,
                                           one_sided, unassigned_label, unassigned)
    if value == 1.0:
        return _expected_mutual_information(*sides)
    return _expected_mi_q(*sides, value)


@fill_doc
def adjusted_tsallis_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    q: float,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    average_method: str = "arithmetic",
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Tsallis mutual information adjusted for chance: AMI_q = (MI_q - E[MI_q]) / (s_max - E[MI_q]).

    Romano et al. (2016); docs/math.md#math-tsallis. s_max = f(u, v) with f the
    ``average_method`` and u, v each side's largest H_q in its ensemble, as for the AMI
    (docs/math.md#math-s-max): perm H_q(A), H_q(B); num (1 - K^(1-q)) / (q - 1); all
    (1 - N^(1-q)) / (q - 1); one-sided, the reference keeps its own H_q.

    Parameters
    ----------
    %(labels)s
    q : float
        The order, a finite number > 0; q = 1 gives
        :func:`~chanceclust.adjusted_mutual_information` bit for bit.
    %(model)s
    average_method : {"min", "geometric", "arithmetic", "max", "true", "pred"}, \
default="arithmetic"
        The normalization f, as in :func:`~chanceclust.adjusted_mutual_information`.
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        At most 1.0 (identical clusterings under perm); 0.0 is the model's chance level.
        Degenerate ensembles follow :func:`~chanceclust.adjusted_mutual_information`.
        With ``model="perm"``, ``q=2`` and the arithmetic mean it is the ARI.

    Raises
    ------
    UnsupportedError
        As :func:`expected_tsallis_mutual_information`.

    Examples
    --------
    >>> from chanceclust import adjusted_tsallis_mutual_information, adjusted_rand_index
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(adjusted_tsallis_mutual_information(a, b, q=2), 6), round(adjusted_rand_index(a, b), 6)
    (0.242424, 0.242424)
    """
    method = check_average_method(average_method)
    value, table, sides = _tsallis_setting(q, labels_true, labels_pred, contingency, model,
                                           one_sided, unassigned_label, unassigned)
    if value == 1.0:  # what adjusted_mutual_information computes, to the bit
        return _adjusted_mutual_information(table, sides, method)
    bound = 0.0 if table.n < 2 else _generalized_mean(
        _entropy_q_bound(sides[0], value), _entropy_q_bound(sides[1], value), method
    )
    return _adjust_for_chance(
        _mutual_information_q(table, value), _expected_mi_q(*sides, value), bound,
        k_true=len(table.row_sums), k_pred=len(table.col_sums),
    )


@fill_doc
def standardized_tsallis_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    q: float,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Standardized Tsallis mutual information SMI_q = (MI_q - E[MI_q]) / sd[MI_q], exactly.

    Implemented where Var[MI_q] is exact (docs/math.md#math-tsallis): q = 1 under every
    model (it is :func:`~chanceclust.standardized_mutual_information`); q = 2 under every
    model, where MI_q = 2 N00 / N^2 (N00: pairs apart in both clusterings) and Var[N00]
    follows from three exact Rand-index variances (under ``perm`` it is the standardized
    Rand index :func:`~chanceclust.standardized_rand_index`, exact rationals); every other
    q by the routes of the exact Var[MI] with the cell function of MI_q: two fixed sides
    (``perm``) by the Lancaster expansion, ``num`` and ``all`` (one- and two-sided) by the
    sums over slots where the random sides are mixtures of uniform labelings (``all``;
    ``num`` with mean cluster size well above log K), at every N; elsewhere (``num`` with
    small clusters) by the covariances of pairs of cells given the sizes, plus the variance
    over the sizes of a random side, for small tables (``MAX_VARIANCE_POINTS``). At N = 10^6,
    100 x 100 it took at most 1.8x the SMI's time (benchmarks/tsallis.py smi).

    Parameters
    ----------
    %(labels)s
    q : float
        The order, a finite number > 0.
    %(model)s
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        The z-score of MI_q in the model's null law; 0.0 when its variance is 0.

    Raises
    ------
    UnsupportedError
        q other than 1 and 2 where the small-table route is needed beyond
        ``MAX_VARIANCE_POINTS`` (2^25) pmf points (``num`` with small clusters, whose sizes
        have no slot form: e.g. N = 60 in 20 clusters, two-sided), and beyond the limits
        of the SMI's routes (use significance_test for a Monte Carlo null).

    Examples
    --------
    >>> from chanceclust import standardized_tsallis_mutual_information
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(standardized_tsallis_mutual_information(a, b, q=2), 6)  # the SRI
    0.816497
    """
    value, table, sides = _tsallis_setting(q, labels_true, labels_pred, contingency, model,
                                           one_sided, unassigned_label, unassigned)
    if value == 1.0:  # what standardized_mutual_information computes, to the bit
        return _table_smi(table, sides)
    if value == 2.0:
        if all(side.sizes_given for side in sides):  # MI_q (q = 2) is affine in RI: the exact SRI
            return _table_sri(table, sides)
        return _smi_2(table, sides)
    return _smi_q(table, sides, value)


def _moment_bound(side: Side) -> tuple[int, int]:
    """(distinct sizes, largest size) of a side, bounded without its size moments: a random
    side may have every size up to N - K + 1."""
    if side.sizes_given:
        return len(side.law.sizes), int(side.law.sizes.max())  # type: ignore[union-attr]
    largest = side.n - (side.k if side.fixed_k else 1) + 1
    return largest, largest


def _smi_q(table: Table, sides: tuple[Side, Side], q: float) -> float:
    """(MI_q - E[MI_q]) / sd[MI_q] for q != 1, 2 (:func:`_mi_q_variance`)."""
    if _constant_mi(sides):  # a single cluster or N singletons: MI_q takes one value
        return 0.0
    variance = _mi_q_variance(*canonical_pair(*sides), q)
    if not variance > 0:
        return 0.0
    centered = _mutual_information_q(table, q) - _expected_mi_q(*sides, q)
    return centered / math.sqrt(variance)


def _mi_q_variance(true: Side, pred: Side, q: float) -> float:
    """Var[MI_q] (q != 1, 2) by the routes of Var[MI] with the cell function of MI_q
    (docs/math.md#math-tsallis): two fixed sides by the Lancaster expansion; random sides
    that are slot mixtures by the slot sums, at every N (not only beyond q = 1's switches:
    the small-table route loses digits as q grows, its terms of x^q cancel); else (and where
    the expansion does not reach its bound) the small-table route (``mi_q_variance``)."""
    n = true.n
    if n > MAX_VARIANCE_N:
        raise UnsupportedError(
            f"the exact variance of MI_q is implemented for N <= {MAX_VARIANCE_N:.0e} (got "
            f"N = {n}); use significance_test for a Monte Carlo null"
        )
    random = [side for side in (true, pred) if not side.sizes_given]
    if not random:
        rows, cols = _size_moments(true), _size_moments(pred)
        _check_grid(n, rows, cols)
        total = total_variance(n, rows, cols, cell=TsallisCell(n, q))
        if total is not None:
            return total / (n * n)
    elif all(isinstance(side.law, SlotMixture) for side in random):
        _check_slot_windows(n, random)
        if len(random) == 2:
            return _two_sided_slot_variance_q(true, pred, q)
        fixed = pred if random[0] is true else true
        cell = TsallisCell(n, q)
        return one_sided_slot_variance(fixed.law, random[0].law, cell) / (n * n)
    points = _small_route_points(true, pred)
    if points > MAX_VARIANCE_POINTS:
        raise UnsupportedError(
            f"the exact variance of MI_q (q != 1, 2) would evaluate up to {points} pmf points, "
            f"more than the limit {MAX_VARIANCE_POINTS} (it is meant for small tables: few "
            "distinct cluster sizes, small clusters; under num and all, small N); use q = 1 "
            "or 2, or significance_test for a Monte Carlo null"
        )
    return mi_q_variance(n, true.size_moments(), pred.size_moments(), q)


def _small_route_points(true: Side, pred: Side) -> int:
    """The most pmf points of the small-table route (the loops of ``mi_q_variance``)."""
    (da, top_a), (db, top_b) = (_moment_bound(side) for side in (true, pred))
    return da * db * (da + db + 1) * (min(top_a, top_b) + 1) ** 2


@lru_cache(maxsize=64)
def _two_sided_slot_variance_q(true: Side, pred: Side, q: float) -> float:
    """Var[MI_q] of two random sides (slot mixtures; hashable: they depend on N and K)."""
    n = true.n
    return two_sided_slot_variance(true.law, pred.law, TsallisCell(n, q)) / (n * n)


def _smi_2(table: Table, sides: tuple[Side, Side]) -> float:
    """SMI_q at q = 2 under any model: MI_q = 2 N00 / N^2 (N00 pairs apart in both), so
    SMI_q = (N00 - E[N00]) / sd[N00], E[N00] = P (1 - p_A)(1 - p_B) and
    Var[N00] / P^2 = V_A (3/4 - p_B) + V_B (3/4 - p_A) + V / 4, from the library's exact
    Var[RI]: V of the two sides, V_A and V_B of each side against N singletons
    (docs/math.md#math-tsallis)."""
    n = table.n
    if n < 2 or _constant_mi(sides):
        return 0.0
    true, pred = sides
    singletons = Num().side(n, None, n)  # K = N: an exact size law of N ones, p = 0
    p_true, q_true = pair_probabilities(true.law)
    p_pred, q_pred = pair_probabilities(pred.law)
    v_true = float(_table_variance(table, (true, singletons)))
    v_pred = float(_table_variance(table, (singletons, pred)))
    v_both = float(_table_variance(table, sides))
    variance = v_true * (0.75 - p_pred) + v_pred * (0.75 - p_true) + v_both / 4.0
    if not variance > 0:
        return 0.0
    pairs = n * (n - 1) // 2
    centered = _pair_counts(table).n00 / pairs - q_true * q_pred
    return centered / math.sqrt(variance)
