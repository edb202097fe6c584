"""Section 5.3 (Figure 5): preferential attachment makes cluster sizes unequal.

A = 1,000 elements in 50 clusters of 20. B starts as a shuffled copy of A (the same sizes,
elements assigned at random, as in the authors' own example, so B is unrelated to A from the
first step) and evolves: at each step a uniformly chosen element moves to a cluster chosen
with probability proportional to the current cluster sizes (the cluster of a second uniformly
chosen element); a move that would empty a cluster is rejected, so B keeps 50 clusters. At
checkpoints we compare A and B by ARI and AMI (arithmetic normalization) under perm and under
num (two-sided), against the entropy of B's size sequence in bits.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy import stats

import chanceclust as cc
from chanceclust.paper.plotting import OKABE_ITO, pyplot, save
from chanceclust.paper.report import Progress, claims_table, fmt, write_csv

N, K = 1000, 50
COLUMNS = ("step", "entropy_bits", "ari_perm", "ari_num", "ami_perm", "ami_num", "largest")


def checkpoints(steps: int, n: int) -> np.ndarray:
    """``n`` evenly spaced steps plus a geometric ladder for the start."""
    even = np.linspace(0, steps, n + 1)
    early = np.geomspace(1, steps, n // 4)
    return np.unique(np.concatenate([even, early]).astype(np.int64))


def simulate(steps: int, marks: np.ndarray, rng: np.random.Generator, on_mark,
             start: np.ndarray | None = None) -> None:
    """Run the moves from ``start`` (default A); call ``on_mark(step, labels)`` at ``marks``."""
    labels = np.repeat(np.arange(K), N // K) if start is None else np.asarray(start)
    b = labels.tolist()
    size = [N // K] * K
    marks = marks.tolist()
    todo = iter(marks)
    nxt = next(todo)
    done = 0
    chunk = 100_000
    while nxt is not None:
        count = min(chunk, steps - done)
        movers = rng.integers(N, size=count).tolist()
        targets = rng.integers(N, size=count).tolist()  # cluster of a random element
        for t in range(count + 1):
            while nxt is not None and done + t == nxt:
                on_mark(nxt, np.asarray(b))
                nxt = next(todo, None)
            if t == count or nxt is None:
                break
            i = movers[t]
            old, new = b[i], b[targets[t]]
            if old != new and size[old] > 1:
                b[i] = new
                size[old] -= 1
                size[new] += 1
        done += count
        if count == 0:
            break


def run(out_dir: Path, *, quick: bool = False, seed: int = 0, data_dir: Path | None = None,
        progress: bool | None = None) -> str:
    """Run the experiment, write its figure and CSV into ``out_dir``; return the section."""
    steps = 100_000 if quick else 1_000_000
    marks = checkpoints(steps, 200 if quick else 1000)
    rng = np.random.default_rng(seed)
    start = np.repeat(np.arange(K), N // K)
    shuffled = rng.permutation(start)
    bar = Progress("preferential", len(marks), progress)
    rows = []

    def on_mark(step: int, labels: np.ndarray) -> None:
        table = cc.contingency_table(start, labels)
        rows.append((
            int(step),
            cc.entropy(labels) / math.log(2),
            cc.adjusted_rand_index(contingency=table),
            cc.adjusted_rand_index(contingency=table, model="num"),
            cc.adjusted_mutual_information(contingency=table),
            cc.adjusted_mutual_information(contingency=table, model="num"),
            int(np.bincount(labels).max()),
        ))
        bar.update()

    simulate(steps, marks, rng, on_mark, start=shuffled)
    bar.close()
    write_csv(out_dir / "preferential.csv", COLUMNS, rows)
    data = np.array(rows, dtype=float)
    col = {c: data[:, i] for i, c in enumerate(COLUMNS)}
    _plot(out_dir, col, steps)

    h = col["entropy_bits"]
    rho = {m: stats.spearmanr(h, col[m]).statistic for m in COLUMNS[2:6]}
    spread = {m: (col[m].min(), col[m].max()) for m in COLUMNS[2:6]}

    def rng_txt(m: str) -> str:
        return f"[{fmt(spread[m][0])}, {fmt(spread[m][1])}]"

    perm_flat = all(max(abs(v) for v in spread[m]) < 0.05 for m in ("ari_perm", "ami_perm"))
    num_up = all(rho[m] > 0.5 for m in ("ari_num", "ami_num"))
    claims = [
        (("Size-sequence entropy starts at log2 50 = 5.64 bits and falls as sizes become "
         "unequal."), "(text)", (f"from {fmt(col['entropy_bits'][0], 2)} to "
         f"{fmt(h.min(), 2)} bits (largest cluster up to {int(col['largest'].max())} elements)"),
         bool(h.min() < 5.0)),
        ("Under perm, ARI and AMI are relatively constant near 0, whatever the entropy.",
         "(Fig. 5)", (f"ARI perm in {rng_txt('ari_perm')}, AMI perm in {rng_txt('ami_perm')}; "
         f"Spearman with entropy {fmt(rho['ari_perm'], 2)} and {fmt(rho['ami_perm'], 2)} "
         "(criterion: all within +-0.05)"),
         perm_flat),
        ("Under num, ARI and AMI increase with the entropy (reflect the size sequence).",
         "(Fig. 5)", (f"ARI num in {rng_txt('ari_num')}, AMI num in {rng_txt('ami_num')}; "
         f"Spearman with entropy {fmt(rho['ari_num'], 2)} and {fmt(rho['ami_num'], 2)} "
         "(criterion: both > 0.5)"),
         num_up),
    ]
    return f"""## 3. Preferential attachment (Section 5.3, Figure 5)

![Preferential attachment](preferential/preferential.png)

A = 1,000 elements in 50 clusters of 20; B starts as a shuffled copy of A (same sizes,
elements assigned at random, as in the authors' own example) and takes {steps:,} preferential
attachment moves (seed {seed}; moves that would empty a cluster are rejected, so B keeps 50
clusters). All {len(marks)} checkpoints count, from the start (entropy
{fmt(h[0], 2)} bits) to the end ({fmt(h[-1], 2)} bits); no burn-in is needed because B is
unrelated to A from the first step. AMI uses the arithmetic (Sum) normalization; num is
two-sided, so its expectation depends on N and K only.

{claims_table(claims)}

Files: `preferential.csv` (step, entropy in bits, the four adjusted scores, largest cluster).
"""


def _plot(out_dir: Path, col: dict, steps: int) -> None:
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharex=True)
    for ax, meas, letter in ((axes[0], "ari", "a"), (axes[1], "ami", "b")):
        for model, colour, marker in (("perm", OKABE_ITO["blue"], "o"),
                                      ("num", OKABE_ITO["orange"], "s")):
            ax.scatter(col["entropy_bits"], col[f"{meas}_{model}"], s=8,
                       color=colour, marker=marker, alpha=0.7, label=f"{meas.upper()}, {model}")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.axvline(math.log2(K), color=OKABE_ITO["grey"], linestyle="--", linewidth=1,
                   label="equal sizes (log2 50)")
        ax.set(xlabel="entropy of B's cluster size sequence (bits)",
               ylabel=f"adjusted {'Rand index' if meas == 'ari' else 'mutual information'}",
               title=f"{letter}  {meas.upper()} of A (50 x 20) and B")
        ax.legend()
    fig.suptitle(f"Preferential attachment from a shuffled copy of A, {steps:,} steps: perm "
                 "ignores the size inhomogeneity, num does not")
    fig.tight_layout()
    save(fig, out_dir, "preferential")
