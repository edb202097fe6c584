"""Raw measures (RI, FMI, Jaccard, entropy, MI, NMI, VI) against hand-derived values,
mpmath evaluations at 50 digits and scikit-learn's conventions.

Tolerances: ``eps`` = 2.2e-16. Values derived by hand are compared at
``rtol=4 * eps`` (a handful of roundings in a short formula) or exactly when
the library promises exact integer arithmetic followed by one division. The
accuracy claims of mutual_information and variation_of_information (relative
error ~1e-15 even when the value is tiny next to the entropies) are checked
at ``rtol=1e-13`` against mpmath at 50 digits, where the textbook formula
H(A) + H(B) - H(A,B) would be wrong in every digit.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from sklearn import metrics as skm
from strategies import label_pairs, labelings

import chanceclust as cc
from chanceclust import (
    adjusted_mutual_information,
    adjusted_rand_index,
    contingency_table,
    entropy,
    fowlkes_mallows_index,
    jaccard_index,
    mutual_information,
    normalized_mutual_information,
    rand_index,
    variation_of_information,
)

EPS = np.finfo(float).eps
HAND_RTOL = 4 * EPS
MP_RTOL = 1e-13
LOG2, LOG3 = math.log(2), math.log(3)


def mp_table_measures(table) -> dict[str, mpmath.mpf]:
    """H(A), H(B), H(A,B), MI, VI of a table from the definitions, at 50 digits."""
    with mpmath.workdps(50):
        t = [[mpmath.mpf(int(x)) for x in row] for row in np.asarray(table)]
        n = sum(sum(row) for row in t)
        rows = [sum(row) for row in t]
        cols = [sum(col) for col in zip(*t, strict=False)]

        def h(values):
            return -sum((v / n) * mpmath.log(v / n) for v in values if v > 0)

        cells = [x for row in t for x in row]
        h_a, h_b, h_ab = h(rows), h(cols), h(cells)
        mi = sum(
            (x / n) * mpmath.log(n * x / (rows[i] * cols[j]))
            for i, row in enumerate(t)
            for j, x in enumerate(row)
            if x > 0
        )
        vi = sum(
            (x / n) * (mpmath.log(rows[i] / x) + mpmath.log(cols[j] / x))
            for i, row in enumerate(t)
            for j, x in enumerate(row)
            if x > 0
        )
        # VI = H(A|B) + H(B|A) = 2 H(A,B) - H(A) - H(B): the oracle checks itself
        assert abs(vi - (2 * h_ab - h_a - h_b)) < mpmath.mpf(10) ** -40
        assert abs(mi - (h_a + h_b - h_ab)) < mpmath.mpf(10) ** -40
        return {"h_a": h_a, "h_b": h_b, "h_ab": h_ab, "mi": mi, "vi": vi}


# --------------------------------------------------------------------------- hand values

# A = {0,1,2}{3,4,5}, B = {0,1}{2,3}{4,5}: table [[2, 1, 0], [0, 1, 2]].
# Pairs: N11 = C(2,2) + C(2,2) = 2; Q(A) = 3 + 3 = 6 -> N10 = 4; Q(B) = 1 + 1 + 1 = 3
# -> N01 = 1; C(6,2) = 15 -> N00 = 15 - 2 - 4 - 1 = 8.
# Entropies: H(A) = log 2, H(B) = log 3, H(A,B) = (2/3) log 3 + (1/3) log 6.
# MI = H(A) + H(B) - H(A,B) = (2/3) log 2.
# H(A|B) = (2/6) log 2 (only B1 = {2,3} is split, evenly);
# H(B|A) = log 3 - (2/3) log 2 (each A cluster splits 2 + 1) -> VI = log 3 - (1/3) log 2.
A6 = [0, 0, 0, 1, 1, 1]
B6 = [0, 0, 1, 1, 2, 2]


def test_rand_index_by_hand():
    """RI = (N11 + N00) / C(N,2) = (2 + 8) / 15: exact integers, one division."""
    assert rand_index(A6, B6) == 10 / 15


def test_fowlkes_mallows_by_hand():
    """FMI = N11 / sqrt((N11 + N10)(N11 + N01)) = 2 / sqrt(6 * 3) = sqrt(2) / 3."""
    assert fowlkes_mallows_index(A6, B6) == pytest.approx(math.sqrt(2) / 3, rel=HAND_RTOL)


def test_jaccard_by_hand():
    """Jaccard = N11 / (N11 + N10 + N01) = 2 / 7."""
    assert jaccard_index(A6, B6) == 2 / 7


def test_entropy_mi_vi_by_hand():
    """H(A) = log 2, H(B) = log 3, MI = (2/3) log 2, VI = log 3 - (1/3) log 2."""
    assert entropy(A6) == pytest.approx(LOG2, rel=HAND_RTOL)
    assert entropy(B6) == pytest.approx(LOG3, rel=HAND_RTOL)
    assert mutual_information(A6, B6) == pytest.approx(2 / 3 * LOG2, rel=HAND_RTOL)
    assert variation_of_information(A6, B6) == pytest.approx(LOG3 - LOG2 / 3, rel=HAND_RTOL)
    # VI = H(A|B) + H(B|A), the two conditional entropies derived above
    assert variation_of_information(A6, B6) == pytest.approx(
        LOG2 / 3 + (LOG3 - 2 / 3 * LOG2), rel=HAND_RTOL
    )


@pytest.mark.parametrize(
    ("method", "denominator"),
    [
        ("min", LOG2),
        ("geometric", math.sqrt(LOG2 * LOG3)),
        ("arithmetic", (LOG2 + LOG3) / 2),
        ("max", LOG3),
        ("sqrt", math.sqrt(LOG2 * LOG3)),
        ("sum", (LOG2 + LOG3) / 2),
    ],
)
def test_normalized_mutual_information_by_hand(method, denominator):
    """NMI = (2/3) log 2 / f(log 2, log 3) for each normalization f."""
    value = normalized_mutual_information(A6, B6, average_method=method)
    assert value == pytest.approx(2 / 3 * LOG2 / denominator, rel=HAND_RTOL)


def test_second_example_by_hand():
    """A = {0..4}{5,6,7}{8,9}, B = {0,1,2}{3..6}{7,8,9}: N11 = 6, N10 = 8, N01 = 6, N00 = 25
    (derived in test_contingency.test_pair_counts_by_hand)."""
    a = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2]
    b = [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]
    assert rand_index(a, b) == 31 / 45
    assert jaccard_index(a, b) == 6 / 20
    assert fowlkes_mallows_index(a, b) == pytest.approx(6 / math.sqrt(14 * 12), rel=HAND_RTOL)
    # ARI = 2 (6*25 - 8*6) / (14*33 + 12*31) = 204 / 834
    assert adjusted_rand_index(a, b) == 204 / 834


# --------------------------------------------------------------------------- entropy


@pytest.mark.parametrize(
    "sizes",
    [[1, 2, 3], [5], [1] * 7, [2, 2, 2, 2], [1, 10, 100, 1000], [999_999, 1]],
    ids=["1-2-3", "one", "singletons", "uniform4", "geometric", "nearly_one"],
)
def test_entropy_of_known_sizes(sizes):
    """H = -sum (a/N) log(a/N), against mpmath (including a size close to N: log1p)."""
    labels = np.repeat(np.arange(len(sizes)), sizes)
    with mpmath.workdps(50):
        n = sum(sizes)
        expected = -sum(mpmath.mpf(a) / n * mpmath.log(mpmath.mpf(a) / n) for a in sizes)
    assert entropy(labels) == pytest.approx(float(expected), rel=MP_RTOL, abs=0.0)
    assert type(entropy(labels)) is float


def test_entropy_uniform_is_log_k():
    """K equal clusters: H = log K."""
    for k in (2, 3, 10, 64):
        assert entropy(np.repeat(np.arange(k), 5)) == pytest.approx(math.log(k), rel=HAND_RTOL)


def test_entropy_conventions():
    """An empty sum is 0 (scikit-learn's entropy gives 1.0 for empty input; we do not)."""
    assert entropy([]) == 0.0
    assert entropy([4, 4, 4]) == 0.0


def test_entropy_single_cluster_is_positive_zero():
    """H of one cluster is +0.0, not -0.0 (it shows in printed tables)."""
    assert math.copysign(1.0, entropy([4, 4, 4])) == 1.0


# --------------------------------------------------------------------------- identities


@given(label_pairs(max_n=30))
def test_information_measures_equal_definitions(pair):
    """MI, VI, NMI against the definitions at 50 digits, on random small clusterings."""
    a, b = pair
    ref = mp_table_measures(contingency_table(a, b))
    atol = 4 * EPS * max(1.0, math.log(len(a)))  # sums of O(log N) terms: absolute error
    assert mutual_information(a, b) == pytest.approx(float(ref["mi"]), rel=MP_RTOL, abs=atol)
    assert variation_of_information(a, b) == pytest.approx(float(ref["vi"]), rel=MP_RTOL, abs=atol)
    assert entropy(a) == pytest.approx(float(ref["h_a"]), rel=MP_RTOL, abs=atol)
    if ref["mi"] > 1e-9 and ref["h_a"] > 0 and ref["h_b"] > 0:
        nmi = ref["mi"] / ((ref["h_a"] + ref["h_b"]) / 2)
        assert normalized_mutual_information(a, b) == pytest.approx(float(nmi), rel=1e-12)


@given(labelings(max_n=30), labelings(max_n=30), labelings(max_n=30))
def test_variation_of_information_is_a_metric(x, y, z):
    """VI >= 0, VI(A, A) = 0 and the triangle inequality (Meila 2007), VI <= log N."""
    n = min(len(x), len(y), len(z))
    x, y, z = x[:n], y[:n], z[:n]
    xy, yz, xz = (
        variation_of_information(x, y),
        variation_of_information(y, z),
        variation_of_information(x, z),
    )
    assert variation_of_information(x, x) == 0.0
    assert min(xy, yz, xz) >= 0.0
    assert xz <= xy + yz + 1e-14
    assert xy <= math.log(n) + 1e-14 if n > 1 else xy == 0.0


@given(label_pairs(max_n=40))
def test_mi_bounded_by_entropies(pair):
    """0 <= MI <= min(H(A), H(B)) (to rounding); NMI in [0, 1]."""
    a, b = pair
    mi = mutual_information(a, b)
    assert 0.0 <= mi <= min(entropy(a), entropy(b)) * (1 + 1e-14) + 1e-15
    for method in ("min", "geometric", "arithmetic", "max"):
        assert 0.0 <= normalized_mutual_information(a, b, average_method=method) <= 1.0


def test_exactly_independent_table_has_zero_mi():
    """n_ij = a_i b_j / N in every cell: MI = 0.0 exactly, NMI 0.0, VI = H(A) + H(B)."""
    table = np.array([[10, 20, 30], [30, 60, 90]])
    assert mutual_information(contingency=table) == 0.0
    assert normalized_mutual_information(contingency=table) == 0.0
    h_a = -(1 / 4 * math.log(1 / 4) + 3 / 4 * math.log(3 / 4))
    h_b = -(1 / 6 * math.log(1 / 6) + 1 / 3 * math.log(1 / 3) + 1 / 2 * math.log(1 / 2))
    assert variation_of_information(contingency=table) == pytest.approx(h_a + h_b, rel=HAND_RTOL)


# --------------------------------------------------------------------------- accuracy


def _near_independent_table() -> np.ndarray:
    """N = 10^8, an exactly independent table with one 2 x 2 swap of a single element:
    MI ~ 1e-14 while H(A), H(B) ~ 1, so H(A) + H(B) - H(A,B) has no correct digit."""
    rows = np.array([20_000_000, 30_000_000, 50_000_000], dtype=np.int64)
    cols = np.array([10_000_000, 40_000_000, 50_000_000], dtype=np.int64)
    table = rows[:, None] * cols[None, :] // 10**8
    assert table.sum() == 10**8
    assert np.all(rows[:, None] * cols[None, :] % 10**8 == 0)
    table[0, 0] += 1
    table[0, 1] -= 1
    table[1, 0] -= 1
    table[1, 1] += 1
    return table


def test_mutual_information_tiny_relative_to_entropies():
    """The documented accuracy: MI to rtol 1e-13 when MI / H ~ 1e-14."""
    table = _near_independent_table()
    ref = mp_table_measures(table)
    assert 0 < ref["mi"] < 1e-13 * ref["h_a"]  # the hard regime indeed
    value = mutual_information(contingency=table)
    assert value == pytest.approx(float(ref["mi"]), rel=MP_RTOL, abs=0.0)
    # the textbook formula in doubles is useless here (documents why the test exists)
    naive = entropy_of(table.sum(1)) + entropy_of(table.sum(0)) - entropy_of(table.ravel())
    assert abs(naive - float(ref["mi"])) > 10 * MP_RTOL * float(ref["mi"])


def entropy_of(counts) -> float:
    p = np.asarray(counts, dtype=float)
    p = p[p > 0] / p.sum()
    return float(-np.sum(p * np.log(p)))


def test_mutual_information_sampled_large_table():
    """A multinomial 6 x 7 table with N = 10^7 (MI ~ 2e-6): rtol 1e-13 against mpmath."""
    rng = np.random.default_rng(12345)
    p = np.outer(rng.dirichlet(np.ones(6)), rng.dirichlet(np.ones(7)))
    table = rng.multinomial(10**7, p.ravel()).reshape(6, 7)
    ref = mp_table_measures(table)
    assert mutual_information(contingency=table) == pytest.approx(
        float(ref["mi"]), rel=MP_RTOL, abs=0.0
    )


def test_variation_of_information_near_identical():
    """Two off-diagonal elements among N = 10^8: VI ~ 7e-7 while H ~ log 4, to rtol 1e-13."""
    table = np.diag(np.array([25_000_000, 25_000_000, 25_000_000, 24_999_998], dtype=np.int64))
    table[0, 1] = 1
    table[2, 3] = 1
    ref = mp_table_measures(table)
    assert ref["vi"] < 1e-6 * ref["h_a"]
    assert variation_of_information(contingency=table) == pytest.approx(
        float(ref["vi"]), rel=MP_RTOL, abs=0.0
    )


def test_mutual_information_near_identical_large():
    """MI of near-identical partitions is ~H: also accurate (no catastrophic cancellation)."""
    table = np.diag(np.array([25_000_000, 25_000_000, 25_000_000, 24_999_998], dtype=np.int64))
    table[0, 1] = 1
    table[2, 3] = 1
    ref = mp_table_measures(table)
    assert mutual_information(contingency=table) == pytest.approx(
        float(ref["mi"]), rel=MP_RTOL, abs=0.0
    )


# --------------------------------------------------------------------------- conventions

SKLEARN = {
    "rand": (rand_index, skm.rand_score),
    "ari": (adjusted_rand_index, skm.adjusted_rand_score),
    "nmi": (normalized_mutual_information, skm.normalized_mutual_info_score),
    "ami": (adjusted_mutual_information, skm.adjusted_mutual_info_score),
    "fmi": (fowlkes_mallows_index, skm.fowlkes_mallows_score),
}


def test_empty_input_conventions():
    """Empty input: RI, ARI, NMI, AMI 1.0 and FMI 0.0, as scikit-learn; MI, VI 0; Jaccard 1."""
    assert [SKLEARN[k][0]([], []) for k in ("rand", "ari", "nmi", "ami", "fmi")] == [
        1.0,
        1.0,
        1.0,
        1.0,
        0.0,
    ]
    assert mutual_information([], []) == 0.0
    assert variation_of_information([], []) == 0.0
    assert jaccard_index([], []) == 1.0


@pytest.mark.parametrize("name", list(SKLEARN))
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([], []),
        ([0], [0]),
        ([3], ["x"]),
        ([0, 0], [0, 0]),
        ([0, 1], [0, 1]),
        ([0, 1], [0, 0]),
        ([0, 0, 0], [0, 1, 2]),
        ([0, 1, 2], [0, 1, 2]),
        ([0, 0, 0, 0], [0, 0, 0, 0]),
    ],
)
def test_degenerate_conventions_match_sklearn(name, a, b):
    """N <= 4 trivial or all-singleton clusterings: the same value as scikit-learn."""
    ours, theirs = SKLEARN[name]
    assert ours(a, b) == pytest.approx(theirs(a, b), abs=1e-15)


