"""The simulated clock: timers that run when the driver moves the clock, and the table's
buttons and display following it, so an evening's presses and retries take no real time."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices.buttons import ButtonTiming, TableButtons
from coyote_pi.devices.display import TableDisplay
from coyote_pi.devices.events import CHORD, PRESS, REPEAT
from coyote_pi.devices.pinmap import load_pinmap
from coyote_pi.devices.screen import Screen
from coyote_pi.sim.clock import SimClock, SimScheduler
from coyote_pi.sim.display import FlakyDummy
from coyote_pi.sim.presser import Bounce, ScheduledFingers
from coyote_pi.sim.table import SimPace


def run_until(timers: SimScheduler, moment: float) -> None:
    """Move the clock from timer to timer up to ``moment``, as a driver does."""
    while (due := timers.next_due()) is not None and due <= moment:
        timers.clock.advance_to(due)
        timers.run_due()
    timers.clock.advance_to(moment)


def drained(events: queue.Queue) -> list:
    items = []
    while not events.empty():
        items.append(events.get_nowait())
    return items


def test_timers_run_in_order_only_when_the_clock_reaches_them():
    clock = SimClock(100.0)
    timers = SimScheduler(clock)
    fired = []
    timers.call_later(2.0, lambda: fired.append(("later", clock())))
    cancelled = timers.call_later(1.0, lambda: fired.append(("cancelled", clock())))
    timers.call_at(101.5, lambda: timers.call_later(0.0, lambda: fired.append(("set by a timer", clock()))))
    cancelled.cancel()
    assert timers.run_due() == 0 and fired == []
    assert timers.next_due() == 101.5  # the cancelled call is skipped
    clock.advance_to(105.0)
    clock.advance_to(50.0)  # never back
    assert timers.run_due() == 3
    assert fired == [("later", 105.0), ("set by a timer", 105.0)]  # earliest due first
    assert clock() == 105.0 and timers.next_due() is None


@pytest.fixture
def table():
    """Buttons on mock pins and fingers, all on one simulated clock."""
    clock = SimClock()
    timers = SimScheduler(clock)
    factory, pinmap, events = MockFactory(), load_pinmap(), queue.Queue()
    timing = ButtonTiming()
    buttons = TableButtons(pinmap, events, pin_factory=factory, timing=timing, clock=clock, scheduler=timers)
    pressed = []
    fingers = ScheduledFingers(factory, pinmap, timers, timing, SimPace(), bounce=Bounce(), seed=3,
                               on_press=lambda seat, button: pressed.append((seat, button)))
    yield timers, fingers, events, pressed
    buttons.close()


def test_scheduled_fingers_press_through_the_debounce_on_the_simulated_clock(table):
    timers, fingers, events, pressed = table
    timing = ButtonTiming()
    fingers.tap(2, "ok")
    fingers.hold(3, "plus", repeats=2)
    assert drained(events) == []  # nothing moves until the clock does
    run_until(timers, 5.0)
    got = drained(events)
    assert [(e.seat, e.button, e.kind) for e in got] == [(2, "ok", PRESS), (3, "plus", PRESS), (3, "plus", REPEAT),
                                                          (3, "plus", REPEAT)]
    # A press counts once the level has held for the confirmation time after its chatter.
    assert timing.confirm <= got[0].time <= timing.confirm + Bounce().longest()
    assert got[2].time - got[1].time == pytest.approx(timing.hold_delay)
    assert got[3].time - got[2].time == pytest.approx(timing.repeat_interval)
    fingers.chord(4)
    run_until(timers, 10.0)
    # Minus goes down first and counts alone, as on a real table; plus then makes it the chord.
    assert [(e.seat, e.button, e.kind) for e in drained(events)] == [(4, "minus", PRESS), (4, "minus+plus", CHORD)]
    assert pressed == [(2, "ok"), (3, "plus"), (4, "minus+plus")]
    assert fingers.idle_at < 10.0


def test_the_display_retries_on_the_simulated_clock():
    clock = SimClock()
    timers = SimScheduler(clock)
    panel = FlakyDummy({1, 2})  # the first two writes fail
    display = TableDisplay(panel, clock=clock, scheduler=timers)
    assert not display.show(Screen(big="Hallo"))
    assert timers.next_due() == 0.5  # the first retry of the backoff
    run_until(timers, 1.0)
    assert not display.healthy and timers.next_due() == 1.5  # the second failed too: 1 s later
    run_until(timers, 2.0)
    assert display.healthy and panel.calls == 3
    display.close()
    assert timers.next_due() is None  # the display's scheduler was given: it stays the driver's
