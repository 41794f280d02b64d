"""Writing a record: each line appended whole and on disk before it counts.

:class:`RecordWriter` appends a line and ``fsync``\\ s it before returning, so an action
counts only once it is on disk; a write that fails leaves no part of its line behind, and
a record deleted or replaced meanwhile is noticed (:class:`RecordGone`). Once a line is on
disk the writer logs it (:data:`ACKNOWLEDGED`), so that a test that cuts the power can
check that every line acknowledged is still there.
:func:`encode_record` builds the same bytes in memory. What a deal or a guess seals here
(:class:`~coyote_pi.record.seals.Seals`), the reader opens.
"""

from __future__ import annotations

import errno
import logging
import os
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path

from coyote_pi.engine import events
from coyote_pi.engine.game import Game, GameConfig, RoundResult
from coyote_pi.files import fsync_folder, write_all
from coyote_pi.record.fingerprints import fingerprint
from coyote_pi.record.lines import FORMAT, Body, ChainEnd, LineKind, Photo, event_kind, sha256_text, utc_now
from coyote_pi.record.seals import SEALED, Seals, Vault, new_salt
from coyote_pi.record.versions import VERSION, resolution_data

log = logging.getLogger(__name__)

#: What the writer logs (at info) once a line is on disk: the record's file name, the
#: line's ``seq`` and the SHA-256 of its stored bytes (what the next line's ``prev``
#: holds). Nothing a record line holds is secret (a deal or a guess is sealed), and its
#: hash shows less than the line: see docs/game-record.md, "Crashes and resume".
ACKNOWLEDGED = "record %s seq %d on disk: sha256 %s"


def setup_body(config: GameConfig, meta: dict[str, object] | None) -> Body:
    return {"kind": LineKind.SETUP, "format": FORMAT, "version": VERSION, "config": config.to_dict(),
            "meta": meta or {}}


def event_bodies(event: events.Event, results: list[RoundResult], seals: Seals, seq: int,
                 photo: Photo | None = None, version: int = VERSION) -> list[Body]:
    """One event and the resolutions it caused: what a single durable write holds.

    A deal or a guess is sealed (what opens it is saved first); a resolution that closes
    a round comes right after the round's opening line. ``photo`` is the reveal's or the
    draw's photo (``{"file", "sha256"}``), for its observation line; ``version`` the
    record's (a resumed older record goes on in its own).
    """
    data = events.to_dict(event)
    if photo is not None and not isinstance(event, (events.Reveal, events.DrawReplacement)):
        raise ValueError(f"a {data['type']} keeps no photo: only a reveal or a draw does")
    if data["type"] in SEALED:
        data = seals.seal(seq, data)
    kind = event_kind(event)
    line: Body = {"kind": kind, "event": data}
    if kind == LineKind.OBSERVATION:
        line["photo"] = photo
    bodies = [line]
    if results and (opening := seals.opening()) is not None:
        bodies.append(opening)
    return bodies + resolution_bodies(results, version)


def resolution_bodies(results: Iterable[RoundResult], version: int) -> list[Body]:
    return [{"kind": LineKind.RESOLUTION, "result": resolution_data(result, version)} for result in results]


def encode_record(config: GameConfig, played: Iterable[events.Event], meta: dict[str, object] | None = None,
                  clock: Callable[[], str] = utc_now, salt: Callable[[], str] = new_salt) -> bytes:
    """The record :class:`~coyote_pi.record.recorded.RecordedGame` writes for the events
    ``played``, built in memory (no disk writes): for examples and benchmarks. Raises
    IllegalAction at an illegal event."""
    game, seals = Game(config), Seals(None, salt)
    texts, end = ChainEnd().seal([setup_body(config, meta)], clock)
    for event in played:
        before = len(game.results)
        game.apply(event)
        results = game.results[before:]
        more, end = end.seal(event_bodies(event, results, seals, end.seq), clock)
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

    def __init__(self, path: str | os.PathLike[str], end: ChainEnd, clock: Callable[[], str] = utc_now,
                 seals: Seals | None = None, *, create: bool = False, version: int = VERSION) -> None:
        self.path = Path(path)
        self.version = version  #: the record's version: what its resolution lines hold
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
        #: A new record's setup line, written but not acknowledged yet (see :meth:`create`).
        self._held: list[str] | None = [] if create else None

    @property
    def last_hash(self) -> str | None:
        return self._end.prev

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the record as written so far (see :func:`fingerprint`)."""
        if self._end.prev is None:
            raise ValueError(f"{self.path} has no line yet")
        return fingerprint(self._end.prev)

    @classmethod
    def create(cls, path: str | os.PathLike[str], config: GameConfig, meta: dict[str, object] | None = None,
               clock: Callable[[], str] = utc_now, salt: Callable[[], str] = new_salt) -> RecordWriter:
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
            writer._append([setup_body(config, meta)])
        except BaseException:
            writer.close()
            path.unlink(missing_ok=True)
            raise
        fsync_folder(path.parent)
        writer._acknowledge(writer._held or [])  # only now is the new file's name on disk too
        return writer

    def append_event(self, event: events.Event, results: Iterable[RoundResult] = (),
                     photo: Photo | None = None) -> None:
        """One event and the resolutions it caused, in a single durable write (see
        :func:`event_bodies`); once a round's resolution is on disk, its seals go."""
        caused, seq = list(results), self._end.seq
        try:
            self._append(event_bodies(event, caused, self.seals, seq, photo, self.version))
        except BaseException:
            self.seals.forget_from(seq)  # the line did not count: what it sealed is not opened
            raise
        if caused:
            self.seals.close()

    def append_note(self, note: dict[str, object]) -> None:
        self._append([{"kind": LineKind.NOTE, "note": note}])

    def close(self) -> None:
        self._closer()  # closes the file once; nothing more can be written

    def _append(self, bodies: list[Body]) -> None:
        """Chain ``bodies`` after the last line and write them in one durable write (the
        record package's own: other modules append events and notes); then log each line
        as on disk (:meth:`_acknowledge`), except a new record's setup line, which
        :meth:`create` logs once the folder holds the file."""
        texts, end = self._end.seal(bodies, self.clock)
        data = "".join(text + "\n" for text in texts).encode("utf-8")
        if not self._closer.alive:  # its descriptor number may belong to another file by now
            raise ValueError(f"{self.path} is closed")
        self._check_still_there()
        if self._cut_pending:
            self._cut()
        try:
            write_all(self._fd, data)
        except OSError:
            self._cut_pending = True
            try:
                self._cut()
            except OSError:
                pass  # cut before the next write
            raise
        self._size += len(data)
        self._end = end
        if self._held is None:
            self._acknowledge(texts)
        else:
            self._held = texts

    def _acknowledge(self, texts: list[str]) -> None:
        """Log each of ``texts``, the last lines written, as on disk (:data:`ACKNOWLEDGED`)."""
        self._held = None
        for seq, text in enumerate(texts, start=self._end.seq - len(texts)):
            log.info(ACKNOWLEDGED, self.path.name, seq, sha256_text(text))

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
            status: os.stat_result | None = os.stat(self.path)
        except FileNotFoundError:
            status = None
        if status is None or (status.st_dev, status.st_ino) != self._identity:
            raise RecordGone(errno.ENOENT, "the record was replaced while the game was running", str(self.path))
