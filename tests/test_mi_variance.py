"""Exact Var[MI] and SMI: brute-force enumeration for N <= 8, 40-digit references beyond.

Enumeration is independent of the formulas: N MI = sum_k c_k log k with integer c_k for
every pair of clusterings (c_k collects k log k from the cells and the margins), so the
mean and the covariance matrix of the c_k over the whole ensemble are exact rationals and
Var[MI] = sum_kl Cov(c_k, c_l) log k log l / N^2 is evaluated once, in 40-digit mpmath.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from reference._exact import set_partitions
from strategies import ensemble_members

import chanceclust as cc
from chanceclust._expected.mi_variance import MAX_RANDOM_N, MAX_SIZE_LAW_N
from chanceclust._validation import check_setting
from chanceclust.contingency import _summarize
from chanceclust.exceptions import InvalidInputError
from chanceclust.variance import _table_mi_variance, _table_smi

MODELS = ("perm", "num", "all")
REFERENCE = Path(__file__).parent / "reference" / "mi_variance.json"


def log_coefficients(a: np.ndarray, bs: np.ndarray, n: int) -> np.ndarray:
    """Rows c with N MI = sum_k c_k log k, for the labels ``a`` against each row of ``bs``."""
    m = len(bs)
    rows_of = np.repeat(np.arange(m), n)
    cells = np.zeros((m, n * n), dtype=np.int64)
    np.add.at(cells, (rows_of, (a[None, :] * n + bs).ravel()), 1)
    cols = np.zeros((m, n), dtype=np.int64)
    np.add.at(cols, (rows_of, bs.ravel()), 1)
    k = np.arange(n + 1)
    c = np.stack([np.bincount(r, minlength=n + 1) for r in cells]) * k
    c -= np.stack([np.bincount(r, minlength=n + 1) for r in cols]) * k
    c -= np.bincount(np.bincount(a, minlength=n), minlength=n + 1) * k
    c[:, n] += n
    return c


def enumerate_mi(labels_true, labels_pred, model, one_sided):
    """Exact (E[MI], Var[MI], MI) over every pair of clusterings of the ensemble (40 digits).

    Two-sided, ``labels_true``'s side is summed over one clustering per multiset of sizes,
    weighted by the number of clusterings with those sizes (MI's law depends on the sizes only).
    """
    n = len(labels_true)
    parts = list(set_partitions(n))
    bs = np.array(ensemble_members(labels_pred, model, parts), dtype=np.int64)
    if one_sided:
        reps = [(np.asarray(labels_true), 1)]
    else:
        types = Counter(
            tuple(sorted(Counter(p).values())) for p in ensemble_members(labels_true, model, parts)
        )
        reps = [(np.repeat(np.arange(len(t)), t), w) for t, w in types.items()]
    first = np.zeros(n + 1, dtype=object)
    second = np.zeros((n + 1, n + 1), dtype=object)
    count = 0
    for labels, weight in reps:
        c = log_coefficients(labels, bs, n)
        first = first + weight * c.sum(axis=0).astype(object)
        second = second + weight * (c.T @ c).astype(object)
        count += weight * len(bs)
    mean = [Fraction(int(v), count) for v in first]
    with mp.workdps(40):
        logs = [mp.mpf(0)] + [mp.log(k) for k in range(1, n + 1)]

        def value(q: Fraction) -> mp.mpf:
            return mp.mpf(q.numerator) / q.denominator

        var = mp.fsum(
            value(Fraction(int(second[i, j]), count) - mean[i] * mean[j]) * logs[i] * logs[j]
            for i in range(n + 1)
            for j in range(n + 1)
        ) / n**2
        expected = mp.fsum(value(mean[i]) * logs[i] for i in range(n + 1)) / n
        observed = log_coefficients(np.asarray(labels_true), np.asarray([labels_pred]), n)[0]
        mi = mp.fsum(int(observed[i]) * logs[i] for i in range(n + 1)) / n
    return expected, var, mi


def _cases():
    rng = np.random.default_rng(22)
    cases = [
        ([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]),
        ([0, 0, 0, 1, 1, 2, 3], [0, 0, 1, 1, 2, 2, 2]),
        ([0, 1, 2, 3, 4, 5, 5], [0, 0, 1, 1, 2, 3, 4]),  # K = N - 1
        ([0, 0, 0, 0, 0, 0, 0], [0, 1, 2, 3, 4, 5, 6]),  # K = 1 against K = N
        ([0, 1, 2, 3, 4, 5], [0, 0, 1, 1, 1, 2]),  # N singletons
        ([0, 0, 0, 0, 1, 1, 1, 2], [0, 1, 1, 2, 2, 3, 3, 3]),
        ([0, 0, 1], [0, 1, 1]),
        ([0, 1], [0, 0]),
        ([0, 1], [0, 1]),
    ]
    for n in (4, 5, 6, 7):
        cases.append(
            (rng.integers(0, rng.integers(1, n + 1), n).tolist(),
             rng.integers(0, rng.integers(1, n + 1), n).tolist())
        )
    return cases


@pytest.mark.parametrize(("labels_true", "labels_pred"), _cases())
@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", MODELS)
def test_variance_and_smi_equal_enumeration(labels_true, labels_pred, model, one_sided):
    """Var[MI] and SMI equal the enumeration over the whole ensemble to 1e-10 (N <= 8)."""
    expected, var, mi = enumerate_mi(labels_true, labels_pred, model, one_sided)
    got = cc.mutual_information_variance(labels_true, labels_pred, model=model, one_sided=one_sided)
    z = cc.standardized_mutual_information(
        labels_true, labels_pred, model=model, one_sided=one_sided
    )
    if var < mp.mpf(10) ** -30:  # a single-valued ensemble
        assert got == 0.0
        assert z == 0.0
        assert abs(mi - expected) < 1e-30
        return
    assert got == pytest.approx(float(var), rel=1e-10, abs=0)
    assert z == pytest.approx(float((mi - expected) / mp.sqrt(var)), rel=1e-10, abs=1e-12)


def test_one_sided_perm_equals_two_sided_by_enumeration():
    a, b = [0, 0, 0, 1, 1, 2, 3], [0, 0, 1, 1, 2, 2, 2]
    both = enumerate_mi(a, b, "perm", False)[1]
    fixed = enumerate_mi(a, b, "perm", True)[1]
    assert abs(both - fixed) < 1e-35
    assert cc.mutual_information_variance(a, b, one_sided=True) == cc.mutual_information_variance(a, b)


def test_docstring_values_by_enumeration():
    """The values printed in the docstrings' examples, from enumeration."""
    a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]
    e, var, mi = enumerate_mi(a, b, "perm", False)
    assert round(float(var), 12) == 0.051248321485
    assert round(float((mi - e) / mp.sqrt(var)), 9) == 0.816496581
    assert round(float(enumerate_mi(a, b, "all", False)[1]), 12) == 0.085374384814
    e, var, mi = enumerate_mi(a, b, "num", True)
    assert round(float((mi - e) / mp.sqrt(var)), 9) == 1.098532905


