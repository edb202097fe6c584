"""The 2-D pmf blocks of information_sum (1 < mean <= 10) are gathered and stepped together
(``size_pairs._MidBlocks``, issue #38: perm AMI at N = 10^5 with Dirichlet sizes was 1.5-2x
slower than one block at a time allowed): the same values to the bit as the block-by-block
Horner sums written out below (the code before the change: the specification of the bits),
whatever the batch (``_MID_CELLS`` from 1 cell to all of them), and ``pmfs.deviance_in_parts``
equal to the bit to one ``deviance`` call per part, with the series' length of each part."""

from __future__ import annotations

import numpy as np
import pytest

from chanceclust._expected import size_pairs as kernel
from chanceclust._expected.pmfs import deviance, deviance_in_parts
from chanceclust._expected.windows import tail_halfwidth


def _same(got, want):
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    assert got.shape == want.shape
    assert np.array_equal(got.reshape(-1).view(np.int64), want.reshape(-1).view(np.int64))


def _one_block(s, l, n, centre, mean, top):
    """The block-by-block Horner sums (one block per call), as written before the batches."""
    end = int(np.ceil(top + tail_halfwidth(np.array([top]))[0]))
    end = min(end, int(max(s.max(), 1)))
    x = np.arange(end + 1.0)
    sf, lf = s.astype(np.float64), l.astype(np.float64)
    terms = deviance(x[None, :], centre[:, None], x[None, :] - centre[:, None])
    rest = (float(n) + 1.0) - np.add.outer(sf, lf)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        total = np.repeat(terms[:, end : end + 1], len(lf), axis=1)
        mass = np.ones(total.shape)
        ratio = np.empty(total.shape)
        for k in range(end - 1, -1, -1):
            np.add(rest, float(k), out=ratio)
            np.divide(np.multiply.outer((sf - k) / (k + 1.0), lf - k), ratio, out=ratio)
            total *= ratio
            total += terms[:, k : k + 1]
            mass *= ratio
            mass += 1.0
        return total / mass - deviance(mean, centre[:, None], mean - centre[:, None])


class _OneBlockAtATime(kernel._MidBlocks):
    """Each block's part at once, by ``_one_block``."""

    def add(self, parts, s, l, centre, mean, top, mid, weights, total):
        values = _one_block(s, l, self.n, centre, mean, top)
        total += float(np.sum(np.where(mid, values, 0.0) * weights))
        parts.append(total / self.n)


def _dirichlet_sizes(n, k, alpha, seed):
    rng = np.random.default_rng(seed)
    sizes = np.bincount(rng.choice(k, n, p=rng.dirichlet(np.full(k, alpha))), minlength=k)
    sizes, counts = np.unique(sizes[sizes > 0], return_counts=True)
    return sizes, counts.astype(np.float64)


CASES = [  # (N, (K, alpha) of one side, of the other): many pmf blocks of varied windows
    (10**5, (40, 0.5), (700, 0.5)),
    (10**5, (300, 1.0), (300, 1.0)),
    (10**5, (12, 0.3), (2000, 2.0)),
    (3 * 10**4, (100, 0.5), (250, 0.7)),
    (10**6, (900, 0.5), (1500, 0.5)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c[0]}-K{c[1][0]}-K{c[2][0]}")
@pytest.mark.parametrize("batch", [1, 1 << 9, 1 << 14, 1 << 40])
def test_batched_blocks_give_the_bits_of_one_block_at_a_time(case, batch, monkeypatch):
    n, (ka, alpha_a), (kb, alpha_b) = case
    sizes_a, weights_a = _dirichlet_sizes(n, ka, alpha_a, ka)
    sizes_b, weights_b = _dirichlet_sizes(n, kb, alpha_b, kb + 1)
    blocks = []
    original = kernel._MidBlocks.add

    def counting(self, *args):
        blocks.append(np.count_nonzero(args[6]))
        return original(self, *args)

    monkeypatch.setattr(kernel, "_MID_CELLS", batch)
    monkeypatch.setattr(kernel, "_MID_MIN_CELLS", 0)  # the blocks however few their cells
    monkeypatch.setattr(kernel._MidBlocks, "add", counting)
    got = kernel.information_sum(sizes_a, weights_a, sizes_b, weights_b, n)
    assert len(blocks) >= 3  # the route is taken, by several blocks
    assert sum(blocks) >= 50
    monkeypatch.setattr(kernel, "_MidBlocks", _OneBlockAtATime)
    want = kernel.information_sum(sizes_a, weights_a, sizes_b, weights_b, n)
    _same(got, want)


def test_deviance_in_parts_gives_the_bits_of_one_call_per_part():
    """Parts whose close elements need different series lengths (largest w from ~1e-2 down to
    ~1e-12 and 0), parts with no close element, all far, single elements."""
    rng = np.random.default_rng(7)
    parts = []
    for spread in (0.09, 0.05, 0.02, 1e-3, 1e-6, 0.0, None, 0.3):
        for size in (1, 5, 200):
            x = rng.integers(0, 500, size).astype(np.float64)
            if spread is None:  # x = 0 against positive m: far
                x[:] = 0.0
                m = rng.random(size) * 5 + 0.5
            else:
                m = np.maximum(x * (1 + rng.uniform(-spread, spread, size)), 1e-3)
            parts.append((x, m, x - m))
    order = rng.permutation(len(parts))
    parts = [parts[i] for i in order]
    x, m, d = (np.concatenate([part[k] for part in parts]) for k in range(3))
    starts = np.cumsum([0, *(len(part[0]) for part in parts[:-1])])
    got = deviance_in_parts(x, m, d, starts)
    want = np.concatenate([deviance(*part) for part in parts])
    _same(got, want)
