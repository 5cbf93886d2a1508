"""Text in every script: shaping against HarfBuzz, reading order in the PDF, CJK line breaks,
direction, system fonts, colour emoji and the findings that keep nothing silent.

The fonts are Debian's Noto families (fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji),
which ``make test`` installs (tools/system_packages.sh); a missing one fails here, naming it.
"""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import uharfbuzz as hb

from cardgen.build import build_decks
from cardgen.model import FontFamily
from cardgen.prepare import BuildSettings
from cardgen.render import rich, shaping
from cardgen.render.fonts import FontChain, default_family, face, register, system_family

ROOT = Path(__file__).resolve().parent.parent
INTERNATIONAL = ROOT / "examples" / "international" / "international.yaml"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto")


def noto(name: str) -> Path:
    path = (CJK if name.endswith(".ttc") else NOTO) / name
    assert path.is_file(), f"{path} is missing: install fonts-noto-core, fonts-noto-cjk and fonts-noto-color-emoji"
    return path


def family(name: str, file: str, index: int = 0) -> FontFamily:
    return FontFamily(name, (("regular", noto(file)),), (("regular", index),) if index else ())


#: a sample in each script, its font, and its face index in a collection
SAMPLES = {
    "hebrew": ("השחקן הצעיר ביותר מתחיל ומושך שלושה קלפים", "NotoSansHebrew-Regular.ttf", 0),
    "arabic": ("يبدأ أصغر لاعب. في دورك، اسحب بطاقة.", "NotoSansArabic-Regular.ttf", 0),
    "persian": ("جوان‌ترین بازیکن شروع می‌کند.", "NotoSansArabic-Regular.ttf", 0),
    "japanese": ("最年少のプレイヤーから始めます。", "NotoSansCJK-Regular.ttc", 0),
    "chinese": ("由最年轻的玩家先开始。", "NotoSansCJK-Regular.ttc", 2),
    "hindi": ("सबसे छोटा खिलाड़ी पहले खेलता है।", "NotoSansDevanagari-Regular.ttf", 0),
    "bengali": ("সবচেয়ে ছোট খেলোয়াড় প্রথমে খেলে।", "NotoSansBengali-Regular.ttf", 0),
    "thai": ("ผู้เล่นที่อายุน้อยที่สุดเริ่มก่อน ในตาของคุณ", "NotoSansThai-Regular.ttf", 0),
    "latin": ("AVA Tofu office, “fi” and kerning.", "NotoSans-Regular.ttf", 0),
}


def harfbuzz(text: str, path: Path, index: int, rtl: bool) -> list[tuple[int, int]]:
    """HarfBuzz's own shaping of the whole string: glyph ids and advances, left to right."""
    blob = hb.Blob(path.read_bytes())
    font = hb.Font(hb.Face(blob, index))
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    buf.direction = "rtl" if rtl else "ltr"
    hb.shape(font, buf, {})
    return [(i.codepoint, p.x_advance) for i, p in zip(buf.glyph_infos, buf.glyph_positions)]


def cardgen_glyphs(text: str, chain: FontChain, width: float = 10_000) -> tuple[list[tuple[int, int]], bool]:
    prepared = rich.prepare([rich.Run(text)], chain)
    lines = rich.wrap(prepared, 10, width)
    assert len(lines) == 1
    out = []
    for op in rich.line_ops(lines[0], 10, 0, 0, (0, 0, 0)):
        assert op[0] == "text"
        for glyphs in op[8]:
            out.extend(zip(glyphs.ids, glyphs.advances))
    return out, lines[0].rtl


@pytest.mark.parametrize("script", list(SAMPLES))
def test_glyph_ids_and_advances_are_harfbuzzs_for_every_script(script):
    text, file, index = SAMPLES[script]
    chain = FontChain((family(script, file, index), default_family()))
    ours, rtl = cardgen_glyphs(text, chain)
    assert rtl == (script in ("hebrew", "arabic", "persian"))
    assert ours == harfbuzz(text, noto(file), index, rtl)


