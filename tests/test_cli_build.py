"""`cardgen build` and `cardgen list` through click's test runner."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.build import build_decks
from cardgen.export import write_pdf
from cardgen.prepare import BuildSettings
from cardgen.sheets import PlacedCard, Printing, load_template

ROOT = Path(__file__).resolve().parent.parent


def pdf_pages(path) -> int:
    return len(pdfium.PdfDocument(str(path)))


def test_build_common_carrier_gives_one_pdf_per_player_of_full_sheets(cli, tmp_path):
    result = cli("build", "common-carrier", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdfs = sorted(p.name for p in tmp_path.glob("*.pdf"))
    assert pdfs == ["common-carrier-player-1.pdf", "common-carrier-player-2.pdf", "common-carrier-shared.pdf"]
    # 40 cards: 4 full sheets (the original's one sheet printed 4 times), each fronts then backs;
    # the two reference cards share one sheet of their own
    assert pdf_pages(tmp_path / pdfs[0]) == 8
    assert "common-carrier-player-1.pdf: 40 cards, 8 pages" in result.output
    assert "common-carrier-shared.pdf: 2 cards, 2 pages" in result.output


def test_one_pdf_shares_final_sheets_between_players_and_decks(cli, tmp_path):
    result = cli("build", "common-carrier", "--one-pdf", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["common-carrier.pdf"]
    assert "common-carrier.pdf: 82 cards, 18 pages" in result.output  # 9 sheets, not 4 + 4 + 1 + ...
    every = cli("build", "--one-pdf", "--out", tmp_path / "all")
    assert every.exit_code == 0 and "cards.pdf: 172 cards, 36 pages" in every.output  # 18 sheets, not 19


def test_duplex_off_prints_fronts_only(cli, tmp_path):
    assert cli("build", "common-carrier", "--out", tmp_path, "--duplex", "off").exit_code == 0
    assert pdf_pages(tmp_path / "common-carrier-player-1.pdf") == 4


def test_gray_none_prints_the_basic_game(cli, tmp_path):
    result = cli("build", "common-carrier", "--out", tmp_path, "--gray", "none")
    assert result.exit_code == 0, result.output
    assert "32 cards" in result.output  # the 32 basic cards


def test_gray_counts_are_per_player(cli, tmp_path):
    result = cli("build", "common-carrier", "--out", tmp_path, "--gray", "pbx=3,goose=1")
    assert result.exit_code == 0, result.output
    assert "36 cards" in result.output  # 32 + 3 PBX + 1 goose egg


# ---------------------------------------------------------------- the games' own build settings

PREPARING = ("build", "watch", "serve", "preview", "validate", "playtest", "ladder")


def test_gray_is_common_carriers_own_setting_and_the_build_carries_it_by_name(tmp_path):
    from cardgen.games import BUNDLED, BUNDLED_SETTINGS, declared_settings, game_info

    for game in BUNDLED:  # each bundled game declares the settings the command line reads as data
        assert game_info(game).build_settings == BUNDLED_SETTINGS.get(game, ())
    (gray,) = game_info("common-carrier").build_settings
    assert (gray.name, gray.flag, gray.default) == ("gray", "--gray", "all")
    assert declared_settings() == [gray]
    assert gray.parse("3,1") == [(3, 1), (1, 3)]  # PBX and goose eggs of each player
    results = build_decks(["common-carrier"], tmp_path, BuildSettings(game_settings={"gray": "none"}))
    assert [e.cards for e in results[0].exports] == [32, 32, 2]  # the basic game and its shared cards


@pytest.mark.parametrize("command", PREPARING)
def test_every_command_that_prepares_decks_takes_gray_as_before(command):
    from cardgen.cli import main

    (option,) = [p for p in main.commands[command].params if p.name == "gray"]
    assert option.opts == ["--gray"] and option.default == "all" and option.show_default
    assert option.metavar == "all|none|N|N,M|pbx=N,goose=M"
    assert option.help == ("Gray cards per player (Common Carrier): all 4 PBX and 4 goose eggs, none (basic "
                           "game), each player's own 4 as PBX counts (3,1), or pbx=N,goose=M.")


def test_the_command_line_imports_no_engine_to_offer_the_games_settings():
    import ast
    import subprocess
    import sys

    code = ("import sys\nfrom click.testing import CliRunner\nfrom cardgen.cli import main\n"
            "for args in (['--help'], ['build', '--help'], ['validate', '--help']):\n"
            "    assert CliRunner().invoke(main, args).exit_code == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith('cardgen.games.') or m in ('reportlab', 'PIL')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # the example plug-in's engine imports the base, and its calls are wrapped as a guest's (guests.py)
    assert set(ast.literal_eval(out)) <= {"cardgen.games.base", "cardgen.games.guests"}, out


PLUGIN = """
from dataclasses import replace

