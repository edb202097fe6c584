"""All-pairs similarity matrices of many clusterings, serially or through any Executor.

Stability analyses, consensus clustering and resolution or seed sweeps compare
every pair of M clusterings of the same elements (R's
``clue::cl_agreement(x, y)`` is the precedent). :func:`pairwise` does it with
the library's own measures, value for value equal to the loop of single
calls, and with the work shared out the way that scales:

* each clustering is validated and factorized once (codes, K, sizes; its
  cluster-size law once per worker), never once per pair;
* two-sided ``num``/``all`` expectations of MI depend only on (N, K_i, K_j):
  each distinct pair of numbers of clusters is computed once, by the one task
  that holds all the pairs sharing it; other E[MI] (``perm``, one-sided) once
  per distinct pair of size laws in a worker, equal to the single call's float
  (equal-sized or repeated clusterings share it); under ``perm`` the pairs of
  one first law in one call of the batched kernel (``expected_mi_of_law_rows``);
* pairs are dealt in turn to about four tasks per worker (a Dask client's
  threads over all its workers, a pool's maximum number of workers), of equal
  size to within a pair or a group of pairs sharing an E[MI];
* the labels go to each worker once: through one memory-mapped file for
  process pools and for Dask workers that see this machine's files (a
  LocalCluster), else scattered once to every Dask worker; a task carries only
  its pair indices;
* the per-pair kernel reuses per-worker buffers for the contingency table;
  the library never changes its process's allocator: the settings that keep
  Dask workers' per-pair temporaries fast are in docs/guide/scaling.md.

``executor`` is any :class:`concurrent.futures.Executor`: a
``ProcessPoolExecutor``, a ``ThreadPoolExecutor``, loky's, or
``distributed.Client.get_executor()`` -- the core depends on none of them.
"""

from __future__ import annotations

import heapq
import itertools
import os
import shutil
import tempfile
import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._docs import fill_doc
from chanceclust._expected.mutual_information import expected_mi_of_law_rows
from chanceclust._models import Setting, Side, canonical_pair
from chanceclust._registry import MEASURES as _REGISTRY
from chanceclust._tables import CellBuffers, cell_keys, code_sizes, count_keys
from chanceclust._validation import (
    RAISE,
    Unassigned,
    _describe,
    _is_pandas,
    check_average_method,
    check_setting,
    check_unassigned,
    namespace,
    validate_many,
)
from chanceclust.adjusted import _adjusted_mutual_information
from chanceclust.comparison import degenerate_reason
from chanceclust.contingency import Table, _table_from_codes
from chanceclust.exceptions import InternalError, InvalidInputError
from chanceclust.expectations import _expected_mutual_information

__all__ = ["PairwiseResult", "pairwise"]


