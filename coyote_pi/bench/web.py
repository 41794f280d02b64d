"""The web page's figures: press to browser, CPU with 20 spectators, memory, weight.

A scripted 4-player game (:class:`~coyote_pi.sim.spectated.SpectatedGame`) is played at
a steady pace while the page runs as its own process (``coyote-pi web``, as on the Pi),
one real headless Chromium watches the table page and 20 more spectators hold its event
stream open. For each event the time runs from just before the record's line and
``live.json`` are written to the moment the page's script has put the update into the
browser's page (its test hook notes that moment); the page process's CPU time over the
game, its peak resident memory and the table page's bytes are read at the end.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from coyote_pi.bench.browser import chromium, wait_for
from coyote_pi.engine.game import GameConfig
from coyote_pi.sim.spectated import SpectatedGame

TARGET_UPDATE_MS = 200
TARGET_CPU_PERCENT = 5.0
TARGET_RSS_MB = 60
TARGET_WEIGHT_KB = 150
SPECTATORS = 20


@dataclass(frozen=True)
class WebFigures:
    updates: int
    median_ms: float
    worst_ms: float
    cpu_percent: float
    game_seconds: float
    peak_rss_mb: float
    weight_kb: float


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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


@contextlib.contextmanager
def page_process(root: Path, port: int):
    """``coyote-pi web`` on ``root/games`` as its own process, until the block ends."""
    process = subprocess.Popen([sys.executable, "-m", "coyote_pi", "web", "--records", str(root / "games"),
                                "--listen", f"127.0.0.1:{port}", "--test-hook"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("coyote-pi web did not start: " + process.stderr.read().decode()[-500:])
            time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(10)


def measure(pace: float = 0.25, seed: int = 11) -> WebFigures:
    """Play one game at ``pace`` seconds per event with the page watched; the figures."""
    with tempfile.TemporaryDirectory(prefix="coyote-bench-web-") as folder:
        root = Path(folder)
        game = SpectatedGame(root / "games", root / "public", GameConfig(4, "trickster"), seed)
        port = _free_port()
        with page_process(root, port) as process, chromium() as browser:
            browser.get(f"http://127.0.0.1:{port}/")
            wait_for(browser, "return document.getElementById('connection').className.indexOf('up') >= 0")
            stop = threading.Event()
            spectators = [threading.Thread(target=_spectator, args=(port, stop), daemon=True) for _ in range(SPECTATORS)]
            for spectator in spectators:
                spectator.start()
            time.sleep(0.5)
            delays, cpu_start, wall_start = [], _cpu_seconds(process.pid), time.monotonic()
            while True:
                pressed = time.time() * 1000
                if game.step() is None:
                    break
                seq = game.seq
                shown = wait_for(browser, "var m = (window.coyoteMessages || []).filter(function (m) {"
                                       f" return JSON.parse(m.data).seq === {seq}; }}); return m.length ? m[0].shown : null")
                delays.append(shown - pressed)
                time.sleep(max(0.0, pace - (time.time() * 1000 - pressed) / 1000))
            game_seconds = time.monotonic() - wall_start
            cpu = _cpu_seconds(process.pid) - cpu_start
            weight = browser.execute_script(
                "var n = performance.getEntriesByType('navigation')[0].encodedBodySize;"
                "performance.getEntriesByType('resource').forEach(function (r) {"
                " if (r.initiatorType !== 'img') { n += r.encodedBodySize; } }); return n;")
            stop.set()
            peak = _peak_rss_mb(process.pid)
    return WebFigures(len(delays), statistics.median(delays), max(delays), 100 * cpu / game_seconds,
                      game_seconds, peak, weight / 1024)

