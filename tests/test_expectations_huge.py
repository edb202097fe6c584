"""Expectations from summaries at huge N (10^9 .. 2^63 - 1) and the routes that make them possible.

References: tests/reference/huge_expectations.json, written by
tests/reference/make_huge_expectations.py (stdlib + mpmath, independent of
chanceclust): Stam's law as integrals over real u, slot deviances summed term
by term or, for the huge binomial means of num, by the series over exact
central moments to order 30. The routes are also checked against each other
where both apply: Stam's law as the exact mixture over integers and as the
Gauss-Hermite rule, and the slot deviance as a pmf sum and as its moment
expansion.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import chanceclust._expected.mutual_information as expected_mi
from chanceclust._expected import laws as ensembles
from chanceclust.expectations import (
    expected_mutual_information_baseline,
    expected_rand_index_baseline,
)
from chanceclust.variance import rand_index_variance

CASES = json.loads((Path(__file__).parent / "reference" / "huge_expectations.json").read_text())[
    "cases"
]
RTOL = 1e-12


def _calls(n: int, sizes: list[int]) -> dict:
    return {
        "all_rand_two_sided": lambda: expected_rand_index_baseline(n, model="all"),
        "all_rand_one_sided": lambda: expected_rand_index_baseline(
            n, model="all", one_sided=True, sizes_true=sizes
        ),
        "all_mi_two_sided": lambda: expected_mutual_information_baseline(n, model="all"),
        "all_mi_one_sided": lambda: expected_mutual_information_baseline(
            n, model="all", one_sided=True, sizes_true=sizes
        ),
        "num_rand_two_sided": lambda: expected_rand_index_baseline(
            n, model="num", n_clusters_true=3, n_clusters_pred=1000
        ),
        "num_rand_one_sided": lambda: expected_rand_index_baseline(
            n, model="num", one_sided=True, sizes_true=sizes, n_clusters_pred=7
        ),
        "num_mi_two_sided": lambda: expected_mutual_information_baseline(
            n, model="num", n_clusters_true=3, n_clusters_pred=1000
        ),
        "num_mi_one_sided": lambda: expected_mutual_information_baseline(
            n, model="num", one_sided=True, sizes_true=sizes, n_clusters_pred=7
        ),
    }


QUANTITIES = list(_calls(1, []))


@pytest.mark.parametrize("quantity", QUANTITIES)
@pytest.mark.parametrize("case", CASES, ids=[f"N{c['n']:.2e}" for c in CASES])
def test_huge_n_matches_reference(case, quantity):
    value = _calls(case["n"], case["sizes_true"])[quantity]()
    assert value == pytest.approx(float(case[quantity]), rel=RTOL, abs=0.0)


def test_python_int_n_beyond_int64_float_range():
    """The issue's crash: np.log of a Python int in the two-sided all E[MI] (N = 1e11)."""
    value = expected_mutual_information_baseline(10**11, model="all")
    assert np.isfinite(value)
    assert 18 < value < 20


