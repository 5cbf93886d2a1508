"""Paper: sheet templates, card slots, duplex pairing and crop marks.

Templates are data (one YAML file each in this folder, like Squib's sprues),
so a new paper stock is a new file. Everything here is pure geometry in
points with the origin at the bottom-left of the page, as PDF has it; it
knows nothing about games.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from pathlib import Path

from ..errors import CardgenError
from ..resources import bundled, bundled_names
from ..units import mm, parse_length

DEFAULT_SHEET = "letter-10up"
#: the stock a business-card deck prints on when it names no paper: the one nearest its card size
BUSINESS_STOCKS = (DEFAULT_SHEET, "a4-10up")
#: art past the trim on stock that declares no bleed (pre-cut business-card stock), where there is room
OUTER_BLEED = mm(3)
#: the flips that print backs, and "off" for fronts only
BACK_FLIPS = ("long", "short")
DUPLEX_MODES = (*BACK_FLIPS, "off")
#: how much ink the backs take: the deck's design, or outline art on white
INK_MODES = ("full", "light")

_LEN = {"type": ["string", "number"],
        "description": "a length with its unit: 85mm, 3.5in, 0.25in, 12pt (0 may go without)"}


def _box(what: str) -> dict:
    return {"type": "object", "required": ["width", "height"], "additionalProperties": False,
            "description": what, "properties": {"width": _LEN, "height": _LEN}}


#: the JSON Schema of a sheet template file (docs/sheets.md); ``cardgen schema --sheet`` prints it
TEMPLATE_SCHEMA = {
    "type": "object",
    "required": ["name", "paper", "card", "grid", "margins"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 60,
                 "description": "what --sheet calls it and the PDF's subject names"},
        "description": {"type": "string", "maxLength": 200, "description": "one line for cardgen list"},
        "paper": _box("the page, portrait or landscape as it goes through the printer"),
        "card": _box("one slot's trim box as it stands on the page; a deck standing the other way is "
                     "drawn turned 90 degrees into it"),
        "grid": {"type": "object", "required": ["columns", "rows"], "additionalProperties": False,
                 "description": "slots across and down, numbered row by row from the top-left",
                 "properties": {"columns": {"type": "integer", "minimum": 1, "maximum": 20},
                                "rows": {"type": "integer", "minimum": 1, "maximum": 20}}},
        "margins": {"type": "object", "required": ["left", "top"], "additionalProperties": False,
                    "description": "from the paper's left and top edges to the first slot's trim",
                    "properties": {"left": _LEN, "top": _LEN}},
        "gaps": {"type": "object", "additionalProperties": False,
                 "description": "between neighbouring slots (default 0: cards touch, one cut between them)",
                 "properties": {"column": _LEN, "row": _LEN}},
        "bleed": {**_LEN, "description": "how far art runs past the trim, at most half the gaps "
                                          "(default 0: 3 mm toward the margins only)"},
        "stock": {"type": "array", "items": {"type": "string"},
                  "description": "the products this fits (Avery 5371...), for cardgen list"},
    },
}


def template_schema_json() -> str:
    """The JSON Schema of sheet template files, for editors."""
    import json

    return json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema",
                       "$id": "https://cardgen.example/sheet.schema.json",
                       "title": "cardgen sheet template",
                       "description": "A paper stock: where each card slot sits on the page (docs/sheets.md).",
                       **TEMPLATE_SCHEMA}, indent=2)


@dataclass(frozen=True)
class Slot:
    """Where one card sits on a page: its trim box, in points."""

    index: int
    row: int
    column: int
    x: float
    y: float
    width: float
    height: float
    #: degrees the drawing is turned in the slot, anticlockwise: 180 for short-edge backs,
    #: 90 more for portrait cards
    rotation: int = 0


@dataclass(frozen=True)
class SheetTemplate:
    name: str
    description: str
    page_width: float
    page_height: float
    card_width: float
    card_height: float
    columns: int
    rows: int
    margin_left: float
    margin_top: float
    gap_column: float = 0.0
    gap_row: float = 0.0
    bleed: float = 0.0
    stock: tuple[str, ...] = ()

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    def slots(self) -> list[Slot]:
        """Front slots, row by row from the top-left, as a reader counts them."""
        return [self.front_slot(i) for i in range(self.per_sheet)]

    def front_slot(self, index: int, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where card ``index`` of a sheet goes on the fronts page; ``offset`` (points, +x right,
        +y up) corrects where the printer puts the fronts against the stock's perforations."""
        row, column = divmod(index, self.columns)
        x = self.margin_left + column * (self.card_width + self.gap_column)
        top = self.margin_top + row * (self.card_height + self.gap_row)
        y = self.page_height - top - self.card_height
        return Slot(index, row, column, x + offset[0], y + offset[1], self.card_width, self.card_height)

    def back_slot(self, index: int, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of front slot ``index`` goes on the backs page.

        Long-edge flip of a portrait sheet mirrors the page left to right, so
        the back sits at x' = page width - x - card width in the same row.
        Short-edge flip mirrors top to bottom and turns the back 180 degrees.
        ``offset`` (points, +x right, +y up as the backs page is viewed)
        corrects the printer's misregistration.
        """
        front = self.front_slot(index)
        dx, dy = offset
        if duplex == "long":
            x = self.page_width - front.x - front.width
            return Slot(index, front.row, self.columns - 1 - front.column, x + dx, front.y + dy,
                        front.width, front.height, 0)
        if duplex == "short":
            y = self.page_height - front.y - front.height
            return Slot(index, self.rows - 1 - front.row, front.column, front.x + dx, y + dy,
                        front.width, front.height, 180)
        raise ValueError(f"duplex mode {duplex!r} has no backs")

    @cached_property
    def art_bleed(self) -> float:
        """How far beyond the trim card art is drawn: the most any slot's side may show."""
        return max(max(self.slot_bleed(slot)) for slot in self.slots())

    def slot_bleed(self, slot: Slot) -> tuple[float, float, float, float]:
        """How far art may show past each side of ``slot`` (left, bottom, right, top), by where it sits.

        A side that touches the next card gets none (nothing changes between
        touching cards); a side facing a gap gets half the gap, and one facing
        the page's margin the margin, each at most the template's bleed, or
        OUTER_BLEED for stock with none, so a page the printer places a
        little off the perforations shows art, not a white sliver.
        """
        cap = self.bleed or OUTER_BLEED
        right_margin = self.page_width - self.margin_left - self.columns * self.card_width \
            - (self.columns - 1) * self.gap_column
        bottom_margin = self.page_height - self.margin_top - self.rows * self.card_height \
            - (self.rows - 1) * self.gap_row

        def side(first: bool, last: bool, near: float, far: float, gap: float, at_near: bool) -> float:
            if at_near:
                room = near if first else gap / 2
            else:
                room = far if last else gap / 2
            return max(0.0, min(cap, room))

        first_col, last_col = slot.column == 0, slot.column == self.columns - 1
        top_row, bottom_row = slot.row == 0, slot.row == self.rows - 1
        return (side(first_col, last_col, self.margin_left, right_margin, self.gap_column, True),
                side(top_row, bottom_row, self.margin_top, bottom_margin, self.gap_row, False),
                side(first_col, last_col, self.margin_left, right_margin, self.gap_column, False),
                side(top_row, bottom_row, self.margin_top, bottom_margin, self.gap_row, True))

    def card_area(self) -> tuple[float, float, float, float]:
        """The box all trim boxes fill: (left, bottom, right, top)."""
        slots = self.slots()
        return (min(s.x for s in slots), min(s.y for s in slots),
                max(s.x + s.width for s in slots), max(s.y + s.height for s in slots))

    def crop_marks(self, length: float = 18.0, clearance: float = 4.0) -> list[tuple[float, float, float, float]]:
        """Cut guides as line segments (x1, y1, x2, y2), all in the page margins.

        One mark per distinct cut line, extended from the card area's edge
        outwards, ``clearance`` (plus any bleed) away from the cards and never
        over one.
        """
        left, bottom, right, top = self.card_area()
        gap = clearance + self.art_bleed
        xs = sorted({round(s.x, 4) for s in self.slots()} | {round(s.x + s.width, 4) for s in self.slots()})
        ys = sorted({round(s.y, 4) for s in self.slots()} | {round(s.y + s.height, 4) for s in self.slots()})
        marks = []
        for x in xs:
            for y0, y1 in ((top + gap, min(top + gap + length, self.page_height - 2)),
                           (max(bottom - gap - length, 2), bottom - gap)):
                if y1 - y0 >= 4:
                    marks.append((x, y0, x, y1))
        for y in ys:
            for x0, x1 in ((max(left - gap - length, 2), left - gap),
                           (right + gap, min(right + gap + length, self.page_width - 2))):
                if x1 - x0 >= 4:
                    marks.append((x0, y, x1, y))
        return marks


def turns(template: SheetTemplate, landscape: bool) -> bool:
    """Whether cards standing ``landscape`` (or portrait) go turned 90 degrees into the template's
    slots: when the slots stand the other way. Square slots take either upright."""
    if template.card_width == template.card_height:
        return False
    return landscape != (template.card_width > template.card_height)


@dataclass(frozen=True)
class PlacedCard:
    """One printed card: the keys of its face and back drawings (no back: None)."""

    face: str
    back: str | None


@dataclass(frozen=True)
class Printing:
    """How cards sit on paper: the template, the flip, the printer's corrections."""

    template: SheetTemplate
    duplex: str = "long"
    #: points, +x right and +y up as the backs page is viewed
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: points, +x right and +y up: where the printer puts the fronts against the stock
    front_offset: tuple[float, float] = (0.0, 0.0)
    #: the cards stand the other way from the slots (a portrait deck on landscape slots, or cards
    #: turned to fit more on the paper): each is drawn upright in its own box, turned 90 degrees in
    #: the slot (``turns`` says when)
    portrait: bool = False
    #: all fronts pages first, then all backs pages (for printing the backs by hand)
    backs_at_end: bool = False
    #: crop marks on the backs pages too (cutting from the back)
    back_marks: bool = False

    @property
    def sides(self) -> tuple[str, ...]:
        return ("fronts",) if self.duplex == "off" else ("fronts", "backs")

    @property
    def back_offset_total(self) -> tuple[float, float]:
        """Where the backs go: their own offset, plus the fronts' as seen from the back (the backs
        follow the cards the fronts were moved onto). Long-edge flip mirrors x, short-edge y."""
        fx, fy = self.front_offset
        bx, by = self.back_offset
        return (bx - fx, by + fy) if self.duplex == "long" else (bx + fx, by - fy)


@dataclass(frozen=True)
class Placement:
    """A drawing in a slot; ``slot.rotation`` turns it (portrait cards, short-edge backs)."""

    slot: Slot
    key: str


@dataclass(frozen=True)
class Page:
    """One page of the PDF: which sheet, which side, and what sits in its slots."""

    sheet: int
    sheets: int
    side: str
    placements: tuple[Placement, ...]


def impose(cards: Sequence[PlacedCard], printing: Printing) -> list[Page]:
    """The pages that print ``cards`` in order: sheet by sheet, fronts then backs (or every
    fronts page first with ``backs_at_end``), each back behind its front for the flip.

    A pure function of its arguments, so every writer places cards the same way.
    """
    t = printing.template
    per = t.per_sheet
    sheets = max(1, -(-len(cards) // per))
    back_offset = printing.back_offset_total
    turn = 90 if printing.portrait else 0
    order = [(sheet, side) for sheet in range(sheets) for side in printing.sides]
    if printing.backs_at_end:
        order.sort(key=lambda page: page[1] == "backs")
    # the slots of a side are the same on every sheet: worked out once, not once per card
    slots: dict[str, list[Slot]] = {}
    for side in printing.sides:
        at = [t.front_slot(i, printing.front_offset) if side == "fronts"
              else t.back_slot(i, printing.duplex, back_offset) for i in range(per)]
        slots[side] = [replace(slot, rotation=(slot.rotation + turn) % 360) for slot in at]
    pages = []
    for sheet, side in order:
        chunk = cards[sheet * per:(sheet + 1) * per]
        placements = []
        for index, card in enumerate(chunk):
            key = card.face if side == "fronts" else card.back
            if key is not None:
                placements.append(Placement(slots[side][index], key))
        pages.append(Page(sheet, sheets, side, tuple(placements)))
    return pages


def template_names() -> list[str]:
    """The built-in sheet templates, as ``--sheet`` takes them."""
    return bundled_names("sheets")


def load_template(name: str) -> SheetTemplate:
    """A built-in template by name, or a template YAML file by path."""
    path = bundled("sheets") / f"{name}.yaml"
    if name not in template_names():
        candidate = Path(name)
        if candidate.suffix.lower() not in (".yaml", ".yml"):
            from ..yamlio import did_you_mean

            raise CardgenError(f"unknown sheet '{name}'{did_you_mean(name, template_names())}; "
                               f"sheets: {', '.join(template_names())}")
        path = candidate
    return _load_template_file(str(path))


@lru_cache(maxsize=16)
def _load_template_file(path_text: str) -> SheetTemplate:
    # YAML is read only here, so the CLI can list templates without loading it
    from ..yamlio import check_schema, load_located

    doc = load_located(Path(path_text))
    check_schema(doc, TEMPLATE_SCHEMA)
    data = doc.data

    def length(*path: str) -> float:
        value = data
        for key in path:
            value = value[key]
        try:
            points = parse_length(value)
        except ValueError as exc:
            raise doc.error(path, str(exc)) from None
        size = path[0] in ("paper", "card")
        if points < 0 or (points == 0 and size):
            raise doc.error(path, f"{'.'.join(path)} must be {'more than' if size else 'at least'} 0, got {value!r}")
        return points

    gaps = data.get("gaps", {})
    template = SheetTemplate(
        name=data["name"],
        description=data.get("description", ""),
        page_width=length("paper", "width"),
        page_height=length("paper", "height"),
        card_width=length("card", "width"),
        card_height=length("card", "height"),
        columns=data["grid"]["columns"],
        rows=data["grid"]["rows"],
        margin_left=length("margins", "left"),
        margin_top=length("margins", "top"),
        gap_column=length("gaps", "column") if "column" in gaps else 0.0,
        gap_row=length("gaps", "row") if "row" in gaps else 0.0,
        bleed=length("bleed") if "bleed" in data else 0.0,
        stock=tuple(data.get("stock", [])),
    )
    left, bottom, right, top = template.card_area()
    if left < 0 or bottom < 0 or right > template.page_width + 0.01 or top > template.page_height + 0.01:
        raise doc.error((), f"sheet '{template.name}': the cards do not fit on the paper")
    room = min(template.gap_column or template.bleed * 2, template.gap_row or template.bleed * 2)
    if template.bleed * 2 > room + 1e-6 and (template.gap_column or template.gap_row):
        raise doc.error(("bleed",), "bleed must be at most half of the gaps between cards")
    return template
