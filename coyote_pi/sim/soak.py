"""A long evening on the simulated table, with the faults of a real one: ``coyote-pi bench soak``.

Four scripted players play game after game for (by default) eight and a half simulated
hours, while the faults a table meets in an evening come and go: the OLED unplugged
for minutes and I2C errors on its bus, the camera hanging and sending garbage, glitch
trains on the button wires, a full disk, and the service killed with ``kill -9`` and
restarted. At the end, :class:`SoakReport` says how many games were completed, which
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

The faults, each at random moments drawn from the seed (:data:`FAULTS`):

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
  disk (:class:`_Disk` wraps :class:`~coyote_pi.record.RecordWriter`); survived when
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
"""

from __future__ import annotations

import collections
import contextlib
import errno
import gc
import logging
import math
import os
import queue
import random
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from gpiozero.pins.mock import MockFactory
from luma.core.error import DeviceNotFoundError

from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.camera import Camera
from coyote_pi.devices.camera_guard import GuardedCamera
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.display import TableDisplay
from coyote_pi.devices.errors import CameraError
from coyote_pi.devices.events import CHORD, PRESS, ButtonEvent
from coyote_pi.devices.factory import Devices, make_devices
from coyote_pi.devices.pinmap import load_pinmap
from coyote_pi.memory import tune_malloc
from coyote_pi.record import RecordWriter, read_record
from coyote_pi.sim.camera import SceneCamera, SceneReader
from coyote_pi.sim.clock import SimClock, SimScheduler
from coyote_pi.sim.display import FlakyDummy
from coyote_pi.sim.presser import ScheduledFingers
from coyote_pi.sim.table import SimPace, SimTable
from coyote_pi.table import stages
from coyote_pi.table.camera_reads import CameraResult
from coyote_pi.table.config import GameSettings, TableConfig
from coyote_pi.table.controller import Controller
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.rig import resume_or_none
from coyote_pi.vision import TableReader

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
#: The targets: descriptors may not grow at all, memory by less than this.
MAX_GROWTH_MB = 5.0
#: How soon after the OLED answers again the newest screen must be on it.
DISPLAY_BACK_SECONDS = 25.0
#: How soon after a camera fault the table must have got through a wait for cards (on
#: the camera or by the buttons).
PROGRESS_SECONDS = 600.0
#: The seats whose button lines the glitch trains may hit (the pin map has six; four play).
GLITCH_SEATS = range(1, 7)
#: Simulated seconds between two clearings of the mock pins' log of their changes.
PIN_LOG_SECONDS = 60.0


@dataclass(frozen=True)
class Fault:
    """One kind of fault: how often it comes (mean minutes between two) and for how long."""

    name: str
    every_minutes: float
    lasts_minutes: tuple[float, float] = (0.0, 0.0)


#: The faults of an evening, by name.
FAULTS: dict[str, Fault] = {fault.name: fault for fault in (
    Fault("OLED unplugged", 75, (2, 6)),
    Fault("I2C errors on the OLED bus", 12),
    Fault("camera hung", 50, (5, 15)),
    Fault("camera garbage frames", 40, (1, 4)),
    Fault("glitch train on a button line", 6),
    Fault("full disk", 200, (5, 15)),
    Fault("kill -9 and restart", 100),
)}


@dataclass(frozen=True)
class SoakOptions:
    """What to play: ``hours`` of simulated time, with the faults ``fault_scale`` times as
    often (0: none, a quiet evening)."""

    hours: float = 8.5
    seed: int = 1
    players: int = 4
    variant: str = "trickster"
    fault_scale: float = 1.0
    #: Where the records go (None: a temporary folder, removed afterwards).
    record_dir: Path | None = None


@dataclass(frozen=True)
class Usage:
    """Open file descriptors and resident memory of this process."""

    fds: int
    rss_mb: float

    @classmethod
    def now(cls) -> Usage:
        """Measured now, after a garbage collection (Linux: from ``/proc/self``)."""
        gc.collect()
        fds = len(os.listdir("/proc/self/fd"))  # counts the listing's own descriptor: always one more
        with open("/proc/self/statm", encoding="ascii") as statm:
            resident_pages = int(statm.read().split()[1])
        return cls(fds, resident_pages * os.sysconf("SC_PAGE_SIZE") / 2**20)


@dataclass
class FaultTally:
    """How often a fault was injected, and how often the table came through it."""

    injected: int = 0
    survived: int = 0
    #: Figures that say more about this fault (refused actions, spikes...), printed beside it.
    notes: collections.Counter = field(default_factory=collections.Counter)


