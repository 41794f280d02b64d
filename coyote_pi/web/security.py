"""Who may change anything: the PIN, the sessions, the cross-site checks, the rate limit.

The table page is public and read-only. Setup and downloads need the PIN the OLED
shows on request: the table publishes only its salted SHA-256 and an expiry in
``live.json`` (``web.pin``), so the page can check a typed PIN without knowing it. A
right PIN opens a **session**: a random token in a cookie (HttpOnly, SameSite=Strict),
looked up in a table kept in memory, with an idle and an absolute expiry. Every POST
must carry the session's CSRF token and come from this page's own origin (the
``Origin`` header, or ``Referer`` when there is none). Wrong PINs are limited per
client address and, beyond that, for everyone together (a slower backoff), so a
6-digit PIN cannot be tried out within its 10 minutes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from coyote_pi.json_text import JsonObject
from coyote_pi.web.bulletin import parse_time

COOKIE = "coyote_session"
#: A session ends after this long without a request, and in any case after MAX_AGE.
IDLE_SECONDS, MAX_AGE = 30 * 60, 4 * 3600
#: Wrong PINs: at most PER_CLIENT per client address in WINDOW seconds ...
PER_CLIENT, WINDOW = 5, 60.0
#: ... and GLOBAL from all addresses together; past that, everyone waits BACKOFF seconds,
#: doubling each time up to MAX_BACKOFF (an attacker with many addresses gets no further).
GLOBAL, BACKOFF, MAX_BACKOFF = 20, 30.0, 600.0


def pin_matches(pin: str, published: JsonObject | None, now: float) -> bool:
    """True when ``pin`` is the one ``live.json`` published and it has not expired. Spaces
    do not count: the OLED shows the PIN in two groups of three (``123 456``)."""
    if not published or not isinstance(pin, str):
        return False
    pin = "".join(pin.split())
    if not pin.isdigit() or len(pin) > 12:
        return False
    salt, digest, expires = published.get("salt"), published.get("sha256"), parse_time(published.get("expires"))
    if not (isinstance(salt, str) and isinstance(digest, str) and expires) or expires.timestamp() <= now:
        return False
    try:
        computed = hashlib.sha256(bytes.fromhex(salt) + pin.encode("utf-8")).hexdigest()
    except ValueError:
        return False
    return hmac.compare_digest(computed, digest.lower())


@dataclass
class Session:
    token: str
    csrf: str
    created: float
    seen: float


class Sessions:
    """The open sessions, in memory (a restart of the page logs everyone out)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._sessions: dict[str, Session] = {}

    def open(self) -> Session:
        now = self.clock()
        self._expire(now)
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(24), now, now)
        self._sessions[session.token] = session
        return session

    def get(self, token: str | None) -> Session | None:
        """The live session of ``token`` (its idle time renewed), or None."""
        if not token:
            return None
        now = self.clock()
        session = self._sessions.get(token)
        if session is None or now - session.seen > IDLE_SECONDS or now - session.created > MAX_AGE:
            self._sessions.pop(token, None)
            return None
        session.seen = now
        return session

    def close(self, token: str | None) -> None:
        self._sessions.pop(token or "", None)

    def _expire(self, now: float) -> None:
        for token in [t for t, s in self._sessions.items() if now - s.seen > IDLE_SECONDS or now - s.created > MAX_AGE]:
            del self._sessions[token]


class PinGuard:
    """Counts wrong PINs; :meth:`wait` says how long a client must wait before trying again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._clients: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._blocked_until = 0.0
        self._backoff = BACKOFF

    def wait(self, client: str) -> float:
        """Seconds ``client`` must wait (0: it may try now)."""
        now = self.clock()
        recent = self._recent(self._clients.get(client, deque()), now)
        wait = self._blocked_until - now
        if len(recent) >= PER_CLIENT:
            wait = max(wait, recent[0] + WINDOW - now)
        return max(0.0, wait)

    def failed(self, client: str) -> None:
        now = self.clock()
        recent = self._clients.setdefault(client, deque())
        recent.append(now)
        self._recent(recent, now)
        self._all.append(now)
        if len(self._recent(self._all, now)) >= GLOBAL:
            self._blocked_until = now + self._backoff
            self._backoff = min(self._backoff * 2, MAX_BACKOFF)
            self._all.clear()
        if len(self._clients) > 1000:  # forget the quiet addresses, not the counting
            self._clients = {c: q for c, q in self._clients.items() if self._recent(q, now)}

    def succeeded(self, client: str) -> None:
        self._clients.pop(client, None)

    @staticmethod
    def _recent(times: deque[float], now: float) -> deque[float]:
        while times and times[0] <= now - WINDOW:
            times.popleft()
        return times


def same_origin(headers: Mapping[str, str], host: str) -> bool:
    """True when a state-changing request comes from this page: its ``Origin`` (or, lacking
    one, its ``Referer``) names ``host``, the host the browser asked for."""
    source = headers.get("origin") or headers.get("referer")
    if not source or source == "null":
        return False
    return urlsplit(source).netloc.lower() == host.lower()


#: Every response's security headers: the page's own scripts, styles and images only, no
#: inline script, never in a frame.
HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
