"""The review's speed and what it says of each level (``coyote-pi bench review``).

Whole games between virtual players are written as records (in memory, then one file
each) and reviewed as ``coyote-pi review`` reviews them. Target (issue 35, docs/review.md):
a whole game's review, up to 60 decisions, in at most 2 s on this
machine. Marks per 100 decisions by level show whether the
review tells the levels apart: the strong level's own games should earn fewest.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from coyote_pi.engine.game import BASIC, TRICKSTER, GameConfig
from coyote_pi.players.roster import VirtualPlayer, player
from coyote_pi.players.seating import play
from coyote_pi.record import encode_record, read_record
from coyote_pi.review.judge import GameReview, review_record

TARGET_SECONDS = 2.0
TARGET_DECISIONS = 60
#: The lineup whose games are timed and counted: every level of the table and both baselines.
LINEUP = ("strong", "cautious", "bluffer", "raise-by-one", "half-odds")


def played_record(path: Path, config: GameConfig, lineup: Mapping[int, VirtualPlayer], seed: int | str) -> Path:
    """Play a whole game between ``lineup`` (seat -> player) and write its record at ``path``."""
    game = play(config, lineup, seed)
    path.write_bytes(encode_record(config, game.history, meta={"source": "sim"}))
    return path


@dataclass
class Measured:
    """Reviews timed, and every level's decisions and marks."""

    seconds: list[tuple[int, float]] = field(default_factory=list)  #: (decisions, seconds) per game
    decisions: Counter[str] = field(default_factory=Counter)
    marks: Counter[str] = field(default_factory=Counter)

    def worst_at_target(self) -> float:
        """The longest review of a game of at most :data:`TARGET_DECISIONS` decisions (0: none)."""
        return max((seconds for decisions, seconds in self.seconds if decisions <= TARGET_DECISIONS), default=0.0)

    def per_hundred(self, level: str) -> float:
        return 100.0 * self.marks[level] / self.decisions[level] if self.decisions[level] else 0.0


def measure(folder: Path, games: int, players: int = 5) -> Measured:
    """Review ``games`` games of the :data:`LINEUP` (turned one seat on each game) in both
    variants, timing each review from reading the record to the last judgement."""
    measured = Measured()
    for number in range(games):
        for variant in (BASIC, TRICKSTER):
            levels = [LINEUP[(number + seat) % len(LINEUP)] for seat in range(players)]
            config = GameConfig(players=players, variant=variant, start_seat=1)
            path = played_record(folder / f"review-{variant}-{number:03d}.jsonl", config,
                                 {seat: player(level) for seat, level in enumerate(levels, start=1)}, number)
            start = time.perf_counter()
            review = review_record(read_record(path), path.name)
            measured.seconds.append((len(review.judgements), time.perf_counter() - start))
            _count(measured, review, levels)
    return measured


def _count(measured: Measured, review: GameReview, levels: list[str]) -> None:
    for judgement in review.judgements:
        level = levels[judgement.seat - 1]
        measured.decisions[level] += 1
        measured.marks[level] += judgement.mark is not None
