"""One or more tests per ruling of shared/rules/RULINGS.md, in the order of that file.

Each test builds the exact situation it needs with explicit deals (``make_deal``: seat
cards, centre card, then the top of the deck) and checks the ruling through the engine's
public API. docs/rules.md names the test that covers each ruling; keep the two in step.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coyote_pi import cards
from coyote_pi.engine import (
    BASIC,
    DEAL,
    DRAW,
    GUESSING,
    OVER,
    REVEAL,
    TRICKSTER,
    Bid,
    Challenge,
    Deal,
    DrawReplacement,
    Game,
    GameConfig,
    Guess,
    IllegalAction,
    Peek,
    Reveal,
    Undo,
    UseCoyoteCard,
    public_view,
    score,
    seat_view,
)
from coyote_pi.engine.events import from_dict, to_dict
from coyote_pi.engine.players import simulate
from coyote_pi.words.translator import Translator
from coyote_pi.words.verdict import explanation_lines

#: The verdict's words, from the catalogs (the engine has none of its own).
ENGLISH = Translator("en")


def zeroed(score):
    """The number card Max 0 made count 0 (None: Max 0 changed none)."""
    return next((adjustment.card for adjustment in score.adjustments if adjustment.by == "max0"), None)


def eyes_of(game: Game) -> dict[int, tuple[int, int]]:
    """Every seat's (open, closed) eyes, as a public screen shows them."""
    return {int(seat): tuple(eyes) for seat, eyes in public_view(game)["eyes"].items()}


def challenge_of_two(deal: Deal, bid: int):
    """Seat 1 bids ``bid`` and seat 2 challenges it, in a basic 2-player game dealt ``deal``."""
    game = Game(GameConfig(2))
    game.apply(deal)
    game.apply(Bid(1, bid))
    game.apply(Challenge(2))
    return game.last_result


# ---------------------------------------------------------------------------- components


def test_seventeen_distinct_playing_cards_with_two_specials():
    assert len(cards.ALL_CARDS) == len(set(cards.ALL_CARDS)) == 17
    numbers = sorted(cards.value(card) for card in cards.ALL_CARDS if cards.is_number(card))
    assert numbers == [-10, -5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20]
    assert {card for card in cards.ALL_CARDS if not cards.is_number(card)} == {"?", "max0"}


def test_special_cards_are_named_as_at_the_table_and_have_no_printed_value():
    assert {cards.parse_card(text) for text in ("Max 0", "MAX0", "max 0", "max0")} == {"max0"}
    assert cards.display_name("max0") == "Max 0"
    for special in ("?", "max0"):
        with pytest.raises(cards.CardError, match="no printed value"):
            cards.value(special)
    with pytest.raises(cards.CardError, match="not a Coyote card"):
        cards.parse_card("11")


def test_a_deal_uses_the_seventeen_cards_each_once(make_deal, refused):
    game = Game(GameConfig(2))
    full = make_deal({1: "5", 2: "7"}, "3")
    refused(game, Deal(seats=full.seats, centre="3", deck=full.deck[:-1]), "bad_deal", "17 playing cards")
    refused(game, Deal(seats={1: "5", 2: "5"}, centre="3"), "duplicate_card", "appears twice")
    refused(game, Deal(seats={1: "5", 2: "7"}, centre="5"), "duplicate_card", "appears twice")
    game.apply(full)
    assert game.turn == 1


# ---------------------------------------------------------------------------- setup


@pytest.mark.parametrize("players", range(2, 7))
def test_basic_seats_start_with_two_open_eyes_and_one_closed(players):
    assert eyes_of(Game(GameConfig(players, BASIC))) == {seat: (2, 1) for seat in range(1, players + 1)}


@pytest.mark.parametrize("players", range(2, 7))
def test_trickster_seats_start_with_one_open_eye_and_two_closed(players):
    assert eyes_of(Game(GameConfig(players, TRICKSTER))) == {seat: (1, 2) for seat in range(1, players + 1)}


@pytest.mark.parametrize("variant", [BASIC, TRICKSTER])
@pytest.mark.parametrize("players", range(2, 7))
def test_two_to_six_players_play_a_whole_game(players, variant):
    game = simulate(GameConfig(players, variant), seed=f"rulings-{players}")
    assert game.phase == OVER
    assert game.active_seats == (game.winner,)


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_fewer_than_two_or_more_than_six_players_are_refused(players):
    with pytest.raises(IllegalAction, match="2 to 6 players") as caught:
        GameConfig(players)
    assert caught.value.code == "bad_config"


def test_start_player_of_round_one_comes_from_the_table(make_deal):
    game = Game(GameConfig(4, start_seat=3))
    game.apply(make_deal({1: "1", 2: "2", 3: "3", 4: "4"}, "5"))
    assert game.turn == 3
    assert game.legal().seats == (3,)


