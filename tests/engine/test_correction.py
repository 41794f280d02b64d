"""Correcting a misread card: the last verdict is worked out again, while its round is the latest."""

from __future__ import annotations

import pytest

from coyote_pi.engine import DEAL, OVER, Bid, Challenge, Correct, Deal, DrawReplacement, Game, GameConfig, Reveal
from coyote_pi.engine.events import from_dict, to_dict


def physical_round(game: Game, seats: dict, centre: str, bid: int, *, draw: str | None = None) -> None:
    """A round as a camera sees it: seat 1 bids ``bid``, seat 2 challenges, the centre is turned up."""
    game.apply(Deal(seats=seats))
    bidder = game.turn
    game.apply(Bid(bidder, bid))
    game.apply(Challenge(game.turn))
    game.apply(Reveal(centre))
    if draw is not None:
        game.apply(DrawReplacement(draw))


def test_a_correction_resolves_the_round_again_as_if_the_card_had_been_read_right():
    misread, right = Game(GameConfig(players=2)), Game(GameConfig(players=2))
    physical_round(misread, {1: "4", 2: "5"}, "10", 12)  # the camera read 10: total 19 reaches 12
    physical_round(right, {1: "4", 2: "5"}, "1", 12)  # it was 1: total 10 is below 12
    assert misread.last_result.winner == 1 and right.last_result.winner == 2

    misread.apply(Correct("centre", "1", (1, 2)))

    assert misread.last_result.to_dict() == right.last_result.to_dict()
    assert {s: (e.open, e.closed) for s, e in misread.eyes.items()} == {s: (e.open, e.closed)
                                                                         for s, e in right.eyes.items()}
    assert (misread.phase, misread.next_start) == (right.phase, right.next_start) == (DEAL, 1)
    # Both verdicts stay in the game's results, the camera's first.
    assert [r.score.total for r in misread.results] == [19, 10]
    assert Game.from_events(misread.config, misread.history).last_result == misread.last_result


def _down_to_seat_2s_last_card(game: Game) -> None:
    """Seat 2 loses round after round: it bids 30 when it starts (the total 19 is below it)
    and is challenged when seat 1 bids 12 (19 reaches it), until it holds one peek card."""
    while game.eyes[2].cards > 1:
        physical_round(game, {1: "4", 2: "5"}, "10", 12 if game.next_start == 1 else 30)


def test_the_final_verdict_may_be_corrected_and_the_game_goes_on():
    game, right = Game(GameConfig(players=2)), Game(GameConfig(players=2))
    for table in (game, right):
        _down_to_seat_2s_last_card(table)
    assert game.next_start == 2  # the last loser opens the final round
    physical_round(game, {1: "4", 2: "5"}, "10", 30)  # read as 4: 19 is below 30, seat 2 is out
    physical_round(right, {1: "20", 2: "5"}, "10", 30)  # it was 20: 35 reaches 30, seat 1 loses
    assert (game.phase, game.winner) == (OVER, 1) and right.phase == DEAL

    game.apply(Correct("seat:1", "20", (1, 2)))

    assert (game.phase, game.winner) == (DEAL, None)
    assert game.last_result.to_dict() == right.last_result.to_dict()
    assert game.active_seats == right.active_seats == (1, 2)
    assert {s: (e.open, e.closed) for s, e in game.eyes.items()} == {s: (e.open, e.closed)
                                                                      for s, e in right.eyes.items()}


def test_a_corrected_card_can_take_question_out_of_play_or_change_its_draw():
    game = Game(GameConfig(players=2))
    physical_round(game, {1: "?", 2: "5"}, "3", 20, draw="7")
    assert (game.last_result.score.replacement, game.last_result.score.total) == ("7", 15)
    game.apply(Correct("draw", "8", (1, 2)))
    assert (game.last_result.score.replacement, game.last_result.score.total) == ("8", 16)
    game.apply(Correct("seat:1", "2", (1, 2)))  # it was a 2, not ?: nothing is drawn for anything
    assert (game.last_result.score.replacement, game.last_result.score.total) == (None, 10)
    assert game.last_result.seat_cards == {1: "2", 2: "5"} and len(game.results) == 3


