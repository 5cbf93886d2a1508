"""Layout benchmark: CPU time, peak memory and PDF bytes of layout-drawn decks.

    .venv/bin/python bench/layout.py                # every case
    .venv/bin/python bench/layout.py --cards 20000  # a bigger CSV deck
    git worktree add /tmp/before HEAD~1             # then, in the same run, before and after:
    .venv/bin/python bench/layout.py --against /tmp/before
    .venv/bin/python bench/layout.py --against /tmp/before --instructions   # under valgrind

Cases, each in a fresh process so its peak memory (ru_maxrss) is its own,
timed as CPU seconds of the build after imports (the fastest of --repeat
runs, since the machine is shared):

  csv-distinct   N all-distinct generic faces from a CSV file, drawn with a
                 3-element layout (band, title, text)   target: 10,000 in
                 under 2.5 s CPU and 150 MB
  short-text     2,000 faces with 40 characters of rich text, no two alike
  long-text      the same with 400 characters of rich text each (bold,
                 italic, an inline icon)                target: at most 2x
                 short-text
  shared-images  N cards over 10 image files            target: each image
                 embedded once, bytes and time not growing with N

With ``--against CHECKOUT`` every case is run with that checkout's cardgen
too, in pairs of runs (this one's and that one's, which goes first
alternating), and the median of the pairs' CPU ratios printed (this / that)
with their range: the same machine, the same minute. Give --repeat 10 or more
for a ratio steady to a percent or two. With ``--instructions`` as well, each
case is run once per checkout under valgrind's callgrind instead, and the
instructions the build executed are printed (the run's count less that of a
run which makes the same deck and imports the same modules but does not build
it): a count that does not move with the machine's load, where CPU times on a
busy shared machine moved by a tenth between pairs.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LAYOUT = """\
layouts:
  generic:
    elements:
      - {name: band, type: rect, height: 22%, fill: "{color}", bleed: true}
      - {name: title, type: text, text: "{title}", x: 3mm, width: 100% - 6mm, height: 22%, valign: middle,
         bold: true, size: 14, max_lines: 1, color: white}
      - {name: text, type: text, text: "{text}", x: 3mm, y: 22% + 4pt, width: 100% - 6mm,
         height: 78% - 4pt - 3mm, size: 9}
"""
WORDS = ("draw", "discard", "a", "card", "gain", "<b>two</b>", "coins", "<i>then</i>", "pass", "left", "the",
         "deck", ":coin:", "each", "player", "may", "play", "one")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=10_000, help="faces in the csv-distinct case")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each case; the fastest is reported (the machine is shared)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="another checkout of cardgen (say, before a change) to run every case with too")
    parser.add_argument("--instructions", action="store_true",
                        help="with --against: count the builds' instructions under valgrind's callgrind, once each")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--no-build", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.n, args.root, build=not args.no_build)))
        return
    if args.instructions and not args.against:
        parser.error("--instructions counts a build against another checkout's: give --against CHECKOUT")
    if args.against:
        (count_instructions if args.instructions else compare)(args)
        return
    cases = [*text_cases(args.cards), ("shared-images", 200), ("shared-images", 2000)]
    print(f"{'case':16} {'cards':>7} {'CPU s':>7} {'wall s':>7} {'peak MB':>8} {'PDF KB':>9} {'images':>7}")
    results = {}
    for case, n in cases:
        runs = []
        for _ in range(max(1, args.repeat)):
            out = subprocess.run(worker(case, n, ROOT), capture_output=True, text=True, cwd=ROOT)
            if out.returncode != 0:
                break
            runs.append(json.loads(out.stdout))
        if not runs:
            print(f"{case:16} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        r = min(runs, key=lambda run: run["cpu"])
        results[(case, n)] = r
        print(f"{case:16} {n:>7} {r['cpu']:>7.2f} {r['wall']:>7.2f} {r['peak_mb']:>8.1f} "
              f"{r['bytes'] / 1024:>9.1f} {r['images']:>7}")
    short, long_ = results.get(("short-text", 2000)), results.get(("long-text", 2000))
    if short and long_:
        print(f"\nlong-text / short-text CPU: {long_['cpu'] / short['cpu']:.2f}x (target at most 2x)")


def text_cases(cards: int) -> list[tuple[str, int]]:
    """The cases set against another checkout: those of text, ``cards`` faces in csv-distinct."""
    return [("csv-distinct", cards), ("short-text", 2000), ("long-text", 2000)]


def worker(case: str, n: int, root: Path) -> list[str]:
    """The command running one case in a fresh process, with ``root``'s cardgen."""
    return [sys.executable, __file__, "--case", case, "--n", str(n), "--root", str(root)]


