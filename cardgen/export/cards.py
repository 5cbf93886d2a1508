"""Card by card: the print-shop PDF, a PNG per card, Tabletop Simulator decks, previews.

Every writer here starts from the same thing: the distinct drawings of a
deck (faces and backs, planned once) drawn into a PDF of one card per page,
the card plus its bleed. The print-shop PDF is that file with a page per
printed copy; PNGs are its pages rasterised one at a time (pypdfium2), so
memory stays flat however many cards there are.
"""
from __future__ import annotations

import csv
import io
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from ..files import atomic_path
from ..progress import tick
from .sheets import Drawer, PdfInfo, define_forms, new_canvas

#: print shops want an eighth of an inch of bleed when the template gives none
PRINT_SHOP_BLEED = 9.0
#: Tabletop Simulator: at most 10 x 7 cards on one deck image, the last slot shows hidden cards
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_MAX_PIXELS = 10_000
TTS_DPI = 200
#: how every PNG is compressed: zlib's run-length strategy, as fast as its fastest level and smaller.
#: Against Pillow's default, dotCOMbust's cards at 300 dpi encode in about 65% of the time for files 8%
#: larger, flat-colour cards (Common Carrier) come out the same size, Tabletop Simulator deck sheets a
#: quarter larger; the pixels are the same
PNG_OPTIONS = {"compress_type": zlib.Z_RLE}


@dataclass(frozen=True)
class CardBox:
    """A card's size and its bleed, in points."""

    width: float
    height: float
    bleed: float

    @property
    def page(self) -> tuple[float, float]:
        return self.width + 2 * self.bleed, self.height + 2 * self.bleed


def card_pdf(target: Path | io.BytesIO, drawings: Mapping[str, Drawer], keys: Sequence[str], box: CardBox,
             info: PdfInfo) -> int:
    """Write one page per key (repeats allowed): the card plus bleed, with TrimBox and BleedBox."""
    canvas = new_canvas(target, box.page, info)
    distinct = list(dict.fromkeys(keys))
    forms = define_forms(canvas, drawings, distinct, box.width, box.height, box.bleed)
    page_w, page_h = box.page
    b = box.bleed
    for key in keys:
        canvas.setTrimBox((b, b, b + box.width, b + box.height))
        canvas.setBleedBox((0, 0, page_w, page_h))
        canvas.saveState()
        canvas.translate(b, b)
        canvas.doForm(forms[key])
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return len(keys)


def write_card_pdf(path: Path, drawings: Mapping[str, Drawer], keys: Sequence[str], box: CardBox,
                   info: PdfInfo) -> int:
    with atomic_path(path) as tmp:
        return card_pdf(tmp, drawings, keys, box, info)


def rasterize(drawings: Mapping[str, Drawer], keys: Sequence[str], box: CardBox, dpi: float,
              corners: float = 0.0) -> Iterator[tuple[str, Image.Image]]:
    """(key, PIL image) for each key, rendered one page at a time at ``dpi``."""
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    card_pdf(buffer, drawings, keys, box, PdfInfo(title="cards"))
    pdf = pdfium.PdfDocument(buffer.getvalue())
    try:
        for index, key in enumerate(keys):
            page = pdf[index]
            image = page.render(scale=dpi / 72.0).to_pil()
            page.close()
            tick()
            yield key, _rounded(image, corner_radius(corners, box) * dpi / 72.0) if corners else image.convert("RGB")
    finally:
        pdf.close()


def corner_radius(corners: float, box: CardBox) -> float:
    """The radius of the image's outline (points) that rounds the card's trim to ``corners``: the
    bleed round a rounded trim keeps its distance, so its corners are ``corners`` plus the bleed."""
    return corners + box.bleed


def _rounded(image, radius: float):
    """The image with transparent rounded corners of ``radius`` pixels (the whole image's outline)."""
    from PIL import ImageDraw

    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, image.width - 1, image.height - 1), radius=round(radius),
                                           fill=255)
    out = image.convert("RGBA")
    out.putalpha(mask)
    return out


@dataclass(frozen=True)
class Listed:
    """A card of the manifest: its face's file, id, copies, and its back's file."""

    file: str
    card: str
    copies: int
    back: str


