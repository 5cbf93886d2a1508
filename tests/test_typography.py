"""Typography of the bundled decks: sizes, contrast, characters, numbers kept with their units."""
from __future__ import annotations

import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
import yaml

from cardgen.build import build_decks
from cardgen.colors import contrast
from cardgen.deck import DECKS_DIR, load_deck
from cardgen.prepare import BuildSettings, deck_faces, prepare
from cardgen.render import rich
from cardgen.render.fonts import FontChain
from cardgen.sheets import load_template

BUNDLED = [("common-carrier", {}), ("dotcombust", {}), ("clusterfuck", {"standard_deck": "true"})]


@pytest.mark.parametrize("deck, options", BUNDLED)
def test_nothing_printed_on_a_bundled_deck_is_smaller_than_6_pt(tmp_path, deck, options):
    build_decks([deck], tmp_path, BuildSettings(options=options))
    smallest = 99.0
    for path in tmp_path.glob("*.pdf"):
        pdf = pdfium.PdfDocument(str(path))
        for page in pdf:
            textpage = page.get_textpage()
            for i in range(textpage.count_chars()):
                if textpage.get_text_range(i, 1).strip():
                    smallest = min(smallest, pdfium_c.FPDFText_GetFontSize(textpage.raw, i))
    assert smallest >= 6.0 - 1e-6, smallest


def _background(ops, index, x, y):
    """The fill under (x, y) when op ``index`` is drawn: the last filled shape there, else white paper."""
    fill = (1.0, 1.0, 1.0)
    for op in ops[:index]:
        if op[0] in ("rect", "ellipse") and op[5] is not None:
            left, bottom, w, h = op[1:5]
            if left <= x <= left + w and bottom <= y <= bottom + h:
                fill = op[5]
    return fill


@pytest.mark.parametrize("deck, options", BUNDLED + [("examples/argonauts/argonauts.yaml", {})])
def test_text_has_a_contrast_of_at_least_4_5_to_1_against_its_background(deck, options):
    from conftest import ROOT

    name = str(ROOT / deck) if deck.endswith(".yaml") else deck
    built = prepare(load_deck(name), BuildSettings(options=options))
    faces = deck_faces(built, load_template("letter-10up"))
    for card in built.cards:
        for key in (faces.face(card), faces.back(card)):
            ops = getattr(faces.drawings[key], "ops", None)
            for i, op in enumerate(ops or []):
                if op[0] == "text":
                    _, x, baseline, _, size, color, words, *_ = op
                    ratio = contrast(color, _background(ops, i, x + 0.5, baseline + size * 0.3))
                    assert ratio >= 4.5, (deck, key, words, round(ratio, 2))


