"""The asv suite (benchmarks/asv_bench) imports and runs: one pass of every benchmark on its
smallest parameters, as ``asv run --quick`` would, timing nothing (timings are asv's job:
benchmarks/README.md). A benchmark whose setup raises NotImplementedError is one asv skips
(e.g. a function that an older commit lacks)."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
MODULES = sorted(p.stem for p in (BENCH / "asv_bench").glob("bench_*.py"))


def _module(name):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(f"asv_bench.{name}")


def _smallest(params):
    """The first value of each parameter list (asv's params: a list, or a tuple of lists)."""
    if not params:
        return ()
    if isinstance(params, tuple):
        return tuple(values[0] for values in params)
    return (params[0],)


def _cases():
    for name in MODULES:
        module = _module(name)
        for attr, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == module.__name__:
                for method in sorted(m for m in vars(obj) if m.startswith("time_")):
                    yield pytest.param(name, attr, method, id=f"{name}.{attr}.{method}")
            elif attr.startswith("timeraw_") and callable(obj):
                yield pytest.param(name, attr, None, id=f"{name}.{attr}")


@pytest.mark.parametrize(("module", "target", "method"), list(_cases()))
def test_benchmark_runs_once(module, target, method):
    obj = getattr(_module(module), target)
    if method is None:  # timeraw_: asv runs the returned code in a fresh interpreter
        code = textwrap.dedent(obj())
        subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
        return
    args = _smallest(getattr(obj, "params", ()))
    bench = obj()
    try:
        if hasattr(bench, "setup"):
            bench.setup(*args)
    except NotImplementedError:
        pytest.skip("asv skips this case (its setup says it does not apply)")
    try:
        getattr(bench, method)(*args)
    finally:
        if hasattr(bench, "teardown"):
            bench.teardown(*args)


def test_the_suite_has_the_grid_of_the_issue():
    measures = _module("bench_measures")
    sizes, ks, shapes = measures.PermSizes.params
    assert sizes == [10**2, 10**4, 10**5, 10**6, 10**7]
    assert min(ks) == 2 and max(ks) == 10**4
    assert set(shapes) == {"uniform", "zipf", "dirichlet", "stair"}
