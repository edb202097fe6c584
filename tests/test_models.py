"""The random models as values (chanceclust._models): one place where a name becomes behaviour."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import chanceclust as cc
from chanceclust._expected.laws import all_law, num_law
from chanceclust._models import MODELS, Setting, canonical_pair
from chanceclust._models import AllSide as All
from chanceclust._models import FixedSide as Fixed
from chanceclust._models import NumSide as Num
from chanceclust._validation import check_model, check_setting
from chanceclust.exceptions import InvalidInputError


def test_each_model_makes_its_side():
    sizes = np.array([4, 2])
    assert isinstance(MODELS["perm"].side(6, sizes, 2), Fixed)
    assert MODELS["perm"].side(6, sizes, 2).law.sizes.tolist() == [2, 4]
    assert MODELS["num"].side(6, sizes, 2) == Num(6, 2)
    assert MODELS["num"].side(6, None, 2).law is num_law(6, 2)
    assert MODELS["all"].side(6, sizes, 2) == All(6)
    assert MODELS["all"].side(6, None, None).law is all_law(6)


def test_a_side_knows_its_k_exactly_and_its_entropy_bound():
    k = 2**62
    assert Num(2**63 - 1, k).k == k  # no round(float(sum of weights))
    assert Num(100, 7).entropy_bound() == math.log(7)
    assert All(100).entropy_bound() == math.log(100)
    sizes = np.array([3, 1])
    h = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    assert Fixed(sizes, 4).entropy_bound() == pytest.approx(h, rel=1e-15)


def test_keys_cache_by_value_only_where_the_law_needs_no_sizes():
    assert Num(10, 3).key == Num(10, 3).key != Num(10, 4).key
    assert All(10).key == ("all", 10)
    assert Fixed(np.array([5, 5]), 10).key is None
    assert hash(Num(10, 3)) == hash(Num(10, 3))


def test_one_sided_fixes_the_reference_only():
    sizes_a, sizes_b = np.array([3, 2]), np.array([1, 1, 3])
    for name in ("perm", "num", "all"):
        true, pred = check_setting(name, True).sides(5, sizes_a, 2, sizes_b, 3)
        assert isinstance(true, Fixed)
        assert type(pred) is type(MODELS[name].side(5, sizes_b, 3))
    true, pred = check_setting("num", False).sides(5, sizes_a, 2, sizes_b, 3)
    assert (true, pred) == (Num(5, 2), Num(5, 3))


def test_sides_by_k_only_for_two_random_sides():
    assert Setting(MODELS["num"], False).sides_by_k(9, 2, 3) == (Num(9, 2), Num(9, 3))
    assert Setting(MODELS["all"], False).sides_by_k(9, 2, 3) == (All(9), All(9))
    assert Setting(MODELS["num"], True).sides_by_k(9, 2, 3) is None
    assert Setting(MODELS["perm"], False).sides_by_k(9, 2, 3) is None


def test_canonical_pair_is_an_order():
    assert canonical_pair(Num(9, 5), Num(9, 2)) == (Num(9, 2), Num(9, 5))
    assert canonical_pair(Num(9, 2), Num(9, 5)) == (Num(9, 2), Num(9, 5))
    a, b = Fixed(np.array([6, 3]), 9), Fixed(np.array([3, 3, 3]), 9)
    assert canonical_pair(a, b) == canonical_pair(b, a) == (b, a)  # fewer distinct sizes first
    mixed = (Fixed(np.array([9]), 9), Num(9, 2))
    assert canonical_pair(*mixed) == mixed  # different kinds keep their roles


@pytest.mark.parametrize(("name", "kw"), [("perm", {"sizes": [3, 2, 1]}),
                                          ("num", {"n_clusters": 3}), ("all", {})])
def test_samplers_draw_clusterings_of_the_model(name, kw):
    draws = cc.random_clusterings(200, 6, model=name, rng=0, **kw)
    ks = {len(set(row.tolist())) for row in draws}
    sizes = {tuple(sorted(np.bincount(row).tolist())) for row in draws}
    if name == "perm":
        assert sizes == {(1, 2, 3)}
    elif name == "num":
        assert ks == {3}
    else:
        assert len(ks) > 2


def test_same_cluster_probability_uses_the_side_law():
    # B_3 / B_4 = 5 / 15 and S(3, 2) / S(4, 2) = 3 / 7, exactly as fractions
    assert Fraction(cc.same_cluster_probability(4, model="all")).limit_denominator(100) == Fraction(1, 3)
    assert Fraction(cc.same_cluster_probability(4, model="num", n_clusters=2)).limit_denominator(
        100
    ) == Fraction(3, 7)


def test_the_model_name_is_parsed_once_with_the_library_message():
    assert check_model("num") is MODELS["num"]
    with pytest.raises(InvalidInputError, match="`model` must be one of 'perm', 'num', 'all'"):
        check_model("NUM")
