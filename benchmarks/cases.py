"""Benchmark cases and their data, shared by run.py, worker.py and references/.

Needs numpy only (it is imported inside the peers' virtual environments too).
Every input is made from a fixed seed, so the process that times chanceclust,
the process that times a peer and the reference script all see the same labels.
"""

from __future__ import annotations

import numpy as np

SEED = 20170101

# ---------------------------------------------------------------------------
# data


def uniform_labels(n: int, k: int, seed: int) -> np.ndarray:
    """n i.i.d. uniform labels on 0..k-1 (int64)."""
    return np.random.default_rng(seed).integers(0, k, size=n, dtype=np.int64)


def zipf_sizes(n: int, k: int, s: float = 1.0) -> np.ndarray:
    """k cluster sizes summing to n, size of rank r proportional to 1/r**s (each >= 1)."""
    w = 1.0 / np.arange(1, k + 1, dtype=np.float64) ** s
    w /= w.sum()
    extra = n - k
    raw = w * extra
    sizes = np.floor(raw).astype(np.int64)
    short = extra - int(sizes.sum())
    order = np.argsort(-(raw - sizes), kind="stable")
    sizes[order[:short]] += 1
    return sizes + 1


def zipf_labels(n: int, k: int, seed: int, s: float = 1.0) -> np.ndarray:
    """Labels with Zipf-like cluster sizes, randomly permuted."""
    labels = np.repeat(np.arange(k, dtype=np.int64), zipf_sizes(n, k, s))
    return np.random.default_rng(seed).permutation(labels)


def reference_sizes(n: int, k: int, seed: int) -> np.ndarray:
    """Sizes of a fixed reference clustering with exactly k clusters:
    1 + multinomial(n - k, uniform on k) (so every cluster is non-empty)."""
    rng = np.random.default_rng(seed)
    return 1 + rng.multinomial(n - k, np.full(k, 1.0 / k)).astype(np.int64)


def make_labels(spec: dict) -> tuple[np.ndarray, np.ndarray]:
    """The two label arrays of a labels case."""
    n, ka, kb = spec["n"], spec["k_true"], spec["k_pred"]
    make = zipf_labels if spec.get("sizes") == "zipf" else uniform_labels
    return make(n, ka, SEED + 1), make(n, kb, SEED + 2)


def baseline_kwargs(spec: dict) -> dict:
    """Keyword arguments of expected_*_baseline for a baseline case."""
    n, k, model, one_sided = spec["n"], spec["k"], spec["model"], spec["one_sided"]
    kw: dict = {"model": model, "one_sided": one_sided}
    if one_sided:
        kw["sizes_true"] = reference_sizes(n, k, SEED + 3)
        if model == "num":
            kw["n_clusters_pred"] = k
    elif model == "num":
        kw["n_clusters_true"] = k
        kw["n_clusters_pred"] = k
    return kw


# ---------------------------------------------------------------------------
# the grid

E7 = 10**7


def _k_name(n: int, k: int) -> str:
    if k >= n - 10 and n > 10**4:
        return f"N-{n - k}"
    return f"{k:g}" if k < 10**4 else f"1e{int(round(np.log10(k)))}" if 10 ** round(np.log10(k)) == k else str(k)


def _n_name(n: int) -> str:
    e = int(round(np.log10(n)))
    return f"1e{e}" if 10**e == n else str(n)


def cases(quick: bool) -> list[dict]:
    """Every case of the run, in order. Keys: id, target, kind, params, peer."""
    out: list[dict] = []

    # 1. contingency table
    cont = [(10**5, 1000, 1000), (10**6, 1000, 1000)] if quick else [
        (10**5, 1000, 1000), (10**6, 1000, 1000), (E7, 1000, 1000), (E7, 100, 100),
        (E7, 10**5, 10**5)]
    for n, ka, kb in cont:
        sparse = ka * kb > 2**22
        out.append(dict(id=f"cont-N{_n_name(n)}-K{ka}x{kb}", target=1, kind="contingency",
                        n=n, k_true=ka, k_pred=kb, sparse=sparse, peer="sklearn"))

    # 2. perm AMI
    perm = [(10**5, 100, "uniform", True), (10**5, 100, "zipf", True), (10**6, 1000, "uniform", False)]
    if not quick:
        perm = [(10**6, 1000, "uniform", True), (10**6, 1000, "zipf", True),
                (E7, 1000, "uniform", "estimate"), (E7, 1000, "zipf", "estimate")]
    for n, k, sizes, peer in perm:
        out.append(dict(id=f"ami-perm-N{_n_name(n)}-K{k}-{sizes}", target=2, kind="ami",
                        n=n, k_true=k, k_pred=k, sizes=sizes, model="perm", one_sided=False,
                        peer="sklearn" if peer is True else ("estimate" if peer else None)))

    # 3a. num/all baselines
    ns_ks = [(E7, k) for k in (2, 10, 100, 1000, 10**4, E7 - 10, E7 - 1)]
    ns_ks += [(5000, 1000), (10**6, 2 * 10**5)]
    if quick:
        ns_ks = [(E7, 10), (E7, 10**4), (E7, E7 - 10), (5000, 1000)]
    for quantity in ("eri", "emi"):
        seen_all2: set[int] = set()
        for n, k in ns_ks:
            for model, one_sided in (("num", False), ("num", True), ("all", False), ("all", True)):
                if model == "all" and not one_sided:
                    if n in seen_all2:
                        continue  # two-sided all depends on N alone
                    seen_all2.add(n)
                side = "1s" if one_sided else "2s"
                kk = "any" if (model == "all" and not one_sided) else _k_name(n, k)
                out.append(dict(id=f"{quantity}-{model}-{side}-N{_n_name(n)}-K{kk}", target=3,
                                kind="baseline", quantity=quantity, n=n, k=k, model=model,
                                one_sided=one_sided, peer=None))

    # 3b. full AMI under num/all vs the contingency pass
    full = [(E7, 1000, "num", False)] if quick else [
        (E7, 1000, "num", False), (E7, 1000, "num", True), (E7, 1000, "all", False),
        (E7, 10, "num", False)]
    for n, k, model, one_sided in full:
        side = "1s" if one_sided else "2s"
        out.append(dict(id=f"ami-{model}-{side}-N{_n_name(n)}-K{k}-vs-pass", target=3,
                        kind="ami_vs_pass", n=n, k_true=k, k_pred=k, sizes="uniform",
                        model=model, one_sided=one_sided, peer="pass"))

    # 3c. clusim's num-model expected MI at small N
    small = [(40, 5, 5, False)] if quick else [(40, 5, 5, False), (100, 10, 10, False),
                                                (100, 5, 10, False), (100, 10, 10, True)]
    for n, ka, kb, one_sided in small:
        side = "1s" if one_sided else "2s"
        out.append(dict(id=f"emi-num-{side}-N{n}-K{ka}x{kb}-clusim", target=3, kind="clusim_emi",
                        n=n, k_true=ka, k_pred=kb, one_sided=one_sided, peer="clusim"))

    # 5. cold CLI
    out.append(dict(id="cli-compare-N1e6-K1000", target=5, kind="cli", n=10**6, k_true=1000,
                    k_pred=1000, peer=None))
    return out
