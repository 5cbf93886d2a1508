"""A broken plug-in game for tests/corpus (issue 26): raises in check_deck."""
from dataclasses import replace

from cardgen_gops import GAME as GOPS


def check_deck(deck):
    return 1 / 0


GAME = replace(GOPS, id="plugin-check-deck-raises", check_deck=check_deck)
