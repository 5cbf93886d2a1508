"""Rich text: a small markup, inline icons, wrapping and shrink-to-fit.

Markup: ``<b>bold</b>``, ``<i>italic</i>``, ``<color red>...</color>`` (any
colour cardgen understands), ``<br>`` or a line break for a new line, and
``:name:`` for an icon drawn inline at the size of the text. A ``<`` that
starts no tag, and ``:word:`` that names no icon, print as written.

Text is prepared once (markup parsed, characters given fonts along the
chain, every word measured at 1 pt); wrapping at any size is then
arithmetic, so finding the largest size that fits is a cheap binary search.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Container
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import Any, NamedTuple, TypeVar

from ..model import RGB
from .fonts import FontChain, face
from .shaping import Glyphs, base_rtl, break_units, emergency_breakable, levels, needs_bidi, shape, visual_order
from .shaping import clusters as shaping_clusters

LEADING = 1.18
#: an inline icon is a square this many ems wide
ICON_EM = 1.05
#: sizes are tried in steps of this many points
SIZE_STEP = 0.25
_EPS = 0.01

_new = tuple.__new__  # builds a NamedTuple without its keyword-handling constructor, in hot loops
_TOKEN = re.compile(r"<(/?)(b|i|color)(?:[\s=]+([^<>]*?))?\s*>|<br\s*/?>|:([a-z0-9][a-z0-9_-]*):|\n")


class MarkupError(ValueError):
    """Markup that cannot be read: an unclosed or mismatched tag, a bad colour."""


# --- parsing ---------------------------------------------------------------------

class Run(NamedTuple):
    """Text in one style; ``icon`` set for an inline icon, ``text == "\\n"`` for a break."""

    text: str
    bold: bool = False
    italic: bool = False
    color: RGB | None = None
    icon: str = ""


def parse(markup: str, icons: Container[str], parse_color: Callable[[str], RGB],
          bold: bool = False, italic: bool = False) -> list[Run]:
    """Runs of ``markup``; raises MarkupError naming what is wrong."""
    if _TOKEN.search(markup) is None:  # plain words, as most cards' are
        return [_new(Run, (markup, bold, italic, None, ""))] if markup else []
    runs: list[Run] = []
    open_tags: list[tuple[str, Any]] = []
    state: dict[str, Any] = {"b": bold, "i": italic, "color": None}

    def add(text: str) -> None:
        if text:
            runs.append(_new(Run, (text, state["b"], state["i"], state["color"], "")))

    pos = 0
    for match in _TOKEN.finditer(markup):
        add(markup[pos:match.start()])
        pos = match.end()
        whole = match.group(0)
        closing, tag, value, icon = match.group(1), match.group(2), match.group(3), match.group(4)
        if whole == "\n" or whole.startswith("<br"):
            runs.append(Run("\n"))
        elif icon is not None:
            if icon in icons:
                runs.append(Run("", state["b"], state["i"], state["color"], icon))
            else:
                add(whole)
        elif closing:
            if not open_tags or open_tags[-1][0] != tag:
                expected = f"</{open_tags[-1][0]}>" if open_tags else "no closing tag"
                raise MarkupError(f"</{tag}> closes nothing open (expected {expected})")
            state[tag] = open_tags.pop()[1]
        else:
            open_tags.append((tag, state[tag]))
            if tag == "color":
                if not value:
                    raise MarkupError("<color> needs a colour, as in <color red> or <color #c62828>")
                try:
                    state["color"] = parse_color(value)
                except ValueError as exc:
                    raise MarkupError(f"<color {value}>: {exc}") from None
            else:
                state[tag] = True
    add(markup[pos:])
    if open_tags:
        raise MarkupError(f"<{open_tags[-1][0]}> is never closed")
    return runs


def plain(runs: list[Run]) -> str:
    """The characters the runs print (icons left out), for glyph checks."""
    return "".join(r.text for r in runs if not r.icon)


# --- measuring -------------------------------------------------------------------

class Piece(NamedTuple):
    """Part of a word in one font, colour and direction, or an inline icon; ``w1`` is its width at 1 pt.

    ``glyphs`` are its shaped glyphs (None for an icon) and ``level`` its bidi embedding level (odd
    runs right to left).
    """

    text: str
    font: str
    color: RGB | None
    w1: float
    icon: str = ""
    glyphs: Glyphs | None = None
    level: int = 0


class Word(NamedTuple):
    """A unit between two line break opportunities, with the spaces after it.

    ``parts`` are its grapheme clusters, for a word in a script that breaks only with a dictionary
    (Thai): they are used when the word alone is wider than the line.
    """

    pieces: tuple[Piece, ...]
    w1: float
    #: the spaces after this word, in its last font, at 1 pt (0 where none follow, as in CJK)
    space_w1: float
    space: Piece | None = None
    parts: tuple[Word, ...] = ()
    #: the word and its spaces as one piece, drawn so mid-line (where they are one font and colour)
    joined: Piece | None = None


class Paragraph(NamedTuple):
    words: tuple[Word, ...]
    rtl: bool = False
    #: some word has parts to break between (Thai)
    parts: bool = False
    #: some character runs right to left (its lines are put in visual order when drawn)
    bidi: bool = False


def _paragraph_of(words: tuple[Word, ...], rtl: bool, bidi: bool) -> Paragraph:
    return _new(Paragraph, (words, rtl, any(w.parts for w in words), bidi))


class Prepared(NamedTuple):
    """Text ready to wrap: paragraphs of measured words, characters no font has, and notes.

    ``notes`` are warnings found while shaping: a style a family lacks, a script its font has no
    shaping rules for.
    """

    paragraphs: tuple[Paragraph, ...]
    missing: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not any(p.words for p in self.paragraphs)


#: a number, alone or with its sign, unit sign or fraction: kept on one line with the next word
_NUMBER = re.compile(r"^[+−-]?\d+(?:[.,/]\d+)?[%×]?$")
#: plain ASCII text, and its words: runs of spaces, or a word with the spaces after it, a number and
#: its spaces kept with the word that follows ("7 links")
_SIMPLE_ASCII = re.compile(r"[A-Za-z0-9 .,;:!?'\"()&+=*%#@$]*")
_SIMPLE_CHARS = frozenset(chr(c) for c in range(32, 127) if _SIMPLE_ASCII.fullmatch(chr(c)))
_ASCII_UNITS = re.compile(r" +|(?:\+?[0-9]+(?:[.,][0-9]+)?%? (?=[^ ]))*[^ ]+ *", re.ASCII)
#: scripts HarfBuzz shapes only with the font's own rules (ISO 15924 codes), and the OpenType
#: script tags that carry them
_COMPLEX = {"Arab": ("arab",), "Syrc": ("syrc",), "Nkoo": ("nko ",), "Mong": ("mong",), "Thaa": ("thaa",),
            "Deva": ("dev2", "deva"), "Beng": ("bng2", "beng"), "Guru": ("gur2", "guru"),
            "Gujr": ("gjr2", "gujr"), "Orya": ("ory2", "orya"), "Taml": ("tml2", "taml"),
            "Telu": ("tel2", "telu"), "Knda": ("knd2", "knda"), "Mlym": ("mlm2", "mlym"),
            "Sinh": ("sinh",), "Mymr": ("mym2", "mymr"), "Khmr": ("khmr",), "Tibt": ("tibt",)}
_NON_ASCII = re.compile("[^\x00-\x7f]")
_PLACEHOLDER = "\ufffc"  # an icon, to the bidi algorithm: a neutral object


def _style(run: Run) -> str:
    return ("bold_italic" if run.italic else "bold") if run.bold else ("italic" if run.italic else "regular")


@lru_cache(maxsize=65536)
def width1(text: str, font: str) -> float:
    """The shaped width of ``text`` in ``font`` at 1 pt."""
    return shape(text, font).w1


def prepare(runs: list[Run], chain: FontChain, direction: str = "auto") -> Prepared:
    """Shape ``runs`` into paragraphs of words; ``direction`` (ltr, rtl or auto) sets each paragraph's."""
    missing: dict[str, None] = {}
    notes: dict[str, None] = {}
    if not any(run.text == "\n" and not run.icon for run in runs):  # one paragraph, as most text is
        return _new(Prepared, ((_paragraph(runs, chain, direction, missing, notes),), tuple(missing), tuple(notes)))
    paragraphs: list[Paragraph] = []
    current: list[Run] = []
    for run in runs + [Run("\n")]:
        if run.text == "\n" and not run.icon:
            paragraphs.append(_paragraph(current, chain, direction, missing, notes))
            current = []
        else:
            current.append(run)
    return _new(Prepared, (tuple(paragraphs), tuple(missing), tuple(notes)))


