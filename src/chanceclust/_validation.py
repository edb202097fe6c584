"""Input validation: the checks and messages shared by every entry point of the library.

Each checker returns normalized arguments or raises
:class:`~chanceclust.exceptions.InvalidInputError` (a ``ValueError``;
:class:`~chanceclust.exceptions.InvalidInputTypeError`, also a ``TypeError``, for a
container that cannot hold a clustering) naming the argument, what it must be and what it
got. Labels of every kind go through :func:`validate_clusterings`.
"""

from __future__ import annotations

import array as _pyarray
import decimal
import itertools
import math
import numbers
import sys
import warnings
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._models import MODELS as _MODEL_VALUES
from chanceclust._models import Model, PerSide, Setting
from chanceclust.exceptions import InternalError, InvalidInputError, InvalidInputTypeError

MODELS = tuple(_MODEL_VALUES)  # ("perm", "num", "all"): the names users type
AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")
#: Normalizations by the entropy (or its bound) of one side only: labels_true or labels_pred.
ONE_SIDE_AVERAGE_METHODS = ("true", "pred")
_AVERAGE_ALIASES = {"sqrt": "geometric", "sum": "arithmetic"}


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _arg(name: str) -> str:
    """How a message names an argument: `name` in the library, a CLI option (--x) as is."""
    return name if name.startswith("--") else f"`{name}`"


def _setting(name: str, value: Any) -> str:
    """``n=10`` for an argument, ``--n 10`` for a CLI option."""
    return f"{name} {value}" if name.startswith("--") else f"{name}={value}"


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of the strings ``choices``, else raise naming ``name``."""
    if isinstance(value, str) and value in choices:
        return value
    raise InvalidInputError(
        f"`{name}` must be one of {', '.join(map(repr, choices))}; got {_describe(value)}."
    )


def check_model(model: Any, name: str = "model") -> Model:
    """The random model of one clustering: a name of MODELS or a
    :class:`~chanceclust._models.Model` value (``chanceclust.models``), else raise."""
    if isinstance(model, str):
        return _MODEL_VALUES[check_choice(model, name, MODELS)]
    if isinstance(model, Model):
        return model
    one = " a model of one clustering here:" if isinstance(model, PerSide) else ""
    raise InvalidInputError(
        f"`{name}` must be{one} one of {', '.join(map(repr, MODELS))} or a model value of "
        f"chanceclust.models (e.g. models.Num()); got {_describe(model)}."
    )


def check_setting(model: Any, one_sided: Any) -> Setting:
    """Parse ``model`` (a name, a model value, or a :class:`PerSide` pair of them) and
    ``one_sided``, in that order, into a :class:`Setting`."""
    if isinstance(model, PerSide):
        true, pred = check_model(model.true, "model.true"), check_model(model.pred, "model.pred")
        model = true if true == pred else PerSide(true, pred)
    else:
        model = check_model(model)
    return Setting(model, check_one_sided(one_sided))


ALTERNATIVES = ("greater", "less", "two-sided")


def check_alternative(alternative: Any) -> str:
    """Return the alternative hypothesis of a test if it is one of ALTERNATIVES, else raise."""
    return check_choice(alternative, "alternative", ALTERNATIVES)


def check_one_sided(one_sided: Any) -> bool:
    """Return ``one_sided`` as a bool, refusing anything but a boolean."""
    if not isinstance(one_sided, (bool, np.bool_)):
        raise InvalidInputError(f"`one_sided` must be True or False; got {_describe(one_sided)}.")
    return bool(one_sided)


def check_average_method(average_method: Any) -> str:
    """Return the canonical name of an NMI/AMI normalization (aliases sqrt, sum; one side: true, pred)."""
    if isinstance(average_method, str):
        name = _AVERAGE_ALIASES.get(average_method, average_method)
        if name in AVERAGE_METHODS or name in ONE_SIDE_AVERAGE_METHODS:
            return name
    raise InvalidInputError(
        "`average_method` must be one of 'min', 'geometric' (alias 'sqrt'), "
        f"'arithmetic' (alias 'sum'), 'max', 'true', 'pred'; got {_describe(average_method)}."
    )


def check_base(base: Any) -> float | None:
    """log(base) of a logarithm base (None: natural logarithm, nats), refusing base <= 0,
    base = 1 and non-numbers."""
    if base is None:
        return None
    if isinstance(base, (int, float, np.integer, np.floating)) and not isinstance(
        base, (bool, np.bool_)
    ):
        value = float(base)
        if math.isfinite(value) and value > 0 and value != 1:
            return math.log(value)
    raise InvalidInputError(
        f"`base` must be a positive number other than 1 (e.g. 2 for bits), or None for "
        f"nats; got {_describe(base)}."
    )


def check_beta(beta: Any) -> float:
    """The V-measure weight beta as a float, refusing negatives, NaN and non-numbers."""
    if isinstance(beta, (int, float, np.integer, np.floating)) and not isinstance(
        beta, (bool, np.bool_)
    ):
        value = float(beta)
        if math.isfinite(value) and value >= 0:
            return value
    raise InvalidInputError(f"`beta` must be a finite number >= 0; got {_describe(beta)}.")


#: The largest N of the library (int64 counts): beyond it a summary is refused.
MAX_N = 2**63 - 1


def check_count(value: Any, name: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as a Python int in ``minimum..maximum``; integral floats are accepted."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not (
        isinstance(value, numbers.Integral) or (math.isfinite(value) and float(value).is_integer())
    ):
        raise InvalidInputError(f"{_arg(name)} must be an integer >= {minimum}; got {_describe(value)}.")
    result = int(value)
    if result < minimum:
        raise InvalidInputError(f"{_arg(name)} must be an integer >= {minimum}; got {result}.")
    if maximum is not None and result > maximum:
        limit = "2**63 - 1" if maximum == MAX_N else str(maximum)
        raise InvalidInputError(
            f"{_arg(name)} must be an integer between {minimum} and {limit}; got "
            f"{_describe(result)}."
        )
    return result


# ----------------------------------------------------------------------------- labels
# Every labels-taking function reads through validate_clusterings (two) or check_labels
# (one): labels are encoded by hashing (each keeps its identity), keyed inputs aligned by key.

# DLPack device types (dlpack.h): host memory, and where labels must be moved from.
_DLPACK_CPU, _DLPACK_CUDA_HOST = 1, 3
_DLPACK_DEVICES = {2: "a CUDA GPU", 4: "an OpenCL device", 7: "a Vulkan device",
                   8: "a Metal GPU", 10: "a ROCm GPU", 13: "CUDA managed memory",
                   14: "a oneAPI device"}  # fmt: skip

# Items of a list of communities (an iterable of collections of elements).
_COMMUNITY_TYPES = (set, frozenset, list, range)


@dataclass(frozen=True)
class UnassignedReport:
    """What the unassigned-elements policy did to two clusterings.

    Unassigned elements are those with a missing label (``None``, NaN,
    ``pd.NA``, ``NaT``, ``Decimal`` NaNs), a label in ``unassigned_label``, or, for
    element-keyed inputs, no label at all in one of the two.

    Attributes
    ----------
    policy : {"raise", "drop", "singletons", "cluster"}
        The ``unassigned`` argument.
    n_unassigned_true, n_unassigned_pred : int
        Unassigned elements of ``labels_true`` and of ``labels_pred``.
    n_dropped : int
        Elements left out (``"drop"``: unassigned in either clustering).
    n_reassigned : int
        Elements given a cluster (``"singletons"`` or ``"cluster"``),
        counted once per clustering in which they were unassigned.

    Examples
    --------
    >>> from chanceclust import compare
    >>> compare([0, 0, 1, 1, 2], [0, 0, 1, -1, 2], unassigned_label=-1,
    ...         unassigned="drop").unassigned
    UnassignedReport(policy='drop', n_unassigned_true=0, n_unassigned_pred=1, n_dropped=1, n_reassigned=0)
    """

    policy: str = "raise"
    n_unassigned_true: int = 0
    n_unassigned_pred: int = 0
    n_dropped: int = 0
    n_reassigned: int = 0

    def describe(self, first: str = "labels_true", second: str = "labels_pred") -> str:
        """One line for humans: what happened to the unassigned elements ('' if none)."""
        if self.n_unassigned_true == self.n_unassigned_pred == 0:
            return ""
        where = f"{self.n_unassigned_true} in {first}, {self.n_unassigned_pred} in {second}"
        policy = check_unassigned(self.policy)
        moved = self.n_dropped if policy.drops else self.n_reassigned
        return f"{moved} unassigned element(s) {policy.effect} ({where})"


@dataclass(frozen=True)
class Clusterings:
    """Two validated clusterings: integer codes 0..K-1 on the same elements, and the report."""

    codes_true: NDArray[np.integer]
    k_true: int
    codes_pred: NDArray[np.integer]
    k_pred: int
    report: UnassignedReport
    values_true: list[Any] | None = None  # the label of each code (keep_values)
    values_pred: list[Any] | None = None


@dataclass(frozen=True)
class _Side:
    """One labeling read: codes (-1 = unassigned), K, and the element keys if keyed."""

    codes: NDArray[np.integer]
    k: int
    n_unassigned: int
    keys: Any = None  # None: positional; a list (mapping, communities) or a pandas Index
    series: bool = False  # a Series (or named igraph vertices): keyed only when paired
    values: list[Any] | None = None  # the label of each code, when asked for


@dataclass(frozen=True)
class Unassigned:
    """The unassigned-elements policy (the ``unassigned`` argument), parsed once by
    :func:`check_unassigned`: every reader applies it through these members, never by name.

    ``refuses`` ('raise'): an error naming the first unassigned element; ``drops`` ('drop'):
    left out of both clusterings; otherwise re-assigned, each element its own new cluster
    (``singletons``) or those of a side one new cluster ('cluster'). ``effect`` says what it
    did, in :meth:`UnassignedReport.describe`.
    """

    name: str
    effect: str
    refuses: bool = False
    drops: bool = False
    singletons: bool = False

    @property
    def reassigns(self) -> bool:
        """True when unassigned elements get new clusters ('singletons', 'cluster')."""
        return not (self.refuses or self.drops)

    def added_clusters(self, n_unassigned: int) -> int:
        """Codes at most added after a side's K for ``n_unassigned`` elements."""
        if not self.reassigns:
            return 0
        return n_unassigned if self.singletons else 1

    def new_codes(self, k: int, positions: NDArray[np.integer]) -> Any:
        """The codes of the unassigned elements at ``positions`` (0, 1, ... among a side's
        unassigned elements, or any distinct numbers below :meth:`added_clusters`)."""
        return k + positions if self.singletons else k

    def reassign(self, codes: NDArray[np.integer], k: int,
                 n_unassigned: int) -> tuple[NDArray[np.integer], int, int]:  # fmt: skip
        """(codes, K, re-assigned count) of one side whose codes < 0 are unassigned."""
        if not n_unassigned or not self.reassigns:
            return codes, k, 0
        mask = codes < 0
        xp = namespace(codes)
        if xp is not None:  # on the codes' device: position among the unassigned by a scan
            positions = xp.cumulative_sum(xp.astype(mask, codes.dtype)) - 1
            new = self.new_codes(k, positions)
            return (xp.where(mask, new, codes), k + self.added_clusters(n_unassigned),
                    n_unassigned)  # fmt: skip
        codes = codes.copy()
        codes[mask] = self.new_codes(k, np.arange(n_unassigned, dtype=codes.dtype))
        return codes, k + self.added_clusters(n_unassigned), n_unassigned

    def apply(
        self,
        codes_true: NDArray[np.integer],
        k_true: int,
        codes_pred: NDArray[np.integer],
        k_pred: int,
        names: Sequence[str] = ("labels_true", "labels_pred"),
        values: tuple[list[Any] | None, list[Any] | None] = (None, None),
        empty_ok: bool = False,
    ) -> Clusterings:
        """The policy (not 'raise') on two aligned code arrays: the single calls and every
        pair of :func:`chanceclust.pairwise` go through here.

        Codes < 0 are unassigned; -2 marks an element a keyed clustering does not name, and
        an element that neither of the two names (it came from a third clustering of
        :func:`validate_many`) is not one of theirs. ``empty_ok``: 'drop' may leave no
        element (a chunk of a clustering, whose whole is checked when merged).
        """
        codes_true, codes_pred = same_place(codes_true, codes_pred)
        if namespace(codes_true) is None and codes_true.size and (
            codes_true.min() == -2 and codes_pred.min() == -2
        ):  # (keyed clusterings are read on the host)
            ours = (codes_true != -2) | (codes_pred != -2)
            codes_true, codes_pred = codes_true[ours], codes_pred[ours]
        missing_true, missing_pred = codes_true < 0, codes_pred < 0
        n_true, n_pred = _count_true(missing_true), _count_true(missing_pred)
        if not n_true and not n_pred:
            return Clusterings(codes_true, k_true, codes_pred, k_pred,
                               UnassignedReport(self.name), *values)  # fmt: skip
        if self.drops:
            keep = ~(missing_true | missing_pred)
            size = int(codes_true.shape[0])
            kept = _count_true(keep)
            if size and not kept and not empty_ok:
                raise nothing_left(size, names)
            codes_true, k_true, values_true = _compact(codes_true[keep], k_true, values[0])
            codes_pred, k_pred, values_pred = _compact(codes_pred[keep], k_pred, values[1])
            dropped = size - kept
            report = UnassignedReport(self.name, n_true, n_pred, dropped, 0)
            return Clusterings(codes_true, k_true, codes_pred, k_pred, report, values_true,
                               values_pred)  # fmt: skip
        codes_true, k_true, moved_true = self.reassign(codes_true, k_true, n_true)
        codes_pred, k_pred, moved_pred = self.reassign(codes_pred, k_pred, n_pred)
        report = UnassignedReport(self.name, n_true, n_pred, 0, moved_true + moved_pred)
        return Clusterings(codes_true, k_true, codes_pred, k_pred, report)

    def check_chunk(self) -> None:
        """Refuse a policy that needs the whole clustering for one chunk's table (a
        re-assigned element's new cluster would differ in another chunk's table)."""
        if self.reassigns:
            raise InvalidInputError(
                f"`unassigned`={self.name!r} needs the whole clustering, not a chunk: an "
                "unassigned element's new cluster would not be the same in the tables of other "
                "chunks; give partial_table unassigned='drop' (or 'raise'), or apply "
                f"{self.name!r} to the whole labels first."
            )