@pytest.mark.parametrize("start_seat", [0, 5, True, 2.0, "2"])
def test_start_player_must_be_a_seat_at_the_table(start_seat):
    with pytest.raises(IllegalAction, match="start player must be a seat from 1 to 4") as caught:
        GameConfig(4, start_seat=start_seat)
    assert caught.value.code == "bad_config"


# ---------------------------------------------------------------------------- 1. the deal


def test_a_round_deals_one_card_to_each_active_seat_and_one_to_the_centre(make_deal, refused, play_round):
    game = Game(GameConfig(3))
    refused(game, make_deal({1: "5", 2: "6"}, "3"), "bad_deal", "one card for each seat in the game (1, 2, 3)")
    refused(game, make_deal({1: "5", 2: "6", 3: "7", 4: "8"}, "3"), "bad_deal", "got seats 1, 2, 3, 4")
    for _ in range(3):  # seat 2 loses all three peek cards
        play_round(game, 2)
    assert game.active_seats == (1, 3)
    refused(game, make_deal({1: "5", 2: "6", 3: "7"}, "3"), "bad_deal", "(1, 3)")
    game.apply(make_deal({1: "5", 3: "7"}, "3"))
    assert seat_view(game, 1).others == {3: "7"}


# ---------------------------------------------------------------------------- 2. bids


@pytest.mark.parametrize("amount", [-1000, -11, 0, 7, 999])
def test_first_bid_may_be_any_whole_number_even_negative(make_deal, amount):
    game = Game(GameConfig(2))
    game.apply(make_deal({1: "5", 2: "7"}, "3"))
    assert game.legal().min_bid is None
    game.apply(Bid(1, amount))
    assert (public_view(game)["bid"], public_view(game)["bidder"]) == (amount, 1)


def test_later_bids_must_be_strictly_higher(make_deal, refused):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    game.apply(Bid(1, -4))
    assert game.legal().min_bid == -3
    refused(game, Bid(2, -4), "bid_too_low", "seat 2 must bid more than -4, not -4")
    refused(game, Bid(2, -20), "bid_too_low", "more than -4")
    game.apply(Bid(2, -3))
    game.apply(Bid(3, 500))  # a raise may jump as far as the bidder likes
    assert public_view(game)["bids"] == [[1, -4], [2, -3], [3, 500]]


@pytest.mark.parametrize("amount", [2.5, True, "7", None])
def test_a_bid_is_a_whole_number(make_deal, refused, amount):
    game = Game(GameConfig(2))
    game.apply(make_deal({1: "5", 2: "7"}, "3"))
    refused(game, Bid(1, amount), "bad_bid", "a bid is a whole number")


# ---------------------------------------------------------------------------- 3. raise or challenge


def test_on_a_turn_a_seat_raises_or_challenges(make_deal):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    game.apply(Bid(1, 10))
    legal = game.legal()
    assert (legal.seats, legal.bid, legal.min_bid, legal.challenge) == ((2,), True, 11, True)
    game.apply(Challenge(2))
    assert game.last_result.challenger == 2 and game.last_result.bidder == 1


def test_turns_pass_clockwise_and_skip_eliminated_seats(make_deal, play_round):
    game = Game(GameConfig(4, start_seat=3))
    game.apply(make_deal({1: "1", 2: "2", 3: "3", 4: "4"}, "5"))
    turns = []
    for amount in range(5):
        turns.append(game.turn)
        game.apply(Bid(game.turn, amount))
    assert turns == [3, 4, 1, 2, 3]
    game.apply(Challenge(4))  # seat 4 challenges 4 against a total of 15 and loses
    for _ in range(2):
        play_round(game, 4)
    assert game.active_seats == (1, 2, 3)
    game.apply(make_deal({1: "1", 2: "2", 3: "3"}, "5"))
    turns = []
    for amount in range(4):
        turns.append(game.turn)
        game.apply(Bid(game.turn, amount))
    assert turns == [1, 2, 3, 1]


def test_start_players_first_turn_is_always_a_bid(make_deal, refused):
    game = Game(GameConfig(3, start_seat=2))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    legal = game.legal()
    assert (legal.bid, legal.challenge, legal.peek, legal.coyote_card) == (True, False, False, False)
    refused(game, Challenge(2), "no_bid", "seat 2 cannot challenge: there is no bid yet")
    refused(game, Peek(2), "cannot_peek", "may not peek on its first turn")
    game.apply(Bid(2, 1))


def test_only_the_seat_whose_turn_it_is_may_act(make_deal, refused, play_round):
    game = Game(GameConfig(3))
    for _ in range(3):
        play_round(game, 3)
    game.apply(make_deal({1: "5", 2: "7"}, "3"))  # seat 3 is out; seat 1 starts
    refused(game, Bid(2, 5), "not_your_turn", "it is seat 1's turn, not seat 2's")
    refused(game, Bid(3, 5), "seat_out", "seat 3 is out of the game")
    refused(game, Bid(7, 5), "no_such_seat", "there is no seat 7")


