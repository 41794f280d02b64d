"""Seat buttons on gpiozero mock pins, pressed from other threads with contact bounce."""

from __future__ import annotations

import dataclasses
import itertools
import queue
import struct
import sys
import threading
import time
import types

import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices import gpio_lines
from coyote_pi.devices.buttons import ButtonTiming, Debouncer, SeatButtons, TableButtons
from coyote_pi.devices.errors import DeviceError
from coyote_pi.devices.events import CHORD, CHORD_BUTTON, PRESS, REPEAT, ButtonEvent
from coyote_pi.devices.pinmap import BUTTONS
from coyote_pi.sim.presser import NO_BOUNCE, Bounce, LateCallbacks, ScheduledFingers, SimulatedPresser
from coyote_pi.sim.table import SimPace

from .conftest import drain

# Long enough for any pending pin read (confirm 10 ms, debounce 30 ms) and scheduler hop to finish.
SETTLE = 0.1
CONFIRM = ButtonTiming().confirm


def settled(events) -> list[ButtonEvent]:
    time.sleep(SETTLE)
    return drain(events)


def test_debouncer_counts_a_level_only_once_it_held_for_the_confirmation_time():
    contact = Debouncer(confirm=0.01, debounce=0.03)
    assert not contact.edge(True, 10.000)  # the first edge is not yet a press
    assert contact.due == pytest.approx(10.010)
    assert not contact.edge(False, 10.000005)  # a 5-microsecond spike
    assert contact.due is None and not contact.pressed
    assert not contact.settle(False, 10.010)  # the timer set for the spike finds the line idle


def test_debouncer_waits_out_chatter_then_counts_once():
    contact = Debouncer(confirm=0.01, debounce=0.03)
    for i, level in enumerate([True, False, True, False, True]):  # contact chatter, 1 ms apart
        contact.edge(level, 10.000 + i * 0.001)
    assert contact.due == pytest.approx(10.014)  # 10 ms after the last edge
    assert not contact.settle(True, 10.012)  # read too early: not yet
    assert contact.settle(True, 10.014)
    assert contact.pressed and contact.changed_at == 10.014
    # The release: its own chatter, and it counts no sooner than 30 ms after the press.
    assert not contact.edge(False, 10.020)
    assert contact.due == pytest.approx(10.044)
    assert not contact.edge(True, 10.021) and not contact.edge(False, 10.022)
    assert contact.settle(False, 10.044) and not contact.pressed


def test_debouncer_counts_a_held_level_whose_read_came_late():
    """A busy machine ran the timer after the release: the press still counts, as of its due time."""
    contact = Debouncer(confirm=0.01, debounce=0.03)
    contact.edge(True, 5.000)
    assert contact.edge(False, 5.050)  # held 50 ms: it was a press
    assert contact.pressed and contact.changed_at == pytest.approx(5.010)
    assert contact.due == pytest.approx(5.060)  # and now the release is pending


def test_debouncer_ignores_a_spike_while_held_and_catches_a_missed_edge():
    contact = Debouncer(confirm=0.01, debounce=0.03)
    contact.edge(True, 1.0)
    contact.settle(True, 1.01)
    assert not contact.edge(False, 2.0) and not contact.edge(True, 2.000003)  # a spike while held
    assert contact.pressed and contact.due is None
    # The pin reads released with no edge seen: a release only if it still holds 10 ms later.
    assert not contact.settle(False, 3.0)
    assert contact.due == pytest.approx(3.01)
    assert contact.settle(False, 3.01) and not contact.pressed


def test_bounce_is_longer_than_a_clean_edge_but_its_gaps_shorter_than_the_confirmation():
    bounce = Bounce()
    assert bounce.max_toggles >= 2
    assert bounce.max_gap < CONFIRM  # chatter never holds a level long enough to count
    assert bounce.longest() < ButtonTiming().debounce


