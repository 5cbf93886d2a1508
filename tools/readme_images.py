"""Render the README's and docs' pictures from real build output.

    .venv/bin/python tools/readme_images.py     # after `make build`
"""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from cardgen.preview import side_by_side

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
SCALE = 0.9  # pixels per point


def pages(pdf_name: str, indexes: list[int], folder: Path = ROOT / "output", scale: float = SCALE) -> list[Image.Image]:
    pdf = pdfium.PdfDocument(str(folder / pdf_name))
    return [pdf[i].render(scale=scale).to_pil().convert("RGB") for i in indexes]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    side_by_side(pages("common-carrier-player-1.pdf", [0, 1]), gap=16).save(OUT / "common-carrier-sheet.png",
                                                                             optimize=True)
    side_by_side(pages("dotcombust.pdf", [2]) + pages("clusterfuck.pdf", [0]), gap=16).save(
        OUT / "dotcombust-clusterfuck.png", optimize=True)
    argonauts()
    international()
    calibration()
    exports()
    showcases()


def exports() -> None:
    """README's export picture: a PNG with bleed and round corners, a print-shop page, a TTS deck image."""
    import tempfile

    from cardgen.build import BuildSettings, build_decks
    from cardgen.units import mm

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build_decks(["dotcombust"], out, BuildSettings(formats=("png", "pdf-cards", "tts"), dpi=150,
                                                       corners=mm(3)))
        png = Image.open(out / "dotcombust" / "server-farm-rack-of-blades.png").convert("RGBA")
        card = Image.new("RGB", png.size, (200, 200, 200))
        card.paste(png, (0, 0), png)
        page = pages("dotcombust-cards.pdf", [1], out, 150 / 72)[0]
        tts = Image.open(out / "dotcombust-tts" / "dotcombust-faces-1.png").convert("RGB")
        tts = tts.resize((tts.width * card.height // tts.height * 2 // 2, card.height))
    side_by_side([card, page, tts], gap=16).save(OUT / "exports.png", optimize=True)

def international() -> None:
    """docs/images/international.png: the fronts of examples/international, nine scripts and emoji."""
    import tempfile

    from cardgen.build import BuildSettings, build_decks

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build_decks([str(ROOT / "examples" / "international" / "international.yaml")], out, BuildSettings())
        pages("international.pdf", [0], folder=out, scale=1.2)[0].save(OUT / "international.png", optimize=True)


def calibration() -> None:
    """README's calibration picture: the fronts page (rulers across the cut lines) and the backs page."""
    import tempfile

    from cardgen.calibrate import write_calibration
    from cardgen.sheets import load_template

    with tempfile.TemporaryDirectory() as tmp:
        write_calibration(Path(tmp) / "calibration.pdf", load_template("letter-10up"), "long")
        fronts, backs = pages("calibration.pdf", [0, 1], Path(tmp), 0.75)
    side_by_side([fronts, backs], gap=16).save(OUT / "calibration.png", optimize=True)


def argonauts() -> None:
    """docs/deck-format.md's layout picture: the example deck's first cards of each type, and their backs."""
    import tempfile

    from cardgen.build import BuildSettings, build_decks
    from cardgen.sheets import load_template

    template = load_template("letter-10up")
    scale = 1.2
    with tempfile.TemporaryDirectory() as tmp:
        build_decks([str(ROOT / "examples" / "argonauts" / "argonauts.yaml")], Path(tmp), BuildSettings())
        fronts, backs = pages("argonauts.pdf", [0, 1], Path(tmp), scale)

    def card(page: Image.Image, slot) -> Image.Image:
        top = template.page_height - slot.y - slot.height
        return page.crop((round(slot.x * scale), round(top * scale), round((slot.x + slot.width) * scale),
                          round((top + slot.height) * scale)))

    hero, monster, relic = (card(fronts, template.front_slot(0)), card(fronts, template.front_slot(4)),
                            card(fronts, template.front_slot(8)))
    backs_row = [card(backs, template.back_slot(i, "long")) for i in (0, 4, 8)]
    row1 = side_by_side([hero, monster, relic], gap=10)
    row2 = side_by_side(backs_row, gap=10)
    sheet = Image.new("RGB", (row1.width, row1.height + row2.height - 10), (200, 200, 200))
    sheet.paste(row1, (0, 0))
    sheet.paste(row2, (0, row1.height - 10))
    sheet.save(OUT / "layouts-argonauts.png", optimize=True)


def showcases() -> None:
    """README's hand and showcase: what `cardgen preview examples/argonauts/argonauts.yaml ID... --hand 7
    --dpi 100` and `... jason cyclops fleece --showcase --dpi 100` write, copied as they are."""
    import shutil
    import tempfile

    from cardgen.prepare import BuildSettings
    from cardgen.preview import showcase_pictures

    deck = str(ROOT / "examples" / "argonauts" / "argonauts.yaml")
    hand = ("jason", "heracles", "orpheus", "cyclops", "hydra", "fleece", "argo")
    with tempfile.TemporaryDirectory() as tmp:
        (fan,) = showcase_pictures(deck, hand, BuildSettings(), Path(tmp), hand=len(hand), dpi=100)
        (row,) = showcase_pictures(deck, ("jason", "cyclops", "fleece"), BuildSettings(), Path(tmp),
                                   showcase=True, dpi=100)
        shutil.copyfile(fan, OUT / "hand.png")
        shutil.copyfile(row, OUT / "showcase.png")


if __name__ == "__main__":
    main()