def _reference_cases():
    return json.loads(REFERENCE.read_text())


@pytest.mark.parametrize("case", _reference_cases(), ids=lambda c: f"{c['model']}-{c['n']}-{c['one_sided']}")
def test_reference_values(case):
    """40-digit evaluations of the defining sums (tests/reference/make_mi_variance.py)."""
    table = np.array(case["table"])
    setting = check_setting(case["model"], case["one_sided"])
    summary = _summarize(None, None, table)
    sides = setting.sides_of_table(summary)
    var = _table_mi_variance(summary, sides)
    assert var == pytest.approx(float(case["variance"]), rel=1e-10, abs=0)
    assert _table_smi(summary, sides) == pytest.approx(float(case["smi"]), rel=1e-10, abs=1e-11)


def test_contingency_and_summary_inputs():
    a = np.repeat(np.arange(4), [30, 20, 15, 15])
    b = np.tile(np.arange(5), 16)
    table = cc.contingency_table(a, b)
    summary = cc.partial_table(a, b).summary()
    for model, one_sided in (("perm", False), ("num", True), ("all", True), ("num", False)):
        kw = {"model": model, "one_sided": one_sided}
        by_labels = cc.mutual_information_variance(a, b, **kw)
        assert cc.mutual_information_variance(contingency=table, **kw) == by_labels
        assert cc.mutual_information_variance(contingency=summary, **kw) == by_labels
        z = cc.standardized_mutual_information(a, b, **kw)
        assert cc.standardized_mutual_information(contingency=summary, **kw) == pytest.approx(
            z, rel=1e-13
        )


