"""The command line's implementation; :mod:`chanceclust.cli` is its entry point (``main``).

One module per subcommand, each declaring its help, examples and own options (``HELP``,
``EXAMPLES``, ``add_arguments``) right above the handler that runs them (``run``); shared pieces
below them, imported by the subcommands and never importing them back (no cycle):

==================  ======================================================================
``main``            the parser of every subcommand (:data:`main.COMMANDS`), ``main`` and
                    the exit status of each kind of failure
``compare``         ``compare`` (two files, ``--contingency`` cells or one Parquet dataset)
``table``           ``table`` (same inputs; ``--histograms``)
``rank``            ``rank``
``expect``          ``expect``
``sample``          ``sample``
``test``            ``test``
``pairwise``        ``pairwise``
``results``         the CLI's measure list (``MEASURES``, ``measure_rows``) and the writers
                    of rows and headers
``inputs``          reading and aligning clusterings, cells files and Parquet datasets
``options``         ``PROG``, ``UsageError``, option types and the option groups several
                    subcommands share (input, output, models, general)
==================  ======================================================================

``reproduce`` is declared by :mod:`chanceclust.paper` (``add_reproduce_parser``).
"""
