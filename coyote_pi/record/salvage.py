"""Salvage: the longest beginning of a damaged record that replays, and its end set aside.

After a crash the table resumes a record from its last line that replays
(:func:`salvage_record`); whatever follows is moved to a side file, never deleted
(:func:`set_aside`, which returns the :class:`Repair` the table tells the players about).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from coyote_pi.files import fsync_folder, write_all
from coyote_pi.record.lines import RecordError, split_lines
from coyote_pi.record.reader import (
    GameBuilder,
    Record,
    RecordReader,
    RecordVisitor,
    built_record,
    read_bytes,
    vault_missing,
)
from coyote_pi.record.seals import private_openings


@dataclass(frozen=True)
class Salvage:
    """The longest beginning of a record that replays (see :func:`salvage_record`)."""

    record: Record
    #: The bytes after the last line that replays: an unfinished last line, or a damaged end.
    tail: bytes
    #: Why the first line of ``tail`` does not replay; None when ``tail`` is only an
    #: unfinished last line (a write cut short, which never counted) or empty.
    damage: RecordError | None


def salvage_record(path: str | os.PathLike[str], *, private: bool = False,
                   visitors: Iterable[RecordVisitor] = ()) -> Salvage:
    """The record at ``path`` as far as it replays, for resuming it after a crash.

    Reads like :func:`~coyote_pi.record.reader.read_record` with ``allow_torn_tail``, but
    stops at the first line that does not replay (an empty line, NUL bytes, garbage, a
    broken chain) instead of rejecting the file: the lines before it are a valid record,
    the rest is its ``tail``. Raises :class:`RecordError` when not even the setup line
    replays, and when the lines kept end in a sealed round that ``private`` cannot open:
    then it names the damage that cut the round off, if there is one, since a round whose
    opening line was damaged has no private file any more (it was closed).
    """
    path = Path(path)
    data = read_bytes(path)
    raw_lines, _ = split_lines(data)
    builder = GameBuilder()
    reader = RecordReader([builder, *visitors])
    kept, damage = 0, None
    for number, raw in enumerate(raw_lines, start=1):
        try:
            reader.take(number, raw)
        except RecordError as error:
            if number == 1:
                raise
            damage = error
            break
        kept += len(raw) + 1
    if reader.lines == 0:  # not one complete line: the setup line was cut short
        raise RecordError(1, "the setup line is incomplete (the record was cut short)")
    held_from = reader.held[0][0] if reader.held else None  # the sealed round the lines kept end in
    openings = private_openings(path) if private and held_from is not None else None
    try:
        if private and held_from is not None and openings is None:
            raise vault_missing(path, held_from)
        reader.end(openings)
    except RecordError as cannot_open:
        if damage is None or held_from is None:
            raise
        # The lines kept end inside a round whose opening line is in the damaged end: the
        # vault was deleted when that round closed, or opens a later round. The damage is
        # what to tell, not the vault.
        raise RecordError(damage.line, f"{damage.reason}; so the round that starts at line {held_from} "
                                       "has lost its end, and it cannot be resumed without it") from cannot_open
    return Salvage(built_record(builder, reader), data[kept:], damage)


@dataclass(frozen=True)
class Repair:
    """What resuming set aside: the end of the file that did not replay."""

    side_file: Path  #: where those bytes are kept (``FILE.torn`` or ``FILE.damaged``)
    line: int  #: the first line set aside (1-based)
    size: int  #: how many bytes
    #: Why that line does not replay; None for an unfinished last line (a write cut short).
    reason: str | None

    @property
    def damaged(self) -> bool:
        """More than a write cut short: lines that had been complete were set aside."""
        return self.reason is not None

    def note(self) -> dict[str, object]:
        """The note line that tells the record's readers what was set aside."""
        return {"record": "damaged_end_set_aside", "line": self.line, "bytes": self.size,
                "file": self.side_file.name, "reason": self.reason}


def set_aside(path: Path, salvage: Salvage) -> Repair:
    """Move the tail of ``salvage`` from ``path`` into a new side file, then cut it off."""
    damage = salvage.damage
    side = _free_name(path, ".torn" if damage is None else ".damaged")
    fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o640)
    try:
        write_all(fd, salvage.tail)
    finally:
        os.close(fd)
    kept = path.stat().st_size - len(salvage.tail)
    with open(path, "r+b") as handle:
        handle.truncate(kept)
        handle.flush()
        os.fsync(handle.fileno())
    fsync_folder(path.parent)
    line = len(salvage.record.lines) + 1
    return Repair(side, line, len(salvage.tail), None if damage is None else damage.reason)


def _free_name(path: Path, suffix: str) -> Path:
    """``path`` + ``suffix``, or with ``-2``, ``-3``, ... after it: a side file is never overwritten."""
    candidate, number = path.with_name(path.name + suffix), 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}{suffix}-{number}")
    return candidate