def test_every_button_of_every_seat_gives_exactly_one_press(pinmap, sim_buttons, fingers, sim_time, events):
    """18 bouncy presses, 12 at once then 6: none lost, none doubled.

    (A seat's minus and plus are not pressed together here: that would be the undo chord.)
    """
    for start, batch in ((0.0, ("minus", "ok")), (0.2, ("plus",))):
        for seat in pinmap.seats:
            for name in batch:
                fingers.press(seat.number, name, hold=0.05, delay=start)
    sim_time.run_for(0.5)
    got = drain(events)
    assert sorted((e.seat, e.button) for e in got) == sorted((s.number, b) for s in pinmap.seats for b in BUTTONS)
    assert {e.kind for e in got} == {PRESS}


def test_presses_are_counted_off_the_main_thread_and_only_enqueued(pinmap, factory, buttons, presser, events):
    main = threading.current_thread().name
    presser.tap(3, "ok")  # clean edges: a stalled finger makes a longer press, never two
    presser.tap(5, "minus")
    got = settled(events)
    assert [(e.seat, e.button, e.kind) for e in got] == [(3, "ok", PRESS), (5, "minus", PRESS)]
    # A press counts when the buttons' timer reads the still-held pin (or, when that timer
    # runs late, on the finger's next edge, as on gpiozero's threads on a Pi): the only
    # effect the controller can see is the queued event, an immutable value.
    assert events.put_threads and all(
        name == "seat buttons" or name.startswith("finger seat") for name in events.put_threads
    )
    assert main not in events.put_threads
    with pytest.raises(dataclasses.FrozenInstanceError):
        got[0].seat = 4


def test_rapid_taps_each_count_once(sim_buttons, fingers, sim_time, events):
    for tap in range(5):
        fingers.press(2, "plus", hold=0.05, delay=0.1 * tap)
    sim_time.run_for(0.7)
    assert [(e.button, e.kind) for e in drain(events)] == [("plus", PRESS)] * 5


def glitches(pin, count: int, gap: float, *, held: bool = False) -> list[float]:
    """``count`` spikes on ``pin``, ``gap`` seconds apart: the line flips and flips back at once,
    as noise on a long wire makes it. Returns how long each spike really lasted."""
    away, back = (pin.drive_high, pin.drive_low) if held else (pin.drive_low, pin.drive_high)
    lasted = []
    for _ in range(count):
        start = time.perf_counter()
        away()
        back()
        lasted.append(time.perf_counter() - start)
        time.sleep(gap)
    return lasted


def test_a_train_of_noise_spikes_is_no_press(pinmap, factory, buttons, events):
    """Spikes of microseconds, every 2 ms for 0.2 s, on an idle ok line: nothing happens.
    (The old debounce took the first edge of each spike for a press.)"""
    pin = factory.pin(pinmap.seat(2).ok.gpio)
    lasted = glitches(pin, 100, 0.002)
    long_ones = sum(seconds >= CONFIRM for seconds in lasted)  # only if this machine stalled mid-spike
    assert len(settled(events)) <= long_ones
    assert not buttons.seats[2].is_pressed("ok")


def test_spikes_while_a_button_is_held_are_no_release_and_no_second_press(pinmap, factory, buttons, events):
    pin = factory.pin(pinmap.seat(4).ok.gpio)
    pin.drive_low()
    time.sleep(SETTLE)
    lasted = glitches(pin, 50, 0.002, held=True)
    time.sleep(SETTLE)
    assert buttons.seats[4].is_pressed("ok")
    pin.drive_high()
    long_ones = sum(seconds >= CONFIRM for seconds in lasted)
    assert len(settled(events)) <= 1 + long_ones  # the one press


@pytest.mark.parametrize("hold", [0.04, 0.05, 0.06])
def test_a_quick_tap_with_contact_chatter_counts_once(pinmap, factory, sim_buttons, sim_time, events, hold):
    bouncy = ScheduledFingers(factory, pinmap, sim_time.timers, ButtonTiming(), SimPace(),
                              bounce=Bounce(min_toggles=3, max_toggles=5), seed=3)
    for tap in range(3):
        bouncy.press(1, "ok", hold=hold, delay=(hold + 0.05) * tap)
    sim_time.run_for(0.5)
    assert [(e.button, e.kind) for e in drain(events)] == [("ok", PRESS)] * 3
    assert not sim_buttons.seats[1].is_pressed("ok")


