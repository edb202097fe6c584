"""The exact and gamma routes of significance_test (#34), against independent computations.

* 2 x 2 under perm: the tail of scipy.stats.hypergeom over the values of n11 whose statistic
  is at least (at most) the observed one, up to N = 10^4.
* r x c under perm: every table with the margins enumerated here (numpy), its probability
  prod a! prod b! / (N! prod n!) from lgamma summed with math.fsum, up to N = 200 with 3 x 4
  clusters, the RI statistic and MI compared as the measures themselves (not our integer keys).
* num and all (N <= 8): every pair of clusterings enumerated (set partitions), the measure
  of each table computed with the public functions, each pair weighted by its probability as
  an exact Fraction.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom, norm

import chanceclust as cc

ALTERNATIVES = ("greater", "less", "two-sided")
# The exact sums and the references here are both sums of positive terms in log space:
# they agree to ~1e-13; 1e-9 is the documented bound.
RTOL = 1e-9
# Ties: the library counts values of T within 3.7e-9 N ln N as equal (2e-8 nats of MI at
# N = 200); the references count values within TIE (relative) as equal, and the tables below
# have no values between TIE and NEAR of the observed one (checked by _no_near_ties), where
# the two rules could differ.
TIE, NEAR = 1e-10, 1e-7


def _labels(table):
    table = np.asarray(table)
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


def _pvalues(values, logp, observed):
    """greater, less, two-sided tails of a discrete law given by values and log probs."""
    values, logp = np.asarray(values, dtype=float), np.asarray(logp, dtype=float)
    tol = TIE * max(1.0, abs(observed))
    top = logp.max()
    total = math.fsum(np.exp(logp - top))

    def tail(mask):
        return math.fsum(np.exp(logp[mask] - top)) / total

    greater, less = tail(values >= observed - tol), tail(values <= observed + tol)
    return {"greater": greater, "less": less, "two-sided": min(1.0, 2 * min(greater, less))}


def _no_near_ties(values, observed):
    gap = np.abs(np.asarray(values, dtype=float) - observed)
    scale = max(1.0, abs(observed))
    assert not np.any((gap > TIE * scale) & (gap < NEAR * scale)), "a near tie: reference unsure"


def _rand_and_mi(tables, n):
    """RI (via the pair count) and MI (nats) of a stack of tables (..., r, c)."""
    tables = np.asarray(tables, dtype=float)
    a, b = tables.sum(-1), tables.sum(-2)
    pairs = n * (n - 1) / 2
    n11 = (tables * (tables - 1) / 2).sum((-1, -2))
    qa, qb = (a * (a - 1) / 2).sum(-1), (b * (b - 1) / 2).sum(-1)
    ri = (pairs + 2 * n11 - qa - qb) / pairs
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(
            tables > 0, tables * np.log(tables * n / (a[..., :, None] * b[..., None, :])), 0.0
        )
    return ri, terms.sum((-1, -2)) / n


# ----------------------------------------------------------------- perm, 2 x 2


@pytest.mark.parametrize(
    ("table"),
    [
        [[300, 200], [200, 300]],  # the README example: 3.35e-10
        [[30, 20], [20, 30]],
        [[4000, 1000], [3000, 2000]],  # N = 10^4
        [[5100, 4800], [40, 60]],  # N = 10^4, a small row
        [[1, 0], [0, 1]],
    ],
)
@pytest.mark.parametrize("measure", ["ri", "ari", "sri", "mi", "smi", "ami", "vi"])
def test_two_by_two_is_the_hypergeometric_tail(table, measure):
    table = np.array(table)
    n, a1, b1 = int(table.sum()), int(table[0].sum()), int(table[:, 0].sum())
    k = np.arange(max(0, a1 + b1 - n), min(a1, b1) + 1)
    stack = np.stack([np.stack([k, a1 - k], -1), np.stack([b1 - k, n - a1 - b1 + k], -1)], -2)
    ri, mi = _rand_and_mi(stack, n)
    obs_ri, obs_mi = _rand_and_mi(table, n)
    values, observed = (ri, obs_ri) if measure in ("ri", "ari", "sri") else (mi, obs_mi)
    if measure == "vi":  # VI = H_A + H_B - 2 MI: its "greater" is MI's "less"
        values, observed = -values, -observed
    _no_near_ties(values, observed)
    ref = _pvalues(values, hypergeom.logpmf(k, n, a1, b1), float(observed))
    labels_true, labels_pred = _labels(table)
    for alternative in ALTERNATIVES:
        got = cc.significance_test(measure, labels_true, labels_pred, model="perm",
                                   method="exact", alternative=alternative)  # fmt: skip
        assert got.method == "exact"
        assert got.pvalue_factor == 1 + RTOL
        assert not got.pvalue_bound
        assert got.pvalue == pytest.approx(ref[alternative], rel=RTOL, abs=0), alternative


def test_readme_two_by_two_value():
    """The README's N = 1000 example: the hypergeometric tail is 3.3526e-10 (scipy)."""
    small_true, small_pred = [0] * 50 + [1] * 50, [0] * 30 + [1] * 50 + [0] * 20
    got = cc.significance_test("sri", small_true * 10, small_pred * 10, model="perm",
                               method="exact")  # fmt: skip
    k = np.arange(300, 501)  # n11 >= 300 or <= 200: RI is symmetric about 250 here
    ref = hypergeom.sf(299, 1000, 500, 500) + hypergeom.cdf(200, 1000, 500, 500)
    assert got.pvalue == pytest.approx(ref, rel=RTOL)
    assert f"{got.pvalue:.3g}" == "3.35e-10"
    # What a normal law with the exact moments would say (README, guide): 1.6e-167.
    assert f"{norm.sf(got.statistic):.2g}" == "1.6e-167"
    assert k.size == 201


