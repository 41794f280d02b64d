"""``coyote-pi run --sim`` in a real terminal (tmux) at 80x24 and 200x50: what a person sees.

Each test starts the command in a detached tmux session of a given size, types keys
into it and compares the screen (``tmux capture-pane``) with what must be there: the
OLED inside the terminal, the key line of the seats in play, the table as the chosen
seat sees it for a chosen ``--deal``, the help, the redraw after a resize and the quit.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (make test installs it with the other APT_PACKAGES)")

FAST_TOML = """
[table]
camera_interval = 0.05
message_seconds = 0.3
"""
#: Seats 1, 2, 3 get 7, 3 and ?; Max 0 lies face down in the centre.
DEAL = "7,3,?,max0"
KEY_LINE_3_SEATS = "keys -,+,ok,undo: 1:1234 2:qwer 3:asdf | v eyes: turn | h help | Ctrl-C quit"
BRAILLE = {chr(code) for code in range(0x2800, 0x2900)}


class Tmux:
    """One detached tmux session on a private server, running ``run --sim``."""

    def __init__(self, folder: Path, columns: int, rows: int, *flags: str) -> None:
        self.socket = str(folder / "tmux.sock")
        self.records = folder / "records"
        self.records.mkdir(exist_ok=True)
        config = folder / "table.toml"
        config.write_text(FAST_TOML, encoding="utf-8")
        command = [sys.executable, "-m", "coyote_pi", "run", "--sim", "--config", str(config),
                   "--record-dir", str(self.records), "--players", "3", "--variant", "basic", "--language", "en",
                   "--start-seat", "1", "--seed", "2", "--camera-size", "640x360", "--deal", DEAL, *flags]
        # The shell stays after the command so that its last words and exit status can be read.
        shell = f"{shlex.join(command)}; echo EXIT=$?; sleep 60"
        self._tmux("new-session", "-d", "-s", "sim", "-x", str(columns), "-y", str(rows), shell)

    def _tmux(self, *args: str) -> str:
        env = {**os.environ, "LC_ALL": "C.UTF-8"}
        done = subprocess.run(["tmux", "-S", self.socket, *args], capture_output=True, text=True, env=env, check=True)
        return done.stdout

    def screen(self, *, joined: bool = False) -> list[str]:
        """The lines on screen; ``joined``: lines the terminal wrapped are joined again."""
        text = self._tmux("capture-pane", "-p", *(["-J"] if joined else []), "-t", "sim")
        return [line.rstrip() for line in text.rstrip("\n").split("\n")]

    def keys(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-t", "sim", key)
            time.sleep(0.15)  # apart: the same key twice within 0.1 s would be a held key

    def resize(self, columns: int, rows: int) -> None:
        self._tmux("resize-window", "-t", "sim", "-x", str(columns), "-y", str(rows))

    def wait_for(self, what: str, test, timeout: float = 30.0) -> list[str]:
        """The screen once ``test(screen)`` holds and the screen is still (not caught mid-drawing)."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if test(screen):
                time.sleep(0.1)
                if self.screen() == screen:
                    return screen
            assert time.monotonic() < deadline, f"never saw {what}; the screen:\n" + "\n".join(screen)
            time.sleep(0.1)

    def wait_for_event(self, kind: str, count: int = 1) -> None:
        def seen() -> bool:
            records = sorted(self.records.rglob("game-*.jsonl"))
            if not records:
                return False
            lines = [json.loads(line) for line in records[-1].read_text(encoding="utf-8").splitlines() if line]
            return sum(line.get("event", {}).get("type") == kind for line in lines) >= count

        deadline = time.monotonic() + 30
        while not seen():
            assert time.monotonic() < deadline, f"the record never got a {kind}"
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def tmux(tmp_path):
    sessions: list[Tmux] = []

    def start(columns: int, rows: int, *flags: str) -> Tmux:
        sessions.append(Tmux(tmp_path, columns, rows, *flags))
        return sessions[-1]

    yield start
    for session in sessions:
        session.close()


def _oled_box(screen: list[str]) -> list[str]:
    top = next(index for index, line in enumerate(screen) if line.startswith("┌ OLED "))
    bottom = next(index for index, line in enumerate(screen) if line.startswith("└"))
    return [line[: line.index("┐" if index == top else "┘" if index == bottom else "│", 1) + 1]
            for index, line in enumerate(screen[top : bottom + 1], start=top)]


