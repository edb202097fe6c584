"""
Paper, Section 5.1: rankings of six clustering pairs
====================================================

Gates & Ahn (2017), Figures 2 and 3: four clusterings W, X, Y, Z of 20 elements; the six pairs
are ranked by the Rand index, by the ARI under each model, and by the MI, NMI and AMI under each
model and normalization. The paper does not give Z; the reproduction searches for ten-cluster
Zs consistent with the text and reports the claims that hold. This is the quick form of
``chanceclust reproduce ranking`` (needs ``pip install ".[paper]"``).
"""

# %%
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt

from chanceclust.paper import reproduce

out = Path(tempfile.mkdtemp())
reproduce("ranking", out, quick=True, progress=False)
print((out / "ranking" / "section.md").read_text())

# %%
# Figure 2: the Rand index and its three adjusted variants
for stem in ("ranking_rand", "ranking_mi"):
    image = mpimg.imread(out / "ranking" / f"{stem}.png")
    fig, ax = plt.subplots(figsize=(10, 10 * image.shape[0] / image.shape[1]))
    ax.imshow(image)
    ax.set_axis_off()
    fig.tight_layout(pad=0)
