"""The Tsallis q-entropy family: E[MI_q], AMI_q, SMI_q against enumeration, and its q = 1, 2 ties.

References: ``tests/reference/tsallis.json``, made by ``tests/reference/make_tsallis.py``
(every pair of clusterings of the two ensembles, N = 5 .. 7, 40-digit mpmath).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chanceclust as cc
from chanceclust import models
from chanceclust._expected.laws import all_law, num_law
from chanceclust._expected.tsallis import expected_entropy_q
from chanceclust.exceptions import InvalidInputError, UnsupportedError

REFERENCE = json.loads((Path(__file__).parent / "reference" / "tsallis.json").read_text())
MODEL = {"perm": models.Perm(), "num": models.Num(), "all": models.All()}
# E[MI_q] is a difference of expected entropies, each within ~1e-15 relative: 1e-10 relative
# (the bound) leaves room; the values themselves are >= 1e-2 here.
RTOL = 1e-10


def _settings(case: dict) -> list[dict]:
    """Every way to ask for a reference case's pair of models through ``model=``/``one_sided``."""
    true, pred = case["true"], case["pred"]
    out = [{"model": models.PerSide(true=MODEL[true], pred=MODEL[pred])}]
    if true == pred:
        out += [{"model": true}, {"model": MODEL[true]}]
    if true == "perm":
        out.append({"model": pred, "one_sided": True})
    return out


def _ids(case: dict) -> str:
    return f"N{len(case['labels_true'])}-{case['true']}-{case['pred']}"


def _mean(u: float, v: float, method: str) -> float:
    return {"arithmetic": (u + v) / 2, "max": max(u, v), "min": min(u, v),
            "geometric": math.sqrt(u * v), "true": u, "pred": v}[method]


@pytest.mark.parametrize("case", REFERENCE, ids=_ids)
@pytest.mark.parametrize("q", ["0.5", "1.5", "2", "3"])
def test_expected_and_adjusted_equal_enumeration(case: dict, q: str) -> None:
    """E[MI_q], MI_q and AMI_q (four normalizations) equal enumeration of every pair."""
    ref = case["values"][q]
    a, b = case["labels_true"], case["labels_pred"]
    expected, mi = float(ref["expected"]), float(ref["mi"])
    assert cc.tsallis_mutual_information(a, b, q=float(q)) == pytest.approx(mi, rel=1e-13)
    for setting in _settings(case):
        got = cc.expected_tsallis_mutual_information(a, b, q=float(q), **setting)
        assert got == pytest.approx(expected, rel=RTOL), setting
        u, v = float(ref["s_max_true"]), float(ref["s_max_pred"])
        for method in ("arithmetic", "max", "geometric", "true"):
            want = (mi - expected) / (_mean(u, v, method) - expected)
            got = cc.adjusted_tsallis_mutual_information(
                a, b, q=float(q), average_method=method, **setting
            )
            assert got == pytest.approx(want, rel=RTOL, abs=1e-12), (setting, method)


@pytest.mark.parametrize("case", REFERENCE, ids=_ids)
@pytest.mark.parametrize("q", ["0.5", "1.5", "2", "3"])
def test_smi_q_equals_enumeration(case: dict, q: str) -> None:
    """SMI_q = (MI_q - E[MI_q]) / sd[MI_q] of the enumerated null, every model on each side."""
    ref = case["values"][q]
    want = (float(ref["mi"]) - float(ref["expected"])) / math.sqrt(float(ref["variance"]))
    a, b = case["labels_true"], case["labels_pred"]
    for setting in _settings(case):
        got = cc.standardized_tsallis_mutual_information(a, b, q=float(q), **setting)
        assert got == pytest.approx(want, rel=RTOL), setting


@pytest.mark.parametrize("case", REFERENCE, ids=_ids)
def test_smi_2_equals_enumeration_under_every_model(case: dict) -> None:
    """SMI_q at q = 2 (through N00 and the exact Var[RI]) under every pair of models."""
    ref = case["values"]["2"]
    want = (float(ref["mi"]) - float(ref["expected"])) / math.sqrt(float(ref["variance"]))
    a, b = case["labels_true"], case["labels_pred"]
    for setting in _settings(case):
        got = cc.standardized_tsallis_mutual_information(a, b, q=2, **setting)
        assert got == pytest.approx(want, rel=RTOL), setting


