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
        "UMask": "0027",
    }.items():  # fmt: skip
        assert unit[key] == [value], key
    devices = {value.split()[0] for value in unit["DeviceAllow"]}
    assert devices == {"char-gpiochip", "/dev/gpiomem", "char-i2c", "char-video4linux", "char-media", "char-dma_heap",
                       "char-alsa"}


def test_the_web_page_reads_the_records_and_the_bulletin_but_never_private():
    unit = unit_settings()
    # The group (the page's user is in it) may read and enter; others nothing. private/
    # is made 0700 with 0600 files by the record itself, whatever the umask.
    assert unit["StateDirectoryMode"] == ["0750"] and unit["UMask"] == ["0027"]
    assert unit["RuntimeDirectory"] == ["coyote-pi coyote-pi/public"] and unit["RuntimeDirectoryMode"] == ["0750"]
    assert unit["RuntimeDirectoryPreserve"] == ["yes"]  # the page keeps seeing it across a restart
    assert unit["ReadWritePaths"] == ["-" + install.WEB_HOME]


def test_the_hotspot_unit_runs_the_installed_command_once_and_keeps_its_key_from_the_page():
    settings = unit_settings(install.UNIT_SOURCES / install.HOTSPOT_UNIT_NAME)
    assert settings["ExecStart"] == [f"{install.VENV}/bin/coyote-pi hotspot --config {install.CONFIG} "
                                     "--out /run/coyote-pi-hotspot/hotspot.json"]
    assert settings["Type"] == ["oneshot"] and settings["RemainAfterExit"] == ["yes"]
    assert settings["Group"] == [install.USER] and settings["RuntimeDirectoryMode"] == ["0750"]
    assert settings["User"] == [install.HOTSPOT_USER]  # not root: the polkit rule lets this user alone


def test_the_polkit_rule_grants_the_hotspot_user_networkmanagers_hotspot_actions_only():
    rule = install.POLKIT_RULE_SOURCE.read_text()
    assert f'subject.user == "{install.HOTSPOT_USER}"' in rule
    actions = set(re.findall(r'"(org\.freedesktop\.[\w.-]+)"', rule))
    assert actions == {f"org.freedesktop.NetworkManager.{name}" for name in (
        "enable-disable-wifi", "network-control", "settings.modify.system", "wifi.share.open", "wifi.share.protected")}
    assert rule.count("polkit.Result.YES") == 1 and "polkit.Result.AUTH" not in rule


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


README = install.REPO / "README.md"


def exposure_of(unit: Path) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    name = re.escape(unit.name)
    found = re.search(rf"Overall exposure level for {name}: (\d+\.\d)", result.stdout + result.stderr)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


@needs_systemd_analyze
def test_security_exposure_is_low_and_the_docs_give_todays_figure():
    exposure = exposure_of(install.UNIT_SOURCE)
    assert exposure <= 3.0
    assert exposure_in_docs() == exposure


@needs_systemd_analyze
@pytest.mark.parametrize("name", install.UNIT_NAMES)
def test_every_unit_is_sandboxed_and_the_readme_gives_its_figure(name):
    """The README's sandbox claim holds for every unit, the hotspot's included (it once ran as root: 9.0)."""
    exposure = exposure_of(install.UNIT_SOURCES / name)
    assert exposure <= 3.0, name
    assert f"`{name}` **{exposure}**" in README.read_text(), f"README.md must give {name}'s exposure {exposure}"
    assert "User" in unit_settings(install.UNIT_SOURCES / name), f"{name} must not run as root"


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
