"""Type0 font embedding benchmark (cardgen/render/pdffont.py), against reportlab's TrueType fonts.

    .venv/bin/python bench/pdffont.py

Prints, each the fastest of --repeat timings (the machine is shared):

  subset      the font program of one PDF's glyphs, built from the face's cached glyphs: DejaVu Sans
              for a typical deck's text (target under 2 ms), next to reportlab's own subsetter
              (TTFontFile.makeSubset, by character) and fontTools' Subsetter for the same glyphs;
              and Noto Sans CJK JP (CFF outlines, converted) for 500 distinct characters
  first use   a fresh process opening Noto Sans CJK's collection and using its 500 glyphs, the
              CFF-to-TrueType conversion included
  use         font.use(doc, glyphs) per text run once the glyphs are known (the drawing hot path),
              next to reportlab's TTFont.splitString of the same text (what it replaces)
  PDF bytes   a sample page of card text written with pdffont against reportlab's TTFont
              (canvas.drawString), the same text in both: a ratio
"""
from __future__ import annotations

import argparse
import io
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.render.pdffont import EmbeddedFont, embedded_font  # noqa: E402
from cardgen.resources import bundled  # noqa: E402

DEJAVU = bundled("fonts") / "DejaVuSans.ttf"
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
DECK_TEXT = ("Draw two cards, then discard one. Each player may pass a card to the left. Gain 3 coins; "
             "if you have 10 or more, score 1 point (max. 5). Server Farm: 4 parts = 3 points! Aeron "
             "Chairs? Foosball Table, Source Code & Domain Name [x2] - \"quoted\" 'text' / 100% 7890 QZJKXY")
#: 500 distinct characters: kana and the most common kanji, as a Japanese deck's rules would use
CJK_TEXT = ("".join(chr(c) for c in range(0x3041, 0x3097)) + "".join(chr(c) for c in range(0x30A1, 0x30FB))
            + "".join(chr(c) for c in range(0x4E00, 0x4E00 + 500 - 86 - 90)) + "、。「」")


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def shape(path: Path, text: str, index: int = 0) -> list[tuple[int, int, int, int, int]]:
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(str(path)), index)
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(hb.Font(face), buf, {"kern": True, "liga": True})
    return [(i.codepoint, p.x_advance, p.x_offset, p.y_offset, i.cluster)
            for i, p in zip(buf.glyph_infos, buf.glyph_positions)]


def subset_times(font: EmbeddedFont, gids: set[int], repeat: int) -> tuple[float, float, int, int]:
    """Seconds to build the program (no cache) and to compress it, and its bytes raw and compressed."""
    import zlib

    font.subset_program(gids)  # glyphs read (or converted) once, as the first use in a process does
    closure = font._closure(gids)
    program = font._build(closure)
    return (best(lambda: font._build(closure), repeat), best(lambda: zlib.compress(program), repeat),
            len(program), len(zlib.compress(program)))


def reportlab_subset_time(text: str, repeat: int) -> float:
    from reportlab.pdfbase.ttfonts import TTFontFile

    face = TTFontFile(str(DEJAVU))
    codes = sorted({ord(c) for c in text})
    subset = [0] + codes[:255]
    return best(lambda: face.makeSubset(subset), repeat)