def write_pngs(folder: Path, drawings: Mapping[str, Drawer], names: Mapping[str, str], listed: Sequence[Listed],
               box: CardBox, dpi: float, corners: float = 0.0) -> list[Path]:
    """One PNG per distinct drawing (``names``: key -> file name) and ``manifest.csv``; returns the files."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for key, image in rasterize(drawings, list(names), box, dpi, corners):
        path = folder / names[key]
        with atomic_path(path) as tmp:
            image.save(tmp, format="PNG", dpi=(dpi, dpi), **PNG_OPTIONS)
        written.append(path)
    manifest = folder / "manifest.csv"
    with atomic_path(manifest) as tmp, tmp.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["file", "card", "copies", "back"])
        writer.writerows((item.file, item.card, item.copies, item.back) for item in listed)
    written.append(manifest)
    return written


# --- Tabletop Simulator ---------------------------------------------------------------

@dataclass(frozen=True)
class TtsDeck:
    """One deck object: its cards (face key, back key and nickname, once per printed copy)."""

    nickname: str
    cards: tuple[tuple[str, str, str], ...]

    @property
    def backs(self) -> list[str]:
        return list(dict.fromkeys(back for _, back, _ in self.cards))


def tts_dpi(box: CardBox, wanted: float = TTS_DPI) -> float:
    """The resolution of the deck images: ``wanted``, lowered until 10 x 7 cards fit in 10,000 px."""
    limit = min(TTS_MAX_PIXELS / (TTS_COLUMNS * box.width / 72), TTS_MAX_PIXELS / (TTS_ROWS * box.height / 72))
    return min(wanted, limit)


def write_tts(folder: Path, name: str, drawings: Mapping[str, Drawer], decks: Sequence[TtsDeck], box: CardBox,
              dpi: float = TTS_DPI) -> list[Path]:
    """Deck images, back images and ``NAME.json``, a Tabletop Simulator saved object; returns the files.

    Each deck image holds up to 10 x 7 faces, the last slot left empty for
    TTS to show hidden cards; a deck of more cards takes several images. A
    deck whose cards share one back has one back image; one whose backs
    differ has a back image per deck image, each card's back in the cell of
    its face (``UniqueBack``). Landscape cards are marked ``SidewaysCard``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    dpi = tts_dpi(box, dpi)
    trim = CardBox(box.width, box.height, 0.0)
    sideways = box.width > box.height
    per_image = TTS_COLUMNS * TTS_ROWS - 1
    written: list[Path] = []
    objects = []
    deck_number = 0
    for d, deck in enumerate(decks):
        cells = list(dict.fromkeys((face, back) for face, back, _ in deck.cards))
        unique_back = len(deck.backs) > 1
        back_path = folder / f"{name}-back{'-' + str(d + 1) if len(decks) > 1 else ''}.png"
        if not unique_back:
            for _, image in rasterize(drawings, deck.backs, trim, dpi):
                _save(image, back_path)
            written.append(back_path)
        custom: dict[str, dict] = {}
        card_ids: dict[tuple[str, str], int] = {}
        for start in range(0, len(cells), per_image):
            chunk = cells[start:start + per_image]
            deck_number += 1
            sheet_path = folder / f"{name}-faces-{deck_number}.png"
            _save(_grid(drawings, [face for face, _ in chunk], trim, dpi), sheet_path)
            written.append(sheet_path)
            if unique_back:
                back_path = folder / f"{name}-backs-{deck_number}.png"
                _save(_grid(drawings, [back for _, back in chunk], trim, dpi), back_path)
                written.append(back_path)
            card_ids.update({cell: deck_number * 100 + i for i, cell in enumerate(chunk)})
            custom[str(deck_number)] = {
                "FaceURL": sheet_path.resolve().as_uri(), "BackURL": back_path.resolve().as_uri(),
                "NumWidth": TTS_COLUMNS, "NumHeight": TTS_ROWS, "BackIsHidden": True, "UniqueBack": unique_back,
                "Type": 0,
            }
        contained = []
        for face, back, nickname in deck.cards:
            card_id = card_ids[(face, back)]
            contained.append({
                "Name": "Card", "Nickname": nickname, "CardID": card_id,
                "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]},
                "Transform": _transform(), "Hands": True, "SidewaysCard": sideways,
            })
        objects.append({
            "Name": "DeckCustom", "Nickname": deck.nickname, "Transform": _transform(x=d * 4.0),
            "DeckIDs": [c["CardID"] for c in contained], "CustomDeck": custom,
            "ContainedObjects": contained, "Hands": False, "SidewaysCard": sideways,
        })
    saved = {"SaveName": name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects,
             "TabStates": {}, "VersionNumber": ""}
    json_path = folder / f"{name}.json"
    with atomic_path(json_path) as tmp:
        tmp.write_text(json.dumps(saved, indent=2, ensure_ascii=False), encoding="utf-8")
    written.append(json_path)
    return written


def _grid(drawings: Mapping[str, Drawer], keys: Sequence[str], box: CardBox, dpi: float) -> Image.Image:
    """A TTS deck image: the drawings of ``keys`` row by row in a 10 x 7 grid, white elsewhere."""
    sheet = None
    for i, (_, image) in enumerate(rasterize(drawings, keys, box, dpi)):
        if sheet is None:
            sheet = Image.new("RGB", (image.width * TTS_COLUMNS, image.height * TTS_ROWS), "white")
        row, column = divmod(i, TTS_COLUMNS)
        sheet.paste(image, (column * image.width, row * image.height))
    assert sheet is not None
    return sheet


def _save(image, path: Path) -> None:
    with atomic_path(path) as tmp:
        image.save(tmp, format="PNG", **PNG_OPTIONS)


def _transform(x: float = 0.0) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def print_shop_bleed(template_bleed: float) -> float:
    """The bleed of card-by-card exports: the template's, or an eighth of an inch."""
    return template_bleed or PRINT_SHOP_BLEED


