"""The seam between the review and the strong level: what every legal move is worth.

:func:`value_moves` is the only place the review asks a player anything. It expects, from
whatever implements it:

- input: the deciding seat's :class:`~coyote_pi.players.turn.TurnView` (its
  :class:`~coyote_pi.engine.views.SeatView`, the round's public bids oldest first, what
  the rules allow now) and the seed the table plays by (the record's file name);
- output: a mapping from moves (``Bid``, ``Challenge``, ``UseCoyoteCard``, ``Guess`` of
  that seat) to the chance of losing the round by that move, from that view alone (a
  Trickster guess: the chance it is wrong), in the player's order of preference among
  equal values (the first of equals is the move it would play). Bids: a run of
  consecutive amounts from the lowest it considers; the review values a bid beyond that
  run as the nearest bid in it.

Pointing the review at another valuation is a change of the one line in
:func:`value_moves`.
"""

from __future__ import annotations

from collections.abc import Mapping

from coyote_pi.players import strong
from coyote_pi.players.turn import Move, TurnView


def value_moves(view: TurnView, seed: int | str) -> Mapping[Move, float]:
    """Each legal move's chance of losing the round, from ``view`` (see the module's text):
    the strong level's own valuation, the one it plays by. The strong level is
    deterministic and does not use ``seed``."""
    return strong.value_moves(view)
