"""Plug-in games are guests: what one raises, or answers wrongly, is one message naming the game,
its module, the call and the error (``GuestError``), never a traceback; ``--debug`` shows it.

The registry wraps the calls of a plug-in's ``GameInfo`` (``from_deck``, ``check_deck``,
``customise``) with ``guest_call``; the flows play a plug-in's games through ``guest_play``, so an
engine that raises, calls ``sys.exit`` or offers no legal action at a position that is not over
stops that run with exit code 1 (a game that failed), while a plug-in that cannot even be loaded
or checked stops with exit code 2 (a broken plug-in). Bundled games are cardgen's own code: their
calls are not wrapped, and a bug in them stays a bug.
"""
from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import CardgenError, GuestError

BROKEN = 2
FAILED_GAME = 1

T = TypeVar("T")


def is_guest(module: str) -> bool:
    """Whether code of ``module`` is a plug-in's, not cardgen's own."""
    return module != "cardgen" and not module.startswith("cardgen.")


def guest_error(game: str, module: str, call: str, exc: BaseException, exit_code: int = BROKEN,
                note: str = "") -> GuestError:
    """One line for ``exc``, raised by plug-in game ``game`` (from ``module``) in ``call``."""
    if isinstance(exc, SystemExit):
        error = f"it called sys.exit({exc.code!r})"
    else:
        text = " ".join(str(exc).split())
        error = f"{exc.__class__.__name__}: {text[:200]}" if text else exc.__class__.__name__
    where = _raised_at(exc, module)
    return GuestError(f"plug-in game '{game}' ({module}) failed in {call}: {error}{where}{note} "
                      f"(cardgen --debug shows the traceback)", exit_code,
                      "".join(traceback.format_exception(exc)))


def _raised_at(exc: BaseException, module: str) -> str:
    """``, at MODULE:LINE in FUNCTION``: the innermost frame in the plug-in's package, if any."""
    package = module.split(".")[0].split(":")[0]
    found = ""
    chain: BaseException | None = exc
    while chain is not None and not found:  # the error as raised, then what it was raised handling
        for frame, line in traceback.walk_tb(chain.__traceback__):
            name = frame.f_globals.get("__name__", "")
            if name == package or name.startswith(package + "."):
                code = frame.f_code
                found = f", at {name}:{line} in {getattr(code, 'co_qualname', code.co_name)}"
        chain = chain.__cause__ or chain.__context__
    return found


def guest_call(game: str, module: str, call: str, fn: Callable[..., T], exit_code: int = BROKEN) -> Callable[..., T]:
    """``fn`` (a plug-in's), raising a GuestError for anything it raises but a CardgenError (a
    plug-in may report a mistake in the deck as cardgen does)."""
    @functools.wraps(fn)
    def hosted(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        except CardgenError:
            raise
        except (Exception, SystemExit) as exc:
            raise guest_error(game, module, call, exc, exit_code) from None
    return hosted


def guest_play(game: Any, play: Callable[[list[Any]], T], what: str) -> T:
    """``play(states)`` for a plug-in's ``game`` (``play`` appends the state it plays to ``states``):
    what it raises is a GuestError naming the game; a position that is not over and offers no
    legal action is said in words."""
    module = type(game).__module__
    states: list[Any] = []
    try:
        return play(states)
    except CardgenError:
        raise
    except (Exception, SystemExit) as exc:
        note = _no_legal_action(game, states[-1]) if states else ""
        raise guest_error(getattr(game, "name", "") or "?", module, what, exc, FAILED_GAME, note) from None


def _no_legal_action(game: Any, state: Any) -> str:
    """What was wrong with ``state`` if it offers no legal action while its game is not over."""
    from .base import SIMULTANEOUS

    try:
        if state.is_terminal():
            return ""
        player = state.current_player()
        players = range(game.num_players) if player == SIMULTANEOUS else [player]
        for seat in players:
            actions = state.legal_actions(seat)
            if actions is None or (hasattr(actions, "__len__") and len(actions) == 0):
                return f"; legal_actions({seat}) returned {actions!r} at a position that is not over"
    except Exception:  # asking again fails too: the error said is enough
        return ""
    return ""