#: The policies by the names users type.
POLICIES = {p.name: p for p in (
    Unassigned("raise", "refused", refuses=True),
    Unassigned("drop", "dropped", drops=True),
    Unassigned("singletons", "re-assigned, each its own cluster", singletons=True),
    Unassigned("cluster", "re-assigned, one cluster per side"),
)}  # fmt: skip
UNASSIGNED_POLICIES = tuple(POLICIES)
RAISE = POLICIES["raise"]


def check_unassigned(unassigned: Any) -> Unassigned:
    """The unassigned-elements policy named ``unassigned`` (or given as a value), else raise."""
    if isinstance(unassigned, Unassigned):
        return unassigned
    return POLICIES[check_choice(unassigned, "unassigned", UNASSIGNED_POLICIES)]


def check_unassigned_label(unassigned_label: Any) -> frozenset[Any]:
    """The set of labels that mark an element as unassigned (empty for None).

    A str, bytes or other hashable scalar is one label; a list, tuple, set or
    array is a collection of labels (wrap a tuple label in a list).
    """
    if unassigned_label is None:
        return frozenset()
    if isinstance(unassigned_label, (str, bytes)) or not isinstance(
        unassigned_label, (Collection, np.ndarray)
    ):
        values: list[Any] = [unassigned_label]
    elif isinstance(unassigned_label, Mapping):
        raise InvalidInputError(
            "`unassigned_label` must be a label or a collection of labels; "
            f"got a mapping {_describe(unassigned_label)}."
        )
    elif isinstance(unassigned_label, np.ndarray):
        values = unassigned_label.ravel().tolist()
    else:
        values = list(unassigned_label)
    for value in values:
        if not isinstance(value, Hashable):
            raise InvalidInputError(
                f"`unassigned_label` must hold hashable labels; got {_describe(value)}."
            )
    return frozenset(values)


def _is_missing(value: Any) -> bool:
    """None, NaN (float, complex or Decimal, quiet or signaling), NaT (numpy or pandas), pd.NA."""
    if value is None:
        return True
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        return bool(value != value)  # noqa: PLR0124 - NaN is the only value unequal to itself
    if isinstance(value, decimal.Decimal):
        return value.is_nan()  # Decimal('sNaN') cannot even be compared or hashed
    if isinstance(value, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(value))
    pandas = sys.modules.get("pandas")  # pd.NA and pd.NaT exist only if pandas was imported
    return pandas is not None and (value is pandas.NA or value is pandas.NaT)


def _code_dtype(n: int) -> type:
    """int32 codes while they fit: half the memory of the label arrays' int64."""
    return np.int32 if n < 2**31 else np.int64


def _is_pandas(labels: Any, name: str) -> bool:
    return type(labels).__module__.split(".")[0] == "pandas" and type(labels).__name__ == name


def _check_container(labels: Any, name: str) -> None:
    """Refuse containers that have no element order or more than one label per element."""
    if isinstance(labels, (str, bytes)):
        raise InvalidInputError(
            f"`{name}` must be a 1-D sequence of hashable labels; got {_describe(labels)}."
        )
    if _is_pandas(labels, "DataFrame"):
        columns = ", ".join(repr(c) for c in list(labels.columns)[:5])
        raise InvalidInputTypeError(
            f"`{name}` is a pandas DataFrame (columns {columns}); pass the column that holds "
            "the labels, e.g. df['cluster']."
        )


def _as_label_array(labels: Any, name: str) -> np.ndarray | list[Any]:
    """The labels as a 1-D numpy array, or as a list of the user's very objects.

    Numeric lists become numeric arrays; any other sequence stays a list of
    the same objects, encoded by hashing (never numpy's fixed-width strings,
    which merge "a" with "a\\x00" and 1 with "1").
    """
    if _is_masked(labels):  # masked elements are missing labels
        return _masked(labels.data, np.ma.getmaskarray(labels))
    if hasattr(labels, "to_numpy") and not isinstance(labels, np.ndarray):  # pandas
        numpy_dtype = getattr(labels.dtype, "numpy_dtype", None)
        extension = not isinstance(labels.dtype, np.dtype)
        if extension and numpy_dtype is not None and numpy_dtype.kind in "biuf":
            # nullable Int64, boolean, Float64, int64[pyarrow]...: the values in their own
            # dtype and a mask (to_numpy() alone gives floats where NA is: 2**53 + 1 would
            # become 2**53, merging two clusters; to_numpy(na_value=) is ignored by pandas
            # 1.5's Arrow arrays, hence fillna)
            filled = labels.fillna(numpy_dtype.type(0))
            return _masked(filled.to_numpy(dtype=numpy_dtype), np.asarray(labels.isna()))
        labels = labels.to_numpy(dtype=object) if labels.dtype == object else labels.to_numpy()
    else:
        labels = _host_array(labels, name)  # tensors: their elements would hash apart
    if isinstance(labels, np.ndarray):
        array = labels
    else:
        if not hasattr(labels, "__len__") or not hasattr(labels, "__iter__"):
            raise InvalidInputError(
                f"`{name}` must be a 1-D sequence of hashable labels; got {_describe(labels)}."
            )
        values = labels if isinstance(labels, (list, tuple)) else list(labels)
        array = None
        if values and isinstance(values[0], numbers.Number) and not isinstance(values[0], complex):
            try:
                array = np.asarray(values)
            except (ValueError, TypeError, OverflowError):  # ragged, e.g. [1, (2, 3)]
                array = None
            if array is not None and (array.ndim != 1 or array.dtype.kind not in "biuf"):
                array = None  # mixed types: keep the objects themselves
            elif array is not None and _float_merges_integers(array, values):
                array = None  # ints beyond 2**53 among floats: float64 would merge them
        if array is None:
            return values if isinstance(values, list) else list(values)
    return _one_dimensional(array, name)


