"""A corpus of valid game records that together hold every event type of the record format
(docs/game-record.md): whole games between scripted players on a virtual and on a
physical table, both variants, and hand-played rounds with what scripted players never
do (a take-back, a card the camera could not read, ``?`` drawn for, a corrected verdict,
a round left open at the end)."""

from __future__ import annotations

from pathlib import Path

from coyote_pi.engine import events
from coyote_pi.engine.game import GameConfig
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.record import RecordedGame


def _clock() -> str:
    return "2026-11-21T12:00:00.000Z"


def _scripted(path: Path, config: GameConfig, seed: int, physical: bool) -> None:
    table = RecordedGame.start(path, config, clock=_clock)
    players = {seat: ScriptedPlayer() for seat in table.game.eyes}
    while (event := next_scripted_event(table.game, players, seed, physical=physical)) is not None:
        table.apply(event)
    table.writer.close()


def _by_hand(path: Path) -> None:
    """Two seats on a camera table: an unread seat card, a take-back, ``?`` in the centre
    and a card drawn for it, a correction of that draw, then a round left open."""
    table = RecordedGame.start(path, GameConfig(players=2, variant="basic", start_seat=1), clock=_clock)
    turn = lambda: table.game.turn or 0  # noqa: E731 (whose turn it is as each line is made)
    steps = [lambda: events.Deal({1: "4", 2: None}), lambda: events.Bid(turn(), 6), lambda: events.Undo(1),
             lambda: events.Bid(turn(), 8), lambda: events.Bid(turn(), 12), lambda: events.Challenge(turn()),
             lambda: events.Reveal("?", seats={2: "5"}), lambda: events.DrawReplacement("10"),
             lambda: events.Correct("draw", "1", (1, 2)), lambda: events.Deal({1: "3", 2: "15"}),
             lambda: events.Bid(turn(), 5)]
    for step in steps:
        table.apply(step())
    table.writer.close()


def write_corpus(folder: Path) -> list[str]:
    """The corpus's records in ``folder`` (``game-0101.jsonl``, ...): their game names."""
    folder.mkdir(parents=True, exist_ok=True)
    games = [(GameConfig(players=2, variant="basic", start_seat=1), 3, False),
             (GameConfig(players=3, variant="trickster", start_seat=2), 5, True),
             (GameConfig(players=6, variant="trickster", start_seat=6), 8, False)]
    names = []
    for number, (config, seed, physical) in enumerate(games, start=101):
        names.append(f"game-{number:04d}")
        _scripted(folder / f"{names[-1]}.jsonl", config, seed, physical)
    names.append("game-0199")
    _by_hand(folder / "game-0199.jsonl")
    return names
