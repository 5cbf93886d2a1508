"""CMYK output for presses (``--color-space cmyk``): every colour in inks, text and lines in black ink
alone, rich black only where a colour asks for it, RGB builds as they always were.

The separations are Ghostscript's (``tiffsep``, the package ``ghostscript``: tools/system_packages.sh
installs it). The digests of RGB builds are recorded in tests/recorded/rgb-builds.json; after a change
to the drawing you meant, rewrite them and say why in the commit:

    CARDGEN_RECORD=1 .venv/bin/python -m pytest tests/test_cmyk.py -k digest
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import zlib
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import ROOT
from PIL import Image, ImageChops

from cardgen.build import build_decks
from cardgen.calibrate import write_calibration
from cardgen.colors import K_RAMP, CmykColor, device_cmyk, grey_black, lighten, lightness, mix, parse_color, to_hex
from cardgen.prepare import BuildSettings
from cardgen.render.colorspace import CMYK_KEYWORDS, cmyk_pixels
from cardgen.sheets import load_template

BUNDLED = ["common-carrier", "dotcombust", "clusterfuck"]
EXAMPLES = [str(ROOT / "examples" / name / f"{name}.yaml") for name in ("argonauts", "poker", "international", "gops")]
RECORDED = Path(__file__).resolve().parent / "recorded" / "rgb-builds.json"
#: the operators that set a colour, and the ones a CMYK file may use
COLOUR_OPERATORS = {"rg", "RG", "k", "K", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS"}
INKS = {"k", "K"}


# --- the conversion -------------------------------------------------------------------------------

def test_black_and_neutral_greys_are_black_ink_alone():
    assert device_cmyk((0.0, 0.0, 0.0)) == (0.0, 0.0, 0.0, 1.0)
    assert device_cmyk((1.0, 1.0, 1.0)) == (0.0, 0.0, 0.0, 0.0)
    for level in (0.05, 0.13, 0.38, 0.62, 0.9):
        c, m, y, k = device_cmyk((level, level, level))
        assert (c, m, y) == (0, 0, 0) and 0 < k < 1


def _printed_lightness(black: float) -> float:
    """L* of black ink alone on coated paper, between the measured steps of K_RAMP."""
    for (k0, l0), (k1, l1) in pairwise(K_RAMP):
        if k0 <= black * 100 <= k1:
            return l0 + (black * 100 - k0) / (k1 - k0) * (l1 - l0)
    raise AssertionError(black)


@pytest.mark.parametrize("level", [0.05, 0.13, 0.25, 0.38, 0.5, 0.62, 0.75, 0.9, 0.97])
def test_a_grey_prints_as_light_as_it_shows(level):
    """Its L* on screen, put on the press's range (black ink's darkest 16 to the paper's 95)."""
    k = device_cmyk((level, level, level))[3]
    assert _printed_lightness(k) == pytest.approx(16 + lightness((level,) * 3) / 100 * (95 - 16), abs=0.05)


def test_greys_darken_steadily_and_black_is_the_darkest():
    blacks = [device_cmyk((v / 100, v / 100, v / 100))[3] for v in range(101)]
    assert all(a > b for a, b in pairwise(blacks))
    assert blacks[0] == 1.0 and blacks[-1] == 0.0


def test_a_saturated_colour_takes_the_naive_black():
    red = parse_color("#ff0000")
    assert device_cmyk(red) == (0.0, 1.0, 1.0, 0.0)
    assert device_cmyk(parse_color("#800000"))[3] == pytest.approx(1 - 128 / 255, abs=1e-4)


def test_a_colour_converts_and_back():
    red = parse_color("#cc3322")
    inks = device_cmyk(red)
    assert inks[:3] == (0.0, 0.75, 0.8333)  # (max - channel) / max
    assert 1 - 0.8 < inks[3] < grey_black(0.8)  # between the naive black and a grey's
    assert min(inks[:3]) == 0  # one of C, M, Y is always 0: at most 300 % ink
    for color in (red, parse_color("#1565c0"), parse_color("#263238"), parse_color("#777777")):
        assert tuple(CmykColor(device_cmyk(color))) == pytest.approx(color, abs=1e-4)


def test_cmyk_colours_are_read_as_per_cents_and_kept():
    orange = parse_color("cmyk(0, 60%, 100, 0)")
    assert isinstance(orange, CmykColor) and orange.cmyk == (0.0, 0.6, 1.0, 0.0)
    assert tuple(orange) == pytest.approx((1.0, 0.4, 0.0))  # how an RGB build shows it
    assert device_cmyk(orange) == (0.0, 0.6, 1.0, 0.0)
    assert to_hex(orange) == "cmyk(0,60,100,0)" and parse_color(to_hex(orange)) == orange