def _one_dimensional(array: np.ndarray, name: str) -> np.ndarray:
    """``array`` if it is 1-D; else the error naming ``name``."""
    if array.ndim != 1:
        raise InvalidInputError(
            f"`{name}` must be 1-D (one label per element); got an array of shape {array.shape}."
        )
    return array


def _is_masked(labels: Any) -> bool:
    """True for a numpy masked array; never imports numpy.ma (~20 ms at the first call of a
    process), which must already be loaded for a masked array to exist."""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(labels, ma.MaskedArray)


def _masked(data: np.ndarray, mask: NDArray[np.bool_]) -> np.ndarray | list[Any]:
    """Labels ``data`` with the elements of ``mask`` missing: the plain array where none is,
    a numpy masked array (read by :func:`_encode_array`) or, for objects, a list with None."""
    if data.ndim != 1 or not mask.any():
        return data
    if data.dtype.kind == "O":
        objects = data.copy()
        objects[mask] = None
        return objects.tolist()
    return np.ma.MaskedArray(data, mask=mask)


def _float_merges_integers(array: np.ndarray, values: Sequence[Any]) -> bool:
    """True if a float64 array made of ``values`` rounded one of its integers (beyond 2**53)."""
    if array.dtype.kind != "f" or not np.any(np.abs(array) >= 2.0**53):
        return False
    return any(
        isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))
        and abs(int(v)) > 2**53
        for v in values
    )


def _warn_continuous(name: str, example: float) -> None:
    warnings.warn(
        f"`{name}` holds non-integral float labels (e.g. {example!r}): this looks like a "
        "continuous variable, not cluster labels; every distinct value is taken as a cluster.",
        UserWarning,
        stacklevel=4,
    )


def _encode_objects(
    values: list[Any], name: str, marks: frozenset[Any]
) -> tuple[NDArray[np.integer], int, int]:
    """Codes of arbitrary hashable labels by hashing: (codes with -1 = unassigned, K, #unassigned).

    Codes follow the sorted labels when they are all strings, all bytes or all
    real numbers (a total order), else the order of first appearance; labels
    are never compared with ``<`` otherwise (frozensets are only partially ordered).
    """
    dtype = _code_dtype(len(values))
    try:
        index = {label: i for i, label in enumerate(dict.fromkeys(values))}
    except TypeError:
        for position, value in enumerate(values):
            if isinstance(value, decimal.Decimal) and value.is_snan():
                # a signaling NaN refuses to be hashed: it is missing, as None is
                return _encode_objects(
                    [None if _is_missing(v) else v for v in values], name, marks
                )
            if not isinstance(value, Hashable):
                raise InvalidInputError(
                    f"`{name}` must hold hashable labels; got {type(value).__name__} "
                    f"at position {position}."
                ) from None
        raise  # pragma: no cover - an unhashable value that claims to be Hashable
    uniques = list(index)
    bad = [_is_missing(u) or u in marks for u in uniques]
    kept = [u for u, b in zip(uniques, bad, strict=True) if not b]
    order = list(range(len(kept)))
    if kept:
        if all(isinstance(u, str) for u in kept) or all(isinstance(u, bytes) for u in kept):
            order = sorted(order, key=kept.__getitem__)
        elif all(isinstance(u, numbers.Real) for u in kept):
            order = sorted(order, key=kept.__getitem__)
            fraction = next(
                (u for u in kept if isinstance(u, float) and not u.is_integer()), None
            )
            if fraction is not None:
                _warn_continuous(name, fraction)
    rank = np.empty(len(kept), dtype=np.int64)
    rank[order] = np.arange(len(kept))
    lookup = np.full(len(uniques), -1, dtype=dtype)
    lookup[~np.asarray(bad, dtype=bool)] = rank
    raw = np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values))
    codes = lookup[raw]
    n_bad = int(np.count_nonzero(codes < 0)) if any(bad) else 0
    return codes, len(kept), n_bad


_ENCODE_CHUNK = 1 << 22  # labels shifted at a time by the dense integer encoding
#: Threads flag the labels present in arrays of their own (or-ed after) up to this many
#: distinct values (a cheap array per chunk), in one shared array beyond (sparse stores).
_OWN_FLAGS_MAX = 1 << 19


def _shifted(values: np.ndarray, low: int) -> np.ndarray:
    """Integer labels minus their minimum ``low``: indexes from 0, exact for any dtype (in
    int64, or uint64 for uint64 labels: a narrow dtype would wrap, e.g. int8 28 - -100)."""
    if values.dtype == np.uint64:  # shifted below 4 N + 1024: int64 indexes (numpy < 2's
        return (values - np.uint64(low)).astype(np.int64)  # take refuses uint64 ones)
    if not low:
        return values
    return np.subtract(values, np.int64(low), dtype=np.int64)  # one pass, cast in the loop


def _chunked(function: Any, size: int, threads: int) -> list[Any]:
    """``function(start)`` for each chunk start of ``size`` elements (chunks of _ENCODE_CHUNK),
    in ``threads`` threads (the numpy kernels they call release the GIL), in chunk order."""
    starts = range(0, size, _ENCODE_CHUNK)
    threads = min(threads, len(starts))
    if threads < 2:
        return [function(start) for start in starts]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads, thread_name_prefix="chanceclust-encode") as pool:
        return list(pool.map(function, starts))


def _dense_codes_in_chunks(
    values: np.ndarray, base: int, present: NDArray[np.bool_], dtype: type, threads: int
) -> tuple[NDArray[np.integer], int]:
    """Codes and K of dense integer labels, in chunks by ``threads`` threads: the same codes
    for any number of threads (the scatter of the labels present and the gather of their
    ranks are exact, whatever thread does them). ``present`` (all False) gets the flags."""
    if threads > 1 and present.size <= _OWN_FLAGS_MAX:
        # few distinct values: each chunk flags its own array (threads storing into
        # one small shared array keep taking its cache lines from each other: on 16
        # cores that cost 10x the CPU), then the flags are or-ed (exact, any order)
        def flags(start: int) -> NDArray[np.bool_]:
            own = np.zeros(present.size, dtype=bool)
            own[_shifted(values[start : start + _ENCODE_CHUNK], base)] = True
            return own

        for own in _chunked(flags, values.size, threads):
            present |= own
    else:
        def scatter(start: int) -> None:  # threads may set one flag at once: both True
            present[_shifted(values[start : start + _ENCODE_CHUNK], base)] = True

        _chunked(scatter, values.size, threads)
    rank = np.cumsum(present, dtype=dtype) - 1
    codes, k = np.empty(values.size, dtype=dtype), int(rank[-1]) + 1

    def gather(start: int) -> None:  # disjoint slices of the codes
        part = values[start : start + _ENCODE_CHUNK]
        np.take(rank, _shifted(part, base), out=codes[start : start + part.size])

    _chunked(gather, values.size, threads)
    return codes, k


def _encode_sorted(
    array: np.ndarray, marks: frozenset[Any], missing: NDArray[np.bool_] | None,
    threads: int = 1,
) -> tuple[NDArray[np.integer], int, int]:  # fmt: skip
    """Codes of a numeric, string or datetime array (totally ordered): sorted label order.

    Dense integer labels are encoded in chunks by ``threads`` threads: the same codes for
    any number of threads (each chunk's min and max, the scatter of the labels present and
    the gather of their ranks are exact, whatever thread does them).
    """
    dtype = _code_dtype(array.size)
    values = array if missing is None else array[~missing]
    if values.dtype.kind == "b":
        values = values.view(np.uint8)
    uniques = codes = None
    if values.dtype.kind in "iu" and values.size:
        if threads < 2 or values.size <= _ENCODE_CHUNK:
            low, high = int(values.min()), int(values.max())
        else:
            ends = _chunked(lambda start: (values[start : start + _ENCODE_CHUNK].min(),
                                           values[start : start + _ENCODE_CHUNK].max()),
                            values.size, threads)  # fmt: skip
            low, high = min(int(e[0]) for e in ends), max(int(e[1]) for e in ends)
        if high - low <= 4 * values.size + 1024:  # dense integer labels: O(N), no sort
            # labels from a small non-negative minimum (e.g. 1-based) index the flags unshifted
            base = 0 if 0 <= low <= high - low + 1024 else low
            present = np.zeros(high - base + 1, dtype=bool)
            if values.size <= _ENCODE_CHUNK:  # one chunk: no chunk or thread machinery
                shifted = _shifted(values, base)
                present[shifted] = True
                rank = present.cumsum(dtype=dtype) - 1  # (methods: no dispatch wrapper)
                codes, k = rank.take(shifted), int(rank[-1]) + 1  # take: faster than []
            else:  # in chunks: never a shifted int64 copy of all the labels (memory: #23)
                codes, k = _dense_codes_in_chunks(values, base, present, dtype, threads)
            if marks:  # the labels present, as Python ints (no overflow near 2**64)
                uniques = np.array([int(i) + base for i in np.flatnonzero(present)], dtype=object)
    if codes is None:
        uniques, codes = np.unique(values, return_inverse=True)
        codes, k = codes.astype(dtype).ravel(), len(uniques)
    if marks and k:
        bad = np.fromiter((u in marks for u in uniques.tolist()), dtype=bool, count=k)
        if bad.any():
            lookup = np.cumsum(~bad, dtype=dtype) - 1
            lookup[bad] = -1
            codes, k = lookup[codes], int(k - bad.sum())
    if missing is not None:
        full = np.full(array.size, -1, dtype=dtype)
        full[~missing] = codes
        codes = full
    n_bad = int(np.count_nonzero(codes < 0)) if (marks or missing is not None) else 0
    return codes, k, n_bad


