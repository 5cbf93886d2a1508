"""A calibration sheet for measuring a printer's duplex misregistration.

The fronts page has a crosshair at the centre of every slot; the backs page
has millimetre rulers crossing at the same place seen from the back. Print it
duplex, hold it against a light, and read where the front's crosshair falls
on the back's rulers: those two readings are the ``--back-offset X,Y``.
"""
from __future__ import annotations

from pathlib import Path

from .export import PdfInfo, write_pdf
from .render import text
from .sheets import PlacedCard, Printing, SheetTemplate
from .units import mm

RULER_MM = 8


def write_calibration(path: Path, template: SheetTemplate, duplex: str) -> int:
    """Write the two-page calibration PDF; returns its page count."""
    if duplex == "off":
        from .errors import CardgenError

        raise CardgenError("calibration needs a duplex mode: --duplex long or short")
    drawings = {"cross": _cross, "ruler": _ruler_upright if duplex == "long" else _ruler_turned}
    cards = [PlacedCard("cross", "ruler")] * template.per_sheet
    info = PdfInfo(title="cardgen calibration", subject=f"duplex calibration sheet for {template.name}",
                   label=f"calibration for {template.name}, {duplex}-edge flip")
    return write_pdf(path, Printing(template, duplex), drawings, cards, info)


def _cross(canvas, w, h) -> None:
    cx, cy = w / 2, h / 2
    canvas.setLineWidth(0.5)
    canvas.setStrokeColorRGB(0.8, 0, 0)
    canvas.line(cx - mm(RULER_MM + 2), cy, cx + mm(RULER_MM + 2), cy)
    canvas.line(cx, cy - mm(RULER_MM + 2), cx, cy + mm(RULER_MM + 2))
    canvas.circle(cx, cy, mm(1), stroke=1, fill=0)
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    canvas.setFont(text.REGULAR, 6.5)
    canvas.drawCentredString(cx, 10, "Print duplex at 100 %, hold to a light, read this cross on the back's rulers.")


def _ruler_turned(canvas, w, h) -> None:
    """Short-edge backs are placed turned 180 degrees: turn back so labels read upright."""
    canvas.translate(w, h)
    canvas.rotate(180)
    _ruler_upright(canvas, w, h)


def _ruler_upright(canvas, w, h) -> None:
    cx, cy = w / 2, h / 2
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setLineWidth(0.4)
    canvas.line(cx - mm(RULER_MM), cy, cx + mm(RULER_MM), cy)
    canvas.line(cx, cy - mm(RULER_MM), cx, cy + mm(RULER_MM))
    canvas.setFont(text.REGULAR, 5)
    for k in range(-RULER_MM, RULER_MM + 1):
        tick = mm(1.6) if k % 5 == 0 else mm(0.8)
        canvas.line(cx + mm(k), cy - tick, cx + mm(k), cy + tick)
        canvas.line(cx - tick, cy + mm(k), cx + tick, cy + mm(k))
        if abs(k) >= 4 and k % 2 == 0:
            canvas.drawCentredString(cx + mm(k), cy - mm(3.5), str(k))
            canvas.drawString(cx + mm(2.2), cy + mm(k) - 1.7, str(k))
    canvas.setFont(text.BOLD, 6.5)
    canvas.drawCentredString(cx, h - 14, "X: read the front's cross on the horizontal ruler (mm, + right)")
    canvas.drawCentredString(cx, h - 22, "Y: read it on the vertical ruler (mm, + up)")
    canvas.drawCentredString(cx, 10, "then build with --back-offset X,Y")
