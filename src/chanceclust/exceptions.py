"""The exceptions chanceclust raises, by whose fault they are.

- :class:`InvalidInputError` (a :class:`ValueError`): an argument, option or input file the
  user gave cannot be used. The message names the argument (or file and line), what it must
  be and what it got. Only the validation layer raises it; ``except ValueError`` catches it.
- :class:`InvalidInputTypeError` (also a :class:`TypeError`): a container or object that
  cannot hold what the argument asks for (a clustering, a table).
- :class:`InvalidFileError`: an :class:`InvalidInputError` located in an input file:
  ``str(err)`` is ``"<file>:<line>: <problem>"`` or ``"<file>: <problem>"``.
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
"""

from __future__ import annotations

__all__ = ["InternalError", "InvalidFileError", "InvalidInputError", "InvalidInputTypeError"]


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


class InternalError(RuntimeError):
    """An internal invariant failed: a bug of chanceclust, not a problem with the input."""

    def __init__(self, message: str) -> None:
        super().__init__(
            f"{message} (this is a bug in chanceclust, please report it with the call that "
            "raised it)"
        )
