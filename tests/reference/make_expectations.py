#!/usr/bin/env python
"""Generate ``expectations.json``: independent reference values for chanceclust.

This script is the test oracle for the expected Rand index E[RI] and the expected
mutual information E[MI] (nats) under the random models ``perm``, ``num`` and
``all`` (Gates & Ahn, JMLR 2017), two-sided and one-sided, and for the measured
and chance-adjusted values (ARI, AMI) of concrete contingency tables.  It does
NOT import chanceclust: it only uses the Python standard library (exact
integers and ``fractions``) and mpmath.  Definitions and conventions follow
the project's ``docs/math.md``.

Two independent methods are used.

(a) Brute force, every N <= 7: all set partitions of N elements are enumerated
    (restricted growth strings; counts checked against S(n, k) and B_n from
    their recurrences) and the expectations are literal averages over the
    model's ensemble of pairs of clusterings:

    * perm: all clusterings with the given cluster-size sequence;
    * num: all clusterings with K clusters;
    * all: all clusterings;
    * one-sided: the reference is one fixed clustering with ``sizes_true``.

    E[RI] is averaged exactly with integers/fractions.  E[MI] is averaged
    exactly too: MI = log N + (1/N)(sum n_ij log n_ij - sum a log a - sum b log b),
    so the average is an exact rational combination of log(1), ..., log(N),
    evaluated with mpmath at 60 digits.

(b) The sums of docs/math.md (w(a) with exact Stirling/Bell integers, hypergeometric
    pmf from exact binomials) evaluated with mpmath at 60 digits, for every
    brute-force case and for larger N.  For N <= 7 the script asserts that (a)
    and (b) agree: E[RI] exactly (as fractions), E[MI] to 1e-40.

(c) For a subset of cases a concrete pair of labelings and its contingency
    table: measured RI, MI, H_A, H_B, NMI and ARI/AMI for every model,
    sidedness and average_method with docs/math.md's s_max rules.  Adjusted values
    whose denominator s_max - E is 0 (degenerate) are left out.

(d) The docs/math.md typo example (reference [0, 1, 1, 1], random num clustering
    with K = 2, one-sided E[MI] = 0.20921 nats; the paper's typo gives 0.0859).

Run from the repository root::

    python tests/reference/make_expectations.py

It writes ``tests/reference/expectations.json`` beside itself (under a minute
on one core).
"""

from __future__ import annotations

import json
import math
import platform
import random
import sys
import time
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared primitives: _exact.py
from _exact import bell, set_partitions, stirling2  # noqa: E402  # recurrences, independent of the enumeration below
from mpmath import mp, mpf

DPS = 60  # working precision of mpmath (decimal digits)
DIGITS = 40  # significant digits written to the JSON
BRUTE_MAX_N = 7
SERIES_NS = (8, 10, 15, 20, 30, 45, 60, 80, 100)
MODELS = ("perm", "num", "all")
SIDES = ("two_sided", "one_sided")
AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")
SEED = 20170101

mp.dps = DPS


# ----------------------------------------------------------------------------
# Exact special numbers (recurrences, independent of the enumeration below)
# ----------------------------------------------------------------------------
def _warm_caches(nmax: int) -> None:
    # Fill the caches, and check the triangle against Bell's: sum_k S(n, k) = B_n.
    for n in range(nmax + 1):
        bell(n)
        for k in range(n + 1):
            stirling2(n, k)
    for n in range(nmax + 1):
        assert sum(stirling2(n, k) for k in range(n + 1)) == bell(n), n


def tostr(x) -> str:
    """A number as a decimal string with DIGITS significant digits."""
    if isinstance(x, Fraction):
        x = mpf(x.numerator) / x.denominator
    return mpmath.nstr(mpf(x), DIGITS, min_fixed=-5, max_fixed=5, strip_zeros=False)


def mpfrac(f: Fraction):
    return mpf(f.numerator) / f.denominator


