"""Shared pieces of the public docstrings, written once (as SciPy's ``_docscrape`` fragments).

A docstring line holding only ``%(name)s`` is replaced by the fragment ``name`` below,
indented as that line; :func:`fill_doc` does it when the module is imported, so the help,
the doctests and the Sphinx pages all read the filled text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

#: The parameter blocks, by name.
FRAGMENTS = {
    "labels": """\
labels_true, labels_pred : array-like of shape (n_samples,), optional
    The two clusterings. Give these or ``contingency``. Labels by position (sequences,
    arrays, Series, Categoricals) or by element (mappings ``{element: label}``,
    communities such as networkx's list of sets), both the same way.""",
    "contingency": """\
contingency : array-like or sparse matrix of shape (K_A, K_B), optional
    A precomputed contingency table (or a :class:`~chanceclust.TableSummary`).""",
    "unassigned": """\
unassigned_label : label or collection of labels, optional
    Labels that mark an element as unassigned, e.g. -1 for DBSCAN/HDBSCAN noise.
    Missing values (None, NaN, ``pd.NA``, NaT) always do.
unassigned : {"raise", "drop", "singletons", "cluster"}, default="raise"
    What unassigned elements mean: an error (naming the count, the argument and the
    first position); left out of both clusterings (N shrinks, and the random model
    applies to the elements kept); each its own cluster; or one cluster per clustering
    (scikit-learn's -1).""",
    "model": """\
model : {"perm", "num", "all"} or a value of chanceclust.models, default="perm"
    The random model: ``perm`` keeps both clusterings' cluster sizes, ``num`` their
    numbers of clusters, ``all`` only N (docs/math.md#math-models);
    ``models.PerSide(true=..., pred=...)`` a different one on each side
    (docs/math.md#math-model-protocol).
one_sided : bool, default=False
    If True, ``labels_true`` is a fixed reference; only ``labels_pred`` is random.""",
    "one_model": """\
n : int
    Number of elements N >= 1.
model : {"perm", "num", "all"} or a model value of chanceclust.models
    perm: uniform over the clusterings with cluster sizes ``sizes``; num: uniform over
    the S(N, K) clusterings with K = ``n_clusters``; all: uniform over the B_N clusterings.
n_clusters : int, optional
    K, required for ``num`` (1 <= K <= N).
sizes : array-like of positive int, optional
    The cluster sizes, required for ``perm`` (they must sum to ``n``).""",
    "summaries": """\
n : int
    Number of elements N.
model : {"perm", "num", "all"} or a value of chanceclust.models, default="perm"
    As in :func:`chanceclust.expected_rand_index`.
one_sided : bool, default=False
    If True, the clustering with ``sizes_true`` is a fixed reference.
sizes_true, sizes_pred : array-like of int, optional
    Cluster sizes (positive, summing to ``n``).
n_clusters_true, n_clusters_pred : int, optional
    Numbers of clusters K_A, K_B (1 <= K <= n).""",
}
FRAGMENTS["base"] = """\
base : float, optional
    The base of the logarithm: None (default) for nats, 2 for bits, 10 for bans."""
#: The whole input block of a measure: the labels, or a table, and the unassigned policy.
FRAGMENTS["inputs"] = "\n".join(FRAGMENTS[k] for k in ("labels", "contingency", "unassigned"))
#: The same with the random model, in the order of the signatures of the model-taking functions.
FRAGMENTS["model_inputs"] = "\n".join(
    FRAGMENTS[k] for k in ("labels", "model", "contingency", "unassigned")
)

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>\w+)\)s[ \t]*$", re.MULTILINE)


def fill_doc(func: _F) -> _F:
    """Replace each whole-line ``%(name)s`` of ``func``'s docstring by its fragment."""
    doc = func.__doc__
    if doc:

        def indented(match: re.Match[str]) -> str:
            indent = match.group("indent")
            return "\n".join(indent + line for line in FRAGMENTS[match.group("name")].splitlines())

        func.__doc__ = _PLACEHOLDER.sub(indented, doc)
    return func
