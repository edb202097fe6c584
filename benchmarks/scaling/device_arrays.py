"""Real device arrays and CPU tensors as labels (issue 21), on a machine with a GPU.

    python benchmarks/scaling/device_arrays.py

For each array library that imports (PyTorch, CuPy, JAX): a label array on the GPU must be
refused by chanceclust with its own error (an InvalidInputTypeError saying how to move the
array to the host), never the library's; the same labels moved to the host must give the
value of the numpy call. A CPU torch tensor of 10^7 labels is timed against the same numpy
array (best of 3, process CPU seconds): the goal is within 1.5x. Prints one line per check
and a JSON line per timing; exits 1 if a check fails.
"""

from __future__ import annotations

import json
import time

import numpy as np

import chanceclust as cc


def _checks() -> list[tuple[str, bool, str]]:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 7, 10_000)
    b = rng.integers(0, 9, 10_000)
    want = cc.adjusted_rand_index(a, b)
    out = []

    def refused(name: str, device_a, host_a) -> None:
        try:
            cc.adjusted_rand_index(device_a, b)
        except cc.InvalidInputTypeError as err:
            out.append((f"{name}: refused by chanceclust", True, str(err)))
        except Exception as err:  # noqa: BLE001 - any other error is the failure reported
            out.append((f"{name}: refused by chanceclust", False, f"{type(err).__name__}: {err}"))
        else:
            out.append((f"{name}: refused by chanceclust", False, "accepted a device array"))
        got = cc.adjusted_rand_index(host_a, b)
        out.append((f"{name}: host copy gives the numpy value", got == want, repr(got)))

    try:
        import torch

        if torch.cuda.is_available():
            t = torch.as_tensor(a, device="cuda")
            refused("torch.cuda", t, t.cpu())
    except ImportError:
        out.append(("torch", True, "not installed"))
    try:
        import cupy

        c = cupy.asarray(a)
        refused("cupy", c, c.get())
    except ImportError:
        out.append(("cupy", True, "not installed"))
    try:
        import jax

        gpus = [d for d in jax.devices() if d.platform == "gpu"]
        if gpus:
            j = jax.device_put(a, gpus[0])
            refused("jax", j, np.asarray(jax.device_get(j)))
    except ImportError:
        out.append(("jax", True, "not installed"))
    return out


def _cpu_tensor_timing() -> list[dict]:
    try:
        import torch
    except ImportError:
        return []
    rng = np.random.default_rng(1)
    a = rng.integers(0, 1000, 10**7)
    b = rng.integers(0, 1000, 10**7)
    rows = []
    for name, x, y in (("numpy", a, b), ("torch-cpu", torch.from_numpy(a), torch.from_numpy(b))):
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            cc.adjusted_rand_index(x, y)
            best = min(best, time.process_time() - t0)
        rows.append({"bench": "labels-as-tensor", "input": name, "n": 10**7, "cpu_s": best})
    return rows


def main() -> int:
    failed = 0
    for name, ok, detail in _checks():
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    for row in _cpu_tensor_timing():
        print(json.dumps(row))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
