"""Any card on any paper: named sizes and papers, automatic imposition, checked as numbers.

Every named paper x every named card size x every duplex mode: the slots sit inside the printable
margin and never overlap, each back lands behind its front (turned cards and their backs too),
and every crop mark lies on a cut line, in the margins, off the cards.
"""
from __future__ import annotations

import json
import math

import pypdfium2 as pdfium
import pytest

from cardgen.errors import CardgenError
from cardgen.export.sheets import _place
from cardgen.prepare import BuildSettings, deck_card, deck_template
from cardgen.resolve import load_resolved
from cardgen.sheets import DUPLEX_MODES, PlacedCard, Printing, impose, load_template, turns
from cardgen.sheets.papers import DEFAULT_MARGIN, fit
from cardgen.sheets.sizes import CARD_SIZES, PAPERS, card_size, paper_size
from cardgen.units import mm

EPS = mm(0.01)
GAPS = (0.0, mm(6))

#: cards a page with the default 5 mm margin, cards touching, as the issue's note reports them
PER_PAGE = {
    "business": {"letter": 12, "a4": 10}, "business-eu": {"letter": 9, "a4": 10},
    "poker": {"letter": 9, "a4": 9}, "bridge": {"letter": 9, "a4": 10}, "mini": {"letter": 18, "a4": 18},
    "tarot": {"letter": 4, "a4": 4}, "euro": {"letter": 8, "a4": 9}, "square": {"letter": 12, "a4": 12},
}


def test_cards_per_page_on_letter_and_a4_for_every_named_size(capsys):
    table = {name: {paper: fit(PAPERS[paper], size).per_sheet for paper in ("letter", "a4")}
             for name, size in CARD_SIZES.items()}
    with capsys.disabled():
        print("\nsize         letter  a4")
        for name, row in table.items():
            print(f"{name:12} {row['letter']:6}  {row['a4']:2}")
    assert table == PER_PAGE


def test_poker_cards_print_nine_a_page_three_by_three_upright_on_letter_and_a4():
    for paper in ("letter", "a4"):
        t = fit(PAPERS[paper], CARD_SIZES["poker"])
        assert (t.columns, t.rows) == (3, 3)
        assert (t.card_width, t.card_height) == (2.5 * 72, 3.5 * 72)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", CARD_SIZES)
@pytest.mark.parametrize("gap", GAPS)
def test_slots_sit_inside_the_margin_centred_and_never_overlap(paper, size, gap):
    card, sheet = CARD_SIZES[size], PAPERS[paper]
    t = fit(sheet, card, DEFAULT_MARGIN, gap)
    slots = t.slots()
    assert len(slots) == t.per_sheet > 0
    assert sorted((t.card_width, t.card_height)) == pytest.approx(sorted((card.width, card.height)))
    for s in slots:
        assert s.x >= DEFAULT_MARGIN - EPS and s.x + s.width <= sheet.width - DEFAULT_MARGIN + EPS
        assert s.y >= DEFAULT_MARGIN - EPS and s.y + s.height <= sheet.height - DEFAULT_MARGIN + EPS
    for a in slots:
        for b in slots:
            if a.index < b.index:
                apart_x = max(a.x, b.x) - min(a.x + a.width, b.x + b.width)
                apart_y = max(a.y, b.y) - min(a.y + a.height, b.y + b.height)
                assert max(apart_x, apart_y) >= gap - EPS, (a, b)
    left, bottom, right, top = t.card_area()
    assert left == pytest.approx(sheet.width - right) and bottom == pytest.approx(sheet.height - top)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", CARD_SIZES)
def test_cards_turn_only_when_that_fits_more(paper, size):
    card, sheet = CARD_SIZES[size], PAPERS[paper]
    t = fit(sheet, card)
    upright = fit_count(sheet, card.width, card.height)
    turned = fit_count(sheet, card.height, card.width)
    assert t.per_sheet == max(upright, turned)
    was_turned = (t.card_width, t.card_height) != (card.width, card.height)
    assert was_turned == (turned > upright)
    assert turns(t, card.landscape) == (was_turned and card.width != card.height)


