"""Invariance checks looped over every public measure (scikit-learn's ``test_common.py`` spirit).

Every measure, under every model x sidedness x normalization where it has
them, is a :class:`Case` in ``CASES``; registries (``SYMMETRIC``,
``ADJUSTED``, ``BOUNDED``, ...) select cases by property, and each property
test loops over its registry. A new measure added to ``CASES`` inherits every
check.

Tolerances: values computed from the same table in a different cell order
(renamed labels, permuted elements, swapped sides) may differ by rounding
only; ``RTOL = ATOL = 1e-12`` is ~4500 ulps of 1, far below any genuine
difference (the smallest change of a pair count moves RI by 1/C(60, 2) =
5.6e-4).  Where the computation sees the same table in the same order
(input formats, ``contingency=``), results must be identical (``==``).

Cost: the ``all`` two-sided expected MI costs ~10-100 ms for N <= 60, so
those cases see only the first ``SLOW_N`` elements of each example.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import label_pairs, renamings

import chanceclust
from chanceclust import (
    adjusted_mutual_information,
    adjusted_rand_index,
    contingency_table,
    expected_mutual_information,
    expected_rand_index,
    fowlkes_mallows_index,
    jaccard_index,
    mutual_information,
    normalized_mutual_information,
    pair_counts,
    rand_index,
    variation_of_information,
)

RTOL = ATOL = 1e-12
MODELS = ("perm", "num", "all")
AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")
SLOW_N = 8
MAX_N = 24
# Each example loops over 51 cases (~0.2-0.5 s per example on a loaded 2-core
# machine), so loop properties draw 6 examples of N <= MAX_N each: across the
# ~10 loop properties that is still ~60 distinct examples per case, and the
# whole file stays well under a minute (see conftest.py for the profile).
LOOP_SETTINGS = settings(max_examples=6)


@dataclass(frozen=True)
class Case:
    """One public measure with fixed keyword options, and what is known about it."""

    name: str
    func: Callable[..., float]
    kwargs: dict[str, Any] = field(default_factory=dict)
    symmetric: bool = True
    adjusted: bool = False
    bounded: bool = False  # values in [0, 1]
    nonnegative: bool = False
    identical: float | None = None  # value for two identical partitions, if fixed
    slow: bool = False

    @property
    def id(self) -> str:
        options = ",".join(f"{k}={v}" for k, v in self.kwargs.items())
        return f"{self.name}[{options}]" if options else self.name

    def __call__(self, labels_true: Any = None, labels_pred: Any = None, **extra: Any) -> float:
        return self.func(labels_true, labels_pred, **self.kwargs, **extra)

    def clip(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The example itself, or its first SLOW_N elements for an expensive case."""
        return (a[:SLOW_N], b[:SLOW_N]) if self.slow else (a, b)


def _build_cases() -> list[Case]:
    cases = [
        Case("rand_index", rand_index, bounded=True, identical=1.0),
        Case("mutual_information", mutual_information, nonnegative=True),
        # FMI of identical partitions is 1, except 0 by convention when no
        # pair is together (all singletons): checked separately below.
        Case("fowlkes_mallows_index", fowlkes_mallows_index, bounded=True),
        Case("jaccard_index", jaccard_index, bounded=True, identical=1.0),
        Case("variation_of_information", variation_of_information, nonnegative=True, identical=0.0),
    ]
    cases += [
        Case(
            "normalized_mutual_information",
            normalized_mutual_information,
            {"average_method": m},
            bounded=True,
            identical=1.0,
        )
        for m in AVERAGE_METHODS
    ]
    for model in MODELS:
        for one_sided in (False, True):
            # One-sided measures treat labels_true as a fixed reference: not
            # symmetric, except under perm where one-sided == two-sided.
            symmetric = model == "perm" or not one_sided
            kw = {"model": model, "one_sided": one_sided}
            slow = model == "all" and not one_sided
            cases += [
                Case(
                    "adjusted_rand_index",
                    adjusted_rand_index,
                    kw,
                    symmetric=symmetric,
                    adjusted=True,
                    identical=1.0,
                ),
                Case(
                    "expected_rand_index",
                    expected_rand_index,
                    kw,
                    symmetric=symmetric,
                    bounded=True,
                ),
                Case(
                    "expected_mutual_information",
                    expected_mutual_information,
                    kw,
                    symmetric=symmetric,
                    nonnegative=True,
                    slow=slow,
                ),
            ]
            for method in AVERAGE_METHODS:
                # Identical partitions reach s_max (so AMI = 1) under perm, and
                # one-sided with the min normalization (s_max = min(H(G), bound)
                # = H(G) = MI). Elsewhere s_max is log K or log N > H: AMI < 1.
                reaches_max = model == "perm" or (one_sided and method == "min")
                cases.append(
                    Case(
                        "adjusted_mutual_information",
                        adjusted_mutual_information,
                        {**kw, "average_method": method},
                        symmetric=symmetric,
                        adjusted=True,
                        identical=1.0 if reaches_max else None,
                        slow=slow,
                    )
                )
    return cases


