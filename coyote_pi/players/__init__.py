"""Virtual players: seats the table plays itself, from that seat's view alone.

A virtual player is handed a :class:`~coyote_pi.players.turn.TurnView` (its seat's
view and the public facts of the turn; never the game, the round's cards or the
controller) and returns a move: a bid, a challenge, the Coyote card or a Trickster
guess. It never peeks. The same view and seed always give the same move.

Levels (:data:`LEVEL_NAMES`; the players themselves are in :mod:`~coyote_pi.players.roster`):
the table's (:data:`TABLE_LEVELS`), and the baselines (:data:`BASELINES`) that the
tournaments of ``coyote-pi bench players`` measure them against (docs/players.md).
Every text that lists them (the errors, ``--help``, the setup page, the docs) takes
them from here: :func:`levels_text`, :func:`level_words`.

This module holds only the names and how people write virtual seats, so that the
configuration (and the web page, which reads it) can check them without loading the
players' numerics.
"""

from __future__ import annotations

#: The levels a table offers at setup, in the order it offers them.
TABLE_LEVELS: tuple[str, ...] = ("strong", "cautious", "bluffer")
#: The baselines: simple players, the bench's opponents for measuring the table's levels.
#: A seat may be given one by name (``--virtual 3:half-odds``); setup never offers them.
BASELINES: tuple[str, ...] = ("raise-by-one", "half-odds")
#: Every level: the table's, then the baselines.
LEVEL_NAMES: tuple[str, ...] = (*TABLE_LEVELS, *BASELINES)


def level_words() -> dict[str, str]:
    """The table's levels and the baselines, each a list as texts show it (the setup
    page's help fills them into its own language's sentence)."""
    return {"levels": ", ".join(TABLE_LEVELS), "baselines": ", ".join(BASELINES)}


def levels_text() -> str:
    """The levels as the errors, ``--help`` and the docs name them::

        >>> levels_text()
        'strong, cautious, bluffer; baselines (bench opponents): raise-by-one, half-odds'
    """
    return "{levels}; baselines (bench opponents): {baselines}".format(**level_words())


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
        if level not in LEVEL_NAMES:
            raise ValueError(f"virtual seat {part!r}: unknown level {level!r} (levels: {levels_text()})")
        if int(seat_text) in seats:
            raise ValueError(f"seat {int(seat_text)} is named virtual twice")
        seats[int(seat_text)] = level
    return seats


def seats_text(seats: dict[int, str]) -> str:
    """The inverse of :func:`parse_seats`, seats in order."""
    return ",".join(f"{seat}:{level}" for seat, level in sorted(seats.items()))
