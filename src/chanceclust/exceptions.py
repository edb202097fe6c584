"""The exceptions chanceclust raises, by whose fault they are.

- :class:`InvalidInputError` (a :class:`ValueError`): an argument, option or input file the
  user gave cannot be used. The message names the argument (or file and line), what it must
  be and what it got. The validation layer raises most of them, and the modules that check
  what only they know (a Dask collection's partitions, a partial table's keys, the options of
  the command line); ``except ValueError`` catches every one.
- :class:`InvalidInputTypeError` (also a :class:`TypeError`): a container or object that
  cannot hold what the argument asks for (a clustering, a table).
- :class:`InvalidFileError`: an :class:`InvalidInputError` located in an input file:
  ``str(err)`` is ``"<file>:<line>: <problem>"`` or ``"<file>: <problem>"``.
- :class:`UnsupportedError` (an :class:`InvalidInputError` and a
  :class:`NotImplementedError`): the input is valid, but beyond what chanceclust computes (the
  range of N an exact variance is implemented for, tables too large to index by int64, more
  memory than the machine has). The message names the limit and, where there is one, what to
  use instead. ``except InvalidInputError`` and ``except ValueError`` catch it too.
- :class:`InternalError` (a :class:`RuntimeError`, not a :class:`ValueError`): an invariant of
  the computation failed. That is a bug of chanceclust, never the user's input; the command
  line exits 1 with "please report it" for it, and 2 for the invalid-input errors above.

Examples
--------
>>> import chanceclust as cc
>>> try:
...     cc.adjusted_rand_index([0, 1], [0, 1], model="nope")
... except cc.InvalidInputError as err:
...     print(err)
`model` must be one of 'perm', 'num', 'all'; got 'nope'.
>>> issubclass(cc.InvalidInputError, ValueError)
True
>>> str(cc.InvalidFileError("a.txt", 3, "empty label"))
'a.txt:3: empty label'
>>> issubclass(cc.UnsupportedError, cc.InvalidInputError), issubclass(cc.UnsupportedError, NotImplementedError)
(True, True)
"""

from __future__ import annotations

__all__ = [
    "InternalError", "InvalidFileError", "InvalidInputError", "InvalidInputTypeError",
    "UnsupportedError",
]


class InvalidInputError(ValueError):
    """An argument, option or input the user gave cannot be used (the message says why)."""


class InvalidInputTypeError(InvalidInputError, TypeError):
    """An argument of a type that cannot hold what it asks for (a clustering, a table)."""


class InvalidFileError(InvalidInputError):
    """An input file that cannot be read as asked, located by file name and (when known) line.

    ``str(err)`` is one line: ``"<file>:<line>: <problem>"``, or ``"<file>: <problem>"``.
    """

    def __init__(self, source: str, line: int | None, problem: str) -> None:
        self.source = source
        self.line = line
        self.problem = problem
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.source}: {self.problem}"
        return f"{self.source}:{self.line}: {self.problem}"

    def __reduce__(self) -> tuple[type, tuple[str, int | None, str]]:  # picklable (Dask workers)
        return type(self), (self.source, self.line, self.problem)


class UnsupportedError(InvalidInputError, NotImplementedError):
    """A valid input beyond what chanceclust computes (the message names the limit).

    A :class:`NotImplementedError`, and an :class:`InvalidInputError` so that code and the
    command line (exit status 2) that handle the user's input handle it alike.
    """


class InternalError(RuntimeError):
    """An internal invariant failed: a bug of chanceclust, not a problem with the input."""

    def __init__(self, message: str) -> None:
        super().__init__(
            f"{message} (this is a bug in chanceclust, please report it with the call that "
            "raised it)"
        )
