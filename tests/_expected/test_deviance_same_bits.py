"""pmfs.deviance computes its terms in place and gathers the close elements of 1-D inputs by
position (issue #23, faster MI and E[MI]): the same values to the bit as the formula written
out with temporaries and boolean masks (below), on every branch: mostly far (1-D positions,
2-D masks), mostly close, all close, 0-d, zeros, and NaN-free edge values."""

from __future__ import annotations

import numpy as np
import pytest

from chanceclust._expected.pmfs import deviance


def _written_out(x, m, d):
    """bd0 as written before the in-place form: the specification of the bits."""
    x, m, d = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (x, m, d)))
    with np.errstate(divide="ignore", invalid="ignore"):
        v = d / (x + m)

    def far(x, m):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(x > 0, x * np.log(x / m), 0.0) + m - x

    def series(x, d, v):
        # 2 x sum_j v^(2j+1)/(2j+1) - d v by Horner in w = v^2, with as many terms as
        # make the largest w^terms < 1e-18 (at most 12)
        w = v * v
        top = float(w.max(initial=0.0))
        count = 12 if top >= 1e-2 else int(np.ceil(-18.0 / np.log10(max(top, 1e-300))))
        weights = [1.0 / (2 * j + 1) for j in range(1, min(count, 12) + 1)]
        horner = np.full(w.shape, weights[-1])
        for weight in reversed(weights[:-1]):
            horner = horner * w + weight
        return d * v + 2.0 * x * v * w * horner

    close = np.abs(v) < 0.1
    if close.ndim and 4 * np.count_nonzero(close) < close.size:
        out = far(x, m)
        out[close] = series(x[close], d[close], v[close])
        return out
    if close.all():
        return series(x, d, v)
    return np.where(close, series(x, d, np.where(close, v, 0.0)), far(x, m))


def _same(got, want):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape
    assert np.array_equal(got.reshape(-1).view(np.int64), want.reshape(-1).view(np.int64))


@pytest.mark.parametrize("scale", [3, 30, 1e3, 1e6, 1e9])
@pytest.mark.parametrize("near", [0.0, 0.3, 1.0])
def test_same_bits_as_written_out(scale, near):
    rng = np.random.default_rng(int(scale) + int(10 * near))
    for size in (1, 2, 7, 100, 4000):
        x = rng.integers(0, int(scale), size).astype(np.float64)
        m = rng.random(size) * scale * 2 + 1e-3
        pick = rng.random(size) < near  # these close to x: the series
        m[pick] = x[pick] * (1 + rng.normal(0, 0.03, pick.sum())) + 1e-3
        d = x - m
        _same(deviance(x, m, d), _written_out(x, m, d))
        # 2-D blocks (boolean masks), broadcast rows against columns, and 0-d
        xs, ms = x[: min(size, 30), None], m[None, :]
        _same(deviance(xs, ms, xs - ms), _written_out(xs, ms, xs - ms))
        _same(deviance(x[0], m[0], d[0]), _written_out(x[0], m[0], d[0]))


def test_zero_counts_and_exact_means():
    x = np.array([0.0, 0.0, 1.0, 5.0, 5.0, 1e8])
    m = np.array([0.5, 3.0, 1.0, 5.0, 4.999, 1e8 + 3])
    d = np.array([-0.5, -3.0, 0.0, 0.0, 0.001, -3.0])
    _same(deviance(x, m, d), _written_out(x, m, d))
    assert deviance(0.0, 2.5, -2.5) == 2.5
    # every element far (no series at all), as in the cells of a table of small counts
    x, m = np.array([1.0, 2.0, 3.0, 0.0, 7.0]), np.array([10.0, 0.5, 30.0, 4.0, 0.01])
    _same(deviance(x, m, x - m), _written_out(x, m, x - m))
