"""Killed at any moment and restarted, the table resumes the same game with nothing lost.

In-process crashes: a :class:`Crash` (a BaseException nothing in the table catches) is
raised at chosen points: just before a record write, halfway through one (a torn line,
as a power cut leaves it), just after one (on disk, never shown), and while a button
press is being handled. After each crash the table is rebuilt from the record folder,
as a restarted service would, with new simulated hands and players that see only the
table and the prompts. The finished game must equal the same seed played without crashes.

A real ``kill -9`` of ``coyote-pi run --sim --scripted`` in a child process checks the
same of the command the service runs.
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from coyote_pi.record import RecordWriter, Vault, read_record
from coyote_pi.sim.presser import QueueFingers
from coyote_pi.sim.rig import open_sim_rig
from coyote_pi.table.controller import Controller
from coyote_pi.table.rig import resume_newest, resume_or_none
from coyote_pi.table.store import Unresumable
from coyote_pi.words.translator import Translator

from .conftest import Spy, fast_sim, game_events, play, run_rig, running_table, same_game, sim_devices, table_config

EN = Translator("en")


class Crash(BaseException):
    """The process dies here (raised through everything, like a kill)."""


class CrashPlan:
    """Raises :class:`Crash` at the n-th record write (``writes``: n -> "before", "torn" or
    "after") and before handling the n-th button press (``presses``), counted across restarts."""

    WRITE_MODES = ("before", "torn", "after")

    def __init__(self, writes: dict[int, str], presses: set[int] = frozenset()) -> None:
        self.writes = dict(writes)
        self.presses = set(presses)
        self._writes = itertools.count(1)
        self._presses = itertools.count(1)
        self.crashes: list[str] = []

    def install(self, monkeypatch) -> None:
        plan, write, press = self, RecordWriter._append, Controller._on_button

        def append(writer, bodies):
            mode = plan.writes.get(next(plan._writes))
            if mode == "before":
                plan._crash(mode)
            write(writer, bodies)
            if mode == "torn":  # cut the line just written in half, as a power cut would
                data = writer.path.read_bytes()
                start = data.rstrip(b"\n").rfind(b"\n") + 1
                writer.path.write_bytes(data[: start + (len(data) - start) // 2])
            if mode in ("torn", "after"):
                plan._crash(mode)

        def on_button(controller, event):
            if next(plan._presses) in plan.presses:
                plan._crash("press")
            press(controller, event)

        monkeypatch.setattr(RecordWriter, "_append", append)
        monkeypatch.setattr(Controller, "_on_button", on_button)

    def _crash(self, mode: str) -> None:
        self.crashes.append(mode)
        raise Crash(mode)

    @property
    def planned(self) -> int:
        return len(self.writes) + len(self.presses)


def _play_through_crashes(config, seed: int, plan: CrashPlan) -> Path:
    """Start the table, and restart it after every crash, until the game is over."""
    for epoch in range(plan.planned + 2):
        spy = Spy()
        rig = open_sim_rig(config, sim_devices(), fast_sim(seed, misclick=True), resumed=resume_or_none(config, new=False),
                           listeners=[spy], epoch=epoch)
        try:
            run_rig(rig, spy, timeout=60)
            return rig.controller.state.recorded.path
        except Crash:
            continue
        finally:
            rig.close()
    pytest.fail("more restarts than crashes")


@pytest.mark.parametrize("variant,players,seed", [("basic", 3, 5), ("trickster", 4, 9)])
def test_crashes_at_many_points_lose_nothing(tmp_path, monkeypatch, variant, players, seed):
    reference = play(table_config(tmp_path / "reference", players, variant), sim=fast_sim(seed, misclick=True))
    writes = len(reference.record.lines)
    presses = sum(1 for line in reference.spy.lines if "presses" in line)
    chooser = random.Random(seed)
    modes = itertools.cycle(CrashPlan.WRITE_MODES)
    plan = CrashPlan({n: next(modes) for n in sorted(chooser.sample(range(2, writes), 9))},
                     set(chooser.sample(range(1, presses), 6)))
    plan.install(monkeypatch)

    path = _play_through_crashes(table_config(tmp_path / "crashing", players, variant), seed, plan)

    assert len(plan.crashes) >= 12, plan.crashes  # most planned points were reached before the end
    assert {"press", "before", "torn", "after"} <= set(plan.crashes)
    assert same_game(path) == same_game(reference.path)  # nothing lost, nothing twice, same ending
    crashed = read_record(path)
    assert crashed.game.winner == reference.game.winner
    assert [r.to_dict() for r in crashed.game.results] == [r.to_dict() for r in reference.game.results]
    assert sum(1 for event in game_events(path) if event["type"] == "undo") == 1  # the undo survived too


def test_a_torn_last_line_is_set_aside_on_resume(tmp_path, monkeypatch):
    plan = CrashPlan({6: "torn"})
    plan.install(monkeypatch)
    config = table_config(tmp_path, 2)
    path = _play_through_crashes(config, 4, plan)
    assert plan.crashes == ["torn"]
    assert path.with_name(path.name + ".torn").exists()
    assert read_record(path).game.winner is not None


def test_the_verdict_is_shown_again_if_the_table_stopped_before_anyone_saw_it(tmp_path):
    config = table_config(tmp_path, 2)
    with running_table(config, fast_sim(2, players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        spy.wait_for(lambda p: p.stage == "turn")
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (2,))
        fingers.tap(2, "minus")
        spy.wait_for(lambda p: p.choice is not None and p.choice.kind == "challenge")
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "verdict")
    with running_table(config, fast_sim(2, players=False), resumed=resume_or_none(config, new=False)) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "verdict")
        QueueFingers(rig.controller.queue).tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "deal")
    assert {"table": "verdict_seen", "round": 1} in [line.get("note") for line in read_record(rig.controller.state.recorded.path).lines]


FAST_TOML = """
[table]
camera_interval = 0.05
page_seconds = 0.5
message_seconds = 0.3

