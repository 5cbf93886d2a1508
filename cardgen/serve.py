"""``cardgen serve``: a live page of the decks in the web browser, rebuilt on every save.

``LiveBuild`` builds the decks as ``build`` does (``preview.rebuild``, the code ``watch`` runs),
rasterises every distinct face and back (``export.cards.rasterize``, as ``preview`` does) and every
page of the sheet PDFs the build wrote (pypdfium2), and keeps the result as the page's state:
the faces with their layout elements' boxes and YAML locations (the hints), the validator's
findings, and for a deck with a game a small seeded playtest. One build runs at a time in one
thread; changes that arrive meanwhile are gathered into the next build. A build that fails keeps
the last good one on show, with the error over it.

``make_app`` serves the page's own files (a fixed list shipped in ``cardgen/serve_page/``), the
state as JSON, an event stream that tells the page when the state changed, and the images of the
current and previous build, looked up by name in memory: nothing a request names reaches the file
system. ``serve_decks`` puts it all together behind uvicorn on 127.0.0.1 by default.
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import ipaddress
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .build import BuildResult
from .errors import CardgenError
from .findings import Finding
from .prepare import BuildSettings
from .preview import PREVIEW_DPI, Rebuild, rebuild, relevant_changes, watch_changes

#: how sharp the pictures are: the faces as ``cardgen preview`` draws them, the sheets a little less
FACE_DPI = PREVIEW_DPI
SHEET_DPI = 100
#: the quick playtest after each build of a deck with a game: random play, seeded
PLAYTEST_GAMES = 200
PLAYTEST_SEED = 1
#: the page's own files, and their types: nothing else is served from the package
PAGE_FILES = {"index.html": "text/html; charset=utf-8", "page.js": "text/javascript; charset=utf-8",
              "page.css": "text/css; charset=utf-8"}
#: the page asks for nothing but its own files: no CDN, no other site
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
               "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
#: an event stream says something at least this often (seconds), so a closed page is noticed
KEEP_ALIVE = 15.0
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


# --- the live build -----------------------------------------------------------------

@dataclass
class Snapshot:
    """What the page shows of a good build: the state as JSON-ready data, the images it names, and
    the build's results (for the playtest that follows)."""

    state: dict[str, Any]
    images: dict[str, bytes] = field(default_factory=dict)
    results: list[BuildResult] = field(default_factory=list)


