"""The perm expected MI beyond int64 products: N from 3037000500 to 2**63 - 1 (issue #10).

``tests/reference/huge_pair_information.json`` comes from
``tests/reference/make_huge_pair_information.py`` (mpmath and exact factorial
moments, independent of chanceclust; its two methods are cross-checked where
both apply): N I(a, b) = E[bd0(X, ab/N)] for size pairs at N = 1e9 .. 2**63 - 1,
and the perm E[MI] and AMI of contingency tables with totals up to 2**63 - 1.
Beyond N = 3037000499 the kernel takes the moment expansion (Var X >= 2**20) or
windowed sums free of int64 products; both are also checked against the exact
route where it applies, and against each other at the switch.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
from chanceclust._expected import size_pairs as kernel
from chanceclust.expectations import expected_mutual_information_baseline

REFERENCE = json.loads(
    (Path(__file__).parents[1] / "reference" / "huge_pair_information.json").read_text()
)
PAIRS = REFERENCE["pairs"]
TABLES = REFERENCE["tables"]


def _one(n: int, a: int, b: int) -> float:
    return kernel.pair_information(np.array([a]), np.array([b]), n)[0] * n


@pytest.mark.parametrize("case", PAIRS, ids=lambda c: f"N{c['n']}-a{c['a']}-b{c['b']}")
def test_pair_information_matches_mpmath_at_huge_n(case):
    n, a, b = int(case["n"]), int(case["a"]), int(case["b"])
    # Observed: <= 6.3e-15 on every case.
    assert _one(n, a, b) == pytest.approx(float(case["n_info"]), rel=1e-13)


def test_reference_pairs_cover_both_routes_beyond_int64_products():
    variances = [
        Fraction(
            int(c["a"]) * int(c["b"]) * (int(c["n"]) - int(c["a"])) * (int(c["n"]) - int(c["b"])),
            int(c["n"]) ** 2 * (int(c["n"]) - 1),
        )
        for c in PAIRS
        if int(c["n"]) > kernel.INT64_EXACT_MAX_N
    ]
    assert any(v >= 2**16 for v in variances)
    assert any(v < 2**16 for v in variances)
    assert sum(c["method"] == "both" for c in PAIRS) >= 4


def _table(case) -> np.ndarray:
    return np.array([[int(x) for x in row] for row in case["table"]], dtype=object)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_perm_expected_mi_and_ami_of_tables_near_the_int64_limit(name):
    case = TABLES[name]
    table = _table(case)
    expected = cc.expected_mutual_information(contingency=table, model="perm")
    assert expected == pytest.approx(float(case["expected_mutual_information"]), rel=1e-12)
    ami = cc.adjusted_mutual_information(contingency=table)
    assert ami == pytest.approx(float(case["adjusted_mutual_information"]), rel=1e-12)
    assert cc.compare(contingency=table).get("AMI", "perm", average_method="arithmetic") == ami


@pytest.mark.parametrize("name", sorted(TABLES))
def test_baseline_from_sizes_equals_the_table_reference(name):
    table = _table(TABLES[name])
    rows, cols = [sum(r) for r in table], [sum(c) for c in zip(*table, strict=True)]
    value = expected_mutual_information_baseline(
        sum(rows), sizes_true=[r for r in rows if r], sizes_pred=[c for c in cols if c]
    )
    assert value == pytest.approx(float(TABLES[name]["expected_mutual_information"]), rel=1e-12)


@pytest.mark.parametrize("n", [10**9, 3 * 10**9])
def test_expansion_agrees_with_the_exact_route_where_both_apply(n):
    """Var X from 2**16 to 2**22, N below the int64 limit: the pmf sums are exact routes."""
    rng = np.random.default_rng(7)
    a = rng.integers(10**6, n - 10**6, 400)
    b = rng.integers(10**3, n - 10**3, 400)
    variance = a * (b / n) * kernel._variance_factor(a, b, n)
    keep = (variance >= 2**16) & (variance <= 2**22)
    a, b = a[keep][:40], b[keep][:40]
    assert len(a) >= 10
    exact = kernel.pair_information(a, b, n) * n
    expanded = kernel._expanded_information(a, b, n)
    np.testing.assert_allclose(expanded, exact, rtol=2e-14, atol=0)


def test_folded_sums_agree_with_the_exact_route_for_every_flip():
    n = 2 * 10**9
    a = np.array([n - 1, n - 5, 3, n - 1000, n // 2, 7, n - 7, 10**6, n - 10**6, 40000])
    b = np.array([1, 7, n - 2, 1000, 3, n - 9, n - 9, 5, 5, n - 30000])
    exact = kernel.pair_information(a, b, n) * n
    np.testing.assert_allclose(kernel._folded_information(a, b, n), exact, rtol=2e-14, atol=0)


@pytest.mark.parametrize("n", [2**62 + 12345, 2**63 - 1])
def test_the_route_switch_at_variance_two_to_the_sixteen_is_continuous(n, monkeypatch):
    """Pairs with Var X within a few per cent of 2**16: both routes, on both sides of the switch."""
    for a in [2**39, n // 2, n - 2**40]:  # a << N, a = N/2, a ~ N
        # b with Var X = 2**16 (b << N), times 0.96 .. 1.04
        scale = np.array([0.96, 0.98, 0.995, 1.0, 1.005, 1.02, 1.04])
        b = (2**16 / ((a / n) * ((n - a) / n)) * scale).astype(np.int64)
        a = np.full(7, a, dtype=np.int64)
        variance = a * (b / n) * kernel._variance_factor(a, b, n)
        assert variance.min() < 2**16 < variance.max()
        folded = kernel._folded_information(a, b, n)
        expanded = kernel._expanded_information(a, b, n)
        # Observed <= 5e-15: the expansion's truncation is ~1e-15 here.
        np.testing.assert_allclose(expanded, folded, rtol=2e-14, atol=0)
    values = kernel.pair_information(a, b, n) * n
    assert np.all(np.abs(np.diff(values)) < 0.01 * values[1:])  # no jump at the switch
    monkeypatch.setattr(kernel, "_EXPANSION_VARIANCE", np.inf)
    np.testing.assert_allclose(kernel.pair_information(a, b, n) * n, values, rtol=2e-14, atol=0)


def test_expansion_cumulants_are_the_hypergeometric_ones():
    """c_2, c_3, c_4 of the expansion against exact factorial moments: at r = 1/mu the series'
    first three coefficients are what E[bd0] needs; here checked through mu_2..mu_4 at N = 60."""
    n = 60
    for a, b in [(7, 11), (30, 30), (45, 20), (59, 3)]:
        falling = [Fraction(_falling(a, k) * _falling(b, k), _falling(n, k)) for k in range(5)]
        mean = Fraction(a * b, n)
        raw = [
            1,
            falling[1],
            falling[2] + falling[1],
            falling[3] + 3 * falling[2] + falling[1],
            falling[4] + 6 * falling[3] + 7 * falling[2] + falling[1],
        ]
        central = [
            sum(_binom(j, i) * raw[i] * (-mean) ** (j - i) for i in range(j + 1)) for j in range(5)
        ]
        c2, c3, c4 = kernel._expansion_cumulants(np.array([a]), np.array([b]), n)
        kappa4 = central[4] - 3 * central[2] ** 2
        assert c2[0] == pytest.approx(float(central[2] / mean), rel=1e-14)
        assert c3[0] == pytest.approx(float(central[3] / mean), rel=1e-13, abs=1e-15)
        assert c4[0] == pytest.approx(float(kappa4 / mean), rel=1e-13, abs=1e-15)


def _falling(x: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= x - i
    return out


def _binom(j: int, i: int) -> int:
    from math import comb

    return comb(j, i)


def test_many_pairs_at_the_limit_are_finite_and_ordered():
    """A Zipf-like pair of clusterings of 2**63 - 1 elements: every route at once, no overflow."""
    n = 2**63 - 1
    sizes = (n // np.arange(1, 300) ** 2).astype(np.int64)
    sizes[0] += n - int(sizes.sum(dtype=object))
    value = expected_mutual_information_baseline(n, sizes_true=sizes, sizes_pred=sizes[::-1])
    # E[MI] ~ (K_A - 1)(K_B - 1) / 2N for clusters far larger than K: here tiny and positive.
    assert 0.0 < value < 1e-10
