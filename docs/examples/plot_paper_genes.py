"""
Paper, Section 5.4: 35 gene expression studies
==============================================

Gates & Ahn (2017), Figure 6: average-linkage hierarchical clustering of the 35 cancer gene
expression studies of de Souto et al. (2008), cut at the number of classes, against the known
classes. Studies above chance under ``perm`` can be below chance under one-sided ``num``, and
the other way round. Quick form of ``chanceclust reproduce genes`` (needs
``pip install ".[paper]"``).

The data (22.8 MiB) are not part of the repository, and this example never downloads them:
it uses the copy in the data home if :func:`chanceclust.datasets.fetch_gene_expression` has
already fetched it, else a copy next to the repository (``../shared/data/gene-expression``),
checked against the SHA-256 registry by :func:`chanceclust.datasets.check_gene_expression`.
When neither is there, it says so and stops. To run it anywhere, fetch the data once:
``python -c "import chanceclust.datasets as d; d.fetch_gene_expression()"``.
"""

# %%
import tempfile
from pathlib import Path

import matplotlib.image as mpimg
import matplotlib.pyplot as plt

from chanceclust.datasets import check_gene_expression, fetch_gene_expression
from chanceclust.paper import reproduce


def local_gene_expression():
    """The verified data folder already on this machine, or None (no download)."""
    try:
        return fetch_gene_expression(download_if_missing=False)
    except (FileNotFoundError, ImportError):  # not fetched yet, or no pooch for the data home
        pass
    # The gallery runs this script in docs/examples/: the copy beside the repository.
    beside = Path("..", "..", "..", "shared", "data", "gene-expression")
    return check_gene_expression(beside) if beside.is_dir() else None


data = local_gene_expression()
if data is None:
    print("The gene expression files (de Souto et al. 2008) are not on this machine: this "
          "example is skipped. chanceclust.datasets.fetch_gene_expression() downloads them.")
else:
    out = Path(tempfile.mkdtemp())
    reproduce("genes", out, quick=True, data_dir=data, progress=False)
    print((out / "genes" / "section.md").read_text())
    image = mpimg.imread(out / "genes" / "genes.png")
    fig, ax = plt.subplots(figsize=(10, 10 * image.shape[0] / image.shape[1]))
    ax.imshow(image)
    ax.set_axis_off()
    fig.tight_layout(pad=0)
