"""When the record fails the table: "Not saved" until a write works, or a hold until a person answers.

Every game event and every table note is written and fsynced before it counts (the
controller's ``apply`` and ``note``). A write that fails (a full or failing disk)
changes nothing: the event does not count, the memory does not learn the note, and the
screen says "Not saved" (inverted) until a write works again (:func:`not_saved`,
:func:`saved`); the players simply try again.

What the table cannot get past by itself it shows in the ``record`` stage, before any
other, and waits for ok from any seat: a :class:`RecordHold`, answered by :func:`answer`.
By kind, what happened and what ok does:

- :data:`DAMAGED`: the record was repaired at resume (its damaged tail kept beside it);
  ok goes on with the game;
- :data:`UNRESUMABLE`: the newest record cannot be resumed; ok starts a new game (the
  file is never removed);
- :data:`GONE`: the record was deleted while the game went on; ok starts a new game;
- :data:`NOT_STARTED`: a new record cannot be started; ok tries again.

    >>> from pathlib import Path
    >>> at_start(store.Unresumable(Path("game-0007.jsonl"), "no setup line"))
    RecordHold(kind='unresumable', params={'file': 'game-0007.jsonl'})
    >>> at_start(None) is None     # nothing to resume: setup asks, nothing waits
    True
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from coyote_pi.devices.events import ButtonEvent
from coyote_pi.record import RecordedGame, RecordGone
from coyote_pi.table import store

if TYPE_CHECKING:
    from coyote_pi.table.controller import Controller

#: The kinds of :class:`RecordHold` (see the module docstring).
DAMAGED, UNRESUMABLE, GONE, NOT_STARTED = "damaged", "unresumable", "gone", "not_started"


@dataclass(frozen=True)
class RecordHold:
    """A record problem the table waits on a person for (the ``record`` stage).

    ``kind`` is one of the kinds above, a key of
    :data:`~coyote_pi.table.screens.RECORD_PROBLEMS`; ``params`` fill its texts.
    """

    kind: str
    params: dict = field(default_factory=dict)


def at_start(table: tuple[RecordedGame, store.TableMemory] | store.Unresumable | None) -> RecordHold | None:
    """The hold a controller starts with, given what it resumes (see :class:`Controller
    <coyote_pi.table.controller.Controller>`'s ``table``); None: nothing waits."""
    if isinstance(table, store.Unresumable):
        return RecordHold(UNRESUMABLE, {"file": table.path.name})
    repair = None if table is None else table[0].repair
    if repair is not None and repair.damaged:
        return RecordHold(DAMAGED, {"file": repair.side_file.name, "line": repair.line})
    return None


def not_saved(controller: Controller, error: OSError, effect: str) -> None:
    """A write failed: say so until one works again, or, if the record is gone, hold for good."""
    if isinstance(error, RecordGone):
        controller.log(f"  RECORD GONE ({error}): nothing more is written to it", logging.ERROR)
        controller.hold = RecordHold(GONE, {"file": controller.table.path.name})
        return
    first = controller.unsaved is None  # a camera wait retries every read: the journal gets the first
    controller.unsaved = str(error)
    controller.log(f"  NOT SAVED ({error}): {effect}", logging.ERROR if first else logging.INFO)


def saved(controller: Controller) -> None:
    """A write worked: "Not saved" goes, if it was shown."""
    if controller.unsaved is not None:
        controller.unsaved = None
        controller.log("  the record is written again", logging.WARNING)


def answer(controller: Controller, event: ButtonEvent) -> None:
    """ok on a record problem: go on with the repaired game, retry, or start a new game."""
    hold, controller.hold = controller.hold, None
    controller.log_press(event, f"ok on the record problem {hold.kind!r}")
    if hold.kind == NOT_STARTED:
        controller.start_record()
    elif hold.kind != DAMAGED:
        controller.new_game()
