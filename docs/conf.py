"""Sphinx configuration of the chanceclust documentation.

Build (from the repository root, after ``pip install ".[docs]"``)::

    sphinx-build -W --keep-going -b html docs docs/_build/html

Set ``CHANCECLUST_DOCS_QUICK=1`` to run the gallery's slow examples in their
quick form (the default already uses the paper reproductions' ``--quick`` mode).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
# Document the checkout being built, also when it is not installed (pip install -e is not needed).
sys.path.insert(0, str(ROOT / "src"))

import chanceclust

project = "chanceclust"
author = "the chanceclust developers"
copyright = "2026, the chanceclust developers"
release = chanceclust.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # MathJax 3 bundled with the site (copied into _static/mathjax, mathjax_path set to it): the
    # math renders offline and behind firewalls; no page loads a script from another host
    # (checked after the build by .ci/check_docs.py).
    "sphinx-mathjax-offline",
    "sphinx.ext.viewcode",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "examples/README.txt"]
templates_path = ["_templates"]

# Every cross-reference must resolve: a broken link to a page, a section or a
# chanceclust object is a warning, and -W makes it an error. Names outside the
# project (numpy, scipy, pandas types in docstrings) are not linked (no network
# at build time: no intersphinx).
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|scipy|pandas|sklearn|matplotlib|collections|typing|pathlib)\..*"),
]

# --- MyST: Markdown pages with math and anchors for every section
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "attrs_block"]
myst_heading_anchors = 3
myst_dmath_double_inline = True

# --- autosummary + numpydoc: one page per public name, from its docstring
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True
numpydoc_xref_param_type = False

# --- sphinx-gallery: every example runs at build time
_QUICK = os.environ.get("CHANCECLUST_DOCS_QUICK", "") not in ("", "0")
sphinx_gallery_conf = {
    "examples_dirs": ["examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "show_memory": False,
    "min_reported_time": 1,
    # The computation-times pages load jQuery and DataTables from CDNs: not written (the site
    # must render offline, .ci/check_docs.py).
    "write_computation_times": False,
    # "Examples using this function" on each API page (docs/_templates/autosummary/*.rst
    # include the mini-gallery of the examples that call the documented name).
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("chanceclust",),
    "inspect_global_variables": False,
}

# --- HTML: the pydata theme (as NumPy, SciPy, pandas)
html_theme = "pydata_sphinx_theme"
html_title = f"chanceclust {release}"
html_static_path = ["_static"]
html_css_files = ["chanceclust.css"]
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc", "sourcelink"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
}
html_sidebars = {"index": [], "changelog": [], "citing": [], "license": []}
html_show_sourcelink = True


def _check_api_listing(app):
    """Fail the build (a warning, an error under -W) if a public name has no API page."""
    from sphinx.util import logging

    import chanceclust.dask
    import chanceclust.datasets

    listing = (Path(app.srcdir) / "api.rst").read_text(encoding="utf-8")
    listed = {line.split("::")[-1].strip() for line in listing.splitlines()
              if line.startswith(("   ", ".. autodata::"))}
    public = chanceclust.__all__ + chanceclust.dask.__all__ + chanceclust.datasets.__all__
    missing = [n for n in public if n != "__version__" and n not in listed]
    if missing:
        logging.getLogger(__name__).warning(
            "public names without an API page (add them to docs/api.rst): %s", ", ".join(missing)
        )


_BARS = re.compile(r"(?<![`\\|])\|([^|`\s][^|`]*?)\|(?![|_])")


def _escape_bars(app, what, name, obj, options, lines):
    """Docstrings write |A ∩ B| for a size, which reST reads as a substitution: escape it."""
    for i, line in enumerate(lines):
        if "|" in line and not line.lstrip().startswith(("|", "+")) and "``" not in line:
            lines[i] = _BARS.sub(r"\\|\1\\|", line)


#: Public modules with API pages of their own (docs/api.rst); other chanceclust.* modules have none.
_DOCUMENTED_MODULES = ("chanceclust.dask", "chanceclust.datasets")


def _public_name(app, env, node, contnode):
    """Resolve ``chanceclust.<module>.<name>`` to the documented ``chanceclust.<name>``.

    Docstrings may cite a public function by its defining module; its page lives at the
    package level. Modules (``:mod:``) have no pages, nor have the names of internal modules
    (``chanceclust._expected.*``, ``chanceclust.special.<helper>``, ``_private``) and of the
    paper reproductions (``chanceclust.paper.*``, documented by ``paper/README.md`` and
    ``chanceclust reproduce --help``): they are left as plain text. A name cited at the package
    level (``chanceclust.<name>``) or in a documented module must resolve, else the build fails.
    """
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith("chanceclust."):
        return None
    short = target.rsplit(".", 1)[-1]
    if short in chanceclust.__all__ and target != f"chanceclust.{short}":
        node["reftarget"] = f"chanceclust.{short}"
        return app.env.domains["py"].resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], node["reftarget"], node, contnode
        )
    if node.get("reftype") == "mod":
        return contnode
    module = target.rsplit(".", 1)[0]
    if module != "chanceclust" and module not in _DOCUMENTED_MODULES:
        return contnode
    return None


# --- Docstrings cite their mathematics as plain text ("Formula: docs/math.md#math-rand and
# #math-expected-rand"), readable in help() and an editor. On the site each citation becomes a
# link to that section of the Mathematics page, titled by the section's heading; an anchor that
# docs/math.md does not define is a warning (an error under -W).
_MATH_CITATION = re.compile(r"docs/math\.md#(math-[a-z0-9-]+)((?:,? (?:and )?#math-[a-z0-9-]+)*)")
_MATH_ANCHOR = re.compile(r"#(math-[a-z0-9-]+)")


def _math_sections() -> dict[str, str]:
    """Label -> plain-text heading of each ``(math-...)=`` section of docs/math.md.

    TeX in a heading is reduced to plain text (``$s_{\\max}$`` -> ``s_max``): link texts are
    not math elements, and the site must show no raw TeX outside them.
    """
    text = (Path(__file__).parent / "math.md").read_text(encoding="utf-8")
    sections = {}
    for label, heading in re.findall(r"^\((math-[a-z0-9-]+)\)=\n#+ (.+)$", text,
                                       flags=re.MULTILINE):
        plain = re.sub(r"\$([^$]*)\$", lambda m: re.sub(r"[\\{}]", "", m.group(1)), heading)
        sections[label] = plain.strip()
    return sections


_MATH_SECTIONS = _math_sections()


def _math_ref(label: str, name: str) -> str:
    if label not in _MATH_SECTIONS:
        from sphinx.util import logging

        logging.getLogger(__name__).warning(
            "%s cites docs/math.md#%s, which docs/math.md does not define", name, label)
        return f"``docs/math.md#{label}``"
    return f":ref:`{_MATH_SECTIONS[label]} <{label}>`"


def _link_math(app, what, name, obj, options, lines):
    """Turn the docstrings' ``docs/math.md#math-...`` citations into links (not in examples)."""
    for i, line in enumerate(lines):
        if "docs/math.md#" not in line or line.lstrip().startswith((">>>", "...")):
            continue

        def link(match, name=name):
            refs = [match.group(1), *_MATH_ANCHOR.findall(match.group(2))]
            return " and ".join(_math_ref(label, name) for label in refs)

        lines[i] = _MATH_CITATION.sub(link, line)
    if name in _MATH_OF and not any("docs/math.md#" in line for line in lines):
        # A public function whose docstring cites no section: the link after its summary.
        lines[1:1] = ["", "Formula: " + _math_ref(_MATH_OF[name], name) + "."]


