"""Input validation: every user-facing error message of the library lives here.

Each checker returns normalized arguments or raises ``ValueError`` naming the
argument, what it must be and what it got.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable
from typing import Any

import numpy as np
from numpy.typing import NDArray

MODELS = ("perm", "num", "all")
AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")
_AVERAGE_ALIASES = {"sqrt": "geometric", "sum": "arithmetic"}


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_model(model: Any) -> str:
    """Return ``model`` if it names a random model, else raise."""
    if not isinstance(model, str) or model not in MODELS:
        raise ValueError(
            f"`model` must be one of 'perm', 'num', 'all'; got {_describe(model)}."
        )
    return model


def check_one_sided(one_sided: Any) -> bool:
    """Return ``one_sided`` as a bool, refusing anything but a boolean."""
    if not isinstance(one_sided, (bool, np.bool_)):
        raise ValueError(f"`one_sided` must be True or False; got {_describe(one_sided)}.")
    return bool(one_sided)


def check_average_method(average_method: Any) -> str:
    """Return the canonical name of an NMI/AMI normalization (aliases sqrt, sum)."""
    if isinstance(average_method, str):
        name = _AVERAGE_ALIASES.get(average_method, average_method)
        if name in AVERAGE_METHODS:
            return name
    raise ValueError(
        "`average_method` must be one of 'min', 'geometric' (alias 'sqrt'), "
        f"'arithmetic' (alias 'sum'), 'max'; got {_describe(average_method)}."
    )


def check_count(value: Any, name: str, *, minimum: int = 0) -> int:
    """Return ``value`` as a Python int >= ``minimum``; integral floats are accepted."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {_describe(value)}.")
    if isinstance(value, numbers.Integral):
        result = int(value)
    elif math.isfinite(value) and float(value).is_integer():
        result = int(value)
    else:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {_describe(value)}.")
    if result < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {result}.")
    return result


def _is_missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return isinstance(value, (float, np.floating)) and math.isnan(value)
    except TypeError:  # pragma: no cover - exotic numeric types
        return False


def _categorical_codes(labels: Any) -> NDArray[np.int64] | None:
    """Codes of a pandas Categorical or categorical Series, else None."""
    dtype = getattr(labels, "dtype", None)
    if dtype is None or getattr(dtype, "name", None) != "category":
        return None
    codes = labels.cat.codes if hasattr(labels, "cat") else labels.codes
    return np.asarray(codes, dtype=np.int64)


def _as_label_array(labels: Any, name: str) -> np.ndarray:
    """Turn any 1-D sequence of hashable labels into a numpy array without altering values."""
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise ValueError(
            f"`{name}` must be a 1-D sequence of hashable labels; got {_describe(labels)}."
        )
    if hasattr(labels, "to_numpy"):  # pandas Series / Index / ExtensionArray
        labels = labels.to_numpy(dtype=object) if labels.dtype == object else labels.to_numpy()
    if isinstance(labels, np.ndarray):
        array = labels
    else:
        values = list(labels)
        try:
            array = np.asarray(values)
        except ValueError:  # ragged, e.g. [1, (2, 3)]: numpy cannot build an array
            array = None
        if array is None or (
            array.ndim > 1 and all(isinstance(v, tuple) for v in values)
        ):  # tuples are hashable labels, not rows
            array = np.fromiter(values, dtype=object, count=len(values))
        elif array.dtype.kind in "US" and not all(isinstance(v, (str, bytes)) for v in values):
            # numpy turns [1, "1"] into two equal strings: keep the user's values distinct.
            array = np.fromiter(values, dtype=object, count=len(values))
    if array.ndim != 1:
        raise ValueError(
            f"`{name}` must be 1-D (one label per element); got an array of shape {array.shape}."
        )
    return array


