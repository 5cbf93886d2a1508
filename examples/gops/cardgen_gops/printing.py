"""Goofspiel's printed deck: the engine for a built deck and the deck's structural checks."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.findings import Finding

from .rules import OPTION_SPECS, GopsGame


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> GopsGame:
    """The engine for a built deck: its players and its suit size."""
    known = {spec.name for spec in OPTION_SPECS}
    merged = {key: value for key, value in {**(deck.options or {}), **dict(options or {})}.items() if key in known}
    return GopsGame(merged)


def check_deck(deck: Any) -> list[Finding]:
    """Every player needs a bid card of each value 1..N, and there must be prize cards 1..N."""
    cards = (deck.options or {}).get("cards", 13)
    findings = []
    values = {str(v) for v in range(1, cards + 1)}
    owners = {card.owner for card in deck.cards if card.owner >= 0}
    for owner in sorted(owners):
        bids = {str(card.fields.get("value", "")) for card in deck.cards if card.owner == owner}
        if not values <= bids:
            findings.append(Finding(str(deck.path), f"player {owner + 1} lacks bid cards "
                                                    f"{', '.join(sorted(values - bids, key=int))}",
                                    location=deck.location))
    prizes = {str(card.fields.get("value", "")) for card in deck.cards if card.owner < 0}
    if not values <= prizes:
        findings.append(Finding(str(deck.path), f"the prize suit lacks {', '.join(sorted(values - prizes, key=int))}",
                                location=deck.location))
    return findings
