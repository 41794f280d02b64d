"""A long evening on the simulated table, with the faults of a real one: ``coyote-pi bench soak``.

Four scripted players play game after game for (by default) eight and a half simulated
hours, while the faults a table meets in an evening come and go: the OLED unplugged
for minutes and I2C errors on its bus, the camera hanging and sending garbage, glitch
trains on the button wires, a full disk, and the service killed with ``kill -9`` and
restarted. At the end, :class:`~coyote_pi.sim.soak_report.SoakReport` says how many games were completed, which
faults were survived, how many accepted actions the record lost (must be none),
whether descriptors or memory grew (they must not), and the longest time the table
waited with nothing on its screen to say why.

What is real and what is simulated
----------------------------------
The table is the real one: the :class:`~coyote_pi.table.controller.Controller`, the
record, :class:`~coyote_pi.devices.display.TableDisplay` with its reconnect backoff,
:class:`~coyote_pi.devices.buttons.TableButtons` on gpiozero's mock pins with their
debounce, :class:`~coyote_pi.devices.camera_guard.GuardedCamera` with its deadline and
restarts, the real vision code on every garbage frame. Simulated are the people
(:class:`~coyote_pi.sim.table.SimTable`'s hands and players, pressing through
:class:`~coyote_pi.sim.presser.ScheduledFingers`), the cards (the camera sees the scene
and :class:`~coyote_pi.sim.camera.SceneReader` reads it perfectly), and time.

Time: everything runs on this module's thread on a :class:`~coyote_pi.sim.clock.SimClock`.
The controller is stepped (:meth:`~coyote_pi.table.controller.Controller.step`), and
the display's retries, the buttons' debounce reads and repeats, the people's moves and
the faults are timers of one :class:`~coyote_pi.sim.clock.SimScheduler`. When nothing
is left to do now, the clock jumps to the next moment something is due, so people who
think for seconds and an OLED gone for minutes cost no real time. Only a camera read
runs on a thread (the controller's camera worker, as on the Pi): the driver waits for
it, then charges it :data:`READ_SECONDS` of simulated time, or the capture deadline
of ``[camera] timeout_ms`` when the capture hung (the guard waits
:data:`GUARD_REAL_SECONDS` of real time for it).

The faults, each at random moments drawn from the seed
(:data:`~coyote_pi.sim.soak_report.FAULTS`), each switched on and off in a part of
:mod:`~coyote_pi.sim.soak_parts`:

- *OLED unplugged*: opening the panel fails and every write raises, for minutes;
  survived when the newest screen is back on the panel soon after it returns.
- *I2C errors*: a few panel writes in a row fail; survived likewise.
- *camera hung*: a capture that blocks; mostly one stall that the guard's interrupt
  frees (then it restarts the camera), sometimes a camera stuck until the fault ends
  (the guard gives it up and the cards go by the buttons until the next restart);
  survived when the table did not stop and the game went on.
- *camera garbage*: noise frames for minutes, read by the real vision code.
- *glitch train*: spikes of a few microseconds on one button line; survived when not
  one of them became a press (presses of the players' fingers on that line meanwhile
  are allowed for).
- *full disk*: the record's appends fail with ENOSPC, as ``os.write`` does on a full
  disk (:class:`~coyote_pi.sim.soak_parts.Disk` wraps :class:`~coyote_pi.record.RecordWriter`); survived when
  the table did not stop and the record lost nothing.
- *kill -9*: modelled in this process, not with a signal: between two passes of the
  loop the table is abandoned as a killed process is (its devices and its camera thread
  released as the kernel would; half the time a record line cut short is left at the
  end of the file, as a kill during a write leaves it), and started again from its
  record :data:`RESTART_SECONDS` later, as systemd does. Survived when the resumed game
  is the one that was played. A table that stops on an exception is restarted the
  same way (``Restart=on-failure``) and counted.

Events lost: the actions the table accepted (its game's history in memory, shown to
the players) that are not in the record on disk, compared at every restart, at every
game's end, after a full disk and at the end.

Descriptors and memory are measured (after a garbage collection) at the end of the
warm-up, the first two hours (a quarter of a shorter evening): every fault has come once
in its first half, two games have been played, so every code path has run and filled
its caches; and again at the end, the table still running. The process's allocator is
tuned as ``coyote-pi run`` tunes it (:func:`~coyote_pi.memory.tune_malloc`). A fault is
judged when its time has come (its end, plus a while for the table to show that it got
through), or at the end of the evening, on what happened so far.

This module is the evening itself and stays one piece over 600 lines: the driver that
steps the controller on the simulated clock and restarts it, the people, and each
fault's injection and judgement all act on the one table, clock and report of
:class:`_Soak`. What it plays and reports is :mod:`~coyote_pi.sim.soak_report`; the
parts that fail are :mod:`~coyote_pi.sim.soak_parts`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import queue
import random
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from coyote_pi.config import GameSettings, TableConfig
from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.camera_guard import GuardedCamera
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.display import TableDisplay
from coyote_pi.devices.factory import Devices, make_devices
from coyote_pi.devices.pinmap import load_pinmap
from coyote_pi.devices.scheduler import ScheduledCall
from coyote_pi.engine import Event
from coyote_pi.memory import tune_malloc
from coyote_pi.record import read_record
from coyote_pi.sim.clock import SimClock, SimScheduler, sim_pin_factory
from coyote_pi.sim.presser import ScheduledFingers
from coyote_pi.sim.soak_parts import Disk, Glitches, GlitchWatchedQueue, Panel, SoakCamera, SoakReader
from coyote_pi.sim.soak_report import FAULTS, FaultTally, SoakOptions, SoakReport, Usage
from coyote_pi.sim.table import SimPace, SimTable
from coyote_pi.table import stages
from coyote_pi.table.camera_reads import CameraResult
from coyote_pi.table.controller import Controller, ControllerOptions, QueueItem
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.rig import resume_or_none

#: Simulated seconds a camera read takes on a Pi (a full-resolution still, then its reading).
READ_SECONDS = 0.4
#: Real seconds the soak's camera guard waits for a capture (the simulated wait is ``[camera] timeout_ms``).
GUARD_REAL_SECONDS = 0.05
#: Simulated seconds between a table that stops and its restart (the unit's ``RestartSec``).
RESTART_SECONDS = 5.0
#: Seconds between watchdog pings (the unit's ``WatchdogSec`` is 30: the service pings at half).
WATCHDOG_SECONDS = 15.0
#: Simulated seconds of warm-up (at most: a quarter of the evening), in which each fault comes once.
WARM_UP_SECONDS = 7200.0
#: How soon after the OLED answers again the newest screen must be on it.
DISPLAY_BACK_SECONDS = 25.0
#: How soon after a camera fault the table must have got through a wait for cards (on
#: the camera or by the buttons).
PROGRESS_SECONDS = 600.0
#: The seats whose button lines the glitch trains may hit (the pin map has six; four play).
GLITCH_SEATS = range(1, 7)
#: Simulated seconds between two clearings of the mock pins' log of their changes.
PIN_LOG_SECONDS = 60.0


def run_soak(options: SoakOptions = SoakOptions(), *, listeners: Iterable[Listener] = ()) -> SoakReport:
    """Play the evening ``options`` describe and measure it. ``listeners`` watch every
    controller of the evening too (a test hands in one that leaks, to see it caught)."""
    if not options.hours > 0:
        raise ValueError(f"hours must be positive, not {options.hours:g}")
    tune_malloc()  # as coyote-pi run does: the table's memory is measured as the service has it
    with contextlib.ExitStack() as stack:
        folder = options.record_dir
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="coyote-soak-")))
        soak = _Soak(options, folder, list(listeners))
        stack.enter_context(soak.disk.installed())
        stack.enter_context(_counting_warnings(soak.report))
        return soak.run()


# --------------------------------------------------------------------------- systemd


class _Notifier:
    """systemd as the soak sees it: it counts the watchdog pings."""

    def __init__(self, report: SoakReport) -> None:
        self._report = report

    def ready(self) -> bool:
        return True

    def status(self, text: str) -> bool:
        return True

    def watchdog(self) -> bool:
        self._report.watchdog_pings += 1
        return True

    def stopping(self) -> bool:
        return True

    def watchdog_interval(self) -> float:
        return WATCHDOG_SECONDS


# --------------------------------------------------------------------------- the people


#: Simulated seconds people take before they act on what the table newly asks:
#: (shortest, longest) by stage; a further press in the same situation takes PRESS_SECONDS.
THINK_SECONDS: dict[str, tuple[float, float]] = {
    stages.TURN: (3.0, 15.0),
    stages.GUESS: (3.0, 10.0),
    stages.VERDICT: (8.0, 25.0),
    stages.GAME_OVER: (120.0, 360.0),  # a break, then ok starts the next game
    stages.DEAL_WAIT: (20.0, 45.0),  # gather, shuffle, deal
    stages.SETUP: (1.0, 3.0),
}
OTHER_WAITS_SECONDS = (3.0, 8.0)
PRESS_SECONDS = (0.25, 0.6)


class _People(Listener):
    """The people at the table, as the soak drives them: they look at what the table asks
    a little later (:data:`THINK_SECONDS`) and act, through :class:`ScheduledFingers`."""

    def __init__(self, soak: _Soak, seed: int) -> None:
        self._soak = soak
        self._random = random.Random(seed)
        self.prompt: Prompt | None = None
        self._situation: tuple[object, ...] = ()
        self._look: ScheduledCall | None = None

    def on_prompt(self, prompt: Prompt) -> None:
        self.prompt = prompt
        situation = (prompt.epoch, prompt.stage, prompt.round, len(prompt.history), prompt.undos, prompt.seats,
                     prompt.manual)
        if situation != self._situation:
            self._situation = situation
            low, high = THINK_SECONDS.get(prompt.stage, OTHER_WAITS_SECONDS)
        else:
            low, high = PRESS_SECONDS
        self.look_in(self._random.uniform(low, high))

    def on_log(self, line: str) -> None:
        report = self._soak.report
        report.last_lines.append(line)
        if "NOT SAVED" in line:
            report.faults["full disk"].notes["actions refused, not saved"] += 1

    def look_in(self, seconds: float) -> None:
        if self._look is not None:
            self._look.cancel()
        self._look = self._soak.timers.call_later(seconds, self._look_now)

    def _look_now(self) -> None:
        soak, prompt = self._soak, self.prompt
        self._look = None
        if soak.controller is None or prompt is None or prompt.epoch != soak.controller.epoch:
            return  # the table is down: the people wait for its next question
        fingers = soak.fingers
        if fingers.idle_at > soak.clock():  # a hold is still going on: look once it is over
            self.look_in(fingers.idle_at - soak.clock() + soak.pace.settle)
            return
        if prompt.stage == stages.GAME_OVER:
            fingers.tap(1, "ok")
        else:
            soak.sim.act_on(prompt)
            if prompt.stage in stages.WAITS:
                soak.cards_laid(prompt)
        self.look_in(soak.pace.retry)  # nothing changed by then: a press got lost, act again


# --------------------------------------------------------------------------- the evening


class _Soak:
    """One evening: the table, the people, the faults, and the figures they make."""

    def __init__(self, options: SoakOptions, folder: Path, listeners: list[Listener]) -> None:
        self.options = options
        self.report = SoakReport(options)
        self.clock = SimClock()
        self.timers = SimScheduler(self.clock)
        self.config = TableConfig(game=GameSettings(options.players, options.variant, "en", 1), record_dir=folder)
        self.devices_config = DevicesConfig.preset("sim")
        self.pace = SimPace(think=0.0, card=0.0, verdict=0.0, hold=0.09)
        self.rng = random.Random(options.seed)
        self.panel = Panel(self.clock)
        self.camera = SoakCamera(lambda: self.sim.scene(), options.seed)
        self.reader = SoakReader(self.config.scheme)
        self.disk = Disk()
        self.glitches = Glitches()
        self.people = _People(self, options.seed)
        self._listeners = [self.people, *listeners]
        self._notifier = _Notifier(self.report)
        self.pin_factory = sim_pin_factory(self.clock)
        self.pinmap = load_pinmap(self.devices_config.buttons.pinmap or None)
        self.fingers = ScheduledFingers(self.pin_factory, self.pinmap, self.timers,
                                        self.devices_config.buttons.timing, self.pace, seed=options.seed,
                                        on_press=self.glitches.finger)
        self.sim = self._new_sim()
        self.controller: Controller | None = None
        self.devices: Devices | None = None
        self._epoch = 0
        self._game_path: Path | None = None
        self._counted_over: Path | None = None
        self._held = False  # a camera reading is being charged its simulated time
        self._hangs_charged = 0
        self._laid: tuple[object, ...] = ()
        self._silent_since: float | None = None
        self._silent_in: tuple[str, int] = ("", 0)  # the wait silent since then, and the hangs so far
        self._history_length = 0
        self._wait: tuple[str, int, int] | None = None
        self._wait_passed_at = -math.inf
        self._stopped_at = -math.inf
        self._judges: set[Callable[[], None]] = set()

    # -- the run ------------------------------------------------------------------

    def run(self) -> SoakReport:
        report, end = self.report, self.options.hours * 3600
        started = time.monotonic()
        warm_up = min(WARM_UP_SECONDS, end / 4)
        self._schedule_faults(end, warm_up)
        self._clear_pin_logs()
        self.timers.call_at(warm_up, self._measure_start)
        self._start_table()
        while self.clock() < end:
            if not self._deliver_one():
                due = min((d for d in (self.timers.next_due(), self._controller_due()) if d is not None),
                          default=end)
                self.clock.advance_to(min(due, end))
                self.timers.run_due()
                if self.controller is not None:
                    self._step(None)
        self._quiet_now()
        if self.controller is not None:
            report.events_lost += self._lost(self.controller)
        for judge in list(self._judges):
            judge()
        report.end = Usage.now()
        report.simulated_seconds, report.real_seconds = self.clock(), time.monotonic() - started
        self._abandon()
        self.camera.unstick()
        return report

    def _clear_pin_logs(self) -> None:
        """gpiozero's mock pins log every change for tests' ``assert_states``; a real pin
        logs none, so that log (tens of thousands of spikes and chatter edges in an
        evening) is emptied every :data:`PIN_LOG_SECONDS`, lest it count as the table's."""
        for seat in self.pinmap.seats:
            for _, line in seat.buttons():
                self.pin_factory.pin(line.gpio).clear_states()
        self.timers.call_later(PIN_LOG_SECONDS, self._clear_pin_logs)

    def _measure_start(self) -> None:
        if self.report.start is None:
            self.report.start = Usage.now()

    def _controller_due(self) -> float | None:
        return None if self.controller is None else self.controller.deadlines.next_due()

    def _deliver_one(self) -> bool:
        """Hand the controller the next queue item, if one is there (or one the camera worker
        is about to put there); False when there is none."""
        controller = self.controller
        if controller is None:
            return False
        try:
            item = controller.queue.get_nowait()
        except queue.Empty:
            if not controller.camera.busy or self._held:
                return False
            try:
                item = controller.queue.get(timeout=30)  # the guard bounds a capture in real time
            except queue.Empty:
                raise RuntimeError("the camera worker gave no reading within 30 s") from None
        if isinstance(item, CameraResult):
            self._held = True
            self.timers.call_later(self._read_seconds(), lambda: self._deliver_reading(controller, item))
        else:
            self._step(item)
        return True

    def _read_seconds(self) -> float:
        """The simulated time the last camera read took: the capture deadline if it hung."""
        hangs, self._hangs_charged = self.camera.hangs - self._hangs_charged, self.camera.hangs
        if not hangs:
            return READ_SECONDS
        deadline = self.devices_config.camera.timeout_ms / 1000
        return deadline * (2 if self.camera.hang == "stuck" else 1) + READ_SECONDS

    def _deliver_reading(self, controller: Controller, result: CameraResult) -> None:
        self._held = False
        if controller is self.controller:  # a table killed meanwhile never gets it
            self._step(result)

    def _step(self, item: QueueItem | None) -> None:
        controller = self.controller
        if controller is None:
            return  # the table is down until its restart: nothing takes the item
        try:
            controller.step(item)
        except Exception as error:  # the service would exit and systemd restart it
            self._stopped(f"{type(error).__name__} ({error.strerror if isinstance(error, OSError) else error})")
            return
        self._after_step(controller)

    def _after_step(self, controller: Controller) -> None:
        now = self.clock()
        recorded = controller.state.recorded
        if recorded is None:
            return
        game = recorded.game
        if recorded.path != self._game_path:
            if self._game_path is not None:  # a new game: new cards, new decisions
                self.sim = self._new_sim()
            self._game_path, self._history_length = recorded.path, 0
        if len(game.history) != self._history_length:
            self.report.actions += max(0, len(game.history) - self._history_length)
            self._history_length = len(game.history)
        if controller.state.stage == stages.GAME_OVER and self._counted_over != recorded.path:
            self._counted_over = recorded.path
            self.report.games_completed += 1
            self.report.events_lost += self._lost(controller)
        wait = (controller.state.stage, game.round_number, len(game.history)) if controller.state.stage in stages.WAITS else None
        if wait != self._wait and self._wait is not None:
            self._wait_passed_at = now
        self._wait = wait
        self._watch_silence(controller, now)

    # -- the table's life -----------------------------------------------------------

    def _new_sim(self) -> SimTable:
        seed = self.rng.randrange(1 << 30)
        return SimTable(seats=self.options.players, seed=seed, fingers=self.fingers, pace=self.pace,
                        scheme=self.config.scheme, clock=self.clock)

    def _start_table(self) -> None:
        """Start the table as ``coyote-pi run`` does: resume the unfinished game of the record."""
        events = GlitchWatchedQueue(self.glitches)
        display = TableDisplay(self.panel.open, size=(128, 64), clock=self.clock, scheduler=self.timers)
        buttons = TableButtons(self.pinmap, events, pin_factory=self.pin_factory,
                               timing=self.devices_config.buttons.timing, clock=self.clock, scheduler=self.timers)
        camera = GuardedCamera(self.camera, timeout=GUARD_REAL_SECONDS, restarts=self.devices_config.camera.restarts)
        devices = make_devices(self.devices_config, events, parts={"display": display, "buttons": buttons,
                                                                   "camera": camera})
        self._epoch += 1
        try:
            options = ControllerOptions(display=devices.display, camera=devices.camera, reader=self.reader,
                                        resumed=resume_or_none(self.config, new=False), listeners=self._listeners,
                                        notifier=self._notifier, clock=self.clock, epoch=self._epoch,
                                        new_game_when_over=True, events=events)
            controller = Controller(self.config, options)
            controller.begin()
        except Exception as error:
            devices.close()
            self._stopped_at = self.clock()
            self.report.stops[f"{type(error).__name__} while starting"] += 1
            self.timers.call_later(RESTART_SECONDS, self._start_table)
            return
        self.controller, self.devices = controller, devices
        self._after_step(controller)

    def _abandon(self) -> tuple[Path, tuple[Event, ...]] | None:
        """Let go of the table as a killed process does; the game it had in memory, if any."""
        controller, devices = self.controller, self.devices
        if controller is None or devices is None:  # (both are set, and cleared, together)
            return None
        self._quiet_now()
        self.controller = self.devices = None
        played = (controller.state.recorded.path, tuple(controller.game.history)) if controller.state.recorded is not None else None
        controller.close()
        devices.close()
        return played

    def _stopped(self, why: str) -> None:
        """The table stopped on an exception: count it, restart it as systemd would."""
        self.report.stops[why] += 1
        self._stopped_at = self.clock()
        self._restart(self._abandon(), torn=False)

    def _restart(self, played: tuple[Path, tuple[Event, ...]] | None, *, torn: bool, tally: FaultTally | None = None) -> None:
        def start_again() -> None:
            self._start_table()
            lost = self._lost_from(*played) if played is not None else 0
            self.report.events_lost += lost
            if tally is not None and lost == 0 and self.controller is not None:
                tally.survived += 1

        if torn and played is not None:
            with open(played[0], "ab") as record:  # the write the kill cut short
                record.write(b'{"kind":"action","event":{"type":"bid","se')
            if tally is not None:
                tally.notes["killed mid-write"] += 1
        self.timers.call_later(RESTART_SECONDS, start_again)

    def _lost(self, controller: Controller) -> int:
        if controller.state.recorded is None:  # the record never started: nothing was accepted
            return 0
        return self._lost_from(controller.state.recorded.path, tuple(controller.game.history))

    @staticmethod
    def _lost_from(path: Path, history: tuple[Event, ...]) -> int:
        """How many of the actions in ``history`` (accepted, shown) the record at ``path`` lacks."""
        try:
            # As the service reads it on resume: an open round opens from its private file.
            on_disk = read_record(path, allow_torn_tail=True, private=True).game.history
        except Exception:  # an unreadable record lost everything
            return len(history)
        kept = next((i for i, (a, b) in enumerate(zip(history, on_disk)) if a != b), min(len(history), len(on_disk)))
        return len(history) - kept

    # -- what the table shows while it waits ------------------------------------------

    def cards_laid(self, prompt: Prompt) -> None:
        """The hands have laid what the wait of ``prompt`` asks for."""
        self._laid = (prompt.epoch, prompt.stage, prompt.round, len(prompt.history))
        if self.controller is not None:
            self._watch_silence(self.controller, self.clock())

    def _watch_silence(self, controller: Controller, now: float) -> None:
        """Time the table waits for cards that lie there, with no reason on its screen."""
        silent = controller.state.stage in stages.WAITS and self._laid == (
            controller.epoch, controller.state.stage, controller.game.round_number, len(controller.game.history)
        ) and not _says_why(controller)
        if silent and self._silent_since is None:
            self._silent_since, self._silent_in = now, (controller.state.stage, self.camera.hangs)
        elif not silent:
            self._quiet_now()

    def _quiet_now(self) -> None:
        if self._silent_since is not None:
            lasted, (stage, hangs) = self.clock() - self._silent_since, self._silent_in
            if lasted > self.report.longest_silent_wait:
                hung = ", a capture hung" if self.camera.hangs > hangs else ""
                self.report.longest_silent_wait, self.report.longest_silent_where = lasted, f"{stage} wait{hung}"
            self._silent_since = None

    # -- the faults -----------------------------------------------------------------------

    def _schedule_faults(self, end: float, warm_up: float) -> None:
        """Each fault at random moments, on average every ``every_minutes`` (divided by the
        scale), the first during the warm-up."""
        if self.options.fault_scale <= 0:
            return
        starters = {
            "OLED unplugged": self._unplug_oled,
            "I2C errors on the OLED bus": self._i2c_errors,
            "camera hung": self._hang_camera,
            "camera garbage frames": self._garbage_frames,
            "glitch train on a button line": self._glitch_train,
            "full disk": self._fill_disk,
            "kill -9 and restart": self._kill,
        }
        for name, start in starters.items():
            fault, tally = FAULTS[name], self.report.faults[name]
            mean = fault.every_minutes * 60 / self.options.fault_scale
            moment = self.rng.uniform(0.025, 0.5) * warm_up
            while moment < end:
                lasts = self.rng.uniform(*fault.lasts_minutes) * 60
                self.timers.call_at(moment, functools.partial(start, tally, lasts))
                moment += self.rng.expovariate(1 / mean)

    def _judge(self, tally: FaultTally, after: float, test: Callable[[], bool], ready: Callable[[], bool]) -> None:
        """Count the fault survived if ``test()`` holds once ``ready()`` does, asked first
        ``after`` seconds from now and then every few seconds; at the end of the evening,
        whatever ``ready()`` says."""

        def judge(final: bool = True) -> None:
            if judge not in self._judges:
                return
            if not final and not ready():
                self.timers.call_later(5.0, lambda: judge(final=False))
                return
            self._judges.discard(judge)
            if test():
                tally.survived += 1

        self._judges.add(judge)
        self.timers.call_later(after, lambda: judge(final=False))

    def _display_healthy(self) -> bool:
        """The newest screen is on the panel (or the table is down: nothing to show)."""
        display = self.devices.display if self.devices is not None else None
        return display is None or display.healthy

    def _judge_display(self, tally: FaultTally, after: float) -> None:
        """Survived when the newest screen is on the panel once it has answered again for
        :data:`DISPLAY_BACK_SECONDS` (or the table is down: nothing to show)."""
        self._judge(tally, after + DISPLAY_BACK_SECONDS, self._display_healthy,
                    ready=lambda: self.panel.answering_for(DISPLAY_BACK_SECONDS))

    def _judge_camera(self, tally: FaultTally, after: float) -> None:
        """Survived when the table did not stop and got through a wait for cards since the
        fault came, within :data:`PROGRESS_SECONDS` after it went."""
        since = self.clock()
        give_up = since + after + PROGRESS_SECONDS
        self._judge(tally, after, lambda: self._stopped_at < since and self._wait_passed_at > since,
                    ready=lambda: self._wait_passed_at > since or self.clock() > give_up)

    def _for_a_while(self, part: object, flag: str, lasts: float) -> None:
        """``part.flag`` is True for ``lasts`` seconds from now."""
        setattr(part, flag, True)
        self.timers.call_later(lasts, lambda: setattr(part, flag, False))

    def _unplug_oled(self, tally: FaultTally, lasts: float) -> None:
        tally.injected += 1
        self._for_a_while(self.panel, "gone", lasts)
        self._judge_display(tally, lasts)

    def _i2c_errors(self, tally: FaultTally, lasts: float) -> None:
        tally.injected += 1
        self.panel.errors += self.rng.randint(1, 4)  # the next writes meet them, whenever they come
        self._judge_display(tally, 0.0)

    def _hang_camera(self, tally: FaultTally, lasts: float) -> None:
        tally.injected += 1
        stuck = self.rng.random() < 1 / 3
        self.camera.start_hang("stuck" if stuck else "stall")
        tally.notes["stuck till restart" if stuck else "stalled once"] += 1
        if stuck:
            self.timers.call_later(lasts, self.camera.unstick)
        self._judge_camera(tally, lasts if stuck else 0.0)

    def _garbage_frames(self, tally: FaultTally, lasts: float) -> None:
        tally.injected += 1
        self._for_a_while(self.camera, "garbage", lasts)
        self._judge_camera(tally, lasts)

    def _glitch_train(self, tally: FaultTally, lasts: float) -> None:
        seat, button = self.rng.choice(GLITCH_SEATS), self.rng.choice(("minus", "plus", "ok"))
        if (seat, button) in self.glitches.watched:
            return
        tally.injected += 1
        pin = self.pin_factory.pin(getattr(self.pinmap.seat(seat), button).gpio)
        spikes, apart = self.rng.randint(20, 300), self.rng.uniform(0.0005, 0.02)
        width = self.rng.uniform(1e-6, 50e-6)  # noise on a long wire: microseconds
        timing = self.devices_config.buttons.timing
        until = self.clock() + spikes * apart + width + timing.confirm + timing.debounce
        self.glitches.watched[(seat, button)] = [until, 0, 0]
        tally.notes["spikes"] += spikes

        def spike() -> None:
            held = not pin.state  # a finger holds the button: the spike lifts the line
            (pin.drive_high if held else pin.drive_low)()
            self.timers.call_later(width, pin.drive_low if held else pin.drive_high)

        for number in range(spikes):
            self.timers.call_later(number * apart, spike)

        def judge() -> None:
            presses = self.glitches.spurious((seat, button))
            tally.notes["presses from glitches"] += presses
            if presses == 0:
                tally.survived += 1

        self.timers.call_at(until + 0.1, judge)

    def _fill_disk(self, tally: FaultTally, lasts: float) -> None:
        if self.disk.full:
            return
        tally.injected += 1
        self.disk.full = True
        since = self.clock()

        def free() -> None:
            self.disk.full = False
            lost = self._lost(self.controller) if self.controller is not None else 0
            self.report.events_lost += lost
            if lost == 0 and self._stopped_at < since:
                tally.survived += 1

        self.timers.call_later(lasts, free)

    def _kill(self, tally: FaultTally, lasts: float) -> None:
        if self.controller is None:
            return  # down already
        tally.injected += 1
        self._restart(self._abandon(), torn=self.rng.random() < 0.5, tally=tally)


def _says_why(controller: Controller) -> bool:
    """The table's screen says why it waits: a message, the question "cards by hand?", the
    manual path (it asks for the cards by the buttons) or a problem the camera sees."""
    kept, wait = controller.state.kept, controller.camera.wait
    if kept.flash is not None or kept.offer is not None:
        return True
    return controller.is_manual() or (wait is not None and bool(wait.problems))


@contextlib.contextmanager
def _counting_warnings(report: SoakReport) -> Iterator[None]:
    """Count the warnings and errors the package logs, instead of printing each."""

    class Counter(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            report.warnings += 1

    package = logging.getLogger("coyote_pi")
    handler, propagate, level = Counter(logging.WARNING), package.propagate, package.level
    package.addHandler(handler)
    package.propagate = False
    package.setLevel(logging.WARNING)  # the play-by-play reaches the report through the listener
    try:
        yield
    finally:
        package.removeHandler(handler)
        package.propagate, package.level = propagate, level


# --------------------------------------------------------------------------- the command
