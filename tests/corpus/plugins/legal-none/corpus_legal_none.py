"""A broken plug-in game for tests/corpus (issue 26): answers legal_actions with None."""
from dataclasses import replace

from cardgen_gops import GAME as GOPS
from cardgen_gops import GopsGame, GopsState


class State(GopsState):
    def legal_actions(self, player=None):
        return None


class Game(GopsGame):
    name = "plugin-legal-none"

    def new_initial_state(self, rng):
        state = super().new_initial_state(rng)
        state.__class__ = State
        return state


GAME = replace(GOPS, id="plugin-legal-none", engine=Game, from_deck=lambda deck, options=None: Game(deck.options))
