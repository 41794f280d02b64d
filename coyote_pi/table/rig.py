"""Assembling a table: devices, camera reader, record, controller and (simulated) hands.

``coyote-pi run``, ``run --sim``, the demo, the benchmark and the tests all build their
table here, so they exercise the same wiring. :func:`open_rig` takes a
:class:`~coyote_pi.table.config.TableConfig`, the device layer's
:class:`~coyote_pi.devices.config.DevicesConfig` and, for a simulated table, a
:class:`SimOptions`::

    with open_rig(config, devices_config, sim=SimOptions(seed=3)) as rig:
        rig.run(until_over=True)

On a simulated table the synthetic camera renders :meth:`SimTable.scene
<coyote_pi.table.sim.SimTable.scene>`; ``camera="scene"`` swaps the camera and vision
for the :class:`~coyote_pi.table.sim.SceneReader` test double (fast logic tests).
"""

from __future__ import annotations

import dataclasses
import logging
import queue
from dataclasses import dataclass, field
from pathlib import Path

from coyote_pi.table import store
from coyote_pi.table.config import TableConfig
from coyote_pi.table.controller import Controller
from coyote_pi.table.sim import PresserFingers, QueueFingers, SceneCamera, SceneReader, SimPace, SimTable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SimOptions:
    """A simulated table: its seed, who presses the buttons and how the camera sees it."""

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
    setup_answers: dict = field(default_factory=dict)
    misclick: bool = False


@dataclass
class Rig:
    """An assembled table. Use it as a context manager; :meth:`close` releases everything."""

    controller: Controller
    devices: object | None = None
    sim: SimTable | None = None
    camera: object | None = None  #: the camera in use (closed with the rig)

    def run(self, *, until_over: bool = False) -> None:
        if self.sim is not None:
            self.sim.start()
        self.controller.run(until_over=until_over)

    def close(self) -> None:
        if self.sim is not None:
            self.sim.close()
        self.controller.close()
        if self.camera is not None and (self.devices is None or self.camera is not self.devices.camera):
            self.camera.close()
        if self.devices is not None:
            self.devices.close()

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def resume_or_none(config: TableConfig, *, new: bool) -> tuple | None:
    """The newest unfinished game of the record folder, unless ``new`` (then None).

    A newest record that cannot be read is left alone (logged) and a new game starts:
    the table must keep working; the broken file stays for inspection.
    """
    if new:
        return None
    records = store.RecordStore(config.record_dir)
    try:
        path = records.newest_unfinished()
    except store.RecordError as error:
        log.warning("the newest game record cannot be resumed (%s); starting a new game", error)
        return None
    return None if path is None else store.open_record(path)


def open_rig(
    config: TableConfig,
    devices_config,
    *,
    sim: SimOptions | None = None,
    table: tuple | None = None,
    listeners=(),
    outputs=(),
    notifier=None,
    epoch: int = 0,
    meta: dict | None = None,
    keyboard=None,
    new_game_when_over: bool = False,
    display=None,
    camera=None,
) -> Rig:
    """Open the devices of ``devices_config`` and build the controller (and simulated table).

    ``table`` is a resumed record (see :func:`resume_or_none`); ``outputs`` are frame sinks
    for the display (a GIF); ``display`` replaces the configured display (tests pass a
    :class:`~coyote_pi.devices.display.FlakyDummy`-backed one); ``camera(scene)`` makes
    the camera instead of ``[camera]`` (tests wrap the synthetic one in simulated faults).
    """
    events: queue.Queue = queue.Queue()
    sim_table = None
    if sim is not None:
        seats = sim.seats or (table[0].game.config.players if table else config.game.players)
        sim_table = SimTable(seats=seats, seed=sim.seed, players=sim.players, pace=sim.pace, scheme=config.scheme,
                             setup_answers=sim.setup_answers, misclick=sim.misclick)
        if sim.camera == "scene" or camera is not None:
            devices_config = dataclasses.replace(
                devices_config, camera=dataclasses.replace(devices_config.camera, backend="none"))
    if display is not None:
        devices_config = dataclasses.replace(
            devices_config, display=dataclasses.replace(devices_config.display, driver="none"))
    devices, camera_problem = _open_devices(devices_config, events, scene=sim_table.scene if sim_table else None,
                                            outputs=outputs, keyboard=keyboard)
    try:
        made_camera = camera
        camera, reader = devices.camera, None
        if made_camera is not None:
            camera = made_camera(sim_table.scene if sim_table else None)
        if sim is not None and sim.camera == "scene":
            camera, reader = camera or SceneCamera(sim_table.scene), SceneReader()
        elif camera is not None:
            from coyote_pi.vision import TableReader

            reader = TableReader(config.scheme)
        all_listeners = ([sim_table] if sim_table else []) + list(listeners)
        controller = Controller(
            config, display=display or devices.display, camera=camera, reader=reader, table=table,
            listeners=all_listeners, meta=meta, notifier=notifier, epoch=epoch, events=events,
            new_game_when_over=new_game_when_over, camera_problem=camera_problem,
        )
    except BaseException:
        devices.close()
        raise
    if sim_table is not None and sim.players:
        sim_table.fingers = _fingers(sim, devices, events, devices_config)
    return Rig(controller, devices, sim_table, camera)


def _open_devices(devices_config, events: queue.Queue, **options):
    """The devices, and the text key the OLED shows when there is no camera.

    A camera that cannot start, its software included (picamera2 missing, or built for
    another numpy), leaves the table on the manual path (cards entered with the
    buttons) instead of leaving it dead, or restarting it for ever under systemd.
    """
    from coyote_pi.devices.errors import CameraError, CameraLibraryError
    from coyote_pi.devices.factory import make_devices

    try:
        return make_devices(devices_config, events, **options), "problem.no_camera"
    except CameraError as error:
        log.error("no camera (%s): cards will be entered with the buttons", error)
        problem = "problem.camera_library" if isinstance(error, CameraLibraryError) else "problem.camera_start"
        without = dataclasses.replace(devices_config.camera, backend="none")
        return make_devices(dataclasses.replace(devices_config, camera=without), events, **options), problem


def _fingers(sim: SimOptions, devices, events: queue.Queue, devices_config):
    if sim.fingers == "queue" or devices.pin_factory is None:
        return QueueFingers(events)
    from coyote_pi.devices.buttons import ButtonTiming
    from coyote_pi.devices.presser import NO_BOUNCE, Bounce, SimulatedPresser

    buttons = devices_config.buttons
    timing = ButtonTiming(buttons.debounce_ms / 1000, buttons.hold_ms / 1000, buttons.repeat_ms / 1000)
    presser = SimulatedPresser(devices.pin_factory, devices.pinmap, seed=sim.seed,
                               bounce=Bounce() if sim.bounce else NO_BOUNCE)
    return PresserFingers(presser, sim.pace, timing)


def sim_record_dir(config: TableConfig) -> Path:
    """Simulated games keep their records apart, so the real table never resumes one."""
    return config.record_dir / "sim"
