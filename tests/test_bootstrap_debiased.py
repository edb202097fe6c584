"""The debiased bootstrap interval (``method="debiased"``) and ``method="auto"``, the default
of :func:`chanceclust.confidence_interval` (docs/math.md#math-bootstrap).

The debiased interval is checked against a direct computation over the elements: the
jackknife by leaving out each element of the labels in turn and calling the library's single
measures (AMI's left-out values from its MI and entropies with the observed E[MI] held
fixed), then the formula of docs/math.md on the returned bootstrap distribution. Its
coverage is measured by benchmarks/bootstrap_coverage.py (benchmarks/BOOTSTRAP_COVERAGE.md),
not here.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

import chanceclust as cc
from chanceclust.bootstrap import DEBIASED_PER_CELL
from chanceclust.exceptions import InvalidInputError

# BCa on these small tables warns of the bootstrap's shift (tested on its own below).
pytestmark = pytest.mark.filterwarnings("ignore:The bootstrap distribution's mean:UserWarning")

TABLE = np.array([[5, 2, 0], [1, 4, 2], [0, 1, 6]])  # N = 21 over 7 cells: "auto" debiases


def _labels(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    return np.repeat(rows, counts), np.repeat(cols, counts)


def _left_out_by_elements(measure: str, true: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """The measure with each element left out in turn, by the single calls; AMI as
    (MI - E) / ((H(A) + H(B)) / 2 - E) with E the E[MI] of all N elements (held fixed)."""
    expected = cc.expected_mutual_information(true, pred)
    out = []
    for i in range(len(true)):
        a, b = np.delete(true, i), np.delete(pred, i)
        if measure == "ari":
            out.append(cc.adjusted_rand_index(a, b))
        else:
            bound = (cc.entropy(a) + cc.entropy(b)) / 2
            gap = bound - expected  # 0: a degenerate left-out table (no value: nan)
            out.append((cc.mutual_information(a, b) - expected) / gap if gap > 1e-12 * bound
                       else math.nan)  # fmt: skip
    return np.array(out)


def _center(value: float, jack: np.ndarray) -> tuple[float, float]:
    """The jackknife's bias-corrected value and standard error, over the elements."""
    n = len(jack)
    mean_jack = jack.mean()
    se_jack = math.sqrt((n - 1) / n * np.sum((jack - mean_jack) ** 2))
    return value - (n - 1) * (mean_jack - value), se_jack


def _direct_pivot(table: np.ndarray) -> tuple[float, float, float]:
    """(AMI, its jackknife's bias-corrected value, the jackknife's standard error) of a
    table, by the single calls over its elements (the left-out tables with the table's own
    E[MI] held fixed)."""
    true, pred = _labels(table)
    value = cc.adjusted_mutual_information(true, pred)
    return (value, *_center(value, _left_out_by_elements("ami", true, pred)))


