"""``coyote-pi doctor --report FILE``: what only a real Pi can tell, in one file for a bug report.

Emulation (``make test-arm64``) proves the code runs on arm64; the camera stack, lgpio,
the I2C bus's timing and the board's speed are only seen on the device itself. This
report collects them, one section each, so that a host can attach a single text file:

- **board and system**: the board's name, the OS release, kernel, processor, Python;
- **libraries**: the apt packages of the camera and GPIO stack and the venv's
  libraries, with their versions;
- **camera**: its model, the still mode and the focus in use;
- **reading live frames**: for a few stills, how long the table's reader took and how
  long OpenCV's default ArUco detector took on the same frame, with how many markers
  each found;
- **stands**: each stand's marker size in pixels, its blur and contrast
  (:func:`coyote_pi.vision.sharpness.stand_sharpness`, the doctor's focus check);
- **buttons**: per line (seat and button), the presses seen while the report listened
  and how much each contact bounced (:func:`line_timings`);
- **display**: the OLED's frame time over a series of screens and the I2C errors met;
- **services**: each unit's state and restarts, and the journal's warnings since boot.

**Hidden information.** A still shows every card on the stands. The report never
writes a frame or a card: it prints timings, counts and sizes only, and it refuses to
take a still at all while the newest game record has a round open
(:func:`open_round_of`), saying so in the camera sections. A test checks both.

Each section runs on its own: a missing piece of hardware, or one the running service
holds, is a line saying so (``not available: ...``), never a crash of the report. The
sources (camera, buttons, display, the system's commands) come in a :class:`Sources`;
``--sim`` gives the simulated table's (:func:`coyote_pi.commands.doctor.sim_sources`).
"""

from __future__ import annotations

import importlib.metadata
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from coyote_pi.devices.camera import Camera
from coyote_pi.pi import install
from coyote_pi.pi.doctor import STOP_SERVICE, Host

#: The apt packages whose versions matter to the table (the camera and GPIO stack).
APT_PACKAGES = ("python3-picamera2", "python3-libcamera", "libcamera0.3", "libcamera0.4", "libcamera0.5",
                "python3-lgpio", "python3-numpy", "python3-pil", "python3-simplejpeg", "python3-gpiozero",
                "libzbar0", "i2c-tools", "systemd")
#: The Python distributions the table imports (some come from apt, through the venv's system site).
VENV_PACKAGES = ("numpy", "opencv-python-headless", "pillow", "gpiozero", "lgpio", "luma.core", "luma.oled",
                 "pyzbar", "picamera2", "smbus2", "coyote-pi")
#: The units whose restarts and warnings are reported.
UNITS = install.UNIT_NAMES
#: Journal lines shown at most (the count covers them all).
JOURNAL_LINES = 20


@dataclass(frozen=True)
class Edge:
    """A level change seen on a button's line: when (seconds) and whether it is now pressed."""

    at: float
    pressed: bool


@dataclass(frozen=True)
class LineTiming:
    """What one button line did: settled presses, how long they lasted, how its contact chattered."""

    presses: int
    press_seconds: tuple[float, ...]
    bounces: int  #: changes that were undone within the debounce time
    longest_chatter: float  #: seconds from the first to the last change of one switch-over

    def line(self) -> str:
        if not self.presses:
            return "no press seen"
        held = sorted(self.press_seconds)
        how_long = (f"held {1000 * held[0]:.0f}-{1000 * held[-1]:.0f} ms (median {1000 * statistics.median(held):.0f})"
                    if held else "still held at the end")
        return (f"{self.presses} press(es), {how_long}; {self.bounces} bounce(s), "
                f"longest chatter {1000 * self.longest_chatter:.1f} ms")


def line_timings(edges: Sequence[Edge], debounce: float) -> LineTiming:
    """Settle a line's raw edges: changes closer together than ``debounce`` are one switch-over.

    A switch-over is a burst of edges each less than ``debounce`` after the last; its
    last level is what the contact settled to, every edge before it in the burst is a
    bounce, and the burst's span is its chatter. A press lasts from the settling of a
    switch-over to pressed until the first edge of the next one.
    """
    bursts: list[list[Edge]] = []
    for edge in sorted(edges, key=lambda e: e.at):
        if bursts and edge.at - bursts[-1][-1].at < debounce:
            bursts[-1].append(edge)
        else:
            bursts.append([edge])
    held, pressed_since = [], None
    for burst in bursts:
        if pressed_since is not None and not burst[-1].pressed:
            held.append(burst[0].at - pressed_since)
            pressed_since = None
        elif burst[-1].pressed and pressed_since is None:
            pressed_since = burst[-1].at
    return LineTiming(presses=sum(burst[-1].pressed for burst in bursts), press_seconds=tuple(held),
                      bounces=sum(len(burst) - 1 for burst in bursts),
                      longest_chatter=max((burst[-1].at - burst[0].at for burst in bursts), default=0.0))


