#!/usr/bin/env python
"""Reference num size laws with small clusters at K = 10^6 .. 2^62 (mpmath, Fourier inversion).

The num model with K clusters of N elements has the size law w(a) = C(N,a)
S(N-a,K-1)/S(N,K), the expected number of clusters of size a. Independent of
chanceclust (stdlib + mpmath): with X_i i.i.d. zero-truncated Poisson(rho),
p(a) = rho^a / (a! (e^rho - 1)), and L_m(x) = P(X_1 + ... + X_m = x),

    S(x, m) = x! (e^rho - 1)^m L_m(x) / (m! rho^x)   (any rho > 0),

so w(a) = K p(a) L_{K-1}(N - a) / L_K(N), p1 = S(N-1,K)/S(N,K) = (rho / N)
L_K(N-1) / L_K(N) and p2 = S(N-2,K)/S(N,K) = rho^2 / (N (N-1)) L_K(N-2) /
L_K(N). Here rho is the saddle point (K rho / (1 - e^-rho) = N, by
mpmath.findroot) and each L_m(x) is the Fourier inversion integral

    L_m(x) = (1/pi) int_0^pi Re[phi(t)^m e^{-i t x}] dt,
    phi(t) = (exp(rho e^{it}) - 1) / (e^rho - 1),

taken as phi_c(t)^m e^{-i t (x - m N/K)}, phi_c = phi e^{-i t N/K} (no huge
phases), by mpmath.quad on the whole [0, pi], split at s, 2s, 4s, 8s, 14s, 20s
(s = (m Var X)^(-1/2), the width of the peak at 0), at 40 digits plus log10(m), raised by 15
digits until two evaluations agree to 30 digits. Checks: sum_a w(a) = K and
sum_a a w(a) = N to 1e-25, p1 = sum_a w(a) a(a-1) / (N(N-1)), and where
the numbers are small enough (K <= 2000) w, p1, p2 equal exact integers
(Stirling numbers by inclusion-exclusion).

Also written: v = p2 - p1^2 and g = p1 - p2 (what Var[RI] needs of a num side),
one-sided Var[RI] against the fixed reference [N//3, N - N//3] and two-sided
Var[RI] against num with the same K (``make_variance.variance``), E[RI]
= p_A p_B + (1 - p_A)(1 - p_B) for the same two comparisons, and E[MI]
one-sided against the same reference (exact hypergeometric sums per size)
and two-sided against num with K = 7 (i.i.d. labels; the slot deviances of
``make_huge_expectations.py``) and, where at most 40 sizes matter, against num
with the same K (the double sum over sizes of the hypergeometric terms).

Run: ``python tests/reference/make_huge_num_laws.py`` (a few minutes);
writes ``huge_num_laws.json`` beside this file.
"""

from __future__ import annotations

import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import mpmath as mp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _exact import stirling2_range
from make_huge_expectations import deviance_pmf as slot_deviance
from make_huge_expectations import deviance_series as expanded_deviance
from make_variance import fixed_side, variance

AGREE = 30  # digits two evaluations must share
CUT = 35  # sizes a with w(a) / max w below 10^-CUT are left out

