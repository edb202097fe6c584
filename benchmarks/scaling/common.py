"""Shared helpers of the scaling benchmarks (issue 12): machine info, CPU clocks, JSON lines."""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
# BENCH_RESULTS redirects the rows (e.g. to the device machine's $OUT, so that a run stopped at
# its time limit still returns what it wrote).
RESULTS = os.environ.get("BENCH_RESULTS") or os.path.join(HERE, "results")


def cpu_seconds(children: bool = True) -> float:
    """User + system CPU seconds of this process (and its reaped children)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += kids.ru_utime + kids.ru_stime
    return total


def process_cpu(pids: list[int]) -> float:
    """CPU seconds so far of running processes (e.g. Dask workers), by psutil."""
    import psutil

    total = 0.0
    for pid in pids:
        try:
            t = psutil.Process(pid).cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def machine() -> dict[str, Any]:
    import numpy
    import scipy

    info: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "load_1min": os.getloadavg()[0],
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    try:
        info["cpu_model"] = next(
            line.split(":", 1)[1].strip()
            for line in open("/proc/cpuinfo")
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        pass
    try:
        info["mem_gib"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError):
        pass
    if os.environ.get("BENCH_GIT"):  # a copied tree's own git metadata may name another commit
        info["git"] = os.environ["BENCH_GIT"]
    else:
        try:
            info["git"] = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE
            ).stdout.strip()
        except OSError:
            pass
    for name in ("dask", "distributed", "pyarrow", "sklearn"):
        try:
            info[name] = __import__(name).__version__
        except ImportError:
            pass
    return info


def record(name: str, row: dict[str, Any]) -> None:
    """Append one JSON line to results/<name>.jsonl and echo it."""
    os.makedirs(RESULTS, exist_ok=True)
    row = {**row, "load_1min_end": os.getloadavg()[0]}
    with open(os.path.join(RESULTS, f"{name}.jsonl"), "a") as out:
        out.write(json.dumps(row) + "\n")
    print(json.dumps(row))
