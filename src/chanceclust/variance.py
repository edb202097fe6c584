"""Exact variances of the Rand index and the mutual information, and the z-scores SRI and SMI.

docs/math.md#math-rand-variance and #math-mi-variance; a one-sided reference is a perm side.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from chanceclust._docs import fill_doc
from chanceclust._expected.elementary import falling
from chanceclust._expected.laws import (
    Law,
    SizeLaw,
    SlotMixture,
    exact_pair_probability,
    inverse_moments,
)
from chanceclust._expected.mi_variance import (
    MAX_RANDOM_N,
    MAX_SIZE_LAW_N,
    SLOT_TWO_SIDED_N,
    SizeMoments,
    grid_points,
    pair_points,
    total_variance,
)
from chanceclust._expected.mi_variance_slots import (
    longest_window,
    one_sided_slot_variance,
    two_sided_slot_variance,
)
from chanceclust._models import Model, PerSide, Side, canonical_pair
from chanceclust.contingency import Table, _pair_counts
from chanceclust.exceptions import InternalError, UnsupportedError
from chanceclust.expectations import _expected_mutual_information, _validated_table
from chanceclust.measures import _mutual_information

__all__ = [
    "mutual_information_variance",
    "rand_index_variance",
    "standardized_mutual_information",
    "standardized_rand_index",
]

Number = Fraction | float


def _fixed_moments(law: SizeLaw) -> tuple[Fraction, Fraction, Fraction]:
    """(a1, alpha_overlap, alpha_disjoint) of a fixed size sequence, as exact fractions.

    N >= 2: its one caller, :func:`_table_variance`, returns 0 for N < 2 before.
    """
    n = law.n
    s2 = s3 = s4 = sq = 0
    for size, count in zip(law.sizes.tolist(), law.weights.tolist(), strict=True):
        c, a = int(count), int(size)
        f2 = a * (a - 1)
        s2 += c * f2
        s3 += c * f2 * (a - 2)
        s4 += c * f2 * (a - 2) * (a - 3)
        sq += c * f2 * f2
    a1 = Fraction(s2, n * (n - 1))
    overlap = Fraction(s3, falling(n, 3)) - a1 * a1 if n >= 3 else Fraction(0)
    disjoint = Fraction(s4 + s2 * s2 - sq, falling(n, 4)) - a1 * a1 if n >= 4 else Fraction(0)
    return a1, overlap, disjoint


def _is_fixed(law: Law) -> bool:
    return isinstance(law, SizeLaw) and law.exact


def _exact_variance(n: int, side_true: tuple, side_pred: tuple) -> Fraction:
    """Var[RI] of two fixed size sequences (perm), exactly: the pair-pair sum of the notes."""
    a1, a_ov, a_dis = side_true
    b1, b_ov, b_dis = side_pred
    pairs = n * (n - 1) // 2
    weights = (pairs, n * (n - 1) * (n - 2), n * (n - 1) * (n - 2) * (n - 3) // 4)
    alphas = (a1 * (1 - a1), a_ov, a_dis)
    betas = (b1 * (1 - b1), b_ov, b_dis)
    total = sum(
        w * (al * (1 - 2 * b1) ** 2 + be * (1 - 2 * a1) ** 2 + 4 * al * be)
        for w, al, be in zip(weights, alphas, betas, strict=True)
    )
    return total / (pairs * pairs)


def _table_variance(table: Table, sides: tuple[Side, Side]) -> Number:
    """Var[RI] for a table: an exact Fraction when both sides are fixed size sequences, else
    through each random side's (p1, g, v) of ``inverse_moments``
    (docs/math.md#math-rand-variance)."""
    n = table.n
    if n < 2:
        return Fraction(0)
    true, pred = sides
    if _is_fixed(true.law) and _is_fixed(pred.law):
        return _exact_variance(n, _fixed_moments(true.law), _fixed_moments(pred.law))
    pairs = float(n * (n - 1) // 2)
    if _is_fixed(true.law) or _is_fixed(pred.law):
        fixed, random = (true, pred) if _is_fixed(true.law) else (pred, true)
        _, gap, spread = inverse_moments(random.law, random.k)
        tilt = float((1 - 2 * _fixed_moments(fixed.law)[0]) ** 2)
        return max(gap / pairs + tilt * spread, 0.0)
    a1, gap_a, spread_a = inverse_moments(true.law, true.k)
    b1, gap_b, spread_b = inverse_moments(pred.law, pred.k)
    total = (gap_a + gap_b - 4.0 * gap_a * gap_b) / pairs + (
        (1.0 - 2.0 * b1) ** 2 * spread_a + (1.0 - 2.0 * a1) ** 2 * spread_b
        + 4.0 * spread_a * spread_b
    )
    return max(total, 0.0)


@fill_doc
def rand_index_variance(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Exact variance of the Rand index of two random clusterings under a random model.

    Formula: docs/math.md#math-rand-variance.

    Parameters
    ----------
    %(model_inputs)s

    Returns
    -------
    float
        Var[RI] >= 0. Exactly 0.0 when the ensemble holds a single value of
        RI (N < 2; a side with one cluster or N clusters facing a side whose
        Q is fixed, e.g. perm, or num with K = 1, N - 1 or N).

    See Also
    --------
    standardized_rand_index : (RI - E[RI]) / sd[RI].
    chanceclust.expected_rand_index : E[RI].

    Notes
    -----
    Exact rationals under perm, else <= 1e-12 relative for N up to 10^15; routes, accuracy
    and cost: docs/math.md#math-rand-variance and #math-accuracy.

    References
    ----------
    Hubert, L. and Arabie, P. (1985). Comparing partitions. J. Classification 2:193-218.
    Gates, A. J. and Ahn, Y.-Y. (2017). JMLR 18(87):1-28.

    Examples
    --------
    >>> from chanceclust.variance import rand_index_variance
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> rand_index_variance(a, b)  # 32/1875 by enumeration of the 15 x 10 pairs
    0.0170666666...
    >>> rand_index_variance(a, b, model="num", one_sided=True)
    0.01...
    >>> rand_index_variance([0, 0, 0], [0, 1, 2])
    0.0
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return float(_table_variance(table, setting.sides_of_table(table)))


def _table_centered(table: Table, sides: tuple[Side, Side]) -> Fraction:
    """RI - E[RI] in exact rationals (docs/math.md#math-rand-variance): floats a1, b1 of
    random sides enter as their exact binary values, so no cancellation in this sum."""
    counts = _pair_counts(table)
    pairs = counts.total
    a1, b1 = (exact_pair_probability(side.law) for side in sides)
    q_true = Fraction(counts.n11 + counts.n10, pairs)
    q_pred = Fraction(counts.n11 + counts.n01, pairs)
    n11 = Fraction(counts.n11, pairs)
    return 2 * (n11 - a1 * b1) + (a1 - q_true) + (b1 - q_pred)


@fill_doc
def standardized_rand_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Standardized Rand index (RI - E[RI]) / sd[RI] under a random model, without sampling.

    Formula: docs/math.md#math-rand-variance.

    Parameters
    ----------
    %(model_inputs)s

    Returns
    -------
    float
        The z-score of the observed Rand index in the model's null
        distribution. 0.0 when the variance is 0 (then RI = E[RI]: the
        ensemble holds a single value, the observed one), never NaN.

    See Also
    --------
    rand_index_variance : the variance used here.
    chanceclust.significance.significance : a Monte Carlo p-value.

    Notes
    -----
    The numerator in exact rationals, z to 1e-12 relative; not a p-value
    (docs/math.md#math-rand-variance).

    Examples
    --------
    >>> from chanceclust.variance import standardized_rand_index
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(standardized_rand_index(a, b), 6)  # (2/3 - 14/25) / sqrt(32/1875)
    0.816497
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _table_sri(table, setting.sides_of_table(table))


def _table_sri(table: Table, sides: tuple[Side, Side]) -> float:
    """(RI - E[RI]) / sd[RI] of a table given its sides (0.0 for a single-valued ensemble)."""
    variance = _table_variance(table, sides)
    if variance == 0:
        return 0.0
    centered = _table_centered(table, sides)
    # One rounding for the ratio's square: sign * sqrt(c^2 / v).
    value = float(centered * centered / Fraction(variance)) ** 0.5
    return value if centered >= 0 else -value


def _fixed_clusters(side: Side) -> int | None:
    """K of a side whose sizes are fixed (perm, a reference, K = 1 or N), else None."""
    return side.k if side.sizes_given or (side.fixed_k and side.k in (1, side.n)) else None


def _constant_mi(sides: tuple[Side, Side]) -> bool:
    """True when every pair of the ensemble has the same MI, so that Var[MI] is exactly 0.

    MI = 0 when a side is one cluster; MI = H(other side) when a side is N singletons,
    constant when the other side's sizes are fixed too; and sizes (N - 1, 1) against equal
    sizes.
    """
    n = sides[0].n
    ks = [_fixed_clusters(side) for side in sides]
    if n < 2 or 1 in ks:
        return True
    fixed = [side.sizes for side in sides if side.sizes_given]
    # Sizes (N - 1, 1) against equal sizes: the singleton's column changes no cell's law, so
    # every table has the same MI (the only other single-valued case, found by enumerating
    # every pair of size sequences to N = 10).
    if len(fixed) == 2 and any(len(s) == 2 and min(s) == 1 and bool(np.all(t == t[0]))
                               for s, t in (fixed, fixed[::-1])):
        return True
    return n in ks and None not in ks


#: Largest N of the exact Var[MI] (tested to 10^6 against references; the sums' windows and
#: their cancellation were not checked beyond 10^9, so it is refused there).
MAX_VARIANCE_N = 10**9


def _table_mi_variance(table: Table, sides: tuple[Side, Side]) -> float:
    """Var[MI] (nats^2) of a table under its two sides (docs/math.md#math-mi-variance).

    Symmetric to the last bit: two sides of one kind are taken in their canonical order.
    Two random sides (two-sided num, all) depend on (N, K_A, K_B) only and are cached.
    """
    if _constant_mi(sides):
        return 0.0
    if sides[0].n > MAX_VARIANCE_N:
        raise UnsupportedError(
            f"the exact variance of the mutual information is implemented for N <= "
            f"{MAX_VARIANCE_N:.0e} (got N = {sides[0].n}); use significance_test('mi', ...) "
            "for a Monte Carlo null"
        )
    true, pred = canonical_pair(*sides)
    if true.key is not None and pred.key is not None:
        return _two_sided_mi_variance(true, pred)
    return _mi_variance_of_sides(true, pred)


def _mi_variance_of_sides(true: Side, pred: Side) -> float:
    """Var[MI] by the sums over sizes (N <= MAX_RANDOM_N for a random side; two random
    sides: N <= SLOT_TWO_SIDED_N), or beyond that, where every random side is a slot mixture,
    by the sums over the slots; a random side that is only a size law (num with small
    clusters) by the sums over sizes up to MAX_SIZE_LAW_N (one random side, two), refused
    beyond."""
    n = true.n
    random = [side for side in (true, pred) if not side.sizes_given]
    beyond = SLOT_TWO_SIDED_N if len(random) == 2 else MAX_RANDOM_N
    if n > beyond and all(isinstance(side.law, SlotMixture) for side in random):
        _check_slot_windows(n, random)
        if len(random) == 2:
            return two_sided_slot_variance(true.law, pred.law) / (n * n)
        if len(random) == 1:
            fixed = pred if random[0] is true else true
            return one_sided_slot_variance(fixed.law, random[0].law) / (n * n)
    limit = MAX_SIZE_LAW_N[len(random) - 1] if random else n
    rows, cols = _size_moments(true, limit), _size_moments(pred, limit)
    _check_grid(n, rows, cols)
    total = total_variance(n, rows, cols, MAX_GRID_POINTS)
    if total is None:
        raise UnsupportedError(
            f"the exact variance of the mutual information needs the pair sums here (the "
            f"Lancaster expansion does not reach its bound), and their arrays need about "
            f"{pair_points(n, rows, cols):.3g} points (distinct cluster-size pairs x the "
            f"longest window, or that window squared), more than the {MAX_GRID_POINTS} they "
            f"are implemented for (N = {n}); use significance_test('mi', ...) for a Monte "
            "Carlo null"
        )
    return total / (n * n)


#: Longest window (counts) of a slot's cell, Binomial(N, 1/u), that the slot routes take.
MAX_SLOT_WINDOW = 2**16


def _check_slot_windows(n: int, random: list[Side]) -> None:
    """Refuse, naming the range, slot mixtures whose cells' windows pass MAX_SLOT_WINDOW
    (N / u of ~10^9 and more: the window grows as sqrt(N / u))."""
    width = longest_window(n, [u for side in random for u in side.law.slots])
    if width > MAX_SLOT_WINDOW:
        raise UnsupportedError(
            f"the exact variance of the mutual information under a random model needs "
            f"windows of about {width:.3g} counts here (N = {n}), more than the "
            f"{MAX_SLOT_WINDOW} it is implemented for; use significance_test('mi', ...) "
            "for a Monte Carlo null"
        )


#: Points beyond which the sums over sizes are refused: the windows' lengths summed over the
#: distinct size pairs (the Lancaster route: ~0.5 s per 10^6 points here) and, where the
#: pair sums are needed, the distinct size pairs x the longest window (their arrays would
#: pass ~0.4 GiB, and minutes of CPU).
MAX_GRID_POINTS = 2**24


def _check_grid(n: int, rows: SizeMoments, cols: SizeMoments) -> None:
    """Refuse, naming the range, a table whose windows hold more than MAX_GRID_POINTS
    points (the engine's grid_points)."""
    points, _, width = grid_points(n, rows, cols)
    if points > MAX_GRID_POINTS:
        raise UnsupportedError(
            f"the exact variance of the mutual information needs about {points:.3g} points "
            f"of hypergeometric windows here (one window of up to {width:.3g} counts per "
            f"pair of distinct cluster sizes), more than the {MAX_GRID_POINTS} it is "
            f"implemented for (N = {n}); use significance_test('mi', ...) for a Monte Carlo "
            "null"
        )


def _size_moments(side: Side, limit: int = MAX_SIZE_LAW_N[1]) -> SizeMoments:
    """The size moments of one side; a random side with N > ``limit`` is refused (the
    callers have sent the slot mixtures beyond MAX_RANDOM_N to the slot routes before)."""
    if side.n > limit and _fixed_clusters(side) is None:
        sides = "one random side" if limit == MAX_SIZE_LAW_N[0] else "two random sides"
        raise UnsupportedError(
            f"the exact variance of the mutual information under model={side.name!r} is "
            f"implemented for N <= {limit} with {sides} (got N = {side.n}), and beyond only "
            "where the random sides are mixtures of uniform labelings (all; num with mean "
            "cluster size well above log K); use model='perm', or significance_test('mi', "
            "...) for a Monte Carlo null"
        )
    return side.size_moments()


@lru_cache(maxsize=64)
def _two_sided_mi_variance(true: Side, pred: Side) -> float:
    return _mi_variance_of_sides(true, pred)


def _table_smi(table: Table, sides: tuple[Side, Side]) -> float:
    """(MI - E[MI]) / sd[MI] of a table under its two sides; 0.0 when Var[MI] = 0."""
    variance = _table_mi_variance(table, sides)
    if variance == 0:
        return 0.0
    if not variance > 0:
        raise InternalError(f"Var[MI] = {variance!r} is not positive")
    centered = _mutual_information(table) - _expected_mutual_information(*sides)
    return centered / math.sqrt(variance)


@fill_doc
def mutual_information_variance(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Exact variance of the mutual information (nats^2) of two random clusterings.

    Formula: docs/math.md#math-mi-variance.

    Parameters
    ----------
    %(model_inputs)s

    Returns
    -------
    float
        Var[MI] >= 0 in nats^2. Exactly 0.0 when every clustering pair of the
        ensemble has the same MI (N < 2; a side with one cluster; N singletons
        facing a side of fixed sizes).

    Raises
    ------
    InvalidInputError
        Under ``num`` with 1 < K < N and small clusters (mean size N/K not well
        above log K, where num's law is not a well-conditioned mixture of
        uniform labelings) beyond N = 1000 with one random side and N = 100
        with two: that case is not implemented.

    See Also
    --------
    standardized_mutual_information : (MI - E[MI]) / sd[MI].
    chanceclust.expected_mutual_information : E[MI].
    rand_index_variance : the same for the Rand index.

    Notes
    -----
    <= 1e-10 relative tested (measured <= 3e-15). Routes, switches, accuracy and cost:
    docs/math.md#math-mi-variance, #math-mi-lancaster and #math-routes.

    References
    ----------
    Romano, S., Bailey, J., Nguyen, V. and Verspoor, K. (2014). Standardized
    mutual information for clustering comparisons: one step further in
    adjustment for chance. ICML, PMLR 32(2):1143-1151.

    Examples
    --------
    >>> from chanceclust import mutual_information_variance
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(mutual_information_variance(a, b), 12)  # enumeration of the 90 x 20 pairs
    0.051248321485
    >>> round(mutual_information_variance(a, b, model="all"), 12)
    0.085374384814
    >>> mutual_information_variance([0, 0, 0], [0, 1, 2])
    0.0
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _table_mi_variance(table, setting.sides_of_table(table))


@fill_doc
def standardized_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Standardized mutual information (MI - E[MI]) / sd[MI] under a random model, exactly.

    Formula: docs/math.md#math-mi-variance (Romano et al. 2014 under perm).

    Parameters
    ----------
    %(model_inputs)s

    Returns
    -------
    float
        The z-score of the observed MI in the model's null distribution. 0.0
        when the variance is 0 (the ensemble holds a single value of MI, the
        observed one), never NaN.

    Raises
    ------
    InvalidInputError
        As :func:`mutual_information_variance` (num with small clusters beyond
        the size-law limit).

    See Also
    --------
    mutual_information_variance : the variance used here.
    chanceclust.adjusted_mutual_information : AMI, an effect size.
    chanceclust.significance_test : a Monte Carlo p-value.

    Notes
    -----
    Absolute error about 1e-13 sqrt((K_A - 1)(K_B - 1)); not a p-value
    (docs/math.md#math-mi-variance).

    Examples
    --------
    >>> from chanceclust import standardized_mutual_information
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(standardized_mutual_information(a, b), 9)  # enumeration of the 90 x 20 pairs
    0.816496581
    >>> round(standardized_mutual_information(a, b, model="num", one_sided=True), 9)
    1.098532905
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _table_smi(table, setting.sides_of_table(table))