def fit_count(sheet, width, height):
    room_w, room_h = sheet.width - 2 * DEFAULT_MARGIN, sheet.height - 2 * DEFAULT_MARGIN
    return math.floor(room_w / width + 1e-9) * math.floor(room_h / height + 1e-9)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", CARD_SIZES)
@pytest.mark.parametrize("duplex", DUPLEX_MODES)
@pytest.mark.parametrize("gap", GAPS)
def test_every_back_lands_behind_its_front_and_turns_with_it(paper, size, duplex, gap):
    card, sheet = CARD_SIZES[size], PAPERS[paper]
    t = fit(sheet, card, DEFAULT_MARGIN, gap)
    turned = turns(t, card.landscape)
    cards = [PlacedCard(f"f{i}", f"b{i}") for i in range(t.per_sheet + 1)]
    pages = impose(cards, Printing(t, duplex, portrait=turned))
    assert len(pages) == 2 * (1 if duplex == "off" else 2)
    fronts = [p for p in pages if p.side == "fronts"]
    backs = [p for p in pages if p.side == "backs"]
    assert all(pl.slot.rotation == (90 if turned else 0) for p in fronts for pl in p.placements)
    if duplex == "off":
        assert not backs
        return
    for front_page, back_page in zip(fronts, backs):
        behind = {pl.key: pl.slot for pl in back_page.placements}
        for placement in front_page.placements:
            f, b = placement.slot, behind["b" + placement.key[1:]]
            if duplex == "long":  # the sheet turns about its vertical axis: x mirrors
                assert sheet.width - b.x - b.width == pytest.approx(f.x) and b.y == pytest.approx(f.y)
            else:  # about its horizontal axis: y mirrors, and the back turns half round
                assert sheet.height - b.y - b.height == pytest.approx(f.y) and b.x == pytest.approx(f.x)
            assert (b.width, b.height) == (f.width, f.height)
            assert b.rotation == ((180 if duplex == "short" else 0) + (90 if turned else 0)) % 360


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", CARD_SIZES)
@pytest.mark.parametrize("gap", GAPS)
def test_crop_marks_lie_on_cut_lines_in_the_margins_off_the_cards(paper, size, gap):
    t = fit(PAPERS[paper], CARD_SIZES[size], DEFAULT_MARGIN, gap)
    slots = t.slots()
    xs = {v for s in slots for v in (s.x, s.x + s.width)}
    ys = {v for s in slots for v in (s.y, s.y + s.height)}
    marks = t.crop_marks()
    left, bottom, right, top = t.card_area()
    for x1, y1, x2, y2 in marks:
        assert min(x1, x2) >= 0 and max(x1, x2) <= t.page_width
        assert min(y1, y2) >= 0 and max(y1, y2) <= t.page_height
        if x1 == x2:
            assert _near(x1, xs) and (min(y1, y2) >= top or max(y1, y2) <= bottom)
        else:
            assert y1 == y2 and _near(y1, ys) and (min(x1, x2) >= right or max(x1, x2) <= left)
        for s in slots:
            b = t.art_bleed
            assert not (min(x1, x2) < s.x + s.width + b and max(x1, x2) > s.x - b
                        and min(y1, y2) < s.y + s.height + b and max(y1, y2) > s.y - b)
    # where the margin has room for a mark, every cut line has one
    if left - t.art_bleed >= mm(5):
        assert all(_near(y, {y1 for x1, y1, x2, y2 in marks if y1 == y2}) for y in ys)
    if t.page_height - top - t.art_bleed >= mm(5):
        assert all(_near(x, {x1 for x1, y1, x2, y2 in marks if x1 == x2}) for x in xs)


def _near(value, lines):
    return any(abs(value - line) < EPS for line in lines)


