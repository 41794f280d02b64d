"""The record on a full or failing disk, damaged on disk, deleted or replaced meanwhile.

A failing disk is simulated by the ``failing_disk`` fixture (tests/conftest.py: it wraps
``os.write``, ``os.fsync`` and ``os.ftruncate`` for the files of one folder), and, where
the test may mount one, by a real 64 KiB tmpfs that fills up (the ``tmpfs`` fixture).
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
from pathlib import Path

import pytest

from coyote_pi.engine import Bid, GameConfig
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.engine.views import arbiter_state
from coyote_pi.record import RecordedGame, RecordError, RecordGone, read_record, writer

CONFIG = GameConfig(players=3, variant="trickster", start_seat=2)


def fixed_clock():
    return "2026-11-21T12:00:00.000Z"


def _next(table: RecordedGame, seed: int = 4):
    players = {seat: ScriptedPlayer() for seat in table.game.eyes}
    return next_scripted_event(table.game, players, seed, physical=True)


def _play(table: RecordedGame, events: int | None = None) -> None:
    while (events is None or events > 0) and (event := _next(table)) is not None:
        table.apply(event)
        events = None if events is None else events - 1


def _started(tmp_path: Path, events: int = 3) -> tuple[Path, RecordedGame]:
    path = tmp_path / "game.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    _play(table, events)
    return path, table


# ------------------------------------------------------------------ a full or failing disk


@pytest.mark.parametrize("error", [errno.ENOSPC, errno.EIO])
def test_a_line_not_wholly_on_disk_does_not_count_and_leaves_no_fragment(tmp_path, failing_disk, error):
    path, table = _started(tmp_path)
    before, state = path.read_bytes(), arbiter_state(table.game)
    disk = failing_disk(tmp_path, error)
    disk.failing = True
    seat = table.game.turn
    with pytest.raises(OSError) as failed:
        table.apply(Bid(seat, 40))
    assert failed.value.errno == error
    assert arbiter_state(table.game) == state  # the bid does not count
    assert path.read_bytes() == before  # and the part of its line that reached the file is gone
    disk.failing = False
    table.apply(Bid(seat, 40))  # space again: the game carries on
    assert read_record(path, private=True).game.round.bid == 40


def test_a_fragment_that_could_not_be_cut_at_once_is_cut_before_the_next_line(tmp_path, failing_disk):
    path, table = _started(tmp_path)
    before = path.read_bytes()
    disk = failing_disk(tmp_path)
    disk.failing = disk.truncate_fails = True
    seat = table.game.turn
    for amount in (40, 41):  # every try fails, and leaves its fragment for a moment
        with pytest.raises(OSError):
            table.apply(Bid(seat, amount))
        assert path.read_bytes().startswith(before) and len(path.read_bytes()) > len(before)
    disk.failing = disk.truncate_fails = False
    table.apply(Bid(seat, 42))
    record = read_record(path, private=True)  # strict: no fragment, no line glued onto one
    assert record.game.round.bid == 42 and path.read_bytes().startswith(before)
    assert len(record.lines) == len(before.splitlines()) + 1


def test_a_failing_note_raises_and_writes_nothing(tmp_path, failing_disk):
    path, table = _started(tmp_path)
    before = path.read_bytes()
    disk = failing_disk(tmp_path, errno.EACCES)
    disk.failing = True
    with pytest.raises(PermissionError):
        table.note(table="camera", round=1)
    assert path.read_bytes() == before


def test_a_setup_line_that_cannot_be_written_leaves_no_file(tmp_path, failing_disk):
    disk = failing_disk(tmp_path)
    disk.failing = True
    with pytest.raises(OSError):
        RecordedGame.start(tmp_path / "game.jsonl", CONFIG)
    assert not (tmp_path / "game.jsonl").exists()  # an empty record would block the next start


# ------------------------------------------------------------------ lines acknowledged once on disk


def _acknowledged(caplog) -> list[tuple[str, int, str]]:
    """What the writer logged as on disk: (file name, seq, SHA-256 of the stored line)."""
    return [record.args for record in caplog.records
            if record.name == "coyote_pi.record.writer" and record.msg == writer.ACKNOWLEDGED]


def test_every_line_is_logged_with_its_seq_and_hash_once_it_is_on_disk(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="coyote_pi.record.writer")
    path, table = _started(tmp_path, events=6)
    table.note(table="camera", round=1)
    lines = path.read_bytes().splitlines()
    assert _acknowledged(caplog) == [("game.jsonl", seq, hashlib.sha256(line).hexdigest())
                                     for seq, line in enumerate(lines)]


def test_the_setup_line_is_acknowledged_only_once_the_folder_holds_the_new_file(tmp_path, caplog, monkeypatch):
    caplog.set_level(logging.INFO, logger="coyote_pi.record.writer")
    seen_before_the_folder_sync = []
    monkeypatch.setattr(writer, "fsync_folder", lambda folder: seen_before_the_folder_sync.append(_acknowledged(caplog)))
    RecordedGame.start(tmp_path / "game.jsonl", CONFIG, clock=fixed_clock)
    assert seen_before_the_folder_sync == [[]] and [seq for _, seq, _ in _acknowledged(caplog)] == [0]


def test_a_line_that_failed_is_not_acknowledged(tmp_path, caplog, failing_disk):
    caplog.set_level(logging.INFO, logger="coyote_pi.record.writer")
    _, table = _started(tmp_path)
    before = _acknowledged(caplog)
    failing_disk(tmp_path).failing = True
    with pytest.raises(OSError):
        table.apply(Bid(table.game.turn, 40))
    assert _acknowledged(caplog) == before


def _fill(folder: Path) -> Path:
    """Write a file until the disk is full; return it (delete it to free the space)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"x" * 512)
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler


