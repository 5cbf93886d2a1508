"""A broken plug-in game for tests/corpus (issue 26): offers no legal action, [], before the game is over."""
from dataclasses import replace

from cardgen_gops import GAME as GOPS
from cardgen_gops import GopsGame, GopsState


class State(GopsState):
    def legal_actions(self, player=None):
        return []


class Game(GopsGame):
    name = "plugin-legal-empty"

    def new_initial_state(self, rng):
        state = super().new_initial_state(rng)
        state.__class__ = State
        return state


GAME = replace(GOPS, id="plugin-legal-empty", engine=Game, from_deck=lambda deck, options=None: Game(deck.options))
