"""Writing shaped text into a PDF, for layouts and for the labels cardgen draws itself.

``TextOut`` writes text ops (rich.py's ``("text", x, baseline, font, size, color, string, width,
glyphs)``) onto a reportlab canvas: neighbouring ops share one text object, the font and colour
are set only when they change, and glyphs go out through pdffont.py as the glyph ids HarfBuzz
chose. Runs of a colour font (emoji) are pictures, drawn when the text object closes.

``draw`` and ``width`` set a line of plain words in the bundled DejaVu Sans (page labels, the
calibration sheet, reports), through the same shaping and writer as the cards.
"""
from __future__ import annotations

import itertools
import weakref
from functools import lru_cache
from pathlib import Path

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.textobject import PDFTextObject

from ..model import RGB
from . import rich
from .fonts import FontChain, default_family, describe, face
from .pdffont import color_glyph, draw_color_glyph, embedded_font, with_actual_text

#: the canvas's initial font: a reportlab font that writes nothing unless used (cardgen never uses it)
REGULAR = "DejaVuSans"
BLACK: RGB = (0.0, 0.0, 0.0)


def register_fonts() -> None:
    """Register the bundled regular face with reportlab once, as the canvas's initial font."""
    if REGULAR not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(REGULAR, str(default_family().file("regular"))))


class TextOut:
    """Text ops written on ``canvas``, one text object at a time.

    The text object's operators are written here as reportlab's ``PDFTextObject`` writes them (its
    origin, fonts, colours through the canvas's colour space), without building one for every
    piece of text: a card's text is thousands of small objects in a large build."""

    def __init__(self, canvas):
        self.canvas = canvas
        #: the open text object's operators, or None
        self.code: list[str] | None = None
        self.x = self.y = 0.0  # where its next glyph goes
        self.colour: list[tuple] = []
        self.selected: tuple | None = None
        self.ink: RGB | None = None
        known = _documents.get(canvas._doc)
        if known is None:
            known = _documents[canvas._doc] = (next(_serials), {})
        #: the document's number (never another's) and its fonts' resource names
        self.serial: int = known[0]
        self.names: dict[str, str] = known[1]

    def add(self, op: tuple) -> None:
        _, x, y, font, size, color, words, width, runs = op
        colour = face(font).color
        if colour:
            # colour glyphs are pictures, drawn after the text object; the text is written too, but
            # invisible, so it copies and searches
            self.colour.append(op)
        code = self.code
        if code is None:
            # as reportlab's text object begins: at the origin, then moved
            code = self.code = ["BT", _ORIGIN]
            self.selected = self.ink = None
            code.append(f"1 0 0 1 {fp_str(x, y)} Tm")
            self.x, self.y = x, y
        elif self.y != y or abs(self.x - x) > 0.005:
            code.append(f"1 0 0 1 {fp_str(x, y)} Tm")
            self.x, self.y = x, y
        serial = self.serial
        inners: list[str | None] = []
        tangled = False
        for glyphs in runs:
            # what a run needs, kept by the run's identity (the run held in the entry, so its id is no
            # other's while known): words recur card after card
            known = _RUNS.get(id(glyphs))
            if known is None or known[0] is not glyphs or known[1] != font:
                known = _learn(glyphs, font)
            if known[3] != serial:  # its glyphs recorded in the document being written
                _embedded(font).use_run(self.canvas._doc, glyphs.ids, glyphs.texts)
                known[3] = serial
            if known[4]:
                tangled = True
            inners.append(known[2])
        name = self.names.get(font)
        if name is None:
            name = self.names[font] = _embedded(font).use(self.canvas._doc, ())
        if self.selected != (name, size):
            code.append(f"{name} {fp_str(size)} Tf")
            self.selected = (name, size)
        if self.ink != color and not colour:
            code.append(_fill(self.canvas, color))
            self.ink = color
        if None not in inners:
            operators = "[" + "".join(inners) + "] TJ"  # type: ignore[arg-type]
        else:
            operators = " ".join(_run_operators(font, g, size if any(g.y_offsets) else 0.0) for g in runs)
        if tangled:
            # a cluster of several glyphs (a Devanagari vowel sign drawn before its consonant) or a
            # glyph of several letters right to left (Arabic's lam-alef): the text layer reads the
            # run's characters in order, not glyph by glyph
            operators = with_actual_text(words, operators)
        code.append(f"3 Tr {operators} 0 Tr" if colour else operators)
        self.x += width

    @property
    def open(self) -> bool:
        return self.code is not None or bool(self.colour)

    def close(self) -> None:
        if self.code is not None:
            self.code.append("ET")
            self.canvas._code.append(" ".join(self.code))
            self.code = None
        for _, x, y, font, size, _color, _words, _width, runs in self.colour:
            f = face(font)
            data = _font_data(f.path)
            for glyphs in runs:
                for gid, advance, dx, dy in zip(glyphs.ids, glyphs.advances, glyphs.x_offsets, glyphs.y_offsets):
                    picture = color_glyph(data, f.index, gid)
                    if picture is not None:
                        draw_color_glyph(self.canvas, picture, x + dx * size / f.upem, y + dy * size / f.upem,
                                         size, f.upem)
                    x += advance * size / f.upem
        self.colour.clear()


