"""Which display, buttons and camera to use, from the ``[display]``, ``[buttons]`` and ``[camera]`` tables.

The same configuration file (``/etc/coyote-pi/config.toml`` on the device) holds these
three tables; every key is optional and starts from a preset, ``real`` on the Pi, ``sim``
for ``coyote-pi run --sim`` and the demo, ``desktop`` for a laptop with a webcam::

    [display]
    driver = "ssd1306"      # any luma display: ssd1306, sh1106, ssd1309, ssd1322...;
                            # "dummy" (luma's in-memory device) or "none"
    interface = "i2c"       # luma interface: i2c, spi, ...
    port = 1                # I2C bus number
    address = "0x3C"        # I2C address (a TOML number such as 0x3C works too)
    width = 128
    height = 64
    rotate = 0              # 0..3, quarter turns clockwise
    luma_args = []          # further luma options, e.g. ["--mode", "1"]
    gif = ""                # record every frame to this animated GIF
    terminal = false        # also draw every frame in the terminal
    fail_calls = []         # dummy only: display() calls that raise, to simulate I2C glitches

    [buttons]
    backend = "gpio"        # gpio (real pins) | mock (gpiozero MockFactory) | keyboard | none
    pinmap = ""             # pin map file; empty: the one shipped with the package
    confirm_ms = 10         # a press (or release) counts once held this long: longer than
                            # noise spikes and contact chatter, shorter than a quick tap (1..30)
    debounce_ms = 30        # after a press or release counts, the next counts no sooner than this
    hold_ms = 600           # hold minus/plus this long before repeats start ...
    repeat_ms = 150         # ... then repeat this often

    [camera]
    backend = "picamera2"   # picamera2 | webcam | folder | synthetic | failing | none
    width = 4608            # capture size (picamera2, webcam request, synthetic)
    height = 2592
    source = "0"            # webcam: device index, or a video path/URL
    folder = ""             # folder: the images to replay
    loop = false            # folder: start again after the last image
    seed = 0                # synthetic/failing: reproducible noise
    fault = "error"         # failing: "error" (raise) or "garbage" (noise frames)
    timeout_ms = 5000       # picamera2, webcam: a capture taking longer is a hung camera ...
    restarts = 2            # ... restarted this many times in a row, then given up until
                            # coyote-pi restarts (cards go by the buttons meanwhile)
    idle_ms = 3000          # picamera2: stop streaming after this long without a read
    focus_cm = 61           # picamera2: focus distance until calibrated (hardware/geometry.md)
    focus_file = "/var/lib/coyote-pi/camera-focus.json"
                            # picamera2: keeps the autofocus calibration ("": never calibrate)
    mains_hz = 50           # picamera2: mains frequency of the room's lamps, 50 or 60 (0: off)

Presets (:data:`PRESETS`): ``real`` = ssd1306 on I2C, GPIO buttons, picamera2;
``desktop`` = dummy display drawn in the terminal, keyboard, webcam; ``sim`` = dummy
display, mock pins, synthetic camera. Unknown keys and bad values raise
:class:`~coyote_pi.devices.errors.DeviceConfigError` naming the table and key.

Some settings name parts only the simulated table has: the ``synthetic`` and
``failing`` cameras and a display with ``fail_calls``. They are valid here, but
:mod:`coyote_pi.sim` builds those parts (each config says so in its ``simulated``
property), so that the device layer never loads the simulation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from coyote_pi import schema
from coyote_pi.devices.buttons import ButtonTiming
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.devices.focus import GEOMETRY_FOCUS_CM, PLAUSIBLE_M, FocusSettings


class ButtonBackend(StrEnum):
    """``[buttons] backend``: the names, defined once (:data:`~coyote_pi.devices.factory.BUTTONS`
    builds each but ``none``)."""

    GPIO = "gpio"
    MOCK = "mock"
    KEYBOARD = "keyboard"
    NONE = "none"


class CameraBackend(StrEnum):
    """``[camera] backend``: the names, defined once (:data:`~coyote_pi.devices.factory.CAMERAS`
    builds the real ones, :mod:`coyote_pi.sim` the simulated table's)."""

    PICAMERA2 = "picamera2"
    WEBCAM = "webcam"
    FOLDER = "folder"
    SYNTHETIC = "synthetic"
    FAILING = "failing"
    NONE = "none"


#: The names as text (messages list them so).
BUTTON_BACKENDS = tuple(backend.value for backend in ButtonBackend)
#: The longest press confirmation allowed: a quick tap still holds longer.
MAX_CONFIRM_MS = 30
#: The shortest capture deadline allowed.
MIN_CAPTURE_TIMEOUT_MS = 100
CAMERA_BACKENDS = tuple(backend.value for backend in CameraBackend)
#: The camera backends only the simulated table has.
SIMULATED_CAMERAS = (CameraBackend.SYNTHETIC.value, CameraBackend.FAILING.value)


@dataclass(frozen=True)
class DisplayConfig:
    """The ``[display]`` table; see the module documentation for each key."""

    driver: str = "ssd1306"
    interface: str = "i2c"
    port: int = 1
    address: str = "0x3C"
    width: int = 128
    height: int = 64
    rotate: int = 0
    luma_args: tuple[str, ...] = ()
    gif: str = ""
    terminal: bool = False
    fail_calls: tuple[int, ...] = ()

    def validate(self) -> None:
        if self.rotate not in (0, 1, 2, 3):
            raise DeviceConfigError(f"[display] rotate must be 0, 1, 2 or 3, not {self.rotate}")
        if self.width <= 0 or self.height <= 0:
            raise DeviceConfigError(f"[display] width and height must be positive, not {self.width}x{self.height}")
        try:
            address = int(self.address, 0)
        except ValueError:
            raise DeviceConfigError(f"[display] address {self.address!r} is not a number like \"0x3C\"") from None
        if not 0x03 <= address <= 0x77:
            raise DeviceConfigError(f"[display] address {self.address} is outside the I2C range 0x03..0x77")
        if self.fail_calls and self.driver != "dummy":
            raise DeviceConfigError("[display] fail_calls simulates glitches and needs driver = \"dummy\"")

    @property
    def simulated(self) -> bool:
        """True for a display on a glitching bus (``fail_calls``): only :mod:`coyote_pi.sim` builds it."""
        return bool(self.fail_calls)

    @property
    def logical_size(self) -> tuple[int, int]:
        """The drawing size: width x height, swapped when the panel is turned a quarter."""
        return (self.height, self.width) if self.rotate % 2 else (self.width, self.height)


@dataclass(frozen=True)
class ButtonsConfig:
    """The ``[buttons]`` table; see the module documentation for each key."""

    backend: str = "gpio"
    pinmap: str = ""
    debounce_ms: int = 30
    hold_ms: int = 600
    repeat_ms: int = 150
    confirm_ms: int = 10

    def validate(self) -> None:
        _check_choice("buttons", "backend", self.backend, BUTTON_BACKENDS)
        for name in ("debounce_ms", "hold_ms", "repeat_ms"):
            if getattr(self, name) <= 0:
                raise DeviceConfigError(f"[buttons] {name} must be positive")
        if not 1 <= self.confirm_ms <= MAX_CONFIRM_MS:
            raise DeviceConfigError(
                f"[buttons] confirm_ms must be 1 to {MAX_CONFIRM_MS}, not {self.confirm_ms}: "
                "longer, and a quick tap (40-60 ms, less its contact chatter) would not count"
            )

    @property
    def timing(self) -> ButtonTiming:
        """The press timing, in seconds."""
        return ButtonTiming(
            self.debounce_ms / 1000, self.hold_ms / 1000, self.repeat_ms / 1000, confirm=self.confirm_ms / 1000
        )


@dataclass(frozen=True)
class CameraConfig:
    """The ``[camera]`` table; see the module documentation for each key."""

    backend: str = "picamera2"
    width: int = 4608
    height: int = 2592
    source: str = "0"
    folder: str = ""
    loop: bool = False
    seed: int = 0
    fault: str = "error"
    timeout_ms: int = 5000
    restarts: int = 2
    idle_ms: int = 3000
    focus_cm: int = GEOMETRY_FOCUS_CM
    focus_file: str = "/var/lib/coyote-pi/camera-focus.json"
    mains_hz: int = 50

    def validate(self) -> None:
        _check_choice("camera", "backend", self.backend, CAMERA_BACKENDS)
        _check_choice("camera", "fault", self.fault, ("error", "garbage"))
        if self.timeout_ms < MIN_CAPTURE_TIMEOUT_MS:
            raise DeviceConfigError(
                f"[camera] timeout_ms must be at least {MIN_CAPTURE_TIMEOUT_MS} (a full-resolution still "
                f"takes about a second), not {self.timeout_ms}"
            )
        if self.restarts < 0:
            raise DeviceConfigError(f"[camera] restarts must be 0 or more, not {self.restarts}")
        if self.idle_ms <= 0:
            raise DeviceConfigError(f"[camera] idle_ms must be positive, not {self.idle_ms}")
        near, far = (round(metres * 100) for metres in PLAUSIBLE_M)
        if not near <= self.focus_cm <= far:
            raise DeviceConfigError(
                f"[camera] focus_cm must be {near} to {far} (a camera over a table), not {self.focus_cm}"
            )
        if self.mains_hz not in (0, 50, 60):
            raise DeviceConfigError(
                f"[camera] mains_hz must be 50 or 60 (or 0: no flicker avoidance), not {self.mains_hz}"
            )
        if self.width <= 0 or self.height <= 0:
            raise DeviceConfigError(f"[camera] width and height must be positive, not {self.width}x{self.height}")
        if self.backend == "folder" and not self.folder:
            raise DeviceConfigError("[camera] backend \"folder\" needs folder = \"path/to/images\"")

    @property
    def simulated(self) -> bool:
        """True for the ``synthetic`` and ``failing`` backends: only :mod:`coyote_pi.sim` builds them."""
        return self.backend in SIMULATED_CAMERAS

    @property
    def focus(self) -> FocusSettings:
        """Where picamera2 focuses: ``focus_cm``, and the calibration kept in ``focus_file``."""
        return FocusSettings(self.focus_cm, Path(self.focus_file) if self.focus_file else None)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)


