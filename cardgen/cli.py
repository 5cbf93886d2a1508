"""The command line: thin click commands over the library.

Every user mistake arrives here as a CardgenError and leaves as one line,
``Error: file:line:col: message``, with exit code 2. Nothing else prints.
"""
from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import click

from .colors import COLOR_SPACES
from .errors import CardgenError
from .export import DEFAULT_FORMAT, FORMATS
from .games import LADDER_POLICIES, POLICIES, BuildSetting, declared_settings
from .preflight import DEFAULT_MIN_PPI, PREFLIGHT_SPACES
from .sheets import BACK_FLIPS, DEFAULT_SHEET, DUPLEX_MODES, INK_MODES

BAD_INPUT = 2
UNPLAYABLE = 1
#: 128 + SIGINT, as a shell reports a command stopped by Ctrl-C; 128 + SIGTERM
INTERRUPTED = 130
TERMINATED = 143


class CardgenCommand(click.Command):
    """A command; one that prepares decks also takes the build settings installed plug-in games
    declare, added when it runs or shows its help (``cardgen --help`` imports no plug-in)."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        if not getattr(self.callback, "prepares_decks", False):
            return params
        from .games import plugin_games

        added = []
        for setting in declared_settings(plugin_games()):
            same = [p for p in params if p.name == setting.name or setting.flag in getattr(p, "opts", ())]
            if not same:
                added.append(GameSettingOption(setting=setting))
            elif not (isinstance(same[0], GameSettingOption) and same[0].setting == setting):
                raise CardgenError(f"an installed game declares the build setting '{setting.name}', which is "
                                   f"already an option of cardgen {self.name}; the game must rename it")
        own = len(self.params)
        return params[:own] + added + params[own:]  # --help stays last


class GameSettingOption(click.Option):
    """The command-line option of a build setting a game declares (``GameInfo.build_settings``)."""

    def __init__(self, param_decls: Any = None, *, setting: BuildSetting, **attrs: Any):
        super().__init__(param_decls or [setting.flag, setting.name], default=setting.default,
                         metavar=setting.metavar, show_default=True, help=setting.help, **attrs)
        self.setting = setting


class CardgenGroup(click.Group):
    """Turns a CardgenError anywhere below into ``Error: ...`` and exit 2."""

    command_class = CardgenCommand

    def invoke(self, ctx):
        _stop_on_sigterm()
        try:
            return super().invoke(ctx)
        except CardgenError as exc:
            from .build import DeckUnplayable

            if ctx.params.get("debug") and getattr(exc, "trace", ""):
                click.echo(exc.trace.rstrip(), err=True)  # type: ignore[attr-defined]
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(getattr(exc, "exit_code", UNPLAYABLE if isinstance(exc, DeckUnplayable) else BAD_INPUT))
        except BrokenPipeError:
            # output piped into `head` and the like: not an error
            sys.stderr.close()
            ctx.exit(0)
        except OSError as exc:
            # an --out folder that cannot be made or written, a full disk
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"Error: cannot write {where}{exc.strerror or exc}", err=True)
            ctx.exit(BAD_INPUT)
        except KeyboardInterrupt:
            # Ctrl-C: one line and the shell's code for SIGINT; temporary files are already gone
            _quiet_exit()
            click.echo("\ninterrupted", err=True)
            ctx.exit(INTERRUPTED)
        except Terminated:
            _quiet_exit()
            click.echo("terminated", err=True)
            ctx.exit(TERMINATED)


def _quiet_exit() -> None:
    """Stopped mid-render, pypdfium2 finds at exit the pages it was drawing and writes a warning
    about each to stderr; they are closed all the same, and the one line said is enough."""
    if "pypdfium2_cfg" in sys.modules:
        import logging

        sys.modules["pypdfium2_cfg"].DEBUG_AUTOCLOSE.value = logging.CRITICAL + 1


class Terminated(BaseException):
    """SIGTERM, raised where the program is so that every temporary file is removed on the way out."""


def _stop_on_sigterm() -> None:
    import signal
    import threading

    def stop(signum: int, frame: object) -> None:
        raise Terminated()

    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, stop)


@click.group(cls=CardgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardgen")
@click.option("--debug", is_flag=True, help="Show the traceback of what a plug-in game raised.")
def main(debug: bool) -> None:
    """Print-and-play card decks from YAML, with a rules validator and playtests.

    Build the bundled decks with `cardgen build`, see what is bundled with
    `cardgen list`.
    """


# --- options shared by several commands, declared once -------------------------
# Choices come from the data they name (sheet templates, duplex modes,
# policies), so help texts cannot drift from what the program accepts.

def _sheet_option(func, default: str | None = None):
    from .sheets import template_names

    names = template_names()
    return click.option(
        "--sheet", default=default, show_default=default is not None,
        metavar="NAME|FILE.yaml", shell_complete=lambda ctx, param, incomplete: [
            n for n in names if n.startswith(incomplete)],
        help=f"Sheet template (stock with a fixed grid): {', '.join(names)}, or a template .yaml file "
             "(docs/sheets.md); with a deck, its card size must be the deck's.")(func)


def _stock_option(func):
    """``--sheet`` of a command without a deck (calibrate): a stock, by default letter-10up."""
    return _sheet_option(func, DEFAULT_SHEET)


def _paper_options(func):
    """Where the cards go: a stock template, or a paper imposed automatically (declared once for
    every command that builds or reads the cards' size)."""
    from .sheets.sizes import PAPERS

    for option in reversed((
        _sheet_option,
        click.option("--paper", default=None, metavar="|".join(PAPERS) + "|WxH",
                     help="Paper to impose the cards on automatically, the most a page, turned when that fits "
                          "more (e.g. a4, 210x297mm) [default: the deck's paper:; with neither, business "
                          "cards go on letter-10up and other sizes on letter]."),
        click.option("--margin", "margin_text", default=None, metavar="LENGTH",
                     help="Printable margin around the cards with --paper [default: 5mm]."),
        click.option("--gap", "gap_text", default=None, metavar="LENGTH",
                     help="Space between cards with --paper, for bleed and crop marks between them, e.g. 6mm "
                          "[default: 0, cards touching, one cut between neighbours]."),
    )):
        func = option(func)
    return func


def _duplex_option(modes: tuple[str, ...]):
    meaning = {"long": "backs mirrored left-right for long-edge flip",
               "short": "backs mirrored top-bottom and turned 180 degrees for short-edge flip",
               "off": "fronts only"}
    return click.option("--duplex", type=click.Choice(modes), default=modes[0], show_default=True,
                        help="; ".join(f"{m}: {meaning[m]}" for m in modes) + ".")


def _deck_options(func):
    """What customises a deck as printed and played: colours, the games' own build settings (the
    bundled ones' read as data, no engine imported; plug-ins' added by CardgenCommand), players,
    rule options."""
    for option in reversed((
        click.option("--color", "colors", multiple=True, metavar="COLOR",
                     help="A player's colour, CSS name or #hex; once per player, in order."),
        *(click.option(setting.flag, setting.name, cls=GameSettingOption, setting=setting)
          for setting in declared_settings()),
        click.option("--players", type=int, default=None,
                     help="Player count, for decks that take one (Clusterfuck: 3 to 12, default 8)."),
        click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
                     help="A rule option, e.g. target=6, assets=12, standard_deck=true. Repeatable."),
    )):
        func = option(func)
    func.prepares_decks = True
    return func


