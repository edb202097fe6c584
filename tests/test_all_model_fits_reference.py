"""The ``all`` model at N = 10^4 .. 10^7 against 60-digit references (tests/reference/all_large.json).

At these sizes two-sided E[MI] goes through polynomial fits in log u
(chanceclust._expected.mixture_fits) and one-sided through fits per reference size; the
references come from MATH.md's per-pair sums with Dobinski Bell ratios
(tests/reference/make_all_large.py). rtol = 1e-12 is the library's stated
accuracy; the observed errors are ~1e-15.
"""

import json
from pathlib import Path

import pytest

import chanceclust as cc

CASES = json.loads((Path(__file__).parent / "reference" / "all_large.json").read_text())["cases"]
RTOL = 1e-12


@pytest.mark.parametrize("case", CASES, ids=[f"N{c['n']}" for c in CASES])
def test_all_model_two_sided(case):
    n = case["n"]
    assert cc.expected_rand_index_baseline(n, model="all") == pytest.approx(
        float(case["rand_two_sided"]), rel=RTOL
    )
    assert cc.expected_mutual_information_baseline(n, model="all") == pytest.approx(
        float(case["mi_two_sided"]), rel=RTOL
    )


@pytest.mark.parametrize("case", CASES, ids=[f"N{c['n']}" for c in CASES])
def test_all_model_one_sided(case):
    n, sizes = case["n"], case["sizes_true"]
    kwargs = {"model": "all", "one_sided": True, "sizes_true": sizes}
    assert cc.expected_rand_index_baseline(n, **kwargs) == pytest.approx(
        float(case["rand_one_sided"]), rel=RTOL
    )
    assert cc.expected_mutual_information_baseline(n, **kwargs) == pytest.approx(
        float(case["mi_one_sided"]), rel=RTOL
    )
