"""Command line: ``chanceclust`` (or ``python -m chanceclust``); the console entry point.

Results go to standard output, diagnostics to standard error. Exit status: 0 on success, 2
for the user's input (a usage error, an option, a file or a value chanceclust refuses: one
line naming the option, or the file and line, and the problem; ``--debug`` adds the traceback)
and for a :class:`MemoryError` (the inputs need more memory than the machine has), 130 on
Ctrl-C, and 1 for anything else: a bug of chanceclust (the message asks to report it and says
how to get the traceback). Results are buffered and written only once a command has
succeeded, so an error never leaves partial output. Numeric options are bounded (the bound is
in the error message): N below 2**63 for ``expect``, at most 10^7 sampled labels, 10^7 test
samples and 30 decimals.

The implementation is the package :mod:`chanceclust._cli`, one module per subcommand; the
library is imported lazily, inside each subcommand, so that ``--help`` and ``--version`` start
fast and a module that is missing only disables the subcommands that need it.
"""

from __future__ import annotations

from chanceclust._cli.main import get_parser, main
from chanceclust._cli.options import UsageError
from chanceclust._cli.results import MEASURES

__all__ = ["MEASURES", "UsageError", "get_parser", "main"]
