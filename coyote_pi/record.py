"""The game record: the arbiter's evidence, one JSON object per line.

Every line is a JSON object with these keys (see docs/game-record.md)::

    seq    0, 1, 2, ... the line's position (line number - 1)
    time   when it was written, UTC to the millisecond (2026-11-21T19:02:11.407Z),
           never earlier than the line before (the recorder's clock; the engine has none)
    kind   "setup" | "action" | "observation" | "opening" | "resolution" | "note"
    prev   SHA-256 (hex) of the previous line's stored bytes, null on the first line
    hash   SHA-256 (hex) of this line's canonical JSON without "hash"

plus the body of its kind: ``format``, ``version``, ``config`` and ``meta`` (setup),
``event`` (action; observation, with the ``photo`` that settled a reveal or a draw),
``openings`` (opening), ``result`` (resolution) or ``note`` (free-form, e.g. what the
camera could not read). Each line is stored as its canonical JSON and ends with a
newline; a reader accepts nothing else.

Hidden cards stay hidden: a deal and a Trickster guess are *sealed* in the file, their
values replaced by a commitment (:func:`commitment`, a salted SHA-256), while their round
is open. The values and salts wait in a service-only file (:class:`Vault`, written
before the sealed line) and are written in the round's ``opening`` line, just before the
resolution that closes it. So the file can be shown at any moment, and still proves what
the camera saw: :func:`read_record` replays a sealed round once it is opened, and checks
that every commitment opens to what was committed.

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

This module is longer than the project's 600-line guide on purpose: it is the format,
and its writer and its reader are the two halves of it, line for line (what
:func:`encode_record` seals, the replay opens; what the writer chains and fsyncs, the
reader and the salvage check), so a change to the format is one change in one file.
"""
from __future__ import annotations

import codecs
import errno
import hashlib
import json
import os
import re
import secrets
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from coyote_pi import json_text
from coyote_pi.engine import events
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.engine.game import OVER, Game, GameConfig, RoundResult
from coyote_pi.json_text import JSONTextError

FORMAT = "coyote-pi/game-record"
VERSION = 2
_OBSERVATIONS = (events.Deal, events.Reveal, events.DrawReplacement)
#: The keys every line has, and those of its body, by kind: no line has any other key.
_CHAIN_KEYS = frozenset({"seq", "time", "kind", "prev", "hash"})
_BODY_KEYS = {
    "setup": frozenset({"format", "version", "config", "meta"}),
    "action": frozenset({"event"}),
    "observation": frozenset({"event", "photo"}),
    "opening": frozenset({"openings"}),
    "resolution": frozenset({"result"}),
    "note": frozenset({"note"}),
}
#: The events sealed while their round is open, and the keys that stay public in the
#: sealed form (beside ``commitment``): that a round was dealt, and that a seat guessed.
SEALED: dict[str, frozenset[str]] = {"deal": frozenset({"type"}), "guess": frozenset({"type", "seat"})}
_OPENING_KEYS = frozenset({"seq", "salt", "event"})
_PHOTO_KEYS = frozenset({"file", "sha256"})
#: A photo is named by a plain file name in the game's photo folder: no folders, no dot first.
_PHOTO_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_SALT = re.compile(r"[0-9a-f]{32}")
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
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def is_record_time(value: object) -> bool:
    """True for a time as the record writes it: ``2026-11-21T19:02:11.407Z`` (a real date)."""
    if not isinstance(value, str) or not _TIME.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value[:-1])  # the shape is right: is it a real date and time?
    except ValueError:
        return False
    return True


def event_kind(event: events.Event) -> str:
    return "observation" if isinstance(event, _OBSERVATIONS) else "action"


# ------------------------------------------------------------------ sealing hidden values


def new_salt() -> str:
    """128 random bits from the operating system, as 32 lowercase hex digits."""
    return secrets.token_hex(16)


