"""The random models as values: the sides of a comparison, the models that make them, the setting.

docs/math.md#math-models and #math-model-protocol. A model (:class:`Model`: :class:`Perm`,
:class:`Num`, :class:`All`, or :class:`PerSide` with one on each side) turns N and a
clustering's summary into a random :class:`Side`; validation parses ``model`` and
``one_sided`` once into a :class:`Setting`. Everything downstream asks the sides through the
:class:`Side` protocol: no module but this one knows their classes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from chanceclust._entropy import entropy_of_sizes
from chanceclust._expected.elementary import truncated_poisson_rate
from chanceclust._expected.lattice import exact_bell, exact_stirling2_columns
from chanceclust._expected.laws import Law, all_law, fixed_law, num_law, stam_mixture
from chanceclust._expected.mi_variance import SizeMoments, fixed_moments, random_moments
from chanceclust.exceptions import InternalError

Sampler = Callable[[np.random.Generator], NDArray[np.int64]]
#: A sampler that also returns the draw's cluster sizes by label (None where not known).
SizedSampler = Callable[[np.random.Generator], tuple[NDArray[np.int64], NDArray[np.int64] | None]]
#: A sampler of a clustering's cluster sizes by label, without its labels.
SizeSampler = Callable[[np.random.Generator], NDArray[np.int64]]


class Side(Protocol):
    """One random clustering of N elements: all that the expectations, the variances and the
    null draws ask of it (docs/math.md#math-model-protocol)."""

    @property
    def n(self) -> int:
        """N, the number of elements."""
    @property
    def name(self) -> str:
        """The name of the model that made it, as messages show it."""
    @property
    def k(self) -> int | None:
        """K, the number of clusters of every clustering of the side; None when K varies."""
    @property
    def fixed_k(self) -> bool:
        """Whether every clustering of the side has K = :attr:`k` clusters."""
    @property
    def sizes_given(self) -> bool:
        """Whether every clustering has the given sizes (perm, a one-sided reference): its
        draws are permutations of one label sequence, and its Rand terms are exact."""
    @property
    def key(self) -> Hashable | None:
        """A cache key by value (the law depends on it alone), or None: not cached by value."""
    @property
    def law(self) -> Law:
        """The size law: a SizeLaw (expected clusters of each size) or a SlotMixture
        (a mixture of uniform labelings; docs/math.md#math-laws)."""
    def entropy_bound(self) -> float:
        """The largest entropy of a clustering of the side (docs/math.md#math-s-max)."""
    def size_moments(self) -> SizeMoments:
        """The exact means and covariances of the numbers of clusters of each size (Var[MI]
        over sizes, docs/math.md#math-mi-variance)."""
    def sampler(self) -> Sampler:
        """An exact sampler of the side's clusterings (docs/math.md#math-samplers)."""
    def sized_sampler(self) -> SizedSampler:
        """:meth:`sampler` with each draw's sizes by label (None where they are the side's)."""
    def size_sampler(self) -> SizeSampler | None:
        """An exact sampler of the cluster sizes alone (by label, the law of
        :meth:`sized_sampler`'s sizes) at O(K) per draw, without the N labels; None where the
        sizes cost about as much as the labels."""
    def draw_rows(self, gen: np.random.Generator, out: NDArray[np.integer]
                  ) -> NDArray[np.int64] | None:
        """Fill the rows of ``out`` with draws, one after the other (the stream of as many
        :meth:`sampler` calls); their sizes by label, (len(out), largest K) zero padded, or
        None where they are the side's."""
    def order(self) -> tuple[Any, ...]:
        """A total order on the sides of one class, for a canonical orientation of two."""


class _Margins(Protocol):
    """What a side needs of a contingency table (``contingency.Table`` has it)."""

    n: int
    row_sums: NDArray[np.int64]
    col_sums: NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class FixedSide:
    """A side whose cluster sizes are kept (``perm``, or the one-sided reference)."""

    sizes: NDArray[np.int64]
    n: int
    #: Hashed by identity (eq=False): a side of sizes is never a cache key by value.
    key: ClassVar[None] = None
    name: ClassVar[str] = "perm"
    fixed_k: ClassVar[bool] = True
    sizes_given: ClassVar[bool] = True

    @property
    def k(self) -> int:
        """The number of clusters K."""
        return len(self.sizes)

    @cached_property
    def law(self) -> Law:
        """The size law: exactly the given sizes (each with its multiplicity)."""
        return fixed_law(self.sizes, total=self.n)

    def entropy_bound(self) -> float:
        """The largest entropy in the ensemble: the entropy H of the sizes themselves."""
        return entropy_of_sizes(self.sizes, self.n)

    def size_moments(self) -> SizeMoments:
        return fixed_moments(self.law)

    def sampler(self) -> Sampler:
        """A uniform permutation of the labels 0..K-1 repeated by size."""
        base = self._labels

        def draw_fixed(gen: np.random.Generator) -> NDArray[np.int64]:
            return gen.permutation(base)

        return draw_fixed

    def sized_sampler(self) -> SizedSampler:
        draw = self.sampler()
        return lambda gen: (draw(gen), None)

    def size_sampler(self) -> SizeSampler:
        """The given sizes (no draw)."""
        return lambda gen: self.sizes

    def draw_rows(self, gen: np.random.Generator, out: NDArray[np.integer]) -> None:
        """One ``permutation`` of int64 labels per row: numpy's Generator.permuted along axis 1
        draws the same stream for the whole batch, but is slower (numpy's shuffle is
        specialized for 8-byte items in ``permutation`` only; benchmarks/RESULTS.md #23).
        """
        draw = self.sampler()
        for row in out:
            row[:] = draw(gen)

    @cached_property
    def _labels(self) -> NDArray[np.int64]:
        """The labels 0..K-1 repeated by size (int64: what the draws permute), made once."""
        return np.repeat(np.arange(len(self.sizes), dtype=np.int64), self.sizes)

    def order(self) -> tuple[Any, ...]:
        return (len(self.law.sizes), self.law.sizes.tolist(), self.law.weights.tolist())


@dataclass(frozen=True)
class NumSide:
    """A side uniform over the S(N, K) clusterings of N elements into exactly K clusters."""

    n: int
    k: int
    name: ClassVar[str] = "num"
    fixed_k: ClassVar[bool] = True
    sizes_given: ClassVar[bool] = False

    @property
    def key(self) -> tuple[str, int, int]:
        """Cache key: the law depends on (N, K) only."""
        return ("num", self.n, self.k)

    @property
    def law(self) -> Law:
        """The size law (:func:`~chanceclust._expected.laws.num_law`, cached by (N, K))."""
        return num_law(self.n, self.k)

    def entropy_bound(self) -> float:
        """The largest entropy with K clusters: log K (equal sizes)."""
        return math.log(self.k)

    def size_moments(self) -> SizeMoments:
        """From exact Stirling numbers; K = 1 or N: the one size sequence's."""
        if self.k in (1, self.n):
            return fixed_moments(self.law)
        return _num_moments(self.n, self.k)

    def sampler(self) -> Sampler:
        """A uniform surjection onto K labels (docs/math.md#math-samplers)."""
        return _labels_only(self.sized_sampler())

    def sized_sampler(self) -> SizedSampler:
        labels = np.arange(self.k, dtype=np.int64)
        draw_sizes = self.size_sampler()

        def draw_num(gen: np.random.Generator) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
            sizes = draw_sizes(gen)
            row = np.repeat(labels, sizes)
            gen.shuffle(row)  # int64: numpy's shuffle is fastest on 8-byte items
            return row, sizes

        return draw_num

    def size_sampler(self) -> SizeSampler:
        """The sizes of a uniform surjection (docs/math.md#math-samplers), O(K) a draw."""
        n, k = self.n, self.k
        rho = _surjection_rate(n, k)  # once per side, not per draw
        return lambda gen: _surjection_sizes(n, k, gen, rho)

    def draw_rows(self, gen: np.random.Generator, out: NDArray[np.integer]) -> NDArray[np.int64]:
        return _draw_sized_rows(self.sized_sampler(), gen, out)

    def order(self) -> tuple[Any, ...]:
        return (self.k,)


@dataclass(frozen=True)
class AllSide:
    """A side uniform over the B_N clusterings of N elements."""

    n: int
    k: None = field(default=None, init=False)
    name: ClassVar[str] = "all"
    fixed_k: ClassVar[bool] = False
    sizes_given: ClassVar[bool] = False

    @property
    def key(self) -> tuple[str, int]:
        """Cache key: the law depends on N only."""
        return ("all", self.n)

    @property
    def law(self) -> Law:
        """The size law (:func:`~chanceclust._expected.laws.all_law`, cached by N)."""
        return all_law(self.n)

    def entropy_bound(self) -> float:
        """The largest entropy of a clustering of N elements: log N (singletons)."""
        return math.log(self.n)

    def size_moments(self) -> SizeMoments:
        """From exact Bell numbers."""
        return _all_moments(self.n)

    def sampler(self) -> Sampler:
        """Stam's algorithm (docs/math.md#math-samplers)."""
        return _labels_only(self.sized_sampler())

    def sized_sampler(self) -> SizedSampler:
        n = self.n
        if n == 1:
            return lambda gen: (np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64))
        mixture = stam_mixture(n)
        slots = np.asarray(mixture.slots, dtype=np.int64)
        cumulative = np.cumsum(mixture.coefs)

        def draw_all(gen: np.random.Generator) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
            # Stam: u from the Dobinski law, then i.i.d. uniform labels on u values.
            index = int(np.searchsorted(cumulative, gen.random() * cumulative[-1], side="right"))
            u = int(slots[min(index, len(slots) - 1)])
            raw = gen.integers(0, u, size=n, dtype=np.int64)
            counts = np.bincount(raw, minlength=u)  # the sizes come with the labels used
            used = counts > 0
            rank = np.cumsum(used, dtype=np.int64) - 1  # the labels used become 0..K-1
            return rank[raw], counts[used]

        return draw_all

    def size_sampler(self) -> None:
        """None: Stam's sizes are a multinomial over u ~ N / ln N slots, and the K ~ N / ln N
        clusters make a table cost more than the labels (docs/math.md#math-significance)."""
        return

    def draw_rows(self, gen: np.random.Generator, out: NDArray[np.integer]) -> NDArray[np.int64]:
        return _draw_sized_rows(self.sized_sampler(), gen, out)

    def order(self) -> tuple[Any, ...]:
        return ()


