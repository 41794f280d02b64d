"""The simple virtual players: two baselines and the cautious and bluffing levels.

Each decides from a :class:`~coyote_pi.players.turn.TurnView` alone, with the plain odds
of its seat (:func:`~coyote_pi.players.knowledge.my_reach`): how likely each total is,
given the cards it sees. None of them infers anything from the other seats' bids; that
is what the strong level (:mod:`coyote_pi.players.strong`) adds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from coyote_pi.engine import events
from coyote_pi.players.knowledge import Reach, my_reach
from coyote_pi.players.turn import GUESSING, Move, TurnView


def guess_from(view: TurnView, holds: float) -> events.Guess:
    """Trickster: guess the bidder when the bid holds with at least even odds."""
    bidder, challenger = view.guess_options
    return events.Guess(view.me, bidder if holds >= 0.5 else challenger)


def _bid_odds(view: TurnView, reach: Reach) -> float:
    """The chance that the bid on the table holds (1 when there is none)."""
    return 1.0 if view.seat.bid is None else reach.at_least(view.seat.bid)


class _PlainOdds(ABC):
    """What the levels below share: they guess from the plain odds of the bid on the
    table, and otherwise :meth:`move` from those odds (``reach``: the chance of each
    total; ``holds``: the chance that the bid on the table holds)."""

    def decide(self, view: TurnView, seed: int | str) -> Move:
        reach = my_reach(view)
        holds = _bid_odds(view, reach)
        if view.phase == GUESSING:
            return guess_from(view, holds)
        return self.move(view, seed, reach, holds)

    @abstractmethod
    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        """The level's move in the bidding (or its Coyote card)."""


class RaiseByOne(_PlainOdds):
    """Baseline: opens at its median total, then always raises by one. It challenges only
    a bid that cannot hold at all (else two of them left alone would bid for ever)."""

    level = "raise-by-one"

    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        if view.min_bid is None:
            return events.Bid(view.me, reach.highest_with(0.5))
        if view.may_challenge and holds == 0:
            return events.Challenge(view.me)
        return events.Bid(view.me, view.min_bid)


class HalfOdds(_PlainOdds):
    """Baseline: challenges when the last bid holds with less than even odds, otherwise
    raises by one (and opens at its median total)."""

    level = "half-odds"

    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        if view.may_challenge and holds < 0.5:
            return events.Challenge(view.me)
        if view.min_bid is None:
            return events.Bid(view.me, reach.highest_with(0.5))
        return events.Bid(view.me, view.min_bid)


class Cautious(_PlainOdds):
    """Bids only what holds with high probability and challenges a bid that is unlikely.

    It opens at the highest total it reaches with :attr:`SAFE` chance, raises by one
    while that raise is still that safe, and otherwise challenges (when it may). It never
    uses the Coyote card: a card it may not get to see is a risk it does not take.
    """

    level = "cautious"
    SAFE = 0.75  #: the chance a bid of its own must hold with
    UNLIKELY = 0.5  #: below this chance the bid on the table is challenged at once

    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        if view.min_bid is None:
            return events.Bid(view.me, reach.highest_with(self.SAFE))
        if view.may_challenge and holds < self.UNLIKELY:
            return events.Challenge(view.me)
        if reach.at_least(view.min_bid) >= self.SAFE or not view.may_challenge:
            return events.Bid(view.me, view.min_bid)
        return events.Challenge(view.me)


class Bluffer(_PlainOdds):
    """Mixes its bids from a distribution and now and then raises past the odds.

    Each bid aims at a total it reaches with a chance drawn between :attr:`AIM`, and one
    bid in :attr:`BLUFF_SHARE` goes 2 to 6 higher still. It challenges a bid whose
    chance is below a threshold drawn from :attr:`DOUBT`, and uses the Coyote card half
    the times it may.
    """

    level = "bluffer"
    AIM = (0.25, 0.9)
    BLUFF_SHARE = 0.25
    DOUBT = (0.15, 0.45)

    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        rng = view.rng(seed)
        if view.may_use_coyote_card and rng.random() < 0.5:
            return events.UseCoyoteCard(view.me)
        if view.may_challenge and holds < rng.uniform(*self.DOUBT):
            return events.Challenge(view.me)
        wanted = self._aim(reach, rng)
        if view.min_bid is None:
            return events.Bid(view.me, wanted)
        return events.Bid(view.me, max(view.min_bid, wanted))

    def _aim(self, reach: Reach, rng: random.Random) -> int:
        wanted = reach.highest_with(rng.uniform(*self.AIM))
        if rng.random() < self.BLUFF_SHARE:
            wanted += rng.randint(2, 6)
        return wanted
