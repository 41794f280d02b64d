"""Virtual players: round-robin tournaments, the strong level against every opponent and
the worst setting of every opponent family, a best response to it, its decision times
and its memory.

Every lineup plays ``games`` games in every seating in turn (game ``g`` takes the
``g``-th of the lineup's distinct orders around the table, :func:`seatings`), on virtual
decks shuffled from the lineup's name and the game's number. Turning the lineup round
would not do: at three seats it keeps who sits after whom, and in Coyote the seat after
a bidder is the one that challenges it. A level's win rate is its wins
over its games (a level seated twice counts each copy's games), with a 95 % Wilson
interval.

The opponent families (:data:`FAMILIES`, issue 38) are exact-odds players that reason
about the next raise; each is swept over a grid of its parameters and the strong level
is judged against the setting it does worst against (:func:`sweep`). The exploitability
figure is the strong level's loss to a bounded best response in the two-seat round
(:func:`best_response`).

Targets (issues 27 and 38, docs/players.md): the strong level wins at least 1.5 times its
fair share, the lower end of its interval included, against ``seats - 1`` copies of every
level and of the worst setting of every family, at three and five seats (and, issue 27,
against the two baselines); beats both other levels head to head (two seats); decides in
at most 50 ms at the median and 200 ms at worst on one core (CPU time of the deciding
thread), and its tables stay within 150 MB.
"""

from __future__ import annotations

import itertools
import math
import time
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from coyote_pi import cards
from coyote_pi.engine import events
from coyote_pi.engine.game import BASIC, BIDDING, GameConfig, Variant
from coyote_pi.engine.views import SeatView
from coyote_pi.players import BASELINES, knowledge
from coyote_pi.players.levels import OneAhead, Weighing
from coyote_pi.players.roster import LEVELS, VirtualPlayer
from coyote_pi.players.seating import play
from coyote_pi.players.turn import BIDDING as TURN_BIDDING
from coyote_pi.players.turn import Move, TurnView

#: The opponent families (issue 38): exact-odds players that reason about the next raise
#: as well as the bid on the table, each swept over a grid of its parameters.
FAMILIES: dict[str, tuple[VirtualPlayer, ...]] = {
    OneAhead.family: tuple(OneAhead(doubt, risk) for doubt in (0.3, 0.4, 0.5) for risk in (0.05, 0.1, 0.2, 0.3)),
    Weighing.family: tuple(Weighing(doubt, caution) for doubt in (0.3, 0.4, 0.5, 0.6) for caution in (0.7, 1.0, 1.4)),
}
#: Every player the bench seats, by name: the levels and every member of every family.
PLAYERS: dict[str, VirtualPlayer] = {**LEVELS, **{player.level: player for family in FAMILIES.values()
                                                  for player in family}}
TARGET_SHARE_FACTOR = 1.5
TARGET_MEDIAN_MS, TARGET_WORST_MS = 50.0, 200.0
TARGET_MEMORY_MB = 150.0


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


@dataclass(frozen=True)
class Standing:
    level: str
    wins: int
    games: int  #: games played by all of this level's copies together

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


@dataclass(frozen=True)
class Result:
    """One lineup's tournament."""

    lineup: tuple[str, ...]
    variant: str
    games: int
    standings: tuple[Standing, ...]

    def of(self, level: str) -> Standing:
        return next(standing for standing in self.standings if standing.level == level)

    @property
    def fair_share(self) -> float:
        return 1 / len(self.lineup)


class Timed:
    """A player whose decisions are timed (seconds of this thread's CPU time, one entry
    per decision: what one core spends, whatever else the machine runs meanwhile)."""

    def __init__(self, player: VirtualPlayer, times: list[float]) -> None:
        self.level = player.level
        self._player = player
        self._times = times

    def decide(self, view: TurnView, seed: int | str) -> Move:
        start = time.thread_time()
        move = self._player.decide(view, seed)
        self._times.append(time.thread_time() - start)
        return move


@dataclass
class Times:
    """Decision times per level, in seconds."""

    by_level: dict[str, list[float]] = field(default_factory=dict)

    def player(self, level: str) -> Timed:
        return Timed(PLAYERS[level], self.by_level.setdefault(level, []))


