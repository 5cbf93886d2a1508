"""Print geometry as numbers: every slot, and backs behind their fronts."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError
from cardgen.sheets import PlacedCard, Printing, impose, load_template, template_names
from cardgen.units import mm

TOLERANCE = mm(0.01)


def expected_letter_slot(row, column):
    x = 0.75 * 72 + column * 3.5 * 72
    top = 0.5 * 72 + row * 2 * 72
    return x, 11 * 72 - top - 2 * 72


def expected_a4_slot(row, column):
    x = mm(15) + column * mm(85 + 10)
    top = mm(13.5) + row * mm(54)
    return x, mm(297) - top - mm(54)


@pytest.mark.parametrize("name, expected, size", [
    ("letter-10up", expected_letter_slot, (3.5 * 72, 2 * 72)),
    ("a4-10up", expected_a4_slot, (mm(85), mm(54))),
])
def test_every_slot_of_the_business_card_templates_is_exact(name, expected, size):
    template = load_template(name)
    slots = template.slots()
    assert len(slots) == 10
    for slot in slots:
        x, y = expected(slot.row, slot.column)
        assert slot.index == slot.row * 2 + slot.column
        assert abs(slot.x - x) < TOLERANCE and abs(slot.y - y) < TOLERANCE
        assert abs(slot.width - size[0]) < TOLERANCE and abs(slot.height - size[1]) < TOLERANCE


def test_letter_margins_are_symmetric_and_cards_fill_the_page_width():
    t = load_template("letter-10up")
    left, bottom, right, top = t.card_area()
    assert abs(left - 54) < TOLERANCE and abs(t.page_width - right - 54) < TOLERANCE
    assert abs(bottom - 36) < TOLERANCE and abs(t.page_height - top - 36) < TOLERANCE


def test_a4_margins_match_zweckform_c32011():
    t = load_template("a4-10up")
    left, bottom, right, top = t.card_area()
    assert abs(left - mm(15)) < TOLERANCE and abs(t.page_width - right - mm(15)) < TOLERANCE
    assert abs(t.page_height - top - mm(13.5)) < TOLERANCE and abs(bottom - mm(13.5)) < TOLERANCE


@pytest.mark.parametrize("name", template_names())
@pytest.mark.parametrize("offset", [(0.0, 0.0), (mm(1.5), mm(-2.0))])
def test_back_of_each_slot_lands_behind_its_front_on_long_edge_flip(name, offset):
    t = load_template(name)
    for front in t.slots():
        back = t.back_slot(front.index, "long", offset)
        # flipping the sheet about its vertical axis takes x to page_width - x
        flipped_left = t.page_width - (back.x - offset[0]) - back.width
        assert abs(flipped_left - front.x) < TOLERANCE
        assert abs(back.y - offset[1] - front.y) < TOLERANCE
        assert back.row == front.row and back.column == t.columns - 1 - front.column
        assert back.rotation == 0


@pytest.mark.parametrize("name", template_names())
@pytest.mark.parametrize("offset", [(0.0, 0.0), (mm(-3.0), mm(1.0))])
def test_back_of_each_slot_lands_behind_its_front_on_short_edge_flip(name, offset):
    t = load_template(name)
    for front in t.slots():
        back = t.back_slot(front.index, "short", offset)
        flipped_bottom = t.page_height - (back.y - offset[1]) - back.height
        assert abs(flipped_bottom - front.y) < TOLERANCE
        assert abs(back.x - offset[0] - front.x) < TOLERANCE
        assert back.row == t.rows - 1 - front.row and back.column == front.column
        assert back.rotation == 180


def test_back_of_slot_3_lands_behind_front_of_slot_3_on_long_edge_flip():
    t = load_template("letter-10up")
    back = t.back_slot(3, "long")
    assert (back.row, back.column) == (1, 0)
    assert abs(back.x - 54) < TOLERANCE


@pytest.mark.parametrize("name", template_names())
def test_crop_marks_stay_in_the_margins_and_never_cross_a_card(name):
    t = load_template(name)
    marks = t.crop_marks()
    assert marks
    for x1, y1, x2, y2 in marks:
        assert min(x1, x2) >= 0 and max(x1, x2) <= t.page_width
        assert min(y1, y2) >= 0 and max(y1, y2) <= t.page_height
        for s in t.slots():
            b = t.bleed
            overlaps_x = min(x1, x2) < s.x + s.width + b and max(x1, x2) > s.x - b
            overlaps_y = min(y1, y2) < s.y + s.height + b and max(y1, y2) > s.y - b
            assert not (overlaps_x and overlaps_y), (name, (x1, y1, x2, y2), s)


def test_every_cut_line_gets_a_crop_mark():
    t = load_template("a4-10up")
    vertical_xs = {round(x1, 3) for x1, y1, x2, y2 in t.crop_marks() if x1 == x2}
    expected = {round(s.x, 3) for s in t.slots()} | {round(s.x + s.width, 3) for s in t.slots()}
    assert vertical_xs == expected


def test_unknown_sheet_suggests_the_nearest_name():
    with pytest.raises(CardgenError, match="did you mean 'a4-10up'"):
        load_template("a4-10p")


# --- impose: cards to pages, as a pure function ----------------------------------------



@settings(max_examples=150, deadline=None)
@given(count=st.integers(0, 60), sheet=st.sampled_from(template_names()),
       duplex=st.sampled_from(["long", "short", "off"]), portrait=st.booleans(), at_end=st.booleans(),
       backless=st.sets(st.integers(0, 59)))
def test_impose_places_every_card_once_per_side_with_its_back_behind_it(count, sheet, duplex, portrait, at_end,
                                                                       backless):
    template = load_template(sheet)
    cards = [PlacedCard(f"f{i}", None if i in backless else f"b{i}") for i in range(count)]
    pages = impose(cards, Printing(template, duplex, portrait=portrait, backs_at_end=at_end))
    sheets = max(1, -(-count // template.per_sheet))
    assert len(pages) == sheets * (1 if duplex == "off" else 2)
    fronts = [p for p in pages if p.side == "fronts"]
    assert [p.sheet for p in fronts] == list(range(sheets))
    assert [pl.key for p in fronts for pl in p.placements] == [c.face for c in cards]
    if duplex != "off":
        backs = [p for p in pages if p.side == "backs"]
        assert [pl.key for p in backs for pl in p.placements] == [c.back for c in cards if c.back]
        if at_end:
            assert [p.side for p in pages] == ["fronts"] * sheets + ["backs"] * sheets
        else:
            assert [p.side for p in pages] == ["fronts", "backs"] * sheets
        for front, back in zip(fronts, backs):
            by_key = {pl.key: pl.slot for pl in back.placements}
            for placement in front.placements:
                card = cards[int(placement.key[1:])]
                if card.back:
                    expected = template.back_slot(placement.slot.index, duplex)
                    assert (by_key[card.back].x, by_key[card.back].y) == (expected.x, expected.y)
    turns = {pl.slot.rotation for p in pages for pl in p.placements}
    base = {0} if duplex != "short" else {0, 180}
    assert turns <= {(t + (90 if portrait else 0)) % 360 for t in base}


def test_a_front_offset_moves_every_front_and_no_back():
    template = load_template("letter-10up")
    cards = [PlacedCard(f"f{i}", f"b{i}") for i in range(10)]
    plain = impose(cards, Printing(template))
    moved = impose(cards, Printing(template, front_offset=(mm(1), mm(-0.5))))
    for a, b in zip(plain[0].placements, moved[0].placements):
        assert (b.slot.x - a.slot.x, b.slot.y - a.slot.y) == pytest.approx((mm(1), mm(-0.5)), abs=1e-9)
    assert len(plain) == len(moved)


# --- bleed where the stock has room ----------------------------------------------------

def test_outside_edges_of_10up_cards_bleed_into_the_margins_and_touching_edges_do_not():
    letter = load_template("letter-10up")
    left, bottom, right, top = letter.slot_bleed(letter.front_slot(0))
    assert (left, bottom, right, top) == pytest.approx((mm(3), 0, 0, mm(3)))
    assert letter.slot_bleed(letter.front_slot(9)) == pytest.approx((0, mm(3), mm(3), 0))
    a4 = load_template("a4-10up")
    # the 10 mm column gap: 3 mm each side (there is room for 5)
    assert a4.slot_bleed(a4.front_slot(0))[2] == pytest.approx(mm(3))
    assert a4.slot_bleed(a4.front_slot(1))[0] == pytest.approx(mm(3))
    assert a4.slot_bleed(a4.front_slot(2))[3] == 0  # rows touch


def test_templates_with_gaps_bleed_their_own_bleed_all_round():
    t = load_template("a4-8up-gaps")
    assert all(side == pytest.approx(t.bleed) for slot in t.slots() for side in t.slot_bleed(slot))


def test_the_backs_page_bleeds_by_where_each_back_sits_on_it():
    t = load_template("letter-10up")
    back = t.back_slot(0, "long")  # the first card's back is in the right column of the backs page
    assert t.slot_bleed(back) == pytest.approx((0, 0, mm(3), mm(3)))


@pytest.mark.parametrize("duplex, expected", [("long", (-1.0, -0.5)), ("short", (1.0, 0.5))])
def test_backs_follow_the_fronts_onto_the_cards_when_the_fronts_are_moved(duplex, expected):
    template = load_template("letter-10up")
    cards = [PlacedCard(f"f{i}", f"b{i}") for i in range(10)]
    plain = impose(cards, Printing(template, duplex))[1]
    moved = impose(cards, Printing(template, duplex, front_offset=(mm(1), mm(-0.5))))[1]
    for a, b in zip(plain.placements, moved.placements):
        dx, dy = (b.slot.x - a.slot.x) / mm(1), (b.slot.y - a.slot.y) / mm(1)
        # exact to 0.01 mm: seen from the back, a front moved right is a back moved left (long-edge flip)
        assert (dx, dy) == pytest.approx(expected, abs=0.01)


# --- partial sheets: bleed toward empty slots -------------------------------------------

def _placements(template, count, side="fronts", duplex="long", backless=()):
    cards = [PlacedCard(f"f{i}", None if i in backless else f"b{i}") for i in range(count)]
    pages = impose(cards, Printing(template, duplex))
    return [p for p in pages if p.side == side][-1].placements


def test_the_last_row_of_a_part_filled_sheet_bleeds_into_the_empty_slots():
    from cardgen.export.sheets import page_bleeds

    t = load_template("letter-10up")
    placements = _placements(t, 7)  # Clusterfuck's 8 status cards less one: slots 0-6, 7-9 empty
    bleeds = dict(zip((p.slot.index for p in placements), page_bleeds(t, placements)))
    # slot 6, the bottom-left card: the margin on its left, empty slots right of and below it
    assert bleeds[6] == pytest.approx((mm(3), mm(3), mm(3), 0))
    # slot 5: the slot below (7) is empty, its left neighbour is a card, its right the margin
    assert bleeds[5] == pytest.approx((0, mm(3), mm(3), 0))
    assert bleeds[4] == pytest.approx((mm(3), 0, 0, 0))  # a card below it (6) and beside it (5)


def test_the_backs_of_a_part_filled_sheet_bleed_toward_the_empty_slots_too():
    from cardgen.export.sheets import page_bleeds

    t = load_template("letter-10up")
    placements = _placements(t, 8, side="backs")  # dotCOMbust's last sheet: two rows left empty below
    for placement, bleed in zip(placements, page_bleeds(t, placements)):
        if placement.slot.row == 3:
            assert bleed[1] == pytest.approx(mm(3)), placement.slot


@pytest.mark.parametrize("name", template_names())
def test_a_full_sheet_bleeds_as_the_template_says(name):
    from cardgen.export.sheets import page_bleeds

    t = load_template(name)
    for duplex in ("long", "short"):
        for side in ("fronts", "backs"):
            placements = _placements(t, t.per_sheet, side, duplex)
            assert page_bleeds(t, placements) == [t.slot_bleed(p.slot) for p in placements]


@pytest.mark.parametrize("name", template_names())
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_every_side_facing_an_empty_slot_bleeds_and_no_bleed_covers_another_card(name, duplex):
    from cardgen.export.sheets import page_bleeds, shared_bleed

    t = load_template(name)
    for count in range(1, t.per_sheet + 1):
        for side, backless in (("fronts", ()), ("backs", ()), ("backs", (0, count - 2))):
            placements = _placements(t, count, side, duplex, backless)
            filled = {(p.slot.row, p.slot.column) for p in placements}
            bleeds = page_bleeds(t, placements)
            ceded = shared_bleed(placements, bleeds)
            boxes = [(p.slot.x - b[0], p.slot.y - b[1], p.slot.x + p.slot.width + b[2], p.slot.y + p.slot.height + b[3])
                     for p, b in zip(placements, bleeds)]
            for i, a in enumerate(boxes):
                for j, c in enumerate(boxes[i + 1:], i + 1):
                    overlap = min(a[2], c[2]) - max(a[0], c[0]) > 1e-6 and min(a[3], c[3]) - max(a[1], c[1]) > 1e-6
                    # where two cards' bleed meets, each gives up the other's half of it
                    assert not overlap or (ceded[i] and ceded[j]), (count, side, i, j)
            for placement, bleed in zip(placements, bleeds):
                s = placement.slot
                sides = {0: (s.row, s.column - 1), 1: (s.row + 1, s.column), 2: (s.row, s.column + 1),
                         3: (s.row - 1, s.column)}
                for i, (row, column) in sides.items():
                    inside = 0 <= row < t.rows and 0 <= column < t.columns
                    if not inside or (row, column) in filled:
                        assert bleed[i] == pytest.approx(t.slot_bleed(s)[i])
                    elif i in (0, 2):
                        assert bleed[i] == pytest.approx(t.art_bleed)
                left, bottom, right, top = bleed
                box = (s.x - left, s.y - bottom, s.x + s.width + right, s.y + s.height + top)
                for other in placements:
                    o = other.slot
                    if o is s:
                        continue
                    assert box[2] <= o.x + 1e-6 or o.x + o.width <= box[0] + 1e-6 or box[3] <= o.y + 1e-6 \
                        or o.y + o.height <= box[1] + 1e-6, (count, side, s, o)


# --- crop marks follow their side's offset ---------------------------------------------

def _distinct(values):
    """The values, sorted, those within 0.001 pt of the one before left out."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-3:
            out.append(v)
    return out


