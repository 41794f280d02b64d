"""The turn's selector: one pending choice, minus/plus to move it, specials below the lowest bid."""

import pytest

from coyote_pi.engine import Bid, Challenge, Guess, Legal, Peek, UseCoyoteCard
from coyote_pi.table.selector import BID_LIMIT, SPECIALS, Choice, Selector, choice_for, event_for


def _legal(min_bid=None, challenge=False, peek=False, coyote_card=False) -> Legal:
    return Legal("bidding", (1,), bid=True, min_bid=min_bid, challenge=challenge, peek=peek, coyote_card=coyote_card)


def test_plus_and_minus_move_the_bid_by_one_and_held_buttons_by_five():
    selector = Selector(_legal(min_bid=10), start=12)
    assert selector.press("plus") and selector.choice == Choice("bid", 13)
    assert selector.press("plus", repeat=True) and selector.choice == Choice("bid", 18)
    selector.press("minus", repeat=True)
    assert selector.choice == Choice("bid", 13)


def test_minus_below_the_lowest_bid_walks_into_the_legal_specials_in_order():
    selector = Selector(_legal(min_bid=10, challenge=True, peek=True, coyote_card=True), start=11)
    seen = []
    for _ in range(5):
        selector.press("minus")
        seen.append(selector.choice)
    assert seen == [Choice("bid", 10), Choice("challenge"), Choice("peek"), Choice("coyote_card"), Choice("coyote_card")]
    for _ in range(3):
        selector.press("plus")
    assert selector.choice == Choice("bid", 10)


def test_only_legal_specials_are_offered():
    selector = Selector(_legal(min_bid=5, challenge=False, peek=False, coyote_card=True), start=5)
    selector.press("minus")
    assert selector.choice == Choice("coyote_card")
    assert not Selector(_legal(min_bid=5), start=5).press("minus")  # nothing below: no change


def test_a_held_minus_stops_at_the_lowest_bid_and_never_lands_on_a_special():
    selector = Selector(_legal(min_bid=10, challenge=True), start=22)
    for _ in range(5):
        selector.press("minus", repeat=True)
    assert selector.choice == Choice("bid", 10)
    selector.press("minus")  # a deliberate press is needed
    assert selector.choice == Choice("challenge")
    selector.press("plus", repeat=True)  # a held plus leaves the specials at once
    assert selector.choice == Choice("bid", 10)


def test_the_first_bid_may_be_any_whole_number_within_the_display_range():
    selector = Selector(_legal(), start=2)
    for _ in range(4):
        selector.press("minus")
    assert selector.choice == Choice("bid", -2)
    high = Selector(_legal(), start=BID_LIMIT)
    assert not high.press("plus") and high.choice.amount == BID_LIMIT
    low = Selector(_legal(), start=-BID_LIMIT)
    assert not low.press("minus", repeat=True)


def test_the_start_is_raised_to_the_lowest_legal_bid():
    assert Selector(_legal(min_bid=30), start=20).choice == Choice("bid", 30)


def test_every_choice_confirms_its_engine_event_and_back():
    choices = [Choice("bid", 17), Choice("bid", -4)] + [Choice(kind) for kind in SPECIALS]
    events = [event_for(3, choice) for choice in choices]
    assert events == [Bid(3, 17), Bid(3, -4), Challenge(3), Peek(3), UseCoyoteCard(3)]
    assert [choice_for(event) for event in events] == choices


def test_an_event_no_choice_confirms_has_no_choice():
    with pytest.raises(KeyError):
        choice_for(Guess(2, 1))