def _encode_array(
    array: np.ndarray | list[Any], name: str, marks: frozenset[Any], threads: int = 1
) -> tuple[NDArray[np.integer], int, int]:
    """(codes with -1 for unassigned elements, K, number of unassigned) of a 1-D array or list."""
    if isinstance(array, list):
        return _encode_objects(array, name, marks)
    missing = None
    if _is_masked(array):  # from _masked: its mask marks missing labels
        missing, array = np.ma.getmaskarray(array), array.data
    kind = array.dtype.kind
    if kind == "O":
        return _encode_objects(array.tolist(), name, marks)
    if kind not in "biufcUSMm":
        raise InvalidInputError(f"`{name}` must hold hashable labels; got dtype {array.dtype}.")
    if kind in "fc":
        missing = np.isnan(array) if missing is None else missing | np.isnan(array)
        if kind == "f":
            finite = array if not missing.any() else array[~missing]
            fractional = finite != np.floor(finite)
            if fractional.any():
                _warn_continuous(name, float(finite[np.argmax(fractional)]))
    elif kind in "Mm":
        missing = np.isnat(array) if missing is None else missing | np.isnat(array)
    if missing is not None and not missing.any():
        missing = None
    return _encode_sorted(array, marks, missing, threads)


def _categorical_codes(
    labels: Any, marks: frozenset[Any]
) -> tuple[NDArray[np.integer], int, int, list[Any]] | None:
    """Codes of a pandas Categorical or categorical Series (category order), else None.

    Also the label of each code: its category itself (an integer category stays an integer
    where missing values would turn the Categorical's array into floats)."""
    dtype = getattr(labels, "dtype", None)
    if dtype is None or getattr(dtype, "name", None) != "category":
        return None
    codes = np.asarray(labels.cat.codes if hasattr(labels, "cat") else labels.codes)
    categories = list(dtype.categories)
    keep = np.array([c not in marks for c in categories], dtype=bool)
    present = np.zeros(len(categories) + 1, dtype=bool)  # last slot: missing (code -1)
    present[codes] = True
    used = present[:-1] & keep  # unused categories are not clusters
    lookup = np.full(len(categories) + 1, -1, dtype=_code_dtype(codes.size))
    lookup[:-1][used] = np.arange(int(used.sum()))
    out = lookup[codes]
    n_bad = int(np.count_nonzero(out < 0)) if (present[-1] or not keep.all()) else 0
    return out, int(used.sum()), n_bad, [categories[i] for i in np.flatnonzero(used).tolist()]


def _communities(groups: Any, name: str) -> tuple[list[Any], list[int]]:
    """Element keys and community numbers of a partition given as communities."""
    elements: list[Any] = []
    labels: list[int] = []
    seen: dict[Any, int] = {}
    for k, group in enumerate(groups):
        if isinstance(group, np.ndarray):
            group = group.tolist()
        if not isinstance(group, _COMMUNITY_TYPES):
            raise InvalidInputError(
                f"`{name}` mixes communities (collections of elements) with "
                f"{type(group).__name__} item {_describe(group)} at position {k}."
            )
        for element in group:
            if not isinstance(element, Hashable):
                raise InvalidInputError(
                    f"`{name}` community {k} holds an unhashable element {_describe(element)}."
                )
            first = seen.setdefault(element, k)
            if first == k and len(seen) == len(elements):
                continue  # listed twice in the same community
            if first != k:
                raise InvalidInputError(
                    f"`{name}` is an overlapping clustering: element {element!r} is in "
                    f"communities {first} and {k}; each element must be in exactly one cluster."
                )
            elements.append(element)
            labels.append(k)
    return elements, labels


def _looks_like_communities(labels: Any) -> bool:
    """True for an iterable of collections of elements (networkx, cdlib, igraph styles).

    Decided from the first item, so long label lists cost nothing: a list whose
    first item is a set, list or range is a list of communities. Frozensets
    are also hashable labels: a sequence of frozensets is read as communities
    unless one repeats (a repeated community would be an overlap, a repeated
    label is a cluster).
    """
    if (
        isinstance(labels, np.ndarray)
        or hasattr(labels, "to_numpy")  # pandas: labels
        or not isinstance(labels, Collection)
        or len(labels) == 0
    ):
        return False
    first = next(iter(labels))
    if isinstance(first, np.ndarray):
        return first.ndim == 1 and not isinstance(labels, np.ndarray)
    if not isinstance(first, _COMMUNITY_TYPES):
        return False
    if isinstance(first, frozenset):
        items = list(labels)
        return all(isinstance(g, frozenset) for g in items) and len(set(items)) == len(items)
    return True


def _refuse_device(labels: Any, name: str) -> None:
    """Refuse an array in device memory that no array-API namespace reads where it is (a
    PyTorch CUDA tensor without array-api-compat, say) with the ways to read it."""
    where = None
    if hasattr(labels, "__cuda_array_interface__"):
        where = "a CUDA GPU"
    else:
        device = getattr(labels, "__dlpack_device__", None)
        if callable(device):
            try:
                kind = int(device()[0])
            except Exception:  # noqa: BLE001 - a broken protocol: let the conversion decide
                kind = _DLPACK_CPU
            if kind not in (_DLPACK_CPU, _DLPACK_CUDA_HOST):
                where = _DLPACK_DEVICES.get(kind, f"a device of DLPack type {kind}")
    if where is not None:
        raise InvalidInputTypeError(
            f"`{name}` is a {type(labels).__name__} in the memory of {where}, without a "
            "namespace of the Python array API standard (2023.12: unique_inverse, "
            "unique_counts) to count it there: install array-api-compat (PyTorch, CuPy and "
            "JAX arrays are then counted on their device), or move it to host memory, e.g. "
            "tensor.cpu() (PyTorch) or x.get() (CuPy)."
        )


def _host_array(labels: Any, name: str) -> Any:
    """Another library's array as a numpy array through its protocols; other inputs unchanged.

    DLPack (no copy), ``__array__``/``__array_interface__`` and the buffer protocol read a
    tensor at numpy speed (iterating one makes an object per element); arrays in device
    memory are refused with the call that moves them to the host.
    """
    module = type(labels).__module__.split(".")[0]
    if isinstance(labels, np.ndarray) or module == "pandas":
        return labels
    if module in ("pyarrow", "polars") and hasattr(labels, "is_null"):
        # host memory, by their own conversion (pyarrow's DLPack export warns that its
        # unversioned capsule is deprecated, and has none for strings)
        masked = _nulls_masked(labels, module)
        return masked if masked is not None else _own_numpy(labels, module)
    _refuse_device(labels, name)
    if callable(getattr(labels, "__dlpack__", None)) and callable(
        getattr(labels, "__dlpack_device__", None)
    ):
        try:
            return np.from_dlpack(labels)
        except (TypeError, ValueError, BufferError, RuntimeError):
            pass  # e.g. a dtype numpy lacks: __array__, if there is one, decides
    if (
        hasattr(labels, "__array__")
        or hasattr(labels, "__array_interface__")
        or isinstance(labels, (memoryview, bytearray, _pyarray.array))
    ):
        return np.asarray(labels)
    return labels


def _own_numpy(labels: Any, module: str) -> np.ndarray:
    """A pyarrow or polars array as numpy by its own conversion: strings as Python objects
    (polars' ``__array__`` gives fixed-width strings, which drop trailing NULs: "a" and
    "a\x00" would be one cluster)."""
    return labels.to_numpy() if module == "polars" else np.asarray(labels)


def _nulls_masked(labels: Any, module: str) -> Any:
    """A pyarrow Array or ChunkedArray, or a polars Series, of numbers or booleans with nulls:
    the values in their own dtype with the nulls masked (numpy's conversion gives floats where
    a null is: 2**53 + 1 would become 2**53, merging two clusters); other types with nulls
    as numpy reads them (None or NaT where the nulls are). None without nulls."""
    arrow = module == "pyarrow"
    if not (labels.null_count if arrow else labels.null_count()):
        return None
    kind = str(labels.type if arrow else labels.dtype).lower()
    if kind in ("bool", "boolean"):
        fill: Any = False
    elif kind.startswith(("int", "uint", "float", "double", "halffloat")):
        fill = 0
    else:
        return _own_numpy(labels, module)
    if arrow and hasattr(labels, "combine_chunks"):  # ChunkedArray: pyarrow 10's to_numpy
        labels = labels.combine_chunks()  # takes no zero_copy_only; one Array does
    options = {"zero_copy_only": False} if arrow else {}
    return _masked(labels.fill_null(fill).to_numpy(**options), labels.is_null().to_numpy(**options))


def _graph_names(clustering: Any) -> list[Any] | None:
    """The vertex names of an igraph VertexClustering's graph (``name``, else ``_nx_name``)."""
    graph = getattr(clustering, "graph", None)
    vertices = getattr(graph, "vs", None)
    if vertices is None or not callable(getattr(vertices, "attributes", None)):
        return None
    attributes = vertices.attributes()
    for attribute in ("name", "_nx_name"):  # _nx_name: igraph.Graph.from_networkx's nodes
        if attribute in attributes:
            return list(vertices[attribute])
    return None


