"""Section 5.4 (Figure 6): hierarchical clustering of 35 gene expression studies.

Each study of de Souto et al. (2008) is clustered by agglomerative clustering with average
linkage on the correlation distance between samples (1 - Pearson r over the genes, as given
in the files: no transform), cut at K = the number of true classes. The result is compared
with the true classes by ARI under perm and under num1, num, all, all1; a study is "above
chance" under a model when its ARI there is positive.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.cluster import hierarchy
from scipy.spatial.distance import pdist

import chanceclust as cc
from chanceclust.paper.plotting import OKABE_ITO, pyplot, save
from chanceclust.paper.report import Progress, claims_table, fmt, write_csv

MODELS = (("num1", "num", True), ("num", "num", False), ("all", "all", False),
          ("all1", "all", True))
#: Quadrants of (ARI perm, ARI other): I both above chance, II only other, III neither,
#: IV only perm (the paper's colours: blue, orange, green, pink).
QUADRANTS = ("I", "II", "III", "IV")
Q_COLOURS = {"I": OKABE_ITO["blue"], "II": OKABE_ITO["orange"], "III": OKABE_ITO["green"],
             "IV": OKABE_ITO["purple"]}
Q_LABELS = {"I": "I: both above chance", "II": "II: only num1 above chance",
            "III": "III: both below chance", "IV": "IV: only perm above chance"}
#: The paper's counts for num1 against perm (Section 5.4).
PAPER_COUNTS = {"IV": 7, "II": 3}


def read_study(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Samples x genes matrix and class labels of one de Souto et al. file.

    Genes are rows in the file; row 2 holds the class labels. The lapointe files have no
    gene-ID column (their first cell of row 1 is not empty). Quotes are removed.
    """
    numbered = [(i, line.rstrip("\r\n").split("\t"))
                for i, line in enumerate(path.read_text().splitlines(), 1) if line.strip()]
    if len(numbered) < 3:
        raise ValueError(f"{path}: {len(numbered)} non-blank lines; expected a header, a line "
                         "of class labels and at least one gene row")
    lines = [[cell.strip().strip('"') for cell in line] for _, line in numbered]
    skip = 1 if lines[0][0] == "" else 0
    labels = np.array(lines[1][skip:])
    rows = []
    for (number, _), row in zip(numbered[2:], lines[2:], strict=True):
        if len(row) - skip != len(labels):
            raise ValueError(f"{path}:{number}: {len(row) - skip} values but {len(labels)} "
                             f"class labels (line {numbered[1][0]})")
        try:
            rows.append([float(cell) for cell in row[skip:]])
        except ValueError:
            raise ValueError(f"{path}:{number}: expected numbers after the gene id") from None
    return np.array(rows).T, labels


def cluster(data: np.ndarray, k: int) -> np.ndarray:
    """Average-linkage agglomerative clustering on correlation distance, cut at k clusters."""
    tree = hierarchy.linkage(pdist(data, metric="correlation"), method="average")
    return hierarchy.fcluster(tree, t=k, criterion="maxclust")


def quadrant(perm: float, other: float) -> str:
    """Quadrant of (ARI perm, ARI other); positive means above chance.

    Examples
    --------
    >>> quadrant(0.45, -0.1), quadrant(-0.01, 0.3)
    ('IV', 'II')
    """
    if perm > 0:
        return "I" if other > 0 else "IV"
    return "II" if other > 0 else "III"


