"""Symmetric where the mathematics is, to the last bit; never mirrored where it is not (#19).

Two-sided measures and expectations are computed on a canonical orientation (the table's
cells in one order for (A, B) and (B, A); the two random sides in one order), so swapping
the clusterings gives the same float exactly. ``pairwise`` computes one triangle only where
the registry says the measure is symmetric for the options given, and every entry equals
the single call.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import chanceclust as cc
from chanceclust._registry import MEASURES

MODELS = ("perm", "num", "all")
SYMMETRIC_METHODS = ("min", "geometric", "arithmetic", "max")


def _clusterings(seed: int, m: int = 8, n: int = 60) -> list[np.ndarray]:
    """m clusterings of n elements with assorted numbers and sizes of clusters."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(m):
        k = int(rng.integers(1, 12))
        weights = rng.dirichlet(np.full(k, 0.3 + i / 4))
        out.append(rng.choice(k, size=n, p=weights))
    out.append(out[0].copy())  # an identical pair: a table equal to its own transpose
    out.append(np.repeat(np.arange(6), 10))
    out.append(np.tile(np.arange(6), 10))  # same sizes as the previous one, other partition
    return out


def _two_sided_functions():
    yield "rand_index", cc.rand_index
    yield "mutual_information", cc.mutual_information
    yield "fowlkes_mallows_index", cc.fowlkes_mallows_index
    yield "jaccard_index", cc.jaccard_index
    yield "variation_of_information", cc.variation_of_information
    for method in SYMMETRIC_METHODS:
        yield f"nmi-{method}", functools.partial(
            cc.normalized_mutual_information, average_method=method
        )
    for model in MODELS:
        yield f"ari-{model}", functools.partial(cc.adjusted_rand_index, model=model)
        yield f"eri-{model}", functools.partial(cc.expected_rand_index, model=model)
        yield f"emi-{model}", functools.partial(cc.expected_mutual_information, model=model)
        yield f"var-{model}", functools.partial(cc.rand_index_variance, model=model)
        yield f"sri-{model}", functools.partial(cc.standardized_rand_index, model=model)
        for method in SYMMETRIC_METHODS:
            yield f"ami-{model}-{method}", functools.partial(
                cc.adjusted_mutual_information, model=model, average_method=method
            )


@pytest.mark.parametrize(("name", "function"), list(_two_sided_functions()))
def test_two_sided_values_are_symmetric_to_the_last_bit(name, function):
    for seed in (0, 1):
        items = _clusterings(seed)
        for i, a in enumerate(items):
            for b in items[i:]:
                assert function(a, b) == function(b, a), (name, seed)


@pytest.mark.parametrize("model", ["num", "all"])
def test_two_sided_baselines_are_symmetric(model):
    kw = {"n_clusters_true": 3, "n_clusters_pred": 40} if model == "num" else {}
    swapped = {"n_clusters_true": 40, "n_clusters_pred": 3} if model == "num" else {}
    for f in (cc.expected_rand_index_baseline, cc.expected_mutual_information_baseline):
        assert f(500, model=model, **kw) == f(500, model=model, **swapped)
    sizes_a, sizes_b = [7, 5, 3, 1], [4, 4, 4, 4]
    for f in (cc.expected_rand_index_baseline, cc.expected_mutual_information_baseline):
        assert f(16, sizes_true=sizes_a, sizes_pred=sizes_b) == f(
            16, sizes_true=sizes_b, sizes_pred=sizes_a
        )


