"""Odds a virtual player reasons with, cached: what a set of known cards says about the
total, from this seat's eyes or (for each card its own stand might hold) from another
seat's eyes.

The tables are the exact distributions of :mod:`coyote_pi.engine.odds`, turned into
"chance that the total reaches x" lookups. They are keyed by the known cards only, so a
game reuses them from turn to turn; :data:`CACHE_SIZE` bounds their memory.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from coyote_pi import cards
from coyote_pi.engine.odds import total_distribution
from coyote_pi.players.turn import TurnView

#: Distributions kept (each a few hundred integers): a few megabytes at most.
CACHE_SIZE = 8192


class Reach:
    """``at_least(x)``: the chance that the total reaches ``x``, from one distribution."""

    __slots__ = ("_array", "_low", "_tail")

    def __init__(self, counts: dict[int, int], outcomes: int) -> None:
        self._low = min(counts)
        tail: list[float] = []
        running = 0
        for total in range(max(counts), self._low - 1, -1):
            running += counts.get(total, 0)
            tail.append(running / outcomes)
        tail.reverse()
        self._tail = tuple(tail)
        self._array = np.array((*tail, 0.0))  # one more: every bid above the highest total

    def at_least(self, bid: int) -> float:
        index = bid - self._low
        if index <= 0:
            return 1.0
        return self._tail[index] if index < len(self._tail) else 0.0

    def at_least_each(self, bids: np.ndarray) -> np.ndarray:
        """:meth:`at_least` of every bid in ``bids`` at once."""
        chances: np.ndarray = self._array[np.clip(bids - self._low, 0, len(self._tail))]
        return chances

    def highest_with(self, chance: float) -> int:
        """The highest bid that holds with at least ``chance``."""
        for index in range(len(self._tail) - 1, -1, -1):
            if self._tail[index] >= chance:
                return self._low + index
        return self._low


@lru_cache(maxsize=CACHE_SIZE)
def reach(known: tuple[str, ...], unknown: int, deck: cards.Deck = cards.STANDARD) -> Reach:
    """The total's reach when ``known`` (sorted) are in play beside ``unknown`` random cards."""
    distribution = total_distribution(known, unknown, deck)
    return Reach(distribution.counts, distribution.outcomes)


def my_reach(view: TurnView) -> Reach:
    """The total's reach from what this seat knows (its plain odds, no inference)."""
    return reach(tuple(sorted(view.seat.known_cards())), view.seat.unknown_count(), view.seat.deck)


def unseen_cards(view: TurnView) -> tuple[str, ...]:
    """The cards this seat has not seen: its own card is one of them."""
    known = set(view.seat.known_cards())
    return tuple(card for card in view.seat.deck.names if card not in known)


def reach_if_mine(view: TurnView, mine: str) -> Reach:
    """The total's reach for this seat if its own card were ``mine``."""
    known = tuple(sorted((*view.seat.known_cards(), mine)))
    return reach(known, view.seat.unknown_count() - 1, view.seat.deck)


def their_reach(view: TurnView, other: int, mine: str) -> Reach:
    """The total's reach as seat ``other`` sees it, if this seat's card were ``mine``:
    it sees every stand but its own (this one's included), not the centre (assumed
    unpeeked) and no Coyote-card draw."""
    stands = [card for seat, card in view.seat.others.items() if seat != other]
    known = tuple(sorted((*stands, mine)))
    in_play = 1 + len(view.seat.active_others) + 1 + view.seat.extra_in_play
    return reach(known, in_play - len(known), view.seat.deck)