@pytest.mark.parametrize("path", sorted(DECKS_DIR.glob("*.yaml")), ids=lambda p: p.stem)
def test_bundled_deck_texts_use_typographic_characters(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))

    def strings(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for value in node.values():
                yield from strings(value)
        elif isinstance(node, list):
            for value in node:
                yield from strings(value)

    data.pop("layouts", None)  # geometry, not printed text
    for text in strings(data):
        assert " - " not in text and "..." not in text, text  # an en dash, an ellipsis
        assert not re.search(r"\d x \d", text), text  # a multiplication sign


def test_a_number_and_the_word_after_it_never_split_across_lines():
    from cardgen.colors import parse_color_expr

    text = rich.prepare(rich.parse("a target of 7 links on a 5 × 5 board, 12 points", set(), parse_color_expr),
                        FontChain())
    for width in range(40, 260, 3):
        for line in rich.wrap(text, 9, width):
            words = line.words
            if words:
                last = "".join(p.text for p in words[-1].pieces)
                assert not re.fullmatch(r"\d+", last.split(" ")[-1]), (width, last)


def test_words_over_many_font_subsets_print_as_written(tmp_path):
    """Text in more characters than one font subset holds (256), its words recurring card after card
    in new orders, extracts from the PDF as written: a remembered subset split is never stale."""
    import random

    from cardgen.render.fonts import coverage, default_family, register

    has = coverage(register(default_family().file("regular")))
    letters = [chr(c) for c in (*range(0x100, 0x250), *range(0x391, 0x3CA), *range(0x410, 0x450))
               if chr(c) in has and chr(c).isalpha()]
    rng = random.Random(7)
    words = ["".join(rng.choice(letters) for _ in range(rng.randrange(3, 9))) for _ in range(150)]
    rows, used = [], set()
    for i in range(60):
        chosen = rng.sample(words, 12)
        used.update(chosen)
        rows.append((f"c{i}", " ".join(chosen[:2]), " ".join(chosen[2:])))
    printed: dict[str, set[str]] = {}
    for name, order in (("d", rows), ("e", rows[::-1])):  # two documents: splits are per document
        (tmp_path / f"{name}.csv").write_text(
            "id,title,text\n" + "".join(f"{a},{b},{c}\n" for a, b, c in order), encoding="utf-8")
        (tmp_path / f"{name}.yaml").write_text(f"deck: {name}\nname: D\ncsv: {name}.csv\n", encoding="utf-8")
    build_decks([str(tmp_path / "d.yaml"), str(tmp_path / "e.yaml")], tmp_path / "out", BuildSettings())
    for name in "de":
        printed[name] = set()
        for page in pdfium.PdfDocument(str(tmp_path / "out" / f"{name}.pdf")):
            printed[name].update(page.get_textpage().get_text_range().split())
    assert len(set("".join(used))) > 256
    for name in "de":
        assert used <= printed[name], sorted(used - printed[name])[:5]


@pytest.mark.parametrize("seed", range(40))
def test_prepared_words_keep_numbers_with_the_next_word_and_measure_each_piece(seed):
    """What comes out is each word as written, a number (with its sign, unit or fraction) kept with
    the word after it, and each word as wide as HarfBuzz shapes it."""
    import random

    from cardgen.render.shaping import shape

    rng = random.Random(seed)
    vocabulary = ["draw", "a", "card", "7", "5%", "×", "3/4", "-2", "αβγ", "٣", "links", "12", "x"]
    words = [rng.choice(vocabulary) for _ in range(rng.randrange(1, 30))]
    chain = FontChain()
    bold = rng.random() < 0.5
    font = chain.fonts("bold" if bold else "regular")[0]
    expected: list[str] = []
    for word in words:
        if expected and rich._NUMBER.match(expected[-1].split(" ")[-1]):
            expected[-1] += " " + word
        else:
            expected.append(word)
    prepared = rich.prepare([rich.Run(" ".join(words), bold=bold)], chain)
    (paragraph,) = prepared.paragraphs
    assert ["".join(p.text for p in word.pieces) for word in paragraph.words] == expected
    for word, written in zip(paragraph.words, expected):
        assert word.w1 == pytest.approx(sum(p.w1 for p in word.pieces))
        if written.isascii():
            assert word.w1 == pytest.approx(shape(written, font).w1, abs=0.02)
    assert all(word.space_w1 == pytest.approx(rich.width1(" ", font)) for word in paragraph.words[:-1])


@pytest.mark.parametrize("seed", range(20))
def test_the_plain_ascii_fast_path_cuts_words_as_uax14_and_the_number_rule_do(seed):
    """Plain ASCII text is cut by one regular expression; it must agree with UAX #14's breaks
    (unicode-segmentation-rs) followed by the rule that keeps a number with the next word."""
    import random

    from cardgen.render.shaping import break_units

    vocabulary = ["draw", "a", "card", "7", "5%", "12", "x", "3.5", "+2", "(max)", "it's", "50%", "1,000", "  ",
                  ".", ":", "7a", "a7", "%", "12%%"]
    rng = random.Random(seed)
    for _ in range(300):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(1, 15)))
        text = (" " if rng.random() < 0.3 else "") + text + (" " if rng.random() < 0.3 else "")
        assert rich._SIMPLE_ASCII.fullmatch(text)
        assert rich._ASCII_UNITS.findall(text) == rich._keep_numbers(break_units(text)), text


