"""dotCOMbust: creditors pass asset parts around until someone runs dry.

Every turn all players pass at once, each to the player ``offset`` seats to
the left, the offset cycling 1, 2, ..., N-1. The receiver answers by the
rules' four cases (one or two cards, face up or face down). A complete asset
of n parts scores n-1 points. The readings chosen where the text is open are
in docs/rules-readings.md; the ones that shape the code are noted here.

Parts of one asset are interchangeable in play: each part exists once and an
asset is complete when one player holds all n of them, so the rules never
care *which* part moves. A hand is therefore a count per asset, and the
receiver's choices ("one other part", "keep only one of your cards") change
nothing and need no decision step.

Showing a completed asset is a decision ("you may show it immediately ... or
keep it in your hand"): after a turn in which someone completed an asset,
everyone moves once more, before the next pass, with a ``Show``. A player
who completed one shows it (it leaves the hand and scores now) or keeps it
(its parts stay in the hand, may be passed, and score at the end if still
complete); the others have the one play NOTHING_TO_SHOW. Two assets
completed at once are decided one per decision. The deal counts as a turn:
an asset complete in the deal is decided before the first pass.
"""
from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

from ..errors import CardgenError
from ..findings import Finding
from . import GameInfo, base
from .base import SIMULTANEOUS, TERMINAL, Game, IllegalAction, OptionSpec, State

#: evaluate, in a search: a player's share moves from 1/N by the points it gained since the
#: searched position over this many (so a typical turn's gain or loss stays inside 0..1)
EVALUATE_GAIN = 6.0
#: evaluate, elsewhere: how many points of expected lead make a player e (2.72) times likelier to win
EVALUATE_SPREAD = 3.0
#: moves the search plays at random before it asks evaluate: none, it judges the position it
#: reached. A turn's outcome is already a gamble on hidden hands (does the receiver hold the
#: asset?), and every random turn after it adds noise that swamps the gap between good and bad
#: plays (mcts:200 against three greedy players, 30 games each: 3 wins at depth 0, 2 at 1, 2 at 4)
ROLLOUT_DEPTH = 0
#: share of greedy plays chosen at random instead (see greedy_action)
GREEDY_EXPLORE = 0.05
#: the witness of a move the whole table sees (a face-up pass and its answer), in _learn's moves
TABLE = -1
#: the original game prints exactly this many cards
FULL_DECK_CARDS = 80
MIN_PLAYERS, MAX_PLAYERS = 3, 12
#: To the Bitter End: the table gives up after this many offset rounds
#: without anyone completing an asset ("all agree it's pointless")
BITTER_END_PATIENCE_ROUNDS = 5

