"""A transcript's words for events (words/transcript.describe_event): every event type of
the record format is described, a correction too (its absence made a corrected game's
history page an HTTP 500)."""

from __future__ import annotations

import typing

import pytest

from coyote_pi.engine import events
from coyote_pi.engine.game import Game, GameConfig
from coyote_pi.words.transcript import describe_event

#: One event of each type, as a record could hold it.
ONE_OF_EACH: list[events.Event] = [
    events.Deal(seats={1: "5", 2: None}, centre=None, deck=None),
    events.Bid(2, 13),
    events.Challenge(1),
    events.Peek(3),
    events.UseCoyoteCard(2),
    events.Guess(3, 1),
    events.Reveal("max0", extra="7", seats={2: "?"}),
    events.DrawReplacement("-10"),
    events.Undo(2),
    events.Correct("seat:2", "max0", (1, 2)),
]


def test_the_examples_cover_every_event_type_of_the_record():
    assert {type(event) for event in ONE_OF_EACH} == set(typing.get_args(events.Event))
    assert {events.type_name(event) for event in ONE_OF_EACH} == set(events.EventType)


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=lambda event: events.type_name(event))
def test_every_event_type_is_described_in_one_line(event):
    text = describe_event(events.from_dict(events.to_dict(event)))  # as read back from a record
    assert text and "\n" not in text and "None" not in text


def test_the_words_say_what_happened():
    said = [describe_event(event) for event in ONE_OF_EACH]
    assert said[0] == "deal: seats 1=5 2=?unknown | centre face down, unknown | deck unknown"
    assert said[1] == "seat 2 bids 13"
    assert said[6] == "reveal: centre Max 0, extra 7, seats 2=?"
    assert said[9] == "correction: seat 2's card is Max 0 (confirmed by seats 1 and 2)"
    assert describe_event(events.Correct("draw", "8", (1, 3))) == (
        "correction: the card drawn for ? is 8 (confirmed by seats 1 and 3)")


def test_something_that_is_not_an_event_is_refused_by_the_game():
    with pytest.raises(Exception, match="is not a Coyote event"):
        Game(GameConfig(players=2)).apply("bid 13")  # what a caller without type checks might pass
