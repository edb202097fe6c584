"""Similarity measures of two clusterings, without any chance correction.

``*_index`` and ``*_information`` measures are similarities (higher is more
similar); :func:`variation_of_information` is a distance. All take two
labelings or a precomputed ``contingency`` table, are invariant to renaming
labels and to permuting elements, and return Python floats.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._expected.pmfs import deviance
from chanceclust._validation import check_average_method, check_labels
from chanceclust.contingency import PairCounts, Table, _summarize, pair_counts
from chanceclust.summary import _histogram_mutual_information, _histogram_variation_of_information

__all__ = [
    "entropy",
    "fowlkes_mallows_index",
    "jaccard_index",
    "mutual_information",
    "normalized_mutual_information",
    "rand_index",
    "variation_of_information",
]


def _entropy_of_sizes(sizes: NDArray[np.int64], n: int) -> float:
    """H = -sum (a/N) log(a/N) of a size sequence, with log1p for sizes near N."""
    if n == 0:
        return 0.0
    a = sizes.astype(np.float64)
    frac = a / n
    logs = np.where(2 * a > n, np.log1p((a - n) / n), np.log(frac))
    return float(max(-np.sum(frac * logs), 0.0)) + 0.0  # + 0.0 turns -0.0 into 0.0


def entropy(
    labels: Any,
    *,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Shannon entropy (nats) of the cluster sizes of one clustering.

    Formula: docs/math.md#math-information (paper eq. 20).

    H(A) = -sum_i (a_i/N) log(a_i/N).

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        Cluster labels (any hashable values).
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        H >= 0; 0.0 for a single cluster and for empty input (scikit-learn's
        ``entropy`` returns 1.0 for empty input; an empty sum is 0 here).

    Notes
    -----
    Accuracy ~1e-15 relative (``log1p`` for a cluster holding most elements).
    O(N) to count the sizes, then O(K).

    Examples
    --------
    >>> from chanceclust import entropy
    >>> entropy([0, 0, 1, 1])  # log 2
    0.6931471805599453
    """
    codes, k = check_labels(labels, "labels", unassigned_label=unassigned_label, unassigned=unassigned)
    return _entropy_of_sizes(np.bincount(codes, minlength=k), codes.shape[0])


