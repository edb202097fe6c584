"""Importing and calling chanceclust leaves its process as it found it (issue #33).

A metric library must not change its host's allocator, leave threads running or change numpy's
global state. A fresh interpreter, started with the environment Dask's nanny gives its workers
(``MALLOC_TRIM_THRESHOLD_=65536``: what once made ``pairwise`` call glibc's ``mallopt``), spies
on every C library ctypes loads, then imports chanceclust and calls a measure, the threaded
table, ``pairwise`` and the Dask path. It reports what it saw; the test checks it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _package_source import SRC

SCRIPT = r"""
import ctypes, json, os, threading
os.environ["MALLOC_TRIM_THRESHOLD_"] = "65536"
loaded = []

class _Spy(ctypes.CDLL):
    def __init__(self, name, *args, **kwargs):
        loaded.append(str(name))
        super().__init__(name, *args, **kwargs)

ctypes.CDLL = _Spy
started = []
_start = threading.Thread.start

def _spy_start(self):
    started.append(self.name)
    return _start(self)

threading.Thread.start = _spy_start

import numpy as np
before = (np.geterr(), np.get_printoptions(), threading.active_count())

import chanceclust as cc
from chanceclust import _tables, _validation
_tables._CHUNK_ELEMENTS = _validation._ENCODE_CHUNK = 1000  # threads on a small input
rng = np.random.default_rng(0)
a, b = rng.integers(0, 5, 20_000), rng.integers(0, 4, 20_000)
cc.adjusted_rand_index(a, b)
cc.adjusted_mutual_information(a, b, model="num")
cc.contingency_table(a, b, workers=2)
cc.pairwise([a, b, a[::-1].copy()], measure="ami")
after_calls = (np.geterr(), np.get_printoptions(), threading.active_count())
dask_threads = []
if DASK:
    import dask, dask.array as da
    from chanceclust import dask as ccd
    with dask.config.set(scheduler="synchronous"):
        ccd.contingency_table((da.from_array(a, chunks=5_000), da.from_array(b, chunks=5_000)))
    after_dask = (np.geterr(), np.get_printoptions())
    assert after_dask == before[:2], after_dask
    dask_threads = [t.name for t in threading.enumerate() if t.name.startswith("chanceclust")]
print(json.dumps({
    "loaded": loaded, "started": started,
    "numpy_same": after_calls[:2] == before[:2], "threads": [before[2], after_calls[2]],
    "ours_alive": [t.name for t in threading.enumerate() if t.name.startswith("chanceclust")],
    "dask_threads": dask_threads,
}))
"""


def _run(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh interpreter that imports this tree's chanceclust."""
    path = os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": path}, timeout=300, check=True)


@pytest.mark.parametrize("with_dask", [False, True])
def test_calls_leave_the_allocator_threads_and_numpy_as_they_were(with_dask):
    if with_dask:
        pytest.importorskip("dask.array")
    out = _run(SCRIPT.replace("DASK", str(with_dask)))
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    libc = [name for name in seen["loaded"] if "libc" in name.lower() or "msvcrt" in name.lower()
            or "libsystem" in name.lower()]  # fmt: skip
    assert libc == []  # no mallopt, no malloc_trim: the C library is never loaded
    assert seen["numpy_same"]
    # the threaded table and encoder did run threads, and none is left
    assert any(name.startswith("chanceclust-table") for name in seen["started"])
    assert any(name.startswith("chanceclust-encode") for name in seen["started"])
    assert seen["threads"][0] == seen["threads"][1]
    assert seen["ours_alive"] == [] and seen["dask_threads"] == []


def test_plain_labels_never_import_numpy_ma():
    """Reading plain arrays and lists does not import numpy.ma (about 20 ms at the first call
    of a process, issue #38); a masked array is still read with its mask (it was imported to
    make one)."""
    script = (
        "import sys, numpy as np\n"
        "before = 'numpy.ma' in sys.modules  # numpy < 2 imports numpy.ma itself\n"
        "import chanceclust as cc\n"
        "a, b = np.arange(100) % 7, np.arange(100) % 5\n"
        "cc.adjusted_rand_index(a, b); cc.adjusted_mutual_information(list(a), list(b))\n"
        "cc.contingency_table(a, b); cc.partial_table(a, b)\n"
        "print(not before and 'numpy.ma' in sys.modules)\n"
        "m = np.ma.MaskedArray([0, 0, 1, 1], mask=[0, 0, 0, 1])\n"
        "print(cc.contingency_table(m, [0, 0, 1, 1], unassigned='drop').tolist())\n"
    )
    out = _run(script)
    assert out.stdout.split() == ["False", "[[2,", "0],", "[0,", "1]]"]
