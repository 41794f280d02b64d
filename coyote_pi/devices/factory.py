"""Build the display, buttons and camera named by a :class:`DevicesConfig`.

The controller, ``coyote-pi run`` and the demo all start devices through here, so the same
code runs on the Pi, on a laptop and in the tests; only the configuration differs::

    import queue
    events = queue.Queue()
    config = DevicesConfig.from_mapping(tomllib.load(file), preset="sim")
    with make_devices(config, events, scene=table.current_scene) as devices:
        devices.display.show(Screen(big="Hallo"))
        frame = devices.camera.capture()
        event = events.get()

A part configured as ``"none"`` is ``None`` in :class:`Devices`. With mock buttons,
``devices.pin_factory`` is gpiozero's ``MockFactory``: press its pins with
:class:`~coyote_pi.devices.presser.SimulatedPresser`.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from coyote_pi.devices.buttons import ButtonTiming, TableButtons
from coyote_pi.devices.camera import (
    Camera,
    FailingCamera,
    FolderCamera,
    Picamera2Camera,
    SyntheticCamera,
    WebcamCamera,
)
from coyote_pi.devices.camera_guard import GuardedCamera
from coyote_pi.devices.config import ButtonsConfig, CameraConfig, DevicesConfig, DisplayConfig
from coyote_pi.devices.display import FlakyDummy, TableDisplay, luma_opener
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.devices.keyboard import KeyboardButtons
from coyote_pi.devices.outputs import GifRecorder, TerminalView
from coyote_pi.devices.pinmap import PinMap, load_pinmap


@dataclass
class Devices:
    """The opened devices; close them all with :meth:`close` or a ``with`` block."""

    display: TableDisplay | None
    buttons: TableButtons | KeyboardButtons | None
    camera: Camera | None
    pinmap: PinMap
    #: gpiozero's MockFactory when the buttons are mocked, else None.
    pin_factory: object | None = None

    def close(self) -> None:
        for part in (self.buttons, self.camera, self.display):
            if part is not None:
                part.close()

    def __enter__(self) -> Devices:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def make_display(config: DisplayConfig, *, outputs: Iterable = ()) -> TableDisplay | None:
    """The display of ``[display]`` with its GIF/terminal outputs plus ``outputs``; ``None`` for "none"."""
    config.validate()
    if config.driver == "none":
        return None
    sinks = list(outputs)
    if config.gif:
        sinks.append(GifRecorder(config.gif))
    if config.terminal:
        sinks.append(TerminalView())
    if config.fail_calls:
        flaky = FlakyDummy(config.fail_calls, width=config.width, height=config.height, rotate=config.rotate)
        return TableDisplay(flaky, outputs=sinks)

    open_device = luma_opener(
        config.driver,
        interface=config.interface,
        port=config.port,
        address=config.address,
        width=config.width,
        height=config.height,
        rotate=config.rotate,
        luma_args=config.luma_args,
    )
    return TableDisplay(open_device, size=config.logical_size, outputs=sinks)


def make_buttons(
    config: ButtonsConfig,
    events: queue.Queue,
    *,
    pinmap: PinMap,
    pin_factory=None,
    keyboard: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> TableButtons | KeyboardButtons | None:
    """The buttons of ``[buttons]`` reporting into ``events``; ``None`` for "none".

    ``pin_factory`` overrides gpiozero's (backend "mock" makes a ``MockFactory`` when it is
    omitted); ``keyboard`` is the stream the keyboard backend reads (standard input by default).
    """
    config.validate()
    timing = ButtonTiming(
        config.debounce_ms / 1000, config.hold_ms / 1000, config.repeat_ms / 1000, confirm=config.confirm_ms / 1000
    )
    if config.backend == "none":
        return None
    if config.backend == "keyboard":
        return KeyboardButtons(events, timing=timing, clock=clock, stream=keyboard or sys.stdin)
    if config.backend == "mock" and pin_factory is None:
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    return TableButtons(pinmap, events, pin_factory=pin_factory, timing=timing, clock=clock)


def make_camera(config: CameraConfig, *, scene: Callable[[], object] | None = None) -> Camera | None:
    """The camera of ``[camera]``; ``scene`` feeds the synthetic backend. ``None`` for "none"."""
    config.validate()
    backend = config.backend
    if backend == "none":
        return None
    # Real cameras can hang mid-game; each capture gets a deadline (coyote_pi.devices.camera_guard).
    guarded = {"timeout": config.timeout_ms / 1000, "restarts": config.restarts}
    if backend == "picamera2":
        camera = Picamera2Camera(
            config.size, focus=config.focus, mains_hz=config.mains_hz, idle_after=config.idle_ms / 1000
        )
        return GuardedCamera(camera, **guarded)
    if backend == "webcam":
        return GuardedCamera(WebcamCamera(config.source, size=config.size), **guarded)
    if backend == "folder":
        return FolderCamera(config.folder, loop=config.loop)
    if backend == "synthetic":
        if scene is None:
            raise DeviceConfigError("[camera] backend \"synthetic\" needs the scripted table's scene (use it from the demo or run --sim)")
        return SyntheticCamera(scene, size=config.size, seed=config.seed)
    return FailingCamera(config.fault, size=config.size, seed=config.seed)


def make_devices(
    config: DevicesConfig,
    events: queue.Queue,
    *,
    scene: Callable[[], object] | None = None,
    pin_factory=None,
    keyboard: TextIO | None = None,
    outputs: Iterable = (),
    clock: Callable[[], float] = time.monotonic,
) -> Devices:
    """Open everything ``config`` names; if one part fails, the parts already open are closed."""
    config.validate()
    pinmap = load_pinmap(config.buttons.pinmap or None)
    opened: list = []
    try:
        display = make_display(config.display, outputs=outputs)
        opened.append(display)
        buttons = make_buttons(
            config.buttons, events, pinmap=pinmap, pin_factory=pin_factory, keyboard=keyboard, clock=clock
        )
        opened.append(buttons)
        camera = make_camera(config.camera, scene=scene)
    except BaseException:
        for part in reversed(opened):
            if part is not None:
                part.close()
        raise
    return Devices(
        display=display,
        buttons=buttons,
        camera=camera,
        pinmap=pinmap,
        pin_factory=buttons.pin_factory if isinstance(buttons, TableButtons) else None,
    )
