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
from collections.abc import Callable, Container
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from reportlab.pdfbase.pdfmetrics import stringWidth

from ..model import RGB
from .fonts import FontChain

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
    """Part of a word in one font and colour, or an inline icon; ``w1`` is its width at 1 pt."""

    text: str
    font: str
    color: RGB | None
    w1: float
    icon: str = ""


class Word(NamedTuple):
    pieces: tuple[Piece, ...]
    w1: float
    #: the space after this word, in its last font, at 1 pt
    space_w1: float


@dataclass(frozen=True)
class Prepared:
    """Text ready to wrap: paragraphs of measured words, and characters no font has."""

    paragraphs: tuple[tuple[Word, ...], ...]
    missing: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return not any(self.paragraphs)


#: a number, alone or with its sign, unit sign or fraction: kept on one line with the next word
_NUMBER = re.compile(r"^[+−-]?\d+(?:[.,/]\d+)?[%×]?$")


def _style(run: Run) -> str:
    return ("bold_italic" if run.italic else "bold") if run.bold else ("italic" if run.italic else "regular")


@lru_cache(maxsize=65536)
def width1(text: str, font: str) -> float:
    return stringWidth(text, font, 1.0)


@lru_cache(maxsize=65536)
def _word(text: str, font: str, color: RGB | None) -> Word:
    """A word of one piece, as ``prepare`` would build it."""
    w = width1(text, font)
    return _new(Word, ((_new(Piece, (text, font, color, w, "")),), w, width1(" ", font)))


def prepare(runs: list[Run], chain: FontChain) -> Prepared:
    paragraphs: list[tuple[Word, ...]] = []
    words: list[Word] = []
    pieces: list[Piece] = []
    width = 0.0
    missing: dict[str, None] = {}
    space_font = last_font = chain.fonts("regular")[0]

    def end_word() -> None:
        nonlocal pieces, width
        if pieces:
            words.append(_new(Word, (tuple(pieces), width, width1(" ", last_font))))
            pieces = []
            width = 0.0

    for run in runs:
        if run.icon:
            pieces.append(Piece("", space_font, run.color, ICON_EM, run.icon))
            width += ICON_EM
            continue
        if run.text == "\n":
            end_word()
            paragraphs.append(tuple(words))
            words = []
            continue
        style = _style(run)
        for font, part in chain.split(run.text, style):
            if font is None:
                missing.update(dict.fromkeys(c for c in part if c != " "))
                font = chain.fonts(style)[0]
            chunks = part.split(" ")
            inner = len(chunks) - 1  # chunks before this are whole words, with spaces both sides
            for i, chunk in enumerate(chunks):
                if (0 < i < inner and chunk
                        and not ((chunk[-1].isdecimal() or chunk[-1] in "%×") and _NUMBER.match(chunk))
                        and not (pieces and _NUMBER.match(pieces[-1].text))):
                    # the common case, a whole word in one font: measured once per deck
                    if pieces:
                        end_word()
                    words.append(_word(chunk, font, run.color))
                    last_font = font
                    continue
                if i and pieces and _NUMBER.match(pieces[-1].text) and chunk:
                    # a number and what it counts stay on one line ("7 links", "5 ×")
                    space = width1(" ", pieces[-1].font)
                    pieces.append(_new(Piece, (" ", pieces[-1].font, pieces[-1].color, space, "")))
                    width += space
                elif i:
                    end_word()
                if chunk:
                    w = width1(chunk, font)
                    pieces.append(_new(Piece, (chunk, font, run.color, w, "")))
                    width += w
                    last_font = font
    end_word()
    paragraphs.append(tuple(words))
    return Prepared(tuple(paragraphs), tuple(missing))


# --- wrapping and fitting ----------------------------------------------------------

Line = tuple[tuple[Word, ...], float]  # words and width at 1 pt


def wrap(text: Prepared, size: float, box_width: float) -> list[Line]:
    """Greedy word wrap at ``size``; a word wider than the box stays whole (and won't fit)."""
    limit = (box_width + _EPS) / size
    lines: list[Line] = []
    for paragraph in text.paragraphs:
        if not paragraph:
            lines.append(((), 0.0))
            continue
        line = [paragraph[0]]
        used = paragraph[0].w1
        for word in paragraph[1:]:
            grown = used + line[-1].space_w1 + word.w1
            if grown <= limit:
                line.append(word)
                used = grown
            else:
                lines.append((tuple(line), used))
                line, used = [word], word.w1
        lines.append((tuple(line), used))
    return lines


@dataclass(frozen=True)
class Fitted:
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
          and all(w * size <= width + _EPS for _, w in lines)
          and (max_lines is None or len(lines) <= max_lines))
    return Fitted(size, tuple(lines), ok, leading)


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
    ok = ok and all(w * size <= text_w + _EPS for e in entries for _, w in e)
    return ListFit(size, entries, columns, ok, leading, gap)


# --- drawing as data ---------------------------------------------------------------
# A text op is ("text", x, baseline, font, size, color, string, width); an icon op is
# ("icon", name, x, bottom, size, color). The renderer replays them.

def line_ops(line: Line, size: float, x: float, baseline: float, color: RGB) -> list[tuple]:
    """Ops for one line, merging neighbouring words of one font and colour into one string."""
    ops: list[tuple] = []
    words, _ = line
    text, font, ink, start = "", "", color, x
    for i, word in enumerate(words):
        if i:
            prev = words[i - 1]
            if text:
                text += " "
            x += prev.space_w1 * size
        for piece in word.pieces:
            piece_color = piece.color or color
            if piece.icon:
                if text:
                    ops.append(("text", start, baseline, font, size, ink, text, x - start))
                    text = ""
                ops.append(("icon", piece.icon, x + size * 0.02, baseline - size * 0.12, size, piece_color))
            else:
                if text and (piece.font != font or piece_color != ink):
                    # the space stays with the words before it, so the next string starts where
                    # this one ends and the writer need not move the text cursor
                    ops.append(("text", start, baseline, font, size, ink, text, x - start))
                    text = ""
                if not text:
                    start, font, ink = x, piece.font, piece_color
                text += piece.text
            x += piece.w1 * size
    if text:
        ops.append(("text", start, baseline, font, size, ink, text, x - start))
    return ops


def block_ops(fitted: Fitted, x: float, top: float, width: float, height: float, align: str,
              valign: str, color: RGB) -> list[tuple]:
    """Ops for a fitted block in the box whose top-left is (x, top), y growing upwards."""
    size = fitted.size
    block = fitted.height
    if valign == "middle":
        top -= (height - block) / 2
    elif valign == "bottom":
        top -= height - block
    ops: list[tuple] = []
    baseline = top - size * 0.93
    for line in fitted.lines:
        w = line[1] * size
        lx = x + (width - w) / 2 if align == "center" else x + width - w if align == "right" else x
        ops.extend(line_ops(line, size, lx, baseline, color))
        baseline -= size * fitted.leading
    return ops
