"""Loading deck files: the one place that reads deck YAML and CSV.

Everything the file alone can tell is checked here, once, with
file:line:column on every failure. What only a renderer knows (icon names,
whether an SVG draws, whether a font file is TrueType) or only a game knows
(its id, rule options and card kinds) the loader records as the deck's
references, located; the resolve step the flows call next checks them.
"""
from __future__ import annotations

import csv
import io
import re
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from . import numbers
from .colors import parse_color
from .errors import CardgenError, Location
from .files import read_input, resolved
from .layouts import field_names, read_layouts
from .model import DEFAULT_FAMILY, EDGE_SIDES, Back, Card, Deck, Edges, FontFamily, Player, Reference
from .resources import bundled
from .schema import DECK_SCHEMA, MAX_CARDS
from .yamlio import Located, check_schema, did_you_mean, load_located

DECKS_DIR = bundled("decks")
ART_DIR = bundled("art")

MAX_IMAGE_BYTES = 20_000_000
#: the widest safe margin a deck may ask for: 15 mm leaves a 3.5 x 2 in card a third of its height
MAX_SAFE_MARGIN = 15 * 72 / 25.4
MAX_IMAGE_PIXELS = 40_000_000
MAX_FONT_BYTES = 30_000_000
#: spreadsheet columns that are card keys; every other column is a field
CARD_COLUMNS = ("id", "title", "text", "copies", "color", "icon", "image", "layout", "back", "shared")
#: names a card's own fields may not take: the card keys and what every card already has
RESERVED_FIELDS = CARD_COLUMNS + ("kind", "art", "deck", "accent", "lines", "player", "player_color")
MAX_CSV_BYTES = 2_000_000


def bundled_decks() -> dict[str, Path]:
    """Bundled deck ids and their files."""
    return {p.stem: p for p in sorted(DECKS_DIR.glob("*.yaml"))}


def deck_names(names: Sequence[str]) -> list[str]:
    """The decks a command works on: those named, or else every bundled deck.

    Finding none is an error, never a silent success: an install that lost
    its bundled decks says so and where it looked.
    """
    if names:
        return list(names)
    found = list(bundled_decks())
    if not found:
        raise CardgenError(f"no deck named and no bundled decks found in {DECKS_DIR}; "
                           f"name a deck file, for example: cardgen build my-deck.yaml")
    return found


def resolve_deck(name: str) -> Path:
    """A bundled deck id or a path to a YAML file."""
    decks = bundled_decks()
    if name in decks:
        return decks[name]
    path = Path(name)
    if path.suffix.lower() in (".yaml", ".yml") or path.exists():
        return path
    raise CardgenError(f"unknown deck '{name}': not a bundled deck ({', '.join(decks)}) "
                       f"nor a .yaml file{did_you_mean(name, list(decks))}")


def load_deck(name: str | Path) -> Deck:
    """Read and check one deck file; raises CardgenError with a location."""
    path = resolve_deck(str(name))
    doc = load_located(path, display_path(path))
    if not isinstance(doc.data, dict):
        raise doc.error((), "a deck file must be a mapping with keys such as deck, name and cards")
    check_schema(doc, DECK_SCHEMA)
    return _DeckReader(doc, path).read()


