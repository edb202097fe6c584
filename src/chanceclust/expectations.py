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
from chanceclust._models import Model, PerSide, Setting, Side, canonical_pair
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
    """(E[RI], 1 - E[RI]) = (p_A p_B + q_A q_B, p_A q_B + q_A p_B), q = 1 - p: no cancellation.

    docs/math.md#math-expected-rand; symmetric in the two sides to the last bit.
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
    """E[MI] of two sides, the one call path of every E[MI] (docs/math.md#math-expected-mi).

    Cached when both sides are random (keyed by N, K); sides in canonical order (symmetric).
    """
    true, pred = canonical_pair(true, pred)
    if true.key is not None and pred.key is not None:
        return _expected_mutual_information_two_sided(true, pred)
    return expected_mi_of_laws(true.law, pred.law)


@lru_cache(maxsize=256)
def _expected_mutual_information_two_sided(true: Side, pred: Side) -> float:
    """E[MI] of two random sides (hashable by value: their law depends on N and K only)."""
    return expected_mi_of_laws(true.law, pred.law)


def _validated_table(labels_true: Any, labels_pred: Any, contingency: Any, model: Any,
                     one_sided: Any, unassigned_label: Any, unassigned: Any, /
                     ) -> tuple[Table, Setting]:
    """Parse ``model`` and ``one_sided``, then summarize the labels or table (in that order)."""
    setting = check_setting(model, one_sided)
    return _summarize(labels_true, labels_pred, contingency, unassigned_label=unassigned_label,
                      unassigned=unassigned), setting


@fill_doc
def expected_rand_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Expected Rand index of two clusterings under a random model.

    Formula: docs/math.md#math-expected-rand (paper eqs. 5, 11, 15, 18, 19).

    Parameters
    ----------
    %(model_inputs)s

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
    Exact under perm, else ~1e-15 relative up to N = 2^63 - 1; method, accuracy and cost:
    docs/math.md#math-laws and #math-accuracy.

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
    model: str | Model | PerSide = "perm",
    one_sided: bool = False,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Expected mutual information (nats) of two clusterings under a random model.

    Formula: docs/math.md#math-expected-mi (under perm the EMI of Vinh, Epps and Bailey
    2010, scikit-learn's ``adjusted_mutual_info_score``).

    Parameters
    ----------
    %(model_inputs)s

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
    Sums of non-negative terms: ~1e-13 relative at any N up to 2^63 - 1. Sums, windows,
    routes, accuracy and cost:
    docs/math.md#math-collapsed-sums, #math-windows, #math-routes and #math-accuracy.

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
    model: str | Model | PerSide = "perm",
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

    Notes
    -----
    Any ``n`` up to 2^63 - 1; accuracy and cost: docs/math.md#math-accuracy.

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
    model: str | Model | PerSide = "perm",
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

    Notes
    -----
    Any ``n`` up to 2^63 - 1; method, accuracy and cost:
    docs/math.md#math-collapsed-sums and #math-accuracy.

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


@fill_doc
def same_cluster_probability(
    n: Any,
    *,
    model: str | Model,
    n_clusters: Any = None,
    sizes: Any = None,
    group_size: int = 2,
) -> float:
    """Probability that ``group_size`` given elements all share a cluster in a random clustering.

    The quantity p_X behind the expected Rand index (``group_size=2``) and its variance
    (``group_size=3, 4``): docs/math.md#math-expected-rand and #math-laws.

    Parameters
    ----------
    %(one_model)s
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
    Exact for perm, else ~1e-15 relative (docs/math.md#math-laws).

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
