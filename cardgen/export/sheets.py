"""Writers: the PDF of a deck's sheets.

Each distinct face and back is drawn once as a PDF Form XObject and every
card slot places a reference to it, so a 10,000-card deck stays small and
fast. Files are written to a temporary name and renamed into place, so a
failed build never leaves half a PDF or destroys the previous good one.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from ..files import atomic_path
from ..progress import tick
from ..render import text
from ..render.colorspace import canvas_class
from ..render.images import define_art_form, define_glyph_form, use_art_forms
from ..sheets import PlacedCard, Placement, Printing, SheetTemplate, Slot, impose
from ..units import mm

# binary (Flate) streams, not ASCII85 on top: a quarter smaller and much faster to write
rl_config.useA85 = 0

CROP_MARK_WIDTH = 0.4
DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "off": "Simplex"}
#: the page label: its size, and its baseline's distance from the paper's bottom edge
LABEL_SIZE = 6.0
LABEL_EDGE = mm(6) + 2.0  # descenders stay 6 mm clear too

#: draws one face into the card box (0, 0, width, height) of the canvas given
Drawer = Callable[[Canvas, float, float], None]
#: a crop mark, a line segment (x1, y1, x2, y2) in points
Mark = tuple[float, float, float, float]
#: how far art shows past a card's trim: (left, bottom, right, top), in points
Bleed = tuple[float, float, float, float]
#: the corners (x, y) of a convex polygon on the page (a triangle, or one cut to a box)
Triangle = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class PdfInfo:
    """What the PDF says about itself, and the label printed on each page."""

    title: str = ""
    author: str = "cardgen"
    subject: str = ""
    #: deck and player, for the page label ("sheet n/m, side" is added)
    label: str = ""
    #: how its colours are written: "rgb" as given, "cmyk" in inks (``render.colorspace``)
    color_space: str = "rgb"
    #: the size of every page's trim, ``cardgen-paper=WxHpt`` or ``cardgen-card=WxHpt``: what
    #: ``cardgen preflight`` checks the pages against when no size is given
    keywords: str = ""


_SIZE_KEYWORD = re.compile(r"\bcardgen-(card|paper)=(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)pt\b")


def size_keyword(kind: str, width: float, height: float) -> str:
    """The keyword saying a PDF's pages are trimmed to a ``card`` or a ``paper`` of this size (points)."""
    return f"cardgen-{kind}={width:.2f}x{height:.2f}pt"


def read_size_keyword(keywords: str) -> tuple[str, float, float] | None:
    """(kind, width, height) of the first ``size_keyword`` in ``keywords``, if any."""
    match = _SIZE_KEYWORD.search(keywords)
    return (match.group(1), float(match.group(2)), float(match.group(3))) if match else None


def write_pdf(path: Path, printing: Printing, drawings: Mapping[str, Drawer], cards: Sequence[PlacedCard],
              info: PdfInfo = PdfInfo()) -> int:
    """Write the sheets of ``cards`` to ``path``; returns the number of pages."""
    with atomic_path(path) as tmp:
        pages = _write(tmp, printing, drawings, cards, info)
    return pages