def display_path(path: Path) -> str:
    """The path as the user would recognise it: relative to here when inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


class _DeckReader:
    """Turns checked plain data into model objects, resolving colours and art."""

    def __init__(self, doc: Located, path: Path):
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.path = path
        self.folder = resolved(path, "deck file").parent
        self.references: list[Reference] = []
        #: art name -> file, each name looked up and checked once however many cards name it
        self.art_files: dict[str, Path] = {}
        self.icons_ = self.deck_icons()
        self.fonts_ = self.fonts()

    def refer(self, kind: str, name: str, where: Location | None, path: Path | None = None) -> None:
        """Leave a check to the resolve step, which knows the renderer and the games."""
        self.references.append(Reference(kind, name, where, path))

    def read(self) -> Deck:
        data = self.data
        game = data.get("game", "none")
        self.refer("game", game, self.doc.where(("game",)))
        players = tuple(
            Player(p["name"], self.color(("players", i, "color")))
            for i, p in enumerate(data.get("players", []))
        )
        per_player = data.get("per_player", False)
        if per_player and not players:
            raise self.doc.error(("per_player",), "per_player needs a players list with a colour for each player")
        cards = self.cards()
        self.conditions(cards)
        ids: dict[str, int] = {}
        for index, card in enumerate(cards):
            if card.id in ids:
                raise CardgenError(f"card id '{card.id}' is used twice (first at card {ids[card.id] + 1})",
                                   card.location)
            ids[card.id] = index
        total = sum(c.copies for c in cards)
        if total > MAX_CARDS * 10:
            raise self.doc.error(("cards",), f"the deck has {total} cards; at most {MAX_CARDS * 10} are allowed")
        key_locations = {key: self.doc.key_where((key,)) for key in data}
        for key in ("card", "paper"):
            if key in data:
                self.refer(key, data[key], self.doc.where((key,)))
        layouts = self.layouts()
        self.check_layout_names(cards, layouts)
        return Deck(
            id=data["deck"],
            name=data["name"],
            game=game,
            path=Path(display_path(self.path)),
            orientation=data.get("orientation", "landscape"),
            players=players,
            per_player=per_player,
            back=self.back(),
            options=dict(data.get("options", {})),
            cards=tuple(cards),
            location=self.doc.where(()),
            key_locations=key_locations,
            style=self.style(),
            status=dict(data.get("status", {})),
            standard_deck=dict(data.get("standard_deck", {})) if "standard_deck" in data else None,
            layouts=layouts,
            backs=dict(data.get("backs", {})),
            fonts=self.fonts_,
            font_fallback=self.font_fallback(),
            icons=self.icons_,
            shared_cards=data.get("shared_cards", "each"),
            folder=self.folder,
            author=data.get("author", ""),
            card=data.get("card", ""),
            paper=data.get("paper", ""),
            references=tuple(self.references),
        )

    # -- pieces -------------------------------------------------------------

    def color(self, path: tuple) -> tuple[float, float, float]:
        try:
            return parse_color(_get(self.data, path))
        except ValueError as exc:
            raise self.doc.error(path, str(exc)) from None

    def icon(self, path: tuple) -> str:
        name = _get(self.data, path)
        self.refer("icon", name, self.doc.where(path))
        return name

    def art(self, name: str, where: Location | None) -> Path:
        if name not in self.art_files:
            self.art_files[name] = resolve_art(name, self.folder, where)
        path = self.art_files[name]
        if path.suffix.lower() == ".svg":
            self.refer("svg", name, where, path)
        return path

    def deck_icons(self) -> dict[str, Path]:
        """The deck's own icons (PNG, JPEG or SVG files), usable like the built-in ones."""
        out = {}
        for name, file in (self.data.get("icons") or {}).items():
            path = ("icons", name)
            if not re.match(r"^[a-z0-9][a-z0-9_-]*$", name):
                raise self.doc.error(path, f"icon name '{name}' must be lower-case letters, digits, - and _",
                                     key=True)
            self.refer("own-icon", name, self.doc.key_where(path))
            out[name] = self.art(file, self.doc.where(path))
        return out

    def fonts(self) -> dict[str, FontFamily]:
        """Font families the deck declares: files per style, or a system family, and OpenType features.

        That a file is a font, and that a system family is installed, the renderer checks in the
        resolve step."""
        out = {}
        for name, entry in (self.data.get("fonts") or {}).items():
            at = ("fonts", name)
            entry = {"regular": entry} if isinstance(entry, str) else dict(entry)
            features = []
            for tag, value in (entry.pop("features", None) or {}).items():
                if not re.fullmatch(r"[A-Za-z0-9 ]{4}", str(tag)):
                    raise self.doc.error(at + ("features", tag), f"'{tag}' is no OpenType feature tag: a tag is "
                                         f"four letters or digits, as in liga, kern, smcp or ss01", key=True)
                features.append((str(tag), int(value)))
            system = entry.pop("system", "")
            if bool(system) == ("regular" in entry):
                raise self.doc.error(at, f"font '{name}' needs either a regular file or system: a family "
                                     f"installed on this machine" if not system else
                                     f"font '{name}' gives both system and files: use one or the other")
            paths, indexes = [], []
            if system:
                self.refer("system-font", str(system), self.doc.where(at + ("system",)))
            for style, file in entry.items():
                where = self.doc.where(at + (style,))
                index = 0
                if isinstance(file, dict):
                    index = int(file.get("index", 0))
                    file = file["file"]
                    where = self.doc.where(at + (style, "file"))
                found = resolve_font(file, self.folder, where)
                self.references.append(Reference("font", file, where, found, index))
                paths.append((style, found))
                if index:
                    indexes.append((style, index))
            out[name] = FontFamily(name, tuple(paths), tuple(indexes), str(system), tuple(features))
        return out

    def font_fallback(self) -> tuple[str, ...]:
        chain = []
        for i, name in enumerate(self.data.get("font_fallback") or []):
            if name == DEFAULT_FAMILY:
                continue
            if name not in self.fonts_:
                known = list(self.fonts_) + [DEFAULT_FAMILY]
                raise self.doc.error(("font_fallback", i), f"font_fallback names '{name}', which is not in "
                                                           f"fonts{did_you_mean(name, known)}; fonts: "
                                                           f"{', '.join(known)}")
            chain.append(name)
        return tuple(chain)

    def layouts(self) -> dict:
        layouts = read_layouts(self.doc)
        for layout in layouts.values():
            for element in layout.elements:
                icon = element.attrs.get("icon")
                if icon is not None and not (isinstance(icon, str) and field_names(icon)):
                    self.refer("layout-icon", str(icon), element.at("icon"))
        for name, layout in layouts.items():
            for element in layout.elements:
                font = element.attrs.get("font")
                if font and font not in self.fonts_ and font != DEFAULT_FAMILY:
                    known = list(self.fonts_) + [DEFAULT_FAMILY]
                    raise CardgenError(f"element '{element.name}' of layout '{name}' uses font '{font}', which "
                                       f"the deck does not declare{did_you_mean(font, known)}; fonts: "
                                       f"{', '.join(known)}", element.at("font"))
        return layouts

    def check_layout_names(self, cards: list[Card], layouts: dict) -> None:
        """Every layout a card, a row or ``backs`` names exists."""
        names = sorted(layouts)

        def check(name: str, where: Location | None, what: str) -> None:
            if name and name not in layouts:
                raise CardgenError(f"{what} '{name}' is no layout{did_you_mean(name, names)}; layouts: "
                                   f"{', '.join(names)}", where)

        for card in cards:
            check(card.layout, card.location, "layout")
            check(card.back_layout, card.location, "back")
        back = self.data.get("back", {})
        if "layout" in back:
            check(back["layout"], self.doc.where(("back", "layout")), "back layout")
        for key, name in (self.data.get("backs") or {}).items():
            if key not in layouts:  # a card kind, which the deck's game may add to
                self.refer("backs", key, self.doc.key_where(("backs", key)))
            check(name, self.doc.where(("backs", key)), "back")

    def conditions(self, cards: list[Card]) -> None:
        """Every ``when``/``unless``, for the resolve step to find among the deck's and its game's options."""
        def refer(condition: str, where: Location | None, what: str) -> None:
            if condition:
                self.refer(what, condition, where)

        for card in cards:
            refer(card.when, card.location, "when")
            for _, when, unless in card.lines:
                refer(when, card.location, "when")
                refer(unless, card.location, "unless")
        standard = self.data.get("standard_deck") or {}
        refer(standard.get("when", ""), self.doc.where(("standard_deck", "when")), "when")

    def image(self, path: tuple) -> Path:
        return self.art(_get(self.data, path), self.doc.where(path))

    def optional(self, entry: dict, key: str, path: tuple, convert) -> Any:
        return convert(path + (key,)) if key in entry else None

    def back(self) -> Back:
        entry = self.data.get("back", {})
        path = ("back",)
        return Back(
            title=entry.get("title", self.data["name"]),
            subtitle=entry.get("subtitle", ""),
            icon=self.optional(entry, "icon", path, self.icon) or "",
            image=self.optional(entry, "image", path, self.image),
            color=self.optional(entry, "color", path, self.color),
            tint_by_player=entry.get("tint", "none") == "player",
            layout=entry.get("layout", "back"),
        )

    def style(self) -> dict[str, Any]:
        entry = self.data.get("style", {})
        out: dict[str, Any] = {}
        if "accent" in entry:
            out["accent"] = self.color(("style", "accent"))
        if "safe_margin" in entry:
            from .units import parse_length

            try:
                margin = parse_length(entry["safe_margin"])
            except ValueError as exc:
                raise self.doc.error(("style", "safe_margin"), f"safe_margin: {exc}") from None
            if not 0 <= margin <= MAX_SAFE_MARGIN:
                raise self.doc.error(("style", "safe_margin"), f"safe_margin must be from 0 to 15mm (text and art "
                                                              f"stay that far inside the cut), got "
                                                              f"{entry['safe_margin']!r}")
            out["safe_margin"] = margin
        return out

    def cards(self) -> list[Card]:
        cards = []
        for a, asset in enumerate(self.data.get("assets", [])):
            cards.extend(self.asset_cards(a, asset))
        cards.extend(self.card(i, entry) for i, entry in enumerate(self.data.get("cards", [])))
        if "csv" in self.data:
            rows = read_csv_rows(self.data["csv"], self.folder, self.doc.where(("csv",)))
            cards.extend(_row_card(row, self) for row in rows)
        if "xlsx" in self.data:
            entry = self.data["xlsx"]
            file, sheet = (entry, None) if isinstance(entry, str) else (entry["file"], entry.get("sheet"))
            rows = read_xlsx_rows(file, sheet, self.folder, self.doc.where(("xlsx",)))
            cards.extend(_row_card(row, self) for row in rows)
        return cards

    def card(self, index: int, entry: dict) -> Card:
        path = ("cards", index)
        kind = entry.get("kind", "generic")
        edges = None
        if "edges" in entry:
            edges = Edges(**{side: entry["edges"][side] == "line" for side in EDGE_SIDES})
        elif kind == "tile":
            raise self.doc.error(path, f"card '{entry['id']}' is a tile and needs edges: top, right, bottom, left")
        lines = tuple(
            (line, "", "") if isinstance(line, str) else (line["text"], line.get("when", ""), line.get("unless", ""))
            for line in entry.get("lines", [])
        )
        return Card(
            id=entry["id"],
            kind=kind,
            copies=entry.get("copies", 1),
            title=entry.get("title", ""),
            text=entry.get("text", ""),
            icon=self.optional(entry, "icon", path, self.icon) or "",
            image=self.optional(entry, "image", path, self.image),
            color=self.optional(entry, "color", path, self.color),
            lines=lines,
            when=entry.get("when", ""),
            location=self.doc.where(path),
            fields=self.card_fields(path, entry.get("fields", {})) | _tile_fields(entry, edges),
            layout=entry.get("layout", ""),
            back_layout=entry.get("back", ""),
            shared=entry.get("shared", False),
        )

    def card_fields(self, path: tuple, fields: dict[str, Any]) -> dict[str, Any]:
        for name in fields:
            check_field_name(name, self.doc.key_where(path + ("fields", name)))
        return dict(fields)

    def asset_cards(self, index: int, asset: dict) -> list[Card]:
        path = ("assets", index)
        parts = tuple(asset["parts"])
        seen: set[str] = set()
        for p, part in enumerate(parts):
            if part in seen:
                raise self.doc.error(path + ("parts", p), f"asset '{asset['name']}' lists part '{part}' twice")
            seen.add(part)
        color = self.optional(asset, "color", path, self.color)
        icon = self.optional(asset, "icon", path, self.icon) or ""
        code = asset.get("code") or "".join(w[0] for w in asset["name"].split())[:3].upper()
        n = len(parts)
        shared = {"asset": asset["name"], "code": code, "parts": list(parts), "count": n, "points": n - 1,
                  "score": f"{n} parts = {n - 1} point{'s' if n != 2 else ''}"}
        return [
            Card(
                id=f"{slug(asset['name'])}-{slug(part)}",
                kind="asset",
                title=part,
                color=color,
                icon=icon,
                location=self.doc.where(path + ("parts", p)),
                fields={**shared, "part": part},
            )
            for p, part in enumerate(parts)
        ]


