"""Run small callbacks later on one background thread, without busy waiting.

Button auto-repeat, debounce settling and display retries all need "call this in 0.15 s
unless cancelled". A :class:`threading.Timer` per call would start a thread for every
repeat step; one :class:`Scheduler` thread sleeps on a condition variable until the next
deadline instead, so an idle device uses no CPU::

    >>> import threading
    >>> done = threading.Event()
    >>> scheduler = Scheduler("example")
    >>> handle = scheduler.call_later(0.01, done.set)
    >>> done.wait(1.0)
    True
    >>> scheduler.close()

Callbacks run on the scheduler's thread, one at a time, so they must be short and do
their own locking. An exception in a callback is logged and the thread carries on.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)


class ScheduledCall:
    """A handle for :meth:`Scheduler.call_later`; :meth:`cancel` it to stop the call."""

    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]):
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        """Stop the call if it has not started yet (safe to call twice, from any thread)."""
        self.cancelled = True


class Timers(Protocol):
    """What the devices ask of a scheduler: a :class:`Scheduler`, or a simulation's on
    its own clock (:class:`~coyote_pi.sim.clock.SimScheduler`)."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> ScheduledCall: ...


def given_or_own(given: Timers | None, name: str) -> tuple[Timers, Scheduler | None]:
    """The timers to use: ``given``, else a new :class:`Scheduler` called ``name``; and
    the scheduler to close with the device (None: the given one's owner closes it)."""
    if given is not None:
        return given, None
    own = Scheduler(name)
    return own, own


class Scheduler:
    """One daemon thread that runs callbacks at their deadlines; start it lazily, :meth:`close` it."""

    def __init__(self, name: str = "scheduler"):
        self._name = name
        self._condition = threading.Condition()
        self._queue: list[tuple[float, int, ScheduledCall]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._closed = False

    def call_later(self, delay: float, callback: Callable[[], None]) -> ScheduledCall:
        """Run ``callback()`` on the scheduler thread after ``delay`` seconds."""
        call = ScheduledCall(callback)
        with self._condition:
            if self._closed:
                call.cancel()
                return call
            heapq.heappush(self._queue, (time.monotonic() + max(0.0, delay), next(self._order), call))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._condition.notify()
        return call

    def close(self) -> None:
        """Drop pending calls and stop the thread (waits for a running callback to finish)."""
        with self._condition:
            self._closed = True
            self._queue.clear()
            self._condition.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _next_due(self) -> ScheduledCall | None:
        """Wait until a call is due and return it; ``None`` once closed. Holds the lock."""
        while not self._closed:
            if not self._queue:
                self._condition.wait()
                continue
            deadline, _, call = self._queue[0]
            remaining = deadline - time.monotonic()
            if remaining > 0:
                self._condition.wait(remaining)
                continue
            heapq.heappop(self._queue)
            if not call.cancelled:
                return call
        return None

    def _run(self) -> None:
        while True:
            with self._condition:
                call = self._next_due()
            if call is None:
                return
            try:
                call.callback()
            except Exception:
                log.exception("%s: a scheduled callback failed", self._name)