class _Recorder:
    """Just enough of a reportlab canvas for ``_place``: the transform it builds, applied to points."""

    _fillMode = 0

    def __init__(self):
        self.matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        self.corners: list[tuple[float, float]] = []
        self._code: list[str] = []  # the clip, written as PDF

    def saveState(self):
        pass

    restoreState = saveState

    def beginPath(self):
        return self

    def rect(self, *args):
        pass

    def clipPath(self, *args, **kwargs):
        pass

    def translate(self, dx, dy):
        a, b, c, d, e, f = self.matrix
        self.matrix = (a, b, c, d, e + a * dx + c * dy, f + b * dx + d * dy)

    def rotate(self, degrees):
        r = math.radians(degrees)
        cos, sin = math.cos(r), math.sin(r)
        a, b, c, d, e, f = self.matrix
        self.matrix = (a * cos + c * sin, b * cos + d * sin, -a * sin + c * cos, -b * sin + d * cos, e, f)

    def apply(self, x, y):
        a, b, c, d, e, f = self.matrix
        return a * x + c * y + e, b * x + d * y + f


@pytest.mark.parametrize("paper", ("letter", "a4", "tabloid"))
@pytest.mark.parametrize("size", CARD_SIZES)
@pytest.mark.parametrize("duplex", ("long", "short"))
def test_a_turned_card_and_its_back_fill_their_slots_exactly(paper, size, duplex):
    card = CARD_SIZES[size]
    t = fit(PAPERS[paper], card, DEFAULT_MARGIN, mm(6))
    turned = turns(t, card.landscape)
    width, height = (t.card_height, t.card_width) if turned else (t.card_width, t.card_height)
    assert (width, height) == pytest.approx((card.width, card.height))
    for page in impose([PlacedCard("f", "b")], Printing(t, duplex, portrait=turned)):
        slot = page.placements[0].slot
        canvas = _Recorder()

        def drawing(c, w, h):
            c.corners.extend(c.apply(x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h)))

        _place(canvas, slot, drawing, (0, 0, 0, 0), width, height)
        xs = [x for x, _ in canvas.corners]
        ys = [y for _, y in canvas.corners]
        assert (min(xs), max(xs)) == pytest.approx((slot.x, slot.x + slot.width), abs=1e-6)
        assert (min(ys), max(ys)) == pytest.approx((slot.y, slot.y + slot.height), abs=1e-6)


# --- sizes and papers by name -------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("poker", (2.5 * 72, 3.5 * 72)), ("Business", (3.5 * 72, 2 * 72)), ("63x88mm", (mm(63), mm(88))),
    ("2.5x3.5in", (2.5 * 72, 3.5 * 72)), ("63 mm x 88 mm", (mm(63), mm(88))), ("70x120MM", (mm(70), mm(120))),
])
def test_card_sizes_by_name_or_width_by_height(text, expected):
    size = card_size(text)
    assert (size.width, size.height) == pytest.approx(expected)


@pytest.mark.parametrize("text, message", [
    ("pokr", "did you mean 'poker'"), ("63x88", "unknown card size"), ("1x2mm", "from 10 to 300 mm"),
])
def test_a_bad_card_size_says_what_it_takes(text, message):
    with pytest.raises(CardgenError, match=message):
        card_size(text)


def test_papers_by_name_are_portrait():
    assert (paper_size("a4").width, paper_size("a4").height) == pytest.approx((mm(210), mm(297)))
    assert all(p.height > p.width for p in PAPERS.values())
    with pytest.raises(CardgenError, match="did you mean 'letter'"):
        paper_size("leter")


# --- what a deck prints on ------------------------------------------------------------

def _deck(tmp_path, text, name="d.yaml"):
    path = tmp_path / name
    path.write_text("deck: d\nname: D\n" + text + "cards:\n  - {id: a, title: A, copies: 18}\n")
    return path