class LiveBuild:
    """The decks' last good build and what became of the builds since, kept up to date by ``run``."""

    def __init__(self, names: Sequence[str], out_dir: Path, settings: BuildSettings,
                 say: Callable[[str], None] = lambda line: None, playtest_games: int = PLAYTEST_GAMES):
        self.names = list(names)
        self.out_dir = out_dir
        self.settings = settings
        self.say = say
        self.playtest_games = playtest_games
        self.changes = Changes()
        self._snapshot = Snapshot({"decks": [], "sheets": []})
        self._previous_images: dict[str, bytes] = {}
        self._status: dict[str, Any] = {"building": True, "error": None, "built": None, "builds": 0}
        self._pending: list[Path] = []
        self._wake = threading.Condition()
        self._first = True
        self.builds = 0
        #: the server is stopping: the event streams end
        self.closing = False

    # what the server reads

    def state(self) -> dict[str, Any]:
        return {**self._snapshot.state, **self._status, "generation": self.changes.generation}

    def image(self, name: str) -> bytes | None:
        return self._snapshot.images.get(name) or self._previous_images.get(name)

    # what the watcher calls

    def request(self, changed: Sequence[Path] = ()) -> None:
        """Ask for a build after these files changed; builds asked for while one runs become one."""
        with self._wake:
            self._pending.extend(changed)
            self._first = self._first or not changed
            self._wake.notify()

    # the builder thread

    def run(self, stop: threading.Event) -> None:
        """Build now, and again whenever asked, until ``stop`` is set (then ``request`` wakes it)."""
        self.request()
        while True:
            with self._wake:
                while not (self._pending or self._first) and not stop.is_set():
                    self._wake.wait(0.5)
                if stop.is_set():
                    return
                changed, self._pending, self._first = self._pending, [], False
            try:
                self.build(changed)
                # then what the cards do not wait for, unless another build is wanted already
                for step in (self.sheets, self.playtest):
                    if not self._pending:
                        step()
            except Exception as exc:  # a bug, here or in a plug-in: said on the page, and serving goes on
                self._status = {**self._status, "building": False, "error": {
                    "text": f"cardgen serve could not finish this build: {type(exc).__name__}: {exc}",
                    "message": str(exc), "location": None, "findings": []}}
                self.say(f"{time.strftime('%H:%M:%S')} {self._status['error']['text']}")
                self.changes.bump()

    def build(self, changed: Sequence[Path] = ()) -> Rebuild:
        """One build, its pictures and findings made and shown (or its error shown over the last good
        build); the sheets' pages and the playtest come after (``sheets``, ``playtest``)."""
        self._status = {**self._status, "building": True}
        self.changes.bump()
        done = rebuild(self.names, self.out_dir, self.settings, changed)
        self.builds += 1
        built = {"at": time.strftime("%H:%M:%S"), "seconds": round(done.seconds, 3),
                 "changed": list(dict.fromkeys(p.name for p in changed))}
        if done.results is None:
            assert done.error is not None
            self._status = {"building": False, "error": error_state(done.error), "built": built,
                            "builds": self.builds}
        else:
            self._previous_images, self._snapshot = self._snapshot.images, snapshot_of(done)
            self._status = {"building": False, "error": None, "built": built, "builds": self.builds}
        self.say(done.line)
        self.changes.bump()
        return done

    def sheets(self) -> None:
        """The pages of the last good build's sheet PDFs, drawn after its cards are on show."""
        snapshot = self._snapshot
        if all(sheet["pages"] is not None for sheet in snapshot.state["sheets"]):
            return
        images = dict(snapshot.images)
        try:
            sheets = [{**sheet, "pages": [_keep(png, images) for png in _pdf_pages(Path(sheet["path"]), SHEET_DPI)]}
                      for sheet in snapshot.state["sheets"]]
        except CardgenError as exc:  # a PDF changed under the page's feet
            sheets = [{**sheet, "pages": [], "error": str(exc)} for sheet in snapshot.state["sheets"]]
        snapshot.images = images
        snapshot.state = {**snapshot.state, "sheets": sheets}
        self.changes.bump()

    def playtest(self) -> None:
        """The quick playtest of each deck of the last good build that has a game and none yet."""
        snapshot = self._snapshot
        for index, result in enumerate(snapshot.results):
            if (snapshot.state["decks"][index]["playtest"] or {}).get("status") != "pending":
                continue
            report = quick_playtest(result, self.playtest_games)
            decks = list(snapshot.state["decks"])  # a new state, not one the server may be reading changed
            decks[index] = {**decks[index], "playtest": report}
            snapshot.state = {**snapshot.state, "decks": decks}
            self.changes.bump()


