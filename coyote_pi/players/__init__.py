"""Virtual players: seats the table plays itself, from that seat's view alone.

A virtual player is handed a :class:`~coyote_pi.players.turn.TurnView` (its seat's
view and the public facts of the turn; never the game, the round's cards or the
controller) and returns a move: a bid, a challenge, the Coyote card or a Trickster
guess. It never peeks. The same view and seed always give the same move.

Levels (:data:`LEVELS`): ``cautious``, ``bluffer`` and ``strong`` for the table, and the
two baselines ``raise-by-one`` and ``half-odds`` that the tournaments of ``coyote-pi
bench players`` measure them against (docs/players.md).
"""

from __future__ import annotations

from typing import Protocol

from coyote_pi.players.levels import Bluffer, Cautious, HalfOdds, RaiseByOne
from coyote_pi.players.strong import Strong
from coyote_pi.players.turn import Move, TurnView


class VirtualPlayer(Protocol):
    """Anything that decides a seat's move from its view and a seed."""

    level: str

    def decide(self, view: TurnView, seed: int | str) -> Move: ...


#: Every level by name: the three a table offers first, then the baselines.
LEVELS: dict[str, VirtualPlayer] = {
    player.level: player for player in (Cautious(), Bluffer(), Strong(), RaiseByOne(), HalfOdds())
}
#: The levels a table offers at setup, in the order it offers them (the baselines are
#: for measuring).
TABLE_LEVELS: tuple[str, ...] = ("strong", "cautious", "bluffer")


def player(level: str) -> VirtualPlayer:
    """The virtual player of ``level``; a clear error names the levels there are."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})") from None


def parse_seats(text: str) -> dict[int, str]:
    """Virtual seats as people write them: ``"3:strong,5:cautious"`` -> ``{3: "strong",
    5: "cautious"}`` (a seat alone is strong; an empty text names none). A clear
    ValueError for anything else."""
    seats: dict[int, str] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        seat_text, colon, level = part.partition(":")
        level = level.strip() if colon else "strong"
        if not seat_text.strip().isdigit() or int(seat_text) < 1:
            raise ValueError(f"virtual seat {part!r} is not SEAT:LEVEL (e.g. 3:strong)")
        if level not in LEVELS:
            raise ValueError(f"virtual seat {part!r}: unknown level {level!r} (levels: {', '.join(LEVELS)})")
        if int(seat_text) in seats:
            raise ValueError(f"seat {int(seat_text)} is named virtual twice")
        seats[int(seat_text)] = level
    return seats


def seats_text(seats: dict[int, str]) -> str:
    """The inverse of :func:`parse_seats`, seats in order."""
    return ",".join(f"{seat}:{level}" for seat, level in sorted(seats.items()))
