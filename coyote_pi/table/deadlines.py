"""The table's timers: everything the controller's loop does without a press or a reading.

The loop blocks on its queue, and the timeout of that wait is the next moment it must
act by itself. Those moments are the :class:`Timer` members, kept in one
:class:`Deadlines`: each timer is off, or set to a moment on the controller's clock.
A timer can keep something alive until its moment (the message it shows, the seat
whose question waits): when the timer goes off, that goes with it.

    >>> deadlines = Deadlines()
    >>> deadlines.set(Timer.CAMERA, 12.0)
    >>> deadlines.set(Timer.FLASH, 10.5, "Seat 2: not your turn")
    >>> deadlines.next_due(), deadlines.payload(Timer.FLASH)
    (10.5, 'Seat 2: not your turn')
    >>> deadlines.due(11.0)          # what has fallen due goes off
    [<Timer.FLASH: 1>]
    >>> deadlines.payload(Timer.FLASH) is None, deadlines.next_due()
    (True, 12.0)

A timer fires once; to repeat (the next verdict page, the next watchdog ping) the
loop sets it again.
"""

from __future__ import annotations

import enum


class Timer(enum.Enum):
    """What the loop does by itself. When several fall due at once they go in this order."""

    #: A short message (a refusal, "undone") covers the screen until then.
    FLASH = enum.auto()
    #: The peeking seat's notice stays on its turn's screen until then.
    NOTICE = enum.auto()
    #: A seat's question "enter the cards by hand?" waits for its ok until then (keeps the seat).
    OFFER = enum.auto()
    #: The verdict turns to its next page.
    VERDICT_PAGE = enum.auto()
    #: The verdict moves on by itself (``[pacing] verdict_seconds``).
    VERDICT_DONE = enum.auto()
    #: A screen whose lines need several pages shows the next one.
    PAGE_FLIP = enum.auto()
    #: A virtual seat has thought long enough and moves (keeps the seat: the screen says it thinks).
    VIRTUAL = enum.auto()
    #: The camera is asked for the next reading.
    CAMERA = enum.auto()
    #: systemd hears that the loop is alive.
    WATCHDOG = enum.auto()
    #: The web page's address, PIN or Wi-Fi code leaves the OLED.
    WEB_SCREEN = enum.auto()
    #: ``live.json`` is written with what changed within the last 50 ms (coalesced writes).
    BULLETIN = enum.auto()
    #: The web page's requests folder is looked at (between games only).
    REQUESTS = enum.auto()


class Deadlines:
    """The :class:`Timer` members that are set, with their moments and what they keep alive."""

    def __init__(self) -> None:
        self._set: dict[Timer, tuple[float, object]] = {}

    def set(self, timer: Timer, at: float, payload: object = None) -> None:
        """Set ``timer`` to go off at ``at`` (again, if it was set), keeping ``payload`` until then."""
        self._set[timer] = (at, payload)

    def cancel(self, *timers: Timer) -> None:
        """Switch ``timers`` off (those that are off stay off)."""
        for timer in timers:
            self._set.pop(timer, None)

    def payload(self, timer: Timer) -> object:
        """What ``timer`` keeps alive; None when it is off."""
        return self._set.get(timer, (None, None))[1]

    def when(self, timer: Timer) -> float | None:
        """The moment ``timer`` goes off; None when it is off."""
        return self._set.get(timer, (None, None))[0]

    def next_due(self) -> float | None:
        """The earliest moment a timer goes off; None when all are off."""
        return min((at for at, _ in self._set.values()), default=None)

    def due(self, now: float) -> list[Timer]:
        """Switch off and return the timers whose moment has come by ``now``, in :class:`Timer` order."""
        fired = [timer for timer in Timer if timer in self._set and self._set[timer][0] <= now]
        self.cancel(*fired)
        return fired
