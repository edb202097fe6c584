"""40-digit references for Var[MI] on the routes added for issue 22's speed and range.

Run from the repository root: ``python tests/reference/make_mi_variance_smooth.py perm``
(about 25 minutes) writes tests/reference/mi_variance_smooth.json; ``... num`` writes
tests/reference/mi_variance_size_law.json (num with small clusters beyond N = 60, where
the random side is a size law and stays on the sums over sizes).

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
from make_mi_variance import _side, _table, expected, mutual_information, variance

CASES = {
    # (row sizes, column sizes, model, one_sided)
    "perm": [  # windows from ~60 to ~220 positions
        ([700, 440, 300, 60], [600, 500, 400], "perm", False),
        ([520, 330, 150], [610, 290, 100], "perm", False),
    ],
    "num": [  # num with K close to N: a size law, not a slot mixture
        ([30, 25, 15], [2] * 23 + [1] * 24, "num", True),
        ([2] * 8 + [1] * 48, [3] * 4 + [1] * 52, "num", False),
    ],
}


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "perm"
    out = []
    for rows, cols, model, one_sided in CASES[which]:
        table = _table(rows, cols)
        n = sum(rows)
        side_a = _side(rows, n, model, one_sided)
        side_b = _side(cols, n, model, False)
        var = variance(n, side_a, side_b)
        e = expected(n, side_a, side_b)
        mi = mutual_information(table)
        smi = (mi - e) / mp.sqrt(var)
        values = dict(zip(("variance", "expected", "smi"), (mp.nstr(v, 30) for v in (var, e, smi)),
                          strict=True))
        out.append({"table": table, "model": model, "one_sided": one_sided, "n": n, **values})
        print(n, rows, cols, mp.nstr(var, 20), flush=True)
    name = "mi_variance_smooth.json" if which == "perm" else "mi_variance_size_law.json"
    path = Path(__file__).with_name(name)
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
