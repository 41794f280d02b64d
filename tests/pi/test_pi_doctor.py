"""``coyote-pi doctor`` against fake Pi roots and fake probes: every pass, fail and skip path."""

from __future__ import annotations

import argparse
import errno
import re
import socket
import zlib
from pathlib import Path

import pytest

from coyote_pi.commands import doctor as doctor_command
from coyote_pi.devices.errors import CameraError, CameraLibraryError
from coyote_pi.devices.focus import load_focus, save_focus
from coyote_pi.pi import doctor, install
from coyote_pi.pi.doctor import FAIL, PASS, SKIP, Doctor, Host, Options

from .fakes import STOCK_CONFIG_TXT

MODEL = "Raspberry Pi 5 Model B Rev 1.0"
CAMERA = "imx708_wide delivered a 4608x2592 still"


class FakeProbes:
    """The doctor's probes, answering what each test sets."""

    def __init__(self):
        self.i2c_error: OSError | None = None
        self.i2c_calls: list[tuple[str, int]] = []
        self.camera_error: Exception | None = None
        self.stand_problems: list[str] = []
        self.pin_states: dict[int, str] = {}
        self.gpio_error: Exception | None = None
        self.focus_found: float | Exception = 1.6
        self.focus_calls: list = []
        self.service = {"is-enabled": "enabled", "is-active": "active"}
        self.http: int | OSError = 200
        self.http_calls: list[str] = []

    def query(self, argv):
        assert argv[0] == "systemctl" and argv[2] == install.UNIT_NAME
        return 0, self.service[argv[1]]

    def i2c(self, device: Path, address: int) -> None:
        self.i2c_calls.append((device.name, address))
        if self.i2c_error:
            raise self.i2c_error

    def camera(self) -> str:
        if self.camera_error:
            raise self.camera_error
        return CAMERA

    def stands(self) -> list[str]:
        if self.camera_error:
            raise self.camera_error
        return list(self.stand_problems)

    def focus(self, camera) -> float:
        self.focus_calls.append(camera)
        if isinstance(self.focus_found, Exception):
            raise self.focus_found
        return self.focus_found

    def get(self, url: str) -> int:
        self.http_calls.append(url)
        if isinstance(self.http, OSError):
            raise self.http
        return self.http

    def gpio(self, pins):
        if self.gpio_error:
            raise self.gpio_error
        return {pin: self.pin_states.get(pin, "idle") for pin in pins}


def write(root: Path, name: str, text: str | bytes) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.fixture
def pi(tmp_path: Path) -> Path:
    """The root of an installed Raspberry Pi 5 with everything in place."""
    root = tmp_path / "pi"
    write(root, "proc/device-tree/model", MODEL.encode() + b"\0")
    write(
        root, "boot/firmware/config.txt", install.merge_block(STOCK_CONFIG_TXT, install.FIRMWARE_FRAGMENT.read_text())
    )
    for device in ("dev/i2c-1", "dev/gpiochip0", "dev/gpiochip4"):
        write(root, device, "")
    write(root, "etc/passwd", "root:x:0:0::/root:/bin/bash\ncoyote:x:999:999::/var/lib/coyote-pi:/usr/sbin/nologin\n")
    write(root, "etc/group", "video:x:44:pi,coyote\ni2c:x:994:pi,coyote\ngpio:x:993:coyote\naudio:x:29:coyote\n"
                             "coyote:x:999:\n")
    write(root, "etc/coyote-pi/config.toml", '[display]\ndriver = "sh1106"\naddress = "0x3D"\n')
    write(root, install.UNIT.lstrip("/"), install.UNIT_SOURCE.read_text())
    (root / "run/systemd/system").mkdir(parents=True)
    return root


@pytest.fixture
def probes() -> FakeProbes:
    return FakeProbes()


def check(root: Path, probes: FakeProbes, **options) -> dict[str, doctor.Result]:
    return {result.name: result for result in Doctor(fake_host(root, probes), Options(**options)).checks()}


def fake_host(root: Path, probes: FakeProbes) -> Host:
    return Host(root=root, query=probes.query, i2c_probe=probes.i2c, camera_probe=probes.camera, gpio_probe=probes.gpio,
                focus_probe=probes.focus, stands_probe=probes.stands, http_probe=probes.get)


