"""Layouts: elements placed as data, fields filled in, text fitted, fonts checked, art drawn."""
from __future__ import annotations

import textwrap

import pypdfium2 as pdfium
import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from PIL import Image

from cardgen.build import build_decks
from cardgen.deck import load_deck
from cardgen.errors import CardgenError
from cardgen.layouts import Span, parse_size, parse_span
from cardgen.prepare import BuildSettings, deck_faces, prepare
from cardgen.render import rich
from cardgen.render.fonts import FontChain
from cardgen.resolve import load_resolved
from cardgen.sheets import load_template
from cardgen.units import mm

LETTER = load_template("letter-10up")


def deck_file(tmp_path, body: str, name: str = "d"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"deck: {name}\nname: Test deck\n" + textwrap.dedent(body), encoding="utf-8")
    return path


def faces_of(path, sheet: str = "letter-10up"):
    deck = prepare(load_deck(path), BuildSettings())
    return deck, deck_faces(deck, load_template(sheet))


def ops_of(path, card_id: str, sheet: str = "letter-10up") -> list[tuple]:
    deck, faces = faces_of(path, sheet)
    card = next(c for c in deck.cards if c.id == card_id)
    return faces.drawings[faces.face(card)].ops


def texts(ops) -> list[str]:
    return [op[6] for op in ops if op[0] == "text"]


def make_font(path, chars: str) -> None:
    """A tiny TrueType font with a box glyph for each of ``chars`` (and a space)."""
    builder = FontBuilder(1000, isTTF=True)
    glyphs = [".notdef", "space"] + [f"g{ord(c)}" for c in chars]
    builder.setupGlyphOrder(glyphs)
    builder.setupCharacterMap({32: "space", **{ord(c): f"g{ord(c)}" for c in chars}})
    pen = TTGlyphPen(None)
    pen.moveTo((100, 0))
    pen.lineTo((100, 700))
    pen.lineTo((600, 700))
    pen.lineTo((600, 0))
    pen.closePath()
    glyph = pen.glyph()
    builder.setupGlyf(dict.fromkeys(glyphs, glyph))
    builder.setupHorizontalMetrics(dict.fromkeys(glyphs, (700, 100)))
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Boxes", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))


# --- lengths and boxes ---------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("3mm", Span(mm(3), 0)), ("50%", Span(0, 50)), ("100% - 6mm", Span(-mm(6), 100)),
    ("22% + 6pt - 1in", Span(6 - 72, 22)), (0, Span()), ("-2mm", Span(-mm(2), 0)),
])
def test_lengths_are_sums_of_units_and_percentages(text, expected):
    span = parse_span(text)
    assert span.points == pytest.approx(expected.points) and span.percent == pytest.approx(expected.percent)


@pytest.mark.parametrize("text", ["3", "3 mm mm", "50%%", "abc", "3mm 2mm", ""])
def test_a_length_without_a_unit_or_with_rubbish_is_refused(text):
    with pytest.raises(ValueError):
        parse_span(text)


LAYOUT_DECK = """\
layouts:
  plain:
    elements:
      - {name: band, type: rect, height: 25%, fill: "#ff0000", bleed: true}
      - {name: badge, type: ellipse, x: 100% - 3mm, y: 50%, anchor: right, width: 10mm, height: 10mm,
         fill: white}
      - {name: title, type: text, text: "{title}", x: 3mm, width: 100% - 6mm, height: 25%, size: 12}
      - {name: safe-box, type: rect, area: safe, fill: "#00ff00"}
cards:
  - {id: a, layout: plain, title: Hello}
"""


def test_elements_sit_where_their_boxes_say_measured_from_the_top_left(tmp_path):
    ops = ops_of(deck_file(tmp_path, LAYOUT_DECK), "a")
    w, h, b = LETTER.card_width, LETTER.card_height, LETTER.art_bleed
    band = next(op for op in ops if op[0] == "rect" and op[5] == (1.0, 0.0, 0.0))
    assert band[1:5] == pytest.approx((-b, h * 0.75, w + 2 * b, h * 0.25 + b))  # into the bleed
    badge = next(op for op in ops if op[0] == "ellipse")
    # anchored at its right-middle: the right edge 3 mm in, centred on the card's height
    assert badge[1] + badge[3] == pytest.approx(w - mm(3))
    assert badge[2] + badge[4] / 2 == pytest.approx(h / 2)
    safe = next(op for op in ops if op[0] == "rect" and op[5] == (0.0, 1.0, 0.0))
    assert safe[1:5] == pytest.approx((mm(3), mm(3), w - mm(6), h - mm(6)))
    title = next(op for op in ops if op[0] == "text")
    assert title[1] == pytest.approx(mm(3)) and title[6] == "Hello"


def test_backgrounds_marked_bleed_reach_into_the_templates_bleed(tmp_path):
    template = load_template("letter-8up-gaps")
    ops = ops_of(deck_file(tmp_path, LAYOUT_DECK), "a", "letter-8up-gaps")
    band = next(op for op in ops if op[0] == "rect" and op[5] == (1.0, 0.0, 0.0))
    b = template.bleed
    assert template.art_bleed == b
    # the top, left and right sides lie on the trim and grow; the bottom side is inside the card
    assert band[1:5] == pytest.approx((-b, template.card_height * 0.75, template.card_width + 2 * b,
                                       template.card_height * 0.25 + b))


