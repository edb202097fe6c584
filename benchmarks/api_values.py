"""Print a fixed set of values of every public function, to compare two versions exactly.

Usage, from the repository root (nothing is timed; about a minute on 2 cores)::

    python benchmarks/api_values.py > before.json     # on one commit
    python benchmarks/api_values.py > after.json      # on another
    diff before.json after.json                       # empty = same numbers

Written for the architecture reshape (#15), whose promise is "behaviour unchanged except
documented renames": every public function on a few inputs (all models, both sides, every
average method), the seeded samplers and significance tests, the special functions, and the
benchmark cases of ``benchmarks/cases.py`` whose values are compared with
``benchmarks/references`` (the num/all baselines at N = 10^7, clusim's small cases and the
quick perm AMI cases). Floats are written with ``repr`` (all 17 digits), so the diff is
exact.
"""

from __future__ import annotations

import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases
import numpy as np

import chanceclust as cc

MODELS = ("perm", "num", "all")
SIDES = (False, True)
LABEL_MEASURES = ("ari", "ami", "ri", "mi", "nmi", "fmi", "jaccard", "vi")


def _value(x: object) -> object:
    """A JSON-able, exact form of a result."""
    if isinstance(x, float | np.floating):
        return repr(float(x))
    if isinstance(x, int | np.integer) and not isinstance(x, bool):
        return str(int(x))
    if isinstance(x, np.ndarray):
        return [_value(v) for v in x.ravel().tolist()]
    if isinstance(x, tuple | list):
        return [_value(v) for v in x]
    return repr(x)


def _inputs() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(20170101)
    karate_true = np.array([0] * 17 + [1] * 17)
    karate_pred = np.array([0, 0, 0, 0, 1, 1, 1, 0, 2, 2, 1, 0, 0, 0, 2, 2, 1, 0, 2, 0,
                            2, 0, 2, 3, 3, 3, 2, 3, 3, 2, 2, 3, 2, 2])
    return {
        "tiny": (np.array([0, 0, 1, 1, 2]), np.array([0, 1, 1, 2, 2])),
        "karate": (karate_true, karate_pred),
        "identical": (np.repeat(np.arange(3), 10), np.repeat(np.arange(3), 10)),
        "one-cluster": (np.zeros(8, dtype=int), np.arange(8)),
        "random-200": (rng.integers(0, 5, 200), rng.integers(0, 8, 200)),
        "random-3000": (rng.integers(0, 40, 3000), rng.integers(0, 25, 3000)),
    }


def label_values(out: dict) -> None:
    simple = ("rand_index", "mutual_information", "fowlkes_mallows_index", "jaccard_index",
              "variation_of_information")
    for case, (a, b) in _inputs().items():
        row: dict = {}
        for name in simple:
            row[name] = _value(getattr(cc, name)(a, b))
        row["entropy"] = [_value(cc.entropy(a)), _value(cc.entropy(b))]
        pc = cc.pair_counts(a, b)
        row["pair_counts"] = [_value(v) for v in (pc.n11, pc.n10, pc.n01, pc.n00)]
        row["contingency_table"] = _value(np.asarray(cc.contingency_table(a, b)))
        for method in ("arithmetic", "geometric", "min", "max"):
            row[f"nmi-{method}"] = _value(cc.normalized_mutual_information(
                a, b, average_method=method))
        for model in MODELS:
            for one_sided in SIDES:
                key = f"{model}-{'1s' if one_sided else '2s'}"
                kw = {"model": model, "one_sided": one_sided}
                row[f"ari-{key}"] = _value(cc.adjusted_rand_index(a, b, **kw))
                row[f"eri-{key}"] = _value(cc.expected_rand_index(a, b, **kw))
                row[f"emi-{key}"] = _value(cc.expected_mutual_information(a, b, **kw))
                row[f"var-{key}"] = _value(cc.rand_index_variance(a, b, **kw))
                row[f"sri-{key}"] = _value(cc.standardized_rand_index(a, b, **kw))
                for method in ("arithmetic", "geometric", "min", "max"):
                    row[f"ami-{method}-{key}"] = _value(cc.adjusted_mutual_information(
                        a, b, average_method=method, **kw))
        row["compare"] = [[r.key, _value(r.value), _value(r.expected)]
                          for r in cc.compare(a, b, standardized=True).rows]
        out[f"labels/{case}"] = row


