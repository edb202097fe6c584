#!/usr/bin/env python
"""Generate ``large_expectations.json``: reference E[RI] and E[MI] at large N.

An independent oracle for chanceclust's expected Rand index and expected
mutual information (nats) under the random models ``perm``, ``num`` and
``all`` (Gates & Ahn, JMLR 2017), two-sided and one-sided, at N from 200 to
10^5, well beyond ``make_expectations.py`` (which stops at N = 100).  It does
NOT import chanceclust and uses only the Python standard library and mpmath.
The values come straight from the definitions of the project's ``docs/math.md``:

* E[RI] = p_A p_B + (1 - p_A)(1 - p_B), with p = S(N-1,K)/S(N,K) (num),
  B_{N-1}/B_N (all) or Q(G)/C(N,2) (fixed sizes), as exact fractions of
  exact integers; only the final value is rounded (50 digits).
* E[MI] = sum_a sum_b w_A(a) w_B(b) sum_n h(n; N, a, b) (n/N) log(N n/(a b)),
  the per-pair form of docs/math.md (equal to E[H_A] + E[H_B] - E[H_AB] because
  sum_n n h(n) = ab/N and sum_b b w_B(b) = N), with

  - w_num(a) = C(N,a) S(N-a,K-1) / S(N,K) from EXACT Stirling numbers
    (inclusion-exclusion in Python ints, k! S(n,k) = sum_j (-1)^j C(k,j)
    (k-j)^n, the division by k! checked to be exact);
  - w_all(a) = C(N,a) B_{N-a} / B_N from EXACT Bell numbers (Bell triangle);
  - w_fixed(a) = the number of clusters of size a (perm, or a reference).

How the sums are evaluated (no floating point anywhere in them):

* Fixed point with ``FRAC`` = 256 fractional bits (~77 digits) in Python
  ints: weights w(a) = floor(2^FRAC * exact ratio); the hypergeometric pmf
  h(n) starts at its mode from exact binomials, floor(2^FRAC C(b,m) C(N-b,a-m)
  / C(N,a)), and walks outwards with the exact ratio of consecutive terms
  (floor division, <= 1 unit of 2^-FRAC per step, outwards ratios are < 1 so
  errors do not grow); logs log(x) come from mpmath at 90 digits, rounded to
  the same fixed point.  The final integer sum is turned into an mpf at
  mp.dps = 50 and written with 40 significant digits.

Truncations (each with a bound recorded per case in the JSON; all are many
orders of magnitude below 1e-40 relative):

* Hypergeometric tails: the pmf is log-concave, so beyond the mode the ratio
  r of consecutive terms decreases and the tail after a term h is at most
  h r / (1 - r).  The walk stops once h < 2^-220 and r <= 1/2, so each tail
  is < 2^-220 in probability; |(n/N) log(Nn/ab)| <= log N, so the error of
  a per-pair sum is < 2 * 2^-220 * log N ~ 1e-65.
* num weights when N - K + 1 > 200 (otherwise every a is kept): a uniform
  clustering with K clusters is a uniform surjective labeling with K labels,
  so w(a) = K P(label 1 has a elements | surjective)
       <= K C(N,a) K^-a (1 - 1/K)^(N-a) / T(N,K),
  T(N,K) = K! S(N,K) / K^N the probability that N uniform labels use all K
  (computed exactly).  This bound is a binomial pmf in a, unimodal, so the
  a with bound >= W_CUT = 1e-60 form an interval; only those are computed
  exactly, the dropped weight is at most the sum of the bounds (recorded as
  ``dropped_weight_bound``), and since every per-pair sum is <= log N and
  sum_b w_B(b) <= N, the error in E[MI] is <= dropped * N log N.
* all weights: every a = 1..N is computed exactly; those < W_CUT are dropped
  and their exact total is recorded the same way.
* Pairs (a, b) with w_A(a) w_B(b) < PAIR_CUT = 1e-70 are skipped: at most
  N^2 pairs, each <= PAIR_CUT log N, recorded as ``skipped_pairs_bound``.

Self-checks (assertions): Stirling numbers against the recurrence for n <= 60,
Bell numbers against mpmath.bell (Dobinski) to 45 digits, sum_a w(a) = K
(num) and sum_a a w(a) = N up to the truncation bounds, and the whole E[RI]
and E[MI] pipeline against the independent small-N oracle
``expectations.json`` (N = 100 series values, themselves checked there
against brute-force enumeration for N <= 7) to 1e-38 relative.

Run from the repository root (about ten minutes on one core)::

    python tests/reference/make_large_expectations.py

It writes ``tests/reference/large_expectations.json`` beside itself.
"""

