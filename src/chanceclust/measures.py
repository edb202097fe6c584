"""Similarity measures of two clusterings, without any chance correction.

``*_index`` and ``*_information`` measures are similarities (higher is more
similar); :func:`variation_of_information` is a distance. All take two
labelings or a precomputed ``contingency`` table, are invariant to renaming
labels and to permuting elements, and return Python floats.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._entropy import entropy_of_sizes, entropy_values
from chanceclust._expected.pmfs import deviance
from chanceclust._tables import code_sizes
from chanceclust._validation import check_average_method, check_base, check_beta, check_labels
from chanceclust.contingency import PairCounts, Table, _summarize, pair_counts, sizes_transpose
from chanceclust.summary import _histogram_mutual_information, _histogram_variation_of_information

__all__ = [
    "completeness",
    "entropy",
    "fowlkes_mallows_index",
    "homogeneity",
    "homogeneity_completeness_v_measure",
    "jaccard_index",
    "mutual_information",
    "normalized_mutual_information",
    "pair_confusion_matrix",
    "rand_index",
    "v_measure",
    "variation_of_information",
]


@fill_doc
def entropy(
    labels: Any,
    *,
    unassigned_label: Any = None,
    unassigned: str = "raise",
    base: float | None = None,
) -> float:
    """Shannon entropy (nats, or the units of ``base``) of the cluster sizes of one clustering.

    Formula: docs/math.md#math-information (paper eq. 20).

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        Cluster labels (any hashable values).
    %(unassigned)s
    %(base)s

    Returns
    -------
    float
        H >= 0; 0.0 for a single cluster and for empty input (scikit-learn's
        ``entropy`` returns 1.0 for empty input; an empty sum is 0 here).

    Notes
    -----
    ~1e-15 relative; O(N) to count the sizes, then O(K) (docs/math.md#math-accuracy).

    Examples
    --------
    >>> from chanceclust import entropy
    >>> round(entropy([0, 0, 1, 1]), 12)  # log 2
    0.69314718056
    >>> round(entropy([0, 0, 1, 1], base=2), 12)  # one bit
    1.0
    """
    scale = check_base(base)
    codes, k = check_labels(labels, "labels", unassigned_label=unassigned_label,
                            unassigned=unassigned, on_device=True)  # fmt: skip
    return _in_base(entropy_of_sizes(code_sizes(codes, k), codes.shape[0]), scale)


def _in_base(nats: float, scale: float | None) -> float:
    """A value in nats expressed in the units of a validated base (``scale`` = log(base))."""
    return nats if scale is None else nats / scale


@fill_doc
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

    Parameters
    ----------
    %(inputs)s

    Returns
    -------
    float
        RI in [0, 1], symmetric; 1.0 when N < 2 (as scikit-learn's ``rand_score``).
        Exact integer pair counts, one rounding; O(cells) after the table.

    Examples
    --------
    >>> from chanceclust import rand_index
    >>> rand_index([0, 0, 1, 1], [0, 0, 1, 2])  # 5 of the 6 pairs
    0.8333333333...
    """
    counts = pair_counts(labels_true, labels_pred, contingency=contingency,
                         unassigned_label=unassigned_label, unassigned=unassigned)
    return _rand_index(counts)


def _rand_index(counts: PairCounts) -> float:
    """Rand index of pair counts (1.0 when there is no pair)."""
    return float(_rand_values(*_exact_counts(counts.n11, counts.n10, counts.n01, counts.n00))[0])


# One formula per measure, vectorized over a batch of tables (a batch of one for a single
# pair, many for significance's null samples). Pair counts below _SMALL_COUNT keep every
# product and sum < 2**53 (int64, quotients correctly rounded); larger ones are Python ints.
_SMALL_COUNT = 2**25


def _exact_counts(*values: Any) -> tuple[NDArray[Any], ...]:
    """Integer arrays on which + - * are exact: int64 for small counts, else Python ints."""
    if all(type(v) is int and -_SMALL_COUNT < v < _SMALL_COUNT for v in values):
        # one pair's counts (PairCounts): one array, no per-value conversion and maximum
        row = np.array(values, dtype=np.int64)
        return tuple(row[i : i + 1] for i in range(len(values)))
    arrays = [np.atleast_1d(np.asarray(v)) for v in values]
    small = all(
        a.dtype != object and (a.size == 0 or int(np.max(np.abs(a))) < _SMALL_COUNT) for a in arrays
    )
    if small:
        return tuple(a.astype(np.int64, copy=False) for a in arrays)
    return tuple(np.array([int(v) for v in a.ravel()], dtype=object) for a in arrays)


def _ratio(numerator: NDArray[Any], denominator: NDArray[Any], empty: float) -> NDArray[np.float64]:
    """numerator / denominator, correctly rounded; ``empty`` where the denominator is 0."""
    if numerator.dtype == object or denominator.dtype == object:
        return np.array(
            [
                empty if int(d) == 0 else int(u) / int(d)
                for u, d in zip(numerator, denominator, strict=True)
            ],
            dtype=np.float64,
        )
    zero = denominator == 0
    return np.where(zero, empty, numerator / np.where(zero, 1, denominator))


def _rand_values(
    n11: NDArray[Any], n10: NDArray[Any], n01: NDArray[Any], n00: NDArray[Any]
) -> NDArray[np.float64]:
    """RI = (N11 + N00) / C(N, 2) of a batch of pair counts; 1.0 without pairs."""
    return _ratio(n11 + n00, n11 + n10 + n01 + n00, 1.0)


def _fowlkes_mallows_values(
    n11: NDArray[Any], n10: NDArray[Any], n01: NDArray[Any]
) -> NDArray[np.float64]:
    """FMI of a batch: 0.0 when N11 = 0 (scikit-learn), 1.0 for identical partitions, <= 1."""
    product = (n11 + n10) * (n11 + n01)
    if product.dtype == object:
        root = np.array([math.sqrt(int(v)) for v in product], dtype=np.float64)
        top = np.array([float(int(v)) for v in n11], dtype=np.float64)
    else:
        root, top = np.sqrt(product.astype(np.float64)), n11.astype(np.float64)
    value = np.minimum(top / np.where(root == 0.0, 1.0, root), 1.0)
    value = np.where((n10 == 0) & (n01 == 0), 1.0, value)
    return np.where(n11 == 0, 0.0, value)


def _jaccard_values(n11: NDArray[Any], n10: NDArray[Any], n01: NDArray[Any]) -> NDArray[np.float64]:
    """Jaccard N11 / (N11 + N10 + N01) of a batch; 1.0 when no pair is together in either."""
    return _ratio(n11, n11 + n10 + n01, 1.0)


def _mutual_information_values(
    x: NDArray[np.int64],
    a: NDArray[np.int64],
    b: NDArray[np.int64],
    n: int,
    starts: NDArray[np.intp],
) -> NDArray[np.float64]:
    """MI of a batch of tables given by their non-zero cells (docs/math.md#math-information).

    ``x``: counts n_ij; ``a``, ``b``: each cell's row and column sizes; ``starts``: each
    table's first cell; ``n`` > 0 (the callers return 0.0 for N = 0 before).
    MI = (1/N) sum bd0(n_ij, a_i b_j/N) + (N^2 - sum a_i b_j) / N^2.
    """
    return _mutual_information_from_parts(*_mutual_information_parts(x, a, b, n, starts), n)


def _mutual_information_from_parts(
    deviances: NDArray[np.float64], covered: list[int], n: int
) -> NDArray[np.float64]:
    """MI of each table from :func:`_mutual_information_parts`' sums (``n`` > 0)."""
    return deviances / n + np.array([(n * n - int(c)) / (n * n) for c in covered])


def _mutual_information_parts(
    x: NDArray[np.int64],
    a: NDArray[np.int64],
    b: NDArray[np.int64],
    n: int,
    starts: NDArray[np.intp],
) -> tuple[NDArray[np.float64], list[int]]:
    """Per table: sum of bd0(n_ij, mu_ij) and the exact sum of a_i b_j over its cells."""
    if n >= 3_000_000_000:  # a * b and x * n would overflow int64: exact Python integers
        product = [int(u) * int(v) for u, v in zip(a, b, strict=True)]
        d = np.array([(int(xi) * n - p) / n for xi, p in zip(x, product, strict=True)])
        bounds = [*starts.tolist(), len(product)]
        covered = [sum(product[i:j]) for i, j in itertools.pairwise(bounds)]
        return np.add.reduceat(deviance(x, a * (b / n), d), starts), covered
    product = a * b
    deviances = np.add.reduceat(deviance(x, product / n, (x * n - product) / n), starts)
    return deviances, np.add.reduceat(product, starts).tolist()


def _variation_of_information_values(
    x: NDArray[np.int64],
    a: NDArray[np.int64],
    b: NDArray[np.int64],
    n: int,
    starts: NDArray[np.intp],
) -> NDArray[np.float64]:
    """VI = sum_ij (n_ij/N) (log(a_i/n_ij) + log(b_j/n_ij)) of a batch (cells as above, N > 0)."""
    xf = x.astype(np.float64)
    terms = xf * (np.log1p((a - x) / xf) + np.log1p((b - x) / xf))
    return np.add.reduceat(terms, starts) / n


def _normalized_mutual_information_values(
    mi: NDArray[np.float64],
    h_true: NDArray[np.float64],
    h_pred: NDArray[np.float64],
    k_true: NDArray[np.integer],
    k_pred: NDArray[np.integer],
    method: str,
) -> NDArray[np.float64]:
    """NMI = MI / f(H(A), H(B)) of a batch, scikit-learn's conventions; 1.0 at the bound."""
    bound = np.asarray(_generalized_mean(h_true, h_pred, method), dtype=np.float64)
    value = np.where(mi >= bound * (1.0 - 1e-13), 1.0, mi / np.where(bound == 0.0, 1.0, bound))
    value = np.where(mi == 0.0, 0.0, value)
    return np.where((np.asarray(k_true) <= 1) & (np.asarray(k_pred) <= 1), 1.0, value)


def table_cells(table: Table) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """(n_ij, a_i, b_j) of each non-zero cell of a :class:`Table`, in canonical order.

    The same cells in the same order for (A, B) and (B, A) (:func:`_transposes`), so
    MI, VI and the two-sided NMI and AMI are symmetric to the last bit.
    """
    counts, first, second, first_sizes, second_sizes = _canonical_cells(table)
    return counts, first_sizes[first], second_sizes[second]


def _canonical_cells(table: Table) -> tuple[NDArray, NDArray, NDArray, NDArray, NDArray]:
    """(counts, i, j, sizes_i, sizes_j) of a table's cells in canonical order: the cells
    ordered by (i, j), where i indexes the canonical rows (the columns when
    :func:`_transposes`) and j the other side."""
    transposes = _transposes(table)
    if transposes:
        first, second, first_sizes, second_sizes = (
            table.cols, table.rows, table.col_sums, table.row_sums
        )
    else:
        first, second, first_sizes, second_sizes = (
            table.rows, table.cols, table.row_sums, table.col_sums
        )
    counts = table.counts
    if transposes != table.column_major:  # stored by (j, i): sort them by (i, j)
        counts, first, second = _major_cells(counts, first, second, len(first_sizes),
                                             len(second_sizes))  # fmt: skip
    return counts, first, second, first_sizes, second_sizes


def _transposes(table: Table) -> bool:
    """Whether the canonical order of a table's cells is its transpose's (else its own).

    Canonical rows: the side with fewer clusters, then the smaller sorted sizes
    (:func:`contingency.sizes_transpose`), then the smaller (row, column, count) cell list
    (opposite answers for a table and its transpose).
    """
    by_sizes = sizes_transpose(table.row_sums, table.col_sums)
    if by_sizes is not None:
        return by_sizes
    # the orders of the row-major cell list (``own``) and of the transpose's (``other``)
    if table.column_major:
        own, other = _by_code(table.rows, len(table.row_sums)), None
    else:
        own, other = None, _by_code(table.cols, len(table.col_sums))
    # the first cell where the two lists differ, block by block (it is usually in the first)
    size = table.counts.size
    for lo in range(0, size, _CELL_CHUNK):
        hi = min(lo + _CELL_CHUNK, size)
        mine = slice(lo, hi) if own is None else own[lo:hi]
        theirs = slice(lo, hi) if other is None else other[lo:hi]
        cells = np.stack([table.rows[mine], table.cols[mine], table.counts[mine]], axis=1)
        transposed = np.stack(
            [table.cols[theirs], table.rows[theirs], table.counts[theirs]], axis=1
        )
        differ = np.flatnonzero(np.any(cells != transposed, axis=1))
        if differ.size:
            first = differ[0]
            column = int(np.flatnonzero(cells[first] != transposed[first])[0])
            return bool(cells[first, column] > transposed[first, column])
    return False  # the table is its own transpose


def _by_code(codes: NDArray[np.intp], k: int) -> NDArray[np.intp]:
    """The stable order of cells by ``codes`` (codes in [0, k)): (i, j) order from (j, i)."""
    if k <= 2**16:  # 16-bit keys: numpy's stable sort is a radix sort
        codes = codes.astype(np.uint16)
    return np.argsort(codes, kind="stable")


#: Cells sorted as packed int64 keys (i, j, count) where their bits fit and numpy sorts
#: int64 with SIMD kernels (numpy >= 2: x86-simd-sort, Highway), else by the order of
#: :func:`_by_code` and three gathers: the same cells in the same order either way.
_PACKED_SORT = int(np.__version__.split(".")[0]) >= 2


def _major_cells(
    counts: NDArray[np.int64], first: NDArray[np.intp], second: NDArray[np.intp],
    k_first: int, k_second: int,
) -> tuple[NDArray, NDArray, NDArray]:  # fmt: skip
    """(counts, first, second) of cells stored by (second, first), reordered by (first,
    second); codes in [0, k_first) and [0, k_second)."""
    first_bits = max(k_first - 1, 1).bit_length()
    second_bits = max(k_second - 1, 1).bit_length()
    count_bits = int(counts.max(initial=0)).bit_length()
    if not _PACKED_SORT or first_bits + second_bits + count_bits > 63:
        order = _by_code(first, k_first)
        return counts[order], first[order], second[order]
    # (first, second) pairs are distinct: sorting the packed keys orders the cells by them
    key = first.astype(np.int64) << (second_bits + count_bits)
    key |= second.astype(np.int64) << count_bits
    key |= counts
    key.sort()
    counts = key & ((1 << count_bits) - 1)
    key >>= count_bits
    second = key & ((1 << second_bits) - 1)
    key >>= second_bits
    return counts, key, second


_ONE_TABLE = np.zeros(1, dtype=np.intp)  # ``starts`` of a batch of one table
_CELL_CHUNK = 1 << 16


def _mutual_information(table: Table) -> float:
    """MI of a :class:`Table` (see :func:`_mutual_information_values`)."""
    n = table.n
    if table.weights is not None:  # a TableSummary: entropy form (chanceclust.summary)
        return _histogram_mutual_information(table)
    if n == 0:
        return 0.0
    x, first, second, first_sizes, second_sizes = _canonical_cells(table)
    if len(x) <= _CELL_CHUNK:
        a, b = first_sizes[first], second_sizes[second]
        return float(_mutual_information_values(x, a, b, n, _ONE_TABLE)[0])
    # Many cells: the same terms on blocks of cells that stay in cache (sizes gathered
    # block by block), added up.
    total, covered = 0.0, 0
    for start in range(0, len(x), _CELL_CHUNK):
        cells = slice(start, start + _CELL_CHUNK)
        a, b = np.take(first_sizes, first[cells]), np.take(second_sizes, second[cells])
        deviances, products = _mutual_information_parts(x[cells], a, b, n, _ONE_TABLE)
        total += float(deviances[0])
        covered += int(products[0])
    return total / n + (n * n - covered) / (n * n)


@fill_doc
def mutual_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
    base: float | None = None,
) -> float:
    """Mutual information (nats, or the units of ``base``) between two clusterings.

    Formula: docs/math.md#math-information (paper eq. 21).

    Parameters
    ----------
    %(inputs)s
    %(base)s

    Returns
    -------
    float
        MI in [0, min(H(A), H(B))], symmetric; 0.0 for N = 0.

    Notes
    -----
    A sum of non-negative terms: ~1e-15 relative even for a tiny MI; O(non-zero cells)
    after the table (docs/math.md#math-accuracy).

    See Also
    --------
    sklearn.metrics.mutual_info_score : the same quantity.

    Examples
    --------
    >>> from chanceclust import mutual_information
    >>> round(mutual_information([0, 0, 1, 1], [0, 0, 1, 1]), 12)  # log 2
    0.69314718056
    >>> round(mutual_information([0, 0, 1, 1], [0, 0, 1, 1], base=2), 12)  # one bit
    1.0
    """
    scale = check_base(base)
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _in_base(_mutual_information(table), scale)