[buttons]
debounce_ms = 20
hold_ms = 300
repeat_ms = 80
"""


def _run_sim(folder: Path, config: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "coyote_pi", "run", "--sim", "--scripted", "--no-view", "--config", str(config),
               "--record-dir", str(folder), "--players", "3", "--seed", "12", "--camera-size", "1280x720"]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_kill_9_of_run_sim_resumes_the_same_game(tmp_path):
    config = tmp_path / "fast.toml"
    config.write_text(FAST_TOML, encoding="utf-8")
    record = tmp_path / "records" / "sim" / "game-0001.jsonl"

    first = _run_sim(tmp_path / "records", config)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not record.exists() or record.read_bytes().count(b"\n") < 18):
        if first.poll() is not None:
            pytest.fail(f"run --sim ended early: {first.stderr.read()}")
        time.sleep(0.05)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    lines_at_kill = record.read_bytes().count(b"\n")
    assert first.returncode == -signal.SIGKILL and lines_at_kill >= 18

    second = _run_sim(tmp_path / "records", config)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert "resuming" in err and "wins" in out
    assert not (tmp_path / "records" / "sim" / "game-0002.jsonl").exists()

    finished = read_record(record)
    assert len(finished.lines) > lines_at_kill
    # The seed, from which every deal follows, stays out of the record: the service keeps it.
    assert "seed" not in finished.meta and Vault(record).read(Vault.SETUP)["seed"] == 12
    # The same seed on the in-process fast path (the sim's start seat is 1 + seed % players).
    reference = play(table_config(tmp_path / "reference", 3, "basic", start=1 + 12 % 3), sim=fast_sim(12))
    assert same_game(record) == same_game(reference.path)


def test_a_newest_record_that_cannot_be_resumed_is_named_where_it_stays_visible(tmp_path):
    config = table_config(tmp_path, 2, start=None)
    (tmp_path / "game-0001.jsonl").write_text("not a record\n", encoding="utf-8")
    resumption = resume_newest(config, new=False)
    # The table waits on its "Record unreadable" screen (test_record_problems.py); once a
    # person starts a new game, its first screens still name the record not resumed.
    assert isinstance(resumption.table, Unresumable) and resumption.skipped == tmp_path / "game-0001.jsonl"
    assert resumption.reason

    played = play(config, sim=fast_sim(3, setup_answers={"start": 1}), not_resumed=resumption.skipped.stem)
    notice = "Could not resume game-0001: a new game starts"
    shown = [(stage, screen) for stage, screen in played.spy.screens if notice in screen.lines]
    assert {stage for stage, _ in shown} == {"setup", "deal"}  # who starts, then the first deal's screen
    assert all(screen.title == "Round 1" for stage, screen in shown if stage == "deal")
    assert any(screen.title == "Round 2" for stage, screen in played.spy.screens if stage == "deal")
    assert played.path.name == "game-0002.jsonl"  # the broken file stays for inspection
    assert (tmp_path / "game-0001.jsonl").read_text(encoding="utf-8") == "not a record\n"


def test_run_sim_tells_each_finished_games_check_line_as_it_ends_and_lists_them_all_at_quit(tmp_path, capsys):
    from coyote_pi.commands.run import FinishedGames, _resumed_line, _say_where_the_records_are, check_line

    config = table_config(tmp_path, 2)
    told: list[str] = []
    with running_table(config, fast_sim(7), new_game_when_over=True) as (rig, spy):
        finished = FinishedGames(rig.controller, told.append)
        rig.controller.listeners.append(finished)
        over = spy.wait_for(lambda p: p.stage == "over", timeout=30)
        first = rig.controller.state.recorded
        spy.wait_for(lambda p: told, timeout=5)
        assert told == [check_line(first, EN)]  # told as the game ends, before anyone quits
        QueueFingers(rig.controller.queue).tap(1, "ok")  # a second game starts, and is left unfinished
        spy.wait_for(lambda p: p.stage == "turn" and p.round == 1)
        _say_where_the_records_are(rig.controller, finished)
    said = capsys.readouterr().err
    assert f"record: {rig.controller.state.recorded.path} (unfinished: run --sim resumes it)" in said
    assert f"game finished:\n  coyote-pi replay {first.path} --expect {first.writer.fingerprint}" in said.replace(
        "check it: ", "")

    # A finished game reopened is not "resumed", and it is no game finished by this run.
    assert _resumed_line(first, EN) == f"{first.path}: the game is over, seat {first.game.winner} won; " \
        "the table shows its result"
    assert _resumed_line(rig.controller.state.recorded, EN) == f"resuming {rig.controller.state.recorded.path}"
    shown = SimpleNamespace(state=SimpleNamespace(recorded=first, game=first.game), game=first.game, tr=EN,
                            store=rig.controller.store)
    reopened = FinishedGames(shown, told.append)
    reopened.on_prompt(over)
    assert told == [check_line(first, EN)]
    _say_where_the_records_are(shown, reopened)  # quit while it shows that game: no game was played
    assert capsys.readouterr().err == f"no game was started; records are in {rig.controller.store.folder}\n"


def test_the_deal_notice_goes_once_the_game_it_deals_has_started(tmp_path):
    """``run --sim --deal`` over a finished game: "the new game that ok starts deals it"
    stays while that finished game shows, and goes once the new game has its record."""
    from coyote_pi.commands.run import UntilTheNextGame
    from coyote_pi.sim.console import SimConsole

    console = SimConsole(size=(80, 24))
    notice = "--deal question: the new game that ok starts deals it"
    try:
        with running_table(table_config(tmp_path, 2), fast_sim(7), new_game_when_over=True) as (rig, spy):
            over = spy.wait_for(lambda p: p.stage == "over", timeout=30)  # the finished game the table opens on
            console.show("deal", notice)
            until = UntilTheNextGame(rig.controller, lambda: console.withdraw("deal"))
            rig.controller.listeners.append(until)
            until.on_prompt(over)  # asked again while that game shows
            assert console.notices == [notice]
            QueueFingers(rig.controller.queue).tap(1, "ok")  # the new game starts
            spy.wait_for(lambda p: p.stage == "turn" and p.round == 1)
            assert console.notices == []
    finally:
        console.close()


def test_run_sim_says_everything_in_the_tables_language(tmp_path, capsys):
    """``--language de``: the lines run prints for a person, at the start and at the end, are German."""
    from coyote_pi.cli import main as coyote_pi

    status = coyote_pi(["run", "--sim", "--scripted", "--no-view", "--record-dir", str(tmp_path), "--players", "2",
                        "--seed", "3", "--camera-size", "640x360", "--language", "de"])
    assert status == 0
    out, err = capsys.readouterr()
    record = read_record(tmp_path / "sim" / "game-0001.jsonl")
    path = tmp_path / "sim" / "game-0001.jsonl"
    assert f"coyote-pi run --sim: die Spielprotokolle kommen nach {tmp_path / 'sim'}" in err
    assert f"Spiel beendet:\n  prüfen: coyote-pi replay {path} --expect {record.fingerprint}" in err
    assert f"Platz {record.game.winner} gewinnt; Protokoll {path} (Prüfcode {record.fingerprint})" in out
    words = (out + err).replace(str(tmp_path), "FOLDER").replace("game-0001.jsonl", "FILE")
    assert not any(word in words for word in ("game", "wins", "record", "check it")), words
