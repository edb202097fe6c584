"""Files and functions one public call runs through (``sys.setprofile`` trace).

Usage, from the repository root: ``PYTHONPATH=src python benchmarks/hops.py``.

After ``REVIEW.md``'s ``review2/hops.py`` (the architecture review behind #15), made
independent of the module layout: every ``functools.lru_cache`` in the package is cleared
before each traced call (so cached work is counted), whatever module holds it. ``files``
counts the package's source files the call enters; ``formula files`` leaves out
``_validation.py`` (argument checks, not the formula); ``units`` counts a subpackage (the
engine ``_expected/``) as one.
"""

from __future__ import annotations

import collections
import os
import sys

import numpy as np

import chanceclust as cc

SRC = os.path.dirname(cc.__file__)


def clear_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith("chanceclust") and module is not None:
            for obj in vars(module).values():
                if callable(getattr(obj, "cache_clear", None)):
                    obj.cache_clear()


def trace(fn) -> list[tuple[str, str]]:
    seen: dict[tuple[str, str], None] = collections.OrderedDict()

    def prof(frame, event, arg):
        if event == "call":
            f = frame.f_code.co_filename
            if f.startswith(SRC):
                seen.setdefault((os.path.relpath(f, SRC), frame.f_code.co_name), None)

    fn()  # imports and first-use set-up happen outside the trace
    clear_caches()
    sys.setprofile(prof)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return list(seen)


def main() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 20, 5000)
    b = rng.integers(0, 30, 5000)
    calls = {
        "rand_index": lambda: cc.rand_index(a, b),
        "adjusted_rand_index perm": lambda: cc.adjusted_rand_index(a, b),
        "adjusted_rand_index num": lambda: cc.adjusted_rand_index(a, b, model="num"),
        "rand_index_variance num": lambda: cc.rand_index_variance(a, b, model="num"),
        "expected_mutual_information perm": lambda: cc.expected_mutual_information(a, b),
        "expected_mutual_information num": lambda: cc.expected_mutual_information(
            a, b, model="num"),
        "expected_mutual_information all": lambda: cc.expected_mutual_information(
            a, b, model="all"),
        "adjusted_mutual_information num1": lambda: cc.adjusted_mutual_information(
            a, b, model="num", one_sided=True),
        "log_stirling2": lambda: cc.log_stirling2(1000, 10),
        "significance ari num": lambda: cc.significance_test(
            "ari", a[:200], b[:200], model="num", n_resamples=10, rng=0),
    }
    for name, fn in calls.items():
        seen = trace(fn)
        files = sorted({f for f, _ in seen})
        formula = [f for f in files if f != "_validation.py"]
        units = {f.split(os.sep)[0] for f in formula}
        print(f"{name:34s} files={len(files):2d} formula files={len(formula):2d} "
              f"units={len(units):2d} "
              f"functions={len(seen):3d}  {' '.join(files)}")


if __name__ == "__main__":
    main()