# ---------------------------------------------------------------------------- 4. peeking


def test_peek_closes_an_open_eye_and_shows_the_original_centre(make_deal):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "15"))
    game.apply(Bid(1, 10))
    game.apply(Peek(2))
    assert eyes_of(game)[2] == (1, 2)
    assert (seat_view(game, 2).peeked, seat_view(game, 2).centre) == (True, "15")
    assert (seat_view(game, 3).peeked, seat_view(game, 3).centre) == (False, None)
    assert public_view(game)["peeked"] == [2]


def test_after_peeking_a_seat_must_raise(make_deal, refused):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "15"))
    game.apply(Bid(1, 10))
    game.apply(Peek(2))
    assert (game.legal().challenge, game.legal().bid) == (False, True)
    error = refused(game, Challenge(2), "challenge_after_peek")
    assert str(error) == "seat 2 cannot challenge right after peeking: it must raise"
    game.apply(Bid(2, 11))
    assert game.legal().challenge  # the next seat may challenge as usual


def test_at_most_one_peek_per_turn(make_deal, refused):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "15"))
    game.apply(Bid(1, 10))
    game.apply(Peek(2))
    assert not game.legal().peek
    refused(game, Peek(2), "cannot_peek", "seat 2 has already peeked this turn")


def test_peeking_needs_an_open_eye_and_may_repeat_on_later_turns(make_deal, refused):
    game = Game(GameConfig(2))
    game.apply(make_deal({1: "5", 2: "7"}, "15"))
    game.apply(Bid(1, 1))
    for amount in (2, 4):  # seat 2 peeks on two turns: both of its open eyes close
        game.apply(Peek(2))
        game.apply(Bid(2, amount))
        game.apply(Bid(1, amount + 1))
    assert eyes_of(game)[2] == (0, 3)
    assert not game.legal().peek
    refused(game, Peek(2), "cannot_peek", "seat 2 has no open eye to peek with")


def test_start_player_cannot_peek_on_its_first_turn_but_others_can(make_deal, refused):
    game = Game(GameConfig(3, start_seat=2))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "15"))
    refused(game, Peek(2), "cannot_peek", "seat 2 starts this round and may not peek on its first turn")
    game.apply(Bid(2, 1))
    for seat, amount in ((3, 2), (1, 3)):  # seats 3 and 1 peek on their first turn
        assert game.legal().peek
        game.apply(Peek(seat))
        game.apply(Bid(seat, amount))
    assert game.legal().peek  # seat 2's second turn
    game.apply(Peek(2))
    assert public_view(game)["peeked"] == [1, 2, 3]


# ---------------------------------------------------------------------------- 5. the challenge


def test_question_is_replaced_by_the_top_card_of_the_remaining_deck(make_deal):
    result = challenge_of_two(make_deal({1: "?", 2: "5"}, "3", "7", "20"), bid=16)
    assert (result.score.replacement, result.score.total) == ("7", 15)
    assert [(c.card, c.counts_as, c.value) for c in result.score.counted] == [("?", "7", 7), ("5", "5", 5),
                                                                           ("3", "3", 3)]
    assert result.winner == 2


def test_question_replaced_by_max0_puts_max0_in_play(make_deal):
    result = challenge_of_two(make_deal({1: "?", 2: "10"}, "4", "max0"), bid=5)
    assert (result.score.replacement, zeroed(result.score), result.score.total) == ("max0", "10", 4)
    assert {"? counts as Max 0", "Max 0: 10 counts 0"} <= set(explanation_lines(ENGLISH, result))


def test_question_is_resolved_before_max0(make_deal):
    # If Max 0 came first it would zero the 5 and the total would be 20.
    result = challenge_of_two(make_deal({1: "?", 2: "max0"}, "5", "20"), bid=6)
    assert (result.score.replacement, zeroed(result.score), result.score.total) == ("20", "20", 5)
    assert result.winner == 2


def test_max0_zeroes_highest_even_if_negative(make_deal):
    assert (score(["-10", "-5", "max0"], -10).total, zeroed(score(["-10", "-5", "max0"], -10))) == (-10, "-5")
    result = challenge_of_two(make_deal({1: "-10", 2: "-5"}, "max0"), bid=-10)
    assert (zeroed(result.score), result.score.total, result.winner) == ("-5", -10, 1)
    assert "Max 0: -5 counts 0" in explanation_lines(ENGLISH, result)


def test_max0_itself_counts_zero():
    result = score(["max0", "3", "4"], 3)
    assert [c.value for c in result.counted] == [0, 3, 0]
    assert (zeroed(result), result.total) == ("4", 3)