def test_an_element_outside_the_card_is_refused_at_its_line(tmp_path, cli):
    path = deck_file(tmp_path, """\
        layouts:
          wide:
            elements:
              - {name: banner, type: rect, x: 10mm, width: 100%, fill: red}
        cards:
          - {id: a, layout: wide}
        """)
    result = cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "d.yaml:6:" in result.output and "'banner'" in result.output and "outside the card" in result.output
    assert not (tmp_path / "out").exists()


# --- rotation and mirroring ----------------------------------------------------------

def apply(matrix, x, y):
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


@pytest.mark.parametrize("kind, attrs", [
    ("text", "text: Hi"), ("rect", "fill: red"), ("ellipse", "fill: red"), ("line", "color: red"),
    ("image", "file: art.svg"), ("icon", "icon: star"), ("list", "items: one"),
])
def test_every_element_kind_turns_and_mirrors_about_its_box_centre(tmp_path, kind, attrs):
    (tmp_path / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                      '<rect width="10" height="10" fill="red"/></svg>', encoding="utf-8")
    path = deck_file(tmp_path, f"""\
        layouts:
          turned:
            elements:
              - {{name: e, type: {kind}, {attrs}, x: 10mm, y: 5mm, width: 30mm, height: 20mm, rotate: 90,
                 mirror: vertical}}
        cards:
          - {{id: a, layout: turned}}
        """)
    ops = ops_of(path, "a")
    assert ops[0][0] == "transform" and ops[-1] == ("end",) and len(ops) > 2
    h = LETTER.card_height
    centre = (mm(10 + 15), h - mm(5 + 10))
    matrix = ops[0][1:]
    assert apply(matrix, *centre) == pytest.approx(centre)
    # mirrored top to bottom, then a quarter turn clockwise: the box's top-left corner lands on the
    # turned box's top-left, and its top-right on the turned box's bottom-right
    top_left, top_right = (mm(10), h - mm(5)), (mm(40), h - mm(5))
    assert apply(matrix, *top_left) == pytest.approx((centre[0] - mm(10), centre[1] + mm(15)))
    assert apply(matrix, *top_right) == pytest.approx((centre[0] - mm(10), centre[1] - mm(15)))


def test_a_half_turn_maps_the_box_onto_itself_corner_to_opposite_corner(tmp_path):
    path = deck_file(tmp_path, """\
        layouts:
          turned:
            elements:
              - {name: e, type: rect, fill: red, x: 100% - 3mm, y: 100% - 3mm, anchor: bottom-right,
                 width: 8mm, height: 12mm, rotate: 180}
        cards:
          - {id: a, layout: turned}
        """)
    ops = ops_of(path, "a")
    w = LETTER.card_width
    assert ops[0] == ("transform", -1.0, 0.0, 0.0, -1.0, pytest.approx(2 * (w - mm(7))), pytest.approx(2 * mm(9)))
    assert ops[1][1:5] == pytest.approx((w - mm(11), mm(3), mm(8), mm(12)))


@pytest.mark.parametrize("mirror, corner, lands", [
    ("horizontal", (0, 0), (1, 0)),  # left and right swap
    ("vertical", (0, 0), (0, 1)),    # top and bottom swap
])
def test_mirror_flips_the_box_in_place(tmp_path, mirror, corner, lands):
    path = deck_file(tmp_path, f"""\
        layouts:
          flipped:
            elements:
              - {{name: e, type: icon, icon: star, x: 10mm, y: 10mm, width: 20mm, height: 10mm, mirror: {mirror}}}
        cards:
          - {{id: a, layout: flipped}}
        """)
    matrix = ops_of(path, "a")[0][1:]
    x0, y0, w, h = mm(10), LETTER.card_height - mm(20), mm(20), mm(10)
    assert apply(matrix, x0 + corner[0] * w, y0 + corner[1] * h) == pytest.approx((x0 + lands[0] * w,
                                                                                  y0 + lands[1] * h))


def drawn_box(ops) -> tuple[float, float, float, float]:
    """Where the one rect of ``ops`` lands on the card, its matrix applied: (left, bottom, width, height)."""
    matrix = ops[0][1:]
    x, y, w, h = next(op for op in ops if op[0] == "rect")[1:5]
    xs, ys = zip(*(apply(matrix, px, py) for px in (x, x + w) for py in (y, y + h)))
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@pytest.mark.parametrize("box, turn, lands", [
    # a band on the left edge, mirrored: it still reaches into the bleed past the left edge, not the middle
    ("x: 0, width: 30%", "mirror: horizontal", lambda w, h, b: (-b, -b, 0.3 * w + b, h + 2 * b)),
    # a square in the top-left corner, turned a quarter: past the left and the top edges
    ("x: 0, width: 20mm, height: 20mm", "rotate: 90", lambda w, h, b: (-b, h - mm(20), mm(20) + b, mm(20) + b)),
])
def test_a_turned_background_reaches_into_the_bleed_where_it_lands(tmp_path, box, turn, lands):
    template = load_template("letter-8up-gaps")
    path = deck_file(tmp_path, f"""\
        layouts:
          turned:
            elements:
              - {{name: band, type: rect, fill: red, bleed: true, {box}, {turn}}}
        cards:
          - {{id: a, layout: turned}}
        """)
    ops = ops_of(path, "a", "letter-8up-gaps")
    expected = lands(template.card_width, template.card_height, template.bleed)
    assert drawn_box(ops) == pytest.approx(expected)


