"""Each exception class means what chanceclust/exceptions.py says: the user's input, a valid
input beyond what chanceclust computes (``UnsupportedError``), or a bug (``InternalError``)."""

from __future__ import annotations

import pickle

import pytest

import chanceclust as cc
from chanceclust._cli.main import _classify


def test_unsupported_is_invalid_input_and_not_implemented():
    """Code that handles the user's input (``except InvalidInputError``/``ValueError``) handles
    a capability limit too; it is no bug (no ``InternalError``)."""
    err = cc.UnsupportedError("implemented for N <= 1e+09")
    assert isinstance(err, cc.InvalidInputError)
    assert isinstance(err, ValueError)
    assert isinstance(err, NotImplementedError)
    assert not isinstance(err, cc.InternalError)
    assert str(pickle.loads(pickle.dumps(err))) == str(err)  # crosses to Dask workers


def test_the_command_line_exits_2_for_a_capability_limit():
    status, message = _classify(cc.UnsupportedError("implemented for N <= 1e+09"), "expect")
    assert status == 2
    assert message == "expect: implemented for N <= 1e+09"


@pytest.mark.parametrize("model", ["perm", "num", "all"])
def test_the_variance_beyond_its_range_is_unsupported(model):
    n = 2**40
    table = [[n // 4, n // 4], [n // 4, n - 3 * (n // 4)]]
    with pytest.raises(cc.UnsupportedError, match="implemented for N <= 1e"):
        cc.mutual_information_variance(contingency=table, model=model)


def test_draws_beyond_the_memory_are_unsupported():
    with pytest.raises(cc.UnsupportedError, match="would need about"):
        cc.random_clusterings(2**40, 2**40, model="num", n_clusters=2)


def test_a_wrong_argument_is_not_unsupported():
    with pytest.raises(cc.InvalidInputError) as info:
        cc.adjusted_rand_index([0, 1], [0, 1], model="nope")
    assert not isinstance(info.value, cc.UnsupportedError)
