"""The build pipeline: deck file -> customised deck -> checks -> sheets -> PDFs.

Everything ``cardgen build`` does is here and callable from Python:
``build_decks(["common-carrier"], Path("output"), BuildSettings())``.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import numbers
from .colors import parse_color
from .deck import deck_names, slug
from .errors import CardgenError
from .export import FORMATS
from .export.sheets import PdfInfo, write_pdf
from .findings import Finding
from .games import game_class, game_info
from .games.base import OptionSpec
from .model import Card, Deck, Player
from .render.faces import Faces
from .render.reference import option_on
from .resolve import load_resolved
from .sheets import DEFAULT_SHEET, DUPLEX_MODES, INK_MODES, PlacedCard, Printing, SheetTemplate, load_template
from .units import mm

MAX_BACK_OFFSET_MM = 20.0
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True)
class BuildSettings:
    """Everything the user can set for a build; defaults match the CLI's."""

    sheet: str = DEFAULT_SHEET
    duplex: str = "long"
    #: (x, y) in millimetres: +x moves backs right, +y up, as the backs page is viewed
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: (x, y) in millimetres: +x moves fronts right, +y up, to meet the stock's perforations
    front_offset: tuple[float, float] = (0.0, 0.0)
    #: one colour per player, CSS names or #hex; empty keeps the deck's colours
    colors: tuple[str, ...] = ()
    #: Common Carrier's gray cards to print per player (the game reads it): "all", "none", "N,M" or
    #: "pbx=N,goose=M"
    gray: str = "all"
    #: rule options as given on the command line, KEY -> VALUE text
    options: dict[str, Any] = field(default_factory=dict)
    #: run the structural checks first and refuse an unplayable deck
    validate: bool = True
    #: all fronts pages first, then all backs pages
    backs_at_end: bool = False
    #: "full" backs, or "light": outline art on white (the built-in back only)
    ink: str = "full"
    #: crop marks on the backs pages too
    back_marks: bool = False
    #: every deck and player of the build in one PDF, sharing sheets
    one_pdf: bool = False
    #: what to write: "pdf" (sheets), "png", "pdf-cards", "tts"
    formats: tuple[str, ...] = ("pdf",)
    #: resolution of PNG exports
    dpi: float = 300.0
    #: bleed of card-by-card exports in points (None: the template's, or 1/8 in)
    bleed: float | None = None
    #: PNG corner radius in points, drawn transparent (0: square corners)
    corners: float = 0.0


@dataclass(frozen=True)
class Output:
    """One PDF to write: whose it is and which cards it holds."""

    path: Path
    cards: tuple[Card, ...]
    player: Player | None = None
    owner: int = -1

    @property
    def count(self) -> int:
        """Cards printed in this file, every copy counted."""
        return sum(c.copies for c in self.cards)


@dataclass
class BuildResult:
    deck: Deck
    outputs: list[Output]
    pages: list[int]
    warnings: list[Finding]
    faces: Faces | None = None
    #: what the card-by-card formats wrote
    exports: list[Export] = field(default_factory=list)


@dataclass(frozen=True)
class Export:
    """Files one format wrote for one deck: where, how many cards they hold, how many files."""

    format: str
    path: Path
    cards: int
    files: int


class DeckUnplayable(CardgenError):
    """The structural checks found errors; ``findings`` lists them all."""

    def __init__(self, deck: Deck, findings: list[Finding]):
        lines = "\n".join(f"  {f}" for f in findings)
        super().__init__(f"deck '{deck.id}' cannot be played as built ({len(findings)} problem"
                         f"{'s' if len(findings) != 1 else ''}); fix it or use --no-validate:\n{lines}")
        self.findings = findings


def build_decks(names: Sequence[str], out_dir: Path, settings: BuildSettings) -> list[BuildResult]:
    """Build every named deck (bundled ids or YAML paths; none: every bundled deck) into ``out_dir``.

    All decks are loaded, customised and checked before any PDF is written,
    so bad input anywhere leaves the output folder as it was.
    """
    from .progress import expect

    template = load_template(settings.sheet)
    results = []
    for deck in prepare_decks(names, settings):
        # planning every face, then writing every card of every format
        formats = len(settings.formats)
        expect(len(deck.cards) + formats * sum(o.count for o in plan_outputs(deck, out_dir)))
        faces = deck_faces(deck, template)
        warnings: list[Finding] = []
        if settings.validate:
            from .validate import structural_findings

            findings = structural_findings(deck, template, faces)
            errors = [f for f in findings if f.severity == "error"]
            if errors:
                raise DeckUnplayable(deck, errors)
            warnings = [f for f in findings if f.severity != "error"]
        results.append(BuildResult(deck, plan_outputs(deck, out_dir), [], warnings, faces))
    check_outputs([(r.deck, r.outputs) for r in results], out_dir)
    if "pdf" in settings.formats:
        if settings.one_pdf:
            combined = write_one_pdf(results, out_dir, template, settings)
            for result in results:
                result.outputs, result.pages = [], []
            results[0].outputs, results[0].pages = combined.outputs, combined.pages
        else:
            for result in results:
                assert result.faces is not None
                for output in result.outputs:
                    result.pages.append(write_output(result.deck, output, template, settings, result.faces))
    else:
        for result in results:
            result.outputs = []
    for result in results:
        result.exports = export_cards(result.deck, out_dir, template, settings)
    return results