def baseline_values(out: dict) -> None:
    sizes_true, sizes_pred = np.array([5, 3, 2, 2, 1]), np.array([4, 4, 3, 2])
    for f in (cc.expected_rand_index_baseline, cc.expected_mutual_information_baseline):
        row = {}
        for model in MODELS:
            for one_sided in SIDES:
                kw: dict = {"model": model, "one_sided": one_sided}
                if model == "perm" or one_sided:
                    kw["sizes_true"] = sizes_true
                if model == "perm":
                    kw["sizes_pred"] = sizes_pred
                if model == "num":
                    kw["n_clusters_pred"] = 4
                    if not one_sided:
                        kw["n_clusters_true"] = 5
                row[f"{model}-{'1s' if one_sided else '2s'}"] = _value(f(13, **kw))
        out[f"baseline/{f.__name__}"] = row


def sampler_values(out: dict) -> None:
    out["samplers"] = {
        "random_clustering-perm": _value(cc.random_clustering(12, model="perm", sizes=[5, 4, 3],
                                                              rng=1)),
        "random_clustering-num": _value(cc.random_clustering(12, model="num", n_clusters=4,
                                                             rng=2)),
        "random_clustering-all": _value(cc.random_clustering(12, model="all", rng=3)),
        "random_clusterings-num": _value(cc.random_clusterings(3, 10, model="num", n_clusters=3,
                                                               rng=4)),
        "random_clusterings-all": _value(cc.random_clusterings(3, 10, model="all", rng=5)),
    }


def significance_values(out: dict) -> None:
    a, b = _inputs()["random-200"]
    row: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for measure in LABEL_MEASURES:
            for model in MODELS:
                for one_sided in SIDES:
                    key = f"{measure}-{model}-{'1s' if one_sided else '2s'}"
                    r = cc.significance_test(measure, a, b, model=model, one_sided=one_sided,
                                             n_resamples=60, rng=7, alternative="greater")
                    row[key] = [_value(v) for v in (r.statistic, r.null_mean, r.null_std,
                                                     r.zscore, r.pvalue)]
        for measure in ("ari", "vi"):
            null = cc.null_distribution(measure, a, b, model="num", n_resamples=40, rng=8)
            row[f"null_distribution-{measure}"] = _value(null)
            m = cc.monte_carlo_adjusted(measure, a, b, model="all", n_resamples=40, rng=9)
            row[f"monte_carlo_adjusted-{measure}"] = [
                _value(getattr(m, f)) for f in ("value", "value_stderr", "statistic",
                                                "expected", "expected_stderr", "best")]
    out["significance"] = row


def special_values(out: dict) -> None:
    out["special"] = {
        "stirling2": [str(cc.stirling2(n, k)) for n, k in ((10, 3), (50, 7), (100, 99))],
        "bell": [str(cc.bell(n)) for n in (0, 5, 40)],
        "log_stirling2": _value(cc.log_stirling2(np.array([10, 1000, 10**6, 10**7]),
                                                 np.array([3, 10, 1000, 10**7 - 5]))),
        "log_bell": _value(cc.log_bell(np.array([1, 10, 1000, 10**6]))),
    }


def benchmark_case_values(out: dict) -> None:
    row: dict = {}
    for case in cases.cases(quick=False):
        if case["kind"] == "baseline":
            kw = cases.baseline_kwargs(case)
            f = (cc.expected_rand_index_baseline if case["quantity"] == "eri"
                 else cc.expected_mutual_information_baseline)
            row[case["id"]] = _value(f(case["n"], **kw))
        elif case["kind"] == "clusim_emi":
            n = case["n"]
            if case["one_sided"]:
                g = cases.reference_sizes(n, case["k_true"], cases.SEED + 3)
                kw = {"model": "num", "one_sided": True, "sizes_true": g, "n_clusters_pred": case["k_pred"]}
            else:
                kw = {"model": "num", "n_clusters_true": case["k_true"],
                          "n_clusters_pred": case["k_pred"]}
            row[case["id"]] = _value(cc.expected_mutual_information_baseline(n, **kw))
    for case in cases.cases(quick=True):
        if case["kind"] == "ami" and case["n"] <= 10**5:
            a, b = cases.make_labels(case)
            row[case["id"]] = _value(cc.adjusted_mutual_information(
                a, b, model=case["model"], one_sided=case["one_sided"]))
    out["benchmark-cases"] = row


def main() -> None:
    out: dict = {}
    for part in (label_values, baseline_values, sampler_values, significance_values,
                 special_values, benchmark_case_values):
        part(out)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
