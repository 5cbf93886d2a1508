"""Shaped glyphs written as Type0 fonts (render/pdffont.py), checked in the PDF: poppler's font list,
pdfium's text and character positions, and rendered pixels.

The Debian fonts come from fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji (CI installs
them); a missing one skips its test here and fails it under CI=true.
"""
from __future__ import annotations

import ctypes
import functools
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import uharfbuzz as hb
from reportlab.pdfgen.canvas import Canvas

from cardgen.render.pdffont import (
    ColorGlyph,
    EmbeddedFont,
    FontProgramError,
    color_glyph,
    draw_color_glyph,
    embedded_font,
    with_actual_text,
)
from cardgen.resources import bundled

DEJAVU = bundled("fonts") / "DejaVuSans.ttf"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


def font_file(path: Path) -> Path:
    if not path.exists():
        message = f"{path} is missing (apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def shape(path: Path, text: str, index: int = 0, features: dict | None = None):
    """HarfBuzz's glyphs for ``text``: (gid, x_advance, x_offset, y_offset, cluster), and the em."""
    face = hb.Face(hb.Blob.from_file_path(str(path)), index)
    font = hb.Font(face)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf, features or {"kern": True, "liga": True})
    return [(i.codepoint, p.x_advance, p.x_offset, p.y_offset, i.cluster)
            for i, p in zip(buf.glyph_infos, buf.glyph_positions)], face.upem


def records(glyphs, text: str) -> list[tuple[int, str]]:
    """Each cluster's text to its first glyph, '' to the others."""
    starts = sorted({g[4] for g in glyphs}) + [len(text)]
    seen: set[int] = set()
    out = []
    for gid, *_, cluster in glyphs:
        if cluster in seen:
            out.append((gid, ""))
        else:
            seen.add(cluster)
            out.append((gid, text[cluster:starts[starts.index(cluster) + 1]]))
    return out


class Run:
    """One shaped string drawn at (x, y)."""

    def __init__(self, path: Path, text: str, x: float, y: float, size: float, index: int = 0):
        self.path, self.text, self.x, self.y, self.size, self.index = path, text, x, y, size, index
        self.glyphs, self.upem = shape(path, text, index)
        self.font = embedded_font(path, index)

    def draw(self, canvas: Canvas) -> None:
        name = self.font.use(canvas._doc, records(self.glyphs, self.text))
        code = self.font.glyph_operators([g[:4] for g in self.glyphs], self.size)
        canvas._code.append(f"BT {name} {self.size} Tf 1 0 0 1 {self.x} {self.y} Tm {code} ET")

    def origins(self) -> list[float]:
        """Where HarfBuzz puts each glyph's origin, in points."""
        out, pen = [], 0
        for _, advance, x_offset, *_ in self.glyphs:
            out.append(self.x + (pen + x_offset) * self.size / self.upem)
            pen += advance
        return out

    def end(self) -> float:
        return self.x + sum(g[1] for g in self.glyphs) * self.size / self.upem


def page(runs: list[Run], extra=None, compression: int = 1) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(420, 320), pageCompression=compression, invariant=1)
    for run in runs:
        run.draw(canvas)
    if extra:
        extra(canvas)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def chars(pdf: bytes) -> list[tuple[str, float, float]]:
    """pdfium's characters with their origins (points), generated line breaks left out."""
    document = pdfium.PdfDocument(pdf)
    text = document[0].get_textpage()
    out = []
    for i in range(text.count_chars()):
        x, y = ctypes.c_double(), ctypes.c_double()
        if pdfium_c.FPDFText_IsGenerated(text.raw, i) == 1:
            continue
        pdfium_c.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(x), ctypes.byref(y))
        out.append((chr(pdfium_c.FPDFText_GetUnicode(text.raw, i)), x.value, y.value))
    return out


def text_of(pdf: bytes) -> str:
    return pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range()


def render(pdf: bytes, scale: float = 2.0):
    return pdfium.PdfDocument(pdf)[0].render(scale=scale).to_pil().convert("RGB")


