"""Preparing decks: deck file -> the deck as this build prints it, and the files it prints to.

``build``, ``validate``, ``preview`` and the engines of ``playtest``,
``ladder`` and ``analyze`` all start here, so they see the same decks:
``prepare_decks(["my-deck.yaml"], BuildSettings())``. This module sits
below the build and the validator, which both import it and never each other.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from . import numbers
from .colors import COLOR_SPACES, parse_color
from .deck import deck_names, slug
from .errors import CardgenError
from .export import FORMATS, Output
from .games import GameInfo, game_class, game_info
from .games.base import OptionSpec
from .model import Card, Deck, Player
from .render.faces import Faces
from .render.reference import option_on
from .resolve import load_resolved
from .sheets import BUSINESS_STOCKS, DUPLEX_MODES, INK_MODES, SheetTemplate, load_template, turns
from .sheets.papers import DEFAULT_MARGIN, MAX_GAP, MAX_MARGIN, fit
from .sheets.sizes import CARD_SIZES, DEFAULT_CARD, PAPERS, Size, card_size, paper_size, same_size
from .units import mm

MAX_BACK_OFFSET_MM = 20.0
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = ("spades", "hearts", "diamonds", "clubs")
SUIT_ICONS = {"spades": "spade", "hearts": "heart", "diamonds": "diamond", "clubs": "club"}
SUIT_COLORS = {"spades": "#000000", "hearts": "#c71a1f", "diamonds": "#c71a1f", "clubs": "#000000"}


@dataclass(frozen=True)
class BuildSettings:
    """Everything the user can set for a build; defaults match the CLI's."""

    #: a sheet template (name or file): stock with a fixed grid; None: ``paper``, or the deck's choice
    sheet: str | None = None
    #: a paper (name or WxH) to impose the cards on automatically; None: the deck's ``paper:``
    paper: str | None = None
    #: automatic imposition: the printable margin and the gap between cards, in points (None: 5 mm, 0)
    margin: float | None = None
    gap: float | None = None
    duplex: str = "long"
    #: (x, y) in millimetres: +x moves backs right, +y up, as the backs page is viewed
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: (x, y) in millimetres: +x moves fronts right, +y up, to meet the stock's perforations
    front_offset: tuple[float, float] = (0.0, 0.0)
    #: one colour per player, CSS names or #hex; empty keeps the deck's colours
    colors: tuple[str, ...] = ()
    #: the build settings games declare (``GameInfo.build_settings``), NAME -> text as given on the
    #: command line; a setting not given takes its declared default
    game_settings: dict[str, str] = field(default_factory=dict)
    #: rule options as given on the command line, KEY -> VALUE text
    options: dict[str, Any] = field(default_factory=dict)
    #: run the structural checks first and refuse an unplayable deck
    validate: bool = True
    #: every warning of the checks is an error (a print shop's build: nothing prints that is not right)
    strict: bool = False
    #: all fronts pages first, then all backs pages
    backs_at_end: bool = False
    #: "full" backs, or "light": outline art on white (the built-in back only)
    ink: str = "full"
    #: crop marks on the backs pages too
    back_marks: bool = False
    #: every deck and player of the build in one PDF, sharing sheets
    one_pdf: bool = False
    #: what to write: names of ``export.FORMATS``
    formats: tuple[str, ...] = ("pdf",)
    #: resolution of PNG exports
    dpi: float = 300.0
    #: bleed of card-by-card exports in points (None: the template's, or 1/8 in)
    bleed: float | None = None
    #: PNG corner radius in points, drawn transparent (0: square corners)
    corners: float = 0.0
    #: how the PDFs write colours: "rgb" as given, "cmyk" in printing inks (``render.colorspace``)
    color_space: str = "rgb"


def prepare_decks(names: Sequence[str], settings: BuildSettings) -> list[Deck]:
    """The decks a command works on, each customised as this build prints it.

    The one place that decides what each deck takes from the settings:
    ``build``, ``validate`` and ``playtest`` all call it, so they see the same
    decks. ``names`` are bundled ids or YAML paths; none means every bundled
    deck, and finding none is an error.
    """
    check_settings(settings)
    decks = [load_resolved(name) for name in deck_names(names)]
    for game in dict.fromkeys(deck.game for deck in decks):
        info = game_info(game)
        if info is not None:
            for setting in info.build_settings:
                setting.parse(settings.game_settings.get(setting.name, setting.default))
    return [prepare(deck, _settings_for(deck, decks, settings)) for deck in decks]


