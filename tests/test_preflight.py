"""`cardgen preflight`: what a print shop checks. Every PDF cardgen writes for the bundled decks and the
examples passes; a PDF made to fail each check is flagged (exit 1); a file that is no PDF is exit 2."""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import CardgenError
from cardgen.preflight import DEFAULT_MIN_PPI, preflight, problems
from cardgen.render.layout import WARN_PPI

EXAMPLES = ["examples/argonauts/argonauts.yaml", "examples/poker/poker.yaml", "examples/gops/gops.yaml",
            "examples/international/international.yaml"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> list[Path]:
    """Every bundled deck and example as sheets and as pdf-cards."""
    from click.testing import CliRunner

    from cardgen.cli import main

    out = tmp_path_factory.mktemp("built")
    for decks in ([], [str(ROOT / e) for e in EXAMPLES]):
        result = CliRunner().invoke(main, ["build", *decks, "--out", str(out), "--format", "pdf",
                                           "--format", "pdf-cards"])
        assert result.exit_code == 0, result.output
    return sorted(out.glob("*.pdf"))


def test_every_bundled_deck_and_example_passes(built):
    assert len(built) >= 20
    for path in built:
        checks = preflight(path, color_space="rgb")
        assert problems(checks) == [], path
        # cardgen wrote each file's size into it, so the page size was checked too
        assert any(c.check == "colour" and c.severity == "note" for c in checks)


def test_every_bundled_deck_and_example_passes_in_cmyk_and_build_strict_runs_it(tmp_path):
    """Built with --color-space cmyk (and --strict, which runs preflight in the build's colour space),
    every bundled deck and example passes preflight under cmyk: no RGB anywhere, fonts embedded."""
    from click.testing import CliRunner

    from cardgen.cli import main

    for decks in ([], [str(ROOT / e) for e in EXAMPLES]):
        result = CliRunner().invoke(main, ["build", *decks, "--out", str(tmp_path), "--format", "pdf",
                                           "--format", "pdf-cards", "--color-space", "cmyk", "--strict"])
        assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.glob("*.pdf"))
    assert len(pdfs) >= 20
    for path in pdfs:
        checks = preflight(path, color_space="cmyk")
        assert problems(checks) == [], path
        assert any(c.check == "colour" and "CMYK" in c.message for c in checks), path
    # an RGB build of the same deck is flagged under cmyk
    rgb = tmp_path / "rgb"
    result = CliRunner().invoke(main, ["build", "dotcombust", "--out", str(rgb)])
    assert result.exit_code == 0, result.output
    assert problems(preflight(rgb / "dotcombust.pdf", color_space="cmyk"))


def test_cardgen_writes_the_size_it_trims_to_so_a_changed_page_is_caught(built, tmp_path):
    from pypdf import PdfReader, PdfWriter

    sheets = next(p for p in built if p.name == "dotcombust.pdf")
    writer = PdfWriter(clone_from=PdfReader(sheets))
    page = writer.pages[0]
    page.mediabox.upper_right = (595, 842)  # A4 instead of the template's Letter
    page.trimbox = page.bleedbox = page.mediabox
    changed = tmp_path / "changed.pdf"
    writer.write(changed)
    found = problems(preflight(changed))
    assert [(c.page, c.check) for c in found] == [(1, "size")]
    assert "not the paper" in found[0].message


def canvas_pdf(path: Path, draw, size=(252, 144), boxes: bool = True) -> Path:
    """A one-page PDF of ``size`` drawn by ``draw(canvas)``, TrimBox and BleedBox the page unless not
    ``boxes``; its text font is cardgen's embedded one, so only what ``draw`` does can fail."""
    from cardgen.render import text

    text.register_fonts()
    canvas = Canvas(str(path), pagesize=size, initialFontName=text.REGULAR)
    if boxes:
        canvas.setTrimBox((0, 0, *size))
        canvas.setBleedBox((0, 0, *size))
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return path


def checks_of(path: Path, **options) -> set[str]:
    return {c.check for c in problems(preflight(path, **options))}


