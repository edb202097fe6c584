"""Shell sessions shown in documentation (README.md, docs/): find them and rerun them.

A session is a ``$ chanceclust ...`` line followed by its expected standard output (the lines
up to the next ``$ `` prompt or the end of the block). Used by test_readme.py and test_docs.py.
"""

import subprocess
import sys
from pathlib import Path


def block_sessions(lines: list[str]) -> list[tuple[str, str]]:
    """(command, expected stdout) for each ``$ chanceclust`` line of a code block."""
    pairs = []
    for i, line in enumerate(lines):
        if line.startswith("$ chanceclust"):
            output = []
            for follow in lines[i + 1 :]:
                if follow.startswith("$ "):
                    break
                output.append(follow)
            pairs.append((line[2:], "\n".join(output)))
    return pairs


def run_session(command: str, root: Path) -> subprocess.CompletedProcess:
    """Run ``command`` with bash from ``root``, with this interpreter's ``-m chanceclust``."""
    script = command.replace("chanceclust ", f"{sys.executable} -m chanceclust ", 1)
    return subprocess.run(["bash", "-c", script], cwd=root, capture_output=True, text=True,
                          check=False)