def open_round_of(records: Path) -> str | None:
    """The newest record's name if a round is open in it (or it cannot be read), else None."""
    from coyote_pi.record import RecordError, read_record
    from coyote_pi.table.store import RecordStore

    newest = RecordStore(records).newest()
    if newest is None:
        return None
    try:
        record = read_record(newest, allow_torn_tail=True)
    except (RecordError, OSError):
        return f"{newest.name} (unreadable, so it may be)"  # no still is taken
    return newest.name if record.open_round is not None else None


class DisplayProbe:
    """What the display section drives: ``show(index)`` draws a test screen, True once it is on the panel."""

    def show(self, index: int) -> bool:
        raise NotImplementedError

    def last_error(self) -> str | None:
        """The last write's error, if it failed."""
        return None

    def close(self) -> None:
        pass


@dataclass
class Sources:
    """Where the report looks. ``None`` for a source means it is not there (a line says so)."""

    host: Host = field(default_factory=Host)
    #: The game records: a round open in the newest forbids stills.
    records: Path = Path(install.STATE_DIR) / "games"
    #: Opens the camera (raises when it cannot); with the reader's scheme.
    open_camera: Callable[[], Camera] | None = None
    scheme: str = "aruco"
    #: Facts about the opened camera: ``{"model": ..., "mode": ..., "focus": ...}``.
    camera_facts: Callable[[Camera], dict[str, str]] = lambda camera: {"model": camera.description}
    #: Listens to every button line for the given seconds; ``{line name: edges}``.
    watch_buttons: Callable[[float], dict[str, list[Edge]]] | None = None
    debounce: float = 0.02
    #: Opens the OLED for the frame-time test (raises when it cannot).
    open_display: Callable[[], DisplayProbe] | None = None
    #: Why the camera, buttons or display cannot be used now (e.g. the service holds them).
    held_by_service: str | None = None
    clock: Callable[[], float] = time.perf_counter


@dataclass(frozen=True)
class Settings:
    """How much the report samples."""

    frames: int = 3
    button_seconds: float = 0.0
    display_frames: int = 20


