"""The interpolated rectangles of size pairs of the perm E[MI] (``size_pairs._smooth_block``).

Tiles of many gathered pairs whose cells all take the grouped pmf sums with means 10 .. 100 are
interpolated in (a, b) from rounded Chebyshev nodes, with a check at points between them. Checked
here: cells against 50-digit mpmath (``tests/reference/smooth_pairs.json`` from
``tests/reference/make_smooth_pairs.py``) and every cell against the exact window sums
(:func:`pair_information`), each at <= 1e-14 relative; both sides of every switch (means 10 and
100, s + l = N/2, the cell count, the node count, the check's tolerance); and the sums over many
pairs with and without the route.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chanceclust._expected import size_pairs as kernel

CASES = json.loads((Path(__file__).parents[1] / "reference" / "smooth_pairs.json").read_text())

# The rectangles the references sit in: (N, row sizes, column sizes).
RECTANGLES = [
    (10**9, 300_000 + 3 * np.arange(1000), 300_001 + 3 * np.arange(1000)),
    (10**7, np.arange(10_000, 10_064), np.arange(10_000, 13_001)),
    (10**6, np.arange(7_100, 7_164), np.arange(7_100, 9_901)),
]


def _exact(r, c, n):
    return kernel.pair_information(np.repeat(r, len(c)), np.tile(c, len(r)), n).reshape(
        len(r), len(c)
    )


@pytest.mark.parametrize("rectangle", RECTANGLES, ids=lambda x: f"N{x[0]}")
def test_interpolated_cells_match_mpmath(rectangle):
    n, rows, columns = rectangle
    sides = kernel._smooth_nodes(rows), kernel._smooth_nodes(columns)
    assert sides[0] is not None
    assert sides[1] is not None
    cases = [case for case in CASES if case["n"] == n]
    assert len(cases) >= 4
    for case in cases:
        a, b = case["a"], case["b"]
        assert rows[0] <= a <= rows[-1]
        assert columns[0] <= b <= columns[-1]
        # The range's ends fix the nodes; the cell itself is one more point of evaluation.
        r = np.unique([rows[0], a, rows[-1]])
        c = np.unique([columns[0], b, columns[-1]])
        values = kernel._interpolated(r, c, n, sides)
        assert values is not None
        got = values[np.searchsorted(r, a), np.searchsorted(c, b)] * n
        # Observed: <= 1e-15.
        assert got == pytest.approx(float(case["value"]), rel=1e-14)


def _worst_tiles():
    """The tiles of benchmarks/emi_pairs.py's worst row (64 rows against 1000 columns)."""
    n = 10**9
    rows, columns = 300_000 + 3 * np.arange(1000), 300_001 + 3 * np.arange(1000)
    for first in (0, 448, 936):
        yield n, rows[first : first + 64], columns


TILES = [
    *_worst_tiles(),
    (10**7, np.arange(10_000, 10_064), np.arange(10_000, 11_024)),  # means 10.0 .. 11.1
    (10**6, np.arange(9_000, 9_064), np.arange(9_900, 10_924)),  # means 89 .. 99
    (10**6, 7_100 + 7 * np.arange(64), 7_100 + 3 * np.arange(1024)),  # means 50 .. 99
    (2**40, 3_500_000 + np.arange(64), 3_500_000 + 5 * np.arange(1024)),  # N beyond int64 products
]


@pytest.mark.parametrize("tile", TILES, ids=lambda x: f"N{x[0]}-{x[1][0]}-{x[2][0]}")
def test_every_cell_matches_the_exact_sums(tile):
    n, rows, columns = tile
    assert kernel._smooth_rectangle(rows, columns, n) == (
        slice(0, len(rows)),
        slice(0, len(columns)),
    )
    values = kernel._smooth_block(rows, columns, n)
    assert values is not None
    exact = _exact(rows, columns, n)
    # Observed: <= 2e-15 (the exact sums' own rounding included).
    np.testing.assert_allclose(values, exact, rtol=1e-14, atol=0)