def check_labels(labels: Any, name: str = "labels") -> tuple[NDArray[np.integer], int]:
    """Validate a labeling and return (codes 0..K-1, K).

    Codes number the distinct labels in sorted order when the labels are
    sortable, in order of first appearance otherwise.
    """
    codes = _categorical_codes(labels)
    if codes is not None:
        if codes.ndim != 1:
            raise ValueError(f"`{name}` must be 1-D; got shape {codes.shape}.")
        if codes.size and codes.min() < 0:
            position = int(np.argmax(codes < 0))
            raise ValueError(
                f"`{name}` must not contain missing values (NaN/None); "
                f"got one at position {position}."
            )
        _, inverse = np.unique(codes, return_inverse=True)
        return inverse.astype(_code_dtype(inverse.size)).ravel(), int(inverse.max(initial=-1)) + 1
    array = _as_label_array(labels, name)
    if array.dtype.kind == "f" or array.dtype.kind == "c":
        bad = np.isnan(array)
        if bad.any():
            raise ValueError(
                f"`{name}` must not contain missing values (NaN/None); "
                f"got one at position {int(np.argmax(bad))}."
            )
    elif array.dtype.kind == "O":
        for position, value in enumerate(array):
            if _is_missing(value):
                raise ValueError(
                    f"`{name}` must not contain missing values (NaN/None); "
                    f"got one at position {position}."
                )
            if not isinstance(value, Hashable):
                raise ValueError(
                    f"`{name}` must hold hashable labels; got {type(value).__name__} "
                    f"at position {position}."
                )
    elif array.dtype.kind not in "biuUSMm":
        raise ValueError(f"`{name}` must hold hashable labels; got dtype {array.dtype}.")
    return _factorize(array)


def _code_dtype(n: int) -> type:
    """int32 codes while they fit: half the memory of the label arrays' int64."""
    return np.int32 if n < 2**31 else np.int64


def _factorize(array: np.ndarray) -> tuple[NDArray[np.integer], int]:
    dtype = _code_dtype(array.size)
    if array.dtype.kind in "iu" and array.size:
        low, high = int(array.min()), int(array.max())
        if high - low <= 4 * array.size + 1024:  # dense integer labels: O(N), no sort
            shifted = array - low if low else array
            present = np.zeros(high - low + 1, dtype=bool)
            present[shifted] = True
            rank = np.cumsum(present, dtype=dtype) - 1
            return rank[shifted], int(present.sum())
    try:
        uniques, inverse = np.unique(array, return_inverse=True)
        return inverse.astype(dtype).ravel(), len(uniques)
    except TypeError:  # unsortable mixture such as [1, "a"]: first-appearance order
        index: dict[Any, int] = {}
        codes = np.fromiter(
            (index.setdefault(v, len(index)) for v in array), dtype=dtype, count=len(array)
        )
        return codes, len(index)


def check_clusterings(
    labels_true: Any, labels_pred: Any
) -> tuple[NDArray[np.intp], int, NDArray[np.intp], int]:
    """Validate two labelings of the same elements; return codes and cluster counts."""
    codes_true, k_true = check_labels(labels_true, "labels_true")
    codes_pred, k_pred = check_labels(labels_pred, "labels_pred")
    if codes_true.shape[0] != codes_pred.shape[0]:
        raise ValueError(
            "`labels_true` and `labels_pred` must label the same elements; got lengths "
            f"{codes_true.shape[0]} and {codes_pred.shape[0]}."
        )
    return codes_true, k_true, codes_pred, k_pred


def check_sizes(sizes: Any, name: str) -> NDArray[np.int64]:
    """Validate a cluster-size sequence: positive integers."""
    array = np.asarray(sizes)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            f"`{name}` must be a non-empty 1-D sequence of positive integers; "
            f"got {_describe(sizes)}."
        )
    if array.dtype.kind == "f":
        if not np.all(np.isfinite(array)) or not np.all(array == np.round(array)):
            raise ValueError(f"`{name}` must hold positive integers; got {_describe(sizes)}.")
    elif array.dtype.kind not in "iu":
        raise ValueError(f"`{name}` must hold positive integers; got {_describe(sizes)}.")
    if array.dtype.kind == "u" and array.dtype.itemsize == 8 and array.max() >= 2**63:
        raise ValueError(f"`{name}` holds sizes too large for int64; got {_describe(sizes)}.")
    array = array.astype(np.int64, copy=False)  # no copy for int64 input: it is only read
    if array.min() <= 0:
        raise ValueError(f"`{name}` must hold positive integers; got {_describe(sizes)}.")
    return array


