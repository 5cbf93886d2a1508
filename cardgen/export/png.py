"""``--format png``: a PNG per distinct card face and back of each output, with ``manifest.csv``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .formats import DeckJob, Export, Format, printed_keys


def write(jobs: Sequence[DeckJob], out_dir: Path, options: Mapping[str, Any]) -> None:
    """OUT/STEM/CARD.png for each output, ``back.png`` (or ``back-KEY.png`` when backs differ); a card
    whose id is ``back`` or starts ``back-`` is ``ID.face.png``."""
    from ..deck import slug
    from .cards import Listed, write_pngs

    for job in jobs:
        faces, box = job.card_faces(options["bleed"])
        for output in job.outputs:
            keys, drawings = printed_keys(faces, output)
            backs = list(dict.fromkeys(back for _, _, back in keys))
            names = {face: _face_file(card.id) for card, face, _ in keys}
            for back in backs:
                name = "back.png" if len(backs) == 1 else f"back-{slug(back)}.png"
                number = 2
                while name in names.values():  # two backs whose keys make one slug
                    name, number = f"back-{slug(back)}-{number}.png", number + 1
                names[back] = name
            listed = [Listed(names[face], card.id, card.copies, names[back]) for card, face, back in keys]
            folder = out_dir / output.path.stem
            files = write_pngs(folder, drawings, names, listed, box, options["dpi"], options["corners"])
            job.exports.append(Export(FORMAT.name, folder, output.count, len(files)))


def _face_file(card_id: str) -> str:
    """``ID.png``; ``ID.face.png`` for an id the backs' files are named like (``back``, ``back-…``):
    no card id holds a dot, so a face never takes a back's file."""
    return f"{card_id}.face.png" if card_id == "back" or card_id.startswith("back-") else f"{card_id}.png"


FORMAT = Format(name="png", help="a PNG per card and back with manifest.csv", options=("bleed", "dpi", "corners"),
                files=("*/*.png", "*/manifest.csv"), write=write)