def test_rectangle_switches():
    """Cells of mean < 10 or >= 100, or s + l > N/2, stay out of the rectangle."""
    n = 10**6
    rows = np.arange(3_000, 3_064)
    # Means from just below 10 (3000 * 3333 / 1e6 = 9.999) to ~30: column 3333 stays out.
    columns = np.arange(3_333, 3_333 + 1024 * 6, 6)
    assert rows[0] * columns[0] / n < 10 <= rows[0] * columns[1] / n
    got = kernel._smooth_rectangle(rows, columns, n)
    assert got is not None
    assert got[1].start >= 1
    assert (rows[got[0]][0] * columns[got[1]][0]) / n >= 10
    # Means up to just below 100 are in, from 100 out.
    rows = np.arange(9_000, 9_064)
    columns = np.arange(10_000, 11_200)
    got = kernel._smooth_rectangle(rows, columns, n)
    assert got is not None
    last_row, last_column = rows[got[0]][-1], columns[got[1]][-1]
    assert last_row * last_column / n < 100 <= last_row * (last_column + 1) / n
    # s + l <= N/2: at N = 2000 the cells of s + l <= 1000 are in, the next column is not.
    n = 2_000
    rows, columns = np.arange(100, 164), np.arange(700, 1_000)
    got = kernel._smooth_rectangle(rows, columns, n)
    assert got is not None
    assert rows[got[0]][-1] + columns[got[1]][-1] <= n // 2
    assert rows[got[0]][-1] + columns[got[1]][-1] + 1 > n // 2 or got[1].stop == len(columns)
    # Fewer cells than _SMOOTH_CELLS: no rectangle.
    n = 10**9
    rows, columns = 300_000 + 3 * np.arange(4), 300_001 + 3 * np.arange(1023)
    assert len(rows) * len(columns) < kernel._SMOOTH_CELLS
    assert kernel._smooth_rectangle(rows, columns, n) is None
    assert kernel._smooth_rectangle(np.r_[rows, 300_012], columns, n) is not None
    # The first corner already has s + l > N/2 (means 47 .. 83): no rectangle.
    n = 2_000
    rows, columns = np.arange(100, 164), np.arange(950, 1_014)
    assert rows[0] + columns[0] > n // 2
    assert kernel._smooth_rectangle(rows, columns, n) is None
    assert kernel._smooth_rectangle(rows, columns - 250, n) is not None  # s + l <= N/2 there
    # The corners pass, but no cell has 10 <= mean < 100: the means jump from 9.9 to 100.
    n = 10**6
    rows = np.r_[np.arange(1, 64), 100_000]
    columns = np.r_[np.arange(1, 100), np.arange(1_000, 1_925)]
    assert rows[-1] * columns[-1] / n >= 10 > rows[0] * columns[0] / n
    assert kernel._smooth_rectangle(rows, columns, n) is None


def test_node_count_switch():
    """A side whose interpolation needs more than _SMOOTH_MAX_NODES nodes is not interpolated;
    one with no more sizes than nodes is taken at every size."""
    assert kernel._smooth_nodes(np.array([1_000, 3_000])) is None  # wide: rho ~ 3.7
    nodes, checks = kernel._smooth_nodes(np.array([1_000, 1_300]))
    assert len(nodes) <= kernel._SMOOTH_MAX_NODES
    assert len(checks) == 6
    nodes, checks = kernel._smooth_nodes(np.array([10_000, 10_003]))
    assert list(nodes) == [10_000, 10_001, 10_002, 10_003]
    nodes, checks = kernel._smooth_nodes(np.array([10_000]))  # one size: one node, exact
    assert list(nodes) == list(checks) == [10_000]
    assert (
        kernel._smooth_block(np.arange(1_000, 1_064), np.arange(1_000, 3_000), 10**5) is None
    )  # columns too wide


