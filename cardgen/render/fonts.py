"""Fonts: faces of font files and system families, a fallback chain, and which font has each character.

cardgen ships DejaVu Sans (Latin, Greek, Cyrillic and many symbols) inside
the package and embeds it in every PDF. A deck may declare families of its
own: TrueType or OpenType files (``.ttf``, ``.otf``), a face of a collection
(``.ttc``, ``.otc``), or a family installed on the machine, found through
fontconfig. Every run of text is shaped by HarfBuzz with the face's own
file (shaping.py), so each face here is a HarfBuzz face; the PDF writer
(pdffont.py) embeds the glyphs a document uses.

Each grapheme cluster (a letter with its marks, an emoji with its skin tone
or joiners, a flag) is drawn with the first font of the chain that has every
character of it; a cluster that no font has is reported by name and U+ code
instead of printing as an empty box.
"""
from __future__ import annotations

import difflib
import hashlib
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import uharfbuzz as hb
from fontTools import unicodedata as ucd

from ..model import DEFAULT_FAMILY, FontFamily
from ..resources import bundled

STYLES = ("regular", "bold", "italic", "bold_italic")
_DEFAULT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
                  "italic": "DejaVuSans-Oblique.ttf", "bold_italic": "DejaVuSans-BoldOblique.ttf"}
#: characters HarfBuzz hides when a font lacks them (joiners, variation selectors, tags): a cluster
#: needs a font for the others only
_IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e0fff]")
#: a cluster with one of these wants its colour (emoji) form: the emoji variation selector, a skin
#: tone, a joiner, a regional indicator (flags), a keycap
_WANTS_COLOUR = re.compile("[\ufe0f\u200d\u20e3\U0001f1e6-\U0001f1ff\U0001f3fb-\U0001f3ff]")
#: code points that are emoji by default (most of the pictographic planes)
_EMOJI_DEFAULT = re.compile("[\U0001f000-\U0001faff]")


class FontFileError(ValueError):
    """A font file that cannot be used; the resolve step turns it into a located error."""


class SystemFontError(ValueError):
    """A system family that cannot be found; the message lists close matches."""


@lru_cache(maxsize=1)
def default_family() -> FontFamily:
    folder = bundled("fonts")
    return FontFamily(DEFAULT_FAMILY, tuple((style, folder / name) for style, name in _DEFAULT_FILES.items()))


@dataclass(eq=False)
class Face:
    """One face of a font file, ready for HarfBuzz: its name in drawing ops, metrics and coverage."""

    name: str
    path: Path
    index: int
    hb_face: hb.Face
    upem: int
    #: the characters it has a glyph for
    chars: frozenset[str]
    #: colour glyphs (CBDT/CBLC bitmaps, sbix, COLR layers): drawn as pictures, not as a font
    color: bool
    #: OpenType script tags its GSUB and GPOS tables have rules for
    scripts: frozenset[str]

    @cached_property
    def hb_font(self) -> hb.Font:
        return hb.Font(self.hb_face)

    @cached_property
    def space_safe(self) -> bool:
        """Whether no substitution or positioning rule of the face looks at the space glyph, so words
        between spaces shape alone exactly as they do in their line (and a deck's recurring words are
        shaped once). Another face is read once (``space_safe``). The bundled faces are taken as
        safe without reading: their one such rule joins a space to an Arabic haraka after it
        (U+064B to U+0652), in Arabic script only, which runs right to left and is never shaped a
        word at a time (a test holds that this is their only such rule)."""
        if self.path.parent == bundled("fonts").resolve():
            return True
        return space_safe(self.path, self.index)

    @cached_property
    def digits_alone(self) -> bool:
        """Whether each digit of a word without combining marks shapes alone as in the word (no rule
        but mark attachment looks at a digit, and only marks have mark glyphs), so a new number is put
        together from its digits, not shaped. The bundled faces are (a test holds it); another is
        read once."""
        if self.path.parent == bundled("fonts").resolve():
            return True
        return digits_alone(self.path, self.index)

    @cached_property
    def space(self) -> int:
        """The glyph of U+0020 (0 when the font has none)."""
        return self.hb_font.get_nominal_glyph(0x20) or 0


_FACES: dict[str, Face] = {}


def face(name: str) -> Face:
    """The registered face ``name`` (from ``register``)."""
    return _FACES[name]


