"""Device configuration and the factory the controller and `coyote-pi run` call."""

from __future__ import annotations

import io
import queue
import time
import tomllib

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.camera import FailingCamera, FolderCamera, SyntheticCamera
from coyote_pi.devices.config import PRESETS, DevicesConfig, DisplayConfig
from coyote_pi.devices.display import FlakyDummy
from coyote_pi.devices.errors import CameraError, DeviceConfigError
from coyote_pi.devices.events import PRESS
from coyote_pi.devices.factory import make_camera, make_devices, make_display
from coyote_pi.devices.keyboard import KeyboardButtons
from coyote_pi.devices.outputs import GifRecorder, TerminalView
from coyote_pi.devices.presser import SimulatedPresser
from coyote_pi.devices.screen import Screen

CONFIG = """
title = "other parts' settings are left alone"

[game]
language = "de"

[display]
driver = "dummy"
address = 0x3D
rotate = 2
gif = "{gif}"

[buttons]
backend = "mock"
hold_ms = 400

[camera]
backend = "failing"
fault = "garbage"
width = 64
height = 48
"""


def test_presets_name_the_expected_backends():
    assert (PRESETS["real"].display.driver, PRESETS["real"].buttons.backend, PRESETS["real"].camera.backend) == (
        "ssd1306", "gpio", "picamera2"
    )  # fmt: skip
    assert PRESETS["sim"].buttons.backend == "mock" and PRESETS["sim"].camera.backend == "synthetic"
    assert PRESETS["desktop"].buttons.backend == "keyboard" and PRESETS["desktop"].display.terminal
    with pytest.raises(DeviceConfigError, match="unknown device preset 'lab'"):
        DevicesConfig.preset("lab")


def test_toml_settings_override_the_preset(tmp_path):
    mapping = tomllib.loads(CONFIG.format(gif=tmp_path / "oled.gif"))
    config = DevicesConfig.from_mapping(mapping, preset="real")
    assert config.display.address == "0x3d" and config.display.rotate == 2
    assert config.display.interface == "i2c"  # untouched keys keep the preset's value
    assert config.buttons.hold_ms == 400 and config.buttons.debounce_ms == 30
    assert config.camera.size == (64, 48)


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ({"display": {"adress": "0x3C"}}, "[display] unknown key 'adress'"),
        ({"display": {"width": "wide"}}, "[display] width must be a whole number"),
        ({"display": {"rotate": 5}}, "[display] rotate must be 0, 1, 2 or 3"),
        ({"display": {"address": "sixty"}}, "[display] address 'sixty' is not a number"),
        ({"display": {"address": "0x80"}}, "outside the I2C range"),
        ({"display": {"terminal": "yes"}}, "[display] terminal must be true or false"),
        ({"display": {"fail_calls": [3], "driver": "ssd1306"}}, "fail_calls simulates glitches and needs driver"),
        ({"display": {"luma_args": [1]}}, "[display] luma_args must be a list of strings"),
        ({"buttons": {"backend": "touch"}}, "[buttons] backend = 'touch' is not one of gpio, mock, keyboard, none"),
        ({"buttons": {"repeat_ms": 0}}, "[buttons] repeat_ms must be positive"),
        ({"buttons": {"confirm_ms": 31}}, "[buttons] confirm_ms must be 1 to 30, not 31: longer, and a quick tap"),
        ({"camera": {"backend": "folder"}}, "needs folder = "),
        ({"camera": {"fault": "smoke"}}, "[camera] fault = 'smoke' is not one of error, garbage"),
        ({"camera": "picamera2"}, "[camera] must be a table"),
    ],
)
def test_bad_settings_are_one_line_config_errors(tables, message):
    with pytest.raises(DeviceConfigError) as caught:
        DevicesConfig.from_mapping(tables, preset="sim")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_rotated_panel_size():
    assert DisplayConfig(rotate=1).logical_size == (64, 128)
    assert DisplayConfig(rotate=2, width=256).logical_size == (256, 64)


