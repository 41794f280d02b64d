"""The table controller: one loop that turns button presses and camera readings into a game.

Threads and the queue
---------------------
Everything that happens reaches the controller as an item in one :class:`queue.Queue`:
:class:`~coyote_pi.devices.events.ButtonEvent` objects from the button backends (their
callbacks run on gpiozero's threads and only enqueue), camera readings from the worker
thread of :mod:`~coyote_pi.table.camera_reads` (so a press never waits for the camera),
and :data:`STOP` (the union :data:`QueueItem`, which one ``match`` takes apart).
:meth:`Controller.run` is the only code that touches the game, the
record and the display. It blocks on the queue with a timeout that is the next thing
it must do by itself (the timers of :mod:`~coyote_pi.table.deadlines`: turn a verdict
page, clear a short message, ask the camera again, ping the systemd watchdog), so an
idle table sleeps. Each pass of the loop is one :meth:`Controller.step`: a simulation
on a clock of its own (:mod:`coyote_pi.sim.soak`) drives the table through it.

Stages and parts
----------------
After every item the controller derives the stage (:mod:`~coyote_pi.table.stages`)
from the game's phase and the table's :class:`~coyote_pi.table.store.TableMemory`,
never keeping it separately, and hands a press to the stage's part: setup to
:mod:`~coyote_pi.table.game_start`, the turn and the guesses to
:class:`~coyote_pi.table.turn.Turn`, the verdict and the game's end to
:mod:`~coyote_pi.table.verdict_buttons` (a correction of the verdict too), a card wait's buttons to
:class:`~coyote_pi.table.manual_entry.ManualEntry`, a record problem to
:mod:`~coyote_pi.table.record_hold`. A seat's minus+plus at a card wait or at the
verdict asks a question ("enter the cards by hand?", "correct a card?") that the same
seat's ok answers (:mod:`~coyote_pi.table.offers`) before the stage's part sees it. A
camera reading goes to the open wait, and from it to :mod:`~coyote_pi.table.card_waits`
(during setup, the stands it counted go to the wizard). Then the :class:`~coyote_pi.table.presenter.Presenter` works out the screen and
the :class:`~coyote_pi.table.presenter.Prompt`. The controller owns the one
:class:`~coyote_pi.table.state.TableState`; a part receives the controller only as a
:class:`~coyote_pi.table.part.Table` (or a Protocol its module declares on top of it):
the state, and :meth:`~Controller.apply`, :meth:`~Controller.note`,
:meth:`~Controller.log` and :meth:`~Controller.flash`. No part imports this module.

Durability: every game event goes through :meth:`RecordedGame.apply
<coyote_pi.record.RecordedGame.apply>`, which writes and fsyncs it before returning;
every table memory change is a note line written the same way; only then is the
screen redrawn. Killed at any moment, the table resumes from the record at the same point.
The camera frame that settled a reveal or a draw is kept as a photo before its line is
written (:mod:`~coyote_pi.table.photos`), and made public once its round is closed. A
write that fails changes nothing, and what the table cannot get past by itself waits
for a person (:mod:`~coyote_pi.table.record_hold`).
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, assert_never

from coyote_pi.config import TableConfig
from coyote_pi.devices.events import PRESS, REPEAT, Button, ButtonEvent
from coyote_pi.engine import DEAL, OVER, Event, Game, IllegalAction, Undo
from coyote_pi.record import Photo, RecordedGame
from coyote_pi.speech.moment import public_moment
from coyote_pi.speech.speaker import Speech
from coyote_pi.table import (
    camera_wait,
    card_waits,
    offers,
    play_by_play,
    record_hold,
    screens,
    store,
    verdict_buttons,
)
from coyote_pi.table.camera_reads import Camera, CameraReads, CameraResult, Reader
from coyote_pi.table.deadlines import Deadlines, Timer
from coyote_pi.table.game_start import GameStart
from coyote_pi.table.manual_entry import ManualEntry
from coyote_pi.table.notifier import SILENT, Notifier
from coyote_pi.table.photos import Photos
from coyote_pi.table.presenter import Display, Listener, Presenter
from coyote_pi.table.stages import (
    CAMERA_WAIT,
    CORRECT,
    DEAL_WAIT,
    DRAW_WAIT,
    GAME_OVER,
    GUESS,
    RECORD,
    REVEAL_WAIT,
    SETUP,
    TURN,
    VERDICT,
    WAITS,
    Question,
)
from coyote_pi.table.state import TableState
from coyote_pi.table.turn import Turn
from coyote_pi.table.virtual_seats import Situation, VirtualSeats
from coyote_pi.table.web_requests import DoctorChecks
from coyote_pi.table.web_side import WebSide
from coyote_pi.words.translator import Translator

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class Stop:
    """The queue item that ends :meth:`Controller.run` (:data:`STOP`)."""


#: Put this into the controller's queue to end :meth:`Controller.run`.
STOP = Stop()
#: What the controller's queue carries: a button event (the button backends), a camera
#: read (:mod:`~coyote_pi.table.camera_reads`' worker), or the end of the loop.
QueueItem = ButtonEvent | CameraResult | Stop


@dataclass(frozen=True)
class ControllerOptions:
    """How a :class:`Controller` is built, beyond its configuration.

    ``events`` is the queue to use (give the one the buttons already report into; None:
    a new one). ``display`` is the OLED, a :class:`~coyote_pi.table.presenter.Display`
    such as :class:`~coyote_pi.devices.display.TableDisplay` (or None: no OLED);
    ``camera``/``reader`` a :class:`~coyote_pi.table.camera_reads.Camera` and a
    :class:`~coyote_pi.table.camera_reads.Reader`, the vision code's
    :class:`~coyote_pi.vision.reader.TableReader` (None: the manual path everywhere);
    ``resumed`` a resumed record with its memory (or None: setup, then a new record in
    ``config.record_dir``; or a :class:`~coyote_pi.table.store.Unresumable`: the players
    are told first). ``meta`` is written into a new record's setup line, for anyone to
    read; ``private_meta()`` is called as each new game's record starts, and what it returns
    goes into the record's service-only file (the simulated table's seed and deal plan for
    that game, from which every deal follows), beside the game's secret seed of the
    virtual players (:func:`~coyote_pi.table.virtual_seats.players_seed`). ``notifier`` is
    told when the loop starts, how it goes and when it stops (a :class:`~coyote_pi.table.notifier.Notifier` such as
    :mod:`coyote_pi.pi.notify`; None: no one is told). ``not_resumed`` names the newest
    record when it could not be resumed and a new game starts anyway: the screens say so
    until the first game of this run is dealt. ``camera_problem`` is the text key the
    manual path shows for the missing camera. ``epoch`` counts the table's restarts (the
    prompt carries it), ``new_game_when_over`` lets ok at the game's end start another.
    With ``[web] enabled`` the table publishes for its web page
    (:mod:`~coyote_pi.table.web_side`); ``web_doctor`` runs the checks the page may ask
    for (``coyote-pi run`` passes the Pi's); ``web_page`` says whether the page serves its
    address now (``run --sim --web``'s child; None: the page is its own service, taken to).
    ``speech`` hears the table's public facts after every pass (:mod:`coyote_pi.speech`;
    None: the table is silent); the controller closes it.
    """

    display: Display | None = None
    camera: Camera | None = None
    reader: Reader | None = None
    resumed: tuple[RecordedGame, store.TableMemory] | store.Unresumable | None = None
    listeners: tuple[Listener, ...] | list[Listener] = ()
    meta: dict[str, Any] | None = None
    private_meta: Callable[[], dict[str, Any]] | None = None
    notifier: Notifier | None = None
    clock: Callable[[], float] = time.monotonic
    epoch: int = 0
    new_game_when_over: bool = False
    events: queue.Queue[QueueItem] | None = None
    not_resumed: str | None = None
    camera_problem: str = "problem.no_camera"
    web_doctor: DoctorChecks | None = None
    web_page: Callable[[], bool] | None = None
    speech: Speech | None = None


class Controller:
    """Runs one table. Build it, put button events into :attr:`queue`, call :meth:`run`.

    It owns the table's :class:`~coyote_pi.table.state.TableState` (:attr:`state`) and
    hands each part itself as a :class:`~coyote_pi.table.part.Table` (or a Protocol the
    part's module declares on top of it): the state, the clock, the words and the actions.
    """

    def __init__(self, config: TableConfig, options: ControllerOptions = ControllerOptions()) -> None:
        self.config = config
        self.pacing = config.pacing
        self.display = options.display
        self.queue: queue.Queue[QueueItem] = options.events if options.events is not None else queue.Queue()
        self.listeners = list(options.listeners)
        self.meta = dict(options.meta or {})
        self.private_meta = options.private_meta
        self.clock = options.clock
        self.epoch = options.epoch
        self.new_game_when_over = options.new_game_when_over
        self._notifier = options.notifier if options.notifier is not None else SILENT
        #: The text key the manual path shows while there is no camera (why it is missing).
        self.camera_problem = options.camera_problem
        self.store = store.RecordStore(config.record_dir, config.keep_photos_games)
        resumed = None if isinstance(options.resumed, store.Unresumable) else options.resumed
        recorded, memory = resumed if resumed is not None else (None, store.TableMemory())
        self.state = TableState(recorded, memory, hold=record_hold.at_start(options.resumed),
                                not_resumed=options.not_resumed)
        self.deadlines = Deadlines(on_off=self.state.kept.drop)
        self.camera = CameraReads(options.camera, options.reader, self.queue, self.deadlines, self.clock, self.pacing)
        if recorded is None:
            meta = self.meta
        else:
            assert recorded.record is not None, "a resumed game keeps the record it was read from"
            meta = recorded.record.meta
        language = meta.get("language")
        self.tr = Translator((language if isinstance(language, str) else None) or config.game.language or "en")
        self.entry = ManualEntry(self)
        self.turn_buttons = Turn(self)
        self.virtual = VirtualSeats(self)
        self.presenter = Presenter(self)
        self.game_start = GameStart(self)
        self._situation: Situation = ()
        self.state.stage = self.state.derive_stage()  # derived again after every item
        #: Seconds between systemd watchdog pings (None: no watchdog watches this process).
        self._watchdog_every = self._notifier.watchdog_interval()
        self.speech = options.speech  # before the web side: the settings it restores reach the speech
        self.web = WebSide(self, options.web_doctor, options.web_page) if config.web.enabled else None
        if self.state.recorded is None:
            if self.state.hold is None:
                self.game_start.begin_setup()
        elif self.game.phase in (DEAL, OVER):
            self._publish_photos()  # a crash may have come between a round's closing and its photos' move

    # ------------------------------------------------------------------ public

    @property
    def game(self) -> Game:
        """The game being played. Only the stages of a game ask for it; before one (setup,
        a record problem) :attr:`state`'s ``game`` is None, and asking here is a bug."""
        return self.state.playing().game

    @property
    def photos(self) -> Photos:
        """The reveal and draw photos of the game being played."""
        return Photos(self.state.playing().path)

    def run(self, *, until_over: bool = False) -> None:
        """Run the loop until :data:`STOP` (or, with ``until_over``, the game-over screen)."""
        self.begin()
        while not (until_over and self.state.stage == GAME_OVER):
            item = self._next_item()
            going = self.step(item)
            if item is not None:
                # Handled and redrawn: whoever put it in can tell a slow table from a lost
                # press by the queue's unfinished tasks (the simulated players do).
                self.queue.task_done()
            if not going:
                break
        self._notifier.stopping()

    def begin(self) -> None:
        """Show the first screen and tell the notifier the loop starts (:meth:`run` does
        this; a driver that calls :meth:`step` itself calls it once first)."""
        self._refresh()
        self._notifier.ready()
        self._notifier.status(self.presenter.status_text())
        if self._watchdog_every is not None:
            self.deadlines.set(Timer.WATCHDOG, self.clock())

    def step(self, item: QueueItem | None = None) -> bool:
        """One pass of the loop: act on ``item`` (a queue item; None: none came), then on
        the timers due by the clock, then redraw. False for :data:`STOP`.

        :meth:`run` passes each item as it arrives; a driver on a simulated clock
        (:mod:`coyote_pi.sim.soak`) takes the items from :attr:`queue` and calls this
        itself, after moving its clock to :meth:`Deadlines.next_due
        <coyote_pi.table.deadlines.Deadlines.next_due>` of :attr:`deadlines`.
        """
        match item:
            case Stop():
                return False
            case ButtonEvent():
                self._on_button(item)
            case CameraResult():
                self._on_camera(item)
                if self.web is not None:
                    self.web.on_camera(item)
            case None:
                pass
            case _:
                assert_never(item)
        self._on_time()
        self._refresh()
        return True

    def _next_item(self) -> QueueItem | None:
        """The next queue item, or None when the next timer falls due first. (A method, so
        that no camera frame stays referenced while the loop sleeps.)"""
        try:
            return self.queue.get(timeout=self._timeout())
        except queue.Empty:
            return None

    def stop(self) -> None:
        """Ask the loop to end (from any thread)."""
        self.queue.put(STOP)

    def close(self) -> None:
        """Stop the camera worker and close the record (the devices belong to the caller)."""
        self.camera.close()
        if self.web is not None:
            self.web.close()
        if self.speech is not None:
            self.speech.close(drain=True)
        if self.state.recorded is not None:
            self.state.recorded.close()

    # ------------------------------------------------------------------ for the parts

    def log(self, line: str, level: int = logging.INFO) -> None:
        """One line of the play-by-play, to the log and the listeners."""
        log.log(level, "%s", line)
        for listener in self.listeners:
            listener.on_log(line)

    def log_press(self, event: ButtonEvent, effect: str) -> None:
        """One press in the play-by-play, with what it did."""
        held = " (held)" if event.kind == REPEAT else ""
        self.log(f"  seat {event.seat} presses {event.button}{held}: {effect}")

    def flash(self, text: str) -> None:
        """Show a short message over the screen for ``message_seconds``."""
        self.deadlines.set(Timer.FLASH, self.clock() + self.pacing.message_seconds)
        self.state.kept.flash = screens.message_screen(text)

    def note(self, **note: Any) -> bool:
        """Write a table note to the record, then let the memory learn it; a note that
        cannot be written changes nothing (False), as a game event would."""
        try:
            self.state.playing().note(**note)
        except OSError as error:
            record_hold.not_saved(self, error, f"the note {note.get('table')!r} is not kept")
            return False
        record_hold.saved(self)
        self.state.memory.learn(note)
        return True

    def apply(self, event: Event, photo: Photo | None = None) -> bool:
        """Apply a game event through the record (with the ``photo`` that settled a reveal or
        a draw); refusals are shown and change nothing. A round that closes publishes its photos."""
        results_before = len(self.game.results)
        try:
            self.state.playing().apply(event, photo)
        except IllegalAction as error:
            self.flash(self.tr.refusal(error.code, error.params))
            self.log(f"  refused: {error}")
            return False
        except OSError as error:
            record_hold.not_saved(self, error, "the action does not count")
            return False
        record_hold.saved(self)
        if isinstance(event, Undo):
            self.state.memory.undos += 1
        if len(self.game.results) > results_before:
            self._publish_photos()
        self.deadlines.cancel(Timer.FLASH)
        for line in play_by_play.accepted(event, self.game, results_before, self.state.playing().writer.fingerprint):
            self.log(line)
        return True

    def wait_round(self) -> int:
        """The round a card wait belongs to (the deal waits for the next one)."""
        return self.game.round_number + (1 if self.state.stage == DEAL_WAIT else 0)

    def is_manual(self) -> bool:
        """This card wait is on the manual path (no camera, or switched by a note)."""
        return not self.camera.present or (self.wait_round(), self.state.stage) in self.state.memory.manual

    def use_config(self, config: TableConfig) -> None:
        """Play the next game with ``config`` (settings from the web page, between games)."""
        self.config, self.pacing, self.camera.pacing = config, config.pacing, config.pacing
        self.store.keep_photos = config.keep_photos_games
        if self.speech is not None:
            self.speech.use(config.speech)

    # ------------------------------------------------------------------ the stage and its situation

    def _refresh(self) -> None:
        """Re-derive the stage; enter a new situation; redraw and re-prompt if anything changed."""
        self.state.stage = self.state.derive_stage()
        situation = self._situation_key()
        if situation != self._situation:
            self._situation = situation
            self._enter()
            self._on_time()  # a new wait reads the camera at once
        self.presenter.refresh()
        if self.web is not None:
            self.web.refresh()
        if self.speech is not None:  # the public facts only, as the web page's
            self.speech.hear(public_moment(self.state.stage, self.tr.language, self.state.game))

    def _situation_key(self) -> Situation:
        if self.state.hold is not None:
            return (RECORD, self.state.hold)
        if self.state.recorded is None:
            return (SETUP, self.state.asking().step)
        game = self.game
        manual = self.is_manual() if self.state.stage in WAITS else False
        return (self.state.stage, game.round_number, len(game.history), self.state.memory.undos, manual,
                len(game.results), self.state.recorded.path)

    def _enter(self) -> None:
        """Set up what a new situation needs: a selector, a camera wait, verdict pages."""
        stage = self.state.stage
        self.state.selector = None
        if stage != CORRECT:
            self.state.correction = None
        self.camera.stop()
        self.deadlines.cancel(Timer.OFFER)
        if stage != TURN:
            self.deadlines.cancel(Timer.NOTICE)
        self.presenter.enter()
        if stage == SETUP:
            if self.state.asking().step == Question.PLAYERS and self.camera.present:
                self.camera.start(camera_wait.Wait.STANDS, None)
        elif stage == TURN:
            self.state.selector = self.turn_buttons.new_selector()
        elif stage in WAITS and not self.is_manual():
            self.camera.start(CAMERA_WAIT[stage], self.game)
        elif stage in (REVEAL_WAIT, DRAW_WAIT):
            self.entry.begin()
        elif stage == GAME_OVER:
            self.log("game over")
        self.virtual.enter(self._situation)
        self._notifier.status(self.presenter.status_text())

    # ------------------------------------------------------------------ buttons

    def _on_button(self, event: ButtonEvent) -> None:
        if self.web is not None and self.web.button(event):
            return
        stage = self.state.stage
        if stage == RECORD:
            if event.button == Button.OK and event.kind == PRESS:
                record_hold.answer(self, event)
            return
        if stage == SETUP:
            self.game_start.press(event)
            return
        if event.seat not in self.game.eyes:
            if event.kind == PRESS:
                self.flash(self.tr("msg.not_playing", seat=event.seat))
            return
        if offers.answer(self, event):
            return
        if stage == TURN:
            self.turn_buttons.button(event)
        elif stage == GUESS:
            self.turn_buttons.guess(event)
        elif stage in (VERDICT, GAME_OVER):
            verdict_buttons.press(self, event)
        elif stage == CORRECT:
            verdict_buttons.correct(self, event)
        elif stage in WAITS:
            self.entry.button(event)

    # ------------------------------------------------------------------ the camera

    def _on_camera(self, result: CameraResult) -> None:
        taken = self.camera.take(result)
        if taken is None:
            return  # the flow moved on while this frame was read
        wait, settled = taken
        if wait.name == camera_wait.Wait.STANDS:
            assert settled is None or isinstance(settled, camera_wait.StandsSeen), "the stands wait settles on a count"
            self.game_start.stands(settled, result)
            return
        assert not isinstance(settled, camera_wait.StandsSeen), "only the stands wait counts the stands"
        card_waits.on_reading(self, wait, settled, result)

    def _publish_photos(self) -> None:
        try:
            self.photos.publish()
        except OSError as error:  # they stay private until the next round closes
            self.log(f"  the photos of round {self.game.round_number} were not moved ({error})")

    # ------------------------------------------------------------------ time

    def _timeout(self) -> float | None:
        """Seconds until the loop must act by itself; None: only an item can wake it."""
        due = self.deadlines.next_due()
        return None if due is None else max(0.0, due - self.clock())

    def _on_time(self) -> None:
        """Do what has fallen due. A message, a notice or an offer that expires just goes
        (with its screen), and a screen's page flip only needs the redraw that follows."""
        now = self.clock()
        for timer in self.deadlines.due(now):
            if timer is Timer.VERDICT_PAGE:
                self.presenter.turn_verdict_page(1)
            elif timer is Timer.VERDICT_DONE:
                self.log("verdict: moving on by itself")
                verdict_buttons.acknowledge(self)
            elif timer is Timer.VIRTUAL:
                self.virtual.move()
            elif timer is Timer.CAMERA:
                self.camera.ask()
            elif timer is Timer.WATCHDOG:  # a hung loop stops pinging, and systemd restarts it
                assert self._watchdog_every is not None, "begin() sets this timer only with a watchdog"
                self._notifier.watchdog()
                self.deadlines.set(Timer.WATCHDOG, now + self._watchdog_every)
            elif self.web is not None:
                self.web.on_time(timer)

