"""MI of a batch by lookup over distinct (count, row size, column size) triples (#23).

The lookup route of ``_Batch.mi`` must give every sample the very MI of the evaluation on
every cell (``measures._mutual_information_values``, the route it replaces): the same bits,
so that the null distributions, the ties with the observed statistic and the p-values are
unchanged. The comparisons here are between two routes of the same arithmetic, not against
stored values; the values themselves are tested against references in test_measures.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chanceclust import significance
from chanceclust._models import AllSide as All
from chanceclust._models import FixedSide as Fixed
from chanceclust._models import NumSide as Num
from chanceclust._tables import count_rows
from chanceclust.measures import _mutual_information_values
from chanceclust.significance import (
    _TIE,
    _Batch,
    _batch_tables,
    _setup,
    _table_batch,
    null_distribution,
    significance_test,
)


def _every_cell(t: _Batch) -> np.ndarray:
    """The previous kernel: bd0 evaluated on every non-zero cell of the batch."""
    return _mutual_information_values(t.x, t.a, t.b, t.n, t.starts)


def _rows(side, gen, m, dtype=np.int32):
    rows = np.empty((m, side.n), dtype=dtype)
    side.draw_rows(gen, rows)
    return rows


def _check(t: _Batch, looked_up: bool = True) -> None:
    want = _every_cell(t)
    assert (t._mi_by_lookup() is not None) == looked_up
    np.testing.assert_array_equal(t.mi, want)  # bit for bit, not a tolerance


@pytest.mark.parametrize("seed", range(40))
def test_lookup_is_bit_identical_on_random_batches(seed):
    """perm (sizes tallied once, cached codes), num and all rows, one- and two-sided."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    k_a, k_b = (int(v) for v in rng.integers(1, min(n, 60) + 1, 2))
    m = int(rng.integers(1, 12))
    a = rng.integers(0, k_a, n)
    b = rng.integers(0, k_b, n)
    a, b = np.unique(a, return_inverse=True)[1], np.unique(b, return_inverse=True)[1]
    gen = np.random.default_rng(seed + 1000)
    perm = Fixed(np.bincount(b), n)
    cache: dict = {}
    for _ in range(2):  # the second batch reads the first one's cached codes
        t = _batch_tables(a[None].astype(np.int32), _rows(perm, gen, m), True, cache)
        np.testing.assert_array_equal(t.mi, _every_cell(t))
    for side in (Num(n, int(b.max()) + 1), All(n)):
        t = _batch_tables(a[None].astype(np.int32), _rows(side, gen, m))  # one-sided
        np.testing.assert_array_equal(t.mi, _every_cell(t))
        trues = _rows(side, gen, m)  # two-sided: both sides drawn, per-row sizes on both
        t = _batch_tables(trues, _rows(side, gen, m))
        np.testing.assert_array_equal(t.mi, _every_cell(t))


@pytest.mark.parametrize(("true", "pred"), [
    (Fixed(np.full(30, 10), 300), Num(300, 40)),  # one distinct size on the fixed side
    (Fixed(np.arange(1, 25), 300), Num(300, 300)),  # one on the drawn side: all size 1
    (Num(300, 300), All(300)),
    (Num(300, 150), Num(300, 300)),
])  # fmt: skip
def test_lookup_with_one_distinct_size_on_a_side(true, pred):
    gen = np.random.default_rng(8)
    for _ in range(3):
        trues = _rows(true, gen, 1 if isinstance(true, Fixed) else 5)
        t = _batch_tables(trues, _rows(pred, gen, 5))
        _check(t)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=8),
       st.lists(st.integers(1, 40), min_size=1, max_size=8),
       st.integers(1, 6), st.integers(0, 2**32 - 1))  # fmt: skip
def test_lookup_equals_every_cell_for_any_sizes(sizes_a, sizes_b, m, seed):
    """Any two size vectors of one N (hypothesis), perm samples: the same bits."""
    n = min(sum(sizes_a), sum(sizes_b))
    sizes_a = _trim(sizes_a, n)
    sizes_b = _trim(sizes_b, n)
    a = np.repeat(np.arange(len(sizes_a)), sizes_a).astype(np.int32)
    gen = np.random.default_rng(seed)
    t = _batch_tables(a[None], _rows(Fixed(np.array(sizes_b), n), gen, m), True)
    np.testing.assert_array_equal(t.mi, _every_cell(t))


def _trim(sizes: list[int], n: int) -> list[int]:
    """The sizes cut to add up to n (the last ones shrunk; zeros dropped)."""
    out, left = [], n
    for s in sizes:
        out.append(min(s, left))
        left -= out[-1]
    out[-1] += left
    return [s for s in out if s > 0]