@pytest.mark.parametrize("seed", range(10))
def test_words_across_runs_built_from_their_parts_equal_words_cut_from_shaped_segments(seed, monkeypatch):
    """A word crossing runs ("<b>two</b>, ", ":coin: 3") is built from its parts, each shaped alone
    and cached; it must equal the word cut from its segments as shaped in the paragraph, and a
    paragraph of plain ASCII runs cut straight from its runs must equal both."""
    import random

    from cardgen.render.icons import ICONS

    vocabulary = ["draw", "a", "card,", "<b>two</b>", "<i>then</i>", ":coin:", "7 :coin:", "<b>bold,</b>",
                  "x<i>y</i>z", "<b>a</b> <i>b</i>", "<color red>red</color>.", "3<b>x</b>", "  ", "(<i>max</i>)",
                  "well-<b>known</b>", "<i>naïve</i>", "5%"]
    rng = random.Random(seed)
    chain = FontChain()
    # the plain-ASCII path takes such paragraphs (and leaves others to the general one)
    assert rich._ascii_runs(rich.parse("draw <b>two</b> :coin: cards", frozenset(ICONS), str), chain, {})
    assert rich._ascii_runs(rich.parse("well-<b>known</b>", frozenset(ICONS), str), chain, {}) is None
    for _ in range(200):
        text = " ".join(rng.choice(vocabulary) for _ in range(rng.randrange(1, 25)))
        runs = rich.parse(text, frozenset(ICONS), lambda value: (1.0, 0.0, 0.0))
        built = rich.prepare(runs, chain)
        monkeypatch.setattr(rich, "_ASCII_RUNS", False)
        compound = rich.prepare(runs, chain)
        monkeypatch.setattr(rich, "_COMPOUND", False)
        cut = rich.prepare(runs, chain)
        monkeypatch.setattr(rich, "_COMPOUND", True)
        monkeypatch.setattr(rich, "_ASCII_RUNS", True)
        assert built == compound == cut, text


# --- words that shape alone ----------------------------------------------------------

def _kerned_font(path, features: str = "", kern_pairs: dict | None = None) -> None:
    """A small TrueType font of A, B, the space, the digits and a combining acute, with ``features``
    (feature file syntax) and old-style ``kern`` pairs."""
    from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0

    builder = FontBuilder(1000, isTTF=True)
    digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    glyphs = [".notdef", "space", "A", "B", *digits, "acutecomb"]
    builder.setupGlyphOrder(glyphs)
    builder.setupCharacterMap({32: "space", 65: "A", 66: "B", 0x301: "acutecomb",
                               **{0x30 + i: name for i, name in enumerate(digits)}})
    pen = TTGlyphPen(None)
    for x, y in ((100, 0), (100, 700), (600, 700), (600, 0)):
        (pen.moveTo if (x, y) == (100, 0) else pen.lineTo)((x, y))
    pen.closePath()
    builder.setupGlyf(dict.fromkeys(glyphs, pen.glyph()))
    builder.setupHorizontalMetrics(dict.fromkeys(glyphs, (700, 100)))
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Kerned", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    if features:
        addOpenTypeFeaturesFromString(builder.font, features)
    if kern_pairs:
        kern = builder.font["kern"] = newTable("kern")
        table = KernTable_format_0()
        table.version, table.coverage, table.format, table.kernTable = 0, 1, 0, dict(kern_pairs)
        kern.version, kern.kernTables = 0, [table]
    builder.save(str(path))


@pytest.mark.parametrize("features, kern_pairs, safe", [
    ("feature kern { pos A B -80; } kern;", None, True),
    ("@L = [A]; @R = [B]; feature kern { pos @L @R -80; } kern;", None, True),
    ("feature kern { pos A space -80; } kern;", None, False),  # the space as a pair's second glyph
    ("feature kern { pos space A -80; } kern;", None, False),  # in the pair's coverage
    ("feature liga { sub A space B by A; } liga;", None, False),  # a ligature's component
    ("feature ss01 { sub space by B; } ss01;", None, False),  # a substitution of the space
    ("feature calt { sub A' space by B; } calt;", None, False),  # a context naming it
    ("", {("A", "space"): -80}, False),  # the old kern table
    ("", {("A", "B"): -80}, True),
])
def test_a_face_is_space_safe_only_when_no_rule_looks_at_the_space(tmp_path, features, kern_pairs, safe):
    from cardgen.render.fonts import space_safe

    path = tmp_path / "kerned.ttf"
    _kerned_font(path, features, kern_pairs)
    assert space_safe(path) is safe


