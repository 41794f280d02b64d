"""Correcting a misread card at the verdict: any seat opens it, the two seats of the challenge confirm it.

The verdict's explanation names every card of the round. If the camera read one wrongly,
any seat presses minus+plus together on the verdict (the table asks "Correct a card?")
and then ok within a few seconds. Then, with the buttons of any seat:

1. **which card**: minus/plus walk through the round's cards (each seat's, the centre,
   the Coyote card's draw, the card drawn for ``?``), ok chooses one;
2. **what it is**: minus/plus dial the card, starting at the one the camera read, ok
   chooses it;
3. **confirm**: the challenger and the bidder each press ok at their own seat. A minus
   or plus goes back to dialling; when both have confirmed, the table applies a
   :class:`~coyote_pi.engine.events.Correct` and shows the verdict again. A virtual
   seat (:mod:`~coyote_pi.table.virtual_seats`) has no buttons and agrees by itself:
   the people among the two confirm, and when both are virtual, any seat's ok does.

Minus+plus at any seat cancels. Nothing is recorded until both seats have confirmed:
then the record keeps the correction line (what, who confirmed, when) after the
camera's reading and the first verdict. Once the next round is dealt the verdict stands
for good (the engine refuses a correction then).

:class:`Correction` is the entry itself, plain data that takes presses (the table's
state holds it, so this module imports no part);
:func:`~coyote_pi.table.verdict_buttons.correct` is the table's side: it says at the
table what a press did and applies the confirmed correction.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from coyote_pi import cards
from coyote_pi.devices.events import CHORD, PRESS, REPEAT, REPEATING_BUTTONS, Button, ButtonEvent
from coyote_pi.engine import Correct, RoundResult
from coyote_pi.engine.events import CardPlace, seat_place


class Step(StrEnum):
    """Where the correction stands (the prompt and the page carry it as text)."""

    ITEM = "item"  #: which card
    CARD = "card"  #: what it is
    CONFIRM = "confirm"  #: the seats of the challenge confirm


class Outcome(StrEnum):
    """What :meth:`Correction.press` says happened (the log's words)."""

    CANCELLED = "cancelled"
    CONFIRMED = "confirmed"
    SAME_CARD = "same card"
    NOT_CONFIRMING = "not confirming"


@dataclass
class Correction:
    """The correction of ``result`` (the last verdict) being entered at the table."""

    result: RoundResult
    #: The virtual seats of the game: they agree without a press.
    virtual: frozenset[int] = frozenset()
    step: Step = Step.ITEM
    item_index: int = 0
    card_index: int = 0
    confirmed: frozenset[int] = frozenset()

    @property
    def items(self) -> list[str]:
        """The round's cards, as :class:`Correct` names them, in the order they are offered."""
        result = self.result
        found = [seat_place(seat) for seat in sorted(result.seat_cards)] + [CardPlace.CENTRE]
        found += [CardPlace.EXTRA] if result.extra is not None else []
        return found + ([CardPlace.DRAW] if result.score.replacement is not None else [])

    @property
    def item(self) -> str:
        return self.items[self.item_index]

    def read(self, item: str | None = None) -> str:
        """The card the verdict has for ``item`` (the one chosen, by default)."""
        item = item or self.item
        card = self.result.card_at(item)
        if card is None:  # :attr:`items` lists the extra and the draw only where the verdict has them
            raise ValueError(f"the verdict has no {item} card")
        return card

    @property
    def card(self) -> str:
        """The card dialled now."""
        return cards.ALL_CARDS[self.card_index]

    @property
    def confirmers(self) -> tuple[int, ...]:
        """The seats whose ok the correction needs: the challenger and the bidder."""
        return tuple(sorted((self.result.bidder, self.result.challenger)))

    @property
    def people(self) -> tuple[int, ...]:
        """The confirmers who press ok (the virtual ones agree by themselves)."""
        return tuple(seat for seat in self.confirmers if seat not in self.virtual)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The people whose ok the correction still waits for."""
        return tuple(seat for seat in self.people if seat not in self.confirmed)

    def event(self) -> Correct:
        return Correct(self.item, self.card, self.confirmers)

    def press(self, event: ButtonEvent) -> Outcome | None:
        """Take one press (see the module docstring); what happened, or None for a step."""
        if event.kind == CHORD:
            return Outcome.CANCELLED
        moves = event.button in REPEATING_BUTTONS and event.kind in (PRESS, REPEAT)
        step = 1 if event.button == Button.PLUS else -1
        ok = event.button == Button.OK and event.kind == PRESS
        if self.step == Step.ITEM:
            if moves:
                self.item_index = (self.item_index + step) % len(self.items)
            elif ok:
                self.step, self.card_index = Step.CARD, cards.ALL_CARDS.index(self.read())
        elif self.step == Step.CARD:
            if moves:
                self.card_index = (self.card_index + step) % len(cards.ALL_CARDS)
            elif ok and self.card == self.read():
                return Outcome.SAME_CARD
            elif ok:
                self.step, self.confirmed = Step.CONFIRM, frozenset()
        elif moves and event.kind == PRESS:  # changing one's mind: dial again
            self.step = Step.CARD
        elif ok and self.people and event.seat not in self.people:
            return Outcome.NOT_CONFIRMING
        elif ok:  # a confirmer's ok, or anyone's when both confirmers are virtual
            self.confirmed |= {event.seat} & set(self.people)
            if not self.waiting:
                return Outcome.CONFIRMED
        return None