CASES = _build_cases()
SYMMETRIC = [c for c in CASES if c.symmetric]
ASYMMETRIC = [c for c in CASES if not c.symmetric]
ADJUSTED = [c for c in CASES if c.adjusted]
BOUNDED = [c for c in CASES if c.bounded]
NONNEGATIVE = [c for c in CASES if c.nonnegative]
IDENTICAL = [c for c in CASES if c.identical is not None]
PUBLIC_MEASURES = {
    "rand_index",
    "adjusted_rand_index",
    "mutual_information",
    "normalized_mutual_information",
    "adjusted_mutual_information",
    "fowlkes_mallows_index",
    "jaccard_index",
    "variation_of_information",
    "expected_rand_index",
    "expected_mutual_information",
}


def close(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=RTOL, abs_tol=ATOL)


def failures(cases, check) -> list[str]:
    """Run ``check(case)`` for every case; collect the ids (and detail) of those that fail."""
    bad = []
    for case in cases:
        detail = check(case)
        if detail is not None:
            bad.append(f"{case.id}: {detail}")
    return bad


# --------------------------------------------------------------------------- registry


def test_registry_covers_every_public_measure():
    """Every public measure is in CASES, with every model x sidedness x normalization."""
    assert {c.name for c in CASES} == PUBLIC_MEASURES
    assert {c.name for c in CASES} <= set(chanceclust.__all__)
    ami = [c for c in CASES if c.name == "adjusted_mutual_information"]
    assert len(ami) == len(MODELS) * 2 * len(AVERAGE_METHODS)
    assert len({c.id for c in CASES}) == len(CASES)


# --------------------------------------------------------------------------- values


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_values_are_finite_python_floats_in_range(pair):
    """Valid input gives a finite Python float; bounded measures lie in [0, 1],
    non-negative ones are >= 0 and adjusted ones never exceed 1."""
    a, b = pair

    def check(case):
        value = case(*case.clip(a, b))
        if type(value) is not float:
            return f"returned {type(value).__name__}"
        if not math.isfinite(value):
            return f"returned {value}"
        if case.bounded and not 0.0 <= value <= 1.0:
            return f"{value} outside [0, 1]"
        if case.nonnegative and value < 0.0:
            return f"{value} < 0"
        if case.adjusted and value > 1.0:
            return f"{value} > 1"
        return None

    assert failures(CASES, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_symmetric_measures(pair):
    """Two-sided measures (and perm one-sided) do not care which clustering is labels_true."""
    a, b = pair

    def check(case):
        x, y = case.clip(a, b)
        forward, backward = case(x, y), case(y, x)
        return None if close(forward, backward) else f"{forward} != {backward}"

    assert failures(SYMMETRIC, check) == []


def test_one_sided_measures_are_not_symmetric():
    """num1/all1 hold labels_true fixed: swapping the sides changes the value."""
    a, b = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]

    def check(case):
        return None if case(a, b) != case(b, a) else "symmetric on an asymmetric example"

    assert failures(ASYMMETRIC, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_perm_one_sided_equals_two_sided(pair):
    """Under perm the sizes are fixed on both sides, so one_sided changes nothing."""
    a, b = pair
    perm_one_sided = [c for c in CASES if c.kwargs.get("model") == "perm" and c.kwargs["one_sided"]]

    def check(case):
        two_sided = case.func(a, b, **{**case.kwargs, "one_sided": False})
        one_sided = case(a, b)
        return None if one_sided == two_sided else f"{one_sided} != {two_sided}"

    assert len(perm_one_sided) == 3 + len(AVERAGE_METHODS)
    assert failures(perm_one_sided, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N), st.data())
