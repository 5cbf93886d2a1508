"""Card-by-card exports: PNG per card, the print-shop PDF, Tabletop Simulator; preview, watch, progress."""
from __future__ import annotations

import csv
import io
import json
import threading
import time
from fnmatch import fnmatch
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen.build import build_decks
from cardgen.export import DEFAULT_FORMAT, FORMATS, Export, Format
from cardgen.prepare import BuildSettings
from cardgen.sheets import load_template
from cardgen.units import mm

BUNDLED = [("common-carrier", {}), ("dotcombust", {}), ("clusterfuck", {"standard_deck": "true"})]


def export(tmp_path, deck, formats, **settings):
    return build_decks([deck], tmp_path, BuildSettings(formats=formats, **settings))


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two images, 0..255."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


@pytest.mark.parametrize("deck, options", BUNDLED)
def test_png_export_writes_one_exactly_sized_png_per_distinct_face_and_back(tmp_path, deck, options):
    results = export(tmp_path, deck, ("png",), options=options)
    for result in results:
        for item in result.exports:
            rows = list(csv.DictReader((item.path / "manifest.csv").open(encoding="utf-8")))
            assert sum(int(r["copies"]) for r in rows) == item.cards
            files = {r["file"] for r in rows} | {r["back"] for r in rows}
            assert sorted(p.name for p in item.path.glob("*.png")) == sorted(files)
            for name in files:
                # 3.5 x 2 in with 1/8 in bleed all round, at 300 dpi
                assert Image.open(item.path / name).size == (1125, 675), name


def test_png_size_follows_dpi_bleed_sheet_and_portrait(tmp_path):
    (item,) = export(tmp_path, "clusterfuck", ("png",), sheet="a4-10up", dpi=150, bleed=mm(3))[0].exports
    # 85 x 54 mm with 3 mm bleed at 150 dpi: 537.4 x 354.3 px, whole pixels as the rasteriser rounds them
    width, height = Image.open(next(item.path.glob("status-1.png"))).size
    assert abs(width - 91 / 25.4 * 150) < 1 and abs(height - 60 / 25.4 * 150) < 1


