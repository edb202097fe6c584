"""
The random model changes the ranking
====================================

The same seven clusterings, compared with the same reference, are ranked differently by the
adjusted Rand index and the adjusted mutual information depending on the random model of the
chance correction. This is the figure behind :doc:`/guide/model-choice`.

It needs matplotlib: ``pip install ".[paper]"``.

The reference has four groups of 25 elements. The candidates are what clustering methods
typically return: a merge of the groups into two halves, one group against the rest, three
clusters one of which lumps 58 elements, a clustering that lumps 40 elements and recovers 15 of
each group, noisy copies with 4 and 8 clusters, and a refinement into 20 clusters of 5.
"""

# %%
# The candidates
# --------------
import matplotlib.pyplot as plt
import numpy as np

import chanceclust as cc

rng = np.random.default_rng(3)
n = 100
truth = np.repeat(np.arange(4), 25)
position = np.arange(n) % 25

noisy4 = truth.copy()
moved = rng.choice(n, 45, replace=False)
noisy4[moved] = rng.integers(0, 4, 45)
noisy8 = truth * 2 + rng.integers(0, 2, n)
moved = rng.choice(n, 20, replace=False)
noisy8[moved] = rng.integers(0, 8, 20)
three = truth.copy()
three[truth >= 2] = 2
three[(truth == 1) & (position < 8)] = 2

candidates = {
    "two halves": truth // 2,
    "one vs rest": (truth == 0).astype(int),
    "3 clusters, 58 lumped": three,
    "lumps 40, 4 x 15 right": np.where(position < 15, truth + 1, 0),
    "noisy, K = 4": noisy4,
    "noisy, K = 8": noisy8,
    "refines to K = 20": np.arange(n) // 5,
}
for name, labels in candidates.items():
    print(f"{name:24s} sizes {sorted(np.bincount(labels), reverse=True)}")

# %%
# Scores under each model
# -----------------------
# The reference is fixed, so the comparisons are one-sided (``perm`` is the same one- and
# two-sided).
settings = (("perm", False, "perm"), ("num", True, "num, one-sided"), ("all", True, "all, one-sided"))
scores = {
    measure: {name: [func(truth, labels, model=model, one_sided=one_sided)
                     for model, one_sided, _ in settings]
              for name, labels in candidates.items()}
    for measure, func in (("ARI", cc.adjusted_rand_index),
                          ("AMI", cc.adjusted_mutual_information))
}
for measure, table in scores.items():
    print(measure)
    for name, values in table.items():
        print(f"  {name:24s}", "  ".join(f"{v:7.3f}" for v in values))

# %%
# Rankings
# --------
# Each line follows one candidate from model to model; 1 is the most similar to the
# reference. Under ``perm`` the lumping clusterings look respectable: their odd sizes are
# built into every random clustering they are compared with. Against random clusterings
# with the same number of clusters (``num``) they drop, and against all clusterings of 100
# elements (``all``) a clustering must beat partitions with ~29 clusters of all sizes, which
# the few-cluster candidates barely do.


def ranks(values):
    order = np.argsort(-np.asarray(values), kind="stable")
    out = np.empty(len(values), dtype=int)
    out[order] = np.arange(1, len(values) + 1)
    return out


names = list(candidates)
colours = plt.cm.tab10(np.arange(len(names)))
fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
for ax, (measure, table) in zip(axes, scores.items(), strict=True):
    columns = np.array([ranks([table[name][j] for name in names]) for j in range(len(settings))])
    for i, name in enumerate(names):
        ax.plot(range(len(settings)), columns[:, i], "-o", color=colours[i], linewidth=2)
        for j in range(len(settings)):
            ax.annotate(f"{table[name][j]:.2f}", (j, columns[j, i]), textcoords="offset points",
                        xytext=(0, 7), ha="center", fontsize=7, color=colours[i])
    ax.set_xticks(range(len(settings)), [label for *_, label in settings])
    ax.set_title(f"{measure} against the reference (value above each point)")
    axes[0].set_ylim(len(names) + 0.6, 0.4)
axes[0].set_yticks(range(1, len(names) + 1))
axes[0].set_ylabel("rank (1 = most similar)")
for ax, table in zip(axes, scores.values(), strict=True):
    last = ranks([table[name][-1] for name in names])
    for i, name in enumerate(names):
        ax.annotate(name, (len(settings) - 1, last[i]), xytext=(10, -3),
                    textcoords="offset points", fontsize=8, color=colours[i])
    ax.set_xlim(-0.3, len(settings) + 0.5)
fig.tight_layout()

# %%
# Which ranking is right depends on the question: see :doc:`/guide/model-choice`. If the
# method was told K (or K is what it should be judged with), ``num`` is the honest baseline;
# if every clustering of the elements is a possible answer, ``all``.
