"""The Pi camera's settings and streaming, against a stand-in for picamera2 that records every call."""

from __future__ import annotations

import json
import sys
import time
import types
from typing import ClassVar

import numpy as np
import pytest

from coyote_pi.devices.camera import Picamera2Camera
from coyote_pi.devices.camera_guard import GuardedCamera
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.errors import CameraError, DeviceConfigError
from coyote_pi.devices.factory import make_camera
from coyote_pi.devices.focus import FocusSettings, load_focus

CAMERA_MODULE_3 = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 32.0, 1.0), "AeFlickerMode": (0, 1, 0),
                   "AeFlickerPeriod": (100, 1000000, 0), "ExposureTime": (1, 1000000, 20000)}  # fmt: skip
CAMERA_MODULE_2 = {"ExposureTime": (1, 1000000, 20000)}  # fixed focus, a libcamera without flicker control


class DoneJob:
    """A picamera2 ``Job`` that has finished with ``result``."""

    def __init__(self, result):
        self.result = result

    def get_result(self, timeout=None):
        return self.result


class FakePicamera2:
    """Stands in for ``picamera2.Picamera2`` and records the calls made on it in :attr:`calls`.

    Differs from the real one: no libcamera and no sensor behind it. ``configure``,
    ``start``, ``stop`` and ``close`` only record; ``capture_array`` returns a small BGR
    frame at once (the real one waits for the next frame; like it, it fails when the
    camera is not started); ``autofocus_cycle(wait=False)`` and
    ``capture_metadata(wait=False)`` return jobs already finished, with the outcome the test chose
    (``focuses``, and ``lens_found`` as the metadata's LensPosition). ``camera_controls``
    is the control list of the model given (a Camera Module 3 unless told otherwise).
    """

    made: ClassVar[list[FakePicamera2]] = []
    controls = CAMERA_MODULE_3
    focuses, lens_found = True, 1.55

    def __init__(self, camera_num=0):
        self.calls: list[tuple] = [("open", camera_num)]
        self.camera_controls = dict(self.controls)
        self.started = False
        FakePicamera2.made.append(self)

    def create_still_configuration(self, main):
        return {"still": main}

    def configure(self, config):
        self.calls.append(("configure", config))

    def set_controls(self, controls):
        self.calls.append(("set_controls", controls))

    def start(self):
        self.calls.append(("start",))
        self.started = True

    def stop(self):
        self.calls.append(("stop",))
        self.started = False

    def capture_array(self, name="main"):
        assert self.started, "capture_array on a camera that is not started waits for ever"
        self.calls.append(("capture_array", name))
        return np.zeros((6, 8, 3), np.uint8)

    def autofocus_cycle(self, wait=None):
        assert self.started and wait is False
        self.calls.append(("autofocus_cycle",))
        return DoneJob(self.focuses)

    def capture_metadata(self, wait=None):
        assert self.started and wait is False
        return DoneJob({"LensPosition": self.lens_found, "ExposureTime": 20000})

    def cancel_all_and_flush(self):
        self.calls.append(("cancel_all_and_flush",))

    def close(self):
        self.calls.append(("close",))

    def named(self, name):
        return [call for call in self.calls if call[0] == name]


@pytest.fixture
def picamera2(monkeypatch):
    """``import picamera2`` gives the fake; yields its class (reset for each test)."""
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    monkeypatch.setattr(FakePicamera2, "made", [])
    return FakePicamera2


