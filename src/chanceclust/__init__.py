"""chanceclust: exact chance-adjusted clustering similarity under several random models.

Compare two clusterings by the Rand index and mutual information adjusted
for chance under the random models of Gates & Ahn (JMLR 2017): ``perm``
(cluster sizes fixed: the usual ARI/AMI), ``num`` (uniform over clusterings
with the same number of clusters) and ``all`` (uniform over all
clusterings), two-sided or against a fixed reference (``one_sided=True``).
"""

import sys as _sys
from collections.abc import Callable as _Callable
from types import ModuleType as _ModuleType
from typing import Any as _Any

from chanceclust import models  # noqa: F401  (chanceclust.models: the random models as values)
from chanceclust._validation import UnassignedReport
from chanceclust.adjusted import adjusted_mutual_information, adjusted_rand_index
from chanceclust.allpairs import PairwiseResult, pairwise
from chanceclust.bootstrap import (
    ConfidenceInterval,
    ConfidenceIntervalResult,
    PairedTestResult,
    confidence_interval,
    paired_test,
)
from chanceclust.comparison import ComparisonResult, ComparisonRow, compare
from chanceclust.contingency import PairCounts, contingency_table, pair_counts
from chanceclust.exceptions import (
    InternalError,
    InvalidFileError,
    InvalidInputError,
    InvalidInputTypeError,
    UnsupportedError,
)
from chanceclust.expectations import (
    expected_mutual_information,
    expected_mutual_information_baseline,
    expected_rand_index,
    expected_rand_index_baseline,
    same_cluster_probability,
)
from chanceclust.measures import (
    completeness,
    entropy,
    fowlkes_mallows_index,
    homogeneity,
    homogeneity_completeness_v_measure,
    jaccard_index,
    mutual_information,
    normalized_mutual_information,
    pair_confusion_matrix,
    rand_index,
    v_measure,
    variation_of_information,
)
from chanceclust.samplers import random_clustering, random_clusterings
from chanceclust.significance import (
    MonteCarloAdjustedResult,
    SignificanceTestResult,
    monte_carlo_adjusted,
    null_distribution,
    significance_test,
)
from chanceclust.special import bell, log_bell, log_stirling2, stirling2
from chanceclust.summary import PartialTable, TableSummary, merge_tables, partial_table
from chanceclust.tsallis import (
    adjusted_tsallis_mutual_information,
    expected_tsallis_mutual_information,
    standardized_tsallis_mutual_information,
    tsallis_entropy,
    tsallis_mutual_information,
)
from chanceclust.variance import (
    mutual_information_variance,
    rand_index_variance,
    standardized_mutual_information,
    standardized_rand_index,
)

__version__ = "0.1.0.dev0"

#: Names removed before the first release (CHANGELOG.md, #19), by module: what to use now.
_REMOVED: dict[str, dict[str, str]] = {
    "chanceclust": {
        "SignificanceResult": "SignificanceTestResult",
        "align": "the measures themselves: they align keyed inputs by element (was in io)",
        "AlignedPair": "the measures themselves: they align keyed inputs by element (was in io)",
        "InputError": "InvalidFileError (was chanceclust.io.InputError)",
        "PAIRWISE_MEASURES": "the measure names of pairwise(measure=...)",
        "n_samples": "n_resamples= of null_distribution() and monte_carlo_adjusted()",
    },
    "chanceclust.allpairs": {"PAIRWISE_MEASURES": "the measure names of pairwise(measure=...)"},
    "chanceclust.significance": {"MEASURES": "the measure names of significance_test(measure=...)"},
}


def _removed(module: str) -> _Callable[[str], _Any]:
    """A module ``__getattr__`` (PEP 562) that names what replaced a removed name."""

    def __getattr__(name: str) -> _Any:
        if name in _REMOVED[module]:
            raise AttributeError(
                f"{module}.{name} was removed before the first release (CHANGELOG.md, "
                f"'Backwards-incompatible changes'); use {_REMOVED[module][name]}"
            )
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


class _SignificanceModule(_ModuleType):
    """``chanceclust.significance``, which ``cc.significance(...)`` (the function removed
    before the first release) would call: say what replaced it instead of "'module' object
    is not callable"."""

    def __call__(self, *args: _Any, **kwargs: _Any) -> _Any:
        raise TypeError(
            "chanceclust.significance is a module: the function significance() was removed "
            "before the first release; use chanceclust.significance_test(labels_true, "
            "labels_pred, ...) (it returns a SignificanceTestResult; n_samples= is now "
            "n_resamples=)"
        )


__getattr__ = _removed("chanceclust")
for _name in ("chanceclust.allpairs", "chanceclust.significance"):
    setattr(_sys.modules[_name], "__getattr__", _removed(_name))  # noqa: B010 (PEP 562)
_sys.modules["chanceclust.significance"].__class__ = _SignificanceModule
del _name

__all__ = [
    "ComparisonResult",
    "ComparisonRow",
    "ConfidenceInterval",
    "ConfidenceIntervalResult",
    "InternalError",
    "InvalidFileError",
    "InvalidInputError",
    "InvalidInputTypeError",
    "MonteCarloAdjustedResult",
    "PairCounts",
    "PairedTestResult",
    "PairwiseResult",
    "PartialTable",
    "SignificanceTestResult",
    "TableSummary",
    "UnassignedReport",
    "UnsupportedError",
    "__version__",
    "adjusted_mutual_information",
    "adjusted_rand_index",
    "adjusted_tsallis_mutual_information",
    "bell",
    "compare",
    "completeness",
    "confidence_interval",
    "contingency_table",
    "entropy",
    "expected_mutual_information",
    "expected_mutual_information_baseline",
    "expected_rand_index",
    "expected_rand_index_baseline",
    "expected_tsallis_mutual_information",
    "fowlkes_mallows_index",
    "homogeneity",
    "homogeneity_completeness_v_measure",
    "jaccard_index",
    "log_bell",
    "log_stirling2",
    "merge_tables",
    "monte_carlo_adjusted",
    "mutual_information",
    "mutual_information_variance",
    "normalized_mutual_information",
    "null_distribution",
    "pair_confusion_matrix",
    "paired_test",
    "pair_counts",
    "pairwise",
    "partial_table",
    "rand_index",
    "rand_index_variance",
    "random_clustering",
    "random_clusterings",
    "same_cluster_probability",
    "significance_test",
    "standardized_mutual_information",
    "standardized_rand_index",
    "standardized_tsallis_mutual_information",
    "stirling2",
    "tsallis_entropy",
    "tsallis_mutual_information",
    "v_measure",
    "variation_of_information",
]
