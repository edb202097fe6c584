"""The table route of the null of a named measure (#36): tables drawn from their margins.

A named measure depends on the contingency table alone, and under every model the table of
two random clusterings given both sides' cluster sizes has the Fisher-Freeman-Halton law
(the multivariate hypergeometric law of a table with those margins: one side is a uniform
labeling with its sizes, independent of the other). The table route draws a random side's
sizes (its ``size_sampler``), then the table given both margins (Patefield's algorithm),
where that costs less than drawing and counting N codes (``_draws_tables``). Checked here:

* the law of the drawn tables against the exact law, enumerated in Fractions: every table
  with the margins and its probability prod a_i! prod b_j! / (N! prod n_ij!) under perm;
  every labeling of the random side(s) under num, one- and two-sided;
* both sides of the switch: the route each takes, and p-values of either route against
  the exact p-value (``method="exact"``) within the Monte Carlo error;
* the values do not depend on ``batch`` and the samples come one after the other.

The chi-square thresholds are the 1e-9 upper quantiles: a correct sampler fails one with
probability 1e-9 whatever its stream, a wrong law of these sizes fails them all.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chi2

from chanceclust import significance
from chanceclust.significance import (
    TABLE_CALL_COST,
    TABLE_CELL_COST,
    _draws_tables,
    _null,
    _setup,
    null_distribution,
    significance_test,
)

SAMPLES = 20_000


def _labels(sizes):
    return np.repeat(np.arange(len(sizes)), sizes)


def _drawn_tables(setup, n_resamples, seed):
    """The tables the null of ``setup`` evaluates, as tuples (row-major, padded widths)."""
    seen = []

    def record(batch):
        width = batch.sizes_true.shape[1] * batch.k_b
        for start, count in zip(batch.starts.tolist(), batch.n_cells.tolist(), strict=True):
            dense = np.zeros(width, dtype=np.int64)
            stop = start + count
            dense[batch.cell[start:stop]] = batch.x[start:stop]
            seen.append(tuple(dense.tolist()))
        return np.zeros(batch.n_cells.size)

    recording = dataclasses.replace(setup, evaluate=record)
    _null(recording, n_resamples, np.random.default_rng(seed), None)
    return Counter(seen)


def _ffh(rows, cols):
    """Every table with the margins and its exact probability (Fractions)."""
    n = sum(rows)
    law = {}

    def fill(i, left, cells):
        if i == len(rows) - 1:  # the last row is what is left of each column
            table = cells + list(left)
            weight = math.prod(math.factorial(c) for c in table)
            law[tuple(table)] = Fraction(
                math.prod(map(math.factorial, rows)) * math.prod(map(math.factorial, cols)),
                math.factorial(n) * weight,
            )
            return
        for row in itertools.product(*(range(c + 1) for c in left)):
            if sum(row) == rows[i]:
                fill(i + 1, [c - r for c, r in zip(left, row, strict=True)], cells + list(row))

    fill(0, list(cols), [])
    return law


def _labelings_law(n, k_true, k_pred, reference=None):
    """The exact law of the table of (A, B) with B a uniform surjection onto k_pred labels and
    A the reference (one-sided) or a uniform surjection onto k_true labels: every labeling."""

    def surjections(k):
        return [x for x in itertools.product(range(k), repeat=n) if len(set(x)) == k]

    trues = [tuple(reference)] if reference is not None else surjections(k_true)
    preds = surjections(k_pred)
    counts = Counter()
    for a in trues:
        for b in preds:
            table = [0] * (k_true * k_pred)
            for i, j in zip(a, b, strict=True):
                table[i * k_pred + j] += 1
            counts[tuple(table)] += 1
    total = len(trues) * len(preds)
    return {t: Fraction(c, total) for t, c in counts.items()}


def _chi_square_ok(drawn, law, samples):
    """Pearson's statistic of the drawn tables against the exact law, below its 1e-9 upper
    quantile; every drawn table is one of the law's."""
    assert set(drawn) <= set(law), set(drawn) - set(law)
    statistic = sum((drawn.get(t, 0) - samples * float(p)) ** 2 / (samples * float(p))
                    for t, p in law.items())  # fmt: skip
    assert statistic < chi2.isf(1e-9, len(law) - 1), (statistic, len(law))


def _force_tables(monkeypatch):
    monkeypatch.setattr(significance, "TABLE_CELL_COST", 0)
    monkeypatch.setattr(significance, "TABLE_CALL_COST", 0)


@pytest.mark.parametrize(("rows", "cols"), [((5, 7), (4, 8)), ((3, 4), (2, 2, 3)),
                                             ((3, 2, 3), (2, 4, 2))])  # fmt: skip
def test_perm_tables_have_the_hypergeometric_law(rows, cols, monkeypatch):
    _force_tables(monkeypatch)
    setup = _setup("ari", _labels(rows), np.roll(_labels(cols), 1), "perm", False)
    assert _draws_tables(setup)
    law = _ffh(rows, cols)
    assert sum(law.values()) == 1
    _chi_square_ok(_drawn_tables(setup, SAMPLES, 1), law, SAMPLES)


def test_two_by_two_is_the_hypergeometric_pmf(monkeypatch):
    """2 x 2: n11 of the drawn tables against scipy's hypergeometric pmf (total variation)."""
    from scipy.stats import hypergeom

    _force_tables(monkeypatch)
    rows, cols = (6, 9), (7, 8)
    setup = _setup("ri", _labels(rows), _labels(cols)[::-1], "perm", True)
    drawn = _drawn_tables(setup, SAMPLES, 2)
    n11 = Counter()
    for table, count in drawn.items():
        n11[table[0]] += count
    pmf = hypergeom(15, 7, 6).pmf(np.arange(7))  # N, b_1, a_1
    tv = 0.5 * sum(abs(n11.get(x, 0) / SAMPLES - pmf[x]) for x in range(7))
    assert tv < 0.02  # E[TV] ~ 0.006 at 20,000 draws; 0.02 is beyond 6 standard errors