def _write(target: Path, printing: Printing, drawings: Mapping[str, Drawer], cards: Sequence[PlacedCard],
           info: PdfInfo) -> int:
    t = printing.template
    # Duplex needs PDF 1.7 and PrintScaling 1.6
    duplex = None if printing.backs_at_end else DUPLEX_PREFERENCE[printing.duplex]
    canvas = new_canvas(target, (t.page_width, t.page_height), info, (1, 7) if duplex else (1, 6))
    paper_boxes(canvas, t.page_width, t.page_height)
    canvas.setViewerPreference("PrintScaling", "None")
    if duplex:
        canvas.setViewerPreference("Duplex", duplex)
    card_w, card_h = (t.card_height, t.card_width) if printing.portrait else (t.card_width, t.card_height)
    pages = impose(cards, printing)
    # a drawing placed more than once is drawn once, as a form; one placed once is drawn in place
    # (the same marks, without a form object around them: an all-distinct deck writes faster)
    uses = Counter(p.key for page in pages for p in page.placements)
    shared = sorted(key for key, n in uses.items() if n > 1)
    define_art_forms(canvas, drawings, list(uses))
    forms = define_forms(canvas, drawings, shared, card_w, card_h, t.art_bleed, art=False)
    marks = side_crop_marks(printing)
    mark_forms = _define_crop_marks(canvas, marks)
    label_room = _label_room(t, [mark for side in marks.values() for mark in side])
    # the bleeds of a page are a function of its slots alone: worked out once per arrangement
    # (every full fronts page has the same), not once per page
    edges: dict[tuple[Slot, ...], tuple[list[Bleed], list[list[Triangle]]]] = {}
    for page in pages:
        tick(len(page.placements))
        arrangement = tuple(p.slot for p in page.placements)
        if arrangement not in edges:
            bleeds = page_bleeds(t, page.placements)
            edges[arrangement] = (bleeds, shared_bleed(page.placements, bleeds))
        bleeds, ceded = edges[arrangement]
        for placement, bleed, given_away in zip(page.placements, bleeds, ceded):
            form = forms.get(placement.key)
            _place(canvas, placement.slot, form or drawings[placement.key], bleed, card_w, card_h, given_away)
        if page.side in mark_forms:
            canvas.doForm(mark_forms[page.side])
        if label_room is not None:
            _label(canvas, label_room, f"{info.label} · sheet {page.sheet + 1}/{page.sheets} · {page.side}")
        canvas.showPage()
    canvas.save()
    return len(pages)


def new_canvas(target: Path | BinaryIO, size: tuple[float, float], info: PdfInfo,
               version: tuple[int, int] = (1, 6)) -> Canvas:
    """A canvas with cardgen's metadata, writing colours in ``info.color_space``; its initial font is
    the embedded one, so no page names a font (reportlab's default Helvetica) that the file does not
    carry."""
    text.register_fonts()
    out = str(target) if isinstance(target, Path) else target
    canvas = canvas_class(info.color_space)(out, pagesize=size, invariant=1, pageCompression=1,
                                            pdfVersion=version, initialFontName=text.REGULAR,
                                            initialFontSize=LABEL_SIZE)
    canvas.setTitle(info.title)
    canvas.setAuthor(info.author or "cardgen")
    canvas.setSubject(info.subject)
    # the colour space's own keywords (a CMYK canvas sets them), then the size the pages trim to
    canvas.setKeywords(", ".join(k for k in (canvas._doc.info.keywords or "", info.keywords) if k))
    canvas.setCreator(f"cardgen {_version()}")
    return canvas


def paper_boxes(canvas: Canvas, width: float, height: float) -> None:
    """A sheet is cut at its paper's edge, and its art bleeds inside it: TrimBox and BleedBox are the
    page, what a print shop's preflight reads."""
    # written once as the array's inside (reportlab writes a number list anew on every page)
    box = (f"0 0 {fp_str(width)} {fp_str(height)}".encode("ascii"),)
    canvas.setTrimBox(box)
    canvas.setBleedBox(box)


def define_forms(canvas: Canvas, drawings: Mapping[str, Drawer], keys: Sequence[str], width: float,
                 height: float, bleed: float, art: bool = True) -> dict[str, str]:
    """Each drawing of ``keys`` drawn once as a form (first, with ``art``, each art file and icon
    they use); returns key -> form name."""
    if art:
        define_art_forms(canvas, drawings, keys)
    forms = {key: f"Card{i}" for i, key in enumerate(keys)}
    for key in keys:
        canvas.beginForm(forms[key], -bleed, -bleed, width + bleed, height + bleed)
        drawings[key](canvas, width, height)
        canvas.endForm()
    return forms


def define_art_forms(canvas: Canvas, drawings: Mapping[str, Drawer], keys: Sequence[str]) -> None:
    """Each art file and icon the drawings of ``keys`` use, drawn once as a form they all call."""
    art = sorted({item for key in keys for item in getattr(drawings[key], "art", ())}, key=str)
    art_forms = {item: f"Art{i}" for i, item in enumerate(art)}
    for item, name in art_forms.items():
        if isinstance(item, tuple):
            define_glyph_form(canvas, item, name)
        else:
            define_art_form(canvas, item, name)
    use_art_forms(canvas, art_forms)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardgen")
    except PackageNotFoundError:
        return "(not installed)"