#: The math section of public functions whose docstrings cite none (outside chanceclust's
#: package namespace; the test suite checks that every function of chanceclust.__all__ cites
#: one).
_MATH_OF = {"chanceclust.dask.contingency_table": "math-summaries"}


#: "See Also" for the public functions whose docstrings have none (numpydoc renders it).
_SEE_ALSO = {
    "adjusted_rand_index": ["rand_index", "expected_rand_index", "standardized_rand_index",
                            "adjusted_mutual_information", "compare"],
    "adjusted_mutual_information": ["mutual_information", "expected_mutual_information",
                                    "normalized_mutual_information", "adjusted_rand_index",
                                    "compare"],
    "compare": ["adjusted_rand_index", "adjusted_mutual_information", "pairwise"],
    "expected_rand_index_baseline": ["expected_rand_index", "expected_mutual_information_baseline"],
    "expected_mutual_information_baseline": ["expected_mutual_information",
                                             "expected_rand_index_baseline"],
    "same_cluster_probability": ["expected_rand_index", "stirling2", "bell"],
    "null_distribution": ["significance_test", "monte_carlo_adjusted", "random_clusterings"],
    "significance_test": ["null_distribution", "standardized_rand_index", "monte_carlo_adjusted"],
    "monte_carlo_adjusted": ["significance_test", "null_distribution", "adjusted_rand_index"],
    "random_clusterings": ["random_clustering", "null_distribution"],
    "rand_index": ["adjusted_rand_index", "pair_counts", "expected_rand_index"],
    "normalized_mutual_information": ["mutual_information", "adjusted_mutual_information",
                                      "entropy"],
    "entropy": ["mutual_information", "normalized_mutual_information"],
    "fowlkes_mallows_index": ["pair_counts", "jaccard_index", "rand_index"],
    "jaccard_index": ["pair_counts", "fowlkes_mallows_index", "monte_carlo_adjusted"],
    "variation_of_information": ["mutual_information", "entropy"],
    "contingency_table": ["pair_counts", "partial_table", "TableSummary"],
    "pair_counts": ["contingency_table", "rand_index", "fowlkes_mallows_index"],
    "partial_table": ["merge_tables", "PartialTable", "TableSummary"],
    "merge_tables": ["partial_table", "PartialTable"],
    "pairwise": ["compare", "PairwiseResult"],
}


def _summary(name: str) -> str:
    """The first line of a public name's docstring, for its entry in a See Also list."""
    import inspect

    doc = inspect.getdoc(getattr(chanceclust, name)) or ""
    return doc.split("\n", 1)[0].rstrip(".")


def _see_also(app, what, name, obj, options, lines):
    """Append a numpydoc "See Also" section to a public function's docstring without one."""
    short = name.rsplit(".", 1)[-1]
    if name != f"chanceclust.{short}" or short not in _SEE_ALSO:
        return
    if any(line.strip() == "See Also" for line in lines):
        return
    entries = [f"{other} : {_summary(other)}" for other in _SEE_ALSO[short]]
    # numpydoc renders sections in its own order, so appending is enough.
    lines += ["", "See Also", "--------", *entries]



def setup(app):
    app.connect("builder-inited", _check_api_listing)
    app.connect("autodoc-process-docstring", _escape_bars)
    # Before numpydoc (priority 500) parses the sections.
    app.connect("autodoc-process-docstring", _link_math, priority=400)
    app.connect("autodoc-process-docstring", _see_also, priority=400)
    app.connect("missing-reference", _public_name)
