"""The documentation site (docs/) cannot drift from the code.

* every name in ``chanceclust.__all__`` (and in the ``__all__`` of the public modules not imported
  by the package: ``chanceclust.dask``, ``chanceclust.datasets``) is listed in the API reference
  (``docs/api.rst``), whose autosummary gives each one a page (the build also fails without
  it, see docs/conf.py);
* the Python examples (``>>>``) of every Markdown page of docs/ run as doctests;
* every ``$ chanceclust ...`` line of a ``console`` block of docs/ is run from the
  repository root and its stdout must equal the lines that follow it (or, where those lines
  are an error message, it must exit with status 2 and print that message on stderr).

Building the site itself (``sphinx-build -W``) is done by CI (``.ci/run``), not here.
"""

import doctest
import importlib
import importlib.util
import re
import shutil
from pathlib import Path

import pytest
from sessions import block_sessions, run_session
from test_portable_doctests import _long_floats

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: The public modules whose ``__all__`` docs/api.rst documents in full (the package itself, and
#: its public modules with names of their own).
DOCUMENTED_MODULES = (
    "chanceclust", "chanceclust.dask", "chanceclust.datasets", "chanceclust.models",
    "chanceclust.sklearn",
)
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)


def _api_listing() -> dict[str, list[str]]:
    """Names documented in docs/api.rst, by module (``.. currentmodule::``; default chanceclust):
    the entries of its autosummary directives and its ``.. autodata::``/``.. autofunction::``."""
    listed: dict[str, list[str]] = {}
    module, inside = "chanceclust", False
    for line in (DOCS / "api.rst").read_text(encoding="utf-8").splitlines():
        if line.startswith(".. currentmodule::"):
            module = line.split("::", 1)[1].strip()
        if line.startswith(".. autosummary::"):
            inside = True
        elif inside and line.startswith("   ") and not line.strip().startswith(":"):
            listed.setdefault(module, []).append(line.strip())
        elif inside and line and not line.startswith(" "):
            inside = False
        if re.match(r"\.\. auto(data|function|class):: ", line):
            listed.setdefault(module, []).append(line.split("::", 1)[1].strip())
    return listed


def test_every_public_name_has_an_api_page():
    listed = _api_listing()
    assert set(listed) >= set(DOCUMENTED_MODULES), f"modules missing from docs/api.rst: {listed}"
    for name in DOCUMENTED_MODULES:
        public = set(importlib.import_module(name).__all__) - {"__version__"}
        twice = sorted({n for n in listed[name] if listed[name].count(n) > 1})
        assert not twice, f"docs/api.rst lists these twice ({name}): {twice}"
        missing = sorted(public - set(listed[name]))
        assert not missing, f"add to docs/api.rst ({name}): {missing}"
        unknown = sorted(set(listed[name]) - public)
        assert not unknown, f"docs/api.rst lists names that are not public in {name}: {unknown}"
    undeclared = sorted(set(listed) - set(DOCUMENTED_MODULES))
    assert not undeclared, f"add to DOCUMENTED_MODULES in tests/test_docs.py: {undeclared}"


def test_version_is_documented():
    assert "__version__" in (DOCS / "api.rst").read_text(encoding="utf-8")


