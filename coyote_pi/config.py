"""The table's configuration: a TOML file, then command-line flags on top.

The annotated example is ``coyote_pi/data/coyote-pi.example.toml``; every key is
optional. The sections this module reads::

    [game]     players (2-6), variant ("basic"/"trickster"), language ("en"/"de"/"ru"),
               start_seat (a seat number, or "ask": the youngest presses ok),
               virtual (the seats the table plays itself, "3:strong,5:cautious"; "none":
               no seat).
               A missing key is asked on the OLED at setup.
    [table]    camera_interval (s), stable_reads, manual_after, verdict_seconds,
               page_seconds, message_seconds: the controller's pacing;
               keep_photos_games: the games whose reveal photos are kept.
    [record]   dir: where game records are kept (``run`` resumes the newest unfinished one).
    [vision]   scheme: "aruco" or "qr" (the stickers printed on the cards).
    [web]      enabled, listen ("HOST:PORT"), url (shown on the OLED; "": derived from
               the hostname), bulletin and requests (folders shared with the page),
               hotspot_file (the join details `coyote-pi hotspot` leaves), page_settings
               (the file that keeps the settings taken from the page): see docs/web.md.
    [speech]   enabled, volume, rate, device (ALSA), voice, announce ("all", "bids",
               "verdicts"): the table speaks its public events (docs/controller.md).

``[display]``, ``[buttons]`` and ``[camera]`` belong to the device layer: they are kept
as they are (:attr:`TableConfig.devices`) and checked by :mod:`coyote_pi.devices` when
the devices are opened.

Any mistake raises :class:`ConfigError` with one line that names the file and the key::

    >>> load_config_text('[game]\\nplayers = 9\\n', source="config.toml")
    Traceback (most recent call last):
    ...
    coyote_pi.config.ConfigError: config.toml: [game] players must be 2 to 6, not 9
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coyote_pi import schema
from coyote_pi.contract.records import BULLETIN_FOLDER, REQUESTS_FOLDER
from coyote_pi.engine.game import MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from coyote_pi.locale import LANGUAGES
from coyote_pi.players import parse_seats, seats_text

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
    #: The seats the table plays itself, as ``"3:strong,5:cautious"`` (None: none; setup's
    #: "Who starts?" question may still make seats virtual).
    virtual: str | None = None


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
#: The least and the most each number of the ``[table]`` section may be: the
#: configuration file's check, the page's (the same check) and the page's help texts
#: (``{low}`` to ``{high}``, :func:`range_words`) all read them here. A whole number's
#: bounds are ints.
TABLE_RANGES: dict[str, tuple[float, float]] = {
    "camera_interval": (0.0, 60.0),
    "stable_reads": (1, 10),
    "manual_after": (1, 1000),
    "verdict_seconds": (0.0, 3600.0),
    "page_seconds": (0.5, 60.0),
    "message_seconds": (0.2, 30.0),
    "keep_photos_games": (0, 100_000),
}


def range_words(key: str) -> dict[str, str]:
    """The bounds of a ``[table]`` number as a help text shows them, written as the field
    takes them (a decimal point in every language); none for a setting that is not a number::

        >>> range_words("page_seconds"), range_words("start_seat")
        ({'low': '0.5', 'high': '60'}, {})
    """
    if key not in TABLE_RANGES:
        return {}
    low, high = TABLE_RANGES[key]
    return {"low": f"{low:g}", "high": f"{high:g}"}


@dataclass(frozen=True)
class WebSettings:
    """The ``[web]`` section: the table's side of its web page (docs/web.md).

    The page itself (``coyote-pi web``) is its own process; the table only writes the
    bulletin folder for it and reads the requests folder it leaves. Folders left None
    are beside the record folder: ``<record dir>/../public`` and ``../requests``.
    """

    enabled: bool = False
    #: Where the page listens, "HOST:PORT" (the page's unit and ``run --sim --web`` use it).
    listen: str = "0.0.0.0:80"
    #: The page's address as the OLED shows it; "" derives it (:meth:`address`).
    url: str = ""
    bulletin: Path | None = None
    requests: Path | None = None
    #: The Wi-Fi join details ``coyote-pi hotspot`` publishes (None: the table shows none).
    hotspot_file: Path | None = None
    #: The settings the table took from the page, kept over its restarts (None: beside the
    #: record folder, ``<record dir>/../page-settings.toml``); the table's own file.
    page_settings: Path | None = None

    def address(self) -> str:
        """The page's address for people: ``url``, else from ``listen``: a given host as it
        is, any address (0.0.0.0, ::) as this machine's name on mDNS (``<hostname>.local``)."""
        if self.url:
            return self.url
        host, port = split_listen(self.listen)
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname().split(".")[0] + ".local"
        elif ":" in host:
            host = f"[{host}]"
        return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"


