"""Quick looks while designing: ``cardgen preview`` pictures and ``cardgen watch`` rebuilds.

``preview_cards`` writes a PNG of each named card (front and back side by
side), or one contact sheet of every distinct face; ``showcase_pictures``
writes a fanned hand and a showcase row on a transparent background for a
rulebook or a crowdfunding page (the compositing is ``render.showcase``);
``watch_decks`` rebuilds whenever a deck or anything it reads changes, and
reports each rebuild in one line, or the error, without stopping; its
watcher (``watch_changes``, ``relevant_changes``) and its build (``rebuild``)
are also ``cardgen serve``'s. Every
picture's cards are rasterised by ``export.cards.rasterize`` from the
drawings ``build`` prints.
"""
from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .build import BuildResult, build_decks
from .deck import slug
from .errors import CardgenError
from .model import Card, Deck
from .prepare import BuildSettings, deck_faces, deck_template, prepare_decks
from .units import mm

PREVIEW_DPI = 150
CONTACT_DPI = 100
CONTACT_COLUMNS = 5
GAP = 12
#: the hand and the showcase: how many cards each may show, the showcase's own count when no card
#: is named, and the cards' corner radius when none is given (points)
HAND_MAX = 16
SHOWCASE_CARDS = 3
SHOWCASE_MAX = 8
SHOWCASE_CORNERS = mm(3)
#: the largest hand or showcase picture: 50 megapixels, 200 MB to compose
MAX_PICTURE_PIXELS = 50_000_000


def preview_cards(deck_name: str, card_ids: Sequence[str], settings: BuildSettings, out_dir: Path,
                  dpi: float | None = None) -> list[Path]:
    """PNGs of the named cards of a deck, front and back side by side, or a contact sheet of all; returns paths.

    ``dpi``: the pictures' resolution (default PREVIEW_DPI, the contact sheet's CONTACT_DPI)."""
    from PIL import Image

    from .export.cards import CardBox, rasterize
    from .files import atomic_path

    if dpi is not None:
        settings = replace(settings, dpi=dpi)  # checked with the other settings
    deck = prepare_decks([deck_name], settings)[0]
    faces = deck_faces(deck, deck_template(deck, settings))
    box = CardBox(faces.width, faces.height, 0.0)
    folder = out_dir / "preview"
    paths = []
    if card_ids:
        cards = _named_cards(deck, card_ids)
        folder.mkdir(parents=True, exist_ok=True)
        for card_id, card in zip(card_ids, cards):
            keys = [faces.face(card), faces.back(card)]
            drawings = {key: faces.drawings[key] for key in keys}
            images = [image for _, image in rasterize(drawings, keys, box, PREVIEW_DPI if dpi is None else dpi)]
            sheet = side_by_side(images)
            path = folder / f"{deck.id}-{slug(card_id)}.png"
            with atomic_path(path) as tmp:
                sheet.save(tmp, format="PNG")
            paths.append(path)
        return paths
    keys = list(dict.fromkeys(faces.face(card) for card in deck.cards))
    drawings = {key: faces.drawings[key] for key in keys}
    images = [image for _, image in rasterize(drawings, keys, box, CONTACT_DPI if dpi is None else dpi)]
    folder.mkdir(parents=True, exist_ok=True)
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


