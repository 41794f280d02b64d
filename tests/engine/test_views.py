"""What each seat may know (``seat_view``), how many cards in play it cannot see
(``unknown_count``), and what a public screen may show (``public_view``)."""

from __future__ import annotations

import json

from coyote_pi.engine import (
    BIDDING,
    DEAL,
    GUESSING,
    TRICKSTER,
    Bid,
    Challenge,
    Deal,
    Game,
    GameConfig,
    Guess,
    Peek,
    UseCoyoteCard,
    arbiter_state,
    public_view,
    seat_view,
)

STANDS = {1: "5", 2: "7", 3: "9", 4: "-10"}


def four_seat_game(make_deal) -> Game:
    game = Game(GameConfig(4))
    game.apply(make_deal(STANDS, "15"))
    return game


def test_each_seat_sees_every_other_stand_but_never_its_own(make_deal):
    game = four_seat_game(make_deal)
    for seat in STANDS:
        view = seat_view(game, seat)
        assert view.others == {s: card for s, card in STANDS.items() if s != seat}
        assert STANDS[seat] not in view.known_cards()
        assert (view.centre, view.peeked, view.coyote_card_draw) == (None, False, None)


def test_centre_is_known_only_to_the_seats_that_peeked(make_deal):
    game = four_seat_game(make_deal)
    game.apply(Bid(1, 3))
    game.apply(Peek(2))
    game.apply(Bid(2, 4))
    assert {seat: seat_view(game, seat).centre for seat in STANDS} == {1: None, 2: "15", 3: None, 4: None}
    assert seat_view(game, 2).known_cards() == ["5", "9", "-10", "15"]


def test_seat_view_serialises_without_the_seats_own_card(make_deal):
    game = four_seat_game(make_deal)
    shown = json.loads(json.dumps(seat_view(game, 3).to_dict()))
    assert shown["others"] == {"1": "5", "2": "7", "4": "-10"}
    assert (shown["seat"], shown["turn"], shown["centre"], shown["phase"]) == (3, 1, None, BIDDING)
    assert shown["eyes"] == {str(s): [2, 1] for s in STANDS}


def test_views_between_rounds_hold_no_card(make_deal):
    game = four_seat_game(make_deal)
    game.apply(Bid(1, 100))
    game.apply(Challenge(2))
    assert game.phase == DEAL
    for seat in STANDS:
        view = seat_view(game, seat)
        assert (view.others, view.known_cards(), view.phase, view.bid) == ({}, [], DEAL, None)


# ---------------------------------------------------------------------------- unknown_count


def test_unknown_count_is_own_card_and_centre_until_a_peek(make_deal):
    game = four_seat_game(make_deal)
    assert {seat: seat_view(game, seat).unknown_count() for seat in STANDS} == {1: 2, 2: 2, 3: 2, 4: 2}
    game.apply(Bid(1, 3))
    game.apply(Peek(2))
    assert seat_view(game, 2).unknown_count() == 1
    assert seat_view(game, 3).unknown_count() == 2


def test_unknown_count_with_a_coyote_card_draw(coyote_card_round):
    game = coyote_card_round()
    game.apply(UseCoyoteCard(2))
    counts = {seat: seat_view(game, seat).unknown_count() for seat in (1, 2, 3)}
    assert counts == {1: 3, 2: 2, 3: 3}  # the drawer knows its draw; the others do not
    assert [seat_view(game, seat).extra_in_play for seat in (1, 2, 3)] == [True, True, True]


def test_unknown_count_at_a_physical_table(make_deal):
    game = Game(GameConfig(3))
    game.apply(Deal(seats={1: None, 2: "7", 3: "9"}))  # seat 1's card was not read
    views = {seat: seat_view(game, seat) for seat in (1, 2, 3)}
    assert {s: v.others for s, v in views.items()} == {1: {2: "7", 3: "9"}, 2: {3: "9"}, 3: {2: "7"}}
    assert {s: v.unknown_count() for s, v in views.items()} == {1: 2, 2: 3, 3: 3}
    game.apply(Bid(1, 3))
    game.apply(Peek(2))  # the player saw the centre card; the device did not
    view = seat_view(game, 2)
    assert (view.peeked, view.centre, view.unknown_count()) == (True, None, 3)


def test_unknown_count_of_an_eliminated_seat_is_only_the_face_down_cards(make_deal, play_round):
    game = Game(GameConfig(3))
    for _ in range(3):
        play_round(game, 1)
    game.apply(make_deal({2: "7", 3: "9"}, "3"))
    view = seat_view(game, 1)
    assert view.others == {2: "7", 3: "9"}
    assert view.unknown_count() == 1  # only the centre card


# ---------------------------------------------------------------------------- public_view


def test_public_view_follows_the_bidding_without_cards(make_deal):
    game = Game(GameConfig(4, TRICKSTER))
    game.apply(make_deal(STANDS, "15"))
    game.apply(Bid(1, -3))
    game.apply(Peek(2))
    game.apply(Bid(2, 4))
    shown = public_view(game)
    assert (shown["phase"], shown["turn"], shown["bid"], shown["bidder"]) == (BIDDING, 3, 4, 2)
    assert (shown["bids"], shown["peeked"], shown["challenger"]) == ([[1, -3], [2, 4]], [2], None)
    assert shown["eyes"] == {"1": [1, 2], "2": [0, 3], "3": [1, 2], "4": [1, 2]}
    assert (shown["last_result"], shown["winner"], shown["extra_in_play"]) == (None, None, False)
    game.apply(Challenge(3))
    shown = public_view(game)
    assert (shown["phase"], shown["turn"], shown["challenger"]) == (GUESSING, None, 3)
    json.dumps(shown)  # a screen or a log can take it as it is


def test_public_view_shows_a_round_once_it_is_resolved(make_deal):
    game = Game(GameConfig(3, TRICKSTER))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "15"))
    game.apply(Bid(1, 40))
    game.apply(Challenge(2))
    game.apply(Guess(3, 2))
    shown = public_view(game)
    assert (shown["phase"], shown["bids"], shown["coyote_holder"], shown["next_start"]) == (DEAL, [], 1, 1)
    result = shown["last_result"]
    assert (result["seats"], result["centre"], result["total"], result["winner"]) == (
        {"1": "5", "2": "7", "3": "9"}, "15", 36, 2)
    assert result["adjustments"] == [] and "explanation" not in result  # the facts: the screens word them


def test_arbiter_state_keeps_the_cards_the_public_view_hides(make_deal):
    game = four_seat_game(make_deal)
    current = arbiter_state(game)["current_round"]
    assert (current["seats"], current["centre"]) == ({str(s): c for s, c in STANDS.items()}, "15")
    assert "current_round" not in public_view(game)