def _strict_option(func):
    return click.option("--strict", is_flag=True,
                        help="Make every warning an error, for a print shop's build: low-resolution art, "
                             "say, then makes the deck unplayable (exit 1) and build writes nothing.")(func)


def _color_space_option(func):
    return click.option(
        "--color-space", type=click.Choice(COLOR_SPACES), default=COLOR_SPACES[0], show_default=True,
        help="How the PDFs write colours. rgb: as given, for screens and home printers; cmyk: in printing "
             "inks for a press, black text and lines in black ink alone, rich black only where a colour "
             "asks for it (cmyk(60,40,40,100) or rich-black); raster art converted too (docs/cmyk.md). "
             "PNG and Tabletop Simulator exports stay RGB.")(func)


def _json_option(what: str):
    return click.option("--json", "as_json", is_flag=True, help=f"Print the {what} as JSON.")


def _settings(colors=(), players=None, options=(), margin_text=None, gap_text=None, **fields):
    """BuildSettings from the shared options; ``--players N`` is the players option, and the options
    of the games' own build settings go to ``game_settings`` by name."""
    from .prepare import BuildSettings, parse_option_pairs

    for name, text in (("margin", margin_text), ("gap", gap_text)):
        if text is not None:
            fields[name] = _length(text, f"--{name}")

    overrides = parse_option_pairs(options)
    if players is not None:
        overrides["players"] = str(players)
    ctx = click.get_current_context()
    named = [p.name for p in ctx.command.get_params(ctx) if isinstance(p, GameSettingOption)]
    game = {name: fields.pop(name) for name in named if name in fields}
    return BuildSettings(colors=tuple(colors), game_settings=game, options=overrides, **fields)