@dataclass
class SoakReport:
    """The figures of one soak (see the module docstring for what each means)."""

    options: SoakOptions
    simulated_seconds: float = 0.0
    real_seconds: float = 0.0
    games_completed: int = 0
    actions: int = 0
    faults: dict[str, FaultTally] = field(default_factory=lambda: {name: FaultTally() for name in FAULTS})
    events_lost: int = 0
    start: Usage | None = None
    end: Usage | None = None
    longest_silent_wait: float = 0.0
    #: Where that was: the wait, and whether a capture hung meanwhile.
    longest_silent_where: str = ""
    stops: collections.Counter = field(default_factory=collections.Counter)
    watchdog_pings: int = 0
    warnings: int = 0
    #: The play-by-play's last lines, for a look when something went wrong.
    last_lines: collections.deque = field(default_factory=lambda: collections.deque(maxlen=40))

    @property
    def fd_growth(self) -> int:
        return self.end.fds - self.start.fds

    @property
    def rss_growth_mb(self) -> float:
        return self.end.rss_mb - self.start.rss_mb

    @property
    def ok(self) -> bool:
        """No event lost, no descriptor more, memory grown by less than :data:`MAX_GROWTH_MB`."""
        return self.events_lost == 0 and self.fd_growth <= 0 and self.rss_growth_mb < MAX_GROWTH_MB

    def lines(self) -> list[str]:
        """The report as ``bench soak`` prints it."""
        hours = self.simulated_seconds / 3600
        out = [f"coyote-pi bench soak: {hours:.1f} simulated hours in {self.real_seconds:.0f} s "
               f"(seed {self.options.seed}, {self.options.players} players, {self.options.variant})",
               f"  games completed: {self.games_completed} ({self.actions} actions accepted)",
               "  faults injected / survived:"]
        for name, tally in self.faults.items():
            notes = ", ".join(f"{count} {what}" for what, count in sorted(tally.notes.items()))
            out.append(f"      {name:32} {tally.injected:5} / {tally.survived:<5}" + (f"  ({notes})" if notes else ""))
        if self.stops:
            out.append("  the table stopped on: " + ", ".join(f"{why} x{n}" for why, n in self.stops.most_common())
                       + " (restarted as systemd does)")
        out += [
            f"  events lost (accepted actions not in the record): {self.events_lost}      must be 0",
            f"  file descriptors: {self.start.fds} at the start, {self.end.fds} at the end: "
            f"{self.fd_growth:+d}      must be +0",
            f"  resident memory: {self.start.rss_mb:.1f} MB at the start, {self.end.rss_mb:.1f} MB at the end: "
            f"{self.rss_growth_mb:+.1f} MB      must be under +{MAX_GROWTH_MB:.0f} MB",
            f"  longest wait for cards with no reason on the screen: {self.longest_silent_wait:.1f} s"
            + (f" ({self.longest_silent_where})" if self.longest_silent_where else ""),
            f"  watchdog pings: {self.watchdog_pings}; warnings logged: {self.warnings}",
            f"  {'PASS' if self.ok else 'FAIL'}",
        ]
        return out


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


# --------------------------------------------------------------------------- the hardware


class _Panel:
    """The OLED on its I2C bus: one luma panel (in memory) that can vanish and glitch."""

    def __init__(self, clock: SimClock) -> None:
        self._clock = clock
        self._gone = False
        self.errors = 0  #: writes still to fail in the current burst of I2C errors
        #: Since when the panel answers every write (after an outage or a burst of errors).
        self.answering_since = clock()
        self.device = FlakyDummy(self._fails, width=128, height=64)

    @property
    def gone(self) -> bool:
        return self._gone

    @gone.setter
    def gone(self, gone: bool) -> None:
        self._gone = gone
        self.answering_since = self._clock()

    def answering_for(self, seconds: float) -> bool:
        """The panel has answered every write for ``seconds``."""
        return not self._gone and not self.errors and self._clock() >= self.answering_since + seconds

    def open(self):
        """What :func:`~coyote_pi.devices.display.luma_opener`'s function does: the panel, or luma's error."""
        if self.gone:
            raise DeviceNotFoundError("no display answers at 0x3C on /dev/i2c-1 (Remote I/O error)")
        return self.device

    def _fails(self, call: int) -> bool:
        if self.errors:
            self.errors -= 1
            self.answering_since = self._clock()
            return True
        return self._gone