@dataclass(frozen=True)
class DevicesConfig:
    """The three device tables together."""

    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)

    @classmethod
    def preset(cls, name: str) -> DevicesConfig:
        """The ``real``, ``desktop`` or ``sim`` preset."""
        try:
            return PRESETS[name]
        except KeyError:
            raise DeviceConfigError(f"unknown device preset {name!r} (choose from {', '.join(PRESETS)})") from None

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, object], preset: str = "real") -> DevicesConfig:
        """Read the ``display``, ``buttons`` and ``camera`` tables of ``mapping`` (a parsed TOML
        file) over ``preset``; other tables are left to their owners."""
        base = cls.preset(preset)
        config = cls(
            display=_merge("display", base.display, mapping.get("display", {})),
            buttons=_merge("buttons", base.buttons, mapping.get("buttons", {})),
            camera=_merge("camera", base.camera, mapping.get("camera", {})),
        )
        config.validate()
        return config

    def validate(self) -> None:
        self.display.validate()
        self.buttons.validate()
        self.camera.validate()

    @property
    def simulated(self) -> bool:
        """True when a part is configured as only the simulated table has it (see each part's ``simulated``)."""
        return self.display.simulated or self.camera.simulated


def _check_choice(table: str, key: str, value: str, choices: tuple[str, ...]) -> None:
    schema.choice(value, f"[{table}] {key}", choices, fail=DeviceConfigError)