OPTION_SPECS = (
    OptionSpec("players", 4, "number of players (3 to 12)", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
    OptionSpec("assets", 0, "smaller deck: keep only the first N assets (0: all)", minimum=0,
               words=(("all", 0),)),
    OptionSpec("no_tagbacks", False,
               "no passing an asset to the player who just took part of it from you"),
    OptionSpec("bitter_end", False,
               "a player with one card gives it away; play on until it is pointless"),
    OptionSpec("both_barrels", False,
               "two face-down cards of different assets may be passed as one play"),
    OptionSpec("turn_limit", 0, "end the game after this many turns (0: no limit)", minimum=0),
)


class Pass(NamedTuple):
    """One player's play of a turn: the asset index of each card passed.

    ``(a,)`` one card, ``(a, a)`` two parts of one asset, ``(a, b)`` two
    assets (Both Barrels, face down). ``()`` sits the turn out. Under To the
    Bitter End a one-card player's ``(a,)`` face down is a gift.
    """

    assets: tuple[int, ...]
    face_up: bool = False


SIT_OUT = Pass(())


class Show(NamedTuple):
    """A player's decision on an asset they just completed: show it or keep it.

    Shown, the asset goes on the table and scores now; kept, its parts stay in
    the hand (they count as held and may be passed) and it scores at the end
    if still complete. ``asset`` -1 is the one play of a player with nothing
    to decide while others decide.
    """

    asset: int
    show: bool


NOTHING_TO_SHOW = Show(-1, False)


def game_from_deck(deck: Any, options: Mapping[str, Any] | None = None) -> DotcombustGame:
    """The engine for a built deck; CLI options override the deck's own.

    Refuses a deck that check_deck finds unplayable, naming the first problem.
    """
    errors = [f for f in check_deck(deck) if f.severity == "error"]
    if errors:
        raise CardgenError(f"deck cannot be played: {errors[0]}")
    deck_options = deck.options or {}
    merged = {k: v for k, v in deck_options.items() if k in _OPTION_NAMES}
    for key, value in (options or {}).items():
        # the deck's other keys (look, print) may come back here unchanged
        if key in _OPTION_NAMES or key not in deck_options or deck_options[key] != value:
            merged[key] = value
    return DotcombustGame(options=merged, assets=_deck_assets(deck))


def check_deck(deck: Any) -> list[Finding]:
    """Structural checks: asset part lists, card count, players, the deal."""
    where = str(deck.path)
    at_options = getattr(deck, "key_locations", {}).get("options") or deck.location
    findings: list[Finding] = []

    def error(message: str, card: Any = None, severity: str = "error",
              location: Any = None) -> None:
        if card is not None:
            location = card.location
        findings.append(Finding(deck=where, message=message,
                                card=card.id if card is not None else "",
                                location=location or deck.location, severity=severity))

    by_asset: dict[str, list[Any]] = {}
    for card in deck.cards:
        if card.kind != "asset":
            continue
        if not _asset(card):
            error("asset card names no asset", card)
            continue
        by_asset.setdefault(_asset(card), []).append(card)
    if not by_asset:
        error("no asset cards: dotCOMbust is played with asset parts")
        return findings

    for name, cards in by_asset.items():
        _check_asset(name, cards, error)

    try:
        opts = parse_options({k: v for k, v in (deck.options or {}).items()
                              if k in _OPTION_NAMES})
        kept = _keep_assets(list(by_asset), opts["assets"])
    except CardgenError as exc:
        error(str(exc), location=at_options)
        return findings
    players = opts["players"]
    total = sum(c.copies for name in kept for c in by_asset[name])
    # a smaller deck asked for with the assets option is meant to be smaller
    if not opts["assets"] and total != FULL_DECK_CARDS:
        error(f"the original game has {FULL_DECK_CARDS} cards, this deck has {total}",
              severity="warning")
    if total < 2 * players:
        error(f"{total} cards dealt to {players} players gives someone fewer than 2 "
              "cards, and a player with one card or none ends the game at once",
              location=at_options)
    return findings


def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Rule options from Python values or command-line strings, checked."""
    return base.parse_options("dotcombust", OPTION_SPECS, dict(options or {}))


class DotcombustGame(Game["DotcombustState"]):
    """Asset sizes, players and rule options; deals States.

    ``assets`` is {name: size}, {name: part names} or a list of sizes; when
    omitted, the assets of the bundled deck (decks/dotcombust.yaml), so the
    engine and the printed deck have one source. ``options["players"]`` wins
    over ``num_players``.
    """

    name = "dotcombust"
    option_specs = OPTION_SPECS
    rollout_depth = ROLLOUT_DEPTH

    def __init__(self, num_players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 assets: Mapping[str, int] | Mapping[str, Sequence[str]] | Sequence[int] | None = None):
        opts = dict(options or {})
        if num_players is not None:
            opts.setdefault("players", num_players)
        opts = parse_options(opts)
        super().__init__(opts["players"], opts)
        names, sizes, parts = _asset_table(bundled_assets() if assets is None else assets)
        kept = _keep_assets(names, opts["assets"])
        index = [names.index(n) for n in kept]
        self.asset_names: tuple[str, ...] = tuple(kept)
        self.asset_sizes: tuple[int, ...] = tuple(sizes[i] for i in index)
        self.part_names: tuple[tuple[str, ...], ...] = tuple(parts[i] for i in index)
        if any(s < 2 for s in self.asset_sizes):
            raise CardgenError("dotcombust: every asset needs 2 or more parts")
        self.total_cards = sum(self.asset_sizes)
        #: (size, assets of that size), by size: what metrics counts completions against
        self._dealt_by_size = sorted(Counter(self.asset_sizes).items())
        if self.total_cards < 2 * self.num_players:
            raise CardgenError(
                f"dotcombust: {self.total_cards} cards cannot give {self.num_players} "
                "players 2 cards each; use fewer players or more assets")
        self.no_tagbacks: bool = opts["no_tagbacks"]
        self.bitter_end: bool = opts["bitter_end"]
        self.both_barrels: bool = opts["both_barrels"]
        self.turn_limit: int = opts["turn_limit"]
        # every play exists once, so legal_actions only picks from these lists
        count = len(self.asset_sizes)
        self._one = [(Pass((a,), False), Pass((a,), True)) for a in range(count)]
        self._two = [(Pass((a, a), False), Pass((a, a), True)) for a in range(count)]
        self._barrels = {(a, b): Pass((a, b), False)
                         for a in range(count) for b in range(a + 1, count)}
        # an asset's plays in legal order (1 down, 1 up, 2 down, 2 up), asset a's at 4a..4a+3 of
        # _flat: the play at u is asset u >> 2, u >> 1 & 1 cards more than one, face up if u & 1.
        # Holding c parts opens the first _weight[c] of them, so a hand's number of plays is a sum
        # kept as it changes
        self._weight = (0, 2) + (4,) * max(self.asset_sizes)
        self._flat = [play for a in range(count) for play in self._one[a] + self._two[a]]
        self._span = len(self._flat)
        # a play of the whole deck is drawn as bits (cheaper than a float), redrawn past the end
        self._bits = (self._span - 1).bit_length()
        self._shows = [(Show(a, True), Show(a, False)) for a in range(count)]
        # under these options a pass is any play of the hand (bans are looked at per pair)
        self._plain = not (self.bitter_end or self.both_barrels)
        self._deck = [a for a, size in enumerate(self.asset_sizes) for _ in range(size)]

    def new_initial_state(self, rng: random.Random) -> DotcombustState:
        """Shuffle and deal the whole deck; seats from 0 get the extra cards."""
        deck = self._deck[:]
        rand = rng.random
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates on random(): a uniform shuffle, cheaply
            j = int(rand() * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        n = self.num_players
        hands = [[0] * len(self.asset_sizes) for _ in range(n)]
        for p in range(n):
            hand = hands[p]
            for a in deck[p::n]:
                hand[a] += 1
        return DotcombustState(self, hands)

    def random_action(self, state: DotcombustState, player: int, rng: random.Random) -> Pass | Show:
        """A play drawn uniformly from ``state.legal_actions(player)``, mostly without listing them.

        A pass under the plain rules: plays of the whole deck are drawn at random until one is
        open to the hand (``_random_play``), so every legal play has the same chance. The play is
        noted on the state, so ``apply_action`` need not check it again.
        """
        if state.ended_by:
            raise IllegalAction("the game is over")
        play: Pass | Show
        if state._deciding:
            pending = state.pending[player]
            play = self._shows[pending[0]][rng.getrandbits(1)] if pending else NOTHING_TO_SHOW
        elif self._plain and not (state.bans and state.bans[player * self.num_players + state.opponent(player)]):
            play = self._flat[self._random_play(state.hands[player], rng)]
        else:
            legal = state.legal_passes(player)
            play = legal[int(rng.random() * len(legal))]
        trusted = state._trusted
        if trusted is None:
            trusted = state._trusted = [None] * self.num_players
        trusted[player] = play
        return play

    def random_playout(self, state: DotcombustState, rng: random.Random, max_moves: int,
                       branching: list[int]) -> int:
        """Everyone plays at random until the game ends or ``max_moves`` moves are made; returns
        the moves made, each decision's number of plays per player noted in ``branching``.

        The same draws as the runner's turns of ``random_action``, so the same game from the same
        rng, without checking its own plays or listing them. Under the plain rules without tagback
        bans a pass turn is drawn and resolved in one loop (``_play_out_plain``); under the other
        options it goes through random_action and the turn's resolution. The state tracks what the
        players know no longer (``known_parts`` None): a game played out is not searched.
        """
        state._log = state._known = None
        state._trusted = None
        if self._plain and state.bans is None and state._incoming is None:
            return self._play_out_plain(state, rng, max_moves, branching)
        n = self.num_players
        moves = 0
        while not state.ended_by and moves < max_moves:
            moves += 1
            if state._deciding:
                state._random_shows(rng.getrandbits, branching)
                continue
            joint = []
            for p in range(n):
                branching.append(state.num_legal_actions(p))
                joint.append(cast(Pass, self.random_action(state, p, rng)))
            state._trusted = None
            state._apply_passes(joint)
        return moves

    def _play_out_plain(self, state: DotcombustState, rng: random.Random, max_moves: int,
                        branching: list[int]) -> int:
        """random_playout under the plain rules without tagback bans: a pass turn drawn as
        random_action draws it (one player after the other, from the hand before the turn) and
        resolved as _apply_passes resolves it. Every hand holds 2 cards or more (or the game is
        over), so everyone passes, and each player answers the one pass it gets."""
        n = self.num_players
        hands, sizes, weights = state.hands, state.hand_sizes, state.weights
        asset_sizes, weight, span, bits = self.asset_sizes, self._weight, self._span, self._bits
        draw = rng.getrandbits
        limit = self.turn_limit
        moves = 0
        while not state.ended_by and moves < max_moves:
            moves += 1
            if state._deciding:
                state._random_shows(draw, branching)
                continue
            whole: list[tuple[int, int]] = []
            plays = []
            branching += weights  # each player's plays, before any pass leaves
            for p in range(n):  # draw, and the pass leaves the hand
                hand = hands[p]
                u = draw(bits)
                while u >= span or u & 3 >= weight[hand[u >> 2]]:  # as in _random_play
                    u = draw(bits)
                plays.append(u)
                a = u >> 2
                k = (u >> 1 & 1) + 1
                held = hand[a]
                if held == asset_sizes[a]:
                    whole.append((p, a))
                hand[a] = held - k
                sizes[p] -= k
                weights[p] += weight[held - k] - weight[held]
            arriving: list[tuple[int, int, int]] = []
            q = 1 + state.turn % (n - 1)
            for p, u in enumerate(plays):  # each receiver answers the one pass it gets
                if q == n:
                    q = 0
                a = u >> 2
                hand = hands[q]
                held = hand[a]
                if held:  # pass back the card(s) plus one part, or all parts
                    give = held if u & 2 else 1
                    hand[a] = held - give
                    sizes[q] -= give
                    weights[q] += weight[held - give] - weight[held]
                    arriving.append((p, a, (u >> 1 & 1) + 1 + give))
                elif u & 1:  # face up: one comes back; of two, the receiver keeps one
                    arriving.append((p, a, 1))
                    if u & 2:
                        arriving.append((q, a, 1))
                else:  # face down: the receiver keeps them all
                    arriving.append((q, a, (u >> 1 & 1) + 1))
                q += 1
            state.passes += n
            state._arrive(arriving, whole)
            state.turn += 1
            if min(sizes) <= 1 or (limit and state.turn >= limit):  # as _check_end asks
                state._check_end()
        return moves

    def _random_play(self, hand: list[int], rng: random.Random) -> int:
        """A play of ``hand`` drawn uniformly, as its index in ``_flat``: plays of the whole deck
        are drawn until one is the hand's. A hand under the plain rules holds 2 cards or more
        (or the game is over), so it opens 4 plays or more and the drawing ends."""
        weight, span, bits, draw = self._weight, self._span, self._bits, rng.getrandbits
        u = draw(bits)
        while u >= span or u & 3 >= weight[hand[u >> 2]]:
            u = draw(bits)
        return u

    def _plays_of(self, hand: list[int]) -> int:
        """How many passes ``hand`` opens under the plain rules: ``sum(_weight[c] for c in hand)``,
        counted faster: 2 for each asset held, 2 more for each held twice or more."""
        held = len(hand) - hand.count(0)
        return 4 * held - 2 * hand.count(1)

    def state_from_hands(self, hands: Sequence[Mapping[str, int] | Sequence[int]],
                         turn: int = 0) -> DotcombustState:
        """A position set up by hand: per player {asset name: parts held} or counts.

        Cards in no hand are out of play, so small positions stay readable.
        """
        if len(hands) != self.num_players:
            raise ValueError(f"need {self.num_players} hands, got {len(hands)}")
        counts = []
        for hand in hands:
            if isinstance(hand, Mapping):
                row = [0] * len(self.asset_sizes)
                for name, c in hand.items():
                    row[self.asset_names.index(name)] = c
            else:
                row = list(hand)
            counts.append(row)
        for a, size in enumerate(self.asset_sizes):
            if any(c[a] < 0 for c in counts) or sum(c[a] for c in counts) > size:
                raise ValueError(f"{self.asset_names[a]} has {size} parts, "
                                 f"hands hold {[c[a] for c in counts]}")
        return DotcombustState(self, counts, turn)

    def offset(self, turn: int) -> int:
        """How many seats to the left everyone passes on ``turn`` (from 0)."""
        return 1 + turn % (self.num_players - 1)

    def action_to_string(self, action: Pass | Show) -> str:
        if isinstance(action, Show):
            return _show_to_string(self, action)
        names = [self.asset_names[a] for a in action.assets]
        if not names:
            return "sit out"
        if len(names) == 2 and names[0] != names[1]:
            return f"{names[0]} + {names[1]} face down"
        side = "face up" if action.face_up else "face down"
        return f"{len(names)} {names[0]} {side}"

    def heuristic(self, state: DotcombustState, player: int) -> float:
        """Points, plus part credit for assets well on their way."""
        hand = state.hands[player]
        return state.points[player] + sum(
            _progress(c, s) for c, s in zip(hand, self.asset_sizes) if c)

    def evaluate(self, state: DotcombustState) -> list[float]:
        """Each player's prospects in 0..1, summing to about 1, for the search.

        A finished game: its result, a draw an equal share. A position of a search (reached from
        a determinization): 1/N moved by what the player's expected score (``value``) gained or
        lost by its own passes since the searched position, over EVALUATE_GAIN. The gain, not
        the standing: one move changes a player's standing little, and a share of the win near
        0 or 1 hides the difference between two moves under the search's exploration (the
        standing is in the finished games' results). Its own passes only: what the others
        gained, and what the pass it had to answer cost it, depend on plays it did not choose
        and are noise to its own choice (measured, mcts:1000 alone against three greedy players,
        40 games: 7 wins and 12.6 points a game judging the whole gain, 8 and 13.4 judging its own
        passes). Elsewhere: a softmax of the expected scores.
        """
        n = self.num_players
        if state.ended_by:
            result = state.returns()
            return result if any(result) else [1.0 / n] * n
        values = [self.value(state, p) for p in range(n)]
        start = state._searched_from
        if start is not None:
            incoming = state._incoming or [0.0] * n
            gains = [v - s - i for v, s, i in zip(values, start, incoming)]
            return [min(1.0, max(0.0, 1.0 / n + g / EVALUATE_GAIN)) for g in gains]
        top = max(values)
        odds = [math.exp((v - top) / EVALUATE_SPREAD) for v in values]
        total = sum(odds)
        return [o / total for o in odds]

    def value(self, state: DotcombustState, player: int) -> float:
        """What ``player`` may expect to score: points, complete assets in hand in full, and
        part credit for the others."""
        hand = state.hands[player]
        return state.points[player] + sum(
            _progress(c, s) for c, s in zip(hand, self.asset_sizes) if c)

    def greedy_action(self, state: DotcombustState, player: int,
                      rng: random.Random) -> Pass | Show:
        """The play with the best expected gain for the player's own assets.

        It sees only what the table sees: its own hand and how many cards
        each other player holds; the parts it lacks are taken as spread at
        random over the other hands. Ties go at random, and one play in
        GREEDY_EXPLORE is any legal play, so two greedy players passing the
        same asset to each other (a wash) do not stall the game for ever.
        A completed asset is shown by ``greedy_show``.
        """
        if state.deciding():
            return self.greedy_show(state, player)
        legal = state.legal_passes(player)
        if len(legal) == 1 or rng.random() < GREEDY_EXPLORE:
            return rng.choice(legal)
        hand = state.hands[player]
        unseen = sum(state.hand_sizes) - state.hand_sizes[player]
        receiver = state.hand_sizes[state.opponent(player)]
        gains: dict[tuple[int, int, bool], float] = {}

        def expected_gain(a: int, k: int, up: bool) -> float:
            size, mine = self.asset_sizes[a], hand[a]
            missing = size - mine
            p_none = _chance_holds_none(unseen, missing, receiver)
            held = missing * receiver / unseen / (1 - p_none) if p_none < 1 else 0.0
            now = _progress(mine, size)
            won = _progress(mine + (1 if k == 1 else held), size) - now
            lost = _progress(mine - (k - 1 if up else k), size) - now
            return (1 - p_none) * won + p_none * lost

        best: list[Pass] = []
        best_gain = float("-inf")
        for action in legal:
            gain = 0.0
            for deal in _transactions(action):
                if deal not in gains:
                    gains[deal] = expected_gain(*deal)
                gain += gains[deal]
            if gain > best_gain + 1e-12:
                best, best_gain = [action], gain
            elif gain > best_gain - 1e-12:
                best.append(action)
        return rng.choice(best)

    def greedy_show(self, state: DotcombustState, player: int) -> Show:
        """Show a completed asset, unless that ends the game while not ahead.

        Shown or kept, a complete asset scores the same; the choice steers the
        end. Showing shrinks the hand towards the one card that ends the
        game, so a player who is not ahead keeps an asset whose showing would
        end it now, and plays on. "Ahead" uses what the table sees: the
        player's own points, every complete asset in hand counted, against
        the points the others have shown (their kept assets are hidden).
        Showing otherwise did a little better than keeping when behind or
        never showing (docs/rules-readings.md has the figures).
        """
        pending = state.pending[player]
        if not pending:
            return NOTHING_TO_SHOW
        asset = pending[0]
        if not state.show_would_end(player, asset):
            return Show(asset, True)
        mine = state.points[player] + sum(
            size - 1 for c, size in zip(state.hands[player], self.asset_sizes) if c == size)
        ahead = all(mine > state.points[q] for q in range(self.num_players) if q != player)
        return Show(asset, ahead)

    def metrics(self, state: DotcombustState) -> dict[str, Any]:
        """Points, spread, assets completed per size, kept to the end, passes, how it ended."""
        points = list(state.points)
        sizes = self.asset_sizes
        done = dict.fromkeys(sizes, 0)
        for shown in state.shown:
            for a in shown:
                done[sizes[a]] += 1
        return {
            "points": points,
            "spread": max(points) - min(points),
            "completed_by_size": {s: (done[s], dealt) for s, dealt in self._dealt_by_size},
            "completed": sum(len(shown) for shown in state.shown),
            "kept_to_end": sum(state.kept_to_end),
            "passes": state.passes,
            "turns": state.turn,
            "ended_by": state.ended_by or "unfinished",
            "ended_on_show": state.ended_on_show,
        }

    def summarize(self, metrics: list[dict[str, Any]]) -> dict[str, Any]:
        """Score spread, share of assets completed per size, of them kept to the end, passes, endings."""
        if not metrics:
            return {}
        n = len(metrics)
        done: Counter[int] = Counter()
        dealt: Counter[int] = Counter()
        ends: Counter[str] = Counter()
        seats = len(metrics[0]["points"])
        seat_points = [0.0] * seats
        for m in metrics:
            for size, (completed, total) in m["completed_by_size"].items():
                done[size] += completed
                dealt[size] += total
            ends[m["ended_by"]] += 1
            for p, pts in enumerate(m["points"]):
                seat_points[p] += pts
        completed = sum(m["completed"] for m in metrics)
        return {
            "mean score spread": round(sum(m["spread"] for m in metrics) / n, 2),
            "assets completed by size": {
                f"{s} parts": round(done[s] / dealt[s], 3) for s in sorted(dealt)},
            "completed assets kept to the end": (
                round(sum(m["kept_to_end"] for m in metrics) / completed, 3) if completed else 0.0),
            "mean passes per game": round(sum(m["passes"] for m in metrics) / n, 1),
            "mean turns per game": round(sum(m["turns"] for m in metrics) / n, 1),
            "game ended by": {k: round(v / n, 3) for k, v in sorted(ends.items())},
            "games ended by a show": round(sum(1 for m in metrics if m["ended_on_show"]) / n, 3),
            "mean points per seat": [round(x / n, 2) for x in seat_points],
        }


class DotcombustState(State):
    """Hands as card counts per asset, shown assets, points, turn number, and
    the assets just completed that await their holder's show or keep."""

    __slots__ = (
        "_deciding",
        "_incoming",
        "_known",
        "_log",
        "_searched_from",
        "_trusted",
        "bans",
        "ended_by",
        "ended_on_show",
        "game",
        "hand_sizes",
        "hands",
        "kept_to_end",
        "last_completion",
        "passes",
        "pending",
        "points",
        "shown",
        "turn",
        "weights",
    )

    def __init__(self, game: DotcombustGame, hands: list[list[int]] | None, turn: int = 0):
        self.game = game
        if hands is None:  # clone() fills the fields itself
            return
        self._init(game, hands, turn)

    def action_to_string(self, action: Any) -> str:
        """``pass 2 face up: Server Farm``, ``show Server Farm``; a joint action, one play per player."""
        if isinstance(action, tuple) and action and isinstance(action[0], (Pass, Show)):
            return "; ".join(f"seat {p}: {self.action_to_string(play)}" for p, play in enumerate(action))
        if isinstance(action, Show):
            return _show_to_string(self.game, action)
        if not action.assets:
            return "sit out"
        names = [self.game.asset_names[a] for a in action.assets]
        how = "face up" if action.face_up else "face down"
        return f"pass {len(names)} {how}: {', '.join(dict.fromkeys(names))}"

    def _init(self, game: DotcombustGame, hands: list[list[int]], turn: int) -> None:
        n = game.num_players
        count = len(game.asset_sizes)
        self.hands = hands
        self.hand_sizes = [sum(hand) for hand in hands]
        self.shown: list[list[int]] = [[] for _ in hands]
        # assets just completed, each awaiting its holder's show-or-keep decision
        self.pending: list[list[int]] = [[] for _ in hands]
        # per player, how many of the shown assets were kept in hand to the end
        self.kept_to_end = [0] * n
        self.ended_on_show = False
        self.points = [0] * n
        self.turn = turn
        self.passes = 0
        # bans[p * n + q]: assets (bit mask) p may not pass to q next time
        self.bans: list[int] | None = [0] * (n * n) if game.no_tagbacks else None
        self.last_completion = turn
        # what each player knows the others hold (known_parts): the turns not yet learnt from
        # are logged, and learnt only when asked (see _catch_up); a log of None tracks nothing
        self._log: list[tuple] | None = []
        self._known: list[dict[int, int]] | None = None
        # plays of each hand under the plain rules (see DotcombustGame._weight)
        self.weights = [game._plays_of(hand) for hand in hands]
        # the plays random_action handed out on this position, which apply_action trusts
        self._trusted: list[Any] | None = None
        # in a determinization, what each player could expect to score where the search began
        self._searched_from: list[float] | None = None
        # in a determinization, what each player's expected score gained or lost by the passes it
        # answered (the ones it did not choose) since then
        self._incoming: list[float] | None = None
        self.ended_by = ""
        sizes = game.asset_sizes
        for p in range(n):  # complete in the deal: completed before the first turn
            self.pending[p] = [a for a in range(count) if hands[p][a] == sizes[a]]
        self._deciding = any(self.pending)
        self._check_end()

    @property
    def known_parts(self) -> list[dict[int, int]] | None:
        """known_parts[x * n + q]: {asset: parts} x knows q holds at least, learnt from the
        passes between them (see _learn); None in a determinization, which tracks nothing."""
        if self._log is None:
            return None
        if self._log or self._known is None:
            self._catch_up()
        return self._known

    # -- the verbs every engine shares -------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.ended_by else SIMULTANEOUS

    def is_terminal(self) -> bool:
        return bool(self.ended_by)

    def legal_actions(self, player: int | None = None) -> list[Pass] | list[Show]:
        """Plays open to ``player`` now; every player moves at every decision.

        After a turn in which someone completed an asset, the decision is
        show or keep (one completed asset per player at a time; a player with
        none has the one play NOTHING_TO_SHOW); otherwise it is a pass.
        """
        if self.ended_by:
            return []
        if player is None:
            raise IllegalAction("dotCOMbust turns are simultaneous: "
                             "ask legal_actions(player) for each player")
        if self.deciding():
            return self.show_choices(player)
        return self.legal_passes(player)

    def num_legal_actions(self, player: int) -> int:
        """``len(self.legal_actions(player))``, mostly without listing them."""
        if self.ended_by:
            return 0
        if self._deciding:
            return 2 if self.pending[player] else 1
        game = self.game
        bans = self.bans
        if game._plain and not (bans is not None and bans[player * game.num_players + self.opponent(player)]):
            return self.weights[player]
        return len(self.legal_passes(player))

    def deciding(self) -> bool:
        """Whether this decision is show-or-keep (someone just completed an asset)."""
        return self._deciding

    def show_choices(self, player: int) -> list[Show]:
        """Show or keep the first asset ``player`` has just completed."""
        pending = self.pending[player]
        if not pending:
            return [NOTHING_TO_SHOW]
        return list(self.game._shows[pending[0]])

    def show_would_end(self, player: int, asset: int) -> bool:
        """Whether ``player`` showing ``asset`` (and no one else anything) ends the game now."""
        left = self.hand_sizes[player] - self.game.asset_sizes[asset]
        if not self.game.bitter_end:
            return left <= 1
        others = sum(1 for q, size in enumerate(self.hand_sizes) if q != player and size)
        return others + (left > 0) < 2

    def legal_passes(self, player: int) -> list[Pass]:
        """The passes open to ``player`` this turn."""
        game = self.game
        size = self.hand_sizes[player]
        target = self.opponent(player)
        if game.bitter_end:
            if size == 0 or self.hand_sizes[target] == 0:
                return [SIT_OUT]
            if size == 1:
                return [game._one[self.hands[player].index(1)][0]]
            if self.hand_sizes[target] == 1:
                return [SIT_OUT]
        hand = self.hands[player]
        banned = self.bans[player * game.num_players + target] if self.bans else 0
        actions = self._plays(hand, banned)
        if banned and not actions:  # a ban never leaves a player without a play
            actions = self._plays(hand, 0)
        return actions

    def apply_action(self, action: Sequence[Pass] | Sequence[Show]) -> None:
        """Resolve one turn of passes, or everyone's show-or-keep decisions.

        A turn: all passes leave, receivers answer, cards arrive. Each
        receiver answers against its hand without the cards it is passing
        itself; cards coming back or kept join only after every answer, so
        the order of answering cannot matter. A play that ``random_action``
        drew on this position is legal and is not checked again.
        """
        if self.ended_by:
            raise IllegalAction("the game is over")
        n = self.game.num_players
        if len(action) != n:
            raise IllegalAction(f"a dotCOMbust turn needs one play per player ({n}), "
                                f"got {len(action)}")
        trusted = self._trusted
        for p, play in enumerate(action):
            if (trusted is None or play is not trusted[p]) and play not in self.legal_actions(p):
                raise IllegalAction(f"player {p} cannot play {self.action_to_string(play)} now")
        self._trusted = None
        if self._deciding:
            self._apply_shows(cast("Sequence[Show]", action))
        else:
            self._apply_passes(cast("Sequence[Pass]", action))

    def _apply_passes(self, action: Sequence[Pass]) -> None:
        game = self.game
        n = game.num_players
        hands, sizes, bans, weights = self.hands, self.hand_sizes, self.bans, self.weights
        asset_sizes, weight = game.asset_sizes, game._weight
        offset = 1 + self.turn % (n - 1)
        # a complete asset can only leave its holder's hand by the holder's own pass
        # (no one else holds a part to ask for it), so these are the only ones that
        # may come back complete without being a new completion
        whole: list[tuple[int, int]] = []
        gifts = [size == 1 for size in sizes] if game.bitter_end else None
        incoming = self._incoming
        for p, play in enumerate(action):
            cards = play[0]
            if not cards:
                continue
            hand = hands[p]
            for a in cards:
                held = hand[a]
                if held == asset_sizes[a]:
                    whole.append((p, a))
                hand[a] = held - 1
                weights[p] += weight[held - 1] - weight[held]
            sizes[p] -= len(cards)
            if bans is not None:  # a ban lasts until the next pass to them
                bans[p * n + (p + offset) % n] = 0
        # (player, asset, cards), in the order of the plays: the knowledge log reads it (_catch_up)
        arriving: list[tuple[int, int, int]] = []
        for p, play in enumerate(action):
            cards = play[0]
            if not cards:
                continue
            q = p + offset
            if q >= n:
                q -= n
            if gifts is not None and gifts[p]:
                arriving.append((q, cards[0], 1))
                continue
            self.passes += 1
            a = cards[0]
            if len(cards) == 2 and cards[1] != a:  # Both Barrels: two one-card face-down passes
                deals: tuple[tuple[int, int, bool], ...] = ((a, 1, False), (cards[1], 1, False))
            else:
                deals = ((a, len(cards), play[1]),)
            hand = hands[q]
            for a, k, up in deals:
                held = hand[a]
                if incoming is not None:  # what answering this pass did to the receiver
                    if held:
                        after = held - 1 if k == 1 else 0
                    else:
                        after = (k == 2) if up else k
                    incoming[q] += _progress(after, asset_sizes[a]) - _progress(held, asset_sizes[a])
                if held:  # pass back the card(s) plus one part, or all parts
                    give = 1 if k == 1 else held
                    hand[a] = held - give
                    sizes[q] -= give
                    weights[q] += weight[held - give] - weight[held]
                    arriving.append((p, a, k + give))
                    if bans is not None:
                        bans[q * n + p] |= 1 << a
                else:
                    if up:  # one comes back; of two, the receiver keeps one
                        arriving.append((p, a, 1))
                        if k == 2:
                            arriving.append((q, a, 1))
                    else:  # the receiver keeps them all
                        arriving.append((q, a, k))
                    if bans is not None and (k == 2 or not up):
                        bans[p * n + q] |= 1 << a
        if self._log is not None:
            self._log.append((offset, action, arriving, gifts))
        self._arrive(arriving, whole)
        self.turn += 1
        self._check_end()

    def _arrive(self, arriving: list[tuple[int, int, int]], whole: list[tuple[int, int]]) -> None:
        """The cards of a turn's answers join the hands (``arriving``: player, asset, cards); an
        asset complete now is a new completion unless its holder held it whole before (``whole``)."""
        hands, sizes, weights = self.hands, self.hand_sizes, self.weights
        asset_sizes, weight = self.game.asset_sizes, self.game._weight
        completed = False
        for p, a, k in arriving:
            hand = hands[p]
            held = hand[a]
            hand[a] = held + k
            sizes[p] += k
            weights[p] += weight[held + k] - weight[held]
            if held + k == asset_sizes[a]:
                completed = True
        if completed:
            pending = self.pending
            for p, a, _ in arriving:
                if hands[p][a] == asset_sizes[a] and (p, a) not in whole and a not in pending[p]:
                    pending[p].append(a)
                    pending[p].sort()
                    self.last_completion = self.turn
                    self._deciding = True

    def _random_shows(self, draw: Callable[[int], int], branching: list[int]) -> None:
        """A show-or-keep decision at random for everyone, each player's number of plays noted in
        ``branching``: drawn as random_action draws it, resolved as _apply_shows resolves it."""
        branching += [2 if mine else 1 for mine in self.pending]
        for p, mine in enumerate(self.pending):
            if not mine:
                continue
            a = mine.pop(0)
            if not draw(1):  # random_action: Show(a, True) at 0
                self._lay_down(p, a)
        self._deciding = any(self.pending)
        self._check_end(on_show=True)

    def _apply_shows(self, action: Sequence[Show]) -> None:
        """Each player with a just-completed asset shows it (it scores now) or keeps it."""
        for p, (a, show) in enumerate(action):
            if a < 0:
                continue
            self.pending[p].remove(a)
            if show:
                self._lay_down(p, a)
        self._deciding = any(self.pending)
        self._check_end(on_show=True)

    def returns(self) -> list[float]:
        """1 to the single player with the most points; a tie at the top is a draw."""
        n = self.game.num_players
        if not self.ended_by:
            return [0.0] * n
        best = max(self.points)
        top = [p for p in range(n) if self.points[p] == best]
        if len(top) > 1:
            return [0.0] * n
        return [1.0 if p == top[0] else 0.0 for p in range(n)]

    def cards_played(self) -> list[list[str]]:
        """Per player, the name of each asset shown, once per show (at the end too)."""
        names = self.game.asset_names
        return [[names[a] for a in shown] for shown in self.shown]

    def cards_held(self) -> list[list[str]]:
        """Per player, the asset name of each part in hand, once per part (kept assets too)."""
        names = self.game.asset_names
        return [[name for name, c in zip(names, hand) if c for _ in range(c)] for hand in self.hands]

    def clone(self) -> DotcombustState:
        other = self._copy()
        other._log = self._log[:] if self._log is not None else None
        other._known = [d.copy() for d in self._known] if self._known is not None else None
        return other

    def _copy(self) -> DotcombustState:
        """A copy of everything but what the players know of each other (tracking nothing)."""
        other = DotcombustState(self.game, None)
        other.hands = [h[:] for h in self.hands]
        other.hand_sizes = self.hand_sizes[:]
        other.weights = self.weights[:]
        other.shown = [s[:] for s in self.shown]
        other.points = self.points[:]
        other.turn = self.turn
        other.passes = self.passes
        other.bans = self.bans[:] if self.bans is not None else None
        other.last_completion = self.last_completion
        other.ended_by = self.ended_by
        other.pending = [a[:] for a in self.pending]
        other._deciding = self._deciding
        other.kept_to_end = self.kept_to_end[:]
        other.ended_on_show = self.ended_on_show
        other._trusted = None
        other._log = None
        other._known = None
        other._searched_from = self._searched_from
        other._incoming = self._incoming[:] if self._incoming is not None else None
        return other

    def determinize(self, player: int, rng: random.Random) -> DotcombustState:
        """The position as ``player`` might believe it: the others' hands dealt again.

        Public and kept: ``player``'s own hand, every hand's size, the shown
        assets and points, the turn, and the show step in progress (who just
        completed which asset: the engine's show step is a move of the whole
        table, so this is read as public). Kept too, in each other hand: the
        parts ``player`` knows it holds from the passes between the two
        (``known_parts``). Everything else in the other hands is dealt again
        from the parts ``player`` does not see, each hand keeping its size.
        A face-up pass between two others, and its answer, are seen by the
        whole table; a face-down one only as a number of cards. What a pass
        says a hand does *not* hold is not used (a conservative reading; it
        measured no stronger, docs/rules-readings.md). Tagback bans between
        two others are cleared (``player`` knows only those involving them).
        The copy tracks no knowledge (``known_parts`` None): it is searched,
        not determinized again.
        """
        game = self.game
        n = game.num_players
        sizes = game.asset_sizes
        known = self.known_parts
        other = self._copy()
        count = len(sizes)
        fixed: list[list[int]] = [[0] * count for _ in range(n)]
        pool: list[int] = []
        for q in range(n):
            if q == player:
                continue
            row = fixed[q]
            if known is not None:
                for a, c in known[player * n + q].items():
                    row[a] = c
            for a in self.pending[q]:
                row[a] = sizes[a]
            for a, c in enumerate(self.hands[q]):
                if c > row[a]:
                    pool += [a] * (c - row[a])
        rand = rng.random
        for i in range(len(pool) - 1, 0, -1):  # Fisher-Yates on random(), as in the deal
            j = int(rand() * (i + 1))
            pool[i], pool[j] = pool[j], pool[i]
        start = 0
        for q in range(n):
            if q == player:
                continue
            hand = fixed[q]
            free = self.hand_sizes[q] - sum(hand)
            for a in pool[start:start + free]:
                hand[a] += 1
            start += free
            other.hands[q] = hand
            other.weights[q] = game._plays_of(hand)
        if other.bans is not None:
            for q in range(n):
                for r in range(n):
                    if player not in (q, r):
                        other.bans[q * n + r] = 0
        other._searched_from = [game.value(other, q) for q in range(n)]
        other._incoming = [0.0] * n
        return other

    def _catch_up(self) -> None:
        """Learn from the logged turns (see _learn) what each player knows the others hold.

        A turn's entry is (offset, the plays, the cards that arrived in the order of the plays,
        who gave a last card); a laid-down asset's is (player, asset): its parts are on the table.
        An answer is read off its arrivals: the passer got more cards back than it passed when
        the receiver paid, the passer got one back or both kept one of a face-up pass the
        receiver had no part of, and the receiver got them all of a face-down one.
        """
        n = self.game.num_players
        if self._known is None:
            self._known = [{} for _ in range(n * n)]
        known = self._known
        log = self._log
        assert log is not None
        for entry in log:
            if len(entry) == 2:
                holder, asset = entry
                for x in range(n):
                    known[x * n + holder].pop(asset, None)
                continue
            offset, action, arriving, gifts = entry
            moves: list[tuple[int, int, int, int]] = []
            answers = iter(arriving)
            for p, play in enumerate(action):
                cards = play[0]
                if not cards:
                    continue
                q = (p + offset) % n
                # who sees p's cards move, and q's: each other, or (face up) the whole table
                by_q, by_p = (TABLE, TABLE) if play[1] else (q, p)
                moves += [(p, a, -1, by_q) for a in cards]
                if gifts is not None and gifts[p]:
                    next(answers)
                    moves.append((q, cards[0], 1, p))
                    continue
                for a, k, _ in _transactions(play):
                    x, _, back = next(answers)
                    if x == q:  # the receiver had none and kept them all
                        moves.append((q, a, k, by_p))
                    elif back > k:  # the receiver paid back - k
                        moves += [(q, a, k - back, by_p), (p, a, back, by_q)]
                    else:  # face up to a receiver with none: one comes back, of two it keeps one
                        moves.append((p, a, 1, by_q))
                        if k == 2:
                            next(answers)
                            moves.append((q, a, 1, by_p))
            self._learn(moves)
        log.clear()

    def _learn(self, moves: list[tuple[int, int, int, int]]) -> None:
        """What each player now knows the others hold at least, after one turn of passes.

        ``moves`` are (holder, asset, parts gained or lost, the other party).
        The two parties of a pass see its faces; everyone sees how many cards
        move, and the faces of a face-up pass (witness TABLE), so also what its
        answer moved: the cards that come back are parts of the asset shown.
        So x's lower bound on q's parts of asset a falls by every card q lost
        that x did not see (it might have been an a) and by the a's x saw q
        lose, floored at 0, and then rises by the a's x saw q gain.
        """
        known = self._known
        assert known is not None
        n = self.game.num_players
        lost = [0] * n
        seen_lost: dict[tuple[int, int], dict[int, int]] = {}
        seen_gained: dict[tuple[int, int], dict[int, int]] = {}
        for holder, a, change, witness in moves:
            if change < 0:
                lost[holder] -= change
            seen = seen_lost if change < 0 else seen_gained
            for x in (range(n) if witness == TABLE else (witness,)):
                if x != holder:
                    row = seen.setdefault((x, holder), {})
                    row[a] = row.get(a, 0) + abs(change)
        for x in range(n):
            for q in range(n):
                old = known[x * n + q]
                gained = seen_gained.get((x, q))
                if q == x or not (old or gained):
                    continue
                saw = seen_lost.get((x, q), {})
                unseen = lost[q] - sum(saw.values())
                new = {}
                for a, c in old.items():
                    c -= unseen + saw.get(a, 0)
                    if c > 0:
                        new[a] = c
                for a, g in (gained or {}).items():
                    new[a] = new.get(a, 0) + g
                known[x * n + q] = new

    # -- dotCOMbust's own questions -----------------------------------------

    def opponent(self, player: int) -> int:
        """Whom ``player`` passes to this turn."""
        return (player + self.game.offset(self.turn)) % self.game.num_players

    def __str__(self) -> str:
        game = self.game
        lines = [f"turn {self.turn}, passing {game.offset(self.turn)} to the left"]
        for p, hand in enumerate(self.hands):
            held = ", ".join(f"{game.asset_names[a]} {c}/{game.asset_sizes[a]}"
                             for a, c in enumerate(hand) if c)
            shown = ", ".join(game.asset_names[a] for a in self.shown[p])
            lines.append(f"player {p}: {self.points[p]} points [{shown}] hand: {held}")
        return "\n".join(lines)

    # -- helpers ---------------------------------------------------------------

    def _plays(self, hand: list[int], banned: int) -> list[Pass]:
        game = self.game
        actions: list[Pass] = []
        held = []
        for a, c in enumerate(hand):
            if not c or banned >> a & 1:
                continue
            actions += game._one[a]
            if c >= 2:
                actions += game._two[a]
            held.append(a)
        if game.both_barrels:
            barrels = game._barrels
            actions += [barrels[a, b] for i, a in enumerate(held) for b in held[i + 1:]]
        return actions

    def _lay_down(self, player: int, asset: int) -> None:
        """Show a complete asset: off the hand, onto the table, n-1 points."""
        size = self.game.asset_sizes[asset]
        self.weights[player] -= self.game._weight[self.hands[player][asset]]
        self.hands[player][asset] = 0
        self.hand_sizes[player] -= size
        if self._log is not None:  # every part of it is on the table now
            self._log.append((player, asset))
        self.shown[player].append(asset)
        self.points[player] += size - 1

    def _check_end(self, on_show: bool = False) -> None:
        game = self.game
        sizes = self.hand_sizes
        if game.bitter_end:
            holding = sum(1 for s in sizes if s)
            patience = BITTER_END_PATIENCE_ROUNDS * (game.num_players - 1)
            if holding < 2:
                self.ended_by = "no cards left to pass"
            elif self.turn - self.last_completion >= patience:
                self.ended_by = "pointless"
        else:
            least = min(sizes)
            if least <= 1:
                self.ended_by = "one card" if least else "empty hand"
        if not self.ended_by and game.turn_limit and self.turn >= game.turn_limit:
            self.ended_by = "turn limit"
        if self.ended_by:
            self._show_at_the_end()
            self.ended_on_show = on_show

    def _show_at_the_end(self) -> None:
        """At the end "everyone show sets they've completed": kept complete assets score too."""
        sizes = self.game.asset_sizes
        for p, hand in enumerate(self.hands):
            for a, c in enumerate(hand):
                if c == sizes[a]:
                    self._lay_down(p, a)
                    self.kept_to_end[p] += 1
            self.pending[p] = []
        self._deciding = False


# -- option parsing and deck reading ---------------------------------------------

_OPTION_NAMES = frozenset(spec.name for spec in OPTION_SPECS)


def _keep_assets(names: list[str], keep: int) -> list[str]:
    if keep > len(names):
        raise CardgenError(f"dotcombust: option 'assets' must be at most "
                           f"{len(names)} (the deck has {len(names)} assets), got {keep}")
    return list(names[:keep] if keep else names)


def _asset_table(assets: Any) -> tuple[list[str], list[int], list[tuple[str, ...]]]:
    """Names, sizes and part names from {name: size}, {name: parts} or [sizes]."""
    if isinstance(assets, Mapping):
        items = list(assets.items())
    else:
        items = [(f"Asset {i + 1}", size) for i, size in enumerate(assets)]
    names, sizes, parts = [], [], []
    for name, spec in items:
        if isinstance(spec, int):
            part_names = tuple(f"{name} part {i + 1}" for i in range(spec))
        else:
            part_names = tuple(spec)
        names.append(name)
        sizes.append(len(part_names))
        parts.append(part_names)
    return names, sizes, parts


def bundled_assets() -> dict[str, tuple[str, ...]]:
    """The bundled deck's assets, {name: part names}, as ``game_from_deck`` reads them."""
    return dict(_bundled_asset_items())


@functools.lru_cache(maxsize=1)
def _bundled_asset_items() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Read once per process: engines are made often (a playtest, every test)."""
    from . import bundled_deck

    return tuple(_deck_assets(bundled_deck("dotcombust")).items())


def _asset(card: Any) -> str:
    """The asset an asset card is a part of (the deck's ``assets`` put it in the card's fields)."""
    return str(card.fields.get("asset", ""))


def _parts(card: Any) -> tuple[str, ...]:
    """The part names of the asset an asset card belongs to."""
    return tuple(card.fields.get("parts", ()))


def _deck_assets(deck: Any) -> dict[str, tuple[str, ...]]:
    """Each asset's printed part list, in the order the deck first shows it."""
    assets: dict[str, tuple[str, ...]] = {}
    for card in deck.cards:
        if card.kind == "asset" and _asset(card) not in assets:
            assets[_asset(card)] = _parts(card)
    return assets


def _check_asset(name: str, cards: list[Any], error: Any) -> None:
    """Every card lists the same parts, and each part is printed exactly once."""
    parts = _parts(cards[0])
    if len(parts) < 2:
        error(f"asset '{name}' lists {len(parts)} part(s); an asset needs 2 or more",
              cards[0])
    repeated = sorted(p for p, c in Counter(parts).items() if c > 1)
    if repeated:
        error(f"asset '{name}' lists part(s) {', '.join(repeated)} more than once",
              cards[0])
    seen: Counter[str] = Counter()
    for card in cards:
        if _parts(card) != parts:
            error(f"asset '{name}': this card lists parts {list(_parts(card))}, "
                  f"card '{cards[0].id}' lists {list(parts)}", card)
        if card.title not in parts:
            error(f"asset '{name}': part '{card.title}' is not in the asset's "
                  f"part list {list(parts)}", card)
        seen[card.title] += card.copies
        if card.title in parts and seen[card.title] > 1:
            error(f"asset '{name}': part '{card.title}' is printed "
                  f"{seen[card.title]} times; each part exists once", card)
    missing = [p for p in dict.fromkeys(parts) if p not in seen]
    if missing:
        error(f"asset '{name}' has no card for part(s) {', '.join(missing)}", cards[0])


def _progress(count: float, size: int) -> float:
    """What holding ``count`` of ``size`` parts is worth: full points when complete."""
    if count >= size:
        return float(size - 1)
    return 0.5 * (size - 1) * (count / size) ** 2


def _transactions(action: Pass) -> tuple[tuple[int, int, bool], ...]:
    """(asset, cards, face up) of each answer a play asks for."""
    cards = action[0]
    if not cards:
        return ()
    if len(cards) == 2 and cards[0] != cards[1]:
        return ((cards[0], 1, False), (cards[1], 1, False))
    return ((cards[0], len(cards), action[1]),)


def _show_to_string(game: DotcombustGame, action: Show) -> str:
    if action.asset < 0:
        return "nothing to show"
    return f"{'show' if action.show else 'keep'} {game.asset_names[action.asset]}"


def _chance_holds_none(unseen: int, missing: int, hand: int) -> float:
    """Chance a hand of ``hand`` unseen cards has none of ``missing`` parts."""
    chance = 1.0
    for i in range(hand):
        if unseen - i <= 0:
            break
        chance *= max(unseen - missing - i, 0) / (unseen - i)
    return chance


# --- the game, declared ---------------------------------------------------------

def customise(deck: Any, cards: list, options: Mapping[str, Any], settings: Any) -> list:
    """A smaller deck for fewer players: ``assets=N`` keeps the first N assets."""
    keep = options.get("assets")
    if not keep:
        return cards
    assets = list(dict.fromkeys(_asset(c) for c in cards if c.kind == "asset"))
    if not 1 <= keep <= len(assets):
        raise CardgenError(f"option assets must be from 1 to {len(assets)} (the deck has {len(assets)} assets), "
                           f"got {keep}")
    kept = set(assets[:keep])
    return [c for c in cards if c.kind != "asset" or _asset(c) in kept]


from .dotcombust_questions import QUESTIONS as ANALYZE_QUESTIONS  # noqa: E402

GAME = GameInfo(id="dotcombust", name="dotCOMbust", engine=DotcombustGame, from_deck=game_from_deck,
                check_deck=check_deck, customise=customise, players="3+",
                questions=ANALYZE_QUESTIONS)
