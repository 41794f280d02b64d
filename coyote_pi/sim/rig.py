"""The simulated table assembled: scripted hands and players around the real controller.

The demo, ``run --sim``, the benchmark and the tests build their table here, from a
:class:`~coyote_pi.config.TableConfig`, the device configuration and
:class:`SimOptions`::

    with open_sim_rig(config, DevicesConfig.preset("sim"), SimOptions(seed=3)) as rig:
        rig.run(until_over=True)

Only the simulated parts are made here: the scripted table
(:class:`~coyote_pi.sim.table.SimTable`) keeps the scene, :func:`simulated_parts` builds
the cameras and the glitching display that only the simulation has, and all of them go
to the real table's assembly (:func:`~coyote_pi.table.rig.open_rig`) as ready-made
parts; it opens the rest (luma's dummy display, gpiozero's mock pins) from the
configuration as on a real table. With ``camera="scene"`` the camera and the vision
code are the perfect-reading doubles (:class:`~coyote_pi.sim.camera.SceneCamera`,
:class:`~coyote_pi.sim.camera.SceneReader`): fast tests of the controller's logic.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coyote_pi.config import TableConfig
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.display import TableDisplay
from coyote_pi.devices.errors import DeviceConfigError, PinMapError
from coyote_pi.devices.events import CHORD, PRESS, Button, ButtonEvent, EventSink, PressKind
from coyote_pi.devices.factory import Devices, display_outputs
from coyote_pi.devices.pinmap import load_pinmap
from coyote_pi.devices.screen import Screen
from coyote_pi.sim.camera import FailingCamera, SceneCamera, SceneReader, SyntheticCamera
from coyote_pi.sim.deals import DealPlan
from coyote_pi.sim.display import FlakyDummy
from coyote_pi.sim.presser import NO_BOUNCE, Bounce, PresserFingers, QueueFingers, SimulatedPresser
from coyote_pi.sim.scene import TableScene
from coyote_pi.sim.table import Fingers, SetupAnswers, SimPace, SimTable
from coyote_pi.table import stages
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.rig import Rig, open_rig


@dataclass(frozen=True)
class SimOptions:
    """A simulated table: its seed, who presses the buttons and how the camera sees it."""

    #: The seed of the next new game's deck and players (later games draw their own;
    #: a resumed game deals on with the seed in its record).
    seed: int = 1
    #: Stands on the table; None: as many as the game's players.
    seats: int | None = None
    #: True: scripted players press the buttons; False: a person does (keyboard).
    players: bool = True
    #: "pins": the players press gpiozero mock pins; "queue": events go straight to the controller.
    fingers: str = "pins"
    #: "render": synthetic frames read by the real vision code; "scene": the perfect-reading double.
    camera: str = "render"
    pace: SimPace = SimPace()
    #: Contact bounce on the simulated presses (the presser's default chatter), or clean edges.
    bounce: bool = True
    setup_answers: SetupAnswers = field(default_factory=dict)
    misclick: bool = False
    #: The cards chosen for some rounds of the next new game (``run --sim --deal``); the
    #: rest come from the seed.
    deal: DealPlan = DealPlan()


@dataclass
class SimRig(Rig):
    """A :class:`~coyote_pi.table.rig.Rig` with its scripted table, started and closed with it."""

    sim: SimTable

    def run(self, *, until_over: bool = False) -> None:
        self.sim.start()
        super().run(until_over=until_over)

    def close(self) -> None:
        self.sim.close()
        super().close()


def simulated_parts(devices_config: DevicesConfig, *, scene: Callable[[], TableScene] | None = None,
                    outputs: Iterable[Any] = (), given: Mapping[str, object] | None = None) -> dict[str, object]:
    """The ``given`` ready-made parts, plus the simulated parts ``devices_config`` names
    for the others, built: the ``synthetic`` camera (rendering ``scene()``, the scripted
    table's current scene), the ``failing`` camera, a display with ``fail_calls`` (on a
    :class:`~coyote_pi.sim.display.FlakyDummy`, with its :func:`display_outputs` after
    ``outputs``). Hand them to :func:`~coyote_pi.devices.factory.make_devices` or
    :func:`~coyote_pi.table.rig.open_rig` as ``parts``.
    """
    devices_config.validate()
    parts = dict(given or {})
    camera, display = devices_config.camera, devices_config.display
    if "camera" not in parts and camera.backend == "synthetic":
        if scene is None:
            raise DeviceConfigError("[camera] backend \"synthetic\" needs the scripted table's scene "
                                    "(use it from the demo or run --sim)")
        parts["camera"] = SyntheticCamera(scene, size=camera.size, seed=camera.seed)
    elif "camera" not in parts and camera.backend == "failing":
        parts["camera"] = FailingCamera(camera.fault, size=camera.size, seed=camera.seed)
    if "display" not in parts and display.simulated:
        flaky = FlakyDummy(display.fail_calls, width=display.width, height=display.height, rotate=display.rotate)
        parts["display"] = TableDisplay(flaky, outputs=display_outputs(display, outputs))
    return parts


def open_sim_rig(
    config: TableConfig,
    devices_config: DevicesConfig,
    sim: SimOptions,
    *,
    display: TableDisplay | None = None,
    camera: Callable[[Callable[[], TableScene]], object] | None = None,
    listeners: Iterable[Listener] = (),
    outputs: Iterable[Any] = (),
    **controller_options: Any,
) -> SimRig:
    """A simulated table on the devices of ``devices_config``, its scripted hands (and
    players) listening to the controller.

    ``display`` replaces the configured display (tests pass a
    :class:`~coyote_pi.sim.display.FlakyDummy`-backed one); ``camera(scene)`` makes the
    camera instead of ``[camera]`` (tests wrap the synthetic one in simulated faults).
    ``listeners``, ``outputs`` and ``controller_options`` are as for
    :func:`~coyote_pi.table.rig.open_rig`; the web page's checks are the simulated
    devices' (:func:`simulated_checks`) unless ``web_doctor`` says otherwise.
    """
    controller_options.setdefault("web_doctor", functools.partial(simulated_checks, devices_config))
    resumed = controller_options.get("resumed")
    seats = sim.seats or (resumed[0].game.config.players if isinstance(resumed, tuple) else config.game.players)
    if seats is None:
        raise ValueError("a simulated table needs its number of stands: SimOptions.seats, or the game's players")
    sim_table = SimTable(seats=seats, seed=sim.seed, players=sim.players, pace=sim.pace, scheme=config.scheme,
                         setup_answers=sim.setup_answers, misclick=sim.misclick, deal=sim.deal)
    if isinstance(resumed, tuple):
        sim_table.resume(resumed[0].private_meta)
    given: dict[str, object] = {}
    if camera is not None:
        given["camera"] = camera(sim_table.scene)
    elif sim.camera == "scene":
        given["camera"] = SceneCamera(sim_table.scene)
    if display is not None:
        given["display"] = display
    parts = simulated_parts(devices_config, scene=sim_table.scene, outputs=outputs, given=given)
    rig = open_rig(config, devices_config, parts=parts, reader=SceneReader() if sim.camera == "scene" else None,
                   outputs=outputs, listeners=[sim_table, *listeners], private_meta=sim_table.new_game,
                   **controller_options)
    if sim.players:
        sim_table.fingers = _fingers(sim, rig.devices, rig.controller.queue, devices_config)
        sim_table.controller_queue = rig.controller.queue
    return SimRig(rig.controller, rig.devices, sim_table)


def simulated_checks(devices_config: DevicesConfig) -> list[dict[str, object]]:
    """What a simulated table answers to the web page's "Run the checks" (``doctor.json``,
    as :func:`coyote_pi.pi.doctor.in_table_checks` words a real table's): its simulated
    devices, and the pin map its buttons use. The Pi's own checks (the board, the I2C bus,
    the GPIO chip) have nothing to look at here: ``coyote-pi doctor`` runs them on the device."""
    display, camera, buttons = devices_config.display, devices_config.camera, devices_config.buttons
    checks = [_check("board", None, "a simulated table: no Raspberry Pi, I2C bus or GPIO chip here "
                                    "(coyote-pi doctor checks them on the device)")]
    if display.driver == "none":
        checks.append(_check("OLED", None, "none configured"))
    else:
        glitches = f", failing at its calls {', '.join(map(str, display.fail_calls))}" if display.fail_calls else ""
        checks.append(_check("OLED", True, f"simulated: {display.driver} {display.width}x{display.height}{glitches}"))
    if camera.backend == "synthetic":
        checks.append(_check("camera", True, f"simulated: draws the scripted table ({camera.width}x{camera.height})"))
    elif camera.backend == "failing":
        checks.append(_check("camera", False, f"simulated to fail ({camera.fault})"))
    else:
        checks.append(_check("camera", None, f"{camera.backend}: not simulated, coyote-pi doctor checks it on the device"))
    try:
        pins = load_pinmap(buttons.pinmap or None)
    except PinMapError as error:
        checks.append(_check("pin map", False, str(error)))
    else:
        count = sum(len(seat.buttons()) for seat in pins.seats)
        checks.append(_check("pin map", True, f"{buttons.backend} buttons: {len(pins.seats)} seats, {count} buttons "
                                              f"({pins.source})"))
    return checks


def _check(name: str, ok: bool | None, detail: str) -> dict[str, object]:
    """One line of ``doctor.json``: ``ok`` None for a check skipped."""
    return {"name": name, "ok": ok, "detail": detail}


def unattended_rig(config: TableConfig, devices_config: DevicesConfig, **controller_options: Any) -> SimRig:
    """The real table (``coyote-pi run --config``) with the ``synthetic`` camera: only the
    scripted hands, laying the cards of the deck of ``[camera] seed`` where the camera
    sees them; nobody presses a button. For tests only (``make test-boot``'s
    ci/test-boot.toml): with every seat virtual (``[game] virtual``) and verdicts moving on
    by themselves (``[table] verdict_seconds``) the service plays whole games unattended."""
    if config.game.players is None and not isinstance(controller_options.get("resumed"), tuple):
        raise DeviceConfigError('[camera] backend "synthetic" (tests only) needs [game] players: '
                                "the scripted hands lay a card on each stand")
    rig = open_sim_rig(config, devices_config, SimOptions(seed=devices_config.camera.seed, players=False),
                       **controller_options)
    pin_file = config.record_dir.parent / TEST_PIN_FILE if config.web.enabled else None
    rig.controller.listeners.append(NextGame(rig.controller.queue, max(config.pacing.verdict_seconds, 1.0),
                                             pin_file))
    return rig


#: Where the unattended table (tests only) leaves the web page's PIN, beside its record folder.
TEST_PIN_FILE = "test-boot-pin"
#: How the PIN screen shows the six digits (coyote_pi.table.screens.pin_screen).
_SHOWN_PIN = re.compile(r"\d{3} \d{3}")


class NextGame(Listener):
    """At a game's end, seat 1's ok after ``seconds``, as a person starts the next game:
    the unattended table (:func:`unattended_rig`) then plays game after game.

    With ``pin_file`` (the table publishes for a web page), first the presses a person
    makes for the page's PIN at a game's end (docs/web.md): the chord (the record's QR
    code), the chord again (the page's address), ok (a new PIN), minus (closed). The PIN
    the OLED shows is written to ``pin_file``, readable by the table's user alone, where
    ``make test-boot`` (root in the machine) reads it to download a record as a person
    does; a real table has nobody but the people at it to tell it to."""

    def __init__(self, events: EventSink, seconds: float, pin_file: Path | None = None) -> None:
        self.events = events
        self.seconds = seconds
        self.pin_file = pin_file
        self._asked_in: tuple[int, tuple[object, ...]] | None = None  # (epoch, history) of the game end already answered
        self._pin_asked = False

    def on_prompt(self, prompt: Prompt) -> None:
        end = (prompt.epoch, prompt.history)
        if prompt.stage != stages.GAME_OVER or end == self._asked_in:
            return
        self._asked_in = end
        timer = threading.Timer(self.seconds, self._press_on)
        timer.daemon = True
        timer.start()

    def on_screen(self, stage: str, screen: Screen) -> None:
        if self._pin_asked and self.pin_file is not None and _SHOWN_PIN.fullmatch(screen.big):
            self._pin_asked = False
            partial = self.pin_file.with_name(self.pin_file.name + ".new")
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="ascii") as out:
                out.write(screen.big.replace(" ", "") + "\n")
            partial.replace(self.pin_file)

    def _press_on(self) -> None:
        presses: list[tuple[Button, PressKind]] = [(Button.OK, PRESS)]
        if self.pin_file is not None:
            self._pin_asked = True
            presses = [(Button.CHORD, CHORD), (Button.CHORD, CHORD), (Button.OK, PRESS), (Button.MINUS, PRESS),
                       *presses]
        for button, kind in presses:
            self.events.put(ButtonEvent(1, button, kind, time.monotonic()))


def _fingers(sim: SimOptions, devices: Devices, events: EventSink, devices_config: DevicesConfig) -> Fingers:
    if sim.fingers == "queue" or devices.pin_factory is None:
        return QueueFingers(events)
    presser = SimulatedPresser(devices.pin_factory, devices.pinmap, seed=sim.seed,
                               bounce=Bounce() if sim.bounce else NO_BOUNCE)
    return PresserFingers(presser, sim.pace, devices_config.buttons.timing)


def sim_record_dir(config: TableConfig) -> Path:
    """Simulated games keep their records apart, so the real table never resumes one."""
    return config.record_dir / "sim"
