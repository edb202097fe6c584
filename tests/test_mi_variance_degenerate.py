"""Single-valued ensembles: Var[MI] exactly 0.0 and SMI exactly 0.0 (issue #35).

docs/math.md#math-mi-variance ("Single-valued ensembles"): MI = 0 when a side is one
cluster; MI = H(other) when a side is N singletons and the other's sizes are fixed; and
sizes (N - 1, 1) against equal sizes (the singleton's column changes no cell's law). The
last was computed as ~1e-23 (SMI ~1e-7) before. Enumeration of every table of every pair of
size sequences to N = 7 here (N = 10 when written) finds no other single-valued ensemble under perm.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from reference.make_expectations import integer_partitions

import chanceclust as cc


def _tables(rows: list[int], cols: list[int]):
    """Every table with these margins."""
    if not rows:
        if not any(cols):
            yield []
        return

    def fill(j, left, row):
        if j == len(cols) - 1:
            if left <= cols[j]:
                yield [*row, left]
            return
        for x in range(min(left, cols[j]) + 1):
            yield from fill(j + 1, left - x, [*row, x])

    for row in fill(0, rows[0], []):
        for rest in _tables(rows[1:], [c - x for c, x in zip(cols, row, strict=True)]):
            yield [row, *rest]


def _mi(table: list[list[int]], n: int) -> float:
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table, strict=True)]
    return sum(x / n * math.log(x * n / (rows[i] * cols[j]))
               for i, r in enumerate(table) for j, x in enumerate(r) if x)


@pytest.mark.parametrize("n", range(2, 8))
def test_variance_is_zero_exactly_where_every_table_has_one_mi(n):
    """perm, every pair of size sequences: Var[MI] == 0.0 where enumeration finds one MI
    value (to 1e-12), > 0 elsewhere; SMI 0.0 there."""
    for a in integer_partitions(n):
        for b in integer_partitions(n):
            tables = list(_tables(list(a), list(b)))
            values = [_mi(t, n) for t in tables]
            single = max(values) - min(values) < 1e-12
            var = cc.mutual_information_variance(contingency=np.array(tables[0]))
            assert (var == 0.0) == single, (a, b, var)
            if single:
                assert cc.standardized_mutual_information(contingency=np.array(tables[0])) == 0.0


@pytest.mark.parametrize(("n", "k"), [
    (400, 2), (30_001, 2), (30_001, 3), (30_001, 7),
    pytest.param(400, 3, marks=pytest.mark.slow), pytest.param(400, 7, marks=pytest.mark.slow),
])
def test_a_singleton_against_equal_sizes(n, k):
    """(N - 1, 1) against k equal sizes, both orientations, the singleton in any column:
    Var[MI] and SMI exactly 0.0 (perm), in compare() too; (N - 2, 2) is not single-valued."""
    n -= n % k
    size = n // k
    for col in (0, k - 1):
        table = np.zeros((2, k), dtype=np.int64)
        table[0] = size
        table[0, col] -= 1
        table[1, col] = 1
        for t in (table, table.T):
            assert cc.mutual_information_variance(contingency=t) == 0.0
            assert cc.standardized_mutual_information(contingency=t) == 0.0
        assert cc.compare(contingency=table, standardized=True).get("SMI") == 0.0
    table[0, col] -= 1
    table[1, col] = 2
    assert cc.mutual_information_variance(contingency=table) > 0


@pytest.mark.parametrize("model", ["perm", "num", "all"])
@pytest.mark.parametrize("one_sided", [False, True])
def test_the_conventional_cases(model, one_sided):
    """A single-cluster side, and under one-sided num a prediction with K = 1 or K = N (its
    clustering is then unique): Var and SMI exactly 0.0. N = 50 (size sums) and 5000 (slots)."""
    rng = np.random.default_rng(0)
    for n in (50, 5000):
        labels = rng.integers(0, 4, n)
        pairs = []
        if model != "all" or one_sided:  # two-sided all: every ensemble has many MI values
            pairs.append((np.zeros(n, dtype=int), labels))  # a reference of one cluster
        if model == "perm" or (model == "num" and one_sided):
            pairs += [(labels, np.zeros(n, dtype=int)), (labels, np.arange(n))]
        for a, b in pairs:
            assert cc.mutual_information_variance(a, b, model=model, one_sided=one_sided) == 0.0
            assert cc.standardized_mutual_information(a, b, model=model, one_sided=one_sided) == 0.0