def fonttools_subset_time(gids: set[int], repeat: int) -> float:
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    data = DEJAVU.read_bytes()

    def once():
        font = TTFont(io.BytesIO(data), lazy=True)
        options = subset.Options()
        options.retain_gids, options.hinting, options.layout_features = True, False, []
        options.drop_tables += ["GSUB", "GPOS", "GDEF", "kern", "name", "cmap", "OS/2"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(gids=sorted(gids))
        subsetter.subset(font)
        font.save(io.BytesIO())

    return best(once, max(1, repeat // 10))


def first_use_cjk() -> float:
    """Seconds in a fresh process from the file's bytes to 500 glyphs used."""
    code = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
from bench.pdffont import shape, CJK, CJK_TEXT
from cardgen.render.pdffont import EmbeddedFont
from reportlab.pdfgen.canvas import Canvas
import io
glyphs = shape(CJK, CJK_TEXT)
data = CJK.read_bytes()
start = time.perf_counter()
font = EmbeddedFont(data, 0, "cjk")
font.use(Canvas(io.BytesIO())._doc, [(g[0], "") for g in glyphs])
print(time.perf_counter() - start)
"""
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def use_time(repeat: int) -> float:
    """Seconds per font.use call for a 40-glyph run whose glyphs the document already has."""
    font = embedded_font(DEJAVU)
    runs = [[(g[0], DECK_TEXT[g[4]]) for g in shape(DEJAVU, DECK_TEXT[i:i + 40])] for i in range(0, 200, 40)]
    return _per_call(font.use, runs, repeat)


def split_time(repeat: int) -> float:
    """Seconds per reportlab TTFont.splitString of the same 40-character runs (what use() replaces)."""
    from reportlab.pdfbase.ttfonts import TTFont

    font = TTFont("BenchSplit", str(DEJAVU))
    return _per_call(lambda doc, run: font.splitString(run, doc), [DECK_TEXT[i:i + 40] for i in range(0, 200, 40)],
                     repeat)


def _per_call(call, runs: list, repeat: int, calls: int = 2000) -> float:
    """Seconds per ``call(doc, run)`` over ``runs`` into one document, each run seen once before timing."""
    from reportlab.pdfgen.canvas import Canvas

    doc = Canvas(io.BytesIO())._doc
    for run in runs:
        call(doc, run)

    def many():
        for _ in range(calls // len(runs)):
            for run in runs:
                call(doc, run)

    return best(many, repeat) / calls


def page_bytes() -> tuple[int, int]:
    """Bytes of one page of card text through reportlab's TTFont and through pdffont."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    lines = [DECK_TEXT[i:i + 60] for i in range(0, len(DECK_TEXT), 60)] * 8

    pdfmetrics.registerFont(TTFont("BenchDejaVu", str(DEJAVU)))
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    canvas.setFont("BenchDejaVu", 10)
    for n, line in enumerate(lines):
        canvas.drawString(40, 800 - 14 * n, line)
    canvas.save()
    reportlab_size = len(out.getvalue())

    font = embedded_font(DEJAVU)
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1)
    for n, line in enumerate(lines):
        glyphs = shape(DEJAVU, line)
        name = font.use(canvas._doc, [(g[0], line[g[4]]) for g in glyphs])
        canvas._code.append(f"BT {name} 10 Tf 1 0 0 1 40 {800 - 14 * n} Tm "
                            f"{font.glyph_operators([g[:4] for g in glyphs], 10)} ET")
    canvas.save()
    return reportlab_size, len(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=50, help="timings of each figure; the fastest is printed")
    args = parser.parse_args()

    dejavu = embedded_font(DEJAVU)
    gids = {g[0] for g in shape(DEJAVU, DECK_TEXT)}
    build, pack, raw, packed = subset_times(dejavu, gids, args.repeat)
    peer = reportlab_subset_time(DECK_TEXT, args.repeat)
    tools = fonttools_subset_time(gids, args.repeat)
    print(f"subset DejaVu Sans, {len(gids)} glyphs: {build * 1e3:.2f} ms build + {pack * 1e3:.2f} ms Flate "
          f"({raw:,} bytes, {packed:,} compressed); reportlab makeSubset {peer * 1e3:.2f} ms "
          f"(ratio {build / peer:.2f}), fontTools Subsetter {tools * 1e3:.1f} ms (ratio {build / tools:.3f})")
    if CJK.exists():
        cjk = embedded_font(CJK, 0)
        cjk_gids = {g[0] for g in shape(CJK, CJK_TEXT)}
        start = time.perf_counter()
        cjk.subset_program(cjk_gids)
        converted = time.perf_counter() - start
        build, pack, raw, packed = subset_times(cjk, cjk_gids, max(3, args.repeat // 5))
        print(f"subset Noto Sans CJK JP (CFF, converted), {len(cjk_gids)} glyphs: {build * 1e3:.2f} ms build + "
              f"{pack * 1e3:.2f} ms Flate ({raw:,} bytes, {packed:,} compressed); conversion in this process "
              f"{converted:.2f} s")
        print(f"first use of Noto Sans CJK JP, {len(cjk_gids)} glyphs, fresh process: {first_use_cjk():.2f} s")
    else:
        print(f"{CJK} missing: apt-get install fonts-noto-cjk for the CJK figures")
    use, split = use_time(args.repeat // 10 or 1), split_time(args.repeat // 10 or 1)
    print(f"font.use per 40-glyph run: {use * 1e6:.2f} us; reportlab TTFont.splitString of the same "
          f"text {split * 1e6:.2f} us (ratio {use / split:.2f})")
    reportlab_size, ours = page_bytes()
    print(f"PDF bytes, one page of card text: reportlab TTFont {reportlab_size:,}, pdffont {ours:,} "
          f"(ratio {ours / reportlab_size:.2f})")


if __name__ == "__main__":
    main()
