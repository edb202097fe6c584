"""The measures by name: the one registry of :func:`~chanceclust.compare`,
:func:`~chanceclust.pairwise`, :func:`~chanceclust.significance_test` and the command line.

Each :class:`Measure` says whether it is adjusted for chance under a random model and
whether it takes an NMI/AMI normalization, its public function, its value on a
:class:`~chanceclust.contingency.Table` given the two random sides and a normalization, its
vectorized form on a batch of null samples (:mod:`chanceclust.significance`), its expected
value where it is adjusted, its best value, its direction and where it is symmetric.
Every entry calls the formulas of :mod:`chanceclust.measures` and :mod:`chanceclust.adjusted`;
nothing here computes a formula of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from chanceclust._entropy import entropy_values
from chanceclust._models import Side
from chanceclust._validation import ONE_SIDE_AVERAGE_METHODS
from chanceclust.adjusted import (
    _adjust_for_chance,
    _adjusted_mutual_information,
    _adjusted_rand_index,
    _adjusted_rand_values,
    _mi_max,
    _rand_expectation,
    adjusted_mutual_information,
    adjusted_rand_index,
)
from chanceclust.contingency import Table, _pair_counts
from chanceclust.exceptions import InternalError
from chanceclust.expectations import _expected_mutual_information, _expected_rand_index
from chanceclust.measures import (
    _fowlkes_mallows_index,
    _homogeneity_completeness,
    _homogeneity_completeness_values,
    _fowlkes_mallows_values,
    _jaccard_index,
    _jaccard_values,
    _mutual_information,
    _normalized_mutual_information,
    _normalized_mutual_information_values,
    _rand_index,
    _rand_values,
    _variation_of_information,
    _variation_of_information_values,
    completeness,
    fowlkes_mallows_index,
    homogeneity,
    jaccard_index,
    mutual_information,
    normalized_mutual_information,
    rand_index,
    v_measure,
    variation_of_information,
)
from chanceclust.variance import (
    _table_mi_variance,
    _table_smi,
    _table_sri,
    _table_variance,
    standardized_mutual_information,
    standardized_rand_index,
)

Sides = tuple[Side, Side]
#: A batch of null samples (``significance._Batch``): per-sample pair counts, MI, cells.
Batch = Any
Kernel = Callable[[Batch], NDArray[np.float64]]

@dataclass(frozen=True)
class Measure:
    """One measure of two clusterings, by every route the library evaluates it.

    ``table(table, sides, method)`` is the value of one table (``sides`` None unless
    ``adjusted``); ``batch(table, sides, method)`` returns the vectorized evaluation of null
    samples whose constants (E[s], s_max) come from the observed table;
    ``expected(sides)`` is E[s] of an adjusted measure; ``best(table, sides)`` the value of
    perfect agreement (the default ``best`` of a Monte Carlo adjustment).
    """

    name: str
    function: Callable[..., float]
    table: Callable[[Table, Sides | None, str], float]
    batch: Callable[[Table, Sides | None, str], Kernel]
    best: Callable[[Table, Sides | None], float]
    #: E[s] of the sides: set for the measures adjusted for chance (they use a model).
    expected: Callable[[Sides], float] | None = None
    #: Smaller means more similar (the default alternative of a test is then "less").
    distance: bool = False
    #: Takes an NMI/AMI normalization (``average_method``).
    normalized: bool = False
    #: Reads one clustering as the reference even without a model (homogeneity: s(A, B)
    #: is the completeness of (B, A)).
    reference: bool = False
    #: The row of :func:`~chanceclust.compare` that already shows this value under another
    #: name (homogeneity is NMI "true"); compare's default listing leaves the measure out.
    same_as: str | None = None

    @property
    def title(self) -> str:
        """The name as tables print it, in capitals (ARI, JACCARD)."""
        return self.name.upper()

    @property
    def uses_model(self) -> bool:
        """Whether the value depends on a random model (the adjusted measures)."""
        return self.expected is not None

    def symmetric(self, one_sided: bool, average_method: str) -> bool:
        """Whether s(A, B) = s(B, A), to the last bit, under these options.

        Every measure is, two-sided, with a symmetric normalization (the library computes
        them on a canonical orientation); a one-sided model or a one-side normalization
        ("true", "pred") makes it asymmetric.
        """
        if self.reference or (self.uses_model and one_sided):
            return False
        return not (self.normalized and average_method in ONE_SIDE_AVERAGE_METHODS)


def _random(sides: Sides | None) -> Sides:
    """The sides of an adjusted measure (the callers always pass them)."""
    if sides is None:
        raise InternalError("an adjusted measure was evaluated without its random sides")
    return sides


def _one(*_: Any) -> float:
    return 1.0


def _ari_batch(table: Table, sides: Sides | None, method: str) -> Kernel:
    expectation = _rand_expectation(_random(sides))
    return lambda t: _adjusted_rand_values(*t.pair_counts, expectation)


def _ami_batch(table: Table, sides: Sides | None, method: str) -> Kernel:
    sides = _random(sides)
    expected = _expected_mutual_information(*sides)
    bound = _mi_max(table, sides, method)
    return lambda t: _adjust_for_chance(t.mi, expected, bound, k_true=t.k_true, k_pred=t.k_pred)


def _nmi_batch(table: Table, sides: Sides | None, method: str) -> Kernel:
    return lambda t: _normalized_mutual_information_values(
        t.mi,
        entropy_values(t.sizes_true, t.n),
        entropy_values(t.sizes_pred, t.n),
        t.k_true,
        t.k_pred,
        method,
    )


def _hcv_batch(part: int) -> Callable[[Table, Sides | None, str], Kernel]:
    """The batch form of homogeneity (0), completeness (1) or the V-measure (2, beta = 1)."""
    return lambda table, sides, method: lambda t: _homogeneity_completeness_values(
        t.mi, entropy_values(t.sizes_true, t.n), entropy_values(t.sizes_pred, t.n), 1.0
    )[part]


def _standardizer(mean: float, variance: float) -> Callable[[Any], Any]:
    """z = (s - mean) / sd of values s of the null samples; 0.0 when the variance is 0
    (a single-valued ensemble, as the single calls return)."""
    if variance <= 0:
        return lambda values: np.zeros_like(np.asarray(values, dtype=np.float64))
    sd = math.sqrt(variance)
    return lambda values: (values - mean) / sd


def _sri_standardizer(table: Table, sides: Sides | None) -> Callable[[Any], Any]:
    """RI -> SRI with E[RI] and Var[RI] of the observed table's sides."""
    sides = _random(sides)
    return _standardizer(_expected_rand_index(*sides), float(_table_variance(table, sides)))