def canonical_pair(first: Side, second: Side) -> tuple[Side, Side]:
    """Two sides of one kind in a canonical order, so that symmetric values are bit-symmetric."""
    if type(first) is type(second) and second.order() < first.order():
        return second, first
    return first, second


def _draw_sized_rows(
    draw: SizedSampler, gen: np.random.Generator, out: NDArray[np.integer]
) -> NDArray[np.int64]:
    """``out``'s rows drawn by ``draw`` one after the other, and their sizes (stacked)."""
    sizes = []
    for row in out:
        row[:], row_sizes = draw(gen)
        sizes.append(row_sizes)
    return stack_sizes(sizes)


def stack_sizes(sizes: list[NDArray[np.int64] | None]) -> NDArray[np.int64] | None:
    """Per-draw sizes by label as one (len(sizes), largest K) int64 array, zero padded: what
    a bincount of each row's labels gives (every label 0..K-1 of a draw is used); None where
    a draw came without its sizes (:meth:`FixedSide.sized_sampler`)."""
    if any(s is None for s in sizes):
        return None
    width = max(len(s) for s in sizes)
    if all(len(s) == width for s in sizes):
        return np.stack(sizes).astype(np.int64, copy=False)
    out = np.zeros((len(sizes), width), dtype=np.int64)
    for row, row_sizes in zip(out, sizes, strict=True):
        row[: len(row_sizes)] = row_sizes
    return out