def test_a_given_table_and_its_transpose_agree():
    rng = np.random.default_rng(5)
    for _ in range(20):
        table = rng.integers(0, 9, size=(int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        table[0, 0] += 1
        for f in (cc.mutual_information, cc.variation_of_information):
            assert f(contingency=table) == f(contingency=table.T)
        for model in MODELS:
            assert cc.adjusted_mutual_information(
                contingency=table, model=model
            ) == cc.adjusted_mutual_information(contingency=table.T, model=model)


def _single(name, model, one_sided, method):
    measure = MEASURES[name]
    kwargs = {}
    if measure.uses_model:
        kwargs.update(model=model, one_sided=one_sided)
    if measure.normalized:
        kwargs["average_method"] = method
    return functools.partial(measure.function, **kwargs)


def _options():
    for name, measure in MEASURES.items():
        models = MODELS if measure.uses_model else ("perm",)
        sides = (False, True) if measure.uses_model else (False,)
        methods = (*SYMMETRIC_METHODS, "true", "pred") if measure.normalized else ("arithmetic",)
        for model in models:
            for one_sided in sides:
                for method in methods:
                    yield name, model, one_sided, method


@pytest.mark.parametrize(("name", "model", "one_sided", "method"), list(_options()))
def test_every_pairwise_entry_is_the_single_call(name, model, one_sided, method):
    # Exact Var[MI] (SMI) costs seconds per pair under num and all at N = 60: 20 elements.
    items = _clusterings(3, m=4)
    items = [c[:20] for c in items] if name == "smi" else items
    result = cc.pairwise(
        items, measure=name, model=model, one_sided=one_sided, average_method=method
    )
    single = _single(name, model, one_sided, method)
    expected = np.array([[single(a, b) for b in items] for a in items])
    np.testing.assert_array_equal(result.values, expected)


def test_pairwise_does_not_mirror_a_one_side_normalization():
    # The example of issue #20: the single call gives 0.5755, the mirrored matrix 0.2991.
    runs = [[0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 1, 1, 1]]
    result = cc.pairwise(runs, measure="nmi", average_method="true")
    single = cc.normalized_mutual_information(runs[1], runs[0], average_method="true")
    assert result.values[1, 0] == single
    assert round(single, 4) == 0.5755
    assert result.values[0, 1] != result.values[1, 0]


def test_registry_symmetry_flags():
    assert MEASURES["ami"].symmetric(one_sided=False, average_method="arithmetic")
    assert not MEASURES["ami"].symmetric(one_sided=True, average_method="arithmetic")
    assert not MEASURES["nmi"].symmetric(one_sided=False, average_method="true")
    assert MEASURES["vi"].symmetric(one_sided=True, average_method="pred")  # no model, no norm


def _column_major(table):
    """The order of a row-major table's cells by (column, row)."""
    return np.lexsort((table.rows, table.cols))


def _transposing_order_by_whole_lists(table):
    """The rule of measures._transposes, written out on whole cell lists (the spec the
    block-by-block search must reproduce)."""
    rows_sorted, cols_sorted = np.sort(table.row_sums), np.sort(table.col_sums)
    if len(rows_sorted) != len(cols_sorted):
        return None if len(rows_sorted) < len(cols_sorted) else _column_major(table)
    differ = np.flatnonzero(rows_sorted != cols_sorted)
    if differ.size:
        return None if rows_sorted[differ[0]] < cols_sorted[differ[0]] else _column_major(table)
    order = _column_major(table)
    cells = np.stack([table.rows, table.cols, table.counts], axis=1)
    transposed = np.stack([table.cols[order], table.rows[order], table.counts[order]], axis=1)
    differ = np.flatnonzero(np.any(cells != transposed, axis=1))
    if not differ.size:
        return None
    first = differ[0]
    column = int(np.flatnonzero(cells[first] != transposed[first])[0])
    return None if cells[first, column] < transposed[first, column] else order


@pytest.mark.parametrize("chunk", [1, 2, 3, 1 << 16])
def test_canonical_orientation_found_block_by_block(monkeypatch, chunk):
    """Tables whose sides have the same sorted sizes, where the first cell that differs from
    the transpose's lies in the first block or a later one (blocks of ``chunk`` cells): the
    same orientation as the rule on whole lists, and the measures symmetric to the bit."""
    from chanceclust import measures
    from chanceclust.contingency import _summarize

    monkeypatch.setattr(measures, "_CELL_CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    for _ in range(40):
        k = int(rng.integers(1, 6))
        sym = rng.integers(0, 4, size=(k, k))
        sym = sym + sym.T  # its own transpose
        table = sym.copy()
        if k > 1 and rng.random() < 0.7:  # swap two columns' cells late in the list: same sizes
            i = int(rng.integers(0, k))
            table[i], table[(i + 1) % k] = sym[(i + 1) % k], sym[i]
            table = table[:, np.argsort(table.sum(axis=0), kind="stable")]
        table[-1, -1] += 1
        summary = _summarize(None, None, table)
        got, want = measures._transposes(summary), _transposing_order_by_whole_lists(summary)
        assert got == (want is not None)
        for f in (cc.mutual_information, cc.adjusted_mutual_information):
            assert f(contingency=table) == f(contingency=table.T)


def _cells_by_argsort(table):
    order = _column_major(table)
    return table.counts[order], table.rows[order], table.cols[order]


def _column_major_cells(measures, table):
    counts, cols, rows = measures._major_cells(
        table.counts, table.cols, table.rows, len(table.col_sums), len(table.row_sums)
    )
    return counts, rows, cols


@pytest.mark.parametrize("packed", [False, True])
def test_column_major_cells_by_packed_keys_or_by_argsort(monkeypatch, packed):
    """The transposed cells as packed int64 keys sorted (numpy >= 2) or by the stable argsort
    of the columns (older numpy, or keys beyond 63 bits): the same cells in the same order."""
    from chanceclust import measures
    from chanceclust.contingency import _summarize

    monkeypatch.setattr(measures, "_PACKED_SORT", packed)
    rng = np.random.default_rng(3)
    for _ in range(30):
        shape = tuple(int(k) for k in rng.integers(1, 40, size=2))
        table = rng.integers(0, 3, size=shape) * rng.integers(1, 1000, size=shape)
        if not table.any():
            continue
        summary = _summarize(None, None, table)
        for got, want in zip(_column_major_cells(measures, summary), _cells_by_argsort(summary),
                             strict=True):
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype or got.dtype.kind == want.dtype.kind == "i"


@pytest.mark.parametrize("count_bits", [61, 62])
def test_column_major_cells_at_the_63_bit_switch(count_bits):
    """Keys of exactly 63 bits are packed; one more bit goes the argsort way: same cells."""
    from chanceclust import measures
    from chanceclust.contingency import _summarize

    table = np.zeros((2, 2), dtype=object)  # 1 row bit + 1 column bit + the counts' bits
    table[0, 1], table[1, 0], table[1, 1] = 2 ** (count_bits - 1), 3, 2**count_bits - 1
    summary = _summarize(None, None, table)
    for got, want in zip(_column_major_cells(measures, summary), _cells_by_argsort(summary),
                         strict=True):
        np.testing.assert_array_equal(got, want)
    assert cc.mutual_information(contingency=table) == cc.mutual_information(contingency=table.T)
