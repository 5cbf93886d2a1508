"""Deck loader errors: every one names file, line and column."""
from __future__ import annotations

import textwrap

import pytest

from cardgen.deck import load_deck
from cardgen.errors import CardgenError

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
    with pytest.raises(CardgenError) as info:
        load_deck(path)
    return info.value


def test_a_good_deck_loads_with_its_edges(tmp_path):
    deck = load_deck(write(tmp_path, GOOD))
    card = deck.cards[0]
    assert card.edges.top and card.edges.bottom and not card.edges.left and not card.edges.right
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
