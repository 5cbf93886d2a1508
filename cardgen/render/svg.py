"""SVG art, read with svglib and drawn as vectors (never rasterised).

An SVG is checked before svglib sees it (``_check_tree``): at most
``MAX_SVG_ELEMENTS`` elements (``MAX_SVG_NESTING`` counting each once per group
around it) and ``MAX_SVG_NUMBERS`` numbers, every number finite and within
``MAX_SVG_NUMBER``, no raster ``<image>`` (svglib's raster images do not draw)
and no reference to another file (art is one self-contained file: nothing
outside the deck's folder is ever opened). What svglib makes of it is then
drawn once onto a scratch page, so art that passed the checks and still cannot
be drawn stops at the resolve step, located, instead of halfway through a
build; text in a font that cannot be embedded is refused there too.
"""
from __future__ import annotations

import io
import logging
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import CardgenError, Location, reason

#: elements an SVG may hold: 120,000 paths took 46 s and 665 MB to convert; 4,000 styled paths take 3.8 s of
#: CPU to check and draw, so 2,500 stay well inside 10 s on a busy machine
MAX_SVG_ELEMENTS = 2_500
#: numbers an SVG's attributes may hold in all (path data included)
MAX_SVG_NUMBERS = 250_000
#: every element counted once for each group it sits in: svglib looks each style attribute up through
#: every ancestor, so 2,290 shapes inside 200 groups (458,000) took 13 s of CPU, inside 32 groups
#: (79,000) 3.2 s; at 40,000 nesting adds under a second (the bundled and example art count under 10)
MAX_SVG_NESTING = 40_000
#: the largest number (coordinate, length, stroke width, transform factor) an SVG may write
MAX_SVG_NUMBER = 1e9

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
#: what holds digits but no number: colours (#8d6e63) and references (url(#g1))
_NOT_NUMBERS = re.compile(r"#[\w-]*|url\([^)]*\)")
_NOT_FINITE = re.compile(r"(?<![a-z])(?:nan|inf|infinity)(?![a-z])", re.IGNORECASE)
#: attributes holding names, not numbers
_NAMES = {"id", "class", "href", "lang", "font-family", "title", "name", "space", "version", "baseProfile",
          "preserveAspectRatio", "type", "media", "requiredExtensions", "systemLanguage", "role"}
_XLINK = "{http://www.w3.org/1999/xlink}href"


class SvgError(ValueError):
    """An SVG file that cannot be drawn; ``check_svg`` turns it into a located error."""


