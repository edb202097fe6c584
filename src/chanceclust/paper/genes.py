"""Section 5.4 (Figure 6): hierarchical clustering of 35 gene expression studies.

Each study of de Souto et al. (2008) is clustered by agglomerative clustering with average
linkage on the correlation distance between samples (1 - Pearson r over the genes, as given
in the files: no transform), cut at K = the number of true classes. The result is compared
with the true classes by ARI under perm and under num1, num, all, all1; a study is "above
chance" under a model when its ARI there is positive. The paper does not say how the values
were preprocessed, so the num1 counts are also given for log2 and per-gene z-scored data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy.cluster import hierarchy
from scipy.spatial.distance import pdist

import chanceclust as cc
from chanceclust.datasets import (
    GENE_EXPRESSION_REGISTRY,
    GENE_EXPRESSION_SOURCE,
    check_gene_expression,
    fetch_gene_expression,
)
from chanceclust.exceptions import InvalidFileError, InvalidInputError
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
#: |ARI| below this is "at chance": the study's quadrant hangs on noise.
NEAR_ZERO = 0.01
#: Preprocessings of the expression values (the paper names none).
PREPROCESSING = {
    "none": "values as in the files",
    "log2": "log2 of the studies whose values are all positive (the Affymetrix intensities; "
            "the cDNA log ratios unchanged)",
    "z": "each gene z-scored over the samples",
    "log2+z": "log2 as above, then each gene z-scored",
}


def data_folder(data_dir: str | Path | None = None, progress: bool | None = None) -> Path:
    """The verified folder of the 35 studies: ``data_dir`` checked, or fetched when None.

    See :func:`chanceclust.datasets.check_gene_expression` and
    :func:`chanceclust.datasets.fetch_gene_expression` for the errors.
    """
    if data_dir is None:
        return fetch_gene_expression(progress=progress)
    return check_gene_expression(data_dir)


def preprocess(data: np.ndarray, how: str) -> np.ndarray:
    """Samples x genes matrix after one of :data:`PREPROCESSING` (constant genes stay 0).

    Examples
    --------
    >>> preprocess(np.array([[1.0, 4.0], [4.0, 4.0]]), "log2+z").tolist()
    [[-1.0, 0.0], [1.0, 0.0]]
    """
    if how not in PREPROCESSING:
        raise InvalidInputError(f"`how` must be one of {', '.join(PREPROCESSING)}; got {how!r}")
    if how in ("log2", "log2+z") and np.all(data > 0):
        data = np.log2(data)
    if how in ("z", "log2+z"):
        centred = data - data.mean(axis=0)
        sd = centred.std(axis=0)
        data = np.divide(centred, sd, out=np.zeros_like(centred), where=sd > 0)
    return data


def read_study(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Samples x genes matrix and class labels of one de Souto et al. file.

    Genes are rows in the file; row 2 holds the class labels. The lapointe files have no
    gene-ID column (their first cell of row 1 is not empty). Quotes are removed.
    """
    numbered = [(i, line.rstrip("\r\n").split("\t"))
                for i, line in enumerate(path.read_text().splitlines(), 1) if line.strip()]
    if len(numbered) < 3:
        raise InvalidFileError(str(path), None, f"{len(numbered)} non-blank lines; expected a "
                               "header, a line of class labels and at least one gene row")
    lines = [[cell.strip().strip('"') for cell in line] for _, line in numbered]
    skip = 1 if lines[0][0] == "" else 0
    labels = np.array(lines[1][skip:])
    rows = []
    for (number, _), row in zip(numbered[2:], lines[2:], strict=True):
        if len(row) - skip != len(labels):
            raise InvalidFileError(str(path), number, f"{len(row) - skip} values but "
                                   f"{len(labels)} class labels (line {numbered[1][0]})")
        try:
            rows.append([float(cell) for cell in row[skip:]])
        except ValueError:
            raise InvalidFileError(str(path), number, "expected numbers after the gene id") from None
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

    ``data_dir`` is checked against the SHA-256 registry (None: fetched, see
    :func:`data_folder`). The experiment is deterministic (``seed`` is unused) and fast, so
    ``quick`` changes nothing.
    """
    data_dir = data_folder(data_dir, progress)
    files = [data_dir / name for name in GENE_EXPRESSION_REGISTRY]
    bar = Progress("genes", len(files), progress)
    rows = []
    variants: dict[str, list[tuple[float, float]]] = {how: [] for how in PREPROCESSING}
    for path in files:
        data, truth = read_study(path)
        k = len(np.unique(truth))
        for how in PREPROCESSING:
            if how != "none":
                alt = cluster(preprocess(data, how), k)
                variants[how].append((
                    cc.adjusted_rand_index(truth, alt),
                    cc.adjusted_rand_index(truth, alt, model="num", one_sided=True)))
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

    variants["none"] = list(zip(col["ari_perm"], col["ari_num1"], strict=True))
    shifted = {how: {q: sum(quadrant(x, y) == q for x, y in v) for q in ("IV", "II")}
               for how, v in variants.items()}
    write_csv(out_dir / "genes_preprocessing.csv",
              ("study", *(f"{k}_{how}" for how in PREPROCESSING for k in ("ari_perm", "ari_num1"))),
              [(col["study"][i], *(float(v) for how in PREPROCESSING for v in variants[how][i]))
               for i in range(len(rows))])

    num1 = counts["num1"]
    iv = col["quadrant_num1"] == "IV"
    ii = col["quadrant_num1"] == "II"
    iv_high = col["study"][iv & (col["ari_perm"] > 0.4)]
    max_iv = col["ari_perm"][iv].max() if iv.any() else float("nan")
    changed = {m: counts[m]["II"] + counts[m]["IV"] for m in counts}
    near = np.abs(col["ari_perm"]) < NEAR_ZERO
    near_txt = ", ".join(f"{st} ({fmt(v)})" for st, v in zip(col["study"][near],
                                                             col["ari_perm"][near], strict=True))
    other = "; ".join(f"{how}: {shifted[how]['IV']} IV, {shifted[how]['II']} II"
                      for how in PREPROCESSING if how != "none")
    fragile = (f"; fragile: {int(near.sum())} studies have |ARI perm| < {NEAR_ZERO}, and other "
               f"preprocessings give other counts ({other})")

    def count_verdict(q: str) -> bool | str:
        if num1[q] != PAPER_COUNTS[q]:
            return "partly" if num1[q] else False
        return "holds, but fragile" if near.any() else True

    claims = [
        ("7 studies are above chance under perm but below under num1 (quadrant IV).",
         "(Fig. 6a)", f"{num1['IV']} studies: {', '.join(col['study'][iv]) or 'none'}{fragile}",
         count_verdict("IV")),
        ("This happens even with ARI perm > 0.4.", "(text)",
         (f"{len(iv_high)} quadrant-IV {'study' if len(iv_high) == 1 else 'studies'} with ARI "
          f"perm > 0.4 ({', '.join(iv_high) or 'none'}; largest ARI perm in IV: "
          f"{fmt(max_iv)})"),
         ("holds, but rests on one study" if len(iv_high) == 1 else bool(len(iv_high)))),
        ("3 studies are below chance under perm but above under num1 (quadrant II).",
         "(Fig. 6a)", f"{num1['II']} studies: {', '.join(col['study'][ii]) or 'none'}{fragile}",
         count_verdict("II")),
        ("Every other model (num, all, all1) also changes some verdicts against perm.",
         "(Fig. 6b)", "; ".join(f"{m}: {counts[m]['IV']} IV, {counts[m]['II']} II"
                               for m in ("num", "all", "all1")),
         all(changed[m] > 0 for m in ("num", "all", "all1"))),
    ]
    n_k = int(np.sum(col["n_clusters"] != col["n_classes"]))
    table = ["| model | I | II | III | IV |", "|---|---|---|---|---|"] + [
        f"| {m} | " + " | ".join(str(counts[m][q]) for q in QUADRANTS) + " |" for m in counts]
    prep = ["| preprocessing | num1: IV (perm > 0 >= num1) | num1: II (num1 > 0 >= perm) |",
            "|---|---|---|"] + [
        f"| {how}: {PREPROCESSING[how]} | {shifted[how]['IV']} | {shifted[how]['II']} |"
        for how in PREPROCESSING]
    return f"""## 4. Gene expression studies (Section 5.4, Figure 6)

