"""Expectations from summaries at huge N (10^6 .. 2^63 - 1) and the routes that make them possible.

References: tests/reference/huge_expectations.json, written by
tests/reference/make_huge_expectations.py (stdlib + mpmath, independent of
chanceclust; every value two independent ways, agreeing to > 45 digits):
every family (E[RI], E[MI]; all and num with K from 2 to N // 45 and N - 1;
one- and two-sided) at N = 10^6, 10^9, 10^12, 10^15, 10^16, 10^17, 10^18 and
exactly 2^63 - 1. The library's routes are also checked against each other
where both apply: Stam's law as the exact mixture over integers and as the
Gauss-Hermite rule, and the slot deviance as a pmf sum and as its moment
expansion.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from reference._huge_keys import baseline_arguments, family_keys

import chanceclust._expected.mutual_information as expected_mi
from chanceclust._expected import laws
from chanceclust.expectations import (
    expected_mutual_information_baseline,
    expected_rand_index_baseline,
)
from chanceclust.variance import rand_index_variance

CASES = json.loads((Path(__file__).parent / "reference" / "huge_expectations.json").read_text())[
    "cases"
]
RTOL = 1e-12


def reference_call(n: int, sizes: list[int], key: str) -> float:
    """The library's value for a family of huge_expectations.json (reference/_huge_keys.py)."""
    kind, kwargs = baseline_arguments(n, sizes, key)
    func = expected_rand_index_baseline if kind == "rand" else expected_mutual_information_baseline
    return func(**kwargs)


RECORDS = [
    pytest.param(case["n"], case["sizes_true"], key, value, id=f"N{case['n']:.3e}-{key}")
    for case in CASES
    for key, value in case["values"].items()
]


@pytest.mark.parametrize(("n", "sizes", "key", "reference"), RECORDS)
def test_huge_n_matches_reference(n, sizes, key, reference):
    """Every family from N = 1e6 to 2^63 - 1 (incl. num with K = N // 45, whose mixture was
    refused at 2^63 - 1, and K_A K_B >= 2^63, which wrapped around int64) at 1e-12."""
    assert reference_call(n, sizes, key) == pytest.approx(float(reference), rel=RTOL, abs=0.0)


def test_references_reach_the_largest_n():
    """The references cover 10^16, 10^17, 10^18 and exactly 2^63 - 1, every family at each."""
    assert {10**16, 10**17, 10**18, 2**63 - 1} <= {case["n"] for case in CASES}
    assert all(set(case["values"]) == family_keys(case["n"]) for case in CASES)
    assert min(min(case["digits"].values()) for case in CASES) > 45  # the two routes agree


def test_python_int_n_beyond_int64_float_range():
    """Two-sided all E[MI] at N = 1e11 (np.log of a Python int there once crashed)."""
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
    laws.all_law.cache_clear()
    expectations_module = __import__(
        "chanceclust.expectations", fromlist=["_expected_mutual_information_two_sided"]
    )
    expectations_module._expected_mutual_information_two_sided.cache_clear()
    quadrature = [call() for call in calls]
    assert isinstance(laws.all_law(n), laws.StamQuadrature)
    monkeypatch.setattr(laws, "STAM_QUADRATURE_FROM", 10**12)
    laws.all_law.cache_clear()
    expectations_module._expected_mutual_information_two_sided.cache_clear()
    try:
        exact = [call() for call in calls]
        assert not isinstance(laws.all_law(n), laws.StamQuadrature)
    finally:
        laws.all_law.cache_clear()
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


def test_num_slot_products_beyond_int64():
    """Two-sided num with K_A K_B just below and just above 2^63: the joint slots u_A u_B
    wrapped around int64 (E[MI] came out negative); now the two agree to O(1/K)."""
    n = 10**16
    below, above = (
        expected_mutual_information_baseline(n, model="num", n_clusters_true=k, n_clusters_pred=k)
        for k in (3037000499, 3037000500)
    )
    assert 3037000499**2 < 2**63 < 3037000500**2
    assert 0.0 < below < above
    assert above == pytest.approx(below, rel=1e-8)


@pytest.mark.parametrize("k", [2, 7, 1000, 2**24 + 1, 10**14, 2**62, 2**63 - 1])
def test_log_binomials_of_huge_k(k):
    """log C(K, j) of the num mixture to 1e-13 at any K up to 2^63 - 1 (log-gamma
    differences were 0.24 off at K = 1e14, so K = N // 45 was refused at N = 2^63 - 1)."""
    j = np.arange(0, min(k, 256), dtype=np.int64)
    expected = [math.log(math.comb(k, int(i))) for i in j]
    assert laws._log_binomials(k, j) == pytest.approx(expected, rel=1e-13, abs=1e-13)