# ----------------------------------------------------------------- perm, r x c


def _compositions(total, parts, caps):
    """Every x >= 0 of ``parts`` entries summing to ``total`` with x <= caps (numpy rows)."""
    out = [
        c
        for c in itertools.product(*(range(min(total, cap) + 1) for cap in caps[:-1]))
        if 0 <= total - sum(c) <= caps[-1]
    ]
    return np.array([[*c, total - sum(c)] for c in out], dtype=np.int64).reshape(-1, parts)


@functools.lru_cache(maxsize=4)
def _all_tables(rows, cols):
    """Every table with these margins: the small rows enumerated, the first row the rest."""
    cols = np.array(cols)
    stack = np.zeros((1, 0, len(cols)), dtype=np.int64)
    for r in rows[1:]:
        options = _compositions(r, len(cols), list(cols))
        m, k = stack.shape[0], options.shape[0]
        both = np.concatenate(
            [np.repeat(stack, k, axis=0), np.tile(options, (m, 1))[:, None, :]], axis=1
        )
        stack = both[(both.sum(1) <= cols).all(1)]
    rest = cols - stack.sum(1)
    tables = np.concatenate([rest[:, None, :], stack], axis=1)
    return tables, _log_prob(tables, rows, cols), *_rand_and_mi(tables, sum(rows))


def _log_prob(tables, rows, cols):
    n = sum(rows)
    lg = np.vectorize(math.lgamma)
    const = sum(math.lgamma(a + 1) for a in rows) + sum(math.lgamma(b + 1) for b in cols)
    return const - math.lgamma(n + 1) - lg(tables + 1.0).sum((-1, -2))


