"""Mutate the bundled decks and the starter deck, real SVG art and real XLSX workbooks, run cardgen
on each, and count what went wrong.

    .venv/bin/python tools/fuzz.py --decks 10000 --seed 1      # make fuzz: the long profile
    .venv/bin/python tools/fuzz.py --decks 50                  # a short look
    .venv/bin/python tools/fuzz.py --kind svg --kind xlsx --decks 4000 --jobs 2   # art and workbooks
    .venv/bin/python tools/fuzz.py --kind font --decks 100                       # font files
    .venv/bin/python tools/fuzz.py --kind svg --kind font --kind xlsx --decks 5000 --fork  # make fuzz, half

--kind yaml (the default) mutates deck files; svg mutates the bundled and example SVG art (numbers,
repeated elements, raster images, references to other files, entities, text, truncation) drawn as a
card's image; xlsx mutates a real workbook written by openpyxl from the examples' CSV (its XML parts:
cells, formulas without values, DOCTYPEs, inflated parts; and its zip bytes); font mutates the bundled
DejaVu faces and a Noto face where the system has one (cut short, bytes changed, table directory and
header fields made wrong), set as a deck's text font or as the bold face of a sound family.

Each mutated deck runs `cardgen build` in its own process under a time limit and an address-space
limit; with --fork, in a child forked from this process with cardgen already imported (the same
build and limits without Python's start-up, its time limit in seconds of CPU; its peak resident size
counts the pages it shares with this process, so the figure is a bound). A run is fine when it
exits 0, 1 or 2 with no traceback and, on exit 2, writes nothing.
Prints the counts (exit codes, tracebacks, hangs, memory failures, half-written outputs) and the
slowest and largest runs, and exits 1 if anything was wrong. `mutate` is also used by the test suite
(tests/test_fuzz.py), which runs a short in-process profile under hypothesis.
"""
from __future__ import annotations

import argparse
import io
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: values a careless or hostile author might type
HOSTILE = ["", "-1", "0", "1e999", "99999999999999999999", "²", "٣", "nan", "null", "~", "[", "{", "]", "}",
           "&a", "*a", "!!python/object:os.system", "!custom", "\x00", "\u202e", "'", '"', "<<", "true",
           "{x: 1}", "[1, 2]", "#zz", "../../etc/passwd", "/dev/zero", "a" * 5000, "-5mm", "1e6in", "rgba(1,2,3,9)",
           "hrad", "@", "`", "%", "\t", "\u2028", "\ufeff", "日本語", "🂡"]


def mutate(text: str, rng: random.Random, steps: int | None = None) -> str:
    """``text`` with a few random edits: lines dropped, doubled, swapped, values replaced, junk inserted."""
    lines = text.splitlines()
    for _ in range(steps or rng.randint(1, 4)):
        if not lines:
            lines = [rng.choice(HOSTILE)]
        op = rng.randrange(7)
        i = rng.randrange(len(lines))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in (3, 4):
            head, sep, _ = lines[i].partition(": ")
            lines[i] = f"{head}{sep or ': '}{rng.choice(HOSTILE)}"
        elif op == 5:
            k = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:k] + rng.choice(HOSTILE) + lines[i][k:]
        else:
            cut = rng.randrange(len(lines))
            lines = lines[:cut] + [lines[cut][: rng.randrange(len(lines[cut]) + 1)]]
    return "\n".join(lines) + "\n"


#: numbers an SVG might hold in a hostile or broken file
SVG_NUMBERS = ["1e300", "1e308", "-1e308", "nan", "inf", "-inf", "1e9", "1000000001", "0", "-0", "1e-320",
               "99999999999999999999999999", "-1", "", ".", "1e", "0x10", "1,5"]
SVG_SNIPPETS = ['<image width="10" height="10" href="data:image/png;base64,iVBORw0KGgo="/>',
                '<image width="10" height="10" xlink:href="../../../etc/passwd"/>',
                '<use href="other.svg#a"/>', '<use href="#missing"/>', '<text x="1" y="9">Hi</text>',
                '<text font-family="DejaVu Sans">Ωμέγα</text>',
                '<g transform="scale(1e300)"><rect width="9" height="9"/></g>',
                '<rect width="1e308" height="1e308" stroke-width="nan"/>', '<path d="M0 0 L1e300 1e300 Z"/>',
                '<style>@import url(http://example.com/x.css); rect {fill: url(#g)}</style>',
                '<linearGradient id="g" href="#g"/>', '<path d="' + "L1 1 " * 2000 + '"/>',
                '<!ENTITY a "aaaa">', '&a;', '<![CDATA[x]]>', '<svg width="0" height="0"/>']