def _frozen(groups: Any) -> list[frozenset[Any]]:
    """Each set of ``groups`` frozen, once per set object (members usually share one)."""
    frozen: dict[int, frozenset[Any]] = {}
    return [frozen.get(id(g)) or frozen.setdefault(id(g), frozenset(g)) for g in groups]


def _community_sets(labels: Mapping[Any, Any], name: str) -> list[Any] | None:
    """``{element: its community as a set}`` (networkx's LFR benchmark) as labels, else None.

    Recognised when every key belongs to its own set and the sets hold no other
    elements than the keys; each element's label is its set. The sets must form a
    partition: an element whose set differs from that of a member is an overlap.
    """
    if not all(isinstance(group, (set, frozenset)) for group in labels.values()):
        return None
    values = _frozen(labels.values())
    if not all(element in label for element, label in zip(labels, values, strict=True)):
        return None
    distinct = set(values)
    if sum(len(g) for g in distinct) != len(values) or len(set().union(*distinct)) != len(values):
        for element, label in zip(labels, values, strict=True):
            for member in label:
                other = labels.get(member)
                if other is None:
                    return None  # a member that is not a key: {cluster: members}, not LFR's
                if frozenset(other) != label:
                    raise InvalidInputError(
                        f"`{name}` is an overlapping clustering: element {member!r} is in the "
                        f"community of {element!r} ({_describe(set(label))}) but its own is "
                        f"{_describe(set(other))}; each element must be in exactly one cluster."
                    )
    return values


def _community_of_each(labels: Any) -> Any:
    """A list of each element's community as a set (networkx's LFR benchmark,
    ``[G.nodes[v]["community"] for v in G]``) as labels: each element's label is its set,
    frozen. Read so only where it cannot be a list of communities -- a set repeats, which as
    communities would be an overlap -- and each distinct set is listed once per member,
    the sets disjoint; anything else is returned as it is (read as communities)."""
    if not isinstance(labels, (list, tuple)) or not labels or not isinstance(labels[0], set):
        return labels
    if not all(isinstance(group, set) for group in labels):
        return labels
    values = _frozen(labels)
    sizes: dict[frozenset[Any], int] = {}
    for label in values:
        sizes[label] = sizes.get(label, 0) + 1
    if len(sizes) == len(values) or any(len(g) != m for g, m in sizes.items()):
        return labels
    if len(set().union(*sizes)) != len(values):  # two communities share an element
        return labels
    return values


def namespace(x: Any) -> Any:
    """The array-API namespace of a non-numpy array (array-api-compat's when installed, which
    also knows PyTorch tensors), else None (numpy arrays and every other input are read on
    the host)."""
    if isinstance(x, np.ndarray):
        return None
    try:  # (PyTorch's own namespace has none)
        import array_api_compat as compat
    except ImportError:
        compat = None
    known = compat is not None and (compat.is_torch_array(x) or compat.is_cupy_array(x)
                                    or compat.is_jax_array(x))  # fmt: skip
    if not known and not hasattr(x, "__array_namespace__"):
        return None
    return x.__array_namespace__() if compat is None else compat.array_namespace(x)


def to_host(x: Any) -> NDArray[Any]:
    """A small array of another library (a table's cells, a side's K labels) in host memory:
    the one place where data leaves a device (DLPack with a copy to the CPU, else the
    library's own call)."""
    xp = namespace(x)
    if xp is not None and x.dtype == xp.bool:  # numpy < 1.25 imports no boolean by DLPack
        return to_host(xp.astype(x, xp.uint8)).astype(np.bool_)
    moves = (lambda: np.from_dlpack(x, device="cpu", copy=True), lambda: np.asarray(x.get()),
             lambda: np.asarray(x.cpu()), lambda: np.from_dlpack(x), lambda: np.asarray(x))
    # (DLPack's copy to the CPU needs numpy >= 2.1; .get(): CuPy; .cpu(): PyTorch; the last
    # two: arrays already in host memory)
    for move in moves:
        try:
            out = move()
        except (AttributeError, TypeError, ValueError, BufferError, RuntimeError):
            continue
        # numpy < 2.1 imports DLPack without a copy, read-only: the table path writes in place
        return out if out.flags.writeable else out.copy()
    raise InternalError(f"cannot copy a {type(x).__name__} to host memory")


def take(lookup: NDArray[Any], codes: Any) -> Any:
    """``lookup[codes]`` where the codes are (a host lookup table of K entries is copied to
    the codes' device)."""
    xp = namespace(codes)
    if xp is None:
        return lookup[codes]
    return xp.take(xp.asarray(lookup, device=codes.device), codes)


def device_bincount(xp: Any, keys: Any, n_keys: int) -> Any:
    """``bincount(keys, minlength=n_keys)`` on the keys' device where the library has one
    (CuPy, PyTorch, JAX: not in the array API standard), else None."""
    bincount = getattr(xp, "bincount", None)
    if bincount is None:
        return None
    try:
        return bincount(keys, minlength=n_keys)
    except (TypeError, ValueError, RuntimeError, NotImplementedError):
        return None  # a bincount of another signature: the standard's unique_counts


def same_place(codes_true: Any, codes_pred: Any) -> tuple[Any, Any]:
    """Two code arrays in one library: host codes join a device side's (one copy of the
    host's codes, which were in host memory anyway)."""
    xp_true, xp_pred = namespace(codes_true), namespace(codes_pred)
    if (xp_true is None) == (xp_pred is None):
        return codes_true, codes_pred
    if xp_true is None:
        return xp_pred.asarray(codes_true, device=codes_pred.device), codes_pred
    return codes_true, xp_true.asarray(codes_pred, device=codes_true.device)


def _count_true(mask: Any) -> int:
    """The number of True in a boolean array, where it is."""
    xp = namespace(mask)
    if xp is None:
        return int(np.count_nonzero(mask))
    return int(xp.sum(xp.astype(mask, xp.int64)))


def _first_true(xp: Any, mask: Any) -> int:
    return int(xp.argmax(xp.astype(mask, xp.int8)))


def _device_dense_codes(xp: Any, labels: Any) -> tuple[Any, Any] | None:
    """(distinct labels, codes) of integer labels in a compact range, by the library's
    bincount (:func:`device_bincount`) as :func:`_encode_sorted` encodes dense labels: flags
    of the labels present, their ranks taken. None where that does not apply."""
    n = labels.shape[0]
    if not n or not hasattr(xp, "bincount") or not (
        xp.isdtype(labels.dtype, "signed integer") or xp.isdtype(labels.dtype, "bool")
        or xp.iinfo(labels.dtype).bits < 64  # (uint64 labels may not fit int64 indexes)
    ):  # fmt: skip
        return None
    wide = xp.astype(labels, xp.int64)
    low, high = int(xp.min(wide)), int(xp.max(wide))
    if high - low > 4 * n + 1024:  # the numpy path's rule for dense labels
        return None
    shifted = wide - low if low else wide
    del wide
    tally = device_bincount(xp, shifted, high - low + 1)
    if tally is None:
        return None
    present = tally > 0
    rank = xp.cumulative_sum(xp.astype(present, xp.int64)) - 1
    distinct = xp.astype(xp.nonzero(present)[0] + low, labels.dtype)
    return distinct, xp.take(rank, shifted)


def _device_side(labels: Any, name: str, marks: frozenset[Any], keep_values: bool
                 ) -> _Side | None:  # fmt: skip
    """Integer, boolean or real float labels of another array library, encoded by its own
    namespace where they are (the standard's unique_inverse), by the rules of the numpy path
    (:func:`_encode_array`): NaN is missing, non-integral floats warn, labels in ``marks``
    are unassigned; codes in sorted label order, -1 unassigned. Only the K distinct labels
    (and a few scalars) cross to the host. None for any other input."""
    xp = namespace(labels)
    if xp is None or not all(hasattr(xp, f) for f in ("isdtype", "unique_inverse", "unique_counts")):
        return None  # a namespace older than the 2023.12 standard: read on the host, as before
    floating = xp.isdtype(labels.dtype, "real floating")
    if not floating and not xp.isdtype(labels.dtype, ("integral", "bool")):
        return None  # complex: read on the host
    if labels.ndim != 1:
        raise InvalidInputError(
            f"`{name}` must be 1-D (one label per element); got an array of shape "
            f"{tuple(labels.shape)}."
        )
    missing = None
    if floating:
        nan = xp.isnan(labels)
        n_nan = _count_true(nan)
        if n_nan == labels.shape[0] and n_nan:  # nothing but missing labels
            codes = xp.full(labels.shape, -1, dtype=xp.int64, device=labels.device)
            return _Side(codes, 0, n_nan, values=[] if keep_values else None)
        if n_nan:  # NaN takes a label that is there: the distinct labels stay the same
            missing = nan
            labels = xp.where(nan, labels[_first_true(xp, ~nan)], labels)
        fractional = labels != xp.floor(labels)
        if bool(xp.any(fractional)):
            _warn_continuous(name, float(labels[_first_true(xp, fractional)]))
    dense = None if floating else _device_dense_codes(xp, labels)
    distinct, codes = xp.unique_inverse(labels) if dense is None else dense
    values = to_host(distinct)
    order = np.argsort(values, kind="stable")
    if not bool(np.all(order == np.arange(order.size))):  # the standard leaves it unspecified
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size, dtype=np.int64)
        codes, values = take(rank, codes), values[order]
    k = int(values.size)
    if marks and k:  # the rule of _encode_sorted, on the K distinct labels
        bad = np.fromiter((u in marks for u in values.tolist()), dtype=bool, count=k)
        if bad.any():
            lookup = np.cumsum(~bad, dtype=np.int64) - 1
            lookup[bad] = -1
            codes, k, values = take(lookup, codes), int(k - bad.sum()), values[~bad]
    if missing is not None:
        codes = xp.where(missing, xp.asarray(-1, dtype=codes.dtype, device=codes.device), codes)
    n_bad = _count_true(codes < 0) if (marks or missing is not None) else 0
    return _Side(codes, k, n_bad, values=list(values) if keep_values else None)


