"""Seating a virtual player: the :class:`~coyote_pi.players.turn.TurnView` of a seat,
built from a game. The only module of this package that sees a
:class:`~coyote_pi.engine.game.Game`; the players themselves receive its result only
(``tests/players/test_isolation.py`` checks both)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from coyote_pi.engine.game import BIDDING, DEAL, GUESSING, OVER, Game, GameConfig
from coyote_pi.engine.views import seat_view
from coyote_pi.players import turn
from coyote_pi.players.turn import Move

if TYPE_CHECKING:
    from coyote_pi.players.roster import VirtualPlayer


def asks(game: Game, seat: int) -> bool:
    """Whether ``seat`` has a decision to make now (its turn, or its guess)."""
    return game.phase in (BIDDING, GUESSING) and seat in game.legal().seats


def turn_view(game: Game, seat: int) -> turn.TurnView:
    """What ``seat`` is handed to decide now; it must be asked (see :func:`asks`)."""
    if not asks(game, seat):
        raise ValueError(f"seat {seat} has nothing to decide now (phase {game.phase})")
    legal = game.legal()
    r = game.round
    assert r is not None  # a seat is asked only during a round
    view = seat_view(game, seat)
    return turn.TurnView(
        seat=view,
        phase=turn.BIDDING if game.phase == BIDDING else turn.GUESSING,
        variant=game.variant,
        bids=tuple((bidder, amount) for bidder, amount in r.bids),
        min_bid=legal.min_bid,
        may_challenge=legal.challenge,
        may_use_coyote_card=legal.coyote_card,
        coyote_card_used_this_turn=game.phase == BIDDING and r.coyote_card_this_turn,
        guess_options=legal.guess_options,
    )


def decide(game: Game, seat: int, player: VirtualPlayer, seed: int | str) -> Move:
    """``player``'s move for ``seat`` now: it is handed the seat's turn view, nothing else."""
    return player.decide(turn_view(game, seat), seed)


def play(config: GameConfig, lineup: Mapping[int, VirtualPlayer], seed: int | str,
         on_move: Callable[[Game, Move], None] | None = None) -> Game:
    """A whole game between virtual players (``lineup``: seat -> player) on a virtual
    deck shuffled from ``seed``; ``on_move(game, move)`` sees each move before it is
    applied (the benches time decisions through it)."""
    game = Game(config)
    while game.phase != OVER:
        if game.phase == DEAL:
            game.apply(game.virtual_deal(config.deck.shuffled(seed, game.round_number + 1)))
            continue
        seat = game.legal().seats[0]
        move = decide(game, seat, lineup[seat], seed)
        if on_move is not None:
            on_move(game, move)
        game.apply(move)
    return game
