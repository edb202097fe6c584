"""Labels on a device (#36): every public function that takes labels accepts array-API
arrays where they live and returns numpy's values bit for bit, counting the table there.

array-api-strict's test device ``Device("device1")`` refuses numpy's own conversion, so an
answer at all shows the labels were not read on the host; a spy on ``to_host`` (the one
place data leaves a device) and on DLPack exports shows that only arrays of table size (the
cells, the K distinct labels of a side) cross. ``significance_test`` and the Monte Carlo
calls of a named measure need the table alone; a callable measure is called on the codes,
which cross (not the labels), as docs/guide/gpu.md says.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import chanceclust as cc
from chanceclust import _tables, _validation, significance
from chanceclust._models import MODELS
from chanceclust._registry import MEASURES
from chanceclust.exceptions import InvalidInputError

xp = pytest.importorskip("array_api_strict")

DEVICE = xp.Device("device1")
N = 997  # prime, and larger than any table or side of these labels
RNG = np.random.default_rng(36)
PAIRS = {
    "int64": (RNG.integers(-3, 9, N), RNG.integers(0, 5, N)),
    "bool-int32": (RNG.integers(0, 2, N).astype(bool), RNG.integers(0, 40, N).astype(np.int32)),
    "float-nan": (np.where(RNG.random(N) < 0.05, np.nan, RNG.integers(0, 6, N).astype(float)),
                  RNG.integers(0, 7, N).astype(np.float32)),
}  # fmt: skip


def on_device(a):
    return xp.asarray(a, device=DEVICE)


@pytest.fixture
def crossings(monkeypatch):
    """The shapes of the arrays that leave the device (by to_host, and by any DLPack export)."""
    seen = []
    real = _validation.to_host

    def spy(x):
        seen.append(tuple(x.shape))
        return real(x)

    monkeypatch.setattr(_validation, "to_host", spy)
    monkeypatch.setattr(_tables, "to_host", spy)
    array_type = type(on_device([0]))
    export = array_type.__dlpack__

    def dlpack(self, *args, **kwargs):
        seen.append(tuple(self.shape))
        return export(self, *args, **kwargs)

    monkeypatch.setattr(array_type, "__dlpack__", dlpack)
    return seen


def small(seen):
    return bool(seen) and all(len(s) <= 1 and (not s or s[0] < N) for s in seen)


def same(got, want):
    """Bit for bit (NaN equal to NaN), for floats, tuples and arrays."""
    return np.array_equal(np.asarray(got), np.asarray(want), equal_nan=True)


def test_the_device_refuses_numpys_conversion():
    with pytest.raises(RuntimeError):
        np.asarray(on_device([1, 2]))


def _policy(kind):
    return "drop" if kind == "float-nan" else "raise"


def _case(kind):
    """The host labels, the same on the device, and the policy their missing labels need."""
    a, b = PAIRS[kind]
    return a, b, on_device(a), on_device(b), _policy(kind)


@pytest.mark.parametrize("kind", list(PAIRS))
@pytest.mark.parametrize("name", list(MEASURES))
def test_every_measure_model_and_side(crossings, name, kind):
    a, b = PAIRS[kind]
    measure = MEASURES[name]
    options = [{}]
    if measure.uses_model:
        options = [{"model": m, "one_sided": s} for m in MODELS for s in (False, True)]
    policy = _policy(kind)
    for kw in options:
        got = measure.function(on_device(a), on_device(b), unassigned=policy, **kw)
        want = measure.function(a, b, unassigned=policy, **kw)
        assert same(got, want), (name, kw)
    # one side on the device, one on the host (its codes join the device's)
    assert same(measure.function(on_device(a), b, unassigned=policy, **kw), want)
    assert small(crossings), crossings


@pytest.mark.parametrize("kind", list(PAIRS))
def test_tables_expectations_variances_and_compare(crossings, kind):
    a, b, da, db, policy = _case(kind)
    for f in (cc.contingency_table, cc.pair_confusion_matrix, cc.homogeneity_completeness_v_measure):
        assert same(f(da, db, unassigned=policy), f(a, b, unassigned=policy)), f
    assert cc.pair_counts(da, db, unassigned=policy) == cc.pair_counts(a, b, unassigned=policy)
    for f in (cc.expected_mutual_information, cc.expected_rand_index,
              cc.mutual_information_variance, cc.rand_index_variance):  # fmt: skip
        for model in MODELS:
            for one_sided in (False, True):
                kw = {"model": model, "one_sided": one_sided, "unassigned": policy}
                assert same(f(da, db, **kw), f(a, b, **kw)), (f, model, one_sided)
    got = cc.compare(da, db, unassigned=policy, standardized=True)
    want = cc.compare(a, b, unassigned=policy, standardized=True)
    assert got.unassigned == want.unassigned
    assert [(r.measure, r.model, r.one_sided) for r in got.rows] == [
        (r.measure, r.model, r.one_sided) for r in want.rows]
    assert same([r.value for r in got.rows], [r.value for r in want.rows])
    assert cc.entropy(da, unassigned=policy) == cc.entropy(a, unassigned=policy)
    assert small(crossings), crossings


@pytest.mark.parametrize("policy", ["drop", "singletons", "cluster"])
def test_nan_follows_the_unassigned_rules(crossings, policy):
    a, b = PAIRS["float-nan"]
    b = b.astype(np.float64)
    b[[5, 17]] = np.nan  # unassigned on both sides, in other elements
    da, db = on_device(a), on_device(b)
    for kw in ({}, {"unassigned_label": 3.0}):
        got = cc.compare(da, db, unassigned=policy, **kw)
        want = cc.compare(a, b, unassigned=policy, **kw)
        assert got.unassigned == want.unassigned
        assert same([r.value for r in got.rows], [r.value for r in want.rows])
        assert same(cc.contingency_table(da, db, unassigned=policy, **kw),
                    cc.contingency_table(a, b, unassigned=policy, **kw))  # fmt: skip
    assert small(crossings), crossings


def _message(f, *args, **kwargs):
    with pytest.raises(InvalidInputError) as caught:
        f(*args, **kwargs)
    return str(caught.value)


def test_the_same_errors_as_numpy():
    a, b = PAIRS["float-nan"]
    ari = cc.adjusted_rand_index
    assert _message(ari, on_device(a), on_device(b)) == _message(ari, a, b)  # NaN, 'raise'
    assert _message(ari, on_device(a[:-1]), on_device(b)) == _message(ari, a[:-1], b)
    square = np.zeros((3, 3), dtype=np.int64)
    assert _message(ari, on_device(square), on_device(square)) == _message(ari, square, square)
    nan = np.full(4, np.nan)
    assert (_message(ari, on_device(nan), on_device(nan), unassigned="drop")
            == _message(ari, nan, nan, unassigned="drop"))  # fmt: skip
    with pytest.warns(UserWarning, match=r"non-integral float labels \(e\.g\. 0\.5\)"):
        cc.adjusted_rand_index(on_device(np.array([1.0, 0.5, 2.5])), on_device([0, 1, 1]))


@pytest.mark.parametrize("kind", list(PAIRS))
def test_pairwise_counts_each_pair_on_the_device(crossings, kind):
    a, b = PAIRS[kind]
    c = np.roll(np.asarray(a), 7)
    host = {"a": a, "b": b, "c": c}
    device = {k: on_device(v) for k, v in host.items()}
    for measure, model in (("ari", "perm"), ("ami", "num"), ("nmi", None), ("vi", None)):
        for one_sided in ((False, True) if model else (False,)):
            kw = {"measure": measure, "one_sided": one_sided, "unassigned": _policy(kind)}
            if model:
                kw["model"] = model
            got, want = cc.pairwise(device, **kw), cc.pairwise(host, **kw)
            assert same(got.values, want.values), kw
            assert same(got.degenerate if got.degenerate is not None else 0,
                        want.degenerate if want.degenerate is not None else 0)
    assert small(crossings), crossings


@pytest.mark.parametrize("kind", list(PAIRS))
def test_partial_tables_of_device_chunks_merge_to_numpys(crossings, kind):
    a, b, da, db, policy = _case(kind)
    cuts = [0, 100, 101, 600, N]
    got = cc.merge_tables(cc.partial_table(da[s:e], db[s:e], unassigned=policy)
                          for s, e in itertools.pairwise(cuts))  # fmt: skip
    want = cc.merge_tables(cc.partial_table(a[s:e], b[s:e], unassigned=policy)
                           for s, e in itertools.pairwise(cuts))  # fmt: skip
    for field in ("labels_true", "labels_pred", "rows", "cols", "counts"):
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
        assert getattr(got, field).dtype == getattr(want, field).dtype, field
    assert got.dropped == want.dropped
    assert same(cc.adjusted_mutual_information(contingency=got),
                cc.adjusted_mutual_information(a, b, unassigned=policy))  # fmt: skip
    assert small(crossings), crossings


@pytest.mark.parametrize("kind", list(PAIRS))
def test_significance_test_statistic_and_null(crossings, monkeypatch, kind):
    """The statistic, the null and the p-values equal numpy's, every model and side, both
    routes of the null (tables from the margins; drawn codes with the reference labels
    repeated by size): named measures need the table alone, so no array of N elements
    crosses. A callable is called on codes: its N codes cross, once per side."""
    a, b, da, db, policy = _case(kind)
    calls = [("ari", "perm", False), ("ami", "perm", True), ("ari", "num", True),
             ("nmi", "num", False), ("ami", "all", True), ("vi", "all", False),
             ("ami", "num", True, "tables")]  # fmt: skip
    for measure, model, one_sided, *tables in calls:
        if tables:  # num's sizes drawn, then the tables (here N is below the call's cost)
            monkeypatch.setattr(significance, "TABLE_CALL_COST", 0)
        kw = {"model": model, "one_sided": one_sided, "unassigned": policy}
        got = cc.significance_test(measure, da, db, n_resamples=30, rng=5, **kw)
        want = cc.significance_test(measure, a, b, n_resamples=30, rng=5, **kw)
        assert got.statistic == want.statistic, (measure, kw)
        assert got.pvalue == want.pvalue, (measure, kw)
        assert same(got.null_distribution, want.null_distribution), (measure, kw)
        assert same(cc.null_distribution(measure, da, db, n_resamples=9, rng=1, **kw),
                    cc.null_distribution(measure, a, b, n_resamples=9, rng=1, **kw))  # fmt: skip
    assert same(cc.significance_test("ami", da, db, model="perm", method="gamma",
                                     unassigned=policy).pvalue,
                cc.significance_test("ami", a, b, model="perm", method="gamma",
                                     unassigned=policy).pvalue)  # fmt: skip
    x, y = np.tile([0, 0, 0, 1, 1, 2], 5), np.tile([0, 1, 1, 1, 0, 0], 5)  # a small table
    assert same(cc.significance_test("ari", on_device(x), on_device(y), model="num",
                                     one_sided=True, method="exact").pvalue,
                cc.significance_test("ari", x, y, model="num", one_sided=True,
                                     method="exact").pvalue)  # fmt: skip
    got = cc.monte_carlo_adjusted("jaccard", da, db, model="num", n_resamples=20, rng=2,
                                  unassigned=policy)  # fmt: skip
    assert got == cc.monte_carlo_adjusted("jaccard", a, b, model="num", n_resamples=20, rng=2,
                                          unassigned=policy)  # fmt: skip
    assert small(crossings), crossings
    crossings.clear()
    vi = MEASURES["vi"].function
    got = cc.null_distribution(vi, da, db, model="perm", n_resamples=5, rng=3, unassigned=policy)
    assert same(got, cc.null_distribution(vi, a, b, model="perm", n_resamples=5, rng=3,
                                          unassigned=policy))  # fmt: skip
    big = {s for s in crossings if s and s[0] >= N}
    assert big == {(N,)}, crossings  # the codes of the N elements (each side's)


def _bincount(x, minlength=0):
    """A library's bincount (CuPy, PyTorch, JAX have one; the standard and array-api-strict
    do not), from standard calls on the device."""
    m = max(minlength, int(xp.max(x)) + 1 if x.shape[0] else 0)
    hits = x[:, None] == xp.arange(m, dtype=x.dtype, device=x.device)[None, :]
    return xp.sum(xp.astype(hits, xp.int64), axis=0)


@pytest.mark.parametrize("kind", list(PAIRS))
def test_a_librarys_bincount_gives_the_same_tables(crossings, monkeypatch, kind):
    """Where the library has a bincount, dense integer labels are encoded and the cells
    counted by it on the device (only the non-zero cells and the K labels cross)."""
    calls = []

    def spy(x, minlength=0):
        calls.append(minlength)
        return _bincount(x, minlength)

    monkeypatch.setattr(xp, "bincount", spy, raising=False)
    a, b, da, db, policy = _case(kind)
    assert same(cc.contingency_table(da, db, unassigned=policy),
                cc.contingency_table(a, b, unassigned=policy))  # fmt: skip
    for model, one_sided in ((m, s) for m in MODELS for s in (False, True)):
        for f in (cc.adjusted_rand_index, cc.adjusted_mutual_information):
            kw = {"model": model, "one_sided": one_sided, "unassigned": policy}
            assert same(f(da, db, **kw), f(a, b, **kw)), (f, model, one_sided)
    got = cc.partial_table(da, db, unassigned=policy)
    want = cc.partial_table(a, b, unassigned=policy)
    assert all(np.array_equal(getattr(got, f), getattr(want, f))
               for f in ("labels_true", "labels_pred", "rows", "cols", "counts"))  # fmt: skip
    assert calls  # the bincount was used
    assert small(crossings), crossings
    # sparse labels (beyond the dense range) and a large table: the standard's calls
    wide, spread = a.astype(np.float64) if kind == "float-nan" else a * 10**6, RNG.permutation(N)
    assert same(cc.adjusted_rand_index(on_device(wide), on_device(spread), unassigned=policy),
                cc.adjusted_rand_index(wide, spread, unassigned=policy))  # fmt: skip
