"""Automatic imposition: the sheet template that puts the most cards of a size on a paper.

``fit(paper, card, margin, gap)`` is pure geometry: it tries the cards
upright and turned 90 degrees, keeps the grid that holds more (upright on a
tie), and centres it on the page inside the printable margin. Cards touch
(one cut between neighbours) unless ``gap`` leaves room for bleed between
them. Turned cards are drawn turned in their slots by ``impose`` (see
``Printing.portrait``), and their backs turn with them.
"""
from __future__ import annotations

from ..errors import CardgenError
from ..units import mm
from . import OUTER_BLEED, SheetTemplate
from .sizes import Size, describe

#: the printable margin when none is given: inside what most home printers reach
DEFAULT_MARGIN = mm(5)
MAX_MARGIN = mm(50)
MAX_GAP = mm(20)
#: the most slots one page may have (the loader's grid allows 20 x 20)
MAX_SLOTS_SIDE = 20


def fit(paper: Size, card: Size, margin: float = DEFAULT_MARGIN, gap: float = 0.0) -> SheetTemplate:
    """The template printing ``card`` (as it stands) on ``paper`` (portrait): most cards a page."""
    width, height = paper.width, paper.height
    best: tuple[int, int, int, Size] | None = None
    for turn, slot in ((0, card), (1, card.turned())):
        columns = _count(width - 2 * margin, slot.width, gap)
        rows = _count(height - 2 * margin, slot.height, gap)
        if columns * rows and (best is None or columns * rows > best[0] * best[1]):
            best = (columns, rows, turn, slot)
    if best is None:
        raise CardgenError(f"a {card.label or card.name} card does not fit on {paper.label or paper.name} "
                           f"inside {margin / mm(1):g} mm margins")
    columns, rows, turned, slot = best
    used_w = columns * slot.width + (columns - 1) * gap
    used_h = rows * slot.height + (rows - 1) * gap
    between = f"{gap / mm(1):g} mm apart" if gap else "touching"
    return SheetTemplate(
        name=f"{card.name} on {paper.name}",
        description=f"{paper.label or describe(width, height)}: {columns * rows} cards of "
                    f"{card.label or describe(card.width, card.height)} ({columns} x {rows}"
                    f"{', turned' if turned else ''}), {between}, {margin / mm(1):g} mm margin",
        page_width=width, page_height=height,
        card_width=slot.width, card_height=slot.height,
        columns=columns, rows=rows,
        margin_left=(width - used_w) / 2, margin_top=(height - used_h) / 2,
        gap_column=gap if columns > 1 else 0.0, gap_row=gap if rows > 1 else 0.0,
        bleed=min(gap / 2, OUTER_BLEED) if gap else 0.0,
        stock=("plain paper or card stock",))


def _count(room: float, side: float, gap: float) -> int:
    """How many ``side``s fit in ``room`` with ``gap`` between each two."""
    if room < side - 1e-6:
        return 0
    return min(MAX_SLOTS_SIDE, int((room + gap + 1e-6) // (side + gap)))
