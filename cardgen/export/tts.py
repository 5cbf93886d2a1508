"""``--format tts``: Tabletop Simulator deck images and a saved object, one deck object per output and back."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .formats import DeckJob, Export, Format, printed_keys, whose


def write(jobs: Sequence[DeckJob], out_dir: Path, options: Mapping[str, Any]) -> None:
    """OUT/DECK-tts/: the deck images, back images and DECK.json of each deck."""
    from .cards import TtsDeck, write_tts

    for job in jobs:
        deck = job.deck
        faces, box = job.card_faces(options["bleed"])
        tts_decks: list[TtsDeck] = []
        drawings: dict = {}
        for output in job.outputs:
            keys, own = printed_keys(faces, output)
            drawings.update(own)
            by_back: dict[str, list[tuple[str, str]]] = {}
            for card, face, back in keys:
                by_back.setdefault(back, []).extend([(face, card.title or card.id)] * card.copies)
            for n, (back, cards) in enumerate(by_back.items()):
                suffix = f" ({n + 1})" if len(by_back) > 1 else ""
                tts_decks.append(TtsDeck(f"{deck.name}{whose(output)}{suffix}", tuple(cards), back))
        if tts_decks:
            folder = out_dir / f"{deck.id}-tts"
            files = write_tts(folder, deck.id, drawings, tts_decks, box)
            job.exports.append(Export(FORMAT.name, folder / f"{deck.id}.json", sum(len(d.cards) for d in tts_decks),
                                      len(files)))


FORMAT = Format(name="tts", help="Tabletop Simulator deck images and a saved object", options=("bleed",),
                files=("*-tts/*.png", "*-tts/*.json"), write=write)
