"""Shaping, direction and line breaks: what turns characters into positioned glyphs.

- **Shaping** is HarfBuzz's (uharfbuzz): every run of one face, style and
  direction is shaped with the face's own file, kerning, ligatures and the
  script's own rules on (Arabic joining, Indic conjuncts, Thai marks), plus the
  OpenType ``features`` its family asks for. A run is shaped once per process.
- **Direction** is the Unicode Bidirectional Algorithm (UAX #9), from
  python-bidi: each character gets an embedding level, a paragraph's base
  direction comes from its first strong character or is given, and a line's
  runs are put in visual order by rule L2 when it is drawn.
- **Line breaks** are UAX #14's, from unicode-segmentation-rs (Rust's
  unicode-linebreak): CJK breaks between ideographs, never before closing
  punctuation such as 。 or 、, and never after opening brackets. Scripts
  written without spaces that need a dictionary (Thai, Lao, Khmer, Myanmar)
  break only at spaces, and between grapheme clusters where a phrase is wider
  than the line.
"""
from __future__ import annotations

import re
import threading
from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import NamedTuple

import uharfbuzz as hb
import unicode_segmentation_rs

from .fonts import face

#: characters of the scripts written right to left, and the explicit direction marks: text with
#: none of them is all left to right, and the bidi algorithm need not run
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067"
                  "\U00010800-\U00010fff\U0001e800-\U0001efff]")
#: South-East Asian scripts that need a dictionary to find word breaks (UAX #14 class SA)
_SA = re.compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff\u1a20-\u1aaf\uaa60-\uaadf]")


class Glyphs(NamedTuple):
    """A shaped run, glyphs in visual order (left to right), positions in font units.

    ``texts`` gives each glyph the characters it stands for, for the PDF's text layer: a ligature
    stands for all its characters, and the second and later glyphs of a cluster for none.
    """

    ids: tuple[int, ...]
    advances: tuple[int, ...]
    x_offsets: tuple[int, ...]
    y_offsets: tuple[int, ...]
    texts: tuple[str, ...]
    upem: int
    #: the index in the shaped text of the first character of each glyph's cluster
    clusters: tuple[int, ...] = ()
    rtl: bool = False
    #: a glyph stands for no character (a cluster of several glyphs) or for several letters beyond
    #: ASCII (Arabic's lam-alef): the PDF's text layer needs the run's text as a whole (ActualText)
    tangled: bool = False

    @property
    def w1(self) -> float:
        """The width at 1 pt."""
        return sum(self.advances) / self.upem

    def __add__(self, other: tuple) -> Glyphs:
        assert isinstance(other, Glyphs)
        count = len(self.ids) + len(other.ids)
        x_offsets = _zeros(count) if not any(self.x_offsets) and not any(other.x_offsets) \
            else self.x_offsets + other.x_offsets
        y_offsets = _zeros(count) if not any(self.y_offsets) and not any(other.y_offsets) \
            else self.y_offsets + other.y_offsets
        return Glyphs(self.ids + other.ids, self.advances + other.advances, x_offsets, y_offsets,
                      self.texts + other.texts, self.upem, (), self.rtl, self.tangled or other.tangled)

    def chars(self, start: int, stop: int) -> Glyphs:
        """The glyphs of the characters ``start`` to ``stop`` (clusters that begin there): a contiguous
        run, since HarfBuzz keeps clusters in order (reversed right to left)."""
        clusters = self.clusters
        if self.rtl:
            negated = self._negated
            lo, hi = bisect_right(negated, -stop), bisect_right(negated, -start)
        else:
            lo, hi = bisect_left(clusters, start), bisect_left(clusters, stop)
        texts = self.texts[lo:hi]
        return Glyphs(self.ids[lo:hi], self.advances[lo:hi], self.x_offsets[lo:hi], self.y_offsets[lo:hi],
                      texts, self.upem, clusters[lo:hi], self.rtl, self.tangled and _tangled(texts))

    @property
    def _negated(self) -> tuple[int, ...]:
        return tuple(-c for c in self.clusters)


_local = threading.local()  # a buffer each thread reuses (serve builds in a thread of its own)


