"""Starting a game, one part of the controller: setup's questions answered, the record begun.

Before the first round the table asks what the configuration leaves open
(:class:`~coyote_pi.table.setup_wizard.SetupWizard`, the plain answers). This part is the
table's side of it: a seat's press goes to the wizard (the table says when a seat that
does not play presses, and speaks a language as soon as it is chosen); the camera's
count of the stands is offered as the number of players; and once the last question is
answered the game's record starts (:meth:`GameStart.start_record`; if it cannot be, a
record problem waits for ok, :mod:`~coyote_pi.table.record_hold`). A new game closes the
one on the table and asks the questions again (:meth:`GameStart.new_game`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from coyote_pi.config import TableConfig
from coyote_pi.devices.events import ButtonEvent
from coyote_pi.table import camera_wait, store
from coyote_pi.table.part import Table
from coyote_pi.table.setup_wizard import SetupWizard
from coyote_pi.table.state import HoldKind, RecordHold
from coyote_pi.table.virtual_seats import VIRTUAL_SEED
from coyote_pi.words.translator import Translator

if TYPE_CHECKING:
    from coyote_pi.table.camera_reads import CameraResult


class SetupHook(Protocol):
    """A part told before each game's setup (the web side: the page's settings apply to it)."""

    def before_setup(self) -> None: ...


class StartTable(Table, Protocol):
    """What starting a game needs of the table: its configuration, the record folder, the
    meta a new record is written with (``private_meta`` gives the service-only part of each
    new game's, such as the simulation's seed), and the part told before setup."""

    config: TableConfig
    store: store.RecordStore
    meta: dict[str, Any]
    private_meta: Callable[[], dict[str, Any]] | None

    @property
    def web(self) -> SetupHook | None: ...


class GameStart:
    """Setup and the start of each game's record, for the ``table`` (see the module docstring)."""

    def __init__(self, table: StartTable) -> None:
        self.table = table

    def begin_setup(self) -> None:
        """Ask the setup questions (a record starts at once when the configuration answers them all)."""
        table = self.table
        if table.web is not None:
            table.web.before_setup()
        table.state.setup = SetupWizard(table.config.game, table.tr.language)
        if table.state.setup.done:
            self.start_record()

    def press(self, event: ButtonEvent) -> None:
        """A press in the ``setup`` stage: the table's wizard takes it."""
        table = self.table
        setup = table.state.asking()
        if not setup.press(event):
            table.flash(table.tr("msg.not_playing", seat=event.seat))
        if setup.language != table.tr.language:
            table.tr = Translator(setup.language)
        if setup.done:
            self.start_record()

    def stands(self, settled: camera_wait.StandsSeen | None, result: CameraResult) -> None:
        """A reading of setup's ``stands`` wait: a settled count is offered as the number of
        players, and the stands it finds missing, too near an edge, out of focus, too small
        or too dark go to the wizard (none when the reading failed, or its frame is no image:
        nothing to measure)."""
        table = self.table
        setup = table.state.asking()
        if settled is not None and settled.count and setup.count_stands(settled.count):
            table.state.stands = settled.count
        size = result.frame_size
        setup.see_framing(() if result.reading is None or size is None
                          else camera_wait.stand_framing(result.reading, size, result.frame))

    def start_record(self) -> None:
        """Setup is answered: start the new game's record (if it cannot be, a hold waits)."""
        table = self.table
        setup = table.state.asking()
        config = setup.game_config()
        try:
            meta = dict(table.meta, language=setup.language, **setup.virtual_meta())
            # The virtual seats' own randomness: secret and new for every game (their draws
            # would otherwise follow from something players can read, such as the file name).
            private = {VIRTUAL_SEED: secrets.token_hex(16), **(table.private_meta() if table.private_meta else {})}
            table.state.recorded = recorded = table.store.create(config, meta, private)
        except OSError as error:
            table.log(f"cannot start a record in {table.store.folder} ({error})", logging.ERROR)
            table.state.hold = RecordHold(HoldKind.NOT_STARTED)
            return
        table.state.memory = store.TableMemory()
        table.state.virtual = setup.virtual_seats()
        table.state.setup = None
        virtual = "".join(f", seat {seat} virtual ({level})" for seat, level in table.state.virtual.items())
        table.log(f"new game: {config.players} players, {config.variant}, seat {config.start_seat} starts{virtual} "
                  f"(record {recorded.path.name})")

    def new_game(self) -> None:
        """Close the game on the table, if any, and ask the setup questions again."""
        table = self.table
        table.log("a new game starts")
        if table.state.recorded is not None:
            table.state.recorded.close()
        table.state.recorded, table.state.memory, table.state.final_seen = None, store.TableMemory(), False
        table.state.unsaved = None
        table.state.not_resumed = None  # told while the first game began; this one is new anyway
        self.begin_setup()