def wait_until(test, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "not within the time limit"
        time.sleep(0.01)


def test_the_lens_is_fixed_from_the_geometry_and_mains_flicker_avoided(picamera2):
    with Picamera2Camera((8, 6), focus=FocusSettings(61, None), mains_hz=50) as camera:
        fake = picamera2.made[0]
        assert fake.named("configure") == [("configure", {"still": {"size": (8, 6), "format": "RGB888"}})]
        assert fake.named("set_controls") == [
            ("set_controls", {"AfMode": 0, "LensPosition": pytest.approx(1 / 0.61), "AeFlickerMode": 1,
                              "AeFlickerPeriod": 10000})
        ]  # fmt: skip
        assert camera.lens_position == pytest.approx(1.639, abs=0.001)
        assert not fake.named("autofocus_cycle")  # no continuous autofocus, no calibration without a file
    with Picamera2Camera((8, 6), focus=FocusSettings(70, None), mains_hz=60):
        controls = picamera2.made[1].named("set_controls")[0][1]
        assert controls["AeFlickerPeriod"] == 8333 and controls["LensPosition"] == pytest.approx(1 / 0.7)


def test_the_camera_streams_only_while_looks_are_wanted(picamera2):
    with Picamera2Camera((8, 6), idle_after=0.1) as camera:
        fake = picamera2.made[0]
        assert not fake.named("start")  # opened, configured, idle
        for _ in range(3):
            assert camera.capture().shape == (6, 8, 3)
        assert [call[0] for call in fake.calls[-4:]] == ["start", "capture_array", "capture_array", "capture_array"]
        wait_until(lambda: fake.named("stop"))  # nobody looks: the stream stops
        camera.capture()
        assert [call[0] for call in fake.calls[-3:]] == ["stop", "start", "capture_array"]
        wait_until(lambda: len(fake.named("stop")) == 2)
    assert fake.calls[-1] == ("close",)


def test_the_first_start_calibrates_the_focus_once_and_keeps_it(picamera2, tmp_path):
    kept = tmp_path / "camera-focus.json"
    with Picamera2Camera((8, 6), focus=FocusSettings(61, kept)) as camera:
        assert camera.lens_position == 1.55
        fake = picamera2.made[0]
        assert len(fake.named("autofocus_cycle")) == 1
        assert fake.named("set_controls")[-1] == ("set_controls", {"AfMode": 0, "LensPosition": 1.55})
    assert load_focus(kept) == 1.55 and json.loads(kept.read_text())["distance_m"] == 0.645
    with Picamera2Camera((8, 6), focus=FocusSettings(61, kept)) as camera:
        again = picamera2.made[1]
        assert camera.lens_position == 1.55 and not again.named("autofocus_cycle")
        assert again.named("set_controls")[0][1]["LensPosition"] == 1.55


def test_the_first_start_fixes_the_lens_between_the_stands_seen_where_autofocus_focused(picamera2, tmp_path):
    stills = []

    def between_the_stands(still):  # stands at 0.58 and 0.68 m seen in it, say
        stills.append((still.shape, picamera2.made[0].named("set_controls")[-1][1]["LensPosition"]))
        return (1 / 0.58 + 1 / 0.68) / 2

    kept = tmp_path / "camera-focus.json"
    with Picamera2Camera((8, 6), focus=FocusSettings(61, kept, from_still=between_the_stands)) as camera:
        assert stills == [((6, 8, 3), 1.55)]  # one still, taken at the autofocus's position
        assert camera.lens_position == pytest.approx(1.597, abs=1e-3)
        assert picamera2.made[0].named("set_controls")[-1][1] == {"AfMode": 0, "LensPosition": camera.lens_position}
    assert load_focus(kept) == pytest.approx(1.597, abs=1e-3)


@pytest.mark.parametrize("measured", [None, 8.0, RuntimeError("the still timed out")])
def test_without_two_stands_in_the_still_the_autofocus_result_is_kept(picamera2, tmp_path, measured, caplog):
    def from_still(still):
        if isinstance(measured, Exception):
            raise measured
        return measured  # None: fewer than two stands seen; 8 dioptres: no table's distance

    with Picamera2Camera((8, 6), focus=FocusSettings(61, tmp_path / "f.json", from_still=from_still)) as camera:
        assert camera.lens_position == 1.55
    assert load_focus(tmp_path / "f.json") == 1.55
    if isinstance(measured, Exception):
        assert "the still timed out" in caplog.text


@pytest.mark.parametrize(("focuses", "found"), [(False, 1.5), (True, 8.0), (True, None)])
def test_an_autofocus_that_fails_or_finds_no_table_changes_nothing(picamera2, tmp_path, monkeypatch, focuses, found):
    monkeypatch.setattr(FakePicamera2, "focuses", focuses)
    monkeypatch.setattr(FakePicamera2, "lens_found", found)  # 8 dioptres: 12 cm, a hand over the lens
    kept = tmp_path / "camera-focus.json"
    with Picamera2Camera((8, 6), focus=FocusSettings(61, kept)) as camera:
        assert camera.lens_position == pytest.approx(1 / 0.61)
        with pytest.raises(CameraError, match="autofocus found no focus on the table"):
            camera.calibrate()
        assert picamera2.made[0].named("set_controls")[-1][1] == {"AfMode": 0, "LensPosition": camera.lens_position}
    assert not kept.exists()  # tried again at the next start


def test_a_camera_without_autofocus_keeps_its_fixed_lens(picamera2, monkeypatch, tmp_path):
    monkeypatch.setattr(FakePicamera2, "controls", CAMERA_MODULE_2)
    with Picamera2Camera((8, 6), focus=FocusSettings(61, tmp_path / "focus.json"), mains_hz=50) as camera:
        assert camera.lens_position is None
        assert not picamera2.made[0].named("set_controls")  # neither lens nor flicker controls to set
        with pytest.raises(CameraError, match="has no autofocus"):
            camera.calibrate()
    assert not (tmp_path / "focus.json").exists()


def test_a_hung_capture_is_cancelled_and_the_camera_reopened(picamera2):
    with Picamera2Camera((8, 6), idle_after=60) as camera:
        camera.capture()
        camera.interrupt()
        assert picamera2.made[0].calls[-1] == ("cancel_all_and_flush",)
        camera.restart()
        assert picamera2.made[0].calls[-1] == ("close",)
        reopened = picamera2.made[1]
        assert reopened.named("set_controls")[0][1]["AfMode"] == 0
        assert camera.capture().shape == (6, 8, 3) and reopened.named("start")


def test_the_factory_builds_a_guarded_pi_camera_from_the_config(picamera2, tmp_path):
    config = DevicesConfig.from_mapping({"camera": {
        "width": 8, "height": 6, "timeout_ms": 2000, "restarts": 1, "idle_ms": 500, "focus_cm": 65,
        "focus_file": "", "mains_hz": 60,
    }}).camera  # fmt: skip
    camera = make_camera(config)
    try:
        assert isinstance(camera, GuardedCamera) and isinstance(camera.camera, Picamera2Camera)
        assert (camera.timeout, camera.restarts) == (2.0, 1)
        controls = picamera2.made[0].named("set_controls")[0][1]
        assert controls["LensPosition"] == pytest.approx(1 / 0.65) and controls["AeFlickerPeriod"] == 8333
    finally:
        camera.close()


def test_the_factory_hands_the_stands_measure_to_the_first_calibration(picamera2, tmp_path):
    config = DevicesConfig.from_mapping({"camera": {"width": 8, "height": 6,
                                                    "focus_file": str(tmp_path / "f.json")}}).camera
    camera = make_camera(config, focus_from_still=lambda still: 1.6)
    try:
        assert isinstance(camera, GuardedCamera) and camera.camera.lens_position == 1.6
    finally:
        camera.close()
    assert load_focus(tmp_path / "f.json") == 1.6


@pytest.mark.parametrize(
    ("camera", "message"),
    [
        ({"mains_hz": 55}, "[camera] mains_hz must be 50 or 60"),
        ({"focus_cm": 10}, "[camera] focus_cm must be 30 to 150"),
        ({"idle_ms": 0}, "[camera] idle_ms must be positive"),
    ],
)
def test_bad_camera_settings_are_config_errors(camera, message):
    with pytest.raises(DeviceConfigError) as caught:
        DevicesConfig.from_mapping({"camera": camera})
    assert message in str(caught.value)


def test_the_doctor_focuses_with_one_autofocus_cycle_and_keeps_nothing_itself(picamera2):
    from coyote_pi.devices.config import CameraConfig
    from coyote_pi.pi.doctor import probe_focus

    assert probe_focus(CameraConfig(width=8, height=6, mains_hz=60)) == 1.55  # a blank still: no stands, autofocus's
    fake = picamera2.made[0]
    assert len(fake.named("autofocus_cycle")) == 1 and len(fake.named("capture_array")) == 1
    assert fake.calls[-1] == ("close",)
    assert fake.named("set_controls")[0][1]["AeFlickerPeriod"] == 8333