def _tile_fields(entry: dict, edges: Edges | None) -> dict[str, Any]:
    """A tile's own data, kept in its fields: which edges carry a link, and whether it is gray."""
    found: dict[str, Any] = {}
    if edges is not None:
        found["edges"] = edges
    if entry.get("gray", False):
        found["gray"] = True
    return found


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def slug(text: str) -> str:
    """A card id made from a name: ``"Aeron Chairs"`` -> ``"aeron-chairs"``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def resolve_art(name: str, folder: Path, where: Location | None) -> Path:
    """The art file ``name``, looked up beside the deck and then in the bundled art.

    Paths may not leave those folders, and the file must be a readable PNG or
    JPEG, or an SVG, of sane size; anything else is a located CardgenError.
    Whether an SVG draws is the renderer's to say (``render.svg.check_svg``).
    """
    path = _find_file(name, folder, where, "image")
    if path.suffix.lower() == ".svg":
        read_input(path, f"image '{name}'", MAX_IMAGE_BYTES, where)
    else:
        check_image(path, name, where)
    return path


def resolve_font(name: str, folder: Path, where: Location | None) -> Path:
    """A font file of sane size beside the deck or in the bundled art; that it is TrueType the
    renderer checks in the resolve step."""
    path = _find_file(name, folder, where, "font file")
    read_input(path, f"font file '{name}'", MAX_FONT_BYTES, where)
    return path


def _find_file(name: str, folder: Path, where: Location | None, what: str) -> Path:
    if "\0" in name:
        raise CardgenError(f"{what} name {name!r} contains a NUL character", where)
    if Path(name).is_absolute():
        raise CardgenError(f"{what} '{name}' must be a path relative to the deck file, not absolute", where)
    for base in (folder, _art_dir()):
        candidate = resolved(base / name, what, where)
        if not candidate.is_relative_to(base):
            raise CardgenError(f"{what} '{name}' points outside the deck's folder and the art folder", where)
        if candidate.is_file():
            return candidate
        if candidate.exists():
            read_input(candidate, f"{what} '{name}'", 0, where)  # says what it is instead
    raise CardgenError(f"{what} '{name}' not found beside the deck ({folder}) or in the bundled art folder", where)


@lru_cache(maxsize=1)
def _art_dir() -> Path:
    return ART_DIR.resolve()


@dataclass(frozen=True)
class ImageFacts:
    """What the check of a raster image learnt, so that nothing opens the file again for it."""

    #: the stored picture's size in pixels
    width: int
    height: int
    #: the EXIF orientation tag (1: as stored)
    turn: int
    jpeg: bool

    @property
    def upright_size(self) -> tuple[int, int]:
        """The size in pixels once turned as its EXIF orientation says."""
        return (self.height, self.width) if self.turn in QUARTER_TURNS else (self.width, self.height)


#: EXIF orientations that turn the picture a quarter, so width and height swap
QUARTER_TURNS = (5, 6, 7, 8)

_GOOD_IMAGES: dict[tuple[Path, int, int], ImageFacts] = {}


def check_image(path: Path, name: str, where: Location | None) -> ImageFacts:
    """Refuse an image that is too big, not PNG/JPEG, or does not decode; else what it is.

    A file passes once per version (path, size, modification time): a deck
    whose 2,000 cards share 10 images decodes each image once, not 2,000 times,
    and the renderer takes its size and orientation from here.
    """
    stat = path.stat()
    key = (path, stat.st_size, stat.st_mtime_ns)
    facts = _GOOD_IMAGES.get(key)
    if facts is None:
        facts = _GOOD_IMAGES[key] = _check_image(path, name, where)
    return facts


def _check_image(path: Path, name: str, where: Location | None) -> ImageFacts:
    data = read_input(path, f"image '{name}'", MAX_IMAGE_BYTES, where)
    try:
        with Image.open(io.BytesIO(data)) as img:
            if img.width * img.height > MAX_IMAGE_PIXELS:
                raise CardgenError(f"image '{name}' is {img.width}x{img.height} pixels; at most "
                                   f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels allowed", where)
            if img.format not in ("PNG", "JPEG", "MPO"):  # MPO: a phone's JPEG with a second frame
                raise CardgenError(f"image '{name}' is {img.format}; use PNG, JPEG or SVG", where)
            width, height, jpeg = img.width, img.height, img.format in ("JPEG", "MPO")
            img.verify()  # a PNG's chunks are read through to IEND, each checked against its CRC
        with Image.open(io.BytesIO(data)) as img:
            if not jpeg and _png_pixels_whole(data, width, height):
                # what a PNG says before its pixels is read on opening: its EXIF, unless the file has
                # text or EXIF after its pixels (then it is decoded below, and the EXIF read after)
                return ImageFacts(width, height, exif_orientation(img, Image.Image.getexif), False)
            if jpeg:  # read every byte, but decode at 1/8 scale: cheap
                img.draft("RGB", (max(1, img.width // 8), max(1, img.height // 8)))
            img.load()  # a truncated or corrupt stream fails here, not when the PDF is written
            # once loaded, a PNG's EXIF after its pixels is read too: asking later would decode it again
            return ImageFacts(width, height, exif_orientation(img), jpeg)
    except CardgenError:
        raise
    except Exception as exc:
        reason = " ".join(str(exc).split()) or exc.__class__.__name__
        raise CardgenError(f"image '{name}' is not a readable PNG or JPEG image ({reason})", where) from None


def _png_pixels_whole(data: bytes, width: int, height: int) -> bool:
    """Whether a PNG's pixels are whole, checked without decoding them: its compressed stream inflates
    to its end, to at least the bytes its rows need, and each row names a filter PNG has (what a decode
    would refuse; a ValueError says what is wrong). False for what is left to a full decode: an
    interlaced PNG, or one with text or EXIF after its pixels. ``data`` passed ``Image.verify``, so its
    chunks are whole and their CRCs right."""
    pos, idat = 8, []
    depth = color = interlace = 0
    while pos + 8 <= len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        if kind == b"IHDR":
            depth, color, interlace = data[pos + 16], data[pos + 17], data[pos + 20]
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        elif kind in _LATE_METADATA and idat:
            return False
        elif kind == b"IEND":
            break
        pos += 12 + length
    if interlace or color not in _PNG_SAMPLES:
        return False
    stride = 1 + (width * _PNG_SAMPLES[color] * depth + 7) // 8
    needed = stride * height
    inflate = zlib.decompressobj()
    try:
        # never more than the rows need (a stream may inflate a thousandfold): what is left over is
        # left to a full decode, which reads only the rows too
        rows = inflate.decompress(b"".join(idat), needed)
        if not inflate.eof and (inflate.unconsumed_tail or len(rows) == needed):
            tail = inflate.decompress(inflate.unconsumed_tail, 1)
            if not inflate.eof or tail:
                return False
    except zlib.error:
        raise ValueError("broken data stream when reading image file") from None
    if not inflate.eof or len(rows) < needed:
        raise ValueError("image file is truncated")
    if height and max(rows[:stride * height:stride]) > 4:
        raise ValueError("unrecognized data stream contents when reading image file")
    return True


#: PNG colour type -> samples per pixel
_PNG_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
#: chunks whose metadata Pillow reads only when it decodes the pixels before them
_LATE_METADATA = (b"eXIf", b"tEXt", b"zTXt", b"iTXt")


def exif_orientation(img, getexif=None) -> int:
    """The EXIF orientation tag (1: as stored); ``getexif`` reads it another way than ``img.getexif``."""
    try:
        return int((getexif(img) if getexif else img.getexif()).get(0x0112, 1) or 1)
    except (ValueError, TypeError, OSError):
        return 1


def check_field_name(name: str, where: Location | None) -> None:
    if not re.match(r"^[a-z_][a-z0-9_]*$", name):
        raise CardgenError(f"field name '{name}' must be lower-case letters, digits and _, starting with a "
                           f"letter, so that {{{name}}} can name it", where)
    if name in RESERVED_FIELDS:
        raise CardgenError(f"'{name}' is a card key, not a field of its own: write it as the card's {name}",
                           where)


# --- cards from spreadsheets ------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One spreadsheet row: its values by column, and where each cell is (worked out when asked:
    a message names one cell, and a 2,000-row sheet has some 10,000)."""

    values: dict[str, str]
    line: int
    #: column name -> its index
    columns: dict[str, int]
    #: (line, column index) -> that cell's location
    cell: Callable[[int, int], Location]

    @property
    def location(self) -> Location:
        return self.cell(self.line, 0)

    def at(self, column: str) -> Location:
        index = self.columns.get(column)
        return self.location if index is None else self.cell(self.line, index)