def test_check_rejects(monkeypatch):
    """With no tolerance the check misses: no interpolation, and the sums do not change."""
    n, rows, columns = next(_worst_tiles())
    monkeypatch.setattr(kernel, "_SMOOTH_TOL", 0.0)
    assert kernel._smooth_block(rows, columns, n) is None


def _sum(sizes_a, sizes_b, n, seed=0):
    rng = np.random.default_rng(seed)
    wa, wb = rng.random(len(sizes_a)), rng.random(len(sizes_b))
    return kernel.information_sum(sizes_a, wa, sizes_b, wb, n)


SUM_CASES = [  # the N = 10^6 cases take 4-7 s each (slow); N = 10^9 stays in the default run
    (10**9, 300_000 + 3 * np.arange(300), 300_001 + 3 * np.arange(300)),
    pytest.param(  # folded: means 4 .. 36
        (10**6, np.arange(2_000, 6_001), np.arange(2_000, 6_001)), marks=pytest.mark.slow
    ),
    pytest.param(
        (
            10**6,
            np.unique(np.random.default_rng(1).integers(2_000, 20_000, 1500)),
            np.unique(np.random.default_rng(2).integers(2_000, 20_000, 1500)),
        ),
        marks=pytest.mark.slow,
    ),
]


@pytest.mark.parametrize("case", SUM_CASES, ids=lambda x: f"N{x[0]}-{len(x[1])}")
def test_sums_with_and_without_the_route(case, monkeypatch):
    n, sizes_a, sizes_b = case
    calls = []
    block = kernel._smooth_block
    monkeypatch.setattr(kernel, "_smooth_block", lambda *a: calls.append(1) or block(*a))
    with_route = _sum(sizes_a, sizes_b, n)
    assert calls  # the route was tried
    monkeypatch.setattr(kernel, "_SMOOTH_CELLS", 2**62)
    without = _sum(sizes_a, sizes_b, n)
    assert with_route == pytest.approx(without, rel=1e-14)


@settings(max_examples=25, deadline=None)
@given(
    log_n=st.floats(5.0, 15.0),
    mean=st.floats(10.0, 99.0),
    ratio=st.floats(0.05, 1.0),
    row_step=st.integers(1, 20),
    column_step=st.integers(1, 20),
)
def test_interpolation_property(log_n, mean, ratio, row_step, column_step):
    """Wherever the route takes a tile, every cell is within 1e-14 of the exact sums."""
    n = int(10.0**log_n)
    # Sizes a ~ sqrt(mean N / ratio) ratio, b ~ sqrt(mean N / ratio): ab/N ~ mean.
    b0 = int(np.sqrt(mean * n / ratio))
    a0 = max(1, int(b0 * ratio))
    rows = a0 + row_step * np.arange(64)
    columns = b0 + column_step * np.arange(128)
    rectangle = kernel._smooth_rectangle(rows, columns, n)
    if rectangle is None:
        return
    rows, columns = rows[rectangle[0]], columns[rectangle[1]]
    values = kernel._smooth_block(rows, columns, n)
    if values is None:
        return
    np.testing.assert_allclose(values, _exact(rows, columns, n), rtol=1e-14, atol=0)


def _cost(rows, columns):
    sides = kernel._smooth_nodes(rows), kernel._smooth_nodes(columns)
    return len(sides[0][0]) * len(sides[1][0]) + len(sides[0][1]) * len(sides[1][1])


def test_cost_switch():
    """Nodes and checks cost at most 1/16 of the cells, or the tile goes pair by pair."""
    n = 10**7
    rows = 10_000 + 30 * np.arange(64)
    few, many = 10_000 + 40 * np.arange(64), 10_000 + 40 * np.arange(128)
    assert 16 * _cost(rows, few) > len(rows) * len(few)
    assert kernel._smooth_block(rows, few, n) is None
    assert 16 * _cost(rows, many) <= len(rows) * len(many)
    values = kernel._smooth_block(rows, many, n)
    assert values is not None
    np.testing.assert_allclose(values, _exact(rows, many, n), rtol=1e-14, atol=0)