#: What the table says aloud: everything, bids and verdicts, or verdicts only (docs/controller.md).
ANNOUNCE = ("all", "bids", "verdicts")
#: espeak-ng's amplitude (100 its normal loudness) and speed in words per minute: the bounds.
SPEECH_RANGES: dict[str, tuple[int, int]] = {"volume": (0, 200), "rate": (80, 450)}


@dataclass(frozen=True)
class SpeechSettings:
    """The ``[speech]`` section: the table announces its public events aloud through
    espeak-ng (:mod:`coyote_pi.speech`), never a card of an open round."""

    enabled: bool = False
    #: espeak-ng's amplitude: 0 (silent) to 200, 100 its normal loudness.
    volume: int = 100
    #: Words per minute, 80 to 450.
    rate: int = 175
    #: The ALSA device aplay plays to ("default"; ``aplay -L`` lists them).
    device: str = "default"
    #: An espeak-ng voice for every language instead of the language's own ("": the language's).
    voice: str = ""
    #: :data:`ANNOUNCE`: what is said.
    announce: str = "all"


def split_listen(text: str) -> tuple[str, int]:
    """``"HOST:PORT"`` (``"[::]:80"`` for IPv6) as (host, port); ConfigError when it is not."""
    host, colon, port = str(text).rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(f"the listen address must look like 0.0.0.0:80 or 127.0.0.1:8080, not {text!r}")
    return host, int(port)


@dataclass(frozen=True)
class TableConfig:
    game: GameSettings = field(default_factory=GameSettings)
    pacing: Pacing = field(default_factory=Pacing)
    record_dir: Path = field(default_factory=lambda: default_record_dir())
    #: The newest games whose photos stay on the device (0: only the game being played).
    keep_photos_games: int = KEEP_PHOTOS_GAMES
    scheme: str = "aruco"
    web: WebSettings = field(default_factory=WebSettings)
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    #: The device layer's sections, unchecked here: {"display": {...}, "buttons": {...}, "camera": {...}}.
    devices: dict[str, Any] = field(default_factory=dict)
    source: str = "defaults"

    def replace(self, **changes: Any) -> TableConfig:
        return dataclasses.replace(self, **changes)

    def with_game(self, **changes: Any) -> TableConfig:
        return self.replace(game=dataclasses.replace(self.game, **changes))

    def with_pacing(self, **changes: Any) -> TableConfig:
        return self.replace(pacing=dataclasses.replace(self.pacing, **changes))

    def with_web(self, **changes: Any) -> TableConfig:
        return self.replace(web=dataclasses.replace(self.web, **changes))

    def web_folders(self) -> tuple[Path, Path]:
        """The bulletin and requests folders: as configured, else beside the record folder."""
        web, beside = self.web, self.record_dir.parent
        return (web.bulletin or beside / BULLETIN_FOLDER, web.requests or beside / REQUESTS_FOLDER)

    def page_settings_file(self) -> Path:
        """The settings taken from the web page (``[web] page_settings``), else beside the
        record folder: they go on top of this configuration when the table starts."""
        return self.web.page_settings or self.record_dir.parent / PAGE_SETTINGS_FILE


