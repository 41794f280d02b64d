"""The simulated cameras: the synthetic table's, and one with simulated faults."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from coyote_pi.devices.camera import FolderCamera
from coyote_pi.devices.errors import CameraError
from coyote_pi.sim.camera import FailingCamera, SyntheticCamera
from coyote_pi.sim.scene import TableScene


def flat(value: int, width: int, height: int) -> np.ndarray:
    """A BGR frame of one grey level."""
    return np.full((height, width, 3), value, np.uint8)


def test_failing_camera_raises_or_returns_garbage():
    with pytest.raises(CameraError, match="simulated camera failure"):
        FailingCamera("error").capture()
    garbage = FailingCamera("garbage", size=(64, 48), seed=3)
    first, second = garbage.capture(), garbage.capture()
    assert first.shape == (48, 64, 3) and first.dtype == np.uint8
    assert not np.array_equal(first, second)
    assert first.std() > 50  # noise, not a picture


def test_failing_camera_can_work_for_a_while_first(tmp_path):
    for name, value in [("frame1.png", 10), ("frame2.png", 20)]:
        cv2.imwrite(str(tmp_path / name), flat(value, 32, 24))
    camera = FailingCamera("garbage", after=2, inner=FolderCamera(tmp_path, loop=True))
    good = [camera.capture() for _ in range(2)]
    bad = camera.capture()
    assert good[1][0, 0, 0] == 20
    assert bad.shape == good[1].shape  # garbage of the real camera's size
    with pytest.raises(ValueError, match="unknown camera fault"):
        FailingCamera("smoke")
    with pytest.raises(ValueError, match="needs an inner camera"):
        FailingCamera("error", after=1)


def test_synthetic_camera_renders_the_current_scene_with_a_fresh_seed_each_time():
    calls = []

    def fake_render(scene, *, width, height, seed, conditions):
        calls.append((scene, width, height, seed, conditions))
        return flat(seed, width, height)

    table = {"scene": "deal"}
    camera = SyntheticCamera(lambda: table["scene"], size=(40, 30), seed=5, conditions="typical", renderer=fake_render)
    first = camera.capture()
    table["scene"] = "reveal"
    second = camera.capture()
    assert calls == [("deal", 40, 30, 5, "typical"), ("reveal", 40, 30, 6, "typical")]
    assert first.shape == (30, 40, 3) and second[0, 0, 0] == 6


def test_synthetic_camera_rejects_a_renderer_that_returns_no_image():
    camera = SyntheticCamera(lambda: None, size=(4, 4), renderer=lambda scene, **kw: None)
    with pytest.raises(CameraError, match="returned no 8-bit image"):
        camera.capture()


def test_synthetic_camera_with_the_table_renderer():
    scene = TableScene(seats=3, seat_cards={1: "5", 2: "?", 3: "max0"})
    camera = SyntheticCamera(lambda: scene, size=(320, 180), seed=1)
    frame = camera.capture()
    assert frame.shape == (180, 320, 3) and frame.dtype == np.uint8
    assert frame.std() > 5  # a picture of a table, not a blank
