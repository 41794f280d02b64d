"""Who the controller tells that it runs: the :class:`Notifier` protocol.

The table's service runs under systemd, which wants to hear when the table is ready,
what it is doing, that its loop is still alive, and when it stops on purpose. The
controller says exactly that, through these five calls, and nothing else::

    notifier.ready()                  # once, before the loop starts
    notifier.status("round 2: turn")  # whenever the stage changes
    notifier.watchdog()               # every watchdog_interval() seconds while the loop runs
    notifier.stopping()               # once, when the loop ends

:mod:`coyote_pi.pi.notify` implements it as plain module functions (a module satisfies a
protocol as well as an object does); :data:`SILENT` is the notifier of a table that has
no one to tell (a terminal, the tests, the demo).

    >>> isinstance(SILENT, Notifier)
    True
    >>> SILENT.watchdog_interval() is None  # no watchdog: the loop may sleep until a press
    True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Notifier(Protocol):
    """What the controller tells the service manager (see the module docstring)."""

    def ready(self) -> object:
        """The table is set up and its loop starts."""

    def status(self, text: str) -> object:
        """One line on where the table stands (``"round 2: turn, seat 3"``)."""

    def watchdog(self) -> object:
        """The loop is alive."""

    def stopping(self) -> object:
        """The loop ends on purpose."""

    def watchdog_interval(self) -> float | None:
        """Seconds between :meth:`watchdog` calls, or None when no watchdog listens."""


class _Silent:
    """A notifier that tells no one."""

    def ready(self) -> bool:
        return False

    def status(self, text: str) -> bool:
        return False

    def watchdog(self) -> bool:
        return False

    def stopping(self) -> bool:
        return False

    def watchdog_interval(self) -> None:
        return None


#: The notifier of a table that has no service manager to tell.
SILENT: Notifier = _Silent()
