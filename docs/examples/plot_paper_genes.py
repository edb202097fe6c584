"""
Paper, Section 5.4: 35 gene expression studies
==============================================

Gates & Ahn (2017), Figure 6: average-linkage hierarchical clustering of the 35 cancer gene
expression studies of de Souto et al. (2008), cut at the number of classes, against the known
classes. Studies above chance under ``perm`` can be below chance under one-sided ``num``, and
the other way round. ``chanceclust reproduce genes`` (needs ``chanceclust[paper]`` and the data
files, see ``paper/README.md``).

The data are not part of the repository. When they are not found next to it
(``../shared/data/gene-expression``), this example says so and stops.
"""

# %%
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt

from chanceclust.paper import default_data_dir, reproduce

here = Path.cwd()
candidates = [default_data_dir()] + [
    p / "shared" / "data" / "gene-expression" for p in (here.parents[2], here.parents[1])
]
data = next((p for p in candidates if any(p.glob("*_database.txt"))), None)
if data is None:
    print("The gene expression files (*_database.txt, de Souto et al. 2008) were not found "
          "next to the repository: this example is skipped. See paper/README.md for the data.")
else:
    out = Path(tempfile.mkdtemp())
    reproduce("genes", out, quick=True, data_dir=data, progress=False)
    print((out / "genes" / "section.md").read_text())
    image = mpimg.imread(out / "genes" / "genes.png")
    fig, ax = plt.subplots(figsize=(10, 10 * image.shape[0] / image.shape[1]))
    ax.imshow(image)
    ax.set_axis_off()
    fig.tight_layout(pad=0)
