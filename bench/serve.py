"""`cardgen serve` benchmark: how soon the page shows a deck, and how soon it shows a save.

    .venv/bin/python bench/serve.py [--deck examples/argonauts/argonauts.yaml] [--saves 5]

A copy of the deck is served by a real `cardgen serve --port 0 --no-open` process, asked over HTTP
as the page asks (the event stream, /state, then every picture it names):

  start   from starting the process to having every face picture     target: under 3 s
  save    from writing the deck file to having the changed picture    target: under 2 s (median and most)

Beside each, in the same run, its floor: `cardgen build` of the same deck in a fresh process (start
to PDF), and that build's own time as serve's log reports it (the build inside a save).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDGEN = [sys.executable, "-m", "cardgen"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deck", default="examples/argonauts/argonauts.yaml")
    parser.add_argument("--saves", type=int, default=5)
    args = parser.parse_args()
    source = (ROOT / args.deck).resolve()
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / source.parent.name
        shutil.copytree(source.parent, folder)
        deck = folder / source.name
        started = time.perf_counter()
        subprocess.run([*CARDGEN, "build", str(deck), "--out", str(Path(work) / "built")], check=True,
                       capture_output=True)
        build_alone = time.perf_counter() - started
        started = time.perf_counter()
        server = subprocess.Popen([*CARDGEN, "serve", str(deck), "--port", "0", "--no-open", "--out",
                                   str(Path(work) / "out")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            port = _port(server)
            state = _wait_for(port, lambda s: s["decks"] and not s["building"])
            _fetch_pictures(port, state)
            start = time.perf_counter() - started
            saves, builds = [], []
            text = deck.read_text(encoding="utf-8")
            for i in range(args.saves):
                before = state["generation"]
                edited = text.replace("name: Argonauts", f"name: Argonauts {i + 1}", 1)
                assert edited != text, "the benchmark edits the deck's name: line"
                written = time.perf_counter()
                deck.write_text(edited, encoding="utf-8")
                state = _wait_for(port, lambda s, before=before, builds=i + 2: s["generation"] > before
                                  and not s["building"] and s["builds"] >= builds, events=True)
                _fetch_pictures(port, state)
                saves.append(time.perf_counter() - written)
                builds.append(state["built"]["seconds"])
                assert state["error"] is None, state["error"]
                time.sleep(0.3)
        finally:
            server.terminate()
            server.communicate(timeout=20)
    print(f"deck: {args.deck}, {len(state['decks'][0]['faces'])} distinct faces and backs; the sheets' pages "
          f"and the playtest come after the cards, and are not timed")
    print(f"{'':34} {'seconds':>8}  {'floor':>7}  ratio  target")
    print(f"{'start to every picture shown':34} {start:8.2f}  {build_alone:7.2f}  {start / build_alone:5.1f}  "
          f"under 3 s   (floor: `cardgen build` of the deck, a fresh process)")
    median, most = statistics.median(saves), max(saves)
    build = statistics.median(builds)
    print(f"{'save to the changed picture':34} {median:8.2f}  {build:7.2f}  {median / build:5.1f}  "
          f"under 2 s   (median of {len(saves)}, most {most:.2f} s; floor: the build inside it)")


def _port(server: subprocess.Popen) -> int:
    assert server.stdout is not None
    for line in server.stdout:
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match:
            return int(match.group(1))
    raise SystemExit(f"cardgen serve did not start: {server.communicate()[0]}")


def _get(port: int, path: str) -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"GET {path}: {response.status}")
        return body
    finally:
        connection.close()


def _wait_for(port: int, ready, events: bool = False) -> dict:
    """The state once ``ready`` says so: read on each event of the stream (as the page does), or
    polled every 20 ms until the server answers."""
    deadline = time.monotonic() + 60
    if events:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/events")
        response = connection.getresponse()
        try:
            while time.monotonic() < deadline:
                line = response.readline()
                if line.startswith(b"data:"):
                    state = json.loads(_get(port, "/state"))
                    if ready(state):
                        return state
        finally:
            connection.close()
        raise SystemExit("timed out")
    while time.monotonic() < deadline:
        try:
            state = json.loads(_get(port, "/state"))
        except (ConnectionError, OSError):
            state = None
        if state and ready(state):
            return state
        time.sleep(0.02)
    raise SystemExit("timed out")


def _fetch_pictures(port: int, state: dict) -> None:
    for deck in state["decks"]:
        for face in deck["faces"]:
            _get(port, face["image"])


if __name__ == "__main__":
    main()
