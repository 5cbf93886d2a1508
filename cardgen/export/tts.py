"""``--format tts``: Tabletop Simulator deck images and a saved object, one deck object per output (cards
whose backs differ keep them, as ``UniqueBack`` back images)."""
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
            cards = tuple((face, back, card.title or card.id) for card, face, back in keys for _ in range(card.copies))
            if cards:
                tts_decks.append(TtsDeck(f"{deck.name}{whose(output)}", cards))
        if tts_decks:
            folder = out_dir / f"{deck.id}-tts"
            files = write_tts(folder, deck.id, drawings, tts_decks, box)
            job.exports.append(Export(FORMAT.name, folder / f"{deck.id}.json", sum(len(d.cards) for d in tts_decks),
                                      len(files)))


FORMAT = Format(name="tts", help="Tabletop Simulator deck images and a saved object", options=("bleed",),
                files=("*-tts/*.png", "*-tts/*.json"), write=write)