def test_a_blip_shorter_than_the_confirmation_is_no_press(pinmap, factory, sim_buttons, sim_time, events):
    clean = ScheduledFingers(factory, pinmap, sim_time.timers, ButtonTiming(), SimPace(), bounce=NO_BOUNCE)
    clean.press(1, "ok", hold=0.002)
    sim_time.run_for(0.2)
    assert drain(events) == []
    assert not sim_buttons.seats[1].is_pressed("ok")


def test_hold_repeats_plus_after_delay_then_steadily(sim_buttons, fingers, sim_time, events):
    fingers.press(4, "plus", hold=1.05)
    sim_time.run_for(1.3)
    got = drain(events)
    assert got[0].kind == PRESS and got[0].button == "plus"
    repeats = got[1:]
    assert {e.kind for e in repeats} == {REPEAT} and len(repeats) == 3  # at 0.6 s, 0.75 s and 0.9 s
    assert repeats[0].time - got[0].time == pytest.approx(0.6)
    gaps = [later.time - earlier.time for earlier, later in itertools.pairwise(repeats)]
    assert gaps == pytest.approx([0.15, 0.15])
    assert not sim_buttons.seats[4].is_pressed("plus")


def test_ok_does_not_repeat(sim_buttons, fingers, sim_time, events):
    fingers.press(6, "ok", hold=0.8)
    sim_time.run_for(1.0)
    assert [(e.button, e.kind) for e in drain(events)] == [("ok", PRESS)]


def test_minus_and_plus_together_are_one_chord(sim_buttons, fingers, sim_time, events):
    fingers.chord(2, hold=0.9)  # held longer than the repeat delay: still no repeats
    sim_time.run_for(1.2)
    assert [(e.seat, e.button, e.kind) for e in drain(events)] == [(2, "minus", PRESS), (2, CHORD_BUTTON, CHORD)]


def test_chord_during_a_hold_stops_the_repeats(sim_buttons, fingers, sim_time, events):
    fingers.press(1, "minus", hold=1.3)
    fingers.press(1, "plus", hold=0.1, delay=0.85)  # minus is repeating by then
    sim_time.run_for(1.6)
    got = drain(events)
    kinds = [e.kind for e in got]
    assert kinds[0] == PRESS and REPEAT in kinds
    chord_at = kinds.index(CHORD)
    assert got[chord_at].button == CHORD_BUTTON
    assert kinds[chord_at + 1 :] == []  # after the chord, neither the plus press nor repeats


def test_minus_and_plus_of_different_seats_are_no_chord(sim_buttons, fingers, sim_time, events):
    for seat, button in ((1, "plus"), (2, "minus"), (3, "plus")):
        fingers.press(seat, button, hold=0.3)
    sim_time.run_for(0.5)
    got = drain(events)
    assert sorted((e.seat, e.button, e.kind) for e in got) == [(1, "plus", PRESS), (2, "minus", PRESS), (3, "plus", PRESS)]


def test_closed_buttons_release_their_pins(pinmap, events, factory):
    table = TableButtons(pinmap, events, pin_factory=factory)
    table.close()
    presser = SimulatedPresser(factory, pinmap, bounce=NO_BOUNCE)  # chatter on real time: see the presser fixture
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


def fake_lgpio(monkeypatch):
    """The ``lgpio`` module as far as a busy pin goes: its ``error`` class (lgpio is only on a Pi)."""
    lgpio = types.ModuleType("lgpio")
    lgpio.error = type("error", (Exception,), {})
    monkeypatch.setitem(sys.modules, "lgpio", lgpio)
    return lgpio