def _paragraph(runs: list[Run], chain: FontChain, direction: str, missing: dict, notes: dict) -> Paragraph:
    """One paragraph shaped: each stretch of one run, font and direction shaped whole (so kerning and
    joining see their neighbours), then cut into words at the line break opportunities.

    A word between spaces, in a face whose rules never look at the space (``Face.space_safe``),
    shapes alone exactly as in its line: such words are shaped once per process and kept whole.
    """
    if not runs:
        return Paragraph(())
    if len(runs) == 1 and not runs[0].icon and direction != "rtl":
        # one run of one font, all left to right (most cards' text): words straight from the cache
        run = runs[0]
        text = run.text
        units, spaced = _units(text) if text.isascii() or not needs_bidi(text) else ([], False)
        if units and spaced:
            fonts = chain.split(text, _style(run))
            font = fonts[0][0]
            if len(fonts) == 1 and font is not None and face(font).space_safe:
                if not text.isascii():
                    _check_shaping(text, font, notes)
                if (run.bold or run.italic) and not face(font).color:
                    _note_lack(chain, font, _style(run), notes)  # the note of a style the family lacks
                features = chain.features(font)
                color = run.color
                cached = tuple([_word(unit, font, color, features, 0) for unit in units])
                if text.isascii():  # no part to break between, nothing right to left
                    return _new(Paragraph, (cached, False, False, False))
                return _paragraph_of(cached, False, False)
    if _ASCII_RUNS and direction != "rtl":
        paragraph = _ascii_runs(runs, chain, notes)
        if paragraph is not None:
            return paragraph
    # the paragraph's characters, an icon standing as one character, and the run each belongs to
    text = "".join(r.text if not r.icon else _PLACEHOLDER for r in runs)
    rtl = base_rtl(text, direction)
    level = levels(text, rtl)
    segments = _segments(text, level, runs, chain, missing, notes)
    words: list[Word] = []
    pos = 0
    k = 0  # the segment the unit starts in
    # icons break like letters (so ":coin:3" stays whole); UAX #14 would break around U+FFFC
    for unit in _units(text.replace(_PLACEHOLDER, "A"))[0]:
        end = pos + len(unit)
        while segments[k].stop <= pos:
            k += 1
        seg = segments[k]
        if seg.whole_words and end <= seg.stop and (pos == seg.start or text[pos - 1] == " ") \
                and (end == seg.stop or unit[-1] == " "):
            words.append(_word(unit, seg.font, seg.run.color, seg.features, seg.level))
            pos = end
            continue
        body_end = pos + len(unit.rstrip(" "))
        key = _compound_key(text, segments, k, pos, body_end, end) if _COMPOUND else None
        if key is not None:
            words.append(_compound(key))
            pos = end
            continue
        pieces = _cut(segments, k, pos, body_end)
        space_pieces = _cut(segments, k, body_end, end) if end > body_end else []
        space = space_pieces[0] if len(space_pieces) == 1 else _joined(space_pieces)
        parts: tuple[Word, ...] = ()
        if len(pieces) == 1 and not pieces[0].icon and emergency_breakable(pieces[0].text):
            parts = _parts(pieces[0], space)
        words.append(_new(Word, (tuple(pieces), sum(p.w1 for p in pieces), space.w1 if space else 0.0, space,
                                 parts, None)))
        pos = end
    return _paragraph_of(tuple(words), rtl, any(level))


