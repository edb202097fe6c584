"""Tests of chanceclust.comparison: compare() and its result classes.

Every row of ``compare()`` must be the value of the public function it names (the registry of
``test_common.py`` lists them), computed from one table; the result's accessors are checked
on a hand-made example.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from reference._exact import set_partitions
from strategies import label_pairs
from test_common import CASES, SLOW_N, SMALL_A, SMALL_B, Case

from chanceclust import (
    ComparisonResult,
    ComparisonRow,
    adjusted_mutual_information,
    adjusted_rand_index,
    compare,
    contingency_table,
    expected_mutual_information,
    expected_rand_index,
    normalized_mutual_information,
    standardized_mutual_information,
    standardized_rand_index,
)


def _compare_lookup(case: Case) -> tuple[str, str | None, bool, str | None]:
    """(measure, model, one_sided, average_method) of a case in compare()'s rows."""
    names = {
        "rand_index": "RI",
        "fowlkes_mallows_index": "FMI",
        "jaccard_index": "JACCARD",
        "mutual_information": "MI",
        "variation_of_information": "VI",
        "normalized_mutual_information": "NMI",
        "adjusted_rand_index": "ARI",
        "adjusted_mutual_information": "AMI",
    }
    kw = case.kwargs
    return names[case.name], kw.get("model"), kw.get("one_sided", False), kw.get("average_method")


@settings(max_examples=6)
@given(label_pairs(max_n=SLOW_N))
def test_compare_rows_equal_individual_functions(pair):
    """Every row of compare() is the value (and E[s]) of the corresponding function."""
    a, b = pair
    result = compare(a, b, standardized=True)
    assert type(result.n) is int
    assert result.n == len(a)
    assert len(result.rows) == len({row.key for row in result.rows}) == 56
    assert result.n_clusters_true == len(set(a.tolist()))
    assert result.n_clusters_pred == len(set(b.tolist()))
    checked = 0
    for case in CASES:
        if case.name.startswith("expected_"):
            continue
        measure, model, one_sided, method = _compare_lookup(case)
        if model == "perm" and one_sided:
            continue  # compare() has a single perm row: one-sided is the same
        value = result.get(measure, model, one_sided=one_sided, average_method=method)
        assert value == case(a, b), case.id
        checked += 1
    # the one-side normalizations (true, pred) are checked by TestGetDefaults
    assert checked == sum(r.average_method not in ("true", "pred") and r.measure not in ("SRI", "SMI")
                          for r in result.rows)
    standardized = {"SRI": standardized_rand_index, "SMI": standardized_mutual_information}
    for row in result.rows:
        if row.measure in standardized:  # the z-scores, next to each other in every setting
            value = standardized[row.measure](a, b, model=row.model, one_sided=row.one_sided)
            assert row.value == value, row.key
        if row.measure in ("ARI", "SRI"):
            expected = expected_rand_index(a, b, model=row.model, one_sided=row.one_sided)
            assert row.expected == expected, row.key
        elif row.measure in ("AMI", "SMI"):
            expected = expected_mutual_information(a, b, model=row.model, one_sided=row.one_sided)
            assert row.expected == expected, row.key
        else:
            assert row.expected is None


def test_compare_accepts_contingency():
    """compare(contingency=...) gives the same rows as compare(labels)."""
    table = contingency_table(SMALL_A, SMALL_B)
    assert compare(contingency=table) == compare(SMALL_A, SMALL_B)
    assert compare(contingency=sp.csr_array(table)) == compare(SMALL_A, SMALL_B)


class TestComparisonResult:
    A, B = [0, 0, 1, 1], [0, 0, 1, 2]

    def test_get_by_measure_model_side_and_normalization(self):
        result = compare(self.A, self.B)
        assert result.get("RI") == 5 / 6
        assert result.get("ari", "perm") == result.get("ARI", "perm")  # case-insensitive
        key = {row.key: row.value for row in result.rows}["AMI[all1,max]"]
        assert result.get("AMI", "all", one_sided=True, average_method="max") == key

    def test_get_unknown_row_names_it(self):
        with pytest.raises((KeyError, ValueError), match="XYZ"):
            compare(self.A, self.B).get("XYZ")

    def test_to_dict_and_to_records(self):
        result = compare(self.A, self.B)
        assert result.to_dict() == {row.key: row.value for row in result.rows}
        records = result.to_records()
        assert len(records) == len(result.rows)
        assert records[0] == {"measure": "RI", "model": None, "one_sided": None,
                              "average_method": None, "value": 5 / 6, "expected": None,
                              "degenerate": None}

    def test_to_frame(self):
        frame = compare(self.A, self.B).to_frame()
        assert list(frame.columns) == ["measure", "model", "one_sided", "average_method",
                                       "value", "expected", "degenerate"]
        assert len(frame) == 46

    def test_str_is_a_table_of_every_row(self):
        result = compare(self.A, self.B)
        lines = str(result).splitlines()
        assert lines[0] == "N = 4, K_true = 2, K_pred = 3"
        assert lines[1].split() == ["measure", "model", "normalization", "value", "E[s]"]
        assert len(lines) == 2 + len(result.rows)

    def test_frozen(self):
        result = compare(self.A, self.B)
        assert isinstance(result, ComparisonResult)
        assert isinstance(result.rows[0], ComparisonRow)
        with pytest.raises(AttributeError):
            result.n = 5  # type: ignore[misc]