class FieldReport:
    """Writes the sections (see the module docstring) from :class:`Sources`."""

    def __init__(self, sources: Sources, settings: Settings = Settings()) -> None:
        self.sources = sources
        self.settings = settings
        self._frames_read: list[tuple[float, float, int, int, dict[int, str]]] = []

    def text(self) -> str:
        """The whole report."""
        out = ["coyote-pi field report", f"written {time.strftime('%Y-%m-%d %H:%M:%S %z')}", ""]
        for title, section in (
            ("board and system", self.board),
            ("libraries", self.libraries),
            ("camera", self.camera),
            ("reading live frames", self.reading),
            ("stands", self.stands),
            ("buttons", self.buttons),
            ("display", self.display),
            ("services", self.services),
        ):
            out.append(f"== {title}")
            try:
                out.extend(section())
            except Exception as err:  # one section's failure is a line in the report, never the end of it
                out.append(f"not available: {type(err).__name__}: {err}")
            out.append("")
        return "\n".join(out)

    # -- the sections ----------------------------------------------------------------

    def board(self) -> list[str]:
        host = self.sources.host
        release = install.os_release(host.root)
        return [
            f"board: {host.pi_model() or 'not a Raspberry Pi'}",
            f"system: {release.get('PRETTY_NAME', 'unknown (no os-release)')}",
            f"kernel: {platform.release()} ({platform.machine()})",
            f"python: {sys.version.split()[0]} ({sys.executable})",
        ]

    def libraries(self) -> list[str]:
        # Every installed package with what it provides: Trixie's libzbar0t64 is the libzbar0 asked for.
        status, out = self.sources.host.query(["dpkg-query", "-W", "-f", "${Package}\\t${Version}\\t${Provides}\\n"])
        apt: dict[str, str] = {}
        for package, version, provides in (line.split("\t") for line in out.splitlines() if line.count("\t") == 2):
            for name in (package, *(provided.split()[0] for provided in provides.split(",") if provided.strip())):
                apt.setdefault(name, version if name == package else f"{version} ({package})")
        lines = [f"apt {name}: {apt[name]}" for name in APT_PACKAGES if apt.get(name)]
        if status == 127:
            lines.append("apt: not available (no dpkg-query: not Debian or Raspberry Pi OS)")
        for name in VENV_PACKAGES:
            try:
                lines.append(f"python {name}: {importlib.metadata.version(name)}")
            except importlib.metadata.PackageNotFoundError:
                lines.append(f"python {name}: not installed")
        return lines

    def camera(self) -> list[str]:
        if (refused := self._refusal("camera")) is not None:
            return [refused]
        with self._camera() as camera:
            facts = self.sources.camera_facts(camera)
            lines = [f"{key}: {value}" for key, value in facts.items()]
            self._frames_read = [self._read_once(camera) for _ in range(self.settings.frames)]
        return lines

    def reading(self) -> list[str]:
        if (refused := self._refusal("frames")) is not None:
            return [refused]
        if not self._frames_read:
            return ["no frame read (see the camera section)"]
        lines = []
        for number, (ours, default, found, default_found, _) in enumerate(self._frames_read, start=1):
            lines.append(f"frame {number}: table reader {1000 * ours:.0f} ms ({found} markers); "
                         f"OpenCV's default detector {1000 * default:.0f} ms ({default_found} markers)")
        ours = statistics.median(frame[0] for frame in self._frames_read)
        default = statistics.median(frame[1] for frame in self._frames_read)
        lines.append(f"median: table reader {1000 * ours:.0f} ms, default detector {1000 * default:.0f} ms "
                     f"({ours / default:.1f}x)" if default else "median: default detector took no time")
        return lines

    def stands(self) -> list[str]:
        if (refused := self._refusal("stands")) is not None:
            return [refused]
        if not self._frames_read:
            return ["no frame read (see the camera section)"]
        stands = self._frames_read[-1][4]
        return [f"stand {seat}: {stand}" for seat, stand in sorted(stands.items())] or ["no stand found in the last frame"]

    def buttons(self) -> list[str]:
        if self.sources.held_by_service:
            return [f"not listened: {self.sources.held_by_service}"]
        if self.sources.watch_buttons is None:
            return ["not available: no GPIO here (not a Raspberry Pi, no pin factory)"]
        if self.settings.button_seconds <= 0:
            return ["not listened: pass --buttons SECONDS and press each button a few times meanwhile"]
        seen = self.sources.watch_buttons(self.settings.button_seconds)
        lines = [f"listened {self.settings.button_seconds:g} s; debounce {1000 * self.sources.debounce:.0f} ms"]
        lines += [f"{name}: {line_timings(edges, self.sources.debounce).line()}" for name, edges in seen.items()]
        return lines

    def display(self) -> list[str]:
        if self.sources.held_by_service:
            return [f"not measured: {self.sources.held_by_service}"]
        if self.sources.open_display is None:
            return ["not available: no display configured"]
        probe = self.sources.open_display()
        times, failed, error = [], 0, None
        try:
            for index in range(self.settings.display_frames):
                started = self.sources.clock()
                shown = probe.show(index)
                times.append(self.sources.clock() - started)
                failed += not shown
                error = probe.last_error() or error
        finally:
            probe.close()
        lines = [f"{len(times)} frames: median {1000 * statistics.median(times):.1f} ms, "
                 f"slowest {1000 * max(times):.1f} ms; {failed} not shown at once (I2C errors, retried)"]
        return lines + ([f"last error: {error}"] if error else [])

    def services(self) -> list[str]:
        query = self.sources.host.query
        lines = []
        for unit in UNITS:
            status, out = query(["systemctl", "show", unit, "--property=ActiveState,NRestarts,ExecMainStartTimestamp"])
            if status == 127:
                return ["not available: no systemctl (systemd is not running this system)"]
            if status != 0:
                return [f"not available: `systemctl show` failed (exit status {status}): is systemd running here?"]
            fields = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
            lines.append(f"{unit}: {fields.get('ActiveState', 'unknown')}, {fields.get('NRestarts', '?')} "
                         f"restart(s), started {fields.get('ExecMainStartTimestamp') or 'never'}")
        units = [argument for unit in UNITS for argument in ("-u", unit)]
        status, out = query(["journalctl", "-b", "-q", "--no-pager", "-p", "warning", "-o", "short-monotonic", *units])
        if status == 127:
            return [*lines, "journal: not available (no journalctl)"]
        warnings = out.splitlines()
        lines.append(f"journal warnings since boot: {len(warnings)}"
                     + (f" (the last {JOURNAL_LINES})" if len(warnings) > JOURNAL_LINES else ""))
        return lines + [f"  {line}" for line in warnings[-JOURNAL_LINES:]]

    # -- helpers -----------------------------------------------------------------------

    def _refusal(self, what: str) -> str | None:
        """Why no still may be taken now (a round is open, or the service holds the camera)."""
        open_in = open_round_of(self.sources.records)
        if open_in is not None:
            return (f"refused: a round is open in {open_in} in {self.sources.records}, and a still would show "
                    f"its cards; run the report between rounds or games ({what} not sampled)")
        if self.sources.held_by_service:
            return f"not sampled: {self.sources.held_by_service}"
        if self.sources.open_camera is None:
            return "not available: no camera configured"
        return None

    def _camera(self) -> _Opened:
        assert self.sources.open_camera is not None
        return _Opened(self.sources.open_camera())

    def _read_once(self, camera: Camera) -> tuple[float, float, int, int, dict[int, str]]:
        """One still: the reader's and the default detector's times and marker counts, stand sizes."""
        import cv2

        from coyote_pi.vision import TableReader
        from coyote_pi.vision.artwork import aruco_dictionary
        from coyote_pi.vision.markerset import load_markers

        frame = camera.capture()
        reader = TableReader(self.sources.scheme)
        clock = self.sources.clock
        started = clock()
        reading = reader.read(frame)
        ours = clock() - started
        markers = load_markers(self.sources.scheme)
        default_found = 0
        default = 0.0
        if markers.dictionary:
            detector = cv2.aruco.ArucoDetector(aruco_dictionary(markers.dictionary), cv2.aruco.DetectorParameters())
            started = clock()
            _, ids, _ = detector.detectMarkers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
            default = clock() - started
            default_found = 0 if ids is None else len(ids)
        from coyote_pi.vision.sharpness import stand_sharpness

        stands = {seat: (f"marker {seen.marker_px:.0f} px across, blur {seen.blur_px:.2f} px "
                         f"({seen.card_blur:.2f} of a card module), contrast {seen.contrast:.0f} grey levels")
                  for seat, seen in stand_sharpness(frame, markers).items()}
        found = sum(s.kind in ("card", "anchor", "slot") for s in reading.sightings)
        return ours, default, found, default_found, stands