_OUT = click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
                    show_default=True, help="Folder for what is written.")


def _build_options(func):
    """Everything `build` takes; `watch` takes the same."""
    for option in reversed((
        _OUT,
        _paper_options,
        _duplex_option(DUPLEX_MODES),
        click.option("--back-offset", default="0,0", metavar="X,Y", show_default=True,
                     help="Shift every backs page by X,Y mm (+X right, +Y up) to correct printer misregistration."),
        click.option("--front-offset", default="0,0", metavar="X,Y", show_default=True,
                     help="Shift every fronts page by X,Y mm (+X right, +Y up) so the cards meet the stock's "
                          "perforations; `cardgen calibrate` measures it."),
        _deck_options,
        click.option("--ink", type=click.Choice(INK_MODES), default=INK_MODES[0], show_default=True,
                     help="full: backs in the deck's colours; light: outline art on white, a few per cent of "
                          "the ink (for the built-in back)."),
        click.option("--format", "formats", multiple=True, type=click.Choice(list(FORMATS)),
                     default=(DEFAULT_FORMAT,), show_default=True,
                     help="What to write; repeatable. " + "; ".join(f"{f.name}: {f.help}" for f in FORMATS.values())
                          + "."),
        click.option("--dpi", type=click.FloatRange(36, 1200), default=300, show_default=True,
                     help="Resolution of PNG exports."),
        click.option("--bleed", "bleed_text", default=None, metavar="LENGTH",
                     help="Bleed of png and pdf-cards, e.g. 3mm or 0.125in [default: the sheet's, or 1/8 in]."),
        click.option("--corners", "corners_text", default="0", metavar="LENGTH", show_default=True,
                     help="Round the corners of the cards' trim in PNGs to this radius (the bleed round it by "
                          "radius + bleed), transparent outside (e.g. 3mm)."),
        click.option("--one-pdf", is_flag=True,
                     help="Every deck and player of the build in one PDF (DECK.pdf, or cards.pdf for several "
                          "decks), filling sheets one after another: the fewest sheets the cards need."),
        click.option("--back-crop-marks", "back_marks", is_flag=True,
                     help="Crop marks on the backs pages too, for cutting from the back."),
        click.option("--backs-at-end", is_flag=True,
                     help="All fronts pages first, then all backs pages, for printers without duplex: print "
                          "the fronts, turn the stack over as your --duplex flip says, and print the backs."),
        _color_space_option,
        click.option("--no-validate", is_flag=True, help="Print even a deck that fails the structural checks."),
        _strict_option,
    )):
        func = option(func)
    return func


def _build_settings(back_offset, front_offset, no_validate, bleed_text, corners_text, formats, **shared):
    """BuildSettings from the options `_build_options` declares."""
    from .prepare import parse_offset

    return _settings(back_offset=parse_offset(back_offset, "--back-offset"),
                     front_offset=parse_offset(front_offset, "--front-offset"), validate=not no_validate,
                     bleed=_length(bleed_text, "--bleed") if bleed_text is not None else None,
                     corners=_length(corners_text, "--corners"), formats=tuple(dict.fromkeys(formats)), **shared)


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@_build_options
def build(decks, out_dir, **options):
    """Build printable PDFs of DECKs (bundled ids or .yaml files; none: every bundled deck).

    Each fronts page is followed by its backs page. Per-player decks (Common
    Carrier) give one PDF per player, named after deck and player. --format
    also writes PNGs, print-shop PDFs or Tabletop Simulator decks.
    """
    from .build import build_decks
    from .progress import Progress, reporting

    with reporting(Progress("building")):
        results = build_decks(decks, out_dir, _build_settings(**options))
    for result in results:
        for warning in result.warnings:
            click.echo(str(warning), err=True)  # file:line:col: warning: ...
        for export in result.exports:
            if export.pages is not None:
                click.echo(f"{export.path}: {_cards(export.cards)}, {export.pages} pages")
            else:
                files = f"{export.files} file{'s' if export.files != 1 else ''}"
                click.echo(f"{export.path}: {_cards(export.cards)} as {export.format} ({files})")


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@_build_options
def watch(decks, out_dir, **options):
    """Rebuild DECKs whenever they, their spreadsheets, art or fonts change (Ctrl-C stops).

    Takes the same options as build. Each rebuild is one line with the time it
    took, or the error that stopped it; a broken deck never ends the watch.
    """
    from .preview import watch_decks

    settings = _build_settings(**options)
    click.echo(f"watching {', '.join(decks) or 'the bundled decks'}; Ctrl-C stops")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a watch ends
        watch_decks(decks, out_dir, settings, click.echo)
    click.echo("stopped")


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@_build_options
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port of the page (0: any free one, printed).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to serve on; any but this machine's own (loopback) lets other machines see the "
                   "page, and a warning says so.")
