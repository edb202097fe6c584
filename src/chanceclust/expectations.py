"""Expected Rand index and mutual information under the perm, num and all random models.

Two-sided (default): both clusterings are drawn independently from the
model. One-sided (``one_sided=True``): ``labels_true`` is a fixed reference
and only ``labels_pred`` is random. Under ``perm`` both are the same.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from chanceclust._docs import fill_doc
from chanceclust._expected.laws import falling_moment, pair_probabilities
from chanceclust._expected.mutual_information import expected_mi_of_laws
from chanceclust._models import Setting, Side, canonical_pair
from chanceclust._validation import (
    MAX_N,
    check_count,
    check_model_summary,
    check_setting,
    check_summaries,
)
from chanceclust.contingency import Table, _summarize

__all__ = [
    "expected_mutual_information",
    "expected_mutual_information_baseline",
    "expected_rand_index",
    "expected_rand_index_baseline",
    "same_cluster_probability",
]


def _expected_rand_index_and_spread(true: Side, pred: Side) -> tuple[float, float]:
    """(E[RI], 1 - E[RI]) = (p_A p_B + q_A q_B, p_A q_B + q_A p_B), q = 1 - p.

    docs/math.md#math-expected-rand. Both are sums of non-negative terms: 1 - E[RI], the
    ARI's denominator, is never formed by a cancelling subtraction; both are symmetric in
    the two sides to the last bit (two products, added in either order).
    """
    p_true, q_true = pair_probabilities(true.law)
    p_pred, q_pred = pair_probabilities(pred.law)
    return p_true * p_pred + q_true * q_pred, p_true * q_pred + q_true * p_pred


def _expected_rand_index(true: Side, pred: Side) -> float:
    """E[RI] = p_A p_B + (1 - p_A)(1 - p_B) (docs/math.md#math-expected-rand)."""
    if true.n < 2:
        return 1.0
    return _expected_rand_index_and_spread(true, pred)[0]


def _expected_mutual_information(true: Side, pred: Side) -> float:
    """E[MI] of two sides: the one call path of every E[MI] (docs/math.md#math-expected-mi).

    Two random sides (two-sided num and all) depend on (N, K_A, K_B) or N only and are
    cached by their keys; otherwise the laws are summed afresh. Sides of one kind are taken
    in their canonical order, so that E[MI] is symmetric to the last bit.
    """
    true, pred = canonical_pair(true, pred)
    if true.key is not None and pred.key is not None:
        return _expected_mutual_information_two_sided(true, pred)
    return expected_mi_of_laws(true.law, pred.law)


@lru_cache(maxsize=256)
def _expected_mutual_information_two_sided(true: Side, pred: Side) -> float:
    """E[MI] of two random sides (hashable by value: their law depends on N and K only)."""
    return expected_mi_of_laws(true.law, pred.law)


def _validated_table(
    labels_true: Any,
    labels_pred: Any,
    contingency: Any,
    model: Any,
    one_sided: Any,
    unassigned_label: Any,
    unassigned: Any,
    /,
) -> tuple[Table, Setting]:
    """Parse ``model`` and ``one_sided``, then summarize the labels or table (in that order).

    The one helper of the public functions' shared parameters (the ``labels``,
    ``contingency``, ``model`` and ``unassigned`` fragments of :mod:`chanceclust._docs`).
    """
    setting = check_setting(model, one_sided)
    table = _summarize(
        labels_true,
        labels_pred,
        contingency,
        unassigned_label=unassigned_label,
        unassigned=unassigned,
    )
    return table, setting


@fill_doc
def expected_rand_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Expected Rand index of two clusterings under a random model.

    Formula: docs/math.md#math-expected-rand (paper eqs. 5, 11, 15, 18, 19).

    E[RI] = p_A p_B + (1 - p_A)(1 - p_B), where p_X is the probability that
    two given elements share a cluster of X: Q(X)/C(N,2) under perm or for a
    fixed reference, S(N-1,K)/S(N,K) under num, B_{N-1}/B_N under all.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings (any hashable labels). Give these or ``contingency``.
    model : {"perm", "num", "all"}, default="perm"
        perm: cluster sizes fixed (Hubert & Arabie); num: uniform over
        clusterings with the same number of clusters; all: uniform over all
        clusterings of N elements.
    one_sided : bool, default=False
        If True, ``labels_true`` is a fixed reference and only
        ``labels_pred`` is random. Under perm this changes nothing.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table instead of labels.
    %(unassigned)s

    Returns
    -------
    float
        E[RI] in [0, 1]; 1.0 when N < 2.

    See Also
    --------
    expected_rand_index_baseline : the same from N, K or cluster sizes alone.
    adjusted_rand_index : (RI - E[RI]) / (1 - E[RI]).

    Notes
    -----
    Accuracy: exact rational arithmetic then one rounding under perm; under
    num and all the ratios of Stirling and Bell numbers are moments of a
    mixture of i.i.d. labelings, relative error ~1e-15 (measured <= 6e-16
    against 50-digit references at N = 10^6 .. 10^18 and exactly 2^63 - 1,
    num with K = 2 .. N/45, N - 1 and small clusters). Under all, from
    N = 10^4, Stam's mixture is a 48-node Gauss-Hermite rule in real u
    (:mod:`chanceclust._expected.laws`), so the cost and memory do not grow with
    N. Cost O(K_A + K_B) after the table under perm and num.

    References
    ----------
    Gates, A. J. and Ahn, Y.-Y. (2017). The impact of random models on
    clustering similarity. JMLR 18(87):1-28.

    Examples
    --------
    >>> from chanceclust import expected_rand_index
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> expected_rand_index(a, b)  # sizes (2, 2, 2) and (3, 3): 0.2 * 0.4 + 0.8 * 0.6
    0.56
    >>> round(expected_rand_index(a, b, model="all"), 6)  # p = B_5/B_6 = 52/203; p^2 + (1-p)^2
    0.618918
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _expected_rand_index(*setting.sides_of_table(table))


@fill_doc
def expected_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Expected mutual information (nats) of two clusterings under a random model.

    E[MI] = sum_a sum_b w_A(a) w_B(b) sum_n h(n; N, a, b) (n/N) log(N n / (a b)),
    with w_X(a) the expected number of clusters of size a in X (docs/math.md#math-expected-mi) and
    h the hypergeometric pmf. Under perm this is the EMI of Vinh, Epps and
    Bailey (2010) used by scikit-learn's ``adjusted_mutual_info_score``.

    Parameters
    ----------
    %(labels)s
    %(model)s
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table instead of labels.
    %(unassigned)s

    Returns
    -------
    float
        E[MI] >= 0 in nats; 0.0 when N < 2.

    See Also
    --------
    expected_mutual_information_baseline : the same from N, K or cluster sizes alone.
    adjusted_mutual_information : (MI - E[MI]) / (s_max - E[MI]).

    Notes
    -----
    The sums are evaluated in a form whose terms are all non-negative
    (deviances bd0 of Loader 2000 under accurate binomial and hypergeometric
    pmfs), so E[MI] keeps ~1e-13 relative accuracy at any N, where the
    textbook E[H(A)] + E[H(B)] - E[H(A,B)] loses digits by cancellation.
    Under num with K clusters and all, the sums over the random side's
    cluster sizes collapse to binomial sums (i.i.d. labelings: inclusion-
    exclusion for num, Stam's mixture for all). Terms of the hypergeometric
    and binomial sums outside a Bennett window of probability 1e-20 are
    dropped (docs/math.md#math-windows); binomial sums of variance >= 2^20 are replaced by their moment
    expansion (error < 1e-22 relative). Cost under perm: O(sqrt(ab/N)) per
    size pair of mean ab/N below 100, a few hundred flops per pair above.

    Range: num and all, any N up to 2^63 - 1 (measured <= 5e-15 relative
    against 50-digit references at N = 10^6 .. 10^18 and exactly 2^63 - 1,
    num with K = 2 .. N/45, N - 1 and small clusters; < 0.1 s). Two
    sides given by cluster sizes (perm, or num with a mean cluster size
    below about log K, whose size law is used): any N up to 2^63 - 1; size
    pairs whose cell count has mean >= 100 use the series of E[bd0] in
    1/mean with exact hypergeometric cumulants (truncation < 1e-17
    relative, docs/math.md#math-perm-groups), the others windowed sums (free
    of int64 products beyond N = 3037000499, where N**2 >= 2**63); measured
    <= 2e-15 per size pair against 50-digit references at N = 10 .. 2^63 - 1.
    num with small clusters: any K (up to N - 2); where the size law's
    lattice variance K Var X is >= 1000 it comes from a saddle-point
    expansion (docs/math.md#math-laws), tested <= 1e-12 against Fourier-
    inversion references at K = 10^6 .. 2^62.

    References
    ----------
    Vinh, N. X., Epps, J. and Bailey, J. (2010). Information theoretic
    measures for clusterings comparison. JMLR 11:2837-2854.
    Gates, A. J. and Ahn, Y.-Y. (2017). JMLR 18(87):1-28.

    Examples
    --------
    >>> from chanceclust import expected_mutual_information
    >>> a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    >>> round(expected_mutual_information(a, b), 6)
    0.277259
    >>> round(expected_mutual_information(a, b, model="num", one_sided=True), 6)
    0.261039
    """
    table, setting = _validated_table(
        labels_true, labels_pred, contingency, model, one_sided, unassigned_label, unassigned
    )
    return _expected_mutual_information(*setting.sides_of_table(table))


def _baseline_sides(
    n: Any,
    model: Any,
    one_sided: Any,
    sizes_true: Any,
    sizes_pred: Any,
    n_clusters_true: Any,
    n_clusters_pred: Any,
) -> tuple[Side, Side]:
    """Validate summary arguments; return the two sides."""
    n = check_count(n, "n", maximum=MAX_N)
    setting = check_setting(model, one_sided)
    sizes_true, k_true, sizes_pred, k_pred = check_summaries(
        n, setting, sizes_true, n_clusters_true, sizes_pred, n_clusters_pred
    )
    return setting.sides(n, sizes_true, k_true, sizes_pred, k_pred)


@fill_doc
def expected_rand_index_baseline(
    n: int,
    *,
    model: str = "perm",
    one_sided: bool = False,
    sizes_true: Any = None,
    sizes_pred: Any = None,
    n_clusters_true: int | None = None,
    n_clusters_pred: int | None = None,
) -> float:
    """Expected Rand index from summaries alone, without labels.

    Formula: docs/math.md#math-expected-rand (paper eqs. 5, 11, 15, 18, 19).

    What each model needs: perm, the two cluster-size sequences; num, the
    numbers of clusters K_A and K_B (or size sequences, whose lengths are
    used); all, only N. One-sided, the reference's sizes ``sizes_true`` and,
    for num, ``n_clusters_pred``.

    Parameters
    ----------
    %(summaries)s

    Returns
    -------
    float
        E[RI], as :func:`expected_rand_index`.

    Raises
    ------
    InvalidInputError
        For an invalid argument (a ``ValueError``; chanceclust.exceptions).

    Notes
    -----
    Any ``n`` up to 2^63 - 1: constant memory and < 0.1 s under every model;
    pair counts such as n (n - 1) / 2 are exact Python integers (n enters the
    smooth laws of num and all as a float, a 1e-16 relative change of their
    shape). Accuracy as :func:`expected_rand_index`.

    Examples
    --------
    Expected ARI baselines do not exist under perm without sizes; under num
    a table over N and K is a loop:

    >>> from chanceclust import expected_rand_index_baseline
    >>> [round(expected_rand_index_baseline(1000, model="num", n_clusters_true=k,
    ...        n_clusters_pred=k), 4) for k in (2, 10, 100)]
    [0.5, 0.82, 0.9802]
    >>> expected_rand_index_baseline(20, model="all")
    0.7...
    """
    return _expected_rand_index(
        *_baseline_sides(
            n, model, one_sided, sizes_true, sizes_pred, n_clusters_true, n_clusters_pred
        )
    )


@fill_doc
def expected_mutual_information_baseline(
    n: int,
    *,
    model: str = "perm",
    one_sided: bool = False,
    sizes_true: Any = None,
    sizes_pred: Any = None,
    n_clusters_true: int | None = None,
    n_clusters_pred: int | None = None,
) -> float:
    """Expected mutual information (nats) from summaries alone, without labels.

    What each model needs is as for :func:`expected_rand_index_baseline`; the
    value is that of :func:`expected_mutual_information` for any clusterings
    with these summaries.

    Parameters
    ----------
    %(summaries)s

    Returns
    -------
    float
        E[MI] in nats; two-sided num and all values are cached by (N, K_A, K_B).

    Raises
    ------
    InvalidInputError
        For an invalid argument (a ``ValueError``; chanceclust.exceptions).

    Notes
    -----
    num and all: any ``n`` up to 2^63 - 1 in < 0.1 s and constant memory
    (<= 0.03 s and <= 0.5 MB allocated at n = 2^63 - 1, benchmarks/HUGE_N.md),
    relative error <= 5e-15 measured against 50-digit references at
    n = 10^6 .. 10^18 and exactly 2^63 - 1, num with K = 2 .. n/45, n - 1
    and small clusters (tests/reference/huge_expectations.json). perm (two
    size sequences): any ``n`` up to 2^63 - 1, <= 2e-15 measured per size
    pair against 50-digit references (the pair_information,
    huge_pair_information and series_pair_information JSON files of
    tests/reference/); the cost grows with the number of distinct size pairs (two Zipf sequences of 1000 sizes:
    < 1 s and < 300 MB at every n from 10^6 to 2^63 - 1,
    benchmarks/PERM_HUGE_N.md). Accuracy and method as
    :func:`expected_mutual_information` (docs/math.md#math-collapsed-sums).

    Examples
    --------
    >>> from chanceclust import expected_mutual_information_baseline
    >>> round(expected_mutual_information_baseline(
    ...     100, model="num", n_clusters_true=5, n_clusters_pred=5), 6)
    0.0...
    """
    return _expected_mutual_information(
        *_baseline_sides(
            n, model, one_sided, sizes_true, sizes_pred, n_clusters_true, n_clusters_pred
        )
    )


def same_cluster_probability(
    n: Any,
    *,
    model: str,
    n_clusters: Any = None,
    sizes: Any = None,
    group_size: int = 2,
) -> float:
    """Probability that ``group_size`` given elements all share a cluster in a random clustering.

    The quantity p_X behind the expected Rand index (``group_size=2``) and its variance
    (``group_size=3, 4``): docs/math.md#math-expected-rand and #math-laws.

    Parameters
    ----------
    n : int
        Number of elements N.
    model : {"perm", "num", "all"}
        perm: uniform over clusterings with the cluster sizes ``sizes``;
        num: uniform over the S(N, K) clusterings with K = ``n_clusters``;
        all: uniform over the B_N clusterings.
    n_clusters : int, optional
        K, for ``num``.
    sizes : array-like of int, optional
        The cluster sizes, for ``perm`` (they must sum to ``n``).
    group_size : int, default=2
        Number m of given elements (1 or more; 1 gives 1.0).

    Returns
    -------
    float
        With m = ``group_size``: perm: sum_i (a_i)_m / (N)_m; num: S(N-m+1, K)/S(N, K);
        all: B_{N-m+1}/B_N. For m = 2 this is p_X of docs/math.md#math-expected-rand; for m = 3
        it is also the probability that two given pairs are both co-clustered
        under num and all, whether or not the pairs share an element.

    Notes
    -----
    Exact rational arithmetic for perm; under num and all the ratios of
    Stirling or Bell numbers are computed as moments of a mixture of i.i.d.
    labelings, or for num with small clusters of the conditioned zero-truncated
    Poisson size law (FFT convolutions; docs/math.md#math-laws): relative error
    ~1e-15. Cost independent of N for perm after the sizes, O(sqrt(N)) for all.

    Examples
    --------
    >>> from chanceclust import same_cluster_probability
    >>> round(same_cluster_probability(4, model="all"), 12)  # B_3 / B_4 = 5 / 15
    0.333333333333
    >>> round(same_cluster_probability(4, model="perm", sizes=[2, 2]), 12)  # 2 pairs of 6
    0.333333333333
    >>> round(same_cluster_probability(5, model="num", n_clusters=2, group_size=3), 12)
    0.2
    """
    n, model, k, size_array = check_model_summary(n, model, n_clusters, sizes)
    m = check_count(group_size, "group_size", minimum=1)
    return falling_moment(model.side(n, size_array, k).law, m)