class _Opened:
    """A camera closed when the block ends."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera

    def __enter__(self) -> Camera:
        return self.camera

    def __exit__(self, *exc_info: object) -> None:
        self.camera.close()


# -- the sources: the Pi's own, or the simulated table's ------------------------------------


class ScreenProbe(DisplayProbe):
    """Two test screens in turn on a :class:`~coyote_pi.devices.display.TableDisplay`: every frame changes the panel."""

    def __init__(self, display: object) -> None:
        from coyote_pi.devices.screen import Screen

        self.display = display
        self.screens = [Screen(title="coyote-pi doctor", big=str(n), lines=["frame time test"]) for n in (1, 2)]

    def show(self, index: int) -> bool:
        return bool(self.display.show(self.screens[index % 2]))  # type: ignore[attr-defined]

    def last_error(self) -> str | None:
        return self.display.last_error  # type: ignore[attr-defined, no-any-return]

    def close(self) -> None:
        self.display.close()  # type: ignore[attr-defined]


def button_lines(pinmap_path: str | None) -> dict[str, int]:
    """``{"seat 2 plus": gpio}`` for every seat button of the pin map (the packaged one by default)."""
    from coyote_pi.devices.pinmap import default_pinmap_path, load_pinmap

    pins = load_pinmap(pinmap_path or default_pinmap_path())
    return {f"seat {seat.number} {name}": getattr(seat, name).gpio for seat in pins.seats
            for name in ("minus", "plus", "ok")}


def gpio_watcher(lines: dict[str, int], pin_factory: object | None = None,
                 meanwhile: Callable[[], None] | None = None) -> Callable[[float], dict[str, list[Edge]]]:
    """A ``watch_buttons``: every edge on ``lines`` (pulled up, pressed is low) for a time.

    ``meanwhile`` runs once the lines are watched (the simulated table presses them).
    """

    def watch(seconds: float) -> dict[str, list[Edge]]:
        from gpiozero import DigitalInputDevice

        seen: dict[str, list[Edge]] = {name: [] for name in lines}
        devices = []
        try:
            for name, gpio in lines.items():
                device = DigitalInputDevice(gpio, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                # Pulled up, so gpiozero calls the line active when low: pressed. Its own thread calls these.
                device.when_activated = _recorder(seen[name], pressed=True)
                device.when_deactivated = _recorder(seen[name], pressed=False)
                devices.append(device)
            if meanwhile is not None:
                meanwhile()
            time.sleep(seconds)
        finally:
            for device in devices:
                device.close()
        return seen

    return watch


def _recorder(edges: list[Edge], *, pressed: bool) -> Callable[[], None]:
    """A gpiozero callback (no argument) that notes the moment of an edge to ``pressed``."""

    def note() -> None:
        edges.append(Edge(time.monotonic(), pressed))

    return note


def pi_sources(config_path: Path, host: Host) -> Sources:
    """The Pi's own devices, as ``config_path`` sets them up (the real table's backends)."""
    from coyote_pi.config import load_config
    from coyote_pi.devices.config import DevicesConfig
    from coyote_pi.devices.factory import make_camera, make_display

    config = load_config(config_path if config_path.is_file() else None)
    devices = DevicesConfig.from_mapping(config.devices)
    status, state = host.query(["systemctl", "is-active", install.UNIT_NAME])
    held = None
    if status == 0 and state.strip() == "active":
        held = f"the table's service holds the camera, the buttons and the OLED: {STOP_SERVICE}"
    display = devices.display

    def open_camera() -> Camera:
        camera = make_camera(devices.camera)
        if camera is None:
            raise RuntimeError("[camera] backend is none")
        return camera

    def open_display() -> DisplayProbe:
        made = make_display(display)
        if made is None:
            raise RuntimeError("[display] driver is none")
        return ScreenProbe(made)

    watch = None
    if host.pi_model() is not None:
        watch = gpio_watcher(button_lines(devices.buttons.pinmap or None))
    return Sources(host=host, records=config.record_dir, open_camera=open_camera, scheme=config.scheme,
                   camera_facts=camera_facts, watch_buttons=watch, debounce=devices.buttons.debounce_ms / 1000,
                   open_display=open_display, held_by_service=held)


def camera_facts(camera: Camera) -> dict[str, str]:
    """Model, still mode and focus of a camera (what picamera2 says of the Pi camera)."""
    from coyote_pi.devices.focus import describe

    facts = {"camera": camera.description}
    inner = getattr(getattr(camera, "camera", camera), "_camera", None)  # the Picamera2 object, if any
    properties = getattr(inner, "camera_properties", None) or {}
    if properties:
        facts["model"] = str(properties.get("Model", "unknown"))
        facts["sensor"] = f"{properties.get('PixelArraySize', '?')} pixels"
    lens = getattr(getattr(camera, "camera", camera), "lens_position", None)
    facts["focus"] = describe(lens) if lens is not None else "fixed lens (no autofocus)"
    return facts


def sim_sources(records: Path, seed: int = 1) -> Sources:
    """The simulated table: a synthetic camera over a dealt table, mock GPIO pressed by
    bouncing simulated fingers, luma's dummy OLED. No service, no journal."""
    from gpiozero.pins.mock import MockFactory
    from luma.core.device import dummy

    from coyote_pi.devices.display import TableDisplay
    from coyote_pi.devices.pinmap import default_pinmap_path, load_pinmap
    from coyote_pi.sim.camera import SyntheticCamera
    from coyote_pi.sim.presser import SimulatedPresser
    from coyote_pi.sim.scene import random_scene

    scene = random_scene(np.random.default_rng(seed), seats=4)
    factory = MockFactory()
    pins = load_pinmap(default_pinmap_path())
    presser = SimulatedPresser(factory, pins, seed=seed)

    def press_each_line() -> None:
        for seat in pins.seats[:4]:
            for name in ("minus", "plus", "ok"):
                presser.press(seat.number, name, hold=0.05 + 0.01 * seat.number)

    lines = {name: gpio for name, gpio in button_lines(None).items() if int(name.split()[1]) <= 4}
    return Sources(
        host=Host(query=lambda argv: (127, "")),
        records=records,
        open_camera=lambda: SyntheticCamera(lambda: scene, size=(2304, 1296), seed=seed),
        camera_facts=lambda camera: {"camera": camera.description, "model": "simulated", "focus": "simulated"},
        watch_buttons=gpio_watcher(lines, factory, press_each_line),
        open_display=lambda: ScreenProbe(TableDisplay(dummy(width=128, height=64, mode="1"))),
    )