@click.option("--open/--no-open", "open_", default=True, show_default=True,
              help="Open the page in the web browser.")
def serve(decks, out_dir, port, host, open_, **options):
    """A live page of DECKs in the web browser, rebuilt on every save (Ctrl-C stops).

    Takes the same options as build and writes what build writes. The page
    shows every distinct face (fronts or backs, per player), a card enlarged
    on click, the printed sheets, the validator's findings and, for a deck
    with a game, a quick seeded playtest; hints outline each layout element
    and name the YAML line that defines it. On every save of a deck, its
    layouts, spreadsheets, art or fonts the page updates itself; a broken
    deck shows its error over the last good build. Needs
    `pip install 'cardgen[serve]'`.
    """
    from .serve import serve_decks

    settings = _build_settings(**options)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how serving ends
        serve_decks(decks, out_dir, settings, host=host, port=port, open_browser=open_, say=click.echo)
    click.echo("stopped")


@main.command()
@click.argument("deck")
@click.argument("card_ids", nargs=-1, metavar="[CARD_ID]...")
@_OUT
@_paper_options
@_deck_options
@click.option("--hand", type=int, default=None, metavar="N",
              help="A fanned hand of N cards (1 to 16), as a player holds them, with soft shadows: "
                   "DECK-hand.png. The cards: CARD_IDs (N of them), or the deck's first N distinct faces "
                   "(reference cards left out).")
@click.option("--showcase", is_flag=True,
              help="A row of cards in perspective with shadows and a floor reflection: DECK-showcase.png. "
                   "The cards: CARD_IDs (1 to 8), or the deck's first 3 distinct faces (reference cards "
                   "left out).")
@click.option("--dpi", type=float, default=None,
              help="Resolution of the pictures, 36 to 1200 [default: 150; the contact sheet 100].")
@click.option("--corners", "corners_text", default="3mm", metavar="LENGTH", show_default=True,
              help="Corner radius of the cards in --hand and --showcase pictures (0: square).")
@click.option("--open", "open_", is_flag=True, help="Open the pictures in the system's image viewer.")
def preview(deck, card_ids, out_dir, hand, showcase, dpi, corners_text, open_, **shared):
    """PNGs of DECK's cards CARD_ID... (front and back side by side), or a contact sheet of every face.

    With --hand N or --showcase (or both), pictures of the fronts for a rulebook or
    a crowdfunding page instead: RGBA PNGs on a transparent background, at --dpi.
    Writes them to OUT/preview/ (DECK-ID.png, DECK-contact-sheet.png,
    DECK-hand.png, DECK-showcase.png) and prints their paths.
    """
    from .preview import preview_cards, showcase_pictures

    settings = _settings(**shared)
    if hand is not None or showcase:
        paths = showcase_pictures(deck, card_ids, settings, out_dir, hand=hand, showcase=showcase,
                                  dpi=dpi, corners=_length(corners_text, "--corners"))
    else:
        paths = preview_cards(deck, card_ids, settings, out_dir, dpi=dpi)
    for path in paths:
        click.echo(str(path))
        if open_ and click.launch(str(path)) != 0:
            click.echo(f"cannot open {path}: no image viewer found", err=True)


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _length(text: str, option: str) -> float:
    from .units import parse_length

    try:
        return parse_length(text)
    except ValueError as exc:
        raise CardgenError(f"{option}: {exc}") from None