def test_both_sides_of_the_lookup_switch():
    """Few cells with large counts take the evaluation on every cell (the lookup would have
    more than _LOOKUP_PER_CELL entries per cell); many small counts take the lookup."""
    gen = np.random.default_rng(5)
    n = 2000
    a = (np.arange(n) % 2).astype(np.int32)  # 2 x 3 tables: counts ~333, 6 cells a sample
    few = _batch_tables(a[None], _rows(Fixed(np.array([700, 700, 600]), n), gen, 3), True)
    _check(few, looked_up=False)
    a = (np.arange(n) % 200).astype(np.int32)  # 200 x 150 tables: counts 0..~4
    sizes = np.full(150, n // 150)
    sizes[: n - sizes.sum()] += 1
    many = _batch_tables(a[None], _rows(Fixed(sizes, n), gen, 3), True)
    _check(many, looked_up=True)


def test_beyond_the_largest_n_the_cells_are_evaluated(monkeypatch):
    """N > _LOOKUP_MAX_N: the evaluation on every cell (int64 products); same values."""
    gen = np.random.default_rng(6)
    a = (np.arange(600) % 60).astype(np.int32)
    preds = _rows(Fixed(np.full(50, 12), 600), gen, 4)
    looked_up = _batch_tables(a[None], preds.copy(), True)
    _check(looked_up, looked_up=True)
    monkeypatch.setattr(significance, "_LOOKUP_MAX_N", 599)
    t = _batch_tables(a[None], preds.copy(), True)
    _check(t, looked_up=False)
    np.testing.assert_array_equal(t.mi, looked_up.mi)


def _without_lookup(monkeypatch):
    monkeypatch.setattr(_Batch, "_mi_by_lookup", lambda self: None)


CASES = [  # (N, K_A, K_B, seed): few elements per cell, so that the lookup is taken
    (60, 6, 5, 0),
    (300, 30, 20, 1),
    (2000, 120, 90, 2),
]


@pytest.mark.parametrize("one_sided", [False, True])
@pytest.mark.parametrize("model", ["perm", "num", "all"])
@pytest.mark.parametrize("name", ["mi", "ami", "nmi", "smi"])
def test_null_distributions_and_pvalues_are_unchanged(name, model, one_sided, monkeypatch):
    """Statistic, null distribution, p-value and the generator's stream: the same as with
    the evaluation on every cell, for every batch size."""
    for n, k_a, k_b, seed in CASES:
        if name == "smi" and model != "perm" and n > 300:
            continue  # Var[MI] of the num and all models beyond N = 300: slow, same kernel
        rng = np.random.default_rng(seed)
        a, b = rng.integers(0, k_a, n), rng.integers(0, k_b, n)
        kwargs = {"model": model, "one_sided": one_sided, "n_resamples": 40}
        got = [significance_test(name, a, b, rng=seed, batch=batch, **kwargs)
               for batch in (None, 7)]  # fmt: skip
        with monkeypatch.context() as patch:
            _without_lookup(patch)
            want = [significance_test(name, a, b, rng=seed, batch=batch, **kwargs)
                    for batch in (None, 7)]  # fmt: skip
        for g, w in zip(got, want, strict=True):
            assert g.statistic == w.statistic
            assert g.pvalue == w.pvalue
            np.testing.assert_array_equal(g.null_distribution, w.null_distribution)


def test_ties_with_the_observed_statistic_are_kept(monkeypatch):
    """Perm samples equal to the observed table (a small table: many exact repeats) tie with
    the statistic exactly as before: same count of equal values, same p-value."""
    a = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    b = np.array([0, 0, 1, 1, 1, 2, 2, 0])
    setup = _setup("mi", a, b, "perm", False)
    _check(_table_batch(setup.table))  # the statistic's
    for alternative in ("greater", "less", "two-sided"):
        got = significance_test("ami", a, b, model="perm", n_resamples=2000, rng=3,
                                alternative=alternative)  # fmt: skip
        with monkeypatch.context() as patch:
            _without_lookup(patch)
            want = significance_test("ami", a, b, model="perm", n_resamples=2000, rng=3,
                                     alternative=alternative)  # fmt: skip
        near = np.abs(got.null_distribution - got.statistic) <= _TIE * abs(got.statistic)
        assert near.sum() > 10  # the observed table, up to its labels, drawn again and again
        assert got.statistic == want.statistic
        np.testing.assert_array_equal(got.null_distribution, want.null_distribution)
        np.testing.assert_array_equal(got.null_distribution == got.statistic,
                                      want.null_distribution == want.statistic)  # fmt: skip
        assert got.pvalue == want.pvalue


def test_null_distribution_stream_is_unchanged(monkeypatch):
    """The draws are untouched: the generator ends in the same state."""
    rng = np.random.default_rng(9)
    a, b = rng.integers(0, 40, 500), rng.integers(0, 30, 500)
    gens = [np.random.default_rng(4), np.random.default_rng(4)]
    got = null_distribution("mi", a, b, model="num", one_sided=True, n_resamples=30,
                            rng=gens[0])  # fmt: skip
    with monkeypatch.context() as patch:
        _without_lookup(patch)
        want = null_distribution("mi", a, b, model="num", one_sided=True, n_resamples=30,
                                 rng=gens[1])  # fmt: skip
    np.testing.assert_array_equal(got, want)
    assert gens[0].integers(2**62) == gens[1].integers(2**62)


def _count_rows_reference(keys: np.ndarray):
    """np.unique of each row: distinct keys ascending and their counts."""
    uniques = [np.unique(row, return_counts=True) for row in keys]
    n_cells = np.array([len(u) for u, _ in uniques], dtype=np.intp)
    distinct = np.concatenate([u for u, _ in uniques] + [np.zeros(0)]).astype(np.int64)
    counts = np.concatenate([c for _, c in uniques] + [np.zeros(0)]).astype(np.int64)
    return n_cells, distinct, counts


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("n_keys", [3, 700, 10**6])  # dense tally and sorted rows
def test_count_rows_against_unique(n_keys, dtype):
    rng = np.random.default_rng(n_keys)
    for m, n in [(1, 0), (3, 0), (1, 1), (4, 1), (5, 17), (2, 2000), (7, 300)]:
        keys = rng.integers(0, n_keys, (m, n)).astype(dtype)
        want = _count_rows_reference(keys)
        got = count_rows(keys.copy(), n_keys)
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)
