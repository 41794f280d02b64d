"""The game whose every accepted event is on disk before it counts: :class:`RecordedGame`.

The engine accepts an event, the record stores it (:class:`~coyote_pi.record.writer.RecordWriter`),
and only then does it count; after a crash it resumes from the last line that replays
(:func:`~coyote_pi.record.salvage.salvage_record`), setting a damaged end aside
(:class:`~coyote_pi.record.salvage.Repair`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from coyote_pi.engine import events
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.game import OVER, Game, GameConfig
from coyote_pi.record.lines import ChainEnd, LineKind, Photo, utc_now
from coyote_pi.record.reader import Record, RecordVisitor
from coyote_pi.record.salvage import Repair, salvage_record, set_aside
from coyote_pi.record.seals import Seals, Vault, new_salt
from coyote_pi.record.writer import RecordWriter, resolution_bodies


class RecordedGame:
    """A game whose every accepted event is on disk before it counts.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.jsonl"
    >>> from coyote_pi.cards import ALL_CARDS
    >>> table = RecordedGame.start(path, GameConfig(players=2))
    >>> table.game.phase
    <Phase.DEAL: 'deal'>
    >>> table.apply(table.game.virtual_deal(["5", "7", "max0"] + [c for c in ALL_CARDS if c not in ("5", "7", "max0")]))
    >>> RecordedGame.resume(path).game.phase
    <Phase.BIDDING: 'bidding'>
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
    def start(cls, path: str | os.PathLike[str], config: GameConfig, meta: dict[str, object] | None = None,
              clock: Callable[[], str] = utc_now, *, salt: Callable[[], str] = new_salt,
              private_meta: dict[str, object] | None = None) -> RecordedGame:
        """A new record. ``meta`` goes into its setup line, for everyone to read;
        ``private_meta`` into its :class:`Vault` (:attr:`private_meta`), for the service only."""
        table = cls(Game(config), RecordWriter.create(path, config, meta, clock, salt))
        if private_meta:
            Vault(path).write(Vault.SETUP, private_meta)
        return table

    @classmethod
    def resume(cls, path: str | os.PathLike[str], clock: Callable[[], str] = utc_now, *,
               salt: Callable[[], str] = new_salt, visitors: Iterable[RecordVisitor] = ()) -> RecordedGame:
        """Continue the game in ``path`` from its last line that replays.

        Whatever follows that line is moved to a side file, never deleted: an unfinished
        last line (a write cut short by a crash: it never counted) to ``FILE.torn``, a
        damaged end (an empty line, NUL bytes, garbage, a broken chain) to
        ``FILE.damaged``, and the latter is told in a note line (unless the game is over:
        nothing follows its final resolution). A resolution that did not reach the disk
        is recomputed and written (after the round's opening line, if that was lost too).
        The open round is opened with the record's private round file; once its round is
        closed, that file goes. ``visitors`` are told the lines kept, as the reader reads them
        (:class:`~coyote_pi.record.reader.RecordVisitor`). :class:`RecordError` when not even
        the setup line replays; OSError when the file cannot be repaired.
        """
        path = Path(path)
        salvage = salvage_record(path, private=True, visitors=visitors)
        record = salvage.record
        repair = set_aside(path, salvage) if salvage.tail else None
        seals = Seals(Vault(path), salt, record.private_openings)
        writer = RecordWriter(path, ChainEnd(len(record.lines), record.last_hash, record.lines[-1]["time"]), clock,
                              seals, version=record.version)
        try:
            shown = sum(1 for line in record.lines if line["kind"] == LineKind.RESOLUTION)
            missing = record.game.results[shown:]
            if missing:
                opening = seals.opening()
                resolutions = resolution_bodies(missing, record.version)
                writer._append(([] if opening is None else [opening]) + resolutions)
            if missing or not seals.openings:
                seals.close()  # the round is closed: what opened it is on record now
            if repair is not None and repair.damaged and record.game.phase != OVER:
                writer.append_note(repair.note())
        except BaseException:
            writer.close()
            raise
        return cls(record.game, writer, record, repair)

    @property
    def private_meta(self) -> dict[str, object]:
        """What :meth:`start` kept in the vault for the service (empty when nothing)."""
        return Vault(self.path).read(Vault.SETUP) or {}

    def apply(self, event: events.Event, photo: Photo | None = None) -> None:
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
            raise IllegalAction(f"the game is over: seat {self.game.winner} has won", code=Refusal.GAME_OVER)
        self.writer.append_note(note)

    def close(self) -> None:
        """Close the record file (the game stays readable, nothing more is written)."""
        self.writer.close()
