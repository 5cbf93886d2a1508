"""`cardgen serve`: every route, the event stream, errors over the last good build, findings, the
quick playtest, hints, one build at a time, and nothing served but the page and its pictures.

Each test runs the real server (uvicorn on a free loopback port) over a LiveBuild it builds
itself, and asks it with http.client, which sends a path exactly as written (no `..` tidied away).
"""
from __future__ import annotations

import http.client
import io
import json
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PIL import Image

from cardgen import serve
from cardgen.prepare import BuildSettings
from cardgen.serve import LiveBuild, allowed_hosts, host_warning, listen, server_for

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def argonauts(tmp_path) -> Path:
    shutil.copytree(ROOT / "examples" / "argonauts", tmp_path / "argonauts")
    return tmp_path / "argonauts" / "argonauts.yaml"


@contextmanager
def serving(live: LiveBuild) -> Iterator[int]:
    """The page of ``live`` served on a free loopback port, as ``cardgen serve`` serves it."""
    sock = listen("127.0.0.1", 0)
    server = server_for(live, "127.0.0.1")
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    _wait(lambda: server.started)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
    assert not thread.is_alive()


def get(port: int, path: str, host: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", f"{host}:{port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def state_of(port: int) -> dict:
    status, headers, body = get(port, "/state")
    assert status == 200 and headers["content-type"] == "application/json"
    return json.loads(body)


def built(deck: Path, tmp_path: Path, **settings) -> LiveBuild:
    live = LiveBuild([str(deck)], tmp_path / "out", BuildSettings(**settings), playtest_games=40)
    live.build()
    return live


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def _wait(condition, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


# --- the page and its pictures ------------------------------------------------------------

def test_the_page_and_its_files_are_served_with_a_policy_that_allows_nothing_from_elsewhere(argonauts, tmp_path):
    with serving(built(argonauts, tmp_path)) as port:
        status, headers, body = get(port, "/")
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert b'src="/page.js"' in body and b'href="/page.css"' in body
        assert "default-src 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        for name, kind in (("page.js", "text/javascript"), ("page.css", "text/css"), ("index.html", "text/html")):
            status, headers, body = get(port, f"/{name}")
            assert status == 200 and headers["content-type"].startswith(kind)
            assert b"http://" not in body and b"https://" not in body  # offline: no CDN, no other site


def test_state_lists_every_distinct_face_and_back_with_a_picture_at_preview_resolution(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    with serving(live) as port:
        state = state_of(port)
        assert state["error"] is None and not state["building"] and state["builds"] == 1
        (deck,) = state["decks"]
        assert deck["id"] == "argonauts" and deck["players"] == []
        fronts = [f for f in deck["faces"] if f["side"] == "front"]
        backs = [f for f in deck["faces"] if f["side"] == "back"]
        assert len(fronts) == 12 and {f["layout"] for f in backs} == {"hero-back", "monster-back", "relic-back"}
        assert sum(f["copies"] for f in fronts) == 24  # every printed card on one face
        jason = next(f for f in fronts if f["cards"] == ["jason"])
        assert jason["copies"] == 2 and jason["location"].endswith("cards.csv:2:1")
        status, headers, body = get(port, jason["image"])
        assert status == 200 and headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(body))
        assert image.size == (round(3.5 * serve.FACE_DPI), round(2 * serve.FACE_DPI))  # landscape business card
        assert image.getpixel((image.width // 2, 3))[:3] == (0x1e, 0x5a, 0xa8)  # the hero band's colour


def test_sheets_are_the_pages_build_wrote(argonauts, tmp_path):
    import pypdfium2 as pdfium

    live = built(argonauts, tmp_path)
    with serving(live) as port:
        (sheet,) = state_of(port)["sheets"]
        assert sheet["file"] == "argonauts.pdf" and sheet["pages"] is None  # drawn after the cards are shown
        live.sheets()
        (sheet,) = state_of(port)["sheets"]
        assert len(sheet["pages"]) == len(pdfium.PdfDocument(tmp_path / "out" / "argonauts.pdf"))
        status, _, body = get(port, sheet["pages"][0])
        image = Image.open(io.BytesIO(body))
        assert status == 200 and image.size == (round(8.5 * serve.SHEET_DPI), round(11 * serve.SHEET_DPI))


def test_hints_give_each_elements_box_and_the_yaml_line_that_defines_it(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    jason = next(f for f in live.state()["decks"][0]["faces"] if f["cards"] == ["jason"])
    elements = {e["name"]: e for e in jason["elements"]}
    assert jason["layout"] == "hero"
    # the hero layout overrides the band of the layout it extends, and keeps the rest
    band = line_of(argonauts, 'name: band, fill: "#1e5aa8"')
    assert elements["band"]["location"] == f"{argonauts}:{band}:9"
    assert elements["name"]["location"] == f"{argonauts}:{line_of(argonauts, '- name: name')}:9"
    assert elements["band"]["box"] == [0.0, 0.0, 1.0, 0.25]  # top 25% of the card, full width
    left, _, width, _ = elements["cost"]["box"]
    assert left + width == pytest.approx(1 - 2.5 / 88.9, abs=1e-4)  # anchored right, 2.5 mm in
    # an element a `when` leaves out is not outlined: the relic's face has no power
    fleece = next(f for f in live.state()["decks"][0]["faces"] if f["cards"] == ["fleece"])
    assert "power" not in {e["name"] for e in fleece["elements"]} and "glory" in {e["name"] for e in fleece["elements"]}


def test_a_face_drawn_in_python_has_no_elements_and_per_player_faces_name_their_player(tmp_path):
    live = built(Path("common-carrier"), tmp_path)
    (deck,) = live.state()["decks"]
    assert deck["players"] == ["Player 1", "Player 2"]
    fronts = [f for f in deck["faces"] if f["side"] == "front"]
    assert {f["player"] for f in fronts} == {0, 1, None}  # reference cards are shared
    tiles = [f for f in fronts if f["kind"] == "tile"]
    assert tiles and all(f["layout"] is None and f["elements"] == [] for f in tiles)
    backs = [f for f in deck["faces"] if f["side"] == "back"]
    assert {f["player"] for f in backs} >= {0, 1}  # backs tinted by player


# --- findings and the playtest -----------------------------------------------------------

def low_resolution(deck: Path) -> Path:
    """Give the deck's Jason card a 20 x 12 pixel picture: one low-resolution warning."""
    Image.new("RGB", (20, 12), "orange").save(deck.parent / "art" / "tiny.png")
    cards = deck.parent / "cards.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("3,4,2,art/ship.svg", "3,4,2,art/tiny.png", 1),
                     encoding="utf-8")
    return cards


def test_findings_carry_their_location_and_the_face_of_their_card(argonauts, tmp_path):
    cards = low_resolution(argonauts)
    with serving(built(argonauts, tmp_path)) as port:
        (deck,) = state_of(port)["decks"]
    (finding,) = [f for f in deck["findings"] if "tiny.png" in f["message"]]
    assert finding["severity"] == "warning" and finding["card"] == "jason" and finding["face"] == "jason@-1"
    assert finding["location"] == f"{cards}:2:1"


def test_a_strict_build_shows_the_findings_that_stopped_it(argonauts, tmp_path):
    low_resolution(argonauts)
    live = built(argonauts, tmp_path, strict=True)
    error = live.state()["error"]
    assert "cannot be played as built" in error["text"]
    assert [f["card"] for f in error["findings"] if "tiny.png" in f["message"]] == ["jason"]
    assert error["findings"][0]["severity"] == "error"


def test_a_deck_with_a_game_gets_a_seeded_playtest_after_its_build(tmp_path):
    live = built(Path("common-carrier"), tmp_path)
    assert live.state()["decks"][0]["playtest"] == {"status": "pending"}
    live.playtest()
    report = live.state()["decks"][0]["playtest"]
    assert report["status"] == "done" and report["games"] == 40 and report["seed"] == serve.PLAYTEST_SEED
    assert 0 <= report["completion"] <= 1 and report["mean_length"] > 0
    assert [s["seat"] for s in report["seat_win_rates"]] == [0, 1]
    for seat in report["seat_win_rates"]:
        assert seat["wilson_low"] <= seat["rate"] <= seat["wilson_high"]
    again = built(Path("common-carrier"), tmp_path)
    again.playtest()
    assert again.state()["decks"][0]["playtest"] == report  # same seed, same summary


def test_a_deck_without_a_game_has_no_playtest(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    live.playtest()
    assert live.state()["decks"][0]["playtest"] is None


# --- changes, errors and the event stream ------------------------------------------------

def test_a_broken_save_shows_its_error_with_its_line_over_the_last_good_build(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    with serving(live) as port:
        good = state_of(port)
        text = argonauts.read_text(encoding="utf-8")
        argonauts.write_text(text.replace("orientation: landscape", "orientation: sideways"), encoding="utf-8")
        live.build([argonauts])
        broken = state_of(port)
        assert broken["error"]["location"].startswith(f"{argonauts}:{line_of(argonauts, 'orientation:')}:")
        assert "sideways" in broken["error"]["text"]
        assert broken["decks"] == good["decks"]  # the last good build stays on show, pictures and all
        assert get(port, good["decks"][0]["faces"][0]["image"])[0] == 200
        argonauts.write_text(text, encoding="utf-8")
        live.build([argonauts])
        assert state_of(port)["error"] is None and state_of(port)["built"]["changed"] == ["argonauts.yaml"]


def test_a_changed_card_gets_a_new_picture_and_the_others_keep_theirs(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    before = {f["key"]: f["image"] for f in live.state()["decks"][0]["faces"]}
    text = argonauts.read_text(encoding="utf-8")
    argonauts.write_text(text.replace('{name: band, fill: "#1e5aa8"}', '{name: band, fill: "#b71c1c"}'),
                         encoding="utf-8")
    live.build([argonauts])
    after = {f["key"]: f["image"] for f in live.state()["decks"][0]["faces"]}
    heroes = {f["key"] for f in live.state()["decks"][0]["faces"] if f["layout"] == "hero"}
    assert heroes and all(before[k] != after[k] for k in heroes)
    assert all(before[k] == after[k] for k in after if k not in heroes)
    png = live.image(after["jason@-1"].removeprefix("/render/"))
    image = Image.open(io.BytesIO(png))
    assert image.getpixel((image.width // 2, 3))[:3] == (0xb7, 0x1c, 0x1c)


def test_the_event_stream_says_each_change_of_state(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    with serving(live) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/events")
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("content-type").startswith("text/event-stream")

        def next_event() -> dict:
            lines = []
            while True:
                line = response.readline().decode()
                if line == "\n" and lines:
                    break
                lines.append(line.strip())
            assert lines[0] == "event: state"
            return json.loads(lines[1].removeprefix("data: "))

        first = next_event()
        assert first["generation"] == live.changes.generation  # at once: the page reads the state
        threading.Thread(target=live.build).start()
        seen = [next_event()["generation"], next_event()["generation"]]  # building, then built
        assert seen == [first["generation"] + 1, first["generation"] + 2]
        connection.close()


def test_one_build_at_a_time_and_a_burst_of_saves_is_one_build(argonauts, tmp_path, monkeypatch):
    running, most, calls = [0], [0], []
    real = serve.rebuild

    def slow(names, out_dir, settings, changed=()):
        running[0] += 1
        most[0] = max(most[0], running[0])
        calls.append(list(changed))
        time.sleep(0.4)
        try:
            return real(names, out_dir, settings, changed)
        finally:
            running[0] -= 1

    monkeypatch.setattr(serve, "rebuild", slow)
    live = LiveBuild([str(argonauts)], tmp_path / "out", BuildSettings())
    stop = threading.Event()
    thread = threading.Thread(target=live.run, args=(stop,))
    thread.start()
    try:
        _wait(lambda: running[0] == 1)  # the first build is under way
        for i in range(5):
            live.request([argonauts.parent / f"save-{i}.csv"])
            time.sleep(0.02)
        _wait(lambda: live.builds == 2 and not live.state()["building"])
        time.sleep(0.6)  # time enough for a third build, were there one
    finally:
        stop.set()
        live.request()
        thread.join(timeout=10)
    assert not thread.is_alive()
    assert live.builds == 2 and most[0] == 1
    assert calls[1] == [argonauts.parent / f"save-{i}.csv" for i in range(5)]


def test_saves_on_disk_rebuild_through_the_watcher_of_watch(argonauts, tmp_path):
    pytest.importorskip("watchfiles")
    stop = threading.Event()
    live = LiveBuild([str(argonauts)], tmp_path / "out", BuildSettings())
    changes = serve.watch_changes([str(argonauts)], BuildSettings(), stop, "cardgen serve", "serve")
    threads = [threading.Thread(target=live.run, args=(stop,)),
               threading.Thread(target=serve._follow, args=(changes, tmp_path / "out", live))]
    for thread in threads:
        thread.start()
    try:
        _wait(lambda: live.builds == 1 and not live.state()["building"])
        time.sleep(0.5)  # let the watcher settle
        (argonauts.parent / ".argonauts.yaml.swp").write_text("vim's")  # an editor's file: no build
        cards = argonauts.parent / "cards.csv"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Ιάσων", "Jason"), encoding="utf-8")
        _wait(lambda: live.builds == 2 and not live.state()["building"])
        assert live.state()["built"]["changed"] == ["cards.csv"]
    finally:
        stop.set()
        live.request()
        for thread in threads:
            thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads)


# --- safe by default -----------------------------------------------------------------------

TRAVERSALS = [
    "/render/../serve.py", "/render/..%2f..%2fpyproject.toml", "/render/%2e%2e/%2e%2e/pyproject.toml",
    "/%2e%2e/%2e%2e/etc/passwd", "/../../etc/passwd", "/render//etc/passwd", "/render/%2fetc%2fpasswd",
    "//etc/passwd", "/render/", "/render", "/serve.py", "/cli.py", "/serve_page/page.js", "/page.js/../serve.py",
    "/render/argonauts.pdf", "/render/out", "/render/C:%5cWindows%5cwin.ini", "/.git/config",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_nothing_outside_the_page_and_its_pictures_is_served(argonauts, tmp_path, path):
    live = built(argonauts, tmp_path)
    with serving(live) as port:
        status, _, body = get(port, path)
    assert status == 404 and b"root:" not in body and b"[project]" not in body


def test_a_link_out_of_the_output_folder_is_not_served(argonauts, tmp_path):
    live = built(argonauts, tmp_path)
    name = live.state()["decks"][0]["faces"][0]["image"].removeprefix("/render/")
    (tmp_path / "out" / "passwd.png").symlink_to("/etc/passwd")
    (tmp_path / "out" / "preview").symlink_to("/etc")
    with serving(live) as port:
        assert get(port, f"/render/{name}")[0] == 200
        for path in ("/render/passwd.png", "/render/preview/passwd", "/passwd.png", "/preview/passwd"):
            assert get(port, path)[0] == 404


def test_only_get_is_answered_and_a_page_of_another_site_is_refused(argonauts, tmp_path):
    with serving(built(argonauts, tmp_path)) as port:
        assert get(port, "/state", host="evil.example")[0] == 400  # a DNS rebinding page
        assert get(port, "/state", host="localhost")[0] == 200
        assert get(port, "/state", host="[::1]")[0] == 200
        assert get(port, "/state", host="127.0.0.1.evil.example")[0] == 400
        assert get(port, "/state", host="[::1")[0] == 400
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/state", body=b"{}")
        assert connection.getresponse().status == 405
        connection.close()


def test_loopback_is_quiet_and_any_other_address_warns():
    for host in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"):
        assert host_warning(host) is None and "*" not in allowed_hosts(host)
    assert "127.0.0.2" in allowed_hosts("127.0.0.2")
    for host in ("0.0.0.0", "192.168.1.20", "::", "cards.example"):
        assert "other machines" in host_warning(host) and allowed_hosts(host) == ["*"]


def test_a_port_in_use_is_a_clear_error(argonauts):
    from cardgen.errors import CardgenError

    taken = listen("127.0.0.1", 0)
    try:
        with pytest.raises(CardgenError, match=r"cannot listen on 127\.0\.0\.1:.*another --port"):
            listen("127.0.0.1", taken.getsockname()[1])
    finally:
        taken.close()


# --- the command ---------------------------------------------------------------------------

def test_serve_takes_every_build_option(cli):
    result = cli("serve", "--help")
    assert result.exit_code == 0
    build = cli("build", "--help").output
    import re

    options = set(re.findall(r"--[a-z][a-z-]+", build)) - {"--help"}
    missing = {o for o in options if o not in result.output}
    assert not missing
    for option in ("--port", "--host", "--open / --no-open"):
        assert option in result.output


def test_serve_without_its_extra_says_how_to_install_it(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = cli("serve", "argonauts-nowhere.yaml", "--no-open")
    assert result.exit_code == 2 and "pip install 'cardgen[serve]'" in result.output


def test_serve_of_a_deck_that_is_not_there_stops_before_listening(cli):
    result = cli("serve", "no-such-deck.yaml", "--no-open", "--port", "0")
    assert result.exit_code == 2 and "no-such-deck" in result.output and "serving" not in result.output


def test_a_bug_in_a_build_is_shown_and_serving_goes_on(argonauts, tmp_path, monkeypatch):
    calls = []

    def broken(deck):
        calls.append(deck)
        raise RuntimeError("a plug-in's own mistake")

    monkeypatch.setattr(serve, "snapshot_of", broken)
    lines: list[str] = []
    live = LiveBuild([str(argonauts)], tmp_path / "out", BuildSettings(), say=lines.append)
    stop = threading.Event()
    thread = threading.Thread(target=live.run, args=(stop,))
    thread.start()
    try:
        _wait(lambda: live.state()["error"] is not None)
        assert "RuntimeError: a plug-in's own mistake" in live.state()["error"]["text"]
        monkeypatch.undo()
        live.request([argonauts])
        _wait(lambda: live.builds == 2 and live.state()["error"] is None and live.state()["decks"])
    finally:
        stop.set()
        live.request()
        thread.join(timeout=10)
    assert not thread.is_alive() and "could not finish this build" in lines[0]
