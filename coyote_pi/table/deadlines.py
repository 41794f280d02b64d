"""The table's timers: everything the controller's loop does without a press or a reading.

The loop blocks on its queue, and the timeout of that wait is the next moment it must
act by itself. Those moments are the :class:`Timer` members, kept in one
:class:`Deadlines`: each timer is off, or set to a moment on the controller's clock.
A timer can keep something alive until its moment (the message it shows, the seat
whose question waits): that is a typed value in the table's state
(:class:`~coyote_pi.table.state.TimerKept`), and when the timer goes off or is
cancelled, ``on_off`` lets it go.

    >>> gone = []
    >>> deadlines = Deadlines(on_off=gone.append)
    >>> deadlines.set(Timer.CAMERA, 12.0)
    >>> deadlines.set(Timer.FLASH, 10.5)
    >>> deadlines.next_due()
    10.5
    >>> deadlines.due(11.0)          # what has fallen due goes off
    [<Timer.FLASH: 1>]
    >>> gone, deadlines.next_due()
    ([<Timer.FLASH: 1>], 12.0)

A timer fires once; to repeat (the next verdict page, the next watchdog ping) the
loop sets it again.
"""

from __future__ import annotations

import enum
from collections.abc import Callable


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


def _keeps_nothing(timer: Timer) -> None:
    """The default ``on_off``: nothing is kept alive by the timers."""


class Deadlines:
    """The :class:`Timer` members that are set, with their moments. ``on_off`` is told of
    each timer switched off (gone off or cancelled), so that what it kept alive goes."""

    def __init__(self, on_off: Callable[[Timer], None] = _keeps_nothing) -> None:
        self._set: dict[Timer, float] = {}
        self._on_off = on_off

    def set(self, timer: Timer, at: float) -> None:
        """Set ``timer`` to go off at ``at`` (again, if it was set)."""
        self._set[timer] = at

    def cancel(self, *timers: Timer) -> None:
        """Switch ``timers`` off (those that are off stay off)."""
        for timer in timers:
            self._set.pop(timer, None)
            self._on_off(timer)

    def when(self, timer: Timer) -> float | None:
        """The moment ``timer`` goes off; None when it is off."""
        return self._set.get(timer)

    def next_due(self) -> float | None:
        """The earliest moment a timer goes off; None when all are off."""
        return min(self._set.values(), default=None)

    def due(self, now: float) -> list[Timer]:
        """Switch off and return the timers whose moment has come by ``now``, in :class:`Timer` order."""
        fired = [timer for timer in Timer if timer in self._set and self._set[timer] <= now]
        self.cancel(*fired)
        return fired
