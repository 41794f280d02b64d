"""A hung camera: every capture has a deadline; the camera is restarted, then given up."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from coyote_pi.devices.camera import Camera
from coyote_pi.devices.camera_guard import CameraHung, GuardedCamera
from coyote_pi.devices.config import CameraConfig, DevicesConfig
from coyote_pi.devices.errors import CameraError, DeviceConfigError

TIMEOUT = 0.2
FRAME = np.zeros((4, 6, 3), np.uint8)


class StallingCamera(Camera):
    """Captures that stall: the ones numbered in ``stalls`` wait for an event nobody sets.

    With ``interruptible`` the stalled capture gives up when interrupted, as picamera2's
    does when its queued job is cancelled; without, it stays stuck for good, like a
    driver call that never returns. The others return :data:`FRAME` at once.
    """

    description = "stalling camera"

    def __init__(self, stalls, *, interruptible: bool = True):
        self.stalls = stalls
        self.interruptible = interruptible
        self.captures = self.restarts = self.closes = 0
        self.released = threading.Event()  # set only to let stuck threads end after the test

    def capture(self):
        self.captures += 1
        if self.captures in self.stalls:
            self.released.wait()
            raise CameraError("capture cancelled")
        return FRAME

    def interrupt(self):
        if self.interruptible:
            self.released.set()
            self.released = threading.Event()

    def restart(self):
        self.restarts += 1

    def close(self):
        self.closes += 1


@pytest.fixture
def cameras():
    made = []
    yield made
    for camera in made:
        camera.released.set()


def guarded(cameras, stalls, **options):
    camera = StallingCamera(stalls, **options)
    cameras.append(camera)
    return camera, GuardedCamera(camera, timeout=TIMEOUT, restarts=2)


def test_a_stalled_capture_is_abandoned_and_the_camera_restarted(cameras):
    camera, guard = guarded(cameras, {2})
    assert guard.capture() is FRAME
    with pytest.raises(CameraHung, match=r"stalling camera gave no frame within 0.2 s: restarted it"):
        guard.capture()
    assert camera.restarts == 1 and guard.hangs == 1
    assert guard.capture() is FRAME  # the restarted camera works again
    assert guard.hangs == 0


def test_repeated_hangs_give_the_camera_up_and_later_captures_fail_at_once(cameras):
    camera, guard = guarded(cameras, {1, 2, 3, 4})
    for _ in range(2):
        with pytest.raises(CameraHung, match="restarted it"):
            guard.capture()
    with pytest.raises(CameraHung, match="3 times in a row: camera out of order until coyote-pi restarts"):
        guard.capture()
    assert camera.restarts == 2 and camera.captures == 3
    for _ in range(5):  # no thread, no wait: the controller reaches the manual path quickly
        with pytest.raises(CameraHung, match="out of order"):
            guard.capture()
    assert camera.captures == 3
    guard.close()
    assert camera.closes == 1  # given up: closed once, not again


def test_a_capture_that_stays_stuck_is_given_up_at_once(cameras):
    camera, guard = guarded(cameras, {1}, interruptible=False)
    with pytest.raises(CameraHung, match=r"gave no frame within 0.2 s and stays stuck"):
        guard.capture()
    assert camera.restarts == 0  # never restarted under a thread still inside it
    with pytest.raises(CameraHung):
        guard.capture()
    assert camera.captures == 1


def test_errors_and_frames_of_a_working_camera_pass_through(cameras):
    class Broken(Camera):
        def capture(self):
            raise CameraError("unplugged")

    with pytest.raises(CameraError, match="unplugged") as caught:
        GuardedCamera(Broken(), timeout=TIMEOUT).capture()
    assert not isinstance(caught.value, CameraHung)


def test_the_deadline_and_restarts_are_configured_and_checked():
    camera = DevicesConfig.from_mapping({"camera": {"timeout_ms": 3000, "restarts": 0}}).camera
    assert (camera.timeout_ms, camera.restarts) == (3000, 0)
    assert (CameraConfig().timeout_ms, CameraConfig().restarts) == (5000, 2)
    with pytest.raises(DeviceConfigError, match="timeout_ms must be at least 100"):
        DevicesConfig.from_mapping({"camera": {"timeout_ms": 50}})
    with pytest.raises(DeviceConfigError, match="restarts must be 0 or more"):
        DevicesConfig.from_mapping({"camera": {"restarts": -1}})
