"""The exceptions chanceclust raises, by whose fault they are.

Each class's docstring says what it means; the overview is docs/api.rst, "Errors". The command
line exits 2 for the invalid-input errors (unsupported ones included) and 1 for
:class:`InternalError`.

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
    """An argument, option or input the user gave cannot be used.

    The message names the argument (or file and line), what it must be and what it got.
    """


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
