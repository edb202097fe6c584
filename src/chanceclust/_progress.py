"""The one progress bar of the package (CLI ``rank``/``test`` and ``reproduce``), on stderr."""

from __future__ import annotations

import sys
import time


class Progress:
    """``label [#####-----] i/total`` on stderr; silent when stderr is not a terminal.

    Parameters
    ----------
    label : str
        Name shown before the bar.
    total : int
        Number of steps.
    enabled : bool or None, default=None
        None means "only if stderr is a TTY".
    """

    def __init__(self, label: str, total: int, enabled: bool | None = None) -> None:
        self.label, self.total, self.done = label, max(int(total), 1), 0
        self.enabled = sys.stderr.isatty() if enabled is None else bool(enabled)
        self.start = time.perf_counter()
        self._shown = -1

    def update(self, n: int = 1) -> None:
        """Advance by ``n`` steps."""
        self.set(self.done + n)

    def set(self, done: int) -> None:
        """Show ``done`` steps of ``total`` (the form of ``progress(done, total)`` callbacks)."""
        self.done = min(done, self.total)
        width = 30
        filled = width * self.done // self.total
        if self.enabled and filled != self._shown:
            self._shown = filled
            elapsed = time.perf_counter() - self.start
            sys.stderr.write(f"\r{self.label:>12} [{'#' * filled}{'-' * (width - filled)}] "
                             f"{self.done}/{self.total} {elapsed:5.0f}s")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
