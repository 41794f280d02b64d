"""Engine speed: simulated games per second, microseconds per resolution and per odds
query, and the replay of a long evening's record.

Everything runs in this one process on one core (the engine is pure Python and
single-threaded). Targets on one core of the development machine: at least 1,000 full
4-player games per second, an odds query in at most 2 ms, and a 2,000-line record with
100 undos replayed (``coyote-pi replay``, ``run`` resuming) in under 0.5 s, its time per
line at most 1.5 times that of a record of the same length without undos: an undo must
cost no more than any other line.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from coyote_pi import cards
from coyote_pi.engine.game import GameConfig, Variant
from coyote_pi.engine.odds import total_distribution
from coyote_pi.engine.players import long_bidding_game, simulate
from coyote_pi.engine.rules import score
from coyote_pi.record import encode_record, read_record

TARGET_GAMES_PER_S = 1000
TARGET_ODDS_MS = 2.0
REPLAY_LINES, REPLAY_UNDOS = 2000, 100
TARGET_REPLAY_S = 0.5
TARGET_UNDO_RATIO = 1.5


def _rate(work: Callable[[int], object], count: int) -> float:
    """Seconds per unit of ``work(i)`` over ``count`` runs, best of three passes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i in range(count):
            work(i)
        best = min(best, (time.perf_counter() - start) / count)
    return best


def games_per_second(variant: str, games: int) -> float:
    """Full simulated 4-player games of ``variant`` per second."""
    config = GameConfig(players=4, variant=Variant(variant))
    return 1 / _rate(lambda i: simulate(config, f"bench:{i}"), games)


@dataclass(frozen=True)
class RulesTimes:
    """Seconds per call of the rules the table runs at each challenge and odds query."""

    score: float  # a challenge resolved, 5 cards
    odds: float  # an odds query with 4 players: 3 cards seen, 2 unknown
    worst_odds: float  # 2 players, the Coyote card's draw unseen: 1 seen, 3 unknown


def rules_times() -> RulesTimes:
    rng = random.Random("bench-hands")
    hands = []
    for _ in range(1000):
        deck = rng.sample(cards.STANDARD.names, cards.STANDARD.size)
        hands.append((deck[:5], rng.randint(0, 30), deck[5]))
    per_score = _rate(lambda i: score(hands[i][0], hands[i][1], hands[i][2] if not cards.STANDARD.drawn_for.isdisjoint(hands[i][0]) else None), 1000)
    views = [(rng.sample(cards.ALL_CARDS, 3), 2) for _ in range(200)]
    per_odds = _rate(lambda i: total_distribution(*views[i]), len(views))
    worst = [(rng.sample(cards.ALL_CARDS, 1), 3) for _ in range(50)]
    per_worst = _rate(lambda i: total_distribution(*worst[i]), len(worst))
    return RulesTimes(per_score, per_odds, per_worst)


def replay_seconds() -> dict[int, float]:
    """Seconds to replay a record of :data:`REPLAY_LINES` lines, keyed by its number of
    undos (0 and :data:`REPLAY_UNDOS`). The two take turns (so a busy machine slows both
    alike), best of five each."""
    best: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for undos in (0, REPLAY_UNDOS):
            config, events = long_bidding_game(REPLAY_LINES, undos)
            paths[undos] = Path(folder) / f"evening-{undos}-undos.jsonl"
            paths[undos].write_bytes(encode_record(config, events, clock=lambda: "2026-11-21T19:00:00.000Z"))
        for _ in range(5):
            for undos, path in paths.items():
                start = time.perf_counter()
                read_record(path)
                best[undos] = min(best.get(undos, float("inf")), time.perf_counter() - start)
    return best
