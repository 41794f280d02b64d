"""The bulletin: what the table publishes for its web page, as files (docs/web.md).

The page (``coyote-pi web``) runs as its own process and user and reads only what this
module writes into the bulletin folder (a tmpfs on the Pi: ``/run/coyote-pi/public``).
``live.json`` says what the table is doing now::

    {"version": 1, "seq": 17, "started": "...", "time": "...", "stopped": false, "language": "en",
     "players": 4, "variant": "trickster", "game_file": "game-0003.jsonl",
     "stage": "turn", "round_open": true, "between_games": false,
     "virtual": {"3": "strong"},  # the seats the table plays itself, seat -> level (setup's so far)
     "public": {...},   # engine.views.public_view(game)
     "screen": {"title": "...", "big": "...", "lines": [...], "page": [1, 3]},
     "log": [...],      # the last 30 play-by-play lines
     "camera": "ok",    # ok | restarting | manual (coyote_pi.contract.page)
     "web": {"url": "http://coyote-pi.local/", "pin": {"salt": ..., "sha256": ..., "expires": ...}}}

Hidden information: :class:`Bulletin` is fed only what is public by construction. It
is no :class:`~coyote_pi.table.presenter.Listener` (a listener hears the
:class:`~coyote_pi.table.presenter.Prompt`, whose history holds the dealt cards):
:class:`BulletinFeed` passes on the OLED's screens and the play-by-play lines and
nothing else, and the game reaches it only as :class:`TableFacts`, built by
:func:`table_facts` from :func:`~coyote_pi.engine.views.public_view`. Screens that are
for the people at the table only (the PIN, the Wi-Fi password) are veiled before they
are kept (``veil``).

One pass of the controller's loop is one change: the screens, play-by-play lines and
PIN a pass brings are kept aside until its end, when :meth:`Bulletin.facts` hears where
the table stands, and are published together with those facts. A write in the middle of
a pass (the gap's timer) writes the state of the pass before: no ``live.json`` pairs a
round's verdict lines with the stage that still waits for its cards.

Cost: the controller's thread writes the file itself (a few KB into a tmpfs), at most
once per :data:`MIN_GAP` (20 a second): a change within that gap sets the ``BULLETIN``
timer for its end, so a burst of presses is one write and the last state is never more
than 50 ms late. A write that fails (folder gone, disk full) is logged once and tried
again with the next change; it never stops the table.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coyote_pi.contract import page as page_contract
from coyote_pi.devices.screen import Screen
from coyote_pi.engine import OVER
from coyote_pi.engine.views import open_round, public_view
from coyote_pi.files import write_atomically
from coyote_pi.table import stages
from coyote_pi.table.deadlines import Deadlines, Timer
from coyote_pi.table.presenter import Listener

if TYPE_CHECKING:
    from coyote_pi.table.web_table import WebTable

log = logging.getLogger(__name__)

VERSION = 1
#: Play-by-play lines kept in ``live.json``.
LOG_LINES = 30
#: The least time between two writes of ``live.json`` (seconds).
MIN_GAP = 0.05


@dataclass(frozen=True)
class TableFacts:
    """Where the table stands, in public terms only (see :func:`table_facts`)."""

    stage: str
    language: str
    players: int | None
    variant: str | None
    game_file: str | None
    round_open: bool
    between_games: bool
    camera: str
    #: The seats the table plays itself, seat (as text, like the record's ``meta.virtual``)
    #: -> level: the game's, or before it the ones setup has so far (shown on the OLED).
    virtual: dict[str, str]
    #: :func:`~coyote_pi.engine.views.public_view` of the game (None before one exists).
    public: dict[str, Any] | None


def between_games(table: WebTable) -> bool:
    """No game in progress: setup (no record yet) or the game is over. From the moment
    a game's record exists the cards are being dealt, and the camera is the game's."""
    return table.state.recorded is None or table.game.phase == OVER


def table_facts(table: WebTable) -> TableFacts:
    """The public facts of the ``table``: the game only through its public view."""
    game = table.state.game
    players: int | None
    variant: str | None
    virtual: dict[int, str]
    setup = table.state.setup
    if game is not None:
        players, variant = game.config.players, game.variant
        virtual = table.state.virtual
    elif setup is not None:
        players, variant = setup.values["players"], setup.values["variant"]
        virtual = setup.virtual_seats()
    else:
        players, variant, virtual = None, None, {}
    return TableFacts(
        stage=table.state.stage,
        language=table.tr.language,
        players=players,
        variant=variant,
        game_file=None if table.state.recorded is None else table.state.recorded.path.name,
        round_open=game is not None and open_round(game) is not None,
        between_games=between_games(table),
        camera=_camera_status(table),
        virtual={str(seat): level for seat, level in sorted(virtual.items())},
        public=None if game is None else public_view(game),
    )


def _camera_status(table: WebTable) -> str:
    if not table.camera.present or (table.state.stage in stages.WAITS and table.is_manual()):
        return page_contract.MANUAL
    wait = table.camera.wait
    if wait is not None and any(problem.key == "problem.camera_hung" for problem in wait.problems):
        return page_contract.RESTARTING
    return page_contract.OK


def iso_time(seconds: float | None = None) -> str:
    """A wall-clock moment as the bulletin writes it: UTC, milliseconds, ``Z``."""
    moment = datetime.now(UTC) if seconds is None else datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Bulletin:
    """Writes ``live.json`` into ``folder`` (see the module docstring).

    ``clock`` and ``deadlines`` are the controller's (the ``BULLETIN`` timer coalesces
    writes); ``url`` is the page's address; ``page_count(screen)`` how many pages a
    screen's lines take on the OLED; ``veil(screen)`` the screen as the page may show it.
    """

    def __init__(self, folder: Path, *, clock: Callable[[], float], deadlines: Deadlines, url: str,
                 page_count: Callable[[Screen], int], veil: Callable[[Screen], Screen] = lambda screen: screen) -> None:
        self.folder = Path(folder)
        self._clock = clock
        self._deadlines = deadlines
        self._page_count = page_count
        self._veil = veil
        self._started = iso_time()
        self._url = url
        self._seq = -1
        self._facts: TableFacts | None = None
        self._screen: dict[str, Any] | None = None
        self._log: deque[str] = deque(maxlen=LOG_LINES)
        self._pin: dict[str, Any] | None = None
        self._last_write: float | None = None
        self._held = False  # a change waits for the end of the gap
        self._dirty = False  # a screen, line or PIN waits for the end of the loop's pass
        #: The screen, log and PIN as of the last end of a pass: what a write publishes.
        self._told: dict[str, Any] = {"screen": None, "log": [], "pin": None}
        self._failing = False
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._failed(error)

    @property
    def seq(self) -> int:
        """The ``seq`` of the last ``live.json`` written (-1: none yet)."""
        return self._seq

    # -- what it is told

    def facts(self, facts: TableFacts) -> None:
        """Where the table stands, at the end of every pass of the controller's loop: what
        changed in the pass is written now (or at the end of the gap)."""
        if facts != self._facts or self._dirty:
            self._tell(facts)
            self._changed()

    def _tell(self, facts: TableFacts) -> None:
        """Take ``facts`` and what the pass brought with them as the state to publish."""
        self._facts, self._dirty = facts, False
        self._told = {"screen": self._screen, "log": list(self._log), "pin": self._pin}

    def screen(self, screen: Screen) -> None:
        screen = self._veil(screen)
        pages = self._page_count(screen)
        shown = {"title": screen.title, "big": screen.big, "lines": list(screen.lines),
                 "page": [screen.page % pages + 1, pages]}
        if shown != self._screen:
            self._screen = shown
            self._dirty = True

    def log(self, line: str) -> None:
        self._log.append(line)
        self._dirty = True

    def pin(self, pin: dict[str, Any] | None) -> None:
        """The salted hash and expiry of the PIN shown on the OLED (None: none)."""
        self._pin = pin
        self._dirty = True

    # -- writing

    def _changed(self) -> None:
        now = self._clock()
        if self._last_write is None or now - self._last_write >= MIN_GAP:
            self.flush()
        else:
            self._held = True
            self._deadlines.set(Timer.BULLETIN, self._last_write + MIN_GAP)

    def close(self) -> None:
        """The table stops: write where it stands, a change still held back included
        (no timer or pass will), saying it stopped."""
        if self._dirty and self._facts is not None:
            self._tell(self._facts)
        self.flush(stopped=True)

    def flush(self, *, stopped: bool = False) -> None:
        """Write ``live.json`` now (the ``BULLETIN`` timer calls this at the end of a gap);
        ``stopped``: the table's last write, as it stops (the page then says it is not
        running, rather than show a turn nobody will take)."""
        self._deadlines.cancel(Timer.BULLETIN)
        self._held = False
        if self._facts is None:
            return  # nothing to say before the table's first refresh
        self._last_write = self._clock()
        self._seq += 1
        document = {"version": VERSION, "seq": self._seq, "started": self._started, "time": iso_time(),
                    "stopped": stopped, **asdict(self._facts), "screen": self._told["screen"],
                    "log": self._told["log"], "web": {"url": self._url, "pin": None if stopped else self._told["pin"]}}
        self.write(page_contract.LIVE, json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode())

    def write(self, name: str, data: bytes) -> bool:
        """Replace the bulletin's file ``name``; False (logged once per failing spell) when it fails."""
        try:
            write_atomically(self.folder / name, data)
        except OSError as error:
            self._failed(error)
            return False
        if self._failing:
            self._failing = False
            log.warning("the web page's bulletin %s is written again", self.folder)
        return True

    def remove(self, name: str) -> None:
        """Delete the bulletin's file ``name`` if it is there."""
        try:
            (self.folder / name).unlink(missing_ok=True)
        except OSError as error:
            self._failed(error)

    def _failed(self, error: OSError) -> None:
        if not self._failing:
            self._failing = True
            log.error("the web page's bulletin %s cannot be written (%s); the table plays on", self.folder, error)


class BulletinFeed(Listener):
    """The controller's listener for the bulletin: the OLED's screens and the play-by-play
    go on; prompts and reveal frames stop here (they are not public)."""

    def __init__(self, bulletin: Bulletin) -> None:
        self._bulletin = bulletin

    def on_screen(self, stage: str, screen: Screen) -> None:
        self._bulletin.screen(screen)

    def on_log(self, line: str) -> None:
        self._bulletin.log(line)