@dataclass(frozen=True, eq=False)
class PairwiseResult:
    """A labelled matrix of similarities between clusterings.

    Formula: docs/math.md#math-summaries.

    Attributes
    ----------
    values : ndarray of shape (M, M') of float64
        ``values[i, j]`` compares ``names[i]`` (``labels_true``, the reference
        when one-sided) with ``other_names[j]`` (``labels_pred``).
    names, other_names : tuple of str
        Row and column names (the keys of a mapping of clusterings, else
        their positions as strings).
    measure : str
    model : str or None
        The random model (ARI, AMI, SRI, SMI), else None.
    one_sided : bool
    average_method : str or None
        The normalization (AMI, NMI), else None.
    degenerate : ndarray of shape (M, M') of bool, or None
        For the measures under a model: True where every draw of the random model
        gives the observed similarity (``chanceclust.comparison.degenerate_reason``:
        a clustering with one cluster or N clusters under one-sided ``num``, ...), so
        that ``values`` there (0.0) is a convention, not a comparison with chance. Do
        not rank such a pair with the others: ``ranked`` puts it last. None for the
        raw measures.
    """

    values: NDArray[np.float64]
    names: tuple[str, ...]
    other_names: tuple[str, ...]
    measure: str
    model: str | None
    one_sided: bool
    average_method: str | None
    degenerate: NDArray[np.bool_] | None = None

    def ranked(self, row: int | str = 0) -> list[tuple[str, float, bool]]:
        """The columns of one row, best first: ``(name, value, degenerate)``.

        Real comparisons come first, by value (smallest first for a distance); the
        degenerate ones (values by convention) after them, whatever their value.

        Examples
        --------
        >>> import chanceclust as cc
        >>> truth = [0, 0, 0, 1, 1, 1, 2, 2, 2]
        >>> result = cc.pairwise({"truth": truth},
        ...                      {"one": [0] * 9, "mixed": [0, 1, 2, 0, 1, 2, 0, 1, 2]},
        ...                      measure="ari", model="num", one_sided=True)
        >>> result.values.round(4), result.degenerate   # "one": a single cluster
        (array([[ 0.    , -0.2205]]), array([[ True, False]]))
        >>> [(name, round(value, 4), flag) for name, value, flag in result.ranked("truth")]
        [('mixed', -0.2205, False), ('one', 0.0, True)]
        """
        i = self.names.index(row) if isinstance(row, str) else row
        flags = (np.zeros(self.shape[1], dtype=bool) if self.degenerate is None
                 else self.degenerate[i])
        sign = 1.0 if _REGISTRY[self.measure].distance else -1.0
        order = sorted(range(self.shape[1]),
                       key=lambda j: (bool(flags[j]), sign * float(self.values[i, j])))
        return [(self.other_names[j], float(self.values[i, j]), bool(flags[j])) for j in order]

    @property
    def shape(self) -> tuple[int, int]:
        """(M, M')."""
        return self.values.shape  # type: ignore[return-value]

    def __array__(self, dtype: Any = None, copy: Any = None) -> NDArray[Any]:
        return self.values if dtype is None else self.values.astype(dtype)

    def __repr__(self) -> str:
        setting = "" if self.model is None else f", model={self.model!r}"
        setting += ", one_sided=True" if self.one_sided else ""
        setting += (
            "" if self.average_method is None else f", average_method={self.average_method!r}"
        )
        return f"PairwiseResult({self.measure!r}{setting}, shape={self.shape})"

    def to_frame(self) -> Any:
        """The matrix as a ``pandas.DataFrame`` indexed by ``names``, columns ``other_names``.

        Requires pandas (``pip install "chanceclust[pandas]"``).
        """
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError(
                'PairwiseResult.to_frame() requires pandas: pip install "chanceclust[pandas]" '
                "(or pip install pandas)."
            ) from exc

        return pd.DataFrame(self.values, index=list(self.names), columns=list(self.other_names))


@dataclass(frozen=True)
class _Spec:
    """What every task needs besides the codes and its pairs (small, picklable)."""

    measure: str
    setting: Setting
    method: str
    n: int
    # With unassigned elements: the policy, which clusterings have some, their names.
    policy: Unassigned = RAISE
    unassigned: tuple[bool, ...] = ()
    names: tuple[str, ...] = ()


def _named(clusterings: Any, name: str) -> tuple[tuple[str, ...], list[Any]]:
    """Names and labelings of a mapping, a DataFrame (its columns) or a sequence of labelings."""
    if isinstance(clusterings, Mapping):
        return tuple(str(k) for k in clusterings), list(clusterings.values())
    if _is_pandas(clusterings, "DataFrame"):  # e.g. adata.obs[["leiden_0.5", "leiden_1"]]
        columns = list(clusterings.columns)
        return tuple(str(c) for c in columns), [
            clusterings.iloc[:, i] for i in range(len(columns))
        ]
    if isinstance(clusterings, (str, bytes)) or not isinstance(clusterings, (Sequence, np.ndarray)):
        raise InvalidInputError(
            f"`{name}` must be a sequence or mapping of labelings, or a DataFrame of them; "
            f"got {type(clusterings).__name__} {_describe(clusterings)}."
        )
    items = list(clusterings)
    return tuple(str(i) for i in range(len(items))), items


