"""The systemd unit and the firmware fragment: checked by systemd's own tools where present,
and against the installer, the doctor, the pin map and the docs that must agree with them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from coyote_pi.devices.pinmap import load_pinmap
from coyote_pi.pi import doctor, install

DOCS = install.REPO / "docs" / "raspberry-pi.md"
SYSTEM_UNIT_DIRS = (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))

needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (apt package systemd)"
)


def unit_settings(unit: Path = install.UNIT_SOURCE) -> dict[str, list[str]]:
    """``{key: [values]}`` of the unit; systemd allows a key more than once."""
    settings: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_runs_what_the_installer_installs():
    unit = unit_settings()
    assert unit["ExecStart"] == [f"{install.VENV}/bin/coyote-pi run --config {install.CONFIG}"]
    assert unit["User"] == [install.USER]
    assert unit["SupplementaryGroups"] == [" ".join(install.GROUPS)]
    assert unit["WorkingDirectory"] == [install.STATE_DIR]
    assert unit["StateDirectory"] == [Path(install.STATE_DIR).name]
    assert f"LG_WD={install.STATE_DIR}" in unit["Environment"]


def test_the_unit_is_watched_and_sandboxed():
    unit = unit_settings()
    for key, value in {
        "Type": "notify", "NotifyAccess": "main", "WatchdogSec": "30", "Restart": "on-failure",
        "DevicePolicy": "closed", "PrivateNetwork": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
        "PrivateTmp": "yes", "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "MemoryDenyWriteExecute": "yes",
        "UMask": "0077",
    }.items():  # fmt: skip
        assert unit[key] == [value], key
    devices = {value.split()[0] for value in unit["DeviceAllow"]}
    assert devices == {"char-gpiochip", "/dev/gpiomem", "char-i2c", "char-video4linux", "char-media", "char-dma_heap"}


def verify_root(tmp_path: Path, unit_source: Path = install.UNIT_SOURCE, unit_path: str = install.UNIT) -> Path:
    """A root holding systemd's own units, the unit (``unit_source`` installed as
    ``unit_path``) and a stand-in for its ExecStart program."""
    system_units = next((d for d in SYSTEM_UNIT_DIRS if (d / "sysinit.target").exists()), None)
    if system_units is None:
        pytest.skip("systemd's unit files (sysinit.target) are not installed")
    root = tmp_path / "root"
    shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True)
    unit = root / unit_path.lstrip("/")
    unit.parent.mkdir(parents=True)
    shutil.copyfile(unit_source, unit)
    program = root / (install.VENV.lstrip("/") + "/bin/coyote-pi")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    return root


@needs_systemd_analyze
def test_systemd_analyze_verify_passes_without_a_warning(tmp_path):
    root = verify_root(tmp_path)
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", install.UNIT_NAME],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def exposure_in_docs() -> float:
    found = re.search(r"exposure level[^\n]*?\b(\d+\.\d)\b", DOCS.read_text())
    assert found, f"{DOCS.name} must give the exposure figure"
    return float(found.group(1))


@needs_systemd_analyze
def test_security_exposure_is_low_and_the_docs_give_todays_figure():
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(install.UNIT_SOURCE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for coyote-pi\.service: (\d+\.\d)", result.stdout + result.stderr)
    assert found, result.stdout + result.stderr
    exposure = float(found.group(1))
    assert exposure <= 3.0
    assert exposure_in_docs() == exposure


def test_the_docs_exposure_figure_meets_the_target():
    assert exposure_in_docs() <= 3.0


# -- the firmware fragment ---------------------------------------------------------------


def fragment_lines() -> list[str]:
    text = install.FIRMWARE_FRAGMENT.read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_doctor_checks_exactly_the_lines_the_installer_adds():
    assert fragment_lines() == ["[all]", *doctor.REQUIRED_BOOT_LINES]


def test_the_shutdown_button_is_where_the_pin_map_puts_it_and_not_on_i2c():
    pins = load_pinmap(install.REPO / "hardware" / "pinmap.toml")
    overlay = next(line for line in fragment_lines() if line.startswith("dtoverlay=gpio-shutdown"))
    assert pins.shutdown is not None
    assert f"gpio_pin={pins.shutdown.gpio}," in overlay
    assert pins.shutdown.gpio not in (pins.sda.gpio, pins.scl.gpio)


def test_a_configuration_error_stops_the_service_instead_of_restarting_it_for_ever(tmp_path):
    """`coyote-pi run` exits 2 on a bad configuration file: the unit must not restart that."""
    from coyote_pi.cli import main

    config = tmp_path / "config.toml"
    config.write_text("[game\n")
    status = main(["run", "--config", str(config)])
    assert status == 2
    unit = unit_settings()
    assert unit["Restart"] == ["on-failure"] and unit["RestartPreventExitStatus"] == [str(status)]
    assert unit["SyslogLevelPrefix"] == ["yes"]  # coyote_pi/pi/journal.py's "<3>" prefixes are read