def read_csv_rows(name: str, folder: Path, where: Location) -> list[Row]:
    """Rows of a CSV file; quoted cells keep their line breaks, locations are physical lines."""
    path = _spreadsheet(name, folder, where, "csv file")
    display = display_path(path)
    data = read_input(path, f"csv file '{name}'", MAX_CSV_BYTES, where)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CardgenError(f"csv file is not UTF-8 text (at byte {exc.start})", Location(display)) from None
    csv.field_size_limit(MAX_CSV_BYTES)
    reader = csv.reader(io.StringIO(text, newline=""))
    table: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for record in reader:
            table.append((start, record))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise CardgenError(f"malformed CSV: {exc}", Location(display, start, 1)) from None
    return _rows(table, display, lambda line, col: Location(display, line, col + 1))


def read_xlsx_rows(name: str, sheet: str | None, folder: Path, where: Location) -> list[Row]:
    """Rows of an XLSX workbook's sheet (the first, unless named); locations are file:sheet!cell."""
    path = _spreadsheet(name, folder, where, "xlsx file")
    display = display_path(path)
    try:
        from openpyxl import load_workbook
        from openpyxl.utils import get_column_letter
    except ImportError:
        raise CardgenError("reading XLSX needs openpyxl: pip install openpyxl", where) from None
    data = read_input(path, f"xlsx file '{name}'", MAX_XLSX_BYTES, where)
    _check_xlsx_parts(data, name, where)
    # read twice: the formulas (openpyxl gives a formula or its saved value, never both), then the values
    _, formulas = _read_sheet(load_workbook, data, name, sheet, where, values=False)
    title, values = _read_sheet(load_workbook, data, name, sheet, where, values=True)

    def cell(row: int, col: int) -> Location:
        return Location(display, sheet=title, cell=f"{get_column_letter(col + 1)}{row}")

    for r, (written, saved) in enumerate(zip(formulas, values), start=1):
        for c, (formula, value) in enumerate(zip(written, saved)):
            if value is None and isinstance(formula, str) and formula.startswith("="):
                raise CardgenError("the cell holds a formula with no saved value (programs such as openpyxl and "
                                   "pandas write formulas without calculating them); open the workbook in a "
                                   "spreadsheet program and save it, or write the values", cell(r, c))
    table = [(r, [_cell_text(v) for v in row]) for r, row in enumerate(values, start=1)]
    return _rows(table, display, cell)


