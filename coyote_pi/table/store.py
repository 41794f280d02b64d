"""Where the table keeps its game records, and what it remembers beyond the rules.

:class:`RecordStore` owns a folder of records named ``game-0001.jsonl``,
``game-0002.jsonl``, ... (a sequence, not a date: a Pi without a clock battery may boot
with the wrong time). ``run`` resumes the newest record (:func:`open_record`), or
shows it finished; one it cannot resume is kept and reported (:class:`Unresumable`).
One table at a time writes a folder: :func:`lock_folder` takes a lock on it for the
life of the table and refuses a second one.
Beside each record are its photos (``game-0001.photos``, see :mod:`~coyote_pi.table.photos`);
the folder keeps those of the newest ``keep_photos`` games only.

:class:`TableMemory` is the controller's own state that must survive a crash but is
not part of the rules: whether the players have seen a verdict, whether the Coyote
card's draw was seen on the mat, whether a wait switched to entering cards by hand,
and the cards entered so far. Each is written as a ``note`` line in the record (always
before the screen shows its effect) and read back from those lines on resume, so
there is one source of truth: the record.
"""

from __future__ import annotations

import errno
import fcntl
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coyote_pi.config import KEEP_PHOTOS_GAMES, ConfigError
from coyote_pi.contract.records import record_file, record_number
from coyote_pi.engine import Event, Game, GameConfig, Undo
from coyote_pi.record import Line, RecordedGame, RecordError, RecordVisitor
from coyote_pi.table.photos import prune_photos


class RecordStore:
    """A folder of game records (created on first use), with the photos of the newest
    ``keep_photos`` games."""

    def __init__(self, folder: str | Path, keep_photos: int = KEEP_PHOTOS_GAMES) -> None:
        self.folder = Path(folder)
        self.keep_photos = keep_photos

    def paths(self) -> list[Path]:
        """The records, oldest first."""
        return [path for _, path in self._numbered()]

    def _numbered(self) -> list[tuple[int, Path]]:
        """The records with their sequence numbers, oldest first."""
        if not self.folder.is_dir():
            return []
        return sorted((number, p) for p in self.folder.iterdir() if (number := record_number(p.name)) is not None)

    def newest(self) -> Path | None:
        """The newest record (only it counts: an older unfinished game was left for a newer one)."""
        paths = self.paths()
        return paths[-1] if paths else None

    def create(self, config: GameConfig, meta: dict[str, Any], private_meta: dict[str, Any] | None = None,
               ) -> RecordedGame:
        """Start the next record in the folder (``private_meta``: see :meth:`RecordedGame.start`),
        and remove the photos of the games beyond the newest ``keep_photos`` (this one counts)."""
        numbered = self._numbered()
        paths = [path for _, path in numbered]
        number = numbered[-1][0] + 1 if numbered else 1
        table = RecordedGame.start(self.folder / record_file(number), config, meta, private_meta=private_meta)
        prune_photos([*paths, table.path], max(1, self.keep_photos))
        return table


# Note names (the "table" field of a note line).
VERDICT_SEEN = "verdict_seen"
EXTRA_ON_MAT = "extra_on_mat"
MANUAL = "manual"
ENTERED = "entered"
ENTRIES_CLEARED = "entries_cleared"
CAMERA = "camera"


@dataclass
class TableMemory:
    """What the table remembers beyond the rules; rebuilt from a record's note lines."""

    verdicts_seen: set[int] = field(default_factory=set)  #: rounds whose verdict was acknowledged
    extra_on_mat: set[int] = field(default_factory=set)  #: rounds whose Coyote-card draw was seen
    manual: set[tuple[int, str]] = field(default_factory=set)  #: (round, wait) entered by hand
    entered: dict[tuple[int, str], dict[str, str]] = field(default_factory=dict)  #: (round, wait) -> item -> card
    undos: int = 0  #: bids taken back in this game

    def learn(self, note: dict[str, Any]) -> None:
        """Take in one note written by the table (other notes are ignored)."""
        kind = note.get("table")
        if kind not in (VERDICT_SEEN, EXTRA_ON_MAT, MANUAL, ENTERED, ENTRIES_CLEARED):
            return
        round_number: int = note["round"]  # every note the memory learns names its round
        if kind == VERDICT_SEEN:
            self.verdicts_seen.add(round_number)
        elif kind == EXTRA_ON_MAT:
            self.extra_on_mat.add(round_number)
        elif kind == MANUAL:
            self.manual.add((round_number, note["wait"]))
        elif kind == ENTERED:
            self.entered.setdefault((round_number, note["wait"]), {})[note["item"]] = note["card"]
        elif kind == ENTRIES_CLEARED:
            self.entered.pop((round_number, note["wait"]), None)


class MemoryReader(RecordVisitor):
    """Rebuilds the :class:`TableMemory` of a record as the record's reader reads it: its
    notes, and the bids taken back."""

    def __init__(self) -> None:
        self.memory = TableMemory()

    def visit_note(self, number: int, note: dict[str, object], game: Game) -> None:
        self.memory.learn(note)

    def visit_event(self, number: int, line: Line, event: Event, game: Game) -> None:
        if isinstance(event, Undo):
            self.memory.undos += 1


def open_record(path: Path) -> tuple[RecordedGame, TableMemory]:
    """Resume the record at ``path`` with the table's memory of it (see
    :meth:`RecordedGame.resume <coyote_pi.record.RecordedGame.resume>` for the repairs)."""
    remembered = MemoryReader()
    table = RecordedGame.resume(path, visitors=[remembered])
    return table, remembered.memory


@dataclass(frozen=True)
class Unresumable:
    """The newest record, which cannot be resumed: kept as it is, and shown to the players."""

    path: Path
    reason: str


# ------------------------------------------------------------------ the folder lock


class RecordFolderError(ConfigError):
    """The record folder cannot be used: not a folder, not writable, or in use."""


#: The lock file in the record folder; it holds the pid of the table that has it.
LOCK_NAME = ".coyote-pi.lock"


class FolderLock:
    """An exclusive ``flock`` on the record folder's lock file, until :meth:`release`."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing the file releases the lock
            self._fd = -1

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


def lock_folder(folder: str | Path) -> FolderLock:
    """Check that ``folder`` is a writable folder (creating it if missing) and lock it.

    Two tables writing one folder would interleave their lines and pick the same next
    file name; the second is refused. Raises :class:`RecordFolderError` with a one-line
    reason. The lock goes with the process (a killed table leaves none behind).
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise RecordFolderError(f"the record folder {folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        if not os.access(folder, os.W_OK | os.X_OK):  # the lock file may be older than the folder's mode
            os.close(fd)
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    except OSError as error:
        raise RecordFolderError(f"the record folder {folder} is not a writable folder: {error.strerror or error}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        raise RecordFolderError(f"the record folder {folder} is in use by another coyote-pi"
                                + (f" (pid {holder})" if holder else "") + ": one table per folder") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return FolderLock(fd)


__all__ = ["FolderLock", "RecordError", "RecordFolderError", "RecordStore", "TableMemory", "Unresumable", "lock_folder",
           "open_record"]
