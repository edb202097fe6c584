"""The small-call routes of issue #38 give what the general routes give.

* ``_tables.table_from_codes``: tables of at most 2^16 elements take their margins from the
  dense tally and their cells' rows and columns from one divmod; every field (and dtype) of
  the Table equals the one the runs of the sorted keys give (the route forced off).
* ``contingency._pair_counts``: one int64 dot product per margin, with N known for a table
  of cells: checked against counting the pairs of elements one by one.
* ``measures._exact_counts``: one pair's Python-int counts become int64 in one array; the
  result equals the general route's (arrays of the same counts) on both sides of the
  int64/object boundary.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from chanceclust import _tables, pair_counts
from chanceclust._tables import table_from_codes
from chanceclust._validation import validate_clusterings
from chanceclust.measures import _SMALL_COUNT, _exact_counts

FIELDS = ("counts", "rows", "cols", "row_sums", "col_sums")


def _labels(rng, n, k_true, k_pred):
    return rng.integers(0, k_true, n), rng.integers(0, k_pred, n)


@pytest.mark.parametrize(
    ("n", "k_true", "k_pred"),
    [(0, 1, 1), (1, 1, 1), (2, 2, 1), (7, 3, 3), (100, 10, 30), (100, 30, 10), (100, 8, 8),
     (500, 40, 40), (3000, 3, 200), (3000, 200, 3)],
)
def test_small_route_gives_the_general_table(monkeypatch, n, k_true, k_pred):
    rng = np.random.default_rng(n + 7 * k_true + k_pred)
    for _ in range(3):
        c = validate_clusterings(*_labels(rng, n, k_true, k_pred))
        args = (c.codes_true, c.k_true, c.codes_pred, c.k_pred)
        small = table_from_codes(*args)
        with monkeypatch.context() as m:
            m.setattr(_tables, "_SMALL_TABLE_ELEMENTS", -1)
            general = table_from_codes(*args)
        for name in FIELDS:
            got, want = getattr(small, name), getattr(general, name)
            assert got.dtype == want.dtype, name
            assert np.array_equal(got, want), name
        assert (small.n, small.column_major, small.weights) == (
            general.n, general.column_major, general.weights)


@pytest.mark.parametrize(("n", "k_true", "k_pred"), [(0, 1, 1), (1, 2, 2), (9, 3, 2), (40, 5, 7)])
def test_pair_counts_equal_counting_pairs(n, k_true, k_pred):
    rng = np.random.default_rng(n)
    a, b = _labels(rng, n, k_true, k_pred)
    want = [0, 0, 0, 0]  # n11, n10, n01, n00
    for i, j in itertools.combinations(range(n), 2):
        same_a, same_b = a[i] == a[j], b[i] == b[j]
        want[0 if same_a and same_b else 1 if same_a else 2 if same_b else 3] += 1
    got = pair_counts(a, b)
    assert [got.n11, got.n10, got.n01, got.n00] == want


@pytest.mark.parametrize(
    "values",
    [(0, 0, 0, 0), (3, 5, 7, 11), (_SMALL_COUNT - 1, 1, 2, 3), (_SMALL_COUNT, 1, 2, 3),
     (1, 2, 3, -_SMALL_COUNT + 1), (2**62, 1, 2, 3)],
)
def test_exact_counts_of_ints_equal_the_array_route(values):
    got = _exact_counts(*values)
    want = _exact_counts(*(np.array([v], dtype=object if v >= 2**62 else np.int64)
                           for v in values))  # fmt: skip
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape == (1,)
        assert g.dtype == w.dtype
        assert g.tolist() == w.tolist()
