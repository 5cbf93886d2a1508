"""Common Carrier's C speed-up (cardgen/games/_cc_fast.c) counts and draws what the Python code does.

The C module is optional: where it does not build, common_carrier.py runs its own Python code. The
two must play the same games from the same seeds, so every count, every draw and every random number
taken is compared here, position by position, and whole playtest reports are compared too.
"""
from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from cardgen.games import common_carrier as cc
from cardgen.games.common_carrier import CommonCarrierGame
from cardgen.playtest import run_playtest

needs_c = pytest.mark.skipif(cc._fast is None, reason="the C speed-up is off (CARDGEN_PURE_PYTHON) or not built")


def test_the_c_speed_up_is_built_in_the_development_install():
    if cc._PURE_PYTHON:
        assert cc._fast is None
    elif any(shutil.which(compiler) for compiler in ("cc", "gcc", "clang")):  # as tools/wheel_check.sh asks
        assert cc._fast is not None, ("make test builds cardgen/games/_cc_fast.c (setup.py) with the "
                                      "machine's C compiler: see pip's output for why it did not")
    else:  # nothing to build it with: the Python code runs, as for a user without a compiler
        assert cc._fast is None


@pytest.mark.parametrize(("value", "pure"), [("1", True), ("yes", True), ("0", False), ("", False)])
def test_cardgen_pure_python_turns_it_off(value, pure):
    env = {**os.environ, "CARDGEN_PURE_PYTHON": value}
    out = subprocess.run([sys.executable, "-c", "from cardgen.games import common_carrier as cc; print(cc._fast)"],
                         env=env, capture_output=True, text=True, check=True)
    built = importlib.util.find_spec("cardgen.games._cc_fast") is not None
    assert (out.stdout.strip() == "None") == (pure or not built)


def _counted_in_python(state: cc.CommonCarrierState) -> cc.CommonCarrierState:
    """A copy of ``state`` whose plays the Python code counted."""
    saved, cc._fast = cc._fast, None
    try:
        copy = state.clone()
        copy._invalidate()
        copy._combo_list()
    finally:
        cc._fast = saved
    assert copy._fast_board is None
    return copy


def _swapped_pair_counted(python: cc.CommonCarrierState, combo: tuple) -> bool:
    """Whether ``combo`` of two kinds has no placements apart while the pairing with the two
    orientation indices swapped has some: a C draw once read the wrong one of the two."""
    kind, a, ma, b, mb = combo
    masks = python.game.card_mask
    oa, ob = cc._ORIENTATIONS[masks[a]], cc._ORIENTATIONS[masks[b]]
    i, j = oa.index(ma), ob.index(mb)
    swapped = python._apart.get((oa[j], ob[i])) if j < len(oa) and i < len(ob) else None
    return kind == "two" and python._apart[(ma, mb)][0] == 0 and swapped is not None and swapped[0] > 0


@needs_c
@pytest.mark.parametrize("options", [{}, {"gray_rule": True, "endgame": True}])
def test_every_count_and_every_draw_is_the_pythons(options):
    game = CommonCarrierGame(options=options)
    seen = {"drawn apart": 0, "counted out": 0, "cards of a kind": 0, "two kinds, none apart beside some": 0}
    for g in range(1000):
        # every position of six games; after that, games until a rare case has been seen
        if g >= 6 and all(seen.values()):
            break
        rng = random.Random(f"fast:{g}")
        state = game.new_initial_state(rng)
        while not state.is_terminal():
            combos = state._combo_list()
            if state._fast_board is not None:  # a two-card hand, counted in C
                python = _counted_in_python(state)
                assert combos == python._combo_list()
                assert state._combo_total == python._combo_total
                for weight, combo in combos:
                    rare = _swapped_pair_counted(python, combo)
                    if g >= 6 and not rare:
                        continue
                    kind, _, ma, _, mb = combo
                    apart = (python._apart.get((ma, mb)) or python._apart[(mb, ma)])[0]
                    seen["cards of a kind"] += kind == "same"
                    seen["two kinds, none apart beside some"] += rare
                    # every pick the combination holds, each from the same random state
                    for pick in range(weight if kind == "same" else weight // 2):
                        seen["drawn apart" if pick < apart else "counted out"] += 1
                        r1, r2 = random.Random(pick), random.Random(pick)
                        assert state._sample_pair(combo, pick, r1) == python._sample_pair(combo, pick, r2)
                        assert r1.getstate() == r2.getstate()
            state.apply_action(game.random_action(state, state.current_player(), rng))
    # the draws above reached every branch of the C code
    assert all(seen.values()), seen


def _report(game: CommonCarrierGame, games: int, seed: int, **kw) -> str:
    report = run_playtest(game, games, seed, **kw)
    return json.dumps({k: v for k, v in report.items() if "second" not in k}, sort_keys=True)


@needs_c
@pytest.mark.parametrize(("options", "policy", "games"), [
    ({}, "random", 300),
    ({"gray_rule": True, "hole_card": True, "tie_resolution": 1}, "random", 200),
    ({"endgame": True, "target": 5}, "greedy", 4),
])
def test_the_same_seed_plays_the_same_games_with_or_without_it(monkeypatch, options, policy, games):
    game = CommonCarrierGame(options=options)
    with_c = _report(game, games, 7, policy=policy)
    monkeypatch.setattr(cc, "_fast", None)
    assert _report(game, games, 7, policy=policy) == with_c


@needs_c
def test_it_refuses_what_it_did_not_count():
    state = CommonCarrierGame().new_initial_state(random.Random(1))
    state._combo_list()
    board = state._fast_board
    assert board is not None
    getrandbits = random.Random(1).getrandbits
    with pytest.raises(ValueError, match="not a board"):
        cc._fast.draw(b"not a board", 1, 4, 0, getrandbits)
    with pytest.raises(ValueError, match="orientation"):
        cc._fast.draw(board, 99, 99, 0, getrandbits)
    with pytest.raises(ValueError, match="orientations"):
        cc._fast.count(state.line, 0, 0, None, (), (1,), ((0, 0),))
    with pytest.raises(IndexError):
        cc._fast.count(state.line, 0, 0, None, (1,), (2,), ((0, 1),))
    for lines, box, pairs in ((tuple(state.line), None, ((0, 0),)), (state.line[:3], None, ((0, 0),)),
                              (state.line, (1, 2), ((0, 0),)), (state.line, None, ((0,),))):
        with pytest.raises(TypeError):
            cc._fast.count(lines, 0, 0, box, (1,), (2,), pairs)