from __future__ import annotations

import json
import math
import platform
import sys
import time
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared primitives: _exact.py
from _exact import bell_numbers, stirling2_range  # noqa: E402
from _exact import stirling2 as stirling2_by_recurrence  # noqa: E402
from mpmath import mp, mpf

mp.dps = 50  # working precision of every mpf result
LOG_DPS = 90  # precision of the log table before rounding to fixed point
DIGITS = 40  # significant digits written to the JSON
FRAC = 256  # fractional bits of the fixed-point integers
ONE = 1 << FRAC
HYPER_STOP = 1 << (FRAC - 220)  # hypergeometric walk stops below 2^-220 (fixed point)
W_CUT = mpf("1e-60")
PAIR_CUT = mpf("1e-70")
SMALL_RANGE = 200  # num: compute every a when N - K + 1 <= this

HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------
# Exact special numbers
# ----------------------------------------------------------------------------
def stirling2(n: int, k: int) -> int:
    return stirling2_range(n, n, k)[n]


def _check_special_numbers() -> None:
    # inclusion-exclusion against the triangle, and the triangle against Bell's
    for n in range(61):
        for k in range(n + 1):
            assert stirling2(n, k) == stirling2_by_recurrence(n, k), (n, k)
    bells = bell_numbers(60)
    assert all(bells[n] == sum(stirling2_by_recurrence(n, k) for k in range(n + 1))
               for n in range(61))


# ----------------------------------------------------------------------------
# Fixed-point helpers
# ----------------------------------------------------------------------------
@cache
def flog(x: int) -> int:
    """round(2^FRAC log x), from mpmath at LOG_DPS digits."""
    with mp.workdps(LOG_DPS):
        return int(mp.nint(mp.log(x) * ONE))


def fixed_ratio(num: int, den: int) -> int:
    """floor(2^FRAC num / den) for non-negative integers."""
    return (num << FRAC) // den


def to_mpf(x: int, shift: int):
    return mpf(x) / mpf(2) ** shift


