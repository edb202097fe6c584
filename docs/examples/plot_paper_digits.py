"""
Paper, Section 5.2: K-means runs on the digits
==============================================

Gates & Ahn (2017), Figure 4: K-means with K = 10 on scikit-learn's 1,797 handwritten digits,
many random initializations. The runs share K but not their cluster sizes, so the paper argues
for the one-sided ``num`` ARI against the true digits instead of the usual ``perm`` ARI, and
shows that the two rank the runs differently. Quick form of ``chanceclust reproduce digits``
(fewer runs; needs ``chanceclust[paper]``).
"""

# %%
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt

from chanceclust.paper import reproduce

out = Path(tempfile.mkdtemp())
reproduce("digits", out, quick=True, progress=False)
print((out / "digits" / "section.md").read_text())

# %%
image = mpimg.imread(out / "digits" / "digits.png")
fig, ax = plt.subplots(figsize=(10, 10 * image.shape[0] / image.shape[1]))
ax.imshow(image)
ax.set_axis_off()
fig.tight_layout(pad=0)
