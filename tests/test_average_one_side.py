"""``average_method="true"`` / ``"pred"`` (#11): NMI and AMI normalized by one side only.

s_max is the largest value of that side's entropy in the random model (perm H, num log K,
all log N; a one-sided reference keeps H(G)). Checked against brute force: E[MI] by
enumerating every clustering of the ensemble (N <= 7), MI and H straight from the counts.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import numpy as np
import pytest
from reference._exact import set_partitions
from strategies import ensemble_members

from chanceclust import adjusted_mutual_information, compare, normalized_mutual_information


def mi_matrix(side_a, side_b, n):
    """MI (nats) of every pair (row of side_a, row of side_b), vectorized over pairs."""
    a = np.eye(n)[np.asarray(side_a)]  # (m, N, K) one-hot
    b = np.eye(n)[np.asarray(side_b)]
    joint = np.einsum("ink,jnl->ijkl", a, b)
    ra, rb = a.sum(axis=1), b.sum(axis=1)
    outer = ra[:, None, :, None] * rb[None, :, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint / n * np.log(n * joint / outer), 0.0)
    return terms.sum(axis=(2, 3))


@cache
def enumerated_expected_mi(labels_true, labels_pred, model, one_sided):
    """E[MI] as the mean MI over every pair of clusterings of the ensemble (rows in chunks)."""
    n = len(labels_true)
    parts = list(set_partitions(n))
    side_a = [labels_true] if one_sided else ensemble_members(labels_true, model, parts)
    side_b = ensemble_members(labels_pred, model, parts)
    total = sum(
        float(mi_matrix(side_a[i : i + 64], side_b, n).sum()) for i in range(0, len(side_a), 64)
    )
    return total / (len(side_a) * len(side_b))


def entropy(labels):
    n = len(labels)
    return -sum(c / n * math.log(c / n) for c in Counter(labels).values())


def bound(labels, model, fixed):
    """The largest entropy of a side in its ensemble (its own H when fixed)."""
    if model == "perm" or fixed:
        return entropy(labels)
    return math.log(len(set(labels))) if model == "num" else math.log(len(labels))


CASES = [
    ([0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]),
    ([0, 1, 1, 2, 2, 2], [0, 0, 1, 1, 1, 1]),
    ([0, 0, 1, 1, 1], [0, 1, 0, 1, 2]),
    ([0, 0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 2, 2]),  # N = 7: 877 x 877 pairs under "all"
    ([0, 0, 1, 1, 2, 3, 3], [0, 0, 0, 0, 1, 1, 1]),
]


@pytest.mark.parametrize(("labels_true", "labels_pred"), CASES)
@pytest.mark.parametrize(("model", "one_sided"), [
    ("perm", False), ("num", False), ("num", True), ("all", False), ("all", True)
])
@pytest.mark.parametrize("method", ["true", "pred"])
def test_ami_one_side_equals_enumeration(labels_true, labels_pred, model, one_sided, method):
    n = len(labels_true)
    key = (tuple(labels_true), tuple(labels_pred))
    if model == "all" and not one_sided:
        key = ((0,) * n, (0,) * n)  # both sides range over every partition: only N matters
    expected_mi = enumerated_expected_mi(*key, model, one_sided)
    mi = float(mi_matrix([labels_true], [labels_pred], n)[0, 0])
    u = bound(labels_true, model, fixed=one_sided)
    v = bound(labels_pred, model, fixed=False)
    s_max = u if method == "true" else v
    expected = (mi - expected_mi) / (s_max - expected_mi)
    got = adjusted_mutual_information(
        labels_true, labels_pred, model=model, one_sided=one_sided, average_method=method
    )
    assert got == pytest.approx(expected, rel=1e-11, abs=1e-12)


@pytest.mark.parametrize(("labels_true", "labels_pred"), CASES)
def test_nmi_one_side(labels_true, labels_pred):
    """NMI: MI / H(labels_true) or MI / H(labels_pred); 'true' of (a, b) is 'pred' of (b, a)."""
    n = len(labels_true)
    mi = float(mi_matrix([labels_true], [labels_pred], n)[0, 0])
    for method, h in (("true", entropy(labels_true)), ("pred", entropy(labels_pred))):
        got = normalized_mutual_information(labels_true, labels_pred, average_method=method)
        assert got == pytest.approx(mi / h, rel=1e-13)
    assert normalized_mutual_information(
        labels_true, labels_pred, average_method="true"
    ) == normalized_mutual_information(labels_pred, labels_true, average_method="pred")


def test_one_side_bounds_and_conventions():
    """A refinement of the reference has NMI_true exactly 1; a single-cluster side gives 0."""
    coarse, fine = [0, 0, 0, 1, 1, 1], [0, 0, 1, 2, 2, 3]
    assert normalized_mutual_information(coarse, fine, average_method="true") == 1.0
    assert normalized_mutual_information(coarse, fine, average_method="pred") < 1.0
    assert normalized_mutual_information([0, 0, 0], [0, 1, 2], average_method="true") == 0.0
    assert adjusted_mutual_information([0, 0], [0, 0], average_method="pred") == 1.0


def test_compare_rows_list_every_normalization():
    """compare() lists the four symmetric normalizations and the one-side ones (#21)."""
    result = compare([0, 0, 1, 1], [0, 0, 1, 2])
    assert {row.average_method for row in result.rows} == {
        None, "min", "geometric", "arithmetic", "max", "true", "pred"
    }