@fill_doc
def pairwise(
    clusterings: Any,
    other: Any = None,
    *,
    measure: str = "ami",
    model: str = "perm",
    one_sided: bool = False,
    average_method: str = "arithmetic",
    unassigned_label: Any = None,
    unassigned: str = "raise",
    executor: Executor | None = None,
    block_size: int | None = None,
) -> PairwiseResult:
    """The matrix of a similarity measure between every pair of clusterings.

    Formula: docs/math.md#math-summaries.

    Parameters
    ----------
    clusterings : sequence or mapping of labelings, or a pandas DataFrame
        M clusterings of the same elements, each in any form a single call takes
        (labels by position, a Series, a mapping ``{element: label}``, communities);
        a mapping names them, a DataFrame's columns are the clusterings. Keyed
        inputs are matched by element, as in the single calls: every clustering is
        aligned on the union of the elements, in the first one's order.
    other : sequence or mapping of labelings, or a DataFrame, optional
        M' further labelings: the M x M' cross matrix (rows ``clusterings``,
        columns ``other``). Default: all pairs of ``clusterings``.
    measure : {"ami", "ari", "ri", "mi", "nmi", "vi", "fmi", "jaccard", "sri", "smi"}, \
default="ami"
        "sri" and "smi" are the exact z-scores of RI and MI
        (:func:`~chanceclust.standardized_rand_index`,
        :func:`~chanceclust.standardized_mutual_information`).
    model : {"perm", "num", "all"}, default="perm"
        The random model of ARI, AMI, SRI and SMI.
    one_sided : bool, default=False
        ARI, AMI, SRI and SMI with the row clustering as the fixed reference:
        the matrix is then not symmetric (reference on rows).
    average_method : {"min", "geometric", "arithmetic", "max"}, default="arithmetic"
        The normalization of AMI and NMI.
    %(unassigned)s
        Applied to each pair as its single call does: under ``"drop"``, a pair
        leaves out the elements unassigned in either of its two clusterings, so
        N may differ by pair.
    executor : concurrent.futures.Executor, optional
        Where the blocks of pairs run: a ``ProcessPoolExecutor`` (the codes
        go to each worker once through a temporary memory-mapped file, so
        workers must share this machine's file system), a
        ``ThreadPoolExecutor``, or ``distributed.Client.get_executor()``
        (each worker maps one file of the codes where it sees this process's files, as a
        pool's or a LocalCluster's workers do; else the codes are sent to every worker
        once). None: serially.
    block_size : int, optional
        Pairs per task, about (the pairs that share a two-sided E[MI] stay in one task).
        Default: four tasks per worker (a Dask client's threads over all its workers, a
        pool's maximum number of workers), of equal size to within one pair (or one
        group of such pairs); pairs are dealt to the tasks in turn, not in consecutive
        runs, so that the tasks cost about the same.

    Returns
    -------
    PairwiseResult
        ``values[i, j]`` is exactly ``measure(clusterings[i], other[j])``
        (the value of the single call); without ``other`` and two-sided,
        ``values[i, j]`` for i <= j is ``measure(clusterings[i],
        clusterings[j])`` and the matrix is symmetric.

    Notes
    -----
    Each pair costs one pass over N codes (the contingency table in reused
    buffers) plus the measure's cost from the table; per-pair E[MI] under
    ``perm`` dominates for AMI (computed once per distinct pair of size laws:
    clusterings with equal sizes share it; the pairs of one clustering's law in one
    batched call, with the single call's values). Two-sided ``num``/``all`` E[MI] are
    computed once per distinct (K_i, K_j), by the task holding those pairs. SMI adds the exact
    Var[MI] of each pair (its cost: :func:`~chanceclust.mutual_information_variance`);
    two-sided ``num``/``all`` variances depend on (N, K_i, K_j) only and are
    cached per process.

    Examples
    --------
    >>> from chanceclust import pairwise
    >>> runs = {"a": [0, 0, 1, 1, 2, 2], "b": [0, 0, 0, 1, 1, 1], "c": [1, 1, 0, 0, 2, 2]}
    >>> result = pairwise(runs, measure="ari")
    >>> result.values.round(4)
    array([[1.    , 0.2424, 1.    ],
           [0.2424, 1.    , 0.2424],
           [1.    , 0.2424, 1.    ]])
    >>> pairwise(runs, measure="ami", model="num", one_sided=True).shape
    (3, 3)
    """
    measure_name = measure.lower() if isinstance(measure, str) else measure
    if measure_name not in _REGISTRY:
        raise InvalidInputError(
            f"`measure` must be one of {', '.join(map(repr, _REGISTRY))}; "
            f"got {_describe(measure)}."
        )
    chosen = _REGISTRY[measure_name]
    setting = check_setting(model, one_sided)
    method = check_average_method(average_method)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise InvalidInputError(
            f"`executor` must be a concurrent.futures.Executor (with submit); got "
            f"{_describe(executor)}."
        )
    if block_size is not None and (
        isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1
    ):
        raise InvalidInputError(
            f"`block_size` must be a positive integer; got {_describe(block_size)}."
        )
    names, items = _named(clusterings, "clusterings")
    labels = [f"clusterings[{key}]" for key in names]
    if other is None:
        other_names, m_other = names, 0
    else:
        other_names, other_items = _named(other, "other")
        items = items + other_items
        labels += [f"other[{key}]" for key in other_names]
        m_other = len(other_items)
    codes, ks, flagged = validate_many(
        items, labels, unassigned_label=unassigned_label, unassigned=unassigned, on_device=True
    )
    # Labels of another array library (the array API: CuPy, PyTorch, JAX, ...) stay on their
    # device: each pair's table is counted there, as the single call counts it.
    on_device = any(namespace(c) is not None for c in codes)
    n = codes[0].shape[0] if codes else 0
    m = len(names)
    # Only the upper triangle when s(A, B) = s(B, A) to the last bit (the registry says
    # where; the measures are computed on a canonical orientation there).
    symmetric = other is None and chosen.symmetric(setting.asymmetric, method)
    rows_index, cols_index = _pairs(m, m_other, other is None, symmetric)
    values = np.empty(rows_index.size, dtype=np.float64)
    spec = _Spec(measure_name, setting, method, n)
    if any(flagged) or on_device:  # the policy applies per pair, in the workers
        spec = _Spec(measure_name, setting, method, n, check_unassigned(unassigned), tuple(flagged),
                     tuple(labels))  # fmt: skip
    if on_device:
        chosen_measure = _REGISTRY[measure_name]
        for p, (i, j) in enumerate(zip(rows_index.tolist(), cols_index.tolist(), strict=True)):
            values[p] = _policy_pair_value(codes[i], ks[i], codes[j], ks[j], spec, i, j,
                                           chosen_measure)  # fmt: skip
    elif codes and rows_index.size:
        matrix = np.stack([c.astype(np.int32 if (n or 0) < 2**31 else np.int64) for c in codes])
        values[:] = _run(matrix, np.asarray(ks, dtype=np.int64), spec, rows_index, cols_index,
                         executor, block_size)  # fmt: skip
    shape = (m, m if other is None else m_other)
    out = np.empty(shape, dtype=np.float64)
    cols_local = cols_index - (0 if other is None else m)
    out[rows_index, cols_local] = values
    if symmetric:
        out[cols_local, rows_index] = values
    degenerate = None
    if chosen.uses_model:
        degenerate = np.zeros(shape, dtype=bool)
        flags = _degenerate_pairs(codes, ks, flagged, spec, rows_index, cols_index)
        degenerate[rows_index, cols_local] = flags
        if symmetric:
            degenerate[cols_local, rows_index] = flags
    return PairwiseResult(
        out,
        names,
        other_names,
        measure_name,
        setting.name if chosen.uses_model else None,
        setting.one_sided if chosen.uses_model else False,
        method if chosen.normalized else None,
        degenerate,
    )