@pytest.mark.parametrize("one_sided", [True, False])
def test_num_tables_have_the_law_of_random_labelings(one_sided, monkeypatch):
    """num: the drawn side's sizes, then the table given the margins, equal the law of the
    table of uniform surjections (enumerated), one- and two-sided."""
    _force_tables(monkeypatch)
    reference = [0, 0, 0, 1, 1, 2]
    pred = [0, 1, 0, 1, 0, 1]
    setup = _setup("ami", reference, pred, "num", one_sided)
    assert _draws_tables(setup)
    law = _labelings_law(6, 3, 2, reference if one_sided else None)
    samples = SAMPLES // 2  # a scipy call per sample: ~1 s
    _chi_square_ok(_drawn_tables(setup, samples, 3), law, samples)


def test_the_switch_and_both_routes_against_the_exact_pvalue():
    """Just below the threshold the codes are drawn, at it the tables; either route's
    p-value is the exact one within its Monte Carlo error (and the same statistic)."""
    rows = (4, 3, 3)
    cols = (5, 5)
    k = len(rows) * len(cols)
    at = k * TABLE_CELL_COST  # N at the switch (perm: no call cost)
    for n, tables in ((at - 1, False), (at, True)):
        a = np.repeat(np.arange(3), [n - n // 3 - n // 4, n // 3, n // 4])
        b = (np.arange(n) * 7 % 5 == 0).astype(int)  # two clusters, mixed with a
        setup = _setup("ari", a, b, "perm", False)
        assert _draws_tables(setup) is tables
        exact = significance_test("ari", a, b, model="perm", method="exact")
        mc = significance_test("ari", a, b, model="perm", n_resamples=4000, rng=4)
        assert mc.statistic == exact.statistic
        error = math.sqrt(exact.pvalue * (1 - exact.pvalue) / 4000)
        assert abs(mc.pvalue - exact.pvalue) <= 6 * error + 1 / 4001, (n, mc.pvalue, exact.pvalue)


def test_num_switch_counts_the_call():
    """A drawn side adds TABLE_CALL_COST elements: the codes below it, the tables above."""
    k_a, k_b = 2, 3
    at = k_a * k_b * TABLE_CELL_COST + TABLE_CALL_COST
    for n, tables in ((at - 1, False), (at, True)):
        a, b = np.arange(n) % k_a, np.arange(n) % k_b
        assert _draws_tables(_setup("ami", a, b, "num", True)) is tables
        assert not _draws_tables(_setup("ami", a, b, "all", True))  # K varies: the codes
        assert not _draws_tables(_setup(lambda x, y: 0.0, a, b, "perm", True))  # codes


@pytest.mark.parametrize(("model", "one_sided"), [("perm", False), ("num", True),
                                                  ("num", False)])  # fmt: skip
def test_tables_do_not_depend_on_batch_and_come_one_after_another(model, one_sided,
                                                                  monkeypatch):
    _force_tables(monkeypatch)
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 3, 60), rng.integers(0, 4, 60)
    kw = {"model": model, "one_sided": one_sided, "rng": 6}
    whole = null_distribution("ami", a, b, n_resamples=30, **kw)
    for batch in (1, 7, 100):
        assert np.array_equal(null_distribution("ami", a, b, n_resamples=30, batch=batch, **kw),
                              whole)  # fmt: skip
    assert np.array_equal(null_distribution("ami", a, b, n_resamples=12, **kw), whole[:12])
    assert not np.array_equal(null_distribution("ami", a, b, n_resamples=30, model=model,
                                                one_sided=one_sided, rng=7), whole)  # fmt: skip


def test_the_table_route_is_a_route_of_the_same_measure():
    """The tables' values are the measure of the drawn table: against the library's single
    call on labels with that table, for every sample."""
    from chanceclust._registry import MEASURES

    a, b = np.repeat(np.arange(3), [40, 30, 30]), np.tile([0, 1], 50)
    setup = _setup("nmi", a, b, "perm", False)
    assert _draws_tables(setup)
    tables = _drawn_tables(setup, 50, 8)
    null = null_distribution("nmi", a, b, model="perm", n_resamples=50, rng=8)
    want = set()
    for table in tables:
        cells = np.array(table).reshape(3, 2)
        x = np.repeat(np.repeat(np.arange(3), 2), cells.ravel())
        y = np.repeat(np.tile(np.arange(2), 3), cells.ravel())
        want.add(round(MEASURES["nmi"].function(x, y), 12))
    assert {round(v, 12) for v in null} == want


@pytest.mark.parametrize(("a", "b"), [([0] * 8, [0] * 8), ([0] * 8, [0, 1] * 4),
                                      ([0, 1, 1, 2, 2, 2], [0] * 6)])  # fmt: skip
def test_a_single_row_or_column_is_its_one_table(a, b, monkeypatch):
    """One cluster on a side: the one table with the margins, and no draw (scipy's Patefield
    returns wrong cells there, so it is not called)."""
    _force_tables(monkeypatch)
    for model, one_sided in (("perm", False), ("num", True), ("num", False)):
        setup = _setup("ri", a, b, model, one_sided)
        assert _draws_tables(setup)
        gen = np.random.default_rng(0)
        null = _null(setup, 5, gen, None)
        if model == "perm":
            assert np.array_equal(null, np.full(5, setup.statistic))
            assert gen.integers(2**62) == np.random.default_rng(0).integers(2**62)
        assert np.all((null >= 0) & (null <= 1))