def showcase_pictures(deck_name: str, card_ids: Sequence[str], settings: BuildSettings, out_dir: Path,
                      hand: int | None = None, showcase: bool = False, dpi: float | None = None,
                      corners: float = SHOWCASE_CORNERS) -> list[Path]:
    """A fanned hand of ``hand`` cards (OUT/preview/DECK-hand.png) and/or a showcase row
    (DECK-showcase.png), RGBA on a transparent background at ``dpi``, each card's corners rounded to
    ``corners`` points; returns the paths. ``dpi``: default PREVIEW_DPI.

    The cards are ``card_ids`` in order (a card may repeat; for the hand there must be ``hand`` of
    them), or the deck's first distinct faces leaving out reference cards: ``hand`` of them, and
    SHOWCASE_CARDS (or as many as there are) for the showcase. Every check runs before anything is
    drawn, and both pictures are made before either is written.
    """
    from .export.cards import CardBox, rasterize
    from .files import atomic_path
    from .render.showcase import fan, fan_size, showcase_size
    from .render.showcase import showcase as showcase_row

    if hand is None and not showcase:
        raise CardgenError("say what to draw: --hand N, --showcase or both")
    if hand is not None and not 1 <= hand <= HAND_MAX:
        raise CardgenError(f"--hand must be from 1 to {HAND_MAX} cards, got {hand}")
    if hand is not None and card_ids and len(card_ids) != hand:
        raise CardgenError(f"--hand {hand} shows {hand} cards but {len(card_ids)} CARD_ID"
                           f"{'s are' if len(card_ids) != 1 else ' is'} given: name {hand}, or none for the "
                           f"deck's first {hand} faces")
    if showcase and len(card_ids) > SHOWCASE_MAX:
        raise CardgenError(f"--showcase shows 1 to {SHOWCASE_MAX} cards, got {len(card_ids)} CARD_IDs")
    dpi = PREVIEW_DPI if dpi is None else dpi
    deck = prepare_decks([deck_name], replace(settings, dpi=dpi, corners=corners))[0]  # both checked there
    faces = deck_faces(deck, deck_template(deck, settings))
    if card_ids:
        keys = [faces.face(card) for card in _named_cards(deck, card_ids)]
    else:
        playing = [c for c in deck.cards if c.kind != "reference"] or list(deck.cards)
        keys = list(dict.fromkeys(faces.face(card) for card in playing))
        if hand is not None and len(keys) < hand:
            raise CardgenError(f"deck '{deck.id}' has {len(keys)} distinct faces besides its reference cards, "
                               f"fewer than --hand {hand} shows; "
                               f"name {hand} CARD_IDs (a card may repeat)")
    wanted = [("hand", fan, fan_size, keys[:hand])] if hand is not None else []
    if showcase:
        wanted.append(("showcase", showcase_row, showcase_size, keys if card_ids else keys[:SHOWCASE_CARDS]))
    scale = dpi / 72
    for name, _, size_of, chosen in wanted:
        width, height = size_of(len(chosen), faces.width * scale, faces.height * scale, scale)
        if width * height > MAX_PICTURE_PIXELS:
            most = math.floor(dpi * math.sqrt(MAX_PICTURE_PIXELS / (width * height)))
            raise CardgenError(f"the {name} at {dpi:g} dpi would be {width} x {height} px, more than "
                               f"{MAX_PICTURE_PIXELS // 1_000_000} megapixels; use --dpi {most} or less")
    distinct = list(dict.fromkeys(key for *_, chosen in wanted for key in chosen))
    box = CardBox(faces.width, faces.height, 0.0)
    images = dict(rasterize({key: faces.drawings[key] for key in distinct}, distinct, box, dpi, corners))
    pictures = [(name, compose([images[key] for key in chosen], scale)) for name, compose, _, chosen in wanted]
    folder = out_dir / "preview"
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, picture in pictures:
        path = folder / f"{deck.id}-{name}.png"
        with atomic_path(path) as tmp:
            picture.save(tmp, format="PNG", dpi=(dpi, dpi))
        paths.append(path)
    return paths


