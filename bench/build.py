"""Build benchmark: wall time, peak memory and PDF bytes.

    .venv/bin/python bench/build.py            # all cases
    .venv/bin/python bench/build.py --cards 10000 20000

Each case runs in a fresh process so peak memory (ru_maxrss) is its own.
Targets (2-core machine): both Common Carrier decks under 0.5 s of work
after imports; a 10,000-card deck under 30 s and 300 MB, growing linearly.
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
    parser.add_argument("--cards", type=int, nargs="*", default=[2500, 5000, 10000],
                        help="sizes of the generated deck")
    parser.add_argument("--distinct", type=int, default=200, help="distinct faces in the generated deck")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.distinct)))
        return
    cases = ["bundled:common-carrier", "bundled:dotcombust", "bundled:clusterfuck"] + \
            [f"generated:{n}" for n in args.cards]
    print(f"{'case':28} {'cards':>7} {'work s':>8} {'peak MB':>8} {'PDF KB':>9} {'us/card':>8}")
    for case in cases:
        out = subprocess.run([sys.executable, __file__, "--case", case, "--distinct", str(args.distinct)],
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


if __name__ == "__main__":
    main()
