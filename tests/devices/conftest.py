"""Shared fixtures for the device tests: the repository's pin map and simulated buttons."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.pinmap import PinMap, load_pinmap
from coyote_pi.sim.presser import SimulatedPresser

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
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def buttons(pinmap, events, factory):
    with TableButtons(pinmap, events, pin_factory=factory) as table:
        yield table


@pytest.fixture
def presser(pinmap, factory, buttons) -> SimulatedPresser:
    """Presses with realistic contact bounce, from other threads (the buttons are open)."""
    return SimulatedPresser(factory, pinmap, seed=7)
