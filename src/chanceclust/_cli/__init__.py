"""The command line's implementation; :mod:`chanceclust.cli` is its entry point (``main``).

One module per subcommand, each declaring its help, examples and own options (``HELP``,
``EXAMPLES``, ``add_arguments``) right above the handler that runs them (``run``); the shared
pieces (``main``, ``results``, ``inputs``, ``options``, each saying what it holds) are imported by
the subcommands and never import them back (no cycle). ``reproduce`` is declared by
:mod:`chanceclust.paper` (``add_reproduce_parser``).
"""