def scripts() -> list[Run]:
    return [Run(DEJAVU, "AVATAR Wave", 20, 280, 18),
            Run(font_file(NOTO / "NotoSerif-Regular.ttf"), "office fit", 20, 250, 18),
            Run(font_file(NOTO / "NotoSansArabic-Regular.ttf"), "بيت", 20, 215, 24),
            Run(font_file(NOTO / "NotoSansHebrew-Regular.ttf"), "שלום", 150, 215, 24),
            Run(font_file(NOTO / "NotoSansDevanagari-Regular.ttf"), "हिन्दी", 20, 175, 24),
            Run(font_file(CJK), "日本語のテキスト、漢字。", 20, 135, 20),
            Run(font_file(NOTO / "NotoColorEmoji.ttf"), "😀👍", 20, 80, 30)]


@pytest.fixture(scope="module")
def sample() -> tuple[list[Run], bytes]:
    runs = scripts()
    emoji = runs[-1]

    def pictures(canvas):
        x = emoji.x
        for gid, advance, *_ in emoji.glyphs:
            glyph = emoji.font.color_glyph(gid)
            assert glyph is not None
            draw_color_glyph(canvas, glyph, x, emoji.y, emoji.size, emoji.upem)
            x += advance * emoji.size / emoji.upem

    return runs, page(runs, pictures)


def test_the_sample_exercises_kerning_and_a_ligature(sample):
    runs, _ = sample
    latin, serif = runs[0], runs[1]
    kerned = [(gid, advance) for gid, advance, *_ in latin.glyphs if advance != latin.font.advance(gid)]
    assert kerned, "DejaVu Sans kerns A-V: some advance differs from the glyph's width"
    assert len(serif.glyphs) < len(serif.text), "Noto Serif's ffi/fi ligatures make fewer glyphs than letters"


@pytest.mark.skipif(shutil.which("pdffonts") is None and os.environ.get("CI") != "true",
                    reason="pdffonts (poppler-utils) is not installed")
def test_every_font_is_embedded_as_a_cid_truetype_font(sample):
    _, pdf = sample
    listing = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    ours = [line for line in listing.splitlines() if "+" in line.split(" ")[0]]
    assert len(ours) == 7, listing
    for line in ours:
        name = line.split()[0]
        assert name[6] == "+" and name[:6].isupper(), line
        assert "CID TrueType" in line and "Identity-H" in line, line
        emb, sub, uni = line.split()[-5:-2]
        assert (emb, sub, uni) == ("yes", "yes", "yes"), line


def test_text_comes_back_through_tounicode(sample):
    runs, pdf = sample
    text = text_of(pdf)
    for run in runs:
        if run.path.name == "NotoSansDevanagari-Regular.ttf":
            continue  # its i sign is drawn before its consonant: see test_actual_text_reads_a_reordered_cluster
        assert run.text in text, (run.text, text)


def test_a_ligature_glyph_reads_as_all_its_letters(sample):
    runs, pdf = sample
    serif = runs[1]
    ligature = next(text for gid, text in records(serif.glyphs, serif.text) if len(text) > 1)
    assert ligature in ("ffi", "fi", "ff")
    assert "office fit" in text_of(pdf)


def test_glyphs_sit_where_harfbuzz_put_them(sample):
    runs, pdf = sample
    found = chars(pdf)
    for run in (runs[0], runs[1], runs[5]):  # left-to-right runs, one glyph per cluster
        expected = []
        for (_, text), x in zip(records(run.glyphs, run.text), run.origins()):
            expected.extend((c, x) for c in text)
        on_line = [(c, x) for c, x, y in found if abs(y - run.y) < 0.01]
        assert [c for c, _ in on_line] == [c for c, _ in expected]
        for (c, x), (_, want) in zip(on_line, expected):
            assert abs(x - want) < 0.05, (run.text, c, x, want)


def test_the_next_run_starts_at_the_sum_of_the_advances():
    """Two runs in one text object, the second with no move of its own: it starts where the first's
    advances (kerned, with offsets) end."""
    first = Run(DEJAVU, "AVAWAY To", 20, 100, 17)
    second = Run(DEJAVU, "W", 0, 100, 17)

    def both(canvas):
        name = first.font.use(canvas._doc, records(first.glyphs, first.text) + records(second.glyphs, second.text))
        ops = [first.font.glyph_operators([g[:4] for g in run.glyphs], 17) for run in (first, second)]
        canvas._code.append(f"BT {name} 17 Tf 1 0 0 1 20 100 Tm {ops[0]} {ops[1]} ET")

    found = chars(page([], both))
    assert found[-1][0] == "W"
    assert abs(found[-1][1] - first.end()) < 0.05


