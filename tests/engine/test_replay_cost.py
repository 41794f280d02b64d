"""What replaying a game costs: each event is applied once, however the game went."""

from __future__ import annotations

from coyote_pi.engine import Bid, Game, GameConfig, Undo


def test_undo_does_not_replay_the_game(make_deal, monkeypatch):
    """Rebuilding a game with 40 undos applies each event once: an undo steps back
    without replaying what came before (which used to double the work per undo)."""
    history = [make_deal({1: "1", 2: "2", 3: "3"}, "4")]
    for amount in range(40):
        seat = amount % 3 + 1
        history += [Bid(seat, amount), Undo(seat), Bid(seat, amount)]
    applied = 0
    real_apply = Game.apply

    def counting_apply(game, event):
        nonlocal applied
        applied += 1
        if applied > len(history):  # stop early instead of waiting 2^40 replays
            raise AssertionError("an event was applied more than once")
        real_apply(game, event)

    monkeypatch.setattr(Game, "apply", counting_apply)
    game = Game.from_events(GameConfig(3), history)
    assert applied == len(history)
    assert game.round.bids == [(s % 3 + 1, s) for s in range(40)] and game.turn == 2
