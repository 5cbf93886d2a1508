"""What preflight tools check: embedded fonts, a header that matches, metadata, a label on every page."""
from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from conftest import ROOT

from cardgen.build import build_decks
from cardgen.prepare import BuildSettings
from cardgen.units import mm

BUNDLED = ["common-carrier", "dotcombust", "clusterfuck"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdfs")
    build_decks(BUNDLED, out, BuildSettings())
    build_decks(["clusterfuck"], out / "at-end", BuildSettings(backs_at_end=True))
    return out


def pdfs(folder):
    return sorted(folder.glob("*.pdf"))


def test_every_font_a_pdf_names_is_embedded(built):
    for path in pdfs(built):
        raw = path.read_bytes()
        # a Type0 font and its CID font carry one name: each subset-embedded, one font program each
        names = set(re.findall(rb"/BaseFont /([\w+-]+)", raw))
        assert names and all(b"+" in name for name in names), (path.name, names)
        assert raw.count(b"/FontFile2") == len(names), path.name
        assert raw.count(b"/Subtype /Type0") == len(names), path.name
        assert b"Helvetica" not in raw


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    """The examples, SVG art and all, as sheets and as one PDF per card."""
    out = tmp_path_factory.mktemp("examples")
    build_decks([str(ROOT / "examples" / name / f"{name}.yaml") for name in ("argonauts", "poker")], out,
                BuildSettings(formats=("pdf", "pdf-cards")))
    return out


def _object(raw: bytes, number: int) -> bytes:
    match = re.search(rb"\n%d 0 obj\s*(.*?)endobj" % number, raw, re.S)
    assert match, number
    return match.group(1)


def test_every_font_dictionary_of_a_deck_with_svg_art_has_its_font_file(examples):
    """svglib's forms once started each drawing in Helvetica (``BT /F1 10 Tf ET``), a font a PDF
    names and never embeds: every font dictionary must point to a descriptor with a font file."""
    files = pdfs(examples)
    assert {p.name for p in files} >= {"argonauts.pdf", "argonauts-cards.pdf"}
    for path in files:
        raw = path.read_bytes()
        fonts = [m.start() for m in re.finditer(rb"/Type /Font\b", raw)]
        assert fonts, path.name
        for number in map(int, re.findall(rb"\n(\d+) 0 obj\s*<<[^>]*?/Type /Font\b", raw)):
            font = _object(raw, number)
            descendant = re.search(rb"/DescendantFonts \[ ?(\d+) 0 R", font)
            if descendant:  # a Type0 font: its CID font has the descriptor
                font = _object(raw, int(descendant.group(1)))
            descriptor = re.search(rb"/FontDescriptor (\d+) 0 R", font)
            assert descriptor, (path.name, font)  # the standard 14 fonts have none: never embedded
            assert re.search(rb"/FontFile[23]? \d+ 0 R", _object(raw, int(descriptor.group(1)))), path.name
        assert b"Helvetica" not in raw, path.name


def test_the_header_version_matches_the_viewer_preferences(built):
    for path in pdfs(built):
        raw = path.read_bytes()
        assert raw.startswith(b"%PDF-1.7") and b"/Duplex /DuplexFlipLongEdge" in raw  # Duplex is PDF 1.7
    at_end = (built / "at-end" / "clusterfuck.pdf").read_bytes()
    assert at_end.startswith(b"%PDF-1.6") and b"/Duplex" not in at_end and b"/PrintScaling /None" in at_end


def test_title_author_subject_and_creator_are_set(built):
    meta = pdfium.PdfDocument(str(built / "common-carrier-player-2.pdf")).get_metadata_dict()
    assert meta["Title"] == "Common Carrier – Player 2"
    assert meta["Author"] == "cardgen" and meta["Creator"].startswith("cardgen ")
    assert "letter-10up" in meta["Subject"] and "print at 100 %" in meta["Subject"]


def test_every_page_fronts_and_backs_has_a_label_at_least_6_mm_from_the_edge(built):
    pdf = pdfium.PdfDocument(str(built / "dotcombust.pdf"))
    sheets = len(pdf) // 2
    for index in range(len(pdf)):
        page = pdf[index]
        textpage = page.get_textpage()
        words = textpage.get_text_range()
        side = "fronts" if index % 2 == 0 else "backs"
        label = f"dotCOMbust · sheet {index // 2 + 1}/{sheets} · {side}"
        assert label in words, (index, words[-80:])
        start = words.index(label)
        boxes = [textpage.get_charbox(i) for i in range(start, start + len(label))]
        width, _ = page.get_size()
        assert min(b[1] for b in boxes) >= mm(6) - 0.01  # bottom edge
        assert min(b[0] for b in boxes) >= mm(6) - 0.01 and max(b[2] for b in boxes) <= width - mm(6)
