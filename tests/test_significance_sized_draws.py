"""num and all draws hand their sizes to the batch tables (#23, sig3).

The num and all samplers now return each draw's cluster sizes with its labels (the surjection's
sizes; the bincount Stam's algorithm takes of its raw labels), and the null distribution's
batches take them instead of tallying every drawn row again. Nothing may move: the same draws
from the same stream, the same tables, the same statistic for every sample, the same ties and
p-values. The reference here is the code before the change, copied into this file (the old
samplers and the old null loop with its per-row tally); the comparisons are bit for bit.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chanceclust import random_clustering, random_clusterings, significance
from chanceclust._expected.laws import stam_mixture
from chanceclust._models import AllSide as All
from chanceclust._models import FixedSide as Fixed
from chanceclust._models import NumSide as Num
from chanceclust._models import _surjection_rate
from chanceclust._registry import MEASURES
from chanceclust.significance import (
    _batch_tables,
    _pvalue,
    _row_sizes,
    _setup,
    null_distribution,
    significance_test,
)

# ------------------------------------------------------- the code before the change


def _old_surjection_sizes(n, k, gen, rho):
    if k == 1:
        return np.array([n], dtype=np.int64)
    extra = n - k
    if extra == 0 or rho is None:
        return np.ones(k, dtype=np.int64)
    scale = -math.expm1(-rho)
    while True:
        t = -np.log1p(-gen.random(k) * scale) / rho
        remaining = 1.0 - t
        total = rho * float(np.sum(remaining))
        relative = (total - extra) / extra
        log_accept = extra * math.log1p(relative) - (total - extra)
        if math.log(1.0 - gen.random()) <= log_accept:
            break
    extra_counts = gen.multinomial(extra, remaining / np.sum(remaining))
    return (1 + extra_counts).astype(np.int64)


def _old_num_sampler(n, k):
    labels = np.arange(k, dtype=np.int64)
    rho = _surjection_rate(n, k)

    def draw_num(gen):
        row = np.repeat(labels, _old_surjection_sizes(n, k, gen, rho))
        gen.shuffle(row)
        return row

    return draw_num


def _old_all_sampler(n):
    if n == 1:
        return lambda gen: np.zeros(1, dtype=np.int64)
    mixture = stam_mixture(n)
    slots = np.asarray(mixture.slots, dtype=np.int64)
    cumulative = np.cumsum(mixture.coefs)

    def draw_all(gen):
        index = int(np.searchsorted(cumulative, gen.random() * cumulative[-1], side="right"))
        u = int(slots[min(index, len(slots) - 1)])
        raw = gen.integers(0, u, size=n, dtype=np.int64)
        used = np.zeros(u, dtype=bool)
        used[raw] = True
        rank = np.cumsum(used, dtype=np.int64) - 1
        return rank[raw]

    return draw_all


def _old_sampler(side):
    if isinstance(side, Num):
        return _old_num_sampler(side.n, side.k)
    if isinstance(side, All):
        return _old_all_sampler(side.n)
    return side.sampler()  # perm: unchanged


def _old_batch_tables(labels_true, labels_pred, fixed_pred=False, cache=None):
    """_batch_tables before the change: every row's sizes tallied from its labels."""
    m, n = labels_pred.shape
    k_a = int(labels_true.max()) + 1
    k_b = int((labels_pred[:1] if fixed_pred else labels_pred).max()) + 1
    dtype = np.int32 if max(m * k_a * k_b, m * n) < 2**31 else np.int64
    labels_true = labels_true.astype(dtype, copy=False)
    labels_pred = labels_pred.astype(dtype, copy=False)
    sizes_true = _row_sizes(labels_true, k_a)
    sizes_pred = _row_sizes(labels_pred[:1] if fixed_pred else labels_pred, k_b)
    keys = labels_true * dtype(k_b) + labels_pred
    from chanceclust._tables import count_rows
    from chanceclust.significance import _Batch

    n_cells, cell, x = count_rows(keys, k_a * k_b)
    return _Batch(n, x, cell, n_cells, k_b, sizes_true, sizes_pred, cache)