def _labels_only(draw: SizedSampler) -> Sampler:
    """The labels of a sized sampler's draws."""
    return lambda gen: draw(gen)[0]


def _surjection_rate(n: int, k: int) -> float | None:
    """rho of the surjection sampler: rho / (1 - e^-rho) = N / K (None when no draw needs it)."""
    if k == 1 or n == k:
        return None
    return float(truncated_poisson_rate((n - k) / k))  # only the efficiency depends on rho


def _surjection_sizes(
    n: int, k: int, gen: np.random.Generator, rho: float | None
) -> NDArray[np.int64]:
    """Sizes of a uniform surjection of n elements onto k labels (docs/math.md#math-samplers);
    ``rho`` = :func:`_surjection_rate` (n, k)."""
    if k == 1:
        return np.array([n], dtype=np.int64)
    extra = n - k  # M: the elements beyond one per cluster
    if extra == 0 or rho is None:
        return np.ones(k, dtype=np.int64)
    scale = -math.expm1(-rho)  # P(a rate-rho process has a point in [0, 1])
    while True:
        # First points t_i with density rho e^(-rho t) / scale on [0, 1]; keep 1 - t_i.
        t = -np.log1p(-gen.random(k) * scale) / rho
        remaining = 1.0 - t
        # The ndarray method: np.sum's Python wrapper cost more than the sum at small K.
        remaining_sum = remaining.sum()
        total = rho * float(remaining_sum)
        # log[Poisson(M; L) / Poisson(M; M)] = M log(L/M) - (L - M) <= 0.
        relative = (total - extra) / extra
        log_accept = extra * math.log1p(relative) - (total - extra)
        if math.log(1.0 - gen.random()) <= log_accept:
            break
    extra_counts = gen.multinomial(extra, remaining / remaining_sum)
    extra_counts += 1
    return extra_counts.astype(np.int64, copy=False)




@lru_cache(maxsize=64)
def _num_moments(n: int, k: int) -> SizeMoments:
    # S(m, K - used) for every m at once: one column each (m = 0 .. N), not one S(m, j) a call.
    columns = exact_stirling2_columns(n, tuple(j for j in (k - 2, k - 1, k) if j >= 0))

    def rest(m: int, used: int) -> int:  # clusterings of m elements into the K - used others
        return columns[k - used][m] if k - used >= 0 else 0

    return random_moments(n, columns[k][n], rest, "1a")