def test_perm_variance_at_q1_is_the_mi_variance() -> None:
    """The cell-pair sums at q = 1 give the library's exact Var[MI] (another route)."""
    from chanceclust._expected.laws import all_law, fixed_law
    from chanceclust._expected.mi_variance import fixed_moments
    from chanceclust._expected.tsallis import mi_q_variance
    from chanceclust._models import AllSide, NumSide

    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 4, 120), rng.integers(0, 3, 120)
    rows, cols = fixed_moments(fixed_law(np.bincount(a))), fixed_moments(fixed_law(np.bincount(b)))
    got = mi_q_variance(120, rows, cols, 1.0)
    assert got == pytest.approx(cc.mutual_information_variance(a, b), rel=1e-12)
    # random sides (the between-sizes term too), N = 14: the library's Var[MI] under num, all
    a, b = rng.integers(0, 3, 14), rng.integers(0, 4, 14)
    for model, side_a, side_b in (("num", NumSide(14, len(set(a))), NumSide(14, len(set(b)))),
                                  ("all", AllSide(14), AllSide(14))):
        got = mi_q_variance(14, side_a.size_moments(), side_b.size_moments(), 1.0)
        assert got == pytest.approx(cc.mutual_information_variance(a, b, model=model), rel=1e-10)
    assert all_law(14) is not None


@pytest.mark.parametrize("seed", range(6))
def test_q2_under_perm_is_ari_and_sri(seed: int) -> None:
    """AMI_2 (perm, arithmetic) = ARI and SMI_2 (perm) = SRI: MI_2 is affine in RI."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 3000))
    a = rng.integers(0, int(rng.integers(2, 40)), n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(0, int(rng.integers(2, 40)), n))
    ami2 = cc.adjusted_tsallis_mutual_information(a, b, q=2)
    assert ami2 == pytest.approx(cc.adjusted_rand_index(a, b), rel=1e-12, abs=1e-14)
    smi2 = cc.standardized_tsallis_mutual_information(a, b, q=2)
    assert smi2 == pytest.approx(cc.standardized_rand_index(a, b), rel=1e-12)


@pytest.mark.parametrize("model", ["perm", "num", "all"])
@pytest.mark.parametrize("one_sided", [False, True])
def test_q1_is_shannon_bit_for_bit(model: str, one_sided: bool) -> None:
    """q = 1 gives today's MI, E[MI], AMI and SMI exactly."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 5, 200), rng.integers(0, 4, 200)
    kw = {"model": model, "one_sided": one_sided}
    assert cc.tsallis_mutual_information(a, b, q=1) == cc.mutual_information(a, b)
    assert cc.tsallis_entropy(a, 1) == cc.entropy(a)
    assert cc.expected_tsallis_mutual_information(a, b, q=1, **kw) == (
        cc.expected_mutual_information(a, b, **kw))
    for method in ("arithmetic", "max", "true"):
        assert cc.adjusted_tsallis_mutual_information(a, b, q=1, average_method=method, **kw) == (
            cc.adjusted_mutual_information(a, b, average_method=method, **kw))
    assert cc.standardized_tsallis_mutual_information(a, b, q=1, **kw) == (
        cc.standardized_mutual_information(a, b, **kw))


def test_near_one_tends_to_shannon() -> None:
    """q -> 1: E[MI_q] and AMI_q tend to the Shannon values (the expm1 form keeps accuracy)."""
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 6, 5000), rng.integers(0, 3, 5000)
    for model in ("perm", "num", "all"):
        e1 = cc.expected_mutual_information(a, b, model=model)
        eq = cc.expected_tsallis_mutual_information(a, b, q=1 + 1e-9, model=model)
        # E[MI_q] - E[MI] ~ (q - 1) H(A) H(B) <= 1e-9 log 6 log 3 ~ 2e-9 (nonadditivity)
        assert abs(eq - e1) <= 1e-8


def test_both_sides_of_stam_quadrature() -> None:
    """E[H_q] under all is smooth in N across laws.STAM_QUADRATURE_FROM (exact mixture below,
    Gauss-Hermite rule from it): third differences over N = switch - 3 .. switch + 2 are of
    order f / N^3 ~ 1e-10 f, so a jump of 1e-11 f at the switch would show."""
    from chanceclust._expected.laws import STAM_QUADRATURE_FROM as switch

    for q in (0.5, 1.5, 2.0, 3.0):
        f = np.array([expected_entropy_q(all_law(n), q) for n in range(switch - 3, switch + 3)])
        third = np.diff(f, 3)
        assert np.all(np.abs(third) <= 1e-11 * f[0]), (q, third)


