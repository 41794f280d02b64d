"""The buttons at the verdict and at the game's end: pages, ok, the record's QR code, a correction.

Both stages show several pages (laid out by :class:`~coyote_pi.table.presenter.Presenter`,
which also turns them by themselves), and every seat in the game may press:

- plus/minus turn to the next or the previous page;
- ok goes on. At the verdict the round is seen: a note in the record, so that a resumed
  table does not show it again (after the last round nothing more is written: the table
  only remembers, in :attr:`Controller.final_seen
  <coyote_pi.table.controller.Controller.final_seen>`, and shows the game's end). At the
  game's end ok starts a new game, if the table offers one;
- minus+plus on the verdict's last page (the record's fingerprint), or anywhere at the
  game's end, shows the record's QR code (its full last hash, for a phone) for
  :data:`QR_SECONDS`; while it shows, ok takes it down and the other buttons do nothing;
- minus+plus on another verdict page asks "correct a card?"
  (:mod:`~coyote_pi.table.correction`), which the same seat's ok answers
  (:mod:`~coyote_pi.table.offers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coyote_pi.devices.events import CHORD, PRESS, Button, ButtonEvent
from coyote_pi.engine import OVER
from coyote_pi.table import offers, screens, store
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.stages import GAME_OVER, VERDICT

if TYPE_CHECKING:
    from coyote_pi.table.controller import Controller

#: How long the record's QR code stays up unless ok takes it down (time to find a phone).
QR_SECONDS = 60.0


def press(controller: Controller, event: ButtonEvent) -> None:
    """A press at the verdict or at the game's end (see the module docstring)."""
    if not _qr_button(controller, event):
        _verdict_button(controller, event)


def acknowledge(controller: Controller) -> None:
    """The verdict has been seen (ok, or ``[pacing] verdict_seconds`` passed): the game goes on."""
    game = controller.game
    if game.phase == OVER:
        controller.final_seen = True  # nothing is written after the last resolution: its fingerprint is final
    else:
        controller.note(table=store.VERDICT_SEEN, round=game.last_result.round)


def _verdict_button(controller: Controller, event: ButtonEvent) -> None:
    """plus/minus turn the pages, ok goes on, minus+plus asks to correct a card."""
    if event.kind == CHORD:
        offers.ask(controller, event, "to correct a card")
        return
    if event.button == Button.OK:
        if event.kind != PRESS:
            return
        if controller.stage == VERDICT:
            controller.log_press(event, "next")
            acknowledge(controller)
        elif controller.new_game_when_over:
            controller.new_game()
        return
    controller.presenter.turn_verdict_page(1 if event.button == Button.PLUS else -1)


def _qr_button(controller: Controller, event: ButtonEvent) -> bool:
    """The QR code's presses; True: the press is used (a chord on another verdict page
    asks to correct a card instead)."""
    if event.kind == CHORD and (controller.stage == GAME_OVER or controller.presenter.on_fingerprint_page()):
        controller.log_press(event, "QR code of the record")
        qr = screens.qr_screen(controller.table.writer.last_hash)
        controller.deadlines.set(Timer.NOTICE, controller.clock() + QR_SECONDS, qr)
        return True
    if controller.deadlines.payload(Timer.NOTICE) is None:
        return False
    if event.button == Button.OK and event.kind == PRESS:
        controller.deadlines.cancel(Timer.NOTICE)
    return True