#: One of the device sections (display, buttons, camera): what :func:`_merge` takes and gives.
_Section = TypeVar("_Section", "DisplayConfig", "ButtonsConfig", "CameraConfig")


def _merge(table: str, base: _Section, values: object) -> _Section:
    """``base`` with the keys of ``values`` replaced, each checked against the field's type."""
    fields = [f.name for f in dataclasses.fields(base)]
    checked = schema.table(values, f"[{table}]", fields, fail=DeviceConfigError)
    changes: dict[str, Any] = {key: _coerce(table, key, value, getattr(base, key)) for key, value in checked.items()}
    return dataclasses.replace(base, **changes)


def _coerce(table: str, key: str, value: object, default: object) -> object:
    """``value`` in the type of ``default``, accepting what TOML naturally gives."""
    where = f"[{table}] {key}"
    if isinstance(default, bool):
        return schema.flag(value, where, fail=DeviceConfigError)
    if isinstance(default, int):
        return schema.whole_number(value, where, fail=DeviceConfigError)
    if isinstance(default, str):
        if key in ("address", "source") and isinstance(value, int) and not isinstance(value, bool):
            return hex(value) if key == "address" else str(value)  # address = 0x3C, source = 0
        if not isinstance(value, str):
            raise DeviceConfigError(f"{where} must be a string, not {value!r}")
        return value
    if not isinstance(value, list | tuple):
        raise DeviceConfigError(f"{where} must be a list, not {value!r}")
    item_type = int if key == "fail_calls" else str
    if not all(isinstance(item, item_type) and not isinstance(item, bool) for item in value):
        raise DeviceConfigError(f"{where} must be a list of {'whole numbers' if item_type is int else 'strings'}")
    return tuple(value)


PRESETS: dict[str, DevicesConfig] = {
    "real": DevicesConfig(),
    "desktop": DevicesConfig(
        display=DisplayConfig(driver="dummy", terminal=True),
        buttons=ButtonsConfig(backend="keyboard"),
        camera=CameraConfig(backend="webcam", width=1920, height=1080),
    ),
    "sim": DevicesConfig(
        display=DisplayConfig(driver="dummy"),
        buttons=ButtonsConfig(backend="mock"),
        camera=CameraConfig(backend="synthetic"),
    ),
}
