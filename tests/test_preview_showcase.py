"""`cardgen preview --hand N` and `--showcase`: pictures of several cards on a transparent background."""
from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from PIL import Image

from cardgen.render import showcase as pictures

ROOT = Path(__file__).resolve().parent.parent

GOPS = ROOT / "examples" / "gops" / "gops.yaml"
POKER_AT_72_DPI = (180, 252)
COLOURS = [(230, 25, 75), (60, 180, 75), (255, 225, 25), (0, 130, 200), (245, 130, 48), (145, 30, 180),
           (70, 240, 240), (240, 50, 230), (210, 245, 60), (250, 190, 212), (0, 128, 128), (220, 190, 255),
           (170, 110, 40), (255, 250, 200), (128, 0, 0), (170, 255, 195)]


def picture(result) -> tuple[Path, Image.Image]:
    assert result.exit_code == 0, result.output
    (line,) = result.output.split()
    path = Path(line)
    return path, Image.open(path)


def corners_of(image: Image.Image) -> list[int]:
    w, h = image.size
    return [image.getpixel(xy)[3] for xy in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1))]


def solid_cards(count: int, size: tuple[int, int] = (100, 140)) -> list[Image.Image]:
    return [Image.new("RGB", size, COLOURS[i]) for i in range(count)]