def test_a_real_full_disk_loses_no_game(tmpfs):
    small_disk = tmpfs("size=64k")
    path = small_disk / "game.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    _play(table, 2)
    filler = _fill(small_disk)
    failure = None
    for _ in range(500):  # the record's last block still has room for a few lines
        state, event = arbiter_state(table.game), _next(table)
        try:
            table.apply(event)
        except OSError as error:
            failure = error
            break
    assert failure is not None and failure.errno == errno.ENOSPC
    assert arbiter_state(table.game) == state
    assert arbiter_state(read_record(path, private=True).game) == state  # strict: no torn fragment on disk
    filler.unlink()
    _play(table)
    table.close()
    assert read_record(path, private=True).game.winner is not None


# ------------------------------------------------------------------ deleted or replaced


def test_a_record_deleted_while_running_is_noticed_and_not_written_afresh(tmp_path):
    path, table = _started(tmp_path)
    path.unlink()
    with pytest.raises(RecordGone, match="deleted"):
        table.apply(Bid(table.game.turn, 40))
    assert not path.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["private"]  # the service-only folder: no new record


def test_a_record_replaced_while_running_is_noticed(tmp_path):
    path, table = _started(tmp_path)
    copy = path.read_bytes()
    path.unlink()
    path.write_bytes(copy)
    state = arbiter_state(table.game)
    with pytest.raises(RecordGone, match="replaced"):
        table.apply(Bid(table.game.turn, 40))
    assert path.read_bytes() == copy and arbiter_state(table.game) == state


# ------------------------------------------------------------------ a damaged end


