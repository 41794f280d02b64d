"""Exact odds: how likely a bid holds, given what one seat knows.

The cards a seat cannot see (its own, the centre card unless it peeked, a Coyote-card
draw it did not make) are a uniformly random set from the cards it has not seen; if
``?`` ends up in play, its replacement is a uniformly random card from those left in the
deck. Enumerating every such set and every replacement gives the exact distribution of
the total, as a count of equally likely outcomes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from coyote_pi import cards
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.engine.rules import check_distinct
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


def total_distribution(known: Sequence[str], unknown: int) -> TotalDistribution:
    """The distribution of the total when ``known`` cards are in play and ``unknown``
    more are drawn at random from the cards not in ``known``."""
    known = [cards.parse_card(c) for c in known]
    check_distinct(known, "known cards")
    pool = [c for c in cards.ALL_CARDS if c not in known]
    if not 0 <= unknown <= len(pool) - 1:
        raise IllegalAction(
            f"{unknown} unknown cards cannot be in play beside {len(known)} known ones", code="bad_odds_query"
        )
    base_sum = sum(cards.value(c) for c in known if cards.is_number(c))
    base_max = max((cards.value(c) for c in known if cards.is_number(c)), default=None)
    base_max0 = cards.MAX0 in known
    base_question = cards.QUESTION in known
    rest_size = len(pool) - unknown
    counts: Counter[int] = Counter()

    for combo in combinations(pool, unknown):
        total, highest, has_max0, has_question = base_sum, base_max, base_max0, base_question
        for card in combo:
            if card == cards.MAX0:
                has_max0 = True
            elif card == cards.QUESTION:
                has_question = True
            else:
                v = cards.value(card)
                total += v
                if highest is None or v > highest:
                    highest = v
        if not has_question:
            # Weighted so that every outcome below counts as much as one (set, replacement).
            counts[_max0_total(total, highest, has_max0)] += rest_size
            continue
        for card in pool:
            if card in combo:
                continue
            if card == cards.MAX0:
                counts[_max0_total(total, highest, True)] += 1
            else:
                v = cards.value(card)
                top = v if highest is None or v > highest else highest
                counts[total + v - top if has_max0 else total + v] += 1
    outcomes = sum(counts.values())
    return TotalDistribution(dict(counts), outcomes)


def _max0_total(total: int, highest: int | None, has_max0: bool) -> int:
    return total - highest if has_max0 and highest is not None else total


def bid_odds(view: SeatView, bid: int) -> Fraction:
    """The chance that ``bid`` holds, from what ``view``'s seat knows."""
    return total_distribution(view.known_cards(), view.unknown_count()).probability_at_least(bid)
