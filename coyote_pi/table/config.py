"""The table's configuration: a TOML file, then command-line flags on top.

The annotated example is ``coyote_pi/data/coyote-pi.example.toml``; every key is
optional. The sections this module reads::

    [game]     players (2-6), variant ("basic"/"trickster"), language ("en"/"de"/"ru"),
               start_seat (a seat number, or "ask": the youngest presses ok).
               A missing key is asked on the OLED at setup.
    [table]    camera_interval (s), stable_reads, manual_after, verdict_seconds,
               page_seconds, message_seconds: the controller's pacing;
               keep_photos_games: the games whose reveal photos are kept.
    [record]   dir: where game records are kept (``run`` resumes the newest unfinished one).
    [vision]   scheme: "aruco" or "qr" (the stickers printed on the cards).

``[display]``, ``[buttons]`` and ``[camera]`` belong to the device layer: they are kept
as they are (:attr:`TableConfig.devices`) and checked by :mod:`coyote_pi.devices` when
the devices are opened.

Any mistake raises :class:`ConfigError` with one line that names the file and the key::

    >>> load_config_text('[game]\\nplayers = 9\\n', source="config.toml")
    Traceback (most recent call last):
    ...
    coyote_pi.table.config.ConfigError: config.toml: [game] players must be 2 to 6, not 9
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from coyote_pi.engine.game import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from coyote_pi.table.i18n import LANGUAGES

SCHEMES = ("aruco", "qr")
DEVICE_SECTIONS = ("display", "buttons", "camera")


class ConfigError(ValueError):
    """A configuration file or flag the table cannot use; the message is one line."""


@dataclass(frozen=True)
class GameSettings:
    """Choices for the game; ``None`` means "ask at the table during setup"."""

    players: int | None = None
    variant: str | None = None
    language: str | None = None
    start_seat: int | None = None


@dataclass(frozen=True)
class Pacing:
    """How the controller paces itself (seconds unless said otherwise)."""

    #: Time between camera reads while the flow waits for cards (the camera idles between).
    camera_interval: float = 0.7
    #: Identical readings in a row before cards count as seen.
    stable_reads: int = 2
    #: Failed reads in a row (camera errors, no table in the picture) before the table
    #: switches to entering cards with the buttons.
    manual_after: int = 8
    #: 0: the verdict stays until someone presses ok; otherwise it moves on by itself.
    verdict_seconds: float = 0.0
    #: How long each page of the verdict's explanation shows before the next.
    page_seconds: float = 4.0
    #: How long a short message ("Seat 4: not your turn") stays on screen.
    message_seconds: float = 1.5


#: Games whose reveal and draw photos are kept by default (the oldest go first; records stay).
KEEP_PHOTOS_GAMES = 50


@dataclass(frozen=True)
class TableConfig:
    game: GameSettings = field(default_factory=GameSettings)
    pacing: Pacing = field(default_factory=Pacing)
    record_dir: Path = field(default_factory=lambda: default_record_dir())
    #: The newest games whose photos stay on the device (0: only the game being played).
    keep_photos_games: int = KEEP_PHOTOS_GAMES
    scheme: str = "aruco"
    #: The device layer's sections, unchecked here: {"display": {...}, "buttons": {...}, "camera": {...}}.
    devices: dict = field(default_factory=dict)
    source: str = "defaults"

    def replace(self, **changes) -> TableConfig:
        return dataclasses.replace(self, **changes)

    def with_game(self, **changes) -> TableConfig:
        return self.replace(game=dataclasses.replace(self.game, **changes))

    def with_pacing(self, **changes) -> TableConfig:
        return self.replace(pacing=dataclasses.replace(self.pacing, **changes))


def default_record_dir() -> Path:
    """``$XDG_DATA_HOME/coyote-pi/games`` (``~/.local/share/...``); the Pi's config sets its own."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "coyote-pi" / "games"


def load_config(path: str | os.PathLike | None) -> TableConfig:
    """Read a configuration file; ``None`` gives the defaults."""
    if path is None:
        return TableConfig()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"cannot read the configuration {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a UTF-8 text file") from None
    return load_config_text(text, source=str(path), base=path.parent)