def _cut_lines(slots):
    return (_distinct([s.x for s in slots] + [s.x + s.width for s in slots]),
            _distinct([s.y for s in slots] + [s.y + s.height for s in slots]))


def _mark_lines(marks):
    return (_distinct([x1 for x1, y1, x2, y2 in marks if x1 == x2]),
            _distinct([y1 for x1, y1, x2, y2 in marks if y1 == y2]))


@pytest.mark.parametrize("name", template_names())
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("front, back", [((0.0, 0.0), (0.0, 0.0)), ((mm(2), mm(-1.5)), (0.0, 0.0)),
                                         ((mm(-1.4), mm(3)), (mm(2.5), mm(-2)))])
def test_crop_marks_sit_on_the_cut_lines_of_the_cards_as_offset_on_each_side(name, duplex, front, back):
    from cardgen.export.sheets import side_crop_marks

    t = load_template(name)
    printing = Printing(t, duplex, back_offset=back, front_offset=front, back_marks=True)
    marks = side_crop_marks(printing)
    cards = [PlacedCard(f"f{i}", f"b{i}") for i in range(t.per_sheet)]
    for page in impose(cards, printing):
        slots = [p.slot for p in page.placements]
        # every mark is on a cut line of the cards as printed, and every cut line has its marks
        (mark_xs, mark_ys), (cut_xs, cut_ys) = _mark_lines(marks[page.side]), _cut_lines(slots)
        assert mark_xs == pytest.approx(cut_xs, abs=1e-3) and mark_ys == pytest.approx(cut_ys, abs=1e-3), page.side
        expected_shift = front if page.side == "fronts" else printing.back_offset_total
        plain = {s.index: s for s in (t.slots() if page.side == "fronts"
                                      else [t.back_slot(i, duplex) for i in range(t.per_sheet)])}
        for s in slots:
            assert (s.x - plain[s.index].x, s.y - plain[s.index].y) == pytest.approx(expected_shift)
        # and no mark reaches into a card or the art past its trim
        for x1, y1, x2, y2 in marks[page.side]:
            assert min(x1, x2) >= 0 and max(x1, x2) <= t.page_width and 0 <= min(y1, y2) <= t.page_height
            for s in slots:
                b = t.art_bleed
                assert not (min(x1, x2) < s.x + s.width + b and max(x1, x2) > s.x - b
                            and min(y1, y2) < s.y + s.height + b and max(y1, y2) > s.y - b), (x1, y1, x2, y2, s)


