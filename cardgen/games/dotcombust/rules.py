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

This module is the state machine: ``DotcombustRules`` (the table: assets, players, options) and
``DotcombustState``. What the players know of each other's hands is knowledge.py's, the deck's
assets assets.py's, the players (random, greedy, the search's judgement) policies.py's.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, cast

from ...errors import CardgenError
from ...stats import mean_interval
from .. import base
from ..base import SIMULTANEOUS, TERMINAL, Game, IllegalAction, OptionSpec, State, deal_out
from .assets import asset_table, bundled_assets, keep_assets
from .knowledge import catch_up

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

def parse_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Rule options from Python values or command-line strings, checked."""
    return base.parse_options("dotcombust", OPTION_SPECS, dict(options or {}))

OPTION_NAMES = frozenset(spec.name for spec in OPTION_SPECS)


class DotcombustRules(Game["DotcombustState"]):
    """Asset sizes, players and rule options; deals States. The rules only: the game the flows
    play, with its players, is ``policies.DotcombustGame``.

    ``assets`` is {name: size}, {name: part names} or a list of sizes; when
    omitted, the assets of the bundled deck (decks/dotcombust.yaml), so the
    engine and the printed deck have one source. ``options["players"]`` wins
    over ``num_players``.
    """

    name = "dotcombust"
    option_specs = OPTION_SPECS

    def __init__(self, num_players: int | None = None,
                 options: Mapping[str, Any] | None = None,
                 assets: Mapping[str, int] | Mapping[str, Sequence[str]] | Sequence[int] | None = None):
        opts = dict(options or {})
        if num_players is not None:
            opts.setdefault("players", num_players)
        opts = parse_options(opts)
        super().__init__(opts["players"], opts)
        names, sizes, parts = asset_table(bundled_assets() if assets is None else assets)
        kept = keep_assets(names, opts["assets"])
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
        #: per asset, ``progress`` of holding 0..size of its parts (``value`` reads it)
        self._worth = [[progress(c, size) for c in range(size + 1)] for size in self.asset_sizes]
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

    def value(self, state: DotcombustState, player: int) -> float:
        """What ``player`` may expect to score: points, complete assets in hand in full, and
        part credit for the others."""
        return state.points[player] + sum([worth[c] for worth, c in zip(self._worth, state.hands[player]) if c])

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
            **_finished_turns(metrics),
            "game ended by": {k: round(v / n, 3) for k, v in sorted(ends.items())},
            "games ended by a show": round(sum(1 for m in metrics if m["ended_on_show"]) / n, 3),
            "mean points per seat": [round(x / n, 2) for x in seat_points],
        }


class DotcombustState(State):
    """Hands as card counts per asset, shown assets, points, turn number, and
    the assets just completed that await their holder's show or keep."""

    __slots__ = (
        "_dealing",
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

    def __init__(self, game: DotcombustRules, hands: list[list[int]] | None, turn: int = 0):
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

    def _init(self, game: DotcombustRules, hands: list[list[int]], turn: int) -> None:
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
        # are logged, and learnt only when asked (see knowledge.catch_up); a log of None tracks nothing
        self._log: list[tuple] | None = []
        self._known: list[dict[int, int]] | None = None
        # plays of each hand under the plain rules (see DotcombustRules._weight)
        self.weights = [game._plays_of(hand) for hand in hands]
        # the plays random_action handed out on this position, which apply_action trusts
        self._trusted: list[Any] | None = None
        # per player, ``_deal_plan`` of this position once a determinization for them asked for it
        self._dealing: dict[int, tuple] | None = None
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
        passes between them (knowledge.py); None in a determinization, which tracks nothing."""
        if self._log is None:
            return None
        if self._log or self._known is None:
            n = self.game.num_players
            if self._known is None:
                self._known = [{} for _ in range(n * n)]
            catch_up(self._known, self._log, n)
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
        self._trusted = self._dealing = None
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
        # (player, asset, cards), in the order of the plays: the knowledge log reads it (catch_up)
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
                    incoming[q] += progress(after, asset_sizes[a]) - progress(held, asset_sizes[a])
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
        other._dealing = None
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
        plan = self._dealing.get(player) if self._dealing is not None else None
        if plan is None:
            if self._dealing is None:
                self._dealing = {}
            plan = self._dealing[player] = self._deal_plan(player)
        fixed, pool, cleared = plan
        game = self.game
        n = game.num_players
        other = self._copy()
        pool = pool[:]
        rand = rng.random
        for i in range(len(pool) - 1, 0, -1):  # Fisher-Yates on random(), as in the deal
            j = int(rand() * (i + 1))
            pool[i], pool[j] = pool[j], pool[i]
        hands, weights, plays_of = other.hands, other.weights, game._plays_of
        deal_out(pool, fixed, hands)
        for q, _, _ in fixed:
            weights[q] = plays_of(hands[q])
        bans = other.bans
        if bans is not None:
            for i in cleared:
                bans[i] = 0
        other._searched_from = [game.value(other, q) for q in range(n)]
        other._incoming = [0.0] * n
        return other

    def _deal_plan(self, player: int) -> tuple:
        """What every determinization for ``player`` of this position starts from (the search deals
        thousands of one position): per other seat the parts it is known to keep and how many it
        is dealt, the unseen parts in the order they are shuffled, and the tagback bans cleared."""
        game = self.game
        n = game.num_players
        sizes = game.asset_sizes
        known = self.known_parts
        fixed: list[tuple[int, list[int], int]] = []
        pool: list[int] = []
        for q in range(n):
            if q == player:
                continue
            row = [0] * len(sizes)
            if known is not None:
                for a, c in known[player * n + q].items():
                    row[a] = c
            for a in self.pending[q]:
                row[a] = sizes[a]
            for a, c in enumerate(self.hands[q]):
                if c > row[a]:
                    pool += [a] * (c - row[a])
            fixed.append((q, row, self.hand_sizes[q] - sum(row)))
        cleared = [q * n + r for q in range(n) for r in range(n) if player not in (q, r)]
        return fixed, pool, cleared

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


def _finished_turns(metrics: list[dict[str, Any]]) -> dict[str, Any]:
    """Turns of the games that ended, apart from those cut off at the move cap, with a 95% interval."""
    turns = [m["turns"] for m in metrics if m["ended_by"] != "unfinished"]
    interval = mean_interval(turns)
    return {"turns per finished game (mean)": interval[0] if interval else None,
            "turns per finished game (95% CI)": list(interval[1:]) if interval else None,
            "games cut off": len(metrics) - len(turns)}


def progress(count: float, size: int) -> float:
    """What holding ``count`` of ``size`` parts is worth: full points when complete."""
    if count >= size:
        return float(size - 1)
    return 0.5 * (size - 1) * (count / size) ** 2


def _show_to_string(game: DotcombustRules, action: Show) -> str:
    if action.asset < 0:
        return "nothing to show"
    return f"{'show' if action.show else 'keep'} {game.asset_names[action.asset]}"