def test_arabic_letters_join_and_latin_kerns_and_ligates():
    arabic = FontChain((family("a", "NotoSansArabic-Regular.ttf"), default_family()))
    joined = rich.prepare([rich.Run("بيت")], arabic).paragraphs[0].words[0].pieces[0].glyphs
    alone = [rich.prepare([rich.Run(c)], arabic).paragraphs[0].words[0].pieces[0].glyphs.ids[0] for c in "بيت"]
    # the joined forms are other glyphs than the isolated letters, and narrower: beh joined is ~0.3 em
    assert set(joined.ids).isdisjoint(alone[:2])
    assert joined.w1 < sum(rich.width1(c, arabic.fonts("regular")[0]) for c in "بيت") * 0.8
    latin = FontChain()
    av = rich.prepare([rich.Run("AV")], latin).paragraphs[0].words[0].w1
    assert av < rich.width1("A", latin.fonts("regular")[0]) + rich.width1("V", latin.fonts("regular")[0])
    fi = shaping.shape("fi", latin.fonts("regular")[0])
    assert len(fi.ids) == 1 and fi.texts == ("fi",)  # one ligature glyph, standing for both letters


def test_features_per_family_turn_ligatures_off():
    plain = FontFamily("Plain", default_family().files, features=(("liga", 0),))
    chain = FontChain((plain,))
    glyphs = rich.prepare([rich.Run("fi")], chain).paragraphs[0].words[0].pieces[0].glyphs
    assert len(glyphs.ids) == 2


# --- direction ------------------------------------------------------------------------

def visual_words(text: str, chain: FontChain, direction: str = "auto") -> list[str]:
    prepared = rich.prepare([rich.Run(text)], chain, direction)
    line = rich.wrap(prepared, 10, 10_000)[0]
    return [op[6] for op in rich.line_ops(line, 10, 0, 0, (0, 0, 0))]


@pytest.fixture(scope="module")
def mixed_chain():
    return FontChain((family("l", "NotoSans-Regular.ttf"), family("h", "NotoSansHebrew-Regular.ttf"),
                      family("a", "NotoSansArabic-Regular.ttf"), default_family()))


def test_a_hebrew_word_in_an_english_line_stays_in_place(mixed_chain):
    runs = visual_words("The word שלום עולם means peace.", mixed_chain)
    # Latin runs left to right; the Hebrew phrase, one right-to-left run, in its place between them
    assert [r.strip() for r in runs] == ["The word", "שלום עולם", "means peace."]


def test_an_english_name_and_a_number_in_a_hebrew_line(mixed_chain):
    prepared = rich.prepare([rich.Run("כתוב CardGen 2.0 בעברית")], mixed_chain)
    line = rich.wrap(prepared, 10, 10_000)[0]
    assert line.rtl
    ops = rich.line_ops(line, 10, 0, 0, (0, 0, 0))
    # drawn left to right: the last Hebrew word first, then CardGen 2.0, then the first Hebrew word
    xs = {op[6].strip(): op[1] for op in ops}
    assert xs["בעברית"] < xs["CardGen 2.0"] < xs["כתוב"]


def test_direction_and_align_start_follow_the_paragraph(mixed_chain):
    assert rich.absolute_align("start", True) == "right" and rich.absolute_align("end", True) == "left"
    assert rich.absolute_align("start", False) == "left" and rich.absolute_align("center", True) == "center"
    forced = rich.prepare([rich.Run("abc שלום")], mixed_chain, "rtl")
    assert forced.paragraphs[0].rtl
    assert not rich.prepare([rich.Run("abc שלום")], mixed_chain).paragraphs[0].rtl


def test_rule_l2_reverses_runs_from_the_highest_level_down():
    # levels of "car (MEANS CAR)." in a left-to-right paragraph with CAPS right to left, UAX #9's example
    assert shaping.visual_order([0, 1, 1, 0]) == [0, 2, 1, 3]
    assert shaping.visual_order([1, 2, 2, 1, 1]) == [4, 3, 1, 2, 0]
    assert shaping.visual_order([0, 0]) == [0, 1]


# --- line breaking -------------------------------------------------------------------

JAPANESE_RULE = ("最年少のプレイヤーから始めます。手番では山札からカードを三枚引き、そのうち一枚を場に出してください。"
                 "場のカードの合計が十を超えたら、そのプレイヤーは得点を一点失い、次の人の番です。")


def test_a_japanese_rule_of_90_characters_wraps_onto_lines_that_fit():
    assert len(JAPANESE_RULE) == 90
    chain = FontChain((family("jp", "NotoSansCJK-Regular.ttc"), default_family()))
    prepared = rich.prepare([rich.Run(JAPANESE_RULE)], chain)
    width = 48 * 72 / 25.4  # a business card's text box
    fitted = rich.fit(prepared, 9, 6, width, 40 * 72 / 25.4)
    assert fitted.fits and len(fitted.lines) >= 4
    lines = ["".join(p.text for w in line.words for p in w.pieces) for line in fitted.lines]
    assert "".join(lines) == JAPANESE_RULE
    assert all(line.w1 * fitted.size <= width + 0.01 for line in fitted.lines)
    # UAX #14: no line starts with closing punctuation, none ends with an opening bracket
    assert not any(line[0] in "。、」）" for line in lines)
    assert not any(line[-1] in "「（" for line in lines)


