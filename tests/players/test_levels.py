"""What each level does in plain situations, decided from a turn view built by hand."""

from __future__ import annotations

import numpy as np
import pytest

from coyote_pi.engine import BASIC, TRICKSTER, Bid, Challenge, GameConfig, Guess, SeatView, UseCoyoteCard
from coyote_pi.players.knowledge import my_reach
from coyote_pi.players.levels import Bluffer, OneAhead, Weighing, challenged_and_short
from coyote_pi.players.roster import LEVELS, player
from coyote_pi.players.seating import play
from coyote_pi.players.strong import STRONG, Strong, value_moves
from coyote_pi.players.turn import BIDDING, GUESSING, Move, TurnView


def turn(bids: tuple[tuple[int, int], ...] = (), *, others: dict[int, str] | None = None, phase: str = BIDDING,
         may_use_coyote_card: bool = False) -> TurnView:
    """Seat 1's turn at a three-seat table where it sees 5 and 7 (by default)."""
    others = {2: "5", 3: "7"} if others is None else others
    last = bids[-1] if bids else None
    view = SeatView(seat=1, round=1, phase=phase, turn=1, bid=last[1] if last else None,
                    bidder=last[0] if last else None, eyes={1: (2, 1), 2: (2, 1), 3: (2, 1)}, others=others,
                    peeked=False, centre=None, coyote_card_draw=None, extra_in_play=False, coyote_holder=None,
                    active_others=(2, 3))
    return TurnView(seat=view, phase=phase, variant="trickster", bids=bids,
                    min_bid=last[1] + 1 if last else None, may_challenge=bool(bids) and phase == BIDDING,
                    may_use_coyote_card=may_use_coyote_card, coyote_card_used_this_turn=False,
                    guess_options=(2, 3) if phase == GUESSING else ())


def test_raise_by_one_raises_even_an_unlikely_bid_and_challenges_only_an_impossible_one() -> None:
    reach = my_reach(turn())
    unlikely = reach.highest_with(0.02)
    assert LEVELS["raise-by-one"].decide(turn(((3, unlikely),)), 1) == Bid(1, unlikely + 1)
    assert LEVELS["raise-by-one"].decide(turn(((3, 100),)), 1) == Challenge(1)


def test_two_raise_by_one_players_left_alone_finish_their_game() -> None:
    game = play(GameConfig(players=2), {1: LEVELS["raise-by-one"], 2: LEVELS["raise-by-one"]}, 5)
    assert game.winner in (1, 2)


def test_half_odds_challenges_below_even_odds_and_raises_by_one_otherwise() -> None:
    reach = my_reach(turn())
    median = reach.highest_with(0.5)
    assert LEVELS["half-odds"].decide(turn(((3, median + 3),)), 1) == Challenge(1)
    assert LEVELS["half-odds"].decide(turn(((3, median - 3),)), 1) == Bid(1, median - 2)
    assert LEVELS["half-odds"].decide(turn(), 1) == Bid(1, median)


def test_cautious_opens_safely_and_challenges_a_raise_it_could_not_make_safely() -> None:
    reach = my_reach(turn())
    opening = LEVELS["cautious"].decide(turn(), 1)
    assert isinstance(opening, Bid) and reach.at_least(opening.amount) >= 0.75 > reach.at_least(opening.amount + 1)
    safe = reach.highest_with(0.75)
    assert LEVELS["cautious"].decide(turn(((3, safe - 1),)), 1) == Bid(1, safe)
    assert LEVELS["cautious"].decide(turn(((3, safe),)), 1) == Challenge(1)


def test_the_bluffer_varies_its_bids_with_the_seed_and_sometimes_bids_past_its_odds() -> None:
    opening = [LEVELS["bluffer"].decide(turn(), seed) for seed in range(300)]
    amounts = {move.amount for move in opening if isinstance(move, Bid)}
    assert len(amounts) >= 5
    reach = my_reach(turn())
    assert min(reach.at_least(amount) for amount in amounts) < Bluffer.AIM[0], "no bid went past its odds"
    assert any(isinstance(LEVELS["bluffer"].decide(turn(may_use_coyote_card=True, bids=((3, 3),)), seed),
                          UseCoyoteCard) for seed in range(10))


def test_strong_reads_its_own_card_from_the_bids_of_those_who_see_it() -> None:
    """Seat 3 sees seat 1's card; a high bid from it makes a high card likelier."""
    strong = Strong()
    quiet = strong.belief(turn())
    loud = strong.belief(turn(((3, 30),)))

    def expected_number(weights: dict[str, float]) -> float:
        numbers = {card: weight for card, weight in weights.items() if card.lstrip("-").isdigit()}
        return sum(int(card) * weight for card, weight in numbers.items()) / sum(numbers.values())

    assert expected_number(loud.weights) > expected_number(quiet.weights) + 1
    assert abs(sum(loud.weights.values()) - 1) < 1e-9


