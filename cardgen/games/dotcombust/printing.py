"""The printed dotCOMbust deck: the engine read from it, its structural checks, the smaller deck."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ...errors import CardgenError
from ...findings import Finding
from .assets import asset_of, deck_assets, keep_assets, parts_of
from .policies import DotcombustGame
from .rules import OPTION_NAMES, parse_options

#: the original game prints exactly this many cards
FULL_DECK_CARDS = 80


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> DotcombustGame:
    """The engine for a built deck; CLI options override the deck's own.

    Refuses a deck that check_deck finds unplayable, naming the first problem.
    """
    errors = [f for f in check_deck(deck) if f.severity == "error"]
    if errors:
        raise CardgenError(f"deck cannot be played: {errors[0]}")
    deck_options = deck.options or {}
    merged = {k: v for k, v in deck_options.items() if k in OPTION_NAMES}
    for key, value in (options or {}).items():
        # the deck's other keys (look, print) may come back here unchanged
        if key in OPTION_NAMES or key not in deck_options or deck_options[key] != value:
            merged[key] = value
    return DotcombustGame(options=merged, assets=deck_assets(deck))


def check_deck(deck: Any) -> list[Finding]:
    """Structural checks: asset part lists, card count, players, the deal."""
    where = str(deck.path)
    at_options = getattr(deck, "key_locations", {}).get("options") or deck.location
    findings: list[Finding] = []

    def error(message: str, card: Any = None, severity: str = "error",
              location: Any = None) -> None:
        if card is not None:
            location = card.location
        findings.append(Finding(deck=where, message=message,
                                card=card.id if card is not None else "",
                                location=location or deck.location, severity=severity))

    by_asset: dict[str, list[Any]] = {}
    for card in deck.cards:
        if card.kind != "asset":
            continue
        if not asset_of(card):
            error("asset card names no asset", card)
            continue
        by_asset.setdefault(asset_of(card), []).append(card)
    if not by_asset:
        error("no asset cards: dotCOMbust is played with asset parts")
        return findings

    for name, cards in by_asset.items():
        _check_asset(name, cards, error)

    try:
        opts = parse_options({k: v for k, v in (deck.options or {}).items()
                              if k in OPTION_NAMES})
        kept = keep_assets(list(by_asset), opts["assets"])
    except CardgenError as exc:
        error(str(exc), location=at_options)
        return findings
    players = opts["players"]
    total = sum(c.copies for name in kept for c in by_asset[name])
    # a smaller deck asked for with the assets option is meant to be smaller
    if not opts["assets"] and total != FULL_DECK_CARDS:
        error(f"the original game has {FULL_DECK_CARDS} cards, this deck has {total}",
              severity="warning")
    if total < 2 * players:
        error(f"{total} cards dealt to {players} players gives someone fewer than 2 "
              "cards, and a player with one card or none ends the game at once",
              location=at_options)
    return findings


def _check_asset(name: str, cards: list[Any], error: Any) -> None:
    """Every card lists the same parts, and each part is printed exactly once."""
    parts = parts_of(cards[0])
    if len(parts) < 2:
        error(f"asset '{name}' lists {len(parts)} part(s); an asset needs 2 or more",
              cards[0])
    repeated = sorted(p for p, c in Counter(parts).items() if c > 1)
    if repeated:
        error(f"asset '{name}' lists part(s) {', '.join(repeated)} more than once",
              cards[0])
    seen: Counter[str] = Counter()
    for card in cards:
        if parts_of(card) != parts:
            error(f"asset '{name}': this card lists parts {list(parts_of(card))}, "
                  f"card '{cards[0].id}' lists {list(parts)}", card)
        if card.title not in parts:
            error(f"asset '{name}': part '{card.title}' is not in the asset's "
                  f"part list {list(parts)}", card)
        seen[card.title] += card.copies
        if card.title in parts and seen[card.title] > 1:
            error(f"asset '{name}': part '{card.title}' is printed "
                  f"{seen[card.title]} times; each part exists once", card)
    missing = [p for p in dict.fromkeys(parts) if p not in seen]
    if missing:
        error(f"asset '{name}' has no card for part(s) {', '.join(missing)}", cards[0])


def customise(deck: Any, cards: list, options: Mapping[str, Any], settings: Any) -> list:
    """A smaller deck for fewer players: ``assets=N`` keeps the first N assets."""
    keep = options.get("assets")
    if not keep:
        return cards
    assets = list(dict.fromkeys(asset_of(c) for c in cards if c.kind == "asset"))
    if not 1 <= keep <= len(assets):
        raise CardgenError(f"option assets must be from 1 to {len(assets)} (the deck has {len(assets)} assets), "
                           f"got {keep}")
    kept = set(assets[:keep])
    return [c for c in cards if c.kind != "asset" or asset_of(c) in kept]