def visible(image: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels show ``colour`` exactly, fully opaque."""
    counts = {c: n for n, c in image.getcolors(image.width * image.height)}
    return counts.get((*colour, 255), 0)


# --- the hand ---------------------------------------------------------------------------

def test_hand_is_an_rgba_png_with_transparent_corners_sized_by_the_dpi(cli, tmp_path):
    path, image = picture(cli("preview", GOPS, "--hand", "5", "--dpi", "100", "--out", tmp_path))
    assert path == tmp_path / "preview" / "gops-hand.png"
    assert image.mode == "RGBA" and corners_of(image) == [0, 0, 0, 0]
    assert image.info["dpi"] == pytest.approx((100, 100), abs=0.01)
    # a GOPS card is 2 x 3.5 in: 200 x 350 px at 100 dpi
    _, size = pictures.hand_layout(5, 200, 350, 100 / 72)
    assert image.size == size
    _, double = picture(cli("preview", GOPS, "--hand", "5", "--dpi", "200", "--out", tmp_path))
    assert double.width == pytest.approx(2 * image.width, abs=3)
    assert double.height == pytest.approx(2 * image.height, abs=3)


@pytest.mark.parametrize("count", [1, 2, 5, 16])
def test_a_hand_of_n_cards_shows_each_of_the_n(count):
    hand = pictures.fan(solid_cards(count, POKER_AT_72_DPI), 1.0)  # scale 1: 72 dpi
    shown = [colour for colour in COLOURS if visible(hand, colour) > 0]
    assert shown == COLOURS[:count]
    # the last card lies on top, whole; each other card shows a strip of at least a twentieth of it
    area = POKER_AT_72_DPI[0] * POKER_AT_72_DPI[1]
    assert visible(hand, COLOURS[count - 1]) > 0.9 * area
    for colour in COLOURS[:count - 1]:
        assert visible(hand, colour) > area / 20


def test_hand_cards_lean_symmetrically_and_turn_about_one_point_below_them():
    angles = pictures.hand_angles(5)
    assert angles == [-20.0, -10.0, 0.0, 10.0, 20.0]
    assert max(pictures.hand_angles(16)) - min(pictures.hand_angles(16)) == pytest.approx(pictures.HAND_SPREAD)
    places, _ = pictures.hand_layout(5, 100, 140, 1.0)
    # every card's axis, followed down from its centre, meets the others' at one pivot
    pivots = []
    for place in places:
        a = math.radians(place.angle)
        r = pictures.HAND_PIVOT * 140
        pivots.append((place.centre[0] - r * math.sin(a), place.centre[1] + r * math.cos(a)))
    for pivot in pivots[1:]:
        assert pivot == pytest.approx(pivots[0])
    assert pivots[0][1] > max(p.centre[1] for p in places) + 70  # below every card


def test_hand_of_the_deck_first_faces_is_the_hand_of_those_cards_named(cli, tmp_path):
    default, _ = picture(cli("preview", GOPS, "--hand", "3", "--out", tmp_path / "a"))
    named, _ = picture(cli("preview", GOPS, "bid-1", "bid-2", "bid-3", "--hand", "3", "--out", tmp_path / "b"))
    assert default.read_bytes() == named.read_bytes()
    other, _ = picture(cli("preview", GOPS, "bid-9", "bid-9", "bid-3", "--hand", "3", "--out", tmp_path / "c"))
    assert other.read_bytes() != default.read_bytes()


def test_hand_leaves_out_reference_cards(cli, tmp_path):
    from cardgen.prepare import BuildSettings
    from cardgen.preview import showcase_pictures

    settings = BuildSettings()
    (default,) = showcase_pictures("dotcombust", (), settings, tmp_path / "a", hand=2, dpi=40)
    (named,) = showcase_pictures("dotcombust", ("server-farm-rack-of-blades", "server-farm-blinking-lights"),
                                 settings, tmp_path / "b", hand=2, dpi=40)
    assert default.read_bytes() == named.read_bytes()


# --- the showcase -----------------------------------------------------------------------

def test_showcase_is_rgba_on_transparent_and_the_same_bytes_twice(cli, tmp_path):
    first, image = picture(cli("preview", "dotcombust", "--showcase", "--out", tmp_path / "a"))
    second, _ = picture(cli("preview", "dotcombust", "--showcase", "--out", tmp_path / "b"))
    assert first.name == "dotcombust-showcase.png"
    assert first.read_bytes() == second.read_bytes()
    assert image.mode == "RGBA" and corners_of(image) == [0, 0, 0, 0]
    # three 3.5 x 2 in cards at 150 dpi (525 x 300 px), seen turned
    quad = pictures.perspective_quad(525, 300)
    drawn = quad[1][0] - quad[0][0]
    assert 3 * drawn < image.width < 3 * drawn * (1 + pictures.SHOWCASE_GAP) + 150
    assert 300 * (1 + pictures.REFLECTION_SHARE) < image.height < 300 * (1 + pictures.REFLECTION_SHARE) + 150


def test_showcase_cards_stand_in_perspective_over_their_reflection():
    cards = solid_cards(3)
    row = pictures.showcase(cards, 1.0)
    quad = pictures.perspective_quad(100, 140)
    (tlx, tly), (trx, try_), (_, bry), (_, bly) = quad
    assert bly - tly == pytest.approx(140)  # the near edge keeps the card's height
    assert 0.6 * 140 < bry - try_ < 0.9 * 140  # the far edge is smaller
    assert trx - tlx < 100  # and the card narrower
    for colour in COLOURS[:3]:
        assert visible(row, colour) > 0.5 * 100 * 140
    # below the first card's foot, past its shadow: its reflection, faint, in its colour, fading away
    frame = pictures.MARGIN + 3 * pictures.SHADOW_BLUR + max(pictures.SHADOW_OFFSET)
    x = round(tlx - math.floor(tlx - frame) + 10)
    foot = round(bly - math.floor(min(y for _, y in quad) - frame))
    near, far = row.getpixel((x, foot + 12)), row.getpixel((x, foot + 27))
    assert 0 < far[3] < near[3] < 255 * pictures.REFLECTION_STRENGTH
    assert near[:3] == pytest.approx(COLOURS[0], abs=12) and far[:3] == pytest.approx(COLOURS[0], abs=12)
    assert row.getpixel((x, foot + round(140 * pictures.REFLECTION_SHARE) + 3))[3] == 0  # and ending


def test_perspective_coefficients_send_the_quad_back_to_the_card():
    quad = [(10.0, 5.0), (90.0, 20.0), (95.0, 120.0), (5.0, 140.0)]
    source = [(0.0, 0.0), (100.0, 0.0), (100.0, 140.0), (0.0, 140.0)]
    a, b, c, d, e, f, g, h = pictures.perspective_coefficients(quad, source)
    for (x, y), (sx, sy) in zip(quad, source):
        w = g * x + h * y + 1
        assert ((a * x + b * y + c) / w, (d * x + e * y + f) / w) == pytest.approx((sx, sy), abs=1e-9)


def test_hand_and_showcase_in_one_command_and_corners_rounded_or_square(cli, tmp_path):
    result = cli("preview", "clusterfuck", "status-1", "status-2", "--hand", "2", "--showcase", "--dpi", "72",
                 "--corners", "0", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    paths = [Path(p) for p in result.output.split()]
    assert [p.name for p in paths] == ["clusterfuck-hand.png", "clusterfuck-showcase.png"]
    assert all(Image.open(p).mode == "RGBA" for p in paths)


def test_preview_dpi_sets_the_size_of_named_card_previews(cli, tmp_path):
    _, image = picture(cli("preview", "dotcombust", "server-farm-rack-of-blades", "--dpi", "72", "--out", tmp_path))
    assert image.size == (2 * 252 + 3 * 12, 144 + 2 * 12)


# --- bad input --------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (("--hand", "0"), "--hand must be from 1 to 16 cards, got 0"),
    (("--hand", "17"), "--hand must be from 1 to 16 cards, got 17"),
    (("bid-1", "bid-2", "--hand", "3"), "--hand 3 shows 3 cards but 2 CARD_IDs are given"),
    (("bid-1", "bid-99", "--hand", "2"), "deck 'gops' has no card 'bid-99' (did you mean 'bid-9'?)"),
    (("bid-1", "bid-99", "--showcase"), "deck 'gops' has no card 'bid-99'"),
    (tuple(f"bid-{i}" for i in range(1, 10)) + ("--showcase",), "--showcase shows 1 to 8 cards, got 9 CARD_IDs"),
    (("--hand", "3", "--dpi", "20"), "--dpi must be from 36 to 1200, got 20"),
    (("--showcase", "--corners", "2cm"), "--corners must be from 0 to 10 mm"),
    (("--showcase", "--corners", "round"), "--corners: expected a length"),
    (("--hand", "16", "--dpi", "1200"), "the hand at 1200 dpi would be"),
])
def test_bad_hand_or_showcase_is_refused_with_exit_2_and_nothing_written(cli, tmp_path, args, message):
    result = cli("preview", GOPS, *args, "--out", tmp_path)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_hand_larger_than_the_deck_faces_says_to_name_cards(cli, tmp_path):
    result = cli("preview", "clusterfuck", "--hand", "9", "--out", tmp_path)
    assert result.exit_code == 2
    assert "deck 'clusterfuck' has 8 distinct faces besides its reference cards, fewer than --hand 9" in result.output
    assert list(tmp_path.iterdir()) == []
    ok = cli("preview", "clusterfuck", *(["status-1"] * 9), "--hand", "9", "--out", tmp_path)
    assert ok.exit_code == 0, ok.output


def test_nothing_is_written_when_the_second_picture_fails(tmp_path, monkeypatch):
    from cardgen.prepare import BuildSettings
    from cardgen.preview import showcase_pictures
    from cardgen.render import showcase

    def broken(cards, scale):
        raise MemoryError("no room")

    monkeypatch.setattr(showcase, "showcase", broken)
    with pytest.raises(MemoryError):
        showcase_pictures(str(GOPS), (), BuildSettings(), tmp_path, hand=2, showcase=True, dpi=40)
    assert list(tmp_path.iterdir()) == []


def test_png_bytes_hold_no_time_stamp(tmp_path):
    from cardgen.prepare import BuildSettings
    from cardgen.preview import showcase_pictures

    (path,) = showcase_pictures(str(GOPS), (), BuildSettings(), tmp_path, showcase=True, dpi=40)
    image = Image.open(io.BytesIO(path.read_bytes()))
    assert not {"date", "Creation Time", "modify"} & set(image.info)


def test_showcase_of_the_deck_first_faces_is_the_showcase_of_those_cards_named(tmp_path):
    from cardgen.prepare import BuildSettings
    from cardgen.preview import showcase_pictures

    (default,) = showcase_pictures(str(GOPS), (), BuildSettings(), tmp_path / "a", showcase=True, dpi=40)
    (named,) = showcase_pictures(str(GOPS), ("bid-1", "bid-2", "bid-3"), BuildSettings(), tmp_path / "b",
                                 showcase=True, dpi=40)
    assert default.read_bytes() == named.read_bytes()


def test_a_picture_too_large_to_compose_names_the_largest_dpi_that_fits(cli, tmp_path):
    result = cli("preview", "dotcombust", "--hand", "16", "--dpi", "1200", "--out", tmp_path)
    assert result.exit_code == 2
    assert "the hand at 1200 dpi would be 11940 x 5693 px, more than 50 megapixels; use --dpi 1029 or less" \
        in result.output
    width, height = pictures.fan_size(16, 252 * 1029 / 72, 144 * 1029 / 72, 1029 / 72)
    assert width * height <= 50_000_000
