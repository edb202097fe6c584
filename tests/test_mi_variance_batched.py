"""Var[MI] under perm: the diagonal conditional rows of the factored route in one batch.

Where the factored grids are kept, the terms b' = b of the first stage and a' = a of the
second are conditional rows of every (size, size) pair; they are evaluated for every base
size together (mi_variance._add_pair_rows, mi_variance._cross_sum take one base size per
entry). Batching regroups the same rows: checked against one call per base size (the
grouping before) at 1e-12 relative, with the batch seen to hold several base sizes.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_mi_variance_factored import _labels  # Dirichlet(5) sizes, as benchmarks/smi.py

import chanceclust as cc
import chanceclust._expected.mi_variance as engine


def _per_base(monkeypatch: pytest.MonkeyPatch, seen: list[int]) -> None:
    """Split every batched call into one call per base size (the grouping before)."""
    pair_rows, cross_sum = engine._add_pair_rows, engine._cross_sum

    def split_pair_rows(out, n, base, sizes_a, cols, cells, col, partner, weights):
        seen.append(len(np.unique(base)))
        for i in np.unique(base):
            at = np.flatnonzero(base == i)
            pair_rows(out, n, base[at], sizes_a, cols, cells, col[at], partner[at], weights[at])

    def split_cross_sum(n, rows, cols, cells, partner_terms, base, other, col, weight):
        base = np.broadcast_to(base, col.shape)
        seen.append(len(np.unique(base)))
        return sum(
            cross_sum(n, rows, cols, cells, partner_terms, int(i), other[base == i],
                      col[base == i], weight[base == i])
            for i in np.unique(base)
        )

    monkeypatch.setattr(engine, "_add_pair_rows", split_pair_rows)
    monkeypatch.setattr(engine, "_cross_sum", split_cross_sum)


@pytest.mark.parametrize(("n", "k"), [(10**4, 30), (10**5, 14)])
def test_batched_diagonal_rows_equal_one_call_per_size(n, k, monkeypatch):
    a, b = _labels(n, k, seed=n + k)
    batched = cc.mutual_information_variance(a, b)
    seen: list[int] = []
    with monkeypatch.context() as m:
        _per_base(m, seen)
        separate = cc.mutual_information_variance(a, b)
    assert max(seen) > 1  # the batch holds several base sizes (the factored grids were kept)
    assert batched == pytest.approx(separate, rel=1e-12, abs=0)


def _rows(total, a, b, start, width):
    args = (np.asarray(v, dtype=np.int64) for v in (total, a, b, start))
    total, a, b, start = args
    normalized = engine._hyp_rows(total, a, b, start, width, normalize=True)
    anchored = engine._hyp_rows(total, a, b, start, width)
    return normalized, anchored


@pytest.mark.parametrize(
    ("total", "a", "b", "start", "width", "case"),
    [
        # windows inside the support: the running product itself, rescaled once
        ([10**6, 10**6 - 500, 999_000], [10**4, 5000, 3000], [10**4, 8000, 3000],
         [0, 0, -5], 220, "inside"),
        # a running product that overflows (the mode ~ 4000 columns from the start): both ways
        ([10**7], [2 * 10**6], [10**5], [15_000], 8000, "overflow"),
        # the support ends inside the row: carry_pmf's masked rows
        ([50, 1000], [10, 30], [12, 40], [0, 0], 40, "partial"),
    ],
)
def test_normalized_rows_equal_anchored_rows(total, a, b, start, width, case):
    """pmf rows divided by their sums (every branch of mi_variance._normalized) equal the
    rows anchored by Loader's form where they are kept, and are anchored where not."""
    normalized, anchored = _rows(total, a, b, start, width)
    big = anchored > 1e-250 * anchored.max(axis=1, keepdims=True)
    assert np.all((normalized == 0) == (anchored == 0))
    np.testing.assert_allclose(normalized[big], anchored[big], rtol=1e-13, atol=0)
    if case != "partial":
        np.testing.assert_allclose(normalized.sum(axis=1), 1.0, rtol=1e-13)