def statuses(results: dict[str, doctor.Result]) -> dict[str, str]:
    return {name: result.status for name, result in results.items()}


def test_a_healthy_running_device_passes_and_says_what_it_could_not_test(pi, probes):
    results = check(pi, probes)

    assert statuses(results) == {
        "board": PASS, "configuration": PASS, "config.txt": PASS, "I2C bus": PASS, "OLED": PASS, "camera": SKIP,
        "stands in view": SKIP, "camera focus": SKIP, "GPIO chip": PASS, "pin map": PASS, "button pins": SKIP,
        "service user": PASS, "service": PASS, "web page": SKIP, "sound": SKIP, "marker sheet": SKIP,
    }  # fmt: skip
    assert results["board"].detail == MODEL
    assert probes.i2c_calls == [("i2c-1", 0x3D)]  # the address from [display]
    assert "sudo systemctl stop coyote-pi" in results["camera"].detail
    assert "sudo systemctl stop coyote-pi" in results["button pins"].detail
    assert results["GPIO chip"].detail == "gpiochip0, gpiochip4"


GUIDE = install.REPO / "docs" / "raspberry-pi.md"
#: Where the guide's sample has the package: the venv of a Pi running Bookworm's Python 3.11.
INSTALLED_PACKAGE = install.VENV + "/lib/python3.11/site-packages"