@pytest.mark.parametrize("model", MODELS)
def test_two_sided_is_symmetric_to_the_last_bit(model):
    a = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 4, 4]
    b = [0, 1, 1, 1, 2, 2, 0, 0, 3, 3, 3, 3]
    assert cc.mutual_information_variance(a, b, model=model) == cc.mutual_information_variance(
        b, a, model=model
    )


def test_random_sides_beyond_their_range_are_refused():
    """num with small clusters (a size law, not a mixture of labelings) beyond
    MAX_SIZE_LAW_N (tests/test_mi_variance_smooth.py has both limits)."""
    n = MAX_SIZE_LAW_N[1] + 1
    a, b = np.arange(n) % 3, np.arange(n) % (2 * n // 3)
    with pytest.raises(InvalidInputError, match="model='num'"):
        cc.mutual_information_variance(a, b, model="num", one_sided=False)
    b = b[: MAX_RANDOM_N + 1]
    n = b.size
    # ... unless the ensemble is single-valued (a reference with one cluster: MI = 0).
    assert cc.mutual_information_variance(np.zeros(n, int), b, model="all", one_sided=True) == 0.0


def assert_sample_variance(null: np.ndarray, exact: float) -> None:
    """The sample variance of null draws is within 5 standard errors of ``exact``."""
    centered = null - null.mean()
    sample_var = centered.var(ddof=1)
    stderr = np.sqrt(max(np.mean(centered**4) - sample_var**2, 0.0) / len(null))
    assert abs(sample_var - exact) < 5 * stderr


MC_CASES = [
    (np.repeat(np.arange(4), [20, 15, 15, 10]), np.repeat(np.arange(3), [30, 20, 10]), "perm"),
    (np.repeat(np.arange(3), [12, 10, 8]), np.repeat(np.arange(4), [10, 8, 7, 5]), "num"),
    (np.repeat(np.arange(3), [12, 10, 8]), np.repeat(np.arange(4), [10, 8, 7, 5]), "all"),
]


@pytest.mark.parametrize("case", range(len(MC_CASES)))
@pytest.mark.parametrize("one_sided", [False, True])
def test_variance_agrees_with_monte_carlo(case, one_sided):
    """The variance of samples from the model's own samplers (N = 30 to 60)."""
    a, b, model = MC_CASES[case]
    draws = 4000
    null = cc.null_distribution(
        "mi", a, b, model=model, one_sided=one_sided, n_resamples=draws, rng=case
    )
    exact = cc.mutual_information_variance(a, b, model=model, one_sided=one_sided)
    assert_sample_variance(null, exact)


SLOT_CASES = [
    ([15, 10, 5], "all", 30),
    ([20, 20, 10, 10], "all", 60),
    ([30, 20, 10], ("num", 3), 60),
    ([10, 10, 10, 10], ("num", 2), 40),
    ([1, 1, 1, 1, 1, 45], ("num", 4), 50),
]


@pytest.mark.parametrize(("sizes", "model", "n"), SLOT_CASES)
def test_slot_route_equals_size_route(sizes, model, n):
    """One-sided beyond MAX_RANDOM_N sums over the slots of a mixture; both routes agree."""
    from chanceclust._expected.mi_variance import total_variance
    from chanceclust._expected.mi_variance_slots import one_sided_slot_variance
    from chanceclust._models import AllSide as All
    from chanceclust._models import FixedSide as Fixed
    from chanceclust._models import NumSide as Num
    from chanceclust.variance import _size_moments as size_moments

    fixed = Fixed(np.array(sizes), n)
    side = All(n) if model == "all" else Num(n, model[1])
    by_sizes = total_variance(n, size_moments(fixed), size_moments(side))
    assert one_sided_slot_variance(fixed.law, side.law) == pytest.approx(by_sizes, rel=1e-12)


TWO_SIDED_SLOT_CASES = [("all", 30, None), ("num", 60, (3, 4)), ("num", 40, (2, None))]


@pytest.mark.parametrize(("model", "n", "ks"), TWO_SIDED_SLOT_CASES)
def test_two_sided_slot_route_equals_size_route(model, n, ks):
    from chanceclust._expected.mi_variance import total_variance
    from chanceclust._expected.mi_variance_slots import two_sided_slot_variance
    from chanceclust._models import AllSide as All
    from chanceclust._models import NumSide as Num
    from chanceclust.variance import _size_moments as size_moments

    sides = [All(n), All(n)] if model == "all" else [Num(n, k) if k else All(n) for k in ks]
    by_sizes = total_variance(n, *(size_moments(side) for side in sides))
    assert two_sided_slot_variance(*(side.law for side in sides)) == pytest.approx(by_sizes, rel=1e-12)


def test_two_sided_slot_route_agrees_with_monte_carlo():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3, 800), rng.integers(0, 4, 800)
    exact = cc.mutual_information_variance(a, b, model="num")
    null = cc.null_distribution("mi", a, b, model="num", n_resamples=4000, rng=2)
    assert_sample_variance(null, exact)


