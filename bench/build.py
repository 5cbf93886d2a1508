"""Build benchmark: wall time, peak memory and PDF bytes.

    .venv/bin/python bench/build.py            # all cases
    .venv/bin/python bench/build.py --cards 10000 20000

Each case runs in a fresh process so peak memory (ru_maxrss) is its own.
Targets (2-core machine): both Common Carrier decks under 0.5 s of work
after imports; a 10,000-card deck under 30 s and 300 MB, growing linearly.

Then each case against its floor, a bare reportlab script drawing the same
content (same pages, same images, same text, Form XObjects where cardgen uses
them; a bare Pillow script for PNG export), as the ratio of median CPU
seconds over --repeat alternating runs. Target: every ratio under 1.5x.

    .venv/bin/python bench/build.py --only floor --repeat 5
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, nargs="*", default=[2500, 5000, 10000],
                        help="sizes of the generated deck")
    parser.add_argument("--distinct", type=int, default=200, help="distinct faces in the generated deck")
    parser.add_argument("--only", choices=("sizes", "floor"), help="run only the size table or the floor ratios")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each floor case; medians are compared")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        who, _, case = args.case.partition(":")
        print(json.dumps(run_floor_case(who, case) if who in ("cardgen", "floor") else run_case(args.case,
                                                                                               args.distinct)))
        return
    if args.only != "floor":
        run_sizes(args.cards, args.distinct)
    if args.only != "sizes":
        run_floor_cases(args.repeat)


def run_sizes(sizes: list[int], distinct: int) -> None:
    cases = ["bundled:common-carrier", "bundled:dotcombust", "bundled:clusterfuck"] + \
            [f"generated:{n}" for n in sizes]
    print(f"{'case':28} {'cards':>7} {'work s':>8} {'peak MB':>8} {'PDF KB':>9} {'us/card':>8}")
    for case in cases:
        out = subprocess.run([sys.executable, __file__, "--case", case, "--distinct", str(distinct)],
                             capture_output=True, text=True, cwd=ROOT)
        if out.returncode != 0:
            print(f"{case:28} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(out.stdout)
        print(f"{case:28} {r['cards']:>7} {r['seconds']:>8.3f} {r['peak_mb']:>8.1f} "
              f"{r['bytes'] / 1024:>9.1f} {r['seconds'] / r['cards'] * 1e6:>8.1f}")


def run_case(case: str, distinct: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from cardgen.build import BuildSettings, build_decks

    kind, _, arg = case.partition(":")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        if kind == "bundled":
            deck = arg
        else:
            deck = str(generated_deck(Path(tmp), int(arg), distinct))
        start = time.perf_counter()
        results = build_decks([deck], out, BuildSettings())
        seconds = time.perf_counter() - start
        size = sum(p.stat().st_size for p in out.glob("*.pdf"))
        cards = sum(sum(c.copies for c in o.cards) for r in results for o in r.outputs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"cards": cards, "seconds": seconds, "peak_mb": peak, "bytes": size}


def generated_deck(folder: Path, cards: int, distinct: int) -> Path:
    """A generic deck of ``cards`` cards over ``distinct`` faces."""
    distinct = min(distinct, cards)
    copies = [cards // distinct + (1 if i < cards % distinct else 0) for i in range(distinct)]
    lines = ["deck: bench", "name: Bench", "cards:"]
    icons = ["star", "server", "globe", "chair", "code", "cup"]
    for i, n in enumerate(copies):
        lines.append(f"  - {{id: card-{i}, kind: generic, copies: {n}, title: 'Card {i}', "
                     f"icon: {icons[i % len(icons)]}, text: 'Benchmark card number {i} of {distinct}.'}}")
    path = folder / "bench.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


# --- against the floor: bare reportlab (and Pillow) drawing the same content -------------------------

#: case -> cards, distinct faces, what the art is
FLOOR_CASES = {"image-per-card": (2000, 2000, "image"), "copies-of-10": (5000, 10, "icon"),
               "distinct-icons": (1000, 1000, "icon"), "png-export": (100, 100, "icon")}
IMAGE_POOL = 100
ICONS = ("star", "server", "globe", "chair", "code", "cup")


def run_floor_cases(repeat: int) -> None:
    """Each case built by cardgen and by the floor, alternately, ``repeat`` times in fresh processes;
    the ratio of the median CPU seconds."""
    print(f"{'case':16} {'cards':>6} {'faces':>6} {'cardgen s':>10} {'floor s':>8} {'ratio':>6}   target 1.5x")
    for case, (cards, faces, _) in FLOOR_CASES.items():
        times: dict[str, list[float]] = {"cardgen": [], "floor": []}
        for _ in range(max(1, repeat)):
            for who in times:
                out = subprocess.run([sys.executable, __file__, "--case", f"{who}:{case}"], capture_output=True,
                                     text=True, cwd=ROOT)
                if out.returncode != 0:
                    raise SystemExit(f"{case} ({who}) failed: {out.stderr.strip()[-2000:]}")
                times[who].append(json.loads(out.stdout)["seconds"])
        ours, floor = statistics.median(times["cardgen"]), statistics.median(times["floor"])
        print(f"{case:16} {cards:>6} {faces:>6} {ours:>10.3f} {floor:>8.3f} {ours / floor:>5.2f}x")


def run_floor_case(who: str, case: str) -> dict:
    """CPU seconds of one build of ``case``: by cardgen (after imports, from the deck file) or by the floor."""
    sys.path.insert(0, str(ROOT))
    cards, faces, art = FLOOR_CASES[case]
    png = case.startswith("png")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        deck = floor_deck(folder, cards, faces, art)
        from PIL import Image

        Image.init()  # the file format plug-ins, imported on first use: imports are not the work measured
        if who == "cardgen":
            import cardgen.export.sheets  # noqa: F401  (imported when the first PDF is written)
            from cardgen.build import BuildSettings, build_decks

            settings = BuildSettings(formats=("png",), validate=False) if png else BuildSettings()
            start = time.process_time()
            build_decks([str(deck)], folder / "out", settings)
        else:
            import pypdfium2  # noqa: F401
            import reportlab.pdfgen.canvas  # noqa: F401

            start = time.process_time()
            rows = read_rows(folder / "cards.csv")
            if png:
                floor_png(folder / "out", rows)
            else:
                floor_pdf(folder / "out.pdf", rows, copies=cards // faces)
        return {"seconds": time.process_time() - start}


def floor_deck(folder: Path, cards: int, faces: int, art: str) -> Path:
    """A CSV deck of ``faces`` distinct generic cards, ``cards`` in all; each card has an image (from a
    pool of IMAGE_POOL PNGs at 300 ppi) or a built-in icon."""
    from PIL import Image, ImageDraw

    column = "image" if art == "image" else "icon"
    if art == "image":
        (folder / "art").mkdir()
        for i in range(min(IMAGE_POOL, faces)):
            img = Image.new("RGB", (480, 360), (40 + i * 37 % 200, 90 + i * 53 % 160, 140))
            ImageDraw.Draw(img).ellipse((30 + i % 50, 20, 400, 330), fill=(250, 220 - i % 100, 60))
            img.save(folder / "art" / f"art{i}.png")
    rows = []
    for i in range(faces):
        value = f"art/art{i % IMAGE_POOL}.png" if art == "image" else ICONS[i % len(ICONS)]
        rows.append(f"c{i},Card {i},{cards // faces},Benchmark card {i}: draw a card then pass one left.,{value}")
    (folder / "cards.csv").write_text(f"id,title,copies,text,{column}\n" + "\n".join(rows) + "\n", encoding="utf-8")
    path = folder / "bench.yaml"
    path.write_text("deck: bench\nname: Bench\ncsv: cards.csv\n", encoding="utf-8")
    return path


def read_rows(path: Path) -> list[dict]:
    import csv

    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# letter-10up, the default stock: 3.5 x 2 in cards, 2 x 5 from (0.75 in, 0.5 in)
PAGE_W, PAGE_H, CARD_W, CARD_H, LEFT, TOP = 612.0, 792.0, 252.0, 144.0, 54.0, 36.0
INK, BAND = (0.2, 0.2, 0.25), (0.17, 0.19, 0.24)


def floor_pdf(target: Path, rows: list[dict], copies: int) -> None:
    """The sheets cardgen writes, drawn by hand: fronts and backs pages (long-edge flip), a form per face
    placed more than once (else drawn in place), a form per image file and icon, crop marks, page labels."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    rl_config.useA85 = 0
    regular, bold = _floor_fonts()
    c = Canvas(str(target), pagesize=(PAGE_W, PAGE_H), invariant=1, pageCompression=1, pdfVersion=(1, 7))
    art = sorted({row.get("image") or row["icon"] for row in rows})
    for i, name in enumerate(art):
        c.beginForm(f"Art{i}", 0, 0, *_art_size(target.parent, name))
        _draw_art(c, target.parent, name)
        c.endForm()
    art_form = {name: f"Art{i}" for i, name in enumerate(art)}
    c.beginForm("Back", 0, 0, CARD_W, CARD_H)
    _back(c, bold)
    c.endForm()
    c.beginForm("CropMarks")
    c.setLineWidth(0.4)
    for x in (LEFT, LEFT + CARD_W, LEFT + 2 * CARD_W):
        c.line(x, PAGE_H - TOP + 4, x, PAGE_H - 4)
        c.line(x, 4, x, PAGE_H - TOP - 5 * CARD_H - 4)
    for r in range(6):
        y = PAGE_H - TOP - r * CARD_H
        c.line(4, y, LEFT - 4, y)
        c.line(LEFT + 2 * CARD_W + 4, y, PAGE_W - 4, y)
    c.endForm()

    def face(row: dict) -> None:
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, CARD_W, CARD_H, fill=1, stroke=0)
        _words(c, row, regular, bold)
        w, h = _art_size(target.parent, row.get("image") or row["icon"])
        scale = min(CARD_W * 0.4 / w, (CARD_H * 0.78 - 14.5) / h)
        c.saveState()
        c.translate(8.5, 8.5)
        c.scale(scale, scale)
        c.doForm(art_form[row.get("image") or row["icon"]])
        c.restoreState()

    shared = copies > 1
    if shared:
        for i, row in enumerate(rows):
            c.beginForm(f"Card{i}", 0, 0, CARD_W, CARD_H)
            face(row)
            c.endForm()
    cards = [i for i in range(len(rows)) for _ in range(copies)]
    sheets = (len(cards) + 9) // 10
    for sheet in range(sheets):
        on_page = cards[sheet * 10:sheet * 10 + 10]
        for side in ("fronts", "backs"):
            for slot, i in enumerate(on_page):
                column, row = slot % 2, slot // 2
                x = LEFT + column * CARD_W if side == "fronts" else PAGE_W - LEFT - (column + 1) * CARD_W
                c.saveState()
                p = c.beginPath()
                p.rect(x, PAGE_H - TOP - (row + 1) * CARD_H, CARD_W, CARD_H)
                c.clipPath(p, stroke=0, fill=0)
                c.translate(x, PAGE_H - TOP - (row + 1) * CARD_H)
                if side == "backs":
                    c.doForm("Back")
                elif shared:
                    c.doForm(f"Card{i}")
                else:
                    face(rows[i])
                c.restoreState()
            if side == "fronts":
                c.doForm("CropMarks")
            c.setFont(regular, 6)
            c.drawString(LEFT + 4, 19, f"Bench · sheet {sheet + 1}/{sheets} · {side}")
            c.showPage()
    c.save()