class Changes:
    """A count that goes up whenever the state changes, and waits on it for the event streams
    (bumped from the builder thread, awaited in the server's event loop)."""

    def __init__(self) -> None:
        self.generation = 0
        self._lock = threading.Lock()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def bump(self) -> None:
        with self._lock:
            self.generation += 1
            waiters = list(self._waiters)
        for loop, event in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed
                loop.call_soon_threadsafe(event.set)

    async def newer_than(self, seen: int, timeout: float) -> int:
        """The generation once it is not ``seen``, or after ``timeout`` seconds whatever it is."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            if self.generation != seen:
                return self.generation
            self._waiters.add(waiter)
        try:
            await asyncio.wait_for(waiter[1].wait(), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters.discard(waiter)
        return self.generation


# --- what a build shows ---------------------------------------------------------------

def snapshot_of(done: Rebuild) -> Snapshot:
    """The page's state of a good build: each deck's faces and backs as PNGs with their hints, its
    findings, the sheet PDFs written (their pages drawn next, by ``draw_sheets``) and a playtest to
    come for a deck with a game."""
    assert done.results is not None
    images: dict[str, bytes] = {}
    decks = [_deck_state(index, result, images) for index, result in enumerate(done.results)]
    paths = dict.fromkeys(export.path for result in done.results for export in result.exports
                          if export.format == "pdf")
    sheets = [{"file": path.name, "path": str(path), "pages": None} for path in paths]
    formats = list(dict.fromkeys(e.format for r in done.results for e in r.exports))
    return Snapshot({"decks": decks, "sheets": sheets, "formats": formats}, images, done.results)


def _deck_state(index: int, result: BuildResult, images: dict[str, bytes]) -> dict[str, Any]:
    from .export.cards import CardBox, rasterize
    from .games import game_info

    deck, faces = result.deck, result.faces
    assert faces is not None  # every build keeps its faces
    fronts = list(dict.fromkeys(faces.face(card) for card in deck.cards))
    backs = list(dict.fromkeys(faces.back(card) for card in deck.cards))
    keys = fronts + [key for key in backs if key not in fronts]
    box = CardBox(faces.width, faces.height, 0.0)
    pictures = {key: _png(image) for key, image in rasterize(faces.drawings, keys, box, FACE_DPI)}
    cards: dict[str, list] = {key: [] for key in keys}
    for card in deck.cards:
        cards[faces.face(card)].append(card)
        if faces.back(card) != faces.face(card):
            cards[faces.back(card)].append(card)
    front_keys = set(fronts)
    face_states = [_face_state(key, "front" if key in front_keys else "back", cards[key], faces,
                               _keep(pictures[key], images)) for key in keys]
    first_face: dict[str, str] = {}
    for face in face_states:
        if face["side"] == "front":
            for card_id in face["cards"]:
                first_face.setdefault(card_id, face["key"])
    return {
        "index": index, "id": deck.id, "name": deck.name, "file": str(deck.path),
        "width": faces.width, "height": faces.height,
        "players": [player.name for player in deck.players] if deck.per_player else [],
        "faces": face_states,
        "findings": [finding_state(f, first_face) for f in result.warnings],
        "playtest": {"status": "pending"} if game_info(deck.game) is not None else None,
        "game": deck.game,
    }


def _face_state(key: str, side: str, cards: list, faces: Any, image: str) -> dict[str, Any]:
    owners = {card.owner for card in cards}
    drawing = faces.drawings[key]
    layout = getattr(drawing, "layout", None)
    width, height = faces.width, faces.height
    elements = []
    for element in getattr(drawing, "elements", ()):
        left, bottom, w, h = element.bounds(width, height, faces.safe)
        elements.append({"name": element.name, "type": element.type,
                         "box": [round(v, 5) for v in (left / width, (height - bottom - h) / height,
                                                       w / width, h / height)],
                         "location": str(element.location) if element.location else None})
    copies: dict[str, int] = {}
    for card in cards:
        copies[card.id] = copies.get(card.id, 0) + card.copies
    return {
        "key": key, "side": side, "image": image,
        "player": owners.pop() if len(owners) == 1 and -1 not in owners else None,
        "cards": list(copies), "copies": sum(copies.values()),
        "location": str(cards[0].location) if cards and cards[0].location else None,
        "layout": layout.name if layout is not None else None,
        "layout_location": str(layout.location) if layout is not None and layout.location else None,
        "kind": cards[0].kind if cards else None,
        "elements": elements,
    }


def finding_state(finding: Finding, faces: dict[str, str]) -> dict[str, Any]:
    """A finding for the page, with the face of the card it concerns when there is one."""
    return {"severity": finding.severity, "message": finding.message, "card": finding.card,
            "location": str(finding.location) if finding.location else finding.deck,
            "face": faces.get(finding.card)}


def error_state(error: CardgenError) -> dict[str, Any]:
    findings = getattr(error, "findings", None) or []
    return {"text": str(error), "message": error.message,
            "location": str(error.location) if error.location else None,
            "findings": [finding_state(f, {}) for f in findings]}


def quick_playtest(result: BuildResult, games: int) -> dict[str, Any]:
    """The small seeded playtest of a deck as built: completion, each seat's wins with their
    interval, the games' length."""
    from .games import game_info
    from .playtest import run_playtest

    deck = result.deck
    info = game_info(deck.game)
    assert info is not None  # asked for decks with a game only
    try:
        game = info.from_deck(deck, deck.options)
        report = run_playtest(game, games=games, seed=PLAYTEST_SEED, policy="random")
    except CardgenError as exc:
        return {"status": "error", "text": str(exc)}
    return {"status": "done", **{key: report[key] for key in (
        "games", "seed", "policy", "completion", "outcomes", "seat_win_rates", "mean_length", "median_length",
        "min_length", "max_length", "verdict")}}


