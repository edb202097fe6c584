"""
Null distribution of the ARI under perm, num and all
====================================================

How unusual is an observed adjusted Rand index? The answer depends on the random clusterings
it is compared with. Here one pair of clusterings — a reference of four groups of 25 and a
clustering that lumps 60 elements together and recovers 10 of each group — is tested against
each model with :func:`chanceclust.null_distribution`; the exact standardized Rand index
(:func:`chanceclust.standardized_rand_index`) needs no sampling.

It needs matplotlib: ``pip install ".[paper]"``.
"""

# %%
# The example
# -----------
import matplotlib.pyplot as plt
import numpy as np

import chanceclust as cc

truth = np.repeat([0, 1, 2, 3], 25)
pred = np.where(np.arange(100) % 25 < 10, truth + 1, 0)  # sizes 60, 10, 10, 10, 10
print(np.bincount(pred))

# %%
# Sample the null distributions
# -----------------------------
# Two-sided ``perm`` keeps both size sequences; one-sided ``num`` keeps the reference and
# draws uniform clusterings with 5 clusters; one-sided ``all`` draws uniform clusterings of
# 100 elements. The ARI of each random pair is adjusted under the same model, so every null
# distribution is centred at 0.
settings = (("perm", False), ("num", True), ("all", True))
n_samples = 2000
fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
for ax, (model, one_sided) in zip(axes, settings, strict=True):
    null = cc.null_distribution("ari", truth, pred, model=model, one_sided=one_sided,
                                n_resamples=n_samples, rng=0)
    observed = cc.adjusted_rand_index(truth, pred, model=model, one_sided=one_sided)
    z = cc.standardized_rand_index(truth, pred, model=model, one_sided=one_sided)
    test = cc.significance_test("ari", truth, pred, model=model, one_sided=one_sided,
                                n_resamples=n_samples, rng=1)
    ax.hist(null, bins=40, color="0.7", edgecolor="0.4", linewidth=0.4)
    ax.axvline(observed, color="C3", linewidth=2, label=f"observed ARI = {observed:.3f}")
    ax.axvline(0, color="black", linewidth=0.8, linestyle=":")
    name = model + (", one-sided" if one_sided else "")
    ax.set_title(f"{name}\nexact z(RI) = {z:.1f}, p(greater) = {test.pvalue:.4f}", fontsize=10)
    ax.set_xlabel("ARI of a random pair")
    ax.legend(fontsize=8, loc="upper left")
    print(f"{name:15s} ARI {observed:7.3f}  null mean {null.mean():7.4f} sd {null.std():.4f}"
          f"  z(RI) {z:6.2f}  p {test.pvalue:.4f}")
axes[0].set_ylabel(f"count of {n_samples} samples")
fig.tight_layout()

# %%
# Under ``perm`` the observed ARI is far in the upper tail (the usual verdict: better than
# chance). Against random clusterings with 5 clusters the same clustering is far in the
# *lower* tail: a random 5-clustering agrees with the reference more often than this one.
# Under ``all`` the null is very narrow: typical partitions of 100 elements have many small
# clusters, and a 60-element cluster puts the observed pair deep below chance.