#: paragraphs of several runs of plain ASCII cut straight from their runs (tests turn it off to hold
#: it equal to the general path)
_ASCII_RUNS = True


def _ascii_runs(runs: list[Run], chain: FontChain, notes: dict) -> Paragraph | None:
    """A paragraph of several runs (markup, inline icons) of plain ASCII, each in its style's first
    font, whose words shape alone (``Face.space_safe``): its words taken from the runs as the general
    path of ``_paragraph`` would cut them (a word within one run shaped whole, a word across runs
    built from its parts), without its segments; None for any other paragraph."""
    fonts: dict[str, str] = {}
    inks: list[tuple | None] = []  # each run's font, colour, features and level (None: an icon)
    stops: list[int] = []  # where each run ends
    stop = 0
    for run in runs:
        if run.icon:
            inks.append(None)
            stop += 1
            stops.append(stop)
            continue
        if not run.text.isascii():
            return None
        style = _style(run)
        font = fonts.get(style)
        if font is None:
            font = chain.fonts(style)[0]
            f = face(font)
            if not f.space_safe or f.color or not f.chars.issuperset(_SIMPLE_CHARS):
                return None
            fonts[style] = font
        inks.append((font, run.color, chain.features(font), 0))
        stop += len(run.text)
        stops.append(stop)
    # the paragraph's characters, an icon standing as a letter (as ``_units`` sees it)
    text = "".join(r.text if not r.icon else "A" for r in runs)
    if not _SIMPLE_ASCII.fullmatch(text):
        return None
    for style, font in fonts.items():
        _note_lack(chain, font, style, notes)
    regular = chain.fonts("regular")[0]
    words: list[Word] = []
    add, word = words.append, _word
    pos = k = 0  # k: the run the word starts in, ending at ``stop`` in ``ink``
    stop, ink = stops[0], inks[0]
    for unit in _ASCII_UNITS.findall(text):
        end = pos + len(unit)
        if stop <= pos:
            while stops[k] <= pos:
                k += 1
            stop, ink = stops[k], inks[k]
        if ink is not None and end <= stop:
            add(word(unit, *ink))
            pos = end
            continue
        # the word's parts in each run it crosses, cut where its spaces begin (``_compound_key``)
        key: list[tuple] = []
        body_end = pos + len(unit.rstrip(" "))
        j = k
        for low, high, space in ((pos, body_end, False), (body_end, end, True)):
            while low < high:
                while stops[j] <= low:
                    j += 1
                until = min(high, stops[j])
                part = inks[j]
                if part is None:
                    key.append(("", regular, runs[j].color, (), 0, runs[j].icon, space))
                else:
                    key.append((text[low:until], *part, "", space))
                low = until
        add(_compound(tuple(key)))
        pos = end
    return _new(Paragraph, (tuple(words), False, False, False))


