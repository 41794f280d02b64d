"""The game record: the arbiter's evidence, one JSON object per line.

Every line is a JSON object with these keys (see docs/game-record.md)::

    seq    0, 1, 2, ... the line's position (line number - 1)
    time   when it was written, UTC to the millisecond (2026-11-21T19:02:11.407Z),
           never earlier than the line before (the recorder's clock; the engine has none)
    kind   "setup" | "action" | "observation" | "resolution" | "note"
    prev   SHA-256 (hex) of the previous line's stored bytes, null on the first line
    hash   SHA-256 (hex) of this line's canonical JSON without "hash"

plus the body of its kind: ``format``, ``version``, ``config`` and ``meta`` (setup),
``event`` (action, observation), ``result`` (resolution) or ``note`` (free-form, e.g.
what the camera could not read). Each line is stored as its canonical JSON and ends
with a newline; a reader accepts nothing else.

:class:`RecordWriter` appends a line and ``fsync``\\ s it before returning, so an action
counts only once it is on disk; a write that fails leaves no part of its line behind, and
a record deleted or replaced meanwhile is noticed (:class:`RecordGone`). :func:`read_record`
validates a whole file by replaying it through the engine and rejects an illegal,
corrupted, reordered, non-canonical or tampered record with the line number and the
reason. :class:`RecordedGame` ties the two together: the engine accepts an event, the
record stores it, and only then does it count; after a crash it resumes from the last
line that replays (:func:`salvage_record`), setting a damaged end aside (:class:`Repair`).
:func:`fingerprint` is the short form of the last line's hash that the table shows, so
that a record changed or cut short afterwards can be told from the one that was played.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from coyote_pi.engine import events as E
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.engine.game import OVER, Game, GameConfig, RoundResult

FORMAT = "coyote-pi/game-record"
VERSION = 1
_OBSERVATIONS = (E.Deal, E.Reveal, E.DrawReplacement)
#: The keys every line has, and those of its body, by kind: no line has any other key.
_CHAIN_KEYS = frozenset({"seq", "time", "kind", "prev", "hash"})
_BODY_KEYS = {
    "setup": frozenset({"format", "version", "config", "meta"}),
    "action": frozenset({"event"}),
    "observation": frozenset({"event"}),
    "resolution": frozenset({"result"}),
    "note": frozenset({"note"}),
}
_HASH = re.compile(r"[0-9a-f]{64}")
#: A line's time: UTC to the millisecond, exactly this shape (``2026-11-21T19:02:11.407Z``).
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")

#: Crockford's base 32: digits and capitals without I, L, O and U, so nothing is misread.
_BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of the fingerprint shown at the table: 16 x 5 = 80 bits of the last hash.
FINGERPRINT_CHARS = 16


class RecordError(Exception):
    """A record that cannot be trusted, with the line where it goes wrong (1-based)."""

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.line = line
        self.reason = reason


def _canonical(obj: dict) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def is_record_time(value: object) -> bool:
    """True for a time as the record writes it: ``2026-11-21T19:02:11.407Z`` (a real date)."""
    if not isinstance(value, str) or not _TIME.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value[:-1])  # the shape is right: is it a real date and time?
    except ValueError:
        return False
    return True


def event_kind(event: E.Event) -> str:
    return "observation" if isinstance(event, _OBSERVATIONS) else "action"


# ------------------------------------------------------------------ fingerprints


def fingerprint(digest: str) -> str:
    """The fingerprint the table shows for a record whose last line hashes to ``digest``:
    its first 80 bits in Crockford base 32, in groups of four.

    >>> fingerprint("0" * 20 + "f" * 44), fingerprint("ff" * 32)
    ('0000-0000-0000-0000', 'ZZZZ-ZZZZ-ZZZZ-ZZZZ')
    """
    bits = int(digest[: FINGERPRINT_CHARS * 5 // 4], 16)
    chars = "".join(_BASE32[(bits >> 5 * i) & 31] for i in reversed(range(FINGERPRINT_CHARS)))
    return "-".join(chars[i : i + 4] for i in range(0, FINGERPRINT_CHARS, 4))


def fingerprint_qr(digest: str) -> str:
    """The whole last hash for a QR code: capital hex, which a QR code stores in its
    compact alphanumeric mode; ``replay --expect`` takes it as it is scanned."""
    return digest.upper()


def normalize_fingerprint(noted: str) -> str:
    """What a person noted, as :func:`fingerprint` writes it or as the full hash in
    lowercase hex. Spaces, dashes and case do not matter, and O, I and L are read as 0,
    1 and 1 (as Crockford's base 32 says). ValueError when it is neither."""
    cleaned = re.sub(r"[\s-]", "", noted).upper()
    if len(cleaned) == 64 and all(c in "0123456789ABCDEF" for c in cleaned):
        return cleaned.lower()
    cleaned = cleaned.translate(str.maketrans("OIL", "011"))
    if len(cleaned) == FINGERPRINT_CHARS and all(c in _BASE32 for c in cleaned):
        return "-".join(cleaned[i : i + 4] for i in range(0, FINGERPRINT_CHARS, 4))
    raise ValueError(f"{noted!r} is not a fingerprint: give the {FINGERPRINT_CHARS} characters the table "
                     "shows (like 7K2M-9QXD-4HTR-BW3N) or the full 64-digit hash of its QR code")


# ------------------------------------------------------------------ reading


@dataclass
class Record:
    """A validated record: the game it replays to and its lines."""

    game: Game
    lines: list[dict] = field(default_factory=list)
    #: The SHA-256 of each stored line (what the next line's ``prev`` holds).
    digests: list[str] = field(default_factory=list)
    #: Events that were undone, with the line that took them back.
    undone: list[int] = field(default_factory=list)

    @property
    def meta(self) -> dict:
        return self.lines[0]["meta"] if self.lines else {}

    @property
    def last_hash(self) -> str:
        """The hash of the last line: any change to any line changes it."""
        return self.digests[-1]

    @property
    def fingerprint(self) -> str:
        """The short form of :attr:`last_hash` that the table shows at every verdict."""
        return fingerprint(self.last_hash)

    def line_of(self, noted: str) -> int | None:
        """The line (1-based) whose fingerprint or full hash is ``noted`` (normalized), if any."""
        for number, digest in enumerate(self.digests, start=1):
            if noted in (digest, fingerprint(digest)):
                return number
        return None


def read_record(path: str | os.PathLike, *, allow_torn_tail: bool = False) -> Record:
    """Validate a record by replaying it; raise :class:`RecordError` on the first fault.

    Every line must be exactly what :class:`RecordWriter` writes for it: its canonical
    JSON (byte for byte), the keys of its kind and no other, each value of its type,
    chained to the line before, its time not earlier than the line before's, and legal
    under the rules. A line counts only with its newline: a last line without one was
    never finished (a write cut short), whether or not its JSON is complete.

    ``allow_torn_tail`` accepts such an unfinished last line (it is left out: it was
    never acknowledged, so it never counted) and a missing resolution line after the
    last event (the resolution is recomputed); ``replay`` does not.
    """
    raw_lines, tail = _split_lines(_read_bytes(Path(path)))
    if tail and not allow_torn_tail:
        raise RecordError(len(raw_lines) + 1, _unfinished(tail))
    if not raw_lines:
        raise RecordError(1, "the setup line is incomplete (the record was cut short)")
    replay = _Replay()
    for number, raw in enumerate(raw_lines, start=1):
        replay.take(number, raw)
    if replay.pending and not allow_torn_tail:
        raise RecordError(len(raw_lines), "the record ends before the resolution of its last challenge")
    return replay.record


@dataclass(frozen=True)
class Salvage:
    """The longest beginning of a record that replays (see :func:`salvage_record`)."""

    record: Record
    #: The bytes after the last line that replays: an unfinished last line, or a damaged end.
    tail: bytes
    #: Why the first line of ``tail`` does not replay; None when ``tail`` is only an
    #: unfinished last line (a write cut short, which never counted) or empty.
    damage: RecordError | None


def salvage_record(path: str | os.PathLike) -> Salvage:
    """The record at ``path`` as far as it replays, for resuming it after a crash.

    Reads like :func:`read_record` with ``allow_torn_tail``, but stops at the first line
    that does not replay (an empty line, NUL bytes, garbage, a broken chain) instead of
    rejecting the file: the lines before it are a valid record, the rest is its ``tail``.
    Raises :class:`RecordError` when not even the setup line replays.
    """
    data = _read_bytes(Path(path))
    raw_lines, _ = _split_lines(data)
    replay, kept, damage = _Replay(), 0, None
    for number, raw in enumerate(raw_lines, start=1):
        try:
            replay.take(number, raw)
        except RecordError as error:
            if number == 1:
                raise
            damage = error
            break
        kept += len(raw) + 1
    if replay.record is None:
        raise RecordError(1, "the setup line is incomplete (the record was cut short)")
    return Salvage(replay.record, data[kept:], damage)


def _read_bytes(path: Path) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(None, f"cannot read {path}: {error.strerror or error}") from None
    if not data:
        raise RecordError(None, f"{path} is empty: no setup line")
    return data


def _split_lines(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines (without their newlines) and what follows the last newline."""
    raw_lines = data.split(b"\n")
    return raw_lines, raw_lines.pop()  # the tail is b"" when the last line ends with its newline


def _unfinished(tail: bytes) -> str:
    try:
        complete = isinstance(json.loads(tail.decode("utf-8")), dict)
    except ValueError:
        complete = False
    if complete:
        return ("the last line has no newline at its end; a line counts only once its newline is "
                "written, so this one was never finished (a write cut short) and does not count")
    return "the last line is incomplete (the record was cut short)"


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):
        keys = [key for key, _ in pairs]
        raise _DuplicateKey(next(key for key in keys if keys.count(key) > 1))
    return found


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not a JSON number")


def _parse(number: int, raw: bytes) -> tuple[str, dict]:
    """The line's text and object, if the text is the object's canonical JSON."""
    if not raw:
        raise RecordError(number, "an empty line")
    try:
        text = raw.decode("utf-8")
        line = json.loads(text, parse_constant=_not_json)
    except UnicodeDecodeError:
        raise RecordError(number, "not UTF-8 text") from None
    except ValueError as error:
        raise RecordError(number, f"not valid JSON ({error})") from None
    if not isinstance(line, dict):
        raise RecordError(number, "a line must be a JSON object")
    try:
        canonical = _canonical(line)
    except ValueError:
        raise RecordError(number, "a number too large for JSON") from None
    if text != canonical:
        try:  # parsed again only now: the hook is slow, and a repeated key is never canonical
            json.loads(text, object_pairs_hook=_no_duplicates)
        except _DuplicateKey as duplicate:
            raise RecordError(number, f"the key {duplicate.args[0]!r} appears twice: a reader could see either "
                                      "value") from None
        at = next((i for i, (a, b) in enumerate(zip(text, canonical)) if a != b), min(len(text), len(canonical)))
        raise RecordError(number, f"not in canonical form: from character {at + 1} it should read "
                                  f"{canonical[at:at + 30]!r}, not {text[at:at + 30]!r} (keys sorted, no spaces, "
                                  "each value written as coyote-pi writes it)")
    return text, line


def _check_keys(number: int, line: dict) -> str:
    """The line's kind, once its keys are exactly those of that kind and typed right."""
    kind = line.get("kind")
    if kind not in _BODY_KEYS:
        raise RecordError(number, f"unknown kind {kind!r} (known: {', '.join(_BODY_KEYS)})")
    keys = _CHAIN_KEYS | _BODY_KEYS[kind]
    unknown, missing = sorted(set(line) - keys), sorted(keys - set(line))
    if unknown:
        raise RecordError(number, f"unknown key(s) in this {kind} line: {', '.join(map(repr, unknown))}")
    if missing:
        raise RecordError(number, f"this {kind} line needs the key(s) {', '.join(map(repr, missing))}")
    seq = line["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise RecordError(number, f"the sequence number must be a whole number, not {seq!r}")
    if not is_record_time(line["time"]):
        raise RecordError(number, f"the time {line['time']!r} is not a UTC time like 2026-11-21T19:02:11.407Z")
    for key in ("prev", "hash"):
        value = line[key]
        if not (isinstance(value, str) and _HASH.fullmatch(value)) and not (key == "prev" and value is None):
            raise RecordError(number, f"{key!r} must be a SHA-256 in lowercase hex, not {value!r}")
    for key in ("meta", "note", "result"):
        if key in line and not isinstance(line[key], dict):
            raise RecordError(number, f"{key!r} must be a JSON object")
    return kind


def _check_chain(line: dict, number: int, prev_hash: str | None) -> None:
    if line["seq"] != number - 1:
        raise RecordError(number, f"sequence number {line['seq']!r}, expected {number - 1} (lines reordered?)")
    if line["prev"] != prev_hash:
        raise RecordError(number, "does not follow the line before it (edited, reordered or removed lines)")
    body = {k: v for k, v in line.items() if k != "hash"}
    if line["hash"] != _sha256(_canonical(body)):
        raise RecordError(number, "its content does not match its hash (the line was edited)")


class _Replay:
    """Takes a record's lines one by one, checking each and applying it to the game."""

    def __init__(self) -> None:
        self.record: Record | None = None
        self.time = ""  # the latest time so far
        self.pending = 0  # resolutions the engine produced that the record has not shown yet

    def take(self, number: int, raw: bytes) -> None:
        text, line = _parse(number, raw)
        kind = _check_keys(number, line)
        record = self.record
        _check_chain(line, number, record.last_hash if record else None)
        if line["time"] < self.time:
            raise RecordError(number, f"its time {line['time']} is earlier than the line before it ({self.time})")
        self.time = line["time"]
        if number == 1:
            record = self.record = _start(line)
        elif kind == "setup":
            raise RecordError(number, "a second setup line: records cannot be joined")
        elif kind in ("action", "observation"):
            self._event(number, kind, line["event"])
        elif kind == "resolution":
            self._resolution(number, line["result"])
        elif self.pending:
            raise RecordError(number, "a note between a challenge's last event and its resolution")
        elif record.game.phase == OVER:
            raise RecordError(number, "a note after the game is over: nothing follows the final resolution")
        record.lines.append(line)
        record.digests.append(_sha256(text))

    def _event(self, number: int, kind: str, data: object) -> None:
        game = self.record.game
        if self.pending:
            raise RecordError(number, "an event before the resolution of the previous challenge")
        before = len(game.results)
        try:
            event = E.from_dict(data)
            if event_kind(event) != kind:
                raise RecordError(number, f"a {E.type_name(event)} event is not an {kind}")
            game.apply(event)
        except IllegalAction as error:
            raise RecordError(number, f"illegal {kind}: {error}") from None
        if isinstance(event, E.Undo):
            self.record.undone.append(number)
        self.pending = len(game.results) - before

    def _resolution(self, number: int, recorded: dict) -> None:
        if not self.pending:
            raise RecordError(number, "a resolution where no challenge was resolved")
        expected = self.record.game.results[-self.pending].to_dict()
        # Compared as JSON text: 1 and true, or 6 and 6.0, are different evidence.
        wrong = [key for key in sorted(set(recorded) | set(expected))
                 if key not in recorded or key not in expected
                 or _canonical(recorded[key]) != _canonical(expected[key])]
        if wrong:
            first = wrong[0]
            shown = {key: _canonical(source[first])[:60] if first in source else "nothing"
                     for key, source in (("recorded", recorded), ("rules", expected))}
            raise RecordError(number, f"the recorded resolution differs from the rules' result in "
                                      f"{', '.join(map(repr, wrong))} ({first!r}: {shown['recorded']} recorded, "
                                      f"{shown['rules']} by the rules)")
        self.pending -= 1


def _start(line: dict) -> Record:
    if line["kind"] != "setup":
        raise RecordError(1, "the first line must be the setup")
    if line["format"] != FORMAT:
        raise RecordError(1, f"not a coyote-pi game record (format {line['format']!r})")
    if line["version"] != VERSION or isinstance(line["version"], bool):
        raise RecordError(1, f"record version {line['version']!r}; this coyote-pi reads version {VERSION}")
    try:
        config = GameConfig.from_dict(line["config"])
    except IllegalAction as error:
        raise RecordError(1, f"bad setup: {error}") from None
    return Record(Game(config))


# ------------------------------------------------------------------ writing


@dataclass(frozen=True)
class ChainEnd:
    """Where a record stops: the next line's ``seq``, and the last line's hash and time."""

    seq: int = 0
    prev: str | None = None
    time: str = ""

    def seal(self, bodies: Iterable[dict], clock: Callable[[], str]) -> tuple[list[str], ChainEnd]:
        """The stored text of each body (canonical JSON, without the newline) and the new end.

        A line's time is the clock's, or the line before's if the clock reads earlier (a Pi
        without a clock battery may boot with a time in the past): times never go back.
        """
        texts, end = [], self
        for body in bodies:
            now = clock()
            if not is_record_time(now):
                raise ValueError(f"the clock gave {now!r}, not a UTC time like 2026-11-21T19:02:11.407Z")
            time = max(now, end.time)
            # Through JSON and back: tuples become lists and number keys strings, as a reader sees them.
            line = dict(json.loads(_canonical(body)), seq=end.seq, time=time, prev=end.prev)
            line["hash"] = _sha256(_canonical(line))
            text = _canonical(line)
            texts.append(text)
            end = ChainEnd(end.seq + 1, _sha256(text), time)
        return texts, end


def _setup_body(config: GameConfig, meta: dict | None) -> dict:
    return {"kind": "setup", "format": FORMAT, "version": VERSION, "config": config.to_dict(), "meta": meta or {}}


def _event_bodies(event: E.Event, results: Iterable[RoundResult]) -> list[dict]:
    """One event and the resolutions it caused: what a single durable write holds."""
    return ([{"kind": event_kind(event), "event": E.to_dict(event)}]
            + [{"kind": "resolution", "result": result.to_dict()} for result in results])


def encode_record(config: GameConfig, events: Iterable[E.Event], meta: dict | None = None,
                  clock: Callable[[], str] = utc_now) -> bytes:
    """The record :class:`RecordedGame` writes for ``events``, built in memory (no disk
    writes): for examples and benchmarks. Raises IllegalAction at an illegal event."""
    game = Game(config)
    texts, end = ChainEnd().seal([_setup_body(config, meta)], clock)
    for event in events:
        before = len(game.results)
        game.apply(event)
        more, end = end.seal(_event_bodies(event, game.results[before:]), clock)
        texts += more
    return "".join(text + "\n" for text in texts).encode("utf-8")


class RecordGone(OSError):
    """The record file was deleted or replaced while its game was being written."""


class RecordWriter:
    """Appends lines to a record file, each written and ``fsync``\\ ed before returning.

    The file stays open for the writer's life (:meth:`close` it): a record that is
    deleted or replaced meanwhile is noticed (:class:`RecordGone`) instead of being
    written afresh under its name. The writer knows where the last complete line ends:
    a write that fails (a full disk, an I/O error) raises its OSError and leaves the
    file as it was, cutting off whatever part of the line reached it; if even that
    fails, it is cut off before the next write. So a line is on disk whole or not at all.
    """

    def __init__(self, path: str | os.PathLike, end: ChainEnd, clock: Callable[[], str] = utc_now, *,
                 create: bool = False):
        self.path = Path(path)
        self.clock = clock
        self._end = end
        flags = os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC | (os.O_CREAT | os.O_EXCL if create else 0)
        self._fd = os.open(self.path, flags, 0o640)
        self._closer = weakref.finalize(self, os.close, self._fd)  # a writer nobody closed closes when collected
        status = os.fstat(self._fd)
        self._identity = (status.st_dev, status.st_ino)
        self._size = status.st_size  # where the last complete line ends
        self._cut_pending = False  # a failed write may have left part of a line after _size

    @property
    def last_hash(self) -> str | None:
        return self._end.prev

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the record as written so far (see :func:`fingerprint`)."""
        return fingerprint(self._end.prev)

    @classmethod
    def create(cls, path, config: GameConfig, meta: dict | None = None, clock: Callable[[], str] = utc_now):
        """Start a new record with its setup line; refuses to overwrite a file.

        If the setup line cannot be written the file is removed again: it holds no game.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            writer = cls(path, ChainEnd(), clock, create=True)
        except FileExistsError:
            raise FileExistsError(f"{path} already exists: a record is never overwritten") from None
        try:
            writer._append([_setup_body(config, meta)])
        except BaseException:
            writer.close()
            path.unlink(missing_ok=True)
            raise
        _fsync_dir(path.parent)
        return writer

    def append_event(self, event: E.Event, results: Iterable[RoundResult] = ()) -> None:
        """One event and the resolutions it caused, in a single durable write."""
        self._append(_event_bodies(event, results))

    def append_note(self, note: dict) -> None:
        self._append([{"kind": "note", "note": note}])

    def close(self) -> None:
        self._closer()  # closes the file once; nothing more can be written

    def _append(self, bodies: list[dict]) -> None:
        texts, end = self._end.seal(bodies, self.clock)
        data = "".join(text + "\n" for text in texts).encode("utf-8")
        if not self._closer.alive:  # its descriptor number may belong to another file by now
            raise ValueError(f"{self.path} is closed")
        self._check_still_there()
        if self._cut_pending:
            self._cut()
        try:
            _write_all(self._fd, data)
        except OSError:
            self._cut_pending = True
            try:
                self._cut()
            except OSError:
                pass  # cut before the next write
            raise
        self._size += len(data)
        self._end = end

    def _cut(self) -> None:
        """Truncate the file back to its last complete line (a failed write's part goes)."""
        os.ftruncate(self._fd, self._size)
        os.fsync(self._fd)
        self._cut_pending = False

    def _check_still_there(self) -> None:
        """Raise :class:`RecordGone` unless the path still names the open file."""
        if os.fstat(self._fd).st_nlink == 0:
            raise RecordGone(errno.ENOENT, "the record was deleted while the game was running", str(self.path))
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            status = None
        if status is None or (status.st_dev, status.st_ino) != self._identity:
            raise RecordGone(errno.ENOENT, "the record was replaced while the game was running", str(self.path))


def _write_all(fd: int, data: bytes) -> None:
    """Write ``data`` and fsync it; a write may take only part of it (a disk filling up)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


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


@dataclass(frozen=True)
class Repair:
    """What :meth:`RecordedGame.resume` set aside: the end of the file that did not replay."""

    side_file: Path  #: where those bytes are kept (``FILE.torn`` or ``FILE.damaged``)
    line: int  #: the first line set aside (1-based)
    size: int  #: how many bytes
    #: Why that line does not replay; None for an unfinished last line (a write cut short).
    reason: str | None

    @property
    def damaged(self) -> bool:
        """More than a write cut short: lines that had been complete were set aside."""
        return self.reason is not None

    def note(self) -> dict:
        """The note line that tells the record's readers what was set aside."""
        return {"record": "damaged_end_set_aside", "line": self.line, "bytes": self.size,
                "file": self.side_file.name, "reason": self.reason}


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

    def __init__(self, game: Game, writer: RecordWriter, record: Record | None = None,
                 repair: Repair | None = None) -> None:
        self.game = game
        self.writer = writer
        self.record = record
        #: What resuming set aside (None: the file was whole).
        self.repair = repair

    @property
    def path(self) -> Path:
        return self.writer.path

    @classmethod
    def start(cls, path, config: GameConfig, meta: dict | None = None, clock=utc_now) -> RecordedGame:
        return cls(Game(config), RecordWriter.create(path, config, meta, clock))

    @classmethod
    def resume(cls, path, clock=utc_now) -> RecordedGame:
        """Continue the game in ``path`` from its last line that replays.

        Whatever follows that line is moved to a side file, never deleted: an unfinished
        last line (a write cut short by a crash: it never counted) to ``FILE.torn``, a
        damaged end (an empty line, NUL bytes, garbage, a broken chain) to
        ``FILE.damaged``, and the latter is told in a note line (unless the game is over:
        nothing follows its final resolution). A resolution that did not reach the disk
        is recomputed and written. :class:`RecordError` when not even the setup line
        replays; OSError when the file cannot be repaired.
        """
        path = Path(path)
        salvage = salvage_record(path)
        record = salvage.record
        repair = _set_aside(path, salvage) if salvage.tail else None
        writer = RecordWriter(path, ChainEnd(len(record.lines), record.last_hash, record.lines[-1]["time"]), clock)
        try:
            shown = sum(1 for line in record.lines if line.get("kind") == "resolution")
            missing = record.game.results[shown:]
            if missing:
                writer._append([{"kind": "resolution", "result": r.to_dict()} for r in missing])
            if repair is not None and repair.damaged and record.game.phase != OVER:
                writer.append_note(repair.note())
        except BaseException:
            writer.close()
            raise
        return cls(record.game, writer, record, repair)

    def apply(self, event: E.Event) -> None:
        """Apply ``event`` (IllegalAction: nothing happens) and make it durable.

        If the disk write fails, the game is put back as it was before ``event`` and the
        OSError is raised: an action that is not recorded does not count.
        """
        before = len(self.game.results)
        self.game.apply(event)
        try:
            self.writer.append_event(event, self.game.results[before:])
        except BaseException:
            # Rebuilt from the history without the event: linear, and only when a write fails.
            self.game = Game.from_events(self.game.config, self.game.history[:-1])
            raise

    def note(self, **note: object) -> None:
        """Record something the table saw that is not a game event (e.g. an unreadable card).

        Nothing follows the final resolution, so a finished game takes no note (IllegalAction).
        A note that cannot be written raises the OSError, as :meth:`apply` does.
        """
        if self.game.phase == OVER:
            raise IllegalAction(f"the game is over: seat {self.game.winner} has won", code="game_over")
        self.writer.append_note(note)

    def close(self) -> None:
        """Close the record file (the game stays readable, nothing more is written)."""
        self.writer.close()


def _set_aside(path: Path, salvage: Salvage) -> Repair:
    """Move the tail of ``salvage`` from ``path`` into a new side file, then cut it off."""
    damage = salvage.damage
    side = _free_name(path, ".torn" if damage is None else ".damaged")
    fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o640)
    try:
        _write_all(fd, salvage.tail)
    finally:
        os.close(fd)
    kept = path.stat().st_size - len(salvage.tail)
    with open(path, "r+b") as handle:
        handle.truncate(kept)
        handle.flush()
        os.fsync(handle.fileno())
    _fsync_dir(path.parent)
    line = len(salvage.record.lines) + 1
    return Repair(side, line, len(salvage.tail), None if damage is None else damage.reason)


def _free_name(path: Path, suffix: str) -> Path:
    """``path`` + ``suffix``, or with ``-2``, ``-3``, ... after it: a side file is never overwritten."""
    candidate, number = path.with_name(path.name + suffix), 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}{suffix}-{number}")
    return candidate
