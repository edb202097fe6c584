"""
Paper, Section 5.3: preferential attachment and unequal cluster sizes
=====================================================================

Gates & Ahn (2017), Figure 5: a clustering of 1,000 elements into 50 equal clusters is
compared with a copy whose elements move by preferential attachment, so that its cluster sizes
grow more and more unequal. The ``perm`` ARI and AMI stay near 0 whatever the sizes; under
``num`` they follow the size entropy. Quick form of ``chanceclust reproduce preferential``
(fewer steps; needs ``pip install ".[paper]"``).
"""

# %%
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt

from chanceclust.paper import reproduce

out = Path(tempfile.mkdtemp())
reproduce("preferential", out, quick=True, progress=False)
print((out / "preferential" / "section.md").read_text())

# %%
image = mpimg.imread(out / "preferential" / "preferential.png")
fig, ax = plt.subplots(figsize=(10, 10 * image.shape[0] / image.shape[1]))
ax.imshow(image)
ax.set_axis_off()
fig.tight_layout(pad=0)
