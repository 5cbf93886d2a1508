"""What a print shop checks in a PDF before it prints it, for any PDF (cardgen's or another's).

``preflight(path)`` reads the file with pypdf and walks every page's content stream (and the forms
it draws, to a depth) keeping the graphics state a press cares about: the transformation matrix,
the line width and the colour spaces. It returns one ``Check`` per finding: a ``problem`` (the
shop would reject or misprint it) or a ``note`` (worth knowing, e.g. the colour spaces used).

The checks (docs/preflight.md says what each means):

- ``font``: every font is embedded (a Type0 font's descendant carries the file; Type3 fonts are
  drawings, always fine);
- ``colour``: the colour spaces of fills, strokes, images and shadings; under ``cmyk`` any RGB one
  is a problem, under ``rgb`` and ``any`` they are only reported;
- ``image``: each image's resolution at the size it is placed, below ``min_ppi`` a problem;
- ``hairline``: strokes thinner than 0.25 pt once scaled, and 0-width strokes;
- ``boxes``: TrimBox and BleedBox present, TrimBox inside BleedBox inside MediaBox;
- ``size``: the trimmed page against the card size or paper asked for (or that cardgen wrote in the
  file's keywords).

A file that is not a PDF, is cut short or is hostile past the caps is a CardgenError (exit 2).
"""
from __future__ import annotations

import io
import math
import struct
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import CardgenError, Location, reason
from .sheets.sizes import Size, card_size, describe, paper_size

#: what `cardgen preflight --color-space` takes: the colour spaces a build writes, and any (none checked)
PREFLIGHT_SPACES = ("any", "rgb", "cmyk")
#: below this a stroke is a hairline (0.25 pt, what print shops print reliably)
HAIRLINE = 0.25
#: the default lowest resolution of an image at its printed size: the build's own art warning
#: (``render.layout.WARN_PPI``, which a test holds it to; not imported, so ``cardgen --help`` loads
#: no renderer)
DEFAULT_MIN_PPI = 300
#: how far a page may be from the size asked for, each side, in points
SIZE_TOLERANCE = 1.0
#: caps against hostile files
MAX_FILE = 500 << 20
MAX_PAGES = 10_000
MAX_OBJECTS = 2_000_000
#: decoded bytes of one content stream, and operators walked in the whole file
MAX_STREAM = 64 << 20
MAX_OPERATORS = 5_000_000
#: forms inside forms
MAX_FORM_DEPTH = 12


@dataclass(frozen=True)
class Check:
    """One finding of a preflight: which file and page (0: the whole file), which check, what."""

    file: str
    page: int
    check: str
    message: str
    severity: str = "problem"

    def __str__(self) -> str:
        where = f"{self.file}: page {self.page}" if self.page else self.file
        return f"{where}: {self.severity}: {self.check}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def problems(checks: Sequence[Check]) -> list[Check]:
    return [c for c in checks if c.severity == "problem"]


def preflight(path: Path | str, *, color_space: str = "any", card: Size | str | None = None,
              paper: Size | str | None = None, min_ppi: float = DEFAULT_MIN_PPI) -> list[Check]:
    """The findings for the PDF ``path``, page by page; CardgenError for a file that is no PDF."""
    from .files import read_input

    if color_space not in PREFLIGHT_SPACES:
        raise CardgenError(f"colour space '{color_space}': expected one of {', '.join(PREFLIGHT_SPACES)}")
    path = Path(path)
    data = read_input(path, "PDF file", MAX_FILE)
    if not data.lstrip()[:5] == b"%PDF-":
        raise CardgenError("not a PDF file (it does not start with %PDF-)", _where(path))
    import logging
    import warnings

    from pypdf.errors import PyPdfError

    bad: tuple[type[BaseException], ...] = (PyPdfError, *_BAD_DATA)
    # pypdf says what it repaired through logging and warnings: preflight's findings say it instead
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _Preflight(path, data, color_space, _size(card, card_size), _size(paper, paper_size),
                              min_ppi).run()
    except CardgenError:
        raise
    except bad as exc:
        raise CardgenError(f"not a readable PDF ({_reason(exc)})", _where(path)) from None
    finally:
        logger.setLevel(level)