def _read_sheet(load_workbook, data: bytes, name: str, sheet: str | None, where: Location,
                values: bool) -> tuple[str, list[tuple]]:
    """The chosen sheet's name and rows: ``values`` the saved values, else the formulas as written."""
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=values)
    except Exception as exc:  # openpyxl raises zipfile, KeyError and its own errors on bad files
        raise CardgenError(f"xlsx file '{name}' is not a readable XLSX workbook ({exc.__class__.__name__})",
                           where) from None
    try:
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            raise CardgenError(f"xlsx file '{name}' has no sheet '{sheet}'{did_you_mean(sheet, book.sheetnames)}; "
                               f"sheets: {', '.join(book.sheetnames)}", where)
        try:
            return ws.title, list(ws.iter_rows(values_only=True, max_col=200))
        except Exception as exc:  # the sheet's XML is read lazily, row by row
            raise CardgenError(f"xlsx file '{name}' is not a readable XLSX workbook "
                               f"({exc.__class__.__name__})", where) from None
    finally:
        book.close()


MAX_XLSX_BYTES = 5_000_000
#: the parts of a workbook inflated, in all: its zip says each part's size, and Python's zipfile
#: stops a part there, so a workbook that claims less cannot inflate more
MAX_XLSX_INFLATED = 50_000_000


