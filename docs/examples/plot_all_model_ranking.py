"""
Under ``all`` the adjusted index ranks as the raw one
=====================================================

Under the ``all`` model the random clustering is uniform over every partition of the N
elements, so the expected index depends only on N (two-sided) or on the reference and N
(one-sided): it is the same for every candidate compared with one reference. The adjusted
index is then one increasing function of the raw index, and ranks the candidates exactly as
the raw Rand index or the raw mutual information do. This is the figure behind
:ref:`all-verdict-not-ranking` in :doc:`/guide/model-choice`.

It needs matplotlib and scikit-learn: ``pip install ".[paper]"``.

The candidates are K-means clusterings of scikit-learn's digits (1,797 images of 10 digits)
for K = 2 to 20, compared with the digit labels.
"""

# %%
# K-means for each K
# ------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.cluster import KMeans
from sklearn.datasets import load_digits

import chanceclust as cc

X, digit = load_digits(return_X_y=True)
ks = list(range(2, 21))
runs = {k: KMeans(n_clusters=k, n_init=1, random_state=0).fit_predict(X) for k in ks}

# %%
# Raw and adjusted scores, one-sided (the digit labels are the reference)
# ------------------------------------------------------------------------
raw = {"RI": [cc.rand_index(digit, runs[k]) for k in ks],
       "MI": [cc.mutual_information(digit, runs[k]) for k in ks]}
settings = (("perm", False), ("num", True), ("all", True))
adjusted = {
    (name, model): [func(digit, runs[k], model=model, one_sided=one_sided) for k in ks]
    for name, func in (("ARI", cc.adjusted_rand_index), ("AMI", cc.adjusted_mutual_information))
    for model, one_sided in settings
}
expected_ri = {round(cc.expected_rand_index(digit, runs[k], model="all", one_sided=True), 12)
               for k in ks}
print(f"E[RI] under one-sided all, over the {len(ks)} candidates: {sorted(expected_ri)}")


def order(values):
    return list(np.argsort(-np.asarray(values), kind="stable"))


for name, base in (("ARI", "RI"), ("AMI", "MI")):
    same = order(adjusted[name, "all"]) == order(raw[base])
    print(f"{name} under one-sided all orders the candidates as raw {base}: {same}")
for key, values in adjusted.items():
    print(f"{key[0]} {key[1]:4}: best K = {ks[int(np.argmax(values))]}")

# %%
# The figure
# ----------
# Left: the adjusted indices under one-sided ``all`` against the raw ones lie on straight
# lines (the expectation and the maximum are the same for every candidate). Right: the score
# of each K under each model, the chosen K marked.
fig, axes = plt.subplots(1, 3, figsize=(13, 4), layout="constrained")
for ax, name, base in ((axes[0], "ARI", "RI"), (axes[1], "AMI", "MI")):
    ax.plot(raw[base], adjusted[name, "all"], "o", color="C2")
    for k, x, y in zip(ks, raw[base], adjusted[name, "all"], strict=True):
        if k in (2, 10, 20):
            ax.annotate(f"K={k}", (x, y), textcoords="offset points", xytext=(4, -10))
    ax.set_xlabel(f"raw {base}" + (" (nats)" if base == "MI" else ""))
    ax.set_ylabel(f"{name}, one-sided all")
    ax.set_title(f"{name} under all vs raw {base}")
ax = axes[2]
for i, (model, _) in enumerate(settings):
    for name, style in (("ARI", "-"), ("AMI", "--")):
        values = adjusted[name, model]
        best = int(np.argmax(values))
        ax.plot(ks, values, style, color=f"C{i}", label=f"{name} {model}")
        ax.plot(ks[best], values[best], "o", color=f"C{i}")
ax.axvline(10, color="0.7", lw=0.8)
ax.set_xlabel("K of the K-means run")
ax.set_ylabel("adjusted score (one-sided)")
ax.set_title("the K each model picks (dots)")
ax.legend(fontsize=8, ncol=2)
plt.show()