def test_nmi_single_cluster_conventions():
    """NMI: both sides one cluster -> 1.0; one side one cluster (MI = 0) -> 0.0."""
    assert normalized_mutual_information([1, 1, 1], ["a", "a", "a"]) == 1.0
    assert normalized_mutual_information([1, 1, 1], [0, 1, 1]) == 0.0
    assert normalized_mutual_information([0, 1, 1], [1, 1, 1]) == 0.0


def test_fmi_all_singletons_is_zero():
    """FMI = 0 when no pair is together in both (scikit-learn), even for identical partitions."""
    assert fowlkes_mallows_index([0, 1, 2, 3], [3, 2, 1, 0]) == 0.0
    assert jaccard_index([0, 1, 2, 3], [3, 2, 1, 0]) == 1.0


# base= (issue 37): MI, VI and H in bits or bans are the nats divided by log(base), and H
# in any base is SciPy's entropy of the cluster sizes.
@pytest.mark.parametrize("base", [2, 10, 2.5])
def test_base_gives_the_units_of_that_logarithm(base):
    import scipy.stats

    rng = np.random.default_rng(37)
    a, b = rng.integers(0, 4, 200), rng.integers(0, 6, 200)
    assert cc.entropy(a, base=base) == pytest.approx(
        scipy.stats.entropy(np.bincount(a), base=base), rel=1e-14
    )
    for f in (cc.mutual_information, cc.variation_of_information):
        assert f(a, b, base=base) == pytest.approx(f(a, b) / np.log(base), rel=1e-15)
    assert cc.mutual_information(a, b, base=None) == cc.mutual_information(a, b)


@pytest.mark.parametrize("base", [0, 1, -2, 1.0, float("nan"), float("inf"), "2", True])
def test_base_refuses_what_is_not_a_logarithm_base(base):
    with pytest.raises(cc.InvalidInputError, match="`base`"):
        cc.mutual_information([0, 1], [0, 1], base=base)


@pytest.mark.parametrize("beta", [-1, float("nan"), "1", None])
def test_beta_refuses_what_is_not_a_weight(beta):
    with pytest.raises(cc.InvalidInputError, match="`beta`"):
        cc.v_measure([0, 1], [0, 1], beta=beta)


def test_homogeneity_and_completeness_are_one_side_nmi_and_swap():
    rng = np.random.default_rng(38)
    a, b = rng.integers(0, 4, 300), rng.integers(0, 9, 300)
    assert cc.homogeneity(a, b) == pytest.approx(
        cc.normalized_mutual_information(a, b, average_method="true"), rel=1e-15
    )
    assert cc.completeness(a, b) == cc.homogeneity(b, a)
    assert cc.v_measure(a, b) == pytest.approx(cc.normalized_mutual_information(a, b), rel=1e-14)
    assert cc.pair_confusion_matrix(a, b).sum() == 300 * 299