class _Camera(Camera):
    """The scene camera, hanging or sending noise while those faults last.

    A *stall* blocks one capture until the guard interrupts it; *stuck* blocks every
    capture until :meth:`unstick`, whatever the guard does. :attr:`hangs` counts the
    captures that blocked.
    """

    description = "soak camera"

    def __init__(self, scene: Callable[[], object], seed: int) -> None:
        self._scene = SceneCamera(scene)
        self._noise = np.random.default_rng(seed)
        self.garbage = False
        self.hang: str | None = None  #: "stall", "stuck" or None
        self.hangs = 0
        self._blocked = threading.Event()

    def start_hang(self, kind: str) -> None:
        """The next capture blocks: a ``"stall"`` until interrupted, ``"stuck"`` (and every
        capture after it) until :meth:`unstick`."""
        self._blocked = threading.Event()
        self.hang = kind

    def capture(self):
        if self.hang is not None:
            blocked = self._blocked
            self.hangs += 1
            if self.hang == "stall":
                self.hang = None  # one capture only
            blocked.wait()
            raise CameraError("the capture was cancelled")
        if self.garbage:
            return self._noise.integers(0, 256, size=(180, 320, 3), dtype=np.uint8)
        return self._scene.capture()

    def interrupt(self) -> None:
        if self.hang != "stuck":
            self._blocked.set()

    def unstick(self) -> None:
        self.hang = None
        self._blocked.set()


class _Reader:
    """Reads the scene perfectly, and a garbage frame with the real vision code."""

    def __init__(self, scheme: str) -> None:
        self._scene, self._vision = SceneReader(), TableReader(scheme)

    def read(self, frame):
        return self._vision.read(frame) if isinstance(frame, np.ndarray) else self._scene.read(frame)


class _Disk:
    """The record's disk, full for a while: appends then fail with ENOSPC as ``os.write`` does."""

    def __init__(self) -> None:
        self.full = False

    @contextlib.contextmanager
    def installed(self):
        """Wrap :class:`~coyote_pi.record.RecordWriter`'s appends while the soak runs."""
        append = RecordWriter._append
        disk = self

        def append_unless_full(writer, bodies):
            if disk.full:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(writer.path))
            return append(writer, bodies)

        RecordWriter._append = append_unless_full
        try:
            yield self
        finally:
            RecordWriter._append = append


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


class _Glitches:
    """The button lines under a glitch train, and the presses seen on them meanwhile."""

    def __init__(self) -> None:
        #: (seat, button) -> [until, presses by the fingers, presses counted by the buttons]
        self.watched: dict[tuple[int, str], list] = {}

    def finger(self, seat: int, button: str) -> None:
        if (watch := self.watched.get((seat, button))) is not None:
            watch[1] += 1

    def event(self, event: ButtonEvent) -> None:
        watch = self.watched.get((event.seat, event.button))
        if watch is not None and event.kind in (PRESS, CHORD) and event.time <= watch[0]:
            watch[2] += 1

    def spurious(self, line: tuple[int, str]) -> int:
        """Stop watching ``line``: the presses the glitches made (those the fingers did not)."""
        _, fingers, counted = self.watched.pop(line)
        return max(0, counted - fingers)


class _Queue(queue.Queue):
    """The controller's queue, telling the glitch watch of every button event put in."""

    def __init__(self, glitches: _Glitches) -> None:
        super().__init__()
        self._glitches = glitches

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, ButtonEvent):
            self._glitches.event(item)
        super().put(item, block, timeout)


# --------------------------------------------------------------------------- the people


