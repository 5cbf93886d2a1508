"""`cardgen serve` in a real browser: Debian's headless Chromium, driven by Playwright.

It loads the page, sees the cards, edits the deck on disk and sees the changed card, breaks the
deck and sees the error with its line over the last good build, fixes it, turns hints on and
reads an element's file:line. Run alone with `make test-browser` (CI runs it after `make test`);
with CARDGEN_SCREENSHOT=docs/images/serve.png it also takes the README's screenshot.

Chromium (`apt-get install chromium`) and Playwright for Python must be installed: without them the
test fails, it does not skip. CARDGEN_CHROMIUM names another Chromium binary.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CARDGEN_CHROMIUM", "/usr/bin/chromium")
#: what this closed network needs of Chromium: no sandbox (root), no GPU, nothing fetched from outside
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
#: a change on disk must show on the page within this long (ms)
CHANGE_SHOWS_WITHIN = 5000


def test_the_live_page_follows_the_deck_in_a_real_browser(tmp_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install playwright (make test-browser installs it)")
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), "
                    f"or name a Chromium with CARDGEN_CHROMIUM")
    shutil.copytree(ROOT / "examples" / "argonauts", tmp_path / "argonauts")
    deck = tmp_path / "argonauts" / "argonauts.yaml"
    shown = "argonauts/argonauts.yaml"  # as the page names it: relative to where serve runs
    good = deck.read_text(encoding="utf-8")
    server, url = start_serving(tmp_path, shown)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
                viewport={"width": 1280, "height": 640})
            try:
                page = browser.new_page()
                walk_through(page, url, deck, shown, good)
            finally:
                browser.close()
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl-C
        output, _ = server.communicate(timeout=20)
    assert server.returncode == 0 and output.rstrip().endswith("stopped"), output
    # the log names the files saved, never an editor's or sed's own
    assert re.search(r"built 24 cards into 1 file in [0-9.]+ s \(argonauts\.yaml changed\)", output), output


def walk_through(page, url: str, deck: Path, shown: str, good: str) -> None:
    page.goto(url)
    # the cards: the twelve distinct fronts, every picture loaded
    page.wait_for_function("""() => { const images = [...document.querySelectorAll('#cards img')];
        return images.length === 12 && images.every((i) => i.complete && i.naturalWidth > 0); }""")
    jason = '#cards figure[data-key="jason@-1"] img'
    before = page.get_attribute(jason, "src")
    assert red_green_blue(url, before) == (0x1e, 0x5a, 0xa8)  # the hero band

    # a card enlarged, the page scrolled: both stay as the deck changes
    page.click('#cards figure[data-key="jason@-1"]')
    assert page.is_visible("#enlarged")
    page.evaluate("window.scrollTo(0, 200)")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 50
    deck.write_text(good.replace('{name: band, fill: "#1e5aa8"}', '{name: band, fill: "#b71c1c"}'), encoding="utf-8")
    page.wait_for_function(f"() => document.querySelector('{jason}').getAttribute('src') !== '{before}'",
                           timeout=CHANGE_SHOWS_WITHIN)
    after = page.get_attribute(jason, "src")
    assert red_green_blue(url, after) == (0xb7, 0x1c, 0x1c)
    assert page.is_visible("#enlarged") and page.get_attribute("#enlarged img", "src") == after
    assert page.evaluate("window.scrollY") == scrolled

    # a broken save: its error and line over the last good build
    broken = good.replace("orientation: landscape", "orientation: sideways")
    deck.write_text(broken, encoding="utf-8")
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if text.startswith("orientation:"))
    page.wait_for_selector("#error", state="visible", timeout=CHANGE_SHOWS_WITHIN)
    assert page.inner_text("#error-location").startswith(f"{shown}:{line}:")
    assert "sideways" in page.inner_text("#error-text")
    assert page.locator("#cards img").count() == 12 and page.get_attribute(jason, "src") == after

    # fixed: the cards again, no error
    deck.write_text(good, encoding="utf-8")
    page.wait_for_selector("#error", state="hidden", timeout=CHANGE_SHOWS_WITHIN)
    page.wait_for_function(f"() => document.querySelector('{jason}').getAttribute('src') === '{before}'",
                           timeout=CHANGE_SHOWS_WITHIN)
    page.click("#close")

    # hints: every element outlined; one clicked names its layout and the line that defines it
    page.check("#hints")
    page.wait_for_selector('#cards figure[data-key="jason@-1"] .box[data-element="name"]')
    assert page.locator('#cards figure[data-key="jason@-1"] .box').count() == 11
    page.click('#cards figure[data-key="jason@-1"] .box[data-element="name"]')
    name_line = next(i for i, text in enumerate(good.splitlines(), 1) if text.strip() == "- name: name")
    assert page.inner_text("#element-location") == f"{shown}:{name_line}:9"
    assert "layout 'hero', element 'name' (text)" in page.inner_text("#element-info")
    assert not page.is_visible("#enlarged")  # a click on an element does not enlarge its card
    screenshot(page)


def start_serving(folder: Path, deck: str) -> tuple[subprocess.Popen, str]:
    """`cardgen serve DECK --port 0 --no-open` in ``folder``; returns it and the page's address."""
    server = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", deck, "--port", "0", "--no-open",
                               "--out", "out"], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert server.stdout is not None
    deadline = time.monotonic() + 30
    line = ""
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        match = re.search(r"on (http://127\.0\.0\.1:\d+/)", line)
        if match:
            return server, match.group(1)
        if not line and server.poll() is not None:
            break
    server.kill()
    raise AssertionError(f"cardgen serve did not start: {line}{server.communicate()[0]}")


def red_green_blue(url: str, src: str) -> tuple[int, int, int]:
    """The colour at the top middle of a card picture the page shows (the band)."""
    from PIL import Image

    with urllib.request.urlopen(url.rstrip("/") + src, timeout=10) as response:
        image = Image.open(io.BytesIO(response.read())).convert("RGB")
    return image.getpixel((image.width // 2, 3))


def screenshot(page) -> None:
    """The README's picture, when CARDGEN_SCREENSHOT names where it goes: the page as a designer
    sees it, hints on and an element chosen, kept small (a palette of 256 colours)."""
    target = os.environ.get("CARDGEN_SCREENSHOT")
    if not target:
        return
    from PIL import Image

    page.evaluate("window.scrollTo(0, 0)")
    image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    image.quantize(256, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)