def _on_host(side: _Side) -> _Side:
    """A side with its codes in host memory (for callers that draw or index them there)."""
    if namespace(side.codes) is None:
        return side
    return replace(side, codes=to_host(side.codes).astype(_code_dtype(side.codes.shape[0])))


def _read_side(
    labels: Any, name: str, marks: frozenset[Any], *, keep_values: bool = False,
    threads: int = 1, on_device: bool = False,
) -> _Side:  # fmt: skip
    """Read one clustering in any accepted container (see :func:`validate_clusterings`).

    Labels of another array library are encoded where they live (:func:`_device_side`);
    ``on_device``: their codes stay there, for callers that count them by
    :func:`chanceclust._tables.count_cells` (else they are copied to the host).
    """
    if type(labels) is np.ndarray:  # the common case: no other container's rule applies
        array: np.ndarray | list[Any] = _one_dimensional(labels, name)  # as _as_label_array
        codes, k, n_bad = _encode_array(array, name, marks, threads)
        return _Side(codes, k, n_bad,
                     values=_code_values(array, codes, k) if keep_values else None)  # fmt: skip
    side = _device_side(labels, name, marks, keep_values)
    if side is not None:
        return side if on_device else _on_host(side)
    _check_container(labels, name)
    labels = _host_array(labels, name)
    source: Any = None  # what the codes index, for keep_values
    if isinstance(labels, Mapping):
        values = _community_sets(labels, name)
        if values is None:
            values = list(labels.values())
            if values and isinstance(values[0], (set, list, np.ndarray)):  # {cluster: members}
                labels = values  # unhashable values cannot be labels: they are the communities
                values = None
        if values is not None:
            array = _as_label_array(values, name)
            codes, k, n_bad = _encode_array(array, name, marks)
            return _Side(codes, k, n_bad, list(labels.keys()),
                         values=_code_values(array, codes, k) if keep_values else None)  # fmt: skip
    # (a Series answers hasattr(s, "membership") by hashing its whole index: not asked)
    foreign = type(labels).__module__.split(".")[0] != "pandas"
    if foreign and hasattr(labels, "membership") and not hasattr(labels, "__array__"):  # igraph
        array = np.asarray(labels.membership, dtype=np.int64)
        codes, k, n_bad = _encode_array(array, name, marks)
        keys = _graph_names(labels)  # matched by vertex name where the graph names them
        return _Side(codes, k, n_bad, keys, series=keys is not None,
                     values=_code_values(array, codes, k) if keep_values else None)  # fmt: skip
    if foreign and hasattr(labels, "communities") and not isinstance(labels, Collection):  # cdlib
        labels = labels.communities
    if isinstance(labels, Iterator):  # e.g. networkx's asyn_lpa_communities: read it once
        labels = list(labels)
    if isinstance(labels, (set, frozenset)):
        if not labels or not all(isinstance(g, frozenset) for g in labels):
            raise InvalidInputTypeError(
                f"`{name}` is a set, which has no element order; pass a list or array of "
                "labels, or a list of communities."
            )
        labels = list(labels)
    labels = _community_of_each(labels)
    if _looks_like_communities(labels):
        keys, numbers_ = _communities(labels, name)
        array = np.asarray(numbers_, dtype=np.int64)
        codes, k, _ = _encode_array(array, name, frozenset())
        return _Side(codes, k, 0, keys,
                     values=_code_values(array, codes, k) if keep_values else None)  # fmt: skip
    encoded = _categorical_codes(labels, marks)
    if encoded is None:
        source = _as_label_array(labels, name)
        codes, k, n_bad = _encode_array(source, name, marks, threads)
        values = _code_values(source, codes, k) if keep_values else None
    else:
        codes, k, n_bad, categories = encoded
        values = categories if keep_values else None
    if _is_pandas(labels, "Series"):
        return _Side(codes, k, n_bad, labels.index, series=True, values=values)
    return _Side(codes, k, n_bad, values=values)


def _code_values(labels: Any, codes: NDArray[np.integer], k: int) -> list[Any]:
    """The label of each code 0..k-1 (the user's objects, from their first element)."""
    where = np.flatnonzero(codes >= 0)
    first = np.empty(k, dtype=np.int64)
    first[codes[where[::-1]]] = where[::-1]  # the last write wins: the first occurrence
    return [labels[i] for i in first.tolist()]


def _describe_keys(keys: Sequence[Any], k: int = 3) -> str:
    shown = ", ".join(repr(x) for x in list(keys[:k]))
    return shown + (", ..." if len(keys) > k else "")


def _is_index(keys: Any) -> bool:
    return _is_pandas(keys, "Index") or (
        type(keys).__module__.split(".")[0] == "pandas" and hasattr(keys, "get_indexer")
    )


def _same_keys(a: Any, b: Any) -> bool:
    if _is_index(a) and _is_index(b):
        return bool(a.equals(b))
    return list(a) == list(b)


def _check_unique_keys(side: _Side, name: str) -> None:
    """A Series index or graph's vertex names that repeat cannot match elements."""
    if not side.series:
        return
    keys = side.keys
    if _is_index(keys):
        if keys.is_unique:
            return
        duplicated = list(keys[keys.duplicated()].unique())
    else:
        if len(set(keys)) == len(keys):
            return
        seen: set[Any] = set()
        duplicated = [key for key in keys if key in seen or seen.add(key)]  # type: ignore[func-returns-value]
    what = "a Series with a duplicated index" if _is_index(keys) else "named by repeated names"
    raise InvalidInputError(
        f"`{name}` is {what} ({_describe_keys(duplicated)}); its labels cannot be matched "
        "to the other clusterings' elements by key."
    )


def _align(sides: list[_Side], names: Sequence[str]) -> list[_Side]:
    """Put every side on the union of the element keys (the first's order, then new keys).

    Code -2 marks an element a side does not name (-1: named, unassigned). pandas
    indexes are matched by pandas' get_indexer, other keys by one dict built at C
    speed (``dict.setdefault`` mapped over the keys).
    """
    if all(_is_index(side.keys) for side in sides):
        # One hash table, of the first index (as a reindex builds; get_indexer refuses it
        # if it repeats): a later index is checked for repeats through the positions it
        # maps to, not by a table of its own.
        union = sides[0].keys
        wheres = [np.arange(len(union), dtype=np.int64)]
        for side, name in zip(sides[1:], names[1:], strict=True):
            try:
                where = union.get_indexer(side.keys).astype(np.int64, copy=False)
            except Exception as exc:
                if type(exc).__name__ != "InvalidIndexError":  # pandas: a repeated key
                    raise
                _check_unique_keys(sides[0], names[0])  # raises, naming the repeated keys
                raise  # pragma: no cover - get_indexer refused a unique index
            new = where < 0
            found = where if not new.any() else where[~new]
            if found.size and np.bincount(found, minlength=len(union)).max() > 1:
                _check_unique_keys(side, name)  # raises, naming the repeated keys
            if new.any():
                added = side.keys[new]
                if not added.is_unique:
                    _check_unique_keys(side, name)
                where[new] = len(union) + np.arange(len(added), dtype=np.int64)
                union = union.append(added)
            wheres.append(where)
    else:
        for side, name in zip(sides, names, strict=True):
            _check_unique_keys(side, name)
        lists = [side.keys.tolist() if _is_index(side.keys) else side.keys for side in sides]
        position = dict(zip(lists[0], range(len(lists[0])), strict=True))
        counter = itertools.count(len(position))
        sparse = [np.arange(len(position), dtype=np.int64)]
        for keys in lists[1:]:  # new keys get increasing, not contiguous, numbers
            sparse.append(np.fromiter(map(position.setdefault, keys, counter),
                                      dtype=np.int64, count=len(keys)))  # fmt: skip
        union = list(position)
        numbers_ = np.fromiter(position.values(), dtype=np.int64, count=len(position))
        rank = np.empty(int(numbers_[-1]) + 1 if len(numbers_) else 0, dtype=np.int64)
        rank[numbers_] = np.arange(len(numbers_), dtype=np.int64)
        wheres = [sparse[0]] + [rank[where] for where in sparse[1:]]
    size = len(union)
    aligned = []
    for side, where in zip(sides, wheres, strict=True):
        codes = np.full(size, -2, dtype=_code_dtype(size))
        codes[where] = side.codes
        absent = size - len(side.codes)
        aligned.append(replace(side, codes=codes, n_unassigned=side.n_unassigned + absent,
                               keys=union, series=False))  # fmt: skip
    return aligned


def _arrange(sides: list[_Side], names: Sequence[str]) -> list[_Side]:
    """Match clusterings by key or by position, by the rule of :func:`validate_clusterings`."""
    hard = [side.keys is not None and not side.series for side in sides]
    if any(hard):
        keyed = names[hard.index(True)]
        for side, name in zip(sides, names, strict=True):
            if side.keys is None:
                raise InvalidInputTypeError(
                    f"`{keyed}` names its elements (a mapping or communities) but `{name}` "
                    "gives labels by position: give both by element (e.g. dict(zip(elements, "
                    f"{name}))), or both by position (e.g. [{keyed}[e] for e in elements])."
                )
        return _align(sides, names)
    if all(side.series for side in sides) and not all(
        _same_keys(sides[0].keys, side.keys) for side in sides[1:]
    ):
        return _align(sides, names)
    n = sides[0].codes.shape[0]
    for side, name in zip(sides[1:], names[1:], strict=True):
        if side.codes.shape[0] != n:
            raise InvalidInputError(
                f"`{names[0]}` and `{name}` must label the same elements; got lengths "
                f"{n} and {side.codes.shape[0]}."
            )
    # matched by position: messages name positions
    return [side if side.keys is None else replace(side, keys=None, series=False)
            for side in sides]  # fmt: skip