def test_the_guides_sample_is_what_the_doctor_prints_on_a_healthy_running_pi(pi, probes, monkeypatch, capsys):
    """docs/raspberry-pi.md, step 4, line for line: an installed Pi 5 (the installer's
    configuration, a calibrated lens) named coyote-pi, its service running, the package
    where the installer puts it."""
    write(pi, "etc/coyote-pi/config.toml", install.CONFIG_TEMPLATE.read_text())
    (pi / "var/lib/coyote-pi").mkdir(parents=True)
    save_focus(pi / "var/lib/coyote-pi/camera-focus.json", 1.59)
    monkeypatch.setattr(socket, "gethostname", lambda: "coyote-pi")
    parser = argparse.ArgumentParser()
    doctor_command.configure(parser)

    assert doctor_command.run(parser.parse_args([]), host=fake_host(pi, probes)) == 0

    printed = capsys.readouterr().out.replace(str(install.REPO), INSTALLED_PACKAGE)
    sample = re.search(r"```console\n\$ coyote-pi doctor\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL)
    assert sample, "docs/raspberry-pi.md has no sample of `coyote-pi doctor`"
    assert sample.group(1) == printed


def test_with_the_service_stopped_the_camera_and_pins_are_tested(pi, probes):
    probes.service["is-active"] = "inactive"
    results = check(pi, probes)

    assert results["camera"] == doctor.Result(PASS, "camera", CAMERA)
    assert results["stands in view"].status == PASS
    assert results["button pins"] == doctor.Result(PASS, "button pins", "all 18 button pins free and not pressed")
    assert results["service"].status == FAIL
    assert "sudo systemctl start coyote-pi" in results["service"].detail


def test_a_stand_near_the_frames_edge_fails_the_stands_check_with_what_to_do(pi, probes):
    probes.service["is-active"] = "inactive"
    probes.stand_problems = ["stand 4 only 35 px from the top edge (keep 78 px): move the stand towards the centre"]
    results = check(pi, probes)
    assert results["stands in view"] == doctor.Result(FAIL, "stands in view", probes.stand_problems[0])
    probes.camera_error = RuntimeError("no camera")
    assert check(pi, probes)["stands in view"].status == SKIP  # the camera check says why


def test_on_a_machine_that_is_not_a_pi_everything_it_cannot_check_is_skipped(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    doctor_command.configure(parser)

    status = doctor_command.run(parser.parse_args([]), host=Host(root=tmp_path))

    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert len(lines) == 17 and lines[-1] == "Summary: 1 pass, 0 fail, 15 skip"
    assert (
        lines[0]
        == "SKIP  board          not a Raspberry Pi: the I2C, OLED, camera, GPIO and pin checks cannot run here"
    )
    assert all(line.startswith(("SKIP", "PASS  pin map")) for line in lines[:-1])
    assert all(len(line.split(None, 2)) == 3 for line in lines[:-1]), "every line says why"


def test_missing_config_txt_lines_fail_with_the_fix(pi, probes):
    write(pi, "boot/firmware/config.txt", STOCK_CONFIG_TXT)
    result = check(pi, probes)["config.txt"]
    assert result.status == FAIL
    assert "missing dtparam=i2c_arm=on, dtparam=i2c_arm_baudrate=400000" in result.detail
    assert "sudo make install" in result.detail


@pytest.mark.parametrize(
    ("overlay", "victim"),
    [
        ("dtoverlay=gpio-shutdown", "the power-off button on GPIO3, the OLED SCL"),
        ("dtoverlay=gpio-shutdown,gpio_pin=17", "the power-off button on GPIO17, the seat 1 plus"),
        ("dtoverlay=w1-gpio", "the 1-Wire bus on GPIO4, the seat 1 minus"),
        ("dtoverlay=w1-gpio,gpiopin=22", "the 1-Wire bus on GPIO22, the seat 2 minus"),
        (
            "dtparam=spi=on",
            "SPI0 on GPIO7, the seat 6 ok; GPIO8, the seat 6 plus; GPIO9, the seat 2 ok; GPIO10, the seat 2 plus; "
            "GPIO11, the seat 3 minus: delete that line (coyote-pi needs no SPI)",
        ),
        ("dtparam=audio=on,spi=on", "SPI0 on GPIO7"),
    ],
)
def test_an_overlay_or_interface_on_a_used_pin_fails(pi, probes, overlay, victim):
    config = pi / "boot/firmware/config.txt"
    config.write_text(config.read_text() + overlay + "\n")
    result = check(pi, probes)["config.txt"]
    assert result.status == FAIL
    assert victim in result.detail and "delete that line" in result.detail


@pytest.mark.parametrize("line", ["dtparam=spi=off", "#dtparam=spi=on", "dtoverlay=w1-gpio,gpiopin=16"])
def test_interfaces_off_or_on_spare_pins_pass(pi, probes, line):
    config = pi / "boot/firmware/config.txt"
    config.write_text(config.read_text() + line + "\n")
    assert check(pi, probes)["config.txt"].status == PASS


def test_no_i2c_bus_fails_and_the_oled_check_waits_for_it(pi, probes):
    (pi / "dev/i2c-1").unlink()
    results = check(pi, probes)
    assert results["I2C bus"].status == FAIL and "sudo reboot" in results["I2C bus"].detail
    assert results["OLED"].status == SKIP
    assert probes.i2c_calls == []


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        (OSError(errno.EREMOTEIO, "Remote I/O error"), "nothing answers at 0x3D on /dev/i2c-1"),
        (PermissionError(errno.EACCES, "Permission denied"), "sudo coyote-pi doctor"),
        (OSError(errno.EBUSY, "Device or resource busy"), "a kernel driver holds 0x3D"),
    ],
)
def test_an_oled_that_does_not_answer_fails_with_what_to_check(pi, probes, error, advice):
    probes.i2c_error = error
    result = check(pi, probes)["OLED"]
    assert result.status == FAIL and advice in result.detail


def test_the_command_line_address_wins(pi, probes):
    assert check(pi, probes, oled_address="0x3c")["OLED"].detail == "a display answers at 0x3C on /dev/i2c-1"


def test_the_display_port_comes_from_the_configuration(pi, probes):
    write(pi, "etc/coyote-pi/config.toml", "[display]\nport = 3\n")
    results = check(pi, probes)
    assert results["I2C bus"].status == FAIL and "no /dev/i2c-3" in results["I2C bus"].detail


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('[display]\naddress = "0xZZ"\n', "[display] address '0xZZ' is not a number"),
        ("[game]\nplayers = 9\n", "[game] players must be 2 to 6, not 9"),
        ("[camera\n", "not valid TOML"),
    ],
)
def test_a_configuration_the_service_cannot_start_with_fails(pi, probes, text, complaint):
    write(pi, "etc/coyote-pi/config.toml", text)
    results = check(pi, probes)
    assert results["configuration"].status == FAIL
    assert complaint in results["configuration"].detail
    assert "sudo systemctl restart coyote-pi" in results["configuration"].detail
    # The other checks go on with the default settings.
    assert results["OLED"].detail == "a display answers at 0x3C on /dev/i2c-1"