def test_total_below_the_bid_the_challenger_wins(make_deal):
    result = challenge_of_two(make_deal({1: "5", 2: "7"}, "3"), bid=16)  # total 15
    assert (result.score.total, result.winner, result.loser) == (15, 2, 1)


@pytest.mark.parametrize("bid", [15, 14, -100])
def test_total_reaching_the_bid_the_bidder_wins(make_deal, bid):
    result = challenge_of_two(make_deal({1: "5", 2: "7"}, "3"), bid=bid)  # total 15: equality holds
    assert (result.score.total, result.winner, result.loser) == (15, 1, 2)


# ---------------------------------------------------------------------------- 6. eyes after a challenge


def test_winner_opens_a_closed_eye_loser_discards_a_closed_one(play_round):
    game = Game(GameConfig(2))
    result = play_round(game, 1)
    assert (result.winner, eyes_of(game)) == (2, {1: (2, 0), 2: (3, 0)})
    assert [(c.seat, c.change) for c in result.eye_changes] == [(2, "opened"), (1, "discarded closed")]


def test_winner_without_closed_eye_keeps_its_eyes_loser_without_closed_discards_open(play_round):
    game = Game(GameConfig(2))
    play_round(game, 1)
    result = play_round(game, 1)
    assert eyes_of(game) == {1: (1, 0), 2: (3, 0)}
    assert [(c.seat, c.change) for c in result.eye_changes] == [(2, "unchanged"), (1, "discarded open")]


# ---------------------------------------------------------------------------- 7. elimination, next start


def test_seat_without_peek_cards_is_eliminated(play_round):
    game = Game(GameConfig(3))
    results = [play_round(game, 2) for _ in range(3)]
    assert [r.eliminated for r in results] == [None, None, 2]
    assert eyes_of(game)[2] == (0, 0)
    assert game.active_seats == (1, 3) and public_view(game)["active"] == [1, 3]


def test_loser_starts_the_next_round(make_deal, play_round):
    game = Game(GameConfig(4))
    result = play_round(game, 3)
    assert result.next_start == 3
    game.apply(make_deal({1: "1", 2: "2", 3: "3", 4: "4"}, "5"))
    assert game.turn == 3


def test_next_active_seat_clockwise_starts_when_loser_is_eliminated(play_round):
    game = Game(GameConfig(4))
    results = [play_round(game, 4) for _ in range(3)]
    assert (results[-1].eliminated, results[-1].next_start) == (4, 1)  # wraps around the table
    results = [play_round(game, 3) for _ in range(3)]
    assert (results[-1].eliminated, results[-1].next_start) == (3, 1)  # skips seat 4, already out


# ---------------------------------------------------------------------------- 8. end of the game


def test_game_ends_when_one_seat_is_left(make_deal, refused, play_round):
    game = Game(GameConfig(2))
    for _ in range(3):
        play_round(game, 1)
    assert (game.phase, game.winner, public_view(game)["winner"]) == (OVER, 2, 2)
    assert game.last_result.next_start is None
    refused(game, make_deal({2: "5"}, "3"), "game_over", "the game is over: seat 2 has won")


def test_a_finished_game_names_no_next_starter_and_no_coyote_card_holder(play_round):
    """Seat 1 loses every round, so it starts each one and holds the Coyote card until it
    is out: the final state must not name it (nor anyone) for a round that never comes."""
    game = Game(GameConfig(2, TRICKSTER))
    for _ in range(2):
        play_round(game, 1)
    assert (game.next_start, game.coyote_holder) == (1, 1)
    play_round(game, 1)
    shown = public_view(game)
    assert (game.phase, game.winner, shown["next_start"], shown["coyote_holder"]) == (OVER, 2, None, None)
    assert seat_view(game, 2).coyote_holder is None


# ---------------------------------------------------------------------------- Trickster: guesses


def test_trickster_guessers_are_the_active_seats_outside_the_challenge(make_deal, refused):
    game = Game(GameConfig(4, TRICKSTER))
    game.apply(make_deal({1: "1", 2: "2", 3: "3", 4: "4"}, "5"))
    game.apply(Bid(1, 3))
    game.apply(Bid(2, 4))
    game.apply(Challenge(3))
    legal = game.legal()
    assert (game.phase, legal.seats, legal.guess_options) == (GUESSING, (1, 4), (2, 3))
    refused(game, Guess(2, 2), "not_a_guesser", "between seats 2 and 3")
    refused(game, Guess(3, 2), "not_a_guesser")
    refused(game, Guess(1, 4), "bad_guess", "must guess seat 2 or seat 3")
    refused(game, Bid(4, 100), "wrong_phase", "seats 1, 4 guess the winner")
    game.apply(Guess(1, 2))
    refused(game, Guess(1, 3), "already_guessed")
    assert game.legal().seats == (4,)
    game.apply(Guess(4, 3))
    assert game.last_result.guesses == {1: 2, 4: 3}