def test_uax14_breaks_cjk_between_characters_but_not_before_closing_punctuation():
    units = shaping.break_units("始めます。「かぎ」で")
    assert "す。" in units and "「か" in units and "ぎ」" in units
    assert shaping.break_units("two-player game") == ("two-", "player ", "game")


@pytest.mark.parametrize("text", ["Move 3 links. (Max) \"q\" it's 50% #1 @x $5 a+b=c*d &", "a  b ", " lead", "x"])
def test_the_fast_path_for_plain_ascii_agrees_with_uax14(text):
    import unicode_segmentation_rs

    assert shaping.break_units(text) == tuple(unicode_segmentation_rs.line_break_units(text))


def test_thai_breaks_between_clusters_only_where_a_phrase_is_wider_than_the_line():
    chain = FontChain((family("th", "NotoSansThai-Regular.ttf"), default_family()))
    text = "ผู้เล่นที่อายุน้อยที่สุดเริ่มก่อน ในตาของคุณ"
    prepared = rich.prepare([rich.Run(text)], chain)
    wide = rich.wrap(prepared, 10, 10_000)
    assert len(wide) == 1
    narrow = rich.wrap(prepared, 10, 60)
    assert len(narrow) > 2 and all(line.w1 * 10 <= 60.01 for line in narrow)
    # no cluster is split: every line starts with a base letter, not a mark
    import unicodedata

    for line in narrow:
        first = line.words[0].pieces[0].text[0]
        assert not unicodedata.category(first).startswith("M")


# --- emoji ------------------------------------------------------------------------------

@pytest.mark.parametrize("emoji", ["👍🏽", "👨\u200d👩\u200d👧\u200d👦", "🇯🇵", "❤\ufe0f"])
def test_an_emoji_cluster_stays_whole_in_the_colour_font(emoji):
    colour = family("Emoji", "NotoColorEmoji.ttf")
    chain = FontChain((default_family(), colour))
    pieces = rich.prepare([rich.Run(f"a {emoji} b")], chain).paragraphs[0].words[1].pieces
    assert len(pieces) == 1
    assert face(pieces[0].font).color
    assert len(pieces[0].glyphs.ids) == 1  # one glyph: the skin tone, the joined family, the flag


# --- fonts ----------------------------------------------------------------------------

def test_a_system_family_is_found_by_name_with_its_styles():
    if shutil.which("fc-match") is None:
        pytest.fail("fontconfig (fc-match) is missing: install fontconfig")
    found = system_family("Noto Sans CJK JP")
    files = dict(found.files)
    assert files["regular"].name == "NotoSansCJK-Regular.ttc" and files["bold"].name == "NotoSansCJK-Bold.ttc"
    assert "italic" not in files  # CJK has no italic: that style falls back, and says so
    register(*found.face("regular"))


def deck(tmp_path, body: str) -> Path:
    path = tmp_path / "d.yaml"
    path.write_text("deck: d\nname: D\n" + textwrap.dedent(body), encoding="utf-8")
    return path


def test_an_unknown_system_family_is_an_error_listing_close_matches(cli, tmp_path):
    path = deck(tmp_path, """\
        fonts:
          JP: {system: Noto Sans CJK J}
        cards: [{id: a, title: A}]
        """)
    result = cli("validate", str(path))
    assert result.exit_code == 2
    assert "d.yaml:4:" in result.output and "no font family 'Noto Sans CJK J'" in result.output
    assert "Noto Sans CJK JP" in result.output


def test_a_collection_face_out_of_range_is_an_error_at_its_line(cli, tmp_path):
    shutil.copy(noto("NotoSansCJK-Regular.ttc"), tmp_path / "cjk.ttc")
    path = deck(tmp_path, """\
        fonts:
          JP: {regular: {file: cjk.ttc, index: 40}}
        cards: [{id: a, title: A}]
        """)
    result = cli("validate", str(path))
    assert result.exit_code == 2
    assert "d.yaml:4:" in result.output and "faces are numbered 0 to" in result.output