def export_cards(deck: Deck, out_dir: Path, template: SheetTemplate, settings: BuildSettings) -> list[Export]:
    """The card-by-card formats of one deck: PNG per card, the print-shop PDF, Tabletop Simulator."""
    from .export.cards import CardBox, Listed, TtsDeck, print_shop_bleed, write_card_pdf, write_pngs, write_tts

    wanted = [f for f in settings.formats if f != "pdf"]
    if not wanted:
        return []
    width, height = ((template.card_width, template.card_height) if deck.landscape
                     else (template.card_height, template.card_width))
    bleed = settings.bleed if settings.bleed is not None else print_shop_bleed(template.bleed)
    faces = Faces(deck, width, height, bleed)
    box = CardBox(width, height, bleed)
    exports: list[Export] = []
    tts_decks: list[TtsDeck] = []
    drawings: dict = {}
    for output in plan_outputs(deck, out_dir):
        stem = output.path.stem
        who = f" – {output.player.name}" if output.player else ""
        keys = [(card, faces.face(card), faces.back(card)) for card in output.cards]
        drawings.update({key: faces.drawings[key] for _, face, back in keys for key in (face, back)})
        count = output.count
        if "png" in wanted:
            backs = list(dict.fromkeys(back for _, _, back in keys))
            names = {face: f"{card.id}.png" for card, face, _ in keys}
            names.update({back: "back.png" if len(backs) == 1 else f"back-{slug(back)}.png" for back in backs})
            listed = [Listed(names[face], card.id, card.copies, names[back]) for card, face, back in keys]
            folder = out_dir / stem
            files = write_pngs(folder, drawings, names, listed, box, settings.dpi, settings.corners)
            exports.append(Export("png", folder, count, len(files)))
        if "pdf-cards" in wanted:
            pages = [key for card, face, back in keys for _ in range(card.copies) for key in (face, back)]
            path = out_dir / f"{stem}-cards.pdf"
            info = PdfInfo(title=f"{deck.name}{who}", author=deck.author or "cardgen",
                           subject=f"one card per page, fronts and backs alternating, "
                                   f"{bleed / 72 * 25.4:.2f} mm bleed (TrimBox and BleedBox set)")
            write_card_pdf(path, drawings, pages, box, info)
            exports.append(Export("pdf-cards", path, count, 1))
        if "tts" in wanted:
            by_back: dict[str, list[tuple[str, str]]] = {}
            for card, face, back in keys:
                by_back.setdefault(back, []).extend([(face, card.title or card.id)] * card.copies)
            for n, (back, cards) in enumerate(by_back.items()):
                suffix = f" ({n + 1})" if len(by_back) > 1 else ""
                tts_decks.append(TtsDeck(f"{deck.name}{who}{suffix}", tuple(cards), back))
    if tts_decks:
        folder = out_dir / f"{deck.id}-tts"
        files = write_tts(folder, deck.id, drawings, tts_decks, box)
        exports.append(Export("tts", folder / f"{deck.id}.json", sum(len(d.cards) for d in tts_decks), len(files)))
    return exports


def write_one_pdf(results: list[BuildResult], out_dir: Path, template: SheetTemplate,
                  settings: BuildSettings) -> BuildResult:
    """Every deck and player of the build in one PDF, filling sheets one after another.

    Backs are placed slot by slot, so cards of different decks or players can
    share a sheet: the build prints as few sheets as its cards need.
    """
    drawings: dict = {}
    placed: list[PlacedCard] = []
    cards: list[Card] = []
    for result in results:
        assert result.faces is not None
        for output in result.outputs:
            own, own_placed = face_drawings(output.cards, result.faces)
            prefix = f"{result.deck.id}/"
            drawings.update({prefix + key: drawing for key, drawing in own.items()})
            placed.extend(PlacedCard(prefix + p.face, prefix + p.back if p.back else None) for p in own_placed)
            cards.extend(output.cards)
    first = results[0].deck
    name = first.id if len(results) == 1 else "cards"
    names = " + ".join(r.deck.name for r in results)
    printing = _printing(first, template, settings)
    info = PdfInfo(title=names, author=first.author if len(results) == 1 and first.author else "cardgen",
                   subject=_subject(template, settings), label=names)
    path = out_dir / f"{name}.pdf"
    pages = write_pdf(path, printing, drawings, placed, info)
    warnings = [w for r in results for w in r.warnings]
    return BuildResult(first, [Output(path, tuple(cards))], [pages], warnings)