def default_record_dir() -> Path:
    """``$XDG_DATA_HOME/coyote-pi/games`` (``~/.local/share/...``); the Pi's config sets its own."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "coyote-pi" / "games"


def load_config(path: str | os.PathLike[str] | None) -> TableConfig:
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

    def section(self, data: dict[str, Any], name: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        return schema.table(data.get(name, {}), f"[{name}]", allowed, fail=self.fail)

    def choice(self, value: object, where: str, options: tuple[str, ...]) -> str:
        return schema.choice(value, where, options, fail=self.fail)

    def number(self, value: object, where: str, low: float, high: float, integer: bool = False) -> float:
        kind = schema.whole_number if integer else schema.number
        return schema.within(kind(value, where, fail=self.fail), where, low, high, fail=self.fail)

    def config(self, data: dict[str, Any], base: Path | None) -> TableConfig:
        known = ("game", "table", "record", "vision", "web", "speech", *DEVICE_SECTIONS)
        for name in data:
            if name not in known:
                raise self.fail(f"unknown section [{name}] (known: {', '.join(known)})")
        game = self.section(data, "game", ("players", "variant", "language", "start_seat", "virtual"))
        pacing = self.section(data, "table", (*(f.name for f in dataclasses.fields(Pacing)), "keep_photos_games"))
        keep_photos = pacing.pop("keep_photos_games", KEEP_PHOTOS_GAMES)
        record = self.section(data, "record", ("dir",))
        vision = self.section(data, "vision", ("scheme",))
        web = self.section(data, "web", tuple(f.name for f in dataclasses.fields(WebSettings)))
        speech = self.section(data, "speech", tuple(f.name for f in dataclasses.fields(SpeechSettings)))
        devices = {}
        for name in DEVICE_SECTIONS:
            if name in data:
                if not isinstance(data[name], dict):  # its keys are the devices' to check (devices/config.py)
                    raise self.fail(f"[{name}] must be a table")
                devices[name] = dict(data[name])
        return TableConfig(
            game=self.game(game),
            pacing=self.pacing(pacing),
            record_dir=self.record_dir(record, base),
            keep_photos_games=self.keep_photos_games(keep_photos),
            scheme=self.choice(vision.get("scheme", "aruco"), "[vision] scheme", SCHEMES),
            web=self.web(web, base),
            speech=self.speech(speech),
            devices=devices,
            source=self.source,
        )

    def table_number(self, key: str, value: object) -> float:
        """A ``[table]`` number within its :data:`TABLE_RANGES` (an int where its bounds are)."""
        low, high = TABLE_RANGES[key]
        whole = isinstance(low, int) and isinstance(high, int)
        number = self.number(value, f"[table] {key}", low, high, integer=whole)
        return int(number) if whole else number

    def keep_photos_games(self, value: object) -> int:
        return int(self.table_number("keep_photos_games", value))

    def game(self, raw: dict[str, Any]) -> GameSettings:
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
        virtual = raw.get("virtual")
        if virtual == "none":  # the page's word for no virtual seat (a form's empty field keeps a value)
            virtual = None
        elif virtual is not None:
            virtual = self.virtual(virtual, players)
        return GameSettings(players, variant, language, start, virtual)

    def virtual(self, raw: object, players: int | None) -> str:
        """``[game] virtual``: the seats the table plays, as ``"3:strong,5:cautious"``."""
        if not isinstance(raw, str):
            raise self.fail(f'[game] virtual must be text such as "3:strong", not {raw!r}')
        try:
            seats = parse_seats(raw)
        except ValueError as error:
            raise self.fail(f"[game] {error}") from None
        beyond = [seat for seat in seats if seat > (players or MAX_PLAYERS)]
        if beyond:
            raise self.fail(f"[game] virtual seat {beyond[0]} is not one of the {players or MAX_PLAYERS} seats")
        return seats_text(seats)

    def pacing(self, raw: dict[str, Any]) -> Pacing:
        default = Pacing()

        def real(key: str, unset: float) -> float:
            return unset if key not in raw else self.table_number(key, raw[key])

        def whole(key: str, unset: int) -> int:
            return unset if key not in raw else int(self.table_number(key, raw[key]))

        # Field by field, so that each reaches Pacing with its own type (a count stays an int).
        return Pacing(
            camera_interval=real("camera_interval", default.camera_interval),
            stable_reads=whole("stable_reads", default.stable_reads),
            manual_after=whole("manual_after", default.manual_after),
            verdict_seconds=real("verdict_seconds", default.verdict_seconds),
            page_seconds=real("page_seconds", default.page_seconds),
            message_seconds=real("message_seconds", default.message_seconds),
        )

    def record_dir(self, raw: dict[str, Any], base: Path | None) -> Path:
        if "dir" not in raw:
            return default_record_dir()
        return self.path(raw["dir"], "[record] dir", base)

    def path(self, value: object, where: str, base: Path | None) -> Path:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where} must be a folder path, not {value!r}")
        path = Path(value).expanduser()
        return path if path.is_absolute() or base is None else base / path

    def web(self, raw: dict[str, Any], base: Path | None) -> WebSettings:
        enabled = schema.flag(raw.get("enabled", False), "[web] enabled", fail=self.fail)
        listen = raw.get("listen", WebSettings.listen)
        try:
            split_listen(listen)
        except ConfigError as error:
            raise self.fail(f"[web] listen: {error}") from None
        url = raw.get("url", "")
        if not isinstance(url, str) or (url and not url.startswith(("http://", "https://"))):
            raise self.fail(f"[web] url must start with http:// or https://, or be \"\", not {url!r}")
        paths = {key: self.path(raw[key], f"[web] {key}", base) if raw.get(key, "") != "" else None
                 for key in ("bulletin", "requests", "hotspot_file", "page_settings")}
        return WebSettings(enabled, listen, url, **paths)

    def speech(self, raw: dict[str, Any]) -> SpeechSettings:
        default = SpeechSettings()

        def whole(key: str) -> int:
            low, high = SPEECH_RANGES[key]
            return int(self.number(raw.get(key, getattr(default, key)), f"[speech] {key}", low, high, integer=True))

        def name(key: str) -> str:
            value = raw.get(key, getattr(default, key))
            if not isinstance(value, str) or not value.isprintable() or value.startswith("-"):
                raise self.fail(f"[speech] {key} must be a name such as \"default\" or \"hw:1,0\", not {value!r}")
            return value

        device = name("device")
        if not device:
            raise self.fail("[speech] device must not be empty (\"default\": the system's sound device)")
        return SpeechSettings(enabled=schema.flag(raw.get("enabled", False), "[speech] enabled", fail=self.fail),
                              volume=whole("volume"), rate=whole("rate"), device=device, voice=name("voice"),
                              announce=self.choice(raw.get("announce", default.announce), "[speech] announce", ANNOUNCE))


def check_game_settings(settings: GameSettings) -> None:
    """Check settings that came from flags the same way as the file's (ConfigError)."""
    _Reader("flags").game({k: v for k, v in dataclasses.asdict(settings).items() if v is not None})