def test_strong_reads_only_each_seats_latest_bid() -> None:
    """A seat that raised by one all round said no more than its last bid: counting each
    of its bids as fresh evidence made the belief over-confident (docs/players.md)."""
    strong = Strong()
    climbing = strong.belief(turn(((2, 10), (3, 11), (2, 12), (3, 13), (2, 14), (3, 15))))
    once = strong.belief(turn(((2, 14), (3, 15))))
    assert climbing.weights == pytest.approx(once.weights)


def test_strong_challenges_an_impossible_bid_and_opens_with_a_safe_one() -> None:
    assert player("strong").decide(turn(((3, 90),)), 1) == Challenge(1)
    opening = player("strong").decide(turn(), 1)
    reach = my_reach(turn())
    assert isinstance(opening, Bid) and reach.at_least(opening.amount) >= 0.9


def test_every_level_guesses_one_of_the_two_seats_of_the_challenge() -> None:
    view = turn(((2, 10), (3, 11)), phase=GUESSING)
    for level in LEVELS.values():
        move = level.decide(view, 1)
        assert isinstance(move, Guess) and move.winner in (2, 3)


def test_an_unknown_level_is_refused_with_the_levels_there_are() -> None:
    try:
        player("genius")
    except ValueError as error:
        assert "strong, cautious, bluffer; baselines (bench opponents): raise-by-one, half-odds" in str(error)
    else:
        raise AssertionError("an unknown level was accepted")


def test_one_ahead_challenges_below_its_doubt_and_jumps_where_the_next_seat_would_let_it_pass() -> None:
    reach = my_reach(turn())
    one_ahead = OneAhead(doubt=0.4, risk=0.1)
    assert one_ahead.decide(turn(((3, reach.highest_with(0.2)),)), 1) == Challenge(1)
    low = reach.highest_with(0.99)
    move = one_ahead.decide(turn(((3, low),)), 1)
    assert isinstance(move, Bid) and move.amount > low + 1, "a safe bid far below the odds is raised by more than one"
    assert challenged_and_short(turn(), np.array([move.amount]), 0.4)[0] < 0.1


def test_the_next_seats_challenge_costs_what_the_bid_falls_short_by() -> None:
    """A next seat that challenges everything makes a raise lose whenever it falls short
    (the plain odds); one that challenges nothing never does."""
    bids = np.arange(-5, 40)
    reach = my_reach(turn())
    short = [1.0 - reach.at_least(int(bid)) for bid in bids]
    assert np.allclose(challenged_and_short(turn(), bids, 1.01), short)
    assert not challenged_and_short(turn(), bids, 0.0).any()


def test_weighing_challenges_when_the_bid_is_likelier_to_fail_than_its_own_raise() -> None:
    reach = my_reach(turn())
    weighing = Weighing(doubt=0.5, caution=1.0)
    assert weighing.decide(turn(((3, reach.highest_with(0.99)),)), 1) == Bid(1, reach.highest_with(0.99) + 1)
    assert weighing.decide(turn(((3, reach.highest_with(0.05)),)), 1) == Challenge(1)
    assert weighing.decide(turn(), 1) == Bid(1, reach.highest_with(0.5))


def _views_of_whole_games() -> list[TurnView]:
    seen: list[TurnView] = []

    class Watching:
        level = "strong"

        def decide(self, view: TurnView, seed: int | str) -> Move:
            seen.append(view)
            return STRONG.decide(view, seed)

    for players, variant in ((2, BASIC), (3, TRICKSTER)):
        play(GameConfig(players=players, variant=variant), dict.fromkeys(range(1, players + 1), Watching()),
             f"valuation {players}")
    return seen


def test_the_strong_level_plays_the_move_its_public_valuation_says_loses_least() -> None:
    """value_moves is the valuation the review reads: the strong level's own move is
    always one of least value (ties: a challenge, then the Coyote card, then the lowest bid)."""
    views = _views_of_whole_games()
    assert sum(view.phase == GUESSING for view in views) > 0 and len(views) > 100
    for view in views:
        values = value_moves(view)
        assert all(-1e-9 <= loss <= 1.0 + 1e-9 for loss in values.values())
        move = STRONG.decide(view, 1)
        assert values[move] == min(values.values()) or isinstance(move, UseCoyoteCard), (view, move)
        if isinstance(move, Bid):
            assert move == min((bid for bid in values if isinstance(bid, Bid) and values[bid] == values[move]),
                               key=lambda bid: bid.amount)
        if view.may_challenge:
            assert values[Challenge(view.me)] == STRONG.belief(view).holds(view.seat.bid or 0)


def test_the_valuation_prices_a_challenge_by_the_chance_that_the_bid_holds() -> None:
    reach = my_reach(turn())
    cheap, dear = reach.highest_with(0.9), reach.highest_with(0.1)
    assert value_moves(turn(((3, dear),)))[Challenge(1)] < value_moves(turn(((3, cheap),)))[Challenge(1)]
    guesses = value_moves(turn(((2, 90), (3, 91)), phase=GUESSING))
    assert guesses == {Guess(1, 2): 1.0, Guess(1, 3): 0.0}, "a bid that cannot hold: guessing its bidder is wrong"
