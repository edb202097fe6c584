"""Check the built documentation site: it must render anywhere, offline included.

Usage: python .ci/check_docs.py [BUILD_DIR]   (default docs/_build/html; CI runs it after
sphinx-build, see .ci/run). Exit status 1 with one line per problem, 0 when every page passes:

* no page loads a script, a style sheet or a font from another host (``src``/``href`` with a
  scheme or ``//``): MathJax is bundled with the site (``sphinx-mathjax-offline``);
* every page with math loads the bundled MathJax (``_static/mathjax/tex-chtml.js``);
* no raw TeX is left in the text outside code and math elements: ``\\(...\\)``, ``\\[...\\]``
  or ``$...$`` holding TeX (a backslash, ``^``, ``_`` or braces) is math that was not marked
  up as math, which a reader sees as source; so is a TeX macro (``\\mathrm``, ``\\log``) or a
  ``$`` left in the prose of a block (a ``$`` pair that did not match, e.g. a formula cut by a
  line break that Markdown read as a list item or a table cell);
* no list item begins with TeX: a line inside ``$$...$$`` that starts with ``+ ``, ``- `` or
  ``* `` became a bullet (a ``$$`` block must follow a blank line);
* every math element holds TeX that MathJax can typeset without an error box: balanced braces,
  ``\\left``/``\\right`` and ``\\begin``/``\\end``, no ``$`` or ``#``, no empty formula, and
  no run of plain words (prose that became math because its ``$`` pairs shifted);
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
#: A TeX macro (a backslash and two letters or more) in prose: math a reader sees as source.
TEX_MACRO = re.compile(r"\\[A-Za-z]{2,}(?![A-Za-z])")
#: Elements whose prose is one block: a ``$`` left in one is a ``$`` pair that did not match.
BLOCK_TAGS = {"p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
              "caption", "figcaption", "blockquote"}
#: Plain words inside math (prose that became math when its ``$`` pairs shifted); the
#: arguments of ``\text``-like macros are removed first.
MATH_PROSE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}(?:[ ,;]+[A-Za-z]{2,}){3,}")
TEXT_ARGUMENT = re.compile(
    r"\\(?:text\w*|mathrm|operatorname\*?|mbox|mathit|mathsf|mathtt|textrm|label|tag)\s*\{[^{}]*\}")


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
        self.blocks: list[tuple[str, list[str]]] = []  # open block elements: tag, its prose
        self.math: list[str] | None = None  # the TeX of the math element being read
        self.math_depth = 0  # its depth in the stack
        self.list_item_start = False  # inside an <li> that has no text yet

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
            if "math" in classes and self.math is None:
                self.math, self.math_depth = [], len(self.stack) + 1
            if tag in BLOCK_TAGS and not self._skipped():
                self.blocks.append((tag, []))
            self.list_item_start = tag == "li" or (self.list_item_start and tag in ("p", "a"))
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
            if self.math is not None and len(self.stack) == self.math_depth:
                self._check_math("".join(self.math))
                self.math = None
            if tag in BLOCK_TAGS and self.blocks and self.blocks[-1][0] == tag:
                self._check_block(*self.blocks.pop())
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append("\0" if self._skipped() else data)
        if self.in_h1 == 1:
            self.h1.append(data)
        if self.math is not None:
            self.math.append(data)
        elif not self._skipped() and self.blocks:
            self.blocks[-1][1].append(data)
        if self.list_item_start and data.strip():
            self.list_item_start = False
            if not self._skipped() and re.match(r"\s*(?:\\[A-Za-z]|\$)", data):
                self.problems.append(
                    f"a list item begins with TeX: {data.strip()[:60]!r} (a line inside $$...$$ "
                    "that starts with '+ ', '- ' or '* ' became a bullet: put a blank line "
                    "before the $$ block, or move the sign to the end of the line above)")

    def _check_block(self, tag: str, parts: list[str]) -> None:
        """The prose of one block element: no TeX macro, no unmatched ``$``."""
        prose = "".join(parts)
        macros = TEX_MACRO.findall(prose)
        if macros:
            self.problems.append(f"raw TeX ({', '.join(sorted(set(macros))[:5])}) in the text "
                                 f"of a <{tag}>: {_around(prose, macros[0])!r}")
        if "$$" in prose:
            self.problems.append(f"'$$' in the text of a <{tag}> (display math not typeset): "
                                 f"{_around(prose, '$$')!r}")
        elif prose.count("$") % 2:
            self.problems.append(f"unmatched '$' in the text of a <{tag}>: "
                                 f"{_around(prose, '$')!r}")

    def _check_math(self, tex: str) -> None:
        """The TeX of one math element: what MathJax would show as an error box."""
        body = tex.strip()
        body = body[2:] if body.startswith(("\\(", "\\[")) else body
        body = body[:-2] if body.endswith(("\\)", "\\]")) else body
        shown = " ".join(body.split())[:80]
        unescaped = re.sub(r"\\[\\{}$#&%_ ]", "", body)
        problems = []
        if not body.strip():
            problems.append("an empty formula")
        depth = 0
        for char in unescaped:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth < 0:
                break
        if depth:
            problems.append("unbalanced braces")
        for sign in "$#":
            if sign in unescaped:
                problems.append(f"a {sign!r} inside math")
        for opening, closing in (("left", "right"), ("begin", "end")):
            if (len(re.findall(rf"\\{opening}(?![A-Za-z])", body))
                    != len(re.findall(rf"\\{closing}(?![A-Za-z])", body))):
                problems.append(f"unbalanced \\{opening}/\\{closing}")
        words = MATH_PROSE.search(TEXT_ARGUMENT.sub("", body))
        if words:
            problems.append(f"plain words {words.group()!r} (prose read as math: a '$' pair "
                            "shifted)")
        for problem in problems:
            self.problems.append(f"math MathJax cannot typeset ({problem}): {shown!r}")


def _around(text: str, needle: str) -> str:
    """The text around the first ``needle``, on one line."""
    at = text.find(needle)
    return " ".join(text[max(0, at - 30): at + 50].split())


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