def _png(image: Any) -> bytes:
    from .export.cards import PNG_OPTIONS

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", **PNG_OPTIONS)
    return buffer.getvalue()


def _keep(png: bytes, images: dict[str, bytes]) -> str:
    """The image's address, named by its content: a face that did not change keeps its address."""
    name = hashlib.sha256(png).hexdigest()[:24] + ".png"
    images[name] = png
    return f"/render/{name}"


def _pdf_pages(path: Path, dpi: float) -> list[bytes]:
    """Every page of a PDF the build wrote, as PNG."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(path.read_bytes())
    except (OSError, pdfium.PdfiumError) as exc:
        raise CardgenError(f"cannot read back {path}: {exc}") from None
    try:
        pages = []
        for page in pdf:
            pages.append(_png(page.render(scale=dpi / 72.0).to_pil().convert("RGB")))
            page.close()
        return pages
    finally:
        pdf.close()


# --- the server -------------------------------------------------------------------------

def make_app(live: LiveBuild, allowed_hosts: Sequence[str] = ("*",)) -> Any:
    """The page's routes over ``live``; a request whose Host is not one of ``allowed_hosts`` is
    refused (a page on another site cannot read this one by renaming itself to 127.0.0.1)."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
    from starlette.routing import Route

    from .resources import bundled

    folder = bundled("serve_page")
    page = {name: (folder / name).read_bytes() for name in PAGE_FILES}
    plain = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}

    def not_found() -> Response:
        return PlainTextResponse("not found", status_code=404, headers=plain)

    async def page_file(request: Request) -> Response:
        name = request.path_params.get("name", "index.html")
        if name not in page:
            return not_found()
        return Response(page[name], media_type=PAGE_FILES[name],
                        headers={**plain, "Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY})

    async def state(request: Request) -> Response:
        return JSONResponse(live.state(), headers={**plain, "Cache-Control": "no-store"})

    async def render(request: Request) -> Response:
        png = live.image(request.path_params["name"])
        if png is None:
            return not_found()
        # named by their content, so an address always shows the same picture
        return Response(png, media_type="image/png", headers={**plain, "Cache-Control": "max-age=3600, immutable"})

    async def events(request: Request) -> Response:
        async def stream():
            seen = -1
            while not live.closing:
                generation = await live.changes.newer_than(seen, KEEP_ALIVE)
                if live.closing:
                    return
                if generation == seen:
                    yield ": still here\n\n"
                    continue
                seen = generation
                yield f"event: state\ndata: {json.dumps({'generation': generation})}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**plain, "Cache-Control": "no-store"})

    routes = [Route("/", page_file), Route("/state", state), Route("/events", events),
              Route("/render/{name}", render), Route("/{name}", page_file)]
    app = Starlette(routes=routes, middleware=[Middleware(_HostCheck, allowed=frozenset(allowed_hosts))])
    app.router.redirect_slashes = False  # /render/ is not found, not sent to /render
    return app


class _HostCheck:
    """ASGI middleware: a request whose Host header names no allowed host is answered 400 ("*"
    allows any). The host is read as a URL's (a port and an IPv6 literal's brackets taken off)."""

    def __init__(self, app: Any, allowed: frozenset[str]):
        self.app, self.allowed = app, allowed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and "*" not in self.allowed:
            from urllib.parse import urlsplit

            header = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            try:
                name = urlsplit(f"//{header}").hostname
            except ValueError:
                name = None
            if name not in self.allowed:
                from starlette.responses import PlainTextResponse

                await PlainTextResponse("this page answers only to this machine's own names",
                                        status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def host_warning(host: str) -> str | None:
    """What to say before serving on ``host``: nothing for this machine alone (loopback), a warning
    for an address other machines can reach."""
    if host in LOOPBACK_NAMES:
        return None
    try:
        if ipaddress.ip_address(host.strip("[]")).is_loopback:
            return None
    except ValueError:
        pass
    return (f"warning: --host {host} lets other machines reach the page, and through it every card and "
            f"finding of the decks served; 127.0.0.1 (the default) keeps it to this machine")


def allowed_hosts(host: str) -> list[str]:
    """The Host names a request may give: this machine's, when serving on loopback."""
    return sorted({*LOOPBACK_NAMES, host.strip("[]").lower()}) if host_warning(host) is None else ["*"]


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (0: any free port), or a located CardgenError."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise CardgenError(f"--host {host}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise CardgenError(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                           + ("; give another --port" if exc.errno in (98, 48, 10048) else "")) from None
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


def serve_decks(names: Sequence[str], out_dir: Path, settings: BuildSettings, host: str = "127.0.0.1",
                port: int = 8000, open_browser: bool = False, say: Callable[[str], None] = print) -> None:
    """Serve the live page of the decks until Ctrl-C (KeyboardInterrupt) or SIGTERM; the build writes
    into ``out_dir`` what ``build`` writes, and again on every change."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise CardgenError("cardgen serve needs starlette and uvicorn: pip install 'cardgen[serve]'") from None
    from .deck import deck_names, load_deck, resolve_deck
    from .prepare import check_settings

    check_settings(settings)
    for name in deck_names(names):  # a deck that is not there stops here, before anything listens
        if not resolve_deck(name).is_file():
            load_deck(name)  # says so as every command does
    stop = threading.Event()
    changes = watch_changes(names, settings, stop, "cardgen serve", "serve")
    warning = host_warning(host)
    sock = listen(host, port)
    if warning:
        say(warning)
    live = LiveBuild(names, out_dir, settings, say)
    server = server_for(live, host)
    threads = [threading.Thread(target=live.run, args=(stop,), name="cardgen-build", daemon=True),
               threading.Thread(target=_follow, args=(changes, out_dir, live), name="cardgen-watch", daemon=True)]
    for thread in threads:
        thread.start()
    url = url_of(sock)
    say(f"serving {', '.join(names) or 'the bundled decks'} on {url} ; Ctrl-C stops")
    if open_browser:
        threading.Thread(target=_open, args=(url, server, say), daemon=True).start()
    try:
        server.run(sockets=[sock])
    finally:
        stop.set()
        live.request()
        for thread in threads:
            thread.join(timeout=5)
        sock.close()


def server_for(live: LiveBuild, host: str) -> Any:
    """The uvicorn server of ``live``'s page on ``host``: quiet (the build's lines are the log), and
    quick to stop however many pages are still listening to the event stream."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            live.closing = True  # the event streams end, so their connections close as asked
            live.changes.bump()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(make_app(live, allowed_hosts(host)), log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=2, server_header=False)
    return Server(config)


def _follow(changes: Any, out_dir: Path, live: LiveBuild) -> None:
    for changed in relevant_changes(changes, out_dir):
        live.request(changed)


def _open(url: str, server: Any, say: Callable[[str], None]) -> None:
    import webbrowser

    while not server.started and not server.should_exit:
        time.sleep(0.05)
    # with no screen, Python would start a text browser (lynx, w3m) in this very terminal
    graphical = not sys.platform.startswith("linux") or any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY"))
    if not graphical or not webbrowser.open(url):
        say(f"no web browser to open here: open {url} in one")