def _old_null(s, n_resamples, gen, batch):
    """significance._null before the change (no progress), with the old samplers."""
    n = s.table.n
    side_true, side_pred = s.sides
    fixed_true = s.setting.one_sided or (isinstance(side_true, Fixed) and s.evaluate is not None)
    draw_true = None if fixed_true else _old_sampler(side_true)
    draw_pred = _old_sampler(side_pred)
    if batch is None:
        from chanceclust.significance import _BATCH_ELEMENTS

        batch = max(1, _BATCH_ELEMENTS // n)
    out = np.empty(n_resamples, dtype=np.float64)
    cache: dict = {}
    for start in range(0, n_resamples, batch):
        m = min(batch, n_resamples - start)
        dtype = np.int32 if m * n < 2**31 else np.int64
        preds = np.empty((m, n), dtype=dtype)
        trues = s.reference_codes()[None] if draw_true is None else np.empty((m, n), dtype=dtype)
        if draw_true is None:
            for row in preds:
                row[:] = draw_pred(gen)
        else:
            for i in range(m):
                trues[i] = draw_true(gen)
                preds[i] = draw_pred(gen)
        if s.evaluate is not None:
            fixed = isinstance(s.sides[1], Fixed)
            out[start : start + m] = s.evaluate(_old_batch_tables(trues, preds, fixed, cache))
        else:
            for i in range(m):
                true = trues[i if draw_true else 0]
                out[start + i] = float(
                    s.measure(np.array(true, dtype=np.int64), np.array(preds[i], dtype=np.int64))
                )
    return out


# ------------------------------------------------------------------ the samplers


def _sides(n, k):
    return [Num(n, k), All(n)]


@pytest.mark.parametrize("seed", range(40))
def test_sized_draws_are_the_old_draws_with_their_tally(seed):
    """Same labels and same stream as the old samplers; the sizes are the labels' bincount."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    k = int(rng.integers(1, n + 1)) if seed % 2 else int(rng.integers(1, min(n, 30) + 1))
    for side in _sides(n, k):
        gens = [np.random.default_rng(seed + 77) for _ in range(3)]
        old, new, sized = _old_sampler(side), side.sampler(), side.sized_sampler()
        for _ in range(4):
            want = old(gens[0])
            np.testing.assert_array_equal(new(gens[1]), want)
            labels, sizes = sized(gens[2])
            np.testing.assert_array_equal(labels, want)
            assert sizes.dtype == np.int64
            np.testing.assert_array_equal(sizes, np.bincount(want))
            assert sizes.min() >= 1  # every label 0..K-1 used
        states = {g.integers(2**62) for g in gens}
        assert len(states) == 1


@pytest.mark.parametrize("seed", range(20))
def test_draw_rows_returns_the_rows_tally(seed):
    """The batch draw: the old rows, and sizes equal to the tally the tables made before."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 600))
    k = int(rng.integers(1, min(n, 50) + 1))
    m = int(rng.integers(1, 9))
    for side in _sides(n, k):
        for dtype in (np.int32, np.int64):
            gen_old, gen_new = np.random.default_rng(seed), np.random.default_rng(seed)
            old = _old_sampler(side)
            want = np.array([old(gen_old) for _ in range(m)], dtype=dtype).reshape(m, n)
            rows = np.empty((m, n), dtype=dtype)
            sizes = side.draw_rows(gen_new, rows)
            np.testing.assert_array_equal(rows, want)
            tally = _row_sizes(want, int(want.max()) + 1)
            assert sizes.dtype == tally.dtype
            assert sizes.shape == tally.shape
            np.testing.assert_array_equal(sizes, tally)
            assert gen_old.integers(2**62) == gen_new.integers(2**62)
    assert Fixed(np.array([2, 1]), 3).draw_rows(np.random.default_rng(0), np.empty((2, 3))) is None


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 200), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_batch_tables_with_given_sizes_equal_the_tallied_ones(n, data, seed):
    k = data.draw(st.integers(1, n))
    m = data.draw(st.integers(1, 6))
    gen = np.random.default_rng(seed)
    for side in _sides(n, k):
        preds = np.empty((m, n), dtype=np.int32)
        sizes = side.draw_rows(gen, preds)
        trues = np.empty((m, n), dtype=np.int32)
        sizes_true = side.draw_rows(gen, trues)
        for args, given_sizes in [((trues, preds), (sizes_true, sizes)),
                                  ((trues[:1], preds), (None, sizes))]:  # fmt: skip
            new = _batch_tables(*args, False, None, *given_sizes)
            old = _old_batch_tables(*args)
            for name in ("x", "cell", "n_cells", "starts", "sizes_true", "sizes_pred"):
                got, want = getattr(new, name), getattr(old, name)
                assert got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)
            assert new.k_b == old.k_b
            np.testing.assert_array_equal(new.mi, old.mi)


def test_single_call_samplers_keep_their_values():
    for model, kwargs in [("num", {"n_clusters": 7}), ("all", {})]:
        side = Num(500, 7) if model == "num" else All(500)
        gen = np.random.default_rng(11)
        old = _old_sampler(side)
        want = np.array([old(gen) for _ in range(5)])
        np.testing.assert_array_equal(
            random_clusterings(5, 500, model=model, rng=11, **kwargs), want
        )
        np.testing.assert_array_equal(
            random_clustering(500, model=model, rng=11, **kwargs), want[0]
        )


# ---------------------------------------------------------- the null distributions

CASES = [(7, 2, 3, 0), (40, 5, 4, 1), (300, 12, 30, 2), (1000, 3, 60, 3), (2500, 40, 9, 4)]