def _named_cards(deck: Deck, card_ids: Sequence[str]) -> list[Card]:
    """The deck's card of each id, in order; an unknown id is an error naming the nearest ones."""
    from .yamlio import did_you_mean

    by_id: dict[str, Card] = {}
    for card in deck.cards:
        by_id.setdefault(card.id, card)
    for card_id in card_ids:
        if card_id not in by_id:
            raise CardgenError(f"deck '{deck.id}' has no card '{card_id}'{did_you_mean(card_id, list(by_id))}")
    return [by_id[card_id] for card_id in card_ids]


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

    ``changes`` yields sets of changed paths (``watch_changes`` by default, until ``stop_event`` is
    set); a broken deck is reported and watching goes on.
    """
    if changes is None:
        changes = watch_changes(names, settings, stop_event, "cardgen watch", "watch")
    say(rebuild(names, out_dir, settings).line)
    builds = 1
    for changed in relevant_changes(changes, out_dir):
        say(rebuild(names, out_dir, settings, changed).line)
        builds += 1
    return builds


def watch_changes(names: Sequence[str], settings: BuildSettings, stop_event: Any, command: str,
                  extra: str) -> Iterator[set[Path]]:
    """Sets of paths changed in the folders a rebuild depends on (watchfiles), until ``stop_event``
    is set. ``command`` and ``extra`` name what needs watchfiles when it is not installed."""
    try:
        from watchfiles import watch
    except ImportError:
        raise CardgenError(f"{command} needs watchfiles: pip install 'cardgen[{extra}]'") from None
    folders = watched_paths(names, settings)
    return ({Path(p) for _, p in batch}
            for batch in watch(*folders, raise_interrupt=False, stop_event=stop_event))


def relevant_changes(changes: Iterable[set], out_dir: Path) -> Iterator[list[Path]]:
    """The batches of ``changes`` that call for a rebuild, each less the files that do not: what
    cardgen writes itself (the output folder, its temporary files) and editors' own temporary,
    backup and lock files (which watchfiles' default filter lets through, vim's 4913 and
    LibreOffice's .~lock files among them)."""
    out = out_dir.resolve()
    for batch in changes:
        relevant = sorted({Path(p) for p in batch if not _ignored(Path(p), out)})
        if relevant:
            yield relevant


#: the temporary, backup and lock files editors write beside a file as they save it: vim (4913, .swp,
#: ~), emacs (.#name, #name#), JetBrains (___jb_tmp___), Kate (.kate-swp), GNOME (.goutputstream-),
#: LibreOffice (.~lock.name#), Office (~$name) and ``sed -i`` (sedXXXXXX)
_EDITOR_FILES = re.compile(r"^(\d+|\.#.*|#.*#|\.~lock\..*#|~\$.*|\.goutputstream-.*|.*~|sed[A-Za-z0-9]{6}|"
                           r".*\.(sw[a-p]|kate-swp|tmp|bak)|.*___jb_(tmp|old|bak)___)$")


def _ignored(path: Path, out: Path) -> bool:
    resolved = path.resolve()
    return (resolved.is_relative_to(out) or "__pycache__" in resolved.parts
            or _EDITOR_FILES.match(resolved.name) is not None)


@dataclass
class Rebuild:
    """One build as ``watch`` and ``serve`` run it: its results, or the error that stopped it, and
    the line that says which, with the time it took and the files that changed."""

    results: list[BuildResult] | None
    error: CardgenError | None
    line: str
    seconds: float


def rebuild(names: Sequence[str], out_dir: Path, settings: BuildSettings,
            changed: Sequence[Path] = ()) -> Rebuild:
    started = time.perf_counter()
    stamp = time.strftime("%H:%M:%S")
    shown = list(dict.fromkeys(p.name for p in changed))
    why = f" ({', '.join(shown[:3])}{', ...' if len(shown) > 3 else ''} changed)" if shown else ""
    try:
        results = build_decks(names, out_dir, settings)
    except CardgenError as exc:
        return Rebuild(None, exc, f"{stamp} error{why}: {exc}", time.perf_counter() - started)
    except OSError as exc:
        error = CardgenError(f"cannot write {exc.filename or ''}: {exc.strerror or exc}")
        return Rebuild(None, error, f"{stamp} error{why}: {error}", time.perf_counter() - started)
    seconds = time.perf_counter() - started
    files = sum(len(r.exports) for r in results)
    # the sheets' cards when sheets were written, else every card-by-card file's
    cards = sum(e.cards for r in results for e in r.exports if e.pages is not None) or \
        sum(e.cards for r in results for e in r.exports)
    return Rebuild(results, None, f"{stamp} built {cards} cards into {files} file{'s' if files != 1 else ''} in "
                                  f"{seconds:.2f} s{why}", seconds)