def commitment(event: dict, salt: str) -> str:
    """The commitment to ``event`` (as :func:`coyote_pi.engine.events.to_dict` writes it):
    the SHA-256, in lowercase hex, of the canonical JSON of ``{"event": event, "salt": salt}``.

    The salt makes it hiding (without it, the few possible deals or guesses could simply
    be tried); SHA-256 makes it binding (no other event opens the same commitment).

    >>> commitment({"seat": 3, "type": "guess", "winner": 1}, "00" * 16)[:16]
    '52fced266ba429ea'
    """
    return _sha256(_canonical({"event": event, "salt": salt}))


def is_sealed(event: object) -> bool:
    """The event of a line is in its sealed form (its values wait for the round's opening)."""
    return isinstance(event, dict) and "commitment" in event


class Vault:
    """The service-only files of the record ``game-0001.jsonl``: ``private/game-0001.NAME.json``
    beside it (the folder mode 0700, each file 0600), each replaced whole and fsynced.

    ``round`` holds the open round's openings (what :class:`Seals` committed to, with the
    salts), for resuming that round after a power cut; ``setup`` what the device keeps
    to itself about the game (the simulated table's seed).
    """

    ROUND, SETUP = "round", "setup"

    def __init__(self, record: str | os.PathLike) -> None:
        record = Path(record)
        self.folder = record.parent / "private"
        self.stem = record.stem

    def path(self, name: str) -> Path:
        return self.folder / f"{self.stem}.{name}.json"

    def write(self, name: str, data: dict) -> None:
        if not self.folder.is_dir():
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            _fsync_dir(self.folder.parent)
        path = self.path(name)
        temporary = path.with_name(path.name + ".new")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)  # in case an older file had another mode
            os.write(fd, (_canonical(data) + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
        _fsync_dir(self.folder)

    def read(self, name: str) -> dict | None:
        try:
            return json_text.loads(self.path(name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None

    def delete(self, name: str) -> None:
        try:
            self.path(name).unlink()
        except FileNotFoundError:
            return
        _fsync_dir(self.folder)


class Seals:
    """The open round's commitments: for each sealed line, its ``seq``, salt and event.

    :meth:`seal` puts an event in its sealed form, after writing what opens it to the
    ``vault`` (None: kept in memory only, as :func:`encode_record` does); :meth:`opening`
    is the line that opens them all; :meth:`close` forgets them once that line is written.
    ``salt`` gives each commitment its salt (:func:`new_salt`; tests pass fixed ones).
    """

    def __init__(self, vault: Vault | None, salt: Callable[[], str] = new_salt, openings: Iterable[dict] = ()):
        self.vault = vault
        self.salt = salt
        self.openings = list(openings)

    def seal(self, seq: int, event: dict) -> dict:
        """``event`` (for the line ``seq``) as the record shows it while the round is open."""
        salt = self.salt()
        if not _SALT.fullmatch(salt):
            raise ValueError(f"a salt is 32 lowercase hex digits, not {salt!r}")
        self.forget_from(seq)
        self.openings.append({"seq": seq, "salt": salt, "event": event})
        if self.vault is not None:
            self.vault.write(Vault.ROUND, {"openings": self.openings})
        return {**{key: event[key] for key in SEALED[event["type"]]}, "commitment": commitment(event, salt)}

    def forget_from(self, seq: int) -> None:
        """Forget the openings of line ``seq`` on: a line that was never written (a failed
        write) leaves its seq to the next one, and must not be opened."""
        self.openings = [o for o in self.openings if o["seq"] < seq]

    def opening(self) -> dict | None:
        """The opening line's body, or None when nothing is sealed (a corrected verdict)."""
        return {"kind": "opening", "openings": self.openings} if self.openings else None

    def close(self) -> None:
        self.openings = []
        if self.vault is not None:
            self.vault.delete(Vault.ROUND)


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


@dataclass(frozen=True)
class OpenRound:
    """A round still open at the end of a record: from ``first_line`` (its deal) on, ``lines``
    lines, of which ``sealed_lines`` (line numbers) are sealed. Their values are not in the
    file yet, so the rules check these lines once the round is opened."""

    first_line: int
    lines: int
    sealed_lines: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"first_line": self.first_line, "lines": self.lines, "sealed_lines": list(self.sealed_lines)}


@dataclass
class Record:
    """A validated record: the game it replays to and its lines."""

    game: Game
    lines: list[dict] = field(default_factory=list)
    #: The SHA-256 of each stored line (what the next line's ``prev`` holds).
    digests: list[str] = field(default_factory=list)
    #: Events that were undone, with the line that took them back.
    undone: list[int] = field(default_factory=list)
    #: The round still open at the end of the record, if its lines could not be opened:
    #: the game above stops before it.
    open_round: OpenRound | None = None
    #: The openings of the round still open, when the private file opened it (resume).
    private_openings: list[dict] = field(default_factory=list)

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


def read_record(path: str | os.PathLike, *, allow_torn_tail: bool = False, private: bool = False) -> Record:
    """Validate a record by replaying it; raise :class:`RecordError` on the first fault.

    Every line must be exactly what :class:`RecordWriter` writes for it: its canonical
    JSON (byte for byte), the keys of its kind and no other, each value of its type,
    chained to the line before, its time not earlier than the line before's, and legal
    under the rules. A line counts only with its newline: a last line without one was
    never finished (a write cut short), whether or not its JSON is complete.

    A round's sealed lines (see :class:`Seals`) are held until its opening line: then
    every commitment must open to what was committed, and the round is replayed from the
    opened values. A round still open at the end stays out of the game
    (:attr:`Record.open_round`), unless ``private``: then the record's private round file
    (:class:`Vault`, readable by the service only) opens it, as when the table resumes.

    ``allow_torn_tail`` accepts such an unfinished last line (it is left out: it was
    never acknowledged, so it never counted) and a missing resolution line after the
    last event (the resolution is recomputed); ``replay`` does not.
    """
    data = _read_bytes(Path(path))
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # else told as a cut last line
        raise RecordError(1, "not UTF-8 text: the file begins with the byte order mark of UTF-16 (or UTF-32), "
                             "so an editor saved it in another encoding")
    raw_lines, tail = _split_lines(data)
    if tail and not allow_torn_tail:
        raise RecordError(len(raw_lines) + 1, _unfinished(tail))
    if not raw_lines:
        raise RecordError(1, "the setup line is incomplete (the record was cut short)")
    replay = _Replay()
    for number, raw in enumerate(raw_lines, start=1):
        replay.take(number, raw)
    if replay.held is not None:
        replay.end_open_round(_private_openings(path) if private else None)
    if replay.pending and not allow_torn_tail:
        raise RecordError(len(raw_lines), "the record ends before the resolution of its last challenge")
    return replay.record


class RecordFollower:
    """A record that grows while it is read (the web page follows the game being written):
    each :meth:`update` checks and applies only the complete lines added since the last,
    so following a game costs one line per line, not the whole file again.

    It checks exactly what :func:`read_record` with ``allow_torn_tail`` checks, and its
    :class:`Record` is the same: the round still open at the end is left out of the game
    (:attr:`Record.open_round`). A file that shrank or was replaced is read afresh.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._start()

    def _start(self) -> None:
        self._replay, self._offset, self._count, self._inode = _Replay(), 0, 0, None

    def update(self) -> Record:
        """The record as it is now; :class:`RecordError` when a line does not replay."""
        with open(self.path, "rb") as file:
            stat = os.fstat(file.fileno())
            if stat.st_ino != self._inode or stat.st_size < self._offset:
                self._start()
                self._inode = stat.st_ino
            file.seek(self._offset)
            raw_lines, _ = _split_lines(file.read())
        try:
            for raw in raw_lines:
                self._count += 1
                self._replay.take(self._count, raw)
                self._offset += len(raw) + 1
        except RecordError:
            self._start()  # a half-taken line leaves the replay unusable: read afresh next time
            raise
        record = self._replay.record
        if record is None:
            raise RecordError(1, "the setup line is incomplete (the record was cut short)")
        held = self._replay.held
        record.open_round = None if held is None else OpenRound(
            held[0][0], len(held), tuple(number for number, _ in _sealed_lines(held)))
        return record


@dataclass(frozen=True)
class Salvage:
    """The longest beginning of a record that replays (see :func:`salvage_record`)."""

    record: Record
    #: The bytes after the last line that replays: an unfinished last line, or a damaged end.
    tail: bytes
    #: Why the first line of ``tail`` does not replay; None when ``tail`` is only an
    #: unfinished last line (a write cut short, which never counted) or empty.
    damage: RecordError | None


def salvage_record(path: str | os.PathLike, *, private: bool = False) -> Salvage:
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
    if replay.held is not None:
        replay.end_open_round(_private_openings(Path(path)) if private else None)
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


def _private_openings(path: Path) -> list[dict]:
    vault = Vault(path)
    try:
        saved = vault.read(Vault.ROUND)
        openings = None if saved is None else _openings(None, saved["openings"])
    except (ValueError, KeyError, TypeError, RecordError):
        raise RecordError(None, f"{vault.path(Vault.ROUND)}, which opens the record's last round, is damaged: "
                                "that round cannot be resumed") from None
    if openings is None:
        raise RecordError(None, f"the record's last round is sealed and {vault.path(Vault.ROUND)}, which "
                                "opens it, is missing: that round cannot be resumed")
    return openings


def check_photos(record: Record, folder: str | os.PathLike) -> tuple[int, list[str]]:
    """Check the photos the record names against the files in ``folder``: how many were
    checked, and what is wrong (a missing file, or one whose SHA-256 is not the recorded
    one), each with its line number. Photos of a round still open are not public yet."""
    folder = Path(folder)
    open_from = record.open_round.first_line if record.open_round else len(record.lines) + 1
    checked, problems = 0, []
    for number, line in enumerate(record.lines[: open_from - 1], start=1):
        photo = line.get("photo")
        if photo is None:
            continue
        checked += 1
        try:
            digest = hashlib.sha256((folder / photo["file"]).read_bytes()).hexdigest()
        except FileNotFoundError:
            problems.append(f"line {number}: the photo {photo['file']} is missing from {folder}")
            continue
        except OSError as error:
            problems.append(f"line {number}: cannot read the photo {photo['file']}: {error.strerror or error}")
            continue
        if digest != photo["sha256"]:
            problems.append(f"line {number}: {photo['file']} is not the photo recorded (its SHA-256 is "
                            f"{digest[:16]}..., the record says {photo['sha256'][:16]}...): it was changed or replaced")
    return checked, problems


def _unfinished(tail: bytes) -> str:
    try:
        complete = isinstance(json_text.loads(tail.decode("utf-8"), repeated_keys_checked=False), dict)
    except ValueError:  # not UTF-8, or not JSON
        complete = False
    if complete:
        return ("the last line has no newline at its end; a line counts only once its newline is "
                "written, so this one was never finished (a write cut short) and does not count")
    return "the last line is incomplete (the record was cut short)"


def _parse(number: int, raw: bytes) -> tuple[str, dict]:
    """The line's text and object, if the text is the object's canonical JSON."""
    if not raw:
        raise RecordError(number, "an empty line")
    try:
        text = raw.decode("utf-8")
        line = json_text.loads(text, repeated_keys_checked=False)
    except UnicodeDecodeError:
        raise RecordError(number, "not UTF-8 text") from None
    except JSONTextError as error:
        raise RecordError(number, str(error)) from None
    if not isinstance(line, dict):
        raise RecordError(number, "a line must be a JSON object")
    try:
        canonical = _canonical(line)
    except ValueError:
        raise RecordError(number, "a number too large for JSON") from None
    if text != canonical:
        try:  # checked only now: the check is slow, and a repeated key is never canonical
            json_text.loads(text)
        except JSONTextError as error:
            raise RecordError(number, str(error)) from None
        at = _first_difference(text, canonical)
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
    """Takes a record's lines one by one, checking each and applying it to the game.

    From a round's first sealed line (its deal) to its opening line, lines are checked
    for their form and held; the opening line opens the sealed ones, and the held lines
    are then applied in order (errors name their own line numbers).
    """

    def __init__(self) -> None:
        self.record: Record | None = None
        self.time = ""  # the latest time so far
        self.pending = 0  # resolutions the engine produced that the record has not shown yet
        self.completed_at = 0  # the line of the event that produced them
        #: The lines of the sealed round so far, as (line number, kind, line, its event parsed
        #: if it is not sealed); None: no round is sealed.
        self.held: list[tuple[int, str, dict, events.Event | None]] | None = None

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
        elif kind == "opening":
            self._open(number, line["openings"])
        elif self.held is not None or (kind in ("action", "observation") and is_sealed(line["event"])):
            self._hold(number, kind, line)
        else:
            self._apply(number, kind, line)
        record.lines.append(line)
        record.digests.append(_sha256(text))

    def _apply(self, number: int, kind: str, line: dict, event: events.Event | None = None) -> None:
        record = self.record
        if kind in ("action", "observation"):
            self._event(number, event if event is not None else _event_of(number, kind, line))
        elif kind == "resolution":
            self._resolution(number, line["result"])
        elif self.pending:
            raise RecordError(number, "a note between a challenge's last event and its resolution")
        elif record.game.phase == OVER:
            raise RecordError(number, "a note after the game is over: nothing follows the final resolution")

    def _hold(self, number: int, kind: str, line: dict) -> None:
        if kind == "resolution":
            raise RecordError(number, "a resolution before the opening line of its round")
        if self.pending:  # what the engine resolved must be shown before anything else
            raise self._before_resolution(number)
        if self.held is None and self.record.game.phase == OVER:
            raise RecordError(number, f"a sealed {kind} after the game is over: nothing follows the final resolution")
        # Its form now (a sealed event's, until it is opened); the rules once the round is opened.
        event = _event_of(number, kind, line) if kind != "note" else None
        if isinstance(event, events.Correct):  # held lines are applied only at the opening: say it now
            raise RecordError(number, f"illegal action: a correction after the next round's deal (line "
                                      f"{self.held[0][0]}): a verdict is corrected only before the next deal")
        if self.held is None:
            self.held = []
        self.held.append((number, kind, line, event))

    def _open(self, number: int, openings: object) -> None:
        if self.held is None:
            raise RecordError(number, "an opening line, but no round is sealed")
        self._replay_held(number, _openings(number, openings))
        if not self.pending:
            raise RecordError(number, "an opening line while its round is still open: it comes right before the "
                                      "resolution that closes the round")

    def end_open_round(self, openings: list[dict] | None) -> None:
        """The record ends in a sealed round: open it with the private ``openings``, or,
        without them, leave it out of the game as :attr:`Record.open_round`."""
        sealed = _sealed_lines(self.held)
        if openings is None:
            self.record.open_round = OpenRound(self.held[0][0], len(self.held), tuple(number for number, _ in sealed))
            self.held = None
            return
        # The private file may hold the opening of a line whose write never finished.
        written = {line["seq"] for _, line in sealed}
        openings = [opening for opening in openings if opening["seq"] in written]
        self.record.private_openings = openings
        self._replay_held(None, openings)

    def _replay_held(self, number: int | None, openings: list[dict]) -> None:
        held, self.held = self.held, None
        sealed = _sealed_lines(held)
        seqs = [line["seq"] for _, line in sealed]
        if [opening["seq"] for opening in openings] != seqs:
            raise RecordError(number, f"the round's sealed lines are {', '.join(str(s + 1) for s in seqs)}, "
                                      f"but the opening opens {', '.join(str(o['seq'] + 1) for o in openings) or 'none'}")
        opened = {}
        for opening, (sealed_number, line) in zip(openings, sealed):
            event = line["event"]
            if commitment(opening["event"], opening["salt"]) != event["commitment"]:
                raise RecordError(number, f"the opening of line {sealed_number} does not match its commitment "
                                          "(the sealed value or its opening was changed)")
            public = {key: value for key, value in event.items() if key != "commitment"}
            if not isinstance(opening["event"], dict) or any(opening["event"].get(k) != v for k, v in public.items()):
                raise RecordError(number, f"the opening of line {sealed_number} is not the {event['type']} "
                                          "event sealed there")
            opened[sealed_number] = opening["event"]
        for held_number, kind, line, event in held:
            if held_number in opened:
                event = _event_of(held_number, kind, line, opened[held_number])
            self._apply(held_number, kind, line, event)

    def _event(self, number: int, event: events.Event) -> None:
        game = self.record.game
        if self.pending:
            raise self._before_resolution(number)
        before = len(game.results)
        try:
            game.apply(event)
        except IllegalAction as error:
            raise RecordError(number, f"illegal {event_kind(event)}: {error}") from None
        if isinstance(event, events.Undo):
            self.record.undone.append(number)
        self.pending = len(game.results) - before
        self.completed_at = number

    def _before_resolution(self, number: int) -> RecordError:
        return RecordError(number, f"an event before the resolution of the previous challenge, which line "
                                   f"{self.completed_at} completed (nothing was left to reveal or draw after it): "
                                   "its resolution comes next")

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
            texts = {who: _canonical(source[first]) if first in source else None
                     for who, source in (("recorded", recorded), ("rules", expected))}
            at = _first_difference(*(text or "" for text in texts.values()))
            shown = {who: "nothing" if text is None else _excerpt(text, at) for who, text in texts.items()}
            raise RecordError(number, f"the recorded resolution differs from the rules' result in "
                                      f"{', '.join(map(repr, wrong))} ({first!r}: {shown['recorded']} recorded, "
                                      f"{shown['rules']} by the rules)")
        self.pending -= 1


def _first_difference(a: str, b: str) -> int:
    """Where two texts first differ (the shorter one's length if the longer begins with it)."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _excerpt(text: str, at: int, width: int = 60) -> str:
    """Up to ``width`` characters of ``text`` from a little before ``at``, where it
    differs from another: two long values that differ late are not shown cut alike."""
    start = max(0, at - 20)
    return ("..." if start else "") + text[start:start + width] + ("..." if len(text) > start + width else "")


def _sealed_lines(held: list[tuple[int, str, dict, events.Event | None]]) -> list[tuple[int, dict]]:
    return [(number, line) for number, kind, line, _ in held if kind != "note" and is_sealed(line["event"])]


def _event_of(number: int, kind: str, line: dict, opened: dict | None = None) -> events.Event | None:
    """The event of an action or observation line (``opened``: its sealed event's opened
    value), once its form is right; None for a sealed event not opened yet."""
    data = line["event"]
    photo = line.get("photo")
    if photo is not None and not (isinstance(photo, dict) and set(photo) == _PHOTO_KEYS
                                  and isinstance(photo["file"], str) and _PHOTO_FILE.fullmatch(photo["file"])
                                  and isinstance(photo["sha256"], str) and _HASH.fullmatch(photo["sha256"])):
        raise RecordError(number, "'photo' must be null or an object with a plain 'file' name and its 'sha256'")
    if is_sealed(data) and opened is None:
        _check_sealed_form(number, data)
        return None
    try:
        event = events.from_dict(opened if opened is not None else data)
    except IllegalAction as error:
        raise RecordError(number, f"illegal {kind}: {error}") from None
    name = events.type_name(event)
    if event_kind(event) != kind:
        raise RecordError(number, f"a {name} event is not an {kind}")
    if name in SEALED and opened is None:
        raise RecordError(number, f"a {name} event must be sealed while its round is open (its values hidden "
                                  "behind a commitment until the round's opening line)")
    if photo is not None and not isinstance(event, (events.Reveal, events.DrawReplacement)):
        raise RecordError(number, f"a {name} line has no photo: only a reveal or a draw keeps one")
    return event


def _check_sealed_form(number: int, data: dict) -> None:
    public = SEALED.get(data.get("type")) if isinstance(data.get("type"), str) else None
    if public is None:
        raise RecordError(number, f"only {' and '.join(SEALED)} events are sealed, not {data.get('type')!r}")
    if set(data) != public | {"commitment"}:
        raise RecordError(number, f"a sealed {data['type']} event has exactly the keys "
                                  f"{', '.join(sorted(public | {'commitment'}))}")
    if not (isinstance(data["commitment"], str) and _HASH.fullmatch(data["commitment"])):
        raise RecordError(number, "a commitment is a SHA-256 in lowercase hex")
    if "seat" in data and (isinstance(data["seat"], bool) or not isinstance(data["seat"], int)):
        raise RecordError(number, f"a seat must be a whole number, not {data['seat']!r}")


def _openings(number: int, openings: object) -> list[dict]:
    """The opening line's list, once every entry has the right form."""
    if not isinstance(openings, list) or not openings:
        raise RecordError(number, "'openings' must be a list of what the round's sealed lines committed to")
    for opening in openings:
        if not isinstance(opening, dict) or set(opening) != _OPENING_KEYS:
            raise RecordError(number, "each opening has exactly the keys event, salt and seq")
        if isinstance(opening["seq"], bool) or not isinstance(opening["seq"], int):
            raise RecordError(number, f"an opening's seq must be a whole number, not {opening['seq']!r}")
        if not (isinstance(opening["salt"], str) and _SALT.fullmatch(opening["salt"])):
            raise RecordError(number, f"a salt is 32 lowercase hex digits, not {opening['salt']!r}")
    return openings


def _start(line: dict) -> Record:
    if line["kind"] != "setup":
        raise RecordError(1, "the first line must be the setup")
    if line["format"] != FORMAT:
        raise RecordError(1, f"not a coyote-pi game record (format {line['format']!r})")
    if type(line["version"]) is not int or line["version"] != VERSION:  # neither 2.0 nor true for 2
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


def _event_bodies(event: events.Event, results: list[RoundResult], seals: Seals, seq: int,
                  photo: dict | None = None) -> list[dict]:
    """One event and the resolutions it caused: what a single durable write holds.

    A deal or a guess is sealed (what opens it is saved first); a resolution that closes
    a round comes right after the round's opening line. ``photo`` is the reveal's or the
    draw's photo (``{"file", "sha256"}``), for its observation line.
    """
    data = events.to_dict(event)
    if photo is not None and not isinstance(event, (events.Reveal, events.DrawReplacement)):
        raise ValueError(f"a {data['type']} keeps no photo: only a reveal or a draw does")
    if data["type"] in SEALED:
        data = seals.seal(seq, data)
    line = {"kind": event_kind(event), "event": data}
    if line["kind"] == "observation":
        line["photo"] = photo
    bodies = [line]
    if results and (opening := seals.opening()) is not None:
        bodies.append(opening)
    return bodies + [{"kind": "resolution", "result": result.to_dict()} for result in results]


def encode_record(config: GameConfig, played: Iterable[events.Event], meta: dict | None = None,
                  clock: Callable[[], str] = utc_now, salt: Callable[[], str] = new_salt) -> bytes:
    """The record :class:`RecordedGame` writes for the events ``played``, built in memory
    (no disk writes): for examples and benchmarks. Raises IllegalAction at an illegal event."""
    game, seals = Game(config), Seals(None, salt)
    texts, end = ChainEnd().seal([_setup_body(config, meta)], clock)
    for event in played:
        before = len(game.results)
        game.apply(event)
        results = game.results[before:]
        more, end = end.seal(_event_bodies(event, results, seals, end.seq), clock)
        texts += more
        if results:
            seals.close()
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

    ``seals`` keeps the open round's commitments (by default in the record's :class:`Vault`).
    """

    def __init__(self, path: str | os.PathLike, end: ChainEnd, clock: Callable[[], str] = utc_now,
                 seals: Seals | None = None, *, create: bool = False):
        self.path = Path(path)
        self.clock = clock
        self._end = end
        self.seals = seals if seals is not None else Seals(Vault(self.path))
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
    def create(cls, path, config: GameConfig, meta: dict | None = None, clock: Callable[[], str] = utc_now,
               salt: Callable[[], str] = new_salt):
        """Start a new record with its setup line; refuses to overwrite a file.

        If the setup line cannot be written the file is removed again: it holds no game.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            writer = cls(path, ChainEnd(), clock, Seals(Vault(path), salt), create=True)
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

    def append_event(self, event: events.Event, results: Iterable[RoundResult] = (), photo: dict | None = None) -> None:
        """One event and the resolutions it caused, in a single durable write (see
        :func:`_event_bodies`); once a round's resolution is on disk, its seals go."""
        results, seq = list(results), self._end.seq
        try:
            self._append(_event_bodies(event, results, self.seals, seq, photo))
        except BaseException:
            self.seals.forget_from(seq)  # the line did not count: what it sealed is not opened
            raise
        if results:
            self.seals.close()

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
    def start(cls, path, config: GameConfig, meta: dict | None = None, clock=utc_now, *,
              salt: Callable[[], str] = new_salt, private_meta: dict | None = None) -> RecordedGame:
        """A new record. ``meta`` goes into its setup line, for everyone to read;
        ``private_meta`` into its :class:`Vault` (:attr:`private_meta`), for the service only."""
        table = cls(Game(config), RecordWriter.create(path, config, meta, clock, salt))
        if private_meta:
            Vault(path).write(Vault.SETUP, private_meta)
        return table

    @classmethod
    def resume(cls, path, clock=utc_now, *, salt: Callable[[], str] = new_salt) -> RecordedGame:
        """Continue the game in ``path`` from its last line that replays.

        Whatever follows that line is moved to a side file, never deleted: an unfinished
        last line (a write cut short by a crash: it never counted) to ``FILE.torn``, a
        damaged end (an empty line, NUL bytes, garbage, a broken chain) to
        ``FILE.damaged``, and the latter is told in a note line (unless the game is over:
        nothing follows its final resolution). A resolution that did not reach the disk
        is recomputed and written (after the round's opening line, if that was lost too).
        The open round is opened with the record's private round file; once its round is
        closed, that file goes. :class:`RecordError` when not even the setup line
        replays; OSError when the file cannot be repaired.
        """
        path = Path(path)
        salvage = salvage_record(path, private=True)
        record = salvage.record
        repair = _set_aside(path, salvage) if salvage.tail else None
        seals = Seals(Vault(path), salt, record.private_openings)
        writer = RecordWriter(path, ChainEnd(len(record.lines), record.last_hash, record.lines[-1]["time"]), clock,
                              seals)
        try:
            shown = sum(1 for line in record.lines if line.get("kind") == "resolution")
            missing = record.game.results[shown:]
            if missing:
                opening = [seals.opening()] if seals.openings else []
                writer._append(opening + [{"kind": "resolution", "result": r.to_dict()} for r in missing])
            if missing or not seals.openings:
                seals.close()  # the round is closed: what opened it is on record now
            if repair is not None and repair.damaged and record.game.phase != OVER:
                writer.append_note(repair.note())
        except BaseException:
            writer.close()
            raise
        return cls(record.game, writer, record, repair)

    @property
    def private_meta(self) -> dict:
        """What :meth:`start` kept in the vault for the service (empty when nothing)."""
        return Vault(self.path).read(Vault.SETUP) or {}

    def apply(self, event: events.Event, photo: dict | None = None) -> None:
        """Apply ``event`` (IllegalAction: nothing happens) and make it durable, with the
        ``photo`` (``{"file", "sha256"}``) of the camera frame that settled a reveal or a draw.

        If the disk write fails, the game is put back as it was before ``event`` and the
        OSError is raised: an action that is not recorded does not count.
        """
        before = len(self.game.results)
        self.game.apply(event)
        try:
            self.writer.append_event(event, self.game.results[before:], photo)
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
