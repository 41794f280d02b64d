"""The web page's figures: press to browser, CPU with 20 spectators, memory, weight.

The simulated table (:func:`~coyote_pi.sim.rig.open_sim_rig`: the real controller,
record and bulletin; the perfect-reading camera) plays a 4-player game, its scripted
players pressing gpiozero's mock GPIO pins, while the page runs as its own process
(``coyote-pi web``, as on the Pi), one real headless Chromium watches the table page and
20 more spectators hold its event stream open. For each press during a turn the time
runs from the moment the finger drives the pin low, through the buttons' debounce, the
controller, the record's fsync'd line, the bulletin's ``live.json``, the page's watch
and its server-sent event, to the moment the page's script has put the first update
written after the press into the browser's page (its test hook notes that moment). A
press whose update the next press overtook is not counted (it is not clear which of the
two it shows). The page process's CPU time over the game, its peak resident memory and
the table page's bytes are read at the end.
"""

from __future__ import annotations

import bisect
import contextlib
import http.client
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from coyote_pi.browser import chromium, wait_for
from coyote_pi.config import GameSettings, Pacing, TableConfig
from coyote_pi.contract.records import BULLETIN_FOLDER, REQUESTS_FOLDER
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.sim.rig import SimOptions, open_sim_rig
from coyote_pi.sim.table import Fingers, SimPace
from coyote_pi.sim.web_page import page_command
from coyote_pi.table import stages
from coyote_pi.table.state import TableState
from coyote_pi.table.web_side import WebSide

TARGET_UPDATE_MS = 200
TARGET_CPU_PERCENT = 5.0
TARGET_RSS_MB = 60
TARGET_WEIGHT_KB = 150
SPECTATORS = 20


@dataclass(frozen=True)
class WebFigures:
    #: Presses during turns whose update was measured, of all of them.
    updates: int
    presses: int
    median_ms: float
    worst_ms: float
    cpu_percent: float
    game_seconds: float
    peak_rss_mb: float
    weight_kb: float


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _spectator(port: int, stop: threading.Event) -> None:
    """One phone holding the event stream open and reading every event."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/events")
    response = connection.getresponse()
    while not stop.is_set():
        if not response.fp or not response.fp.readline():
            break
    connection.close()


class PublishingTable(Protocol):
    """The controller as the timed fingers look at it: its stage, and its web side's bulletin."""

    state: TableState

    @property
    def web(self) -> WebSide | None: ...


class _TimedFingers:
    """The scripted players' fingers, noting when each press during a turn starts (wall
    clock, ms, as the browser tells time) and the bulletin's last ``seq`` then."""

    def __init__(self, fingers: Fingers, controller: PublishingTable) -> None:
        self._fingers, self._controller = fingers, controller
        self.presses: list[tuple[float, int]] = []

    def _note(self) -> None:
        web = self._controller.web
        if self._controller.state.stage == stages.TURN and web is not None:  # the bench runs with its web side
            self.presses.append((time.time() * 1000, web.bulletin.seq))

    def tap(self, seat: int, button: str) -> None:
        self._note()
        self._fingers.tap(seat, button)

    def hold(self, seat: int, button: str, repeats: int) -> None:
        self._note()
        self._fingers.hold(seat, button, repeats)

    def chord(self, seat: int) -> None:
        self._note()
        self._fingers.chord(seat)


def press_delays(presses: list[tuple[float, int]], shown: list[tuple[float, int]]) -> list[float]:
    """For each press ``(moment, seq before it)``, ms until the browser showed (``shown``:
    ``(moment, seq)`` in the order shown) the first ``live.json`` written after it; a
    press is left out when none was shown or the next press came first."""
    moments = [moment for moment, _ in shown]
    delays = []
    for index, (pressed, seq) in enumerate(presses):
        start = bisect.bisect_left(moments, pressed)
        update = next((moment for moment, shown_seq in shown[start:] if shown_seq > seq), None)
        next_press = presses[index + 1][0] if index + 1 < len(presses) else float("inf")
        if update is not None and update < next_press:
            delays.append(update - pressed)
    return delays


@contextlib.contextmanager
def page_process(root: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``coyote-pi web`` on the simulated table's folders under ``root``, as its own
    process, until the block ends."""
    command = page_command(root / "games", root / BULLETIN_FOLDER, root / REQUESTS_FOLDER, f"127.0.0.1:{port}")
    process = subprocess.Popen([*command, "--test-hook"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                said = process.stderr.read().decode() if process.stderr is not None else ""
                raise RuntimeError("coyote-pi web did not start: " + said[-500:])
            time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(10)


def measure(pace: float = 0.25, seed: int = 11) -> WebFigures:
    """Play one game with the page watched, each seat thinking ``pace`` seconds before its
    turn and between its presses; the figures."""
    with tempfile.TemporaryDirectory(prefix="coyote-bench-web-") as folder:
        root = Path(folder)
        port = _free_port()
        config = TableConfig(game=GameSettings(4, "trickster", "en", 1),
                             pacing=Pacing(camera_interval=0.0, page_seconds=pace, message_seconds=pace),
                             record_dir=root / "games").with_web(enabled=True, url=f"http://127.0.0.1:{port}/")
        rig = open_sim_rig(config, DevicesConfig.preset("sim"),
                           SimOptions(seed=seed, camera="scene", pace=SimPace(think=pace, gap=pace)))
        players = rig.sim.fingers
        assert players is not None, "the scripted players press (sim.rig gives them fingers)"
        fingers = rig.sim.fingers = _TimedFingers(players, rig.controller)
        try:
            with page_process(root, port) as process, chromium() as browser:
                browser.get(f"http://127.0.0.1:{port}/")
                wait_for(browser, "return document.getElementById('connection').className.indexOf('up') >= 0")
                stop = threading.Event()
                for _ in range(SPECTATORS):
                    threading.Thread(target=_spectator, args=(port, stop), daemon=True).start()
                time.sleep(0.5)
                cpu_start, wall_start = _cpu_seconds(process.pid), time.monotonic()
                rig.run(until_over=True)
                time.sleep(0.3)  # the last update reaches the browser
                game_seconds = time.monotonic() - wall_start
                cpu = _cpu_seconds(process.pid) - cpu_start
                shown = browser.execute_script("return window.coyoteMessages.map(function (m) {"
                                               " return [m.shown, JSON.parse(m.data).seq]; })")
                weight = browser.execute_script(
                    "var n = performance.getEntriesByType('navigation')[0].encodedBodySize;"
                    "performance.getEntriesByType('resource').forEach(function (r) {"
                    " if (r.initiatorType !== 'img') { n += r.encodedBodySize; } }); return n;")
                stop.set()
                peak = _peak_rss_mb(process.pid)
        finally:
            rig.close()
    delays = press_delays(fingers.presses, shown)
    return WebFigures(len(delays), len(fingers.presses), statistics.median(delays), max(delays),
                      100 * cpu / game_seconds, game_seconds, peak, weight / 1024)