def test_trickster_with_two_players_nobody_guesses(make_deal):
    game = Game(GameConfig(2, TRICKSTER))
    game.apply(make_deal({1: "5", 2: "7"}, "3"))
    game.apply(Bid(1, 3))
    game.apply(Challenge(2))
    assert game.phase == DEAL
    assert game.last_result.guesses == {}


def test_trickster_right_guess_opens_an_eye_wrong_guess_closes_one(make_deal):
    game = Game(GameConfig(4, TRICKSTER))
    game.apply(make_deal({1: "1", 2: "2", 3: "3", 4: "4"}, "5"))  # total 15
    game.apply(Bid(1, 15))
    game.apply(Challenge(2))
    game.apply(Guess(3, 1))  # right: the bid holds
    game.apply(Guess(4, 2))  # wrong
    result = game.last_result
    assert result.winner == 1
    assert eyes_of(game) == {1: (2, 1), 2: (1, 1), 3: (2, 1), 4: (0, 3)}
    assert {"Seat 3 guessed right", "Seat 4 guessed wrong"} <= set(explanation_lines(ENGLISH, result))


def test_trickster_guess_without_the_eye_to_flip_changes_nothing(make_deal):
    game = Game(GameConfig(3, TRICKSTER))
    # Two rounds in which seat 2 challenges a bid far below the total (11) and loses,
    # and seat 3 guesses seat 2 both times: wrong twice, with no open eye the second time.
    for bids in ([(1, -50)], [(2, -50), (3, -49), (1, -48)]):
        game.apply(make_deal({1: "1", 2: "2", 3: "3"}, "5"))
        for seat, amount in bids:
            game.apply(Bid(seat, amount))
        game.apply(Challenge(2))
        game.apply(Guess(3, 2))
    assert [(r.loser, r.guesses) for r in game.results] == [(2, {3: 2}), (2, {3: 2})]
    assert [c.change for r in game.results for c in r.eye_changes if c.seat == 3] == ["closed", "unchanged"]
    assert eyes_of(game)[3] == (0, 3)


def test_trickster_players_who_drop_to_two_stop_guessing(play_round):
    game = Game(GameConfig(3, TRICKSTER))
    for _ in range(3):
        play_round(game, 3)
    assert game.active_seats == (1, 2)
    result = play_round(game, 1)
    assert result.guesses == {}


# ---------------------------------------------------------------------------- Trickster: the Coyote card


def test_nobody_holds_the_coyote_card_in_round_one(make_deal, refused):
    game = Game(GameConfig(3, TRICKSTER))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    assert public_view(game)["coyote_holder"] is None
    for seat, amount in ((1, 1), (2, 2), (3, 3)):
        game.apply(Bid(seat, amount))
    assert not game.legal().coyote_card
    refused(game, UseCoyoteCard(1), "cannot_use_coyote_card", "seat 1 does not hold the Coyote card (nobody does)")


def test_loser_receives_the_coyote_card_used_or_not(play_round):
    game = Game(GameConfig(3, TRICKSTER))
    assert play_round(game, 2).coyote_holder == 2
    assert public_view(game)["coyote_holder"] == 2
    assert play_round(game, 3).coyote_holder == 3  # seat 2 did not use it; seat 3 lost
    assert play_round(game, 3).coyote_holder == 3


def test_coyote_card_of_an_eliminated_loser_goes_to_the_next_starter(play_round):
    game = Game(GameConfig(3, TRICKSTER))
    results = [play_round(game, 3) for _ in range(3)]
    assert (results[-1].eliminated, results[-1].next_start, results[-1].coyote_holder) == (3, 1, 1)
    assert game.coyote_holder == 1


def test_coyote_card_is_usable_only_in_the_round_after_receiving_it(make_deal, refused, play_round):
    game = Game(GameConfig(3, TRICKSTER))
    play_round(game, 2)  # seat 2 receives the card ...
    play_round(game, 3)  # ... does not use it in round 2, and seat 3 loses round 2
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    for seat, amount in ((3, 1), (1, 2)):
        game.apply(Bid(seat, amount))
    refused(game, UseCoyoteCard(2), "cannot_use_coyote_card", "seat 2 does not hold the Coyote card (seat 3 does)")
    game.apply(Bid(2, 3))
    game.apply(UseCoyoteCard(3))  # the new holder, on its second turn


def test_coyote_card_not_on_the_holders_first_turn_of_the_round(make_deal, refused, play_round):
    game = Game(GameConfig(3, TRICKSTER))
    play_round(game, 2)
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    assert game.turn == 2 and not game.legal().coyote_card
    refused(game, UseCoyoteCard(2), "cannot_use_coyote_card", "may not use the Coyote card on its first turn")