def run(out_dir: Path, *, quick: bool = False, seed: int = 0, data_dir: Path | None = None,
        progress: bool | None = None) -> str:
    """Run the experiment, write its figure and CSVs into ``out_dir``; return the section.

    The experiment is deterministic (``seed`` is unused) and fast, so ``quick`` changes nothing.
    """
    if data_dir is None:
        from chanceclust.paper import default_data_dir

        data_dir = default_data_dir()
    files = sorted(Path(data_dir).glob("*_database.txt"))
    if not files:
        raise FileNotFoundError(
            f"no gene expression files (*_database.txt) in {data_dir}; pass --data DIR "
            "(data_dir=...) pointing at the de Souto et al. (2008) files")
    bar = Progress("genes", len(files), progress)
    rows = []
    for path in files:
        data, truth = read_study(path)
        k = len(np.unique(truth))
        pred = cluster(data, k)
        aris = {"perm": cc.adjusted_rand_index(truth, pred)}
        for name, model, one_sided in MODELS:
            aris[name] = cc.adjusted_rand_index(truth, pred, model=model, one_sided=one_sided)
        rows.append((path.name.replace("_database.txt", ""), data.shape[0], data.shape[1], k,
                     len(np.unique(pred)), aris["perm"], *(aris[m[0]] for m in MODELS),
                     quadrant(aris["perm"], aris["num1"])))
        bar.update()
    bar.close()
    columns = ("study", "n_samples", "n_genes", "n_classes", "n_clusters", "ari_perm",
               "ari_num1", "ari_num", "ari_all", "ari_all1", "quadrant_num1")
    write_csv(out_dir / "genes.csv", columns, rows)
    col = {c: np.array([r[i] for r in rows]) for i, c in enumerate(columns)}
    counts = {m[0]: {q: int(sum(quadrant(p, o) == q for p, o in zip(col["ari_perm"],
                                                                    col[f"ari_{m[0]}"], strict=False)))
                     for q in QUADRANTS} for m in MODELS}
    write_csv(out_dir / "genes_quadrants.csv", ("model", *QUADRANTS),
              [(m, *(counts[m][q] for q in QUADRANTS)) for m in counts])
    _plot(out_dir, col, counts)

    num1 = counts["num1"]
    iv = col["quadrant_num1"] == "IV"
    ii = col["quadrant_num1"] == "II"
    iv_high = col["study"][iv & (col["ari_perm"] > 0.4)]
    max_iv = col["ari_perm"][iv].max() if iv.any() else float("nan")
    changed = {m: counts[m]["II"] + counts[m]["IV"] for m in counts}
    claims = [
        ("7 studies are above chance under perm but below under num1 (quadrant IV).",
         "(Fig. 6a)", f"{num1['IV']} studies: {', '.join(col['study'][iv]) or 'none'}",
         num1["IV"] == 7 or ("partly" if num1["IV"] else False)),
        ("This happens even with ARI perm > 0.4.", "(text)",
         (f"{len(iv_high)} quadrant-IV studies with ARI perm > 0.4 (largest ARI perm in IV: "
         f"{fmt(max_iv)})"), bool(len(iv_high))),
        ("3 studies are below chance under perm but above under num1 (quadrant II).",
         "(Fig. 6a)", f"{num1['II']} studies: {', '.join(col['study'][ii]) or 'none'}",
         num1["II"] == 3 or ("partly" if num1["II"] else False)),
        ("Every other model (num, all, all1) also changes some verdicts against perm.",
         "(Fig. 6b)", "; ".join(f"{m}: {counts[m]['IV']} IV, {counts[m]['II']} II"
                               for m in ("num", "all", "all1")),
         all(changed[m] > 0 for m in ("num", "all", "all1"))),
    ]
    n_k = int(np.sum(col["n_clusters"] != col["n_classes"]))
    table = ["| model | I | II | III | IV |", "|---|---|---|---|---|"] + [
        f"| {m} | " + " | ".join(str(counts[m][q]) for q in QUADRANTS) + " |" for m in counts]
    return f"""## 4. Gene expression studies (Section 5.4, Figure 6)

![Gene expression](genes/genes.png)

{len(files)} studies from `{data_dir}` (de Souto et al. 2008), clustered by average-linkage
agglomerative clustering on correlation distance (1 - Pearson r between samples, values as in
the files, no log transform or scaling), cut at K = number of classes
({n_k} studies where the cut gave a different number of clusters). Quadrants against ARI perm
(I: both > 0, II: only the other model > 0, III: both <= 0, IV: only perm > 0):

{chr(10).join(table)}

{claims_table(claims)}

The paper does not say how the expression values were preprocessed; differences in the counts
can come from that (e.g. log transform of the Affymetrix intensities) and from tie-breaking in
the linkage.

Files: `genes.csv` (per study: sizes, K, ARI under perm, num1, num, all, all1, num1 quadrant),
`genes_quadrants.csv` (the counts above).
"""


def _plot(out_dir: Path, col: dict, counts: dict) -> None:
    plt = pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 5), width_ratios=[1.1, 1])
    x, y = col["ari_perm"], col["ari_num1"]
    for q in QUADRANTS:
        m = col["quadrant_num1"] == q
        ax.scatter(x[m], y[m], s=30, color=Q_COLOURS[q], edgecolor="black", linewidth=0.4,
                   label=f"{Q_LABELS[q]} ({int(m.sum())})")
    lo, hi = min(x.min(), y.min()) - 0.05, max(x.max(), y.max()) + 0.05
    ax.plot([lo, hi], [lo, hi], color=OKABE_ITO["grey"], linestyle="--", label="equal (y = x)")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("ARI, perm (usual)")
    ax.set_ylabel("ARI, num1 (one-sided, K fixed)")
    ax.set_title(f"a  Hierarchical clustering vs true classes, {len(x)} studies")
    ax.legend(fontsize=8, loc="upper left")
    models = list(counts)
    width = 0.2
    for i, q in enumerate(QUADRANTS):
        heights = [counts[m][q] for m in models]
        bars = bx.bar(np.arange(len(models)) + (i - 1.5) * width, heights, width,
                      color=Q_COLOURS[q], edgecolor="black", linewidth=0.4,
                      label=Q_LABELS[q].replace("num1", "model"))
        bx.bar_label(bars, fontsize=7)
    bx.set_xticks(np.arange(len(models)), models)
    bx.set_xlabel("random model compared with perm")
    bx.set_ylabel("number of studies")
    bx.set_title("b  Verdicts relative to chance, each model vs perm")
    bx.legend(fontsize=8)
    fig.suptitle("Gene expression: the random model decides what counts as better than chance "
                 "(Gates & Ahn 2017, Fig. 6)")
    fig.tight_layout()
    save(fig, out_dir, "genes")