def load_config_text(text: str, *, source: str = "configuration", base: Path | None = None) -> TableConfig:
    """Parse configuration TOML ``text``; ``source`` names it in errors, ``base`` anchors relative paths."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    return _Reader(source).config(data, base)


class _Reader:
    """Checks the raw TOML tables, failing on the first bad key with a one-line message."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: {message}")

    def section(self, data: dict, name: str, allowed: tuple[str, ...]) -> dict:
        value = data.get(name, {})
        if not isinstance(value, dict):
            raise self.fail(f"[{name}] must be a table")
        for key in value:
            if key not in allowed:
                raise self.fail(f"[{name}] has an unknown key {key!r} (known: {', '.join(allowed)})")
        return value

    def choice(self, value: object, where: str, options: tuple[str, ...]) -> str:
        if value not in options:
            raise self.fail(f"{where} must be one of {', '.join(repr(o) for o in options)}, not {value!r}")
        return value

    def number(self, value: object, where: str, low: float, high: float, integer: bool = False) -> float:
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            kind = "a whole number" if integer else "a number"
            raise self.fail(f"{where} must be {kind}, not {value!r}")
        if not low <= value <= high:
            raise self.fail(f"{where} must be {low:g} to {high:g}, not {value!r}")
        return value

    def config(self, data: dict, base: Path | None) -> TableConfig:
        known = ("game", "table", "record", "vision", *DEVICE_SECTIONS)
        for name in data:
            if name not in known:
                raise self.fail(f"unknown section [{name}] (known: {', '.join(known)})")
        game = self.section(data, "game", ("players", "variant", "language", "start_seat"))
        pacing = self.section(data, "table", (*(f.name for f in dataclasses.fields(Pacing)), "keep_photos_games"))
        keep_photos = pacing.pop("keep_photos_games", KEEP_PHOTOS_GAMES)
        record = self.section(data, "record", ("dir",))
        vision = self.section(data, "vision", ("scheme",))
        devices = {}
        for name in DEVICE_SECTIONS:
            if name in data:
                if not isinstance(data[name], dict):
                    raise self.fail(f"[{name}] must be a table")
                devices[name] = dict(data[name])
        return TableConfig(
            game=self.game(game),
            pacing=self.pacing(pacing),
            record_dir=self.record_dir(record, base),
            keep_photos_games=int(self.number(keep_photos, "[table] keep_photos_games", 0, 100_000, integer=True)),
            scheme=self.choice(vision.get("scheme", "aruco"), "[vision] scheme", SCHEMES),
            devices=devices,
            source=self.source,
        )

    def game(self, raw: dict) -> GameSettings:
        players = raw.get("players")
        if players is not None:
            players = int(self.number(players, "[game] players", MIN_PLAYERS, MAX_PLAYERS, integer=True))
        variant = raw.get("variant")
        if variant is not None:
            self.choice(variant, "[game] variant", VARIANTS)
        language = raw.get("language")
        if language is not None:
            self.choice(language, "[game] language", LANGUAGES)
        start = raw.get("start_seat", "ask")
        if start == "ask":
            start = None
        else:
            start = int(self.number(start, "[game] start_seat", 1, MAX_PLAYERS, integer=True))
            if players is not None and start > players:
                raise self.fail(f"[game] start_seat {start} is not one of the {players} seats")
        return GameSettings(players, variant, language, start)

    def pacing(self, raw: dict) -> Pacing:
        limits = {
            "camera_interval": (0.0, 60.0, False),
            "stable_reads": (1, 10, True),
            "manual_after": (1, 1000, True),
            "verdict_seconds": (0.0, 3600.0, False),
            "page_seconds": (0.5, 60.0, False),
            "message_seconds": (0.2, 30.0, False),
        }
        values = {}
        for key, value in raw.items():
            low, high, integer = limits[key]
            values[key] = self.number(value, f"[table] {key}", low, high, integer)
        return Pacing(**values)

    def record_dir(self, raw: dict, base: Path | None) -> Path:
        if "dir" not in raw:
            return default_record_dir()
        value = raw["dir"]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"[record] dir must be a folder path, not {value!r}")
        path = Path(value).expanduser()
        return path if path.is_absolute() or base is None else base / path


def check_game_settings(settings: GameSettings) -> None:
    """Check settings that came from flags the same way as the file's (ConfigError)."""
    _Reader("flags").game({k: v for k, v in dataclasses.asdict(settings).items() if v is not None})
