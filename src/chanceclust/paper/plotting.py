"""Plotting helpers: lazy matplotlib import, colour-blind-safe colours, PNG+PDF output."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chanceclust.paper.report import atomic_path

#: Okabe & Ito (2008) colour-blind-safe palette.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "skyblue": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "grey": "#999999",
}
CYCLE = [OKABE_ITO[k] for k in ("blue", "orange", "green", "vermillion", "purple", "skyblue",
                                "yellow", "black", "grey")]

_MISSING = ("chanceclust's paper reproductions need matplotlib and scikit-learn; install them "
            "with: pip install matplotlib scikit-learn pooch (or, from a checkout of "
            "chanceclust: pip install '.[paper]')")


def require(module: str) -> Any:
    """Import an optional dependency of the paper extra, or raise a clear ImportError."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{_MISSING} (missing: {module.split('.')[0]})") from exc


def pyplot() -> Any:
    """matplotlib.pyplot with the non-interactive Agg backend and a colour-blind-safe cycle."""
    mpl = require("matplotlib")
    mpl.use("Agg")
    plt = require("matplotlib.pyplot")
    plt.rcParams.update({
        "axes.prop_cycle": mpl.cycler(color=CYCLE),
        "figure.dpi": 100,
        "savefig.dpi": 150,
        # Sizes chosen so that text stays readable when a figure is shown ~900 px wide.
        "font.size": 11,
        "axes.titlesize": 12,
        "axes.labelsize": 11,
        "legend.fontsize": 10,
        "legend.title_fontsize": 10,
        "pdf.fonttype": 42,
    })
    return plt


def save(fig: Any, out_dir: Path, stem: str) -> list[Path]:
    """Save ``fig`` as ``stem.png`` and ``stem.pdf`` in ``out_dir`` and close it."""
    import matplotlib.pyplot as plt

    paths = [Path(out_dir) / f"{stem}.{ext}" for ext in ("png", "pdf")]
    for path in paths:
        with atomic_path(path) as temporary:  # the format follows the (kept) suffix
            fig.savefig(temporary, bbox_inches="tight", metadata=None if path.suffix == ".png"
                        else {"CreationDate": None})
    plt.close(fig)
    return paths
