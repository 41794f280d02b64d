"""The game record: durable appends, strict validation, resume after a crash."""

import json
import os
import subprocess
import sys

import pytest

from coyote_pi.engine import Bid, Challenge, GameConfig, IllegalAction, Undo
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.engine.views import arbiter_state
from coyote_pi.record import RecordedGame, RecordError, RecordWriter, _canonical, _sha256, read_record

CONFIG = GameConfig(players=3, variant="trickster", start_seat=2)


def fixed_clock():
    return "2026-11-21T12:00:00.000Z"


def play(table: RecordedGame, seed=4, physical=True, stop_after=None):
    """Drive a recorded game with scripted players; return the number of events applied."""
    players = {s: ScriptedPlayer() for s in table.game.eyes}
    count = 0
    while (event := next_scripted_event(table.game, players, seed, physical=physical)) is not None:
        if stop_after is not None and count == stop_after:
            break
        table.apply(event)
        count += 1
    return count


@pytest.fixture
def finished(tmp_path):
    path = tmp_path / "game.jsonl"
    table = RecordedGame.start(path, CONFIG, {"device": "test"}, clock=fixed_clock)
    play(table)
    return path, table


def lines_of(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path, lines, rechain=True):
    """Write lines back, recomputing the hash chain when asked (a careful forger)."""
    out, prev = [], None
    for seq, line in enumerate(lines):
        if rechain:
            line = {k: v for k, v in line.items() if k != "hash"}
            line.update(seq=seq, prev=prev)
            line["hash"] = _sha256(_canonical(line))
        text = _canonical(line)
        out.append(text)
        prev = _sha256(text)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_a_recorded_game_replays_to_the_same_state(finished):
    path, table = finished
    record = read_record(path)
    assert table.game.winner is not None
    assert arbiter_state(record.game) == arbiter_state(table.game)
    assert record.fingerprint == table.writer.fingerprint
    kinds = {line["kind"] for line in record.lines}
    assert kinds == {"setup", "action", "observation", "resolution"}
    assert record.meta == {"device": "test"}


def test_every_line_is_chained_to_the_one_before(finished):
    path, _ = finished
    raw = path.read_text(encoding="utf-8").splitlines()
    for before, line in zip(raw, raw[1:]):
        assert json.loads(line)["prev"] == _sha256(before)


def test_replay_command_prints_the_final_state(finished):
    path, table = finished
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["winner"] == table.game.winner
    assert state["phase"] == "over"
    assert state["record"]["fingerprint"] == table.writer.fingerprint
    short = table.writer.fingerprint[:8]
    ok = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path), "--expect", short],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0


def _replay_error(path):
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    return done.stderr.strip()


def test_an_edited_line_is_detected(finished):
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "bid")
    lines[target]["event"]["amount"] += 1
    write_lines(path, lines, rechain=False)
    assert f"line {target + 1}: its content does not match its hash" in _replay_error(path)


def test_a_rehashed_edit_breaks_the_chain(finished):
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "bid")
    lines[target]["event"]["amount"] += 1
    body = {k: v for k, v in lines[target].items() if k != "hash"}
    lines[target]["hash"] = _sha256(_canonical(body))
    write_lines(path, lines, rechain=False)
    assert f"line {target + 2}: does not follow the line before it" in _replay_error(path)


def test_reordered_and_removed_lines_are_detected(finished, tmp_path):
    path, _ = finished
    lines = lines_of(path)
    swapped = lines[:3] + [lines[4], lines[3]] + lines[5:]
    write_lines(path, swapped, rechain=False)
    assert "line 4: sequence number 4, expected 3" in _replay_error(path)
    write_lines(path, lines[:3] + lines[4:], rechain=False)
    assert "line 4: sequence number 4, expected 3" in _replay_error(path)


def test_a_forged_illegal_action_is_rejected_with_the_rule(finished):
    """Even with a perfect hash chain, the rules catch an impossible game."""
    path, _ = finished
    lines = lines_of(path)
    bids = [i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "bid"]
    second = bids[1]
    lines[second]["event"]["amount"] = lines[bids[0]]["event"]["amount"]
    write_lines(path, lines)
    message = _replay_error(path)
    assert f"line {second + 1}: illegal action: seat" in message and "must bid more than" in message


