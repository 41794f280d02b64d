"""RecordFollower: a growing record read line by line gives what read_record gives."""

from __future__ import annotations

import pytest

from coyote_pi.engine.game import GameConfig
from coyote_pi.record import RecordError, RecordFollower, read_record
from coyote_pi.sim.spectated import SpectatedGame


def same(followed, read) -> None:
    assert (followed.fingerprint, len(followed.lines), followed.open_round) == (
        read.fingerprint, len(read.lines), read.open_round)
    assert [r.to_dict() for r in followed.game.results] == [r.to_dict() for r in read.game.results]
    assert followed.game.phase == read.game.phase


def test_following_a_game_line_by_line_reads_what_replay_reads(tmp_path):
    game = SpectatedGame(tmp_path / "games", tmp_path / "public", GameConfig(3, "trickster"), 5)
    follower = RecordFollower(game.path)
    opened = 0
    while game.step() is not None:
        read = read_record(game.path, allow_torn_tail=True)
        same(follower.update(), read)
        opened += read.open_round is not None
    assert opened > 10 and follower.update().game.winner is not None


def test_an_unfinished_line_waits_and_a_replaced_file_is_read_afresh(tmp_path):
    game = SpectatedGame(tmp_path / "games", tmp_path / "public", GameConfig(2, "basic"), 3)
    for _ in range(5):
        game.step()
    follower = RecordFollower(game.path)
    lines = len(follower.update().lines)
    with open(game.path, "ab") as file:
        file.write(b'{"half a line')
    assert len(follower.update().lines) == lines
    data = game.path.read_bytes()
    game.path.unlink()
    game.path.write_bytes(data[: data.index(b"\n") + 1])  # another file: the setup line alone
    assert len(follower.update().lines) == 1
    game.path.write_bytes(b"not a record\n")
    with pytest.raises(RecordError):
        follower.update()