def test_coyote_card_draws_the_top_card_which_counts_and_is_revealed(coyote_card_round):
    game = coyote_card_round()  # centre 3, deck: 20, 10, ...
    assert game.legal().coyote_card
    game.apply(UseCoyoteCard(2))
    assert seat_view(game, 2).coyote_card_draw == "20"
    assert (seat_view(game, 1).coyote_card_draw, seat_view(game, 1).extra_in_play) == (None, True)
    game.apply(Bid(2, 44))  # 5 + 7 + 9 + 3 + 20 = 44
    game.apply(Challenge(3))
    game.apply(Guess(1, 2))
    result = game.last_result
    assert (result.extra, result.extra_drawn_by, result.score.total, result.winner) == ("20", 2, 44, 2)
    assert "Coyote card draw (seat 2): 20" in explanation_lines(ENGLISH, result)


def test_after_the_coyote_card_a_seat_must_raise(coyote_card_round, refused):
    game = coyote_card_round()
    game.apply(UseCoyoteCard(2))
    assert (game.legal().challenge, game.legal().bid) == (False, True)
    refused(game, Challenge(2), "challenge_after_coyote_card", "it must raise")
    game.apply(Bid(2, 4))


def test_after_a_peek_and_the_coyote_card_the_refusal_names_both(coyote_card_round, refused):
    game = coyote_card_round()
    game.apply(Peek(2))
    game.apply(UseCoyoteCard(2))
    error = refused(game, Challenge(2), "challenge_after_peek")
    assert str(error) == "seat 2 cannot challenge right after peeking and using the Coyote card: it must raise"


def test_a_guess_in_a_basic_game_is_told_that_basic_has_no_guesses(make_deal, refused):
    game = Game(GameConfig(3))
    game.apply(Deal(seats={1: "5", 2: "7", 3: "9"}))  # a camera's deal: the centre waits for the reveal
    game.apply(Bid(1, 10))
    game.apply(Challenge(2))
    refused(game, Guess(3, 1), "not_a_guesser", "a Basic game has no guesses")


def test_coyote_card_is_used_at_most_once(coyote_card_round, refused):
    game = coyote_card_round()
    game.apply(UseCoyoteCard(2))
    refused(game, UseCoyoteCard(2), "cannot_use_coyote_card", "already used the Coyote card this round")
    for seat, amount in ((2, 4), (3, 5), (1, 6)):
        game.apply(Bid(seat, amount))
    assert not game.legal().coyote_card
    refused(game, UseCoyoteCard(2), "cannot_use_coyote_card", "already used")


def test_question_after_a_coyote_card_draw_takes_the_next_card(coyote_card_round, make_deal):
    game = coyote_card_round(make_deal({1: "?", 2: "7", 3: "9"}, "3", "20", "10"))
    game.apply(UseCoyoteCard(2))
    game.apply(Bid(2, 4))
    game.apply(Challenge(3))
    game.apply(Guess(1, 3))
    result = game.last_result
    assert (result.extra, result.score.replacement, result.score.total) == ("20", "10", 49)


@pytest.mark.parametrize("peek_first", [True, False], ids=["peek-then-card", "card-then-peek"])
def test_peek_and_coyote_card_in_the_same_turn_peek_shows_only_the_original_centre(coyote_card_round, peek_first):
    game = coyote_card_round()  # centre 3, the card draws 20
    first, second = (Peek(2), UseCoyoteCard(2)) if peek_first else (UseCoyoteCard(2), Peek(2))
    game.apply(first)
    assert game.legal().peek != peek_first and game.legal().coyote_card == peek_first
    game.apply(second)
    view = seat_view(game, 2)
    assert (view.centre, view.coyote_card_draw, view.unknown_count()) == ("3", "20", 1)
    game.apply(Bid(2, 4))
    game.apply(Peek(3))  # another seat's peek shows the original centre card, not the draw
    view = seat_view(game, 3)
    assert (view.centre, view.coyote_card_draw, view.unknown_count()) == ("3", None, 2)
    assert "20" not in view.known_cards()


def test_coyote_card_is_not_part_of_the_basic_game(make_deal, refused, play_round):
    game = Game(GameConfig(3, BASIC))
    play_round(game, 2)
    assert game.coyote_holder is None
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    for seat, amount in ((2, 1), (3, 2), (1, 3)):
        game.apply(Bid(seat, amount))
    refused(game, UseCoyoteCard(2), "cannot_use_coyote_card", "only used in the Trickster variant")


# ---------------------------------------------------------------------------- physical play: public output


def open_round_events(game: Game) -> list:
    """The events of the round in play, from its deal on (empty between rounds)."""
    if game.phase in (DEAL, OVER):
        return []
    deals = [i for i, event in enumerate(game.history) if isinstance(event, Deal)]
    return game.history[deals[-1]:]