def test_sim_devices_work_together(tmp_path):
    """The simulated table end to end: a press arrives, a screen is drawn, a frame is taken."""
    mapping = tomllib.loads(CONFIG.format(gif=tmp_path / "oled.gif"))
    events = queue.Queue()
    config = DevicesConfig.from_mapping(mapping, preset="sim")
    with make_devices(config, events) as devices:
        assert isinstance(devices.buttons, TableButtons)
        SimulatedPresser(devices.pin_factory, devices.pinmap).tap(2, "ok")
        event = events.get(timeout=5)
        assert (event.seat, event.button, event.kind) == (2, "ok", PRESS)
        assert devices.display.show(Screen(big="Hallo"))
        assert devices.display.device.image.getbbox() is not None
        frame = devices.camera.capture()
        assert frame.shape == (48, 64, 3) and isinstance(devices.camera, FailingCamera)
    assert (tmp_path / "oled.gif").exists()  # closing the devices wrote the recording


def test_parts_set_to_none_are_none():
    config = DevicesConfig.from_mapping(
        {"display": {"driver": "none"}, "buttons": {"backend": "none"}, "camera": {"backend": "none"}}
    )
    with make_devices(config, queue.Queue()) as devices:
        assert (devices.display, devices.buttons, devices.camera, devices.pin_factory) == (None, None, None, None)
        assert len(devices.pinmap.seats) == 6


def test_a_failing_part_closes_the_parts_already_open(tmp_path, pinmap):
    factory = MockFactory()
    config = DevicesConfig.from_mapping({"camera": {"backend": "folder", "folder": str(tmp_path / "none")}}, preset="sim")
    with pytest.raises(CameraError, match="does not exist"):
        make_devices(config, queue.Queue(), pin_factory=factory)
    # The buttons opened before the camera failed were closed: their pins open again
    # (a pin still in use would raise DeviceError here).
    events = queue.Queue()
    with TableButtons(pinmap, events, pin_factory=factory):
        SimulatedPresser(factory, pinmap).tap(1, "ok")
        assert events.get(timeout=5).seat == 1


def test_keyboard_backend_reads_the_given_stream():
    config = DevicesConfig.from_mapping({"buttons": {"backend": "keyboard"}, "camera": {"backend": "none"}}, preset="sim")
    events = queue.Queue()
    with open("/dev/null") as empty, make_devices(config, events, keyboard=empty) as devices:
        assert isinstance(devices.buttons, KeyboardButtons)
        assert devices.pin_factory is None
        devices.buttons.feed("e")
        assert events.get_nowait().seat == 2


def test_display_outputs_and_simulated_glitches(tmp_path):
    config = DisplayConfig(driver="dummy", gif=str(tmp_path / "a.gif"), terminal=True, fail_calls=(1,))
    display = make_display(config, outputs=[])
    try:
        assert isinstance(display.device, FlakyDummy)
        assert [type(o) for o in display.outputs] == [GifRecorder, TerminalView]
        display.outputs[1] = TerminalView(io.StringIO(), clear=False)
        assert not display.show(Screen(big="1"))  # the first write is the simulated glitch
        assert display.wait_shown(timeout=5)
    finally:
        display.close()


def test_synthetic_camera_needs_a_scene():
    config = PRESETS["sim"].camera
    with pytest.raises(DeviceConfigError, match="needs the scripted table's scene"):
        make_camera(config)
    camera = make_camera(config, scene=lambda: "scene")
    assert isinstance(camera, SyntheticCamera)


def test_folder_camera_from_config(tmp_path):
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((4, 4, 3), np.uint8))
    config = DevicesConfig.from_mapping({"camera": {"backend": "folder", "folder": str(tmp_path), "loop": True}})
    camera = make_camera(config.camera)
    assert isinstance(camera, FolderCamera) and camera.loop
    assert camera.capture().shape == (4, 4, 3)
    assert camera.capture().shape == (4, 4, 3)


def test_button_timing_comes_from_the_config():
    factory = MockFactory()
    config = DevicesConfig.from_mapping(
        {"buttons": {"hold_ms": 200, "repeat_ms": 100}, "camera": {"backend": "none"}}, preset="sim"
    )
    events = queue.Queue()
    with make_devices(config, events, pin_factory=factory) as devices:
        SimulatedPresser(factory, devices.pinmap).tap(1, "plus", hold=0.45)
        time.sleep(0.1)
        kinds = []
        while not events.empty():
            kinds.append(events.get_nowait().kind)
    assert kinds[0] == PRESS and 2 <= kinds.count("repeat") <= 3  # at 0.2 s, 0.3 s, 0.4 s
