"""Printed in black and white, every bundled per-player deck still tells its players apart."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageStat

from cardgen.build import build_decks
from cardgen.prepare import BuildSettings
from cardgen.sheets import load_template

SCALE = 1.0


def grey_page(path, index):
    return pdfium.PdfDocument(str(path))[index].render(scale=SCALE, grayscale=True).to_pil().convert("L")


def slot_crop(image, slot, template):
    top = template.page_height - slot.y - slot.height
    return image.crop((int(slot.x * SCALE), int(top * SCALE), int((slot.x + slot.width) * SCALE),
                       int((top + slot.height) * SCALE)))


@pytest.mark.parametrize("sheet", ["letter-10up", "a4-10up"])
def test_common_carrier_players_differ_on_every_tile_and_back_in_greyscale(tmp_path, sheet):
    build_decks(["common-carrier"], tmp_path, BuildSettings(sheet=sheet))
    template = load_template(sheet)
    pages = {p: [grey_page(tmp_path / f"common-carrier-player-{p}.pdf", i) for i in (0, 1)] for p in (1, 2)}
    for index in range(template.per_sheet):
        for side, slot in ((0, template.front_slot(index)), (1, template.back_slot(index, "long"))):
            one, two = (slot_crop(pages[p][side], slot, template) for p in (1, 2))
            # the share of the card whose grey differs clearly (by a fifth of the range or more)
            differs = ImageChops.difference(one, two).point(lambda v: 255 if v > 50 else 0)
            share = ImageStat.Stat(differs).mean[0] / 255
            assert share > 0.02, (sheet, index, "fronts" if side == 0 else "backs", share)


def test_default_player_colours_are_far_apart_in_lightness():
    from cardgen.colors import lightness
    from cardgen.deck import load_deck

    players = load_deck("common-carrier").players
    assert abs(lightness(players[0].color) - lightness(players[1].color)) >= 30


def test_colours_that_print_as_one_grey_are_a_warning_naming_the_pair(cli, tmp_path):
    result = cli("build", "common-carrier", "--out", tmp_path, "--color", "#c62828", "--color", "#1565c0")
    assert result.exit_code == 0
    assert "warning: players 'Player 1' (#c62828) and 'Player 2' (#1565c0) print as nearly the same grey" \
        in result.output and "--color" in result.output
    quiet = cli("build", "common-carrier", "--out", tmp_path, "--color", "navy", "--color", "gold")
    assert "warning" not in quiet.output


def test_each_player_has_a_shape_on_the_nodes_and_the_backs(tmp_path):
    from cardgen.deck import load_deck
    from cardgen.prepare import deck_faces, prepare

    deck = prepare(load_deck("common-carrier"), BuildSettings())
    faces = deck_faces(deck, load_template("letter-10up"))
    marks = set()
    for owner in (0, 1):
        card = next(c for c in deck.cards if c.owner == owner and c.kind == "tile")
        back = faces.drawings[faces.back(card)].ops
        marks.add(next(op[1] for op in back if op[0] == "icon"))
    assert marks == {"circle", "square"}


def test_assets_alike_in_grey_and_icon_are_a_warning_but_the_bundled_ones_are_told_apart(tmp_path, cli):
    assert "warning" not in cli("validate", "dotcombust", "--games", "0").output
    deck = tmp_path / "twins.yaml"
    deck.write_text("deck: twins\nname: Twins\ngame: dotcombust\n"
                    "layouts: {asset: {elements: [{name: part, type: text, text: '{part}'}]}}\nassets:\n"
                    "  - {name: Red Thing, color: '#c62828', icon: star, parts: [a, b]}\n"
                    "  - {name: Blue Thing, color: '#1565c0', icon: star, parts: [c, d]}\n", encoding="utf-8")
    result = cli("validate", deck, "--games", "0")
    assert "assets 'Red Thing' and 'Blue Thing' share the icon 'star'" in result.output
