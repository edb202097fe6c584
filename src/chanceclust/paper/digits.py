"""Section 5.2 (Figure 4): 400 K-means runs on scikit-learn's digits, ARI perm vs num1.

Every run is K-means with K = 10, one random initialization (``init="random"``, ``n_init=1``)
and its own recorded seed. Each run is compared with the true digits by the usual ARI (perm)
and by the one-sided ARI against random clusterings with ten clusters (num1).

With the reference fixed and K = 10 for every run, E[RI] under num1 is the same number for
all runs, so ARI num1 is one increasing affine function of the Rand index: it ranks the runs
exactly as the raw RI does. Whether the paper's top 10 reorder therefore depends on how perm's
size correction happens to act on the best few runs; a resampling check (many more fits,
random subsets of the figure's size) measures how often it does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import optimize, stats

import chanceclust as cc
from chanceclust.paper.plotting import CYCLE, OKABE_ITO, pyplot, require, save
from chanceclust.paper.report import Progress, claims_table, fmt, write_csv

K = 10
DIGIT_COLOURS = [*CYCLE, "#882255"]  # Okabe-Ito plus Tol's wine for the tenth digit


def kmeans_runs(data: np.ndarray, seeds: np.ndarray, progress: Progress,
                init: str = "random") -> np.ndarray:
    """Labels of one K-means run per seed (rows).

    Each fit runs on one thread: the data are small, and OpenMP threads that wait on each other
    made fits 20x slower on a shared 2-core machine.
    """
    cluster = require("sklearn.cluster")
    limits = require("threadpoolctl").threadpool_limits
    out = np.empty((len(seeds), len(data)), dtype=np.int64)
    with limits(1):
        for i, seed in enumerate(seeds):
            km = cluster.KMeans(n_clusters=K, init=init, n_init=1, random_state=int(seed))
            out[i] = km.fit_predict(data)
            progress.update()
    return out


def _ranks(values: np.ndarray) -> np.ndarray:
    """Rank 1 = highest value (ties broken by run index)."""
    order = np.lexsort((np.arange(len(values)), -values))
    r = np.empty(len(values), dtype=np.int64)
    r[order] = np.arange(1, len(values) + 1)
    return r


def matched_digits(truth: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Each cluster's matched digit: the one-to-one matching with the most agreeing points.

    Examples
    --------
    >>> matched_digits(np.array([0, 0, 1, 1, 2]), np.array([2, 2, 0, 0, 1])).tolist()
    [1, 2, 0]
    """
    table = np.zeros((K if labels.max() < K else labels.max() + 1, truth.max() + 1), dtype=int)
    np.add.at(table, (labels, truth), 1)
    rows, cols = optimize.linear_sum_assignment(-table)
    match = np.empty(table.shape[0], dtype=np.int64)
    match[rows] = cols
    return match[: labels.max() + 1]


def top_changes(ari_perm: np.ndarray, ari_num1: np.ndarray, top: int = 10) -> tuple[int, bool]:
    """(how many of perm's top ``top`` runs change rank under num1, whether the best differs)."""
    rank_perm, rank_num1 = _ranks(ari_perm), _ranks(ari_num1)
    best = np.argsort(rank_perm)[:top]
    return (int(np.sum(rank_perm[best] != rank_num1[best])),
            bool(np.argmin(rank_perm) != np.argmin(rank_num1)))


def resample(ari_perm: np.ndarray, ari_num1: np.ndarray, size: int, draws: int,
             rng: np.random.Generator) -> tuple[float, float]:
    """Median top-10 rank changes and share of differing best runs over random subsets."""
    out = [top_changes(ari_perm[i], ari_num1[i]) for i in
           (rng.choice(len(ari_perm), size=size, replace=False) for _ in range(draws))]
    return float(np.median([m for m, _ in out])), float(np.mean([b for _, b in out]))


