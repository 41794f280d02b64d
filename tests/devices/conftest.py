"""Shared fixtures for the device tests: the repository's pin map and simulated buttons."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices.buttons import ButtonTiming, TableButtons
from coyote_pi.devices.pinmap import PinMap, load_pinmap
from coyote_pi.sim.presser import SimulatedPresser, played_as_asked

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
    """Presses with realistic contact bounce, from other threads (the buttons are open).
    Every seat pin's recorded levels start here, for :func:`skip_if_stalled`."""
    for seat in pinmap.seats:
        for _, ref in seat.buttons():
            factory.pin(ref.gpio).clear_states()
    return SimulatedPresser(factory, pinmap, seed=7)


def skip_if_stalled(factory, pinmap, taps: dict[tuple[int, str], int], *, held: bool = False) -> None:
    """Skip the test when this machine stalled a finger mid-chatter (or a tap into a
    repeat), so that a pin of ``taps`` ({(seat, button): taps asked}) may really have seen
    more presses than asked, which the debounce rightly counts (see
    :func:`~coyote_pi.sim.presser.played_as_asked`; ``held``: the taps are holds on purpose).
    The check errs towards skipping: a stretched level that merges with a real one is
    harmless, but is not told apart."""
    for (seat, button), count in taps.items():
        pin = factory.pin(getattr(pinmap.seat(seat), button).gpio)
        if not played_as_asked(pin, count, ButtonTiming(), held=held):
            pytest.skip(f"this machine stalled seat {seat}'s {button} finger: its pin held a chatter level "
                        f"past the confirmation time, so it may have seen more than the {count} press(es) asked")