def _settings_for(deck: Deck, decks: list[Deck], settings: BuildSettings) -> BuildSettings:
    """In a build of several decks, each takes the options and colours it knows.

    ``cardgen build --option target=6 --color teal`` builds every bundled deck
    and sets the target and colour of the decks that have them; an option that
    no deck of the build knows is an error.
    """
    if len(decks) == 1:
        return settings
    everywhere = set().union(*(option_names(d) for d in decks))
    for key in settings.options:
        if key not in everywhere:
            from .yamlio import did_you_mean

            raise CardgenError(f"unknown option '{key}': no deck of this build has it"
                               f"{did_you_mean(key, sorted(everywhere))}; options: {', '.join(sorted(everywhere))}")
    known = option_names(deck)
    options = {key: value for key, value in settings.options.items() if key in known}
    colors = settings.colors if deck.players or not any(d.players for d in decks) else ()
    return replace(settings, options=options, colors=colors)


def option_names(deck: Deck) -> set[str]:
    """Every rule option ``deck`` accepts: its game's and its own."""
    return set(_option_specs(deck)) | set(deck.options)


def _option_specs(deck: Deck) -> dict[str, OptionSpec]:
    game = game_class(deck.game)
    return {s.name: s for s in game.option_specs} if game else {}


def check_settings(settings: BuildSettings) -> None:
    if settings.duplex not in DUPLEX_MODES:
        raise CardgenError(f"--duplex must be one of {', '.join(DUPLEX_MODES)}, got '{settings.duplex}'")
    for fmt in settings.formats:
        if fmt not in FORMATS:
            raise CardgenError(f"--format must be one of {', '.join(FORMATS)}, got '{fmt}'")
    if not 36 <= settings.dpi <= 1200:
        raise CardgenError(f"--dpi must be from 36 to 1200, got {settings.dpi:g}")
    if settings.bleed is not None and not 0 <= settings.bleed <= mm(10):
        raise CardgenError(f"--bleed must be from 0 to 10 mm, got {settings.bleed / mm(1):g} mm")
    if not 0 <= settings.corners <= mm(10):
        raise CardgenError(f"--corners must be from 0 to 10 mm, got {settings.corners / mm(1):g} mm")
    if settings.sheet is not None and settings.paper is not None:
        raise CardgenError(f"--sheet {settings.sheet} and --paper {settings.paper}: give one; a sheet template "
                           "has its own paper")
    if settings.paper is not None:
        paper_size(settings.paper)
    for name, value, top in (("--margin", settings.margin, MAX_MARGIN), ("--gap", settings.gap, MAX_GAP)):
        if value is not None and not 0 <= value <= top:
            raise CardgenError(f"{name} must be from 0 to {top / mm(1):g} mm, got {value / mm(1):g} mm")
    if settings.color_space not in COLOR_SPACES:
        raise CardgenError(f"--color-space must be one of {', '.join(COLOR_SPACES)}, got '{settings.color_space}'")
    if settings.ink not in INK_MODES:
        raise CardgenError(f"--ink must be one of {', '.join(INK_MODES)}, got '{settings.ink}'")
    for name, offset in (("--back-offset", settings.back_offset), ("--front-offset", settings.front_offset)):
        for value in offset:
            if abs(value) > MAX_BACK_OFFSET_MM:
                raise CardgenError(f"{name} {value:g} mm is too large; printers misregister by "
                                   f"at most a few mm (limit {MAX_BACK_OFFSET_MM:g} mm)")


def parse_offset(text: str, option: str = "--back-offset") -> tuple[float, float]:
    """``"1.5,-2"`` -> (1.5, -2.0) millimetres."""
    parts = [re.sub(r"\s*mm\s*$", "", part) for part in (text or "").split(",")]
    x, y = (numbers.decimal(part) for part in parts) if len(parts) == 2 else (None, None)
    if x is None or y is None:
        raise CardgenError(f"{option} must be X,Y in millimetres (for example 1.5,-2), got '{text}'")
    return x, y