def rand_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Rand index: the fraction of element pairs on which two clusterings agree.

    Formula: docs/math.md#math-rand (paper eq. 3).

    RI = (N11 + N00) / C(N, 2) = (C(N,2) + 2 N11 - Q(A) - Q(B)) / C(N, 2).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table.
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        RI in [0, 1], symmetric; 1.0 when N < 2 (as scikit-learn's ``rand_score``).

    Notes
    -----
    Exact integer pair counts, one rounding. O(cells) after the table.

    Examples
    --------
    >>> from chanceclust import rand_index
    >>> rand_index([0, 0, 1, 1], [0, 0, 1, 2])
    0.8333333333333334
    """
    return _rand_index(pair_counts(
            labels_true, labels_pred, contingency=contingency, unassigned_label=unassigned_label, unassigned=unassigned
        ))


def _rand_index(counts: PairCounts) -> float:
    """Rand index of pair counts (1.0 when there is no pair)."""
    if counts.total == 0:
        return 1.0
    return (counts.n11 + counts.n00) / counts.total


def _mutual_information(table: Table) -> float:
    """MI of a table, as a sum of non-negative terms.

    With mu_ij = a_i b_j / N, MI = (1/N) sum_{n_ij > 0} bd0(n_ij, mu_ij)
    + (N^2 - sum_{n_ij > 0} a_i b_j) / N^2, because sum over all cells of
    (n_ij - mu_ij) is 0 and bd0(0, mu) = mu; the second term is exact in integers.
    """
    n = table.n
    if table.weights is not None:  # a TableSummary: entropy form (chanceclust.summary)
        return _histogram_mutual_information(table)
    if n == 0:
        return 0.0
    if n >= 3_000_000_000:  # a * b and x * n would overflow int64: exact Python integers
        a, b = table.row_sums[table.rows], table.col_sums[table.cols]
        x = table.counts
        d = np.array([(int(xi) * n - int(ai) * int(bi)) / n for xi, ai, bi in zip(x, a, b, strict=True)])
        empty = n * n - sum(int(ai) * int(bi) for ai, bi in zip(a, b, strict=True))
        return float(np.sum(deviance(x, a * (b / n), d)) / n + empty / (n * n))
    total, covered = 0.0, 0
    for start in range(0, len(table.counts), _CELL_CHUNK):  # blocks stay in cache
        cells = slice(start, start + _CELL_CHUNK)
        product = table.row_sums[table.rows[cells]] * table.col_sums[table.cols[cells]]
        x = table.counts[cells]
        covered += int(product.sum())
        total += float(np.sum(deviance(x, product / n, (x * n - product) / n)))
    return total / n + (n * n - covered) / (n * n)


_CELL_CHUNK = 1 << 16


def mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Mutual information (nats) between two clusterings.

    Formula: docs/math.md#math-information (paper eq. 21).

    MI = sum_ij (n_ij/N) log(N n_ij / (a_i b_j)) = H(A) + H(B) - H(A, B).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table.
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        MI in [0, min(H(A), H(B))], symmetric; 0.0 for N = 0.

    Notes
    -----
    Computed as a sum of non-negative deviance terms (no cancellation), so
    the relative error is ~1e-15 even when MI is tiny compared with the
    entropies. O(non-zero cells) after the table.

    See Also
    --------
    sklearn.metrics.mutual_info_score : the same quantity.

    Examples
    --------
    >>> from chanceclust import mutual_information
    >>> round(mutual_information([0, 0, 1, 1], [0, 0, 1, 1]), 15)  # log 2
    0.693147180559945
    """
    return _mutual_information(_summarize(labels_true, labels_pred, contingency, unassigned_label=unassigned_label, unassigned=unassigned))


def _generalized_mean(u: float, v: float, average_method: str) -> float:
    """The normalization f(u, v) of NMI/AMI: min, geometric, arithmetic or max mean, or one side.

    ``"true"`` is u (the side of ``labels_true``), ``"pred"`` is v.
    """
    if average_method == "true":
        return u
    if average_method == "pred":
        return v
    if average_method == "min":
        return min(u, v)
    if average_method == "geometric":
        return math.sqrt(u * v)
    if average_method == "arithmetic":
        return (u + v) / 2.0
    return max(u, v)


def normalized_mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    average_method: str = "arithmetic",
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Normalized mutual information MI / f(H(A), H(B)).

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    average_method : {"min", "geometric", "arithmetic", "max", "true", "pred"}, \
default="arithmetic"
        The normalization f; the paper's "sqrt" and "sum" are accepted as
        aliases of "geometric" and "arithmetic". "true" and "pred" divide by
        the entropy of one side only, H(A) or H(B) (scikit-learn#12484).
    contingency : array-like or sparse matrix, optional
        A precomputed contingency table.
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        NMI in [0, 1]. As scikit-learn: 1.0 when both clusterings have one
        cluster (or N = 0), 0.0 when MI = 0.

    Notes
    -----
    MI and the entropies to ~1e-15 relative (sums of non-negative terms); an
    MI at its bound (identical partitions, or a refinement under "min") gives
    exactly 1.0. O(non-zero cells) after the table. Normalizations:
    docs/math.md#math-information.

    Examples
    --------
    >>> from chanceclust import normalized_mutual_information
    >>> round(normalized_mutual_information([0, 0, 1, 1], [0, 0, 1, 2]), 12)
    0.8
    """
    method = check_average_method(average_method)
    return _normalized_mutual_information(
        _summarize(labels_true, labels_pred, contingency, unassigned_label=unassigned_label, unassigned=unassigned), method
    )


def _normalized_mutual_information(table: Table, method: str) -> float:
    """NMI of a :class:`Table` with a validated normalization name."""
    if len(table.row_sums) == len(table.col_sums) <= 1:
        return 1.0  # no split on either side: perfect agreement (scikit-learn)
    mi = _mutual_information(table)
    if mi == 0.0:
        return 0.0
    h_true = _entropy_of_sizes(table.row_sums, table.n)
    h_pred = _entropy_of_sizes(table.col_sums, table.n)
    bound = _generalized_mean(h_true, h_pred, method)
    # MI and the entropies are summed differently: an MI at its bound (identical
    # partitions, or a refinement under "min") is 1.0 exactly, not 1 - 2 ulp.
    return 1.0 if mi >= bound * (1.0 - 1e-13) else mi / bound


def fowlkes_mallows_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Fowlkes-Mallows index N11 / sqrt((N11 + N10)(N11 + N01)).

    Formula: docs/math.md#math-rand.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table.
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        In [0, 1]; 0.0 when no pair is together in both (scikit-learn's
        convention, which gives 0.0 even for two identical all-singleton
        clusterings).

    Notes
    -----
    Exact integer pair counts, one rounding. O(cells) after the table.

    Examples
    --------
    >>> from chanceclust import fowlkes_mallows_index
    >>> round(fowlkes_mallows_index([0, 0, 1, 1], [0, 0, 1, 2]), 12)  # 1 / sqrt(2)
    0.707106781187
    """
    return _fowlkes_mallows_index(pair_counts(
            labels_true, labels_pred, contingency=contingency, unassigned_label=unassigned_label, unassigned=unassigned
        ))


def _fowlkes_mallows_index(c: PairCounts) -> float:
    """Fowlkes-Mallows index of pair counts (0.0 when N11 = 0)."""
    if c.n11 == 0:
        return 0.0
    if c.n10 == c.n01 == 0:
        return 1.0  # identical partitions, exactly
    return min(c.n11 / math.sqrt((c.n11 + c.n10) * (c.n11 + c.n01)), 1.0)


def jaccard_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Jaccard index of co-clustered pairs, N11 / (N11 + N10 + N01).

    Formula: docs/math.md#math-rand.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table.
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        In [0, 1]; 1.0 when neither clustering puts any pair together (then
        both are all singletons, or N < 2: identical partitions).

    Notes
    -----
    Exact integer pair counts, one rounding. O(cells) after the table.

    Examples
    --------
    >>> from chanceclust import jaccard_index
    >>> jaccard_index([0, 0, 1, 1], [0, 0, 1, 2])
    0.5
    """
    return _jaccard_index(pair_counts(
            labels_true, labels_pred, contingency=contingency, unassigned_label=unassigned_label, unassigned=unassigned
        ))


def _jaccard_index(c: PairCounts) -> float:
    """Jaccard index of pair counts (1.0 when no pair is together in either)."""
    together = c.n11 + c.n10 + c.n01
    return 1.0 if together == 0 else c.n11 / together


def variation_of_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Variation of information H(A|B) + H(B|A) (nats), a distance (Meila 2007).

    Formula: docs/math.md#math-information.

    VI = sum_ij (n_ij/N) (log(a_i/n_ij) + log(b_j/n_ij)), every term >= 0, so
    no cancellation as in H(A) + H(B) - 2 MI.

    Parameters
    ----------
    labels_true, labels_pred : array-like of shape (n_samples,), optional
        The two clusterings. Give these or ``contingency``.
    contingency : array-like or sparse matrix of shape (K_A, K_B), optional
        A precomputed contingency table.
    unassigned_label : label or collection of labels, optional
        Labels of unassigned elements, e.g. -1 (noise); missing values always are.
    unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
        What unassigned elements mean, as in :func:`chanceclust.compare`.

    Returns
    -------
    float
        VI in [0, log N]; 0.0 exactly for identical partitions.

    Notes
    -----
    Accuracy ~1e-15 relative (every term >= 0, logs by ``log1p``).
    O(non-zero cells) after the table.

    Examples
    --------
    >>> from chanceclust import variation_of_information
    >>> round(variation_of_information([0, 0, 1, 1], [0, 0, 1, 2]), 6)  # log(2)/2
    0.346574
    """
    return _variation_of_information(_summarize(labels_true, labels_pred, contingency, unassigned_label=unassigned_label, unassigned=unassigned))


def _variation_of_information(table: Table) -> float:
    """VI of a :class:`Table`, as a sum of non-negative terms."""
    if table.weights is not None:  # a TableSummary: entropy form (chanceclust.summary)
        return _histogram_variation_of_information(table)
    if table.n == 0:
        return 0.0
    x = table.counts
    extra_a = table.row_sums[table.rows] - x  # exact: log(a/x) = log1p((a - x)/x)
    extra_b = table.col_sums[table.cols] - x
    return float(np.sum(x * (np.log1p(extra_a / x) + np.log1p(extra_b / x))) / table.n)
