"""The rules validator: can this deck, as built, actually be played?

Structural checks common to every deck (ids, copies, art, text that fits)
plus each game's own (``games.<game>.check_deck``), and for ``cardgen
validate`` a short seeded playtest through the game's engine.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .findings import Finding, strictly
from .games import game_info
from .model import Deck
from .prepare import BuildSettings, deck_faces, deck_template, plan_outputs, prepare_decks
from .sheets import SheetTemplate

if TYPE_CHECKING:
    from .render.faces import Faces

PLAYTEST_GAMES = 20
PLAYTEST_SEED = 1


@dataclass
class DeckReport:
    """The validator's verdict on one deck."""

    deck: str
    file: str
    #: cards printed, all copies and players counted, as ``cardgen build`` prints them
    cards: int = 0
    findings: list[Finding] = field(default_factory=list)
    playtest: dict[str, Any] | None = None

    @property
    def playable(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "file": self.file,
            "cards": self.cards,
            "playable": self.playable,
            "findings": [
                {"severity": f.severity, "card": f.card, "message": f.message,
                 "location": str(f.location) if f.location else f.deck}
                for f in self.findings
            ],
            "playtest": self.playtest,
        }


def validate_decks(names: Sequence[str], settings: BuildSettings,
                   playtest_games: int = PLAYTEST_GAMES) -> list[DeckReport]:
    """Validate the named decks (none: every bundled deck) exactly as ``build`` would print them."""
    return [validate_deck(deck, deck_template(deck, settings), playtest_games, strict=settings.strict)
            for deck in prepare_decks(names, settings)]


def validate_deck(deck: Deck, template: SheetTemplate, playtest_games: int = PLAYTEST_GAMES,
                  strict: bool = False) -> DeckReport:
    """Structural checks, then (when those pass) a short seeded playtest; ``strict``: every warning of
    the checks is an error."""
    printed = sum(output.count for output in plan_outputs(deck, Path()))
    findings = structural_findings(deck, template)
    report = DeckReport(deck.id, str(deck.path), printed, strictly(findings) if strict else findings)
    info = game_info(deck.game)
    if report.playable and info is not None and playtest_games > 0:
        report.playtest, findings = _short_playtest(deck, info, playtest_games)
        report.findings.extend(findings)
    return report


def structural_findings(deck: Deck, template: SheetTemplate, faces: Faces | None = None) -> list[Finding]:
    findings = common_findings(deck) + face_findings(deck, template, faces)
    info = game_info(deck.game)
    if info is not None:
        findings += info.check_deck(deck)
    return findings


def common_findings(deck: Deck) -> list[Finding]:
    """Checks every deck gets, whatever its game."""
    out = []
    seen: dict[tuple[str, int], Any] = {}
    if not deck.cards:
        out.append(Finding(str(deck.path), "the deck has no cards", location=deck.location))
    for card in deck.cards:
        key = (card.id, card.owner)
        if key in seen:
            out.append(Finding(str(deck.path), "card id is used twice", card.id, card.location))
        seen[key] = card
        if card.copies < 1:
            out.append(Finding(str(deck.path), f"copies must be at least 1, got {card.copies}", card.id,
                               card.location))
        if card.image is not None and not card.image.is_file():
            out.append(Finding(str(deck.path), f"art file {card.image} is missing", card.id, card.location))
    out.extend(label_findings(deck))
    out.extend(greyscale_findings(deck))
    return out


#: players' colours closer than this in lightness (CIE L*) print as one grey
MIN_LIGHTNESS_APART = 20.0
#: asset colours closer than this look alike in greyscale, unless the icon tells them apart
MIN_ASSET_LIGHTNESS_APART = 8.0


def asset_greyscale_findings(deck: Deck) -> list[Finding]:
    """Assets are told apart by colour, code and icon: warn when two share an icon and a grey."""
    from .colors import lightness

    assets: dict[str, tuple] = {}
    for card in deck.cards:
        if card.kind == "asset" and card.color is not None:
            assets.setdefault(card.fields.get("asset", ""), (card.color, card.icon, card.location))
    out = []
    names = list(assets)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (ca, ia, where), (cb, ib, _) = assets[a], assets[b]
            if ia == ib and abs(lightness(ca) - lightness(cb)) < MIN_ASSET_LIGHTNESS_APART:
                out.append(Finding(str(deck.path), f"assets '{a}' and '{b}' share the icon '{ia}' and print as "
                                                   f"nearly the same grey; in black and white only their codes "
                                                   f"tell them apart: give one another icon or colour",
                                   location=where, severity="warning"))
    return out


def greyscale_findings(deck: Deck) -> list[Finding]:
    """Players told apart by colour: warn when a black-and-white print would make two alike."""
    from .colors import lightness, to_hex

    out = asset_greyscale_findings(deck)
    if len(deck.players) < 2 or not (deck.per_player or deck.back.tint_by_player):
        return out
    players = deck.players
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            la, lb = lightness(a.color), lightness(b.color)
            if abs(la - lb) < MIN_LIGHTNESS_APART:
                out.append(Finding(
                    str(deck.path), f"players '{a.name}' ({to_hex(a.color)}) and '{b.name}' ({to_hex(b.color)}) "
                    f"print as nearly the same grey (lightness {la:.0f} and {lb:.0f}); in black and white only "
                    f"their shapes tell them apart. Pick colours further apart in lightness, e.g. "
                    f"--color '#1565c0' --color '#ffb300'", location=deck.key_locations.get("players"),
                    severity="warning"))
    return out


def label_findings(deck: Deck) -> list[Finding]:
    """The page label names the deck and player in the bundled font: a character it lacks is reported."""
    from .render.fonts import FontChain, describe

    out = []
    for words, where in [(deck.name, deck.key_locations.get("name"))] + \
            [(p.name, deck.key_locations.get("players")) for p in deck.players]:
        for char in FontChain().missing(words):
            out.append(Finding(str(deck.path), f"the page label prints {describe(char)} of {words!r}, which the "
                                               f"label's font (DejaVu Sans) has not", location=where))
    return out


def face_findings(deck: Deck, template: SheetTemplate, faces: Faces | None = None) -> list[Finding]:
    """What drawing every distinct face and back found: text that does not fit, characters no
    font has, art printed at too low a resolution."""
    return (faces or deck_faces(deck, template)).findings(deck.cards)


def _short_playtest(deck: Deck, info, games: int) -> tuple[dict[str, Any], list[Finding]]:
    from .playtest import run_playtest

    game = info.from_deck(deck, deck.options)
    report = run_playtest(game, games=games, seed=PLAYTEST_SEED, policy="random")
    findings = []
    if report["timeouts"] == report["games"]:
        findings.append(Finding(str(deck.path), f"none of {games} seeded playtest games finished",
                                location=deck.location))
    summary = {k: report[k] for k in ("games", "completion", "decisive", "draws", "timeouts", "mean_length")}
    return summary, findings
