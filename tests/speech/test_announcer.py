"""What is said, moment by moment: undo, the Coyote card, a correction, the winner, and
what each ``[speech] announce`` level keeps."""

from __future__ import annotations

from coyote_pi.cards import ALL_CARDS
from coyote_pi.engine import Bid, Challenge, Correct, Deal, Game, GameConfig, Guess, Reveal, Undo, UseCoyoteCard
from coyote_pi.speech.announcer import Announcer, Kind
from coyote_pi.speech.moment import public_moment
from tests.speech.conftest import bidding, challenged, dealt_game, moment


def said(announcer: Announcer, game: Game, language: str = "en") -> list[tuple[Kind, str]]:
    return [(phrase.kind, phrase.text) for phrase in announcer.phrases(public_moment("turn", language, game))]


def test_an_undo_says_whose_bid_was_taken_back() -> None:
    game, announcer = dealt_game(), Announcer()
    said(announcer, game)
    list(bidding(game, [5, 8]))
    said(announcer, game)
    game.apply(Undo(2))
    assert said(announcer, game) == [(Kind.UNDO, "Seat 2 took back 8"), (Kind.TURN, "Seat 2, your turn")]


def known_deal(seats: dict[int, str]) -> Deal:
    """A deal of every card, the centre 0: nothing waits for a camera."""
    return Deal(seats=seats, centre="0", deck=tuple(card for card in ALL_CARDS if card not in {*seats.values(), "0"}))


def test_the_guesses_asked_and_the_coyote_card_in_trickster_rounds() -> None:
    game = Game(GameConfig(3, "trickster"))
    game.apply(known_deal({1: "1", 2: "2", 3: "3"}))
    announcer = Announcer()
    assert said(announcer, game, "de") == [(Kind.TURN, "Runde 1. Platz 1 beginnt")]
    for seat, amount in ((1, 4), (2, 5), (3, 6)):
        game.apply(Bid(seat, amount))
    said(announcer, game)
    game.apply(Challenge(1))
    assert said(announcer, game) == [
        (Kind.CHALLENGE, "Coyote! Seat 1 challenges seat 3's 6"),
        (Kind.GUESS, "Seat 2, guess who wins: seat 3 or seat 1?")]
    game.apply(Guess(2, 3))
    assert [kind for kind, _ in said(announcer, game)] == [Kind.VERDICT, Kind.EXPLANATION]
    holder = game.coyote_holder
    assert holder is not None
    game.apply(known_deal({seat: str(seat + 4) for seat in game.active_seats}))
    said(announcer, game)
    amount = 10
    while game.turn != holder or game.current_round.turns_done[holder] == 0:
        amount += 1
        game.apply(Bid(game.turn, amount))  # type: ignore[arg-type]
    said(announcer, game)
    game.apply(UseCoyoteCard(holder))
    assert said(announcer, game) == [(Kind.COYOTE_CARD, f"Seat {holder} plays the Coyote card")]


def test_a_correction_says_so_and_the_verdict_again() -> None:
    game = Game(GameConfig(2))
    game.apply(Deal(seats={1: "1", 2: "2"}))
    announcer = Announcer()
    said(announcer, game)
    game.apply(Bid(1, 10))
    game.apply(Challenge(2))
    said(announcer, game)
    game.apply(Reveal(centre="3"))
    assert said(announcer, game) == [
        (Kind.VERDICT, "The total is 6. 6 is below 10: the challenger wins."),
        (Kind.EXPLANATION, "Seat 1: 1. Seat 2: 2. Centre: 3. Total: 1 + 2 + 3 = 6. Seat 2 challenged seat 1's 10. "
                           "Seat 2 opens an eye. Seat 1 loses a closed eye. Seat 1 starts next.")]
    game.apply(Correct("centre", "9", (1, 2)))
    assert said(announcer, game) == [
        (Kind.CORRECTION, "Correction. The total is 12. 12 reaches 10: the bidder wins."),
        (Kind.EXPLANATION, "Seat 1: 1. Seat 2: 2. Centre: 9. Total: 1 + 2 + 9 = 12. Seat 2 challenged seat 1's 10. "
                           "Seat 1 opens an eye. Seat 2 loses a closed eye. Seat 2 starts next.")]


def test_each_announce_level_keeps_its_kinds() -> None:
    def heard(level: str) -> list[Kind]:
        game, announcer = dealt_game(), Announcer(level)
        kinds = [phrase.kind for phrase in announcer.phrases(moment(game))]
        for later in bidding(game, [5, 6]):
            kinds += [phrase.kind for phrase in announcer.phrases(later)]
        kinds += [phrase.kind for phrase in announcer.phrases(challenged(game))]
        return kinds

    assert heard("all") == [Kind.TURN, Kind.BID, Kind.TURN, Kind.BID, Kind.TURN, Kind.CHALLENGE, Kind.VERDICT,
                            Kind.EXPLANATION]
    assert heard("bids") == [Kind.BID, Kind.BID, Kind.CHALLENGE, Kind.VERDICT, Kind.EXPLANATION]
    assert heard("verdicts") == [Kind.VERDICT, Kind.EXPLANATION]


def test_a_seat_going_out_and_the_winner() -> None:
    game = Game(GameConfig(2))
    announcer = Announcer()
    said(announcer, game)
    phrases: list[tuple[Kind, str]] = []
    while game.winner is None:
        game.apply(Deal(seats={seat: "1" if seat == 1 else "20" for seat in game.active_seats}, centre="0"))
        game.apply(Bid(game.turn, 30))  # type: ignore[arg-type]
        game.apply(Challenge(game.turn))  # type: ignore[arg-type]
        phrases += said(announcer, game)
    assert phrases[-1] == (Kind.WINNER, "Seat 2 wins!")
    assert (Kind.VERDICT, "The total is 21. 21 is below 30: the challenger wins. Seat 1 is out.") in phrases
