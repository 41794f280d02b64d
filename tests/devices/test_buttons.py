"""Seat buttons on gpiozero mock pins, pressed from other threads with contact bounce."""

from __future__ import annotations

import dataclasses
import queue
import threading
import time

import pytest

from coyote_pi.devices.buttons import Debouncer, SeatButtons, TableButtons
from coyote_pi.devices.errors import DeviceError
from coyote_pi.devices.events import CHORD, CHORD_BUTTON, PRESS, REPEAT, ButtonEvent
from coyote_pi.devices.pinmap import BUTTONS
from coyote_pi.sim.presser import NO_BOUNCE, Bounce, SimulatedPresser

from .conftest import drain

# Long enough for any pending settle check (debounce 30 ms) and scheduler hop to finish.
SETTLE = 0.1


def settled(events) -> list[ButtonEvent]:
    time.sleep(SETTLE)
    return drain(events)


def test_debouncer_accepts_first_edge_and_ignores_bounce():
    contact = Debouncer(debounce=0.03)
    assert contact.edge(True, 10.000)
    assert [contact.edge(level, 10.000 + i * 0.004) for i, level in enumerate([False, True, False, True], 1)] == [False] * 4
    assert contact.pressed
    assert contact.lockout_remaining(10.010) == pytest.approx(0.02)
    assert contact.edge(False, 10.5)
    assert not contact.pressed


def test_bounce_is_longer_than_a_clean_edge_but_shorter_than_the_debounce():
    bounce = Bounce()
    assert bounce.max_toggles >= 2
    assert bounce.longest() < 0.03  # the default ButtonTiming.debounce


def test_every_button_of_every_seat_gives_exactly_one_press(pinmap, buttons, presser, events):
    """18 bouncy presses from 18 threads, 12 at once then 6: none lost, none doubled.

    (A seat's minus and plus are not pressed together here: that would be the undo chord.)
    """
    for batch in (("minus", "ok"), ("plus",)):
        for seat in pinmap.seats:
            for name in batch:
                presser.press(seat.number, name, hold=0.05)
        presser.wait()
    got = settled(events)
    assert sorted((e.seat, e.button) for e in got) == sorted((s.number, b) for s in pinmap.seats for b in BUTTONS)
    assert {e.kind for e in got} == {PRESS}


def test_presses_are_seen_on_the_presser_threads_and_only_enqueued(buttons, presser, events):
    main = threading.current_thread().name
    presser.tap(3, "ok")
    presser.tap(5, "minus")
    got = settled(events)
    assert [(e.seat, e.button, e.kind) for e in got] == [(3, "ok", PRESS), (5, "minus", PRESS)]
    # The callbacks ran on the fingers' threads (as on gpiozero's threads on a Pi): their only
    # effect the controller can see is the queued event, an immutable value.
    assert events.put_threads and all(name.startswith("finger seat") for name in events.put_threads)
    assert main not in events.put_threads
    with pytest.raises(dataclasses.FrozenInstanceError):
        got[0].seat = 4


def test_rapid_taps_each_count_once(buttons, presser, events):
    for _ in range(5):
        presser.tap(2, "plus", hold=0.05)
        time.sleep(0.05)
    assert [(e.button, e.kind) for e in settled(events)] == [("plus", PRESS)] * 5


def test_a_tap_shorter_than_the_debounce_time_is_not_lost(pinmap, factory, buttons, events):
    """The release falls inside the lockout; the settle check after it still notices it."""
    clean = SimulatedPresser(factory, pinmap, bounce=NO_BOUNCE)
    clean.tap(1, "ok", hold=0.005)
    time.sleep(0.06)
    clean.tap(1, "ok", hold=0.005)
    assert [(e.button, e.kind) for e in settled(events)] == [("ok", PRESS)] * 2
    assert not buttons.seats[1].is_pressed("ok")


