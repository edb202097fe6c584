"""perm E[MI] over many size pairs (issue #23) against 50-digit mpmath.

``tests/reference/emi_pairs.json`` comes from ``tests/reference/make_emi_pairs.py``
(mpmath, independent of chanceclust): the "stair" sizes 1..140 on both sides (means up to
~2: the 2-D blocks of small means and of the pmf, each unordered pair once) and 60
Dirichlet(0.5) clusters a side at N = 10^5 (means 1e-5 .. 1.5e3: every route).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from chanceclust.expectations import expected_mutual_information_baseline

CASES = json.loads((Path(__file__).parent / "reference" / "emi_pairs.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["case"])
def test_perm_emi_matches_mpmath(case):
    sizes_a, sizes_b = np.array(case["sizes_a"]), np.array(case["sizes_b"])
    n = int(sizes_a.sum())
    got = expected_mutual_information_baseline(n, sizes_true=sizes_a, sizes_pred=sizes_b)
    # Observed <= 3e-16; the stated bound of E[MI] is 1e-12 (docs/math.md#math-accuracy).
    assert got == pytest.approx(float(case["emi"]), rel=1e-14)
    swapped = expected_mutual_information_baseline(n, sizes_true=sizes_b, sizes_pred=sizes_a)
    assert swapped == pytest.approx(got, rel=1e-15)