def nothing(canvas) -> None:
    canvas.setFillColorRGB(0.2, 0.4, 0.6)
    canvas.rect(10, 10, 50, 50, fill=1, stroke=0)


def test_a_clean_pdf_made_here_passes(tmp_path):
    assert checks_of(canvas_pdf(tmp_path / "clean.pdf", nothing)) == set()


def test_an_unembedded_helvetica_is_flagged_with_its_page(tmp_path, cli):
    def helvetica(canvas):
        canvas.setFont("Helvetica", 10)
        canvas.drawString(10, 10, "not embedded")

    path = canvas_pdf(tmp_path / "helvetica.pdf", helvetica)
    [found] = problems(preflight(path))
    assert (found.page, found.check) == (1, "font")
    assert "Helvetica" in found.message and "not embedded" in found.message
    result = cli("preflight", path)
    assert result.exit_code == 1
    assert "page 1: problem: font: font /F" in result.output


def test_rgb_is_a_problem_only_under_cmyk_and_cmyk_is_fine_under_rgb(tmp_path, cli):
    rgb = canvas_pdf(tmp_path / "rgb.pdf", nothing)

    def cmyk_only(canvas):
        canvas.setFillColorCMYK(0, 0, 0, 1)
        canvas.setStrokeColorCMYK(0, 0, 0, 1)
        canvas.rect(10, 10, 50, 50, fill=1, stroke=1)

    cmyk = canvas_pdf(tmp_path / "cmyk.pdf", cmyk_only)
    assert checks_of(rgb, color_space="cmyk") == {"colour"}
    assert checks_of(rgb, color_space="rgb") == checks_of(rgb, color_space="any") == set()
    assert checks_of(cmyk, color_space="cmyk") == checks_of(cmyk, color_space="rgb") == set()
    result = cli("preflight", rgb, "--color-space", "cmyk")
    assert result.exit_code == 1 and "RGB colour in a CMYK file: DeviceRGB (fill)" in result.output
    assert cli("preflight", cmyk, "--color-space", "cmyk").exit_code == 0


def test_an_rgb_image_is_a_problem_under_cmyk(tmp_path):
    def picture(canvas):
        canvas.drawImage(ImageReader(Image.new("RGB", (300, 300), "red")), 0, 0, 72, 72)

    path = canvas_pdf(tmp_path / "image.pdf", picture)
    found = list(problems(preflight(path, color_space="cmyk")))
    assert [c.check for c in found] == ["colour"] and "DeviceRGB (image)" in found[0].message


def image_at(pixels: int, inches: float):
    def draw(canvas):
        canvas.drawImage(ImageReader(Image.new("RGB", (pixels, pixels), "gray")), 10, 10, inches * 72, inches * 72)

    return draw


def test_an_image_below_the_resolution_is_flagged_at_its_printed_size(tmp_path, cli):
    low = canvas_pdf(tmp_path / "low.pdf", image_at(72, 1.0))
    sharp = canvas_pdf(tmp_path / "sharp.pdf", image_at(300, 1.0))
    [found] = problems(preflight(low))
    assert found.check == "image" and "72 x 72 px prints at 72 ppi" in found.message
    assert checks_of(sharp) == set()
    # the same 72 px placed at a quarter inch print at 288 ppi: the CTM decides, not the pixels
    assert checks_of(canvas_pdf(tmp_path / "small.pdf", image_at(72, 0.25)), min_ppi=280) == set()
    assert checks_of(low, min_ppi=70) == set()
    result = cli("preflight", low)
    assert result.exit_code == 1 and "below 300 ppi" in result.output


def test_the_default_resolution_is_the_builds_own_art_warning():
    assert DEFAULT_MIN_PPI == WARN_PPI


def stroke(width: float, scale: float = 1.0):
    def draw(canvas):
        canvas.scale(scale, scale)
        canvas.setLineWidth(width)
        canvas.line(1, 1, 20, 20)

    return draw


