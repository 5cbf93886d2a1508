"""A broken plug-in game for tests/corpus (issue 26): raises in its engine's apply_action."""
from dataclasses import replace

from cardgen_gops import GAME as GOPS
from cardgen_gops import GopsGame, GopsState


class State(GopsState):
    def apply_action(self, action):
        raise KeyError("no such bid")


class Game(GopsGame):
    name = "plugin-engine-raises"

    def new_initial_state(self, rng):
        state = super().new_initial_state(rng)
        state.__class__ = State
        return state


GAME = replace(GOPS, id="plugin-engine-raises", engine=Game, from_deck=lambda deck, options=None: Game(deck.options))
