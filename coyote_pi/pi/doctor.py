"""``coyote-pi doctor``: is this Pi ready for a game? One line per check, with what to do.

Each line is ``PASS``, ``FAIL`` (with the fix) or ``SKIP`` (with why it could not be
checked here). The checks, in the order a host sets the device up:

- board: a Raspberry Pi (``/proc/device-tree/model``). On any other machine the
  hardware checks are skipped, and say so, and the rest still run.
- configuration: /etc/coyote-pi/config.toml (or ``--config``) is one the service can
  start with; its ``[display]`` and ``[buttons]`` tables tell the checks below where
  the OLED and the pin map are.
- config.txt: the lines of ``firmware/config.txt`` are active on the boot partition,
  and nothing else there takes a pin the OLED or a button needs: a gpio-shutdown or
  1-Wire overlay on such a pin, or SPI (``dtparam=spi=on`` takes GPIO 7-11, where the
  shipped pin map has seats 2, 3 and 6).
- I2C bus and OLED: ``/dev/i2c-1`` exists and something answers at the display's
  address (``[display]`` port and address; 0x3C on bus 1 by default).
- camera: picamera2 finds a camera and a full-resolution still arrives.
- stands in view: in one still, every stand (seats 1 up to the highest found) is found
  and lies well inside the frame (:mod:`coyote_pi.vision.framing`), so a bumped camera
  does not lose it.
- camera focus: where the lens is fixed, calibrated or from the table's geometry; with
  ``--focus`` one autofocus cycle finds the table again and the result is kept in
  ``[camera] focus_file`` (after the mast or the camera moved).
- GPIO chip, pin map and button pins: ``/dev/gpiochip*`` is usable, the pin map is
  valid, and every button pin can be claimed and reads "not pressed" at rest.
- service user: ``coyote`` is in the gpio, i2c, video and audio groups.
- service: coyote-pi.service is enabled and running.
- web page: with ``[web] enabled``, the page (coyote-pi-web.service) answers an HTTP GET
  at the configured address within :data:`WEB_TIMEOUT` seconds.
- sound: with ``[speech] enabled`` (or ``--speak``), espeak-ng speaks and the configured
  ALSA device plays (a tenth of a second of silence; ``--speak``: a short test phrase
  people can hear).
- marker sheet: ``--calibration FILE.pdf`` writes a sheet to print at 100 % and
  measure with a ruler; sticker sizes are only right if this sheet is.

While the service runs it holds the camera and the button pins, so those two checks
are skipped with a note to stop it first. The web page may ask the running table for
the checks that can run inside it (:func:`in_table_checks`: no device it holds, no
service it is). The exit status is 1 when a check failed,
otherwise 0 (skips included).

Every probe of the machine goes through :class:`Host`, so the tests exercise the pass
and fail paths with a fake root and fake probes.

This module is a little over the project's 600-line guide on purpose: it is one list of
checks, each probe beside the verdict and the fix it prints, in the order a host sets up
the device; the command line that drives it is :mod:`coyote_pi.commands.doctor`.
"""

from __future__ import annotations

import dataclasses
import errno
import fcntl
import os
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from coyote_pi.config import ConfigError, SpeechSettings, load_config, split_listen
from coyote_pi.devices.config import CameraConfig
from coyote_pi.devices.errors import CameraError, CameraLibraryError
from coyote_pi.devices.focus import FocusSettings, describe, load_focus, save_focus
from coyote_pi.devices.gpio_lines import SPI0_GPIOS, holder_for
from coyote_pi.pi import install

if TYPE_CHECKING:
    import numpy as np

    from coyote_pi.devices.config import DevicesConfig
    from coyote_pi.devices.pinmap import PinMap

#: The active lines ``firmware/config.txt`` adds (a test keeps the two the same).
REQUIRED_BOOT_LINES = (
    "dtparam=i2c_arm=on",
    "dtparam=i2c_arm_baudrate=400000",
    "camera_auto_detect=1",
    "dtoverlay=gpio-shutdown,gpio_pin=21,active_low=1,gpio_pull=up",
)
#: The gpio-shutdown overlay's pin when ``gpio_pin`` is not given.
SHUTDOWN_DEFAULT_GPIO = 3
#: The w1-gpio (1-Wire) overlay's pin when ``gpiopin`` is not given.
W1_DEFAULT_GPIO = 4
#: ``ioctl`` request that selects the I2C peripheral address (linux/i2c-dev.h).
I2C_SLAVE = 0x0703

