"""Make the small example inputs of the README quick start (run from anywhere; numpy only).

Sixty "cells" of three types are drawn as overlapping 2-D Gaussian blobs; k-means with k = 4
(Lloyd's algorithm, fixed seed) clusters them. The same two clusterings are written in several
input formats, so that every command of the quick start gives the same answer whichever pair of
files it reads:

- ``reference.txt``   one cell type per line (line i is cell i)
- ``kmeans.txt``      one k-means cluster per line (line i is cell i)
- ``reference.csv``   ``cell,type`` table with a header, rows in a shuffled order
- ``communities.txt`` the k-means clusters, one per line, members as cell ids
- ``cells.tsv``       the contingency table of ``reference.txt`` x ``kmeans.txt`` as cells
  ``type<TAB>cluster<TAB>count`` with a header, as an engine's group-by-count writes it
- ``dbscan.txt``      DBSCAN (eps 0.6, min_samples 4) of the same cells, one label per line,
  ``-1`` for noise (the unassigned-elements examples of the documentation)
"""

from collections import Counter
from pathlib import Path

import numpy as np

SEED = 2017
HERE = Path(__file__).resolve().parent


def kmeans(x: np.ndarray, k: int, rng: np.random.Generator, n_iter: int = 100) -> np.ndarray:
    centers = x[rng.choice(len(x), size=k, replace=False)]
    for _ in range(n_iter):
        labels = np.argmin(((x[:, None, :] - centers[None, :, :]) ** 2).sum(-1), axis=1)
        new = np.array([x[labels == j].mean(0) if np.any(labels == j) else centers[j]
                        for j in range(k)])
        if np.allclose(new, centers):
            break
        centers = new
    return labels


def dbscan(x: np.ndarray, eps: float, min_samples: int) -> np.ndarray:
    """DBSCAN (Ester et al. 1996) as scikit-learn defines it (same labels here): -1 is noise."""
    near = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1) <= eps**2
    core = near.sum(1) >= min_samples
    labels = np.full(len(x), -1)
    k = 0
    for seed in np.flatnonzero(core):
        if labels[seed] != -1:
            continue
        labels[seed], stack = k, [seed]
        while stack:  # grow the cluster through core points; border points join, not spread
            for j in np.flatnonzero(near[stack.pop()] & (labels == -1)):
                labels[j] = k
                if core[j]:
                    stack.append(j)
        k += 1
    return labels


def main() -> None:
    rng = np.random.default_rng(SEED)
    types = ["T-cell"] * 25 + ["B-cell"] * 20 + ["monocyte"] * 15
    means = {"T-cell": (0.0, 0.0), "B-cell": (2.5, 0.5), "monocyte": (1.0, 2.5)}
    x = np.array([rng.normal(means[t], 0.9) for t in types])
    order = rng.permutation(len(types))  # cells are not listed grouped by type
    types = [types[i] for i in order]
    x = x[order]
    cells = [f"cell{i:02d}" for i in range(1, len(types) + 1)]
    labels = kmeans(x, 4, rng)

    (HERE / "reference.txt").write_text("".join(f"{t}\n" for t in types))
    (HERE / "kmeans.txt").write_text("".join(f"{c}\n" for c in labels))
    rows = rng.permutation(len(cells))
    (HERE / "reference.csv").write_text(
        "cell,type\n" + "".join(f"{cells[i]},{types[i]}\n" for i in rows)
    )
    communities = [[cells[i] for i in np.flatnonzero(labels == j)] for j in range(4)]
    communities.sort(key=len, reverse=True)
    (HERE / "communities.txt").write_text(
        "# k-means (k=4) clusters, one per line\n"
        + "".join(" ".join(members) + "\n" for members in communities)
    )
    cells = sorted(Counter(zip(types, labels.tolist(), strict=True)).items())
    (HERE / "cells.tsv").write_text(
        "type\tcluster\tcount\n" + "".join(f"{t}\t{c}\t{n}\n" for (t, c), n in cells)
    )
    (HERE / "dbscan.txt").write_text("".join(f"{c}\n" for c in dbscan(x, 0.6, 4)))


if __name__ == "__main__":
    main()
