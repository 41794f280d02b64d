"""When the record fails the table: "Not saved" until a write works, or a hold until a person answers.

Every game event and every table note is written and fsynced before it counts (the
controller's ``apply`` and ``note``). A write that fails (a full or failing disk)
changes nothing: the event does not count, the memory does not learn the note, and the
screen says "Not saved" (inverted) until a write works again (:func:`not_saved`,
:func:`saved`); the players simply try again.

What the table cannot get past by itself it shows in the ``record`` stage, before any
other, and waits for ok from any seat: a :class:`~coyote_pi.table.state.RecordHold`, answered by :func:`answer`.
By kind, what happened and what ok does:

- ``damaged`` (:attr:`~coyote_pi.table.state.HoldKind.DAMAGED`): the record was repaired at resume (its damaged tail kept beside it);
  ok goes on with the game;
- ``unresumable``: the newest record cannot be resumed; ok starts a new game (the
  file is never removed);
- ``gone``: the record was deleted while the game went on; ok starts a new game;
- ``not_started``: a new record cannot be started; ok tries again.

    >>> from pathlib import Path
    >>> hold = at_start(store.Unresumable(Path("game-0007.jsonl"), "no setup line"))
    >>> hold.kind is HoldKind.UNRESUMABLE, hold.params
    (True, {'file': 'game-0007.jsonl'})
    >>> at_start(None) is None     # nothing to resume: setup asks, nothing waits
    True
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from coyote_pi.devices.events import ButtonEvent
from coyote_pi.record import RecordedGame, RecordGone
from coyote_pi.table import store
from coyote_pi.table.part import Table
from coyote_pi.table.state import HoldKind, RecordHold

if TYPE_CHECKING:
    from coyote_pi.table.game_start import GameStart


class HoldTable(Table, Protocol):
    """What a record problem needs of the table: to start the record again, or a new game."""

    game_start: GameStart


def at_start(resumed: tuple[RecordedGame, store.TableMemory] | store.Unresumable | None) -> RecordHold | None:
    """The hold a controller starts with, given what it resumes (see :class:`ControllerOptions
    <coyote_pi.table.controller.ControllerOptions>`' ``resumed``); None: nothing waits."""
    if isinstance(resumed, store.Unresumable):
        return RecordHold(HoldKind.UNRESUMABLE, {"file": resumed.path.name})
    repair = None if resumed is None else resumed[0].repair
    if repair is not None and repair.damaged:
        return RecordHold(HoldKind.DAMAGED, {"file": repair.side_file.name, "line": repair.line})
    return None


def not_saved(table: HoldTable, error: OSError, effect: str) -> None:
    """A write failed: say so until one works again, or, if the record is gone, hold for good."""
    if isinstance(error, RecordGone):
        table.log(f"  RECORD GONE ({error}): nothing more is written to it", logging.ERROR)
        table.state.hold = RecordHold(HoldKind.GONE, {"file": table.state.playing().path.name})
        return
    first = table.state.unsaved is None  # a camera wait retries every read: the journal gets the first
    table.state.unsaved = str(error)
    table.log(f"  NOT SAVED ({error}): {effect}", logging.ERROR if first else logging.INFO)


def saved(table: HoldTable) -> None:
    """A write worked: "Not saved" goes, if it was shown."""
    if table.state.unsaved is not None:
        table.state.unsaved = None
        table.log("  the record is written again", logging.WARNING)


def answer(table: HoldTable, event: ButtonEvent) -> None:
    """ok on a record problem: go on with the repaired game, retry, or start a new game."""
    hold, table.state.hold = table.state.hold, None
    assert hold is not None, "the record stage is derived from a kept record problem"
    table.log_press(event, f"ok on the record problem {hold.kind.value!r}")
    if hold.kind == HoldKind.NOT_STARTED:
        table.game_start.start_record()
    elif hold.kind != HoldKind.DAMAGED:
        table.game_start.new_game()
