"""One formula per measure: the null samples of significance.py and the single-pair functions agree.

The batched evaluators of :mod:`chanceclust.significance` call the same
vectorized formula functions as :mod:`chanceclust.measures` and
:mod:`chanceclust.adjusted`. Each test compares, for every named measure,
model and sidedness, the value of a batch row with the public function on the
same pair: exactly (``==``) on identical partitions and degenerate tables,
where each formula has a rule (1.0, 0.0, clamping), and to rounding elsewhere
(the cells may be summed in another order).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import chanceclust as cc
from chanceclust._registry import MEASURES
from chanceclust._validation import check_labels, check_setting
from chanceclust.contingency import _table_from_codes
from chanceclust.significance import (
    _batch_tables,
    null_distribution,
    significance_test,
)

MODELS = ("perm", "num", "all")


def _single(name, model, one_sided):
    """The public single-pair function of a named measure, with significance.py's options."""
    measure = MEASURES[name]
    if measure.uses_model:
        return functools.partial(measure.function, model=model, one_sided=one_sided)
    return measure.function


def _batched(name, model, one_sided, labels_true, preds):
    """Values of the batch evaluator on (labels_true, preds[i]) for every row i.

    Every row is a permutation of the first, so the model's constants (sizes,
    K, N) that the evaluator takes from the observed table hold for all rows.
    """
    codes_true, k_true = check_labels(labels_true)
    codes_pred, k_pred = check_labels(preds[0])
    table = _table_from_codes(codes_true, k_true, codes_pred, k_pred)
    sides = check_setting(model, one_sided).sides_of_table(table)
    evaluate = MEASURES[name].batch(table, sides, "arithmetic")
    rows = np.stack([check_labels(p)[0] for p in preds]).astype(np.int64)
    return evaluate(_batch_tables(codes_true.astype(np.int64)[None], rows))


def _variants():
    for name in MEASURES:
        if name in ("sri", "smi"):
            # The z-scores: the batch standardizes RI and MI in floats with the observed
            # table's E and sd, the single calls centre exactly (rationals for RI); they
            # agree to 1e-12 (test_significance.test_batched_values_equal_library_functions).
            continue
        for model in MODELS if name in ("ari", "ami") else ("perm",):
            for one_sided in (False, True) if name in ("ari", "ami") else (False,):
                yield name, model, one_sided


VARIANTS = list(_variants())
IDS = [f"{n}-{m}-{'one' if o else 'two'}" for n, m, o in VARIANTS]

DEGENERATE = {
    "identical": ([0, 0, 0, 1, 1, 2, 2, 2, 2], [5, 5, 5, 7, 7, 1, 1, 1, 1]),
    "identical-blocks": ([0] * 10 + [1] * 10 + [2] * 10, [0] * 10 + [1] * 10 + [2] * 10),
    "one-cluster-both": ([0] * 6, [3] * 6),
    "singletons-both": (list(range(7)), list(range(7))),
    "one-vs-singletons": ([0] * 7, list(range(7))),
    "singletons-vs-one": (list(range(7)), [0] * 7),
    "one-vs-split": ([0] * 6, [0, 0, 0, 1, 1, 1]),
    "split-vs-one": ([0, 0, 1, 1, 2, 2], [0] * 6),
    "refinement": ([0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 1, 1, 2, 2, 3, 3]),
    "n1": ([0], [0]),
    "n2-apart": ([0, 1], [0, 0]),
    "n2-same": ([0, 0], [1, 1]),
}


@pytest.mark.parametrize(("name", "model", "one_sided"), VARIANTS, ids=IDS)
@pytest.mark.parametrize("case", list(DEGENERATE))
def test_batched_equals_single_exactly_on_degenerate_inputs(name, model, one_sided, case):
    labels_true, labels_pred = DEGENERATE[case]
    single = _single(name, model, one_sided)(labels_true, labels_pred)
    batched = _batched(name, model, one_sided, labels_true, [labels_pred])
    assert batched.tolist() == [single]


@pytest.mark.parametrize(("name", "model", "one_sided"), VARIANTS, ids=IDS)
def test_batched_equals_single_on_a_batch(name, model, one_sided):
    rng = np.random.default_rng(7)
    labels_true = rng.integers(0, 4, size=40)
    first = rng.integers(0, 5, size=40)
    preds = [first] + [rng.permutation(first) for _ in range(30)] + [labels_true]
    if len(set(labels_true.tolist())) != len(set(first.tolist())):
        preds.pop()  # the copy would change K_B: the model's constants would not hold
    batched = _batched(name, model, one_sided, labels_true, preds)
    single = np.array([_single(name, model, one_sided)(labels_true, p) for p in preds])
    np.testing.assert_allclose(batched, single, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize(("name", "model", "one_sided"), VARIANTS, ids=IDS)
def test_significance_statistic_is_the_single_pair_value(name, model, one_sided):
    a = [0] * 10 + [1] * 10 + [2] * 10
    for b in (a, [0] * 9 + [1] * 11 + [2] * 10):
        result = significance_test(name, a, b, model=model, one_sided=one_sided, n_resamples=3, rng=0)
        assert result.statistic == _single(name, model, one_sided)(a, b)


def test_fowlkes_mallows_of_identical_clusterings_is_one():
    # Regression: the batched copy of FMI gave 1.0000000000000002 here.
    a = [0] * 10 + [1] * 10 + [2] * 10
    assert significance_test("fmi", a, a, model="perm", n_resamples=9, rng=0).statistic == 1.0


def test_batched_values_never_exceed_bounds():
    a = [0] * 10 + [1] * 10 + [2] * 10
    for name in ("fmi", "nmi", "ri", "jaccard", "ari", "ami"):
        null = null_distribution(name, a, a, model="num", n_resamples=200, rng=1)
        assert np.all(null <= 1.0), name


def test_callable_receives_codes_for_observed_and_null_samples():
    seen = []

    def measure(x, y):
        seen.append((type(x), x.dtype, x.ndim, type(y), y.dtype, sorted(set(y.tolist()))))
        return 0.0

    a = ["x", "x", "y", "y", "z", "z"]
    b = ["p", "q", "q", "q", "r", "r"]
    significance_test(measure, a, b, model="perm", n_resamples=4, rng=0)
    assert len(seen) == 5
    assert all(s == (np.ndarray, np.int64, 1, np.ndarray, np.int64, [0, 1, 2]) for s in seen)


def test_callable_observed_statistic_uses_codes_numbered_in_sorted_order():
    result = significance_test(
        lambda x, y: float(x[0] * 10 + y[0]),
        ["b", "a"],
        ["d", "c"],
        model="perm",
        n_resamples=1,
        rng=0,
    )
    assert result.statistic == 11.0  # "b" -> 1, "d" -> 1
