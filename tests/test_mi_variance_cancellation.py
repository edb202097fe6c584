"""Var[MI] far below the same-cell sum V: one cluster of almost every element beside
singletons, against two halves (issue #35).

There the singletons' cells vary a lot but their sum over a row hardly at all, so
V + (pairs of distinct cells) cancels to ~1e-6 of V and the rounding and truncation of the
expansion (~1e-16 to 1e-13 of V) was up to 1.7e-8 of Var. Two fixed sides whose expansion
gives less than ``LINEAR_EXACT_BELOW`` V now take order 1 as the variance of one linear
permutation statistic (a sum of squares), the rest of V as sums of squares, and the orders
until their bound is LANCASTER_TOL of that variance. References: 50 digits,
tests/reference/make_mi_variance_huge_cluster.py.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._expected.laws import SizeLaw

REFERENCE = Path(__file__).parent / "reference" / "mi_variance_huge_cluster.json"
CASES = [c for c in json.loads(REFERENCE.read_text()) if c["kind"] == "perm"]


def _error(case) -> float:
    got = cc.mutual_information_variance(contingency=np.array(case["table"]))
    ref = mp.mpf(case["variance"])
    return abs(float((mp.mpf(got) - ref) / ref))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['n']}-{c['k']}")
def test_singletons_beside_one_cluster_within_the_documented_bound(case):
    """N = 400 to 3200, k = 2 to 40 singletons: within 1e-10 of the 50-digit sums (measured
    <= 5.4e-12; the route before: up to 1.7e-8)."""
    assert _error(case) <= 1e-10


def test_the_route_before_missed_the_bound_here(monkeypatch):
    """The switch off (LINEAR_EXACT_BELOW = 0): N = 3200, k = 3 is off by more than 1e-9,
    so the references above can fail."""
    (case,) = [c for c in CASES if (c["n"], c["k"]) == (3200, 3)]
    monkeypatch.setattr(engine, "LINEAR_EXACT_BELOW", 0.0)
    assert _error(case) > 1e-9


def _moments(sizes) -> engine.SizeMoments:
    values, counts = np.unique(np.asarray(sizes, dtype=np.int64), return_counts=True)
    return engine.fixed_moments(SizeLaw(int(np.sum(sizes)), values, counts.astype(np.float64), True))


@pytest.mark.parametrize(
    ("rows", "cols"),
    [([500, 300, 200], [400, 350, 250]), ([60, 20, 10, 5, 5], [50, 50]), ([2000, 10, 5, 5], [1010, 1010]),
     ([30] * 10, [100, 100, 100])],
)
def test_both_sides_of_the_switch_agree_on_ordinary_tables(rows, cols, monkeypatch):
    """The linear-statistic form forced on (LINEAR_EXACT_BELOW = 2: every fixed table) and
    off (0) give the same E[Var(T | sizes)] where nothing cancels."""
    n = sum(rows)
    moments = _moments(rows), _moments(cols)
    values = []
    for threshold in (0.0, 2.0):
        monkeypatch.setattr(engine, "LINEAR_EXACT_BELOW", threshold)
        values.append(engine.conditional_variance(n, *moments)[0])
    assert values[1] == pytest.approx(values[0], rel=1e-12, abs=0)


def test_linear_variance_equals_enumeration():
    """Var(sum_ij c_ij n_ij) over every permutation (N = 7), exact rationals, against
    _linear_variance with coefficients f_1 = c sd (the order-1 coefficients' scale)."""
    rows, cols = [3, 2, 1, 1], [4, 2, 1]
    n = sum(rows)
    rng = np.random.default_rng(5)
    c = rng.integers(-5, 6, (len(rows), len(cols)))
    a = [i for i, r in enumerate(rows) for _ in range(r)]
    b = [j for j, s in enumerate(cols) for _ in range(s)]
    sa, sb = np.array(rows, float), np.array(cols, float)
    sd = np.sqrt(np.outer(sa * (n - sa), sb * (n - sb)) / (n * n * (n - 1)))
    # The moments' cells are per pair of sizes: the two rows of size 1 share theirs, so
    # they get one coefficient.
    c[3] = c[2]
    values = [sum(Fraction(int(c[a[e], b[p[e]]])) for e in range(n)) for p in permutations(range(n))]
    mean = sum(values) / len(values)
    exact = sum((v - mean) ** 2 for v in values) / len(values)
    moments = _moments(rows), _moments(cols)
    order = [list(moments[0].sizes).index(r) for r in rows]  # moments' rows are sorted sizes
    grid = np.zeros((len(moments[0].sizes), len(cols)))
    col_order = [list(moments[1].sizes).index(s) for s in cols]
    for i, r in enumerate(order):
        for j, s in enumerate(col_order):
            grid[r, s] = c[i, j] * sd[i, j]
    got = engine._linear_variance(n, *moments, grid)
    assert got == pytest.approx(float(exact), rel=1e-13)
    assert math.isfinite(got)
