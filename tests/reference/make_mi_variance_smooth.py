"""40-digit references for Var[MI] where the engine interpolates conditional expectations.

Run from the repository root: ``python tests/reference/make_mi_variance_smooth.py`` (a few
minutes). Writes tests/reference/mi_variance_smooth.json.

The values come from the defining sums of make_mi_variance.py (every cell pair's covariance
summed over the whole support in 40-digit mpmath, no window, no interpolation), at uneven
cluster sizes chosen so that the engine's hypergeometric windows lie on both sides of its
interpolation switch (mi_variance.SMOOTH_MIN = 96 positions, docs/math.md#math-routes): the
small cluster's cells are summed at every position, the others through interpolation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_mi_variance import _table, expected, fixed_moments, mutual_information, variance

CASES = [
    # (row sizes, column sizes): perm, windows from ~60 to ~220 positions.
    ([700, 440, 300, 60], [600, 500, 400]),
    ([520, 330, 150], [610, 290, 100]),
]


def main() -> None:
    out = []
    for rows, cols in CASES:
        table = _table(rows, cols)
        n = sum(rows)
        side_a, side_b = fixed_moments(rows), fixed_moments(cols)
        var = variance(n, side_a, side_b)
        e = expected(n, side_a, side_b)
        mi = mutual_information(table)
        out.append(
            {
                "table": table,
                "model": "perm",
                "one_sided": False,
                "n": n,
                "variance": mp.nstr(var, 30),
                "expected": mp.nstr(e, 30),
                "smi": mp.nstr((mi - e) / mp.sqrt(var), 30),
            }
        )
        print(n, rows, cols, mp.nstr(var, 20), flush=True)
    path = Path(__file__).with_name("mi_variance_smooth.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
