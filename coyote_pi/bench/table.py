"""``coyote-pi bench table``: the controller's speed, idle cost and memory, against targets.

1. **Coyote! to verdict**: from the ok press that says "Coyote!" (the button event's
   time) to the verdict screen handed to the display. The camera wait is excluded: the
   centre card already lies face up and the camera is the perfect-reading test double
   with no pause between reads, so what is measured is the controller: the challenge
   and the reveal written and fsynced to the record, two camera readings judged, the
   verdict computed and drawn. Target: at most 50 ms.
2. **Idle CPU**: process CPU time over a few seconds while the table waits for a press
   (buttons on gpiozero mock pins, display, camera worker and scheduler threads all
   running). Target: under 1 % of one core.
3. **Peak memory of run --sim**: ``coyote-pi run --sim --scripted`` plays a whole game
   in a child process (synthetic frames rendered and read by the real vision code);
   its maximum resident set size comes from ``getrusage(RUSAGE_CHILDREN)``.
   Target: under 150 MB. The same, at most 150 MB, for the real table's path: ``coyote-pi
   run`` with the camera replaying full-resolution stills of a deal in progress (the
   vision code reads each one fully, as it does while a card is missing) and no renderer.
   Before measuring, the installed shared libraries are dropped from the page cache, so
   they are read from disk as on a device after a boot (:func:`read_libraries_afresh`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from coyote_pi.config import GameSettings, Pacing, TableConfig
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.events import PRESS, Button, ButtonEvent
from coyote_pi.devices.screen import Screen
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.selector import ChoiceKind
from coyote_pi.table.stages import Stage
from coyote_pi.vision.states import SlotState

if TYPE_CHECKING:  # the simulation is imported only once the memory figures are taken (see _table)
    from coyote_pi.sim.rig import SimRig

TARGET_VERDICT_MS = 50.0
TARGET_IDLE_PERCENT = 1.0
TARGET_MEMORY_MB = 150.0


class _Watcher(Listener):
    """A controller listener the benchmark waits on."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self.prompt: Prompt | None = None
        self.verdict_at: float | None = None

    def on_prompt(self, prompt: Prompt) -> None:
        with self._condition:
            self.prompt = prompt
            self._condition.notify_all()

    def on_screen(self, stage: str, screen: Screen) -> None:
        if stage == Stage.VERDICT and self.verdict_at is None:
            self.verdict_at = time.monotonic()
            with self._condition:
                self._condition.notify_all()

    def wait(self, test: Callable[[_Watcher], bool], timeout: float = 10.0) -> None:
        with self._condition:
            if not self._condition.wait_for(lambda: test(self), timeout):
                raise TimeoutError("the table did not get there in time")


def _table(folder: Path) -> tuple[SimRig, _Watcher, threading.Thread]:
    """A two-seat table with the perfect-reading camera, its simulated hands and a watcher."""
    # The simulation (and with it OpenCV) is imported only once the memory figures are
    # taken: they are taken first, while this process maps no OpenCV (read_libraries_afresh).
    from coyote_pi.sim.rig import SimOptions, open_sim_rig

    config = TableConfig(game=GameSettings(2, "basic", "en", 1), pacing=Pacing(camera_interval=0.0),
                         record_dir=folder)
    watcher = _Watcher()
    rig = open_sim_rig(config, DevicesConfig.preset("sim"), SimOptions(players=False, camera="scene"),
                       listeners=[watcher])
    thread = threading.Thread(target=rig.run, name="bench table", daemon=True)
    thread.start()
    return rig, watcher, thread


def _press(rig: SimRig, seat: int, button: Button) -> float:
    """Put a press straight into the queue (what a debounced GPIO callback does); its time."""
    now = time.monotonic()
    rig.controller.queue.put(ButtonEvent(seat, button, PRESS, now))
    return now