def _size(value: Size | str | None, parse) -> Size | None:
    return parse(value) if isinstance(value, str) else value


def _where(path: Path) -> Location:
    return Location(str(path))


def _reason(exc: BaseException) -> str:
    return reason(exc, 100)


#: what pypdf and the walk raise on a damaged file (pypdf's own errors are ValueErrors or
#: PyPdfErrors, which preflight adds when it imports pypdf)
_BAD_DATA: tuple[type[BaseException], ...] = (
    struct.error, zlib.error, ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError,
    ZeroDivisionError, AssertionError, NotImplementedError, RecursionError, UnicodeError, EOFError, LookupError)


class _Stop(CardgenError):
    """A cap was reached: the file is refused whole."""


IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _concat(m: Sequence[float], n: Sequence[float]) -> tuple[float, ...]:
    """``m`` then ``n`` (PDF's row-vector order: m x n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


@dataclass
class _State:
    ctm: tuple[float, ...] = IDENTITY
    line_width: float = 1.0
    stroke_space: str = "DeviceGray"
    fill_space: str = "DeviceGray"


@dataclass
class _Page:
    number: int
    spaces: dict[str, str] = field(default_factory=dict)  # family -> how it was used (first seen)
    hairlines: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)


class _Preflight:
    def __init__(self, path: Path, data: bytes, color_space: str, card: Size | None, paper: Size | None,
                 min_ppi: float):
        self.path, self.data, self.color_space = path, data, color_space
        self.card, self.paper, self.min_ppi = card, paper, min_ppi
        self.out: list[Check] = []
        self.reader: Any = None
        self.operators = 0
        self.fonts_seen: set[int] = set()
        #: every colour space family of the file
        self.spaces: set[str] = set()

    def run(self) -> list[Check]:
        from pypdf import PdfReader

        reader = self.reader = PdfReader(io.BytesIO(self.data), strict=False)
        if reader.is_encrypted:
            raise CardgenError("the PDF is encrypted; a print shop needs it unlocked", _where(self.path))
        size = reader.trailer.get("/Size", 0)
        if isinstance(size, int) and size > MAX_OBJECTS:
            raise CardgenError(f"the PDF has {size:,} objects, more than the {MAX_OBJECTS:,} preflight reads",
                               _where(self.path))
        count = len(reader.pages)
        if count == 0:
            raise CardgenError("the PDF has no pages", _where(self.path))
        if count > MAX_PAGES:
            raise CardgenError(f"the PDF has {count:,} pages, more than the {MAX_PAGES:,} preflight reads",
                               _where(self.path))
        self.card, self.paper = self._sizes_asked(reader)
        for number, page in enumerate(reader.pages, start=1):
            self._page(number, page)
        if self.spaces:
            self._add(0, "colour", "colour spaces used: " + ", ".join(sorted(self.spaces)), "note")
        return self.out

    def _sizes_asked(self, reader) -> tuple[Size | None, Size | None]:
        """The sizes given, else the one cardgen wrote into its own file's keywords."""
        if self.card or self.paper:
            return self.card, self.paper
        from .export.sheets import read_size_keyword

        found = read_size_keyword(str((reader.metadata or {}).get("/Keywords", "") or ""))
        if found is None:
            return None, None
        kind, width, height = found
        size = Size("cardgen wrote into the file", width, height)
        return (size, None) if kind == "card" else (None, size)

    def _add(self, page: int, check: str, message: str, severity: str = "problem") -> None:
        self.out.append(Check(str(self.path), page, check, message, severity))

    # -- a page ----------------------------------------------------------------------------

    def _page(self, number: int, page) -> None:
        self._boxes(number, page)
        found = _Page(number)
        resources = _resolve(page.get("/Resources")) or {}
        contents = page.get_contents()
        if contents is not None:
            self._walk(contents, resources, _State(), found, depth=0, stack=())
        self._fonts(number, resources)
        self._colours(found)
        for message in dict.fromkeys(found.images):
            self._add(number, "image", message)
        for message in dict.fromkeys(found.hairlines):
            self._add(number, "hairline", message)

    def _boxes(self, number: int, page) -> None:
        media = _rect(page.mediabox)
        if media is None:
            self._add(number, "boxes", "the MediaBox is not a rectangle with an area")
            return
        trim = _rect(page.get("/TrimBox"))
        bleed = _rect(page.get("/BleedBox"))
        for name, box in (("TrimBox", trim), ("BleedBox", bleed)):
            if page.get(f"/{name}") is None:
                self._add(number, "boxes", f"no {name}: the print shop cannot tell where the page is cut"
                          if name == "TrimBox" else "no BleedBox: the print shop cannot tell how far art bleeds")
            elif box is None:
                self._add(number, "boxes", f"the {name} is not a rectangle with an area")
        if trim and bleed and not _inside(trim, bleed):
            self._add(number, "boxes", f"the TrimBox {_show(trim)} is not inside the BleedBox {_show(bleed)}")
        for name, box in (("TrimBox", trim), ("BleedBox", bleed)):
            if box and not _inside(box, media):
                self._add(number, "boxes", f"the {name} {_show(box)} is not inside the MediaBox {_show(media)}")
        cut = trim or media
        width, height = cut[2] - cut[0], cut[3] - cut[1]
        if self.card is not None and not _same(width, height, self.card):
            self._add(number, "size", f"the trimmed page is {_describe(width, height)}, not the card size "
                                      f"{self.card.name} ({_describe(self.card.width, self.card.height)})")
        if self.paper is not None:
            pw, ph = media[2] - media[0], media[3] - media[1]
            if not _same(pw, ph, self.paper):
                self._add(number, "size", f"the page is {_describe(pw, ph)}, not the paper "
                                          f"{self.paper.name} ({_describe(self.paper.width, self.paper.height)})")

    def _fonts(self, number: int, resources) -> None:
        for name, font in _fonts_of(resources):
            key = id(font)
            if key in self.fonts_seen:
                continue
            self.fonts_seen.add(key)
            reason = _not_embedded(font)
            if reason:
                self._add(number, "font", f"font {name} ({_base_font(font)}) {reason}")

    def _colours(self, found: _Page) -> None:
        rgb = [f"{family} ({how})" for family, how in found.spaces.items() if _rgb(family)]
        if self.color_space == "cmyk" and rgb:
            self._add(found.number, "colour", f"RGB colour in a CMYK file: {', '.join(rgb)}")
        self.spaces.update(found.spaces)

    # -- the content stream ----------------------------------------------------------------

    def _walk(self, stream, resources, state: _State, found: _Page, depth: int,
              stack: tuple[int, ...]) -> None:
        """Follow one content stream (a page's ContentStream, or a form) with its graphics state."""
        from pypdf.generic import ContentStream

        if not isinstance(stream, ContentStream):
            stream = ContentStream(stream, self.reader)
        size = len(stream.get_data())
        if size > MAX_STREAM:
            raise _Stop(f"page {found.number}: a content stream of {size:,} bytes, more than the "
                        f"{MAX_STREAM:,} preflight reads", _where(self.path))
        saved: list[_State] = []
        for operands, operator in stream.operations:
            self.operators += 1
            if self.operators > MAX_OPERATORS:
                raise _Stop(f"more than {MAX_OPERATORS:,} drawing operators; preflight stops there",
                            _where(self.path))
            op = operator.decode("latin-1") if isinstance(operator, bytes) else str(operator)
            if op == "q":
                if len(saved) < 1000:
                    saved.append(_State(state.ctm, state.line_width, state.stroke_space, state.fill_space))
            elif op == "Q":
                if saved:
                    state = saved.pop()
            elif op == "cm" and len(operands) == 6:
                state.ctm = _concat(_numbers(operands), state.ctm)
            elif op == "w" and operands:
                state.line_width = _numbers(operands[:1])[0]
            elif op in ("S", "s", "B", "B*", "b", "b*"):
                self._stroke(state, found)
            elif op in ("rg", "RG", "k", "K", "g", "G"):
                family = {"rg": "DeviceRGB", "k": "DeviceCMYK", "g": "DeviceGray"}[op.lower()]
                self._space(found, family, "fill" if op.islower() else "stroke")
                if op.islower():
                    state.fill_space = family
                else:
                    state.stroke_space = family
            elif op in ("cs", "CS") and operands:
                family = _family(operands[0], resources)
                if op == "cs":
                    state.fill_space = family
                else:
                    state.stroke_space = family
            elif op in ("sc", "scn"):
                self._space(found, state.fill_space, "fill")
            elif op in ("SC", "SCN"):
                self._space(found, state.stroke_space, "stroke")
            elif op == "sh" and operands:
                shading = _resolve(_lookup(resources, "/Shading", operands[0]))
                if shading is not None:
                    self._space(found, _family(shading.get("/ColorSpace"), resources), "shading")
            elif op == "Do" and operands:
                self._xobject(operands[0], resources, state, found, depth, stack)
            elif op == "INLINE IMAGE":
                settings = operands.get("settings", {}) if isinstance(operands, dict) else {}
                self._image(settings, state, found, resources, inline=True)

    def _stroke(self, state: _State, found: _Page) -> None:
        a, b, c, d, _, _ = state.ctm
        scale = math.sqrt(abs(a * d - b * c))
        width = state.line_width * scale
        if state.line_width <= 0:
            found.hairlines.append("a 0-width stroke (the thinnest line the device can draw, invisible on a "
                                   "press)")
        elif width < HAIRLINE:
            found.hairlines.append(f"a stroke {_pt(width)} pt wide, thinner than {HAIRLINE:g} pt")

    def _space(self, found: _Page, family: str, how: str) -> None:
        found.spaces.setdefault(family, how)

    def _xobject(self, name, resources, state: _State, found: _Page, depth: int, stack: tuple[int, ...]) -> None:
        ref = _lookup(resources, "/XObject", name, raw=True)
        xobject = _resolve(ref)
        if xobject is None or not hasattr(xobject, "get"):
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/Image":
            self._image(xobject, state, found, resources)
        elif subtype == "/Form":
            key = getattr(ref, "idnum", None) or id(xobject)
            if key in stack:
                raise _Stop(f"page {found.number}: form {name} draws itself", _where(self.path))
            if depth >= MAX_FORM_DEPTH:
                raise _Stop(f"page {found.number}: forms nest more than {MAX_FORM_DEPTH} deep", _where(self.path))
            matrix = xobject.get("/Matrix")
            inner = _State(state.ctm, state.line_width, state.stroke_space, state.fill_space)
            if matrix is not None and len(matrix) == 6:
                inner.ctm = _concat(_numbers(matrix), state.ctm)
            own = _resolve(xobject.get("/Resources"))
            form_resources = own if own is not None else resources
            self._walk(xobject, form_resources, inner, found, depth + 1, stack + (key,))
            self._fonts(found.number, form_resources)

    def _image(self, image, state: _State, found: _Page, resources, inline: bool = False) -> None:
        def get(*names):
            for n in names:
                if n in image:
                    return _resolve(image[n])
            return None

        mask = get("/ImageMask", "/IM")
        if not mask:
            space = get("/ColorSpace", "/CS")
            if space is not None:
                self._space(found, _family(space, resources), "image")
        width, height = get("/Width", "/W"), get("/Height", "/H")
        if not isinstance(width, (int, float)) or not isinstance(height, (int, float)) or width <= 0 or height <= 0:
            return
        a, b, c, d, _, _ = state.ctm
        placed_w, placed_h = math.hypot(a, b), math.hypot(c, d)
        if placed_w <= 0 or placed_h <= 0:
            return
        ppi = min(width / (placed_w / 72.0), height / (placed_h / 72.0))
        if ppi < self.min_ppi:
            what = "an inline image" if inline else "an image"
            found.images.append(f"{what} of {int(width)} x {int(height)} px prints at {ppi:.0f} ppi "
                                f"({placed_w / 72 * 25.4:.0f} x {placed_h / 72 * 25.4:.0f} mm), below "
                                f"{self.min_ppi:g} ppi")


