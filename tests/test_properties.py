"""Hypothesis properties that complete tests/test_common.py (#10, "Done when").

test_common.py already loops symmetry, relabeling and element-order
invariance, identical partitions, finite values in range and adjusted <= 1
over every public measure. This file adds, on random labelings drawn by the
shared strategies under the fixed profile of conftest.py:

* perm equals scikit-learn (RI, ARI, FMI, MI, NMI under each normalization,
  E[MI] and AMI away from degenerate ensembles);
* exact enumeration for N <= 7: E[RI] and E[MI] under every model and
  sidedness equal the average over the whole ensemble (set partitions, or the
  distinct arrangements of the labels under perm), E[RI] in exact fractions;
* bounds on every input: ARI and AMI <= 1, NMI in [0, 1], no NaN or inf;
* the null samples of significance.py lie in the same ranges as the measures.

Each property draws at most ``max_examples`` examples (set below): the
enumerations cost up to ~0.2 s per example, so CI time stays bounded.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference._exact import set_partitions
from sklearn import metrics
from strategies import label_pairs

import chanceclust as cc
from chanceclust._registry import MEASURES
from chanceclust.significance import null_distribution

AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")
MODELS = ("perm", "num", "all")


# --------------------------------------------------------------------------- scikit-learn


def _degenerate(a, b, method):
    """Ensembles where E[MI] = s_max: scikit-learn returns rounding noise there (see
    test_sklearn_agreement.py), we return the documented convention."""
    k_true, k_pred, n = len(set(a.tolist())), len(set(b.tolist())), len(a)
    return n in (k_true, k_pred) and min(k_true, k_pred) > 1 and method in ("min", "geometric")


@settings(max_examples=30)
@given(label_pairs(min_n=1, max_n=60, max_clusters=12))
def test_perm_equals_scikit_learn(pair):
    a, b = pair
    assert cc.rand_index(a, b) == pytest.approx(metrics.rand_score(a, b), abs=1e-15)
    assert cc.adjusted_rand_index(a, b) == pytest.approx(
        metrics.adjusted_rand_score(a, b), rel=1e-14, abs=1e-15
    )
    assert cc.fowlkes_mallows_index(a, b) == pytest.approx(
        metrics.fowlkes_mallows_score(a, b), rel=1e-14, abs=1e-15
    )
    assert cc.mutual_information(a, b) == pytest.approx(
        metrics.mutual_info_score(a, b), rel=1e-12, abs=1e-13
    )
    for method in AVERAGE_METHODS:
        assert cc.normalized_mutual_information(a, b, average_method=method) == pytest.approx(
            metrics.normalized_mutual_info_score(a, b, average_method=method), abs=1e-12
        )
        if not _degenerate(a, b, method):
            assert cc.adjusted_mutual_information(a, b, average_method=method) == pytest.approx(
                metrics.adjusted_mutual_info_score(a, b, average_method=method), abs=1e-9
            )


# --------------------------------------------------------------------------- enumeration


@functools.cache
def _partitions(n, k=None):
    parts = list(set_partitions(n))
    return parts if k is None else [p for p in parts if len(set(p)) == k]


def _ensemble(labels, model):
    """The equally likely clusterings of a random model, given the observed one."""
    n = len(labels)
    if model == "perm":
        return sorted(set(itertools.permutations(labels)))  # distinct arrangements
    if model == "num":
        return _partitions(n, len(set(labels)))
    return _partitions(n)


def _rand(a, b):
    """Exact Rand index by counting pairs (1 for N < 2)."""
    n = len(a)
    if n < 2:
        return Fraction(1)
    agree = sum((a[i] == a[j]) == (b[i] == b[j]) for i, j in itertools.combinations(range(n), 2))
    return Fraction(agree, n * (n - 1) // 2)


def _mutual_information(a, b):
    n = len(a)
    cells, rows, cols = {}, {}, {}
    for x, y in zip(a, b, strict=True):
        cells[x, y] = cells.get((x, y), 0) + 1
        rows[x] = rows.get(x, 0) + 1
        cols[y] = cols.get(y, 0) + 1
    return math.fsum(c / n * math.log(n * c / (rows[x] * cols[y])) for (x, y), c in cells.items())


def _enumerated(a, b, model, one_sided, measure):
    """Average of measure(A', B') over the model's ensemble (A' = a when one-sided or perm)."""
    fixed = one_sided or model == "perm"  # perm: the table's law is the same with A fixed
    side_a = [tuple(a)] if fixed else _ensemble(tuple(a), model)
    side_b = _ensemble(tuple(b), model)
    values = [measure(x, y) for x in side_a for y in side_b]
    if isinstance(values[0], Fraction):
        return sum(values, Fraction(0)) / len(values)
    return math.fsum(values) / len(values)


@pytest.mark.parametrize("one_sided", [False, True], ids=["two", "one"])
@pytest.mark.parametrize("model", MODELS)
@settings(max_examples=15)
@given(data=st.data())
def test_expectations_equal_enumeration(model, one_sided, data):
    # Two-sided num/all enumerate both sides (877^2 pairs at N = 7): N <= 5 there.
    max_n = 5 if model != "perm" and not one_sided else 7
    a, b = data.draw(label_pairs(min_n=1, max_n=max_n, max_clusters=4))
    a, b = a.tolist(), b.tolist()
    expected_ri = _enumerated(a, b, model, one_sided, _rand)
    assert cc.expected_rand_index(a, b, model=model, one_sided=one_sided) == pytest.approx(
        float(expected_ri), rel=1e-12, abs=1e-15
    )
    expected_mi = _enumerated(a, b, model, one_sided, _mutual_information)
    atol = 1e-14 * max(1.0, math.log(len(a)))
    assert cc.expected_mutual_information(a, b, model=model, one_sided=one_sided) == (
        pytest.approx(expected_mi, rel=1e-12, abs=atol)
    )


def test_enumeration_helpers_are_right():
    assert len(_partitions(7)) == 877  # Bell(7)
    assert len(_partitions(7, 3)) == 301  # S(7, 3)
    assert len(_ensemble((0, 0, 1), "perm")) == 3
    assert _rand([0, 0, 1, 1], [0, 0, 1, 2]) == Fraction(5, 6)


# --------------------------------------------------------------------------- bounds


@settings(max_examples=20)
@given(label_pairs(min_n=1, max_n=40, max_clusters=10), st.sampled_from(MODELS), st.booleans())
def test_bounds_on_valid_input(pair, model, one_sided):
    a, b = pair
    kw = {"model": model, "one_sided": one_sided}
    assert cc.adjusted_rand_index(a, b, **kw) <= 1.0
    for method in AVERAGE_METHODS:
        ami = cc.adjusted_mutual_information(a, b, average_method=method, **kw)
        nmi = cc.normalized_mutual_information(a, b, average_method=method)
        assert math.isfinite(ami)
        assert ami <= 1.0
        assert 0.0 <= nmi <= 1.0
    for value in (
        cc.expected_rand_index(a, b, **kw),
        cc.expected_mutual_information(a, b, **kw),
        cc.rand_index_variance(a, b, **kw),
    ):
        assert math.isfinite(value)
        assert value >= 0.0


@settings(max_examples=10)
@given(label_pairs(min_n=2, max_n=30, max_clusters=6), st.sampled_from(MODELS), st.booleans())
def test_null_samples_in_range(pair, model, one_sided):
    a, b = pair
    for name in MEASURES:
        null = null_distribution(name, a, b, model=model, one_sided=one_sided, n_resamples=20, rng=0)
        assert np.all(np.isfinite(null)), name
        if name in ("ri", "nmi", "fmi", "jaccard"):
            assert np.all((null >= 0.0) & (null <= 1.0)), name
        elif name in ("ari", "ami"):
            assert np.all(null <= 1.0), name
        elif name in ("sri", "smi"):  # z-scores: any real number
            continue
        else:
            assert np.all(null >= 0.0), name