def _pycon(page: Path) -> str:
    """The ``pycon`` blocks of a page, in order, as one doctest text (state carries over)."""
    text = page.read_text(encoding="utf-8")
    return "\n\n".join(re.findall(r"^```pycon\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE))


@pytest.mark.parametrize("page", [p for p in PAGES if _pycon(p)],
                         ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples(page):
    parser = doctest.DocTestParser()
    test = parser.get_doctest(_pycon(page), {}, str(page.relative_to(DOCS)), str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed"


@pytest.mark.parametrize("page", [p for p in PAGES if _pycon(p)],
                         ids=lambda p: str(p.relative_to(DOCS)))
def test_page_examples_show_no_full_precision_floats(page):
    """As docstrings and README (tests/test_portable_doctests.py): no float's last bits."""
    offenders = [example.want.strip() for example in doctest.DocTestParser().get_examples(
        _pycon(page)) if _long_floats(example.want)]
    assert offenders == []


def _console_sessions():
    """(page, command, expected stdout) for each ``$ chanceclust`` line of a console block."""
    sessions = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE):
            sessions += [(page.relative_to(DOCS), command, output)
                         for command, output in block_sessions(block.splitlines())]
    return sessions


SESSIONS = _console_sessions()
#: A session whose output is an error message (``chanceclust: error: ...`` or
#: ``chanceclust <subcommand>: error: ...``).
ERROR = re.compile(r"chanceclust( \w+)?: error: ")


def test_every_subcommand_has_a_tested_session():
    """The command-line page shows every subcommand (``reproduce`` writes files, not a table:
    tests/test_paper.py runs it)."""
    shown = {command.split()[1] for _, command, _ in SESSIONS}
    assert shown >= {"compare", "table", "rank", "expect", "sample", "test", "pairwise"}, shown


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for brace expansion")
@pytest.mark.parametrize(("page", "command", "expected"), SESSIONS,
                         ids=[f"{p}:{c[:50]}" for p, c, _ in SESSIONS])
def test_console_session_output(page, command, expected):
    done = run_session(command, ROOT)
    if ERROR.match(expected):  # a session that shows an error: status 2, the message on stderr
        assert done.returncode == 2, done.stderr
        assert (done.stdout, done.stderr.strip("\n")) == ("", expected.strip("\n"))
    else:
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip("\n") == expected.strip("\n")


# --- The built site renders offline (issue 21). CI runs .ci/check_docs.py on the built site
# right after sphinx-build (.ci/run); these tests check the checker itself, and the site when
# one has been built in this checkout.


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK_DOCS = _load(ROOT / ".ci" / "check_docs.py", "check_docs")
MATHJAX = '<script defer="defer" src="../_static/mathjax/tex-chtml.js"></script>'


@pytest.mark.parametrize(("html", "problem"), [
    ('<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js"></script>',
     "from another host"),
    ('<script src="//code.jquery.com/jquery.js"></script>', "from another host"),
    ('<link rel="stylesheet" href="http://example.org/x.css" />', "from another host"),
    ("<p>the Stirling number \\(S(N,K)\\) of the second kind</p>", "raw TeX"),
    ("<p>the maximum $s_{\\max}$</p>", "raw TeX"),
    ("<li>display \\[ \\sum_i n_i \\]</li>", "raw TeX"),
    ('<span class="math notranslate">\\(x\\)</span>', "does not load the bundled MathJax"),
])
def test_check_docs_finds(html, problem):
    problems = CHECK_DOCS.check_page(html)
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize("html", [
    MATHJAX + '<p>with <span class="math notranslate nohighlight">\\(S(N,K)\\)</span></p>',
    MATHJAX + '<div class="math notranslate nohighlight">\\[ \\sum_i n_i \\]</div>',
    "<pre>$ chanceclust compare a.txt b.txt  # \\(not math\\)</pre>",
    "<p><code>$CHANCECLUST_DATA/x_{y}$</code> and a price of $5 or $6</p>",
    '<script src="_static/searchtools.js"></script><a href="https://doi.org/10.1">doi</a>',
])
def test_check_docs_accepts(html):
    assert CHECK_DOCS.check_page(html) == []


SITE = DOCS / "_build" / "html"


@pytest.mark.skipif(not (SITE / "index.html").is_file(),
                    reason="the site is not built here (CI checks it after sphinx-build)")
def test_built_site_renders_offline():
    assert CHECK_DOCS.check_site(SITE) == []


def test_docstring_math_citations_become_links():
    """docs/conf.py's hook links every ``docs/math.md#math-...`` citation of a public docstring
    to a section that docs/math.md defines; every public function cites one."""
    conf = _load(DOCS / "conf.py", "docs_conf")
    citing = re.compile(r"docs/math\.md#(math-[a-z0-9-]+)((?:,? (?:and )?#math-[a-z0-9-]+)*)")
    chanceclust = importlib.import_module("chanceclust")
    for name in chanceclust.__all__:
        obj = getattr(chanceclust, name)
        if not callable(obj) or isinstance(obj, type):
            continue
        lines = (obj.__doc__ or "").splitlines()
        assert any(citing.search(line) for line in lines), f"{name} cites no math section"
        conf._link_math(None, "function", f"chanceclust.{name}", obj, None, lines)
        text = "\n".join(lines)
        labels = re.findall(r":ref:`[^`<]+<(math-[a-z0-9-]+)>`", text)
        assert labels, name
        assert set(labels) <= set(conf._MATH_SECTIONS), name
        prose = [line for line in lines if not line.lstrip().startswith((">>>", "..."))]
        assert not any("docs/math.md#" in line for line in prose), name


def test_see_also_names_exist():
    conf = _load(DOCS / "conf.py", "docs_conf")
    chanceclust = importlib.import_module("chanceclust")
    for name, related in conf._SEE_ALSO.items():
        assert name in chanceclust.__all__, name
        assert set(related) <= set(chanceclust.__all__), name


def test_check_docs_api_pages():
    """An API page is titled by the full name; a function's page links the Mathematics page."""
    name = "chanceclust.expected_mutual_information_baseline"
    page = f'<h1>{name}<a class="headerlink" href="#x">#</a></h1>'
    link = '<a href="../math.html#math-expected-mi">Expected mutual information</a>'
    assert CHECK_DOCS.check_page(page + link, name, function=True) == []
    assert CHECK_DOCS.check_page(page, name) == []
    assert "does not link" in CHECK_DOCS.check_page(page, name, function=True)[0]
    cut = page.replace(name, name[:28])
    assert "is not the full name" in CHECK_DOCS.check_page(cut + link, name, function=True)[0]