@lru_cache(maxsize=65536)
def _word(unit: str, font: str, color: RGB | None, features: tuple, level: int) -> Word:
    """A word and the spaces after it, shaped alone (see ``_paragraph``): the word's glyphs, and its
    spaces' shared by every word of the font that has as many."""
    body = unit.rstrip(" ")
    if _DIGIT.search(body) and face(font).digits_alone and (body.isascii() or _unmarked(body)):
        # a word with a number in it (a new number on every card, as card numbers are) put together
        # from its digits and the letters between them, each shaped once, as they shape in the word;
        # its spaces in its colour, so that it is drawn as one run of it
        pieces = tuple([_part(text, font, color, features, level) for text in _NUMBER_PARTS.findall(body)])
        spaces = _part(unit[len(body):], font, color, features, level) if len(body) < len(unit) else None
        return _new(Word, (pieces, sum(p.w1 for p in pieces), spaces.w1 if spaces else 0.0, spaces, (), None))
    space = _spaces(len(unit) - len(body), font, features, level) if len(body) < len(unit) else None
    glyphs = shape(body, font, False, features)
    piece = _new(Piece, (body, font, color, sum(glyphs.advances) / glyphs.upem, "", glyphs, level))
    parts = _parts(piece, space) if emergency_breakable(body) else ()
    joined = None
    if space is not None and space.glyphs is not None:
        both = glyphs + space.glyphs
        joined = _new(Piece, (unit, font, color, piece.w1 + space.w1, "", both, level))
    return _new(Word, ((piece,), piece.w1, space.w1 if space else 0.0, space, parts, joined))


@lru_cache(maxsize=4096)
def _part(text: str, font: str, color: RGB | None, features: tuple, level: int) -> Piece:
    """A digit, the spaces between words or the letters between digits of ``_word``'s number."""
    if text[0] == " ":
        return _spaces(len(text), font, features, level)._replace(color=color)
    glyphs = shape(text, font, False, features)
    return _new(Piece, (text, font, color, sum(glyphs.advances) / glyphs.upem, "", glyphs, level))


def _unmarked(text: str) -> bool:
    """No combining mark (which may attach to a digit) and no script that breaks with a dictionary."""
    return not emergency_breakable(text) and not any(unicodedata.category(c).startswith("M") for c in text)


#: a digit; and the parts a word with digits is put together from (``_word``)
_DIGIT = re.compile("[0-9]")
_NUMBER_PARTS = re.compile("[0-9]| +|[^0-9 ]+")


@lru_cache(maxsize=1024)
def _spaces(count: int, font: str, features: tuple, level: int) -> Piece:
    glyphs = shape(" " * count, font, False, features)
    return _new(Piece, (" " * count, font, None, sum(glyphs.advances) / glyphs.upem, "", glyphs, level))


