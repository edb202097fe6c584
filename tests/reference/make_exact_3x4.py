"""Reference tails of the exact null laws of RI and MI under perm for 3 x 4 tables at N = 200
(issue #34): every table with the margins enumerated by ``exact_3x4_enumerate.c`` (C, long
double, independent of chanceclust; up to 8.9e8 tables a margin set).

Run: python tests/reference/make_exact_3x4.py  (a C compiler as ``cc``; ~5 minutes)
Writes exact_3x4.json: per margin set the number of tables, the total probability, and per
observed table P(N11 >= n11), P(N11 <= n11), P(T >= T), P(T <= T) with
N11 = sum C(n_ij, 2) and T = sum n_ij ln n_ij (ties of T within 2^-28 N ln N, the library's
rule), and the count of tables near the edge of that tie width (must be 0).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (rows, cols, observed tables): balanced margins (the case the network could not sum before
# session 14) and two skewed sets, each from independence to the most concentrated tables.
CASES = [
    (
        (67, 67, 66),
        (50, 50, 50, 50),
        [
            [[17, 17, 17, 16], [17, 17, 16, 17], [16, 16, 17, 17]],
            [[22, 17, 14, 14], [14, 22, 17, 14], [14, 11, 19, 22]],
            [[35, 12, 10, 10], [8, 30, 17, 12], [7, 8, 23, 28]],
            [[50, 17, 0, 0], [0, 33, 34, 0], [0, 0, 16, 50]],
        ],
    ),
    (
        (100, 60, 40),
        (70, 60, 40, 30),
        [
            [[35, 30, 20, 15], [21, 18, 12, 9], [14, 12, 8, 6]],
            [[50, 25, 15, 10], [12, 30, 10, 8], [8, 5, 15, 12]],
            [[70, 30, 0, 0], [0, 30, 30, 0], [0, 0, 10, 30]],
        ],
    ),
    (  # the margins tests/test_significance_exact.py enumerates with numpy (5e5 tables)
        (170, 20, 10),
        (80, 60, 40, 20),
        [
            [[80, 50, 30, 10], [0, 10, 5, 5], [0, 0, 5, 5]],
            [[66, 51, 34, 19], [9, 6, 4, 1], [5, 3, 2, 0]],
        ],
    ),
    (
        (120, 50, 30),
        (90, 50, 40, 20),
        [
            [[60, 30, 20, 10], [20, 15, 10, 5], [10, 5, 10, 5]],
            [[90, 20, 10, 0], [0, 30, 20, 0], [0, 0, 10, 20]],
        ],
    ),
]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "enumerate"
        subprocess.run(["cc", "-O2", "-o", str(exe), str(HERE / "exact_3x4_enumerate.c"), "-lm"],
                       check=True)  # fmt: skip
        out = []
        for rows, cols, observed in CASES:
            for table in observed:
                assert tuple(map(sum, table)) == rows
                assert tuple(map(sum, zip(*table, strict=True))) == cols
            text = " ".join(map(str, (*rows, *cols, len(observed))))
            text += "\n" + "\n".join(" ".join(str(v) for row in t for v in row) for t in observed)
            run = subprocess.run([str(exe)], input=text, capture_output=True, text=True, check=True)
            lines = run.stdout.split("\n")
            tables, total = lines[0].split()
            tails = []
            for table, line in zip(observed, lines[1:], strict=False):
                ri_ge, ri_le, t_ge, t_le, near = line.split()
                tails.append({"table": table, "pairs_greater": ri_ge, "pairs_less": ri_le,
                              "entropy_greater": t_ge, "entropy_less": t_le,
                              "near_ties": int(near)})  # fmt: skip
            out.append({"rows": rows, "cols": cols, "tables": int(tables), "total": total,
                        "observed": tails})  # fmt: skip
            print(rows, cols, tables, total, file=sys.stderr, flush=True)
    (HERE / "exact_3x4.json").write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
