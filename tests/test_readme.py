"""The shell sessions in README.md show real output: rerun them and compare.

Every ``$ chanceclust ...`` line of README.md, and the quick start command after
``pip install . &&``, is run with bash from the repository root; its stdout must
equal the lines that follow it in the README (up to the next prompt or the end of
the block). The Python examples are doctested separately (``--doctest-glob``).
"""

import shutil
from pathlib import Path

import pytest
from sessions import block_sessions, run_session

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
        pairs += block_sessions(lines)
    return pairs


SESSIONS = _sessions()


def test_readme_has_sessions():
    assert len(SESSIONS) >= 4


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for brace expansion")
@pytest.mark.parametrize(("command", "expected"), SESSIONS, ids=[c[:60] for c, _ in SESSIONS])
def test_readme_session_output(command, expected):
    done = run_session(command, ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip("\n") == expected.strip("\n")
