"""Simulated cameras: the synthetic table, a perfect-reading double and simulated faults.

- :class:`SyntheticCamera` renders the scripted table's current scene with
  :func:`coyote_pi.sim.render.render_scene`: the real vision code reads its frames.
- :class:`SceneCamera` and :class:`SceneReader` stand in for the camera and the vision
  code together: the "frame" is the scene itself, read perfectly (fast logic tests).
- :class:`FailingCamera` raises or returns noise, to exercise the controller's manual path.

Each is a :class:`~coyote_pi.devices.camera.Camera` as the controller expects it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from coyote_pi.devices.camera import FULL_RESOLUTION, Camera, checked_frame
from coyote_pi.devices.errors import CameraError
from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision.markerset import SLOTS, Slot
from coyote_pi.vision.reading import SeatRead, SlotRead, TableReading
from coyote_pi.vision.states import SeatState, SlotState

SceneRenderer = Callable[..., np.ndarray]


class SyntheticCamera(Camera):
    """Renders the table as it is now: ``scene()`` gives the current scene, the renderer draws it.

    ``scene`` is a function returning the scripted table's current ``TableScene`` (the
    demo's players change it as they act). Each capture renders it at ``size`` with the
    seed ``seed + capture number`` (so noise differs between frames yet every run is
    identical) under ``conditions``. ``renderer`` replaces
    :func:`~coyote_pi.sim.render.render_scene` (same keyword arguments), e.g. in tests.
    """

    def __init__(
        self,
        scene: Callable[[], TableScene],
        *,
        size: tuple[int, int] = FULL_RESOLUTION,
        seed: int = 0,
        conditions: Conditions | None = None,
        renderer: SceneRenderer | None = None,
    ):
        self._scene = scene
        self._size = size
        self._seed = seed
        self._conditions = conditions
        self._renderer = renderer or render_scene
        self.captures = 0
        self.description = f"synthetic table at {size[0]}x{size[1]}"

    def capture(self) -> np.ndarray:
        width, height = self._size
        frame = self._renderer(
            self._scene(), width=width, height=height, seed=self._seed + self.captures, conditions=self._conditions
        )
        self.captures += 1
        return checked_frame(frame, self.description)


FAULTS = ("error", "garbage")


class FailingCamera(Camera):
    """A camera with simulated faults, to exercise the controller's manual path.

    The first ``after`` captures come from ``inner`` (a working camera; required when
    ``after`` > 0); every later capture fails according to ``fault``:

    - ``"error"``: raises :class:`CameraError`, like an unplugged camera;
    - ``"garbage"``: returns random noise of ``size`` (or of the inner camera's last
      frame), like a corrupted transfer: no card can be read from it.
    """

    def __init__(
        self,
        fault: str = "error",
        *,
        after: int = 0,
        inner: Camera | None = None,
        size: tuple[int, int] = (640, 480),
        seed: int = 0,
    ):
        if fault not in FAULTS:
            raise ValueError(f"unknown camera fault {fault!r} (choose from {', '.join(FAULTS)})")
        if after and inner is None:
            raise ValueError("a FailingCamera that works for a while needs an inner camera")
        self.fault = fault
        self.after = after
        self.inner = inner
        self._shape = (size[1], size[0], 3)
        self._random = np.random.default_rng(seed)
        self.captures = 0
        self.description = f"failing camera ({fault} after {after} captures)"

    def capture(self) -> np.ndarray:
        self.captures += 1
        if self.inner is not None and self.captures <= self.after:  # (an inner camera is required when after > 0)
            frame = self.inner.capture()
            self._shape = frame.shape
            return frame
        if self.fault == "error":
            raise CameraError(f"simulated camera failure on capture {self.captures}")
        return self._random.integers(0, 256, size=self._shape, dtype=np.uint8)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()


class SceneCamera:
    """Test double for the camera: a "frame" is the scene itself (``scene()`` gives it)."""

    description = "scene camera (test double)"

    def __init__(self, scene: Callable[[], TableScene]) -> None:
        self._scene = scene

    def capture(self) -> TableScene:
        return self._scene()

    def close(self) -> None:
        pass


class SceneReader:
    """Test double for the vision code: reads a scene perfectly (see :class:`SceneCamera`)."""

    def read(self, frame: object) -> TableReading:
        scene = frame  # a frame of the SceneCamera: the scene itself
        assert isinstance(scene, TableScene), "the scene camera's frames only"
        seats = {s: SeatRead(scene.seat_cards.get(s), SeatState.OK if scene.seat_cards.get(s) else SeatState.MISSING)
                 for s in scene.present or ()}  # set by the scene: never None
        slots: dict[Slot, SlotRead] = {}
        for name in SLOTS:
            state, card = scene.slot(name)
            slots[name] = SlotRead(SlotState(state), card if state == SlotState.FACE_UP else None)
        return TableReading(seats=seats, slots=slots)
