"""The push: one watch on the table's files, every browser told at once.

Every 50 ms (:data:`INTERVAL`) one task looks at ``live.json`` (its ``seq`` changes with
every write) and at the current record's size (a line was added). On a change it builds
the table page's message once, and every connected browser gets it as a server-sent
event; a browser that is slow gets the newest message, not a backlog. Browsers never
poll: ``EventSource`` keeps the connection and reconnects by itself.

A second channel serves the setup page (a session's only): the camera preview's and the
doctor's updates. While a setup page is connected the watch renews ``preview.want`` in
the requests folder, so the table keeps the preview coming; it stops when the page closes.

Each event is ``event: NAME``, ``id: N`` and one ``data:`` line of JSON (docs/web.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from coyote_pi.contract.page import DOCTOR, LIVE, PREVIEW_INFO, PREVIEW_WANT, SETTINGS_RESULT
from coyote_pi.json_text import JsonObject
from coyote_pi.web.bulletin import Folders, Live, read_live

INTERVAL = 0.05
#: A comment line this often keeps proxies and phones from dropping a quiet connection.
KEEPALIVE = 15.0
#: How often an open setup page renews its request for the camera preview (the table
#: keeps sending previews for 30 s after the last renewal).
PREVIEW_RENEW = 10.0


#: What :func:`_signature` sees of each file: (inode, size, mtime), None when it is missing.
Signature = tuple[tuple[int, int, int] | None, ...]


def _signature(*paths: Path) -> Signature:
    """What changes when any of ``paths`` is written (replaced, grown or touched)."""
    out: list[tuple[int, int, int] | None] = []
    for path in paths:
        try:
            stat = path.stat()
            out.append((stat.st_ino, stat.st_size, stat.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


class Channel:
    """The newest message of one kind and the browsers waiting for it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.version = 0
        self.data = ""
        self._waiting: set[asyncio.Event] = set()
        self.closed = False

    @property
    def listeners(self) -> int:
        return len(self._waiting)

    def publish(self, payload: JsonObject) -> None:
        self.version += 1
        self.data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        for event in self._waiting:
            event.set()

    def close(self) -> None:
        self.closed = True
        for event in self._waiting:
            event.set()

    async def stream(self, first: Callable[[], None] | None = None) -> AsyncIterator[str]:
        """The events for one browser, starting with the newest message."""
        wake = asyncio.Event()
        self._waiting.add(wake)
        sent = 0
        try:
            yield "retry: 1000\n\n"
            while not self.closed:
                if self.version != sent and self.data:
                    sent = self.version
                    yield f"event: {self.name}\nid: {sent}\ndata: {self.data}\n\n"
                    continue
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE)
                except TimeoutError:
                    yield ": keepalive\n\n"
                wake.clear()
        finally:
            self._waiting.discard(wake)


class Feed:
    """The watch on the bulletin and the current record, and its two channels.

    ``table_message(live)`` builds the table page's message; ``setup_message(live)`` the
    setup page's. Both run only when something changed, once for all browsers.
    """

    def __init__(self, folders: Folders, table_message: Callable[[Live], JsonObject],
                 setup_message: Callable[[Live], JsonObject], interval: float = INTERVAL) -> None:
        self.folders = folders
        self.table_message, self.setup_message = table_message, setup_message
        self.interval = interval
        self.table, self.setup = Channel("table"), Channel("setup")
        self.live = read_live(folders)
        self._live_seen: Signature | None = None
        self._seen: Signature | None = None
        self._setup_seen: tuple[object, ...] | None = None  # the files' signature, and between games
        self._renewed = 0.0

    def check(self) -> None:
        """One look at the files; publish what changed."""
        bulletin = self.folders.bulletin
        live_seen = _signature(bulletin / LIVE)
        if live_seen != self._live_seen:
            self._live_seen, self.live = live_seen, read_live(self.folders)
        live = self.live
        record = self.folders.records / live.game_file if live.game_file else None
        seen = live_seen + (_signature(record) if record else (None,))
        if seen != self._seen:
            self._seen = seen
            self.table.publish(self.table_message(live))
        if self.setup.listeners:
            setup_seen = _signature(*(bulletin / name for name in (PREVIEW_INFO, DOCTOR, SETTINGS_RESULT)),
                                    self.folders.requests / "settings.toml") + (live.between_games,)
            if setup_seen != self._setup_seen:
                self._setup_seen = setup_seen
                self.setup.publish(self.setup_message(live))
            if live.between_games and time.monotonic() - self._renewed > PREVIEW_RENEW:
                self.renew_preview()
        else:
            self._setup_seen = None

    def renew_preview(self) -> None:
        self._renewed = time.monotonic()
        try:
            self.folders.touch_request(PREVIEW_WANT)
        except OSError:
            pass  # a read-only requests folder: the setup page says there is no preview

    async def run(self) -> None:
        while not self.table.closed:
            self.check()
            await asyncio.sleep(self.interval)

    def close(self) -> None:
        self.table.close()
        self.setup.close()
