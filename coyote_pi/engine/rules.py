"""Scoring a challenge: the total of the cards in play, with the deck's special cards.

This module knows nothing about seats or turns: given the cards in play, the bid and
the card drawn for ``?``, it computes the total and what each card counted.

What a special card does is its rule in :data:`coyote_pi.cards.SPECIAL_RULES`; the order
is fixed by the rulings: a card drawn for (``?``) is resolved first (the card drawn counts
instead, and a special card drawn for it is in play), then every special card in play that
changes a number card does so, in the deck's order (``Max 0`` makes the highest-valued
number card count 0, even when that card is negative). A special card itself counts 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from coyote_pi.cards import STANDARD, Card, Deck, SpecialRule, display_name
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.json_text import spelled


@dataclass(frozen=True)
class Adjustment:
    """A special card in play that changed what a number card counts (the record's
    generic form of every such rule: ``Max 0`` made ``10`` count 0)."""

    by: str  #: the special card
    card: str  #: the number card it changed
    counts: int  #: what that card counts now

    def to_dict(self) -> dict[str, object]:
        return {"by": self.by, "card": self.card, "counts": self.counts}


@dataclass(frozen=True)
class CountedCard:
    """One card as it counts in the total."""

    card: str  #: the card lying on the table
    counts_as: str  #: the card that counts for it (the card drawn for ``?``)
    value: int  #: what it adds to the total


@dataclass(frozen=True)
class Score:
    """The total of a set of cards and how it came about: numbers, cards and adjustments.
    Its words are the catalogs' (:mod:`coyote_pi.words.verdict`), never the engine's."""

    cards: tuple[str, ...]
    bid: int
    replacement: str | None
    counted: tuple[CountedCard, ...]
    adjustments: tuple[Adjustment, ...]  #: what the special cards in play changed
    total: int
    deck: Deck = STANDARD

    def changes(self) -> list[tuple[Card, Adjustment | None]]:
        """Each special card in play that changes a number card, in the order it lies, with
        what it changed (None: no number card was in play)."""
        changed = {adjustment.by: adjustment for adjustment in self.adjustments}
        specials = [self.deck.card(counted.counts_as) for counted in self.counted]
        return [(card, changed.get(card.name)) for card in specials
                if card.special is not None and card.special.change is not None]

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
            "adjustments": [adjustment.to_dict() for adjustment in self.adjustments],
        }


def check_distinct(cards: Sequence[str], what: str = "cards in play") -> None:
    """Every card exists once: a repeated card is an error a player can read."""
    seen: set[str] = set()
    for card in cards:
        if card in seen:
            raise IllegalAction(
                f"{display_name(card)} appears twice among the {what}; there is only one",
                code=Refusal.DUPLICATE_CARD,
                card=card,
            )
        seen.add(card)


def rule_changes(numbers: Sequence[int], rules: Sequence[SpecialRule]) -> list[tuple[int, int]]:
    """What the rules of special cards in play change, applied in the given order: per
    rule, the printed value of the number card it changes and what that card then counts.
    Nothing changes without a number card in play."""
    changes: list[tuple[int, int]] = []
    counts: dict[int, int] = {}
    for rule in rules:
        if rule.change is None or not numbers:
            continue
        target = rule.change.target(numbers)
        counts[target] = rule.change.counts(counts.get(target, target))
        changes.append((target, counts[target]))
    return changes


def changing_rules(cards: Iterable[str], deck: Deck = STANDARD) -> list[tuple[str, SpecialRule]]:
    """The special cards among ``cards`` that change a number card, with their rules, in
    the deck's order (the order their rules apply in)."""
    present = set(cards)
    return [(name, rule) for name, rule in deck.changers if name in present]


def adjusted(cards: Sequence[str], deck: Deck = STANDARD) -> tuple[dict[str, int], tuple[Adjustment, ...]]:
    """What each number card among ``cards`` (no card drawn for left: ``?`` already
    replaced) counts once the special cards' rules are applied, and what they changed."""
    counts = {card: printed for card in cards if (printed := deck.card(card).value) is not None}
    specials = changing_rules(cards, deck)
    if not specials:
        return counts, ()
    changes = rule_changes(list(counts.values()), [rule for _, rule in specials])
    adjustments = tuple(Adjustment(special, str(target), after) for (special, _), (target, after) in zip(specials, changes))
    counts.update({adjustment.card: adjustment.counts for adjustment in adjustments})
    return counts, adjustments


def score(cards: Sequence[str], bid: int, replacement: str | None = None, deck: Deck = STANDARD) -> Score:
    """Score a challenge of ``bid`` with ``cards`` of ``deck`` in play.

    ``replacement`` is the card drawn for ``?``; it is required when ``?`` is in play
    and must not be one of the cards in play.

    >>> s = score(["5", "?", "max0", "-10"], 12, replacement="7")
    >>> s.total, s.adjustments, s.challenger_wins
    (-5, (Adjustment(by='max0', card='7', counts=0),), True)
    """
    cards = tuple(cards)
    check_distinct(cards)
    for card in cards + ((replacement,) if replacement is not None else ()):
        if card not in deck:
            raise IllegalAction(f"{spelled(card)} is not a card of the {deck.edition} deck", code=Refusal.BAD_CARD)
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise IllegalAction(f"a bid is a whole number, not {spelled(bid)}", code=Refusal.BAD_BID)
    drawn_for = next((card for card in cards if card in deck.drawn_for), None)
    if drawn_for is not None:
        if replacement is None:
            raise IllegalAction(
                f"{display_name(drawn_for)} is in play: the top card of the deck must be drawn to replace it",
                code=Refusal.REPLACEMENT_NEEDED,
            )
        if replacement in deck.drawn_for or replacement in cards:
            raise IllegalAction(
                f"{display_name(replacement)} cannot replace {display_name(drawn_for)}: it is already in play",
                code=Refusal.BAD_REPLACEMENT,
                card=replacement,
            )
    elif replacement is not None:
        raise IllegalAction("no ? is in play, so no replacement card is drawn", code=Refusal.BAD_REPLACEMENT)

    effective = [replacement if card == drawn_for and replacement is not None else card for card in cards]
    counts, adjustments = adjusted(effective, deck)
    counted = tuple(CountedCard(card, counts_as, counts.get(counts_as, 0)) for card, counts_as in zip(cards, effective))
    return Score(cards, bid, replacement, counted, adjustments, sum(counts.values()), deck)
