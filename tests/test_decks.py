"""The bundled decks say what the rules say, and user decks fail with a location.

dotCOMbust: 80 cards in assets of 2 to 8 parts. Clusterfuck: one Social
Status card per player, numbered 1..N, and a full 52-card deck on request.
`cardgen new` gives a deck that builds; bad CSV rows and bad art name the
file and line.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.deck import DECKS_DIR, load_deck
from cardgen.errors import CardgenError
from cardgen.prepare import RANKS, SUITS, BuildSettings, prepare

BAD_INPUT = 2
BUNDLED = sorted(DECKS_DIR.glob("*.yaml"))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def dotcombust_assets():
    """Asset name -> its part cards, in deck order."""
    assets: dict[str, list] = {}
    for card in load_deck("dotcombust").cards:
        if card.kind == "asset":
            assets.setdefault(card.fields["asset"], []).append(card)
    return assets


# --- dotCOMbust ---------------------------------------------------------------

def test_dotcombust_prints_exactly_80_asset_cards():
    deck = load_deck("dotcombust")
    assert sum(c.copies for c in deck.cards if c.kind == "asset") == 80


def test_dotcombust_has_15_to_17_assets_and_the_assets_option_counts_them_all():
    deck = load_deck("dotcombust")
    assets = dotcombust_assets()
    assert 15 <= len(assets) <= 17
    assert deck.options["assets"] == len(assets)


def test_every_dotcombust_asset_has_2_to_8_parts_with_distinct_names():
    for name, cards in dotcombust_assets().items():
        parts = cards[0].fields["parts"]
        assert 2 <= len(parts) <= 8, name
        assert len(set(parts)) == len(parts), name
        assert [c.title for c in cards] == list(parts), name
        assert all(c.copies == 1 and c.fields["parts"] == parts for c in cards), name


def test_dotcombust_asset_sizes_mix_small_and_large():
    sizes = Counter(len(cards) for cards in dotcombust_assets().values())
    assert sizes[2] + sizes[3] >= 2
    assert sizes[7] + sizes[8] >= 2


def test_every_dotcombust_asset_has_its_own_code_colour_and_an_icon():
    assets = dotcombust_assets()
    codes = [cards[0].fields["code"] for cards in assets.values()]
    assert all(2 <= len(code) <= 3 and code.isalnum() for code in codes)
    assert len(set(codes)) == len(codes)
    colors = [cards[0].color for cards in assets.values()]
    assert None not in colors and len(set(colors)) == len(colors)
    assert all(cards[0].icon for cards in assets.values())


def test_dotcombust_part_names_are_short_enough_for_a_checklist_line():
    for name, cards in dotcombust_assets().items():
        assert all(len(part) <= 20 for part in cards[0].fields["parts"]), name


@pytest.mark.parametrize("keep", [8, 10, 12])
def test_a_smaller_dotcombust_deck_keeps_the_first_assets_and_deals_to_4(keep):
    names = list(dotcombust_assets())
    deck = prepare(load_deck("dotcombust"), BuildSettings(options={"assets": str(keep)}))
    kept = [c for c in deck.cards if c.kind == "asset"]
    assert list(dict.fromkeys(c.fields["asset"] for c in kept)) == names[:keep]
    assert len(kept) >= 2 * 4 * 4  # a real hand for each of 4 players


def test_dotcombust_reference_cards_state_the_optional_rules_in_use():
    plain = prepare(load_deck("dotcombust"), BuildSettings())
    every = prepare(load_deck("dotcombust"), BuildSettings(options={
        "no_tagbacks": "true", "bitter_end": "true", "both_barrels": "true"}))
    from cardgen.render.reference import reference_lines

    def text(deck):
        return " ".join(line for c in deck.cards if c.kind == "reference"
                        for line in reference_lines(c, deck.options))

    for rule in ("No tagbacks", "Both barrels", "bitter end"):
        assert rule.lower() not in text(plain).lower()
        assert rule.lower() in text(every).lower()
    assert "n − 1 points" in text(plain)


# --- every bundled deck ---------------------------------------------------------

@pytest.fixture(scope="module")
def deck_schema():
    result = run("schema")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


EXAMPLES = sorted((DECKS_DIR.parent / "examples").glob("*/*.yaml"))


@pytest.mark.parametrize("path", BUNDLED + EXAMPLES, ids=[p.stem for p in BUNDLED + EXAMPLES])
def test_bundled_and_example_decks_validate_against_the_printed_json_schema(path, deck_schema):
    jsonschema.Draft202012Validator(deck_schema).validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_the_schema_covers_layouts_so_editors_complete_them(deck_schema):
    element = deck_schema["properties"]["layouts"]["additionalProperties"]["properties"]["elements"]["items"]
    assert set(element["properties"]["type"]["enum"]) == {"text", "rect", "ellipse", "line", "image", "icon", "list"}
    assert {"x", "y", "width", "height", "anchor", "area", "when", "font", "fill"} <= set(element["properties"])
    card = deck_schema["properties"]["cards"]["items"]["properties"]
    assert {"layout", "back", "fields", "shared"} <= set(card)


def test_the_three_games_are_bundled():
    assert {"common-carrier", "dotcombust", "clusterfuck"} <= {p.stem for p in BUNDLED}


@pytest.mark.parametrize("deck, options", [
    ("dotcombust", {}),
    ("dotcombust", {"no_tagbacks": "true", "bitter_end": "true", "both_barrels": "true"}),
    ("clusterfuck", {"standard_deck": "true"}),
    ("clusterfuck", {"standard_deck": "true", "players": "12"}),
])
@pytest.mark.parametrize("sheet", ["letter-10up", "a4-10up"])
def test_bundled_deck_text_fits_its_cards(deck, options, sheet):
    from cardgen.render.text import register_fonts
    from cardgen.sheets import load_template
    from cardgen.validate import face_findings

    register_fonts()  # status.py sets a font before anything registers it
    built = prepare(load_deck(deck), BuildSettings(options=options))
    assert [str(f) for f in face_findings(built, load_template(sheet))] == []


# --- Clusterfuck ------------------------------------------------------------------

def status_cards(players: int):
    deck = prepare(load_deck("clusterfuck"), BuildSettings(options={"players": str(players)}))
    return [c for c in deck.cards if c.kind == "status"]


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_clusterfuck_prints_one_status_card_per_player_numbered_1_to_n(players):
    cards = status_cards(players)
    assert sorted(c.fields["number"] for c in cards) == list(range(1, players + 1))
    assert all(c.copies == 1 for c in cards)


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_clusterfuck_status_titles_follow_the_rules(players):
    titles = {c.fields["number"]: c.title for c in status_cards(players)}
    assert titles[1] == "Magnate"
    assert titles[2] == "Magnate's Lackey / Man-behind-the-Man"
    assert titles[players] == "Asshole / Desperado"
    if players > 3:
        assert titles[players - 1] == "Jackass"
    named = {1, 2, players - 1, players}
    assert all(not titles[k] or titles[k].startswith("Rank") for k in titles if k not in named)


def test_three_players_make_card_2_the_lackey_not_the_jackass():
    titles = {c.fields["number"]: c.title for c in status_cards(3)}
    assert titles == {1: "Magnate", 2: "Magnate's Lackey / Man-behind-the-Man", 3: "Asshole / Desperado"}


def test_every_status_card_carries_the_power_reminder():
    deck = load_deck("clusterfuck")
    reminder = deck.status["text"]
    assert "lower number wins" in reminder and "2 cards" in reminder and "two or more 2s" in reminder
    assert all(c.text == reminder for c in status_cards(8))


def test_standard_deck_option_adds_exactly_the_52_playing_cards_and_the_reference():
    plain = prepare(load_deck("clusterfuck"), BuildSettings())
    full = prepare(load_deck("clusterfuck"), BuildSettings(options={"standard_deck": "true"}))
    assert [c for c in plain.cards if c.kind in ("playing", "reference")] == []
    playing = [c for c in full.cards if c.kind == "playing"]
    assert sum(c.copies for c in playing) == 52
    assert Counter((c.fields["rank"], c.fields["suit"]) for c in playing) == \
        Counter((r, s) for r in RANKS for s in SUITS)
    assert len(RANKS) == 13 and len(SUITS) == 4
    assert [c.id for c in full.cards if c.kind == "reference"] == ["reference-rounds"]


def test_clusterfuck_reference_states_the_rounds_to_win():
    from cardgen.render.reference import reference_lines

    full = prepare(load_deck("clusterfuck"), BuildSettings(options={"standard_deck": "true",
                                                                     "rounds_to_win": "7"}))
    (card,) = [c for c in full.cards if c.kind == "reference"]
    assert any("Magnate of 7 rounds" in line for line in reference_lines(card, full.options))


# --- cardgen new ----------------------------------------------------------------------

def test_cardgen_new_writes_a_deck_that_builds(tmp_path):
    result = run("new", "demo", "--dir", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "demo"
    assert (folder / "demo.yaml").is_file() and (folder / "cards.csv").is_file()
    assert list((folder / "art").glob("*.png"))
    result = run("build", folder / "demo.yaml", "--out", tmp_path / "out", "--no-validate")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "demo.pdf").stat().st_size > 0


def test_cardgen_new_deck_has_yaml_and_csv_cards_with_icons_and_an_image(tmp_path, deck_schema):
    from cardgen.starter import write_starter

    folder = write_starter("my_deck-2", tmp_path)
    path = folder / "my_deck-2.yaml"
    jsonschema.Draft202012Validator(deck_schema).validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    deck = load_deck(path)
    assert deck.id == "my_deck-2" and deck.game == "none"
    assert any(c.icon for c in deck.cards) and any(c.image for c in deck.cards)
    header = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "id,title,type,cost,text,copies,color,icon,image"
    # it shows off layouts (its own, one a card names), fields from extra columns and an inline icon
    assert not deck.layouts["generic"].builtin and "trap" in deck.layouts
    assert any(c.layout == "trap" for c in deck.cards)
    assert {c.fields.get("type") for c in deck.cards} >= {"Ally", "Loot", "Hazard"}
    assert any(":coin:" in c.text for c in deck.cards)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no scratch left behind


def test_cardgen_new_refuses_to_overwrite_a_folder(tmp_path):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "mine.txt").write_text("keep me")
    result = run("new", "demo", "--dir", tmp_path)
    assert result.exit_code == BAD_INPUT
    assert "already exists" in result.output
    assert [p.name for p in (tmp_path / "demo").iterdir()] == ["mine.txt"]


@pytest.mark.parametrize("name", ["Demo", "my deck", "../escape", "-dash", "a.b", ""])
def test_cardgen_new_refuses_a_name_that_is_not_a_deck_id(tmp_path, name):
    result = run("new", "--dir", tmp_path, "--", name)
    assert result.exit_code == BAD_INPUT
    assert "Error:" in result.output and "not valid" in result.output
    assert list(tmp_path.iterdir()) == []


def test_write_starter_raises_a_cardgen_error_for_a_bad_name(tmp_path):
    with pytest.raises(CardgenError):
        from cardgen.starter import write_starter

        write_starter("Bad Name", tmp_path)


# --- CSV and art errors name the file and line --------------------------------------------

def csv_deck(tmp_path: Path, csv_text: str) -> Path:
    deck = tmp_path / "deck.yaml"
    deck.write_text("deck: mine\nname: Mine\ncsv: cards.csv\n", encoding="utf-8")
    (tmp_path / "cards.csv").write_text(csv_text, encoding="utf-8")
    return deck


def build(tmp_path: Path, deck: Path):
    return run("build", deck, "--out", tmp_path / "out", "--no-validate")


def test_csv_without_a_title_column_names_the_file_and_line_1(tmp_path):
    result = build(tmp_path, csv_deck(tmp_path, "id,text\nscout,Look around.\n"))
    assert result.exit_code == BAD_INPUT
    assert "cards.csv:1" in result.output and "title" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_csv_copies_that_are_not_a_number_name_the_file_and_line(tmp_path):
    text = "id,title,copies\nscout,Scout,2\nspy,Spy,abc\n"
    result = build(tmp_path, csv_deck(tmp_path, text))
    assert result.exit_code == BAD_INPUT
    assert "cards.csv:3" in result.output and "abc" in result.output


def test_csv_image_that_is_missing_names_the_csv_file_and_line(tmp_path):
    text = "id,title,image\nscout,Scout,art/nowhere.png\n"
    result = build(tmp_path, csv_deck(tmp_path, text))
    assert result.exit_code == BAD_INPUT
    assert "cards.csv:2" in result.output and "nowhere.png" in result.output


def yaml_image_deck(tmp_path: Path, image: str) -> Path:
    deck = tmp_path / "deck.yaml"
    deck.write_text(
        "deck: mine\n"
        "name: Mine\n"
        "cards:\n"
        "  - id: scout\n"
        "    title: Scout\n"
        f"    image: {image}\n",
        encoding="utf-8")
    return deck


def test_a_missing_image_names_the_deck_file_and_line(tmp_path):
    result = build(tmp_path, yaml_image_deck(tmp_path, "art/nowhere.png"))
    assert result.exit_code == BAD_INPUT
    assert "deck.yaml:6" in result.output and "nowhere.png" in result.output
    assert not (tmp_path / "out").exists()


def test_an_image_that_is_not_an_image_names_the_deck_file_and_line(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "junk.png").write_bytes(b"\x00not a png at all\xff" * 40)
    result = build(tmp_path, yaml_image_deck(tmp_path, "art/junk.png"))
    assert result.exit_code == BAD_INPUT
    assert "deck.yaml:6" in result.output and "junk.png" in result.output
    assert "Traceback" not in result.output


def test_an_image_outside_the_deck_folder_is_refused(tmp_path):
    (tmp_path / "inner").mkdir()
    deck = yaml_image_deck(tmp_path / "inner", "../outside.png")
    from PIL import Image

    Image.new("RGB", (4, 4)).save(tmp_path / "outside.png")
    result = build(tmp_path, deck)
    assert result.exit_code == BAD_INPUT
    assert "deck.yaml:6" in result.output and "outside" in result.output