def run(out_dir: Path, *, quick: bool = False, seed: int = 0, data_dir: Path | None = None,
        progress: bool | None = None) -> str:
    """Run the experiment, write its figure and CSVs into ``out_dir``; return the section."""
    datasets = require("sklearn.datasets")
    digits = datasets.load_digits()
    data, truth = digits.data, digits.target
    n_runs = 20 if quick else 400
    pool = 5 * n_runs  # fits for the resampling check (the first n_runs are the figure's)
    rng = np.random.default_rng(seed)
    seeds = rng.integers(0, 2**31 - 1, size=pool)
    bar = Progress("digits", 2 * pool + 2, progress)
    all_labels = {"random": kmeans_runs(data, seeds, bar),
                  "k-means++": kmeans_runs(data, seeds, bar, init="k-means++")}
    scored = {init: (np.array([cc.adjusted_rand_index(truth, lab) for lab in labs]),
                     np.array([cc.adjusted_rand_index(truth, lab, model="num", one_sided=True)
                               for lab in labs]),
                     np.array([cc.rand_index(truth, lab) for lab in labs]))
              for init, labs in all_labels.items()}
    labels, seeds = all_labels["random"][:n_runs], seeds[:n_runs]
    ari_perm, ari_num1 = (v[:n_runs] for v in scored["random"][:2])
    draws = 200 if quick else 1000
    checks = {init: resample(v[0], v[1], n_runs, draws, rng) for init, v in scored.items()}
    same_order = all(np.array_equal(_ranks(v[1]), _ranks(v[2])) for v in scored.values())
    bar.update()
    sizes = np.sort([np.bincount(lab, minlength=K) for lab in labels], axis=1)[:, ::-1]
    true_sizes = np.sort(np.bincount(truth))[::-1]
    rank_perm, rank_num1 = _ranks(ari_perm), _ranks(ari_num1)

    # 2-D view: t-SNE with PCA initialization (the paper); --quick uses PCA only.
    manifold, decomposition = require("sklearn.manifold"), require("sklearn.decomposition")
    if quick:
        embedding = decomposition.PCA(n_components=2, random_state=seed).fit_transform(data)
        view = "PCA (quick run; the full run uses t-SNE)"
    else:
        with require("threadpoolctl").threadpool_limits(1):  # same result on any machine
            embedding = manifold.TSNE(n_components=2, init="pca", random_state=seed,
                                      perplexity=30.0).fit_transform(data)
        view = "t-SNE, PCA initialization"
    bar.update()
    bar.close()

    write_csv(out_dir / "digits.csv",
              ("run", "seed", "ari_perm", "ari_num1", "rank_perm", "rank_num1", "sizes"),
              [(i, int(seeds[i]), float(ari_perm[i]), float(ari_num1[i]), int(rank_perm[i]),
                int(rank_num1[i]), " ".join(map(str, sizes[i]))) for i in range(n_runs)])
    write_csv(out_dir / "digits_embedding.csv", ("point", "x", "y", "digit", "kmeans_run0"),
              [(i, float(embedding[i, 0]), float(embedding[i, 1]), int(truth[i]),
                int(labels[0, i])) for i in range(len(truth))])
    _plot(out_dir, embedding, truth, matched_digits(truth, labels[0])[labels[0]], sizes,
          true_sizes, ari_perm, ari_num1, rank_perm, rank_num1, view)

    # --- claims
    distinct = len({tuple(s) for s in sizes})
    pearson = stats.pearsonr(ari_num1, ari_perm).statistic
    spearman = stats.spearmanr(ari_perm, ari_num1).statistic
    kendall = stats.kendalltau(ari_perm, ari_num1).statistic
    above = np.mean(ari_perm > ari_num1)
    top = min(10, n_runs)
    top_perm = np.argsort(rank_perm)[:top]
    top_num1 = np.argsort(rank_num1)[:top]
    moved = int(np.sum(rank_perm[top_perm] != rank_num1[top_perm]))
    overlap = len(set(top_perm) & set(top_num1))
    changed_all = np.mean(rank_perm != rank_num1)
    best_differs = bool(top_perm[0] != top_num1[0])
    claims = [
        ("Almost all K-means runs have a different cluster size sequence.", "(text)",
         f"{distinct} distinct sorted size sequences in {n_runs} runs", distinct >= 0.9 * n_runs),
        ("The cluster sizes vary over a wide range.", "(text)",
         (f"largest cluster {sizes[:, 0].min()}-{sizes[:, 0].max()}, smallest "
         f"{sizes[:, -1].min()}-{sizes[:, -1].max()} (true sizes {true_sizes[-1]}-"
         f"{true_sizes[0]})"), bool(sizes[:, 0].max() > 1.5 * true_sizes[0])),
        ("ARI perm and ARI num1 are strongly correlated.", "(Fig. 4c)",
         (f"Pearson r = {fmt(pearson)}, Spearman rho = {fmt(spearman)}, Kendall tau = "
         f"{fmt(kendall)}"), bool(pearson > 0.8)),
        ("ARI perm is consistently biased towards higher similarity.", "(Fig. 4c)",
         (f"ARI perm > ARI num1 in {above:.0%} of runs; mean difference "
         f"{fmt(np.mean(ari_perm - ari_num1))}"), bool(above > 0.95)),
        ("The bulk of the clusterings change rank.", "(Fig. 4d)",
         f"{changed_all:.0%} of all runs change rank between ARI perm and ARI num1",
         bool(changed_all > 0.5)),
        ("The top 10 differ between perm and num1 (a property of the models).", "(Fig. 4d)",
         (f"here {moved} of the top {top} runs under perm change rank under num1 ({overlap} "
          f"shared); over {draws} random {n_runs}-run subsets of {pool} fits: median "
          f"{checks['random'][0]:g} rank changes in the top {top} (k-means++ init: "
          f"{checks['k-means++'][0]:g}). Cause: ARI num1 ranks exactly as the raw RI "
          f"({'checked for all ' + str(2 * pool) + ' fits' if same_order else 'NOT confirmed'})"
          ", so a reordering is luck of the runs"), False),
        ("The best run differs between perm and num1.", "(Fig. 4d)",
         (f"best run here: {'differs' if best_differs else 'the same'} (run "
          f"{top_perm[0]} under perm, run {top_num1[0]} under num1); it differs in "
          f"{checks['random'][1]:.0%} of the subsets ({checks['k-means++'][1]:.0%} with "
          "k-means++ init)"),
         best_differs if checks["random"][1] >= 0.5 else
         ("does not hold (it differs here, by luck)" if best_differs else False)),
    ]
    order_note = ("checked: the orders are identical" if same_order else
                  "NOT confirmed by these runs")
    return f"""## 2. K-means on the digits (Section 5.2, Figure 4)

![Digits](digits/digits.png)

{n_runs} runs of K-means (K = 10, `init="random"`, `n_init=1`, seeds from seed {seed}, listed
in `digits.csv`) on scikit-learn's digits (1,797 points, 64 features). Each run is compared
with the true digits by ARI under perm and one-sided ARI under num (num1). The 2-D view is
{view}; the example run's clusters are coloured by the digit each is matched to (one-to-one,
most agreeing points).

With the reference fixed and K = 10 in every run, the expected RI under num1 is one number for
all runs, so ARI num1 orders the runs exactly as the raw Rand index does ({order_note}). Any reordering of the top 10 between perm and num1 comes from perm's size
correction acting on those particular runs, not from a property of the models; to measure it,
the experiment makes {pool} fits ({pool} more with k-means++ initialization) and draws {draws}
random subsets of {n_runs} runs.

{claims_table(claims)}

Best run under perm: run {top_perm[0]} (ARI perm {fmt(ari_perm[top_perm[0]])}); under num1:
run {top_num1[0]} (ARI num1 {fmt(ari_num1[top_num1[0]])}).

Files: `digits.csv` (seed, both ARIs, both ranks and the sorted sizes of every run),
`digits_embedding.csv` (the 2-D view, true digit and the example run).
"""


