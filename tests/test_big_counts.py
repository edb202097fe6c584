"""Counts beyond 64 bits: exact values or a clear error, never a silent drop or wrap (#10).

Tables whose cells and totals reach the int64 limit 2**63 - 1 are compared with
``tests/reference/big_tables.json`` (exact fractions and 80-digit mpmath, made by
``tests/reference/make_big_tables.py`` beside it) in every input form: Python
ints, object arrays, int64, uint64, integral floats and sparse. Totals above
the limit, cells that int64 cannot hold (uint64 >= 2**63, floats such as
1e20, Python ints) raise a ``ValueError`` that names ``contingency`` and the
limit.
"""

from __future__ import annotations

import json
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
import scipy.sparse as sp

import chanceclust as cc

REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "big_tables.json").read_text(encoding="utf-8")
)
RTOL = 1e-12


def _forms(table):
    """The table as each input form that can hold its cells exactly."""
    forms = {
        "lists": table,
        "object": np.array(table, dtype=object),
        "int64": np.array(table, dtype=np.int64),
        "uint64": np.array(table, dtype=np.uint64),
        "csr": sp.csr_array(np.array(table, dtype=np.int64)),
    }
    if all(int(float(x)) == x for row in table for x in row):  # Python ints: exact comparison
        forms["float"] = np.array(table, dtype=np.float64)
    return forms


def _close(got, expected):
    expected = mp.mpf(expected)
    if expected == 0:
        return got == 0.0
    return abs(mp.mpf(got) - expected) <= RTOL * abs(expected)


CASES = [
    (name, form, value)
    for name, ref in REFERENCE.items()
    for form, value in _forms([[int(x) for x in row] for row in ref["table"]]).items()
]


@pytest.mark.parametrize(("name", "form", "table"), CASES, ids=[f"{n}-{f}" for n, f, _ in CASES])
def test_measures_of_tables_near_the_int64_limit(name, form, table):
    ref = REFERENCE[name]
    counts = cc.pair_counts(contingency=table)
    assert [counts.n11, counts.n10, counts.n01, counts.n00] == [int(v) for v in ref["pair_counts"]]
    got = {
        "rand_index": cc.rand_index(contingency=table),
        "adjusted_rand_index_perm": cc.adjusted_rand_index(contingency=table),
        "expected_rand_index_perm": cc.expected_rand_index(contingency=table, model="perm"),
        "jaccard_index": cc.jaccard_index(contingency=table),
        "fowlkes_mallows_index": cc.fowlkes_mallows_index(contingency=table),
        "mutual_information": cc.mutual_information(contingency=table),
        "variation_of_information": cc.variation_of_information(contingency=table),
    }
    for method in ref["normalized_mutual_information"]:
        got[f"nmi-{method}"] = cc.normalized_mutual_information(
            contingency=table, average_method=method
        )
    wrong = []
    for key, value in got.items():
        expected = (
            ref["normalized_mutual_information"][key[4:]] if key.startswith("nmi-") else ref[key]
        )
        if not (isinstance(value, float) and _close(value, expected)):
            wrong.append(f"{key}: {value!r} != {expected}")
    assert wrong == []


TOO_BIG = {
    "int64-sums-overflow": np.array([[2**62, 2**62], [2**62, 5]], dtype=np.int64),
    "lists-sums-overflow": [[2**62, 2**62], [2**62, 5]],
    "uint64-cell": np.array([[2**63, 1], [0, 1]], dtype=np.uint64),
    "uint64-max": np.array([[2**64 - 1]], dtype=np.uint64),
    "float-1e20": np.array([[1e20, 1.0], [0.0, 2.0]]),
    "float-2**63": np.array([[2.0**63]]),
    "python-int-2**70": [[2**70, 1]],
    "sparse-uint64": sp.csr_array(np.array([[0, 2**63 + 5]], dtype=np.uint64)),
    "total-just-above": [[2**63 - 1, 1]],
}
TABLE_FUNCTIONS = [
    cc.pair_counts,
    cc.rand_index,
    cc.adjusted_rand_index,
    cc.jaccard_index,
    cc.fowlkes_mallows_index,
    cc.mutual_information,
    cc.normalized_mutual_information,
    cc.adjusted_mutual_information,
    cc.variation_of_information,
    cc.expected_rand_index,
    cc.expected_mutual_information,
]


@pytest.mark.parametrize("func", TABLE_FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("case", list(TOO_BIG))
def test_totals_beyond_the_limit_raise_naming_contingency_and_limit(func, case):
    with pytest.raises(ValueError, match=r"`contingency`.*2\*\*63 - 1"):
        func(contingency=TOO_BIG[case])


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([[1, 2], [3]], "rectangular"),
        ([[1, 2], [3, [4]]], "rectangular"),
        (np.array([[1, -2]], dtype=object), "got -2 at cell (0, 1)"),
        (np.array([[1, 2.5]], dtype=object), "got 2.5 at cell (0, 1)"),
        (np.array([[1, "3"]], dtype=object), "got '3' at cell (0, 1)"),
        (np.array([[True, 2]], dtype=object), "got True at cell (0, 0)"),
    ],
)
def test_malformed_tables_name_contingency(table, message):
    with pytest.raises(ValueError, match="`contingency`") as info:
        cc.rand_index(contingency=table)
    assert message in str(info.value)


def test_object_table_of_python_ints_equals_int64_table():
    table = [[3, 1, 0], [2, 5, 4]]
    assert cc.pair_counts(contingency=np.array(table, dtype=object)) == cc.pair_counts(
        contingency=np.array(table)
    )
    assert cc.adjusted_rand_index(contingency=np.array(table, dtype=object)) == (
        cc.adjusted_rand_index(contingency=table)
    )


def test_bool_table_counts_ones():
    assert cc.pair_counts(contingency=np.eye(3, dtype=bool)) == cc.pair_counts(
        contingency=np.eye(3, dtype=int)
    )
