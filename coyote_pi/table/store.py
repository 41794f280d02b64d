"""Where the table keeps its game records, and what it remembers beyond the rules.

:class:`RecordStore` owns a folder of records named ``game-0001.jsonl``,
``game-0002.jsonl``, ... (a sequence, not a date: a Pi without a clock battery may boot
with the wrong time). ``run`` resumes the newest record if its game is unfinished.
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

import re
from dataclasses import dataclass, field
from pathlib import Path

from coyote_pi.engine import GameConfig
from coyote_pi.engine.game import OVER
from coyote_pi.record import RecordedGame, RecordError, read_record
from coyote_pi.table.config import KEEP_PHOTOS_GAMES
from coyote_pi.table.photos import prune_photos

_NAME = re.compile(r"^game-(\d+)\.jsonl$")


class RecordStore:
    """A folder of game records (created on first use), with the photos of the newest
    ``keep_photos`` games."""

    def __init__(self, folder: str | Path, keep_photos: int = KEEP_PHOTOS_GAMES) -> None:
        self.folder = Path(folder)
        self.keep_photos = keep_photos

    def paths(self) -> list[Path]:
        """The records, oldest first."""
        if not self.folder.is_dir():
            return []
        found = [(int(m.group(1)), p) for p in self.folder.iterdir() if (m := _NAME.match(p.name))]
        return [p for _, p in sorted(found)]

    def newest_unfinished(self) -> Path | None:
        """The newest record if its game is not over, else None.

        Only the newest counts: an older unfinished game was abandoned for a newer one.
        A newest record that cannot be read raises :class:`~coyote_pi.record.RecordError`.
        """
        paths = self.paths()
        if not paths:
            return None
        record = read_record(paths[-1], allow_torn_tail=True)
        return None if record.game.phase == OVER else paths[-1]

    def create(self, config: GameConfig, meta: dict, private_meta: dict | None = None) -> RecordedGame:
        """Start the next record in the folder (``private_meta``: see :meth:`RecordedGame.start`),
        and remove the photos of the games beyond the newest ``keep_photos`` (this one counts)."""
        paths = self.paths()
        number = int(_NAME.match(paths[-1].name).group(1)) + 1 if paths else 1
        table = RecordedGame.start(self.folder / f"game-{number:04d}.jsonl", config, meta, private_meta=private_meta)
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

    def learn(self, note: dict) -> None:
        """Take in one note written by the table (other notes are ignored)."""
        kind, round_number = note.get("table"), note.get("round")
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

    @classmethod
    def from_lines(cls, lines: list[dict]) -> TableMemory:
        memory = cls()
        for line in lines:
            if line.get("kind") == "note":
                memory.learn(line.get("note", {}))
            elif line.get("kind") == "action" and line.get("event", {}).get("type") == "undo":
                memory.undos += 1
        return memory


def open_record(path: Path) -> tuple[RecordedGame, TableMemory]:
    """Resume the record at ``path`` with the table's memory of it."""
    table = RecordedGame.resume(path)
    return table, TableMemory.from_lines(table.record.lines)


__all__ = ["RecordError", "RecordStore", "TableMemory", "open_record"]
