"""Helpers shared by the engine tests: exact deals, whole-state snapshots, refusals.

They are factory fixtures (session-scoped: they hold no state), so a test asks for the
helper it needs by name, and the hypothesis tests may use them too.

- ``make_deal({1: "5", 2: "?"}, "3", "7")`` builds a :class:`Deal` of exactly those
  cards: seat cards, centre card, then the deck with ``"7"`` on top and the other
  unused cards below it in a fixed order.
- ``snapshot(game)`` captures everything a game holds, hidden turn state included, so
  ``snapshot(game) == before`` proves that an event changed nothing.
- ``refused(game, event, code, *phrases)`` asserts that the engine refuses ``event``
  with :class:`IllegalAction` of that ``code``, a message containing ``phrases``, and
  an unchanged game.
- ``play_round(game, loser)`` deals a round and plays it so that ``loser`` loses.
- ``coyote_card_round()`` is a Trickster game at the point where a seat may use the
  Coyote card.
"""

from __future__ import annotations

import copy
import json

import pytest

from coyote_pi import cards
from coyote_pi.engine import (
    GUESSING,
    TRICKSTER,
    Bid,
    Challenge,
    Deal,
    Game,
    GameConfig,
    Guess,
    IllegalAction,
    arbiter_state,
)


def _make_deal(seats: dict[int, str], centre: str, *deck_top: str) -> Deal:
    used = [*seats.values(), centre, *deck_top]
    rest = [card for card in cards.ALL_CARDS if card not in used]
    return Deal(seats=dict(seats), centre=centre, deck=(*deck_top, *rest))


def _snapshot(game) -> dict:
    # Every attribute (round state, eyes, turn counters, history, results) deep-copied,
    # plus the arbiter's JSON: equal snapshots mean nothing observable changed.
    state = copy.deepcopy({name: value for name, value in vars(game).items() if name != "config"})
    state["arbiter_json"] = json.dumps(arbiter_state(game), sort_keys=True)
    state["legal"] = game.legal()
    return state


def _refused(game, event, code: str, *phrases: str) -> IllegalAction:
    before = _snapshot(game)
    with pytest.raises(IllegalAction) as caught:
        game.apply(event)
    error = caught.value
    assert error.code == code, f"refused with {error.code!r} ({error}), expected {code!r}"
    for phrase in phrases:
        assert phrase in str(error), f"{phrase!r} not in the message {str(error)!r}"
    assert _snapshot(game) == before, f"the refused {event!r} changed the game"
    return error


#: Number cards for the seats of :func:`_play_round`; neither ``?`` nor ``Max 0`` is in play.
_ROUND_CARDS = ("1", "2", "3", "4", "5", "6")


def _play_round(game, loser: int):
    """Deal a round and play it so that ``loser`` loses it.

    If ``loser`` starts, it bids far above any possible total and the next seat
    challenges. Otherwise the seats raise one by one from a bid far below any total
    until it is ``loser``'s turn, and ``loser`` challenges it. Trickster guessers guess
    the bidder.
    """
    seats = game.active_seats
    game.apply(_make_deal(dict(zip(seats, _ROUND_CARDS)), "0"))
    start = game.turn
    if loser == start:
        game.apply(Bid(start, 1000))
        game.apply(Challenge(game.turn))
    else:
        amount = -1000
        game.apply(Bid(start, amount))
        while game.turn != loser:
            amount += 1
            game.apply(Bid(game.turn, amount))
        game.apply(Challenge(loser))
    while game.phase == GUESSING:
        legal = game.legal()
        game.apply(Guess(legal.seats[0], legal.guess_options[0]))
    result = game.last_result
    assert result.loser == loser
    return result


def _coyote_card_round(deal: Deal | None = None) -> Game:
    """A 3-player Trickster game in round 2, dealt ``deal`` (by default seats 1, 2, 3 hold
    5, 7, 9, the centre card is 3 and the deck starts 20, 10). Seat 2 lost round 1, so it
    holds the Coyote card and starts; seats 2, 3 and 1 have bid 1, 2 and 3, and it is
    seat 2's second turn: it may use the card."""
    game = Game(GameConfig(3, TRICKSTER))
    _play_round(game, 2)
    game.apply(deal or _make_deal({1: "5", 2: "7", 3: "9"}, "3", "20", "10"))
    for seat, amount in ((2, 1), (3, 2), (1, 3)):
        game.apply(Bid(seat, amount))
    assert game.coyote_holder == 2 and game.legal().coyote_card
    return game


@pytest.fixture(scope="session")
def make_deal():
    return _make_deal


@pytest.fixture(scope="session")
def snapshot():
    return _snapshot


@pytest.fixture(scope="session")
def refused():
    return _refused


@pytest.fixture(scope="session")
def play_round():
    return _play_round


@pytest.fixture(scope="session")
def coyote_card_round():
    return _coyote_card_round
