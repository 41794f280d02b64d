"""What a virtual player is handed on its turn: its seat's view and the public facts of
the turn, as plain values.

A :class:`TurnView` holds no game, no round and no controller: only the
:class:`~coyote_pi.engine.views.SeatView` of the deciding seat (which never holds its own
card, nor the centre card unless the seat peeked, and virtual players never peek), the
public bids of the round, and which moves the rules allow now. It is built by
:func:`coyote_pi.players.seating.turn_view`, the one module of this package that sees a
:class:`~coyote_pi.engine.game.Game`.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

from coyote_pi.engine import events
from coyote_pi.engine.views import SeatView

#: What a virtual player may do: raise (or open), challenge, use the Coyote card, guess.
#: There is no peek: a peek needs a person to look at the hidden centre card for it.
Move = events.Bid | events.Challenge | events.UseCoyoteCard | events.Guess

#: The phases in which a virtual player is asked to decide.
BIDDING = "bidding"
GUESSING = "guessing"


@dataclass(frozen=True)
class TurnView:
    """One decision's worth of knowledge, public facts and seat view only."""

    seat: SeatView  #: what the deciding seat knows (never its own card)
    phase: str  #: :data:`BIDDING` (raise, challenge, Coyote card) or :data:`GUESSING`
    variant: str  #: "basic" or "trickster"
    bids: tuple[tuple[int, int], ...]  #: this round's bids so far, (seat, amount), oldest first
    min_bid: int | None  #: the lowest legal bid; ``None`` when any whole number may open
    may_challenge: bool
    may_use_coyote_card: bool
    coyote_card_used_this_turn: bool  #: this seat used the Coyote card this turn (it must raise)
    guess_options: tuple[int, ...] = ()  #: Trickster guesses: (bidder, challenger)

    @property
    def me(self) -> int:
        return self.seat.seat

    def playing_seats(self) -> tuple[int, ...]:
        """The seats holding a card this round, in seat order."""
        return tuple(sorted((self.me, *self.seat.active_others)))

    def next_seat(self) -> int:
        """The seat that acts after this one, clockwise among the seats still playing."""
        seats = self.playing_seats()
        return seats[(seats.index(self.me) + 1) % len(seats)]

    def lives(self, seat: int) -> int:
        """How many peek cards ``seat`` has left (losing a round costs one)."""
        opened, closed = self.seat.eyes[seat]
        return opened + closed

    def rng(self, seed: int | str) -> random.Random:
        """The generator for this decision, fixed by the seed and the public point of the
        round alone, so that the same public situation always gets the same draws."""
        point = f"{seed}|{self.me}|{self.seat.round}|{self.phase}|{len(self.bids)}|{self.coyote_card_used_this_turn}"
        return random.Random(zlib.crc32(point.encode()))