class _Segment:
    """Characters ``start`` to ``stop`` of a paragraph in one run, font and level; shaped whole when
    first cut (``glyphs``)."""

    __slots__ = ("_glyphs", "features", "font", "level", "run", "start", "stop", "text", "whole_words")

    def __init__(self, start: int, stop: int, run: Run, font: str, level: int, text: str, features: tuple):
        self.start, self.stop, self.run, self.font, self.level = start, stop, run, font, level
        self.text, self.features = text, features
        self._glyphs: Glyphs | None = None
        #: its words between spaces shape alone as in the line
        self.whole_words = not run.icon and not level % 2 and face(font).space_safe

    def chars(self, start: int, stop: int) -> Glyphs:
        """The glyphs of its characters ``start`` to ``stop``: from the segment shaped whole, or, where
        its words shape alone, from the words between spaces that hold them."""
        if not self.whole_words:
            if self._glyphs is None:
                self._glyphs = shape(self.text, self.font, bool(self.level % 2), self.features)
            whole = self._glyphs
            return whole if (start, stop) == (0, len(self.text)) else whole.chars(start, stop)
        text = self.text
        low = start if start == 0 or text[start - 1] == " " or text[start] == " " else text.rfind(" ", 0, start) + 1
        high = stop if stop == len(text) or text[stop] == " " or text[stop - 1] == " " else text.find(" ", stop)
        if high < 0:
            high = len(text)
        glyphs = shape(text[low:high], self.font, False, self.features)
        return glyphs if (low, high) == (start, stop) else glyphs.chars(start - low, stop - low)


def _segments(text: str, level: tuple[int, ...], runs: list[Run], chain: FontChain, missing: dict,
              notes: dict) -> list[_Segment]:
    """The paragraph cut where the run, the font or the level changes."""
    out: list[_Segment] = []
    flat = not any(level)  # all left to right: a run is one level
    stop = 0
    for run in runs:
        i, stop = stop, stop + (1 if run.icon else len(run.text))
        while i < stop:
            j = stop
            if not flat:
                j = i + 1
                while j < stop and level[j] == level[i]:
                    j += 1
            if run.icon:
                out.append(_Segment(i, j, run, chain.fonts("regular")[0], level[i], _PLACEHOLDER, ()))
            else:
                start = i
                for font, part in _fonts(text[i:j], run, chain, missing, notes):
                    out.append(_Segment(start, start + len(part), run, font, level[i], part, chain.features(font)))
                    start += len(part)
            i = j
    return out


#: words across runs ("<b>two</b>, " or ":coin: ") built from their parts, cached (tests turn it off
#: to hold it equal to cutting segments)
_COMPOUND = True


def _compound_key(text: str, segments: list[_Segment], k: int, start: int, body_end: int, stop: int) -> tuple | None:
    """A word's parts in each segment it crosses, cut where its spaces begin, as (text, font, colour,
    features, level, icon, space); None if a segment's words do not shape alone (``whole_words``)."""
    key = []
    for low, high, space in ((start, body_end, False), (body_end, stop, True)):
        while low < high:
            while segments[k].stop <= low:
                k += 1
            seg = segments[k]
            until = min(high, seg.stop)
            run = seg.run
            if run.icon:
                key.append(("", seg.font, run.color, (), seg.level, run.icon, space))
            elif seg.whole_words and (low == seg.start or text[low - 1] == " " or text[low] == " ") \
                    and (until == seg.stop or text[until] == " " or text[until - 1] == " "):
                # the part is its segment's words between spaces: they shape alone as in the segment
                key.append((text[low:until], seg.font, run.color, seg.features, seg.level, "", space))
            else:
                return None
            low = until
    return tuple(key)


@lru_cache(maxsize=16384)
def _compound(key: tuple) -> Word:
    """The word of ``_compound_key``'s parts: each shaped alone, as its segment would shape it."""
    pieces: list[Piece] = []
    spaces: list[Piece] = []
    for part, font, color, features, level, icon, space in key:
        if icon:
            piece = Piece("", font, color, ICON_EM, icon, None, level)
        else:
            glyphs = shape(part, font, False, features)
            piece = _new(Piece, (part, font, color, sum(glyphs.advances) / glyphs.upem, "", glyphs, level))
        (spaces if space else pieces).append(piece)
    space = spaces[0] if len(spaces) == 1 else _joined(spaces)
    parts: tuple[Word, ...] = ()
    if len(pieces) == 1 and not pieces[0].icon and emergency_breakable(pieces[0].text):
        parts = _parts(pieces[0], space)
    return _new(Word, (tuple(pieces), sum(p.w1 for p in pieces), space.w1 if space else 0.0, space, parts, None))