def test_the_configured_pin_map_is_the_one_checked(pi, probes, tmp_path):
    broken = write(tmp_path, "pins.toml", "[i2c]\n")
    write(pi, "etc/coyote-pi/config.toml", f'[buttons]\npinmap = "{broken}"\n')
    assert check(pi, probes)["pin map"].status == FAIL


def test_the_installed_configuration_passes(pi, probes):
    write(pi, "etc/coyote-pi/config.toml", install.CONFIG_TEMPLATE.read_text())
    assert check(pi, probes)["configuration"] == doctor.Result(PASS, "configuration", f"{install.CONFIG} is valid")


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        (doctor.CameraProbeError("no camera found"), "no camera found: check the ribbon"),
        (RuntimeError("Failed to start camera"), "Failed to start camera: check the ribbon"),
        (OSError(errno.EBUSY, "Device or resource busy"), "OSError: [Errno 16] Device or resource busy: check the"),
    ],
)
def test_camera_failures_say_what_to_do(pi, probes, error, advice):
    probes.service["is-active"] = "inactive"
    probes.camera_error = error
    result = check(pi, probes)["camera"]
    assert result.status == FAIL and advice in result.detail


FOCUS_FILE = "var/lib/coyote-pi/camera-focus.json"


def test_the_focus_says_where_the_lens_is_fixed_and_how_to_calibrate_it(pi, probes):
    result = check(pi, probes)["camera focus"]
    assert result.status == SKIP and "not calibrated yet: the lens is at 61 cm" in result.detail
    assert "sudo coyote-pi doctor --focus" in result.detail
    write(pi, FOCUS_FILE, '{"lens_position": 1.55}')
    result = check(pi, probes)["camera focus"]
    assert result.status == PASS and result.detail.startswith("lens fixed at 0.65 m (1.55 dioptres), calibrated")
    assert probes.focus_calls == []  # only --focus moves the lens


def test_focus_calibrates_again_and_keeps_the_result(pi, probes):
    write(pi, FOCUS_FILE, '{"lens_position": 1.55}')
    assert check(pi, probes, focus=True)["camera focus"].status == SKIP  # the running service holds the camera
    probes.service["is-active"] = "inactive"
    result = check(pi, probes, focus=True)["camera focus"]
    assert result == doctor.Result(PASS, "camera focus", "focus set to 0.62 m (1.60 dioptres) (between the nearest "
                                   "and the farthest stand, or where autofocus found it): kept in "
                                   "/var/lib/coyote-pi/camera-focus.json, used from the next start of the service")
    assert load_focus(pi / FOCUS_FILE) == 1.6
    assert probes.focus_calls[0].focus_cm == 61 and probes.focus_calls[0].mains_hz == 50


def test_a_failed_focus_says_what_to_do_and_keeps_the_old_one(pi, probes):
    probes.service["is-active"] = "inactive"
    write(pi, FOCUS_FILE, '{"lens_position": 1.55}')
    probes.focus_found = CameraError("autofocus found no focus on the table (None)")
    result = check(pi, probes, focus=True)["camera focus"]
    assert result.status == FAIL and "lay the mat and the stands under the camera" in result.detail
    assert load_focus(pi / FOCUS_FILE) == 1.55


def test_a_focus_without_a_loadable_picamera2_points_to_the_camera_check(pi, probes):
    probes.service["is-active"] = "inactive"
    probes.focus_found = CameraLibraryError("picamera2 does not load (ValueError: numpy.dtype size changed)")
    result = check(pi, probes, focus=True)["camera focus"]
    assert result == doctor.Result(FAIL, "camera focus", "picamera2 does not load: see the camera check")


