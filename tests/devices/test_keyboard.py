"""The keyboard backend produces the same ButtonEvents as the GPIO buttons."""

from __future__ import annotations

import itertools
import os
import queue
from pathlib import Path

from coyote_pi.devices.events import CHORD, CHORD_BUTTON, PRESS, REPEAT
from coyote_pi.devices.keyboard import AUTOREPEAT_GAP, DEFAULT_KEYMAP, SEAT_KEYS, KeyboardButtons, keymap_help

from .conftest import drain


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_keymap_covers_six_seats_with_four_distinct_keys_each():
    assert len(DEFAULT_KEYMAP) == 24
    for seat, keys in SEAT_KEYS.items():
        assert [DEFAULT_KEYMAP[key] for key in keys] == [
            (seat, "minus"), (seat, "plus"), (seat, "ok"), (seat, CHORD_BUTTON)
        ]  # fmt: skip
    assert keymap_help().splitlines()[0] == "seat 1: 1 = minus, 2 = plus, 3 = ok, 4 = undo"
    assert keymap_help().splitlines()[5] == "seat 6: j = minus, k = plus, l = ok, ; = undo"


def test_keys_become_press_and_chord_events():
    events, clock = queue.Queue(), FakeClock()
    keys = KeyboardButtons(events, clock=clock)
    for key in "w3;X":  # seat 2 plus, seat 1 ok, seat 6 undo, unmapped
        keys.feed(key)
        clock.now += 1
    assert [(e.seat, e.button, e.kind, e.time) for e in drain(events)] == [
        (2, "plus", PRESS, 100.0),
        (1, "ok", PRESS, 101.0),
        (6, CHORD_BUTTON, CHORD, 102.0),
    ]


def test_keys_that_are_no_seats_go_to_the_other_key_hook():
    events, other = queue.Queue(), []
    keys = KeyboardButtons(events)
    keys.on_other_key = other.append
    for key in "vH1":
        keys.feed(key)
    assert other == ["v", "h"] and [(e.seat, e.button) for e in drain(events)] == [(1, "minus")]


def test_capitals_work_like_lower_case():
    events = queue.Queue()
    KeyboardButtons(events).feed("Q")
    assert [(e.seat, e.button) for e in drain(events)] == [(2, "minus")]


def test_terminal_autorepeat_of_plus_gives_paced_repeats():
    events, clock = queue.Queue(), FakeClock()
    keys = KeyboardButtons(events, clock=clock)
    for _ in range(31):  # a held key: the terminal sends it every 33 ms for a second
        keys.feed("i")
        clock.now += 0.033
    got = drain(events)
    assert got[0].kind == PRESS and got[0].button == "plus" and got[0].seat == 5
    repeats = [e.time for e in got[1:]]
    assert all(e.kind == REPEAT for e in got[1:])
    assert len(repeats) == 6  # one per 0.15 s of the ~1 s hold
    assert all(later - earlier >= 0.15 - 1e-9 for earlier, later in itertools.pairwise(repeats))


def test_held_ok_and_undo_fire_once():
    events, clock = queue.Queue(), FakeClock()
    keys = KeyboardButtons(events, clock=clock)
    for key in "3" * 20 + "4" * 20:
        keys.feed(key)
        clock.now += 0.033
    assert [(e.button, e.kind) for e in drain(events)] == [("ok", PRESS), (CHORD_BUTTON, CHORD)]


def test_slow_presses_of_one_key_are_separate_presses():
    events, clock = queue.Queue(), FakeClock()
    keys = KeyboardButtons(events, clock=clock)
    for _ in range(3):
        keys.feed("1")
        clock.now += 0.3
    assert [e.kind for e in drain(events)] == [PRESS] * 3


def test_reads_keys_from_a_stream_on_its_own_thread():
    read_end, write_end = os.pipe()
    events = queue.Queue()
    with os.fdopen(read_end, "r") as stream:
        seconds = iter([10.0, 11.0])  # the two seat keys a second apart: no auto-repeat
        keys = KeyboardButtons(events, stream=stream, clock=lambda: next(seconds))
        try:
            os.write(write_end, b"a")
            first = events.get(timeout=5)
            os.write(write_end, "ö0".encode())  # a non-ASCII key is ignored, then seat 4 undo
            second = events.get(timeout=5)
        finally:
            keys.close()
            os.close(write_end)
    assert (first.seat, first.button, first.kind) == (3, "minus", PRESS)
    assert (second.seat, second.button, second.kind) == (4, CHORD_BUTTON, CHORD)
    assert events.empty()


def test_terminal_is_put_in_cbreak_mode_and_restored():
    import pty
    import termios

    controller, terminal = pty.openpty()
    before = termios.tcgetattr(terminal)
    events = queue.Queue()
    with os.fdopen(terminal, "r") as stream:
        keys = KeyboardButtons(events, stream=stream)
        try:
            assert not termios.tcgetattr(terminal)[3] & termios.ICANON  # keys arrive without Enter
            os.write(controller, b"k")  # no newline: only cbreak mode delivers it
            event = events.get(timeout=5)
        finally:
            keys.close()
        assert termios.tcgetattr(terminal) == before
    os.close(controller)
    assert (event.seat, event.button) == (6, "plus")


def test_the_simulators_guide_says_when_two_presses_of_a_key_are_one_held_key():
    guide = " ".join((Path(__file__).parents[2] / "docs" / "simulator.md").read_text(encoding="utf-8").split())
    assert f"the same key again less than {AUTOREPEAT_GAP:g} s after the last counts as held" in guide
