"""The web page's address and PIN on the OLED, and the device's own Wi-Fi to reach it.

The gesture (docs/table.md): **minus and plus together**, at any seat, where that
chord means nothing else: on "Who starts?" before a game, or at the game's end while the
record's QR code shows (the chord that put it there, pressed again). The OLED then shows

1. when the device runs its own hotspot (``coyote-pi hotspot`` left its join details in
   ``[web] hotspot_file``): a QR code that joins it (``WIFI:T:WPA;S:...;P:...;;``), the
   network's name and key; ok goes on to
2. the page's address as a QR code and in text; ok makes (when the table knows the page
   does not serve that address, as ``run --sim --web`` knows whether its child runs, it
   says so instead: an address that is not its page's is never shown)
3. a fresh random six-digit PIN, shown for a minute. ``live.json`` gets only its salted
   SHA-256 and when it expires (ten minutes later); the page checks a typed PIN against it.

Each screen stays for :data:`SCREEN_SECONDS`; while one shows, every press is its own
(ok goes on, the others close it) and the game behind it waits. The PIN and the Wi-Fi
key are for the people at the table: :meth:`WebAccess.veil` hides them from the
bulletin, and the play-by-play never names them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from coyote_pi.devices.events import CHORD, PRESS, REPEAT, Button, ButtonEvent
from coyote_pi.devices.screen import Screen
from coyote_pi.table import screens, stages
from coyote_pi.table.bulletin import Bulletin, iso_time
from coyote_pi.table.deadlines import Timer

if TYPE_CHECKING:
    from coyote_pi.table.web_table import WebTable

WIFI, ADDRESS, PIN, NO_PAGE = "wifi", "address", "pin", "no page"
#: How long the address, the PIN or the Wi-Fi code stays on the OLED unless closed.
SCREEN_SECONDS = 60.0
#: How long the page accepts a PIN after it was shown.
PIN_VALID_SECONDS = 600.0


@dataclass(frozen=True)
class HotspotJoin:
    """How a phone joins the device's own hotspot, as ``coyote-pi hotspot`` publishes it
    (a small JSON file; docs/raspberry-pi.md): the network, its key, the page's address on it."""

    ssid: str
    password: str
    url: str

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def read(cls, path: Path | None) -> HotspotJoin | None:
        """The join details in ``path``; None when there are none (no hotspot) or they are unusable."""
        if path is None:
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(str(data["ssid"]), str(data["password"]), str(data["url"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None


def pin_hash(pin: str, salt: str) -> str:
    """What ``live.json`` publishes of a PIN: sha256 of the salt's bytes, then the PIN's."""
    return hashlib.sha256(bytes.fromhex(salt) + pin.encode()).hexdigest()


class WebAccess:
    """The address, PIN and Wi-Fi screens of the ``table`` (see the module
    docstring). ``url`` is the page's address; ``hotspot_file`` where the hotspot's
    join details appear; ``wall`` the wall clock the PIN's expiry is told in; ``serving``
    whether the page serves ``url`` now (None: it is taken to)."""

    def __init__(self, table: WebTable, bulletin: Bulletin, url: str, hotspot_file: Path | None,
                 wall: Callable[[], float] = time.time, serving: Callable[[], bool] | None = None) -> None:
        self.table = table
        self.serving = serving
        self.bulletin = bulletin
        self.url = url
        self.hotspot_file = hotspot_file
        self.wall = wall
        #: The screen shown now: WIFI, ADDRESS, PIN, NO_PAGE, or None.
        self.showing: str | None = None
        self._pin = ""
        self._hotspot: HotspotJoin | None = None
        self._hotspot_shown: HotspotJoin | None = None
        #: The seats whose last press this part passed on to the table (not used here).
        self._passed_on: set[int] = set()

    # -- presses

    def button(self, event: ButtonEvent) -> bool:
        """Act on a press if it is the gesture or a screen of this part shows; True: used."""
        used = self._button(event)
        (self._passed_on.discard if used else self._passed_on.add)(event.seat)
        return used

    def _button(self, event: ButtonEvent) -> bool:
        table = self.table
        if self.showing is None:
            if event.kind != CHORD or not self._chord_is_free():
                return False
            if self._asks_who_starts() and event.seat in self._passed_on:
                # The chord's first press went on to "Who starts?" as a minus or plus:
                # it asked for no virtual seat.
                table.state.asking().take_back(event.seat)
            table.deadlines.cancel(Timer.NOTICE)  # the record's QR code makes way
            table.log_press(event, "the web page's address")
            self._hotspot = HotspotJoin.read(self.hotspot_file)
            self._show(WIFI if self._hotspot is not None else self._address())
            return True
        if event.kind == REPEAT:
            return True
        if event.button == Button.OK and event.kind == PRESS and self.showing in (WIFI, ADDRESS):
            if self.showing == WIFI:
                self._show(self._address())
            else:
                table.log_press(event, "a new PIN for the web page")  # never its digits
                self._new_pin()
                self._show(PIN)
        else:
            self.close()
        return True

    def _chord_is_free(self) -> bool:
        """minus+plus means nothing else here: "Who starts?", or the game's end while the record's QR shows."""
        table = self.table
        if table.state.stage == stages.SETUP:
            return self._asks_who_starts()
        return table.state.stage == stages.GAME_OVER and table.state.kept.notice is not None

    def _address(self) -> str:
        """The address screen, or the screen that says the page does not serve it."""
        return ADDRESS if self.serving is None or self.serving() else NO_PAGE

    def _asks_who_starts(self) -> bool:
        return self.table.state.stage == stages.SETUP and self.table.state.asking().step == stages.Question.START

    def _join(self) -> HotspotJoin:
        """The hotspot's join code the Wi-Fi screen shows (it shows only once one was read)."""
        if self._hotspot is None:
            raise RuntimeError("the Wi-Fi screen shows without a hotspot's join code")
        return self._hotspot

    def _new_pin(self) -> None:
        self._pin = f"{secrets.randbelow(1_000_000):06d}"
        salt = secrets.token_hex(16)
        self.bulletin.pin({"salt": salt, "sha256": pin_hash(self._pin, salt),
                           "expires": iso_time(self.wall() + PIN_VALID_SECONDS)})

    def _show(self, which: str) -> None:
        self.showing = which
        if which == WIFI:
            self._hotspot_shown = self._hotspot  # shown once by itself; on request again and again
        self.table.deadlines.set(Timer.WEB_SCREEN, self.table.clock() + SCREEN_SECONDS)

    def close(self) -> None:
        """Take the screen down (also when its time is up); a PIN stays valid on the page."""
        self.showing, self._pin = None, ""
        self.table.deadlines.cancel(Timer.WEB_SCREEN)

    def hotspot_check(self) -> None:
        """Between games: a hotspot that opened since the last look is shown by itself, once."""
        join = HotspotJoin.read(self.hotspot_file)
        if join is not None and join != self._hotspot_shown and self.showing is None:
            self._hotspot = join
            self.table.log("the device's own Wi-Fi is open: its join code is on the screen")
            self._show(WIFI)

    # -- screens

    def screen(self, shown: Screen) -> Screen:
        """The OLED's screen: this part's, if one shows, else ``shown`` (with the gesture's
        hint on "Who starts?")."""
        tr = self.table.tr
        if self.showing == WIFI:
            join = self._join()
            return screens.wifi_screen(tr, join.ssid, join.password)
        if self.showing == ADDRESS:
            return screens.address_screen(tr, self._hotspot.url if self._hotspot is not None else self.url)
        if self.showing == PIN:
            return screens.pin_screen(tr, self._pin)
        if self.showing == NO_PAGE:
            return screens.no_page_screen(tr)
        if self._asks_who_starts():
            return dataclasses.replace(shown, lines=(*shown.lines, tr("web.hint")))
        return shown

    def veil(self, screen: Screen) -> Screen:
        """``screen`` as the page may show it: the PIN and the Wi-Fi key stay at the table."""
        tr = self.table.tr
        if self.showing == PIN and screen.big.replace(" ", "") == self._pin:
            return dataclasses.replace(screen, big="*** ***", lines=(tr("web.pin_veiled"),))
        if self.showing == WIFI and screen.qr:
            return Screen(lines=(tr("web.wifi_title"), self._join().ssid, tr("web.pin_veiled")))
        return screen
