"""The command line: thin click commands over the library.

Every user mistake arrives here as a CardgenError and leaves as one line,
``Error: file:line:col: message``, with exit code 2. Nothing else prints.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .errors import CardgenError

BAD_INPUT = 2
UNPLAYABLE = 1


class CardgenGroup(click.Group):
    """Turns a CardgenError anywhere below into ``Error: ...`` and exit 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CardgenError as exc:
            from .build import DeckUnplayable

            click.echo(f"Error: {exc}", err=True)
            ctx.exit(UNPLAYABLE if isinstance(exc, DeckUnplayable) else BAD_INPUT)
        except BrokenPipeError:
            # output piped into `head` and the like: not an error
            sys.stderr.close()
            ctx.exit(0)
        except OSError as exc:
            # an --out folder that cannot be made or written, a full disk
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"Error: cannot write {where}{exc.strerror or exc}", err=True)
            ctx.exit(BAD_INPUT)


@click.group(cls=CardgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardgen")
def main() -> None:
    """Print-and-play card decks from YAML, with a rules validator and playtests.

    Build the bundled decks with `cardgen build`, see what is bundled with
    `cardgen list`.
    """


def _sheet_names() -> list[str]:
    from .sheets import template_names

    return template_names()


def rule_options(pairs: tuple[str, ...], players: int | None) -> dict[str, str]:
    """``--option KEY=VALUE`` pairs, with ``--players N`` as the players option."""
    from .build import parse_option_pairs

    overrides = parse_option_pairs(pairs)
    if players is not None:
        overrides["players"] = str(players)
    return overrides


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK]...")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder for the PDFs.")
@click.option("--sheet", default="letter-10up", show_default=True,
              help="Sheet template: letter-10up, a4-10up, letter-8up-gaps, a4-8up-gaps, or a template .yaml.")
@click.option("--duplex", type=click.Choice(["long", "short", "off"]), default="long", show_default=True,
              help="long: backs mirrored left-right for long-edge flip; short: backs mirrored top-bottom "
                   "and turned 180 degrees; off: fronts only.")
@click.option("--back-offset", default="0,0", metavar="X,Y", show_default=True,
              help="Shift every backs page by X,Y mm (+X right, +Y up) to correct printer misregistration.")
@click.option("--color", "colors", multiple=True, metavar="COLOR",
              help="A player's colour, CSS name or #hex; once per player, in order.")
@click.option("--gray", default="all", metavar="all|none|pbx=N,goose=M", show_default=True,
              help="Gray cards printed per player (Common Carrier): all 4 PBX and 4 goose eggs, none "
                   "(basic game), or chosen counts.")
@click.option("--players", type=int, default=None, help="Player count for decks that print one card "
              "per player (Clusterfuck: 3 to 12, default 8).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A rule option, e.g. target=6, assets=12, standard_deck=true. Repeatable.")
@click.option("--backs-at-end", is_flag=True,
              help="All fronts pages first, then all backs pages, for printers without duplex: print the "
                   "fronts, turn the stack over as your --duplex flip says, and print the backs.")
@click.option("--no-validate", is_flag=True, help="Print even a deck that fails the structural checks.")
def build(decks, out_dir, sheet, duplex, back_offset, colors, gray, players, options, backs_at_end,
          no_validate):
    """Build printable PDFs of DECKs (bundled ids or .yaml files; none: every bundled deck).

    Each fronts page is followed by its backs page. Per-player decks (Common
    Carrier) give one PDF per player, named after deck and player.
    """
    from .build import BuildSettings, build_decks, parse_back_offset
    from .deck import bundled_decks

    overrides = rule_options(options, players)
    settings = BuildSettings(sheet=sheet, duplex=duplex, back_offset=parse_back_offset(back_offset),
                             colors=tuple(colors), gray=gray, options=overrides, validate=not no_validate,
                             backs_at_end=backs_at_end)
    names = list(decks) or list(bundled_decks())
    for result in build_decks(names, out_dir, settings):
        for warning in result.warnings:
            click.echo(f"Warning: {warning}", err=True)
        for output, pages in zip(result.outputs, result.pages):
            count = sum(c.copies for c in output.cards)
            click.echo(f"{output.path}: {count} card{'s' if count != 1 else ''}, {pages} pages")


