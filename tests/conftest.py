"""Shared pytest configuration: the Hypothesis profile of the test suite.

Why this profile:

* ``derandomize=True``: every run draws the same examples, so a red CI run can
  be reproduced bit for bit and the suite never flickers on an unlucky draw
  (the example database is not consulted in this mode either, so nothing is
  written to ``.hypothesis/``).
* ``max_examples=25``: the properties loop over every measure, model,
  sidedness and normalization (about 60 variants), and the ``all`` two-sided
  expected MI costs milliseconds per call even for N <= 20; 25 examples per
  property keeps the whole common suite well under a minute on 2 cores.
  ``CHANCECLUST_HYPOTHESIS_PROFILE=thorough`` runs 500 random examples.
* ``deadline=None``: call times depend on the model (``all`` is ~100x
  slower than ``perm``) and on the load of a shared CI machine; a per-example
  deadline would only produce flaky failures, while the suite-level time
  budget is what matters.
"""

from __future__ import annotations

import os
import sys
import warnings

from hypothesis import HealthCheck, settings

# On a failing example Hypothesis' pytest plugin imports its patch writer
# (libcst), whose import raises a DeprecationWarning (mypy_extensions); under
# filterwarnings=error that turns every Hypothesis failure into an
# INTERNALERROR that hides the falsifying example. Import it once here, quietly.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:  # libcst missing: the plugin then skips patches itself
        pass

# pytest runs with --import-mode=importlib, which does not put tests/ on
# sys.path: make the shared strategies importable as ``strategies``.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

settings.register_profile(
    "chanceclust",
    derandomize=True,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("CHANCECLUST_HYPOTHESIS_PROFILE", "chanceclust"))
