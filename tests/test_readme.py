"""The shell sessions in README.md show real output: rerun them and compare.

Every ``$ chanceclust ...`` line of README.md, and the quick start command after
``pip install . &&``, is run with bash from the repository root; its stdout must
equal the lines that follow it in the README (up to the next prompt or the end of
the block). The Python examples are doctested separately (``--doctest-glob``).
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sessions import block_sessions, run_session

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None

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


# --- The README's other claims (issue 21): each one it makes about the install and the import.


def test_import_is_light():
    """`import chanceclust` loads neither pandas nor scipy.sparse (README, Accuracy and speed),
    checked in a fresh interpreter; scipy.special: the next test."""
    code = ("import sys, chanceclust; "
            "print(' '.join(m for m in ('pandas', 'scipy.sparse') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "scipy.sparse" in README
    assert done.stdout.strip() == ""


def test_import_does_not_load_scipy_special():
    code = "import sys, chanceclust; assert 'scipy.special' not in sys.modules"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.DOTALL | re.MULTILINE)


def test_install_lines_work_from_a_checkout():
    """chanceclust is not on a registry: every install line installs the checkout (``.`` or
    ``".[extra]"``) of an extra that pyproject.toml declares, never ``chanceclust[...]``."""
    if tomllib is None:
        pytest.skip("tomllib needs Python 3.11")
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
                 ["optional-dependencies"])
    lines = re.findall(r"pip install [^`\n]*", README)
    assert lines
    for line in lines:
        assert "chanceclust[" not in line, line
        for extra in re.findall(r'"\.\[(\w+)\]"', line):
            assert extra in extras, line


def test_quick_start_uses_a_virtual_environment():
    bash = _blocks("bash")
    venv = bash.index(next(b for b in bash if "python -m venv .venv" in b))
    install = bash.index(next(b for b in bash if b.startswith("pip install . && chanceclust")))
    assert venv < install
    assert ". .venv/bin/activate" in bash[venv]


def test_pandas_examples_name_the_pandas_extra():
    """Each README example that needs pandas says so (`pip install ".[pandas]"`) before it."""
    for example in ("import pandas as pd", "m.to_frame()"):
        at = README.index(example)
        assert 'pip install ".[pandas]"' in README[max(0, at - 600):at], example


def test_reproduce_output_is_ignored_by_git():
    """README: ``chanceclust reproduce all --out results/`` writes results/, which git ignores
    (only at the root: paper/results/ holds the committed report)."""
    assert "--out results/" in README
    ignore = (ROOT / ".gitignore").read_text().splitlines()
    assert "/results/" in ignore


def test_docs_check_is_what_ci_runs():
    """README: CI runs .ci/check_docs.py on the built site, right after the README's build
    command."""
    command = 'sphinx-build -W --keep-going -b html docs docs/_build/html'
    assert command in README
    assert "python .ci/check_docs.py docs/_build/html" in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert f'pip install ".[docs]" && {command}' in ci
    assert "&& python .ci/check_docs.py docs/_build/html" in ci