@pytest.mark.parametrize(
    ("rows", "cols", "observed"),
    [
        # N = 200, 3 x 4 (the size): two small rows keep enumeration at ~5 x 10^5
        # tables (10-30 s: slow; the C enumeration of test_significance_exact_network.py
        # holds these two tables in the default run).
        pytest.param(
            (170, 20, 10),
            (80, 60, 40, 20),
            [[80, 50, 30, 10], [0, 10, 5, 5], [0, 0, 5, 5]],
            marks=pytest.mark.slow,
        ),
        pytest.param(
            (170, 20, 10),
            (80, 60, 40, 20),
            [[66, 51, 34, 19], [9, 6, 4, 1], [5, 3, 2, 0]],
            marks=pytest.mark.slow,
        ),
        # Dense small margins: every table of a 3 x 4 at N = 24 and a 4 x 3 at N = 30.
        ((8, 8, 8), (6, 6, 6, 6), [[4, 2, 1, 1], [1, 3, 2, 2], [1, 1, 3, 3]]),
        ((10, 8, 7, 5), (12, 10, 8), [[6, 2, 2], [3, 4, 1], [2, 2, 3], [1, 2, 2]]),
    ],
)
@pytest.mark.parametrize("measure", ["ri", "sri", "fmi", "jaccard", "mi", "nmi", "ami", "vi"])
def test_r_by_c_equals_enumeration(rows, cols, observed, measure):
    observed = np.array(observed)
    assert tuple(observed.sum(1)) == rows
    assert tuple(observed.sum(0)) == cols
    _, logp, ri, mi = _all_tables(rows, cols)
    n = sum(rows)
    obs_ri, obs_mi = _rand_and_mi(observed, n)
    values, obs = (ri, obs_ri) if measure in ("ri", "sri", "fmi", "jaccard") else (mi, obs_mi)
    if measure == "vi":
        values, obs = -values, -obs
    _no_near_ties(values, obs)
    ref = _pvalues(values, logp, float(obs))
    labels_true, labels_pred = _labels(observed)
    for alternative in ALTERNATIVES:
        got = cc.significance_test(measure, labels_true, labels_pred, model="perm",
                                   method="exact", alternative=alternative)  # fmt: skip
        assert got.pvalue == pytest.approx(ref[alternative], rel=RTOL, abs=0), alternative


def test_one_sided_perm_is_two_sided():
    a, b = _labels([[6, 2, 2], [3, 4, 1], [2, 2, 3]])
    for measure in ("ri", "mi"):
        two = cc.significance_test(measure, a, b, model="perm", method="exact")
        one = cc.significance_test(measure, a, b, model="perm", one_sided=True, method="exact")
        assert one.pvalue == two.pvalue


# ----------------------------------------------------------------- num and all, N <= 8


def _set_partitions(n):
    """Every clustering of n elements as a label tuple (restricted growth strings)."""

    def grow(prefix, top):
        if len(prefix) == n:
            yield tuple(prefix)
            return
        for label in range(top + 2):
            yield from grow([*prefix, label], max(top, label))

    yield from grow([0], 0)


def _one_hot(partitions, n):
    labels = np.array(partitions, dtype=np.int64).reshape(-1, n)
    return np.eye(n, dtype=np.int64)[labels]  # (m, n, n): element i in cluster k


@functools.lru_cache(maxsize=8)
def _enumerated_pvalues(a, b, model, one_sided):
    """The exact tails of RI and MI by enumerating every random clustering: under num and
    all each pair of clusterings is equally likely, so a tail is an integer count over the
    number of pairs (exact). {"ri": {alternative: p}, "mi": {...}}."""
    n = len(a)
    every = list(_set_partitions(n))
    ka, kb = len(set(a)), len(set(b))
    side_a = [tuple(a)] if one_sided else [p for p in every if model == "all" or len(set(p)) == ka]
    side_b = [p for p in every if model == "all" or len(set(p)) == kb]
    observed = _rand_and_mi(_one_hot([a], n).transpose(0, 2, 1) @ _one_hot([b], n), n)
    hot_b = _one_hot(side_b, n)
    out = {}
    for index, base in enumerate(("ri", "mi")):
        value = float(observed[index][0])
        tol = TIE * max(1.0, abs(value))
        greater = less = 0
        for x in _one_hot(side_a, n):
            tables = x.T[None] @ hot_b  # (len(side_b), n, n)
            values = _rand_and_mi(tables, n)[index]
            _no_near_ties(values, value)
            greater += int(np.count_nonzero(values >= value - tol))
            less += int(np.count_nonzero(values <= value + tol))
        total = len(side_a) * len(side_b)
        g, le = Fraction(greater, total), Fraction(less, total)
        out[base] = {"greater": float(g), "less": float(le),
                     "two-sided": min(1.0, 2 * float(min(g, le)))}  # fmt: skip
    return out