def load_svg(path: Path) -> Any:
    """The reportlab Drawing of an SVG file; raises SvgError with what went wrong."""
    try:
        from lxml import etree  # type: ignore[import-untyped]
        from svglib.svglib import SvgRenderer
    except ImportError:
        raise SvgError("SVG art needs svglib: pip install 'cardgen[svg]'") from None
    from ..deck import MAX_IMAGE_BYTES
    from ..files import read_input

    # svglib logs what it skips and parse errors; cardgen reports its own way
    logging.getLogger("svglib").setLevel(logging.CRITICAL)
    data = read_input(path, f"image '{path.name}'", MAX_IMAGE_BYTES)
    # as svglib parses (recovering from small mistakes), but entities are never expanded, no DTD
    # is loaded and nothing is fetched
    parser = etree.XMLParser(remove_comments=True, recover=True, resolve_entities=False, no_network=True,
                             load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(data, parser=parser)
    except Exception as exc:  # lxml raises XMLSyntaxError and ValueError on bad files
        raise SvgError(f"cannot read the SVG ({exc.__class__.__name__}: {str(exc)[:120]})") from None
    if root is None or not isinstance(root.tag, str) or _local(root.tag) != "svg":
        raise SvgError("cannot read the SVG (not an SVG document)")
    _check_tree(root)
    try:
        drawing = SvgRenderer(str(path), external_reference_root=str(path.parent)).render(root)
    except Exception as exc:  # svglib raises ValueError, TypeError and others on bad files
        raise SvgError(f"cannot read the SVG ({exc.__class__.__name__}: {str(exc)[:120]})") from None
    if drawing is None:
        raise SvgError("cannot read the SVG (not an SVG document)")
    size = (drawing.width, drawing.height)
    if not all(isinstance(v, (int, float)) and math.isfinite(v) and 0 < v <= MAX_SVG_NUMBER for v in size):
        raise SvgError("the SVG has no size: give its svg element width and height, or a viewBox")
    _check_fonts(drawing)
    _trial_draw(drawing)
    return drawing


def _local(name: str) -> str:
    """``{namespace}name`` without its namespace (lxml's QName refuses a mangled namespace)."""
    return name.rpartition("}")[2]


def _check_tree(root: Any) -> None:
    """The caps and refusals above, each naming the SVG's line."""
    elements = numbers = nesting = 0
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue  # processing instructions and entities: nothing svglib draws
        elements += 1
        if elements > MAX_SVG_ELEMENTS:
            raise SvgError(f"has more than {MAX_SVG_ELEMENTS:,} elements (line {node.sourceline}); simplify it "
                           f"or use a PNG")
        nesting += sum(1 for _ in node.iterancestors())
        if nesting > MAX_SVG_NESTING:
            raise SvgError(f"nests its elements too deeply (line {node.sourceline}: more than "
                           f"{MAX_SVG_NESTING:,} group levels counted over its elements, each inside "
                           f"{nesting // elements} on average); flatten its groups or use a PNG")
        tag = _local(node.tag)
        href = node.get(_XLINK) or node.get("href")
        if href and not href.startswith(("#", "data:")):
            raise SvgError(f"line {node.sourceline}: <{tag}> refers to '{href[:80]}', another file; SVG art "
                           f"must be one self-contained file (nothing outside it is opened)")
        if tag == "image":
            raise SvgError(f"line {node.sourceline}: holds a raster <image>, which cardgen does not draw inside "
                           f"SVG art; give the picture as the card's image, or trace it to vectors")
        for name, value in node.attrib.items():
            local = _local(name)
            if local in _NAMES:
                continue
            value = _NOT_NUMBERS.sub(" ", value)
            if _NOT_FINITE.search(value):
                raise SvgError(f"line {node.sourceline}: {local}=\"{value[:40]}\" is not a finite number")
            for match in _NUMBER.finditer(value):
                numbers += 1
                if not abs(float(match.group())) <= MAX_SVG_NUMBER:
                    raise SvgError(f"line {node.sourceline}: {local} holds {match.group()[:40]}, beyond the "
                                   f"{MAX_SVG_NUMBER:.0e} an SVG number may be")
            if numbers > MAX_SVG_NUMBERS:
                raise SvgError(f"holds more than {MAX_SVG_NUMBERS:,} numbers (line {node.sourceline}); simplify "
                               f"it or use a PNG")


def _check_fonts(drawing: Any) -> None:
    """Text in SVG art prints only in a font the PDF embeds: svglib falls back to Helvetica,
    one of the standard fonts a PDF names and never embeds, which print shops reject."""
    from reportlab.graphics.shapes import Group, String
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    stack = [drawing]
    while stack:
        node = stack.pop()
        if isinstance(node, String):
            font = pdfmetrics.getFont(node.fontName)
            if not isinstance(font, TTFont):
                raise SvgError(f"holds text ('{node.text[:30]}') in the font {node.fontName}, which is not "
                               f"embedded in a PDF; convert the text to paths (Inkscape: Path > Object to "
                               f"Path)")
        elif isinstance(node, Group) or hasattr(node, "contents"):
            stack.extend(getattr(node, "contents", ()))


def _trial_draw(drawing: Any) -> None:
    """Draw ``drawing`` onto a page that is thrown away: what reportlab cannot write fails here."""
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    try:
        canvas = Canvas(io.BytesIO())
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.showPage()
    except Exception as exc:  # reportlab raises ValueError (numbers), TypeError and others
        said = f": {reason(exc, 120)}" if str(exc).strip() else ""  # an exception may say nothing
        raise SvgError(f"cannot be drawn ({exc.__class__.__name__}{said})") from None


@lru_cache(maxsize=256)
def svg_drawing(path: Path) -> Any:
    """``load_svg``, once per file and process: a face drawn many times parses its art once."""
    return load_svg(path)


def check_svg(path: Path, name: str, where: Location | None) -> None:
    """Refuse SVG art that cannot be drawn, located where the deck names it (the resolve step, and
    art a field names when a face is drawn)."""
    try:
        svg_drawing(path)
    except SvgError as exc:
        raise CardgenError(f"SVG '{name}': {exc}", where) from None


def svg_size(path: Path) -> tuple[float, float]:
    drawing = svg_drawing(path)
    return float(drawing.width), float(drawing.height)


def draw_svg(canvas: Any, path: Path) -> None:
    """``path`` at its natural size with its lower left corner at the origin. The drawing starts in
    the canvas's own font (reportlab's default is Helvetica, which a PDF does not embed: each form of
    SVG art would name it, unembedded, for no text at all)."""
    from reportlab.graphics import renderPDF

    drawing = svg_drawing(path)
    drawing.initialFontName, drawing.initialFontSize = canvas._fontname, canvas._fontsize
    renderPDF.draw(drawing, canvas, 0, 0)