def test_hairlines_after_the_ctm_scaling_and_0_width_strokes_are_flagged(tmp_path):
    thin = problems(preflight(canvas_pdf(tmp_path / "thin.pdf", stroke(0.1))))
    assert [c.check for c in thin] == ["hairline"] and "0.1 pt wide, thinner than 0.25 pt" in thin[0].message
    zero = problems(preflight(canvas_pdf(tmp_path / "zero.pdf", stroke(0))))
    assert [c.check for c in zero] == ["hairline"] and "0-width" in zero[0].message
    assert checks_of(canvas_pdf(tmp_path / "scaled-up.pdf", stroke(0.1, scale=10))) == set()
    assert checks_of(canvas_pdf(tmp_path / "scaled-down.pdf", stroke(1, scale=0.1))) == {"hairline"}
    assert checks_of(canvas_pdf(tmp_path / "fine.pdf", stroke(0.25))) == set()


def test_a_hairline_inside_a_form_is_found_through_the_forms_matrix(tmp_path):
    def form(canvas):
        canvas.beginForm("thin")
        canvas.setLineWidth(1)
        canvas.line(0, 0, 10, 10)
        canvas.endForm()
        canvas.scale(0.2, 0.2)
        canvas.doForm("thin")

    assert checks_of(canvas_pdf(tmp_path / "form.pdf", form)) == {"hairline"}


def test_missing_and_misplaced_trim_and_bleed_boxes_are_flagged(tmp_path, cli):
    missing = canvas_pdf(tmp_path / "missing.pdf", nothing, boxes=False)
    messages = [c.message for c in problems(preflight(missing))]
    assert any(m.startswith("no TrimBox") for m in messages) and any(m.startswith("no BleedBox") for m in messages)

    def inverted(canvas):
        canvas.setTrimBox((0, 0, 252, 144))  # the trim larger than the bleed round it
        canvas.setBleedBox((9, 9, 243, 135))

    wrong = canvas_pdf(tmp_path / "inverted.pdf", inverted, boxes=False)
    [found] = problems(preflight(wrong))
    assert found.check == "boxes" and "TrimBox [0 0 252 144] is not inside the BleedBox" in found.message

    def outside(canvas):
        canvas.setTrimBox((9, 9, 243, 135))
        canvas.setBleedBox((-9, -9, 261, 153))

    [found] = problems(preflight(canvas_pdf(tmp_path / "outside.pdf", outside, boxes=False)))
    assert "BleedBox [-9 -9 261 153] is not inside the MediaBox" in found.message
    assert cli("preflight", missing).exit_code == 1


def test_the_page_size_is_checked_against_the_named_card_or_paper(tmp_path, cli):
    business = canvas_pdf(tmp_path / "business.pdf", nothing)  # 3.5 x 2 in
    assert checks_of(business, card="business") == set()
    assert checks_of(business, card="2x3.5in") == set()  # either way round
    [found] = problems(preflight(business, card="poker"))
    assert found.check == "size" and "3.5 x 2 in, not the card size poker (2.5 x 3.5 in)" in found.message
    result = cli("preflight", business, "--card", "poker")
    assert result.exit_code == 1 and "page 1: problem: size" in result.output
    assert checks_of(canvas_pdf(tmp_path / "a4.pdf", nothing, size=(595.28, 841.89)), paper="a4") == set()
    assert checks_of(business, paper="letter") == {"size"}
    assert cli("preflight", business, "--card", "pokr").exit_code == 2  # a typo: did you mean


def test_json_lists_each_file_with_its_checks(tmp_path, cli):
    import json

    path = canvas_pdf(tmp_path / "thin.pdf", stroke(0.1))
    result = cli("preflight", path, "--json")
    assert result.exit_code == 1
    [entry] = json.loads(result.output)
    assert entry["problems"] == 1
    assert {"file": str(path), "page": 1, "check": "hairline", "severity": "problem"}.items() <= \
        entry["checks"][0].items()