def _check_xlsx_parts(data: bytes, name: str, where: Location) -> None:
    """Before openpyxl parses anything: the workbook inflates to at most MAX_XLSX_INFLATED bytes
    (a zip bomb stops here), and no XML part declares a DOCTYPE (entities are never expanded)."""
    import zipfile

    what = f"xlsx file '{name}'"
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        parts = archive.infolist()
    except Exception as exc:  # zipfile raises BadZipFile, NotImplementedError (a version it lacks), EOFError...
        raise CardgenError(f"{what} is not a readable XLSX workbook ({exc.__class__.__name__})", where) from None
    total = sum(part.file_size for part in parts)
    if total > MAX_XLSX_INFLATED:
        raise CardgenError(f"{what} inflates to {total:,} bytes; at most {MAX_XLSX_INFLATED:,} are allowed",
                           where)
    marks = (b"<!DOCTYPE", "<!DOCTYPE".encode("utf-16-le"), "<!DOCTYPE".encode("utf-16-be"))
    for part in parts:
        if not part.filename.lower().endswith((".xml", ".rels", ".vml")):
            continue
        try:
            text = archive.read(part)
        except Exception as exc:  # zipfile raises BadZipFile, zlib.error, NotImplementedError...
            raise CardgenError(f"{what} is not a readable XLSX workbook ({part.filename}: "
                               f"{exc.__class__.__name__})", where) from None
        if any(mark in text for mark in marks):  # XML spells it in capitals only
            raise CardgenError(f"{what}: its part {part.filename} declares a DOCTYPE; a workbook never needs "
                               f"one and cardgen does not expand XML entities (save it again from a spreadsheet "
                               f"program)", where)


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _spreadsheet(name: str, folder: Path, where: Location, what: str) -> Path:
    if Path(name).is_absolute():
        raise CardgenError(f"{what} '{name}' must be relative to the deck file", where)
    path = resolved(folder / name, what, where)
    if not path.is_relative_to(folder):
        raise CardgenError(f"{what} '{name}' points outside the deck's folder", where)
    if not path.exists():
        raise CardgenError(f"{what} '{name}' not found beside the deck", where)
    return path