class TestGetDefaults:
    """get() defaults as the single calls do: model perm, average_method arithmetic (#21)."""

    A, B = [0, 0, 1, 1, 2, 2], [0, 0, 0, 1, 1, 1]

    def test_adjusted_measures_default_to_perm_and_arithmetic(self):
        result = compare(self.A, self.B)
        assert result.get("AMI", "perm") == adjusted_mutual_information(self.A, self.B)
        assert result.get("AMI") == adjusted_mutual_information(self.A, self.B)
        assert result.get("ari") == adjusted_rand_index(self.A, self.B)
        assert result.get("NMI") == normalized_mutual_information(self.A, self.B)

    def test_one_side_normalizations_are_reported(self):
        result = compare(self.A, self.B)
        for method in ("true", "pred"):
            assert result.get("NMI", average_method=method) == normalized_mutual_information(
                self.A, self.B, average_method=method
            )
            for model in ("perm", "num", "all"):
                for one_sided in (False, True) if model != "perm" else (False,):
                    assert result.get(
                        "AMI", model, one_sided=one_sided, average_method=method
                    ) == adjusted_mutual_information(
                        self.A, self.B, model=model, one_sided=one_sided, average_method=method
                    )


def test_standardized_rows_sit_next_to_each_other():
    """Each setting lists ARI, AMI (six normalizations), then SRI and SMI."""
    keys = [row.key for row in compare(SMALL_A, SMALL_B, standardized=True).rows]
    for setting in ("perm", "num", "num1", "all", "all1"):
        i = keys.index(f"SRI[{setting}]")
        assert keys[i + 1] == f"SMI[{setting}]"
        assert keys[i - 1] == f"AMI[{setting},pred]"


def test_smi_row_is_nan_where_the_variance_is_not_implemented():
    """num with small clusters beyond N = 1000 (the single call refuses it, naming why):
    compare() reports NaN in the two num SMI rows and nowhere else (the two-sided all SMI
    row has its value, #22)."""
    import numpy as np

    from chanceclust import InvalidInputError

    a = np.arange(1200) % 500
    b = np.roll(a, 3)
    result = compare(a, b, standardized=True)
    for one_sided in (False, True):
        with pytest.raises(InvalidInputError, match="num"):
            standardized_mutual_information(a, b, model="num", one_sided=one_sided)
        assert math.isnan(result.get("SMI", "num", one_sided=one_sided))
        sri = standardized_rand_index(a, b, model="num", one_sided=one_sided)
        assert result.get("SRI", "num", one_sided=one_sided) == sri
    assert result.get("SMI", "all", one_sided=False) == standardized_mutual_information(a, b, model="all")
    assert sum(math.isnan(v) for v in result.to_dict().values()) == 2


class TestSelection:
    """compare() computes SRI and SMI only when asked (issue #35): ``standardized=True`` or a
    ``measures=`` selection; every row it computes is the row of the full comparison."""

    A, B = [0, 0, 1, 1, 2, 2, 2], [0, 0, 0, 1, 1, 2, 2]

    def test_default_leaves_out_the_z_scores(self):
        full = compare(self.A, self.B, standardized=True)
        default = compare(self.A, self.B)
        assert {r.measure for r in full.rows} - {r.measure for r in default.rows} == {"SRI", "SMI"}
        assert default.rows == tuple(r for r in full.rows if r.measure not in ("SRI", "SMI"))
        with pytest.raises(KeyError, match="standardized=True"):
            default.get("SMI", "perm")

    @pytest.mark.parametrize("measures", ["smi", ["ari", "ami"], ("RI", "vi", "nmi")])
    def test_measures_select_rows_in_order(self, measures):
        chosen = {measures} if isinstance(measures, str) else {m.lower() for m in measures}
        full = compare(self.A, self.B, standardized=True)
        got = compare(self.A, self.B, measures=measures)
        assert got.rows == tuple(r for r in full.rows if r.measure.lower() in chosen)
        assert got.n == full.n and got.n_clusters_pred == full.n_clusters_pred

    def test_standardized_adds_to_a_selection(self):
        got = compare(self.A, self.B, measures="ari", standardized=True)
        assert {r.measure for r in got.rows} == {"ARI", "SRI", "SMI"}

    @pytest.mark.parametrize("measures", ["xyz", [], ["ari", 3]])
    def test_unknown_measure_is_named(self, measures):
        from chanceclust import InvalidInputError

        with pytest.raises(InvalidInputError, match="measures"):
            compare(self.A, self.B, measures=measures)


