"""The table when its record fails: a full or unwritable disk, a damaged or deleted record,
a second table on the same folder, a bad record folder, a restart after the game's end;
and the record's fingerprint and QR code on the OLED."""

from __future__ import annotations

import errno
import time

import pytest
from PIL import Image
from pyzbar.pyzbar import decode

from coyote_pi.cli import main as coyote_pi
from coyote_pi.devices.render import ScreenRenderer
from coyote_pi.engine import GameConfig
from coyote_pi.record import fingerprint_qr, read_record
from coyote_pi.sim.presser import QueueFingers
from coyote_pi.table import screens, store
from coyote_pi.table.rig import resume_or_none
from coyote_pi.table.selector import ChoiceKind
from coyote_pi.words.translator import CATALOGUE, LANGUAGES, Translator

from .conftest import fast_sim, game_events, play, running_table, table_config


def _bid_until_turn(spy, fingers, seat: int):
    """Seat 1 bids; the table then waits for ``seat``."""
    spy.wait_for(lambda p: p.stage == "turn" and p.seats == (1,))
    fingers.tap(1, "ok")
    return spy.wait_for(lambda p: p.stage == "turn" and p.seats == (seat,))


def _at_verdict(spy, fingers) -> None:
    """Seat 1 bids, seat 2 doubts it: the verdict of round 1."""
    _bid_until_turn(spy, fingers, 2)
    fingers.tap(2, "minus")
    spy.wait_for(lambda p: p.choice is not None and p.choice.kind == ChoiceKind.CHALLENGE)
    fingers.tap(2, "ok")
    spy.wait_for(lambda p: p.stage == "verdict")


def _wait_until(test, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "the table never got there"
        time.sleep(0.01)


def _unsaved(stage, screen) -> bool:
    return screen.alert and screen.title == "Not saved: try again"


def test_a_full_disk_says_so_until_a_write_works_and_nothing_counts_meanwhile(tmp_path, failing_disk):
    config = table_config(tmp_path, 3)
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        turn = _bid_until_turn(spy, fingers, 2)
        path = rig.controller.state.recorded.path
        on_disk = path.read_bytes()
        disk = failing_disk(tmp_path)
        disk.failing = True
        fingers.tap(2, "ok")  # seat 2's bid cannot be written
        spy.wait_for_screen(_unsaved)
        fingers.tap(2, "plus")  # the table goes on asking seat 2, still saying it is not saved
        spy.wait_for_screen(lambda stage, screen: _unsaved(stage, screen) and screen.big == str(turn.choice.amount + 1))
        fingers.tap(2, "ok")  # and again: nothing counts
        _wait_until(lambda: sum("NOT SAVED" in line for line in spy.lines) == 2)
        assert rig.controller.game.turn == 2 and len(rig.controller.game.history) == len(turn.history)
        assert path.read_bytes() == on_disk  # no fragment left behind
        disk.failing = False
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (3,))
        shown = spy.screens[-1][1]  # the screen comes before the prompt
        assert not shown.alert and shown.title != "Not saved: try again"
        assert [event["type"] for event in game_events(path)] == ["deal", "bid", "bid"]
        assert any("NOT SAVED" in line for line in spy.lines)


def test_a_note_that_cannot_be_written_is_shown_and_does_not_stop_the_table(tmp_path, failing_disk):
    config = table_config(tmp_path, 2)
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        _at_verdict(spy, fingers)
        disk = failing_disk(tmp_path, errno.EACCES)
        disk.failing = True
        fingers.tap(1, "ok")  # "verdict seen" is a note: it cannot be written
        spy.wait_for_screen(_unsaved)
        assert rig.controller.state.stage == "verdict" and not rig.controller.state.memory.verdicts_seen
        disk.failing = False
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "deal")
    notes = [line["note"] for line in read_record(rig.controller.state.recorded.path).lines if line["kind"] == "note"]
    assert [note for note in notes if note["table"] == "verdict_seen"] == [{"round": 1, "table": "verdict_seen"}]


def test_a_record_deleted_while_running_is_told_and_no_other_file_is_written(tmp_path):
    config = table_config(tmp_path, 3)
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        _bid_until_turn(spy, fingers, 2)
        rig.controller.state.recorded.path.unlink()
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "record")
        screen = spy.wait_for_screen(lambda stage, screen: stage == "record")
        assert (screen.title, screen.big) == ("Record deleted", "ok: new game")
        assert list(tmp_path.glob("game-*")) == []
        fingers.tap(3, "ok")  # a person answers: a new game, with a record of its own
        spy.wait_for(lambda p: p.stage == "deal")
    assert read_record(tmp_path / "game-0001.jsonl").game.round_number == 0


def _stopped_at_second_turn(config):
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        _bid_until_turn(spy, QueueFingers(rig.controller.queue), 2)
    return rig.controller.state.recorded.path