DOCTYPE = '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'


def mutate_svg(text: str, rng: random.Random) -> str:
    """``text`` (an SVG) with a few random edits: numbers replaced, elements repeated or nested deeply,
    hostile snippets inserted, a DOCTYPE added, the file cut short."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(7)
        if op == 0:
            numbers = list(re.finditer(r"-?\d+(?:\.\d+)?", text))
            if numbers:
                m = rng.choice(numbers)
                text = text[:m.start()] + rng.choice(SVG_NUMBERS) + text[m.end():]
        elif op == 1:
            elements = list(re.finditer(r"<(path|rect|circle|g|line|polygon|ellipse)\b[^>]*/>", text))
            if elements:
                m = rng.choice(elements)
                text = text[:m.end()] + m.group() * rng.choice([2, 100, 2499, 2501, 20000]) + text[m.end():]
        elif op == 2:
            at = text.rfind("</svg>")
            at = at if at >= 0 else len(text)
            text = text[:at] + rng.choice(SVG_SNIPPETS) + text[at:]
        elif op == 3:
            text = DOCTYPE + text.replace("<svg", "<svg xmlns:xlink=\"http://www.w3.org/1999/xlink\"", 1) + "&b;"
        elif op == 4:
            depth = rng.choice([50, 300, 3000])
            at = text.rfind("</svg>")
            at = at if at >= 0 else len(text)
            text = text[:at] + "<g>" * depth + "<rect width='5' height='5'/>" + "</g>" * depth + text[at:]
        elif op == 5:
            text = text[: rng.randrange(len(text) + 1)]
        else:
            k = rng.randrange(len(text) + 1)
            text = text[:k] + rng.choice(HOSTILE + SVG_SNIPPETS) + text[k:]
    return text


def svg_sources() -> list[str]:
    """The SVG art cardgen ships and its examples use."""
    found = sorted({*ROOT.glob("art/**/*.svg"), *ROOT.glob("cardgen/art/**/*.svg"), *ROOT.glob("examples/*/art/*.svg")})
    return [p.read_text(encoding="utf-8") for p in found]


def xlsx_source() -> bytes:
    """A real workbook, as openpyxl writes one, of the examples' cards (their CSV)."""
    import csv

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    with (ROOT / "examples" / "argonauts" / "cards.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


XLSX_SNIPPETS = ['<c r="B2"><f>1+1</f></c>', '<c r="B2" t="s"><v>99999</v></c>', '<c r="B2" t="n"><v>1e308</v></c>',
                 '<c r="B2" t="inlineStr"><is><t>&#x0;</t></is></c>', '<c r="XFD1048576"><v>1</v></c>',
                 '<c r="A1048576" t="inlineStr"><is><t>x</t></is></c>', '<row r="-1"/>',
                 '<c r="B2" t="e"><v>#REF!</v></c>',
                 '<c r="B2" t="d"><v>not a date</v></c>', '<c r="B2" t="b"><v>2</v></c>']


def mutate_xlsx(data: bytes, rng: random.Random) -> bytes:
    """``data`` (an XLSX workbook) with one of its XML parts mutated, or its zip bytes damaged."""
    op = rng.randrange(6)
    if op == 0:  # damage the zip itself
        raw = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw[: len(raw) if rng.random() < 0.7 else rng.randrange(len(raw))])
    with zipfile.ZipFile(io.BytesIO(data)) as src:
        parts = {info.filename: src.read(info) for info in src.infolist()}
    xml = [name for name in parts if name.endswith((".xml", ".rels"))]
    name = rng.choice([n for n in xml if "worksheets" in n] if op in (1, 2) else xml)
    text = parts[name].decode("utf-8", "replace")
    if op == 1:  # cells: formulas without values, bad types, far-away references
        at = text.find("</row>")
        at = at if at >= 0 else len(text)
        text = text[:at] + rng.choice(XLSX_SNIPPETS) + text[at:]
    elif op == 2:  # a part that inflates far beyond its compressed size
        at = text.rfind("</sheetData>")
        at = at if at >= 0 else len(text)
        text = text[:at] + " " * rng.choice([10_000_000, 60_000_000]) + text[at:]
    elif op == 3:  # a DOCTYPE with entities
        head = text.find("?>") + 2
        text = text[:head] + DOCTYPE.replace("svg", "x") + text[head:].replace("<t>", "<t>&b;", 1)
    elif op == 4:
        text = mutate(text, rng, steps=rng.randint(1, 3))
    else:
        text = text[: rng.randrange(len(text) + 1)]
    parts[name] = text.encode("utf-8", "surrogatepass")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for part, content in parts.items():
            dst.writestr(part, content)
    return out.getvalue()