def _cut(segments: list[_Segment], k: int, start: int, stop: int) -> list[Piece]:
    """Pieces for characters ``start`` to ``stop``, from segment ``k`` on."""
    pieces: list[Piece] = []
    while start < stop:
        while segments[k].stop <= start:
            k += 1
        seg = segments[k]
        until = min(stop, seg.stop)
        if seg.run.icon:
            pieces.append(Piece("", seg.font, seg.run.color, ICON_EM, seg.run.icon, None, seg.level))
        else:
            glyphs = seg.chars(start - seg.start, until - seg.start)
            if glyphs.ids:
                text = seg.text[start - seg.start:until - seg.start]
                pieces.append(_new(Piece, (text, seg.font, seg.run.color, sum(glyphs.advances) / glyphs.upem, "",
                                           glyphs, seg.level)))
        start = until
    return pieces


def _joined(pieces: list[Piece]) -> Piece | None:
    if not pieces:
        return None
    glyphs = pieces[0].glyphs
    for p in pieces[1:]:
        glyphs = glyphs + p.glyphs if glyphs is not None and p.glyphs is not None else glyphs
    return pieces[0]._replace(text="".join(p.text for p in pieces), w1=sum(p.w1 for p in pieces), glyphs=glyphs)


def _units(text: str) -> tuple[list[str], bool]:
    """``text`` cut at its line break opportunities (UAX #14), a number kept with what follows it, and
    whether it breaks only after spaces (each unit but the last ends in one)."""
    if text.isascii() and _SIMPLE_ASCII.fullmatch(text):
        # plain ASCII breaks only after spaces (UAX #14 agrees: a test holds it)
        return _ASCII_UNITS.findall(text), True
    units = _keep_numbers(break_units(text))
    return units, all(u[-1] == " " for u in units[:-1])


def _keep_numbers(units: tuple[str, ...]) -> list[str]:
    """A number and what it counts stay on one line ("7 links", "5 ×")."""
    out: list[str] = []
    for unit in units:
        last = out[-1] if out else ""
        if len(last) > 1 and last[-1] == " " and (last[-2].isdecimal() or last[-2] in "%×") \
                and _NUMBER.match(last.rstrip(" ").rsplit(" ", 1)[-1]) and unit.strip():
            out[-1] += unit
        else:
            out.append(unit)
    return out


def _fonts(text: str, run: Run, chain: FontChain, missing: dict, notes: dict) -> list[tuple[str, str]]:
    """``text`` cut into runs of one font, noting characters no font has and styles that fall back."""
    style = _style(run)
    out: list[tuple[str, str]] = []
    for font, part in chain.split(text, style):
        if font is None:
            missing.update(dict.fromkeys(c for c in part if c != " "))
            font = chain.fonts(style)[0]
        elif style != "regular" and not face(font).color:  # emoji have no bold: nothing to say
            _note_lack(chain, font, style, notes)
        _check_shaping(part, font, notes)
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + part)
        else:
            out.append((font, part))
    return out


def _note_lack(chain: FontChain, font: str, style: str, notes: dict) -> None:
    """The note that ``font`` stands for a ``style`` its family lacks, if it does."""
    lack = chain.lacks(font, style)
    if lack is not None:
        notes[f"font '{lack.family}' has no {style.replace('_', ' ')} face: its "
              f"{style.replace('_', ' ')} text prints {lack.used.replace('_', ' ')}"] = None


@lru_cache(maxsize=65536)
def _unshapeable(char: str, font: str) -> str:
    """The script of ``char`` if ``font`` has its letters but no shaping rules for it, or ''."""
    from fontTools import unicodedata as ucd

    code = ucd.script(char)
    tags = _COMPLEX.get(code)
    return ucd.script_name(code) if tags and not face(font).scripts.intersection(tags) else ""


def _check_shaping(text: str, font: str, notes: dict) -> None:
    if text.isascii():
        return
    script = next((s for s in map(_unshapeable, _NON_ASCII.findall(text), repeat(font)) if s), "")
    if script:
        notes[f"font '{face(font).path.name}' has {script} letters but no {script} shaping rules: "
              f"{text.strip()[:20]!r} prints with its letters unjoined or misplaced; use a font made for "
              f"{script}"] = None


