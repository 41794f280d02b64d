"""The page's systemd unit: no device, read-only records and bulletin, its own two writable
folders (the requests, the reviews it keeps), and ``systemd-analyze verify`` finds nothing
to say about it."""

from __future__ import annotations

import argparse
import subprocess

from coyote_pi.commands import web
from coyote_pi.pi import install
from tests.pi.test_pi_unit import needs_systemd_analyze, unit_settings, verify_root

UNIT = install.REPO / "systemd" / "coyote-pi-web.service"


def test_the_unit_has_no_device_and_writes_only_its_requests_and_reviews():
    unit = unit_settings(UNIT)
    for key, value in {"User": "coyote-web", "DevicePolicy": "closed", "PrivateDevices": "yes",
                       "ProtectSystem": "strict", "Restart": "on-failure",
                       "ReadWritePaths": "/var/lib/coyote-pi-web/requests /var/lib/coyote-pi-web/reviews",
                       "StateDirectory": "coyote-pi-web coyote-pi-web/requests coyote-pi-web/reviews",
                       "AmbientCapabilities": "CAP_NET_BIND_SERVICE",
                       "CapabilityBoundingSet": "CAP_NET_BIND_SERVICE"}.items():
        assert unit[key] == [value], key
    assert "DeviceAllow" not in unit and "MemoryMax" in unit
    # Read-only by ProtectSystem=strict, not by a bind mount of a folder that may come later.
    assert "ReadOnlyPaths" not in unit


def test_the_unit_starts_the_command_with_flags_it_has():
    parser = argparse.ArgumentParser()
    web.configure(parser)
    command = unit_settings(UNIT)["ExecStart"][0].split()
    assert command[0] == f"{install.VENV}/bin/coyote-pi" and command[1] == "web"
    args = parser.parse_args(command[2:])
    assert (str(args.records), str(args.bulletin), args.listen) == (
        "/var/lib/coyote-pi/games", "/run/coyote-pi/public", "0.0.0.0:80")
    # The page keeps its reviews in a folder the unit makes and lets it write, never beside the records.
    unit = unit_settings(UNIT)
    assert str(args.reviews) in unit["ReadWritePaths"][0].split()
    assert str(args.reviews) in (f"/var/lib/{folder}" for folder in unit["StateDirectory"][0].split())
    assert not args.reviews.is_relative_to(args.records)


@needs_systemd_analyze
def test_systemd_analyze_verify_passes_without_a_warning(tmp_path):
    root = verify_root(tmp_path, UNIT, "/etc/systemd/system/" + UNIT.name)
    result = subprocess.run(["systemd-analyze", "verify", f"--root={root}", UNIT.name],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
