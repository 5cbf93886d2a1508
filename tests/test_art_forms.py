"""SVG art is drawn once as a form that every card showing it places: its gradients and its translucent
fills must look inside that form as they do on a page (reportlab's forms once named gradients and
opacities they did not carry, so a gradient printed black and a translucent fill opaque).

The page is rendered with pypdfium2 and read where the art's gradients lie; Ghostscript (the package
``ghostscript``: tools/system_packages.sh installs it) reads every file too.
"""
from __future__ import annotations

import io
import shutil
import subprocess

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.lib.colors import toColor
from test_cmyk import GRADIENTS

from cardgen.build import build_decks
from cardgen.prepare import BuildSettings
from cardgen.render.colorspace import canvas_class, to_inks

BLUE, WHITE = (0x15 / 255, 0x65 / 255, 0xC0 / 255), (1.0, 1.0, 1.0)
GOLD, GREY = toColor("gold").rgb(), (128 / 255,) * 3
RED = (1.0, 0.0, 0.0)
#: test_cmyk's art (a linear gradient from #1565c0 to white, a radial one from gold to #808080), widened
#: to hold a half-transparent red square; 1 px of SVG is 0.75 pt of the form
ART = GRADIENTS.replace('"100" height="60" viewBox="0 0 100 60"', '"140" height="60" viewBox="0 0 140 60"').replace(
    "</svg>", '  <rect x="105" y="15" width="30" height="30" fill="#ff0000" fill-opacity="0.5"/>\n</svg>')
#: the translucent square's middle in the form's points (y up from the art's foot)
SQUARE_MIDDLE = (120 * 0.75, (60 - 30) * 0.75)
SCALE = 3
FILES = ["d.pdf", "d-cards.pdf"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A card shown once (drawn in place on the sheet) and one shown three times (a form of its own),
    both showing the art, in both colour spaces, as sheets and as a page per card."""
    assert ART.count("140") == 2 and "fill-opacity" in ART
    folder = tmp_path_factory.mktemp("gradients")
    (folder / "art").mkdir()
    (folder / "art" / "sky.svg").write_text(ART, encoding="utf-8")
    (folder / "d.yaml").write_text("deck: d\nname: D\ncards:\n"
                                   "  - {id: once, title: Once, image: art/sky.svg}\n"
                                   "  - {id: many, title: Many, image: art/sky.svg, copies: 3}\n", encoding="utf-8")
    for space in ("rgb", "cmyk"):
        build_decks([str(folder / "d.yaml")], folder / space,
                    BuildSettings(color_space=space, formats=("pdf", "pdf-cards")))
    return folder


def _mix(a, b, t: float, space: str):
    """The colour a gradient from ``a`` to ``b`` shows at ``t``, in the colour space the file writes."""
    if space == "cmyk":
        a, b = to_inks(a), to_inks(b)
    return tuple(x + (y - x) * t for x, y in zip(a, b, strict=True))


def _flat(space: str, fills) -> list[tuple[int, int, int]]:
    """How pypdfium2 shows each (colour, opacity) filled flat on a white page written in ``space``."""
    out = io.BytesIO()
    canvas = canvas_class(space)(out, pagesize=(10 * len(fills), 10))
    for i, (colour, opacity) in enumerate(fills):
        canvas.setFillColor(colour)
        canvas.setFillAlpha(opacity)
        canvas.rect(10 * i, 0, 10, 10, stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    image = pdfium.PdfDocument(out.getvalue())[0].render(scale=1).to_pil().convert("RGB")
    return [image.getpixel((10 * i + 5, 5)) for i in range(len(fills))]


def _art_placements(pdf: pdfium.PdfDocument):
    """For each page, its image and, for each placement of the art, the art form's matrix to the page
    and the bounds (in the form) of its two gradients, linear then radial."""
    for page in pdf:
        forms: list[tuple[int, pdfium.PdfMatrix]] = []
        placed: dict[int, tuple[pdfium.PdfMatrix, list]] = {}
        for obj in page.get_objects(max_depth=8):
            while forms and forms[-1][0] >= obj.level:
                forms.pop()
            if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
                outer = forms[-1][1] if forms else pdfium.PdfMatrix()
                forms.append((obj.level, obj.get_matrix().multiply(outer)))
            elif obj.type == pdfium_c.FPDF_PAGEOBJ_SHADING:
                matrix = forms[-1][1]
                placed.setdefault(id(matrix), (matrix, []))[1].append(obj.get_bounds())
        yield page.render(scale=SCALE).to_pil().convert("RGB"), page.get_height(), list(placed.values())


def _shows(image, height: float, matrix, x: float, y: float) -> tuple[int, int, int]:
    """The pixel at (x, y) of the form placed by ``matrix``."""
    px, py = matrix.on_point(x, y)
    return image.getpixel((int(px * SCALE), int((height - py) * SCALE)))


def _near(seen, wanted, tolerance: int = 8) -> bool:
    return max(abs(a - b) for a, b in zip(seen, wanted, strict=True)) <= tolerance


@pytest.mark.parametrize("space", ["rgb", "cmyk"])
@pytest.mark.parametrize("name", FILES)
def test_svg_gradients_show_their_colours_at_both_ends_wherever_the_art_is_placed(built, space, name):
    expected = _flat(space, [(_mix(BLUE, WHITE, 0.05, space), 1), (_mix(BLUE, WHITE, 0.95, space), 1),
                             (_mix(GOLD, GREY, 0.0, space), 1), (_mix(GOLD, GREY, 0.8, space), 1),
                             (_mix(RED, WHITE, 0.0, space), 0.5)])
    placements = 0
    for image, height, placed in _art_placements(pdfium.PdfDocument(str(built / space / name))):
        for matrix, ((l1, b1, r1, t1), (l2, b2, r2, t2)) in placed:
            placements += 1
            middle, radius = ((l2 + r2) / 2, (b2 + t2) / 2), (r2 - l2) / 2
            seen = [_shows(image, height, matrix, l1 + 0.05 * (r1 - l1), (b1 + t1) / 2),
                    _shows(image, height, matrix, l1 + 0.95 * (r1 - l1), (b1 + t1) / 2),
                    _shows(image, height, matrix, *middle),
                    _shows(image, height, matrix, middle[0] + 0.8 * radius, middle[1]),
                    _shows(image, height, matrix, *SQUARE_MIDDLE)]
            assert all(_near(s, e) for s, e in zip(seen, expected, strict=True)), (seen, expected)
            assert all(max(s) > 60 for s in seen)  # nothing black, where the gradients used to print black
    assert placements == 4, "the art's gradients are not drawn on each of its four cards"


def test_ghostscript_finds_every_resource_the_art_names(built):
    if shutil.which("gs") is None:
        pytest.fail("Ghostscript (gs) is missing: run tools/system_packages.sh (Debian package ghostscript)")
    for space in ("rgb", "cmyk"):
        for name in FILES:
            run = subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage",
                                  str(built / space / name)], capture_output=True, text=True, timeout=120)
            said = run.stdout + run.stderr
            assert run.returncode == 0 and "Couldn't find named resource" not in said, (space, name, said)
            assert "rror" not in said, (space, name, said)
