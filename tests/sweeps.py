"""Sampling of the largest parametrized sweeps, to keep the default test run short.

``sampled(params, every)`` keeps every ``every``-th case of a sweep in the default run and
marks the others ``slow``: ``python -m pytest`` (the README's command, and CI's) deselects
``slow``; ``python -m pytest -m slow`` runs the rest, and ``python -m pytest -m "slow or not
slow"`` runs everything. Choose ``every`` coprime with the sweep's inner cycles (e.g. 5 or 7
for 3 models x 2 sides) so that the kept cases still cover every model and side.
"""

from __future__ import annotations

import pytest
from _pytest.mark.structures import ParameterSet


def sampled(params, every: int) -> list:
    out = []
    for i, p in enumerate(params):
        if not isinstance(p, ParameterSet):
            p = pytest.param(*(p if isinstance(p, tuple) else (p,)))
        if i % every:
            p = pytest.param(*p.values, marks=(*p.marks, pytest.mark.slow), id=p.id)
        out.append(p)
    return out
