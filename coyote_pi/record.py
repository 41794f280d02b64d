"""The game record: the arbiter's evidence, one JSON object per line.

Every line is a JSON object with these keys (see docs/game-record.md)::

    seq    0, 1, 2, ... the line's position
    time   when it was written, ISO 8601 UTC (the recorder's clock; the engine has none)
    kind   "setup" | "action" | "observation" | "resolution" | "note"
    prev   SHA-256 (hex) of the previous line's bytes, null on the first line
    hash   SHA-256 (hex) of this line's canonical JSON without "hash"

plus the body of its kind: ``config`` (setup), ``event`` (action, observation),
``result`` (resolution) or ``note`` (free-form, e.g. what the camera could not read).

:class:`RecordWriter` appends a line and ``fsync``\\ s it before returning, so an action
counts only once it is on disk. :func:`read_record` validates a whole file by replaying
it through the engine and rejects an illegal, corrupted, reordered or tampered record
with the line number and the reason. :class:`RecordedGame` ties the two together: the
engine accepts an event, the record stores it, and only then does it count.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from coyote_pi.engine import events as E
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.engine.game import Game, GameConfig

FORMAT = "coyote-pi/game-record"
VERSION = 1
_OBSERVATIONS = (E.Deal, E.Reveal, E.DrawReplacement)
_KINDS = ("setup", "action", "observation", "resolution", "note")


class RecordError(Exception):
    """A record that cannot be trusted, with the line where it goes wrong."""

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.line = line
        self.reason = reason


def _canonical(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def event_kind(event: E.Event) -> str:
    return "observation" if isinstance(event, _OBSERVATIONS) else "action"


@dataclass
class Record:
    """A validated record: the game it replays to and its lines."""

    game: Game
    lines: list[dict] = field(default_factory=list)
    #: The hash of the last line: shown at the table so a later edit can be noticed.
    fingerprint: str = ""
    #: Events that were undone, with the line that took them back.
    undone: list[int] = field(default_factory=list)

    @property
    def meta(self) -> dict:
        return self.lines[0].get("meta", {}) if self.lines else {}


def read_record(path: str | os.PathLike, *, allow_torn_tail: bool = False) -> Record:
    """Validate a record by replaying it; raise :class:`RecordError` on the first fault.

    ``allow_torn_tail`` accepts a last line cut short by a crash (it was never
    acknowledged, so it never counted) and a missing resolution line after the last
    event (the resolution is recomputed); :func:`resume` uses it, ``replay`` does not.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(None, f"cannot read {path}: {error.strerror or error}") from None
    if not data:
        raise RecordError(None, f"{path} is empty: no setup line")
    raw_lines = data.split(b"\n")
    if raw_lines[-1] == b"":
        raw_lines.pop()
    elif allow_torn_tail:
        raw_lines.pop()  # a line without its newline was cut by a crash
    else:
        raise RecordError(len(raw_lines), "the last line is incomplete (the record was cut short)")

    record: Record | None = None
    prev_hash = None
    pending_results = 0  # resolutions the engine produced that the record has not shown yet
    for number, raw in enumerate(raw_lines, start=1):
        try:
            text = raw.decode("utf-8")
            line = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RecordError(number, f"not valid JSON ({error})") from None
        if not isinstance(line, dict):
            raise RecordError(number, "a line must be a JSON object")
        _check_chain(line, number, prev_hash)
        prev_hash = _sha256(text)
        kind = line.get("kind")
        if number == 1:
            record = _start(line)
            continue
        if kind == "setup":
            raise RecordError(number, "a second setup line: records cannot be joined")
        if kind in ("action", "observation"):
            if pending_results:
                raise RecordError(number, "an event before the resolution of the previous challenge")
            before = len(record.game.results)
            try:
                event = E.from_dict(line.get("event"))
                if event_kind(event) != kind:
                    raise RecordError(number, f"a {E.type_name(event)} event is not an {kind}")
                record.game.apply(event)
            except IllegalAction as error:
                raise RecordError(number, f"illegal {kind}: {error}") from None
            if isinstance(event, E.Undo):
                record.undone.append(number)
            pending_results = len(record.game.results) - before
        elif kind == "resolution":
            if not pending_results:
                raise RecordError(number, "a resolution where no challenge was resolved")
            expected = record.game.results[-pending_results].to_dict()
            if line.get("result") != expected:
                raise RecordError(number, "the recorded resolution differs from the rules' result")
            pending_results -= 1
        elif kind == "note":
            pass
        else:
            raise RecordError(number, f"unknown kind {kind!r} (known: {', '.join(_KINDS)})")
        record.lines.append(line)
    if pending_results and not allow_torn_tail:
        raise RecordError(len(raw_lines), "the record ends before the resolution of its last challenge")
    record.fingerprint = prev_hash
    return record


def _check_chain(line: dict, number: int, prev_hash: str | None) -> None:
    if line.get("seq") != number - 1:
        raise RecordError(number, f"sequence number {line.get('seq')!r}, expected {number - 1} (lines reordered?)")
    if line.get("prev") != prev_hash:
        raise RecordError(number, "does not follow the line before it (edited, reordered or removed lines)")
    body = {k: v for k, v in line.items() if k != "hash"}
    if line.get("hash") != _sha256(_canonical(body)):
        raise RecordError(number, "its content does not match its hash (the line was edited)")


