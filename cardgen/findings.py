"""What the validator reports: one located finding per problem."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .errors import Location


@dataclass(frozen=True)
class Finding:
    """One problem with a deck: which deck file, which card, what is wrong.

    ``severity`` is "error" (the deck cannot be played as built) or
    "warning" (playable, but worth saying, e.g. fewer players than advised).
    """

    deck: str
    message: str
    card: str = ""
    location: Location | None = None
    severity: str = "error"

    def __str__(self) -> str:
        where = str(self.location) if self.location else self.deck
        card = f"card '{self.card}': " if self.card else ""
        return f"{where}: {self.severity}: {card}{self.message}"


def strictly(findings: Iterable[Finding]) -> list[Finding]:
    """The findings with every warning made an error, as ``--strict`` asks."""
    return [replace(f, severity="error") for f in findings]
