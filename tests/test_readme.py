"""The shell sessions in README.md show real output: rerun them and compare.

Every ``$ chanceclust ...`` line of README.md, and the quick start command after
``pip install . &&``, is run with bash from the repository root; its stdout must
equal the lines that follow it in the README (up to the next prompt or the end of
the block). The Python examples are doctested separately (``--doctest-glob``).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _sessions():
    """(command, expected stdout) pairs from the README's code blocks."""
    blocks, current = [], None
    for line in README.splitlines():
        if line.startswith("```"):
            if current is None:
                current = []
            else:
                blocks.append("\n".join(current))
                current = None
        elif current is not None:
            current.append(line)
    pairs = []
    for i, block in enumerate(blocks):
        lines = block.splitlines()
        if lines and lines[0].startswith("pip install . && chanceclust"):
            command = lines[0].split("&&", 1)[1].strip()
            pairs.append((command, blocks[i + 1].strip("\n")))
        for j, line in enumerate(lines):
            if line.startswith("$ chanceclust"):
                output = []
                for follow in lines[j + 1 :]:
                    if follow.startswith("$ "):
                        break
                    output.append(follow)
                pairs.append((line[2:], "\n".join(output)))
    return pairs


SESSIONS = _sessions()


def test_readme_has_sessions():
    assert len(SESSIONS) >= 4


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for brace expansion")
@pytest.mark.parametrize(("command", "expected"), SESSIONS, ids=[c[:60] for c, _ in SESSIONS])
def test_readme_session_output(command, expected):
    script = command.replace("chanceclust ", f"{sys.executable} -m chanceclust ", 1)
    done = subprocess.run(
        ["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip("\n") == expected.strip("\n")
