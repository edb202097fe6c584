#!/usr/bin/env python
"""Reference E[RI] and E[MI] from summaries at N = 10^6 .. 2^63 - 1 (mpmath, 50 digits).

Independent of chanceclust (stdlib + mpmath). Every value is computed two
independent ways (route A and route B below) in 90-digit arithmetic; the
script asserts that they agree to 45 significant digits and writes route
A's value with 50 digits (``digits`` records the agreement found).

Models and the quantities they reduce to (docs/math.md's sums over cluster
sizes collapse for i.i.d. uniform labelings with u labels): with
D(a, u) = u E[bd0(X, a/u)], X ~ Binomial(a, 1/u), bd0(x, m) = x log(x/m) + m - x,

* one-sided E[MI] (reference sizes a_i fixed, the other side a mixture of
  i.i.d. labelings with weights c_u): sum_u c_u (sum_i D(a_i, u) - D(N, u)) / N;
* two-sided E[MI]: sum_{u, v} c_u c_v D(N, u v) - sum_u c_u D(N, u) - sum_v c_v D(N, v), / N;
  for a side with exact sizes (num with K = N - 1: N - 2 singletons and a
  pair) against a mixture: sum_u c_u (sum_a w(a) D(a, u) - D(N, u)) / N;
* E[RI] = p_A p_B + (1 - p_A)(1 - p_B) with p = sum_u c_u / u, or Q / C(N, 2)
  for a fixed reference (Q its within-cluster pairs, exact integers).

The mixtures:

* all: Stam's law P(u) ~ u^N / u! (Dobinski). By Poisson summation the sums
  over integers u of smooth functions equal the integrals over real u
  (the law's sd exceeds 80, aliasing < exp(-10^5)). Route A integrates with
  mpmath.quad (Gauss-Legendre on 7 pieces, degree doubled until converged)
  in t = (u - c_A) / s_A over [-22, 22] (tails < exp(-240)), with c_A = N / W(N) and s_A = (c_A / (log c_A + 1))^(1/2),
  the density exp(F(u) - F(c_A)), F(u) = N log u - log Gamma(u + 1),
  evaluated directly at 90 digits (F ~ N log N ~ 4e20 leaves ~65 digits).
  Route B uses a 100-node Gauss-Hermite rule in t = (u - c) / s about the
  exact maximizer c (N / c = digamma(c + 1), mpmath.findroot) with
  s = (-F''(c))^(-1/2), the density exp(-t^2/2 + g(t)) with g the Taylor
  series sum_{k>=3} F^(k)(c) s^k t^k / k! (polygammas; until the terms fall
  below 1e-95 at the outermost node). The joint term of two-sided E[MI]:
  route A splits D(N, v) = N log(v / N) + v E[X log X] (exact, from
  E[X] = N / v) and expands the binomial's E[X log X] = sum_{k>=2} C(N, k)
  Delta_k v^-k, Delta_k the k-th finite difference of x log x at 0 (an
  exact polynomial identity in 1/v), so E[D(N, u_A u_B)] = 2 N E[log u] -
  N log N + sum_k C(N, k) Delta_k E[u^(1-k)]^2: one-dimensional moments
  only, summed until the terms (~(N / c^2)^k / k!) fall below 1e-95; route B
  is the tensor Gauss-Hermite rule of D(N, u_A u_B) itself.
* num with K clusters: the inclusion-exclusion mixture c_{K-j} = (-1)^j
  C(K, j) (1 - j/K)^N / T(N, K), terms summed until below 1e-80 (they are
  ~x^j / j!, x = K (1 - 1/K)^N <= 4.5 here, so sum |c| / T ~ e^(2x) costs at
  most 4 of the 90 digits; the library itself takes this route only for
  e^(2x) <= 2 and a size law by convolutions beyond). Route A
  forms the terms from mpmath.binomial and powers, route B from log-gamma
  differences; the identity K p + (1 - 1/K)^(N-1) T(N-1, K-1) / T(N, K) = 1
  (S(N, K) = K S(N-1, K) + S(N-1, K-1)) is asserted to 80 digits.

The slot deviance D(a, u), two ways:

* route A: for means a/u < 2e5, the pmf term by term from P(X = 0) = (1 -
  1/u)^a by exact ratios (every term above 1e-95 of the largest; real u
  allowed); for larger means (integer u) the series a sum_{k=2}^{40} (-1)^k
  mu_k / (m^k k (k-1)) over the exact central moments mu_k (fractions, from
  the factorial moments (a)_r u^-r and Stirling numbers; truncation
  < 39!! m^-20 < 1e-80 relative, P(X = 0) < exp(-2e5));
* route B: Frullani's log x = int_0^oo (e^-t - e^-xt) dt / t gives
  E[X log X] = m int_0^oo e^-t (1 - (1 - (1 - e^-t) / u)^(a-1)) dt / t, so
  D(a, u) = a (I - log m); the integral in y = log t by mpmath.quad split at
  the scale y = -log m (it loses log10(2 m log m) <= 21 digits of the 90).

Families (sizes_true = (N // 3, N - N // 3) for every one-sided value):
all, E[RI] and E[MI], two- and one-sided; num two-sided (K_A, K_B) = (2, 2),
(3, 1000), (1000, N // 45), (N // 45, N // 45), (2, N - 1), one-sided K_B =
2, 7, 10^6 (N >= 10^9), N // 45. N // 45 (mean cluster size 45, just above
log K + 2 at 2^63 - 1) is the largest K of num's mixture route; below a
mean of about log K + 2 (small clusters: the library's size-law route) num
needs K <= 10^8, so that regime has families only at N = 10^6 (K = N // 10,
two-sided with K_A = 3 and one-sided) and N = 10^9 (K = N // 17); no
N >= 10^16 reaches it (the library refuses; tested there).

Run: ``python tests/reference/make_huge_expectations.py`` (about 20 minutes on 2 busy
cores; ``--n N`` for one N, printed only); writes ``huge_expectations.json`` beside this
file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from math import comb
from pathlib import Path

import mpmath as mp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _huge_keys import big_k, key, one_sided_ks, small_k, two_sided_pairs

DPS = 90
mp.mp.dps = DPS
NS = (10**6, 10**9, 10**12, 10**15, 10**16, 10**17, 10**18, 2**63 - 1)
SERIES_MEAN = 200_000
ORDER = 40
HERMITE_NODES = 100
AGREE_DIGITS = 45
TINY = mp.mpf(10) ** -95


# ---------------------------------------------------------------- the slot deviance
def deviance_pmf(a: int, u) -> mp.mpf:
    """D(a, u) term by term from P(X = 0) (small means; u may be real)."""
    u = mp.mpf(u)
    m = a / u
    pmf = mp.exp(a * mp.log1p(-1 / u))
    total = pmf * m  # bd0(0, m) = m
    x, top = 0, pmf
    while x < a:
        pmf = pmf * (a - x) / ((x + 1) * (u - 1))
        x += 1
        top = max(top, pmf)
        total += pmf * (x * mp.log(x / m) + m - x)
        if x > m and pmf < top * TINY:
            break
    return u * total


def _stirling_row(k: int) -> list[int]:
    row = [1]
    for i in range(1, k + 1):
        new = [0] * (i + 1)
        for j in range(1, i + 1):
            new[j] = j * (row[j] if j < len(row) else 0) + row[j - 1]
        row = new
    return row


STIRLING = [_stirling_row(k) for k in range(ORDER + 1)]


def deviance_series(a: int, u: int) -> mp.mpf:
    """D(a, u) = a sum_k (-1)^k mu_k / (m^k k (k-1)) over exact central moments (large means)."""
    p = Fraction(1, u)
    m = a * p
    factorial = [Fraction(1)]
    for r in range(1, ORDER + 1):
        factorial.append(factorial[-1] * (a - r + 1) * p)  # E[(X)_r] = (a)_r p^r
    raw = [sum(STIRLING[k][r] * factorial[r] for r in range(k + 1)) for k in range(ORDER + 1)]
    total = mp.mpf(0)
    for k in range(ORDER, 1, -1):
        central = sum(comb(k, j) * raw[j] * (-m) ** (k - j) for j in range(k + 1))
        term = central / m**k / (k * (k - 1))
        total += (-1) ** k * mp.mpf(term.numerator) / term.denominator
    return a * total


def deviance(a: int, u) -> mp.mpf:
    """Route A: the pmf sum for small means, the exact-moment series for large ones."""
    if a == 0 or u == 1:
        return mp.mpf(0)
    if isinstance(u, int) and a >= SERIES_MEAN * u:
        return deviance_series(a, u)
    return deviance_pmf(a, u)


def deviance_frullani(a: int, u) -> mp.mpf:
    """Route B: D(a, u) = a (I - log m), I = int e^-t (1 - (1 - (1 - e^-t)/u)^(a-1)) dt / t."""
    if a == 0 or u == 1:
        return mp.mpf(0)
    u = mp.mpf(u)
    m = a / u

    def integrand(y):
        t = mp.exp(y)
        inner = -mp.expm1((a - 1) * mp.log1p(mp.expm1(-t) / u))
        return mp.exp(-t) * inner

    mid = -mp.log(m) if m > 1 else mp.mpf(0)
    low = -mp.log(m + 1) - (DPS + 10) * mp.log(10)
    points = [low, *(mid + d for d in (-40, -12, -4, -1, 0, 1, 3)), mp.log(mp.mpf(240))]
    points = sorted(set(points))
    points = [p for p in points if low <= p <= points[-1]]
    integral = mp.quad(integrand, points)
    return a * (integral - mp.log(m))


def finite_difference(k: int) -> mp.mpf:
    """Delta_k = sum_{x=2}^k C(k, x) (-1)^(k-x) x log x, the k-th difference of x log x at 0."""
    return mp.fsum(comb(k, x) * (-1) ** (k - x) * x * mp.log(x) for x in range(2, k + 1))


# ---------------------------------------------------------------- Stam's law (the all model)
class Stam:
    """Expectations under P(u) ~ u^N / u! over real u, by two quadratures."""

    def __init__(self, n: int) -> None:
        self.n = n
        # Route A: an approximate centre and scale, tanh-sinh in t.
        self.ca = n / mp.lambertw(n).real
        self.sa = mp.sqrt(self.ca / (mp.log(self.ca) + 1))
        self.fa = self._f(self.ca)
        self.points = [mp.mpf(t) for t in (-22, -12, -6, -2, 2, 6, 12, 22)]
        self.norm_a = mp.quad(self._density_a, self.points, method="gauss-legendre")
        # Route B: the exact maximizer, Taylor series of the log density, Gauss-Hermite.
        c = mp.findroot(lambda x: n / x - mp.digamma(x + 1), self.ca)
        s = 1 / mp.sqrt(n / c**2 + mp.psi(1, c + 1))
        self.c, self.s = c, s
        x, w = mp.gauss_quadrature(HERMITE_NODES, "hermite")  # weight e^{-x^2}
        ts = [mp.sqrt(2) * xi for xi in x]
        edge = max(abs(t) for t in ts)
        coefs = []
        k = 3
        while True:
            deriv = (-1) ** (k - 1) * mp.factorial(k - 1) * n / c**k - mp.psi(k - 1, c + 1)
            coef = deriv * s**k / mp.factorial(k)
            coefs.append((k, coef))
            if abs(coef) * edge**k < TINY:
                break
            k += 1
        self.taylor_terms = k
        weights = [
            wi * mp.exp(mp.fsum(cf * t**kk for kk, cf in coefs))
            for wi, t in zip(w, ts, strict=True)
        ]
        total = mp.fsum(weights)
        self.nodes_b = [c + s * t for t in ts]
        self.weights_b = [wi / total for wi in weights]

    def _f(self, x) -> mp.mpf:
        return self.n * mp.log(x) - mp.loggamma(x + 1)

    def _density_a(self, t) -> mp.mpf:
        return mp.exp(self._f(self.ca + self.sa * t) - self.fa)

    def route_a(self, func) -> mp.mpf:
        value = mp.quad(
            lambda t: self._density_a(t) * func(self.ca + self.sa * t),
            self.points,
            method="gauss-legendre",
        )
        return value / self.norm_a

    def route_b(self, func) -> mp.mpf:
        return mp.fsum(w * func(x) for w, x in zip(self.weights_b, self.nodes_b, strict=True))

    def joint_a(self) -> mp.mpf:
        """E[D(N, u_A u_B)] = 2 N E[log u] - N log N + sum_k C(N, k) Delta_k E[u^(1-k)]^2."""
        n = self.n
        total = 2 * n * self.route_a(mp.log) - n * mp.log(n)
        remainder, k = mp.mpf(0), 2
        while True:
            moment = self.route_a(lambda u, k=k: mp.power(u, 1 - k))
            term = mp.binomial(n, k) * finite_difference(k) * moment**2
            remainder += term
            if abs(term) < TINY * abs(total):
                return total + remainder
            k += 1

    def joint_b(self) -> mp.mpf:
        nodes, weights = self.nodes_b, self.weights_b
        return mp.fsum(
            wa
            * mp.fsum(wb * deviance(self.n, xa * xb) for wb, xb in zip(weights, nodes, strict=True))
            for wa, xa in zip(weights, nodes, strict=True)
        )


# ---------------------------------------------------------------- the num model's mixture
def _surjection_terms(n: int, k: int, route: str) -> list[tuple[int, mp.mpf]]:
    """[(K - j, (-1)^j C(K, j) (1 - j/K)^N)] until the terms fall below 1e-80."""
    terms, j = [], 0
    while j < k:
        if route == "a":
            size = mp.binomial(k, j) * mp.power(1 - mp.mpf(j) / k, n)
        else:
            log_size = mp.loggamma(k + 1) - mp.loggamma(j + 1) - mp.loggamma(k - j + 1)
            size = mp.exp(log_size + n * mp.log1p(-mp.mpf(j) / k))
        if j > 0 and size < mp.mpf(10) ** -80:
            break
        terms.append((k - j, -size if j % 2 else size))
        j += 1
    return terms


def num_mixture(n: int, k: int, route: str = "a") -> list[tuple[int, mp.mpf]]:
    """[(slots, weight)]: a uniform K-clustering as a signed mixture of i.i.d. labelings."""
    terms = _surjection_terms(n, k, route)
    total = mp.fsum(c for _, c in terms)  # T(N, K)
    return [(u, c / total) for u, c in terms]


def check_num_identity(n: int, k: int) -> None:
    """K p + (1 - 1/K)^(N-1) T(N-1, K-1) / T(N, K) = 1."""
    if k < 3:
        return
    t = mp.fsum(c for _, c in _surjection_terms(n, k, "a"))
    t1 = mp.fsum(c for _, c in _surjection_terms(n - 1, k - 1, "a"))
    p = mp.fsum(c / u for u, c in num_mixture(n, k))
    residue = k * p + mp.power(1 - mp.mpf(1) / k, n - 1) * t1 / t - 1
    assert abs(residue) < mp.mpf(10) ** -80, (n, k, residue)


# ---------------------------------------------------------------- the families
def fixed_p(sizes: list[int]) -> mp.mpf:
    n = sum(sizes)
    q = Fraction(sum(a * (a - 1) // 2 for a in sizes), n * (n - 1) // 2)
    return mp.mpf(q.numerator) / q.denominator


def rand(pa, pb) -> mp.mpf:
    return pa * pb + (1 - pa) * (1 - pb)


def digits(a, b) -> float:
    if a == b:
        return 99.0
    return float(-mp.log10(abs(a / b - 1)))


def num_values(n: int, sizes: list[int], route: str) -> dict:
    """Every num family at n: {key: value} by route A ("a") or route B ("b")."""
    dev = deviance if route == "a" else deviance_frullani
    cache: dict = {}

    def d(a: int, u, weight=1) -> mp.mpf:
        # Route B's integrals only where they matter: weights below 1e-50 take route A.
        slot = (a, u, abs(weight) > mp.mpf(10) ** -50)
        if slot not in cache:
            cache[slot] = (dev if slot[2] else deviance)(a, u)
        return cache[slot]

    def mixture(k: int):
        if k >= n - 1:
            return None
        return num_mixture(n, k, route)

    def side(k: int, mix) -> mp.mpf:
        return mp.fsum(c * d(n, u, c) for u, c in mix)

    out = {}
    for ka, kb in two_sided_pairs(n):
        mix_a, mix_b = mixture(ka), mixture(kb)
        pa = mp.fsum(c / u for u, c in mix_a)
        if mix_b is None:  # K_B = N - 1: N - 2 singletons and one pair
            pb = 2 / (mp.mpf(n) * (n - 1))  # one pair of C(N, 2)
            within = mp.fsum(c * ((n - 2) * d(1, u) + d(2, u) - d(n, u)) for u, c in mix_a)
            mi = within / n
        else:
            pb = mp.fsum(c / u for u, c in mix_b)
            joint = mp.fsum(
                ca * cb * d(n, ua * ub, ca * cb) for ua, ca in mix_a for ub, cb in mix_b
            )
            mi = (joint - side(ka, mix_a) - side(kb, mix_b)) / n
        out[key("num", "rand", False, ka, kb)] = rand(pa, pb)
        out[key("num", "mi", False, ka, kb)] = mi
    q = fixed_p(sizes)
    for kb in one_sided_ks(n):
        mix_b = mixture(kb)
        pb = mp.fsum(c / u for u, c in mix_b)
        within = mp.fsum(c * (mp.fsum(d(a, u, c) for a in sizes) - d(n, u, c)) for u, c in mix_b)
        out[key("num", "rand", True, kb)] = rand(q, pb)
        out[key("num", "mi", True, kb)] = within / n
    return out


def all_values(n: int, sizes: list[int], route: str, stam: Stam) -> dict:
    expect = stam.route_a if route == "a" else stam.route_b
    dev = deviance
    p = expect(lambda u: 1 / u)
    side = expect(lambda u: dev(n, u))
    within = expect(lambda u: mp.fsum(dev(a, u) for a in sizes))
    joint = stam.joint_a() if route == "a" else stam.joint_b()
    q = fixed_p(sizes)
    return {
        key("all", "rand", False): rand(p, p),
        key("all", "rand", True): rand(q, p),
        key("all", "mi", False): (joint - 2 * side) / n,
        key("all", "mi", True): (within - side) / n,
    }


def check_deviance_routes(n: int, sizes: list[int]) -> float:
    """D(a, u) by both routes at the Stam centre +- 5 sd and at every num slot of one-sided use."""
    stam_c = n / mp.lambertw(n).real
    sd = mp.sqrt(stam_c / (mp.log(stam_c) + 1))
    worst = 99.0
    checks = [(a, stam_c + t * sd) for a in (n, *sizes) for t in (-5, 0, 5)]
    checks += [(n, stam_c * stam_c)]
    checks += [(a, u) for a in (n, *sizes) for u in (2, 7, 3000, big_k(n))]
    for a, u in checks:
        worst = min(worst, digits(deviance(a, u), deviance_frullani(a, u)))
    assert worst > AGREE_DIGITS, (n, worst)
    return worst


def reference_case(n: int) -> dict:
    start = time.perf_counter()
    sizes = [n // 3, n - n // 3]
    for k in {big_k(n), 1000, 7, *small_k(n)}:
        check_num_identity(n, k)
    deviance_digits = check_deviance_routes(n, sizes)
    values = {}
    agreement = {}
    stam = Stam(n)
    for family, extra in ((all_values, (stam,)), (num_values, ())):
        a = family(n, sizes, "a", *extra)
        b = family(n, sizes, "b", *extra)
        for name in a:
            agreement[name] = digits(a[name], b[name])
            assert agreement[name] > AGREE_DIGITS, (n, name, a[name], b[name])
            values[name] = mp.nstr(a[name], 50)
    record = {
        "n": n,
        "sizes_true": sizes,
        "values": values,
        "digits": {k: round(v, 1) for k, v in agreement.items()},
        "deviance_digits": round(deviance_digits, 1),
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(
        json.dumps({k: record[k] for k in ("n", "seconds", "deviance_digits")}),
        f"min digits {min(agreement.values()):.1f}",
        flush=True,
    )
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", help="only these N (print, no file)")
    args = parser.parse_args()
    if args.n:
        for n in args.n:
            print(json.dumps(reference_case(n), indent=1))
        return
    records = [reference_case(n) for n in NS]
    header = {
        "description": (
            "E[RI], E[MI] (nats) from summaries, 50 digits: all (two-sided; one-sided with "
            "sizes_true); num two-sided num_*_two_sided_{K_A}_{K_B}, one-sided with "
            "sizes_true num_*_one_sided_{K_B}; N = 1e6 .. 2^63 - 1. 'digits': agreement "
            "of the two independent routes"
        ),
        "generated_by": "tests/reference/make_huge_expectations.py (stdlib + mpmath, mp.dps = 90)",
    }
    (HERE / "huge_expectations.json").write_text(
        json.dumps({"header": header, "cases": records}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
