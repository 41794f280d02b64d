"""Shared fixtures for the device tests: the repository's pin map and simulated buttons."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices.buttons import ButtonTiming, TableButtons
from coyote_pi.devices.pinmap import PinMap, load_pinmap
from coyote_pi.sim.clock import SimClock, SimScheduler, sim_pin_factory
from coyote_pi.sim.presser import NO_BOUNCE, Bounce, ScheduledFingers, SimulatedPresser
from coyote_pi.sim.table import SimPace

REPO = Path(__file__).resolve().parents[2]


class RecordingQueue(queue.Queue):
    """A queue that also notes which thread put each item (callbacks must only enqueue)."""

    def __init__(self):
        super().__init__()
        self.put_threads: list[str] = []

    def put(self, item, block=True, timeout=None):
        self.put_threads.append(threading.current_thread().name)
        super().put(item, block, timeout)


def drain(events: queue.Queue) -> list:
    """Everything in the queue now, in order."""
    items = []
    while True:
        try:
            items.append(events.get_nowait())
        except queue.Empty:
            return items


@pytest.fixture(scope="session")
def pinmap() -> PinMap:
    return load_pinmap(REPO / "hardware" / "pinmap.toml")


@pytest.fixture
def events() -> RecordingQueue:
    return RecordingQueue()


@pytest.fixture
def factory(sim_time) -> MockFactory:
    """Mock pins whose edges are stamped on the simulated clock (the buttons time edges
    by them); the buttons that run on real time see every edge come with no lag."""
    return sim_pin_factory(sim_time.clock)


@pytest.fixture
def buttons(pinmap, events, factory):
    with TableButtons(pinmap, events, pin_factory=factory) as table:
        yield table


@pytest.fixture
def presser(pinmap, factory, buttons) -> SimulatedPresser:
    """Presses from other threads, with clean edges: a thread the machine stalls only
    makes a press longer, never two of one (the chatter is pressed on simulated time)."""
    return SimulatedPresser(factory, pinmap, bounce=NO_BOUNCE, seed=7)


class SimulatedTime:
    """The button tests' clock: the buttons' debounce reads and repeats and the fingers'
    pin changes are all timers on one :class:`~coyote_pi.sim.clock.SimScheduler`, run by
    :meth:`run_for`. Nothing sleeps and no stall of the machine can change what happens."""

    def __init__(self) -> None:
        self.clock = SimClock(100.0)
        self.timers = SimScheduler(self.clock)

    def run_for(self, seconds: float) -> None:
        """Run every timer due in the next ``seconds`` of simulated time, in order."""
        end = self.clock() + seconds
        while (due := self.timers.next_due()) is not None and due <= end:
            self.clock.advance_to(due)
            self.timers.run_due()
        self.clock.advance_to(end)


@pytest.fixture
def sim_time() -> SimulatedTime:
    return SimulatedTime()


@pytest.fixture
def sim_buttons(pinmap, events, factory, sim_time):
    """The table's buttons on simulated time."""
    with TableButtons(pinmap, events, pin_factory=factory, clock=sim_time.clock, scheduler=sim_time.timers) as table:
        yield table


@pytest.fixture
def fingers(pinmap, factory, sim_buttons, sim_time) -> ScheduledFingers:
    """Fingers with contact chatter (the presser's default bounce) on simulated time."""
    return ScheduledFingers(factory, pinmap, sim_time.timers, ButtonTiming(), SimPace(), bounce=Bounce(), seed=7)
