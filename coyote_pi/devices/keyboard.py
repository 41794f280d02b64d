"""Seat buttons on a computer keyboard, for ``coyote-pi run --sim`` and desktop play.

Produces exactly the :class:`~coyote_pi.devices.events.ButtonEvent` objects the GPIO
buttons do, into the caller's queue. Each seat has four keys in a row: minus, plus, ok,
and undo (the minus+plus chord, which a keyboard cannot press on one key)::

    seat 1:  1 2 3 4        seat 4:  7 8 9 0
    seat 2:  q w e r        seat 5:  u i o p
    seat 3:  a s d f        seat 6:  j k l ;

Seats 1-3 sit on the left of the keyboard, 4-6 on the right, so six people can share
one keyboard. Capitals work too. A terminal reports key presses but no releases, so a
held key is recognised by the terminal's own auto-repeat: characters of the same key
arriving less than 0.1 s apart are a hold. For minus and plus a hold gives ``"repeat"``
events (at most one per ``repeat_interval``); for ok and undo it is ignored, so a held
ok confirms once.

With a ``stream`` (normally ``sys.stdin``), a background thread reads it; when the stream
is a terminal it is switched to cbreak mode (keys arrive without Enter, Ctrl-C still
interrupts) and restored by :meth:`KeyboardButtons.close`. Without one, call
:meth:`KeyboardButtons.feed` with each key (a pygame or curses front end, or a test).
A key that is no seat's goes to :attr:`KeyboardButtons.on_other_key`, if set (the
simulated table's terminal uses a few for itself: whose eyes, help).
"""

from __future__ import annotations

import codecs
import os
import select
import threading
import time
from collections.abc import Callable, Mapping
from typing import TextIO

from coyote_pi.devices.buttons import ButtonTiming
from coyote_pi.devices.events import (
    CHORD,
    CHORD_BUTTON,
    PRESS,
    REPEAT,
    REPEATING_BUTTONS,
    Button,
    ButtonEvent,
    EventSink,
)

#: The keys of each seat: minus, plus, ok, undo.
SEAT_KEYS: dict[int, str] = {1: "1234", 2: "qwer", 3: "asdf", 4: "7890", 5: "uiop", 6: "jkl;"}
KEY_ROLES: tuple[Button, ...] = (Button.MINUS, Button.PLUS, Button.OK, CHORD_BUTTON)

#: key -> (seat, button); the undo keys map to the chord button "minus+plus".
DEFAULT_KEYMAP: dict[str, tuple[int, str]] = {
    key: (seat, role) for seat, keys in SEAT_KEYS.items() for key, role in zip(keys, KEY_ROLES)
}

#: Same-key characters closer than this are the terminal's auto-repeat of a held key.
AUTOREPEAT_GAP = 0.1


def keymap_help(keymap: Mapping[str, tuple[int, str]] = DEFAULT_KEYMAP, *, seat_line: str = "seat {seat}: {keys}",
                button_names: Mapping[str, str] | None = None) -> str:
    """One line per seat, e.g. ``seat 1: 1 = minus, 2 = plus, 3 = ok, 4 = undo``; another
    language gives its ``seat_line`` and its names of the roles (:data:`KEY_ROLES`)."""
    names = button_names or {role: "undo" if role == CHORD_BUTTON else role for role in KEY_ROLES}
    by_seat: dict[int, list[str]] = {}
    for key, (seat, button) in keymap.items():
        by_seat.setdefault(seat, []).append(f"{key} = {names[button]}")
    return "\n".join(seat_line.format(seat=seat, keys=", ".join(keys)) for seat, keys in sorted(by_seat.items()))


class KeyboardButtons:
    """Turns key presses into seat button events in ``events``.

    ``keymap`` maps a lower-case key to ``(seat, button)``; ``timing.repeat_interval``
    paces repeats; ``clock`` stamps events. Give ``stream`` to read keys from it on a
    background thread; call :meth:`close` when done.
    """

    #: Called with each typed key that is no seat's (lower case), on the reading thread.
    on_other_key: Callable[[str], None] | None = None

    def __init__(
        self,
        events: EventSink,
        *,
        keymap: Mapping[str, tuple[int, str]] = DEFAULT_KEYMAP,
        timing: ButtonTiming = ButtonTiming(),
        clock: Callable[[], float] = time.monotonic,
        stream: TextIO | None = None,
    ):
        self._events = events
        self._keymap = dict(keymap)
        self._repeat_interval = timing.repeat_interval
        self._clock = clock
        self._last_seen: dict[str, float] = {}
        self._last_reported: dict[str, float] = {}
        self._reader: threading.Thread | None = None
        self._restore_terminal: Callable[[], None] | None = None
        if stream is not None:
            self._start_reader(stream)

    def feed(self, key: str) -> ButtonEvent | None:
        """Handle one typed character; return the event it queued, if any."""
        key = key.lower()
        if key not in self._keymap:
            if self.on_other_key is not None:
                self.on_other_key(key)
            return None
        seat, button = self._keymap[key]
        now = self._clock()
        held = now - self._last_seen.get(key, float("-inf")) < AUTOREPEAT_GAP
        self._last_seen[key] = now
        if not held:
            kind = CHORD if button == CHORD_BUTTON else PRESS
        elif button in REPEATING_BUTTONS and now - self._last_reported.get(key, float("-inf")) >= self._repeat_interval:
            kind = REPEAT
        else:
            return None
        self._last_reported[key] = now
        event = ButtonEvent(seat=seat, button=Button(button), kind=kind, time=now)
        self._events.put(event)
        return event

    def close(self) -> None:
        """Stop reading and give the terminal back its normal mode."""
        if self._reader is not None:
            os.write(self._wake_write, b"x")
            self._reader.join()
            os.close(self._wake_write)
            os.close(self._wake_read)
            self._reader = None
        if self._restore_terminal is not None:
            self._restore_terminal()
            self._restore_terminal = None

    def __enter__(self) -> KeyboardButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _start_reader(self, stream: TextIO) -> None:
        fd = stream.fileno()
        if os.isatty(fd):
            import termios
            import tty

            saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            self._restore_terminal = lambda: termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        self._wake_read, self._wake_write = os.pipe()
        self._reader = threading.Thread(target=self._read_keys, args=(fd,), name="keyboard buttons", daemon=True)
        self._reader.start()

    def _read_keys(self, fd: int) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        while True:
            # Sleeps in select() until a key or close(): no polling.
            ready, _, _ = select.select([fd, self._wake_read], [], [])
            if self._wake_read in ready:
                return
            data = os.read(fd, 64)
            if not data:
                return  # end of input
            for key in decoder.decode(data):
                self.feed(key)