def test_a_poker_deck_prints_nine_a_page_on_letter_and_a4(cli, tmp_path):
    path = _deck(tmp_path, "card: poker\n")
    deck = load_resolved(path)
    assert deck.orientation == "portrait"
    for paper in ("letter", "a4"):
        t = deck_template(deck, BuildSettings(paper=paper))
        assert (t.per_sheet, t.columns, t.rows) == (9, 3, 3)
        assert not turns(t, deck.landscape)
        out = tmp_path / paper
        result = cli("build", path, "--paper", paper, "--out", out)
        assert result.exit_code == 0, result.output
        assert "18 cards, 4 pages" in result.output
        pdf = pdfium.PdfDocument(str(out / "d.pdf"))
        assert tuple(pdf[0].get_size()) == pytest.approx((PAPERS[paper].width, PAPERS[paper].height))


def test_a_deck_without_paper_prints_business_cards_on_letter_10up_and_other_sizes_on_letter(tmp_path):
    assert deck_template(load_resolved(_deck(tmp_path, "")), BuildSettings()) is load_template("letter-10up")
    assert deck_template(load_resolved(_deck(tmp_path, "card: business\n")), BuildSettings()) is \
        load_template("letter-10up")
    assert deck_template(load_resolved(_deck(tmp_path, "card: business-eu\n")), BuildSettings()) is \
        load_template("a4-10up")
    # --gap alone imposes the business cards on Letter
    t = deck_template(load_resolved(_deck(tmp_path, "")), BuildSettings(gap=mm(6)))
    assert t.name == "business on letter" and t.gap_row == pytest.approx(mm(6))
    t = deck_template(load_resolved(_deck(tmp_path, "card: tarot\n")), BuildSettings())
    assert (t.page_width, t.page_height, t.per_sheet) == (8.5 * 72, 11 * 72, 4)
    t = deck_template(load_resolved(_deck(tmp_path, "card: mini\npaper: a4\n")), BuildSettings())
    assert (t.page_width, t.per_sheet) == (pytest.approx(mm(210)), 18)
    # --paper beats the deck's paper:
    t = deck_template(load_resolved(_deck(tmp_path, "card: mini\npaper: a4\n")), BuildSettings(paper="a3"))
    assert t.page_width == pytest.approx(mm(297))


def test_orientation_turns_a_named_size_and_a_portrait_deck_stands_in_portrait_slots(tmp_path):
    deck = load_resolved(_deck(tmp_path, "card: poker\norientation: landscape\n"))
    card = deck_card(deck)
    assert (card.width, card.height) == (3.5 * 72, 2.5 * 72)
    # the bug of issue 22: a portrait deck on a portrait (poker) sheet was drawn sideways
    sheet = tmp_path / "poker-9up.yaml"
    sheet.write_text("name: poker-9up\npaper: {width: 8.5in, height: 11in}\ncard: {width: 2.5in, height: 3.5in}\n"
                     "grid: {columns: 3, rows: 3}\nmargins: {left: 0.5in, top: 0.25in}\n")
    tall = load_resolved(_deck(tmp_path, "orientation: portrait\n"))
    template = load_template(str(sheet))
    assert not turns(template, tall.landscape)
    assert turns(load_template("letter-10up"), tall.landscape)


def test_a_portrait_deck_on_a_portrait_sheet_prints_upright(cli, tmp_path):
    sheet = tmp_path / "poker-9up.yaml"
    sheet.write_text("name: poker-9up\npaper: {width: 8.5in, height: 11in}\ncard: {width: 2.5in, height: 3.5in}\n"
                     "grid: {columns: 3, rows: 3}\nmargins: {left: 0.5in, top: 0.25in}\n")
    deck = tmp_path / "tall.yaml"
    deck.write_text("deck: tall\nname: Tall\norientation: portrait\ncards:\n"
                    "  - {id: a, title: Tall card, color: '#008000'}\n")
    result = cli("build", deck, "--sheet", sheet, "--out", tmp_path, "--duplex", "off")
    assert result.exit_code == 0, result.output
    image = pdfium.PdfDocument(str(tmp_path / "tall.pdf"))[0].render(scale=1).to_pil().convert("RGB")
    slot = load_template(str(sheet)).front_slot(0)
    # upright, the title band runs along the slot's top edge, not down its side
    top_middle = image.getpixel((int(slot.x + slot.width / 2), int(792 - slot.y - slot.height + 10)))
    bottom_middle = image.getpixel((int(slot.x + slot.width / 2), int(792 - slot.y - 10)))
    assert top_middle[1] > 100 and top_middle[0] < 60, top_middle
    assert bottom_middle == (255, 255, 255)