def _parts(piece: Piece, space: Piece | None) -> tuple[Word, ...]:
    """A word cut into its grapheme clusters, for a last-resort break (Thai, with no dictionary)."""
    glyphs = piece.glyphs
    assert glyphs is not None
    clusters = shaping_clusters(piece.text)
    if len(clusters) < 2:
        return ()
    out = []
    start = glyphs.clusters[-1] if glyphs.rtl else glyphs.clusters[0]
    for i, cluster in enumerate(clusters):
        part = glyphs.chars(start, start + len(cluster))
        start += len(cluster)
        p = piece._replace(text=cluster, w1=sum(part.advances) / part.upem, glyphs=part)
        last = i == len(clusters) - 1
        out.append(_new(Word, ((p,), p.w1, space.w1 if last and space else 0.0, space if last else None, (), None)))
    return tuple(out)


# --- wrapping and fitting ----------------------------------------------------------

class Line(NamedTuple):
    """Words of one line, its width at 1 pt, whether its paragraph runs right to left, and whether
    any of it does (``Paragraph.bidi``)."""

    words: tuple[Word, ...]
    w1: float
    rtl: bool = False
    bidi: bool = False


def wrap(text: Prepared, size: float, box_width: float) -> list[Line]:
    """Greedy wrap at ``size`` at the words' break opportunities; a word wider than the box stays
    whole (and won't fit), unless it has parts to break between (Thai)."""
    limit = (box_width + _EPS) / size
    lines: list[Line] = []
    for paragraph in text.paragraphs:
        words, rtl, parts, bidi = paragraph
        if not words:
            lines.append(_new(Line, ((), 0.0, rtl, bidi)))
            continue
        if parts and any(word.parts and word.w1 > limit for word in words):
            # a Thai phrase wider than the line: broken between its clusters
            words = tuple(part for word in words for part in (word.parts if word.parts and word.w1 > limit
                                                              else (word,)))
        first = words[0]
        line = [first]
        used, space = first.w1, first.space_w1  # the line's width, and the spaces after its last word
        for word in words[1:]:
            w1 = word.w1
            grown = used + space + w1
            if grown <= limit:
                line.append(word)
                used = grown
            else:
                lines.append(_new(Line, (tuple(line), used, rtl, bidi)))
                line, used = [word], w1
            space = word.space_w1
        lines.append(_new(Line, (tuple(line), used, rtl, bidi)))
    return lines


class Fitted(NamedTuple):
    size: float
    lines: tuple[Line, ...]
    fits: bool
    leading: float = LEADING

    @property
    def height(self) -> float:
        return len(self.lines) * self.size * self.leading


def fits_at(text: Prepared, size: float, width: float, height: float, leading: float = LEADING,
            max_lines: int | None = None) -> Fitted:
    lines = wrap(text, size, width)
    ok = (len(lines) * size * leading <= height + _EPS
          and all(line.w1 * size <= width + _EPS for line in lines)
          and (max_lines is None or len(lines) <= max_lines))
    return _new(Fitted, (size, tuple(lines), ok, leading))


def fit(text: Prepared, size: float, min_size: float, width: float, height: float,
        leading: float = LEADING, max_lines: int | None = None) -> Fitted:
    """The largest size from ``size`` down to ``min_size`` (in SIZE_STEP steps) at which ``text`` fits.

    When even ``min_size`` does not fit, the block at ``min_size`` comes back
    with ``fits=False`` so the caller can name the card instead of printing
    clipped text.
    """
    return largest(size, min_size, lambda s: fits_at(text, s, width, height, leading, max_lines))


T = TypeVar("T", bound="Fitted | ListFit")


def largest(size: float, min_size: float, attempt: Callable[[float], T]) -> T:
    """Binary search over sizes ``size``, ``size - SIZE_STEP``, ... ``min_size`` for the largest that fits.

    Fitting is monotonic (a smaller size never needs more room), so about
    log2(steps) attempts decide it. When none fits, the attempt at ``min_size``.
    """
    best = attempt(size)
    if best.fits or size <= min_size:
        return best if best.fits else attempt(min_size)
    steps = int((size - min_size) / SIZE_STEP + 1e-9)
    low, high = 1, steps  # step k is size - k * SIZE_STEP; step 0 did not fit
    found: T | None = None
    while low <= high:
        mid = (low + high) // 2
        trial = attempt(size - mid * SIZE_STEP)
        if trial.fits:
            found, high = trial, mid - 1
        else:
            low = mid + 1
    return found if found is not None else attempt(min_size)


@dataclass(frozen=True)
class ListFit:
    """Entries of a list laid out at one size: each entry's lines, and the column it sits in."""

    size: float
    entries: tuple[tuple[Line, ...], ...]
    columns: int
    fits: bool
    leading: float = LEADING
    gap: float = 0.35


