"""The batch path of the null samples (#23): the same stream and values as one draw at a time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chanceclust import significance
from chanceclust._models import AllSide as All
from chanceclust._models import FixedSide as Fixed
from chanceclust._models import NumSide as Num
from chanceclust._registry import MEASURES
from chanceclust.significance import _batch_tables, _setup, _sized_samplers, null_distribution

SIDES = [
    Fixed(np.array([3, 1, 2]), 6),
    Fixed(np.array([1]), 1),
    Fixed(np.array([5, 0, 4]), 9),  # an empty cluster: its label never drawn
    Num(7, 3),
    Num(5, 5),
    Num(4, 1),
    All(1),
    All(2),
    All(30),
]


def _one_at_a_time(side, gen, m):
    draw = side.sampler()
    return np.stack([draw(gen) for _ in range(m)])


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("side", SIDES, ids=repr)
def test_draw_rows_is_the_sampler_called_m_times(side, dtype):
    """Rows and the generator's state after them are those of m calls of the sampler."""
    for m in (1, 4):
        gen_rows, gen_one = np.random.default_rng(3), np.random.default_rng(3)
        rows = np.empty((m, side.n), dtype=dtype)
        side.draw_rows(gen_rows, rows)
        np.testing.assert_array_equal(rows, _one_at_a_time(side, gen_one, m))
        assert gen_rows.integers(2**62) == gen_one.integers(2**62)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=6).filter(sum), st.integers(1, 5),
       st.integers(0, 2**32 - 1))  # fmt: skip
def test_perm_rows_match_per_sample_permutations(sizes, m, seed):
    side = Fixed(np.array(sizes), sum(sizes))
    rows = np.empty((m, side.n), dtype=np.int32)
    side.draw_rows(np.random.default_rng(seed), rows)
    np.testing.assert_array_equal(rows, _one_at_a_time(side, np.random.default_rng(seed), m))
    assert (np.bincount(rows[0], minlength=len(sizes)) == sizes).all()


@pytest.mark.parametrize("name", MEASURES)
def test_fixed_pred_sizes_give_the_same_values(name):
    """Tallying the pred sizes once for perm rows changes no bit of any measure."""
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 4, 50), rng.integers(0, 6, 50)
    setup = _setup(name, a, b, "perm", False)
    draw = setup.sides[1].sampler()
    gen = np.random.default_rng(1)
    preds = np.stack([draw(gen) for _ in range(30)]).astype(np.int32)
    trues = setup.reference_codes()[None]
    per_row = setup.evaluate(_batch_tables(trues, preds.copy()))
    once = setup.evaluate(_batch_tables(trues, preds.copy(), fixed_pred=True))
    np.testing.assert_array_equal(once, per_row)


@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", ["perm", "num", "all"])
@pytest.mark.parametrize("name", ["ami", "ari", "nmi", "vi"])
def test_null_is_the_one_at_a_time_evaluation(name, model, one_sided, monkeypatch):
    """null_distribution = the samplers drawn one pair after the other, each table evaluated
    alone (the definition the batch path of codes must keep, for every batch size)."""
    monkeypatch.setattr(significance, "_draws_tables", lambda s: False)  # the codes route
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 3, 40), rng.integers(0, 4, 40)
    setup = _setup(name, a, b, model, one_sided)
    draw_true, draw_pred = _sized_samplers(setup)
    gen = np.random.default_rng(7)
    want = []
    for _ in range(25):
        true = setup.reference_codes()[None] if draw_true is None else draw_true(gen)[0][None]
        pred = draw_pred(gen)[0][None]
        want.append(setup.evaluate(_batch_tables(true.astype(np.int64), pred))[0])
    for batch in (None, 1, 6):
        got = null_distribution(name, a, b, model=model, one_sided=one_sided, n_resamples=25,
                                rng=7, batch=batch)  # fmt: skip
        if batch == 1:  # the very same tables and arithmetic
            np.testing.assert_array_equal(got, want)
        else:  # a batch's tables are zero-padded to its largest K: sums in another order
            np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)
