"""A game's state on the page is what ``coyote-pi replay`` says of its record: a real game's
record cut at every line boundary and in the middle of every line, as the newest game
of the folder (the table may still finish it) and as an older one (it can never be
finished); a record that does not replay; and the download with its check command."""

from __future__ import annotations

import html
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from coyote_pi.record import RecordError, read_record
from coyote_pi.web.bulletin import Folders
from coyote_pi.web.games import Games, GameState, Summary

from .conftest import PIN, Client, served, spectated


@pytest.fixture(scope="module")
def finished_record(tmp_path_factory) -> bytes:
    """The bytes of a whole 3-player Trickster game, written as the table writes it."""
    root = tmp_path_factory.mktemp("played")
    game = spectated(root, players=3, variant="trickster", seed=11, photo=b"a reveal")
    game.play_to_end()
    assert game.game.winner is not None
    return game.path.read_bytes()


def cuts(data: bytes) -> list[int]:
    """Every line boundary of ``data`` and the middle of every line."""
    ends = [index + 1 for index, byte in enumerate(data) if byte == 0x0A]
    starts = [0, *ends[:-1]]
    return sorted(set(ends) | {(start + end) // 2 for start, end in zip(starts, ends)})


def page_summary(folder: Path, data: bytes, *, newer_game: bool) -> tuple[Summary, Path]:
    folder.mkdir(parents=True)
    path = folder / "game-0001.jsonl"
    path.write_bytes(data)
    if newer_game:
        (folder / "game-0002.jsonl").write_bytes(data.split(b"\n")[0] + b"\n")
    loaded = Games(folder).load("game-0001")
    assert loaded is not None
    return loaded.summary, path


def replay_says(path: Path):
    try:
        return read_record(path), None
    except RecordError as error:
        return None, error


@pytest.mark.parametrize("newer_game", [False, True], ids=["newest", "a newer game exists"])
def test_the_page_shows_every_cut_of_a_real_game_as_replay_judges_it(tmp_path, finished_record, newer_game):
    checked = {state: 0 for state in GameState}
    for cut in cuts(finished_record):
        data = finished_record[:cut]
        summary, path = page_summary(tmp_path / str(cut), data, newer_game=newer_game)
        record, refusal = replay_says(path)
        where = f"cut at byte {cut} of {len(finished_record)}"
        checked[summary.state] += 1
        # Never a verdict the record does not hold: a winner only for a game replay accepts as won.
        assert (summary.state == GameState.FINISHED) == (record is not None and record.game.winner is not None), where
        assert summary.winner == (record.game.winner if summary.finished and record else None), where
        assert summary.checkable == (record is not None), where
        if record is not None:
            # The fingerprint the records page offers is the one replay --expect accepts.
            assert summary.fingerprint == record.fingerprint and summary.lines == len(record.lines), where
            assert summary.rounds == len({result.round for result in record.game.results}), where
            expected = GameState.FINISHED if record.game.winner else (
                GameState.LEFT_UNFINISHED if newer_game else GameState.IN_PROGRESS)
            assert summary.state == expected, where
            if expected == GameState.LEFT_UNFINISHED:
                assert summary.end_line == len(record.lines), where
        else:
            assert refusal is not None and summary.error == str(refusal), where
            if b"\n" not in data:  # not even its setup line: nothing to show but replay's words
                assert summary.state == GameState.INVALID, where
                continue
            assert summary.state == (GameState.ENDED_EARLY if newer_game else GameState.IN_PROGRESS), where
            if newer_game:
                assert summary.end_line == refusal.line, where
            # What is shown of it holds only the verdicts whose resolution lines are in the file.
            shown = Games(path.parent).load("game-0001")
            assert shown is not None and shown.record is not None
            resolutions = sum(b'"kind":"resolution"' in line for line in data.split(b"\n") if line.endswith(b"}"))
            assert len(shown.record.game.results) <= resolutions, where
    assert checked[GameState.FINISHED] >= 1
    if newer_game:
        assert checked[GameState.ENDED_EARLY] and checked[GameState.LEFT_UNFINISHED]
    else:
        assert checked[GameState.IN_PROGRESS] > 10


def test_a_game_cut_before_its_last_resolution_is_never_shown_won(tmp_path, finished_record):
    """The issue's case: the record ends after the opening line of the final challenge."""
    lines = finished_record.split(b"\n")[:-1]
    opening = max(number for number, line in enumerate(lines) if b'"kind":"opening"' in line)
    cut = b"\n".join(lines[:opening + 1]) + b"\n"
    for newer_game, state in ((False, "in_progress"), (True, "ended_early")):
        root = tmp_path / state
        summary, _ = page_summary(root / "games", cut, newer_game=newer_game)
        assert summary.state == state and summary.winner is None
        with served(Folders.beside(root / "games")) as port:
            client = Client(port)
            history = client.get("/history").text
            row = re.search(r'<li data-game="game-0001".*?</li>', history, re.S)
            assert row is not None
            assert "won" not in row.group(0)
            records = client.get("/records").text
            section = re.search(r'<section class="record" id="game-0001">.*?</section>', records, re.S)
            assert section is not None and "--expect" not in section.group(0)
            if newer_game:
                assert f"ended early at line {opening + 1}" in row.group(0)
                assert "the record ends before the resolution of its last challenge" in section.group(0)


def test_an_abandoned_game_says_it_was_left_unfinished(tmp_path, finished_record):
    lines = finished_record.split(b"\n")[:-1]
    first_verdict = next(number for number, line in enumerate(lines) if b'"kind":"resolution"' in line)
    summary, _ = page_summary(tmp_path / "games", b"\n".join(lines[:first_verdict + 1]) + b"\n", newer_game=True)
    with served(Folders.beside(tmp_path / "games")) as port:
        history = Client(port).get("/history").text
    assert summary.state == GameState.LEFT_UNFINISHED
    assert f"left unfinished at line {first_verdict + 1}: a newer game was started" in history
    assert "in progress" not in re.search(r'<li data-game="game-0001".*?</li>', history, re.S).group(0)


def test_a_record_that_does_not_replay_shows_its_setup_and_says_so_on_its_round_pages(tmp_path, finished_record):
    lines = finished_record.split(b"\n")[:-1]
    broken = b"\n".join([lines[0], lines[1].replace(b'"seq":1', b'"seq":7'), *lines[2:]]) + b"\n"
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "game-0002.jsonl").write_bytes(broken)
    _, refusal = replay_says(folder / "game-0002.jsonl")
    assert refusal is not None
    with served(Folders.beside(folder)) as port:
        client = Client(port)
        history = client.get("/history").text
        page = client.get("/history/game-0002").text
        round_page = client.get("/history/game-0002/round/1")
    row = re.search(r'<li data-game="game-0002".*?</li>', history, re.S).group(0)
    assert "game-0002: 3 players, Trickster" in html.unescape(row) and "0 players" not in row
    assert html.escape(f"This record does not replay: {refusal}", quote=False) in row
    assert "game-0002: 3 players" in page
    assert round_page.status == 404
    assert html.escape(f"This record does not replay: {refusal}", quote=False) in round_page.text
    assert "No such round" not in round_page.text


def test_the_check_command_as_shown_passes_where_the_download_is_unzipped(tmp_path):
    game = spectated(tmp_path, players=3, variant="trickster", seed=11, photo=b"a reveal")
    game.play_to_end()
    game.set_pin(PIN)
    with served(Folders.beside(tmp_path / "games")) as port:
        client = Client(port)
        client.login()
        records = client.get("/records").text
        download = client.get("/records/game-0001.zip")
    assert download.status == 200
    shown = re.search(r'<pre class="command">(.*?)</pre>', records, re.S)
    assert shown is not None
    command = shlex.split(html.unescape(re.sub(r"<[^>]+>", "", shown.group(1))))
    assert command[:2] == ["coyote-pi", "replay"] and "--expect" in command and "--photos" in command
    unzipped = tmp_path / "downloads"
    unzipped.mkdir()
    (unzipped / "game-0001.zip").write_bytes(download.body)
    with zipfile.ZipFile(unzipped / "game-0001.zip") as archive:
        archive.extractall(unzipped)
    done = subprocess.run([sys.executable, "-m", "coyote_pi", *command[1:]], cwd=unzipped, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "fingerprint matches" in done.stderr


def test_a_record_gone_before_its_zip_is_made_is_missing_not_a_server_error(tmp_path, monkeypatch):
    game = spectated(tmp_path, players=3, variant="trickster", seed=11)
    game.play_to_end()
    game.set_pin(PIN)
    # Between the page's look at the folder and the zip: the record is removed (Games.archive: None).
    monkeypatch.setattr(Games, "archive", lambda self, name: None)
    with served(Folders.beside(tmp_path / "games")) as port:
        client = Client(port)
        client.login()
        download = client.get("/records/game-0001.zip")
    assert download.status == 404
    assert "No such game" in download.text
