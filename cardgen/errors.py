"""One exception type for every user mistake, carrying where it happened.

The CLI turns a CardgenError into ``Error: file:line:col: message`` and exit
code 2; nothing else in the package prints or exits.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A place in a user's file, 1-based like an editor shows it."""

    file: str
    line: int = 0
    column: int = 0
    #: spreadsheets: the sheet and cell (``Cards``, ``B3``), shown as file:Cards!B3
    sheet: str = ""
    cell: str = ""

    def __str__(self) -> str:
        if self.cell:
            return f"{self.file}:{self.sheet}!{self.cell}"
        if self.line and self.column:
            return f"{self.file}:{self.line}:{self.column}"
        if self.line:
            return f"{self.file}:{self.line}"
        return self.file


class CardgenError(Exception):
    """A mistake in the user's input: a message and, where known, its location."""

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is not None:
            return f"{self.location}: {self.message}"
        return self.message


class GuestError(CardgenError):
    """What a plug-in game raised or answered wrongly, said in one line: its traceback is kept for
    ``--debug``; ``exit_code`` is 2 for a broken plug-in, 1 for a game that failed as it was played."""

    def __init__(self, message: str, exit_code: int = 2, trace: str = ""):
        super().__init__(message)
        self.exit_code = exit_code
        self.trace = trace

    def __reduce__(self):  # raised in a worker process, it crosses back whole
        return type(self), (self.message, self.exit_code, self.trace)


def reason(exc: BaseException, limit: int) -> str:
    """What ``exc`` says, for a one-line message: its first line (or its class's name when it says
    nothing), cut to ``limit`` characters."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."