def verdict_ms(folder: Path) -> float:
    """Milliseconds from one challenge's Coyote! press to its verdict screen."""
    rig, watcher, thread = _table(folder)
    try:
        watcher.wait(lambda w: w.prompt is not None and w.prompt.stage == Stage.TURN and w.prompt.seats == (1,))
        _press(rig, 1, Button.OK)  # seat 1 bids what the selector shows
        watcher.wait(lambda w: w.prompt is not None and w.prompt.seats == (2,))
        _press(rig, 2, Button.MINUS)  # seat 2's selector: COYOTE!
        watcher.wait(lambda w: w.prompt is not None and w.prompt.choice is not None
                     and w.prompt.choice.kind == ChoiceKind.CHALLENGE)
        _, centre = rig.sim.scene().slot("centre")
        assert centre is not None, "the scene camera's table was dealt"
        rig.sim.lay("centre", SlotState.FACE_UP, centre)  # the reveal is already on the table
        pressed = _press(rig, 2, Button.OK)
        watcher.wait(lambda w: w.verdict_at is not None)
        assert watcher.verdict_at is not None, "the wait ends with the verdict shown"
        return (watcher.verdict_at - pressed) * 1000
    finally:
        rig.controller.stop()
        thread.join()
        rig.close()


def idle_cpu_percent(folder: Path, seconds: float) -> float:
    """Percent of one core used by the whole process while the table waits for a press."""
    from coyote_pi.sim.rig import SimOptions, open_sim_rig  # not before the memory figures: see _table

    config = TableConfig(game=GameSettings(3, "trickster", "en", 1), record_dir=folder)
    watcher = _Watcher()
    rig = open_sim_rig(config, DevicesConfig.preset("sim"), SimOptions(players=False, camera="scene"),
                       listeners=[watcher])
    thread = threading.Thread(target=rig.run, name="bench idle", daemon=True)
    thread.start()
    try:
        watcher.wait(lambda w: w.prompt is not None and w.prompt.stage == Stage.TURN)
        time.sleep(0.5)  # let the deal's last camera read and screen settle
        cpu, wall = time.process_time(), time.monotonic()
        time.sleep(seconds)
        return 100 * (time.process_time() - cpu) / (time.monotonic() - wall)
    finally:
        rig.controller.stop()
        thread.join()
        rig.close()


#: Runs a command, optionally stops it with SIGTERM after some seconds, prints the
#: largest child's max RSS (KiB) and, where /proc exists, the most file-backed memory it
#: was seen to map (KiB, sampled every 20 ms; -1 without /proc). It is a small process of
#: its own because a child's max RSS counts the pages it shares with its parent between
#: fork and exec: measured from the benchmark itself, the benchmark's own memory would count.
_MEASURE_CHILD = """
import resource, signal, subprocess, sys, time
seconds, command = float(sys.argv[1]), sys.argv[2:]
child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
stop_at = time.monotonic() + seconds if seconds else None
files = -1
while child.poll() is None:
    try:
        with open(f"/proc/{child.pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
        files = max(files, int(fields["RssFile"].split()[0]))
    except (OSError, KeyError, ValueError):
        pass
    if stop_at is not None and time.monotonic() >= stop_at:
        child.send_signal(signal.SIGTERM)
        stop_at = None
    time.sleep(0.02)
if child.wait() not in (0, -signal.SIGTERM):
    sys.exit(f"{' '.join(command)} failed")
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, files)
"""


@dataclass(frozen=True)
class Peak:
    """A command's peak resident memory, and how much of it was mapped files."""

    mb: float
    files_mb: float | None  # shared libraries, fonts (None where /proc is missing)

    def split(self) -> str:
        if self.files_mb is None:
            return ""
        return (f"      of which mapped files (shared libraries, fonts) {self.files_mb:.0f} MB, "
                f"the process's own memory about {self.mb - self.files_mb:.0f} MB")


def _peak(command: list[str], stop_after: float = 0.0) -> Peak:
    """Peak memory of ``command`` run to its end, or stopped after ``stop_after`` seconds."""
    measured = subprocess.run([sys.executable, "-c", _MEASURE_CHILD, str(stop_after), *command],
                              check=True, capture_output=True, text=True)
    peak_kib, files_kib = (int(n) for n in measured.stdout.split()[-2:])
    return Peak(peak_kib / 1024, files_kib / 1024 if files_kib >= 0 else None)


