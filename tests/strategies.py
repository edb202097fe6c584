"""Hypothesis strategies and small oracles shared by the tests: labelings, pairs, partitions.

Sizes are kept small (N <= 60 by default, fewer clusters than elements most of
the time) so that properties looped over every model stay fast; the ``all``
two-sided expectation is the slow one, callers pass a smaller ``max_n`` there.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import strategies as st

# Hashable label values of several kinds: a renaming maps codes onto these.
LABEL_VALUES = st.one_of(
    st.integers(min_value=-(2**40), max_value=2**40),
    st.text(min_size=0, max_size=4),
)


@st.composite
def labelings(draw, *, min_n: int = 1, max_n: int = 60, max_clusters: int = 8) -> np.ndarray:
    """One labeling: an int64 array of codes in 0..k-1 (not all codes need be used)."""
    n = draw(st.integers(min_n, max_n))
    k = draw(st.integers(1, max(1, min(max_clusters, n))))
    codes = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return np.asarray(codes, dtype=np.int64)


@st.composite
def label_pairs(
    draw, *, min_n: int = 1, max_n: int = 60, max_clusters: int = 8
) -> tuple[np.ndarray, np.ndarray]:
    """Two labelings of the same N elements.

    A third of the time the second is a noisy copy of the first, so that the
    high-agreement region (ARI, AMI near 1, VI near 0) is exercised too.
    """
    labels_true = draw(labelings(min_n=min_n, max_n=max_n, max_clusters=max_clusters))
    n = labels_true.shape[0]
    kind = draw(st.sampled_from(["independent", "independent", "noisy_copy"]))
    if kind == "noisy_copy" and n:
        labels_pred = labels_true.copy()
        flips = draw(st.lists(st.integers(0, n - 1), max_size=max(1, n // 5)))
        k = int(labels_true.max()) + 2
        for i in flips:
            labels_pred[i] = draw(st.integers(0, k - 1))
        return labels_true, labels_pred
    k = draw(st.integers(1, max(1, min(max_clusters, n))))
    labels_pred = np.asarray(
        draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64
    )
    return labels_true, labels_pred


@st.composite
def renamings(draw, labels: np.ndarray) -> np.ndarray:
    """``labels`` with its distinct values replaced injectively by arbitrary hashables.

    The result is an object array (ints and strings mixed), so the library's
    unsortable-labels path is exercised as well as the sorted one.
    """
    distinct = sorted(set(labels.tolist()))
    values = draw(
        st.lists(LABEL_VALUES, min_size=len(distinct), max_size=len(distinct), unique=True)
    )
    mapping = dict(zip(distinct, values, strict=True))
    out = np.empty(labels.shape[0], dtype=object)
    out[:] = [mapping[v] for v in labels.tolist()]
    return out


@st.composite
def contingency_tables(
    draw, *, max_rows: int = 5, max_cols: int = 5, max_count: int = 6
) -> np.ndarray:
    """A small dense table of non-negative counts (zero rows and columns allowed)."""
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    cells = draw(st.lists(st.integers(0, max_count), min_size=rows * cols, max_size=rows * cols))
    return np.asarray(cells, dtype=np.int64).reshape(rows, cols)


def labels_from_table(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two labelings whose contingency table is ``table`` (row i, column j per element)."""
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


def ensemble_members(labels, model: str, parts: list) -> list:
    """The clusterings of the ensemble of ``labels`` under a model, each equally likely.

    ``parts`` is ``list(set_partitions(n))``: all of them for ``all``, those with the
    same number of clusters for ``num``, the same multiset of cluster sizes for ``perm``.
    """
    if model == "all":
        return parts
    if model == "num":
        k = len(set(labels))
        return [p for p in parts if max(p) + 1 == k]
    sizes = sorted(Counter(labels).values())
    return [p for p in parts if sorted(Counter(p).values()) == sizes]