def test_a_fronts_offset_moves_the_marks_by_the_offset_exactly():
    from cardgen.export.sheets import side_crop_marks

    t = load_template("letter-8up-gaps")
    plain = side_crop_marks(Printing(t))["fronts"]
    moved = side_crop_marks(Printing(t, front_offset=(mm(1.4), mm(-2))))["fronts"]
    assert len(plain) == len(moved)
    for a, b in zip(plain, moved):
        assert (b[0] - a[0], b[1] - a[1], b[2] - a[2], b[3] - a[3]) == pytest.approx(
            (mm(1.4), mm(-2), mm(1.4), mm(-2)))
    assert "backs" not in side_crop_marks(Printing(t))  # no marks on the backs unless asked


def test_the_corner_of_an_empty_slot_between_two_cards_is_split_on_the_diagonal():
    """Three cards on a sheet of two columns (GOPS's last sheet): the empty slot's top-left corner lies
    below card 1 and beside card 2; each gives the other the half nearer the other's trim."""
    from cardgen.export.sheets import page_bleeds, shared_bleed

    t = load_template("letter-10up")
    placements = _placements(t, 3)
    ceded = shared_bleed(placements, page_bleeds(t, placements))
    corner = (t.front_slot(1).x, t.front_slot(1).y)  # card 1's bottom-left, card 2's top-right
    b = mm(3)
    (below,) = ceded[1]  # card 1 gives away the part beside card 2's edge
    assert _flat(below) == pytest.approx(_flat([corner, (corner[0], corner[1] - b), (corner[0] + b, corner[1] - b)]))
    (beside,) = ceded[2]  # card 2 gives away the part under card 1's edge
    assert _flat(beside) == pytest.approx(_flat([corner, (corner[0] + b, corner[1]), (corner[0] + b, corner[1] - b)]))
    assert ceded[0] == []
    full = _placements(t, t.per_sheet)
    assert shared_bleed(full, page_bleeds(t, full)) == [[] for _ in full]  # a full sheet keeps one rectangle each


def _flat(points):
    return [v for point in sorted(points) for v in point]