@lru_cache(maxsize=256)
def register(path: Path, index: int = 0) -> str:
    """The name of face ``index`` of the font file ``path``, loaded on first use.

    Raises FontFileError for a file that is no usable font or an index the file does not have.
    Cached on the path as given, before it is resolved: every page label and text width asks for
    the bundled face, and resolving its path each time (a ``stat`` per folder) costs.
    """
    return _register(str(Path(path).resolve()), index)


@lru_cache(maxsize=256)
def _register(path: str, index: int) -> str:
    digest = hashlib.sha1(f"{path}#{index}".encode()).hexdigest()[:8]
    # the bundled faces keep their plain names (DejaVuSans-Bold); a deck's get a path digest
    bundled_font = Path(path).parent == bundled("fonts").resolve()
    name = Path(path).stem if bundled_font else f"{Path(path).stem}-{digest}"
    data = Path(path).read_bytes()
    _check_font(path, data, index)
    hb_face = hb.Face(hb.Blob(data), index)
    if not hb_face.unicodes:
        raise FontFileError("a font with no Unicode character map")
    tags = set(hb_face.table_tags)
    scripts = frozenset(hb_face.get_table_script_tags("GSUB")) | frozenset(hb_face.get_table_script_tags("GPOS"))
    _FACES[name] = Face(name, Path(path), index, hb_face, hb_face.upem,
                        frozenset(map(chr, hb_face.unicodes)), bool(tags & {"CBDT", "sbix", "COLR"}), scripts)
    return name


def _check_font(path: str, data: bytes, index: int) -> None:
    """Read what shaping and embedding read, so a broken file is one message here, not a traceback later.

    The face's tables are read as the PDF writer reads them (pdffont.py: each table's extent,
    head, hhea, maxp, hmtx, loca against glyf), from their bytes; CFF outlines are parsed whole.
    """
    from .pdffont import FontProgramError, embedded_font

    if data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf"):
        raise FontFileError("not a font: use a TrueType or OpenType file (.ttf, .otf, .ttc or .otc)")
    try:
        if data[:4] == b"ttcf":
            count = struct.unpack_from(">I", data, 8)[0] if len(data) >= 12 else 0
            if index >= count:
                raise FontFileError(f"a collection of {count} faces, so index {index} is none of them "
                                    f"(faces are numbered 0 to {count - 1})")
        elif index:
            raise FontFileError(f"a single font, not a collection, so it has no face {index}")
        font = embedded_font(path, index)
        if font.outlines == "none" and not {"CBDT", "sbix"} & set(font.tables):
            raise FontFileError("a font with no glyph outlines")
        if font.outlines == "cff":
            font.parse_cff()
    except FontFileError:
        raise
    except FontProgramError as exc:
        # the caller names the file: the reason alone
        reason = exc.message.partition("': ")[2] if exc.message.startswith("font file '") else exc.message
        raise FontFileError(f"not a usable font ({reason})") from None
    except Exception as exc:
        raise FontFileError(f"not a usable font (a damaged or cut-off file: {exc.__class__.__name__})") from None


def space_safe(path: Path, index: int = 0) -> bool:
    """No rule of the face looks at the space glyph, so a word between spaces shapes alone as in its
    line: no GSUB or GPOS lookup names it (in a coverage or class table, as a pair's second glyph, a
    ligature's component or a substitution's glyph), no class-based rule matches it as a glyph of no
    class (class 0), and no pair of the old ``kern`` table holds it (HarfBuzz applies that table to
    a face without GPOS kerning). Anything unreadable counts as not safe."""
    return _untouched(path, index, *_version(path))[0]


def digits_alone(path: Path, index: int = 0) -> bool:
    """No rule of the face but mark attachment looks at a digit (as ``space_safe`` looks for the
    space), and only combining marks have mark glyphs: each digit of a word without marks then
    shapes alone as in the word."""
    return _untouched(path, index, *_version(path))[1]


