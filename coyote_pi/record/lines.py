"""The line format: what every line of a record holds, its canonical JSON and its chain.

Every line is a JSON object with these keys (see docs/game-record.md)::

    seq    0, 1, 2, ... the line's position (line number - 1)
    time   when it was written, UTC to the millisecond (2026-11-21T19:02:11.407Z),
           never earlier than the line before (the recorder's clock; the engine has none)
    kind   "setup" | "action" | "observation" | "opening" | "resolution" | "note"
    prev   SHA-256 (hex) of the previous line's stored bytes, null on the first line
    hash   SHA-256 (hex) of this line's canonical JSON without "hash"

plus the body of its kind (:data:`BODY_KEYS`). Each line is stored as its canonical JSON
(:func:`canonical`) and ends with a newline; a reader accepts nothing else. This module
holds both directions of that form: :class:`ChainEnd` seals bodies into stored lines,
:func:`parse_line`, :func:`check_keys` and :func:`check_chain` check a stored line.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import NotRequired, TypedDict, cast

from coyote_pi import json_text
from coyote_pi.engine import events
from coyote_pi.json_text import JSONTextError, spelled

FORMAT = "coyote-pi/game-record"


class LineKind(StrEnum):
    """A line's ``kind``."""

    SETUP = "setup"
    ACTION = "action"
    OBSERVATION = "observation"
    OPENING = "opening"
    RESOLUTION = "resolution"
    NOTE = "note"


class Photo(TypedDict):
    """The camera frame that settled a reveal or a draw: a file in the game's photo folder."""

    file: str
    sha256: str


class Opening(TypedDict):
    """What opens one sealed line: its ``seq``, the salt and the whole event."""

    seq: int
    salt: str
    event: events.EventData


class Line(TypedDict):
    """A line of a record, once its keys are checked (:func:`check_keys`): the chain keys,
    and the body keys of its ``kind`` (:data:`BODY_KEYS`), which only that kind has."""

    seq: int
    time: str
    kind: LineKind
    prev: str | None
    hash: str
    format: NotRequired[str]  #: setup
    version: NotRequired[int]  #: setup
    config: NotRequired[dict[str, object]]  #: setup
    meta: NotRequired[dict[str, object]]  #: setup
    event: NotRequired[events.EventData]  #: action, observation (sealed or not)
    photo: NotRequired[Photo | None]  #: observation
    openings: NotRequired[list[Opening]]  #: opening
    result: NotRequired[dict[str, object]]  #: resolution
    note: NotRequired[dict[str, object]]  #: note


#: A line before it is chained: its kind and body (what :meth:`ChainEnd.seal` takes).
Body = dict[str, object]

#: The keys every line has, and those of its body, by kind: no line has any other key.
CHAIN_KEYS = frozenset({"seq", "time", "kind", "prev", "hash"})
BODY_KEYS: dict[LineKind, frozenset[str]] = {
    LineKind.SETUP: frozenset({"format", "version", "config", "meta"}),
    LineKind.ACTION: frozenset({"event"}),
    LineKind.OBSERVATION: frozenset({"event", "photo"}),
    LineKind.OPENING: frozenset({"openings"}),
    LineKind.RESOLUTION: frozenset({"result"}),
    LineKind.NOTE: frozenset({"note"}),
}
#: The events a camera observes; the others are actions.
_OBSERVATIONS = (events.Deal, events.Reveal, events.DrawReplacement)
HASH = re.compile(r"[0-9a-f]{64}")
#: A photo is named by a plain file name in the game's photo folder: no folders, no dot first.
PHOTO_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_PHOTO_KEYS = frozenset({"file", "sha256"})
#: A line's time: UTC to the millisecond, exactly this shape (``2026-11-21T19:02:11.407Z``).
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")


class RecordError(Exception):
    """A record that cannot be trusted, with the line where it goes wrong (1-based)."""

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line is not None else reason)
        self.line = line
        self.reason = reason


def canonical(obj: object) -> str:
    """The one text of a JSON value the record stores: keys sorted, no spaces, UTF-8 as is."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def sha256_text(text: str) -> str:
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


def event_kind(event: events.Event) -> LineKind:
    return LineKind.OBSERVATION if isinstance(event, _OBSERVATIONS) else LineKind.ACTION


@dataclass(frozen=True)
class ChainEnd:
    """Where a record stops: the next line's ``seq``, and the last line's hash and time."""

    seq: int = 0
    prev: str | None = None
    time: str = ""

    def seal(self, bodies: Iterable[Body], clock: Callable[[], str]) -> tuple[list[str], ChainEnd]:
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
            line = dict(cast(dict[str, object], json.loads(canonical(body))), seq=end.seq, time=time, prev=end.prev)
            line["hash"] = sha256_text(canonical(line))
            text = canonical(line)
            texts.append(text)
            end = ChainEnd(end.seq + 1, sha256_text(text), time)
        return texts, end


# ------------------------------------------------------------------ checking a stored line


def split_lines(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines (without their newlines) and what follows the last newline."""
    raw_lines = data.split(b"\n")
    return raw_lines, raw_lines.pop()  # the tail is b"" when the last line ends with its newline


def unfinished(tail: bytes) -> str:
    """Why a last line without its newline does not count."""
    try:
        complete = isinstance(json_text.loads(tail.decode("utf-8"), repeated_keys_checked=False), dict)
    except ValueError:  # not UTF-8, or not JSON
        complete = False
    if complete:
        return ("the last line has no newline at its end; a line counts only once its newline is "
                "written, so this one was never finished (a write cut short) and does not count")
    return "the last line is incomplete (the record was cut short)"


