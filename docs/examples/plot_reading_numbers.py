"""
Reading extreme values: DBSCAN on the digits
============================================

DBSCAN's ``eps`` decides how much it lumps together: small values leave most points as noise,
large values merge almost everything into one cluster. Compared with the digit labels, the
adjusted Rand index of the same clustering is near 0 under ``perm`` and can fall far below -1
under ``num`` and ``all`` — below -100 under two-sided ``all``. The exact z-score
(:func:`chanceclust.standardized_rand_index`) says how decisive each verdict is. This is the
figure behind :doc:`/guide/reading-numbers`.

It needs matplotlib and scikit-learn: ``pip install ".[paper]"``.

Noise points (DBSCAN's -1) are unassigned elements; here each one is its own cluster
(``unassigned="singletons"``), so noise counts as disagreement.
"""

# %%
# DBSCAN for a range of eps
# -------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.cluster import DBSCAN
from sklearn.datasets import load_digits

import chanceclust as cc

X, digit = load_digits(return_X_y=True)
eps_values = np.arange(16, 31, 1.0)
runs = {eps: DBSCAN(eps=eps, min_samples=5).fit_predict(X) for eps in eps_values}
noise = {"unassigned_label": -1, "unassigned": "singletons"}
for eps, labels in runs.items():
    sizes = np.bincount(labels[labels >= 0])
    print(f"eps {eps:4.0f}: {len(sizes):3d} clusters, largest {sizes.max():4d}, "
          f"noise {np.sum(labels == -1):4d}")

# %%
# ARI, its lower bound and the z-score under each model
# -----------------------------------------------------
# ARI = (RI - E[RI]) / (1 - E[RI]) is at least -E[RI] / (1 - E[RI]): under ``all`` a random
# partition of 1,797 elements puts almost every pair apart, E[RI] is close to 1, and the
# scale 1 / (1 - E[RI]) is large.
settings = {"perm": ("perm", False), "num, one-sided": ("num", True),
            "all, one-sided": ("all", True), "all, two-sided": ("all", False)}
ari, z = {}, {}
for name, (model, one_sided) in settings.items():
    ari[name] = [cc.adjusted_rand_index(digit, runs[e], model=model, one_sided=one_sided, **noise)
                 for e in eps_values]
    z[name] = [cc.standardized_rand_index(digit, runs[e], model=model, one_sided=one_sided,
                                          **noise) for e in eps_values]
    expected = cc.expected_rand_index(digit, runs[25.0], model=model, one_sided=one_sided,
                                      **noise)
    at25 = int(np.flatnonzero(eps_values == 25)[0])
    print(f"eps 25, {name:15s}: E[RI] {expected:.4f}  ARI {ari[name][at25]:9.2f}  "
          f"bound {-expected / (1 - expected):8.1f}  z {z[name][at25]:9.1f}")

# %%
# The figure
# ----------
# Both axes are symmetric-logarithmic: linear between -1 and 1, logarithmic beyond.
fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), layout="constrained")
for i, name in enumerate(settings):
    axes[0].plot(eps_values, ari[name], "o-", color=f"C{i}", label=name, ms=4)
    axes[1].plot(eps_values, z[name], "o-", color=f"C{i}", label=name, ms=4)
axes[0].set_yscale("symlog", linthresh=1)
axes[0].set_ylabel("adjusted Rand index")
axes[0].set_title("ARI against the digit labels")
axes[1].set_yscale("symlog", linthresh=10)
axes[1].set_ylabel("z = (RI - E[RI]) / sd[RI]")
axes[1].set_title("exact z-score of the Rand index")
for ax in axes:
    ax.axhline(0, color="0.5", lw=0.8)
    ax.set_xlabel("DBSCAN eps")
    ax.legend(fontsize=8)
plt.show()
