"""The table's side of its web page (docs/web.md), as one part of the table.

With ``[web] enabled`` the controller builds a :class:`WebSide` and calls it at a few
points of its loop; it joins

- the :class:`~coyote_pi.table.bulletin.Bulletin` (``live.json``: what the table does,
  in public terms), fed by a :class:`~coyote_pi.table.bulletin.BulletinFeed` listener and
  by :func:`~coyote_pi.table.bulletin.table_facts` after every pass of the loop;
- the :class:`~coyote_pi.table.web_access.WebAccess` screens (the page's address, its
  PIN, the hotspot's join code) and the chord that asks for them;
- the :class:`~coyote_pi.table.web_requests.WebRequests` from the page (camera view,
  doctor, settings), answered between games only; the settings taken from the page are
  kept over restarts and published (:mod:`~coyote_pi.table.page_settings`).

The page itself is another process (``coyote-pi web``), which only reads files.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from coyote_pi.devices.events import ButtonEvent
from coyote_pi.devices.screen import Screen
from coyote_pi.table.bulletin import Bulletin, BulletinFeed, between_games, table_facts
from coyote_pi.table.camera_reads import CameraResult
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.web_access import WebAccess
from coyote_pi.table.web_requests import DoctorChecks, WebRequests

if TYPE_CHECKING:
    from coyote_pi.table.web_table import WebTable


class WebSide:
    """The bulletin, the access screens and the requests of the ``table``;
    ``doctor`` runs the checks the page may ask for (None: it cannot ask); ``serving``
    says whether the page serves its address now (None: it is taken to)."""

    def __init__(self, table: WebTable, doctor: DoctorChecks | None = None,
                 serving: Callable[[], bool] | None = None) -> None:
        self.table = table
        web = table.config.web
        bulletin_folder, requests_folder = table.config.web_folders()
        url = web.address()
        self.bulletin = Bulletin(bulletin_folder, clock=table.clock, deadlines=table.deadlines, url=url,
                                 page_count=table.presenter.page_count, veil=self._veil)
        self.access = WebAccess(table, self.bulletin, url, web.hotspot_file, serving=serving)
        self.requests = WebRequests(table, requests_folder, self.bulletin, doctor)
        self.requests.restore_settings()  # before the first setup: a kept start seat counts there
        table.listeners.append(BulletinFeed(self.bulletin))
        self._between: bool | None = None

    def _veil(self, screen: Screen) -> Screen:
        return self.access.veil(screen)

    # -- the controller's hooks

    def button(self, event: ButtonEvent) -> bool:
        """A press, before the stage's handler; True: it was this part's."""
        return self.access.button(event)

    def screen(self, shown: Screen) -> Screen:
        """The screen the presenter chose, or this part's."""
        return self.access.screen(shown)

    def on_camera(self, result: CameraResult) -> None:
        self.requests.on_camera(result)

    def on_time(self, timer: Timer) -> None:
        if timer is Timer.BULLETIN:
            self.bulletin.flush()
        elif timer is Timer.WEB_SCREEN:
            self.access.close()
        elif timer is Timer.REQUESTS:
            self.access.hotspot_check()
            self.requests.poll()

    def before_setup(self) -> None:
        """A game is about to be set up: the page's settings apply to it, its questions included."""
        self.requests.take_settings()

    def refresh(self) -> None:
        """After every pass of the loop: publish where the table stands; a game that
        started (or ended) stops (or starts) answering the page's setup requests."""
        table = self.table
        now_between = between_games(table)
        if now_between != self._between:
            self._between = now_between
            if now_between:
                self.requests.between_games()
            else:
                self.requests.game_starts()
        self.bulletin.facts(table_facts(table))

    def close(self) -> None:
        """Tell the page the table stopped (with what was still held back), and stop the
        requests' thread."""
        self.bulletin.close()
        self.requests.close()