def test_stuck_and_taken_button_pins_are_named(pi, probes):
    probes.service["is-active"] = "inactive"
    probes.pin_states = {17: "pressed", 22: "busy: GPIO busy"}
    result = check(pi, probes)["button pins"]
    assert result.status == FAIL
    assert "GPIO17 (seat 1 plus) reads pressed at rest" in result.detail
    assert "GPIO22 (seat 2 minus) is in use by another program or driver (GPIO busy)" in result.detail


def test_no_gpio_backend_or_chip_fails(pi, probes):
    probes.service["is-active"] = "inactive"
    probes.gpio_error = doctor.GPIOUnavailable("Unable to load any default pin factory!")
    for chip in ("dev/gpiochip0", "dev/gpiochip4"):
        (pi / chip).unlink()
    results = check(pi, probes)
    assert results["button pins"].status == FAIL and "python3-lgpio" in results["button pins"].detail
    assert results["GPIO chip"].status == FAIL


def test_a_broken_pin_map_fails_and_the_pin_test_waits_for_it(pi, probes, tmp_path):
    broken = (
        (install.REPO / "hardware/pinmap.toml")
        .read_text()
        .replace("{ gpio = 4, header = 7 }", "{ gpio = 3, header = 5 }")
    )
    results = check(pi, probes, pinmap=write(tmp_path, "pinmap.toml", broken))
    assert results["pin map"].status == FAIL and "GPIO 3" in results["pin map"].detail
    assert results["button pins"] == doctor.Result(SKIP, "button pins", "needs a valid pin map")


def test_the_service_user_needs_every_group(pi, probes):
    write(pi, "etc/group", "video:x:44:coyote\ni2c:x:994:pi\ngpio:x:993:\naudio:x:29:coyote\n")
    result = check(pi, probes)["service user"]
    assert result.status == FAIL and "coyote is not in gpio, i2c:" in result.detail
    write(pi, "etc/passwd", "root:x:0:0::/root:/bin/bash\n")
    assert check(pi, probes)["service user"].status == FAIL


@pytest.mark.parametrize(
    ("enabled", "active", "advice"),
    [
        ("enabled", "failed", "journalctl -u coyote-pi -b -n 50"),
        ("enabled", "activating", "run the doctor again in a minute"),
        ("disabled", "active", "sudo systemctl enable coyote-pi"),
    ],
)
def test_service_states_that_need_the_host(pi, probes, enabled, active, advice):
    probes.service = {"is-enabled": enabled, "is-active": active}
    result = check(pi, probes)["service"]
    assert result.status == FAIL and advice in result.detail


def test_a_pi_without_the_install_fails_where_a_desktop_skips(pi, probes, tmp_path):
    (pi / install.UNIT.lstrip("/")).unlink()
    assert "sudo make install" in check(pi, probes)["service"].detail
    desktop = tmp_path / "desktop"
    write(desktop, "run/systemd/system/.keep", "")
    assert check(desktop, probes)["service"].status == SKIP


def mm_to_pt(mm: float) -> str:
    return f"{mm * 72 / 25.4:.2f}"


def test_the_calibration_sheet_has_true_sizes(pi, probes, tmp_path):
    sheet = tmp_path / "calibration.pdf"
    result = check(pi, probes, calibration=sheet)["marker sheet"]
    assert result.status == PASS and "100 mm" in result.detail

    data = sheet.read_bytes()
    assert data.startswith(b"%PDF")
    page = "".join(
        zlib.decompress(stream).decode("latin-1")
        for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
    )
    width, height = doctor.BANK_CARD_MM
    assert f"{mm_to_pt(doctor.RULER_MM)} -8.50 re f" in page  # the 100 mm bar, 3 mm high
    assert f"{mm_to_pt(doctor.SQUARE_MM)} -{mm_to_pt(doctor.SQUARE_MM)} re S" in page
    assert f"{mm_to_pt(width)} -{mm_to_pt(height)} re S" in page


def test_an_unwritable_calibration_target_fails(pi, probes, tmp_path):
    result = check(pi, probes, calibration=tmp_path / "no-such-folder" / "sheet.pdf")["marker sheet"]
    assert result.status == FAIL and "cannot write" in result.detail