@main.command("list")
def list_() -> None:
    """Show the bundled decks, card sizes, papers, sheet templates and built-in icons."""
    from .prepare import BuildSettings, plan_outputs, prepare_decks
    from .render.icons import ICONS
    from .sheets import load_template, template_names
    from .sheets.papers import fit
    from .sheets.sizes import CARD_SIZES, PAPERS

    click.echo("Decks (as `cardgen build` prints them by default):")
    for deck in prepare_decks((), BuildSettings()):
        outputs = plan_outputs(deck, Path("."))
        players = [o for o in outputs if o.player is not None]
        if players:
            shared = sum(o.count for o in outputs if o.player is None)
            cards = f"{players[0].count} cards per player" + (f", {shared} shared" if shared else "") + \
                f" ({len(outputs)} PDFs)"
        else:
            cards = f"{outputs[0].count} cards"
        click.echo(f"  {deck.id:16} {deck.name}: {cards}")
        if deck.options:
            click.echo(f"  {'':16} options: " + ", ".join(
                f"{k}={'auto' if v is None else v}" for k, v in deck.options.items()))
    click.echo("Card sizes (card: NAME, or WxH such as 63x88mm), cards a page with 5 mm margins:")
    for size in CARD_SIZES.values():
        per_page = ", ".join(f"{fit(paper, size).per_sheet} on {paper.name}" for paper in
                             (PAPERS["letter"], PAPERS["a4"]))
        click.echo(f"  {size.name:16} {size.label}: {per_page}")
    click.echo("Papers (--paper NAME or WxH, paper: in a deck):")
    for paper in PAPERS.values():
        click.echo(f"  {paper.name:16} {paper.label}")
    click.echo("Sheets (--sheet NAME, stock with a fixed grid):")
    for name in template_names():
        t = load_template(name)
        click.echo(f"  {name:16} {t.description}")
        if t.stock:
            click.echo(f"  {'':16} stock: {', '.join(t.stock)}")
    click.echo("Icons:")
    click.echo("  " + ", ".join(sorted(ICONS)))


@main.command()
@_stock_option
@_duplex_option(BACK_FLIPS)
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("output/calibration.pdf"), show_default=True, help="Where to write the PDF.")
@_color_space_option
def calibrate(sheet, duplex, out_file, color_space):
    """Print a page that measures your printer's duplex misregistration.

    Print it duplex at 100 %, hold it against a light and read where each
    front crosshair falls on the back's millimetre rulers; build with
    --back-offset X,Y using those readings.
    """
    from .calibrate import write_calibration
    from .sheets import load_template

    write_calibration(out_file, load_template(sheet), duplex, color_space)
    click.echo(f"{out_file}: calibration sheet for {sheet}, {duplex}-edge flip")


@main.command()
@click.option("--sheet", "sheet_schema", is_flag=True,
              help="The JSON Schema of sheet template files instead (docs/sheets.md).")
def schema(sheet_schema) -> None:
    """Print the JSON Schema of deck files (for editor completion)."""
    if sheet_schema:
        from .sheets import template_schema_json

        click.echo(template_schema_json())
        return
    from .games import BUNDLED
    from .schema import schema_json

    click.echo(schema_json(BUNDLED))


@main.command()
@click.argument("name")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Where to create the deck's folder.")
def new(name, parent):
    """Write a small working deck NAME/ (YAML, CSV and art) to start from."""
    from .starter import write_starter

    folder = write_starter(name, parent)
    click.echo(f"created {folder}/ - build it with: cardgen build {folder / (name + '.yaml')}")


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@_paper_options
@_deck_options
@click.option("--games", default=20, show_default=True, type=click.IntRange(0, 10000),
              help="Seeded playtest games per deck (0: structural checks only).")
@_strict_option
@_json_option("findings")
def validate(decks, games, as_json, **shared):
    """Check that DECKs can be played, as `build` with the same options prints them.

    Exit 0 if all can, 1 if one cannot, 2 on bad input.
    """
    from .validate import validate_decks

    reports = validate_decks(decks, _settings(**shared), games)
    if as_json:
        click.echo(json.dumps([r.as_dict() for r in reports], indent=2))
    else:
        for report in reports:
            verdict = "playable" if report.playable else "NOT playable"
            click.echo(f"{report.deck} ({report.file}): {verdict}")
            for finding in report.findings:
                click.echo(f"  {finding}")
            if report.playtest:
                p = report.playtest
                click.echo(f"  playtest: {p['games']} games: {p['decisive']:.0%} decisive, {p['draws']} ties, "
                           f"{p['timeouts']} timeouts; mean length {p['mean_length']:.1f} moves")
    sys.exit(0 if all(r.playable for r in reports) else UNPLAYABLE)


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE.pdf...",
                type=click.Path(dir_okay=True, path_type=Path))