# ----------------------------------------------------------------------------
# Clusterings
# ----------------------------------------------------------------------------
def sizes_of(labels) -> tuple[int, ...]:
    return tuple(sorted(Counter(labels).values(), reverse=True))


def integer_partitions(n: int, largest: int | None = None):
    """Size sequences (non-increasing tuples) summing to n."""
    if largest is None:
        largest = n
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in integer_partitions(n - first, first):
            yield (first, *rest)


def canonical_labels(sizes) -> tuple[int, ...]:
    """Consecutive blocks: sizes (3, 1) -> (0, 0, 0, 1)."""
    out: list[int] = []
    for i, s in enumerate(sizes):
        out.extend([i] * s)
    return tuple(out)


def n_with_sizes(sizes) -> int:
    """Number of set partitions with the given size sequence."""
    n = sum(sizes)
    den = 1
    for s in sizes:
        den *= math.factorial(s)
    for m in Counter(sizes).values():
        den *= math.factorial(m)
    return math.factorial(n) // den


class Enumeration:
    """All set partitions of N, grouped by number of clusters and by sizes."""

    def __init__(self, n: int):
        self.n = n
        self.all = list(set_partitions(n))
        assert len(self.all) == bell(n), (n, len(self.all))
        self.by_k: dict[int, list] = {}
        self.by_sizes: dict[tuple, list] = {}
        for p in self.all:
            self.by_k.setdefault(max(p) + 1, []).append(p)
            self.by_sizes.setdefault(sizes_of(p), []).append(p)
        assert len(set(self.all)) == len(self.all)
        for k in range(1, n + 1):
            assert len(self.by_k[k]) == stirling2(n, k), (n, k)
        assert set(self.by_sizes) == set(integer_partitions(n))
        for sz, ps in self.by_sizes.items():
            assert len(ps) == n_with_sizes(sz), (n, sz)

    def ensemble(self, key):
        kind, arg = key
        if kind == "perm":
            return self.by_sizes[arg]
        if kind == "num":
            return self.by_k[arg]
        if kind == "all":
            return self.all
        if kind == "fixed":
            return [canonical_labels(arg)]
        raise AssertionError(key)


@lru_cache(maxsize=None)
def _enum(n: int) -> Enumeration:
    return Enumeration(n)


