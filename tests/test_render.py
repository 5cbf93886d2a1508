"""Look at the product: rasterise a page and check pixels where they matter."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from cardgen.build import BuildSettings, build_decks
from cardgen.sheets import load_template

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