def _first_unassigned(side: _Side) -> str:
    if side.keys is None:
        xp = namespace(side.codes)
        first = (np.argmax(side.codes < 0) if xp is None
                 else xp.argmax(xp.astype(side.codes < 0, xp.int8)))  # fmt: skip
        return f"the first at position {int(first)}"
    where = np.flatnonzero(side.codes < 0)[:4]
    return "element(s) " + _describe_keys([side.keys[i] for i in where])


def _compact(
    codes: NDArray[np.integer], k: int, values: list[Any] | None = None
) -> tuple[NDArray[np.integer], int, list[Any] | None]:
    """Renumber codes 0..K'-1 after some clusters lost all their elements (and their labels)."""
    xp = namespace(codes)
    if xp is None:
        present = np.bincount(codes, minlength=k) > 0
    else:  # the codes present, found on their device: K values cross to the host
        present = np.zeros(k, dtype=bool)
        present[to_host(xp.unique_values(codes)).astype(np.int64)] = True
    if present.all():
        return codes, k, values
    rank = np.cumsum(present, dtype=np.int64 if xp is not None else codes.dtype) - 1
    if values is not None:
        values = [v for v, kept in zip(values, present.tolist(), strict=True) if kept]
    return take(rank, codes), int(present.sum()), values


# What a missing label is, and the policies to choose from, as every message that counts
# unassigned elements says them.
MISSING_VALUES = "None, NaN, NA, NaT, masked elements"


def choose_policy(option: str = "unassigned") -> str:
    """The sentence that offers the policies, for the argument or the CLI option ``option``."""
    q = "" if option.startswith("--") else "'"
    return (
        f"Choose what they mean: {_setting(option, f'{q}drop{q}')} leaves them out of both "
        f"clusterings, {q}singletons{q} makes each its own cluster, {q}cluster{q} puts those of "
        "a clustering in one cluster."
    )


def unassigned_message(parts: Sequence[str], marks: frozenset[Any], nulls: str = "",
                       absent: str = "") -> str:  # fmt: skip
    """The error of unassigned='raise': ``parts`` say where each side's first unassigned
    element is; ``nulls`` and ``absent`` add to the list of what makes one unassigned."""
    marked = f", labels in unassigned_label={sorted(marks, key=repr)!r}" if marks else ""
    return (
        "; ".join(parts) + f" (missing values: {MISSING_VALUES}{nulls}{marked}{absent}). "
        + choose_policy()
    )


def _raise_unassigned(sides: list[tuple[_Side, str]], marks: frozenset[Any]) -> None:
    parts = [
        f"`{name}` has {side.n_unassigned} unassigned element(s), {_first_unassigned(side)}"
        for side, name in sides
        if side.n_unassigned
    ]
    keyed = sides[0][0].keys is not None
    raise InvalidInputError(unassigned_message(
        parts, marks, absent=", or elements absent from one of two keyed inputs" if keyed else ""
    ))


def nothing_left(size: int, names: Sequence[str]) -> InvalidInputError:
    """The error of unassigned='drop' when it drops every element (of the whole: a chunk
    may be left empty, its table merged with others, see :func:`chanceclust.partial_table`)."""
    where = " or ".join(f"`{name}`" for name in names)
    return InvalidInputError(
        f"unassigned='drop' leaves no element to compare: each of the {size} elements is "
        f"unassigned in {where}. Check `unassigned_label`, or choose unassigned='singletons' "
        "or 'cluster'."
    )


def validate_clusterings(
    labels_true: Any,
    labels_pred: Any,
    *,
    unassigned_label: Any = None,
    unassigned: Any = "raise",
    keep_values: bool = False,
    workers: int = 1,
    empty_ok: bool = False,
    on_device: bool = False,
) -> Clusterings:
    """The one validation path of two clusterings: codes, cluster counts and a report.

    Accepted inputs, how they are matched (by position, index or key) and what is refused:
    docs/guide/inputs.md, 'In Python' (:func:`_read_side` reads each, :func:`_arrange` matches
    them). Elements that a keyed input lacks, missing values and labels in ``unassigned_label``
    are unassigned: the ``unassigned`` policy raises, drops them from both clusterings (an
    error if none is left), or gives them clusters (one each, or one per clustering).
    ``keep_values``: also return the label of each code (``values_true``,
    ``values_pred``; under 'raise' and 'drop'). ``workers``: threads that encode dense
    integer label arrays (a count the caller resolved, e.g. by
    :func:`chanceclust._tables.encoding_threads`; the same codes for any count).
    ``empty_ok``: 'drop' may leave no element (a chunk; see :meth:`Unassigned.apply`).
    Labels of another array library (CuPy, PyTorch, JAX, array-api-strict, ...: the array
    API standard) are validated and encoded on their device by the same rules (NaN of a
    float array is missing), and the policy applied there. ``on_device``: their codes come
    back on their device (for a caller that only counts them, through
    :func:`chanceclust._tables.count_cells`); else they are copied to the host.
    """
    policy = check_unassigned(unassigned)
    marks = check_unassigned_label(unassigned_label)
    names = ("labels_true", "labels_pred")
    true, pred = _arrange(
        [_read_side(labels_true, names[0], marks, keep_values=keep_values, threads=workers,
                    on_device=on_device),
         _read_side(labels_pred, names[1], marks, keep_values=keep_values, threads=workers,
                    on_device=on_device)],
        names,
    )  # fmt: skip
    if not true.n_unassigned and not pred.n_unassigned:
        return Clusterings(true.codes, true.k, pred.codes, pred.k,
                           UnassignedReport(policy.name), true.values, pred.values)  # fmt: skip
    if policy.refuses:
        _raise_unassigned([(true, names[0]), (pred, names[1])], marks)
    return policy.apply(true.codes, true.k, pred.codes, pred.k, names,
                        (true.values, pred.values), empty_ok)  # fmt: skip


def validate_many(
    clusterings: Sequence[Any],
    names: Sequence[str],
    *,
    unassigned_label: Any = None,
    unassigned: Any = "raise",
    on_device: bool = False,
) -> tuple[list[NDArray[np.integer]], list[int], list[bool]]:
    """M clusterings read as :func:`validate_clusterings` reads two, aligned once for all.

    Returns one code array per clustering on the same elements (the union of the keys
    for keyed inputs, in the first one's order), each clustering's K, and whether it has
    unassigned elements (codes < 0). Under 'raise' those are an error here; the other
    policies apply per pair (:meth:`Unassigned.apply`), as the single call of that pair.
    ``on_device``: as :func:`validate_clusterings`' (codes of device arrays stay there).
    """
    policy = check_unassigned(unassigned)
    marks = check_unassigned_label(unassigned_label)
    if not clusterings:
        return [], [], []
    sides = _arrange([_read_side(labels, name, marks, on_device=on_device)
                      for labels, name in zip(clusterings, names, strict=True)], names)  # fmt: skip
    flagged = [(side, name) for side, name in zip(sides, names, strict=True) if side.n_unassigned]
    if flagged and policy.refuses:
        _raise_unassigned(flagged, marks)
    return [side.codes for side in sides], [side.k for side in sides], [
        side.n_unassigned > 0 for side in sides
    ]


def check_labels(labels: Any, name: str = "labels", *, unassigned_label: Any = None,
                 unassigned: Any = "raise", on_device: bool = False
                 ) -> tuple[NDArray[np.integer], int]:  # fmt: skip
    """Validate one labeling (any container of :func:`validate_clusterings`): (codes, K).

    Codes number the distinct labels in sorted order when the labels are all
    numbers, all strings or all bytes, in order of first appearance otherwise.
    ``on_device``: as :func:`validate_clusterings`' (codes of device arrays stay there).
    """
    policy = check_unassigned(unassigned)
    marks = check_unassigned_label(unassigned_label)
    side = _read_side(labels, name, marks, on_device=on_device)
    if side.series:
        side = replace(side, keys=None)  # one labeling: messages name positions
    if not side.n_unassigned:
        return side.codes, side.k
    if policy.refuses:
        _raise_unassigned([(side, name)], marks)
    if policy.drops:
        if side.n_unassigned == side.codes.shape[0]:
            raise nothing_left(side.codes.shape[0], [name])
        return _compact(side.codes[side.codes >= 0], side.k)[:2]
    return policy.reassign(side.codes, side.k, side.n_unassigned)[:2]


def distinct_labels(labels: Any, name: str) -> tuple[NDArray[Any], NDArray[np.int64]]:
    """One labeling by position (cells of a table, say): its sorted distinct labels and codes.

    Missing labels are refused (a cell needs a label; there is no ``unassigned`` policy
    here); see :func:`sorted_label_values` for the labels.
    """
    side = _read_side(labels, name, frozenset(), keep_values=True)
    if side.n_unassigned:
        raise InvalidInputError(
            f"`{name}` holds {side.n_unassigned} missing label(s) ({MISSING_VALUES}), "
            f"{_first_unassigned(replace(side, keys=None))}: every cell needs a label; "
            "drop those cells or label them first."
        )
    return sorted_label_values(side.values or [], side.codes, name)


