"""The simple virtual players: two baselines, the cautious and bluffing levels, and the
two families of bench opponents that reason one raise ahead (:class:`OneAhead`,
:class:`Weighing`; swept over their parameters by ``coyote-pi bench players``).

Each decides from a :class:`~coyote_pi.players.turn.TurnView` alone, with the plain odds
of its seat (:func:`~coyote_pi.players.knowledge.my_reach`): how likely each total is,
given the cards it sees. None of them infers anything from the other seats' bids; that
is what the strong level (:mod:`coyote_pi.players.strong`) adds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from coyote_pi.engine import events
from coyote_pi.players.knowledge import Reach, my_reach, reach_if_mine, their_reach, unseen_cards
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


def challenged_and_short(view: TurnView, bids: np.ndarray, doubt: float) -> np.ndarray:
    """For each bid of ``bids``, the chance (over the cards this seat might hold, all
    equally likely) that the next seat challenges it and the total falls short, the next
    seat challenging whatever holds with less than ``doubt`` from its own eyes."""
    nxt = view.next_seat()
    unseen = unseen_cards(view)
    loss = np.zeros(len(bids))
    for card in unseen:
        challenged = their_reach(view, nxt, card).at_least_each(bids) < doubt
        loss += challenged * (1.0 - reach_if_mine(view, card).at_least_each(bids))
    return loss / len(unseen)


#: How far above the lowest legal bid (opening: the total it reaches with 99 %) a one-ahead player looks.
_ONE_AHEAD_SPAN = 30


@dataclass(frozen=True)
class OneAhead(_PlainOdds):
    """Bench opponent (a family, swept over its two thresholds): challenges a bid that
    holds with less than :attr:`doubt`; otherwise raises to the highest bid whose chance
    of being challenged by the next seat and falling short stays below :attr:`risk`, the
    next seat assumed to challenge as it does itself (or raises by one when none is that
    safe). It reasons one raise ahead with plain odds: it infers nothing from the bids."""

    doubt: float = 0.4
    risk: float = 0.1
    family = "one-ahead"

    @property
    def level(self) -> str:
        return f"{self.family} {self.doubt:.2f}/{self.risk:.2f}"

    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        if view.may_challenge and holds < self.doubt:
            return events.Challenge(view.me)
        low = view.min_bid if view.min_bid is not None else reach.highest_with(0.99)
        bids = np.arange(low, low + _ONE_AHEAD_SPAN)
        safe = np.flatnonzero(challenged_and_short(view, bids, self.doubt) < self.risk)
        return events.Bid(view.me, int(bids[safe[-1]]) if len(safe) else low)


@dataclass(frozen=True)
class Weighing(_PlainOdds):
    """Bench opponent (a family, swept over its two parameters): weighs the bid on the
    table against its own raise by one: it challenges when the bid holds with less than
    :attr:`caution` times the chance that its raise would be challenged by the next seat
    and fall short (the next seat challenging below :attr:`doubt` from its own eyes), and
    otherwise raises by one (opening at its median total)."""

    doubt: float = 0.5
    caution: float = 1.0
    family = "weighing"

    @property
    def level(self) -> str:
        return f"{self.family} {self.doubt:.2f}/{self.caution:.2f}"

    def move(self, view: TurnView, seed: int | str, reach: Reach, holds: float) -> Move:
        if view.min_bid is None:
            return events.Bid(view.me, reach.highest_with(0.5))
        raising = challenged_and_short(view, np.array([view.min_bid]), self.doubt)[0]
        if view.may_challenge and holds < self.caution * raising:
            return events.Challenge(view.me)
        return events.Bid(view.me, view.min_bid)