def test_hold_repeats_plus_after_delay_then_steadily(buttons, presser, events):
    presser.tap(4, "plus", hold=1.05)
    got = settled(events)
    assert got[0].kind == PRESS and got[0].button == "plus"
    repeats = [e for e in got[1:] if e.kind == REPEAT]
    assert len(repeats) == len(got) - 1
    assert 2 <= len(repeats) <= 4  # at 0.6 s, 0.75 s, 0.9 s (scheduling on a busy machine may shift one)
    assert repeats[0].time - got[0].time >= 0.6 - 0.01
    gaps = [later.time - earlier.time for earlier, later in zip(repeats, repeats[1:])]
    assert all(0.14 <= gap <= 0.3 for gap in gaps), gaps
    assert not buttons.seats[4].is_pressed("plus")


def test_ok_does_not_repeat(buttons, presser, events):
    presser.tap(6, "ok", hold=0.8)
    assert [(e.button, e.kind) for e in settled(events)] == [("ok", PRESS)]


def test_minus_and_plus_together_are_one_chord(buttons, presser, events):
    presser.chord(2, hold=0.9)  # held longer than the repeat delay: still no repeats
    got = settled(events)
    assert [(e.seat, e.button, e.kind) for e in got] == [(2, "minus", PRESS), (2, CHORD_BUTTON, CHORD)]


def test_chord_during_a_hold_stops_the_repeats(buttons, presser, events):
    holding = presser.press(1, "minus", hold=1.3)
    time.sleep(0.85)  # minus is repeating by now
    presser.tap(1, "plus", hold=0.1)
    holding.join()
    got = settled(events)
    kinds = [e.kind for e in got]
    assert kinds[0] == PRESS and REPEAT in kinds
    chord_at = kinds.index(CHORD)
    assert got[chord_at].button == CHORD_BUTTON
    assert kinds[chord_at + 1 :] == []  # after the chord, neither the plus press nor repeats


def test_minus_and_plus_of_different_seats_are_no_chord(buttons, presser, events):
    threads = [presser.press(1, "plus", hold=0.3), presser.press(2, "minus", hold=0.3), presser.press(3, "plus", hold=0.3)]
    for thread in threads:
        thread.join()
    got = settled(events)
    assert sorted((e.seat, e.button, e.kind) for e in got) == [(1, "plus", PRESS), (2, "minus", PRESS), (3, "plus", PRESS)]


def test_closed_buttons_release_their_pins(pinmap, events, factory):
    table = TableButtons(pinmap, events, pin_factory=factory)
    table.close()
    presser = SimulatedPresser(factory, pinmap)
    presser.tap(1, "ok")
    assert settled(events) == []
    with TableButtons(pinmap, events, pin_factory=factory):  # the pins can be opened again
        presser.tap(1, "ok")
        assert [(e.seat, e.button) for e in settled(events)] == [(1, "ok")]


def test_pins_already_in_use_give_a_clear_error(pinmap, buttons, factory):
    with pytest.raises(DeviceError, match="cannot open the buttons of seat 1"):
        TableButtons(pinmap, queue.Queue(), pin_factory=factory)


def test_a_machine_without_gpio_gets_a_clear_error_and_no_fallback_noise(pinmap, monkeypatch):
    """gpiozero falls back through its pin factories (lgpio, RPi.GPIO, pigpio, native),
    warning at each; none works off a Pi, and the user sees one clear error instead."""
    import warnings

    import gpiozero

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a stray gpiozero warning would fail the test
        try:
            table = TableButtons(pinmap, queue.Queue())
        except DeviceError as err:
            assert 'cannot open the buttons of seat 1' in str(err) and 'backend = "mock"' in str(err)
        else:
            table.close()
            pytest.skip("this machine has working GPIO")


def test_single_seat_with_its_own_scheduler(pinmap, factory):
    events = queue.Queue()
    with SeatButtons(pinmap.seat(3), events, pin_factory=factory):
        SimulatedPresser(factory, pinmap, seed=2).tap(3, "minus")
        assert [(e.seat, e.button, e.kind) for e in settled(events)] == [(3, "minus", PRESS)]


def test_injected_clock_stamps_events(pinmap, factory):
    events = queue.Queue()
    ticks = iter(range(1000, 2000))
    with TableButtons(pinmap, events, pin_factory=factory, clock=lambda: float(next(ticks))):
        SimulatedPresser(factory, pinmap, bounce=NO_BOUNCE).tap(1, "ok")
        got = settled(events)
    assert len(got) == 1 and got[0].time >= 1000.0