def test_a_sheet_for_another_card_size_is_refused_naming_both(cli, tmp_path):
    path = _deck(tmp_path, "card: poker\n")
    result = cli("build", path, "--sheet", "letter-10up", "--out", tmp_path)
    assert result.exit_code == 2
    assert "2.5 x 3.5 in cards (poker)" in result.output and "letter-10up" in result.output
    assert "3.5 x 2 in" in result.output and not list(tmp_path.glob("*.pdf"))
    # business-eu (85 x 55 mm) is business-card stock's size within 4 mm: it prints on a4-10up
    result = cli("build", _deck(tmp_path, "card: business-eu\n"), "--sheet", "a4-10up", "--out", tmp_path)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args, message", [
    (("--paper", "a5"), "unknown paper 'a5'"),
    (("--paper", "a4", "--sheet", "a4-10up"), "give one"),
    (("--sheet", "a4-10up", "--gap", "6mm"), "--gap is for automatic imposition"),
    (("--paper", "a4", "--margin", "80mm"), "--margin must be from 0 to 50 mm"),
    (("--paper", "a4", "--gap", "6"), "needs a unit"),
])
def test_bad_paper_options_are_refused(cli, tmp_path, args, message):
    result = cli("build", _deck(tmp_path, ""), *args, "--out", tmp_path)
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_bad_card_or_paper_key_is_located(cli, tmp_path):
    result = cli("validate", _deck(tmp_path, "card: jumbo\n"))
    assert result.exit_code == 2
    assert "d.yaml:3:7: card: unknown card size 'jumbo'" in result.output
    result = cli("validate", _deck(tmp_path, "card: poker\npaper: A6\n"))
    assert result.exit_code == 2 and "d.yaml:4:8: paper: unknown paper 'A6'" in result.output


def test_one_pdf_takes_decks_of_one_sheet_only(cli, tmp_path):
    poker, business = _deck(tmp_path, "card: poker\n", "p.yaml"), tmp_path / "b.yaml"
    business.write_text("deck: b\nname: B\ncards:\n  - {id: a, title: A}\n")
    result = cli("build", poker, business, "--one-pdf", "--out", tmp_path)
    assert result.exit_code == 2 and "one PDF takes one sheet" in result.output, result.output
    assert "poker on letter" in result.output and "letter-10up" in result.output
    result = cli("build", poker, business, "--one-pdf", "--paper", "a4", "--out", tmp_path / "both")
    # one paper, but each size has its own grid on it (9 poker cards, 10 business cards on A4)
    assert result.exit_code == 2 and "poker on a4" in result.output and "business on a4" in result.output
    assert not list(tmp_path.rglob("*.pdf"))


def test_a_card_too_big_for_the_paper_says_so(cli, tmp_path):
    result = cli("build", _deck(tmp_path, "card: 250x300mm\n"), "--paper", "a4", "--out", tmp_path)
    assert result.exit_code == 2 and "does not fit on A4" in result.output, result.output


def test_gaps_give_bleed_between_cards_and_marks_either_side_of_each_gap():
    t = fit(PAPERS["a4"], CARD_SIZES["poker"], DEFAULT_MARGIN, mm(6))
    assert t.bleed == pytest.approx(mm(3)) and t.gap_column == t.gap_row == pytest.approx(mm(6))
    inner = [s for s in t.slots() if 0 < s.column < t.columns - 1 or t.columns == 2]
    assert all(t.slot_bleed(s)[2 if s.column == 0 else 0] == pytest.approx(mm(3)) for s in inner)
    touching = fit(PAPERS["a4"], CARD_SIZES["poker"])
    middle = touching.slots()[4]
    assert touching.slot_bleed(middle) == (0, 0, 0, 0)


