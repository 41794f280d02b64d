"""``coyote-pi run --sim`` as a person uses it: keys typed into a terminal, the OLED drawn
in it. The command runs in a child process on a pseudo-terminal, as it would in a shell."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from coyote_pi.record import RecordError

from .conftest import TEST_FRAME, game_events


class Terminal:
    """A pseudo-terminal the child reads keys from and draws on; what it draws is kept."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        self.output = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output += chunk

    def type(self, keys: str) -> None:
        for key in keys:
            os.write(self.master, key.encode())
            time.sleep(0.15)  # apart from each other: closer same keys would be a held key

    def text(self) -> str:
        return self.output.decode("utf-8", "replace")


def _events(folder: Path) -> list[dict]:
    records = sorted(folder.rglob("*.jsonl"))
    try:
        return game_events(records[-1]) if records else []
    except RecordError:  # read while the table closed a round: its private file just went
        return []


def _wait(test, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"run --sim never got to: {what}"
        time.sleep(0.05)


def test_a_person_bids_with_keys_and_sees_the_oled_in_the_terminal(tmp_path):
    terminal = Terminal()
    config = tmp_path / "table.toml"
    config.write_text("[table]\ncamera_interval = 0.0\n", encoding="utf-8")
    records = tmp_path / "records"
    command = [sys.executable, "-m", "coyote_pi", "run", "--sim", "--config", str(config), "--record-dir", str(records),
               "--players", "2", "--variant", "basic", "--language", "en", "--start-seat", "1", "--seed", "2",
               "--camera-size", "x".join(map(str, TEST_FRAME))]
    child = subprocess.Popen(command, stdin=terminal.slave, stdout=terminal.slave, stderr=terminal.slave,
                             env={**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "40"})
    try:
        _wait(lambda: any(e["type"] == "deal" for e in _events(records)), "the camera seeing the deal")
        assert "keys -,+,ok,undo: 1:1234 2:qwer | v eyes: turn | h help | Ctrl-C quit" in terminal.text()
        terminal.type("23")  # seat 1: plus, ok
        _wait(lambda: any(e["type"] == "bid" for e in _events(records)), "seat 1's bid")
        terminal.type("3e")  # seat 1's ok again (not its turn any more: refused), then seat 2's ok
        _wait(lambda: len([e for e in _events(records) if e["type"] == "bid"]) == 2, "seat 2's bid")
        first, second = (e for e in _events(records) if e["type"] == "bid")
        assert (first["seat"], second["seat"]) == (1, 2) and second["amount"] > first["amount"]
        assert "┌ OLED " in terminal.text() and "⣿" in terminal.text()  # the OLED, drawn in the terminal
        child.send_signal(signal.SIGINT)  # Ctrl-C
        assert child.wait(timeout=60) == 130  # a limit for a hang: a loaded CI machine is slow to exit
        assert termios.tcgetattr(terminal.slave)[3] & termios.ICANON  # the terminal is given back as it was
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(terminal.slave)
        os.close(terminal.master)
