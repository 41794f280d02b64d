"""Exact odds: how likely a bid holds, given what one seat knows.

The cards a seat cannot see (its own, the centre card unless it peeked, a Coyote-card
draw it did not make) are a uniformly random set from the cards it has not seen; if
``?`` ends up in play, its replacement is a uniformly random card from those left in the
deck. What a special card does is its rule (:data:`coyote_pi.cards.SPECIAL_RULES`).
Enumerating every such set and every replacement gives the exact distribution of
the total, as a count of equally likely outcomes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from coyote_pi.cards import STANDARD, Deck, SpecialRule
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.rules import check_distinct, rule_changes
from coyote_pi.engine.views import SeatView


@dataclass(frozen=True)
class TotalDistribution:
    """How often each total occurs among ``outcomes`` equally likely outcomes."""

    counts: dict[int, int]
    outcomes: int

    def count_at_least(self, bid: int) -> int:
        """How many of the outcomes reach ``bid``."""
        return sum(n for total, n in self.counts.items() if total >= bid)

    def probability_at_least(self, bid: int) -> Fraction:
        """The chance that the total reaches ``bid``, i.e. that the bid holds."""
        return Fraction(self.count_at_least(bid), self.outcomes)

    def highest_bid_with(self, chance: Fraction | float) -> int:
        """The highest bid that holds with at least ``chance``."""
        running = 0
        for total in sorted(self.counts, reverse=True):
            running += self.counts[total]
            if Fraction(running, self.outcomes) >= chance:
                return total
        return min(self.counts)


def total_distribution(known: Sequence[str], unknown: int, deck: Deck = STANDARD) -> TotalDistribution:
    """The distribution of the total when ``known`` cards of ``deck`` are in play and
    ``unknown`` more are drawn at random from the cards not in ``known``."""
    known = [deck.parse(c).name for c in known]
    check_distinct(known, "known cards")
    pool = [c for c in deck.names if c not in known]
    if not 0 <= unknown <= len(pool) - 1:
        raise IllegalAction(
            f"{unknown} unknown cards cannot be in play beside {len(known)} known ones", code=Refusal.BAD_ODDS_QUERY
        )
    printed = {card.name: card.value for card in deck.cards}
    changers = dict(deck.changers)  # in the deck's order, as they apply
    rest_size = len(pool) - unknown
    counts: Counter[int] = Counter()

    def total(numbers: list[int], rules: list[SpecialRule]) -> int:
        if not rules or not numbers:
            return sum(numbers)
        if len(rules) == 1 and (change := rules[0].change) is not None:  # the common case, quicker
            target = change.target(numbers)
            return sum(numbers) - target + change.counts(target)
        changes = dict(rule_changes(numbers, rules))
        return sum(numbers) + sum(after - target for target, after in changes.items())

    for combo in combinations(pool, unknown):
        in_play = [*known, *combo]
        numbers = [v for c in in_play if (v := printed[c]) is not None]
        rules = [rule for name, rule in changers.items() if name in in_play]
        if deck.drawn_for.isdisjoint(in_play):
            # Weighted so that every outcome below counts as much as one (set, replacement).
            counts[total(numbers, rules)] += rest_size
            continue
        plain = sum(numbers)
        for card in pool:
            if card in combo:
                continue
            drawn = printed[card]  # the card drawn for ? counts; ? itself counts 0
            if drawn is not None and not rules:
                counts[plain + drawn] += 1
            elif drawn is not None:
                counts[total([*numbers, drawn], rules)] += 1
            else:
                counts[total(numbers, [rule for name, rule in changers.items() if name in in_play or name == card])] += 1
    outcomes = sum(counts.values())
    return TotalDistribution(dict(counts), outcomes)


def bid_odds(view: SeatView, bid: int) -> Fraction:
    """The chance that ``bid`` holds, from what ``view``'s seat knows."""
    return total_distribution(view.known_cards(), view.unknown_count(), view.deck).probability_at_least(bid)
