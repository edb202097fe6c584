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