def _generalized_mean(u: Any, v: Any, average_method: str) -> Any:
    """The normalization f(u, v) of NMI/AMI (``"true"``: u, ``"pred"``: v); elementwise."""
    if average_method == "true":
        return u
    if average_method == "pred":
        return v
    if average_method == "min":
        out = np.minimum(u, v)
    elif average_method == "geometric":
        out = np.sqrt(np.multiply(u, v))
    elif average_method == "arithmetic":
        out = np.add(u, v) / 2.0
    else:
        out = np.maximum(u, v)
    return float(out) if np.ndim(out) == 0 else out


@fill_doc
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
    %(labels)s
    average_method : {"min", "geometric", "arithmetic", "max", "true", "pred"}, \
default="arithmetic"
        The normalization f; the paper's "sqrt" and "sum" are accepted as
        aliases of "geometric" and "arithmetic". "true" and "pred" divide by
        the entropy of one side only, H(A) or H(B) (scikit-learn#12484).
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        NMI in [0, 1]. As scikit-learn: 1.0 when both clusterings have one
        cluster (or N = 0), 0.0 when MI = 0.

    Notes
    -----
    An MI at its bound (identical partitions, or a refinement under "min") gives exactly
    1.0. Normalizations, accuracy: docs/math.md#math-information and #math-accuracy.

    Examples
    --------
    >>> from chanceclust import normalized_mutual_information
    >>> round(normalized_mutual_information([0, 0, 1, 1], [0, 0, 1, 2]), 12)
    0.8
    """
    method = check_average_method(average_method)
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _normalized_mutual_information(table, method)


def _normalized_mutual_information(table: Table, method: str) -> float:
    """NMI of a :class:`Table` with a validated normalization name."""
    return float(
        _normalized_mutual_information_values(
            np.array([_mutual_information(table)]),
            entropy_values(table.row_sums[None], table.n),
            entropy_values(table.col_sums[None], table.n),
            np.array([len(table.row_sums)]),
            np.array([len(table.col_sums)]),
            method,
        )[0]
    )


def _homogeneity_completeness_values(
    mi: NDArray[np.float64],
    h_true: NDArray[np.float64],
    h_pred: NDArray[np.float64],
    beta: float,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(homogeneity, completeness, V-measure) of a batch: MI / H(A), MI / H(B) and their
    weighted harmonic mean (1 + beta) h c / (beta h + c); docs/math.md#math-information.

    scikit-learn's conventions: a side of zero entropy gives 1.0 (a single class is trivially
    homogeneous, a single cluster trivially complete), V = 0 when h + c = 0; a ratio whose
    MI is at its bound (up to rounding) is exactly 1.0, as NMI.
    """

    def ratio(h: NDArray[np.float64]) -> NDArray[np.float64]:
        value = np.where(mi >= h * (1.0 - 1e-13), 1.0, mi / np.where(h == 0.0, 1.0, h))
        return np.where(h == 0.0, 1.0, value)

    h, c = ratio(h_true), ratio(h_pred)
    total = beta * h + c
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.where(h + c == 0.0, 0.0, (1.0 + beta) * h * c / np.where(total == 0.0, 1.0, total))
    return h, c, v


def _homogeneity_completeness(table: Table, beta: float = 1.0) -> tuple[float, float, float]:
    """(h, c, V) of a :class:`Table` (see :func:`_homogeneity_completeness_values`)."""
    h, c, v = _homogeneity_completeness_values(
        np.array([_mutual_information(table)]),
        entropy_values(table.row_sums[None], table.n),
        entropy_values(table.col_sums[None], table.n),
        beta,
    )
    return float(h[0]), float(c[0]), float(v[0])


@fill_doc
def homogeneity_completeness_v_measure(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    beta: float = 1.0,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> tuple[float, float, float]:
    """Homogeneity, completeness and V-measure of a clustering against a reference
    (Rosenberg & Hirschberg 2007).

    Formula: docs/math.md#math-information (h = MI / H(A), c = MI / H(B), V their weighted
    harmonic mean). None is adjusted for chance (use :func:`adjusted_mutual_information`).

    Parameters
    ----------
    %(labels)s
    beta : float, default=1.0
        Weight of homogeneity in V: above 1 completeness weighs more, below 1 homogeneity.
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    tuple of three floats
        (h, c, V), each in [0, 1]. As scikit-learn: a side with a single cluster (zero
        entropy) gives 1.0 for its ratio, and N = 0 gives (1.0, 1.0, 1.0).

    Notes
    -----
    An MI at its bound gives exactly 1.0; accuracy as :func:`normalized_mutual_information`.

    See Also
    --------
    sklearn.metrics.homogeneity_completeness_v_measure : the same values.

    Examples
    --------
    >>> from chanceclust import homogeneity_completeness_v_measure
    >>> h, c, v = homogeneity_completeness_v_measure([0, 0, 1, 1], [0, 0, 1, 2])
    >>> h, round(c, 12), round(v, 12)  # every cluster is pure; class 1 is split
    (1.0, 0.666666666667, 0.8)
    """
    weight = check_beta(beta)
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _homogeneity_completeness(table, weight)


@fill_doc
def homogeneity(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Homogeneity MI / H(A): 1.0 when each cluster of ``labels_pred`` holds one class.

    Formula: docs/math.md#math-information. Conventions and accuracy:
    :func:`homogeneity_completeness_v_measure`.

    Parameters
    ----------
    %(inputs)s

    Returns
    -------
    float
        h in [0, 1]; 1.0 when ``labels_true`` has one class (or N = 0).

    Examples
    --------
    >>> from chanceclust import homogeneity
    >>> homogeneity([0, 0, 1, 1], [0, 0, 1, 2])
    1.0
    """
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _homogeneity_completeness(table)[0]


@fill_doc
def completeness(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Completeness MI / H(B): 1.0 when each class of ``labels_true`` is in one cluster.

    Formula: docs/math.md#math-information. Conventions and accuracy:
    :func:`homogeneity_completeness_v_measure`.

    Parameters
    ----------
    %(inputs)s

    Returns
    -------
    float
        c in [0, 1]; 1.0 when ``labels_pred`` has one cluster (or N = 0).

    Examples
    --------
    >>> from chanceclust import completeness
    >>> round(completeness([0, 0, 1, 1], [0, 0, 1, 2]), 12)  # log 2 / H(B) = 2/3
    0.666666666667
    """
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _homogeneity_completeness(table)[1]


@fill_doc
def v_measure(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    beta: float = 1.0,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """V-measure (1 + beta) h c / (beta h + c) of homogeneity h and completeness c.

    Formula: docs/math.md#math-information. Conventions and accuracy:
    :func:`homogeneity_completeness_v_measure`. With
    ``beta=1`` it equals :func:`normalized_mutual_information` with the arithmetic mean.

    Parameters
    ----------
    %(labels)s
    beta : float, default=1.0
        Weight of homogeneity: above 1 completeness weighs more, below 1 homogeneity.
    %(contingency)s
    %(unassigned)s

    Returns
    -------
    float
        V in [0, 1]; 0.0 when h + c = 0.

    Examples
    --------
    >>> from chanceclust import v_measure
    >>> round(v_measure([0, 0, 1, 1], [0, 0, 1, 2]), 12)
    0.8
    """
    weight = check_beta(beta)
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _homogeneity_completeness(table, weight)[2]


@fill_doc
def pair_confusion_matrix(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> NDArray[Any]:
    """The 2 x 2 pair confusion matrix of two clusterings, as scikit-learn defines it.

    Over *ordered* pairs of distinct elements, ``C = 2 * [[n00, n01], [n10, n11]]`` of
    :func:`pair_counts` (``C[0, 1]``: false positives); docs/math.md#math-information.

    Parameters
    ----------
    %(inputs)s

    Returns
    -------
    ndarray of shape (2, 2)
        int64 counts, or Python ints (dtype object) when a count reaches 2**63: never a
        silent overflow.

    Examples
    --------
    >>> from chanceclust import pair_confusion_matrix
    >>> pair_confusion_matrix([0, 0, 1, 2], [0, 0, 1, 1]).tolist()
    [[8, 2], [0, 2]]
    """
    c = pair_counts(labels_true, labels_pred, contingency=contingency,
                    unassigned_label=unassigned_label, unassigned=unassigned)
    cells = [[2 * int(c.n00), 2 * int(c.n01)], [2 * int(c.n10), 2 * int(c.n11)]]
    fits = max(max(row) for row in cells) < 2**63
    return np.array(cells, dtype=np.int64 if fits else object)


@fill_doc
def fowlkes_mallows_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Fowlkes-Mallows index N11 / sqrt((N11 + N10)(N11 + N01)) (docs/math.md#math-rand).

    Parameters
    ----------
    %(inputs)s

    Returns
    -------
    float
        In [0, 1]; 0.0 when no pair is together in both (scikit-learn's
        convention, which gives 0.0 even for two identical all-singleton
        clusterings). Exact integer pair counts, one rounding; O(cells) after the table.

    Examples
    --------
    >>> from chanceclust import fowlkes_mallows_index
    >>> round(fowlkes_mallows_index([0, 0, 1, 1], [0, 0, 1, 2]), 12)  # 1 / sqrt(2)
    0.707106781187
    """
    counts = pair_counts(labels_true, labels_pred, contingency=contingency,
                         unassigned_label=unassigned_label, unassigned=unassigned)
    return _fowlkes_mallows_index(counts)


def _fowlkes_mallows_index(c: PairCounts) -> float:
    """Fowlkes-Mallows index of pair counts (0.0 when N11 = 0)."""
    return float(_fowlkes_mallows_values(*_exact_counts(c.n11, c.n10, c.n01, c.n00)[:3])[0])


@fill_doc
def jaccard_index(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
) -> float:
    """Jaccard index of co-clustered pairs, N11 / (N11 + N10 + N01) (docs/math.md#math-rand).

    Parameters
    ----------
    %(inputs)s

    Returns
    -------
    float
        In [0, 1]; 1.0 when neither clustering puts any pair together (then
        both are all singletons, or N < 2: identical partitions). Exact integer pair
        counts, one rounding; O(cells) after the table.

    Examples
    --------
    >>> from chanceclust import jaccard_index
    >>> jaccard_index([0, 0, 1, 1], [0, 0, 1, 2])
    0.5
    """
    counts = pair_counts(labels_true, labels_pred, contingency=contingency,
                         unassigned_label=unassigned_label, unassigned=unassigned)
    return _jaccard_index(counts)


def _jaccard_index(c: PairCounts) -> float:
    """Jaccard index of pair counts (1.0 when no pair is together in either)."""
    return float(_jaccard_values(*_exact_counts(c.n11, c.n10, c.n01, c.n00)[:3])[0])


@fill_doc
def variation_of_information(
    labels_true: Any = None,
    labels_pred: Any = None,
    *,
    contingency: Any = None,
    unassigned_label: Any = None,
    unassigned: str = "raise",
    base: float | None = None,
) -> float:
    """Variation of information H(A|B) + H(B|A) (nats, or the units of ``base``), a distance
    (Meila 2007).

    Formula: docs/math.md#math-information.

    Parameters
    ----------
    %(inputs)s
    %(base)s

    Returns
    -------
    float
        VI in [0, log N]; 0.0 exactly for identical partitions.

    Notes
    -----
    ~1e-15 relative (every term >= 0); O(non-zero cells) after the table.

    Examples
    --------
    >>> from chanceclust import variation_of_information
    >>> round(variation_of_information([0, 0, 1, 1], [0, 0, 1, 2]), 6)  # log(2)/2
    0.346574
    >>> round(variation_of_information([0, 0, 1, 1], [0, 0, 1, 2], base=2), 12)  # half a bit
    0.5
    """
    scale = check_base(base)
    table = _summarize(labels_true, labels_pred, contingency,
                       unassigned_label=unassigned_label, unassigned=unassigned)
    return _in_base(_variation_of_information(table), scale)


def _variation_of_information(table: Table) -> float:
    """VI of a :class:`Table` (see :func:`_variation_of_information_values`)."""
    if table.weights is not None:  # a TableSummary: entropy form (chanceclust.summary)
        return _histogram_variation_of_information(table)
    if table.n == 0:
        return 0.0
    return float(_variation_of_information_values(*table_cells(table), table.n, _ONE_TABLE)[0])
