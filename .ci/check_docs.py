"""Check the built documentation site: it must render anywhere, offline included.

Usage: python .ci/check_docs.py [BUILD_DIR]   (default docs/_build/html; CI runs it after
sphinx-build, see .ci/run). Exit status 1 with one line per problem, 0 when every page passes:

* no page loads a script, a style sheet or a font from another host (``src``/``href`` with a
  scheme or ``//``): MathJax is bundled with the site (``sphinx-mathjax-offline``);
* every page with math loads the bundled MathJax (``_static/mathjax/tex-chtml.js``);
* no raw TeX is left in the text outside code and math elements: ``\\(...\\)``, ``\\[...\\]``
  or ``$...$`` holding TeX (a backslash, ``^``, ``_`` or braces) is math that was not marked
  up as math, which a reader sees as source;
* each API page (``generated/<full name>.html``) is titled by the full name, and the page of
  each public function of chanceclust links its section of the Mathematics page.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

#: Elements whose text is code or math, never prose: raw TeX is expected inside them.
SKIP_TAGS = {"code", "pre", "script", "style", "kbd", "samp", "textarea", "tt"}
SKIP_CLASSES = {"math", "highlight", "MathJax", "doctest"}
#: Elements without an end tag (never pushed on the stack).
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
             "source", "track", "wbr"}
REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)
RAW_TEX = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|\$[^$\s][^$]*?[\\^_{}][^$]*?\$", re.DOTALL)
BUNDLED_MATHJAX = re.compile(r"(^|/)_static/mathjax/tex-chtml\.js$")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is it (inside) code or math?
        self.problems: list[str] = []
        self.text: list[str] = []
        self.has_math = False
        self.loads_mathjax = False
        self.h1: list[str] = []  # text of the first <h1>
        self.in_h1 = 0  # 1 inside the first <h1>, 2 after it

    def _skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if "math" in classes:
            self.has_math = True
        url = attributes.get("src") if tag == "script" else None
        if tag == "link" and attributes.get("rel", "") in ("stylesheet", "preload",
                                                           "modulepreload", "icon"):
            url = attributes.get("href")
        if url:
            if REMOTE.match(url):
                self.problems.append(f"<{tag}> loads {url} from another host")
            elif tag == "script" and BUNDLED_MATHJAX.search(url.split("?")[0]):
                self.loads_mathjax = True
        if tag == "h1" and not self.in_h1:
            self.in_h1 = 1
        if tag == "a" and "headerlink" in classes and self.in_h1 == 1:
            self.in_h1 = 2  # the pilcrow after the title
        if tag not in VOID_TAGS:
            self.stack.append(self._skipped() or tag in SKIP_TAGS
                              or bool(classes & SKIP_CLASSES) or tag.startswith("mjx-"))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_TAGS:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "h1" and self.in_h1 == 1:
            self.in_h1 = 2
        if tag not in VOID_TAGS and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append("\0" if self._skipped() else data)
        if self.in_h1 == 1:
            self.h1.append(data)


def check_page(html: str, api_name: str | None = None, function: bool = False) -> list[str]:
    """The problems of one page's HTML (empty when it passes).

    ``api_name``: the page documents this name (an API page), and must be titled by it in
    full; ``function``: it is a public function of chanceclust, whose page must link its
    section of the Mathematics page.
    """
    page = _Page()
    page.feed(html)
    page.close()
    title = "".join(page.h1).strip()
    if api_name is not None and title != api_name:
        page.problems.append(f"title {title!r} is not the full name {api_name!r}")
    if function and "math.html#math-" not in html:
        page.problems.append("does not link its section of the Mathematics page")
    prose = "".join(page.text)  # "\0" separates prose interrupted by code or math
    for match in RAW_TEX.finditer(prose):
        if "\0" not in match.group():
            page.problems.append(f"raw TeX outside math: {match.group()[:80]!r}")
    if page.has_math and not page.loads_mathjax:
        page.problems.append("has math but does not load the bundled MathJax "
                             "(_static/mathjax/tex-chtml.js)")
    return page.problems


def check_site(build_dir: Path) -> list[str]:
    """``page: problem`` for every page of the site; a missing site or MathJax bundle too."""
    pages = sorted(build_dir.rglob("*.html"))
    if not pages:
        return [f"{build_dir}: no HTML pages (build the site first)"]
    problems = []
    if not (build_dir / "_static" / "mathjax" / "tex-chtml.js").is_file():
        problems.append(f"{build_dir}/_static/mathjax/tex-chtml.js: MathJax is not bundled")
    functions = _public_functions()
    for path in pages:
        api_name = path.stem if path.parent.name == "generated" else None
        problems += [f"{path.relative_to(build_dir)}: {problem}"
                     for problem in check_page(path.read_text(encoding="utf-8"), api_name,
                                               function=api_name in functions)]
    return problems


def _public_functions() -> set[str]:
    """``chanceclust.<name>`` of each public function of the package (empty if it cannot be
    imported here: the check of the math links is then skipped)."""
    try:
        import chanceclust
    except ImportError:
        return set()
    objects = {name: getattr(chanceclust, name) for name in chanceclust.__all__}
    return {f"chanceclust.{name}" for name, obj in objects.items()
            if callable(obj) and not isinstance(obj, type)}


def main(argv: list[str]) -> int:
    build_dir = Path(argv[1] if len(argv) > 1 else "docs/_build/html")
    problems = check_site(build_dir)
    for problem in problems:
        print(problem)
    n_pages = len(list(build_dir.rglob("*.html")))
    print(f"check_docs: {n_pages} pages, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
