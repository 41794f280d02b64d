"""Press simulated seat buttons the way fingers press real ones: from other threads, with bounce.

A real push button does not switch cleanly: for a few milliseconds its contacts chatter
(several rapid toggles) before they settle, on press and on release, and the GPIO
callbacks arrive on a thread that is not the controller's. :class:`SimulatedPresser`
reproduces both on gpiozero's ``MockFactory`` pins, so tests and the demo exercise the
same debouncing and thread hand-off as the hardware::

    from gpiozero.pins.mock import MockFactory
    factory = MockFactory()
    buttons = TableButtons(pinmap, events, pin_factory=factory)
    presser = SimulatedPresser(factory, pinmap, seed=1)
    presser.tap(3, "ok")                       # one bouncy press, returns when released
    presser.press(2, "plus", hold=1.0)         # a hold on another thread (auto-repeat)
    presser.chord(1)                           # minus, then plus, held together (undo)
    presser.wait()                             # join every press still in progress

Every press runs on its own new thread; the methods that do not wait return it.

The scripted players press through *fingers*, which have three moves (``tap``, ``hold``
for a number of auto-repeats, and the minus+plus ``chord``): :class:`PresserFingers`
press the mock pins through a :class:`SimulatedPresser`; :class:`ScheduledFingers`
press them on a simulated clock (:mod:`coyote_pi.sim.clock`); :class:`QueueFingers` put
the button events straight into the controller's queue, for tests of its logic.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coyote_pi.devices.events import CHORD, CHORD_BUTTON, PRESS, REPEAT, Button, ButtonEvent, EventSink
from coyote_pi.devices.pinmap import PinMap

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory, MockPin

    from coyote_pi.devices.buttons import ButtonTiming
    from coyote_pi.sim.clock import SimScheduler
    from coyote_pi.sim.table import SimPace


@dataclass(frozen=True)
class Bounce:
    """How much a contact chatters: a random number of toggles, each a random gap apart."""

    min_toggles: int = 2
    max_toggles: int = 5
    min_gap: float = 0.0002
    max_gap: float = 0.0015

    def longest(self) -> float:
        """The longest chatter this can produce, in seconds (keep it under the debounce time)."""
        return 2 * self.max_toggles * self.max_gap

    def gaps(self, rng: random.Random) -> list[float]:
        """The gaps between the toggles of one bouncing switch-over, drawn from ``rng``."""
        toggles = rng.randint(self.min_toggles, self.max_toggles)
        return [rng.uniform(self.min_gap, self.max_gap) for _ in range(2 * toggles)]


NO_BOUNCE = Bounce(min_toggles=0, max_toggles=0)


class SimulatedPresser:
    """Drives the mock pins of ``pinmap``'s seat buttons from background threads.

    ``factory`` is the ``MockFactory`` the buttons were opened with; ``bounce`` sets the
    contact chatter (use :data:`NO_BOUNCE` for clean edges); ``seed`` makes the chatter
    reproducible. Buttons pull up, so a press drives the pin low and a release high.
    """

    def __init__(self, factory: MockFactory, pinmap: PinMap, *, bounce: Bounce = Bounce(), seed: int = 0) -> None:
        self._factory = factory
        self._pinmap = pinmap
        self._bounce = bounce
        self._random = random.Random(seed)
        self._random_lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def press(self, seat: int, button: str, hold: float = 0.08) -> threading.Thread:
        """Start pressing ``button`` of ``seat`` for ``hold`` seconds on a new thread; return it."""
        pin = self._factory.pin(getattr(self._pinmap.seat(seat), button).gpio)
        press_chatter, release_chatter = self._chatter(), self._chatter()

        def finger() -> None:
            self._switch(pin, pressed=True, chatter=press_chatter)
            time.sleep(hold)
            self._switch(pin, pressed=False, chatter=release_chatter)

        thread = threading.Thread(target=finger, name=f"finger seat {seat} {button}", daemon=True)
        self._threads.append(thread)
        thread.start()
        return thread

    def tap(self, seat: int, button: str, hold: float = 0.08) -> None:
        """Press and release, returning once the button is up again."""
        self.press(seat, button, hold).join()

    def chord(self, seat: int, hold: float = 0.25, stagger: float = 0.04) -> None:
        """Press minus, then plus ``stagger`` seconds later, hold both; return once released."""
        first = self.press(seat, "minus", hold + stagger)
        time.sleep(stagger)
        second = self.press(seat, "plus", hold)
        first.join()
        second.join()

    def wait(self) -> None:
        """Wait for every press started so far to finish."""
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    def _chatter(self) -> list[float]:
        """The gaps between the toggles of one bouncing switch-over (drawn up front, reproducibly)."""
        with self._random_lock:
            return self._bounce.gaps(self._random)

    @staticmethod
    def _switch(pin: MockPin, *, pressed: bool, chatter: list[float]) -> None:
        """Move the contact to ``pressed``, chattering first: new level, old level, ..., new level."""
        for index, gap in enumerate(chatter):
            level_pressed = pressed if index % 2 == 0 else not pressed
            (pin.drive_low if level_pressed else pin.drive_high)()
            time.sleep(gap)
        (pin.drive_low if pressed else pin.drive_high)()


def hold_seconds(timing: ButtonTiming, repeats: int) -> float:
    """How long to hold a button for ``repeats`` auto-repeats of ``timing`` (a
    :class:`~coyote_pi.devices.buttons.ButtonTiming`): half a repeat interval spare."""
    return timing.hold_delay + timing.repeat_interval * (repeats - 0.5)


class PresserFingers:
    """Fingers on gpiozero mock pins, through a :class:`SimulatedPresser`.

    ``timing`` is the buttons' :class:`~coyote_pi.devices.buttons.ButtonTiming`: a hold
    lasts long enough for the wanted number of auto-repeats (give or take one: the
    players look at the screen and correct, as people do).
    """

    def __init__(self, presser: SimulatedPresser, pace: SimPace, timing: ButtonTiming) -> None:
        self._presser = presser
        self._pace = pace
        self._timing = timing

    def tap(self, seat: int, button: str) -> None:
        self._presser.tap(seat, button, hold=self._pace.hold)
        time.sleep(self._pace.gap)

    def hold(self, seat: int, button: str, repeats: int) -> None:
        self._presser.tap(seat, button, hold=hold_seconds(self._timing, repeats))
        time.sleep(self._pace.gap)

    def chord(self, seat: int) -> None:
        self._presser.chord(seat)
        time.sleep(self._pace.gap)


class ScheduledFingers:
    """Fingers on gpiozero mock pins, moved by timers instead of threads that sleep.

    For a table driven on a simulated clock: ``scheduler`` is its
    :class:`~coyote_pi.sim.clock.SimScheduler`, and every move sets the timers that
    drive the pins at their moments, with the contact chatter of ``bounce``, as
    :class:`SimulatedPresser` does, so an evening of presses takes no real time.
    ``timing`` and ``pace`` are as for :class:`PresserFingers`. :attr:`idle_at` is when
    the last move ends (the pins are all up again and a finger is ready);
    ``on_press(seat, button)`` hears of each press as it starts (a chord reports
    ``"minus+plus"``).
    """

    def __init__(self, factory: MockFactory, pinmap: PinMap, scheduler: SimScheduler, timing: ButtonTiming,
                 pace: SimPace, *, bounce: Bounce = Bounce(), seed: int = 0,
                 on_press: Callable[[int, str], None] | None = None) -> None:
        self._factory = factory
        self._pinmap = pinmap
        self._scheduler = scheduler
        self._timing = timing
        self._pace = pace
        self._bounce = bounce
        self._random = random.Random(seed)
        self._on_press = on_press
        self.idle_at = float("-inf")

    def tap(self, seat: int, button: str) -> None:
        self._report(seat, button)
        self._press(seat, button, 0.0, self._pace.hold)

    def hold(self, seat: int, button: str, repeats: int) -> None:
        self._report(seat, button)
        self._press(seat, button, 0.0, hold_seconds(self._timing, repeats))

    def chord(self, seat: int, hold: float = 0.25, stagger: float = 0.04) -> None:
        self._report(seat, CHORD_BUTTON)
        self._press(seat, "minus", 0.0, hold + stagger)
        self._press(seat, "plus", stagger, hold)

    def press(self, seat: int, button: str, hold: float, *, delay: float = 0.0) -> None:
        """Press ``button`` of ``seat`` ``delay`` seconds from now, for ``hold`` seconds
        (a tap or a hold of any length, as :meth:`SimulatedPresser.press`)."""
        self._report(seat, button)
        self._press(seat, button, delay, hold)

    def _report(self, seat: int, button: str) -> None:
        if self._on_press is not None:
            self._on_press(seat, button)

    def _press(self, seat: int, button: str, delay: float, hold: float) -> None:
        """Press ``button`` of ``seat`` ``delay`` seconds from now and let go ``hold`` seconds later."""
        pin = self._factory.pin(getattr(self._pinmap.seat(seat), button).gpio)
        press, release = self._bounce.gaps(self._random), self._bounce.gaps(self._random)
        released = self._switch(pin, True, press, delay)
        up = self._switch(pin, False, release, released + hold)
        now = self._scheduler.clock()
        self.idle_at = max(self.idle_at, now + up + self._pace.gap)

    def _switch(self, pin: MockPin, pressed: bool, chatter: list[float], delay: float) -> float:
        """Set the timers that move the contact to ``pressed`` from ``delay`` seconds on,
        chattering first (as :meth:`SimulatedPresser._switch`); when it settles."""
        for index, gap in enumerate(chatter):
            level = pressed if index % 2 == 0 else not pressed
            self._scheduler.call_later(delay, pin.drive_low if level else pin.drive_high)
            delay += gap
        self._scheduler.call_later(delay, pin.drive_low if pressed else pin.drive_high)
        return delay


class QueueFingers:
    """Fingers that put button events straight into the controller's queue (no pins).

    For tests of the controller's logic and for benchmarks, where gpiozero's timing is
    not what is measured; the end-to-end tests press real mock pins instead.
    """

    def __init__(self, events: EventSink, clock: Callable[[], float] = time.monotonic) -> None:
        self.events = events
        self._clock = clock

    def tap(self, seat: int, button: str) -> None:
        self.events.put(ButtonEvent(seat, Button(button), PRESS, self._clock()))

    def hold(self, seat: int, button: str, repeats: int) -> None:
        self.tap(seat, button)
        for _ in range(repeats):
            self.events.put(ButtonEvent(seat, Button(button), REPEAT, self._clock()))

    def chord(self, seat: int) -> None:
        self.events.put(ButtonEvent(seat, CHORD_BUTTON, CHORD, self._clock()))


class LateCallbacks:
    """A loaded machine's callbacks for one mock ``pin``: its edges are held back and
    reach the buttons only at :meth:`deliver`, all together, each with the ticks it was
    stamped with, as lgpio's callback thread hands them on when Python gets no time.

    A quick tap whose press and release arrive together must still be one press (see
    :func:`~coyote_pi.devices.buttons._callback_lag`); tests press through this to show it.
    """

    def __init__(self, pin: MockPin) -> None:
        self._pin = pin
        self._callback = pin.when_changed
        self._held: list[tuple[float, int]] = []
        pin.when_changed = self._hold  # gpiozero keeps a weak reference: this object must live

    def _hold(self, ticks: float, state: int) -> None:
        self._held.append((ticks, state))

    def deliver(self) -> None:
        """Hand every held edge on, in order, and let the pin's later edges through at once."""
        self._pin.when_changed = self._callback
        for ticks, state in self._held:
            self._callback(ticks, state)
        self._held.clear()
