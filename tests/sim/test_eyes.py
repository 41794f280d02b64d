"""Whose eyes: a seat sees the other stands, the centre once it peeked, its own Coyote-card draw."""

from __future__ import annotations

from coyote_pi import cards
from coyote_pi.engine import Bid, Challenge, Deal, Game, GameConfig, Guess, Peek, UseCoyoteCard
from coyote_pi.sim.eyes import knows, seat_sight
from coyote_pi.sim.scene import TableScene


def test_the_coyote_card_draw_is_seen_by_its_drawer_only_until_it_is_turned_up():
    scene = TableScene(seats=3, seat_cards={1: "5", 2: "7", 3: None},
                       slots={"centre": ("face_down", "3"), "extra": ("face_down", "20")})
    assert seat_sight(scene, 2, peeked=False, drew=True) == \
        ["Seat 2 sees:", "1:[5]", "3:[ ]", "centre: face down", "Coyote draw: 20 (yours)"]
    assert seat_sight(scene, 1, peeked=False, drew=False)[-1] == "Coyote draw: face down"
    revealed = TableScene(seats=3, seat_cards={1: "5", 2: "7", 3: "?"},
                          slots={"centre": ("face_up", "3"), "extra": ("face_up", "20"), "draw": ("face_up", "10")})
    assert seat_sight(revealed, 1, peeked=False, drew=False)[-3:] == \
        ["centre: 3", "Coyote draw: 20", "drawn for ?: 10"]


def _deal(seats: dict[int, str], centre: str, top: str) -> Deal:
    used = [*seats.values(), centre, top]
    return Deal(seats=seats, centre=centre, deck=(top, *(card for card in cards.ALL_CARDS if card not in used)))


def test_who_peeked_and_who_drew_come_from_the_round_on_the_table():
    game = Game(GameConfig(3, "trickster", start_seat=1))
    assert knows(game, 1) == (False, False)  # nothing dealt yet
    game.apply(_deal({1: "1", 2: "2", 3: "3"}, "4", "5"))
    game.apply(Bid(1, 30))
    game.apply(Peek(2))
    assert (knows(game, 2), knows(game, 1)) == ((True, False), (False, False))
    game.apply(Bid(2, 31))
    game.apply(Challenge(3))
    game.apply(Guess(1, 3))
    assert knows(game, 2) == (False, False)  # resolved: every card is public, that peek is over
    assert game.coyote_holder == 2 and game.next_start == 2  # seat 2's 31 failed: it lost

    game.apply(_deal({1: "5", 2: "7", 3: "9"}, "3", "20"))
    game.apply(Bid(2, 1))  # not on its first turn of the round
    game.apply(Bid(3, 2))
    game.apply(Peek(1))
    game.apply(Bid(1, 3))
    game.apply(UseCoyoteCard(2))
    assert [knows(game, seat) for seat in (1, 2, 3)] == [(True, False), (False, True), (False, False)]