def floor_png(folder: Path, rows: list[dict]) -> None:
    """A PNG per card: a PDF of one card per page, each page rendered by pypdfium2 at 300 dpi and saved
    by Pillow at zlib's fastest (its run-length strategy, as fast as level 1)."""
    import io
    import zlib

    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    folder.mkdir()
    buffer = io.BytesIO()
    regular, bold = _floor_fonts()
    c = Canvas(buffer, pagesize=(CARD_W, CARD_H), invariant=1, pageCompression=1)
    for row in rows:
        _words(c, row, regular, bold)
        c.translate(8.5, 8.5)
        _draw_art(c, folder, row["icon"], size=CARD_W * 0.4)
        c.showPage()
    _back(c, bold)
    c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buffer.getvalue())
    for i, name in enumerate([row["id"] for row in rows] + ["back"]):
        page = pdf[i]
        page.render(scale=300 / 72).to_pil().convert("RGB").save(folder / f"{name}.png",
                                                                  compress_type=zlib.Z_RLE)
        page.close()
    pdf.close()


def _words(c, row: dict, regular: str, bold: str) -> None:
    """A face's title band, title and text: the title at 15 pt bold, the text wrapped at 9 pt."""
    c.setFillColorRGB(*INK)
    c.rect(0, CARD_H * 0.78, CARD_W, CARD_H * 0.22, fill=1, stroke=0)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(bold, 15)
    c.drawString(8.5, CARD_H * 0.89 - 5, row["title"])
    c.setFillColorRGB(0, 0, 0)
    text = c.beginText(CARD_W * 0.4 + 14.5, CARD_H * 0.78 - 14)
    text.setFont(regular, 9, 11)
    for line in _lines(row["text"], regular, 9, CARD_W * 0.6 - 23):
        text.textLine(line)
    c.drawText(text)


