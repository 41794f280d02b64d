"""What a camera reading does at a card wait: its problems are noted, a settled look is played.

The controller hands every reading of the four card waits (``deal``, ``extra``,
``reveal``, ``draw``) here, once :class:`~coyote_pi.table.camera_reads.CameraReads` has
fed it to the open :class:`~coyote_pi.table.camera_wait.CameraWait`:

- problems the wait has not seen before (a covered card, a stranger card) become a
  ``camera`` note in the record, so that a game's record shows what the camera saw;
- a settled look is played as the players would play it with the buttons: the deal, the
  Coyote card's draw on the extra slot (a note), or the reveal or the draw for ``?``
  with the frame that settled it kept as a photo
  (:class:`~coyote_pi.table.photos.Photos`) before the line is written;
- after ``[pacing] manual_after`` failed reads in a row, the wait goes on the manual path
  (:mod:`~coyote_pi.table.manual_entry`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, assert_never

from coyote_pi.engine import Deal, DrawReplacement, Reveal
from coyote_pi.table import store
from coyote_pi.table.camera_reads import CameraReads, CameraResult
from coyote_pi.table.camera_wait import CameraWait, CardsSettled, Dealt, Drawn, ExtraLaid, Revealed, Wait
from coyote_pi.table.part import Table

if TYPE_CHECKING:
    from coyote_pi.table.manual_entry import ManualEntry
    from coyote_pi.table.photos import Photos
    from coyote_pi.table.presenter import Listener


class CardWaitTable(Table, Protocol):
    """What a settled reading needs of the table: the camera's wait, the photos, the
    listeners that see a reveal's frame, the manual entry after failed reads."""

    camera: CameraReads
    entry: ManualEntry
    listeners: list[Listener]

    @property
    def photos(self) -> Photos: ...

    def wait_round(self) -> int: ...


def on_reading(table: CardWaitTable, wait: CameraWait, settled: CardsSettled | None, result: CameraResult) -> None:
    """``result`` has been fed to ``wait``, which says what is ``settled`` (None: nothing yet)."""
    if problems := table.camera.new_problems():  # observations go to the record too
        note: dict[str, object] = dict(table=store.CAMERA, round=table.wait_round(), wait=wait.name,
                                       problems=list(problems))
        if result.error:
            note["error"] = result.error
        table.note(**note)
    if settled is not None:
        _play(table, wait.name, settled, result)
    elif wait.failures >= table.pacing.manual_after:
        table.entry.go_manual(f"{wait.failures} failed camera reads")


def _play(table: CardWaitTable, name: Wait, settled: CardsSettled, result: CameraResult) -> None:
    """The wait ``name`` has settled on ``settled``: apply what the cards say."""
    game = table.game
    event: Reveal | DrawReplacement
    match settled:
        case Dealt():
            table.log(f"camera: the cards of round {game.round_number + 1} are on the table")
            table.apply(Deal(dict(settled.cards)))
            return
        case ExtraLaid():
            table.log("camera: the Coyote card's draw lies face down on the extra slot")
            table.note(table=store.EXTRA_ON_MAT, round=game.current_round.number, by="camera")
            return
        case Revealed():
            event = Reveal(settled.centre, settled.extra, dict(settled.seats) or None)
        case Drawn():
            event = DrawReplacement(settled.card)
        case _:
            assert_never(settled)
    round_number = game.current_round.number
    try:
        photo = table.photos.keep(round_number, name, result.frame)
    except OSError as error:  # the cards still count; the record says there is no photo
        table.log(f"  the {name} photo was not kept ({error})")
        photo = None
    if table.apply(event, photo):
        for listener in table.listeners:
            listener.on_reveal(round_number, name, result.frame, result.reading)
    else:
        table.photos.discard(photo)
