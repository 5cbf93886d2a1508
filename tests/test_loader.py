"""Deck loader errors: every one names file, line and column, whether the loader finds it or the
resolve step every flow calls after it (names only the renderer or a game knows)."""
from __future__ import annotations

import textwrap

import pytest

from cardgen.deck import load_deck
from cardgen.errors import CardgenError
from cardgen.resolve import load_resolved

GOOD = """\
deck: tiny
name: Tiny
game: none
cards:
  - id: a
    kind: tile
    edges: {top: line, right: blank, bottom: line, left: blank}
"""


def write(tmp_path, text, name="deck.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def error_of(path) -> CardgenError:
    """The error a flow reports for the deck file: loading, then resolving, as they all do."""
    with pytest.raises(CardgenError) as info:
        load_resolved(path)
    return info.value


def test_a_good_deck_loads_with_its_edges(tmp_path):
    deck = load_deck(write(tmp_path, GOOD))
    card = deck.cards[0]
    edges = card.fields["edges"]
    assert edges.top and edges.bottom and not edges.left and not edges.right
    assert card.location.line == 5


def test_misspelt_edge_value_names_line_column_and_the_choices(tmp_path):
    path = write(tmp_path, GOOD.replace("top: line", "top: lin"))
    err = error_of(path)
    assert (err.location.line, err.location.column) == (7, 18)
    assert "edges.top must be one of 'line', 'blank'" in err.message
    assert "did you mean 'line'" in err.message
    assert str(err).startswith(f"{err.location.file}:7:18: ")


def test_unknown_key_is_rejected_with_a_suggestion(tmp_path):
    path = write(tmp_path, GOOD + "    copise: 3\n")
    err = error_of(path)
    assert err.location.line == 8
    assert "unknown key 'copise'" in err.message and "did you mean 'copies'" in err.message


def test_unknown_top_level_key_is_rejected(tmp_path):
    err = error_of(write(tmp_path, "colour: red\n" + GOOD))
    assert err.location.line == 1 and "unknown key 'colour'" in err.message


def test_malformed_yaml_names_the_line(tmp_path):
    err = error_of(write(tmp_path, GOOD + "  - id: [b\n"))
    assert "malformed YAML" in err.message
    assert err.location.line >= 8


def test_missing_file_is_a_clear_error(tmp_path):
    err = error_of(tmp_path / "nope.yaml")
    assert "no such file" in str(err)


def test_wrong_type_names_what_was_expected(tmp_path):
    err = error_of(write(tmp_path, GOOD.replace("kind: tile", "kind: tile\n    copies: many")))
    assert err.location.line == 7 and "copies must be a whole number" in err.message


def test_copies_have_a_sane_upper_bound(tmp_path):
    err = error_of(write(tmp_path, GOOD.replace("kind: tile", "kind: tile\n    copies: 100000")))
    assert "at most 1000" in err.message


def test_unknown_colour_is_located(tmp_path):
    text = GOOD.replace("game: none", "game: none\nplayers:\n  - {name: A, color: reddish}")
    err = error_of(write(tmp_path, text))
    assert err.location.line == 5 and "unknown colour 'reddish'" in err.message


def test_tile_without_edges_is_refused(tmp_path):
    text = "deck: t\nname: T\ncards:\n  - {id: a, kind: tile}\n"
    err = error_of(write(tmp_path, text))
    assert err.location.line == 4 and "needs edges" in err.message


def test_duplicate_card_ids_are_refused(tmp_path):
    text = GOOD + "  - {id: a, kind: generic}\n"
    err = error_of(write(tmp_path, text))
    assert err.location.line == 8 and "used twice" in err.message


def test_duplicate_keys_are_refused(tmp_path):
    err = error_of(write(tmp_path, GOOD.replace("name: Tiny", "name: Tiny\nname: Again")))
    assert err.location.line == 3 and "given twice" in err.message


def test_art_may_not_escape_the_deck_folder(tmp_path):
    (tmp_path / "deck").mkdir()
    text = GOOD.replace("kind: tile", "kind: tile\n    image: ../../etc/passwd")
    err = error_of(write(tmp_path / "deck", text))
    assert "outside" in err.message and err.location.line == 7


def test_yaml_tags_that_build_objects_are_refused(tmp_path):
    err = error_of(write(tmp_path, GOOD.replace("name: Tiny", "name: !!python/object:os.system x")))
    assert "unsupported YAML tag" in err.message and err.location.line == 2


def test_cards_made_by_the_build_may_not_be_written_by_hand(tmp_path):
    err = error_of(write(tmp_path, "deck: t\nname: T\ncards:\n  - {id: a, kind: playing}\n"))
    assert err.location.line == 4 and "kind must be one of 'tile', 'reference', 'generic'" in err.message


def test_placeholders_fill_known_options_and_leave_other_braces_alone():
    from cardgen.render.reference import fill

    assert fill("Reach {target} links", {"target": 6}) == "Reach 6 links"
    assert fill("Set {x {0} {a.b} {nope}", {"target": 6}) == "Set {x {0} {a.b} {nope}"


# --- names the loader leaves to the resolve step -------------------------------------

BAD_SVG = "<svg><rect"
ICON_CHOICES = ("icons: ball, bolt, chair, chart, circle, club, code, coin, crown, cup, diamond, document, gear, "
                "globe, heart, hexagon, key, mail, node, node-diamond, node-hexagon, node-square, party, people, "
                "phone, server, spade, square, star, table, triangle")
NO_SIZE = "the SVG has no size: give its svg element width and height, or a viewBox"


@pytest.mark.parametrize("body, at, message", [
    ("game: comon-carrier\ncards:\n  - {id: a}\n", "deck.yaml:3:7",
     ("unknown game 'comon-carrier' (did you mean 'common-carrier'?); games: clusterfuck, common-carrier, "
     "dotcombust, gops, or none (a plug-in game registers with the 'cardgen.games' entry point group)")),
    ("cards:\n  - {id: a, icon: strr}\n", "deck.yaml:4:19",
     f"unknown icon 'strr' (did you mean 'star'?); {ICON_CHOICES}"),
    ("back: {icon: strr}\ncards:\n  - {id: a}\n", "deck.yaml:3:14",
     f"unknown icon 'strr' (did you mean 'star'?); {ICON_CHOICES}"),
    ("assets:\n  - {name: Foo Bar, icon: strr, parts: [a, b]}\n", "deck.yaml:4:27",
     f"unknown icon 'strr' (did you mean 'star'?); {ICON_CHOICES}"),
    ("csv: c.csv\n", "c.csv:2:3", f"unknown icon 'strr' (did you mean 'star'?); {ICON_CHOICES}"),
    ("icons: {star: ok.svg}\ncards:\n  - {id: a}\n", "deck.yaml:3:9",
     "'star' is a built-in icon; give the deck's icon another name"),
    ("layouts:\n  x:\n    elements:\n      - {name: i, type: icon, icon: strr}\ncards:\n  - {id: a}\n",
     "deck.yaml:6:37", "icon: unknown icon 'strr' (did you mean 'star'?)"),
    ("cards:\n  - {id: a, image: bad.svg}\n", "deck.yaml:4:20", f"SVG 'bad.svg': {NO_SIZE}"),
    ("icons: {logo: bad.svg}\ncards:\n  - {id: a}\n", "deck.yaml:3:15", f"SVG 'bad.svg': {NO_SIZE}"),
    ("back: {image: bad.svg}\ncards:\n  - {id: a}\n", "deck.yaml:3:15", f"SVG 'bad.svg': {NO_SIZE}"),
    ("fonts: {Foo: {regular: bad.ttf, bold: bad.ttf}}\ncards:\n  - {id: a}\n", "deck.yaml:3:24",
     "font file 'bad.ttf' is not a font: use a TrueType or OpenType file (.ttf, .otf, .ttc or .otc)"),
    ("options: {hard: false}\ncards:\n  - {id: a, when: hrad}\n", "deck.yaml:5:5",
     "when: 'hrad' names no option of this deck (did you mean 'hard'?); options: hard"),
    ("options: {hard: false}\ncards:\n  - id: a\n    kind: reference\n    lines: [{text: x, unless: hrad}]\n",
     "deck.yaml:5:5", "unless: 'hrad' names no option of this deck (did you mean 'hard'?); options: hard"),
    ("options: {hard: false}\nstandard_deck: {when: hrad}\ncards:\n  - {id: a}\n", "deck.yaml:4:23",
     "when: 'hrad' names no option of this deck (did you mean 'hard'?); options: hard"),
    ("game: common-carrier\ncards:\n  - {id: a, when: targte}\n", "deck.yaml:5:5",
     ("when: 'targte' names no option of this deck (did you mean 'target'?); options: endgame, gray_announced, "
      "gray_pbx_1, gray_pbx_2, gray_rule, hole_card, target, tie_resolution")),
    ("backs: {status: back-light}\ncards:\n  - {id: a}\n", "deck.yaml:3:9",
     "backs names 'status', which is neither a card kind (tile, reference, generic, asset, playing) nor a layout"),
])
def test_names_only_the_renderer_or_a_game_knows_are_refused_where_the_deck_wrote_them(tmp_path, body, at,
                                                                                        message):
    (tmp_path / "bad.svg").write_text(BAD_SVG)
    (tmp_path / "ok.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    (tmp_path / "bad.ttf").write_text("not a font")
    (tmp_path / "c.csv").write_text("id,title,icon\na,A,strr\n")
    path = write(tmp_path, "deck: d\nname: D\n" + body)
    deck = load_deck(path)  # the loader knows neither renderer nor games: it records, located ...
    assert deck.references
    err = error_of(path)  # ... and the step the flows call next refuses
    file, _, line_column = at.partition(":")
    assert err.location.file.endswith("/" + file) and str(err) == f"{err.location.file}:{line_column}: {message}"


def test_the_resolve_step_reports_the_first_of_its_names_in_file_order(tmp_path):
    (tmp_path / "bad.svg").write_text(BAD_SVG)
    path = write(tmp_path, "deck: d\nname: D\ncards:\n  - {id: a, image: bad.svg}\n  - {id: b, icon: strr}\n")
    err = error_of(path)
    assert (err.location.line, err.location.column) == (4, 20) and "SVG 'bad.svg'" in err.message


def test_a_good_deck_resolves_to_itself(tmp_path):
    (tmp_path / "ok.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    path = write(tmp_path, "deck: d\nname: D\ngame: clusterfuck\nicons: {logo: ok.svg}\n"
                           "backs: {status: back-light}\ncards:\n  - {id: a, icon: logo, image: ok.svg}\n")
    deck = load_resolved(path)
    assert [(r.kind, r.name) for r in deck.references] == [("own-icon", "logo"), ("svg", "ok.svg"),
                                                           ("game", "clusterfuck"), ("icon", "logo"),
                                                           ("svg", "ok.svg"), ("backs", "status")]
    assert deck.references[3].location.line == 7


@pytest.mark.parametrize("raised", [AssertionError(), ValueError("number too large\nsecond line")])
def test_svg_reportlab_cannot_draw_is_one_message_even_when_the_error_says_nothing(monkeypatch, raised):
    from reportlab.graphics import renderPDF

    from cardgen.render import svg

    def draw(*args, **kwargs):
        raise raised

    monkeypatch.setattr(renderPDF, "draw", draw)
    with pytest.raises(svg.SvgError) as caught:
        svg._trial_draw(object())
    assert str(caught.value) == f"cannot be drawn ({type(raised).__name__}" + (
        ": number too large)" if str(raised) else ")")