def redealt(game: Game, shift: int) -> Game:
    """The same game, except that the open round's cards are a different deal: the
    round's 17 cards rotated by ``shift`` places. Every action of the round is replayed."""
    deal, *actions = open_round_events(game)
    order = [*deal.seats.values(), deal.centre, *deal.deck]
    order = order[shift:] + order[:shift]
    seats = len(deal.seats)
    other = Deal(seats=dict(zip(deal.seats, order)), centre=order[seats], deck=tuple(order[seats + 1:]))
    earlier = game.history[: len(game.history) - len(actions) - 1]
    return Game.from_events(game.config, [*earlier, other, *actions])


PUBLIC_KEYS = {"phase", "round", "players", "variant", "active", "eyes", "turn", "bid", "bidder", "bids",
               "challenger", "peeked", "extra_in_play", "coyote_holder", "next_start", "winner", "last_result"}


@pytest.mark.parametrize("variant", [BASIC, TRICKSTER])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_public_view_never_shows_a_card_of_the_open_round(players, variant):
    """Non-interference: while a round is open, dealing it other cards (and replaying the
    same actions) leaves the public view identical, so no card value can be in it."""
    checked = 0

    def check(game, event):
        nonlocal checked
        view = public_view(game)
        assert set(view) == PUBLIC_KEYS
        if not open_round_events(game):
            return
        assert view["last_result"] is None or view["last_result"]["round"] < view["round"]
        for shift in (1, 5):
            assert public_view(redealt(game, shift)) == view
        checked += 1

    simulate(GameConfig(players, variant), seed=f"public-{players}-{variant}", on_event=check)
    assert checked > 0


# ---------------------------------------------------------------------------- physical play: never guess


def test_unread_seat_card_is_asked_for_at_the_reveal_not_guessed(refused):
    game = Game(GameConfig(3))
    game.apply(Deal(seats={1: None, 2: "5", 3: "7"}))  # the camera could not read seat 1
    assert seat_view(game, 2).others == {3: "7"}
    assert seat_view(game, 2).unknown_count() == 3  # its own card, the centre, seat 1's
    game.apply(Bid(1, 10))
    game.apply(Challenge(2))
    assert (game.phase, game.results) == (REVEAL, [])
    refused(game, Reveal(centre="3"), "bad_reveal", "the cards of seat(s) 1 must be revealed too")
    refused(game, Reveal(centre="3", seats={1: "5"}), "duplicate_card", "5 appears twice")
    refused(game, Reveal(centre="3", seats={2: "6"}), "bad_reveal", "seat 2's card is 5, not 6")
    refused(game, DrawReplacement("4"), "wrong_phase")
    game.apply(Reveal(centre="3", seats={1: "4"}))
    result = game.last_result
    assert (result.seat_cards, result.centre, result.score.total, result.winner) == ({1: "4", 2: "5", 3: "7"},
                                                                                  "3", 19, 1)


def test_a_reveal_may_name_no_seat_or_repeat_a_known_seat_card_with_its_value(refused):
    """docs/game-record.md: ``reveal.seats`` may be ``{}`` (as ``null``: no seat to name) and
    may name a seat card already known, with the same value only; the record keeps ``{}``."""
    for seats in ({}, {2: "5"}, None):
        game = Game(GameConfig(2))
        game.apply(Deal(seats={1: "4", 2: "5"}))
        game.apply(Bid(1, 10))
        game.apply(Challenge(2))
        if seats:
            refused(game, Reveal(centre="3", seats={2: "6"}), "bad_reveal", "seat 2's card is 5, not 6")
        game.apply(from_dict({"type": "reveal", "centre": "3", "extra": None,
                              "seats": None if seats is None else {str(s): c for s, c in seats.items()}}))
        assert (game.last_result.seat_cards, game.last_result.score.total) == ({1: "4", 2: "5"}, 12)
        assert to_dict(game.history[-1])["seats"] == (None if seats is None else {str(s): c for s, c in seats.items()})


def test_card_drawn_for_question_is_asked_for_not_guessed(refused):
    game = Game(GameConfig(2))
    game.apply(Deal(seats={1: "?", 2: "5"}))
    game.apply(Bid(1, 4))
    game.apply(Challenge(2))
    refused(game, Reveal(centre="3", extra="8"), "bad_reveal", "nobody used the Coyote card")
    game.apply(Reveal(centre="3"))
    assert (game.phase, game.legal().describe()) == (DRAW, "waiting for the card drawn to replace ?")
    refused(game, DrawReplacement("5"), "bad_replacement", "5 is already in play")
    game.apply(DrawReplacement("max0"))
    result = game.last_result
    assert (result.score.replacement, zeroed(result.score), result.score.total) == ("max0", "5", 3)