DAMAGES = {
    "an extra newline": b"\n",
    "a garbage line": b"garbage from a text editor\n",
    "NUL bytes then a line": b"\x00" * 96 + b"\n",
    "a garbage line then a torn one": b"garbage\n{\"seq\": 9",
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_end_is_set_aside_with_a_note_and_the_game_goes_on(tmp_path, damage):
    path, table = _started(tmp_path, 5)
    whole, state = path.read_bytes(), arbiter_state(table.game)
    table.close()
    with open(path, "ab") as handle:
        handle.write(damage)
    with pytest.raises(RecordError):
        read_record(path)

    resumed = RecordedGame.resume(path, clock=fixed_clock)
    assert arbiter_state(resumed.game) == state
    side = tmp_path / "game.jsonl.damaged"
    assert side.read_bytes() == damage  # kept, never deleted
    assert resumed.repair.damaged and resumed.repair.side_file == side
    assert resumed.repair.line == whole.count(b"\n") + 1
    record = read_record(path)
    assert record.lines[-1]["note"] == resumed.repair.note()
    assert record.lines[-1]["note"]["file"] == "game.jsonl.damaged"
    _play(resumed)
    assert read_record(path, private=True).game.winner is not None


def test_only_a_torn_last_line_is_set_aside_without_a_note(tmp_path):
    path, table = _started(tmp_path, 5)
    lines = len(read_record(path).lines)
    table.close()
    with open(path, "ab") as handle:
        handle.write(b"\x00" * 40)  # a power cut mid-write: the line never counted
    resumed = RecordedGame.resume(path)
    assert not resumed.repair.damaged
    assert (tmp_path / "game.jsonl.torn").read_bytes() == b"\x00" * 40
    assert len(read_record(path).lines) == lines


def test_side_files_are_never_overwritten(tmp_path):
    path, table = _started(tmp_path, 5)
    table.close()
    for fragment in (b'{"first', b'{"second'):
        with open(path, "ab") as handle:
            handle.write(fragment)
        RecordedGame.resume(path).close()
    assert (tmp_path / "game.jsonl.torn").read_bytes() == b'{"first'
    assert (tmp_path / "game.jsonl.torn-2").read_bytes() == b'{"second'


def test_a_damaged_line_in_the_middle_sets_aside_everything_after_it(tmp_path):
    # Damage before the last line, in an open round past its (sealed) deal: what is kept
    # ends in that round, which its private file still opens. (Damage that cuts a closed
    # round's opening line away leaves that round sealed for good: it cannot be resumed.)
    path, table = _started(tmp_path, 3)
    for _ in range(200):  # play on until the last line is an unsealed one, two or more after a deal
        lines = path.read_bytes().splitlines(keepends=True)
        deals = [n for n, line in enumerate(lines) if b'"type":"deal"' in line]
        if len(deals) >= 2 and deals[-1] + 2 < len(lines) and b'"commitment"' not in lines[-1]:
            break
        table.apply(_next(table))
    table.close()
    cut = len(lines) - 1  # everything but the last line is kept: it is sealed or plain, never cut off
    damaged = b"".join(lines[:cut]) + b"\x00\x00\n" + b"".join(lines[cut:])
    path.write_bytes(damaged)
    resumed = RecordedGame.resume(path)
    assert resumed.repair.line == cut + 1
    assert (tmp_path / "game.jsonl.damaged").read_bytes() == b"\x00\x00\n" + b"".join(lines[cut:])
    kept = read_record(path, private=True).lines
    assert [line["seq"] for line in kept] == list(range(cut + 1))  # the lines kept, then the note
    assert kept[-1]["kind"] == "note"


def test_a_damaged_end_after_the_final_resolution_takes_no_note(tmp_path):
    path, table = _started(tmp_path, None)
    whole = path.read_bytes()
    table.close()
    path.write_bytes(whole + b"\n")
    resumed = RecordedGame.resume(path)
    assert resumed.repair.damaged and resumed.game.winner is not None
    assert path.read_bytes() == whole  # nothing follows the final resolution, not even a note


@pytest.mark.parametrize("content", [b"garbage\n", b'{"seq": 0, "ki', b""])
def test_a_record_without_a_whole_setup_line_cannot_be_resumed_and_is_left_alone(tmp_path, content):
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        RecordedGame.resume(path)
    assert path.read_bytes() == content and sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_the_note_of_a_repair_is_plain_json(tmp_path):
    path, table = _started(tmp_path, 5)
    table.close()
    with open(path, "ab") as handle:
        handle.write(b"\n")
    note = RecordedGame.resume(path).repair.note()
    assert json.loads(json.dumps(note)) == note
    assert note["record"] == "damaged_end_set_aside" and note["reason"] == "an empty line"


def test_a_closed_record_takes_no_more_lines(tmp_path):
    path, table = _started(tmp_path)
    before = path.read_bytes()
    table.close()
    other = open(tmp_path / "other", "wb")  # noqa: SIM115 (closed by the with below); may be given the record's old descriptor number
    state = arbiter_state(table.game)
    with other, pytest.raises(ValueError, match="closed"):
        table.apply(Bid(table.game.turn, 40))
    assert path.read_bytes() == before and (tmp_path / "other").read_bytes() == b""
    assert arbiter_state(table.game) == state
