"""chanceclust: exact chance-adjusted clustering similarity under several random models.

Compare two clusterings by the Rand index and mutual information adjusted
for chance under the random models of Gates & Ahn (JMLR 2017): ``perm``
(cluster sizes fixed: the usual ARI/AMI), ``num`` (uniform over clusterings
with the same number of clusters) and ``all`` (uniform over all
clusterings), two-sided or against a fixed reference (``one_sided=True``).
"""

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
)
from chanceclust.expectations import (
    expected_mutual_information,
    expected_mutual_information_baseline,
    expected_rand_index,
    expected_rand_index_baseline,
    same_cluster_probability,
)
from chanceclust.measures import (
    entropy,
    fowlkes_mallows_index,
    jaccard_index,
    mutual_information,
    normalized_mutual_information,
    rand_index,
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
from chanceclust.variance import (
    mutual_information_variance,
    rand_index_variance,
    standardized_mutual_information,
    standardized_rand_index,
)

__version__ = "0.1.0.dev0"

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
    "__version__",
    "adjusted_mutual_information",
    "adjusted_rand_index",
    "bell",
    "compare",
    "confidence_interval",
    "contingency_table",
    "entropy",
    "expected_mutual_information",
    "expected_mutual_information_baseline",
    "expected_rand_index",
    "expected_rand_index_baseline",
    "fowlkes_mallows_index",
    "jaccard_index",
    "log_bell",
    "log_stirling2",
    "merge_tables",
    "monte_carlo_adjusted",
    "mutual_information",
    "mutual_information_variance",
    "normalized_mutual_information",
    "null_distribution",
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
    "stirling2",
    "variation_of_information",
]
