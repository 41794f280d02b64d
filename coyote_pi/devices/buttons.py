"""Seat buttons on GPIO pins, through gpiozero, turned into :class:`ButtonEvent` objects.

Each seat has three buttons, ``minus``, ``plus`` and ``ok`` (see ``hardware/pinmap.toml``).
:class:`TableButtons` opens every seat of the pin map and puts events into a queue that
the caller owns; the controller's loop is the only reader::

    import queue
    from gpiozero.pins.mock import MockFactory
    from coyote_pi.devices.pinmap import load_pinmap

    events = queue.Queue()
    with TableButtons(load_pinmap(), events, pin_factory=MockFactory()) as buttons:
        event = events.get()            # ButtonEvent(seat=3, button='ok', kind='press', ...)

Leave ``pin_factory`` as ``None`` on a Pi (gpiozero picks lgpio); pass gpiozero's
``MockFactory`` to simulate, and drive its pins with
:class:`~coyote_pi.sim.presser.SimulatedPresser`.

Each button is a gpiozero ``DigitalInputDevice`` with the internal pull-up, the class
gpiozero's ``Button`` is built on. ``Button`` itself adds a hold thread per button that
wakes every 0.1 s even when nobody touches anything (18 buttons: 180 wake-ups a second);
holds are timed here instead, so an idle table sleeps.

How presses become events
-------------------------
- Callbacks arrive on gpiozero's threads (lgpio's callback thread on a Pi, the thread
  that drives a mock pin in a simulation). They only update this module's small debounce
  state under a lock and put events into the queue; they never touch game state.
- **Debouncing is done here, in software, by time**, identically for mock and real pins
  (gpiozero's mock pins ignore ``bounce_time``). A new level counts only once it has
  held, without a single opposite edge, for ``ButtonTiming.confirm`` (10 ms); then the
  pin is read once more. A noise spike on a long wire (microseconds) and the chatter
  of a closing contact (gaps of a millisecond or two) never hold that long; a finger's
  quickest tap (40-60 ms) does. The same rule holds for releases, so a spike while a
  button is held is no release and no second press. After a change counts, the next
  one counts no sooner than ``ButtonTiming.debounce`` (30 ms) later: a worn switch whose
  chatter pauses longer than the confirmation time still gives one press.
- **Each edge is timed by when it happened**, from the ticks gpiozero stamps it with (on
  a Pi, lgpio's from the kernel's event), not by when its callback runs: a loaded
  machine may run a quick tap's press and release callbacks together, and timed by
  arrival the tap would look like a spike and be lost (:func:`_callback_lag`).
- Holding minus or plus repeats: a ``"repeat"`` event after ``hold_delay`` (0.6 s), then
  every ``repeat_interval`` (0.15 s), timed by one :class:`~coyote_pi.devices.scheduler.Scheduler`
  thread that sleeps between deadlines (no busy waiting).
- Minus and plus down together make one ``"chord"`` event (the undo) instead of a second
  press; neither repeats until both are released.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from coyote_pi.devices.errors import DeviceError
from coyote_pi.devices.events import (
    CHORD,
    CHORD_BUTTON,
    PRESS,
    REPEAT,
    REPEATING_BUTTONS,
    Button,
    ButtonEvent,
    EventSink,
    PressKind,
)
from coyote_pi.devices.gpio_lines import holder_for
from coyote_pi.devices.pinmap import PinMap, SeatPins
from coyote_pi.devices.scheduler import ScheduledCall, Timers, given_or_own

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonTiming:
    """How presses are timed, in seconds (the defaults suit ordinary tactile buttons)."""

    #: After a counted change, the least time before the next change counts.
    debounce: float = 0.03
    #: How long minus/plus must be held before the first repeat.
    hold_delay: float = 0.6
    #: Time between repeats while minus/plus stays held.
    repeat_interval: float = 0.15
    #: How long a new level must hold, with no edge back, before it counts. Tactile
    #: switches settle within 5 ms (Omron B3F: bounce 5 ms at most), so 10 ms rejects
    #: every spike and chatter gap and adds only 10 ms to a press.
    confirm: float = 0.01


#: The latest a pin's callback is believed to come after its edge, in seconds (see
#: :func:`_callback_lag`): longer than any stall of a working table.
LONGEST_CALLBACK_LAG = 5.0


class Debouncer:
    """The debounced state of one contact, fed raw edges and level reads with their times.

    :meth:`edge` reports each raw edge; :attr:`due` then says when to read the pin
    again (the caller sets a timer) and :meth:`settle` takes that read. A change counts
    only if the level held from its edge until ``due`` with no edge back in between.

    >>> contact = Debouncer(confirm=0.01, debounce=0.03)
    >>> contact.edge(True, now=1.000)       # a press starts: not yet a press
    False
    >>> contact.due
    1.01
    >>> contact.edge(False, now=1.000004)   # back after 4 microseconds: a spike
    False
    >>> contact.due is None and not contact.pressed
    True
    >>> contact.edge(True, now=2.000)       # a real press ...
    False
    >>> contact.settle(True, now=2.010)     # ... still held when read 10 ms later
    True
    >>> contact.edge(False, now=2.015)      # chatter after the press ...
    False
    >>> round(contact.due, 3)               # ... could count no sooner than 30 ms after it
    2.04
    >>> contact.edge(True, now=2.016)
    False
    >>> contact.pressed and contact.due is None
    True
    """

    def __init__(self, confirm: float, debounce: float):
        self.confirm = confirm
        self.debounce = debounce
        self.pressed = False
        self.changed_at = float("-inf")
        #: When the raw level last left :attr:`pressed` (None: it is at :attr:`pressed`).
        self.since: float | None = None

    @property
    def due(self) -> float | None:
        """When the pending level counts if it still holds; None when nothing is pending."""
        if self.since is None:
            return None
        return max(self.since + self.confirm, self.changed_at + self.debounce)

    def edge(self, pressed: bool, now: float) -> bool:
        """Report a raw edge to ``pressed``; True when it shows a pending change held long enough.

        That happens when the read at :attr:`due` came late (a busy machine): the level
        held from ``since`` until this edge, past ``due``, so the change counts as of ``due``.
        """
        overdue = self._overdue(now)
        if overdue is not None:
            self._count(overdue)
        if pressed == self.pressed:
            self.since = None  # back before it counted: a spike or chatter
        elif self.since is None:
            self.since = now
        return overdue is not None

    def settle(self, pressed: bool, now: float) -> bool:
        """Take the level read at (or after) :attr:`due`; True when the pending change counts.

        A level that differs with no edge seen (an edge the pin driver missed) starts a
        new wait instead, so it counts only if it still holds at the new :attr:`due`.
        """
        if pressed == self.pressed:
            self.since = None
            return False
        if self.since is None:
            self.since = now
            return False
        if self._overdue(now) is None:
            return False
        self._count(now)
        return True

    def _overdue(self, now: float) -> float | None:
        """:attr:`due`, when ``now`` is past it (the pending level held long enough); else None."""
        due = self.due
        return due if due is not None and now >= due else None

    def _count(self, at: float) -> None:
        self.pressed = not self.pressed
        self.changed_at = at
        self.since = None


class _Button:
    """One gpiozero button of a seat with its debounce state and pending timers."""

    def __init__(self, name: str, device: Any, timing: ButtonTiming) -> None:
        self.name = name
        self.device = device
        self.contact = Debouncer(timing.confirm, timing.debounce)
        #: Counts the reads asked for: a timer whose number is not the latest is stale.
        self.reads_asked = 0
        self.read_call: ScheduledCall | None = None
        self.repeat_call: ScheduledCall | None = None

    def cancel_timers(self) -> None:
        for call in (self.read_call, self.repeat_call):
            if call is not None:
                call.cancel()
        self.read_call = self.repeat_call = None


class SeatButtons:
    """The minus, plus and ok buttons of one seat, reporting into ``events``.

    ``seat`` comes from the pin map; ``pin_factory`` is gpiozero's seam (``None``: the
    default factory, i.e. real pins on a Pi; a ``MockFactory`` in tests). ``clock`` stamps
    events and times the debounce; ``scheduler`` runs repeats and settle checks (one is
    shared by all seats of a :class:`TableButtons`; a private one is made if omitted).
    """

    def __init__(
        self,
        seat: SeatPins,
        events: EventSink,
        *,
        pin_factory: object = None,
        timing: ButtonTiming = ButtonTiming(),
        clock: Callable[[], float] = time.monotonic,
        scheduler: Timers | None = None,
    ) -> None:
        from gpiozero import DigitalInputDevice, GPIOZeroError
        from gpiozero.exc import PinFactoryFallback

        self.number = seat.number
        self._events = events
        self._timing = timing
        self._clock = clock
        self._scheduler, self._own_scheduler = given_or_own(scheduler, f"seat {seat.number} buttons")
        self._lock = threading.Lock()
        self._chord_held = False
        self._closed = False
        self._buttons: dict[str, _Button] = {}
        # gpiozero warns for each pin factory it falls back from; when none works, the
        # DeviceError below says what to do, so the warnings are only logged on success.
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                for name, pin in seat.buttons():
                    # bounce_time=None: debouncing happens in _on_edge, identically for mock and real pins.
                    device = DigitalInputDevice(pin.gpio, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                    self._buttons[name] = _Button(name, device, timing)
                    device.when_activated = functools.partial(self._on_edge, name, True)
                    device.when_deactivated = functools.partial(self._on_edge, name, False)
            except GPIOZeroError as err:
                self.close()
                raise DeviceError(
                    f"cannot open the buttons of seat {seat.number} ({type(err).__name__}: {err}); on a Pi "
                    "install python3-lgpio and add the user to the gpio group, elsewhere use "
                    "[buttons] backend = \"mock\""
                ) from err
            except Exception as err:
                if not _is_lgpio_error(err):
                    raise
                self.close()
                # gpiozero lets lgpio's own error through: "GPIO busy", without saying which pin or why.
                raise DeviceError(
                    f"cannot open the buttons of seat {seat.number}: {name} is GPIO{pin.gpio} (header pin "
                    f"{pin.header}), {err}, {holder_for(pin.gpio, pin_factory)}: free it, or move the button in the pin map"
                ) from err
        for fallback in fallbacks:
            log.warning("%s", fallback.message)

    def is_pressed(self, button: str) -> bool:
        """The debounced state of ``button`` ("minus", "plus" or "ok")."""
        with self._lock:
            return self._buttons[button].contact.pressed

    def close(self) -> None:
        """Stop reporting, cancel timers and release the GPIO pins."""
        with self._lock:
            self._closed = True
            for button in self._buttons.values():
                button.cancel_timers()
        for button in self._buttons.values():
            button.device.close()
        if self._own_scheduler is not None:
            self._own_scheduler.close()

    def __enter__(self) -> SeatButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- called on gpiozero's and the scheduler's threads ---------------------------

    def _on_edge(self, name: str, pressed: bool) -> None:
        with self._lock:
            if self._closed:
                return
            button = self._buttons[name]
            now = self._clock()
            if button.contact.edge(pressed, now - _callback_lag(button.device, pressed)):
                self._changed(button, button.contact.changed_at)
            self._read_when_due(button, now)

    def _read_when_due(self, button: _Button, now: float) -> None:
        """Set the timer that reads the pin when the pending level would count (lock held)."""
        if button.read_call is not None:
            button.read_call.cancel()
            button.read_call = None
        due = button.contact.due
        if due is not None:
            button.reads_asked += 1
            read = functools.partial(self._read_pin, button.name, button.reads_asked)
            button.read_call = self._scheduler.call_later(due - now, read)

    def _read_pin(self, name: str, asked: int) -> None:
        with self._lock:
            button = self._buttons[name]
            if self._closed or asked != button.reads_asked:
                return  # an edge came meanwhile and set a newer timer
            button.read_call = None
            now = self._clock()
            if button.contact.settle(button.device.is_active, now):
                self._changed(button, now)
            self._read_when_due(button, now)

    def _repeat(self, name: str) -> None:
        with self._lock:
            button = self._buttons[name]
            button.repeat_call = None
            if self._closed or self._chord_held or not button.contact.pressed:
                return
            now = self._clock()
            if button.device.is_active:
                self._emit(name, REPEAT, now)
            elif button.contact.since is None:
                # Up with no release edge seen (real pins can miss one): a release once it holds.
                button.contact.settle(False, now)
                self._read_when_due(button, now)
            button.repeat_call = self._scheduler.call_later(self._timing.repeat_interval, functools.partial(self._repeat, name))

    def _changed(self, button: _Button, now: float) -> None:
        """React to a debounced change of ``button`` (the lock is held)."""
        if not button.contact.pressed:
            if button.repeat_call is not None:
                button.repeat_call.cancel()
                button.repeat_call = None
            if not any(self._buttons[name].contact.pressed for name in REPEATING_BUTTONS):
                self._chord_held = False
            return
        if button.name in REPEATING_BUTTONS and all(self._buttons[n].contact.pressed for n in REPEATING_BUTTONS):
            if not self._chord_held:
                self._chord_held = True
                for name in REPEATING_BUTTONS:
                    self._buttons[name].cancel_timers()
                self._emit(CHORD_BUTTON, CHORD, now)
            return
        self._emit(button.name, PRESS, now)
        if button.name in REPEATING_BUTTONS:
            button.repeat_call = self._scheduler.call_later(self._timing.hold_delay, functools.partial(self._repeat, button.name))

    def _emit(self, button: str, kind: PressKind, now: float) -> None:
        self._events.put(ButtonEvent(seat=self.number, button=Button(button), kind=kind, time=now))


def _callback_lag(device: Any, pressed: bool) -> float:
    """Seconds between ``device``'s edge to ``pressed`` and this callback of it, by the
    ticks gpiozero stamped the edge with (lgpio's come from the kernel's event).

    A loaded machine runs the callbacks late, and a quick tap's press and release may
    then arrive together: timed by their arrival they would look like a spike, and the
    press would be lost. Timed by their ticks they are the press they were. A lag that
    cannot be true (negative, or longer than :data:`LONGEST_CALLBACK_LAG`: the ticks
    on another clock) counts as none, the time of arrival.
    """
    lag = device.active_time if pressed else device.inactive_time
    return lag if lag is not None and 0.0 <= lag <= LONGEST_CALLBACK_LAG else 0.0


def _is_lgpio_error(err: Exception) -> bool:
    """True for ``lgpio.error`` (lgpio, gpiozero's pin library on a Pi, is imported only there)."""
    lgpio = sys.modules.get("lgpio")
    return lgpio is not None and isinstance(err, lgpio.error)


class TableButtons:
    """Every seat of the pin map, all reporting into one ``events`` queue.

    The keyword arguments are those of :class:`SeatButtons`; the seats share one
    scheduler (a thread of their own unless ``scheduler`` is given). Use it as a context
    manager or call :meth:`close`.
    """

    def __init__(
        self,
        pinmap: PinMap,
        events: EventSink,
        *,
        pin_factory: object = None,
        timing: ButtonTiming = ButtonTiming(),
        clock: Callable[[], float] = time.monotonic,
        scheduler: Timers | None = None,
    ) -> None:
        self.pin_factory = pin_factory
        self._scheduler, self._own_scheduler = given_or_own(scheduler, "seat buttons")
        self.seats: dict[int, SeatButtons] = {}
        try:
            for seat in pinmap.seats:
                self.seats[seat.number] = SeatButtons(
                    seat, events, pin_factory=pin_factory, timing=timing, clock=clock, scheduler=self._scheduler
                )
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        """Release every pin and stop the timer thread (if it is their own)."""
        for seat in self.seats.values():
            seat.close()
        if self._own_scheduler is not None:
            self._own_scheduler.close()

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