def test_invariant_under_renaming_labels(pair, data):
    """Only the partitions matter, not the label values (ints, strings, mixed)."""
    a, b = pair
    a2, b2 = data.draw(renamings(a)), data.draw(renamings(b))

    def check(case):
        x, y = case.clip(a, b)
        x2, y2 = case.clip(a2, b2)
        before, after = case(x, y), case(x2, y2)
        return None if close(before, after) else f"{before} != {after}"

    assert failures(CASES, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N), st.randoms(use_true_random=False))
def test_invariant_under_permuting_elements(pair, random):
    """Reordering the elements (the same way in both labelings) changes nothing."""
    a, b = pair
    order = list(range(len(a)))
    random.shuffle(order)

    def check(case):
        x, y = case.clip(a, b)
        keep = [i for i in order if i < len(x)]
        before, after = case(x, y), case(x[keep], y[keep])
        return None if close(before, after) else f"{before} != {after}"

    assert failures(CASES, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_identical_partitions(pair):
    """Identical partitions (relabelled) give the value MATH.md fixes: 1 for RI, NMI,
    Jaccard, ARI (every model) and AMI where s_max is reached; 0 for VI.

    Exact equality for every case, NMI and AMI included: perfect agreement is
    exactly 1.0 as in scikit-learn (users test ``== 1``; regression guard for
    the 1 - ulp values found in the first version).
    """
    a, _ = pair
    renamed = (a * 7 + 3) % 1009  # an injective renaming, not order preserving

    def check(case):
        x, y = case.clip(a, renamed)
        value = case(x, y)
        return None if value == case.identical else f"{value} != {case.identical}"

    assert failures(IDENTICAL, check) == []


@pytest.mark.parametrize(
    ("func", "labels"),
    [
        (normalized_mutual_information, [1, 3, 1, 0, 2]),
        (adjusted_mutual_information, [1, 3, 1, 0, 2]),
        (fowlkes_mallows_index, [0, 0, 1, 1]),
    ],
    ids=["NMI", "AMI", "FMI"],
)
def test_identical_partitions_exactly_one(func, labels):
    """Perfect agreement is exactly 1.0, as in scikit-learn (users test ``== 1``)."""
    assert func(labels, labels) == 1.0


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_adjusted_at_most_one_and_one_only_when_identical(pair):
    """Adjusted values never exceed 1; ARI = 1 means the partitions are the same."""
    a, b = pair

    def check(case):
        value = case(*case.clip(a, b))
        return None if value <= 1.0 else f"{value} > 1"

    assert failures(ADJUSTED, check) == []
    if adjusted_rand_index(a, b) == 1.0:
        counts = pair_counts(a, b)
        assert counts.n10 == counts.n01 == 0


def test_fowlkes_mallows_at_most_one():
    """FMI never exceeds 1 (here: identical partitions with one cluster of 3)."""
    assert fowlkes_mallows_index([0, 0, 0], [0, 0, 0]) <= 1.0


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_fowlkes_mallows_identical(pair):
    """FMI of identical partitions: exactly 1 if a pair is together, else 0 (sklearn)."""
    a, _ = pair
    has_pair = len(set(a.tolist())) < len(a)
    assert fowlkes_mallows_index(a, a) == (1.0 if has_pair else 0.0)


# --------------------------------------------------------------------------- inputs

SMALL_A = [2, 2, 0, 0, 1, 1, 1, 3]
SMALL_B = [0, 1, 1, 1, 2, 2, 0, 0]


def _formats(labels: list[int]) -> dict[str, Any]:
    """The same labeling in many containers; every one keeps the sorted order of labels."""
    strings = [f"c{v:02d}" for v in labels]
    return {
        "list": list(labels),
        "tuple": tuple(labels),
        "int64": np.asarray(labels, dtype=np.int64),
        "int8": np.asarray(labels, dtype=np.int8),
        "uint16": np.asarray(labels, dtype=np.uint16),
        "negative": np.asarray(labels) - 100,
        "large": np.asarray(labels, dtype=np.int64) * 10**15,
        "float": np.asarray(labels, dtype=np.float64),
        "str_list": strings,
        "str_array": np.asarray(strings),
        "object": np.asarray(labels, dtype=object),
        "series": pd.Series(labels),
        "series_str": pd.Series(strings),
        "series_category": pd.Series(strings, dtype="category"),
        "categorical": pd.Categorical(labels),
        "index": pd.Index(labels),
    }


@functools.cache
def _small_value(case_id: str) -> float:
    """The value of a case on SMALL_A, SMALL_B given as lists (computed once per case)."""
    case = next(c for c in CASES if c.id == case_id)
    return case(SMALL_A, SMALL_B)


@pytest.mark.parametrize("kind", list(_formats(SMALL_A)))
def test_input_formats_give_identical_results(kind):
    """Lists, tuples, numpy int/str/object arrays and pandas objects are the same labels."""
    a, b = _formats(SMALL_A)[kind], _formats(SMALL_B)[kind]

    def check(case):
        expected, got = _small_value(case.id), case(a, b)
        return None if got == expected else f"{got} != {expected}"

    assert failures(CASES, check) == []


def test_pandas_categorical_ignores_unused_categories():
    """Unused categories of a Categorical are not clusters."""
    a = pd.Categorical(["x", "y", "x", "y"], categories=["w", "x", "y", "z"])
    b = [0, 0, 1, 1]

    def check(case):
        expected, got = case([0, 1, 0, 1], b), case(a, b)
        return None if got == expected else f"{got} != {expected}"

    assert failures(CASES, check) == []


def _as_dense(table):
    return table


def _as_float(table):
    return table.astype(np.float64)


def _with_empty_clusters(table):
    """Zero rows and columns are empty clusters: no element, no effect."""
    out = np.zeros((table.shape[0] + 2, table.shape[1] + 1), dtype=np.int64)
    out[1:-1, 1:] = table
    return out


TABLE_FORMS = {
    "dense": _as_dense,
    "float": _as_float,
    "list": lambda t: t.tolist(),
    "empty_clusters": _with_empty_clusters,
    "csr_array": sp.csr_array,
    "csc_array": sp.csc_array,
    "coo_array": sp.coo_array,
    "csr_matrix": sp.csr_matrix,
    "sparse_empty_clusters": lambda t: sp.csr_array(_with_empty_clusters(t)),
}


FIXED_PAIRS = {
    "small": (SMALL_A, SMALL_B),
    "noisy_copy": ([0, 0, 0, 1, 1, 1, 2, 2, 2, 3], [0, 0, 1, 1, 1, 1, 2, 2, 3, 3]),
    "one_cluster": ([5, 5, 5, 5], [0, 1, 0, 2]),
}


@pytest.mark.parametrize(
    ("form", "pair"),
    [(form, "small") for form in TABLE_FORMS]
    + [("csr_array", "noisy_copy"), ("empty_clusters", "one_cluster")],
)
def test_contingency_argument_forms_equal_labels(form, pair):
    """contingency= (dense, float, list, sparse, with empty clusters) gives the labels' value."""
    a, b = FIXED_PAIRS[pair]
    table = TABLE_FORMS[form](contingency_table(a, b))

    def check(case):
        expected = _small_value(case.id) if pair == "small" else case(a, b)
        got = case(contingency=table)
        return None if got == expected else f"{got} != {expected}"

    assert failures(CASES, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_contingency_argument_equals_labels(pair):
    """contingency=contingency_table(a, b) gives exactly the value of the labels."""
    a, b = pair

    def check(case):
        x, y = case.clip(a, b)
        expected, got = case(x, y), case(contingency=contingency_table(x, y))
        return None if got == expected else f"{got} != {expected}"

    assert failures(CASES, check) == []


@LOOP_SETTINGS
@given(label_pairs(max_n=MAX_N))
def test_transposed_contingency_swaps_sides(pair):
    """The transposed table is the comparison with labels_true and labels_pred swapped."""
    a, b = pair

    def check(case):
        x, y = case.clip(a, b)
        expected = case(y, x)
        got = case(contingency=contingency_table(x, y).T)
        return None if close(got, expected) else f"{got} != {expected}"

    assert failures(CASES, check) == []


# --------------------------------------------------------------------------- empty, N = 1


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
@pytest.mark.parametrize("labels", [[7], [0, 0], [0, 1]], ids=["one", "pair_same", "pair_apart"])
def test_tiny_inputs_give_finite_floats(case, labels):
    """N = 1 and N = 2 are valid input: a finite Python float, never an exception."""
    for b in ([0] * len(labels), list(range(len(labels))), labels):
        value = case(labels, b)
        assert type(value) is float
        assert math.isfinite(value)


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c.id) for c in CASES],
)
def test_empty_input_gives_finite_float(case):
    """N = 0 is valid (scikit-learn's conventions): a finite Python float, never an exception."""
    value = case([], [])
    assert type(value) is float
    assert math.isfinite(value)
    if case.identical is not None or case.adjusted:
        # Empty = both clusterings trivially identical: perfect agreement.
        assert value == (case.identical if case.identical is not None else 1.0)
