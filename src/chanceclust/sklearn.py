"""scikit-learn's clustering-comparison functions, computed by chanceclust: a one-line port.

``from chanceclust.sklearn import adjusted_mutual_info_score`` in place of
``from sklearn.metrics import adjusted_mutual_info_score``: every supervised function of
:mod:`sklearn.metrics.cluster` with scikit-learn's signature, defaults, return types and
edge-case conventions (one cluster, singletons, empty input, N = 1). The values are
chanceclust's (exact pair counts, E[MI] to ~1e-15; docs/math.md), so they equal
scikit-learn's to rounding (``tests/test_sklearn_dropin.py``). scikit-learn is not imported.

Differences, on purpose:

- the inputs are read as chanceclust reads them (lists, arrays, pandas, pyarrow, polars,
  mappings and community lists), and a bad one raises
  :class:`~chanceclust.InvalidInputError`, a :class:`ValueError` as scikit-learn's are;
- ``adjusted_mutual_info_score`` of a degenerate ensemble (E[MI] equal to the
  normalization, e.g. all singletons on one side under ``average_method="min"``) is
  chanceclust's documented value, where scikit-learn divides rounding noise by its ``eps``
  clamp (values such as -1.0, 0.75 or 1.2);
- ``mutual_info_score`` of empty labelings is 0.0 (an empty sum), where scikit-learn 1.9
  fails with "math domain error";
- ``entropy`` raises no deprecation warning (scikit-learn deprecates it from 1.8).

For models other than perm, one-sided comparisons and the rest, use the functions of
``chanceclust`` itself (docs/guide/coming-from.md maps the names).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._entropy import entropy_of_sizes
from chanceclust._validation import check_labels, check_setting
from chanceclust.adjusted import adjusted_mutual_information, adjusted_rand_index
from chanceclust.contingency import _summarize, contingency_table
from chanceclust.exceptions import InvalidInputError
from chanceclust.expectations import _expected_mutual_information
from chanceclust.measures import (
    completeness,
    fowlkes_mallows_index,
    homogeneity,
    homogeneity_completeness_v_measure as _hcv,
    mutual_information,
    normalized_mutual_information,
    pair_confusion_matrix as _pair_confusion_matrix,
    rand_index,
    v_measure,
)

__all__ = [
    "adjusted_mutual_info_score",
    "adjusted_rand_score",
    "completeness_score",
    "contingency_matrix",
    "entropy",
    "expected_mutual_information",
    "fowlkes_mallows_score",
    "homogeneity_completeness_v_measure",
    "homogeneity_score",
    "mutual_info_score",
    "normalized_mutual_info_score",
    "pair_confusion_matrix",
    "rand_score",
    "v_measure_score",
]


def adjusted_rand_score(labels_true: Any, labels_pred: Any) -> float:
    """Adjusted Rand index (Hubert & Arabie), as :func:`sklearn.metrics.adjusted_rand_score`.

    :func:`chanceclust.adjusted_rand_index` under the perm model.

    >>> from chanceclust.sklearn import adjusted_rand_score
    >>> adjusted_rand_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return adjusted_rand_index(labels_true, labels_pred)


def adjusted_mutual_info_score(
    labels_true: Any, labels_pred: Any, *, average_method: str = "arithmetic"
) -> float:
    """Adjusted mutual information (Vinh et al.), as
    :func:`sklearn.metrics.adjusted_mutual_info_score`.

    :func:`chanceclust.adjusted_mutual_information` under the perm model, with
    scikit-learn's conventions: 1.0 when both labelings have one cluster (or none), 0.0
    when exactly one has a single cluster.

    >>> from chanceclust.sklearn import adjusted_mutual_info_score
    >>> adjusted_mutual_info_score([0, 0, 0, 0], [0, 1, 2, 3])
    0.0
    """
    return adjusted_mutual_information(labels_true, labels_pred, average_method=average_method)