# ----------------------------------------------------------------------------
# Weights w(a): expected number of clusters of size a
# ----------------------------------------------------------------------------
class Side:
    """A side of the comparison: its weights (fixed point), p_same, and bounds."""

    def __init__(self, n: int, spec: tuple):
        self.n = n
        self.spec = spec
        self.dropped = mpf(0)  # bound on the total weight left out
        kind = spec[0]
        if kind == "fixed":
            counts = Counter(spec[1])
            self.w = {a: c << FRAC for a, c in counts.items()}
            self.p_same = Fraction(sum(c * a * (a - 1) for a, c in counts.items()), n * (n - 1))
            self.exact_total = (sum(counts.values()), n)
        elif kind == "num":
            self._num(spec[1])
        elif kind == "all":
            self._all()
        else:
            raise AssertionError(spec)

    def _num(self, k: int) -> None:
        n = self.n
        s_nk = stirling2_range(n - 1, n, k)
        self.p_same = Fraction(s_nk[n - 1], s_nk[n])
        a_max = n - k + 1
        if k == 1:
            lo, hi = n, n
        elif a_max <= SMALL_RANGE:
            lo, hi = 1, a_max
        else:
            # w(a) <= K C(N,a) K^-a (1-1/K)^(N-a) / T(N,K), T = K! S(N,K) / K^N
            log_t = mp.log(math.factorial(k) * s_nk[n]) - n * mp.log(k)
            log_cut = mp.log(W_CUT)

            def log_bound(a: int):
                return (
                    mp.log(k)
                    + mp.loggamma(n + 1)
                    - mp.loggamma(a + 1)
                    - mp.loggamma(n - a + 1)
                    - a * mp.log(k)
                    + (n - a) * mp.log1p(-mpf(1) / k)
                    - log_t
                )

            bounds = [log_bound(a) for a in range(1, a_max + 1)]
            keep = [a for a, lb in zip(range(1, a_max + 1), bounds, strict=True) if lb >= log_cut]
            lo, hi = min(keep), max(keep)
            assert keep == list(range(lo, hi + 1))  # unimodal bound: an interval
            self.dropped = mp.fsum(
                mp.exp(lb)
                for a, lb in zip(range(1, a_max + 1), bounds, strict=True)
                if not lo <= a <= hi
            )
        s_small = stirling2_range(n - hi, n - lo, k - 1)
        den = s_nk[n]
        self.w = {}
        for a in range(lo, hi + 1):
            num = math.comb(n, a) * s_small[n - a]
            if num:
                self.w[a] = fixed_ratio(num, den)
        self.exact_total = (k, n)

    def _all(self) -> None:
        n = self.n
        bells = bell_numbers(n)
        with mp.workdps(60):
            ratio = mpmath.bell(n - 1) / mpmath.bell(n)  # Dobinski, independent of the triangle
            exact = Fraction(bells[n - 1], bells[n])
            assert abs(ratio - mpf(exact.numerator) / exact.denominator) < mpf("1e-45") * ratio
        self.p_same = Fraction(bells[n - 1], bells[n])
        cut = W_CUT
        self.w = {}
        dropped = Fraction(0)
        for a in range(1, n + 1):
            w = Fraction(math.comb(n, a) * bells[n - a], bells[n])
            if w >= Fraction(1, 10**60):
                self.w[a] = fixed_ratio(w.numerator, w.denominator)
            else:
                dropped += w
        assert cut == mpf("1e-60")
        self.dropped = mpf(dropped.numerator) / dropped.denominator
        self.exact_total = (None, n)

    def check(self) -> None:
        """sum_a w(a) = K and sum_a a w(a) = N, up to truncation and rounding."""
        n = self.n
        k, total_size = self.exact_total
        slack = self.dropped * n + mpf(len(self.w) * n + 1) / ONE
        if k is not None:
            got = to_mpf(sum(self.w.values()), FRAC)
            assert abs(got - k) <= slack, (self.spec, got, k)
        got = to_mpf(sum(a * w for a, w in self.w.items()), FRAC)
        assert abs(got - total_size) <= slack, (self.spec, got, total_size)


