"""The docs check (``.ci/check_docs.py``) catches what a reader of the Mathematics page sees.

A formula broken by Markdown shows on the site as source or as a MathJax error box: a line
inside ``$$...$$`` that starts with ``+ `` becomes a list item, a ``|`` inside ``$...$`` in a
table splits the cell, a ``$`` pair that does not match turns the prose after it into math and
the math into prose. The check reads the built HTML; these tests feed it small pieces of HTML
with each defect, the HTML that MyST renders from the passages of docs/math.md that had them,
and every Markdown page of docs/ as MyST renders it now (with docs/conf.py's extensions), which
must pass. The built site itself is checked by CI after ``sphinx-build`` (``.ci/run``).
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
MATHJAX = '<script defer="defer" src="../_static/mathjax/tex-chtml.js"></script>'


def _load_check_docs():
    spec = importlib.util.spec_from_file_location("check_docs", ROOT / ".ci" / "check_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK_DOCS = _load_check_docs()


def _problems(html: str) -> list[str]:
    return CHECK_DOCS.check_page(MATHJAX + html)


@pytest.mark.parametrize(("html", "problem"), [
    # a line of a $$ block that started with "+ " became a bullet
    ("<p>exactly $$ \\log L_m(N-a) = m</p><ul><li><p>\\log\\Bigl(1 + x\\Bigr),</p></li></ul>",
     "a list item begins with TeX"),
    ("<p>exactly $$ \\log L_m(N-a) = m</p>", "'$$' in the text"),
    # unbalanced $: a formula cut by a bullet, or by a | inside a table cell
    ("<p>and $\\mathrm{Cov}(R_i, C) = u</p>", "unmatched '$'"),
    ("<table><tr><td>the bound of the rest, $\\sum</td></tr></table>", "unmatched '$'"),
    ("<p>the same $x</p><p>then y$</p>", "unmatched '$'"),
    # TeX macros in prose
    ("<p>with \\mathrm{Cov}(f(X_1), h(X_2))</p>", "raw TeX (\\mathrm)"),
    ("<li>the sum \\sum over the cells</li>", "raw TeX (\\sum)"),
    # a reference whose text is a heading with math ({ref}`math-s-max` of "The maximum $s_{\max}$")
    (('<p>(see <a class="reference internal" href="../math.html#math-s-max"><span class="std '
      'std-ref">The maximum s_{\\max}</span></a>)</p>'), "raw TeX (\\max)"),
    # what MathJax shows as an error box
    ('<span class="math notranslate nohighlight">\\(\\frac{a}{b\\)</span>', "unbalanced braces"),
    ('<span class="math notranslate nohighlight">\\(a}\\)</span>', "unbalanced braces"),
    ('<span class="math inline">[](#math-rand-variance)</span>', "a '#' inside math"),
    ('<span class="math inline">x $ y</span>', "a '$' inside math"),
    ('<span class="math inline"></span>', "an empty formula"),
    ('<div class="math notranslate nohighlight">\\[\\left( x\\]</div>', "unbalanced \\left"),
    ('<div class="math">\\[\\begin{aligned} x \\]</div>', "unbalanced \\begin"),
    ('<span class="math inline">the Edgeworth terms of a lattice sum</span>', "plain words"),
])
def test_the_check_finds(html, problem):
    problems = _problems(html)
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize("html", [
    '<p>with <span class="math notranslate nohighlight">\\(S(N,K)\\)</span>, a price of $5 or $6</p>',
    ('<div class="math notranslate nohighlight">\\[\\begin{aligned} a &amp;= \\left(b\\right) \\\\'
     ' c &amp;= \\{d\\} \\end{aligned}\\]</div>'),
    '<span class="math">\\(\\mathbb{E}[J \\mid \\text{the rows of the table}] + \\$1\\)</span>',
    '<ul><li><p><span class="math">\\(\\log x\\)</span> is small</p></li></ul>',
    "<pre>\\mathrm{x} $ chanceclust</pre><p><code>\\frac $x</code></p>",
])
def test_the_check_accepts(html):
    assert _problems(html) == []


def _myst():
    """A MyST Markdown renderer with the extensions of docs/conf.py (HTML as in the site:
    math in elements of class ``math``)."""
    pytest.importorskip("myst_parser")
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    settings = {}
    for node in ast.parse((DOCS / "conf.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name.startswith("myst_"):
                settings[name.removeprefix("myst_")] = ast.literal_eval(node.value)
    extensions = set(settings.pop("enable_extensions"))
    config = MdParserConfig(enable_extensions=extensions, **settings)
    return create_md_parser(config, RendererHTML)


# The three passages of docs/math.md that showed garbled on the site (issue 35), as they were.
GARBLED = {
    "a $$ block right after text, a line starting with '+ '": """\
- **saddle-point expansion**: for the $\\theta_a$
  with $m\\,\\mu(\\theta_a) = N - a$, exactly
  $$
  \\log L_m(N-a) = m\\,[\\kappa(\\theta_a) - \\theta_a\\,\\mu(\\theta_a)]
  + \\log\\Bigl(1 + \\sum_{j=1}^{3} \\frac{e_j(\\theta_a)}{m^j}\\Bigr),
  $$
  $e_j$ the Edgeworth terms (see [](#math-rand-variance)), in $\\theta$.
""",
    "an inline formula whose second line starts with '+ '": """\
$M \\sim \\mathrm{Bin}(N - a_i, 1/u)$, $\\mathrm{Cov}(R_i, C) = u\\,\\mathrm{Cov}(f(X_1), h(X_1))
+ u(u-1)\\,\\mathrm{Cov}(f(X_1), h(X_2))$. *Two-sided*, given $(u, v)$ the pairs of labels are
i.i.d. uniform on $uv$ cells.
""",
    "a '|' inside a formula of a table": """\
| switch | threshold |
|---|---|
| Var[MI] | the bound of the rest, $\\sum |\\rho_{k+1}|\\sqrt{R_k R'_k}$, above $10^{-13} V$ |
""",
}


@pytest.mark.parametrize("markdown", GARBLED.values(), ids=list(GARBLED))
def test_the_check_finds_the_passages_that_were_garbled(markdown):
    assert _problems(_myst().render(markdown))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_markdown_page_renders_its_math(page):
    html = _myst().render(page.read_text(encoding="utf-8"))
    assert _problems(html) == []