_MAPPED_FILE = re.compile(r"\.so(\.[0-9.]+)?$|\.ttf$")


def _library_folders() -> set[Path]:
    """Where the files the game maps live: the site-packages folders of numpy, OpenCV and
    Pillow (with the libraries their wheels bundle) and this package's fonts."""
    folders = {Path(__file__).resolve().parents[1] / "data" / "fonts"}
    for name in ("numpy", "cv2", "PIL"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            folders.add(Path(spec.origin).resolve().parents[1])
    return folders


def read_libraries_afresh(folders: set[Path] | None = None) -> int:
    """Drops the shared libraries and fonts under ``folders`` (the game's, when None) from
    the kernel's page cache, so the next process reads them from disk as a device does
    after a boot; how many files were dropped.

    Why: on Linux 6.16 and later, ext4 keeps a file that pip (or git) has just written in
    large folios, and a process that maps the file counts every folio it touches as
    resident in full. Right after ``make test`` has installed the venv, OpenCV's library
    alone then counts about 45 MB instead of 19 MB, until the page cache lets the files go
    (a reboot, memory pressure, or this). The process's own memory is the same either way.

    Nothing is lost: only clean pages that no process maps are dropped, and the kernel
    reads them back when they are next used. Files that cannot be opened are left alone;
    where there is no ``posix_fadvise`` (macOS) nothing is done.
    """
    if not hasattr(os, "posix_fadvise"):
        return 0
    dropped = 0
    for folder in _library_folders() if folders is None else folders:
        for path in folder.rglob("*"):
            if not _MAPPED_FILE.search(path.name) or not path.is_file():
                continue
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.fsync(fd)  # pages still waiting to be written back cannot be dropped
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                dropped += 1
            except OSError:
                pass
            finally:
                os.close(fd)
    return dropped


def peak_memory_sim(folder: Path, players: int, camera_size: str) -> tuple[Peak, float]:
    """Max RSS of a whole ``run --sim --scripted`` game, and how long the game took."""
    config = folder / "bench.toml"
    config.write_text("[table]\ncamera_interval = 0.2\n", encoding="utf-8")
    command = [sys.executable, "-m", "coyote_pi", "run", "--sim", "--scripted", "--no-view", "--config", str(config),
               "--record-dir", str(folder / "records"), "--players", str(players), "--seed", "1",
               "--camera-size", camera_size]
    started = time.monotonic()
    return _peak(command), time.monotonic() - started


def peak_memory_table(folder: Path, seconds: float) -> Peak:
    """Max RSS of ``coyote-pi run`` reading full-resolution stills of a deal in progress."""
    # Imported here: the figure of run --sim is taken before, while this process maps no OpenCV.
    import cv2

    from coyote_pi.sim.render import render_scene
    from coyote_pi.sim.scene import Conditions, TableScene

    stills = folder / "stills"
    stills.mkdir()
    scene = TableScene(seats=4, seat_cards={1: "7", 2: "?", 4: "15"}, slots={"centre": ("face_down", "3")})
    for seed in range(2):
        cv2.imwrite(str(stills / f"still{seed}.png"),
                    render_scene(scene, width=4608, height=2592, seed=seed, conditions=Conditions.typical()))
    config = folder / "table.toml"
    config.write_text(f"[table]\ncamera_interval = 0.2\n[display]\ndriver = \"dummy\"\n[buttons]\nbackend = \"mock\"\n"
                      f"[camera]\nbackend = \"folder\"\nfolder = \"{stills}\"\nloop = true\n", encoding="utf-8")
    command = [sys.executable, "-m", "coyote_pi", "run", "--config", str(config), "--record-dir", str(folder / "table"),
               "--players", "4", "--variant", "basic", "--language", "en", "--start-seat", "1"]
    return _peak(command, stop_after=seconds)