@lru_cache(maxsize=32768)  # mostly words: a deck's recur card after card
def shape(text: str, font: str, rtl: bool = False, features: tuple[tuple[str, int], ...] = ()) -> Glyphs:
    """``text`` shaped with the registered face ``font``, right to left when ``rtl``."""
    f = face(font)
    if not text:
        return Glyphs((), (), (), (), (), f.upem, (), rtl, False)
    buf = getattr(_local, "buffer", None)
    if buf is None:
        buf = _local.buffer = hb.Buffer()
        # clusters of characters, so a mark has its own (kept by clear_contents, as the flags are)
        buf.cluster_level = hb.BufferClusterLevel.MONOTONE_CHARACTERS
    else:
        buf.clear_contents()
    buf.add_str(text)  # clusters count characters (code points), as str indexes do
    buf.guess_segment_properties()
    if rtl or not text.isascii():
        buf.direction = "rtl" if rtl else "ltr"  # ASCII guesses left to right
    hb.shape(f.hb_font, buf, dict(features) if features else None)
    infos, positions = buf.glyph_infos, buf.glyph_positions
    # glyph ids and advances as shared int objects, and runs of zeros and of cluster numbers as
    # shared tuples: a build keeps every word it has shaped, mostly with no offsets, one glyph a letter
    same = _SAME.setdefault
    clusters = tuple([i.cluster for i in infos])
    ids = tuple([same(i.codepoint, i.codepoint) for i in infos])
    advances = tuple([same(p.x_advance, p.x_advance) for p in positions])
    x_offsets = tuple([p.x_offset for p in positions])
    y_offsets = tuple([p.y_offset for p in positions])
    count = len(ids)
    if not any(x_offsets):
        x_offsets = _zeros(count)
    if not any(y_offsets):
        y_offsets = _zeros(count)
    n = len(text)
    if count == n and clusters == _counting(n, rtl):
        # a glyph for each character, the common case
        return Glyphs(ids, advances, x_offsets, y_offsets, tuple(text[::-1] if rtl else text), f.upem,
                      _counting(n, rtl), rtl, False)
    # the characters of each cluster, given to the cluster's first glyph in logical order
    starts = sorted(set(clusters))
    ends = dict(zip(starts, starts[1:] + [n]))
    texts = [""] * len(ids)
    seen: set[int] = set()
    for i in (range(len(ids) - 1, -1, -1) if rtl else range(len(ids))):
        c = clusters[i]
        if c not in seen:
            seen.add(c)
            texts[i] = text[c:ends[c]]
    return Glyphs(ids, advances, x_offsets, y_offsets, tuple(texts), f.upem, clusters, rtl, _tangled(texts))


#: numbers met in glyph runs, each kept as one object (font units and glyph ids recur)
_SAME: dict[int, int] = {}


@lru_cache(maxsize=256)
def _zeros(count: int) -> tuple[int, ...]:
    return (0,) * count


@lru_cache(maxsize=256)
def _counting(count: int, down: bool) -> tuple[int, ...]:
    """0 to ``count - 1``, or down from ``count - 1`` to 0."""
    return tuple(range(count - 1, -1, -1)) if down else tuple(range(count))


def _tangled(texts) -> bool:
    return "" in texts or any(len(t) > 1 and not t.isascii() for t in texts)


def needs_bidi(text: str) -> bool:
    return _RTL.search(text) is not None


def base_rtl(text: str, direction: str = "auto") -> bool:
    """Whether a paragraph runs right to left: as given, or from its first strong character (P2, P3)."""
    if direction != "auto":
        return direction == "rtl"
    if not needs_bidi(text):
        return False
    from bidi.algorithm import get_base_level

    return bool(get_base_level(text))


@lru_cache(maxsize=4096)
def levels(text: str, rtl: bool) -> tuple[int, ...]:
    """The embedding level of each character of a paragraph (UAX #9, rules up to I2)."""
    if not rtl and not needs_bidi(text):
        return (0,) * len(text)
    from bidi import algorithm as uba

    storage = uba.get_empty_storage()
    storage["base_level"] = int(rtl)
    storage["base_dir"] = "R" if rtl else "L"
    uba.get_embedding_levels(text, storage)
    uba.explicit_embed_and_overrides(storage, False)
    uba.resolve_weak_types(storage, False)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    # rule X9 removed the embedding controls and boundary neutrals (joiners): each takes the level
    # of the character before it
    chars = storage["chars"]
    out: list[int] = []
    j = 0
    for char in text:
        if j < len(chars) and chars[j]["ch"] == char:
            out.append(chars[j]["level"])
            j += 1
        else:
            out.append(out[-1] if out else int(rtl))
    return tuple(out)


def visual_order(levels: list[int]) -> list[int]:
    """Indexes of items in the order they are drawn left to right, by rule L2: from the highest level
    down to the lowest odd one, every run of items at that level or above is reversed."""
    order = list(range(len(levels)))
    if not levels or max(levels) == 0:
        return order
    lowest_odd = min(lv for lv in levels if lv % 2) if any(lv % 2 for lv in levels) else max(levels)
    for level in range(max(levels), lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order


@lru_cache(maxsize=4096)
def break_units(text: str) -> tuple[str, ...]:
    """``text`` cut at its UAX #14 line break opportunities; each unit keeps its trailing spaces."""
    if text.isascii() and _SIMPLE.fullmatch(text):
        return _split_at_spaces(text)
    return tuple(unicode_segmentation_rs.line_break_units(text))


#: plain ASCII words and punctuation: UAX #14 breaks these only after spaces
_SIMPLE = re.compile(r"[A-Za-z0-9 .,;:!?'\"()&+=*%#@$]*")


def _split_at_spaces(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for word in re.findall(r"[^ ]+ *| +", text):
        if out and word.startswith(" "):
            out[-1] += word
        else:
            out.append(word)
    return tuple(out)


def emergency_breakable(text: str) -> bool:
    """Text in a script that UAX #14 cannot break without a dictionary (Thai, Lao, Khmer, Myanmar)."""
    return _SA.search(text) is not None


def clusters(text: str) -> list[str]:
    return unicode_segmentation_rs.graphemes(text, True)