def _start(line: dict) -> Record:
    if line.get("kind") != "setup":
        raise RecordError(1, "the first line must be the setup")
    if line.get("format") != FORMAT:
        raise RecordError(1, f"not a coyote-pi game record (format {line.get('format')!r})")
    if line.get("version") != VERSION:
        raise RecordError(1, f"record version {line.get('version')!r}; this coyote-pi reads version {VERSION}")
    try:
        config = GameConfig.from_dict(line.get("config"))
    except IllegalAction as error:
        raise RecordError(1, f"bad setup: {error}") from None
    return Record(Game(config), [line])


class RecordWriter:
    """Appends lines to a record file, each written and ``fsync``\\ ed before returning."""

    def __init__(self, path: str | os.PathLike, *, seq: int, prev: str | None, clock: Callable[[], str] = utc_now):
        self.path = Path(path)
        self.clock = clock
        self._seq = seq
        self._prev = prev

    @property
    def fingerprint(self) -> str | None:
        return self._prev

    @classmethod
    def create(cls, path, config: GameConfig, meta: dict | None = None, clock: Callable[[], str] = utc_now):
        """Start a new record with its setup line; refuses to overwrite a file."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            raise FileExistsError(f"{path} already exists: a record is never overwritten")
        writer = cls(path, seq=0, prev=None, clock=clock)
        writer._append([{"kind": "setup", "format": FORMAT, "version": VERSION,
                         "config": config.to_dict(), "meta": meta or {}}])
        _fsync_dir(path.parent)
        return writer

    def append_event(self, event: E.Event, results: list | None = None) -> None:
        """One event and the resolutions it caused, in a single durable write."""
        bodies = [{"kind": event_kind(event), "event": E.to_dict(event)}]
        bodies += [{"kind": "resolution", "result": result.to_dict()} for result in results or ()]
        self._append(bodies)

    def append_note(self, note: dict) -> None:
        self._append([{"kind": "note", "note": note}])

    def _append(self, bodies: list[dict]) -> None:
        chunk = []
        seq, prev = self._seq, self._prev
        for body in bodies:
            line = dict(body, seq=seq, time=self.clock(), prev=prev)
            line["hash"] = _sha256(_canonical(line))
            text = _canonical(line)
            chunk.append(text + "\n")
            seq, prev = seq + 1, _sha256(text)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            data = "".join(chunk).encode("utf-8")
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(f"short write to {self.path}")
            os.fsync(fd)
        finally:
            os.close(fd)
        self._seq, self._prev = seq, prev


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class RecordedGame:
    """A game whose every accepted event is on disk before it counts.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
    >>> from coyote_pi.cards import ALL_CARDS
    >>> table = RecordedGame.start(path, GameConfig(players=2))
    >>> table.game.phase
    'deal'
    >>> table.apply(table.game.virtual_deal(["5", "7", "max0"] + [c for c in ALL_CARDS if c not in ("5", "7", "max0")]))
    >>> RecordedGame.resume(path).game.phase
    'bidding'
    """

    def __init__(self, game: Game, writer: RecordWriter, record: Record | None = None) -> None:
        self.game = game
        self.writer = writer
        self.record = record

    @property
    def path(self) -> Path:
        return self.writer.path

    @classmethod
    def start(cls, path, config: GameConfig, meta: dict | None = None, clock=utc_now) -> RecordedGame:
        return cls(Game(config), RecordWriter.create(path, config, meta, clock))

    @classmethod
    def resume(cls, path, clock=utc_now) -> RecordedGame:
        """Continue the game in ``path`` where it stopped, repairing a torn last write.

        A line cut short by a crash is moved to ``<path>.torn`` (it never counted); a
        resolution that did not reach the disk is recomputed and written.
        """
        path = Path(path)
        record = read_record(path, allow_torn_tail=True)
        _cut_torn_tail(path)
        writer = RecordWriter(path, seq=len(record.lines), prev=record.fingerprint, clock=clock)
        shown = sum(1 for line in record.lines if line.get("kind") == "resolution")
        missing = record.game.results[shown:]
        if missing:
            writer._append([{"kind": "resolution", "result": r.to_dict()} for r in missing])
        return cls(record.game, writer, record)

    def apply(self, event: E.Event) -> None:
        """Apply ``event`` (IllegalAction: nothing happens) and make it durable.

        If the disk write fails, the game is rebuilt from the record as it is on disk
        and the OSError is raised: an action that is not recorded does not count.
        """
        before = len(self.game.results)
        self.game.apply(event)
        try:
            self.writer.append_event(event, self.game.results[before:])
        except OSError:
            self.__dict__.update(RecordedGame.resume(self.path, self.writer.clock).__dict__)
            raise

    def note(self, **note: object) -> None:
        """Record something the table saw that is not a game event (e.g. an unreadable card)."""
        self.writer.append_note(note)


def _cut_torn_tail(path: Path) -> None:
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    keep = data.rfind(b"\n") + 1
    torn = path.with_name(path.name + ".torn")
    torn.write_bytes(data[keep:])
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
