"""What a part of the controller sees: the table's state, and the few things it may do.

The controller (:mod:`~coyote_pi.table.controller`) owns one
:class:`~coyote_pi.table.state.TableState` (its own module, which imports no part). A
part (the turn's buttons, the manual entry, the verdict's buttons, the presenter, the
web side...) never receives the controller. It receives a :class:`Table`: the state,
and the controller's ways to act, each of which keeps the table's promises (a game event or a
note is written and fsynced before it counts; a refusal is flashed; every line goes to
the log and the listeners)::

    table.apply(event)       # a game event, through the record
    table.note(table=...)    # a table note, through the record, then the memory learns it
    table.flash(text)        # a short message over the screen
    table.log(line)          # one line of the play-by-play
    table.log_press(event, effect)

A part that needs more declares it: its module defines a Protocol that extends
:class:`Table` with exactly what it uses (``VerdictTable`` adds the ``game_start`` part, the
presenter's ``turn_verdict_page``...), and the controller satisfies them all, so mypy
checks every seam where the controller hands itself over. No module but the ones that
build the controller imports it (tests/test_layers.py checks).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from coyote_pi.config import Pacing
from coyote_pi.devices.events import ButtonEvent
from coyote_pi.engine import Event, Game
from coyote_pi.record import Photo
from coyote_pi.table.deadlines import Deadlines
from coyote_pi.table.state import TableState
from coyote_pi.words.translator import Translator


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
