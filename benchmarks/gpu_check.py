#!/usr/bin/env python
"""Labels on a GPU (#36): values against the CPU path, time and host memory at huge N.

One prepared script for a CUDA machine; run from the repository root with chanceclust
importable (``pip install -e .`` or ``PYTHONPATH=src``)::

    python benchmarks/gpu_check.py --out benchmarks/GPU.md        # CuPy, PyTorch, JAX
    python benchmarks/gpu_check.py --dry-run                        # CPU only, seconds

Each installed backend (CuPy, PyTorch on CUDA, JAX on a GPU; array-api-compat is needed
for PyTorch and CuPy) is checked in three parts:

1. values: ARI and AMI under perm, num and all, two- and one-sided, of labels on the
   device equal to the same calls on numpy labels (the CPU path), exactly;
2. time and host memory at N = 10^8 and 10^9 labels (int32 and int64, K = 1000 clusters
   per side, drawn on the device): ``contingency_table`` (the part that reads the labels:
   encoding and counting on the device, the table's transfer), ARI and AMI under every
   model and side, against the device's own ``bincount`` of the pair codes
   ``a * K + b`` (the floor of any table count), cuML's ARI and MI and torchmetrics' ARI
   and AMI where installed (their values and times, wrong values shown), and the CPU path
   (the same calls on numpy copies of the labels);
3. a markdown table of all of it (``--out``, else standard output).

Host memory is the growth of the process's peak resident set (``VmHWM``, reset through
``/proc/self/clear_refs`` before each call; Linux). Times are wall-clock seconds after the
device synchronised, best of ``--repeat`` calls.

``--dry-run`` runs every part on the CPU with array-api-strict's test device (which refuses
conversion to numpy, as a GPU array would) at N = 10^4 and 10^5, the floor being numpy's
bincount of a host copy; no GPU library is needed (tests/test_gpu_check.py runs it in CI).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import chanceclust as cc

SETTINGS = [(m, s) for m in ("perm", "num", "all") for s in (False, True)]
MEASURES = {"ARI": cc.adjusted_rand_index, "AMI": cc.adjusted_mutual_information}


@dataclass
class Backend:
    """One array library on one device: how to make labels there, its bincount, a sync."""

    name: str
    randint: Callable[[int, int, str, int], Any]  # (n, k, dtype, seed) -> labels there
    asarray: Callable[[np.ndarray], Any]
    bincount: Callable[[Any, Any, int], Any]  # (a, b, k) -> the K*K counts of a*k + b
    sync: Callable[[], None] = lambda: None
    peers: dict[str, Callable[[Any, Any], float]] = field(default_factory=dict)


def _cupy() -> Backend | None:
    try:
        import cupy
    except ImportError:
        return None

    def bincount(a: Any, b: Any, k: int) -> Any:
        return cupy.bincount(a.astype(cupy.int64) * k + b, minlength=k * k)

    peers = {}
    with contextlib.suppress(ImportError):
        from cuml.metrics import adjusted_rand_score, mutual_info_score

        peers["cuML ARI"] = lambda a, b: float(adjusted_rand_score(a, b))
        peers["cuML MI (not adjusted)"] = lambda a, b: float(mutual_info_score(a, b))
    return Backend(
        "CuPy", lambda n, k, dtype, seed: cupy.random.default_rng(seed).integers(
            0, k, n, dtype=dtype),
        cupy.asarray, bincount, lambda: cupy.cuda.Device().synchronize(), peers,
    )  # fmt: skip


def _torch() -> Backend | None:
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None

    def randint(n: int, k: int, dtype: str, seed: int) -> Any:
        gen = torch.Generator(device="cuda").manual_seed(seed)
        return torch.randint(0, k, (n,), generator=gen, device="cuda",
                             dtype=getattr(torch, dtype))  # fmt: skip

    def bincount(a: Any, b: Any, k: int) -> Any:
        return torch.bincount(a.to(torch.int64) * k + b, minlength=k * k)

    peers = {}
    with contextlib.suppress(ImportError):
        from torchmetrics.functional.clustering import (
            adjusted_mutual_info_score,
            adjusted_rand_score,
        )

        peers["torchmetrics ARI"] = lambda a, b: float(adjusted_rand_score(b, a))
        peers["torchmetrics AMI"] = lambda a, b: float(adjusted_mutual_info_score(b, a))
    return Backend("PyTorch CUDA", randint, lambda x: torch.as_tensor(x, device="cuda"),
                   bincount, torch.cuda.synchronize, peers)  # fmt: skip


def _jax() -> Backend | None:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    if not any(d.platform == "gpu" for d in jax.devices()):
        return None
    jax.config.update("jax_enable_x64", True)

    def randint(n: int, k: int, dtype: str, seed: int) -> Any:
        return jax.random.randint(jax.random.key(seed), (n,), 0, k, dtype=getattr(jnp, dtype))

    def bincount(a: Any, b: Any, k: int) -> Any:
        return jnp.bincount(a.astype(jnp.int64) * k + b, length=k * k).block_until_ready()

    return Backend("JAX GPU", randint, jnp.asarray, bincount)


def _strict() -> Backend:
    """array-api-strict's test device: the dry run's stand-in for a GPU (no bincount in
    the standard: the floor is numpy's bincount of a host copy)."""
    import array_api_strict as xp

    device = xp.Device("device1")

    def randint(n: int, k: int, dtype: str, seed: int) -> Any:
        return xp.asarray(np.random.default_rng(seed).integers(0, k, n, dtype=dtype),
                          device=device)  # fmt: skip

    def bincount(a: Any, b: Any, k: int) -> Any:
        host_a = _host(a).astype(np.int64)
        return np.bincount(host_a * k + _host(b), minlength=k * k)

    return Backend("array-api-strict device1 (dry run)", randint,
                   lambda x: xp.asarray(x, device=device), bincount)  # fmt: skip


def _host(x: Any) -> np.ndarray:
    """A device array as numpy (for the CPU path and the peers' checks only)."""
    for move in (lambda: x.get(), lambda: x.cpu().numpy(),
                 lambda: np.from_dlpack(x, device="cpu", copy=True),
                 lambda: np.from_dlpack(x).copy(), lambda: np.asarray(x)):  # numpy < 2.1
        with contextlib.suppress(Exception):
            return np.asarray(move())
    raise TypeError(f"cannot copy a {type(x).__name__} to the host")


def _status(field_name: str) -> int | None:
    """A field of /proc/self/status in bytes (None off Linux)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) * 1024
    return None


def _reset_peak() -> None:
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def measure(call: Callable[[], Any], sync: Callable[[], None], repeat: int
            ) -> tuple[Any, float, float | None]:  # fmt: skip
    """(value, best wall-clock seconds, host peak RSS growth in bytes) of ``call``."""
    best, growth, value = math.inf, None, None
    for _ in range(repeat):
        gc.collect()
        sync()
        _reset_peak()
        before = _status("VmRSS")
        start = time.perf_counter()
        value = call()
        sync()
        best = min(best, time.perf_counter() - start)
        peak = _status("VmHWM")
        if before is not None and peak is not None:
            growth = max(growth or 0, peak - before)
    return value, best, growth


def check_values(backend: Backend, n: int, k: int) -> list[tuple[str, str, bool, str]]:
    """Part 1: every measure, model and side on the device equals the CPU path, exactly."""
    rng = np.random.default_rng(36)
    a, b = rng.integers(0, k, n), rng.integers(0, max(2, k // 3), n)
    da, db = backend.asarray(a), backend.asarray(b)
    rows = []
    for name, f in MEASURES.items():
        for model, one_sided in SETTINGS:
            got, want = f(da, db, model=model, one_sided=one_sided), f(a, b, model=model,
                                                                        one_sided=one_sided)
            rows.append((name, f"{model}{', one-sided' if one_sided else ''}", got == want,
                         repr(got)))
    return rows


def _mb(value: float | None) -> str:
    return "n/a" if value is None else f"{value / 2**20:.1f}"


def timings(backend: Backend, n: int, k: int, dtype: str, repeat: int, cpu: bool
            ) -> list[tuple[str, str, float, float | None]]:  # fmt: skip
    """Part 2: (what, value, seconds, host growth) at one N and dtype."""
    a, b = backend.randint(n, k, dtype, 1), backend.randint(n, k, dtype, 2)
    backend.sync()
    rows = []
    _, t, g = measure(lambda: backend.bincount(a, b, k), backend.sync, repeat)
    rows.append(("device bincount of a*K+b (floor)", "", t, g))
    table, t, g = measure(lambda: cc.contingency_table(a, b), backend.sync, repeat)
    rows.append(("chanceclust contingency_table", f"{int(table.sum())} elements", t, g))
    reference: dict[tuple[str, str, bool], float] = {}
    for name, f in MEASURES.items():
        for model, one_sided in SETTINGS:
            value, t, g = measure(lambda f=f, m=model, s=one_sided: f(a, b, model=m, one_sided=s),
                                  backend.sync, repeat)  # fmt: skip
            reference[(name, model, one_sided)] = value
            side = ", one-sided" if one_sided else ""
            rows.append((f"chanceclust {name} {model}{side}", f"{value:.12g}", t, g))
    for name, peer in backend.peers.items():
        try:
            value, t, g = measure(lambda peer=peer: peer(a, b), backend.sync, 1)
        except Exception as error:  # noqa: BLE001 - a peer's failure is a result to show
            rows.append((name, f"failed: {type(error).__name__}: {error}"[:80], math.nan, None))
            continue
        ours = reference.get((name.split()[-1], "perm", False))
        wrong = ours is not None and not math.isclose(value, ours, rel_tol=1e-9, abs_tol=1e-12)
        rows.append((name, f"{value:.12g}" + (f" WRONG (exact {ours:.12g})" if wrong else ""),
                     t, g))  # fmt: skip
    if cpu:
        host_a, host_b = _host(a), _host(b)
        del a, b
        for what, call in (
            ("CPU contingency_table", lambda: cc.contingency_table(host_a, host_b)),
            ("CPU ARI perm", lambda: cc.adjusted_rand_index(host_a, host_b)),
            ("CPU AMI perm", lambda: cc.adjusted_mutual_information(host_a, host_b)),
        ):
            value, t, g = measure(call, lambda: None, 1)
            shown = "" if what.endswith("table") else f"{value:.12g}"
            rows.append((what, shown, t, g))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true",
                        help="run on the CPU with array-api-strict at small N")  # fmt: skip
    parser.add_argument("--sizes", type=float, nargs="+", default=None)
    parser.add_argument("--dtypes", nargs="+", default=["int32", "int64"])
    parser.add_argument("--k", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--no-cpu", action="store_true", help="skip the CPU path")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in (args.sizes or ([1e4, 1e5] if args.dry_run else [1e8, 1e9]))]
    backends = [_strict()] if args.dry_run else [
        b for b in (_cupy(), _torch(), _jax()) if b is not None]  # fmt: skip
    command = " ".join(argv if argv is not None else sys.argv[1:])
    lines = ["# Labels on a GPU: benchmarks/gpu_check.py", "",
             (f"`python benchmarks/gpu_check.py {command}`; chanceclust {cc.__version__}, "
              f"numpy {np.__version__}, Python {platform.python_version()}, "
              f"{platform.machine()}, {os.cpu_count()} CPUs."), ""]  # fmt: skip
    if not backends:
        lines.append("No GPU backend found (CuPy, PyTorch with CUDA, JAX on a GPU): nothing ran.")
    failures = 0
    for backend in backends:
        lines += [f"## {backend.name}", "", "Values against the CPU path (N = 20000, K = 50):",
                  "", "| measure | model | equal | value |", "|---|---|---|---|"]  # fmt: skip
        for name, setting, equal, value in check_values(backend, 20000 if not args.dry_run
                                                         else 2000, 50):  # fmt: skip
            failures += not equal
            lines.append(f"| {name} | {setting} | {'yes' if equal else 'NO'} | {value} |")
        for n in sizes:
            for dtype in args.dtypes:
                size = 2 * n * np.dtype(dtype).itemsize / 2**30
                lines += ["", f"N = {n:.0e} {dtype} labels, K = {args.k} per side "
                          + f"(labels: {size:.2f} GiB):", "",
                          "| what | value | seconds | host peak growth MB |",
                          "|---|---|---|---|"]  # fmt: skip
                for what, value, t, g in timings(backend, n, args.k, dtype, args.repeat,
                                                 not args.no_cpu):  # fmt: skip
                    lines.append(f"| {what} | {value} | {t:.4g} | {_mb(g)} |")
        lines.append("")
    text = "\n".join(lines) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