def test_vertical_offsets_raise_the_glyph_and_are_reset():
    font = embedded_font(DEJAVU)
    gid = 36  # any glyph: the offsets are HarfBuzz's, not the font's
    code = font.glyph_operators([(gid, 1000, 0, 200), (gid, 1000, 0, 0)], 20)
    assert code.startswith("1.953 Ts ") and " 0 Ts " in code
    assert font.glyph_operators([(gid, 1000, 0, -100)], 20).endswith("] TJ 0 Ts")

    def draw(canvas):
        name = font.use(canvas._doc, [(gid, "A")])
        canvas._code.append(f"BT {name} 20 Tf 1 0 0 1 50 100 Tm {code} ET")

    (_, x1, y1), (_, x2, y2) = chars(page([], draw))
    upem = font.units_per_em
    assert abs(y1 - (100 + 200 * 20 / upem)) < 0.05 and abs(y2 - 100) < 0.05
    assert abs(x2 - x1 - 1000 * 20 / upem) < 0.05


def test_the_page_has_ink_where_the_glyphs_are_and_the_emoji_in_colour(sample, tmp_path):
    runs, pdf = sample
    scale = 2.0
    image = render(pdf, scale)
    image.save(tmp_path / "sample.png")
    height = image.height
    for run in runs[:-1]:
        box = (int(run.x * scale), int(height - (run.y + run.size * 0.8) * scale),
               int(run.end() * scale), int(height - run.y * scale))
        dark = sum(1 for p in image.crop(box).get_flattened_data() if sum(p) < 300)
        assert dark > 50, (run.text, dark)
    emoji = runs[-1]
    box = (int(emoji.x * scale), int(height - (emoji.y + emoji.size) * scale),
           int(emoji.end() * scale), int(height - emoji.y * scale))
    yellow = sum(1 for r, g, b in image.crop(box).get_flattened_data() if r > 200 and g > 150 and b < 100)
    assert yellow > 200, "the smiley prints in colour"


def test_a_colour_bitmap_is_one_image_however_often_it_is_drawn():
    path = font_file(NOTO / "NotoColorEmoji.ttf")
    glyphs, upem = shape(path, "😀")
    glyph = color_glyph(path.read_bytes(), 0, glyphs[0][0])
    assert glyph is not None and glyph.png is not None and glyph.png[:4] == b"\x89PNG"
    x0, y0, x1, y1 = glyph.box
    assert y0 < 0 < y1 and x1 - x0 > upem * 0.9

    def many(canvas):
        for i in range(20):
            draw_color_glyph(canvas, glyph, 10 + i * 15, 50, 12, upem)

    pdf = page([], many, compression=0)
    assert pdf.count(b"/Subtype /Image") == 2  # the picture and its alpha (SMask), once


def test_colr_layers_draw_in_their_palette_colours(tmp_path):
    data = colr_font()
    glyph = color_glyph(data, 0, 1)
    assert glyph is not None and glyph.png is None
    assert [rgba for _, rgba in glyph.layers] == [(1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)]
    assert color_glyph(data, 0, 2) is None  # a layer glyph is not itself a colour glyph

    def draw(canvas):
        draw_color_glyph(canvas, glyph, 100, 100, 100, 1000)

    image = render(page([], draw), 1.0)
    height = image.height
    assert image.getpixel((125, height - 125)) == (255, 0, 0)  # the red square, lower left
    assert image.getpixel((175, height - 175)) == (0, 0, 255)  # the blue one, upper right, drawn on top
    assert image.getpixel((125, height - 175)) == (255, 255, 255)


