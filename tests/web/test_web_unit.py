"""The page's systemd unit: no device, read-only records and bulletin, one writable folder,
and ``systemd-analyze verify`` finds nothing to say about it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from coyote_pi.commands import web

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "coyote-pi-web.service"
SYSTEM_UNIT_DIRS = (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system"))


def settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def test_the_unit_has_no_device_and_writes_only_its_requests():
    unit = settings()
    for key, value in {"User": "coyote-web", "DevicePolicy": "closed", "PrivateDevices": "yes",
                       "ProtectSystem": "strict", "Restart": "on-failure",
                       "ReadOnlyPaths": "/var/lib/coyote-pi/games /run/coyote-pi/public",
                       "ReadWritePaths": "/var/lib/coyote-pi-web/requests",
                       "AmbientCapabilities": "CAP_NET_BIND_SERVICE",
                       "CapabilityBoundingSet": "CAP_NET_BIND_SERVICE"}.items():
        assert unit[key] == [value], key
    assert "DeviceAllow" not in unit and "MemoryMax" in unit


def test_the_unit_starts_the_command_with_flags_it_has():
    import argparse

    parser = argparse.ArgumentParser()
    web.configure(parser)
    command = settings()["ExecStart"][0].split()
    assert command[1] == "web"
    args = parser.parse_args(command[2:])
    assert (str(args.records), str(args.bulletin), args.listen) == (
        "/var/lib/coyote-pi/games", "/run/coyote-pi/public", "0.0.0.0:80")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (apt package systemd)")
def test_systemd_analyze_verify_passes_without_a_warning(tmp_path):
    system_units = next((d for d in SYSTEM_UNIT_DIRS if (d / "sysinit.target").exists()), None)
    if system_units is None:
        pytest.skip("systemd's unit files (sysinit.target) are not installed")
    root = tmp_path / "root"
    shutil.copytree(system_units, root / "usr/lib/systemd/system", symlinks=True)
    shutil.copyfile(UNIT, root / "usr/lib/systemd/system" / UNIT.name)
    program = root / "opt/coyote-pi/venv/bin/coyote-pi"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", UNIT.name],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
