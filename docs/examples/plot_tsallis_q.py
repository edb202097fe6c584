"""
AMI_q over q: small clusters weigh more for q < 1, large ones for q > 1
=======================================================================

The Tsallis family (:ref:`math-tsallis`) puts Shannon's AMI at q = 1 and the ARI at q = 2
(under ``perm`` with the arithmetic mean) on one curve. A reference of N = 300 elements has
one large cluster (200) and five small ones (20 each); three candidates each get one thing
wrong:

It needs matplotlib: ``pip install ".[paper]"``.

* *small merged*: the five small clusters are one cluster;
* *large split*: the large cluster is cut in two halves;
* *noise*: 10% of the elements get a random label.

Lowering q lifts the small fractions (a/N)^q, so the candidate that loses the small clusters
scores far lower at q <= 1 than at q = 4 (about 0.70 against 0.96); raising q lets the large
cluster dominate, so the candidate that splits it falls from about 0.97 (q = 0.25) to 0.19
(q = 4). The curves printed below (q from 0.25 to 4) are those plotted.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import chanceclust as cc

reference = np.repeat(np.arange(6), [200, 20, 20, 20, 20, 20])
small_merged = np.minimum(reference, 1)
large_split = reference.copy()
large_split[:100] = 6
rng = np.random.default_rng(0)
noise = reference.copy()
flip = rng.random(reference.size) < 0.1
noise[flip] = rng.integers(0, 6, int(flip.sum()))
candidates = {"small merged": small_merged, "large split": large_split, "noise": noise}

qs = np.round(np.geomspace(0.25, 4.0, 17), 4)
curves = {
    name: [cc.adjusted_tsallis_mutual_information(reference, labels, q=q) for q in qs]
    for name, labels in candidates.items()
}

for name, values in curves.items():
    print(f"{name:13s}", " ".join(f"{v:.2f}" for v in values))

# %%
# At q = 2 the curve is the ARI, at q = 1 the AMI:
for name, labels in candidates.items():
    ami_2 = cc.adjusted_tsallis_mutual_information(reference, labels, q=2)
    print(f"{name:13s} q=2: {ami_2:.6f}  ARI: {cc.adjusted_rand_index(reference, labels):.6f}"
          f"  q=1: {cc.adjusted_tsallis_mutual_information(reference, labels, q=1):.6f}"
          f"  AMI: {cc.adjusted_mutual_information(reference, labels):.6f}")

# %%
fig, ax = plt.subplots(figsize=(6, 4))
for name, values in curves.items():
    ax.plot(qs, values, marker="o", label=name)
ax.axvline(1.0, color="grey", lw=0.8, ls=":")
ax.axvline(2.0, color="grey", lw=0.8, ls="--")
ax.set_xscale("log")
ax.set_xlabel("q (dotted: Shannon AMI, dashed: ARI)")
ax.set_ylabel("AMI_q (perm, arithmetic)")
ax.legend()
fig.tight_layout()
plt.show()