def _resamples(table: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """The resampled tables of ``confidence_interval(..., rng=seed)``, drawn as its docstring
    says: blocks of 512, block b by Generator(PCG64(seed_b)), seed_b the b-th child of a
    SeedSequence of four 63-bit integers drawn from ``rng``; a multinomial over the non-zero
    cells in row-major order (the order of the table's cells)."""
    rows, cols = np.nonzero(table)
    counts = table[rows, cols]
    n = int(counts.sum())
    entropy = [int(v) for v in np.random.default_rng(seed).integers(2**63, size=4)]
    seeds = np.random.SeedSequence(entropy).spawn(-(-n_resamples // 512))
    out = []
    for b, child in enumerate(seeds):
        size = min(512, n_resamples - 512 * b)
        draws = np.random.Generator(np.random.PCG64(child)).multinomial(n, counts / n, size)
        for draw in draws:
            resample = np.zeros_like(table)
            resample[rows, cols] = draw
            out.append(resample[resample.sum(axis=1) > 0][:, resample.sum(axis=0) > 0])
    return out


def _direct_ends(res, measure: str, table: np.ndarray, alpha: float,
                 seed: int | None = None) -> tuple[float, float]:  # fmt: skip
    """The debiased interval's formula (docs/math.md#math-bootstrap) by the single calls;
    AMI's (percentile-t) from the resamples redrawn from ``seed``, unless ``seed`` is None
    (then the percentile interval's offsets, its fallback)."""
    true, pred = _labels(table)
    jack = _left_out_by_elements(measure, true, pred)
    center, se_jack = _center(res.statistic, jack)
    if measure == "ami" and seed is not None:
        pivots = np.array([_direct_pivot(t) for t in _resamples(table, len(res.bootstrap_distribution), seed)])
        np.testing.assert_allclose(pivots[:, 0], res.bootstrap_distribution, rtol=1e-9)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (pivots[:, 1] - res.statistic) / pivots[:, 2]
        if np.isfinite(t).all() and se_jack > 0:
            low, high = np.quantile(t, [alpha, 1 - alpha])
            return center - se_jack * high, center - se_jack * low
    theta_b = res.bootstrap_distribution
    widen = max(1.0, se_jack / np.std(theta_b, ddof=1))
    low, high = np.quantile(theta_b, [alpha, 1 - alpha])
    return (center + widen * (low - theta_b.mean()), center + widen * (high - theta_b.mean()))


@pytest.mark.parametrize("measure", ["ari", "ami"])
@pytest.mark.parametrize("table", [TABLE, np.array([[3, 1], [1, 2]]),
                                   np.array([[9, 1, 0], [0, 1, 1]])])  # fmt: skip
def test_debiased_interval_equals_a_direct_computation_over_elements(measure, table):
    """The interval equals the formula evaluated with a jackknife over the N elements by the
    single calls (ours runs over cells in closed form, or evaluates the tables when a cell
    holds most elements, as the last table)."""
    res = cc.confidence_interval(measure, contingency=table, n_resamples=39, rng=4,
                                 method="debiased", confidence_level=0.9)  # fmt: skip
    assert res.method == "debiased"
    np.testing.assert_allclose(res.confidence_interval,
                               _direct_ends(res, measure, table, 0.05, seed=4),
                               rtol=1e-9, atol=1e-12)  # fmt: skip


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_one_sided_debiased_interval(alternative):
    """One end infinite, the other the two-sided end at alpha = 1 - confidence_level."""
    res = cc.confidence_interval("ami", contingency=TABLE, n_resamples=39, rng=5,
                                 method="debiased", alternative=alternative)  # fmt: skip
    low, high = _direct_ends(res, "ami", TABLE, 0.05, seed=5)
    if alternative == "less":
        assert res.confidence_interval.low == -math.inf
        assert res.confidence_interval.high == pytest.approx(high, rel=1e-9)
    else:
        assert res.confidence_interval.high == math.inf
        assert res.confidence_interval.low == pytest.approx(low, rel=1e-9)


def test_debiased_interval_is_reproducible():
    """The same rng gives the same interval; batch and threads change no draw (the resamples
    are those of the other methods: tests/test_bootstrap.py)."""
    first = cc.confidence_interval("ami", contingency=TABLE, n_resamples=300, rng=8)
    again = cc.confidence_interval("ami", contingency=TABLE, n_resamples=300, rng=8, batch=7)
    assert first.confidence_interval == again.confidence_interval
    bca = cc.confidence_interval("ami", contingency=TABLE, n_resamples=300, rng=8, method="BCa")
    np.testing.assert_array_equal(first.bootstrap_distribution, bca.bootstrap_distribution)


@pytest.mark.parametrize("measure", ["ari", "ami"])
def test_auto_switches_at_elements_per_cell(measure):
    """"auto" (the default) is the debiased interval below DEBIASED_PER_CELL elements per
    non-zero cell and BCa from there on, bit for bit the explicit method of each side."""
    cells = np.count_nonzero(TABLE)
    below = TABLE.copy()
    below[0, 0] += DEBIASED_PER_CELL * cells - 1 - TABLE.sum()  # N = 100 C - 1
    at = below.copy()
    at[0, 0] += 1  # N = 100 C
    for table, method in ((TABLE, "debiased"), (below, "debiased"), (at, "bca")):
        auto = cc.confidence_interval(measure, contingency=table, n_resamples=99, rng=1)
        explicit = cc.confidence_interval(measure, contingency=table, n_resamples=99, rng=1,
                                          method=method)  # fmt: skip
        assert auto.method == method
        assert auto.confidence_interval == explicit.confidence_interval


def test_auto_is_bca_for_the_other_measures_and_models():
    for measure, model in (("nmi", "perm"), ("ami", "num"), ("ari", "all"), ("sri", "perm")):
        res = cc.confidence_interval(measure, contingency=TABLE, model=model, n_resamples=99,
                                     rng=1)  # fmt: skip
        assert res.method == "bca"


@pytest.mark.parametrize(("measure", "model"), [("nmi", "perm"), ("ami", "num"),
                                                 ("smi", "perm")])  # fmt: skip
def test_debiased_refused_where_it_is_not_defined(measure, model):
    with pytest.raises(InvalidInputError, match="`method='debiased'`"):
        cc.confidence_interval(measure, contingency=TABLE, model=model, method="debiased")


@pytest.mark.parametrize("method", ["debiased", "auto"])
def test_paired_test_keeps_scipys_methods(method):
    ref, a, b = [0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 1], [0, 1, 1, 1, 2, 2]
    with pytest.raises(InvalidInputError, match="`method`"):
        cc.paired_test("ari", ref, a, b, method=method)


def test_degenerate_debiased_interval():
    """Identical clusterings: every resample and every left-out table has ARI (AMI) 1, so the
    debiased interval is (1, 1) (BCa's is undefined there)."""
    labels = [0, 0, 1, 1, 2, 2, 2]
    for measure in ("ari", "ami"):
        res = cc.confidence_interval(measure, labels, labels, n_resamples=99, rng=0)
        assert res.method == "debiased"
        assert res.confidence_interval == (1.0, 1.0)


def test_debiased_interval_does_not_warn_of_the_shift():
    """The table whose BCa interval warns of the bootstrap's shift (tests/test_bootstrap.py):
    the debiased interval corrects it and does not warn."""
    rng = np.random.default_rng(3)
    small = rng.multinomial(60, np.full(40, 1 / 40)).reshape(5, 8) + np.eye(5, 8, dtype=int) * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = cc.confidence_interval("ari", contingency=small, n_resamples=999, rng=0)
    assert res.method == "debiased"
    with pytest.warns(UserWarning, match="standard errors from the observed value"):
        cc.confidence_interval("ari", contingency=small, n_resamples=999, rng=0, method="BCa")


@pytest.mark.parametrize("seed", range(3))
def test_debiased_interval_ordered_and_nested(seed):
    """low <= high, and with the same resamples a 99 % interval contains the 90 % one."""
    table = np.random.default_rng(seed).integers(0, 5, size=(3, 3)) + np.eye(3, dtype=int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        wide = cc.confidence_interval("ami", contingency=table, n_resamples=199, rng=seed,
                                      confidence_level=0.99)  # fmt: skip
        narrow = cc.confidence_interval("ami", contingency=table, n_resamples=199, rng=seed,
                                        confidence_level=0.9)  # fmt: skip
    assert wide.confidence_interval.low <= narrow.confidence_interval.low
    assert narrow.confidence_interval.low <= narrow.confidence_interval.high
    assert narrow.confidence_interval.high <= wide.confidence_interval.high


def test_studentized_values_equal_a_direct_computation():
    """Each resample's (AMI, bias-corrected AMI, jackknife standard error) in closed form
    (``_studentized_values``, rows of counts over fixed cells, zeros included) equals the
    jackknife over its elements by the single calls."""
    from chanceclust.bootstrap import _options, _studentized_values, _table_cells
    from chanceclust.expectations import _validated_table

    options = _options("ami", "perm", False, "arithmetic", 0.95, 9, "debiased", None, None,
                       "multinomial")  # fmt: skip
    table = _validated_table(None, None, TABLE, "perm", False, None, "raise")[0]
    cells = _table_cells(table, options)
    rows = np.random.default_rng(0).multinomial(table.n, table.counts / table.n, size=6)
    got = _studentized_values(options, cells, rows.astype(np.int64))
    for row, values in zip(rows, got, strict=True):
        dense = np.zeros(TABLE.shape, dtype=int)
        dense[cells.rows, cells.cols] = row
        dense = dense[dense.sum(axis=1) > 0][:, dense.sum(axis=0) > 0]
        np.testing.assert_allclose(values, _direct_pivot(dense), rtol=1e-9, atol=1e-12)


def test_studentized_ends_fall_back_where_a_pivot_is_undefined():
    """A resample whose jackknife has no spread (se_J* = 0: t undefined), or an observed
    se_J of 0, gives the percentile offsets around the corrected estimate
    (``_debiased_ends``); finite pivots give the percentile-t ends."""
    from chanceclust.bootstrap import _debiased_ends, _studentized_ends

    theta_b = np.array([0.1, 0.3, 0.2, 0.5, 0.4])
    jack, weights = np.array([0.2, 0.35, 0.3]), np.array([3, 2, 4])
    pivots = np.column_stack([theta_b - 0.05, np.array([0.1, 0.2, 0.1, 0.3, 0.2])])
    fallback = _debiased_ends(theta_b, 0.3, jack, weights, 0.1)
    finite = _studentized_ends(theta_b, 0.3, jack, weights, 0.1, pivots)
    assert finite != fallback
    n = 9
    mean = np.sum(weights * jack) / n
    center = 0.3 - (n - 1) * (mean - 0.3)
    se = math.sqrt(np.sum(weights * ((n - 1) * (mean - jack)) ** 2) / (n * (n - 1)))
    t = (pivots[:, 0] - 0.3) / pivots[:, 1]
    expected = (center - se * np.quantile(t, 0.9), center - se * np.quantile(t, 0.1))
    np.testing.assert_allclose(finite, expected, rtol=1e-12)
    undefined = pivots.copy()
    undefined[2, 1] = 0.0
    undefined[2, 0] = 0.3  # 0 / 0
    assert _studentized_ends(theta_b, 0.3, jack, weights, 0.1, undefined) == fallback
    flat = np.full(3, 0.5)  # (exact: se_J = 0)
    assert _studentized_ends(theta_b, 0.3, flat, weights, 0.1, pivots) == (
        _debiased_ends(theta_b, 0.3, flat, weights, 0.1))
