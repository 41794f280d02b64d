"""The strong level: a search over its information set, with beliefs from the bids.

What a seat does not know is small: its own card and the face-down card(s). The other
seats see its card, so their bids and challenges say something about it. The strong
player

1. weighs every card it might hold (its information set, enumerated exactly) by how
   likely that card makes the public actions of the round, under a model of the other
   seats: a seat bids ``x`` about as often as ``x`` holds from its eyes (its latest bid
   only: one raising by one all round says no more than its last bid)
   (:attr:`Strong.bluff_floor` keeps room for bluffs), and challenges a bid about as often
   as it fails from its eyes;
2. for each move computes the chance of losing the round (the only thing that costs a
   peek card): a challenge loses when the bid holds; a bid ``x`` loses when the next seat
   challenges it and the total falls short; if it passes, the seats in between may
   settle the round (:attr:`Strong.others_challenge`) or the bidding comes back higher,
   where the same choice is faced again (a backward induction from the highest possible
   total down). The next seat's challenge is predicted from that seat's own odds of
   ``x``, for every card this seat might hold;
3. takes the move that loses least (ties: the lowest bid).

That valuation, every legal move with its chance of losing the round, is public:
:func:`value_moves` (what the review of a person's decisions reads), and the decision is
its least value, so the two cannot drift apart.

It is deterministic given its view. Its parameters were chosen by self-play against the
other levels and the baselines (``docs/players.md``). Its only tables are the odds
caches of :mod:`coyote_pi.players.knowledge`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from coyote_pi.engine import events
from coyote_pi.players.knowledge import Reach, reach_if_mine, their_reach, unseen_cards
from coyote_pi.players.turn import GUESSING, Move, TurnView

#: How far above the lowest legal bid the strong player looks for its bid.
_REACH_ABOVE = 24


@dataclass(frozen=True)
class Belief:
    """The chance of each card this seat might hold, given the round's public actions."""

    weights: dict[str, float]  #: card -> probability, summing to 1
    mine: dict[str, Reach]  #: card -> the total's reach if this seat held it

    def holds(self, bid: int) -> float:
        """The chance that ``bid`` holds, over this belief."""
        return sum(weight * self.mine[card].at_least(bid) for card, weight in self.weights.items())