def _rows(table: list[tuple[int, list[str]]], display: str, cell) -> list[Row]:
    """Rows keyed by their header's column names; every column not a card key becomes a field."""
    if not table:
        raise CardgenError("the spreadsheet is empty; expected a header row with id and title",
                           Location(display, 1, 1))
    first_line, raw_header = table[0]
    header = [re.sub(r"[\s-]+", "_", h.strip().lower()) for h in raw_header]
    while header and not header[-1]:
        header.pop()
    for column in ("id", "title"):
        if column not in header:
            raise CardgenError(f"the header has no '{column}' column (card columns: {', '.join(CARD_COLUMNS)}; "
                               f"any other column is a field)", cell(first_line, 0))
    for c, column in enumerate(header):
        if column in CARD_COLUMNS:
            if header.index(column) != c:
                raise CardgenError(f"column '{column}' appears twice", cell(first_line, c))
            continue
        if not column:
            raise CardgenError("a column has no name in the header", cell(first_line, c))
        if header.index(column) != c:
            raise CardgenError(f"column '{column}' appears twice", cell(first_line, c))
        try:
            check_field_name(column, cell(first_line, c))
        except CardgenError:
            raise CardgenError(f"column '{raw_header[c].strip()}' cannot be a field name: use lower-case letters, "
                               f"digits and _", cell(first_line, c)) from None
    rows = []
    columns = {c: i for i, c in enumerate(header)}
    for line, record in table[1:]:
        # a line break in a cell is one, however the file ends its lines (CRLF, CR, LF)
        record = [v.replace("\r\n", "\n").replace("\r", "\n") if "\r" in v else v for v in record]
        if not any(v.strip() for v in record):
            continue
        extra = record[len(header):]
        if any(v.strip() for v in extra):
            raise CardgenError(f"row has {len(record)} cells, the header has {len(header)}", cell(line, len(header)))
        if len(record) < len(header) and display.lower().endswith(".csv"):
            raise CardgenError(f"row has {len(record)} fields, the header has {len(header)}", cell(line, 0))
        record = record + [""] * (len(header) - len(record))
        rows.append(Row(dict(zip(header, record)), line, columns, cell))
    return rows


