"""Common Carrier's questions for `cardgen analyze`, in the seed's own words."""
from __future__ import annotations

from typing import Any

from ...stats import combine_independent, independent_difference, rate_difference
from ..questions import (
    TIE_SEEKING,
    Chart,
    Question,
    Questions,
    Results,
    Settings,
    difference_words,
    experiment,
    half_width,
    pct,
    searches,
    separate,
    share,
)

#: how a difference between two seats of the same games is measured (cardgen.stats.rate_difference)
DIFFERENCE_METHOD = "Newcombe's square-and-add interval for paired proportions (1998, method 10), on all games"

#: each target played as its own game: greedy and mcts play towards the target (the search's
#: judgement divides by it, rollouts stop at it), so a game to 8 says little of one to 5
CC_TARGETS = {t: experiment("common-carrier", {"target": t}) for t in (5, 6, 7, 8)}


def cc_target(settings: Settings, results: Results) -> dict[str, Any]:
    """Tie rates at targets 5..8, each from games played to that target."""
    ties = {str(t): share(results[run]["draws"], results[run]["games"]) for t, run in CC_TARGETS.items()}
    answer = (f"With {settings.policy} play on both sides, games played to 7 links end in a tie "
              f"{pct(ties['7']['rate'])} of the time, to 6 {pct(ties['6']['rate'])} and to 5 "
              f"{pct(ties['5']['rate'])} ({pct(ties['8']['rate'])} to 8), each target its own games.")
    verdict = "7 is hard: most games tie" if ties["7"]["rate"] > 0.5 else "7 is reachable in most games"
    return {"answer": f"{answer} {verdict}.",
            "evidence": {"tie_rate_by_target": ties, "policy": settings.policy,
                         "options": {t: dict(run.options) for t, run in CC_TARGETS.items()}},
            "settled": separate(ties["5"], ties["6"]) and separate(ties["6"], ties["7"]),
            "widest": half_width(*((t["wilson_low"], t["wilson_high"]) for t in ties.values())),
            "confidence": ("the intervals at 5, 6 and 7 do not overlap" if separate(ties["5"], ties["6"])
                           and separate(ties["6"], ties["7"]) else
                           "some neighbouring targets' intervals overlap: play more games")}


CC_ENDGAME = (("without Endgame", experiment("common-carrier")),
              ("with Endgame", experiment("common-carrier", {"endgame": True})))
#: the same rules with the last player (seat 2) playing for the tie: its search counts a tie as a
#: win (``mcts:N:tie=1``, docs/rules-readings.md), the first player plays as usual
CC_TIE = tuple((label, experiment("common-carrier", dict(run.options), vs=TIE_SEEKING)) for label, run in CC_ENDGAME)

#: how playing for the tie is compared with playing as usual (separate games: independent samples)
TIE_METHOD = ("Newcombe's hybrid score interval for the difference of independent proportions (1998, method 10), "
              "the arm where seat 2 plays for the tie against the arm where it plays as usual, same rules; "
              "the Endgame rule's effect on that gain by square-and-add of the two differences (MOVER, "
              "Zou and Donner 2008)")


def _last_player_experiments(settings: Settings) -> list[Any]:
    """Both seats as usual, without and with Endgame; and, where the policy is the search (the one
    that can value a tie as a win), the last player playing for the tie under both rules."""
    return [run for _, run in CC_ENDGAME] + ([run for _, run in CC_TIE] if searches(settings.policy) else [])


