"""Mutate the bundled decks and the starter deck, run cardgen on each, and count what went wrong.

    .venv/bin/python tools/fuzz.py --decks 10000 --seed 1      # make fuzz: the long profile
    .venv/bin/python tools/fuzz.py --decks 50                  # a short look

Each mutated deck runs `cardgen build` in its own process under a time limit and an address-space
limit. A run is fine when it exits 0, 1 or 2 with no traceback and, on exit 2, writes nothing.
Prints the counts (exit codes, tracebacks, hangs, memory failures, half-written outputs) and the
slowest and largest runs, and exits 1 if anything was wrong. `mutate` is also used by the test suite
(tests/test_fuzz.py), which runs a short in-process profile under hypothesis.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

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


def run_one(text: str, folder: Path, work: Path, timeout: float, memory_mb: int) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(folder, work, ignore=shutil.ignore_patterns("*.yaml", "__pycache__"))
    deck = work / "fuzzed.yaml"
    deck.write_text(text, encoding="utf-8", errors="surrogatepass")
    out = work / "out"

    def limits() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "cardgen", "build", str(deck), "--out", str(out)],
                              capture_output=True, text=True, timeout=timeout, preexec_fn=limits, cwd=work,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"outcome": "hang", "seconds": timeout}
    seconds = time.perf_counter() - started
    output = done.stdout + done.stderr
    if "MemoryError" in output:
        outcome = "memory"
    elif "Traceback" in output:
        outcome = "traceback"
    elif done.returncode not in (0, 1, 2):
        outcome = f"exit {done.returncode}"
    elif done.returncode == 2 and out.exists() and any(out.iterdir()):
        outcome = "wrote on error"
    else:
        outcome = f"ok {done.returncode}"
    return {"outcome": outcome, "seconds": seconds, "output": output[-2000:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=200, help="mutated decks to run (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a run may take (default 10)")
    parser.add_argument("--memory-mb", type=int, default=500, help="address space a run may use (default 500)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    slowest: list[tuple[float, int]] = []
    bad: list[tuple[int, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="cardgen-fuzz-") as tmp:
        decks = sources(Path(tmp) / "starter")
        for n in range(args.decks):
            text, folder = decks[n % len(decks)]
            result = run_one(mutate(text, rng), folder, Path(tmp) / "run", args.timeout, args.memory_mb)
            counts[result["outcome"]] += 1
            slowest = sorted(slowest + [(result["seconds"], n)], reverse=True)[:3]
            if not result["outcome"].startswith("ok"):
                bad.append((n, result["outcome"], result.get("output", "")))
            if (n + 1) % 100 == 0:
                print(f"  {n + 1} decks: {dict(counts)}", flush=True)
    print(f"{args.decks} mutated decks, seed {args.seed}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print("slowest runs: " + ", ".join(f"#{n} {s:.1f} s" for s, n in slowest))
    for n, outcome, output in bad[:5]:
        print(f"--- deck #{n}: {outcome}\n{output}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