def sorted_label_values(
    values: list[Any], codes: NDArray[np.integer], name: str
) -> tuple[NDArray[Any], NDArray[np.int64]]:
    """The distinct labels of a clustering as a sorted array, and codes into it.

    For tables merged across chunks (:func:`chanceclust.partial_table`): every label
    needs one place in one order, so labels must be sortable (all numbers, all strings,
    all bytes, ...). No label is merged with another by a cast: strings ending in NUL
    characters (which numpy's fixed-width strings would strip) and integers beyond
    2**53 among floats stay Python objects.
    """
    if namespace(codes) is None:  # (codes on a device stay there)
        codes = codes.astype(np.int64, copy=False)
    array = _typed_labels(values)
    k = len(values)
    try:
        order = np.argsort(array, kind="stable")
        ordered = array[order]
        if k > 1 and not bool(np.all(ordered[1:] != ordered[:-1])):
            raise TypeError  # distinct labels that compare equal (e.g. 1 and True)
    except TypeError:
        shown = ", ".join(repr(v) for v in values[:4]) + (", ..." if k > 4 else "")
        raise InvalidInputError(
            f"`{name}` must hold sortable labels (all numbers, or all strings) to be "
            f"merged across chunks; got {k} distinct labels ({shown})."
        ) from None
    if not bool(np.all(order == np.arange(k))):  # e.g. categorical codes: not in value order
        rank = np.empty(k, dtype=np.int64)
        rank[order] = np.arange(k)
        codes = take(rank, codes)
        array = ordered
    return array, codes


def _typed_labels(values: list[Any]) -> NDArray[Any]:
    """A numpy array of labels that keeps each label's identity (object dtype where needed)."""
    objects = np.empty(len(values), dtype=object)
    # numpy integers as Python ints: exact comparisons between integer kinds (numpy < 2
    # compares a uint64 with an int64 through float64, which merges 2**62 + 1 with 2**62)
    objects[:] = [int(v) if isinstance(v, np.integer) else v for v in values]
    if not values:
        return np.empty(0, dtype=np.int64)
    if all(isinstance(v, str) for v in values):
        return objects if any(v.endswith("\x00") for v in values) else np.array(values)
    if all(isinstance(v, bytes) for v in values):
        return objects if any(v.endswith(b"\x00") for v in values) else np.array(values)
    try:
        typed = np.array(values)
    except (ValueError, TypeError, OverflowError):
        return objects
    if typed.ndim != 1 or typed.dtype.kind not in "biufMm" or _float_merges_integers(typed, values):
        return objects
    return typed


def check_sizes(sizes: Any, name: str) -> NDArray[np.int64]:
    """Validate a cluster-size sequence: positive integers."""
    array = np.asarray(sizes)
    if array.ndim != 1 or array.size == 0:
        raise InvalidInputError(
            f"{_arg(name)} must be a non-empty 1-D sequence of positive integers; "
            f"got {_describe(sizes)}."
        )
    kind = array.dtype.kind
    if kind not in "iuf" or (
        kind == "f" and not (np.all(np.isfinite(array)) and np.all(array == np.round(array)))
    ):
        raise InvalidInputError(f"{_arg(name)} must hold positive integers; got {_describe(sizes)}.")
    if array.dtype.kind == "u" and array.dtype.itemsize == 8 and array.max() >= 2**63:
        raise InvalidInputError(f"{_arg(name)} holds sizes too large for int64; got {_describe(sizes)}.")
    array = array.astype(np.int64, copy=False)  # no copy for int64 input: it is only read
    if array.min() <= 0:
        raise InvalidInputError(f"{_arg(name)} must hold positive integers; got {_describe(sizes)}.")
    return array


def check_rng(rng: Any) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from None, an int seed or a Generator."""
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if int(rng) < 0:
            raise InvalidInputError(f"`rng` must be None, a non-negative int or a Generator; got {rng}.")
        return np.random.default_rng(int(rng))
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    raise InvalidInputError(
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
    n_name: str = "n",
) -> tuple[NDArray[np.int64] | None, int | None]:
    """Validate one side's summary of N elements: cluster sizes and/or a number of clusters.

    Returns ``(sizes, K)`` with ``K = len(sizes)`` when sizes are given (either may be
    None). Sizes must be positive and sum to ``n``; ``K`` must be in 1..max(n, 1) and agree
    with the sizes. Which of the two a model needs is :func:`check_needed`'s rule. The
    ``*_name`` arguments are how messages name the arguments (CLI options as ``--k-true``).
    """
    size_array = None if sizes is None else check_sizes(sizes, sizes_name)
    if size_array is not None and int(size_array.sum()) != n:
        raise InvalidInputError(
            f"{_arg(sizes_name)} must sum to {_setting(n_name, n)}; got {int(size_array.sum())}."
        )
    k = None if n_clusters is None else check_count(n_clusters, n_clusters_name, minimum=1)
    if k is not None and k > max(n, 1):
        raise InvalidInputError(
            f"{_arg(n_clusters_name)} must be between 1 and {_setting(n_name, n)}; got {k}."
        )
    if size_array is not None:
        if k is not None and k != len(size_array):
            raise InvalidInputError(
                f"{_arg(n_clusters_name)}={k} contradicts the {len(size_array)} cluster sizes "
                "given."
            )
        k = len(size_array)
    return size_array, k


def check_needed(model: Model, name: str, value: Any, *, role: str = "this model") -> None:
    """The one rule of what a random side needs: ``name`` (sizes or K), whose ``value`` is None."""
    if value is None:
        got = "" if name.startswith("--") else "; got None"
        raise InvalidInputError(
            f"{_arg(name)} is required for model={model.name!r} ({role}){got}."
        )


#: The names of the summary arguments of the *_baseline functions, as messages show them.
SUMMARY_NAMES = {name: name for name in
                 ("n", "sizes_true", "sizes_pred", "n_clusters_true", "n_clusters_pred")}


def check_summaries(
    n: int,
    setting: Setting,
    sizes_true: Any,
    n_clusters_true: Any,
    sizes_pred: Any,
    n_clusters_pred: Any,
    *,
    names: dict[str, str] | None = None,
) -> tuple[NDArray[np.int64] | None, int | None, NDArray[np.int64] | None, int | None]:
    """The rules of the two sides' summaries under a setting (the *_baseline functions, the CLI).

    Each random side needs what its model needs (``Model.needs``: sizes under perm, K
    under num, nothing under all); a one-sided reference needs its sizes. Sizes give K
    too. ``names`` maps the keys of :data:`SUMMARY_NAMES` to how messages name them.
    Returns ``(sizes_true, K_true, sizes_pred, K_pred)``.
    """
    names = {**SUMMARY_NAMES, **(names or {})}
    sizes_true, k_true = check_side(
        n, sizes_true, n_clusters_true, sizes_name=names["sizes_true"],
        n_clusters_name=names["n_clusters_true"], n_name=names["n"],
    )
    sizes_pred, k_pred = check_side(
        n, sizes_pred, n_clusters_pred, sizes_name=names["sizes_pred"],
        n_clusters_name=names["n_clusters_pred"], n_name=names["n"],
    )
    given = {"sizes_true": sizes_true, "n_clusters_true": k_true,
             "sizes_pred": sizes_pred, "n_clusters_pred": k_pred}
    needs: list[tuple[str, str]] = []  # (argument, note) of what the setting needs
    for role, reference in (("true", True), ("pred", False)):
        needed = setting.model_of(reference=reference).needs
        if needed is not None:
            note = " (the reference)" if reference and setting.one_sided else ""
            needs.append((f"{needed}_{role}", note))
    missing = [(names[key], note) for key, note in needs if given[key] is None]
    if missing:  # every missing argument in one message
        listed = " and ".join(_arg(name) + note for name, note in missing)
        verb = "is" if len(missing) == 1 else "are"
        side = ", one-sided" if setting.one_sided else ""
        got = "" if missing[0][0].startswith("--") else "; got None"
        raise InvalidInputError(
            f"{listed} {verb} required for model={setting.name!r}{side}{got}."
        )
    return sizes_true, k_true, sizes_pred, k_pred


def check_model_summary(
    n: Any, model: Any, n_clusters: Any, sizes: Any
) -> tuple[int, Model, int | None, NDArray[np.int64] | None]:
    """Validate ``(n, model, n_clusters, sizes)`` of one random clustering (samplers, p_same).

    perm needs ``sizes`` (summing to ``n``), num needs ``n_clusters`` (1..n), all needs
    neither; an argument the model does not use is an error. Returns
    ``(n, model, K or None, sizes or None)``.
    """
    n = check_count(n, "n", minimum=1, maximum=MAX_N)
    model = check_model(model)
    if model.needs != "sizes" and sizes is not None:
        raise InvalidInputError(
            f"`sizes` is only used with model='perm'; got model={model.name!r}."
        )
    if model.needs is None and n_clusters is not None:
        raise InvalidInputError(
            f"`n_clusters` is only used with model='num'; got model={model.name!r}."
        )
    size_array, k = check_side(n, sizes, n_clusters)
    if model.needs is not None:
        check_needed(model, model.needs, {"sizes": size_array, "n_clusters": k}[model.needs])
    return n, model, k, size_array


def check_counts(value: Any, name: str) -> NDArray[np.int64]:
    """Return ``value`` as an int64 array of integers in 0..2**53 (check_count of arrays)."""
    try:
        arr = np.asarray(value)
    except Exception as exc:  # ragged input and the like
        raise InvalidInputError(
            f"`{name}` must be an array of non-negative integers; got {_describe(value)}."
        ) from exc
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iuf":
        raise InvalidInputError(
            f"`{name}` must be an array of non-negative integers; got dtype {arr.dtype}."
        )
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr)) | (np.abs(arr) > 2.0**53)
        if np.any(bad):
            raise InvalidInputError(
                f"`{name}` must hold non-negative integers; got {_describe(arr[bad].flat[0])}."
            )
    if arr.dtype.kind in "iu" and arr.size and int(arr.max()) > 2**53:
        # beyond 2**53 the float64 kernels could not even represent n exactly
        raise InvalidInputError(f"`{name}` must be at most 2**53; got {_describe(int(arr.max()))}.")
    out = arr.astype(np.int64)
    if np.any(out < 0):
        raise InvalidInputError(
            f"`{name}` must hold non-negative integers; got {_describe(out[out < 0].flat[0])}."
        )
    return out
