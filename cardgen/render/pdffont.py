"""Shaped glyphs into reportlab PDFs: one Type0 (CID) font per face and document, and colour glyphs.

reportlab's TTFont writes simple TrueType subsets keyed by Unicode characters, so it cannot show a
glyph that has no character of its own (a ligature, an Arabic joining form, an Indic conjunct),
cannot embed CFF outlines and knows TrueType collections only. This module writes glyph ids as
HarfBuzz returns them for the original font file.

Use, from the drawing code::

    font = embedded_font(path, index)                 # one object per face, process-wide
    name = font.use(canvas._doc, [(gid, text), ...])  # records the glyphs; '/F3'
    code = font.glyph_operators([(gid, x_advance, x_offset, y_offset), ...], size)
    # inside BT ... ET at the run's start:  f"{name} {size} Tf {code}"

- ``EmbeddedFont(data, index, key)``: one face of a font file (``data`` the whole file, ``index``
  the face in a .ttc/.otc collection, 0 otherwise; ``key`` unique among faces). ``embedded_font``
  caches one per resolved path, modification time and index; a file it cannot read raises the
  CardgenError of ``files.read_input``, bad font data FontProgramError.
- ``font.use(doc, glyphs)`` records ``(gid, text)`` pairs for the document: ``text`` is what the
  glyph stands for in the ToUnicode map ("fi" for a ligature, "" for a glyph that stands for
  nothing, such as the second glyph of a cluster). A glyph keeps the first non-empty text it is
  recorded with. Returns the font's resource name for ``Tf``; on first use in a document the font
  registers itself in ``doc.delayedFonts``, as reportlab's own TTFont does, and ``addObjects`` writes
  it when the document is saved: a Type0 font, Encoding /Identity-H, over a CIDFontType2 with a /W
  array of the used glyphs' advances, a ToUnicode CMap and the subset font program (FontFile2,
  Flate-compressed when the document compresses). A face of at most PRINTABLE_GLYPHS glyphs shows
  each glyph by a 2-byte code of two printable characters, written in a (literal string), and its
  /CIDToGIDMap stream takes each code back to the glyph id; a larger face's codes are its glyph ids,
  written in hex, with /CIDToGIDMap /Identity. A glyph id the face does not have, or a glyph whose data is broken,
  raises FontProgramError here, in ``use``, never at save time.
- ``font.glyph_operators(glyphs, size)``: TJ (and Ts for vertical offsets) operators drawing
  positioned glyphs ``(gid, x_advance, x_offset, y_offset)`` in font units from the current text
  position, which afterwards is the start plus the sum of the advances (to 10^-6 em); each glyph
  sits within 1/2000 em of its place, so most unkerned glyphs need no TJ number. The /W widths
  are whole 1000/em units (pdfium reads them so). The operators assume character spacing 0 and
  horizontal scaling 100 (reportlab's defaults).
- ``font.advance(gid)`` (font units), ``font.units_per_em``, ``font.glyph_count``.
- ``color_glyph(data, index, gid)`` (or ``font.color_glyph(gid)``) -> ``ColorGlyph | None`` and
  ``draw_color_glyph(canvas, glyph, x, baseline, size, upem)`` for colour fonts: CBDT/CBLC and sbix
  PNG bitmaps (the largest strike), COLR version 0 layers with CPAL colours (palette 0). Not read,
  so answering None: COLR version 1 (gradients, transforms), sbix "flip" and non-PNG pictures,
  SVG-in-OpenType. Bitmaps become one image XObject per distinct glyph and PDF (reportlab names
  images by their pixels). A colour font with no outlines (Noto Color Emoji) still makes an
  EmbeddedFont, of empty glyphs with the font's advances, so a run of emoji can be written as
  invisible text for copying and searching, under its colour pictures.
- ``with_actual_text(text, operators)`` wraps a run's operators so text extraction reads ``text``:
  ToUnicode gives each glyph one text, which cannot say a cluster whose glyphs are reordered or
  shared (Devanagari's i sign before its consonant); and pdfium reads a glyph mapped to nothing as
  the character of its code, poppler as nothing.
- Every failure to read a font raises ``FontProgramError`` (a ValueError) with a short reason.

Subsetting. A TrueType face's subset is written from the raw tables (head, hhea, maxp, loca, glyf,
hmtx, post format 3): glyph ids are kept (unused ids are empty glyphs with advance 0, so composite
glyphs' component ids stay valid and the codes map to the original ids), composite components are included,
and hinting (instructions, cvt, fpgm, prep) is dropped, print needs none. No cmap: a CIDFontType2
selects glyphs by id. The font program is cached per face and glyph set.

CFF outlines (.otf, and .otc collections such as Noto Sans CJK) are converted glyph by glyph to
TrueType quadratics (fontTools' cu2qu, error under 1/1000 em) when a glyph is first used, cached
per face for the process, and written by the same TrueType subsetter as a CIDFontType2. Why not
embed CFF as FontFile3 under a CIDFontType0: fontTools' subsetter takes about 1.4 s per PDF on Noto
Sans CJK (its CFF is parsed and rewritten whole each time), where the conversion costs 0.3 s once per
face and under a millisecond per new glyph, after which each PDF's subset is assembled like any
TrueType one; and a CID-keyed CFF's codes are CIDs through its charset, not glyph ids, a second
mapping the TrueType route does not have. The cost is a somewhat larger program (quadratics take
more points than cubics) and no CFF hints, which print does not use.
"""
from __future__ import annotations

import hashlib
import io
import struct
import weakref
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, wraps
from itertools import pairwise
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfdoc

from ..errors import CardgenError, reason
from ..files import read_input
from .colorspace import writes_cmyk