@lru_cache(maxsize=None)
def brute_force(n: int, key_a, key_b):
    """Literal average of RI and MI over the independent pairs (A, B).

    Returns (E[RI] as Fraction, E[MI] as mpf, coefficient dict {k: Fraction}
    such that E[MI] = log N + sum_k c_k log k).
    """
    en = _enum(n)
    ens_a = en.ensemble(key_a)
    ens_b = en.ensemble(key_b)
    m = len(ens_a) * len(ens_b)
    pairs = math.comb(n, 2)
    joint_hist: Counter = Counter()  # value v -> number of cells n_ij == v over all pairs
    marg_a: Counter = Counter()
    marg_b: Counter = Counter()
    sum_n11 = 0
    sum_qa = 0
    sum_qb = 0
    for a in ens_a:
        ca = Counter(a).values()
        qa = sum(v * (v - 1) // 2 for v in ca)
        for b in ens_b:
            cells = Counter(zip(a, b)).values()
            for v in cells:
                joint_hist[v] += 1
                sum_n11 += v * (v - 1) // 2
            for v in ca:
                marg_a[v] += 1
            sum_qa += qa
            for v in Counter(b).values():
                marg_b[v] += 1
                sum_qb += v * (v - 1) // 2
    e_ri = Fraction(m * pairs + 2 * sum_n11 - sum_qa - sum_qb, m * pairs)
    coef: dict[int, Fraction] = {}
    for hist, sign in ((joint_hist, 1), (marg_a, -1), (marg_b, -1)):
        for v, c in hist.items():
            if v > 1:
                coef[v] = coef.get(v, Fraction(0)) + Fraction(sign * c * v, n * m)
    e_mi = mp.log(n) + mp.fsum(mpfrac(c) * mp.log(k) for k, c in coef.items())
    return e_ri, e_mi, coef


# ----------------------------------------------------------------------------
# (b) docs/math.md's sums
# ----------------------------------------------------------------------------
def w_fixed(sizes) -> dict[int, Fraction]:
    return {a: Fraction(c) for a, c in Counter(sizes).items()}


@lru_cache(maxsize=None)
def w_num(n: int, k: int) -> dict[int, Fraction]:
    s = stirling2(n, k)
    return {a: Fraction(math.comb(n, a) * stirling2(n - a, k - 1), s) for a in range(1, n - k + 2)}


@lru_cache(maxsize=None)
def w_all(n: int) -> dict[int, Fraction]:
    b = bell(n)
    return {a: Fraction(math.comb(n, a) * bell(n - a), b) for a in range(1, n + 1)}


def weights(n: int, key) -> dict[int, Fraction]:
    kind, arg = key
    if kind in ("perm", "fixed"):
        w = w_fixed(arg)
    elif kind == "num":
        w = w_num(n, arg)
    else:
        w = w_all(n)
    # sanity: the expected sizes add up to N
    assert sum(a * c for a, c in w.items()) == n, (n, key)
    return {a: c for a, c in w.items() if c}


def p_same(n: int, key) -> Fraction:
    kind, arg = key
    pairs = math.comb(n, 2)
    if kind in ("perm", "fixed"):
        return Fraction(sum(math.comb(s, 2) for s in arg), pairs)
    if kind == "num":
        return Fraction(stirling2(n - 1, arg), stirling2(n, arg))
    return Fraction(bell(n - 1), bell(n))


@lru_cache(maxsize=None)
def phi(n: int, x: int):
    """(x/N) log(x/N) at DPS digits."""
    return mpf(x) / n * mp.log(mpf(x) / n)


@lru_cache(maxsize=None)
def hyper_phi(n: int, a: int, b: int):
    """sum_x h(x; N, a, b) phi(x), h the hypergeometric pmf (exact binomials)."""
    if a > b:
        return hyper_phi(n, b, a)
    den = math.comb(n, a)
    total = mpf(0)
    for x in range(max(1, a + b - n), min(a, b) + 1):
        num = math.comb(b, x) * math.comb(n - b, a - x)
        total += mpf(num) / den * phi(n, x)
    return total


def series_ri(n: int, key_a, key_b) -> Fraction:
    pa, pb = p_same(n, key_a), p_same(n, key_b)
    return pa * pb + (1 - pa) * (1 - pb)


def series_entropy(n: int, key):
    return -mp.fsum(mpfrac(c) * phi(n, a) for a, c in weights(n, key).items())


def series_mi(n: int, key_a, key_b, *, typo: bool = False):
    wa, wb = weights(n, key_a), weights(n, key_b)
    h_joint = -mp.fsum(
        mpfrac(ca) * mpfrac(cb) * hyper_phi(n, a, b) for a, ca in wa.items() for b, cb in wb.items()
    )
    h_b = series_entropy(n, key_b)
    if typo:
        # the paper's eqs. 36/38: the random side's entropy sum stops at a = K
        k = key_b[1]
        h_b = -mp.fsum(mpfrac(c) * phi(n, a) for a, c in wb.items() if a <= k)
    return series_entropy(n, key_a) + h_b - h_joint


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------
def model_keys(model: str, side: str, sizes_true, sizes_pred):
    k_true, k_pred = len(sizes_true), len(sizes_pred)
    if model == "perm":
        key_b = ("perm", tuple(sizes_pred))
    elif model == "num":
        key_b = ("num", k_pred)
    else:
        key_b = ("all", None)
    if side == "one_sided":
        key_a = ("fixed", tuple(sizes_true))
    elif model == "perm":
        key_a = ("perm", tuple(sizes_true))
    elif model == "num":
        key_a = ("num", k_true)
    else:
        key_a = ("all", None)
    return key_a, key_b


def case_id(n, sizes_true, sizes_pred) -> str:
    def fmt(s):
        return _compact(s) if len(s) > 6 else "-".join(map(str, s))

    return f"N{n}_t{fmt(sizes_true)}_p{fmt(sizes_pred)}"


def _compact(s) -> str:
    """(5, 3, 3, 1, 1, 1, 1) -> '5-3x2-1x4'."""
    parts = []
    for k, v in sorted(Counter(s).items(), reverse=True):
        parts.append(f"{k}x{v}" if v > 1 else f"{k}")
    return "-".join(parts)


def family_sizes(n: int) -> dict[str, tuple[int, ...]]:
    """Representative size sequences for a larger N."""

    def balanced(k):
        q, r = divmod(n, k)
        return tuple([q + 1] * r + [q] * (k - r))

    def zipf(k):
        w = [1 / r for r in range(1, k + 1)]
        tot = sum(w)
        sz = [max(1, int(n * x / tot)) for x in w]
        i = 0
        while sum(sz) < n:
            sz[i % k] += 1
            i += 1
        while sum(sz) > n:
            j = max(range(k), key=lambda t: sz[t])
            sz[j] -= 1
        return tuple(sorted(sz, reverse=True))

    fam = {
        "trivial": (n,),
        "singletons": (1,) * n,
        "k_n_minus_1": (2,) + (1,) * (n - 2),
        "two_balanced": balanced(2),
        "two_unbalanced": (n - 1, 1),
        "equal_small_k": balanced(max(3, round(math.sqrt(n)))),
        "equal_large_k": balanced(max(3, n // 3)),
        "giant_singletons": (n - 5,) + (1,) * 5,
        "zipf": zipf(max(3, n // 5)),
    }
    for key, s in fam.items():
        assert sum(s) == n and min(s) >= 1, (key, s)
    return fam


SERIES_PAIRS = (
    ("equal_small_k", "zipf"),
    ("zipf", "equal_small_k"),
    ("giant_singletons", "two_balanced"),
    ("trivial", "equal_small_k"),
    ("equal_large_k", "trivial"),
    ("singletons", "zipf"),
    ("k_n_minus_1", "two_unbalanced"),
    ("two_balanced", "singletons"),
    ("equal_large_k", "equal_small_k"),
    ("zipf", "zipf"),
    ("trivial", "singletons"),
)


def all_cases():
    cases = []
    for n in range(2, BRUTE_MAX_N + 1):
        parts = list(integer_partitions(n))
        for st in parts:
            for sp in parts:
                cases.append((n, st, sp, "brute_force"))
    for n in SERIES_NS:
        fam = family_sizes(n)
        seen = set()
        for ft, fp in SERIES_PAIRS:
            pair = (fam[ft], fam[fp])
            if pair in seen:
                continue
            seen.add(pair)
            cases.append((n, pair[0], pair[1], "series"))
    return cases


def expectations_for(n, st, sp, method, check_log):
    out = {}
    for model in MODELS:
        out[model] = {}
        for side in SIDES:
            ka, kb = model_keys(model, side, st, sp)
            ri_s = series_ri(n, ka, kb)
            mi_s = series_mi(n, ka, kb)
            entry = {}
            if method == "brute_force":
                ri_b, mi_b, _ = brute_force(n, ka, kb)
                assert ri_b == ri_s, (n, st, sp, model, side, ri_b, ri_s)
                diff = abs(mi_b - mi_s)
                assert diff < mpf("1e-40"), (n, st, sp, model, side, mi_b, mi_s)
                check_log["max_abs_diff_mi"] = max(check_log["max_abs_diff_mi"], diff)
                check_log["n_ri_exact_equal"] += 1
                check_log["n_mi_checked"] += 1
                ri, mi = ri_b, mi_b
            else:
                ri, mi = ri_s, mi_s
            entry["rand"] = tostr(ri)
            entry["rand_fraction"] = f"{ri.numerator}/{ri.denominator}"
            entry["mi"] = tostr(mi)
            out[model][side] = entry
            out[model][side]["_values"] = (ri, mi)
        if model == "perm":
            # one-sided perm equals two-sided perm (checked, exactly for RI)
            a, b = out["perm"]["two_sided"]["_values"], out["perm"]["one_sided"]["_values"]
            assert a[0] == b[0] and abs(a[1] - b[1]) < mpf("1e-45"), (n, st, sp)
    return out


# ----------------------------------------------------------------------------
# (c) concrete tables
# ----------------------------------------------------------------------------
def contingency(labels_true, labels_pred):
    rows = sorted(set(labels_true))
    cols = sorted(set(labels_pred))
    ri = {v: i for i, v in enumerate(rows)}
    ci = {v: j for j, v in enumerate(cols)}
    t = [[0] * len(cols) for _ in rows]
    for x, y in zip(labels_true, labels_pred):
        t[ri[x]][ci[y]] += 1
    return t


def entropy_of_sizes(sizes, n):
    return -mp.fsum(mpf(s) / n * mp.log(mpf(s) / n) for s in sizes if s)


def fmean(method, u, v):
    if method == "min":
        return min(u, v)
    if method == "geometric":
        return mp.sqrt(u * v)
    if method == "arithmetic":
        return (u + v) / 2
    if method == "max":
        return max(u, v)
    raise AssertionError(method)


def mi_bounds(model, side, h_a, h_b, k_a, k_b, n):
    """(u, v) of docs/math.md's s_max rule."""
    if model == "perm":
        return h_a, h_b
    rand_bound = {"num": lambda k: mp.log(k), "all": lambda k: mp.log(n)}[model]
    if side == "one_sided":
        return h_a, rand_bound(k_b)
    return rand_bound(k_a), rand_bound(k_b)


def table_entry(n, st, sp, variant, rng, expect):
    la = list(canonical_labels(st))
    lb = list(canonical_labels(sp))
    if variant == "shuffled":
        rng.shuffle(lb)
    elif variant == "reversed":
        lb = lb[::-1]
    # relabel: arbitrary label values (tests pass the table and the labels)
    la = [10 * v + 3 for v in la]
    lb = [7 - v for v in lb]
    table = contingency(la, lb)
    assert sorted((sum(r) for r in table), reverse=True) == list(st)
    assert sorted((sum(c) for c in zip(*table)), reverse=True) == list(sp)
    cells = [x for r in table for x in r]
    pairs = math.comb(n, 2)
    n11 = sum(math.comb(x, 2) for x in cells)
    qa = sum(math.comb(s, 2) for s in st)
    qb = sum(math.comb(s, 2) for s in sp)
    # RI also by literal pair counting on the labels
    agree = sum(
        (la[i] == la[j]) == (lb[i] == lb[j]) for i in range(n) for j in range(i + 1, n)
    )
    ri = Fraction(pairs + 2 * n11 - qa - qb, pairs)
    assert ri == Fraction(agree, pairs)
    h_a = entropy_of_sizes(st, n)
    h_b = entropy_of_sizes(sp, n)
    h_ab = entropy_of_sizes(cells, n)
    mi = h_a + h_b - h_ab
    # MI also as sum n_ij/N log(N n_ij / (a_i b_j))
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table)]
    mi2 = mp.fsum(
        mpf(x) / n * mp.log(mpf(n) * x / (rows[i] * cols[j]))
        for i, r in enumerate(table)
        for j, x in enumerate(r)
        if x
    )
    assert abs(mi - mi2) < mpf("1e-50")
    if mi < 0:
        assert mi > mpf("-1e-55")
        mi = mpf(0)
    measured = {
        "rand": tostr(ri),
        "rand_fraction": f"{ri.numerator}/{ri.denominator}",
        "mi": tostr(mi),
        "h_true": tostr(h_a),
        "h_pred": tostr(h_b),
        "nmi": {},
    }
    for am in AVERAGE_METHODS:
        den = fmean(am, h_a, h_b)
        if abs(den) > mpf("1e-50"):
            measured["nmi"][am] = tostr(mi / den)
    adjusted: dict = {}
    skipped = []
    for model in MODELS:
        adjusted[model] = {}
        for side in SIDES:
            e_ri, e_mi = expect[model][side]["_values"]
            ent = {}
            if e_ri != 1:
                ari = (ri - e_ri) / (1 - e_ri)
                ent["ari"] = {
                    "value": tostr(ari),
                    "value_fraction": f"{ari.numerator}/{ari.denominator}",
                    "s": tostr(ri),
                    "expected": tostr(e_ri),
                    "s_max": "1",
                }
            else:
                skipped.append(f"{model}/{side}/ari")
            ent["ami"] = {}
            u, v = mi_bounds(model, side, h_a, h_b, len(st), len(sp), n)
            for am in AVERAGE_METHODS:
                smax = fmean(am, u, v)
                den = smax - e_mi
                if abs(den) < mpf("1e-45"):
                    skipped.append(f"{model}/{side}/ami/{am}")
                    continue
                ent["ami"][am] = {
                    "value": tostr((mi - e_mi) / den),
                    "s": tostr(mi),
                    "expected": tostr(e_mi),
                    "s_max": tostr(smax),
                }
            adjusted[model][side] = ent
    return {
        "id": f"{case_id(n, st, sp)}_{variant}",
        "n": n,
        "sizes_true": list(st),
        "sizes_pred": list(sp),
        "variant": variant,
        "labels_true": la,
        "labels_pred": lb,
        "contingency": table,
        "measured": measured,
        "adjusted": adjusted,
        "skipped_degenerate": skipped,
    }


def choose_table_cases(cases, rng):
    """Which cases get concrete tables, and in which arrangements.

    Every case for N <= 4; for N = 5..7 a seeded sample favouring the trivial
    (K = 1) and all-singletons (K = N) sides; for larger N six of the cases of
    each N, alternately aligned (blocks in the same order) and shuffled.
    """
    chosen = []
    per_n: Counter = Counter()
    for n, st, sp, method in cases:
        if method == "series":
            if per_n[n] < 6:
                chosen.append((n, st, sp, ("aligned", "shuffled")[per_n[n] % 2]))
            per_n[n] += 1
        elif n <= 4:
            chosen.append((n, st, sp, "shuffled"))
        else:
            special = len(st) in (1, n) or len(sp) in (1, n)
            if rng.random() < (0.3 if special else 0.1):
                chosen.append((n, st, sp, "shuffled" if rng.random() < 0.7 else "aligned"))
    return chosen


def typo_example():
    n, sizes_g, k = 4, (3, 1), 2
    # reference G = [0, 1, 1, 1]: one cluster of size 1 and one of size 3
    g = (0, 1, 1, 1)
    assert sizes_of(g) == sizes_g
    en = _enum(n)
    # literal enumeration with the actual G (not the canonical arrangement)
    tot = mpf(0)
    for b in en.by_k[k]:
        cells = Counter(zip(g, b)).values()
        h = lambda vals: -mp.fsum(mpf(v) / n * mp.log(mpf(v) / n) for v in vals)  # noqa: E731
        tot += h(Counter(g).values()) + h(Counter(b).values()) - h(cells)
    e_mi = tot / len(en.by_k[k])
    ka, kb = ("fixed", sizes_g), ("num", k)
    assert abs(e_mi - brute_force(n, ka, kb)[1]) < mpf("1e-50")
    assert abs(e_mi - series_mi(n, ka, kb)) < mpf("1e-50")
    assert mpmath.nstr(e_mi, 5) == "0.20921", e_mi
    typo = series_mi(n, ka, kb, typo=True)
    assert mpmath.nstr(typo, 3) == "0.0859", typo
    return {
        "description": "MATH.md typo example: reference G = [0, 1, 1, 1], random num clustering "
        "with K = 2 (one-sided); enumerated over the S(4, 2) = 7 clusterings",
        "n": n,
        "labels_true": list(g),
        "sizes_true": list(sizes_g),
        "n_clusters_pred": k,
        "model": "num",
        "one_sided": True,
        "mi": tostr(e_mi),
        "mi_with_paper_typo": tostr(typo),
    }


def strip_private(obj):
    if isinstance(obj, dict):
        return {k: strip_private(v) for k, v in obj.items() if not k.startswith("_")}
    if isinstance(obj, list):
        return [strip_private(v) for v in obj]
    return obj


def main() -> int:
    t0 = time.perf_counter()
    _warm_caches(max(SERIES_NS) + 1)
    rng = random.Random(SEED)
    cases = all_cases()
    check_log = {"max_abs_diff_mi": mpf(0), "n_ri_exact_equal": 0, "n_mi_checked": 0}
    out_cases = []
    expect_by = {}
    for n, st, sp, method in cases:
        ex = expectations_for(n, st, sp, method, check_log)
        expect_by[(n, st, sp)] = ex
        out_cases.append(
            {
                "id": case_id(n, st, sp),
                "n": n,
                "sizes_true": list(st),
                "sizes_pred": list(sp),
                "method": method,
                "expectations": ex,
            }
        )
    t_exp = time.perf_counter() - t0
    tables = [
        table_entry(n, st, sp, variant, rng, expect_by[(n, st, sp)])
        for n, st, sp, variant in choose_table_cases(cases, rng)
    ]
    typo = typo_example()
    runtime = time.perf_counter() - t0
    n_brute = sum(c[3] == "brute_force" for c in cases)
    header = {
        "description": "Independent reference values for chanceclust: E[RI] and E[MI] (nats) "
        "under the perm/num/all random models, two-sided and one-sided (reference = "
        "sizes_true / labels_true), and measured/adjusted values of concrete tables.",
        "generated_by": "tests/reference/make_expectations.py (stdlib + fractions + mpmath; "
        "does not import chanceclust)",
        "command": "python tests/reference/make_expectations.py",
        "conventions": "MATH.md: natural logs; s_max for AMI: perm f(H_A,H_B), num "
        "f(log K_A, log K_B), all log N; one-sided keeps H(G) for the reference and uses "
        "log K_pred (num) or log N (all) for the random side. Adjusted values with "
        "s_max - E == 0 are omitted (listed in skipped_degenerate).",
        "methods": {
            "brute_force": "N <= 7: literal average over all pairs of the model's ensembles "
            "(set partitions enumerated; RI exact rational; MI exact rational combination of "
            "logs evaluated at 60 digits), checked against the series",
            "series": "MATH.md sums with exact Stirling/Bell integers and binomials, mpmath "
            f"{DPS} digits",
        },
        "value_format": f"decimal strings with {DIGITS} significant digits; *_fraction are exact",
        "mpmath_dps": DPS,
        "python": platform.python_version(),
        "mpmath": mpmath.__version__,
        "seed": SEED,
        "counts": {
            "cases": len(cases),
            "brute_force_cases": n_brute,
            "series_cases": len(cases) - n_brute,
            "tables": len(tables),
        },
        "self_check": {
            "ri_brute_equals_series_exactly": check_log["n_ri_exact_equal"],
            "mi_brute_vs_series_checked": check_log["n_mi_checked"],
            "mi_brute_vs_series_max_abs_diff": mpmath.nstr(check_log["max_abs_diff_mi"], 5),
            "mi_tolerance_asserted": "1e-40",
        },
        "runtime_seconds": round(runtime, 1),
        "runtime_expectations_seconds": round(t_exp, 1),
    }
    doc = {
        "header": header,
        "cases": strip_private(out_cases),
        "tables": tables,
        "typo_example": typo,
    }
    path = Path(__file__).with_name("expectations.json")
    path.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(header, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