def fit_list_at(items: list[Prepared], size: float, width: float, height: float, columns: int,
                indent: float, leading: float = LEADING, gap: float = 0.35, col_gap: float = 6.0) -> ListFit:
    """Entries wrapped with a hanging indent of ``indent`` ems, filled column by column."""
    col_w = (width - (columns - 1) * col_gap) / columns
    text_w = col_w - indent * size
    entries = tuple(tuple(wrap(item, size, text_w)) for item in items)
    per_column = -(-len(items) // columns) if items else 0
    ok = text_w > 0
    for c in range(columns):
        chunk = entries[c * per_column:(c + 1) * per_column]
        tall = sum(len(e) for e in chunk) * size * leading + gap * size * max(0, len(chunk) - 1)
        ok = ok and tall <= height + _EPS
    ok = ok and all(line.w1 * size <= text_w + _EPS for e in entries for line in e)
    return ListFit(size, entries, columns, ok, leading, gap)


# --- drawing as data ---------------------------------------------------------------
# A text op is ("text", x, baseline, font, size, color, string, width, glyphs), glyphs a tuple of
# shaped runs (``Glyphs``) drawn one after another; an icon op is
# ("icon", name, x, bottom, size, color). The renderer replays them.

def line_ops(line: Line, size: float, x: float, baseline: float, color: RGB) -> list[tuple]:
    """Ops for one line, left to right in visual order (UAX #9's rule L2 over the line's pieces and
    spaces), neighbouring pieces of one font and colour merged into one run of glyphs."""
    items: list[Piece] = []
    add, extend = items.append, items.extend
    words = line.words
    for word in words[:-1]:
        joined = word.joined
        if joined is not None:
            add(joined)
        else:
            extend(word.pieces)
            if word.space is not None:
                add(word.space)
    if words:
        extend(words[-1].pieces)
    bidi = line.bidi
    if bidi:
        items = [items[i] for i in visual_order([p.level for p in items])]
    ops: list[tuple] = []
    font, ink, start = "", color, x
    glyphs: list | None = None
    texts: list[str] = []  # the op's characters in reading order: right-to-left pieces go first
    for piece_text, piece_font, piece_color, w1, icon, piece_glyphs, level in items:
        piece_color = piece_color or color
        if icon:
            if glyphs is not None:
                ops.append(("text", start, baseline, font, size, ink, "".join(texts), x - start, tuple(glyphs)))
                glyphs = None
            ops.append(("icon", icon, x + size * 0.02, baseline - size * 0.12, size, piece_color))
        elif glyphs is None:
            start, font, ink, texts, glyphs = x, piece_font, piece_color, [piece_text], [piece_glyphs]
        elif piece_font == font and piece_color == ink:
            if bidi and level % 2:
                texts.insert(0, piece_text)
            else:
                texts.append(piece_text)
            glyphs.append(piece_glyphs)
        else:
            ops.append(("text", start, baseline, font, size, ink, "".join(texts), x - start, tuple(glyphs)))
            start, font, ink, texts, glyphs = x, piece_font, piece_color, [piece_text], [piece_glyphs]
        x += w1 * size
    if glyphs is not None:
        ops.append(("text", start, baseline, font, size, ink, "".join(texts), x - start, tuple(glyphs)))
    return ops


def block_ops(fitted: Fitted, x: float, top: float, width: float, height: float, align: str,
              valign: str, color: RGB) -> list[tuple]:
    """Ops for a fitted block in the box whose top-left is (x, top), y growing upwards.

    ``align`` is left, right, center, or start and end: the side a line's paragraph starts or ends
    on (right for a right-to-left paragraph).
    """
    size = fitted.size
    block = fitted.height
    if valign == "middle":
        top -= (height - block) / 2
    elif valign == "bottom":
        top -= height - block
    ops: list[tuple] = []
    baseline = top - size * 0.93
    for line in fitted.lines:
        w = line.w1 * size
        side = absolute_align(align, line.rtl)
        lx = x + (width - w) / 2 if side == "center" else x + width - w if side == "right" else x
        ops.extend(line_ops(line, size, lx, baseline, color))
        baseline -= size * fitted.leading
    return ops


def absolute_align(align: str, rtl: bool) -> str:
    """left, right or center for ``align`` in a paragraph of this direction."""
    if align == "start":
        return "right" if rtl else "left"
    if align == "end":
        return "left" if rtl else "right"
    return align
