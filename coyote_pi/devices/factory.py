"""Build the display, buttons and camera named by a :class:`DevicesConfig`.

The controller, ``coyote-pi run`` and the demo all start devices through here, so the same
code runs on the Pi, on a laptop and in the tests; only the configuration differs::

    import queue
    events = queue.Queue()
    config = DevicesConfig.from_mapping(tomllib.load(file), preset="desktop")
    with make_devices(config, events) as devices:
        devices.display.show(Screen(big="Hallo"))
        frame = devices.camera.capture()
        event = events.get()

Backend names are looked up in one registry per part: :data:`BUTTONS` and
:data:`CAMERAS` map each name to the function that builds it; a display's driver is any
name luma knows (:func:`~coyote_pi.devices.display.luma_opener`).

A caller can also hand parts in ready-made, ``make_devices(config, events,
parts={"camera": camera})``: a part handed in replaces the configured one and is closed
with the others. That is how the simulated table brings the parts only it has (the
synthetic and failing cameras, a display on a glitching bus): :mod:`coyote_pi.sim`
builds them and hands them in, so this package never imports the simulation. Asked to
build one of those itself, the factory says so in a :class:`DeviceConfigError`.

A part configured as ``"none"`` (or handed in as ``None``) is ``None`` in
:class:`Devices`. With mock buttons, ``devices.pin_factory`` is gpiozero's
``MockFactory``: press its pins with :class:`~coyote_pi.sim.presser.SimulatedPresser`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TextIO

import numpy as np

from coyote_pi.devices.buttons import TableButtons
from coyote_pi.devices.camera import Camera, FolderCamera, Picamera2Camera, WebcamCamera
from coyote_pi.devices.camera_guard import GuardedCamera
from coyote_pi.devices.config import (
    ButtonBackend,
    ButtonsConfig,
    CameraBackend,
    CameraConfig,
    DevicesConfig,
    DisplayConfig,
)
from coyote_pi.devices.display import TableDisplay, luma_opener
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.devices.events import EventSink
from coyote_pi.devices.focus import FocusSettings
from coyote_pi.devices.keyboard import KeyboardButtons
from coyote_pi.devices.outputs import GifRecorder, TerminalView
from coyote_pi.devices.pinmap import PinMap, load_pinmap
from coyote_pi.devices.scheduler import Timers

#: The parts a :class:`Devices` holds, as named in ``make_devices(parts=...)``.
PARTS = ("display", "buttons", "camera")


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

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def display_outputs(config: DisplayConfig, outputs: Iterable[Any] = ()) -> list[Any]:
    """``outputs`` followed by the frame sinks ``[display]`` asks for: its GIF, the terminal view."""
    sinks = list(outputs)
    if config.gif:
        sinks.append(GifRecorder(config.gif))
    if config.terminal:
        sinks.append(TerminalView())
    return sinks


def make_display(config: DisplayConfig, *, outputs: Iterable[Any] = ()) -> TableDisplay | None:
    """The display of ``[display]`` with its :func:`display_outputs`; ``None`` for "none"."""
    config.validate()
    if config.driver == "none":
        return None
    if config.simulated:
        raise DeviceConfigError("[display] fail_calls simulates glitches: only the simulated table has them "
                                "(coyote_pi.sim builds that display)")

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
    return TableDisplay(open_device, size=config.logical_size, outputs=display_outputs(config, outputs))


def _pin_buttons(config: ButtonsConfig, events: EventSink, *, pinmap: PinMap, pin_factory: object,
                 clock: Callable[[], float], scheduler: Timers | None, **_: object) -> TableButtons:
    return TableButtons(pinmap, events, pin_factory=pin_factory, timing=config.timing, clock=clock,
                        scheduler=scheduler)


def _mock_pin_buttons(config: ButtonsConfig, events: EventSink, *, pin_factory: object, **options: Any) -> TableButtons:
    """The GPIO buttons on gpiozero's mock pins (a ``MockFactory`` of their own unless one is given)."""
    if pin_factory is None:
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    return _pin_buttons(config, events, pin_factory=pin_factory, **options)


def _keyboard_buttons(config: ButtonsConfig, events: EventSink, *, keyboard: TextIO | None,
                      clock: Callable[[], float], **_: object) -> KeyboardButtons:
    return KeyboardButtons(events, timing=config.timing, clock=clock, stream=keyboard or sys.stdin)


#: ``[buttons] backend`` -> what builds those buttons, called as ``build(config, events,
#: pinmap=..., pin_factory=..., keyboard=..., clock=..., scheduler=...)`` (each takes what it needs).
BUTTONS: dict[str, Callable[..., TableButtons | KeyboardButtons]] = {
    ButtonBackend.GPIO: _pin_buttons,
    ButtonBackend.MOCK: _mock_pin_buttons,
    ButtonBackend.KEYBOARD: _keyboard_buttons,
}


