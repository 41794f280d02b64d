"""What replaying a game costs: each event is applied once, however the game went.

An undo used to rebuild the game from its history, replaying every earlier undo the same
way, so each undo doubled the time of a replay (and of ``run`` resuming after a power
cut): 22 undos took half a minute. These tests count applications, not seconds;
``coyote-pi bench engine`` prints the times.
"""

from __future__ import annotations

import pytest

from coyote_pi.engine import Bid, Game, GameConfig, Undo
from coyote_pi.engine.players import long_bidding_game
from coyote_pi.record import encode_record, read_record


@pytest.fixture
def applications(monkeypatch):
    """Counts ``Game.apply`` calls; past ``limit`` it fails at once rather than wait for 2^40."""
    counter = {"count": 0, "limit": None}
    real_apply = Game.apply

    def counting_apply(game, event):
        counter["count"] += 1
        if counter["limit"] is not None and counter["count"] > counter["limit"]:
            raise AssertionError("an event was applied more than once")
        real_apply(game, event)

    monkeypatch.setattr(Game, "apply", counting_apply)
    return counter


def test_undo_does_not_replay_the_game(make_deal, applications):
    """Rebuilding a game with 40 undos applies each event once."""
    history = [make_deal({1: "1", 2: "2", 3: "3"}, "4")]
    for amount in range(40):
        seat = amount % 3 + 1
        history += [Bid(seat, amount), Undo(seat), Bid(seat, amount)]
    applications["limit"] = len(history)
    game = Game.from_events(GameConfig(3), history)
    assert applications["count"] == len(history)
    assert game.round.bids == [(s % 3 + 1, s) for s in range(40)] and game.turn == 2


def test_a_record_with_40_undos_replays_in_one_pass(tmp_path, applications):
    config, events = long_bidding_game(300, 40)
    path = tmp_path / "evening.jsonl"
    path.write_bytes(encode_record(config, events, clock=lambda: "2026-11-21T19:00:00.000Z"))
    applications["count"], applications["limit"] = 0, len(events)  # encode_record played them once already
    record = read_record(path)
    assert (applications["count"], len(record.lines), len(record.undone)) == (len(events), 300, 40)


def test_the_long_evening_has_the_lines_and_undos_asked_for():
    for lines, undos in ((2000, 100), (2000, 0), (60, 7)):
        config, events = long_bidding_game(lines, undos)
        record = encode_record(config, events, clock=lambda: "2026-11-21T19:00:00.000Z")
        assert record.count(b"\n") == lines and sum(isinstance(e, Undo) for e in events) == undos
    with pytest.raises(ValueError, match="cannot hold"):
        long_bidding_game(30, 5)