def deck_faces(deck: Deck, template: SheetTemplate) -> Faces:
    """The deck's drawings at the card size of ``template`` (portrait decks stand the card up)."""
    width, height = ((template.card_width, template.card_height) if deck.landscape
                     else (template.card_height, template.card_width))
    return Faces(deck, width, height, template.art_bleed)


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
        if info is not None and info.check_settings is not None:
            info.check_settings(settings)
    return [prepare(deck, _settings_for(deck, decks, settings)) for deck in decks]


def _settings_for(deck: Deck, decks: list[Deck], settings: BuildSettings) -> BuildSettings:
    """In a build of several decks, each takes the options and colours it knows.

    ``cardgen build --option target=6 --color teal`` builds every bundled deck
    and sets Common Carrier's target and colour; an option that no deck of the
    build knows is an error.
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


# --- customising a deck --------------------------------------------------------

def prepare(deck: Deck, settings: BuildSettings) -> Deck:
    """The deck as this build prints it: options, colours, players, gray cards, backs."""
    options = resolve_options(deck, settings.options)
    deck = deck.with_(options=options)
    if settings.ink == "light" and deck.back.layout == "back":
        deck = deck.with_(back=replace(deck.back, layout="back-light"))
    deck = _with_colors(deck, settings.colors)
    cards = [c for c in deck.cards if not c.when or option_on(c.when, options)]
    info = game_info(deck.game)
    if info is not None and info.customise is not None:
        cards = info.customise(deck, cards, options, settings)
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
    where = deck.key_locations.get("standard_deck")
    footer = deck.standard_deck.get("text", "") if deck.standard_deck else ""
    return [Card(id=f"{rank.lower()}-of-{suit}", kind="playing",
                 title=f"{rank} of {suit}", text=footer, location=where,
                 fields={"rank": rank, "suit": suit})
            for suit in SUITS for rank in RANKS]


# --- writing -------------------------------------------------------------------

def check_outputs(planned: Sequence[tuple[Deck, Sequence[Output]]], out_dir: Path) -> None:
    """Before anything is written: no two outputs share a name (the card-by-card exports are named
    after the same stems), and nothing in the way is replaced unless it is a regular file."""
    import stat

    if out_dir.exists() and not out_dir.is_dir():
        raise CardgenError(f"--out {out_dir} is not a folder")
    owners: dict[str, str] = {}
    for deck, outputs in planned:
        for output in outputs:
            source = f"deck '{deck.id}' ({deck.path})" + (f", player '{output.player.name}'" if output.player
                                                         else "")
            key = output.path.stem.casefold()
            if key in owners:
                raise CardgenError(f"{output.path.name} would be written twice: for {owners[key]} and for "
                                   f"{source}; give the decks different ids or the players different names")
            owners[key] = source
            try:
                mode = output.path.lstat().st_mode
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise CardgenError(f"cannot write {output.path}: {exc.strerror}") from None
            if not stat.S_ISREG(mode):
                raise CardgenError(f"{output.path} exists and is not a regular file; cardgen replaces only "
                                   f"files it could have written (remove it or choose another --out)")


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


def face_drawings(cards: tuple[Card, ...], faces: Faces) -> tuple[dict, list[PlacedCard]]:
    """The distinct drawings of ``cards`` and each printed card's face and back keys."""
    keys = [(PlacedCard(faces.face(card), faces.back(card)), card.copies) for card in cards]
    used = {key for placed, _ in keys for key in (placed.face, placed.back) if key}
    drawings = {key: faces.drawings[key] for key in used}
    # one of each distinct card, then the next round of copies: Common Carrier's
    # 10 distinct tiles fill one sheet that repeats, as the original printed it
    placed: list[PlacedCard] = []
    for round_ in range(max((copies for _, copies in keys), default=0)):
        placed.extend(card for card, copies in keys if copies > round_)
    return drawings, placed


def write_output(deck: Deck, output: Output, template: SheetTemplate, settings: BuildSettings,
                 faces: Faces) -> int:
    drawings, placed = face_drawings(output.cards, faces)
    who = f" – {output.player.name}" if output.player else " – shared cards" if output.owner == -1 and \
        deck.per_player else ""
    info = PdfInfo(title=f"{deck.name}{who}", author=deck.author or "cardgen",
                   subject=_subject(template, settings), label=f"{deck.name}{who}")
    return write_pdf(output.path, _printing(deck, template, settings), drawings, placed, info)


def _printing(deck: Deck, template: SheetTemplate, settings: BuildSettings) -> Printing:
    return Printing(template, settings.duplex, (mm(settings.back_offset[0]), mm(settings.back_offset[1])),
                    (mm(settings.front_offset[0]), mm(settings.front_offset[1])),
                    portrait=not deck.landscape, backs_at_end=settings.backs_at_end, back_marks=settings.back_marks)


def _subject(template: SheetTemplate, settings: BuildSettings) -> str:
    flip = "fronts only" if settings.duplex == "off" else \
        "backs at the end" if settings.backs_at_end else f"{settings.duplex}-edge duplex"
    return f"print-and-play cards on {template.name} ({template.description}), {flip}; print at 100 %"