def test_coyote_card_draw_at_a_physical_table_is_asked_for(refused, play_round):
    game = Game(GameConfig(2, TRICKSTER))
    play_round(game, 1)
    game.apply(Deal(seats={1: "5", 2: "7"}))
    game.apply(Bid(1, 1))
    game.apply(Bid(2, 2))
    game.apply(UseCoyoteCard(1))
    assert seat_view(game, 1).coyote_card_draw is None  # the device did not see it
    game.apply(Bid(1, 3))
    game.apply(Challenge(2))
    refused(game, Reveal(centre="3"), "bad_reveal", "the Coyote card's draw must be revealed too")
    game.apply(Reveal(centre="3", extra="8"))
    assert (game.last_result.extra, game.last_result.score.total) == ("8", 23)


# ---------------------------------------------------------------------------- undo


def test_undo_takes_back_the_seats_own_last_bid(make_deal, snapshot):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    game.apply(Bid(1, 5))
    before = snapshot(game)
    game.apply(Bid(2, 9))
    game.apply(Undo(2))
    after = snapshot(game)
    # The history keeps the undone bid and the undo (it replays to this state); all else is as before.
    assert after.pop("history")[-2:] == [Bid(2, 9), Undo(2)]
    before.pop("history")
    assert after == before
    assert game.turn == 2 and game.legal().min_bid == 6


def test_undo_keeps_a_peek_made_before_the_bid(make_deal, refused):
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    game.apply(Bid(1, 5))
    game.apply(Peek(2))
    game.apply(Bid(2, 9))
    game.apply(Undo(2))
    assert (game.turn, eyes_of(game)[2], seat_view(game, 2).centre) == (2, (1, 2), "3")
    refused(game, Challenge(2), "challenge_after_peek")


def test_undo_only_by_the_last_bidder_while_its_bid_is_the_latest_event(make_deal, refused):
    game = Game(GameConfig(3))
    refused(game, Undo(1), "nothing_to_undo", "there is no bid to take back now")
    game.apply(make_deal({1: "5", 2: "7", 3: "9"}, "3"))
    refused(game, Undo(1), "nothing_to_undo")
    game.apply(Bid(1, 5))
    refused(game, Undo(2), "not_your_bid", "only seat 1, who made the last bid, can take it back")
    game.apply(Peek(2))
    refused(game, Undo(1), "nothing_to_undo")  # a peek came after the bid
    game.apply(Bid(2, 6))
    game.apply(Challenge(3))
    refused(game, Undo(2), "nothing_to_undo")  # the bid was challenged and resolved


def test_undo_cannot_be_chained(make_deal, refused):
    """Seat 2 takes back its raise; seat 1's bid, raised before, stays."""
    game = Game(GameConfig(3))
    game.apply(make_deal({1: "1", 2: "2", 3: "3"}, "4"))
    game.apply(Bid(1, 5))
    game.apply(Bid(2, 6))
    game.apply(Undo(2))
    refused(game, Undo(1), "undo_after_undo",
            "undos do not chain: seat 1's bid of 5 was raised once already and stays")
    refused(game, Undo(3), "nothing_to_undo")  # seat 3 never bid
    game.apply(Bid(2, 7))
    game.apply(Undo(2))  # a new bid can be taken back again
    assert game.round.bids == [(1, 5)] and game.turn == 2


# ---------------------------------------------------------------------------- illegal events


def test_events_from_a_record_with_unknown_card_names_are_illegal_actions():
    with pytest.raises(IllegalAction, match='"11" is not a Coyote card') as caught:
        from_dict({"type": "deal", "seats": {"1": "11", "2": "5"}, "centre": None, "deck": None})
    assert caught.value.code == "bad_event"


@pytest.mark.parametrize("event", [Deal(seats={1: "11", 2: "5"}), Reveal(centre="zz"), DrawReplacement("13")],
                         ids=["deal", "reveal", "draw"])
def test_observations_with_unknown_card_names_are_illegal_actions(snapshot, event):
    game = Game(GameConfig(2))
    if not isinstance(event, Deal):
        game.apply(Deal(seats={1: "?", 2: "5"}))
        game.apply(Bid(1, 4))
        game.apply(Challenge(2))
        if isinstance(event, DrawReplacement):
            game.apply(Reveal(centre="3"))
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="is not a Coyote card"):
        game.apply(event)
    assert snapshot(game) == before


# ---------------------------------------------------------------------------- docs/rules.md


def test_every_test_named_in_docs_rules_exists():
    """docs/rules.md names the test behind each ruling; a renamed test must not leave it stale."""
    here = Path(__file__).resolve().parent
    text = (here.parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+\.py)::(test_\w+)`", text))
    assert len(named) > 60
    missing = [f"{file}::{test}" for file, test in sorted(named)
               if f"def {test}(" not in (here / file).read_text(encoding="utf-8")]
    assert missing == []