def _callable(a, b):
    return float(np.mean(a == b)) + 0.5 * float(a[0])


@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", ["perm", "num", "all"])
@pytest.mark.parametrize("measure", [*MEASURES, "callable"])
def test_null_distributions_statistics_and_pvalues_are_unchanged(measure, model, one_sided,
                                                                 monkeypatch):
    """Every measure, model and side, batches of None / 3 / 7 samples: the null distribution,
    the generator's final state and the p-values (ties included) equal the old code's (the
    route of drawn codes; a named measure's kept reference is the labels repeated by size)."""
    monkeypatch.setattr(significance, "_draws_tables", lambda s: False)
    name = _callable if measure == "callable" else measure
    for n, k_a, k_b, seed in CASES:
        if measure in ("smi", "sri") and model != "perm" and n > 300:
            continue  # Var[MI] of the num and all models beyond N = 300: slow, same kernel
        rng = np.random.default_rng(seed)
        a, b = rng.integers(0, k_a, n), rng.integers(0, k_b, n)
        s = _setup(name, a, b, model, one_sided)
        for batch in (None, 3, 7):
            gens = [np.random.default_rng(seed + 5), np.random.default_rng(seed + 5)]
            got = null_distribution(name, a, b, model=model, one_sided=one_sided,
                                    n_resamples=25, rng=gens[0], batch=batch)  # fmt: skip
            want = _old_null(s, 25, gens[1], batch)
            np.testing.assert_array_equal(got, want)
            assert gens[0].integers(2**62) == gens[1].integers(2**62)
        result = significance_test(name, a, b, model=model, one_sided=one_sided,
                                   n_resamples=25, rng=seed + 5)  # fmt: skip
        want = _old_null(s, 25, np.random.default_rng(seed + 5), None)
        np.testing.assert_array_equal(result.null_distribution, want)
        assert result.statistic == s.statistic
        for alternative in ("greater", "less", "two-sided"):
            assert _pvalue(s.statistic, result.null_distribution, alternative) == _pvalue(
                s.statistic, want, alternative
            )
        assert math.isfinite(result.pvalue)


def test_ties_under_all_are_kept():
    """A tiny all-model case where samples repeat the observed table: the same ties."""
    a, b = np.array([0, 0, 1, 1, 2]), np.array([0, 1, 1, 2, 2])
    s = _setup("ami", a, b, "all", False)
    got = null_distribution("ami", a, b, model="all", n_resamples=3000, rng=3)
    want = _old_null(s, 3000, np.random.default_rng(3), None)
    assert (got == s.statistic).sum() > 10
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------- per-sample entries of the cells


def _flat_margin(t, sizes, index):
    """_Batch._margin before the change: each cell's sample number, one flat gather."""
    step = np.zeros(t.x.shape, dtype=np.intp)
    step[t.starts[1:]] = 1
    row = np.cumsum(step)
    return sizes.ravel()[row * sizes.shape[1] + index]


@pytest.mark.parametrize("seed", range(24))
def test_margins_gathered_by_sample_equal_the_flat_gather(seed, monkeypatch):
    """Both sides of _GATHER_BY_SAMPLE: sizes and ranks of the cells' rows and columns."""
    from chanceclust import significance

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    k = int(rng.integers(1, min(n, 40) + 1))
    m = int(rng.integers(1, 12))
    gen = np.random.default_rng(seed + 3)
    for side in _sides(n, k):
        trues = np.empty((m, n), dtype=np.int32)
        preds = np.empty((m, n), dtype=np.int32)
        sizes_true, sizes_pred = side.draw_rows(gen, trues), side.draw_rows(gen, preds)
        t = _batch_tables(trues, preds, False, None, sizes_true, sizes_pred)
        i, j = t.cell // t.k_b, t.cell % t.k_b
        for threshold in (0, 64, 10**9):
            monkeypatch.setattr(significance, "_GATHER_BY_SAMPLE", threshold)
            for sizes, index in ((t.sizes_true, i), (t.sizes_pred, j)):
                ranks = np.unique(sizes, return_inverse=True)[1].reshape(sizes.shape)
                for table in (sizes, ranks.astype(np.int32)):
                    got = t._margin(table, index)
                    want = _flat_margin(t, table, index)
                    assert got.dtype == want.dtype
                    np.testing.assert_array_equal(got, want)


def test_gather_switch_is_taken_on_both_sides():
    from chanceclust import significance

    gen = np.random.default_rng(0)
    for n, m, by_sample in ((20, 50, False), (5000, 3, True)):
        preds = np.empty((m, n), dtype=np.int32)
        sizes = All(n).draw_rows(gen, preds)
        t = _batch_tables(preds, preds.copy(), False, None, sizes, sizes)
        assert (t.x.size >= significance._GATHER_BY_SAMPLE * m) == by_sample
