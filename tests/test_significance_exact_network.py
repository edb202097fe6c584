"""The network sum of the exact route (#34, session 14) against independent computations.

* Small margins: every table enumerated here cell by cell, its probability an exact Fraction
  prod a! prod b! / (N! prod n!), the tails summed exactly; the sum of ``_exact_null`` (meet in
  the middle; the pruned network of each tail, beyond the budget and for num and all) must agree to 1e-9 relative for random
  margins and thresholds of both statistics (hypothesis).
* 3 x 4 tables at N = 200, balanced and skewed margins: every table enumerated by the C
  program tests/reference/exact_3x4_enumerate.c (long double, up to 8.9e8 tables a margin
  set; tests/reference/make_exact_3x4.py wrote tests/reference/exact_3x4.json).
* The refusal is decided before any table is built; the pruned sum (beyond the budget) of
  extreme tables has a closed form (identical partitions: the tables at least as extreme are permutations).
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chanceclust as cc
from chanceclust import _exact_null as engine
from chanceclust import significance

RTOL = 1e-9
REFERENCE = json.loads(
    (Path(__file__).resolve().parent / "reference" / "exact_3x4.json").read_text()
)


def _labels(table):
    table = np.asarray(table)
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


# ----------------------------------------------------------------- small margins, exact


def _tables(rows, cols):
    """Every table with these margins, row by row (itertools; no numpy)."""

    def fill(i, left):
        if i == len(rows) - 1:
            yield (tuple(left),)
            return
        for row in itertools.product(*(range(min(c, rows[i]) + 1) for c in left)):
            if sum(row) == rows[i]:
                rest = [c - v for c, v in zip(left, row, strict=True)]
                if sum(rest) == sum(rows[i + 1 :]):
                    for tail in fill(i + 1, rest):
                        yield (row, *tail)

    yield from fill(0, list(cols))


def _exact_law(rows, cols, stat):
    """{statistic: exact probability} by enumeration with Fractions."""
    n = sum(rows)
    const = Fraction(
        math.prod(math.factorial(a) for a in rows) * math.prod(math.factorial(b) for b in cols),
        math.factorial(n),
    )
    out = {}
    for table in _tables(rows, cols):
        cells = [v for row in table for v in row]
        p = const / math.prod(math.factorial(v) for v in cells)
        key = sum(stat.cell(v) for v in cells)
        out[key] = out.get(key, 0) + p
    assert sum(out.values()) == 1
    return out


def _close(log_p, p):
    if p == 0:
        return log_p == -math.inf
    return math.isclose(math.exp(log_p), float(p), rel_tol=RTOL)


MARGINS = st.tuples(
    st.lists(st.integers(1, 5), min_size=1, max_size=4),
    st.lists(st.integers(1, 5), min_size=1, max_size=4),
).filter(lambda m: sum(m[0]) <= sum(m[1]))


@given(MARGINS, st.sampled_from([engine.PAIRS, engine.ENTROPY]), st.floats(0, 1), st.data())
@settings(max_examples=60, deadline=None)
def test_tails_equal_enumeration(margins, kind, where, data):
    rows, cols = margins
    cols = [*cols[:-1], cols[-1] + sum(rows) - sum(cols)] if sum(cols) != sum(rows) else cols
    cols = [c for c in cols if c > 0]
    if sum(cols) != sum(rows) or not cols:
        return
    stat = engine.statistic(kind, sum(rows))
    law = _exact_law(rows, cols, stat)
    keys = sorted(law)
    # thresholds at, between and beyond the attained values
    threshold = round(keys[0] - 2 + where * (keys[-1] - keys[0] + 4))
    least, most = threshold, threshold + data.draw(st.integers(-2, 2))
    upper = sum((p for k, p in law.items() if k >= least), Fraction(0))
    lower = sum((p for k, p in law.items() if k <= most), Fraction(0))
    got = engine.log_tails(engine.plan(rows, cols, stat), stat, least, most)
    assert _close(got[0], upper), (got, upper)
    assert _close(got[1], lower), (got, lower)
    pruned = [engine.log_tail(rows, cols, stat, t, g, 10**7)[0]
              for t, g in ((least, True), (most, False))]  # fmt: skip
    assert _close(pruned[0], upper), (pruned, upper)
    assert _close(pruned[1], lower), (pruned, lower)


def test_identical_partitions_closed_form():
    """Three clusters of 200, the same partition twice: the tables with T (or n11) at least
    the observed are the 3! permutation tables, so P = 3! (200!)^3 / 600!; the plan is beyond
    the budget and the pruned sum finds it."""
    a = np.repeat([0, 1, 2], 200)
    closed = math.log(6) + 3 * math.lgamma(201) - math.lgamma(601)
    got = cc.significance_test("ri", a, a, model="perm", method="exact")
    assert math.log(got.pvalue) == pytest.approx(closed, rel=1e-12)  # 2.3e-283
    stat = engine.statistic(engine.ENTROPY, 600)
    observed = stat.of([200, 200, 200])
    log_p, _ = engine.log_tail([200] * 3, [200] * 3, stat, observed - stat.tie, True,
                               significance.EXACT_MAX_PRUNED)  # fmt: skip
    assert log_p == pytest.approx(closed, rel=1e-12)
    stat = engine.statistic(engine.ENTROPY, 600)
    assert engine.plan([200] * 3, [200] * 3, stat).work > significance.EXACT_MAX_WORK


# ----------------------------------------------------------------- 3 x 4 at N = 200


CASES = [
    (tuple(case["rows"]), tuple(case["cols"]), obs)
    for case in REFERENCE
    for obs in case["observed"]
]


def test_reference_is_complete():
    """The enumeration summed to 1 and no T was at the edge of the tie width (where rounding
    could put a table on either side)."""
    assert len(REFERENCE) == 4
    assert len(CASES) == 11
    assert {(tuple(c["rows"]), c["tables"]) for c in REFERENCE} >= {((67, 67, 66), 889368600)}
    for case in REFERENCE:
        assert float(case["total"]) == pytest.approx(1.0, abs=1e-13)
        assert all(obs["near_ties"] == 0 for obs in case["observed"])


# The balanced and (100, 60, 40) margins take ~1 s of CPU a sum: four of their 14 sums run by
# default (both statistics, both margin sets, an extreme and a moderate table), the rest are
# slow; the two smaller margin sets run whole.
FAST = {(2, engine.PAIRS), (3, engine.ENTROPY), (5, engine.ENTROPY), (6, engine.PAIRS)}


def _three_by_four_cases():
    for index, case in enumerate(CASES):
        for kind in (engine.PAIRS, engine.ENTROPY):
            slow = index < 7 and (index, kind) not in FAST
            yield pytest.param(*case, kind, marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize(("rows", "cols", "obs", "kind"), list(_three_by_four_cases()))
def test_three_by_four_equals_enumeration(rows, cols, obs, kind):
    """Both tails of n11 and of T, as the route computes them (its thresholds), to 1e-9."""
    table = np.array(obs["table"])
    stat = engine.statistic(kind, 200)
    observed = stat.of(table.ravel().tolist())
    got = engine.log_tails(engine.plan(rows, cols, stat), stat, observed - stat.tie,
                           observed + stat.tie)  # fmt: skip
    name = "pairs" if kind == engine.PAIRS else "entropy"
    for log_p, side in zip(got, ("greater", "less"), strict=True):
        assert math.exp(log_p) == pytest.approx(float(obs[f"{name}_{side}"]), rel=RTOL)


def _public(rows, cols, obs, measure, alternative):
    table = np.array(obs["table"])
    got = cc.significance_test(measure, *_labels(table), model="perm", method="exact",
                               alternative=alternative)  # fmt: skip
    base = "pairs" if measure in ("ri", "ari", "sri", "fmi", "jaccard") else "entropy"
    side = alternative
    if measure == "vi" and alternative != "two-sided":  # VI decreases with MI
        side = "less" if alternative == "greater" else "greater"
    g, le = float(obs[f"{base}_greater"]), float(obs[f"{base}_less"])
    ref = {"greater": g, "less": le, "two-sided": min(1.0, 2 * min(g, le))}[side]
    assert got.method == "exact"
    assert got.pvalue == pytest.approx(ref, rel=RTOL), (measure, alternative)


@pytest.mark.parametrize(
    ("case", "measure", "alternative"),
    [(7, "ri", "greater"), (9, "ami", "less"), (8, "vi", "two-sided"), (10, "sri", "two-sided")],
)
def test_public_route_equals_enumeration_sampled(case, measure, alternative):
    _public(*CASES[case], measure, alternative)


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols", "obs"), CASES)
def test_public_route_equals_enumeration(rows, cols, obs):
    """Both families, a measure increasing and one decreasing in the statistic, every
    alternative, on every reference table (~1 s of CPU a call; each call sums both tails, and
    test_significance_exact.py checks every measure on the 2 x 2 and small tables)."""
    for measure, alternative in (("ari", "greater"), ("ari", "less"), ("sri", "two-sided"),
                                 ("vi", "greater"), ("vi", "less"), ("ami", "two-sided")):  # fmt: skip
        _public(rows, cols, obs, measure, alternative)


# ----------------------------------------------------------------- budget


def test_the_budget_is_decided_before_the_sum(monkeypatch):
    """A table beyond both budgets is refused without building a partial table of the
    vectorized sum, and the pruned sum stops before a node whose fillings would pass its
    budget (here the first: 3.5 million fillings of a column of 50 into 6 rows)."""
    big = np.repeat(np.arange(6), 50)
    stat = engine.statistic(engine.ENTROPY, 300)
    assert engine.plan([50] * 6, [50] * 6, stat).work > 1000 * significance.EXACT_MAX_WORK
    built = []

    def forbidden(*args):
        raise AssertionError("a table was built")

    def counting(network, state, j):
        built.append(state)
        return real(network, state, j)

    real = engine._Network.moves
    monkeypatch.setattr(engine, "_fillings", forbidden)
    monkeypatch.setattr(engine._Network, "moves", counting)
    with pytest.raises(cc.InvalidInputError, match=r"too costly for this 6 x 6 table of N = 300"):
        cc.significance_test("mi", big, np.roll(big, 7), model="perm", method="exact")
    assert built == []


def _uncapped_work(cols):
    """An upper bound of the plan's work for 3 rows of any sizes: the fewest over the splits
    of the columns in two halves of the work with C(b + 2, 2) fillings a column (no caps)."""

    def half(bs):
        work, level = 0, 1
        for fills in sorted(math.comb(b + 2, 2) for b in bs):
            work, level = work + level * fills, level * fills
        return work + level

    return min(
        half([b for i, b in enumerate(cols) if mask >> i & 1])
        + half([b for i, b in enumerate(cols) if not mask >> i & 1])
        for mask in range(2 ** len(cols))
    )


def test_the_worst_three_by_four_at_200_is_within_the_budget():
    """The columns (2, 66, 66, 66) bound the work of every 3 x 4 table at N = 200 (the slow
    test below searches all); the plan's own count of them, uncapped, agrees."""
    assert _uncapped_work([2, 66, 66, 66]) == 10408188 <= significance.EXACT_MAX_WORK
    stat = engine.statistic(engine.ENTROPY, 200)
    assert engine.plan([200] * 3, [2, 66, 66, 66], stat).work <= 10408188
    assert engine.plan([67, 67, 66], [50] * 4, stat).work <= 10408188
    stat = engine.statistic(engine.PAIRS, 10**4)
    assert engine.plan([5000, 5000], [5000, 5000], stat).work < 10**5  # 2 x 2, N = 10^4


@pytest.mark.slow
def test_every_three_by_four_at_200_is_within_the_budget():
    """Every 4 column sizes of 200 elements (55,000 multisets), uncapped fillings (any 3 row
    sizes): the fewest work over the splits is at most that of (2, 66, 66, 66)."""
    n, worst = 200, 0
    for b1 in range(1, n):
        for b2 in range(b1, n):
            for b3 in range(b2, n):
                b4 = n - b1 - b2 - b3
                if b4 < b3:
                    break
                worst = max(worst, _uncapped_work([b1, b2, b3, b4]))
    assert worst == _uncapped_work([2, 66, 66, 66]) <= significance.EXACT_MAX_WORK