def test_a_slanted_background_gets_no_bleed(tmp_path):
    path = deck_file(tmp_path, """\
        layouts:
          turned:
            elements:
              - {name: band, type: rect, fill: red, bleed: true, x: 50%, y: 50%, anchor: center, width: 10mm,
                 height: 10mm, rotate: 30}
        cards:
          - {id: a, layout: turned}
        """)
    rect = next(op for op in ops_of(path, "a", "letter-8up-gaps") if op[0] == "rect")
    assert rect[3:5] == pytest.approx((mm(10), mm(10)))


def test_turned_text_is_fitted_in_its_own_upright_box(tmp_path):
    # 34 mm long and 6 mm high: turned a quarter, it stands 6 mm wide and 34 mm tall on the card, and
    # the words still fit at the size they have upright in the same box
    body = """\
        layouts:
          side:
            elements:
              - {{name: e, type: text, text: A LONG SIDEWAYS LABEL, x: {x}, y: 21mm, anchor: center,
                 width: 34mm, height: 6mm, size: 20, min_size: 4, max_lines: 1{extra}}}
        cards:
          - {{id: a, layout: side}}
        """
    upright = ops_of(deck_file(tmp_path, body.format(x="20mm", extra=""), "u"), "a")
    turned = ops_of(deck_file(tmp_path, body.format(x="6mm", extra=", rotate: 90"), "t"), "a")
    size = next(op for op in upright if op[0] == "text")[4]
    assert 4 < size < 20
    assert [op[4] for op in turned if op[0] == "text"] == [size]
    assert turned[0][0] == "transform" and turned[-1] == ("end",)


def test_a_turned_element_is_checked_inside_the_card_as_turned(tmp_path, cli):
    # upright this box would reach 11 mm past the left edge; turned a quarter it lies inside
    inside = """\
        layouts:
          side:
            elements:
              - {name: e, type: rect, fill: red, x: 6mm, y: 21mm, anchor: center, width: 34mm, height: 6mm,
                 rotate: 90}
        cards:
          - {id: a, layout: side}
        """
    assert cli("validate", deck_file(tmp_path, inside, "ok")).exit_code == 0
    # and a box inside the card upright that a quarter turn pushes past the top and bottom is refused
    outside = inside.replace("x: 6mm, y: 21mm", "x: 50%, y: 50%").replace("width: 34mm", "width: 80mm")
    result = cli("validate", deck_file(tmp_path, outside, "bad"))
    assert result.exit_code == 2 and "'e'" in result.output and "outside the card" in result.output


@pytest.mark.parametrize("value, words", [
    ("rotate: ninety", "rotate must be a number"),
    ("rotate: true", "rotate must be a number"),
    ("rotate: 400", "rotate must be at most 360, got 400"),
    ("rotate: -361", "rotate must be at least -360"),
    ("rotate: .nan", "rotate: expected a number of degrees"),
    ("mirror: sideways", "mirror must be one of 'horizontal', 'vertical'"),
    ("mirror: horizontl", "(did you mean 'horizontal'?)"),
])
def test_rotate_and_mirror_mistakes_are_one_located_line(tmp_path, cli, value, words):
    path = deck_file(tmp_path, f"""\
        layouts:
          a:
            elements:
              - {{name: x, type: text, text: hi,
                 {value}}}
        cards:
          - {{id: z, layout: a}}
        """)
    result = cli("validate", path)
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith("Error: ") and "d.yaml:7:" in line and words in line, line


def test_a_turn_given_by_an_extending_layout_turns_the_inherited_element(tmp_path):
    deck = load_deck(deck_file(tmp_path, """\
        layouts:
          base:
            elements:
              - {name: mark, type: icon, icon: star, width: 10mm, height: 10mm}
          turned:
            extends: base
            elements:
              - {name: mark, rotate: -90, mirror: horizontal}
        cards:
          - {id: a, layout: turned}
        """))
    base, turned = deck.layouts["base"].elements[0], deck.layouts["turned"].elements[0]
    assert (base.rotate, base.mirror) == (0.0, "")
    assert (turned.rotate, turned.mirror) == (270.0, "horizontal")


def test_built_in_layouts_name_only_fields_cardgen_fills_in():
    from cardgen.layouts import read_layouts
    from cardgen.render.faces import BACK_FIELDS, PLAYING_FIELDS
    from cardgen.render.layout import BUILTIN_FIELDS

    known = set(BUILTIN_FIELDS) | set(BACK_FIELDS) | set(PLAYING_FIELDS)
    for layout in read_layouts(None).values():
        used = {name for e in layout.elements for _, name in e.referenced_fields()}
        assert used <= known, (layout.name, used - known)


def test_a_deck_may_restyle_the_playing_cards_even_when_its_standard_deck_is_off(tmp_path, cli):
    path = deck_file(tmp_path, """\
        options: {with_cards: false}
        standard_deck: {when: with_cards}
        layouts:
          playing:
            extends: playing
            elements:
              - {name: pip-rank, text: "{rank} of {suit}"}
        cards:
          - {id: a, title: A}
        """)
    assert cli("validate", path).exit_code == 0
    deck = prepare(load_deck(path), BuildSettings(options={"with_cards": "true"}))
    faces = deck_faces(deck, LETTER)
    card = next(c for c in deck.cards if c.id == "q-of-hearts")
    assert "Q of hearts" in texts(faces.drawings[faces.face(card)].ops)


# --- extends -------------------------------------------------------------------------

EXTENDS = """\
layouts:
  base:
    elements:
      - {name: band, type: rect, height: 20%, fill: blue}
      - {name: title, type: text, text: "{title}", height: 20%}
      - {name: note, type: text, text: base note, y: 50%, height: 20%}
  child:
    extends: base
    elements:
      - {name: band, fill: green}
      - {name: note, remove: true}
      - {name: extra, type: text, text: child only, y: 70%, height: 20%}
cards:
  - {id: a, layout: child, title: Hi}
"""


