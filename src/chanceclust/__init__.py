"""chanceclust: exact chance-adjusted clustering similarity under several random models."""

__version__ = "0.1.0.dev0"