@pytest.mark.parametrize("damage", [b"\n", b"garbage\n", b"\x00" * 64 + b"\n"], ids=["newline", "garbage", "NUL"])
def test_a_damaged_record_resumes_after_a_person_has_seen_what_was_set_aside(tmp_path, damage):
    config = table_config(tmp_path, 3)
    path = _stopped_at_second_turn(config)
    whole = path.read_bytes()
    path.write_bytes(whole + damage)
    table = resume_or_none(config, new=False)
    assert isinstance(table, tuple) and table[0].path == path  # the same game, not a new one
    with running_table(config, fast_sim(players=False), resumed=table) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "record")
        screen = spy.wait_for_screen(lambda stage, screen: stage == "record")
        assert screen.title == "Record repaired" and "game-0001.jsonl.damaged" in screen.lines[0]
        QueueFingers(rig.controller.queue).tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (2,))
    assert (tmp_path / "game-0001.jsonl.damaged").read_bytes() == damage
    assert read_record(path).lines[-1]["note"]["record"] == "damaged_end_set_aside"
    assert sorted(p.name for p in tmp_path.glob("game-*.jsonl")) == ["game-0001.jsonl"]


def test_scripted_players_answer_a_record_problem_and_play_on(tmp_path):
    config = table_config(tmp_path, 3)
    path = _stopped_at_second_turn(config)
    path.write_bytes(path.read_bytes() + b"\n")
    played = play(config, sim=fast_sim(1), resumed=resume_or_none(config, new=False))
    assert played.path == path and played.game.winner is not None
    assert any(prompt.stage == "record" for prompt in played.spy.prompts)


def test_a_record_that_cannot_be_resumed_is_kept_and_a_person_starts_the_next_game(tmp_path):
    config = table_config(tmp_path, 2)
    path = tmp_path / "game-0001.jsonl"
    path.write_bytes(b"\x00" * 200 + b"\n")  # not even a setup line
    table = resume_or_none(config, new=False)
    assert isinstance(table, store.Unresumable) and table.path == path
    with running_table(config, fast_sim(players=False), resumed=table) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "record")
        screen = spy.wait_for_screen(lambda stage, screen: stage == "record")
        assert screen.title == "Record unreadable" and "game-0001.jsonl" in screen.lines[0]
        assert not (tmp_path / "game-0002.jsonl").exists()  # never a new game by itself
        QueueFingers(rig.controller.queue).tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "deal")
    assert path.read_bytes() == b"\x00" * 200 + b"\n"
    assert rig.controller.state.recorded.path.name == "game-0002.jsonl"


def test_a_finished_game_is_shown_with_its_fingerprint_after_a_restart(tmp_path):
    config = table_config(tmp_path, 2)
    played = play(config, sim=fast_sim(5))
    table = resume_or_none(config, new=False)
    assert isinstance(table, tuple) and table[0].game.winner == played.game.winner
    with running_table(config, fast_sim(players=False), resumed=table, new_game_when_over=True) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        spy.wait_for(lambda p: p.stage == "verdict")  # the last verdict, since nobody may have seen it
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "over")
        shown = spy.wait_for_screen(lambda stage, screen: screen.title == "Record fingerprint")
        assert shown.big.replace("\n", "-") == played.record.fingerprint
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "deal")  # a person started the next game
    assert rig.controller.state.recorded.path.name == "game-0002.jsonl"


def _runs(flags: list[bool]) -> list[int]:
    """The lengths of the runs of True in ``flags``."""
    runs, length = [], 0
    for flag in flags + [False]:
        if flag:
            length += 1
        elif length:
            runs, length = runs + [length], 0
    return runs


@pytest.mark.parametrize("fingerprint", ["WWWW-WWWW-WWWW-WWWW", "MR5Y-0STY-F59G-D3CP"])  # the widest, a usual one
def test_the_fingerprint_is_two_groups_a_line_in_large_type(fingerprint):
    renderer = ScreenRenderer((128, 64))
    for language in LANGUAGES:
        screen = screens.fingerprint_screen(Translator(language), fingerprint)
        assert screen.big == fingerprint[:9] + "\n" + fingerprint[10:]
        image = renderer.render(screen)
        band = range(renderer.TITLE_HEIGHT, 64 - renderer.LINE_PITCH)  # between the title and the hint line
        lit_rows = [any(image.getpixel((x, y)) for x in range(128)) for y in band]
        lit_columns = [any(image.getpixel((x, y)) for y in band) for x in range(128)]
        assert [run >= 9 for run in _runs(lit_rows)] == [True, True]  # two lines of capitals, 9 px or more
        assert not lit_columns[0] and not lit_columns[-1]  # nothing cut at the edges (no ellipsis either)