def test_a_layout_extends_another_overriding_elements_by_name(tmp_path):
    deck = load_deck(deck_file(tmp_path, EXTENDS))
    child = deck.layouts["child"]
    assert [e.name for e in child.elements] == ["band", "title", "extra"]
    assert child.elements[0].attrs["fill"] == "green" and child.elements[0].height == Span(0, 20)
    assert texts(ops_of(deck_file(tmp_path, EXTENDS), "a")) == ["Hi", "child only"]


def test_a_deck_layout_may_extend_the_builtin_one_of_its_own_name(tmp_path):
    deck = load_deck(deck_file(tmp_path, """\
        layouts:
          generic:
            extends: generic
            elements:
              - {name: title, color: gold}
        cards:
          - {id: a, title: Gilded}
        """))
    layout = deck.layouts["generic"]
    assert not layout.builtin
    assert next(e for e in layout.elements if e.name == "title").attrs["color"] == "gold"
    assert len(layout.elements) == len(deck.layouts["generic-portrait"].elements)


@pytest.mark.parametrize("body, words", [
    ("layouts:\n  a: {extends: b, elements: []}\n  b: {extends: a, elements: []}\n", "in a circle: a -> b -> a"),
    ("layouts:\n  a: {extends: bsae, elements: []}\n  base: {elements: []}\n", "did you mean 'base'"),
    ("layouts:\n  a:\n    elements:\n      - {name: x, type: text, txet: hi}\n", "(did you mean 'text'?)"),
    ("layouts:\n  a:\n    elements:\n      - {name: x, type: rect, text: hi}\n", "a rect element has no key 'text'"),
    ("layouts:\n  a:\n    elements:\n      - {name: x, type: rect, fill: reed}\n", "unknown colour 'reed'"),
    ("layouts:\n  a:\n    elements:\n      - {name: x, type: icon, icon: strr}\n", "did you mean 'star'"),
    ("layouts:\n  a:\n    elements:\n      - {name: x, type: text, width: 50}\n", "needs a unit"),
    ("layouts:\n  a:\n    elements:\n      - {name: x}\n", "needs a type"),
    ("cards:\n  - {id: a, layout: fancy}\n", "layout 'fancy' is no layout"),
    ("layouts:\n  a:\n    elements:\n      - {name: x, type: text, size: '{s}'}\n", "size cannot hold a {field}"),
    ("cards:\n  - {id: a, fields: {x: [[1]]}}\n", "fields.x[0] must be text"),
    ("cards:\n  - {id: a, fields: {title: x}}\n", "'title' is a card key"),
    ("fonts: {A: {bold: x.ttf}}\n", "font 'A' needs either a regular file or system"),
    # the icon's file is there: a missing file is the loader's to report, before the resolve step looks at names
    ("icons: {star: cardgen-logo.png}\n", "'star' is a built-in icon"),
    ("backs: {nothing: back}\n", "neither a card kind"),
])
def test_layout_mistakes_are_one_located_line(tmp_path, cli, body, words):
    result = cli("validate", deck_file(tmp_path, body + ("cards:\n  - {id: z}\n" if "cards" not in body else "")))
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith("Error: ") and "d.yaml:" in line and words in line, line


# --- fields --------------------------------------------------------------------------

def test_every_spreadsheet_column_is_a_field_and_fills_any_attribute(tmp_path):
    (tmp_path / "cards.csv").write_text("id,title,cost,tint\nx,Ex,3,#00aa00\n", encoding="utf-8")
    path = deck_file(tmp_path, """\
        csv: cards.csv
        layouts:
          generic:
            elements:
              - {name: panel, type: rect, fill: "{tint}"}
              - {name: cost, type: text, text: "Cost {cost}", height: 20%}
        """)
    ops = ops_of(path, "x")
    assert next(op for op in ops if op[0] == "rect")[5] == pytest.approx((0, 0xAA / 255, 0))
    assert texts(ops) == ["Cost 3"]


def test_a_field_no_card_has_is_an_error_with_a_suggestion_at_the_element(tmp_path, cli):
    path = deck_file(tmp_path, """\
        layouts:
          generic:
            elements:
              - {name: cost, type: text, text: "{cots}"}
        cards:
          - {id: a, fields: {cost: 2}}
        """)
    result = cli("build", path, "--out", tmp_path)
    assert result.exit_code == 2
    assert "d.yaml:6:" in result.output and "{cots}" in result.output and "did you mean 'cost'" in result.output


def test_elements_show_only_when_their_field_or_option_is_set(tmp_path):
    path = deck_file(tmp_path, """\
        options: {hard: false}
        layouts:
          generic:
            elements:
              - {name: cost, type: text, when: cost, text: "C{cost}", height: 20%}
              - {name: easy, type: text, unless: hard, text: easy, y: 30%, height: 20%}
              - {name: two, type: text, when: cost=2, text: two, y: 60%, height: 20%}
        cards:
          - {id: a, fields: {cost: 2}}
          - {id: b}
        """)
    assert texts(ops_of(path, "a")) == ["C2", "easy", "two"]
    assert texts(ops_of(path, "b")) == ["easy"]


def test_a_condition_naming_nothing_is_an_error(tmp_path, cli):
    path = deck_file(tmp_path, """\
        options: {hard: false}
        layouts:
          generic:
            elements:
              - {name: x, type: text, when: hrad, text: hi}
        cards:
          - {id: a}
        """)
    result = cli("validate", path)
    assert result.exit_code == 2 and "did you mean 'hard'" in result.output and "d.yaml:7:" in result.output