![Gene expression](genes/genes.png)

The {len(files)} studies of de Souto et al. (2008), from {GENE_EXPRESSION_SOURCE}, each file
checked against chanceclust's SHA-256 registry; clustered by average-linkage agglomerative
clustering on correlation distance (1 - Pearson r between samples, values as in the files, no
log transform or scaling), cut at K = number of classes ({n_k} studies where the cut gave a
different number of clusters). Quadrants against ARI perm (I: both > 0, II: only the other
model > 0, III: both <= 0, IV: only perm > 0):

{chr(10).join(table)}

{claims_table(claims)}

The counts 7 and 3 match the paper exactly, but they are fragile. {int(near.sum())} studies
sit at chance under perm (|ARI perm| < {NEAR_ZERO}: {near_txt}), so their quadrant is decided by
noise, and the one quadrant-IV study above 0.4 has ARI perm {fmt(max_iv)}. The paper does not
say how the values were preprocessed, and the counts depend on it:

{chr(10).join(prep)}

Files: `genes.csv` (per study: sizes, K, ARI under perm, num1, num, all, all1, num1 quadrant),
`genes_quadrants.csv` (the counts above), `genes_preprocessing.csv` (ARI perm and num1 of every
study under each preprocessing).
"""


def _plot(out_dir: Path, col: dict, counts: dict) -> None:
    plt = pyplot()
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 6), width_ratios=[1, 1])
    x, y = col["ari_perm"], col["ari_num1"]
    for q in QUADRANTS:
        m = col["quadrant_num1"] == q
        ax.scatter(x[m], y[m], s=30, color=Q_COLOURS[q], edgecolor="black", linewidth=0.4,
                   label=f"{Q_LABELS[q]} ({int(m.sum())})")
    lo, hi = min(x.min(), y.min()) - 0.05, max(x.max(), y.max()) + 0.05
    ax.plot([lo, hi], [lo, hi], color=OKABE_ITO["grey"], linestyle="--", label="equal (y = x)")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.axvline(0, color="black", linewidth=0.8)
    near = int(np.sum(np.abs(x) < NEAR_ZERO))
    ax.axvspan(-NEAR_ZERO, NEAR_ZERO, color=OKABE_ITO["grey"], alpha=0.35, linewidth=0,
               label=f"|ARI perm| < {NEAR_ZERO}: {near} studies at chance")
    ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel="ARI, perm (usual)",
           ylabel="ARI, num1 (one-sided, K fixed)",
           title=f"a  Hierarchical clustering vs true classes, {len(x)} studies")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=9)
    models = list(counts)
    width = 0.2
    for i, q in enumerate(QUADRANTS):
        heights = [counts[m][q] for m in models]
        bars = bx.bar(np.arange(len(models)) + (i - 1.5) * width, heights, width,
                      color=Q_COLOURS[q], edgecolor="black", linewidth=0.4,
                      label=Q_LABELS[q].replace("num1", "model"))
        bx.bar_label(bars, fontsize=9)
    bx.set_xticks(np.arange(len(models)), models)
    bx.set(xlabel="random model compared with perm", ylabel="number of studies",
           title="b  Verdicts relative to chance, each model vs perm",
           ylim=(0, 1.12 * max(max(c.values()) for c in counts.values())))
    bx.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=9)
    fig.suptitle("Gene expression: the random model decides what counts as better than chance "
                 "(Gates & Ahn 2017, Fig. 6)", fontsize=12)
    fig.tight_layout()
    save(fig, out_dir, "genes")