ART_DECK = "deck: fuzzed\nname: Fuzzed\ncards:\n  - {id: a, title: A, image: fuzzed.svg}\n"


def font_sources() -> list[tuple[str, bytes]]:
    """The fonts cardgen ships and a Noto face where the system has one (name, bytes)."""
    found = sorted(ROOT.glob("cardgen/fonts/*.ttf"))
    found += [p for p in (Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"),) if p.is_file()]
    return [(p.name, p.read_bytes()) for p in found]


def mutate_font(data: bytes, rng: random.Random) -> bytes:
    """``data`` (a TrueType or OpenType file) with one or two random edits: cut short (to 1,000 bytes,
    half, anywhere), bytes changed, a table's offset or length in the directory made wrong, a table
    overwritten, the table count or a header field (units per em, glyph count, metrics count) changed."""
    raw = bytearray(data)
    tables: dict[bytes, tuple[int, int, int]] = {}  # tag -> (directory record offset, table offset, length)
    count = int.from_bytes(raw[4:6], "big") if len(raw) >= 12 else 0
    for i in range(min(count, (len(raw) - 12) // 16)):
        at = 12 + 16 * i
        tables[bytes(raw[at:at + 4])] = (at, int.from_bytes(raw[at + 8:at + 12], "big"),
                                         int.from_bytes(raw[at + 12:at + 16], "big"))
    for _ in range(rng.randint(1, 2)):
        op = rng.randrange(7)
        if op == 0:
            raw = raw[: rng.choice([1000, len(raw) // 2, rng.randrange(len(raw) + 1), 12, 0])]
            break
        if op == 1:
            for _ in range(rng.choice([1, 5, 50])):
                if raw:
                    raw[rng.randrange(len(raw))] = rng.randrange(256)
        elif op == 2 and tables:
            record, _, _ = tables[rng.choice(sorted(tables))]
            field = record + rng.choice([8, 12])  # the table's offset or its length
            value = rng.choice([0, 1, len(raw) - 1, len(raw) + 1000, 0xFFFFFFFF, rng.randrange(1 << 32)])
            raw[field:field + 4] = value.to_bytes(4, "big")
        elif op == 3 and tables:
            _, offset, length = tables[rng.choice(sorted(tables))]
            fill = rng.choice([0, 0xFF])
            raw[offset:offset + length] = bytes([fill]) * len(raw[offset:offset + length])
        elif op == 4:
            raw[4:6] = rng.choice([0, 1, 200, 0xFFFF]).to_bytes(2, "big")
        elif op == 5:
            for tag, place, size in ((b"head", 18, 2), (b"maxp", 4, 2), (b"hhea", 34, 2), (b"OS/2", 0, 2)):
                if tag in tables and rng.random() < 0.5:
                    offset = tables[tag][1] + place
                    raw[offset:offset + size] = rng.choice([0, 1, 0xFFFF]).to_bytes(size, "big")
        else:
            raw[:4] = rng.choice([b"OTTO", b"true", b"ttcf", b"\x00\x01\x00\x00", b"wOFF"])
    return bytes(raw)


#: a deck setting its text in the fuzzed font: as the one family, or as the bold face of a sound one
FONT_DECKS = [("deck: fuzzed\nname: Fuzzed\nfonts:\n  Fuzzed: fuzzed.ttf\nfont_fallback: [Fuzzed]\ncards:\n"
               "  - {id: a, title: Fuzzed, text: 'Hello <b>bold</b> Ωμέγα 123'}\n"),
              ("deck: fuzzed\nname: Fuzzed\nfonts:\n  Fuzzed: {regular: sound.ttf, bold: fuzzed.ttf}\n"
              "font_fallback: [Fuzzed]\ncards:\n  - {id: a, title: Fuzzed, text: 'Hello <b>bold</b> face'}\n")]


def sources(starter: Path) -> list[tuple[str, Path]]:
    """The decks to mutate, each with the folder whose files (CSV, art) it needs beside it; the
    starter deck is written into ``starter`` (the caller's to remove)."""
    found = [(p.read_text(encoding="utf-8"), p.parent) for p in sorted((ROOT / "decks").glob("*.yaml"))]
    sys.path.insert(0, str(ROOT))
    from cardgen.starter import write_starter

    folder = write_starter("starter", starter)
    for deck in sorted(folder.glob("*.yaml")):
        found.append((deck.read_text(encoding="utf-8"), folder))
    return [(text, folder) for text, folder in found]


def run_one(text: str, folder: Path | None, work: Path, timeout: float, memory_mb: int,
            files: dict[str, Any] | None = None, fork: bool = False) -> dict:
    """``cardgen build`` of the deck ``text`` in ``work`` (``folder``'s files beside it, and ``files``):
    in a new Python process, or with ``fork`` in a child of this one (cardgen already imported)."""
    shutil.rmtree(work, ignore_errors=True)
    if folder is not None:
        shutil.copytree(folder, work, ignore=shutil.ignore_patterns("*.yaml", "__pycache__"))
    work.mkdir(parents=True, exist_ok=True)
    for name, content in (files or {}).items():
        (work / name).write_bytes(content() if callable(content) else content)
    deck = work / "fuzzed.yaml"
    deck.write_text(text, encoding="utf-8", errors="surrogatepass")
    out = work / "out"
    if fork:
        returncode, output, seconds, rss_mb = _forked_build(deck, out, work, timeout, memory_mb)
        if returncode is None:
            return {"outcome": "hang", "seconds": seconds, "rss_mb": rss_mb, "output": output[-2000:]}
    else:
        def limits() -> None:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(deck), "--out", str(out)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limits,
                                   cwd=work, env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return {"outcome": "hang", "seconds": timeout, "rss_mb": 0.0}
        seconds = time.perf_counter() - started
        rss_mb = _peak_rss_mb()
        output = stdout + stderr
        returncode = process.returncode
    if "MemoryError" in output:
        outcome = "memory"
    elif "Traceback" in output:
        outcome = "traceback"
    elif returncode not in (0, 1, 2):
        outcome = f"exit {returncode}"
    elif returncode == 2 and out.exists() and any(out.iterdir()):
        outcome = "wrote on error"
    else:
        outcome = f"ok {returncode}"
    return {"outcome": outcome, "seconds": seconds, "rss_mb": rss_mb, "output": output[-2000:]}


#: with --fork, how many times ``--timeout`` of the clock a run may take (its CPU time is what counts)
WALL_FACTOR = 6


def _forked_build(deck: Path, out: Path, work: Path, timeout: float,
                  memory_mb: int) -> tuple[int | None, str, float, float]:
    """``cardgen build DECK --out OUT`` in a forked child under the address-space limit, stopped after
    ``timeout`` seconds of CPU (or ``WALL_FACTOR`` times that of the clock, for a run that waits):
    (exit code or None for a hang, its output, CPU seconds, its peak resident MB). CPU time, since on
    a machine shared with other work the clock says more about the others than about the run. The
    child starts as a copy of this process, so its peak counts this process's pages too: a bound."""
    import resource
    import signal
    import traceback

    log = work / "output.txt"
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.chdir(work)
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
            cpu = math.ceil(timeout)
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU past it: a hang
            from cardgen.cli import main as cardgen

            try:
                cardgen(["build", str(deck), "--out", str(out)], prog_name="cardgen")
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except BaseException:
                traceback.print_exc()
                code = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    deadline = started + timeout * WALL_FACTOR
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    seconds = usage.ru_utime + usage.ru_stime
    output = log.read_text(errors="replace") if log.exists() else ""
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return None, output, seconds, usage.ru_maxrss / 1024
    return os.waitstatus_to_exitcode(status), output, seconds, usage.ru_maxrss / 1024


def _peak_rss_mb() -> float:
    """The largest resident size any run has reached so far, in MB (the kernel's high-water mark of
    this process's finished children)."""
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


# each file is mutated when its input runs, from a seed drawn in turn: 10,000 mutated fonts or inflated
# workbooks would not fit in memory (and a large fuzzing process makes every run it starts larger)
def _seeded_font(data: bytes, seed: int) -> bytes:
    return mutate_font(data, random.Random(seed))


def _seeded_svg(text: str, seed: int) -> bytes:
    return mutate_svg(text, random.Random(seed)).encode("utf-8", "replace")


def _seeded_xlsx(data: bytes, seed: int) -> bytes:
    return mutate_xlsx(data, random.Random(seed))


def cases(kinds: list[str], starter: Path, rng: random.Random, count: int) -> list[tuple[str, str, Path | None,
                                                                                     dict[str, Any]]]:
    """``count`` mutated inputs, the kinds taken in turn: (kind, deck text, folder to copy, files: bytes,
    or a function making them when the input runs)."""
    decks = sources(starter) if "yaml" in kinds else []
    art = svg_sources() if "svg" in kinds else []
    book = xlsx_source() if "xlsx" in kinds else b""
    fonts = font_sources() if "font" in kinds else []
    sound = (ROOT / "cardgen" / "fonts" / "DejaVuSans.ttf").read_bytes() if fonts else b""
    argonauts = (ROOT / "examples" / "argonauts" / "argonauts.yaml").read_text(encoding="utf-8")
    xlsx_deck = argonauts.replace("\ncsv: cards.csv\n", "\nxlsx: fuzzed.xlsx\n")
    made = []
    for n in range(count):
        kind = kinds[n % len(kinds)]
        if kind == "yaml":
            text, folder = decks[(n // len(kinds)) % len(decks)]
            made.append((kind, mutate(text, rng), folder, {}))
        elif kind == "svg":
            source = art[(n // len(kinds)) % len(art)]
            made.append((kind, ART_DECK, None, {"fuzzed.svg": partial(_seeded_svg, source, rng.getrandbits(64))}))
        elif kind == "font":
            turn = n // len(kinds)
            _, data = fonts[turn % len(fonts)]
            deck = FONT_DECKS[(turn // len(fonts)) % len(FONT_DECKS)]
            mutation = partial(_seeded_font, data, rng.getrandbits(64))
            made.append((kind, deck, None, {"fuzzed.ttf": mutation, "sound.ttf": sound}))
        else:  # the Argonauts example, its cards read from the workbook instead of its CSV
            made.append((kind, xlsx_deck, ROOT / "examples" / "argonauts",
                         {"fuzzed.xlsx": partial(_seeded_xlsx, book, rng.getrandbits(64))}))
    return made


def _warm_up() -> None:
    """Import what a build imports, once, before the children are forked (from this checkout)."""
    import importlib

    sys.path.insert(0, str(ROOT))
    for module in ("cardgen.cli", "cardgen.build", "cardgen.export.pdf", "cardgen.render.layout",
                   "cardgen.render.svg", "cardgen.deck"):
        importlib.import_module(module)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=200, help="mutated inputs to run (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kind", action="append", choices=("yaml", "svg", "xlsx", "font"),
                        help="what to mutate (repeatable; default yaml): deck files, SVG art, XLSX workbooks, "
                             "font files")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time (default 1)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds a run may take (default 10; with --fork, seconds of CPU)")
    parser.add_argument("--memory-mb", type=int, default=500, help="address space a run may use (default 500)")
    parser.add_argument("--fork", action="store_true",
                        help="run each input in a child forked from this process, cardgen imported once (the "
                             "same build without Python's start-up, several times faster; one run at a time)")
    args = parser.parse_args(argv)
    kinds = args.kind or ["yaml"]
    if args.fork:
        if args.jobs != 1:
            parser.error("--fork runs one input at a time: start several with different --seed for more")
        _warm_up()
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    slowest: list[tuple[float, int]] = []
    bad: list[tuple[int, str, str]] = []
    peak = 0.0
    with tempfile.TemporaryDirectory(prefix="cardgen-fuzz-") as tmp:
        made = cases(kinds, Path(tmp) / "starter", rng, args.decks)

        def one(n: int) -> tuple[int, str, dict]:
            kind, text, folder, files = made[n]
            return n, kind, run_one(text, folder, Path(tmp) / f"run{n % max(args.jobs, 1)}-{n}", args.timeout,
                                    args.memory_mb, files, fork=args.fork)

        with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            for done, (n, kind, result) in enumerate(pool.map(one, range(args.decks)), start=1):
                shutil.rmtree(Path(tmp) / f"run{n % max(args.jobs, 1)}-{n}", ignore_errors=True)
                counts[f"{kind} {result['outcome']}"] += 1
                peak = max(peak, result["rss_mb"])
                slowest = sorted(slowest + [(result["seconds"], n)], reverse=True)[:3]
                if not result["outcome"].startswith("ok"):
                    bad.append((n, f"{kind} {result['outcome']}", result.get("output", "")))
                    print(f"  input #{n}: {kind} {result['outcome']} after {result['seconds']:.1f} s", flush=True)
                if done % 100 == 0:
                    print(f"  {done} inputs: {dict(counts)}; largest run so far {peak:.0f} MB", flush=True)
    print(f"{args.decks} mutated inputs ({', '.join(kinds)}), seed {args.seed}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"slowest runs{' (CPU)' if args.fork else ''}: " + ", ".join(f"#{n} {s:.1f} s" for s, n in slowest))
    print(f"largest run: {peak:.0f} MB resident (the address space of each is capped at {args.memory_mb} MB)")
    for n, outcome, output in bad[:5]:
        print(f"--- input #{n}: {outcome}\n{output}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