def test_at_80x24_a_person_sees_the_oled_the_keys_and_each_seats_eyes_and_can_quit(tmux):
    sim = tmux(80, 24)
    screen = sim.wait_for("the first turn's eyes", lambda s: "Seat 1 sees: 2:[3] 3:[?] centre: face down" in s)
    sim.wait_for_event("deal")
    assert len(screen) <= 24 and max(len(line) for line in screen) <= 80
    box = _oled_box(screen)
    assert (len(box), {len(line) for line in box}) == (18, {66})  # every pixel, in Braille, within the terminal
    assert set("".join(line[1:-1] for line in box[1:-1])) <= BRAILLE
    assert screen[-1] == KEY_LINE_3_SEATS  # seats 1-3 only: a 3-player game
    assert screen[-2].startswith("record: ") and screen[-2].endswith("sim/game-0001.jsonl")

    sim.keys("3")  # seat 1: ok, its opening bid
    sim.wait_for_event("bid")
    sim.wait_for("seat 2's eyes", lambda s: "Seat 2 sees: 1:[7] 3:[?] centre: face down" in s)
    sim.wait_for("the OLED's words", lambda s: any(line.startswith("OLED: ") and "17" in line for line in s))
    sim.keys("q", "q", "e")  # seat 2: minus past the lowest bid to COYOTE!, to PEEK; ok
    sim.wait_for_event("peek")
    sim.wait_for("seat 2's peek", lambda s: "Seat 2 sees: 1:[7] 3:[?] centre: Max 0 (peeked)" in s)
    sim.keys("v", "v")  # from the turn's seat to seat 1, then seat 2
    screen = sim.wait_for("seat 2 chosen", lambda s: s[-1].startswith("keys") and "v eyes: seat 2" in s[-1])
    sim.keys("v")
    screen = sim.wait_for("seat 3's eyes", lambda s: "Seat 3 sees: 1:[7] 2:[3] centre: face down" in s)
    assert not any("Max 0" in line for line in screen)  # seat 3 did not peek

    sim.keys("h")
    screen = sim.wait_for("the key map", lambda s: "seat 3: a = minus, s = plus, d = ok, f = undo" in s)
    assert not any(line.startswith("seat 4") for line in screen) and any("Ctrl-C  quit" in line for line in screen)
    sim.keys("h")
    sim.wait_for("the table again", lambda s: s[0].startswith("┌ OLED "))

    sim.keys("C-c")
    screen = sim.wait_for("the shell again", lambda s: any(line.startswith("EXIT=") for line in s))
    assert "EXIT=130" in screen
    assert any(line.startswith("record: ") and line.endswith("game-0001.jsonl (unfinished: run --sim resumes it)")
               for line in sim.screen(joined=True))
    assert not any(line.startswith("┌ OLED") for line in screen)  # the shell's screen is back as it was
    record = (sim.records / "sim" / "game-0001.jsonl").read_text(encoding="utf-8")
    assert "sees" not in record and "peeked" not in record  # the eyes stay in the terminal


def test_at_200x50_the_oled_is_drawn_1_to_1_beside_the_eyes_and_redrawn_on_resize(tmp_path, tmux):
    damaged = tmp_path / "records" / "sim" / "game-0001.jsonl"
    damaged.parent.mkdir(parents=True)
    damaged.write_text("not a record\n", encoding="utf-8")
    sim = tmux(200, 50)
    sim.wait_for("the notice", lambda s: any(line.startswith("could not resume game-0001.jsonl") for line in s))
    sim.keys("3")  # the OLED says "Record unreadable" and waits for a person: seat 1's ok starts a new game
    screen = sim.wait_for("the eyes beside the OLED",
                          lambda s: s[0].endswith("┐  Seat 1 sees: 2:[3] 3:[?] centre: face down"))
    box = _oled_box(screen)
    assert (len(box), {len(line) for line in box}) == (34, {130})  # 128x32 half blocks: one pixel, one column
    assert set("".join(line[1:-1] for line in box[1:-1])) <= {" ", "▀", "▄", "█"}
    assert set("".join(line[1:-1] for line in box[1:-1])) != {" "}
    notice, record, keys = screen[len(box) : len(box) + 3]
    assert notice.startswith("could not resume game-0001.jsonl (") and notice.endswith("): new game")
    assert record.endswith("sim/game-0002.jsonl") and keys == KEY_LINE_3_SEATS
    assert max(len(line) for line in screen) <= 200

    sim.resize(80, 24)
    screen = sim.wait_for("the redraw at 80x24", lambda s: len(s[0]) == 66 and s[0].startswith("┌ OLED "))
    assert len(_oled_box(screen)) == 18 and "Seat 1 sees: 2:[3] 3:[?] centre: face down" in screen
    sim.resize(60, 20)
    screen = sim.wait_for("the size needed", lambda s: s[0].startswith("The terminal is 60x20"))
    # The OLED in Braille (66x18), a line of eyes, the notice, the record and the key line: 66x22.
    assert " ".join(screen[:2]) == "The terminal is 60x20: make it at least 66x22 to see the OLED."
    sim.keys("C-c")
    sim.wait_for("the exit", lambda s: "EXIT=130" in s)