@pytest.mark.parametrize(("text", "complaint"), [("3x", "is not a number"), ("0x78", "outside the I2C range")])
def test_a_bad_address_on_the_command_line_is_one_line(capsys, text, complaint):
    parser = argparse.ArgumentParser()
    doctor_command.configure(parser)
    assert doctor_command.run(parser.parse_args(["--oled-address", text])) == 2
    out = capsys.readouterr().out
    assert out.startswith("coyote-pi doctor: --oled-address: [display] address") and complaint in out
    assert out.count("\n") == 1


# -- the real probes, where this machine can run them ---------------------------------------


def test_the_gpio_probe_claims_pins_like_the_buttons_do():
    """With gpiozero's MockFactory: a free pin, one another device holds, one shorted to ground."""
    from gpiozero import Button, DigitalInputDevice
    from gpiozero.pins.mock import MockFactory, MockPin

    class ShortedToGround(MockPin):
        def _set_pull(self, value):
            super()._set_pull(value)
            self.drive_low()  # the wire wins over the pull-up

    factory = MockFactory()
    factory.pin(27, pin_class=ShortedToGround)
    holder = Button(17, pin_factory=factory)
    try:
        states = doctor.probe_gpio_pins([4, 17, 27], pin_factory=factory)
    finally:
        holder.close()

    assert states[4] == "idle" and states[27] == "pressed"
    assert states[17].startswith("busy: pin GPIO17 is already in use")
    assert states[17].endswith("held by another program or driver (`gpioinfo` lists who)")  # no kernel to ask here
    DigitalInputDevice(4, pin_factory=factory).close()  # the probe released the pins it claimed


def test_the_i2c_probe_reports_a_device_that_is_no_i2c_bus(tmp_path):
    not_a_bus = write(tmp_path, "i2c-9", "")
    with pytest.raises(OSError):
        doctor.probe_i2c_address(not_a_bus, 0x3C)


def test_without_picamera2_the_camera_check_says_to_install_it(pi, probes, no_picamera2):
    probes.service["is-active"] = "inactive"
    probes.camera = doctor.probe_camera  # the real probe, up to the import
    result = check(pi, probes)["camera"]
    assert result.status == FAIL
    assert "sudo apt install python3-picamera2" in result.detail
    assert f"run the doctor as {install.VENV}/bin/coyote-pi" in result.detail


def test_a_picamera2_built_for_another_numpy_fails_the_camera_check_instead_of_crashing(pi, probes, broken_picamera2):
    probes.service["is-active"] = "inactive"
    probes.camera = doctor.probe_camera
    results = check(pi, probes)
    assert results["camera"].status == FAIL
    assert f"picamera2 does not load (ValueError: {broken_picamera2}" in results["camera"].detail
    assert "make the venv afresh ('sudo rm -r /opt/coyote-pi/venv && sudo make install')" in results["camera"].detail
    assert results["GPIO chip"].status == PASS  # the checks after it still ran


def test_the_web_page_answers_or_the_doctor_says_where_to_look(pi, probes):
    write(pi, "etc/coyote-pi/config.toml", '[web]\nenabled = true\nlisten = "0.0.0.0:80"\nurl = "http://table.local/"\n')
    result = check(pi, probes)["web page"]
    assert (result.status, probes.http_calls) == (PASS, ["http://127.0.0.1:80/"])
    assert "HTTP 200" in result.detail and "http://table.local/" in result.detail
    probes.http = ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    result = check(pi, probes)["web page"]
    assert result.status == FAIL
    assert "no answer at http://127.0.0.1:80/" in result.detail and "journalctl -u coyote-pi-web" in result.detail


def test_the_checks_the_running_table_runs_touch_none_of_its_devices(pi, probes):
    def refuse(*args):
        raise AssertionError("the running table holds this device")

    host = fake_host(pi, probes)
    host.i2c_probe = host.camera_probe = host.gpio_probe = host.focus_probe = refuse
    checks = doctor.in_table_checks(Path("/etc/coyote-pi/config.toml"), host)
    assert [c["name"] for c in checks] == ["board", "configuration", "config.txt", "I2C bus", "camera focus",
                                           "GPIO chip", "pin map", "service user"]
    assert {c["name"]: c["ok"] for c in checks}["board"] is True
    assert all(isinstance(c["detail"], str) and c["ok"] in (True, False, None) for c in checks)
