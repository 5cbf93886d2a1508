"""The canvas cardgen's PDFs are written on: reportlab's, its forms given every resource they use.

cardgen draws each art file, face and back once as a Form XObject. reportlab's ``endForm`` keeps a
form's fonts and the forms it calls but leaves out the gradients (``/Shading``), the opacities
(``/ExtGState``) and separation colours (``/ColorSpace``) its marks name, which a page's resources
carry: a viewer then cannot find them, and draws an SVG's gradient black and its translucent fill
opaque (Ghostscript: "Couldn't find named resource"). ``PdfCanvas.endForm`` gives such a form the
resources a page would have; a form that names none of them is written as reportlab writes it.
"""
from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName
from reportlab.pdfgen.canvas import Canvas


class PdfCanvas(Canvas):
    """reportlab's canvas, whose forms list the shadings, graphics states and colour spaces they use."""

    def endForm(self, **extra_attributes: Any) -> None:
        name = self._formData[0]
        shadings, colours = dict(self._shadingUsed), dict(self._colorsUsed)
        super().endForm(**extra_attributes)
        form = self._doc.idToObject[xObjectName(name)]
        if shadings or colours or form.ExtGState:
            form.Resources = _resources(form, shadings, colours)


def _resources(form: Any, shadings: dict[str, str], colours: dict[str, str]) -> PDFResourceDictionary:
    """A form's resources as reportlab makes a page's (``PDFPage.format``): its fonts, procedure
    sets (images among them, as for every form) and forms, with the graphics states, shadings and
    colour spaces a form's are left without."""
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if form.ExtGState:
        resources.ExtGState = form.ExtGState
    resources.setShading(shadings)
    resources.setColorSpace(colours)
    return resources