@main.command("list")
def list_() -> None:
    """Show the bundled decks, sheet templates and built-in icons."""
    from .build import BuildSettings, plan_outputs, prepare
    from .deck import bundled_decks, load_deck
    from .render.icons import ICONS
    from .sheets import load_template

    click.echo("Decks (as `cardgen build` prints them by default):")
    for name in bundled_decks():
        deck = prepare(load_deck(name), BuildSettings())
        outputs = plan_outputs(deck, Path("."))
        counts = sorted({sum(c.copies for c in o.cards) for o in outputs})
        cards = f"{counts[0]} cards" + (f" per player, {len(outputs)} PDFs" if deck.per_player else "")
        click.echo(f"  {name:16} {deck.name}: {cards}")
        if deck.options:
            click.echo(f"  {'':16} options: " + ", ".join(
                f"{k}={'auto' if v is None else v}" for k, v in deck.options.items()))
    click.echo("Sheets:")
    for name in _sheet_names():
        t = load_template(name)
        click.echo(f"  {name:16} {t.description}")
        if t.stock:
            click.echo(f"  {'':16} stock: {', '.join(t.stock)}")
    click.echo("Icons:")
    click.echo("  " + ", ".join(sorted(ICONS)))


@main.command()
@click.option("--sheet", default="letter-10up", show_default=True, help="Sheet template to calibrate.")
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="The flip your printer does.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("output/calibration.pdf"), show_default=True, help="Where to write the PDF.")
def calibrate(sheet, duplex, out_file):
    """Print a page that measures your printer's duplex misregistration.

    Print it duplex at 100 %, hold it against a light and read where each
    front crosshair falls on the back's millimetre rulers; build with
    --back-offset X,Y using those readings.
    """
    from .calibrate import write_calibration
    from .sheets import load_template

    write_calibration(out_file, load_template(sheet), duplex)
    click.echo(f"{out_file}: calibration sheet for {sheet}, {duplex}-edge flip")


@main.command()
def schema() -> None:
    """Print the JSON Schema of deck files (for editor completion)."""
    from .schema import schema_json

    click.echo(schema_json())


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
@click.option("--sheet", default="letter-10up", show_default=True, help="Sheet template the text must fit.")
@click.option("--players", type=int, default=None, help="Player count (Clusterfuck).")
@click.option("--gray", default="all", show_default=True, help="Gray cards per player, as for build.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option. Repeatable.")
@click.option("--games", default=20, show_default=True, type=click.IntRange(0, 10000),
              help="Seeded playtest games per deck (0: structural checks only).")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def validate(decks, sheet, players, gray, options, games, as_json):
    """Check that DECKs can be played: exit 0 if all can, 1 if one cannot, 2 on bad input."""
    from .build import BuildSettings, prepare
    from .deck import bundled_decks, load_deck
    from .sheets import load_template
    from .validate import validate_deck

    overrides = rule_options(options, players)
    settings = BuildSettings(sheet=sheet, gray=gray, options=overrides)
    template = load_template(sheet)
    names = list(decks) or list(bundled_decks())
    reports = [validate_deck(prepare(load_deck(n), settings), template, games) for n in names]
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
                click.echo(f"  playtest: {p['games']} games, completion {p['completion']:.0%}, "
                           f"draws {p['draws']}, timeouts {p['timeouts']}, mean length {p['mean_length']:.1f}")
    sys.exit(0 if all(r.playable for r in reports) else UNPLAYABLE)


@main.command()
@click.argument("deck")
@click.option("--games", default=1000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="How many games to simulate.")
@click.option("--seed", default=1, show_default=True, type=int, help="Same seed, same report.")
@click.option("--policy", type=click.Choice(["random", "greedy"]), default="random", show_default=True,
              help="Policy of seat 0.")
@click.option("--vs", type=click.Choice(["random", "greedy"]), default=None,
              help="Policy of the other seats (default: same as --policy).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (the machine's cores are the useful limit).")
@click.option("--players", type=int, default=None, help="Player count (dotCOMbust, Clusterfuck).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A rule option. Repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the figures as charts to FILE.pdf or FILE.png.")
def playtest(deck, games, seed, policy, vs, jobs, players, options, as_json, report_path):
    """Simulate many seeded games of DECK and report how they went."""
    from .build import BuildSettings, prepare
    from .deck import load_deck
    from .games import game_module
    from .playtest import draw_report, format_report, report_json, run_playtest

    overrides = rule_options(options, players)
    built = prepare(load_deck(deck), BuildSettings(options=overrides))
    module = game_module(built.game)
    if module is None:
        raise CardgenError(f"deck '{built.id}' has no game engine (game: {built.game}); nothing to playtest")
    game = module.game_from_deck(built, built.options)
    report = run_playtest(game, games=games, seed=seed, policy=policy, vs=vs, jobs=jobs)
    if report_path is not None:
        draw_report(report, report_path)
    click.echo(report_json(report) if as_json else format_report(report))