from cardgen.errors import CardgenError
from cardgen.games import BuildSetting
from cardgen_gops import GAME as GOPS

SEEN = []


def parse_deal(text):
    if not text.isdigit():
        raise CardgenError(f"--deal must be a number, got '{text}'")
    return int(text)


def customise(deck, cards, options, settings):
    SEEN.append(settings.deal)
    return list(cards)


SETTING = BuildSetting("{name}", "{flag}", metavar="N", help="Cards dealt (a test plug-in).", default="3",
                       parser=parse_deal)
GAME = replace(GOPS, id="gops-dealt", customise=customise, build_settings=(SETTING,))
"""


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """An installed plug-in game, ``gops-dealt``, declaring the build setting ``--deal``; returns its deck."""
    import sys

    from cardgen import games

    def install(name="deal", flag="--deal"):
        (tmp_path / "dealt_plugin.py").write_text(PLUGIN.replace("{name}", name).replace("{flag}", flag))
        monkeypatch.syspath_prepend(str(tmp_path))
        monkeypatch.delitem(sys.modules, "dealt_plugin", raising=False)
        registered = {**games.registry(), "gops-dealt": "dealt_plugin:GAME"}
        monkeypatch.setattr(games, "registry", lambda: registered)
        games.game_info.cache_clear()
        deck = tmp_path / "dealt.yaml"
        source = ROOT / "examples" / "gops" / "gops.yaml"
        deck.write_text(source.read_text(encoding="utf-8").replace("game: gops", "game: gops-dealt"))
        (tmp_path / "cards.csv").write_text((source.parent / "cards.csv").read_text(encoding="utf-8"))
        return deck

    yield install
    games.game_info.cache_clear()


def test_a_plugin_games_setting_is_an_option_of_every_command_that_prepares_decks(cli, tmp_path, plugin):
    deck = plugin()
    for command in PREPARING:
        assert "--deal N" in cli(command, "--help").output, command
    result = cli("build", deck, "--deal", "5", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    from dealt_plugin import SEEN

    assert SEEN == ["5"]
    bad = cli("validate", deck, "--deal", "many", "--games", "0")
    assert bad.exit_code == 2 and bad.output.strip() == "Error: --deal must be a number, got 'many'"


def test_a_plugin_setting_may_not_take_an_option_of_cardgen(cli, plugin):
    plugin(name="paper", flag="--sheet")
    result = cli("build", "--help")
    assert result.exit_code == 2 and "already an option of cardgen build" in result.output


def test_pdf_asks_viewers_for_duplex_and_no_scaling(cli, tmp_path):
    cli("build", "common-carrier", "--out", tmp_path, "--duplex", "short")
    raw = (tmp_path / "common-carrier-player-1.pdf").read_bytes()
    assert b"/PrintScaling /None" in raw
    assert b"/Duplex /DuplexFlipShortEdge" in raw


def test_each_distinct_face_is_drawn_once(tmp_path):
    build_decks(["common-carrier"], tmp_path, BuildSettings())
    raw = (tmp_path / "common-carrier-player-1.pdf").read_bytes()
    # 10 tiles + the player's tinted back
    assert len(set(re.findall(rb"/FormXob\.Card\d+ ", raw))) == 11
    # and each icon of the back once (the node, the player's mark), placed by all
    assert len(set(re.findall(rb"/FormXob\.Art\d+ ", raw))) == 2


def test_a_face_placed_once_is_drawn_in_place_and_a_repeated_one_as_a_form(tmp_path):
    import pypdfium2 as pdfium

    deck = tmp_path / "d.yaml"
    deck.write_text("deck: d\nname: D\ncards:\n  - {id: a, title: Alpha, copies: 3}\n"
                    "  - {id: b, title: Bravo}\n  - {id: c, title: Charlie}\n")
    build_decks([str(deck)], tmp_path / "out", BuildSettings())
    raw = (tmp_path / "out" / "d.pdf").read_bytes()
    # Alpha's face (3 times) and the back (5 times) are forms; Bravo's and Charlie's faces are not
    assert len(set(re.findall(rb"/FormXob\.Card\d+ ", raw))) == 2
    text = pdfium.PdfDocument(str(tmp_path / "out" / "d.pdf"))[0].get_textpage().get_text_range()
    assert text.count("Alpha") == 3 and text.count("Bravo") == 1 and text.count("Charlie") == 1


@pytest.mark.parametrize("args, words", [
    (["--color", "reddish"], "unknown colour 'reddish'"),
    (["--color", "red", "--color", "blue", "--color", "green"], "has 2 players"),
    (["--back-offset", "1;2"], "--back-offset must be X,Y"),
    (["--back-offset", "50,0"], "too large"),
    (["--sheet", "letter-11up"], "unknown sheet 'letter-11up'"),
    (["--gray", "pbx=two"], "--gray must be all, none, N or N,M"),
    (["--option", "target"], "--option must be KEY=VALUE"),
    (["--option", "targte=6"], "did you mean 'target'"),
    (["--option", "target=six"], "option 'target' must be a whole number"),
])
def test_bad_input_is_one_line_exit_2_and_no_pdf(cli, tmp_path, args, words):
    result = cli("build", "common-carrier", "--out", tmp_path, *args)
    assert result.exit_code == 2
    assert words in result.output
    assert result.output.startswith("Error: ") and "Traceback" not in result.output
    assert not list(tmp_path.glob("*.pdf"))


def test_unknown_deck_suggests_a_bundled_one(cli, tmp_path):
    result = cli("build", "common-carier", "--out", tmp_path)
    assert result.exit_code == 2 and "did you mean 'common-carrier'" in result.output


def test_missing_deck_file_is_exit_2(cli, tmp_path):
    result = cli("build", tmp_path / "nope.yaml", "--out", tmp_path)
    assert result.exit_code == 2 and "no such file" in result.output


def test_broken_deck_file_names_file_and_line(cli, tmp_path):
    deck = tmp_path / "broken.yaml"
    deck.write_text("deck: broken\nname: Broken\ncards:\n  - {id: a, kind: tile, edges: {top: lin}}\n")
    result = cli("build", deck, "--out", tmp_path)
    assert result.exit_code == 2
    assert "broken.yaml:4:" in result.output


def test_failed_write_keeps_the_previous_good_pdf(tmp_path):
    template = load_template("letter-10up")
    target = tmp_path / "deck.pdf"
    write_pdf(target, Printing(template), {"a": lambda c, w, h: c.rect(0, 0, w, h)}, [PlacedCard("a", None)])
    good = target.read_bytes()

    def explode(canvas, w, h):
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_pdf(target, Printing(template), {"a": explode}, [PlacedCard("a", None)])
    assert target.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["deck.pdf"]


def test_colors_tint_fronts_and_backs(cli, tmp_path):
    result = cli("build", "common-carrier", "--out", tmp_path, "--color", "teal", "--color", "#ff8800")
    assert result.exit_code == 0, result.output


def test_list_shows_decks_and_sheets(cli):
    result = cli("list")
    assert result.exit_code == 0
    for word in ("common-carrier", "letter-10up", "a4-10up", "Avery 5371", "Zweckform C32011"):
        assert word in result.output


@pytest.mark.parametrize("command", ["build", "list", "validate", "playtest", "schema", "new"])
def test_every_command_has_help(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_calibration_sheet_has_a_front_and_a_back(cli, tmp_path, duplex):
    target = tmp_path / "cal.pdf"
    result = cli("calibrate", "--duplex", duplex, "--out", target, "--sheet", "a4-10up")
    assert result.exit_code == 0, result.output
    assert pdf_pages(target) == 2


def test_each_common_carrier_sheet_holds_the_ten_distinct_cards(tmp_path):
    from cardgen.deck import load_deck
    from cardgen.export.pdf import face_drawings
    from cardgen.prepare import deck_faces, plan_outputs, prepare

    deck = prepare(load_deck("common-carrier"), BuildSettings())
    output = plan_outputs(deck, tmp_path)[0]
    _, placed = face_drawings(output.cards, deck_faces(deck, load_template("letter-10up")))
    sheets = [placed[i:i + 10] for i in range(0, 40, 10)]
    for sheet in sheets:
        assert len({card.face for card in sheet}) == 10


def test_an_out_folder_that_cannot_be_made_is_exit_2(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = cli("build", "common-carrier", "--out", blocker / "out")
    assert result.exit_code == 2 and "cannot write" in result.output


@pytest.mark.parametrize("deck, extra", [
    ("common-carrier", []),
    ("dotcombust", []),
    ("clusterfuck", ["--option", "standard_deck=true"]),
])
@pytest.mark.parametrize("sheet", ["letter-10up", "a4-10up"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_every_bundled_deck_builds_on_both_sheets_and_both_flips(cli, tmp_path, deck, extra, sheet, duplex):
    result = cli("build", deck, "--out", tmp_path, "--sheet", sheet, "--duplex", duplex, *extra)
    assert result.exit_code == 0, result.output
    for pdf in tmp_path.glob("*.pdf"):
        pages = pdf_pages(pdf)
        assert pages >= 2 and pages % 2 == 0  # every fronts page has its backs page


def test_the_embedded_font_covers_latin_1():
    from cardgen.render.fonts import coverage, default_family, register

    for style in ("regular", "bold"):
        has = coverage(register(default_family().file(style)))
        missing = [chr(c) for c in list(range(0x20, 0x7F)) + list(range(0xA1, 0x100)) if chr(c) not in has]
        assert not missing, (style, missing)


def test_portrait_decks_are_drawn_upright_in_landscape_slots(cli, tmp_path):
    deck = tmp_path / "tall.yaml"
    deck.write_text("deck: tall\nname: Tall\norientation: portrait\ncards:\n"
                    "  - {id: a, title: Tall card, text: 'Drawn 2 in wide and 3.5 in high.', color: '#008000'}\n")
    result = cli("build", deck, "--out", tmp_path, "--duplex", "off")
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(str(tmp_path / "tall.pdf"))
    image = pdf[0].render(scale=1).to_pil().convert("RGB")
    slot = load_template("letter-10up").front_slot(0)
    # turned a quarter left, the title band along the card's top edge is the slot's left side
    left_middle = image.getpixel((int(slot.x + 10), int(792 - slot.y - slot.height / 2)))
    right_middle = image.getpixel((int(slot.x + slot.width - 10), int(792 - slot.y - slot.height / 2)))
    assert left_middle[1] > 100 and left_middle[0] < 60, left_middle
    assert right_middle == (255, 255, 255)


def test_a_generic_per_player_deck_gives_each_player_their_own_pdf(cli, tmp_path):
    deck = tmp_path / "duel.yaml"
    deck.write_text("deck: duel\nname: Duel\nper_player: true\nback: {tint: player}\n"
                    "players:\n  - {name: North, color: navy}\n  - {name: South, color: maroon}\n"
                    "cards:\n  - {id: strike, title: Strike, copies: 3}\n"
                    "  - {id: rules, kind: reference, title: Rules, lines: [Strike first.]}\n")
    result = cli("build", deck, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["duel-north.pdf", "duel-south.pdf"]
    assert result.output.count("4 cards") == 2


def test_backs_at_end_puts_every_fronts_page_first(tmp_path):
    build_decks(["common-carrier"], tmp_path, BuildSettings(backs_at_end=True, colors=("#00a000",)))
    pdf = pdfium.PdfDocument(str(tmp_path / "common-carrier-player-1.pdf"))
    assert len(pdf) == 8
    texts = [pdf[i].get_textpage().get_text_range() for i in range(8)]
    assert all("fronts" in t for t in texts[:4])
    assert all("backs" in t and "fronts" not in t for t in texts[4:])


def test_a_decks_own_options_take_the_type_of_their_default(cli, tmp_path):
    deck = tmp_path / "own.yaml"
    deck.write_text("deck: own\nname: Own\noptions: {bonus: 2, fancy: false}\n"
                    "cards:\n  - {id: a, title: 'Bonus {bonus}', when: fancy}\n  - {id: b, title: Plain}\n")
    bad = cli("build", deck, "--out", tmp_path, "--option", "bonus=lots")
    assert bad.exit_code == 2 and "option 'bonus' must be a whole number" in bad.output
    good = cli("build", deck, "--out", tmp_path, "--option", "bonus=5", "--option", "fancy=yes")
    assert good.exit_code == 0 and "2 cards" in good.output
    plain = cli("build", deck, "--out", tmp_path)
    assert plain.exit_code == 0 and "1 card," in plain.output


def test_building_every_deck_applies_each_setting_to_the_decks_that_know_it(cli, tmp_path):
    result = cli("build", "--out", tmp_path, "--color", "teal", "--option", "target=6",
                 "--option", "standard_deck=true")
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.glob("*.pdf"))) == 5
    assert "clusterfuck.pdf: 61 cards" in result.output  # 8 status + 52 + the reference card


def test_a_setting_no_deck_knows_is_still_an_error(cli, tmp_path):
    result = cli("build", "--out", tmp_path, "--option", "targte=6")
    assert result.exit_code == 2 and "did you mean 'target'" in result.output
    assert not list(tmp_path.glob("*.pdf"))


def test_build_and_validate_share_the_prepare_module_and_never_import_each_other():
    import ast

    import cardgen

    def imported(module: str) -> set[str]:
        tree = ast.parse((Path(cardgen.__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
        return {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | \
            {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}

    build, validate = imported("build"), imported("validate")
    assert "validate" in build and "prepare" in validate and "prepare" in build
    assert "build" not in validate and "cardgen.build" not in validate
    assert "build" not in imported("prepare") and "validate" not in imported("prepare")