# --- templates: checked at their line, and their schema -------------------------------------

@pytest.mark.parametrize("text, where, message", [
    ("grid: {columns: 3, rows: 3, colums: 2}\n", ":4:29:", "unknown key 'colums'"),
    ("grid: {columns: 3, rows: 0}\n", ":4:", "rows"),
])
def test_a_bad_template_file_is_located_at_its_line(cli, tmp_path, text, where, message):
    sheet = tmp_path / "mine.yaml"
    sheet.write_text("name: mine\npaper: {width: 8.5in, height: 11in}\ncard: {width: 2.5in, height: 3.5in}\n"
                     + text + "margins: {left: 0.5in, top: 0.5in}\n")
    result = cli("build", _deck(tmp_path, ""), "--sheet", sheet, "--out", tmp_path)
    assert result.exit_code == 2
    assert f"mine.yaml{where}" in result.output and message in result.output, result.output


def test_a_bad_length_in_a_template_is_located(cli, tmp_path):
    sheet = tmp_path / "mine.yaml"
    sheet.write_text("name: mine\npaper: {width: 8.5in, height: 11in}\ncard: {width: 2.5in, height: 3.5furlong}\n"
                     "grid: {columns: 3, rows: 3}\nmargins: {left: 0.5in, top: 0.5in}\n")
    result = cli("calibrate", "--sheet", sheet, "--out", tmp_path / "c.pdf")
    assert result.exit_code == 2 and "mine.yaml:3:" in result.output and "3.5furlong" in result.output


def test_schema_sheet_prints_the_template_json_schema_every_bundled_template_meets(cli):
    result = cli("schema", "--sheet")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["title"] == "cardgen sheet template"
    assert set(schema["required"]) == {"name", "paper", "card", "grid", "margins"}
    assert all("description" in prop for prop in schema["properties"].values())


def test_list_shows_card_sizes_with_cards_a_page_and_papers(cli):
    result = cli("list")
    assert result.exit_code == 0
    assert "poker            2.5 x 3.5 in: 9 on letter, 9 on a4" in result.output
    assert "a4               A4, 210 x 297 mm" in result.output
    assert "letter-10up" in result.output


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", CARD_SIZES)
@pytest.mark.parametrize("duplex", ("long", "short"))
@pytest.mark.parametrize("gap", GAPS)
def test_crop_marks_follow_the_offsets_onto_the_cards_real_cut_lines(paper, size, duplex, gap):
    """With --front-offset and --back-offset (and --back-crop-marks), each side's marks lie on the
    cut lines of the cards as that side's page places them, and stay off every card's art."""
    from cardgen.export.sheets import side_crop_marks

    t = fit(PAPERS[paper], CARD_SIZES[size], DEFAULT_MARGIN, gap)
    printing = Printing(t, duplex=duplex, front_offset=(mm(1.5), mm(-1)), back_offset=(mm(2), mm(1)),
                        back_marks=True)
    cards = [PlacedCard(face=f"f{i}", back=f"b{i}") for i in range(t.per_sheet)]
    pages = {page.side: page for page in impose(cards, printing)}
    marks = side_crop_marks(printing)
    assert set(marks) == {"fronts", "backs"}
    for side, page in pages.items():
        slots = [placement.slot for placement in page.placements]
        xs = {v for s in slots for v in (s.x, s.x + s.width)}
        ys = {v for s in slots for v in (s.y, s.y + s.height)}
        assert marks[side] or not t.crop_marks(), f"{side}: the template has marks, the page none"
        for x1, y1, x2, y2 in marks[side]:
            if x1 == x2:
                assert _near(x1, xs), (side, x1)
            else:
                assert _near(y1, ys), (side, y1)
            b = t.art_bleed
            for s in slots:
                assert not (min(x1, x2) < s.x + s.width + b and max(x1, x2) > s.x - b
                            and min(y1, y2) < s.y + s.height + b and max(y1, y2) > s.y - b), (side, s)
