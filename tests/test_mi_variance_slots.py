"""The slot routes of Var[MI] (num and all beyond N = 60), batched over slots and slot pairs.

The two-sided route shares phi(a) = v E[f_J(Binomial(a, 1/v))] among the pairs of one v
where the joint cells' mean N/(uv) is below 1 (f_J = x log x) and computes it per pair
above; both kinds of pairs are checked against the sums over sizes (an independent route,
N <= 60), and against each other (sharing switched off) at larger N. The interpolated phi
is checked against phi at every position, the batching against small batches, and the
pieces (binomial rows with one probability per row, the covariance weights) against
exact rationals and the plain double sum.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chanceclust._expected.mi_variance_slots as slots
from chanceclust._expected.mi_variance import total_variance
from chanceclust._models import AllSide as All
from chanceclust._models import NumSide as Num
from chanceclust.variance import _size_moments as size_moments


def _laws(model: str, n: int, ks: tuple) -> list:
    return [All(n) if k is None else Num(n, k) for k in ks] if model == "num" else [All(n), All(n)]


class _PairSpy:
    """Counts the slot pairs of _joint_cross whose phi is shared (joint mean < 1) or own."""

    def __init__(self, monkeypatch):
        self.shared = self.own = 0
        original = slots._shared

        def spy(n, p):
            out = original(n, p)
            self.shared += int(out.sum())
            self.own += int((~out).sum())
            return out

        monkeypatch.setattr(slots, "_shared", spy)


@pytest.mark.parametrize(("model", "n", "ks"), [("all", 30, None), ("num", 40, (2, None))])
def test_shared_and_own_pairs_equal_the_sums_over_sizes(model, n, ks, monkeypatch):
    """Both sides of the sharing switch in one mixture, against the route over sizes."""
    spy = _PairSpy(monkeypatch)
    sides = _laws(model, n, ks)
    by_sizes = total_variance(n, *(size_moments(side) for side in sides))
    assert slots.two_sided_slot_variance(*(side.law for side in sides)) == pytest.approx(
        by_sizes, rel=1e-12
    )
    assert spy.shared > 0
    assert spy.own > 0


@pytest.mark.parametrize(("n", "ks"), [(750, (28, 28)), (2000, (40, None)), (200, (None, None))])
def test_sharing_phi_equals_phi_per_pair(n, ks, monkeypatch):
    """Beyond N = 60: the value with phi shared per v equals the one with phi per pair."""
    spy = _PairSpy(monkeypatch)
    laws = [side.law for side in _laws("num", n, ks)]
    shared = slots.two_sided_slot_variance(*laws)
    assert spy.shared > 0
    monkeypatch.setattr(slots, "_shared", lambda n, p: np.zeros(p.shape, dtype=bool))
    assert shared == pytest.approx(slots.two_sided_slot_variance(*laws), rel=1e-13, abs=0)


@pytest.mark.parametrize(("n", "ks"), [(20_000, (2, 3)), (750, (28, 28))])
def test_interpolated_phi_equals_every_position(n, ks, monkeypatch):
    """Windows of 96 points and more (phi and the conditional rows interpolated) against
    every position (SMOOTH_MIN above every window)."""
    laws = [side.law for side in _laws("num", n, ks)]
    interpolated = slots.two_sided_slot_variance(*laws)
    monkeypatch.setattr(slots, "SMOOTH_MIN", 10**9)
    assert interpolated == pytest.approx(slots.two_sided_slot_variance(*laws), rel=1e-12, abs=0)


@pytest.mark.parametrize("one_sided", [True, False])
@pytest.mark.parametrize(("model", "n", "ks"), [("all", 200, None), ("num", 1000, (12, 9))])
def test_small_batches_give_the_same_value(model, n, ks, one_sided, monkeypatch):
    from chanceclust._models import FixedSide as Fixed

    laws = [side.law for side in _laws(model, n, ks)]
    if one_sided:
        laws[0] = Fixed(np.array([n // 2, n // 4, n - n // 2 - n // 4]), n).law
    run = slots.one_sided_slot_variance if one_sided else slots.two_sided_slot_variance
    batched = run(*laws)
    monkeypatch.setattr(slots, "_BATCH", 4096)  # many batches (one row where a row is longer)
    assert batched == pytest.approx(run(*laws), rel=1e-13, abs=0)


@given(
    st.lists(
        st.tuples(st.integers(0, 120), st.integers(2, 60), st.integers(-5, 80)),
        min_size=1, max_size=6,
    ),
    st.integers(1, 40),
)
def test_binomial_rows_with_one_probability_per_row_are_exact(rows, width):
    """Binomial(n, 1/w) rows, w per row, against exact rationals (0 outside [0, n])."""
    n, w, start = (np.array(column) for column in zip(*rows, strict=True))
    out = slots._binom_rows(n, 1.0 / w, start, width)
    for row, (nr, wr, sr) in enumerate(rows):
        p = Fraction(1, wr)
        for c in range(width):
            k = sr + c
            exact = comb(nr, k) * p**k * (1 - p) ** (nr - k) if 0 <= k <= nr else 0
            assert out[row, c] == pytest.approx(float(exact), rel=1e-12, abs=1e-300)


def test_binomial_rows_with_probability_one():
    """p = 1 (u = 2 in a conditional row): all the mass at n, inside the row or not."""
    out = slots._binom_rows(np.array([5, 9, 3]), np.array([1.0, 1.0, 0.5]), np.array([3, 0, 0]), 4)
    np.testing.assert_array_equal(out[0], [0.0, 0.0, 1.0, 0.0])
    np.testing.assert_array_equal(out[1], np.zeros(4))
    np.testing.assert_allclose(out[2], [1 / 8, 3 / 8, 3 / 8, 1 / 8], rtol=1e-14)


@pytest.mark.parametrize("w", [2.0, 3.0, 7.5, 40.0])
def test_covariance_weights_equal_the_double_sum(w):
    """Cov(sum f, sum g) = w E[fc g] + w (w - 1) E[fc(X1) g(X2)]: the weights (from
    E[fc(X2) | X1], exchangeability) against the double sum with the whole conditional pmf."""
    total = 300
    cells = slots._slots(total, np.array([w]), rows=True)
    lo, count = int(cells.lo[0]), int(cells.count[0])
    x = lo + np.arange(count)
    p = 1.0 / w
    px = slots._binom_rows(np.array([total]), p, np.array([lo]), count)[0]
    f = slots._cell_values(x, total, p)
    fc = f - px @ f
    cond = slots._binom_rows(total - x, 1.0 / (w - 1.0), np.full(count, lo), count)
    g = np.sin(x / 7.0)
    direct = w * float(px * fc @ g) + w * (w - 1.0) * float((px * fc) @ (cond @ g))
    assert float(cells.cov_weights[0, :count] @ g) == pytest.approx(direct, rel=1e-12)
    assert cells.var_sum[0] == pytest.approx(
        w * float(px * fc @ fc) + w * (w - 1.0) * float((px * fc) @ (cond @ fc)), rel=1e-12
    )


@pytest.mark.parametrize("model", ["all", "num"])
@pytest.mark.parametrize("n", [20, 21, 34])
def test_two_random_sides_switch_to_the_slots_beyond_n_20(model, n, monkeypatch):
    """variance.SLOT_TWO_SIDED_N: at N = 20 the sums over sizes, from 21 the slot sums; the
    public value equals the sums over sizes on both sides of the switch."""
    import chanceclust as cc
    from chanceclust import variance

    taken = []
    original = slots.two_sided_slot_variance
    monkeypatch.setattr(variance, "two_sided_slot_variance",
                        lambda a, b: taken.append(1) or original(a, b))
    sides = [All(n), All(n)] if model == "all" else [Num(n, 3), Num(n, 2)]
    by_sizes = total_variance(n, *(size_moments(side) for side in sides)) / (n * n)
    a = np.arange(n) % (3 if model == "num" else 4)
    b = np.arange(n) % 2
    variance._two_sided_mi_variance.cache_clear()
    value = cc.mutual_information_variance(a, b, model=model)
    assert value == pytest.approx(by_sizes, rel=1e-12)
    assert bool(taken) == (n > variance.SLOT_TWO_SIDED_N)


def test_one_sided_slots_with_a_one_cluster_reference_give_zero():
    """A fixed side of one cluster makes MI = 0 for every draw of the other: Var = 0 exactly
    (the public functions say so before they get here; the route says it too)."""
    from chanceclust._expected.laws import fixed_law, stam_mixture

    assert slots.one_sided_slot_variance(fixed_law(np.array([400])), stam_mixture(400)) == 0.0
