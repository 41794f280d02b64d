"""Log lines that reach systemd's journal with their priority: errors as errors.

Under systemd the service's standard error is a stream into the journal, and every line
is stored at the unit's default priority (info) unless it starts with an sd-daemon(3)
priority prefix such as ``<3>`` (error), which journald strips and applies
(``SyslogLevelPrefix=yes``, systemd's default, set explicitly in the unit). Then
``journalctl -u coyote-pi -p warning`` shows the problems alone, and errors stand out.

The prefix is written only when standard error *is* the journal: systemd names that
stream in ``JOURNAL_STREAM`` (``device:inode``), and a terminal, a pipe or a file stays
free of ``<N>`` noise::

    from coyote_pi.pi import journal

    journal.configure_logging(logging.INFO)   # the root logger, on standard error
    journal.print_error("coyote-pi run: bad key [display] driver")

Only the standard library is used.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import threading
from types import TracebackType
from typing import TextIO

#: syslog priorities (sd-daemon(3)) of the logging levels; a level in between takes the next one down.
_PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


def priority(level: int) -> int:
    """The syslog priority of a logging level: ERROR is 3, WARNING 4, INFO 6, DEBUG 7."""
    return next((value for threshold, value in _PRIORITIES if level >= threshold), 7)


def is_journal(stream: TextIO) -> bool:
    """True when ``stream`` is the journal stream systemd connected (``JOURNAL_STREAM``)."""
    value = os.environ.get("JOURNAL_STREAM", "")
    try:
        device, inode = (int(part) for part in value.split(":"))
        status = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError, io.UnsupportedOperation):
        return False  # unset or malformed, or a stream without a file (pytest's capture)
    return (status.st_dev, status.st_ino) == (device, inode)


def prefixed(text: str, level: int) -> str:
    """``text`` with the priority prefix of ``level`` on every line (a traceback is one error, not many infos)."""
    return "\n".join(f"<{priority(level)}>{line}" for line in text.splitlines() or [""])


class JournalFormatter(logging.Formatter):
    """Formats a record as usual, then prefixes each of its lines with the record's priority."""

    def format(self, record: logging.LogRecord) -> str:
        return prefixed(super().format(record), record.levelno)


def configure_logging(level: int, stream: TextIO | None = None) -> None:
    """Log to ``stream`` (standard error): prefixed and without a time (journald adds one)
    when it is the journal, else as ``time LEVEL message``.

    In the journal, an uncaught exception's traceback (in any thread) is logged as
    critical too, instead of Python printing it as so many lines of info.
    """
    stream = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(stream)
    if is_journal(stream):
        handler.setFormatter(JournalFormatter("%(message)s"))
        sys.excepthook = _log_uncaught
        threading.excepthook = _log_uncaught_in_thread
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])


def _log_uncaught(kind: type[BaseException], value: BaseException, traceback: TracebackType | None) -> None:
    logging.getLogger("coyote_pi").critical("stopped by an unexpected error", exc_info=(kind, value, traceback))


def _log_uncaught_in_thread(hook: threading.ExceptHookArgs) -> None:
    # exc_value is set: Python calls the hook from the thread's except block
    if hook.exc_value is not None and not issubclass(hook.exc_type, SystemExit):  # as Python's own hook: a thread may end that way
        _log_uncaught(hook.exc_type, hook.exc_value, hook.exc_traceback)


def print_error(text: str, stream: TextIO | None = None) -> None:
    """Print a one-line error for a person, as priority ``err`` when it goes to the journal."""
    stream = stream if stream is not None else sys.stderr
    print(prefixed(text, logging.ERROR) if is_journal(stream) else text, file=stream)
