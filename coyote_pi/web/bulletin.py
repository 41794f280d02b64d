"""The three folders the page works with, and what the table publishes in one of them.

The **records** folder holds the game records and their public photos (read only). The
**bulletin** folder holds what the table publishes for the page: ``live.json`` (the
game and the OLED as anyone at the table sees them), ``settings.json`` (the settings the
page may change, as the table has them), between games the camera preview and the
doctor's checks. The **requests** folder is the page's only way back: empty ``*.want``
files and proposed settings, all untrusted input to the table.

Everything read here comes from another process and is checked before use: a file
that is missing, half written or not what the contract says counts as absent.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from coyote_pi.contract.page import (
    CAMERA_STATES,
    DOCTOR,
    DOCTOR_WANT,
    LIVE,
    PREVIEW,
    PREVIEW_INFO,
    PREVIEW_WANT,
    SETTINGS,
    SETTINGS_IN_FORCE,
    SETTINGS_RESULT,
)
from coyote_pi.contract.records import (
    BULLETIN_FOLDER,
    GAME_NAME,
    RECORD_SUFFIX,
    REQUESTS_FOLDER,
    REVIEWS_FOLDER,
    is_record_file,
)
from coyote_pi.engine.game import MAX_PLAYERS

# The file names and camera states the table uses too (the page words each state;
# anything else is not shown).
from coyote_pi.json_text import JsonObject
from coyote_pi.locale import LANGUAGES
from coyote_pi.players import LEVEL_NAMES


@dataclass(frozen=True)
class Folders:
    """Where the records, the bulletin, the requests and the page's kept reviews are
    (docs/web.md, "Processes and what each can read")."""

    records: Path
    bulletin: Path
    requests: Path
    reviews: Path

    @classmethod
    def beside(cls, records: Path, bulletin: Path | None = None, requests: Path | None = None,
               reviews: Path | None = None) -> Folders:
        """The simulated table's layout, for each folder not given: ``public/`` and
        ``requests/`` beside the records folder, and ``reviews/`` beside the requests
        folder (the page's two folders together: on the Pi, its state folder)."""
        records = Path(records)
        requests = Path(requests or records.parent / REQUESTS_FOLDER)
        return cls(records, Path(bulletin or records.parent / BULLETIN_FOLDER), requests,
                   Path(reviews or requests.parent / REVIEWS_FOLDER))

    def record(self, game: str) -> Path | None:
        """The record of ``game`` (``game-0003``), or None for a name that is not one."""
        return self.records / f"{game}{RECORD_SUFFIX}" if GAME_NAME.fullmatch(game) else None

    def touch_request(self, name: str) -> None:
        """Ask the table for something: create ``name`` in the requests folder, or renew its time."""
        path = self.requests / name
        self.requests.mkdir(parents=True, exist_ok=True)
        with open(path, "a"):
            pass
        os.utime(path)


def read_json(path: Path) -> JsonObject | None:
    """The JSON object in ``path``; None when it is missing, unreadable or not an object."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def parse_time(value: object) -> datetime | None:
    """An ISO time as the table writes it (``2026-11-23T19:02:11.407Z``); None if it is not one."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def virtual_seats(raw: object) -> tuple[tuple[int, str], ...]:
    """The virtual seats named in ``raw`` (untrusted: ``live.json``'s ``virtual`` or a
    record's ``meta.virtual``, both ``{"3": "strong"}``) as (seat, level) pairs in seat
    order; a pair that is not a seat and a level the table knows is left out."""
    if not isinstance(raw, dict):
        return ()
    return tuple(sorted((int(seat), level) for seat, level in raw.items()
                        if isinstance(seat, str) and seat.isascii() and seat.isdigit()
                        and 1 <= int(seat) <= MAX_PLAYERS and level in LEVEL_NAMES))


@dataclass(frozen=True)
class Live:
    """``live.json``, checked: the fields the page uses, with safe values when one is wrong.

    A missing or broken file is :data:`NOT_RUNNING`: no round open, no game between
    (so no setup), no PIN. The table's last write as it stopped (``"stopped": true``) is
    not running either, though it still tells where the table stood.
    """

    seq: int = -1
    started: str = ""
    language: str = "en"
    players: int = 0
    variant: str = ""
    game_file: str | None = None
    stage: str = ""
    round_open: bool = False
    between_games: bool = False
    running: bool = False
    public: JsonObject | None = None
    screen: JsonObject | None = None
    log: tuple[str, ...] = ()
    camera: str = ""
    url: str = ""
    pin: JsonObject | None = None
    #: The seats the table plays itself, (seat, level) in seat order.
    virtual: tuple[tuple[int, str], ...] = ()

    @classmethod
    def parse(cls, data: JsonObject | None) -> Live:
        if data is None or data.get("version") != 1:
            return NOT_RUNNING

        def text(key: str) -> str:
            return data[key] if isinstance(data.get(key), str) else ""

        game_file = data.get("game_file")
        web: JsonObject = data["web"] if isinstance(data.get("web"), dict) else {}
        language = data.get("language")
        url = web.get("url")
        # The table's last write as it stopped: where it stood, but no setup and no PIN.
        running = data.get("stopped") is not True
        pin = web.get("pin") if running else None
        return cls(
            seq=data["seq"] if isinstance(data.get("seq"), int) else -1,
            started=text("started"),
            language=language if isinstance(language, str) and language in LANGUAGES else "en",
            players=data["players"] if isinstance(data.get("players"), int) else 0,
            variant=text("variant"),
            game_file=game_file if isinstance(game_file, str) and is_record_file(game_file) else None,
            stage=text("stage"),
            # Anything but a plain false counts as a round in progress: the safe side.
            round_open=data.get("round_open") is not False,
            between_games=running and data.get("between_games") is True,
            running=running,
            public=data.get("public") if isinstance(data.get("public"), dict) else None,
            screen=data.get("screen") if isinstance(data.get("screen"), dict) else None,
            log=tuple(line for line in data.get("log") or () if isinstance(line, str))[-30:],
            camera=text("camera") if text("camera") in CAMERA_STATES else "",
            url=url if isinstance(url, str) else "",
            pin=pin if isinstance(pin, dict) else None,
            virtual=virtual_seats(data.get("virtual")),
        )

    @property
    def game(self) -> str | None:
        """The game being written (``game-0003``), or None."""
        return self.game_file[: -len(".jsonl")] if self.game_file else None

    def locks(self, game: str) -> bool:
        """True while ``game`` is the record being written and one of its rounds is open:
        its downloads wait for the round's end (and setup waits for the game's)."""
        return self.round_open and game == self.game


NOT_RUNNING = Live()


def read_live(folders: Folders) -> Live:
    return Live.parse(read_json(folders.bulletin / LIVE))
