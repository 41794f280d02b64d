"""Helpers for the table tests: build a table, play it to the end with a time limit, look back.

Most tests use :func:`play`: it assembles a table with :func:`coyote_pi.sim.rig.open_sim_rig`
(simulated hands and scripted players), runs the controller on a thread, waits for the
game-over screen and returns what happened (the record, the screens, the play-by-play).
A table that stalls fails the test with the last lines of its play-by-play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from coyote_pi.config import GameSettings, Pacing, TableConfig
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.engine import events
from coyote_pi.record import Record, read_record
from coyote_pi.sim.rig import SimOptions, open_sim_rig
from coyote_pi.sim.table import SimPace
from coyote_pi.table.controller import Listener

#: Pacing for tests: no pause between camera reads, quick pages and messages.
FAST = Pacing(camera_interval=0.0, page_seconds=0.3, message_seconds=0.3, manual_after=3)
#: Fingers as quick as the buttons' (test) debounce allows.
QUICK_FINGERS = SimPace(hold=0.03, gap=0.025, retry=2.0)
#: Rendered frames small enough to be quick, large enough for the stickers to read.
TEST_FRAME = (1280, 720)


def sim_devices(frame: tuple[int, int] = TEST_FRAME) -> DevicesConfig:
    """The "sim" preset with small frames and snappy (still debounced) buttons."""
    devices = DevicesConfig.preset("sim")
    return dataclasses.replace(
        devices,
        camera=dataclasses.replace(devices.camera, width=frame[0], height=frame[1]),
        buttons=dataclasses.replace(devices.buttons, debounce_ms=20, hold_ms=300, repeat_ms=80),
    )


def table_config(folder: Path, players: int, variant: str = "basic", *, start: int | None = 1,
                 language: str | None = "en", pacing: Pacing = FAST) -> TableConfig:
    return TableConfig(game=GameSettings(players, variant, language, start), pacing=pacing, record_dir=folder)


class Spy(Listener):
    """Remembers every screen, prompt, log line and reveal the controller reports."""

    def __init__(self) -> None:
        self.screens: list = []
        self.prompts: list = []
        self.lines: list[str] = []
        self.reveals: list = []
        self._changed = threading.Condition()
        self._mark = 0

    def on_screen(self, stage, screen) -> None:
        with self._changed:
            self.screens.append((stage, screen))
            self._changed.notify_all()

    def on_prompt(self, prompt) -> None:
        with self._changed:
            self.prompts.append(prompt)
            self._changed.notify_all()

    def on_log(self, line) -> None:
        self.lines.append(line)

    def on_reveal(self, round_number, what, frame, reading) -> None:
        self.reveals.append((round_number, what, reading))

    def wait_for(self, test, timeout: float = 20.0):
        """Block until a prompt passes ``test``; return it. Only the prompt the previous
        wait returned and later ones count, so successive waits follow the game forward."""

        def found():
            for index in range(self._mark, len(self.prompts)):
                if test(self.prompts[index]):
                    self._mark = index
                    return self.prompts[index]
            return None

        with self._changed:
            prompt = self._changed.wait_for(found, timeout)
        if prompt is None:
            pytest.fail("the table never got there; last lines:\n" + "\n".join(self.lines[-25:]))
        return prompt

    def wait_for_screen(self, test, timeout: float = 20.0):
        """Block until the screen shown now or a later one passes ``test(stage, screen)``; return it."""
        start = max(0, len(self.screens) - 1)

        def found():
            return next((screen for stage, screen in self.screens[start:] if test(stage, screen)), None)

        with self._changed:
            screen = self._changed.wait_for(found, timeout)
        if screen is None:
            pytest.fail("the screen never came; last lines:\n" + "\n".join(self.lines[-25:]))
        return screen

    def texts(self, stage: str | None = None) -> list[str]:
        """Every text shown (title, big, lines), optionally only in one stage."""
        out = []
        for shown_stage, screen in self.screens:
            if stage is None or shown_stage == stage:
                out += [screen.title, screen.big, *screen.lines]
        return out


@dataclass
class Played:
    record: Record
    spy: Spy
    path: Path
    rig: object = field(repr=False, default=None)

    @property
    def game(self):
        return self.record.game


def game_events(record: Record | Path) -> list[dict]:
    """The game events of a record, in order, sealed ones as they were opened; of a record
    file as the table reads it (with the private file that opens the round in progress)."""
    if isinstance(record, Path):
        record = read_record(record, private=True)
    return [events.to_dict(event) for event in record.game.history]


def same_game(record: Record | Path) -> list[dict]:
    """:func:`game_events` with each run of simultaneous guesses in seat order: the order in
    which simultaneous guesses arrive is a race, the game they make is not."""
    ordered, run = [], []
    for event in game_events(record) + [{"type": "end"}]:
        if event["type"] == "guess":
            run.append(event)
            continue
        ordered += sorted(run, key=lambda guess: guess["seat"]) + [event]
        run = []
    return ordered[:-1]


def run_rig(rig, spy: Spy, timeout: float) -> None:
    """Run the rig's controller on a thread until the game-over screen, or fail."""
    failure: list[BaseException] = []

    def body() -> None:
        try:
            rig.run(until_over=True)
        except BaseException as error:  # handed to the test below
            failure.append(error)

    thread = threading.Thread(target=body, name="table under test", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        rig.controller.stop()
        thread.join(5)
        pytest.fail(f"the game did not end within {timeout:.0f} s; last lines:\n" + "\n".join(spy.lines[-30:]))
    if failure:
        raise failure[0]


@contextlib.contextmanager
def running_table(config: TableConfig, sim: SimOptions, *, before_start=None, **rig_options):
    """A table running on a thread while the test presses and watches: yields ``(rig, spy)``.
    ``before_start(rig)`` is called once the rig is built, before its controller runs."""
    spy = Spy()
    rig = open_sim_rig(config, rig_options.pop("devices", None) or sim_devices(), sim,
                       listeners=[spy, *rig_options.pop("listeners", ())], **rig_options)
    if before_start is not None:
        before_start(rig)
    thread = threading.Thread(target=rig.run, name="table under test", daemon=True)
    thread.start()
    try:
        yield rig, spy
    finally:
        rig.controller.stop()
        thread.join(5)
        rig.close()


def play(config: TableConfig, *, sim: SimOptions, devices: DevicesConfig | None = None, timeout: float = 120,
         **rig_options) -> Played:
    """Play a whole simulated game and return its validated record and what was shown."""
    spy = Spy()
    listeners = [spy, *rig_options.pop("listeners", ())]
    rig = open_sim_rig(config, devices or sim_devices(), sim, listeners=listeners, **rig_options)
    try:
        run_rig(rig, spy, timeout)
    finally:
        rig.close()
    path = rig.controller.state.recorded.path
    return Played(read_record(path), spy, path, rig)


def fast_sim(seed: int = 1, **options) -> SimOptions:
    """Scripted players putting events straight into the queue, a perfect-reading camera."""
    return SimOptions(seed=seed, fingers="queue", camera="scene", **options)


class SteppedTable:
    """A table on simulated time: the real controller stepped by the test (:meth:`Controller.step
    <coyote_pi.table.controller.Controller.step>`), its buttons on gpiozero's mock pins pressed
    by :class:`~coyote_pi.sim.presser.ScheduledFingers`, and every timer (the buttons'
    debounce and repeats, the fingers' pin changes, the controller's deadlines) on one
    :class:`~coyote_pi.sim.clock.SimClock`. No camera: the cards go by the buttons. Nothing
    sleeps, so no stall of the machine can change what happens."""

    def __init__(self, config: TableConfig, *, bounce=None, seed: int = 5, **controller_options) -> None:
        from coyote_pi.devices.buttons import TableButtons
        from coyote_pi.devices.pinmap import load_pinmap
        from coyote_pi.sim.clock import SimClock, SimScheduler, sim_pin_factory
        from coyote_pi.sim.presser import NO_BOUNCE, ScheduledFingers
        from coyote_pi.table.controller import Controller, ControllerOptions

        self.clock = SimClock(1000.0)
        self.timers = SimScheduler(self.clock)
        self.spy = Spy()
        timing = sim_devices().buttons.timing
        self.factory, self.pinmap = sim_pin_factory(self.clock), load_pinmap()
        self.controller = Controller(config, ControllerOptions(listeners=[self.spy], clock=self.clock,
                                                               **controller_options))
        self.buttons = TableButtons(self.pinmap, self.controller.queue, pin_factory=self.factory, timing=timing,
                                    clock=self.clock, scheduler=self.timers)
        self.fingers = ScheduledFingers(self.factory, self.pinmap, self.timers, timing, QUICK_FINGERS,
                                        bounce=bounce or NO_BOUNCE, seed=seed)
        self.controller.begin()

    def run_for(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass: every press and timer in them, in order."""
        end = self.clock() + seconds
        while True:
            while not self.controller.queue.empty():
                self.controller.step(self.controller.queue.get_nowait())
            due = [moment for moment in (self.timers.next_due(), self.controller.deadlines.next_due())
                   if moment is not None and moment <= end]
            if not due:
                break
            self.clock.advance_to(min(due))
            self.timers.run_due()
            self.controller.step(None)
        self.clock.advance_to(end)
        self.controller.step(None)

    def tap(self, seat: int, button: str, *, then: float = 0.1) -> None:
        """A clean tap of ``button`` at ``seat``, and ``then`` seconds more."""
        self.fingers.press(seat, button, hold=QUICK_FINGERS.hold)
        self.run_for(QUICK_FINGERS.hold + then)

    def close(self) -> None:
        self.buttons.close()
        self.controller.close()
