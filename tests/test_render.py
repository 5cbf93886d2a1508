"""Look at the product: rasterise a page and check pixels where they matter."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from cardgen.build import build_decks
from cardgen.prepare import BuildSettings
from cardgen.sheets import load_template
from cardgen.units import mm

SCALE = 2.0  # pixels per point


def render_page(path, index):
    pdf = pdfium.PdfDocument(str(path))
    return pdf[index].render(scale=SCALE).to_pil().convert("RGB")


def pixel(image, template, x, y):
    """The pixel at PDF point (x, y) (origin bottom-left)."""
    return image.getpixel((int(x * SCALE), int((template.page_height - y) * SCALE)))


def close(a, b, tolerance=40):
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


@pytest.mark.parametrize("sheet", ["letter-10up", "a4-10up"])
def test_player_colour_at_the_centre_and_link_reaches_the_edge_midpoint(tmp_path, sheet):
    build_decks(["common-carrier"], tmp_path, BuildSettings(sheet=sheet, colors=("#00a000",)))
    template = load_template(sheet)
    image = render_page(tmp_path / "common-carrier-player-1.pdf", 0)
    # each sheet holds the 10 distinct tiles in deck order: slot 0 is end-vertical (a line to
    # the top edge only), slot 1 end-horizontal (a line to the right edge only)
    s = template.front_slot(0)
    cx, cy = s.x + s.width / 2, s.y + s.height / 2
    assert close(pixel(image, template, cx, cy), (0, 160, 0))
    just_inside_top = s.y + s.height - 0.75
    assert sum(pixel(image, template, cx, just_inside_top)) < 150, "the link reaches the top edge"
    just_inside_bottom = s.y + 0.75
    assert sum(pixel(image, template, cx, just_inside_bottom)) > 600, "no link to the bottom edge"
    r = template.front_slot(1)
    assert sum(pixel(image, template, r.x + r.width - 0.75, r.y + r.height / 2)) < 150
    assert sum(pixel(image, template, r.x + 0.75, r.y + r.height / 2)) > 600


def test_back_page_is_tinted_with_the_players_colour(tmp_path):
    build_decks(["common-carrier"], tmp_path, BuildSettings(colors=("#00a000", "#0000c0")))
    template = load_template("letter-10up")
    for player, colour in (("player-1", (0, 160, 0)), ("player-2", (0, 0, 192))):
        image = render_page(tmp_path / f"common-carrier-{player}.pdf", 1)
        s = template.back_slot(0, "long")
        assert close(pixel(image, template, s.x + 3, s.y + 3), colour)


def test_a_page_placed_1mm_off_shows_card_art_not_white_past_the_outside_edges(tmp_path):
    build_decks(["dotcombust"], tmp_path, BuildSettings())
    template = load_template("letter-10up")
    image = render_page(tmp_path / "dotcombust.pdf", 0)
    s = template.front_slot(0)
    band_y = s.y + s.height - 5  # inside the title band
    band = pixel(image, template, s.x + 3, band_y)  # the band's left end, left of the code badge
    # 1 mm and 2.5 mm beyond the left trim, in the page margin: still the band's colour
    for outside in (mm(1), mm(2.5)):
        assert close(pixel(image, template, s.x - outside, band_y), band), outside
    # above the top trim too
    assert close(pixel(image, template, s.x + s.width - 10, s.y + s.height + mm(1)), band)
