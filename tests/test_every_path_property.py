"""Random labels through every library entry point give the single call's value or error.

The property behind tests/test_every_path.py's fixed cases: labels drawn from pools that
mix types (ints, strings that differ only by a leading zero, integers beyond 2**53, floats,
booleans, -1 as unassigned_label) with None, any unassigned policy, a measure and a model.
``pairwise``, ``compare``, partial tables of three chunks merged, and their ``TableSummary``
must give the single call's value (to 1e-9) or the same kind of error. (A script of this
kind found that a chunk of only unassigned elements was refused by ``partial_table``.)
"""

from __future__ import annotations

import math
import warnings
from itertools import pairwise as successive

from hypothesis import given, settings
from hypothesis import strategies as st

import chanceclust as cc

POOLS = [[0, 1, 2], ["a", "b", "01", "1"], [2**62, 2**62 + 1, 5], [1.0, 2.0, 3.0],
         [True, False], [-1, 0, 1]]
MEASURES = {
    "ari": cc.adjusted_rand_index,
    "ami": cc.adjusted_mutual_information,
    "smi": cc.standardized_mutual_information,
    "vi": cc.variation_of_information,
}


def _labels(pool_index: int):
    return st.lists(st.one_of(st.none(), st.sampled_from(POOLS[pool_index])), min_size=1,
                    max_size=10)


@st.composite
def _cases(draw):
    a = draw(st.integers(0, len(POOLS) - 1).flatmap(_labels))
    b = draw(st.lists(st.one_of(st.none(), st.sampled_from(POOLS[draw(st.integers(0, 5))])),
                      min_size=len(a), max_size=len(a)))
    policy = {"unassigned": draw(st.sampled_from(["raise", "drop", "singletons", "cluster"]))}
    if draw(st.booleans()):
        policy["unassigned_label"] = -1
    measure = draw(st.sampled_from(sorted(MEASURES)))
    model = {} if measure == "vi" else {"model": draw(st.sampled_from(["perm", "num", "all"]))}
    return a, b, policy, measure, model


def _outcome(call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # our own, e.g. 1.0 as a label
            return "value", float(call())
    except cc.InvalidInputError as error:
        return "error", type(error).__name__


def _same(got, want) -> bool:
    if got[0] != want[0] or got[0] == "error":
        return got == want
    if math.isnan(want[1]):
        return math.isnan(got[1])
    return math.isclose(got[1], want[1], rel_tol=1e-9, abs_tol=1e-12)


@settings(max_examples=80, deadline=None)
@given(case=_cases())
def test_library_paths_agree_with_the_single_call(case):
    a, b, policy, measure, model = case
    f = MEASURES[measure]
    want = _outcome(lambda: f(a, b, **model, **policy))
    paths = {
        "pairwise": lambda: cc.pairwise([a, b], measure=measure, **model, **policy).values[0, 1],
        "compare": lambda: cc.compare(a, b, **policy, measures=measure).get(
            measure.upper(), model.get("model")),
    }
    if policy["unassigned"] not in ("singletons", "cluster"):  # these need the whole clustering
        cut = [0, len(a) // 3, 2 * len(a) // 3, len(a)]

        def merged():
            return cc.merge_tables([cc.partial_table(a[i:j], b[i:j], **policy)
                                    for i, j in successive(cut)])

        paths["partial tables"] = lambda: f(contingency=merged(), **model)
        paths["TableSummary"] = lambda: f(contingency=merged().summary(), **model)
    for name, call in paths.items():
        got = _outcome(call)
        assert _same(got, want), (name, got, want)
