"""Quick looks while designing: ``cardgen preview`` pictures and ``cardgen watch`` rebuilds.

``preview_cards`` writes a PNG of each named card (front and back side by
side), or one contact sheet of every distinct face; ``watch_decks`` rebuilds
whenever a deck or anything it reads changes, and reports each rebuild in one
line, or the error, without stopping.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .build import build_decks
from .deck import slug
from .errors import CardgenError
from .prepare import BuildSettings, deck_faces, deck_template, prepare_decks

PREVIEW_DPI = 150
CONTACT_DPI = 100
CONTACT_COLUMNS = 5
GAP = 12


def preview_cards(deck_name: str, card_ids: Sequence[str], settings: BuildSettings, out_dir: Path) -> list[Path]:
    """PNGs of the named cards of a deck, front and back side by side, or a contact sheet of all; returns paths."""
    from PIL import Image

    from .export.cards import CardBox, rasterize
    from .files import atomic_path
    from .yamlio import did_you_mean

    deck = prepare_decks([deck_name], settings)[0]
    faces = deck_faces(deck, deck_template(deck, settings))
    box = CardBox(faces.width, faces.height, 0.0)
    folder = out_dir / "preview"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    if card_ids:
        ids = list(dict.fromkeys(c.id for c in deck.cards))
        for card_id in card_ids:
            card = next((c for c in deck.cards if c.id == card_id), None)
            if card is None:
                raise CardgenError(f"deck '{deck.id}' has no card '{card_id}'{did_you_mean(card_id, ids)}")
            keys = [faces.face(card), faces.back(card)]
            drawings = {key: faces.drawings[key] for key in keys}
            images = [image for _, image in rasterize(drawings, keys, box, PREVIEW_DPI)]
            sheet = side_by_side(images)
            path = folder / f"{deck.id}-{slug(card_id)}.png"
            with atomic_path(path) as tmp:
                sheet.save(tmp, format="PNG")
            paths.append(path)
        return paths
    keys = list(dict.fromkeys(faces.face(card) for card in deck.cards))
    drawings = {key: faces.drawings[key] for key in keys}
    images = [image for _, image in rasterize(drawings, keys, box, CONTACT_DPI)]
    rows = [images[i:i + CONTACT_COLUMNS] for i in range(0, len(images), CONTACT_COLUMNS)]
    row_images = [side_by_side(row) for row in rows]
    width = max(r.width for r in row_images)
    sheet = Image.new("RGB", (width, sum(r.height for r in row_images)), (200, 200, 200))
    y = 0
    for row_image in row_images:
        sheet.paste(row_image, (0, y))
        y += row_image.height
    path = folder / f"{deck.id}-contact-sheet.png"
    with atomic_path(path) as tmp:
        sheet.save(tmp, format="PNG")
    return [path]


def side_by_side(images: Sequence[Any], gap: int = GAP) -> Any:
    """The images in a row on grey, ``gap`` pixels apart and around (PIL images)."""
    from PIL import Image

    width = sum(i.width for i in images) + gap * (len(images) + 1)
    height = max(i.height for i in images) + 2 * gap
    row = Image.new("RGB", (width, height), (200, 200, 200))
    x = gap
    for image in images:
        row.paste(image, (x, gap))
        x += image.width + gap
    return row


# --- watch -------------------------------------------------------------------------------

def watched_paths(names: Sequence[str], settings: BuildSettings) -> list[Path]:
    """The folders a rebuild depends on: each deck's folder (its CSV, XLSX, art and fonts) and the bundled decks'."""
    from .deck import DECKS_DIR, deck_names, resolve_deck

    folders = {resolve_deck(name).resolve().parent for name in deck_names(names)}
    folders.add(DECKS_DIR.resolve())
    return sorted(folders)


def watch_decks(names: Sequence[str], out_dir: Path, settings: BuildSettings, say: Callable[[str], None],
                changes: Iterable[set] | None = None, stop_event: Any = None) -> int:
    """Build now and after every change, saying one line per build; returns how many builds ran.

    ``changes`` yields sets of changed paths (watchfiles' by default, until
    ``stop_event`` is set); a broken deck is reported and watching goes on. Changes to files cardgen
    writes itself (the output folder, temporary files) do not trigger a build.
    """
    out = out_dir.resolve()
    if changes is None:
        try:
            from watchfiles import watch
        except ImportError:
            raise CardgenError("cardgen watch needs watchfiles: pip install 'cardgen[watch]'") from None
        changes = ({Path(p) for _, p in batch} for batch in watch(*watched_paths(names, settings),
                                                                   raise_interrupt=False, stop_event=stop_event))
    builds = 0
    _rebuild(names, out_dir, settings, say)
    builds += 1
    for batch in changes:
        relevant = [p for p in batch if not _ours(Path(p), out)]
        if not relevant:
            continue
        _rebuild(names, out_dir, settings, say, relevant)
        builds += 1
    return builds


def _ours(path: Path, out: Path) -> bool:
    resolved = path.resolve()
    return resolved.is_relative_to(out) or resolved.name.endswith(".tmp") or "__pycache__" in resolved.parts


def _rebuild(names: Sequence[str], out_dir: Path, settings: BuildSettings, say: Callable[[str], None],
             changed: Sequence[Path] = ()) -> None:
    started = time.perf_counter()
    stamp = time.strftime("%H:%M:%S")
    why = f" ({', '.join(p.name for p in list(changed)[:3])}{', ...' if len(changed) > 3 else ''} changed)" \
        if changed else ""
    try:
        results = build_decks(names, out_dir, settings)
    except CardgenError as exc:
        say(f"{stamp} error{why}: {exc}")
        return
    except OSError as exc:
        say(f"{stamp} error{why}: cannot write {exc.filename or ''}: {exc.strerror or exc}")
        return
    files = sum(len(r.exports) for r in results)
    # the sheets' cards when sheets were written, else every card-by-card file's
    cards = sum(e.cards for r in results for e in r.exports if e.pages is not None) or \
        sum(e.cards for r in results for e in r.exports)
    say(f"{stamp} built {cards} cards into {files} file{'s' if files != 1 else ''} in "
        f"{time.perf_counter() - started:.2f} s{why}")
