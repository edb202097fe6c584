"""Exact variance of the Rand index under the perm, num and all random models.

The Rand index is an average over the P = C(N, 2) element pairs p of
Z_p = X_p Y_p + (1 - X_p)(1 - Y_p), where X_p (Y_p) is 1 when the pair is
co-clustered in A (B). With A and B independent,

    Cov(Z_p, Z_q) = alpha (1 - 2 b1)^2 + beta (1 - 2 a1)^2 + 4 alpha beta,

where a1 = P(X_p = 1), alpha = Cov(X_p, X_q), and b1, beta likewise for B.
The covariances depend only on whether p and q are the same pair, share one
element (N(N-1)(N-2) ordered pairs of pairs) or are disjoint
(N(N-1)(N-2)(N-3)/4 ordered pairs of pairs), so

    P^2 Var[RI] = P c_same + N(N-1)(N-2) c_overlap + N(N-1)(N-2)(N-3)/4 c_disjoint.

Per side (docs/math.md#math-rand-variance): perm with sizes a_i (Hubert & Arabie 1985),
a1 = sum (a_i)_2 / (N)_2, P(three elements together) = sum (a_i)_3 / (N)_3,
P(two disjoint pairs each together) = (sum (a_i)_4 + (sum (a_i)_2)^2
- sum (a_i)_2^2) / (N)_4; num and all: both joint probabilities equal
S(N-2,K)/S(N,K) or B_{N-2}/B_N, whatever the overlap.

One-sided (``labels_true`` a fixed reference G): the law of the table of
(G, B) is that of (sigma G, B) for a uniform permutation sigma of the
elements, because B's law is invariant under permutations. So the reference
enters exactly as a ``perm`` side with G's sizes, and one-sided perm equals
two-sided perm.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from chanceclust._docs import fill_doc
from chanceclust._expected.elementary import falling
from chanceclust._expected.laws import Law, SizeLaw, exact_pair_probability, inverse_moments
from chanceclust._models import Side
from chanceclust.contingency import Table, _pair_counts
from chanceclust.expectations import _validated_table

__all__ = ["rand_index_variance", "standardized_rand_index"]

Number = Fraction | float


def _fixed_moments(law: SizeLaw) -> tuple[Fraction, Fraction, Fraction]:
    """(a1, alpha_overlap, alpha_disjoint) of a fixed size sequence, as exact fractions."""
    n = law.n
    if n < 2:
        return Fraction(1), Fraction(0), Fraction(0)
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
    """Var[RI] for a table (exact Fraction when both sides are fixed size sequences).

    A random side (num or all) enters through (p1, g, v) of
    :func:`~chanceclust._expected.laws.inverse_moments`: p1 = P(pair together),
    g = p1 - p2 >= 0 and v = p2 - p1^2, p2 = P(two pairs together). With
    alpha = v for both kinds of pair pairs, the pair-pair sum regroups into
    terms that do not cancel (the fixed side's own Var[Q] = 0 is used exactly):

    * fixed (a1) and random: Var = g / P + (1 - 2 a1)^2 v;
    * both random: Var = (g_A + g_B - 4 g_A g_B) / P + (1 - 2 b1)^2 v_A
      + (1 - 2 a1)^2 v_B + 4 v_A v_B.
    """
    n = table.n
    if n < 2:
        return Fraction(0)
    # One-sided, the reference acts as a perm side with its own sizes (module notes).
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
    model: str = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Exact variance of the Rand index of two random clusterings under a random model.

    Formula: docs/math.md#math-rand-variance.

    The random clusterings have the cluster sizes (perm), the numbers of
    clusters (num) or only the number of elements (all) of ``labels_true``
    and ``labels_pred``; one-sided, ``labels_true`` is a fixed reference.

    Parameters
    ----------
    %(labels)s
    model : {"perm", "num", "all"}, default="perm"
        The random model (see :func:`chanceclust.expected_rand_index`).
    one_sided : bool, default=False
        If True, ``labels_true`` is fixed and only ``labels_pred`` is random.
        Under perm this changes nothing.
    %(contingency)s
    %(unassigned)s

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
    With P = C(N, 2) and, per side, a1 = P(a pair is co-clustered) and the
    covariances alpha of the co-clustering indicators of two pairs that
    share one element or none (module notes),
    P^2 Var[RI] = P c_0 + N(N-1)(N-2) c_1 + N(N-1)(N-2)(N-3)/4 c_2 with
    c = alpha (1 - 2 b1)^2 + beta (1 - 2 a1)^2 + 4 alpha beta.

    perm (two fixed size sequences): this sum in exact rational arithmetic on
    the sums of falling factorials of the cluster sizes, then one rounding.
    num and all: the sum is regrouped so that nothing cancels. A random side
    enters through g = p1 - p2 and v = p2 - p1^2 (p2 = P(two pairs
    co-clustered)), computed as E[(1/u)(1 - 1/u)] and Var(1/u) over the
    mixture of i.i.d. labelings with u labels that represents the model, and
    a fixed side (a one-sided reference) through its exact Var[Q] = 0:
    Var = g / P + (1 - 2 a1)^2 v with one fixed side, and
    (g_A + g_B - 4 g_A g_B) / P + (1 - 2 b1)^2 v_A + (1 - 2 a1)^2 v_B
    + 4 v_A v_B with two random sides.

    Accuracy and range (tests/reference/variance.json, 80-digit references
    from first principles): <= 1e-12 relative for every model and side, N
    from 2 to 10^15 from a table, measured <= 1e-15. Under num with a mean
    cluster size below about log K + 2 (its size law) v = p1^2 expm1(c),
    with c the curvature of log S(., K) (``_expected.curvature.stirling2_ratio_curvature``:
    an asymptotic expansion where the size law's lattice variance is >= 1000,
    <= 3e-13 relative against 40-digit references up to N = 10^15). Cost
    O(distinct cluster sizes) after the table, otherwise independent of N;
    memory constant.

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
    """RI - E[RI] = 2 (N11/P - a1 b1) + (a1 - Q(A)/P) + (b1 - Q(B)/P), evaluated exactly.

    Floats a1, b1 (random sides) enter as their exact binary values, so the
    only error is theirs, never a cancellation in this sum.
    """
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
    model: str = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Standardized Rand index (RI - E[RI]) / sd[RI] under a random model, without sampling.

    Formula: docs/math.md#math-rand-variance.

    Parameters
    ----------
    %(labels)s
    model : {"perm", "num", "all"}, default="perm"
        The random model.
    one_sided : bool, default=False
        If True, ``labels_true`` is a fixed reference.
    %(contingency)s
    %(unassigned)s

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
    The numerator is computed as 2 (N11/P - a1 b1) + (a1 - Q(A)/P) +
    (b1 - Q(B)/P) in exact rational arithmetic, with a random side's a1 as
    1/u0 + E[1/u - 1/u0] (u0 its heaviest slot), so the only error is that
    of the small correction E[1/u - 1/u0], not a cancellation (z to 1e-12
    relative against the references of :func:`rand_index_variance`). The
    z-score is not a p-value: the null law of RI is not Gaussian for small N
    or very unequal clusters. Cost as :func:`rand_index_variance`.

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