@pytest.mark.parametrize("model", ["num", "all"])
def test_slot_route_agrees_with_monte_carlo(model):
    """N = 800, one-sided: the variance of 4000 samples from the model's samplers."""
    rng = np.random.default_rng(0)
    a = np.repeat(np.arange(4), [300, 200, 150, 150])
    b = rng.integers(0, 5, 800)
    exact = cc.mutual_information_variance(a, b, model=model, one_sided=True)
    null = cc.null_distribution("mi", a, b, model=model, one_sided=True, n_resamples=4000, rng=1)
    assert_sample_variance(null, exact)


@pytest.mark.parametrize("model", ["perm", "num", "all"])
def test_beyond_the_implemented_range_is_refused_naming_it(model):
    """N above 10^9 (or windows beyond the grid and slot limits) is refused with the range
    named, never a MemoryError or a NaN from deep inside numpy; compare() reports NaN there."""
    import math

    import chanceclust as cc

    n = 2**40
    table = [[n // 4, n // 4], [n // 4, n - 3 * (n // 4)]]
    with pytest.raises(cc.InvalidInputError, match="implemented for N <= 1e"):
        cc.mutual_information_variance(contingency=table, model=model)
    assert math.isnan(cc.compare(contingency=table, standardized=True).get("SMI", model))
    big = 10**8 + 8  # within the range, but the 2 x 2 perm grid is fine: a value
    small = [[big // 4, big // 4], [big // 4, big - 3 * (big // 4)]]
    assert cc.mutual_information_variance(contingency=small, model="perm") > 0


@pytest.mark.parametrize("model", ["num", "all"])
@pytest.mark.parametrize("n", [MAX_RANDOM_N, MAX_RANDOM_N + 1])
def test_both_sides_of_the_slot_switch(model, n):
    """One random side: at N = MAX_RANDOM_N the public call sums over sizes, one more element
    and it sums over slots; each equals the other route computed directly (two random sides:
    tests/test_mi_variance_slots.py)."""
    from chanceclust._expected.mi_variance import total_variance
    from chanceclust._expected.mi_variance_slots import one_sided_slot_variance
    from chanceclust._models import FixedSide as Fixed
    from chanceclust.variance import _size_moments as size_moments

    a = np.arange(n) % 3
    b = (np.arange(n) * 7 // 5) % 4
    summary = _summarize(None, None, np.asarray(cc.contingency_table(a, b)))
    sides = check_setting(model, True).sides_of_table(summary)
    assert isinstance(sides[0], Fixed)
    public = cc.mutual_information_variance(a, b, model=model, one_sided=True) * n * n
    if n <= MAX_RANDOM_N:  # the public call took the sizes: check against the slots
        other = one_sided_slot_variance(sides[0].law, sides[1].law)
    else:
        other = total_variance(n, *(size_moments(side) for side in sides))
    assert public == pytest.approx(other, rel=1e-12)
