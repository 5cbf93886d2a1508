"""Writers: one per output format, each declared once as a ``Format`` in ``FORMATS``.

A format says its name (what ``cardgen build --format`` takes), its help, the
build settings it reads, the files it writes and its writer. The build asks
this registry for the writers of the formats wanted and names none itself:

- ``pdf`` (``export.pdf``): the duplex sheet PDF, the default;
- ``png`` (``export.png``): a PNG per card and back, with ``manifest.csv``;
- ``pdf-cards`` (``export.pdf_cards``): one card per page for print shops;
- ``tts`` (``export.tts``): Tabletop Simulator deck sheets and saved object.

The drawing code lives in ``sheets`` (the sheet PDF) and ``cards`` (card by
card, also the PNGs ``cardgen preview`` shows); they import reportlab and
pillow, which the format modules import only when they write, so the command
line lists the formats without loading them. A new format is a module here
declaring its ``FORMAT`` (an ``export.formats.Format``), added to ``FORMATS``
below.
"""
from __future__ import annotations

from typing import Any

from . import pdf, pdf_cards, png, tts
from .formats import DeckJob, Export, Format, Output

__all__ = ["DEFAULT_FORMAT", "FORMATS", "DeckJob", "Export", "Format", "Output"]

#: every format ``cardgen build --format`` can write, by name, in the order a build writes them
FORMATS: dict[str, Format] = {f.name: f for f in (pdf.FORMAT, png.FORMAT, pdf_cards.FORMAT, tts.FORMAT)}
#: what a build writes when no format is named
DEFAULT_FORMAT = "pdf"


def __getattr__(name: str) -> Any:
    if name in ("PdfInfo", "write_pdf"):
        from . import sheets

        return getattr(sheets, name)
    raise AttributeError(name)