def test_rich_black_is_asked_for_by_name_or_inks():
    rich = parse_color("rich-black")
    assert rich.cmyk == (0.6, 0.4, 0.4, 1.0)  # type: ignore[attr-defined]
    assert rich == parse_color("cmyk(60,40,40,100)")
    assert rich != parse_color("black") and device_cmyk(parse_color("black")) == (0, 0, 0, 1)


def test_colours_made_from_ink_colours_are_mixed_in_inks():
    rich = parse_color("rich-black")
    assert lighten(rich, 0.5).cmyk == pytest.approx((0.3, 0.2, 0.2, 0.5))  # type: ignore[attr-defined]
    assert mix(rich, (1.0, 1.0, 1.0), 0.0) == rich


@pytest.mark.parametrize("text", ["cmyk(1, 2, 3)", "cmyk(0, 0, 0, 101)", "cmyk(a, b, c, d)", "cmyk(-1,0,0,0)"])
def test_a_bad_cmyk_colour_is_refused_with_what_it_takes(text):
    with pytest.raises(ValueError, match="four per cents of ink from 0 to 100"):
        parse_color(text)


def test_raster_pixels_convert_as_colours_do():
    image = Image.new("RGB", (3, 1))
    image.putdata([(0, 0, 0), (128, 128, 128), (204, 51, 34)])
    converted = cmyk_pixels(image)
    pixels = [converted.getpixel((x, 0)) for x in range(3)]
    assert pixels[0] == (0, 0, 0, 255)
    assert pixels[1] == (0, 0, 0, round(grey_black(128 / 255) * 255))  # grey: black ink alone
    c, m, y, k = (round(v * 255) for v in device_cmyk((204 / 255, 51 / 255, 34 / 255)))
    assert all(abs(a - b) <= 1 for a, b in zip(pixels[2], (c, m, y, k)))


# --- what a PDF holds ---------------------------------------------------------------------------------

_OBJECT = re.compile(rb"(\d+) 0 obj\s*(<<(?:(?!endobj).)*?>>)\s*stream\r?\n", re.S)
_TOKEN = re.compile(rb"<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]*|[A-Za-z'\"*][A-Za-z0-9'\"*]*|\S")
_WORD = re.compile(rb"[A-Za-z'\"*][A-Za-z0-9'\"*]*")


