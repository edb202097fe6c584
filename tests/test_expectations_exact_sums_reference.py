"""E[RI] and E[MI] at large N (200 to 10^5) against an independent high-precision oracle.

The reference values in ``tests/reference/large_expectations.json`` come from
``tests/reference/make_large_expectations.py``, which does not import
chanceclust: MATH.md's sums over cluster sizes with exact Stirling and Bell
integers, exact hypergeometric probabilities and 256-bit fixed point, rounded
at 50 digits (truncation bounds < 1e-45 relative, recorded per case).

chanceclust evaluates these expectations by different routes depending on
N and K (``chanceclust._expected.laws``): a fixed size sequence (perm, a one-sided
reference, num with K = 1 or K = N), the inclusion-exclusion mixture of
i.i.d. labelings (num with N/K well above log K), the cluster-size law from
log-Stirling numbers (num with small mean cluster size) and Stam's mixture
(all); E[MI] pairs them as sizes x sizes, sizes x mixture or mixture x
mixture. ``test_routes_are_covered`` checks that the cases exercise every
route, every pairing, and both sides of the mixture / size-law switch.

Tolerance: RTOL = 1e-12 relative. The library documents ~1e-15 relative for
the Stirling/Bell ratios behind E[RI] and ~1e-13 for E[MI] (non-negative
terms, so no cancellation); 1e-12 leaves an order of magnitude for rounding
in sums of up to ~10^5 terms while catching any formula or truncation error
(a wrong truncation window or a dropped tail shows up far above 1e-12).
E[MI] is exactly 0 when one side has K = 1; there an absolute 1e-15 nats is
required instead.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from chanceclust._expected.laws import SizeLaw, SlotMixture
from chanceclust._validation import check_model
from chanceclust.expectations import (
    expected_mutual_information_baseline,
    expected_rand_index_baseline,
)

DATA = json.loads((Path(__file__).parent / "reference" / "large_expectations.json").read_text())
CASES = DATA["cases"]

RTOL = 1e-12  # see the module docstring
ATOL_ZERO = 1e-15  # for a reference value of exactly 0


def expand(rle: list[list[int]]) -> list[int]:
    """[[size, count], ...] -> the size sequence."""
    return [a for a, c in rle for _ in range(c)]


def baseline_kwargs(case: dict) -> dict:
    kw: dict = {"model": case["model"], "one_sided": case["one_sided"]}
    for key in ("n_clusters_true", "n_clusters_pred"):
        if key in case:
            kw[key] = case[key]
    for key in ("sizes_true", "sizes_pred"):
        if key + "_rle" in case:
            kw[key] = expand(case[key + "_rle"])
    return kw


def side_route(case: dict, which: str) -> str:
    """How chanceclust represents one side of the case."""
    n, model = case["n"], case["model"]
    if model == "perm" or (which == "true" and case["one_sided"]):
        return "fixed"
    side = check_model(model).side(n, None, case.get(f"n_clusters_{which}")).law
    if isinstance(side, SizeLaw):
        return "fixed" if side.exact else "size_law"
    assert isinstance(side, SlotMixture)
    return "stam" if model == "all" else "inclusion_exclusion"


def case_route(case: dict) -> str:
    return f"{side_route(case, 'true')}x{side_route(case, 'pred')}"


def assert_close(got: float, expected: str, what: str) -> None:
    ref = float(expected)
    assert math.isfinite(got), f"{what}: got {got!r}"
    if ref == 0.0:
        assert abs(got) <= ATOL_ZERO, f"{what}: got {got!r}, expected 0"
        return
    rel = abs(got - ref) / abs(ref)
    assert rel <= RTOL, f"{what}: got {got!r}, expected {expected} (rel. error {rel:.3e})"


PARAMS = [pytest.param(c, id=f"{c['id']}-{case_route(c)}") for c in CASES]


@pytest.mark.parametrize("case", PARAMS)
def test_expected_rand_index_large(case):
    got = expected_rand_index_baseline(case["n"], **baseline_kwargs(case))
    assert_close(got, case["rand"], f"E[RI] {case['id']}")


@pytest.mark.parametrize("case", PARAMS)
def test_expected_mutual_information_large(case):
    got = expected_mutual_information_baseline(case["n"], **baseline_kwargs(case))
    assert_close(got, case["mi"], f"E[MI] {case['id']}")


@pytest.mark.parametrize("case", [p for p in PARAMS if p.values[0]["model"] == "perm"])
def test_perm_one_sided_is_two_sided(case):
    kw = baseline_kwargs(case) | {"one_sided": True}
    assert_close(expected_rand_index_baseline(case["n"], **kw), case["rand"], "E[RI] one-sided")
    assert_close(
        expected_mutual_information_baseline(case["n"], **kw), case["mi"], "E[MI] one-sided"
    )


def test_routes_are_covered():
    sides = {side_route(c, w) for c in CASES for w in ("true", "pred")}
    assert sides == {"fixed", "size_law", "inclusion_exclusion", "stam"}
    mixtures = {"inclusion_exclusion", "stam"}
    pairings = set()
    for c in CASES:
        kinds = ["mixture" if side_route(c, w) in mixtures else "sizes" for w in ("true", "pred")]
        pairings.add(" x ".join(sorted(kinds)))
    assert pairings == {"sizes x sizes", "mixture x sizes", "mixture x mixture"}
    # Cases with K and K + 1 on either side of the mixture / size-law switch.
    straddling = [
        c
        for c in CASES
        if c["model"] == "num"
        and not c["one_sided"]
        and c["n_clusters_pred"] == c["n_clusters_true"] + 1
        and {side_route(c, "true"), side_route(c, "pred")} == {"inclusion_exclusion", "size_law"}
    ]
    assert {c["n"] for c in straddling} >= {1000, 5000}