# ----------------------------------------------------------------------------
# The per-pair sum and E[MI]
# ----------------------------------------------------------------------------
class Hyper:
    """Per-pair sums D(a, b) = sum_n h(n; N, a, b) n log(N n / (a b)), fixed point 2^(2 FRAC)."""

    def __init__(self, n: int):
        self.n = n
        self.cache: dict[tuple[int, int], int] = {}
        self.comb_n: dict[int, int] = {}

    def __call__(self, a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        key = (a, b)
        got = self.cache.get(key)
        if got is None:
            got = self.cache[key] = self._compute(a, b)
        return got

    def _compute(self, a: int, b: int) -> int:
        n = self.n
        lo_n, hi_n = max(0, a + b - n), a  # a <= b
        mode = min(max((a + 1) * (b + 1) // (n + 2), lo_n), hi_n)
        cn = self.comb_n.get(a)
        if cn is None:
            cn = self.comb_n[a] = math.comb(n, a)
        h_mode = fixed_ratio(math.comb(b, mode) * math.comb(n - b, a - mode), cn)
        log_mu = flog(a) + flog(b) - flog(n)  # 2^FRAC log(ab/N)
        c = n - a - b  # h(x+1)/h(x) = (a-x)(b-x) / ((x+1)(c+x+1))

        def term(x: int, h: int) -> int:
            return 0 if x == 0 else h * x * (flog(x) - log_mu)

        total = term(mode, h_mode)
        h, x = h_mode, mode
        while x < hi_n:  # upwards
            num, den = (a - x) * (b - x), (x + 1) * (c + x + 1)
            h = h * num // den
            x += 1
            total += term(x, h)
            if h == 0 or (h < HYPER_STOP and 2 * num <= den):
                break
        h, x = h_mode, mode
        while x > lo_n:  # downwards: h(x-1)/h(x) = x (c+x) / ((a-x+1)(b-x+1))
            num, den = x * (c + x), (a - x + 1) * (b - x + 1)
            h = h * num // den
            x -= 1
            total += term(x, h)
            if h == 0 or (h < HYPER_STOP and 2 * num <= den):
                break
        return total


def expected_mi(n: int, side_a: Side, side_b: Side) -> tuple:
    """E[MI] (mpf) and the bound on the skipped pairs."""
    hyper = Hyper(n)
    cut = int(PAIR_CUT * ONE * ONE)  # w_A w_B < PAIR_CUT in fixed point 2^(2 FRAC)
    total = 0
    skipped = 0
    for a, wa in side_a.w.items():
        for b, wb in side_b.w.items():
            ww = wa * wb
            if ww < cut:
                skipped += 1
                continue
            total += ww * hyper(a, b)
    value = to_mpf(total, 4 * FRAC) / n
    skipped_bound = skipped * PAIR_CUT * mp.log(n)
    return value, skipped_bound


def expected_ri(side_a: Side, side_b: Side) -> Fraction:
    pa, pb = side_a.p_same, side_b.p_same
    return pa * pb + (1 - pa) * (1 - pb)


# ----------------------------------------------------------------------------
# Size sequences
# ----------------------------------------------------------------------------
def zipf_sizes(n: int, k: int) -> list[int]:
    """k sizes >= 1 summing to n, the excess n - k split proportionally to 1/r (largest remainder)."""
    extra = n - k
    weights = [Fraction(1, r) for r in range(1, k + 1)]
    tot = sum(weights)
    shares = [extra * w / tot for w in weights]
    base = [math.floor(s) for s in shares]
    left = extra - sum(base)
    order = sorted(range(k), key=lambda i: (-(shares[i] - base[i]), i))
    for i in order[:left]:
        base[i] += 1
    sizes = sorted((1 + x for x in base), reverse=True)
    assert sum(sizes) == n, (n, k)
    assert len(sizes) == k, (n, k)
    assert min(sizes) >= 1, (n, k)
    return sizes


def balanced_sizes(n: int, k: int) -> list[int]:
    q, r = divmod(n, k)
    return [q + 1] * r + [q] * (k - r)


def rle(sizes) -> list[list[int]]:
    """Run-length form [[size, count], ...], sizes decreasing."""
    return [[a, c] for a, c in sorted(Counter(sizes).items(), reverse=True)]


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------
NUM_TRIPLES = [
    (1000, 2, 3),
    (1000, 10, 50),
    (2000, 100, 100),
    (5000, 1000, 1000),
    (3000, 2990, 2995),
    (2000, 500, 20),
    (1000, 999, 2),
    (500, 250, 250),
    # around the switch between the inclusion-exclusion mixture and the
    # size law in chanceclust (at K = 164 for N = 1000, 663 for N = 5000,
    # 1225 for N = 10^4)
    (1000, 163, 164),
    (5000, 662, 663),
    (10_000, 1224, 1225),
    # K = 1 and K = N: the random clustering is unique
    (1000, 1, 7),
    (1000, 1000, 10),
]
ALL_NS = [200, 1000, 3000]
PERM_PAIRS = [
    (10_000, zipf_sizes(10_000, 100), [3000, 2500, 2000, 1500, 1000]),
    (10_000, [5000] + [1] * 5000, zipf_sizes(10_000, 40)),
    (100_000, zipf_sizes(100_000, 200), balanced_sizes(100_000, 7)),
    (100_000, [50_000, 50_000], zipf_sizes(100_000, 1000)),
]


def case_list() -> list[dict]:
    cases = []
    for n, ka, kb in NUM_TRIPLES:
        cases.append(
            {
                "id": f"num2_N{n}_K{ka}_K{kb}",
                "model": "num",
                "one_sided": False,
                "n": n,
                "n_clusters_true": ka,
                "n_clusters_pred": kb,
                "spec_a": ("num", ka),
                "spec_b": ("num", kb),
            }
        )
        ref = zipf_sizes(n, ka)
        cases.append(
            {
                "id": f"num1_N{n}_zipf{ka}_K{kb}",
                "model": "num",
                "one_sided": True,
                "n": n,
                "sizes_true": ref,
                "n_clusters_pred": kb,
                "spec_a": ("fixed", ref),
                "spec_b": ("num", kb),
            }
        )
    for n in ALL_NS:
        cases.append(
            {
                "id": f"all2_N{n}",
                "model": "all",
                "one_sided": False,
                "n": n,
                "spec_a": ("all",),
                "spec_b": ("all",),
            }
        )
        ref = zipf_sizes(n, max(3, n // 20))
        cases.append(
            {
                "id": f"all1_N{n}_zipf{len(ref)}",
                "model": "all",
                "one_sided": True,
                "n": n,
                "sizes_true": ref,
                "spec_a": ("fixed", ref),
                "spec_b": ("all",),
            }
        )
    for i, (n, st, sp) in enumerate(PERM_PAIRS):
        cases.append(
            {
                "id": f"perm_N{n}_{i}",
                "model": "perm",
                "one_sided": False,
                "n": n,
                "sizes_true": st,
                "sizes_pred": sp,
                "spec_a": ("fixed", st),
                "spec_b": ("fixed", sp),
            }
        )
    return cases


def tostr(x) -> str:
    if isinstance(x, Fraction):
        x = mpf(x.numerator) / x.denominator
    return mpmath.nstr(mpf(x), DIGITS, min_fixed=-5, max_fixed=5, strip_zeros=False)


_SIDES: dict = {}


def side(n: int, spec) -> Side:
    key = (n, spec[0], tuple(spec[1]) if spec[0] == "fixed" else spec[1:])
    if key not in _SIDES:
        s = Side(n, spec)
        s.check()
        _SIDES[key] = s
    return _SIDES[key]


def compute(case: dict) -> dict:
    n = case["n"]
    t0 = time.perf_counter()
    sa, sb = side(n, case["spec_a"]), side(n, case["spec_b"])
    e_ri = expected_ri(sa, sb)
    e_mi, skipped = expected_mi(n, sa, sb)
    seconds = time.perf_counter() - t0
    weights_bound = (sa.dropped + sb.dropped) * n * mp.log(n)
    return {
        "rand": e_ri,
        "mi": e_mi,
        "seconds": seconds,
        "skipped": skipped,
        "weights_bound": weights_bound,
        "pairs": len(sa.w) * len(sb.w),
    }


# ----------------------------------------------------------------------------
# Check against the small-N oracle
# ----------------------------------------------------------------------------
def _check_against_small_oracle() -> int:
    data = json.loads((HERE / "expectations.json").read_text())
    checked = 0
    for c in data["cases"]:
        if c["n"] != 100 or c["method"] != "series":
            continue
        st, sp = c["sizes_true"], c["sizes_pred"]
        if len(st) < 2 or len(sp) < 2 or len(st) >= 100 or len(sp) >= 100:
            continue
        for model in ("perm", "num", "all"):
            for sided in ("two_sided", "one_sided"):
                if model == "perm":
                    specs = (("fixed", st), ("fixed", sp))
                elif sided == "one_sided":
                    specs = (("fixed", st), ("num", len(sp)) if model == "num" else ("all",))
                elif model == "num":
                    specs = (("num", len(st)), ("num", len(sp)))
                else:
                    specs = (("all",), ("all",))
                sa, sb = Side(100, specs[0]), Side(100, specs[1])
                sa.check()
                sb.check()
                ref = c["expectations"][model][sided]
                assert expected_ri(sa, sb) == Fraction(ref["rand_fraction"]), (c["id"], model)
                mi, _ = expected_mi(100, sa, sb)
                rel = abs(mi - mpf(ref["mi"])) / mpf(ref["mi"])
                assert rel < mpf("1e-38"), (c["id"], model, sided, mi, ref["mi"])
                checked += 1
    assert checked >= 20, checked
    return checked


def main() -> None:
    t_start = time.perf_counter()
    _check_special_numbers()
    n_checked = _check_against_small_oracle()
    print(f"small-N oracle agreement: {n_checked} (model, side) values at N=100", flush=True)
    out_cases = []
    for case in case_list():
        r = compute(case)
        bound = r["skipped"] + r["weights_bound"]
        assert bound < mpf("1e-45") * r["mi"] or r["mi"] == 0, (case["id"], bound, r["mi"])
        rec = {
            "id": case["id"],
            "model": case["model"],
            "one_sided": case["one_sided"],
            "n": case["n"],
        }
        for key in ("n_clusters_true", "n_clusters_pred"):
            if key in case:
                rec[key] = case[key]
        for key in ("sizes_true", "sizes_pred"):
            if key in case:
                rec[key + "_rle"] = rle(case[key])
        rec.update(
            rand=tostr(r["rand"]),
            mi=tostr(r["mi"]),
            size_pairs=r["pairs"],
            truncation_bound_mi=mpmath.nstr(bound, 3),
            seconds=round(r["seconds"], 2),
        )
        out_cases.append(rec)
        print(
            f"{case['id']:32s} {r['seconds']:8.2f}s  pairs={r['pairs']:7d}  "
            f"E[RI]={rec['rand'][:22]}  E[MI]={rec['mi'][:22]}  bound={rec['truncation_bound_mi']}",
            flush=True,
        )
    total = time.perf_counter() - t_start
    header = {
        "description": "Reference E[RI] and E[MI] (nats) at large N under perm/num/all, "
        "two-sided and one-sided (reference = sizes_true), from MATH.md's definitions.",
        "generated_by": "tests/reference/make_large_expectations.py (stdlib + mpmath; "
        "does not import chanceclust)",
        "command": "python tests/reference/make_large_expectations.py",
        "methods": {
            "rand": "p_same as exact fractions of exact Stirling/Bell integers; E[RI] exact, "
            "rounded once",
            "mi": "per-pair form sum_ab w_A(a) w_B(b) sum_n h(n;N,a,b) (n/N) log(Nn/ab); exact "
            "weights (inclusion-exclusion Stirling numbers, Bell triangle), hypergeometric pmf "
            "from exact binomials, 256-bit fixed point, logs from mpmath at 90 digits, result "
            "at mp.dps=50",
        },
        "truncation": "hypergeometric tails < 2^-220; num weights dropped where the bound "
        "K C(N,a) K^-a (1-1/K)^(N-a) / T(N,K) < 1e-60; all weights < 1e-60 dropped; pairs with "
        "w_A w_B < 1e-70 skipped; truncation_bound_mi is a bound on the total absolute effect",
        "self_checks": f"Stirling vs recurrence n<=60; Bell triangle vs mpmath.bell; sum w = K, "
        f"sum a w = N; {n_checked} N=100 values agree with expectations.json to 1e-38",
        "value_format": "decimal strings with 40 significant digits",
        "sizes_format": "*_rle: [[size, count], ...]",
        "mpmath_dps": mp.dps,
        "python": platform.python_version(),
        "mpmath": mpmath.__version__,
        "generation_seconds": round(total, 1),
        "count": len(out_cases),
    }
    path = HERE / "large_expectations.json"
    path.write_text(json.dumps({"header": header, "cases": out_cases}, indent=1) + "\n")
    print(f"wrote {path} ({len(out_cases)} cases) in {total:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
