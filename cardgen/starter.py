"""``cardgen new NAME``: a small deck that builds as it is, to start from.

The templates live here as text so the starter travels with the package;
they show the pieces a user's own deck needs: layouts (one extending the
built-in look, one a card names), fields from the spreadsheet's extra
columns, cards in YAML and from a CSV file, an icon inline in the text, a
picture of their own, an option filled into text, and a reference card with
a line that depends on that option.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from .errors import CardgenError
from .files import new_temp, remove_stale_temps
from .schema import ID_PATTERN

MAX_NAME = 60


def write_starter(name: str, parent: Path) -> Path:
    """Write ``parent/NAME/`` (NAME.yaml, cards.csv, art/NAME.png); returns the folder.

    The folder appears whole or not at all: it is written under a temporary
    name beside its final place and renamed at the end.
    """
    check_name(name)
    parent = Path(parent)
    folder = parent / name
    if folder.exists():
        raise CardgenError(f"{folder} already exists; choose another name or remove it first")
    if parent.exists() and not parent.is_dir():
        raise CardgenError(f"--dir {parent} is a file, expected a folder")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temps(folder)  # what a killed `cardgen new` of this name left
        scratch = new_temp(folder, folder=True)
    except OSError as exc:
        raise CardgenError(f"cannot create a folder in {parent}: {exc.strerror}") from None
    try:
        _write_files(name, scratch)
        if folder.exists():
            raise CardgenError(f"{folder} already exists; choose another name or remove it first")
        os.replace(scratch, folder)
    except OSError as exc:
        shutil.rmtree(scratch, ignore_errors=True)
        raise CardgenError(f"cannot write {folder}: {exc.strerror}") from None
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return folder


def check_name(name: str) -> None:
    """A deck name is a deck id: it names the folder, the YAML file and the deck."""
    if not re.match(ID_PATTERN, name or "") or len(name) > MAX_NAME:
        raise CardgenError(f"deck name '{name}' is not valid: use lower-case letters, digits, - and _, "
                           f"starting with a letter or digit, at most {MAX_NAME} characters "
                           f"(for example my-deck)")


def _write_files(name: str, folder: Path) -> None:
    title = name.replace("-", " ").replace("_", " ").title()
    (folder / f"{name}.yaml").write_text(DECK_TEMPLATE.format(name=name, title=title), encoding="utf-8")
    (folder / "cards.csv").write_text(CSV_TEMPLATE.format(name=name), encoding="utf-8", newline="")
    (folder / "art").mkdir()
    _draw_art(folder / "art" / f"{name}.png")


def _draw_art(path: Path) -> None:
    """A 600 x 600 picture (a rocket under a sun): sharp at 300 ppi up to 2 inches wide."""
    from PIL import Image, ImageDraw

    k = 3  # drawn on a 200-unit grid, scaled up
    img = Image.new("RGB", (200 * k, 200 * k), (232, 240, 254))
    d = ImageDraw.Draw(img)

    def box(*xy: int) -> list[int]:
        return [v * k for v in xy]

    def poly(*xy: tuple[int, int]) -> list[tuple[int, int]]:
        return [(x * k, y * k) for x, y in xy]

    ink, width = (33, 33, 33), 3 * k
    d.ellipse(box(130, 18, 182, 70), fill=(255, 193, 7), outline=ink, width=width)
    d.rectangle(box(0, 160, 200, 200), fill=(76, 175, 80))
    d.polygon(poly((100, 28), (126, 80), (126, 140), (74, 140), (74, 80)), fill=(236, 239, 241),
              outline=ink, width=width)
    d.ellipse(box(88, 74, 112, 98), fill=(21, 101, 192), outline=ink, width=width)
    d.polygon(poly((74, 110), (52, 150), (74, 140)), fill=(198, 40, 40), outline=ink, width=width)
    d.polygon(poly((126, 110), (148, 150), (126, 140)), fill=(198, 40, 40), outline=ink, width=width)
    d.polygon(poly((86, 142), (100, 178), (114, 142)), fill=(255, 152, 0), outline=ink, width=width)
    img.save(path, format="PNG")


DECK_TEMPLATE = """\
# {title}: a starter deck made by `cardgen new {name}`.
# Build it:    cardgen build {name}.yaml --out out
# The format:  docs/deck-format.md; `cardgen schema` prints it as JSON Schema
#              for editor completion; `cardgen list` shows the built-in icons.
deck: "{name}"
name: "{title}"
game: none
orientation: landscape
back:
  title: "{title}"
  subtitle: a deck of my own
  image: cardgen-logo.png   # found in cardgen's bundled art folder
  color: "#283593"