# (N, K): K from 10^6 to 2^62, mean size N/K from 1.05 to about log K + 2.
CASES = [
    (1_050_000, 10**6), (1_500_000, 10**6), (4_000_000, 10**6), (15_800_000, 10**6),
    (105_000_000, 10**8), (2_040_000_000, 10**8),
    (1_100_000_000, 10**9), (10**10, 2 * 10**9), (22 * 10**9, 10**9),
    (2 * 10**10, 10**10),
    (1_050_000_000_000, 10**12), (10**13, 10**12), (29 * 10**12, 10**12),
    (2**63 - 1, 2**62), (2**63 - 1, (2**63 - 1) // 40),
]
# Cross-checks against exact integers (small K, the same routes).
EXACT_CASES = [(1100, 1000), (3000, 1000), (2000, 1990)]


def saddle(n: int, k: int) -> mp.mpf:
    mean = mp.mpf(n) / k
    guess = 2 * (mean - 1) if mean < 1.5 else mean
    return mp.findroot(lambda r: r / (-mp.expm1(-r)) - mean, guess)


def lattice(rho: mp.mpf, n: int, k: int, m: int, x: int) -> mp.mpf:
    """L_m(x) for the ZTP(rho) summands, centred at m N/K."""
    mean = mp.mpf(n) / k
    offset = x - m * mean
    log_norm = mp.log(mp.expm1(rho))
    var = mean * (1 + rho - mean)
    s = 1 / mp.sqrt(m * var)

    def integrand(t):
        z = rho * mp.expj(t)
        log_phi = mp.log(mp.expm1(z)) - log_norm - 1j * t * mean
        return mp.re(mp.exp(m * log_phi - 1j * t * offset))

    points = sorted({mp.mpf(0), mp.pi} | {c * s for c in (1, 2, 4, 8, 14, 20) if c * s < mp.pi})
    return mp.quad(integrand, points) / mp.pi


def evaluate(n: int, k: int, extra: int) -> dict:
    with mp.workdps(40 + extra + int(math.log10(k))):
        rho = saddle(n, k)
        log_h = mp.log(mp.expm1(rho))
        denominator = lattice(rho, n, k, k, n)
        out_w = {}
        a, top = 1, mp.mpf(0)
        while a <= n - k + 1:
            log_p = a * mp.log(rho) - mp.loggamma(a + 1) - log_h
            w = k * mp.exp(log_p) * lattice(rho, n, k, k - 1, n - a) / denominator
            top = max(top, w)
            out_w[a] = w
            if a > n / k and w < top * mp.mpf(10) ** -CUT:
                break
            a += 1
        p1 = rho / n * lattice(rho, n, k, k, n - 1) / denominator
        p2 = rho**2 / (n * (n - 1)) * lattice(rho, n, k, k, n - 2) / denominator
        return {"rho": rho, "w": out_w, "p1": p1, "p2": p2}


def converged(n: int, k: int) -> dict:
    extra, last = 0, evaluate(n, k, 0)
    while True:
        extra += 15
        new = evaluate(n, k, extra)
        keys = ("p1", "p2")
        close = all(abs(new[q] - last[q]) <= abs(new[q]) * mp.mpf(10) ** -AGREE for q in keys)
        close = close and all(
            abs(new["w"][a] - last["w"].get(a, 0)) <= new["w"][a] * mp.mpf(10) ** -AGREE
            for a in new["w"]
        )
        if close:
            return new
        last = new


def check_sums(n: int, k: int, res: dict) -> None:
    w = res["w"]
    with mp.workdps(60):
        assert abs(sum(w.values()) / k - 1) < mp.mpf(10) ** -25, (n, k)
        assert abs(sum(a * v for a, v in w.items()) / n - 1) < mp.mpf(10) ** -25, (n, k)
        via_w = sum(a * (a - 1) * v for a, v in w.items()) / (mp.mpf(n) * (n - 1))
        assert abs(via_w / res["p1"] - 1) < mp.mpf(10) ** -25, (n, k)


def check_exact(n: int, k: int, res: dict) -> None:
    row_k = stirling2_range(n - k - 200 if n - k > 200 else 1, n, k)
    row_k1 = stirling2_range(max(1, n - max(res["w"]) - 1), n - 1, k - 1)
    with mp.workdps(60):
        for a, w in res["w"].items():
            exact = Fraction(math.comb(n, a) * row_k1[n - a], row_k[n])
            assert abs(w / (mp.mpf(exact.numerator) / exact.denominator) - 1) < mp.mpf(10) ** -28, (n, k, a)
        for q, j in (("p1", 1), ("p2", 2)):
            exact = Fraction(row_k[n - j], row_k[n])
            assert abs(res[q] / (mp.mpf(exact.numerator) / exact.denominator) - 1) < mp.mpf(10) ** -28


def hypergeometric_information(n: int, a: int, r: int) -> mp.mpf:
    """E[X log(X N / (a r))], X ~ Hypergeometric(N, a, r): one cell of the expected MI (times N)."""
    total = mp.mpf(0)
    for x in range(1, a + 1):
        pmf = mp.binomial(a, x) * mp.rf(r - x + 1, x) * mp.rf(n - r - (a - x) + 1, a - x) / mp.rf(n - a + 1, a)
        total += pmf * x * mp.log(mp.mpf(x) * n / (mp.mpf(a) * r))
    return total


def expected_mi(n: int, res: dict, reference: list[int]) -> tuple[mp.mpf, mp.mpf]:
    """E[MI] one-sided against ``reference`` and two-sided against num with 7 clusters.

    Sum over the size law of the cells' hypergeometric expectations; against
    num with K_B = 7 << N (inclusion-exclusion weights ~7 e^(-N/7), negligible)
    the labels are i.i.d. uniform over 7, E[MI] = (sum_a w(a) D(a, 7) - D(N, 7)) / N
    (make_huge_expectations.py's slot deviances).
    """
    one = sum(w * sum(hypergeometric_information(n, a, r) for r in reference) for a, w in res["w"].items())
    two = sum(w * slot_deviance(a, 7) for a, w in res["w"].items()) - expanded_deviance(n, 7)
    return one / n, two / n


def expected_mi_same_k(n: int, res: dict) -> mp.mpf:
    """E[MI] of two independent num(K) sides: sum_{a,b} w(a) w(b) E[X log(XN/(ab))] / N."""
    w = res["w"]
    return sum(
        wa * wb * hypergeometric_information(n, a, b) for a, wa in w.items() for b, wb in w.items()
    ) / n


def record(n: int, k: int, res: dict) -> dict:
    p1, p2 = res["p1"], res["p2"]
    with mp.workdps(80):
        num = (p1, p2, p2)
        ref = fixed_side([n // 3, n - n // 3])
        q = mp.mpf(ref[0].numerator) / ref[0].denominator
        mi_one, mi_two = expected_mi(n, res, [n // 3, n - n // 3])
        return {
            "n": n, "k": k, "rho": mp.nstr(res["rho"], 25),
            "sizes": list(res["w"]),
            "weights": [mp.nstr(v, 25) for v in res["w"].values()],
            "p1": mp.nstr(p1, 30), "p2": mp.nstr(p2, 30),
            "gap": mp.nstr(p1 - p2, 30), "spread": mp.nstr(p2 - p1 * p1, 30),
            "rand_one_sided": mp.nstr(q * p1 + (1 - q) * (1 - p1), 30),
            "rand_two_sided": mp.nstr(p1 * p1 + (1 - p1) ** 2, 30),
            "var_one_sided": mp.nstr(variance(n, ref, num), 30),
            "var_two_sided": mp.nstr(variance(n, num, num), 30),
            "mi_one_sided": mp.nstr(mi_one, 30),
            "mi_two_sided_k7": mp.nstr(mi_two, 30),
            # two size laws (the size-pair route): where the support is short enough to sum
            **({"mi_two_sided_kk": mp.nstr(expected_mi_same_k(n, res), 30)} if len(res["w"]) <= 40 else {}),
        }


def main() -> None:
    start = time.time()
    for n, k in EXACT_CASES:
        res = converged(n, k)
        check_sums(n, k, res)
        check_exact(n, k, res)
        print(f"exact check N={n} K={k}: ok ({time.time() - start:.0f} s)", flush=True)
    cases = []
    for n, k in CASES:
        res = converged(n, k)
        check_sums(n, k, res)
        cases.append(record(n, k, res))
        print(f"N={n} K={k}: {len(res['w'])} sizes ({time.time() - start:.0f} s)", flush=True)
    out = {
        "header": "num size laws with small clusters, K = 1e6 .. 2^62: w(a), p1, p2, E[RI], Var[RI] "
        "(make_huge_num_laws.py, Fourier inversion in mpmath)",
        "reference_sizes": "[N // 3, N - N // 3] (one-sided); two-sided: num with the same K",
        "cases": cases,
    }
    (HERE / "huge_num_laws.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
