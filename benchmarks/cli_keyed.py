"""CLI inputs keyed by element id at scale (#20): CPU time and peak memory against pandas.

    python benchmarks/cli_keyed.py --n 13100000          # the issue's size
    python benchmarks/cli_keyed.py --n 1000000 --markdown

Each case runs in its own subprocess; its CPU time (user + system) and peak resident memory
(ru_maxrss) come from ``os.wait4``, so imports and reading count. Cases, all on the same N ids
(``e<i>``, shuffled in B) and K clusters per side:

- ``labels``: ``chanceclust compare A B`` on two labels files (matched by position);
- ``pairs``: the same on two ``element<TAB>cluster`` files (matched by id);
- ``clusters``: the same on two one-cluster-per-line files (matched by id);
- ``pandas``: ``pandas.read_csv`` of the two pairs files, ``reindex`` of B by A's ids and
  scikit-learn's ``adjusted_rand_score``: what a pandas user would do;
- ``pandas+factorize``: the same with ``pandas.factorize`` of both label columns before
  scikit-learn (whose ``np.unique`` on string objects is the slow part of ``pandas``).

Every case prints its ARI; they must agree (the clusters files' labels are ordinals, the same
partition).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

PANDAS = """
import sys
import pandas as pd
from sklearn.metrics import adjusted_rand_score
a = pd.read_csv(sys.argv[1], sep="\\t", header=None, names=["id", "label"], dtype=str)
b = pd.read_csv(sys.argv[2], sep="\\t", header=None, names=["id", "label"], dtype=str)
pred = b.set_index("id")["label"].reindex(a["id"])
if sys.argv[3] == "factorize":  # integer codes first: scikit-learn's np.unique on ints
    print(adjusted_rand_score(pd.factorize(a["label"])[0], pd.factorize(pred)[0]))
else:
    print(adjusted_rand_score(a["label"].to_numpy(), pred.to_numpy()))
"""


def write_inputs(folder: str, n: int, k: int, seed: int = 0) -> dict[str, str]:
    import numpy as np

    rng = np.random.default_rng(seed)
    ids = np.char.add("e", np.arange(n).astype(str))
    a = rng.integers(k, size=n)
    b = np.where(rng.random(n) < 0.5, a, rng.integers(k, size=n))
    order = rng.permutation(n)
    paths = {}

    def put(name: str, lines: Any) -> None:
        paths[name] = os.path.join(folder, name)
        with open(paths[name], "w") as fh:
            fh.write("\n".join(lines) + "\n")

    put("a.labels", a.astype(str))
    put("b.labels", b.astype(str))
    put("a.pairs", np.char.add(np.char.add(ids, "\t"), a.astype(str)))
    put("b.pairs", np.char.add(np.char.add(ids[order], "\t"), b[order].astype(str)))
    for side, labels in (("a", a), ("b", b)):
        sorter = np.argsort(labels, kind="stable")
        bounds = np.flatnonzero(np.diff(labels[sorter])) + 1
        put(f"{side}.clusters", [" ".join(g) for g in np.split(ids[sorter], bounds)])
    return paths


def run_case(argv: list[str]) -> dict[str, float | str]:
    """CPU s and peak MB of one subprocess (os.wait4 reaps it with its own rusage)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        text, error = out.read().decode().strip(), err.read().decode().strip()
    return {
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "wall_s": wall,
        "peak_mb": usage.ru_maxrss / 1024,
        "status": proc.returncode,
        "out": text.splitlines()[-1] if text else error[-300:],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=13_100_000)
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--cases", nargs="+", metavar="CASE", help="run only these cases")
    parser.add_argument("--write", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write_inputs(args.write, args.n, args.k)
        return
    with tempfile.TemporaryDirectory() as folder:
        # Written by a child: this process stays small, and a child's peak starts from the size
        # of the process that forked it (Linux carries ru_maxrss across fork and exec).
        subprocess.run([sys.executable, __file__, "--write", folder, "--n", str(args.n),
                        "--k", str(args.k)], check=True)
        names = ("a.labels", "b.labels", "a.pairs", "b.pairs", "a.clusters", "b.clusters")
        paths = {name: os.path.join(folder, name) for name in names}
        ours = [sys.executable, "-m", "chanceclust", "compare", "--measure", "ari",
                "--format", "tsv", "-q"]
        cases = {
            "labels": [*ours, paths["a.labels"], paths["b.labels"]],
            "pairs": [*ours, paths["a.pairs"], paths["b.pairs"]],
            "clusters": [*ours, paths["a.clusters"], paths["b.clusters"],
                         "--input-format", "clusters"],
            "pandas": [sys.executable, "-c", PANDAS, paths["a.pairs"], paths["b.pairs"], "-"],
            "pandas+factorize": [sys.executable, "-c", PANDAS, paths["a.pairs"],
                                 paths["b.pairs"], "factorize"],
        }
        cases = {name: argv for name, argv in cases.items()
                 if not args.cases or name in args.cases}
        rows = {name: run_case(argv) for name, argv in cases.items()}
    if args.markdown:
        print(f"| case (N = {args.n:,}, K = {args.k}) | CPU s | wall s | peak MB | ARI |")
        print("|---|---:|---:|---:|---|")
    for name, row in rows.items():
        value = row["out"].split("\t")[-1]
        if args.markdown:
            print(f"| {name} | {row['cpu_s']:.1f} | {row['wall_s']:.1f} | "
                  f"{row['peak_mb']:.0f} | {value} |")
        else:
            print(f"{name:16s} cpu {row['cpu_s']:7.1f} s  wall {row['wall_s']:7.1f} s  "
                  f"peak {row['peak_mb']:7.0f} MB  exit {row['status']}  {value}")


if __name__ == "__main__":
    main()
