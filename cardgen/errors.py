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