@click.option("--color-space", type=click.Choice(PREFLIGHT_SPACES), default=PREFLIGHT_SPACES[0],
              show_default=True,
              help="What the press takes: cmyk makes any RGB colour a problem; any and rgb only report the "
                   "colour spaces used.")
@click.option("--card", "card_text", default=None, metavar="SIZE",
              help="The card size every trimmed page must be (a name such as poker, or 63x88mm).")
@click.option("--paper", "paper_text", default=None, metavar="PAPER",
              help="The paper every page must be (letter, a4, ... or 210x297mm).")
@click.option("--min-ppi", type=click.FloatRange(1, 10000), default=DEFAULT_MIN_PPI, show_default=True,
              help="Lowest resolution of an image at its printed size (the build warns below the same).")
@_json_option("findings")
def preflight(files, color_space, card_text, paper_text, min_ppi, as_json):
    """Check PDFs as a print shop does before printing them.

    Fonts embedded, colour spaces, image resolution at print size, hairlines
    (under 0.25 pt), TrimBox inside BleedBox inside MediaBox, page size against
    --card or --paper (or the size cardgen wrote into its own PDFs). One line
    per problem with its page. Exit 0 when clean, 1 on a problem, 2 on a file
    that is no readable PDF.
    """
    from .preflight import preflight as check_pdf
    from .preflight import problems
    from .sheets.sizes import card_size, paper_size

    card = card_size(card_text) if card_text is not None else None
    paper = paper_size(paper_text) if paper_text is not None else None
    found = [check_pdf(path, color_space=color_space, card=card, paper=paper, min_ppi=min_ppi) for path in files]
    if as_json:
        click.echo(json.dumps([{"file": str(path), "problems": len(problems(checks)),
                                "checks": [c.as_dict() for c in checks]} for path, checks in zip(files, found)],
                              indent=2))
    else:
        for path, checks in zip(files, found):
            bad = problems(checks)
            notes = [c for c in checks if c.severity != "problem"]
            click.echo(f"{path}: {'clean' if not bad else f'{len(bad)} problem' + ('s' if len(bad) != 1 else '')}"
                       + "".join(f"; {c.message}" for c in notes))
            for check in bad:
                click.echo(f"  {check}")
    sys.exit(UNPLAYABLE if any(problems(checks) for checks in found) else 0)


def _jobs_option(func):
    return click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 64),
                        help="Worker processes (the machine's cores are the useful limit).")(func)


def _scheduler_option(func):
    return click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                        help="Play on this Dask cluster instead of local processes (pip install "
                             "'cardgen[cluster]'); the same seed gives the same report.")(func)


def _policy_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from .playtest import check_policy

    if value is None:
        return None
    try:
        return check_policy(value)
    except CardgenError as error:
        raise click.BadParameter(str(error)) from None


@main.command()
@click.argument("deck")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="How many games to simulate.")
@click.option("--seed", default=1, show_default=True, type=int, help="Same seed, same report.")
@click.option("--policy", default=POLICIES[0], show_default=True, callback=_policy_option,
              metavar="|".join(POLICIES) + "[:BUDGET][:tie=V]",
              help="Policy of seat 0; mcts searches 1000 simulations a move, mcts:N N of them, "
                   "mcts:0.5s for that long (not reproducible); mcts:N:tie=V values a tie at V (0 a loss, "
                   "1 a win; default half a win): mcts:300:tie=1 plays for the tie. Only mcts takes tie=.")
@click.option("--vs", default=None, callback=_policy_option, metavar="POLICY",
              help="Policy of the other seats (default: same as --policy).")
@_jobs_option
@_deck_options
@_scheduler_option
@_json_option("report")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the figures as charts to FILE.pdf or FILE.png.")
def playtest(deck, games, seed, policy, vs, jobs, scheduler, as_json, report_path, **shared):
    """Simulate many seeded games of DECK (as `build` with the same options prints it)."""
    from .playtest import check_report_path, draw_report, format_report, report_json, run_playtest

    if report_path is not None:
        check_report_path(report_path)
    game = _engine(deck, shared, "playtest")
    from .progress import Progress, reporting

    with reporting(Progress("playing", enabled=None if not as_json else False)):
        report = run_playtest(game, games=games, seed=seed, policy=policy, vs=vs, jobs=jobs, scheduler=scheduler)
    if report_path is not None:
        draw_report(report, report_path)
    click.echo(report_json(report) if as_json else format_report(report))


