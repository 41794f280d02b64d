"""The table controller: one loop that turns button presses and camera readings into a game.

Threads and the queue
---------------------
Everything that happens reaches the controller as an item in one :class:`queue.Queue`:
:class:`~coyote_pi.devices.events.ButtonEvent` objects from the button backends (their
callbacks run on gpiozero's threads and only enqueue), :class:`CameraResult` objects from
the :class:`CameraWorker`, and :data:`STOP`. :meth:`Controller.run` is the only code
that touches the game, the record and the display. It blocks on the queue with a
timeout that is the next thing it must do by itself (turn a verdict page, clear a short
message, ask the camera again, ping the systemd watchdog), so an idle table sleeps.

Why the camera reads on a worker thread: reading a full-resolution still takes a few
hundred milliseconds on a Pi. Done in the loop, every press during a read would wait;
on the worker, the loop stays responsive and simply receives the reading as one more
queue item. Only one read is ever in flight, each read is asked for explicitly, and
the camera is idle between reads (every ``[table] camera_interval`` seconds, and only
while the flow waits for cards).

Stages
------
Where the table stands is derived after every item from the game's phase and the
table's :class:`~coyote_pi.table.store.TableMemory`, never kept separately::

    setup -> deal -> turn (-> extra) ... -> [guess] -> reveal -> [draw] -> verdict -> deal ... -> over

``setup`` asks what the configuration leaves open (players, variant, language, who
starts). ``deal``, ``extra``, ``reveal`` and ``draw`` wait for the camera, or for
buttons on the manual path. ``turn`` runs the seat's :class:`~coyote_pi.table.selector.Selector`.

Durability: every game event goes through :meth:`RecordedGame.apply
<coyote_pi.record.RecordedGame.apply>`, which writes and fsyncs it before returning;
every table memory change is a note line written the same way; only then is the
screen redrawn. Killed at any moment, the table resumes from the record at the same point.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from coyote_pi import cards as C
from coyote_pi.devices.events import CHORD, PRESS, REPEAT, ButtonEvent
from coyote_pi.devices.screen import Screen
from coyote_pi.engine import (
    BIDDING,
    DEAL,
    DRAW,
    GUESSING,
    OVER,
    REVEAL,
    Bid,
    Challenge,
    Deal,
    DrawReplacement,
    GameConfig,
    Guess,
    IllegalAction,
    Peek,
    Reveal,
    Undo,
    UseCoyoteCard,
)
from coyote_pi.engine import events as E
from coyote_pi.engine.game import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from coyote_pi.record import RecordedGame
from coyote_pi.table import camera_wait as W
from coyote_pi.table import screens as S
from coyote_pi.table import store
from coyote_pi.table.config import TableConfig
from coyote_pi.table.i18n import LANGUAGES, Translator
from coyote_pi.table.selector import BID, CHALLENGE, COYOTE_CARD, PEEK, Choice, Selector

log = logging.getLogger(__name__)

#: Put this into the controller's queue to end :meth:`Controller.run`.
STOP = object()

SETUP, TURN, GUESS, VERDICT = "setup", "turn", "guess", "verdict"
DEAL_WAIT, EXTRA_WAIT, REVEAL_WAIT, DRAW_WAIT, GAME_OVER = W.DEAL, W.EXTRA, W.REVEAL, W.DRAW, "over"
#: Seconds a seat has to confirm with ok after asking (minus+plus) to enter cards by hand.
MANUAL_OFFER_SECONDS = 6.0
#: The average a card adds to a total, for the first bid's starting value (see docs).
FIRST_BID_PER_CARD = 4
#: Players offered first when setup asks (and the camera has not counted the stands).
DEFAULT_PLAYERS = 4


@dataclass(frozen=True)
class CameraResult:
    """One camera read, as the worker reports it: a reading, or the error that stopped it."""

    wait: int  #: the wait it was asked for; a result for an older wait is dropped
    reading: object | None
    error: str | None
    frame: object | None = None


@dataclass(frozen=True)
class Prompt:
    """What the table is asking for right now: the simulated table's players and hands
    act on it the way people act on the OLED. Emitted whenever it changes."""

    stage: str
    epoch: int  #: counts controller starts: a resumed table asks again
    round: int
    seats: tuple[int, ...]  #: the seats asked to act (turn, guessers, start of setup)
    config: GameConfig | None
    history: tuple = ()  #: the game's events so far
    undos: int = 0
    choice: Choice | None = None  #: the turn's pending choice
    manual: bool = False  #: this wait is on the manual path
    entry: tuple[str, str] | None = None  #: (item, card shown) while entering cards by hand
    setup: tuple[str, object] | None = None  #: (step, value shown) during setup


class Listener:
    """Hooks for whoever watches the table (the demo, the simulated table, the bench).

    Called on the controller's thread: keep them quick and never call back into it.
    """

    def on_prompt(self, prompt: Prompt) -> None:
        """The table now asks for something else."""

    def on_log(self, line: str) -> None:
        """One line of the play-by-play (English; never a card of an open round)."""

    def on_screen(self, stage: str, screen: Screen) -> None:
        """A screen was handed to the display."""

    def on_reveal(self, round_number: int, what: str, frame, reading) -> None:
        """The camera frame and reading that settled a reveal or a ``?`` draw."""


class CameraWorker:
    """Captures and reads one frame per request on its own thread; results go to ``out``."""

    def __init__(self, camera, reader, out: queue.Queue) -> None:
        self.camera = camera
        self.reader = reader
        self._out = out
        self._requests: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="camera reads", daemon=True)
        self._thread.start()

    def request(self, wait: int) -> None:
        self._requests.put(wait)

    def close(self) -> None:
        self._requests.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (wait := self._requests.get()) is not None:
            # No frame stays referenced here between reads: a full-resolution still is 36 MB.
            self._out.put(self._read(wait))

    def _read(self, wait: int) -> CameraResult:
        from coyote_pi.devices.errors import CameraError

        try:
            frame = self.camera.capture()
            return CameraResult(wait, self.reader.read(frame), None, frame)
        except CameraError as error:
            return CameraResult(wait, None, str(error))
        except Exception as error:  # a reader bug must not kill the table: it counts as a failed read
            log.exception("reading the camera frame failed")
            return CameraResult(wait, None, f"{type(error).__name__}: {error}")


@dataclass
class _Setup:
    """The answers collected before the first round (nothing is recorded until it ends)."""

    steps: list[str]
    values: dict[str, object]
    touched: set[str] = field(default_factory=set)

    @property
    def step(self) -> str:
        return self.steps[0]


@dataclass
class _Timed:
    """Something shown or pending until a deadline."""

    until: float
    screen: Screen | None = None
    seat: int | None = None


class Controller:
    """Runs one table. Build it, put button events into :attr:`queue`, call :meth:`run`.

    ``events`` is the queue to use (give the one the buttons already report into).
    ``display`` is a :class:`~coyote_pi.devices.display.TableDisplay` (or None: no OLED);
    ``camera``/``reader`` the camera and :class:`~coyote_pi.vision.reader.TableReader`
    (None: the manual path everywhere); ``table`` a resumed record with its memory (or
    None: setup, then a new record in ``config.record_dir``). ``meta`` is written into a
    new record's setup line. ``notifier`` is :mod:`coyote_pi.pi.notify` or a stand-in.
    ``camera_problem`` is the text key the manual path shows for the missing camera.
    """

    def __init__(
        self,
        config: TableConfig,
        *,
        display=None,
        camera=None,
        reader=None,
        table: tuple[RecordedGame, store.TableMemory] | None = None,
        listeners: Iterable[Listener] = (),
        meta: dict | None = None,
        notifier=None,
        clock: Callable[[], float] = time.monotonic,
        epoch: int = 0,
        new_game_when_over: bool = False,
        events: queue.Queue | None = None,
        camera_problem: str = "problem.no_camera",
    ) -> None:
        self.config = config
        self.pacing = config.pacing
        self.display = display
        self.queue: queue.Queue = events if events is not None else queue.Queue()
        self.listeners = list(listeners)
        self.meta = dict(meta or {})
        self.clock = clock
        self.epoch = epoch
        self.new_game_when_over = new_game_when_over
        self._notifier = notifier
        self._camera = CameraWorker(camera, reader, self.queue) if camera is not None and reader is not None else None
        self._camera_problem = camera_problem
        self.store = store.RecordStore(config.record_dir)
        self.table, self.memory = table if table is not None else (None, store.TableMemory())
        language = self.meta.get("language") if self.table is None else self.table.record.meta.get("language")
        self.tr = Translator(language or config.game.language or "en")
        self.setup: _Setup | None = None
        self.stage = ""
        self._situation: tuple = ()
        self._selector: Selector | None = None
        self._selector_start: int | None = None
        self._wait: W.CameraWait | None = None
        self._wait_id = 0
        self._camera_busy = False
        self._next_read = 0.0
        self._last_problems: tuple = ()
        self._stands: int | None = None
        self._offer: _Timed | None = None
        self._flash: _Timed | None = None
        self._notice: _Timed | None = None
        self._entry_index = 0
        self._renderer = None
        self._frames: list[tuple[Screen, int]] = []
        self._frame = 0
        self._frame_due: float | None = None
        self._verdict_due: float | None = None
        self._page_flip: float | None = None
        self._final_seen = False
        self._shown: Screen | None = None
        self._prompt: Prompt | None = None
        self._last_ping = float("-inf")
        #: Seconds between systemd watchdog pings (None: no watchdog watches this process).
        self._watchdog_every = None if notifier is None else notifier.watchdog_interval()
        if self.table is None:
            self._begin_setup()

    # ------------------------------------------------------------------ public

    @property
    def game(self):
        return None if self.table is None else self.table.game

    def run(self, *, until_over: bool = False) -> None:
        """Run the loop until :data:`STOP` (or, with ``until_over``, the game-over screen)."""
        self._refresh()
        self._notify("ready")
        self._notify("status", self._status_text())
        while not (until_over and self.stage == GAME_OVER):
            try:
                if not self._handle(self.queue.get(timeout=self._timeout())):
                    break
            except queue.Empty:
                pass
            self._on_time()
            self._refresh()
            self._ping_watchdog()
        self._notify("stopping")

    def _handle(self, item) -> bool:
        """Act on one queue item; False for :data:`STOP`. (A method, so that no camera frame
        stays referenced while the loop sleeps.)"""
        if item is STOP:
            return False
        if isinstance(item, ButtonEvent):
            self._on_button(item)
        elif isinstance(item, CameraResult):
            self._on_camera(item)
        return True

    def stop(self) -> None:
        """Ask the loop to end (from any thread)."""
        self.queue.put(STOP)

    def close(self) -> None:
        """Stop the camera worker (the devices belong to the caller)."""
        if self._camera is not None:
            self._camera.close()
            self._camera = None

    # ------------------------------------------------------------------ helpers

    def _notify(self, what: str, *args) -> None:
        if self._notifier is not None:
            getattr(self._notifier, what)(*args)

    def _ping_watchdog(self) -> None:
        """Tell systemd the loop is alive: a hung loop stops pinging and gets restarted."""
        now = self.clock()
        if self._watchdog_every is not None and now - self._last_ping >= self._watchdog_every:
            self._last_ping = now
            self._notify("watchdog")

    def _log(self, line: str) -> None:
        log.info("%s", line)
        for listener in self.listeners:
            listener.on_log(line)

    def _flash_message(self, text: str) -> None:
        self._flash = _Timed(self.clock() + self.pacing.message_seconds, S.message_screen(text))

    def _refuse(self, error: IllegalAction) -> None:
        self._flash_message(self.tr.refusal(error.code, error.params))
        self._log(f"  refused: {error}")

    def _note(self, **note) -> None:
        """Write a table note to the record, then let the memory learn it."""
        self.table.note(**note)
        self.memory.learn(note)

    def _apply(self, event: E.Event) -> bool:
        """Apply a game event through the record; refusals are shown and change nothing."""
        results_before = len(self.game.results)
        try:
            self.table.apply(event)
        except IllegalAction as error:
            self._refuse(error)
            return False
        except OSError as error:
            self._flash_message(self.tr("msg.record_failed"))
            self._log(f"  NOT SAVED ({error}): the action does not count")
            return False
        if isinstance(event, Undo):
            self.memory.undos += 1
        self._flash = None
        self._log(_describe(event))
        for result in self.game.results[results_before:]:
            self._log(f"verdict of round {result.round}:")
            for line in result.explanation():
                self._log(f"  {line}")
        if self.game.phase == OVER:
            self._log(f"seat {self.game.winner} wins the game (record {self.table.writer.fingerprint[:8]})")
        return True

    # ------------------------------------------------------------------ setup

    def _begin_setup(self) -> None:
        game = self.config.game
        values = {
            "players": game.players or max(DEFAULT_PLAYERS, game.start_seat or MIN_PLAYERS),
            "variant": game.variant or VARIANTS[0],
            "language": game.language or self.tr.language,
            "start": game.start_seat,
        }
        steps = [name for name in ("players", "variant", "language") if getattr(game, name) is None]
        if game.start_seat is None:
            steps.append("start")
        self.setup = _Setup(steps, values)
        if not steps:
            self._finish_setup()

    def _finish_setup(self) -> None:
        values = self.setup.values
        config = GameConfig(values["players"], values["variant"], values["start"])
        meta = dict(self.meta, language=values["language"])
        self.table = self.store.create(config, meta)
        self.memory = store.TableMemory()
        self.setup = None
        self._log(f"new game: {config.players} players, {config.variant}, seat {config.start_seat} starts "
                  f"(record {self.table.path.name})")

    def _players_within(self, players: int) -> int:
        """``players`` moved into 2..6, and up to a start seat the configuration names."""
        return min(MAX_PLAYERS, max(MIN_PLAYERS, self.config.game.start_seat or MIN_PLAYERS, players))

    def _setup_button(self, event: ButtonEvent) -> None:
        setup = self.setup
        step = setup.step
        if step == "start":
            if event.button != "ok" or event.kind != PRESS:
                return
            if event.seat > setup.values["players"]:
                self._flash_message(self.tr("msg.not_playing", seat=event.seat))
                return
            setup.values["start"] = event.seat
            setup.steps.pop(0)
        elif event.button == "ok" and event.kind == PRESS:
            setup.steps.pop(0)
        elif event.button in ("minus", "plus"):
            setup.touched.add(step)
            delta = 1 if event.button == "plus" else -1
            value = setup.values[step]
            if step == "players":
                setup.values[step] = self._players_within(value + delta)
            else:
                options = VARIANTS if step == "variant" else LANGUAGES
                setup.values[step] = options[(options.index(value) + delta) % len(options)]
                if step == "language":
                    self.tr = Translator(setup.values[step])
        if not setup.steps:
            self._finish_setup()

    # ------------------------------------------------------------------ deriving the stage

    def _derive_stage(self) -> str:
        if self.table is None:
            return SETUP
        game = self.game
        last = game.last_result
        if last is not None and last.round not in self.memory.verdicts_seen:
            if game.phase != OVER or not self._final_seen:
                return VERDICT
        if game.phase == OVER:
            return GAME_OVER
        if game.phase == DEAL:
            return DEAL_WAIT
        if game.phase == BIDDING:
            r = game.round
            if r.coyote_card_this_turn and r.number not in self.memory.extra_on_mat:
                return EXTRA_WAIT
            return TURN
        return {GUESSING: GUESS, REVEAL: REVEAL_WAIT, DRAW: DRAW_WAIT}[game.phase]

    def _wait_round(self) -> int:
        """The round a camera wait belongs to (the deal waits for the next one)."""
        return self.game.round_number + (1 if self.stage == DEAL_WAIT else 0)

    def _manual(self) -> bool:
        return self._camera is None or (self._wait_round(), self.stage) in self.memory.manual

    def _enter(self) -> None:
        """Set up what a new situation needs: a selector, a camera wait, verdict pages."""
        self._selector = None
        self._wait = None
        self._offer = None
        self._notice = self._notice if self.stage == TURN else None
        self._frames, self._frame, self._frame_due, self._verdict_due = [], 0, None, None
        if self.stage == SETUP:
            if self.setup.step == "players" and self._camera is not None:
                self._start_wait(W.STANDS, lambda reading: W.Look(result=W.stands_seen(reading)), stable=1)
        elif self.stage == TURN:
            self._new_selector()
        elif self.stage in W.WAITS and not self._manual():
            self._start_wait(self.stage, self._look_for(self.stage), stable=self.pacing.stable_reads)
        elif self.stage in (REVEAL_WAIT, DRAW_WAIT):
            self._entry_index = C.ALL_CARDS.index("0")
        elif self.stage == VERDICT:
            self._verdict_pages()
        elif self.stage == GAME_OVER:
            self._log("game over")
        self._notify("status", self._status_text())

    def _look_for(self, stage: str) -> Callable:
        game = self.game
        if stage == DEAL_WAIT:
            active = game.active_seats
            return lambda reading: W.look_deal(reading, active)
        if stage == EXTRA_WAIT:
            return W.look_extra
        if stage == REVEAL_WAIT:
            r = game.round
            extra = r.extra_used and r.extra is None
            unknown = tuple(s for s, c in sorted(r.seat_cards.items()) if c is None)
            return lambda reading: W.look_reveal(reading, extra=extra, seats=unknown)
        return W.look_draw

    def _start_wait(self, name: str, look: Callable, stable: int) -> None:
        self._wait_id += 1
        self._wait = W.CameraWait(name, look, stable)
        self._next_read = self.clock()  # the first read at once
        self._last_problems = ()

    def _new_selector(self) -> None:
        game = self.game
        legal = game.legal()
        if legal.min_bid is not None:
            start = legal.min_bid
        elif game.results:
            start = game.results[-1].score.total
        else:
            start = FIRST_BID_PER_CARD * (len(game.active_seats) + 1)
        if self._selector_start is not None:
            start, self._selector_start = max(start, self._selector_start), None
        self._selector = Selector(legal, start)

    def _verdict_pages(self) -> None:
        game = self.game
        screens = S.verdict_screens(self.tr, game, game.last_result, self.table.writer.fingerprint,
                                    final=game.phase == OVER)
        self._frames = [(screen, page) for screen in screens for page in range(self._page_count(screen))]
        now = self.clock()
        self._frame_due = now + self.pacing.page_seconds
        if self.pacing.verdict_seconds:
            self._verdict_due = now + max(self.pacing.verdict_seconds, self.pacing.page_seconds * len(self._frames))

    def _page_count(self, screen: Screen) -> int:
        if self.display is not None:
            return self.display.page_count(screen)
        if self._renderer is None:  # no OLED: page as a 128x64 panel would
            from coyote_pi.devices.render import ScreenRenderer

            self._renderer = ScreenRenderer()
        return self._renderer.page_count(screen)

    # ------------------------------------------------------------------ buttons

    def _on_button(self, event: ButtonEvent) -> None:
        stage = self.stage
        if stage == SETUP:
            self._setup_button(event)
            return
        if event.seat not in self.game.eyes:
            if event.kind == PRESS:
                self._flash_message(self.tr("msg.not_playing", seat=event.seat))
            return
        if self._offer is not None and self._answer_offer(event):
            return
        if stage == TURN:
            self._turn_button(event)
        elif stage == GUESS:
            self._guess_button(event)
        elif stage == VERDICT:
            self._verdict_button(event)
        elif stage == GAME_OVER:
            if event.button == "ok" and event.kind == PRESS and self.new_game_when_over:
                self._new_game()
        elif stage in W.WAITS:
            self._wait_button(event)

    def _log_press(self, event: ButtonEvent, effect: str) -> None:
        held = " (held)" if event.kind == REPEAT else ""
        self._log(f"  seat {event.seat} presses {event.button}{held}: {effect}")

    def _turn_button(self, event: ButtonEvent) -> None:
        game = self.game
        seat = game.turn
        if event.kind == CHORD:
            self._log_press(event, "undo")
            last = game.history[-1] if game.history else None
            if self._apply(Undo(event.seat)):
                self._selector_start = last.amount  # the seat starts again from the bid it took back
                self._flash_message(self.tr("msg.undone", seat=event.seat, amount=last.amount))
            return
        if event.seat != seat:
            if event.kind == PRESS:
                self._out_of_turn(event.seat)
            return
        self._notice = None
        if event.button in ("minus", "plus"):
            self._selector.press(event.button, repeat=event.kind == REPEAT)
            self._log_press(event, S.choice_text(self.tr, self._selector.choice))
            self._flash = None
        elif event.button == "ok" and event.kind == PRESS:
            choice = self._selector.choice
            self._log_press(event, "confirm")
            self._apply(_choice_event(seat, choice))
            if choice.kind == PEEK and game.round.peeked_this_turn:
                self._notice = _Timed(self.clock() + 2 * self.pacing.page_seconds, S.peek_screen(self.tr, game, seat), seat)

    def _out_of_turn(self, seat: int) -> None:
        game = self.game
        if game.eyes[seat].cards == 0:
            self._flash_message(self.tr("msg.seat_out", seat=seat))
            return
        history = game.history
        if history and isinstance(history[-1], Bid) and history[-1].seat == seat:
            self._flash_message(self.tr("msg.undo_hint", seat=seat))
        else:
            self._flash_message(self.tr("msg.not_your_turn", seat=seat))

    def _guess_button(self, event: ButtonEvent) -> None:
        if event.kind != PRESS or event.button == "ok":
            return
        legal = self.game.legal()
        bidder, challenger = legal.guess_options
        winner = bidder if event.button == "plus" else challenger
        if event.seat in legal.seats:
            self._log(f"  seat {event.seat} presses a guess button")  # which one stays secret until the verdict
        if self._apply(Guess(event.seat, winner)) and self.game.phase == GUESSING:
            self._flash_message(self.tr("msg.guessed", seat=event.seat))

    def _verdict_button(self, event: ButtonEvent) -> None:
        if event.kind == CHORD:
            return
        if event.button == "ok":
            if event.kind != PRESS:
                return
            self._log_press(event, "next")
            self._acknowledge_verdict()
            return
        step = 1 if event.button == "plus" else -1
        self._frame = (self._frame + step) % len(self._frames)
        self._frame_due = self.clock() + self.pacing.page_seconds

    def _acknowledge_verdict(self) -> None:
        game = self.game
        if game.phase == OVER:
            self._final_seen = True  # nothing is written after the last resolution: its fingerprint is final
        else:
            self._note(table=store.VERDICT_SEEN, round=game.last_result.round)

    def _wait_button(self, event: ButtonEvent) -> None:
        if self._manual():
            self._manual_button(event)
        elif event.kind == CHORD:
            self._offer = _Timed(self.clock() + MANUAL_OFFER_SECONDS, S.manual_offer_screen(self.tr, event.seat), event.seat)
            self._log_press(event, "asks to enter cards by hand")
        elif event.kind == PRESS:
            self._flash_message(self.tr("msg.wait_camera"))

    def _answer_offer(self, event: ButtonEvent) -> bool:
        """The answer to "enter cards by hand?": ok from the asking seat says yes."""
        if event.seat != self._offer.seat or event.kind == REPEAT:
            return False
        self._offer = None
        if event.button == "ok" and event.kind == PRESS and self.stage in W.WAITS:
            self._log_press(event, "yes, by hand")
            self._go_manual("asked at the table")
        return True

    def _go_manual(self, why: str) -> None:
        self._note(table=store.MANUAL, round=self._wait_round(), wait=self.stage, why=why)
        self._log(f"{self.stage}: cards are entered by hand ({why})")
        self._flash_message(self.tr("msg.manual_on"))
        self._wait = None

    def _manual_button(self, event: ButtonEvent) -> None:
        stage, game = self.stage, self.game
        if stage == DEAL_WAIT:
            if event.button == "ok" and event.kind == PRESS and event.seat in game.active_seats:
                self._log_press(event, "dealt")
                self._apply(Deal({seat: None for seat in game.active_seats}))
        elif stage == EXTRA_WAIT:
            if event.button == "ok" and event.kind == PRESS and event.seat == game.turn:
                self._log_press(event, "the card lies on the extra slot")
                self._note(table=store.EXTRA_ON_MAT, round=game.round.number, by="button")
        elif event.seat in game.active_seats:
            self._entry_button(event)

    # ------------------------------------------------------------------ entering cards by hand

    def _entry_items(self) -> list[str]:
        r = self.game.round
        if self.stage == DRAW_WAIT:
            return ["draw"]
        items = ["centre"]
        if r.extra_used and r.extra is None:
            items.append("extra")
        items += [f"seat:{s}" for s, c in sorted(r.seat_cards.items()) if c is None]
        return items

    def _entered(self) -> dict[str, str]:
        return self.memory.entered.get((self.game.round.number, self.stage), {})

    def _entry_item(self) -> str | None:
        entered = self._entered()
        return next((item for item in self._entry_items() if item not in entered), None)

    def _entry_button(self, event: ButtonEvent) -> None:
        item = self._entry_item()
        if item is None:
            return
        if event.button in ("minus", "plus") and event.kind in (PRESS, REPEAT):
            step = 1 if event.button == "plus" else -1
            self._entry_index = (self._entry_index + step) % len(C.ALL_CARDS)
            self._log_press(event, C.display_name(C.ALL_CARDS[self._entry_index]))
        elif event.button == "ok" and event.kind == PRESS:
            card = C.ALL_CARDS[self._entry_index]
            self._log_press(event, f"{item} is {C.display_name(card)}")
            self._note(table=store.ENTERED, round=self.game.round.number, wait=self.stage, item=item, card=card)
            if self._entry_item() is None:
                self._apply_entries()

    def _apply_entries(self) -> None:
        entered, round_number, stage = self._entered(), self.game.round.number, self.stage
        if stage == DRAW_WAIT:
            event = DrawReplacement(entered["draw"])
        else:
            seats = {int(item[5:]): card for item, card in entered.items() if item.startswith("seat:")}
            event = Reveal(entered["centre"], entered.get("extra"), seats or None)
        if not self._apply(event):
            self._note(table=store.ENTRIES_CLEARED, round=round_number, wait=stage)

    # ------------------------------------------------------------------ the camera

    def _on_camera(self, result: CameraResult) -> None:
        self._camera_busy = False
        self._next_read = self.clock() + self.pacing.camera_interval
        wait = self._wait
        if wait is None or result.wait != self._wait_id:
            return  # the flow moved on while this frame was read
        settled = wait.feed(result.reading, error=result.error is not None)
        if wait.name == W.STANDS:
            if settled and "players" not in self.setup.touched:
                self._stands = settled
                self.setup.values["players"] = self._players_within(settled)
            return
        self._record_problems(wait, result.error)
        if settled is not None:
            self._settled(wait.name, settled, result)
        elif wait.failures >= self.pacing.manual_after:
            self._go_manual(f"{wait.failures} failed camera reads")

    def _record_problems(self, wait: W.CameraWait, error: str | None) -> None:
        """Observations go to the record too, once per change (not once per read)."""
        problems = tuple(p.to_dict() for p in wait.problems)
        if problems and problems != self._last_problems:
            note = dict(table=store.CAMERA, round=self._wait_round(), wait=wait.name, problems=list(problems))
            if error:
                note["error"] = error
            self._note(**note)
        self._last_problems = problems

    def _settled(self, name: str, settled, result: CameraResult) -> None:
        game = self.game
        if name == W.DEAL:
            self._log(f"camera: the cards of round {game.round_number + 1} are on the table")
            self._apply(Deal(settled))
        elif name == W.EXTRA:
            self._log("camera: the Coyote card's draw lies face down on the extra slot")
            self._note(table=store.EXTRA_ON_MAT, round=game.round.number, by="camera")
        elif name == W.REVEAL:
            round_number = game.round.number
            event = Reveal(settled.centre, settled.extra, dict(settled.seats) or None)
            if self._apply(event):
                self._reveal_seen(round_number, "reveal", result)
        else:
            round_number = game.round.number
            if self._apply(DrawReplacement(settled)):
                self._reveal_seen(round_number, "draw", result)

    def _reveal_seen(self, round_number: int, what: str, result: CameraResult) -> None:
        for listener in self.listeners:
            listener.on_reveal(round_number, what, result.frame, result.reading)

    # ------------------------------------------------------------------ time

    def _timeout(self) -> float | None:
        """Seconds until the loop must act by itself; None: only an item can wake it."""
        deadlines = [t.until for t in (self._flash, self._notice, self._offer) if t is not None]
        deadlines += [d for d in (self._frame_due, self._verdict_due, self._page_flip) if d is not None]
        if self._wait is not None and self._camera is not None and not self._camera_busy:
            deadlines.append(self._next_read)
        if self._watchdog_every is not None:
            deadlines.append(self._last_ping + self._watchdog_every)
        if not deadlines:
            return None
        return max(0.0, min(deadlines) - self.clock())

    def _on_time(self) -> None:
        now = self.clock()
        for name in ("_flash", "_notice", "_offer"):
            timed = getattr(self, name)
            if timed is not None and now >= timed.until:
                setattr(self, name, None)
        if self._frame_due is not None and now >= self._frame_due:
            self._frame = (self._frame + 1) % len(self._frames)
            self._frame_due = now + self.pacing.page_seconds
        if self._verdict_due is not None and now >= self._verdict_due:
            self._verdict_due = None
            self._log("verdict: moving on by itself")
            self._acknowledge_verdict()
        if self._wait is not None and self._camera is not None and not self._camera_busy and now >= self._next_read:
            self._camera_busy = True
            self._camera.request(self._wait_id)

    # ------------------------------------------------------------------ the screen

    def _refresh(self) -> None:
        """Re-derive the stage; enter a new situation; redraw and re-prompt if anything changed."""
        self.stage = self._derive_stage()
        situation = self._situation_key()
        if situation != self._situation:
            self._situation = situation
            self._enter()
            self._on_time()  # a new wait reads the camera at once
        screen = self._screen()
        if self.stage == VERDICT:
            self._page_flip = None  # the verdict turns its own pages
        else:
            screen = self._paged(screen)
        if screen != self._shown:
            self._shown = screen
            if self.display is not None:
                self.display.show(screen)
            for listener in self.listeners:
                listener.on_screen(self.stage, screen)
        prompt = self._make_prompt()
        if prompt != self._prompt:
            self._prompt = prompt
            for listener in self.listeners:
                listener.on_prompt(prompt)

    def _situation_key(self) -> tuple:
        if self.table is None:
            return (SETUP, self.setup.step)
        game = self.game
        manual = self._manual() if self.stage in W.WAITS else False
        return (self.stage, game.round_number, len(game.history), self.memory.undos, manual,
                len(game.results), self.table.path)

    def _screen(self) -> Screen:
        if self._flash is not None:
            return self._flash.screen
        if self._offer is not None:
            return self._offer.screen
        tr, stage = self.tr, self.stage
        if stage == SETUP:
            step = self.setup.step
            if step == "start":
                return S.start_screen(tr)
            return S.setup_screen(tr, step, self.setup.values[step], self._stands)
        game = self.game
        if stage == TURN:
            if self._notice is not None:
                return self._notice.screen
            return S.turn_screen(tr, game, game.turn, self._selector.choice)
        if stage == GUESS:
            return S.guess_screen(tr, game)
        if stage == VERDICT:
            screen, page = self._frames[self._frame]
            return Screen(screen.title, screen.big, screen.lines, screen.seats, screen.alert, page)
        if stage == GAME_OVER:
            return S.over_screen(tr, game, self.table.writer.fingerprint, offer_new_game=self.new_game_when_over)
        return self._wait_screen()

    def _wait_screen(self) -> Screen:
        tr, stage, game = self.tr, self.stage, self.game
        manual = self._manual()
        problems = self._wait.problems if self._wait is not None else ()
        offer = self._wait is not None and self._wait.reads >= self.pacing.stable_reads + 2 and bool(problems)
        if stage in (REVEAL_WAIT, DRAW_WAIT) and manual:
            item = self._entry_item()
            return S.entry_screen(tr, item or "centre", C.ALL_CARDS[self._entry_index])
        no_camera = self._camera_problem if self._camera is None else None
        if stage == DEAL_WAIT:
            screen = S.deal_screen(tr, game.round_number + 1, problems, manual=manual, offer_manual=offer,
                                   no_camera=no_camera)
        elif stage == EXTRA_WAIT:
            screen = S.extra_screen(tr, game.turn, problems, manual=manual, offer_manual=offer, no_camera=no_camera)
        elif stage == REVEAL_WAIT:
            r = game.round
            screen = S.reveal_screen(tr, r.challenger, r.bid, extra=r.extra_used, problems=problems, offer_manual=offer)
        else:
            screen = S.draw_screen(tr, problems, offer_manual=offer)
        return screen

    def _paged(self, screen: Screen) -> Screen:
        """Lines that need several pages turn them by themselves, one per ``page_seconds``."""
        pages = self._page_count(screen)
        if pages == 1:
            self._page_flip = None
            return screen
        slot = int(self.clock() / self.pacing.page_seconds)
        self._page_flip = (slot + 1) * self.pacing.page_seconds
        return Screen(screen.title, screen.big, screen.lines, screen.seats, screen.alert, slot % pages)

    def _make_prompt(self) -> Prompt:
        if self.table is None:
            step = self.setup.step
            return Prompt(SETUP, self.epoch, 0, (), None, setup=(step, self.setup.values.get(step)))
        game, stage = self.game, self.stage
        seats: tuple[int, ...] = ()
        if stage == TURN or stage == EXTRA_WAIT:
            seats = (game.turn,)
        elif stage == GUESS:
            seats = game.legal().seats
        manual = stage in W.WAITS and self._manual()
        entry = None
        if manual and stage in (REVEAL_WAIT, DRAW_WAIT) and (item := self._entry_item()) is not None:
            entry = (item, C.ALL_CARDS[self._entry_index])
        choice = self._selector.choice if stage == TURN and self._selector is not None else None
        return Prompt(stage, self.epoch, game.round_number, seats, game.config, tuple(game.history),
                      self.memory.undos, choice, manual, entry)

    def _status_text(self) -> str:
        if self.table is None:
            return "setup"
        game = self.game
        return f"round {game.round_number}: {self.stage}" + (f", seat {game.turn}" if self.stage == TURN else "")

    def _new_game(self) -> None:
        self._log("a new game starts")
        self.table, self.memory, self._final_seen = None, store.TableMemory(), False
        self._begin_setup()


def _choice_event(seat: int, choice: Choice) -> E.Event:
    if choice.kind == BID:
        return Bid(seat, choice.amount)
    return {CHALLENGE: Challenge, PEEK: Peek, COYOTE_CARD: UseCoyoteCard}[choice.kind](seat)


#: Play-by-play lines of the actions that only name their seat.
_SEAT_ACTIONS = {
    Challenge: "seat {seat}: Coyote!",
    Peek: "seat {seat} peeks at the centre card",
    UseCoyoteCard: "seat {seat} uses the Coyote card",
    Guess: "seat {seat} has guessed",  # which way stays secret until the verdict
    Undo: "seat {seat} takes back their last bid",
}


def _describe(event: E.Event) -> str:
    """One play-by-play line for an accepted event (no card of an open round)."""
    if isinstance(event, Deal):
        read = sum(1 for c in event.seats.values() if c is not None)
        how = f"camera read {read} seat card(s)" if read else "cards to be entered at the reveal"
        return f"round dealt ({how})"
    if isinstance(event, Bid):
        return f"seat {event.seat} bids {event.amount}"
    if isinstance(event, Reveal):
        return "cards revealed"
    if isinstance(event, DrawReplacement):
        return f"drawn for ?: {C.display_name(event.card)}"
    return _SEAT_ACTIONS[type(event)].format(seat=event.seat)
