"""Look at the product: rasterise a page and check pixels where they matter."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

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


# --- turned corner indexes ------------------------------------------------------------

POKER = Path(__file__).resolve().parent.parent / "examples" / "poker" / "poker.yaml"


def card_image(deck: str, options: dict, card_id: str, dpi: float = 300):
    """One card's face, rendered alone (no bleed) at ``dpi``."""
    from cardgen.deck import load_deck
    from cardgen.export.cards import CardBox, rasterize
    from cardgen.prepare import deck_faces, prepare

    built = prepare(load_deck(deck), BuildSettings(options=options))
    faces = deck_faces(built, load_template("letter-10up"))
    key = faces.face(next(c for c in built.cards if c.id == card_id))
    [(_, image)] = rasterize({key: faces.drawings[key]}, [key], CardBox(faces.width, faces.height, 0.0), dpi)
    return image


def corner_difference(image, width_pt: float, height_pt: float, dpi: float = 300):
    """(top-left corner, bottom-right corner turned 180 degrees, their mean difference per channel)."""
    w, h = round(width_pt * dpi / 72), round(height_pt * dpi / 72)
    top_left = image.crop((0, 0, w, h))
    bottom_right = image.crop((image.width - w, image.height - h, image.width, image.height))
    return top_left, bottom_right, mean_difference(top_left, bottom_right.rotate(180))


def mean_difference(a, b) -> float:
    """How far apart two images of one size are, per pixel and channel (0 to 255)."""
    from PIL import ImageChops, ImageStat

    diff = ImageStat.Stat(ImageChops.difference(a, b)).mean
    return sum(diff) / len(diff)


def ink(image) -> float:
    """The share of pixels that are not near white."""
    histogram = image.convert("L").histogram()
    return sum(histogram[:200]) / sum(histogram)


@pytest.mark.parametrize("deck, options, card_id, corner", [
    ("clusterfuck", {"standard_deck": "true"}, "10-of-hearts", (30, 42)),
    ("clusterfuck", {"standard_deck": "true"}, "q-of-spades", (30, 42)),
    (str(POKER), {}, "q-of-hearts", (mm(13), mm(16))),
    (str(POKER), {}, "10-of-clubs", (mm(13), mm(16))),
    # JOKER down the left side (turned 90) and up the right (turned 270)
    (str(POKER), {}, "joker-red", (mm(9.5), mm(40))),
])
def test_the_bottom_right_index_is_the_top_left_turned_180_degrees(deck, options, card_id, corner):
    image = card_image(deck, options, card_id)
    top_left, bottom_right, difference = corner_difference(image, *corner)
    assert ink(top_left) > 0.05, "the corner holds an index"
    assert difference < 0.5, f"the corners differ by {difference:.2f} per channel"
    # and the comparison can tell: the bottom-right corner as it stands (unturned) is not the top-left
    assert mean_difference(top_left, bottom_right) > 10 * max(difference, 0.5)


def test_the_mirrored_joker_hat_is_the_other_jokers_flipped_left_to_right():
    red, black = card_image(str(POKER), {}, "joker-red"), card_image(str(POKER), {}, "joker-black")
    # the hat's box (62% of the width, centred; 36% of the height about 45%), the same on both cards
    box = (round(red.width * 0.19), round(red.height * 0.27), round(red.width * 0.81), round(red.height * 0.63))
    hat, mirrored = red.crop(box), black.crop(box)
    assert ink(hat) > 0.1
    assert mean_difference(hat.transpose(Image.Transpose.FLIP_LEFT_RIGHT), mirrored) < 0.5
    assert mean_difference(hat, mirrored) > 5