def _resolve(value: Any) -> Any:
    return value.get_object() if hasattr(value, "get_object") and value is not None else value


def _lookup(resources, kind: str, name, raw: bool = False):
    table: Any = _resolve(resources.get(kind)) if hasattr(resources, "get") else None
    if not hasattr(table, "get"):
        return None
    return table.raw_get(name) if raw and hasattr(table, "raw_get") and name in table else table.get(name)


def _numbers(values) -> list[float]:
    out = []
    for v in values:
        v = _resolve(v)
        out.append(float(v) if isinstance(v, (int, float)) and math.isfinite(float(v)) else 0.0)
    return out


_DEVICE = {"/DeviceRGB": "DeviceRGB", "/RGB": "DeviceRGB", "/DeviceCMYK": "DeviceCMYK", "/CMYK": "DeviceCMYK",
           "/DeviceGray": "DeviceGray", "/G": "DeviceGray", "/Pattern": "Pattern"}


def _family(space, resources, depth: int = 0) -> str:
    """A colour space's family as a print shop reads it: DeviceRGB, DeviceCMYK, DeviceGray,
    ICCBased RGB/CMYK/Gray, CalRGB, Lab, Indexed (over its base), Separation, DeviceN, Pattern."""
    from pypdf.generic import ArrayObject, NameObject

    space = _resolve(space)
    if depth > 4 or space is None:
        return "unknown"
    if isinstance(space, NameObject):
        if space in _DEVICE:
            return _DEVICE[space]
        named = _lookup(resources, "/ColorSpace", space)
        return _family(named, resources, depth + 1) if named is not None else f"unknown {space}"
    if isinstance(space, ArrayObject) and space:
        kind = _resolve(space[0])
        if kind == "/ICCBased" and len(space) > 1:
            profile = _resolve(space[1])
            n = _resolve(profile.get("/N")) if hasattr(profile, "get") else None
            return {1: "ICCBased Gray", 3: "ICCBased RGB", 4: "ICCBased CMYK"}.get(n if isinstance(n, int) else 0,
                                                                                 "ICCBased")
        if kind in ("/Indexed", "/I") and len(space) > 1:
            return f"Indexed {_family(space[1], resources, depth + 1)}"
        if kind == "/Pattern" and len(space) > 1:
            return f"Pattern {_family(space[1], resources, depth + 1)}"
        if kind in ("/Separation", "/DeviceN", "/CalRGB", "/CalGray", "/Lab"):
            return str(kind)[1:]
        return _family(kind, resources, depth + 1)
    return "unknown"


