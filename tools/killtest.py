"""Kill builds at random moments and check that nothing is lost and nothing is left behind.

    .venv/bin/python tools/killtest.py --runs 100 --seed 1

Each run starts `cardgen build dotcombust` into a folder that already holds a good PDF, sends
SIGKILL or SIGTERM after a random delay (every other run: a few milliseconds after the build's
temporary PDF appears, so those kills land while the file is being written, however loaded the
machine is), then checks the PDF there is whole (the previous one or the
new one, never half of one), builds again, and checks that no temporary file is left. Prints the
counts and exits 1 on any failure. tests/test_corpus.py runs a few rounds of it.
"""
from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cardgen", "build", "dotcombust", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=out.parent,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def whole_pdf(path: Path) -> bool:
    data = path.read_bytes()
    return data.startswith(b"%PDF") and b"%%EOF" in data[-64:]


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.rglob("*") if p.name.endswith(".tmp"))


def kill_once(out: Path, rng: random.Random, max_delay: float, stopped: list[int],
              while_writing: bool = False) -> str | None:
    """One run: a build killed at a random moment (``while_writing``: just after its temporary file
    appears); None if all is well, else what went wrong. Counts in ``stopped`` the runs the signal
    really cut short."""
    sig = rng.choice((signal.SIGKILL, signal.SIGTERM))
    process = build(out)
    if while_writing:
        while process.poll() is None and not leftovers(out):
            time.sleep(0.001)
        time.sleep(rng.uniform(0.0, 0.02))
    else:
        time.sleep(rng.uniform(0.0, max_delay))
    process.send_signal(sig)
    if process.wait(timeout=60) != 0:
        stopped.append(1)
    pdf = out / "dotcombust.pdf"
    if not pdf.exists() or not whole_pdf(pdf):
        return f"{sig.name}: the PDF is missing or not whole"
    again = build(out)
    _, err = again.communicate(timeout=120)
    if again.returncode != 0:
        return f"{sig.name}: the next build failed: {err.strip()[-300:]}"
    left = leftovers(out)
    if left:
        return f"{sig.name}: the next build left {left}"
    return None


def run(runs: int, seed: int, max_delay: float | None = None) -> tuple[list[str], int]:
    """``runs`` killed builds; the kills land anywhere in a build (up to ``max_delay`` seconds, by
    default a little longer than the first build took)."""
    rng = random.Random(seed)
    problems = []
    stopped: list[int] = []
    with tempfile.TemporaryDirectory(prefix="cardgen-kill-") as tmp:
        out = Path(tmp) / "out"
        started = time.perf_counter()
        first = build(out)
        first.communicate(timeout=120)
        max_delay = max_delay or 1.1 * (time.perf_counter() - started)
        for n in range(runs):
            problem = kill_once(out, rng, max_delay, stopped, while_writing=n % 2 == 1)
            if problem:
                problems.append(f"run {n}: {problem}")
    return problems, len(stopped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=None,
                        help="latest moment to kill, in seconds (default: a little after a build ends)")
    args = parser.parse_args(argv)
    problems, stopped = run(args.runs, args.seed, args.max_delay)
    print(f"{args.runs} builds signalled ({stopped} cut short), seed {args.seed}: "
          f"{args.runs - len(problems)} fine, {len(problems)} not")
    for problem in problems[:10]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