#: One sheet to check the printer's scale: lengths in millimetres.
RULER_MM = 100
SQUARE_MM = 25
BANK_CARD_MM = (85.60, 53.98)  # ISO/IEC 7810 ID-1: any bank card fits this outline

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
#: Seconds the web page has to answer the doctor.
WEB_TIMEOUT = 3.0
STOP_SERVICE = "sudo systemctl stop coyote-pi, run the doctor, then sudo systemctl start coyote-pi"


class CameraProbeError(Exception):
    """The camera library loaded but no usable frame came; the message says why."""


class GPIOUnavailable(Exception):
    """No GPIO backend could be loaded (gpiozero found no pin factory)."""


@dataclass(frozen=True)
class Result:
    """The outcome of one check: a status, the check's name, and what was found or what to do."""

    status: str
    name: str
    detail: str

    def line(self) -> str:
        return f"{self.status}  {self.name:<14} {self.detail}"


def run_query(argv: Sequence[str]) -> tuple[int, str]:
    """Run a read-only command; ``(exit status, stdout)``, status 127 when it is missing."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=15, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return 127, ""
    return done.returncode, done.stdout.strip()


def probe_i2c_address(device: Path, address: int) -> None:
    """Raise ``OSError`` unless a chip answers at ``address`` on the I2C bus ``device``.

    Selects the address and reads one byte, as ``i2cdetect -r`` does: the SSD1306 and
    SH1106 acknowledge a read (it returns their status byte), an empty address does not.
    """
    fd = os.open(device, os.O_RDWR | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, I2C_SLAVE, address)
        os.read(fd, 1)
    finally:
        os.close(fd)


def probe_camera() -> str:
    """Take one full-resolution still with picamera2; describe it, or raise.

    :class:`~coyote_pi.devices.errors.CameraLibraryError` when picamera2 is missing or
    does not load (a numpy of another release), :class:`CameraProbeError` when no camera
    is found or it delivers nothing usable, ``RuntimeError`` from libcamera otherwise.
    """
    model, frame = capture_still()
    height, width = frame.shape[:2]
    return f"{model} delivered a {width}x{height} still"


def probe_stands() -> list[str]:
    """Read the stands in one still (raising as :func:`probe_camera` does): one line for
    each stand that is missing or too near the frame's edge, with what to do (none:
    every stand is well in view)."""
    from coyote_pi.vision.framing import framing_advice, framing_problems
    from coyote_pi.vision.reader import TableReader

    _, frame = capture_still()
    reading = TableReader().read(frame)
    if not reading.seats:
        return ["no stand found: is the camera over the table, and are the stand markers stuck on?"]
    return framing_advice(framing_problems(reading, (frame.shape[1], frame.shape[0]))) + focus_check(frame)[1]


def focus_check(frame: np.ndarray) -> tuple[list[str], list[str]]:
    """How sharply and how large each stand is seen in ``frame`` (a still of the table),
    measured on its markers (:func:`coyote_pi.vision.sharpness.stand_sharpness`): one
    line per stand, and one line per stand that is out of focus, too small or faint,
    with the fix, ending with the fixed lens position that keeps every stand sharp."""
    from coyote_pi.vision.sharpness import lens_position_for, stand_sharpness

    stands = stand_sharpness(frame)
    report = [stand.summary() for stand in stands.values()]
    problems = [f"stand {stand.seat} {problem}" for stand in stands.values() for problem in stand.problems()]
    position = lens_position_for(stands)
    if problems and position is not None:
        problems.append(f"the lens position that keeps every stand equally sharp: {describe(position)}")
    return report, problems


def capture_still() -> tuple[str, np.ndarray]:
    """(the camera's model, one full-resolution still from it), or raise as :func:`probe_camera` says."""
    os.environ.setdefault("LIBCAMERA_LOG_LEVELS", "*:ERROR")  # libcamera is chatty on stderr
    from coyote_pi.devices.camera import load_picamera2

    Picamera2 = load_picamera2()

    cameras = Picamera2.global_camera_info()
    if not cameras:
        raise CameraProbeError("no camera found")
    camera = Picamera2()
    try:
        camera.configure(camera.create_still_configuration())
        camera.start()
        frame = camera.capture_array()
    finally:
        camera.close()
    model = cameras[0].get("Model", "camera")
    if frame.size == 0 or int(frame.max()) == int(frame.min()):
        raise CameraProbeError(f"the {model} delivers blank frames")
    return model, frame


def probe_focus(camera: CameraConfig) -> float:
    """Run one autofocus cycle with the Pi camera of ``camera`` and fix the lens half-way
    between the nearest and the farthest stand seen in a still taken there
    (:func:`~coyote_pi.vision.sharpness.lens_position_from_still`), or where autofocus
    found focus when fewer than two stands are seen: the position, in dioptres, as the
    service's first start finds it.

    Raises :class:`~coyote_pi.devices.errors.CameraLibraryError` when picamera2 is missing
    or does not load, :class:`CameraError` when no camera answers or the cycle finds no
    focus on the table.
    """
    os.environ.setdefault("LIBCAMERA_LOG_LEVELS", "*:ERROR")  # libcamera is chatty on stderr
    from coyote_pi.devices.camera import Picamera2Camera
    from coyote_pi.vision.sharpness import lens_position_from_still

    # The doctor keeps the result itself, under its root: no file here.
    focus = FocusSettings(camera.focus_cm, None, from_still=lens_position_from_still)
    with Picamera2Camera(camera.size, focus=focus, mains_hz=camera.mains_hz) as pi_camera:
        return pi_camera.calibrate()


def probe_http(url: str) -> int:
    """The HTTP status of a GET of ``url`` (an error status counts: the page answered);
    OSError when nothing answers within :data:`WEB_TIMEOUT`."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=WEB_TIMEOUT) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def probe_sound(settings: SpeechSettings, text: str, language: str, audible: bool) -> None:
    """espeak-ng makes ``text``, and ``settings.device`` plays it (``audible``) or a tenth
    of a second of silence: VoiceMissing, SoundError or RuntimeError when it cannot."""
    from coyote_pi.speech.announcer import Kind, Phrase
    from coyote_pi.speech.sinks import AlsaSink
    from coyote_pi.speech.voice import Espeak

    voice = Espeak(volume=settings.volume, rate=settings.rate, voice=settings.voice)
    sound = b"".join(voice.speak(text, language))
    rate = voice.sound.rate * voice.sound.channels * voice.sound.sample_width
    AlsaSink(settings.device).play(Phrase(Kind.TURN, text, language), voice.sound,
                                   [sound if audible else bytes(rate // 10 // 2 * 2)])


def probe_gpio_pins(pins: Sequence[int], pin_factory: object = None) -> dict[int, str]:
    """Claim each pin as a pulled-up input, as the buttons do: ``{gpio: state}``.

    The state is ``"idle"``, ``"pressed"`` (the line is low at rest: a stuck button or
    a wire touching ground) or ``"busy: why"`` (another program or driver has it).
    Raises :class:`GPIOUnavailable` when gpiozero has no backend on this machine.
    """
    from gpiozero import DigitalInputDevice
    from gpiozero.exc import BadPinFactory

    states = {}
    for gpio in pins:
        try:
            device = DigitalInputDevice(gpio, pull_up=True, pin_factory=pin_factory)
        except BadPinFactory as err:
            raise GPIOUnavailable(str(err)) from None
        except Exception as err:  # each backend reports a taken line its own way
            states[gpio] = f"busy: {err}; {holder_for(gpio, pin_factory)}"
            continue
        try:
            states[gpio] = "pressed" if device.is_active else "idle"
        finally:
            device.close()
    return states


@dataclass
class Host:
    """Where the doctor looks. Tests replace the root and any probe."""

    root: Path = Path("/")
    query: Callable[[Sequence[str]], tuple[int, str]] = run_query
    i2c_probe: Callable[[Path, int], None] = probe_i2c_address
    camera_probe: Callable[[], str] = probe_camera
    stands_probe: Callable[[], list[str]] = probe_stands
    focus_probe: Callable[[CameraConfig], float] = probe_focus
    gpio_probe: Callable[[Sequence[int]], dict[int, str]] = probe_gpio_pins
    http_probe: Callable[[str], int] = probe_http
    sound_probe: Callable[[SpeechSettings, str, str, bool], None] = probe_sound

    def path(self, absolute: str) -> Path:
        return install.under(self.root, absolute)

    def pi_model(self) -> str | None:
        """The board's name if it is a Raspberry Pi, else None."""
        return install.pi_model(self.root)


@dataclass
class Options:
    """What the command line can change."""

    config: Path = Path(install.CONFIG)
    pinmap: Path | None = None  # None: [buttons] pinmap, else the one shipped with the package
    oled_address: str | None = None  # None: [display] address
    calibration: Path | None = None
    focus: bool = False  # run an autofocus cycle and keep its result
    speak: bool = False  # play a test phrase people can hear


@dataclass
class Doctor:
    """Runs the checks against one :class:`Host`."""

    host: Host = field(default_factory=Host)
    options: Options = field(default_factory=Options)

    def __post_init__(self) -> None:
        self.model = self.host.pi_model()
        self._service_state: tuple[str, str] | None = None

    def checks(self) -> list[Result]:
        """Every check's result, in the order a host sets the device up."""
        devices, config_result = self._configuration()
        display = devices.display
        if self.options.oled_address is not None:
            display = dataclasses.replace(display, address=self.options.oled_address)
        pins, pins_result = self._pinmap(self.options.pinmap or devices.buttons.pinmap or None)
        return [
            self.board(),
            config_result,
            self.boot_config(pins),
            self.i2c_bus(display.port),
            self.oled(display.port, display.address),
            self.camera(),
            self.stands_in_view(),
            self.camera_focus(devices.camera),
            self.gpio_chip(),
            pins_result,
            self.button_pins(pins),
            self.user_groups(),
            self.service(),
            self.web_page(),
            self.sound(),
            self.marker_sheet(),
        ]

    def in_table_checks(self) -> list[Result]:
        """The checks that can run inside the running table: none of the devices it holds
        (OLED, camera, button pins), not the service it is, no printing."""
        devices, config_result = self._configuration()
        pins, pins_result = self._pinmap(self.options.pinmap or devices.buttons.pinmap or None)
        return [self.board(), config_result, self.boot_config(pins), self.i2c_bus(devices.display.port),
                self.camera_focus(devices.camera), self.gpio_chip(), pins_result, self.user_groups()]

    # -- the checks -------------------------------------------------------------------

    def board(self) -> Result:
        if self.model:
            return Result(PASS, "board", self.model)
        return Result(SKIP, "board", "not a Raspberry Pi: the I2C, OLED, camera, GPIO and pin checks cannot run here")

    def boot_config(self, pins: PinMap | None) -> Result:
        name = "config.txt"
        path = install.find_boot_config(self.host.root)
        if path is None:
            if self.model:
                return Result(
                    FAIL, name, "no /boot/firmware/config.txt: is this Raspberry Pi OS? See docs/raspberry-pi.md"
                )
            return Result(SKIP, name, "no Raspberry Pi boot partition here")
        active = _active_lines(path.read_text(encoding="utf-8", errors="replace"))
        missing = [line for line in REQUIRED_BOOT_LINES if line not in active]
        if missing:
            return Result(FAIL, name, f"missing {', '.join(missing)}: run sudo make install, then sudo reboot")
        taken = {pin.gpio: label for label, pin in pins.uses() if label != "shutdown button"} if pins else {}
        taken.update({2: "OLED SDA", 3: "OLED SCL"})
        for line in active:
            claim = _pins_claimed(line)
            if claim is None:
                continue
            what, gpios, why = claim
            clashes = [f"GPIO{gpio}, the {taken[gpio]}" for gpio in gpios if gpio in taken]
            if clashes:
                return Result(
                    FAIL, name, f"'{line}' puts {what} on {'; '.join(clashes)}: delete that line {why}, then sudo reboot"
                )
        return Result(
            PASS, name, f"{'/' + str(path.relative_to(self.host.root))} has the I2C, camera and shutdown lines"
        )

    def i2c_bus(self, port: int) -> Result:
        if not self.model:
            return Result(SKIP, "I2C bus", "not a Raspberry Pi")
        device = self.host.path(f"/dev/i2c-{port}")
        if device.exists():
            return Result(PASS, "I2C bus", f"/dev/{device.name} is there")
        return Result(
            FAIL,
            "I2C bus",
            f"no /dev/{device.name}: I2C is off or i2c-dev not loaded: run sudo make install, then sudo reboot",
        )

    def oled(self, port: int, address_text: str) -> Result:
        if not self.model:
            return Result(SKIP, "OLED", "not a Raspberry Pi")
        device = self.host.path(f"/dev/i2c-{port}")
        if not device.exists():
            return Result(SKIP, "OLED", f"needs the I2C bus (/dev/{device.name})")
        address = int(address_text, 0)  # checked by DisplayConfig.validate
        where = f"0x{address:02X} on /dev/{device.name}"
        try:
            self.host.i2c_probe(device, address)
        except PermissionError:
            return Result(FAIL, "OLED", f"no permission to open /dev/{device.name}: run sudo coyote-pi doctor")
        except OSError as err:
            if err.errno == errno.EBUSY:
                return Result(FAIL, "OLED", f"a kernel driver holds {where}: remove its dtoverlay from config.txt")
            return Result(
                FAIL,
                "OLED",
                f"nothing answers at {where}: check VCC to pin 1, GND to pin 6, SDA to pin 3, SCL to pin 5 "
                f"(docs/wiring.md); `i2cdetect -y {port}` lists what answers; a module at 0x3D needs "
                f'address = "0x3D" under [display] in {self.options.config}',
            )
        return Result(PASS, "OLED", f"a display answers at {where}")

    def camera(self) -> Result:
        if not self.model:
            return Result(SKIP, "camera", "not a Raspberry Pi")
        if self._service_active():
            return Result(SKIP, "camera", f"the running service holds the camera: to test it, {STOP_SERVICE}")
        try:
            found = self.host.camera_probe()
        except CameraLibraryError as err:
            return Result(
                FAIL, "camera", f"{err} (run the doctor as {install.VENV}/bin/coyote-pi: that venv sees the apt packages)"
            )
        except Exception as err:  # CameraProbeError, libcamera's RuntimeError, or anything else: a finding
            what = str(err) if isinstance(err, (CameraProbeError, RuntimeError)) else f"{type(err).__name__}: {err}"
            return Result(
                FAIL,
                "camera",
                f"{what}: check the ribbon (fully in, latch closed, contacts the right way, see docs/wiring.md), "
                "camera_auto_detect=1 in config.txt; `rpicam-hello --list-cameras` lists what the Pi sees",
            )
        return Result(PASS, "camera", found)

    def stands_in_view(self) -> Result:
        name = "stands in view"
        if not self.model:
            return Result(SKIP, name, "not a Raspberry Pi")
        if self._service_active():
            return Result(SKIP, name, f"the running service holds the camera: to test it, {STOP_SERVICE}")
        try:
            problems = self.host.stands_probe()
        except Exception as err:  # the camera check above says what is wrong with the camera
            return Result(SKIP, name, f"no still to look at ({type(err).__name__}: {err})")
        if problems:
            return Result(FAIL, name, "; ".join(problems))
        return Result(PASS, name, "every stand is found, well inside the frame")

    def camera_focus(self, camera: CameraConfig) -> Result:
        name = "camera focus"
        if not self.model:
            return Result(SKIP, name, "not a Raspberry Pi")
        if camera.backend != "picamera2":
            return Result(SKIP, name, f"[camera] backend is {camera.backend!r}: no Pi camera lens to focus")
        geometry = f"{camera.focus_cm} cm from the table's geometry (focus_cm)"
        if not camera.focus_file:
            return Result(SKIP, name, f'[camera] focus_file = "": the lens stays at {geometry}')
        kept = self.host.path(camera.focus_file)
        if not self.options.focus:
            saved = load_focus(kept)
            if saved is None:
                return Result(SKIP, name, f"not calibrated yet: the lens is at {geometry}; the service calibrates "
                                          "when the camera first starts, or run sudo coyote-pi doctor --focus")
            return Result(
                PASS, name, f"lens fixed at {describe(saved)}, calibrated by autofocus ({camera.focus_file}); "
                "after moving the mast or the camera: sudo coyote-pi doctor --focus"
            )
        if self._service_active():
            return Result(SKIP, name, f"the running service holds the camera: to focus it, {STOP_SERVICE}")
        try:
            position = self.host.focus_probe(camera)
        except CameraLibraryError:  # before CameraError, its parent: no lens moved, nothing to lay out
            return Result(FAIL, name, "picamera2 does not load: see the camera check")
        except CameraError as err:
            return Result(FAIL, name, f"{err}: lay the mat and the stands under the camera, light the table, "
                                      "then run sudo coyote-pi doctor --focus again")
        try:
            save_focus(kept, position)
        except OSError as err:
            return Result(FAIL, name, f"autofocus found {describe(position)} but {camera.focus_file} cannot be "
                                      f"written ({err.strerror or err}): run sudo coyote-pi doctor --focus")
        return Result(PASS, name, f"focus set to {describe(position)} (between the nearest and the farthest stand, "
                                  f"or where autofocus found it): kept in {camera.focus_file}, used from "
                                  "the next start of the service")

    def gpio_chip(self) -> Result:
        if not self.model:
            return Result(SKIP, "GPIO chip", "not a Raspberry Pi")
        chips = sorted(self.host.path("/dev").glob("gpiochip*"))
        if not chips:
            return Result(
                FAIL, "GPIO chip", "no /dev/gpiochip*: the kernel has no GPIO character device; update Raspberry Pi OS"
            )
        names = ", ".join(chip.name for chip in chips)
        if not any(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
            return Result(
                FAIL, "GPIO chip", f"{names} not usable by this user: run sudo coyote-pi doctor, or join the gpio group"
            )
        return Result(PASS, "GPIO chip", names)

    def button_pins(self, pins: PinMap | None) -> Result:
        name = "button pins"
        if pins is None:
            return Result(SKIP, name, "needs a valid pin map")
        if not self.model:
            return Result(SKIP, name, "not a Raspberry Pi")
        if self._service_active():
            return Result(SKIP, name, f"the running service holds the pins: to test them, {STOP_SERVICE}")
        labels = {pin.gpio: label for label, pin in pins.uses() if label.startswith("seat")}
        try:
            states = self.host.gpio_probe(sorted(labels))
        except GPIOUnavailable as err:
            return Result(FAIL, name, f"no GPIO backend ({err}): sudo apt install python3-lgpio")
        problems = [
            f"GPIO{gpio} ({labels[gpio]}) {_explain(state)}"
            for gpio, state in sorted(states.items())
            if state != "idle"
        ]
        if problems:
            return Result(FAIL, name, "; ".join(problems))
        return Result(PASS, name, f"all {len(states)} button pins free and not pressed")

    def user_groups(self) -> Result:
        name = "service user"
        if install.USER not in install.users(self.host.root):
            if self.model:
                return Result(FAIL, name, f"no user {install.USER}: run sudo make install")
            return Result(SKIP, name, f"no user {install.USER}: the device is not installed on this machine")
        members = install.group_members(self.host.root)
        lacking = [group for group in install.GROUPS if install.USER not in members.get(group, ())]
        if lacking:
            return Result(
                FAIL,
                name,
                f"{install.USER} is not in {', '.join(lacking)}: run sudo make install (or sudo usermod -aG "
                f"{','.join(lacking)} {install.USER}), then sudo systemctl restart coyote-pi",
            )
        return Result(PASS, name, f"{install.USER} is in {', '.join(install.GROUPS)}")

    def service(self) -> Result:
        name = "service"
        if not install.systemd_running(self.host.root):
            return Result(SKIP, name, "systemd is not running here")
        if not self.host.path(install.UNIT).exists():
            if self.model:
                return Result(FAIL, name, f"{install.UNIT_NAME} is not installed: run sudo make install")
            return Result(SKIP, name, f"{install.UNIT_NAME} is not installed on this machine")
        enabled, active = self._service_states()
        logs = "journalctl -u coyote-pi -b -n 50 shows why"
        if active == "failed":
            return Result(FAIL, name, f"failed: {logs}; then sudo systemctl restart coyote-pi")
        if active in ("activating", "reloading", "deactivating"):
            return Result(
                FAIL, name, f"{active}, not yet running: run the doctor again in a minute; if it stays so, {logs}"
            )
        if active != "active":
            return Result(FAIL, name, f"{active}: start it with sudo systemctl start coyote-pi")
        if enabled != "enabled":
            return Result(FAIL, name, f"running but {enabled}, so not started at boot: sudo systemctl enable coyote-pi")
        return Result(PASS, name, "enabled and running")

    def web_page(self) -> Result:
        name = "web page"
        path = self.host.path(str(self.options.config.absolute()))
        if not path.is_file():
            return Result(SKIP, name, f"no {self.options.config} (see the configuration's line)")
        try:
            web = load_config(path).web
        except ConfigError:
            return Result(SKIP, name, "the configuration is not valid (see its line)")
        if not web.enabled:
            return Result(SKIP, name, "[web] enabled = false in the configuration")
        host, port = split_listen(web.listen)
        local = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
        url = f"http://{local if ':' not in local else f'[{local}]'}:{port}/"
        try:
            status = self.host.http_probe(url)
        except OSError as err:
            reason = getattr(err, "reason", None) or err
            return Result(FAIL, name, f"no answer at {url} ({reason}): systemctl status coyote-pi-web; "
                                      "journalctl -u coyote-pi-web -b -n 50 shows why")
        return Result(PASS, name, f"answers at {url} (HTTP {status}); phones use {web.address()}")

    def sound(self) -> Result:
        from coyote_pi.speech.sinks import SoundError
        from coyote_pi.speech.voice import VoiceMissing
        from coyote_pi.words.translator import Translator

        name = "sound"
        path = self.host.path(str(self.options.config.absolute()))
        if not path.is_file():
            return Result(SKIP, name, f"no {self.options.config} (see the configuration's line)")
        try:
            config = load_config(path)
        except ConfigError:
            return Result(SKIP, name, "the configuration is not valid (see its line)")
        speech = config.speech
        if not speech.enabled and not self.options.speak:
            return Result(SKIP, name, "[speech] enabled = false: the table is silent (--speak tests it anyway)")
        language = config.game.language or "en"
        try:
            self.host.sound_probe(speech, Translator(language)("say.test"), language, self.options.speak)
        except VoiceMissing as err:
            return Result(FAIL, name, f"{err}: sudo apt install espeak-ng (sudo make install adds it)")
        except (SoundError, RuntimeError) as err:
            return Result(FAIL, name, f"{err}: aplay -L lists the devices; set [speech] device, then "
                                      "sudo systemctl restart coyote-pi (docs/raspberry-pi.md, the table's voice)")
        said = "played the test phrase" if self.options.speak else "plays"
        return Result(PASS, name, f"espeak-ng speaks and the sound device {speech.device} {said}")

    def marker_sheet(self) -> Result:
        name = "marker sheet"
        target = self.options.calibration
        if target is None:
            return Result(
                SKIP,
                name,
                "check the printer's scale: coyote-pi doctor --calibration scale.pdf, print it at 100 %, measure it",
            )
        try:
            write_calibration_sheet(target)
        except OSError as err:
            return Result(FAIL, name, f"cannot write {target}: {err.strerror or err}")
        return Result(
            PASS,
            name,
            f"wrote {target}: print it at 100 % ('actual size', no 'fit to page'); the bar must measure "
            f"{RULER_MM} mm and the square {SQUARE_MM} mm (within 1 mm), else fix the print settings before "
            "printing stickers (hardware/markers-howto.md)",
        )

    # -- shared facts -------------------------------------------------------------------

    def _configuration(self) -> tuple[DevicesConfig, Result]:
        """``(the device settings to check against, the result line for the file)``.

        A missing or broken file gives the ``real`` preset's settings, so the hardware
        checks still run with the defaults.
        """
        from coyote_pi.devices.config import DevicesConfig
        from coyote_pi.devices.errors import DeviceConfigError

        name, shown = "configuration", self.options.config
        defaults = DevicesConfig.preset("real")
        path = self.host.path(str(shown.absolute()))
        if not path.is_file():
            if self.model:
                return defaults, Result(FAIL, name, f"no {shown}: run sudo make install")
            return defaults, Result(SKIP, name, f"no {shown}: the device is not installed on this machine")
        try:
            return DevicesConfig.from_mapping(load_config(path).devices), Result(PASS, name, f"{shown} is valid")
        except (ConfigError, DeviceConfigError) as err:
            return defaults, Result(FAIL, name, f"{err}: fix it, then sudo systemctl restart coyote-pi")

    def _pinmap(self, path: Path | str | None) -> tuple[PinMap | None, Result]:
        """``(pin map or None, the result line for it)``; ``path`` None: the packaged one."""
        from coyote_pi.devices.errors import PinMapError
        from coyote_pi.devices.pinmap import load_pinmap

        try:
            pins = load_pinmap(path)
        except PinMapError as err:
            return None, Result(FAIL, "pin map", str(err))
        shutdown = f", power-off button on GPIO{pins.shutdown.gpio}" if pins.shutdown else ""
        buttons = sum(len(seat.buttons()) for seat in pins.seats)
        return pins, Result(PASS, "pin map", f"{len(pins.seats)} seats, {buttons} buttons{shutdown} ({pins.source})")

    def _service_states(self) -> tuple[str, str]:
        """``(is-enabled, is-active)`` as systemctl words them, asked once per run."""
        if self._service_state is None:
            enabled = self.host.query(["systemctl", "is-enabled", install.UNIT_NAME])[1] or "unknown"
            active = self.host.query(["systemctl", "is-active", install.UNIT_NAME])[1] or "unknown"
            self._service_state = (enabled, active)
        return self._service_state

    def _service_active(self) -> bool:
        if not install.systemd_running(self.host.root) or not self.host.path(install.UNIT).exists():
            return False
        return self._service_states()[1] == "active"


def in_table_checks(config: Path | str | None, host: Host | None = None) -> list[dict[str, object]]:
    """:meth:`Doctor.in_table_checks` as the web page shows them: ``{"name", "ok", "detail"}``,
    ``ok`` None for a skipped check. ``config`` is the table's configuration file."""
    options = Options(config=Path(config)) if config is not None else Options()
    results = Doctor(host or Host(), options).in_table_checks()
    return [{"name": r.name, "ok": None if r.status == SKIP else r.status == PASS, "detail": r.detail} for r in results]


def write_calibration_sheet(path: Path) -> None:
    """Write a one-page PDF to check the printer's scale with a ruler.

    A 100 mm ruler with millimetre ticks, a 25 mm square (a card sticker's size) and the
    outline of a bank card (85.60 x 53.98 mm, ISO/IEC 7810 ID-1), with instructions.
    """
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.set_xy(20, 20)
    pdf.cell(0, 8, "coyote-pi printer scale check")
    pdf.set_font("Helvetica", size=11)
    pdf.set_xy(20, 30)
    pdf.multi_cell(
        170,
        5.5,
        "Print this page at 100 % ('actual size'; turn off 'fit to page' and 'shrink oversized pages'). "
        f"Then measure with a ruler: the bar must be {RULER_MM} mm long and the square {SQUARE_MM} mm wide, "
        "within 1 mm; a bank card must fit the dashed outline exactly. If they are off, fix the print settings "
        "before you print marker stickers with `coyote-pi markers`.",
    )

    left, top = 20.0, 70.0
    pdf.set_line_width(0.2)
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(left, top, RULER_MM, 3, style="F")
    for mm in range(RULER_MM + 1):
        tick = 8 if mm % 10 == 0 else 5 if mm % 5 == 0 else 3
        pdf.line(left + mm, top + 3, left + mm, top + 3 + tick)
    pdf.set_font("Helvetica", size=8)
    for cm in range(RULER_MM // 10 + 1):
        pdf.set_xy(left + cm * 10 - 3, top + 12)
        pdf.cell(6, 4, str(cm * 10), align="C")
    pdf.set_xy(left + RULER_MM + 4, top)
    pdf.set_font("Helvetica", size=11)
    pdf.cell(40, 5, f"{RULER_MM} mm")

    square_top = top + 30
    pdf.set_line_width(0.3)
    pdf.rect(left, square_top, SQUARE_MM, SQUARE_MM)
    pdf.set_xy(left + SQUARE_MM + 4, square_top + SQUARE_MM / 2 - 2.5)
    pdf.cell(80, 5, f"{SQUARE_MM} x {SQUARE_MM} mm: a card sticker's size")

    card_top = square_top + SQUARE_MM + 15
    width, height = BANK_CARD_MM
    with pdf.local_context(dash_pattern={"dash": 2, "gap": 1}):
        pdf.rect(left, card_top, width, height)
    pdf.set_xy(left, card_top + height + 3)
    pdf.cell(0, 5, f"{width:.2f} x {height:.2f} mm: a bank card fits this outline")
    pdf.output(str(path))


def _explain(state: str) -> str:
    if state == "pressed":
        return "reads pressed at rest: a button is stuck or its wire touches ground"
    return f"is in use by another program or driver ({state.removeprefix('busy: ')}); stop it, or {STOP_SERVICE}"


def _active_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _overlay_gpio(line: str, parameter: str, default: int) -> int:
    found = re.search(rf"[,=]{parameter}=(\d+)", line)
    return int(found.group(1)) if found else default


def _pins_claimed(line: str) -> tuple[str, tuple[int, ...], str] | None:
    """What an active config.txt line takes from the header: ``(what, GPIOs, why it can go)``."""
    if line.startswith("dtoverlay=gpio-shutdown"):
        return "the power-off button", (_overlay_gpio(line, "gpio_pin", SHUTDOWN_DEFAULT_GPIO),), "(ours uses GPIO21)"
    if line.startswith("dtoverlay=w1-gpio"):
        return "the 1-Wire bus", (_overlay_gpio(line, "gpiopin", W1_DEFAULT_GPIO),), "(coyote-pi needs no 1-Wire)"
    if line.startswith("dtparam=") and any(
        part in ("spi", "spi=on", "spi=true", "spi=yes", "spi=1") for part in line.removeprefix("dtparam=").split(",")
    ):
        return "SPI0", SPI0_GPIOS, "(coyote-pi needs no SPI)"
    return None