def test_corners_are_transparent_when_asked(tmp_path):
    (item,) = export(tmp_path, "clusterfuck", ("png",), corners=mm(3))[0].exports
    image = Image.open(item.path / "status-1.png")
    assert image.mode == "RGBA"
    assert image.getpixel((0, 0))[3] == 0 and image.getpixel((image.width // 2, image.height // 2))[3] == 255


@pytest.mark.parametrize("bleed", [0.0, mm(3)])
def test_corners_round_the_trim_and_the_bleed_round_it_by_radius_plus_bleed(tmp_path, bleed):
    """--corners 3mm: the cut card's corner is a 3 mm arc; the image's outline, ``bleed`` outside the
    trim, is an arc of 3 mm + bleed about the same centre."""
    (item,) = export(tmp_path, "clusterfuck", ("png",), corners=mm(3), bleed=bleed, dpi=300)[0].exports
    image = Image.open(item.path / "status-1.png")
    px = 300 / 72
    radius = (mm(3) + bleed) * px
    # along the diagonal from the image's corner the outline is at radius * (1 - 1/sqrt 2)
    first_opaque = next(i for i in range(image.width) if image.getpixel((i, i))[3] >= 128)
    assert abs(first_opaque - radius * (1 - 2 ** -0.5)) <= 1.5
    # the trim's corner arc: its centre is 3 mm in from the trim's corner, every trim point inside it opaque
    b, r = round(bleed * px), mm(3) * px
    on_arc = round(b + r - r * 2 ** -0.5) + 2
    assert image.getpixel((on_arc, on_arc))[3] == 255
    if bleed:
        assert image.getpixel((b, b))[3] == 255  # the trim's corner itself lies in the bleed round the arc


def test_the_last_row_of_a_part_filled_sheet_has_art_below_its_trim(tmp_path):
    """Clusterfuck's 8 status cards fill 8 of 10 slots: the cards of the last filled row bleed into the
    empty row below, fronts and backs, so a page printed 1.5 mm high shows art there, not paper."""
    export(tmp_path, "clusterfuck", ("pdf",))
    template = load_template("letter-10up")
    pdf = pdfium.PdfDocument(str(tmp_path / "clusterfuck.pdf"))
    scale = 4.0
    for index, duplex_slot in ((0, template.front_slot(6)), (1, template.back_slot(6, "long"))):
        page = pdf[index].render(scale=scale).to_pil().convert("RGB")

        def pixel(x, y, page=page):
            return page.getpixel((round(x * scale), round((template.page_height - y) * scale)))

        x = duplex_slot.x + mm(4) if index == 0 else duplex_slot.x + duplex_slot.width / 2
        inside, below = pixel(x, duplex_slot.y + mm(1)), pixel(x, duplex_slot.y - mm(1.5))
        assert inside != (255, 255, 255) and sum(abs(a - b) for a, b in zip(inside, below)) < 30, (index, inside, below)
        assert pixel(x, duplex_slot.y - mm(4)) == (255, 255, 255)  # and no further than the 3 mm bleed


def test_the_printed_crop_marks_move_with_the_offsets(tmp_path):
    """--front-offset 2,-1 with --back-crop-marks and --back-offset 1,1: each page's marks are drawn on
    the cut lines of its own cards."""
    export(tmp_path, "dotcombust", ("pdf",), front_offset=(2.0, -1.0), back_offset=(1.0, 1.0), back_marks=True)
    template = load_template("letter-10up")
    pdf = pdfium.PdfDocument(str(tmp_path / "dotcombust.pdf"))
    scale = 4.0
    back_dx = 1.0 - 2.0  # the backs' own offset, and the fronts' seen from the back (long-edge flip)
    for index, dx in ((0, 2.0), (1, back_dx)):
        page = pdf[index].render(scale=scale).to_pil().convert("L")
        y = template.card_area()[3] + 20  # in the top margin, where the vertical marks run
        for cut in (template.front_slot(0).x, template.front_slot(1).x + template.card_width):
            def darkest(x, page=page, y=y):  # the darkest pixel within half a point of x (antialiased line)
                return min(page.getpixel((round(x * scale) + d, round((template.page_height - y) * scale)))
                           for d in range(-2, 3))

            assert darkest(cut + mm(dx)) < 128 and darkest(cut) > 200, (index, cut)


def test_a_cards_png_matches_the_card_on_the_printed_sheet(tmp_path):
    export(tmp_path, "dotcombust", ("pdf", "png"), dpi=288)  # 4 px a point: every edge on a whole pixel
    template = load_template("letter-10up")
    scale = 288 / 72
    sheet = pdfium.PdfDocument(str(tmp_path / "dotcombust.pdf"))[0].render(scale=scale).to_pil().convert("RGB")
    slot = template.front_slot(0)
    top = template.page_height - slot.y - slot.height
    on_sheet = sheet.crop((round(slot.x * scale), round(top * scale), round((slot.x + slot.width) * scale),
                           round((top + slot.height) * scale)))
    png = Image.open(tmp_path / "dotcombust" / "server-farm-rack-of-blades.png").convert("RGB")
    b = round(9 * scale)  # the PNG's 1/8 in bleed, 36 px
    trimmed = png.crop((b, b, b + on_sheet.width, b + on_sheet.height))
    assert difference(trimmed, on_sheet) < 2.0


def test_print_shop_pdf_has_a_page_per_printed_side_with_trim_and_bleed_boxes(tmp_path):
    (item,) = export(tmp_path, "dotcombust", ("pdf-cards",))[0].exports
    pdf = pdfium.PdfDocument(str(item.path))
    assert len(pdf) == 2 * 82  # fronts and backs alternating, every copy
    assert pdf[0].get_size() == pytest.approx((252 + 18, 144 + 18))
    raw = item.path.read_bytes()
    assert raw.count(b"/TrimBox [ 9 9 261 153 ]") == 164 and raw.count(b"/BleedBox [ 0 0 270 162 ]") == 164


def test_tts_export_is_a_saved_object_whose_grid_cells_are_the_cards(tmp_path):
    (item,) = export(tmp_path, "dotcombust", ("tts", "png"), dpi=200)[0].exports[1:]
    saved = json.loads(item.path.read_text(encoding="utf-8"))
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "dotCOMbust"
    cards = deck["ContainedObjects"]
    assert len(cards) == 82 == len(deck["DeckIDs"])
    assert {c["Name"] for c in cards} == {"Card"} and cards[0]["Nickname"] == "Rack of Blades"
    assert set(deck["CustomDeck"]) == {"1", "2"}  # 80 distinct faces: 69 a sheet, the 70th slot hidden
    for custom in deck["CustomDeck"].values():
        assert (custom["NumWidth"], custom["NumHeight"], custom["BackIsHidden"]) == (10, 7, True)
        assert custom["FaceURL"].startswith("file:///") and custom["BackURL"].startswith("file:///")
        sheet = Image.open(Path(custom["FaceURL"][len("file://"):]))
        assert max(sheet.size) <= 10_000
    # cell 12 of the first sheet is the 13th distinct face; compare it with that card's PNG (trimmed)
    first = Image.open(Path(deck["CustomDeck"]["1"]["FaceURL"][len("file://"):])).convert("RGB")
    cell_w, cell_h = first.width // 10, first.height // 7
    card_id = next(c["Nickname"] for c in cards if c["CardID"] == 112)
    cell = first.crop((2 * cell_w, cell_h, 3 * cell_w, 2 * cell_h))
    png_name = next(r["file"] for r in csv.DictReader((tmp_path / "dotcombust" / "manifest.csv").open())
                    if r["card"].endswith(card_id.lower().replace(" ", "-")))
    png = Image.open(tmp_path / "dotcombust" / png_name).convert("RGB")
    b = round(9 * 200 / 72)  # the PNG's bleed at the same 200 dpi
    card = png.crop((b, b, b + cell.width, b + cell.height))
    assert difference(cell, card) < 6.0


def test_tts_marks_landscape_cards_sideways_on_the_deck_and_every_card(tmp_path):
    (item,) = export(tmp_path, "common-carrier", ("tts",))[0].exports
    decks = json.loads(item.path.read_text(encoding="utf-8"))["ObjectStates"]
    assert all(d["SidewaysCard"] is True for d in decks)
    assert all(c["SidewaysCard"] is True for d in decks for c in d["ContainedObjects"])
    portrait = load_template("letter-10up")
    from cardgen.export.cards import CardBox, TtsDeck, write_tts

    def drawer(canvas, width, height):
        canvas.rect(0, 0, width, height, fill=1)

    folder = tmp_path / "upright"
    write_tts(folder, "upright", {"f": drawer, "b": drawer}, [TtsDeck("Upright", (("f", "b", "F"),))],
              CardBox(portrait.card_height, portrait.card_width, 0.0))
    (deck,) = json.loads((folder / "upright.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert deck["SidewaysCard"] is False and deck["ContainedObjects"][0]["SidewaysCard"] is False


ARGONAUTS = Path(__file__).resolve().parent.parent / "examples" / "argonauts" / "argonauts.yaml"


def test_tts_cards_with_different_backs_are_one_deck_with_unique_back_images(tmp_path):
    """Argonauts has a back per card type: one deck object, whose back image holds each card's back
    in the cell of its face."""
    (item,) = export(tmp_path, str(ARGONAUTS), ("tts", "png"), dpi=200)[0].exports[1:]
    saved = json.loads(item.path.read_text(encoding="utf-8"))
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Argonauts"
    assert set(deck["CustomDeck"]) == {"1"}
    custom = deck["CustomDeck"]["1"]
    assert set(custom) == {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}
    assert custom["UniqueBack"] is True and custom["BackURL"].endswith("argonauts-backs-1.png")
    faces = Image.open(Path(custom["FaceURL"][len("file://"):])).convert("RGB")
    backs = Image.open(Path(custom["BackURL"][len("file://"):])).convert("RGB")
    assert faces.size == backs.size
    cell_w, cell_h = faces.width // 10, faces.height // 7
    manifest = list(csv.DictReader((tmp_path / "argonauts" / "manifest.csv").open(encoding="utf-8")))
    assert len(deck["ContainedObjects"]) == sum(int(r["copies"]) for r in manifest) == len(deck["DeckIDs"])
    b = round(9 * 200 / 72)  # the PNGs' bleed at the deck images' 200 dpi

    def trimmed(name):
        return Image.open(tmp_path / "argonauts" / name).convert("RGB").crop((b, b, b + cell_w, b + cell_h))

    seen_backs = set()
    for cell in sorted({c["CardID"] % 100 for c in deck["ContainedObjects"]}):
        box = ((cell % 10) * cell_w, (cell // 10) * cell_h, (cell % 10 + 1) * cell_w, (cell // 10 + 1) * cell_h)
        # the card in this cell: the one whose face PNG matches the face cell; its back is in the back cell
        row = min(manifest, key=lambda r: difference(faces.crop(box), trimmed(r["file"])))
        assert difference(faces.crop(box), trimmed(row["file"])) < 8.0
        assert difference(backs.crop(box), trimmed(row["back"])) < 8.0, row
        seen_backs.add(row["back"])
    assert len(seen_backs) == 3  # heroes, monsters and relics each keep their own back


def test_tts_per_player_decks_have_their_own_backs(tmp_path):
    (item,) = export(tmp_path, "common-carrier", ("tts",))[0].exports
    decks = json.loads(item.path.read_text(encoding="utf-8"))["ObjectStates"]
    assert [d["Nickname"] for d in decks] == ["Common Carrier – Player 1", "Common Carrier – Player 2",
                                              "Common Carrier"]
    backs = {d["CustomDeck"][next(iter(d["CustomDeck"]))]["BackURL"] for d in decks}
    assert len(backs) == 3


# --- preview ---------------------------------------------------------------------------

def test_preview_of_named_cards_shows_front_and_back_side_by_side(cli, tmp_path):
    result = cli("preview", "dotcombust", "server-farm-rack-of-blades", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    path = Path(result.output.strip())
    width, height = Image.open(path).size
    card_w, card_h = round(252 / 72 * 150), round(144 / 72 * 150)
    assert width >= 2 * card_w and card_h <= height < 2 * card_h


def test_preview_without_cards_is_a_contact_sheet_and_unknown_ids_are_refused(cli, tmp_path):
    result = cli("preview", "clusterfuck", "--out", tmp_path)
    assert result.exit_code == 0 and result.output.strip().endswith("clusterfuck-contact-sheet.png")
    bad = cli("preview", "clusterfuck", "status-99", "--out", tmp_path)
    assert bad.exit_code == 2 and "no card 'status-99'" in bad.output


# --- watch -----------------------------------------------------------------------------

def starter(tmp_path) -> Path:
    from cardgen.starter import write_starter

    return write_starter("demo", tmp_path) / "demo.yaml"


def test_watch_rebuilds_on_a_change_reports_a_broken_deck_and_goes_on(tmp_path):
    from cardgen.preview import watch_decks

    deck = starter(tmp_path)
    lines: list[str] = []
    good = deck.read_text()

    def changes():
        deck.write_text(good.replace("title: Welcome", "title: Hello"))
        yield {deck}
        deck.write_text(good + "\nnot: a key\n")
        yield {deck}
        yield {tmp_path / "out" / "demo.pdf"}  # cardgen's own output: ignored
        deck.write_text(good)
        yield {deck}

    builds = watch_decks([str(deck)], tmp_path / "out", BuildSettings(), lines.append, changes())
    assert builds == 4
    assert [("built" in line, "error" in line) for line in lines] == [(True, False), (True, False),
                                                                       (False, True), (True, False)]
    assert "unknown key 'not'" in lines[2] and "demo.yaml changed" in lines[1]


def test_watch_neither_rebuilds_for_nor_names_an_editors_own_files(tmp_path):
    from cardgen.preview import watch_decks

    deck = starter(tmp_path)
    folder = deck.parent
    editors = ["4913", ".demo.yaml.swp", "demo.yaml~", ".#demo.yaml", "#demo.yaml#", ".~lock.cards.csv#",
               "~$cards.xlsx", ".goutputstream-7QX1B2", "demo.yaml___jb_tmp___", "sedAb12Cd", "demo.yaml.kate-swp"]
    lines: list[str] = []
    changes = [{folder / name for name in editors}, {deck, deck, *(folder / name for name in editors)}]
    assert watch_decks([str(deck)], tmp_path / "out", BuildSettings(), lines.append, changes) == 2
    assert lines[1].endswith("(demo.yaml changed)")


def test_watch_notices_real_file_changes_and_stops_when_asked(tmp_path):
    pytest.importorskip("watchfiles")
    from cardgen.preview import watch_decks

    deck = starter(tmp_path)
    lines: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch_decks, args=([str(deck)], tmp_path / "out", BuildSettings(),
                                                        lines.append), kwargs={"stop_event": stop})
    thread.start()
    try:
        _wait(lambda: len(lines) >= 1)
        time.sleep(0.5)  # let the watcher settle
        deck.write_text(deck.read_text().replace("title: Welcome", "title: Hello"))
        _wait(lambda: len(lines) >= 2)
        assert "built" in lines[1]
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def _wait(condition, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


# --- progress ---------------------------------------------------------------------------

def test_progress_shows_on_a_terminal_after_the_delay_and_never_when_piped():
    from cardgen.progress import Progress, expect, reporting, tick

    shown = io.StringIO()
    with reporting(Progress("work", stream=shown, delay=0.0, enabled=True)):
        expect(4)
        for _ in range(4):
            tick()
    assert "[" in shown.getvalue() and "4/4" in shown.getvalue()
    piped = io.StringIO()  # not a terminal
    with reporting(Progress("work", stream=piped, delay=0.0)):
        expect(4)
        tick(4)
    assert piped.getvalue() == ""


def test_build_output_piped_has_no_progress_bar(cli, tmp_path):
    result = cli("build", "dotcombust", "--out", tmp_path)
    assert result.output.splitlines() == [f"{tmp_path / 'dotcombust.pdf'}: 82 cards, 18 pages"]


# ---------------------------------------------------------------- the format registry

GOPS = Path(__file__).resolve().parent.parent / "examples" / "gops" / "gops.yaml"


@pytest.mark.parametrize("name", list(FORMATS))
def test_each_format_writes_exactly_the_files_it_declares(tmp_path, name):
    fmt = FORMATS[name]
    export(tmp_path, str(GOPS), (name,), dpi=72)
    written = [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()]
    assert written
    assert all(any(fnmatch(path, pattern) for pattern in fmt.files) for path in written), (fmt.files, written)
    assert all(any(fnmatch(path, pattern) for path in written) for pattern in fmt.files), (fmt.files, written)


def test_a_writer_gets_every_deck_and_only_the_settings_its_format_declares(tmp_path, monkeypatch):
    seen = []

    def write(jobs, out_dir, options):
        seen.append(([job.deck.id for job in jobs], out_dir, dict(options)))
        jobs[0].exports.append(Export("probe", out_dir / "probe.txt", 1))

    monkeypatch.setitem(FORMATS, "probe", Format("probe", "a test format", ("dpi", "duplex"), ("probe.txt",), write))
    results = build_decks(["dotcombust", "clusterfuck"], tmp_path, BuildSettings(formats=("probe",), dpi=150))
    assert seen == [(["dotcombust", "clusterfuck"], tmp_path, {"dpi": 150, "duplex": "long"})]
    assert [e.format for e in results[0].exports] == ["probe"] and results[1].exports == []
    assert not list(tmp_path.iterdir())  # no other format wrote anything


def test_format_choices_and_help_come_from_the_registry():
    from cardgen.cli import main

    (option,) = [p for p in main.commands["build"].params if p.name == "formats"]
    assert list(option.type.choices) == list(FORMATS) and option.default == (DEFAULT_FORMAT,)
    assert all(f"{f.name}: {f.help}" in option.help for f in FORMATS.values())


def test_the_build_names_no_format():
    import ast

    import cardgen.build

    tree = ast.parse(Path(cardgen.build.__file__).read_text(encoding="utf-8"))
    strings = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    assert not strings & set(FORMATS)
