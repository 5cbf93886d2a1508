"""``cardgen new NAME``: a small deck that builds as it is, to start from.

The templates live here as text so the starter travels with the package;
they show the pieces a user's own deck needs: cards in YAML, cards from a
spreadsheet (CSV), built-in icons, a picture of their own, an option filled
into text, and a reference card with a line that depends on that option.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from .errors import CardgenError
from .files import new_temp
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
    """A 200 x 200 picture (a rocket under a sun) so the image column has something to show."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (200, 200), (232, 240, 254))
    d = ImageDraw.Draw(img)
    d.ellipse((130, 18, 182, 70), fill=(255, 193, 7), outline=(33, 33, 33), width=3)
    d.rectangle((0, 160, 200, 200), fill=(76, 175, 80))
    body = [(100, 28), (126, 80), (126, 140), (74, 140), (74, 80)]
    d.polygon(body, fill=(236, 239, 241), outline=(33, 33, 33), width=3)
    d.ellipse((88, 74, 112, 98), fill=(21, 101, 192), outline=(33, 33, 33), width=3)
    d.polygon([(74, 110), (52, 150), (74, 140)], fill=(198, 40, 40), outline=(33, 33, 33), width=3)
    d.polygon([(126, 110), (148, 150), (126, 140)], fill=(198, 40, 40), outline=(33, 33, 33), width=3)
    d.polygon([(86, 142), (100, 178), (114, 142)], fill=(255, 152, 0), outline=(33, 33, 33), width=3)
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
cards:
  - id: welcome
    title: Welcome
    text: "Edit {name}.yaml and cards.csv, then build again."
    icon: star
    color: "#283593"
  - id: treasure
    title: Treasure
    text: "Worth {{bonus}} points at the end of the game."
    icon: coin
    color: goldenrod
    copies: 3
  - id: trap
    title: Trap
    text: Lose your next turn.
    icon: bolt
    color: "#c62828"
    copies: 2
  - id: rules
    kind: reference
    title: How to play
    lines:
      - "Shuffle, deal 5 cards each, take turns playing one card."
      - "Treasure scores {{bonus}} points; a Trap skips your next turn."
      - {{when: advanced, text: "Advanced: you may discard a Trap instead of playing it."}}
      - {{unless: advanced, text: "Most points when the deck runs out wins."}}
# More cards, one row each, from a spreadsheet export:
csv: cards.csv
"""

CSV_TEMPLATE = """\
id,title,text,copies,color,icon,image
scout,Scout,Look at the top 2 cards of the deck.,2,teal,globe,
merchant,Merchant,Swap a card with another player.\\nThen draw a card.,2,#6a1b9a,coin,
explorer,Explorer,Draw a card for every Treasure you hold.,1,#1565c0,,art/{name}.png
"""