def run(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", "preflight", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_garbage_truncated_and_missing_files_are_exit_2_with_one_line(tmp_path, built):
    good = next(p for p in built if p.name == "dotcombust.pdf").read_bytes()
    inputs = {"garbage.pdf": os.urandom(4000), "text.pdf": b"hello", "empty.pdf": b"",
              "cut.pdf": good[:3000], "header-only.pdf": b"%PDF-1.7\n%%EOF\n"}
    for name, data in inputs.items():
        (tmp_path / name).write_bytes(data)
    for name in [*inputs, "missing.pdf", "."]:
        result = run(name, cwd=tmp_path)
        output = result.stdout + result.stderr
        assert result.returncode == 2, (name, output)
        assert "Traceback" not in output
        assert len(output.strip().splitlines()) == 1 and output.startswith("Error: "), (name, output)
        assert name.rstrip(".") in output


def test_a_pdf_cut_anywhere_or_with_bytes_changed_never_raises_past_a_cardgen_error(built, tmp_path):
    import random

    data = next(p for p in built if p.name == "argonauts-cards.pdf").read_bytes()
    rng = random.Random(7)
    for n in range(60):
        raw = bytearray(data[: rng.randrange(len(data))] if n % 2 else data)
        for _ in range(rng.choice([1, 20, 200])):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        path = tmp_path / f"mutated-{n}.pdf"
        try:
            path.write_bytes(bytes(raw))
            with contextlib.suppress(CardgenError):
                preflight(path)
        finally:
            path.unlink(missing_ok=True)


def _hostile(tmp_path: Path, body: bytes) -> Path:
    """A PDF of one page whose content draws form /X, written by hand with a correct xref."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /TrimBox [0 0 100 100] "
               b"/BleedBox [0 0 100 100] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>"),
               b"<< /Length 6 >>\nstream\n/X Do\n\nendstream", body]
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + obj + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    path = tmp_path / "hostile.pdf"
    path.write_bytes(out.getvalue())
    return path


def test_a_form_that_draws_itself_is_refused_not_followed_forever(tmp_path):
    path = _hostile(tmp_path, b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject "
                              b"<< /X 5 0 R >> >> /Length 5 >>\nstream\n/X Do\nendstream")
    with pytest.raises(CardgenError, match="form /X draws itself"):
        preflight(path)
    result = run(path, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_build_strict_runs_preflight_on_what_it_writes_and_removes_its_pdfs(tmp_path, cli):
    (tmp_path / "thin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" '
                                       'viewBox="0 0 100 100"><line x1="0" y1="0" x2="100" y2="100" '
                                       'stroke="black" stroke-width="0.1"/></svg>', encoding="utf-8")
    deck = tmp_path / "thin.yaml"
    deck.write_text("deck: thin\nname: Thin\ncards:\n  - {id: a, title: A, image: thin.svg}\n", encoding="utf-8")
    out = tmp_path / "out"
    result = cli("build", deck, "--out", out, "--format", "pdf", "--format", "pdf-cards", "--strict")
    assert result.exit_code == 1, result.output
    assert "--strict: 2 preflight problems in what the build wrote, so its PDFs are removed" in result.output
    assert "thin.pdf: page 1: problem: hairline" in result.output
    assert not list(out.glob("*.pdf"))
    # without --strict the same build writes both, and preflight says what a shop would
    assert cli("build", deck, "--out", out, "--format", "pdf", "--format", "pdf-cards").exit_code == 0
    assert cli("preflight", out / "thin.pdf").exit_code == 1
    # a clean deck builds under --strict as before
    assert cli("build", "dotcombust", "--out", tmp_path / "clean", "--strict").exit_code == 0


@pytest.mark.parametrize("space", ["rgb", "cmyk"])
def test_the_calibration_sheet_passes_with_its_trim_and_bleed_boxes(tmp_path, cli, space):
    out = tmp_path / "calibration.pdf"
    result = cli("calibrate", "--out", str(out), "--color-space", space)
    assert result.exit_code == 0, result.output
    assert problems(preflight(out, color_space=space)) == []
    assert b"cardgen-paper=" in out.read_bytes()  # the size its pages are checked against
