"""The soak's hardware, with the faults of a real table: what :mod:`coyote_pi.sim.soak`
switches on and off during a simulated evening.

- :class:`Panel`: the OLED on its I2C bus, which can be unplugged (opening it fails,
  every write raises) or have bursts of failing writes;
- :class:`SoakCamera`: the scene camera, which can stall for one capture, get stuck
  until released, or send noise frames;
- :class:`SoakReader`: reads the scene perfectly, and a noise frame with the real vision code;
- :class:`Disk`: the record's disk, which can be full (appends fail with ENOSPC);
- :class:`Glitches` and :class:`GlitchWatchedQueue`: the button lines under a glitch
  train, and the presses counted on them, to tell a glitch that became a press from a
  finger's press.

Each part only fails while told to; the soak decides when, and judges whether the table
came through.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import threading
from collections.abc import Callable

import numpy as np
from luma.core.error import DeviceNotFoundError

from coyote_pi.devices.camera import Camera
from coyote_pi.devices.errors import CameraError
from coyote_pi.devices.events import CHORD, PRESS, ButtonEvent
from coyote_pi.record import RecordWriter
from coyote_pi.sim.camera import SceneCamera, SceneReader
from coyote_pi.sim.clock import SimClock
from coyote_pi.sim.display import FlakyDummy
from coyote_pi.sim.scene import TableScene
from coyote_pi.vision import TableReader


class Panel:
    """The OLED on its I2C bus: one luma panel (in memory) that can vanish and glitch."""

    def __init__(self, clock: SimClock) -> None:
        self._clock = clock
        self._gone = False
        self.errors = 0  #: writes still to fail in the current burst of I2C errors
        #: Since when the panel answers every write (after an outage or a burst of errors).
        self.answering_since = clock()
        self.device = FlakyDummy(self._fails, width=128, height=64)

    @property
    def gone(self) -> bool:
        return self._gone

    @gone.setter
    def gone(self, gone: bool) -> None:
        self._gone = gone
        self.answering_since = self._clock()

    def answering_for(self, seconds: float) -> bool:
        """The panel has answered every write for ``seconds``."""
        return not self._gone and not self.errors and self._clock() >= self.answering_since + seconds

    def open(self):
        """What :func:`~coyote_pi.devices.display.luma_opener`'s function does: the panel, or luma's error."""
        if self.gone:
            raise DeviceNotFoundError("no display answers at 0x3C on /dev/i2c-1 (Remote I/O error)")
        return self.device

    def _fails(self, call: int) -> bool:
        if self.errors:
            self.errors -= 1
            self.answering_since = self._clock()
            return True
        return self._gone


class SoakCamera(Camera):
    """The scene camera, hanging or sending noise while those faults last.

    A *stall* blocks one capture until the guard interrupts it; *stuck* blocks every
    capture until :meth:`unstick`, whatever the guard does. :attr:`hangs` counts the
    captures that blocked.
    """

    description = "soak camera"

    def __init__(self, scene: Callable[[], TableScene], seed: int) -> None:
        self._scene = SceneCamera(scene)
        self._noise = np.random.default_rng(seed)
        self.garbage = False
        self.hang: str | None = None  #: "stall", "stuck" or None
        self.hangs = 0
        self._blocked = threading.Event()

    def start_hang(self, kind: str) -> None:
        """The next capture blocks: a ``"stall"`` until interrupted, ``"stuck"`` (and every
        capture after it) until :meth:`unstick`."""
        self._blocked = threading.Event()
        self.hang = kind

    def capture(self):
        if self.hang is not None:
            blocked = self._blocked
            self.hangs += 1
            if self.hang == "stall":
                self.hang = None  # one capture only
            blocked.wait()
            raise CameraError("the capture was cancelled")
        if self.garbage:
            return self._noise.integers(0, 256, size=(180, 320, 3), dtype=np.uint8)
        return self._scene.capture()

    def interrupt(self) -> None:
        if self.hang != "stuck":
            self._blocked.set()

    def unstick(self) -> None:
        self.hang = None
        self._blocked.set()


class SoakReader:
    """Reads the scene perfectly, and a garbage frame with the real vision code."""

    def __init__(self, scheme: str) -> None:
        self._scene, self._vision = SceneReader(), TableReader(scheme)

    def read(self, frame):
        return self._vision.read(frame) if isinstance(frame, np.ndarray) else self._scene.read(frame)


class Disk:
    """The record's disk, full for a while: appends then fail with ENOSPC as ``os.write`` does."""

    def __init__(self) -> None:
        self.full = False

    @contextlib.contextmanager
    def installed(self):
        """Wrap :class:`~coyote_pi.record.RecordWriter`'s appends while the soak runs."""
        append = RecordWriter._append
        disk = self

        def append_unless_full(writer, bodies):
            if disk.full:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(writer.path))
            return append(writer, bodies)

        RecordWriter._append = append_unless_full
        try:
            yield self
        finally:
            RecordWriter._append = append


class Glitches:
    """The button lines under a glitch train, and the presses seen on them meanwhile."""

    def __init__(self) -> None:
        #: (seat, button) -> [until, presses by the fingers, presses counted by the buttons]
        self.watched: dict[tuple[int, str], list] = {}

    def finger(self, seat: int, button: str) -> None:
        if (watch := self.watched.get((seat, button))) is not None:
            watch[1] += 1

    def event(self, event: ButtonEvent) -> None:
        watch = self.watched.get((event.seat, event.button))
        if watch is not None and event.kind in (PRESS, CHORD) and event.time <= watch[0]:
            watch[2] += 1

    def spurious(self, line: tuple[int, str]) -> int:
        """Stop watching ``line``: the presses the glitches made (those the fingers did not)."""
        _, fingers, counted = self.watched.pop(line)
        return max(0, counted - fingers)


class GlitchWatchedQueue(queue.Queue):
    """The controller's queue, telling the glitch watch of every button event put in."""

    def __init__(self, glitches: Glitches) -> None:
        super().__init__()
        self._glitches = glitches

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, ButtonEvent):
            self._glitches.event(item)
        super().put(item, block, timeout)