def _degenerate_pairs(codes: list[Any], ks: list[int], flagged: list[bool], spec: _Spec,
                      rows: NDArray[np.int64], cols: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Whether each pair's random ensemble gives its observed value in every draw
    (``comparison.degenerate_reason``, on each pair's cluster sizes after
    its unassigned policy; the sizes of one clustering counted once)."""
    sizes: dict[int, NDArray[np.int64]] = {}

    def sizes_of(i: int) -> NDArray[np.int64]:
        if i not in sizes:
            sizes[i] = code_sizes(codes[i], int(ks[i]))
        return sizes[i]

    out = np.zeros(rows.size, dtype=bool)
    for t, (i, j) in enumerate(zip(rows.tolist(), cols.tolist(), strict=True)):
        if flagged[i] or flagged[j]:  # the sizes after this pair's policy
            c = spec.policy.apply(codes[i], int(ks[i]), codes[j], int(ks[j]),
                                  (spec.names[i], spec.names[j]))
            a, b = code_sizes(c.codes_true, c.k_true), code_sizes(c.codes_pred, c.k_pred)
        else:
            a, b = sizes_of(i), sizes_of(j)
        out[t] = degenerate_reason(spec.measure, spec.setting.model, spec.setting.one_sided,
                                   a, b) is not None
    return out


def _pairs(m: int, m_other: int, square: bool, symmetric: bool) -> tuple[NDArray[np.int64], ...]:
    """Row and column indices (into the stacked codes) of the pairs to compute."""
    if not square:
        rows, cols = np.divmod(np.arange(m * m_other, dtype=np.int64), m_other)
        return rows, cols + m
    if symmetric:
        rows, cols = np.triu_indices(m)
        return rows.astype(np.int64), cols.astype(np.int64)
    rows, cols = np.divmod(np.arange(m * m, dtype=np.int64), m)
    return rows, cols


# Tasks per worker when the caller gives no block size: enough for the faster workers to
# take over the blocks of the slower ones (pairs differ in cost by K), few enough that the
# per-task overhead (a Dask task costs milliseconds) stays small. 16 workers, 100 x 10^5,
# 4 and 8 interleaved on one machine: medians 2.67 and 2.68 s (benchmarks/RESULTS.md).
_TASKS_PER_WORKER = 4


def _n_workers(executor: Executor) -> int:
    """How many tasks the executor runs at once: a Dask client's threads over all its
    workers, else the pool's ``_max_workers`` (process, thread and loky pools), else the CPUs."""
    client = _dask_client(executor)
    if client is not None:
        workers = client.scheduler_info().get("workers", {})
        return max(1, sum(int(w.get("nthreads", 1) or 1) for w in workers.values()))
    return max(1, int(getattr(executor, "_max_workers", None) or os.cpu_count() or 1))


def _file_id(path: str) -> tuple[int, int] | None:
    """(device, inode) of a file as this process sees it, None where it sees none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _dask_client(executor: Any) -> Any:
    """The client behind ``distributed.Client.get_executor()``, found without importing dask."""
    client = getattr(executor, "_client", None)
    return client if client is not None and callable(getattr(client, "scatter", None)) else None


def _tasks(groups: NDArray[np.int64], count: int) -> list[NDArray[np.int64]]:
    """Items 0..len(groups)-1 dealt to at most ``count`` tasks, the items of one group (pairs
    that share an E[MI]) to one task: groups, largest first, each to the task with the fewest
    items so far (so the tasks' sizes differ by at most the largest group; by at most one
    item when every group has one); each task's items ascending, tasks in order of their
    first item. Interleaved rather than consecutive: pairs of the same clustering, whose
    costs go together, are spread over the tasks, which then end together."""
    total = groups.size
    if total == 0:
        return []
    sizes = np.bincount(groups)
    order = np.argsort(-sizes, kind="stable")
    order = order[sizes[order] > 0]
    count = max(1, min(count, order.size))
    task_of_group = np.empty(sizes.size, dtype=np.int64)
    if np.all(sizes[order] == 1):  # every group one item: in turn
        task_of_group[order] = np.arange(order.size) % count
    else:
        loads = [(0, t) for t in range(count)]  # (items so far, task): a heap
        for g in order.tolist():
            load, t = heapq.heappop(loads)
            task_of_group[g] = t
            heapq.heappush(loads, (load + int(sizes[g]), t))
    task_of_item = task_of_group[groups]
    items = np.argsort(task_of_item, kind="stable")
    bounds = np.searchsorted(task_of_item[items], np.arange(count + 1))
    parts = [items[lo:hi] for lo, hi in itertools.pairwise(bounds.tolist()) if hi > lo]
    return sorted(parts, key=lambda part: int(part[0]))


def _run(
    codes: NDArray[np.integer],
    ks: NDArray[np.int64],
    spec: _Spec,
    rows: NDArray[np.int64],
    cols: NDArray[np.int64],
    executor: Executor | None,
    block_size: int | None,
) -> NDArray[np.float64]:
    token = uuid.uuid4().hex
    # E[MI] of two-sided num/all depends on (K_i, K_j) only: each distinct pair once.
    need_pairs = (
        spec.measure == "ami"
        and spec.setting.sides_by_k(spec.n, 1, 1) is not None
        and not any(spec.unassigned)  # a pair's N and K then depend on the pair
    )
    if executor is None:
        source: Any = codes
        expectations = _expectation_table(spec, ks, rows, cols) if need_pairs else {}
        try:
            return _run_block(token, source, ks, spec, rows, cols, expectations)
        finally:
            with _WORKSPACES_LOCK:
                _WORKSPACES.pop((token, threading.get_ident()), None)
    workers = _n_workers(executor)
    client = _dask_client(executor)
    folder = None
    try:
        # One file that each worker maps once (the OS shares the pages): a pool's
        # workers, and a Dask cluster's where every worker sees this very file (a
        # LocalCluster); else one copy per worker, sent once (16 copies of the codes
        # from the client cost more than the pairs on 16 local cores).
        folder = tempfile.mkdtemp(prefix="chanceclust-pairwise-")
        path = os.path.join(folder, "codes.npy")
        np.save(path, codes)
        source = path
        if client is not None and set(client.run(_file_id, path).values()) != {_file_id(path)}:
            source = client.scatter(codes, broadcast=True, hash=False)
        total = rows.size
        if need_pairs:  # the pairs of one E[MI] in one task, which computes it once
            pair_keys = [_expectation_key(spec, a, b)
                         for a, b in zip(ks[rows].tolist(), ks[cols].tolist(), strict=True)]
            index: dict[Any, int] = {}
            groups = np.array([index.setdefault(key, len(index)) for key in pair_keys],
                              dtype=np.int64)  # fmt: skip
        else:
            groups = np.arange(total, dtype=np.int64)
        count = (-(-total // block_size) if block_size is not None
                 else _TASKS_PER_WORKER * workers)  # fmt: skip
        parts = _tasks(groups, count)
        futures = [executor.submit(_run_task, token, source, ks, spec, rows[part], cols[part],
                                   need_pairs) for part in parts]  # fmt: skip
        out = np.empty(total, dtype=np.float64)
        for part, future in zip(parts, futures, strict=True):
            out[part] = future.result()
        return out
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _expectation_key(spec: _Spec, k_true: int, k_pred: int) -> tuple[Side, Side]:
    """The two random sides of a pair, canonically ordered (two-sided num/all only)."""
    sides = spec.setting.sides_by_k(spec.n, int(k_true), int(k_pred))
    if sides is None:
        raise InternalError("pairwise asked for (K_i, K_j) keys of sides that need sizes")
    return canonical_pair(*sides)


def _expectation_keys(spec: _Spec, ks: NDArray[np.int64], rows: NDArray[np.int64],
                      cols: NDArray[np.int64]) -> set[tuple[Side, Side]]:  # fmt: skip
    pairs = set(zip(ks[rows].tolist(), ks[cols].tolist(), strict=True))
    return {_expectation_key(spec, k_true, k_pred) for k_true, k_pred in pairs}


def _expectation_table(spec: _Spec, ks: NDArray[np.int64], rows: NDArray[np.int64],
                       cols: NDArray[np.int64]) -> dict[Any, float]:  # fmt: skip
    """Two-sided num/all E[MI] for the distinct pairs of sides of these pairs (the function
    the single call uses)."""
    keys = sorted(_expectation_keys(spec, ks, rows, cols), key=repr)
    return {key: _expected_mutual_information(*key) for key in keys}


# ----------------------------------------------------------------------------- worker side

_WORKSPACES: OrderedDict[tuple[str, int], _Workspace] = OrderedDict()
_WORKSPACES_LOCK = threading.Lock()
# Workspaces kept per process (matrix x thread), oldest dropped first: a long-lived
# worker holds at most this many copies of codes and buffers between calls.
_KEEP_WORKSPACES = 4


class _Workspace:
    """Per worker and thread: the codes, their sizes and laws, and the reused table buffers."""

    def __init__(self, codes: NDArray[np.integer], ks: NDArray[np.int64], n: int) -> None:
        self.codes = codes
        self.ks = ks
        self.n = n
        self.sizes: dict[int, NDArray[np.int64]] = {}
        self.sides: dict[tuple[int, bool], Side] = {}
        self.side_keys: dict[tuple[int, bool], Any] = {}
        self.expected: dict[tuple[Any, Any], float] = {}
        self.buffers = CellBuffers(n)

    def size_of(self, i: int) -> NDArray[np.int64]:
        sizes = self.sizes.get(i)
        if sizes is None:
            sizes = np.bincount(self.codes[i], minlength=int(self.ks[i])).astype(np.int64)
            self.sizes[i] = sizes
        return sizes

    def side_of(self, setting: Setting, i: int, *, reference: bool) -> Side:
        """Clustering i's side (cached with its law): ``reference`` for the row clustering."""
        found = self.sides.get((i, reference))
        if found is None:
            found = setting.side(self.n, self.size_of(i), int(self.ks[i]), reference=reference)
            self.sides[(i, reference)] = found
        return found

    def side_key(self, setting: Setting, i: int, *, reference: bool) -> Any:
        """What clustering i's side's E[MI] depends on: its random model's key, or the
        distinct sizes and multiplicities of its size law (compared by value)."""
        found = self.side_keys.get((i, reference))
        if found is None:
            side = self.side_of(setting, i, reference=reference)
            found = side.key
            if found is None:
                law = side.law
                found = ("sizes", law.n, law.sizes.tobytes(), np.asarray(law.weights).tobytes())
            self.side_keys[(i, reference)] = found
        return found

    def expected_mi(self, setting: Setting, i: int, j: int, sides: tuple[Side, Side]) -> float:
        """E[MI] of the pair's sides, once per distinct pair of size laws in this workspace.

        The value is ``_expected_mutual_information(*sides)``, the single call's: that
        function orders the two sides canonically and then depends on their laws only, so a
        pair whose canonical laws equal those of an earlier pair (repeated or equal-sized
        clusterings) gets the same float.
        """
        key = self._expected_key(setting, i, j, sides)
        found = self.expected.get(key)
        if found is None:
            found = _expected_mutual_information(*sides)
            self.expected[key] = found
        return found

    def _expected_key(self, setting: Setting, i: int, j: int, sides: tuple[Side, Side]) -> Any:
        """The pair's E[MI] key: its two sides' keys in the canonical order of the sides."""
        first = canonical_pair(*sides)[0]
        keys = (
            self.side_key(setting, i, reference=True),
            self.side_key(setting, j, reference=False),
        )
        return keys if first is sides[0] else keys[::-1]

    def prefetch_expected(self, setting: Setting, pairs: list[tuple[int, int]]) -> None:
        """The E[MI] that :meth:`expected_mi` will be asked for, where both sides keep their
        sizes (``perm``: E[MI] of two size laws): the pairs of one canonical first law in one
        call of the kernel (``expected_mi_of_law_rows``, each value the float of its own call,
        so the same as the single call's), which saves the kernel's fixed costs per pair."""
        rows: dict[Any, tuple[Side, dict[Any, Side]]] = {}
        for i, j in pairs:
            sides = (
                self.side_of(setting, i, reference=True),
                self.side_of(setting, j, reference=False),
            )
            if sides[0].key is not None or sides[1].key is not None:
                continue  # a random side: E[MI] of its model, pair by pair
            key = self._expected_key(setting, i, j, sides)
            if key not in self.expected:
                first, second = canonical_pair(*sides)
                rows.setdefault(key[0], (first, {}))[1].setdefault(key[1], second)
        for first_key, (first, seconds) in rows.items():
            values = expected_mi_of_law_rows(first.law, [side.law for side in seconds.values()])
            for second_key, value in zip(seconds, values, strict=True):
                self.expected[(first_key, second_key)] = value

    def table(self, i: int, j: int) -> Table:
        """The contingency table of clusterings i and j, as the single call builds it.

        The same kernel as ``contingency._table_from_codes`` (``_tables.count_keys``: cells
        in row-major order, margins the cluster sizes), counting in the workspace buffers:
        no allocation of the size of N or of the table per pair.
        """
        n, k_true, k_pred = self.n, int(self.ks[i]), int(self.ks[j])
        buffers = self.buffers
        keys = cell_keys(self.codes[i], self.codes[j], k_pred, out=buffers.keys)
        cells, counts = count_keys(keys, k_true * k_pred, buffers=buffers)
        nnz = cells.shape[0]
        rows, cols = buffers.rows[:nnz], buffers.cols[:nnz]
        np.floor_divide(cells, k_pred, out=rows)
        np.remainder(cells, k_pred, out=cols)
        return Table(counts, rows, cols, self.size_of(i), self.size_of(j), n)


def _workspace(token: str, source: Any, ks: NDArray[np.int64], n: int) -> _Workspace:
    key = (token, threading.get_ident())
    with _WORKSPACES_LOCK:
        found = _WORKSPACES.get(key)
        if found is not None:
            _WORKSPACES.move_to_end(key)
            return found
    codes = np.load(source, mmap_mode="r") if isinstance(source, str) else source
    made = _Workspace(codes, ks, n)
    with _WORKSPACES_LOCK:
        _WORKSPACES[key] = made
        while len(_WORKSPACES) > _KEEP_WORKSPACES:
            _WORKSPACES.popitem(last=False)
    return made


def _run_task(token: str, source: Any, ks: NDArray[np.int64], spec: _Spec,
              rows: NDArray[np.int64], cols: NDArray[np.int64],
              need_pairs: bool) -> NDArray[np.float64]:  # fmt: skip
    """One executor task: its pairs' two-sided E[MI] (when shared per (K_i, K_j)), then
    the pairs, as the serial path does for all of them."""
    expectations = _expectation_table(spec, ks, rows, cols) if need_pairs else {}
    return _run_block(token, source, ks, spec, rows, cols, expectations)


def _run_block(
    token: str,
    source: Any,
    ks: NDArray[np.int64],
    spec: _Spec,
    rows: NDArray[np.int64],
    cols: NDArray[np.int64],
    expectations: dict[tuple[Any, Any], float],
) -> NDArray[np.float64]:
    """Evaluate the measure on pairs (rows[p], cols[p]); ``source`` holds the codes once."""
    ws = _workspace(token, source, ks, spec.n)
    if spec.measure == "ami" and not expectations:  # perm E[MI] by rows of one law
        unassigned = spec.unassigned
        pairs = [(i, j) for i, j in zip(rows.tolist(), cols.tolist(), strict=True)
                 if not (unassigned and (unassigned[i] or unassigned[j]))]  # fmt: skip
        ws.prefetch_expected(spec.setting, pairs)
    out = np.empty(rows.size, dtype=np.float64)
    for p, (i, j) in enumerate(zip(rows.tolist(), cols.tolist(), strict=True)):
        out[p] = _pair_value(ws, spec, i, j, expectations)
    return out


def _pair_value(ws: _Workspace, spec: _Spec, i: int, j: int,
                expectations: dict[Any, float]) -> float:  # fmt: skip
    """One pair, exactly as the single call computes it (same table, same functions)."""
    measure = _REGISTRY[spec.measure]
    if spec.unassigned and (spec.unassigned[i] or spec.unassigned[j]):
        return _unassigned_pair_value(ws, spec, i, j, measure)
    table = ws.table(i, j)
    if not measure.uses_model:
        return measure.table(table, None, spec.method)
    sides = (
        ws.side_of(spec.setting, i, reference=True),
        ws.side_of(spec.setting, j, reference=False),
    )
    if expectations:  # AMI, two-sided num/all: E[MI] computed once per (K_i, K_j)
        expected = expectations[_expectation_key(spec, ws.ks[i], ws.ks[j])]
        return _adjusted_mutual_information(table, sides, spec.method, expected=expected)
    if spec.measure == "ami":  # E[MI] once per distinct pair of laws in this worker
        expected = ws.expected_mi(spec.setting, i, j, sides)
        return _adjusted_mutual_information(table, sides, spec.method, expected=expected)
    return measure.table(table, sides, spec.method)


def _unassigned_pair_value(ws: _Workspace, spec: _Spec, i: int, j: int, measure: Any) -> float:
    """A pair with unassigned elements: the policy of its single call, then its table."""
    return _policy_pair_value(np.asarray(ws.codes[i]), ws.ks[i], np.asarray(ws.codes[j]),
                              ws.ks[j], spec, i, j, measure)  # fmt: skip


def _policy_pair_value(codes_i: Any, k_i: Any, codes_j: Any, k_j: Any, spec: _Spec, i: int,
                       j: int, measure: Any) -> float:  # fmt: skip
    """One pair as its single call computes it: its policy, its table (counted where the
    codes are: on a device for array-API labels), the measure of the table."""
    c = spec.policy.apply(codes_i, int(k_i), codes_j, int(k_j), (spec.names[i], spec.names[j]))
    table = _table_from_codes(c.codes_true, c.k_true, c.codes_pred, c.k_pred)
    sides = spec.setting.sides_of_table(table) if measure.uses_model else None
    return measure.table(table, sides, spec.method)
