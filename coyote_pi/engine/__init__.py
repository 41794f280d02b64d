"""The pure Coyote rules engine: no I/O, no clock, no global random state.

>>> from coyote_pi.engine import Game, GameConfig, Bid, Challenge
>>> game = Game(GameConfig(players=2))
>>> game.deal_from_deck(seed=1)
>>> game.apply(Bid(1, 5)); game.apply(Challenge(2))
>>> game.last_result.winner in (1, 2)
True

Modules: :mod:`~coyote_pi.engine.rules` (scoring a challenge),
:mod:`~coyote_pi.engine.events` (actions and observations),
:mod:`~coyote_pi.engine.game` (the state machine), :mod:`~coyote_pi.engine.views`
(what each seat may know), :mod:`~coyote_pi.engine.odds` (exact odds) and
:mod:`~coyote_pi.engine.players` (scripted players for simulations).
"""

from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.events import (
    Bid,
    CardPlace,
    Challenge,
    Correct,
    Deal,
    DrawReplacement,
    Event,
    EventType,
    Guess,
    Peek,
    Reveal,
    Undo,
    UseCoyoteCard,
)
from coyote_pi.engine.game import (
    BASIC,
    BIDDING,
    DEAL,
    DRAW,
    GUESSING,
    OVER,
    REVEAL,
    TRICKSTER,
    Game,
    GameConfig,
    Legal,
    Phase,
    RoundResult,
    Variant,
)
from coyote_pi.engine.rules import Score, score
from coyote_pi.engine.views import SeatView, arbiter_state, public_view, seat_view

__all__ = [
    "BASIC", "BIDDING", "DEAL", "DRAW", "GUESSING", "OVER", "REVEAL", "TRICKSTER",
    "Bid", "CardPlace", "Challenge", "Correct", "Deal", "DrawReplacement", "Event", "EventType", "Game", "GameConfig",
    "Guess", "IllegalAction", "Legal", "Peek", "Phase", "Refusal", "Reveal", "RoundResult", "Score", "SeatView", "Undo",
    "UseCoyoteCard", "Variant", "arbiter_state", "public_view", "score", "seat_view",
]
