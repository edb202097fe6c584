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