def _ri_mi(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[float, float]:
    """RI and MI from their definitions (pairs; counts), for the enumeration below."""
    from itertools import combinations

    n = len(a)
    agree = sum((a[i] == a[j]) == (b[i] == b[j]) for i, j in combinations(range(n), 2))
    ri = agree / (n * (n - 1) / 2) if n > 1 else 1.0
    ca, cb, cab = Counter(a), Counter(b), Counter(zip(a, b, strict=True))
    mi = sum(c / n * math.log(c * n / (ca[x] * cb[y])) for (x, y), c in cab.items())
    return ri, mi


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_degenerate_reason_is_exactly_a_constant_ensemble(n):
    """degenerate_reason() names a row exactly when every draw of the random model gives the
    observed RI (ARI, SRI) or MI (AMI, SMI): checked by enumerating the ensembles of every
    pair of cluster-size patterns, every model and sidedness, N <= 6."""
    from chanceclust.comparison import degenerate_reason

    parts = list(set_partitions(n))
    values = {(p, q): _ri_mi(p, q) for p in parts for q in parts}
    sizes = {p: tuple(sorted(Counter(p).values())) for p in parts}
    patterns = {}
    for p in parts:  # one representative partition per size pattern
        patterns.setdefault(sizes[p], p)
    for a in patterns.values():
        for b in patterns.values():
            for model in ("perm", "num", "all"):
                def ensemble(p, fixed, model=model):
                    if fixed:
                        return [p]
                    if model == "perm":
                        return [q for q in parts if sizes[q] == sizes[p]]
                    if model == "num":
                        return [q for q in parts if len(set(q)) == len(set(p))]
                    return parts
                for one_sided in (False, True):
                    draws = [values[x, y] for x in ensemble(a, one_sided)
                             for y in ensemble(b, False)]
                    for measure, col in (("ari", 0), ("sri", 0), ("ami", 1), ("smi", 1)):
                        spread = max(d[col] for d in draws) - min(d[col] for d in draws)
                        flagged = degenerate_reason(measure, model, one_sided, sizes[a], sizes[b])
                        assert (flagged is not None) == (spread < 1e-12), (
                            a, b, model, one_sided, measure, spread)


def test_degenerate_rows_are_flagged_in_compare():
    """The issue's case: a detection with one community, one-sided num: ARI = 0.0 by
    convention, flagged; the same rows of a real comparison are not."""
    truth = [0] * 5 + [1] * 5 + [2] * 5
    one = compare(truth, [0] * 15)
    assert one.get("ARI", "num", one_sided=True) == 0.0
    row = next(r for r in one.rows if r.key == "ARI[num1]")
    assert row.degenerate and "convention" in row.degenerate
    assert next(r for r in one.rows if r.key == "ARI[all1]").degenerate is None
    real = compare(truth, [0] * 7 + [1] * 8)
    assert all(r.degenerate is None for r in real.rows)
    assert "degenerate" in str(one) and "degenerate" not in str(real)


@pytest.mark.parametrize("setting", [("ari", "num", True), ("ami", "perm", False),
                                     ("smi", "num", False), ("sri", "num", True)])
def test_pairwise_flags_the_pairs_compare_flags(setting):
    """pairwise().degenerate is the ``degenerate`` of compare()'s row of each pair, also
    after an unassigned policy (-1 dropped); ranked() puts the flagged pairs last."""
    import numpy as np

    from chanceclust import pairwise

    measure, model, one_sided = setting
    labelings = {"truth": [0, 0, 0, 1, 1, 1, 2, 2], "one": [0] * 8,
                 "all": list(range(8)), "noisy": [0, 0, 1, 1, -1, 2, 2, 2],
                 "dropped": [0, 0, 0, 0, -1, -1, 0, 0]}
    result = pairwise(labelings, measure=measure, model=model, one_sided=one_sided,
                      unassigned_label=-1, unassigned="drop")
    assert result.degenerate is not None and result.degenerate.any()
    for i, a in enumerate(labelings.values()):
        for j, b in enumerate(labelings.values()):
            rows = compare(a, b, measures=measure, unassigned_label=-1, unassigned="drop").rows
            row = next(r for r in rows if r.model == model
                       and bool(r.one_sided) == (one_sided and model != "perm")
                       and r.average_method in (None, "arithmetic"))
            assert result.degenerate[i, j] == (row.degenerate is not None), (i, j)
    flags = [flag for _, _, flag in result.ranked("truth")]
    assert flags == sorted(flags)
    assert pairwise(labelings, measure="ri", unassigned_label=-1,
                    unassigned="drop").degenerate is None
    assert np.array_equal(result.values, pairwise(labelings, measure=measure, model=model,
                                                  one_sided=one_sided, unassigned_label=-1,
                                                  unassigned="drop").values)