def _engine(deck: str, shared: dict, what: str) -> Any:
    """The game engine for DECK as `build` with the same options prints it."""
    from .games import game_info
    from .prepare import prepare_decks

    built = prepare_decks([deck], _settings(**shared))[0]
    info = game_info(built.game)
    if info is None:
        raise CardgenError(f"deck '{built.id}' has no game engine (game: {built.game}); nothing to {what}")
    return info.from_deck(built, built.options)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@main.command()
@click.argument("game")
@click.option("--policy", default=None, callback=_policy_option, metavar="POLICY",
              help="The policy every seat plays (random, greedy, mcts:N); the answers are as good as it "
                   "[default: the game's full-run policy, mcts:300 for common-carrier and "
                   "clusterfuck, mcts:100 for dotcombust; greedy with --quick].")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=None,
              help="Games per experiment [default: 100 for common-carrier, 30 for dotcombust, 6 for "
                   "clusterfuck; 20 with --quick].")
@click.option("--seed", default=1, show_default=True, type=int, help="Same seed, same answers.")
@_jobs_option
@click.option("--quick", is_flag=True,
              help="A small run (greedy play, 20 games an experiment, fewer player counts) for a first look.")
@click.option("--question", "only", multiple=True, metavar="ID",
              help="Only this question (repeatable): cc-target, cc-last-player, cc-pbx, dcb-variants, "
                   "cf-rounds, cf-status-power.")
@click.option("--precision", type=click.FloatRange(0.1, 50), default=None, metavar="POINTS",
              help="Double an answer's games until its intervals separate the alternatives or are all within "
                   "POINTS either way (or --max-games runs out); each answer says which.")
@click.option("--max-games", type=click.IntRange(1, 1_000_000), default=None,
              help="With --precision, the most games an experiment may reach [default: 8 x --games].")
@_scheduler_option
@_json_option("answers")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the answers with their charts to FILE.pdf or FILE.html.")
def analyze(game, policy, games, seed, jobs, quick, only, precision, max_games, scheduler, as_json, report_path):
    """Answer the designers' questions in GAME's original rules by playing the experiments.

    Before the first game it says how many games it will play and, timing one game of each
    engine, about how long that takes."""
    from .analyze import Settings, format_answers
    from .analyze import analyze as run_analysis
    from .progress import Progress, reporting

    if report_path is not None:
        from .analyze import check_report_path

        check_report_path(report_path)
    settings = Settings(policy=policy, games=games, seed=seed, jobs=jobs, quick=quick, scheduler=scheduler,
                        precision=None if precision is None else precision / 100, max_games=max_games)

    def planned(plan) -> None:
        if as_json:
            return
        click.echo(plan.describe(), err=True)
        seconds = plan.estimate_seconds()
        where = "on the cluster's workers" if scheduler else f"with {jobs} process{'es' if jobs > 1 else ''}"
        click.echo(f"  about {_duration(seconds)} {where} (from one timed game of each engine)", err=True)

    with reporting(Progress("playing", enabled=None if not as_json else False)):
        report = run_analysis(game, settings, only, planned)
    if report_path is not None:
        from .analyze import write_report

        write_report(report, report_path)
    click.echo(json.dumps(report, indent=2) if as_json else format_answers(report))


@main.command()
@click.argument("deck")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Games on each seating of each pair of policies.")
@click.option("--seed", default=1, show_default=True, type=int, help="Same seed, same ladder.")
@click.option("--policies", default=",".join(LADDER_POLICIES), show_default=True,
              help="The policies to play against each other, comma-separated (mcts:N takes N simulations).")
@_jobs_option
@_deck_options
@_scheduler_option
@_json_option("ladder")
def ladder(deck, games, seed, policies, jobs, scheduler, as_json, **shared):
    """A round robin of policies at DECK's game, each pair on both seatings: which beats which."""
    from .ladder import format_ladder, run_ladder
    from .progress import Progress, reporting

    game = _engine(deck, shared, "play")
    names = [p.strip() for p in policies.split(",") if p.strip()]
    with reporting(Progress("playing", enabled=None if not as_json else False)):
        report = run_ladder(game, names, games, seed, jobs=jobs, scheduler=scheduler)
    click.echo(json.dumps(report, indent=2) if as_json else format_ladder(report))
