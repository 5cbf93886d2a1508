"""Writers: one per output format, each consuming the same imposed pages or distinct drawings.

- ``sheets``: the duplex sheet PDF (``--format pdf``, the default);
- ``cards``: one card per page for print shops (``pdf-cards``), PNG per card
  (``png``), Tabletop Simulator deck sheets and saved object (``tts``), and
  the PNGs ``cardgen preview`` shows.

The writers import reportlab; this package's own import stays light, so the
command line can list the formats without loading them.
"""
from __future__ import annotations

from typing import Any

#: what ``cardgen build --format`` can write
FORMATS = ("pdf", "png", "pdf-cards", "tts")


def __getattr__(name: str) -> Any:
    if name in ("PdfInfo", "write_pdf"):
        from . import sheets

        return getattr(sheets, name)
    raise AttributeError(name)