def test_num_size_law_and_mixture_agree() -> None:
    """num's two laws (inclusion-exclusion mixture, small-cluster size law) give one E[H_q]."""
    from chanceclust._expected.laws import _small_cluster_size_law, _surjection_mixture

    n, k = 400, 60
    mixture, size_law = _surjection_mixture(n, k), _small_cluster_size_law(n, k)
    assert mixture is not None
    for q in (0.5, 1.5, 2.0, 3.0):
        assert expected_entropy_q(mixture, q) == pytest.approx(
            expected_entropy_q(size_law, q), rel=1e-9)
    assert num_law(n, k) is not None


@given(st.lists(st.integers(0, 4), min_size=2, max_size=40),
       st.sampled_from([0.5, 1.5, 2.0, 3.0]))
def test_identical_labelings_score_one_under_perm(labels: list[int], q: float) -> None:
    """AMI_q(A, A) = 1 under perm (s_max = H_q(A) = MI_q)."""
    assert cc.adjusted_tsallis_mutual_information(labels, labels, q=q) == 1.0


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=30),
       st.sampled_from([0.5, 1.5, 2.0, 3.0]), st.sampled_from(["perm", "num", "all"]))
def test_two_sided_is_symmetric(pairs: list, q: float, model: str) -> None:
    """Two-sided AMI_q and E[MI_q] do not depend on which clustering is labels_true."""
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    forward = cc.adjusted_tsallis_mutual_information(a, b, q=q, model=model)
    backward = cc.adjusted_tsallis_mutual_information(b, a, q=q, model=model)
    assert forward == pytest.approx(backward, rel=1e-12, abs=1e-13)


@pytest.mark.parametrize("q", [0, -1, float("nan"), float("inf"), True, "2", None])
def test_invalid_q_is_refused(q: object) -> None:
    for call in (lambda: cc.tsallis_entropy([0, 1], q),
                 lambda: cc.adjusted_tsallis_mutual_information([0, 1], [0, 1], q=q)):
        with pytest.raises(InvalidInputError, match="`q`"):
            call()


def test_inputs_validated_as_the_other_measures() -> None:
    with pytest.raises(InvalidInputError, match="model"):
        cc.adjusted_tsallis_mutual_information([0, 1], [0, 1], q=2, model="bogus")
    with pytest.raises(InvalidInputError, match="average_method"):
        cc.adjusted_tsallis_mutual_information([0, 1], [0, 1], q=2, average_method="mean")
    with pytest.raises(InvalidInputError):
        cc.tsallis_mutual_information([0, 1], [0, 1, 2], q=2)


@pytest.mark.parametrize("q", [3, 0.5])
def test_smi_refused_beyond_its_range(q: float) -> None:
    """A num side with small clusters has no slot form: the small-table route's cost bound
    refuses N = 60 in 20 clusters two-sided (N = 60 in 3 clusters, a slot mixture, is
    computed: tests/test_tsallis_large.py)."""
    a = b = np.arange(60) % 20
    with pytest.raises(UnsupportedError, match="variance of MI_q"):
        cc.standardized_tsallis_mutual_information(a, b, q=q, model="num")


def test_smi_refused_beyond_the_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two fixed sides: the SMI's bound on the windows' points (MAX_GRID_POINTS) holds."""
    from chanceclust import variance

    monkeypatch.setattr(variance, "MAX_GRID_POINTS", 10)
    with pytest.raises(UnsupportedError, match="points of hypergeometric windows"):
        cc.standardized_tsallis_mutual_information(np.arange(60) % 3, np.arange(60) % 4, q=3)


def test_cost_limit_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond MAX_WINDOW_POINTS the call is refused with the limit in the message."""
    from chanceclust import tsallis

    monkeypatch.setattr(tsallis, "MAX_WINDOW_POINTS", 1000)
    with pytest.raises(UnsupportedError, match="limit 1000"):
        cc.expected_tsallis_mutual_information(contingency=np.diag(np.arange(1, 300)), q=2)


def test_variance_limit_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond MAX_VARIANCE_POINTS a num side with no slot form (N = 5) is refused, naming the
    limit; all's sides (slot mixtures) take the slot sums, which the limit does not touch."""
    from chanceclust import tsallis

    a, b = [0, 0, 1, 1, 2], [0, 1, 0, 1, 1]
    small = cc.standardized_tsallis_mutual_information(a, b, q=3, model="all")
    monkeypatch.setattr(tsallis, "MAX_VARIANCE_POINTS", 10)
    with pytest.raises(UnsupportedError, match="limit 10 "):
        cc.standardized_tsallis_mutual_information(a, b, q=3, model="num")
    slots = cc.standardized_tsallis_mutual_information(a, b, q=3, model="all")
    assert slots == pytest.approx(small, rel=RTOL)