def check_rng(rng: Any) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from None, an int seed or a Generator."""
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if int(rng) < 0:
            raise ValueError(f"`rng` must be None, a non-negative int or a Generator; got {rng}.")
        return np.random.default_rng(int(rng))
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    raise ValueError(
        "`rng` must be None, a non-negative int or a numpy.random.Generator; "
        f"got {_describe(rng)}."
    )


def check_side(
    n: int,
    sizes: Any,
    n_clusters: Any,
    *,
    sizes_name: str = "sizes",
    n_clusters_name: str = "n_clusters",
) -> tuple[NDArray[np.int64] | None, int | None]:
    """Validate one side's summary of N elements: cluster sizes and/or a number of clusters.

    Returns ``(sizes, K)`` with ``K = len(sizes)`` when sizes are given (either may be
    None). Sizes must be positive and sum to ``n``; ``K`` must be in 1..max(n, 1) and agree
    with the sizes. Which of the two a model needs is :func:`check_needed`'s rule.
    """
    size_array = None if sizes is None else check_sizes(sizes, sizes_name)
    if size_array is not None and int(size_array.sum()) != n:
        raise ValueError(f"`{sizes_name}` must sum to n={n}; got {int(size_array.sum())}.")
    k = None if n_clusters is None else check_count(n_clusters, n_clusters_name, minimum=1)
    if k is not None and k > max(n, 1):
        raise ValueError(f"`{n_clusters_name}` must be between 1 and n={n}; got {k}.")
    if size_array is not None:
        if k is not None and k != len(size_array):
            raise ValueError(
                f"`{n_clusters_name}`={k} contradicts the {len(size_array)} cluster sizes given."
            )
        k = len(size_array)
    return size_array, k


def check_needed(model: str, name: str, value: Any, *, role: str = "this model") -> None:
    """The one rule of what a random side needs: sizes under perm, K under num.

    ``name`` is the argument that supplies it (``sizes...`` or ``n_clusters...``) and
    ``value`` what :func:`check_side` returned for it.
    """
    if value is None:
        raise ValueError(f"`{name}` is required for model={model!r} ({role}); got None.")


def check_model_summary(
    n: Any, model: Any, n_clusters: Any, sizes: Any
) -> tuple[int, str, int | None, NDArray[np.int64] | None]:
    """Validate ``(n, model, n_clusters, sizes)`` of one random clustering (samplers, p_same).

    perm needs ``sizes`` (summing to ``n``), num needs ``n_clusters`` (1..n), all needs
    neither; an argument the model does not use is an error. Returns
    ``(n, model, K or None, sizes or None)``.
    """
    n = check_count(n, "n", minimum=1)
    model = check_model(model)
    if model != "perm" and sizes is not None:
        raise ValueError(f"`sizes` is only used with model='perm'; got model={model!r}.")
    if model == "all" and n_clusters is not None:
        raise ValueError(f"`n_clusters` is only used with model='num'; got model={model!r}.")
    size_array, k = check_side(n, sizes, n_clusters)
    if model == "perm":
        check_needed(model, "sizes", size_array)
        return n, model, None, size_array
    if model == "num":
        check_needed(model, "n_clusters", k)
    return n, model, k, None


def check_counts(value: Any, name: str) -> NDArray[np.int64]:
    """Return ``value`` as an int64 array of integers in 0..2**53, else raise (array check_count)."""
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged input and the like
        raise ValueError(
            f"`{name}` must be an array of non-negative integers; got {_describe(value)}."
        ) from exc
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iuf":
        raise ValueError(
            f"`{name}` must be an array of non-negative integers; got dtype {arr.dtype}."
        )
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr)) | (np.abs(arr) > 2.0**53)
        if np.any(bad):
            raise ValueError(
                f"`{name}` must hold non-negative integers; got {_describe(arr[bad].flat[0])}."
            )
    if arr.dtype.kind in "iu" and arr.size and int(arr.max()) > 2**53:
        # beyond 2**53 the float64 kernels could not even represent n exactly
        raise ValueError(f"`{name}` must be at most 2**53; got {_describe(int(arr.max()))}.")
    out = arr.astype(np.int64)
    if np.any(out < 0):
        raise ValueError(
            f"`{name}` must hold non-negative integers; got {_describe(out[out < 0].flat[0])}."
        )
    return out