def compare(args) -> None:
    """Every case with this checkout and ``--against``, in pairs (which runs first alternates), each
    pair's ratio of CPU seconds taken: the median ratio is the figure, steady where single runs
    on a shared machine differ by 5-10%; the fastest run of each is shown beside it."""
    print(f"{'case':16} {'cards':>7} {'CPU s':>7} {'before':>7} {'median ratio':>13} {'range':>13} "
          f"{'PDF KB':>8} {'before':>8}")
    this, that = ROOT, args.against.resolve()
    for case, n in text_cases(args.cards):
        runs: dict[Path, list[dict]] = {this: [], that: []}
        ratios = []
        for i in range(max(1, args.repeat)):
            for root in ((this, that) if i % 2 == 0 else (that, this)):
                out = subprocess.run(worker(case, n, root), capture_output=True, text=True, cwd=root)
                if out.returncode != 0:
                    sys.exit(f"{case} failed in {root}: {out.stderr.strip().splitlines()[-1:]}")
                runs[root].append(json.loads(out.stdout))
            ratios.append(runs[this][-1]["cpu"] / runs[that][-1]["cpu"])
        now, before = (min(runs[root], key=lambda run: run["cpu"]) for root in (this, that))
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(f"{case:16} {n:>7} {now['cpu']:>7.2f} {before['cpu']:>7.2f} {statistics.median(ratios):>12.3f}x "
              f"{spread:>13} {now['bytes'] / 1024:>8.1f} {before['bytes'] / 1024:>8.1f}")


def run_case(case: str, n: int, root: Path = ROOT, build: bool = True) -> dict:
    sys.path.insert(0, str(root))
    from cardgen.build import BuildSettings, build_decks

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        deck = make_deck(folder, case, n)
        if not build:  # what a run costs besides the build (--instructions takes it away)
            return {}
        start_cpu, start = time.process_time(), time.perf_counter()
        build_decks([str(deck)], folder / "out", BuildSettings())
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
        pdf = next((folder / "out").glob("*.pdf"))
        raw = pdf.read_bytes()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"cpu": cpu, "wall": wall, "peak_mb": peak, "bytes": len(raw), "images": raw.count(b"/Subtype /Image")}


def count_instructions(args) -> None:
    """Every case built once with this checkout and ``--against`` under callgrind: the instructions
    of the build alone, and their ratio."""
    if shutil.which("valgrind") is None:
        sys.exit("--instructions runs the builds under valgrind, which is not installed "
                 "(Debian: apt-get install valgrind)")
    print(f"{'case':16} {'cards':>7} {'build Ginstr':>13} {'before':>8} {'ratio':>8}")
    this, that = ROOT, args.against.resolve()
    for case, n in text_cases(args.cards):
        counts = {root: _instructions(case, n, root, build=True) - _instructions(case, n, root, build=False)
                  for root in (this, that)}
        print(f"{case:16} {n:>7} {counts[this] / 1e9:>13.3f} {counts[that] / 1e9:>8.3f} "
              f"{counts[this] / counts[that]:>7.3f}x")


def _instructions(case: str, n: int, root: Path, build: bool) -> int:
    """Instructions callgrind counts in one worker run of ``case``."""
    with tempfile.TemporaryDirectory() as tmp:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/callgrind.out",
                   *worker(case, n, root)]
        out = subprocess.run(command + ([] if build else ["--no-build"]), capture_output=True, text=True, cwd=root)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or found is None:
        sys.exit(f"{case} failed under callgrind in {root}: {out.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1))


def make_deck(folder: Path, case: str, n: int) -> Path:
    import csv

    rows = []
    if case == "csv-distinct":
        rows = [(f"c{i}", f"Card {i}", f"Benchmark card {i} of {n}: draw a card.") for i in range(n)]
    elif case in ("short-text", "long-text"):
        length = 40 if case == "short-text" else 400
        for i in range(n):
            # words drawn at random (seeded by the card), so no two texts are the same: bold,
            # italic and an icon about every 18 words
            pick = random.Random(i).choice
            words, text = [], ""
            while len(text) < length:
                words.append(pick(WORDS))
                text = " ".join(words)
            rows.append((f"c{i}", f"Card {i}", text))
    with (folder / "cards.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        if case == "shared-images":
            from PIL import Image

            for k in range(10):
                Image.new("RGB", (900, 900), (20 * k, 120, 200 - 15 * k)).save(folder / f"art{k}.png")
            writer.writerow(["id", "title", "text", "image"])
            writer.writerows((f"c{i}", f"Card {i}", "Shares its art.", f"art{i % 10}.png") for i in range(n))
        else:
            writer.writerow(["id", "title", "text"])
            writer.writerows(rows)
    deck = folder / "bench.yaml"
    layout = "" if case == "shared-images" else LAYOUT
    deck.write_text(f"deck: bench\nname: Bench\ncsv: cards.csv\n{layout}", encoding="utf-8")
    return deck


if __name__ == "__main__":
    main()