def colr_font() -> bytes:
    """A COLR v0 font: glyph 'pair' = a red square (glyph 'a') under a blue one (glyph 'b')."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def square(x, y, side):
        pen = TTGlyphPen(None)
        pen.moveTo((x, y))
        pen.lineTo((x, y + side))
        pen.lineTo((x + side, y + side))
        pen.lineTo((x + side, y))
        pen.closePath()
        return pen.glyph()

    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "pair", "a", "b"])
    builder.setupCharacterMap({0x41: "pair"})
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "pair": TTGlyphPen(None).glyph(),
                       "a": square(0, 0, 500), "b": square(500, 500, 500)})
    builder.setupHorizontalMetrics({".notdef": (1000, 0), "pair": (1000, 0), "a": (1000, 0), "b": (1000, 500)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Colr Test", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    builder.setupCOLR({"pair": [("a", 0), ("b", 1)]}, version=0)
    builder.setupCPAL([[(1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)]])
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def test_a_cff_collection_face_is_converted_to_truetype_outlines():
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.ttLib import TTFont

    path = font_file(CJK)
    glyphs, _ = shape(path, "漢", index=0)
    gid = glyphs[0][0]
    font = embedded_font(path, 0)
    program = TTFont(io.BytesIO(font.subset_program([gid])))
    assert "glyf" in program and program["maxp"].numGlyphs == gid + 1
    converted = program["glyf"][program.getGlyphOrder()[gid]]
    original = TTFont(str(path), fontNumber=0, lazy=True)
    pen = BoundsPen(original.getGlyphSet())
    original.getGlyphSet()[original.getGlyphOrder()[gid]].draw(pen)
    assert max(abs(a - b) for a, b in zip(pen.bounds, (converted.xMin, converted.yMin, converted.xMax,
                                                      converted.yMax))) <= 1


def test_another_face_of_the_collection_is_another_font():
    path = font_file(CJK)
    japanese, korean = embedded_font(path, 0), embedded_font(path, 1)
    assert japanese is not korean and japanese is embedded_font(path, 0)
    assert japanese._ps_name != korean._ps_name


def test_composite_glyphs_bring_their_components():
    from fontTools.ttLib import TTFont

    font = embedded_font(DEJAVU)
    glyphs, _ = shape(DEJAVU, "é")
    gid = glyphs[0][0]
    program = TTFont(io.BytesIO(font.subset_program([gid])))
    glyf = program["glyf"]
    order = program.getGlyphOrder()
    glyph = glyf[order[gid]]
    assert glyph.isComposite()
    for component in glyph.components:
        assert glyf[component.glyphName].numberOfContours > 0
    assert program["hmtx"][order[gid]][0] == font.advance(gid)
    unused = next(g for g in range(1, gid) if g not in {program.getGlyphID(c.glyphName) for c in glyph.components})
    assert glyf[order[unused]].numberOfContours == 0 and program["hmtx"][order[unused]][0] == 0


def test_the_same_glyphs_make_the_same_pdf():
    first = page([Run(DEJAVU, "Same text", 20, 100, 12)])
    second = page([Run(DEJAVU, "Same text", 20, 100, 12)])
    assert first == second
    other = page([Run(DEJAVU, "Other text", 20, 100, 12)])
    tags = [re.findall(rb"/(?:BaseFont|FontName) /([A-Z]{6})\+DejaVuSans", pdf) for pdf in (first, other)]
    assert len(tags[0]) == 3 and len(set(tags[0])) == 1  # the Type0 font, its CIDFont, its descriptor
    assert tags[0] != tags[1]


def test_one_resource_name_per_document_and_the_first_text_wins():
    font = embedded_font(DEJAVU)
    canvas = Canvas(io.BytesIO())
    name = font.use(canvas._doc, [(36, ""), (37, "B")])
    assert font.use(canvas._doc, [(36, "A"), (37, "X")]) == name and name.startswith("/F")
    other = Canvas(io.BytesIO())
    assert font.use(other._doc, [(36, "A")]).startswith("/F")
    assert font._docs[canvas._doc][1] == {36: "A", 37: "B"}


def test_actual_text_reads_a_reordered_cluster():
    path = font_file(NOTO / "NotoSansDevanagari-Regular.ttf")
    run = Run(path, "हिन्दी", 20, 100, 20)

    def draw(canvas):
        name = run.font.use(canvas._doc, [(g[0], "") for g in run.glyphs])
        code = with_actual_text(run.text, run.font.glyph_operators([g[:4] for g in run.glyphs], 20))
        canvas._code.append(f"BT {name} 20 Tf 1 0 0 1 20 100 Tm {code} ET")

    assert text_of(page([], draw)) == run.text


@pytest.mark.parametrize("cut", [0, 11, 200, 5000, "half"])
def test_truncated_fonts_raise_font_program_error(cut):
    data = DEJAVU.read_bytes()
    data = data[:len(data) // 2] if cut == "half" else data[:cut]
    with pytest.raises(FontProgramError):
        EmbeddedFont(data, 0, "broken")


def test_broken_tables_raise_font_program_error():
    data = bytearray(DEJAVU.read_bytes())
    from fontTools.ttLib import TTFont

    entry = TTFont(io.BytesIO(bytes(data))).reader.tables["loca"]
    data[entry.offset:entry.offset + 40] = b"\xff" * 40  # offsets out of order
    with pytest.raises(FontProgramError, match="loca"):
        EmbeddedFont(bytes(data), 0, "broken")
    with pytest.raises(FontProgramError):
        EmbeddedFont(b"\0\1\0\0" + b"\0" * 60, 0, "broken")
    with pytest.raises(FontProgramError):
        EmbeddedFont(b"not a font at all", 0, "broken")


def test_a_glyph_the_font_lacks_and_a_face_past_the_collection_raise():
    font = embedded_font(DEJAVU)
    with pytest.raises(FontProgramError, match="not in the font"):
        font.use(Canvas(io.BytesIO())._doc, [(font.glyph_count, "x")])
    with pytest.raises(FontProgramError):
        EmbeddedFont(font_file(CJK).read_bytes(), 99, "past")


def test_a_truncated_font_file_raises_through_embedded_font(tmp_path):
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(DEJAVU.read_bytes()[:3000])
    with pytest.raises(FontProgramError):
        embedded_font(broken)


def test_colour_glyph_of_a_font_without_colour_is_none():
    assert color_glyph(DEJAVU.read_bytes(), 0, 36) is None
    assert isinstance(ColorGlyph(), ColorGlyph)


def test_a_run_inside_a_form_xobject_prints_through_the_form():
    """cardgen draws each distinct face once, as a form: its fonts come from the document's fonts."""
    run = Run(DEJAVU, "Form text", 0, 0, 14)

    def form(canvas):
        canvas.beginForm("face")
        run.draw(canvas)
        canvas.endForm()
        for y in (50, 150):
            canvas.saveState()
            canvas.translate(30, y)
            canvas.doForm("face")
            canvas.restoreState()

    pdf = page([], form)
    assert text_of(pdf).count("Form text") == 2
    assert pdf.count(b"/Subtype /Type0") == 1