def test_constant_mi_has_smi_zero() -> None:
    """One side a single cluster: MI_q takes one value, SMI_q is 0.0, never NaN."""
    assert cc.standardized_tsallis_mutual_information([0] * 6, [0, 0, 1, 1, 2, 2], q=3) == 0.0


def test_degenerate_inputs() -> None:
    """N = 0 and N = 1: the AMI conventions (1.0), E = 0."""
    assert cc.expected_tsallis_mutual_information([0], [0], q=2) == 0.0
    assert cc.adjusted_tsallis_mutual_information([0], [0], q=2) == 1.0
    assert cc.tsallis_entropy([], 2) == 0.0


def test_pruned_mixture_pairs_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two mixtures: dropping pairs below 1e-22 of the largest weight (the default) equals
    summing every pair (threshold 0) to rounding."""
    from chanceclust._expected import tsallis as engine

    law = all_law(3000)
    pruned = [engine.expected_joint_entropy_q(law, law, q) for q in (0.5, 2.0)]
    monkeypatch.setattr(engine, "_NEGLIGIBLE_PAIR", 0.0)
    full = [engine.expected_joint_entropy_q(law, law, q) for q in (0.5, 2.0)]
    assert pruned == pytest.approx(full, rel=1e-14)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=60),
       st.sampled_from([0.3, 0.5, 0.9, 1.5, 2.0, 3.0, 6.0]))
def test_bounds_of_mi_q(pairs: list, q: float) -> None:
    """MI_q <= min(H_q(A), H_q(B)) for every q; MI_q >= 0 for q >= 1 (not below 1)."""
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    mi = cc.tsallis_mutual_information(a, b, q=q)
    assert mi <= min(cc.tsallis_entropy(a, q), cc.tsallis_entropy(b, q)) + 1e-12
    if q >= 1:
        assert mi >= -1e-12


def test_mi_q_can_be_negative_below_one() -> None:
    """The example of docs/math.md#math-tsallis: q = 0.5, independent labelings, N = 500."""
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 5, 500), rng.integers(0, 4, 500)
    def h(counts: np.ndarray) -> float:  # the definition, directly
        p = counts[counts > 0] / 500
        return (1 - np.sum(p**0.5)) / (0.5 - 1)

    table = np.zeros((5, 4))
    np.add.at(table, (a, b), 1)
    want = h(table.sum(1)) + h(table.sum(0)) - h(table.ravel())
    assert want < -2.4
    assert cc.tsallis_mutual_information(a, b, q=0.5) == pytest.approx(want, rel=1e-12)


def test_table_summary_gives_the_values_of_the_labels() -> None:
    """A merged TableSummary (histogram of cells) gives MI_q and AMI_q of the labels."""
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 5, 500), rng.integers(0, 4, 500)
    summary = cc.merge_tables([cc.partial_table(a[:250], b[:250]),
                               cc.partial_table(a[250:], b[250:])])
    for q in (0.5, 2.0, 3.0):
        assert cc.tsallis_mutual_information(contingency=summary, q=q) == pytest.approx(
            cc.tsallis_mutual_information(a, b, q=q), rel=1e-13)
        assert cc.adjusted_tsallis_mutual_information(contingency=summary, q=q, model="num") == (
            pytest.approx(cc.adjusted_tsallis_mutual_information(a, b, q=q, model="num"),
                          rel=1e-9))


LAWS = json.loads((Path(__file__).parent / "reference" / "tsallis_laws.json").read_text())


@pytest.mark.parametrize("case", LAWS, ids=lambda c: f"N{c['n']}-{c['setting']}")
def test_mixture_routes_equal_exact_size_laws(case: dict) -> None:
    """E[MI_q] under num and all at N = 40, 100 (slot mixtures in the library) equals the
    exact size-law sums of tests/reference/make_tsallis_laws.py."""
    n, setting = case["n"], case["setting"]
    model = setting.split()[0]
    one_sided = setting.endswith("one-sided")
    if one_sided:
        true = np.repeat(np.arange(3), case["reference"])
        k_pred = case["k_pred"]
    else:
        true = np.arange(n) % case["k_true"]
        k_pred = case["k_pred"]
    pred = np.arange(n) % k_pred
    for q, want in case["expected"].items():
        got = cc.expected_tsallis_mutual_information(true, pred, q=float(q), model=model,
                                                     one_sided=one_sided)
        # a difference of entropies: 1e-12 of the entropies' size (~1), not of the result
        assert got == pytest.approx(float(want), rel=1e-11, abs=1e-13), q