def normalized_mutual_info_score(
    labels_true: Any, labels_pred: Any, *, average_method: str = "arithmetic"
) -> float:
    """Normalized mutual information, as :func:`sklearn.metrics.normalized_mutual_info_score`.

    >>> from chanceclust.sklearn import normalized_mutual_info_score
    >>> normalized_mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return normalized_mutual_information(labels_true, labels_pred, average_method=average_method)


def mutual_info_score(labels_true: Any, labels_pred: Any, *, contingency: Any = None) -> float:
    """Mutual information (nats), as :func:`sklearn.metrics.mutual_info_score`.

    When ``contingency`` is given, ``labels_true`` and ``labels_pred`` are ignored (as
    scikit-learn does).

    >>> from chanceclust.sklearn import mutual_info_score
    >>> round(mutual_info_score([0, 0, 1, 1], [1, 1, 0, 0]), 12)  # log 2
    0.69314718056
    """
    if contingency is not None:
        return mutual_information(contingency=contingency)
    return mutual_information(labels_true, labels_pred)


def rand_score(labels_true: Any, labels_pred: Any) -> float:
    """Rand index, as :func:`sklearn.metrics.rand_score` (1.0 when there is no pair).

    >>> from chanceclust.sklearn import rand_score
    >>> round(rand_score([0, 0, 1, 2], [0, 0, 1, 1]), 12)  # 5 of the 6 pairs
    0.833333333333
    """
    return rand_index(labels_true, labels_pred)


def fowlkes_mallows_score(labels_true: Any, labels_pred: Any) -> float:
    """Fowlkes-Mallows index, as :func:`sklearn.metrics.fowlkes_mallows_score`.

    >>> from chanceclust.sklearn import fowlkes_mallows_score
    >>> fowlkes_mallows_score([0, 0, 0, 0], [0, 1, 2, 3])
    0.0
    """
    return fowlkes_mallows_index(labels_true, labels_pred)


def homogeneity_completeness_v_measure(
    labels_true: Any, labels_pred: Any, *, beta: float = 1.0
) -> tuple[float, float, float]:
    """(homogeneity, completeness, V-measure), as
    :func:`sklearn.metrics.homogeneity_completeness_v_measure`.

    >>> from chanceclust.sklearn import homogeneity_completeness_v_measure
    >>> homogeneity_completeness_v_measure([], [])
    (1.0, 1.0, 1.0)
    """
    return _hcv(labels_true, labels_pred, beta=beta)


def homogeneity_score(labels_true: Any, labels_pred: Any) -> float:
    """Homogeneity, as :func:`sklearn.metrics.homogeneity_score`.

    >>> from chanceclust.sklearn import homogeneity_score
    >>> homogeneity_score([0, 0, 1, 1], [0, 0, 1, 2])
    1.0
    """
    return homogeneity(labels_true, labels_pred)


def completeness_score(labels_true: Any, labels_pred: Any) -> float:
    """Completeness, as :func:`sklearn.metrics.completeness_score`.

    >>> from chanceclust.sklearn import completeness_score
    >>> completeness_score([0, 0, 1, 1], [0, 0, 0, 0])
    1.0
    """
    return completeness(labels_true, labels_pred)


def v_measure_score(labels_true: Any, labels_pred: Any, *, beta: float = 1.0) -> float:
    """V-measure, as :func:`sklearn.metrics.v_measure_score`.

    >>> from chanceclust.sklearn import v_measure_score
    >>> v_measure_score([0, 0, 1, 1], [1, 1, 0, 0])
    1.0
    """
    return v_measure(labels_true, labels_pred, beta=beta)


def pair_confusion_matrix(labels_true: Any, labels_pred: Any) -> NDArray[Any]:
    """The 2 x 2 pair confusion matrix, as :func:`sklearn.metrics.cluster.pair_confusion_matrix`.

    >>> from chanceclust.sklearn import pair_confusion_matrix
    >>> pair_confusion_matrix([0, 0, 1, 1], [1, 1, 0, 0]).tolist()
    [[8, 0], [0, 4]]
    """
    return _pair_confusion_matrix(labels_true, labels_pred)


def contingency_matrix(
    labels_true: Any,
    labels_pred: Any,
    *,
    eps: float | None = None,
    sparse: bool = False,
    dtype: Any = np.int64,
) -> Any:
    """The contingency table, as :func:`sklearn.metrics.cluster.contingency_matrix`.

    Rows are the sorted labels of ``labels_true``, columns those of ``labels_pred``; a
    ``scipy.sparse`` CSR array when ``sparse``; ``eps`` is added to every cell (dense only,
    the result then float).

    >>> from chanceclust.sklearn import contingency_matrix
    >>> contingency_matrix([0, 0, 1, 1, 2, 2], [1, 0, 2, 1, 0, 2]).tolist()
    [[1, 1, 0], [0, 1, 1], [1, 0, 1]]
    """
    if eps is not None and sparse:
        raise InvalidInputError("Cannot set 'eps' when sparse=True")
    table = contingency_table(labels_true, labels_pred, sparse=bool(sparse))
    if eps is not None:
        return table + eps
    return table.astype(dtype)


def entropy(labels: Any) -> float:
    """Entropy (nats) of a labeling, as scikit-learn's ``entropy`` (1.0 for empty input).

    >>> from chanceclust.sklearn import entropy
    >>> entropy([])
    1.0
    """
    codes, k = check_labels(labels, "labels")
    if codes.shape[0] == 0:
        return 1.0
    return entropy_of_sizes(np.bincount(codes, minlength=k), codes.shape[0])


def expected_mutual_information(contingency: Any, n_samples: int) -> float:
    """E[MI] under perm of a contingency table's margins, as scikit-learn's
    ``expected_mutual_information(contingency, n_samples)``.

    ``n_samples`` must be the table's total (scikit-learn assumes it is).

    >>> from chanceclust.sklearn import expected_mutual_information
    >>> round(expected_mutual_information([[1, 1], [1, 1]], 4), 12)
    0.231049060187
    """
    table = _summarize(None, None, contingency)
    if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, (int, np.integer)) \
            or int(n_samples) != table.n:
        raise InvalidInputError(
            f"`n_samples` must be the total of `contingency`, {table.n}; got {n_samples!r}."
        )
    return _expected_mutual_information(*check_setting("perm", False).sides_of_table(table))
