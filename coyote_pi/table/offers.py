"""A seat's question to the table: its minus+plus asks, its ok answers yes.

Two questions work this way: at a card wait "enter the cards by hand?"
(:mod:`~coyote_pi.table.manual_entry`) and at the verdict "correct a card?"
(:mod:`~coyote_pi.table.correction`). The chord asks (:func:`ask`): for
:data:`OFFER_SECONDS` the ``OFFER`` timer keeps the asking seat, and the presenter
shows the question. The next press of that seat is the answer (:func:`answer`): ok
says yes, any other (not a held button's repeats) says no, and neither does anything
else. Other seats' presses go on as usual meanwhile.
"""

from __future__ import annotations

from typing import Protocol

from coyote_pi.devices.events import PRESS, REPEAT, Button, ButtonEvent
from coyote_pi.table.correction import Correction
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.part import Table
from coyote_pi.table.stages import VERDICT, WAITS

#: Seconds a seat has to confirm with ok after asking (minus+plus) to enter cards by hand
#: or, at the verdict, to correct a card.
OFFER_SECONDS = 6.0


class ManualSwitch(Protocol):
    """The manual entry, as a yes to "enter the cards by hand?" needs it."""

    def go_manual(self, why: str) -> None: ...


class OfferTable(Table, Protocol):
    """What the questions need of the table: the manual entry a yes switches to."""

    @property
    def entry(self) -> ManualSwitch: ...


def ask(table: Table, event: ButtonEvent, question: str) -> None:
    """``event``'s seat asks ``question`` (for the log: "to enter cards by hand")."""
    table.deadlines.set(Timer.OFFER, table.clock() + OFFER_SECONDS)
    table.state.kept.offer = event.seat
    table.log_press(event, f"asks {question}")


def answer(table: OfferTable, event: ButtonEvent) -> bool:
    """Take ``event`` as the answer to the open question, if it is one (False: it is not)."""
    if event.seat != table.state.kept.offer or event.kind == REPEAT:
        return False
    table.deadlines.cancel(Timer.OFFER)
    if event.button == Button.OK and event.kind == PRESS:
        if table.state.stage in WAITS:
            table.log_press(event, "yes, by hand")
            table.entry.go_manual("asked at the table")
        elif table.state.stage == VERDICT:
            table.log_press(event, "yes, correct a card")
            result = table.game.last_result
            assert result is not None, "the verdict stage shows a settled round"
            table.state.correction = Correction(result, frozenset(table.state.virtual))
    return True