def test_the_bundled_faces_only_rule_on_the_space_joins_it_to_a_haraka_after_it():
    """Face.space_safe takes the bundled faces as safe without reading them: the one kind of rule
    they have that looks at the space is a ligature of a space and a following haraka
    (U+064B to U+0652)."""
    from fontTools.ttLib import TTFont

    from cardgen.render.fonts import _mentions
    from cardgen.resources import bundled

    haraka = tuple(map(chr, range(0x064B, 0x0653)))  # the characters the space is joined to

    files = sorted(bundled("fonts").glob("*.ttf"))
    assert files
    for path in files:
        font = TTFont(str(path))
        cmap = font.getBestCmap()
        partners = {cmap[ord(c)] for c in haraka if ord(c) in cmap}
        for tag in ("GSUB", "GPOS"):
            for lookup in font[tag].table.LookupList.Lookup:
                for sub in lookup.SubTable:
                    if _mentions(sub, {"space"}):
                        assert tag == "GSUB" and lookup.LookupType == 4, (path.name, tag, lookup.LookupType)
                        components = {c for lig in sub.ligatures.get("space", ()) for c in lig.Component}
                        assert components <= partners and not any(
                            "space" in lig.Component for ligs in sub.ligatures.values() for lig in ligs)



MARKS = ("table GDEF { GlyphClassDef [A B], , [acutecomb], ; } GDEF;"
         "markClass acutecomb <anchor 0 700> @TOP;"
         "feature mark { pos base [one seven] <anchor 300 700> mark @TOP; } mark;")


@pytest.mark.parametrize("features, kern_pairs, alone", [
    ("feature kern { pos A B -80; } kern;", None, True),
    (MARKS, None, True),  # marks attach to digits: no ASCII character is a mark
    ("feature kern { pos one seven -80; } kern;", None, False),
    ("feature kern { pos A one -80; } kern;", None, False),
    ("feature tnum { sub one by seven; } tnum;", None, False),  # any feature: a deck may ask for it
    ("table GDEF { GlyphClassDef [one], , [A], ; } GDEF;", None, False),  # an ASCII letter as a mark
    ("", {("one", "seven"): -80}, False),
])
def test_digits_shape_alone_only_when_no_rule_for_ascii_looks_at_them(tmp_path, features, kern_pairs, alone):
    from cardgen.render.fonts import digits_alone

    path = tmp_path / "digits.ttf"
    _kerned_font(path, features, kern_pairs)
    assert digits_alone(path) is alone


@pytest.mark.parametrize("style", ["regular", "bold", "italic", "bold_italic"])
def test_a_word_with_digits_put_together_from_its_parts_is_harfbuzzs_shaping_of_it(style):
    """Card numbers, costs and counts are new words card after card: ``_word`` builds them from
    cached digits and the letters between them. Their glyphs and advances must be HarfBuzz's own
    shaping of the whole word, kerning and all, in every bundled face (and those faces must be found
    to leave digits alone by reading them, as Face.digits_alone takes for granted)."""
    import random

    import uharfbuzz as hb

    from cardgen.render.fonts import digits_alone, face

    font = FontChain().fonts(style)[0]
    assert digits_alone(face(font).path)
    rng = random.Random(style)
    pool = "0123456789" * 3 + "AVTWYLfjrkxy.,:;%+-()/'" + "·€№é–" + "\u0301" + "     "
    for _ in range(400):
        unit = "".join(rng.choice(pool) for _ in range(rng.randrange(1, 12))).strip() or "7"
        unit = (unit + "7") if not any(c.isdigit() for c in unit) else unit
        word = rich._word(unit + " ", font, None, (), 0)
        assert len(word.pieces) > 1 or len(unit) == 1 or "\u0301" in unit  # a mark: shaped whole
        buf = hb.Buffer()
        buf.add_str(unit)
        buf.guess_segment_properties()
        hb.shape(face(font).hb_font, buf)
        ids = [g for p in word.pieces for g in p.glyphs.ids]
        advances = [a for p in word.pieces for a in p.glyphs.advances]
        assert ids == [i.codepoint for i in buf.glyph_infos], unit
        assert advances == [p.x_advance for p in buf.glyph_positions], unit
        assert word.w1 == pytest.approx(sum(advances) / face(font).upem)
