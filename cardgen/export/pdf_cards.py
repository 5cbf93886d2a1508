"""``--format pdf-cards``: one card per page with bleed, fronts and backs alternating, for print shops."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .formats import DeckJob, Export, Format, printed_keys, whose


def write(jobs: Sequence[DeckJob], out_dir: Path, options: Mapping[str, Any]) -> None:
    """OUT/STEM-cards.pdf for each output, a page per printed side (TrimBox and BleedBox set)."""
    from .cards import write_card_pdf
    from .sheets import PdfInfo, size_keyword

    for job in jobs:
        deck = job.deck
        faces, box = job.card_faces(options["bleed"])
        for output in job.outputs:
            keys, drawings = printed_keys(faces, output)
            pages = [key for card, face, back in keys for _ in range(card.copies) for key in (face, back)]
            path = out_dir / f"{output.path.stem}-cards.pdf"
            info = PdfInfo(title=f"{deck.name}{whose(output)}", author=deck.author or "cardgen",
                           subject=f"one card per page, fronts and backs alternating, "
                                   f"{box.bleed / 72 * 25.4:.2f} mm bleed (TrimBox and BleedBox set)",
                           color_space=options["color_space"],
                           keywords=size_keyword("card", box.width, box.height))
            write_card_pdf(path, drawings, pages, box, info)
            job.exports.append(Export(FORMAT.name, path, output.count, 1))


FORMAT = Format(name="pdf-cards", help="one card per page with bleed, for print shops",
                options=("bleed", "color_space"),
                files=("*-cards.pdf",), write=write)