#: Simulated seconds people take before they act on what the table newly asks:
#: (shortest, longest) by stage; a further press in the same situation takes PRESS_SECONDS.
THINK_SECONDS = {
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
        self._situation: tuple = ()
        self._look: object = None

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
        self.panel = _Panel(self.clock)
        self.camera = _Camera(lambda: self.sim.scene(), options.seed)
        self.reader = _Reader(self.config.scheme)
        self.disk = _Disk()
        self.glitches = _Glitches()
        self.people = _People(self, options.seed)
        self._listeners = [self.people, *listeners]
        self._notifier = _Notifier(self.report)
        self.pin_factory = MockFactory()
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
        self._laid: tuple = ()
        self._silent_since: float | None = None
        self._silent_in: tuple[str, int] = ("", 0)  # the wait silent since then, and the hangs so far
        self._history_length = 0
        self._wait: tuple | None = None
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

    def _step(self, item) -> None:
        try:
            self.controller.step(item)
        except Exception as error:  # the service would exit and systemd restart it
            self._stopped(f"{type(error).__name__} ({error.strerror if isinstance(error, OSError) else error})")
            return
        self._after_step()

    def _after_step(self) -> None:
        controller, now = self.controller, self.clock()
        game = controller.game
        if game is None:
            return
        if controller.table.path != self._game_path:
            if self._game_path is not None:  # a new game: new cards, new decisions
                self.sim = self._new_sim()
            self._game_path, self._history_length = controller.table.path, 0
        if len(game.history) != self._history_length:
            self.report.actions += max(0, len(game.history) - self._history_length)
            self._history_length = len(game.history)
        if controller.stage == stages.GAME_OVER and self._counted_over != controller.table.path:
            self._counted_over = controller.table.path
            self.report.games_completed += 1
            self.report.events_lost += self._lost(controller)
        wait = (controller.stage, game.round_number, len(game.history)) if controller.stage in stages.WAITS else None
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
        events = _Queue(self.glitches)
        display = TableDisplay(self.panel.open, size=(128, 64), clock=self.clock, scheduler=self.timers)
        buttons = TableButtons(self.pinmap, events, pin_factory=self.pin_factory,
                               timing=self.devices_config.buttons.timing, clock=self.clock, scheduler=self.timers)
        camera = GuardedCamera(self.camera, timeout=GUARD_REAL_SECONDS, restarts=self.devices_config.camera.restarts)
        devices = make_devices(self.devices_config, events, parts={"display": display, "buttons": buttons,
                                                                   "camera": camera})
        self._epoch += 1
        try:
            controller = Controller(self.config, display=devices.display, camera=devices.camera, reader=self.reader,
                                    table=resume_or_none(self.config, new=False), listeners=self._listeners,
                                    notifier=self._notifier, clock=self.clock, epoch=self._epoch,
                                    new_game_when_over=True, events=events)
            controller.begin()
        except Exception as error:
            devices.close()
            self._stopped_at = self.clock()
            self.report.stops[f"{type(error).__name__} while starting"] += 1
            self.timers.call_later(RESTART_SECONDS, self._start_table)
            return
        self.controller, self.devices = controller, devices
        self._after_step()

    def _abandon(self) -> tuple[Path, tuple] | None:
        """Let go of the table as a killed process does; the game it had in memory, if any."""
        controller, devices = self.controller, self.devices
        if controller is None:
            return None
        self._quiet_now()
        self.controller = self.devices = None
        played = (controller.table.path, tuple(controller.game.history)) if controller.table is not None else None
        controller.close()
        devices.close()
        return played

    def _stopped(self, why: str) -> None:
        """The table stopped on an exception: count it, restart it as systemd would."""
        self.report.stops[why] += 1
        self._stopped_at = self.clock()
        self._restart(self._abandon(), torn=False)

    def _restart(self, played: tuple[Path, tuple] | None, *, torn: bool, tally: FaultTally | None = None) -> None:
        def start_again() -> None:
            self._start_table()
            lost = self._lost_from(*played) if played is not None else 0
            self.report.events_lost += lost
            if tally is not None and lost == 0 and self.controller is not None:
                tally.survived += 1

        if torn and played is not None:
            with open(played[0], "ab") as record:  # the write the kill cut short
                record.write(b'{"kind":"action","event":{"type":"bid","se')
            tally.notes["killed mid-write"] += 1
        self.timers.call_later(RESTART_SECONDS, start_again)

    def _lost(self, controller: Controller) -> int:
        if controller.table is None:  # the record never started: nothing was accepted
            return 0
        return self._lost_from(controller.table.path, tuple(controller.game.history))

    @staticmethod
    def _lost_from(path: Path, history: tuple) -> int:
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
        silent = controller.stage in stages.WAITS and self._laid == (
            controller.epoch, controller.stage, controller.game.round_number, len(controller.game.history)
        ) and not _says_why(controller)
        if silent and self._silent_since is None:
            self._silent_since, self._silent_in = now, (controller.stage, self.camera.hangs)
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
                self.timers.call_at(moment, lambda start=start, tally=tally, lasts=lasts: start(tally, lasts))
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

    def _judge_display(self, tally: FaultTally, after: float) -> None:
        """Survived when the newest screen is on the panel once it has answered again for
        :data:`DISPLAY_BACK_SECONDS` (or the table is down: nothing to show)."""
        self._judge(tally, after + DISPLAY_BACK_SECONDS, lambda: self.devices is None or self.devices.display.healthy,
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
    deadlines, wait = controller.deadlines, controller.camera.wait
    if deadlines.payload(Timer.FLASH) is not None or deadlines.payload(Timer.OFFER) is not None:
        return True
    return controller.is_manual() or (wait is not None and bool(wait.problems))


@contextlib.contextmanager
def _counting_warnings(report: SoakReport):
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
