"""The random models as values (chanceclust._models): one place where a name becomes behaviour."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import chanceclust as cc
from chanceclust import models
from chanceclust._expected.laws import all_law, num_law
from chanceclust._models import AllSide as All
from chanceclust._models import FixedSide as Fixed
from chanceclust._models import NumSide as Num
from chanceclust._models import MODELS, Setting, canonical_pair
from chanceclust._registry import MEASURES
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


# ----------------------------------------------------------------------------- model values

VALUES = {"perm": models.Perm(), "num": models.Num(), "all": models.All()}
A7, B7 = [0, 0, 1, 1, 2, 2, 2], [0, 1, 0, 1, 0, 1, 0]


def _public_with_model() -> list[str]:
    """Every public function of the package that takes ``model``."""
    return sorted(
        name for name in cc.__all__
        if inspect.isfunction(getattr(cc, name))
        and "model" in inspect.signature(getattr(cc, name)).parameters
    )


def test_the_list_of_functions_taking_model_is_complete():
    # A new public function with `model` must get its arguments in _call below.
    assert set(_public_with_model()) == set(_ARGUMENTS)


#: Arguments of each public function with `model`, given the model's name (its summaries).
_SIZES = {"perm": {"sizes": [2, 2, 3]}, "num": {"n_clusters": 3}, "all": {}}
_ARGUMENTS = {
    "adjusted_mutual_information": lambda m: ((A7, B7), {}),
    "adjusted_rand_index": lambda m: ((A7, B7), {}),
    "expected_mutual_information": lambda m: ((A7, B7), {}),
    "expected_rand_index": lambda m: ((A7, B7), {}),
    "mutual_information_variance": lambda m: ((A7, B7), {}),
    "rand_index_variance": lambda m: ((A7, B7), {}),
    "standardized_mutual_information": lambda m: ((A7, B7), {}),
    "standardized_rand_index": lambda m: ((A7, B7), {}),
    "expected_mutual_information_baseline": lambda m: (
        (7,), {"sizes_true": [2, 2, 3], "sizes_pred": [3, 4]}),
    "expected_rand_index_baseline": lambda m: (
        (7,), {"sizes_true": [2, 2, 3], "sizes_pred": [3, 4]}),
    "same_cluster_probability": lambda m: ((7,), _SIZES[m]),
    "random_clustering": lambda m: ((7,), {**_SIZES[m], "rng": 3}),
    "random_clusterings": lambda m: ((4, 7), {**_SIZES[m], "rng": 3}),
    "null_distribution": lambda m: (("ari", A7, B7), {"n_resamples": 20, "rng": 1}),
    "significance_test": lambda m: (("ami", A7, B7), {"n_resamples": 20, "rng": 1}),
    "monte_carlo_adjusted": lambda m: (("ri", A7, B7), {"n_resamples": 20, "rng": 1}),
    "pairwise": lambda m: (([A7, B7, [0] * 4 + [1] * 3],), {"measure": "ami"}),
    "expected_tsallis_mutual_information": lambda m: ((A7, B7), {"q": 1.5}),
    "adjusted_tsallis_mutual_information": lambda m: ((A7, B7), {"q": 1.5}),
    "standardized_tsallis_mutual_information": lambda m: ((A7, B7), {"q": 2}),
    "confidence_interval": lambda m: (("ari", A7, B7), {"n_resamples": 30, "rng": 1,
                                                         "method": "percentile"}),
    "paired_test": lambda m: (("ari", A7, B7, [0] * 4 + [1] * 3),
                              {"n_resamples": 30, "rng": 1, "method": "percentile"}),
}


def _same(x, y) -> bool:
    """Equal to the last bit: floats, arrays (NaN included) and results field by field."""
    if dataclasses.is_dataclass(x):
        return type(x) is type(y) and all(
            _same(getattr(x, f.name), getattr(y, f.name)) for f in dataclasses.fields(x))
    if isinstance(x, np.ndarray):
        return x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
    if isinstance(x, float) and math.isnan(x):
        return isinstance(y, float) and math.isnan(y)
    return type(x) is type(y) and x == y


@pytest.mark.parametrize("function", sorted(_ARGUMENTS))
@pytest.mark.parametrize("name", list(VALUES))
@pytest.mark.filterwarnings("ignore:The bootstrap distribution's mean:UserWarning")  # N = 7
def test_model_values_give_the_names_values_to_the_last_bit(function, name):
    args, kw = _ARGUMENTS[function](name)
    f = getattr(cc, function)
    by_name = f(*args, model=name, **kw)
    assert _same(f(*args, model=VALUES[name], **kw), by_name)
    if "one_sided" in inspect.signature(f).parameters:  # the same model on both sides
        same = models.PerSide(true=VALUES[name], pred=VALUES[name])
        assert _same(f(*args, model=same, **kw), by_name)


@pytest.mark.parametrize("measure", [m.name for m in MEASURES.values() if m.uses_model])
@pytest.mark.parametrize("name", list(VALUES))
def test_every_measure_of_the_registry_takes_model_values(measure, name):
    by_name = cc.significance_test(measure, A7, B7, model=name, n_resamples=10, rng=2)
    by_value = cc.significance_test(measure, A7, B7, model=VALUES[name], n_resamples=10, rng=2)
    assert _same(by_value, by_name)
    assert _same(cc.pairwise([A7, B7], measure=measure, model=VALUES[name]),
                 cc.pairwise([A7, B7], measure=measure, model=name))


def test_model_values_are_refused_where_they_do_not_fit():
    with pytest.raises(InvalidInputError, match="`model` must be one of 'perm'"):
        cc.expected_rand_index(A7, B7, model=42)
    with pytest.raises(InvalidInputError, match="must be a model of one clustering here: one"):
        cc.random_clustering(5, model=models.PerSide(true=models.All(), pred=models.Num()))
    with pytest.raises(InvalidInputError, match="`model.pred` must be one of"):
        cc.expected_rand_index(A7, B7, model=models.PerSide(true="num", pred="NUM"))
    with pytest.raises(InvalidInputError, match="`n_clusters_pred` is required for "
                                                "model='perm/num'"):
        cc.expected_rand_index_baseline(7, model=models.PerSide(true="perm", pred="num"),
                                        sizes_true=[3, 4])


# ----------------------------------------------------------------------------- the protocol


def test_the_sides_answer_the_protocol():
    fixed, num, every = Fixed(np.array([3, 4]), 7), Num(7, 3), All(7)
    assert [s.name for s in (fixed, num, every)] == ["perm", "num", "all"]
    assert [s.fixed_k for s in (fixed, num, every)] == [True, True, False]
    assert [s.sizes_given for s in (fixed, num, every)] == [True, False, False]
    assert [s.k for s in (fixed, num, every)] == [2, 3, None]


@pytest.mark.parametrize("k", [1, 9])
def test_num_with_k_1_or_n_has_the_moments_of_its_one_size_sequence(k):
    moments = Num(9, k).size_moments()
    fixed = Fixed(np.full(k, 9 // k, dtype=np.int64), 9).size_moments()
    for field_ in ("sizes", "once", "pairs"):
        assert np.array_equal(getattr(moments, field_), getattr(fixed, field_))
    assert moments.spread is None is fixed.spread


def test_no_module_but_models_knows_the_side_classes():
    # Code only (names, attributes, imports): the engine's map may mention them in prose.
    classes = {"FixedSide", "NumSide", "AllSide"}
    src = Path(cc.__file__).parent
    users = sorted(
        str(path.relative_to(src)) for path in src.rglob("*.py") if path.name != "_models.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if {getattr(node, "id", None), getattr(node, "attr", None), getattr(node, "name", None)}
        & classes
    )
    assert users == []


# ----------------------------------------------------------------------------- PerSide

REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "per_side_models.json").read_text(encoding="utf-8")
)["cases"]


@pytest.mark.parametrize(
    "case", REFERENCE, ids=[f"{c['n']}-{c['model_true']}-{c['model_pred']}" for c in REFERENCE]
)
def test_a_different_model_on_each_side_equals_enumeration(case):
    model = models.PerSide(true=VALUES[case["model_true"]], pred=VALUES[case["model_pred"]])
    a, b = case["labels_true"], case["labels_pred"]
    e_ri, v_ri = Fraction(case["expected_ri"]), Fraction(case["variance_ri"])
    e_mi, v_mi = float(case["expected_mi"]), float(case["variance_mi"])
    assert cc.expected_rand_index(a, b, model=model) == pytest.approx(float(e_ri), rel=1e-14)
    assert cc.rand_index_variance(a, b, model=model) == pytest.approx(float(v_ri), rel=1e-12)
    assert cc.expected_mutual_information(a, b, model=model) == pytest.approx(e_mi, rel=1e-13)
    assert cc.mutual_information_variance(a, b, model=model) == pytest.approx(v_mi, rel=1e-10)
    sri = (Fraction(case["observed_ri"]) - e_ri) / math.sqrt(v_ri)
    smi = (float(case["observed_mi"]) - e_mi) / math.sqrt(v_mi)
    assert cc.standardized_rand_index(a, b, model=model) == pytest.approx(float(sri), abs=1e-12)
    assert cc.standardized_mutual_information(a, b, model=model) == pytest.approx(smi, abs=1e-10)


@pytest.mark.parametrize("name", ["num", "all"])
def test_a_perm_side_is_a_fixed_reference(name):
    per_side = models.PerSide(true=models.Perm(), pred=VALUES[name])
    for f in (cc.expected_rand_index, cc.rand_index_variance, cc.expected_mutual_information,
              cc.mutual_information_variance):
        assert f(A7, B7, model=per_side) == pytest.approx(
            f(A7, B7, model=name, one_sided=True), rel=1e-14)


def test_pairwise_with_a_different_model_on_each_side_is_not_symmetric():
    runs = [A7, B7, [0] * 4 + [1] * 3]
    model = models.PerSide(true=models.Num(), pred=models.All())
    result = cc.pairwise(runs, measure="ami", model=model)
    for i, j in itertools.product(range(3), repeat=2):
        assert result.values[i, j] == cc.adjusted_mutual_information(runs[i], runs[j],
                                                                    model=model)
    assert result.values[0, 1] != result.values[1, 0]
    assert result.model == "num/all"
