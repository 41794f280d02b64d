"""A virtual player never knows its own card or the centre card: changing them changes
none of its decisions.

Hypothesis plays whole games (2 to 6 seats, both variants) in which one seat is a
virtual player of a chosen level and the others are virtual players too. At every
decision of that seat the current round is dealt again with its own card and the centre
card swapped for other cards it cannot see (its stand, the centre and the deck below the
top card, which a Coyote card may have shown it), the same events are replayed, and the
seat must decide exactly the same with the same seed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coyote_pi.engine import BASIC, TRICKSTER, Bid, Deal, Game, GameConfig
from coyote_pi.players.levels import OneAhead, Weighing
from coyote_pi.players.roster import LEVELS, VirtualPlayer
from coyote_pi.players.seating import decide, play
from coyote_pi.players.turn import Move

#: Every level, and a member of each of the bench's opponent families (they decide from a
#: view too, and their figures count only if they do not peek either).
PLAYERS: dict[str, VirtualPlayer] = {**LEVELS, **{player.level: player for player in (OneAhead(), Weighing())}}

SETTINGS = settings(max_examples=20, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _dealt_again(deal: Deal, seat: int, shuffle: list[int]) -> Deal:
    """``deal`` with ``seat``'s card, the centre and the deck below its top card permuted
    by ``shuffle`` (indices into those cards)."""
    own = deal.seats[seat]
    assert deal.deck is not None and deal.centre is not None and own is not None
    hidden = [own, deal.centre, *deal.deck[1:]]
    moved = [hidden[index] for index in shuffle]
    seats = {**deal.seats, seat: moved[0]}
    return Deal(seats=seats, centre=moved[1], deck=(deal.deck[0], *moved[2:]))


Decider = Callable[[Game, int], Move]
Shuffler = Callable[[int], list[int]]


def check_game(config: GameConfig, lineup: dict[int, VirtualPlayer], virtual: int, seed: int,
               decider: Decider, shuffler: Shuffler) -> int:
    """Play a game; at each of ``virtual``'s decisions, deal its round again as
    ``shuffler(size)`` says and check that ``decider`` decides the same. Returns how many
    decisions were checked."""
    checked = 0

    def compare(game: Game, move: Move) -> None:
        nonlocal checked
        if move.seat != virtual:
            return
        history = list(game.history)
        at = max(index for index, event in enumerate(history) if isinstance(event, Deal))
        deal = history[at]
        assert isinstance(deal, Deal) and deal.deck is not None
        history[at] = _dealt_again(deal, virtual, shuffler(1 + len(deal.deck)))
        assert decider(Game.from_events(config, history), virtual) == move, history[at]
        checked += 1

    play(config, lineup, seed, on_move=compare)
    return checked


@SETTINGS
@given(data=st.data(), players=st.integers(2, 6), variant=st.sampled_from([BASIC, TRICKSTER]),
       level=st.sampled_from(sorted(PLAYERS)), seed=st.integers(0, 10**6))
def test_own_card_and_centre_never_change_a_decision(data: st.DataObject, players: int, variant: str, level: str,
                                                      seed: int) -> None:
    virtual = data.draw(st.integers(1, players), label="virtual seat")
    others = data.draw(st.lists(st.sampled_from(sorted(PLAYERS)), min_size=players, max_size=players), label="others")
    lineup = {seat: PLAYERS[level if seat == virtual else others[seat - 1]] for seat in range(1, players + 1)}

    def shuffler(size: int) -> list[int]:
        return data.draw(st.permutations(range(size)), label="the cards it cannot see, dealt again")

    def decider(game: Game, seat: int) -> Move:
        return decide(game, seat, lineup[seat], seed)

    assert check_game(GameConfig(players=players, variant=variant), lineup, virtual, seed, decider, shuffler) > 0


def test_the_check_catches_a_player_that_reads_its_own_card() -> None:
    """Not vacuous: a decider that looks at the game's deal (as no virtual player can)
    is caught at once."""
    lineup = {seat: LEVELS["half-odds"] for seat in (1, 2, 3)}

    def cheat(game: Game, seat: int) -> Move:
        assert game.round is not None
        return Bid(seat, hash(game.round.seat_cards[seat]))

    def swap_card_and_centre(size: int) -> list[int]:
        return [1, 0, *range(2, size)]

    with pytest.raises(AssertionError):
        check_game(GameConfig(players=3), lineup, 2, 7, cheat, swap_card_and_centre)