def game_settings(info: GameInfo, settings: BuildSettings) -> SimpleNamespace:
    """What ``info.customise`` reads of the build: one attribute per setting the game declares,
    its text as given or its default (each already checked by ``prepare_decks``)."""
    return SimpleNamespace(**{s.name: settings.game_settings.get(s.name, s.default) for s in info.build_settings})


# --- customising a deck --------------------------------------------------------

def prepare(deck: Deck, settings: BuildSettings) -> Deck:
    """The deck as this build prints it: options, colours, players, the game's own cards, backs."""
    options = resolve_options(deck, settings.options)
    deck = deck.with_(options=options)
    if settings.ink == "light" and deck.back.layout == "back":
        deck = deck.with_(back=replace(deck.back, layout="back-light"))
    deck = _with_colors(deck, settings.colors)
    cards = [c for c in deck.cards if not c.when or option_on(c.when, options)]
    info = game_info(deck.game)
    if info is not None and info.customise is not None:
        cards = info.customise(deck, cards, options, game_settings(info, settings))
    if deck.standard_deck is not None and option_on(deck.standard_deck.get("when", "") or "", options,
                                                    default=True):
        cards += _standard_deck(deck)
    if deck.per_player:
        # each player gets their own copy of the playing cards, in their colour;
        # reference cards and cards marked shared are printed once
        owned = [c for c in cards if c.kind != "reference" and not c.shared]
        shared = [c for c in cards if c.kind == "reference" or c.shared]
        cards = [c.with_(owner=i, color=p.color if c.kind == "tile" or c.color is None else c.color)
                 for i, p in enumerate(deck.players) for c in owned
                 if c.owner in (-1, i)] + shared  # a card the game gave one player stays that player's
    return deck.with_(cards=tuple(cards))


def resolve_options(deck: Deck, overrides: dict[str, Any]) -> dict[str, Any]:
    """Game defaults, then the deck's, then the command line's; each checked.

    Options the game's engine knows are parsed by its OptionSpecs (one parser
    for every game); a deck's own extra options take the type of their default.
    """
    specs = _option_specs(deck)
    options = {name: spec.default for name, spec in specs.items()}
    where = deck.key_locations.get("options")
    for key, value in deck.options.items():
        options[key] = _checked(specs, key, value, where)
    known = sorted(options)
    for key, value in overrides.items():
        if key not in options:
            from .yamlio import did_you_mean

            raise CardgenError(f"unknown option '{key}' for deck '{deck.id}'{did_you_mean(key, known)}; "
                               f"options: {', '.join(known) if known else 'none'}")
        spec = specs.get(key) or OptionSpec(key, options[key], "an option of this deck")
        options[key] = spec.parse(value)
    return options


def _checked(specs: dict, key: str, value: Any, where) -> Any:
    if key not in specs:
        return value
    try:
        return specs[key].parse(value)
    except CardgenError as exc:
        raise CardgenError(exc.message, where) from None


