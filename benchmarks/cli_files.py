"""``chanceclust compare`` on files (#23): CPU time and peak memory against a columnar reader.

    python benchmarks/cli_files.py --n 1000000                 # quick
    python benchmarks/cli_files.py --n 10000000 --rounds 3 --markdown   # the issue's size

Each case runs in its own subprocess; its CPU time (user + system) and peak resident memory
(ru_maxrss) come from ``os.wait4`` (``run_case`` of ``cli_keyed.py``), so imports and reading
count. Rounds are paired: every round runs every case once, in the same order; the table shows
medians. The inputs, N elements and K clusters per side (integer labels, B agrees with A on
half of the elements):

- ``labels``: ``chanceclust compare a.txt b.txt`` on two files of one label per line; floor
  ``labels-pandas``: ``pandas.read_csv`` of both files and a ``numpy.bincount`` of the pairs;
- ``tsv``: ``chanceclust compare t.tsv --column a --column b`` on one TSV with a header ``a, b``;
  floors ``tsv-pandas`` and ``tsv-pyarrow`` (``pyarrow.csv.read_csv``), each with the bincount;
- ``parquet``: ``chanceclust compare t.parquet --column a --column b``; floor
  ``parquet-pyarrow``: ``pyarrow.parquet.read_table`` and the bincount.

Every case prints the ARI (the floors compute it from their bincount, which costs
milliseconds): the column must agree across a row group of cases.

``import``: ``python -c "import chanceclust.cli"`` (the CLI's entry point, which imports the
library's core) beside ``import-numpy``. ``--baseline SRC`` adds ``labels@base``, ``tsv@base``
and ``import@base``: the same commands with ``PYTHONPATH=SRC`` (e.g. ``git archive`` of an
older commit's ``src``), paired in the same rounds. Run it with bytecode caching on (unset
``PYTHONDONTWRITEBYTECODE``): the first round then warms the caches, or every import recompiles.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_keyed import run_case  # a sibling script, not a package

#: The floors: read the two label columns, count the pairs with one bincount, print the ARI
#: (so that their value is checked against ours; the ARI of a table costs microseconds).
FLOOR = """
import sys
import numpy as np
kind, paths = sys.argv[1], sys.argv[2:]
if kind == "pandas-labels":
    import pandas as pd
    a, b = (pd.read_csv(p, header=None, names=["x"])["x"].to_numpy() for p in paths)
elif kind == "pandas-tsv":
    import pandas as pd
    frame = pd.read_csv(paths[0], sep="\\t")
    a, b = frame["a"].to_numpy(), frame["b"].to_numpy()
elif kind == "pyarrow-tsv":
    import pyarrow.csv as pacsv
    table = pacsv.read_csv(paths[0], parse_options=pacsv.ParseOptions(delimiter="\\t"))
    a, b = table.column("a").to_numpy(), table.column("b").to_numpy()
else:
    import pyarrow.parquet as pq
    table = pq.read_table(paths[0], columns=["a", "b"])
    a, b = table.column("a").to_numpy(), table.column("b").to_numpy()
