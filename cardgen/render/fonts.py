"""Fonts: families of TrueType files, a fallback chain, and which font has each character.

cardgen ships DejaVu Sans (Latin, Greek, Cyrillic and many symbols) inside
the package and embeds it in every PDF. A deck may declare TrueType families
of its own and a fallback chain; each character is drawn with the first font
of the chain that has it, and a character that no font has is reported by
name and U+ code instead of printing as an empty box.
"""
from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from ..model import DEFAULT_FAMILY, FontFamily
from ..resources import bundled

STYLES = ("regular", "bold", "italic", "bold_italic")
_DEFAULT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
                  "italic": "DejaVuSans-Oblique.ttf", "bold_italic": "DejaVuSans-BoldOblique.ttf"}


class FontFileError(ValueError):
    """A font file that cannot be used; the loader turns it into a located error."""


@lru_cache(maxsize=1)
def default_family() -> FontFamily:
    folder = bundled("fonts")
    return FontFamily(DEFAULT_FAMILY, tuple((style, folder / name) for style, name in _DEFAULT_FILES.items()))


@lru_cache(maxsize=256)
def register(path: Path) -> str:
    """The reportlab name of the TrueType font ``path``, registered on first use.

    Raises FontFileError for a file that is not a usable TrueType font. Cached on the path as given,
    before it is resolved: every page label and text width asks for the bundled face, and resolving
    its path each time (a ``stat`` per folder on the way) cost a fifth of a many-copy build.
    """
    return _register(str(Path(path).resolve()))


#: strings up to this length have their subset split remembered per document
SPLIT_CACHE_LENGTH = 48


class _TTFont(TTFont):
    """reportlab's TrueType font, remembering per document how the strings it wrote split into
    subsets: a deck's words recur on card after card, and the split of a string never changes once
    its characters have their codes in that document (codes are only ever added).

    Most text is characters that have taken their own code in the first subset (printable ASCII
    does, in the first document that writes it); a string of only those is its own bytes and needs
    no lookup at all. Other strings up to SPLIT_CACHE_LENGTH characters are remembered whole.
    """

    def __init__(self, name: str, path: str):
        super().__init__(name, path)
        self._splits: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def splitString(self, text, doc, encoding="utf-8"):
        memory = self._splits.get(doc)
        if memory is None:
            memory = self._splits[doc] = (set(), {})
        as_themselves, splits = memory
        if as_themselves.issuperset(text):
            return [(0, text.encode("latin-1"))] if text else []
        split = splits.get(text)
        if split is None:
            split = super().splitString(text, doc, encoding)
            if len(text) <= SPLIT_CACHE_LENGTH:  # a long run seldom recurs: not worth its memory
                splits[text] = split
            codes = self.state[doc].assignments
            as_themselves.update(c for c in set(text) if codes.get(ord(c), -1) == ord(c) < 256)
        return split


@lru_cache(maxsize=256)
def _register(path: str) -> str:
    digest = hashlib.sha1(path.encode()).hexdigest()[:8]
    # the bundled faces keep their plain names (DejaVuSans-Bold); a deck's get a path digest
    bundled_font = Path(path).parent == bundled("fonts").resolve()
    name = Path(path).stem if bundled_font else f"{Path(path).stem}-{digest}"
    try:
        font = _TTFont(name, path)
    except TTFError as exc:
        raise FontFileError(f"not a usable TrueType font ({exc})") from None
    except (OSError, ValueError, KeyError, IndexError, AssertionError) as exc:
        raise FontFileError(f"not a usable TrueType font ({exc.__class__.__name__})") from None
    pdfmetrics.registerFont(font)
    return name


@lru_cache(maxsize=256)
def coverage(name: str) -> frozenset[str]:
    """The characters the registered font ``name`` has a glyph for."""
    return frozenset(chr(code) for code in pdfmetrics.getFont(name).face.charToGlyph)


@dataclass(frozen=True)
class FontChain:
    """Families tried in order for every character; DejaVu Sans is always last."""

    families: tuple[FontFamily, ...] = field(default_factory=lambda: (default_family(),))

    def starting_with(self, family: FontFamily | None) -> FontChain:
        if family is None or (self.families and self.families[0] == family):
            return self
        return FontChain((family,) + tuple(f for f in self.families if f != family))

    @property
    def names(self) -> str:
        return ", ".join(f.name for f in self.families)

    def fonts(self, style: str) -> tuple[str, ...]:
        """The registered font of each family for ``style``, in chain order."""
        cache = self._fonts
        if style not in cache:
            cache[style] = tuple(register(family.file(style)) for family in self.families)
        return cache[style]

    @cached_property
    def _fonts(self) -> dict[str, tuple[str, ...]]:
        return {}

    def split(self, text: str, style: str) -> list[tuple[str | None, str]]:
        """``text`` cut into runs of one font each; a run no font covers has font None."""
        fonts = self.fonts(style)
        first = fonts[0]
        if coverage(first).issuperset(text):
            return [(first, text)]
        runs: list[tuple[str | None, str]] = []
        for char in text:
            font = next((f for f in fonts if char in coverage(f)), None)
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + char)
            else:
                runs.append((font, char))
        return runs

    def missing(self, text: str, style: str = "regular") -> list[str]:
        """Characters of ``text`` that no font of the chain has, in order, once each."""
        fonts = self.fonts(style)
        out: list[str] = []
        for char in dict.fromkeys(text):
            if char in "\n\t" or any(char in coverage(f) for f in fonts):
                continue
            out.append(char)
        return out


def describe(char: str) -> str:
    """``'あ' (U+3042)`` for a finding."""
    return f"{char!r} (U+{ord(char):04X})"
