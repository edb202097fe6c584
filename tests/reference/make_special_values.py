"""Generate tests/reference/special_values.json: oracle values of log S(n, k) and log B_n.

Independent of chanceclust (nothing is imported from it).  Every value is the
natural log of an exact integer, taken with mpmath at 40 significant digits,
except the Bell numbers beyond n = 1500, which are 50-digit Dobinski sums.

Sources of the exact integers:

* ``triangle``: S(n, k) for all 0 <= k <= n <= 1500 by the row recurrence
  S(n, k) = k S(n-1, k) + S(n-1, k-1); rows 500, 1000, 1500 are stored in
  full, other rows on a grid of k.
* ``inclusion_exclusion``: S(n, k) = sum_j (-1)^j C(k, j) (k - j)^n / k! for
  large n and small or moderate k (n = 10^4 .. 10^7).
* ``eulerian``: S(n, n - m) = sum_j <<m, j>> C(n + m - 1 - j, 2m) with second
  order Eulerian numbers (Concrete Mathematics eq. 6.43), checked here against
  the triangle, for k close to n at n up to 10^7.
* Bell: the Bell triangle for n <= 1500; for larger n the Dobinski series
  B_n = e^{-1} sum_u u^n / u! summed in mpmath (50 digits) over a window of
  +-60 standard deviations around its largest term (checked against the
  exact values at n = 1000 and 1500).

Run from the repository root:  python tests/reference/make_special_values.py
(about 3 minutes of CPU time; most of it is the big-integer powers for
n = 10^5, k = 1000, n = 10^6, k = 100 and n = 10^7, k = 10).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the shared primitives: _exact.py
from _exact import bell_numbers, stirling2_near_diagonal, stirling2_range, stirling2_rows  # noqa: E402

mpmath.mp.dps = 40
OUT = Path(__file__).parent / "special_values.json"


def logstr(x: int) -> str:
    """Natural log of a positive integer, 25 significant digits."""
    return mpmath.nstr(mpmath.log(mpmath.mpf(x)), 25, strip_zeros=False) if x > 1 else "0"


def inclusion_exclusion(n: int, k: int) -> int:
    return stirling2_range(n, n, k)[n]


def dobinski_log(n: int) -> mpmath.mpf:
    with mpmath.workdps(50):
        # largest term: n / u = digamma(u + 1)
        u = mpmath.mpf(n) / mpmath.lambertw(n).real
        for _ in range(50):
            f = n / u - mpmath.digamma(u + 1)
            df = -n / u**2 - mpmath.psi(1, u + 1)
            u -= f / df
        curv = n / u**2 + mpmath.psi(1, u + 1)
        sd = 1 / mpmath.sqrt(curv)
        lo = max(0, int(u - 60 * sd - 60))
        hi = int(u + 60 * sd + 60)
        logs = [n * mpmath.log(v) - mpmath.loggamma(v + 1) if v else (0 if n == 0 else None)
                for v in range(lo, hi + 1)]
        logs = [x for x in logs if x is not None]
        top = max(logs)
        # the window edges must be negligible (terms decay like a Gaussian)
        assert logs[0] - top < -200 or lo == 0
        assert logs[-1] - top < -200
        return top + mpmath.log(mpmath.fsum(mpmath.exp(x - top) for x in logs)) - 1


def main() -> None:
    t0 = time.time()
    out: dict = {"stirling2": [], "bell": []}

    # Exact triangle to 1500, and the Bell triangle.
    nmax = 1500
    full_rows = {500, 1000, 1500}
    grid_rows = set(range(301, nmax + 1, 53)) | full_rows
    for n, row in stirling2_rows(nmax):
        if n in grid_rows:
            if n in full_rows:
                ks = range(1, n + 1)
            else:
                ks = sorted({1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, n // 7, n // 3,
                             n // 2, n - 300, n - 100, n - 30, n - 10, n - 3, n - 2, n - 1, n}
                            & set(range(1, n + 1)))
            for k in ks:
                out["stirling2"].append([n, k, logstr(row[k]), "triangle"])
        if n <= 300:
            for m in range(0, min(n, 300) + 1):
                assert stirling2_near_diagonal(n, m) == row[n - m], (n, m)
        if n == 200:
            assert inclusion_exclusion(200, 37) == row[37]
    print(f"triangle done {time.time() - t0:.1f}s", file=sys.stderr)

    bells = bell_numbers(nmax)
    for n in range(nmax + 1):
        out["bell"].append([n, logstr(bells[n]), "bell_triangle"])
    for n in (1000, 1500):
        d = dobinski_log(n)
        exact = mpmath.log(mpmath.mpf(bells[n]))
        assert abs(d - exact) < mpmath.mpf(10) ** -30 * abs(exact), (n, d, exact)
    print(f"bell triangle done {time.time() - t0:.1f}s", file=sys.stderr)

    # Large n, small k: inclusion-exclusion.
    cases = {
        10**4: [2, 3, 10, 100, 1000, 2000, 5000],
        10**5: [2, 3, 10, 100, 1000],
        10**6: [2, 3, 10, 100],
        10**7: [2, 10],
    }
    for n, ks in cases.items():
        for k in ks:
            out["stirling2"].append([n, k, logstr(inclusion_exclusion(n, k)), "inclusion_exclusion"])
            print(f"  IE n={n} k={k} {time.time() - t0:.1f}s", file=sys.stderr)

    # Large n, k close to n: Eulerian numbers.
    for n in (2000, 10**4, 10**5, 10**6, 10**7):
        for m in (1, 2, 3, 10, 30, 100, 300):
            out["stirling2"].append([n, n - m, logstr(stirling2_near_diagonal(n, m)), "eulerian"])
    print(f"eulerian done {time.time() - t0:.1f}s", file=sys.stderr)

    for n in (2000, 5000, 10**4, 10**5, 10**6, 10**7):
        out["bell"].append([n, mpmath.nstr(dobinski_log(n), 25, strip_zeros=False), "dobinski"])
    print(f"dobinski done {time.time() - t0:.1f}s", file=sys.stderr)

    out["meta"] = {
        "generator": "tests/reference/make_special_values.py",
        "format": "stirling2 rows: [n, k, log S(n,k) as a decimal string, source]; "
                  "bell rows: [n, log B_n, source]",
        "mpmath_dps": 40,
        "dobinski_dps": 50,
    }
    OUT.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {OUT} in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