def test_a_colour_from_a_field_that_is_no_colour_names_the_card(tmp_path, cli):
    (tmp_path / "cards.csv").write_text("id,title,tint\nx,Ex,blurple\n", encoding="utf-8")
    path = deck_file(tmp_path, """\
        csv: cards.csv
        layouts:
          generic:
            elements:
              - {name: panel, type: rect, fill: "{tint}"}
        """)
    result = cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "cards.csv:2:1" in result.output and "card 'x'" in result.output and "'panel'" in result.output


# --- rich text -----------------------------------------------------------------------

def parse(markup: str):
    from cardgen.colors import parse_color_expr

    return rich.parse(markup, {"star"}, parse_color_expr)


def test_markup_gives_bold_italic_colour_breaks_and_icons():
    runs = parse("a <b>bold <i>both</i></b> <color red>red</color><br>:star: :nope:")
    assert [(r.text, r.bold, r.italic) for r in runs[:4]] == [
        ("a ", False, False), ("bold ", True, False), ("both", True, True), (" ", False, False)]
    assert runs[4].color == (1.0, 0.0, 0.0) and runs[5].text == "\n"
    assert runs[6].icon == "star" and "".join(r.text for r in runs[7:]) == " :nope:"


@pytest.mark.parametrize("markup, words", [
    ("<b>open", "<b> is never closed"), ("a</i>", "</i> closes nothing"), ("<b><i>x</b></i>", "expected </i>"),
    ("<color>x</color>", "needs a colour"), ("<color blurple>x</color>", "unknown colour"),
])
def test_bad_markup_says_what_is_wrong(markup, words):
    with pytest.raises(rich.MarkupError, match=words):
        parse(markup)


def test_bold_text_is_drawn_in_the_bold_face(tmp_path):
    path = deck_file(tmp_path, "layouts:\n  generic:\n    elements:\n"
                               "      - {name: t, type: text, text: 'plain <b>strong</b>'}\ncards:\n  - {id: a}\n")
    fonts = {op[6].strip(): op[3] for op in ops_of(path, "a") if op[0] == "text"}
    assert fonts == {"plain": "DejaVuSans", "strong": "DejaVuSans-Bold"}


