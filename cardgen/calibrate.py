"""A calibration sheet: where the printer puts the fronts, the backs, and at what scale.

Printed duplex on the real stock at 100 %:

- **Fronts against the stock.** Millimetre rulers cross every cut line of
  the template (the stock's perforations) with their 0 on the line. Where a
  perforation crosses a horizontal ruler, the number read there is X of
  ``--front-offset X,Y``; on a vertical ruler, Y (+X right, +Y up).
- **Scale.** A 100 mm bar: measured with a real ruler it must be 100 mm, or
  the printer is scaling the page ("fit to page" is on). It goes where it
  crosses no ruler: the bottom margin, else upright along a side margin, the
  top margin, or the first free band across the page.
- **Backs against the fronts.** A crosshair at the centre of every front;
  millimetre rulers behind it on the backs page. Held against a light, where
  the cross falls on the rulers is ``--back-offset X,Y``.

Everything is drawn on the page itself (not clipped to card slots) since the
front rulers reach across the cut lines.
"""
from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from .errors import CardgenError
from .export.sheets import PdfInfo, new_canvas, paper_boxes, size_keyword
from .files import atomic_path, check_output
from .render import text
from .sheets import SheetTemplate
from .units import mm

#: the rulers read from -RULER_MM to +RULER_MM millimetres
RULER_MM = 10
SCALE_BAR_MM = 100
INK = (0.0, 0.0, 0.0)
RED = (0.8, 0.0, 0.0)
LABEL = 6.0


def write_calibration(path: Path, template: SheetTemplate, duplex: str, color_space: str = "rgb") -> int:
    """Write the two-page calibration PDF (fronts, then backs), its colours in ``color_space``; returns
    its page count."""
    if duplex == "off":
        raise CardgenError("calibration needs a duplex mode: --duplex long or short")
    check_output(path, "another --out")
    with atomic_path(path) as tmp:
        size = (template.page_width, template.page_height)
        info = PdfInfo(title="cardgen calibration", author="cardgen",
                       subject=f"printer calibration for {template.name}, {duplex}-edge flip; print at 100 %",
                       color_space=color_space, keywords=size_keyword("paper", *size))
        canvas = new_canvas(tmp, size, info, (1, 7))
        paper_boxes(canvas, *size)
        canvas.setViewerPreference("PrintScaling", "None")
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long" else "DuplexFlipShortEdge")
        fronts_page(canvas, template)
        canvas.showPage()
        backs_page(canvas, template, duplex)
        canvas.showPage()
        canvas.save()
    return 2