@dataclass(frozen=True)
class Strong:
    """The strong virtual player (see the module's text)."""

    bluff_floor: float = 0.3  #: the least likelihood of any bid, whatever its odds
    challenge_sharpness: float = 8.0  #: how sharply a seat challenges as a bid's odds fall
    challenge_point: float = 0.45  #: the odds at which a seat challenges half the time
    others_challenge: float = 0.3  #: the chance each seat between settles the round by a challenge
    use_coyote_card: bool = True

    level = "strong"

    def decide(self, view: TurnView, seed: int | str) -> Move:
        values = self.value_moves(view)
        if view.phase == GUESSING:
            return min(values, key=values.__getitem__)
        bids = {move: loss for move, loss in values.items() if isinstance(move, events.Bid)}
        bid = min(bids, key=bids.__getitem__)  # the first of equals: the lowest bid
        challenge = events.Challenge(view.me)
        if challenge in values and values[challenge] <= bids[bid]:
            return challenge
        if events.UseCoyoteCard(view.me) in values:
            return events.UseCoyoteCard(view.me)
        return bid

    def value_moves(self, view: TurnView) -> dict[Move, float]:
        """Every move this seat may make now, with its chance of losing the round by it
        (the valuation this level plays by: :func:`value_moves`). Bids run from the
        lowest legal one to :data:`_REACH_ABOVE` above it; using the Coyote card is
        valued as the best raise that must follow it; a Trickster guess by the chance
        that it is wrong. The moves come in the order :meth:`decide` prefers among equal
        values: a challenge, the Coyote card, then the bids lowest first."""
        belief = self.belief(view)
        if view.phase == GUESSING:
            bidder, challenger = view.guess_options
            holds = belief.holds(view.seat.bid or 0)
            return {events.Guess(view.me, bidder): 1.0 - holds, events.Guess(view.me, challenger): holds}
        low, losses = self._raise_losses(view, belief)
        values: dict[Move, float] = {}  # in the order decide prefers among equals
        if view.may_challenge:
            values[events.Challenge(view.me)] = belief.holds(view.seat.bid or 0)
        if view.may_use_coyote_card and self.use_coyote_card:
            values[events.UseCoyoteCard(view.me)] = float(losses.min())
        values.update((events.Bid(view.me, low + index), float(loss)) for index, loss in enumerate(losses))
        return values

    def belief(self, view: TurnView) -> Belief:
        """Weigh each card this seat might hold by the public actions of the round."""
        unseen = unseen_cards(view)
        log_weights = dict.fromkeys(unseen, 0.0)
        bids = view.bids
        latest = {bidder: amount for bidder, amount in bids}  # a seat's later bids replace its earlier ones
        for bidder, amount in latest.items():
            if bidder == view.me:
                continue
            for card in unseen:
                odds = their_reach(view, bidder, card).at_least(amount)
                log_weights[card] += math.log(self.bluff_floor + odds)
        if view.phase == GUESSING and bids:
            bidder, challenger = view.guess_options
            for card in unseen:
                odds = their_reach(view, challenger, card).at_least(bids[-1][1])
                log_weights[card] += math.log(self.bluff_floor + 1.0 - odds)
        top = max(log_weights.values())
        raw = {card: math.exp(value - top) for card, value in log_weights.items()}
        total = sum(raw.values())
        return Belief({card: value / total for card, value in raw.items()},
                      {card: reach_if_mine(view, card) for card in unseen})

    def _raise_losses(self, view: TurnView, belief: Belief) -> tuple[int, np.ndarray]:
        """The lowest bid worth considering, and the chance of losing the round by a
        raise to it and to each of the :data:`_REACH_ABOVE` bids above it.

        A backward induction over the bids to come: ``facing[b]`` is this seat's chance
        of losing when the bidding comes back to it at ``b`` (it challenges or raises,
        whichever loses less). A raise to ``x`` loses when the next seat challenges and
        the total falls short; otherwise the seats in between may settle the round among
        themselves, or the bidding comes back at about ``x`` plus one per seat between.
        """
        seats = len(view.playing_seats())
        back = seats - 1  # the raises (by one at least) before the bidding is back here
        settled = 1.0 - (1.0 - self.others_challenge) ** (seats - 2)
        low = view.min_bid if view.min_bid is not None else min(
            reach.highest_with(0.99) for reach in belief.mine.values())
        top = max(low, *(reach.highest_with(1e-12) + 1 for reach in belief.mine.values()))  # nothing reaches it
        bids = np.arange(low, top + 1)
        nxt = view.next_seat()
        cards = list(belief.weights)
        weights = np.array([belief.weights[card] for card in cards])
        mine = np.array([belief.mine[card].at_least_each(bids) for card in cards])  # card x bid
        theirs = np.array([their_reach(view, nxt, card).at_least_each(bids) for card in cards])
        challenged = 1.0 / (1.0 + np.exp(self.challenge_sharpness * (theirs - self.challenge_point)))
        fails = weights @ (challenged * (1.0 - mine))  # the next seat challenges and the total falls short
        passes = (1.0 - weights @ challenged) * (1.0 - settled)  # the bidding goes on and comes back here
        holds = weights @ mine
        span = len(bids)
        facing = np.zeros(span + back)  # at and above top: 0, a challenge always wins
        raising = np.zeros(span)
        for index in range(span - 1, -1, -1):
            raising[index] = fails[index] + passes[index] * facing[index + back]
            later = raising[index + 1:index + 1 + _REACH_ABOVE]
            facing[index] = min(holds[index], later.min()) if len(later) else holds[index]
        return low, raising[:_REACH_ABOVE + 1]


#: The strong level as the table seats it.
STRONG = Strong()


def value_moves(view: TurnView) -> dict[Move, float]:
    """The strong level's valuation of every move ``view``'s seat may make now: the
    chance of losing the round by it (for a Trickster guess, of guessing wrong). A pure
    function of the view; the strong level plays the move that loses least, so a move
    valued above that minimum is a mistake by exactly the difference."""
    return STRONG.value_moves(view)
