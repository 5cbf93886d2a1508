"""Writers: the PDF of a deck's sheets.

Each distinct face and back is drawn once as a PDF Form XObject and every
card slot places a reference to it, so a 10,000-card deck stays small and
fast. Files are written to a temporary name and renamed into place, so a
failed build never leaves half a PDF or destroys the previous good one.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from .files import atomic_path
from .render import text
from .render.images import define_art_form, define_glyph_form, use_art_forms
from .sheets import SheetTemplate, Slot

# binary (Flate) streams, not ASCII85 on top: a quarter smaller and much faster to write
rl_config.useA85 = 0

CROP_MARK_WIDTH = 0.4
DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "off": "Simplex"}

#: draws one face into the card box (0, 0, width, height) of the canvas given
Drawer = Callable[[Canvas, float, float], None]


@dataclass(frozen=True)
class PlacedCard:
    """One printed card: the keys of its face and back drawings."""

    face: str
    back: str | None


@dataclass(frozen=True)
class Layout:
    """How the cards sit on paper."""

    template: SheetTemplate
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    #: cards are portrait: drawn upright in a box turned 90 degrees in the slot
    portrait: bool = False
    #: all fronts pages first, then all backs pages (for printing the backs by hand)
    backs_at_end: bool = False


def write_pdf(path: Path, layout: Layout, drawings: Mapping[str, Drawer], cards: Sequence[PlacedCard],
              title: str = "", label: str = "") -> int:
    """Write the sheets of ``cards`` to ``path``; returns the number of pages."""
    with atomic_path(path) as tmp:
        pages = _write(tmp, layout, drawings, cards, title, label)
    return pages


def _write(target: Path, layout: Layout, drawings: Mapping[str, Drawer], cards: Sequence[PlacedCard],
           title: str, label: str) -> int:
    t = layout.template
    text.register_fonts()
    canvas = Canvas(str(target), pagesize=(t.page_width, t.page_height), invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("cardgen")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX_PREFERENCE[layout.duplex])
    card_w, card_h = (t.card_height, t.card_width) if layout.portrait else (t.card_width, t.card_height)
    used = sorted({c.face for c in cards} | {c.back for c in cards if c.back})
    forms = {key: f"Card{i}" for i, key in enumerate(used)}
    # each art file and icon once, as a form every face that shows it places
    art = sorted({item for key in used for item in getattr(drawings[key], "art", ())}, key=str)
    art_forms = {item: f"Art{i}" for i, item in enumerate(art)}
    for item, name in art_forms.items():
        if isinstance(item, tuple):
            define_glyph_form(canvas, item, name)
        else:
            define_art_form(canvas, item, name)
    use_art_forms(canvas, art_forms)
    for key in used:
        canvas.beginForm(forms[key], -t.bleed, -t.bleed, card_w + t.bleed, card_h + t.bleed)
        drawings[key](canvas, card_w, card_h)
        canvas.endForm()
    per = t.per_sheet
    sheets = max(1, -(-len(cards) // per))
    chunks = [cards[sheet * per:(sheet + 1) * per] for sheet in range(sheets)]
    order = [(sheet, side) for sheet in range(sheets) for side in _sides(layout)]
    if layout.backs_at_end:
        order.sort(key=lambda page: page[1] == "backs")
    for sheet, side in order:
        for index, card in enumerate(chunks[sheet]):
            if side == "fronts":
                _place(canvas, t.front_slot(index), forms[card.face], layout)
            elif card.back:
                _place(canvas, t.back_slot(index, layout.duplex, layout.back_offset), forms[card.back], layout)
        if side == "fronts":
            _crop_marks(canvas, t)
            _label(canvas, t, f"{label}  sheet {sheet + 1}/{sheets}  fronts")
        canvas.showPage()
    canvas.save()
    return len(order)


def _sides(layout: Layout) -> tuple[str, ...]:
    return ("fronts",) if layout.duplex == "off" else ("fronts", "backs")


def _place(canvas: Canvas, slot: Slot, form: str, layout: Layout) -> None:
    """Put the drawing ``form`` in ``slot``, clipped to the trim box plus bleed."""
    b = layout.template.bleed
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(slot.x - b, slot.y - b, slot.width + 2 * b, slot.height + 2 * b)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(slot.x, slot.y)
    if slot.rotation == 180:
        canvas.translate(slot.width, slot.height)
        canvas.rotate(180)
    if layout.portrait:
        canvas.translate(slot.width, 0)
        canvas.rotate(90)
    canvas.doForm(form)
    canvas.restoreState()


def _crop_marks(canvas: Canvas, template: SheetTemplate) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(CROP_MARK_WIDTH)
    for x1, y1, x2, y2 in template.crop_marks():
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _label(canvas: Canvas, template: SheetTemplate, words: str) -> None:
    """A small page label in the bottom margin, clear of the crop marks."""
    left = template.card_area()[0]
    if left < 30 or template.card_area()[1] < 14:
        return
    canvas.saveState()
    canvas.setFillColorRGB(0.4, 0.4, 0.4)
    canvas.setFont(text.REGULAR, 6)
    canvas.drawString(left + 14, 8, words.strip())
    canvas.restoreState()
