"""Shared docstring fragments (chanceclust._docs): filled everywhere, written once."""

from __future__ import annotations

import inspect

import chanceclust as cc
from chanceclust._docs import FRAGMENTS


def _public_functions():
    for name in cc.__all__:
        obj = getattr(cc, name)
        if inspect.isfunction(obj):
            yield name, obj


def test_no_placeholder_is_left_unfilled():
    for name, func in _public_functions():
        assert "%(" not in (func.__doc__ or ""), name


def test_every_function_with_the_unassigned_options_documents_them_from_the_fragment():
    first_line = FRAGMENTS["unassigned"].splitlines()[1].strip()
    documented = 0
    for name, func in _public_functions():
        if "unassigned" in inspect.signature(func).parameters:
            doc = inspect.cleandoc(func.__doc__ or "")
            if first_line in doc:
                documented += 1
            else:  # the one exception: its own words, for a reason stated in its docstring
                assert name in {"partial_table"}, name  # chunks: raise or drop only
    assert documented >= 15