def _back(c, bold: str) -> None:
    c.setFillColorRGB(*BAND)
    c.rect(0, 0, CARD_W, CARD_H, fill=1, stroke=0)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(bold, 18)
    c.drawCentredString(CARD_W / 2, CARD_H / 2 - 6, "Bench")


def _lines(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.lib.utils import simpleSplit as split

    return split(text, font, size, width)


def _floor_fonts() -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    fonts = ROOT / "cardgen" / "fonts"
    for name in ("DejaVuSans", "DejaVuSans-Bold"):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(fonts / f"{name}.ttf")))
    return "DejaVuSans", "DejaVuSans-Bold"


_SIZES: dict[str, tuple[float, float]] = {}


def _art_size(folder: Path, name: str) -> tuple[float, float]:
    if name not in _SIZES:
        if name.endswith(".png"):
            from PIL import Image

            with Image.open(folder / name) as img:
                _SIZES[name] = float(img.width), float(img.height)
        else:
            _SIZES[name] = 100.0, 100.0
    return _SIZES[name]


def _draw_art(c, folder: Path, name: str, size: float = 100.0) -> None:
    """An image file at its pixel size, or a built-in icon (cardgen's own drawing of it: the same marks)."""
    if name.endswith(".png"):
        w, h = _art_size(folder, name)
        c.drawImage(str(folder / name), 0, 0, w, h, mask="auto")
    else:
        from cardgen.render.icons import draw_icon

        draw_icon(c, name, size / 2, size / 2, size, (1, 1, 1), INK)


if __name__ == "__main__":
    main()