def _decoded(image: Image.Image) -> list[str]:
    """What a phone would read: the panel, its dark border around it, photographed large."""
    border = 24
    photo = Image.new("L", (image.width + 2 * border, image.height + 2 * border), 0)
    photo.paste(image.convert("L"), (border, border))
    photo = photo.resize((photo.width * 4, photo.height * 4), Image.NEAREST)
    return [symbol.data.decode("ascii") for symbol in decode(photo)]


@pytest.mark.parametrize("size", [(128, 64), (256, 128)])
def test_the_qr_code_on_the_panel_reads_back_as_the_full_hash(size):
    digest = "0f" * 32
    image = ScreenRenderer(size).render(screens.qr_screen(digest))
    assert _decoded(image) == [fingerprint_qr(digest)]


def test_minus_plus_shows_the_qr_code_at_the_verdict_and_ok_takes_it_down(tmp_path):
    config = table_config(tmp_path, 2)
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        _at_verdict(spy, fingers)
        # The verdict's pages turn by themselves; on its last one, the fingerprint, minus+plus
        # asks for the QR code (on the other pages it offers to correct a card).
        spy.wait_for_screen(lambda stage, screen: stage == "verdict" and screen.title == "Record fingerprint")
        fingers.chord(1)
        qr = spy.wait_for_screen(lambda stage, screen: bool(screen.qr))
        digest = rig.controller.state.recorded.writer.last_hash
        assert _decoded(ScreenRenderer().render(qr)) == [fingerprint_qr(digest)]
        assert "-".join(qr.lines) == rig.controller.state.recorded.writer.fingerprint
        fingers.tap(2, "ok")  # takes the code down, and only that
        spy.wait_for_screen(lambda stage, screen: stage == "verdict" and not screen.qr)
        assert rig.controller.state.stage == "verdict"


def test_record_screens_fit_their_titles_in_every_language():
    renderer = ScreenRenderer((128, 64))
    width = renderer.width - 2 * renderer.margin
    for language in LANGUAGES:
        tr = Translator(language)
        titles = [tr(key) for key in CATALOGUE if key.startswith(("record.", "fingerprint.title")) and key.endswith(
            ("title", "unsaved"))]
        assert len(titles) == 6
        assert [t for t in titles if renderer.small_bold.getlength(t) > width] == []


# ------------------------------------------------------------------ the record folder


def _run(folder, *more) -> int:
    return coyote_pi(["run", "--sim", "--scripted", "--no-view", "--record-dir", str(folder), "--players", "2",
                      "--seed", "3", "--camera-size", "640x360", *more])


def test_a_second_table_on_the_same_folder_is_refused_in_one_line(tmp_path, capsys):
    with store.lock_folder(tmp_path / "sim"):  # `run --sim` keeps its records in DIR/sim
        assert _run(tmp_path) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "in use by another coyote-pi" in error
    assert not list((tmp_path / "sim").glob("game-*"))


def test_the_folder_lock_is_exclusive_and_released(tmp_path):
    with store.lock_folder(tmp_path), pytest.raises(store.RecordFolderError,
                                                     match=r"in use by another coyote-pi \(pid \d+\)"):
        store.lock_folder(tmp_path)
    store.lock_folder(tmp_path).release()


def test_a_record_folder_that_is_a_file_is_a_one_line_error(tmp_path, capsys):
    not_a_folder = tmp_path / "records"
    not_a_folder.write_text("oops", encoding="utf-8")
    assert _run(not_a_folder) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "record folder" in error and "Traceback" not in error
    with pytest.raises(store.RecordFolderError, match="is not a folder"):
        store.lock_folder(not_a_folder)


def test_a_record_folder_that_is_not_writable_is_a_one_line_error(tmpfs, capsys):
    read_only_folder = tmpfs("ro,size=64k")  # even root cannot write there
    assert _run(read_only_folder) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "record folder" in error and "Traceback" not in error
    with pytest.raises(store.RecordFolderError, match="is not a writable folder: Read-only file system"):
        store.lock_folder(read_only_folder)


def test_a_new_record_that_cannot_be_written_waits_for_ok_and_tries_again(tmp_path, failing_disk):
    config = table_config(tmp_path, 2)
    disk = failing_disk(tmp_path)
    disk.failing = True
    with running_table(config, fast_sim(players=False), new_game_when_over=True) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "record")
        screen = spy.wait_for_screen(lambda stage, screen: stage == "record")
        assert (screen.title, screen.big) == ("Cannot save", "ok: try again")
        assert not list(tmp_path.glob("game-*"))
        disk.failing = False
        QueueFingers(rig.controller.queue).tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "deal")
    assert read_record(tmp_path / "game-0001.jsonl").game.config == GameConfig(players=2, start_seat=1)