def test_a_forged_verdict_is_rejected(finished):
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line["kind"] == "resolution")
    result = lines[target]["result"]
    result["winner"], result["loser"] = result["loser"], result["winner"]
    write_lines(path, lines)
    assert f"line {target + 1}: the recorded resolution differs" in _replay_error(path)


def test_a_cut_record_is_rejected_and_the_fingerprint_catches_removed_tails(finished):
    path, table = finished
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    assert "the last line is incomplete" in _replay_error(path)
    lines = data.decode().splitlines(keepends=True)
    path.write_text("".join(lines[:-3]), encoding="utf-8")  # whole lines removed from the end
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path), "--expect",
                           table.writer.fingerprint[:8]], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "does not match" in done.stderr


@pytest.mark.parametrize("content,reason", [
    (b"", "is empty"),
    (b"not json\n", "line 1: not valid JSON"),
    (b"[1, 2]\n", "line 1: a line must be a JSON object"),
    (b"\xff\xfe\n", "line 1: not valid JSON"),
])
def test_bad_files_get_a_clear_message(tmp_path, content, reason):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    assert reason in _replay_error(path)


def test_a_missing_file_gets_a_clear_message(tmp_path):
    assert "cannot read" in _replay_error(tmp_path / "nope.jsonl")


def test_foreign_and_joined_records_are_rejected(finished, tmp_path):
    path, _ = finished
    lines = lines_of(path)
    foreign = [dict(lines[0], format="something-else")] + lines[1:]
    write_lines(path, foreign)
    assert "not a coyote-pi game record" in _replay_error(path)
    joined = lines[:5] + [lines[0]] + lines[5:]
    write_lines(path, joined)
    assert "line 6: a second setup line" in _replay_error(path)


def test_records_are_never_overwritten(finished):
    path, _ = finished
    with pytest.raises(FileExistsError):
        RecordWriter.create(path, CONFIG)


def test_an_illegal_action_writes_nothing(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=2)
    before = path.read_bytes()
    with pytest.raises(IllegalAction):
        table.apply(Challenge(table.game.turn % 3 + 1))  # not that seat's turn
    assert path.read_bytes() == before


def test_each_event_is_fsynced_before_apply_returns(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    play(table, stop_after=3)
    assert len(synced) == 3
    assert len(read_record(path, allow_torn_tail=True).lines) == 4


def test_a_failed_write_does_not_count(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=2)
    state = arbiter_state(table.game)
    seat = table.game.turn

    def full_disk(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError):
        table.apply(Bid(seat, 99))
    monkeypatch.undo()
    assert arbiter_state(table.game) == state
    table.apply(Bid(seat, 99))  # the device carries on once the disk is back
    assert read_record(path).game.round.bid == 99


def test_resume_after_a_torn_write(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=6)
    state = arbiter_state(table.game)
    with open(path, "ab") as handle:
        handle.write(b'{"seq": 7, "kind": "act')  # power cut in the middle of a write
    resumed = RecordedGame.resume(path)
    assert arbiter_state(resumed.game) == state
    assert (tmp_path / "g.jsonl.torn").read_bytes() == b'{"seq": 7, "kind": "act'
    play(resumed)  # and the game goes on to its end, with a valid record
    assert read_record(path).game.winner is not None


def test_resume_writes_a_resolution_lost_in_a_crash(finished):
    path, table = finished
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["kind"] == "resolution"
    path.write_text("".join(lines[:-1]), encoding="utf-8")
    with pytest.raises(RecordError, match="ends before the resolution"):
        read_record(path)
    resumed = RecordedGame.resume(path)
    assert read_record(path).game.winner == table.game.winner == resumed.game.winner


def test_undo_is_recorded_and_replayed(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=1)  # the deal
    seat = table.game.turn
    table.apply(Bid(seat, 7))
    table.apply(Undo(seat))
    table.apply(Bid(seat, 4))
    record = read_record(path)
    assert record.undone == [4]
    assert [line["event"]["type"] for line in record.lines[1:]] == ["deal", "bid", "undo", "bid"]
    assert record.game.round.bids == [(seat, 4)]
