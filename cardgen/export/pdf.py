"""``--format pdf``: the duplex sheets of each deck, one PDF per output (or all in one with ``--one-pdf``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..sheets import PlacedCard, Printing, SheetTemplate, turns
from ..units import mm
from .formats import DeckJob, Export, Format, Output

if TYPE_CHECKING:
    from ..model import Card, Deck
    from ..render.faces import Faces


def write(jobs: Sequence[DeckJob], out_dir: Path, options: Mapping[str, Any]) -> None:
    """Each output of each deck as sheets, or with ``one_pdf`` every deck and player in one file."""
    if options["one_pdf"]:
        write_one_pdf(jobs, out_dir, options)
        return
    for job in jobs:
        for output in job.outputs:
            pages = write_output(job.deck, output, job.template, options, job.faces)
            job.exports.append(Export(FORMAT.name, output.path, output.count, pages=pages))


FORMAT = Format(
    name="pdf", help="duplex sheets",
    options=("duplex", "back_offset", "front_offset", "backs_at_end", "back_marks", "one_pdf", "color_space"),
    files=("*.pdf",), write=write)


def write_one_pdf(jobs: Sequence[DeckJob], out_dir: Path, options: Mapping[str, Any]) -> None:
    """Every deck and player of the build in one PDF, filling sheets one after another.

    Backs are placed slot by slot, so cards of different decks or players can
    share a sheet: the build prints as few sheets as its cards need. The file
    is recorded as the first deck's.
    """
    from .sheets import PdfInfo, write_pdf

    drawings: dict = {}
    placed: list[PlacedCard] = []
    cards: list[Card] = []
    for job in jobs:
        for output in job.outputs:
            own, own_placed = face_drawings(output.cards, job.faces)
            prefix = f"{job.deck.id}/"
            drawings.update({prefix + key: drawing for key, drawing in own.items()})
            placed.extend(PlacedCard(prefix + p.face, prefix + p.back if p.back else None) for p in own_placed)
            cards.extend(output.cards)
    first = jobs[0].deck
    template = jobs[0].template
    name = first.id if len(jobs) == 1 else "cards"
    names = " + ".join(job.deck.name for job in jobs)
    info = PdfInfo(title=names, author=first.author if len(jobs) == 1 and first.author else "cardgen",
                   subject=_subject(template, options), label=names, color_space=options["color_space"],
                   keywords=_keywords(template))
    combined = Output(out_dir / f"{name}.pdf", tuple(cards))
    pages = write_pdf(combined.path, _printing(first, template, options), drawings, placed, info)
    jobs[0].exports.append(Export(FORMAT.name, combined.path, combined.count, pages=pages))


def face_drawings(cards: tuple[Card, ...], faces: Faces) -> tuple[dict, list[PlacedCard]]:
    """The distinct drawings of ``cards`` and each printed card's face and back keys."""
    keys = [(PlacedCard(faces.face(card), faces.back(card)), card.copies) for card in cards]
    used = {key for placed, _ in keys for key in (placed.face, placed.back) if key}
    drawings = {key: faces.drawings[key] for key in used}
    # one of each distinct card, then the next round of copies: a deck of 10 distinct
    # cards in 4 copies fills one sheet that repeats, as the original printed it
    placed: list[PlacedCard] = []
    for round_ in range(max((copies for _, copies in keys), default=0)):
        placed.extend(card for card, copies in keys if copies > round_)
    return drawings, placed


def write_output(deck: Deck, output: Output, template: SheetTemplate, options: Mapping[str, Any],
                 faces: Faces) -> int:
    """The sheets of one output; returns its pages."""
    from .sheets import PdfInfo, write_pdf

    drawings, placed = face_drawings(output.cards, faces)
    who = f" – {output.player.name}" if output.player else " – shared cards" if output.owner == -1 and \
        deck.per_player else ""
    info = PdfInfo(title=f"{deck.name}{who}", author=deck.author or "cardgen",
                   subject=_subject(template, options), label=f"{deck.name}{who}",
                   color_space=options["color_space"], keywords=_keywords(template))
    return write_pdf(output.path, _printing(deck, template, options), drawings, placed, info)


def _printing(deck: Deck, template: SheetTemplate, options: Mapping[str, Any]) -> Printing:
    back, front = options["back_offset"], options["front_offset"]
    return Printing(template, options["duplex"], (mm(back[0]), mm(back[1])), (mm(front[0]), mm(front[1])),
                    portrait=turns(template, deck.landscape), backs_at_end=options["backs_at_end"],
                    back_marks=options["back_marks"])


def _keywords(template: SheetTemplate) -> str:
    from .sheets import size_keyword

    return size_keyword("paper", template.page_width, template.page_height)


def _subject(template: SheetTemplate, options: Mapping[str, Any]) -> str:
    duplex = options["duplex"]
    flip = "fronts only" if duplex == "off" else "backs at the end" if options["backs_at_end"] else \
        f"{duplex}-edge duplex"
    return f"print-and-play cards on {template.name} ({template.description}), {flip}; print at 100 %"