kb = int(b.max()) + 1
table = np.bincount(a * kb + b).astype(np.float64)
n = a.size
pairs = lambda x: float((x * (x - 1) / 2).sum())
cells = pairs(table)
rows = pairs(np.bincount(a).astype(np.float64))
cols = pairs(np.bincount(b).astype(np.float64))
expected = rows * cols / (n * (n - 1) / 2)
print((cells - expected) / ((rows + cols) / 2 - expected))
"""


def write_inputs(folder: str, n: int, k: int, seed: int = 0) -> None:
    import numpy as np

    rng = np.random.default_rng(seed)
    a = rng.integers(k, size=n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(k, size=n))
    text_a, text_b = a.astype(str), b.astype(str)
    for name, lines in (("a.txt", text_a), ("b.txt", text_b)):
        with open(os.path.join(folder, name), "w") as fh:
            fh.write("\n".join(lines) + "\n")
    with open(os.path.join(folder, "t.tsv"), "w") as fh:
        fh.write("a\tb\n" + "\n".join(np.char.add(np.char.add(text_a, "\t"), text_b)) + "\n")
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"a": a, "b": b}), os.path.join(folder, "t.parquet"))


def cases(folder: str, baseline: str | None = None) -> dict[str, list[str]]:
    path = {name: os.path.join(folder, name) for name in ("a.txt", "b.txt", "t.tsv", "t.parquet")}
    ours = [sys.executable, "-m", "chanceclust", "compare", "--measure", "ari",
            "--format", "tsv", "-q"]
    floor = [sys.executable, "-c", FLOOR]
    base = {}
    if baseline:
        env = ["env", f"PYTHONPATH={os.path.abspath(baseline)}"]
        base = {
            "labels@base": [*env, *ours, path["a.txt"], path["b.txt"]],
            "tsv@base": [*env, *ours, path["t.tsv"], "--column", "a", "--column", "b"],
            "import@base": [*env, sys.executable, "-c", "import chanceclust.cli"],
        }
    return {
        **base,
        "import": [sys.executable, "-c", "import chanceclust.cli"],
        "import-numpy": [sys.executable, "-c", "import numpy"],
        "labels": [*ours, path["a.txt"], path["b.txt"]],
        "labels-pandas": [*floor, "pandas-labels", path["a.txt"], path["b.txt"]],
        "tsv": [*ours, path["t.tsv"], "--column", "a", "--column", "b"],
        "tsv-pandas": [*floor, "pandas-tsv", path["t.tsv"]],
        "tsv-pyarrow": [*floor, "pyarrow-tsv", path["t.tsv"]],
        "parquet": [*ours, path["t.parquet"], "--column", "a", "--column", "b"],
        "parquet-pyarrow": [*floor, "pyarrow-parquet", path["t.parquet"]],
    }


#: Each of ours against its floor (the first floor named is the one of the goal's ratio).
FLOORS = {"labels": "labels-pandas", "tsv": "tsv-pandas", "parquet": "parquet-pyarrow",
          "labels@base": "labels-pandas", "tsv@base": "tsv-pandas", "import": "import-numpy",
          "import@base": "import-numpy"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--cases", nargs="+", metavar="CASE", help="run only these cases")
    parser.add_argument("--baseline", metavar="SRC", help="also run ours from this src folder")
    parser.add_argument("--write", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write_inputs(args.write, args.n, args.k)
        return
    with tempfile.TemporaryDirectory() as folder:
        # Written by a child: a child's peak starts from the size of the process that forked it.
        subprocess.run([sys.executable, __file__, "--write", folder, "--n", str(args.n),
                        "--k", str(args.k)], check=True)
        chosen = {name: argv for name, argv in cases(folder, args.baseline).items()
                  if not args.cases or name in args.cases}
        runs: dict[str, list[dict]] = {name: [] for name in chosen}
        for _ in range(args.rounds):
            for name, argv in chosen.items():
                runs[name].append(run_case(argv))
    rows = {}
    for name, results in runs.items():
        rows[name] = {
            "cpu_s": statistics.median(r["cpu_s"] for r in results),
            "peak_mb": statistics.median(r["peak_mb"] for r in results),
            "value": results[-1]["out"].split("\t")[-1],
            "status": max(r["status"] for r in results),
        }
    if args.markdown:
        print(f"| case (N = {args.n:,}, K = {args.k}, median of {args.rounds}) | CPU s | "
              "peak MB | CPU / floor | peak / floor | ARI |")
        print("|---|---:|---:|---:|---:|---|")
    for name, row in rows.items():
        floor = rows.get(FLOORS.get(name, ""))
        ratio = (f"{row['cpu_s'] / floor['cpu_s']:.2f}x", f"{row['peak_mb'] / floor['peak_mb']:.2f}x"
                 ) if floor else ("", "")
        if args.markdown:
            print(f"| {name} | {row['cpu_s']:.2f} | {row['peak_mb']:.0f} | {ratio[0]} | "
                  f"{ratio[1]} | {row['value'][:12]} |")
        else:
            print(f"{name:16s} cpu {row['cpu_s']:6.2f} s  peak {row['peak_mb']:6.0f} MB  "
                  f"{ratio[0]:>7s} {ratio[1]:>7s}  exit {row['status']}  {row['value']}")


if __name__ == "__main__":
    main()