def _version(path: Path) -> tuple[int, int]:
    """The file's time and size, so an edited font is read again."""
    try:
        stat = path.stat()
    except OSError:
        return (0, 0)
    return (stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _untouched(path: Path, index: int, mtime: int = 0, size: int = 0) -> tuple[bool, bool]:
    """(``space_safe``, ``digits_alone``) of a face (the file as of ``mtime`` and ``size``), from one
    reading of its tables."""
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(str(path), fontNumber=index if path.suffix.lower() in (".ttc", ".otc") else -1, lazy=True)
        cmap = font.getBestCmap()
        space = cmap.get(32)
        digits = [cmap.get(c) for c in range(0x30, 0x3A)]
        space_ok, digits_ok = True, None not in digits
        spaces, numbers = {space}, set(digits)
        if "kern" in font:
            pairs = [pair for table in font["kern"].kernTables for pair in getattr(table, "kernTable", {})]
            space_ok = not any(space in pair for pair in pairs)
            digits_ok = digits_ok and not any(numbers.intersection(pair) for pair in pairs)
        if digits_ok and "GDEF" in font and font["GDEF"].table.GlyphClassDef is not None:
            # a character no combining mark whose glyph the face treats as one
            classes = font["GDEF"].table.GlyphClassDef.classDefs
            digits_ok = not any(classes.get(glyph) == 3 and not ucd.category(chr(code)).startswith("M")
                                for code, glyph in cmap.items())
        for tag in ("GSUB", "GPOS"):
            if tag not in font or font[tag].table.LookupList is None:
                continue
            table = font[tag].table
            table.ensureDecompiled(recurse=True)  # a lazy font's subtables hold only their reader
            for lookup in table.LookupList.Lookup:
                for sub in lookup.SubTable:
                    kind = getattr(sub, "ExtensionLookupType", lookup.LookupType)
                    if space_ok and space is not None and _mentions(sub, spaces):
                        space_ok = False
                    if digits_ok and not (tag == "GPOS" and kind in _MARK_ATTACHMENT) and _mentions(sub, numbers):
                        digits_ok = False
                if not space_ok and not digits_ok:
                    return False, False
    except Exception:
        return False, False
    return space_ok, bool(digits_ok)


#: GPOS lookup types that attach a mark to a base, a ligature or another mark
_MARK_ATTACHMENT = (4, 5, 6)


def _mentions(subtable: Any, glyphs: set[str]) -> bool:
    """Whether a lookup's subtable (and what it holds) can match or make one of ``glyphs``."""
    from fontTools.ttLib.tables.otBase import BaseTable

    stack = [subtable]
    while stack:
        node = stack.pop()
        unclassed = False  # one of the glyphs is in no class of some class table of this node
        for name, value in vars(node).items():
            if name.endswith("Coverage"):
                if any(v is not None and not glyphs.isdisjoint(v.glyphs)
                       for v in (value if isinstance(value, list) else [value])):
                    return True
            elif name.startswith("ClassDef") and hasattr(value, "classDefs"):
                classes = [value.classDefs.get(g, 0) for g in glyphs]
                if any(classes):
                    return True
                unclassed = True
            elif isinstance(value, str):
                if value in glyphs:  # a pair's second glyph, a substitute
                    return True
            elif isinstance(value, dict):  # substitutions read into mappings: glyph -> glyph(s)
                if not glyphs.isdisjoint(value) or any(
                        (isinstance(v, str) and v in glyphs) or (isinstance(v, list) and not glyphs.isdisjoint(
                            g for g in v if isinstance(g, str))) for v in value.values()):
                    return True
                stack.extend(v for item in value.values() if isinstance(item, list) for v in item
                             if isinstance(v, BaseTable))
            elif isinstance(value, list):
                if not glyphs.isdisjoint(v for v in value if isinstance(v, str)):  # components, sequences
                    return True
                stack.extend(v for v in value if isinstance(v, BaseTable))
            elif isinstance(value, BaseTable):
                stack.append(value)
        if unclassed and _uses_class_zero(node):
            return True
    return False


def _uses_class_zero(node: Any) -> bool:
    """Whether a class-based subtable has a rule for class 0 (the glyphs no class holds): a class
    pair with a non-zero adjustment, or a contextual rule that matches class 0."""
    if hasattr(node, "Class1Record"):  # PairPos format 2: the second glyph of class 0
        return any(record.Class2Record and (_nonzero(getattr(record.Class2Record[0], "Value1", None))
                                            or _nonzero(getattr(record.Class2Record[0], "Value2", None)))
                   for record in node.Class1Record)
    for kind in ("SubClass", "PosClass", "ChainSubClass", "ChainPosClass"):
        for rule_set in getattr(node, kind + "Set", None) or ():
            rules = getattr(rule_set, kind + "Rule", None) if rule_set is not None else None
            for rule in rules or ():
                if any(0 in (getattr(rule, seq, None) or ()) for seq in ("Class", "Input", "Backtrack", "LookAhead")):
                    return True
    return False


def _nonzero(value: Any) -> bool:
    return value is not None and any(getattr(value, field, 0) for field in
                                     ("XPlacement", "YPlacement", "XAdvance", "YAdvance"))


def coverage(name: str) -> frozenset[str]:
    """The characters the registered face ``name`` has a glyph for."""
    return _FACES[name].chars


# --- system fonts ------------------------------------------------------------------

_FC_STYLE = {"regular": ":weight=regular:slant=roman", "bold": ":weight=bold:slant=roman",
             "italic": ":weight=regular:slant=italic", "bold_italic": ":weight=bold:slant=italic"}


@lru_cache(maxsize=64)
def system_family(family: str) -> FontFamily:
    """The faces fontconfig has for ``family``, as a family of files (styles it lacks left out).

    Raises SystemFontError when fontconfig is missing or has no such family, naming close matches.
    """
    if shutil.which("fc-match") is None:
        raise SystemFontError("system fonts are found with fontconfig (fc-match), which is not installed "
                              "here; give the font's file instead")
    files, indexes = [], []
    for style, pattern in _FC_STYLE.items():
        fields = "%{file}\\n%{index}\\n%{family}\\n%{weight}\\n%{slant}\\n%{matrix}\\n%{embolden}\\n"
        out = _fc(["fc-match", "-f", fields, family + pattern]).split("\n")
        if len(out) < 7 or not out[0]:
            continue
        file, index, families, weight, slant, matrix, embolden = out[:7]
        if family.casefold() not in (f.strip().casefold() for f in families.split(",")):
            if style == "regular":
                raise SystemFontError(f"no font family '{family}' is installed{_close(family)}")
            continue
        bold, italic = _number(weight) >= 150, _number(slant) >= 100
        # a slant fontconfig would add by a matrix (xx xy yx yy; a bitmap font's scale is no slant), or
        # a bold it would add by emboldening
        terms = matrix.split()
        synthetic = (len(terms) == 4 and _number(terms[1]) != 0) or embolden.strip().lower() in ("true", "1")
        if synthetic or (bold, italic) != ("bold" in style, "italic" in style):
            continue  # fontconfig's nearest face (or one it slants or emboldens): the family lacks it
        files.append((style, Path(file)))
        if _number(index):
            indexes.append((style, int(_number(index))))
    return FontFamily(family, tuple(files), tuple(indexes), family)


def _number(text: str) -> float:
    try:
        return float(text.split()[0].strip("[]"))
    except (ValueError, IndexError):
        return 0.0


def _fc(args: list[str]) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _close(family: str) -> str:
    names = sorted({line.split(",")[0].strip() for line in _fc(["fc-list", "--format", "%{family}\\n"]).split("\n")
                    if line.strip()})
    close = difflib.get_close_matches(family, names, n=5, cutoff=0.5)
    close += [n for n in names if family.casefold() in n.casefold() and n not in close][:5 - len(close)]
    return f"; close matches: {', '.join(close)}" if close else " (fc-list shows the installed families)"


def resolved(family: FontFamily) -> FontFamily:
    """``family`` with the files of a system family filled in (a file family as it is)."""
    if not family.system:
        return family
    found = system_family(family.system)
    return FontFamily(family.name, found.files, found.indexes, family.system, family.features)


# --- the chain ----------------------------------------------------------------------

def script_of(char: str) -> str:
    """The Unicode script's name of ``char`` ('Arabic', 'Han'), for findings."""
    return ucd.script_name(ucd.script(char))


@dataclass(frozen=True)
class Fallback:
    """A style a family lacks, printed in another face: ``text`` in ``style`` printed ``used``."""

    family: str
    style: str
    used: str
    text: str


@dataclass(frozen=True)
class FontChain:
    """Families tried in order for every grapheme cluster; DejaVu Sans is always last."""

    families: tuple[FontFamily, ...] = field(default_factory=lambda: (default_family(),))

    def starting_with(self, family: FontFamily | None) -> FontChain:
        if family is None or (self.families and self.families[0] == family):
            return self
        return FontChain((family,) + tuple(f for f in self.families if f != family))

    @property
    def names(self) -> str:
        return ", ".join(f.name for f in self.families)

    @cached_property
    def _resolved(self) -> tuple[FontFamily, ...]:
        return tuple(resolved(f) for f in self.families)

    def fonts(self, style: str) -> tuple[str, ...]:
        """The registered face of each family for ``style``, in chain order."""
        cache = self._fonts
        if style not in cache:
            cache[style] = tuple(register(*family.face(style)) for family in self._resolved)
        return cache[style]

    def features(self, font: str) -> tuple[tuple[str, int], ...]:
        """The OpenType features the family of ``font`` asks for."""
        return self._features.get(font, ())

    @cached_property
    def _features(self) -> dict[str, tuple[tuple[str, int], ...]]:
        out: dict[str, tuple[tuple[str, int], ...]] = {}
        for family in self._resolved:
            if family.features:
                for style in STYLES:
                    out.setdefault(register(*family.face(style)), family.features)
        return out

    def lacks(self, font: str, style: str) -> Fallback | None:
        """The fallback when ``font`` was chosen for ``style`` by a family that has no such face."""
        if style == "regular":
            return None
        key = (font, style)
        if key not in self._lacking:
            self._lacking[key] = None
            for family, name in zip(self._resolved, self.fonts(style)):
                if name == font:
                    used = family.style_for(style)
                    self._lacking[key] = Fallback(family.name, style, used, "") if used != style else None
                    break
        return self._lacking[key]

    @cached_property
    def _lacking(self) -> dict[tuple[str, str], Fallback | None]:
        return {}

    @cached_property
    def _fonts(self) -> dict[str, tuple[str, ...]]:
        return {}

    @cached_property
    def _colour(self) -> dict[str, tuple[str, ...]]:
        return {}

    def split(self, text: str, style: str) -> list[tuple[str | None, str]]:
        """``text`` cut into runs of one font each; a run no font covers has font None."""
        fonts = self.fonts(style)
        first = fonts[0]
        if coverage(first).issuperset(text) and (text.isascii() or (not _EMOJI_DEFAULT.search(text)
                                                 and not _WANTS_COLOUR.search(text))):
            return [(first, text)]
        runs: list[tuple[str | None, str]] = []
        for cluster in _clusters(text):
            before = runs[-1][0] if runs else None
            font: str | None
            if before is not None and _neutral(cluster) and not face(before).color \
                    and coverage(before).issuperset(cluster):
                font = before  # spaces, digits and punctuation stay in the font of the text before
            else:
                font = self._font_for(cluster, fonts)
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + cluster)
            else:
                runs.append((font, cluster))
        return runs

    def _font_for(self, cluster: str, fonts: tuple[str, ...]) -> str | None:
        needed = _IGNORABLE.sub("", cluster) or cluster
        if _WANTS_COLOUR.search(cluster) or _EMOJI_DEFAULT.search(cluster):
            colour = next((f for f in fonts if face(f).color and coverage(f).issuperset(needed)), None)
            if colour is not None:
                return colour
        return next((f for f in fonts if coverage(f).issuperset(needed)), None)

    def missing(self, text: str, style: str = "regular") -> list[str]:
        """Characters of ``text`` that no font of the chain has, in order, once each."""
        fonts = self.fonts(style)
        out: list[str] = []
        for char in dict.fromkeys(text):
            if char in "\n\t" or _IGNORABLE.match(char) or any(char in coverage(f) for f in fonts):
                continue
            out.append(char)
        return out


def _neutral(cluster: str) -> bool:
    """No letter and no emoji: a space, a digit, punctuation."""
    return not any(c.isalpha() for c in cluster) and not _WANTS_COLOUR.search(cluster) \
        and not _EMOJI_DEFAULT.search(cluster)


def _clusters(text: str) -> list[str]:
    """Grapheme clusters (UAX #29, extended), so a mark, a skin tone or a joined emoji keeps its base."""
    import unicode_segmentation_rs

    return unicode_segmentation_rs.graphemes(text, True)


def describe(char: str) -> str:
    """``'あ' (U+3042)`` for a finding."""
    return f"{char!r} (U+{ord(char):04X})" if len(char) == 1 else \
        f"{char!r} ({' '.join(f'U+{ord(c):04X}' for c in char)})"
