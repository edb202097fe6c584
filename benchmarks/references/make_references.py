"""High-precision reference values for the benchmark, independent of chanceclust.

Usage:  python benchmarks/references/make_references.py [--only SUBSTRING ...]
Writes benchmarks/references/references.json (case id -> decimal string, ~30 digits),
merging into what is already there.

Methods (mpmath at 40-1300 digits, exact Python integers where they are cheap):
- hypergeometric sums: J(a, b) = sum_n h(n; N, a, b) (n/N) log(n/N), h started at its
  mode from log-gamma and extended both ways by the exact ratio recurrence until the
  terms fall below 1e-45 of the running sum; E[MI] = E[H(A)] + E[H(B)] - E[H(A,B)]
  with the weights w(a) of MATH.md (at 40+ digits the cancellation is harmless).
- num model: S(n, k) = k^n T(n, k) / k! with T(n, k) = sum_j (-1)^j C(k, j) (1 - j/k)^n
  evaluated in mpmath with enough guard digits for its cancellation (about
  k exp(-n/k) / ln 10 digits); for K close to N, exact S(n, n - d) from the
  second-order Eulerian numbers, S(n, n-d) = sum_k <<d, k>> C(n + d - 1 - k, 2d).
- all model: Dobinski, B_{N-a}/B_N = E[k^-a] with P(k) proportional to k^N / k!,
  summed over a window of k around the mode holding all but e^-110 of the mass.
- perm: sizes and the mutual information from the same labels (exact integer counts);
  when both size multisets are equal (Zipf cases: same sizes, different permutations)
  the size-pair double sum runs over unordered pairs only (symmetric=True).
Self-checks against exact Stirling/Bell integers at small sizes, and of the perm sums
against exact full-support hypergeometric sums and brute-force enumeration, run first.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from functools import lru_cache

import mpmath as mp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import cases  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "reference"))
from _exact import bell, stirling2, stirling2_near_diagonal  # noqa: E402  (shared primitives)

OUT = os.path.join(HERE, "references.json")
mp.mp.dps = 60
EPS = mp.mpf(10) ** -48


# ---------------------------------------------------------------- exact small oracles
# ---------------------------------------------------------------- hypergeometric
@lru_cache(maxsize=None)
def _log_factorial_at(n: int, prec: int):
    with mp.workprec(prec):
        return mp.loggamma(n + 1)


def log_factorial(n: int):
    """log n! at the current precision, cached (used for the terms that depend on the
    sizes only: log N!, log a!, log (N-a)!, ... recur across the size pairs, and about
    half of joint_term's time at N = 1e7 went to recomputing them)."""
    return _log_factorial_at(n, mp.mp.prec)


def joint_term(N: int, a: int, b: int, *, lf=log_factorial):
    """sum_n h(n; N, a, b) * (n/N) log(n/N) over n >= 1 (lf: log n! of the size-only terms)."""
    lo, hi = max(0, a + b - N), min(a, b)
    m = min(max((a + 1) * (b + 1) // (N + 2), lo), hi)
    lh = (lf(b) - mp.loggamma(m + 1) - mp.loggamma(b - m + 1)
          + lf(N - b) - mp.loggamma(a - m + 1) - mp.loggamma(N - b - a + m + 1)
          - lf(N) + lf(a) + lf(N - a))
    hm = mp.exp(lh)
    Nf = mp.mpf(N)
    total = mp.mpf(0)
    mass = hm

    def phi(n):
        return (n / Nf) * mp.log(n / Nf) if n > 0 else mp.mpf(0)

    total += hm * phi(m)
    h, n = hm, m
    while n < hi:  # upward
        h = h * (a - n) * (b - n) / ((n + 1) * (N - a - b + n + 1))
        n += 1
        total += h * phi(n)
        mass += h
        if h < EPS * mass:
            break
    h, n = hm, m
    while n > lo:  # downward
        h = h * n * (N - a - b + n) / ((a - n + 1) * (b - n + 1))
        n -= 1
        total += h * phi(n)
        mass += h
        if h < EPS * mass:
            break
    assert abs(mass - 1) < mp.mpf(10) ** -40, (N, a, b, mass)
    return total


def expected_mi(N: int, wa: dict, wb: dict, *, symmetric: bool = False):
    """E[MI] from size weights (dicts size -> expected number of clusters)."""
    Nf = mp.mpf(N)

    def h_side(w):
        return -mp.fsum(c * (s / Nf) * mp.log(s / Nf) for s, c in w.items())

    ha, hb = h_side(wa), h_side(wb)
    acc = []
    sa, sb = sorted(wa), sorted(wb)
    if symmetric:
        for i, a in enumerate(sa):
            for b in sa[i:]:
                f = 1 if a == b else 2
                acc.append(f * wa[a] * wa[b] * joint_term(N, a, b))
    else:
        for a in sa:
            for b in sb:
                acc.append(wa[a] * wb[b] * joint_term(N, a, b))
    hab = -mp.fsum(acc)
    return ha + hb - hab


# ---------------------------------------------------------------- num model
def T(n: int, k: int):
    """P(n i.i.d. uniform labels on k values use all of them), at the current precision."""
    if k == 1:
        return mp.mpf(1) if n >= 1 else mp.mpf(0)
    terms = []
    c = mp.mpf(1)
    for j in range(0, k + 1):
        if j > 0:
            c = c * (k - j + 1) / j
        t = c * (mp.mpf(k - j) / k) ** n
        terms.append(t if j % 2 == 0 else -t)
        if j > 3 and t < mp.mpf(10) ** (-mp.mp.dps - 5) and k * math.exp(-n * j / k) < 1e-300:
            break
    return mp.fsum(terms)


def guard_digits(n: int, k: int) -> int:
    return 50 + int(2 * k * math.exp(-n / k) / math.log(10))


def near_n(N: int, K: int) -> bool:
    return N - K <= 12 and N > 200


def num_p_same(N: int, K: int):
    if K == 1:
        return mp.mpf(1)
    if near_n(N, K):
        return mp.mpf(stirling2_near_diagonal(N - 1, N - 1 - K)) / stirling2_near_diagonal(N, N - K)
    with mp.workdps(guard_digits(N, K)):
        r = T(N - 1, K) / (K * T(N, K))
    return +r


@lru_cache(maxsize=None)
def num_weights(N: int, K: int) -> dict:
    """w(a) = C(N,a) S(N-a, K-1) / S(N, K), a around its bulk (tails < 1e-45 dropped)."""
    w: dict = {}
    if near_n(N, K):
        s = stirling2_near_diagonal(N, N - K)
        for a in range(1, N - K + 2):
            w[a] = mp.mpf(math.comb(N, a) * stirling2_near_diagonal(N - a, N - a - K + 1)) / s
        return w
    if N <= 400:
        s = stirling2(N, K)
        for a in range(1, N - K + 2):
            w[a] = mp.mpf(math.comb(N, a) * stirling2(N - a, K - 1)) / s
        return w
    # w(a) = K * Binom(a; N, 1/K) * T(N-a, K-1) / T(N, K)
    with mp.workdps(guard_digits(N, K)):
        tn = T(N, K)
        cache = {}

        def weight(a):
            lb = (mp.loggamma(N + 1) - mp.loggamma(a + 1) - mp.loggamma(N - a + 1)
                  - a * mp.log(K) + (N - a) * mp.log(mp.mpf(K - 1) / K))
            return K * mp.exp(lb) * T(N - a, K - 1) / tn

        mode = max(1, N // K)
        a = mode
        peak = None
        while a <= N - K + 1:
            v = weight(a)
            cache[a] = v
            peak = v if peak is None or v > peak else peak
            if v < EPS * peak and a > mode:
                break
            a += 1
        a = mode - 1
        while a >= 1:
            v = weight(a)
            cache[a] = v
            if v < EPS * peak:
                break
            a -= 1
    return {a: +v for a, v in cache.items()}


# ---------------------------------------------------------------- all model
def dobinski(N: int):
    """(ks, probabilities) of P(k) ~ k^N / k! over a window holding all but e^-110."""
    # mode: N log(1 + 1/k) = log(k + 1)
    lo, hi = 1.0, float(N) + 1
    for _ in range(200):
        mid = (lo + hi) / 2
        if N * math.log1p(1 / mid) > math.log(mid + 1):
            lo = mid
        else:
            hi = mid
    mode = int(lo)
    with mp.workdps(60):
        def lp(k):
            return N * mp.log(k) - mp.loggamma(k + 1)
        top = lp(mode)
        vals = {}
        k = mode
        while True:
            v = lp(k) - top
            vals[k] = v
            if v < -110:
                break
            k += 1
        k = mode - 1
        while k >= 1:
            v = lp(k) - top
            vals[k] = v
            if v < -110:
                break
            k -= 1
        ks = sorted(vals)
        ps = [mp.exp(vals[k]) for k in ks]
        z = mp.fsum(ps)
        ps = [p / z for p in ps]
    return ks, ps


@lru_cache(maxsize=None)
def all_weights_and_p(N: int):
    if N <= 400:
        bn = bell(N)
        w = {a: mp.mpf(math.comb(N, a) * bell(N - a)) / bn for a in range(1, N + 1)}
        return w, mp.mpf(bell(N - 1)) / bn
    ks, ps = dobinski(N)
    p_same = mp.fsum(p / k for k, p in zip(ks, ps))
    w = {}
    peak = None
    for a in range(1, N + 1):
        v = mp.binomial(N, a) * mp.fsum(p * mp.mpf(k) ** (-a) for k, p in zip(ks, ps))
        w[a] = v
        peak = v if peak is None or v > peak else peak
        if v < EPS * peak and a > 3:
            break
    return w, p_same


# ---------------------------------------------------------------- cases
def pairs_prob(sizes) -> mp.mpf:
    q = sum(int(s) * (int(s) - 1) // 2 for s in sizes)
    return mp.mpf(q) / (mp.mpf(len_total(sizes)) * (len_total(sizes) - 1) / 2)


def len_total(sizes) -> int:
    return int(sum(int(s) for s in sizes))


def counts(sizes) -> dict:
    return {int(s): mp.mpf(c) for s, c in Counter(int(x) for x in sizes).items()}


def ref_baseline(case: dict):
    N, K, model, one_sided, q = case["n"], case["k"], case["model"], case["one_sided"], case["quantity"]
    g = cases.reference_sizes(N, K, cases.SEED + 3) if one_sided else None
    if model == "num":
        if q == "eri":
            pa = num_p_same(N, K)
            pb = pairs_prob(g) if one_sided else pa
            return pa * pb + (1 - pa) * (1 - pb)
        w = num_weights(N, K)
        if one_sided:
            return expected_mi(N, counts(g), w)
        return expected_mi(N, w, w, symmetric=True)
    w, pa = all_weights_and_p(N)
    if q == "eri":
        pb = pairs_prob(g) if one_sided else pa
        return pa * pb + (1 - pa) * (1 - pb)
    if one_sided:
        return expected_mi(N, counts(g), w)
    return expected_mi(N, w, w, symmetric=True)


def ref_ami(case: dict) -> dict:
    a, b = cases.make_labels(case)
    N = case["n"]
    sa, sb = np.bincount(a), np.bincount(b)
    sa, sb = sa[sa > 0], sb[sb > 0]
    cell = np.bincount(a * (int(b.max()) + 1) + b)
    cell = cell[cell > 0]
    Nf = mp.mpf(N)

    def plogp(cnt):
        return mp.fsum(c * (s / Nf) * mp.log(s / Nf) for s, c in cnt.items())

    ca, cb = counts(sa), counts(sb)
    ha, hb = -plogp(ca), -plogp(cb)
    hab = -plogp(counts(cell))
    mi = ha + hb - hab
    # equal size multisets (e.g. both Zipf): sum over unordered size pairs only
    emi = expected_mi(N, ca, cb, symmetric=(ca == cb))
    ami = (mi - emi) / ((ha + hb) / 2 - emi)
    return {"emi": emi, "ami": ami, "mi": mi}


def ref_clusim(case: dict):
    N = case["n"]
    if case["one_sided"]:
        g = cases.reference_sizes(N, case["k_true"], cases.SEED + 3)
        return expected_mi(N, counts(g), num_weights(N, case["k_pred"]))
    return expected_mi(N, num_weights(N, case["k_true"]), num_weights(N, case["k_pred"]))


WANTED_BASELINE = [
    # (quantity, model, one_sided, N, K); ids follow cases.py
]


def reference_jobs() -> list[tuple[str, callable]]:
    jobs = []
    every = {c["id"]: c for c in cases.cases(False) + cases.cases(True)}
    for cid, c in every.items():
        if c["kind"] == "baseline":
            if c["quantity"] == "emi" and c["model"] == "num":
                # feasible num E[MI] references: short size ranges only
                if not (c["k"] >= 10**4 and c["n"] - c["k"] > 12 and c["n"] == cases.E7
                        or near_n(c["n"], c["k"]) or c["n"] <= 5000):
                    continue
            if c["quantity"] == "emi" and c["n"] == 10**6 and c["k"] == 2 * 10**5 and c["model"] == "num":
                continue
            if (c["quantity"] == "emi" and c["model"] == "all" and c["one_sided"]
                    and c["n"] == cases.E7 and c["k"] == 10**4):
                continue  # ~250 distinct reference sizes x ~100 sizes: over 7 minutes in mpmath
            jobs.append((cid, lambda c=c: {"value": ref_baseline(c)}))
        elif c["kind"] == "ami" and c["n"] <= cases.E7:
            # Zipf N = 1e6, K = 1000: 598 distinct sizes, 179k unordered size pairs,
            # most with tiny a b / N (a few terms each): ~5 minutes single-core.
            # N = 1e7, K = 1000, estimated from joint_term timed on size pairs sampled
            # in bins of the mean a b / N: uniform, 377 x 375 distinct sizes, 141k
            # ordered pairs, means ~100: ~9 minutes (measured 528 s); Zipf, 1000
            # distinct sizes, 500k unordered pairs, means 0.2 .. 1.8e5 (0.46 s for the
            # largest pair): ~20 minutes.
            jobs.append((cid, lambda c=c: ref_ami(c)))
        elif c["kind"] == "clusim_emi":
            jobs.append((cid, lambda c=c: {"value": ref_clusim(c)}))
    return jobs


def joint_term_exact(N: int, a: int, b: int):
    """joint_term over the whole support, probabilities from exact binomials."""
    den = math.comb(N, a)
    Nf = mp.mpf(N)
    return mp.fsum(mp.mpf(math.comb(b, n) * math.comb(N - b, a - n)) / den
                   * (n / Nf) * mp.log(n / Nf)
                   for n in range(max(1, a + b - N), min(a, b) + 1))


def mi_exact(x, y):
    """Mutual information (nats) of two label sequences, in mpmath."""
    n = mp.mpf(len(x))
    cx, cy, cxy = Counter(x), Counter(y), Counter(zip(x, y))
    return mp.fsum(c / n * mp.log(c * n / (cx[i] * cy[j])) for (i, j), c in cxy.items())


def perm_self_check() -> None:
    import itertools
    import random
    rnd = random.Random(12345)
    # truncated, mode-started joint_term vs the exact full sum (N = 1e4, and edge cases)
    N = 10**4
    pairs = [(rnd.randint(1, N), rnd.randint(1, N)) for _ in range(6)]
    pairs += [(rnd.randint(1, 300), rnd.randint(1, 300)) for _ in range(6)]
    pairs += [(1, 1), (N, 7), (N - 1, N - 2), (6000, 7000)]
    for a, b in pairs:
        d = abs(joint_term(N, a, b) - joint_term_exact(N, a, b))
        assert d < mp.mpf(10) ** -40, (N, a, b, d)
    # the cached log-factorials change nothing: same values as loggamma on the spot
    rnd2 = random.Random(54321)
    for _ in range(20):
        Nr = rnd2.choice([10**4, 10**5, 10**6])
        a, b = rnd2.randint(1, Nr // 20), rnd2.randint(1, Nr // 20)
        d = abs(joint_term(Nr, a, b) - joint_term(Nr, a, b, lf=lambda n: mp.loggamma(n + 1)))
        assert d < mp.mpf(10) ** -35, (Nr, a, b, d)
    # symmetric (unordered size pairs) vs full ordered double sum, equal multisets
    sizes = [rnd.randint(1, 400) for _ in range(30)]
    sizes.append(N - sum(sizes))
    w = counts(sizes)
    d = abs(expected_mi(N, w, w, symmetric=True) - expected_mi(N, w, w))
    assert d < mp.mpf(10) ** -35, d
    # expected_mi vs brute force over all relabelings of one side (N = 7)
    for sa, sb in [([3, 2, 2], [3, 2, 2]), ([4, 2, 1], [3, 3, 1]), ([5, 1, 1], [2, 2, 2, 1])]:
        x = [i for i, s in enumerate(sa) for _ in range(s)]
        y0 = [i for i, s in enumerate(sb) for _ in range(s)]
        perms = list(itertools.permutations(y0))
        brute = mp.fsum(mi_exact(x, y) for y in perms) / len(perms)
        ca, cb = counts(sa), counts(sb)
        d = abs(expected_mi(len(x), ca, cb, symmetric=(ca == cb)) - brute)
        assert d < mp.mpf(10) ** -40, (sa, sb, d)


def self_check() -> None:
    for n, k in [(12, 1), (12, 3), (30, 7), (40, 38), (25, 25), (60, 55)]:
        ex = stirling2(n, k)
        assert stirling2_near_diagonal(n, n - k) == ex if n - k <= 12 else True
        with mp.workdps(guard_digits(n, k) + 20):
            t = mp.mpf(k) ** n * T(n, k) / mp.factorial(k)
            assert abs(t / ex - 1) < mp.mpf(10) ** -40, (n, k)
    # num weights sum to K, all weights to E[#clusters] = B_{N+1}/B_N - 1
    w = num_weights(30, 7)
    assert abs(mp.fsum(w.values()) - 7) < 1e-40
    with mp.workdps(60):
        ks, ps = dobinski(60)
        p = mp.fsum(pp / k for k, pp in zip(ks, ps))
        assert abs(p - mp.mpf(bell(59)) / bell(60)) < mp.mpf(10) ** -45
    perm_self_check()
    print("self-checks passed", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", default=None)
    args = ap.parse_args()
    self_check()
    out = json.load(open(OUT)) if os.path.exists(OUT) else {}
    for cid, job in reference_jobs():
        if args.only and not any(s in cid for s in args.only):
            continue
        if cid in out and not args.only:
            continue
        t0 = time.time()
        res = job()
        out[cid] = {k: mp.nstr(v, 30) for k, v in res.items()}
        out[cid]["seconds"] = round(time.time() - t0, 1)
        print(cid, out[cid], flush=True)
        with open(OUT, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
