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
  (:mod:`~coyote_pi.table.offers`); then, in the ``correct`` stage, every press goes to
  the correction being entered (:func:`correct`), which the challenge's two seats confirm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from coyote_pi.devices.events import CHORD, PRESS, Button, ButtonEvent
from coyote_pi.engine import OVER
from coyote_pi.table import offers, screens, store
from coyote_pi.table.correction import Outcome, Step
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.part import Table
from coyote_pi.table.stages import GAME_OVER, VERDICT

if TYPE_CHECKING:
    from coyote_pi.table.game_start import GameStart
    from coyote_pi.table.presenter import Presenter

#: How long the record's QR code stays up unless ok takes it down (time to find a phone).
QR_SECONDS = 60.0


class VerdictTable(Table, Protocol):
    """What the verdict's buttons need of the table: its pages, and a new game at the end."""

    presenter: Presenter
    new_game_when_over: bool
    game_start: GameStart


def press(table: VerdictTable, event: ButtonEvent) -> None:
    """A press at the verdict or at the game's end (see the module docstring)."""
    if not _qr_button(table, event):
        _verdict_button(table, event)


def acknowledge(table: VerdictTable) -> None:
    """The verdict has been seen (ok, or ``[pacing] verdict_seconds`` passed): the game goes on."""
    game = table.game
    if game.phase == OVER:
        table.state.final_seen = True  # nothing is written after the last resolution: its fingerprint is final
    else:
        last = game.last_result
        assert last is not None, "the verdict stage is derived from a round's result"
        table.note(table=store.VERDICT_SEEN, round=last.round)


def correct(table: Table, event: ButtonEvent) -> None:
    """A press in the ``correct`` stage: the table's correction takes it, and the
    table says what happened; a confirmed correction is applied, and ends the stage."""
    correction = table.state.correction
    assert correction is not None, "the correct stage is derived from a correction being kept"
    outcome = correction.press(event)
    table.log_press(event, outcome or f"{correction.step}: {correction.item} {correction.card}")
    if outcome == Outcome.CANCELLED:
        table.state.correction = None
        table.flash(table.tr("msg.correction_cancelled"))
    elif outcome == Outcome.SAME_CARD:
        table.flash(table.tr("msg.same_card"))
    elif outcome == Outcome.NOT_CONFIRMING:
        table.flash(table.tr.for_seats("msg.not_confirming", correction.people))
    elif outcome == Outcome.CONFIRMED:
        if table.apply(correction.event()):
            table.state.correction = None
            table.flash(table.tr("msg.corrected"))
        else:  # the engine's refusal is on the screen; the card can be dialled again
            correction.step = Step.CARD


def _verdict_button(table: VerdictTable, event: ButtonEvent) -> None:
    """plus/minus turn the pages, ok goes on, minus+plus asks to correct a card."""
    if event.kind == CHORD:
        offers.ask(table, event, "to correct a card")
        return
    if event.button == Button.OK:
        if event.kind != PRESS:
            return
        if table.state.stage == VERDICT:
            table.log_press(event, "next")
            acknowledge(table)
        elif table.new_game_when_over:
            table.game_start.new_game()
        return
    table.presenter.turn_verdict_page(1 if event.button == Button.PLUS else -1)


def _qr_button(table: VerdictTable, event: ButtonEvent) -> bool:
    """The QR code's presses; True: the press is used (a chord on another verdict page
    asks to correct a card instead)."""
    if event.kind == CHORD and (table.state.stage == GAME_OVER or table.presenter.on_fingerprint_page()):
        table.log_press(event, "QR code of the record")
        last_hash = table.state.playing().writer.last_hash
        assert last_hash is not None, "a verdict follows the lines of its round"
        qr = screens.qr_screen(last_hash)
        table.deadlines.set(Timer.NOTICE, table.clock() + QR_SECONDS)
        table.state.kept.notice = qr
        return True
    if table.state.kept.notice is None:
        return False
    if event.button == Button.OK and event.kind == PRESS:
        table.deadlines.cancel(Timer.NOTICE)
    return True
