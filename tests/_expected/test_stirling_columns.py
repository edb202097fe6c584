"""lattice.exact_stirling2_columns (issue #38: the num model's exact size moments took one
S(m, j) per m, k big powers each: SMI under num at N = 1000, K = 533 took 7 s): every column
against the triangle's recurrence (tests/reference/_exact.py), at the columns' edges (k = 0,
k = n, k > n, k near n), and the num moments made from the columns equal to those made from
one exact_stirling2 call per (m, j), value for value."""

from __future__ import annotations

import numpy as np
import pytest
from reference._exact import stirling2_rows

from chanceclust import _models
from chanceclust._expected.lattice import exact_stirling2, exact_stirling2_columns
from chanceclust._expected.mi_variance import random_moments


def _triangle(nmax):
    rows = {0: [1]}
    rows.update(stirling2_rows(nmax))
    return lambda m, k: rows[m][k] if k <= m else 0


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 30, 61])
def test_columns_match_the_recurrence(n):
    s = _triangle(n)
    for ks in [(0,), (1,), (0, 1, 2), (2, 5, 9), (n,), (max(n - 2, 0), max(n - 1, 0), n), (n + 2,)]:
        out = exact_stirling2_columns(n, ks)
        assert sorted(out) == sorted(set(ks))
        for k in ks:
            assert out[k] == [s(m, k) for m in range(n + 1)], (n, k)


def _one_call_per_count(n, k):
    """The num moments as made before the columns: one exact_stirling2 per (m, j)."""

    def rest(m, used):
        return exact_stirling2(m, k - used) if k - used >= 0 else 0

    return random_moments(n, exact_stirling2(n, k), rest, "1a")


@pytest.mark.parametrize(
    ("n", "k"), [(1, 1), (2, 1), (5, 2), (12, 4), (40, 38), (90, 30), (150, 100)]
)
def test_num_moments_equal_those_of_one_count_a_call(n, k):
    _models._num_moments.cache_clear()
    got, want = _models._num_moments(n, k), _one_call_per_count(n, k)
    for name in ("sizes", "once", "pairs", "spread"):
        a, b = getattr(got, name), getattr(want, name)
        assert np.array_equal(np.asarray(a), np.asarray(b)), name