#: a font file larger than this is refused (Noto Sans CJK's collection is 19 MB, its Super OTC 120 MB)
FONT_FILE_LIMIT = 256 << 20
#: font programs kept per face, by glyph set (a build writes many PDFs, often of the same glyphs)
PROGRAM_CACHE = 32


class FontProgramError(CardgenError, ValueError):
    """A font file whose data cannot be read or embedded; the message says why, in a few words (and,
    raised from a face read from a file, which file: a glyph found broken only as a PDF is written
    is still one message and exit 2, never a traceback)."""


def _naming_the_file(method):
    """``method`` of an EmbeddedFont, its FontProgramError saying which font file it is about."""

    @wraps(method)
    def named(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except FontProgramError as exc:
            if not self.source or exc.message.startswith("font file "):
                raise
            raise FontProgramError(f"font file '{self.source}': {exc.message}") from None

    return named


@dataclass(frozen=True)
class ColorGlyph:
    """A colour glyph: a PNG bitmap in its box, or layers of outlines each in one colour.

    ``box`` is (x0, y0, x1, y1) in font units from the glyph origin, y up. Each layer is
    (path, rgba): the path a tuple of ('M', x, y), ('L', x, y), ('C', x1, y1, x2, y2, x3, y3) and
    ('Z',) in font units; rgba (0..1 each) or None for the text's own colour.
    """

    png: bytes | None = None
    box: tuple[float, float, float, float] | None = None
    layers: tuple[tuple[tuple[tuple, ...], tuple[float, float, float, float] | None], ...] = ()


def embedded_font(path: Path | str, index: int = 0) -> EmbeddedFont:
    """The face ``index`` of the font file ``path``, one object per file version and face."""
    path = Path(path).resolve()
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        mtime = 0  # read_input below says what is wrong, in words
    return _embedded_font(str(path), mtime, index)


@lru_cache(maxsize=64)
def _embedded_font(path: str, mtime: int, index: int) -> EmbeddedFont:
    data = read_input(Path(path), "font file", FONT_FILE_LIMIT)
    digest = hashlib.sha1(f"{path}\0{mtime}".encode()).hexdigest()[:8]
    return EmbeddedFont(data, index, f"{Path(path).stem}-{index}-{digest}", source=Path(path).name)


# --- reading a face -----------------------------------------------------------------

#: what fontTools and struct raise on data that is not what a table says
_BAD_DATA: tuple[type[Exception], ...] = (struct.error, ValueError, IndexError, KeyError, AssertionError, EOFError,
                                          TypeError, AttributeError, OverflowError, ZeroDivisionError, zlib.error,
                                          NotImplementedError, RecursionError, UnicodeDecodeError)


def _open(data: bytes, index: int) -> Any:
    """fontTools' lazy TTFont of face ``index``, every table's extent checked against the data."""
    from fontTools.ttLib import TTFont, TTLibError

    try:
        font = TTFont(io.BytesIO(data), fontNumber=index, lazy=True)
        reader = font.reader
        size = len(data)
        for tag, entry in reader.tables.items():
            if entry.offset + entry.length > size:
                raise FontProgramError(f"the font data is truncated (its {tag.strip()} table ends past the file)")
    except FontProgramError:
        raise
    except TTLibError as exc:
        raise FontProgramError(_reason(exc)) from None
    except _BAD_DATA as exc:
        raise FontProgramError(f"not a font file ({_reason(exc)})") from None
    return font


def _reason(exc: BaseException) -> str:
    return reason(exc, 80)


class EmbeddedFont:
    """One face of a font file, written into any number of PDFs as Type0 fonts (see the module)."""

    _dynamicFont = 1  # reportlab: never ask getInternalFontName for this font

    def __init__(self, data: bytes, index: int, key: str, source: str = ""):
        self.data = data
        self.index = index
        self.key = key
        #: the font file's name, for messages ("" for data from elsewhere)
        self.source = source
        self.fontName = "pdffont:" + key  # reportlab reads fontName off a delayed font
        self._docs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._programs: dict[frozenset[int], tuple[bytes, bytes | None]] = {}
        self._widths: dict[int, float] = {}
        self._open_face()

    @_naming_the_file
    def _open_face(self) -> None:
        font = _open(self.data, self.index)
        self._font = font
        try:
            self._read_tables(font)
        except FontProgramError:
            raise
        except _BAD_DATA as exc:
            raise FontProgramError(f"a broken font table ({_reason(exc)})") from None

    # -- public ------------------------------------------------------------------------

    @property
    def units_per_em(self) -> int:
        return self._upem

    @property
    def glyph_count(self) -> int:
        return self._count

    @property
    def outlines(self) -> str:
        """'glyf' (TrueType), 'cff' (CFF or CFF2) or 'none' (a bitmap or colour font)."""
        return self._kind

    @property
    def tables(self) -> tuple[str, ...]:
        """The face's table tags."""
        return tuple(self._font.reader.keys())

    def parse_cff(self) -> None:
        """Parse the CFF outlines whole (raising what fontTools raises on broken data)."""
        self._font["CFF2" if "CFF2" in self._font.reader else "CFF "]

    def advance(self, gid: int) -> int:
        """The glyph's advance width in font units (hmtx)."""
        return self._advances[gid] if gid < len(self._advances) else self._advances[-1]

    @_naming_the_file
    def use(self, doc, glyphs: Iterable[tuple[int, str]]) -> str:
        """Record ``(gid, text)`` pairs as used in ``doc``; the font's resource name ('/F3') for Tf."""
        state = self._docs.get(doc)
        if state is None:
            state = self._begin(doc)
        used, blanks = state[1], state[2]
        entries = self._entries
        for gid, text in glyphs:
            old = used.get(gid)
            if old is None:
                if gid not in entries:
                    self._load(gid)
                used[gid] = text
                if not text:
                    blanks.add(gid)
            elif text and not old:
                used[gid] = text
                blanks.discard(gid)
        return state[0]

    def use_run(self, doc, ids: Sequence[int], texts: Sequence[str]) -> str:
        """``use`` of a shaped run's glyphs and their texts, at once where each of its glyphs is
        recorded already with a text (as most runs are after a document's first cards)."""
        state = self._docs.get(doc)
        if state is not None and state[1].keys() >= set(ids) and (not state[2] or state[2].isdisjoint(ids)):
            return state[0]
        return self.use(doc, zip(ids, texts))

    @_naming_the_file
    def glyph_operators(self, glyphs: Sequence[tuple[int, float, float, float]], size: float) -> str:
        """TJ/Ts operators showing positioned glyphs ``(gid, x_advance, x_offset, y_offset)`` (font
        units, y up) from the current text position; afterwards the position is the start plus the
        sum of the advances."""
        if not glyphs:
            return self.run_operators((), (), (), (), size)
        ids, advances, x_offsets, y_offsets = zip(*glyphs)
        return self.run_operators(ids, advances, x_offsets, y_offsets, size)

    def run_operators(self, ids: Sequence[int], advances: Sequence[float], x_offsets: Sequence[float],
                      y_offsets: Sequence[float], size: float) -> str:
        """``glyph_operators`` of the glyphs given as four sequences (a shaped run's own)."""
        if not any(x_offsets) and not any(y_offsets):
            return self._flat_operators(ids, advances)
        scale = 1000.0 / self._upem
        widths = self._widths
        codes, w, opening, closing = self._codes(ids)  # glyph i's code is codes[w * i:w * i + w]
        out: list[str] = []
        parts: list[str] = []  # the TJ array being built
        first = 0  # the first glyph whose code is not yet in a string of codes
        here = 0.0  # where the next glyph would be drawn, 1000/em units from the start
        pen = 0.0  # the sum of advances so far, font units
        rise = 0.0
        for i, (gid, x_advance, x_offset, y_offset) in enumerate(zip(ids, advances, x_offsets, y_offsets)):
            if y_offset != rise:
                if i > first:
                    parts.append(opening + codes[w * first:w * i] + closing)
                    first = i
                if parts:
                    out.append("[" + "".join(parts) + "] TJ")
                    parts = []
                out.append(f"{_num(y_offset * size / self._upem)} Ts")
                rise = y_offset
            drift = here - (pen + x_offset) * scale
            if drift >= _NEAR_SLACK or drift <= -_NEAR_SLACK:
                shift = round(drift, 3)
                if abs(shift) >= _SLACK:
                    if i > first:
                        parts.append(opening + codes[w * first:w * i] + closing)
                        first = i
                    parts.append(_num(shift) + " ")
                    here -= shift
            width = widths.get(gid)
            here += width if width is not None else self._width(gid)
            pen += x_advance
        _run_end(parts, opening + codes[w * first:] + closing, first, len(ids), here - pen * scale)
        if parts:
            out.append("[" + "".join(parts) + "] TJ")
        if rise:
            out.append("0 Ts")
        return " ".join(out)

    def _flat_operators(self, ids: Sequence[int], advances: Sequence[float]) -> str:
        """``run_operators`` of glyphs none of which is offset (most text): the same numbers from the
        same arithmetic, with nothing to rise and no offset to add. Where each glyph's /W width
        puts the next within the slack, that is one string of codes and one number at its end."""
        scale = 1000.0 / self._upem
        widths = self._widths
        codes, w, opening, closing = self._codes(ids)
        parts: list[str] = []
        first = 0
        here = pen = 0.0
        for i, (gid, x_advance) in enumerate(zip(ids, advances)):
            drift = here - pen * scale
            if drift >= _NEAR_SLACK or drift <= -_NEAR_SLACK:
                shift = round(drift, 3)
                if shift >= _SLACK or shift <= -_SLACK:
                    if i > first:
                        parts.append(opening + codes[w * first:w * i] + closing)
                        first = i
                    parts.append(_num(shift) + " ")
                    here -= shift
            width = widths.get(gid)
            here += width if width is not None else self._width(gid)
            pen += x_advance
        _run_end(parts, opening + codes[w * first:] + closing, first, len(ids), here - pen * scale)
        return "[" + "".join(parts) + "] TJ" if parts else ""

    def _codes(self, ids: Sequence[int]) -> tuple[str, int, str, str]:
        """The codes of ``ids`` in one string, the characters each takes, and the delimiters of a
        string of them: two printable characters each, in a (literal string), for a face of at most
        PRINTABLE_GLYPHS glyphs (half the bytes of hex, in content streams reportlab keeps in PDFDoc
        text); four hex digits each, in a <hex string>, for a larger one."""
        if self._printable:
            table = _printable_codes()
            return "".join([table[gid] for gid in ids]), 2, "(", ")"
        return _hex(ids), 4, "<", ">"

    def _cid(self, gid: int) -> int:
        """The CID (the 2-byte code, Identity-H) glyph ``gid`` is shown by."""
        if not self._printable:
            return gid
        code = _printable_codes()[gid]
        return ord(code[0]) << 8 | ord(code[1])

    @_naming_the_file
    def color_glyph(self, gid: int) -> ColorGlyph | None:
        return color_glyph(self.data, self.index, gid)

    @_naming_the_file
    def subset_program(self, gids: Iterable[int]) -> bytes:
        """The TrueType font program of the glyphs ``gids`` (and .notdef and their components)."""
        for gid in gids:
            if gid not in self._entries:
                self._load(gid)
        return self._program(self._closure(gids))[0]

    # -- reportlab's delayed-font protocol ---------------------------------------------------

    @_naming_the_file
    def addObjects(self, doc) -> None:
        """Write this font's objects for ``doc`` (reportlab calls it when the document is saved)."""
        state = self._docs.pop(doc, None)
        if state is None:
            return
        name, used = state[0][1:], state[1]
        gids = self._closure(used)
        program, packed = self._program(gids, compressed=bool(doc.compression))
        base = f"{_tag(self.key, gids)}+{self._ps_name}"
        cids = {gid: self._cid(gid) for gid in used}  # the code each used glyph is shown by

        stream = pdfdoc.PDFStream(content=packed if packed is not None else program, filters=[])
        stream.dictionary["Length1"] = len(program)
        if packed is not None:
            stream.dictionary["Filter"] = pdfdoc.PDFName("FlateDecode")
        descriptor = pdfdoc.PDFDictionary({
            "Type": "/FontDescriptor", "FontName": pdfdoc.PDFName(base), "Flags": self._flags,
            "FontBBox": pdfdoc.PDFArrayCompact(self._bbox), "ItalicAngle": self._italic_angle,
            "Ascent": self._ascent, "Descent": self._descent, "CapHeight": self._cap_height,
            "StemV": self._stem_v, "FontFile2": doc.Reference(stream, f"pdffont:{name}:file")})
        cid_font = pdfdoc.PDFDictionary({
            "Type": "/Font", "Subtype": "/CIDFontType2", "BaseFont": pdfdoc.PDFName(base),
            "CIDSystemInfo": pdfdoc.PDFDictionary({"Registry": pdfdoc.PDFString("Adobe"),
                                                   "Ordering": pdfdoc.PDFString("Identity"), "Supplement": 0}),
            "FontDescriptor": doc.Reference(descriptor, f"pdffont:{name}:descriptor"),
            "W": _Raw(self._w_array(sorted((cid, gid) for gid, cid in cids.items()))),
            "CIDToGIDMap": self._cid_to_gid(doc, name, cids)})
        cmap = pdfdoc.PDFStream(content=_to_unicode({cids[gid]: text for gid, text in used.items()}),
                                filters=[pdfdoc.PDFZCompress] if doc.compression else [])
        font = pdfdoc.PDFDictionary({
            "Type": "/Font", "Subtype": "/Type0", "BaseFont": pdfdoc.PDFName(base), "Encoding": "/Identity-H",
            "DescendantFonts": pdfdoc.PDFArrayCompact([doc.Reference(cid_font, f"pdffont:{name}:cidfont")]),
            "ToUnicode": doc.Reference(cmap, f"pdffont:{name}:tounicode")})
        doc.idToObject["BasicFonts"].dict[name] = doc.Reference(font, name)

    # -- per document --------------------------------------------------------------------

    def _begin(self, doc) -> tuple[str, dict[int, str], set[int]]:
        mapping = doc.fontMapping
        if self.fontName in mapping:
            raise ValueError(f"two fonts with the key {self.key!r} in one document")
        name = f"/F{len(mapping) + 1}"
        mapping[self.fontName] = name
        doc.delayedFonts.append(self)
        #: its resource name, the glyphs used with their texts, and those recorded with none yet
        state: tuple[str, dict[int, str], set[int]] = (name, {}, set())
        self._docs[doc] = state
        return state

    def _width(self, gid: int) -> float:
        """The glyph's /W width: whole 1000/em units, since pdfium reads /W as integers (so every
        viewer places glyphs alike); the TJ adjustments carry the fractions."""
        width = self._widths[gid] = round(self.advance(gid) * 1000.0 / self._upem)
        return width

    def _cid_to_gid(self, doc, name: str, cids: dict[int, int]) -> Any:
        """/Identity where codes are glyph ids; else a stream of each CID's glyph id (2 bytes each),
        from ``cids`` (glyph id -> CID)."""
        if not self._printable:
            return "/Identity"
        table = bytearray(2 * (max(cids.values(), default=0) + 1))
        for gid, cid in cids.items():
            struct.pack_into(">H", table, 2 * cid, gid)
        stream = pdfdoc.PDFStream(content=bytes(table), filters=[pdfdoc.PDFZCompress] if doc.compression else [])
        return doc.Reference(stream, f"pdffont:{name}:cidtogid")

    def _w_array(self, glyphs: list[tuple[int, int]]) -> str:
        """/W of ``(cid, gid)`` pairs in CID order: runs of consecutive CIDs as ``first [w w ...]``."""
        out: list[str] = []
        run: list[str] = []
        previous = -2
        for cid, gid in glyphs:
            if cid != previous + 1:
                if run:
                    out.append("[" + " ".join(run) + "]")
                out.append(str(cid))
                run = []
            run.append(_num(self._width(gid)))
            previous = cid
        if run:
            out.append("[" + " ".join(run) + "]")
        return "[" + " ".join(out) + "]"

    # -- the face's tables -----------------------------------------------------------------

    def _table(self, tag: str, minimum: int = 0) -> bytes:
        try:
            data = self._font.reader[tag]
        except KeyError:
            raise FontProgramError(f"the font has no {tag.strip()} table") from None
        if len(data) < minimum:
            raise FontProgramError(f"the {tag.strip()} table is truncated")
        return data

    def _read_tables(self, font) -> None:
        head = self._table("head", 54)
        hhea = self._table("hhea", 36)
        maxp = self._table("maxp", 6)
        self._head, self._hhea = head, hhea
        self._upem = struct.unpack_from(">H", head, 18)[0]
        if not 16 <= self._upem <= 16384:
            raise FontProgramError(f"the head table says {self._upem} units per em")
        x0, y0, x1, y1 = struct.unpack_from(">4h", head, 36)
        mac_style = struct.unpack_from(">H", head, 44)[0]
        ascender, descender = struct.unpack_from(">hh", hhea, 4)
        self._count = count = struct.unpack_from(">H", maxp, 4)[0]
        if count == 0:
            raise FontProgramError("the font has no glyphs")
        #: codes of two printable characters (else four hex digits)
        self._printable = count <= PRINTABLE_GLYPHS
        metrics = struct.unpack_from(">H", hhea, 34)[0]
        hmtx = self._table("hmtx", 4 * metrics)
        if metrics == 0:
            raise FontProgramError("the hhea table says the font has no glyph metrics")
        pairs = _big_endian("h", hmtx[:4 * metrics])
        self._advances = array("H", pairs.tobytes())[0::2]
        lsbs = list(pairs[1::2])
        extra = list(_big_endian("h", hmtx[4 * metrics:4 * metrics + 2 * max(0, count - metrics)]))
        self._lsbs = lsbs + extra + [0] * (count - len(lsbs) - len(extra))

        em = 1000.0 / self._upem
        self._bbox = [round(v * em) for v in (x0, y0, x1, y1)]
        self._ascent, self._descent = round(ascender * em), round(descender * em)
        # read from the tables' bytes: fontTools would decode every glyph name of a post table
        # (a twentieth of a second for DejaVu Sans) to give two numbers
        weight, cap, italic_angle, fixed = 400, 0, 0.0, False
        reader = font.reader
        if "OS/2" in reader:
            os2 = self._table("OS/2", 8)
            weight = struct.unpack_from(">H", os2, 4)[0]
            if struct.unpack_from(">H", os2, 0)[0] >= 2 and len(os2) >= 90:
                cap = struct.unpack_from(">h", os2, 88)[0]
        if "post" in reader:
            self._post = self._table("post", 32)[:32]
            italic_angle = struct.unpack_from(">i", self._post, 4)[0] / 65536.0
            fixed = struct.unpack_from(">I", self._post, 12)[0] != 0
        else:
            self._post = struct.pack(">Ihh", 0x00030000, 0, 0) + bytes(24)
        self._post = struct.pack(">I", 0x00030000) + self._post[4:]
        self._cap_height = round(cap * em) if cap > 0 else self._ascent
        self._italic_angle = round(italic_angle, 2)
        self._stem_v = 50 + int((weight / 65.0) ** 2)
        self._flags = 4 | (1 if fixed else 0) | (64 if italic_angle or mac_style & 2 else 0)
        self._ps_name = _ps_name(font, self.key)

        #: gid -> (glyph data without hinting, component gids, lsb, points, contours)
        self._entries: dict[int, tuple[bytes, tuple[int, ...], int, int, int]] = {}
        if "glyf" in reader:
            self._kind = "glyf"
            self._maxp = self._table("maxp", 32)[:32]
            self._glyf = self._table("glyf")
            location_format = struct.unpack_from(">h", head, 50)[0]
            code = "H" if location_format == 0 else "I"
            length = (count + 1) * (2 if code == "H" else 4)
            loca = _big_endian(code, self._table("loca", length)[:length])
            offsets = [v * 2 for v in loca] if code == "H" else list(loca)
            if any(b < a for a, b in pairwise(offsets)) or offsets[-1] > len(self._glyf):
                raise FontProgramError("the loca table is broken (glyph offsets out of order or past glyf)")
            self._loca = offsets
        elif "CFF " in reader or "CFF2" in reader:
            self._kind = "cff"
            self._glyph_set: Any = None
        else:
            self._kind = "none"  # a bitmap or colour font: empty glyphs with the font's advances

    def _load(self, gid: int) -> None:
        """Read (or convert) glyph ``gid`` and its components into the face's cache, or raise."""
        if not 0 <= gid < self._count:
            raise FontProgramError(f"glyph id {gid} is not in the font (it has {self._count} glyphs)")
        todo = [gid]
        while todo:
            g = todo.pop()
            if g in self._entries:
                continue
            try:
                entry = self._read_glyph(g)
            except FontProgramError:
                raise
            except _BAD_DATA as exc:
                raise FontProgramError(f"glyph {g} is broken ({_reason(exc)})") from None
            self._entries[g] = entry
            for component in entry[1]:
                if not 0 <= component < self._count:
                    raise FontProgramError(f"glyph {g} is broken (its component {component} is not in the font)")
                todo.append(component)

    def _read_glyph(self, gid: int) -> tuple[bytes, tuple[int, ...], int, int, int]:
        lsb = self._lsbs[gid]
        if self._kind == "glyf":
            start, end = self._loca[gid], self._loca[gid + 1]
            data, components = _strip_hinting(self._glyf[start:end])
            return data, components, lsb, 0, 0
        if self._kind == "none":
            return b"", (), 0, 0, 0
        return self._convert(gid)

    def _convert(self, gid: int) -> tuple[bytes, tuple[int, ...], int, int, int]:
        """A CFF glyph as a TrueType glyph (quadratic outlines, error under 1/1000 em)."""
        from fontTools.pens.cu2quPen import Cu2QuPen
        from fontTools.pens.ttGlyphPen import TTGlyphPen

        if self._glyph_set is None:
            self._glyph_set = self._font.getGlyphSet()
            self._glyph_order = self._font.getGlyphOrder()
        pen = TTGlyphPen(None)
        self._glyph_set[self._glyph_order[gid]].draw(Cu2QuPen(pen, self._upem / 1000.0, reverse_direction=True))
        glyph = pen.glyph()
        data = glyph.compile(None)
        if not data:
            return b"", (), 0, 0, 0
        data += b"\0" * (-len(data) % 4)
        return data, (), glyph.xMin, len(glyph.coordinates), glyph.numberOfContours

    def _closure(self, gids: Iterable[int]) -> frozenset[int]:
        """``gids`` with .notdef and every composite's components."""
        entries = self._entries
        if 0 not in entries:
            self._load(0)
        out = {0}
        todo = list(gids)
        while todo:
            g = todo.pop()
            if g not in out:
                out.add(g)
                todo.extend(entries[g][1])
        return frozenset(out)

    def _program(self, gids: frozenset[int], compressed: bool = False) -> tuple[bytes, bytes | None]:
        """The subset's font program and, if asked, its Flate-compressed bytes (both cached)."""
        cached = self._programs.get(gids)
        if cached is None:
            if len(self._programs) >= PROGRAM_CACHE:
                del self._programs[next(iter(self._programs))]
            cached = self._programs[gids] = (self._build(gids), None)
        if compressed and cached[1] is None:
            cached = self._programs[gids] = (cached[0], zlib.compress(cached[0]))
        return cached

    def _build(self, gids: frozenset[int]) -> bytes:
        """A TrueType font of glyphs 0..max(gids), empty but for ``gids``, ids kept."""
        entries = self._entries
        order = sorted(gids)
        count = order[-1] + 1
        glyf = [entries[g][0] for g in order]
        size = sum(len(d) for d in glyf)
        short = size < 0x20000
        code = struct.Struct(">H" if short else ">I")
        loca: list[bytes] = []
        hmtx: list[bytes] = []
        metric = struct.Struct(">Hh")
        offset, previous = 0, -1
        for g, data in zip(order, glyf):
            gap = g - previous
            loca.append(code.pack(offset // 2 if short else offset) * gap)
            if gap > 1:
                hmtx.append(b"\0\0\0\0" * (gap - 1))
            hmtx.append(metric.pack(self._advances[g] if g < len(self._advances) else self._advances[-1],
                                    entries[g][2]))
            offset += len(data)
            previous = g
        loca.append(code.pack(offset // 2 if short else offset))
        head = bytearray(self._head[:54])
        head[8:12] = b"\0\0\0\0"  # checkSumAdjustment, set below
        struct.pack_into(">hh", head, 50, 0 if short else 1, 0)
        hhea = bytearray(self._hhea[:36])
        struct.pack_into(">H", hhea, 34, count)
        if self._kind == "glyf":
            maxp = bytearray(self._maxp)
            struct.pack_into(">H", maxp, 4, count)
        else:
            points = max((entries[g][3] for g in order), default=0)
            contours = max((entries[g][4] for g in order), default=0)
            maxp = bytearray(struct.pack(">IH13H", 0x00010000, count, points, contours, 0, 0, 2, *([0] * 8)))
        tables = {"glyf": b"".join(glyf), "head": bytes(head), "hhea": bytes(hhea), "hmtx": b"".join(hmtx),
                  "loca": b"".join(loca), "maxp": bytes(maxp), "post": self._post}
        return _sfnt(tables)


# --- glyf data ----------------------------------------------------------------------

def _big_endian(code: str, data: bytes) -> array:
    """``data`` read as big-endian numbers of array type ``code`` ('h', 'H', 'I')."""
    numbers = array(code, data[:len(data) - len(data) % array(code).itemsize])
    if _LITTLE_ENDIAN:
        numbers.byteswap()
    return numbers


_LITTLE_ENDIAN = array("H", b"\1\0")[0] == 1

_COMPONENT = struct.Struct(">HH")


def _strip_hinting(data: bytes) -> tuple[bytes, tuple[int, ...]]:
    """A glyf record without its instructions (padded to 4 bytes), and its components' ids."""
    if len(data) < 10:
        if data:
            raise FontProgramError("a glyph record shorter than its header")
        return b"", ()
    contours = struct.unpack_from(">h", data)[0]
    if contours > 0:
        at = 10 + 2 * contours
        length = struct.unpack_from(">H", data, at)[0]
        if at + 2 + length > len(data):
            raise FontProgramError("a glyph's instructions run past its record")
        out = data[:at] + b"\0\0" + data[at + 2 + length:]
    elif contours == 0:
        return b"", ()
    else:
        components = []
        at = 10
        while True:
            flag_at = at
            flags, gid = _COMPONENT.unpack_from(data, at)
            components.append(gid)
            at += 4 + (4 if flags & 1 else 2) + (8 if flags & 0x80 else 4 if flags & 0x40 else 2 if flags & 8 else 0)
            if at > len(data):
                raise FontProgramError("a composite glyph runs past its record")
            if not flags & 0x20:
                break
        out = data[:at]
        if flags & 0x100:  # instructions after the last component: drop them and the flag
            record = bytearray(out)
            struct.pack_into(">H", record, flag_at, flags & ~0x100)
            out = bytes(record)
        return out + b"\0" * (-len(out) % 4), tuple(components)
    return out + b"\0" * (-len(out) % 4), ()


def _sfnt(tables: dict[str, bytes]) -> bytes:
    """An sfnt file of ``tables`` with its directory and checksums."""
    from reportlab.lib.rl_accel import calcChecksum

    tags = sorted(tables)
    count = len(tags)
    power = 1 << (count.bit_length() - 1)
    directory = [struct.pack(">IHHHH", 0x00010000, count, power * 16, power.bit_length() - 1, count * 16 - power * 16)]
    offset = 12 + 16 * count
    body: list[bytes] = []
    for tag in tags:
        data = tables[tag]
        directory.append(struct.pack(">4sIII", tag.encode("latin-1"), calcChecksum(data), offset, len(data)))
        padded = data + b"\0" * (-len(data) % 4)
        body.append(padded)
        offset += len(padded)
    font = bytearray(b"".join(directory) + b"".join(body))
    head_at = 12 + 16 * count + sum(len(b) for b in body[:tags.index("head")])
    struct.pack_into(">I", font, head_at + 8, (0xB1B0AFBA - calcChecksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)


# --- PDF pieces ---------------------------------------------------------------------

#: a glyph may sit this far (TJ units, 1/1000 em) from its exact place before a TJ number moves it:
#: 0.006 pt at 12 pt, and most glyphs of unkerned text need no number (the run's end is exact)
_SLACK = 0.5
#: a drift this large may round (to 1/1000) to the slack
_NEAR_SLACK = _SLACK - 0.0005


def _run_end(parts: list[str], last: str, first: int, count: int, drift: float) -> None:
    """A TJ array's last string of codes (``last``, glyphs ``first`` on of ``count``) and the number
    that brings the pen from ``drift`` to the end of the run's advances."""
    shift = round(drift, 3)
    if count > first:
        parts.append(last)
    if shift:
        parts.append(" " + _num(shift))


#: characters that go in a (literal string) as themselves, and the glyphs a face may have for its codes
#: to be two of them
_PRINTABLE = [chr(c) for c in range(0x20, 0x7F) if chr(c) not in "()\\"]
PRINTABLE_GLYPHS = len(_PRINTABLE) ** 2


@lru_cache(maxsize=1)
def _printable_codes() -> tuple[str, ...]:
    """Each glyph id's code as two printable characters (glyph ids below PRINTABLE_GLYPHS)."""
    return tuple(high + low for high in _PRINTABLE for low in _PRINTABLE)


def _hex(ids: Sequence[int]) -> str:
    """Glyph ids as 2-byte big-endian codes in capital hex, as a <string> of Identity-H shows them."""
    codes = array("H", ids)
    if _LITTLE_ENDIAN:
        codes.byteswap()
    return codes.tobytes().hex().upper()


class _Raw(pdfdoc.PDFObject):
    """PDF source written as it is (a /W array)."""

    def __init__(self, text: str):
        self.text = text

    def format(self, document) -> bytes:
        return self.text.encode("latin-1")


def _num(value: float) -> str:
    """A PDF number with at most three decimals ('-12.5', '600')."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _tag(key: str, gids: frozenset[int]) -> str:
    """Six capital letters naming the subset, the same for the same face and glyphs."""
    digest = hashlib.sha256(key.encode() + ",".join(map(str, sorted(gids))).encode()).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(6):
        number, letter = divmod(number, 26)
        letters.append(chr(65 + letter))
    return "".join(letters)


def _ps_name(font, key: str) -> str:
    """The face's PostScript name (name id 6), or its key, in characters safe in a PDF name."""
    name = ""
    if "name" in font.reader:
        try:
            name = _name_record(font.reader["name"], 6)
        except _BAD_DATA:
            name = ""
    safe = "".join(c for c in name if c.isascii() and (c.isalnum() or c in "-_."))
    return (safe or "".join(c if c.isascii() and c.isalnum() else "-" for c in key))[:63]


def _name_record(table: bytes, name_id: int) -> str:
    """Name ``name_id`` of a name table's bytes: Windows Unicode (UTF-16) first, else Macintosh Roman."""
    count, strings = struct.unpack_from(">2xHH", table, 0)
    found: dict[tuple[int, int], str] = {}
    for i in range(count):
        platform, encoding, _language, nid, length, offset = struct.unpack_from(">6H", table, 6 + 12 * i)
        if nid != name_id:
            continue
        raw = table[strings + offset:strings + offset + length]
        if platform == 3 and encoding in (0, 1, 10):
            found.setdefault((0, 0), raw.decode("utf-16-be", "replace"))
        elif platform == 1 and encoding == 0:
            found.setdefault((1, 0), raw.decode("mac-roman", "replace"))
    return found.get((0, 0)) or found.get((1, 0), "")


def _to_unicode(used: dict[int, str]) -> bytes:
    """A ToUnicode CMap: each 2-byte code (a CID) to the text its glyph was recorded with."""
    pairs = [(gid, text.encode("utf-16-be").hex().upper()) for gid, text in sorted(used.items())]
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
             "1 begincodespacerange", "<0000> <FFFF>", "endcodespacerange"]
    for start in range(0, len(pairs), 100):
        block = pairs[start:start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines.extend(f"<{gid:04X}> <{text}>" for gid, text in block)
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode("ascii")


def with_actual_text(text: str, operators: str) -> str:
    """``operators`` in a marked-content span whose ActualText is ``text``: text extraction (pdfium,
    poppler) reads ``text`` for the span instead of the glyphs' ToUnicode entries, for runs where
    one glyph per cluster cannot say it (a reordered Indic vowel sign, a glyph shared by clusters)."""
    return f"/Span <</ActualText <FEFF{text.encode('utf-16-be').hex().upper()}>>> BDC {operators} EMC"


# --- colour glyphs ------------------------------------------------------------------

def color_glyph(data: bytes, index: int, gid: int) -> ColorGlyph | None:
    """Glyph ``gid`` of face ``index`` of the font ``data`` in colour, or None if it has no colour form."""
    source = _color_source(data, index)
    if source is None:
        return None
    glyphs = source["glyphs"]
    if gid not in glyphs:
        try:
            glyphs[gid] = _read_color_glyph(source, gid)
        except FontProgramError:
            raise
        except _BAD_DATA as exc:
            raise FontProgramError(f"colour glyph {gid} is broken ({_reason(exc)})") from None
    return glyphs[gid]


@lru_cache(maxsize=16)
def _color_source(data: bytes, index: int) -> dict[str, Any] | None:
    """What the face's colour tables need to answer for one glyph, read once per face."""
    font = _open(data, index)
    reader = font.reader
    try:
        source: dict[str, Any] = {"font": font, "glyphs": {}, "order": font.getGlyphOrder()}
        if "CBDT" in reader and "CBLC" in reader:
            cblc, cbdt = font["CBLC"], font["CBDT"]
            best = max(range(len(cblc.strikes)), key=lambda i: cblc.strikes[i].bitmapSizeTable.ppemY)
            strike = cblc.strikes[best]
            source["cbdt"] = (cbdt.strikeData[best], strike, strike.bitmapSizeTable.ppemX,
                              strike.bitmapSizeTable.ppemY)
        elif "sbix" in reader:
            strikes = font["sbix"].strikes
            ppem = max(strikes)
            source["sbix"] = (strikes[ppem].glyphs, ppem)
        elif "COLR" in reader and "CPAL" in reader and font["COLR"].version == 0:
            source["colr"] = (font["COLR"].ColorLayers, font["CPAL"].palettes[0], font.getGlyphSet())
        else:
            return None
        source["upem"] = font["head"].unitsPerEm
    except _BAD_DATA as exc:
        raise FontProgramError(f"a broken colour table ({_reason(exc)})") from None
    return source


def _read_color_glyph(source: dict[str, Any], gid: int) -> ColorGlyph | None:
    order = source["order"]
    if not 0 <= gid < len(order):
        raise FontProgramError(f"glyph id {gid} is not in the font (it has {len(order)} glyphs)")
    name = order[gid]
    upem = source["upem"]
    if "cbdt" in source:
        glyphs, strike, ppem_x, ppem_y = source["cbdt"]
        glyph = glyphs.get(name)
        if glyph is None:
            return None
        png = glyph.imageData
        metrics = getattr(glyph, "metrics", None)
        if metrics is None:  # format 19: the metrics are in the index subtable
            metrics = next(sub.metrics for sub in strike.indexSubTables if name in sub.names)
        width, height = metrics.width, metrics.height
        left = getattr(metrics, "BearingX", getattr(metrics, "horiBearingX", 0))
        top = getattr(metrics, "BearingY", getattr(metrics, "horiBearingY", 0))
        sx, sy = upem / ppem_x, upem / ppem_y
        return ColorGlyph(png=png, box=(left * sx, (top - height) * sy, (left + width) * sx, top * sy))
    if "sbix" in source:
        glyphs, ppem = source["sbix"]
        glyph = glyphs.get(name)
        seen = 0
        while glyph is not None and glyph.graphicType == "dupe" and seen < 8:  # another glyph's picture
            glyph = glyphs.get(glyph.referenceGlyphName)
            seen += 1
        if glyph is None or glyph.graphicType != "png " or not glyph.imageData:
            return None
        png = glyph.imageData
        if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
            raise FontProgramError(f"colour glyph {gid} is not a PNG image")
        width, height = struct.unpack(">II", png[16:24])
        s = upem / ppem
        x0, y0 = glyph.originOffsetX * s, glyph.originOffsetY * s
        return ColorGlyph(png=png, box=(x0, y0, x0 + width * s, y0 + height * s))
    layers_of, palette, glyph_set = source["colr"]
    layers = layers_of.get(name)
    if not layers:
        return None
    out = []
    for layer in layers:
        pen = _PathPen(glyph_set)
        glyph_set[layer.name].draw(pen)
        if layer.colorID == 0xFFFF:
            rgba = None
        else:
            c = palette[layer.colorID]
            rgba = (c.red / 255, c.green / 255, c.blue / 255, c.alpha / 255)
        out.append((tuple(pen.ops), rgba))
    return ColorGlyph(layers=tuple(out))


def _path_pen_class() -> type:
    from fontTools.pens.basePen import BasePen

    class PathPen(BasePen):
        """Records outlines as moves, lines and cubic curves (quadratics raised to cubics)."""

        def __init__(self, glyph_set):
            super().__init__(glyph_set)
            self.ops: list[tuple] = []

        def _moveTo(self, p):
            self.ops.append(("M", *p))

        def _lineTo(self, p):
            self.ops.append(("L", *p))

        def _curveToOne(self, p1, p2, p3):
            self.ops.append(("C", *p1, *p2, *p3))

        def _closePath(self):
            self.ops.append(("Z",))

    return PathPen


def _PathPen(glyph_set):
    global _PATH_PEN
    if _PATH_PEN is None:
        _PATH_PEN = _path_pen_class()
    return _PATH_PEN(glyph_set)


_PATH_PEN: type | None = None


def draw_color_glyph(canvas, glyph: ColorGlyph, x: float, baseline: float, size: float, upem: int) -> None:
    """Draw ``glyph`` with its origin at (x, baseline), ``size`` points to the em of ``upem`` units."""
    s = size / upem
    if glyph.png is not None and glyph.box is not None:
        x0, y0, x1, y1 = glyph.box
        canvas.drawImage(_image(glyph.png, writes_cmyk(canvas)), x + x0 * s, baseline + y0 * s, (x1 - x0) * s,
                         (y1 - y0) * s, mask="auto")
        return
    canvas.saveState()
    for ops, rgba in glyph.layers:
        if rgba is not None:
            canvas.setFillColorRGB(*rgba[:3])
            canvas.setFillAlpha(rgba[3])
        path = canvas.beginPath()
        for op in ops:
            kind = op[0]
            if kind == "M":
                path.moveTo(x + op[1] * s, baseline + op[2] * s)
            elif kind == "L":
                path.lineTo(x + op[1] * s, baseline + op[2] * s)
            elif kind == "C":
                path.curveTo(x + op[1] * s, baseline + op[2] * s, x + op[3] * s, baseline + op[4] * s,
                             x + op[5] * s, baseline + op[6] * s)
            else:
                path.close()
        canvas.drawPath(path, stroke=0, fill=1, fillMode=0)
    canvas.restoreState()


@lru_cache(maxsize=512)
def _image(png: bytes, cmyk: bool = False):
    """One ImageReader per bitmap (in inks for a CMYK canvas): reportlab names an image by its pixels,
    so each distinct glyph becomes one image XObject per PDF however often it is drawn."""
    from reportlab.lib.utils import ImageReader

    if cmyk:
        from PIL import Image

        from .colorspace import cmyk_reader

        with Image.open(io.BytesIO(png)) as picture:
            picture.load()
            return cmyk_reader(picture)
    return ImageReader(io.BytesIO(png))