#: What the web page may change (docs/web.md), section by key. Players, variant and
#: language are asked at the table; pins, devices, folders and the page's own settings
#: need the configuration file and a restart.
PAGE_SETTABLE: dict[str, tuple[str, ...]] = {
    "game": ("start_seat", "virtual"),
    "table": (*(f.name for f in dataclasses.fields(Pacing)), "keep_photos_games"),
    # How the table speaks; whether it speaks at all, and where, is the file's (a device).
    "speech": ("volume", "rate", "announce"),
}
#: A settings file from the page larger than this is refused unread.
PAGE_SETTINGS_LIMIT = 16_384
#: The name of the file that keeps the settings taken from the page, by default.
PAGE_SETTINGS_FILE = "page-settings.toml"


def with_page_settings(config: TableConfig, text: str, *, source: str = "settings.toml") -> TableConfig:
    """``config`` with the settings the web page proposes in the TOML ``text`` (untrusted):
    only :data:`PAGE_SETTABLE` keys, each checked as the configuration file's are.
    ConfigError (one line) when anything is refused; then nothing is applied.

        >>> with_page_settings(TableConfig(), '[table]\\npage_seconds = 6\\n').pacing.page_seconds
        6
        >>> with_page_settings(TableConfig(), '[game]\\nplayers = 3\\n')
        Traceback (most recent call last):
        ...
        coyote_pi.config.ConfigError: settings.toml: [game] players is not settable from the web page
    """
    reader = _Reader(source)
    if len(text) > PAGE_SETTINGS_LIMIT:
        raise reader.fail(f"larger than {PAGE_SETTINGS_LIMIT} characters")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise reader.fail(f"not valid TOML: {error}") from None
    for name, section in data.items():
        if name not in PAGE_SETTABLE or not isinstance(section, dict):
            raise reader.fail(f"[{name}] is not settable from the web page")
        for key in section:
            if key not in PAGE_SETTABLE[name]:
                raise reader.fail(f"[{name}] {key} is not settable from the web page")
    game, table = dict(data.get("game", {})), dict(data.get("table", {}))
    if game:
        players = {"players": config.game.players} if config.game.players is not None else {}
        checked = reader.game({**players, **game})
        config = config.with_game(**{key: getattr(checked, key) for key in game})
    if "keep_photos_games" in table:
        config = config.replace(keep_photos_games=reader.keep_photos_games(table.pop("keep_photos_games")))
    if table:
        changed = reader.pacing(table)
        config = config.with_pacing(**{key: getattr(changed, key) for key in table})
    if speech := data.get("speech"):
        config = config.replace(speech=reader.speech({**dataclasses.asdict(config.speech), **speech}))
    return config


def page_values(config: TableConfig) -> dict[str, dict[str, object]]:
    """The :data:`PAGE_SETTABLE` settings of ``config``, section by key, as TOML writes them
    (``start_seat`` is ``"ask"`` when the table asks who starts, ``virtual`` ``"none"``
    when it plays no seat)::

        >>> page_values(TableConfig())["game"]
        {'start_seat': 'ask', 'virtual': 'none'}
    """
    values = {"start_seat": "ask" if config.game.start_seat is None else config.game.start_seat,
              "virtual": config.game.virtual or "none",
              **dataclasses.asdict(config.pacing), "keep_photos_games": config.keep_photos_games,
              "volume": config.speech.volume, "rate": config.speech.rate, "announce": config.speech.announce}
    return {section: {key: values[key] for key in keys} for section, keys in PAGE_SETTABLE.items()}


def page_settings_text(values: dict[str, dict[str, object]]) -> str:
    """The TOML of page-settable ``values`` (section by key: numbers and strings), a
    section with no key left out; :func:`with_page_settings` reads it back::

        >>> print(page_settings_text({"game": {}, "table": {"page_seconds": 6, "camera_interval": 0.5}}))
        [table]
        page_seconds = 6
        camera_interval = 0.5
        <BLANKLINE>
    """
    text = ""
    for section, keys in values.items():
        if keys:
            # json.dumps of a string is a TOML basic string; numbers read back as they were.
            text += f"[{section}]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in keys.items())
    return text