def _guarded(config: CameraConfig, camera: Camera) -> GuardedCamera:
    """``camera`` with a deadline on each capture: real cameras can hang mid-game
    (:mod:`coyote_pi.devices.camera_guard`)."""
    return GuardedCamera(camera, timeout=config.timeout_ms / 1000, restarts=config.restarts)


#: ``[camera] backend`` -> what builds that camera from the ``[camera]`` table and where
#: to focus (:class:`~coyote_pi.devices.focus.FocusSettings`; only a Pi camera has a lens
#: to set). The simulated table's backends are not here: :mod:`coyote_pi.sim` builds those.
CAMERAS: dict[str, Callable[[CameraConfig, FocusSettings], Camera]] = {
    CameraBackend.PICAMERA2: lambda config, focus: _guarded(
        config, Picamera2Camera(config.size, focus=focus, mains_hz=config.mains_hz, idle_after=config.idle_ms / 1000),
    ),
    CameraBackend.WEBCAM: lambda config, focus: _guarded(config, WebcamCamera(config.source, size=config.size)),
    CameraBackend.FOLDER: lambda config, focus: FolderCamera(config.folder, loop=config.loop),
}


def make_buttons(
    config: ButtonsConfig,
    events: EventSink,
    *,
    pinmap: PinMap,
    pin_factory: object = None,
    keyboard: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
    scheduler: Timers | None = None,
) -> TableButtons | KeyboardButtons | None:
    """The buttons of ``[buttons]`` reporting into ``events``; ``None`` for "none".

    ``pin_factory`` overrides gpiozero's (backend "mock" makes a ``MockFactory`` when it is
    omitted); ``keyboard`` is the stream the keyboard backend reads (standard input by default).
    ``clock`` and ``scheduler`` time the pin buttons' debounce, holds and repeats (None: a
    scheduler thread of their own; a test hands in a simulated clock and its scheduler).
    """
    config.validate()
    if config.backend == ButtonBackend.NONE:
        return None
    return BUTTONS[config.backend](config, events, pinmap=pinmap, pin_factory=pin_factory, keyboard=keyboard,
                                   clock=clock, scheduler=scheduler)


def make_camera(config: CameraConfig, *, focus_from_still: Callable[[np.ndarray], float | None] | None = None,
                ) -> Camera | None:
    """The camera of ``[camera]``; ``None`` for "none". ``focus_from_still`` places a
    calibrated lens between the stands (:attr:`~coyote_pi.devices.focus.FocusSettings.from_still`)."""
    config.validate()
    if config.backend == CameraBackend.NONE:
        return None
    if config.simulated:
        raise DeviceConfigError(f"[camera] backend \"{config.backend}\" is the simulated table's "
                                "(coyote_pi.sim builds it: use it from the demo or run --sim)")
    return CAMERAS[config.backend](config, replace(config.focus, from_still=focus_from_still))


def make_devices(
    config: DevicesConfig,
    events: EventSink,
    *,
    parts: Mapping[str, object] | None = None,
    pin_factory: object = None,
    keyboard: TextIO | None = None,
    outputs: Iterable[Any] = (),
    clock: Callable[[], float] = time.monotonic,
    scheduler: Timers | None = None,
) -> Devices:
    """Open everything ``config`` names, except the ``parts`` handed in ready-made.

    ``parts`` maps a part's name (:data:`PARTS`) to the part to use instead of the
    configured one (``None``: no such part). ``outputs`` are extra frame sinks for a
    display built here; ``clock`` and ``scheduler`` are the buttons' (:func:`make_buttons`).
    The :class:`Devices` owns every part, handed in or built: if one fails to open, all
    the others are closed before the error goes on.
    """
    # The parts are a display, buttons and a camera of any make (tests hand in doubles),
    # each checked by use, not by class: hence Any.
    made: dict[str, Any] = dict(parts or {})
    unknown = set(made) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown device parts {sorted(unknown)} (known: {', '.join(PARTS)})")
    try:
        config.validate()
        pinmap = load_pinmap(config.buttons.pinmap or None)
        if "display" not in made:
            made["display"] = make_display(config.display, outputs=outputs)
        if "buttons" not in made:
            made["buttons"] = make_buttons(
                config.buttons, events, pinmap=pinmap, pin_factory=pin_factory, keyboard=keyboard, clock=clock,
                scheduler=scheduler,
            )
        if "camera" not in made:
            made["camera"] = make_camera(config.camera)
    except BaseException:
        for part in reversed(made.values()):
            if part is not None:
                part.close()
        raise
    buttons = made["buttons"]
    return Devices(
        display=made["display"],
        buttons=buttons,
        camera=made["camera"],
        pinmap=pinmap,
        pin_factory=buttons.pin_factory if isinstance(buttons, TableButtons) else None,
    )
