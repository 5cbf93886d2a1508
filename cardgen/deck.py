"""Loading deck files: the one place that reads deck YAML and CSV.

Everything is checked here, once, with file:line:column on every failure;
what comes out is a Deck the renderers and games can trust.
"""
from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from .colors import parse_color
from .errors import CardgenError, Location
from .model import EDGE_SIDES, Back, Card, Deck, Edges, Player
from .render.icons import ICONS
from .resources import bundled
from .schema import DECK_SCHEMA, MAX_CARDS
from .yamlio import Located, check_schema, did_you_mean, load_located

DECKS_DIR = bundled("decks")
ART_DIR = bundled("art")

MAX_IMAGE_BYTES = 20_000_000
MAX_IMAGE_PIXELS = 40_000_000
CSV_COLUMNS = ("id", "title", "text", "copies", "color", "icon", "image")
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
    except ValueError:
        return str(path)


class _DeckReader:
    """Turns checked plain data into model objects, resolving colours and art."""

    def __init__(self, doc: Located, path: Path):
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.path = path
        self.folder = path.resolve().parent

    def read(self) -> Deck:
        data = self.data
        game = data.get("game", "none")
        players = tuple(
            Player(p["name"], self.color(("players", i, "color")))
            for i, p in enumerate(data.get("players", []))
        )
        per_player = data.get("per_player", False)
        if per_player and not players:
            raise self.doc.error(("per_player",), "per_player needs a players list with a colour for each player")
        cards = self.cards()
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
        )

    # -- pieces -------------------------------------------------------------

    def color(self, path: tuple) -> tuple[float, float, float]:
        try:
            return parse_color(_get(self.data, path))
        except ValueError as exc:
            raise self.doc.error(path, str(exc)) from None

    def icon(self, path: tuple) -> str:
        name = _get(self.data, path)
        if name not in ICONS:
            raise self.doc.error(path, f"unknown icon '{name}'{did_you_mean(name, list(ICONS))}; "
                                       f"built-in icons: {', '.join(sorted(ICONS))}")
        return name

    def image(self, path: tuple) -> Path:
        return resolve_art(_get(self.data, path), self.folder, self.doc.where(path))

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
        )

    def style(self) -> dict[str, Any]:
        entry = self.data.get("style", {})
        out: dict[str, Any] = {}
        if "accent" in entry:
            out["accent"] = self.color(("style", "accent"))
        if "safe_margin" in entry:
            from .units import parse_length

            out["safe_margin"] = parse_length(entry["safe_margin"])
        return out

    def cards(self) -> list[Card]:
        cards = []
        for a, asset in enumerate(self.data.get("assets", [])):
            cards.extend(self.asset_cards(a, asset))
        cards.extend(self.card(i, entry) for i, entry in enumerate(self.data.get("cards", [])))
        if "csv" in self.data:
            cards.extend(read_csv_cards(self.data["csv"], self.folder, self.doc.where(("csv",))))
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
            gray=entry.get("gray", False),
            edges=edges,
            lines=lines,
            when=entry.get("when", ""),
            location=self.doc.where(path),
        )

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
        return [
            Card(
                id=f"{slug(asset['name'])}-{slug(part)}",
                kind="asset",
                title=part,
                asset=asset["name"],
                parts=parts,
                code=code,
                color=color,
                icon=icon,
                location=self.doc.where(path + ("parts", p)),
            )
            for p, part in enumerate(parts)
        ]


