"""The judgement of a decision: certainties, marks, the seam's agreement with the strong
level, and a seat's review untouched by its own card and the centre card."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coyote_pi import cards
from coyote_pi.bench.review import played_record
from coyote_pi.engine import events
from coyote_pi.engine.game import Game, GameConfig
from coyote_pi.players.roster import player
from coyote_pi.players.seating import turn_view
from coyote_pi.players.strong import Strong
from coyote_pi.record import encode_record, read_record
from coyote_pi.review.judge import Certainty, Mark, judge, review_record
from coyote_pi.review.texts import certainty_text
from coyote_pi.words.translator import Translator

#: Seat 1: -10, seat 2: 7 (its own: unseen), seat 3: -5, centre 3; the deck after them.
ORDER = ["-10", "7", "-5", "3", *[card for card in cards.ALL_CARDS if card not in ("-10", "7", "-5", "3")]]


def _facing(bid: int) -> Game:
    """Three seats dealt ORDER; seat 1 opened at ``bid``; seat 2 to move."""
    game = Game(GameConfig(players=3, variant="basic", start_seat=1))
    game.apply(game.virtual_deal(ORDER))
    game.apply(events.Bid(1, bid))
    return game


def test_a_bid_above_every_total_the_seat_could_face_must_be_challenged():
    view = turn_view(_facing(21), 2)  # seat 2 sees -10 and -5: at most -15 + 20 + 15 = 20
    raised = judge(3, view, events.Bid(2, 22), "seed")
    assert raised.certainty == Certainty.CANNOT_HOLD and raised.highest == 20
    assert raised.best == events.Challenge(2) and raised.best_loss == 0.0
    assert raised.mark == Mark.BLUNDER and raised.odds == 0
    assert judge(3, view, events.Challenge(2), "seed").mark is None
    assert certainty_text(Translator("en"), raised.to_dict()) == (
        "certain: the bid of 21 could not hold: every total seat 2 could face is below 21 (at most 20)")


def test_challenging_a_bid_below_the_lowest_possible_total_is_a_blunder():
    view = turn_view(_facing(-100), 2)
    challenged = judge(3, view, events.Challenge(2), "seed")
    assert challenged.certainty == Certainty.SURE_TO_HOLD and challenged.lowest >= -100
    assert challenged.mark == Mark.BLUNDER and challenged.played_loss == 1.0 and challenged.odds == 1
    assert isinstance(challenged.best, events.Bid)
    assert judge(3, view, challenged.best, "seed").mark is None
    assert certainty_text(Translator("en"), challenged.to_dict()) == (
        f"certain: the bid of -100 was sure to hold: every total seat 2 could face is -100 or more "
        f"(at least {challenged.lowest})")


def test_a_bid_the_seat_cannot_judge_for_sure_has_no_certainty():
    judgement = judge(3, turn_view(_facing(3), 2), events.Bid(2, 4), "seed")
    assert judgement.certainty is None and 0 < judgement.odds < 1


@pytest.mark.parametrize("variant", ["basic", "trickster"])
def test_the_review_prefers_what_the_strong_level_plays(tmp_path, variant):
    """The seam values moves as the strong level decides: its own moves are its best."""
    config = GameConfig(players=3, variant=variant, start_seat=2)
    lineup = {1: player("strong"), 2: player("bluffer"), 3: player("half-odds")}
    review = review_record(read_record(played_record(tmp_path / "g.jsonl", config, lineup, 7)), "g.jsonl")
    assert review.finished and review.judgements
    for judgement in review.judgements:
        assert judgement.best == Strong().decide(judgement.view, "g.jsonl")
        if judgement.seat == 1:
            assert judgement.played == judgement.best and judgement.mark is None
    assert any(judgement.mark is not None for judgement in review.judgements if judgement.seat != 1)


def test_every_round_lost_names_the_losers_decision(tmp_path):
    config = GameConfig(players=4, variant="basic", start_seat=1)
    lineup = {seat: player(level) for seat, level in zip(range(1, 5), ("strong", "cautious", "bluffer", "raise-by-one"))}
    record = read_record(played_record(tmp_path / "g.jsonl", config, lineup, 3))
    review = review_record(record, "g.jsonl")
    assert [loss.round for loss in review.losses] == [result.round for result in record.game.results]
    for loss, result in zip(review.losses, record.game.results):
        assert loss.loser == result.loser and loss.decision is not None
        assert loss.decision.seat == result.loser and loss.decision.round == result.round
        expected = events.Challenge if result.loser == result.challenger else events.Bid
        assert isinstance(loss.decision.played, expected)
    summaries = [review.summary(seat) for seat in range(1, 5)]
    assert sum(summary.decisions for summary in summaries) == len(review.judgements)
    assert summaries[0].accuracy == 100.0 and all(0 <= summary.accuracy <= 100 for summary in summaries)


def test_an_undone_bid_is_not_judged(tmp_path):
    game = Game(GameConfig(players=3, variant="basic", start_seat=1))
    played = [game.virtual_deal(ORDER), events.Bid(1, 3), events.Undo(1), events.Bid(1, 4), events.Challenge(2)]
    path = tmp_path / "undo.jsonl"
    path.write_bytes(encode_record(game.config, played))
    review = review_record(read_record(path), path.name)
    assert [judgement.played for judgement in review.judgements] == [events.Bid(1, 4), events.Challenge(2)]


def _dealt_again(deal: events.Deal, seat: int, order: list[int]) -> events.Deal:
    """``deal`` with ``seat``'s own card, the centre and the deck below its top card permuted."""
    assert deal.deck is not None and deal.centre is not None
    hidden = [deal.seats[seat], deal.centre, *deal.deck[1:]]
    moved = [hidden[index] for index in order]
    return events.Deal(seats={**deal.seats, seat: moved[0]}, centre=moved[1], deck=(deal.deck[0], *moved[2:]))


