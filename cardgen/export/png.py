"""``--format png``: a PNG per distinct card face and back of each output, with ``manifest.csv``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .formats import DeckJob, Export, Format, printed_keys


def write(jobs: Sequence[DeckJob], out_dir: Path, options: Mapping[str, Any]) -> None:
    """OUT/STEM/CARD.png for each output, ``back.png`` (or ``back-KEY.png`` when backs differ)."""
    from ..deck import slug
    from .cards import Listed, write_pngs

    for job in jobs:
        faces, box = job.card_faces(options["bleed"])
        for output in job.outputs:
            keys, drawings = printed_keys(faces, output)
            backs = list(dict.fromkeys(back for _, _, back in keys))
            names = {face: f"{card.id}.png" for card, face, _ in keys}
            names.update({back: "back.png" if len(backs) == 1 else f"back-{slug(back)}.png" for back in backs})
            listed = [Listed(names[face], card.id, card.copies, names[back]) for card, face, back in keys]
            folder = out_dir / output.path.stem
            files = write_pngs(folder, drawings, names, listed, box, options["dpi"], options["corners"])
            job.exports.append(Export(FORMAT.name, folder, output.count, len(files)))


FORMAT = Format(name="png", help="a PNG per card and back with manifest.csv", options=("bleed", "dpi", "corners"),
                files=("*/*.png", "*/manifest.csv"), write=write)
