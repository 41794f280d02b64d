"""Assembling a table: devices, camera reader, record and controller.

``coyote-pi run`` builds the real table here, from a
:class:`~coyote_pi.table.config.TableConfig` and the device layer's
:class:`~coyote_pi.devices.config.DevicesConfig`::

    with open_rig(config, devices_config, table=resume_or_none(config, new=False)) as rig:
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

from coyote_pi.devices.camera import Camera
from coyote_pi.devices.config import CameraConfig, DevicesConfig
from coyote_pi.devices.errors import CameraError, CameraLibraryError
from coyote_pi.devices.factory import Devices, make_camera, make_devices
from coyote_pi.table import store
from coyote_pi.table.config import TableConfig
from coyote_pi.table.controller import Controller

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

    def __exit__(self, *exc_info) -> None:
        self.close()


@dataclass(frozen=True)
class Resumption:
    """What :func:`resume_newest` found in the record folder."""

    #: The record to resume with the table's memory of it (None: a new game).
    table: tuple | None = None
    #: The newest record, when it could not be resumed (a new game starts instead).
    skipped: Path | None = None
    #: Why it could not be.
    reason: str = ""


def resume_newest(config: TableConfig, *, new: bool) -> Resumption:
    """The newest unfinished game of the record folder, unless ``new``.

    A newest record that cannot be read is left alone (logged, and named in the
    result so the table can say it where it stays visible) and a new game starts: the
    table must keep working; the broken file stays for inspection.
    """
    if new:
        return Resumption()
    records = store.RecordStore(config.record_dir)
    try:
        path = records.newest_unfinished()
        table = None if path is None else store.open_record(path)
    except store.RecordError as error:  # its open round's private file may be missing too
        log.warning("the newest game record cannot be resumed (%s); starting a new game", error)
        return Resumption(skipped=records.paths()[-1], reason=str(error))
    return Resumption(table)


def resume_or_none(config: TableConfig, *, new: bool) -> tuple | None:
    """The record to resume and its memory (see :func:`resume_newest`), or None."""
    return resume_newest(config, new=new).table


def open_rig(
    config: TableConfig,
    devices_config: DevicesConfig,
    *,
    parts: Mapping[str, object] | None = None,
    reader=None,
    outputs: Iterable = (),
    **controller_options,
) -> Rig:
    """Open the devices of ``devices_config`` and build the controller on them.

    ``parts`` are ready-made devices that replace configured ones (see
    :func:`~coyote_pi.devices.factory.make_devices`); ``outputs`` are frame sinks for the
    display (a GIF). The camera's frames are read by the vision code's ``TableReader``
    unless ``reader`` replaces it. ``controller_options`` go to the
    :class:`~coyote_pi.table.controller.Controller`: ``table`` (a resumed record, see
    :func:`resume_or_none`), ``listeners``, ``meta``, ``notifier``, ``epoch``,
    ``new_game_when_over``, ``not_resumed`` (see :func:`resume_newest`).
    """
    events: queue.Queue = queue.Queue()
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
        controller = Controller(config, display=devices.display, camera=devices.camera, reader=reader, events=events,
                                **controller_options)
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
        return make_camera(config), "problem.no_camera"
    except CameraError as error:
        log.error("no camera (%s): cards will be entered with the buttons", error)
        return None, "problem.camera_library" if isinstance(error, CameraLibraryError) else "problem.camera_start"
