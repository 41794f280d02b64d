"""Scoring a challenge: the total of the cards in play, with ``?`` and ``Max 0``.

This module knows nothing about seats or turns: given the cards in play, the bid and
the card that replaces ``?``, it computes the total and explains it step by step.

The order is fixed by the rulings: ``?`` is resolved first (its replacement counts
instead, and a ``Max 0`` drawn for it is in play), then ``Max 0`` makes the
highest-valued number card count 0 (even when that card is negative).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from coyote_pi.cards import MAX0, QUESTION, display_name, value
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.json_text import spelled


@dataclass(frozen=True)
class CountedCard:
    """One card as it counts in the total."""

    card: str  #: the card lying on the table
    counts_as: str  #: the card that counts for it (the replacement for ``?``)
    value: int  #: what it adds to the total
    note: str = ""  #: why it counts differently from its face, if it does


@dataclass(frozen=True)
class Score:
    """The total of a set of cards and how it came about."""

    cards: tuple[str, ...]
    bid: int
    replacement: str | None
    counted: tuple[CountedCard, ...]
    zeroed: str | None  #: the number card that ``Max 0`` made count 0
    total: int

    @cached_property
    def explanation(self) -> tuple[str, ...]:
        """The scoring, step by step, in plain English (built only when asked for)."""
        cards, replacement, zeroed, total, bid = self.cards, self.replacement, self.zeroed, self.total, self.bid
        effective = [replacement if c == QUESTION else c for c in cards]
        explanation = [f"Cards in play: {', '.join(display_name(c) for c in cards)}."]
        if replacement is not None:
            explanation.append(f"? is replaced by the top card of the deck: {display_name(replacement)}.")
            if replacement == MAX0:
                explanation.append("The replacement is Max 0, so Max 0 is in play.")
        if MAX0 in effective:
            if zeroed is None:
                explanation.append("Max 0 is in play but there is no number card to zero.")
            else:
                explanation.append(f"Max 0: the highest number card, {zeroed}, counts 0; Max 0 itself counts 0.")
        sums = " + ".join(str(c.value) if c.value >= 0 else f"({c.value})" for c in self.counted)
        explanation.append(f"Total: {sums} = {total}.")
        verdict = "reaches" if total >= bid else "is below"
        winner = "the bidder wins" if total >= bid else "the challenger wins"
        explanation.append(f"The total {total} {verdict} the bid {bid}: {winner}.")
        return tuple(explanation)

    @property
    def bid_holds(self) -> bool:
        """The bidder wins when the total reaches the bid."""
        return self.total >= self.bid

    @property
    def challenger_wins(self) -> bool:
        return not self.bid_holds

    def to_dict(self) -> dict[str, object]:
        return {
            "total": self.total,
            "bid": self.bid,
            "challenger_wins": self.challenger_wins,
            "cards": list(self.cards),
            "replacement": self.replacement,
            "zeroed": self.zeroed,
            "explanation": list(self.explanation),
        }


def check_distinct(cards: Sequence[str], what: str = "cards in play") -> None:
    """Every card exists once: a repeated card is an error a player can read."""
    seen: set[str] = set()
    for card in cards:
        if card in seen:
            raise IllegalAction(
                f"{display_name(card)} appears twice among the {what}; there is only one",
                code="duplicate_card",
                card=card,
            )
        seen.add(card)


def total_of(cards: Sequence[str]) -> tuple[int, str | None]:
    """The total of cards without ``?`` (already replaced), and the card Max 0 zeroed."""
    numbers = [value(c) for c in cards if c != MAX0]
    total = sum(numbers)
    if MAX0 in cards and numbers:
        highest = max(numbers)
        return total - highest, str(highest)
    return total, None


def score(cards: Sequence[str], bid: int, replacement: str | None = None) -> Score:
    """Score a challenge of ``bid`` with ``cards`` in play.

    ``replacement`` is the card drawn for ``?``; it is required when ``?`` is in play
    and must not be one of the cards in play.

    >>> s = score(["5", "?", "max0", "-10"], 12, replacement="7")
    >>> s.total, s.zeroed, s.challenger_wins
    (-5, '7', True)
    """
    cards = tuple(cards)
    check_distinct(cards)
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise IllegalAction(f"a bid is a whole number, not {spelled(bid)}", code="bad_bid")
    if QUESTION in cards:
        if replacement is None:
            raise IllegalAction(
                "? is in play: the top card of the deck must be drawn to replace it",
                code="replacement_needed",
            )
        if replacement == QUESTION or replacement in cards:
            raise IllegalAction(
                f"{display_name(replacement)} cannot replace ?: it is already in play",
                code="bad_replacement",
                card=replacement,
            )
    elif replacement is not None:
        raise IllegalAction("no ? is in play, so no replacement card is drawn", code="bad_replacement")

    # ? counts as its replacement (checked above: there is one whenever ? is in play).
    effective = [c if c != QUESTION or replacement is None else replacement for c in cards]
    total, zeroed = total_of(effective)

    counted = []
    zero_pending = zeroed
    for card, counts_as in zip(cards, effective):
        note = f"? replaced by {display_name(counts_as)}" if card == QUESTION else ""
        if counts_as == MAX0:
            points, note = 0, (note + "; " if note else "") + "Max 0 itself counts 0"
        else:
            points = value(counts_as)
            if counts_as == zero_pending:
                points, zero_pending = 0, None
                note = (note + "; " if note else "") + "highest number card, zeroed by Max 0"
        counted.append(CountedCard(card, counts_as, points, note))

    return Score(cards, bid, replacement, tuple(counted), zeroed, total)