def test_without_compression_the_font_program_is_stored_plain():
    pdf = page([Run(DEJAVU, "Plain", 20, 100, 12)], compression=0)
    assert b"/FontFile2" in pdf and b"/Length1" in pdf and b"FlateDecode" not in pdf
    assert text_of(pdf) == "Plain"


def test_sbix_pictures_sit_at_their_origin_offset_and_dupes_follow():
    glyph = color_glyph(sbix_font(), 0, 1)
    assert glyph is not None and glyph.png is not None
    assert glyph.box == (100.0, -200.0, 1100.0, 300.0)  # 20x10 px at 20 ppem, origin offset (2, -4) px
    assert color_glyph(sbix_font(), 0, 2) == glyph
    assert color_glyph(sbix_font(), 0, 0) is None


@functools.lru_cache(maxsize=1)
def sbix_font() -> bytes:
    """An sbix font: glyph 'g' a 20x10 green picture at 20 ppem, glyph 'dup' a reference to it."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables.sbixGlyph import Glyph
    from fontTools.ttLib.tables.sbixStrike import Strike
    from PIL import Image

    png = io.BytesIO()
    Image.new("RGBA", (20, 10), (0, 200, 0, 255)).save(png, "PNG")
    names = [".notdef", "g", "dup"]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({0x41: "g", 0x42: "dup"})
    builder.setupGlyf({name: TTGlyphPen(None).glyph() for name in names})
    builder.setupHorizontalMetrics(dict.fromkeys(names, (1000, 0)))
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Sbix Test", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    strike = Strike(ppem=20, resolution=72)
    strike.glyphs["g"] = Glyph(glyphName="g", graphicType="png ", imageData=png.getvalue(),
                               originOffsetX=2, originOffsetY=-4)
    strike.glyphs["dup"] = Glyph(glyphName="dup", graphicType="dupe", referenceGlyphName="g")
    sbix = newTable("sbix")
    sbix.strikes[20] = strike
    builder.font["sbix"] = sbix
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def test_a_truetype_collection_face_is_chosen_by_its_index():
    from fontTools.ttLib import TTCollection, TTFont

    collection = TTCollection()
    collection.fonts = [TTFont(str(DEJAVU)), TTFont(str(bundled("fonts") / "DejaVuSans-Bold.ttf"))]
    out = io.BytesIO()
    collection.save(out)
    bold = EmbeddedFont(out.getvalue(), 1, "collection-1")
    assert bold._ps_name == "DejaVuSans-Bold"
    glyphs, _ = shape(bundled("fonts") / "DejaVuSans-Bold.ttf", "Bold")
    assert [bold.advance(g[0]) for g in glyphs] == [g[1] for g in glyphs]  # no kerning in "Bold"
    program = TTFont(io.BytesIO(bold.subset_program([g[0] for g in glyphs])))
    assert all(program["glyf"][program.getGlyphOrder()[g[0]]].numberOfContours > 0 for g in glyphs)


def test_a_truncated_cff_collection_raises_font_program_error():
    data = font_file(CJK).read_bytes()[:1_000_000]
    with pytest.raises(FontProgramError, match="truncated"):
        EmbeddedFont(data, 0, "cut")


def test_right_to_left_glyphs_and_their_marks_sit_where_harfbuzz_put_them():
    """Arabic with vowel marks: HarfBuzz offsets each mark in x and y from its base (Ts for y)."""
    run = Run(font_file(NOTO / "NotoSansArabic-Regular.ttf"), "بَيْتٌ", 20, 100, 30)
    assert any(g[3] for g in run.glyphs) and any(g[2] for g in run.glyphs), "the marks have offsets"
    found = chars(page([run]))
    for (gid, _, _, y_offset, _), x in zip(run.glyphs, run.origins()):
        y = run.y + y_offset * run.size / run.upem
        assert any(abs(fx - x) < 0.05 and abs(fy - y) < 0.05 for _, fx, fy in found), (gid, x, y, found)


def test_codes_are_printable_pairs_mapped_back_to_the_glyph_ids_harfbuzz_chose(sample):
    """A face of at most PRINTABLE_GLYPHS glyphs shows each glyph by a code of two printable
    characters in a (literal string), half the bytes of hex, and its CIDToGIDMap takes each code back
    to the glyph; a larger face (Noto Sans CJK) keeps glyph ids as codes, in hex, Identity-mapped."""
    import pypdf
    from pypdf.generic import ContentStream

    from cardgen.render.pdffont import PRINTABLE_GLYPHS

    runs, pdf = sample
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    page0 = reader.pages[0]
    fonts = page0["/Resources"]["/Font"]
    maps = {}
    for name, ref in fonts.items():
        font = ref.get_object()
        if font.get("/Subtype") != "/Type0":
            continue
        table = font["/DescendantFonts"][0].get_object()["/CIDToGIDMap"]
        if table == "/Identity":
            maps[name] = None
        else:
            data = table.get_object().get_data()
            maps[name] = {i // 2: int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)}
    shown: list[tuple[str, list[int]]] = []  # each text object's font and glyph ids, in order
    current = ""
    for operands, operator in ContentStream(page0.get_contents(), reader).operations:
        if operator == b"Tf":
            current = operands[0]
        elif operator == b"TJ" and current in maps:
            codes = b"".join(getattr(item, "original_bytes", b"") for item in operands[0]
                             if not isinstance(item, (int, float)) and hasattr(item, "original_bytes"))
            cids = [int.from_bytes(codes[i:i + 2], "big") for i in range(0, len(codes), 2)]
            table = maps[current]
            shown.append((current, cids if table is None else [table[c] for c in cids]))
    glyph_runs = [r for r in runs if r.font.glyph_count <= PRINTABLE_GLYPHS]
    assert len(glyph_runs) >= 4 and any(r.font.glyph_count > PRINTABLE_GLYPHS for r in runs)
    for run, (name, gids) in zip(runs, shown):
        assert gids == [g[0] for g in run.glyphs], run.text
        assert (maps[name] is None) == (run.font.glyph_count > PRINTABLE_GLYPHS), run.text
    content = page0.get_contents().get_data()
    assert content.count(b") ") + content.count(b")]") >= 4 and b"<" in content  # both kinds of string
