"""played_as_asked: telling taps played as asked from taps a busy machine distorted."""

from __future__ import annotations

import time
from types import SimpleNamespace

from gpiozero.pins.mock import MockFactory, PinState

from coyote_pi.devices.buttons import ButtonTiming
from coyote_pi.sim.presser import played_as_asked

TIMING = ButtonTiming()  # confirm 10 ms, hold_delay 0.6 s
CHATTER = [0.001, 0.0012]  # two toggles a millisecond apart


def recorded(*holds: float, chatter=CHATTER, pause: float = 0.05):
    """A pull-up pin's recording (as MockPin.states after clear_states()) of one tap per
    hold (seconds low), each press and release chattering for ``chatter``'s levels.
    Each entry says how long the level before it lasted, and the level it changed to."""
    states = [PinState(0.0, True), PinState(0.3, False)]  # idle, then the first press starts
    for index, hold in enumerate(holds):
        states += [PinState(chatter[0], True), PinState(chatter[1], False)]  # the closing contact chatters
        states.append(PinState(hold, True))  # held low, then released
        states += [PinState(chatter[0], False), PinState(chatter[1], True)]  # so does the opening one
        if index < len(holds) - 1:
            states.append(PinState(pause, False))  # the pause, then the next press
    return SimpleNamespace(states=states)


def test_clean_taps_with_chatter_are_as_asked():
    assert played_as_asked(recorded(0.05, 0.05, 0.05), taps=3, timing=TIMING)


def test_a_chatter_stretched_into_a_press_and_release_of_its_own_is_not():
    stalled = [0.02, 0.05]  # the finger's thread stalled 20 and 50 ms between toggles
    assert not played_as_asked(recorded(0.05, 0.05, chatter=stalled), taps=2, timing=TIMING)


def test_a_stretched_chatter_level_that_merges_with_the_hold_is_harmless():
    # 15 ms down at the start of the chatter counts the press a little early; 15 ms up
    # before the hold (or down after the release) is the level the contact already
    # counts. Either way one press a tap, as the debounce is meant to give.
    assert played_as_asked(recorded(0.05, 0.05, chatter=[0.015, 0.001]), taps=2, timing=TIMING)
    assert played_as_asked(recorded(0.05, 0.05, chatter=[0.001, 0.015]), taps=2, timing=TIMING)


def test_a_tap_stretched_into_a_repeat_is_not_unless_held_on_purpose():
    long_tap = recorded(0.05, 0.7)
    assert not played_as_asked(long_tap, taps=2, timing=TIMING)
    assert played_as_asked(long_tap, taps=2, timing=TIMING, held=True)


def test_the_count_must_match():
    assert not played_as_asked(recorded(0.05, 0.05), taps=3, timing=TIMING)


def test_a_real_mock_pins_recording_reads_the_same_way():
    pin = MockFactory().pin(17)
    pin.drive_high()
    pin.clear_states()
    for _ in range(2):
        pin.drive_low()
        time.sleep(0.03)  # a busy machine only makes the holds and pauses longer
        pin.drive_high()
        time.sleep(0.03)
    assert played_as_asked(pin, taps=2, timing=TIMING)
    assert not played_as_asked(pin, taps=1, timing=TIMING)