# N = 8 for the one-sided models and num (S(8, 3) = 966 clusterings a side); two-sided all
# at N = 8 would be 4140^2 pairs: N <= 7 there.
PAIRS = [
    ([0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]),
    ([0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1]),
    ([0, 1, 2, 3, 4, 5], [0, 0, 1, 1, 2, 2]),
    ([0, 0, 1, 1, 2, 2, 3], [0, 1, 0, 1, 0, 1, 0]),
    ([0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2]),
]
MODELS = [("num", False), ("num", True), ("all", False), ("all", True)]


def _random_model_cases():
    """Every (pair, model, side); the two-sided ones above N = 6 (10^5 to 10^6 pairs of
    clusterings enumerated, 5-20 s) are slow, N = 6 keeps them in the default run."""
    for (a, b), (model, one_sided) in itertools.product(PAIRS, MODELS):
        if model == "all" and not one_sided and len(a) > 7:
            continue  # 4140^2 pairs: the N <= 7 pairs cover two-sided all
        marks = [pytest.mark.slow] if not one_sided and len(a) > 6 else []
        yield pytest.param(a, b, model, one_sided, marks=marks)


@pytest.mark.parametrize(("a", "b", "model", "one_sided"), list(_random_model_cases()))
def test_num_and_all_equal_enumeration(a, b, model, one_sided):
    ref = _enumerated_pvalues(tuple(a), tuple(b), model, one_sided)
    for measure, base in (("ri", "ri"), ("sri", "ri"), ("ari", "ri"), ("mi", "mi"),
                          ("smi", "mi")):  # fmt: skip
        for alternative in ALTERNATIVES:
            got = cc.significance_test(measure, a, b, model=model, one_sided=one_sided,
                                       method="exact", alternative=alternative)  # fmt: skip
            assert got.pvalue == pytest.approx(ref[base][alternative], rel=RTOL, abs=1e-15)


# ----------------------------------------------------------------- refusals and the gamma route


def test_refusals_name_the_problem():
    a, b = [0, 0, 1, 1, 2, 2], [0, 1, 1, 2, 2, 0]
    with pytest.raises(cc.InvalidInputError, match="method='exact' under model='num' takes"):
        cc.significance_test("nmi", a, b, model="num", method="exact")
    with pytest.raises(cc.InvalidInputError, match="method='gamma' takes the MI measures"):
        cc.significance_test("ri", a, b, model="perm", method="gamma")
    with pytest.raises(cc.InvalidInputError, match="`method` must be one of"):
        cc.significance_test("ri", a, b, model="perm", method="normal")
    big = np.repeat(np.arange(6), 50)
    with pytest.raises(cc.InvalidInputError, match=r"too costly for this 6 x 6 table of N = 300"):
        cc.significance_test("mi", big, np.roll(big, 7), model="perm", method="exact")
    many = np.arange(60) % 3
    with pytest.raises(cc.InvalidInputError, match="N = 60 is above its limit 40"):
        cc.significance_test("ri", many, many[::-1], model="all", method="exact")


def test_gamma_route_within_its_factor_on_readme_example():
    """The study's factor holds on the README example (exact 3.3526e-10, scipy above)."""
    small_true, small_pred = [0] * 50 + [1] * 50, [0] * 30 + [1] * 50 + [0] * 20
    exact = hypergeom.sf(299, 1000, 500, 500) + hypergeom.cdf(200, 1000, 500, 500)
    got = cc.significance_test("smi", small_true * 10, small_pred * 10, model="perm",
                               method="gamma")  # fmt: skip
    assert got.method == "gamma"
    assert not got.pvalue_bound
    assert exact / 2 <= got.pvalue <= 2 * exact
    assert exact / got.pvalue_factor <= got.pvalue <= exact * got.pvalue_factor


def test_gamma_route_reports_a_bound_beyond_its_range():
    a = np.repeat([0, 1, 2], 200)
    got = cc.significance_test("mi", a, a, model="perm", method="gamma")
    assert got.pvalue_bound
    assert got.pvalue_factor is None
    exact = cc.significance_test("mi", a, a, model="perm", method="exact")
    assert exact.pvalue <= got.pvalue  # the bound holds