def test_markup_in_a_card_that_cannot_be_read_names_the_card(tmp_path, cli):
    path = deck_file(tmp_path, "cards:\n  - {id: a, title: T, text: '<b>never closed'}\n")
    result = cli("build", path, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "card 'a'" in result.output and "never closed" in result.output


def test_inline_icons_sit_in_the_text_at_its_size(tmp_path):
    path = deck_file(tmp_path, "layouts:\n  generic:\n    elements:\n"
                               "      - {name: t, type: text, text: 'Gain :coin: now', size: 10}\ncards:\n"
                               "  - {id: a}\n")
    ops = ops_of(path, "a")
    icon = next(op for op in ops if op[0] == "icon")
    words = [op for op in ops if op[0] == "text"]
    assert icon[1] == "coin" and icon[4] == 10
    assert words[0][1] < icon[2] < words[1][1]  # between "Gain" and "now"


# --- fitting -------------------------------------------------------------------------

def prepared(words: str):
    return rich.prepare(parse(words), FontChain())


def test_fit_finds_the_largest_size_that_fits_as_a_full_scan_would():
    text = prepared("The quick brown fox jumps over the lazy dog " * 6)
    for width, height in ((120, 60), (200, 40), (90, 120), (60, 30)):
        fitted = rich.fit(text, 14, 5, width, height)
        sizes = [14 - k * rich.SIZE_STEP for k in range(int((14 - 5) / rich.SIZE_STEP) + 1)]
        scan = next((s for s in sizes if rich.fits_at(text, s, width, height).fits), None)
        assert (fitted.size if fitted.fits else None) == scan


def test_text_that_cannot_fit_is_a_finding_naming_card_and_element(tmp_path, cli):
    path = deck_file(tmp_path, "layouts:\n  generic:\n    elements:\n"
                               "      - {name: rules, type: text, text: '{text}', height: 8pt, min_size: 7}\n"
                               "cards:\n  - {id: wordy, text: 'far too many words for one small line of text'}\n")
    result = cli("validate", path)
    assert result.exit_code == 1
    assert "card 'wordy'" in result.output and "'rules' does not fit" in result.output


def test_a_group_of_text_elements_shares_one_size_on_a_card(tmp_path):
    path = deck_file(tmp_path, """\
        layouts:
          generic:
            elements:
              - {name: a, type: text, text: short, group: g, size: 12, height: 20%}
              - {name: b, type: text, text: a much longer entry that must shrink, group: g, size: 12,
                 width: 30%, y: 50%, height: 14pt}
              - {name: c, type: text, text: alone, size: 12, y: 80%, height: 20%}
        cards:
          - {id: x}
        """)
    sizes = {op[6].split()[0]: op[4] for op in ops_of(path, "x") if op[0] == "text"}
    assert sizes["short"] == sizes["a"] < 12
    assert sizes["alone"] == 12


def test_list_entries_shrink_as_one_and_the_marked_entry_is_bold_and_ticked(tmp_path):
    path = deck_file(tmp_path, """\
        layouts:
          generic:
            elements:
              - {name: parts, type: list, items: "{parts}", mark: "{title}", marker: check, rows: 2,
                 size: 9, height: 40%}
        cards:
          - {id: x, title: Beta, fields: {parts: [Alpha, Beta, Gamma, A considerably longer entry]}}
        """)
    ops = ops_of(path, "x")
    entries = [op for op in ops if op[0] == "text"]
    assert len({op[4] for op in entries}) == 1  # one size for every entry
    assert {op[6]: op[3] for op in entries}["Beta"] == "DejaVuSans-Bold"
    assert len({round(op[1]) for op in entries}) == 2  # four entries, two rows: two columns
    assert sum(1 for op in ops if op[0] == "line") == 2  # the tick on the marked box


# --- fonts and characters --------------------------------------------------------------

def test_greek_and_cyrillic_print_in_the_bundled_font(tmp_path, cli):
    path = deck_file(tmp_path, "cards:\n  - {id: a, title: Ηρακλής, text: 'Москва ✓'}\n")
    result = cli("validate", path)
    assert result.exit_code == 0, result.output


def test_a_character_no_font_has_names_card_element_character_and_code(tmp_path, cli):
    path = deck_file(tmp_path, "cards:\n  - {id: jp, title: Title, text: 'こんにちは'}\n")
    result = cli("validate", path, "--games", "0")
    assert result.exit_code == 1
    assert "card 'jp'" in result.output and "U+3053" in result.output and "'text-full'" in result.output
    assert "no font has" in result.output
    assert cli("build", path, "--out", tmp_path / "out").exit_code == 1


def test_a_declared_font_in_the_fallback_chain_covers_what_dejavu_lacks(tmp_path, cli):
    make_font(tmp_path / "boxes.ttf", "あい")
    path = deck_file(tmp_path, "fonts:\n  Boxes: boxes.ttf\nfont_fallback: [Boxes]\n"
                               "cards:\n  - {id: jp, title: Latin, text: 'あい and Latin'}\n")
    result = cli("validate", path, "--games", "0")
    assert result.exit_code == 0, result.output
    deck, faces = faces_of(path)
    fonts = {op[6].strip(): op[3] for op in faces.drawings[faces.face(deck.cards[0])].ops if op[0] == "text"}
    assert fonts["あい"].startswith("boxes-")  # the fallback font for the characters it has
    assert fonts["Latin"] == "DejaVuSans-Bold"  # and DejaVu for the rest


def test_a_font_file_that_is_not_truetype_is_refused_at_its_line(tmp_path, cli):
    (tmp_path / "fake.ttf").write_bytes(b"not a font at all" * 10)
    path = deck_file(tmp_path, "fonts:\n  Fake: fake.ttf\ncards:\n  - {id: a}\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "d.yaml:4:" in result.output and "TrueType" in result.output


def test_an_element_font_the_deck_does_not_declare_is_an_error(tmp_path, cli):
    path = deck_file(tmp_path, "layouts:\n  generic:\n    elements:\n"
                               "      - {name: t, type: text, text: hi, font: Fancy}\ncards:\n  - {id: a}\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "font 'Fancy'" in result.output


# --- art -------------------------------------------------------------------------------

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
       '<rect x="0" y="0" width="40" height="20" fill="#0000ff"/></svg>')


def test_svg_art_is_drawn_as_vectors_not_pixels(tmp_path):
    (tmp_path / "logo.svg").write_text(SVG)
    path = deck_file(tmp_path, "icons: {logo: logo.svg}\ncards:\n  - {id: a, title: A, text: 'with :logo: inline',"
                               " image: logo.svg}\n")
    ops = ops_of(path, "a")
    assert sum(1 for op in ops if op[0] == "svg") == 2  # the image and the inline icon
    build_decks([str(path)], tmp_path / "out", BuildSettings())
    raw = (tmp_path / "out" / "d.pdf").read_bytes()
    assert b"/Subtype /Image" not in raw
    page = pdfium.PdfDocument(str(tmp_path / "out" / "d.pdf"))[0].render(scale=2).to_pil().convert("RGB")
    assert (0, 0, 255) in {page.getpixel((x, y)) for x in range(0, page.width, 3) for y in range(0, 600, 3)}


def test_an_svg_that_does_not_parse_is_refused_at_its_line(tmp_path, cli):
    (tmp_path / "bad.svg").write_text("<svg><rect")
    path = deck_file(tmp_path, "cards:\n  - {id: a, image: bad.svg}\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and "d.yaml:4:" in result.output and "SVG 'bad.svg'" in result.output


@pytest.mark.parametrize("pixels, verdict", [(100, "warning"), (400, "warning"), (1200, None)])
def test_raster_art_is_checked_for_its_printed_resolution(tmp_path, cli, pixels, verdict):
    Image.new("RGB", (pixels, pixels), (200, 30, 30)).save(tmp_path / "art.png")
    path = deck_file(tmp_path, "cards:\n  - {id: a, title: A, image: art.png}\n")
    result = cli("validate", path, "--json")
    findings = __import__("json").loads(result.output)[0]["findings"]
    assert [f["severity"] for f in findings] == ([verdict] if verdict else [])
    if verdict:
        assert "ppi" in findings[0]["message"] and findings[0]["card"] == "a"
    assert cli("build", path, "--out", tmp_path / "out", "--no-validate").exit_code == 0
    assert cli("build", path, "--out", tmp_path / "out2").exit_code == 0  # a warning does not stop the build


HEROES = ["jason", "heracles", "orpheus", "castor", "pollux", "atalanta", "peleus", "theseus", "meleager",
          "argus", "tiphys", "lynceus", "zetes", "calais"]


def low_res_deck(tmp_path):
    (tmp_path / "art").mkdir()
    Image.new("RGB", (100, 100), (200, 30, 30)).save(tmp_path / "art" / "hero.png")
    return deck_file(tmp_path, "cards:\n" + "".join(f"  - {{id: {n}, title: {n.title()}, image: art/hero.png}}\n"
                                                    for n in HEROES))


def test_low_resolution_art_is_one_warning_naming_its_cards_and_the_deck_builds(tmp_path, cli):
    path = low_res_deck(tmp_path)
    out = tmp_path / "out"
    result = cli("build", path, "--out", out)
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "ppi" in line]
    assert len(lines) == 1, result.output
    line = lines[0]
    assert ": warning: " in line and "needs 150" in line
    assert "image 'art/hero.png' is 74 ppi at its printed size" in line
    assert "cards jason, heracles, orpheus" in line and line.endswith(", ... (14)"), line
    assert (out / "d.pdf").exists()
    validated = cli("validate", path, "--games", "0")
    assert validated.exit_code == 0 and validated.output.count("ppi") == 1, validated.output


def test_strict_makes_every_warning_an_error_and_writes_nothing(tmp_path, cli):
    path = low_res_deck(tmp_path)
    out = tmp_path / "out"
    result = cli("build", path, "--out", out, "--strict")
    assert result.exit_code == 1, result.output  # as every deck that fails its checks
    assert "error: image" in result.output and "(14)" in result.output
    assert not out.exists() or not any(out.iterdir())
    validated = cli("validate", path, "--games", "0", "--strict", "--json")
    report = __import__("json").loads(validated.output)[0]
    assert validated.exit_code == 1 and not report["playable"]
    assert [f["severity"] for f in report["findings"]] == ["error"]


def test_an_image_used_by_many_cards_is_embedded_once(tmp_path):
    Image.new("RGB", (600, 600), (10, 120, 200)).save(tmp_path / "art.png")
    cards = "".join(f"  - {{id: c{i}, title: Card {i}, image: art.png}}\n" for i in range(40))
    path = deck_file(tmp_path, "cards:\n" + cards)
    build_decks([str(path)], tmp_path / "out", BuildSettings())
    raw = (tmp_path / "out" / "d.pdf").read_bytes()
    assert raw.count(b"/Subtype /Image") == 1


# --- backs and sharing ------------------------------------------------------------------

BACKS = """\
layouts:
  hero: {extends: generic, elements: []}
  hero-back:
    extends: back
    elements:
      - {name: background, fill: "#ff0000"}
  own-back:
    elements:
      - {name: bg, type: rect, fill: "#00ff00"}
      - {name: who, type: text, text: "{title}", height: 20%}
backs:
  hero: hero-back
cards:
  - {id: h, layout: hero, title: Hero}
  - {id: p, title: Plain}
  - {id: o, title: Own, back: own-back}
"""


def test_backs_are_layouts_per_layout_per_card_or_the_decks(tmp_path):
    deck, faces = faces_of(deck_file(tmp_path, BACKS))
    keys = {c.id: faces.back(c) for c in deck.cards}
    assert keys["h"] == "back:hero-back" and keys["p"] == "back:back"
    assert keys["o"].startswith("back:own-back:o")  # it shows the card's own title, so it is the card's alone
    fills = {card: faces.drawings[key].ops[0][5] for card, key in keys.items()}
    assert fills["h"] == (1.0, 0.0, 0.0) and fills["o"] == (0.0, 1.0, 0.0)
    assert "Own" in texts(faces.drawings[keys["o"]].ops)


def test_shared_cards_print_once_in_each_players_pdf_or_in_their_own(tmp_path, cli):
    body = """\
        per_player: true
        players: [{name: Ann, color: red}, {name: Bob, color: blue}]
        cards:
          - {id: mine, copies: 2}
          - {id: common, shared: true, copies: 3}
        """
    result = cli("build", deck_file(tmp_path, body), "--out", tmp_path / "each")
    assert result.exit_code == 0, result.output
    assert "d-ann.pdf: 5 cards" in result.output and "d-bob.pdf: 5 cards" in result.output
    result = cli("build", deck_file(tmp_path, "shared_cards: separate\n" + textwrap.dedent(body)), "--out",
                 tmp_path / "apart")
    assert result.exit_code == 0, result.output
    assert "d-ann.pdf: 2 cards" in result.output and "d-shared.pdf: 3 cards" in result.output


# --- the bundled decks -------------------------------------------------------------------

def test_dotcombust_assets_and_clusterfuck_status_cards_are_layouts_in_their_deck_files():
    assert not load_deck("dotcombust").layouts["asset"].builtin
    assert not load_deck("clusterfuck").layouts["status"].builtin


def test_the_example_deck_builds_with_no_findings(cli, tmp_path):
    from conftest import ROOT

    result = cli("build", ROOT / "examples" / "argonauts" / "argonauts.yaml", "--out", tmp_path)
    assert result.exit_code == 0 and "Warning" not in result.output, result.output
    assert "24 cards" in result.output


def test_the_poker_example_builds_54_cards_with_no_findings(cli, tmp_path):
    from conftest import ROOT

    result = cli("build", ROOT / "examples" / "poker" / "poker.yaml", "--out", tmp_path)
    assert result.exit_code == 0 and "Warning" not in result.output, result.output
    assert "54 cards" in result.output


def test_unknown_layout_errors_do_not_leave_output(tmp_path):
    path = deck_file(tmp_path, "cards:\n  - {id: a, layout: nope}\n")
    with pytest.raises(CardgenError):
        build_decks([str(path)], tmp_path / "out", BuildSettings())
    assert not (tmp_path / "out").exists()


def test_a_deck_name_the_page_label_cannot_print_is_reported(tmp_path, cli):
    path = tmp_path / "jp.yaml"
    path.write_text("deck: jp\nname: 日本\ncards:\n  - {id: a, title: A}\n", encoding="utf-8")
    result = cli("validate", path)
    assert result.exit_code == 1 and "page label" in result.output and "U+65E5" in result.output


def test_backs_per_kind_know_the_kinds_the_decks_game_makes(tmp_path):
    # Clusterfuck makes status cards (GameInfo.card_kinds), so its decks may give them a back ...
    body = "game: clusterfuck\nbacks:\n  status: back-light\ncards:\n  - {id: a, title: A}\n"
    assert load_resolved(deck_file(tmp_path, body)).id == "d"
    # ... a deck with no game has no status cards to give one
    with pytest.raises(CardgenError, match=r"neither a card kind .*generic.*playing.* nor a layout"):
        load_resolved(deck_file(tmp_path, body.replace("game: clusterfuck", "game: none")))


# --- colours that paint nothing -----------------------------------------------------

NONE_DECK = """\
layouts:
  hollow:
    elements:
      - {name: frame, type: rect, x: 3mm, y: 3mm, width: 20mm, height: 20mm, fill: none, stroke: "#0000ff",
         stroke_width: 2pt}
      - {name: panel, type: rect, x: 3mm, y: 30mm, width: 20mm, height: 20mm, fill: "#ff0000", stroke: none}
      - {name: ghost, type: ellipse, x: 30mm, y: 3mm, width: 10mm, height: 10mm, fill: none, stroke: none}
cards:
  - {id: a, layout: hollow}
"""


def test_fill_none_and_stroke_none_leave_that_part_unpainted(tmp_path, cli):
    path = deck_file(tmp_path, NONE_DECK)
    assert cli("validate", path).exit_code == 0
    rects = [op for op in ops_of(path, "a") if op[0] in ("rect", "ellipse")]
    # the frame has an outline and no fill, the panel a fill and no outline, the ghost draws nothing at all
    assert [(op[5], op[6]) for op in rects] == [(None, (0.0, 0.0, 1.0)), ((1.0, 0.0, 0.0), None)]
    # and on the page: inside the hollow frame is the white card, its outline blue, the panel red
    out = tmp_path / "out"
    result = cli("build", path, "--out", out, "--sheet", "letter-10up")
    assert result.exit_code == 0, result.output
    page = pdfium.PdfDocument(next(out.glob("*.pdf")))[0]
    scale = 2.0
    image = page.render(scale=scale).to_pil().convert("RGB")
    frame = rects[0]
    x0, y0 = _card_origin()
    cx, cy = x0 + frame[1] + frame[3] / 2, y0 + frame[2] + frame[4] / 2
    height = page.get_height()
    centre = image.getpixel((round(cx * scale), round((height - cy) * scale)))
    edge = image.getpixel((round((x0 + frame[1]) * scale), round((height - cy) * scale)))
    panel = rects[1]
    inside = image.getpixel((round((x0 + panel[1] + panel[3] / 2) * scale),
                             round((height - (y0 + panel[2] + panel[4] / 2)) * scale)))
    assert min(centre) > 240, centre
    assert edge[2] > 200 and edge[0] < 80, edge
    assert inside[0] > 200 and inside[2] < 80, inside


def _card_origin() -> tuple[float, float]:
    """Where the first card of letter-10up sits on the page (its lower-left corner)."""
    slot = LETTER.slots()[0]
    return slot.x, slot.y


@pytest.mark.parametrize("value, words", [("reed", "unknown colour 'reed' (did you mean 'red'?)"),
                                          ("nnone", "unknown colour 'nnone'")])
def test_a_colour_typo_is_still_refused_with_a_suggestion(tmp_path, cli, value, words):
    path = deck_file(tmp_path, f"layouts:\n  a:\n    elements:\n      - {{name: x, type: rect, fill: {value}}}\n"
                               "cards:\n  - {id: z, layout: a}\n")
    result = cli("validate", path)
    assert result.exit_code == 2 and words in result.output, result.output


@pytest.mark.parametrize("attrs, words", [
    ("type: text, text: hi, size: 8x",
     "size takes points, a number such as 8 or 8pt (or a length such as 3mm), got '8x'"),
    ("type: text, text: hi, min_size: big", "min_size takes points, a number such as 8 or 8pt"),
    ("type: rect, fill: red, width: 50", "width takes a length with a unit: mm, in, cm, pt or %"),
    ("type: rect, fill: red, x: 3mx", "x takes a length with a unit: mm, in, cm, pt or %"),
    ("type: rect, fill: red, radius: 2", "radius takes a length such as 0.5mm or 1pt, got 2"),
])
def test_a_measure_mistake_names_what_the_key_takes(tmp_path, cli, attrs, words):
    path = deck_file(tmp_path, f"layouts:\n  a:\n    elements:\n      - {{name: e, {attrs}}}\n"
                               "cards:\n  - {id: z, layout: a}\n")
    result = cli("validate", path)
    line = result.output.strip()
    assert result.exit_code == 2 and "\n" not in line and words in line, line


@pytest.mark.parametrize("value, points", [(8, 8.0), ("8", 8.0), ("9pt", 9.0), ("3mm", mm(3))])
def test_a_text_size_is_points_or_a_length(value, points):
    assert parse_size(value) == pytest.approx(points)