def _through_round(config: GameConfig, history: list[events.Event], number: int) -> list[events.Event]:
    """The events of ``history`` up to the one that resolves round ``number``."""
    game = Game(config)
    for index, event in enumerate(history):
        game.apply(event)
        if len(game.results) >= number:
            return history[:index + 1]
    raise AssertionError(f"round {number} is never resolved")


@settings(max_examples=8, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 4), variant=st.sampled_from(["basic", "trickster"]), seed=st.integers(0, 10**6),
       data=st.data())
def test_a_seats_review_never_depends_on_its_own_card_or_the_centre(tmp_path_factory, seats, variant, seed, data):
    config = GameConfig(players=seats, variant=variant, start_seat=1)
    levels = ("bluffer", "strong", "half-odds", "cautious", "raise-by-one")
    lineup = {seat: player(levels[seat - 1]) for seat in range(1, seats + 1)}
    folder = tmp_path_factory.mktemp("hidden")
    original = read_record(played_record(folder / "game.jsonl", config, lineup, seed))
    seat = data.draw(st.integers(1, seats), label="seat")
    round_number = data.draw(st.integers(1, len(original.game.results)), label="round")
    history = _through_round(config, list(original.game.history), round_number)
    path = folder / "cut.jsonl"
    path.write_bytes(encode_record(config, history))  # the rounds after it are not needed
    review = review_record(read_record(path), "game.jsonl")
    deals = [index for index, event in enumerate(history) if isinstance(event, events.Deal)]
    deal = history[deals[-1]]
    assert isinstance(deal, events.Deal) and deal.deck is not None
    if seat not in deal.seats:
        return  # out of the game by then: no decision of it to compare
    history[deals[-1]] = _dealt_again(deal, seat, data.draw(st.permutations(range(1 + len(deal.deck))), label="order"))
    path = folder / "again.jsonl"
    path.write_bytes(encode_record(config, history))
    again = review_record(read_record(path), "game.jsonl")
    mine = [j.to_dict() for j in review.judgements if j.seat == seat and j.round == round_number]
    assert mine == [j.to_dict() for j in again.judgements if j.seat == seat and j.round == round_number]


def test_the_hidden_card_check_catches_a_judgement_that_reads_the_deal(tmp_path):
    """The property above can fail: the view of another seat shows this seat's card."""
    game = _facing(3)
    changed = Game(game.config)
    changed.apply(changed.virtual_deal(["-10", "3", "-5", "7", *ORDER[4:]]))  # seat 2's card and the centre swapped
    changed.apply(events.Bid(1, 3))
    assert turn_view(game, 2).seat == turn_view(changed, 2).seat  # seat 2's own view: the same
    seat3_before = judge(3, turn_view(game, 2), events.Bid(2, 4), "s")
    assert seat3_before.to_dict() == judge(3, turn_view(changed, 2), events.Bid(2, 4), "s").to_dict()
    game.apply(events.Bid(2, 4))
    changed.apply(events.Bid(2, 4))
    assert turn_view(game, 3).seat != turn_view(changed, 3).seat  # seat 3 sees seat 2's card
    assert judge(4, turn_view(game, 3), events.Challenge(3), "s").to_dict() != \
        judge(4, turn_view(changed, 3), events.Challenge(3), "s").to_dict()


def test_the_strong_levels_games_earn_fewer_marks_than_the_baselines(tmp_path):
    from coyote_pi.bench.review import measure

    measured = measure(Path(tmp_path), games=1, players=5)
    strong = measured.per_hundred("strong")
    assert measured.decisions["strong"] > 0
    assert strong < measured.per_hundred("raise-by-one") and strong < measured.per_hundred("half-odds")