# ----------------------------------------------------------------- properties

TABLES = st.lists(st.lists(st.integers(0, 6), min_size=2, max_size=3), min_size=2, max_size=3)


@given(TABLES.filter(lambda t: len({len(r) for r in t}) == 1 and sum(map(sum, t)) > 0),
       st.sampled_from(["ri", "mi", "vi", "ari"]))  # fmt: skip
@settings(max_examples=30, deadline=None)
def test_pvalue_properties(table, measure):
    """p in (0, 1]; greater + less >= 1 (the observed value is in both tails); two-sided is
    2 min capped at 1."""
    a, b = _labels(table)
    got = {alt: cc.significance_test(measure, a, b, model="perm", method="exact",
                                     alternative=alt).pvalue for alt in ALTERNATIVES}  # fmt: skip
    for p in got.values():
        assert 0 < p <= 1
    assert got["greater"] + got["less"] >= 1 - 1e-12
    assert got["two-sided"] == min(1.0, 2 * min(got["greater"], got["less"]))


@given(st.integers(0, 10), st.integers(0, 10))
@settings(max_examples=20, deadline=None)
def test_pvalue_monotone_in_the_statistic(k1, k2):
    """Of two 2 x 2 tables with the same margins, the larger MI has the smaller "greater"."""

    def table(k):
        return [[k, 10 - k], [10 - k, k]]

    tests = [cc.significance_test("mi", *_labels(table(k)), model="perm", method="exact")
             for k in (k1, k2)]  # fmt: skip
    if tests[0].statistic > tests[1].statistic + 1e-12:
        assert tests[0].pvalue <= tests[1].pvalue
    elif tests[1].statistic > tests[0].statistic + 1e-12:
        assert tests[1].pvalue <= tests[0].pvalue


def test_karate_louvain_exact_and_gamma():
    """Zachary's karate club, Louvain (examples/karate) against the club split: a 2 x 4 table
    whose exact MI p-value is the hypergeometric-product sum enumerated here over every table
    with its margins (2.40e-8); the gamma route is 9x above it, inside its stated factor."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "examples" / "karate"
    clubs = dict(line.split("\t") for line in (root / "factions.txt").read_text().splitlines()
                 if line.strip())  # fmt: skip
    factions = np.array([clubs[str(i)] for i in range(34)])
    louvain = np.full(34, -1)
    for k, line in enumerate((root / "louvain.txt").read_text().splitlines()):
        louvain[[int(m) for m in line.split()]] = k
    table = np.zeros((2, louvain.max() + 1), dtype=np.int64)
    np.add.at(table, (np.unique(factions, return_inverse=True)[1], louvain), 1)
    rows, cols = tuple(int(v) for v in table.sum(1)), tuple(int(v) for v in table.sum(0))
    _, logp, _, mi = _all_tables(rows, cols)
    observed = float(_rand_and_mi(table, 34)[1])
    _no_near_ties(mi, observed)
    ref = _pvalues(mi, logp, observed)["greater"]
    exact = cc.significance_test("mi", factions, louvain, model="perm", method="exact")
    assert exact.pvalue == pytest.approx(ref, rel=RTOL)
    assert f"{exact.pvalue:.3g}" == "2.4e-08"
    fitted = cc.significance_test("mi", factions, louvain, model="perm", method="gamma")
    assert f"{fitted.pvalue:.2g}" == "2.2e-07"
    assert ref / fitted.pvalue_factor <= fitted.pvalue <= ref * fitted.pvalue_factor


def test_gamma_route_refuses_the_left_tail():
    a, b = [0, 0, 1, 1, 2, 2], [0, 1, 1, 2, 2, 0]
    with pytest.raises(cc.InvalidInputError, match="right tail of MI only"):
        cc.significance_test("mi", a, b, model="perm", method="gamma", alternative="less")
    with pytest.raises(cc.InvalidInputError, match="right tail of MI only"):
        cc.significance_test("vi", a, b, model="perm", method="gamma", alternative="greater")
