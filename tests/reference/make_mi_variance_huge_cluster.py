"""50-digit references for Var[MI] of tables with one cluster of almost every element
(tests/reference/mi_variance_huge_cluster.json, issue #35), independent of chanceclust.

Run from the repository root: ``python tests/reference/make_mi_variance_huge_cluster.py``
(a few minutes).

Reuses the definitions of ``make_mi_variance.py`` (read its notes), in 50 digits:

- ``perm``: one cluster of N - k elements beside k singletons, against two halves, for
  N = 400 to 3200: the sum over ordered pairs of cells of Cov(bd0, bd0') with exact
  hypergeometric pmfs (``variance``). Var[MI] is tiny there against each cell's variance
  (the singletons' cells of one row cancel), so these test the engine's cancellation;
- one-sided ``num`` and ``all`` for the table [[N - 40, 3, 2], [5, 10, 0], [0, 7, 13]]
  of issue #35: the slot sums from first principles (``slot_variance``: exact mixture
  weights, exact binomial pmfs, every cell function bd0).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import reference.make_mi_variance as defs

PERM_N = (400, 800, 1600, 3200)
PERM_K = (2, 3, 4, 10, 40)
SLOT_CASES = ((300, "num"), (200, "all"))


def singletons_table(n: int, k: int) -> list[list[int]]:
    """One cluster of n - k elements and k singletons (rows) against two halves."""
    half, first = n // 2, (k + 1) // 2
    return [[half - first, n - half - (k - first)]] + [[1, 0]] * first + [[0, 1]] * (k - first)


def issue_table(n: int) -> list[list[int]]:
    return [[n - 40, 3, 2], [5, 10, 0], [0, 7, 13]]


def _clear() -> None:
    for f in (defs.hyp, defs.mean_dev, defs.var_dev, defs.given, defs.binom):
        f.cache_clear()


def main() -> None:
    mp.mp.dps = 50
    out = []
    for n in PERM_N:
        for k in PERM_K:
            table = singletons_table(n, k)
            rows = [sum(r) for r in table]
            cols = [sum(c) for c in zip(*table, strict=True)]
            var = defs.variance(n, defs.fixed_moments(rows), defs.fixed_moments(cols))
            out.append({"kind": "perm", "model": "perm", "n": n, "k": k, "table": table,
                        "variance": mp.nstr(var, 40)})
            print(n, k, mp.nstr(var, 20), flush=True)
            _clear()
    for n, model in SLOT_CASES:
        table = issue_table(n)
        rows = [sum(r) for r in table]
        var, e = defs.slot_variance(rows, n, 3 if model == "num" else None)
        out.append({"kind": "slots", "model": model, "n": n, "table": table,
                    "variance": mp.nstr(var, 40), "expected": mp.nstr(e, 40)})
        print(n, model, mp.nstr(var, 20), flush=True)
        _clear()
    path = Path(__file__).with_name("mi_variance_huge_cluster.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