@pytest.mark.parametrize("correction,code,phrase", [
    (Correct("centre", "1", (1,)), "bad_correction", "confirmed by the two seats of the challenge, 1 and 2"),
    (Correct("centre", "1", (2, 1)), "bad_correction", "confirmed by the two seats"),
    (Correct("centre", "10", (1, 2)), "bad_correction", "is 10 already"),
    (Correct("extra", "1", (1, 2)), "bad_correction", "has no extra card"),
    (Correct("seat:3", "1", (1, 2)), "bad_correction", "has no seat:3 card"),
    (Correct("centre", "5", (1, 2)), "duplicate_card", "appears twice"),
    (Correct("seat:1", "?", (1, 2)), "correction_needs_draw", "no card was drawn for it"),
])
def test_corrections_that_do_not_fit_are_refused(refused, correction, code, phrase):
    game = Game(GameConfig(players=2))
    physical_round(game, {1: "4", 2: "5"}, "10", 12)
    refused(game, correction, code, phrase)


def test_once_the_next_round_is_dealt_the_verdict_stands(refused):
    game = Game(GameConfig(players=2))
    refused(game, Correct("centre", "1", (1, 2)), "nothing_to_correct", "no verdict to correct")
    physical_round(game, {1: "4", 2: "5"}, "10", 12)
    game.apply(Deal(seats={1: "6", 2: "7"}))
    refused(game, Correct("centre", "1", (1, 2)), "nothing_to_correct", "before the next deal")


def test_a_virtual_deal_has_nothing_a_camera_misread(refused):
    game = Game(GameConfig(players=2))
    game.deal_from_deck(seed=3)
    game.apply(Bid(1, 30))
    game.apply(Challenge(2))
    refused(game, Correct("centre", "1" if game.last_result.centre != "1" else "2", (1, 2)), "nothing_to_correct")


def test_a_correction_is_an_event_of_the_record_read_strictly():
    event = Correct("seat:3", "max0", (2, 4))
    data = to_dict(event)
    assert data == {"type": "correct", "item": "seat:3", "card": "max0", "confirmed_by": [2, 4]}
    assert from_dict(data) == event and event.seat == 3 and Correct("centre", "1", (1, 2)).seat is None
    for bad in ({**data, "item": "seat:03"}, {**data, "item": "stand"}, {**data, "confirmed_by": "2,4"},
                {**data, "card": "Max 0"}, {**data, "confirmed_by": ["2", 4]}):
        with pytest.raises(Exception, match=r"place|list of seats|must be written|whole number|seat number"):
            from_dict(bad)


def test_once_a_correction_took_question_out_of_play_a_later_one_cannot_bring_it_back(refused):
    """docs/game-record.md: each correction starts from the latest verdict's cards, and a
    verdict without ? has no card drawn for it, though the record has a draw line."""
    game = Game(GameConfig(players=2))
    physical_round(game, {1: "?", 2: "5"}, "3", 20, draw="7")
    game.apply(Correct("seat:1", "2", (1, 2)))
    refused(game, Correct("seat:1", "?", (1, 2)), "correction_needs_draw", "no card was drawn for it")
    refused(game, Correct("draw", "8", (1, 2)), "bad_correction", "has no draw card")


def test_the_card_drawn_for_question_counts_toward_a_card_twice(refused):
    """docs/game-record.md: the drawn card may not be a card in play, at the draw or by a correction."""
    game = Game(GameConfig(players=2))
    physical_round(game, {1: "?", 2: "5"}, "3", 20)
    refused(game, DrawReplacement("5"), "bad_replacement", "already in play")
    game.apply(DrawReplacement("7"))
    refused(game, Correct("draw", "3", (1, 2)), "bad_replacement", "cannot be the card drawn for ?")
    refused(game, Correct("seat:2", "7", (1, 2)), "bad_replacement", "cannot be the card drawn for ?")


def test_a_verdict_names_the_card_at_each_place_a_correction_can_name():
    game = Game(GameConfig(players=2))
    physical_round(game, {1: "4", 2: "?"}, "10", 12, draw="7")
    result = game.last_result
    assert [result.card_at(place) for place in ("seat:1", "seat:2", "centre", "draw", "extra")] == \
        ["4", "?", "10", "7", None]  # no Coyote card was used: no extra card
    with pytest.raises(ValueError):
        result.card_at("table")  # not a place of a round's cards