def streams(raw: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Every stream of a PDF reportlab wrote: object number -> (dictionary, decoded data)."""
    out = {}
    for match in _OBJECT.finditer(raw):
        head = match.group(2)
        length = int(re.search(rb"/Length (\d+)", head).group(1))  # type: ignore[union-attr]
        data = raw[match.end():match.end() + length]
        if b"ASCII85Decode" in head:
            data = base64.a85decode(data.strip().removesuffix(b"~>"))
        if b"FlateDecode" in head:
            data = zlib.decompress(data)
        out[int(match.group(1))] = (head, data)
    return out


def operators(raw: bytes) -> Counter:
    """The operators of every page's content and every form, counted (strings skipped)."""
    pages = {int(n) for n in re.findall(rb"/Contents (\d+) 0 R", raw)}
    found: Counter = Counter()
    for number, (head, data) in streams(raw).items():
        if number in pages or b"/Subtype /Form" in head:
            found.update(_operators(data))
    return found


def _operators(data: bytes):
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"(":  # a string, (nested) and \escaped
            depth = 0
            while i < len(data):
                char = data[i:i + 1]
                if char == b"\\":
                    i += 2
                    continue
                depth += {b"(": 1, b")": -1}.get(char, 0)
                i += 1
                if depth == 0:
                    break
            continue
        match = _TOKEN.match(data, i)
        if match is None:
            i += 1
            continue
        if _WORD.fullmatch(match.group()) and match.group() not in (b"true", b"false", b"null"):
            yield match.group().decode()
        i = max(match.end(), i + 1)


def colour_operators(path: Path) -> set[str]:
    return set(operators(path.read_bytes())) & COLOUR_OPERATORS


@pytest.fixture(scope="module")
def cmyk_builds(tmp_path_factory):
    """Every bundled deck and example in CMYK, as sheets and as print-shop cards, and a calibration page."""
    out = tmp_path_factory.mktemp("cmyk")
    settings = BuildSettings(color_space="cmyk", formats=("pdf", "pdf-cards"))
    build_decks(BUNDLED + EXAMPLES, out, settings)
    build_decks(["common-carrier", "clusterfuck"], out / "one", BuildSettings(color_space="cmyk", one_pdf=True,
                                                                               back_marks=True))
    write_calibration(out / "calibration.pdf", load_template("letter-10up"), "long", "cmyk")
    return out


def test_every_bundled_deck_and_example_sets_colours_in_inks_only(cmyk_builds):
    files = sorted(cmyk_builds.rglob("*.pdf"))
    names = {p.name for p in files}
    assert {"dotcombust.pdf", "argonauts-cards.pdf", "poker.pdf", "international.pdf", "calibration.pdf"} <= names
    for path in files:
        raw = path.read_bytes()
        used = colour_operators(path)
        assert used and used <= INKS, (path.name, used)
        assert b"/DeviceRGB" not in raw, path.name  # no RGB image, shading or colour space either
        assert CMYK_KEYWORDS.encode() in raw, path.name
        assert b"/OutputIntents" not in raw  # no press profile is bundled to name in one


def test_colour_glyph_pictures_are_inks_too(cmyk_builds):
    raw = (cmyk_builds / "international.pdf").read_bytes()
    images = [head for head, _ in streams(raw).values() if b"/Subtype /Image" in head]
    assert images and all(b"/DeviceCMYK" in head or b"/DeviceGray" in head for head in images)
    assert any(b"/DeviceCMYK" in head for head in images)


def test_a_cmyk_build_sets_in_inks_each_colour_an_rgb_build_sets(cmyk_builds, tmp_path):
    build_decks(["dotcombust", "clusterfuck"], tmp_path, BuildSettings())
    for name in ("dotcombust.pdf", "clusterfuck.pdf"):
        rgb, cmyk = operators((tmp_path / name).read_bytes()), operators((cmyk_builds / name).read_bytes())
        assert set(rgb) & COLOUR_OPERATORS == {"rg", "RG"}
        assert (cmyk["k"], cmyk["K"]) == (rgb["rg"], rgb["RG"]) and rgb["rg"] > 20, name
        assert b"CMYK" not in (tmp_path / name).read_bytes()


def _deck(folder: Path, style: str = "", layout: str = "") -> Path:
    """A deck of one card with PNG art (grey, colour and a transparent corner) and one with JPEG art."""
    (folder / "art").mkdir()
    png = Image.new("RGBA", (300, 200), (128, 128, 128, 255))
    png.paste((200, 40, 30, 255), (150, 0, 300, 200))
    png.paste((0, 0, 0, 0), (0, 0, 40, 40))
    png.save(folder / "art" / "a.png")
    Image.new("RGB", (300, 200), (30, 90, 200)).save(folder / "art" / "b.jpg", quality=95)
    (folder / "cards.csv").write_text("id,title,text,image,color\na,Grey,Words in black,art/a.png,rich-black\n"
                                      "b,Blue,More words,art/b.jpg,\"cmyk(100, 50, 0, 0)\"\n", encoding="utf-8")
    path = folder / "d.yaml"
    path.write_text(f"deck: d\nname: D\ncsv: cards.csv\n{style}{layout}", encoding="utf-8")
    return path


def test_raster_art_is_embedded_in_inks_with_its_transparency(tmp_path):
    deck = _deck(tmp_path)
    build_decks([str(deck)], tmp_path / "out", BuildSettings(color_space="cmyk"))
    raw = (tmp_path / "out" / "d.pdf").read_bytes()
    images = {n: (head, data) for n, (head, data) in streams(raw).items() if b"/Subtype /Image" in head}
    spaces = Counter(re.search(rb"/ColorSpace /(\w+)", head).group(1) for head, _ in images.values())  # type: ignore
    # the PNG in inks with its alpha as a soft mask, the JPEG as a CMYK JPEG
    assert spaces == {b"DeviceCMYK": 2, b"DeviceGray": 1}, spaces
    flate = [(head, data) for head, data in images.values() if b"DeviceCMYK" in head and b"DCTDecode" not in head]
    assert len(flate) == 1 and b"/SMask" in flate[0][0]
    head, data = flate[0]
    width = int(re.search(rb"/Width (\d+)", head).group(1))  # type: ignore[union-attr]
    picture = Image.frombytes("CMYK", (width, len(data) // 4 // width), data)
    assert picture.getpixel((60, 100)) == (0, 0, 0, round(grey_black(128 / 255) * 255))  # grey: black alone
    assert picture.getpixel((250, 100))[0] == 0 and picture.getpixel((250, 100))[1] > 150
    jpeg = [head for head, _ in images.values() if b"DCTDecode" in head]
    assert len(jpeg) == 1 and b"/DeviceCMYK" in jpeg[0]


def test_rich_black_prints_where_asked_and_black_text_in_black_ink(tmp_path):
    deck = _deck(tmp_path)
    build_decks([str(deck)], tmp_path / "out", BuildSettings(color_space="cmyk"))
    content = b"\n".join(data for head, data in streams((tmp_path / "out" / "d.pdf").read_bytes()).values()
                         if b"/Subtype /Image" not in head and b"/Length1" not in head)
    assert re.search(rb"(?<![\d.])\.6 \.4 \.4 1 k\b", content)  # the band of the card whose colour is rich-black
    assert re.search(rb"(?<![\d.])1 \.5 0 0 k\b", content)  # cmyk(100, 50, 0, 0) exactly as written
    assert re.search(rb"(?<![\d.])0 0 0 1 k\b", content)  # the black words


def test_an_rgb_build_shows_an_ink_colour_as_its_rgb(tmp_path):
    deck = _deck(tmp_path)
    build_decks([str(deck)], tmp_path / "out", BuildSettings())
    content = b"\n".join(data for head, data in streams((tmp_path / "out" / "d.pdf").read_bytes()).values()
                         if b"/Subtype /Image" not in head and b"/Length1" not in head)
    assert re.search(rb"(?<![\d.])0 \.5 1 rg\b", content)  # cmyk(100, 50, 0, 0) as the screen shows it
    operators = re.sub(rb"\((?:[^()\\]|\\.)*\)", b"()", content)  # glyph codes are strings of letters
    assert b" k\n" not in operators and not re.search(rb"\bk\b", operators)


# --- separations --------------------------------------------------------------------------------------

DPI = 150


def _separate(pdf: Path, page: int, folder: Path, text: bool = True) -> list[Image.Image]:
    """Ghostscript's plates of one page, C, M, Y and K (0 full ink, 255 none); without its text when
    ``text`` is false (gs's FILTERTEXT), so a pixel that differs is one the text paints."""
    if shutil.which("gs") is None:
        pytest.fail("Ghostscript (gs) is missing: run tools/system_packages.sh (Debian package ghostscript)")
    where = folder / ("with" if text else "without")
    where.mkdir(exist_ok=True)
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", f"-r{DPI}",
                    *([] if text else ["-dFILTERTEXT"]), f"-dFirstPage={page + 1}", f"-dLastPage={page + 1}",
                    f"-sOutputFile={where / 'page.tif'}", str(pdf)], check=True, capture_output=True, timeout=120)
    return [Image.open(where / f"page({ink}).tif").convert("L") for ink in ("Cyan", "Magenta", "Yellow", "Black")]


def _inks_under_text(pdf: Path, page: int, folder: Path) -> tuple[int, int]:
    """(pixels the page's text paints, how many of them carry cyan, magenta or yellow ink)."""
    plates, bare = _separate(pdf, page, folder), _separate(pdf, page, folder, text=False)
    painted = None
    for plate, without in zip(plates, bare):
        differs = ImageChops.difference(plate, without).point(lambda v: 255 if v else 0)
        painted = differs if painted is None else ImageChops.lighter(painted, differs)
    least = ImageChops.darker(ImageChops.darker(plates[0], plates[1]), plates[2])  # the most C, M or Y ink
    colour = least.point(lambda v: 255 if v < 255 else 0)
    assert painted is not None
    text_pixels = painted.histogram()[255]
    return text_pixels, ImageChops.multiply(painted, colour).histogram()[255]


@pytest.mark.parametrize("name, page", [("dotcombust.pdf", 0), ("dotcombust.pdf", 1), ("clusterfuck.pdf", 0),
                                        ("common-carrier-player-1.pdf", 1), ("poker.pdf", 0)])
def test_text_is_black_ink_alone_on_a_separated_page(cmyk_builds, tmp_path, name, page):
    """Black and grey text prints in black ink alone, white text knocks every ink out: under no text
    of these pages is there cyan, magenta or yellow."""
    painted, with_colour = _inks_under_text(cmyk_builds / name, page, tmp_path)
    assert painted > 2000  # the page has text to look at
    assert with_colour == 0


def test_rgb_black_text_separates_into_four_inks(tmp_path):
    """What --color-space cmyk is for: the same page in RGB puts cyan, magenta and yellow under its text."""
    build_decks(["dotcombust"], tmp_path, BuildSettings())
    painted, with_colour = _inks_under_text(tmp_path / "dotcombust.pdf", 0, tmp_path)
    assert with_colour > painted * 0.5


# --- RGB builds as they were ------------------------------------------------------------------------

RGB_BUILDS = {
    "bundled": (BUNDLED, {"formats": ("pdf", "pdf-cards")}),
    "examples": (EXAMPLES[:2], {"formats": ("pdf", "pdf-cards")}),
    "one-pdf": (["common-carrier", "clusterfuck"], {"one_pdf": True, "back_marks": True, "paper": "a4",
                                                    "gap": 17.0}),
}


def _digest(path: Path) -> str:
    """The PDF's SHA-256, its fonts' subset tags (drawn from the font file's path) set to AAAAAA."""
    return hashlib.sha256(re.sub(rb"/[A-Z]{6}\+", b"/AAAAAA+", path.read_bytes())).hexdigest()


def test_rgb_builds_digest_as_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    digests = {}
    for name, (decks, fields) in RGB_BUILDS.items():
        build_decks(decks, tmp_path / name, BuildSettings(**fields))  # type: ignore[arg-type]
        digests.update({f"{name}/{p.name}": _digest(p) for p in sorted((tmp_path / name).glob("*.pdf"))})
    write_calibration(tmp_path / "calibration.pdf", load_template("letter-10up"), "long")
    digests["calibration.pdf"] = _digest(tmp_path / "calibration.pdf")
    if os.environ.get("CARDGEN_RECORD"):
        RECORDED.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    changed = sorted(k for k in recorded.keys() | digests.keys() if recorded.get(k) != digests.get(k))
    assert not changed, f"RGB builds changed: {changed}; if meant, rerun with CARDGEN_RECORD=1 (see the docstring)"


def test_the_command_line_takes_a_colour_space(cli, tmp_path):
    result = cli("build", "clusterfuck", "--out", tmp_path, "--color-space", "cmyk")
    assert result.exit_code == 0, result.output
    assert colour_operators(tmp_path / "clusterfuck.pdf") <= INKS
    bad = cli("build", "clusterfuck", "--out", tmp_path / "bad", "--color-space", "lab")
    assert bad.exit_code == 2 and "--color-space" in bad.output
    assert not (tmp_path / "bad").exists()
    result = cli("calibrate", "--out", tmp_path / "cal.pdf", "--color-space", "cmyk")
    assert result.exit_code == 0 and colour_operators(tmp_path / "cal.pdf") <= INKS


GRADIENTS = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" viewBox="0 0 100 60">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#1565c0"/><stop offset="1" stop-color="#ffffff"/>
    </linearGradient>
    <radialGradient id="sun" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="gold"/><stop offset="1" stop-color="#808080"/>
    </radialGradient>
  </defs>
  <rect x="0" y="0" width="60" height="60" fill="url(#sky)"/>
  <circle cx="80" cy="30" r="20" fill="url(#sun)" stroke="#333333" stroke-width="2"/>
</svg>
"""


def test_svg_art_and_its_gradients_are_drawn_in_inks(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "g.svg").write_text(GRADIENTS, encoding="utf-8")
    (tmp_path / "cards.csv").write_text("id,title,text,image\na,Sky,Words,art/g.svg\n", encoding="utf-8")
    (tmp_path / "d.yaml").write_text("deck: d\nname: D\ncsv: cards.csv\n", encoding="utf-8")
    for space in ("rgb", "cmyk"):
        build_decks([str(tmp_path / "d.yaml")], tmp_path / space, BuildSettings(color_space=space))
    rgb, cmyk = ((tmp_path / space / "d.pdf").read_bytes() for space in ("rgb", "cmyk"))
    assert rgb.count(b"/ShadingType") == 2 and b"/DeviceRGB" in rgb  # the art has its two gradients
    assert cmyk.count(b"/ShadingType") == 2 and b"/DeviceRGB" not in cmyk
    assert colour_operators(tmp_path / "cmyk" / "d.pdf") <= INKS
    content = b"\n".join(data for head, data in streams(cmyk).values() if b"/Subtype /Form" in head)
    assert re.search(rb"(?<![\d.])0 0 0 \.\d+ K\b", content)  # the grey outline in black ink alone