#: where reportlab's text object starts (its first operator)
_ORIGIN = "1 0 0 1 0 0 Tm"


def _fill(canvas, color: RGB) -> str:
    """The operator a reportlab text object on ``canvas`` writes to fill with ``color`` (in the
    canvas's colour space), worked out once per canvas class and colour."""
    key = (type(canvas), color)
    known = _FILLS.get(key)
    if known is None:
        if len(_FILLS) >= 4096:
            _FILLS.clear()
        probe = PDFTextObject(canvas)
        probe._code = []
        probe.setFillColor(color)
        known = _FILLS[key] = " ".join(probe._code)
    return known


_FILLS: dict[tuple, str] = {}


#: each document's number and its fonts' resource names
_documents: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_serials = itertools.count()


#: by a run's identity: [the run, its font, the inside of its TJ array (None if a glyph rises), the
#: number of the document that last recorded its glyphs, whether it is tangled]
_RUNS: dict[int, list] = {}
MAX_RUNS = 200_000


def _learn(glyphs, font: str) -> list:
    if len(_RUNS) >= MAX_RUNS:
        _RUNS.clear()
    # a run with no glyph raised is one TJ array: its inside is kept, to join with others
    inner = None if any(glyphs.y_offsets) else _run_operators(font, glyphs, 0.0)[1:-4]
    known = _RUNS[id(glyphs)] = [glyphs, font, inner, None, glyphs.tangled]
    return known


def _run_operators(font: str, glyphs, size: float) -> str:
    """One run's operators: the same for every size where no glyph rises (``size`` 0 then), since a
    TJ array's numbers are in thousandths of an em (``_RUNS`` keeps them for each run)."""
    return _embedded(font).run_operators(glyphs.ids, glyphs.advances, glyphs.x_offsets, glyphs.y_offsets,
                                         size or 1.0)


@lru_cache(maxsize=256)
def _embedded(font: str):
    """The PDF font of a registered face (``embedded_font`` checks its file's path and time: once)."""
    f = face(font)
    return embedded_font(f.path, f.index)


@lru_cache(maxsize=16)
def _font_data(path: Path) -> bytes:
    return path.read_bytes()


@lru_cache(maxsize=4096)
def _line(words: str, bold: bool) -> rich.Line:
    """``words`` as written (no markup), shaped and kept on one line."""
    return rich.wrap(rich.prepare([rich.Run(words, bold)], _chain()), 1.0, float("inf"))[0]


@lru_cache(maxsize=1)
def _chain() -> FontChain:
    """The bundled family alone: one chain for every label, so its faces are looked up once."""
    return FontChain()


def width(words: str, size: float, bold: bool = False) -> float:
    """The width of ``words`` set in DejaVu Sans at ``size``."""
    return _line(words, bold).w1 * size if words else 0.0


def draw(canvas, x: float, y: float, words: str, size: float, bold: bool = False, align: str = "left",
         color: RGB = BLACK) -> None:
    """``words`` set on one line in DejaVu Sans at ``size``, from ``x`` (or centred on it, or ending at
    it) on the baseline ``y``."""
    if not words:
        return
    line = _line(words, bold)
    w = line.w1 * size
    left = x - w / 2 if align == "center" else x - w if align == "right" else x
    out = TextOut(canvas)
    for op in rich.line_ops(line, size, left, y, color):
        if op[0] == "text":
            out.add(op)
    out.close()


def check(ctx, card_id: str, what: str, words: str) -> None:
    """Report characters of ``words`` that the bundled font lacks."""
    for char in _chain().missing(words):
        ctx.text_problem(card_id, f"{what} prints {describe(char)}, which no font has")
