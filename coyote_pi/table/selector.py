"""The button scheme of a turn: one pending choice, moved with minus/plus, confirmed with ok.

On its turn a seat sees one choice, big, on the OLED. It starts at a bid; ``plus`` and
``minus`` move it by one (a held button repeats in steps of five). Pressing ``minus`` at
the lowest legal bid walks past it into the special choices legal right now, in this
order: ``COYOTE!`` (challenge), ``PEEK``, ``COYOTE CARD``. ``ok`` confirms what is shown.
So a challenge is two deliberate presses (minus, ok), and a held minus never lands on a
special choice: repeats stop at the lowest legal bid.

    >>> from coyote_pi.engine import Legal
    >>> s = Selector(Legal("bidding", (2,), bid=True, min_bid=13, challenge=True, peek=True), start=13)
    >>> s.choice
    Choice(kind=<ChoiceKind.BID: 'bid'>, amount=13)
    >>> s.press("minus")          # True: the choice changed
    True
    >>> s.choice
    Choice(kind=<ChoiceKind.CHALLENGE: 'challenge'>, amount=None)
    >>> s.press("minus"); s.choice.kind
    True
    <ChoiceKind.PEEK: 'peek'>
    >>> s.press("plus"), s.press("plus"), s.choice
    (True, True, Choice(kind=<ChoiceKind.BID: 'bid'>, amount=13))

For the first bid of a round any whole number is legal, so minus simply counts down
(negative bids included). The selector never offers an illegal choice; the engine still
checks every action it is given.

Confirming a choice gives the engine event of the same name; :data:`CHOICE_EVENTS` is
the one table between the two, read both ways (the controller turns a confirmed choice
into an event, the simulated players turn the event they want into the choice to dial)::

    >>> event_for(3, Choice(ChoiceKind.BID, 20))
    Bid(seat=3, amount=20)
    >>> choice_for(Challenge(2))
    Choice(kind=<ChoiceKind.CHALLENGE: 'challenge'>, amount=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from coyote_pi.devices.events import Button
from coyote_pi.engine import Bid, Challenge, Event, Game, Legal, Peek, UseCoyoteCard


class ChoiceKind(StrEnum):
    """What a seat's pending choice is: a bid, or a special choice below the lowest bid."""

    BID = "bid"
    CHALLENGE = "challenge"
    PEEK = "peek"
    COYOTE_CARD = "coyote_card"


#: Special choices in the order minus reaches them below the lowest bid.
SPECIALS: tuple[ChoiceKind, ...] = (ChoiceKind.CHALLENGE, ChoiceKind.PEEK, ChoiceKind.COYOTE_CARD)
#: Bids shown are kept within this range (the OLED has room for four characters).
BID_LIMIT = 999
#: How far one auto-repeat step of a held button moves a bid.
REPEAT_STEP = 5
#: The average a card adds to a total, for the first bid's starting value (see docs).
FIRST_BID_PER_CARD = 4


@dataclass(frozen=True)
class Choice:
    kind: ChoiceKind
    amount: int | None = None


#: The engine event each kind of choice confirms.
CHOICE_EVENTS: dict[ChoiceKind, type] = {ChoiceKind.BID: Bid, ChoiceKind.CHALLENGE: Challenge,
                                         ChoiceKind.PEEK: Peek, ChoiceKind.COYOTE_CARD: UseCoyoteCard}
_CHOICE_KINDS = {event: kind for kind, event in CHOICE_EVENTS.items()}


def event_for(seat: int, choice: Choice) -> Event:
    """The engine event ``seat`` asks for by confirming ``choice``."""
    if choice.kind == ChoiceKind.BID:
        if choice.amount is None:
            raise ValueError("a bid choice carries its amount")
        return Bid(seat, choice.amount)
    event: Event = CHOICE_EVENTS[choice.kind](seat)
    return event


def choice_for(event: Event) -> Choice:
    """The choice that, confirmed, gives ``event`` (a bid, a challenge, a peek or the Coyote card)."""
    return Choice(_CHOICE_KINDS[type(event)], getattr(event, "amount", None))


def opening_bid(game: Game) -> int:
    """Where the turn's choice starts: at the lowest legal bid; for a round's first bid, at
    the last round's total (in round 1: :data:`FIRST_BID_PER_CARD` per card in play)."""
    legal = game.legal()
    if legal.min_bid is not None:
        return legal.min_bid
    if game.results:
        return game.results[-1].score.total
    return FIRST_BID_PER_CARD * (len(game.active_seats) + 1)


class Selector:
    """The pending choice of the seat whose turn it is (see the module docstring)."""

    def __init__(self, legal: Legal, start: int) -> None:
        self.min_bid = legal.min_bid
        legal_now = {ChoiceKind.CHALLENGE: legal.challenge, ChoiceKind.PEEK: legal.peek,
                     ChoiceKind.COYOTE_CARD: legal.coyote_card}
        self.specials = tuple(kind for kind in SPECIALS if legal_now[kind])
        self.amount = self._clamp(start)
        self.special: int | None = None  #: index into :attr:`specials` while one is shown

    @property
    def choice(self) -> Choice:
        if self.special is not None:
            return Choice(self.specials[self.special])
        return Choice(ChoiceKind.BID, self.amount)

    def press(self, button: Button, repeat: bool = False) -> bool:
        """Move the choice for a ``minus`` or ``plus`` press (or repeat); True if it changed."""
        before = self.choice
        if button == Button.PLUS:
            self._up(repeat)
        elif button == Button.MINUS:
            self._down(repeat)
        return self.choice != before

    def _up(self, repeat: bool) -> None:
        if self.special is not None:
            # Back towards the bids; a held plus leaves the special choices at once.
            self.special = None if repeat or self.special == 0 else self.special - 1
            if self.special is None:
                self.amount = self._clamp(self.amount)
            return
        self.amount = self._clamp(self.amount + (REPEAT_STEP if repeat else 1))

    def _down(self, repeat: bool) -> None:
        if self.special is not None:
            if not repeat and self.special + 1 < len(self.specials):
                self.special += 1
            return
        lowest = self.min_bid if self.min_bid is not None else -BID_LIMIT
        if self.amount > lowest:
            self.amount = max(lowest, self.amount - (REPEAT_STEP if repeat else 1))
        elif not repeat and self.specials:
            self.special = 0

    def _clamp(self, amount: int) -> int:
        lowest = self.min_bid if self.min_bid is not None else -BID_LIMIT
        return max(lowest, min(BID_LIMIT, amount))
