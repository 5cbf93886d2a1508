"""Clusterfuck in print: the Social Status cards and their titles, the engine for a built deck,
the printed deck (one status card per player before the deck's own cards) and its checks (status
cards 1..N with the right titles, a full 52 when the optional standard deck is printed).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...errors import CardgenError
from ...findings import Finding
from .cards import RANKS, SUITS
from .policies import ClusterfuckGame
from .rules import DEFAULT_PLAYERS, _check_player_count, read_options

#: card kinds the game makes itself (deck files may not write them)
CARD_KINDS = ("status",)
#: the rules advise five players or more (fewer is a warning, not an error)
ADVISED_PLAYERS = 5

MAGNATE = "Magnate"
LACKEY = "Magnate's Lackey / Man-behind-the-Man"
JACKASS = "Jackass"
ASSHOLE = "Asshole / Desperado"


def status_title(number: int, players: int) -> str:
    """The title printed on Social Status card ``number`` of a ``players`` deck.

    With 3 players card 2 is both the Lackey and the second highest; the
    Lackey wins because the Jackass title has no game consequence.
    """
    _check_player_count(players)
    if not 1 <= number <= players:
        raise CardgenError(f"status number must be 1..{players}, got {number}")
    if number == 1:
        return MAGNATE
    if number == players:
        return ASSHOLE
    if number == 2:
        return LACKEY
    if number == players - 1:
        return JACKASS
    return ""


def status_cards(players: int) -> list[tuple[int, str]]:
    """(number, title) of every Social Status card for ``players`` players."""
    _check_player_count(players)
    return [(k, status_title(k, players)) for k in range(1, players + 1)]


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> ClusterfuckGame:
    """The engine for a built deck: the deck's options, overridden by ``options``."""
    names = {spec.name for spec in ClusterfuckGame.option_specs}
    merged = {k: v for k, v in (deck.options or {}).items() if k in names}
    merged = read_options(merged)
    merged.update(read_options(dict(options or {})))
    return ClusterfuckGame(merged.get("players", DEFAULT_PLAYERS), merged)


# ---------------------------------------------------------------- deck checks


def check_deck(deck: Any) -> list[Finding]:
    """Status cards 1..N with the right titles, and a full 52 when one is printed."""
    where = str(deck.path)
    findings: list[Finding] = []

    def find(message: str, card: Any = None, severity: str = "error", key: str = "") -> None:
        location = card.location if card is not None else deck.key_locations.get(key) or None
        findings.append(Finding(where, message, card.id if card is not None else "", location, severity))

    options = deck.options or {}
    try:
        players = read_options({"players": options.get("players", DEFAULT_PLAYERS)})["players"]
        standard = read_options({"standard_deck": options.get("standard_deck", False)})["standard_deck"]
    except CardgenError as e:
        find(e.message, key="options")
        return findings
    if players < ADVISED_PLAYERS:
        find(f"{players} players: fewer than {ADVISED_PLAYERS} is not advised by the rules",
             severity="warning", key="options")

    _check_status_cards(deck, players, find)
    playing = [c for c in deck.cards if c.kind == "playing"]
    if standard or playing:
        _check_standard_deck(playing, standard, find)
    return findings


def _check_status_cards(deck: Any, players: int, find: Callable[..., None]) -> None:
    seen: dict[int, Any] = {}
    for card in deck.cards:
        if card.kind != "status":
            continue
        number = card.fields.get("number", 0)
        if not 1 <= number <= players:
            find(f"status number {number} is outside 1..{players} for {players} players", card)
            continue
        if number in seen or card.copies != 1:
            find(f"status number {number} appears more than once", card)
        seen.setdefault(number, card)
        expected = status_title(number, players)
        if not _title_matches(card.title, expected, players):
            if expected:
                find(f"status {number} must be titled '{expected}', got '{card.title}'", card)
            else:
                find(f"status {number} carries the title '{card.title}', which belongs to another number", card)
    missing = [k for k in range(1, players + 1) if k not in seen]
    if missing:
        find(f"status cards {', '.join(map(str, missing))} are missing: "
             f"{players} players need one card each numbered 1..{players}", key="cards")


def _title_matches(title: str, expected: str, players: int) -> bool:
    """A title matches its full text or one of its '/' halves; plain numbers carry no rank title."""
    given = " ".join(title.split()).casefold()
    if expected:
        halves = {expected.casefold()} | {part.strip().casefold() for part in expected.split("/")}
        return given in halves
    titled = {_title.casefold() for _title in (MAGNATE, LACKEY, JACKASS, ASSHOLE)}
    titled |= {part.strip().casefold() for t in (LACKEY, ASSHOLE) for part in t.split("/")}
    return given not in titled


def _check_standard_deck(playing: list[Any], standard: bool, find: Callable[..., None]) -> None:
    if not playing:
        find("option standard_deck is true but the deck has no playing cards", key="options")
        return
    seen: dict[tuple[str, str], int] = {}
    for card in playing:
        rank, suit = str(card.fields.get("rank", "")).upper(), str(card.fields.get("suit", "")).lower()
        if rank not in RANKS or suit not in SUITS:
            find(f"playing card '{card.fields.get('rank')} of {card.fields.get('suit')}' is not a card of a "
                 f"traditional deck (ranks {', '.join(RANKS)}; suits {', '.join(SUITS)})", card)
            continue
        key = (rank, suit)
        seen[key] = seen.get(key, 0) + card.copies
        if seen[key] > 1:
            find(f"{rank} of {suit} appears more than once", card)
    missing = [f"{r} of {s}" for r in RANKS for s in SUITS if (r, s) not in seen]
    if missing:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        find(f"the traditional deck needs all 52 cards; missing {shown}", key="cards")


#: Social Status colours: the Magnate's gold, the Asshole's red, the ranks between
STATUS_COLORS = {"top": (0.80, 0.64, 0.16), "bottom": (0.45, 0.12, 0.12), "middle": (0.28, 0.30, 0.38)}


def customise(deck: Any, cards: list, options: Mapping[str, Any], settings: Any) -> list:
    """One Social Status card per player, numbered 1..N, before the deck's own cards."""
    from ...colors import parse_color
    from ...model import Card

    players = options["players"]
    color = deck.status.get("color")
    status = []
    for number, title in status_cards(players):
        rank = "top" if number == 1 else "bottom" if number == players else "middle"
        status.append(Card(id=f"status-{number}", kind="status", title=title,
                           text=deck.status.get("text", ""),
                           color=parse_color(color) if color else STATUS_COLORS[rank],
                           location=deck.key_locations.get("status"),
                           fields={"number": number, "players": players, "rank": rank}))
    return status + cards
