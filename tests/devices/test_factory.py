"""Device configuration and the factory the controller and `coyote-pi run` call."""

from __future__ import annotations

import queue
import tomllib

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.camera import FolderCamera
from coyote_pi.devices.config import (
    BUTTON_BACKENDS,
    CAMERA_BACKENDS,
    PRESETS,
    SIMULATED_CAMERAS,
    DevicesConfig,
    DisplayConfig,
)
from coyote_pi.devices.errors import CameraError, DeviceConfigError
from coyote_pi.devices.events import PRESS, REPEAT
from coyote_pi.devices.factory import BUTTONS, CAMERAS, make_camera, make_devices, make_display
from coyote_pi.devices.keyboard import KeyboardButtons
from coyote_pi.sim.presser import SimulatedPresser

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
        ({"display": {"adress": "0x3C"}}, "[display] has an unknown key 'adress'"),
        ({"display": {"width": "wide"}}, "[display] width must be a whole number"),
        ({"display": {"rotate": 5}}, "[display] rotate must be 0, 1, 2 or 3"),
        ({"display": {"address": "sixty"}}, "[display] address 'sixty' is not a number"),
        ({"display": {"address": "0x80"}}, "outside the I2C range"),
        ({"display": {"terminal": "yes"}}, "[display] terminal must be true or false"),
        ({"display": {"fail_calls": [3], "driver": "ssd1306"}}, "fail_calls simulates glitches and needs driver"),
        ({"display": {"luma_args": [1]}}, "[display] luma_args must be a list of strings"),
        ({"buttons": {"backend": "touch"}}, "[buttons] backend must be one of 'gpio', 'mock', 'keyboard', 'none', not 'touch'"),
        ({"buttons": {"repeat_ms": 0}}, "[buttons] repeat_ms must be positive"),
        ({"buttons": {"confirm_ms": 31}}, "[buttons] confirm_ms must be 1 to 30, not 31: longer, and a quick tap"),
        ({"camera": {"backend": "folder"}}, "needs folder = "),
        ({"camera": {"fault": "smoke"}}, "[camera] fault must be one of 'error', 'garbage', not 'smoke'"),
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


def test_the_registries_name_every_real_backend():
    assert set(BUTTONS) == set(BUTTON_BACKENDS) - {"none"}
    assert set(CAMERAS) == set(CAMERA_BACKENDS) - set(SIMULATED_CAMERAS) - {"none"}


@pytest.mark.parametrize("backend", SIMULATED_CAMERAS)
def test_the_simulated_tables_camera_is_not_built_here(backend):
    config = DevicesConfig.from_mapping({"camera": {"backend": backend}}, preset="sim")
    assert config.simulated and config.camera.simulated
    with pytest.raises(DeviceConfigError, match=f"backend \"{backend}\" is the simulated table's"):
        make_camera(config.camera)


def test_a_glitching_display_is_not_built_here():
    config = DisplayConfig(driver="dummy", fail_calls=(1,))
    assert config.simulated
    with pytest.raises(DeviceConfigError, match="fail_calls simulates glitches: only the simulated table"):
        make_display(config)


class Part:
    """A ready-made part that notes when it is closed."""

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_ready_made_parts_replace_the_configured_ones_and_belong_to_the_devices():
    display, camera = Part(), Part()
    config = DevicesConfig.from_mapping({"camera": {"backend": "synthetic"}}, preset="sim")
    with make_devices(config, queue.Queue(), parts={"display": display, "camera": camera}) as devices:
        assert devices.display is display and devices.camera is camera
        assert isinstance(devices.buttons, TableButtons)  # the part not handed in is built as configured
        assert not display.closed
    assert display.closed and camera.closed
    with make_devices(config, queue.Queue(), parts={"camera": None}) as devices:
        assert devices.camera is None and devices.display is not None
    with pytest.raises(ValueError, match="unknown device parts"):
        make_devices(config, queue.Queue(), parts={"screen": Part()})


def test_a_failing_part_closes_the_parts_handed_in_too(tmp_path):
    display = Part()
    config = DevicesConfig.from_mapping({"camera": {"backend": "folder", "folder": str(tmp_path / "none")}}, preset="sim")
    with pytest.raises(CameraError, match="does not exist"):
        make_devices(config, queue.Queue(), parts={"display": display})
    assert display.closed


def test_folder_camera_from_config(tmp_path):
    import cv2

    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((4, 4, 3), np.uint8))
    config = DevicesConfig.from_mapping({"camera": {"backend": "folder", "folder": str(tmp_path), "loop": True}})
    camera = make_camera(config.camera)
    assert isinstance(camera, FolderCamera) and camera.loop
    assert camera.capture().shape == (4, 4, 3)
    assert camera.capture().shape == (4, 4, 3)


def test_button_timing_comes_from_the_config():
    """hold_ms 200 and repeat_ms 100: a plus held 0.45 s repeats at 0.2, 0.3 and 0.4 s. On a
    simulated clock (the buttons' timers and the finger on one scheduler), so no stall
    of the machine can add a repeat or drop one."""
    from coyote_pi.sim.clock import SimClock, SimScheduler, sim_pin_factory
    from coyote_pi.sim.presser import NO_BOUNCE, ScheduledFingers
    from coyote_pi.sim.table import SimPace

    clock = SimClock(0.0)
    timers = SimScheduler(clock)
    factory = sim_pin_factory(clock)
    config = DevicesConfig.from_mapping(
        {"buttons": {"hold_ms": 200, "repeat_ms": 100}, "camera": {"backend": "none"}}, preset="sim"
    )
    events = queue.Queue()
    with make_devices(config, events, pin_factory=factory, clock=clock, scheduler=timers) as devices:
        ScheduledFingers(factory, devices.pinmap, timers, config.buttons.timing, SimPace(),
                         bounce=NO_BOUNCE).press(1, "plus", hold=0.45)
        while (due := timers.next_due()) is not None and due <= 1.0:
            clock.advance_to(due)
            timers.run_due()
        heard = []
        while not events.empty():
            heard.append(events.get_nowait())
    # The press counts once the debounce has confirmed it; the repeats follow it by hold_ms, then every repeat_ms.
    pressed = heard[0].time
    assert [(event.kind, round(event.time - pressed, 3)) for event in heard] == [
        (PRESS, 0.0), (REPEAT, 0.2), (REPEAT, 0.3), (REPEAT, 0.4)]
    assert 0 < pressed <= config.buttons.timing.debounce
