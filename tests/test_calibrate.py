"""cardgen calibrate: rulers across the cut lines read back a simulated printer's offset."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from PIL import Image

from cardgen.calibrate import cut_lines, write_calibration
from cardgen.sheets import load_template, template_names
from cardgen.units import mm

SCALE = 4.0  # pixels per point


def fronts_image(tmp_path, template) -> Image.Image:
    path = tmp_path / "cal.pdf"
    write_calibration(path, template, "long")
    return pdfium.PdfDocument(str(path))[0].render(scale=SCALE).to_pil().convert("L")


def printed(image: Image.Image, dx_mm: float, dy_mm: float) -> Image.Image:
    """The page as a printer that places it dx mm right and dy mm up would print it on the stock."""
    shifted = Image.new("L", image.size, 255)
    shifted.paste(image, (round(mm(dx_mm) * SCALE), round(-mm(dy_mm) * SCALE)))
    return shifted


def dark(image, x_pt, y_pt, page_height) -> bool:
    return image.getpixel((round(x_pt * SCALE), round((page_height - y_pt) * SCALE))) < 128


def read_x(image, template, x0, y) -> float:
    """Where the perforation at x0 crosses the horizontal ruler: the reading, in mm."""
    probe = y + mm(4)  # only the 0 tick (7 mm long) reaches this far, for shifts of -3 to +2 mm
    xs = [x0 + k * 0.05 for k in range(-300, 301) if dark(image, x0 + k * 0.05, probe, template.page_height)]
    zero = sum(xs) / len(xs)
    return (x0 - zero) / mm(1)


def read_y(image, template, x, y0) -> float:
    probe = x + mm(4)
    ys = [y0 + k * 0.05 for k in range(-300, 301) if dark(image, probe, y0 + k * 0.05, template.page_height)]
    zero = sum(ys) / len(ys)
    return (y0 - zero) / mm(1)


@pytest.mark.parametrize("sheet", ["letter-10up", "a4-10up"])
@pytest.mark.parametrize("dx, dy", [(1.0, 0.0), (-1.5, 0.5), (0.0, -2.0)])
def test_the_front_rulers_read_back_the_offset_that_corrects_a_simulated_printer(tmp_path, sheet, dx, dy):
    template = load_template(sheet)
    image = printed(fronts_image(tmp_path, template), dx, dy)
    xs, ys = cut_lines(template)
    slots = template.slots()
    row_y = slots[0].y + slots[0].height / 2
    column_x = slots[0].x + slots[0].width / 3
    readings_x = [read_x(image, template, x, row_y) for x in xs]
    readings_y = [read_y(image, template, column_x, y) for y in ys[1:-1]]
    # every ruler says the same: --front-offset X,Y is minus the printer's shift
    assert readings_x == pytest.approx([-dx] * len(xs), abs=0.1)
    assert readings_y == pytest.approx([-dy] * len(readings_y), abs=0.1)


@pytest.mark.parametrize("sheet", template_names())
def test_the_scale_bar_is_100_mm(tmp_path, monkeypatch, sheet):
    from cardgen.calibrate import SCALE_BAR_MM

    template = load_template(sheet)
    x, y, upright = _placed_bar(tmp_path, monkeypatch, template)
    image = fronts_image(tmp_path, template)

    def at(k):  # the point k points along the bar from its start (negative: before it)
        return (x, y + k) if upright else (x + k, y)

    h = template.page_height
    assert dark(image, *at(1), h) and dark(image, *at(mm(SCALE_BAR_MM) - 1), h)
    assert not dark(image, *at(-2), h) and not dark(image, *at(mm(SCALE_BAR_MM) + 2), h)


def _placed_bar(tmp_path, monkeypatch, template):
    """Where the fronts page puts its bar: (x, y, upright), as the page asked its placement."""
    import cardgen.calibrate as calibrate

    seen = []
    original = calibrate.scale_bar_place
    monkeypatch.setattr(calibrate, "scale_bar_place", lambda t, taken: seen.append(original(t, taken)) or seen[-1])
    write_calibration(tmp_path / "placed.pdf", template, "long")
    monkeypatch.setattr(calibrate, "scale_bar_place", original)
    (placed,) = seen
    return placed


def test_the_bar_on_letter_10up_stays_clear_of_the_bottom_rulers(tmp_path, monkeypatch):
    """The 100 mm bar used to run through the bottom-right ruler and its -5: it now goes where it
    crosses nothing, upright in the left margin."""
    template = load_template("letter-10up")
    x, _, upright = _placed_bar(tmp_path, monkeypatch, template)
    assert upright and x < template.card_area()[0]


def _words(textpage):
    words, current = [], []
    for i in range(textpage.count_chars()):
        char = textpage.get_text_range(i, 1)
        if char.strip():
            current.append(textpage.get_charbox(i))
        elif current:
            words.append(current)
            current = []
    if current:
        words.append(current)
    return [(min(b[0] for b in w), min(b[1] for b in w), max(b[2] for b in w), max(b[3] for b in w))
            for w in words]


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("sheet", template_names())
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("page", [0, 1])
def test_no_two_ruler_labels_overlap(tmp_path, sheet, duplex, page):
    path = tmp_path / "cal.pdf"
    write_calibration(path, load_template(sheet), duplex)
    boxes = _words(pdfium.PdfDocument(str(path))[page].get_textpage())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert _apart(a, b), (a, b)


@pytest.mark.parametrize("sheet", template_names())
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("page", [0, 1])
def test_no_ruler_cross_bar_or_text_overlaps_another_on_any_calibration_sheet(tmp_path, sheet, duplex, page):
    """Every ruler (with its numbers), cross, the bar and each line of text is its own object in the
    PDF: their extents, as the PDF reader measures them, never touch, and all stay on the paper."""
    template = load_template(sheet)
    path = tmp_path / "cal.pdf"
    write_calibration(path, template, duplex)
    pdf_page = pdfium.PdfDocument(str(path))[page]
    objects = list(pdf_page.get_objects(max_depth=1))
    assert objects
    boxes = [obj.get_bounds() for obj in objects]
    for i, a in enumerate(boxes):
        assert a[0] >= 0 and a[1] >= 0 and a[2] <= template.page_width and a[3] <= template.page_height, a
        for b in boxes[i + 1:]:
            assert _apart(a, b), (sheet, duplex, page, a, b)
