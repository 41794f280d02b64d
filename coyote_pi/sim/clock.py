"""Simulated time: a clock that moves only when its driver says so, and timers on it.

The table's parts take a clock (``clock=``) and a scheduler for their timers
(``scheduler=``, with the interface of :class:`~coyote_pi.devices.scheduler.Scheduler`).
Given a :class:`SimClock` and a :class:`SimScheduler`, an evening of play runs in
seconds: nothing sleeps, the driver moves the clock straight to the next moment
something is due and runs it on its own thread::

    >>> clock = SimClock()
    >>> timers = SimScheduler(clock)
    >>> fired = []
    >>> _ = timers.call_later(600.0, lambda: fired.append(clock()))
    >>> _ = timers.call_later(0.5, lambda: fired.append(clock()))
    >>> while (due := timers.next_due()) is not None:
    ...     clock.advance_to(due)
    ...     _ = timers.run_due()  # how many ran
    >>> fired
    [0.5, 600.0]
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from coyote_pi.devices.scheduler import ScheduledCall


class SimClock:
    """Seconds of simulated time; call it to read it (it is a ``clock=`` for the table's parts)."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance_to(self, moment: float) -> None:
        """Move the clock on to ``moment`` (never back: an earlier moment changes nothing)."""
        self._now = max(self._now, moment)


class SimScheduler:
    """Timers on a :class:`SimClock`, run by the driver's :meth:`run_due`, not by a thread.

    :meth:`call_later` is :class:`~coyote_pi.devices.scheduler.Scheduler`'s, so the
    display's retries and the buttons' debounce reads can be handed one.
    """

    def __init__(self, clock: SimClock) -> None:
        self.clock = clock
        self._queue: list[tuple[float, int, ScheduledCall]] = []
        self._order = itertools.count()
        self._lock = threading.Lock()  # the camera worker's thread may set a timer too

    def call_later(self, delay: float, callback: Callable[[], None]) -> ScheduledCall:
        """Run ``callback()`` once the clock has reached ``delay`` seconds from now."""
        return self.call_at(self.clock() + max(0.0, delay), callback)

    def call_at(self, moment: float, callback: Callable[[], None]) -> ScheduledCall:
        """Run ``callback()`` once the clock has reached ``moment``."""
        call = ScheduledCall(callback)
        with self._lock:
            heapq.heappush(self._queue, (moment, next(self._order), call))
        return call

    def next_due(self) -> float | None:
        """The moment of the earliest call not cancelled; None when there is none."""
        with self._lock:
            while self._queue and self._queue[0][2].cancelled:
                heapq.heappop(self._queue)
            return self._queue[0][0] if self._queue else None

    def run_due(self) -> int:
        """Run every call due by the clock, earliest first (calls they set that are due as
        well included); how many ran."""
        ran = 0
        while (call := self._pop_due()) is not None:
            call.callback()
            ran += 1
        return ran

    def _pop_due(self) -> ScheduledCall | None:
        with self._lock:
            while self._queue and (self._queue[0][2].cancelled or self._queue[0][0] <= self.clock()):
                _, _, call = heapq.heappop(self._queue)
                if not call.cancelled:
                    return call
        return None


def sim_pin_factory(clock: SimClock) -> MockFactory:
    """gpiozero's ``MockFactory`` whose ticks are ``clock``'s: a pin's edge is stamped
    with the simulated moment it was driven, so the buttons' debounce, which times each
    edge by its ticks (a late callback still knows when its edge came), sees simulated
    time only, whatever the machine's load."""
    factory = MockFactory(pin_class=_SimPin)
    factory.ticks = clock  # the factory's clock, instead of time.monotonic
    return factory


class _SimPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """A mock pin that stamps its changes with its factory's ticks (gpiozero's own uses
    ``time.monotonic`` directly)."""

    _state: bool
    _last_change: float

    def _change_state(self, value: bool) -> bool:
        if self._state == value:
            return False
        moment = self._factory.ticks()
        self._state = value
        self.states.append(PinState(moment - self._last_change, value))
        self._last_change = moment
        return True