def _place(canvas: Canvas, slot: Slot, drawing: str | Drawer, bleed: tuple[float, float, float, float],
           width: float, height: float, given_away: Sequence[Triangle] = ()) -> None:
    """Put ``drawing`` (a form's name, or a drawer drawn here at ``width`` x ``height``) in ``slot``,
    turned as the slot says, clipped to the trim box plus the bleed each side of the slot may show
    (left, bottom, right, top), less the ``given_away`` triangles of bleed a neighbour shows."""
    left, bottom, right, top = bleed
    canvas.saveState()
    # the clip as reportlab's beginPath, rect and clipPath(stroke=0, fill=0) write it, without the
    # path object (20,000 cards place 20,000 clips)
    clip = " W* n" if canvas._fillMode == FILL_EVEN_ODD else " W n"
    box = fp_str(slot.x - left, slot.y - bottom, slot.width + left + right, slot.height + bottom + top)
    canvas._code.append(f"n {box} re{clip}")
    if given_away:
        # the bleed box and the triangles, even-odd: the box less the triangles (intersected with the clip above)
        path = canvas.beginPath()
        path.rect(slot.x - left, slot.y - bottom, slot.width + left + right, slot.height + bottom + top)
        for corners in given_away:
            path.moveTo(*corners[0])
            for corner in corners[1:]:
                path.lineTo(*corner)
            path.close()
        canvas.clipPath(path, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
    canvas.translate(slot.x, slot.y)
    if slot.rotation:
        # the drawing's box, turned, must cover the slot: move its origin to the corner it turns onto
        shift = {90: (slot.width, 0.0), 180: (slot.width, slot.height), 270: (0.0, slot.height)}
        canvas.translate(*shift[slot.rotation])
        canvas.rotate(slot.rotation)
    if isinstance(drawing, str):
        canvas.doForm(drawing)
    else:
        drawing(canvas, width, height)
    canvas.restoreState()


def page_bleeds(template: SheetTemplate, placements: Sequence[Placement]) -> list[Bleed]:
    """How far art may show past each side of each placed card (left, bottom, right, top).

    The template's bleed by where the slot sits (``SheetTemplate.slot_bleed``),
    and on a page with empty slots (the last sheet of a deck, a back left out)
    a side facing an empty slot of the grid bleeds as far as the art is drawn,
    as a side facing the margin does: a printer that places the page a little
    off shows art past the last row, not bare paper. A corner whose two sides
    both open that way would cover a card sitting diagonally, so then only
    the side-by-side opening is kept.
    """
    filled = {(p.slot.row, p.slot.column) for p in placements}
    reach = template.art_bleed

    def empty(row: int, column: int) -> bool:
        return 0 <= row < template.rows and 0 <= column < template.columns and (row, column) not in filled

    out = []
    for placement in placements:
        slot = placement.slot
        left, bottom, right, top = template.slot_bleed(slot)
        r, c = slot.row, slot.column
        # rows count from the top of the page: the row below is r + 1
        open_left, open_right = empty(r, c - 1), empty(r, c + 1)
        open_bottom = empty(r + 1, c) and not (open_left and (r + 1, c - 1) in filled) \
            and not (open_right and (r + 1, c + 1) in filled)
        open_top = empty(r - 1, c) and not (open_left and (r - 1, c - 1) in filled) \
            and not (open_right and (r - 1, c + 1) in filled)
        out.append((max(left, reach) if open_left else left, max(bottom, reach) if open_bottom else bottom,
                    max(right, reach) if open_right else right, max(top, reach) if open_top else top))
    return out


def shared_bleed(placements: Sequence[Placement], bleeds: Sequence[Bleed]) -> list[list[Triangle]]:
    """For each placed card, the triangles of its bleed that a neighbour's bleed shows instead.

    Where the bleed under one card meets the bleed beside another (the
    corner of an empty slot next to both), each point goes to the card whose
    trim is nearer: the square is cut on the 45 degree line from the corner
    the two trims share, so either card shifted a little shows its own art.
    """
    boxes = [_bleed_box(p.slot, b) for p, b in zip(placements, bleeds)]
    out: list[list[Triangle]] = [[] for _ in placements]
    for i, (p, a) in enumerate(zip(placements, boxes)):
        for j, (q, b) in enumerate(zip(placements, boxes)):
            if i == j:
                continue
            o = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
            if o[2] - o[0] < 1e-6 or o[3] - o[1] < 1e-6:
                continue
            mine, theirs = _facing(p.slot, o), _facing(q.slot, o)
            if mine is None or theirs is None or mine[0] * theirs[0] + mine[1] * theirs[1] != 0:
                continue  # only a card below and a card beside share a corner square
            # the corner both trims share: x from the side card, y from the card above or below (or the reverse)
            (cx, cy), reach = _shared_corner(o, mine, theirs), 2 * (o[2] - o[0] + o[3] - o[1])
            # the part of o nearer the other card: from the shared corner along its side, up to the 45 degree line
            wedge = ((cx, cy), (cx + reach * mine[0], cy + reach * mine[1]),
                     (cx + reach * (mine[0] + theirs[0]), cy + reach * (mine[1] + theirs[1])))
            part = _clip_to_box(wedge, o)
            if len(part) >= 3:
                out[i].append(part)
    return out


def _clip_to_box(polygon: Triangle, box: tuple[float, float, float, float]) -> Triangle:
    """The convex ``polygon`` cut to the axis-aligned ``box`` (Sutherland-Hodgman)."""
    points = list(polygon)
    for axis, limit, sign in ((0, box[0], 1), (0, box[2], -1), (1, box[1], 1), (1, box[3], -1)):
        kept: list[tuple[float, float]] = []
        for k, current in enumerate(points):
            previous = points[k - 1]
            inside_now = sign * (current[axis] - limit) >= -1e-9
            if inside_now != (sign * (previous[axis] - limit) >= -1e-9):
                t = (limit - previous[axis]) / (current[axis] - previous[axis])
                kept.append((previous[0] + t * (current[0] - previous[0]),
                             previous[1] + t * (current[1] - previous[1])))
            if inside_now:
                kept.append(current)
        points = kept
        if not points:
            break
    # a corner on the box's edge comes out twice: keep it once
    distinct = [pt for k, pt in enumerate(points)
                if abs(pt[0] - points[k - 1][0]) + abs(pt[1] - points[k - 1][1]) > 1e-6]
    return tuple(distinct)


def _bleed_box(slot: Slot, bleed: Bleed) -> tuple[float, float, float, float]:
    left, bottom, right, top = bleed
    return slot.x - left, slot.y - bottom, slot.x + slot.width + right, slot.y + slot.height + top


def _facing(slot: Slot, o: tuple[float, float, float, float]) -> tuple[int, int] | None:
    """The direction from ``slot``'s trim into the box ``o`` when ``o`` lies against one of its sides."""
    near = 1e-6
    if abs(o[3] - slot.y) < near:
        return 0, -1  # o is below the card
    if abs(o[1] - (slot.y + slot.height)) < near:
        return 0, 1
    if abs(o[2] - slot.x) < near:
        return -1, 0
    if abs(o[0] - (slot.x + slot.width)) < near:
        return 1, 0
    return None


def _shared_corner(o: tuple[float, float, float, float], mine: tuple[int, int],
                   theirs: tuple[int, int]) -> tuple[float, float]:
    """The corner of ``o`` on both cards' sides: each side is o's edge the direction into o points away from."""
    dx = mine[0] or theirs[0]
    dy = mine[1] or theirs[1]
    return (o[0] if dx > 0 else o[2]), (o[1] if dy > 0 else o[3])


def side_crop_marks(printing: Printing) -> dict[str, list[Mark]]:
    """The crop marks of each side that has them: on the fronts, the template's cut lines moved by
    ``front_offset``; on the backs (with ``back_marks``), the cut lines of the backs page (mirrored
    by the flip) moved by the backs' total offset. Marks follow their cards, so they stay on the
    real cut lines and as clear of the art as the template puts them."""
    t = printing.template
    marks = t.crop_marks()
    sides = {"fronts": shift_marks(marks, printing.front_offset, t.page_width, t.page_height)}
    if printing.back_marks and printing.duplex != "off":
        backs = _mirrored(marks, printing.duplex, t.page_width, t.page_height)
        sides["backs"] = shift_marks(backs, printing.back_offset_total, t.page_width, t.page_height)
    return sides


#: crop marks stop this far from the paper's edge
MARK_EDGE = 2.0


def shift_marks(marks: Sequence[Mark], offset: tuple[float, float], page_width: float,
                page_height: float) -> list[Mark]:
    """``marks`` moved by ``offset``, cut back to MARK_EDGE from the paper's edge; a mark left
    shorter than 4 points is dropped."""
    dx, dy = offset
    if not dx and not dy:
        return list(marks)
    out = []
    for x1, y1, x2, y2 in marks:
        x1, x2 = sorted((min(max(x1 + dx, MARK_EDGE), page_width - MARK_EDGE),
                         min(max(x2 + dx, MARK_EDGE), page_width - MARK_EDGE)))
        y1, y2 = sorted((min(max(y1 + dy, MARK_EDGE), page_height - MARK_EDGE),
                         min(max(y2 + dy, MARK_EDGE), page_height - MARK_EDGE)))
        if max(x2 - x1, y2 - y1) >= 4:
            out.append((x1, y1, x2, y2))
    return out


def _mirrored(marks: Sequence[Mark], duplex: str, page_width: float, page_height: float) -> list[Mark]:
    """The marks as the backs page has them: long-edge flip mirrors x, short-edge y (the same marks
    when the template is symmetric)."""
    if duplex == "long":
        mirrored = [(page_width - x2, y1, page_width - x1, y2) for x1, y1, x2, y2 in marks]
    else:
        mirrored = [(x1, page_height - y2, x2, page_height - y1) for x1, y1, x2, y2 in marks]

    def key(items: Sequence[Mark]) -> list[tuple[float, ...]]:
        return sorted(tuple(round(v, 3) for v in mark) for mark in items)

    return list(marks) if key(mirrored) == key(marks) else mirrored


#: the form that holds a page's crop marks, drawn once per PDF (and one for the backs when they differ)
CROP_MARKS_FORM = "CropMarks"


def _define_crop_marks(canvas: Canvas, sides: Mapping[str, Sequence[Mark]]) -> dict[str, str]:
    """A form for each distinct set of marks; returns side -> form name."""
    names: dict[str, str] = {}
    defined: dict[tuple[Mark, ...], str] = {}
    for side, marks in sides.items():
        key = tuple(marks)
        if key not in defined:
            defined[key] = CROP_MARKS_FORM if not defined else f"{CROP_MARKS_FORM}{len(defined) + 1}"
            canvas.beginForm(defined[key])
            canvas.setStrokeColorRGB(0, 0, 0)
            canvas.setLineWidth(CROP_MARK_WIDTH)
            for x1, y1, x2, y2 in marks:
                canvas.line(x1, y1, x2, y2)
            canvas.endForm()
        names[side] = defined[key]
    return names


def _label_room(template: SheetTemplate, marks: Sequence[Mark]) -> tuple[float, float] | None:
    """Where the page label may go in the bottom margin, (start x, stop x): at least LABEL_EDGE from
    the paper's edge (outside most printers' unprintable margin), clear of the cards and of the crop
    marks of every side (as offset); None when there is no margin to print in."""
    left, bottom, right, _ = template.card_area()
    room_top = bottom - template.art_bleed - 2.0
    if room_top < LABEL_EDGE + LABEL_SIZE:
        return None
    columns = sorted({x1 for x1, _, x2, _ in marks if x1 == x2})
    start = max(left, LABEL_EDGE) + 4.0
    stop = next((x - 4.0 for x in columns if x > start + 40), right) if columns else right
    return start, stop


def _label(canvas: Canvas, room: tuple[float, float], words: str) -> None:
    """The page label, shortened with an ellipsis to its room, in pure black."""
    start, stop = room
    words = words.strip()
    while words and text.width(words, LABEL_SIZE) > stop - start:
        words = words[:-2].rstrip() + "…"
    text.draw(canvas, start, LABEL_EDGE, words, LABEL_SIZE)