@pytest.mark.parametrize("n", [10**4, 10**5, 10**6])
def test_stam_quadrature_agrees_with_the_exact_mixture(n, monkeypatch):
    """Both representations of Stam's law where both apply: E[RI] and E[MI] to 1e-12."""
    sizes = [n // 2, n // 4, n - n // 2 - n // 4]
    calls = (
        lambda: expected_rand_index_baseline(n, model="all"),
        lambda: expected_mutual_information_baseline(n, model="all"),
        lambda: expected_mutual_information_baseline(
            n, model="all", one_sided=True, sizes_true=sizes
        ),
    )
    ensembles.all_law.cache_clear()
    expectations_module = __import__("chanceclust.expectations", fromlist=["_expected_mutual_information_two_sided"])
    expectations_module._expected_mutual_information_two_sided.cache_clear()
    quadrature = [call() for call in calls]
    assert isinstance(ensembles.all_law(n), ensembles.StamQuadrature)
    monkeypatch.setattr(ensembles, "STAM_QUADRATURE_FROM", 10**12)
    ensembles.all_law.cache_clear()
    expectations_module._expected_mutual_information_two_sided.cache_clear()
    try:
        exact = [call() for call in calls]
        assert not isinstance(ensembles.all_law(n), ensembles.StamQuadrature)
    finally:
        ensembles.all_law.cache_clear()
        expectations_module._expected_mutual_information_two_sided.cache_clear()
    assert quadrature == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("exponent", [20, 21, 24])
@pytest.mark.parametrize("u", [2, 3, 10, 1000])
def test_slot_deviance_expansion_agrees_with_the_pmf_sum(exponent, u, monkeypatch):
    """D(a, u) by the moment expansion and by the pmf sum, at variances 2^20 .. 2^24."""
    a = np.array([int(2**exponent * u * u / (u - 1))], dtype=np.int64)
    slots = np.array([u], dtype=np.int64)
    expanded = expected_mi.slot_deviance(a, slots)
    monkeypatch.setattr(expected_mi, "_ASYMPTOTIC_VARIANCE", np.inf)
    summed = expected_mi.slot_deviance(a, slots)
    assert expanded == pytest.approx(summed, rel=1e-13)


def test_variance_from_summaries_at_huge_n():
    """Var[RI] under all at N = 2^63 - 1: the quadrature's moments, no memory growth."""
    n = 2**63 - 1
    table = np.array([[n // 3, 0], [0, n - n // 3]], dtype=np.int64)
    variance = rand_index_variance(contingency=table, model="all", one_sided=True)
    assert 0.0 < variance < 1e-50


def test_perm_expectations_beyond_int64_products():
    """perm E[MI] beyond n = 3037000499 is tested against 50-digit references in
    tests/_expected/test_size_pairs_huge.py; here only that it is no longer refused."""
    n = 10**13
    value = expected_mutual_information_baseline(
        n, sizes_true=[n // 2, n - n // 2], sizes_pred=[n // 3, n - n // 3]
    )
    assert 0.0 < value < 1e-12  # ~ (K_A - 1)(K_B - 1) / 2N = 5e-14
    # E[RI] needs no kernel: exact at any n.
    assert expected_rand_index_baseline(
        n, sizes_true=[n // 2, n - n // 2], sizes_pred=[n // 2, n - n // 2]
    ) == pytest.approx(0.5, rel=1e-12)


def test_num_mi_at_the_largest_n_has_its_leading_order_value():
    """At n = 2^63 - 1, E[MI] of num = (K_A - 1)(K_B - 1) / (2N) (1 + O(K/N)): an exact check."""
    n = 2**63 - 1
    two = expected_mutual_information_baseline(
        n, model="num", n_clusters_true=3, n_clusters_pred=1000
    )
    assert two == pytest.approx(2 * 999 / (2 * n), rel=1e-12)
    one = expected_mutual_information_baseline(
        n, model="num", one_sided=True, sizes_true=[n // 3, n - n // 3], n_clusters_pred=7
    )
    assert one == pytest.approx(6 / (2 * n), rel=1e-12)


def test_all_model_at_the_largest_n_is_finite_and_ordered():
    """n = 2^63 - 1 (no 50-digit reference there): finite values that continue the trend."""
    n = 2**63 - 1
    values = [expected_mutual_information_baseline(m, model="all") for m in (10**15, n)]
    assert np.all(np.isfinite(values))
    assert values[0] < values[1] < 40
    one = expected_mutual_information_baseline(
        n, model="all", one_sided=True, sizes_true=[n // 3, n - n // 3]
    )
    assert (
        0.0
        < one
        < expected_mutual_information_baseline(
            10**15, model="all", one_sided=True, sizes_true=[10**15 // 3, 10**15 - 10**15 // 3]
        )
    )
    assert 1.0 - 1e-15 <= expected_rand_index_baseline(n, model="all") <= 1.0
