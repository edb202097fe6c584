"""The names of the families in huge_expectations.json and the calls they stand for.

One definition shared by the generator (make_huge_expectations.py), the tests
(tests/test_expectations_from_summaries.py) and the benchmark (benchmarks/huge_n.py).
A key is ``{model}_{rand|mi}_{one|two}_sided`` with, for num, ``_{K_A}_{K_B}``
(two-sided) or ``_{K_B}`` (one-sided, the reference's sizes ``sizes_true``).
"""

from __future__ import annotations


def big_k(n: int) -> int:
    """The largest K of num's families: mean cluster size 45 (just above log K + 2 at 2^63 - 1)."""
    return n // 45


def small_k(n: int) -> list[int]:
    """[K] of num with small clusters (mean size 10 at 10^6, 17 at 10^9), while K <= 10^8.

    The library's size-law route (its mixture ill-conditioned: K (1 - 1/K)^N = 4.5, 2.4);
    beyond K = 10^8 it raises, so from N ~ 2e9 this regime has no family.
    """
    k = n // 10 if n <= 10**6 else n // 17
    return [k] if k <= 10**8 else []


def two_sided_pairs(n: int) -> list[tuple[int, int]]:
    """(K_A, K_B) of the two-sided num families at n."""
    pairs = [(2, 2), (3, 1000), (1000, big_k(n)), (big_k(n), big_k(n)), (2, n - 1)]
    return pairs + [(3, k) for k in small_k(n)]


def one_sided_ks(n: int) -> list[int]:
    """K_B of the one-sided num families at n (the reference: sizes_true)."""
    return [2, 7, *([10**6] if n >= 10**9 else []), big_k(n), *small_k(n)]


def family_keys(n: int) -> set[str]:
    """Every key the references hold at n."""
    keys = {key("all", kind, side) for kind in ("rand", "mi") for side in (False, True)}
    for kind in ("rand", "mi"):
        keys |= {key("num", kind, False, ka, kb) for ka, kb in two_sided_pairs(n)}
        keys |= {key("num", kind, True, kb) for kb in one_sided_ks(n)}
    return keys


def key(model: str, kind: str, one_sided: bool, *ks: int) -> str:
    side = "one_sided" if one_sided else "two_sided"
    return "_".join([model, kind, side, *map(str, ks)])


def baseline_arguments(n: int, sizes: list[int], name: str) -> tuple[str, dict]:
    """("rand" or "mi", keyword arguments of expected_*_baseline) for a family's key."""
    model, kind, side, _, *ks = name.split("_")
    kwargs: dict = {"n": n, "model": model}
    if side == "one":
        kwargs.update(one_sided=True, sizes_true=sizes)
        if model == "num":
            kwargs["n_clusters_pred"] = int(ks[0])
    elif model == "num":
        kwargs.update(n_clusters_true=int(ks[0]), n_clusters_pred=int(ks[1]))
    return kind, kwargs
