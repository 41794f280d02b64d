"""What a part of the controller sees: the table's state, and the few things it may do.

The controller (:mod:`~coyote_pi.table.controller`) owns one :class:`TableState`: the
game's record and the table's memory, the stage, and what the open stage keeps (the
turn's selector, a correction, the setup questions, a record problem). A part (the
turn's buttons, the manual entry, the verdict's buttons, the presenter, the web side...)
never receives the controller. It receives a :class:`Table`: the state, and the
controller's ways to act, each of which keeps the table's promises (a game event or a
note is written and fsynced before it counts; a refusal is flashed; every line goes to
the log and the listeners)::

    table.apply(event)       # a game event, through the record
    table.note(table=...)    # a table note, through the record, then the memory learns it
    table.flash(text)        # a short message over the screen
    table.log(line)          # one line of the play-by-play
    table.log_press(event, effect)

A part that needs more declares it: its module defines a Protocol that extends
:class:`Table` with exactly what it uses (``VerdictTable`` adds ``new_game``, the
presenter's ``turn_verdict_page``...), and the controller satisfies them all, so mypy
checks every seam where the controller hands itself over. No module but the ones that
build the controller imports it (tests/test_layers.py checks).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from coyote_pi.config import Pacing
from coyote_pi.devices.events import ButtonEvent
from coyote_pi.engine import Event, Game
from coyote_pi.record import Photo, RecordedGame
from coyote_pi.table.deadlines import Deadlines
from coyote_pi.table.stages import Stage
from coyote_pi.table.store import TableMemory
from coyote_pi.words.translator import Translator

if TYPE_CHECKING:  # the parts that keep a stage's state import this module themselves
    from coyote_pi.table.correction import Correction
    from coyote_pi.table.record_hold import RecordHold
    from coyote_pi.table.selector import Selector
    from coyote_pi.table.setup_wizard import SetupWizard


@dataclass
class TableState:
    """Everything the table knows beside its devices; the controller owns the one instance.

    ``recorded`` is the game being played with its record (None: setup, or a record
    problem before any game), ``memory`` what the table noted in it. ``stage`` is derived
    again after every item (never set by a part). The rest belongs to one stage each.
    """

    recorded: RecordedGame | None = None
    memory: TableMemory = field(default_factory=TableMemory)
    stage: Stage = Stage.SETUP
    #: The record problem that waits for a person (the ``record`` stage), if any.
    hold: RecordHold | None = None
    #: Why the last write failed, while the record cannot be written (None: it can).
    unsaved: str | None = None
    #: The setup questions being answered (the ``setup`` stage), if any.
    setup: SetupWizard | None = None
    #: The turn's pending choice (the ``turn`` stage), if any.
    selector: Selector | None = None
    #: The correction of the verdict being entered (the ``correct`` stage), if any.
    correction: Correction | None = None
    #: The seats the table plays itself in the game being played: seat -> level
    #: (:mod:`~coyote_pi.table.virtual_seats`). Such a seat never presses a button, so
    #: whatever would wait for its ok takes anyone's.
    virtual: dict[int, str] = field(default_factory=dict)
    #: The stands the camera counted during setup (shown beside the players' question).
    stands: int | None = None
    #: The last verdict has been seen: the game's end shows (no note is written after the last round).
    final_seen: bool = False
    #: The newest record, when it could not be resumed: told until the first game of this run is dealt.
    not_resumed: str | None = None

    @property
    def game(self) -> Game | None:
        """The game being played (None: none yet)."""
        return None if self.recorded is None else self.recorded.game

    def playing(self) -> RecordedGame:
        """The record of the game being played. Only the stages of a game ask for it; before
        one (setup, a record problem) there is none, and asking is a bug (RuntimeError)."""
        if self.recorded is None:
            raise RuntimeError("the table has no game in this stage")
        return self.recorded


class Table(Protocol):
    """The seam every part gets: the state, the clock and timers, the words, the actions."""

    state: TableState
    tr: Translator
    deadlines: Deadlines
    clock: Callable[[], float]
    pacing: Pacing

    @property
    def game(self) -> Game:
        """The game being played (a part acts only in the stages of a game)."""
        ...

    def apply(self, event: Event, photo: Photo | None = None) -> bool: ...

    def note(self, **note: object) -> bool: ...

    def flash(self, text: str) -> None: ...

    def log(self, line: str, level: int = logging.INFO) -> None: ...

    def log_press(self, event: ButtonEvent, effect: str) -> None: ...