class BusyPinFactory(MockFactory):
    """Mock pins, but claiming ``busy`` fails the way gpiozero's lgpio pin factory does when a
    driver or another program holds the line: ``lgpio.error('GPIO busy')`` out of the pin's
    constructor (on a Pi it comes from lgpio.gpio_claim_input; here from this double)."""

    def __init__(self, lgpio, busy: int):
        super().__init__()
        self._lgpio, self._busy = lgpio, busy

    def pin(self, name, pin_class=None, **kwargs):
        if name == self._busy:
            raise self._lgpio.error("'GPIO busy'")
        return super().pin(name, pin_class, **kwargs)


def test_a_busy_pin_is_one_clear_error_naming_the_pin_and_its_likely_holder(pinmap, monkeypatch):
    factory = BusyPinFactory(fake_lgpio(monkeypatch), busy=10)  # seat 2 plus, SPI0 MOSI
    with pytest.raises(DeviceError) as caught:
        TableButtons(pinmap, queue.Queue(), pin_factory=factory)
    message = str(caught.value)
    assert message.startswith("cannot open the buttons of seat 2: plus is GPIO10 (header pin 19), 'GPIO busy'")
    assert "SPI0 MOSI (dtparam=spi=on)" in message and "\n" not in message
    with TableButtons(pinmap, queue.Queue(), pin_factory=MockFactory()):  # seat 1's pins were released
        pass


def test_a_busy_pin_names_the_consumer_the_kernel_reports(tmp_path):
    """The kernel's GPIO character device answers which consumer holds a line.

    The double differs from a Pi here: the kernel fills struct gpio_v2_line_info on the
    ioctl; the fake ioctl writes the same bytes (consumer "onewire@4", flag USED)."""
    (tmp_path / "gpiochip0").touch()
    asked = []

    def kernel(fd, request, info, mutate):
        assert request == gpio_lines.GPIO_V2_GET_LINEINFO_IOCTL and len(info) == 256
        asked.append(struct.unpack_from("<I", info, 64)[0])
        info[32:41] = b"onewire@4"
        struct.pack_into("<Q", info, 72, 1)
        return 0

    holder = gpio_lines.holder_of(4, 0, dev=tmp_path, ioctl=kernel)
    assert holder == 'held by "onewire@4", likely the 1-Wire bus (dtoverlay=w1-gpio, GPIO4 by default)'
    assert asked == [4]
    assert gpio_lines.holder_of(12, 0, dev=tmp_path, ioctl=kernel) == 'held by "onewire@4"'
    assert gpio_lines.holder_of(12, 1, dev=tmp_path, ioctl=kernel).startswith("held by another program")



@pytest.mark.parametrize("late", [0.05, 0.3, 0.9])
def test_a_tap_whose_callbacks_come_late_and_together_is_one_press(pinmap, factory, sim_buttons, sim_time, events,
                                                                    late):
    """A loaded machine runs the pin callbacks late: a quick tap's press and release, 80 ms
    apart, reach the buttons together ``late`` seconds after the release (0.9 s: past the
    hold delay). Timed by the ticks of their edges they are the one press they were: no
    press lost as a spike, no repeat."""
    pin = factory.pin(pinmap.seat(2).minus.gpio)
    stalled = LateCallbacks(pin)
    pin.drive_low()
    sim_time.run_for(0.08)
    pin.drive_high()
    sim_time.run_for(late)
    stalled.deliver()
    sim_time.run_for(1.0)
    got = drain(events)
    assert [(e.seat, e.button, e.kind) for e in got] == [(2, "minus", PRESS)]
    assert got[0].time == pytest.approx(100.0 + CONFIRM)  # when the press counted, not when it was heard
    assert not sim_buttons.seats[2].is_pressed("minus")


def test_a_spike_whose_callbacks_come_late_is_still_no_press(pinmap, factory, sim_buttons, sim_time, events):
    """Late callbacks change nothing about bounce: a 2 ms blip heard 0.3 s later is no press."""
    pin = factory.pin(pinmap.seat(2).minus.gpio)
    stalled = LateCallbacks(pin)
    pin.drive_low()
    sim_time.run_for(0.002)
    pin.drive_high()
    sim_time.run_for(0.3)
    stalled.deliver()
    sim_time.run_for(0.5)
    assert drain(events) == []