def cc_last_player(settings: Settings, results: Results) -> dict[str, Any]:
    """The seed: "Because the last player seems to have an advantage in 'playing for stalemate',
    when there are only two cards left in each player's hand, and none in their respective decks,
    each player only plays one card per turn." How often each seat wins and how often games tie,
    without and with the Endgame rule; the last player's edge over the first; what the rule
    changes in ties and in the first player's wins (independent runs: Newcombe's method 10); and
    whether the last player gains by playing for the tie (``_tie_gain``), and whether the rule
    takes that gain away."""
    evidence: dict[str, Any] = {"policy": settings.policy}
    parts = []
    separated = []
    for label, run in CC_ENDGAME:
        report = results[run]
        first, second = report["seat_win_rates"]
        games = report["games"]
        diff, low, high = rate_difference(second["wins"], first["wins"], games)
        evidence[label] = {"seat_1_wins": first["wins"], "seat_2_wins": second["wins"], "ties": report["draws"],
                           "games": games, "seat_1": share(first["wins"], games),
                           "seat_2": share(second["wins"], games), "tie": share(report["draws"], games),
                           "seat_2_minus_seat_1": diff, "ci95": [low, high], "method": DIFFERENCE_METHOD}
        parts.append(f"{label} seat 1 wins {pct(first['wins'] / games)}, seat 2 {pct(second['wins'] / games)}, "
                     f"{pct(report['draws'] / games)} tie; the last player " + difference_words(
                         diff, low, high, "wins more often than the first", "wins less often than the first",
                         "and the first win as often as each other within chance"))
        separated.append(low > 0 or high < 0)
    plain, endgame = (results[run] for _, run in CC_ENDGAME)
    effects = {}
    for key, what, count in (("ties", "ties", lambda r: r["draws"]),
                             ("seat_1_wins", "the first player's wins", lambda r: r["seat_win_rates"][0]["wins"])):
        diff, low, high = independent_difference(count(endgame), endgame["games"], count(plain), plain["games"])
        effects[key] = {"with_minus_without": diff, "ci95": [low, high]}
        parts.append(f"the Endgame rule changes {what}: " + difference_words(
            diff, low, high, "up", "down", "no clear change"))
    evidence["endgame_effect"] = effects
    intervals = [evidence[label]["ci95"] for label, _ in CC_ENDGAME] + [e["ci95"] for e in effects.values()]
    confidence = ", ".join(f"{label}: {'a real difference' if s else 'within chance'}"
                           for label, s in zip(("without Endgame", "with Endgame"), separated))
    if all(run in results for _, run in CC_TIE):
        assert settings.policy is not None
        tie_evidence, tie_parts, tie_intervals = _tie_gain(settings.policy, results)
        evidence["playing_for_the_tie"] = tie_evidence
        parts += tie_parts
        intervals += tie_intervals
        # settled only when every interval of the tie-seeking comparison excludes zero too
        separated += [low > 0 or high < 0 for low, high in tie_intervals]
        stated = sum(1 for low, high in tie_intervals if low > 0 or high < 0)
        confidence += (f"; playing for the tie ({tie_evidence['seat_2_policy']} against "
                       f"{tie_evidence['seat_1_policy']}): {stated} of its {len(tie_intervals)} differences "
                       f"beyond chance")
    else:
        confidence += (f"; whether the last player gains by playing for the tie needs the search, whose seat can "
                       f"count a tie as a win (mcts:N:tie=1); this run's {settings.policy} cannot, so those "
                       f"games were not played")
    text = "; ".join(parts) + "."
    return {"answer": text[0].upper() + text[1:], "evidence": evidence, "settled": all(separated),
            "widest": half_width(*intervals), "confidence": confidence}


def _tie_gain(policy: str, results: Results) -> tuple[dict[str, Any], list[str], list[tuple[float, float]]]:
    """What the last player gains by playing for the tie, under each rule: its games not lost (won
    or tied) and its wins, against the same rules played as usual; and what the Endgame rule does
    to each gain. The evidence, the answer's clauses and every interval stated."""
    first, tie_seeker = CC_TIE[0][1].seats(policy)
    evidence: dict[str, Any] = {"seat_1_policy": first, "seat_2_policy": tie_seeker, "method": TIE_METHOD}
    parts, intervals = [], []
    gains: dict[str, list[tuple[float, float, float]]] = {"not_losing": [], "wins": []}
    for (label, usual), (_, tied) in zip(CC_ENDGAME, CC_TIE):
        arms = {}
        for arm, run in (("as usual", usual), ("for the tie", tied)):
            report = results[run]
            wins = report["seat_win_rates"][1]["wins"]
            arms[arm] = {"games": report["games"], "seat_2_wins": wins, "ties": report["draws"],
                         "seat_2_not_losing": wins + report["draws"],
                         "seat_1_wins": report["seat_win_rates"][0]["wins"]}
        usual_arm, tie_arm = arms["as usual"], arms["for the tie"]
        row: dict[str, Any] = {"arms": arms}
        clauses = []
        for key, what in (("not_losing", "does not lose"), ("wins", "wins")):
            count = f"seat_2_{key}"
            diff, low, high = independent_difference(tie_arm[count], tie_arm["games"],
                                                      usual_arm[count], usual_arm["games"])
            gains[key].append((diff, low, high))
            intervals.append((low, high))
            row[key] = {"for_the_tie": share(tie_arm[count], tie_arm["games"]),
                        "as_usual": share(usual_arm[count], usual_arm["games"]),
                        "tie_minus_usual": diff, "ci95": [low, high]}
            clauses.append(f"{what} {pct(row[key]['for_the_tie']['rate'])} of games against "
                           f"{pct(row[key]['as_usual']['rate'])} playing as usual, " + difference_words(
                               diff, low, high, "more often", "less often", "no clear difference"))
        evidence[label] = row
        parts.append(f"{label}, the last player playing for the tie " + " and ".join(clauses))
    effect: dict[str, Any] = {}
    for key, what in (("not_losing", "games not lost"), ("wins", "wins")):
        without, with_rule = gains[key]
        diff, low, high = combine_independent([with_rule, without], (1.0, -1.0))
        intervals.append((low, high))
        effect[key] = {"with_minus_without": diff, "ci95": [low, high]}
        parts.append(f"the Endgame rule changes what playing for the tie gains in {what}: " + difference_words(
            diff, low, high, "up", "down", "no clear change"))
    evidence["endgame_effect_on_gain"] = effect
    return evidence, parts, intervals