@lru_cache(maxsize=64)
def _all_moments(n: int) -> SizeMoments:
    return random_moments(n, exact_bell(n), lambda m, used: exact_bell(m), "a")



@runtime_checkable
class Model(Protocol):
    """A random model of one clustering: what its side needs, and the side
    (docs/math.md#math-model-protocol)."""

    @property
    def name(self) -> str:
        """Its name in messages and results."""
    @property
    def needs(self) -> str | None:
        """The summary its side is made from: ``"sizes"``, ``"n_clusters"`` or None (N only)."""
    def side(self, n: int, sizes: NDArray[np.int64] | None, k: int | None) -> Side:
        """The side of a clustering of ``n`` elements with these (validated) summaries."""


@dataclass(frozen=True)
class Perm:
    """``perm``: uniform over the clusterings with the given cluster sizes."""

    name: ClassVar[str] = "perm"
    needs: ClassVar[str | None] = "sizes"

    def side(self, n: int, sizes: NDArray[np.int64] | None, k: int | None) -> Side:
        if sizes is None:
            raise InternalError("a perm side needs its sizes (validation supplies them)")
        return FixedSide(sizes, n)


@dataclass(frozen=True)
class Num:
    """``num``: uniform over the S(N, K) clusterings with the given number of clusters K."""

    name: ClassVar[str] = "num"
    needs: ClassVar[str | None] = "n_clusters"

    def side(self, n: int, sizes: NDArray[np.int64] | None, k: int | None) -> Side:
        if k is None:
            raise InternalError("a num side needs K (validation supplies it)")
        return NumSide(n, k)


@dataclass(frozen=True)
class All:
    """``all``: uniform over the B_N clusterings of N elements."""

    name: ClassVar[str] = "all"
    needs: ClassVar[str | None] = None

    def side(self, n: int, sizes: NDArray[np.int64] | None, k: int | None) -> Side:
        return AllSide(n)


@dataclass(frozen=True)
class PerSide:
    """A different model on each side of a two-sided comparison: ``true`` draws the clustering
    of ``labels_true``, ``pred`` that of ``labels_pred`` (docs/math.md#math-model-protocol)."""

    true: Model
    pred: Model

    @property
    def name(self) -> str:
        """``"<true>/<pred>"``, e.g. ``"perm/num"``."""
        return f"{self.true.name}/{self.pred.name}"


#: The random models by name: the values the strings stand for.
MODELS: dict[str, Model] = {m.name: m for m in (Perm(), Num(), All())}


@dataclass(frozen=True)
class Setting:
    """A random model (one for both sides, or :class:`PerSide`) and whether ``labels_true``
    is a fixed reference (one-sided)."""

    model: Model | PerSide
    one_sided: bool

    @property
    def name(self) -> str:
        """The model's name: ``"perm"``, ``"num"``, ``"all"``, or ``"<true>/<pred>"``."""
        return self.model.name

    @property
    def asymmetric(self) -> bool:
        """Whether ``labels_true`` and ``labels_pred`` play different roles."""
        return self.one_sided or isinstance(self.model, PerSide)

    def model_of(self, *, reference: bool) -> Model:
        """The model of ``labels_true``'s side (``reference``) or ``labels_pred``'s; a
        one-sided reference is a perm side (docs/math.md#math-models)."""
        model = self.model
        if reference and self.one_sided:
            return MODELS["perm"]
        if isinstance(model, PerSide):
            return model.true if reference else model.pred
        return model

    def side(
        self, n: int, sizes: NDArray[np.int64] | None, k: int | None, *, reference: bool
    ) -> Side:
        """One side: ``reference`` for ``labels_true``, fixed when one-sided."""
        return self.model_of(reference=reference).side(n, sizes, k)

    def sides(self, n: int, sizes_true: NDArray[np.int64] | None, k_true: int | None,
              sizes_pred: NDArray[np.int64] | None, k_pred: int | None) -> tuple[Side, Side]:
        """The two sides (arguments validated)."""
        return (
            self.side(n, sizes_true, k_true, reference=True),
            self.side(n, sizes_pred, k_pred, reference=False),
        )

    def sides_by_k(self, n: int, k_true: int, k_pred: int) -> tuple[Side, Side] | None:
        """The two sides when neither needs sizes (two-sided num, all), else None: their
        values, E[MI] among them, then depend on (N, K_A, K_B) alone."""
        if any(self.model_of(reference=r).needs == "sizes" for r in (True, False)):
            return None
        return self.sides(n, None, k_true, None, k_pred)

    def sides_of_table(self, table: _Margins) -> tuple[Side, Side]:
        """The two sides of a table's clusterings."""
        return self.sides(
            table.n, table.row_sums, len(table.row_sums), table.col_sums, len(table.col_sums)
        )