def _smi_standardizer(table: Table, sides: Sides | None) -> Callable[[Any], Any]:
    """MI -> SMI with E[MI] and Var[MI] of the observed table's sides."""
    sides = _random(sides)
    return _standardizer(_expected_mutual_information(*sides), _table_mi_variance(table, sides))


def _sri_batch(table: Table, sides: Sides | None, method: str) -> Kernel:
    z = _sri_standardizer(table, sides)
    return lambda t: z(_rand_values(*t.pair_counts))


def _smi_batch(table: Table, sides: Sides | None, method: str) -> Kernel:
    z = _smi_standardizer(table, sides)
    return lambda t: z(t.mi)


def _mi_best(table: Table, sides: Sides | None) -> float:
    """The MI bound under the model (arithmetic mean): a Monte Carlo adjustment of MI is AMI."""
    return _mi_max(table, _random(sides), "arithmetic")


_MEASURES = (
    Measure(
        "ri", rand_index,
        table=lambda table, sides, method: _rand_index(_pair_counts(table)),
        batch=lambda table, sides, method: lambda t: _rand_values(*t.pair_counts),
        best=_one,
    ),
    Measure(
        "ari", adjusted_rand_index,
        table=lambda table, sides, method: _adjusted_rand_index(table, _random(sides)),
        batch=_ari_batch,
        best=_one,
        expected=lambda sides: _expected_rand_index(*sides),
    ),
    Measure(
        "mi", mutual_information,
        table=lambda table, sides, method: _mutual_information(table),
        batch=lambda table, sides, method: lambda t: t.mi,
        best=_mi_best,
    ),
    Measure(
        "nmi", normalized_mutual_information,
        table=lambda table, sides, method: _normalized_mutual_information(table, method),
        batch=_nmi_batch,
        best=_one,
        normalized=True,
    ),
    Measure(
        "ami", adjusted_mutual_information,
        table=lambda table, sides, method: _adjusted_mutual_information(
            table, _random(sides), method
        ),
        batch=_ami_batch,
        best=_one,
        expected=lambda sides: _expected_mutual_information(*sides),
        normalized=True,
    ),
    Measure(
        "homogeneity", homogeneity,
        table=lambda table, sides, method: _homogeneity_completeness(table)[0],
        batch=_hcv_batch(0),
        best=_one,
        reference=True,
        same_as="NMI true",
    ),
    Measure(
        "completeness", completeness,
        table=lambda table, sides, method: _homogeneity_completeness(table)[1],
        batch=_hcv_batch(1),
        best=_one,
        reference=True,
        same_as="NMI pred",
    ),
    Measure(
        "v_measure", v_measure,
        table=lambda table, sides, method: _homogeneity_completeness(table)[2],
        batch=_hcv_batch(2),
        best=_one,
        same_as="NMI arithmetic",
    ),
    Measure(
        "fmi", fowlkes_mallows_index,
        table=lambda table, sides, method: _fowlkes_mallows_index(_pair_counts(table)),
        batch=lambda table, sides, method: lambda t: _fowlkes_mallows_values(*t.pair_counts[:3]),
        best=_one,
    ),
    Measure(
        "jaccard", jaccard_index,
        table=lambda table, sides, method: _jaccard_index(_pair_counts(table)),
        batch=lambda table, sides, method: lambda t: _jaccard_values(*t.pair_counts[:3]),
        best=_one,
    ),
    Measure(
        "vi", variation_of_information,
        table=lambda table, sides, method: _variation_of_information(table),
        batch=lambda table, sides, method: lambda t: _variation_of_information_values(
            t.x, t.a, t.b, t.n, t.starts
        ),
        best=lambda *_: 0.0,
        distance=True,
    ),
    Measure(
        "sri", standardized_rand_index,
        table=lambda table, sides, method: _table_sri(table, _random(sides)),
        batch=_sri_batch,
        best=lambda table, sides: float(_sri_standardizer(table, sides)(1.0)),  # RI = 1
        expected=lambda sides: _expected_rand_index(*sides),
    ),
    Measure(
        "smi", standardized_mutual_information,
        table=lambda table, sides, method: _table_smi(table, _random(sides)),
        batch=_smi_batch,
        best=lambda table, sides: float(_smi_standardizer(table, sides)(_mi_best(table, sides))),
        expected=lambda sides: _expected_mutual_information(*sides),
    ),
)

#: The measures by name, in the order every listing uses.
MEASURES: dict[str, Measure] = {m.name: m for m in _MEASURES}