style:
  accent: "#283593"
  safe_margin: 3mm
options:
  # Options are filled into text as {{bonus}} and switch lines on and off.
  bonus: 2
  advanced: false

# How the cards look. A layout is a list of elements placed in boxes
# measured from the card's top-left corner (mm, in, pt, % or a sum such
# as 100% - 6mm). {{title}}, {{text}} and every spreadsheet column or card
# field (here {{type}} and {{cost}}) fill in from each card.
layouts:
  # Every generic card: cardgen's built-in look (a band in the card's
  # colour, art on the left, the text beside it), plus a type line and a
  # cost in a circle.
  generic:
    extends: generic
    elements:
      - {{name: title, width: 100% - 16mm}}
      - name: type-line
        type: text
        when: type
        text: "{{type}}"
        x: 40% + 3mm + 6pt
        y: 22% + 4pt
        width: 60% - 6mm - 6pt
        height: 10pt
        italic: true
        size: 7.5
        color: "#546e7a"
      - {{name: text, y: 22% + 16pt, height: 78% - 16pt - 3mm}}
      - {{name: text-full, y: 22% + 16pt, height: 78% - 16pt - 3mm}}
      - name: cost-circle
        type: ellipse
        when: cost
        x: 100% - 3mm
        y: 11%
        anchor: right
        width: 8mm
        height: 8mm
        fill: white
        stroke: ink_on({{color}})
      - name: cost
        type: text
        when: cost
        text: "{{cost}}"
        x: 100% - 3mm
        y: 11%
        anchor: right
        width: 8mm
        height: 8mm
        align: center
        valign: middle
        bold: true
        size: 12
  # A card may name a layout of its own: traps get a warning stripe.
  trap:
    extends: generic
    elements:
      - name: stripe
        type: rect
        y: 100% - 3mm
        height: 3mm
        fill: "#c62828"
        bleed: true

cards:
  - id: welcome
    title: Welcome
    text: "Edit {name}.yaml and cards.csv, then build again."
    icon: star
    color: "#283593"
  - id: treasure
    title: Treasure
    text: "Worth {{bonus}} :coin: at the end of the game."
    icon: coin
    color: goldenrod
    copies: 3
    fields: {{type: Loot, cost: 1}}
  - id: trap
    layout: trap
    title: Trap
    text: "<b>Lose your next turn.</b>"
    icon: bolt
    color: "#c62828"
    copies: 2
    fields: {{type: Hazard}}
  - id: rules
    kind: reference
    title: How to play
    lines:
      - "Shuffle, deal 5 cards each, take turns playing one card."
      - "Treasure scores {{bonus}} :coin:; a Trap skips your next turn."
      - {{when: advanced, text: "Advanced: you may discard a Trap instead of playing it."}}
      - {{unless: advanced, text: "Most :coin: when the deck runs out wins."}}
# More cards, one row each, from a spreadsheet export. Columns other than
# id, title, text, copies, color, icon, image, layout, back and shared
# (here type and cost) are fields for the layouts.
csv: cards.csv
"""

CSV_TEMPLATE = """\
id,title,type,cost,text,copies,color,icon,image
scout,Scout,Ally,2,Look at the top 2 cards of the deck.,2,teal,globe,
merchant,Merchant,Ally,3,"Swap a card with another player.
Then draw a card.",2,#6a1b9a,coin,
explorer,Explorer,Ally,4,Draw a card for every :coin: you hold.,1,#1565c0,,art/{name}.png
"""