def cut_lines(template: SheetTemplate) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal cut line (card edges), in points."""
    slots = template.slots()
    xs = sorted({round(s.x, 3) for s in slots} | {round(s.x + s.width, 3) for s in slots})
    ys = sorted({round(s.y, 3) for s in slots} | {round(s.y + s.height, 3) for s in slots})
    return xs, ys


def fronts_page(canvas: Canvas, template: SheetTemplate) -> None:
    page = _Page(canvas, "Fronts")
    xs, ys = cut_lines(template)
    slots = template.slots()
    # horizontal rulers across each vertical cut line, in the middle of the top and bottom rows
    rows = sorted({s.y + s.height / 2 for s in slots})
    for x in xs:
        for y in (rows[0], rows[-1]):
            low, high = _reach(x, xs, template.page_width)
            page.item(horizontal_ruler_box(x, y, low, high), horizontal_ruler, x, y, low, high)
    # vertical rulers across each horizontal cut line, a third of the way into each column
    columns = sorted({s.x + s.width / 3 for s in slots})
    for y in ys:
        for x in columns:
            low, high = _reach(y, ys, template.page_height)
            page.item(vertical_ruler_box(x, y, low, high), vertical_ruler, x, y, low, high)
    for slot in slots:
        cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
        page.item(crosshair_box(cx, cy), crosshair, cx, cy)
    _, _, _, top = template.card_area()
    page.boxes.extend(_say(canvas, template, top, [
        "1  Fronts: where each perforation crosses a ruler, read the number (mm).",
        "   Horizontal rulers give X, vertical ones Y: build with --front-offset X,Y",
        "2  The bar must measure 100 mm; if not, print at 100 % (no fit to page).",
        "3  Hold to a light: the back's rulers under each red cross give --back-offset X,Y",
    ]))
    x, y, upright = scale_bar_place(template, page.boxes)
    page.item(scale_bar_box(x, y, upright), scale_bar, x, y, upright)


def backs_page(canvas: Canvas, template: SheetTemplate, duplex: str) -> None:
    page = _Page(canvas, "Backs")
    for index in range(template.per_sheet):
        slot = template.back_slot(index, duplex)
        cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
        page.item(back_rulers_box(cx, cy), _turned_back_rulers, cx, cy, slot.rotation == 180)
    _, _, _, top = template.card_area()
    _say(canvas, template, top, ["Backs: read the front's red cross on these rulers (mm, +X right, +Y up),",
                                 "then build with --back-offset X,Y"])


def _turned_back_rulers(canvas: Canvas, cx: float, cy: float, turned: bool) -> None:
    canvas.saveState()
    if turned:
        # short-edge backs are turned: turn the ruler back so its labels read upright once flipped
        canvas.translate(2 * cx, 2 * cy)
        canvas.rotate(180)
    back_rulers(canvas, cx, cy)
    canvas.restoreState()


#: a box on the page: (left, bottom, right, top), in points
Box = tuple[float, float, float, float]


class _Page:
    """One calibration page: each ruler, cross and bar drawn as a form of its own (so its extent can
    be checked in the PDF), and the boxes everything drawn so far covers."""

    def __init__(self, canvas: Canvas, side: str) -> None:
        self.canvas = canvas
        self.side = side
        self.boxes: list[Box] = []

    def item(self, box: Box, draw, *args) -> None:
        name = f"{self.side}{len(self.boxes) + 1}"  # unique in the file, the same in every run
        self.canvas.beginForm(name)
        draw(self.canvas, *args)
        self.canvas.endForm()
        self.canvas.doForm(name)
        self.boxes.append(box)


def scale_bar_place(template: SheetTemplate, taken: list[Box]) -> tuple[float, float, bool]:
    """Where the 100 mm bar goes, (x, y, upright), clear of every box in ``taken``: centred in the
    bottom margin where it fits, else along the left or right margin (upright), the top margin, or
    the first free band across the page; the bottom margin if nothing is free."""
    w, h = template.page_width, template.page_height
    left, bottom, right, top = template.card_area()
    bar = mm(SCALE_BAR_MM)
    across_x, along_y = (w - bar) / 2, (h - bar) / 2
    candidates = [(across_x, max(mm(7), bottom / 2 - 4), False),
                  (max(mm(7), left / 2), along_y, True),
                  (min(w - mm(7), (right + w) / 2), along_y, True),
                  (across_x, min(h - mm(12), (top + h) / 2), False)]
    candidates += [(across_x, float(y), False) for y in range(int(PAGE_EDGE), int(h - PAGE_EDGE), 2)]
    candidates += [(float(x), along_y, True) for x in range(int(PAGE_EDGE), int(w - PAGE_EDGE), 2)]
    for x, y, upright in candidates:
        box = scale_bar_box(x, y, upright)
        inside = box[0] >= PAGE_EDGE and box[1] >= PAGE_EDGE and box[2] <= w - PAGE_EDGE and box[3] <= h - PAGE_EDGE
        if inside and not any(_overlap(box, other) for other in taken):
            return x, y, upright
    return candidates[0]


def _overlap(a: Box, b: Box, clear: float = 0.5) -> bool:
    return a[0] < b[2] + clear and b[0] < a[2] + clear and a[1] < b[3] + clear and b[1] < a[3] + clear


#: rulers stop this far from the paper's edge, outside most printers' unprintable margin
PAGE_EDGE = mm(5)


def _reach(at: float, lines: list[float], page: float) -> tuple[int, int]:
    """How many millimetres a ruler with its 0 on the cut line ``at`` runs each way: at most
    RULER_MM, short of the paper's edge, and short of the next cut line's ruler (the A4 column gap)."""
    before = max([line for line in lines if line < at - 0.01], default=None)
    after = min([line for line in lines if line > at + 0.01], default=None)
    low_room = (at - before) / 2 - mm(1) if before is not None else at - PAGE_EDGE
    high_room = (after - at) / 2 - mm(1) if after is not None else page - PAGE_EDGE - at
    return -min(RULER_MM, int(low_room / mm(1))), min(RULER_MM, int(high_room / mm(1)))


#: the 0 tick is this long: the other ticks are 1 mm (2 mm every 5 mm), so the 0 stands out
ZERO_TICK = mm(7)


def horizontal_ruler(canvas: Canvas, x0: float, y: float, low: int = -RULER_MM, high: int = RULER_MM) -> None:
    """A ruler along y from ``low`` to ``high`` mm, its 0 at x0, numbered +X to the right."""
    canvas.saveState()
    _ink(canvas, INK, 0.35)
    canvas.line(x0 + mm(low), y, x0 + mm(high), y)
    for k in range(low, high + 1):
        tall = ZERO_TICK if k == 0 else mm(2) if k % 5 == 0 else mm(1)
        canvas.line(x0 + mm(k), y, x0 + mm(k), y + tall)
        if k % 5 == 0:
            _label(canvas, f"{k:+d}" if k else "0", x0 + mm(k), y - LABEL - 1, "center")
    canvas.restoreState()


def vertical_ruler(canvas: Canvas, x: float, y0: float, low: int = -RULER_MM, high: int = RULER_MM) -> None:
    """A ruler along x from ``low`` to ``high`` mm, its 0 at y0, numbered +Y upwards."""
    canvas.saveState()
    _ink(canvas, INK, 0.35)
    canvas.line(x, y0 + mm(low), x, y0 + mm(high))
    for k in range(low, high + 1):
        tall = ZERO_TICK if k == 0 else mm(2) if k % 5 == 0 else mm(1)
        canvas.line(x, y0 + mm(k), x + tall, y0 + mm(k))
        if k % 5 == 0:
            _label(canvas, f"{k:+d}" if k else "0", x - 2, y0 + mm(k) - LABEL * 0.35, "right")
    canvas.restoreState()


def crosshair(canvas: Canvas, cx: float, cy: float) -> None:
    canvas.saveState()
    _ink(canvas, RED, 0.5)
    canvas.line(cx - mm(RULER_MM + 2), cy, cx + mm(RULER_MM + 2), cy)
    canvas.line(cx, cy - mm(RULER_MM - 2), cx, cy + mm(RULER_MM - 2))
    canvas.circle(cx, cy, mm(1), stroke=1, fill=0)
    canvas.restoreState()


def back_rulers(canvas: Canvas, cx: float, cy: float) -> None:
    """Two crossing rulers, labelled every 5 mm on the outside of each so no label overlaps another."""
    canvas.saveState()
    _ink(canvas, INK, 0.35)
    span = mm(RULER_MM)
    canvas.line(cx - span, cy, cx + span, cy)
    canvas.line(cx, cy - span, cx, cy + span)
    for k in range(-RULER_MM, RULER_MM + 1):
        tick = mm(1.6) if k % 5 == 0 else mm(0.8)
        canvas.line(cx + mm(k), cy - tick, cx + mm(k), cy + tick)
        canvas.line(cx - tick, cy + mm(k), cx + tick, cy + mm(k))
        if k % 5 == 0 and k:
            # X numbers above the horizontal ruler, Y numbers left of the vertical one: never in each other's way
            _label(canvas, f"{k:+d}", cx + mm(k), cy + tick + 1, "center")
            _label(canvas, f"{k:+d}", cx - tick - 1.5, cy + mm(k) - LABEL * 0.35, "right")
    _label(canvas, "X", cx + span + 3, cy - LABEL * 0.35, "left")
    _label(canvas, "Y", cx - LABEL * 0.3, cy + span + 2, "left")
    canvas.restoreState()


def scale_bar(canvas: Canvas, x: float, y: float, upright: bool = False) -> None:
    """A bar exactly SCALE_BAR_MM long with a tick every 10 mm, from (x, y) to the right, or upright
    upwards (its ticks and words then to its left, reading upwards)."""
    canvas.saveState()
    canvas.translate(x, y)
    if upright:
        canvas.rotate(90)
    _ink(canvas, INK, 0.5)
    canvas.line(0, 0, mm(SCALE_BAR_MM), 0)
    for k in range(0, SCALE_BAR_MM + 1, 10):
        canvas.line(mm(k), 0, mm(k), mm(2.5) if k in (0, SCALE_BAR_MM) else mm(1.2))
    _label(canvas, f"this bar is {SCALE_BAR_MM} mm at 100 %", mm(SCALE_BAR_MM) / 2, mm(2), "center")
    canvas.restoreState()


#: how far the labels' glyphs reach above and below their baseline, as a share of their size
ASCENT, DESCENT = 0.95, 0.25


def _words_box(words: str, x: float, y: float, align: str) -> Box:
    width = text.width(words, LABEL)
    left = {"center": x - width / 2, "right": x - width, "left": x}[align]
    return left, y - LABEL * DESCENT, left + width, y + LABEL * ASCENT


def _union(*boxes: Box, pad: float = 0.4) -> Box:
    return (min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad,
            max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad)


def horizontal_ruler_box(x0: float, y: float, low: int = -RULER_MM, high: int = RULER_MM) -> Box:
    labels = [_words_box(f"{k:+d}" if k else "0", x0 + mm(k), y - LABEL - 1, "center")
              for k in range(low, high + 1) if k % 5 == 0]
    return _union((x0 + mm(low), y, x0 + mm(high), y + ZERO_TICK), *labels)


def vertical_ruler_box(x: float, y0: float, low: int = -RULER_MM, high: int = RULER_MM) -> Box:
    labels = [_words_box(f"{k:+d}" if k else "0", x - 2, y0 + mm(k) - LABEL * 0.35, "right")
              for k in range(low, high + 1) if k % 5 == 0]
    return _union((x, y0 + mm(low), x + ZERO_TICK, y0 + mm(high)), *labels)


def crosshair_box(cx: float, cy: float) -> Box:
    return _union((cx - mm(RULER_MM + 2), cy - mm(RULER_MM - 2), cx + mm(RULER_MM + 2), cy + mm(RULER_MM - 2)))


def back_rulers_box(cx: float, cy: float) -> Box:
    span, tick = mm(RULER_MM), mm(1.6)
    labels = [_words_box(f"{k:+d}", cx + mm(k), cy + tick + 1, "center") for k in (-RULER_MM, RULER_MM)]
    labels += [_words_box(f"{k:+d}", cx - tick - 1.5, cy + mm(k) - LABEL * 0.35, "right")
               for k in (-RULER_MM, RULER_MM)]
    labels += [_words_box("X", cx + span + 3, cy - LABEL * 0.35, "left"),
               _words_box("Y", cx - LABEL * 0.3, cy + span + 2, "left")]
    return _union((cx - span, cy - span, cx + span, cy + span), *labels)


def scale_bar_box(x: float, y: float, upright: bool = False) -> Box:
    words = _words_box(f"this bar is {SCALE_BAR_MM} mm at 100 %", mm(SCALE_BAR_MM) / 2, mm(2), "center")
    along, _, _, up = _union((0, 0, mm(SCALE_BAR_MM), mm(2.5)), words)
    if upright:  # the bar runs up from (x, y), its ticks and words to its left
        return x - up, y + along, x + 0.4, y + mm(SCALE_BAR_MM) - along
    return x + along, y - 0.4, x + mm(SCALE_BAR_MM) - along, y + up


def _ink(canvas: Canvas, color, width: float) -> None:
    canvas.setStrokeColorRGB(*color)
    canvas.setFillColorRGB(*color)
    canvas.setLineWidth(width)


def _label(canvas: Canvas, words: str, x: float, y: float, align: str) -> None:
    """Words in the colour ``_ink`` set last."""
    fill = canvas._fillColorObj
    text.draw(canvas, x, y, words, LABEL, align=align, color=tuple(fill.rgb() if hasattr(fill, "rgb") else fill))


def _say(canvas: Canvas, template: SheetTemplate, card_top: float, lines: list[str]) -> list[Box]:
    """Instructions in the top margin, if it has room; returns the boxes of their lines."""
    room = template.page_height - card_top
    if room < len(lines) * (LABEL + 2) + mm(6):
        return []
    canvas.saveState()
    y = template.page_height - mm(6) - LABEL
    boxes = []
    for line in lines:
        text.draw(canvas, mm(12), y, line, LABEL, color=INK)
        boxes.append(_words_box(line, mm(12), y, "left"))
        y -= LABEL + 2
    canvas.restoreState()
    return boxes
