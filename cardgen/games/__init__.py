"""Games: each declares itself once, as a ``GameInfo``, and a registry holds them.

A game is one declared thing: its id (what ``game:`` in a deck names), name,
engine (a ``Game`` subclass with its option specs), how it customises the
printed deck, the build settings it adds to the command line, its structural
checks and its engine built from a deck. The
bundled games are named here; third-party games register through the Python
entry point group ``cardgen.games`` (``my_game = "my_package:GAME"``), so
``pip install my-game`` makes ``cardgen validate`` and ``cardgen playtest``
work for decks that name it. The build, validator, schema and command line
ask the registry and name no game.

Modules are imported on first use, so ``cardgen build`` does not pay for
engines it does not run. The build settings of the bundled games are
declared here as data (``BUNDLED_SETTINGS``), so the command line offers
``--gray`` without importing an engine; a plug-in declares its settings in
its ``GameInfo.build_settings``, and the command line adds their flags when a
command that prepares decks runs or shows its help.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from ..errors import CardgenError
from .guests import guest_call, guest_error, is_guest

if TYPE_CHECKING:
    from ..findings import Finding
    from .base import Game
    from .questions import Questions

#: the policies every game can be played with (``--policy``, ``--vs``); ``mcts`` takes a budget,
#: ``mcts:2000`` simulations or ``mcts:0.5s`` per move, and needs ``State.determinize``
POLICIES = ("random", "greedy", "mcts")
#: the policies ``cardgen ladder`` plays against each other when none are named
LADDER_POLICIES = ("random", "greedy", "mcts:200")
#: where installed packages declare their games
ENTRY_POINT_GROUP = "cardgen.games"
#: a deck with no engine: printed and checked, never played
NO_GAME = "none"

#: the bundled games: id -> "module:GameInfo"
BUNDLED = {
    "common-carrier": "cardgen.games.common_carrier:GAME",
    "dotcombust": "cardgen.games.dotcombust:GAME",
    "clusterfuck": "cardgen.games.clusterfuck:GAME",
}


@dataclass(frozen=True)
class BuildSetting:
    """A setting a game adds to every command that prepares decks (build, validate, playtest...).

    The build carries it by ``name`` (``BuildSettings.game_settings``) and the
    game's ``customise`` reads it as ``settings.NAME``; cardgen names no game's
    setting itself.
    """

    #: what the build calls it: a Python name, unique among cardgen's options
    name: str
    #: its spelling on the command line, e.g. ``--gray``
    flag: str
    metavar: str
    help: str
    #: the text a build takes when the setting is not given
    default: str
    #: checks the text before anything is built, ``parse(text) -> value``, raising CardgenError for a
    #: bad one: a function, or ``"module:function"`` imported on first use (so declaring it is cheap)
    parser: Callable[[str], Any] | str

    def parse(self, text: str) -> Any:
        parser = self.parser
        if isinstance(parser, str):
            module, _, attribute = parser.partition(":")
            parser = getattr(importlib.import_module(module), attribute)
        return parser(text)


#: the build settings of the bundled games, as data the command line reads without importing an
#: engine; each game's GameInfo declares the same tuple as its ``build_settings``
BUNDLED_SETTINGS: dict[str, tuple[BuildSetting, ...]] = {
    "common-carrier": (
        BuildSetting("gray", "--gray", metavar="all|none|N|N,M|pbx=N,goose=M", default="all",
                     help="Gray cards per player (Common Carrier): all 4 PBX and 4 goose eggs, none "
                          "(basic game), each player's own 4 as PBX counts (3,1), or pbx=N,goose=M.",
                     parser="cardgen.games.common_carrier.printing:parse_gray"),
    ),
}


@dataclass(frozen=True)
class GameInfo:
    """Everything cardgen needs to know about a game, declared once by its module."""

    #: what ``game:`` in a deck file names
    id: str
    name: str
    #: the engine: a Game subclass whose ``option_specs`` are the game's rule options
    engine: type[Game]
    #: the engine for a built deck: ``from_deck(deck, options) -> Game``
    from_deck: Callable[[Any, Mapping[str, Any] | None], Game]
    #: structural checks of a built deck: ``check_deck(deck) -> list[Finding]``
    check_deck: Callable[[Any], list[Finding]]
    #: the printed deck: ``customise(deck, cards, options, settings) -> cards`` (gray cards, status
    #: cards...); ``settings.NAME`` is the text of each of the game's ``build_settings``
    customise: Callable[..., list] | None = None
    #: the settings the game adds to the commands that prepare decks (Common Carrier: ``--gray``);
    #: a bundled game declares them in ``BUNDLED_SETTINGS``
    build_settings: tuple[BuildSetting, ...] = ()
    #: card kinds the game makes itself (deck files may not write them)
    card_kinds: tuple[str, ...] = ()
    #: how many players, in words, for `cardgen list`
    players: str = ""
    #: the designers' questions `cardgen analyze` answers for this game, and how a full run is sized
    questions: Questions | None = None


@lru_cache(maxsize=1)
def registry() -> dict[str, str]:
    """Every game id and where its GameInfo lives: the bundled ones, then installed plug-ins."""
    found = dict(BUNDLED)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, point.value)
    return found


@lru_cache(maxsize=32)
def game_info(name: str) -> GameInfo | None:
    """The game ``name`` (None for ``none``); an unknown id is an error with a suggestion."""
    if name == NO_GAME:
        return None
    target = registry().get(name)
    if target is None:
        from ..yamlio import did_you_mean

        known = sorted(registry())
        raise CardgenError(f"unknown game '{name}'{did_you_mean(name, known)}; games: {', '.join(known)}, or "
                           f"{NO_GAME} (a plug-in game registers with the '{ENTRY_POINT_GROUP}' entry point group)")
    module, _, attribute = target.partition(":")
    guest = is_guest(module)
    try:
        info = getattr(importlib.import_module(module), attribute or "GAME")
    except (ImportError, AttributeError) as exc:
        raise CardgenError(f"game '{name}' is registered as {target} but cannot be loaded: {exc}") from None
    except (Exception, SystemExit) as exc:
        if not guest:
            raise
        raise guest_error(name, target, "import", exc) from None
    if not isinstance(info, GameInfo) or info.id != name:
        raise CardgenError(f"game '{name}' is registered as {target}, which is not a GameInfo with id '{name}'")
    if guest:  # a plug-in's calls raise one message naming it (games/guests.py)
        info = replace(info, from_deck=guest_call(name, target, "from_deck", info.from_deck),
                       check_deck=guest_call(name, target, "check_deck", info.check_deck),
                       customise=info.customise and guest_call(name, target, "customise", info.customise))
    return info


def declared_settings(games: Iterable[str] | None = None) -> list[BuildSetting]:
    """The build settings of ``games`` (ids; None: the bundled games, read without importing them),
    one per name; two games may share a setting only by declaring it alike."""
    if games is None:
        declared = [(game, BUNDLED_SETTINGS.get(game, ())) for game in BUNDLED]
    else:
        declared = [(game, info.build_settings) for game in games if (info := game_info(game)) is not None]
    found: dict[str, tuple[str, BuildSetting]] = {}
    for game, settings in declared:
        for setting in settings:
            first, seen = found.setdefault(setting.name, (game, setting))
            if seen != setting:
                raise CardgenError(f"games '{first}' and '{game}' both declare the build setting "
                                   f"'{setting.name}', differently")
    return [setting for _, setting in found.values()]


def plugin_games() -> list[str]:
    """The ids of the games installed plug-ins declare (not bundled)."""
    return [name for name in registry() if name not in BUNDLED]


def game_class(name: str) -> type[Game] | None:
    """The engine class of game ``name`` (its option specs), or None for a deck without a game."""
    info = game_info(name)
    return info.engine if info else None


@cache
def bundled_deck(deck_id: str) -> Any:
    """A bundled deck as its file says, read once per process: an engine made without a deck plays
    this one, so the game played and the game printed have one source."""
    from ..deck import bundled_decks, load_deck  # lazily: the registry is read without reading decks

    path = bundled_decks().get(deck_id)
    if path is None:
        raise CardgenError(f"the bundled deck {deck_id}.yaml is missing from this install, and the "
                           f"{deck_id} engine made without a deck plays it; reinstall cardgen or build "
                           f"the engine from a deck file")
    return load_deck(path)