def test_bold_cjk_in_a_family_without_bold_is_one_warning_naming_the_cards(cli, tmp_path):
    shutil.copy(noto("NotoSansCJK-Regular.ttc"), tmp_path / "cjk.ttc")
    path = deck(tmp_path, """\
        fonts:
          JP: {regular: {file: cjk.ttc, index: 0}}
        font_fallback: [JP]
        cards:
          - {id: a, title: A, text: "<b>日本</b>"}
          - {id: b, title: B, text: "<b>日本語</b>"}
        """)
    result = cli("validate", str(path))
    assert "font 'JP' has no bold face: its bold text prints regular" in result.output
    assert result.output.count("has no bold face") == 1 and "cards a, b" in result.output


def test_a_script_no_font_covers_is_named(cli, tmp_path):
    path = deck(tmp_path, """\
        cards: [{id: a, title: A, text: "नमस्ते"}]
        """)
    result = cli("validate", str(path))
    assert result.exit_code != 0
    assert "a Devanagari character no font has" in result.output
    assert "Noto Sans Devanagari" in result.output


def test_a_font_with_arabic_letters_but_no_arabic_rules_is_a_finding(cli, tmp_path):
    from fontTools.ttLib import TTFont

    font = TTFont(noto("NotoSansArabic-Regular.ttf"))
    for tag in ("GSUB", "GPOS", "GDEF"):
        del font[tag]
    font.save(tmp_path / "flat.ttf")
    path = deck(tmp_path, """\
        fonts:
          Flat: flat.ttf
        font_fallback: [Flat]
        cards: [{id: a, title: A, text: "بيت"}]
        """)
    result = cli("validate", str(path))
    assert "has Arabic letters but no Arabic shaping rules" in result.output


# --- the example, in the PDF --------------------------------------------------------------

@pytest.fixture(scope="module")
def international_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("international")
    build_decks([str(INTERNATIONAL)], out, BuildSettings())
    return out / "international.pdf"


def page_chars(pdf: Path) -> list[tuple[str, float, int]]:
    """Every character of the first page with the centre of its box across and its line: characters
    whose centres are within 3 pt of each other up and down share a line."""
    doc = pdfium.PdfDocument(pdf)
    text = doc[0].get_textpage()
    found = []
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        left, bottom, right, top = text.get_charbox(i)
        if char.strip():
            found.append((char, (left + right) / 2, (bottom + top) / 2))
    lines: dict[float, int] = {}
    last, line = None, 0
    for y in sorted({y for _, _, y in found}):
        if last is not None and y - last > 3:
            line += 1
        lines[y], last = line, y
    return [(c, x, lines[y]) for c, x, y in found]


def test_every_font_in_the_example_is_embedded(international_pdf):
    if shutil.which("pdffonts") is None:
        pytest.fail("pdffonts is missing: install poppler-utils")
    import subprocess

    table = subprocess.run(["pdffonts", str(international_pdf)], capture_output=True, text=True, check=True).stdout
    rows = table.splitlines()[2:]
    assert len(rows) >= 8
    assert all(" yes " in row for row in rows), table


@pytest.mark.parametrize("word", ["השחקן", "يبدأ", "بازیکن"])
def test_right_to_left_words_read_right_to_left_in_the_pdf(international_pdf, word):
    chars = page_chars(international_pdf)
    text = "".join(c for c, _, _ in chars)
    # the text layer holds the words' characters; placed on the page, they run right to left
    for line in {y for _, _, y in chars}:
        row = sorted(((x, c) for c, x, y in chars if y == line), reverse=True)
        reading = "".join(c for _, c in row)
        if word in reading:
            break
    else:
        pytest.fail(f"{word!r} not found reading right to left; page text: {text[:200]!r}")


def test_the_mixed_line_reads_in_logical_order(international_pdf):
    chars = page_chars(international_pdf)
    line = next(y for c, x, y in chars if c == "T" and any(
        c2 == "ש" and y2 == y for c2, _, y2 in chars))
    row = sorted((x, c) for c, x, y in chars if y == line)
    left_to_right = "".join(c for _, c in row)
    # the Hebrew word, drawn right to left, sits between "word" and "peace" (pdfium's text layer
    # mirrors brackets next to right-to-left text, so they are left out here)
    assert "word" in left_to_right and "peace" in left_to_right
    hebrew = "".join(c for _, c in row if "\u0590" <= c <= "\u05ff")
    assert hebrew[:4][::-1] == "שלום"
    assert left_to_right.index("word") < left_to_right.index(hebrew[:4]) < left_to_right.index("peace")