def seatings(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct order of ``lineup`` around the table (a level seated twice is one
    level: its copies trading places is the same seating).

    >>> seatings(["a", "b", "c"])
    [('a', 'b', 'c'), ('a', 'c', 'b'), ('b', 'a', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b'), ('c', 'b', 'a')]
    >>> seatings(["a", "x", "x"])
    [('a', 'x', 'x'), ('x', 'a', 'x'), ('x', 'x', 'a')]
    """
    return list(dict.fromkeys(itertools.permutations(lineup)))


def tournament(lineup: Sequence[str], variant: str, games: int, times: Times | None = None,
               decks: str = "") -> Result:
    """``games`` games of ``lineup`` (names of :data:`PLAYERS`, one per seat), each seating
    in turn; ``decks`` names another set of shuffles than the lineup's own."""
    seats = len(lineup)
    orders = seatings(lineup)
    wins: Counter[str] = Counter()
    for number in range(games):
        seated = orders[number % len(orders)]
        lineup_of = {seat: (times.player(name) if times else PLAYERS[name]) for seat, name in enumerate(seated, 1)}
        game = play(GameConfig(players=seats, variant=Variant(variant)), lineup_of, f"{decks}{'/'.join(lineup)}/{variant}/{number}")
        wins[seated[game.active_seats[0] - 1]] += 1
    copies = Counter(lineup)
    standings = tuple(Standing(level, wins[level], games * copies[level]) for level in dict.fromkeys(lineup))
    return Result(tuple(lineup), variant, games, standings)


def met(result: Result) -> bool:
    """Whether the strong level's interval clears :data:`TARGET_SHARE_FACTOR` times its
    fair share in ``result``."""
    low, _ = result.of("strong").interval
    return low >= TARGET_SHARE_FACTOR * result.fair_share


def against(opponent: str, seats: int) -> tuple[str, ...]:
    """The strong level against ``seats - 1`` copies of ``opponent``."""
    return ("strong", *[opponent] * (seats - 1))


@dataclass(frozen=True)
class Sweep:
    """The strong level against every member of a family, and against the worst of
    them again on other decks (choosing the worst of many noisy figures flatters it:
    its own figure is the lowest by selection, so it is measured afresh)."""

    family: str
    members: tuple[Result, ...]  #: one per member, in the family's order
    worst: Result  #: the member the strong level did worst against, on fresh decks


def sweep(family: str, seats: int, variant: str, games: int, worst_games: int, times: Times | None = None) -> Sweep:
    """The strong level against ``seats - 1`` copies of each member of ``family``
    (``games`` games each), then ``worst_games`` more against the worst member."""
    members = tuple(tournament(against(player.level, seats), variant, games) for player in FAMILIES[family])
    worst = min(members, key=lambda result: result.of("strong").rate).lineup[1]
    return Sweep(family, members, tournament(against(worst, seats), variant, worst_games, times, decks="again/"))


def round_robin(seats: int) -> list[tuple[str, ...]]:
    """Every lineup of ``seats`` different levels among all five."""
    return list(itertools.combinations(LEVELS, seats))


def against_baselines(seats: int) -> tuple[str, ...]:
    """The strong level against the two baselines, filling ``seats`` seats in turn."""
    return ("strong", *itertools.islice(itertools.cycle(BASELINES), seats - 1))


def strong_memory_mb(games: int, variant: str) -> float:
    """The peak memory (MB, traced) the strong level's tables take over ``games`` games
    against the baselines, starting from empty tables."""
    knowledge.reach.cache_clear()
    tracemalloc.start()
    try:
        tournament(against_baselines(5), variant, games)
        tournament(against_baselines(3), variant, games)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 1e6


# -- a best response to the strong level, two seats ----------------------------------------

#: The exploiter's seat and the strong level's, in the two-seat game of the best response.
EXPLOITER, STRONG_SEAT = 1, 2


def _strong_turn(me: int, seen: str, bids: tuple[tuple[int, int], ...]) -> TurnView:
    """Seat ``me``'s turn in a two-seat basic round, seeing ``seen`` on the other stand."""
    other = EXPLOITER + STRONG_SEAT - me
    last = bids[-1] if bids else None
    seat = SeatView(seat=me, round=1, phase=BIDDING, turn=me, bid=last[1] if last else None,
                    bidder=last[0] if last else None, eyes={me: (2, 1), other: (2, 1)}, others={other: seen},
                    peeked=False, centre=None, coyote_card_draw=None, extra_in_play=False, coyote_holder=None,
                    active_others=(other,))
    return TurnView(seat=seat, phase=TURN_BIDDING, variant=BASIC, bids=bids,
                    min_bid=last[1] + 1 if last else None, may_challenge=bool(bids), may_use_coyote_card=False,
                    coyote_card_used_this_turn=False)


class Exploiter:
    """A best response to the strong level in the two-seat basic round, for one card on
    the strong seat's stand (``theirs``, which the exploiter sees): for every history of
    bids it knows which of its own possible cards would have led the strong level to bid
    as it did (the strong level is a pure function of its view), and it picks the move
    that loses least over those cards, looking ahead through the strong level's replies.
    Its raises are bounded: at most ``spread`` above the lowest legal bid (an opening at
    most ``spread`` from its median total), and after ``raises`` of them in a round it
    either challenges or plays on as the strong level itself would. Losses are summed
    over its possible cards, unnormalised."""

    def __init__(self, theirs: str, spread: int, raises: int) -> None:
        self._theirs, self._spread, self._raises = theirs, spread, raises
        self.cards = tuple(card for card in cards.ALL_CARDS if card != theirs)
        self._median = knowledge.reach((theirs,), 2).highest_with(0.5)
        self._replies: dict[tuple[str, tuple[tuple[int, int], ...]], Move] = {}

    def reply(self, mine: str, bids: tuple[tuple[int, int], ...]) -> Move:
        """The strong level's move after ``bids`` when the exploiter holds ``mine``."""
        key = (mine, bids)
        if key not in self._replies:
            self._replies[key] = LEVELS["strong"].decide(_strong_turn(STRONG_SEAT, mine, bids), 0)
        return self._replies[key]

    def played_on(self, bids: tuple[tuple[int, int], ...], mine: str) -> float:
        """The exploiter's loss holding ``mine`` when both seats play the strong level
        from ``bids`` on (the exploiter to move) to the end of the round."""
        while True:
            move = LEVELS["strong"].decide(_strong_turn(EXPLOITER, self._theirs, bids), 0)
            if isinstance(move, events.Challenge):
                return self.holds(mine, bids[-1][1])
            assert isinstance(move, events.Bid)
            bids += ((EXPLOITER, move.amount),)
            reply = self.reply(mine, bids)
            if isinstance(reply, events.Challenge):
                return 1.0 - self.holds(mine, move.amount)
            assert isinstance(reply, events.Bid)
            bids += ((STRONG_SEAT, reply.amount),)

    def opened(self) -> dict[int, list[str]]:
        """The strong level's opening bids, each with the exploiter's cards that lead to it."""
        opened: dict[int, list[str]] = {}
        for card in self.cards:
            move = self.reply(card, ())
            assert isinstance(move, events.Bid)
            opened.setdefault(move.amount, []).append(card)
        return opened

    def holds(self, mine: str, bid: int) -> float:
        """The chance that ``bid`` holds when the exploiter holds ``mine``."""
        return knowledge.reach(tuple(sorted((mine, self._theirs))), 1).at_least(bid)

    def facing(self, bids: tuple[tuple[int, int], ...], mine: Sequence[str]) -> float:
        """The least loss over ``mine`` (the exploiter's cards consistent with ``bids``)
        when it is to move after ``bids``."""
        options = []
        if bids:
            options.append(sum(self.holds(card, bids[-1][1]) for card in mine))
        if sum(bidder == EXPLOITER for bidder, _ in bids) < self._raises or not bids:
            low = bids[-1][1] + 1 if bids else self._median - self._spread
            high = low + self._spread * (1 if bids else 2)
            options += [self.raising(bids + ((EXPLOITER, amount),), mine) for amount in range(low, high + 1)]
        else:
            options.append(sum(self.played_on(bids, card) for card in mine))
        return min(options)

    def raising(self, bids: tuple[tuple[int, int], ...], mine: Sequence[str]) -> float:
        """The loss over ``mine`` once the exploiter's raise ends ``bids``: the strong
        level challenges it (lost when the total falls short) or raises, and the
        exploiter faces that raise with the cards that lead to it."""
        loss = 0.0
        raised: dict[int, list[str]] = {}
        for card in mine:
            move = self.reply(card, bids)
            if isinstance(move, events.Challenge):
                loss += 1.0 - self.holds(card, bids[-1][1])
            else:
                assert isinstance(move, events.Bid)
                raised.setdefault(move.amount, []).append(card)
        return loss + sum(self.facing(bids + ((STRONG_SEAT, amount),), group) for amount, group in raised.items())


@dataclass(frozen=True)
class Exploitability:
    """How often a bounded best response makes the strong level lose a two-seat round."""

    strong_loses: float  #: the strong level's chance of losing a round (0.5 is even)
    spread: int
    raises: int


def best_response(spread: int = 5, raises: int = 2) -> Exploitability:
    """The strong level's chance of losing a two-seat basic round to a best response
    (:class:`Exploiter`), exactly: every card of the strong seat, every card of the
    exploiter's, each seat starting half the rounds. The exploiter knows the strong
    level's policy (as a bench can); its figure is a lower bound of what a full best
    response wins, since its raises are bounded."""
    loss = 0.0
    for theirs in cards.ALL_CARDS:
        exploiter = Exploiter(theirs, spread, raises)
        opening = exploiter.facing((), exploiter.cards)
        answering = sum(exploiter.facing(((STRONG_SEAT, amount),), group) for amount, group in exploiter.opened().items())
        loss += (opening + answering) / 2 / len(exploiter.cards)
    return Exploitability(1.0 - loss / len(cards.ALL_CARDS), spread, raises)
