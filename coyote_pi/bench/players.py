"""Virtual players: round-robin tournaments, decision times and the strong level's memory.

Every lineup plays ``games`` games in every seating in turn (game ``g`` takes the
``g``-th of the lineup's distinct orders around the table, :func:`seatings`), on virtual
decks shuffled from the lineup's name and the game's number. Turning the lineup round
would not do: at three seats it keeps who sits after whom, and in Coyote the seat after
a bidder is the one that challenges it. A level's win rate is its wins
over its games (a level seated twice counts each copy's games), with a 95 % Wilson
interval. Targets (issue 27, docs/players.md): the strong level wins at least 1.5 times
its fair share against the two baselines (3 seats: at least 50 %), beats both other
levels head to head (two seats), decides in at most 50 ms at the median and 200 ms at
worst on one core (CPU time of the deciding thread), and its tables stay within 150 MB.
"""

from __future__ import annotations

import itertools
import math
import time
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from coyote_pi.engine.game import GameConfig, Variant
from coyote_pi.players import BASELINES, knowledge
from coyote_pi.players.roster import LEVELS, VirtualPlayer
from coyote_pi.players.seating import play
from coyote_pi.players.turn import Move, TurnView

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
        return Timed(LEVELS[level], self.by_level.setdefault(level, []))


def seatings(lineup: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct order of ``lineup`` around the table (a level seated twice is one
    level: its copies trading places is the same seating).

    >>> seatings(["a", "b", "c"])
    [('a', 'b', 'c'), ('a', 'c', 'b'), ('b', 'a', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b'), ('c', 'b', 'a')]
    >>> seatings(["a", "x", "x"])
    [('a', 'x', 'x'), ('x', 'a', 'x'), ('x', 'x', 'a')]
    """
    return list(dict.fromkeys(itertools.permutations(lineup)))


def tournament(lineup: Sequence[str], variant: str, games: int, times: Times | None = None) -> Result:
    """``games`` games of ``lineup`` (level names, one per seat), each seating in turn."""
    seats = len(lineup)
    orders = seatings(lineup)
    wins: Counter[str] = Counter()
    for number in range(games):
        seated = orders[number % len(orders)]
        lineup_of = {seat: (times.player(name) if times else LEVELS[name]) for seat, name in enumerate(seated, 1)}
        game = play(GameConfig(players=seats, variant=Variant(variant)), lineup_of, f"{'/'.join(lineup)}/{variant}/{number}")
        wins[seated[game.active_seats[0] - 1]] += 1
    copies = Counter(lineup)
    standings = tuple(Standing(level, wins[level], games * copies[level]) for level in dict.fromkeys(lineup))
    return Result(tuple(lineup), variant, games, standings)


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
