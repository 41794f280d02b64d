"""The table's state: what the controller owns and every part reads, and the plain data in it.

The controller (:mod:`~coyote_pi.table.controller`) owns one :class:`TableState`: the
game's record and the table's memory, the stage, and what the open stage keeps (the
turn's selector, a correction, the setup questions, a record problem). The parts
receive it through the :class:`~coyote_pi.table.part.Table` seam; the screens read it.

This module imports no part: what it holds is plain data (the
:class:`~coyote_pi.table.selector.Selector`, the
:class:`~coyote_pi.table.correction.Correction`, the
:class:`~coyote_pi.table.setup_wizard.SetupWizard`, a :class:`RecordHold`), so that the
parts, the presenter and the screens can all name it without importing each other
(tests/test_layers.py forbids import circles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from coyote_pi.devices.screen import Screen
from coyote_pi.engine import BIDDING, OVER, Game
from coyote_pi.record import RecordedGame
from coyote_pi.table.correction import Correction
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.selector import Selector
from coyote_pi.table.setup_wizard import SetupWizard
from coyote_pi.table.stages import CORRECT, EXTRA_WAIT, OF_PHASE, RECORD, SETUP, VERDICT, Stage
from coyote_pi.table.store import TableMemory


class HoldKind(StrEnum):
    """The kinds of :class:`RecordHold` (:mod:`~coyote_pi.table.record_hold` tells what each means)."""

    DAMAGED = "damaged"
    UNRESUMABLE = "unresumable"
    GONE = "gone"
    NOT_STARTED = "not_started"


@dataclass(frozen=True)
class RecordHold:
    """A record problem the table waits on a person for (the ``record`` stage).

    ``kind`` is one of the kinds above, a key of
    :data:`~coyote_pi.table.screens.RECORD_PROBLEMS`; ``params`` fill its texts.
    """

    kind: HoldKind
    params: dict[str, object] = field(default_factory=dict)


@dataclass
class TimerKept:
    """What a timer keeps alive (:mod:`~coyote_pi.table.deadlines`): each is set together
    with its timer, and goes when the timer goes off or is cancelled (:meth:`drop`)."""

    #: The short message over the screen (a refusal, "undone"), until ``FLASH``.
    flash: Screen | None = None
    #: The peek notice over the turn's screen, or the record's QR code at the verdict and
    #: the game's end, until ``NOTICE``.
    notice: Screen | None = None
    #: The seat whose question ("enter the cards by hand?", "correct a card?") waits for
    #: its ok, until ``OFFER``.
    offer: int | None = None

    def drop(self, timer: Timer) -> None:
        """``timer`` went off or was cancelled: what it kept goes."""
        if timer is Timer.FLASH:
            self.flash = None
        elif timer is Timer.NOTICE:
            self.notice = None
        elif timer is Timer.OFFER:
            self.offer = None


@dataclass
class TableState:
    """Everything the table knows beside its devices; the controller owns the one instance.

    ``recorded`` is the game being played with its record (None: setup, or a record
    problem before any game), ``memory`` what the table noted in it. ``stage`` is derived
    again after every item (:meth:`derive_stage`; never set by a part). The rest belongs
    to one stage each.
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
    #: What the timers keep alive: the message, the notice, the asking seat.
    kept: TimerKept = field(default_factory=TimerKept)

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

    def asking(self) -> SetupWizard:
        """The setup questions being answered: only the ``setup`` stage has them, and asking
        in another is a bug (RuntimeError)."""
        if self.setup is None:
            raise RuntimeError("the setup questions are not being asked")
        return self.setup

    def derive_stage(self) -> Stage:
        """The stage the table stands at, from the game's phase and the table's memory:
        a record problem first, then setup, a verdict not yet seen (or being corrected),
        the Coyote card's draw to lay on the mat, else the phase's own stage."""
        if self.hold is not None:
            return RECORD
        if self.recorded is None:
            return SETUP
        game = self.recorded.game
        last = game.last_result
        if (last is not None and last.round not in self.memory.verdicts_seen
                and (game.phase != OVER or not self.final_seen)):
            return VERDICT if self.correction is None else CORRECT
        if game.phase == BIDDING:
            r = game.current_round
            if r.coyote_card_this_turn and r.number not in self.memory.extra_on_mat:
                return EXTRA_WAIT
        return OF_PHASE[game.phase]
