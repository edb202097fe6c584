"""The command line on two label files (a fresh process: parse, read, compare)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import numpy as np

from ._inputs import pair


class CompareFiles:
    """``python -m chanceclust compare A B`` on files of N labels, one per line."""

    params = [10**4, 10**6]
    param_names = ["n"]
    timeout = 300

    def setup(self, n):
        self.dir = tempfile.TemporaryDirectory()
        self.paths = []
        for index, values in enumerate(pair("zipf", n, 50)):
            path = os.path.join(self.dir.name, f"labels{index}.txt")
            np.savetxt(path, values, fmt="%d")
            self.paths.append(path)

    def teardown(self, n):
        self.dir.cleanup()

    def time_cli_compare(self, n):
        subprocess.run([sys.executable, "-m", "chanceclust", "compare", *self.paths],
                       check=True, capture_output=True)  # fmt: skip
