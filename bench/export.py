"""Export benchmark: PNG per card and Tabletop Simulator decks, CPU and peak memory.

    .venv/bin/python bench/export.py

Cases run in fresh processes (peak memory is each one's own), fastest of
--repeat runs, CPU seconds of the export after imports:

  png-dotcombust   every distinct face and back of dotCOMbust at 300 dpi   target: under 2 s
  tts-N            a generated deck of N all-distinct cards to TTS images  target: 1,000 cards under 10 s
  png-N            the same deck as PNGs at 300 dpi                         memory flat in N
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each case; the fastest is reported")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return
    print(f"{'case':16} {'cards':>6} {'files':>6} {'CPU s':>7} {'peak MB':>8}")
    for case in ("png-dotcombust", "tts-250", "tts-1000", "png-250", "png-1000"):
        runs = []
        for _ in range(max(1, args.repeat)):
            out = subprocess.run([sys.executable, __file__, "--case", case], capture_output=True, text=True,
                                 cwd=ROOT)
            if out.returncode != 0:
                print(f"{case:16} failed: {out.stderr.strip().splitlines()[-1:]}")
                break
            runs.append(json.loads(out.stdout))
        if runs:
            r = min(runs, key=lambda run: run["cpu"])
            print(f"{case:16} {r['cards']:>6} {r['files']:>6} {r['cpu']:>7.2f} {r['peak_mb']:>8.1f}")


def run_case(case: str) -> dict:
    sys.path.insert(0, str(ROOT))
    from cardgen.build import BuildSettings, build_decks

    kind, _, what = case.partition("-")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        deck = what if not what.isdigit() else str(generated(folder, int(what)))
        settings = BuildSettings(formats=(kind,), validate=False)
        start = time.process_time()
        results = build_decks([deck], folder / "out", settings)
        cpu = time.process_time() - start
        exports = [e for r in results for e in r.exports]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"cpu": cpu, "peak_mb": peak, "cards": sum(e.cards for e in exports),
            "files": sum(e.files for e in exports)}


def generated(folder: Path, cards: int) -> Path:
    rows = "\n".join(f"c{i},Card {i},Benchmark card {i} of {cards}: draw a card then pass one left."
                     for i in range(cards))
    (folder / "cards.csv").write_text("id,title,text\n" + rows + "\n", encoding="utf-8")
    path = folder / "bench.yaml"
    path.write_text("deck: bench\nname: Bench\ncsv: cards.csv\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    main()