def load_line(number: int, raw: bytes) -> tuple[str, dict[str, object]]:
    """The line's text and object, if it is UTF-8 text of a JSON object (in any form)."""
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
    return text, line


def parse_line(number: int, raw: bytes) -> tuple[str, dict[str, object]]:
    """The line's text and object, if the text is the object's canonical JSON."""
    text, line = load_line(number, raw)
    try:
        text_of_line = canonical(line)
    except ValueError:
        raise RecordError(number, "a number too large for JSON") from None
    if text != text_of_line:
        try:  # checked only now: the check is slow, and a repeated key is never canonical
            json_text.loads(text)
        except JSONTextError as error:
            raise RecordError(number, str(error)) from None
        at = first_difference(text, text_of_line)
        raise RecordError(number, f"not in canonical form: from character {at + 1} it should read "
                                  f"{text_of_line[at:at + 30]!r}, not {text[at:at + 30]!r} (keys sorted, no spaces, "
                                  "each value written as coyote-pi writes it)")
    return text, line


def check_keys(number: int, line: dict[str, object]) -> Line:
    """The line, once its keys are exactly those of its kind and the chain keys typed right."""
    kind = line.get("kind")
    if not isinstance(kind, str) or kind not in _KINDS:
        raise RecordError(number, f"unknown kind {spelled(kind)} (known: {', '.join(BODY_KEYS)})")
    kind = LineKind(kind)
    keys = CHAIN_KEYS | BODY_KEYS[kind]
    unknown, missing = sorted(set(line) - keys), sorted(keys - set(line))
    if unknown:
        raise RecordError(number, f"unknown key(s) in this {kind} line: {', '.join(map(spelled, unknown))}")
    if missing:
        raise RecordError(number, f"this {kind} line needs the key(s) {', '.join(map(spelled, missing))}")
    seq = line["seq"]
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise RecordError(number, f"the sequence number must be a whole number, not {spelled(seq)}")
    if not is_record_time(line["time"]):
        raise RecordError(number, f"the time {spelled(line['time'])} is not a UTC time like 2026-11-21T19:02:11.407Z")
    for key in ("prev", "hash"):
        value = line[key]
        if not (isinstance(value, str) and HASH.fullmatch(value)) and not (key == "prev" and value is None):
            raise RecordError(number, f"{spelled(key)} must be a SHA-256 in lowercase hex, not {spelled(value)}")
    for key in ("meta", "note", "result"):
        if key in line and not isinstance(line[key], dict):
            raise RecordError(number, f"{spelled(key)} must be a JSON object")
    line["kind"] = kind  # the same text, as the enum member
    return cast(Line, line)  # the checks above: its chain keys are typed, its body keys are its kind's


class SequenceError(RecordError):
    """A line whose ``seq`` is not its place: which story is likelier (a line missing, or
    lines reordered) shows only in the lines after it (:meth:`told`)."""

    def __init__(self, line: int, seq: int, story: str = "lines reordered, repeated or missing") -> None:
        super().__init__(line, f"sequence number {seq}, expected {line - 1} ({story})")
        self.seq = seq

    def told(self, next_seq: object) -> SequenceError:
        """This error with its likelier story, given the ``seq`` of the line after it
        (None at the end of the file): a line later than its place that the next one
        follows means lines were removed before it."""
        expected = (self.line or 1) - 1
        if self.seq > expected and (next_seq is None or next_seq == self.seq + 1):
            missing = self.seq - expected
            story = f"{missing} lines before it are missing" if missing > 1 else "the line before it is missing"
        else:
            story = "lines reordered or repeated?"
        return SequenceError(self.line or 1, self.seq, story)


def check_chain(line: Line, number: int, prev_hash: str | None) -> None:
    """The line sits where its ``seq`` says, after the line whose hash its ``prev`` holds,
    and its ``hash`` is its own."""
    if line["seq"] != number - 1:
        raise SequenceError(number, line["seq"])
    if line["prev"] != prev_hash:
        raise RecordError(number, "does not follow the line before it (edited, reordered or removed lines)")
    body = {k: v for k, v in line.items() if k != "hash"}
    if line["hash"] != sha256_text(canonical(body)):
        raise RecordError(number, "its content does not match its hash (the line was edited)")


def check_photo_form(number: int, photo: object) -> None:
    """A line's ``photo`` (not null): an object with a plain ``file`` name and its ``sha256``."""
    if not (isinstance(photo, dict) and set(photo) == _PHOTO_KEYS
            and isinstance(photo["file"], str) and PHOTO_FILE.fullmatch(photo["file"])
            and isinstance(photo["sha256"], str) and HASH.fullmatch(photo["sha256"])):
        raise RecordError(number, "'photo' must be null or an object with a plain 'file' name and its 'sha256'")


def first_difference(a: str, b: str) -> int:
    """Where two texts first differ (the shorter one's length if the longer begins with it)."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def excerpt(text: str, at: int, width: int = 60) -> str:
    """Up to ``width`` characters of ``text`` from a little before ``at``, where it
    differs from another: two long values that differ late are not shown cut alike."""
    start = max(0, at - 20)
    return ("..." if start else "") + text[start:start + width] + ("..." if len(text) > start + width else "")


_KINDS = frozenset(LineKind)
