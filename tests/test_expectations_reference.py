"""Compare chanceclust's expectations, measures and adjusted values with an independent oracle.

The reference values in ``tests/reference/expectations.json`` are produced by
``tests/reference/make_expectations.py``, which does not import chanceclust:
for N <= 7 they are literal averages over every pair of clusterings of the
random model's ensembles (enumerated set partitions, exact rational arithmetic,
logs at 60 digits); for larger N they are MATH.md's sums evaluated with mpmath
at 60 digits from exact Stirling/Bell integers and binomials (the script
asserts that both methods agree to 1e-40 for N <= 7).  The values are stored
with 40 significant digits, so ``float(s)`` is the correctly rounded double.

Tolerances (``eps`` = 2.2e-16 is the double precision unit roundoff):

* ``RTOL = 1e-12``: every quantity here is a short sum of O(N^2) terms of
  moderate dynamic range for N <= 100; a careful double implementation is
  accurate to ~1e-14 relative, so 1e-12 leaves room for harmless reordering
  while catching any formula error (the smallest model differences in these
  cases are far larger).
* Rand-type quantities (RI, E[RI]) lie in [0, 1] and can be exactly 0
  (e.g. E[RI] for a trivial vs an all-singletons clustering), where a relative
  test is meaningless: ``ATOL_RAND = 1e-15`` (a few ulps of 1).
* Information quantities (H, MI, E[MI]) are differences of entropies bounded
  by log N (E[MI] = E[H_A] + E[H_B] - E[H_AB]), so an implementation's error
  is absolute, of order eps * log N, and E[MI] can be 0 (a side with K = 1):
  ``atol = ATOL_NAT * max(1, log N)`` with ``ATOL_NAT = 1e-14`` (~45 eps).
* Adjusted values (s - E) / (s_max - E): first-order error propagation gives
  |d adj| <= (|ds| + |dE| + |adj| (|ds_max| + |dE|)) / |s_max - E|, so the
  absolute part of the tolerance is the quantity's atol times
  2 (1 + |adj|) / |s_max - E| (the denominators are >= 2.8e-4 here; degenerate
  cases with s_max - E == 0 are not in the file).
* NMI = MI / f(H_A, H_B): the MI atol divided by the normalization.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from sweeps import sampled

REFERENCE_DIR = Path(__file__).parent / "reference"
DATA = json.loads((REFERENCE_DIR / "expectations.json").read_text())

RTOL = 1e-12
ATOL_RAND = 1e-15
ATOL_NAT = 1e-14
MODELS = ("perm", "num", "all")
SIDES = ("two_sided", "one_sided")
AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")


def atol_nats(n: int) -> float:
    return ATOL_NAT * max(1.0, math.log(n))


def assert_close(actual, expected: str, *, atol: float, what: str) -> None:
    """|actual - expected| <= RTOL |expected| + atol, expected a decimal string."""
    ref = float(expected)
    actual = float(actual)
    tol = RTOL * abs(ref) + atol
    assert math.isfinite(actual), f"{what}: got {actual!r}, expected {expected}"
    assert abs(actual - ref) <= tol, (
        f"{what}: got {actual!r}, expected {expected} "
        f"(|diff| = {abs(actual - ref):.3e} > tol {tol:.3e})"
    )


def baseline_kwargs(case: dict, model: str, side: str) -> dict:
    """The summaries each model needs (and only those).

    perm: both size sequences; num: both cluster counts (two-sided) or the
    reference's sizes and the random side's count (one-sided); all: nothing
    (two-sided) or the reference's sizes (one-sided).
    """
    one_sided = side == "one_sided"
    kw: dict = {"model": model, "one_sided": one_sided}
    st, sp = case["sizes_true"], case["sizes_pred"]
    if model == "perm":
        kw.update(sizes_true=st, sizes_pred=sp)
    elif model == "num":
        kw["n_clusters_pred"] = len(sp)
        if one_sided:
            kw["sizes_true"] = st
        else:
            kw["n_clusters_true"] = len(st)
    elif one_sided:
        kw["sizes_true"] = st
    return kw


# --------------------------------------------------------------------------
# E[RI] and E[MI] from summaries
# --------------------------------------------------------------------------
def _baseline_params() -> list:
    # One test per distinct input: e.g. two-sided `all` depends only on N, and
    # num only on the cluster counts, so the cases' repeats are dropped (this
    # also keeps the file fast; each case's expectations are still all stored).
    params, seen = [], set()
    for case in DATA["cases"]:
        for model in MODELS:
            for side in SIDES:
                kw = baseline_kwargs(case, model, side)
                key = (case["n"], *sorted((k, str(v)) for k, v in kw.items()))
                if key not in seen:
                    seen.add(key)
                    pid = f"{case['id']}-{model}-{side}"
                    params.append(pytest.param(case, model, side, id=pid))
    return params


BASELINE_PARAMS = sampled(_baseline_params(), every=5)


@pytest.mark.parametrize(("case", "model", "side"), BASELINE_PARAMS)
def test_expected_rand_index_baseline(case, model, side):
    from chanceclust.expectations import expected_rand_index_baseline

    kw = baseline_kwargs(case, model, side)
    got = expected_rand_index_baseline(case["n"], **kw)
    ref = case["expectations"][model][side]
    assert_close(got, ref["rand"], atol=ATOL_RAND, what=f"E[RI] {kw}")


@pytest.mark.parametrize(("case", "model", "side"), BASELINE_PARAMS)
def test_expected_mutual_information_baseline(case, model, side):
    from chanceclust.expectations import expected_mutual_information_baseline

    kw = baseline_kwargs(case, model, side)
    got = expected_mutual_information_baseline(case["n"], **kw)
    ref = case["expectations"][model][side]
    assert_close(got, ref["mi"], atol=atol_nats(case["n"]), what=f"E[MI] {kw}")


# --------------------------------------------------------------------------
# Concrete tables: measured values
# --------------------------------------------------------------------------
CASES_BY_KEY = {
    (c["n"], tuple(c["sizes_true"]), tuple(c["sizes_pred"])): c for c in DATA["cases"]
}
TABLE_PARAMS = [pytest.param(t, id=t["id"]) for t in DATA["tables"]]


def as_table(t: dict) -> np.ndarray:
    return np.asarray(t["contingency"], dtype=np.int64)


@pytest.mark.parametrize("t", TABLE_PARAMS)
def test_measured_values(t):
    from chanceclust.measures import (
        entropy,
        mutual_information,
        normalized_mutual_information,
        rand_index,
    )

    n, table, m = t["n"], as_table(t), t["measured"]
    la, lb = np.asarray(t["labels_true"]), np.asarray(t["labels_pred"])
    nat = atol_nats(n)
    assert_close(rand_index(contingency=table), m["rand"], atol=ATOL_RAND, what="RI(table)")
    assert_close(rand_index(la, lb), m["rand"], atol=ATOL_RAND, what="RI(labels)")
    assert_close(mutual_information(contingency=table), m["mi"], atol=nat, what="MI(table)")
    assert_close(mutual_information(la, lb), m["mi"], atol=nat, what="MI(labels)")
    assert_close(entropy(la), m["h_true"], atol=nat, what="H(labels_true)")
    assert_close(entropy(lb), m["h_pred"], atol=nat, what="H(labels_pred)")
    h_a, h_b = float(m["h_true"]), float(m["h_pred"])
    norms = {
        "min": min(h_a, h_b),
        "geometric": math.sqrt(h_a * h_b),
        "arithmetic": (h_a + h_b) / 2,
        "max": max(h_a, h_b),
    }
    for am, ref in m["nmi"].items():
        got = normalized_mutual_information(contingency=table, average_method=am)
        assert_close(got, ref, atol=2 * nat / norms[am], what=f"NMI {am}")


# --------------------------------------------------------------------------
# Concrete tables: expectations and adjusted values, every model x side
# --------------------------------------------------------------------------
def _adjusted_params() -> list:
    # E[MI] under two-sided `all` depends only on N (tested for every N above)
    # and costs the most to evaluate, so for N >= 8 only the first table of
    # each N is checked under it; every other model x side checks every table.
    params, seen_n = [], set()
    for t in DATA["tables"]:
        for model in MODELS:
            for side in SIDES:
                if (model, side) == ("all", "two_sided") and t["n"] >= 8:
                    if t["n"] in seen_n:
                        continue
                    seen_n.add(t["n"])
                params.append(pytest.param(t, model, side, id=f"{t['id']}-{model}-{side}"))
    return params


ADJUSTED_PARAMS = sampled(_adjusted_params(), every=5)


def adjusted_atol(entry: dict, atol: float) -> float:
    adj = abs(float(entry["value"]))
    den = abs(float(entry["s_max"]) - float(entry["expected"]))
    return 2 * atol * (1 + adj) / den


@pytest.mark.parametrize(("t", "model", "side"), ADJUSTED_PARAMS)
def test_table_expectations_and_adjusted(t, model, side):
    from chanceclust.adjusted import adjusted_mutual_information, adjusted_rand_index
    from chanceclust.expectations import expected_mutual_information, expected_rand_index

    n, table = t["n"], as_table(t)
    one_sided = side == "one_sided"
    kw = {"model": model, "one_sided": one_sided}
    nat = atol_nats(n)
    ref = t["adjusted"][model][side]
    case_ref = CASES_BY_KEY[(n, tuple(t["sizes_true"]), tuple(t["sizes_pred"]))]
    exp = case_ref["expectations"][model][side]
    assert_close(
        expected_rand_index(contingency=table, **kw), exp["rand"], atol=ATOL_RAND, what="E[RI]"
    )
    assert_close(
        expected_mutual_information(contingency=table, **kw), exp["mi"], atol=nat, what="E[MI]"
    )
    if "ari" in ref:
        got = adjusted_rand_index(contingency=table, **kw)
        assert_close(
            got, ref["ari"]["value"], atol=adjusted_atol(ref["ari"], ATOL_RAND), what="ARI"
        )
    for am, entry in ref["ami"].items():
        got = adjusted_mutual_information(contingency=table, average_method=am, **kw)
        assert_close(got, entry["value"], atol=adjusted_atol(entry, nat), what=f"AMI {am}")



LABELS_PARAMS = [
    pytest.param(t, id=t["id"])
    for n in (7, 100)
    for t in [t for t in DATA["tables"] if t["n"] == n][::8][:6]
]


@pytest.mark.parametrize("t", LABELS_PARAMS)
def test_labels_input_matches_reference(t):
    # The same values reached through labels instead of a contingency table
    # (a handful of tables: the table path is tested exhaustively above).
    from chanceclust.adjusted import adjusted_mutual_information, adjusted_rand_index
    from chanceclust.expectations import expected_mutual_information, expected_rand_index

    la, lb = np.asarray(t["labels_true"]), np.asarray(t["labels_pred"])
    nat = atol_nats(t["n"])
    for model in MODELS:
        for side in SIDES:
            if (model, side) == ("all", "two_sided") and t["n"] >= 8:
                continue  # the slowest path; reached through a table above
            kw = {"model": model, "one_sided": side == "one_sided"}
            exp = CASES_BY_KEY[(t["n"], tuple(t["sizes_true"]), tuple(t["sizes_pred"]))]
            exp = exp["expectations"][model][side]
            assert_close(
                expected_rand_index(la, lb, **kw), exp["rand"], atol=ATOL_RAND, what="E[RI]"
            )
            assert_close(
                expected_mutual_information(la, lb, **kw), exp["mi"], atol=nat, what="E[MI]"
            )
            ref = t["adjusted"][model][side]
            if "ari" in ref:
                assert_close(
                    adjusted_rand_index(la, lb, **kw),
                    ref["ari"]["value"],
                    atol=adjusted_atol(ref["ari"], ATOL_RAND),
                    what=f"ARI {kw}",
                )
            for am, entry in ref["ami"].items():
                assert_close(
                    adjusted_mutual_information(la, lb, average_method=am, **kw),
                    entry["value"],
                    atol=adjusted_atol(entry, nat),
                    what=f"AMI {am} {kw}",
                )


# --------------------------------------------------------------------------
# The MATH.md typo example and the oracle's independence
# --------------------------------------------------------------------------
def test_typo_example_one_sided_num():
    # Reference G = [0, 1, 1, 1], random clustering with K = 2: the enumerated
    # one-sided E[MI] is 0.20921 nats; the paper's eqs. 36/38 would give 0.0859.
    from chanceclust.expectations import (
        expected_mutual_information,
        expected_mutual_information_baseline,
    )

    ex = DATA["typo_example"]
    assert round(float(ex["mi"]), 5) == 0.20921
    assert round(float(ex["mi_with_paper_typo"]), 4) == 0.0859
    atol = atol_nats(ex["n"])
    got = expected_mutual_information_baseline(
        ex["n"], model="num", one_sided=True, sizes_true=ex["sizes_true"], n_clusters_pred=2
    )
    assert_close(got, ex["mi"], atol=atol, what="baseline")
    for labels_pred in ([0, 0, 1, 1], [0, 1, 1, 1], [1, 0, 0, 0]):
        got = expected_mutual_information(
            ex["labels_true"], labels_pred, model="num", one_sided=True
        )
        assert_close(got, ex["mi"], atol=atol, what=f"labels_pred={labels_pred}")


def test_oracle_does_not_import_chanceclust():
    # The reference must stay independent of the code under test.
    source = (REFERENCE_DIR / "make_expectations.py").read_text()
    imports = [
        line.strip()
        for line in source.splitlines()
        if line.strip().startswith(("import ", "from ")) or "__import__" in line
    ]
    assert imports, "no import lines found"
    assert not [line for line in imports if "chanceclust" in line], imports
    counts = DATA["header"]["counts"]
    assert counts["cases"] == len(DATA["cases"])
    assert counts["tables"] == len(DATA["tables"])