def _row_card(row: Row, reader: _DeckReader) -> Card:
    values = row.values
    card_id = values["id"].strip()
    if not re.match(r"^[a-z0-9][a-z0-9_-]*$", card_id):
        raise CardgenError(f"id must be lower-case letters, digits, - and _, got '{card_id}'", row.at("id"))
    copies = 1
    if values.get("copies", "").strip():
        parsed = numbers.whole(values["copies"])
        if parsed is None:
            raise CardgenError(f"copies must be a whole number, got '{values['copies']}'", row.at("copies"))
        copies = parsed
        if not 1 <= copies <= 1000:
            raise CardgenError(f"copies must be between 1 and 1000, got {copies}", row.at("copies"))
    color = None
    if values.get("color", "").strip():
        try:
            color = parse_color(values["color"])
        except ValueError as exc:
            raise CardgenError(str(exc), row.at("color")) from None
    icon = values.get("icon", "").strip()
    if icon:
        reader.refer("icon", icon, row.at("icon"))
    image = None
    if values.get("image", "").strip():
        image = reader.art(values["image"].strip(), row.at("image"))
    shared = values.get("shared", "").strip().lower()
    if shared not in ("", "true", "false", "yes", "no", "1", "0"):
        raise CardgenError(f"shared must be true or false, got '{values['shared']}'", row.at("shared"))
    return Card(
        id=card_id,
        kind="generic",
        copies=copies,
        title=values["title"],
        text=values.get("text", "").replace("\\n", "\n"),
        icon=icon,
        image=image,
        color=color,
        location=row.location,
        fields={k: v for k, v in values.items() if k not in CARD_COLUMNS},
        layout=values.get("layout", "").strip(),
        back_layout=values.get("back", "").strip(),
        shared=shared in ("true", "yes", "1"),
    )
