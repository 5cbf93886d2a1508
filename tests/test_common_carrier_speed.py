"""Common Carrier's shortcuts for speed give the answers the slow, obvious ways give."""
from __future__ import annotations

import random

import pytest

from cardgen.games import common_carrier as cc
from cardgen.games.base import IllegalAction
from cardgen.games.common_carrier import CommonCarrierGame


def positions(game: CommonCarrierGame, games: int, seed: int = 0):
    """Every position of a few seeded random games, as (state, rng)."""
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            yield state, rng
            state.apply_action(game.random_action(state, state.current_player(), rng))


def fresh_listing(state: cc.CommonCarrierState) -> list[tuple]:
    """legal_actions() of a copy with every cache dropped."""
    copy = state.clone()
    copy._invalidate()
    return copy.legal_actions()


@pytest.mark.parametrize("options", [{}, {"gray_rule": True, "hole_card": True}])
def test_a_dealt_again_position_lists_the_plays_a_fresh_one_lists(options):
    game = CommonCarrierGame(options=options)
    for i, (state, rng) in enumerate(positions(game, 3)):
        for searcher in (state.player, 1 - state.player):
            dealt = state.determinize(searcher, rng)
            assert dealt.legal_actions() == fresh_listing(dealt)
            if i % 7 == 0:
                action = rng.choice(dealt.legal_actions())
                dealt.apply_action(action)  # listed: applied without a check
                assert dealt.is_legal_board()


def test_an_action_not_listed_is_still_refused_once_the_plays_are_listed():
    game = CommonCarrierGame()
    for i, (state, rng) in enumerate(positions(game, 2)):
        if i % 5:
            continue
        listed = state.legal_actions()
        legal = set(listed)
        (card, r, c, t), *rest = rng.choice(listed)
        for moved in ((card, r, c + 9, t), (card, r + 1, c, t), (card, r - 1, c + 1, t)):
            wrong = (moved, *rest)
            if tuple(sorted(wrong)) not in legal:  # the same play in either order is legal
                with pytest.raises(IllegalAction):
                    state.clone().apply_action(wrong)
        with pytest.raises(IllegalAction):
            state.clone().apply_action(["not", "a", "play"])
