"""Var[MI] of one-sided slot routes in bounded memory (issue #35).

The table [[N - 40, 3, 2], [5, 10, 0], [0, 7, 13]] has one row of almost every element
beside two short ones. Before, the short rows' conditional expectations were evaluated over
the long row's whole window (width^2 floats per short row: 3.7 GiB at N = 3 10^6) and their
correlations h over it too. Now each row is evaluated at its own positions, and rows are
taken in batches of similar window lengths where one padded grid would pass
``mi_variance_slots._BATCH`` floats. Both sides of that switch give the same value, and the
moderate-N value equals the one-grid route and the 40-digit slot-sum references.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
import chanceclust._expected.mi_variance_slots as slots
from chanceclust._expected.mi_variance import conditional_rows

REFERENCE = Path(__file__).parent / "reference" / "mi_variance_huge_cluster.json"


def _reference(kind: str) -> list[dict]:
    return [case for case in json.loads(REFERENCE.read_text()) if case["kind"] == kind]


def _table(n: int) -> list[list[int]]:
    return [[n - 40, 3, 2], [5, 10, 0], [0, 7, 13]]


@pytest.mark.parametrize("smooth", [True, False])
def test_leftover_rows_are_evaluated_at_their_own_positions(smooth):
    """A short row beside a long one, the long one interpolated or not (its checks miss):
    the short row is asked only for its own 12 positions, and the values are the function's."""
    asked = []
    scale = 1e-4 if smooth else 0.01  # 0.01: 8 periods over the window, no interpolant passes

    def evaluate(rows, pos):
        asked.append((rows.tolist(), pos.shape[1]))
        return np.cos(scale * pos) + rows[:, None]

    count = np.array([5000, 12])
    out = conditional_rows(count, 5000, evaluate)
    assert all(width <= 12 for rows, width in asked if 1 in rows)
    assert np.array_equal(out[1, :12], np.cos(scale * np.arange(12)) + 1)
    assert not out[1, 12:].any()
    assert np.allclose(out[0], np.cos(scale * np.arange(5000)), rtol=0, atol=1e-12)


class _BatchSpy:
    def __init__(self, monkeypatch):
        self.grids = []
        original = slots._rows_batch

        def spy(sizes, *args):
            self.grids.append(sizes.size)
            return original(sizes, *args)

        monkeypatch.setattr(slots, "_rows_batch", spy)


@pytest.mark.parametrize("n", [3_000, 30_000])
def test_rows_in_batches_equal_one_grid(n, monkeypatch):
    """Both sides of the new switch: every row on one padded grid (sizes x width within
    _BATCH) and the rows in batches of similar window lengths (forced by a small _BATCH)."""
    spy = _BatchSpy(monkeypatch)
    one = cc.mutual_information_variance(contingency=_table(n), model="num", one_sided=True)
    assert spy.grids
    assert max(spy.grids) == 3
    spy.grids.clear()
    monkeypatch.setattr(slots, "_BATCH", 64)
    batched = cc.mutual_information_variance(contingency=_table(n), model="num", one_sided=True)
    assert max(spy.grids) < 3  # the rows went in several batches
    assert batched == pytest.approx(one, rel=1e-13, abs=0)


@pytest.mark.parametrize("case", _reference("slots"), ids=lambda c: f"{c['model']}-{c['n']}")
def test_the_issue_table_against_the_slot_sum_references(case, monkeypatch):
    """N = 300 (num), 200 (all): the 50-digit slot sums of
    tests/reference/make_mi_variance_huge_cluster.py, on one grid and in batches."""
    def run():
        return cc.mutual_information_variance(contingency=case["table"], model=case["model"],
                                              one_sided=True)

    assert run() == pytest.approx(float(case["variance"]), rel=1e-12, abs=0)
    monkeypatch.setattr(slots, "_BATCH", 16)
    assert run() == pytest.approx(float(case["variance"]), rel=1e-12, abs=0)


@pytest.mark.parametrize("n", [3_000_000])
def test_a_row_of_almost_every_element_stays_small(n):
    """N = 3 10^6: within 256 MiB of traced allocations (was 3.7 GiB), and compare() gives
    every SMI row a finite value."""
    tracemalloc.start()
    try:
        value = cc.mutual_information_variance(contingency=_table(n), model="num", one_sided=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 * 2**20
    assert value > 0
    result = cc.compare(contingency=_table(n), standardized=True)
    assert np.isfinite(result.get("SMI", "num", one_sided=True))


@pytest.mark.parametrize(("n", "k", "model"), [(100_000, 30, "num"), (20_000, 8, "all")])
def test_column_correlations_interpolated_equal_the_correlations(n, k, model, monkeypatch):
    """Both sides of _CORRELATED: every row's h by its full correlation, and every row's h
    interpolated in x (the rows whose support x window passes 2^22 multiply-adds)."""
    rng = np.random.default_rng(3)
    table = cc.contingency_table(rng.integers(0, k, n), rng.integers(0, 3, n))
    values = []
    for limit in (1 << 62, 0):
        monkeypatch.setattr(slots, "_CORRELATED", limit)
        values.append(cc.mutual_information_variance(contingency=table, model=model, one_sided=True))
    assert values[1] == pytest.approx(values[0], rel=1e-12, abs=0)