def _get(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def slug(text: str) -> str:
    """A card id made from a name: ``"Aeron Chairs"`` -> ``"aeron-chairs"``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def resolve_art(name: str, folder: Path, where: Location) -> Path:
    """The image file ``name``, looked up beside the deck and then in the bundled art.

    Paths may not leave those folders, and the file must be a readable image
    of sane size; anything else is a located CardgenError.
    """
    if Path(name).is_absolute():
        raise CardgenError(f"image '{name}' must be a path relative to the deck file, not absolute", where)
    for base in (folder, ART_DIR.resolve()):
        candidate = (base / name).resolve()
        if not candidate.is_relative_to(base):
            raise CardgenError(f"image '{name}' points outside the deck's folder and the art folder", where)
        if candidate.is_file():
            check_image(candidate, name, where)
            return candidate
    raise CardgenError(f"image '{name}' not found beside the deck ({folder}) or in the bundled art folder", where)


def check_image(path: Path, name: str, where: Location) -> None:
    if path.stat().st_size > MAX_IMAGE_BYTES:
        raise CardgenError(f"image '{name}' is larger than {MAX_IMAGE_BYTES // 1_000_000} MB", where)
    try:
        with Image.open(path) as img:
            if img.width * img.height > MAX_IMAGE_PIXELS:
                raise CardgenError(f"image '{name}' is {img.width}x{img.height} pixels; at most "
                                   f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels allowed", where)
            if img.format not in ("PNG", "JPEG"):
                raise CardgenError(f"image '{name}' is {img.format}; use PNG or JPEG", where)
            img.verify()
    except CardgenError:
        raise
    except Exception:
        raise CardgenError(f"image '{name}' is not a readable PNG or JPEG image", where) from None


def read_csv_cards(name: str, folder: Path, where: Location) -> list[Card]:
    """Generic cards from a spreadsheet export: one row per distinct card."""
    if Path(name).is_absolute():
        raise CardgenError(f"csv file '{name}' must be relative to the deck file", where)
    path = (folder / name).resolve()
    if not path.is_relative_to(folder):
        raise CardgenError(f"csv file '{name}' points outside the deck's folder", where)
    if not path.is_file():
        raise CardgenError(f"csv file '{name}' not found beside the deck", where)
    if path.stat().st_size > MAX_CSV_BYTES:
        raise CardgenError(f"csv file '{name}' is larger than {MAX_CSV_BYTES} bytes", where)
    display = display_path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise CardgenError("csv file is not UTF-8 text", Location(display)) from None
    rows = list(csv.reader(text.splitlines()))
    if not rows:
        raise CardgenError("csv file is empty; expected a header row with id and title", Location(display, 1, 1))
    header = [h.strip().lower() for h in rows[0]]
    for column in ("id", "title"):
        if column not in header:
            raise CardgenError(f"csv header has no '{column}' column (columns: {', '.join(CSV_COLUMNS)})",
                               Location(display, 1, 1))
    for c, column in enumerate(header):
        if column not in CSV_COLUMNS:
            raise CardgenError(f"unknown csv column '{column}'{did_you_mean(column, list(CSV_COLUMNS))}; "
                               f"columns: {', '.join(CSV_COLUMNS)}", Location(display, 1, c + 1))
    cards = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise CardgenError(f"row has {len(row)} fields, the header has {len(header)}", Location(display, line, 1))
        cards.append(_csv_card(dict(zip(header, row)), header, folder, display, line))
    return cards


def _csv_card(row: dict[str, str], header: list[str], folder: Path, display: str, line: int) -> Card:
    def at(column: str) -> Location:
        return Location(display, line, header.index(column) + 1)

    card_id = row["id"].strip()
    if not re.match(r"^[a-z0-9][a-z0-9_-]*$", card_id):
        raise CardgenError(f"id must be lower-case letters, digits, - and _, got '{card_id}'", at("id"))
    copies = 1
    if row.get("copies", "").strip():
        try:
            copies = int(row["copies"])
        except ValueError:
            raise CardgenError(f"copies must be a whole number, got '{row['copies']}'", at("copies")) from None
        if not 1 <= copies <= 1000:
            raise CardgenError(f"copies must be between 1 and 1000, got {copies}", at("copies"))
    color = None
    if row.get("color", "").strip():
        try:
            color = parse_color(row["color"])
        except ValueError as exc:
            raise CardgenError(str(exc), at("color")) from None
    icon = row.get("icon", "").strip()
    if icon and icon not in ICONS:
        raise CardgenError(f"unknown icon '{icon}'{did_you_mean(icon, list(ICONS))}", at("icon"))
    image = None
    if row.get("image", "").strip():
        image = resolve_art(row["image"].strip(), folder, at("image"))
    return Card(
        id=card_id,
        kind="generic",
        copies=copies,
        title=row["title"],
        text=row.get("text", "").replace("\\n", "\n"),
        icon=icon,
        image=image,
        color=color,
        location=Location(display, line, 1),
    )