def _plot(out_dir, embedding, truth, example, sizes, true_sizes, ari_perm, ari_num1,
          rank_perm, rank_num1, view) -> None:
    plt = pyplot()
    fig, axes = plt.subplots(2, 3, figsize=(15, 9.5))
    blue, orange = OKABE_ITO["blue"], OKABE_ITO["orange"]
    for ax, lab, title in ((axes[0, 0], truth, "a  True digits"),
                           (axes[0, 1], example, "b  K-means run 0, clusters as matched digits")):
        for k in range(K):
            m = lab == k
            ax.scatter(embedding[m, 0], embedding[m, 1], s=4, color=DIGIT_COLOURS[k],
                       label=str(k))
        ax.set(title=f"{title} ({view.split(',')[0].split(' (')[0]})", xlabel="component 1",
               ylabel="component 2")
        ax.legend(title="digit" if lab is truth else "matched digit", markerscale=3, fontsize=9,
                  ncol=2, loc="best")
    ax = axes[0, 2]
    x = np.arange(1, K + 1)
    for s in sizes:
        ax.plot(x, s, color=OKABE_ITO["grey"], alpha=0.25, linewidth=0.7)
    ax.plot([], [], color=OKABE_ITO["grey"], label=f"{len(sizes)} K-means runs")
    ax.plot(x, true_sizes, color="black", linewidth=2.5, label="true digits")
    ax.plot(x, sizes[np.argmin(rank_perm)], color=blue, linewidth=2, label="best by ARI perm")
    ax.plot(x, sizes[np.argmin(rank_num1)], color=orange, linewidth=2, linestyle="--",
            label="best by ARI num1")
    ax.set(xlabel="cluster (largest to smallest)", ylabel="cluster size",
           title="c  Cluster size sequences")
    ax.legend()
    ax = axes[1, 0]
    ax.scatter(ari_num1, ari_perm, s=10, color=blue, alpha=0.6, label="K-means run")
    lo = min(ari_num1.min(), ari_perm.min()) - 0.02
    hi = max(ari_num1.max(), ari_perm.max()) + 0.02
    ax.plot([lo, hi], [lo, hi], color="black", linewidth=1, label="equal (y = x)")
    ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel="ARI, num1 (one-sided, K = 10 fixed)",
           ylabel="ARI, perm (usual)", title="d  Similarity to the true digits")
    ax.legend()
    ax = axes[1, 1]
    top = min(10, len(rank_perm))
    runs = sorted(set(np.argsort(rank_perm)[:top]) | set(np.argsort(rank_num1)[:top]))
    for r in runs:
        left, right = rank_perm[r], rank_num1[r]
        changed = left != right
        ax.plot([0, 1], [left, right], color=orange if changed else blue, marker="o",
                linewidth=1.5 if changed else 1)
        if left <= top:
            ax.text(-0.04, left, f"run {r}", ha="right", va="center", fontsize=9)
        if right <= top:
            ax.text(1.04, right, f"run {r}", ha="left", va="center", fontsize=9)
    ax.plot([], [], color=orange, marker="o", label="rank changes")
    ax.plot([], [], color=blue, marker="o", label="same rank")
    ax.set(ylim=(top + 0.5, 0.5), xlim=(-0.35, 1.35))
    ax.set_xticks([0, 1], ["ARI perm", "ARI num1"])
    ax.set(ylabel="rank (1 = most similar)", title=f"e  Top {top} runs (num1 orders as the raw RI)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=2)
    ax = axes[1, 2]
    ax.hist(ari_perm - ari_num1, bins=30, color=blue, alpha=0.8, label="runs")
    ax.axvline(0, color="black", linewidth=1, label="no difference")
    ax.set(xlabel="ARI perm - ARI num1", ylabel="number of runs",
           title="f  Bias of ARI perm over ARI num1")
    ax.legend()
    fig.suptitle("K-means on the digits: usual ARI (perm) vs one-sided ARI num1 "
                 "(Gates & Ahn 2017, Fig. 4)")
    fig.tight_layout()
    save(fig, out_dir, "digits")
