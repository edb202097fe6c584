"""Var[RI] and the standardized RI against 80-digit references, N = 50 .. 10^15.

tests/reference/variance.json is written by tests/reference/make_variance.py
(stdlib + mpmath, independent of chanceclust, self-checked against brute-force
enumeration for N <= 6). Every model and side, unequal and extreme references
(a 1 % cluster), K = 2 .. 1000 at large N and K up to N - 1 at N = 2000.
Before the restructured formula (issue #10) the one-sided ``all`` variance was
0.0 from N = 10^6 and the ``num`` one-sided one 0.0 from N = 10^9; before the
curvature expansion, ``num`` with small clusters (K = 10^5 at N = 10^6, mean size
10) was off by 5.9e-12, and by more at larger K (the cases up to K = 10^6).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from chanceclust.variance import rand_index_variance, standardized_rand_index

TABLES = json.loads((Path(__file__).parent / "reference" / "variance.json").read_text())["cases"]
CASES = [(table, result) for table in TABLES for result in table["results"]]
RTOL = 1e-12


def _id(case: tuple) -> str:
    table, result = case
    side = "one" if result["one_sided"] else "two"
    return f"{table['label']}-N{table['n']:.0e}-{result['model']}-{side}"


def _table(rle: list) -> np.ndarray:
    return np.array([[v for v, c in row for _ in range(c)] for row in rle], dtype=np.int64)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_variance_and_z_match_reference(case):
    table, result = case
    kwargs = {
        "contingency": _table(table["table_rle"]),
        "model": result["model"],
        "one_sided": result["one_sided"],
    }
    variance = rand_index_variance(**kwargs)
    z = standardized_rand_index(**kwargs)
    assert variance == pytest.approx(float(result["variance"]), rel=RTOL, abs=0.0)
    assert z == pytest.approx(float(result["z"]), rel=RTOL, abs=1e-300)
    assert (variance > 0.0) == (float(result["variance"]) > 0.0)


def test_one_sided_all_is_not_zero_at_a_million():
    """The issue's example: 30 % / 70 % reference, a random two-cluster prediction."""
    table = np.array([[150_000, 150_000], [350_000, 350_000]])
    variance = rand_index_variance(contingency=table, model="all", one_sided=True)
    assert variance == pytest.approx(2.58e-17, rel=0.01)
    z = standardized_rand_index(contingency=table, model="all", one_sided=True)
    assert z == pytest.approx(1.57e7, rel=0.01)
