"""One-sided slot routes with a fixed row of almost every element (issue #35).

Given u, the row of a = N - r elements and the column totals cancel: Var R_1 and Var C are
~u (3.3e6 at N = 10^8 under all) and Var T ~2, so their rounding (~1e-11 of each) made
Var[MI] jitter by ~5e-5 between neighbouring N. ``mi_variance_slots._huge_row`` takes that
row with the columns (R_1 - C = const - sum_j Delta(X_j, M_j), Delta(x, m) = g(x + m) -
g(x)), where r <= HUGE_ROW_REST and the row's window holds at most _HUGE_ROW_WIDTH counts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
import chanceclust._expected.mi_variance_slots as slots

REFERENCE = Path(__file__).parent / "reference" / "mi_variance_huge_cluster.json"


def _table(n: int) -> list[list[int]]:
    return [[n - 40, 3, 2], [5, 10, 0], [0, 7, 13]]


def _var(n: int, model: str = "all") -> float:
    return cc.mutual_information_variance(contingency=_table(n), model=model, one_sided=True)


class _Spy:
    def __init__(self, monkeypatch):
        self.calls = self.kept = 0
        original = slots._huge_row

        def spy(*args):
            out = original(*args)
            self.calls += 1
            self.kept += out is not None
            return out

        monkeypatch.setattr(slots, "_huge_row", spy)


def _steps(values: list[float]) -> np.ndarray:
    return np.array(values[1:]) / np.array(values[:-1]) - 1.0


def test_smooth_in_n_at_one_hundred_million(monkeypatch):
    """N = 10^8 - 2 .. 10^8 + 2 under all, one-sided: the relative steps are the trend's
    (~ -2/N = -2.06e-8 here) and differ from one another by <= 1e-10 (was ~5e-5); the route
    before (HUGE_ROW_REST = 0) jitters by more than 1e-6."""
    spy = _Spy(monkeypatch)
    steps = _steps([_var(n) for n in range(10**8 - 2, 10**8 + 3)])
    assert spy.kept > 0
    assert np.all(np.abs(steps) <= 3e-8)
    assert np.ptp(steps) <= 1e-10
    monkeypatch.setattr(slots, "HUGE_ROW_REST", 0)
    before = _steps([_var(n) for n in range(10**8 - 2, 10**8 + 3)])
    assert np.ptp(before) > 1e-6


@pytest.mark.parametrize(("model", "n"), [("all", 1000), ("num", 1000), ("num", 30_000)])
def test_both_sides_of_the_switches_agree(model, n, monkeypatch):
    """The huge-row route, the route before (HUGE_ROW_REST = 0) and the route before by the
    window limit (_HUGE_ROW_WIDTH = 8) agree where the cancellation is mild."""
    spy = _Spy(monkeypatch)
    new = _var(n, model)
    assert spy.kept > 0
    monkeypatch.setattr(slots, "_HUGE_ROW_WIDTH", 8)
    spy.kept = 0
    by_width = _var(n, model)
    assert spy.calls > 0
    assert spy.kept == 0
    monkeypatch.setattr(slots, "HUGE_ROW_REST", 0)
    before = _var(n, model)
    assert new == pytest.approx(before, rel=1e-12, abs=0)
    assert by_width == before


@pytest.mark.parametrize("rest", [64, 65])
def test_the_rest_limit(rest, monkeypatch):
    """A row of all but 64 elements takes the huge-row route, all but 65 the route before."""
    spy = _Spy(monkeypatch)
    n = 1000
    table = [[n - rest, 0], [rest // 2, rest - rest // 2]]
    cc.mutual_information_variance(contingency=table, model="all", one_sided=True)
    assert (spy.calls > 0) == (rest <= slots.HUGE_ROW_REST)


@pytest.mark.parametrize("huge", [True, False])
@pytest.mark.parametrize(
    "case", [c for c in json.loads(REFERENCE.read_text()) if c["kind"] == "slots"],
    ids=lambda c: f"{c['model']}-{c['n']}",
)
def test_against_the_slot_sum_references(case, huge, monkeypatch):
    """N = 300 (num), 200 (all): both routes within 1e-12 of the 50-digit slot sums."""
    spy = _Spy(monkeypatch)
    if not huge:
        monkeypatch.setattr(slots, "HUGE_ROW_REST", 0)
    got = cc.mutual_information_variance(contingency=case["table"], model=case["model"],
                                         one_sided=True)
    assert (spy.kept > 0) == huge
    assert got == pytest.approx(float(case["variance"]), rel=1e-12, abs=0)
