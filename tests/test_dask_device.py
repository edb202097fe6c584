"""Dask collections of device chunks (#36): each chunk's table counted where the chunk is.

A dask array whose blocks are array-API arrays on array-api-strict's ``Device("device1")``
(which refuses numpy's conversion; built by ``map_blocks``, as a CuPy-backed dask array
is) must give :func:`chanceclust.dask.contingency_table` -- the table and its summary --
equal to numpy chunks' field by field and dtype by dtype, hence every measure under every
model and side equal to the single calls' bit for bit, with the same errors. The spy of
tests/test_device_labels.py on ``to_host`` and on DLPack exports shows that only arrays
shorter than a chunk (a chunk's K distinct labels, its table's cells) leave the device.
"""

from __future__ import annotations

import numpy as np
import pytest

dask = pytest.importorskip("dask")
xp = pytest.importorskip("array_api_strict")

import dask.array as da
import test_device_labels
from test_device_labels import DEVICE, PAIRS, _bincount, same

import chanceclust as cc
from chanceclust import dask as ccd
from chanceclust._models import MODELS
from chanceclust._registry import MEASURES
from chanceclust.exceptions import InvalidInputError

CHUNK = 200  # every array that crosses is shorter than a chunk
POLICIES = ("raise", "drop", "singletons", "cluster")
FIELDS = ("labels_true", "labels_pred", "rows", "cols", "counts")
crossings = test_device_labels.crossings  # the spy fixture, found by pytest under this name


@pytest.fixture(autouse=True)
def _synchronous():
    with dask.config.set(scheduler="sync"):  # one thread: the spy sees every crossing in order
        yield


def on_device(labels, chunks=CHUNK):
    """A dask array of ``labels`` whose every block lives on the test device."""
    host = da.from_array(labels, chunks=chunks)
    return host.map_blocks(lambda block: xp.asarray(block, device=DEVICE),
                           meta=np.empty(0, dtype=labels.dtype))  # fmt: skip


def on_host(labels, chunks=CHUNK):
    return da.from_array(labels, chunks=chunks)


def shorter_than_a_chunk(seen, chunk=CHUNK):
    return bool(seen) and all(len(s) <= 1 and (not s or s[0] < chunk) for s in seen)


def assert_same_table(got, want):
    for field in FIELDS:
        assert np.array_equal(getattr(got, field), getattr(want, field)), field
        assert getattr(got, field).dtype == getattr(want, field).dtype, field
    assert got.dropped == want.dropped


def assert_same_summary(got, want):
    assert got.n == want.n
    for part in ("sizes_true", "sizes_pred", "cells"):
        for field in ("values", "counts"):
            assert np.array_equal(getattr(getattr(got, part), field),
                                  getattr(getattr(want, part), field)), (part, field)  # fmt: skip


def test_the_blocks_live_on_the_device():
    blocks = on_device(PAIRS["int64"][0]).to_delayed().ravel()
    block = blocks[0].compute()
    assert isinstance(block, type(xp.asarray([0], device=DEVICE)))
    assert block.device == DEVICE
    with pytest.raises(RuntimeError):
        np.asarray(block)


def _options(kind, policy):
    """The ways of ``policy`` this kind's labels allow without an error: with and without a
    label marked unassigned (3: a label of both sides of every kind)."""
    if policy == "raise":  # NaN, or a marked label, is an error: test_the_same_errors_...
        return [] if kind == "float-nan" else [{"unassigned": policy}]
    return [{"unassigned": policy}, {"unassigned": policy, "unassigned_label": 3}]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("kind", list(PAIRS))
def test_tables_and_summaries_equal_numpy_chunks(crossings, kind, policy):
    a, b = PAIRS[kind]
    for kw in _options(kind, policy):
        for buckets in (1, 3):  # one tree; row-range buckets
            got = ccd.contingency_table((on_device(a), on_device(b)), buckets=buckets, **kw)
            want = ccd.contingency_table((on_host(a), on_host(b)), buckets=buckets, **kw)
            assert_same_table(got, want)
        assert_same_summary(
            ccd.contingency_table((on_device(a), on_device(b)), summary=True, **kw),
            ccd.contingency_table((on_host(a), on_host(b)), summary=True, **kw),
        )
    assert shorter_than_a_chunk(crossings) or not _options(kind, policy), crossings


@pytest.mark.parametrize("kind", list(PAIRS))
def test_every_measure_model_and_side_equals_the_single_calls(kind):
    """From the table of device chunks, every measure of the registry under every model and
    side: the single call's value on the whole labels (numpy) bit for bit."""
    a, b = PAIRS[kind]
    policy = "drop" if kind == "float-nan" else "raise"
    table = ccd.contingency_table((on_device(a), on_device(b)), unassigned=policy)
    for name, measure in MEASURES.items():
        options = [{}]
        if measure.uses_model:
            options = [{"model": m, "one_sided": s} for m in MODELS for s in (False, True)]
        for kw in options:
            got = measure.function(contingency=table, **kw)
            assert same(got, measure.function(a, b, unassigned=policy, **kw)), (name, kw)


