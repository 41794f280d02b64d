"""Assembling a table: devices, camera reader, record and controller.

``coyote-pi run`` builds the real table here, from a
:class:`~coyote_pi.config.TableConfig` and the device layer's
:class:`~coyote_pi.devices.config.DevicesConfig`::

    with store.lock_folder(config.record_dir), \\
            open_rig(config, devices_config, resumed=resume_or_none(config, new=False)) as rig:
        rig.run()

The simulated table (:func:`coyote_pi.sim.rig.open_sim_rig`: the demo, ``run --sim``,
the benchmark and the tests) builds the parts only it has and hands them to the same
:func:`open_rig` as ready-made ``parts``, so both tables run the same wiring.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coyote_pi.config import TableConfig
from coyote_pi.devices.camera import Camera
from coyote_pi.devices.config import CameraConfig, DevicesConfig
from coyote_pi.devices.errors import CameraError, CameraLibraryError
from coyote_pi.devices.factory import Devices, make_camera, make_devices
from coyote_pi.engine import OVER
from coyote_pi.record import RecordedGame
from coyote_pi.table import store
from coyote_pi.table.camera_reads import Reader
from coyote_pi.table.controller import Controller, ControllerOptions, QueueItem

log = logging.getLogger(__name__)


@dataclass
class Rig:
    """An assembled table. Use it as a context manager; :meth:`close` releases everything."""

    controller: Controller
    devices: Devices

    def run(self, *, until_over: bool = False) -> None:
        self.controller.run(until_over=until_over)

    def close(self) -> None:
        self.controller.close()
        self.devices.close()

    def __enter__(self) -> Rig:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass(frozen=True)
class Resumption:
    """What :func:`resume_newest` found in the record folder."""

    #: The record to resume with the table's memory of it; a
    #: :class:`~coyote_pi.table.store.Unresumable` when the newest record cannot be
    #: resumed (the controller asks a person before it starts another game); None: a new game.
    table: tuple[RecordedGame, store.TableMemory] | store.Unresumable | None = None
    #: The newest record, when it could not be resumed (it is kept as it is).
    skipped: Path | None = None
    #: Why it could not be.
    reason: str = ""


def resume_newest(config: TableConfig, *, new: bool, finished: bool = True) -> Resumption:
    """The newest game of the record folder to go on with, unless ``new``.

    The resumed record comes with its memory (see :func:`store.open_record
    <coyote_pi.table.store.open_record>`: a damaged end is set aside), a finished game
    too when ``finished`` (its result and fingerprint stay on the OLED until a new game
    starts). A newest record that cannot be resumed (unreadable, or its open round's
    private file missing) is logged and kept for inspection, and named in the result.
    """
    if new:
        return Resumption()
    path = store.RecordStore(config.record_dir).newest()
    if path is None:
        return Resumption()
    try:
        table, memory = store.open_record(path)
    except (store.RecordError, OSError) as error:
        reason = str(error) if isinstance(error, store.RecordError) else f"cannot repair it: {error}"
        log.error("the newest game record %s cannot be resumed (%s); it is kept as it is", path, reason)
        return Resumption(store.Unresumable(path, reason), path, reason)
    if table.repair is not None:
        log.warning("%s: %d bytes from line %d on set aside in %s (%s)", path, table.repair.size, table.repair.line,
                    table.repair.side_file.name, table.repair.reason or "a write cut short")
    if table.game.phase == OVER and not finished:
        table.close()
        return Resumption()
    return Resumption((table, memory))


def resume_or_none(config: TableConfig, *, new: bool, finished: bool = True,
                   ) -> tuple[RecordedGame, store.TableMemory] | store.Unresumable | None:
    """What to give the controller: the record to resume and its memory, an
    :class:`~coyote_pi.table.store.Unresumable`, or None (see :func:`resume_newest`)."""
    return resume_newest(config, new=new, finished=finished).table


def open_rig(
    config: TableConfig,
    devices_config: DevicesConfig,
    *,
    parts: Mapping[str, object] | None = None,
    reader: Reader | None = None,
    outputs: Iterable[Any] = (),
    **controller_options: Any,
) -> Rig:
    """Open the devices of ``devices_config`` and build the controller on them.

    ``parts`` are ready-made devices that replace configured ones (see
    :func:`~coyote_pi.devices.factory.make_devices`); ``outputs`` are frame sinks for the
    display (a GIF). The camera's frames are read by the vision code's ``TableReader``
    unless ``reader`` replaces it. ``controller_options`` are fields of the
    :class:`~coyote_pi.table.controller.ControllerOptions`: ``resumed`` (a resumed record,
    see :func:`resume_or_none`), ``listeners``, ``meta``, ``notifier``, ``epoch``,
    ``new_game_when_over``, ``not_resumed`` (see :func:`resume_newest`).
    """
    events: queue.Queue[QueueItem] = queue.Queue()
    parts = dict(parts or {})
    # The camera is opened last: a bad display or pin setting is reported (and stops the
    # service) before a slow camera start, whose failure only leaves the table manual.
    open_camera = "camera" not in parts
    if open_camera:
        parts["camera"] = None
    devices = make_devices(devices_config, events, parts=parts, outputs=outputs)
    try:
        if open_camera:
            devices.camera, controller_options["camera_problem"] = _camera_or_none(devices_config.camera)
        if reader is None and devices.camera is not None:
            from coyote_pi.vision import TableReader

            reader = TableReader(config.scheme)
        controller = Controller(config, ControllerOptions(display=devices.display, camera=devices.camera, reader=reader,
                                                          events=events, **controller_options))
    except BaseException:
        devices.close()
        raise
    return Rig(controller, devices)


def _camera_or_none(config: CameraConfig) -> tuple[Camera | None, str]:
    """The configured camera, and the text key the OLED shows when there is none.

    A camera that cannot start, its software included (picamera2 missing, or built for
    another numpy), leaves the table on the manual path (cards entered with the
    buttons) instead of leaving it dead, or restarting it for ever under systemd.
    """
    try:
        from coyote_pi.vision.sharpness import lens_position_from_still

        return make_camera(config, focus_from_still=lens_position_from_still), "problem.no_camera"
    except CameraError as error:
        log.error("no camera (%s): cards will be entered with the buttons", error)
        return None, "problem.camera_library" if isinstance(error, CameraLibraryError) else "problem.camera_start"
