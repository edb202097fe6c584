"""Var[MI] under perm through the factored sums (issue 22: many distinct sizes).

With both sides fixed, W2(b, b') = c_b c_b' - [b = b'] c_b, so the sums over pairs of sizes
become one smooth function of (M, r) per size of the other side, interpolated on a 2-D grid
(mi_variance.factored_rows, docs/math.md#math-routes). Checked against the pair sums it
replaces (the same engine with FACTOR_MIN above the number of sizes), on both sides of the
switch, and against the 40-digit references of tests/reference/ (make_mi_variance.py,
make_mi_variance_smooth.py) with the route forced.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
import chanceclust._expected.mi_variance as engine
from chanceclust._validation import check_setting
from chanceclust.contingency import _summarize
from chanceclust.variance import _table_mi_variance, _table_smi

REFERENCE = Path(__file__).parent / "reference"


def _labels(n: int, k: int, seed: int, alpha: float = 5.0) -> tuple[np.ndarray, np.ndarray]:
    """Two weakly related labelings with Dirichlet(alpha) cluster sizes (as benchmarks/smi.py)."""
    rng = np.random.default_rng(seed)
    sides = []
    for _ in range(2):
        s = np.maximum(1, np.round(rng.dirichlet(np.full(k, alpha)) * n).astype(np.int64))
        s[np.argmax(s)] += n - s.sum()
        sides.append(np.repeat(np.arange(k), s))
    a, b = sides
    shuffled = np.flatnonzero(rng.random(n) >= 0.03)
    b[shuffled] = rng.permutation(b[shuffled])
    return a, b


class _Spy:
    """Counts the factored grids kept and missed."""

    def __init__(self, monkeypatch):
        self.kept = self.missed = 0
        original = engine.factored_rows

        def spy(*args):
            out = original(*args)
            self.kept += out is not None
            self.missed += out is None
            return out

        monkeypatch.setattr(engine, "factored_rows", spy)


def _both_routes(monkeypatch, a, b, factor_min):
    """(pair-route Var, Var with FACTOR_MIN = factor_min, spy of the second)."""
    with monkeypatch.context() as m:
        m.setattr(engine, "FACTOR_MIN", 10**9)
        pair = cc.mutual_information_variance(a, b, model="perm")
    monkeypatch.setattr(engine, "FACTOR_MIN", factor_min)
    spy = _Spy(monkeypatch)
    return pair, cc.mutual_information_variance(a, b, model="perm"), spy


@pytest.mark.parametrize(("n", "k"), [(10**4, 10), (2000, 15)])
def test_factored_route_equals_pair_route(monkeypatch, n, k):
    a, b = _labels(n, k, seed=n + k)
    pair, factored, spy = _both_routes(monkeypatch, a, b, factor_min=2)
    assert spy.kept > 0
    assert spy.missed == 0
    assert factored == pytest.approx(pair, rel=1e-12, abs=0)


def test_default_switch_on_both_sides(monkeypatch):
    """FACTOR_MIN distinct sizes per side take the factored route by default, fewer do not."""
    spy = _Spy(monkeypatch)
    few = _labels(3000, engine.FACTOR_MIN - 1, seed=1)
    cc.mutual_information_variance(*few, model="perm")
    assert spy.kept == spy.missed == 0
    many = _labels(3000, engine.FACTOR_MIN, seed=1)
    assert all(len(np.unique(np.bincount(s))) == engine.FACTOR_MIN for s in many)
    default = cc.mutual_information_variance(*many, model="perm")
    assert spy.kept == 2 * engine.FACTOR_MIN
    assert spy.missed == 0
    with monkeypatch.context() as m:
        m.setattr(engine, "FACTOR_MIN", 10**9)
        pair = cc.mutual_information_variance(*many, model="perm")
    assert default == pytest.approx(pair, rel=1e-12, abs=0)


def test_missed_check_falls_back_to_the_pair_route(monkeypatch):
    a, b = _labels(2000, 15, seed=3)
    pair = cc.mutual_information_variance(a, b, model="perm")
    monkeypatch.setattr(engine, "FACTOR_MIN", 2)
    monkeypatch.setattr(engine, "FACTOR_NODES", ((3, 3),))  # too few nodes: every check misses
    spy = _Spy(monkeypatch)
    assert cc.mutual_information_variance(a, b, model="perm") == pytest.approx(pair, rel=1e-12, abs=0)
    assert spy.missed > 0
    assert spy.kept == 0


def _perm_references():
    cases = []
    for name in ("mi_variance.json", "mi_variance_smooth.json"):
        data = json.loads((REFERENCE / name).read_text())
        cases += [c for c in data if c["model"] == "perm" or (c["one_sided"] and c["n"] <= engine.MAX_RANDOM_N)]
    return cases


@pytest.mark.parametrize("case", _perm_references(), ids=lambda c: f"{c['model']}-{c['n']}")
def test_forced_factored_route_against_references(case, monkeypatch):
    monkeypatch.setattr(engine, "FACTOR_MIN", 2)
    spy = _Spy(monkeypatch)
    summary = _summarize(None, None, np.asarray(case["table"]))
    sides = check_setting(case["model"], case["one_sided"]).sides_of_table(summary)
    assert _table_mi_variance(summary, sides) == pytest.approx(float(case["variance"]), rel=1e-10, abs=0)
    assert _table_smi(summary, sides) == pytest.approx(float(case["smi"]), rel=1e-10, abs=0)
    # N <= 500: grids kept (the new route gives the value); the larger references have
    # few sizes with long windows, where the grids miss and the pair route gives it.
    assert spy.kept > 0 if case["n"] <= 500 else spy.kept + spy.missed > 0