#: the gray-card rule with 4 PBX for one player and 4 goose eggs for the other, on both seatings
CC_PBX = tuple(experiment("common-carrier", {"gray_rule": True, "gray_pbx_1": 4 if seat == 0 else 0,
                                             "gray_pbx_2": 4 if seat == 1 else 0}) for seat in (0, 1))


def cc_pbx(settings: Settings, results: Results) -> dict[str, Any]:
    """With the gray-card rule, a player choosing 4 PBX against one choosing 4 goose eggs, both seatings."""
    pbx_wins = goose_wins = games = ties = 0
    seatings = []
    for pbx_seat, run in enumerate(CC_PBX):
        report = results[run]
        seats = report["seat_win_rates"]
        pbx_wins += seats[pbx_seat]["wins"]
        goose_wins += seats[1 - pbx_seat]["wins"]
        games += report["games"]
        ties += report["draws"]
        seatings.append((report["games"], rate_difference(seats[pbx_seat]["wins"], seats[1 - pbx_seat]["wins"],
                                                          report["games"])))
    # each seating is its own sample: their differences combine weighted by their games
    diff, low, high = combine_independent([part for _, part in seatings], [n / games for n, _ in seatings])
    words = difference_words(diff, low, high, "wins more often than the one with 4 goose eggs",
                             "wins less often than the one with 4 goose eggs",
                             "and the one with 4 goose eggs win as often as each other within chance")
    return {"answer": (f"The player who shuffles in 4 PBX {words}; {pbx_wins}-{goose_wins}, "
                       f"{ties} ties in {games} games."),
            "evidence": {"pbx_player_wins": pbx_wins, "goose_player_wins": goose_wins, "ties": ties,
                         "games": games, "pbx_minus_goose": diff, "ci95": [low, high], "policy": settings.policy,
                         "method": DIFFERENCE_METHOD + ", the two seatings combined by square-and-add (MOVER)"},
            "settled": low > 0 or high < 0, "widest": half_width((low, high)),
            "confidence": "a real difference" if low > 0 or high < 0 else "within chance: play more games"}



def _target_chart(answer: dict[str, Any]) -> Chart:
    evidence = answer["evidence"]
    ties = evidence["tie_rate_by_target"]
    return "Ties by target (links), %", list(ties), [100 * t["rate"] for t in ties.values()], True


def _last_player_chart(answer: dict[str, Any]) -> Chart:
    evidence = answer["evidence"]
    labels, values = [], []
    tie = evidence.get("playing_for_the_tie")
    for label in ("without Endgame", "with Endgame"):
        games = evidence[label]["games"]
        for seat in (1, 2):
            labels.append(f"{label.split()[0]} E.: seat {seat}")
            values.append(100 * evidence[label][f"seat_{seat}_wins"] / games)
        if tie is not None:
            arm = tie[label]["arms"]["for the tie"]
            for seat in (1, 2):
                labels.append(f"{label.split()[0]} E.: seat {seat}, 2 for the tie")
                values.append(100 * arm[f"seat_{seat}_wins"] / arm["games"])
    return ("Wins by seat, without and with the Endgame rule"
            + (", and with seat 2 playing for the tie" if tie is not None else "") + ", %"), labels, values, True


def _pbx_chart(answer: dict[str, Any]) -> Chart:
    evidence = answer["evidence"]
    games = evidence["games"]
    return ("Games won by the player with 4 PBX, with 4 goose eggs, and ties, %", ["4 PBX", "4 goose eggs", "ties"],
            [100 * evidence["pbx_player_wins"] / games, 100 * evidence["goose_player_wins"] / games,
             100 * evidence["ties"] / games], True)


QUESTIONS = Questions(
    questions=(
        Question("cc-target",
                 "I have a hard time making 7, and often the game ends in a tie. Try 6, and then 5 ... "
                 "Is 7 too easy?", lambda s: list(CC_TARGETS.values()), cc_target, _target_chart),
        Question("cc-last-player",
                 "Because the last player seems to have an advantage in 'playing for stalemate' ... each player "
                 "only plays one card per turn.", _last_player_experiments, cc_last_player,
                 _last_player_chart),
        Question("cc-pbx", "Hint: the PBX works against you far more often than you would think.",
                 lambda s: list(CC_PBX), cc_pbx, _pbx_chart),
    ),
    # the fewest simulations that beat greedy in `cardgen ladder`, sized so that a full run takes 5
    # to 45 minutes on a 2-core machine with --jobs 2 (docs/answers.md)
    full_run=("mcts:300", 100),
)