@pytest.mark.parametrize("policy", ["drop", "singletons", "cluster"])
def test_nan_chunks_uneven_chunks_and_a_host_side(crossings, policy):
    """NaN in float chunks under each policy, with a chunk of nothing but NaN, an empty
    chunk and chunks of one element; and one side's chunks on the host (its codes join the
    device's)."""
    a, b = PAIRS["float-nan"]
    a, b = a.copy(), b.astype(np.float64)
    a[200:400] = np.nan  # a whole chunk of missing labels
    b[[5, 17, 450]] = np.nan
    chunks = ((200, 200, 0, 1, 1, 200, 395),)
    for kw in ({"unassigned": policy}, {"unassigned": policy, "unassigned_label": 2.0}):
        want = ccd.contingency_table((on_host(a, chunks), on_host(b, chunks)), **kw)
        assert_same_table(
            ccd.contingency_table((on_device(a, chunks), on_device(b, chunks)), **kw), want
        )
        assert_same_table(ccd.contingency_table((on_device(a, chunks), on_host(b, chunks)), **kw),
                          want)  # fmt: skip
        whole = cc.partial_table(a, b, **kw) if policy == "drop" else None
        if whole is not None:  # and the single call's table
            assert_same_table(want, whole)
    # (under 'singletons' the chunk of nothing but NaN has a cell per element: a table as
    # long as the chunk, which crosses as every table does)
    assert shorter_than_a_chunk(crossings, CHUNK + (policy == "singletons")), crossings


def test_a_librarys_bincount_gives_the_same_tables(crossings, monkeypatch):
    """Where the library has a bincount (CuPy, PyTorch, JAX), dense labels are encoded and
    each chunk's cells counted by it on the device."""
    calls = []

    def spy(x, minlength=0):
        calls.append(minlength)
        return _bincount(x, minlength)

    monkeypatch.setattr(xp, "bincount", spy, raising=False)
    for kind in ("int64", "bool-int32"):
        a, b = PAIRS[kind]
        for kw in ({}, {"unassigned": "singletons", "unassigned_label": 3}):
            assert_same_table(ccd.contingency_table((on_device(a), on_device(b)), **kw),
                              ccd.contingency_table((on_host(a), on_host(b)), **kw))  # fmt: skip
    assert calls
    assert shorter_than_a_chunk(crossings), crossings


def _message(*args, **kwargs):
    with pytest.raises(InvalidInputError) as caught:
        ccd.contingency_table(*args, **kwargs)
    return str(caught.value)


def test_the_same_errors_as_numpy_chunks():
    a, b = PAIRS["float-nan"]
    pairs = [((on_device(x), on_device(y)), (on_host(x), on_host(y)))
             for x, y in ((a, b), (PAIRS["int64"][0], PAIRS["int64"][1]))]  # fmt: skip
    (device_nan, host_nan), (device_int, host_int) = pairs
    assert _message(device_nan) == _message(host_nan)  # NaN under 'raise', its chunk and row
    assert "(chunk 0, row " in _message(device_nan)
    assert (_message(device_int, unassigned_label=[3, -3])
            == _message(host_int, unassigned_label=[3, -3]))  # fmt: skip
    nan = np.full(450, np.nan)
    assert (_message((on_device(nan), on_device(nan)), unassigned="drop")
            == _message((on_host(nan), on_host(nan)), unassigned="drop"))  # fmt: skip
    assert (_message((on_device(a[:-1]), on_device(b)))
            == _message((on_host(a[:-1]), on_host(b))))  # fmt: skip
    halves = np.array([1.0, 0.5, 2.5])
    with pytest.warns(UserWarning, match=r"non-integral float labels \(e\.g\. 0\.5\)"):
        ccd.contingency_table((on_device(halves), on_device(np.array([0, 1, 1]))))


def test_a_dense_tally_adds_device_chunks_cells():
    """A task that tallies dense cell keys (Parquet's integer ranges; dask collections are
    factorized) adds the cells of device blocks too: the tally of numpy blocks."""
    from chanceclust._validation import POLICIES as BY_NAME

    a, b = PAIRS["int64"]
    plan = ccd._plan([(-3, 8), (0, 4)], BY_NAME["drop"], [a.size])
    chunk, marks = [ccd._ArrayChunk(0)], frozenset({3})
    device = [[xp.asarray(a, device=DEVICE)], [xp.asarray(b, device=DEVICE)]]
    got = ccd._chunk_cells(chunk, plan, 0, 1, True, marks, *device)
    want = ccd._chunk_cells(chunk, plan, 0, 1, True, marks, [a], [b])
    assert np.array_equal(got[0], want[0])
    assert got[0].dtype == want[0].dtype
    assert got[1] == want[1]
