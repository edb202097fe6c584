"""``python -m chanceclust``: the command line (see :mod:`chanceclust.cli`)."""

from chanceclust.cli import main

raise SystemExit(main())
