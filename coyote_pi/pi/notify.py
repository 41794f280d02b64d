"""A tiny sd_notify client: tells systemd the service is ready, alive or stopping.

The unit ``systemd/coyote-pi.service`` is ``Type=notify`` with ``WatchdogSec=30``: systemd
waits for :func:`ready` before it counts the service as started, and kills and restarts it
when the main loop has not called :func:`watchdog` for 30 seconds (a hung loop). The main
loop pings at :func:`watchdog_interval`, half the watchdog period, as systemd advises::

    from coyote_pi.pi import notify

    notify.ready()                       # devices open, game loaded
    interval = notify.watchdog_interval()  # seconds, or None when no watchdog is set
    while running:
        event = queue.get(timeout=interval)  # wake up at least every `interval`
        ...
        notify.watchdog()
    notify.stopping()

Outside systemd (``NOTIFY_SOCKET`` unset: a terminal, the tests, the demo) every call
does nothing and returns False, so callers never need to check where they run.

This module, as it is, is the table controller's
:class:`~coyote_pi.table.notifier.Notifier`: ``coyote-pi run`` hands it over.

The protocol (``sd_notify(3)``): one datagram of ``KEY=VALUE`` lines sent to the
``AF_UNIX`` socket named in ``NOTIFY_SOCKET``. A name starting with ``@`` lives in the
abstract namespace (the ``@`` stands for a leading NUL byte). Only the standard library
is used, so this works before any optional package is installed.
"""

from __future__ import annotations

import os
import socket


def notify(*assignments: str) -> bool:
    """Send ``KEY=VALUE`` assignments to systemd in one datagram.

    Returns True when the message was sent, False when there is no systemd to tell
    (``NOTIFY_SOCKET`` unset or in a form other than a path or ``@name``) or the
    socket refused it. Never raises: a lost status message must not stop a game.
    """
    address = _socket_address(os.environ.get("NOTIFY_SOCKET", ""))
    if address is None:
        return False
    message = "\n".join(assignments).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.send(message)
    except OSError:
        return False
    return True


def ready() -> bool:
    """Tell systemd start-up is complete (``READY=1``); ``Type=notify`` waits for this."""
    return notify("READY=1")


def watchdog() -> bool:
    """Tell systemd the main loop is alive (``WATCHDOG=1``)."""
    return notify("WATCHDOG=1")


def status(text: str) -> bool:
    """Set the one-line status shown by ``systemctl status coyote-pi``.

    Line breaks would end the assignment early, so they become spaces.
    """
    return notify("STATUS=" + " ".join(text.splitlines()))


def stopping() -> bool:
    """Tell systemd the service is shutting down on purpose (``STOPPING=1``)."""
    return notify("STOPPING=1")


def watchdog_interval() -> float | None:
    """Seconds between :func:`watchdog` pings: half of ``WATCHDOG_USEC``, or None.

    None means no watchdog applies to this process: ``WATCHDOG_USEC`` unset, not a
    positive number, or ``WATCHDOG_PID`` naming another process (the variables are
    inherited by children, which must not think the watchdog is theirs).
    """
    pid = os.environ.get("WATCHDOG_PID")
    if pid is not None and pid.strip() != str(os.getpid()):
        return None
    try:
        usec = int(os.environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2_000_000 if usec > 0 else None


def _socket_address(name: str) -> str | bytes | None:
    """The address to connect to for a ``NOTIFY_SOCKET`` value, or None if unusable."""
    if name.startswith("/"):
        return name
    if name.startswith("@") and len(name) > 1:
        return b"\0" + name[1:].encode("utf-8")
    return None