def parse_option_pairs(pairs: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``["target=6", "hole_card=true"]`` -> {"target": "6", "hole_card": "true"}."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CardgenError(f"--option must be KEY=VALUE, got '{pair}'")
        out[key.strip()] = value
    return out


def _with_colors(deck: Deck, colors: tuple[str, ...]) -> Deck:
    if not colors:
        return deck
    if not deck.players:
        raise CardgenError(f"--color: deck '{deck.id}' has no player colours to set")
    if len(colors) > len(deck.players):
        raise CardgenError(f"--color given {len(colors)} times but deck '{deck.id}' has "
                           f"{len(deck.players)} players")
    players = list(deck.players)
    for i, text in enumerate(colors):
        try:
            players[i] = Player(players[i].name, parse_color(text))
        except ValueError as exc:
            raise CardgenError(f"--color: {exc}") from None
    return deck.with_(players=tuple(players))


def _standard_deck(deck: Deck) -> list[Card]:
    """The 52 cards, drawn with the layout ``playing`` (cardgen/layouts/playing.yaml, or the deck's own)."""
    where = deck.key_locations.get("standard_deck")
    footer = (deck.standard_deck.get("text", "") if deck.standard_deck else "") or f"low {' '.join(RANKS)} high"
    return [Card(id=f"{rank.lower()}-of-{suit}", kind="playing",
                 title=f"{rank} of {suit}", text=footer, location=where,
                 fields={"rank": rank, "suit": suit, "suit_icon": SUIT_ICONS[suit], "suit_color": SUIT_COLORS[suit]})
            for suit in SUITS for rank in RANKS]


# --- what a deck prints: its files and its drawings --------------------------------

def plan_outputs(deck: Deck, out_dir: Path) -> list[Output]:
    """The PDFs a deck prints: one, or one per player (shared cards in each, or in one of their own)."""
    if deck.per_player:
        separate = deck.shared_cards == "separate"
        outputs = [Output(out_dir / f"{deck.id}-{slug(player.name)}.pdf",
                          tuple(c for c in deck.cards if c.owner == i or (c.owner == -1 and not separate)),
                          player, i)
                   for i, player in enumerate(deck.players)]
        shared = tuple(c for c in deck.cards if c.owner == -1)
        if separate and shared:
            outputs.append(Output(out_dir / f"{deck.id}-shared.pdf", shared))
        return outputs
    return [Output(out_dir / f"{deck.id}.pdf", deck.cards)]


def deck_faces(deck: Deck, template: SheetTemplate) -> Faces:
    """The deck's drawings at the card size of ``template``, standing as the deck's cards do (a slot
    the other way round takes them turned)."""
    width, height = template.card_width, template.card_height
    if turns(template, deck.landscape):
        width, height = height, width
    return Faces(deck, width, height, template.art_bleed)


# --- what a deck prints on ------------------------------------------------------

def deck_card(deck: Deck) -> Size:
    """The deck's card as it stands: its ``card:`` size (business without one), turned when its
    ``orientation:`` says the other way."""
    card = card_size(deck.card) if deck.card else CARD_SIZES[DEFAULT_CARD]
    if card.width != card.height and card.landscape != deck.landscape:
        card = card.turned()
    return card


def deck_template(deck: Deck, settings: BuildSettings) -> SheetTemplate:
    """The sheet ``deck`` prints on: ``--sheet`` (stock of the deck's card size; a deck naming no
    size takes the stock's), else ``--paper``, else the deck's ``paper:``, imposed automatically;
    with neither, business cards on business-card stock (letter-10up; a4-10up for 85 x 55 mm)
    and any other size on Letter, imposed automatically."""
    card = deck_card(deck)
    if settings.sheet is not None:
        return _stock(deck, card, settings.sheet, settings)
    where = None
    paper = settings.paper
    if paper is None and deck.paper:
        paper, where = deck.paper, deck.key_locations.get("paper")
    if paper is None:
        stock = _business_stock(card)
        if stock is not None and settings.margin is None and settings.gap is None:
            return stock
        paper = "letter"
    try:
        return fit(paper_size(paper), card, DEFAULT_MARGIN if settings.margin is None else settings.margin,
                   settings.gap or 0.0)
    except CardgenError as exc:
        raise CardgenError(f"deck '{deck.id}': {exc.message}", where or exc.location) from None


def _business_stock(card: Size) -> SheetTemplate | None:
    """The business-card stock nearest ``card`` if it is one of theirs (within 4 mm each way)."""
    stocks = [load_template(name) for name in BUSINESS_STOCKS]
    fitting = [t for t in stocks if same_size((card.width, card.height), (t.card_width, t.card_height))]
    return min(fitting, key=lambda t: max(abs(a - b) for a, b in zip(sorted((card.width, card.height)),
                                                                    sorted((t.card_width, t.card_height)))),
               default=None)


def _stock(deck: Deck, card: Size, sheet: str, settings: BuildSettings) -> SheetTemplate:
    template = load_template(sheet)
    for name, value in (("--margin", settings.margin), ("--gap", settings.gap)):
        if value is not None:
            raise CardgenError(f"{name} is for automatic imposition on a --paper; sheet '{template.name}' "
                               f"places its cards itself")
    # a deck that names no size takes the stock's, as it always has
    if deck.card and not same_size((card.width, card.height), (template.card_width, template.card_height)):
        from .sheets.sizes import describe

        raise CardgenError(f"deck '{deck.id}' has {card.label or card.name} cards ({deck.card}) "
                           f"but sheet '{template.name}' holds "
                           f"{describe(template.card_width, template.card_height)} cards; "
                           f"use --paper {'|'.join(PAPERS)} to impose them automatically",
                           deck.key_locations.get("card"))
    return template