def _rgb(family: str) -> bool:
    return family.split()[-1] in ("DeviceRGB", "RGB", "CalRGB")


def _fonts_of(resources) -> Iterator[tuple[str, Any]]:
    table: Any = _resolve(resources.get("/Font")) if hasattr(resources, "get") else None
    if not hasattr(table, "items"):
        return
    for name, font in table.items():
        font = _resolve(font)
        if hasattr(font, "get"):
            yield str(name), font


def _base_font(font) -> str:
    return str(_resolve(font.get("/BaseFont")) or "no name").lstrip("/")


def _not_embedded(font) -> str:
    """Why ``font`` is not embedded, or "" when it is (or is a Type3 font, drawn in the file)."""
    subtype = _resolve(font.get("/Subtype"))
    if subtype == "/Type3":
        return ""
    if subtype == "/Type0":
        descendants = _resolve(font.get("/DescendantFonts"))
        if not descendants:
            return "is a Type0 font with no descendant font"
        font = _resolve(descendants[0])
        if not hasattr(font, "get"):
            return "is a Type0 font with no descendant font"
    descriptor = _resolve(font.get("/FontDescriptor"))
    if not hasattr(descriptor, "get"):
        return "is not embedded (no font descriptor: the printer substitutes its own)"
    if not any(descriptor.get(key) is not None for key in ("/FontFile", "/FontFile2", "/FontFile3")):
        return "is not embedded (its descriptor carries no font file)"
    return ""


def _rect(box) -> tuple[float, float, float, float] | None:
    box = _resolve(box)
    try:
        values = [float(_resolve(v)) for v in box]
    except (TypeError, ValueError):
        return None
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        return None
    x0, y0, x1, y1 = values
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _inside(inner, outer, slack: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def _same(width: float, height: float, size: Size) -> bool:
    return any(abs(width - w) <= SIZE_TOLERANCE and abs(height - h) <= SIZE_TOLERANCE
               for w, h in ((size.width, size.height), (size.height, size.width)))


def _show(box) -> str:
    return "[" + " ".join(_pt(v) for v in box) + "]"


def _pt(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _describe(width: float, height: float) -> str:
    return describe(width, height)
